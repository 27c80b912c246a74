// construct's work made ahead of G (core/construct_ahead.cpp): the logit scale and the L x L
// buffers a band sum's worker makes while its helpers finish. A construct gives the bits of a fresh
// one with or without it, reads a kept scale only for its own settings, and keeps nothing it did
// not read; the band edges leave the worker time for it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/gram.hpp>
#include <attnx/gram_bands.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/memory.hpp>

#include "helpers.hpp"
#include "requests.hpp"

namespace {

using attnx::ProjectionKind;

using th::same_bits;

struct Settings {
  attnx::Pattern A;
  attnx::Tolerances tol;
  int d = 0;
  std::uint64_t seed = 0;
  ProjectionKind kind = ProjectionKind::Gaussian;
};

attnx::Construction construct_with(const Settings& s, attnx::GramLadder* ladder, bool with_x = false) {
  return attnx::construct(s.A, th::jl(s.tol, s.d, s.seed, attnx::kDefaultMaxBytes, s.kind), {nullptr, ladder, with_x});
}

// A ladder holding G at s.d for s's key, and what construct_ahead kept in it for s, with the
// addresses of its buffers.
struct Made {
  const float* logits;
  const float* M;
};
Made make_ahead(const Settings& s, attnx::GramLadder& ladder) {
  REQUIRE(ladder.prepare(s.A.L, attnx::projection_seed(s.seed), s.d, nullptr, s.kind));
  REQUIRE(attnx::construct_ahead(s.A, th::jl(s.tol, s.d, s.seed, attnx::kDefaultMaxBytes, s.kind), ladder));
  attnx::GramLadder::Ahead a = ladder.take_ahead();
  const std::size_t ll = static_cast<std::size_t>(s.A.L) * s.A.L;
  REQUIRE(a.logits.size() == ll);
  REQUIRE(a.M.size() == ll);
  const Made made{a.logits.data(), a.M.data()};
  std::fill(a.logits.begin(), a.logits.end(), std::numeric_limits<float>::quiet_NaN());  // as if stale
  std::fill(a.M.begin(), a.M.end(), std::numeric_limits<float>::quiet_NaN());
  ladder.keep_ahead(std::move(a));
  return made;
}

Settings base_settings(ProjectionKind kind) {
  Settings s;
  s.A = th::random_pattern(77, 3, 5);  // odd L: every tail of the scale's sums
  s.d = 203;
  s.seed = 11;
  s.kind = kind;
  return s;
}

}  // namespace

TEST_CASE("a construct after construct_ahead has the bits of a fresh one and fills the buffers made ahead") {
  for (ProjectionKind kind : {ProjectionKind::Gaussian, ProjectionKind::GaussianUnit, ProjectionKind::Orthogonal}) {
    for (bool with_x : {false, true}) {
      CAPTURE(static_cast<int>(kind));
      CAPTURE(with_x);
      const Settings s = base_settings(kind);
      attnx::GramLadder ladder;
      const Made made = make_ahead(s, ladder);
      const attnx::Construction got = construct_with(s, &ladder, with_x);
      th::check_same_construction(got, construct_with(s, nullptr, with_x));
      CHECK(got.logits.data() == made.logits);  // no new pages to touch
      CHECK(got.M.data() == made.M);
      const attnx::GramLadder::Ahead left = ladder.take_ahead();
      CHECK(left.logits.empty());  // taken: nothing L x L stays behind
      CHECK(left.M.empty());
      CHECK(same_bits(left.logit_scale, got.bounds.logit_scale));  // kept for a re-ask
    }
  }
}

