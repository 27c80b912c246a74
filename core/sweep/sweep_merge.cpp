// attnx core: one length's point from its trials run in parts, in any order, on any number of
// workers or threads (the CLI's threads and shards, the lab's worker tasks): equal, field for
// field, to sweep_point over all the trials at once.
#include <attnx/sweep.hpp>

#include <algorithm>
#include <string>

#include <attnx/errors.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

// The point of length L from points of consecutive trials, in trial order: d_mins in order, the
// SPEC §9's per-trial bounds in order and the fewest column supports (0: unknown), the
// largest d* (d* grows with beta: the largest beta's d*), the largest k and column count, the class
// test of every trial, the sum of multiply-adds; median and quantile of all trials.
SweepPoint merge_in_order(int L, const std::vector<const SweepPoint*>& parts, double delta) {
  SweepPoint pt;
  pt.L = L;
  for (const SweepPoint* t : parts) {
    pt.d_mins.insert(pt.d_mins.end(), t->d_mins.begin(), t->d_mins.end());
    pt.logit_scales.insert(pt.logit_scales.end(), t->logit_scales.begin(), t->logit_scales.end());
    pt.max_abs_logits.insert(pt.max_abs_logits.end(), t->max_abs_logits.begin(), t->max_abs_logits.end());
    pt.column_supports = smallest_supports(pt.column_supports, t->column_supports);
    pt.d_star = std::max(pt.d_star, t->d_star);
    pt.k = std::max(pt.k, t->k);
    pt.max_col_count = std::max(pt.max_col_count, t->max_col_count);
    pt.in_class = pt.in_class && t->in_class;
    pt.madds += t->madds;
  }
  pt.median = median_d(pt.d_mins);
  pt.quantile = quantile_d(pt.d_mins, delta);
  return pt;
}

// Refuses parts that do not join up at trial `at`, where `covered` trials (0..covered-1) are in.
[[noreturn]] void gap(int L, int at, int covered) {
  const std::string head = "the trials of L = " + std::to_string(L) + " do not join up at trial " + std::to_string(at);
  if (at < covered) fail("parts", head + ": it is in two parts");
  fail("parts", head + ": trials " + std::to_string(covered) + ".." + std::to_string(at - 1) + " are in no part");
}

}  // namespace

SweepPoint merge_trials(const SweepOptions& opt, int L, const std::vector<SweepPoint>& trials) {
  std::vector<const SweepPoint*> in;
  for (const SweepPoint& t : trials) in.push_back(&t);
  return merge_in_order(L, in, opt.tol.delta);
}

SweepPoint merge_point_parts(int L, std::vector<PointPart> parts, int trials, double delta) {
  require_option("L", L);
  require_option("trials", trials);
  require_option("delta", delta);
  std::stable_sort(parts.begin(), parts.end(),
                   [](const PointPart& a, const PointPart& b) { return a.first_trial < b.first_trial; });
  std::vector<const SweepPoint*> in;
  int next = 0;
  for (const PointPart& p : parts) {
    if (p.first_trial != next) gap(L, p.first_trial, next);
    next += static_cast<int>(p.point.d_mins.size());
    in.push_back(&p.point);
  }
  if (next < trials) gap(L, trials, next);
  if (next > trials)
    fail("parts", "the parts of L = " + std::to_string(L) + " hold " + std::to_string(next) + " trials, not " +
                      std::to_string(trials));
  return merge_in_order(L, in, delta);
}

}  // namespace attnx
