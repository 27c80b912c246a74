// The projection kinds of SPEC §8.1: each kind's defining property on the P_s that construct()
// puts in X's right half, nested draws, determinism, gaussian unchanged, the Gram ladder keyed by
// the kind, and min_d with a kind against construct with that kind.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/mind.hpp>
#include <attnx/projection.hpp>
#include <attnx/views.hpp>
#include "helpers.hpp"
#include "requests.hpp"

using attnx::ProjectionKind;
using th::MatD;

namespace {

const ProjectionKind kAll[] = {ProjectionKind::Gaussian, ProjectionKind::Rademacher,
                               ProjectionKind::GaussianUnit, ProjectionKind::Orthogonal,
                               ProjectionKind::OrthogonalUnit};

attnx::Construction build(int L, int d, ProjectionKind kind, std::uint64_t seed = 5) {
  return attnx::construct(th::random_pattern(L, 2, seed), th::jl(attnx::Tolerances{}, d, seed, attnx::kDefaultMaxBytes, kind));
}

// X's right half (P_s), L x d in double.
MatD right_half(const attnx::Construction& c) {
  MatD P(c.L, c.d);
  for (int i = 0; i < c.L; ++i)
    for (int t = 0; t < c.d; ++t) P(i, t) = c.X[(size_t)i * 2 * c.d + c.d + t];
  return P;
}

// The first n raw columns drawn at once (L x n, column-major).
std::vector<float> raw(ProjectionKind kind, int L, int n, std::uint64_t seed = 5) {
  std::vector<float> P((size_t)L * n);
  attnx::ProjectionStream(kind, L, attnx::projection_seed(seed)).next(n, P.data());
  return P;
}

}  // namespace

TEST_CASE("projection names round-trip and unknown names are refused naming the choices") {
  for (ProjectionKind k : kAll) CHECK(attnx::parse_projection(attnx::projection_name(k)) == k);
  CHECK(attnx::projection_names().size() == 5);
  const auto e = th::invalid([] { attnx::parse_projection("sparse"); });
  CHECK(e.field() == "projection");
  CHECK(th::contains(e.what(), "one of gaussian, rademacher, gaussian-unit, orthogonal, orthogonal-unit"));
}

TEST_CASE("gaussian is unchanged: the stream draws draw_projection_columns' values, construct's default is gaussian") {
  const int L = 37, n = 70;
  std::vector<float> ref((size_t)L * n);
  attnx::Rng rng(attnx::projection_seed(5));
  attnx::draw_projection_columns(rng, L, n, ref.data());
  CHECK(raw(ProjectionKind::Gaussian, L, n) == ref);
  const auto A = th::random_pattern(48, 2, 5);
  const auto def = attnx::construct(A, th::jl(attnx::Tolerances{}, 40, 5, attnx::kDefaultMaxBytes));
  const auto g = build(48, 40, ProjectionKind::Gaussian);
  CHECK(def.X == g.X);
  CHECK(def.logits == g.logits);
  CHECK(def.M == g.M);
  CHECK(g.projection == ProjectionKind::Gaussian);
}

TEST_CASE("rademacher: every entry of P_s is +-1/sqrt(d), both signs about equally often") {
  for (int d : {7, 64}) {
    const MatD P = right_half(build(50, d, ProjectionKind::Rademacher));
    const double v = double(static_cast<float>(1.0 / std::sqrt(double(d))));
    int plus = 0;
    for (int i = 0; i < P.rows(); ++i)
      for (int t = 0; t < d; ++t) {
        CHECK((P(i, t) == v || P(i, t) == -v));
        plus += P(i, t) > 0;
      }
    CHECK(std::abs(plus - 25.0 * d) < 4 * std::sqrt(12.5 * d));
  }
}

TEST_CASE("gaussian-unit and orthogonal-unit: every row of P_s has norm 1 at each d") {
  for (ProjectionKind k : {ProjectionKind::GaussianUnit, ProjectionKind::OrthogonalUnit})
    for (int d : {1, 9, 80}) {
      const MatD P = right_half(build(40, d, k));
      for (int i = 0; i < P.rows(); ++i) CHECK(P.row(i).norm() == doctest::Approx(1.0).epsilon(1e-6));
    }
}

