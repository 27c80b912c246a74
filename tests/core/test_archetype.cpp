// Archetypes of a dense head (issue 24): self, previous token, sink, local window and none on
// hand-made heads, each share worked out by hand from the rules in archetype.hpp.
#include <doctest/doctest.h>

#include <functional>
#include <vector>

#include "helpers.hpp"
#include <attnx/head_import.hpp>

namespace {

// The head whose row i is w(i, j) normalised, described under topk:1.
attnx::HeadDescription describe(int L, const std::function<double(int, int)>& w) {
  std::vector<float> v(static_cast<std::size_t>(L) * L);
  for (int i = 0; i < L; ++i) {
    double sum = 0;
    for (int j = 0; j < L; ++j) sum += w(i, j);
    for (int j = 0; j < L; ++j) v[std::size_t(i) * L + j] = float(w(i, j) / sum);
  }
  attnx::HeadOptions opt;
  opt.rule = attnx::parse_rule("topk:1");
  return attnx::import_head(v.data(), L, opt).description;
}

}  // namespace

TEST_CASE("the identity is 'self': one entry per row beats the window that also holds it") {
  const auto d = describe(16, [](int i, int j) { return i == j ? 1.0 : 0.0; });
  CHECK(d.archetype.kind == "diagonal");
  CHECK(d.archetype.offset == 0);
  CHECK(d.archetype.share == 1.0);
  CHECK(d.archetype.code == "diagonal:0");
  CHECK(d.archetype.label == "self (diagonal, offset 0)");
  CHECK(d.candidates[2].kind == "window");
  CHECK(d.candidates[2].matches);  // [-1, 0] holds it too, with 2 entries per row
}

TEST_CASE("a previous-token head is the diagonal at offset -1, its share (L-1)/L") {
  // Row 0 has no previous token: it attends to itself.
  const auto d = describe(16, [](int i, int j) { return j == (i == 0 ? 0 : i - 1) ? 1.0 : 0.0; });
  CHECK(d.archetype.code == "diagonal:-1");
  CHECK(d.archetype.label == "previous token (diagonal, offset -1)");
  CHECK(d.archetype.share == 15.0 / 16);
}

TEST_CASE("a head on column 0 is a sink with share 1 — two columns need two") {
  const auto one = describe(16, [](int, int j) { return j == 0 ? 1.0 : 0.0; });
  CHECK(one.archetype.kind == "sink");
  CHECK(one.archetype.columns == std::vector<int>{0});
  CHECK(one.archetype.share == 1.0);
  CHECK(one.archetype.label == "sink (column 0)");
  CHECK(one.max_col_count == 16);
  CHECK(one.columns_over_k == 1);
  // L = 64: 0.3 on column 0, 0.3 on column 5, 0.4 on the diagonal (rows 0 and 5 add theirs).
  const auto two = describe(64, [](int i, int j) { return (j == 0) * 0.3 + (j == 5) * 0.3 + (j == i) * 0.4; });
  // Column 0 receives 0.3 * 64 + 0.4 (row 0) = 19.6; column 5 the same: each 19.6 / 64 = 0.30625
  // < 0.5, both together 0.6125; the diagonal holds 0.4 (rows 0 and 5: 0.7) = (62 * 0.4 + 1.4) / 64.
  CHECK(two.archetype.kind == "sink");
  CHECK(two.archetype.columns == std::vector<int>{0, 5});
  CHECK(two.archetype.code == "sink:0+5");
  CHECK(two.archetype.share == doctest::Approx(39.2 / 64).epsilon(1e-6));
  CHECK(two.candidates[0].share == doctest::Approx((62 * 0.4 + 1.4) / 64).epsilon(1e-6));
}

TEST_CASE("a uniform band |i - j| <= 2 is a local window of width 3 at offsets -1..1") {
  // L = 64: interior rows hold 1/5 on each of 5 offsets. Bands of width 2 hold 0.4 inside: too
  // little. Width 3: [-2..0] and [0..2] hold 36 + 1/3 + 1 + 2/4 + 3/4 = 38.5833 in all (rows 0,
  // 1, 62, 63 by hand), [-1..1] holds 36 + 2/3 + 2/3 + 3/4 + 3/4 = 38.8333: the best.
  const auto d = describe(64, [](int i, int j) { return std::abs(i - j) <= 2 ? 1.0 : 0.0; });
  CHECK(d.archetype.kind == "window");
  CHECK(d.archetype.offset_lo == -1);
  CHECK(d.archetype.offset_hi == 1);
  CHECK(d.archetype.cells == 3);
  CHECK(d.archetype.share == doctest::Approx((36 + 4.0 / 3 + 1.5) / 64).epsilon(1e-6));
  CHECK(d.archetype.label == "local window (offsets -1..1, width 3)");
  // The diagonal candidate: offset 0 holds 12 + 1/3 + 1/4 + 1/4 + 1/3 (rows 0, 1, 62, 63).
  CHECK(d.candidates[0].offset == 0);
  CHECK(d.candidates[0].share == doctest::Approx((12 + 2.0 / 3 + 0.5) / 64).epsilon(1e-6));
}

TEST_CASE("uniform attention is 'none', its share the closest candidate's") {
  // L = 64: the widest band is 8. A band of offsets [a, a + 7] holds sum (64 - |o|) / 64^2:
  // [-4..3] and [-3..4] both 496 / 4096 (the tie goes to the band reaching further back).
  const auto d = describe(64, [](int, int) { return 1.0; });
  CHECK(d.archetype.kind == "none");
  CHECK(!d.archetype.matches);
  CHECK(d.candidates[2].offset_lo == -4);
  CHECK(d.candidates[2].share == doctest::Approx(496.0 / 4096).epsilon(1e-6));
  CHECK(d.candidates[1].columns.size() == 4);  // min(4, 64 / 8) columns, each 1/64
  CHECK(d.candidates[1].share == doctest::Approx(4.0 / 64).epsilon(1e-6));
  CHECK(d.archetype.share == d.candidates[2].share);
}

TEST_CASE("among matching candidates the fewest entries per row wins, then the larger share") {
  // Hand-made sums for L = 16: the diagonal at offset -1 holds 0.6, the sink column 3 holds 0.7.
  std::vector<double> offsets(31, 0.0), columns(16, 0.0);
  offsets[-1 + 15] = 0.6 * 16;
  offsets[0 + 15] = 0.4 * 16;
  columns[3] = 0.7 * 16;
  const auto c = attnx::archetype_candidates(offsets, columns, 16, 16);
  CHECK(c[0].share == doctest::Approx(0.6));
  CHECK(c[1].share == doctest::Approx(0.7));
  CHECK(c[2].share == doctest::Approx(1.0));
  CHECK(attnx::choose_archetype(c).kind == "sink");  // both one entry per row: the larger share
}
