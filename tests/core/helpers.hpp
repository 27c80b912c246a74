// Shared helpers of the attnx core tests: independent float64 re-implementations of the SPEC
// formulas (they use std::log/std::exp and Eigen in double, never the code under test), pattern
// invariant checks and small builders.
#pragma once
#include <doctest/doctest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/errors.hpp>
#include <attnx/json.hpp>
#include <attnx/pattern.hpp>
#include <attnx/rng.hpp>

namespace th {

using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Dense copy of a pattern's weights.
inline MatD dense_of(const attnx::Pattern& A) {
  MatD D = MatD::Zero(A.L, A.L);
  for (int i = 0; i < A.L; ++i)
    for (int p = A.row_begin(i); p < A.row_end(i); ++p) D(i, A.col[p]) = A.val[p];
  return D;
}

// B of SPEC §3.1 computed here with std::log: B_ij = ln(A_ij / a_i) + ln(1/tau) + eps.
inline std::vector<double> ref_log_target(const attnx::Pattern& A, double eps, double tau) {
  std::vector<double> B(A.col.size());
  for (int i = 0; i < A.L; ++i) {
    double a = std::numeric_limits<double>::infinity();
    for (int p = A.row_begin(i); p < A.row_end(i); ++p) a = std::min(a, A.val[p]);
    for (int p = A.row_begin(i); p < A.row_end(i); ++p)
      B[p] = std::log(A.val[p] / a) + std::log(1.0 / tau) + eps;
  }
  return B;
}

inline MatD dense_B(const attnx::Pattern& A, const std::vector<double>& B) {
  MatD D = MatD::Zero(A.L, A.L);
  for (int i = 0; i < A.L; ++i)
    for (int p = A.row_begin(i); p < A.row_end(i); ++p) D(i, A.col[p]) = B[p];
  return D;
}

struct RefMetrics {
  double rho = 0, zeta = 0, lambda = 0;
  bool success(double eps, double tau) const { return rho <= eps && zeta <= tau; }
};

// SPEC §2 metrics in float64 from logits Z (L x L).
inline RefMetrics ref_metrics(const attnx::Pattern& A, const MatD& Z) {
  RefMetrics m;
  const int L = A.L;
  std::vector<char> in(L);
  for (int i = 0; i < L; ++i) {
    std::fill(in.begin(), in.end(), 0);
    double hi = -INFINITY, lo = INFINITY, zmin_s = INFINITY;
    for (int p = A.row_begin(i); p < A.row_end(i); ++p) {
      int j = A.col[p];
      in[j] = 1;
      double v = Z(i, j) - std::log(A.val[p]);
      hi = std::max(hi, v);
      lo = std::min(lo, v);
      zmin_s = std::min(zmin_s, Z(i, j));
    }
    m.rho = std::max(m.rho, hi - lo);
    double zmax_out = -INFINITY, zmax = -INFINITY;
    for (int j = 0; j < L; ++j) {
      zmax = std::max(zmax, Z(i, j));
      if (!in[j]) zmax_out = std::max(zmax_out, Z(i, j));
    }
    if (zmax_out > -INFINITY) m.zeta = std::max(m.zeta, std::exp(zmax_out - zmin_s));
    double tot = 0, out = 0;
    for (int j = 0; j < L; ++j) {
      double e = std::exp(Z(i, j) - zmax);
      tot += e;
      if (!in[j]) out += e;
    }
    m.lambda = std::max(m.lambda, out / tot);
  }
  return m;
}

// Row-major float L x L -> double.
// A pattern of `family` with parameter k (the other parameters their defaults) drawn as construct()
// draws it for `seed` (pattern_seed(seed)).
inline attnx::Pattern pattern_of(attnx::Family family, int L, int k, std::uint64_t seed) {
  attnx::PatternSpec s;
  s.family = family;
  s.L = L;
  s.k = k;
  attnx::Rng rng(attnx::pattern_seed(seed));
  return attnx::make_pattern(s, rng);
}
// A random k-regular pattern drawn as construct() draws it for `seed`.
inline attnx::Pattern random_pattern(int L, int k, std::uint64_t seed) {
  return pattern_of(attnx::Family::Random, L, k, seed);
}

// A JSON array of rows (an export's "X") as a matrix.
inline MatD matrix_of(const attnx::JsonValue& rows) {
  MatD m(rows.arr.size(), rows.arr[0].arr.size());
  for (std::size_t i = 0; i < rows.arr.size(); ++i)
    for (std::size_t j = 0; j < rows.arr[i].arr.size(); ++j) m(i, j) = rows.arr[i].arr[j].num;
  return m;
}

inline MatD to_double(const float* p, int rows, int cols) {
  MatD D(rows, cols);
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) D(i, j) = static_cast<double>(p[(size_t)i * cols + j]);
  return D;
}

