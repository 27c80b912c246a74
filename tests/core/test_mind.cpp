// Minimal d search (SPEC §4): grid, nesting, float64 reproduction, "not reached", check_criterion.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/gram.hpp>
#include "helpers.hpp"
#include "requests.hpp"
#include <attnx/mind.hpp>

using attnx::Pattern;
using th::MatD;

namespace {

Pattern make(attnx::Family f, int L, int k, attnx::Weights w, std::uint64_t seed) {
  attnx::PatternSpec s;
  s.family = f;
  s.L = L;
  s.k = k;
  s.w = 1;
  s.weights = w;
  s.w_min = 0.3;
  attnx::Rng rng(seed);
  return attnx::make_pattern(s, rng);
}

// Unit-variance projection with ncols columns, as min_d and construct draw it (L x ncols, double).
MatD unit_projection(std::uint64_t seed, int L, int ncols) {
  std::vector<float> buf((size_t)L * ncols);
  attnx::Rng r(attnx::projection_seed(seed));
  attnx::draw_projection_columns(r, L, ncols, buf.data());
  MatD P(L, ncols);
  for (int c = 0; c < ncols; ++c)
    for (int i = 0; i < L; ++i) P(i, c) = buf[(size_t)c * L + i];
  return P;
}

// Float64 metrics of the construction built from the first d columns of U (scaled by 1/sqrt(d)).
th::RefMetrics metrics_at(const Pattern& A, const MatD& Bd, const MatD& U, int d) {
  MatD P = U.leftCols(d) / std::sqrt((double)d);
  MatD Z = Bd * P * P.transpose();
  return th::ref_metrics(A, Z);
}

// Per-row double check: ratio spread and log zero ratio of row i.
bool row_ok(const Pattern& A, const MatD& Z, int i, double eps, double tau, double slack) {
  std::vector<char> in(A.L, 0);
  double hi = -INFINITY, lo = INFINITY, zmin = INFINITY, off = -INFINITY;
  for (int p = A.row_begin(i); p < A.row_end(i); ++p) {
    in[A.col[p]] = 1;
    double v = Z(i, A.col[p]) - std::log(A.val[p]);
    hi = std::max(hi, v);
    lo = std::min(lo, v);
    zmin = std::min(zmin, Z(i, A.col[p]));
  }
  for (int j = 0; j < A.L; ++j)
    if (!in[j]) off = std::max(off, Z(i, j));
  return hi - lo <= eps + slack && off - zmin <= std::log(tau) + slack;
}

}  // namespace

TEST_CASE("min_d: d_min is on the grid, checked is the ascending grid up to d_min") {
  attnx::Tolerances tol;
  attnx::MinDOptions opt;
  opt.step = 16;
  opt.d_max = 4096;
  for (int L : {16, 64, 200}) {
    CAPTURE(L);
    Pattern A = make(attnx::Family::Random, L, 2, attnx::Weights::Uniform, L);
    auto r = attnx::min_d(A, th::search("jl", tol, opt, 3));
    REQUIRE(r.reached());
    CHECK(r.d_min % opt.step == 0);
    CHECK(r.d_min >= opt.step);
    CHECK(r.d_min <= opt.d_max);
    REQUIRE(!r.checked.empty());
    CHECK(r.checked.back() == r.d_min);
    for (size_t n = 0; n < r.checked.size(); ++n) CHECK(r.checked[n] == (int)(n + 1) * opt.step);
    CHECK_FALSE(r.cancelled);
    auto B = attnx::log_target(A, tol);
    CHECK(r.beta == doctest::Approx(attnx::beta_of(A, B)).epsilon(1e-14));
    CHECK(r.d_star == doctest::Approx(attnx::d_star(r.beta, L, tol)).epsilon(1e-14));
    // About L^2 d_min / 2 multiply-adds in the Gram updates.
    double expect = (double)L * (L + 1) / 2 * r.d_min;
    CHECK((double)r.gram_madds >= 0.9 * expect);
    CHECK((double)r.gram_madds <= 1.1 * expect);
    CHECK(r.check_madds > 0);
  }
}

