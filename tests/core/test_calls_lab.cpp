// The lab's calls and bounds in the core (attnx/calls_lab.hpp): arguments read from a caller's
// values (JSON text here, as the module's generic conversion gives them) with messages naming
// the argument, and each result against the core function it wraps, called directly; the
// streamed merge against one sweep_point over all trials (SPEC §9's bounds included); the sweep
// record's bounds both ways through formatSweep / parseSweep (the bytes of attnx sweep).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "helpers.hpp"
#include <attnx/calls_io.hpp>
#include <attnx/calls_lab.hpp>
#include <attnx/gram.hpp>
#include <attnx/gram_check.hpp>
#include <attnx/sweep_io.hpp>

using attnx::JsonValue;
using attnx::json_parse;

namespace {

JsonValue js(const std::string& text) { return json_parse(text); }

// The refusal of f(): its field and message.
template <class F>
std::pair<std::string, std::string> refusal(F&& f) {
  const attnx::InvalidArgument e = th::invalid(f);
  return {e.field(), e.what()};
}

// One sweepPoint answer for trials [first, first + n) of L as the module hands it over (the API's
// names), plus firstTrial.
std::string part_text(const attnx::SweepPoint& p, int first) {
  auto list = [](const auto& v) {
    std::string s = "[";
    for (std::size_t t = 0; t < v.size(); ++t) s += (t ? "," : "") + (v[t] < 0 ? std::string("null") : attnx::json_number(double(v[t])));
    return s + "]";
  };
  return "{\"firstTrial\": " + std::to_string(first) + ", \"dMins\": " + list(p.d_mins) +
         ", \"dStar\": " + attnx::json_number(p.d_star) + ", \"k\": " + std::to_string(p.k) +
         ", \"maxColCount\": " + std::to_string(p.max_col_count) + ", \"inClass\": " + (p.in_class ? "true" : "false") +
         ", \"madds\": " + std::to_string(p.madds) + ", \"logitScales\": " + list(p.logit_scales) +
         ", \"maxAbsLogits\": " + list(p.max_abs_logits) + ", \"columnSupports\": " + std::to_string(p.column_supports) + "}";
}

attnx::SweepOptions small_sweep(int trials) {
  attnx::SweepOptions o;
  o.pattern.family = attnx::Family::Random;
  o.pattern.k = 2;
  o.Ls = {24};
  o.trials = trials;
  o.seed = 5;
  o.mind.d_max = 2048;
  return o;
}

}  // namespace

TEST_CASE("planSweep, taskWork, sweepProgress: the core's plan and progress — refusals name the argument") {
  const auto plan = attnx::plan_sweep_call(js("[64, 128, 256]"), js("5"), js("2"));
  const auto want = attnx::plan_sweep_tasks(attnx::prior_cost_model(), {64, 128, 256}, 5, 2);
  REQUIRE(plan.size() == want.size());
  for (std::size_t i = 0; i < plan.size(); ++i)
    CHECK((plan[i].L == want[i].L && plan[i].first_trial == want[i].first_trial && plan[i].work == want[i].work));
  CHECK(attnx::task_work_call(js("64"), js("3")) == 3 * 64.0 * 64 * std::log(64.0));
  CHECK(refusal([] { attnx::plan_sweep_call(js("[64, 1]"), js("2"), js("1")); }) ==
        std::make_pair(std::string("Ls"), std::string("Ls[1] must be an integer from 2 to 16384 (got 1)")));
  CHECK(refusal([] { attnx::plan_sweep_call(js("[64]"), js("0"), js("1")); }).second ==
        "trials must be an integer from 1 to 1000 (got 0)");
  CHECK(refusal([] { attnx::plan_sweep_call(js("[64]"), js("2"), js("\"2\"")); }).second ==
        "lanes must be an integer from 1 to 1024 (got \"2\")");
  const attnx::SweepProgress p = attnx::sweep_progress_call(js("[3, 1]"), js("[1, 0]"), js("3"));
  CHECK(p.fraction == 0.75);
  CHECK(p.eta == doctest::Approx(1.0));  // 3 s for 3/4: 1 s left
  CHECK(refusal([] { attnx::sweep_progress_call(js("[1, 2]"), js("[1]"), js("0")); }).first == "fractions");
  CHECK(refusal([] { attnx::sweep_progress_call(js("[1]"), js("[1]"), js("-1")); }).first == "elapsed");
}

