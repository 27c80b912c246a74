// The registry of constructions and its one checked request (construction.hpp): it builds what each
// construction's own function builds, refuses what does not apply with every bad field named at once, and the precision
// report's bits(X) is the smallest passing b (checked here with an independent float64 logit sum).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include <attnx/construction.hpp>
#include <attnx/construct_lp.hpp>
#include <attnx/construct_moment.hpp>
#include <attnx/errors.hpp>

#include "helpers.hpp"
#include "requests.hpp"

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
  ConstructionRequest r;
  r.d = 24;
  r.seed = 5;
  r.precision = true;
  const BuiltInputs jl = build_inputs(A, th::checked(r, tol));
  const Construction c = construct(A, th::jl(tol, 24, 5, kDefaultMaxBytes));
  CHECK(same_bits(jl.c.metrics.rho, c.metrics.rho));
  CHECK(same_bits(jl.c.metrics.zeta, c.metrics.zeta));
  REQUIRE(jl.precision);
  const PrecisionReport p = precision_report(A, tol, jl_inputs(A, c.B, 5, 24), 24);
  CHECK(jl.precision->bits == p.bits);
  CHECK(jl.report.empty());
  CHECK(jl.rows.empty());
  r.construction = "lp";
  const BuiltInputs lp = build_inputs(A, th::checked(r, tol));
  const LpConstruction want = construct_lp(A, th::build("lp", tol, 24, 5), {});
  REQUIRE(lp.rows.size() == 2);
  CHECK(lp.rows[0].key == "margin");
  CHECK(lp.rows[0].values == want.lp.margin);
  CHECK(lp.rows[1].values == std::vector<double>(want.lp.iterations.begin(), want.lp.iterations.end()));
  REQUIRE(lp.report.size() == lp_kind().info.report.size());
  CHECK(lp.report[0].field.key == "feasible_rows");
  CHECK(lp.report[0].value == want.lp.feasible_rows);
  CHECK(lp.report[1].value == *std::min_element(want.lp.margin.begin(), want.lp.margin.end()));
  CHECK(same_bits(lp.c.metrics.zeta, want.c.metrics.zeta));
  r.construction = "moment";
  const BuiltInputs m = build_inputs(A, th::checked(r, tol));
  CHECK(m.c.d == 2 * A.k);  // D = 2m, whatever d asked
  REQUIRE(m.rows.size() == 1);
  CHECK(m.rows[0].key == "lambda");
  CHECK(m.rows[0].values == construct_moment(A, tol).lambda);
}

TEST_CASE("check_request and search_min_d refuse what does not apply, naming the field") {
  const Pattern A = random_pattern(32, 2, 1);
  Tolerances tol;
  ConstructionRequest r;
  r.construction = "lpx";
  std::string names;
  for (const std::string& n : construction_names()) names += (names.empty() ? "" : ", ") + n;
  CHECK(refusal_of([&] { build_inputs(A, th::checked(r, tol)); }) ==
        "construction: construction must be one of " + names + " (got \"lpx\")");
  r.construction = "lp";
  r.d = kMaxLpD + 1;
  CHECK(refusal_of([&] { build_inputs(A, th::checked(r, tol)); }) ==
        "d: d must be an integer from 1 to 256 for construction lp (got 257; each row's linear program has d + 2 variables)");
  r.d = 8;
  r.box = 0;
  CHECK(refusal_of([&] { build_inputs(A, th::checked(r, tol)); }).rfind("box: box must be a number in (0,", 0) == 0);
  r.box = 1;
  r.construction = "moment";
  r.mind.projection = ProjectionKind::Rademacher;
  CHECK(refusal_of([&] { check_request(r, Purpose::Build); }).rfind("projection: projection rademacher applies only to construction jl", 0) == 0);
  MinDOptions opt;
  opt.step = 1;
  opt.d_max = 64;
  CHECK(search_min_d(A, th::search("lp", tol, opt, 1)).d_min == min_d_lp(A, th::search("lp", tol, opt, 1), {}).d_min);
  CHECK(search_min_d(A, th::search("jl", tol, opt, 1)).d_min == min_d(A, th::search("jl", tol, opt, 1)).d_min);
  // moment's search is its trial: D = 2m, or not reached
  const MinDResult t = search_min_d(A, th::search("moment", tol, opt, 1));
  CHECK(t.checked == std::vector<int>{2 * A.k});
}

TEST_CASE("check_request reports every bad field in one pass, the first as field()") {
  ConstructionRequest r;
  r.construction = "lp";
  r.tol.eps = -1;
  r.tol.tau = 2;
  r.d = 300;
  r.box = -5;
  try {
    check_request(r, Purpose::Build);
    FAIL("accepted");
  } catch (const InvalidArgument& e) {
    CHECK(e.field() == "eps");
    CHECK(e.fields() == std::vector<std::string>{"eps", "tau", "box", "d"});
    const std::string m = e.what();
    CHECK(m.find("eps must be") == 0);
    CHECK(m.find("; tau must be a number in (0, 1) (got 2)") != std::string::npos);
    CHECK(m.find("; d must be an integer from 1 to 256 for construction lp") != std::string::npos);
    CHECK(m.find("; box must be") != std::string::npos);
  }
  r.construction = "nope";  // an unknown name, and still the other fields
  try {
    check_request(r, Purpose::Search);
    FAIL("accepted");
  } catch (const InvalidArgument& e) {
    CHECK(e.fields() == std::vector<std::string>{"construction", "eps", "tau"});
  }
}

TEST_CASE("a build takes only a Build request and a search only a Search request") {
  const Pattern A = random_pattern(16, 2, 1);
  MinDOptions opt;
  CHECK_THROWS_AS(build_inputs(A, th::search("jl", Tolerances{}, opt, 1)), std::logic_error);
  CHECK_THROWS_AS(search_min_d(A, th::jl(Tolerances{}, 16, 1)), std::logic_error);
  CHECK_THROWS_AS(construct(A, th::build("lp", Tolerances{}, 16, 1)), std::logic_error);
}

TEST_CASE("the registry: one record per name, infos and names in its order, lookups by name") {
  const auto& kinds = constructions();
  const auto& infos = construction_infos();
  REQUIRE(infos.size() == kinds.size());
  REQUIRE(construction_names().size() == kinds.size());
  for (std::size_t n = 0; n < kinds.size(); ++n) {
    CHECK(infos[n].name == construction_names()[n]);
    CHECK(&construction_kind(infos[n].name) == kinds[n]);
    CHECK(static_cast<bool>(kinds[n]->build));
    CHECK(static_cast<bool>(kinds[n]->search));
    CHECK(static_cast<bool>(kinds[n]->bytes));
    CHECK(static_cast<bool>(kinds[n]->dimension));
    CHECK(!kinds[n]->info.kind_of_mark.empty());
  }
  CHECK(construction_names()[0] == kDefaultConstruction);
  CHECK(construction_kind("lp").info.d_max == kMaxLpD);
  CHECK(!construction_kind("moment").info.uses_d);
  CHECK(!construction_kind("moment").info.searchable);
  CHECK_THROWS_AS(construction_kind("JL"), InvalidArgument);
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
  const Construction c = construct(A, th::jl(tol, 400, 3, kDefaultMaxBytes));
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
