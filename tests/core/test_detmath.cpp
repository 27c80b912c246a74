// detmath: deterministic log/exp agree with the C library to a few ulp.
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <limits>

#include <attnx/detmath.hpp>
#include "helpers.hpp"

using th::ulp_distance;

TEST_CASE("det_log(1) is exactly 0 and det_exp(0) is exactly 1") {
  CHECK(attnx::det_log(1.0) == 0.0);
  CHECK(attnx::det_exp(0.0) == 1.0);
  CHECK(attnx::det_exp(-0.0) == 1.0);
}

TEST_CASE("det_log agrees with std::log within 4 ulp over subnormal to huge arguments") {
  std::uint64_t worst = 0;
  double worst_x = 0;
  auto probe = [&](double x) {
    double a = attnx::det_log(x), b = std::log(x);
    if (b == 0.0) {
      REQUIRE(a == 0.0);
      return;
    }
    REQUIRE(std::signbit(a) == std::signbit(b));
    std::uint64_t u = ulp_distance(a, b);
    if (u > worst) { worst = u; worst_x = x; }
  };
  // Log-uniform sweep across the whole positive range including subnormals.
  for (int i = 0; i <= 200000; ++i) {
    double e = -1074.0 + (1023.0 + 1074.0) * i / 200000.0;
    probe(std::exp2(e) * (1.0 + 0.37 * ((i * 7919) % 1000) / 1000.0 * 0.999));
  }
  // Dense around 1 where log is tiny (relative accuracy matters).
  for (int i = 1; i <= 20000; ++i) {
    double h = std::ldexp(1.0, -(i % 52) - 1) * (1 + (i % 13) / 13.0);
    probe(1.0 + h);
    probe(1.0 - h / 2);
  }
  probe(std::numeric_limits<double>::denorm_min());
  probe(DBL_MIN);
  probe(DBL_MAX);
  probe(std::nextafter(1.0, 2.0));
  probe(std::nextafter(1.0, 0.0));
  probe(0.5);
  probe(2.0);
  probe(M_E);
  CAPTURE(worst_x);
  CHECK(worst <= 4);
}

TEST_CASE("det_exp agrees with std::exp within 4 ulp from underflow to overflow") {
  std::uint64_t worst = 0;
  double worst_x = 0;
  auto probe = [&](double x) {
    double a = attnx::det_exp(x), b = std::exp(x);
    REQUIRE(a >= 0.0);
    std::uint64_t u = ulp_distance(a, b);
    if (u > worst) { worst = u; worst_x = x; }
  };
  for (int i = 0; i <= 200000; ++i) probe(-745.0 + (709.7 + 745.0) * i / 200000.0);
  for (int i = 1; i <= 20000; ++i) {
    double h = std::ldexp(1.0, -(i % 60)) * (1 + (i % 11) / 11.0);
    probe(h);
    probe(-h);
  }
  probe(1.0);
  probe(-1.0);
  probe(709.78);
  probe(-708.0);   // just above the normal range
  probe(-740.0);   // subnormal result
  probe(std::log(0.1));
  CAPTURE(worst_x);
  CHECK(worst <= 4);
}

TEST_CASE("det_exp underflows to 0 and overflows to +inf at the documented limits") {
  CHECK(attnx::det_exp(-800.0) == 0.0);
  CHECK(attnx::det_exp(-1e6) == 0.0);
  CHECK(std::isinf(attnx::det_exp(710.0)));
  CHECK(attnx::det_exp(710.0) > 0);
  CHECK(std::isinf(attnx::det_exp(1e6)));
  CHECK(std::isfinite(attnx::det_exp(709.0)));
}

TEST_CASE("det_exp and det_log are inverse to rounding") {
  for (double x = -50; x <= 50; x += 0.173) {
    double r = attnx::det_log(attnx::det_exp(x));
    CHECK(std::fabs(r - x) <= 4e-16 * std::max(1.0, std::fabs(x)) + 1e-15);
  }
}

TEST_CASE("below_det_exp and below_det_exp_near answer y < det_exp(x) for y far from, near and at det_exp(x)") {
  std::uint64_t s = 12345;
  auto uniform = [&] {  // splitmix64 -> [0, 1)
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return double((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
  };
  auto probe = [&](double y, double x) {
    REQUIRE(attnx::below_det_exp(y, x) == (y < attnx::det_exp(x)));
    if (std::fabs(x) <= 700.0)  // exp_near's range: the answer from an e computed before
      REQUIRE(attnx::below_det_exp_near(y, x, attnx::exp_near(x)) == (y < attnx::det_exp(x)));
  };
  for (int n = 0; n < 200000; ++n) {
    // The ziggurat's range (x = -v^2/2, v up to 3.66) and beyond, to both ends of det_exp.
    const double x = n % 4 == 3 ? -745.0 + 1455.0 * uniform() : -7.0 * uniform();
    const double e = attnx::det_exp(x);
    probe(e * uniform() * 2.0, x);  // anywhere in [0, 2e)
    probe(e * (1.0 + (2.0 * uniform() - 1.0) * 1e-12), x);  // inside the band det_exp decides
    probe(e * (1.0 + (2.0 * uniform() - 1.0) * 1e-10), x);  // just outside it
    probe(e, x);
    probe(std::nextafter(e, 0.0), x);
    probe(std::nextafter(e, 2.0 * e + 1.0), x);
  }
  probe(-1.0, 0.0);
  probe(0.0, -800.0);
  probe(1.0, 800.0);
  probe(std::numeric_limits<double>::infinity(), 1.0);
  probe(std::numeric_limits<double>::quiet_NaN(), 1.0);
  probe(0.5, std::numeric_limits<double>::quiet_NaN());
}
