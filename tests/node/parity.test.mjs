// Native CLI (build/native/attnx, portable reference build) versus the WebAssembly module, both
// flavours: identical supports, k, d_min and grid, metrics within 1e-4 relative (SPEC §6).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadBoth, runCli, assertRel } from './helpers.mjs';

let apis;
before(async () => {
  apis = await loadBoth();
});

const PATTERNS = [
  { pattern: 'random', L: 256, k: 2, seed: 7 },
  { pattern: 'random', L: 200, k: 3, seed: 42, eps: 1.5, tau: 0.05 },
  { pattern: 'permutation', L: 128, seed: 3 },
  { pattern: 'window', L: 160, w: 2, weights: 'decaying', decay: 1.5, seed: 11 },
  { pattern: 'causal', L: 128, w: 3, weights: 'random', wMin: 0.2, seed: 5 },
  { pattern: 'dilated', L: 256, w: 1, r: 3, seed: 9 },
  { pattern: 'block', L: 96, block: 4, seed: 2 },
  { pattern: 'strided', L: 64, stride: 8, seed: 4 },
  { pattern: 'bigbird', L: 128, w: 1, globals: 2, randoms: 1, seed: 6 },
];

function checkMetrics(js, cli, what) {
  for (const [a, b] of [['rho', 'rho'], ['zeta', 'zeta'], ['lambda', 'lambda'], ['beta', 'beta'], ['dStar', 'd_star']]) {
    assertRel(js.metrics[a], cli.metrics[b], 1e-4, `${what} ${a}`);
  }
  assert.equal(js.metrics.success, cli.metrics.success, `${what} success`);
}

