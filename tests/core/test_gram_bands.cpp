// G summed in column bands (core/gram_bands.cpp, GramLadder's band sum): each kernel's band update
// gives the whole update's bits on its columns and touches nothing else; bands summed by "helpers"
// and taken in by a ladder give a fresh ladder's G and rungs bit for bit, from scratch and from a
// rung, for every projection family; the split rule's edges; bad bands are refused.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/errors.hpp>
#include <attnx/gram.hpp>
#include <attnx/gram_bands.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/rng.hpp>

namespace {

using attnx::GramKernel;
using attnx::ProjectionKind;

bool same_bits(const float* a, const float* b, std::size_t n) {
  return std::memcmp(a, b, n * sizeof(float)) == 0;
}

std::vector<float> gram_of(attnx::GramLadder& g, int L) {
  return std::vector<float>(g.gram(), g.gram() + static_cast<std::size_t>(L) * L);
}

// Reads floats offset .. offset+n-1 of v (adopt_band_rungs_by's read).
auto reader(const std::vector<float>& v) {
  return [&v](float* dst, std::size_t off, std::size_t n) { std::copy(v.begin() + off, v.begin() + off + n, dst); };
}

// A ladder brought to d by bands: `home` sums band 0 itself, the others are summed by
// sum_gram_band ("helpers") and taken in; then prepare(d) reads it. Returns whether it split.
// late_rungs: the helpers' G at d is taken alone and their rungs after prepare (as worker.js
// does while a construct runs); until the last is in, no rung of the sum is one to start from.
bool prepare_in_bands(attnx::GramLadder& home, int L, std::uint64_t seed, int d, ProjectionKind kind,
                      const std::vector<int>& edges, bool late_rungs = false) {
  const int from = home.begin_bands(L, seed, d, kind);
  if (from == d) return false;
  std::vector<std::pair<attnx::GramBandTask, std::vector<float>>> later;
  for (std::size_t b = 1; b + 1 < edges.size(); ++b) {
    attnx::GramBandTask t{L, seed, kind, from, d, edges[b], edges[b + 1], home.band_rungs()};
    attnx::GramBand got = attnx::sum_gram_band(t, home.band_start(t.c0, t.c1), nullptr);
    REQUIRE(!got.cancelled);
    const bool late = late_rungs && !got.rungs.empty();
    home.adopt_band(t.c0, t.c1, got.at_d.data(), got.at_d.size(), got.rungs.data(), late ? 0 : got.rungs.size());
    if (late) later.emplace_back(t, std::move(got.rungs));
  }
  REQUIRE(home.sum_band(0, edges[1], nullptr));
  const std::vector<int> rungs_before = home.rung_points();
  REQUIRE(home.finish_bands());
  REQUIRE(home.prepare(L, seed, d, nullptr, kind));
  for (std::size_t k = 0; k < later.size(); ++k) {
    CHECK(home.rung_points() == rungs_before);  // none of the sum's rungs before the last part
    const attnx::GramBandTask& t = later[k].first;
    CHECK(home.adopt_band_rungs_by(t.c0, t.c1, t.rungs, later[k].second.size(), reader(later[k].second)));
  }
  return true;
}

}  // namespace

