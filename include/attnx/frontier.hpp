// attnx core: the frontier of SPEC §10.2: at one length L, how few dimensions each construction
// needs against the logit scale. opt's minimal D at each budget Lambda_max of a grid (a search),
// lp's (Lambda, d_min) as its box U varies over a grid, jl's and moment's single (Lambda, d)
// points (constructions), and the packing floor D_Lambda at each budget (a proof, SPEC §9.2).
// The trials' targets are the sweep's (trial t at L: trial_seed(seed, L, t)), shared by every
// construction and setting, so their numbers compare trial for trial. Strings in, strings out.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "construction.hpp"
#include "pattern.hpp"

namespace attnx {

struct FrontierOptions {
  PatternSpec pattern;                     // the family and its L (a generated family)
  Tolerances tol;
  std::vector<std::string> constructions;  // registry names, each once, in registry order
  std::vector<double> scales, boxes;       // opt's budgets, lp's boxes: ascending, each > 0
  int trials = 10;
  std::uint64_t seed = 1;
  std::uint64_t max_bytes = kDefaultMaxBytes;  // one trial's budget
};
// The option table's defaults: every construction, kDefaultFrontierScales and
// kDefaultFrontierBoxes, the random k = 2 family at L = 256.
FrontierOptions default_frontier_options();
// Refuses bad options, every one at once (InvalidArgument with fields()): the pattern (generated,
// L from the table), the tolerances, the constructions (known names, each once), the grids
// (1 to kMaxFrontierSettings ascending values in their options' ranges; opt's budgets above
// ln(1/tau)/2 as opt requires), trials, and each construction's trial within the budget.
void validate(const FrontierOptions& opt);
// A boxes grid given (boxes_given) while no construction in opt.constructions varies its box (lp)
// would be taken and then ignored: refused into p, naming "boxes". The budgets always apply (the
// floor is drawn at each).
void check_boxes_apply(const FrontierOptions& opt, bool boxes_given, Problems& p);
// The constructions in `text`, comma-separated registry names ("opt,lp"), in registry order;
// refuses an unknown or repeated name (InvalidArgument naming "constructions").
std::vector<std::string> parse_constructions(const std::string& text);

// The settings construction `name` takes on the frontier: opt's budgets, lp's boxes, or one
// (NaN: none) for a construction without a swept parameter.
std::vector<double> frontier_settings(const FrontierOptions& opt, const std::string& name);

struct FrontierTask {
  int construction = 0, setting = 0, trial = 0;  // indexes into constructions, their settings, trials
  bool operator==(const FrontierTask& o) const {
    return construction == o.construction && setting == o.setting && trial == o.trial;
  }
};
// Every task, construction by construction, setting by setting, trial by trial.
std::vector<FrontierTask> frontier_tasks(const FrontierOptions& opt);

// One task's result: the search's minimal D at that setting for trial t's target (-1: not
// reached), the logit scale and largest |logit| of its X there (-1: not reached), n of the target.
struct FrontierTrial {
  int d_min = -1;
  double logit_scale = -1, max_abs_logit = -1;
  int column_supports = 0;
  bool cancelled = false;
};
// Runs one task (search_min_d of the construction's request at that setting: the survey's grids,
// head_survey.hpp, with opt's own d_max). progress as search_min_d's.
FrontierTrial frontier_trial(const FrontierOptions& opt, const FrontierTask& task, const Progress& progress = nullptr);

// One (construction, setting) of the frontier, from its trials.
struct FrontierPoint {
  std::string construction, mark;  // mark: "search" (opt) or "construction" (ConstructionInfo)
  double setting = 0;              // NaN: none
  std::vector<FrontierTrial> trials;
  double median = -1;   // of the d_mins (-1: the median trial did not reach)
  int quantile = -1;    // the (1 - delta)-quantile (-1: not reached)
  int lo = -1, hi = -1; // the smallest and largest d_min reached (-1: none)
  int not_reached = 0;
  double scale_median = -1;  // the median logit scale over the trials that reached (-1: none)
  double d_lambda = -1;      // the packing floor at the budget (opt) or at scale_median (-1: none)
};
struct FrontierResult {
  std::vector<FrontierPoint> points;  // in task order
  int column_supports = 0;            // n: the smallest over every trial's target
  std::vector<double> floor;          // D_Lambda at each of opt's budgets (n as above): the proof
};
// The frontier from every task's result, in frontier_tasks order (InvalidArgument "results"
// when their count differs).
FrontierResult frontier_result(const FrontierOptions& opt, const std::vector<FrontierTrial>& trials);

// The outputs of `attnx frontier`: JSON (params, the floor, every point with its trials) and CSV
// (one row per mark: floor rows, then each point; what each is: proof, search or construction).
std::string frontier_json(const FrontierOptions& opt, const FrontierResult& r);
std::string frontier_csv(const FrontierOptions& opt, const FrontierResult& r);

// Shards of a frontier (`attnx frontier --shard i/n`) and their merge (`attnx merge`): the tasks
// of shard `index` of `count` (longest first by a cost estimate, each to the least loaded shard),
// a part's text (format "attnx-frontier-part/1") and the frontier of every part of one run.
std::vector<int> frontier_shard_tasks(const FrontierOptions& opt, int index, int count);
struct FrontierPart {
  FrontierOptions opt;
  std::string options_text;
  int index = 0, count = 1;
  std::vector<int> tasks;  // indexes into frontier_tasks(opt)
  std::vector<FrontierTrial> results;
};
std::string frontier_part_json(const FrontierPart& part);
// Whether text is a frontier part (its "format", in any layout; in text that is no JSON, the
// format's name anywhere), before it is read.
bool is_frontier_part(const std::string& text);
FrontierPart parse_frontier_part(const std::string& text);
// Refusals name the file as sweep merges do (names: one per part).
FrontierResult merge_frontier_parts(const std::vector<FrontierPart>& parts, const std::vector<std::string>& names,
                                    FrontierOptions& opt);

}  // namespace attnx
