// attnx core: the single-core floating-point peak of this CPU, measured by `attnx bench` to say how
// close the Gram kernels come to it. The core only does the work; the caller times it.
#pragma once

namespace attnx {

struct PeakWork {
  const char* isa = "";  // what ran: "avx512-fma", "avx2-fma", "avx512-mul-add", "sse2-mul-add", ...
  double flops = 0;      // floating-point operations done (a multiply-add counts 2 per lane)
  float sink = 0;        // depends on every chain; the caller keeps it observable
};

// Runs `rounds` rounds of independent chains held in registers on the widest vector instruction
// set this CPU runs (AVX-512F, else AVX2, else SSE2, else scalar; in WebAssembly with SIMD its
// 128-bit vectors, "wasm-simd128-mul-add"): fused multiply-adds when `fused`
// and the set has FMA, else separate multiply and add (the Gram kernels' instruction mix). Cost:
// flops / (the CPU's rate); about 1 ms per 10^5 rounds on a 3 GHz AVX-512 core (24 chains).
// Errors: none (rounds <= 0 does nothing).
PeakWork run_peak_chains(bool fused, long rounds);

}  // namespace attnx