TEST_CASE("every kernel's band update gives the whole update's bits on its columns and touches no others") {
  attnx::Rng r(21);
  for (GramKernel k : attnx::gram_kernels_available()) {
    for (int L : {1, 31, 67, 130, 257}) {
      for (int n : {1, 7, 128}) {
        std::vector<float> P(static_cast<std::size_t>(L) * n), G0(static_cast<std::size_t>(L) * L);
        r.fill_normal(P.data(), P.size());
        r.fill_normal(G0.data(), G0.size());
        std::vector<float> whole = G0;
        attnx::gram_update_lower_with(k, whole.data(), L, P.data(), n);
        for (int c0 = 0; c0 < L; c0 += attnx::kGramBandAlign) {
          for (int c1 : {c0 + 1, c0 + 33, c0 + 64, L}) {
            if (c1 > L) continue;
            CAPTURE(attnx::gram_kernel_label(k));
            CAPTURE(L);
            CAPTURE(n);
            CAPTURE(c0);
            CAPTURE(c1);
            const std::size_t l = static_cast<std::size_t>(L);
            std::vector<float> band(G0.begin() + c0 * l, G0.begin() + c1 * l);
            attnx::gram_update_lower_band_with(k, band.data(), L, P.data(), n, c0, c1);
            // Rows i >= j: the whole update's bits; rows i < j: as they were.
            bool ok = true;
            for (int j = c0; j < c1 && ok; ++j)
              for (int i = 0; i < L && ok; ++i) {
                const float want = i >= j ? whole[j * l + i] : G0[j * l + i];
                ok = std::memcmp(&band[(j - c0) * l + i], &want, sizeof(float)) == 0;
              }
            CHECK(ok);
          }
        }
      }
    }
  }
}

TEST_CASE("a band update out of range or misaligned is refused naming gram_band") {
  std::vector<float> G(64 * 64), P(64);
  for (auto bad : {std::pair{-32, 10}, {0, 65}, {12, 40}, {40, 32}}) {  // 12: not a multiple of 8
    CAPTURE(bad.first);
    CHECK_THROWS_WITH_AS(attnx::gram_update_lower_band(G.data(), 64, P.data(), 1, bad.first, bad.second),
                         doctest::Contains("gram_band"), attnx::InvalidArgument);
  }
}

TEST_CASE("bands summed by helpers give a fresh ladder's G and rungs bit for bit, from scratch and from a rung") {
  for (ProjectionKind kind : {ProjectionKind::Gaussian, ProjectionKind::Rademacher,
                              ProjectionKind::Orthogonal, ProjectionKind::GaussianUnit}) {
    for (int L : {97, 300}) {
     for (bool late : {false, true}) {
      CAPTURE(attnx::projection_name(kind));
      CAPTURE(L);
      CAPTURE(late);
      const std::vector<int> edges =
          L == 97 ? std::vector<int>{0, 32, 64, 97} : std::vector<int>{0, 96, 192, 300};
      attnx::GramLadder home;
      REQUIRE(prepare_in_bands(home, L, 7, 700, kind, edges, late));  // from scratch, d not a rung
      CHECK(home.columns_added() == 700);
      attnx::GramLadder fresh;
      REQUIRE(fresh.prepare(L, 7, 700, nullptr, kind));
      CHECK(same_bits(home.gram(), fresh.gram(), static_cast<std::size_t>(L) * L));
      CHECK(same_bits(home.columns(), fresh.columns(), static_cast<std::size_t>(L) * 700));
      CHECK(home.rung_points() == fresh.rung_points());
      // From the rung at 640 (where the working G at 700 cannot go on) to 1100; then down to
      // 900 and 650, which start from the rungs the bands kept.
      REQUIRE(home.start_column(L, 7, 1100, kind) == 640);
      REQUIRE(prepare_in_bands(home, L, 7, 1100, kind, edges, late));
      CHECK(home.columns_added() == 1100 - 640);
      for (int d : {1100, 900, 650}) {
        CAPTURE(d);
        if (d != 1100) REQUIRE(home.prepare(L, 7, d, nullptr, kind));
        attnx::GramLadder f;
        REQUIRE(f.prepare(L, 7, d, nullptr, kind));
        CHECK(same_bits(home.gram(), f.gram(), static_cast<std::size_t>(L) * L));
        if (d == 900) CHECK(home.columns_added() == 900 % attnx::kLadderStep);
      }
     }
    }
  }
}

