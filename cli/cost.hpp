// attnx CLI: the cost of sweeps: `attnx bench --scaling` (seconds per trial against L and the
// fitted exponent of time against L^2 d_min) and `attnx sweep --dry-run` (a prediction of a
// sweep's core-hours from a short pilot). The model is the core's (attnx/sweep_cost.hpp).
#pragma once
#include <string>

#include "args.hpp"
#include <attnx/sweep.hpp>

namespace attnx::cli {

// bench --scaling: one timed trial (trial 0 of the sweep's seeds) per L of opt.Ls; prints the
// timings and the fitted model (format json or text).
int run_bench_scaling(const SweepOptions& opt, const std::string& format);

// sweep --dry-run: times trial 0 at the sweep's lengths up to 1024 (at least its two smallest),
// fits the model and prints the predicted seconds per L, the core-hours of the whole sweep and
// its wall time on `threads` threads (JSON), with the progress model (each L's work per trial and
// the time-left rule that --progress and the lab use). Nothing of the sweep itself is run.
int run_sweep_dry_run(const SweepOptions& opt, int threads);

}  // namespace attnx::cli
