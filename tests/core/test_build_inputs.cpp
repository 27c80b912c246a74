// One entry point for every construction (build_inputs.hpp): it builds what each construction's
// own function builds, refuses what does not apply with the field named, and the precision
// report's bits(X) is the smallest passing b (checked here with an independent float64 logit sum).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include <attnx/build_inputs.hpp>
#include <attnx/construct_moment.hpp>
#include <attnx/errors.hpp>

#include "helpers.hpp"

using namespace attnx;
using th::random_pattern;

namespace {

std::string refusal_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InvalidArgument& e) {
    return e.field() + ": " + e.what();
  }
  return "accepted";
}

using th::same_bits;

// SPEC §2 on X rounded to b bits, logits summed in double in plain order (not the core's code).
bool passes_at_bits(const Pattern& A, const Tolerances& tol, const std::vector<double>& X, int D, int b) {
  const std::size_t w = 2 * static_cast<std::size_t>(D);
  for (int i = 0; i < A.L; ++i) {
    std::vector<double> z(A.L);
    for (int j = 0; j < A.L; ++j) {
      double s = 0;
      for (int t = 0; t < D; ++t) s += round_to_bits(X[i * w + t], b) * round_to_bits(X[j * w + D + t], b);
      z[j] = s / std::sqrt(double(D));
    }
    double lo = 1e300, hi = -1e300, zmin = 1e300, off = -1e300;
    std::vector<bool> on(A.L, false);
    for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
      const double r = z[A.col[e]] - std::log(A.val[e]);
      lo = std::min(lo, r);
      hi = std::max(hi, r);
      zmin = std::min(zmin, z[A.col[e]]);
      on[A.col[e]] = true;
    }
    for (int j = 0; j < A.L; ++j)
      if (!on[j]) off = std::max(off, z[j]);
    if (hi - lo > tol.eps || std::exp(off - zmin) > tol.tau) return false;
  }
  return true;
}

}  // namespace

TEST_CASE("build_inputs builds what each construction's own function builds") {
  const Pattern A = random_pattern(48, 2, 3);
  Tolerances tol;
  InputsRequest r;
  r.d = 24;
  r.seed = 5;
  r.jl_precision = true;
  const BuiltInputs jl = build_inputs(A, tol, r);
  const Construction c = construct(A, tol, 24, 5, kDefaultMaxBytes);
  CHECK(same_bits(jl.c.metrics.rho, c.metrics.rho));
  CHECK(same_bits(jl.c.metrics.zeta, c.metrics.zeta));
  REQUIRE(jl.precision);
  const PrecisionReport p = precision_report(A, tol, jl_inputs(A, c.B, 5, 24), 24);
  CHECK(jl.precision->bits == p.bits);
  CHECK(!jl.lp);
  r.construction = "lp";
  const BuiltInputs lp = build_inputs(A, tol, r);
  const LpConstruction want = construct_lp(A, tol, 24, 5);
  REQUIRE(lp.lp);
  CHECK(lp.lp->margin == want.lp.margin);
  CHECK(same_bits(lp.c.metrics.zeta, want.c.metrics.zeta));
  r.construction = "moment";
  const BuiltInputs m = build_inputs(A, tol, r);
  CHECK(m.c.d == 2 * A.k);  // D = 2m, whatever d asked
  CHECK(m.moment_lambda.size() == std::size_t(A.L));
  CHECK(m.moment_lambda == construct_moment(A, tol).lambda);
}