TEST_CASE("under a small cap the bands keep the rungs a serial sum keeps, and the same G") {
  const std::uint64_t two = 2ull * 96 * 96 * sizeof(float);  // room for two rungs at L = 96
  int compared = 0;
  for (int L : {64, 96}) {
    for (int before : {1700, 2200, 2250}) {
      for (int target : {1500, 1984, 2100, 3000}) {
        CAPTURE(L);
        CAPTURE(before);
        CAPTURE(target);
        const std::uint64_t cap = two * L * L / (96 * 96);
        attnx::GramLadder serial(cap), banded(cap);
        for (int h : {before, before + 200, before - 150}) {  // rungs kept at uneven distances
          REQUIRE(serial.prepare(L, 4, h, nullptr));
          REQUIRE(banded.prepare(L, 4, h, nullptr));
        }
        REQUIRE(serial.rung_points() == banded.rung_points());
        REQUIRE(serial.prepare(L, 4, target, nullptr));
        const std::vector<int> edges = L == 64 ? std::vector<int>{0, 32, 64} : std::vector<int>{0, 32, 96};
        attnx::GramLadder late = banded;  // the helpers' rungs taken after prepare
        if (!prepare_in_bands(banded, L, 4, target, ProjectionKind::Gaussian, edges)) continue;
        REQUIRE(prepare_in_bands(late, L, 4, target, ProjectionKind::Gaussian, edges, true));
        ++compared;
        CHECK(banded.rung_points() == serial.rung_points());
        CHECK(late.rung_points() == serial.rung_points());
        CHECK(same_bits(banded.gram(), serial.gram(), static_cast<std::size_t>(L) * L));
        CHECK(same_bits(late.gram(), serial.gram(), static_cast<std::size_t>(L) * L));
      }
    }
  }
  CHECK(compared >= 18);
  // Rungs at equal distances from d: the smaller goes first, as one worker's sum evicts.
  for (const std::vector<int>& history : {std::vector<int>{1500, 2400}, std::vector<int>{1700, 2400}}) {
    const std::uint64_t cap = 2ull * 64 * 64 * sizeof(float);
    attnx::GramLadder serial(cap), banded(cap);
    for (int h : history) {
      REQUIRE(serial.prepare(64, 4, h, nullptr));
      REQUIRE(banded.prepare(64, 4, h, nullptr));
    }
    REQUIRE(serial.prepare(64, 4, 1984, nullptr));
    REQUIRE(prepare_in_bands(banded, 64, 4, 1984, ProjectionKind::Gaussian, {0, 32, 64}));
    CHECK(banded.rung_points() == serial.rung_points());
  }
}

TEST_CASE("a band sum stopped part way is found again for the same key and d, and goes on") {
  const int L = 130;
  attnx::GramLadder home;
  REQUIRE(home.begin_bands(L, 5, 700, ProjectionKind::Gaussian, {0, 64, 130}) == 0);
  int calls = 0;
  CHECK(!home.sum_band(0, 64, [&](double) { return ++calls < 2; }));
  CHECK(home.bands_begun(L, 5, 700, ProjectionKind::GaussianUnit));  // the same columns
  CHECK(!home.bands_begun(L, 5, 600, ProjectionKind::Gaussian));
  CHECK(!home.bands_begun(L, 6, 700, ProjectionKind::Gaussian));
  CHECK(home.band_edges() == std::vector<int>{0, 64, 130});
  attnx::GramBandTask t{L, 5, ProjectionKind::Gaussian, 0, 700, 64, L, home.band_rungs()};
  const attnx::GramBand got = attnx::sum_gram_band(t, {}, nullptr);
  home.adopt_band(64, L, got.at_d.data(), got.at_d.size(), got.rungs.data(), got.rungs.size());
  REQUIRE(home.sum_band(0, 64, nullptr));
  REQUIRE(home.finish_bands());
  CHECK(!home.bands_begun(L, 5, 700, ProjectionKind::Gaussian));
  REQUIRE(home.prepare(L, 5, 700, nullptr));
  attnx::GramLadder fresh;
  REQUIRE(fresh.prepare(L, 5, 700, nullptr));
  CHECK(same_bits(home.gram(), fresh.gram(), static_cast<std::size_t>(L) * L));
}

