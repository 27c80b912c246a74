// attnx lab: the DOM-free parts of the views: axis ticks and plot ranges (the core's, through the
// module the page loads), scales, the success curve's steps (crossing 1 - delta where the core's
// quantile is), the sentences under the plots (fed with the core's fits and readings of unedited
// `attnx sweep` outputs in lab-fixtures/), captions.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { makeScale, formatTick } from '../../web/lab/views/scale.js';
import { jitter, describe } from '../../web/lab/views/plot-dl.js';
import { stepVertices } from '../../web/lab/views/plot-success.js';
import { fitSentence, paperSentence, formatDuration, plural, span } from '../../web/lab/views/summary.js';
import { labTable, widerGrid } from '../../web/lab/settings.js';
import { readLink } from '../../web/lab/link.js';
import { caption, describeSource, baseName, presetHint } from '../../web/lab/views/source.js';
import { paperComparable } from '../../web/lab/views/results-view.js';
import { wrap } from '../../web/lab/files.js';
import { corePool } from './lab-pool.mjs';

const fixture = (name) => JSON.parse(readFileSync(new URL(`./lab-fixtures/${name}`, import.meta.url), 'utf8'));
const close = (a, b, tol = 1e-9) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${a} vs ${b}`);
const point = (L, d_mins, extra = {}) => ({ L, d_mins, median: null, quantile: null, d_star: null, ...extra });

let core, schema, api;
before(async () => {
  core = await corePool();
  api = core.api;
  schema = api.schema();
});

// The core's calls the views make (the module on the page's thread).
const ecdf = (ds) => api.dDistribution(ds).steps.map(({ d, p }) => ({ d, p }));
const reading = (fits, points, comparison = null) => api.fitReading(fits, comparison, points.map((p) => p.quantile));
const band = (points, b) => api.bandReading(points.map((p) => p.L), points.map((p) => p.median), b.lo, b.hi);

test('linear ticks are nice and cover the range (the core\'s axes)', () => {
  const t = api.dAxis([1391], [null], 4096, null, false).axis;  // 1391 * 1.06 = 1474.5
  assert.deepEqual(t.ticks, [0, 250, 500, 750, 1000, 1250, 1500]);
  assert.equal(t.hi, 1500);
  assert.equal(t.step, 250);
  assert.deepEqual(api.bitsAxis().axis.ticks, [0, 10, 20, 30, 40, 50, 60]);
  assert.deepEqual(api.bitsAxis().formats, [{ name: 'float32', bits: 24 }, { name: 'float64', bits: 53 }]);
  assert.deepEqual(api.successAxes([null], 1, false).probability.ticks, [0, 0.25, 0.5, 0.75, 1]);
  assert.equal(formatTick(16000, true), '16k');
  assert.equal(formatTick(16000), '16000');
  assert.equal(formatTick(0.30000000000000004), '0.3');
});

test('log ticks: powers of two for power-of-two grids, else 1-2-5', () => {
  assert.deepEqual(api.lengthAxis([64, 128, 256, 512], false).ticks, [64, 128, 256, 512]);
  assert.deepEqual(api.lengthAxis([16, 32, 64, 128, 256, 512, 1024], false).ticks, [16, 32, 64, 128, 256, 512, 1024]);
  const many = api.lengthAxis([2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384], true).ticks;
  assert.ok(many.length <= 7 && many.includes(2));
  assert.deepEqual(api.lengthAxis([100, 300, 1000], false).ticks, [100, 200, 500, 1000]);
  const x = api.lengthAxis([512, 64, 64], false);
  assert.deepEqual([x.lo, x.hi], [64 / 1.3, 512 * 1.3]);
  assert.deepEqual(api.dimensionAxis([830, null, 4], false), { lo: 2, hi: 1000, step: 0, ticks: [2, 5, 10, 20, 50, 100, 200, 500, 1000] });
  const s = makeScale(10, 1000, 0, 200, true);
  close(s(100), 100, 1e-12);
  close(s.invert(100), 100, 1e-9);
});

test('plot ranges and dot offsets', () => {
  const maxOf = (ds) => api.dDistribution(ds).maxReached;
  const pts = [point(64, [600, 700, null], { d_star: 4000 })];
  const dAxis = (ps, { dMax, band: b = null, fullDStar = false }) => api.dAxis(ps.map((p) => maxOf(p.d_mins)), ps.map((p) => p.d_star), dMax, b && b.hi, fullDStar);
  assert.equal(dAxis(pts, { dMax: 4096 }).axis.hi, 800);
  assert.deepEqual(dAxis(pts, { dMax: 4096 }).dStarAbove, { count: 1, lo: 4000, hi: 4000 });
  assert.ok(dAxis(pts, { dMax: 4096, fullDStar: true }).axis.hi >= 4000);
  assert.ok(dAxis(pts, { dMax: 4096, band: { lo: 300, hi: 1000 } }).axis.hi >= 1000);
  assert.ok(dAxis([point(64, [null])], { dMax: 512 }).axis.hi >= 512, 'nothing reached: up to d_max');
  assert.equal(api.successAxes(pts.map((p) => maxOf(p.d_mins)), 4096, false).d.hi, 800);
  assert.ok(api.successAxes([maxOf([null])], 512, false).d.hi >= 512);
  assert.deepEqual(jitter([5, 5, 5, 6, 5]), [0, -4, 4, 0, -8]);
  assert.equal(describe([], null, {}), 'No results yet.');
});

test('the success curve: a step function over all trials, crossing 1 - delta at the core\'s quantile', () => {
  assert.deepEqual(ecdf([640, 640, null, 600]), [{ d: 600, p: 0.25 }, { d: 640, p: 0.75 }]);
  assert.deepEqual(ecdf([null, null]), []);
  assert.deepEqual(ecdf([]), []);
  assert.deepEqual(stepVertices(ecdf([10, 20]), 0, 30), [[0, 0], [10, 0], [10, 0.5], [20, 0.5], [20, 1], [30, 1]]);
  assert.deepEqual(api.dDistribution([640, 640, null, 600]), { trials: 4, reached: 3, maxReached: 640, steps: [{ d: 600, count: 1, p: 0.25 }, { d: 640, count: 2, p: 0.75 }] });
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
  const s = fitSentence(fits, reading(fits, doc.points));
  const a = Math.round(doc.fits.log.a), b = Math.round(doc.fits.log.b);
  assert.ok(b > 0);
  assert.ok(s.startsWith(`Logarithmic fit d = ${a < 0 ? `−${-a}` : a} + ${b}·ln L: R² ${doc.fits.log.r2.toFixed(3)}`), s);
  assert.match(s, new RegExp(`p = ${doc.fits.power.p.toFixed(2)}: R² ${doc.fits.power.r2.toFixed(3)}`));
  assert.match(fitSentence(null, reading(null, [])), /two or more lengths/);
  const nr = fixture('cli-sweep-notreached.json');
  const nrFits = await core.run('fits', { Ls: nr.points.map((p) => p.L), ds: nr.points.map((p) => p.quantile) });
  assert.equal(nrFits.log.ok, nr.fits.log.ok);
  assert.match(fitSentence(nrFits, reading(nrFits, nr.points)), /0 so far; some lengths did not reach it/);
  const paper = schema.presets.paper.band;
  const meds = doc.points.map((p) => p.median);
  assert.equal(paperSentence(band(doc.points, paper), paper), `The paper reports: ${paper.text}. Measured here: median d_min ${Math.min(...meds)}–${Math.max(...meds)} for L = 64…512 (all inside the band).`);
  assert.equal(paperSentence(band([], paper), paper), `The paper reports: ${paper.text}.`);
  const one = doc.points.filter((p) => p.L === 64);
  assert.match(paperSentence(band(one, paper), paper), /for L = 64 \(/, 'one length is named once, not as 64…64');
  const mixed = [{ L: 32, median: 900 }, { L: 64, median: 500 }, { L: 128, median: null }, { L: 256, median: 2000 }];
  assert.match(paperSentence(band(mixed, { lo: 400, hi: 800 }), { text: 'x' }), /median d_min 500–2000 for L = 64…256 \(1 of 2 inside the band\)/);
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
  assert.match(describeSource({ ...res, source: 'browser', complete: true }, 'done', schema, true), /seed 3\. The settings have changed since: press Run sweep to measure them\.$/);
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
  const sentence = (ps, c) => fitSentence(fits, reading(fits, ps, c), c);
  const undecided = sentence(pts, cmp(450, 550, 'undecided'));
  assert.match(undecided, /On these 5 lengths the two fits cannot be told apart: the logarithmic fit has the higher R² in 45 % of 1000 bootstrap resamples of the trials, the power fit in 55 %\./);
  assert.match(sentence(pts.slice(0, 4), cmp(1000, 0, 'too-few-lengths', 4)), /With 4 lengths the two fits cannot be told apart \(each has two parameters; .* 100 % .*\)\./);
  assert.doesNotMatch(undecided, /somewhat better/);
  assert.match(sentence(pts, cmp(900, 100, 'log')), /The logarithmic fit is the better one \(.* 90 % .*\): consistent with d = O\(log L\), each doubling of L adding about 55 to d\./);
  assert.match(sentence(pts, cmp(50, 950, 'power')), /The power fit is the better one .* but its exponent is small/);
  assert.match(sentence(pts, null), /somewhat better/, 'without a comparison (a CSV without delta) the single-sample wording');
  // The verdict is the core's (fit_verdict over the shares and lengths), not the record's label.
  assert.equal(reading(fits, pts, cmp(900, 100, 'power')).verdict, 'log');
  assert.equal(reading(fits, pts, null).basis, 'sample');
  assert.equal(reading(fits, pts, cmp(900, 100, 'log')).basis, 'bootstrap');
});

test('the single-sample reading (no bootstrap): every branch of the core\'s rule, worded', () => {
  const pts = [64, 128, 256].map((L) => ({ L, quantile: 500 }));
  const say = (p, logR2, powerR2) => {
    const f = { log: { ok: true, a: 10, b: 30, r2: logR2 }, power: { ok: true, c: 100, p, r2: powerR2 } };
    return fitSentence(f, reading(f, pts));
  };
  assert.match(say(0.04, 0.9, 0.9), /d barely changes with L over this range\. With only 3 lengths the fits are rough\./);
  assert.match(say(0.2, 0.97, 0.98), /at least as good .*each doubling of L adds about 21 to d/);
  assert.match(say(0.2, 0.9, 0.98), /somewhat better, but its exponent is small/);
  assert.match(say(0.5, 0.9, 0.98), /fits better with a sizeable exponent/);
  assert.match(say(0.5, 0.97, 0.98), /Both fit about equally well/);
});

test('a wider grid: the lab default when it has more lengths, else doublings up to the largest L', async () => {
  const table = labTable(schema);
  const st = (hash) => readLink(schema, table, hash).state;
  assert.equal(widerGrid(schema, st('#Ls=64,128,256,512')), schema.contexts.lab.defaults.Ls);
  assert.equal(widerGrid(schema, st('#Ls=16,32,64,128,256,512,1024')), '16,32,64,128,256,512,1024,2048,4096');
  assert.equal(widerGrid(schema, st(`#Ls=16,32,64,128,256,512,1024,2048,${schema.pageLimits.maxL}`)), null);
});

test('counts and spans of lengths read as English: 1 length, 2 trials, L = 64 or 64…512', () => {
  assert.deepEqual([plural(1, 'length'), plural(2, 'trial'), plural(0, 'worker')], ['1 length', '2 trials', '0 workers']);
  assert.deepEqual([span(64, 64), span(64, 512)], ['64', '64…512']);
});
