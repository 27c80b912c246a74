// attnx core: the report of `attnx sweep --report` (a "report" member after "fits" in the JSON
// output): the numbers the lab shows beside a sweep, computed by the same functions: the bootstrap
// comparison of the fits and its reading (sweep_reading.hpp), every length's success curve, and
// the axes of the two plots (sweep_plots.hpp, as drawn at full width, without the paper's band,
// the d axis not stretched to d*).
#pragma once
#include <vector>

#include "json.hpp"
#include "sweep_io.hpp"
#include "sweep_plots.hpp"
#include "sweep_reading.hpp"

namespace attnx {

struct SweepReport {
  FitComparison comparison;                 // compare_fits(points, delta) (default resamples, seed 1)
  FitReading reading;                       // read_fits(fits, &comparison, quantiles)
  std::vector<int> Ls;                      // the points' lengths, in the record's order
  std::vector<DDistribution> distributions;  // per point
  Axis lengths;                             // length_axis(points' L, not compact)
  DAxis d;                                  // d_axis(points, d_max, no band, d* not in range)
  SuccessAxes success;                      // success_axes(points' largest reached d, d_max)
};

// The report of a record with delta and d_max in its params (InvalidArgument("delta" / "d_max")
// when missing). Cost: the bootstrap, kDefaultFitResamples times the fits of every length.
SweepReport sweep_report(const SweepRecord& rec);

// Writes the report as the value of the current key (an object; compact rows for arrays of
// numbers). Keys: fit_comparison {resamples, log_wins, power_wins, lengths, verdict}, reading
// {fits_ok, basis, verdict, small_exponent, usable, lengths, rough, per_doubling}, success [{L, trials,
// reached, max_reached (null: none), steps: [[d, count, p], ...]}], axes {L, d, success_d,
// success_p: {lo, hi, ticks}, d_star_above: {count, lo, hi}}.
void write_report(JsonWriter& w, const SweepReport& r);

}  // namespace attnx