TEST_CASE("fitCost and predictTrialSeconds: the dry run's model from timings — refusals name the timing") {
  const attnx::CostModel m = attnx::fit_cost_call(
      js(R"([{"L": 64, "dMin": 100, "seconds": 0.5}, {"L": 128, "dMin": null, "seconds": 4}])"), js("16"), js("512"));
  const attnx::CostModel want = attnx::fit_cost({{64, 100, 0.5}, {128, -1, 4}}, 16, 512);
  CHECK((m.ok && m.c == want.c && m.p == want.p && m.d_hi == 512));
  JsonValue model = js(R"({"ok": true, "c": 2, "p": 1, "dOfL": {"ok": true, "a": 0, "b": 1}, "dLo": 0, "dHi": 1})");
  model.obj.back().second.num = INFINITY;  // dHi: Infinity, as fitCost's prior hands it back
  CHECK(attnx::predict_trial_seconds_call(model, js("64")) == 2 * 64.0 * 64 * std::log(64.0));
  CHECK(refusal([] { attnx::fit_cost_call(js(R"([{"L": 64, "dMin": 100, "seconds": 0}])"), js("16"), js("512")); }) ==
        std::make_pair(std::string("timings"), std::string("timings[0].seconds must be a number > 0 (got 0)")));
  CHECK(refusal([] { attnx::fit_cost_call(js("[]"), js("16"), js("8")); }).second == "dMax must be an integer from 16 to 16384 (got 8)");
  CHECK(refusal([] { attnx::predict_trial_seconds_call(js(R"({"ok": true})"), js("64")); }) ==
        std::make_pair(std::string("model"), std::string("model.c must be a finite number (got undefined)")));
}

TEST_CASE("mergeSweepParts: parts in any order give sweep_point over all trials, SPEC §9's bounds included") {
  const attnx::SweepOptions o = small_sweep(5);
  const attnx::SweepPoint all = attnx::sweep_point(o, 24);
  attnx::SweepOptions a = o, b = o;
  a.trials = 2;
  b.first_trial = 2;
  b.trials = 3;
  const std::string parts = "[" + part_text(attnx::sweep_point(b, 24), 2) + "," + part_text(attnx::sweep_point(a, 24), 0) + "]";
  const JsonValue merged = attnx::merge_sweep_parts_call(js("24"), js("5"), js("0.1"), js(parts), js("0.1"));
  attnx::SweepRecord rec;
  rec.params.delta = 0.1;
  rec.points = {attnx::record_point(all, 0.1)};
  REQUIRE(rec.points[0].bounds.has_value());
  // The merged point written by formatSweep is what attnx sweep writes for the whole point.
  JsonValue record = js(R"({"params": {"delta": 0.1}, "points": []})");
  record.obj[1].second.arr.push_back(merged);
  CHECK(attnx::format_sweep_call(record, js("\"json\"")) == attnx::sweep_to_json(rec));
  CHECK(attnx::format_sweep_call(record, js("\"csv\"")) == attnx::sweep_to_csv(rec));
  // Parts without SPEC §9's lists merge without bound keys; a gap is refused naming the trial.
  const JsonValue bare = attnx::merge_sweep_parts_call(js("8"), js("2"), js("0.1"),
                                                       js(R"([{"firstTrial": 1, "dMins": [null]}, {"firstTrial": 0, "dMins": [4]}])"), JsonValue());
  CHECK(bare.find("logit_scales") == nullptr);
  CHECK(bare.find("d_mins")->arr[1].type == JsonValue::Type::Null);
  CHECK(refusal([] {
          attnx::merge_sweep_parts_call(js("8"), js("3"), js("0.1"),
                                        js(R"([{"firstTrial": 0, "dMins": [4]}, {"firstTrial": 2, "dMins": [5]}])"), JsonValue());
        }).second.find("do not join up at trial 2: trials 1..1 are in no part") != std::string::npos);
  CHECK(refusal([] {
          attnx::merge_sweep_parts_call(js("8"), js("1"), js("0.1"),
                                        js(R"([{"firstTrial": 0, "dMins": [4], "logitScales": [1, 2]}])"), JsonValue());
        }) == std::make_pair(std::string("parts"),
                             std::string("parts[0].logitScales must have one entry per trial (1, as dMins; got 2)")));
}

TEST_CASE("a sweep record's SPEC §9 bounds survive parseSweep and formatSweep byte for byte") {
  attnx::SweepOptions o = small_sweep(3);
  o.Ls = {16, 24};
  const std::string text = attnx::sweep_to_json(attnx::sweep_record(o, attnx::sweep(o)));
  REQUIRE(text.find("\"logit_scales\"") != std::string::npos);
  JsonValue t;
  t.type = JsonValue::Type::String;
  t.str = text;
  const JsonValue parsed = attnx::parse_sweep_call(t);
  const double n = parsed.find("points")->arr[0].find("column_supports")->num;
  CHECK((n >= 1 && n <= 16));
  CHECK(attnx::format_sweep_call(parsed, js("\"json\"")) == text);
  JsonValue bad = parsed;  // members: source, version, params, points (3); L = 16 has at most 16 supports
  for (auto& m : bad.obj[3].second.arr[0].obj)
    if (m.first == "column_supports") m.second = JsonValue::of(99);
  CHECK(refusal([&] { attnx::format_sweep_call(bad, js("\"json\"")); }).first == "record");
}

