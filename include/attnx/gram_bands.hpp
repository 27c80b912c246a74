// attnx core: the Gram matrix G = P P^T summed in column bands by several workers (SPEC §4).
//
// Each element of G's lower triangle is summed on its own (gram_update_lower_band), so workers
// that each sum a band of G's columns, from the same start and in the ladder's chunks of columns,
// give together the G one worker gives, bit for bit. The worker that keeps the GramLadder sums
// the first band into its G (GramLadder::sum_band) while helpers sum the others from scratch
// (sum_gram_band: they draw the projection's columns themselves, which costs a few per cent of
// the sums); the ladder then takes their bands in (adopt_band) and finishes (finish_bands).
// A sum is split only when it is long enough to repay the helpers (gram_band_edges).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "projection.hpp"

namespace attnx {

// Multiply-adds below which a Gram sum is not split (about 0.1 to 0.25 s for one worker).
constexpr double kGramSplitMinMacs = 4294967296.0;  // 2^32
// Columns of G per band at least (fewer bands than workers for a small L), and bands at most.
constexpr int kGramBandMinColumns = 128;
constexpr int kGramMaxBands = 64;
// The ladder's own band (band 0) does this much more than an equal share: a helper's band costs
// more per multiply-add (its shorter columns have more diagonal tiles, and it is copied out and
// posted), the ladder's worker copies the helpers' G at d in and posts progress. Measured in
// the page at L = 4096, d = 16384 on 2 cores, with the helpers' rungs copied in after the result:
// +6 % left the helper done 0.19 s before the home band, an equal share 0.11 s after it. With the
// work ahead (construct_ahead_macs) and the helpers' rungs in lower parts (December 7), +1 %
// (home band to column 1184) ends both within 0.05 s either way; +2 % (1200) left the home worker
// 0.04-0.2 s after the helper.
constexpr double kGramHomeExtra = 0.01;

// The column bands (edges e_0 = 0 < e_1 < ... < e_m = L; band b is columns e_b .. e_{b+1}-1) in
// which `workers` workers sum the columns from .. d-1 of P into G for length L: bands of about
// equal work (a band's work is its share of the lower triangle), inner edges multiples of
// kGramBandAlign, each band at least kGramBandMinColumns wide. home_ahead: other work the ladder's
// worker does before G is complete, in the kernel's multiply-adds (construct_ahead_macs): its
// band is smaller by that much less what each worker's share of it would be, so all end together.
// {0, L} (one band: do not split) when workers < 2 or the sum's L^2 (d - from) / 2 multiply-adds
// are below kGramSplitMinMacs. Errors: none (L <= 0 gives the single band {0, max(L, 0)}).
std::vector<int> gram_band_edges(int L, int from, int d, int workers, double home_ahead = 0);

// What a helper sums: the key of the ladder (L, the projection stream's seed, the kind, whose
// column_family is drawn), the columns from .. d-1, the band c0 .. c1-1 of G's columns, and the
// rung points (multiples of the ladder's step in (from, d], ascending) at which the band is copied.
struct GramBandTask {
  int L = 0;
  std::uint64_t seed = 0;  // projection_seed(user seed)
  ProjectionKind kind = ProjectionKind::Gaussian;
  int from = 0, d = 0, c0 = 0, c1 = 0;
  std::vector<int> rungs;
};

struct GramBand {
  bool cancelled = false;
  std::vector<float> at_d;   // G's columns c0 .. c1-1 at d: L x (c1 - c0), column-major, ld L
                             // (rows above each column's diagonal: as in start, else 0)
  std::vector<float> rungs;  // at each rung point, one after the other, the band's lower part only:
                             // rows j .. L-1 of each column j (gram_band_lower_size floats)
};

// Floats in the lower part of G's columns c0 .. c1-1 (rows j .. L-1 of each column j): a band's
// size at each rung point in GramBand::rungs (about a third of its full columns at the right).
std::size_t gram_band_lower_size(int L, int c0, int c1);

// Sums columns task.from .. task.d-1 of the projection into the band of G, starting from start
// (the band at task.from: L x (c1 - c0) floats; empty means zeros), in the ladder's chunks (at
// multiples of kLadderStep). progress (optional) gets the fraction done after each chunk; when it
// returns false the sum stops and the result has cancelled = true (nothing kept). Errors:
// InvalidArgument("gram_band") for a band or columns out of range (0 <= c0 < c1 <= L, c0 a
// multiple of kGramBandAlign, 0 <= from <= d, rung points in (from, d]) or a start of the wrong
// size. Memory: the band, its rung copies and 128 columns of P (plus an orthogonal block).
GramBand sum_gram_band(const GramBandTask& task, std::vector<float> start,
                       const std::function<bool(double)>& progress);

}  // namespace attnx
