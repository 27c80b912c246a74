// attnx bench --scaling and attnx sweep --dry-run: timings per L with a fitted model, and a
// prediction of a sweep's core-hours (per L, every trial, the wall time on --threads threads)
// whose parts add up; the pilot runs lengths up to 1024 only.
#include <doctest/doctest.h>

#include <cmath>

#include "cli_run.hpp"
#include <attnx/json.hpp>
#include <attnx/sweep_cost.hpp>

using cli_test::run_cli;

TEST_CASE("bench --scaling reports one timed trial per L and the fitted exponent") {
  if (!cli_test::cli_available()) return;
  const auto r = run_cli({"bench", "--scaling", "--Ls", "64,128,256"});
  REQUIRE(r.status == 0);
  const attnx::JsonValue j = attnx::json_parse(r.out);
  REQUIRE(j.find("trials")->arr.size() == 3u);
  for (const auto& t : j.find("trials")->arr) CHECK(t.find("seconds")->num > 0);
  const attnx::JsonValue* m = j.find("model");
  CHECK(m->find("ok")->b);
  const double p = m->find("p")->num;
  CHECK((m->find("anchored")->b ? p == 1 : p >= attnx::kCostMinP && p <= attnx::kCostMaxP));
  CHECK(run_cli({"bench", "--scaling", "--format", "csv"}).status != 0);
}

TEST_CASE("sweep --dry-run predicts per L and in total without running the sweep") {
  if (!cli_test::cli_available()) return;
  const auto r = run_cli({"sweep", "--Ls", "64,128,256,4096,16384", "--trials", "100", "--dry-run", "--threads", "4"});
  REQUIRE(r.status == 0);
  const attnx::JsonValue j = attnx::json_parse(r.out);
  CHECK(j.find("dry_run")->b);
  const auto& pilot = j.find("pilot")->find("trials")->arr;
  REQUIRE(pilot.size() == 3u);  // 64, 128, 256: the lengths up to 1024
  const auto& pred = j.find("predicted")->arr;
  REQUIRE(pred.size() == 5u);
  double sum = 0;
  for (const auto& p : pred) {
    CHECK(p.find("seconds")->num == doctest::Approx(100 * p.find("seconds_per_trial")->num));
    sum += p.find("seconds")->num;
  }
  CHECK(pred[4].find("seconds_per_trial")->num > pred[3].find("seconds_per_trial")->num);
  // The progress model: each L's work per trial is L^2 ln L (the weights of --progress and the lab).
  for (const auto& p : pred) {
    const double L = p.find("L")->num;
    CHECK(p.find("work_per_trial")->num == doctest::Approx(L * L * std::log(L)).epsilon(1e-15));
  }
  CHECK(j.find("progress")->find("eta_min_fraction")->num == 0.01);
  CHECK(j.find("progress")->find("eta_min_seconds")->num == 0.3);
  CHECK(j.find("core_hours")->num == doctest::Approx(sum / 3600));
  CHECK(j.find("wall_hours")->num == doctest::Approx(sum / 3600 / 4));
}

TEST_CASE("sweep --dry-run with one length predicts from it, saying so, never a silent zero") {
  if (!cli_test::cli_available()) return;
  const auto r = run_cli({"sweep", "--Ls", "64", "--trials", "3", "--dry-run"});
  REQUIRE(r.status == 0);
  const attnx::JsonValue j = attnx::json_parse(r.out);
  const attnx::JsonValue* m = j.find("model");
  CHECK(m->find("ok")->b);
  CHECK(m->find("anchored")->b);
  CHECK(m->find("p")->num == 1);
  CHECK(j.find("predicted")->arr.at(0).find("seconds_per_trial")->num > 0);
  CHECK(j.find("core_hours")->num > 0);
  CHECK(j.find("note")->str.find("one length timed: p = 1 from it") != std::string::npos);
}
