// attnx core: a sweep split into shards (`attnx sweep --shard i/n`) and merged back
// (`attnx merge`). String in, string out. The tasks of a sweep are its (L, trial) pairs; shard i
// of n gets a deterministic share balanced by the prior cost model (sweep_cost.hpp: L^2 ln L per
// trial, d growing like log L), and the merged result is the unsharded sweep's, so its text is byte-identical.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "sweep.hpp"

namespace attnx {

struct SweepTask {
  int L = 0, trial = 0;
  bool operator==(const SweepTask& o) const { return L == o.L && trial == o.trial; }
};

// The tasks of shard `index` of `count` (0 <= index < count <= the number of tasks, checked:
// InvalidArgument naming "shard"), in the order they are listed in a part: longest-processing-
// time-first over the estimated costs, ties by L then trial, each to the least loaded shard
// (ties: the lowest index).
std::vector<SweepTask> shard_tasks(const SweepOptions& opt, int index, int count);

struct SweepPart {
  SweepOptions opt;                // the whole sweep's options
  std::string options_text;        // their canonical JSON text (parts of one sweep have equal texts)
  int index = 0, count = 1;
  std::vector<SweepTask> tasks;    // shard_tasks(opt, index, count)
  std::vector<SweepPoint> results; // per task: sweep_trial(opt, L, trial)
};

// The text of a part (format "attnx-sweep-part/1").
std::string sweep_part_to_json(const SweepPart& part);

// Reads a part; refuses (InvalidArgument("part", ...)) anything that is not one, or whose tasks
// are not the ones shard_tasks gives for its options.
SweepPart parse_sweep_part(const std::string& text);

// The sweep of parts (names: one per part, for messages): all parts of one sweep (equal options
// and count), every shard index exactly once. Refusals name the file: "b.json: shard 2/4 is also
// in a.json", "c.json: a part of another sweep (options differ from a.json)", "shard 3/4 is
// missing". opt receives the sweep's options.
SweepResult merge_sweep_parts(const std::vector<SweepPart>& parts, const std::vector<std::string>& names,
                              SweepOptions& opt);

}  // namespace attnx
