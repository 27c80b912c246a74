// Every invalid input is refused with attnx::InvalidArgument naming the field and the range.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include <attnx/construct.hpp>
#include "helpers.hpp"
#include "requests.hpp"
#include <attnx/memory.hpp>
#include <attnx/mind.hpp>
#include <attnx/sweep.hpp>

using attnx::Family;
using attnx::PatternSpec;
using th::contains;
using th::invalid;

namespace {
const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

attnx::InvalidArgument bad_spec(PatternSpec s) {
  return invalid([&] {
    attnx::Rng r(1);
    attnx::make_pattern(s, r);
  });
}

PatternSpec spec(Family f, int L) {
  PatternSpec s;
  s.family = f;
  s.L = L;
  return s;
}

attnx::Pattern small_pattern() {
  attnx::Rng r(1);
  return attnx::make_pattern(spec(Family::Random, 16), r);
}
}  // namespace

TEST_CASE("L must be an integer from 2 to 16384") {
  for (int L : {1, 0, -3, 16385, 1 << 30}) {
    CAPTURE(L);
    auto e = bad_spec(spec(Family::Window, L));
    CHECK(e.field() == "L");
    CHECK(contains(e.what(), "from 2 to 16384"));
    CHECK(contains(e.what(), "(got " + std::to_string(L) + ")"));
  }
  // The bounds themselves are accepted.
  attnx::Rng r(1);
  CHECK_NOTHROW(attnx::make_pattern(spec(Family::Window, 2), r));
  CHECK_NOTHROW(attnx::make_pattern(spec(Family::Permutation, 16384), r));
}

TEST_CASE("k of the random pattern must be from 1 to L") {
  for (int k : {0, -1, 65}) {
    PatternSpec s = spec(Family::Random, 64);
    s.k = k;
    auto e = bad_spec(s);
    CHECK(e.field() == "k");
    CHECK(contains(e.what(), "from 1 to 64"));
  }
  PatternSpec s = spec(Family::Random, 64);
  s.k = 64;
  attnx::Rng r(1);
  CHECK_NOTHROW(attnx::make_pattern(s, r));
}

TEST_CASE("family parameters are range-checked and named (w, r, block, stride, globals, randoms)") {
  struct C { Family f; const char* field; int PatternSpec::*member; int value; const char* range; };
  const C cases[] = {
      {Family::Window, "w", &PatternSpec::w, -1, "from 0 to 31"},
      {Family::Window, "w", &PatternSpec::w, 32, "from 0 to 31"},
      {Family::Causal, "w", &PatternSpec::w, 32, "from 0 to 31"},
      {Family::Dilated, "w", &PatternSpec::w, -2, "from 0 to 31"},
      {Family::Dilated, "r", &PatternSpec::r, 0, "from 1 to 31"},
      {Family::Block, "block", &PatternSpec::block, 0, "from 1 to 32"},
      {Family::Block, "block", &PatternSpec::block, 33, "from 1 to 32"},
      {Family::Strided, "stride", &PatternSpec::stride, 0, "from 1 to 32"},
      {Family::BigBird, "globals", &PatternSpec::globals, 33, "from 0 to 32"},
      {Family::BigBird, "randoms", &PatternSpec::randoms, -1, "from 0 to 31"},
      {Family::BigBird, "w", &PatternSpec::w, 40, "from 0 to 31"},
  };
  for (const C& c : cases) {
    CAPTURE(c.field);
    CAPTURE(c.value);
    PatternSpec s = spec(c.f, 32);
    s.*(c.member) = c.value;
    auto e = bad_spec(s);
    CHECK(e.field() == c.field);
    CHECK(contains(e.what(), c.range));
  }
  // A custom family cannot be generated.
  auto e = bad_spec(spec(Family::Custom, 8));
  CHECK(e.field() == "pattern");
}

