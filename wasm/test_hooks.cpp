// attnx wasm: test and benchmark hooks, linked only into the test flavour of the module
// (build/wasm-*/attnx_*_test.mjs), never into what web/ and dist/ serve. Registered as extra
// functions of the same module: gramSelfTest, gramBench, allocProbe.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>

#include <attnx/errors.hpp>
#include <attnx/gram.hpp>
#include <attnx/rng.hpp>

#include "convert.hpp"

using emscripten::val;
using namespace attnx;
using namespace attnx::wasm;

namespace {


// Compares gram_update_lower_kernel and gram_update_lower_eigen against a double reference on
// random data: G starts random (lower and upper), Pb random normal. Reports the max abs error of
// each relative to the reference's magnitude, and whether the upper triangle was left untouched.
val js_gram_self_test(int L, int n, double seed) {
  return guarded([&] {
    require_int("L", L, 1, 4096);
    require_int("n", n, 1, 512);
    Rng rng(static_cast<std::uint64_t>(seed));
    const std::size_t l = static_cast<std::size_t>(L);
    std::vector<float> G0(l * l), P(l * n);
    for (auto& v : G0) v = static_cast<float>(rng.normal());
    for (auto& v : P) v = static_cast<float>(rng.normal());
    std::vector<float> Gk = G0, Ge = G0, Gd = G0;
    gram_update_lower_kernel(Gk.data(), L, P.data(), n);
    gram_update_lower_eigen(Ge.data(), L, P.data(), n);
    gram_update_lower(Gd.data(), L, P.data(), n);
    double ek = 0, ee = 0, ed = 0, scale = 0;
    bool upper_ok = true;
    for (int j = 0; j < L; ++j)
      for (int i = 0; i < L; ++i) {
        const std::size_t at = i + j * l;
        if (i < j) {
          upper_ok = upper_ok && Gk[at] == G0[at] && Ge[at] == G0[at] && Gd[at] == G0[at];
          continue;
        }
        double ref = G0[at];
        for (int t = 0; t < n; ++t) ref += double(P[i + t * l]) * double(P[j + t * l]);
        scale = std::max(scale, std::abs(ref));
        ek = std::max(ek, std::abs(Gk[at] - ref));
        ee = std::max(ee, std::abs(Ge[at] - ref));
        ed = std::max(ed, std::abs(Gd[at] - ref));
      }
    val r = val::object();
    r.set("kernel", std::string(gram_kernel_name()));
    r.set("maxErrKernel", ek);
    r.set("maxErrEigen", ee);
    r.set("maxErrDispatch", ed);
    r.set("scale", scale);
    r.set("upperUntouched", upper_ok);
    return r;
  });
}

// Best-of-reps seconds of one rank-n lower update of an L x L Gram matrix. which: "kernel",
// "eigen" or "dispatch".
val js_gram_bench(int L, int n, int reps, std::string which) {
  return guarded([&] {
    require_int("L", L, 1, 8192);
    require_int("n", n, 1, 1024);
    require_int("reps", reps, 1, 10000);
    const std::size_t l = static_cast<std::size_t>(L);
    std::vector<float> G(l * l, 0.0f), P(l * n);
    Rng rng(1);
    for (auto& v : P) v = static_cast<float>(rng.normal());
    auto fn = which == "eigen" ? gram_update_lower_eigen
              : which == "kernel" ? gram_update_lower_kernel : gram_update_lower;
    double best = INFINITY;
    for (int q = 0; q < reps; ++q) {
      const double t0 = emscripten_get_now();
      fn(G.data(), L, P.data(), n);
      best = std::min(best, (emscripten_get_now() - t0) / 1000.0);
    }
    return val(best);
  });
}

// Allocates (and frees) `mib` MiB in one block: checks that a failed allocation is reported as an
// Error (kind "memory") and leaves the module usable, instead of aborting it.
val js_alloc_probe(int mib) {
  return guarded([&] {
    require_int("mib", mib, 1, 4096);
    const std::size_t bytes = static_cast<std::size_t>(mib) << 20;
    std::unique_ptr<char[]> block(new char[bytes]);
    static char* volatile sink;  // keeps the allocation from being elided
    sink = block.get();
    sink[bytes - 1] = 1;
    return val(static_cast<double>(bytes));
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnx_test_hooks) {
  emscripten::function("gramSelfTest", &js_gram_self_test);
  emscripten::function("gramBench", &js_gram_bench);
  emscripten::function("allocProbe", &js_alloc_probe);
}
