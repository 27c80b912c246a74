#include <attnx/gram.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cstddef>
#include <vector>

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

// ---- hand-written kernel (construct everywhere, min-d in the WebAssembly builds; Eigen 3.4 has
// no WASM SIMD) ----
//
// Cache and register blocking. P's columns are processed in chunks of kKc; each chunk is packed
// into row blocks of MR rows, Pk[b][t][r] = Pb(b*MR + r, t0 + t) (zero-padded), so the
// micro-kernel streams both operands contiguously (no 4 KiB-stride aliasing across t). The lower
// triangle is swept in column blocks of NR columns; within a block, MR x NR tiles go down the
// rows. A tile accumulates acc(r, c) = sum_t Pk(i, t) Pk(j, t) in registers over the whole chunk
// (t ascending), then adds it to G once. Tiles that cross the diagonal or the edge go through a
// small buffer and only write i >= j, i < L, j < L: the upper triangle is never touched.
//
// Every element is summed in the same order in both paths (t ascending from 0 within a chunk,
// then G += acc, chunk by chunk), with separate multiply and add (no FMA, -ffp-contract=off), so
// the wasm-simd128 and the scalar builds produce bit-identical Gram matrices.
namespace {

constexpr int kKc = 256;  // columns of P per packed chunk (step <= 256 is a single chunk)

template <int MR>
void pack_rows(const float* Pb, int L, int t0, int kc, float* Pk) {
  const int nb = (L + MR - 1) / MR;
  const std::size_t l = static_cast<std::size_t>(L);
  for (int b = 0; b < nb; ++b) {
    float* dst = Pk + static_cast<std::size_t>(b) * MR * kc;
    const int i0 = b * MR, rows = std::min(MR, L - i0);
    for (int t = 0; t < kc; ++t) {
      const float* src = Pb + static_cast<std::size_t>(t0 + t) * l + i0;
      float* d = dst + t * MR;
      int r = 0;
      for (; r < rows; ++r) d[r] = src[r];
      for (; r < MR; ++r) d[r] = 0.0f;
    }
  }
}

// tile[c * MR + r] = sum_t A[t * MR + r] * B[t * MR + c], t = 0 .. kc-1 in order.
template <int MR, int NR>
inline void tile_scalar(const float* A, const float* B, int kc, float* tile) {
  float acc[NR][MR];
  for (int c = 0; c < NR; ++c)
    for (int r = 0; r < MR; ++r) acc[c][r] = 0.0f;
  for (int t = 0; t < kc; ++t) {
    const float* a = A + t * MR;
    const float* b = B + t * MR;
    for (int c = 0; c < NR; ++c) {
      const float bc = b[c];
      for (int r = 0; r < MR; ++r) acc[c][r] = acc[c][r] + a[r] * bc;
    }
  }
  for (int c = 0; c < NR; ++c)
    for (int r = 0; r < MR; ++r) tile[c * MR + r] = acc[c][r];
}

#if defined(__wasm_simd128__) || defined(__SSE2__)
#define ATTNX_GRAM_VECTOR 1
// Four-lane float vectors: wasm_simd128 in the WebAssembly build, SSE2 natively (x86-64).
#ifdef __wasm_simd128__
using F4 = v128_t;
inline F4 f4_zero() { return wasm_f32x4_splat(0.0f); }
inline F4 f4_load(const float* p) { return wasm_v128_load(p); }
inline F4 f4_splat(const float* p) { return wasm_v128_load32_splat(p); }
inline void f4_store(float* p, F4 v) { wasm_v128_store(p, v); }
inline F4 f4_add(F4 a, F4 b) { return wasm_f32x4_add(a, b); }
inline F4 f4_mul(F4 a, F4 b) { return wasm_f32x4_mul(a, b); }
#else
using F4 = __m128;
inline F4 f4_zero() { return _mm_setzero_ps(); }
inline F4 f4_load(const float* p) { return _mm_loadu_ps(p); }
inline F4 f4_splat(const float* p) { return _mm_set1_ps(*p); }
inline void f4_store(float* p, F4 v) { _mm_storeu_ps(p, v); }
inline F4 f4_add(F4 a, F4 b) { return _mm_add_ps(a, b); }
inline F4 f4_mul(F4 a, F4 b) { return _mm_mul_ps(a, b); }
#endif

// Same sums as tile_scalar with MR/4 x NR four-lane accumulators (separate multiply and add, so
// bit-identical to it). With G != nullptr the tile is added to G (column-major, ld ldg);
// otherwise it is stored to `tile` like tile_scalar.
template <int MR, int NR>
inline void tile_simd(const float* A, const float* B, int kc, float* G, std::size_t ldg,
                      float* tile) {
  constexpr int MV = MR / 4;
  F4 acc[NR][MV];
  for (int c = 0; c < NR; ++c)
    for (int v = 0; v < MV; ++v) acc[c][v] = f4_zero();
  // Plain loop: V8 allocates registers better when this is not unrolled.
  for (int t = 0; t < kc; ++t) {
    const float* a = A + t * MR;
    const float* b = B + t * MR;
    F4 av[MV];
    for (int v = 0; v < MV; ++v) av[v] = f4_load(a + 4 * v);
    for (int c = 0; c < NR; ++c) {
      const F4 bc = f4_splat(b + c);
      for (int v = 0; v < MV; ++v) acc[c][v] = f4_add(acc[c][v], f4_mul(av[v], bc));
    }
  }
  if (G) {
    for (int c = 0; c < NR; ++c) {
      float* g = G + c * ldg;
      for (int v = 0; v < MV; ++v) f4_store(g + 4 * v, f4_add(f4_load(g + 4 * v), acc[c][v]));
    }
  } else {
    for (int c = 0; c < NR; ++c)
      for (int v = 0; v < MV; ++v) f4_store(tile + c * MR + 4 * v, acc[c][v]);
  }
}
#endif

// MR x NR register tile (NR divides MR). SIMD selects the four-lane micro-kernel (wasm_simd128
// or SSE2).
template <int MR, int NR, bool SIMD>
void gram_blocked(float* G, int L, const float* Pb, int n) {
  static_assert(MR % NR == 0, "NR must divide MR");
  const int nb = (L + MR - 1) / MR;
  const std::size_t ld = static_cast<std::size_t>(L);
  std::vector<float> packed(static_cast<std::size_t>(nb) * MR * std::min(n, kKc));
  float tile[MR * NR];
  for (int t0 = 0; t0 < n; t0 += kKc) {
    const int kc = std::min(kKc, n - t0);
    float* Pk = packed.data();
    pack_rows<MR>(Pb, L, t0, kc, Pk);
    for (int j0 = 0; j0 < L; j0 += NR) {
      // B side: columns j0 .. j0+NR-1 live inside one packed row block (NR divides MR).
      const float* B = Pk + static_cast<std::size_t>(j0 / MR) * MR * kc + (j0 % MR);
      const int ncols = std::min(NR, L - j0);
      for (int b = j0 / MR; b < nb; ++b) {
        const int i0 = b * MR;
        const float* A = Pk + static_cast<std::size_t>(b) * MR * kc;
        float* g = G + static_cast<std::size_t>(j0) * ld + i0;
        const bool interior = i0 >= j0 + NR - 1 && i0 + MR <= L && ncols == NR;
#ifdef ATTNX_GRAM_VECTOR
        if (SIMD) {
          if (interior) {
            tile_simd<MR, NR>(A, B, kc, g, ld, nullptr);
            continue;
          }
          tile_simd<MR, NR>(A, B, kc, nullptr, 0, tile);
        } else
#endif
        {
          tile_scalar<MR, NR>(A, B, kc, tile);
          if (interior) {
            for (int c = 0; c < NR; ++c)
              for (int r = 0; r < MR; ++r) g[c * ld + r] += tile[c * MR + r];
            continue;
          }
        }
        // Diagonal or edge tile: only i >= j inside the matrix.
        const int rows = std::min(MR, L - i0);
        for (int c = 0; c < ncols; ++c)
          for (int r = std::max(0, j0 + c - i0); r < rows; ++r) g[c * ld + r] += tile[c * MR + r];
      }
    }
  }
}

}  // namespace

void gram_update_lower_kernel(float* G, int L, const float* Pb, int n) {
  if (L <= 0 || n <= 0) return;
#ifdef ATTNX_GRAM_VECTOR
  gram_blocked<8, 4, true>(G, L, Pb, n);  // 8 four-lane accumulators: ~37 GFLOP/s in V8 (Zen 4)
#else
  gram_blocked<4, 2, false>(G, L, Pb, n);  // 8 scalar accumulators: fastest scalar shape
#endif
}

void gram_update_lower_scalar(float* G, int L, const float* Pb, int n) {
  if (L <= 0 || n <= 0) return;
  gram_blocked<4, 2, false>(G, L, Pb, n);
}

void gram_update_lower(float* G, int L, const float* Pb, int n) {
#ifdef __EMSCRIPTEN__
  gram_update_lower_kernel(G, L, Pb, n);
#else
  gram_update_lower_eigen(G, L, Pb, n);
#endif
}

const char* gram_kernel_name() {
#ifdef __EMSCRIPTEN__
#ifdef __wasm_simd128__
  return "wasm-simd128";
#else
  return "scalar";
#endif
#else
  return "eigen";
#endif
}

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