TEST_CASE("build_inputs and min_d_of refuse what does not apply, naming the field") {
  const Pattern A = random_pattern(32, 2, 1);
  Tolerances tol;
  InputsRequest r;
  r.construction = "lpx";
  CHECK(refusal_of([&] { build_inputs(A, tol, r); }) ==
        "construction: construction must be one of jl, lp, moment (got \"lpx\")");
  r.construction = "lp";
  r.d = kMaxLpD + 1;
  CHECK(refusal_of([&] { build_inputs(A, tol, r); }) ==
        "d: d must be an integer from 1 to 256 for construction lp (got 257; each row's linear program has d + 2 variables)");
  r.d = 8;
  r.box = 0;
  CHECK(refusal_of([&] { build_inputs(A, tol, r); }).rfind("box: box must be a number in (0,", 0) == 0);
  MinDOptions opt;
  CHECK(refusal_of([&] { min_d_of("moment", A, tol, opt, 1); }).rfind("construction: construction moment has one hidden size", 0) == 0);
  opt.step = 1;
  opt.d_max = 64;
  CHECK(min_d_of("lp", A, tol, opt, 1).d_min == min_d_lp(A, tol, opt, 1).d_min);
  CHECK(min_d_of("jl", A, tol, opt, 1).d_min == min_d(A, tol, opt, 1).d_min);
}

TEST_CASE("the constructions' page facts follow the option's names") {
  const auto& infos = construction_infos();
  REQUIRE(infos.size() == construction_names().size());
  for (std::size_t n = 0; n < infos.size(); ++n) CHECK(infos[n].name == construction_names()[n]);
  CHECK(infos[1].d_max == kMaxLpD);
  CHECK(!infos[2].uses_d);
  CHECK(!infos[2].searchable);
}

TEST_CASE("bits(X) is the smallest b that passes: b passes and b - 1 fails (independent sums)") {
  Tolerances tol;
  for (int L : {16, 48}) {
    const Pattern A = random_pattern(L, 2, 2);
    int D = 0;
    const std::vector<double> X = moment_inputs(A, tol, &D);
    const PrecisionReport p = precision_report(A, tol, X, D);
    REQUIRE(p.fp64);
    REQUIRE(p.bits >= 3);
    CHECK(passes_at_bits(A, tol, X, D, p.bits));
    CHECK(!passes_at_bits(A, tol, X, D, p.bits - 1));
  }
  const Pattern A = random_pattern(40, 2, 4);
  const Construction c = construct(A, tol, 400, 3, kDefaultMaxBytes);
  const std::vector<double> X = jl_inputs(A, c.B, 3, 400);
  const PrecisionReport p = precision_report(A, tol, X, 400);
  if (p.fp64 && p.bits > 2) {
    CHECK(passes_at_bits(A, tol, X, 400, p.bits));
    CHECK(!passes_at_bits(A, tol, X, 400, p.bits - 1));
  }
  CHECK(p.fp64 == c.metrics.success);
}

TEST_CASE("evaluate_inputs' logits are each dot product of the float X summed in order (blocked keys, same bits)") {
  // L = 70 (a block of 64 keys and 6 more), D = 5, signs mixed so that some logits are -0.
  Tolerances tol;
  const Pattern A = random_pattern(70, 2, 5);
  const int L = 70, D = 5;
  std::vector<double> X(std::size_t(L) * 2 * D);
  for (std::size_t n = 0; n < X.size(); ++n) X[n] = std::sin(0.37 * double(n) + 1) * (n % 7 == 0 ? 0 : 3);
  for (int t = 0; t < D; ++t) X[std::size_t(3 * 2 * D + t)] = 0;  // row 3's query is zero: -0 * ... sums
  X[std::size_t(3 * 2 * D)] = -0.0;
  const Construction c = evaluate_inputs(A, tol, X, D);
  int bad = 0;
  for (int i = 0; i < L; ++i)
    for (int j = 0; j < L; ++j) {
      double s = 0;  // the plain loop, in the float X's values
      for (int t = 0; t < D; ++t) s += double(float(X[std::size_t(i * 2 * D + t)])) * double(float(X[std::size_t(j * 2 * D + D + t)]));
      const float want = static_cast<float>((s + 0.0) * (1.0 / std::sqrt(double(D))));
      if (!same_bits(c.logits[std::size_t(i * L + j)], want) && ++bad <= 3) FAIL_CHECK(i << ", " << j);
    }
  CHECK(bad == 0);
}
