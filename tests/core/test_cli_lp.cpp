// `attnx construct|mind --construction lp` (SPEC §8.2): the export's X and weights give the
// reported metrics when recomputed in double; the reported margins say which rows the LP makes
// feasible; mind's d_min is the core's min_d_lp.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "cli_run.hpp"
#include "helpers.hpp"
#include "requests.hpp"
#include <attnx/construct_lp.hpp>
#include <attnx/json.hpp>
#include <attnx/pattern_io.hpp>
#include <attnx/rng.hpp>

using cli_test::run_cli;
using cli_test::slurp;
using cli_test::TempDir;

namespace {
}  // namespace

TEST_CASE("construct --construction lp: the export recomputes to the reported metrics, margins included") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string path = dir.file("lp.json");
  const auto r = run_cli({"construct", "--L", "40", "--k", "2", "--d", "10", "--seed", "4",
                          "--construction", "lp", "--export", path});
  REQUIRE(r.status == 0);
  const attnx::JsonValue out = attnx::json_parse(r.out);
  CHECK(out.find("params")->find("construction")->str == "lp");
  CHECK(out.find("params")->find("box")->num == 1000);
  const std::string text = slurp(path);
  const attnx::JsonValue e = attnx::json_parse(text);
  const int d = 10;
  const th::MatD X = th::matrix_of(*e.find("X"));
  REQUIRE(X.cols() == 2 * d);
  const th::MatD Z = X.leftCols(d) * X.rightCols(d).transpose() / std::sqrt(double(d));
  const attnx::Pattern A = attnx::parse_pattern_text(text, -1);
  const th::RefMetrics ref = th::ref_metrics(A, Z);
  const attnx::JsonValue* m = e.find("metrics");
  CHECK(std::abs(m->find("rho")->num - ref.rho) < 1e-4);  // float32 logits against double
  CHECK(m->find("zeta")->num == doctest::Approx(ref.zeta).epsilon(1e-3));
  const attnx::JsonValue* margins = e.find("margins");
  REQUIRE(margins->arr.size() == 40u);
  int feasible = 0;
  for (const auto& t : margins->arr) feasible += t.num > 0;
  CHECK(e.find("lp")->find("feasible_rows")->num == feasible);
  CHECK(m->find("success")->b == (feasible == 40));
}

TEST_CASE("mind --construction lp gives the core's min_d_lp and far less than jl") {
  if (!cli_test::cli_available()) return;
  const auto lp = run_cli({"mind", "--L", "64", "--k", "2", "--seed", "3", "--construction", "lp", "--step", "1", "--dmax", "256"});
  const auto jl = run_cli({"mind", "--L", "64", "--k", "2", "--seed", "3"});
  REQUIRE((lp.status == 0 && jl.status == 0));
  attnx::PatternSpec s;
  s.L = 64;
  attnx::Rng rng(attnx::pattern_seed(3));
  const attnx::Pattern A = attnx::make_pattern(s, rng);
  attnx::MinDOptions o;
  o.step = 1;
  o.d_max = 256;
  const int want = attnx::min_d_lp(A, th::search("lp", attnx::Tolerances{}, o, 3), {}).d_min;
  CHECK(attnx::json_parse(lp.out).find("d_min")->num == want);
  CHECK(attnx::json_parse(jl.out).find("d_min")->num > 4 * want);
}

TEST_CASE("construct --construction moment: D = 2k, the export recomputes to the reported metrics") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string path = dir.file("moment.json");
  const auto r = run_cli({"construct", "--L", "16", "--k", "2", "--seed", "2", "--construction", "moment", "--export", path});
  REQUIRE(r.status == 0);
  const attnx::JsonValue out = attnx::json_parse(r.out);
  CHECK(out.find("params")->find("d")->num == 4);
  CHECK(out.find("precision")->find("fp64")->b);
  const std::string text = slurp(path);
  const attnx::JsonValue e = attnx::json_parse(text);
  const th::MatD X = th::matrix_of(*e.find("X"));
  REQUIRE(X.cols() == 8);
  const th::MatD Z = X.leftCols(4) * X.rightCols(4).transpose() / 2.0;
  const th::RefMetrics ref = th::ref_metrics(attnx::parse_pattern_text(text, -1), Z);
  const attnx::JsonValue* m = e.find("metrics");
  CHECK(std::abs(m->find("rho")->num - ref.rho) < 1e-3 * (1 + ref.rho));
  CHECK(m->find("zeta")->num == doctest::Approx(ref.zeta).epsilon(1e-3));
  CHECK(m->find("success")->b == (ref.rho <= 1 && ref.zeta <= 0.1));
}
