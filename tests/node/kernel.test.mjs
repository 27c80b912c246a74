// The hand-written Gram kernel (core/gram/gram.cpp, gram_update_lower_kernel) against Eigen and a
// double reference, in both builds; and the SIMD and scalar builds giving identical results.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';

import { loadBoth } from './helpers.mjs';
import { loadTestBuild } from './test-build.mjs';

let apis, hooks;
before(async () => {
  apis = await loadBoth();
  hooks = { simd: await loadTestBuild('simd'), scalar: await loadTestBuild('scalar') };
});

// Shapes that hit every edge: L below, at and off the 8 x 4 and 4 x 2 tiles, n off the unroll,
// n above the 256-column packing chunk.
const SHAPES = [[1, 1], [2, 1], [3, 5], [4, 4], [7, 3], [8, 16], [9, 2], [31, 16], [33, 17], [64, 1],
  [100, 48], [257, 300], [520, 256], [1024, 16]];

for (const flavour of ['simd', 'scalar']) {
  test(`${flavour}: kernel and Eigen agree with a double reference; upper triangle untouched`, () => {
    for (const [L, n] of SHAPES) {
      for (const seed of [1, 2]) {
        const r = hooks[flavour].gramSelfTest(L, n, seed);
        const what = `${flavour} L=${L} n=${n} seed=${seed}`;
        assert.equal(r.kernel, flavour === 'simd' ? 'wasm-simd128' : 'scalar');
        assert.equal(r.upperUntouched, true, `${what}: upper triangle written`);
        // float32 accumulation of n products (plus the initial value): error ~ n * 2^-24 * scale.
        const tol = (n + 2) * 2 ** -23 * Math.max(1, r.scale);
        assert.ok(r.maxErrKernel <= tol, `${what}: kernel error ${r.maxErrKernel} > ${tol}`);
        assert.ok(r.maxErrEigen <= tol, `${what}: Eigen error ${r.maxErrEigen} > ${tol}`);
        assert.equal(r.maxErrDispatch, r.maxErrKernel, `${what}: gram_update_lower runs the kernel under Emscripten`);
      }
    }
  });
}

test('kernel: SIMD and scalar builds are bit-identical (same summation order)', () => {
  for (const [L, n] of SHAPES) {
    const a = hooks.simd.gramSelfTest(L, n, 9), b = hooks.scalar.gramSelfTest(L, n, 9);
    assert.equal(a.maxErrKernel, b.maxErrKernel, `L=${L} n=${n}`);
  }
});

test('SIMD and scalar builds give the same results', () => {
  const { simd, scalar } = apis;
  for (const opts of [
    { pattern: 'random', L: 384, k: 2, seed: 11 },
    { pattern: 'window', L: 200, w: 2, seed: 3, weights: 'random', wMin: 0.3 },
    { pattern: 'bigbird', L: 150, w: 1, globals: 2, randoms: 2, seed: 8 },
  ]) {
    const a = simd.minD(opts), b = scalar.minD(opts);
    assert.equal(a.dMin, b.dMin, JSON.stringify(opts));
    assert.deepEqual(a.checked, b.checked);
    assert.equal(a.gramMadds, b.gramMadds);
    assert.equal(a.checkMadds, b.checkMadds);
    const ca = simd.construct({ ...opts, d: 128 }), cb = scalar.construct({ ...opts, d: 128 });
    assert.deepEqual(ca.A, cb.A);
    assert.deepEqual(ca.X, cb.X);
    for (const key of ['rho', 'zeta', 'lambda', 'beta', 'dStar']) {
      const x = ca.metrics[key], y = cb.metrics[key];
      assert.ok(Math.abs(x - y) <= 1e-6 * Math.max(Math.abs(x), Math.abs(y)), `${key}: ${x} vs ${y}`);
    }
    assert.equal(ca.metrics.success, cb.metrics.success);
  }
  const pa = simd.sweepPoint({ L: 96, trials: 3, seed: 4 }), pb = scalar.sweepPoint({ L: 96, trials: 3, seed: 4 });
  assert.deepEqual(pa.dMins, pb.dMins);
  assert.equal(pa.madds, pb.madds);
});
