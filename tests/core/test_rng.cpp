// RNG (SPEC §6): the project's own SplitMix64 + xoshiro256** generator.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <utility>
#include <vector>

#include "helpers.hpp"
#include <attnx/rng.hpp>

namespace {

// Independent reference implementations written from the published algorithms
// (Vigna: splitmix64.c and xoshiro256starstar.c).
std::uint64_t ref_splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

struct RefXoshiro {
  std::uint64_t s[4];
  explicit RefXoshiro(std::uint64_t seed) {
    std::uint64_t sm = seed;
    for (auto& v : s) v = ref_splitmix64(sm);
  }
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s[1] * 5, 7) * 9;
    const std::uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }
};

}  // namespace

TEST_CASE("reference splitmix64 reproduces the published test vector") {
  // Sanity of the reference itself: known outputs for seed 1234567 and for seed 0.
  std::uint64_t x = 1234567;
  CHECK(ref_splitmix64(x) == 6457827717110365317ull);
  CHECK(ref_splitmix64(x) == 3203168211198807973ull);
  CHECK(ref_splitmix64(x) == 9817491932198370423ull);
  CHECK(ref_splitmix64(x) == 4593380528125082431ull);
  CHECK(ref_splitmix64(x) == 16408922859458223821ull);
  std::uint64_t z = 0;
  CHECK(ref_splitmix64(z) == 0xe220a8397b1dcdafull);
}

TEST_CASE("attnx::splitmix64 matches the reference and advances its state") {
  std::uint64_t a = 1234567, b = 1234567;
  for (int i = 0; i < 100; ++i) {
    std::uint64_t va = attnx::splitmix64(a);
    std::uint64_t vb = ref_splitmix64(b);
    REQUIRE(va == vb);
    REQUIRE(a == b);
  }
}

TEST_CASE("Rng(1).next() equals an independent xoshiro256-starstar seeded by splitmix64 for 1000 outputs") {
  for (std::uint64_t seed : {1ull, 0ull, 42ull, 0xdeadbeefcafef00dull}) {
    CAPTURE(seed);
    attnx::Rng r(seed);
    RefXoshiro ref(seed);
    int mismatches = 0;
    for (int i = 0; i < 1000; ++i)
      if (r.next() != ref.next()) ++mismatches;
    CHECK(mismatches == 0);
  }
}

TEST_CASE("same seed gives the same stream for next, uniform, below and normal") {
  attnx::Rng a(777), b(777);
  for (int i = 0; i < 2000; ++i) {
    REQUIRE(a.next() == b.next());
    REQUIRE(a.uniform() == b.uniform());
    REQUIRE(a.below(1000) == b.below(1000));
    double na = a.normal(), nb = b.normal();
    REQUIRE(std::memcmp(&na, &nb, sizeof na) == 0);
  }
}

TEST_CASE("different seeds give different streams") {
  std::set<std::uint64_t> firsts;
  for (std::uint64_t s = 0; s < 256; ++s) {
    attnx::Rng r(s);
    firsts.insert(r.next());
  }
  CHECK(firsts.size() == 256);
  attnx::Rng a(1), b(2);
  int equal = 0;
  for (int i = 0; i < 1000; ++i) equal += (a.next() == b.next());
  CHECK(equal == 0);
}

TEST_CASE("uniform() lies in 0 <= u < 1 with mean 1/2 and variance 1/12") {
  attnx::Rng r(5);
  const int n = 200000;
  double s = 0, s2 = 0, lo = 1, hi = 0;
  for (int i = 0; i < n; ++i) {
    double u = r.uniform();
    REQUIRE(u >= 0.0);
    REQUIRE(u < 1.0);
    lo = std::min(lo, u);
    hi = std::max(hi, u);
    s += u;
    s2 += u * u;
  }
  double mean = s / n, var = s2 / n - mean * mean;
  CHECK(mean == doctest::Approx(0.5).epsilon(0.01));
  CHECK(var == doctest::Approx(1.0 / 12).epsilon(0.01));
  CHECK(lo < 1e-4);
  CHECK(hi > 1 - 1e-4);
}

TEST_CASE("uniform() uses 53 random bits (values are multiples of 2^-53, low bits vary)") {
  attnx::Rng r(9);
  int odd = 0;
  for (int i = 0; i < 1000; ++i) {
    double u = r.uniform();
    double scaled = std::ldexp(u, 53);
    REQUIRE(scaled == std::floor(scaled));
    odd += (static_cast<std::uint64_t>(scaled) & 1u) ? 1 : 0;
  }
  // With 53 random bits the lowest bit is set about half the time.
  CHECK(odd > 400);
  CHECK(odd < 600);
}

