// attnx core (internal): the AVX2 and AVX-512 Gram kernels (core/gram_x86.cpp), reached through
// gram_update_lower_with (core/gram.cpp). Not installed.
#pragma once
#include "x86_target.hpp"

#ifdef ATTNX_X86
namespace attnx::x86 {

// Contract of gram_update_lower_with; call only when cpu_runs_avx2() / cpu_runs_avx512().
void gram_update_lower_avx2(float* G, int L, const float* Pb, int n);
void gram_update_lower_avx512(float* G, int L, const float* Pb, int n);

}  // namespace attnx::x86
#endif
