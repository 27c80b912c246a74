// The dense interior-point LP solver (core/lp.cpp) and the rows of SPEC §8.2 (core/lp_rows.cpp):
// hand-solved problems; the constraint-generation solve_row against the full LP on random rows;
// SciPy's HiGHS checks larger ones (tests/lp/lp_highs.py).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <attnx/errors.hpp>
#include <attnx/lp.hpp>
#include <attnx/lp_rows.hpp>
#include <attnx/pattern.hpp>
#include <attnx/rng.hpp>

using namespace attnx;

namespace {

// Unit normal keys scaled by 1/sqrt(d) (as the construction's K), row-major L x d.
std::vector<float> random_keys(int L, int d, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> K(static_cast<std::size_t>(L) * d);
  rng.fill_normal(K.data(), K.size());
  for (float& k : K) k = static_cast<float>(k / std::sqrt(double(d)));
  return K;
}

// The largest g_r·x - h_r over the rows of p at x = (q, c, t), and max_r |h_r|.
std::pair<double, double> worst_excess(const LpProblem& p, const LpRow& r) {
  std::vector<double> x = r.q;
  x.push_back(r.c);
  x.push_back(r.t);
  double worst = -1e300, h_max = 0;
  for (int row = 0; row < p.m; ++row) {
    double s = -p.h[row];
    for (int v = 0; v < p.n; ++v) s += p.G[std::size_t(row) * p.n + v] * x[v];
    worst = std::max(worst, s);
    h_max = std::max(h_max, std::abs(p.h[row]));
  }
  return {worst, h_max};
}

struct RowCase {
  int L, k, d;
  Weights w;
  double eps, tau, box;
  std::uint64_t seed;
};

}  // namespace

TEST_CASE("lp: a unique optimum and its dual multiplier, solved by hand") {
  // min x1 + 2 x2  s.t.  x1 + x2 >= 1, x >= 0  ->  x = (1, 0), objective 1, z = (1, 0, 1).
  LpProblem p{2, 3, {1, 2}, {-1, -1, -1, 0, 0, -1}, {-1, 0, 0}};
  const LpSolution s = solve_lp(p);
  REQUIRE(s.converged);
  CHECK(s.objective == doctest::Approx(1).epsilon(1e-9));
  CHECK(s.x[0] == doctest::Approx(1).epsilon(1e-8));
  CHECK(std::abs(s.x[1]) < 1e-8);
  CHECK(s.z[0] == doctest::Approx(1).epsilon(1e-8));
  CHECK(s.z[2] == doctest::Approx(1).epsilon(1e-8));
  CHECK(s.iterations < 40);
}

TEST_CASE("lp: a face of optima has the optimal value, mismatched sizes are refused") {
  // max x1 + x2  s.t.  x1 <= 1, x2 <= 2, x1 + x2 <= 2.5  (a segment of optima, value 2.5).
  LpProblem p{2, 3, {-1, -1}, {1, 0, 0, 1, 1, 1}, {1, 2, 2.5}};
  const LpSolution s = solve_lp(p);
  REQUIRE(s.converged);
  CHECK(s.objective == doctest::Approx(-2.5).epsilon(1e-9));
  CHECK(s.x[0] + s.x[1] == doctest::Approx(2.5).epsilon(1e-9));
  p.h.pop_back();
  CHECK_THROWS_AS(solve_lp(p), InvalidArgument);
}

TEST_CASE("lp rows: one key per side, the margin by hand (capped at eps/2, or set by the box)") {
  // L = 2, d = 1, keys k_0 = 1, k_1 = -1; row 0 attends to token 0 only (a = ln 1 = 0), eps = 1,
  // tau = 0.1. Support: |q - c| <= 1/2 - t; off: -q - c <= -1/2 + ln 0.1 - t. With c = q + 1/2 - t
  // the off row needs q >= t + ln(10)/2, so t* = min(eps/2, U - ln(10)/2).
  Pattern A;
  A.L = 2;
  A.row_ptr = {0, 1, 2};
  A.col = {0, 1};
  A.val = {1.0, 1.0};
  const float K[2] = {1.0f, -1.0f};
  Tolerances tol;
  tol.eps = 1;
  tol.tau = 0.1;
  const LpRow wide = solve_row(A, 0, K, 1, tol, 1000);
  REQUIRE(wide.converged);
  CHECK(wide.t == doctest::Approx(0.5).epsilon(1e-8));
  const LpRow tight = solve_row(A, 0, K, 1, tol, 1.0);
  REQUIRE(tight.converged);
  CHECK(tight.t == doctest::Approx(1.0 - std::log(10.0) / 2).epsilon(1e-8));
  CHECK(tight.q[0] == doctest::Approx(1.0).epsilon(1e-8));
  const LpProblem p = row_lp(A, 0, K, 1, tol, 1.0);
  CHECK(p.n == 3);
  CHECK(p.m == 2 + 1 + 1 + 2);  // support pair, one off row, t, the box
}

