// Every Gram kernel this machine runs (scalar, SSE2, AVX2, AVX-512: gram_kernels_available),
// forced in turn: the same bits as the scalar kernel for G, the same d_min, grid and work counts for
// the min-d search over many patterns, seeds and projections, and the list of kernels against the
// CPU's own feature flags (so a machine with AVX-512 really tests the AVX-512 kernel).
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include <attnx/errors.hpp>
#include <attnx/gram.hpp>
#include <attnx/mind.hpp>
#include <attnx/pattern.hpp>
#include <attnx/rng.hpp>
#include "requests.hpp"

namespace {

using attnx::GramKernel;

std::vector<GramKernel> kernels() { return attnx::gram_kernels_available(); }

bool has(GramKernel k) {
  for (GramKernel h : kernels())
    if (h == k) return true;
  return false;
}

// G0 (random, upper triangle too) plus one rank-n update by kernel k.
std::vector<float> updated(GramKernel k, const std::vector<float>& G0, int L,
                           const std::vector<float>& P, int n) {
  std::vector<float> G = G0;
  attnx::gram_update_lower_with(k, G.data(), L, P.data(), n);
  return G;
}

attnx::Pattern pattern_of(attnx::Family f, int L, std::uint64_t seed) {
  attnx::PatternSpec s;
  s.family = f;
  s.L = L;
  s.k = 2;
  s.w = 2;
  s.globals = 2;
  s.randoms = 1;
  s.weights = attnx::Weights::Random;
  s.w_min = 0.3;
  attnx::Rng rng(seed);
  return attnx::make_pattern(s, rng);
}

}  // namespace

TEST_CASE("the kernels that run here are listed once each, scalar first, the best one last") {
  const auto ks = kernels();
  REQUIRE(!ks.empty());
  CHECK(ks.front() == GramKernel::Scalar);
  CHECK(ks.back() == attnx::gram_kernel_best());
  for (std::size_t a = 0; a < ks.size(); ++a)
    for (std::size_t b = a + 1; b < ks.size(); ++b) CHECK(ks[a] != ks[b]);
  CHECK(!has(GramKernel::Auto));
  CHECK(!has(GramKernel::WasmSimd128));  // native build
  std::string names;
  for (GramKernel k : ks) names += std::string(attnx::gram_kernel_label(k)) + " ";
  MESSAGE("Gram kernels tested on this machine: " << names);
}

