// attnx core: the scaling experiment (SPEC §5) and its statistics.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include <string>

#include "construction.hpp"
#include "lp_rows.hpp"
#include "mind.hpp"

namespace attnx {

constexpr int kMaxTrials = 1000;
constexpr int kDefaultTrials = 10;
constexpr const char* kDefaultLs = "64,128,256,512";  // the paper preset's grid

struct SweepOptions {
  PatternSpec pattern;   // L is replaced by each grid value
  Tolerances tol;
  MinDOptions mind;      // grid, budget and jl's projection kind (mind.projection; jl only)
  std::vector<int> Ls;   // each in [kMinL, kMaxL], ascending, distinct
  int trials = 10;       // in [1, kMaxTrials]
  int first_trial = 0;   // sweep_point runs trials first_trial .. first_trial+trials-1, so that
                         // the trials of one L can be split between workers; first_trial+trials
                         // <= kMaxTrials
  std::uint64_t seed = 1;
  std::string construction = kDefaultConstruction;  // each trial's search_min_d (construction.hpp): jl, lp, opt: its
                                    // minimal d; moment: D or not reached
  double box = kDefaultLpBox;        // lp: U
  double scale = kDefaultOptScale;   // opt: Lambda_max
  // The construction's search request of one trial (seed: trial_seed of it), unchecked.
  ConstructionRequest request(std::uint64_t trial_seed) const;
};
// Refuses options out of range: the construction's fields as check_request does (lp: mind.d_max
// above kMaxLpD, naming "dmax"), every bad one at once; then the trials, lengths and family.
void validate(const SweepOptions& opt);

struct SweepPoint {
  int L = 0;
  std::vector<int> d_mins;   // per trial; -1 = not reached
  double median = -1;        // -1 when the median trial did not reach
  int quantile = -1;         // empirical (1-delta)-quantile; -1 when not reached
  double d_star = 0;         // from the largest beta among trials
  int k = 0, max_col_count = 0;
  bool in_class = true;
  std::uint64_t madds = 0;
  // SPEC §9.2 of each trial's X at its d_min (mind.hpp MinDResult::bounds), in trial order.
  std::vector<double> logit_scales;    // Lambda; -1 = not reached
  std::vector<double> max_abs_logits;  // max |Z|; -1 = not reached
  int column_supports = 0;             // the smallest n over the trials that reached (0: none)
};

struct LogFit { bool ok = false; double a = 0, b = 0, r2 = 0; };    // d = a + b ln L
struct PowerFit { bool ok = false; double c = 0, p = 0, r2 = 0; };  // d = c L^p

struct SweepResult {
  std::vector<SweepPoint> points;
  LogFit log_fit;
  PowerFit power_fit;
};

// Seed of trial t at length L (fresh pattern and projection per trial).
std::uint64_t trial_seed(std::uint64_t master, int L, int t);

// One L of the sweep (all trials). progress gets the fraction of this point done. Checks the
// trial's budget (request_bytes at L) before drawing any pattern.
SweepPoint sweep_point(const SweepOptions& opt, int L, const Progress& progress = nullptr);
SweepResult sweep(const SweepOptions& opt, const Progress& progress = nullptr);

// One (L, trial) task of a sweep: sweep_point of that single trial (first_trial = t, trials = 1).
SweepPoint sweep_trial(const SweepOptions& opt, int L, int t);

// The point of length L from its trials' single-trial points, in trial order: equal, field for
// field, to sweep_point over those trials (d_mins, logit scales and largest logits in order, the
// largest d*, k and column count, the class test of every trial, the sum of madds, the smallest
// n of the trials that reached, then median and quantile). Lets callers run
// the tasks of a sweep in any order or in parallel and still print the same bytes.
SweepPoint merge_trials(const SweepOptions& opt, int L, const std::vector<SweepPoint>& trials);

// The smaller of two counts of column supports (SPEC §9), 0 meaning none yet. O(1).
int smallest_supports(int a, int b);

// A streamed part of one length: the point of trials first_trial .. first_trial + n - 1 (n =
// point.d_mins.size()), as sweep_point gives it for those trials.
struct PointPart {
  int first_trial = 0;
  SweepPoint point;
};
// The point of length L from parts that finished in any order: sorted by first trial, they must
// cover trials 0 .. trials - 1 exactly (else InvalidArgument("parts", ...) naming the first gap or
// overlap: "the trials of L = 64 do not join up at trial 3: trials 2..2 are in no part"),
// then merged as merge_trials does, with delta for the quantile. L, trials and delta are checked
// against the option table (InvalidArgument naming them). O(trials log trials).
SweepPoint merge_point_parts(int L, std::vector<PointPart> parts, int trials, double delta);

// Statistics (not-reached values are -1 and count as larger than any d).
double median_d(std::vector<int> d);          // -1 if the median is not reached
int quantile_d(std::vector<int> d, double delta);  // smallest d with >= ceil((1-delta) T) successes
// Fits over points with quantile reached; need >= 2 points (fit_power: of >= 2 distinct L, every
// d > 0). Both are least squares in d-space and R^2 is computed in d-space for both, so the R^2
// compare like with like. fit_log: ordinary least squares of d on ln L. fit_power: minimises
// sum_i (d_i - c L_i^p)^2: for each p, c = sum d L^p / sum L^2p in closed form; p is the best
// point of a grid of step 0.05 over [-4, 4] refined by golden-section search within one step of
// it (to 1e-10).
LogFit fit_log(const std::vector<double>& L, const std::vector<double>& d);
// The powers x^p at fit_power's grid, by lengths fitted: many fits over the same lengths (the
// bootstrap of compare_fits) compute them once. The same fits, bit for bit, with or without it.
struct PowerGridCache {
  std::map<std::vector<double>, std::vector<double>> powers;  // by L: xp[k * L.size() + i]
};
PowerFit fit_power(const std::vector<double>& L, const std::vector<double>& d,
                   PowerGridCache* cache = nullptr);
// Both fits of r's reached quantiles against L (cache: see PowerGridCache).
void fit_sweep(SweepResult& r, PowerGridCache* cache = nullptr);

}  // namespace attnx
