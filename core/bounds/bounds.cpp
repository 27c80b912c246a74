// attnx core: the floors of SPEC §9 and their proofs (see bounds.hpp); the quantities of a built
// X that they are read at are in bounds_inputs.cpp.
#include <attnx/bounds.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <unordered_map>

#include <attnx/construct_moment.hpp>
#include <attnx/detmath.hpp>
#include <attnx/errors.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

constexpr double kLn2 = 0.69314718055994530942;

// ln(1 + x) for x >= 0 with its relative accuracy kept for tiny x (Goldberg: the rounding error
// of u = 1 + x cancels in ln(u) x / (u - 1)).
double log1p_det(double x) {
  const double u = 1.0 + x;
  if (u == 1.0) return x;
  if (std::isinf(u)) return u;
  return det_log(u) * (x / (u - 1.0));
}

void require_L_k(int L, int k) {
  require_int("L", L, 1, kMaxL);
  require_int("k", k, 1, L);
}

}  // namespace

const std::vector<BoundInfo>& bound_infos() {
  static const std::vector<BoundInfo> v = {
      {"logit_scale", "Λ", "logit scale",
       "Λ = max‖Q_i‖·max‖K_j‖/√D of the float32 X the construction reports: no logit can exceed it "
       "(SPEC 9.2)."},
      {"column_supports", "n", "distinct column supports",
       "How many columns of A have different sets of rows {i : j ∈ S_i}; their keys must all be told "
       "apart."},
      {"d_lambda", "D_Λ", "floor at this logit scale",
       "D_Λ = ln n / ln(1 + 2Λ/Δ), Δ = ln(1/τ): no X of logit scale at most Λ succeeds with fewer "
       "dimensions (a proof, SPEC 9.2)."},
      {"ratio", "D/D_Λ", "times the floor",
       "How many times the floor at its own logit scale this X uses (null when the floor is 0 or "
       "infinite)."},
      {"max_abs_logit", "max|Z|", "largest |logit|",
       "The largest |Z_ij|, at most Λ: the packing proof also holds in the norm max_i |Q_i·v|/√D, "
       "with this in place of Λ."},
      {"d_logit", "D_Z", "floor at the largest |logit|",
       "ln n / ln(1 + 2·max|Z|/Δ), never below D_Λ: no X whose logits stay within ±max|Z| succeeds "
       "with fewer dimensions (a proof)."},
      {"ratio_logit", "D/D_Z", "times the floor at the largest |logit|",
       "D / D_Z (null when that floor is 0 or infinite)."},
      {"bits_per_number", "w", "bits per input number",
       "w = bits(X) (significand, SPEC 8.4) + 1 sign bit + the exponent bits X uses; null when "
       "bits(X) was not computed or not reached."},
      {"bits_fixed_keys", "", "bits floor, fixed keys",
       "Keys fixed before the target (jl, lp) need D·w ≥ log2 C(L,k): a row's query alone picks any "
       "of the C(L,k) supports (SPEC 9.3)."},
      {"bits_free_keys", "", "bits floor, free keys",
       "Keys chosen with the target (any X) need D·w ≥ log2(L!)/(2L): the 2DL numbers of X differ "
       "for L! targets (SPEC 9.3; 0 when k = L)."},
      {"bits_free_keys_regular", "", "bits floor, free keys, every k-regular target",
       "D·w ≥ log2(N)/(2L), N the number of k-regular targets bounded below by Van der Waerden's "
       "and Brègman's theorems: never below the L! floor, about twice it for k = 2."},
      {"logit_scales", "", "logit scale of each trial", "Λ of each trial's X at its d_min (null: not reached)."},
      {"max_abs_logits", "", "largest |logit| of each trial",
       "max|Z| of each trial's X at its d_min (null: not reached)."},
  };
  return v;
}

const BoundInfo& bound_info(const std::string& key) {
  for (const BoundInfo& b : bound_infos())
    if (b.key == key) return b;
  throw std::logic_error("attnx: no bound named " + key);
}

