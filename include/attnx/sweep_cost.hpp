// attnx core: what a sweep costs: the one cost model of attnx sweep --dry-run, attnx bench
// --scaling, the CLI's progress, the shards of attnx sweep --shard and the lab's task plan and
// time estimate (ETA).
// A trial at length L whose minimal d is about d̂(L) takes c (L^2 d̂)^p seconds (the Gram updates
// are L^2 d multiply-adds), with d̂(L) = a + b ln L clamped to [d_lo, d_hi]. Before anything was
// timed the prior model holds: p = 1, d̂ = ln L (d grows like log L), c = 1, so a trial "costs"
// L^2 ln L work units; fit_cost fits c, p, a, b to timed trials.
#pragma once
#include <limits>
#include <vector>

#include "sweep.hpp"

namespace attnx {

struct TrialTiming {
  int L = 0;
  int d_min = -1;       // -1: not reached (then d_max was searched)
  double seconds = 0;   // > 0
};

struct CostModel {
  bool ok = false;              // usable: fitted, or anchored (fit_cost: at least one timing)
  bool anchored = false;        // p = 1 and c from the timing of most work (no fit to trust)
  double c = 0, p = 1, r2 = 0;  // seconds = c (L^2 d̂)^p, fitted in log-log space (R^2 there)
  LogFit d_of_L;                // d̂ = a + b ln L over the reached trials (fit_log); not ok: d_hi
  double d_lo = 0, d_hi = std::numeric_limits<double>::infinity();  // the clamp of d̂
  double anchor_work = 0, anchor_seconds = 0;  // the timing of most work: L^2 d and its seconds
  double p_fit = 1;             // the least-squares exponent (1 without a fit), also when anchored
  int timed = 0;                // distinct L^2 d among the timings
};

// The prior model: c = 1, p = 1, d̂(L) = ln L unclamped, so trial_work(prior, L) = L^2 ln L
// exactly (the product double(L) * L * std::log(L), as the shards have always weighed a trial).
CostModel prior_cost_model();

// What a fit must show to be trusted: timings at kCostMinTimings distinct L^2 d (two always fit
// with R^2 = 1), p in [kCostMinP, kCostMaxP] and R^2 >= kCostMinR2. Pilots on one 2-core machine
// fitted p = 0.63 (up to L = 512) to 0.82 (up to 16384); timing noise of short trials (a cold
// first one, the machine's load) gave p < 0 and predictions off by orders of magnitude.
constexpr int kCostMinTimings = 3;
constexpr double kCostMinP = 0.5, kCostMaxP = 1.4, kCostMinR2 = 0.9;

// Fits the model to the timings (seconds > 0 and finite). When the fit is not trusted (above) and
// there is a timing, the model is anchored instead: p = 1, c = seconds / (L^2 d) of the timing of
// most work (r2 and p_fit keep the fit's, 0 and 1 without one). No timing: ok = false, c = 0.
// d̂: fit_log over the reached trials (whatever their timing), or, when that falls with L (noise:
// d grows like ln L) or there is none (one length reached), the largest d reached for every L
// (b = 0). A trial that did not reach counts with d = d_max (the work it did); d̂ is clamped to
// [step, d_max]. Logarithms and powers by det_log / det_exp, so native and WASM builds fit the
// same bits.
CostModel fit_cost(const std::vector<TrialTiming>& t, int step, int d_max);

// Work of one trial at length L under m: (L^2 d̂(L))^p (p = 1 exactly: no power taken). O(1).
double trial_work(const CostModel& m, int L);

// Work of `trials` trials at length L: trial_work(m, L) * trials (a task's weight). O(1).
double task_work(const CostModel& m, int L, int trials);

// Predicted seconds of one trial at length L: m.c * trial_work(m, L), and beyond the anchor (the
// timing of most work) at least its seconds times the work's ratio: past the cache sizes the
// fitted p < 1 of short trials no longer holds (a pilot up to L = 1024 fitted p = 0.72 and
// predicted 0.32 s at L = 8192, which took 1.24 s; growth as the work predicts 1.27 s).
double predict_trial_seconds(const CostModel& m, int L);

// Predicted seconds of the whole sweep on one core (every L, every trial).
double predict_sweep_seconds(const CostModel& m, const SweepOptions& opt);

// The time estimate, shown once this share of the work is done and this much time has passed.
constexpr double kEtaMinFraction = 0.01;
constexpr double kEtaMinSeconds = 0.3;

// Seconds left when `fraction` (in [0, 1]) of the work took `elapsed` seconds, at the same rate:
// elapsed (1 - fraction) / fraction; -1 (not known yet) until fraction > kEtaMinFraction and
// elapsed > kEtaMinSeconds.
double eta_seconds(double fraction, double elapsed);

// One task of a sweep in progress: its work (trial_work times its trials) and the fraction of it
// done (clamped to [0, 1]).
struct TaskShare {
  double work = 0;
  double fraction = 0;
};
struct SweepProgress {
  double fraction = 0;  // done work / all work (0 when there is no work)
  double eta = -1;      // eta_seconds(fraction, elapsed)
};
// The progress of tasks after `elapsed` seconds. O(tasks).
SweepProgress sweep_progress(const std::vector<TaskShare>& tasks, double elapsed);

}  // namespace attnx
