// attnx wasm: test and benchmark hooks, linked only into the test flavour of the module
// (build/wasm-*/attnx_*_test.mjs), never into what web/ and dist/ serve: gramSelfTest(L, n, seed)
// (the kernel, Eigen and the dispatcher against a double reference, core gram_check.hpp),
// gramBench(L, n, reps, which) (best-of-reps seconds of one rank-n update by "kernel", "eigen" or
// the dispatcher), allocProbe(mib) (a failed allocation comes back as an Error of kind "memory"),
// scaleBench(L, d, k, reps) (best-of-reps seconds of SPEC §9's Lambda, jl_input_scale, over d
// columns of a random k-pattern; reps 0 returns Lambda itself), peakBench() (the module's 128-bit
// multiply-add peak, { isa, gflops }).
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include <attnx/bounds.hpp>
#include <attnx/construct.hpp>
#include <attnx/errors.hpp>
#include <attnx/flops_peak.hpp>
#include <attnx/gram.hpp>
#include <attnx/gram_check.hpp>
#include <attnx/pattern.hpp>
#include <attnx/projection.hpp>
#include <attnx/rng.hpp>
#include "../../wasm/js_value.hpp"

using namespace attnx;
using namespace attnx::wasm;

namespace {

const GramUpdate kUpdates[] = {gram_update_lower_kernel, gram_update_lower_eigen, gram_update_lower};

// The kernel, Eigen and the dispatcher on the same G0 and Pb.
struct SelfTest {
  GramUpdateError e[3];
};
SelfTest self_test(int L, int n, double seed) {
  SelfTest s;
  for (int u = 0; u < 3; ++u) s.e[u] = gram_update_error(kUpdates[u], L, n, static_cast<std::uint64_t>(seed));
  return s;
}

double gram_bench(int L, int n, int reps, const std::string& which) {
  require_int("L", L, 1, 8192);
  require_int("n", n, 1, 1024);
  require_int("reps", reps, 1, 10000);
  std::vector<float> G(static_cast<std::size_t>(L) * L, 0.0f), P(static_cast<std::size_t>(L) * n, 0.5f);
  const GramUpdate fn = kUpdates[which == "kernel" ? 0 : which == "eigen" ? 1 : 2];
  double best = INFINITY;
  for (int q = 0; q < reps; ++q) {
    const double t0 = emscripten_get_now();
    fn(G.data(), L, P.data(), n);
    best = std::min(best, (emscripten_get_now() - t0) / 1000.0);
  }
  return best;
}

double scale_bench(int L, int d, int k, int reps) {
  require_int("L", L, 8, 8192);
  require_int("d", d, 1, 16384);
  require_int("k", k, 1, 64);
  require_int("reps", reps, 0, 1000);
  PatternSpec s;
  s.family = Family::Random;
  s.L = L;
  s.k = k;
  Rng rng(pattern_seed(1));
  const Pattern A = make_pattern(s, rng);
  const std::vector<double> B = log_target(A, Tolerances{});
  std::vector<float> P(static_cast<std::size_t>(L) * d);
  ProjectionStream(ProjectionKind::Gaussian, L, projection_seed(1)).next(d, P.data());
  const ProjectionScale scale = projection_scale_of(ProjectionKind::Gaussian, P.data(), L, d);
  double best = INFINITY, lambda = 0;
  for (int q = 0; q < std::max(reps, 1); ++q) {
    const double t0 = emscripten_get_now();
    std::size_t at = 0;
    lambda = jl_input_scale(A, B, d, scale, [&](int n, float*) {
      const float* c = P.data() + at;
      at += static_cast<std::size_t>(L) * n;
      return c;
    }, nullptr, d);
    best = std::min(best, (emscripten_get_now() - t0) / 1000.0);
  }
  return reps == 0 ? lambda : best;
}

// The 128-bit multiply-add peak of this module (run_peak_chains, as `attnx bench` measures the
// native one): rounds doubled until a run takes 5 ms, then the best of 9 runs. { isa, gflops }.
emscripten::val peak_bench() {
  long rounds = 1024;
  auto run = [&] {
    const double t0 = emscripten_get_now();
    const PeakWork w = run_peak_chains(false, rounds);
    static volatile float sink;
    sink = w.sink;
    return std::make_pair(w, (emscripten_get_now() - t0) / 1000.0);
  };
  while (run().second < 0.005 && rounds < (1L << 29)) rounds *= 2;  // long is 32 bits here
  double best = INFINITY;
  PeakWork w;
  for (int q = 0; q < 9; ++q) {
    const auto r = run();
    w = r.first;
    best = std::min(best, r.second);
  }
  emscripten::val out = emscripten::val::object();
  out.set("isa", std::string(w.isa));
  out.set("gflops", w.flops / best / 1e9);
  return out;
}

double alloc_probe(int mib) {
  require_int("mib", mib, 1, 4096);
  const std::size_t bytes = static_cast<std::size_t>(mib) << 20;
  std::unique_ptr<char[]> block(new char[bytes]);
  static char* volatile sink;  // keeps the allocation from being elided
  sink = block.get();
  sink[bytes - 1] = 1;
  return static_cast<double>(bytes);
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnx_test_hooks) {
  Record<SelfTest>("SelfTest")
      .get("kernel", [](const SelfTest&) { return std::string(gram_kernel_name()); })
      .get("maxErrKernel", [](const SelfTest& s) { return s.e[0].max_err; })
      .get("maxErrEigen", [](const SelfTest& s) { return s.e[1].max_err; })
      .get("maxErrDispatch", [](const SelfTest& s) { return s.e[2].max_err; })
      .get("scale", [](const SelfTest& s) { return s.e[0].scale; })
      .get("upperUntouched", [](const SelfTest& s) {
        return s.e[0].upper_untouched && s.e[1].upper_untouched && s.e[2].upper_untouched;
      });
  emscripten::function("gramSelfTest", +[](int L, int n, double seed) {
    return guarded([&] { return record(self_test(L, n, seed)); });
  });
  emscripten::function("gramBench", +[](int L, int n, int reps, std::string which) {
    return guarded([&] { return gram_bench(L, n, reps, which); });
  });
  emscripten::function("scaleBench", +[](int L, int d, int k, int reps) {
    return guarded([&] { return scale_bench(L, d, k, reps); });
  });
  emscripten::function("peakBench", +[]() { return guarded([&] { return peak_bench(); }); });
  emscripten::function("allocProbe", +[](int mib) { return guarded([&] { return alloc_probe(mib); }); });
}
