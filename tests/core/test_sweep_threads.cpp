// attnx sweep --threads N: the (L, trial) tasks run on N threads and the output is byte-identical
// to one thread and to the core's sequential sweep(), for several families and N; merge_trials
// rebuilds sweep_point from single trials; progress stays monotone.
#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include <attnx/sweep.hpp>
#include <attnx/sweep_io.hpp>

using cli_test::run_cli;

TEST_CASE("merge_trials of single trials equals sweep_point over them, field for field") {
  attnx::SweepOptions opt;
  opt.pattern.weights = attnx::Weights::Random;
  opt.Ls = {32};
  opt.trials = 5;
  opt.seed = 11;
  const attnx::SweepPoint whole = attnx::sweep_point(opt, 32);
  std::vector<attnx::SweepPoint> parts;
  for (int t = 0; t < 5; ++t) parts.push_back(attnx::sweep_trial(opt, 32, t));
  const attnx::SweepPoint merged = attnx::merge_trials(opt, 32, parts);
  CHECK(merged.d_mins == whole.d_mins);
  CHECK(merged.d_star == whole.d_star);
  CHECK(merged.median == whole.median);
  CHECK(merged.quantile == whole.quantile);
  CHECK(merged.k == whole.k);
  CHECK(merged.max_col_count == whole.max_col_count);
  CHECK(merged.in_class == whole.in_class);
  CHECK(merged.madds == whole.madds);
}

TEST_CASE("sweep --threads 1, 2, 3, 5 print the same bytes as the core's sequential sweep") {
  if (!cli_test::cli_available()) return;
  struct Case { std::vector<std::string> flags; attnx::SweepOptions opt; };
  std::vector<Case> cases(3);
  cases[0].flags = {"--Ls", "16,32,48", "--trials", "4", "--seed", "3"};
  cases[0].opt.Ls = {16, 32, 48};
  cases[0].opt.trials = 4;
  cases[0].opt.seed = 3;
  cases[1].flags = {"--pattern", "window", "--w", "2", "--Ls", "16,64", "--trials", "3", "--seed", "8", "--format", "csv"};
  cases[1].opt.pattern.family = attnx::Family::Window;
  cases[1].opt.pattern.w = 2;
  cases[1].opt.Ls = {16, 64};
  cases[1].opt.trials = 3;
  cases[1].opt.seed = 8;
  cases[2].flags = {"--pattern", "bigbird", "--Ls", "32,64", "--trials", "3", "--dmax", "256", "--seed", "2"};
  cases[2].opt.pattern.family = attnx::Family::BigBird;
  cases[2].opt.Ls = {32, 64};
  cases[2].opt.trials = 3;
  cases[2].opt.mind.d_max = 256;
  cases[2].opt.seed = 2;
  for (auto& c : cases) {
    c.opt.mind.max_bytes = 8589934592ull;  // the CLI's default budget (schema context "cli")
    const bool csv = c.flags.back() == "csv";
    const attnx::SweepRecord rec = attnx::sweep_record(c.opt, attnx::sweep(c.opt));
    const std::string want = csv ? attnx::sweep_to_csv(rec) : attnx::sweep_to_json(rec);
    for (const char* n : {"1", "2", "3", "5"}) {
      std::vector<std::string> args = {"sweep", "--threads", n};
      args.insert(args.end(), c.flags.begin(), c.flags.end());
      const auto r = run_cli(args);
      REQUIRE(r.status == 0);
      CHECK_MESSAGE(r.out == want, "threads " << n << " for " << c.flags[1]);
    }
  }
}

TEST_CASE("sweep --progress with threads reports monotone fractions ending at 100 %") {
  if (!cli_test::cli_available()) return;
  const auto r = run_cli({"sweep", "--Ls", "16,32", "--trials", "6", "--threads", "3", "--progress"});
  REQUIRE(r.status == 0);
  std::vector<int> pct;
  std::istringstream in(r.err);
  for (std::string tok; in >> tok;)
    if (!tok.empty() && tok.back() == '%') pct.push_back(std::stoi(tok));
  REQUIRE(!pct.empty());
  for (std::size_t i = 1; i < pct.size(); ++i) CHECK(pct[i] >= pct[i - 1]);
  CHECK(pct.back() == 100);
}