TEST_CASE("below(n) stays below n and is uniform (chi-square)") {
  attnx::Rng r(11);
  for (int i = 0; i < 1000; ++i) REQUIRE(r.below(1) == 0u);
  for (std::uint64_t n : {2ull, 3ull, 7ull, 10ull, 100ull}) {
    CAPTURE(n);
    const int draws = 100000;
    std::vector<long> cnt(n, 0);
    for (int i = 0; i < draws; ++i) {
      std::uint64_t v = r.below(n);
      REQUIRE(v < n);
      ++cnt[v];
    }
    double expct = double(draws) / n, chi2 = 0;
    for (long c : cnt) chi2 += (c - expct) * (c - expct) / expct;
    // dof = n-1; mean n-1, sd sqrt(2(n-1)): allow about 5 sd.
    double dof = double(n - 1);
    CHECK(chi2 < dof + 5 * std::sqrt(2 * dof) + 5);
  }
  // Huge n (rejection must still terminate and stay in range).
  std::uint64_t big = (1ull << 63) + 12345;
  int upper_half = 0;
  for (int i = 0; i < 10000; ++i) {
    std::uint64_t v = r.below(big);
    REQUIRE(v < big);
    upper_half += (v >= big / 2);
  }
  CHECK(upper_half > 4700);
  CHECK(upper_half < 5300);
}

TEST_CASE("normal() has mean 0, variance 1, no skew and kurtosis 3 over 200k draws") {
  attnx::Rng r(2024);
  const int n = 200000;
  double s = 0, s2 = 0, s3 = 0, s4 = 0;
  int beyond3 = 0;
  for (int i = 0; i < n; ++i) {
    double x = r.normal();
    REQUIRE(std::isfinite(x));
    s += x;
    s2 += x * x;
    s3 += x * x * x;
    s4 += x * x * x * x;
    beyond3 += (std::fabs(x) > 3);
  }
  double mean = s / n, var = s2 / n - mean * mean;
  CHECK(std::fabs(mean) < 0.01);
  CHECK(std::fabs(var - 1) < 0.01);
  CHECK(std::fabs(s3 / n) < 0.05);
  CHECK(std::fabs(s4 / n - 3) < 0.06);
  // P(|x|>3) = 0.0027 -> 540 expected.
  CHECK(beyond3 > 400);
  CHECK(beyond3 < 700);
}

TEST_CASE("derive_seed gives distinct seeds for distinct (master, a, b)") {
  std::set<std::uint64_t> seen;
  int n = 0;
  for (std::uint64_t m = 0; m < 16; ++m)
    for (std::uint64_t a = 0; a < 16; ++a)
      for (std::uint64_t b = 0; b < 16; ++b) {
        seen.insert(attnx::derive_seed(m, a, b));
        ++n;
      }
  CHECK(seen.size() == static_cast<size_t>(n));
  // Argument order matters and it is a pure function.
  CHECK(attnx::derive_seed(1, 2, 3) != attnx::derive_seed(1, 3, 2));
  CHECK(attnx::derive_seed(1, 2, 3) != attnx::derive_seed(2, 1, 3));
  CHECK(attnx::derive_seed(1, 2, 3) == attnx::derive_seed(1, 2, 3));
  // The two stream tags give different seeds.
  CHECK(attnx::derive_seed(7, attnx::kPatternStream, 0) !=
        attnx::derive_seed(7, attnx::kProjectionStream, 0));
}

TEST_CASE("normal() follows the standard normal CDF, including the tails beyond 3.65") {
  attnx::Rng r(31337);
  std::vector<double> x(1500000);
  for (auto& v : x) v = r.normal();
  th::check_standard_normal(x);
}

TEST_CASE("the normal streams are the ones published links were computed with") {
  // FNV-1a over the bits of 2^20 floats from fill_normal and the sum of 4096 doubles from
  // normal() after them, recorded before the wedge test took its cheaper comparison
  // (below_det_exp): about 15,000 of these draws go through the wedge or the tail.
  std::vector<float> v(1 << 20);
  attnx::Rng r(7);
  r.fill_normal(v.data(), v.size());
  std::uint64_t h = 1469598103934665603ull;
  for (float f : v) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    h = (h ^ u) * 1099511628211ull;
  }
  double sum = 0;
  for (int i = 0; i < 4096; ++i) sum += r.normal();
  CHECK(h == 0xd922577f86723cfeull);
  CHECK(sum == -29.057626603653659);
}

TEST_CASE("fill_normal of lengths that leave one to three words past the four-lane fast path gives the stream recorded before it had one") {
  // FNV-1a (byte-wise) over the floats of fill_normal(n) from Rng(20261207 + n), recorded with
  // the scalar-only fast path: short blocks, and blocks of 512 with a rest of 1 or 3 words.
  const std::pair<int, std::uint64_t> golden[] = {
      {1, 0x25c49f3d44ca483eull},   {2, 0x00fbfbabdf6a506dull},    {3, 0xd9e2f5d54d2d21e8ull},
      {5, 0x375888ab2cf0185bull},   {7, 0xb814c162d42ff4c3ull},    {513, 0x6df08250bc19cdd2ull},
      {1027, 0xc5c1fbaf2e81e104ull}, {4099, 0x0042842203a3c1b0ull}};
  for (const auto& [n, want] : golden) {
    attnx::Rng r(20261207 + n);
    std::vector<float> v(static_cast<std::size_t>(n));
    r.fill_normal(v.data(), v.size());
    std::uint64_t h = 1469598103934665603ull;
    for (float f : v) {
      std::uint32_t u;
      std::memcpy(&u, &f, 4);
      for (int k = 0; k < 4; ++k) h = (h ^ ((u >> (8 * k)) & 0xFFu)) * 1099511628211ull;
    }
    CAPTURE(n);
    CHECK(h == want);
  }
}
