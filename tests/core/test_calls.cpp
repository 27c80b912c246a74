// The JavaScript API's calls in the core (attnx/call_options.hpp, calls.hpp, calls_io.hpp): the
// options read from a caller's value (here JSON text, as the module's generic conversion would
// give it) with the API's defaults and messages, the params that apply, and each call's record
// against the core function it wraps, computed directly.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "requests.hpp"
#include <attnx/bounds.hpp>
#include <attnx/calls.hpp>
#include <attnx/calls_io.hpp>
#include <attnx/memory.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/schema.hpp>

using attnx::Call;
using attnx::JsonValue;
using attnx::json_parse;

namespace {

std::string refusal(const std::string& opts, Call call, const std::string& field) {
  auto e = th::invalid([&] { attnx::read_call_options(json_parse(opts), call); });
  CHECK(e.field() == field);
  return e.what();
}

// A JavaScript value JSON has no type for, as the module hands it over.
JsonValue other(const std::string& text) {
  JsonValue v;
  v.type = JsonValue::Type::Other;
  v.str = text;
  return v;
}

std::vector<std::string> keys(const JsonValue& o) {
  std::vector<std::string> k;
  for (const auto& m : o.obj) k.push_back(m.first);
  return k;
}

std::string fixture(const std::string& name) {
  std::string dir = __FILE__;
  std::ifstream in(dir.substr(0, dir.rfind('/')) + "/../node/lab-fixtures/" + name, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("call options: absent members keep the CLI's defaults — given ones are read") {
  const attnx::CallOptions d = attnx::read_call_options(JsonValue(), Call::Construct);
  CHECK(d.spec.L == std::stoi(attnx::context_default("cli", "L")));
  CHECK(d.d == std::stoi(attnx::context_default("cli", "d")));
  CHECK(d.tol.tau == std::stod(attnx::context_default("cli", "tau")));
  CHECK(d.construction == "jl");
  CHECK_FALSE(d.want_views);
  const attnx::CallOptions o = attnx::read_call_options(
      json_parse(R"({"pattern": "window", "L": 64, "w": 3, "eps": 0.5, "d": 32, "seed": 9,
                     "tau": null, "views": {"size": 100, "omitX": true}})"),
      Call::Construct);
  CHECK(o.spec.family == attnx::Family::Window);
  CHECK(o.spec.L == 64);
  CHECK(o.spec.w == 3);
  CHECK(o.tol.eps == 0.5);
  CHECK(o.tol.tau == d.tol.tau);  // null: the default
  CHECK(o.d == 32);
  CHECK(o.seed == 9);
  CHECK(o.want_views);
  CHECK(o.views.size == 100);
  CHECK(o.views.x_rows == attnx::ViewRequest().x_rows);
  CHECK(o.omit_x);
}

TEST_CASE("call options: refusals name the field, its range and the value as JavaScript prints it") {
  CHECK(refusal(R"({"L": 2.5})", Call::Construct, "L") == "L must be an integer from 2 to 16384 (got 2.5)");
  CHECK(refusal(R"({"L": "256"})", Call::Construct, "L") == "L must be an integer from 2 to 16384 (got \"256\")");
  CHECK(refusal(R"({"L": 1e12})", Call::Construct, "L") == "L must be an integer from 2 to 16384 (got 1000000000000)");
  CHECK(refusal(R"({"tau": 1.5})", Call::Construct, "tau") == "tau must be a number in (0, 1) (got 1.5)");
  CHECK(refusal(R"({"wMin": "x"})", Call::Construct, "wMin") == "wMin must be a number (got \"x\")");
  CHECK(refusal(R"({"pattern": 5})", Call::Construct, "pattern").find("(got \"<5>\")") != std::string::npos);
  CHECK(refusal(R"({"step": 32, "dmax": 16})", Call::MinD, "dmax") == "dmax must be an integer from 32 to 16384 (got 16)");
  CHECK(refusal("[1, 2]", Call::Construct, "options") == "options must be a plain object (got an array)");
  CHECK(refusal(R"({"views": {"size": 0}})", Call::Construct, "views.size") == "views.size must be an integer from 1 to 4096 (got 0)");
  CHECK(refusal(R"({"views": {"omitX": 1}})", Call::Construct, "views.omitX") == "views.omitX must be true or false (got 1)");
  CHECK(refusal(R"({"views": {"dense": "no"}})", Call::Construct, "views.dense") == "views.dense must be true or false (got \"no\")");
  CHECK(refusal(R"({"d": 8})", Call::MinD, "d").rfind("unknown option \"d\" (allowed: pattern, L, ", 0) == 0);
  CHECK(refusal(R"({"firstTrial": 995, "trials": 10})", Call::SweepPoint, "firstTrial") == "firstTrial must be an integer from 0 to 990 (got 995)");
  // Values JSON has no type for: a JavaScript bigint, undefined (the same as leaving it out).
  JsonValue opts = JsonValue::object();
  opts.set("seed", other("1n"));
  auto e = th::invalid([&] { attnx::read_call_options(opts, Call::Construct); });
  CHECK(std::string(e.what()) == "seed must be an integer from 0 to 9007199254740991 (got 1n)");
  JsonValue undefined_L = JsonValue::object();
  undefined_L.set("L", other("undefined"));
  CHECK(attnx::read_call_options(undefined_L, Call::Construct).spec.L == 256);
  JsonValue nan_L = JsonValue::object();
  nan_L.set("L", JsonValue::of(std::numeric_limits<double>::quiet_NaN()));
  CHECK(std::string(th::invalid([&] { attnx::read_call_options(nan_L, Call::Construct); }).what()) ==
        "L must be an integer from 2 to 16384 (got NaN)");
}

TEST_CASE("call options: custom triplets from arrays or typed arrays — their refusals") {
  const attnx::CallOptions o = attnx::read_call_options(
      json_parse(R"({"L": 3, "triplets": {"rows": [0, 1, 2], "cols": [0, 1, 0], "vals": [1, 2, 1]}})"),
      Call::Construct);
  CHECK(o.spec.family == attnx::Family::Custom);  // triplets imply pattern custom
  REQUIRE(o.triplets.size() == 3);
  CHECK((o.triplets[2].i == 2 && o.triplets[2].j == 0 && o.triplets[2].w == 1));
  JsonValue t = JsonValue::object(), rows, cols, vals;  // typed arrays: Numbers
  rows.type = cols.type = vals.type = JsonValue::Type::Numbers;
  rows.nums = {0, 1};
  cols.nums = {1, 0};
  vals.nums = {1, 1};
  t.set("rows", rows).set("cols", cols).set("vals", vals);
  JsonValue opts = JsonValue::object();
  opts.set("pattern", JsonValue::of("custom")).set("L", JsonValue::of(2)).set("triplets", t);
  CHECK(attnx::call_pattern(attnx::read_call_options(opts, Call::Construct)).col == std::vector<int>{1, 0});
  CHECK(refusal(R"({"L": 2, "triplets": {"rows": [0, 1], "cols": [0, 2], "vals": [1, 1]}})", Call::Construct, "triplets") ==
        "entry 1: column index must be an integer from 0 to 1 (got 2)");
  CHECK(refusal(R"({"L": 2, "triplets": {"rows": [0, 1], "cols": [0, 1]}})", Call::Construct, "triplets") ==
        "triplets.vals must be an array or typed array of numbers (got undefined)");
  CHECK(refusal(R"({"pattern": "window", "L": 4, "triplets": {"rows": [0], "cols": [0], "vals": [1]}})", Call::Construct, "triplets") ==
        "triplets are only used with pattern custom (got pattern window)");
  CHECK(refusal(R"({"pattern": "custom", "L": 4})", Call::Construct, "triplets").find("needs triplets") != std::string::npos);
}

TEST_CASE("call params: only the options that apply, the seed as given") {
  const auto params = [](const std::string& opts, Call call) {
    return attnx::call_params(attnx::read_call_options(json_parse(opts), call), call);
  };
  CHECK(keys(params(R"({"L": 64, "d": 32})", Call::Construct)) ==
        std::vector<std::string>{"pattern", "L", "k", "weights", "eps", "tau", "delta", "d", "seed", "maxBytes"});
  CHECK(keys(params(R"({"pattern": "window", "weights": "decaying", "construction": "lp", "dmax": 256})", Call::MinD)) ==
        std::vector<std::string>{"pattern", "L", "w", "weights", "decay", "eps", "tau", "delta",
                                 "construction", "box", "dmax", "step", "seed", "maxBytes"});
  CHECK(keys(params(R"({"trials": 3, "firstTrial": 2})", Call::SweepPoint)).back() == "maxBytes");
  const JsonValue trial = params(R"({"L": 32, "seed": 5, "trial": 2})", Call::Construct);
  CHECK(trial.find("trial")->num == 2);
  CHECK(trial.find("seed")->num == 5);
}

TEST_CASE("construct_call: the construction construct() gives — a stopped call resumes") {
  const JsonValue opts = json_parse(R"({"L": 48, "d": 256, "seed": 3, "trial": 1})");
  attnx::GramLadder ladder;
  // Stopped at its first report (after the first 128 columns of P), then resumed.
  const attnx::ConstructCall stopped = attnx::construct_call(opts, [](double) { return false; }, ladder);
  CHECK(stopped.cancelled);
  const attnx::ConstructCall r = attnx::construct_call(opts, nullptr, ladder);
  REQUIRE_FALSE(r.cancelled);
  const std::uint64_t seed = attnx::trial_seed(3, 48, 1);  // trial 1 of a sweep at L = 48
  attnx::PatternSpec s;
  s.L = 48;
  attnx::Rng rng(attnx::pattern_seed(seed));
  const attnx::Pattern A = attnx::make_pattern(s, rng);
  const attnx::Construction c = attnx::construct(A, th::jl(attnx::Tolerances(), 256, seed, attnx::kDefaultMaxBytes));
  CHECK(r.A.col == A.col);
  CHECK(r.b.c.M == c.M);
  CHECK(r.b.c.X == c.X);
  CHECK(r.b.c.metrics.rho == c.metrics.rho);
  CHECK(r.columns_added == 128);
  CHECK_FALSE(r.views);
  const attnx::ConstructCall again = attnx::construct_call(opts, nullptr, ladder);
  CHECK(again.columns_added == 0);  // G of d = 256 kept
  const attnx::ConstructCall lp = attnx::construct_call(
      json_parse(R"({"L": 16, "d": 8, "construction": "lp", "views": {"omitX": true, "size": 8}})"), nullptr, ladder);
  CHECK(lp.columns_added == -1);
  CHECK(lp.b.c.X.empty());
  REQUIRE(lp.views);
  CHECK(lp.views->M.w == 8);
  CHECK(!lp.b.report.empty());
  CHECK(lp.b.rows.size() == 2);
}

TEST_CASE("precision_call: the §8.4 report and the §9 bounds of the X construct builds, w included") {
  attnx::GramLadder ladder;
  for (const char* text : {R"({"L": 32, "construction": "moment"})", R"({"L": 32, "d": 16, "construction": "lp"})"}) {
    const JsonValue opts = json_parse(text);
    const attnx::PrecisionCall p = attnx::precision_call(opts);
    const attnx::ConstructCall c = attnx::construct_call(opts, nullptr, ladder);
    CHECK(p.d == c.b.c.d);
    CHECK(p.precision.bits == c.b.precision->bits);
    CHECK(p.bounds.bits_per_number == c.b.c.bounds.bits_per_number);
    CHECK(p.bounds.bits_per_number > 0);
    CHECK(p.bounds.logit_scale == c.b.c.bounds.logit_scale);
    CHECK(p.bounds.d_lambda == c.b.c.bounds.d_lambda);
    CHECK(p.bounds.bits_free_keys == attnx::bits_free_keys(32, 2));
  }
}

TEST_CASE("min_d_call and sweep_point_call: the core's results — progress every 2%, stopping cancels") {
  const JsonValue opts = json_parse(R"({"L": 64, "seed": 2})");
  std::vector<double> seen;
  const attnx::MinDCall r = attnx::min_d_call(opts, [&](double f) { seen.push_back(f); return true; });
  attnx::Rng rng(attnx::pattern_seed(2));
  attnx::PatternSpec s;
  s.L = 64;
  const attnx::Pattern A = attnx::make_pattern(s, rng);
  CHECK(r.m.d_min == attnx::min_d(A, th::search("jl", attnx::Tolerances(), attnx::MinDOptions(), 2)).d_min);
  CHECK(r.stats.k == A.k);
  CHECK_FALSE(r.cancelled);
  REQUIRE_FALSE(seen.empty());
  CHECK(seen.back() == 1);
  for (std::size_t q = 1; q + 1 < seen.size(); ++q) CHECK(seen[q] - seen[q - 1] >= 0.02);
  const attnx::MinDCall stopped = attnx::min_d_call(opts, [](double) { return false; });
  CHECK(stopped.cancelled);
  const attnx::SweepPointCall p = attnx::sweep_point_call(json_parse(R"({"L": 32, "trials": 2})"), nullptr);
  CHECK(p.p.d_mins.size() == 2);
  CHECK_FALSE(p.cancelled);
  CHECK(attnx::sweep_point_call(json_parse(R"({"L": 32, "trials": 2})"), [](double) { return false; }).cancelled);
}

TEST_CASE("estimate, fits, median and quantile calls: the core's numbers, null when not reached") {
  const attnx::ByteEstimate e = attnx::estimate_call(json_parse(R"({"L": 1024, "d": 512})"));
  // jl's construct as it checks itself: the default random pattern (k = 2) and X's build.
  CHECK(e.construct == static_cast<double>(attnx::request_bytes(th::jl(attnx::Tolerances{}, 512, 1), 1024, 2)));
  CHECK(e.construct > static_cast<double>(attnx::estimate_construct_bytes(1024, 512, 2)));
  CHECK(e.mind == static_cast<double>(attnx::estimate_mind_bytes(1024, 16, 2)));
  CHECK(e.max_bytes == static_cast<double>(attnx::kDefaultMaxBytes));
  // d = 400 + 60 log2(L / 64): b = 60 / ln 2 by hand.
  const attnx::FitsCall f = attnx::fits_call(json_parse("[64, 128, 256, 512]"), json_parse("[400, 460, 520, 580]"));
  CHECK(f.log.ok);
  CHECK(std::fabs(f.log.b - 60 / std::log(2.0)) < 1e-9);
  CHECK_FALSE(attnx::fits_call(json_parse("[64, 128]"), json_parse("[400, null]")).log.ok);
  CHECK(std::string(th::invalid([] {
          JsonValue Ls = json_parse("[64, 1]");
          Ls.arr[1].num = std::numeric_limits<double>::quiet_NaN();
          attnx::fits_call(Ls, json_parse("[1, 2]"));
        }).what()) == "Ls[1] must be a finite number (got NaN)");
  CHECK(attnx::median_call(json_parse("[16, null, 32]")).num == 32);  // null counts as larger
  CHECK(attnx::median_call(json_parse("[null, null, 32]")).type == JsonValue::Type::Null);
  CHECK(attnx::quantile_call(json_parse("[16, 32, 48, 64]"), JsonValue::of(0.5)).num == 32);
  CHECK(attnx::quantile_call(json_parse("[16, 32, null, null]"), JsonValue::of(0.1)).type == JsonValue::Type::Null);
  CHECK(th::invalid([] { attnx::quantile_call(json_parse("[16]"), JsonValue::of(1.0)); }).field() == "delta");
}

TEST_CASE("sweep record calls: the CLI's files read to the lab's record and written back byte for byte") {
  for (const char* name : {"cli-sweep-paper.json", "cli-sweep-dilated.json", "cli-sweep-notreached.json"}) {
    CAPTURE(name);
    const std::string text = fixture(name);
    const JsonValue rec = attnx::parse_sweep_call(JsonValue::of(text));
    CHECK(keys(rec) == std::vector<std::string>{"source", "version", "params", "points", "fits", "complete"});
    const JsonValue file = json_parse(text);
    CHECK(rec.find("version")->str == file.find("version")->str);
    CHECK(rec.find("points")->arr.size() == file.find("points")->arr.size());
    CHECK(attnx::format_sweep_call(rec, JsonValue::of("json")) == text);
  }
  const std::string csv = fixture("cli-sweep-paper.csv");
  const JsonValue from_csv = attnx::parse_sweep_call(JsonValue::of(csv));
  CHECK(from_csv.find("params")->find("delta")->type == JsonValue::Type::Null);
  CHECK(from_csv.find("version")->type == JsonValue::Type::Null);
  CHECK(attnx::format_sweep_call(from_csv, JsonValue::of("csv")) == csv);
  auto e = th::invalid([] {
    attnx::format_sweep_call(json_parse(R"({"params": {}, "points": [{"L": 8, "d_mins": [4, "x"]}]})"),
                             JsonValue::of("csv"));
  });
  CHECK(e.field() == "record");
  CHECK(std::string(e.what()) == "record.points[0].d_mins[1] must be an integer d from 1 to 16384 or null (got \"x\")");
  CHECK(th::invalid([] { attnx::format_sweep_call(JsonValue::object(), JsonValue::of("xml")); }).field() == "format");
}

TEST_CASE("summarise_sweep_call: each point as given with its statistics, the fits and their comparison") {
  const JsonValue r = attnx::summarise_sweep_call(json_parse(
      R"({"delta": 0.1, "points": [{"L": 16, "dMins": [32, 48, 32], "k": 2}, {"L": 64, "dMins": [64, null, 64, 80]}]})"));
  const JsonValue& p0 = r.find("points")->arr[0];
  CHECK(keys(p0) == std::vector<std::string>{"L", "dMins", "k", "median", "quantile"});
  CHECK(p0.find("k")->num == 2);
  CHECK(p0.find("median")->num == 32);    // sorted 32, 32, 48
  CHECK(p0.find("quantile")->num == 48);  // ceil(0.9 * 3) = 3 successes
  CHECK(r.find("points")->arr[1].find("quantile")->type == JsonValue::Type::Null);  // 3 of 4 < 4
  CHECK(r.find("fits")->find("log")->find("model")->str == attnx::kLogFitModel);
  CHECK(r.find("fitComparison")->find("verdict")->str == "too-few-lengths");
  CHECK(th::invalid([] {
          attnx::summarise_sweep_call(json_parse(R"({"delta": 0.1, "points": [{"L": 16, "dMins": [0]}]})"));
        }).what() == std::string("points[0].dMins[0] must be an integer d from 1 to 16384 or null (got 0)"));
}

TEST_CASE("pattern text calls: parse with the caller's L, format the caller's triplets") {
  const attnx::PatternTriplets p = attnx::parse_pattern_call(JsonValue::of("[[0,0,1],[1,1,0.5]]"), JsonValue::of(2));
  CHECK(p.L == 2);
  CHECK(p.triplets.size() == 2);
  CHECK(th::invalid([] { attnx::parse_pattern_call(JsonValue::of("[[0,0,1]]"), JsonValue::of(1)); }).field() == "L");
  CHECK(th::invalid([] { attnx::parse_pattern_call(JsonValue::of(3.0), JsonValue()); }).field() == "text");
  const JsonValue pattern = json_parse(R"({"L": 2, "triplets": {"rows": [0, 1], "cols": [0, 1], "vals": [1, 0.5]}})");
  CHECK(attnx::format_pattern_call(pattern, JsonValue::of("csv")) == "i,j,w\n0,0,1\n1,1,0.5\n");
  CHECK(std::string(th::invalid([] {
          attnx::format_pattern_call(json_parse(R"({"L": 2, "triplets": {"rows": [0.5], "cols": [0], "vals": [1]}})"),
                                     JsonValue::of("json"));
        }).what()) == "entry 0: indices must be integers (got 0.5, 0)");
}
