// The JS API (web/lib/attnx.js) in Node: loading, self-description, result shapes, copies,
// progress and cancellation.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load, simdSupported } from '../../web/lib/attnx.js';
import { requireBuilds } from './helpers.mjs';

let api;
before(async () => {
  requireBuilds();
  api = await load();
});

test('load picks the SIMD build when the engine has SIMD and WebAssembly exceptions, and caches it', async () => {
  assert.equal(simdSupported(), true);  // Node 20 has WebAssembly SIMD and exception handling
  assert.equal(api.simd, true);
  assert.equal(api.flavour, 'wasm-simd128');
  assert.equal(api.gramKernel, 'wasm-simd128');
  assert.match(api.version, /^\d+\.\d+\.\d+$/);
  assert.equal(await load(), api);
  const scalar = await load({ flavour: 'scalar' });
  assert.equal(scalar.simd, false);
  assert.equal(scalar.flavour, 'wasm-scalar');
  assert.equal(scalar.gramKernel, 'scalar');
  assert.deepEqual(scalar.info(), { version: api.version, flavour: 'wasm-scalar', simd: false, gramKernel: 'scalar',
    sliced: ['jl'], defaultConstruction: 'jl' });
  await assert.rejects(load({ flavour: 'avx' }), { name: 'RangeError', message: /flavour must be one of auto, simd, scalar/ });
});

test('patterns(): families, parameters with ranges, weights, limits, defaults', () => {
  const p = api.patterns();
  const names = p.families.map((f) => f.name);
  assert.deepEqual(names, ['random', 'permutation', 'window', 'causal', 'dilated', 'block', 'strided', 'bigbird', 'custom']);
  const random = p.families[0];
  assert.deepEqual(random.params.map((q) => q.name), ['k']);
  assert.deepEqual({ min: random.params[0].min, max: random.params[0].max, def: random.params[0].default }, { min: 1, max: 'L', def: 2 });
  assert.equal(p.families.find((f) => f.name === 'strided').inClass, false);
  assert.equal(p.families.find((f) => f.name === 'custom').scalesWithL, false);
  assert.deepEqual(p.weights, ['uniform', 'random', 'decaying']);
  assert.deepEqual(p.limits.L, { min: 2, max: 16384 });
  assert.deepEqual(p.limits.d, { min: 1, max: 16384 });
  assert.deepEqual(p.limits.seed, { min: 0, max: 2 ** 53 - 1 });
  assert.deepEqual(p.limits.tau, { min: 0, max: 1, minOpen: true, maxOpen: true });
  assert.equal(p.limits.eps.max, 100);  // the core's table: [1e-06, 100]
  assert.equal(p.defaults.maxBytes, 2 ** 31);
  assert.equal(p.defaults.d, 512);
  assert.equal(p.defaults.step, 16);
});

test('construct(): shapes, types and copies', () => {
  const opts = { pattern: 'random', L: 64, k: 2, eps: 1, tau: 0.1, d: 32, seed: 7 };
  const r = api.construct(opts);
  assert.equal(r.L, 64);
  assert.equal(r.d, 32);
  assert.equal(r.k, 2);
  assert.equal(r.maxColCount, 2);
  assert.equal(r.inClass, true);
  assert.ok(r.M instanceof Float32Array && r.M.length === 64 * 64);
  assert.ok(r.logits instanceof Float32Array && r.logits.length === 64 * 64);
  assert.ok(r.X instanceof Float32Array && r.X.length === 64 * 2 * 32);
  assert.ok(r.A.rows instanceof Int32Array && r.A.cols instanceof Int32Array && r.A.vals instanceof Float32Array);
  assert.equal(r.A.rows.length, 128);
  for (const key of ['rho', 'zeta', 'lambda', 'beta', 'dStar']) assert.equal(typeof r.metrics[key], 'number');
  assert.equal(typeof r.metrics.success, 'boolean');
  assert.equal(r.dStar, r.metrics.dStar);
  assert.deepEqual(r.params, { pattern: 'random', L: 64, k: 2, weights: 'uniform', eps: 1, tau: 0.1, delta: 0.1, d: 32, seed: 7, maxBytes: 2 ** 31 });
  // Rows of M sum to 1; every array is an own copy (not a view of the WebAssembly heap).
  let s = 0;
  for (let j = 0; j < 64; j++) s += r.M[j];
  assert.ok(Math.abs(s - 1) < 1e-5);
  for (const a of [r.M, r.logits, r.X, r.A.rows, r.A.cols, r.A.vals]) assert.equal(a.byteOffset, 0), assert.equal(a.buffer.byteLength, a.byteLength);
  const copy = Float32Array.from(r.M);
  r.M.fill(0);
  const again = api.construct(opts);
  assert.deepEqual(again.M, copy, 'same seed, same M; earlier results are independent copies');
});

