// attnx core: the Gram matrix of the projection, kept across constructions (SPEC §3, §4).
//
// construct() computes the logits as Z = B G / d with G = P P^T (P: the L x d raw projection of
// projection.hpp, whose columns are nested in d; the unit kinds read B D^-1/2 G D^-1/2 from the
// same G). G depends on L, the seed, the kind's column family and d only, not on the pattern or
// the tolerances. A GramLadder keeps P's columns and copies of G's lower triangle at
// multiples of kLadderStep columns ("rungs", within a byte cap, nearest to the latest d first;
// G at the d a sum ends at becomes one when the ladder leaves that d, so reaching it costs no copy).
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

#include "float_buffer.hpp"
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

  // L x L, symmetric: valid after a prepare that returned true, until the next call that is not
  // const (a band sum works in it).
  const float* gram() const { return work_.data(); }
  const float* columns() const { return P_.data(); }      // L x d (at least), column-major
  // Columns added to G by the last prepare (0 when G was already at d): what the call cost.
  int columns_added() const { return added_; }
  // Number of rungs held, their column counts and their bytes (for tests and the benchmark).
  int rungs() const { return static_cast<int>(rungs_.size()); }
  std::vector<int> rung_points() const;
  std::uint64_t rung_bytes() const;
  // Sets the cap on rungs and spare columns (at most kLadderMaxRungBytes; the caller's budget left
  // after the construction's own memory) and evicts what exceeds it, farthest from d_next first.
  void set_rung_cap(std::uint64_t bytes, int d_next);

  // --- What a jl construct needs besides G (construct.hpp, construct_ahead) ---
  // Made from the columns before G is complete (while a band sum waits for its helpers), or kept
  // by a construct for the next one of the same settings: SPEC §9's logit scale for a key (what
  // it depends on besides the columns: jl_scale_key, construct.hpp) and, when made ahead, the
  // L x L buffers of the logits and the attention, their pages first touched (outside the rung
  // cap: they are the next construct's own memory). The next construct takes it (take_ahead),
  // whether it is for its settings or not; starting over for another key drops it.
  struct Ahead {
    std::vector<std::uint64_t> key;  // empty: nothing held
    double logit_scale = 0;
    FloatBuffer logits, M;           // L x L each, or empty
  };
  void keep_ahead(Ahead a) { ahead_ = std::move(a); }
  Ahead take_ahead() {
    Ahead a = std::move(ahead_);
    ahead_ = Ahead{};
    return a;
  }
  // Frees the buffers and keeps the scale (a stopped construct's worker: its next task may not be
  // that construct).
  void release_ahead_buffers() {
    FloatBuffer().swap(ahead_.logits);
    FloatBuffer().swap(ahead_.M);
  }
  // Whether columns() holds the first d columns of the key (L, seed, column_family(kind)).
  bool holds_columns(int L, std::uint64_t seed, int d, ProjectionKind kind = ProjectionKind::Gaussian) const;

  // --- G summed in column bands by several workers (gram_bands.hpp) ---
  // The column count prepare(L, seed, d, kind) would start summing from (0 for another key, d
  // when G is at d): what is left to sum is columns start_column .. d-1. Changes nothing.
  int start_column(int L, std::uint64_t seed, int d, ProjectionKind kind = ProjectionKind::Gaussian) const;
  // Starts summing G towards d in bands: takes the key as prepare does, loads the start prepare
  // would use (a rung or the working G) and returns its column count `from` (d when G is at d
  // already: nothing to sum). edges (kept for band_edges) are the bands' columns. Until
  // finish_bands succeeds, G is incomplete: a prepare in between drops the band sum and starts
  // from a rung, so nothing wrong is ever read. The rungs are kept as prepare keeps them (each
  // made room for when first written, evicting the farthest from d).
  int begin_bands(int L, std::uint64_t seed, int d, ProjectionKind kind = ProjectionKind::Gaussian,
                  std::vector<int> edges = {});
  // Whether a band sum towards d for this key has begun and not ended (a stopped construct's: the
  // next one for the same L, seed, family and d goes on with it).
  bool bands_begun(int L, std::uint64_t seed, int d, ProjectionKind kind = ProjectionKind::Gaussian) const;
  const std::vector<int>& band_edges() const { return band_.edges; }
  int band_from() const { return band_.from; }
  // The rung points of the band sum begun: the multiples of kLadderStep in (from, d) that the cap
  // keeps near d (the ones a prepare would keep; G at d itself is kept when the ladder leaves d),
  // ascending.
  const std::vector<int>& band_rungs() const { return band_.rungs; }
  // Columns c0 .. c1-1 of G at `from` (what a helper starts from); empty when from is 0 (zeros).
  std::vector<float> band_start(int c0, int c1) const;
  // Sums the columns from .. d-1 into G's columns c0 .. c1-1 (this worker's own band), drawing P's
  // columns up to d; progress as in prepare (false stops it; calling again goes on). Returns
  // whether the band is done. Errors: InvalidArgument("gram_band") without a band sum begun or
  // for a band out of range.
  bool sum_band(int c0, int c1, const std::function<bool(double)>& progress);
  // Takes in a band summed elsewhere (sum_gram_band of the same task): at_d is G's columns c0 ..
  // c1-1 at d, rungs their lower part at each band_rungs() point, one after the other (as
  // sum_gram_band gives them: gram_band_lower_size floats each). rungs_size 0 (with
  // rung points to come) takes G at d alone: the rungs may follow through adopt_band_rungs_by,
  // before or after finish_bands, so that copying them in waits until the construction is drawn.
  // Errors: InvalidArgument("gram_band") without a band sum begun, for a band out of range or
  // overlapping one taken, or for sizes that do not match.
  void adopt_band(int c0, int c1, const float* at_d, std::size_t at_d_size, const float* rungs,
                  std::size_t rungs_size);
  // The same, reading the floats through read(dst, offset, n), which copies floats offset ..
  // offset+n-1 of at_d followed by rungs to dst (so a caller copies them once, straight in).
  void adopt_band_by(int c0, int c1, std::size_t at_d_size, std::size_t rungs_size,
                     const std::function<void(float*, std::size_t, std::size_t)>& read);
  // The rungs of band c0 .. c1-1, whose G at d was taken without them, summed at rung points
  // `points` (the band_rungs() the helper was given): read(dst, offset, n) copies floats offset ..
  // offset+n-1 of the rungs (one after the other, as sum_gram_band gives them). A rung becomes one
  // prepare may start from only once every band's part of it is in. Returns false, changing
  // nothing, when no band sum waits for them: dropped, ended without this band, or one with other
  // rung points (another sum) begun since. Errors: InvalidArgument("gram_band") for sizes that do
  // not match or rungs of a band that were taken already.
  bool adopt_band_rungs_by(int c0, int c1, const std::vector<int>& points, std::size_t rungs_size,
                           const std::function<void(float*, std::size_t, std::size_t)>& read);
  // Ends the band sum: when the bands taken cover columns 0 .. L-1, G is at d and it returns true
  // (the rungs are kept once each band's part is in: now, or as adopt_band_rungs_by brings the
  // last); otherwise the sum is dropped (G is loaded from a rung at the next prepare) and it
  // returns false. The next prepare at d reports columns_added() = d - from.
  bool finish_bands();

 private:
  void reset(int L, std::uint64_t seed, ProjectionKind family);
  void draw_columns(int d);
  int start_from(int target);                 // loads the best start <= target into work_
  void keep_rung(int at, int d_now);
  // The working G, summed to a multiple of kLadderStep, moved into the rungs as start_from leaves
  // it (when worth keeping near d_next): G at the d a sum ends at is a rung only from then on.
  // Returns whether it did; the caller then makes room under the cap (evict_for) once it has
  // loaded its start.
  bool keep_working_rung(int d_next);
  void evict_for(std::uint64_t need, int d_now);
  bool rung_worth_keeping(int at, int d_now) const;
  std::vector<int> rungs_kept_between(int from, int d) const;
  void check_band(int c0, int c1) const;
  void drop_bands();
  float* rung_buffer(int t);  // G at band rung point t, being assembled (null: evicted)
  void keep_assembled_rungs(std::map<int, FloatBuffer>& rung_g);
  // Frees rung_g's buffer at `at`; false when there is none to free.
  static bool empty_rung(std::map<int, FloatBuffer>& rung_g, int at);
  std::uint64_t held_rung_bytes() const;  // the rungs kept and those being assembled

  // A band sum in progress (begin_bands .. finish_bands).
  struct BandSum {
    bool active = false;
    int from = 0, d = 0;
    std::vector<int> rungs;                      // rung points in (from, d]
    std::vector<int> edges;                      // the bands (begin_bands' edges)
    std::map<int, FloatBuffer> rung_g;           // rung point -> G assembled from the bands
                                                 // (empty once evicted)
    std::vector<std::pair<int, int>> taken;      // bands in G at d, [c0, c1)
    std::vector<std::pair<int, int>> rungs_to_come;  // bands taken whose rungs are not in yet
    int own_c0 = -1, own_c1 = -1, own_t = 0;     // this worker's band and its columns summed
  };
  BandSum band_;
  // A finished band sum's rungs that still wait for some bands' parts (adopt_band_rungs_by).
  struct LateRungs {
    std::vector<int> points;                     // the sum's rung points
    std::map<int, FloatBuffer> rung_g;           // as BandSum::rung_g
    std::vector<std::pair<int, int>> to_come;    // bands whose rungs are not in yet
  };
  LateRungs late_;
  int pending_added_ = -1;                       // columns_added of the next prepare at band_.d
  int pending_d_ = -1;

  int L_ = 0;
  std::uint64_t seed_ = 0;
  ProjectionKind family_ = ProjectionKind::Gaussian;  // column_family of the kind drawn
  bool has_key_ = false;
  Rng rng_{0};                                 // the column seeds, advanced past drawn columns
  std::vector<std::uint64_t> col_seeds_;      // seed of each column drawn so far
  FloatBuffer P_;                              // drawn columns, L x drawn_, column-major
  int drawn_ = 0;
  FloatBuffer work_;                           // G: lower triangle valid at work_lower_d_
  int work_lower_d_ = -1;                      // columns summed into work_'s lower triangle
  bool work_symmetric_ = false;                // upper triangle mirrored for work_lower_d_
  std::map<int, FloatBuffer> rungs_;           // d (multiple of kLadderStep) -> lower triangle
  std::uint64_t cap_;
  int added_ = 0;
  Ahead ahead_;
};

}  // namespace attnx