TEST_CASE("construct reads a kept logit scale for its own settings only") {
  const Settings s = base_settings(ProjectionKind::Gaussian);
  const std::vector<double> B = attnx::log_target(s.A, s.tol);
  const double planted = 12345.5;
  auto plant = [&](attnx::GramLadder& ladder) {
    ladder.keep_ahead({attnx::jl_scale_key(s.A, B, s.d, attnx::projection_seed(s.seed), s.kind), planted, {}, {}});
  };
  attnx::GramLadder ladder;
  REQUIRE(ladder.prepare(s.A.L, attnx::projection_seed(s.seed), 640, nullptr));  // every d below
  plant(ladder);
  CHECK(construct_with(s, &ladder).bounds.logit_scale == planted);  // read: the same key
  plant(ladder);
  CHECK(construct_with(s, &ladder, true).bounds.logit_scale == planted);  // also when X is built

  std::vector<Settings> others(6, s);
  others[0].tol.eps = 0.5;  // another B
  others[1].tol.tau = 0.02;
  others[2].A = th::random_pattern(77, 3, 6);  // another pattern of the same L and k
  others[3].d = 204;
  others[4].kind = ProjectionKind::GaussianUnit;  // the same columns, another scale
  others[5].seed = 12;  // another projection (the ladder starts over, which drops it anyway)
  for (std::size_t v = 0; v < others.size(); ++v) {
    CAPTURE(v);
    plant(ladder);
    const attnx::Construction got = construct_with(others[v], &ladder);
    CHECK(got.bounds.logit_scale != planted);
    th::check_same_construction(got, construct_with(others[v], nullptr));
    // What is kept now is this construct's own scale.
    plant(ladder);
    ladder.take_ahead();
    const attnx::Construction again = construct_with(others[v], &ladder);
    const attnx::GramLadder::Ahead kept = ladder.take_ahead();
    CHECK(kept.key == attnx::jl_scale_key(others[v].A, attnx::log_target(others[v].A, others[v].tol), others[v].d,
                                          attnx::projection_seed(others[v].seed), others[v].kind));
    CHECK(same_bits(kept.logit_scale, again.bounds.logit_scale));
  }
}

TEST_CASE("construct_ahead made again for the same settings (a stopped construct taken up) keeps what it made") {
  const Settings s = base_settings(ProjectionKind::Gaussian);
  attnx::GramLadder ladder;
  const Made first = make_ahead(s, ladder);
  attnx::GramLadder::Ahead a = ladder.take_ahead();
  a.logit_scale = 12345.5;  // planted: kept unless the scale is made again
  ladder.keep_ahead(std::move(a));
  REQUIRE(attnx::construct_ahead(s.A, th::jl(s.tol, s.d, s.seed, attnx::kDefaultMaxBytes), ladder));
  const attnx::Construction c = construct_with(s, &ladder);
  CHECK(c.bounds.logit_scale == 12345.5);
  CHECK(c.logits.data() == first.logits);
  CHECK(c.M.data() == first.M);
  // After that construct only its scale is kept: made ahead again, the buffers are new.
  REQUIRE(attnx::construct_ahead(s.A, th::jl(s.tol, s.d, s.seed, attnx::kDefaultMaxBytes), ladder));
  const attnx::GramLadder::Ahead again = ladder.take_ahead();
  CHECK(again.logits.size() == static_cast<std::size_t>(s.A.L) * s.A.L);
  CHECK(again.M.size() == static_cast<std::size_t>(s.A.L) * s.A.L);
  CHECK(again.logit_scale == 12345.5);
}

TEST_CASE("the buffers made ahead serve a construct of other settings of the same L, and released they leave the scale") {
  const Settings s = base_settings(ProjectionKind::Gaussian);
  Settings other = s;
  other.tol.eps = 0.5;
  other.A = th::random_pattern(77, 2, 9);
  attnx::GramLadder ladder;
  const Made made = make_ahead(s, ladder);
  const attnx::Construction c = construct_with(other, &ladder);
  th::check_same_construction(c, construct_with(other, nullptr));
  CHECK(c.logits.data() == made.logits);
  CHECK(c.M.data() == made.M);
  // A stopped construct's worker releases the buffers; a construct after it makes its own.
  make_ahead(s, ladder);
  ladder.release_ahead_buffers();
  attnx::GramLadder::Ahead kept = ladder.take_ahead();
  CHECK(kept.logits.empty());
  CHECK(kept.M.empty());
  CHECK(kept.key == attnx::jl_scale_key(s.A, attnx::log_target(s.A, s.tol), s.d, attnx::projection_seed(s.seed), s.kind));
  ladder.keep_ahead(std::move(kept));
  th::check_same_construction(construct_with(s, &ladder), construct_with(s, nullptr));
}

