// attnx wasm: the lab's calls (web/lab): a sweep's task plan, progress and time left (one cost
// model with attnx sweep --dry-run), the merge of streamed parts, success curves, the reading of
// the fits, the paper band and the plots' axes. Registrations only: every number is the core's
// (sweep_cost, sweep_plan, sweep.hpp's merge, sweep_reading, sweep_plots); records are embind
// value_objects (generic glue: bind_fields.hpp). Inputs are read without ever throwing a JS error;
// a C++ refusal comes back as a RETURNED JS Error (guarded) that web/lib/attnx.js throws.
#include <emscripten/bind.h>

#include <attnx/errors.hpp>
#include <attnx/sweep.hpp>
#include <attnx/sweep_cost.hpp>
#include <attnx/sweep_io.hpp>
#include <attnx/sweep_plan.hpp>
#include <attnx/sweep_plots.hpp>
#include <attnx/sweep_reading.hpp>

#include "bind_fields.hpp"
#include "convert.hpp"

using emscripten::val;
using namespace attnx;
using namespace attnx::wasm;

namespace {

// A streamed part: { firstTrial, dMins, dStar, k, maxColCount, inClass, madds } (sweepPoint's
// answer for those trials, plus where they start).
PointPart part_from_js(const val& p) {
  PointPart q;
  q.first_trial = int_at(p, "firstTrial");
  q.point.d_mins = p.isNull() || p.isUndefined() ? std::vector<int>() : ints_from_js(p["dMins"]);
  q.point.d_star = number_at(p, "dStar");
  q.point.k = int_at(p, "k");
  q.point.max_col_count = int_at(p, "maxColCount");
  q.point.in_class = bool_at(p, "inClass", true);
  const double madds = number_at(p, "madds");
  q.point.madds = madds >= 0 ? static_cast<std::uint64_t>(madds) : 0;
  return q;
}

// The fits as the records carry them ({ log: { ok, a, b, r2 }, power: { ok, c, p, r2 } }, numbers
// null when not ok; null: no fits).
SweepFits fits_from_js(const val& f) {
  const val none = val::null();
  const val l = f.isNull() || f.isUndefined() ? none : f["log"], p = f.isNull() || f.isUndefined() ? none : f["power"];
  return {{bool_at(l, "ok", false), number_at(l, "a"), number_at(l, "b"), number_at(l, "r2")},
          {bool_at(p, "ok", false), number_at(p, "c"), number_at(p, "p"), number_at(p, "r2")}};
}

val js_plan_sweep(val Ls, int trials, int lanes) {
  return guarded([&] { return array_to_js(plan_sweep_tasks(prior_cost_model(), ints_from_js(Ls), trials, lanes)); });
}

val js_task_work(int L, int trials) {
  return guarded([&] { return val(task_work(prior_cost_model(), L, trials)); });
}

val js_sweep_progress(val weights, val fractions, double elapsed) {
  return guarded([&] {
    const std::vector<double> w = numbers_from_js(weights), f = numbers_from_js(fractions);
    if (w.size() != f.size()) fail("fractions", "fractions must be as many as weights");
    std::vector<TaskShare> tasks;
    for (std::size_t i = 0; i < w.size(); ++i) tasks.push_back({w[i], f[i]});
    return val(sweep_progress(tasks, elapsed));
  });
}

val js_fit_cost(val timings, int step, int d_max) {
  return guarded([&] {
    std::vector<TrialTiming> t;
    const std::size_t n = timings.isArray() ? timings["length"].as<std::size_t>() : 0;
    for (std::size_t i = 0; i < n; ++i) t.push_back({int_at(timings[i], "L"), int_at(timings[i], "dMin"), number_at(timings[i], "seconds")});
    return val(fit_cost(t, step, d_max));
  });
}

val js_predict_trial_seconds(CostModel m, int L) {
  return guarded([&] { return val(predict_trial_seconds(m, L)); });
}

val js_merge_sweep_parts(int L, int trials, double delta, val parts) {
  return guarded([&] {
    std::vector<PointPart> in;
    const std::size_t n = parts.isArray() ? parts["length"].as<std::size_t>() : 0;
    for (std::size_t i = 0; i < n; ++i) in.push_back(part_from_js(parts[i]));
    return val(record_point(merge_point_parts(L, in, trials, delta)));
  });
}

val js_d_distribution(val d_mins) {
  return guarded([&] { return val(d_distribution(ints_from_js(d_mins))); });
}

val js_fit_reading(val fits, val comparison, val quantiles) {
  return guarded([&] {
    const FitComparison c{int_at(comparison, "resamples"), int_at(comparison, "logWins"),
                          int_at(comparison, "powerWins"), int_at(comparison, "lengths")};
    const bool has = !comparison.isNull() && !comparison.isUndefined();
    return val(read_fits(fits_from_js(fits), has ? &c : nullptr, ints_from_js(quantiles)));
  });
}

val js_band_reading(val Ls, val medians, double lo, double hi) {
  return guarded([&] { return val(read_band(ints_from_js(Ls), numbers_from_js(medians), lo, hi)); });
}

val js_length_axis(val Ls, bool compact) {
  return guarded([&] { return val(length_axis(ints_from_js(Ls), compact)); });
}

val js_d_axis(val max_reached, val d_stars, int d_max, double band_hi, bool full_d_star) {
  return guarded([&] {
    const std::vector<int> m = ints_from_js(max_reached);
    const std::vector<double> s = numbers_from_js(d_stars);
    if (s.size() != m.size()) fail("dStars", "dStars must be as many as maxReached");
    std::vector<DPlotPoint> pts;
    for (std::size_t i = 0; i < m.size(); ++i) pts.push_back({m[i], std::isfinite(s[i]) ? s[i] : -1});
    return val(d_axis(pts, d_max, band_hi, full_d_star));
  });
}

val js_success_axes(val max_reached, int d_max, bool compact) {
  return guarded([&] { return val(success_axes(ints_from_js(max_reached), d_max, compact)); });
}

val js_dimension_axis(val values, bool compact) {
  return guarded([&] { return val(dimension_axis(numbers_from_js(values), compact)); });
}

val js_bits_axis() {
  return guarded([] {
    val r = val::object();
    r.set("axis", bits_axis());
    r.set("formats", array_to_js(float_formats()));
    return r;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnx_lab) {
  using emscripten::value_object;
  using P = SweepRecordPoint;
  value_object<PlannedTask>("PlannedTask")
      .field("L", &PlannedTask::L).field("firstTrial", &PlannedTask::first_trial)
      .field("trials", &PlannedTask::trials).field("weight", &PlannedTask::work);
  value_object<SweepProgress>("SweepProgress")
      .field("fraction", &SweepProgress::fraction)
      .field("eta", &get_or_null<&SweepProgress::eta>, &set_or_null<&SweepProgress::eta>);
  value_object<LogFit>("LabLogFit")
      .field("ok", &LogFit::ok).field("a", &LogFit::a).field("b", &LogFit::b).field("r2", &LogFit::r2);
  value_object<CostModel>("CostModel")
      .field("ok", &CostModel::ok).field("c", &CostModel::c).field("p", &CostModel::p).field("r2", &CostModel::r2)
      .field("dOfL", &CostModel::d_of_L).field("dLo", &CostModel::d_lo).field("dHi", &CostModel::d_hi);
  value_object<P>("SweepRecordPoint")
      .field("L", &P::L).field("d_mins", &get_array<&P::d_mins>, &set_array<&P::d_mins>)
      .field("median", &get_or_null<&P::median>, &set_or_null<&P::median>)
      .field("quantile", &get_or_null<&P::quantile>, &set_or_null<&P::quantile>)
      .field("d_star", &get_optional<&P::d_star>, &set_optional<&P::d_star>)
      .field("k", &get_optional<&P::k>, &set_optional<&P::k>)
      .field("max_col_count", &get_optional<&P::max_col_count>, &set_optional<&P::max_col_count>)
      .field("in_class", &get_optional<&P::in_class>, &set_optional<&P::in_class>)
      .field("madds", &get_optional<&P::madds>, &set_optional<&P::madds>);
  value_object<EcdfStep>("EcdfStep").field("d", &EcdfStep::d).field("count", &EcdfStep::count).field("p", &EcdfStep::p);
  value_object<DDistribution>("DDistribution")
      .field("trials", &DDistribution::trials).field("reached", &DDistribution::reached)
      .field("maxReached", &get_or_null<&DDistribution::max_reached>, &set_or_null<&DDistribution::max_reached>)
      .field("steps", &get_array<&DDistribution::steps>, &set_array<&DDistribution::steps>);
  value_object<FitReading>("FitReading")
      .field("fitsOk", &FitReading::fits_ok).field("basis", &FitReading::basis).field("verdict", &FitReading::verdict)
      .field("smallExponent", &FitReading::small_exponent).field("usable", &FitReading::usable)
      .field("lengths", &FitReading::lengths).field("rough", &FitReading::rough)
      .field("perDoubling", &FitReading::per_doubling);
  value_object<BandReading>("BandReading")
      .field("lengths", &BandReading::lengths).field("firstL", &BandReading::first_L)
      .field("lastL", &BandReading::last_L).field("lo", &BandReading::lo).field("hi", &BandReading::hi)
      .field("inside", &BandReading::inside);
  value_object<Axis>("Axis")
      .field("lo", &Axis::lo).field("hi", &Axis::hi).field("step", &Axis::step)
      .field("ticks", &get_array<&Axis::ticks>, &set_array<&Axis::ticks>);
  value_object<DStarAbove>("DStarAbove")
      .field("count", &DStarAbove::count).field("lo", &DStarAbove::lo).field("hi", &DStarAbove::hi);
  value_object<DAxis>("DAxis").field("axis", &DAxis::axis).field("dStarAbove", &DAxis::d_star_above);
  value_object<SuccessAxes>("SuccessAxes").field("d", &SuccessAxes::d).field("probability", &SuccessAxes::probability);
  value_object<FloatFormat>("FloatFormat").field("name", &FloatFormat::name).field("bits", &FloatFormat::bits);

  emscripten::function("planSweep", &js_plan_sweep);
  emscripten::function("taskWork", &js_task_work);
  emscripten::function("sweepProgress", &js_sweep_progress);
  emscripten::function("fitCost", &js_fit_cost);
  emscripten::function("predictTrialSeconds", &js_predict_trial_seconds);
  emscripten::function("mergeSweepParts", &js_merge_sweep_parts);
  emscripten::function("dDistribution", &js_d_distribution);
  emscripten::function("fitReading", &js_fit_reading);
  emscripten::function("bandReading", &js_band_reading);
  emscripten::function("lengthAxis", &js_length_axis);
  emscripten::function("dAxis", &js_d_axis);
  emscripten::function("successAxes", &js_success_axes);
  emscripten::function("dimensionAxis", &js_dimension_axis);
  emscripten::function("bitsAxis", &js_bits_axis);
}