test('construct(): the same seed reproduces, another seed differs; custom triplets', () => {
  const a = api.construct({ L: 32, d: 16, seed: 5 });
  const b = api.construct({ L: 32, d: 16, seed: 5 });
  const c = api.construct({ L: 32, d: 16, seed: 6 });
  assert.deepEqual(a.X, b.X);
  assert.notDeepEqual(a.X, c.X);
  const rows = [0, 0, 1, 2, 3], cols = [0, 1, 2, 3, 0], vals = [1, 3, 1, 1, 1];
  const r = api.construct({ pattern: 'custom', L: 4, triplets: { rows: Int32Array.from(rows), cols, vals: Float64Array.from(vals) }, d: 8 });
  assert.deepEqual([...r.A.rows], rows);
  assert.deepEqual([...r.A.cols], cols);
  assert.deepEqual([...r.A.vals], [0.25, 0.75, 1, 1, 1]);
  assert.equal(r.k, 2);
  assert.equal(r.maxColCount, 2);
  assert.equal(r.params.pattern, 'custom');
  // triplets imply pattern custom
  assert.equal(api.construct({ L: 4, triplets: { rows, cols, vals }, d: 8 }).k, 2);
});

test('minD(): result fields, progress reaches 1 and is monotone', () => {
  const seen = [];
  const r = api.minD({ L: 128, seed: 3 }, (f) => { seen.push(f); });
  assert.ok(Number.isInteger(r.dMin) && r.dMin > 0 && r.dMin % 16 === 0);
  assert.equal(r.checked.at(-1), r.dMin);
  assert.equal(r.checked[0], 16);
  assert.ok(r.gramMadds > 0 && r.checkMadds > 0);
  assert.equal(r.cancelled, false);
  assert.equal(seen.at(-1), 1);
  for (let q = 1; q < seen.length; q++) assert.ok(seen[q] > seen[q - 1]);
  // every few percent, not every grid point
  assert.ok(seen.length <= r.checked.length);
});

test('construct(): progress is reported during the product, monotone, ending at 1', () => {
  const seen = [];
  const r = api.construct({ L: 512, d: 64, seed: 3 }, (f) => { seen.push(f); });
  const plain = api.construct({ L: 512, d: 64, seed: 3 });
  assert.ok(seen.length >= 3, `only ${seen.length} progress calls`);
  for (let q = 1; q < seen.length; q++) assert.ok(seen[q] > seen[q - 1]);
  assert.equal(seen.at(-1), 1);
  assert.deepEqual(r.metrics, plain.metrics);
});

test('minD(): progress returning false cancels; a throwing callback rethrows; the module stays usable', () => {
  let calls = 0;
  const r = api.minD({ L: 256, seed: 1, dmax: 4096 }, () => { calls++; return calls < 3 ? undefined : false; });
  assert.equal(r.cancelled, true);
  assert.equal(r.dMin, null);
  assert.equal(calls, 3);
  assert.throws(() => api.minD({ L: 256, seed: 1 }, () => { throw new Error('listener failed'); }), /listener failed/);
  assert.throws(() => api.minD({ L: 256 }, 'not a function'), { name: 'TypeError' });
  assert.ok(api.minD({ L: 64, seed: 1 }).dMin > 0);
});

test('sweepPoint(), median(), quantile(), fits(), estimateBytes()', () => {
  const fr = [];
  const p = api.sweepPoint({ L: 64, trials: 4, seed: 2 }, (f) => fr.push(f));
  assert.equal(p.L, 64);
  assert.equal(p.dMins.length, 4);
  assert.equal(p.median, api.median(p.dMins));
  assert.equal(p.quantile, api.quantile(p.dMins, 0.1));
  assert.ok(p.madds > 0 && p.dStar > 0);
  assert.equal(fr.at(-1), 1);
  assert.equal(api.median([16, null, 32]), 32);
  assert.equal(api.median([null, null, 32]), null);
  assert.equal(api.quantile([16, 32, 48, 64], 0.5), 32);
  assert.equal(api.quantile([16, 32, null, null], 0.1), null);
  const f = api.fits([64, 128, 256, 512], [400, 460, 520, 580]);
  assert.equal(f.log.ok, true);
  assert.ok(Math.abs(f.log.b - 60 / Math.log(2)) < 1e-9);
  assert.ok(Math.abs(f.log.r2 - 1) < 1e-12);
  assert.equal(f.power.ok, true);
  assert.equal(api.fits([64, 128], [400, null]).log.ok, false);  // one point left
  const e = api.estimateBytes({ L: 1024, d: 512, step: 16 });
  assert.ok(e.construct >= 4 * (2 * 1024 * 1024 + 3 * 1024 * 512) && e.construct < 2 ** 25);
  assert.ok(e.mind >= 4 * 1024 * 1024 && e.mind < 2 ** 24);
  assert.equal(e.maxBytes, 2 ** 31);
});
