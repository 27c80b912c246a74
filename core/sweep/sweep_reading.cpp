// attnx core: the success curve of one length, the reading of the fits and the paper's band (see
// sweep_reading.hpp).
#include <attnx/sweep_reading.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/errors.hpp>

namespace attnx {

DDistribution d_distribution(const std::vector<int>& d_mins) {
  DDistribution r;
  r.trials = static_cast<int>(d_mins.size());
  std::vector<int> s;
  for (int d : d_mins)
    if (d >= 0) s.push_back(d);
  std::sort(s.begin(), s.end());
  r.reached = static_cast<int>(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (r.steps.empty() || r.steps.back().d != s[i]) r.steps.push_back({s[i], 0, 0});
    ++r.steps.back().count;
    r.steps.back().p = double(i + 1) / double(r.trials);
  }
  if (!s.empty()) r.max_reached = s.back();
  return r;
}

namespace {

// The sample-basis verdict from the R^2 of both fits and the power exponent.
const char* sample_verdict(const SweepFits& f) {
  if (f.power.p <= kFlatExponent) return "flat";
  if (f.power.p < kSmallExponent) return f.log.r2 >= f.power.r2 - kFitR2Margin ? "log" : "power";
  if (f.power.r2 > f.log.r2 + kFitR2Margin) return "power";
  return "undecided";
}

}  // namespace

FitReading read_fits(const SweepFits& fits, const FitComparison* comparison, const std::vector<int>& quantiles) {
  FitReading r;
  r.lengths = static_cast<int>(quantiles.size());
  for (int q : quantiles) r.usable += q > 0;
  r.fits_ok = fits.log.ok && fits.power.ok;
  if (r.fits_ok) {
    r.small_exponent = fits.power.p < kSmallExponent;
    r.per_doubling = static_cast<int>(std::floor(fits.log.b * std::log(2.0) + 0.5));
  }
  if (comparison && comparison->resamples > 0) {
    r.basis = "bootstrap";
    r.verdict = fit_verdict(*comparison);
    return r;
  }
  if (!r.fits_ok) {
    r.basis = r.verdict = "none";
    return r;
  }
  r.basis = "sample";
  r.verdict = sample_verdict(fits);
  r.rough = r.usable < kRoughBelowLengths;
  return r;
}

BandReading read_band(const std::vector<int>& Ls, const std::vector<double>& medians, double band_lo,
                      double band_hi) {
  if (Ls.size() != medians.size())
    fail("medians", "medians must be as many as Ls (got " + std::to_string(medians.size()) + " for " +
                        std::to_string(Ls.size()) + " lengths)");
  BandReading r;
  for (std::size_t i = 0; i < Ls.size(); ++i) {
    const double m = medians[i];
    if (Ls[i] < kBandMinL || Ls[i] > kBandMaxL || !(m >= 0)) continue;
    if (r.lengths == 0) r.first_L = Ls[i], r.lo = r.hi = m;
    r.last_L = Ls[i];
    r.lo = std::min(r.lo, m), r.hi = std::max(r.hi, m);
    r.inside += m >= band_lo && m <= band_hi;
    ++r.lengths;
  }
  return r;
}

}  // namespace attnx
