// attnx core (internal): the cache- and register-blocked driver shared by every hand-written Gram
// kernel (core/gram.cpp: scalar, SSE2, wasm_simd128; core/x86_kernels.cpp: AVX2, AVX-512). Only the
// micro-kernel (one MR x NR tile) differs between them. Not installed.
//
// P's columns are processed in chunks of kKc; each chunk is packed into row blocks of MR rows,
// Pk[b][t][r] = Pb(b*MR + r, t0 + t) (zero-padded), so the micro-kernel streams both operands
// contiguously (no 4 KiB-stride aliasing across t). The lower triangle is swept in column blocks of
// NR columns, one panel of about kPanelRows rows at a time (the panel stays in cache); within a
// column block, MR x NR tiles go down the panel's rows. A tile accumulates
// acc(r, c) = sum_t Pk(i, t) Pk(j, t) in registers over the whole chunk (t ascending, from 0), then
// adds it to G once. Tiles that cross the diagonal or the edge go through a small buffer and only
// write i >= j, i < L, j < L: the upper triangle is never touched.
//
// The summation order of an element of G depends on kKc only, not on MR, NR or the vector width:
// acc = 0; acc = acc + a_t * b_t for t ascending in the chunk; G = G + acc; chunk by chunk. With
// separate multiply and add (no FMA; -ffp-contract=off) every micro-kernel that keeps this order
// gives the same bits, whatever its tile shape.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include <attnx/float_buffer.hpp>
#include <attnx/gram.hpp>