inline std::vector<float> to_float(const MatD& D) {
  std::vector<float> f((size_t)D.rows() * D.cols());
  for (int i = 0; i < D.rows(); ++i)
    for (int j = 0; j < D.cols(); ++j) f[(size_t)i * D.cols() + j] = static_cast<float>(D(i, j));
  return f;
}

// Structural invariants every pattern must satisfy (SPEC §1). Returns the row counts.
inline std::vector<int> check_pattern_invariants(const attnx::Pattern& A) {
  const int L = A.L;
  REQUIRE(L >= attnx::kMinL);
  REQUIRE(A.row_ptr.size() == static_cast<size_t>(L) + 1);
  REQUIRE(A.row_ptr[0] == 0);
  REQUIRE(A.row_ptr[L] == A.nnz());
  REQUIRE(A.val.size() == A.col.size());
  std::vector<int> rows(L), cols(L, 0);
  int kmax = 0, bad_rows = 0, bad_sum = 0, bad_sorted = 0, bad_val = 0;
  for (int i = 0; i < L; ++i) {
    REQUIRE(A.row_ptr[i + 1] >= A.row_ptr[i]);
    rows[i] = A.row_ptr[i + 1] - A.row_ptr[i];
    if (rows[i] < 1) ++bad_rows;
    kmax = std::max(kmax, rows[i]);
    double s = 0;
    for (int p = A.row_begin(i); p < A.row_end(i); ++p) {
      REQUIRE(A.col[p] >= 0);
      REQUIRE(A.col[p] < L);
      if (p > A.row_begin(i) && A.col[p] <= A.col[p - 1]) ++bad_sorted;
      if (!(A.val[p] > 0) || !std::isfinite(A.val[p])) ++bad_val;
      ++cols[A.col[p]];
      s += A.val[p];
    }
    if (std::fabs(s - 1.0) > 1e-12) ++bad_sum;
  }
  CHECK(bad_rows == 0);
  CHECK(bad_sum == 0);
  CHECK(bad_sorted == 0);
  CHECK(bad_val == 0);
  int cmax = *std::max_element(cols.begin(), cols.end());
  CHECK(A.k == kmax);
  CHECK(A.max_col_count == cmax);
  CHECK(A.in_class == (cmax <= kmax));
  return rows;
}

inline std::vector<int> col_counts(const attnx::Pattern& A) {
  std::vector<int> c(A.L, 0);
  for (int j : A.col) ++c[j];
  return c;
}

inline bool has(const attnx::Pattern& A, int i, int j) {
  return std::binary_search(A.col.begin() + A.row_begin(i), A.col.begin() + A.row_end(i), j);
}

// Pattern from rows of (j, weight) pairs through the public custom API.
inline attnx::Pattern from_rows(int L, const std::vector<std::vector<std::pair<int, double>>>& rows) {
  std::vector<attnx::Triplet> t;
  for (int i = 0; i < (int)rows.size(); ++i)
    for (auto& e : rows[i]) t.push_back({i, e.first, e.second});
  return attnx::pattern_from_triplets(L, t);
}

