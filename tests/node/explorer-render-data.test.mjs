// web/explorer/render-data.js: the render worker's record of a construction shows the core's
// per-row report (rho_i, zeta_i, lambda_i, verdicts, ratio errors, the support's smallest logit),
// put in row order with A; the zero-ratio image is log10 of exp(Z_ij - supportMinLogit_i).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { load } from '../../web/lib/attnx.js';
import { toRecord, rowSlice, zeroRatioPooled, poolSparseAbsMax } from '../../web/explorer/render-data.js';
import { requireBuilds } from './helpers.mjs';

let api;
before(async () => {
  requireBuilds();
  api = await load();
});

const message = (r, id = 1) => ({ id, L: r.L, d: r.d, A: r.A, M: r.M, logits: r.logits, X: r.X, rows: r.rows, eps: r.params.eps, tau: r.params.tau });

test('row slices carry the core\'s row report, and it agrees with the metrics', () => {
  const r = api.construct({ pattern: 'window', L: 24, w: 2, d: 48, seed: 5 });
  const c = toRecord(message(r));
  let worstRho = 0;
  for (let i = 0; i < r.L; i++) {
    const row = rowSlice(c, i);
    assert.deepEqual([row.rho, row.zeta, row.lambda], [r.rows.rho[i], r.rows.zeta[i], r.rows.lambda[i]]);
    assert.equal(row.okR, r.rows.okR[i] === 1);
    assert.equal(row.okZ, r.rows.okZ[i] === 1);
    assert.equal(row.okR, row.rho <= r.params.eps);  // the verdict means what it says
    assert.deepEqual(row.cols, [...Array(24).keys()].filter((j) => Math.abs(i - j) <= 2));
    assert.equal(row.supportMinLogit, r.rows.supportMinLogit[i]);
    assert.equal(row.M.length, 24);
    worstRho = Math.max(worstRho, row.rho);
  }
  assert.equal(worstRho, r.metrics.rho);
  assert.throws(() => rowSlice(c, 24), /row must be an integer from 0 to 23/);
});

test('entries in any order are put in row order with their ratio errors', () => {
  const r = api.construct({ pattern: 'random', L: 12, k: 3, d: 32, seed: 2 });
  const n = r.A.vals.length;
  const perm = [...Array(n).keys()].reverse();
  const pick = (a) => Float64Array.from(perm, (t) => a[t]);
  const m = message(r);
  m.A = { rows: Int32Array.from(perm, (t) => r.A.rows[t]), cols: Int32Array.from(perm, (t) => r.A.cols[t]), vals: pick(r.A.vals) };
  m.rows = { ...r.rows, ratioErrMean: pick(r.rows.ratioErrMean), ratioErrMin: pick(r.rows.ratioErrMin) };
  const c = toRecord(m), ref = toRecord(message(r));
  for (let i = 0; i < 12; i++) {
    const a = rowSlice(c, i), b = rowSlice(ref, i);
    const byCol = (s) => s.cols.map((j, t) => [j, s.avals[t], s.errMean[t], s.errMin[t]]).sort((x, y) => x[0] - y[0]);
    assert.deepEqual(byCol(a), byCol(b));
    assert.equal(Math.min(...b.errMin), 0);  // relative to the row minimum
  }
});

test('the zero-ratio image is log10 of the core\'s zero ratio off the support, NaN on it', () => {
  const r = api.construct({ pattern: 'causal', L: 6, w: 1, d: 16, seed: 3 });
  const c = toRecord(message(r));
  const img = zeroRatioPooled(c, 512);
  assert.equal(img.w, 6);
  for (let i = 0; i < 6; i++) {
    let worst = -Infinity;
    for (let j = 0; j < 6; j++) {
      const v = img.data[i * 6 + j];
      if (j === i || j === i - 1) assert.ok(Number.isNaN(v), `(${i}, ${j}) is on the support`);
      else worst = Math.max(worst, v);
    }
    assert.ok(Math.abs(10 ** worst - r.rows.zeta[i]) <= 1e-5 * r.rows.zeta[i], `row ${i}: ${10 ** worst} vs ${r.rows.zeta[i]}`);
  }
  const err = poolSparseAbsMax(c, c.errMean, 512);
  assert.equal(err.data[0 * 6 + 0], Math.fround(c.errMean[0]));
  assert.ok(Number.isNaN(err.data[0 * 6 + 3]));
});
