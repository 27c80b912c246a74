// attnx core: the scaling experiment (SPEC §5): each length's trials, their statistics, the sweep.
#include <attnx/sweep.hpp>

#include <attnx/construction.hpp>

#include <algorithm>
#include <climits>
#include <cmath>

#include <attnx/errors.hpp>
#include <attnx/schema.hpp>
#include <attnx/sweep_cost.hpp>

namespace attnx {

ConstructionRequest SweepOptions::request(std::uint64_t trial_seed) const {
  ConstructionRequest r;
  r.construction = construction;
  r.tol = tol;
  r.mind = mind;
  r.seed = trial_seed;
  r.box = box;
  r.scale = scale;
  return r;
}

void validate(const SweepOptions& opt) {
  Problems problems;
  check_request_fields(opt.request(opt.seed), Purpose::Search, problems);
  problems.throw_if_any();
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
}

int smallest_supports(int a, int b) { return a == 0 ? b : b == 0 ? a : std::min(a, b); }

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
  validate(spec);  // before any pattern is drawn: the spec, then the trial's budget
  check_request_budget(check_request(opt.request(opt.seed), Purpose::Search), L, row_count_bound(spec));
  double beta_max = 0;
  for (int n = 0; n < opt.trials; ++n) {
    const int t = opt.first_trial + n;
    const std::uint64_t s = trial_seed(opt.seed, L, t);
    Rng prng(pattern_seed(s));
    const Pattern A = make_pattern(spec, prng);
    Progress inner;
    if (progress)
      inner = [&](double f) { return progress((n + f) / opt.trials); };
    const MinDResult r = search_min_d(A, check_request(opt.request(s), Purpose::Search), {inner});
    if (r.cancelled) {
      pt.d_mins.clear();
      pt.logit_scales.clear();
      pt.max_abs_logits.clear();
      return pt;
    }
    pt.d_mins.push_back(r.d_min);
    pt.logit_scales.push_back(r.reached() ? r.bounds.logit_scale : -1);
    pt.max_abs_logits.push_back(r.reached() ? r.bounds.max_abs_logit : -1);
    if (r.reached()) pt.column_supports = smallest_supports(pt.column_supports, r.bounds.column_supports);
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

SweepResult sweep(const SweepOptions& opt, const Progress& progress) {
  validate(opt);
  SweepResult r;
  const CostModel prior = prior_cost_model();  // progress weighed by the cost model
  double total = 0, done = 0;
  for (int L : opt.Ls) total += trial_work(prior, L);
  for (int L : opt.Ls) {
    const double w = trial_work(prior, L) / total;
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

}  // namespace attnx
