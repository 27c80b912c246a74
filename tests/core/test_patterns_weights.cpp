// Custom weights at the ends of the double range: rows are normalised without overflow or
// silent loss (issue: 1e308 + 1e308 gave a row of zeros; 1e-300 next to 1e300 vanished).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/errors.hpp>
#include <attnx/memory.hpp>
#include <attnx/pattern.hpp>
#include <attnx/pattern_io.hpp>
#include "requests.hpp"

TEST_CASE("two weights of 1e308 in a row become 1/2 each (no overflow in the row sum)") {
  const attnx::Pattern p = attnx::pattern_from_triplets(2, {{0, 0, 1e308}, {0, 1, 1e308}, {1, 1, 1}});
  REQUIRE(p.val.size() == 3);
  CHECK(p.val[0] == 0.5);
  CHECK(p.val[1] == 0.5);
  CHECK(p.val[2] == 1.0);
  // The same through the text parser the CLI and the explorer share.
  const attnx::Pattern q =
      attnx::parse_pattern_text("{\"L\":2,\"triplets\":[[0,0,1e308],[0,1,1e308],[1,1,1]]}", -1);
  CHECK(q.val == p.val);
  // And the construction on it is finite and fails or succeeds like any other 2-token pattern.
  const auto c = attnx::construct(p, th::jl(attnx::Tolerances{}, 64, 1, attnx::kDefaultMaxBytes));
  CHECK(std::isfinite(c.metrics.rho));
  CHECK(std::isfinite(c.metrics.beta));
}

TEST_CASE("a weight whose share underflows to 0 is refused, naming its entry and the row") {
  try {
    attnx::pattern_from_triplets(2, {{0, 0, 1e300}, {0, 1, 1e-300}, {1, 1, 1}});
    FAIL("accepted");
  } catch (const attnx::InvalidArgument& e) {
    const std::string m = e.what();
    CHECK(e.field() == "triplets");
    CHECK(m.find("entry 1: weight 1e-300 is too small next to the largest weight of row 0") == 0);
  }
}

TEST_CASE("the smallest subnormal weight alone in a row is a row of 1, with finite beta and d*") {
  const attnx::Pattern p = attnx::pattern_from_triplets(2, {{0, 1, 5e-324}, {1, 0, 1}});
  CHECK(p.val[0] == 1.0);
  const attnx::Tolerances tol;
  const auto B = attnx::log_target(p, tol);
  const double beta = attnx::beta_of(p, B);
  CHECK(std::isfinite(beta));
  CHECK(std::isfinite(attnx::d_star(beta, p.L, tol)));
}

TEST_CASE("ordinary weights keep their ratios exactly as before: 1, 2, 3 -> 1/6, 2/6, 3/6") {
  const attnx::Pattern p = attnx::pattern_from_triplets(2, {{0, 0, 1}, {0, 1, 2}, {1, 0, 3}, {1, 1, 3}});
  CHECK(p.val[0] == doctest::Approx(1.0 / 3));
  CHECK(p.val[1] == doctest::Approx(2.0 / 3));
  CHECK(p.val[2] == 0.5);
  CHECK(p.val[3] == 0.5);
}