namespace attnx::gram_detail {

constexpr int kKc = 256;  // columns of P per packed chunk (step <= 256 is a single chunk)
constexpr int kPanelRows = 256;  // rows of a packed panel (256 x kKc floats: 256 KiB, in L2)

// Packs columns t0 .. t0+kc-1 of Pb (L x n, column-major) into row blocks b0 .. of MR rows (see
// above; the blocks before b0 are not read).
template <int MR>
void pack_rows(const float* Pb, int L, int t0, int kc, float* Pk, int b0) {
  const int nb = (L + MR - 1) / MR;
  const std::size_t l = static_cast<std::size_t>(L);
  for (int b = b0; b < nb; ++b) {
    float* dst = Pk + static_cast<std::size_t>(b) * MR * kc;
    const int i0 = b * MR, rows = std::min(MR, L - i0);
    if (rows == MR) {  // a whole block: MR is a constant, so the copy is inline (not memcpy)
      for (int t = 0; t < kc; ++t) {
        const float* src = Pb + static_cast<std::size_t>(t0 + t) * l + i0;
        for (int r = 0; r < MR; ++r) dst[t * MR + r] = src[r];
      }
      continue;
    }
    for (int t = 0; t < kc; ++t) {
      const float* src = Pb + static_cast<std::size_t>(t0 + t) * l + i0;
      float* d = dst + t * MR;
      int r = 0;
      for (; r < rows; ++r) d[r] = src[r];
      for (; r < MR; ++r) d[r] = 0.0f;
    }
  }
}

// Adds the MR x NR tile (tile[c * MR + r]) to G (column-major, ld ldg) where i >= j inside the
// matrix: rows i0 + r < L, columns j0 + c < j0 + ncols, i0 + r >= j0 + c.
template <int MR>
void add_tile_lower(const float* tile, float* g, std::size_t ldg, int i0, int j0, int L,
                    int ncols) {
  const int rows = std::min(MR, L - i0);
  for (int c = 0; c < ncols; ++c)
    for (int r = std::max(0, j0 + c - i0); r < rows; ++r) g[c * ldg + r] += tile[c * MR + r];
}

// Asks the cache for the first `rows` rows of the ncols (<= NR) columns of G at g (column-major, ld ldg),
// which the next tile adds to: G is too large to stay in cache and its columns are far apart, so
// the hardware prefetcher does not guess them (about 8 % faster at L >= 1024 with AVX-512).
template <int NR>
inline void prefetch_columns(const float* g, std::size_t ldg, int rows, int ncols) {
  for (int c = 0; c < ncols; ++c)
    for (int r = 0; r < rows; r += 16) __builtin_prefetch(g + c * ldg + r, 1);
}

// G += Pb Pb^T on the lower triangle's columns c0 .. c1-1 (contract of gram_update_lower_band;
// c0 = 0, c1 = L is gram_update_lower). Gc points at column c0 of G (column-major, ld L): only
// G(i, j) with c0 <= j < c1, i >= j is written, so Gc may be a band of c1 - c0 columns. Tile is
// the micro-kernel: Tile(A, B, kc, g, ldg, buf) sums acc(r, c) = sum_t A[t*MR + r] * B[t*MR + c]
// over t = 0 .. kc-1 in order (separate multiply and add), then adds acc to g (column-major, ld
// ldg) when g is not null, else stores it to buf[c * MR + r] (buf is never null). NR divides MR
// (the B side of a column block lies inside one packed row block) and kGramBandAlign (a band's
// first column starts a column block). Cost: about (c1 - c0)(L - (c0 + c1) / 2) n multiply-adds
// (plus the diagonal tiles' upper halves), memory L x min(n, kKc) floats (rows padded to MR).
template <int MR, int NR, auto Tile>
void gram_blocked(float* Gc, int L, const float* Pb, int n, int c0, int c1) {
  static_assert(MR % NR == 0, "NR must divide MR");
  static_assert(kGramBandAlign % NR == 0, "NR must divide the band alignment");
  constexpr int kPanel = kPanelRows / MR > 0 ? kPanelRows / MR : 1;  // row blocks per panel
  const int nb = (L + MR - 1) / MR;
  const std::size_t ld = static_cast<std::size_t>(L);
  FloatBuffer packed(static_cast<std::size_t>(nb) * MR * std::min(n, kKc));  // pack_rows writes it
  float buf[MR * NR];
  const int b0 = (c0 / MR / kPanel) * kPanel;  // the first row block read: rows above c0 are not
  for (int t0 = 0; t0 < n; t0 += kKc) {
    const int kc = std::min(kKc, n - t0);
    const float* Pk = packed.data();
    pack_rows<MR>(Pb, L, t0, kc, packed.data(), b0);
    // A panel of row blocks stays in cache while every column block up to its last row visits it.
    for (int p0 = b0; p0 < nb; p0 += kPanel) {
      const int p1 = std::min(nb, p0 + kPanel);
      for (int j0 = c0; j0 < std::min(c1, p1 * MR); j0 += NR) {
        // B side: columns j0 .. j0+NR-1 live inside one packed row block (NR divides MR).
        const float* B = Pk + static_cast<std::size_t>(j0 / MR) * MR * kc + (j0 % MR);
        const int ncols = std::min(NR, c1 - j0);
        for (int b = std::max(p0, j0 / MR); b < p1; ++b) {
          const int i0 = b * MR;
          const float* A = Pk + static_cast<std::size_t>(b) * MR * kc;
          float* g = Gc + static_cast<std::size_t>(j0 - c0) * ld + i0;
          if (b + 1 < p1) prefetch_columns<NR>(g + MR, ld, std::min(MR, L - i0 - MR), ncols);
          if (i0 >= j0 + NR - 1 && i0 + MR <= L && ncols == NR) {
            Tile(A, B, kc, g, ld, buf);  // interior: straight into G (buf unused)
          } else {
            Tile(A, B, kc, nullptr, 0, buf);  // diagonal or edge: only i >= j inside the band
            add_tile_lower<MR>(buf, g, ld, i0, j0, L, ncols);
          }
        }
      }
    }
  }
}

// The scalar micro-kernel (the reference order for every other one).
template <int MR, int NR>
void tile_scalar(const float* A, const float* B, int kc, float* G, std::size_t ldg, float* buf) {
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
    for (int r = 0; r < MR; ++r) {
      if (G) G[c * ldg + r] += acc[c][r];
      else buf[c * MR + r] = acc[c][r];
    }
}

}  // namespace attnx::gram_detail
