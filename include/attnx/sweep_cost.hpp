// attnx core: predicting what a sweep costs (attnx bench --scaling, attnx sweep --dry-run).
// A trial at length L with minimal d takes about c (L^2 d)^p seconds (the Gram updates are
// L^2 d multiply-adds); d itself grows like a + b ln L. Both are fitted to measured trials.
#pragma once
#include <vector>

#include "sweep.hpp"

namespace attnx {

struct TrialTiming {
  int L = 0;
  int d_min = -1;       // -1: not reached (then d_max was searched)
  double seconds = 0;   // > 0
};

struct CostModel {
  bool ok = false;
  double c = 0, p = 1, r2 = 0;  // seconds = c (L^2 d)^p, fitted in log-log space (R^2 there)
  LogFit d_of_L;                // d = a + b ln L over the reached trials (fit_log)
};

// Fits the model to at least two timings with distinct L^2 d (else ok = false). A trial that did
// not reach counts with d = d_max (the work it did).
CostModel fit_cost(const std::vector<TrialTiming>& t, int d_max);

// Predicted seconds of one trial at length L: d from d_of_L (clamped to [step, d_max]).
double predict_trial_seconds(const CostModel& m, int L, int step, int d_max);

// Predicted seconds of the whole sweep on one core (every L, every trial).
double predict_sweep_seconds(const CostModel& m, const SweepOptions& opt);

}  // namespace attnx
