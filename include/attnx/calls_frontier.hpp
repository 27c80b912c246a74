// attnx core: the JavaScript API's frontier calls (web/lib/attnx.js frontierTasks, frontierTrial,
// frontierResult, frontierCsv, packingFloors): the lab's "dimensions against logit scale" plot runs
// the frontier of SPEC §10.2 (frontier.hpp) task by task in its workers, then asks the core for the
// statistics and the floor. Options are the CLI's in the API's names: the pattern's (pattern, L, k,
// ..., weights, wMin, decay), eps, tau, delta, seed, maxBytes, trials, and constructions (an array
// of names, or "opt,lp"), scales and boxes (arrays of numbers, or "4,5.3"); refusals name the
// field, every bad one at once.
#pragma once
#include <vector>

#include "frontier.hpp"
#include "json.hpp"

namespace attnx {

// frontierTasks(opts): every task { construction, setting (a number, or null), trial } in order.
struct FrontierTaskInfo {
  std::string construction;
  double setting = 0;  // NaN: none
  int trial = 0;
};
std::vector<FrontierTaskInfo> frontier_tasks_call(const JsonValue& opts);

// frontierTrial(opts, task, onProgress): task `task` (an index into frontierTasks) run as the CLI
// runs it; cancelled when the callback stopped it.
struct FrontierTrialCall {
  int task = 0;
  FrontierTrial trial;
  bool cancelled = false;
};
FrontierTrialCall frontier_trial_call(const JsonValue& opts, const JsonValue& task, const Progress& progress);

// frontierResult(opts, trials): the frontier as `attnx frontier` prints it (its JSON, as a value)
// from every task's { dMin, logitScale, maxAbsLogit, columnSupports } (null: not reached) in
// frontierTasks order. frontierCsv: the same as its CSV text.
JsonValue frontier_result_call(const JsonValue& opts, const JsonValue& trials);
std::string frontier_csv_call(const JsonValue& opts, const JsonValue& trials);

// packingFloors(n, tau, scales): SPEC §9.2's D_Lambda at each scale for n distinct column supports.
std::vector<double> packing_floors_call(const JsonValue& n, const JsonValue& tau, const JsonValue& scales);

}  // namespace attnx
