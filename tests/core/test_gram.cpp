// Gram update kernels (SPEC §4): every kernel and Eigen against a float64 reference.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <attnx/gram.hpp>
#include <attnx/rng.hpp>

namespace {

std::vector<float> random_vec(attnx::Rng& r, size_t n) {
  std::vector<float> v(n);
  for (auto& x : v) x = static_cast<float>(r.normal());
  return v;
}

using Fn = std::function<void(float*, int, const float*, int)>;

// Applies fn to a copy of G0 and checks: lower triangle = G0 + Pb Pb^T (float64 reference,
// tolerance scaled by the sum of |terms|), upper triangle bitwise untouched.
void check_update(const Fn& fn, const char* name, int L, int n, std::uint64_t seed) {
  CAPTURE(name);
  CAPTURE(L);
  CAPTURE(n);
  attnx::Rng r(seed);
  std::vector<float> G0 = random_vec(r, (size_t)L * L), P = random_vec(r, (size_t)L * n);
  std::vector<float> G = G0;
  fn(G.data(), L, P.data(), n);
  int bad_lower = 0, bad_upper = 0;
  for (int j = 0; j < L; ++j)
    for (int i = 0; i < L; ++i) {
      size_t at = (size_t)j * L + i;  // (row i, column j), column-major
      if (i >= j) {
        double ref = G0[at], mag = std::fabs(G0[at]);
        for (int c = 0; c < n; ++c) {
          double t = (double)P[(size_t)c * L + i] * P[(size_t)c * L + j];
          ref += t;
          mag += std::fabs(t);
        }
        if (std::fabs(G[at] - ref) > (n + 2) * 1.2e-7 * mag + 1e-30) ++bad_lower;
      } else if (std::memcmp(&G[at], &G0[at], sizeof(float)) != 0) {
        ++bad_upper;
      }
    }
  CHECK(bad_lower == 0);
  CHECK(bad_upper == 0);
}

}  // namespace

TEST_CASE("gram_update_lower_kernel adds Pb Pb^T to the lower triangle only (float64 reference)") {
  std::uint64_t seed = 1;
  for (int L : {1, 2, 3, 5, 8, 13, 16, 31, 33, 64, 100})
    for (int n : {1, 2, 3, 4, 7, 16, 33}) check_update(attnx::gram_update_lower_kernel, "kernel", L, n, seed++);
}

TEST_CASE("every Gram kernel that runs here adds Pb Pb^T to the lower triangle only (float64 reference)") {
  std::uint64_t seed = 5000;
  for (attnx::GramKernel k : attnx::gram_kernels_available()) {
    auto fn = [k](float* G, int L, const float* P, int n) { attnx::gram_update_lower_with(k, G, L, P, n); };
    for (int L : {1, 2, 7, 24, 49, 100, 300})
      for (int n : {1, 5, 33, 256, 300}) check_update(fn, attnx::gram_kernel_label(k), L, n, seed++);
  }
}

TEST_CASE("gram_update_lower_eigen adds Pb Pb^T to the lower triangle only (float64 reference)") {
  std::uint64_t seed = 1000;
  for (int L : {1, 2, 3, 5, 8, 13, 16, 31, 33, 64, 100})
    for (int n : {1, 2, 3, 4, 7, 16, 33}) check_update(attnx::gram_update_lower_eigen, "eigen", L, n, seed++);
}

TEST_CASE("both Gram implementations handle more columns than one packed chunk (n > 256) and tiny L") {
  std::uint64_t seed = 3000;
  struct C { int L, n; };
  for (C c : {C{70, 300}, C{9, 600}, C{1, 257}, C{2, 513}, C{37, 256}, C{37, 257}}) {
    check_update(attnx::gram_update_lower_kernel, "kernel", c.L, c.n, seed++);
    check_update(attnx::gram_update_lower_eigen, "eigen", c.L, c.n, seed++);
  }
}

TEST_CASE("gram_update_lower (dispatcher) is correct and names its kernel") {
  std::uint64_t seed = 2000;
  for (int L : {7, 64, 129})
    for (int n : {1, 16}) check_update(attnx::gram_update_lower, "dispatch", L, n, seed++);
  std::string name = attnx::gram_kernel_name();
  CHECK(name == attnx::gram_kernel_label(attnx::gram_kernel_best()));
  CHECK((name == "scalar" || name == "sse2" || name == "avx2" || name == "avx512"));
}

TEST_CASE("kernel and Eigen implementations agree after many rank updates (nested Gram accumulation)") {
  const int L = 67;
  attnx::Rng r(3);
  std::vector<float> Ga((size_t)L * L, 0.f), Gb = Ga;
  std::vector<double> Gd((size_t)L * L, 0.0);
  double mag = 0;
  for (int blk = 0; blk < 20; ++blk) {
    int n = 1 + blk % 9;
    auto P = random_vec(r, (size_t)L * n);
    attnx::gram_update_lower_kernel(Ga.data(), L, P.data(), n);
    attnx::gram_update_lower_eigen(Gb.data(), L, P.data(), n);
    for (int j = 0; j < L; ++j)
      for (int i = j; i < L; ++i)
        for (int c = 0; c < n; ++c) Gd[(size_t)j * L + i] += (double)P[(size_t)c * L + i] * P[(size_t)c * L + j];
    mag += n;
  }
  double worst_a = 0, worst_b = 0;
  for (int j = 0; j < L; ++j)
    for (int i = j; i < L; ++i) {
      size_t at = (size_t)j * L + i;
      worst_a = std::max(worst_a, std::fabs(Ga[at] - Gd[at]));
      worst_b = std::max(worst_b, std::fabs(Gb[at] - Gd[at]));
    }
  // Entries are sums of ~100 products of unit normals.
  CHECK(worst_a < 1e-4 * mag);
  CHECK(worst_b < 1e-4 * mag);
  // Upper triangles never written.
  for (int j = 1; j < L; ++j)
    for (int i = 0; i < j; ++i) {
      REQUIRE(Ga[(size_t)j * L + i] == 0.f);
      REQUIRE(Gb[(size_t)j * L + i] == 0.f);
    }
}

TEST_CASE("symmetrize_from_lower copies the lower triangle onto the upper one and leaves the lower as is") {
  for (int L : {1, 2, 3, 31, 32, 33, 64, 65, 100}) {
    CAPTURE(L);
    attnx::Rng r(L);
    std::vector<float> G0 = random_vec(r, (size_t)L * L), G = G0;
    attnx::symmetrize_from_lower(G.data(), L);
    int bad = 0;
    for (int j = 0; j < L; ++j)
      for (int i = 0; i < L; ++i) {
        size_t at = (size_t)j * L + i;        // (i, j) column-major
        size_t tr = (size_t)i * L + j;        // (j, i)
        if (i >= j) bad += std::memcmp(&G[at], &G0[at], 4) != 0;  // lower untouched
        bad += std::memcmp(&G[at], &G[tr], 4) != 0;               // symmetric
      }
    CHECK(bad == 0);
  }
}