TEST_CASE("weight parameters must be finite and in range (0 < w_min <= 1, decay >= 0)") {
  for (double v : {0.0, -0.5, 1.5, kNaN, kInf}) {
    CAPTURE(v);
    PatternSpec s = spec(Family::Window, 16);
    s.weights = attnx::Weights::Random;
    s.w_min = v;
    auto e = bad_spec(s);
    CHECK(e.field() == "wMin");
    CHECK(contains(e.what(), "(0, 1]"));
  }
  for (double v : {-0.1, kNaN, kInf, -kInf}) {
    CAPTURE(v);
    PatternSpec s = spec(Family::Window, 16);
    s.weights = attnx::Weights::Decaying;
    s.decay = v;
    auto e = bad_spec(s);
    CHECK(e.field() == "decay");
  }
}

TEST_CASE("tolerances: eps in [1e-6, 100], tau in (0,1), delta in (0,1), all finite") {
  auto tol_err = [](double eps, double tau, double delta) {
    attnx::Tolerances t;
    t.eps = eps;
    t.tau = tau;
    t.delta = delta;
    return invalid([&] { attnx::validate(t); });
  };
  for (double v : {0.0, -1.0, kNaN, kInf}) {
    CAPTURE(v);
    auto e = tol_err(v, 0.1, 0.1);
    CHECK(e.field() == "eps");
    CHECK(contains(e.what(), "eps must be"));
  }
  for (double v : {0.0, 1.0, 1.5, -0.2, kNaN, kInf}) {
    CAPTURE(v);
    auto e = tol_err(1.0, v, 0.1);
    CHECK(e.field() == "tau");
    CHECK(contains(e.what(), "(0, 1)"));
  }
  auto e = tol_err(1.0, 1.5, 0.1);
  CHECK(std::string(e.what()) == "tau must be a number in (0, 1) (got 1.5)");
  for (double v : {0.0, 1.0, 2.0, kNaN}) {
    CAPTURE(v);
    auto e2 = tol_err(1.0, 0.1, v);
    CHECK(e2.field() == "delta");
    CHECK(contains(e2.what(), "(0, 1)"));
  }
  attnx::Tolerances ok;
  ok.eps = 1e-6;  // the smallest eps (kMinEps)
  ok.tau = 0.999;
  ok.delta = 1e-6;
  CHECK_NOTHROW(attnx::validate(ok));
  // NaN is reported as such.
  CHECK(contains(tol_err(kNaN, 0.1, 0.1).what(), "NaN"));
}

TEST_CASE("min-d options: step >= 1 and step <= d_max <= kMaxD") {
  attnx::MinDOptions o;
  o.step = 0;
  auto e = invalid([&] { attnx::validate(o); });
  CHECK(e.field() == "step");
  CHECK(contains(e.what(), "from 1 to 16384"));
  o.step = 32;
  o.d_max = 16;
  e = invalid([&] { attnx::validate(o); });
  CHECK((e.field() == "dmax" || e.field() == "d_max" || e.field() == "d-max"));
  CHECK(contains(e.what(), "from 32 to 16384"));
  o.d_max = attnx::kMaxD + 1;
  e = invalid([&] { attnx::validate(o); });
  CHECK(contains(e.what(), "16384"));
  o.d_max = 32;
  CHECK_NOTHROW(attnx::validate(o));
  // min_d validates its options and tolerances before doing anything.
  auto A = small_pattern();
  o.step = 0;
  e = invalid([&] { attnx::min_d(A, th::search("jl", attnx::Tolerances{}, o, 1)); });
  CHECK(e.field() == "step");
  attnx::Tolerances t;
  t.tau = 2;
  o.step = 16;
  o.d_max = 64;
  e = invalid([&] { attnx::min_d(A, th::search("jl", t, o, 1)); });
  CHECK(e.field() == "tau");
}

