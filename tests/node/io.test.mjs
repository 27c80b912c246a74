// The text calls of the JS API (web/lib/attnx.js): sweep files written by the core byte for byte
// as `attnx sweep` writes them (also for a record computed in WebAssembly), read back to the lab's
// record shape; custom pattern files read with errors naming the line and written with weights
// as JavaScript prints them; statistics of merged points.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

import { load } from '../../web/lib/attnx.js';
import { requireBuilds, cliAvailable, CLI } from './helpers.mjs';

let api;
before(async () => {
  requireBuilds();
  api = await load();
});

const cliText = (args) => execFileSync(CLI, ['sweep', ...args], { encoding: 'utf8' });

const RUNS = [
  ['--Ls', '16,32', '--trials', '3'],
  ['--pattern', 'window', '--w', '2', '--Ls', '16,32,64', '--trials', '4', '--weights', 'decaying', '--decay', '0.5'],
  ['--Ls', '64,128', '--trials', '5', '--dmax', '32', '--step', '8'],  // nothing reached
  ['--Ls', '16,32', '--trials', '4', '--dmax', '400', '--seed', '3'],   // some trials reached
  ['--pattern', 'bigbird', '--Ls', '32,64', '--trials', '3', '--weights', 'random', '--w-min', '0.3', '--delta', '0.25', '--seed', '7'],
];

test('formatSweep(parseSweep(CLI text)) is the CLI text, JSON and CSV', (t) => {
  if (!cliAvailable()) return t.skip('build/native/attnx is not built');
  for (const args of RUNS) {
    const json = cliText(args), csv = cliText([...args, '--format', 'csv']);
    const rec = api.parseSweep(json);
    assert.equal(api.formatSweep(rec, 'json'), json, args.join(' '));
    assert.equal(api.formatSweep(rec, 'csv'), csv, args.join(' '));
    assert.equal(api.formatSweep(api.parseSweep(csv), 'csv'), csv, args.join(' '));
  }
});

test('parseSweep gives the lab record: the file\'s params, points and fits', (t) => {
  if (!cliAvailable()) return t.skip('build/native/attnx is not built');
  for (const args of RUNS) {
    const json = cliText(args);
    const doc = JSON.parse(json);
    const rec = api.parseSweep(json);
    assert.equal(rec.source, 'import');
    assert.equal(rec.complete, true);
    assert.equal(rec.version, doc.version);
    assert.deepEqual(rec.params, doc.params);
    assert.deepEqual(rec.points, doc.points);
    assert.deepEqual(rec.fits, doc.fits);
    const fromCsv = api.parseSweep(cliText([...args, '--format', 'csv']));
    assert.equal(fromCsv.version, null);
    assert.deepEqual(fromCsv.params, { delta: null, trials: doc.params.trials, Ls: doc.params.Ls });
    assert.deepEqual(fromCsv.points.map((p) => p.madds), doc.points.map(() => null));
    for (const k of ['L', 'd_mins', 'median', 'quantile', 'd_star', 'k', 'max_col_count', 'in_class'])
      assert.deepEqual(fromCsv.points.map((p) => p[k]), doc.points.map((p) => p[k]), k);
  }
});

test('a record computed point by point in WebAssembly is written as the CLI writes the sweep', (t) => {
  if (!cliAvailable()) return t.skip('build/native/attnx is not built');
  const opts = { pattern: 'random', k: 2, trials: 3, seed: 5, dmax: 1024 };
  const Ls = [16, 32];
  const args = ['--Ls', Ls.join(','), '--trials', '3', '--seed', '5', '--dmax', '1024', '--max-bytes', '1073741824'];
  const points = Ls.map((L) => {
    // The point as the lab makes it: the core's merge of its one part (SPEC §9 floors included).
    const r = api.sweepPoint({ ...opts, L });
    return api.mergeSweepParts(L, 3, 0.1, [{ ...r, firstTrial: 0 }]);
  });
  const params = { pattern: 'random', k: 2, weights: 'uniform', eps: 1, tau: 0.1, delta: 0.1, step: 16,
    d_max: 1024, trials: 3, seed: 5, max_bytes: 1073741824 };
  const cli = cliText(args);
  const doc = JSON.parse(cli);
  assert.deepEqual(points.map((p) => p.d_mins), doc.points.map((p) => p.d_mins));
  const rec = { version: api.version, params, points, fits: null };  // fits computed by the core
  const out = api.formatSweep(rec, 'json');
  assert.deepEqual(JSON.parse(out), doc);
  // Byte for byte when both builds computed d* to the same last bit (the same core; libm may differ).
  if (points.every((p, i) => p.d_star === doc.points[i].d_star)) {
    assert.equal(out, cli);
    assert.equal(api.formatSweep(rec, 'csv'), cliText([...args, '--format', 'csv']));
  }
});