TEST_CASE("min_d: the construction at d_min succeeds and at d_min - step fails (float64 re-evaluation of the nested projection)") {
  struct C { attnx::Family f; int L, k; attnx::Weights w; int step; double eps, tau; std::uint64_t seed; };
  int compared_below = 0;
  for (C c : {C{attnx::Family::Random, 32, 2, attnx::Weights::Uniform, 16, 1.0, 0.1, 1},
              C{attnx::Family::Random, 64, 2, attnx::Weights::Random, 8, 1.0, 0.1, 2},
              C{attnx::Family::Window, 48, 3, attnx::Weights::Decaying, 4, 2.0, 0.2, 3},
              C{attnx::Family::Permutation, 100, 1, attnx::Weights::Uniform, 16, 0.5, 0.1, 4},
              C{attnx::Family::BigBird, 40, 2, attnx::Weights::Uniform, 10, 1.0, 0.05, 5},
              C{attnx::Family::Random, 24, 3, attnx::Weights::Random, 1, 1.0, 0.3, 6},
              C{attnx::Family::Causal, 60, 2, attnx::Weights::Uniform, 32, 1.0, 0.1, 7}}) {
    CAPTURE(c.L);
    CAPTURE(c.step);
    CAPTURE(c.seed);
    Pattern A = make(c.f, c.L, c.k, c.w, c.seed);
    attnx::Tolerances tol;
    tol.eps = c.eps;
    tol.tau = c.tau;
    attnx::MinDOptions opt;
    opt.step = c.step;
    opt.d_max = 4096;
    auto r = attnx::min_d(A, th::search("jl", tol, opt, c.seed * 1000 + 7));
    REQUIRE(r.reached());
    CAPTURE(r.d_min);
    MatD U = unit_projection(c.seed * 1000 + 7, c.L, r.d_min);
    MatD Bd = th::dense_B(A, th::ref_log_target(A, tol.eps, tol.tau));
    auto at = metrics_at(A, Bd, U, r.d_min);
    CAPTURE(at.rho);
    CAPTURE(at.zeta);
    CHECK(at.rho <= tol.eps * (1 + 1e-4));
    CHECK(at.zeta <= tol.tau * (1 + 1e-4));
    // The float32 construction at d_min from the same seed agrees.
    auto con = attnx::construct(A, th::jl(tol, r.d_min, c.seed * 1000 + 7, attnx::kDefaultMaxBytes));
    CHECK(con.metrics.success);
    if (r.d_min > c.step) {
      ++compared_below;
      auto below = metrics_at(A, Bd, U, r.d_min - c.step);
      CAPTURE(below.rho);
      CAPTURE(below.zeta);
      CHECK((below.rho > tol.eps * (1 - 1e-4) || below.zeta > tol.tau * (1 - 1e-4)));
      auto con2 = attnx::construct(A, th::jl(tol, r.d_min - c.step, c.seed * 1000 + 7, attnx::kDefaultMaxBytes));
      CHECK_FALSE(con2.metrics.success);
    }
  }
  CHECK(compared_below >= 5);
}

TEST_CASE("min_d with step 1 finds the exact smallest d (every smaller d fails in float64)") {
  Pattern A = make(attnx::Family::Random, 20, 2, attnx::Weights::Uniform, 9);
  attnx::Tolerances tol;
  tol.eps = 2.0;
  tol.tau = 0.3;
  attnx::MinDOptions opt;
  opt.step = 1;
  opt.d_max = 2000;
  auto r = attnx::min_d(A, th::search("jl", tol, opt, 42));
  REQUIRE(r.reached());
  MatD U = unit_projection(42, 20, r.d_min);
  MatD Bd = th::dense_B(A, th::ref_log_target(A, tol.eps, tol.tau));
  for (int d = 1; d < r.d_min; ++d) {
    auto m = metrics_at(A, Bd, U, d);
    CAPTURE(d);
    CHECK((m.rho > tol.eps * (1 - 1e-4) || m.zeta > tol.tau * (1 - 1e-4)));
  }
  auto m = metrics_at(A, Bd, U, r.d_min);
  CHECK(m.success(tol.eps * (1 + 1e-4), tol.tau * (1 + 1e-4)));
}

