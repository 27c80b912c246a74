// attnx CLI: the (L, trial) tasks of a sweep on worker threads. Tasks start largest first and
// progress is weighed by the core's prior cost model (sweep_cost.hpp: L^2 ln L per trial); the
// tasks are merged per L in trial order by the core (merge_trials), so the output is
// byte-identical whatever the number of threads.
#include "sweep_parallel.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "common.hpp"
#include <attnx/memory.hpp>
#include <attnx/pattern.hpp>
#include <attnx/sweep_cost.hpp>

namespace attnx::cli {

int default_threads() {
  const unsigned n = std::thread::hardware_concurrency();
  return n ? static_cast<int>(n) : 1;
}

int rows_threads(const Args& a, const std::string& construction) {
  if (!construction_kind(construction).info.row_threads) {
    if (a.given("threads"))
      throw UsageError("--threads " + a.given_text("threads").substr(0, 40) + " applies only to --construction lp on " + a.command().name +
                       " (its rows' linear programs; got --construction " + construction + ", which runs on one thread)");
    return 1;
  }
  const long long threads = a.get_int("threads");
  return threads == 0 ? default_threads() : int(threads);
}

void parallel_for(int n, int threads, const std::function<void(int)>& body) {
  std::atomic<int> next{0};
  std::mutex mu;
  std::exception_ptr error;
  auto work = [&] {
    for (int i; (i = next.fetch_add(1)) < n;) {
      try {
        body(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!error) error = std::current_exception();
        next = n;
        return;
      }
    }
  };
  std::vector<std::thread> pool;
  for (int w = 1; w < std::min(threads, n); ++w) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

std::function<void(int, const std::function<void(int)>&)> rows_on_threads(int threads) {
  if (threads <= 1) return nullptr;
  return [threads](int n, const std::function<void(int)>& body) { parallel_for(n, threads, body); };
}

std::uint64_t search_bytes_at_largest(const SweepOptions& opt) {
  PatternSpec s = opt.pattern;
  s.L = opt.Ls.back();
  return request_bytes(check_request(opt.request(opt.seed), Purpose::Search), s.L, row_count_bound(s));
}

namespace {

// opt with each search's room for kept columns (MinDOptions::keep_bytes) cut to its share of what
// `threads` searches at the sweep's largest L leave of the budget, so that together they stay within it.
SweepOptions with_keep_share(SweepOptions opt, int threads) {
  if (threads <= 1) return opt;
  const std::uint64_t all = search_bytes_at_largest(opt) * static_cast<std::uint64_t>(threads);
  const std::uint64_t share = opt.mind.max_bytes > all ? (opt.mind.max_bytes - all) / threads : 0;
  opt.mind.keep_bytes = std::min(opt.mind.keep_bytes, share);
  return opt;
}

}  // namespace

std::vector<SweepPoint> run_tasks(const SweepOptions& in, const std::vector<SweepTask>& tasks, int threads,
                                  const Progress& progress) {
  const SweepOptions opt = with_keep_share(in, threads);
  std::vector<std::size_t> order(tasks.size());
  for (std::size_t n = 0; n < order.size(); ++n) order[n] = n;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return tasks[a].L > tasks[b].L; });
  std::vector<SweepPoint> out(tasks.size());
  const CostModel prior = prior_cost_model();
  double total = 0, done = 0;
  std::size_t finished = 0;
  for (const SweepTask& t : tasks) total += trial_work(prior, t.L);
  std::mutex mu;  // guards done and progress
  parallel_for(int(order.size()), std::max(1, threads), [&](int n) {
    const SweepTask& task = tasks[order[n]];
    out[order[n]] = sweep_trial(opt, task.L, task.trial);
    std::lock_guard<std::mutex> lock(mu);
    done += trial_work(prior, task.L);
    // monotone: completed work only; exactly 1 at the end (the sums of work differ in order)
    if (progress) progress(++finished == order.size() ? 1.0 : std::min(1.0, done / total));
  });
  return out;
}

SweepResult sweep_parallel(const SweepOptions& opt, int threads, const Progress& progress) {
  validate(opt);
  std::vector<SweepTask> tasks;
  for (int L : opt.Ls)
    for (int t = 0; t < opt.trials; ++t) tasks.push_back({L, t});
  const std::vector<SweepPoint> done = run_tasks(opt, tasks, threads, progress);
  SweepResult r;
  for (std::size_t p = 0; p < opt.Ls.size(); ++p) {
    const auto first = done.begin() + static_cast<std::ptrdiff_t>(p * opt.trials);
    r.points.push_back(merge_trials(opt, opt.Ls[p], std::vector<SweepPoint>(first, first + opt.trials)));
  }
  fit_sweep(r);
  return r;
}

}  // namespace attnx::cli
