// attnx core: the criterion and metrics of SPEC §2 (core/attention/criterion.cpp) and the pieces
// of the jl construction of SPEC §3 (core/constructions/jl.cpp; its builds: construction.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "bounds.hpp"
#include "float_buffer.hpp"
#include "pattern.hpp"
#include "projection.hpp"

namespace attnx {

constexpr int kMaxD = 16384;
constexpr int kDefaultD = 512;          // construct's hidden size when none is given
constexpr double kMaxEps = 100;          // (R) tolerance: ratios within e^100 are no constraint
constexpr double kMinEps = 1e-6;         // below float32 logit resolution; keeps d* (1/eps^2) finite
constexpr std::uint64_t kDefaultSeed = 1;

struct Tolerances {
  double eps = 1.0;   // (R) bound on log-ratio error, > 0
  double tau = 0.1;   // (Z) bound on zero ratio, in (0, 1)
  double delta = 0.1; // failure probability used by d* and the sweep quantile, in (0, 1)
};
// Throws InvalidArgument naming eps / tau / delta.
void validate(const Tolerances& tol);

struct Metrics {
  double rho = 0;      // ratio error (SPEC §2)
  double zeta = 0;     // zero ratio
  double lambda = 0;   // leaked mass
  bool success = false;  // every row passes (R) and (Z)
  bool ok_r = false;     // every row passes (R): rho_i <= eps
  bool ok_z = false;     // every row passes (Z): zeta_i <= tau
  double beta = 0;     // max_i ||B_i||_2
  double d_star = 0;   // 16 beta^2 ln(2 L^2 / delta) / eps^2 (SPEC §3.5)
};

// Log-target B values, aligned with A's CSR (same row_ptr/col): B_ij = ln(A_ij/a_i) + ln(1/tau) + eps.
std::vector<double> log_target(const Pattern& A, const Tolerances& tol);
double beta_of(const Pattern& A, const std::vector<double>& B);
double d_star(double beta, int L, const Tolerances& tol);

// Progress callback: fraction done in [0, 1]. min_d, the sweep and construct() (during its Gram
// phase, see GramLadder) stop early when it returns false.
using Progress = std::function<bool(double)>;

// The criterion of SPEC §2 row by row (every vector has L entries; ratio_err_* have one entry per
// nonzero of A, in A's CSR order). rho[i] = max - min over S_i of (Z_ij - ln A_ij);
// zeta[i] = exp(max_{j not in S_i} Z_ij - min_{j in S_i} Z_ij) (0 for a full row);
// lambda[i] = sum_{j not in S_i} M_ij (0 when M is not given); ok_r[i] = rho[i] <= eps,
// ok_z[i] = zeta[i] <= tau (false for NaN); support_min_logit[i] = min_{j in S_i} Z_ij;
// ratio_err_mean / ratio_err_min: Z_ij - ln A_ij minus its row mean / row minimum.
struct RowReport {
  std::vector<double> rho, zeta, lambda;
  std::vector<unsigned char> ok_r, ok_z;
  std::vector<float> support_min_logit;
  std::vector<float> ratio_err_mean, ratio_err_min;
};

// Result of construct(). Dense matrices are row-major float32.
struct Construction {
  int L = 0, d = 0;
  std::vector<double> B;     // aligned with A.col
  std::vector<float> X;      // L x 2d: [sqrt(d) B P, P]
  FloatBuffer logits;        // L x L: Z = (X W_Q)(X W_K)^T / sqrt(d) (resize leaves it unset:
  FloatBuffer M;             // L x L: stable row softmax of Z    at L = 4096 each is 64 MiB)
  Metrics metrics;
  RowReport rows;
  ProjectionKind projection = ProjectionKind::Gaussian;  // jl: the kind of P (SPEC 8.1)
  Bounds bounds;             // SPEC §9 at this X (bits_per_number: set by build_inputs with §8.4)
  bool cancelled = false;    // progress returned false before the logits: only L, d, B are set
};

class GramLadder;

constexpr double kConstructGramShare = 0.85;  // construct's progress at the end of the Gram sum
// construct() and construct_ahead(), jl's builds, take a checked request: construction.hpp.

// construct_ahead's time in the Gram kernel's multiply-adds (measured in the page), for the band
// edges: the worker that makes it sums that much less of G (gram_band_edges). >= 0.
double construct_ahead_macs(int L, int k, int d);
// What the logit scale of construct's X depends on besides the projection's columns: L, d, the
// kind, the projection stream's seed (projection_seed), A's nonzeros and a 128-bit fingerprint
// of A's rows and columns and B's bits (seven words whatever the pattern's size).
std::vector<std::uint64_t> jl_scale_key(const Pattern& A, const std::vector<double>& B, int d, std::uint64_t seed,
                                        ProjectionKind projection);
// The logit scale of construct's X (jl_input_scale) from the raw columns P (L x d, column-major)
// read in place, with `scale` = projection_scale_of(kind, P, L, d).
double jl_scale_from_columns(const Pattern& A, const std::vector<double>& B, int d, const float* P,
                             const ProjectionScale& scale);

// P_s = P / sqrt(d) row by row: L x d row-major from P (L x d column-major, unit variance).
std::vector<float> scaled_projection_rows(const float* P, int L, int d);
// P_s row i = P row i times scale.row_scale(i) (projection.hpp): L x d row-major from the raw
// columns P (L x d column-major).
std::vector<float> scaled_projection_rows(const float* P, int L, int d, const ProjectionScale& scale);
// construct()'s X in double, before its rounding to float32: [sqrt(d) B P_s (summed in double),
// P_s] (L x 2d, row-major), for the precision report (inputs.hpp).
std::vector<double> jl_inputs(const Pattern& A, const std::vector<double>& B, std::uint64_t seed, int d,
                              ProjectionKind projection = ProjectionKind::Gaussian);
// Row i of X's left half, sqrt(d) sum_e B_e P_s[col_e, :] (summed in double in A's entry order),
// into out (d floats); acc is scratch. Ps: from scaled_projection_rows.
void input_left_row(const Pattern& A, const std::vector<double>& B, const float* Ps, int d, int i,
                    std::vector<double>& acc, float* out);

// Z (row-major L x L) = B G / d for any projection kind: z_i = finish_row(sum over A's row i of
// scale.coef(B_e, col_e) * G[col_e, :]) (projection.hpp; gaussian: float(B_e) * float(1/d), summed
// in A's entry order in float). G: full symmetric raw Gram.
void logits_from_gram(const Pattern& A, const std::vector<double>& B, const float* G,
                      const ProjectionScale& scale, float* Z);
// Row i of that Z into z (A.L floats), computed the same way; G may be read in full because it
// is symmetric (column col_e is row col_e).
void logits_row_from_gram(const Pattern& A, const std::vector<double>& B, const float* G, int i,
                          const ProjectionScale& scale, float* z);

// Unit-variance Gaussian projection entries (L x ncols, column-major). Each column has its own
// generator seeded by one word of `rng`, so drawing columns in pieces gives the same values as
// drawing them at once (nested columns, SPEC §4). P_scaled = P / sqrt(d). Other kinds:
// ProjectionStream (projection.hpp), whose gaussian columns are these.
void draw_projection_columns(Rng& rng, int L, int ncols, float* out_colmajor);

// The per-row criterion from row-major logits Z (L x L) and the attention M (may be null).
RowReport evaluate_rows(const Pattern& A, const float* Z, const float* M, const Tolerances& tol);
// The same criterion on double logits (M may be null: lambda is then 0), for the precision report.
RowReport evaluate_rows(const Pattern& A, const double* Z, const double* M, const Tolerances& tol);
// The metrics of SPEC §2: maxima of a RowReport; success when every row passes (R) and (Z).
Metrics summarise(const Pattern& A, const std::vector<double>& B, const RowReport& rows,
                  const Tolerances& tol);
// Metrics from row-major logits Z (L x L) and the attention M (may be null: lambda left 0).
Metrics evaluate(const Pattern& A, const std::vector<double>& B, const float* Z, const float* M,
                 const Tolerances& tol);

// Stable row softmax of a row-major L x L matrix: M_ij = e^(Z_ij - max_j Z_ij) (expf.hpp's expf,
// the WebAssembly build's std::exp, on every build) times float(1 / the row's sum in double, j
// ascending).
void softmax_rows(const float* Z, float* M, int L);

// Seed of the pattern stream for a given seed (construct and sweep trials use it).
std::uint64_t pattern_seed(std::uint64_t seed);
std::uint64_t projection_seed(std::uint64_t seed);

}  // namespace attnx