test('formatSweep writes unknown and non-finite values as null / NA; refusals name the field', () => {
  const rec = {
    version: null,
    params: { delta: 0.5 },
    points: [{ L: 8, d_mins: [4, null], median: null, quantile: 4, d_star: Infinity, k: null, max_col_count: 3, in_class: null, madds: null }],
  };
  assert.equal(api.formatSweep(rec, 'csv'),
    'L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins\n8,2,NA,4,NA,NA,3,NA,4;NA\n');
  const json = api.formatSweep(rec, 'json');
  assert.match(json, /"d_star": null,\n {6}"k": null,/);
  assert.match(json, new RegExp(`"version": "${api.version}"`));
  assert.throws(() => api.formatSweep(rec, 'xml'), { name: 'RangeError', field: 'format', message: /format must be one of json, csv \(got "xml"\)/ });
  assert.throws(() => api.formatSweep({ ...rec, points: [{ ...rec.points[0], d_mins: [4, 'x'] }] }, 'csv'),
    { name: 'RangeError', message: /record\.points\[0\]\.d_mins\[1\] must be an integer d from 1 to 16384 or null \(got "x"\)/ });
});

test('parseSweep refusals name the first problem', () => {
  const head = 'L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins\n';
  const cases = [
    ['', /^the file is empty$/],
    ['{"params": {"delta": 0.1, "delta": 0.2}, "points": []}', /repeated key "delta"/],
    ['{"params": {"delta": 2}, "points": []}', /^params\.delta must be a number in \(0, 1\) \(got 2\)$/],
    [`${head}64,2,NA,NA,1,2,2,true,16;x\n`, /^row 2, d_mins\[1\] must be a number or NA \(got "x"\)$/],
  ];
  for (const [text, re] of cases) assert.throws(() => api.parseSweep(text), (e) => e instanceof RangeError && e.field === 'text' && re.test(e.message), String(re));
  assert.equal(api.parseSweep(`\uFEFF${head}64,1,16,16,NA,NA,NA,NA,16\n`).points[0].median, 16);  // BOM
});

test('parsePattern: raw weights sorted by (i, j); errors name the line (and the 0-based entry)', () => {
  const r = api.parsePattern('{"L": 3, "triplets": [[2, 2, 3], [0, 0, 1], [1, 1, 0.5], [2, 0, 0], [2, 1, 1e-7]]}');
  assert.equal(r.L, 3);
  assert.equal(r.nnz, 4);
  assert.ok(r.triplets.rows instanceof Int32Array && r.triplets.vals instanceof Float64Array);
  assert.deepEqual([...r.triplets.rows], [0, 1, 2, 2]);
  assert.deepEqual([...r.triplets.cols], [0, 1, 1, 2]);
  assert.deepEqual([...r.triplets.vals], [1, 0.5, 1e-7, 3]);
  assert.equal(api.parsePattern('\uFEFFi,j,w\n0,0,1\n1,1,1\n').nnz, 2);
  assert.equal(api.parsePattern('[[0,0,1],[1,1,1]]', 2).L, 2);
  const refused = [
    ['[[0,0,1],\n[1,1,1],\n[1,0,"x"]]', null, /^line 3 \(entry 2\): weight must be a finite number >= 0 \(got "x"\)$/],
    ['[[0,0,1],\n[1,1,1],\n[1,0 2]]', null, /^line 3, column 6: invalid JSON: expected ',' or '\]' in an array$/],
    ['[[0,0,1],\n[1,1,1],\n]', null, /^line 3, column 1: invalid JSON: trailing comma/],
    ['0,0,1\n1,1\n', null, /^line 2: expected 3 values "i,j,w" \(got 2\)$/],
    ['0,0,1\n0,0,1\n1,1,1', null, /^line 2: cell \(0, 0\) appears twice \(first at line 1\)$/],
    ['[[0,0,1],\n[1,2,1]]', 2, /^line 2 \(entry 1\): column index must be an integer from 0 to 1 \(got 2\)$/],
    ['{"L": 2,\n"L": 2, "triplets": [[0,0,1],[1,1,1]]}', null, /^line 2, column 1: invalid JSON: repeated key "L"/],
    ['0,0,1\n2,2,1', null, /^row 1 has no positive weight/],
    ['', null, /^the text is empty/],
  ];
  for (const [text, L, re] of refused) {
    assert.throws(() => api.parsePattern(text, L), (e) => e instanceof RangeError && e.field === 'text' && re.test(e.message), String(re));
  }
  assert.throws(() => api.parsePattern('[[0,0,1]]', 1), { name: 'RangeError', field: 'L' });
});

