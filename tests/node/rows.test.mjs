// construct()'s per-row criterion (rows.*) against a float64 recomputation from the logits and A
// it returns, and schema() against what the module enforces.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { requireBuilds } from './helpers.mjs';

let api;
before(async () => {
  requireBuilds();
  api = await load({ flavour: 'simd' });
});

// SPEC §2 row by row, in float64 from Z (row-major L x L) and A's triplets.
function rowsByHand(r) {
  const L = r.L, Z = r.logits, out = [];
  for (let i = 0; i < L; i++) {
    const on = [];
    for (let e = 0; e < r.A.rows.length; e++) if (r.A.rows[e] === i) on.push(e);
    const dev = on.map((e) => Z[i * L + r.A.cols[e]] - Math.log(r.A.vals[e]));
    const zmin = Math.min(...on.map((e) => Z[i * L + r.A.cols[e]]));
    const cols = new Set(on.map((e) => r.A.cols[e]));
    let off = -Infinity, leak = 0;
    for (let j = 0; j < L; j++) if (!cols.has(j)) { off = Math.max(off, Z[i * L + j]); leak += r.M[i * L + j]; }
    const mean = dev.reduce((a, b) => a + b, 0) / dev.length;
    out.push({ on, rho: Math.max(...dev) - Math.min(...dev), zeta: Math.exp(off - zmin), leak, zmin,
      devMean: dev.map((v) => v - mean), devMin: dev.map((v) => v - Math.min(...dev)) });
  }
  return out;
}

test('rows.rho, zeta, lambda, verdicts and ratio errors match a float64 recomputation', () => {
  for (const opts of [{ pattern: 'window', L: 40, w: 2, d: 48, seed: 3 },
    { pattern: 'random', L: 64, k: 3, weights: 'random', d: 256, seed: 9, eps: 0.5, tau: 0.05 }]) {
    const r = api.construct(opts);
    const eps = r.params.eps, tau = r.params.tau;
    // A's float32 values are rounded copies of the core's doubles: allow for that in the logs.
    const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
    rowsByHand(r).forEach((h, i) => {
      close(r.rows.rho[i], h.rho, `rho[${i}]`);
      close(r.rows.zeta[i], h.zeta, `zeta[${i}]`);
      close(r.rows.lambda[i], h.leak, `lambda[${i}]`);
      assert.equal(r.rows.supportMinLogit[i], h.zmin);
      assert.equal(r.rows.okR[i], r.rows.rho[i] <= eps ? 1 : 0);
      assert.equal(r.rows.okZ[i], r.rows.zeta[i] <= tau ? 1 : 0);
      h.on.forEach((e, q) => {
        close(r.rows.ratioErrMean[e], h.devMean[q], `ratioErrMean[${e}]`);
        close(r.rows.ratioErrMin[e], h.devMin[q], `ratioErrMin[${e}]`);
      });
    });
    assert.equal(r.metrics.rho, Math.max(...r.rows.rho));
    assert.equal(r.metrics.okR, r.rows.okR.every((v) => v === 1));
    assert.equal(r.metrics.okZ, r.rows.okZ.every((v) => v === 1));
    assert.equal(r.metrics.success, r.metrics.okR && r.metrics.okZ);
  }
});

test('schema(): every published range is the one the module enforces', () => {
  const s = api.schema();
  const wasm = s.contexts.wasm;
  for (const name of ['L', 'd', 'seed', 'eps', 'tau', 'delta', 'wMin', 'decay', 'step', 'dmax', 'maxBytes']) {
    const o = s.options[name];
    const hi = wasm.max[name];
    const above = o.kind === 'real' ? (o.maxOpen ? hi : hi * 1.5) : hi + 1;
    const extra = name === 'wMin' ? { weights: 'random' } : name === 'decay' ? { weights: 'decaying' } : {};
    const search = ['step', 'dmax'].includes(name);
    const base = search ? { L: 16 } : { L: 16, d: 8 };
    assert.throws(() => api[search ? 'minD' : 'construct']({ ...base, ...extra, [name]: above }), (e) => e.field === name
      && e.message.startsWith(`${name} must be `), `${name} = ${above}`);
  }
  // Defaults published for the module are the ones a call without options uses.
  const r = api.construct({ L: 16, d: 8 });
  for (const name of ['eps', 'tau', 'delta', 'seed', 'maxBytes']) assert.equal(r.params[name], wasm.defaults[name], name);
  assert.equal(r.params.weights, s.options.weights.default);
  // Version-0 links keep the explorer's published default d = 1024 and the lab's grid.
  assert.equal(s.linkDefaults['0'].explorer.d, 1024);
  assert.equal(s.linkDefaults['0'].lab.Ls, '16,32,64,128,256,512,1024');
  assert.deepEqual(s.linkCompute.explorer.slice().sort(), Object.keys(s.linkDefaults[String(s.linkVersion)].explorer).sort());
  // Links before version 2 name no construction: they are the paper's (jl, the default).
  assert.equal(s.linkDefaults['1'].explorer.construction, undefined);
  assert.equal(s.linkDefaults['2'].explorer.construction, 'jl');
  assert.equal(s.options.construction.default, 'jl');
  // lp's d range is the one its construction publishes and enforces.
  const lp = s.constructions.find((c) => c.name === 'lp');
  assert.throws(() => api.construct({ L: 16, d: lp.dMax + 1, construction: 'lp' }), (e) => e.field === 'd'
    && e.message.startsWith(`d must be an integer from 1 to ${lp.dMax} for construction lp (got ${lp.dMax + 1};`));
  assert.throws(() => api.construct({ L: 16, d: 8, construction: 'lp', box: 0 }), (e) => e.field === 'box' && e.message.startsWith('box must be '));
});
