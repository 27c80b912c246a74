// The `moment` construction of SPEC §8.3 and the precision report of §8.4: D = 2m at every L;
// in double the logits are exact on the support (rho ~ 0) and (Z) holds with margin; the float32
// rounding of X breaks it as L grows (the lesson); bits(X) grows with L.
#include <doctest/doctest.h>

#include <cmath>

#include <attnx/construct_lp.hpp>
#include <attnx/construct_moment.hpp>
#include <attnx/pattern.hpp>
#include <attnx/rng.hpp>

#include "helpers.hpp"
#include "requests.hpp"

using namespace attnx;

using th::random_pattern;

TEST_CASE("round_to_bits: nearest with b significand bits, ties to even") {
  CHECK(round_to_bits(1.0, 2) == 1.0);
  CHECK(round_to_bits(1.25, 2) == 1.0);    // 1.01b -> 1.0b (tie to even)
  CHECK(round_to_bits(1.75, 2) == 2.0);    // 1.11b -> 10.0b
  CHECK(round_to_bits(1.5, 2) == 1.5);
  CHECK(round_to_bits(-3.3, 53) == -3.3);
  CHECK(round_to_bits(0.1, 24) == double(0.1f));
  CHECK(round_to_bits(0.0, 5) == 0.0);
}

TEST_CASE("moment: D = 2m at every L — double logits exact on the support, (Z) with margin") {
  for (int L : {16, 64}) {
    const Pattern A = random_pattern(L, 2, 1);
    Tolerances tol;
    int D = 0;
    std::vector<double> lambda;
    const std::vector<double> X = moment_inputs(A, tol, &D, &lambda);
    REQUIRE(D == 4);
    // Z_ij = Q_i K_j / sqrt(D) in double: on the support Z_is - ln A_is is one constant per row.
    const std::size_t w = 2 * D;
    for (int i = 0; i < L; ++i) {
      auto z = [&](int j) {
        double s = 0;
        for (int t = 0; t < D; ++t) s += X[i * w + t] * X[j * w + D + t];
        return s / std::sqrt(double(D));
      };
      const int e0 = A.row_begin(i);
      const double base = z(A.col[e0]) - std::log(A.val[e0]);
      double zmin = 1e300;
      for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
        CHECK(z(A.col[e]) - std::log(A.val[e]) == doctest::Approx(base).epsilon(1e-6).scale(1));
        zmin = std::min(zmin, z(A.col[e]));
      }
      for (int j = 0, e = A.row_begin(i); j < L; ++j) {
        if (e < A.row_end(i) && A.col[e] == j) { ++e; continue; }
        CHECK(z(j) <= zmin + std::log(tol.tau) + 1e-6);
      }
      CHECK(lambda[i] >= 0);
    }
  }
}

TEST_CASE("moment: succeeds in double — float32 fails as L grows and bits(X) grows with L") {
  Tolerances tol;
  const MomentConstruction small = construct_moment(random_pattern(16, 2, 1), tol);
  CHECK(small.precision.fp64);
  CHECK(small.c.d == 4);
  const MomentConstruction large = construct_moment(random_pattern(256, 2, 1), tol);
  CHECK(large.precision.fp64);
  CHECK_FALSE(large.precision.fp32);       // SPEC §8.3: float32 fails from L ~ 32
  CHECK_FALSE(large.c.metrics.success);    // the float32 X shown by default fails too
  CHECK(large.precision.bits > small.precision.bits);
  CHECK(large.precision.bits > 24);
  CHECK(large.precision.input_norm > small.precision.input_norm);
}

TEST_CASE("precision report: lp needs few bits — its fp64 verdict is its success") {
  Tolerances tol;
  const Pattern A = random_pattern(64, 2, 2);
  const LpConstruction r = construct_lp(A, th::build("lp", tol, 24, 2), {});
  CHECK(r.c.metrics.success);
  CHECK(r.precision.fp64);
  CHECK(r.precision.fp32);
  CHECK(r.precision.bits >= 2);
  CHECK(r.precision.bits < 24);
}