TEST_CASE("a band sum left unfinished is dropped: the next prepare starts from a rung and is right") {
  const int L = 130;
  attnx::GramLadder home;
  REQUIRE(home.prepare(L, 3, 256, nullptr));
  REQUIRE(home.begin_bands(L, 3, 600, ProjectionKind::Gaussian) == 256);
  REQUIRE(home.sum_band(0, 64, nullptr));  // the helpers' band never arrives
  CHECK(!home.finish_bands());
  REQUIRE(home.prepare(L, 3, 600, nullptr));
  attnx::GramLadder fresh;
  REQUIRE(fresh.prepare(L, 3, 600, nullptr));
  CHECK(same_bits(home.gram(), fresh.gram(), static_cast<std::size_t>(L) * L));
  // And a prepare in the middle of a band sum (a construct that did not wait) drops it too.
  REQUIRE(home.begin_bands(L, 3, 900, ProjectionKind::Gaussian) == 512);  // the rung below 600
  REQUIRE(home.sum_band(0, 64, nullptr));
  REQUIRE(home.prepare(L, 3, 800, nullptr));
  attnx::GramLadder f2;
  REQUIRE(f2.prepare(L, 3, 800, nullptr));
  CHECK(same_bits(home.gram(), f2.gram(), static_cast<std::size_t>(L) * L));
  CHECK_THROWS_WITH_AS(home.adopt_band(64, 130, nullptr, 0, nullptr, 0), doctest::Contains("gram_band"),
                       attnx::InvalidArgument);
}

TEST_CASE("a stopped band sum goes on where it stopped, and a helper's stopped sum returns nothing") {
  const int L = 200;
  attnx::GramLadder home, fresh;
  REQUIRE(fresh.prepare(L, 9, 1000, nullptr));
  REQUIRE(home.begin_bands(L, 9, 1000, ProjectionKind::Gaussian) == 0);
  int calls = 0;
  while (!home.sum_band(0, 96, [&](double) { return ++calls % 3 != 0; })) {
  }
  attnx::GramBandTask t{L, 9, ProjectionKind::Gaussian, 0, 1000, 96, L, home.band_rungs()};
  int seen = 0;
  const attnx::GramBand stopped = attnx::sum_gram_band(t, {}, [&](double) { return ++seen < 2; });
  CHECK(stopped.cancelled);
  CHECK(stopped.at_d.empty());
  const attnx::GramBand got = attnx::sum_gram_band(t, {}, nullptr);
  // Overlapping, short or mis-sized bands are refused before anything is copied.
  CHECK_THROWS_WITH_AS(home.adopt_band(64, L, got.at_d.data(), got.at_d.size(), got.rungs.data(), got.rungs.size()),
                       doctest::Contains("overlap"), attnx::InvalidArgument);
  CHECK_THROWS_WITH_AS(home.adopt_band(96, L, got.at_d.data(), got.at_d.size() - 1, got.rungs.data(), got.rungs.size()),
                       doctest::Contains("floats"), attnx::InvalidArgument);
  home.adopt_band(96, L, got.at_d.data(), got.at_d.size(), got.rungs.data(), got.rungs.size());
  REQUIRE(home.finish_bands());
  REQUIRE(home.prepare(L, 9, 1000, nullptr));
  CHECK(same_bits(home.gram(), fresh.gram(), static_cast<std::size_t>(L) * L));
}

TEST_CASE("a helper's task out of range is refused naming gram_band") {
  attnx::GramBandTask ok{100, 1, ProjectionKind::Gaussian, 0, 256, 32, 100, {128, 256}};
  CHECK_NOTHROW(attnx::sum_gram_band(ok, {}, nullptr));
  auto refused = [](attnx::GramBandTask t, std::size_t start) {
    CHECK_THROWS_WITH_AS(attnx::sum_gram_band(t, std::vector<float>(start), nullptr),
                         doctest::Contains("gram_band"), attnx::InvalidArgument);
  };
  attnx::GramBandTask t = ok;
  t.c0 = 36;  // not a multiple of kGramBandAlign
  refused(t, 0);
  t = ok;
  t.c1 = 101;
  refused(t, 0);
  t = ok;
  t.from = 300;
  refused(t, 0);
  t = ok;
  t.rungs = {256, 128};
  refused(t, 0);
  t = ok;
  t.rungs = {100};
  refused(t, 0);
  refused(ok, 5);  // a start of the wrong size
}

