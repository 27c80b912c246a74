// attnx core: the Gram update kernels (SPEC §4) and which one runs. The scalar, SSE2 and
// wasm_simd128 kernels live here, the AVX2 and AVX-512 ones in core/x86_kernels.cpp; all of them share
// the blocked driver of core/gram_blocked.hpp and sum in the same order, so they give the same bits.
#include <attnx/gram.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <attnx/errors.hpp>

#include "gram_blocked.hpp"
#include "x86_kernels.hpp"

#if !defined(__wasm_simd128__) && defined(__SSE2__)
#include <xmmintrin.h>
#endif

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif

namespace attnx {

void gram_update_lower_eigen(float* G, int L, const float* Pb, int n) {
  Eigen::Map<Eigen::MatrixXf> g(G, L, L);
  Eigen::Map<const Eigen::MatrixXf> p(Pb, L, n);
  g.selfadjointView<Eigen::Lower>().rankUpdate(p);
}

namespace {

#if defined(__wasm_simd128__) || defined(__SSE2__)
#define ATTNX_GRAM_VECTOR 1
// Four-lane float vectors: wasm_simd128 in the WebAssembly build, SSE2 natively (x86-64).
namespace four_lane {
constexpr int kLanes = 4;
#ifdef __wasm_simd128__
using V = v128_t;
inline V v_zero() { return wasm_f32x4_splat(0.0f); }
inline V v_load(const float* p) { return wasm_v128_load(p); }
inline V v_splat(const float* p) { return wasm_v128_load32_splat(p); }
inline void v_store(float* p, V v) { wasm_v128_store(p, v); }
inline V v_add(V a, V b) { return wasm_f32x4_add(a, b); }
inline V v_mul(V a, V b) { return wasm_f32x4_mul(a, b); }
#else
using V = __m128;
inline V v_zero() { return _mm_setzero_ps(); }
inline V v_load(const float* p) { return _mm_loadu_ps(p); }
inline V v_splat(const float* p) { return _mm_set1_ps(*p); }
inline void v_store(float* p, V v) { _mm_storeu_ps(p, v); }
inline V v_add(V a, V b) { return _mm_add_ps(a, b); }
inline V v_mul(V a, V b) { return _mm_mul_ps(a, b); }
#endif
#include "gram_tile.inc"
}  // namespace four_lane
#endif

}  // namespace

namespace {

// The four-lane kernel (or the scalar one where there is none) and the scalar one on a band.
void band_vector(float* band, int L, const float* Pb, int n, int c0, int c1) {
  if (L <= 0 || n <= 0 || c0 >= c1) return;
#ifdef ATTNX_GRAM_VECTOR
  // 8 four-lane accumulators: ~37 GFLOP/s in V8 (Zen 4)
  gram_detail::gram_blocked<8, 4, four_lane::tile_vector<8, 4>>(band, L, Pb, n, c0, c1);
#else
  // 8 scalar accumulators: fastest scalar shape
  gram_detail::gram_blocked<4, 2, gram_detail::tile_scalar<4, 2>>(band, L, Pb, n, c0, c1);
#endif
}

void band_scalar(float* band, int L, const float* Pb, int n, int c0, int c1) {
  if (L <= 0 || n <= 0 || c0 >= c1) return;
  gram_detail::gram_blocked<4, 2, gram_detail::tile_scalar<4, 2>>(band, L, Pb, n, c0, c1);
}

}  // namespace

void gram_update_lower_kernel(float* G, int L, const float* Pb, int n) {
  band_vector(G, L, Pb, n, 0, L);
}

void gram_update_lower_scalar(float* G, int L, const float* Pb, int n) {
  band_scalar(G, L, Pb, n, 0, L);
}

const char* gram_kernel_label(GramKernel k) {
  switch (k) {
    case GramKernel::Auto: return "auto";
    case GramKernel::Scalar: return "scalar";
    case GramKernel::Sse2: return "sse2";
    case GramKernel::WasmSimd128: return "wasm-simd128";
    case GramKernel::Avx2: return "avx2";
    case GramKernel::Avx512: return "avx512";
  }
  return "unknown";
}

bool gram_kernel_runs(GramKernel k) {
  switch (k) {
    case GramKernel::Auto:
    case GramKernel::Scalar: return true;
#if defined(__wasm_simd128__)
    case GramKernel::WasmSimd128: return true;
#elif defined(__SSE2__)
    case GramKernel::Sse2: return true;
#endif
#ifdef ATTNX_X86
    case GramKernel::Avx2: return x86::cpu_runs_avx2();
    case GramKernel::Avx512: return x86::cpu_runs_avx512();
#endif
    default: return false;
  }
}

std::vector<GramKernel> gram_kernels_available() {
  std::vector<GramKernel> v;
  for (GramKernel k : {GramKernel::Scalar, GramKernel::Sse2, GramKernel::WasmSimd128,
                       GramKernel::Avx2, GramKernel::Avx512})
    if (gram_kernel_runs(k)) v.push_back(k);
  return v;
}

GramKernel gram_kernel_best() {
#ifdef ATTNX_X86
  if (x86::cpu_runs_avx512()) return GramKernel::Avx512;
  if (x86::cpu_runs_avx2()) return GramKernel::Avx2;
#endif
#if defined(__wasm_simd128__)
  return GramKernel::WasmSimd128;
#elif defined(__SSE2__)
  return GramKernel::Sse2;
#else
  return GramKernel::Scalar;
#endif
}

void require_gram_kernel_runs(GramKernel k) {
  if (gram_kernel_runs(k)) return;
  std::string here;
  for (GramKernel h : gram_kernels_available())
    here += (here.empty() ? "" : ", ") + std::string(gram_kernel_label(h));
  fail("gram_kernel", std::string("gram_kernel ") + gram_kernel_label(k) +
                          " does not run here (this build on this CPU runs " + here + ")");
}

void gram_update_lower_band_with(GramKernel k, float* band, int L, const float* Pb, int n, int c0,
                                 int c1) {
  if (k == GramKernel::Auto) k = gram_kernel_best();
  require_gram_kernel_runs(k);
  require_gram_band(c0, c1, std::max(L, 0), true);
  switch (k) {
    case GramKernel::Scalar: return band_scalar(band, L, Pb, n, c0, c1);
#ifdef ATTNX_X86
    case GramKernel::Avx2: return x86::gram_update_lower_avx2(band, L, Pb, n, c0, c1);
    case GramKernel::Avx512: return x86::gram_update_lower_avx512(band, L, Pb, n, c0, c1);
#endif
    default: return band_vector(band, L, Pb, n, c0, c1);  // sse2 or wasm-simd128
  }
}

void require_gram_band(int c0, int c1, int L, bool allow_empty) {
  if (c0 >= 0 && c1 <= L && (allow_empty ? c0 <= c1 : c0 < c1) && c0 % kGramBandAlign == 0) return;
  fail("gram_band", "gram_band: columns " + std::to_string(c0) + " .. " + std::to_string(c1) +
                        " must satisfy 0 <= c0 " + (allow_empty ? "<=" : "<") + " c1 <= L = " +
                        std::to_string(L) + " with c0 a multiple of " + std::to_string(kGramBandAlign));
}

void gram_update_lower_band(float* band, int L, const float* Pb, int n, int c0, int c1) {
  gram_update_lower_band_with(gram_kernel_best(), band, L, Pb, n, c0, c1);
}

void gram_update_lower_with(GramKernel k, float* G, int L, const float* Pb, int n) {
  gram_update_lower_band_with(k, G, L, Pb, n, 0, std::max(L, 0));
}

void gram_update_lower(float* G, int L, const float* Pb, int n) {
  gram_update_lower_with(gram_kernel_best(), G, L, Pb, n);
}

const char* gram_kernel_name() { return gram_kernel_label(gram_kernel_best()); }

const char* gram_vector_kernel_name() {
#if defined(__wasm_simd128__)
  return "wasm-simd128";
#elif defined(__SSE2__)
  return "sse2";
#else
  return "scalar";
#endif
}

namespace {

// Copies the 4 x 4 lower block at rows i..i+3, columns j..j+3 onto the upper block at rows j..j+3,
// columns i..i+3 (column-major, leading dimension l). Pure data movement: exact on every path.
inline void transpose_block4(float* G, std::size_t l, std::size_t i, std::size_t j) {
#if defined(__wasm_simd128__)
  v128_t c0 = wasm_v128_load(G + (j + 0) * l + i), c1 = wasm_v128_load(G + (j + 1) * l + i);
  v128_t c2 = wasm_v128_load(G + (j + 2) * l + i), c3 = wasm_v128_load(G + (j + 3) * l + i);
  v128_t t0 = wasm_i32x4_shuffle(c0, c1, 0, 4, 1, 5), t1 = wasm_i32x4_shuffle(c2, c3, 0, 4, 1, 5);
  v128_t t2 = wasm_i32x4_shuffle(c0, c1, 2, 6, 3, 7), t3 = wasm_i32x4_shuffle(c2, c3, 2, 6, 3, 7);
  wasm_v128_store(G + (i + 0) * l + j, wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5));
  wasm_v128_store(G + (i + 1) * l + j, wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7));
  wasm_v128_store(G + (i + 2) * l + j, wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5));
  wasm_v128_store(G + (i + 3) * l + j, wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7));