test('formatPattern writes weights as String() does and reads back', () => {
  const vals = [1, 0.1, 1 / 3, 1e-7, 2.5e-6, 123456789012345680000, 1e21, 7e-300, 0.000001];
  const n = vals.length;
  const rows = Int32Array.from(vals, (_, t) => t), cols = Int32Array.from(vals, (_, t) => (t + 1) % n);
  const p = { L: n, triplets: { rows, cols, vals: Float64Array.from(vals) } };
  const lines = vals.map((v, t) => `[${rows[t]},${cols[t]},${v}]`);
  assert.equal(api.formatPattern(p, 'json'), `{"L":${n},"triplets":[\n${lines.join(',\n')}\n]}\n`);
  assert.equal(api.formatPattern(p, 'csv'), `i,j,w\n${vals.map((v, t) => `${rows[t]},${cols[t]},${v}\n`).join('')}`);
  for (const format of ['json', 'csv']) {
    const back = api.parsePattern(api.formatPattern(p, format));
    assert.equal(back.L, n);
    const order = [...rows.keys()];  // rows are 0..n-1: already sorted
    assert.deepEqual([...back.triplets.vals], order.map((t) => vals[t]), format);
  }
});

test('summariseSweep: medians, quantiles and fits as the core\'s single-value calls give them', () => {
  const input = {
    delta: 0.1,
    points: [
      { L: 16, dMins: [32, 48, 32], dStar: 100, k: 2 },
      { L: 64, dMins: [64, null, 64, 80], madds: 5 },
      { L: 256, dMins: [128, 128], inClass: true },
    ],
  };
  const r = api.summariseSweep(input);
  r.points.forEach((p, i) => {
    const src = input.points[i];
    assert.deepEqual(p.dMins, src.dMins);
    assert.equal(p.median, api.median(src.dMins));
    assert.equal(p.quantile, api.quantile(src.dMins, 0.1));
    for (const k of Object.keys(src)) if (k !== 'dMins') assert.equal(p[k], src[k], k);
  });
  assert.equal(r.points[1].quantile, null);  // 3 of 4 reached < ceil(0.9 * 4)
  const f = api.fits([16, 256], [48, 128]);
  assert.equal(r.fits.log.ok, true);
  assert.equal(r.fits.log.model, 'd = a + b ln L');
  for (const k of ['a', 'b', 'r2']) assert.equal(r.fits.log[k], f.log[k], k);
  for (const k of ['c', 'p', 'r2']) assert.equal(r.fits.power[k], f.power[k], k);
  assert.throws(() => api.summariseSweep({ delta: 1, points: [] }), { name: 'RangeError', field: 'delta' });
  assert.throws(() => api.summariseSweep({ delta: 0.1, points: [{ L: 16, dMins: [0] }] }),
    { name: 'RangeError', message: /points\[0\]\.dMins\[0\] must be an integer d from 1 to 16384 or null \(got 0\)/ });
});
