// The module's multiply-add peak (tests/wasm/test_hooks.cpp peakBench, core run_peak_chains), what
// bench:lab sets the page's Gram kernel against (issue 46.3): the SIMD flavour runs WebAssembly's
// 128-bit vectors, the scalar flavour its plain chains; each reports a positive rate. No speed is
// asserted (no wall-clock thresholds in npm test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadTestBuild } from './test-build.mjs';

test('the SIMD module measures its 128-bit multiply-add peak, the scalar one its plain chains', async () => {
  for (const [flavour, isa] of [['simd', 'wasm-simd128-mul-add'], ['scalar', 'baseline-mul-add']]) {
    const hooks = await loadTestBuild(flavour);
    const p = hooks.peakBench();
    assert.equal(p.isa, isa, flavour);
    assert.ok(Number.isFinite(p.gflops) && p.gflops > 0, `${flavour}: ${p.gflops}`);
  }
});
