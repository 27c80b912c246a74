// Pooled images of a construction (core/views.cpp) against a cell-by-cell recomputation from the
// full matrices, and the request's limits.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/errors.hpp>
#include <attnx/memory.hpp>
#include <attnx/views.hpp>

namespace {

attnx::Construction make(int L, int d, attnx::Pattern& A) {
  attnx::PatternSpec s;
  s.L = L;
  s.k = 3;
  attnx::Rng rng(attnx::pattern_seed(4));
  A = attnx::make_pattern(s, rng);
  return attnx::construct(A, attnx::Tolerances{}, d, 4, attnx::kDefaultMaxBytes);
}

bool on_support(const attnx::Pattern& A, int i, int j) {
  for (int e = A.row_begin(i); e < A.row_end(i); ++e)
    if (A.col[e] == j) return true;
  return false;
}

}  // namespace

TEST_CASE("pool geometry: f = ceil(n / budget), size = ceil(n / f)") {
  CHECK(attnx::pool_factor(256, 512) == 1);
  CHECK(attnx::pool_size(256, 512) == 256);
  CHECK(attnx::pool_factor(1000, 512) == 2);
  CHECK(attnx::pool_size(1000, 512) == 500);
  CHECK(attnx::pool_factor(1025, 512) == 3);
  CHECK(attnx::pool_size(1025, 512) == 342);
}

TEST_CASE("pool_views keeps each cell's largest value of M, the zero ratio and |X| (cell-by-cell recomputation)") {
  attnx::Pattern A;
  for (int L : {50, 130}) {
    const int d = 70;
    const attnx::Construction c = make(L, d, A);
    attnx::ViewRequest r;
    r.size = 32;     // cells of several entries, and a ragged last cell
    r.x_rows = 40;
    r.x_cols = 16;
    const attnx::Views v = attnx::pool_views(A, c, r);
    CAPTURE(L);
    REQUIRE(v.M.fr == attnx::pool_factor(L, 32));
    REQUIRE(v.M.w == attnx::pool_size(L, 32));
    int bad = 0;
    double mmax = 0;
    for (int y = 0; y < v.M.h; ++y)
      for (int x = 0; x < v.M.w; ++x) {
        float mref = -INFINITY, zref = NAN;
        for (int i = y * v.M.fr; i < std::min(L, (y + 1) * v.M.fr); ++i)
          for (int j = x * v.M.fc; j < std::min(L, (x + 1) * v.M.fc); ++j) {
            const float m = c.M[(size_t)i * L + j];
            mref = std::max(mref, m);
            mmax = std::max(mmax, double(m));
            if (on_support(A, i, j)) continue;
            const float z = float((double(c.logits[(size_t)i * L + j]) - c.rows.support_min_logit[i]) / std::log(10.0));
            if (std::isnan(zref) || z > zref) zref = z;
          }
        const size_t q = (size_t)y * v.M.w + x;
        if (v.M.data[q] != mref) ++bad;
        if (!(v.zero.data[q] == zref || (std::isnan(zref) && std::isnan(v.zero.data[q])))) ++bad;
      }
    CHECK(bad == 0);
    CHECK(v.m_max == mmax);
    // X halves: the entry of largest magnitude per cell, and the largest |X| of each half.
    for (int half = 0; half < 2; ++half) {
      const attnx::Pooled& p = half ? v.XP : v.XB;
      double big = 0;
      int xbad = 0;
      for (int y = 0; y < p.h; ++y)
        for (int x = 0; x < p.w; ++x) {
          float ref = 0;
          for (int i = y * p.fr; i < std::min(L, (y + 1) * p.fr); ++i)
            for (int j = x * p.fc; j < std::min(d, (x + 1) * p.fc); ++j) {
              const float e = c.X[(size_t)i * 2 * d + half * d + j];
              if (std::fabs(e) > std::fabs(ref)) ref = e;
              big = std::max(big, double(std::fabs(e)));
            }
          if (p.data[(size_t)y * p.w + x] != ref) ++xbad;
        }
      CHECK(xbad == 0);
      CHECK((half ? v.xp_max : v.xb_max) == big);
    }
  }
}

TEST_CASE("a view request outside 1..kMaxViewPixels is refused naming the field") {
  attnx::ViewRequest r;
  r.x_cols = 0;
  try {
    attnx::validate(r);
    FAIL("not refused");
  } catch (const attnx::InvalidArgument& e) {
    CHECK(e.field() == "views.xCols");
    CHECK(std::string(e.what()) == "views.xCols must be an integer from 1 to 4096 (got 0)");
  }
  r.x_cols = 16;
  r.size = attnx::kMaxViewPixels + 1;
  CHECK_THROWS_AS(attnx::validate(r), attnx::InvalidArgument);
}
