// attnx lab: the DOM-free parts of the views: axis ticks and scales, plot ranges, the success
// curve's steps (crossing 1 - delta where the core's quantile is), the sentences under the plots
// (fed with the core's fits of unedited `attnx sweep` outputs in lab-fixtures/), captions.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { linearTicks, logTicks, niceStep, makeScale, formatTick } from '../../web/lab/views/scale.js';
import { yDomain, jitter, describe } from '../../web/lab/views/plot-dl.js';
import { ecdf, stepVertices, xDomain } from '../../web/lab/views/plot-success.js';
import { fitSentence, fitVerdict, paperSentence, formatDuration } from '../../web/lab/views/summary.js';
import { labTable, widerGrid } from '../../web/lab/settings.js';
import { readLink } from '../../web/lab/link.js';
import { caption, describeSource, baseName, presetHint } from '../../web/lab/views/source.js';
import { paperComparable } from '../../web/lab/views/results-view.js';
import { wrap } from '../../web/lab/files.js';
import { corePool } from './lab-pool.mjs';

const fixture = (name) => JSON.parse(readFileSync(new URL(`./lab-fixtures/${name}`, import.meta.url), 'utf8'));
const close = (a, b, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);
const point = (L, d_mins, extra = {}) => ({ L, d_mins, median: null, quantile: null, d_star: null, ...extra });

let core, schema;
before(async () => {
  core = await corePool();
  schema = core.api.schema();
});

test('linear ticks are nice and cover the range', () => {
  assert.equal(niceStep(1475, 6), 250);
  assert.equal(niceStep(10, 5), 2);
  assert.equal(niceStep(0, 5), 1);
  const t = linearTicks(0, 1475, 6);
  assert.deepEqual(t.ticks, [0, 250, 500, 750, 1000, 1250, 1500]);
  assert.equal(t.hi, 1500);
  assert.deepEqual(linearTicks(0, 1, 5).ticks, [0, 0.2, 0.4, 0.6, 0.8, 1]);
  const v = linearTicks(5, 5, 5);
  assert.ok(v.hi > v.lo);
  assert.equal(formatTick(16000, true), '16k');
  assert.equal(formatTick(16000), '16000');
  assert.equal(formatTick(0.30000000000000004), '0.3');
});

test('log ticks: powers of two for power-of-two grids, else 1-2-5', () => {
  assert.deepEqual(logTicks(64 / 1.3, 512 * 1.3, [64, 128, 256, 512]), [64, 128, 256, 512]);
  assert.deepEqual(logTicks(12, 1400, [16, 32, 64, 128, 256, 512, 1024]), [16, 32, 64, 128, 256, 512, 1024]);
  const many = logTicks(2, 16384, [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384], 6);
  assert.ok(many.length <= 7 && many.includes(2));
  assert.deepEqual(logTicks(90, 1100, [100, 300, 1000]), [100, 200, 500, 1000]);
  const s = makeScale(10, 1000, 0, 200, true);
  close(s(100), 100, 1e-12);
  close(s.invert(100), 100, 1e-9);
});

test('plot ranges and dot offsets', () => {
  const pts = [point(64, [600, 700, null], { d_star: 4000 })];
  assert.equal(yDomain(pts, { dMax: 4096 }).hi, 800);
  assert.ok(yDomain(pts, { dMax: 4096, fullDStar: true }).hi >= 4000);
  assert.ok(yDomain(pts, { dMax: 4096, band: { lo: 300, hi: 1000 } }).hi >= 1000);
  assert.ok(yDomain([point(64, [null])], { dMax: 512 }).hi >= 512, 'nothing reached: up to d_max');
  assert.equal(xDomain(pts, 4096).hi, 800);
  assert.ok(xDomain([point(64, [null])], 512).hi >= 512);
  assert.deepEqual(jitter([5, 5, 5, 6, 5]), [0, -4, 4, 0, -8]);
  assert.equal(describe([], null, {}), 'No results yet.');
});

