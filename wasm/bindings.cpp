// attnx wasm: embind registrations. Each function reads its options, calls the core and converts
// the result (convert*.cpp); `guarded` turns every C++ exception into a RETURNED JS Error (see
// convert.hpp), which the JS API (web/lib/attnx.js) throws.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>

#include <attnx/build_inputs.hpp>
#include <attnx/construct.hpp>
#include <attnx/gram.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/memory.hpp>
#include <attnx/mind.hpp>
#include <attnx/pattern.hpp>
#include <attnx/schema.hpp>
#include <attnx/schema_doc.hpp>
#include <attnx/sweep.hpp>

#include "convert.hpp"

using emscripten::val;
using namespace attnx;
using namespace attnx::wasm;

namespace {

// construct with the caller's Gram ladder (one per JS API instance, see web/lib/attnx.js).
val js_construct_with(val opts, val on_progress, GramLadder& ladder) {
  return guarded([&] {
    const Options o = read_options(opts, Call::Construct);
    const Pattern A = build_pattern(o);
    ProgressState ps{make_progress(on_progress, 0)};  // every chunk: lets a caller slice the work
    const InputsRequest req = inputs_request(o);
    // jl: X left out when asked, its images (views) are made from the ladder's columns instead.
    BuiltInputs b = build_inputs(A, o.tol, req, ps.fn(), &ladder, !o.omit_x);
    const bool jl = o.construction == "jl";
    val r = construction_to_js(b, A, o, jl ? ladder.columns() : nullptr);
    if (!b.c.cancelled && jl) r.set("gramColumnsAdded", ladder.columns_added());
    return r;
  });
}

// The SPEC §8.4 report alone (construct's options; jl: X drawn again, L x L x d work a few times).
val js_precision(val opts) {
  return guarded([&] {
    Options o = read_options(opts, Call::Construct);
    const Pattern A = build_pattern(o);
    InputsRequest req = inputs_request(o);
    req.jl_precision = true;
    BuiltInputs b = build_inputs(A, o.tol, req, nullptr, nullptr, false);
    val r = val::object();
    r.set("params", params_to_js(o, Call::Construct));
    r.set("construction", o.construction);
    r.set("d", b.c.d);
    r.set("precision", precision_to_js(*b.precision));
    return r;
  });
}

val js_min_d(val opts, val on_progress) {
  return guarded([&] {
    const Options o = read_options(opts, Call::MinD);
    const Pattern A = build_pattern(o);
    ProgressState ps{make_progress(on_progress)};
    const MinDResult m = min_d_of(o.construction, A, o.tol, o.mind, o.seed, o.box, ps.fn());
    return min_d_to_js(m, A, o, ps.cancelled);
  });
}

val js_sweep_point(val opts, val on_progress) {
  return guarded([&] {
    const Options o = read_options(opts, Call::SweepPoint);
    ProgressState ps{make_progress(on_progress)};
    const SweepPoint p = sweep_point(sweep_options(o), o.spec.L, ps.fn());
    return sweep_point_to_js(p, o, ps.cancelled);
  });
}

val js_fits(val Ls, val ds) {
  return guarded([&] {
    std::vector<double> x, y;
    read_fit_points(Ls, ds, x, y);
    return fits_to_js(fit_log(x, y), fit_power(x, y));
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
    require_option("delta", delta);
    return int_or_null(quantile_d(read_dmins(ds, "ds"), delta));
  });
}

val js_estimate_bytes(val opts) {
  return guarded([&] {
    const Options o = read_options(opts, Call::Estimate);
    val r = val::object();
    r.set("construct", static_cast<double>(estimate_construct_bytes(o.spec.L, o.d)));
    const int k = row_count_bound(o.spec, o.triplets);
    r.set("mind", static_cast<double>(estimate_mind_bytes(o.spec.L, o.mind.step, k)));
    r.set("maxBytes", static_cast<double>(o.mind.max_bytes));
    return r;
  });
}

// The schema document (core/schema_doc.cpp): JSON text, parsed by web/lib/attnx.js schema().
std::string js_schema_json() { return schema_json(); }

std::string js_version() { return ATTNX_VERSION; }
std::string js_flavour() { return ATTNX_FLAVOUR; }
std::string js_gram_kernel() { return gram_kernel_name(); }

}  // namespace

EMSCRIPTEN_BINDINGS(attnx) {
  emscripten::function("version", &js_version);
  emscripten::function("flavour", &js_flavour);
  emscripten::function("gramKernel", &js_gram_kernel);
  emscripten::function("schemaJson", &js_schema_json);
  emscripten::class_<GramLadder>("GramLadder")
      .constructor<>()
      .function("rungs", &GramLadder::rungs)
      .function("columnsAdded", &GramLadder::columns_added);
  emscripten::function("constructWith", &js_construct_with);
  emscripten::function("precision", &js_precision);
  emscripten::function("minD", &js_min_d);
  emscripten::function("sweepPoint", &js_sweep_point);
  emscripten::function("fits", &js_fits);
  emscripten::function("median", &js_median);
  emscripten::function("quantile", &js_quantile);
  emscripten::function("estimateBytes", &js_estimate_bytes);
}