TEST_CASE("the split rule: one band below the threshold or for one worker, else balanced aligned bands") {
  CHECK(attnx::gram_band_edges(4096, 0, 16384, 1) == std::vector<int>{0, 4096});
  CHECK(attnx::gram_band_edges(1024, 0, 512, 4) == std::vector<int>{0, 1024});  // 2.7e8 multiply-adds
  CHECK(attnx::gram_band_edges(4096, 16000, 16384, 4) == std::vector<int>{0, 4096});
  CHECK(attnx::gram_band_edges(200, 0, 1 << 30, 8) == std::vector<int>{0, 200});  // one 128-wide band
  for (int workers : {2, 3, 4, 8}) {
    for (int L : {2048, 3000, 4096}) {
      CAPTURE(workers);
      CAPTURE(L);
      const std::vector<int> e = attnx::gram_band_edges(L, 0, 16384, workers);
      REQUIRE(static_cast<int>(e.size()) == workers + 1);
      CHECK(e.front() == 0);
      CHECK(e.back() == L);
      // Each band's share of the lower triangle (sum over its columns of L - j) is that of
      // (1 + kGramHomeExtra) / m for band 0 and of an equal part of the rest for the others, but
      // for its edges' rounding to multiples of kGramBandAlign: each at most half of it off, each
      // column at most 2 / (L + 1) of the work, so the share is at most 2 align / (L + 1) off.
      const double home = (1 + attnx::kGramHomeExtra) / workers;
      for (std::size_t b = 0; b + 1 < e.size(); ++b) {
        CHECK(e[b] % attnx::kGramBandAlign == 0);
        CHECK(e[b + 1] - e[b] >= attnx::kGramBandMinColumns);
        double work = 0;
        for (int j = e[b]; j < e[b + 1]; ++j) work += L - j;
        const double want = b == 0 ? home : (1 - home) / (workers - 1);
        CHECK(std::fabs(work / (0.5 * L * (L + 1.0)) - want) <= 2.0 * attnx::kGramBandAlign / (L + 1));
      }
    }
  }
}

