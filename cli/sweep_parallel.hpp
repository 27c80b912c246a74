// attnx CLI: a sweep's (L, trial) tasks on worker threads (see sweep_parallel.cpp).
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "args.hpp"

#include <attnx/sweep.hpp>
#include <attnx/sweep_shard.hpp>

namespace attnx::cli {

// The number of threads --threads 0 means: one per core (at least 1).
int default_threads();

// construct's and mind's --threads: lp's rows run on them (0: one per core); 1 for another
// construction, which refuses a given --threads (it would not be used).
int rows_threads(const Args& a, const std::string& construction);

// body(i) for every i in [0, n) on `threads` threads (the calling one included), indices handed
// out in order. The first exception stops handing out new ones and is rethrown after all joined.
void parallel_for(int n, int threads, const std::function<void(int)>& body);

// A core ForEachRow (construct_lp.hpp) running the rows on `threads` threads (1: in order).
std::function<void(int, const std::function<void(int)>&)> rows_on_threads(int threads);

// The memory estimate of one search (or moment trial) at the sweep's largest L (opt.Ls.back()).
std::uint64_t search_bytes_at_largest(const SweepOptions& opt);

// sweep_trial of every task, on `threads` threads (largest L first); results in the tasks' order.
// progress gets the fraction of the work (trial_work of the prior cost model over finished
// tasks) done, monotone; it is
// called under a lock, from any thread. The first error of a task is rethrown after all stop.
std::vector<SweepPoint> run_tasks(const SweepOptions& opt, const std::vector<SweepTask>& tasks, int threads,
                                  const Progress& progress = nullptr);

// The same result as attnx::sweep(opt) (byte-identical output), computed by `threads` threads.
SweepResult sweep_parallel(const SweepOptions& opt, int threads, const Progress& progress = nullptr);

}  // namespace attnx::cli
