// attnx core: axis ranges and ticks (see plot_axes.hpp). The rules are those the lab's plots have
// always drawn with, so the plots keep their look.
#include <attnx/plot_axes.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include <attnx/json.hpp>

namespace attnx {

namespace {

// v rounded to 12 significant digits (the decimal text, read back).
double round12(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  return parse_decimal(buf, buf + std::strlen(buf));
}

bool is_pow2(int v) { return v > 0 && (v & (v - 1)) == 0; }

// Powers of two in [lo, hi], thinned to every k-th (smallest k) so at most max_ticks remain.
std::vector<double> pow2_ticks(double lo, double hi, int max_ticks) {
  std::vector<double> all;
  for (int e = static_cast<int>(std::ceil(std::log2(lo) - 1e-9)); std::ldexp(1.0, e) <= hi * (1 + 1e-9); ++e)
    all.push_back(std::ldexp(1.0, e));
  std::size_t stride = 1;
  while (double(all.size()) / double(stride) > max_ticks) ++stride;
  std::vector<double> out;
  for (std::size_t i = 0; i < all.size(); i += stride) out.push_back(all[i]);
  return out;
}

// Whether 1-2-5 value v keeps its tick when they are thinned: leading digit 1 as JavaScript
// prints it (values in [1e-6, 1) print as "0.x", so they never do).
bool leading_one(double v) { return js_number(v)[0] == '1'; }

// 1, 2, 5 times a power of ten in [lo, hi] (thinned to leading digit 1 when more than max_ticks).
std::vector<double> decade_ticks(double lo, double hi, int max_ticks) {
  std::vector<double> all;
  for (int e = static_cast<int>(std::floor(std::log10(lo))) - 1; std::pow(10.0, e) <= hi * 10; ++e)
    for (int m : {1, 2, 5}) {
      const double v = m * std::pow(10.0, e);
      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) all.push_back(round12(v));
    }
  if (static_cast<int>(all.size()) > max_ticks) all.erase(std::remove_if(all.begin(), all.end(), [](double v) { return !leading_one(v); }), all.end());
  if (all.size() < 2) all = {lo, hi};
  return all;
}

}  // namespace

double nice_step(double span, int count) {
  if (!(span > 0) || !std::isfinite(span)) return 1;
  const double raw = span / std::max(1, count);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double r = raw / mag;
  const double m = r <= 1 ? 1 : r <= 2 ? 2 : r <= 2.5 ? 2.5 : r <= 5 ? 5 : 10;
  return m * mag;
}

Axis linear_axis(double lo, double hi, int count) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) lo = 0, hi = 1;
  if (hi < lo) std::swap(lo, hi);
  if (hi == lo) hi = lo + 1;
  Axis a;
  a.step = nice_step(hi - lo, count);
  a.lo = std::floor(lo / a.step + 1e-9) * a.step;
  a.hi = std::ceil(hi / a.step - 1e-9) * a.step;
  const long n = std::lround((a.hi - a.lo) / a.step);
  for (long i = 0; i <= n; ++i) a.ticks.push_back(round12(a.lo + double(i) * a.step));
  return a;
}

std::vector<double> log_ticks(double lo, double hi, const std::vector<int>& lengths, int max_ticks) {
  if (!(lo > 0)) lo = 1;
  if (!(hi > lo)) hi = lo * 2;
  if (!lengths.empty() && std::all_of(lengths.begin(), lengths.end(), is_pow2)) return pow2_ticks(lo, hi, max_ticks);
  return decade_ticks(lo, hi, max_ticks);
}

double nice_125(double v, bool up) {
  const double mag = std::pow(10.0, std::floor(std::log10(v)));
  const double steps[4] = {mag, 2 * mag, 5 * mag, 10 * mag};
  if (up) {
    for (double s : steps)
      if (s >= v * (1 - 1e-9)) return s;
    return steps[3];
  }
  for (int i = 3; i >= 0; --i)
    if (steps[i] <= v * (1 + 1e-9)) return steps[i];
  return steps[0];
}

}  // namespace attnx
