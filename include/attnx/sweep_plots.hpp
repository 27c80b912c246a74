// attnx core: the axes of the lab's plots from the numbers they show: d versus L (logarithmic L,
// linear d), success probability versus d, and the comparison of constructions (median d and
// bits(X) versus L). The page only maps these values to pixels and labels them.
#pragma once
#include <string>
#include <vector>

#include "plot_axes.hpp"

namespace attnx {

// The lengths axis (logarithmic): from the smallest length / 1.3 to the largest * 1.3 (16 and
// 1024 when there is none), ticks by log_ticks over the lengths (at most 6 when compact, else 10).
// Ls: the lengths shown, in any order. O(lengths log lengths).
Axis length_axis(const std::vector<int>& Ls, bool compact);

// What the d axis of plot "d versus L" needs of one length.
struct DPlotPoint {
  int max_reached = -1;  // the largest reached d_min of its trials; -1: none reached
  double d_star = -1;    // its d*(L); negative: not known
};
struct DStarAbove {
  int count = 0;          // lengths whose d* lies above the d axis
  double lo = 0, hi = 0;  // the smallest and largest of those d*
};
struct DAxis {
  Axis axis;
  DStarAbove d_star_above;
};
// The d axis of plot "d versus L": linear from 0 over every reached d, d* too when full_d_star,
// the paper's band top when band_hi > 0 (d_max when nothing else: no trial reached), then 6%
// headroom (linear_axis, about 6 steps). d_star_above: the lengths whose d* is beyond it.
DAxis d_axis(const std::vector<DPlotPoint>& points, int d_max, double band_hi, bool full_d_star);

struct SuccessAxes {
  Axis d;            // x: linear from 0 past the largest reached d (d_max when none), about 8
                     // steps; when compact every other tick (when more than 5)
  Axis probability;  // y: [0, 1] in quarters
};
// The axes of plot "success versus d" over the lengths' largest reached d (-1: none).
SuccessAxes success_axes(const std::vector<int>& max_reached, int d_max, bool compact);

// The logarithmic axis of the compared dimensions (median d_min, or D): from the 1-2-5 value below
// the smallest / 1.2 to the one above the largest * 1.2 ([1, 1000] with none), ticks by log_ticks
// (at most 8 when compact, else 12). values: NaN or <= 0 are left out.
Axis dimension_axis(const std::vector<double>& values, bool compact);

// The linear axis of bits(X): from 0 to 3 above float64's significand bits, about 6 steps.
Axis bits_axis();

// The float formats the bits plot draws as reference lines: name and significand bits.
struct FloatFormat {
  std::string name;
  int bits = 0;
};
std::vector<FloatFormat> float_formats();

}  // namespace attnx
