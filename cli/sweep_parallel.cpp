// attnx CLI: the (L, trial) tasks of a sweep on worker threads. Tasks start largest first (cost
// ~ L^2 per trial) and are merged per L in trial order by the core (merge_trials), so the output
// is byte-identical whatever the number of threads.
#include "sweep_parallel.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

namespace attnx::cli {

int default_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n ? static_cast<int>(n) : 1;
}

SweepResult sweep_parallel(const SweepOptions& opt, int threads, const Progress& progress) {
  validate(opt);
  struct Task { int point, trial; };
  std::vector<Task> tasks;
  for (int p = 0; p < int(opt.Ls.size()); ++p)
    for (int t = 0; t < opt.trials; ++t) tasks.push_back({p, t});
  std::stable_sort(tasks.begin(), tasks.end(), [&](const Task& a, const Task& b) { return opt.Ls[a.point] > opt.Ls[b.point]; });
  std::vector<std::vector<SweepPoint>> parts(opt.Ls.size(), std::vector<SweepPoint>(static_cast<std::size_t>(opt.trials)));
  double total = 0, done = 0;
  for (int L : opt.Ls) total += double(L) * L * opt.trials;
  std::atomic<std::size_t> next{0};
  std::mutex mu;  // guards done, progress and the first error
  std::exception_ptr error;
  auto work = [&] {
    for (std::size_t n; (n = next.fetch_add(1)) < tasks.size();) {
      const Task task = tasks[n];
      const int L = opt.Ls[task.point];
      try {
        parts[task.point][task.trial] = sweep_trial(opt, L, task.trial);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
        next = tasks.size();  // the others stop after their current task
        return;
      }
      std::lock_guard<std::mutex> lock(mu);
      done += double(L) * L;
      if (progress) progress(done / total);  // monotone: completed work only
    }
  };
  std::vector<std::thread> pool;
  const int n = std::max(1, std::min<int>(threads, int(tasks.size())));
  for (int w = 1; w < n; ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  SweepResult r;
  for (std::size_t p = 0; p < opt.Ls.size(); ++p) r.points.push_back(merge_trials(opt, opt.Ls[p], parts[p]));
  fit_sweep(r);
  return r;
}

}  // namespace attnx::cli
