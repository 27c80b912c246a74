// The test flavour of the WebAssembly module (build/wasm-<flavour>/attnx_<flavour>_test.mjs): the
// production module plus the hooks of tests/wasm/test_hooks.cpp, which dist/ never serves.
// loadTestBuild(flavour) -> { api (AttnxApi), gramSelfTest(L, n, seed), gramBench(L, n, reps,
// which), allocProbe(mib), scaleBench(L, d, k, reps), peakBench() -> { isa, gflops } }; a hook's refusal is thrown as the Error the module returns.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

import { AttnxApi } from '../../web/lib/attnx.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function unwrap(r) {
  if (r instanceof Error) throw r;
  return r;
}

export async function loadTestBuild(flavour) {
  const base = `${ROOT}build/wasm-${flavour}/attnx_${flavour}_test`;
  const { default: factory } = await import(`${base}.mjs`);
  const mod = await factory({ wasmBinary: await readFile(`${base}.wasm`) });
  return {
    api: new AttnxApi(mod, flavour),
    gramSelfTest: (L, n, seed) => unwrap(mod.gramSelfTest(L, n, seed)),
    gramBench: (L, n, reps, which = 'dispatch') => unwrap(mod.gramBench(L, n, reps, which)),
    allocProbe: (mib) => unwrap(mod.allocProbe(mib)),
    scaleBench: (L, d, k, reps) => unwrap(mod.scaleBench(L, d, k, reps)),
    peakBench: () => unwrap(mod.peakBench()),
  };
}
