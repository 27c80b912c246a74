// Pattern families, weights and custom patterns (SPEC §1, §7).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>
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

TEST_CASE("custom pattern from triplets is normalised, sorted, and drops zero weights") {
  std::vector<attnx::Triplet> t = {
      {0, 2, 6.0}, {0, 0, 2.0}, {1, 1, 5.0}, {2, 0, 1.0}, {2, 1, 0.0}, {2, 2, 3.0}, {1, 0, 0.0}};
  Pattern A = attnx::pattern_from_triplets(3, t);
  auto rows = th::check_pattern_invariants(A);
  CHECK(rows == std::vector<int>{2, 1, 2});
  CHECK(A.col == std::vector<int>{0, 2, 1, 0, 2});
  REQUIRE(A.val.size() == 5);
  CHECK(A.val[0] == doctest::Approx(0.25).epsilon(1e-15));
  CHECK(A.val[1] == doctest::Approx(0.75).epsilon(1e-15));
  CHECK(A.val[2] == 1.0);
  CHECK(A.val[3] == doctest::Approx(0.25).epsilon(1e-15));
  CHECK(A.val[4] == doctest::Approx(0.75).epsilon(1e-15));
  CHECK(A.k == 2);
  CHECK(A.max_col_count == 2);  // column 0 in rows 0 and 2; column 2 in rows 0 and 2
  CHECK(A.in_class);
}

