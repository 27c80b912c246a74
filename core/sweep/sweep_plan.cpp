// attnx core: the lab's task plan of a sweep (see sweep_plan.hpp).
#include <attnx/sweep_plan.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/schema.hpp>

namespace attnx {

namespace {

// Parts per length when no task may cost more than `bound` (as few parts as possible, each with
// at most the trials that fit in the bound, at least one).
std::vector<int> parts_at(const std::vector<double>& cost, int T, double bound) {
  std::vector<int> n(cost.size());
  for (std::size_t i = 0; i < cost.size(); ++i) {
    const double fit = std::max(1.0, std::floor((bound * T) / cost[i] + 1e-9));
    n[i] = static_cast<int>(std::ceil(T / fit));
  }
  return n;
}

long long total(const std::vector<int>& n) {
  long long s = 0;
  for (int v : n) s += v;
  return s;
}

// The bound on a task's cost: 1 / (per_lane * lanes) of the sweep, lowered until there are at
// least `want` tasks (the largest such bound, by bisection: the count only grows as it shrinks).
double task_bound(const std::vector<double>& cost, int T, int lanes, int per_lane) {
  double sum = 0;
  for (double c : cost) sum += c;
  const double bound = sum / (double(per_lane) * lanes);
  const long long want = std::min<long long>(static_cast<long long>(per_lane) * lanes,
                                             static_cast<long long>(cost.size()) * T);
  if (total(parts_at(cost, T, bound)) >= want) return bound;
  double lo = 0, hi = bound;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (total(parts_at(cost, T, mid)) >= want) lo = mid;
    else hi = mid;
  }
  return lo;
}

}  // namespace

std::vector<PlannedTask> plan_sweep_tasks(const CostModel& model, const std::vector<int>& Ls, int trials,
                                          int lanes, int per_lane) {
  for (int L : Ls) require_option("Ls", L);
  const int T = std::max(1, trials);
  lanes = std::max(1, lanes);
  std::vector<double> cost(Ls.size());
  for (std::size_t i = 0; i < Ls.size(); ++i) cost[i] = task_work(model, Ls[i], T);
  const double bound = task_bound(cost, T, lanes, std::max(1, per_lane));
  const std::vector<int> parts = bound > 0 ? parts_at(cost, T, bound) : std::vector<int>(Ls.size(), T);
  std::vector<std::size_t> order(Ls.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return lanes > 1 ? Ls[a] > Ls[b] : Ls[a] < Ls[b];
  });
  std::vector<PlannedTask> tasks;
  for (std::size_t i : order) {
    const int n = parts[i];
    for (int k = 0; k < n; ++k) {
      const int first = static_cast<int>((static_cast<long long>(k) * T) / n);
      const int end = static_cast<int>((static_cast<long long>(k + 1) * T) / n);
      tasks.push_back({Ls[i], first, end - first, task_work(model, Ls[i], end - first)});
    }
  }
  return tasks;
}

}  // namespace attnx