TEST_CASE("construct: d must be an integer from 1 to kMaxD, tolerances are validated") {
  auto A = small_pattern();
  for (int d : {0, -4, attnx::kMaxD + 1}) {
    CAPTURE(d);
    auto e = invalid([&] { attnx::construct(A, th::jl(attnx::Tolerances{}, d, 1, attnx::kDefaultMaxBytes)); });
    CHECK(e.field() == "d");
    CHECK(contains(e.what(), "from 1 to 16384"));
  }
  attnx::Tolerances t;
  t.eps = kNaN;
  auto e = invalid([&] { attnx::construct(A, th::jl(t, 8, 1, attnx::kDefaultMaxBytes)); });
  CHECK(e.field() == "eps");
  CHECK_NOTHROW(attnx::construct(A, th::jl(attnx::Tolerances{}, 1, 1, attnx::kDefaultMaxBytes)));
}

TEST_CASE("sweep options: trials from 1 to 1000, Ls ascending distinct from 2 to 16384, no custom family") {
  attnx::SweepOptions o;
  o.Ls = {16, 32};
  o.trials = 0;
  auto e = invalid([&] { attnx::validate(o); });
  CHECK(e.field() == "trials");
  CHECK(contains(e.what(), "from 1 to 1000"));
  o.trials = 1001;
  CHECK(invalid([&] { attnx::validate(o); }).field() == "trials");
  o.trials = 2;
  for (std::vector<int> Ls : {std::vector<int>{}, std::vector<int>{32, 16}, std::vector<int>{16, 16},
                              std::vector<int>{1, 16}, std::vector<int>{16, 16385}}) {
    o.Ls = Ls;
    CHECK(invalid([&] { attnx::validate(o); }).field() == "Ls");
  }
  o.Ls = {16, 32};
  o.pattern.family = Family::Custom;
  CHECK(invalid([&] { attnx::validate(o); }).field() == "pattern");
  o.pattern.family = Family::Random;
  o.tol.delta = 1.0;
  CHECK(invalid([&] { attnx::validate(o); }).field() == "delta");
  o.tol.delta = 0.1;
  CHECK_NOTHROW(attnx::validate(o));
  attnx::SweepOptions o2 = o;
  o2.trials = 0;
  CHECK(invalid([&] { attnx::sweep(o2); }).field() == "trials");
}

TEST_CASE("custom patterns: errors are InvalidArgument with a field") {
  auto e = invalid([] { attnx::pattern_from_triplets(3, {{0, 0, 1}, {1, 1, -1}, {2, 2, 1}}); });
  CHECK(!e.field().empty());
  e = invalid([] { attnx::pattern_from_triplets(3, {{0, 0, 1}, {2, 2, 1}}); });
  CHECK(!e.field().empty());
  e = invalid([] { attnx::pattern_from_triplets(3, {{0, 0, 1}, {1, 3, 1}, {2, 2, 1}}); });
  CHECK(!e.field().empty());
}

TEST_CASE("a memory estimate above the budget throws BudgetExceeded before allocating") {
  attnx::Rng r(1);
  auto A = attnx::make_pattern(spec(Family::Permutation, 16384), r);
  std::string msg;
  try {
    attnx::build_inputs(A, th::jl(attnx::Tolerances{}, 16, 1, 1u << 20));
    FAIL_CHECK("build_inputs did not throw");
  } catch (const attnx::BudgetExceeded& ex) {
    msg = ex.what();
  }
  CHECK(contains(msg, "MiB"));
  CHECK(contains(msg, "budget"));
  attnx::MinDOptions o;
  o.max_bytes = 1u << 20;
  CHECK_THROWS_AS(attnx::search_min_d(A, th::search("jl", attnx::Tolerances{}, o, 1)), attnx::BudgetExceeded);
  // The budget check itself.
  CHECK_THROWS_AS(attnx::check_budget("x", 2u << 20, 1u << 20), attnx::BudgetExceeded);
  CHECK_NOTHROW(attnx::check_budget("x", 1u << 20, 1u << 20));
  CHECK(attnx::estimate_construct_bytes(16384, 16) > (1ull << 20));
  // A sweep over a too-large L is refused the same way.
  attnx::SweepOptions so;
  so.Ls = {16384};
  so.trials = 1;
  so.pattern.family = Family::Permutation;
  so.mind.max_bytes = 1u << 20;
  CHECK_THROWS_AS(attnx::sweep(so), attnx::BudgetExceeded);
}