TEST_CASE("custom pattern with a column used by more than k rows is outside the class") {
  // Every row uses column 0 (a global token), k = 2 but column 0 has 4 entries.
  std::vector<attnx::Triplet> t = {{0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {2, 0, 1}, {2, 2, 1}, {3, 0, 1}, {3, 3, 1}};
  Pattern A = attnx::pattern_from_triplets(4, t);
  th::check_pattern_invariants(A);
  CHECK(A.k == 2);
  CHECK(A.max_col_count == 4);
  CHECK_FALSE(A.in_class);
}

TEST_CASE("custom pattern from a dense matrix equals the triplet form") {
  std::vector<double> dense = {0, 1, 3,  //
                               2, 0, 0,  //
                               0.5, 0.5, 1};
  Pattern A = attnx::pattern_from_dense(3, dense);
  th::check_pattern_invariants(A);
  Pattern B = attnx::pattern_from_triplets(
      3, {{0, 1, 1}, {0, 2, 3}, {1, 0, 2}, {2, 0, 0.5}, {2, 1, 0.5}, {2, 2, 1}});
  CHECK(A.row_ptr == B.row_ptr);
  CHECK(A.col == B.col);
  CHECK(A.val == B.val);
  CHECK(A.val[0] == doctest::Approx(0.25));
  CHECK(A.val[2] == 1.0);
  CHECK(A.val[5] == doctest::Approx(0.5));
}

TEST_CASE("custom triplets: duplicates, out-of-range, negative, non-finite weights and empty rows are refused naming the entry or row") {
  using T = std::vector<attnx::Triplet>;
  auto msg = [](int L, const T& t) {
    auto e = th::invalid([&] { attnx::pattern_from_triplets(L, t); });
    return std::string(e.what());
  };
  // Duplicate: entry 3 repeats entry 1.
  std::string m = msg(2, {{0, 0, 1}, {0, 1, 1}, {1, 1, 1}, {0, 1, 2}});
  CHECK(th::contains(m, "entry 3"));
  CHECK(th::contains(m, "entry 1"));
  // Row index out of range.
  m = msg(3, {{0, 0, 1}, {1, 1, 1}, {3, 1, 1}, {2, 2, 1}});
  CHECK(th::contains(m, "entry 2"));
  CHECK(th::contains(m, "0 to 2"));
  m = msg(3, {{0, 0, 1}, {-1, 1, 1}, {1, 1, 1}, {2, 2, 1}});
  CHECK(th::contains(m, "entry 1"));
  // Column index out of range.
  m = msg(3, {{0, 0, 1}, {1, 1, 1}, {2, 2, 1}, {2, 7, 1}});
  CHECK(th::contains(m, "entry 3"));
  CHECK(th::contains(m, "7"));
  // Negative and non-finite weights.
  m = msg(2, {{0, 0, 1}, {1, 1, -0.5}});
  CHECK(th::contains(m, "entry 1"));
  CHECK(th::contains(m, "-0.5"));
  m = msg(2, {{0, 0, std::numeric_limits<double>::quiet_NaN()}, {1, 1, 1}});
  CHECK(th::contains(m, "entry 0"));
  m = msg(2, {{0, 0, 1}, {1, 1, std::numeric_limits<double>::infinity()}});
  CHECK(th::contains(m, "entry 1"));
  // Empty row (row 2 only has a zero weight).
  m = msg(4, {{0, 0, 1}, {1, 1, 1}, {2, 2, 0.0}, {3, 3, 1}});
  CHECK(th::contains(m, "row 2"));
  m = msg(3, {{0, 0, 1}, {2, 2, 1}});
  CHECK(th::contains(m, "row 1"));
  // L itself is validated.
  auto e = th::invalid([] { attnx::pattern_from_triplets(1, {{0, 0, 1}}); });
  CHECK(e.field() == "L");
  CHECK(th::contains(e.what(), "2 to 16384"));
}

TEST_CASE("custom dense matrix: bad values are refused naming their position in the matrix") {
  // L = 3, the negative value sits at row 1, column 2 (flat index 5). Nonzeros before it:
  // (0,0) and (1,1), so a message that counts nonzeros would say "entry 2" instead.
  std::vector<double> dense = {1, 0, 0,  //
                               0, 1, -2,  //
                               0, 0, 1};
  auto e = th::invalid([&] { attnx::pattern_from_dense(3, dense); });
  std::string m = e.what();
  CAPTURE(m);
  bool names_position = th::contains(m, "(1, 2)") || th::contains(m, "entry 5") ||
                        (th::contains(m, "row 1") && th::contains(m, "column 2"));
  CHECK(names_position);
  // NaN at row 2, column 0 (flat index 6).
  dense = {1, 0, 0, 0, 1, 0, std::numeric_limits<double>::quiet_NaN(), 0, 1};
  e = th::invalid([&] { attnx::pattern_from_dense(3, dense); });
  m = e.what();
  CAPTURE(m);
  names_position = th::contains(m, "(2, 0)") || th::contains(m, "entry 6") ||
                   (th::contains(m, "row 2") && th::contains(m, "column 0"));
  CHECK(names_position);
  // Empty row.
  dense = {1, 0, 0, 0, 0, 0, 0, 0, 1};
  e = th::invalid([&] { attnx::pattern_from_dense(3, dense); });
  CHECK(th::contains(e.what(), "row 1"));
  // Wrong size.
  e = th::invalid([&] { attnx::pattern_from_dense(3, std::vector<double>(8, 1.0)); });
  CHECK(th::contains(e.what(), "9"));
}

TEST_CASE("compute_stats derives k, max_col_count and the class flag from the structure") {
  Pattern p;
  p.L = 3;
  p.row_ptr = {0, 1, 2, 3};
  p.col = {0, 0, 0};
  p.val = {1, 1, 1};
  attnx::compute_stats(p);
  CHECK(p.k == 1);
  CHECK(p.max_col_count == 3);
  CHECK_FALSE(p.in_class);
  p.col = {2, 0, 1};
  attnx::compute_stats(p);
  CHECK(p.k == 1);
  CHECK(p.max_col_count == 1);
  CHECK(p.in_class);
}

TEST_CASE("family and weight names round-trip and unknown names are refused") {
  for (Family f : {Family::Random, Family::Permutation, Family::Window, Family::Causal, Family::Dilated,
                   Family::Block, Family::Strided, Family::BigBird, Family::Custom})
    CHECK(attnx::parse_family(attnx::family_name(f)) == f);
  for (Weights w : {Weights::Uniform, Weights::Random, Weights::Decaying})
    CHECK(attnx::parse_weights(attnx::weights_name(w)) == w);
  auto e = th::invalid([] { attnx::parse_family("sparse"); });
  CHECK(e.field() == "pattern");
  CHECK(th::contains(e.what(), "sparse"));
  e = th::invalid([] { attnx::parse_weights("heavy"); });
  CHECK(e.field() == "weights");
  // The self-description lists every family once and names only parsable families.
  auto fams = attnx::pattern_families();
  std::set<std::string> names;
  for (auto& f : fams) {
    names.insert(f.name);
    CHECK_NOTHROW(attnx::parse_family(f.name));
  }
  CHECK(names.size() == 9);
  CHECK(fams.size() == 9);
}

TEST_CASE("every family's default parameters from pattern_families() generate a valid pattern") {
  for (auto& f : attnx::pattern_families()) {
    if (!f.scales_with_L) continue;
    CAPTURE(f.name);
    PatternSpec s = spec(attnx::parse_family(f.name), 64);
    for (auto& p : f.params) {
      if (p.name == "k") s.k = (int)p.def;
      if (p.name == "w") s.w = (int)p.def;
      if (p.name == "r") s.r = (int)p.def;
      if (p.name == "block") s.block = (int)p.def;
      if (p.name == "stride") s.stride = (int)p.def;
      if (p.name == "globals") s.globals = (int)p.def;
      if (p.name == "randoms") s.randoms = (int)p.def;
    }
    Pattern A = gen(s);
    th::check_pattern_invariants(A);
    // A family described as inside the class yields in_class patterns.
    if (f.in_class) CHECK(A.in_class);
  }
}