test('the success curve: a step function over all trials, crossing 1 - delta at the core\'s quantile', () => {
  assert.deepEqual(ecdf([640, 640, null, 600]), [{ d: 600, p: 0.25 }, { d: 640, p: 0.75 }]);
  assert.deepEqual(ecdf([null, null]), []);
  assert.deepEqual(ecdf([]), []);
  assert.deepEqual(stepVertices([10, 20], 0, 30), [[0, 0], [10, 0], [10, 0.5], [20, 0.5], [20, 1], [30, 1]]);
  for (const f of ['cli-sweep-paper.json', 'cli-sweep-dilated.json']) {
    const doc = fixture(f);
    for (const p of doc.points) {
      const cross = ecdf(p.d_mins).find((e) => e.p >= 1 - doc.params.delta - 1e-12);
      assert.equal(cross ? cross.d : null, p.quantile, `${f} L = ${p.L}`);
    }
  }
});

test('fit sentence from the core\'s fits of CLI outputs, and the paper comparison', async () => {
  const doc = fixture('cli-sweep-paper.json');
  const fits = await core.run('fits', { Ls: doc.points.map((p) => p.L), ds: doc.points.map((p) => p.quantile) });
  for (const k of ['a', 'b', 'r2']) close(fits.log[k], doc.fits.log[k], 1e-12);
  for (const k of ['c', 'p', 'r2']) close(fits.power[k], doc.fits.power[k], 1e-12);
  const s = fitSentence(fits, doc.points);
  const a = Math.round(doc.fits.log.a), b = Math.round(doc.fits.log.b);
  assert.ok(b > 0);
  assert.ok(s.startsWith(`Logarithmic fit d = ${a < 0 ? `−${-a}` : a} + ${b}·ln L: R² ${doc.fits.log.r2.toFixed(3)}`), s);
  assert.match(s, new RegExp(`p = ${doc.fits.power.p.toFixed(2)}: R² ${doc.fits.power.r2.toFixed(3)}`));
  assert.match(fitSentence(null, []), /two or more lengths/);
  const nr = fixture('cli-sweep-notreached.json');
  const nrFits = await core.run('fits', { Ls: nr.points.map((p) => p.L), ds: nr.points.map((p) => p.quantile) });
  assert.equal(nrFits.log.ok, nr.fits.log.ok);
  assert.match(fitSentence(nrFits, nr.points), /0 so far; some lengths did not reach it/);
  const band = schema.presets.paper.band;
  const meds = doc.points.map((p) => p.median);
  assert.equal(paperSentence(doc.points, band), `The paper reports: ${band.text}. Measured here: median d_min ${Math.min(...meds)}–${Math.max(...meds)} for L = 64…512 (all inside the band).`);
  assert.equal(paperSentence([], band), `The paper reports: ${band.text}.`);
  assert.equal(formatDuration(3.21), '3.2 s');
  assert.equal(formatDuration(65), '1 min 05 s');
});

test('the paper band applies to the preset\'s target and tolerances, whatever the grid', () => {
  const paper = schema.presets.paper;
  assert.ok(paperComparable(paper, fixture('cli-sweep-paper.json').params));
  assert.ok(paperComparable(paper, { ...fixture('cli-sweep-paper.json').params, Ls: [16, 32], trials: 3, seed: 9 }));
  assert.ok(!paperComparable(paper, fixture('cli-sweep-dilated.json').params));
  assert.ok(!paperComparable(paper, { ...fixture('cli-sweep-paper.json').params, eps: 2 }));
  assert.ok(!paperComparable(paper, null));
  const hint = presetHint(paper);
  for (const [k, v] of Object.entries(paper.values)) assert.ok(hint.includes(`${k} = ${v}`), k);
});

