// attnx core: the JavaScript API's calls that sum construct's Gram matrix in column bands across
// workers (gram_bands.hpp; web/lib/worker.js and pool.js drive them). The worker that keeps the
// ladder plans (gram_plan_call), hands each helper its task and start, sums its own band, takes the
// helpers' bands in and finishes; construct_call then finds G at d. Every rule (whether to split,
// the bands, the rungs, the checks) is applied here.
#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "calls.hpp"
#include "construct.hpp"
#include "gram_bands.hpp"
#include "json.hpp"

namespace attnx {

// What construct(opts) would sum for its Gram matrix, and how `workers` workers share it.
struct GramPlan {
  bool split = false;      // false: construct sums it alone (not jl, or too little work)
  bool resumed = false;    // split: goes on with the band sum a stopped construct began
  double gram_share = kConstructGramShare;  // construct's progress when G is summed
  int L = 0, from = 0, d = 0;
  std::vector<int> edges;  // band b: columns edges[b] .. edges[b+1]-1; band 0 is the ladder's own
  std::vector<int> rungs;  // rung points the bands are copied at (GramLadder::band_rungs)
};
// Reads opts as construct_call does (same errors) and asks gram_band_edges. When it splits, the
// ladder has begun the band sum (GramLadder::begin_bands, under construct's rung cap), or goes on
// with the one it holds for the same L, seed, projection family and d (resumed: the same edges;
// the bands taken stay). Cost: reading opts; when it splits anew, the pattern's and loading a rung
// (L^2 floats). workers: the workers that can sum a band (this one included), 1 .. 256, else
// InvalidArgument("workers").
GramPlan gram_plan_call(const JsonValue& opts, const JsonValue& workers, GramLadder& ladder);
// The calls below name a band as { c0, c1 } (integers, refused naming "gram_band" otherwise:
// nothing is rounded or wrapped). The start of band c0 .. c1-1 for a helper
// (GramLadder::band_start; empty: zeros).
std::vector<float> gram_band_start_call(GramLadder& ladder, const JsonValue& band);
// A helper's band: opts as construct's (L, seed, d, projection), band { from, c0, c1, rungs } of
// a plan, start from gram_band_start_call. Errors: construct's for opts, InvalidArgument
// ("gram_band") for the band (sum_gram_band). Stopped by progress: cancelled, nothing kept.
GramBand gram_band_call(const JsonValue& opts, const JsonValue& band, std::vector<float> start,
                        const Progress& progress);
// The ladder's own band (GramLadder::sum_band): true when done; false when progress stopped it
// (calling again goes on).
bool gram_home_band_call(GramLadder& ladder, const JsonValue& band, const Progress& progress);
// GramLadder::adopt_band_by of a helper's result: its at_d and rungs hold at_d_size and
// rungs_size floats, which read copies (see there; rungs_size 0: the rungs come later).
void gram_adopt_call(GramLadder& ladder, const JsonValue& band, std::size_t at_d_size, std::size_t rungs_size,
                     const std::function<void(float*, std::size_t, std::size_t)>& read);
// GramLadder::adopt_band_rungs_by of a helper's rungs taken after its G at d (rungs_size 0 in
// gram_adopt_call), band { c0, c1, rungs: the rung points it was summed at }: true when taken in,
// false when no band sum waits for them.
bool gram_adopt_rungs_call(GramLadder& ladder, const JsonValue& band, std::size_t rungs_size,
                           const std::function<void(float*, std::size_t, std::size_t)>& read);
// GramLadder::finish_bands: true when G is complete at d; false drops the band sum.
bool gram_finish_call(GramLadder& ladder);
// construct_ahead for construct(opts) (read as construct_call reads them, same errors): made once
// this worker's band is summed (the ladder then holds the columns up to d), while the helpers'
// bands are still to come; the plan's edges leave it the time (construct_ahead_macs). false:
// nothing made (not jl, or the ladder does not hold those columns). Cost: the pattern's, then
// construct_ahead's.
bool gram_ahead_call(const JsonValue& opts, GramLadder& ladder);

}  // namespace attnx
