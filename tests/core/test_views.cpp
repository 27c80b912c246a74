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
#include <attnx/gram_ladder.hpp>
#include <attnx/views.hpp>
#include "requests.hpp"

namespace {

attnx::Construction make(int L, int d, attnx::Pattern& A) {
  attnx::PatternSpec s;
  s.L = L;
  s.k = 3;
  attnx::Rng rng(attnx::pattern_seed(4));
  A = attnx::make_pattern(s, rng);
  return attnx::construct(A, th::jl(attnx::Tolerances{}, d, 4, attnx::kDefaultMaxBytes));
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

namespace {

// The page's per-entry pooling rules (web/common/raster.js, web/explorer/render-data.js), written
// out: NaN skipped, a cell keeps NaN only when it has nothing else; ties keep the first.
float js_max(const std::vector<float>& vals) {
  float out = NAN;
  for (float v : vals) {
    if (v != v) continue;
    if (out != out || v > out) out = v;
  }
  return out;
}

float js_abs_max(const std::vector<float>& vals) {
  float out = 0;
  for (float v : vals)
    if (std::fabs(v) > std::fabs(out)) out = v;
  return out;
}

}  // namespace

TEST_CASE("pool_views follows the page's rules for NaN, infinities and ties of opposite sign") {
  attnx::PatternSpec s;
  s.family = attnx::Family::Window;
  s.L = 6;
  s.w = 0;  // the diagonal only
  attnx::Rng rng(1);
  const attnx::Pattern A = attnx::make_pattern(s, rng);
  attnx::Construction c;
  c.L = 6;
  c.d = 2;
  const float nan = NAN, inf = INFINITY;
  c.M = {nan, nan, 0.1f, 0.2f, 0.3f, 0.4f,  0.5f, nan, nan, nan, 0, 0,  0, 0, 0, 0, 0, 0,
         0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f,  nan, nan, nan, nan, nan, nan,  1, 0, 0, 0, nan, nan};
  c.logits = {0, nan, 3, inf, -inf, 1,  2, 0, nan, nan, 5, 4,  1, 2, 0, 3, 4, 5,
              1, 2, 3, 0, 4, 5,  nan, nan, nan, nan, 0, nan,  inf, 1, 2, 3, 4, 0};
  c.rows.support_min_logit = {0, 0, 0, 0, 0, inf};
  c.X = {3, -3, 1, -1,  -2, 2, 0, 0,  nan, 1, -1, 1,  0, 0, 0, 0,  5, -5, 2, 2,  -5, 5, -2, 1};
  attnx::ViewRequest r;
  r.size = 3;    // cells of 2 x 2
  r.x_rows = 3;  // 2 rows per cell
  r.x_cols = 1;  // both columns of a half in one cell
  const attnx::Views v = attnx::pool_views(A, c, r);
  int bad = 0;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) {
      std::vector<float> m, z;
      for (int i = 2 * y; i < 2 * y + 2; ++i)
        for (int j = 2 * x; j < 2 * x + 2; ++j) {
          m.push_back(c.M[i * 6 + j]);
          if (i != j)
            z.push_back(float((double(c.logits[i * 6 + j]) - c.rows.support_min_logit[i]) / std::log(10.0)));
        }
      const float wm = js_max(m), wz = js_max(z), gm = v.M.data[y * 3 + x], gz = v.zero.data[y * 3 + x];
      if (!(gm == wm || (gm != gm && wm != wm))) ++bad;
      if (!(gz == wz || (gz != gz && wz != wz))) ++bad;
    }
  CHECK(bad == 0);
  for (int half = 0; half < 2; ++half)
    for (int y = 0; y < 3; ++y) {
      std::vector<float> xs;
      for (int i = 2 * y; i < 2 * y + 2; ++i)
        for (int j = 0; j < 2; ++j) xs.push_back(c.X[i * 4 + half * 2 + j]);
      CHECK((half ? v.XP : v.XB).data[y] == js_abs_max(xs));
    }
  CHECK(std::isnan(v.M.data[8]));  // a cell of NaN only
  CHECK(v.zero.data[6] == -INFINITY);  // row 5's smallest support logit is +inf
  CHECK(v.XB.data[0] == 3.0f);   // 3 and -3: the first
  CHECK(v.XB.data[2] == 5.0f);   // 5, -5, -5, 5: the first
}

TEST_CASE("X's images made from the ladder's columns (construct without X) equal those read from X, bit for bit") {
  attnx::PatternSpec s;
  s.L = 90;
  s.k = 3;
  attnx::Rng rng(attnx::pattern_seed(8));
  const attnx::Pattern A = attnx::make_pattern(s, rng);
  attnx::GramLadder ladder;
  attnx::ViewRequest r;
  r.x_rows = 40;
  r.x_cols = 17;
  for (int d : {50, 300}) {
    CAPTURE(d);
    const auto with = attnx::construct(A, th::jl(attnx::Tolerances{}, d, 8, attnx::kDefaultMaxBytes));
    const auto without = attnx::construct(A, th::jl(attnx::Tolerances{}, d, 8, attnx::kDefaultMaxBytes), {nullptr, &ladder, false});
    CHECK(without.X.empty());
    CHECK(without.logits == with.logits);
    const attnx::Views a = attnx::pool_views(A, with, r), b = attnx::pool_views(A, without, r, ladder.columns());
    CHECK(a.XB.data == b.XB.data);
    CHECK(a.XP.data == b.XP.data);
    CHECK(a.xb_max == b.xb_max);
    CHECK(a.xp_max == b.xp_max);
    CHECK_THROWS_AS(attnx::pool_views(A, without, r), attnx::InvalidArgument);
  }
}

TEST_CASE("a view request without inputs leaves X's images out and the other images unchanged") {
  attnx::PatternSpec s;
  s.L = 70;
  attnx::Rng rng(attnx::pattern_seed(3));
  const attnx::Pattern A = attnx::make_pattern(s, rng);
  const auto c = attnx::construct(A, th::jl(attnx::Tolerances{}, 64, 3, attnx::kDefaultMaxBytes));
  attnx::ViewRequest r;
  r.size = 32;
  const attnx::Views all = attnx::pool_views(A, c, r);
  r.inputs = false;
  const attnx::Views some = attnx::pool_views(A, c, r);
  CHECK(some.XB.data.empty());
  CHECK(some.XP.data.empty());
  CHECK(!all.XB.data.empty());
  CHECK(some.M.data == all.M.data);
  CHECK(some.zero.data.size() == all.zero.data.size());
  for (std::size_t n = 0; n < all.zero.data.size(); ++n)
    CHECK((some.zero.data[n] == all.zero.data[n] || (some.zero.data[n] != some.zero.data[n] && all.zero.data[n] != all.zero.data[n])));
  // Without X and without the projection it still succeeds: X's images are not needed.
  const auto bare = attnx::construct(A, th::jl(attnx::Tolerances{}, 64, 3, attnx::kDefaultMaxBytes), {nullptr, nullptr, false});
  CHECK_NOTHROW(attnx::pool_views(A, bare, r));
}

TEST_CASE("a cell of M keeps the row-major first of equal maxima: +0 before -0 and -0 before +0") {
  // Two rows, one 2 x 2 cell. The row-by-row scan keeps the first maximum in row-major order;
  // pool_attention folds columns first and must keep the same zero.
  attnx::PatternSpec s;
  s.family = attnx::Family::Window;
  s.L = 2;
  s.w = 0;
  attnx::Rng rng(1);
  const attnx::Pattern A = attnx::make_pattern(s, rng);
  attnx::ViewRequest r;
  r.size = 1;
  r.inputs = false;
  const auto pooled = [&](std::vector<float> M) {
    attnx::Construction c;
    c.L = 2;
    c.d = 1;
    c.M.assign(M.begin(), M.end());
    c.logits = {0, 1, 1, 0};
    c.rows.support_min_logit = {0, 0};
    return attnx::pool_views(A, c, r).M.data.at(0);
  };
  const float z = 0.0f, nz = -0.0f;
  const float a = pooled({-1, z, nz, -1});   // +0 at (0, 1) comes before -0 at (1, 0)
  const float b = pooled({nz, -1, -1, z});   // -0 at (0, 0) comes before +0 at (1, 1)
  const float c = pooled({-1, nz, z, -1});   // -0 at (0, 1) comes before +0 at (1, 0)
  CHECK(a == 0);
  CHECK_FALSE(std::signbit(a));
  CHECK(b == 0);
  CHECK(std::signbit(b));
  CHECK(c == 0);
  CHECK(std::signbit(c));
  CHECK(pooled({1, z, nz, 2}) == 2.0f);
}

namespace {

// The reference scans, entry by entry (core/views.cpp's fast paths must give their bits): M's
// cell keeps the row-major first largest (NaN skipped); the zero ratio maps each row's largest
// off-support logit of the cell (each entry when the row's smallest support logit is not finite)
// and keeps the first largest mapped value. NaN: nothing there.
float reference_m_cell(const attnx::Construction& c, int i0, int i1, int j0, int j1) {
  float out = NAN;
  for (int i = i0; i < i1; ++i)
    for (int j = j0; j < j1; ++j) {
      const float x = c.M[(size_t)i * c.L + j];
      if (x == x && (out != out || x > out)) out = x;
    }
  return out;
}

float reference_zero_cell(const attnx::Pattern& A, const attnx::Construction& c, int i0, int i1, int j0, int j1) {
  float out = NAN;
  for (int i = i0; i < i1; ++i) {
    const double zmin = c.rows.support_min_logit[i];
    float best = NAN;
    for (int j = j0; j < j1; ++j) {
      const float x = c.logits[(size_t)i * c.L + j];
      if (x != x || on_support(A, i, j)) continue;
      if (std::isfinite(zmin)) {
        if (best != best || x > best) best = x;
        continue;
      }
      const float v = float((double(x) - zmin) / std::log(10.0));
      if (out != out || v > out) out = v;
    }
    if (best != best) continue;
    const float v = float((double(best) - zmin) / std::log(10.0));
    if (out != out || v > out) out = v;
  }
  return out;
}

bool same_bits(float a, float b) { return (a != a && b != b) || std::signbit(a) == std::signbit(b) && a == b; }

}  // namespace

TEST_CASE("pooled M and zero ratio give the reference scan's bits for +-0, subnormals, infinities and NaN (random cells), and M's extremes") {
  // Values that make the fast paths' maxima 0 or -inf, that round to -0 once mapped, and rows whose
  // smallest support logit is not finite, mixed with ordinary ones.
  const float pal[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1.4e-45f, -1.4e-45f, 1e-30f, -1e-30f, 1, 2, -1, 0.5f};
  const double zpal[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 1, -1, 1e-300, 0.5};
  attnx::Rng g(11);
  int cells = 0, bad = 0;
  for (int it = 0; it < 3000; ++it) {
    attnx::PatternSpec s;
    s.L = 2 + static_cast<int>(g.next() % (it % 2 ? 11 : 40));
    s.k = std::min(s.L, 1 + static_cast<int>(g.next() % 3));
    attnx::Rng prng(g.next());
    const attnx::Pattern A = attnx::make_pattern(s, prng);
    attnx::Construction c;
    c.L = s.L;
    c.d = 1;
    const bool wild = g.next() % 2;  // every entry from the palette, or one in four
    const auto pick = [&](int ints, float scale) {
      return wild || g.next() % 4 == 0 ? pal[g.next() % 13] : scale * float(int(g.next() % ints) - ints / 2);
    };
    for (int n = 0; n < s.L * s.L; ++n) c.M.push_back(pick(5, 0.5f)), c.logits.push_back(pick(7, 1.0f));
    for (int i = 0; i < s.L; ++i)
      c.rows.support_min_logit.push_back(g.next() % 3 == 0 ? zpal[g.next() % 9] : double(int(g.next() % 5) - 2));
    attnx::ViewRequest r;
    r.size = 1 + static_cast<int>(g.next() % s.L);
    r.inputs = false;
    const attnx::Views v = attnx::pool_views(A, c, r);
    float mx = 0, mn = INFINITY;  // M's largest entry (from 0) and smallest positive one, NaN skipped
    for (float m : c.M) {
      mx = m > mx ? m : mx;
      mn = m > 0 && m < mn ? m : mn;
    }
    if (!same_bits(float(v.m_max), mx) || !same_bits(float(v.m_min_positive), mn)) ++bad;
    for (int y = 0; y < v.M.h; ++y)
      for (int x = 0; x < v.M.w; ++x, ++cells) {
        const int i0 = y * v.M.fr, i1 = std::min(s.L, i0 + v.M.fr), j0 = x * v.M.fc, j1 = std::min(s.L, j0 + v.M.fc);
        if (!same_bits(v.M.data[(size_t)y * v.M.w + x], reference_m_cell(c, i0, i1, j0, j1))) ++bad;
        if (!same_bits(v.zero.data[(size_t)y * v.M.w + x], reference_zero_cell(A, c, i0, i1, j0, j1))) ++bad;
      }
  }
  CHECK(cells > 20000);
  CHECK(bad == 0);
}

// The message of read_view_window's refusal ("" when it reads the text).
std::string view_refusal(const std::string& text, int L) {
  try {
    attnx::read_view_window(text, L);
  } catch (const attnx::InvalidArgument& e) {
    CHECK(e.field() == "view");
    return e.what();
  }
  return "";
}

TEST_CASE("view windows: rows i0 to i1 and columns j0 to j1 (ends excluded) of at least min(4, L) cells, inside the matrix") {
  const attnx::ViewWindow w = attnx::read_view_window("8,40,0,32", 64);
  CHECK(w.i0 == 8);
  CHECK(w.i1 == 40);
  CHECK(w.j0 == 0);
  CHECK(w.j1 == 32);
  CHECK_FALSE(w.full(64));
  CHECK(attnx::read_view_window("0,64,0,64", 64).full(64));
  CHECK(attnx::read_view_window("60,64,0,4", 64).i0 == 60);   // four rows at the bottom edge
  CHECK(attnx::read_view_window("0,3,0,3", 3).full(3));       // L = 3: the whole matrix only
  CHECK(attnx::view_min_span(2) == 2);
  CHECK(attnx::view_min_span(4096) == attnx::kMinViewSpan);
  const std::string range = "view must be i0,i1,j0,j1 with 0 <= i0 < i1 <= 64 and 0 <= j0 < j1 <= 64, at least 4 rows and 4 columns";
  CHECK(view_refusal("8,40,0,32", 64).empty());
  CHECK(view_refusal("40,8,0,32", 64) == range + " (got \"40,8,0,32\")");   // i1 before i0
  CHECK(view_refusal("0,3,0,64", 64) == range + " (got \"0,3,0,64\")");     // three rows
  CHECK(view_refusal("0,65,0,64", 64) == range + " (got \"0,65,0,64\")");   // past L
  CHECK(view_refusal("-4,0,0,64", 64) == range + " (got \"-4,0,0,64\")");
  CHECK(view_refusal("0,64,0", 64) == range + " (got \"0,64,0\")");          // three numbers
  CHECK(view_refusal("0,64,0,64,1", 64) == range + " (got \"0,64,0,64,1\")");
  CHECK(view_refusal("", 64) == range + " (got \"\")");
  CHECK(view_refusal("0,064,0,64", 64) == range + " (got \"0,064,0,64\"; numbers are written without leading zeros)");
  CHECK(view_refusal("0, 64,0,64", 64) == range + " (got \"0, 64,0,64\"; numbers are written without spaces)");
  CHECK(view_refusal("0,99999999999999999999,0,4", 64).rfind(range, 0) == 0);  // beyond long long
}

TEST_CASE("viewWindow call: { i0, i1, j0, j1, full } - L checked against the option table") {
  const attnx::JsonValue r = attnx::view_window_call(attnx::JsonValue::of("2,10,4,12"), attnx::JsonValue::of(16));
  CHECK(r.find("i0")->num == 2);
  CHECK(r.find("j1")->num == 12);
  CHECK(r.find("full")->b == false);
  CHECK(attnx::view_window_call(attnx::JsonValue::of("0,16,0,16"), attnx::JsonValue::of(16)).find("full")->b);
  CHECK_THROWS_WITH_AS(attnx::view_window_call(attnx::JsonValue::of("0,4,0,4"), attnx::JsonValue::of(1.5)),
                       "L must be an integer from 2 to 16384 (got 1.5)", attnx::InvalidArgument);
  CHECK_THROWS_AS(attnx::view_window_call(attnx::JsonValue::of(3.0), attnx::JsonValue::of(16)), attnx::InvalidArgument);
}
