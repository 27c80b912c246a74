// attnx core: the projection kinds of the `jl` construction (SPEC §8.1).
//
// Every kind is described by its RAW columns (L x d, column-major, "unit-variance convention":
// the construction's P_s is a row scaling of them) and an optional per-d row normalisation:
//   gaussian         raw = i.i.d. N(0, 1)                      P_s = raw / sqrt(d)   (SPEC §3)
//   rademacher       raw = i.i.d. +-1                          P_s = raw / sqrt(d)
//   orthogonal       raw = sqrt(L) * (Gaussian columns orthonormalised by modified Gram-Schmidt
//                    in consecutive blocks of min(L, 256) columns)  P_s = raw / sqrt(d)
//                    (columns of P_s have norm sqrt(L/d))
//   gaussian-unit    raw as gaussian,   P_s row i = raw_i / ||raw_i||   (rows of norm 1 at each d)
//   orthogonal-unit  raw as orthogonal, P_s row i = raw_i / ||raw_i||
// Raw column c depends only on the seed, c and (orthogonal) the earlier columns of its block, so
// draws are nested in d; only the unit kinds' row norms change with d. With G = raw raw^T:
// Z = B G / d (non-unit kinds), Z = B D^-1/2 G D^-1/2 with D = diag(G) (unit kinds).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "rng.hpp"

namespace attnx {

enum class ProjectionKind { Gaussian, Rademacher, GaussianUnit, Orthogonal, OrthogonalUnit };

constexpr int kOrthogonalBlock = 256;  // largest block of orthonormalised columns

// "gaussian", "rademacher", "gaussian-unit", "orthogonal", "orthogonal-unit" (the option's choices).
const std::vector<std::string>& projection_names();
const char* projection_name(ProjectionKind kind);
// The kind called `name`; throws InvalidArgument("projection", "projection must be one of ...").
ProjectionKind parse_projection(const std::string& name);
// Whether P_s's rows are normalised to norm 1 at each d (the -unit kinds).
bool unit_rows(ProjectionKind kind);
// The kind without row normalisation: kinds with the same family draw the same raw columns
// (and so the same G = raw raw^T).
ProjectionKind column_family(ProjectionKind kind);
// Columns per orthonormalised block: min(L, kOrthogonalBlock).
int orthogonal_block(int L);

// Raw column c (L entries) of `kind`, drawn from its own generator seeded by column_seed (one word
// of the projection stream per column, see ProjectionStream). Orthogonal kinds read the block's
// earlier columns c0 .. c-1 (c0 = c - c % orthogonal_block(L)) from block_start (column-major,
// ld L, column c0 first; may be null for other kinds or when c == c0) and orthogonalise against
// them in double. out may be block_start + (c - c0) * L.
void draw_raw_column(ProjectionKind kind, std::uint64_t column_seed, int L, int c,
                     const float* block_start, float* out);

// Raw columns drawn in order from a projection seed (projection_seed(seed)), in pieces of any
// size: the values depend only on the column index (nested draws). Keeps the current orthogonal
// block (at most L x 256 floats).
class ProjectionStream {
 public:
  ProjectionStream(ProjectionKind kind, int L, std::uint64_t projection_seed);
  // Writes the next n raw columns to out (L x n, column-major).
  void next(int n, float* out);
  // Moves past the next n columns without writing them: the columns after are those next() would
  // have given. Draws only what an orthogonal block's later columns read (its earlier columns).
  void skip(int n);
  int drawn() const { return drawn_; }

 private:
  ProjectionKind kind_;
  int L_;
  Rng rng_;
  int drawn_ = 0;
  std::vector<float> block_;  // orthogonal kinds: the current block's columns drawn so far
};

// norms2[i] += sum over the n columns of cols (L x n, column-major) of cols[c][i]^2, in double,
// column by column (so row norms summed in pieces equal row norms summed at once).
void add_row_norms2(const float* cols, int L, int n, std::vector<double>& norms2);

// How P_s and the logits are read from the raw columns and G = raw raw^T of the first d columns.
// Non-unit kinds: row scale float(1/sqrt(d)) for P_s, logit coefficient float(B_e) * float(1/d)
// (SPEC §3's Z = B G / d, bit for bit as before the kinds existed). Unit kinds: inv_norm[i] =
// 1/sqrt(norms2[i]); P_s row i = raw_i * float(inv_norm[i]); z_ij = float(inv_norm[j]) *
// sum_e float(B_e inv_norm[col_e]) G[col_e, j].
struct ProjectionScale {
  bool unit = false;
  int d = 0;
  float inv_d = 0, inv_sqrt_d = 0;
  std::vector<double> inv_norm;  // unit kinds: L entries

  // Coefficient of G's row col in a logit row, for log-target value b.
  float coef(double b, int col) const {
    return unit ? static_cast<float>(b * inv_norm[static_cast<std::size_t>(col)])
                : static_cast<float>(b) * inv_d;
  }
  // Applies the column scaling to a logit row z (L entries): unit kinds only.
  void finish_row(float* z, int L) const;
  // Scale of raw row i in P_s.
  float row_scale(int i) const {
    return unit ? static_cast<float>(inv_norm[static_cast<std::size_t>(i)]) : inv_sqrt_d;
  }
};
// The scale at hidden size d; norms2 (the raw rows' squared norms over the first d columns, see
// add_row_norms2) is read only for unit kinds (may be empty otherwise).
ProjectionScale projection_scale(ProjectionKind kind, int d, const std::vector<double>& norms2);
// The scale of the first d raw columns P (L x d, column-major), norms summed here.
ProjectionScale projection_scale_of(ProjectionKind kind, const float* P, int L, int d);

}  // namespace attnx
