// attnx lab: what the page gets from the core for its files and statistics. Exported JSON/CSV are
// written by the core (formatSweep) byte for byte as `attnx sweep`; imports are read and checked
// by the core (parseSweep) in a worker, with messages naming the problem; a result computed by the
// page (split into parts, merged, fitted through the pool) writes the same file as the CLI.
// Fixtures in lab-fixtures/ are unedited `attnx sweep` outputs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { resultFile, importResult } from '../../web/lab/files.js';
import { runSweep } from '../../web/lab/runner.js';
import { labTable, workerOptions, gridOf } from '../../web/lab/settings.js';
import { readLink } from '../../web/lab/link.js';
import { browserResult, addPoint, fitKeeper } from '../../web/lab/results.js';
import { corePool } from './lab-pool.mjs';
import { CLI } from './helpers.mjs';

const text = (name) => readFileSync(new URL(`./lab-fixtures/${name}`, import.meta.url), 'utf8');
const JSONS = ['cli-sweep-paper.json', 'cli-sweep-dilated.json', 'cli-sweep-notreached.json'];

let core, schema;
before(async () => {
  core = await corePool();
  schema = core.api.schema();
});

// The file the page's Export button downloads: { name, type, text }.
const exported = (res, format, name = 'x') => resultFile(core, res, format, name);

const file = (body, name) => new File([body], name);

test('imports are parsed by the core in a worker; the page gets its medians, quantiles and fits', async () => {
  for (const f of JSONS) {
    const doc = JSON.parse(text(f));
    core.calls.length = 0;
    const rec = await importResult(core, file(text(f), f));
    assert.deepEqual(core.calls.map((c) => c[0]), ['parseSweep'], 'one call, in the pool');
    assert.equal(rec.source, 'import');
    assert.equal(rec.fileName, f);
    assert.equal(rec.version, doc.version);
    assert.deepEqual(rec.points.map((p) => p.d_mins), doc.points.map((p) => p.d_mins));
    assert.deepEqual(rec.points.map((p) => [p.median, p.quantile]), doc.points.map((p) => [p.median, p.quantile]), f);
    assert.deepEqual(rec.fits, doc.fits, `${f}: the core's fits, as the CLI wrote them`);
    assert.deepEqual(rec.params.Ls, doc.params.Ls);
  }
  const csv = await importResult(core, file(text('cli-sweep-paper.csv'), 'p.csv'));
  assert.deepEqual(csv.points.map((p) => p.quantile), JSON.parse(text('cli-sweep-paper.json')).points.map((p) => p.quantile));
});

test('exported JSON and CSV are the CLI\'s files byte for byte', async () => {
  for (const f of JSONS) {
    const rec = await importResult(core, file(text(f), f));
    const out = await exported(rec, 'json');
    assert.equal(out.type, 'application/json');
    assert.equal(out.text, text(f), f);
  }
  const rec = await importResult(core, file(text('cli-sweep-paper.json'), 'p.json'));
  assert.equal((await exported(rec, 'csv')).text, text('cli-sweep-paper.csv'));
  const fromCsv = await importResult(core, file(text('cli-sweep-paper.csv'), 'p.csv'));
  assert.equal((await exported(fromCsv, 'csv')).text, text('cli-sweep-paper.csv'));
});

test('export -> import round trip keeps every value (not reached included)', async () => {
  const table = labTable(schema);
  const st = readLink(schema, table, '#preset=paper&trials=3').state;
  const res = browserResult(schema, st, [64, 128], '0.1.0');
  res.points = [
    { L: 64, d_mins: [608, 688, null], median: 688, quantile: null, d_star: 3948.5, k: 2, max_col_count: 2, in_class: true, madds: 123456 },
    { L: 128, d_mins: [720, 800, 816], median: 800, quantile: 816, d_star: 4432.25, k: 2, max_col_count: 2, in_class: true, madds: 654321 },
  ];
  const json = await exported(res, 'json');
  assert.equal(json.name, 'x.json');
  const back = await importResult(core, file(json.text, 'r.json'));
  assert.deepEqual(back.points, res.points);
  assert.deepEqual(back.params, res.params);
  assert.equal(back.fits.log.ok, false, 'one reached quantile: no fit');
  const fromCsv = await importResult(core, file((await exported(res, 'csv')).text, 'r.csv'));
  for (const k of ['d_mins', 'median', 'quantile', 'd_star', 'k', 'max_col_count', 'in_class']) {
    assert.deepEqual(fromCsv.points.map((p) => p[k]), res.points.map((p) => p[k]), k);
  }
});

