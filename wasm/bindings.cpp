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
  o.set("okR", m.ok_r);
  o.set("okZ", m.ok_z);
  o.set("beta", m.beta);
  o.set("dStar", m.d_star);
  return o;
}

// The per-row criterion (core RowReport) as typed arrays; ratio errors follow A's entry order.
val rows_to_js(const RowReport& rr) {
  val o = val::object();
  o.set("rho", to_float64_array(rr.rho.data(), rr.rho.size()));
  o.set("zeta", to_float64_array(rr.zeta.data(), rr.zeta.size()));
  o.set("lambda", to_float64_array(rr.lambda.data(), rr.lambda.size()));
  o.set("okR", to_uint8_array(rr.ok_r.data(), rr.ok_r.size()));
  o.set("okZ", to_uint8_array(rr.ok_z.data(), rr.ok_z.size()));
  o.set("supportMinLogit", to_float32_array(rr.support_min_logit.data(), rr.support_min_logit.size()));
  o.set("ratioErrMean", to_float32_array(rr.ratio_err_mean.data(), rr.ratio_err_mean.size()));
  o.set("ratioErrMin", to_float32_array(rr.ratio_err_min.data(), rr.ratio_err_min.size()));
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
    r.set("rows", rows_to_js(c.rows));
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

val js_estimate_bytes(val opts) {
  return guarded([&] {
    const Options o = read_options(opts, Call::Estimate);
    val r = val::object();
    r.set("construct", static_cast<double>(estimate_construct_bytes(o.spec.L, o.d)));
    r.set("mind", static_cast<double>(
                      estimate_mind_bytes(o.spec.L, o.mind.step, row_count_bound(o.spec, o.triplets))));
    r.set("maxBytes", static_cast<double>(o.mind.max_bytes));
    return r;
  });
}

val js_schema() {
  return guarded([] { return schema_to_js(); });
}

std::string js_version() { return ATTNX_VERSION; }
std::string js_flavour() { return ATTNX_FLAVOUR; }
std::string js_gram_kernel() { return gram_kernel_name(); }

}  // namespace

EMSCRIPTEN_BINDINGS(attnx) {
  emscripten::function("version", &js_version);
  emscripten::function("flavour", &js_flavour);
  emscripten::function("gramKernel", &js_gram_kernel);
  emscripten::function("schema", &js_schema);
  emscripten::function("patterns", &js_schema);  // the name of API version 1
  emscripten::function("construct", &js_construct);
  emscripten::function("minD", &js_min_d);
  emscripten::function("sweepPoint", &js_sweep_point);
  emscripten::function("fits", &js_fits);
  emscripten::function("median", &js_median);
  emscripten::function("quantile", &js_quantile);
  emscripten::function("estimateBytes", &js_estimate_bytes);
}
