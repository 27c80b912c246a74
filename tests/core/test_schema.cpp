// The option table (schema.hpp): one entry per option, defaults inside their ranges, the
// core's refusals quote the table's range, and link versions keep their frozen defaults.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <set>
#include <string>

#include <attnx/construct.hpp>
#include <attnx/errors.hpp>
#include <attnx/mind.hpp>
#include <attnx/pattern.hpp>
#include <attnx/json.hpp>
#include <attnx/metrics_info.hpp>
#include <attnx/schema.hpp>
#include <attnx/schema_doc.hpp>
#include <attnx/sweep.hpp>

namespace {
std::string refusal(const std::function<void()>& f) {
  try {
    f();
  } catch (const attnx::InvalidArgument& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("every option has one name, one CLI flag and a default inside its own range") {
  std::set<std::string> names, flags;
  for (const auto& o : attnx::option_table()) {
    CHECK(names.insert(o.name).second);
    // bounds' --scale (the logit scale of its floor) and opt's --scale (its budget) are both the
    // logit scale Lambda, on commands that never have both (cli/defs.cpp).
    if (o.name != "logitScale") CHECK_MESSAGE(flags.insert(o.flag).second, o.flag);
    if (o.kind == attnx::OptionKind::Int || o.kind == attnx::OptionKind::Real)
      CHECK_NOTHROW(attnx::require_option(o.name, o.def));
    if (o.kind == attnx::OptionKind::Choice)
      CHECK(std::find(o.choices.begin(), o.choices.end(), o.def_text) != o.choices.end());
  }
  CHECK(names.count("eps") == 1);
  CHECK(attnx::option_info("wMin").flag == "w-min");
  CHECK(attnx::option_info("dmax").json == "d_max");
}

TEST_CASE("validate() refuses with the range the table publishes (one rule, one text)") {
  attnx::Tolerances t;
  t.eps = 101;
  const auto& eps = attnx::option_info("eps");
  CHECK(refusal([&] { attnx::validate(t); }) ==
        "eps must be " + attnx::option_range_text(eps) + " (got 101)");
  CHECK(attnx::option_range_text(eps) == "a number in [1e-06, 100]");
  t = attnx::Tolerances{};
  t.tau = 1;
  CHECK(refusal([&] { attnx::validate(t); }) == "tau must be a number in (0, 1) (got 1)");
  attnx::SweepOptions s;
  s.Ls = {64};
  s.trials = attnx::kMaxTrials + 1;
  CHECK(refusal([&] { attnx::validate(s); }) == "trials must be an integer from 1 to 1000 (got 1001)");
}

TEST_CASE("family parameters are checked against their family's row of the table") {
  attnx::PatternSpec s;
  s.family = attnx::Family::Causal;
  s.L = 8;
  s.w = 8;  // causal: w at most L-1
  attnx::Rng rng(1);
  CHECK(refusal([&] { attnx::make_pattern(s, rng); }) == "w must be an integer from 0 to 7 (got 8)");
  for (const auto& f : attnx::pattern_families())
    for (const auto& p : f.params) {
      CHECK(p.def >= p.min);
      CHECK(p.def <= attnx::eval_bound(p.max_expr, 16));
    }
}

TEST_CASE("contexts change defaults and caps without touching the core's own") {
  CHECK(attnx::context_default("explorer", "d") == "1024");
  CHECK(attnx::context_default("cli", "d") == "512");
  CHECK(attnx::context_default("cli", "maxBytes") == "8589934592");
  CHECK(attnx::context_default("wasm", "maxBytes") == "2147483648");
  CHECK(attnx::context_max("lab", "L") == 4096);
  CHECK(attnx::context_max("cli", "L") == 16384);
  CHECK(attnx::context_default("lab", "Ls") == "16,32,64,128,256,512,1024");
  CHECK(attnx::context_default("cli", "Ls") == "64,128,256,512");
}

// The frozen default of `opt` in link version v of `page`, or "missing".
static std::string link_value(int v, const char* page, const char* opt) {
  for (const auto& d : attnx::link_defaults(v, page))
    if (d.option == opt) return d.value;
  return "missing";
}

TEST_CASE("link version 0 keeps the defaults links were written with before versions existed") {
  const auto value = link_value;
  // Written out by hand from the pages as published (explorer d 1024, lab grid 16..1024).
  CHECK(value(0, "explorer", "d") == "1024");
  CHECK(value(0, "explorer", "L") == "256");
  CHECK(value(0, "explorer", "eps") == "1");
  CHECK(value(0, "explorer", "w") == "1");
  CHECK(value(0, "lab", "Ls") == "16,32,64,128,256,512,1024");
  CHECK(value(0, "lab", "dmax") == "4096");
  CHECK(value(0, "lab", "trials") == "10");
  CHECK(value(1, "explorer", "seed") == "1");
  CHECK(value(3, "explorer", "budget") == "5.3");
  CHECK(value(3, "lab", "L") == "256");
  CHECK(refusal([&] { attnx::link_defaults(4, "explorer"); }) ==
        "v must be a link version from 0 to 3 (got 4)");
  // A current link writes every option that changes the numbers.
  const auto& ex = attnx::link_compute_options("explorer");
  for (const char* o : {"pattern", "L", "k", "w", "weights", "eps", "tau", "delta", "d", "seed",
                        "construction", "box", "projection", "budget"})
    CHECK(std::find(ex.begin(), ex.end(), o) != ex.end());
}

TEST_CASE("link version 2 adds the construction — older links read as the paper's jl") {
  const auto value = link_value;
  CHECK(value(0, "explorer", "construction") == "missing");
  CHECK(value(1, "explorer", "construction") == "missing");
  CHECK(value(2, "explorer", "construction") == "jl");
  CHECK(value(2, "explorer", "box") == "1000");
  CHECK(value(2, "explorer", "projection") == "gaussian");
  CHECK(value(2, "lab", "construction") == "jl");
  CHECK(value(2, "lab", "projection") == "gaussian");
  // Everything version 1 fixed keeps its value in version 2.
  for (const auto& d : attnx::link_defaults(1, "explorer")) CHECK(value(2, "explorer", d.option.c_str()) == d.value);
  for (const auto& d : attnx::link_defaults(1, "lab")) CHECK(value(2, "lab", d.option.c_str()) == d.value);
}

TEST_CASE("row_count_bound is at least the drawn pattern's largest row, for every family") {
  attnx::PatternSpec s;
  s.L = 40;
  s.w = 3;
  s.k = 3;
  s.globals = 2;
  s.randoms = 2;
  for (const auto& f : attnx::pattern_families()) {
    if (f.name == "custom") continue;
    s.family = attnx::parse_family(f.name);
    attnx::Rng rng(3);
    const attnx::Pattern p = attnx::make_pattern(s, rng);
    CHECK(attnx::row_count_bound(s) >= p.k);
  }
  s.family = attnx::Family::Custom;
  CHECK(attnx::row_count_bound(s, {{0, 1, 1.0}, {0, 2, 1.0}, {0, 3, 0.0}, {1, 1, 1.0}}) == 2);
}

TEST_CASE("the paper preset is SPEC §5's: random, k = 2, uniform, eps 1, tau 0.1, delta 0.1, step 16") {
  const auto& p = attnx::presets().at(0);
  CHECK(p.name == "paper");
  auto value = [&](const char* o) {
    for (const auto& v : p.values)
      if (v.option == o) return v.value;
    return std::string("missing");
  };
  CHECK(value("pattern") == "random");
  CHECK(value("k") == "2");
  CHECK(value("weights") == "uniform");
  CHECK(value("eps") == "1");
  CHECK(value("tau") == "0.1");
  CHECK(value("delta") == "0.1");
  CHECK(value("step") == "16");
  CHECK(value("Ls") == "64,128,256,512");
  CHECK(p.band_lo == 300);
  CHECK(p.band_hi == 1000);
}

TEST_CASE("the applies rule names the choice an option needs, from the records that own it") {
  auto with = [](std::string pattern, std::string weights, std::string construction) {
    return [=](const std::string& name) {
      return name == "pattern" ? pattern : name == "weights" ? weights : construction;
    };
  };
  const auto& box = attnx::option_info("box");
  CHECK(attnx::option_applies(box, with("random", "uniform", "lp")));
  CHECK(attnx::option_not_applying_text(box, with("random", "uniform", "jl")) ==
        "box applies only to construction lp (got construction jl)");
  CHECK(attnx::option_not_applying_text(attnx::option_info("d"), with("random", "uniform", "moment")) ==
        "d applies only to construction jl, lp or opt (got construction moment)");
  CHECK(attnx::option_not_applying_text(attnx::option_info("budget"), with("random", "uniform", "lp")) ==
        "budget applies only to construction opt (got construction lp)");
  CHECK(attnx::option_not_applying_text(attnx::option_info("k"), with("window", "uniform", "jl")) ==
        "k applies only to pattern random (got pattern window)");
  CHECK(attnx::option_not_applying_text(attnx::option_info("w"), with("block", "uniform", "jl")) ==
        "w applies only to pattern window, causal, dilated or bigbird (got pattern block)");
  // w_min: a generated pattern with random weights; a custom pattern has weights of its own.
  const auto& wmin = attnx::option_info("wMin");
  CHECK(attnx::option_applies(wmin, with("window", "random", "jl")));
  CHECK(attnx::option_not_applying_text(wmin, with("window", "decaying", "jl")) ==
        "wMin applies only to weights random (got weights decaying)");
  CHECK(attnx::option_not_applying_text(wmin, with("custom", "random", "jl")).rfind(
            "wMin applies only to pattern random, permutation, window", 0) == 0);
  CHECK_FALSE(attnx::option_applies(attnx::option_info("weights"), with("custom", "uniform", "jl")));
  for (const char* always : {"L", "eps", "tau", "delta", "seed", "construction", "pattern"})
    CHECK(attnx::option_applies(attnx::option_info(always), with("custom", "decaying", "moment")));
}

TEST_CASE("the schema document holds every option, construction and metric with its rules") {
  const attnx::JsonValue doc = attnx::json_parse(attnx::schema_json());
  const attnx::JsonValue* opts = doc.find("options");
  REQUIRE(opts);
  CHECK(opts->obj.size() == attnx::option_table().size());
  const attnx::JsonValue* box = opts->find("box");
  REQUIRE(box);
  REQUIRE(box->find("applies")->arr.size() == 1);
  CHECK(box->find("applies")->arr[0].find("option")->str == "construction");
  CHECK(box->find("applies")->arr[0].find("values")->arr[0].str == "lp");
  CHECK(opts->find("L")->find("unit")->str == "tokens");
  CHECK(opts->find("eps")->find("applies")->arr.empty());
  CHECK(opts->find("L")->find("default")->type == attnx::JsonValue::Type::Number);
  CHECK(opts->find("pattern")->find("default")->str == "random");
  const attnx::JsonValue* cons = doc.find("constructions");
  REQUIRE(cons);
  REQUIRE(cons->arr.size() == 4);
  CHECK(cons->arr[1].find("name")->str == "lp");
  CHECK(cons->arr[1].find("bisect")->b);
  CHECK(cons->arr[2].find("dimension")->str == "2m");
  CHECK(cons->arr[0].find("sliced")->b);
  CHECK(cons->arr[3].find("name")->str == "opt");
  CHECK(cons->arr[3].find("mark")->str == "search");
  CHECK(cons->arr[0].find("mark")->str == "construction");
  REQUIRE(cons->arr[1].find("report")->arr.size() == 5);
  CHECK(cons->arr[1].find("report")->arr[0].find("key")->str == "feasibleRows");
  CHECK(cons->arr[1].find("report")->arr[0].find("ok")->str == "allRows");
  const attnx::JsonValue* metrics = doc.find("metrics");
  REQUIRE(metrics);
  CHECK(metrics->obj.size() == attnx::metric_infos().size());
  CHECK(metrics->find("rho")->find("symbol")->str == "ρ");
  // The frozen link tables: version 0 names no construction, version 2 does.
  CHECK_FALSE(doc.find("linkDefaults")->find("0")->find("explorer")->find("construction"));
  CHECK(doc.find("linkDefaults")->find("2")->find("explorer")->find("construction")->str == "jl");
  // Version 3 adds opt's budget, and the lab's frontier; version 2 has neither.
  CHECK_FALSE(doc.find("linkDefaults")->find("2")->find("explorer")->find("budget"));
  CHECK(doc.find("linkDefaults")->find("3")->find("explorer")->find("budget")->num == 5.3);
  CHECK(doc.find("linkDefaults")->find("3")->find("lab")->find("scales")->str == "4,5.3,8,16,64");
  CHECK_FALSE(doc.find("linkDefaults")->find("3")->find("explorer")->find("scales"));
}