TEST_CASE("lp: singleton rows (bounds) and dense rows together, the multipliers come back in G's order") {
  // max x1 + x2 + 2 x3  s.t.  x1 + x2 + x3 <= 3 (dense), x1 <= 0.5, x2 <= 2.5, -x3 <= 0, x3 <= 0.25,
  // x1 - x2 <= 5 (dense). Optimum 3.25 with x3 = 0.25 and x1 + x2 = 2.75 (a face); multipliers 1 on
  // the sum row and on x3 <= 0.25 (rows 0 and 4), 0 elsewhere. The bound rows are singletons.
  LpProblem p{3, 6, {-1, -1, -2}, {1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 0, -1, 0, 0, 1, 1, -1, 0}, {3, 0.5, 2.5, 0, 0.25, 5}};
  const LpSolution s = solve_lp(p);
  REQUIRE(s.converged);
  CHECK(s.objective == doctest::Approx(-3.25).epsilon(1e-9));
  CHECK(s.x[2] == doctest::Approx(0.25).epsilon(1e-8));
  CHECK(s.z[0] == doctest::Approx(1).epsilon(1e-7));
  CHECK(s.z[4] == doctest::Approx(1).epsilon(1e-7));
  for (int r : {1, 2, 3, 5}) CHECK(std::abs(s.z[r]) < 1e-7);
}

TEST_CASE("lp rows: constraint generation gives the full LP's t* and a q feasible for every row") {
  const std::vector<RowCase> cases = {
      {16, 2, 4, Weights::Uniform, 1.0, 0.1, 1000, 1},   {48, 2, 6, Weights::Uniform, 1.0, 0.1, 1000, 2},
      {64, 2, 12, Weights::Uniform, 1.0, 0.1, 1000, 3},  {64, 3, 10, Weights::Random, 0.5, 0.05, 1000, 4},
      {96, 2, 20, Weights::Uniform, 1.0, 0.1, 1000, 5},  {128, 2, 8, Weights::Uniform, 1.0, 0.1, 1000, 6},
      {128, 4, 24, Weights::Decaying, 1.0, 0.1, 1000, 7}, {64, 2, 16, Weights::Uniform, 1.0, 0.1, 2.0, 8},
      {200, 2, 30, Weights::Random, 1.0, 0.1, 1000, 9},  {80, 2, 3, Weights::Uniform, 2.0, 0.2, 1000, 10}};
  int rows = 0, feasible = 0, multi_round = 0;
  for (const RowCase& rc : cases) {
    PatternSpec spec;
    spec.L = rc.L;
    spec.k = rc.k;
    spec.weights = rc.w;
    Rng rng(rc.seed);
    const Pattern A = make_pattern(spec, rng);
    const std::vector<float> K = random_keys(rc.L, rc.d, rc.seed + 100);
    Tolerances tol;
    tol.eps = rc.eps;
    tol.tau = rc.tau;
    for (int i = 0; i < rc.L; i += std::max(1, rc.L / 12)) {
      CAPTURE(rc.seed);
      CAPTURE(i);
      const LpRow full = solve_row_full(A, i, K.data(), rc.d, tol, rc.box);
      const LpRow cut = solve_row(A, i, K.data(), rc.d, tol, rc.box);
      REQUIRE(full.converged);
      REQUIRE(cut.converged);
      CHECK_FALSE(cut.relaxed);
      CHECK(std::abs(cut.t - full.t) < 1e-8 * (1 + std::abs(full.t)));
      CHECK((cut.t > 0) == (full.t > 0));
      const auto [worst, h_max] = worst_excess(row_lp(A, i, K.data(), rc.d, tol, rc.box), cut);
      CHECK(worst <= 1.01e-10 * (1 + h_max));  // solve_lp's primal accuracy, on all L rows
      CHECK(cut.rounds >= 1);
      CHECK(cut.iterations >= cut.rounds);
      const LpRow again = solve_row(A, i, K.data(), rc.d, tol, rc.box);
      CHECK((again.t == cut.t && again.q == cut.q && again.iterations == cut.iterations));
      ++rows;
      feasible += full.t > 0;
      multi_round += cut.rounds > 1;
    }
  }
  CHECK(rows >= 100);
  CHECK(feasible >= 20);     // both verdicts are represented...
  CHECK(rows - feasible >= 20);
  CHECK(multi_round >= 10);  // ...and the working set had to grow on many rows
}

TEST_CASE("lp rows: stopping early on t <= 0 keeps the verdict, and t bounds t* from above") {
  const Pattern A = [] {
    PatternSpec spec;
    spec.L = 128;
    Rng rng(11);
    return make_pattern(spec, rng);
  }();
  Tolerances tol;
  for (int d : {6, 10, 16}) {
    const std::vector<float> K = random_keys(128, d, 12 + d);
    for (int i = 0; i < 128; i += 7) {
      CAPTURE(d);
      CAPTURE(i);
      const LpRow full = solve_row(A, i, K.data(), d, tol);
      const LpRow early = solve_row(A, i, K.data(), d, tol, kDefaultLpBox, true);
      CHECK((early.t > 0) == (full.t > 0));
      CHECK(early.t >= full.t - 1e-8);
      CHECK(early.relaxed == (early.rounds < full.rounds || (early.t <= 0 && early.rounds == full.rounds)));
      CHECK(early.rounds <= full.rounds);
      if (full.t > 0) CHECK((early.t == full.t && !early.relaxed));
    }
  }
}