test('a broken import names the file and the problem (the core\'s message)', async () => {
  const good = JSON.parse(text('cli-sweep-paper.json'));
  const bad = (mut) => {
    const d = structuredClone(good);
    mut(d);
    return JSON.stringify(d);
  };
  const cases = [
    ['{ "points": [', /^the file is not valid JSON \(line 1, column 14/],
    ['', /^the file is empty$/],
    ['[1,2]', /JSON object/],
    [JSON.stringify({ command: 'mind', dMin: 3 }), /attnx mind.*not of "attnx sweep"/],
    [bad((d) => delete d.points), /^points is missing/],
    [bad((d) => { d.points = []; }), /^points is empty/],
    [bad((d) => delete d.params.delta), /^params\.delta is missing/],
    [bad((d) => { d.params.delta = 2; }), /^params\.delta must be a number in \(0, 1\) \(got 2\)/],
    [bad((d) => { d.points[1].d_mins[3] = 'abc'; }), /^points\[1\]\.d_mins\[3\] must be an integer d from 1 to 4096 or null \(got "abc"\)/],
    [bad((d) => { d.points[0].d_mins[0] = 5000; }), /^points\[0\]\.d_mins\[0\] must be an integer d from 1 to 4096/],
    [bad((d) => { d.points[2].L = 100; }), /^points\[2\]\.L must be larger than the previous length/],
    [bad((d) => { d.points[0].L = 1; }), /^points\[0\]\.L must be an integer from 2 to 16384 \(got 1\)/],
    [bad((d) => { d.points[0].median = 1; }), /^points\[0\]\.median is 1 but its d_mins give 608/],
    [bad((d) => { d.points[3].quantile = 7; }), /^points\[3\]\.quantile is 7/],
    [bad((d) => { d.points[1].d_mins.pop(); }), /^points\[1\]\.d_mins has 9 trials but params\.trials is 10/],
    [bad((d) => { d.params.pattern = 'custom'; }), /custom/],
    [bad((d) => { d.params.Ls = [1, 2]; }), /^params\.Ls .* does not match/],
    [bad((d) => { d.points[0].in_class = 'yes'; }), /in_class must be true or false/],
    ['L,x\n1,2\n', /CSV header must be/],
    ['L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins\n64,2,NA,NA,1,2,2,true,16;x\n', /^row 2, d_mins\[1\] must be a number or NA/],
  ];
  for (const [body, re] of cases) {
    await assert.rejects(importResult(core, file(body, 'bad.json')), (e) => e.message.startsWith('bad.json: ') && re.test(e.message.slice('bad.json: '.length)), `expected ${re} for ${body.slice(0, 60)}`);
  }
});

test('a sweep computed by the page (split, merged, fitted through the pool) writes the CLI\'s file', async (t) => {
  const table = labTable(schema);
  const st = readLink(schema, table, '#Ls=32,64,128&trials=5&seed=7').state;
  const Ls = gridOf(st);
  const res = browserResult(schema, st, Ls, core.api.version);
  const refit = fitKeeper(core, () => {});
  const out = await runSweep(core, { core: core.api, opts: workerOptions(schema, st), Ls, concurrency: 4, onPoint: (p) => { addPoint(res, p); refit(res); } });
  assert.equal(out.cancelled, false);
  await refit(res);
  assert.deepEqual(res.points.map((p) => p.L), Ls);
  const json = (await exported(res, 'json')).text;
  const back = JSON.parse(json);
  assert.deepEqual(back.params.Ls, Ls);
  assert.equal(back.params.max_bytes, schema.contexts.lab.defaults.maxBytes);
  if (!existsSync(CLI)) return t.skip('build/native/attnx is not built');
  const args = ['sweep', '--pattern', 'random', '--k', '2', '--Ls', '32,64,128', '--trials', '5', '--seed', '7', '--max-bytes', String(back.params.max_bytes)];
  const cli = execFileSync(CLI, args, { encoding: 'utf8' });
  const b = JSON.parse(cli);
  assert.deepEqual(back.points.map((p) => p.d_mins), b.points.map((p) => p.d_mins));
  assert.deepEqual(back.params, b.params);
  assert.deepEqual(back.fits.log.ok, b.fits.log.ok);
  // Byte for byte when the two builds agree on d* to the last bit (they use the same core).
  if (back.points.every((p, i) => p.d_star === b.points[i].d_star)) {
    assert.equal(json, cli);
    assert.equal((await exported(res, 'csv')).text, execFileSync(CLI, [...args, '--format', 'csv'], { encoding: 'utf8' }));
  }
});
