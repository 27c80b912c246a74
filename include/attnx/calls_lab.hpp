// attnx core: the JavaScript API's lab calls (web/lib/attnx.js planSweep, taskWork, sweepProgress,
// fitCost, predictTrialSeconds, mergeSweepParts, dDistribution, fitReading, bandReading,
// lengthAxis, dAxis, successAxes, dimensionAxis, bitsAxis) and bounds: the caller's arguments read
// from JsonValue (call_values.hpp: refusals name the argument, "Ls[2] must be ..."), handed to the
// core functions the CLI uses (sweep_cost, sweep_plan, sweep.hpp's merge, sweep_reading,
// sweep_plots, bounds), their records returned as they are. The WebAssembly module registers them
// (wasm/records.cpp). In arrays of d values null (or any negative number) is "not reached"; other
// numbers a caller may not know are null too. Each call is cheap: linear in its arrays.
#pragma once
#include <vector>

#include "bounds.hpp"
#include "json.hpp"
#include "sweep_cost.hpp"
#include "sweep_plan.hpp"
#include "sweep_plots.hpp"
#include "sweep_reading.hpp"

namespace attnx {

// planSweep(Ls, trials, lanes): plan_sweep_tasks under the prior cost model. Ls: lengths of the
// option table; trials: its range; lanes: workers, 1 to kMaxThreads.
std::vector<PlannedTask> plan_sweep_call(const JsonValue& Ls, const JsonValue& trials, const JsonValue& lanes);
// taskWork(L, trials): task_work under the prior cost model.
double task_work_call(const JsonValue& L, const JsonValue& trials);
// sweepProgress(weights, fractions, elapsed): sweep_progress; weights finite numbers >= 0,
// fractions as many finite numbers (clamped to [0, 1] by the core), elapsed seconds >= 0.
SweepProgress sweep_progress_call(const JsonValue& weights, const JsonValue& fractions, const JsonValue& elapsed);
// fitCost(timings, step, dMax): fit_cost of [{ L, dMin (null: not reached), seconds > 0 }].
CostModel fit_cost_call(const JsonValue& timings, const JsonValue& step, const JsonValue& d_max);
// predictTrialSeconds(model, L): predict_trial_seconds of a model as fitCost returns it
// ({ ok, c, p, dOfL: { ok, a, b }, dLo, dHi }; dHi may be Infinity).
double predict_trial_seconds_call(const JsonValue& model, const JsonValue& L);

// mergeSweepParts(L, trials, delta, parts, tau): merge_point_parts of parts [{ firstTrial, dMins,
// dStar?, k?, maxColCount?, inClass?, madds?, logitScales?, maxAbsLogits?, columnSupports? }]
// (sweepPoint answers plus where they start; other members ignored), the point as `attnx sweep`
// writes it (call_record's keys: L, d_mins, median, quantile, d_star, k, max_col_count, in_class,
// madds and, when the parts carry SPEC §9's per-trial lists, the bound keys of sweep_io.hpp
// summarised at tau; a part without them counts as unknown). tau absent: the option table's default.
JsonValue merge_sweep_parts_call(const JsonValue& L, const JsonValue& trials, const JsonValue& delta,
                                 const JsonValue& parts, const JsonValue& tau);

// dDistribution(dMins): d_distribution.
DDistribution d_distribution_call(const JsonValue& d_mins);
// fitReading(fits, comparison, quantiles): read_fits of fits as summariseSweep / parseSweep give
// them ({ log: { ok, a, b, r2 }, power: { ok, c, p, r2 } }, numbers null when not ok; null: no
// fits), the bootstrap comparison { resamples, logWins, powerWins, lengths } or null.
FitReading fit_reading_call(const JsonValue& fits, const JsonValue& comparison, const JsonValue& quantiles);
// bandReading(Ls, medians, lo, hi): read_band; medians null when not reached.
BandReading band_reading_call(const JsonValue& Ls, const JsonValue& medians, const JsonValue& lo, const JsonValue& hi);
// lengthAxis(Ls, compact), dAxis(maxReached, dStars, dMax, bandHi, fullDStar), successAxes(
// maxReached, dMax, compact), dimensionAxis(values, compact): the plots' axes (sweep_plots.hpp).
// maxReached: d values (null: none reached); dStars: as many numbers or nulls (unknown); bandHi:
// a number >= 0 (0: no band); values: numbers or nulls (left out). Flags: absent is false.
Axis length_axis_call(const JsonValue& Ls, const JsonValue& compact);
DAxis d_axis_call(const JsonValue& max_reached, const JsonValue& d_stars, const JsonValue& d_max,
                  const JsonValue& band_hi, const JsonValue& full_d_star);
SuccessAxes success_axes_call(const JsonValue& max_reached, const JsonValue& d_max, const JsonValue& compact);
Axis dimension_axis_call(const JsonValue& values, const JsonValue& compact);
// bitsAxis(): the bits(X) axis and the float formats drawn on it.
struct BitsAxis {
  Axis axis;
  std::vector<FloatFormat> formats;
};
BitsAxis bits_axis_call();

// bounds({ L, k, tau, logitScale }): floors_at, the floors `attnx bounds` prints at one length
// (each option as the table has it; the packing floor only when logitScale is given).
FloorsAtL bounds_call(const JsonValue& opts);

}  // namespace attnx