int distinct_column_supports(const Pattern& A) {
  // Columns' row lists (ascending, as rows are visited in order), then a hash of each list; lists
  // with equal hashes are compared exactly, so a collision never merges two supports.
  const std::size_t l = static_cast<std::size_t>(A.L);
  std::vector<int> start(l + 1, 0), rows(A.col.size());
  for (int j : A.col) ++start[static_cast<std::size_t>(j) + 1];
  for (std::size_t j = 0; j < l; ++j) start[j + 1] += start[j];
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (int i = 0; i < A.L; ++i)
    for (int e = A.row_begin(i); e < A.row_end(i); ++e) rows[static_cast<std::size_t>(fill[A.col[e]]++)] = i;
  auto same = [&](std::size_t a, std::size_t b) {
    return start[a + 1] - start[a] == start[b + 1] - start[b] &&
           std::equal(rows.begin() + start[a], rows.begin() + start[a + 1], rows.begin() + start[b]);
  };
  std::unordered_map<std::uint64_t, std::vector<std::size_t>> seen;
  seen.reserve(l);
  int n = 0;
  for (std::size_t j = 0; j < l; ++j) {
    std::uint64_t h = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(start[j + 1] - start[j] + 1);
    for (int p = start[j]; p < start[j + 1]; ++p) {
      h ^= static_cast<std::uint64_t>(rows[static_cast<std::size_t>(p)]) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
      h *= 0xBF58476D1CE4E5B9ull;
    }
    std::vector<std::size_t>& reps = seen[h];
    if (std::none_of(reps.begin(), reps.end(), [&](std::size_t r) { return same(r, j); })) {
      reps.push_back(j);
      ++n;
    }
  }
  return n;
}

// Proof (SPEC §9.2): if columns j, j' have different supports, some row i holds one of them and
// not the other, and success forces |Z_ij - Z_ij'| >= Delta there. With ||v|| any norm for which
// |Z_ij - Z_ij'| <= ||K_j - K_j'|| and every key within `scale` of 0, the n keys of distinct
// supports are >= Delta apart, so balls of radius Delta/2 around them are disjoint and lie in the
// ball of radius scale + Delta/2: n (Delta/2)^D <= (scale + Delta/2)^D, i.e. n <= (1 + 2 scale /
// Delta)^D. The Euclidean norm scaled by max||Q||/sqrt(D) gives scale = Lambda; the norm
// max_i |Q_i . v| / sqrt(D) (a norm on the span of the queries, of dimension <= D, to which the
// keys may be projected without changing any logit) gives scale = max_ij |Z_ij|.
double packing_floor(double scale, int n, double tau) {
  if (n < 1) throw std::logic_error("attnx: packing_floor needs n >= 1");
  if (n == 1) return 0;
  if (std::isnan(scale)) return scale;
  const double delta = -det_log(tau);  // ln(1/tau) > 0
  // 2 scale / delta may overflow for a finite scale near the largest double: ln(1 + x) is ln x there.
  const double x = 2.0 * scale / delta;
  const double denom = std::isinf(x) && std::isfinite(scale) ? kLn2 + det_log(scale) - det_log(delta) : log1p_det(x);
  if (!(denom > 0)) return std::numeric_limits<double>::infinity();
  return det_log(double(n)) / denom;
}

double times_floor(double D, double floor) {
  return floor > 0 && std::isfinite(floor) ? D / floor : std::numeric_limits<double>::quiet_NaN();
}

double log2_factorial(int L) {
  double s = 0;
  for (int i = 2; i <= L; ++i) s += det_log(double(i));
  return s / kLn2;
}

double log2_binomial(int L, int k) {
  const int m = std::min(k, L - k);
  double s = 0;  // sum of ln((L - m + i) / i), each term >= 0
  for (int i = 1; i <= m; ++i) s += det_log(double(L - m + i) / double(i));
  return s / kLn2;
}

// Proof: keys fixed before the target leave row i's query q_i to decide its support alone (two
// supports of the same size with the same logits would each need the other's column Delta
// higher). In the k-regular family every k-subset of the L columns is some target's row i
// support, so the queries take >= C(L, k) values, and D numbers of w bits take at most 2^(D w).
double bits_fixed_keys(int L, int k) {
  require_L_k(L, k);
  return log2_binomial(L, k);
}

// Proof: one X succeeds for at most one support pattern (as above), and the L! row permutations
// of a circulant k-regular pattern are distinct k-regular patterns when k < L; the 2 D L numbers
// of X take at most 2^(2 D L w) values. For k = L the family has one pattern: no floor.
double bits_free_keys(int L, int k) {
  require_L_k(L, k);
  return k < L ? log2_factorial(L) / (2.0 * L) : 0.0;
}

