// Generated pattern families (structure, counts, class flag) and their weight schemes
// (SPEC §1). Custom patterns, compute_stats and the family names are in test_patterns_custom.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

#include "helpers.hpp"
#include <attnx/pattern.hpp>

using attnx::Family;
using attnx::Pattern;
using attnx::PatternSpec;
using attnx::Weights;

namespace {

Pattern gen(PatternSpec s, std::uint64_t seed = 1) {
  attnx::Rng rng(seed);
  return attnx::make_pattern(s, rng);
}

PatternSpec spec(Family f, int L) {
  PatternSpec s;
  s.family = f;
  s.L = L;
  return s;
}

}  // namespace

TEST_CASE("random k-regular pattern has exactly k nonzeros per row and per column") {
  for (int L : {2, 3, 7, 64, 257}) {
    for (int k : {1, 2, 3, L / 2, L - 1, L}) {
      if (k < 1 || k > L) continue;
      CAPTURE(L);
      CAPTURE(k);
      PatternSpec s = spec(Family::Random, L);
      s.k = k;
      for (std::uint64_t seed : {1ull, 2ull, 99ull}) {
        Pattern A = gen(s, seed);
        auto rows = th::check_pattern_invariants(A);
        auto cols = th::col_counts(A);
        int bad = 0;
        for (int i = 0; i < L; ++i) bad += (rows[i] != k) + (cols[i] != k);
        CHECK(bad == 0);
        CHECK(A.k == k);
        CHECK(A.max_col_count == k);
        CHECK(A.in_class);
      }
    }
  }
}

TEST_CASE("random k-regular pattern depends on the generator state") {
  PatternSpec s = spec(Family::Random, 64);
  s.k = 2;
  Pattern a = gen(s, 1), b = gen(s, 2), c = gen(s, 1);
  CHECK(a.col != b.col);
  CHECK(a.col == c.col);
  // Not a trivial structure: the diagonal is not always used.
  int diag = 0;
  for (int i = 0; i < 64; ++i) diag += th::has(a, i, i);
  CHECK(diag < 16);
}

TEST_CASE("permutation pattern has one unit entry per row and per column") {
  for (int L : {2, 5, 100, 1000}) {
    CAPTURE(L);
    Pattern A = gen(spec(Family::Permutation, L), 3);
    auto rows = th::check_pattern_invariants(A);
    auto cols = th::col_counts(A);
    for (int i = 0; i < L; ++i) {
      REQUIRE(rows[i] == 1);
      REQUIRE(cols[i] == 1);
      REQUIRE(A.val[A.row_begin(i)] == 1.0);
    }
    CHECK(A.k == 1);
    CHECK(A.max_col_count == 1);
    CHECK(A.in_class);
  }
}

TEST_CASE("sliding window w: row i has min(i,w)+min(L-1-i,w)+1 entries, exactly |i-j|<=w") {
  for (int L : {2, 5, 16, 33}) {
    for (int w : {0, 1, 3, L - 1}) {
      if (w > L - 1) continue;
      CAPTURE(L);
      CAPTURE(w);
      PatternSpec s = spec(Family::Window, L);
      s.w = w;
      Pattern A = gen(s);
      auto rows = th::check_pattern_invariants(A);
      auto cols = th::col_counts(A);
      int bad = 0;
      for (int i = 0; i < L; ++i) {
        int expect = std::min(i, w) + std::min(L - 1 - i, w) + 1;
        bad += rows[i] != expect;
        bad += cols[i] != expect;  // symmetric structure
        for (int j = 0; j < L; ++j) bad += th::has(A, i, j) != (std::abs(i - j) <= w);
      }
      CHECK(bad == 0);
      CHECK(A.k == std::min(2 * w + 1, L));
      CHECK(A.max_col_count == std::min(2 * w + 1, L));
      CHECK(A.in_class);
    }
  }
}

