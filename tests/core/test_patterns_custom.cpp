// Custom patterns from triplets and dense matrices (normalising, class flag, refusals naming
// the entry), compute_stats, and the family/weight names and self-description (SPEC §1, §7).
// The generated families and weight schemes are in test_patterns.cpp.
#include <doctest/doctest.h>

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
