// attnx wasm: embind registrations of the module's calls. Each hands the caller's JS values to a
// core call (calls*.hpp) and returns its record (records.cpp), value or text; `guarded` turns
// every C++ exception into a RETURNED JS Error (js_value.hpp), which the JS API
// (web/lib/attnx.js) throws.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <attnx/calls.hpp>
#include <attnx/calls_bands.hpp>
#include <attnx/calls_frontier.hpp>
#include <attnx/calls_heads.hpp>
#include <attnx/calls_io.hpp>
#include <attnx/calls_lab.hpp>
#include <attnx/gram.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/schema_doc.hpp>
#include <attnx/views.hpp>

#include "js_value.hpp"

using emscripten::val;
using namespace attnx;
using namespace attnx::wasm;

namespace {

// The JS value of a core call's result: a registered record or a list of them, a JsonValue, a
// text or a number.
val out(const JsonValue& v) { return to_js(v); }
val out(const std::string& text) { return val(text); }
val out(double x) { return val(x); }
template <class T>
val out(const std::vector<T>& v) {
  return list(v);
}
template <class T>
val out(const T& r) {
  return record(r);
}

// A JS argument as the core call's parameter: a JsonValue (generic), bytes (std::string: a
// Uint8Array copied once) or a progress callback.
template <class P>
P arg(const val& v) {
  if constexpr (std::is_same_v<P, JsonValue>) return from_js(v);
  else if constexpr (std::is_same_v<P, std::string>) return bytes_from_js(v);
  else return js_progress(v);
}

// Core call F as a JS function of as many arguments as F has parameters: js<&F>.
template <class P>
using JsArg = val;
template <class F>
struct Js;
template <class R, class... P>
struct Js<R (*)(P...)> {
  template <auto F>
  static val call(JsArg<P>... a) {
    return guarded([&] { return out(F(arg<std::decay_t<P>>(a)...)); });
  }
};
template <auto F>
constexpr auto js = &Js<decltype(F)>::template call<F>;

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

// The band calls of calls_bands.hpp: the ladder's own ones and a helper's.
val js_gram_plan(val opts, val workers, GramLadder& ladder) {
  return guarded([&] { return record(gram_plan_call(from_js(opts), from_js(workers), ladder)); });
}
val js_gram_band_start(GramLadder& ladder, val band) {
  return guarded([&] { return typed_array(gram_band_start_call(ladder, from_js(band))); });
}
// A helper's band, kept in the module (a HeldGramBand JS must delete) so that JS copies G at d out
// first and the rungs only when it is ready for them; a stopped sum is its record { cancelled }.
val js_gram_band(val opts, val band, val start, val on_progress) {
  return guarded([&] {
    GramBand b = gram_band_call(from_js(opts), from_js(band), floats_from_js(start, "start"),
                                js_progress(on_progress));
    return b.cancelled ? record(b) : val(std::move(b));
  });
}
val js_gram_home_band(GramLadder& ladder, val band, val on_progress) {
  return guarded([&] { return gram_home_band_call(ladder, from_js(band), js_progress(on_progress)); });
}
val js_gram_adopt(GramLadder& ladder, val band, val at_d, val rungs) {
  return guarded([&] {
    const JoinedFloats in(at_d, "atD", rungs, "rungs");
    gram_adopt_call(ladder, from_js(band), in.a_size, in.b_size,
                    [&](float* dst, std::size_t off, std::size_t n) { in.read(dst, off, n); });
    return true;
  });
}
val js_gram_adopt_rungs(GramLadder& ladder, val band, val rungs) {
  return guarded([&] {
    const JoinedFloats in(rungs, "rungs", val::null(), "");
    return gram_adopt_rungs_call(ladder, from_js(band), in.a_size,
                                 [&](float* dst, std::size_t off, std::size_t n) { in.read(dst, off, n); });
  });
}
val js_gram_finish(GramLadder& ladder) {
  return guarded([&] { return gram_finish_call(ladder); });
}
val js_gram_ahead(val opts, GramLadder& ladder) {
  return guarded([&] { return gram_ahead_call(from_js(opts), ladder); });
}

// The frontier's calls (SPEC §10.2): its tasks, one trial, the result, its CSV, the floors.
void register_frontier_calls() {
  emscripten::function("frontierTasks", js<&frontier_tasks_call>);
  emscripten::function("frontierTrial", js<&frontier_trial_call>);
  emscripten::function("frontierResult", js<&frontier_result_call>);
  emscripten::function("frontierCsv", js<&frontier_csv_call>);
  emscripten::function("packingFloors", js<&packing_floors_call>);
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnx) {
  emscripten::function("version", +[]() -> std::string { return ATTNX_VERSION; });
  emscripten::function("flavour", +[]() -> std::string { return ATTNX_FLAVOUR; });
  emscripten::function("gramKernel", +[]() -> std::string { return gram_kernel_name(); });
  emscripten::function("schemaJson", &schema_json);  // parsed by web/lib/attnx.js schema()
  emscripten::class_<GramBand>("HeldGramBand")
      .function("atD", +[](const GramBand& b) { return typed_array(b.at_d); })
      .function("rungs", +[](const GramBand& b) { return typed_array(b.rungs); });
  emscripten::class_<GramLadder>("GramLadder")
      .constructor<>()
      .function("rungs", &GramLadder::rungs)
      .function("columnsAdded", &GramLadder::columns_added)
      .function("releaseAheadBuffers", &GramLadder::release_ahead_buffers);
  Record<Stopped>("Stopped")
      .get("params", [](const Stopped& s) { return to_js(*s.params); })
      .get("cancelled", [](const Stopped&) { return true; });
  emscripten::function("constructWith", &js_construct_with);
  emscripten::function("gramPlan", &js_gram_plan);
  emscripten::function("gramBandStart", &js_gram_band_start);
  emscripten::function("gramBand", &js_gram_band);
  emscripten::function("gramHomeBand", &js_gram_home_band);
  emscripten::function("gramAdopt", &js_gram_adopt);
  emscripten::function("gramAdoptRungs", &js_gram_adopt_rungs);
  emscripten::function("gramFinish", &js_gram_finish);
  emscripten::function("gramAhead", &js_gram_ahead);
  emscripten::function("precision", js<&precision_call>);
  emscripten::function("minD", js<&min_d_call>);
  emscripten::function("sweepPoint", js<&sweep_point_call>);
  register_frontier_calls();
  emscripten::function("fits", js<&fits_call>);
  emscripten::function("median", js<&median_call>);
  emscripten::function("quantile", js<&quantile_call>);
  emscripten::function("estimateBytes", js<&estimate_call>);
  emscripten::function("parsePattern", js<&parse_pattern_call>);
  emscripten::function("formatPattern", js<&format_pattern_call>);
  emscripten::function("viewWindow", js<&view_window_call>);
  emscripten::function("formatSweep", js<&format_sweep_call>);
  emscripten::function("parseSweep", js<&parse_sweep_call>);
  emscripten::function("summariseSweep", js<&summarise_sweep_call>);
  emscripten::function("bounds", js<&bounds_call>);
  emscripten::function("planSweep", js<&plan_sweep_call>);
  emscripten::function("taskWork", js<&task_work_call>);
  emscripten::function("sweepProgress", js<&sweep_progress_call>);
  emscripten::function("fitCost", js<&fit_cost_call>);
  emscripten::function("predictTrialSeconds", js<&predict_trial_seconds_call>);
  emscripten::function("mergeSweepParts", js<&merge_sweep_parts_call>);
  emscripten::function("dDistribution", js<&d_distribution_call>);
  emscripten::function("fitReading", js<&fit_reading_call>);
  emscripten::function("bandReading", js<&band_reading_call>);
  emscripten::function("lengthAxis", js<&length_axis_call>);
  emscripten::function("dAxis", js<&d_axis_call>);
  emscripten::function("successAxes", js<&success_axes_call>);
  emscripten::function("dimensionAxis", js<&dimension_axis_call>);
  emscripten::function("bitsAxis", js<&bits_axis_call>);
  emscripten::function("readAttention", js<&read_attention_call>);
  emscripten::function("importHead", js<&import_head_call>);
  emscripten::function("surveyHead", js<&survey_head_call>);
}
