// attnx core: axis ranges and tick values for plots, the rules the pages draw with: "nice" linear
// steps (1, 2, 2.5 or 5 times a power of ten), logarithmic ticks (powers of two for a grid of
// powers of two, else 1-2-5 decades) and 1-2-5 bounds of a logarithmic range. Numbers only: where
// a tick lands in pixels and how it is labelled is the page's.
#pragma once
#include <vector>

namespace attnx {

struct Axis {
  double lo = 0, hi = 1;      // the range drawn
  double step = 0;            // linear axes: the tick spacing (0 for logarithmic ones)
  std::vector<double> ticks;  // ascending tick values (within [lo, hi] up to rounding)
};

// The nice step for about `count` intervals over `span`: 1, 2, 2.5 or 5 times a power of ten, the
// smallest of them >= span / count; 1 when span is not a finite number > 0. O(1).
double nice_step(double span, int count = 5);

// Linear ticks covering [lo, hi] (swapped when hi < lo; [0, 1] when not finite; [lo, lo + 1]
// when equal): lo and hi extended to multiples of the nice step, so the frame ends on a tick; each
// tick rounded to 12 significant digits (0.30000000000000004 -> 0.3). O(count).
Axis linear_axis(double lo, double hi, int count = 5);

// Ticks of a logarithmic axis over [lo, hi] (lo <= 0 -> 1; hi <= lo -> 2 lo). When `lengths` is
// not empty and all of them are powers of two: the powers of two in range, every k-th kept (the
// smallest k) so that at most max_ticks remain. Otherwise the values 1, 2, 5 times a power of ten
// in range (tolerance 1e-9 relative, each rounded to 12 significant digits); when more than
// max_ticks, only those with leading digit 1 at or above 1 (or below 1e-6) are kept; fewer than two
// left: [lo, hi]. O(decades).
std::vector<double> log_ticks(double lo, double hi, const std::vector<int>& lengths, int max_ticks = 9);

// The 1-2-5 value (1, 2, 5 or 10 times a power of ten) nearest below v (up = false) or above v
// (up = true), v > 0, with a tolerance of 1e-9 relative. O(1).
double nice_125(double v, bool up);

}  // namespace attnx