TEST_CASE("min_d: 'not reached' when d_max is tiny is a result (d_min = -1), not an exception") {
  Pattern A = make(attnx::Family::Random, 128, 2, attnx::Weights::Uniform, 1);
  attnx::Tolerances tol;
  attnx::MinDOptions opt;
  opt.step = 4;
  opt.d_max = 8;
  attnx::MinDResult r;
  CHECK_NOTHROW(r = attnx::min_d(A, th::search("jl", tol, opt, 1)));
  CHECK(r.d_min == -1);
  CHECK_FALSE(r.reached());
  CHECK_FALSE(r.cancelled);
  CHECK(r.checked == std::vector<int>{4, 8});
  // Also with step == d_max == 1.
  opt.step = 1;
  opt.d_max = 1;
  r = attnx::min_d(A, th::search("jl", tol, opt, 2));
  CHECK(r.d_min == -1);
  CHECK(r.checked == std::vector<int>{1});
}

TEST_CASE("min_d: progress is reported after grid points within 0..1, ascending, and false cancels") {
  Pattern A = make(attnx::Family::Random, 64, 2, attnx::Weights::Uniform, 1);
  attnx::Tolerances tol;
  attnx::MinDOptions opt;
  opt.step = 8;
  opt.d_max = 4096;
  std::vector<double> seen;
  auto r = attnx::min_d(A, th::search("jl", tol, opt, 5), [&](double f) {
    seen.push_back(f);
    return true;
  });
  REQUIRE(r.reached());
  REQUIRE(!seen.empty());
  for (size_t n = 0; n < seen.size(); ++n) {
    CHECK(seen[n] >= 0.0);
    CHECK(seen[n] <= 1.0);
    if (n) CHECK(seen[n] >= seen[n - 1]);
  }
  // Same answer with and without a callback.
  CHECK(attnx::min_d(A, th::search("jl", tol, opt, 5)).d_min == r.d_min);
  // Cancel at the first report.
  int calls = 0;
  auto c = attnx::min_d(A, th::search("jl", tol, opt, 5), [&](double) {
    ++calls;
    return false;
  });
  CHECK(calls == 1);
  CHECK(c.cancelled);
  CHECK(c.d_min == -1);
}

TEST_CASE("check_criterion agrees with evaluate's success on random Gram matrices") {
  attnx::Rng meta(77);
  int pass = 0, failc = 0, compared = 0;
  for (int trial = 0; trial < 60; ++trial) {
    int L = 8 + (int)meta.below(90);
    attnx::Family f = trial % 3 == 0 ? attnx::Family::Window : attnx::Family::Random;
    Pattern A = make(f, L, 1 + (int)meta.below(3), trial % 2 ? attnx::Weights::Random : attnx::Weights::Uniform,
                     meta.next());
    attnx::Tolerances tol;
    tol.eps = 0.5 + meta.uniform() * 1.5;
    tol.tau = 0.05 + meta.uniform() * 0.4;
    auto B = attnx::log_target(A, tol);
    int d = 16 << meta.below(7);  // 16 .. 1024
    CAPTURE(L);
    CAPTURE(d);
    std::vector<float> buf((size_t)L * d);
    attnx::Rng pr(meta.next());
    attnx::draw_projection_columns(pr, L, d, buf.data());
    MatD U(L, d);
    for (int c = 0; c < d; ++c)
      for (int i = 0; i < L; ++i) U(i, c) = buf[(size_t)c * L + i];
    MatD Gd = U * U.transpose();
    std::vector<float> G = th::to_float(Gd);
    MatD Z = th::dense_B(A, B) * Gd / (double)d;
    auto ref = th::ref_metrics(A, Z);
    // Skip verdicts within rounding of the boundary.
    if (std::fabs(ref.rho - tol.eps) < 1e-3 || std::fabs(std::log(ref.zeta / tol.tau)) < 1e-3) continue;
    ++compared;
    std::vector<float> row;
    std::uint64_t madds = 0;
    int first = (int)meta.below(L);
    int bad = attnx::check_criterion(A, B, G.data(), d, tol, first, row, &madds);
    auto Zf = th::to_float(Z);
    auto ev = attnx::evaluate(A, B, Zf.data(), nullptr, tol);
    CHECK(ev.success == ref.success(tol.eps, tol.tau));
    CHECK((bad < 0) == ref.success(tol.eps, tol.tau));
    CHECK((bad < 0) == ev.success);
    CHECK(madds > 0);
    if (bad >= 0) {
      ++failc;
      REQUIRE(bad < L);
      CHECK_FALSE(row_ok(A, Z, bad, tol.eps, tol.tau, 1e-4));
      // The sticky row is checked first: if it fails, it is the one reported.
      if (!row_ok(A, Z, first, tol.eps, tol.tau, 1e-4)) CHECK(bad == first);
    } else {
      ++pass;
    }
  }
  MESSAGE("check_criterion: " << pass << " passing and " << failc << " failing cases compared");
  CHECK(pass >= 5);
  CHECK(failc >= 5);
  CHECK(compared >= 40);
}

