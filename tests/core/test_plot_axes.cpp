// Axis ranges and ticks of the lab's plots: nice linear steps, logarithmic ticks (powers of two for
// power-of-two grids, else 1-2-5), 1-2-5 bounds, and the axes of the lab's plots from hand-made
// data (the values the lab drew before the rules moved to the core).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <attnx/plot_axes.hpp>
#include <attnx/sweep_plots.hpp>

using namespace attnx;
using V = std::vector<double>;

TEST_CASE("nice_step and linear_axis: nice steps whose multiples cover the range") {
  CHECK(nice_step(1475, 6) == 250);
  CHECK(nice_step(10, 5) == 2);
  CHECK(nice_step(0, 5) == 1);
  CHECK(nice_step(NAN, 5) == 1);
  CHECK(nice_step(0.9, 4) == 0.25);
  const Axis t = linear_axis(0, 1475, 6);
  CHECK(t.ticks == V{0, 250, 500, 750, 1000, 1250, 1500});
  CHECK(t.hi == 1500);
  CHECK(t.step == 250);
  CHECK(linear_axis(0, 1, 5).ticks == V{0, 0.2, 0.4, 0.6, 0.8, 1});  // 12 digits: 0.6, not 0.6000000000000001
  const Axis equal = linear_axis(5, 5, 5);
  CHECK(equal.hi > equal.lo);
  CHECK(linear_axis(3, -7, 5).lo == -8);  // swapped
  CHECK(linear_axis(NAN, 1, 5).ticks.front() == 0);
}

TEST_CASE("log_ticks: powers of two for power-of-two grids, else 1-2-5 decades") {
  CHECK(log_ticks(64 / 1.3, 512 * 1.3, {64, 128, 256, 512}) == V{64, 128, 256, 512});
  CHECK(log_ticks(12, 1400, {16, 32, 64, 128, 256, 512, 1024}) == V{16, 32, 64, 128, 256, 512, 1024});
  const V many = log_ticks(2, 16384, {2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384}, 6);
  CHECK(many == V{2, 16, 128, 1024, 8192});  // every third of the 14 powers (every second leaves 7)
  CHECK(log_ticks(90, 1100, {100, 300, 1000}) == V{100, 200, 500, 1000});
  CHECK(log_ticks(0.5, 2000, {}, 12) == V{0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000});
  CHECK(log_ticks(0.5, 2000, {}, 8) == V{1, 10, 100, 1000});  // thinned: leading digit 1 (0.5 prints "0.5")
  CHECK(log_ticks(3, 4, {}) == V{3, 4});                      // no 1-2-5 value in range: the ends
  CHECK(log_ticks(-1, 0, {}) == V{1, 2});                     // repaired bounds
}

TEST_CASE("nice_125 rounds to 1, 2, 5 times a power of ten") {
  CHECK(nice_125(830 / 1.2, false) == 500);
  CHECK(nice_125(1100 * 1.2, true) == 2000);
  CHECK(nice_125(1 / 1.2, false) == 0.5);
  CHECK(nice_125(200, true) == 200);   // within the tolerance: itself
  CHECK(nice_125(200, false) == 200);
  CHECK(nice_125(9.5, true) == 10);
}

TEST_CASE("the axes of the lab's plots") {
  const Axis x = length_axis({512, 64, 128, 256, 128}, false);
  CHECK(x.lo == 64 / 1.3);
  CHECK(x.hi == 512 * 1.3);
  CHECK(x.ticks == V{64, 128, 256, 512});
  CHECK(length_axis({}, false).lo == 16 / 1.3);  // before any length: 16 .. 1024
  CHECK(length_axis({}, true).ticks == V{20, 50, 100, 200, 500, 1000});  // no grid: 1-2-5
  // d versus L: every reached d, d* only when asked, the band's top, d_max when nothing reached.
  const std::vector<DPlotPoint> pts = {{700, 4000}};
  CHECK(d_axis(pts, 4096, 0, false).axis.hi == 800);  // 700 * 1.06 = 742 -> 800 (step 200)
  CHECK(d_axis(pts, 4096, 0, true).axis.hi >= 4000);
  CHECK(d_axis(pts, 4096, 1000, false).axis.hi >= 1000);
  CHECK(d_axis({{-1, -1}}, 512, 0, false).axis.hi >= 512);
  const DStarAbove above = d_axis({{700, 4000}, {600, 3000}, {650, 500}}, 4096, 0, false).d_star_above;
  CHECK(above.count == 2);
  CHECK(above.lo == 3000);
  CHECK(above.hi == 4000);
  // Success versus d.
  const SuccessAxes s = success_axes({700, 600, -1}, 4096, false);
  CHECK(s.d.hi == 800);
  CHECK(s.d.ticks == V{0, 100, 200, 300, 400, 500, 600, 700, 800});
  CHECK(success_axes({700}, 4096, true).d.ticks == V{0, 200, 400, 600, 800});
  CHECK(success_axes({-1}, 512, false).d.hi >= 512);
  CHECK(s.probability.ticks == V{0, 0.25, 0.5, 0.75, 1});
  // The comparison's plots.
  const Axis dim = dimension_axis({830, NAN, 4, -1, 1100}, false);
  CHECK(dim.lo == 2);     // 4 / 1.2 = 3.3 -> 2
  CHECK(dim.hi == 2000);  // 1100 * 1.2 = 1320 -> 2000
  CHECK(dimension_axis({}, false).lo == 1);
  CHECK(dimension_axis({}, false).hi == 1000);
  CHECK(bits_axis().ticks == V{0, 10, 20, 30, 40, 50, 60});
}
