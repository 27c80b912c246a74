// attnx core: the JavaScript API's lab calls and bounds (see calls_lab.hpp).
#include <attnx/calls_lab.hpp>

#include <cmath>

#include <attnx/call_options.hpp>
#include <attnx/call_values.hpp>
#include <attnx/calls.hpp>
#include <attnx/calls_io.hpp>
#include <attnx/errors.hpp>
#include <attnx/schema.hpp>
#include <attnx/sweep_io.hpp>
#include "call_record.hpp"

namespace attnx {

namespace {

using Type = JsonValue::Type;

// f() with its refusals named by `field` (the argument), their messages keeping the path inside
// it ("parts[1].dMins[0] must be ...").
template <class F>
auto within(const char* field, F&& f) {
  try {
    return f();
  } catch (const InvalidArgument& e) {
    fail(field, e.what());
  }
}

std::string at(const char* field, std::size_t i, const char* key) {
  return std::string(field) + "[" + std::to_string(i) + "]." + key;
}

// Member `key` of object o when given, else `otherwise`.
double number_or(const JsonValue& o, const std::string& key, const std::string& name, double otherwise) {
  const JsonValue& v = member(o, key);
  return absent(&v) ? otherwise : number_value(v, name);
}

// A part's per-trial SPEC §9 list (logitScales, maxAbsLogits): null -> -1; absent: empty.
std::vector<double> trial_list(const JsonValue& p, const char* key, std::size_t i, std::size_t trials) {
  const JsonValue& v = member(p, key);
  if (absent(&v)) return {};
  std::vector<double> out = numbers_or_none(v, at("parts", i, key), -1);
  if (out.size() != trials)
    fail(at("parts", i, key), at("parts", i, key) + " must have one entry per trial (" + std::to_string(trials) +
                                  ", as dMins; got " + std::to_string(out.size()) + ")");
  return out;
}

// One streamed part: sweepPoint's answer for its trials plus firstTrial.
PointPart read_part(const JsonValue& p, std::size_t i) {
  PointPart q;
  q.first_trial = static_cast<int>(int_value(member(p, "firstTrial"), at("parts", i, "firstTrial"), 0, kMaxTrials - 1));
  SweepPoint& s = q.point;
  s.d_mins = call_record::read_d_values(&member(p, "dMins"), "parts", at("parts", i, "dMins"));
  s.d_star = number_or(p, "dStar", at("parts", i, "dStar"), 0);
  auto count = [&](const char* key, long long hi) {  // absent: 0 (unknown)
    const JsonValue& v = member(p, key);
    return absent(&v) ? 0 : int_value(v, at("parts", i, key), 0, hi);
  };
  s.k = static_cast<int>(count("k", kMaxL));
  s.max_col_count = static_cast<int>(count("maxColCount", kMaxL));
  s.in_class = flag_value(member(p, "inClass"), at("parts", i, "inClass"), true);
  s.madds = static_cast<std::uint64_t>(count("madds", static_cast<long long>(kMaxExactInt)));
  s.logit_scales = trial_list(p, "logitScales", i, s.d_mins.size());
  s.max_abs_logits = trial_list(p, "maxAbsLogits", i, s.d_mins.size());
  s.column_supports = static_cast<int>(count("columnSupports", kMaxL));
  return q;
}

// The fits as summariseSweep and parseSweep give them (null numbers when not ok); null: none.
SweepFits read_fits_value(const JsonValue& f) {
  SweepFits s;
  if (absent(&f)) return s;
  if (f.type != Type::Object) fail("fits", "fits must be an object { log, power } or null (got " + describe_value(f) + ")");
  auto fit = [&](const char* name, const char* k0, const char* k1, double& x0, double& x1, double& r2) {
    const JsonValue& o = member(f, name);
    const std::string base = std::string("fits.") + name + ".";
    const bool ok = flag_value(member(o, "ok"), base + "ok");
    x0 = number_or(o, k0, base + k0, NAN);
    x1 = number_or(o, k1, base + k1, NAN);
    r2 = number_or(o, "r2", base + "r2", NAN);
    return ok;
  };
  s.log.ok = fit("log", "a", "b", s.log.a, s.log.b, s.log.r2);
  s.power.ok = fit("power", "c", "p", s.power.c, s.power.p, s.power.r2);
  return s;
}

}  // namespace

std::vector<PlannedTask> plan_sweep_call(const JsonValue& Ls, const JsonValue& trials, const JsonValue& lanes) {
  const std::vector<int> L = int_list(Ls, "Ls", kMinL, kMaxL);
  return plan_sweep_tasks(prior_cost_model(), L, option_value(trials, "trials", "trials"),
                          static_cast<int>(int_value(lanes, "lanes", 1, kMaxThreads)));
}

double task_work_call(const JsonValue& L, const JsonValue& trials) {
  return task_work(prior_cost_model(), option_value(L, "L", "L"), option_value(trials, "trials", "trials"));
}

SweepProgress sweep_progress_call(const JsonValue& weights, const JsonValue& fractions, const JsonValue& elapsed) {
  const std::vector<double> w = read_number_list(weights, "weights"), f = read_number_list(fractions, "fractions");
  if (f.size() != w.size()) fail("fractions", "fractions must be as many as weights (" + std::to_string(w.size()) + ")");
  std::vector<TaskShare> tasks;
  for (std::size_t i = 0; i < w.size(); ++i) {
    if (w[i] < 0) fail("weights", "weights[" + std::to_string(i) + "] must be a number >= 0 (got " + js_number(w[i]) + ")");
    tasks.push_back({w[i], f[i]});
  }
  const double s = number_value(elapsed, "elapsed");
  if (s < 0) fail("elapsed", "elapsed must be a number of seconds >= 0 (got " + js_number(s) + ")");
  return sweep_progress(tasks, s);
}

CostModel fit_cost_call(const JsonValue& timings, const JsonValue& step, const JsonValue& d_max) {
  const std::vector<TrialTiming> t = within("timings", [&] {
    std::vector<TrialTiming> out;
    const std::vector<JsonValue>& list = object_list(timings, "timings");
    for (std::size_t i = 0; i < list.size(); ++i) {
      const double s = number_value(member(list[i], "seconds"), at("timings", i, "seconds"));
      if (!(s > 0)) fail("timings", at("timings", i, "seconds") + " must be a number > 0 (got " + js_number(s) + ")");
      const JsonValue& d = member(list[i], "dMin");
      out.push_back({static_cast<int>(option_value(member(list[i], "L"), "L", at("timings", i, "L"))),
                     absent(&d) ? -1 : static_cast<int>(int_value(d, at("timings", i, "dMin"), 1, kMaxD)), s});
    }
    return out;
  });
  const int s = static_cast<int>(option_value(step, "step", "step"));  // dMax: from step, as the grid
  return fit_cost(t, s, static_cast<int>(int_value(d_max, "dMax", s, static_cast<long long>(context_max("wasm", "dmax")))));
}

double predict_trial_seconds_call(const JsonValue& model, const JsonValue& L) {
  const CostModel m = within("model", [&] {
    if (model.type != Type::Object) fail("model", "model must be an object as fitCost returns it (got " + describe_value(model) + ")");
    CostModel c;
    c.ok = flag_value(member(model, "ok"), "model.ok");
    c.c = number_value(member(model, "c"), "model.c");
    c.p = number_value(member(model, "p"), "model.p");
    const JsonValue& d = member(model, "dOfL");
    c.d_of_L.ok = flag_value(member(d, "ok"), "model.dOfL.ok");
    c.d_of_L.a = number_or(d, "a", "model.dOfL.a", 0);
    c.d_of_L.b = number_or(d, "b", "model.dOfL.b", 0);
    c.d_lo = number_value(member(model, "dLo"), "model.dLo");
    const JsonValue& hi = member(model, "dHi");
    c.d_hi = hi.type == Type::Number && hi.num == INFINITY ? INFINITY : number_value(hi, "model.dHi");
    c.anchor_work = number_or(model, "anchorWork", "model.anchorWork", 0);
    c.anchor_seconds = number_or(model, "anchorSeconds", "model.anchorSeconds", 0);
    for (const auto& [v, name] : {std::pair{c.anchor_work, "model.anchorWork"}, std::pair{c.anchor_seconds, "model.anchorSeconds"}})
      if (v < 0) fail("model", std::string(name) + " must be a number >= 0 as fitCost returns it (0: no anchor; got " + js_number(v) + ")");
    return c;
  });
  return predict_trial_seconds(m, option_value(L, "L", "L"));
}

JsonValue merge_sweep_parts_call(const JsonValue& L, const JsonValue& trials, const JsonValue& delta,
                                 const JsonValue& parts, const JsonValue& tau) {
  std::vector<PointPart> in = within("parts", [&] {
    std::vector<PointPart> out;
    const std::vector<JsonValue>& list = object_list(parts, "parts");
    for (std::size_t i = 0; i < list.size(); ++i) out.push_back(read_part(list[i], i));
    return out;
  });
  bool bounds = false;  // a part without SPEC §9's lists, among parts with them: unknown (-1)
  for (const PointPart& p : in) bounds = bounds || !p.point.logit_scales.empty();
  for (PointPart& p : in)
    if (bounds && p.point.logit_scales.empty()) p.point.logit_scales.assign(p.point.d_mins.size(), -1);
  for (PointPart& p : in)
    if (bounds && p.point.max_abs_logits.empty()) p.point.max_abs_logits.assign(p.point.d_mins.size(), -1);
  const double t = absent(&tau) ? option_info("tau").def : number_value(tau, "tau");
  require_option("tau", t);
  const SweepPoint merged = merge_point_parts(option_value(L, "L", "L"), std::move(in), option_value(trials, "trials", "trials"),
                                              number_value(delta, "delta"));
  return call_record::point_value(record_point(merged, t));
}

DDistribution d_distribution_call(const JsonValue& d_mins) { return d_distribution(read_d_list(d_mins, "dMins")); }

FitReading fit_reading_call(const JsonValue& fits, const JsonValue& comparison, const JsonValue& quantiles) {
  const SweepFits f = within("fits", [&] { return read_fits_value(fits); });
  FitComparison c;
  if (!absent(&comparison)) {
    auto count = [&](const char* key) {
      return static_cast<int>(int_value(member(comparison, key), std::string("comparison.") + key, 0, 1 << 30));
    };
    c = within("comparison", [&] {
      return FitComparison{count("resamples"), count("logWins"), count("powerWins"), count("lengths")};
    });
  }
  return read_fits(f, absent(&comparison) ? nullptr : &c, read_d_list(quantiles, "quantiles"));
}

BandReading band_reading_call(const JsonValue& Ls, const JsonValue& medians, const JsonValue& lo, const JsonValue& hi) {
  return read_band(int_list(Ls, "Ls", kMinL, kMaxL), numbers_or_none(medians, "medians", -1), number_value(lo, "lo"),
                   number_value(hi, "hi"));
}

Axis length_axis_call(const JsonValue& Ls, const JsonValue& compact) {
  return length_axis(int_list(Ls, "Ls", kMinL, kMaxL), flag_value(compact, "compact"));
}

DAxis d_axis_call(const JsonValue& max_reached, const JsonValue& d_stars, const JsonValue& d_max,
                  const JsonValue& band_hi, const JsonValue& full_d_star) {
  const std::vector<int> m = read_d_list(max_reached, "maxReached");
  const std::vector<double> s = numbers_or_none(d_stars, "dStars", -1);
  if (s.size() != m.size()) fail("dStars", "dStars must be as many as maxReached (" + std::to_string(m.size()) + ")");
  std::vector<DPlotPoint> pts;
  for (std::size_t i = 0; i < m.size(); ++i) pts.push_back({m[i], std::isfinite(s[i]) ? s[i] : -1});
  const double band = number_value(band_hi, "bandHi");
  if (band < 0) fail("bandHi", "bandHi must be a number >= 0 (0: no band; got " + js_number(band) + ")");
  return d_axis(pts, option_value(d_max, "dmax", "dMax"), band, flag_value(full_d_star, "fullDStar"));
}

SuccessAxes success_axes_call(const JsonValue& max_reached, const JsonValue& d_max, const JsonValue& compact) {
  return success_axes(read_d_list(max_reached, "maxReached"), option_value(d_max, "dmax", "dMax"),
                      flag_value(compact, "compact"));
}

Axis dimension_axis_call(const JsonValue& values, const JsonValue& compact) {
  return dimension_axis(numbers_or_none(values, "values", NAN), flag_value(compact, "compact"));
}

BitsAxis bits_axis_call() { return {bits_axis(), float_formats()}; }

FloorsAtL bounds_call(const JsonValue& opts_in) {
  const JsonValue& o = options_value(opts_in, {"L", "k", "tau", "logitScale"});
  auto int_option = [&](const char* name) {
    const JsonValue& v = member(o, name);
    return absent(&v) ? static_cast<int>(option_info(name).def) : option_value(v, name, name);
  };
  const JsonValue& tau = member(o, "tau");
  const JsonValue& scale = member(o, "logitScale");
  return floors_at(int_option("L"), int_option("k"), absent(&tau) ? option_info("tau").def : number_value(tau, "tau"),
                   !absent(&scale), absent(&scale) ? 0 : number_value(scale, "logitScale"));
}

}  // namespace attnx
