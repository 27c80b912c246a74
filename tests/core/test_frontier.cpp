// The frontier of SPEC §10.2 (core/frontier/): each point's statistics from its trials, opt's trial
// equal to its own search on the sweep's trial target, the floor by SPEC §9.2's formula computed
// here, shards merged into the unsharded bytes, edited parts refused by JSON path, and every bad
// option refused at once; the CLI's outputs for any thread count.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include <attnx/construct_opt.hpp>
#include <attnx/frontier.hpp>
#include <attnx/rng.hpp>
#include <attnx/sweep.hpp>

#include "cli_run.hpp"
#include "helpers.hpp"

using namespace attnx;

namespace {

FrontierOptions small_options() {
  FrontierOptions o = default_frontier_options();
  o.pattern.L = 32;
  o.trials = 3;
  o.constructions = {"jl", "opt"};
  o.scales = {5.3, 16};
  return o;
}

std::vector<FrontierTrial> run_all(const FrontierOptions& o) {
  std::vector<FrontierTrial> out;
  for (const FrontierTask& t : frontier_tasks(o)) out.push_back(frontier_trial(o, t));
  return out;
}

std::string edit(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

std::string part_refusal(const std::string& text) {
  try {
    parse_frontier_part(text);
  } catch (const InvalidArgument& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("frontier: a point's statistics are its trials', opt's trial is its search on the sweep's target") {
  const FrontierOptions o = small_options();
  const FrontierResult r = frontier_result(o, run_all(o));
  REQUIRE(r.points.size() == 3);  // jl once, opt at two budgets
  CHECK(r.points[0].construction == "jl");
  CHECK(r.points[0].mark == "construction");
  CHECK(r.points[1].mark == "search");
  for (const FrontierPoint& p : r.points) {
    std::vector<int> d;
    for (const FrontierTrial& t : p.trials) d.push_back(t.d_min);
    CHECK(p.median == median_d(d));
    CHECK(p.quantile == quantile_d(d, o.tol.delta));
  }
  // Trial 1 of opt at budget 16: the search of opt on trial 1's target, by hand.
  const std::uint64_t seed = trial_seed(o.seed, 32, 1);
  Rng rng(pattern_seed(seed));
  const Pattern A = make_pattern(o.pattern, rng);
  ConstructionRequest q;
  q.construction = "opt";
  q.scale = 16;
  q.seed = seed;
  q.mind.step = 1;
  q.mind.d_max = kMaxOptD;
  const MinDResult m = search_min_d(A, check_request(q, Purpose::Search));
  CHECK(r.points[2].trials[1].d_min == m.d_min);
  CHECK(r.points[2].trials[1].logit_scale == m.bounds.logit_scale);
  // The floor: ln n / ln(1 + 2 Lambda / ln(1/tau)), n the targets' column supports (a proof under every search).
  REQUIRE(r.column_supports > 1);
  for (std::size_t n = 0; n < o.scales.size(); ++n) {
    const double want = std::log(double(r.column_supports)) / std::log(1 + 2 * o.scales[n] / std::log(1 / o.tol.tau));
    CHECK(std::fabs(r.floor[n] - want) <= 1e-12 * want);
    for (const FrontierTrial& t : r.points[1 + n].trials) CHECK((t.d_min < 0 || t.d_min >= want));
  }
}

TEST_CASE("frontier shards merge into the unsharded output, byte for byte - a missing or edited part is named") {
  const FrontierOptions o = small_options();
  const std::vector<FrontierTrial> all = run_all(o);
  const std::string whole = frontier_json(o, frontier_result(o, all));
  std::vector<FrontierPart> parts;
  std::vector<std::string> names, texts;
  for (int i = 0; i < 3; ++i) {
    FrontierPart p;
    p.opt = o, p.index = i, p.count = 3;
    p.tasks = frontier_shard_tasks(o, i, 3);
    for (int t : p.tasks) p.results.push_back(all[static_cast<std::size_t>(t)]);
    texts.push_back(frontier_part_json(p));
    CHECK(is_frontier_part(texts.back()));
    parts.push_back(parse_frontier_part(texts.back()));
    names.push_back("p" + std::to_string(i) + ".json");
  }
  FrontierOptions back;
  CHECK(frontier_json(back = o, merge_frontier_parts(parts, names, back)) == whole);
  CHECK_THROWS_WITH(merge_frontier_parts({parts[0], parts[2]}, {"a", "c"}, back), "shard 1/3 is missing");
  CHECK_THROWS_WITH(merge_frontier_parts({parts[0], parts[0], parts[1], parts[2]}, {"a", "b", "c", "d"}, back),
                    "b: shard 0/3 is also in a");
  const std::string t = texts[0];
  CHECK(part_refusal(edit(t, "\"trials\": 3", "\"trials\": 0")).rfind("options.trials", 0) == 0);
  CHECK(part_refusal(edit(t, "\"format\": \"attnx-frontier-part/1\"", "\"format\": \"x\"")) == "part.format must be attnx-frontier-part/1");
  CHECK(part_refusal(edit(t, "\"column_supports\": ", "\"column_supports\": 9")).find("column_supports must be") != std::string::npos);
  CHECK(part_refusal(edit(t, "\"d_min\": ", "\"d_min\": null, \"x\": ")).find("is not a field of a frontier part") != std::string::npos);
}

TEST_CASE("frontier options: every bad field at once, a grid value named with its grid") {
  FrontierOptions o = small_options();
  o.scales = {5, 4};
  o.boxes = {-1};
  o.trials = 0;
  try {
    validate(o);
    FAIL("accepted");
  } catch (const InvalidArgument& e) {
    CHECK(e.fields() == std::vector<std::string>{"scales", "boxes", "trials"});
  }
  o = small_options();
  o.scales = {1.0, 5.3};
  CHECK_THROWS_WITH(validate(o), "scales holds 1: budget must be above ln(1/tau)/2 = 1.15129 for construction opt "
                                 "(got 1; below it no logits within the budget can keep (Z))");
  CHECK_THROWS_WITH(parse_constructions("opt,opt"), "constructions must name each construction once (got opt twice)");
  CHECK(parse_constructions("opt,jl") == std::vector<std::string>{"jl", "opt"});
}

TEST_CASE("attnx frontier: the same bytes on 1 and 2 threads, a proof row per budget in CSV") {
  if (!cli_test::cli_available()) return;
  const std::vector<std::string> args = {"frontier", "--L", "24", "--trials", "2", "--constructions", "lp,opt",
                                         "--scales", "5.3,16", "--boxes", "10,1000"};
  std::vector<std::string> one = args, two = args;
  one.insert(one.end(), {"--threads", "1"});
  two.insert(two.end(), {"--threads", "2"});
  const auto a = cli_test::run_cli(one), b = cli_test::run_cli(two);
  REQUIRE(a.status == 0);
  CHECK(a.out == b.out);
  std::vector<std::string> csv = one;
  csv.insert(csv.end(), {"--format", "csv"});
  const auto c = cli_test::run_cli(csv);
  REQUIRE(c.status == 0);
  CHECK(c.out.find("\nproof,,scale,5.3,") != std::string::npos);
  CHECK(c.out.find("\nproof,,scale,16,") != std::string::npos);
  CHECK(c.out.find("\nsearch,opt,scale,16,2,") != std::string::npos);
  CHECK(c.out.find("\nconstruction,lp,box,1000,2,") != std::string::npos);
  const auto bad = cli_test::run_cli({"frontier", "--L", "24", "--scales", "5,4", "--boxes", "-1"});
  CHECK(bad.status == 2);
  CHECK(bad.err.find("--scales must be strictly ascending (got 5,4); --boxes must be") != std::string::npos);
}

TEST_CASE("frontier parts: a trial that did not reach merges, any layout is a part, an option key no frontier writes is refused") {
  FrontierOptions o = small_options();
  o.constructions = {"opt"};
  std::vector<FrontierTrial> all(frontier_tasks(o).size());
  for (FrontierTrial& t : all) t = FrontierTrial{3, 5.0, 4.5, 32};
  all[1] = FrontierTrial{};  // not reached: d_min, logit_scale and max_abs_logit are null
  all[1].column_supports = 32;
  FrontierPart p;
  p.opt = o, p.index = 0, p.count = 1;
  p.tasks = frontier_shard_tasks(o, 0, 1);
  p.results = all;
  const std::string t = frontier_part_json(p);
  CHECK(t.find("\"d_min\": null, \"logit_scale\": null, \"max_abs_logit\": null") != std::string::npos);
  CHECK(part_refusal(t) == "accepted");
  std::string compact = t;
  for (std::size_t at; (at = compact.find(": ")) != std::string::npos;) compact.replace(at, 2, ":");
  CHECK(is_frontier_part(compact));
  CHECK(is_frontier_part(compact.substr(0, compact.size() / 2)));  // damaged: the frontier's reader names it
  CHECK_FALSE(is_frontier_part("{\"format\":\"attnx-sweep-part/1\"}"));
  CHECK(part_refusal(edit(t, "\"trials\": 3", "\"trials\": 3, \"dmax\": 64")) == "options.dmax is not a field of this frontier's options");
  CHECK(part_refusal(edit(t, "\"k\": 2", "\"k\": 2, \"w\": 3")) == "options.w is not a field of this frontier's options");
  CHECK_THROWS_WITH(parse_constructions("jl,xx"), doctest::Contains("constructions holds an unknown name: construction must be one of"));
}

TEST_CASE("attnx frontier: --boxes without lp is refused (nothing would use it), an unknown name is --constructions'") {
  if (!cli_test::cli_available()) return;
  const auto boxes = cli_test::run_cli({"frontier", "--L", "8", "--trials", "1", "--constructions", "opt", "--boxes", "1,2"});
  CHECK(boxes.status == 2);
  CHECK(boxes.err == "attnx: --boxes applies only to lp's points (got constructions opt)\n");
  const auto name = cli_test::run_cli({"frontier", "--L", "8", "--trials", "1", "--constructions", "jl,xx"});
  CHECK(name.status == 2);
  CHECK(name.err.rfind("attnx: --constructions holds an unknown name", 0) == 0);
}