#if defined(__x86_64__)
TEST_CASE("the x86-64 kernels listed match the CPU's own feature flags") {
  __builtin_cpu_init();
  CHECK(has(GramKernel::Sse2));
  CHECK(has(GramKernel::Avx2) ==
        (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")));
  CHECK(has(GramKernel::Avx512) == static_cast<bool>(__builtin_cpu_supports("avx512f")));
}
#endif

TEST_CASE("every kernel gives the scalar kernel's bits and leaves the upper triangle as it was") {
  attnx::Rng r(77);
  // L on, below and above the tiles (4, 8, 24, 48 rows) and the 256-row panel; n below, at and
  // above the 256-column chunk.
  for (int L : {1, 2, 3, 5, 8, 13, 23, 24, 25, 47, 48, 49, 64, 97, 200, 255, 256, 257, 300, 531})
    for (int n : {1, 3, 8, 17, 128, 256, 257, 600}) {
      std::vector<float> G0(static_cast<std::size_t>(L) * L), P(static_cast<std::size_t>(L) * n);
      r.fill_normal(G0.data(), G0.size());
      r.fill_normal(P.data(), P.size());
      const std::vector<float> ref = updated(GramKernel::Scalar, G0, L, P, n);
      for (int j = 1; j < L; ++j)  // the reference itself leaves the upper triangle alone
        REQUIRE(std::memcmp(&ref[(std::size_t)j * L], &G0[(std::size_t)j * L],
                            sizeof(float) * j) == 0);
      for (GramKernel k : kernels()) {
        CAPTURE(attnx::gram_kernel_label(k));
        CAPTURE(L);
        CAPTURE(n);
        const std::vector<float> got = updated(k, G0, L, P, n);
        CHECK(std::memcmp(got.data(), ref.data(), got.size() * sizeof(float)) == 0);
      }
    }
}

TEST_CASE("every kernel gives the same Gram matrix after many nested rank updates") {
  const int L = 131;
  attnx::Rng r(5);
  std::vector<std::vector<float>> Gs(kernels().size(), std::vector<float>((size_t)L * L, 0.f));
  for (int blk = 0; blk < 24; ++blk) {
    const int n = 1 + (blk * 37) % 300;
    std::vector<float> P((size_t)L * n);
    r.fill_normal(P.data(), P.size());
    for (std::size_t q = 0; q < Gs.size(); ++q)
      attnx::gram_update_lower_with(kernels()[q], Gs[q].data(), L, P.data(), n);
  }
  for (std::size_t q = 1; q < Gs.size(); ++q) {
    CAPTURE(attnx::gram_kernel_label(kernels()[q]));
    CHECK(std::memcmp(Gs[q].data(), Gs[0].data(), Gs[0].size() * sizeof(float)) == 0);
  }
}

TEST_CASE("min-d gives the same d_min, grid and work counts with every kernel") {
  struct Case {
    attnx::Family family;
    int L, step;
    attnx::ProjectionKind projection;
  };
  using F = attnx::Family;
  using P = attnx::ProjectionKind;
  const Case cases[] = {
      {F::Random, 64, 16, P::Gaussian},     {F::Random, 128, 16, P::Gaussian},
      {F::Random, 200, 8, P::Gaussian},     {F::Random, 256, 16, P::Gaussian},
      {F::Random, 150, 24, P::Rademacher},  {F::Random, 120, 16, P::GaussianUnit},
      {F::Random, 100, 16, P::Orthogonal},  {F::Random, 90, 16, P::OrthogonalUnit},
      {F::Window, 160, 16, P::Gaussian},    {F::Causal, 128, 16, P::Gaussian},
      {F::BigBird, 128, 16, P::Gaussian},   {F::Random, 300, 300, P::Gaussian},
  };
  attnx::Tolerances tol;  // eps 1, tau 0.1: the paper preset
  int compared = 0, reached = 0;
  for (const Case& c : cases)
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const attnx::Pattern A = pattern_of(c.family, c.L, seed * 1000 + c.L);
      attnx::MinDOptions opt;
      opt.step = c.step;
      opt.d_max = 4096 / c.step * c.step;
      opt.projection = c.projection;
      opt.gram_kernel = GramKernel::Scalar;
      const attnx::MinDResult ref = attnx::min_d(A, th::search("jl", tol, opt, seed));
      reached += ref.reached();
      for (GramKernel k : kernels()) {
        CAPTURE(attnx::gram_kernel_label(k));
        CAPTURE(c.L);
        CAPTURE(seed);
        opt.gram_kernel = k;
        const attnx::MinDResult got = attnx::min_d(A, th::search("jl", tol, opt, seed));
        CHECK(got.d_min == ref.d_min);
        CHECK(got.checked == ref.checked);
        CHECK(got.gram_madds == ref.gram_madds);
        CHECK(got.check_madds == ref.check_madds);
        ++compared;
      }
    }
  CHECK(reached >= 40);  // the corpus mostly reaches d_min (a not-reached grid compares less)
  MESSAGE(compared << " min-d runs compared, " << reached << " of 48 reached");
}

TEST_CASE("a kernel that does not run here is refused naming gram_kernel") {
  std::vector<float> G(4, 0.f), P(2, 1.f);
  try {
    attnx::gram_update_lower_with(GramKernel::WasmSimd128, G.data(), 2, P.data(), 1);
    FAIL("no error");
  } catch (const attnx::InvalidArgument& e) {
    CHECK(e.field() == "gram_kernel");
    CHECK(std::string(e.what()).find("wasm-simd128 does not run here") != std::string::npos);
    CHECK(std::string(e.what()).find("scalar") != std::string::npos);
  }
  attnx::MinDOptions opt;
  opt.gram_kernel = GramKernel::WasmSimd128;
  CHECK_THROWS_AS(attnx::validate(opt), attnx::InvalidArgument);
  CHECK(G == std::vector<float>(4, 0.f));
}
