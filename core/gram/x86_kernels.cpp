// attnx core: the AVX2 and AVX-512 kernels, compiled into the portable x86-64 build for
// instruction sets it does not assume and chosen at run time: the Gram kernels (gram_kernel_best,
// core/gram.cpp) and the chains of the peak microbenchmark (core/flops_peak.cpp).
// The Gram micro-kernel is core/gram_tile.inc with wider vectors, its driver core/gram_blocked.hpp.
// Separate multiply and add, as in every Gram kernel, so the results are bit-identical to the
// scalar kernel's (see gram_blocked.hpp and the README's Performance section for why not FMA).
#include "x86_kernels.hpp"

#ifdef ATTNX_X86
#include <cstddef>

#include "gram_blocked.hpp"

namespace attnx::x86 {
namespace {

#define ATTNX_PEAK_FMA 1

ATTNX_TARGET_BEGIN_AVX2
namespace avx2 {
constexpr int kLanes = 8;
using V = __m256;
inline V v_zero() { return _mm256_setzero_ps(); }
inline V v_load(const float* p) { return _mm256_loadu_ps(p); }
inline V v_splat(const float* p) { return _mm256_broadcast_ss(p); }
inline void v_store(float* p, V v) { _mm256_storeu_ps(p, v); }
inline V v_add(V a, V b) { return _mm256_add_ps(a, b); }
inline V v_mul(V a, V b) { return _mm256_mul_ps(a, b); }
inline V v_fma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
#include "gram_tile.inc"
#include "peak_chains.inc"
}  // namespace avx2
ATTNX_TARGET_END

ATTNX_TARGET_BEGIN_AVX512
namespace avx512 {
constexpr int kLanes = 16;
using V = __m512;
inline V v_zero() { return _mm512_setzero_ps(); }
inline V v_load(const float* p) { return _mm512_loadu_ps(p); }
inline V v_splat(const float* p) { return _mm512_set1_ps(*p); }
inline void v_store(float* p, V v) { _mm512_storeu_ps(p, v); }
inline V v_add(V a, V b) { return _mm512_add_ps(a, b); }
inline V v_mul(V a, V b) { return _mm512_mul_ps(a, b); }
inline V v_fma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
#include "gram_tile.inc"
#include "peak_chains.inc"
}  // namespace avx512
ATTNX_TARGET_END

#undef ATTNX_PEAK_FMA

}  // namespace

// Tile shapes (rows x columns): the accumulators, the A vectors, one broadcast and one product fit
// the 16 (AVX2) or 32 (AVX-512) vector registers.
constexpr int kAvx2Rows = 24, kAvx2Cols = 4;      // 12 eight-lane accumulators
constexpr int kAvx512Rows = 32, kAvx512Cols = 8;  // 16 sixteen-lane accumulators

void gram_update_lower_avx2(float* band, int L, const float* Pb, int n, int c0, int c1) {
  if (L <= 0 || n <= 0 || c0 >= c1) return;
  gram_detail::gram_blocked<kAvx2Rows, kAvx2Cols, avx2::tile_vector<kAvx2Rows, kAvx2Cols>>(
      band, L, Pb, n, c0, c1);
}

void gram_update_lower_avx512(float* band, int L, const float* Pb, int n, int c0, int c1) {
  if (L <= 0 || n <= 0 || c0 >= c1) return;
  gram_detail::gram_blocked<kAvx512Rows, kAvx512Cols, avx512::tile_vector<kAvx512Rows, kAvx512Cols>>(
      band, L, Pb, n, c0, c1);
}

// Chains per round: enough independent ones to cover the latency of two pipes, few enough to
// stay in the registers (with b, c and, for mul-add, the pairs' two registers each).
PeakWork peak_chains_avx2(bool fused, long rounds) {
  constexpr int kFma = 12, kPairs = 7;
  const double per_round = 2.0 * avx2::kLanes * (fused ? kFma : kPairs);
  if (fused) return {"avx2-fma", per_round * rounds, avx2::fma_chains<kFma>(rounds)};
  return {"avx2-mul-add", per_round * rounds, avx2::mul_add_chains<kPairs>(rounds)};
}

PeakWork peak_chains_avx512(bool fused, long rounds) {
  constexpr int kFma = 24, kPairs = 12;
  const double per_round = 2.0 * avx512::kLanes * (fused ? kFma : kPairs);
  if (fused) return {"avx512-fma", per_round * rounds, avx512::fma_chains<kFma>(rounds)};
  return {"avx512-mul-add", per_round * rounds, avx512::mul_add_chains<kPairs>(rounds)};
}

}  // namespace attnx::x86
#endif
