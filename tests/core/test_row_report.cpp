// The per-row criterion (RowReport) on the hand-computed 3x3 case of test_metrics.cpp, and its
// agreement with the whole-matrix metrics on a real construction.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/errors.hpp>
#include <attnx/memory.hpp>
#include "helpers.hpp"
#include "requests.hpp"

namespace {

// row 0: S = {0,1}, A = (1/4, 3/4), Z = (1, 2.5, -1)
// row 1: S = {1},   A = (1),        Z = (0, 3, 0.75)
// row 2: S = all,   A = (1/3 each), Z = (0.125, 0.25, 0.5)
attnx::Pattern hand() {
  return th::from_rows(3, {{{0, 1.0}, {1, 3.0}}, {{1, 2.0}}, {{0, 1.0}, {1, 1.0}, {2, 1.0}}});
}
const std::vector<float> kZ = {1.0f, 2.5f, -1.0f, 0.0f, 3.0f, 0.75f, 0.125f, 0.25f, 0.5f};

}  // namespace

TEST_CASE("evaluate_rows gives each row's rho, zeta, support minimum and verdicts by hand") {
  const attnx::Pattern A = hand();
  attnx::Tolerances tol;  // eps 1, tau 0.1
  const auto r = attnx::evaluate_rows(A, kZ.data(), nullptr, tol);
  // Row 0: Z - ln A = (1 + ln 4, 2.5 - ln(3/4)); spread 1.5 - ln 3.
  CHECK(r.rho[0] == doctest::Approx(1.5 - std::log(3.0)).epsilon(1e-6));
  CHECK(r.rho[1] == 0.0);
  // Row 2: Z - ln(1/3) spread = 0.5 - 0.125.
  CHECK(r.rho[2] == doctest::Approx(0.375).epsilon(1e-6));
  CHECK(r.zeta[0] == doctest::Approx(std::exp(-2.0)).epsilon(1e-6));       // e^{-1 - 1}
  CHECK(r.zeta[1] == doctest::Approx(std::exp(0.75 - 3.0)).epsilon(1e-6)); // max(0, .75) - 3
  CHECK(r.zeta[2] == 0.0);                                                   // full row
  CHECK(r.support_min_logit[0] == 1.0f);
  CHECK(r.support_min_logit[1] == 3.0f);
  CHECK(r.support_min_logit[2] == 0.125f);
  CHECK(r.ok_r[0] == 1);   // 0.40 <= 1
  CHECK(r.ok_z[0] == 0);   // 0.135 > 0.1
  CHECK(r.ok_z[1] == 0);   // e^-2.25 = 0.1054 > 0.1
  CHECK(r.ok_z[2] == 1);   // full row: zeta 0
  CHECK(r.lambda[0] == 0.0);  // no M given
}

TEST_CASE("ratio errors per nonzero are Z - ln A minus the row mean and minus the row minimum") {
  const attnx::Pattern A = hand();
  const auto r = attnx::evaluate_rows(A, kZ.data(), nullptr, attnx::Tolerances{});
  const double e0 = 1.0 - std::log(0.25), e1 = 2.5 - std::log(0.75);
  CHECK(r.ratio_err_min[0] == doctest::Approx(0.0));
  CHECK(r.ratio_err_min[1] == doctest::Approx(e1 - e0).epsilon(1e-6));
  CHECK(r.ratio_err_mean[0] == doctest::Approx(e0 - (e0 + e1) / 2).epsilon(1e-6));
  CHECK(r.ratio_err_mean[1] == doctest::Approx(e1 - (e0 + e1) / 2).epsilon(1e-6));
  CHECK(r.ratio_err_mean[2] == 0.0f);  // a single-entry row
}