TEST_CASE("check_criterion reports the first failing row starting from first_row") {
  // L = 3 identity pattern. Z = B G / d with G chosen so rows 0 and 2 fail, row 1 passes.
  Pattern A = th::from_rows(3, {{{0, 1}}, {{1, 1}}, {{2, 1}}});
  attnx::Tolerances tol;  // eps 1, tau .1 -> B = ln 10 + 1 = 3.303 on the diagonal
  auto B = attnx::log_target(A, tol);
  // Row i logits: z_j = B G_{i j} / d with d = 1. Row 0: z = B*(1, 0.9, 0) -> zero ratio e^{-0.33} > tau.
  std::vector<float> G = {1.0f, 0.9f, 0.0f,  //
                          0.9f, 1.0f, 0.0f,  //
                          0.0f, 0.0f, 1.0f};
  // Row 1 also fails (symmetric), row 2 passes.
  std::vector<float> row;
  std::uint64_t madds = 0;
  CHECK(attnx::check_criterion(A, B, G.data(), 1, tol, 0, row, &madds) == 0);
  CHECK(attnx::check_criterion(A, B, G.data(), 1, tol, 1, row, &madds) == 1);
  CHECK(attnx::check_criterion(A, B, G.data(), 1, tol, 2, row, &madds) == 0);
  // With G = I every row passes: zero ratio e^{-B} = tau e^{-eps} <= tau.
  std::vector<float> I = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  CHECK(attnx::check_criterion(A, B, I.data(), 1, tol, 0, row, &madds) == -1);
  // Scaling by d: G = 4 I at d = 4 is the same construction.
  std::vector<float> I4 = {4, 0, 0, 0, 4, 0, 0, 0, 4};
  CHECK(attnx::check_criterion(A, B, I4.data(), 4, tol, 0, row, &madds) == -1);
  CHECK(madds > 0);
}

TEST_CASE("check_criterion flips within half a percent of the eps and tau boundaries") {
  // L = 3. Row 0: S = {0, 1} uniform; row 1: S = {1}; row 2: S = {2}. B = c = ln(1/tau) + eps on
  // the support. With d = 1: Z = B G.
  //   row 0: z_0 - z_1 = c (G00 + G10 - G01 - G11) = c (G00 - G11)   -> ratio error
  //   row 2: z_j - z_2 = c (G2j - G22)                               -> log zero ratio
  Pattern A = th::from_rows(3, {{{0, 1}, {1, 1}}, {{1, 1}}, {{2, 1}}});
  attnx::Tolerances tol;
  tol.eps = 1.0;
  tol.tau = 0.1;
  auto B = attnx::log_target(A, tol);
  const double c = std::log(10.0) + 1.0;
  auto run = [&](double rho_factor, double zeta_factor) {
    // rho_0 = c * delta = rho_factor * eps ; row 2 log ratio = c (g - 1) = zeta_factor * ln tau.
    const float delta = (float)(rho_factor * tol.eps / c);
    const float g = (float)(1.0 + zeta_factor * std::log(tol.tau) / c);
    std::vector<float> G = {1.0f + delta, 0.0f, g,  //
                            0.0f, 1.0f, 0.0f,      //
                            g, 0.0f, 1.0f};
    std::vector<float> row;
    std::uint64_t madds = 0;
    return attnx::check_criterion(A, B, G.data(), 1, tol, 1, row, &madds);
  };
  CHECK(run(0.995, 1.005) == -1);  // both just inside
  CHECK(run(1.005, 1.005) == 0);   // ratio error 0.5% above eps on row 0
  CHECK(run(0.995, 0.995) == 2);   // zero ratio 0.5% (in log) above tau on row 2
}
