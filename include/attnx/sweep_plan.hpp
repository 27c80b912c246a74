// attnx core: how the lab cuts a sweep into worker tasks. A task runs trials first_trial ..
// first_trial + trials - 1 of one length (the seeds of attnx sweep, so any cut gives the same
// result). Tasks are sized by the cost model (sweep_cost.hpp) so that there are at least about
// kTasksPerLane tasks per worker (never below one trial per task): every task costs at most a
// common bound, so the largest lengths are split most and cheap ones usually stay whole. With
// several workers the largest L goes first (its parts in trial order) so the longest work starts
// early; with one worker the smallest L first, so the plots fill in early.
#pragma once
#include <vector>

#include "sweep_cost.hpp"

namespace attnx {

// Tasks per worker the plan aims at (at least), so no worker idles long at the end.
constexpr int kTasksPerLane = 3;

struct PlannedTask {
  int L = 0;
  int first_trial = 0;
  int trials = 0;
  double work = 0;  // task_work(model, L, trials)
};

// The tasks of a sweep over the lengths Ls (each checked against the option table: InvalidArgument
// naming "Ls") with `trials` trials each (values below 1 count as 1) for `lanes` workers (below 1:
// 1), in the order they are started. Each length's trials are cut
// into contiguous parts of nearly equal size; the bound on a task's work is at most
// 1 / (per_lane * lanes) of the whole sweep, lowered (bisection) until there are at least
// min(per_lane * lanes, lengths * trials) tasks (no bound above 0, e.g. no work: one trial per
// task). O(lengths * trials + 200 * lengths).
std::vector<PlannedTask> plan_sweep_tasks(const CostModel& model, const std::vector<int>& Ls, int trials,
                                          int lanes, int per_lane = kTasksPerLane);

}  // namespace attnx
