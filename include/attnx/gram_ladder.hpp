// attnx core: the Gram matrix of the projection, kept across constructions (SPEC §3, §4).
//
// construct() computes the logits as Z = B G / d with G = P P^T (P: the L x d raw projection of
// projection.hpp, whose columns are nested in d; the unit kinds read B D^-1/2 G D^-1/2 from the
// same G). G depends on L, the seed, the kind's column family and d only, not on the pattern or
// the tolerances. A GramLadder keeps P's columns and copies of G's lower triangle at
// multiples of kLadderStep columns ("rungs", within a byte cap, nearest to the latest d first).
// So a change of the pattern or the tolerances costs no new columns, a step down in d fewer than
// kLadderStep (from the nearest rung kept below), a step up from d to d' about d' - d.
//
// G(d) is always summed the same way: columns [0, S), [S, 2S), ... then [floor(d/S) S, d), each
// chunk through gram_update_lower (S = kLadderStep). So a ladder's G equals a fresh one's
// bit for bit whatever it held before, and every Gram kernel (SIMD or scalar, native or WASM)
// gives the same bits.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "projection.hpp"
#include "rng.hpp"

namespace attnx {

constexpr int kLadderStep = 128;                          // columns per rung (<= the kernel's chunk)
constexpr std::uint64_t kLadderMaxRungBytes = 256ull << 20;  // rungs kept at most (256 MiB)

class GramLadder {
 public:
  // rung_bytes: cap on the rungs and on P's spare columns beyond the current d (the working G
  // and P's first d columns are not counted: they are the construction's own memory, see
  // estimate_construct_bytes).
  explicit GramLadder(std::uint64_t rung_bytes = kLadderMaxRungBytes);

  // Makes gram() hold the full symmetric G of the first d raw columns of the projection of kind
  // `kind` drawn from `seed` (the projection stream's seed, see projection_seed) for length L, and
  // columns() hold those columns (L x d, column-major, raw: see projection.hpp). Reuses what it
  // holds for the same key (L, seed, column_family(kind)): a -unit kind shares its family's G,
  // its row normalisation being applied by the caller; starts over otherwise. progress (optional)
  // gets t / d after each chunk of columns (t: columns summed so far); when it returns false the
  // work stops and prepare returns false. The ladder stays consistent: the next prepare for the
  // same key goes on from there.
  bool prepare(int L, std::uint64_t seed, int d, const std::function<bool(double)>& progress,
               ProjectionKind kind = ProjectionKind::Gaussian);

  const float* gram() const { return work_.data(); }      // L x L, symmetric
  const float* columns() const { return P_.data(); }      // L x d (at least), column-major
  // Columns added to G by the last prepare (0 when G was already at d): what the call cost.
  int columns_added() const { return added_; }
  // Number of rungs held and their bytes (for tests and the benchmark).
  int rungs() const { return static_cast<int>(rungs_.size()); }
  std::uint64_t rung_bytes() const;
  // Sets the cap on rungs and spare columns (at most kLadderMaxRungBytes; the caller's budget left
  // after the construction's own memory) and evicts what exceeds it, farthest from d_next first.
  void set_rung_cap(std::uint64_t bytes, int d_next);

 private:
  void reset(int L, std::uint64_t seed, ProjectionKind family);
  void draw_columns(int d);
  int start_from(int target);                 // loads the best start <= target into work_
  void keep_rung(int at, int d_now);
  void evict_for(std::uint64_t need, int d_now);

  int L_ = 0;
  std::uint64_t seed_ = 0;
  ProjectionKind family_ = ProjectionKind::Gaussian;  // column_family of the kind drawn
  bool has_key_ = false;
  Rng rng_{0};                                 // the column seeds, advanced past drawn columns
  std::vector<std::uint64_t> col_seeds_;      // seed of each column drawn so far
  std::vector<float> P_;                       // drawn columns, L x drawn_, column-major
  int drawn_ = 0;
  std::vector<float> work_;                    // G: lower triangle valid at work_lower_d_
  int work_lower_d_ = -1;                      // columns summed into work_'s lower triangle
  bool work_symmetric_ = false;                // upper triangle mirrored for work_lower_d_
  std::map<int, std::vector<float>> rungs_;    // d (multiple of kLadderStep) -> lower triangle
  std::uint64_t cap_;
  int added_ = 0;
};

}  // namespace attnx