TEST_CASE("a helper's rungs taken after its G at d: used only once complete, refused when wrong, moot once dropped") {
  const int L = 130;
  const std::size_t ll = static_cast<std::size_t>(L) * L;
  attnx::GramLadder home;
  REQUIRE(home.begin_bands(L, 5, 700, ProjectionKind::Gaussian, {0, 64, 130}) == 0);
  attnx::GramBandTask t{L, 5, ProjectionKind::Gaussian, 0, 700, 64, L, home.band_rungs()};
  REQUIRE(!t.rungs.empty());
  const attnx::GramBand got = attnx::sum_gram_band(t, {}, nullptr);
  home.adopt_band(64, L, got.at_d.data(), got.at_d.size(), nullptr, 0);  // the rungs to come
  REQUIRE(home.sum_band(0, 64, nullptr));
  REQUIRE(home.finish_bands());
  REQUIRE(home.prepare(L, 5, 700, nullptr));
  CHECK(home.rungs() == 0);
  // A step down before the rungs are in starts over (no half-made rung is read) and is right.
  attnx::GramLadder early = home;
  REQUIRE(early.prepare(L, 5, 650, nullptr));
  CHECK(early.columns_added() == 650);
  attnx::GramLadder f650;
  REQUIRE(f650.prepare(L, 5, 650, nullptr));
  CHECK(same_bits(early.gram(), f650.gram(), ll));
  // Wrong sizes are refused and change nothing; the right ones complete the rungs.
  CHECK_THROWS_WITH_AS(home.adopt_band_rungs_by(64, L, t.rungs, got.rungs.size() - 1, reader(got.rungs)),
                       doctest::Contains("gram_band"), attnx::InvalidArgument);
  CHECK(!home.adopt_band_rungs_by(32, L, t.rungs, got.rungs.size(), reader(got.rungs)));  // no such band
  CHECK(!home.adopt_band_rungs_by(64, L, {128}, got.rungs.size(), reader(got.rungs)));  // other points
  CHECK(home.adopt_band_rungs_by(64, L, t.rungs, got.rungs.size(), reader(got.rungs)));
  CHECK(home.rung_points() == t.rungs);
  CHECK(!home.adopt_band_rungs_by(64, L, t.rungs, got.rungs.size(), reader(got.rungs)));  // nothing waits
  REQUIRE(home.prepare(L, 5, 650, nullptr));
  CHECK(home.columns_added() == 650 % attnx::kLadderStep);  // from the rung at 640
  CHECK(same_bits(home.gram(), f650.gram(), ll));
  // While the sum runs, a band's rungs come once: twice is refused.
  attnx::GramLadder h2;
  REQUIRE(h2.begin_bands(L, 5, 700, ProjectionKind::Gaussian, {0, 64, 130}) == 0);
  h2.adopt_band(64, L, got.at_d.data(), got.at_d.size(), got.rungs.data(), got.rungs.size());
  CHECK_THROWS_WITH_AS(h2.adopt_band_rungs_by(64, L, t.rungs, got.rungs.size(), reader(got.rungs)),
                       doctest::Contains("taken already"), attnx::InvalidArgument);
}

// A ladder at d = 700 (L = 130, seed 5) summed in bands {0, 64, 130}, the helper's rungs still to
// come; `got` is the helper's band and `points` its rung points.
void finished_with_rungs_to_come(attnx::GramLadder& h, attnx::GramBand& got, std::vector<int>& points) {
  REQUIRE(h.begin_bands(130, 5, 700, ProjectionKind::Gaussian, {0, 64, 130}) == 0);
  points = h.band_rungs();
  attnx::GramBandTask t{130, 5, ProjectionKind::Gaussian, 0, 700, 64, 130, points};
  got = attnx::sum_gram_band(t, {}, nullptr);
  h.adopt_band(64, 130, got.at_d.data(), got.at_d.size(), nullptr, 0);
  REQUIRE(h.sum_band(0, 64, nullptr));
  REQUIRE(h.finish_bands());
}

