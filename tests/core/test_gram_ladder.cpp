// The Gram ladder (core/gram_ladder.cpp) and construct()'s Gram path: results never depend on
// what the ladder held, a change of d costs fewer than kLadderStep columns, a stopped call resumes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/gram.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/memory.hpp>
#include <attnx/pattern.hpp>

#include "helpers.hpp"
#include "requests.hpp"

namespace {

using th::random_pattern;

using th::same_bits;

// The full symmetric G of a fresh ladder at d.
std::vector<float> fresh_gram(int L, std::uint64_t seed, int d) {
  attnx::GramLadder g;
  REQUIRE(g.prepare(L, seed, d, nullptr));
  return std::vector<float>(g.gram(), g.gram() + static_cast<size_t>(L) * L);
}

}  // namespace

TEST_CASE("gram_update_lower_kernel (four-lane twin) and gram_update_lower_scalar agree bit for bit") {
  attnx::Rng r(5);
  for (int L : {1, 3, 8, 13, 33, 100}) {
    for (int n : {1, 5, 128, 300}) {
      std::vector<float> P(static_cast<size_t>(L) * n), G0(static_cast<size_t>(L) * L);
      r.fill_normal(P.data(), P.size());
      r.fill_normal(G0.data(), G0.size());
      std::vector<float> a = G0, b = G0;
      attnx::gram_update_lower_kernel(a.data(), L, P.data(), n);
      attnx::gram_update_lower_scalar(b.data(), L, P.data(), n);
      CAPTURE(L);
      CAPTURE(n);
      CHECK(same_bits(a, b));
    }
  }
}

TEST_CASE("the ladder's G equals a fresh ladder's bit for bit whatever d it held before") {
  const int L = 67;  // not a multiple of the kernel's tiles
  attnx::GramLadder g;
  int reached = 0;  // largest d so far: below it a rung is at most kLadderStep columns away
  for (int d : {300, 40, 128, 129, 700, 256, 255, 700, 1}) {
    CAPTURE(d);
    REQUIRE(g.prepare(L, 11, d, nullptr));
    const std::vector<float> got(g.gram(), g.gram() + static_cast<size_t>(L) * L);
    CHECK(same_bits(got, fresh_gram(L, 11, d)));
    const int rung_below = reached / attnx::kLadderStep * attnx::kLadderStep;
    CHECK(g.columns_added() <= (d <= reached ? attnx::kLadderStep : d - rung_below));
    reached = std::max(reached, d);
    // symmetric, and equal to sum_t P_it P_jt within float rounding (float64 reference)
    const float* P = g.columns();
    double worst = 0;
    for (int i = 0; i < L; ++i)
      for (int j = 0; j <= i; ++j) {
        double ref = 0, mag = 0;
        for (int t = 0; t < d; ++t) {
          ref += double(P[(size_t)t * L + i]) * P[(size_t)t * L + j];
          mag += std::fabs(double(P[(size_t)t * L + i]) * P[(size_t)t * L + j]);
        }
        CHECK(got[(size_t)j * L + i] == got[(size_t)i * L + j]);
        worst = std::max(worst, std::fabs(got[(size_t)j * L + i] - ref) / (mag + 1e-30));
      }
    CHECK(worst < 2e-6 * (1 + d / 64.0));
  }
}

TEST_CASE("the ladder's columns are the projection construct draws (nested in d)") {
  const int L = 20, d = 150;
  attnx::GramLadder g;
  REQUIRE(g.prepare(L, attnx::projection_seed(3), d, nullptr));
  std::vector<float> ref(static_cast<size_t>(L) * d);
  attnx::Rng rng(attnx::projection_seed(3));
  attnx::draw_projection_columns(rng, L, d, ref.data());
  CHECK(std::memcmp(ref.data(), g.columns(), ref.size() * sizeof(float)) == 0);
}

TEST_CASE("construct with a ladder equals construct without one, bit for bit, across d, patterns and tolerances") {
  const int L = 96;
  attnx::GramLadder ladder;
  struct Case { int k; std::uint64_t pat; double eps; int d; };
  for (Case c : {Case{2, 1, 1.0, 200}, Case{2, 1, 1.0, 130}, Case{3, 2, 0.5, 130}, Case{2, 1, 2.0, 512},
                 Case{2, 3, 1.0, 64}}) {
    CAPTURE(c.d);
    const attnx::Pattern A = random_pattern(L, c.k, c.pat);
    attnx::Tolerances tol;
    tol.eps = c.eps;
    const auto with = attnx::construct(A, th::jl(tol, c.d, 9, attnx::kDefaultMaxBytes), {nullptr, &ladder});
    const auto without = attnx::construct(A, th::jl(tol, c.d, 9, attnx::kDefaultMaxBytes));
    CHECK(same_bits(with.logits, without.logits));
    CHECK(same_bits(with.M, without.M));
    CHECK(same_bits(with.X, without.X));
    CHECK(with.metrics.rho == without.metrics.rho);
    CHECK(with.metrics.success == without.metrics.success);
  }
  // Same d again with another pattern: no new columns at all.
  attnx::construct(random_pattern(L, 2, 7), th::jl(attnx::Tolerances{}, 64, 9, attnx::kDefaultMaxBytes), {nullptr, &ladder});
  CHECK(ladder.columns_added() == 0);
}

