// Issue 27, item 2: `attnx merge` trusts nothing in a part file. Every edit of a value that the
// sweep cannot have written is refused, naming the field by its JSON path (and the file, exit
// status 2, from the CLI); no value becomes another one. The part is shard 1/3 of
// `attnx sweep --Ls 16,32,64 --trials 3 --seed 3 --dmax 512`, as in the issue.
#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include <attnx/errors.hpp>
#include <attnx/sweep_shard.hpp>

namespace {

attnx::SweepOptions issue_options() {
  attnx::SweepOptions o;
  o.Ls = {16, 32, 64};
  o.trials = 3;
  o.seed = 3;
  o.mind.d_max = 512;
  return o;
}

// The text of shard `index` of 3, computed by the core as attnx sweep --shard does.
std::string part_text(const attnx::SweepOptions& o, int index) {
  attnx::SweepPart p;
  p.opt = o;
  p.index = index;
  p.count = 3;
  p.tasks = attnx::shard_tasks(o, index, 3);
  for (const auto& t : p.tasks) p.results.push_back(attnx::sweep_trial(o, t.L, t.trial));
  return attnx::sweep_part_to_json(p);
}

// text with the value of `field` in the line of results[n] (or in the options block when n < 0)
// replaced by `value` (JSON text); a missing field is added to that object.
std::string edit(std::string text, int n, const std::string& field, const std::string& value) {
  std::size_t from = text.find("\"options\"");
  if (n >= 0) {
    from = text.find("\"results\"");
    for (int i = 0; i <= n; ++i) from = text.find("{\"L\"", from + 1);
  }
  const std::size_t end = n >= 0 ? text.find('}', from) : text.find('}', from);
  const std::string key = "\"" + field + "\": ";
  const std::size_t k = text.find(key, from);
  if (k == std::string::npos || k > end) return text.insert(end, ", " + key + value);
  std::size_t v = k + key.size(), e = v;
  if (text[v] == '[') e = text.find(']', v) + 1;
  else if (text[v] == '"') e = text.find('"', v + 1) + 1;
  else while (e < text.size() && text[e] != ',' && text[e] != '}' && text[e] != '\n') ++e;
  return text.replace(v, e - v, value);
}

// The refusal of a part text ("" when it is read).
std::string refusal(const std::string& text) {
  try {
    attnx::parse_sweep_part(text);
  } catch (const attnx::InvalidArgument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("merge: the issue's edits of a part are refused, naming the field by its JSON path") {
  const attnx::SweepOptions o = issue_options();
  const std::string part = part_text(o, 1);
  REQUIRE(refusal(part).empty());
  // The result of results[1] reached d_min (480 in the issue's run: the edits replace it).
  const std::vector<std::tuple<int, std::string, std::string, std::string>> edits = {
      {1, "d_min", "\"480\"", "results[1].d_min must be null (not reached) or a multiple of step 16 from 16 to d_max 512 (got \"480\")"},
      {1, "d_min", "-16", "results[1].d_min must be null"},
      {1, "d_min", "1e308", "results[1].d_min must be null"},
      {1, "d_min", "480.5", "(got 480.5)"},
      {1, "d_min", "481", "(got 481)"},          // off the step grid
      {1, "d_min", "1000000", "(got 1000000)"},  // above dmax
      {1, "d_min", "0", "(got 0)"},
      {1, "in_class", "\"yes\"", "results[1].in_class must be true or false (got \"yes\")"},
      {1, "in_class", "false", "results[1].in_class is false but max_col_count 2 <= k 2"},
      {1, "madds", "5", "results[1].madds must be a string of decimal digits"},
      {1, "madds", "\"-5\"", "results[1].madds must be a string of decimal digits"},
      {1, "madds", "\"05\"", "results[1].madds must be a string of decimal digits"},
      {1, "d_star", "\"1\"", "results[1].d_star must be a number >= "},
      {1, "d_star", "-1", "results[1].d_star must be a number >= "},
      // Below SPEC 3.5's d* at the least beta, ln(1/tau) + eps (the merge in the issue took d_star = 1).
      {1, "d_star", "1", "(SPEC 3.5's d* at beta = ln(1/tau) + eps, the least beta) (got 1)"},
      {1, "max_abs_logit", "1e6", "results[1].max_abs_logit is 1000000 but no logit can exceed logit_scale "},
      {1, "k", "3", "results[1].k must be an integer from 1 to 2 (got 3)"},
      {1, "k", "1.5", "results[1].k must be an integer"},
      {1, "max_col_count", "0", "results[1].max_col_count must be an integer from 1 to"},
      {1, "L", "\"32\"", "results[1].L must be an integer"},
      {1, "trial", "true", "results[1].trial must be an integer"},
      {1, "extra", "1", "results[1].extra is not a field of a sweep part"},
      {-1, "seed", "3", "options.seed must be a string of decimal digits from 0 to 9007199254740991"},
      {-1, "seed", "\"03\"", "options.seed must be a string of decimal digits"},
      {-1, "seed", "\"9007199254740992\"", "options.seed must be a string of decimal digits"},
      {-1, "max_bytes", "8589934592", "options.max_bytes must be a string of decimal digits"},
      {-1, "k", "2.5", "options.k must be an integer from 1 to 16384 (got 2.5)"},
      {-1, "k", "\"2\"", "options.k must be an integer"},
      {-1, "k", "17", "options.k must be an integer from 1 to 16 for L = 16 of options.Ls (got 17)"},
      {-1, "eps", "\"1\"", "options.eps must be a number in [1e-06, 100]"},
      {-1, "Ls", "[16, 32.5, 64]", "options.Ls[1] must be an integer"},
      {-1, "Ls", "[16, 16, 64]", "options.Ls[1] must be an integer from 17"},
      {-1, "trials", "3.5", "options.trials must be an integer"},
      {-1, "construction", "\"JL\"", "options.construction must be one of jl, lp, moment"},
      {-1, "weights", "1", "options.weights must be one of"},
      {-1, "projection", "\"gaussian \"", "options.projection must be one of"},
      {-1, "extra", "1", "options.extra is not a field of a sweep part"},
  };
  for (const auto& [n, field, value, message] : edits) {
    const std::string text = edit(part, n, field, value);
    REQUIRE_MESSAGE(text != part, field << " = " << value);
    const std::string why = refusal(text);
    CHECK_MESSAGE(why.find(message) != std::string::npos, field << " = " << value << ": " << why);
  }
  // The shard's own fields.
  std::string shard = part;
  shard.replace(shard.find("\"index\": 1"), 10, "\"index\": 1.5");
  CHECK(refusal(shard) == "shard.index must be an integer from 0 to 2 (got 1.5)");
  shard = part;
  shard.replace(shard.find("\"count\": 3"), 10, "\"count\": \"3\"");
  CHECK(refusal(shard).find("shard.count must be an integer") == 0);
}

TEST_CASE("merge: values the sweep writes are read as they are, spelled any JSON way") {
  const attnx::SweepOptions o = issue_options();
  const std::string part = part_text(o, 1);
  const attnx::SweepPart p = attnx::parse_sweep_part(part);
  // 16.0 is the integer 16; null stays not reached.
  const attnx::SweepPart q = attnx::parse_sweep_part(edit(edit(part, -1, "step", "16.0"), 0, "d_min", "null"));
  CHECK(q.opt.mind.step == 16);
  CHECK(q.results[0].d_mins == std::vector<int>{-1});
  CHECK(q.results[1].d_mins == p.results[1].d_mins);
  CHECK(q.results[1].madds == p.results[1].madds);
}

// Found by the fuzz-cli merge surface: options each valid alone but not together were refused
// with the core's flag names ("dmax must be ..."), naming no field of the part.
TEST_CASE("merge: options that do not go together are named by their JSON path") {
  const attnx::SweepOptions o = issue_options();
  const std::string part = part_text(o, 1);
  CHECK(refusal(edit(part, -1, "construction", "\"lp\"")).find("options.d_max: dmax must be an integer from 1 to 256 for construction lp (got 512") == 0);
  CHECK(refusal(edit(part, -1, "projection", "\"orthogonal\"")).empty());
  CHECK(refusal(edit(edit(part, -1, "projection", "\"orthogonal\""), -1, "construction", "\"moment\"")).find("options.projection: ") == 0);
}

TEST_CASE("merge: a moment part's d_min is D = 2k or null") {
  attnx::SweepOptions o = issue_options();
  o.construction = "moment";
  const std::string part = part_text(o, 0);
  REQUIRE(refusal(part).empty());
  CHECK(refusal(edit(edit(part, 0, "d_min", "16"), 0, "k", "2")).find("results[0].d_min must be null (not reached) or D = 2m = 4 (got 16)") == 0);
  CHECK(refusal(edit(edit(part, 0, "d_min", "4"), 0, "k", "2")).empty());
}

TEST_CASE("attnx merge: an edited part is refused with the file and the field, exit status 2") {
  if (!cli_test::cli_available()) return;
  cli_test::TempDir dir;
  const std::vector<std::string> flags = {"--Ls", "16,32,64", "--trials", "3", "--seed", "3", "--dmax", "512"};
  std::vector<std::string> merge = {"merge"};
  std::vector<std::string> texts;
  for (int i = 0; i < 3; ++i) {
    const auto r = cli_test::run_cli_with("sweep", flags, {"--shard", std::to_string(i) + "/3"});
    REQUIRE(r.status == 0);
    texts.push_back(r.out);
    merge.push_back(dir.file("p" + std::to_string(i) + ".json"));
    cli_test::spit(merge.back(), r.out);
  }
  REQUIRE(cli_test::run_cli(merge).status == 0);
  for (const auto& [n, field, value] : std::vector<std::tuple<int, std::string, std::string>>{
           {1, "d_min", "\"480\""}, {1, "in_class", "\"yes\""}, {1, "madds", "5"}, {-1, "seed", "3"}}) {
    cli_test::spit(merge[2], edit(texts[1], n, field, value));
    const auto r = cli_test::run_cli(merge);
    CHECK(r.status == 2);
    CHECK(r.out.empty());
    const std::string path = (n < 0 ? "options." : "results[1].") + field;
    CHECK_MESSAGE(r.err.rfind("attnx: " + merge[2] + ": " + path + " must be", 0) == 0, r.err);
  }
}
