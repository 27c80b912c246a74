// attnx core: the lower bounds of SPEC §9 (how far a built X is from what is provably needed):
// the packing floor at a logit scale (§9.2) and the counting floors in bits (§9.3), with the
// quantities of a built X they are read at (its logit scale, its distinct column supports, the
// bits per number it uses). Every value here is a theorem's bound, never a fit.
//
// Two bounds go beyond SPEC §9 and are proved where they are computed (core/bounds.cpp):
//   * d_logit: the packing argument of §9.2 run in the norm the queries induce,
//     ||v|| = max_i |Q_i . v| / sqrt(D), gives D >= ln n / ln(1 + 2 max|Z_ij| / Delta); since
//     max|Z_ij| <= Lambda (Cauchy-Schwarz) it is never below d_lambda.
//   * bits_free_keys_regular: counting all k-regular patterns (Van der Waerden's and Bregman's
//     permanent bounds) instead of the L! row permutations of one circulant; 1.9 to 2 times
//     bits_free_keys for k = 2 and L from 64 to 16384 (never below it).
#pragma once
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "pattern.hpp"
#include "projection.hpp"

namespace attnx {

// The option logitScale's default (attnx bounds --scale; SPEC §9.2's example, about jl's scale at
// the paper's tolerances). The CLI computes the packing floor only when --scale is given.
constexpr double kDefaultLogitScale = 5;

// One published bound or quantity: its key (the CLI's JSON key and the sweep files' column), its
// symbol ("" when it has none), a short label and one sentence saying what it means (for the
// schema document, --help and the pages), as metrics_info.hpp does for the metrics.
struct BoundInfo {
  std::string key, symbol, label, help;
};
// Every key of Bounds and of a sweep point's bounds, in the order outputs write them.
const std::vector<BoundInfo>& bound_infos();
// The entry called `key`; throws std::logic_error for a key not in the table (a bug).
const BoundInfo& bound_info(const std::string& key);

// SPEC §9 for one built X (hidden size D) and its target A. NaN / -1 / 0 mark what is unknown.
struct Bounds {
  double logit_scale = -1;    // Lambda(X) = max_i ||Q_i|| max_j ||K_j|| / sqrt(D); -1: unknown
  double max_abs_logit = -1;  // max_ij |Z_ij| of the logits X is judged by (<= Lambda); -1: unknown
  int column_supports = 0;    // n: distinct column supports of A (0: unknown)
  double d_lambda = std::numeric_limits<double>::quiet_NaN();  // ln n / ln(1 + 2 Lambda / Delta)
  double ratio = std::numeric_limits<double>::quiet_NaN();     // D / d_lambda (NaN: floor 0 or inf)
  double d_logit = std::numeric_limits<double>::quiet_NaN();   // the same at max|Z|: >= d_lambda
  double ratio_logit = std::numeric_limits<double>::quiet_NaN();
  int bits_per_number = 0;    // w = bits(X) + 1 + exponent bits; 0: not computed or not reached
  double bits_fixed_keys = 0, bits_free_keys = 0, bits_free_keys_regular = 0;  // §9.3 floors of D w
};

// n of SPEC §9.2: how many different sets {i : j in S_i} the L columns of A have (a column no row
// holds counts as the empty set). Expected O(L + nnz) time (hashing, then exact comparison), O(L
// + nnz) memory.
int distinct_column_supports(const Pattern& A);

// D_Lambda = ln n / ln(1 + 2 scale / Delta) with Delta = ln(1/tau) (SPEC §9.2): 0 when n = 1 (no
// floor), +inf when scale = 0 and n > 1 (no X of scale 0 succeeds), 0 for an infinite scale. The
// logarithm of 1 + x keeps its relative accuracy for tiny x. Requires n >= 1, scale >= 0 (or NaN:
// NaN), tau in (0, 1).
double packing_floor(double scale, int n, double tau);

// D / floor: how many times a floor a hidden size D is; NaN when the floor is 0 (no floor) or
// infinite (no X succeeds) or NaN.
double times_floor(double D, double floor);

// log2 of L! and of the binomial coefficient C(L, k), summed from the core's det_log (the same
// bits natively and in WebAssembly): O(L) and O(min(k, L - k)). L >= 0, 0 <= k <= L.
double log2_factorial(int L);
double log2_binomial(int L, int k);

// The counting floors of SPEC §9.3 on D w, for a construction that handles every k-regular
// pattern of length L (SPEC §7's random family), 1 <= k <= L (InvalidArgument naming "k"):
//   fixed keys (jl, lp):  log2 C(L, k);
//   free keys (any X):    log2(L!) / (2L) for k < L, and 0 for k = L (one pattern: all ones);
//   free keys, counting every k-regular pattern: log2 N / (2L) with N the lower bound
//     prod_{j=1..k} L! ((L-j+1)/L)^L / prod_{r=1..k} (r!)^(L/r) of their number, or the former
//     when that is larger (k near L).
// O(L) each.
double bits_fixed_keys(int L, int k);
double bits_free_keys(int L, int k);
double bits_free_keys_regular(int L, int k);

// Lambda of inputs X = [Q, K] (L x 2D row-major float32): max_i ||Q_i|| max_j ||K_j|| / sqrt(D),
// norms summed in double in column order. O(L D), no allocation.
double input_scale(const float* X, int L, int D);
// Lambda of the jl inputs X = [sqrt(d) B P_s, P_s] rounded to float32 exactly as construct()
// builds them (construct.hpp), from the raw columns of P given in pieces: next(n, buf) gives the
// next n raw columns (L x n, column-major), either written to buf (room for `buf_cols` columns)
// and buf returned, or where they already are. Equal, bit for bit, to input_scale of
// construct()'s X. O(L d + nnz d) time, O(L) memory besides buf.
double jl_input_scale(const Pattern& A, const std::vector<double>& B, int d, const ProjectionScale& scale,
                      const std::function<const float*(int n, float* buf)>& next, float* buf, int buf_cols);
// max |Z_i| over n logits (NaN when one is NaN, inf when one is infinite). O(n).
double max_abs(const float* Z, std::size_t n);
double max_abs(const double* Z, std::size_t n);

// ceil(log2(e_max - e_min + 1)) over the binary exponents (frexp) of the nonzero finite entries of
// X rounded to `bits` significand bits (inputs.hpp round_to_bits); 0 when there are none. O(size).
int exponent_bits(const std::vector<double>& X, int bits);
// w of SPEC §9.3: bits + 1 (sign) + exponent_bits, or 0 when bits is 0 (not reached).
int bits_per_number(int bits, int exponent_bits);

// The Bounds of an X of hidden size D for target A at tolerance tau: logit_scale and
// max_abs_logit as given (-1: unknown), n, both packing floors and ratios, the §9.3 floors at
// (L, k = A.k), w = bits_per_number as given. O(L + nnz).
Bounds bounds_of(const Pattern& A, double tau, int D, double logit_scale, double max_abs_logit,
                 int bits_per_number = 0);

// The bounds of one X by key, in bound_infos() order (the per-trial keys of a sweep left out):
// ints as doubles, NaN for what is unknown (bindings and outputs write it as null).
std::vector<std::pair<std::string, double>> bound_values(const Bounds& b);

// The floors `attnx bounds` prints at one length: SPEC §9.3's at (L, k) and, when a logit scale is
// given, the packing floor of §9.2 at it for a target whose L columns all have different supports
// (n = L, as almost every random k-regular target; n = 1 when k = L). Validates L, k <= L, tau and the scale
// (InvalidArgument naming "L", "k", "tau", "logitScale"). moment_d: D = 2k of SPEC 8.3, the hidden
// size the moment curve succeeds with at every L in exact arithmetic (no floor without a limit,
// SPEC 9.1). O(L).
struct FloorsAtL {
  int L = 0, k = 0, moment_d = 0;
  double bits_fixed_keys = 0, bits_free_keys = 0, bits_free_keys_regular = 0;
  bool has_scale = false;  // d_lambda and column_supports are set only then
  int column_supports = 0;
  double d_lambda = 0;
};
FloorsAtL floors_at(int L, int k, double tau, bool has_scale = false, double scale = 0);

// The median of the values >= 0 (the trials that reached; -1 marks the others); -1 when none.
double median_reached(std::vector<double> values);

}  // namespace attnx
