#include <attnx/sweep.hpp>

#include <attnx/construct_lp.hpp>

#include <algorithm>
#include <climits>
#include <cmath>

#include <attnx/errors.hpp>
#include <attnx/schema.hpp>

namespace attnx {

void validate(const SweepOptions& opt) {
  validate(opt.tol);
  validate(opt.mind);
  require_option("trials", opt.trials);
  require_int("firstTrial", opt.first_trial, 0, kMaxTrials - opt.trials);
  if (opt.Ls.empty() || opt.Ls.size() > static_cast<std::size_t>(kMaxLs))
    fail("Ls", "Ls must list from 1 to " + std::to_string(kMaxLs) + " lengths (got " +
                   std::to_string(opt.Ls.size()) + ")");
  for (std::size_t n = 0; n < opt.Ls.size(); ++n) {
    require_option("Ls", opt.Ls[n]);
    if (n && opt.Ls[n] <= opt.Ls[n - 1])
      fail("Ls", "Ls must be strictly increasing (got " + std::to_string(opt.Ls[n - 1]) +
                     " then " + std::to_string(opt.Ls[n]) + ")");
  }
  if (opt.pattern.family == Family::Custom)
    fail("pattern", "pattern custom cannot be swept over L (choose a generated family)");
  if (opt.construction == "moment")
    fail("construction", "construction moment has one hidden size per pattern (D = 2m) at every L: "
                         "nothing to sweep; sweeps take jl or lp");
  const auto& names = construction_names();
  if (std::find(names.begin(), names.end(), opt.construction) == names.end())
    fail("construction", "construction must be one of jl, lp (got \"" + opt.construction.substr(0, 40) + "\")");
  require_option("box", opt.box);
}

std::uint64_t trial_seed(std::uint64_t master, int L, int t) {
  return derive_seed(master, static_cast<std::uint64_t>(L), static_cast<std::uint64_t>(t));
}

SweepPoint sweep_point(const SweepOptions& opt, int L, const Progress& progress) {
  validate(opt);
  require_option("L", L);
  SweepPoint pt;
  pt.L = L;
  PatternSpec spec = opt.pattern;
  spec.L = L;
  double beta_max = 0;
  for (int n = 0; n < opt.trials; ++n) {
    const int t = opt.first_trial + n;
    const std::uint64_t s = trial_seed(opt.seed, L, t);
    Rng prng(pattern_seed(s));
    const Pattern A = make_pattern(spec, prng);
    Progress inner;
    if (progress)
      inner = [&](double f) { return progress((n + f) / opt.trials); };
    const MinDResult r = opt.construction == "lp" ? min_d_lp(A, opt.tol, opt.mind, s, opt.box, inner)
                                                  : min_d(A, opt.tol, opt.mind, s, inner);
    if (r.cancelled) {
      pt.d_mins.clear();
      return pt;
    }
    pt.d_mins.push_back(r.d_min);
    beta_max = std::max(beta_max, r.beta);
    pt.k = std::max(pt.k, A.k);
    pt.max_col_count = std::max(pt.max_col_count, A.max_col_count);
    pt.in_class = pt.in_class && A.in_class;
    pt.madds += r.gram_madds + r.check_madds;
  }
  pt.d_star = d_star(beta_max, L, opt.tol);
  pt.median = median_d(pt.d_mins);
  pt.quantile = quantile_d(pt.d_mins, opt.tol.delta);
  return pt;
}

SweepPoint sweep_trial(const SweepOptions& opt, int L, int t) {
  SweepOptions one = opt;
  one.first_trial = t;
  one.trials = 1;
  return sweep_point(one, L);
}

SweepPoint merge_trials(const SweepOptions& opt, int L, const std::vector<SweepPoint>& trials) {
  SweepPoint pt;
  pt.L = L;
  for (const SweepPoint& t : trials) {
    pt.d_mins.insert(pt.d_mins.end(), t.d_mins.begin(), t.d_mins.end());
    pt.d_star = std::max(pt.d_star, t.d_star);  // d* grows with beta: the largest beta's d*
    pt.k = std::max(pt.k, t.k);
    pt.max_col_count = std::max(pt.max_col_count, t.max_col_count);
    pt.in_class = pt.in_class && t.in_class;
    pt.madds += t.madds;
  }
  pt.median = median_d(pt.d_mins);
  pt.quantile = quantile_d(pt.d_mins, opt.tol.delta);
  return pt;
}

SweepResult sweep(const SweepOptions& opt, const Progress& progress) {
  validate(opt);
  SweepResult r;
  double total = 0, done = 0;
  for (int L : opt.Ls) total += double(L) * L;
  for (int L : opt.Ls) {
    const double w = double(L) * L / total;
    Progress inner;
    if (progress) inner = [&](double f) { return progress(done + w * f); };
    r.points.push_back(sweep_point(opt, L, inner));
    done += w;
    if (r.points.back().d_mins.empty()) {  // cancelled
      r.points.pop_back();
      break;
    }
  }
  fit_sweep(r);
  return r;
}

namespace {
std::vector<int> sorted_unreached_last(std::vector<int> d) {
  for (int& v : d)
    if (v < 0) v = INT_MAX;
  std::sort(d.begin(), d.end());
  return d;
}
}  // namespace

double median_d(std::vector<int> d) {
  if (d.empty()) return -1;
  d = sorted_unreached_last(std::move(d));
  const std::size_t n = d.size();
  const int a = d[(n - 1) / 2], b = d[n / 2];
  if (a == INT_MAX || b == INT_MAX) return -1;
  return 0.5 * (double(a) + double(b));
}

int quantile_d(std::vector<int> d, double delta) {
  if (d.empty()) return -1;
  d = sorted_unreached_last(std::move(d));
  const double need = std::ceil((1.0 - delta) * double(d.size()) - 1e-9);
  const std::size_t idx = static_cast<std::size_t>(std::max(1.0, need)) - 1;
  const int q = d[std::min(idx, d.size() - 1)];
  return q == INT_MAX ? -1 : q;
}

namespace {
// Least squares y = a + b x. Returns false when x has no spread.
bool least_squares(const std::vector<double>& x, const std::vector<double>& y, double& a,
                   double& b) {
  const double n = double(x.size());
  double mx = 0, my = 0;
  for (std::size_t i = 0; i < x.size(); ++i) mx += x[i], my += y[i];
  mx /= n, my /= n;
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (!(sxx > 0)) return false;
  b = sxy / sxx;
  a = my - b * mx;
  return true;
}

double r_squared(const std::vector<double>& y, const std::vector<double>& pred) {
  double my = 0;
  for (double v : y) my += v;
  my /= double(y.size());
  double ss_res = 0, ss_tot = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    ss_res += (y[i] - pred[i]) * (y[i] - pred[i]);
    ss_tot += (y[i] - my) * (y[i] - my);
  }
  if (ss_tot == 0) return ss_res == 0 ? 1.0 : 0.0;
  return 1.0 - ss_res / ss_tot;
}
}  // namespace

