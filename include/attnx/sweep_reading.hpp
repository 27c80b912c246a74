// attnx core: what a sweep's numbers say, as the lab shows them and `attnx sweep --report`
// prints them: the distribution of one length's minimal d (its success curve, an empirical CDF),
// the reading of the two fits (which one the data favour, with the bootstrap comparison when there
// is one, else from the R^2 of this one sample) and the comparison with the paper's band.
#pragma once
#include <string>
#include <vector>

#include "sweep_io.hpp"

namespace attnx {

// One step of a success curve: `count` trials have d_min exactly d, and a fraction p of ALL
// trials (reached or not) have d_min <= d.
struct EcdfStep {
  int d = 0, count = 0;
  double p = 0;
};
struct DDistribution {
  int trials = 0, reached = 0;
  int max_reached = -1;         // the largest reached d; -1 when none reached
  std::vector<EcdfStep> steps;  // one per distinct reached d, ascending; p ends below 1 when some
                                // trials did not reach
};
// The distribution of d values (-1 or any negative: not reached). O(n log n).
DDistribution d_distribution(const std::vector<int>& d_mins);

// The thresholds of the single-sample reading (no bootstrap comparison): an exponent this small
// or smaller means d barely changes; below kSmallExponent the power law grows far more slowly than
// L; R^2 within kFitR2Margin counts as equally good; fewer than kRoughBelowLengths lengths make
// the fits rough.
constexpr double kFlatExponent = 0.05;
constexpr double kSmallExponent = 0.35;
constexpr double kFitR2Margin = 0.02;
constexpr int kRoughBelowLengths = 4;

struct FitReading {
  bool fits_ok = false;  // both fits were made (at least two usable lengths)
  std::string basis;     // "bootstrap" (a comparison with resamples), else "sample" (the R^2 of
                         // this sample) when the fits are ok, else "none"
  std::string verdict;   // bootstrap: fit_verdict ("log", "power", "undecided", "too-few-lengths");
                         // sample: "flat" (p <= kFlatExponent), "log" (p < kSmallExponent and log
                         // R^2 >= power R^2 - kFitR2Margin), "power" (p < kSmallExponent, or power
                         // R^2 > log R^2 + kFitR2Margin), else "undecided"; none: "none"
  bool small_exponent = false;  // fits ok and power p < kSmallExponent
  int usable = 0;               // lengths whose (1-delta)-quantile was reached (> 0)
  int lengths = 0;              // all lengths
  bool rough = false;           // sample basis with fewer than kRoughBelowLengths usable lengths
  int per_doubling = 0;         // fits ok: b ln 2 rounded half up, what each doubling of L adds
};
// The reading of `fits` given the lengths' quantiles (-1: not reached) and the bootstrap
// comparison (nullptr, or no resamples: none). O(lengths).
FitReading read_fits(const SweepFits& fits, const FitComparison* comparison, const std::vector<int>& quantiles);

// The paper reports d for lengths "in the hundreds": the lengths compared with its band.
constexpr int kBandMinL = 64, kBandMaxL = 1024;
struct BandReading {
  int lengths = 0;              // lengths in [kBandMinL, kBandMaxL] whose median was reached
  int first_L = 0, last_L = 0;  // the smallest and largest of them
  double lo = 0, hi = 0;        // the smallest and largest of their medians
  int inside = 0;               // medians in [band_lo, band_hi]
};
// The medians (-1: not reached) of lengths Ls (ascending) against the band [band_lo, band_hi].
// Ls and medians have equal sizes (else InvalidArgument("medians", ...)). O(lengths).
BandReading read_band(const std::vector<int>& Ls, const std::vector<double>& medians, double band_lo,
                      double band_hi);

}  // namespace attnx