TEST_CASE("the scale's key is seven words for any pattern, and tells apart patterns that differ in one entry") {
  const attnx::Pattern A = th::random_pattern(200, 4, 3);
  const std::vector<double> B = attnx::log_target(A, attnx::Tolerances{});
  const auto key = attnx::jl_scale_key(A, B, 64, 5, ProjectionKind::Gaussian);
  CHECK(key.size() == 7u);
  CHECK(key == attnx::jl_scale_key(A, B, 64, 5, ProjectionKind::Gaussian));
  std::vector<double> B2 = B;
  B2[123] = std::nextafter(B2[123], 10.0);  // one bit of one target
  CHECK(key != attnx::jl_scale_key(A, B2, 64, 5, ProjectionKind::Gaussian));
  attnx::Pattern A2 = A;
  std::swap(A2.col[10], A2.col[11]);  // the same columns in another order
  CHECK(key != attnx::jl_scale_key(A2, B, 64, 5, ProjectionKind::Gaussian));
  attnx::Pattern A3 = A;
  A3.row_ptr[100] += 1;  // one entry moved to the row before
  CHECK(key != attnx::jl_scale_key(A3, B, 64, 5, ProjectionKind::Gaussian));
  CHECK(key != attnx::jl_scale_key(A, B, 65, 5, ProjectionKind::Gaussian));
  CHECK(key != attnx::jl_scale_key(A, B, 64, 6, ProjectionKind::Gaussian));
  CHECK(key != attnx::jl_scale_key(A, B, 64, 5, ProjectionKind::GaussianUnit));
}

TEST_CASE("construct_ahead makes nothing without the columns up to d, and starting over drops what it made") {
  const Settings s = base_settings(ProjectionKind::Gaussian);
  const std::uint64_t stream = attnx::projection_seed(s.seed);
  attnx::GramLadder ladder;
  CHECK_FALSE(attnx::construct_ahead(s.A, th::jl(s.tol, s.d, s.seed, attnx::kDefaultMaxBytes), ladder));  // nothing drawn
  REQUIRE(ladder.prepare(s.A.L, stream, 128, nullptr));
  CHECK_FALSE(attnx::construct_ahead(s.A, th::jl(s.tol, s.d, s.seed, attnx::kDefaultMaxBytes), ladder));  // 128 < d
  CHECK(ladder.take_ahead().key.empty());
  REQUIRE(ladder.prepare(s.A.L, stream, s.d, nullptr));
  CHECK_FALSE(attnx::construct_ahead(s.A, th::jl(s.tol, s.d, s.seed + 1, attnx::kDefaultMaxBytes), ladder));  // other seed
  CHECK_FALSE(attnx::construct_ahead(s.A, th::jl(s.tol, s.d, s.seed, attnx::kDefaultMaxBytes, ProjectionKind::Rademacher), ladder));  // another family's columns
  CHECK(attnx::construct_ahead(s.A, th::jl(s.tol, s.d, s.seed, attnx::kDefaultMaxBytes, ProjectionKind::GaussianUnit), ladder));  // the same family's
  CHECK(attnx::construct_ahead(s.A, th::jl(s.tol, s.d, s.seed, attnx::kDefaultMaxBytes), ladder));
  REQUIRE(ladder.prepare(s.A.L, stream + 1, 64, nullptr));  // another key: the columns change
  CHECK(ladder.take_ahead().key.empty());
  // construct's own checks, before anything is made.
  attnx::Tolerances bad = s.tol;
  bad.tau = 2;
  CHECK_THROWS_AS(attnx::construct_ahead(s.A, th::jl(bad, s.d, s.seed, attnx::kDefaultMaxBytes), ladder),
                  attnx::InvalidArgument);
  CHECK_THROWS_AS(attnx::construct_ahead(s.A, th::jl(s.tol, 0, s.seed, attnx::kDefaultMaxBytes), ladder),
                  attnx::InvalidArgument);
  CHECK_THROWS(attnx::construct_ahead(s.A, th::jl(s.tol, s.d, s.seed, 1000), ladder));  // over the budget
}