TEST_CASE("causal window w: row i has min(i,w)+1 entries, column j has min(L-1-j,w)+1") {
  for (int L : {2, 6, 31}) {
    for (int w : {0, 1, 4, L - 1}) {
      if (w > L - 1) continue;
      CAPTURE(L);
      CAPTURE(w);
      PatternSpec s = spec(Family::Causal, L);
      s.w = w;
      Pattern A = gen(s);
      auto rows = th::check_pattern_invariants(A);
      auto cols = th::col_counts(A);
      int bad = 0;
      for (int i = 0; i < L; ++i) {
        bad += rows[i] != std::min(i, w) + 1;
        bad += cols[i] != std::min(L - 1 - i, w) + 1;
        for (int j = 0; j < L; ++j) bad += th::has(A, i, j) != (j <= i && i - j <= w);
      }
      CHECK(bad == 0);
      CHECK(A.k == w + 1);
      CHECK(A.max_col_count == w + 1);
      CHECK(A.in_class);
    }
  }
}

TEST_CASE("dilated window: j = i + r t with |t| <= w, counts min(i/r,w)+min((L-1-i)/r,w)+1") {
  struct C { int L, w, r; };
  for (C c : {C{10, 1, 2}, C{17, 2, 3}, C{64, 3, 4}, C{5, 4, 1}, C{9, 1, 8}}) {
    CAPTURE(c.L);
    CAPTURE(c.w);
    CAPTURE(c.r);
    PatternSpec s = spec(Family::Dilated, c.L);
    s.w = c.w;
    s.r = c.r;
    Pattern A = gen(s);
    auto rows = th::check_pattern_invariants(A);
    auto cols = th::col_counts(A);
    int bad = 0, kmax = 0;
    for (int i = 0; i < c.L; ++i) {
      int expect = std::min(i / c.r, c.w) + std::min((c.L - 1 - i) / c.r, c.w) + 1;
      kmax = std::max(kmax, expect);
      bad += rows[i] != expect;
      bad += cols[i] != expect;
      for (int j = 0; j < c.L; ++j) {
        int dd = std::abs(i - j);
        bad += th::has(A, i, j) != (dd % c.r == 0 && dd / c.r <= c.w);
      }
    }
    CHECK(bad == 0);
    CHECK(A.k == kmax);
    CHECK(A.in_class);
  }
}

TEST_CASE("block diagonal: rows of a block share exactly that block (last block may be short)") {
  struct C { int L, b; };
  for (C c : {C{16, 4}, C{10, 4}, C{7, 7}, C{5, 1}, C{9, 2}}) {
    CAPTURE(c.L);
    CAPTURE(c.b);
    PatternSpec s = spec(Family::Block, c.L);
    s.block = c.b;
    Pattern A = gen(s);
    auto rows = th::check_pattern_invariants(A);
    auto cols = th::col_counts(A);
    int bad = 0;
    for (int i = 0; i < c.L; ++i) {
      int b0 = (i / c.b) * c.b;
      int expect = std::min(c.b, c.L - b0);
      bad += rows[i] != expect;
      bad += cols[i] != expect;
      for (int j = 0; j < c.L; ++j) bad += th::has(A, i, j) != (j / c.b == i / c.b);
    }
    CHECK(bad == 0);
    CHECK(A.k == std::min(c.b, c.L));
    CHECK(A.max_col_count == A.k);
    CHECK(A.in_class);
  }
}