// Proof: count ordered k-tuples of permutation matrices with disjoint supports (their union is
// k-regular, and every k-regular pattern is one, by Konig). Given the first j - 1, the j-th lies
// in an (L - j + 1)-regular 0/1 matrix, whose permanent is >= (L - j + 1)^L L! / L^L (Van der
// Waerden, Egorychev-Falikman). One k-regular pattern arises from at most prod_{r=1..k}
// (r!)^(L/r) tuples: the j-th permutation lies in a (k - j + 1)-regular matrix, whose permanent is
// <= ((k - j + 1)!)^(L/(k - j + 1)) (Bregman). Hence N >= prod_j L! ((L-j+1)/L)^L / prod_r
// (r!)^(L/r), and 2 D L w >= log2 N as for bits_free_keys. k = 1 gives exactly log2(L!) / (2L);
// for k near L this count is below the L! of bits_free_keys, whose floor is then taken.
double bits_free_keys_regular(int L, int k) {
  require_L_k(L, k);
  const double lf = log2_factorial(L);
  double s = 0, log2_rfact = 0;
  for (int j = 1; j <= k; ++j) {
    s += lf + double(L) * det_log(double(L - j + 1) / double(L)) / kLn2;
    log2_rfact += det_log(double(j)) / kLn2;  // log2(j!)
    s -= double(L) / double(j) * log2_rfact;
  }
  return std::max(s / (2.0 * L), bits_free_keys(L, k));  // both count patterns of the family
}

Bounds bounds_of(const Pattern& A, double tau, int D, double logit_scale, double max_abs_logit,
                 int bits_per_number) {
  Bounds b;
  b.logit_scale = logit_scale;
  b.max_abs_logit = max_abs_logit;
  b.column_supports = distinct_column_supports(A);
  if (logit_scale >= 0) {
    b.d_lambda = packing_floor(logit_scale, b.column_supports, tau);
    b.ratio = times_floor(D, b.d_lambda);
  }
  if (max_abs_logit >= 0) {
    b.d_logit = packing_floor(max_abs_logit, b.column_supports, tau);
    b.ratio_logit = times_floor(D, b.d_logit);
  }
  b.bits_per_number = bits_per_number;
  const int k = std::max(1, A.k);
  b.bits_fixed_keys = bits_fixed_keys(A.L, k);
  b.bits_free_keys = bits_free_keys(A.L, k);
  b.bits_free_keys_regular = bits_free_keys_regular(A.L, k);
  return b;
}

std::vector<std::pair<std::string, double>> bound_values(const Bounds& b) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto known = [nan](double v, bool ok) { return ok ? v : nan; };
  return {
      {"logit_scale", known(b.logit_scale, b.logit_scale >= 0)},
      {"column_supports", known(b.column_supports, b.column_supports > 0)},
      {"d_lambda", b.d_lambda},
      {"ratio", b.ratio},
      {"max_abs_logit", known(b.max_abs_logit, b.max_abs_logit >= 0)},
      {"d_logit", b.d_logit},
      {"ratio_logit", b.ratio_logit},
      {"bits_per_number", known(b.bits_per_number, b.bits_per_number > 0)},
      {"bits_fixed_keys", b.bits_fixed_keys},
      {"bits_free_keys", b.bits_free_keys},
      {"bits_free_keys_regular", b.bits_free_keys_regular},
  };
}

FloorsAtL floors_at(int L, int k, double tau, bool has_scale, double scale) {
  require_option("L", L);
  require_option_upto("k", k, L);
  require_option("tau", tau);
  FloorsAtL f;
  f.L = L;
  f.k = k;
  f.moment_d = moment_dimension(k);
  f.bits_fixed_keys = bits_fixed_keys(L, k);
  f.bits_free_keys = bits_free_keys(L, k);
  f.bits_free_keys_regular = bits_free_keys_regular(L, k);
  if (has_scale) {
    require_option("logitScale", scale);
    f.has_scale = true;
    f.column_supports = k < L ? L : 1;  // k = L: the one target is all ones, every column alike
    f.d_lambda = packing_floor(scale, f.column_supports, tau);
  }
  return f;
}

double median_reached(std::vector<double> v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return !(x >= 0); }), v.end());
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return 0.5 * (v[(n - 1) / 2] + v[n / 2]);
}

}  // namespace attnx