LogFit fit_log(const std::vector<double>& L, const std::vector<double>& d) {
  LogFit f;
  if (L.size() < 2 || L.size() != d.size()) return f;
  std::vector<double> x(L.size()), pred(L.size());
  for (std::size_t i = 0; i < L.size(); ++i) {
    if (!(L[i] > 0) || !std::isfinite(d[i])) return f;
    x[i] = std::log(L[i]);
  }
  if (!least_squares(x, d, f.a, f.b)) return f;
  for (std::size_t i = 0; i < x.size(); ++i) pred[i] = f.a + f.b * x[i];
  f.r2 = r_squared(d, pred);
  f.ok = true;
  return f;
}

PowerFit fit_power(const std::vector<double>& L, const std::vector<double>& d) {
  PowerFit f;
  if (L.size() < 2 || L.size() != d.size()) return f;
  std::vector<double> x(L.size()), y(L.size()), pred(L.size());
  for (std::size_t i = 0; i < L.size(); ++i) {
    if (!(L[i] > 0) || !(d[i] > 0) || !std::isfinite(d[i])) return f;
    x[i] = std::log(L[i]);
    y[i] = std::log(d[i]);
  }
  double lc = 0;
  if (!least_squares(x, y, lc, f.p)) return f;
  f.c = std::exp(lc);
  for (std::size_t i = 0; i < x.size(); ++i) pred[i] = f.c * std::pow(L[i], f.p);
  f.r2 = r_squared(d, pred);
  f.ok = true;
  return f;
}

void fit_sweep(SweepResult& r) {
  std::vector<double> Ls, ds;
  for (const auto& p : r.points)
    if (p.quantile > 0) {
      Ls.push_back(p.L);
      ds.push_back(p.quantile);
    }
  r.log_fit = fit_log(Ls, ds);
  r.power_fit = fit_power(Ls, ds);
}

}  // namespace attnx