TEST_CASE("the lab's readings and axes: the core's, with null as not reached — bad arguments named") {
  const attnx::DDistribution d = attnx::d_distribution_call(js("[300, null, 200, 300]"));
  CHECK((d.trials == 4 && d.reached == 3 && d.max_reached == 300 && d.steps.size() == 2));
  CHECK(d.steps[1].p == 0.75);
  const attnx::FitReading none = attnx::fit_reading_call(JsonValue(), JsonValue(), js("[100, 200]"));
  CHECK(none.basis == "none");
  const attnx::FitReading boot = attnx::fit_reading_call(
      js(R"({"log": {"ok": true, "a": 1, "b": 100, "r2": 0.9}, "power": {"ok": true, "c": 1, "p": 0.5, "r2": null}})"),
      js(R"({"resamples": 1000, "logWins": 950, "powerWins": 50, "lengths": 5})"), js("[100, 200, 300, 400, 500]"));
  CHECK((boot.basis == "bootstrap" && boot.verdict == "log"));
  CHECK(refusal([] { attnx::fit_reading_call(js("5"), JsonValue(), js("[]")); }).first == "fits");
  CHECK(refusal([] { attnx::fit_reading_call(JsonValue(), js(R"({"resamples": 1})"), js("[]")); }) ==
        std::make_pair(std::string("comparison"), std::string("comparison.logWins must be an integer from 0 to 1073741824 (got undefined)")));
  const attnx::BandReading band = attnx::band_reading_call(js("[64, 128, 2048]"), js("[500, null, 900]"), js("300"), js("1000"));
  CHECK((band.lengths == 1 && band.first_L == 64 && band.inside == 1));
  const attnx::Axis L = attnx::length_axis_call(js("[64, 128, 256, 512]"), JsonValue());
  CHECK(L.ticks == std::vector<double>{64, 128, 256, 512});
  const attnx::DAxis da = attnx::d_axis_call(js("[1391]"), js("[null]"), js("4096"), js("0"), js("false"));
  CHECK(da.axis.hi == attnx::d_axis({{1391, -1}}, 4096, 0, false).axis.hi);
  CHECK(refusal([] { attnx::d_axis_call(js("[1]"), js("[]"), js("4096"), js("0"), js("false")); }).first == "dStars");
  CHECK(refusal([] { attnx::length_axis_call(js("[64]"), js("1")); }).second == "compact must be true or false (got 1)");
  CHECK(attnx::dimension_axis_call(js("[830, null, 4]"), js("false")).ticks.front() == 2);
  CHECK(attnx::bits_axis_call().formats.size() == 2);
}

TEST_CASE("bounds: the floors of attnx bounds at one length, the packing floor only with a scale") {
  const attnx::FloorsAtL f = attnx::bounds_call(js(R"({"L": 256, "k": 2})"));
  const attnx::FloorsAtL want = attnx::floors_at(256, 2, 0.1);
  CHECK((f.L == 256 && !f.has_scale && f.bits_fixed_keys == want.bits_fixed_keys));
  const attnx::FloorsAtL s = attnx::bounds_call(js(R"({"L": 256, "k": 2, "tau": 0.1, "logitScale": 5})"));
  CHECK((s.has_scale && s.column_supports == 256 && s.d_lambda == attnx::packing_floor(5, 256, 0.1)));
  CHECK(refusal([] { attnx::bounds_call(js(R"({"L": 8, "k": 9})")); }).first == "k");
  CHECK(refusal([] { attnx::bounds_call(js(R"({"scale": 5})")); }).second.rfind("unknown option \"scale\" (allowed: L, k, tau, logitScale)", 0) == 0);
}

TEST_CASE("gram_update_error: every kernel here within float32 rounding of the double reference") {
  for (attnx::GramUpdate u : {attnx::gram_update_lower_kernel, attnx::gram_update_lower_eigen, attnx::gram_update_lower})
    for (int L : {1, 9, 33}) {
      const attnx::GramUpdateError e = attnx::gram_update_error(u, L, 17, 3);
      CHECK(e.upper_untouched);
      CHECK(e.max_err <= 19 * std::ldexp(1.0, -23) * std::max(1.0, e.scale));
    }
  const auto wrong = [](float* G, int L, const float*, int) { G[L] += 1; };  // writes (0, 1): upper
  CHECK_FALSE(attnx::gram_update_error(wrong, 4, 1, 1).upper_untouched);
  const auto lossy = [](float* G, int, const float*, int) { G[0] += 0.5f; };
  CHECK(attnx::gram_update_error(lossy, 4, 1, 1).max_err >= 0.4);
}
