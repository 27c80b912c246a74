// attnx wasm: embind registrations. Conversions live in convert.cpp; every function catches all
// C++ exceptions and RETURNS a JS Error (RangeError for invalid input and budget refusals) instead
// of letting them escape, so the module never aborts and the next call works. Returning (rather
// than throwing from C++) lets every C++ destructor run and leaks no embind handles; the JS API
// (web/lib/attnx.js) throws the returned Error.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>
#include <emscripten/val.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <memory>

#include <attnx/construct.hpp>
#include "convert.hpp"
#include <attnx/errors.hpp>
#include <attnx/gram.hpp>
#include <attnx/memory.hpp>
#include <attnx/mind.hpp>
#include <attnx/pattern.hpp>
#include <attnx/sweep.hpp>

using emscripten::val;
using namespace attnx;
using namespace attnx::wasm;

namespace {

template <class F>
val guarded(F&& f) {
  try {
    return f();
  } catch (...) {
    return error_to_js(std::current_exception());
  }
}

// A progress wrapper that remembers whether the callback asked to cancel.
struct ProgressState {
  Progress inner;
  bool cancelled = false;
  Progress fn() {
    if (!inner) return nullptr;
    return [this](double f) {
      const bool go = inner(f);
      if (!go) cancelled = true;
      return go;
    };
  }
};

val pattern_to_js(const Pattern& A) {
  std::vector<int> rows(A.col.size());
  for (int i = 0; i < A.L; ++i)
    std::fill(rows.begin() + A.row_begin(i), rows.begin() + A.row_end(i), i);
  val a = val::object();
  a.set("rows", to_int32_array(rows.data(), rows.size()));
  a.set("cols", to_int32_array(A.col.data(), A.col.size()));
  a.set("vals", to_float32_array(A.val.data(), A.val.size()));
  return a;
}

void set_pattern_stats(val& r, const Pattern& A) {
  r.set("L", A.L);
  r.set("k", A.k);
  r.set("maxColCount", A.max_col_count);
  r.set("inClass", A.in_class);
}

val metrics_to_js(const Metrics& m) {
  val o = val::object();
  o.set("rho", m.rho);
  o.set("zeta", m.zeta);
  o.set("lambda", m.lambda);
  o.set("success", m.success);
  o.set("beta", m.beta);
  o.set("dStar", m.d_star);
  return o;
}

val int_or_null(long long v) { return v < 0 ? val::null() : val(static_cast<double>(v)); }

// ---- API functions ----

val js_construct(val opts, val on_progress) {
  return guarded([&] {
    const Options o = read_options(opts, Call::Construct);
    const Pattern A = build_pattern(o);
    ProgressState ps{make_progress(on_progress)};
    Construction c = construct(A, o.tol, o.d, o.seed, o.mind.max_bytes, ps.fn());
    val r = val::object();
    r.set("params", params_to_js(o, Call::Construct));
    r.set("metrics", metrics_to_js(c.metrics));
    set_pattern_stats(r, A);
    r.set("d", c.d);
    r.set("dStar", c.metrics.d_star);
    r.set("A", pattern_to_js(A));
    r.set("M", to_float32_array(c.M.data(), c.M.size()));
    c.M = {};
    r.set("logits", to_float32_array(c.logits.data(), c.logits.size()));
    c.logits = {};
    r.set("X", to_float32_array(c.X.data(), c.X.size()));
    return r;
  });
}

val js_min_d(val opts, val on_progress) {
  return guarded([&] {
    const Options o = read_options(opts, Call::MinD);
    const Pattern A = build_pattern(o);
    ProgressState ps{make_progress(on_progress)};
    const MinDResult m = min_d(A, o.tol, o.mind, o.seed, ps.fn());
    val r = val::object();
    r.set("params", params_to_js(o, Call::MinD));
    r.set("dMin", int_or_null(m.d_min));
    val checked = val::array();
    for (std::size_t n = 0; n < m.checked.size(); ++n) checked.set(n, m.checked[n]);
    r.set("checked", checked);
    r.set("gramMadds", static_cast<double>(m.gram_madds));
    r.set("checkMadds", static_cast<double>(m.check_madds));
    r.set("beta", m.beta);
    r.set("dStar", m.d_star);
    set_pattern_stats(r, A);
    r.set("cancelled", m.cancelled || ps.cancelled);
    return r;
  });
}

SweepOptions sweep_options(const Options& o) {
  SweepOptions s;
  s.pattern = o.spec;
  s.tol = o.tol;
  s.mind = o.mind;
  s.Ls = {o.spec.L};
  s.trials = o.trials;
  s.first_trial = o.first_trial;
  s.seed = o.seed;
  return s;
}

val js_sweep_point(val opts, val on_progress) {
  return guarded([&] {
    const Options o = read_options(opts, Call::SweepPoint);
    ProgressState ps{make_progress(on_progress)};
    const SweepPoint p = sweep_point(sweep_options(o), o.spec.L, ps.fn());
    val r = val::object();
    r.set("params", params_to_js(o, Call::SweepPoint));
    r.set("L", p.L);
    val dm = val::array();
    for (std::size_t n = 0; n < p.d_mins.size(); ++n) dm.set(n, int_or_null(p.d_mins[n]));
    r.set("dMins", dm);
    r.set("median", p.median < 0 ? val::null() : val(p.median));
    r.set("quantile", int_or_null(p.quantile));
    r.set("dStar", p.d_star);
    r.set("k", p.k);
    r.set("maxColCount", p.max_col_count);
    r.set("inClass", p.in_class);
    r.set("madds", static_cast<double>(p.madds));
    r.set("cancelled", ps.cancelled);
    return r;
  });
}

// d values: numbers, or null/undefined/negative for "not reached".
std::vector<int> read_dmins(const val& a, const char* field) {
  if (a.typeOf().as<std::string>() != "object" || !a["length"].isNumber())
    fail(field, std::string(field) + " must be an array of d values (null = not reached)");
  const int n = a["length"].as<int>();
  std::vector<int> d(n);
  for (int q = 0; q < n; ++q) {
    val x = a[q];
    if (x.isNull() || x.isUndefined()) { d[q] = -1; continue; }
    const double v = x.isNumber() ? x.as<double>() : NAN;
    if (!std::isfinite(v) || v != std::floor(v) || v > kMaxD)
      fail(field, std::string(field) + "[" + std::to_string(q) +
                      "] must be an integer d from 1 to " + std::to_string(kMaxD) +
                      " or null (got " + fmt_num(v) + ")");
    d[q] = v < 0 ? -1 : static_cast<int>(v);
  }
  return d;
}

val js_fits(val Ls_in, val ds_in) {
  return guarded([&] {
    const std::vector<double> Ls = read_number_array(Ls_in, "Ls");
    if (ds_in.typeOf().as<std::string>() != "object" || !ds_in["length"].isNumber() ||
        ds_in["length"].as<std::size_t>() != Ls.size())
      fail("ds", "ds must be an array as long as Ls (null = not reached)");
    std::vector<double> x, y;
    for (std::size_t n = 0; n < Ls.size(); ++n) {
      val v = ds_in[n];
      if (v.isNull() || v.isUndefined() || !v.isNumber()) continue;
      const double d = v.as<double>();
      if (!(d > 0) || !std::isfinite(d)) continue;
      x.push_back(Ls[n]);
      y.push_back(d);
    }
    const LogFit lf = fit_log(x, y);
    const PowerFit pf = fit_power(x, y);
    val r = val::object(), l = val::object(), p = val::object();
    l.set("ok", lf.ok);
    l.set("a", lf.a);
    l.set("b", lf.b);
    l.set("r2", lf.r2);
    p.set("ok", pf.ok);
    p.set("c", pf.c);
    p.set("p", pf.p);
    p.set("r2", pf.r2);
    r.set("log", l);
    r.set("power", p);
    return r;
  });
}

val js_median(val ds) {
  return guarded([&] {
    const double m = median_d(read_dmins(ds, "ds"));
    return m < 0 ? val::null() : val(m);
  });
}

val js_quantile(val ds, val delta_in) {
  return guarded([&] {
    const double delta = delta_in.isNumber() ? delta_in.as<double>() : NAN;
    require_real("delta", delta, 0, 1, true, true);
    return int_or_null(quantile_d(read_dmins(ds, "ds"), delta));
  });
}

// Upper bound of the largest row count of a pattern, from its parameters (no drawing).
int k_bound(const Options& o) {
  const PatternSpec& s = o.spec;
  const long long L = s.L;
  long long k = 1;
  switch (s.family) {
    case Family::Random: k = s.k; break;
    case Family::Permutation: k = 1; break;
    case Family::Window: case Family::Dilated: k = 2ll * s.w + 1; break;
    case Family::Causal: k = s.w + 1ll; break;
    case Family::Block: k = s.block; break;
    case Family::Strided: k = s.stride + L / std::max(1, s.stride); break;
    case Family::BigBird: k = 2ll * s.w + 1 + s.globals + s.randoms; break;
    case Family::Custom: {
      std::vector<int> cnt(s.L, 0);
      for (const auto& t : o.triplets)
        if (t.w > 0) ++cnt[t.i];
      k = cnt.empty() ? 1 : *std::max_element(cnt.begin(), cnt.end());
      break;
    }
  }
  return static_cast<int>(std::max(1ll, std::min(k, L)));
}

val js_estimate_bytes(val opts) {
  return guarded([&] {
    const Options o = read_options(opts, Call::Estimate);
    val r = val::object();
    r.set("construct", static_cast<double>(estimate_construct_bytes(o.spec.L, o.d)));
    // min_d() checks the budget with the pending-column block it keeps (a multiple of step of
    // about kSyncColumns = 256 columns, core/mind.cpp); mirror that here so the estimate is the
    // number min_d compares with the budget.
    r.set("mind", static_cast<double>(estimate_mind_bytes(o.spec.L, o.mind.step, k_bound(o))));
    r.set("maxBytes", static_cast<double>(o.mind.max_bytes));
    return r;
  });
}

val range(double lo, double hi, bool lo_open = false, bool hi_open = false) {
  val r = val::object();
  r.set("min", lo);
  r.set("max", hi);
  if (lo_open) r.set("minOpen", true);
  if (hi_open) r.set("maxOpen", true);
  return r;
}

val js_patterns() {
  return guarded([&] {
    val fams = val::array();
    int n = 0;
    for (const auto& f : pattern_families()) {
      val o = val::object();
      o.set("name", f.name);
      o.set("label", f.label);
      o.set("scalesWithL", f.scales_with_L);
      o.set("inClass", f.in_class);
      val ps = val::array();
      int q = 0;
      for (const auto& p : f.params) {
        val x = val::object();
        x.set("name", p.name);
        x.set("label", p.label);
        x.set("min", static_cast<double>(p.min));
        x.set("max", p.max_expr);  // "L" or "L-1": depends on L
        x.set("default", static_cast<double>(p.def));
        ps.set(q++, x);
      }
      o.set("params", ps);
      fams.set(n++, o);
    }
    val weights = val::array();
    int w = 0;
    for (Weights x : {Weights::Uniform, Weights::Random, Weights::Decaying})
      weights.set(w++, std::string(weights_name(x)));

    const double inf = INFINITY;
    val lim = val::object();
    lim.set("L", range(kMinL, kMaxL));
    lim.set("d", range(1, kMaxD));
    lim.set("dmax", range(1, kMaxD));  // and >= step
    lim.set("step", range(1, kMaxD));
    lim.set("trials", range(1, kMaxTrials));
    lim.set("seed", range(0, kMaxSeed));
    lim.set("maxBytes", range(1 << 20, 4294967296.0));
    lim.set("eps", range(0, inf, true, false));
    lim.set("tau", range(0, 1, true, true));
    lim.set("delta", range(0, 1, true, true));
    lim.set("wMin", range(0, 1, true, false));
    lim.set("decay", range(0, 10));

    const PatternSpec s;
    const Tolerances t;
    const MinDOptions m;
    val def = val::object();
    def.set("pattern", std::string(family_name(s.family)));
    def.set("L", s.L);
    def.set("weights", std::string(weights_name(s.weights)));
    def.set("wMin", s.w_min);
    def.set("decay", s.decay);
    def.set("eps", t.eps);
    def.set("tau", t.tau);
    def.set("delta", t.delta);
    def.set("d", Options{}.d);
    def.set("dmax", m.d_max);
    def.set("step", m.step);
    def.set("trials", Options{}.trials);
    def.set("seed", 1);
    def.set("maxBytes", static_cast<double>(kDefaultMaxBytes));

    val r = val::object();
    r.set("families", fams);
    r.set("weights", weights);
    r.set("limits", lim);
    r.set("defaults", def);
    return r;
  });
}

// ---- test and benchmark hooks (not part of the documented API) ----

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

std::string js_version() { return ATTNX_VERSION; }
std::string js_flavour() { return ATTNX_FLAVOUR; }
std::string js_gram_kernel() { return gram_kernel_name(); }

}  // namespace

EMSCRIPTEN_BINDINGS(attnx) {
  emscripten::function("version", &js_version);
  emscripten::function("flavour", &js_flavour);
  emscripten::function("gramKernel", &js_gram_kernel);
  emscripten::function("patterns", &js_patterns);
  emscripten::function("construct", &js_construct);
  emscripten::function("minD", &js_min_d);
  emscripten::function("sweepPoint", &js_sweep_point);
  emscripten::function("fits", &js_fits);
  emscripten::function("median", &js_median);
  emscripten::function("quantile", &js_quantile);
  emscripten::function("estimateBytes", &js_estimate_bytes);
  emscripten::function("gramSelfTest", &js_gram_self_test);
  emscripten::function("gramBench", &js_gram_bench);
  emscripten::function("allocProbe", &js_alloc_probe);
}
