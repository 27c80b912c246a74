// A sweep split into shards and merged: every (L, trial) task in exactly one shard, loads
// balanced by cost, parts read back exactly, and `attnx merge` of the parts prints the unsharded
// sweep's bytes; parts of another sweep, repeated and missing shards are named.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "cli_run.hpp"
#include <attnx/construct_moment.hpp>
#include <attnx/errors.hpp>
#include <attnx/sweep_shard.hpp>
#include <attnx/construct_lp.hpp>
#include <attnx/json.hpp>
#include <attnx/pattern.hpp>
#include <attnx/rng.hpp>
#include "requests.hpp"

using cli_test::run_cli;
using cli_test::spit;
using cli_test::TempDir;

namespace {
attnx::SweepOptions options() {
  attnx::SweepOptions o;
  o.Ls = {16, 32, 64, 128};
  o.trials = 6;
  o.seed = 9;
  return o;
}
}  // namespace

TEST_CASE("shards cover every task once and balance the estimated cost") {
  const attnx::SweepOptions o = options();
  for (int n : {1, 2, 3, 5, 24}) {
    std::set<std::pair<int, int>> seen;
    std::vector<double> load;
    for (int i = 0; i < n; ++i) {
      double sum = 0;
      for (const auto& t : attnx::shard_tasks(o, i, n)) {
        CHECK(seen.insert({t.L, t.trial}).second);
        sum += double(t.L) * t.L * std::log(double(t.L));
      }
      load.push_back(sum);
    }
    CHECK(seen.size() == 24u);
    const double biggest = 128.0 * 128 * std::log(128.0);  // one task of the largest L
    CHECK(*std::max_element(load.begin(), load.end()) - *std::min_element(load.begin(), load.end()) <= biggest + 1e-6);
  }
  CHECK_THROWS_AS(attnx::shard_tasks(o, 3, 3), attnx::InvalidArgument);
  CHECK_THROWS_AS(attnx::shard_tasks(o, 0, 25), attnx::InvalidArgument);
}

TEST_CASE("a part is read back exactly") {
  attnx::SweepPart p;
  p.opt = options();
  p.opt.tol.eps = 0.7;
  p.opt.pattern.weights = attnx::Weights::Random;
  p.index = 1;
  p.count = 4;
  p.tasks = attnx::shard_tasks(p.opt, 1, 4);
  for (const auto& t : p.tasks) {
    attnx::SweepPoint s;
    s.L = t.L;
    s.d_mins = {t.trial == 2 ? -1 : 16 * (t.trial + 1)};
    s.d_star = 12345.678901234567 + t.L;  // above d* at the least beta (3739 at L = 128, eps 0.7)
    s.k = 2;
    s.max_col_count = t.trial != 1 ? 2 : 3;  // in_class is max_col_count <= k: the reader checks it
    s.in_class = t.trial != 1;
    s.madds = (std::uint64_t(1) << 60) + t.L;
    p.results.push_back(s);
  }
  const attnx::SweepPart q = attnx::parse_sweep_part(attnx::sweep_part_to_json(p));
  CHECK(q.index == 1);
  CHECK(q.opt.tol.eps == 0.7);
  REQUIRE(q.results.size() == p.results.size());
  for (std::size_t n = 0; n < q.results.size(); ++n) {
    CHECK(q.results[n].d_mins == p.results[n].d_mins);
    CHECK(q.results[n].d_star == p.results[n].d_star);
    CHECK(q.results[n].in_class == p.results[n].in_class);
    CHECK(q.results[n].madds == p.results[n].madds);
  }
  CHECK_THROWS_AS(attnx::parse_sweep_part("{\"format\": \"x\"}"), attnx::InvalidArgument);
}

TEST_CASE("attnx merge of the shards prints the unsharded sweep — bad sets of parts are named") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::vector<std::string> flags = {"--pattern", "window", "--w", "1", "--Ls", "16,32,48", "--trials", "4", "--seed", "6"};
  auto sweep = [&](const std::vector<std::string>& extra) { return cli_test::run_cli_with("sweep", flags, extra); };
  for (const char* format : {"json", "csv"}) {
    const auto whole = sweep({"--format", format});
    REQUIRE(whole.status == 0);
    for (int n : {1, 2, 4, 12}) {
      std::vector<std::string> merge = {"merge", "--format", format};
      for (int i = n - 1; i >= 0; --i) {  // any order of files
        const auto part = sweep({"--shard", std::to_string(i) + "/" + std::to_string(n), "--threads", "2"});
        REQUIRE(part.status == 0);
        const std::string f = dir.file("p" + std::to_string(n) + "_" + std::to_string(i) + ".json");
        spit(f, part.out);
        merge.push_back(f);
      }
      const auto m = run_cli(merge);
      REQUIRE(m.status == 0);
      CHECK_MESSAGE(m.out == whole.out, format << " with " << n << " shards");
    }
  }
  const std::string a = dir.file("p2_0.json"), b = dir.file("p2_1.json");
  CHECK(run_cli({"merge", a}).err.find("shard 1/2 is missing") != std::string::npos);
  CHECK(run_cli({"merge", a, b, b}).err.find("p2_1.json: shard 1/2 is also in " + b) != std::string::npos);
  const auto other = run_cli({"sweep", "--Ls", "16,32,48", "--trials", "4", "--seed", "7", "--shard", "1/2"});
  const std::string c = dir.file("other.json");
  spit(c, other.out);
  CHECK(run_cli({"merge", a, c}).err.find("other.json: a part of another sweep (options.pattern is \"random\" here, \"window\" in " + a + ")") != std::string::npos);
  // Issue 27 (fuzz-cli merge surface): parts that differ in one option name that option, with
  // both values and both files; a projection written in one part only is "absent" in the other.
  const std::vector<std::string> flags9 = {"--pattern", "window", "--w", "1", "--Ls", "16,32,48", "--trials", "4", "--seed", "9"};
  const auto seed9 = cli_test::run_cli_with("sweep", flags9, {"--shard", "1/2"});
  const std::string s9 = dir.file("seed9.json");
  spit(s9, seed9.out);
  const auto m9 = run_cli({"merge", a, s9});
  CHECK(m9.status == 2);
  CHECK(m9.err.find("seed9.json: a part of another sweep (options.seed is \"9\" here, \"6\" in " + a + ")") != std::string::npos);
  const auto orth = sweep({"--shard", "1/2", "--projection", "orthogonal"});
  const std::string po = dir.file("orth.json");
  spit(po, orth.out);
  CHECK(run_cli({"merge", a, po}).err.find("orth.json: a part of another sweep (options.projection is \"orthogonal\" here, absent in " + a + ")") != std::string::npos);
  const auto three = sweep({"--shard", "1/3"});
  const std::string p3 = dir.file("three.json");
  spit(p3, three.out);
  CHECK(run_cli({"merge", a, p3}).err.find("three.json: a part of another sweep (shard.count is 3 here, 2 in " + a + ")") != std::string::npos);
  CHECK(run_cli({"merge"}).status != 0);
  CHECK(run_cli({"sweep", "--Ls", "16", "--trials", "2", "--shard", "2/2"}).err.find("shard must be i/n with 0 <= i < n <= 2") != std::string::npos);
  CHECK(run_cli({"sweep", "--shard", "x"}).err.find("--shard must be i/n") != std::string::npos);
}

