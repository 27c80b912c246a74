// attnx core: the sweep's fits of d against L (SPEC §5), both by least squares in d-space, so
// that their R^2 (also in d-space) compare two curves fitted by the same rule.
#include <attnx/sweep.hpp>

#include <cmath>

#include <attnx/detmath.hpp>

namespace attnx {

namespace {

// The power fit's search range and coarse grid step for p (d_min grows far slower than L^4).
constexpr double kPowerMinP = -4, kPowerMaxP = 4, kPowerGridStep = 0.05;
constexpr double kPowerTolP = 1e-10;  // golden-section stops when the bracket is this narrow

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

// d ~ c x^p at a fixed p: the least-squares c = sum d x^p / sum x^2p and its residual sum of
// squares. lx: ln x. Powers by det_exp (detmath.hpp), so native and WASM builds search the same
// path and print the same fit; each x^p is computed once (xp: scratch of lx's size).
struct PowerAt {
  double p = 0, c = 0, sse = 0;
};

// The residual at p from the powers xp[i] = x_i^p.
PowerAt power_from(const double* xp, const std::vector<double>& d, double p) {
  PowerAt r;
  r.p = p;
  double sdx = 0, sxx = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    sdx += d[i] * xp[i];
    sxx += xp[i] * xp[i];
  }
  r.c = sdx / sxx;
  for (std::size_t i = 0; i < d.size(); ++i) {
    const double e = d[i] - r.c * xp[i];
    r.sse += e * e;
  }
  return r;
}

PowerAt power_at(const std::vector<double>& lx, const std::vector<double>& d, double p,
                 std::vector<double>& xp) {
  for (std::size_t i = 0; i < lx.size(); ++i) xp[i] = det_exp(p * lx[i]);
  return power_from(xp.data(), d, p);
}

constexpr int kPowerSteps = 160;  // (kPowerMaxP - kPowerMinP) / kPowerGridStep
static_assert(kPowerMinP + kPowerSteps * kPowerGridStep == kPowerMaxP, "the grid ends at kPowerMaxP");

// The grid's powers, xp[k * n + i] = x_i^(kPowerMinP + k kPowerGridStep).
std::vector<double> grid_powers(const std::vector<double>& lx) {
  const std::size_t n = lx.size();
  std::vector<double> xp((kPowerSteps + 1) * n);
  for (int k = 0; k <= kPowerSteps; ++k)
    for (std::size_t i = 0; i < n; ++i) xp[k * n + i] = det_exp((kPowerMinP + k * kPowerGridStep) * lx[i]);
  return xp;
}

// The p of least residual: the best point of a grid over [kPowerMinP, kPowerMaxP], then a
// golden-section search within one grid step of it (the better of the two is kept). grid: the
// grid's powers (grid_powers).
PowerAt best_power(const std::vector<double>& lx, const std::vector<double>& d,
                   const std::vector<double>& grid) {
  std::vector<double> xp(lx.size());
  const auto at = [&](double p) { return power_at(lx, d, p, xp); };
  const auto at_grid = [&](int k) {
    return power_from(grid.data() + k * lx.size(), d, kPowerMinP + k * kPowerGridStep);
  };
  PowerAt best = at_grid(0);
  for (int k = 1; k <= kPowerSteps; ++k) {
    const PowerAt t = at_grid(k);
    if (t.sse < best.sse) best = t;
  }
  const double g = (std::sqrt(5.0) - 1) / 2;
  double lo = std::fmax(kPowerMinP, best.p - kPowerGridStep);
  double hi = std::fmin(kPowerMaxP, best.p + kPowerGridStep);
  PowerAt a = at(hi - g * (hi - lo)), b = at(lo + g * (hi - lo));
  while (hi - lo > kPowerTolP) {
    if (a.sse <= b.sse) {
      hi = b.p;
      b = a;
      a = at(hi - g * (hi - lo));
    } else {
      lo = a.p;
      a = b;
      b = at(lo + g * (hi - lo));
    }
  }
  for (const PowerAt& t : {a, b})
    if (t.sse < best.sse) best = t;
  return best;
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

PowerFit fit_power(const std::vector<double>& L, const std::vector<double>& d, PowerGridCache* cache) {
  PowerFit f;
  if (L.size() < 2 || L.size() != d.size()) return f;
  // x = L / (geometric mean of L): the same fit (c_L = c_x gm^-p), better conditioned powers.
  double mean_log = 0, lo = L[0], hi = L[0];
  for (std::size_t i = 0; i < L.size(); ++i) {
    if (!(L[i] > 0) || !std::isfinite(L[i]) || !(d[i] > 0) || !std::isfinite(d[i])) return f;
    mean_log += det_log(L[i]) / double(L.size());
    lo = std::fmin(lo, L[i]), hi = std::fmax(hi, L[i]);
  }
  if (!(hi > lo)) return f;  // one length: no exponent to fit
  std::vector<double> lx(L.size()), pred(L.size());
  for (std::size_t i = 0; i < L.size(); ++i) lx[i] = det_log(L[i]) - mean_log;
  std::vector<double> own;
  const std::vector<double>* grid = &own;
  if (cache) {
    auto at = cache->powers.find(L);
    if (at == cache->powers.end()) at = cache->powers.emplace(L, grid_powers(lx)).first;
    grid = &at->second;
  } else {
    own = grid_powers(lx);
  }
  const PowerAt best = best_power(lx, d, *grid);
  f.p = best.p;
  f.c = best.c * det_exp(-best.p * mean_log);
  for (std::size_t i = 0; i < lx.size(); ++i) pred[i] = best.c * det_exp(best.p * lx[i]);
  f.r2 = r_squared(d, pred);
  f.ok = true;
  return f;
}

void fit_sweep(SweepResult& r, PowerGridCache* cache) {
  std::vector<double> Ls, ds;
  for (const auto& p : r.points)
    if (p.quantile > 0) {
      Ls.push_back(p.L);
      ds.push_back(p.quantile);
    }
  r.log_fit = fit_log(Ls, ds);
  r.power_fit = fit_power(Ls, ds, cache);
}

}  // namespace attnx