#elif defined(__SSE2__)
  __m128 c0 = _mm_loadu_ps(G + (j + 0) * l + i), c1 = _mm_loadu_ps(G + (j + 1) * l + i);
  __m128 c2 = _mm_loadu_ps(G + (j + 2) * l + i), c3 = _mm_loadu_ps(G + (j + 3) * l + i);
  _MM_TRANSPOSE4_PS(c0, c1, c2, c3);
  _mm_storeu_ps(G + (i + 0) * l + j, c0);
  _mm_storeu_ps(G + (i + 1) * l + j, c1);
  _mm_storeu_ps(G + (i + 2) * l + j, c2);
  _mm_storeu_ps(G + (i + 3) * l + j, c3);
#else
  for (std::size_t q = 0; q < 4; ++q)
    for (std::size_t r = 0; r < 4; ++r) G[(i + q) * l + j + r] = G[(j + r) * l + i + q];
#endif
}

}  // namespace

void symmetrize_from_lower(float* G, int L) {
  const std::size_t l = static_cast<std::size_t>(L), l4 = l & ~std::size_t(3);
  constexpr std::size_t T = 32;  // tiles of 32 x 32 keep the strided side in cache
  for (std::size_t jb = 0; jb < l4; jb += T) {
    const std::size_t je = std::min(l4, jb + T);
    for (std::size_t ib = jb; ib < l4; ib += T) {
      const std::size_t ie = std::min(l4, ib + T);
      for (std::size_t j = jb; j < je; j += 4)
        for (std::size_t i = std::max(ib, j + 4); i < ie; i += 4) transpose_block4(G, l, i, j);
    }
  }
  for (std::size_t j = 0; j < l4; j += 4)  // diagonal 4 x 4 blocks
    for (std::size_t q = 1; q < 4; ++q)
      for (std::size_t r = 0; r < q; ++r) G[(j + q) * l + j + r] = G[(j + r) * l + j + q];
  for (std::size_t i = l4; i < l; ++i)  // last rows (L not a multiple of 4)
    for (std::size_t j = 0; j < i; ++j) G[i * l + j] = G[j * l + i];
}

}  // namespace attnx