TEST_CASE("orthogonal: columns are orthonormal within each block of min(L, 256), norm sqrt(L/d)") {
  struct Case { int L, d; };
  for (const Case c : {Case{40, 100}, Case{300, 280}}) {
    const MatD P = right_half(build(c.L, c.d, ProjectionKind::Orthogonal));
    const int block = std::min(c.L, 256);
    const double norm2 = double(c.L) / c.d;
    double worst_in = 0, worst_norm = 0, across = 0;
    for (int a = 0; a < c.d; ++a)
      for (int b = 0; b <= a; ++b) {
        const double g = P.col(a).dot(P.col(b)) / norm2;
        if (a == b) worst_norm = std::max(worst_norm, std::fabs(g - 1));
        else if (a / block == b / block) worst_in = std::max(worst_in, std::fabs(g));
        else across = std::max(across, std::fabs(g));
      }
    CHECK(worst_norm < 1e-5);
    CHECK(worst_in < 1e-5);
    CHECK(across > 0.05);  // blocks are independent draws, not one orthonormal set
  }
}

TEST_CASE("orthogonal-unit is orthogonal with its rows rescaled to norm 1") {
  const MatD O = right_half(build(40, 30, ProjectionKind::Orthogonal));
  const MatD U = right_half(build(40, 30, ProjectionKind::OrthogonalUnit));
  for (int i = 0; i < 40; ++i)
    CHECK((U.row(i) - O.row(i) / O.row(i).norm()).cwiseAbs().maxCoeff() < 1e-6);
}

TEST_CASE("every kind's draws are nested: columns drawn in pieces equal columns drawn at once") {
  const int L = 300, n = 520;  // crosses the orthogonal blocks at 256 and 512
  for (ProjectionKind k : kAll) {
    const std::vector<float> once = raw(k, L, n);
    std::vector<float> pieces((size_t)L * n);
    attnx::ProjectionStream s(k, L, attnx::projection_seed(5));
    int done = 0;
    for (int m : {7, 249, 16, 248}) {
      s.next(m, pieces.data() + (size_t)done * L);
      done += m;
    }
    CHECK(done == n);
    CHECK_MESSAGE(pieces == once, attnx::projection_name(k));
  }
}

TEST_CASE("skipping columns gives the columns after them, also inside and across orthogonal blocks") {
  const int L = 300, n = 520;
  for (ProjectionKind k : kAll) {
    const std::vector<float> once = raw(k, L, n);
    for (int first : {0, 1, 255, 256, 300, 511}) {
      CAPTURE(first);
      attnx::ProjectionStream s(k, L, attnx::projection_seed(5));
      s.skip(first / 2);
      s.skip(first - first / 2);  // in two pieces
      CHECK(s.drawn() == first);
      std::vector<float> rest((size_t)L * (n - first));
      s.next(n - first, rest.data());
      CHECK_MESSAGE(std::equal(rest.begin(), rest.end(), once.begin() + (size_t)first * L), attnx::projection_name(k));
    }
  }
}

TEST_CASE("construct's P_s at each d is the first d nested raw columns, scaled as the kind says") {
  const int L = 40;
  for (ProjectionKind k : kAll) {
    const std::vector<float> R = raw(k, L, 90);
    for (int d : {10, 90}) {
      const MatD P = right_half(build(L, d, k));
      double worst = 0;
      for (int i = 0; i < L; ++i) {
        double n2 = 0;
        for (int t = 0; t < d; ++t) n2 += double(R[(size_t)t * L + i]) * R[(size_t)t * L + i];
        const double s = attnx::unit_rows(k) ? 1 / std::sqrt(n2) : 1 / std::sqrt(double(d));
        for (int t = 0; t < d; ++t) worst = std::max(worst, std::fabs(P(i, t) - s * R[(size_t)t * L + i]));
      }
      CHECK_MESSAGE(worst < 1e-6, attnx::projection_name(k) << " d " << d);
    }
  }
}