TEST_CASE("strided pattern: own block plus summary columns, outside the class when a summary column is used by more than k rows") {
  struct C { int L, st; };
  for (C c : {C{64, 8}, C{30, 4}, C{16, 16}, C{20, 3}}) {
    CAPTURE(c.L);
    CAPTURE(c.st);
    PatternSpec s = spec(Family::Strided, c.L);
    s.stride = c.st;
    Pattern A = gen(s);
    auto rows = th::check_pattern_invariants(A);
    auto cols = th::col_counts(A);
    int bad = 0, kmax = 0;
    for (int i = 0; i < c.L; ++i) {
      int expect = 0;
      for (int j = 0; j < c.L; ++j) {
        bool in = (j / c.st == i / c.st) || (j % c.st == c.st - 1);
        expect += in;
        bad += th::has(A, i, j) != in;
      }
      kmax = std::max(kmax, expect);
      bad += rows[i] != expect;
    }
    CHECK(bad == 0);
    CHECK(A.k == kmax);
    // Summary column stride-1 is used by every row.
    if (c.st <= c.L) CHECK(cols[c.st - 1] == c.L);
    bool summary_overused = false;
    for (int j = c.st - 1; j < c.L; j += c.st) summary_overused |= cols[j] > kmax;
    CHECK(A.in_class == !summary_overused);
  }
  // Hand-computed: L=64, stride 8 -> k = 8 + 8 - 1 = 15, summary columns used by 64 rows.
  PatternSpec s = spec(Family::Strided, 64);
  s.stride = 8;
  Pattern A = gen(s);
  CHECK(A.k == 15);
  CHECK(A.max_col_count == 64);
  CHECK_FALSE(A.in_class);
  // One block covering everything: the full matrix, inside the class.
  s = spec(Family::Strided, 16);
  s.stride = 16;
  A = gen(s);
  CHECK(A.k == 16);
  CHECK(A.max_col_count == 16);
  CHECK(A.in_class);
}

TEST_CASE("bigbird pattern: window, global columns in every row, and the requested random links") {
  struct C { int L, w, g, r; };
  for (C c : {C{64, 1, 1, 1}, C{40, 2, 3, 2}, C{12, 0, 0, 3}, C{8, 1, 2, 7}}) {
    CAPTURE(c.L);
    CAPTURE(c.w);
    CAPTURE(c.g);
    CAPTURE(c.r);
    PatternSpec s = spec(Family::BigBird, c.L);
    s.w = c.w;
    s.globals = c.g;
    s.randoms = c.r;
    for (std::uint64_t seed : {1ull, 5ull}) {
      Pattern A = gen(s, seed);
      auto rows = th::check_pattern_invariants(A);
      int bad = 0;
      for (int i = 0; i < c.L; ++i) {
        std::set<int> base;
        for (int j = std::max(0, i - c.w); j <= std::min(c.L - 1, i + c.w); ++j) base.insert(j);
        for (int g = 0; g < c.g; ++g) base.insert(g);
        for (int j : base) bad += !th::has(A, i, j);
        int expect = std::min<int>(c.L, static_cast<int>(base.size()) + c.r);
        bad += rows[i] != expect;
      }
      CHECK(bad == 0);
    }
  }
  // Hand-computed: L=64, w=1, one global, one random: global column 0 is used by all 64 rows
  // while no row has more than 3 + 1 + 1 = 5 entries -> outside the class.
  PatternSpec s = spec(Family::BigBird, 64);
  s.w = 1;
  s.globals = 1;
  s.randoms = 1;
  Pattern A = gen(s);
  CHECK(A.k <= 5);
  CHECK(A.max_col_count == 64);
  CHECK_FALSE(A.in_class);
  CHECK(th::col_counts(A)[0] == 64);
}

