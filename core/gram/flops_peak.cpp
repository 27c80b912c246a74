// attnx core: the peak microbenchmark's work (include/attnx/flops_peak.hpp): independent chains in
// registers on the widest instruction set this CPU runs (core/x86_kernels.cpp), else plain C++.
#include <attnx/flops_peak.hpp>

#include "x86_kernels.hpp"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace attnx {

namespace {

#ifdef __wasm_simd128__
// WebAssembly's 128-bit vectors (four lanes; no fused multiply-add in this toolchain): the
// instruction mix of the module's Gram kernel (core/gram.cpp four_lane).
namespace wasm4 {
constexpr int kLanes = 4;
using V = v128_t;
inline V v_splat(const float* p) { return wasm_v128_load32_splat(p); }
inline void v_store(float* p, V v) { wasm_v128_store(p, v); }
inline V v_add(V a, V b) { return wasm_f32x4_add(a, b); }
inline V v_mul(V a, V b) { return wasm_f32x4_mul(a, b); }
#include "peak_chains.inc"
}  // namespace wasm4
#endif

// 8 pairs x = x * b; a = a + x per round in the build's baseline instruction set (the compiler
// may put the chains side by side in vectors; flops are counted per chain, so this is a floor).
PeakWork baseline_chains(long rounds) {
  constexpr int kPairs = 8;
  float a[kPairs], x[kPairs];
  const float b = 0.99999994f;
  for (int i = 0; i < kPairs; ++i) {
    a[i] = static_cast<float>(i);
    x[i] = 1e-3f;
  }
  for (long k = 0; k < rounds; ++k)
    for (int i = 0; i < kPairs; ++i) {
      x[i] = x[i] * b;
      a[i] = a[i] + x[i];
    }
  float s = 0;
  for (int i = 0; i < kPairs; ++i) s += a[i];
  return {"baseline-mul-add", 2.0 * kPairs * static_cast<double>(rounds), s};
}

}  // namespace

PeakWork run_peak_chains(bool fused, long rounds) {
  if (rounds < 0) rounds = 0;
#ifdef ATTNX_X86
  if (x86::cpu_runs_avx512()) return x86::peak_chains_avx512(fused, rounds);
  if (x86::cpu_runs_avx2()) return x86::peak_chains_avx2(fused, rounds);
#endif
  (void)fused;  // no fused multiply-add below AVX2 in this build
#ifdef __wasm_simd128__
  // 6 pairs: 12 vector registers of the engine's 16 (x86-64), with b, covering the multiply's latency.
  constexpr int kPairs = 6;
  return {"wasm-simd128-mul-add", 2.0 * wasm4::kLanes * kPairs * static_cast<double>(rounds), wasm4::mul_add_chains<kPairs>(rounds)};
#else
  return baseline_chains(rounds);
#endif
}

}  // namespace attnx