TEST_CASE("every kind's logits are Q K^T / sqrt(d) of its X, and a seed reproduces them bit for bit") {
  const int L = 48, d = 56;
  for (ProjectionKind k : kAll) {
    const auto c = build(L, d, k, 9), again = build(L, d, k, 9), other = build(L, d, k, 10);
    CHECK(c.X == again.X);
    CHECK(c.logits == again.logits);
    CHECK(c.X != other.X);
    double worst = 0, big = 0;
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j) {
        double z = 0;
        for (int t = 0; t < d; ++t) z += double(c.X[(size_t)i * 2 * d + t]) * c.X[(size_t)j * 2 * d + d + t];
        z /= std::sqrt(double(d));
        worst = std::max(worst, std::fabs(z - c.logits[(size_t)i * L + j]));
        big = std::max(big, std::fabs(z));
      }
    CHECK_MESSAGE(worst < 1e-5 * big, attnx::projection_name(k));
  }
}

TEST_CASE("the Gram ladder is keyed by the kind's columns: switching kinds equals a fresh construct") {
  const auto A = th::random_pattern(64, 2, 3);
  attnx::GramLadder ladder;
  for (ProjectionKind k : {ProjectionKind::Gaussian, ProjectionKind::Orthogonal, ProjectionKind::Rademacher,
                           ProjectionKind::OrthogonalUnit, ProjectionKind::Gaussian}) {
    const auto with = attnx::construct(A, th::jl(attnx::Tolerances{}, 72, 3, attnx::kDefaultMaxBytes, k), {nullptr, &ladder});
    const auto fresh = attnx::construct(A, th::jl(attnx::Tolerances{}, 72, 3, attnx::kDefaultMaxBytes, k));
    CHECK_MESSAGE(with.X == fresh.X, attnx::projection_name(k));
    CHECK(with.logits == fresh.logits);
  }
  // A -unit kind shares its family's G: no new columns.
  attnx::construct(A, th::jl(attnx::Tolerances{}, 72, 3, attnx::kDefaultMaxBytes, ProjectionKind::GaussianUnit), {nullptr, &ladder});
  CHECK(ladder.columns_added() == 0);
  // The orthogonal family's columns drawn again after a smaller d continue the block exactly.
  attnx::construct(A, th::jl(attnx::Tolerances{}, 20, 3, attnx::kDefaultMaxBytes, ProjectionKind::Orthogonal), {nullptr, &ladder});
  const auto up = attnx::construct(A, th::jl(attnx::Tolerances{}, 150, 3, attnx::kDefaultMaxBytes, ProjectionKind::Orthogonal), {nullptr, &ladder});
  CHECK(up.X == build(64, 150, ProjectionKind::Orthogonal, 3).X);
}

TEST_CASE("pool_views from a unit kind's ladder columns equals pool_views from its X") {
  const auto A = th::random_pattern(64, 2, 8);
  attnx::GramLadder ladder;
  attnx::ViewRequest r;
  r.size = 32, r.x_rows = 32, r.x_cols = 16;
  const auto with = attnx::construct(A, th::jl(attnx::Tolerances{}, 48, 8, attnx::kDefaultMaxBytes, ProjectionKind::GaussianUnit));
  const auto without = attnx::construct(A, th::jl(attnx::Tolerances{}, 48, 8, attnx::kDefaultMaxBytes, ProjectionKind::GaussianUnit), {nullptr, &ladder, false});
  const attnx::Views a = attnx::pool_views(A, with, r), b = attnx::pool_views(A, without, r, ladder.columns());
  CHECK(a.XB.data == b.XB.data);
  CHECK(a.XP.data == b.XP.data);
}

TEST_CASE("min_d with a kind is the smallest grid d at which construct with that kind succeeds") {
  attnx::Tolerances tol;
  attnx::MinDOptions opt;
  opt.step = 8;
  opt.d_max = 2048;
  int checked = 0;
  for (ProjectionKind k : kAll)
    for (std::uint64_t seed : {1, 2}) {
      const auto A = th::random_pattern(64, 2, seed);
      opt.projection = k;
      const auto r = attnx::min_d(A, th::search("jl", tol, opt, seed));
      REQUIRE(r.reached());
      auto at = [&](int d) {
        return attnx::construct(A, th::jl(tol, d, seed, attnx::kDefaultMaxBytes, k), {nullptr, nullptr, false}).metrics.success;
      };
      CHECK_MESSAGE(at(r.d_min), attnx::projection_name(k) << " seed " << seed << " d_min " << r.d_min);
      if (r.d_min > opt.step) CHECK_MESSAGE(!at(r.d_min - opt.step), attnx::projection_name(k) << " seed " << seed);
      ++checked;
    }
  CHECK(checked == 10);
}
