// attnx core: the peak microbenchmark's work (include/attnx/flops_peak.hpp): independent chains in
// registers on the widest instruction set this CPU runs (core/x86_kernels.cpp), else plain C++.
#include <attnx/flops_peak.hpp>

#include "x86_kernels.hpp"

namespace attnx {

namespace {

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
  return baseline_chains(rounds);
}

}  // namespace attnx
