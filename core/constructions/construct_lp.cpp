#include <attnx/construct_lp.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>

#include <attnx/errors.hpp>
#include <attnx/inputs.hpp>
#include <attnx/memory.hpp>
#include <attnx/rng.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

// The keys of §3 for (L, d, seed): P's first d columns (nested draws), as rows scaled by 1/sqrt(d).
std::vector<float> lp_keys(int L, int d, std::uint64_t seed) {
  std::vector<float> P(static_cast<std::size_t>(L) * d);
  Rng rng(projection_seed(seed));
  draw_projection_columns(rng, L, d, P.data());
  return scaled_projection_rows(P.data(), L, d);
}

// Solves the rows and builds X (progress as construct_lp; per row only without for_each). With
// stop_infeasible, stops once a row's LP is infeasible (c.X incomplete, nothing evaluated;
// *stopped = the first infeasible row found, else -1). for_each (optional) runs the independent
// rows, e.g. on threads.
LpConstruction build_lp(const Pattern& A, const Tolerances& tol, int d, std::uint64_t seed, double box,
                        const Progress& progress, bool stop_infeasible, int* stopped,
                        std::vector<double>* inputs, const ForEachRow& for_each) {
  LpConstruction out;
  Construction& c = out.c;
  c.L = A.L;
  c.d = d;
  c.B = log_target(A, tol);
  const std::size_t l = static_cast<std::size_t>(A.L), dd = static_cast<std::size_t>(d);
  const std::vector<float> K = lp_keys(A.L, d, seed);
  std::vector<LpRow> rows(l);
  std::atomic<bool> stop{false};
  auto body = [&](int i) {
    if (stop_infeasible && stop.load()) return;
    rows[i] = solve_row(A, i, K.data(), d, tol, box, stop_infeasible);  // stops on a relaxed t <= 0
    if (stop_infeasible && !(rows[i].t > 0)) stop = true;
  };
  if (for_each) {
    for_each(A.L, body);
  } else {
    for (int i = 0; i < A.L && !stop.load(); ++i) {
      if (progress && !progress(double(i) / A.L)) {
        c.cancelled = true;
        return out;
      }
      body(i);
    }
  }
  if (stop.load()) {
    for (std::size_t i = 0; i < l && *stopped < 0; ++i)
      if (!rows[i].q.empty() && !(rows[i].t > 0)) *stopped = static_cast<int>(i);
    return out;
  }
  out.lp.margin.assign(l, 0.0);
  out.lp.iterations.assign(l, 0);
  std::vector<double> X(l * 2 * dd, 0.0);
  const double sqrt_d = std::sqrt(double(d));
  for (std::size_t i = 0; i < l; ++i) {
    const LpRow& r = rows[i];
    out.lp.margin[i] = r.t;
    out.lp.iterations[i] = r.iterations;
    out.lp.feasible_rows += r.t > 0;
    out.lp.all_converged = out.lp.all_converged && r.converged;
    double* x = X.data() + i * 2 * dd;
    for (std::size_t t = 0; t < dd; ++t) x[t] = sqrt_d * r.q[t];
    std::copy(K.begin() + i * dd, K.begin() + (i + 1) * dd, x + dd);
  }
  c = evaluate_inputs(A, tol, X, d);
  if (inputs) *inputs = std::move(X);
  return out;
}

}  // namespace

void require_lp_d(const char* field, int d) {
  require_option(field, d);
  if (d > kMaxLpD)
    fail(field, std::string(field) + " must be an integer from 1 to " + std::to_string(kMaxLpD) +
                    " for construction lp (got " + std::to_string(d) + "; each row's linear program has d + 2 "
                    "variables)");
}

const std::vector<std::string>& construction_names() {
  static const std::vector<std::string> names = {"jl", "lp", "moment"};
  return names;
}

LpConstruction construct_lp(const Pattern& A, const Tolerances& tol, int d, std::uint64_t seed, double box,
                            std::uint64_t max_bytes, const Progress& progress, const ForEachRow& for_each) {
  validate(tol);
  require_lp_d("d", d);
  check_inputs_budget("lp", A.L, A.k, d, false, max_bytes);
  int stopped = -1;
  std::vector<double> X;
  LpConstruction out = build_lp(A, tol, d, seed, box, progress, false, &stopped, &X, for_each);
  if (out.c.cancelled) return out;
  out.precision = precision_report(A, tol, X, d);
  if (progress) progress(1.0);
  return out;
}

namespace {

// The bounds of the lp inputs at d when they succeed (lp_succeeds), nothing otherwise. hard (may
// be null): rows found infeasible at other hidden sizes, most recent first; they are solved first
// (a failing d usually costs one row's LP), and the row this d stops at joins them at the front.
std::optional<Bounds> lp_success(const Pattern& A, const Tolerances& tol, int d, std::uint64_t seed, double box,
                                 const ForEachRow& for_each, std::vector<int>* hard = nullptr) {
  if (hard && !hard->empty()) {
    const std::vector<float> K = lp_keys(A.L, d, seed);
    for (std::size_t n = 0; n < hard->size(); ++n)
      if (!(solve_row(A, (*hard)[n], K.data(), d, tol, box, true).t > 0)) {
        std::rotate(hard->begin(), hard->begin() + static_cast<std::ptrdiff_t>(n),
                    hard->begin() + static_cast<std::ptrdiff_t>(n) + 1);
        return std::nullopt;
      }
  }
  int stopped = -1;
  const LpConstruction r = build_lp(A, tol, d, seed, box, nullptr, true, &stopped, nullptr, for_each);
  if (hard && stopped >= 0) hard->insert(hard->begin(), stopped);
  if (stopped >= 0 || !r.c.metrics.success) return std::nullopt;
  return r.c.bounds;
}

}  // namespace

bool lp_succeeds(const Pattern& A, const Tolerances& tol, int d, std::uint64_t seed, double box,
                 const ForEachRow& for_each) {
  return lp_success(A, tol, d, seed, box, for_each).has_value();
}

MinDResult min_d_lp(const Pattern& A, const Tolerances& tol, const MinDOptions& opt, std::uint64_t seed,
                    double box, const Progress& progress, const ForEachRow& for_each) {
  validate(tol);
  validate(opt);
  require_lp_d("dmax", opt.d_max);
  check_search_budget("lp", A.L, A.k, opt.step, opt.d_max, opt.projection, opt.max_bytes);
  MinDResult r;
  r.beta = beta_of(A, log_target(A, tol));  // the target's beta and d*, as min_d reports them
  r.d_star = d_star(r.beta, A.L, tol);
  const int top = opt.d_max / opt.step;  // grid points k = 1..top, d = k * step
  std::vector<int> hard;  // rows that failed at smaller d, most recent first
  for (int k = 1; k <= top; ++k) {
    if (progress && !progress(std::min(0.99, double(k - 1) / top))) {
      r.cancelled = true;
      return r;
    }
    r.checked.push_back(k * opt.step);
    const std::optional<Bounds> b = lp_success(A, tol, k * opt.step, seed, box, for_each, &hard);
    if (b) {
      r.d_min = k * opt.step;
      r.bounds = *b;
      break;
    }
  }
  if (!r.reached()) r.bounds = bounds_of(A, tol.tau, opt.d_max, -1, -1);  // n and the bits floors only
  if (progress) progress(1.0);
  return r;
}

}  // namespace attnx