test('construct: supports, k, X, metrics and the logit scale match the native CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'attnx-parity-'));
  try {
    for (const p of PATTERNS) {
      const opts = { ...p, d: 256 };
      const file = join(dir, 'export.json');
      const cli = runCli('construct', opts, ['--export', file]);
      const exp = JSON.parse(readFileSync(file, 'utf8'));
      for (const [name, api] of Object.entries(apis)) {
        const what = `${name} ${JSON.stringify(p)}`;
        const r = api.construct(opts);
        assert.equal(r.k, cli.pattern.k, `${what} k`);
        assert.equal(r.maxColCount, cli.pattern.max_col_count, `${what} maxColCount`);
        assert.equal(r.inClass, cli.pattern.in_class, `${what} inClass`);
        checkMetrics(r, cli, what);
        // SPEC §9's logit scale, from X and (X not built) from P's columns (jl_input_scale): the
        // same sums in the same order in every build, bit for bit.
        assert.equal(r.bounds.logitScale, cli.bounds.logit_scale, `${what} logit scale`);
        const noX = api.construct({ ...opts, views: { omitX: true } });
        assert.equal(noX.X.length, 0);
        assert.equal(noX.bounds.logitScale, cli.bounds.logit_scale, `${what} logit scale without X`);
        // Supports identical, weights equal to float precision.
        assert.equal(r.A.rows.length, exp.A.length, `${what} nnz`);
        for (let e = 0; e < exp.A.length; e++) {
          const [i, j, a] = exp.A[e];
          if (r.A.rows[e] !== i || r.A.cols[e] !== j) assert.fail(`${what} support entry ${e}: (${r.A.rows[e]}, ${r.A.cols[e]}) vs (${i}, ${j})`);
          assertRel(r.A.vals[e], a, 1e-6, `${what} A[${e}]`);
        }
        // X: same draws, same arithmetic.
        const X = exp.X.flat();
        assert.equal(r.X.length, X.length, `${what} X size`);
        let scale = 0, err = 0;
        for (let q = 0; q < X.length; q++) {
          scale = Math.max(scale, Math.abs(X[q]));
          err = Math.max(err, Math.abs(r.X[q] - X[q]));
        }
        assert.ok(err <= 1e-6 * scale, `${what} X differs by ${err} (scale ${scale})`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the logit scale without X equals the CLI\'s bit for bit on every path of its sums (odd L, d not a multiple of 4)', () => {
  // Eight, four and one columns per pass, rows in pairs and the odd last one, the keys' row tail.
  for (const o of [{ pattern: 'random', L: 203, k: 3, seed: 5, d: 45 }, { pattern: 'causal', L: 97, w: 3, seed: 2, d: 13 }]) {
    const cli = runCli('construct', o);
    for (const [name, api] of Object.entries(apis)) {
      const r = api.construct({ ...o, views: { omitX: true } });
      assert.equal(r.bounds.logitScale, cli.bounds.logit_scale, `${name} ${JSON.stringify(o)}`);
    }
  }
});

test('mind: d_min, grid, work counts and beta match the native CLI', () => {
  const cases = [
    ...PATTERNS.map((p) => ({ ...p, dmax: 4096, step: 16 })),
    { pattern: 'random', L: 256, k: 2, seed: 1, dmax: 4096, step: 16 },
    { pattern: 'random', L: 512, k: 2, seed: 2, dmax: 4096, step: 16 },
    { pattern: 'random', L: 300, k: 2, seed: 8, dmax: 2048, step: 24 },
    { pattern: 'random', L: 256, k: 2, seed: 1, dmax: 64, step: 16 },  // not reached
  ];
  for (const opts of cases) {
    const cli = runCli('mind', opts);
    for (const [name, api] of Object.entries(apis)) {
      const what = `${name} ${JSON.stringify(opts)}`;
      const r = api.minD(opts);
      assert.equal(r.dMin, cli.d_min, `${what} d_min`);
      assert.deepEqual(r.checked, cli.checked, `${what} checked`);
      assert.equal(r.gramMadds, cli.gram_madds, `${what} gram_madds`);
      assert.equal(r.checkMadds, cli.check_madds, `${what} check_madds`);
      assert.equal(r.k, cli.pattern.k, `${what} k`);
      assertRel(r.beta, cli.beta, 1e-12, `${what} beta`);
      assertRel(r.dStar, cli.d_star, 1e-12, `${what} d_star`);
    }
  }
  const nr = apis.simd.minD({ pattern: 'random', L: 256, k: 2, seed: 1, dmax: 64 });
  assert.equal(nr.dMin, null, 'not reached is null');
});

test('sweepPoint: every trial d_min, median, quantile and d* match `attnx sweep`', () => {
  const opts = { pattern: 'random', k: 2, seed: 1, trials: 3, dmax: 4096, step: 16 };
  const cli = runCli('sweep', { ...opts, Ls: [64, 128, 256] });
  for (const pt of cli.points) {
    for (const [name, api] of Object.entries(apis)) {
      const what = `${name} L=${pt.L}`;
      const r = api.sweepPoint({ ...opts, L: pt.L });
      assert.equal(r.L, pt.L);
      assert.deepEqual(r.dMins, pt.d_mins, `${what} d_mins`);
      assert.equal(r.median, pt.median, `${what} median`);
      assert.equal(r.quantile, pt.quantile, `${what} quantile`);
      assert.equal(r.madds, pt.madds, `${what} madds`);
      assert.equal(r.k, pt.k);
      assert.equal(r.maxColCount, pt.max_col_count);
      assert.equal(r.inClass, pt.in_class);
      assertRel(r.dStar, pt.d_star, 1e-12, `${what} d_star`);
    }
  }
  // Fits of the quantiles, as the CLI reports them.
  const f = apis.simd.fits(cli.points.map((p) => p.L), cli.points.map((p) => p.quantile));
  assert.equal(f.log.ok, cli.fits.log.ok);
  assertRel(f.log.a, cli.fits.log.a, 1e-9, 'fit a');
  assertRel(f.log.b, cli.fits.log.b, 1e-9, 'fit b');
  assertRel(f.log.r2, cli.fits.log.r2, 1e-9, 'fit r2');
  assertRel(f.power.c, cli.fits.power.c, 1e-9, 'fit c');
  assertRel(f.power.p, cli.fits.power.p, 1e-9, 'fit p');
});

test('sweepPoint with a bigbird pattern (outside the class) matches the CLI', () => {
  const opts = { pattern: 'bigbird', w: 1, globals: 1, randoms: 1, seed: 5, trials: 2, dmax: 4096, step: 16 };
  const cli = runCli('sweep', { ...opts, Ls: [96] });
  const r = apis.scalar.sweepPoint({ ...opts, L: 96 });
  assert.deepEqual(r.dMins, cli.points[0].d_mins);
  assert.equal(r.inClass, false);
  assert.equal(r.maxColCount, cli.points[0].max_col_count);
});
