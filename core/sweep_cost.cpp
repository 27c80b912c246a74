#include <attnx/sweep_cost.hpp>

#include <algorithm>
#include <cmath>

namespace attnx {

CostModel fit_cost(const std::vector<TrialTiming>& t, int d_max) {
  CostModel m;
  std::vector<double> x, y, Ls, ds;
  for (const TrialTiming& s : t) {
    if (!(s.seconds > 0) || s.L < 1) continue;
    const int d = s.d_min > 0 ? s.d_min : d_max;
    x.push_back(std::log(double(s.L) * s.L * d));
    y.push_back(std::log(s.seconds));
    if (s.d_min > 0) Ls.push_back(s.L), ds.push_back(s.d_min);
  }
  const std::size_t n = x.size();
  if (n < 2) return m;
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < n; ++i) mx += x[i] / n, my += y[i] / n;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (!(sxx > 0)) return m;
  m.p = sxy / sxx;
  m.c = std::exp(my - m.p * mx);
  m.r2 = syy > 0 ? (sxy * sxy) / (sxx * syy) : 1.0;
  m.d_of_L = fit_log(Ls, ds);
  m.ok = true;
  return m;
}

double predict_trial_seconds(const CostModel& m, int L, int step, int d_max) {
  double d = m.d_of_L.ok ? m.d_of_L.a + m.d_of_L.b * std::log(double(L)) : d_max;
  d = std::min<double>(d_max, std::max<double>(step, d));
  return m.c * std::pow(double(L) * L * d, m.p);
}

double predict_sweep_seconds(const CostModel& m, const SweepOptions& opt) {
  double s = 0;
  for (int L : opt.Ls) s += opt.trials * predict_trial_seconds(m, L, opt.mind.step, opt.mind.d_max);
  return s;
}

}  // namespace attnx