// Runs f and returns the InvalidArgument it throws (fails the test if it does not).
template <class F>
attnx::InvalidArgument invalid(F&& f) {
  try {
    f();
  } catch (const attnx::InvalidArgument& e) {
    return e;
  } catch (const std::exception& e) {
    FAIL_CHECK("expected attnx::InvalidArgument, got another exception: " << e.what());
    return attnx::InvalidArgument("<other>", e.what());
  }
  FAIL_CHECK("expected attnx::InvalidArgument, nothing was thrown");
  return attnx::InvalidArgument("<none>", "");
}

inline bool contains(const std::string& s, const std::string& sub) {
  return s.find(sub) != std::string::npos;
}

// Whether two vectors (of any allocator) hold the same bits; two doubles the same.
template <class T, class Alloc>
inline bool same_bits(const std::vector<T, Alloc>& a, const std::vector<T, Alloc>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Two constructions have the same bits: X, B, logits, M, the metrics and the bounds' scales.
inline void check_same_construction(const attnx::Construction& got, const attnx::Construction& want) {
  CHECK(same_bits(got.X, want.X));
  CHECK(same_bits(got.B, want.B));
  CHECK(same_bits(got.logits, want.logits));
  CHECK(same_bits(got.M, want.M));
  CHECK(same_bits(got.metrics.rho, want.metrics.rho));
  CHECK(same_bits(got.metrics.zeta, want.metrics.zeta));
  CHECK(same_bits(got.metrics.lambda, want.metrics.lambda));
  CHECK(same_bits(got.metrics.d_star, want.metrics.d_star));
  CHECK(got.metrics.success == want.metrics.success);
  CHECK(same_bits(got.bounds.logit_scale, want.bounds.logit_scale));
  CHECK(same_bits(got.bounds.max_abs_logit, want.bounds.max_abs_logit));
}

// Distance in units in the last place between two finite non-negative doubles.
inline std::uint64_t ulp_distance(double a, double b) {
  std::int64_t ia, ib;
  std::memcpy(&ia, &a, 8);
  std::memcpy(&ib, &b, 8);
  return ia > ib ? (std::uint64_t)(ia - ib) : (std::uint64_t)(ib - ia);
}

// Checks that a sample looks standard normal: the empirical CDF on a fine grid in [-4.5, 4.5]
// against Phi (Kolmogorov-Smirnov style, 1e6+ draws), and tail counts beyond 2, 3, 3.65, 4, 4.5
// within 5 Poisson standard deviations. Ziggurat table, wedge or tail mistakes show up here.
inline void check_standard_normal(std::vector<double> x) {
  const size_t n = x.size();
  REQUIRE(n >= 500000);
  std::sort(x.begin(), x.end());
  double worst = 0, worst_at = 0;
  for (double t = -4.5; t <= 4.5001; t += 0.05) {
    double emp = double(std::upper_bound(x.begin(), x.end(), t) - x.begin()) / n;
    double phi = 0.5 * std::erfc(-t / std::sqrt(2.0));
    if (std::fabs(emp - phi) > worst) { worst = std::fabs(emp - phi); worst_at = t; }
  }
  CAPTURE(worst_at);
  CHECK(worst < 1.9 / std::sqrt(double(n)));
  for (double t : {2.0, 3.0, 3.6541528853610088, 4.0, 4.5}) {
    double p = std::erfc(t / std::sqrt(2.0));  // P(|X| > t)
    double expect = p * n;
    size_t cnt = (x.end() - std::upper_bound(x.begin(), x.end(), t)) +
                 (std::lower_bound(x.begin(), x.end(), -t) - x.begin());
    CAPTURE(t);
    CAPTURE(cnt);
    CAPTURE(expect);
    CHECK(std::fabs(double(cnt) - expect) <= 5 * std::sqrt(expect) + 3);
  }
  // No absurd values.
  CHECK(x.front() > -8);
  CHECK(x.back() < 8);
}

}  // namespace th