TEST_CASE("uniform weights are equal on every row") {
  for (Family f : {Family::Random, Family::Window, Family::Strided, Family::BigBird}) {
    PatternSpec s = spec(f, 50);
    s.k = 3;
    s.w = 2;
    s.stride = 5;
    Pattern A = gen(s);
    th::check_pattern_invariants(A);
    int bad = 0;
    for (int i = 0; i < A.L; ++i) {
      int n = A.row_end(i) - A.row_begin(i);
      for (int p = A.row_begin(i); p < A.row_end(i); ++p)
        bad += std::fabs(A.val[p] - 1.0 / n) > 1e-15;
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("random weights lie between w_min and 1 before normalising: max/min ratio on a row <= 1/w_min") {
  for (double wmin : {0.1, 0.25, 0.9}) {
    CAPTURE(wmin);
    PatternSpec s = spec(Family::Window, 400);
    s.w = 3;
    s.weights = Weights::Random;
    s.w_min = wmin;
    Pattern A = gen(s, 17);
    th::check_pattern_invariants(A);
    double worst = 1;
    int constant_rows = 0;
    for (int i = 0; i < A.L; ++i) {
      double lo = 1e300, hi = 0;
      for (int p = A.row_begin(i); p < A.row_end(i); ++p) {
        lo = std::min(lo, A.val[p]);
        hi = std::max(hi, A.val[p]);
      }
      worst = std::max(worst, hi / lo);
      constant_rows += (hi == lo);
    }
    CHECK(worst <= 1.0 / wmin * (1 + 1e-12));
    // With 400 rows of up to 7 draws the extremes approach the bound.
    CHECK(worst >= 0.8 / wmin);
    CHECK(constant_rows == 0);
  }
  // w_min = 1 degenerates to uniform weights.
  PatternSpec s = spec(Family::Window, 20);
  s.w = 2;
  s.weights = Weights::Random;
  s.w_min = 1.0;
  Pattern A = gen(s);
  for (int i = 0; i < A.L; ++i) {
    int n = A.row_end(i) - A.row_begin(i);
    for (int p = A.row_begin(i); p < A.row_end(i); ++p) CHECK(A.val[p] == doctest::Approx(1.0 / n).epsilon(1e-14));
  }
}

TEST_CASE("decaying weights satisfy A_ij / A_ij' = ((1+|i-j'|)/(1+|i-j|))^decay") {
  for (double decay : {0.0, 0.5, 1.0, 2.5}) {
    CAPTURE(decay);
    for (Family f : {Family::Window, Family::Dilated, Family::Random}) {
      PatternSpec s = spec(f, 40);
      s.w = 4;
      s.r = 3;
      s.k = 3;
      s.weights = Weights::Decaying;
      s.decay = decay;
      Pattern A = gen(s, 4);
      th::check_pattern_invariants(A);
      double worst = 0;
      for (int i = 0; i < A.L; ++i) {
        int p0 = A.row_begin(i);
        for (int p = p0; p < A.row_end(i); ++p) {
          double expect = std::pow((1.0 + std::abs(i - A.col[p0])) / (1.0 + std::abs(i - A.col[p])), decay);
          worst = std::max(worst, std::fabs(A.val[p] / A.val[p0] / expect - 1));
        }
      }
      CHECK(worst < 1e-13);
    }
  }
  // Hand-computed: L=3 window w=1 decay 1, row 1 has distances 1,0,1 -> weights 1/2,1,1/2 -> 0.25,0.5,0.25.
  PatternSpec s = spec(Family::Window, 3);
  s.w = 1;
  s.weights = Weights::Decaying;
  s.decay = 1.0;
  Pattern A = gen(s);
  REQUIRE(A.row_end(1) - A.row_begin(1) == 3);
  CHECK(A.val[A.row_begin(1) + 0] == doctest::Approx(0.25).epsilon(1e-14));
  CHECK(A.val[A.row_begin(1) + 1] == doctest::Approx(0.5).epsilon(1e-14));
  CHECK(A.val[A.row_begin(1) + 2] == doctest::Approx(0.25).epsilon(1e-14));
  // Row 0: distances 0,1 -> 1, 1/2 -> 2/3, 1/3.
  CHECK(A.val[A.row_begin(0) + 0] == doctest::Approx(2.0 / 3).epsilon(1e-14));
  CHECK(A.val[A.row_begin(0) + 1] == doctest::Approx(1.0 / 3).epsilon(1e-14));
}