TEST_CASE("construct's per-row report has the whole-matrix metrics as its maxima") {
  attnx::PatternSpec s;
  s.family = attnx::Family::Window;
  s.L = 48;
  s.w = 2;
  attnx::Rng rng(attnx::pattern_seed(5));
  const attnx::Pattern A = attnx::make_pattern(s, rng);
  const attnx::Tolerances tol;
  const auto c = attnx::construct(A, th::jl(tol, 96, 5, attnx::kDefaultMaxBytes));
  double rho = 0, zeta = 0, lambda = 0;
  bool all = true;
  for (int i = 0; i < A.L; ++i) {
    rho = std::max(rho, c.rows.rho[i]);
    zeta = std::max(zeta, c.rows.zeta[i]);
    lambda = std::max(lambda, c.rows.lambda[i]);
    all = all && c.rows.ok_r[i] && c.rows.ok_z[i];
    CHECK(bool(c.rows.ok_r[i]) == (c.rows.rho[i] <= tol.eps));
    // Leaked mass of row i recomputed from M (float64 sum over the off-support entries).
    double leak = 0;
    int e = A.row_begin(i);
    for (int j = 0; j < A.L; ++j) {
      if (e < A.row_end(i) && A.col[e] == j) { ++e; continue; }
      leak += c.M[std::size_t(i) * A.L + j];
    }
    CHECK(c.rows.lambda[i] == doctest::Approx(leak).epsilon(1e-9));
  }
  CHECK(c.metrics.rho == rho);
  CHECK(c.metrics.zeta == zeta);
  CHECK(c.metrics.lambda == lambda);
  CHECK(c.metrics.success == all);
}

TEST_CASE("a NaN or infinite logit fails its row and makes the metrics NaN, never a success") {
  const attnx::Pattern A = hand();
  attnx::Tolerances tol;
  tol.tau = 0.5;  // the finite hand case passes with tau 0.5 (zeta max e^-2)
  std::vector<float> Z = kZ;
  const auto ok = attnx::evaluate(A, attnx::log_target(A, tol), Z.data(), nullptr, tol);
  REQUIRE(ok.success);
  for (float bad : {NAN, INFINITY, -INFINITY}) {
    for (int at : {0, 2, 4}) {  // on the support of row 0, off the support of row 0, row 1's support
      Z = kZ;
      Z[at] = bad;
      const auto r = attnx::evaluate_rows(A, Z.data(), nullptr, tol);
      const int row = at / 3;
      CHECK_FALSE((r.ok_r[row] && r.ok_z[row]));
      const auto m = attnx::evaluate(A, attnx::log_target(A, tol), Z.data(), nullptr, tol);
      CHECK_FALSE(m.success);
      CHECK(std::isnan(m.rho));
    }
  }
}

TEST_CASE("a huge eps is refused with the table's range instead of overflowing the logits") {
  attnx::Tolerances tol;
  tol.eps = 1e39;
  CHECK_THROWS_WITH_AS(attnx::validate(tol), "eps must be a number in [1e-06, 100] (got 1e+39)",
                       attnx::InvalidArgument);
}

TEST_CASE("d* stays finite for a subnormal delta: 16 beta^2 (ln(2 L^2) - ln delta) / eps^2") {
  attnx::Tolerances tol;
  tol.delta = 1e-320;
  const double d = attnx::d_star(2.0, 64, tol);
  CHECK(std::isfinite(d));
  // ln(1e-320) = -736.83 (subnormal, still exact enough): 16 * 4 * (ln 8192 + 736.83).
  CHECK(d == doctest::Approx(64.0 * (std::log(8192.0) - std::log(1e-320))).epsilon(1e-9));
}

TEST_CASE("eps is at least 1e-6: d* (1/eps^2) stays finite even for the largest beta") {
  attnx::Tolerances tol;
  tol.eps = 5e-324;  // eps^2 underflowed to 0 and d* became infinite (JSON null)
  CHECK_THROWS_WITH_AS(attnx::validate(tol), "eps must be a number in [1e-06, 100] (got 4.94066e-324)",
                       attnx::InvalidArgument);
  tol.eps = attnx::kMinEps;
  tol.tau = 5e-324;
  tol.delta = 5e-324;
  // beta of a 16384-wide row of weights spanning 1e300: ~1e6; d* ~ 1e28, finite.
  CHECK(std::isfinite(attnx::d_star(1e6, attnx::kMaxL, tol)));
}