TEST_CASE("sweep --construction lp: each trial's d_min is the core's min_d_lp — threads and shards print the same bytes") {
  if (!cli_test::cli_available()) return;
  const std::vector<std::string> flags = {"--Ls", "16,32,48", "--trials", "3", "--seed", "4", "--construction", "lp", "--step", "1", "--dmax", "128"};
  auto sweep = [&](const std::vector<std::string>& extra) { return cli_test::run_cli_with("sweep", flags, extra); };
  const auto one = sweep({"--threads", "1"});
  REQUIRE(one.status == 0);
  const attnx::JsonValue j = attnx::json_parse(one.out);
  CHECK(j.find("params")->find("construction")->str == "lp");
  attnx::SweepOptions o;
  o.Ls = {16, 32, 48};
  o.trials = 3;
  o.seed = 4;
  o.construction = "lp";
  o.mind.step = 1;
  o.mind.d_max = 128;
  for (std::size_t i = 0; i < 3; ++i)
    for (int t = 0; t < 3; ++t) {
      const std::uint64_t s = attnx::trial_seed(4, o.Ls[i], t);
      attnx::PatternSpec spec;
      spec.L = o.Ls[i];
      attnx::Rng rng(attnx::pattern_seed(s));
      const attnx::Pattern A = attnx::make_pattern(spec, rng);
      CHECK(j.find("points")->arr[i].find("d_mins")->arr[t].num == attnx::min_d_lp(A, th::search("lp", o.tol, o.mind, s), {}).d_min);
    }
  CHECK(sweep({"--threads", "3"}).out == one.out);
  TempDir dir;
  std::vector<std::string> merge = {"merge"};
  for (int i = 0; i < 3; ++i) {
    const std::string f = dir.file("lp" + std::to_string(i) + ".json");
    spit(f, sweep({"--shard", std::to_string(i) + "/3"}).out);
    merge.push_back(f);
  }
  CHECK(run_cli(merge).out == one.out);
}

TEST_CASE("a sweep of moment: each trial's d_min is D = 2m when its float32 X passes, else not reached") {
  const std::vector<std::string> args = {"sweep", "--construction", "moment", "--Ls", "8,16,64,128",
                                         "--trials", "4", "--seed", "3", "--format", "json"};
  const auto one = run_cli(args);
  REQUIRE(one.status == 0);
  const attnx::JsonValue j = attnx::json_parse(one.out);
  CHECK(j.find("params")->find("construction")->str == "moment");
  const int Ls[] = {8, 16, 64, 128};
  int reached_small = 0, reached_large = 0;
  for (int i = 0; i < 4; ++i)
    for (int t = 0; t < 4; ++t) {
      const std::uint64_t s = attnx::trial_seed(3, Ls[i], t);
      attnx::PatternSpec spec;
      spec.L = Ls[i];
      attnx::Rng rng(attnx::pattern_seed(s));
      const attnx::Pattern A = attnx::make_pattern(spec, rng);
      const attnx::MomentConstruction m = attnx::construct_moment(A, attnx::Tolerances{});
      const attnx::JsonValue& d = j.find("points")->arr[i].find("d_mins")->arr[t];
      if (m.c.metrics.success) {
        CHECK(d.num == 2 * A.k);
        (i < 2 ? reached_small : reached_large) += 1;
      } else {
        CHECK(d.type == attnx::JsonValue::Type::Null);
      }
    }
  CHECK(reached_small > reached_large);  // float32 X fails as L grows (SPEC 8.3)
  std::vector<std::string> threaded = args;
  threaded.insert(threaded.end(), {"--threads", "3"});
  CHECK(run_cli(threaded).out == one.out);
  CHECK(run_cli({"mind", "--construction", "moment"}).err.find("one hidden size per pattern") != std::string::npos);
}
