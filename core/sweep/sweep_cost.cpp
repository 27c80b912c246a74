// attnx core: the sweep cost model and the time estimate (see sweep_cost.hpp).
#include <attnx/sweep_cost.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/detmath.hpp>

namespace attnx {

namespace {

// The predicted minimal d at length L: a + b ln L (d_hi without a fit of d), clamped.
double d_hat(const CostModel& m, int L) {
  const double d = m.d_of_L.ok ? m.d_of_L.a + m.d_of_L.b * std::log(double(L)) : m.d_hi;
  return std::min(m.d_hi, std::max(m.d_lo, d));
}

// Least squares y = a + b x with R^2; false when x has no spread.
bool line_fit(const std::vector<double>& x, const std::vector<double>& y, double& a, double& b, double& r2) {
  const double n = double(x.size());
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mx += x[i] / n, my += y[i] / n;
  double sxx = 0, sxy = 0, syy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (!(sxx > 0)) return false;
  b = sxy / sxx;
  a = my - b * mx;
  r2 = syy > 0 ? (sxy * sxy) / (sxx * syy) : 1.0;
  return true;
}

}  // namespace

CostModel prior_cost_model() {
  CostModel m;
  m.ok = false;
  m.c = 1;
  m.p = 1;
  m.d_of_L = LogFit{true, 0, 1, 0};
  return m;
}

namespace {

// d against L for the model: fit_log, unless it falls with L or there is none (one length
// reached): then the largest d reached stands for every L (b = 0, r2 = 0). d grows like ln L
// (SPEC §3.5); a falling fit is the trials' noise and would extrapolate to d = step.
LogFit d_fit(const std::vector<double>& Ls, const std::vector<double>& ds) {
  const LogFit f = fit_log(Ls, ds);
  if (ds.empty() || (f.ok && f.b >= 0)) return f;
  return LogFit{true, *std::max_element(ds.begin(), ds.end()), 0, 0};
}

// How many distinct values x holds.
std::size_t distinct(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  return static_cast<std::size_t>(std::unique(x.begin(), x.end()) - x.begin());
}

}  // namespace

CostModel fit_cost(const std::vector<TrialTiming>& t, int step, int d_max) {
  CostModel m;
  m.d_lo = step;
  m.d_hi = d_max;
  std::vector<double> x, y, Ls, ds;
  for (const TrialTiming& s : t) {
    if (s.L < 1) continue;
    if (s.d_min > 0) Ls.push_back(s.L), ds.push_back(s.d_min);  // d whatever its timing
    const double work = double(s.L) * s.L * (s.d_min > 0 ? s.d_min : d_max);
    if (!(s.seconds > 0) || !std::isfinite(s.seconds) || !(work > 0) || !std::isfinite(work)) continue;
    x.push_back(det_log(work));
    y.push_back(det_log(s.seconds));
    if (work > m.anchor_work) m.anchor_work = work, m.anchor_seconds = s.seconds;  // the timing of most work
  }
  m.d_of_L = d_fit(Ls, ds);
  m.timed = static_cast<int>(distinct(x));
  double log_c = 0;
  const bool fitted = m.timed >= 2 && line_fit(x, y, log_c, m.p, m.r2);
  m.p_fit = fitted ? m.p : 1;
  if (!fitted) m.r2 = 0;
  if (fitted && m.timed >= kCostMinTimings && m.p >= kCostMinP && m.p <= kCostMaxP && m.r2 >= kCostMinR2) {
    m.c = det_exp(log_c);
    m.ok = true;
    return m;
  }
  m.p = 1;
  if (!(m.anchor_work > 0)) return m;
  m.c = m.anchor_seconds / m.anchor_work;
  m.ok = m.anchored = true;
  return m;
}

double trial_work(const CostModel& m, int L) {
  const double base = double(L) * L * d_hat(m, L);
  return m.p == 1 ? base : det_exp(m.p * det_log(base));
}

double task_work(const CostModel& m, int L, int trials) { return trial_work(m, L) * trials; }

double predict_trial_seconds(const CostModel& m, int L) {
  const double s = m.c * trial_work(m, L), base = double(L) * L * d_hat(m, L);
  if (!(m.anchor_work > 0) || base <= m.anchor_work) return s;
  return std::max(s, m.anchor_seconds * (base / m.anchor_work));
}

double predict_sweep_seconds(const CostModel& m, const SweepOptions& opt) {
  double s = 0;
  for (int L : opt.Ls) s += opt.trials * predict_trial_seconds(m, L);
  return s;
}

double eta_seconds(double fraction, double elapsed) {
  if (!(fraction > kEtaMinFraction) || !(elapsed > kEtaMinSeconds)) return -1;
  return elapsed * (1 - fraction) / fraction;
}

SweepProgress sweep_progress(const std::vector<TaskShare>& tasks, double elapsed) {
  double all = 0, done = 0;
  for (const TaskShare& t : tasks) {
    all += t.work;
    done += t.work * std::min(1.0, std::max(0.0, t.fraction));
  }
  SweepProgress p;
  p.fraction = all > 0 ? done / all : 0;
  p.eta = eta_seconds(p.fraction, elapsed);
  return p;
}

}  // namespace attnx
