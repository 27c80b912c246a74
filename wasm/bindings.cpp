// attnx wasm: embind registrations of the module's calls. Each hands the caller's JS values to a
// core call (calls.hpp, calls_io.hpp) as JsonValue and returns its record (records.cpp), value or
// text; `guarded` turns every C++ exception into a RETURNED JS Error (js_value.hpp), which the
// JS API (web/lib/attnx.js) throws.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <attnx/calls.hpp>
#include <attnx/calls_io.hpp>
#include <attnx/gram.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/schema_doc.hpp>

#include "js_value.hpp"

using emscripten::val;
using namespace attnx;
using namespace attnx::wasm;

namespace {

// The JS value of a core call's result: a registered record, a JsonValue or a text.
val out(const JsonValue& v) { return to_js(v); }
val out(const std::string& text) { return val(text); }
template <class T>
val out(const T& r) {
  return record(r);
}

// Core call F of caller's values, or of options and a progress callback, as a JS function.
template <auto F, class... V>
val call(V... a) {
  return guarded([&] { return out(F(from_js(a)...)); });
}
template <auto F>
val call_with_progress(val opts, val on_progress) {
  return guarded([&] { return out(F(from_js(opts), js_progress(on_progress))); });
}

// A call its progress callback stopped: { params, cancelled: true } and nothing else.
struct Stopped {
  const JsonValue* params;
};

// construct with the caller's Gram ladder (one per JS API instance, see web/lib/attnx.js).
val js_construct_with(val opts, val on_progress, GramLadder& ladder) {
  return guarded([&] {
    const ConstructCall c = construct_call(from_js(opts), js_progress(on_progress), ladder);
    return c.cancelled ? record(Stopped{&c.params}) : record(c);
  });
}

// The schema document (core/schema_doc.cpp): JSON text, parsed by web/lib/attnx.js schema().
std::string js_schema_json() { return schema_json(); }

}  // namespace

EMSCRIPTEN_BINDINGS(attnx) {
  emscripten::function("version", +[]() -> std::string { return ATTNX_VERSION; });
  emscripten::function("flavour", +[]() -> std::string { return ATTNX_FLAVOUR; });
  emscripten::function("gramKernel", +[]() -> std::string { return gram_kernel_name(); });
  emscripten::function("schemaJson", &js_schema_json);
  emscripten::class_<GramLadder>("GramLadder")
      .constructor<>()
      .function("rungs", &GramLadder::rungs)
      .function("columnsAdded", &GramLadder::columns_added);
  Record<Stopped>("Stopped")
      .get("params", [](const Stopped& s) { return to_js(*s.params); })
      .get("cancelled", [](const Stopped&) { return true; });
  emscripten::function("constructWith", &js_construct_with);
  emscripten::function("precision", &call<&precision_call, val>);
  emscripten::function("minD", &call_with_progress<&min_d_call>);
  emscripten::function("sweepPoint", &call_with_progress<&sweep_point_call>);
  emscripten::function("fits", &call<&fits_call, val, val>);
  emscripten::function("median", &call<&median_call, val>);
  emscripten::function("quantile", &call<&quantile_call, val, val>);
  emscripten::function("estimateBytes", &call<&estimate_call, val>);
  emscripten::function("parsePattern", &call<&parse_pattern_call, val, val>);
  emscripten::function("formatPattern", &call<&format_pattern_call, val, val>);
  emscripten::function("formatSweep", &call<&format_sweep_call, val, val>);
  emscripten::function("parseSweep", &call<&parse_sweep_call, val>);
  emscripten::function("summariseSweep", &call<&summarise_sweep_call, val>);
}
