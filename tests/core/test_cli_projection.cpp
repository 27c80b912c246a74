// attnx construct / mind / sweep --projection (SPEC §8.1): the kind reaches the core, outputs
// carry "projection" only when it is not gaussian, other constructions refuse it, and a sweep with
// a kind prints the same bytes on any number of threads and when sharded and merged.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli_run.hpp"
#include "helpers.hpp"
#include "requests.hpp"
#include <attnx/json.hpp>
#include <attnx/mind.hpp>
#include <attnx/sweep.hpp>
#include <attnx/sweep_io.hpp>

using cli_test::run_cli;

namespace {

const attnx::JsonValue* param(const attnx::JsonValue& j, const char* key) {
  return j.find("params")->find(key);
}

}  // namespace

TEST_CASE("construct --projection reaches the core and is written only when not gaussian") {
  if (!cli_test::cli_available()) return;
  const auto plain = run_cli({"construct", "--L", "48", "--d", "40", "--seed", "3"});
  const auto gauss = run_cli({"construct", "--L", "48", "--d", "40", "--seed", "3", "--projection", "gaussian"});
  REQUIRE(plain.status == 0);
  CHECK(gauss.out == plain.out);
  CHECK(plain.out.find("projection") == std::string::npos);
  const auto A = th::random_pattern(48, 2, 3);
  for (auto k : {attnx::ProjectionKind::Rademacher, attnx::ProjectionKind::OrthogonalUnit}) {
    const std::string name = attnx::projection_name(k);
    const auto r = run_cli({"construct", "--L", "48", "--d", "40", "--seed", "3", "--projection", name});
    REQUIRE(r.status == 0);
    const attnx::JsonValue j = attnx::json_parse(r.out);
    CHECK(param(j, "projection")->str == name);
    const auto c = attnx::construct(A, th::jl(attnx::Tolerances{}, 40, 3, attnx::kDefaultMaxBytes, k));
    CHECK(j.find("metrics")->find("rho")->num == c.metrics.rho);
    CHECK(j.find("metrics")->find("zeta")->num == c.metrics.zeta);
  }
}

TEST_CASE("construct --projection gaussian-unit --export writes the kind and X's unit rows") {
  if (!cli_test::cli_available()) return;
  cli_test::TempDir dir;
  const std::string f = dir.file("u.json");
  const auto r = run_cli({"construct", "--L", "32", "--d", "24", "--projection", "gaussian-unit", "--export", f});
  REQUIRE(r.status == 0);
  const attnx::JsonValue e = attnx::json_parse(cli_test::slurp(f));
  CHECK(param(e, "projection")->str == "gaussian-unit");
  const th::MatD X = th::matrix_of(*e.find("X"));
  for (int i = 0; i < 32; ++i) CHECK(X.row(i).tail(24).norm() == doctest::Approx(1.0).epsilon(1e-6));
}

TEST_CASE("--projection other than gaussian is refused for lp and moment, naming both flags") {
  if (!cli_test::cli_available()) return;
  const std::vector<std::vector<std::string>> runs = {
      {"construct", "--construction", "lp", "--projection", "rademacher"},
      {"construct", "--construction", "moment", "--projection", "orthogonal"},
      {"mind", "--construction", "lp", "--projection", "gaussian-unit"},
      {"mind", "--construction", "moment", "--projection", "orthogonal-unit"},
      {"sweep", "--construction", "lp", "--projection", "orthogonal", "--Ls", "16"}};
  for (const auto& args : runs) {
    const auto r = run_cli(args);
    cli_test::check_refused(r);
    CHECK_MESSAGE(r.err.find("--projection " + args[4] + " applies only to --construction jl (got --construction " +
                             args[2]) != std::string::npos, r.err);
  }
  cli_test::check_refused(run_cli({"mind", "--projection", "sparse"}));
  // Given, even the gaussian kind (lp's keys) is a value for a field that does not apply (issue 27).
  const auto given = run_cli({"construct", "--construction", "lp", "--projection", "gaussian", "--L", "16", "--d", "8"});
  cli_test::check_refused(given);
  CHECK(given.err.find("--projection gaussian applies only to --construction jl (got --construction lp") != std::string::npos);
  CHECK(run_cli({"construct", "--construction", "lp", "--L", "16", "--d", "8"}).status == 0);
}

TEST_CASE("mind --projection finds the core's min_d with that kind") {
  if (!cli_test::cli_available()) return;
  const auto r = run_cli({"mind", "--L", "64", "--seed", "6", "--step", "8", "--projection", "orthogonal"});
  REQUIRE(r.status == 0);
  const attnx::JsonValue j = attnx::json_parse(r.out);
  CHECK(param(j, "projection")->str == "orthogonal");
  attnx::MinDOptions o;
  o.step = 8;
  o.projection = attnx::ProjectionKind::Orthogonal;
  CHECK(j.find("d_min")->num == attnx::min_d(th::random_pattern(64, 2, 6), th::search("jl", attnx::Tolerances{}, o, 6)).d_min);
}

TEST_CASE("sweep --projection: params carry it, threads and shards print the same bytes, files read back") {
  if (!cli_test::cli_available()) return;
  const std::vector<std::string> flags = {"--Ls", "16,32,48", "--trials", "3", "--seed", "4", "--projection", "gaussian-unit"};
  auto sweep = [&](const std::vector<std::string>& extra) { return cli_test::run_cli_with("sweep", flags, extra); };
  const auto one = sweep({"--threads", "1"});
  REQUIRE(one.status == 0);
  attnx::SweepOptions o;
  o.Ls = {16, 32, 48};
  o.trials = 3;
  o.seed = 4;
  o.mind.max_bytes = 8589934592ull;  // the CLI's default budget
  o.mind.projection = attnx::ProjectionKind::GaussianUnit;
  CHECK(one.out == attnx::sweep_to_json(attnx::sweep_record(o, attnx::sweep(o))));
  CHECK(param(attnx::json_parse(one.out), "projection")->str == "gaussian-unit");
  CHECK(sweep({"--threads", "3"}).out == one.out);
  cli_test::TempDir dir;
  std::vector<std::string> merge = {"merge"};
  for (int i = 0; i < 2; ++i) {
    const std::string f = dir.file("p" + std::to_string(i) + ".json");
    cli_test::spit(f, sweep({"--shard", std::to_string(i) + "/2"}).out);
    merge.push_back(f);
  }
  CHECK(run_cli(merge).out == one.out);
  CHECK(attnx::parse_sweep(one.out).params.projection == std::string("gaussian-unit"));
  CHECK(!attnx::parse_sweep(run_cli({"sweep", "--Ls", "16", "--trials", "2"}).out).params.projection);
  CHECK(th::invalid([&] {
          std::string bad = one.out;
          bad.replace(bad.find("\"gaussian-unit\""), 15, "\"sparse\"");
          attnx::parse_sweep(bad);
        }).what() == std::string("params.projection must be one of gaussian, rademacher, gaussian-unit, orthogonal, "
                                 "orthogonal-unit (got \"sparse\")"));
}

TEST_CASE("a sweep of lp with a projection other than gaussian is refused by the core") {
  attnx::SweepOptions o;
  o.Ls = {16};
  o.construction = "lp";
  o.mind.projection = attnx::ProjectionKind::Orthogonal;
  const auto e = th::invalid([&] { attnx::validate(o); });
  CHECK(e.field() == "projection");
  CHECK(th::contains(e.what(), "applies only to construction jl"));
}
