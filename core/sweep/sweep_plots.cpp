// attnx core: the axes of the lab's plots (see sweep_plots.hpp).
#include <attnx/sweep_plots.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/inputs.hpp>

namespace attnx {

namespace {
constexpr int kDefaultFirstL = 16, kDefaultLastL = 1024;  // the lengths axis before any length
constexpr double kLengthMargin = 1.3;   // lengths axis: room on both sides (a factor)
constexpr double kDHeadroom = 1.06;     // d axis of "d versus L"
constexpr double kSuccessHeadroom = 1.08;
constexpr double kDimensionMargin = 1.2;
constexpr int kBitsAbove = 3;           // bits axis: room above float64's significand
}  // namespace

Axis length_axis(const std::vector<int>& Ls, bool compact) {
  std::vector<int> s = Ls;
  std::sort(s.begin(), s.end());
  s.erase(std::unique(s.begin(), s.end()), s.end());
  Axis a;
  a.lo = (s.empty() ? kDefaultFirstL : s.front()) / kLengthMargin;
  a.hi = (s.empty() ? kDefaultLastL : s.back()) * kLengthMargin;
  a.ticks = log_ticks(a.lo, a.hi, s, compact ? 6 : 10);
  return a;
}

DAxis d_axis(const std::vector<DPlotPoint>& points, int d_max, double band_hi, bool full_d_star) {
  double hi = 0;
  for (const DPlotPoint& p : points) {
    hi = std::max(hi, double(p.max_reached));
    if (full_d_star && p.d_star >= 0) hi = std::max(hi, p.d_star);
  }
  if (hi == 0) hi = d_max;
  if (band_hi > 0) hi = std::max(hi, band_hi);
  DAxis r;
  r.axis = linear_axis(0, hi * kDHeadroom, 6);
  for (const DPlotPoint& p : points) {
    if (!(p.d_star >= 0) || !(p.d_star > r.axis.hi)) continue;
    DStarAbove& a = r.d_star_above;
    a.lo = a.count ? std::min(a.lo, p.d_star) : p.d_star;
    a.hi = a.count ? std::max(a.hi, p.d_star) : p.d_star;
    ++a.count;
  }
  return r;
}

SuccessAxes success_axes(const std::vector<int>& max_reached, int d_max, bool compact) {
  double hi = 0;
  for (int d : max_reached) hi = std::max(hi, double(d));
  if (hi == 0) hi = d_max;
  SuccessAxes r;
  r.d = linear_axis(0, hi * kSuccessHeadroom, 8);
  if (compact && r.d.ticks.size() > 5) {
    std::vector<double> every_other;
    for (std::size_t i = 0; i < r.d.ticks.size(); i += 2) every_other.push_back(r.d.ticks[i]);
    r.d.ticks = every_other;
  }
  r.probability = {0, 1, 0.25, {0, 0.25, 0.5, 0.75, 1}};
  return r;
}

Axis dimension_axis(const std::vector<double>& values, bool compact) {
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values)
    if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  Axis a;
  a.lo = std::isfinite(lo) ? nice_125(lo / kDimensionMargin, false) : 1;
  a.hi = std::isfinite(hi) ? nice_125(hi * kDimensionMargin, true) : 1000;
  a.ticks = log_ticks(a.lo, a.hi, {}, compact ? 8 : 12);
  return a;
}

Axis bits_axis() { return linear_axis(0, kFloat64SignificandBits + kBitsAbove, 6); }

std::vector<FloatFormat> float_formats() {
  return {{"float32", kFloat32SignificandBits}, {"float64", kFloat64SignificandBits}};
}

}  // namespace attnx
