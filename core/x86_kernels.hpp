// attnx core (internal): the AVX2 and AVX-512 kernels of core/x86_kernels.cpp, reached through
// gram_update_lower_with (core/gram.cpp) and run_peak_chains (core/flops_peak.cpp). Not installed.
#pragma once
#include <attnx/flops_peak.hpp>

#include "x86_target.hpp"

#ifdef ATTNX_X86
namespace attnx::x86 {

// Contract of gram_update_lower_with; call only when cpu_runs_avx2() / cpu_runs_avx512().
void gram_update_lower_avx2(float* G, int L, const float* Pb, int n);
void gram_update_lower_avx512(float* G, int L, const float* Pb, int n);

// Contract of run_peak_chains for one instruction set; same conditions.
PeakWork peak_chains_avx2(bool fused, long rounds);
PeakWork peak_chains_avx512(bool fused, long rounds);

}  // namespace attnx::x86
#endif
