// The dense interior-point LP solver (core/lp.cpp) and the rows of SPEC §8.2 (core/lp_rows.cpp):
// hand-solved problems; SciPy's HiGHS checks larger ones (tests/python/lp_highs.py).
#include <doctest/doctest.h>

#include <cmath>

#include <attnx/errors.hpp>
#include <attnx/lp.hpp>
#include <attnx/lp_rows.hpp>

using namespace attnx;

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

TEST_CASE("lp: a face of optima has the optimal value; mismatched sizes are refused") {
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