test('captions, source line and file names name the settings', () => {
  const doc = fixture('cli-sweep-notreached.json');
  const res = { source: 'import', fileName: 'big.json', version: doc.version, params: doc.params, points: doc.points, complete: true };
  const [head, line] = caption('d-vs-L', res, schema);
  assert.equal(head, 'Minimal hidden size d versus sequence length L');
  assert.ok(line.startsWith('attnx sweep: bigbird, w = 1, globals = 1, randoms = 1; decaying weights, ε = 1, τ = 0.1, δ = 0.1, T = 2, step 16, d_max 64, seed 3'), line);
  assert.deepEqual(caption('success-vs-d', null, schema), ['Success probability versus hidden size d']);
  assert.equal(describeSource(res, 'imported', schema), 'Imported big.json (attnx 0.1.0): bigbird, w = 1, globals = 1, randoms = 1, ε = 1, τ = 0.1, δ = 0.1, T = 2, seed 3.');
  assert.match(describeSource({ ...res, source: 'browser', complete: false }, 'running', schema), /^Computed in this browser — running: bigbird/);
  assert.match(describeSource({ ...res, source: 'browser', complete: false }, 'cancelled', schema), /^Computed in this browser — partial \(cancelled\)/);
  assert.equal(baseName(res), 'attnx-sweep-bigbird-L64-128');
  assert.deepEqual(wrap('a bb ccc dddd', 6), ['a bb', 'ccc', 'dddd']);
  assert.deepEqual(wrap('short', 40), ['short']);
  assert.deepEqual(wrap('averyveryverylongword x', 5), ['averyveryverylongword', 'x']);
});

test('the fit sentence rests on the bootstrap comparison when there is one', async () => {
  const fits = { log: { ok: true, a: 100, b: 80, r2: 0.95 }, power: { ok: true, c: 120, p: 0.3, r2: 0.99 } };
  const pts = [64, 128, 256, 512, 1024].map((L) => ({ L, quantile: 500 }));
  const cmp = (logWins, powerWins, verdict, lengths = 5) => ({ resamples: 1000, logWins, powerWins, lengths, verdict });
  const undecided = fitSentence(fits, pts, cmp(450, 550, 'undecided'));
  assert.match(undecided, /On these 5 lengths the two fits cannot be told apart: the logarithmic fit has the higher R² in 45 % of 1000 bootstrap resamples of the trials, the power fit in 55 %\./);
  assert.match(fitSentence(fits, pts.slice(0, 4), cmp(1000, 0, 'too-few-lengths', 4)), /With 4 lengths the two fits cannot be told apart \(each has two parameters; .* 100 % .*\)\./);
  assert.doesNotMatch(undecided, /somewhat better/);
  assert.match(fitSentence(fits, pts, cmp(900, 100, 'log')), /The logarithmic fit is the better one \(.* 90 % .*\): consistent with d = O\(log L\), each doubling of L adding about 55 to d\./);
  assert.match(fitSentence(fits, pts, cmp(50, 950, 'power')), /The power fit is the better one .* but its exponent is small/);
  assert.match(fitSentence(fits, pts, null), /somewhat better/, 'without a comparison (a CSV without delta) the single-sample wording');
  assert.equal(fitVerdict(cmp(900, 100, 'log')), 'log');
  assert.equal(fitVerdict(null), null);
});

test('a wider grid: the lab default when it has more lengths, else doublings up to the largest L', async () => {
  const table = labTable(schema);
  const st = (hash) => readLink(schema, table, hash).state;
  assert.equal(widerGrid(schema, st('#Ls=64,128,256,512')), schema.contexts.lab.defaults.Ls);
  assert.equal(widerGrid(schema, st('#Ls=16,32,64,128,256,512,1024')), '16,32,64,128,256,512,1024,2048,4096');
  assert.equal(widerGrid(schema, st(`#Ls=16,32,64,128,256,512,1024,2048,${schema.pageLimits.maxL}`)), null);
});
