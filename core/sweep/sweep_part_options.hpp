// attnx core (internal): the options object of a sweep part file, written by sweep_shard.cpp and
// read back by sweep_part_read.cpp (its text is how parts of one sweep are recognised). Not
// installed.
#pragma once
#include <attnx/json.hpp>
#include <attnx/sweep.hpp>

namespace attnx {

// The options of a sweep as a part file writes them: every pattern field (the family's own and
// the others, at their values), the tolerances, the grid, max_bytes and seed as decimal strings
// (exact beyond 2^53), Ls, trials, construction, box, and projection unless gaussian.
void write_sweep_options(JsonWriter& w, const SweepOptions& o);

}  // namespace attnx
