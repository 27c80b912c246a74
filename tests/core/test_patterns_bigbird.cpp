// BigBird's random columns: the membership mark draws exactly what a plain rejection loop draws
// (links keep their meaning), and dense requests no longer cost O(L^3).
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include <attnx/pattern.hpp>
#include <attnx/rng.hpp>

namespace {

// The reference: window, globals, then rejection with a linear scan of the row, from the same
// generator, exactly as the pattern was defined before the mark.
std::vector<std::vector<int>> reference_rows(int L, int w, int globals, int randoms, attnx::Rng& rng) {
  std::vector<std::vector<int>> rows(L);
  auto has = [](const std::vector<int>& r, int j) { return std::find(r.begin(), r.end(), j) != r.end(); };
  for (int i = 0; i < L; ++i) {
    auto& r = rows[i];
    for (int j = std::max(0, i - w); j <= std::min(L - 1, i + w); ++j) r.push_back(j);
    for (int g = 0; g < globals; ++g)
      if (!has(r, g)) r.push_back(g);
    const int want = std::min<int>(randoms, L - static_cast<int>(r.size()));
    for (int added = 0; added < want;) {
      const int j = static_cast<int>(rng.below(L));
      if (!has(r, j)) { r.push_back(j); ++added; }
    }
    std::sort(r.begin(), r.end());
  }
  return rows;
}

}  // namespace

TEST_CASE("bigbird random columns are the draws of a plain rejection loop, for every density") {
  struct Case { int L, w, globals, randoms; };
  for (const Case c : {Case{50, 1, 1, 1}, Case{97, 2, 3, 5}, Case{64, 0, 0, 63}, Case{40, 3, 40, 39}}) {
    for (std::uint64_t seed : {1ull, 7ull}) {
      attnx::PatternSpec s;
      s.family = attnx::Family::BigBird;
      s.L = c.L, s.w = c.w, s.globals = c.globals, s.randoms = c.randoms;
      attnx::Rng a(seed), b(seed);
      const attnx::Pattern p = attnx::make_pattern(s, a);
      const auto ref = reference_rows(c.L, c.w, c.globals, c.randoms, b);
      for (int i = 0; i < c.L; ++i) {
        const std::vector<int> got(p.col.begin() + p.row_begin(i), p.col.begin() + p.row_end(i));
        REQUIRE(got == ref[i]);
      }
    }
  }
}

TEST_CASE("a dense bigbird request (every other column random) is drawn, full rows and all") {
  attnx::PatternSpec s;
  s.family = attnx::Family::BigBird;
  s.L = 2048, s.w = 0, s.globals = 0, s.randoms = 2047;
  attnx::Rng rng(3);
  const attnx::Pattern p = attnx::make_pattern(s, rng);
  CHECK(p.nnz() == 2048 * 2048);
  CHECK(p.k == 2048);
}
