// The `lp` construction of SPEC §8.2: same keys as §3, queries from the row LPs, judged by §2 on
// the X it built; its minimal d by doubling and bisection.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <thread>

#include <attnx/construct_lp.hpp>
#include <attnx/pattern.hpp>
#include <attnx/rng.hpp>

#include "helpers.hpp"
#include "requests.hpp"

using namespace attnx;

using th::random_pattern;

TEST_CASE("lp: the keys are the paper construction's, the logits are Q K^T / sqrt(d) of the built X") {
  const Pattern A = random_pattern(48, 2, 3);
  Tolerances tol;
  const int d = 24;
  const LpConstruction r = construct_lp(A, th::build("lp", tol, d, 3), {});
  const Construction jl = construct(A, th::jl(tol, d, 3, kDefaultMaxBytes));
  const std::size_t dd = d;
  for (int i = 0; i < A.L; ++i)
    for (std::size_t t = 0; t < dd; ++t) REQUIRE(r.c.X[i * 2 * dd + dd + t] == jl.X[i * 2 * dd + dd + t]);
  for (int i : {0, 17, 47})
    for (int j : {0, 5, 47}) {
      double s = 0;
      for (std::size_t t = 0; t < dd; ++t) s += double(r.c.X[i * 2 * dd + t]) * double(r.c.X[j * 2 * dd + dd + t]);
      CHECK(r.c.logits[i * 48 + j] == doctest::Approx(s / std::sqrt(double(d))).epsilon(1e-6));
    }
  CHECK(r.lp.all_converged);
  CHECK(r.lp.iterations[0] > 0);
}

TEST_CASE("lp: a row with a positive margin passes (R) and (Z) on the built X, success iff all rows do") {
  const Pattern A = random_pattern(64, 2, 5);
  Tolerances tol;
  for (int d : {8, 16, 32}) {
    const LpConstruction r = construct_lp(A, th::build("lp", tol, d, 5), {});
    bool all = true;
    for (int i = 0; i < A.L; ++i) {
      if (r.lp.margin[i] > 1e-4) CHECK((r.c.rows.ok_r[i] && r.c.rows.ok_z[i]));
      if (r.lp.margin[i] > 1e-4) CHECK(r.c.rows.rho[i] <= tol.eps - 2 * r.lp.margin[i] + 1e-4);
      all = all && r.lp.margin[i] > 0;
    }
    CHECK(r.lp.feasible_rows == int(std::count_if(r.lp.margin.begin(), r.lp.margin.end(), [](double t) { return t > 0; })));
    CHECK(r.c.metrics.success == all);
  }
}

TEST_CASE("lp: minimal d is monotone on the grid and far below the paper construction's") {
  const Pattern A = random_pattern(64, 2, 2);
  Tolerances tol;
  MinDOptions o;
  o.step = 1;
  o.d_max = 256;
  const MinDResult r = min_d_lp(A, th::search("lp", tol, o, 2), {});
  REQUIRE(r.reached());
  CHECK(lp_succeeds(A, tol, r.d_min, 2, kDefaultLpBox));
  // The grid is tried in ascending order (issue 47): checked is 1..d_min, and every point below
  // d_min fails (not only d_min - 1, as a bisection would assume from monotonicity).
  std::vector<int> grid;
  for (int d = 1; d <= r.d_min; ++d) grid.push_back(d);
  CHECK(r.checked == grid);
  for (int d = 1; d < r.d_min; ++d) CHECK_FALSE(lp_succeeds(A, tol, d, 2, kDefaultLpBox));
  CHECK(r.d_min >= 6);
  CHECK(r.d_min <= 40);  // SPEC §8.2: median about 15-16 at L = 64 (jl: about 600)
  MinDOptions jl_opt;
  CHECK(min_d(A, th::search("jl", tol, jl_opt, 2)).d_min > 4 * r.d_min);
  o.d_max = r.d_min - 1;
  CHECK_FALSE(min_d_lp(A, th::search("lp", tol, o, 2), {}).reached());
}

TEST_CASE("lp: rows run in any order (threads) give the same construction and the same minimal d") {
  const Pattern A = random_pattern(40, 2, 7);
  Tolerances tol;
  // Reversed order on the calling thread, then 3 threads interleaving rows.
  ForEachRow reversed = [](int n, const std::function<void(int)>& body) {
    for (int i = n - 1; i >= 0; --i) body(i);
  };
  ForEachRow threaded = [](int n, const std::function<void(int)>& body) {
    std::vector<std::thread> ts;
    for (int w = 0; w < 3; ++w) ts.emplace_back([&, w] { for (int i = w; i < n; i += 3) body(i); });
    for (auto& t : ts) t.join();
  };
  const LpConstruction a = construct_lp(A, th::build("lp", tol, 12, 7), {});
  for (const ForEachRow& f : {reversed, threaded}) {
    const LpConstruction b = construct_lp(A, th::build("lp", tol, 12, 7, kDefaultLpBox, kDefaultMaxBytes), {nullptr, nullptr, true, f});
    CHECK(b.c.X == a.c.X);
    CHECK(b.lp.margin == a.lp.margin);
    CHECK(b.c.metrics.success == a.c.metrics.success);
  }
  MinDOptions o;
  o.step = 1;
  o.d_max = 128;
  CHECK(min_d_lp(A, th::search("lp", tol, o, 7, kDefaultLpBox), {nullptr, nullptr, true, threaded}).d_min == min_d_lp(A, th::search("lp", tol, o, 7), {}).d_min);
}

TEST_CASE("lp: lp_succeeds (rows stopped early on t <= 0) agrees with the complete construction") {
  const Pattern A = random_pattern(96, 2, 9);
  Tolerances tol;
  int successes = 0;
  for (int d = 4; d <= 28; d += 3) {
    CAPTURE(d);
    const LpConstruction r = construct_lp(A, th::build("lp", tol, d, 9), {});
    CHECK(r.lp.all_converged);
    const bool complete = r.c.metrics.success && r.lp.feasible_rows == A.L;
    CHECK(lp_succeeds(A, tol, d, 9, kDefaultLpBox) == complete);
    successes += complete;
  }
  CHECK(successes >= 1);
  CHECK(successes <= 7);
}
