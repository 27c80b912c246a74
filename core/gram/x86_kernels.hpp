// attnx core (internal): the AVX2 and AVX-512 kernels of core/x86_kernels.cpp, reached through
// gram_update_lower_with (core/gram.cpp) and run_peak_chains (core/flops_peak.cpp). Not installed.
#pragma once
#include <attnx/flops_peak.hpp>

#include "x86_target.hpp"

#ifdef ATTNX_X86
namespace attnx::x86 {

// Contract of gram_update_lower_band_with (checked by the caller); call only when cpu_runs_avx2()
// / cpu_runs_avx512().
void gram_update_lower_avx2(float* band, int L, const float* Pb, int n, int c0, int c1);
void gram_update_lower_avx512(float* band, int L, const float* Pb, int n, int c0, int c1);

// Contract of run_peak_chains for one instruction set; same conditions.
PeakWork peak_chains_avx2(bool fused, long rounds);
PeakWork peak_chains_avx512(bool fused, long rounds);

}  // namespace attnx::x86
#endif