TEST_CASE("construct stopped by its progress callback resumes from the ladder to the same result") {
  const int L = 64, d = 700;
  const attnx::Pattern A = random_pattern(L, 2, 4);
  attnx::GramLadder ladder;
  int calls = 0, stops = 0;
  attnx::Construction c;
  for (;;) {
    calls = 0;
    c = attnx::construct(A, th::jl(attnx::Tolerances{}, d, 2, attnx::kDefaultMaxBytes), {[&](double) { return ++calls < 2; }, &ladder});  // one chunk per call
    if (!c.cancelled) break;
    ++stops;
    CHECK(c.logits.empty());
    REQUIRE(stops < 20);
  }
  CHECK(stops >= 3);  // 700 columns, two chunks of 128 per call
  const auto fresh = attnx::construct(A, th::jl(attnx::Tolerances{}, d, 2, attnx::kDefaultMaxBytes));
  CHECK(same_bits(c.logits, fresh.logits));
  CHECK(c.metrics.rho == fresh.metrics.rho);
}

TEST_CASE("rungs stay within the ladder's byte cap") {
  const int L = 128;
  const std::uint64_t one = static_cast<std::uint64_t>(L) * L * sizeof(float);
  attnx::GramLadder g(3 * one);
  REQUIRE(g.prepare(L, 1, 2000, nullptr));
  CHECK(g.rungs() <= 3);
  CHECK(g.rung_bytes() <= 3 * one);
  REQUIRE(g.prepare(L, 1, 1900, nullptr));  // a rung just below 1900 was kept: < 128 columns
  CHECK(g.columns_added() < attnx::kLadderStep);
  attnx::GramLadder none(0);
  REQUIRE(none.prepare(L, 1, 300, nullptr));
  CHECK(none.rungs() == 0);
  REQUIRE(none.prepare(L, 1, 200, nullptr));
  CHECK(none.columns_added() == 200);  // nothing kept: starts over
}

TEST_CASE("G at the d a sum ends at becomes a rung only when the ladder leaves it, and a return to it sums no column") {
  const int L = 67;
  const std::size_t ll = static_cast<std::size_t>(L) * L;
  attnx::GramLadder g;
  REQUIRE(g.prepare(L, 3, 512, nullptr));
  CHECK(g.rung_points() == std::vector<int>{128, 256, 384});  // 512 is the working G: no copy
  REQUIRE(g.prepare(L, 3, 500, nullptr));  // down from the rung at 384; G at 512 moved to a rung
  CHECK(g.columns_added() == 500 - 384);
  CHECK(g.rung_points() == std::vector<int>{128, 256, 384, 512});
  REQUIRE(g.prepare(L, 3, 512, nullptr));
  CHECK(g.columns_added() == 0);
  CHECK(same_bits(std::vector<float>(g.gram(), g.gram() + ll), fresh_gram(L, 3, 512)));
  // Up in place from a multiple of the step: G there is copied to a rung before the sum goes on.
  REQUIRE(g.prepare(L, 3, 640, nullptr));
  CHECK(g.rung_points() == std::vector<int>{128, 256, 384, 512});
  REQUIRE(g.prepare(L, 3, 700, nullptr));
  CHECK(g.columns_added() == 60);
  CHECK(g.rung_points() == std::vector<int>{128, 256, 384, 512, 640});
  REQUIRE(g.prepare(L, 3, 640, nullptr));
  CHECK(g.columns_added() == 0);
  CHECK(same_bits(std::vector<float>(g.gram(), g.gram() + ll), fresh_gram(L, 3, 640)));
  // A band sum's rung points stop below its d as well (no worker copies its band at d twice).
  attnx::GramLadder b;
  REQUIRE(b.begin_bands(L, 3, 640) == 0);
  CHECK(b.band_rungs() == std::vector<int>{128, 256, 384, 512});
}

TEST_CASE("a step down under a small cap starts from its rung even when keeping the G it leaves evicts that rung") {
  const int L = 8;
  const std::uint64_t one = static_cast<std::uint64_t>(L) * L * sizeof(float);
  const std::vector<std::pair<int, std::vector<int>>> cases = {
      {1, {200, 256, 200}}, {2, {200, 512, 300}}, {4, {200, 1280, 800}}};
  for (const auto& c : cases) {
    CAPTURE(c.first);
    attnx::GramLadder g(c.first * one);
    for (int d : c.second) {
      CAPTURE(d);
      REQUIRE(g.prepare(L, 3, d, nullptr));
      CHECK(same_bits(std::vector<float>(g.gram(), g.gram() + static_cast<std::size_t>(L) * L), fresh_gram(L, 3, d)));
      CHECK(g.rung_bytes() <= c.first * one);
    }
  }
  attnx::GramLadder b(one);  // the same for a band sum's start
  REQUIRE(b.prepare(L, 3, 200, nullptr));
  REQUIRE(b.prepare(L, 3, 256, nullptr));
  CHECK(b.begin_bands(L, 3, 200) == 128);
}
