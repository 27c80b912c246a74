// attnx wasm: test and benchmark hooks, linked only into the test flavour of the module
// (build/wasm-*/attnx_*_test.mjs), never into what web/ and dist/ serve. Registered as extra
// functions of the same module: gramSelfTest, gramBench, allocProbe.
#include <emscripten/emscripten.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include <attnx/errors.hpp>
#include <attnx/gram.hpp>
#include <attnx/rng.hpp>
#include "js_value.hpp"

using namespace attnx;
using namespace attnx::wasm;

namespace {

using Update = void (*)(float*, int, const float*, int);
const Update kUpdates[] = {gram_update_lower_kernel, gram_update_lower_eigen, gram_update_lower};

std::vector<float> normals(Rng& rng, std::size_t n) {
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(rng.normal());
  return v;
}

// gramSelfTest(L, n, seed): the kernel, Eigen and the dispatcher on G (random, lower and upper)
// plus P P^T (P: L x n random normal), each update's largest error against a double reference,
// the reference's magnitude, and whether every update left the upper triangle untouched.
struct SelfTest {
  std::string kernel = gram_kernel_name();
  double max_err[3] = {0, 0, 0}, scale = 0;
  bool upper_untouched = true;
};

SelfTest gram_self_test(int L, int n, double seed) {
  require_int("L", L, 1, 4096);
  require_int("n", n, 1, 512);
  Rng rng(static_cast<std::uint64_t>(seed));
  const std::size_t l = static_cast<std::size_t>(L);
  const std::vector<float> G0 = normals(rng, l * l), P = normals(rng, l * n);
  std::vector<float> G[3] = {G0, G0, G0};
  for (int u = 0; u < 3; ++u) kUpdates[u](G[u].data(), L, P.data(), n);
  SelfTest r;
  for (std::size_t j = 0; j < l; ++j)
    for (std::size_t i = 0; i < l; ++i) {
      const std::size_t at = i + j * l;
      if (i < j) {
        for (const auto& g : G) r.upper_untouched &= g[at] == G0[at];
        continue;
      }
      double ref = G0[at];
      for (int t = 0; t < n; ++t) ref += double(P[i + t * l]) * double(P[j + t * l]);
      r.scale = std::max(r.scale, std::abs(ref));
      for (int u = 0; u < 3; ++u) r.max_err[u] = std::max(r.max_err[u], std::abs(G[u][at] - ref));
    }
  return r;
}

// gramBench(L, n, reps, which): best-of-reps seconds of one rank-n lower update of an L x L Gram
// matrix by "kernel", "eigen" or the dispatcher (anything else).
double gram_bench(int L, int n, int reps, const std::string& which) {
  require_int("L", L, 1, 8192);
  require_int("n", n, 1, 1024);
  require_int("reps", reps, 1, 10000);
  std::vector<float> G(static_cast<std::size_t>(L) * L, 0.0f);
  Rng rng(1);
  const std::vector<float> P = normals(rng, static_cast<std::size_t>(L) * n);
  const Update fn = kUpdates[which == "kernel" ? 0 : which == "eigen" ? 1 : 2];
  double best = INFINITY;
  for (int q = 0; q < reps; ++q) {
    const double t0 = emscripten_get_now();
    fn(G.data(), L, P.data(), n);
    best = std::min(best, (emscripten_get_now() - t0) / 1000.0);
  }
  return best;
}

// allocProbe(mib): allocates (and frees) `mib` MiB in one block, so a test sees a failed
// allocation reported as an Error (kind "memory") that leaves the module usable.
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
      .field("kernel", &SelfTest::kernel)
      .get("maxErrKernel", [](const SelfTest& r) { return r.max_err[0]; })
      .get("maxErrEigen", [](const SelfTest& r) { return r.max_err[1]; })
      .get("maxErrDispatch", [](const SelfTest& r) { return r.max_err[2]; })
      .field("scale", &SelfTest::scale).field("upperUntouched", &SelfTest::upper_untouched);
  emscripten::function("gramSelfTest", +[](int L, int n, double seed) {
    return guarded([&] { return record(gram_self_test(L, n, seed)); });
  });
  emscripten::function("gramBench", +[](int L, int n, int reps, std::string which) {
    return guarded([&] { return gram_bench(L, n, reps, which); });
  });
  emscripten::function("allocProbe", +[](int mib) { return guarded([&] { return alloc_probe(mib); }); });
}