TEST_CASE("rungs still to come are dropped by a new sum or another key, count under the cap, and never fill another sum") {
  const int L = 130;
  attnx::GramBand got;
  std::vector<int> points;
  // A new sum drops them, also once that sum is dropped in turn.
  attnx::GramLadder h3;
  finished_with_rungs_to_come(h3, got, points);
  REQUIRE(h3.begin_bands(L, 5, 900, ProjectionKind::Gaussian, {0, 64, 130}) == 0);  // 700: no rung
  REQUIRE(!h3.finish_bands());
  CHECK(!h3.adopt_band_rungs_by(64, L, points, got.rungs.size(), reader(got.rungs)));
  CHECK(h3.rungs() == 0);
  // Another key drops them.
  attnx::GramLadder h4;
  finished_with_rungs_to_come(h4, got, points);
  REQUIRE(h4.prepare(L, 6, 300, nullptr));
  const std::vector<int> kept = h4.rung_points();
  CHECK(!h4.adopt_band_rungs_by(64, L, points, got.rungs.size(), reader(got.rungs)));
  CHECK(h4.rung_points() == kept);
  // They count under the cap: a cap of two rungs evicts the farthest from d while they wait, and
  // the two kept are G at their points.
  attnx::GramLadder h5;
  finished_with_rungs_to_come(h5, got, points);
  REQUIRE(points.size() > 2);
  const std::uint64_t one = static_cast<std::uint64_t>(L) * L * sizeof(float);
  h5.set_rung_cap(2 * one, 700);
  CHECK(h5.adopt_band_rungs_by(64, L, points, got.rungs.size(), reader(got.rungs)));
  CHECK(h5.rung_bytes() <= 2 * one);
  CHECK(h5.rung_points() == std::vector<int>{points[points.size() - 2], points.back()});
  REQUIRE(h5.prepare(L, 5, 650, nullptr));
  attnx::GramLadder f650;
  REQUIRE(f650.prepare(L, 5, 650, nullptr));
  CHECK(h5.columns_added() == 650 - 640);
  CHECK(same_bits(h5.gram(), f650.gram(), static_cast<std::size_t>(L) * L));
  // Another sum with the same band but other rung points refuses them (they are G elsewhere).
  attnx::GramLadder h6(2 * one);
  finished_with_rungs_to_come(h6, got, points);
  REQUIRE(h6.prepare(L, 5, 640, nullptr));
  const int from = h6.begin_bands(L, 5, 900, ProjectionKind::Gaussian, {0, 64, 130});
  REQUIRE(from > 0);
  REQUIRE(h6.band_rungs() != points);
  REQUIRE(h6.band_rungs().size() == points.size());  // so the sizes alone would match
  attnx::GramBandTask t2{L, 5, ProjectionKind::Gaussian, from, 900, 64, L, h6.band_rungs()};
  const attnx::GramBand got2 = attnx::sum_gram_band(t2, h6.band_start(64, L), nullptr);
  h6.adopt_band(64, L, got2.at_d.data(), got2.at_d.size(), nullptr, 0);  // its rungs to come
  CHECK(!h6.adopt_band_rungs_by(64, L, points, got.rungs.size(), reader(got.rungs)));
  CHECK(h6.adopt_band_rungs_by(64, L, t2.rungs, got2.rungs.size(), reader(got2.rungs)));
  REQUIRE(h6.sum_band(0, 64, nullptr));
  REQUIRE(h6.finish_bands());
  REQUIRE(h6.prepare(L, 5, 800, nullptr));
  CHECK(h6.columns_added() == 800 - 768);  // from the rung at 768, which holds G(768)
  attnx::GramLadder f800;
  REQUIRE(f800.prepare(L, 5, 800, nullptr));
  CHECK(same_bits(h6.gram(), f800.gram(), static_cast<std::size_t>(L) * L));
}

TEST_CASE("a helper's rungs are its band's lower part at each rung point, column after column") {
  CHECK(attnx::gram_band_lower_size(5, 0, 5) == 15u);  // 5 + 4 + 3 + 2 + 1
  CHECK(attnx::gram_band_lower_size(5, 2, 3) == 3u);
  CHECK(attnx::gram_band_lower_size(130, 64, 130) == 2211u);  // 66 + 65 + ... + 1
  CHECK(attnx::gram_band_lower_size(4096, 1184, 4096) == 4241328u);  // 2912 columns: 36 % of 2912 x 4096
  const int L = 130;
  const attnx::GramBandTask t{L, 5, ProjectionKind::Gaussian, 0, 400, 64, L, {128, 256, 384}};
  const attnx::GramBand got = attnx::sum_gram_band(t, {}, nullptr);
  const std::size_t lower = attnx::gram_band_lower_size(L, 64, L);
  REQUIRE(got.rungs.size() == lower * 3);
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(k);
    attnx::GramLadder fresh;
    REQUIRE(fresh.prepare(L, 5, t.rungs[k], nullptr));
    std::vector<float> want;
    for (int j = 64; j < L; ++j)
      for (int i = j; i < L; ++i) want.push_back(fresh.gram()[static_cast<std::size_t>(j) * L + i]);
    CHECK(std::memcmp(got.rungs.data() + lower * k, want.data(), lower * sizeof(float)) == 0);
  }
}
