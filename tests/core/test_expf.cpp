// expf_portable (core/expf.cpp): musl's expf bit for bit, one by one and four at a time, and the
// softmax and max |Z| that use the vector paths against their one-by-one definitions.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include <attnx/bounds.hpp>
#include <attnx/construct.hpp>
#include <attnx/expf.hpp>
#include <attnx/rng.hpp>

namespace {

std::uint32_t bits(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

float from_bits(std::uint32_t u) {
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// Equal bits, or both NaN.
bool same(float a, float b) { return bits(a) == bits(b) || (a != a && b != b); }

}  // namespace

TEST_CASE("expf_portable gives musl's expf: hand values, limits and a hash of every 257th float") {
  CHECK(bits(attnx::expf_portable(0.0f)) == bits(1.0f));
  CHECK(bits(attnx::expf_portable(-0.0f)) == bits(1.0f));
  CHECK(bits(attnx::expf_portable(1.0f)) == bits(0x1.5bf0a8p+1f));  // e rounded to float
  CHECK(bits(attnx::expf_portable(-INFINITY)) == bits(0.0f));
  CHECK(attnx::expf_portable(INFINITY) == INFINITY);
  CHECK(std::isnan(attnx::expf_portable(NAN)));
  CHECK(attnx::expf_portable(0x1.62e43p6f) == INFINITY);   // just above log(2^128)
  CHECK(attnx::expf_portable(0x1.62e42ep6f) < INFINITY);   // the largest finite result
  CHECK(bits(attnx::expf_portable(-104.0f)) == bits(0.0f));  // below log(2^-150)
  CHECK(attnx::expf_portable(-103.0f) > 0);                  // a subnormal result
  // FNV-1a of the bits of e^x for the floats with bits 0, 257, 514, ... (NaN as 0x7fc00000),
  // recorded with the WebAssembly build's std::exp (musl 1.2, emscripten 3.1.6).
  std::uint64_t h = 1469598103934665603ull;
  for (std::uint64_t u = 0; u < (1ull << 32); u += 257) {
    const float e = attnx::expf_portable(from_bits(static_cast<std::uint32_t>(u)));
    h = (h ^ (e != e ? 0x7fc00000u : bits(e))) * 1099511628211ull;
  }
  CHECK(h == 0xa82fad151c5a3e92ull);
}

TEST_CASE("expf_inplace gives expf_portable's bits one by one, with special values in every lane and every tail") {
  const float specials[] = {NAN, INFINITY, -INFINITY, 88.0f, -88.0f, 88.8f, -103.9f, -104.0f, 0.0f, -0.0f, 1e-40f};
  attnx::Rng rng(5);
  int bad = 0;
  for (int n = 0; n < 200; ++n) {
    std::vector<float> x(static_cast<std::size_t>(n % 13));
    for (float& v : x) {
      const std::uint64_t r = rng.next();
      v = r % 5 == 0 ? specials[(r >> 8) % 11] : static_cast<float>(rng.normal() * ((r >> 16) % 3 == 0 ? 60.0 : 3.0));
    }
    std::vector<float> y = x;
    attnx::expf_inplace(y.data(), y.size());
    for (std::size_t j = 0; j < x.size(); ++j)
      if (!same(y[j], attnx::expf_portable(x[j]))) ++bad;
  }
  CHECK(bad == 0);
}

TEST_CASE("softmax_rows equals its one-by-one definition, bit for bit, with NaN, infinities and +-0 in the rows") {
  const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 1000.0f, -1000.0f};
  attnx::Rng rng(9);
  int bad = 0;
  for (int it = 0; it < 300; ++it) {
    const int L = 1 + (it * 7) % 71;  // 1 .. 71: every tail of four rows and of sixteen columns
    std::vector<float> Z(static_cast<std::size_t>(L) * L), M(Z.size());
    for (float& z : Z) {
      const std::uint64_t r = rng.next();
      z = it % 3 == 0 && r % 4 == 0 ? specials[(r >> 8) % 7] : static_cast<float>(rng.normal() * 20.0);
    }
    attnx::softmax_rows(Z.data(), M.data(), L);
    for (int i = 0; i < L; ++i) {  // the definition: std::max_element, then e^(z - max), in order
      const float* z = Z.data() + static_cast<std::size_t>(i) * L;
      const float mx = *std::max_element(z, z + L);
      std::vector<float> m(static_cast<std::size_t>(L));
      double sum = 0;
      for (int j = 0; j < L; ++j) sum += (m[j] = attnx::expf_portable(z[j] - mx));
      const float inv = static_cast<float>(1.0 / sum);
      for (int j = 0; j < L; ++j)
        if (!same(M[static_cast<std::size_t>(i) * L + j], m[j] * inv)) ++bad;
    }
  }
  CHECK(bad == 0);
}

TEST_CASE("max_abs of floats is the largest |Z_i|, NaN when there is one, at every length and position") {
  attnx::Rng rng(4);
  for (int n = 0; n < 40; ++n) {
    std::vector<float> z(static_cast<std::size_t>(n));
    for (float& v : z) v = static_cast<float>(rng.normal());
    double want = 0;
    for (float v : z) want = std::max(want, double(std::fabs(v)));
    CHECK(attnx::max_abs(z.data(), z.size()) == want);
    if (n == 0) continue;
    z[static_cast<std::size_t>(n) / 2] = -INFINITY;
    CHECK(attnx::max_abs(z.data(), z.size()) == INFINITY);
    z[static_cast<std::size_t>(n) - 1] = NAN;
    CHECK(std::isnan(attnx::max_abs(z.data(), z.size())));
  }
  const std::vector<float> zeros = {-0.0f, 0.0f, -0.0f, -0.0f, -0.0f};
  CHECK(attnx::max_abs(zeros.data(), zeros.size()) == 0);
}
