// attnx core (internal): compiling x86-64 code for an instruction set the build does not assume,
// and asking the CPU at run time whether it has it. Used by the AVX2 / AVX-512 Gram kernels
// (core/x86_kernels.cpp) and the peak microbenchmark (core/flops_peak.cpp). Not installed.
//
// ATTNX_X86 is defined for native x86-64 builds with GCC or Clang (never under Emscripten).
// Code between ATTNX_TARGET_BEGIN_AVX2 / _AVX512 and ATTNX_TARGET_END is compiled for that
// instruction set (GCC's target pragma, Clang's attribute pragma); it must only run after the
// matching cpu_runs_* returned true. Keep such regions inside an anonymous namespace, and include
// every header before them, so that no inline function shared with other files is compiled with
// instructions the CPU may lack.
#pragma once

#if defined(__x86_64__) && !defined(__EMSCRIPTEN__) && (defined(__GNUC__) || defined(__clang__))
#define ATTNX_X86 1
#include <immintrin.h>

#if defined(__clang__)
#define ATTNX_TARGET_BEGIN_AVX2 \
  _Pragma("clang attribute push(__attribute__((target(\"avx2,fma\"))), apply_to = function)")
#define ATTNX_TARGET_BEGIN_AVX512 \
  _Pragma("clang attribute push(__attribute__((target(\"avx512f\"))), apply_to = function)")
#define ATTNX_TARGET_END _Pragma("clang attribute pop")
#else
#define ATTNX_TARGET_BEGIN_AVX2 _Pragma("GCC push_options") _Pragma("GCC target(\"avx2,fma\")")
#define ATTNX_TARGET_BEGIN_AVX512 _Pragma("GCC push_options") _Pragma("GCC target(\"avx512f\")")
#define ATTNX_TARGET_END _Pragma("GCC pop_options")
#endif

namespace attnx::x86 {

// Whether this CPU (and the OS, which must save the wider registers) runs AVX2 with FMA / AVX-512F.
inline bool cpu_runs_avx2() {
  __builtin_cpu_init();  // idempotent; needed if called before the runtime's constructors ran
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}
inline bool cpu_runs_avx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f");
}

}  // namespace attnx::x86
#endif