TEST_CASE("in a band sum, construct_ahead after the ladder's own band and the construct after the helpers' bands give a fresh construct's bits") {
  Settings s = base_settings(ProjectionKind::Gaussian);
  s.A = th::random_pattern(300, 2, 8);
  s.d = 500;
  const std::uint64_t stream = attnx::projection_seed(s.seed);
  attnx::GramLadder home;
  const std::vector<int> edges{0, 96, 300};
  REQUIRE(home.begin_bands(s.A.L, stream, s.d, s.kind, edges) == 0);
  CHECK_FALSE(attnx::construct_ahead(s.A, th::jl(s.tol, s.d, s.seed, attnx::kDefaultMaxBytes), home));  // not drawn yet
  REQUIRE(home.sum_band(0, 96, nullptr));
  REQUIRE(attnx::construct_ahead(s.A, th::jl(s.tol, s.d, s.seed, attnx::kDefaultMaxBytes), home));
  const attnx::GramBandTask task{s.A.L, stream, s.kind, 0, s.d, 96, 300, home.band_rungs()};
  const attnx::GramBand helper = attnx::sum_gram_band(task, {}, nullptr);
  home.adopt_band(96, 300, helper.at_d.data(), helper.at_d.size(), helper.rungs.data(), helper.rungs.size());
  REQUIRE(home.finish_bands());
  th::check_same_construction(construct_with(s, &home), construct_with(s, nullptr));
}

TEST_CASE("the band edges leave the ladder's worker the time of its work ahead") {
  const int L = 4096, d = 16384;
  const double W = 0.5 * L * L * d;
  auto home_share = [&](const std::vector<int>& e) {
    double work = 0;
    for (int j = e[0]; j < e[1]; ++j) work += L - j;
    return work / (0.5 * L * (L + 1.0));
  };
  for (int workers : {2, 3, 4}) {
    for (double a : {0.0, 0.01, 0.03}) {
      CAPTURE(workers);
      CAPTURE(a);
      const std::vector<int> e = attnx::gram_band_edges(L, 0, d, workers, a * W);
      REQUIRE(static_cast<int>(e.size()) == workers + 1);
      // Home s W + a W = each helper's (1 - s) W / (m - 1), with the home's extra as without it.
      const double want = (1 + attnx::kGramHomeExtra) / workers - a * (workers - 1) / workers;
      CHECK(std::fabs(home_share(e) - want) <= double(attnx::kGramBandAlign) / (L + 1));  // edge rounded
    }
  }
  // Work ahead larger than a share: the ladder's band is as narrow as a band may be, still split.
  const std::vector<int> narrow = attnx::gram_band_edges(L, 0, d, 2, W);
  CHECK(narrow == std::vector<int>{0, attnx::kGramBandMinColumns, L});
  CHECK(attnx::gram_band_edges(L, 0, d, 2, -W) == attnx::gram_band_edges(L, 0, d, 2));  // none is none
  // What construct_ahead costs grows with L d, k and L^2.
  CHECK(attnx::construct_ahead_macs(4096, 3, 16384) > attnx::construct_ahead_macs(4096, 2, 16384));
  CHECK(attnx::construct_ahead_macs(4096, 2, 16384) > attnx::construct_ahead_macs(4096, 2, 8192));
  CHECK(attnx::construct_ahead_macs(4096, 2, 16384) > 0.01 * W);  // at the largest L, some 2 % of G
  CHECK(attnx::construct_ahead_macs(4096, 2, 16384) < 0.05 * W);
}
