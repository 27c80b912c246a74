// attnx wasm: the core's option table and pattern families as one JS object (see convert.hpp).
#include <cmath>
#include <string>

#include <attnx/memory.hpp>
#include <attnx/pattern.hpp>
#include <attnx/build_inputs.hpp>
#include <attnx/schema.hpp>

#include "convert.hpp"

namespace attnx::wasm {

namespace {

const char* kind_name(OptionKind k) {
  switch (k) {
    case OptionKind::Int: return "int";
    case OptionKind::Real: return "real";
    case OptionKind::Choice: return "choice";
    case OptionKind::IntList: return "intList";
  }
  return "int";
}

// A default as the JS value the option holds: numbers for int/real, text otherwise.
val typed_value(const OptionInfo& o, const std::string& text) {
  if (o.kind == OptionKind::Int || o.kind == OptionKind::Real) return val(std::stod(text));
  return val(text);
}

val string_array(const std::vector<std::string>& v) {
  val a = val::array();
  for (std::size_t n = 0; n < v.size(); ++n) a.set(n, v[n]);
  return a;
}

val option_to_js(const OptionInfo& o) {
  val x = val::object();
  x.set("name", o.name);
  x.set("flag", o.flag);
  x.set("json", o.json);  // key in the CLI's JSON output
  x.set("kind", std::string(kind_name(o.kind)));
  x.set("min", o.min);
  x.set("max", o.max);  // Infinity where unbounded
  x.set("minOpen", o.min_open);
  x.set("maxOpen", o.max_open);
  if (!o.min_expr.empty()) x.set("minExpr", o.min_expr);
  if (!o.max_expr.empty()) x.set("maxExpr", o.max_expr);
  x.set("default", typed_value(o, context_default("core", o.name)));
  if (o.kind == OptionKind::Choice) x.set("choices", string_array(o.choices));
  if (o.kind == OptionKind::IntList) x.set("maxCount", o.max_count);
  x.set("rangeText", option_range_text(o));  // "a number in [1e-06, 100]": the core's words
  x.set("label", o.label);
  x.set("help", o.help);
  x.set("group", o.group);
  return x;
}

val families_to_js() {
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
      x.set("max", p.max_expr);
      x.set("default", static_cast<double>(p.def));
      ps.set(q++, x);
    }
    o.set("params", ps);
    fams.set(n++, o);
  }
  return fams;
}

val context_to_js(const std::string& ctx) {
  val defs = val::object(), max = val::object();
  for (const auto& o : option_table()) {
    defs.set(o.name, typed_value(o, context_default(ctx, o.name)));
    max.set(o.name, context_max(ctx, o.name));
  }
  val c = val::object();
  c.set("defaults", defs);
  c.set("max", max);
  return c;
}

val link_tables_to_js() {
  val all = val::object();
  for (int v = 0; v <= kLinkVersion; ++v) {
    val byPage = val::object();
    for (const char* page : {"explorer", "lab"}) {
      val d = val::object();
      for (const auto& e : link_defaults(v, page))
        d.set(e.option, typed_value(option_info(e.option), e.value));
      byPage.set(page, d);
    }
    all.set(std::to_string(v), byPage);
  }
  return all;
}

// { [name]: { label, values: {[option]: value}, band: { lo, hi, text } | null } }
val presets_to_js() {
  val all = val::object();
  for (const auto& p : presets()) {
    val values = val::object();
    for (const auto& e : p.values) values.set(e.option, typed_value(option_info(e.option), e.value));
    val o = val::object();
    o.set("label", p.label);
    o.set("values", values);
    if (p.band_hi > 0) {
      val band = val::object();
      band.set("lo", p.band_lo);
      band.set("hi", p.band_hi);
      band.set("text", p.band_text);
      o.set("band", band);
    } else {
      o.set("band", val::null());
    }
    all.set(p.name, o);
  }
  return all;
}

// [{ name, label, usesD, searchable, dMax, explorerD, searchStep }] (build_inputs.hpp), in the option's order.
val constructions_to_js() {
  val all = val::array();
  int n = 0;
  for (const auto& c : construction_infos()) {
    val o = val::object();
    o.set("name", c.name);
    o.set("label", c.label);
    o.set("usesD", c.uses_d);
    o.set("searchable", c.searchable);
    o.set("dMax", c.d_max);
    o.set("explorerD", c.explorer_d);
    o.set("searchStep", c.search_step);
    all.set(n++, o);
  }
  return all;
}

// API version 1's `limits` and `defaults` (wasm context), kept for existing callers.
void set_legacy_fields(val& r) {
  val lim = val::object(), def = val::object();
  for (const auto& o : option_table()) {
    if (o.kind == OptionKind::Choice) {
      def.set(o.name, val(context_default("wasm", o.name)));
      continue;
    }
    val x = val::object();
    x.set("min", o.min);
    x.set("max", context_max("wasm", o.name));
    if (o.min_open) x.set("minOpen", true);
    if (o.max_open) x.set("maxOpen", true);
    lim.set(o.name, x);
    def.set(o.name, typed_value(o, context_default("wasm", o.name)));
  }
  r.set("limits", lim);
  r.set("defaults", def);
}

}  // namespace

val schema_to_js() {
  val r = val::object();
  r.set("linkVersion", kLinkVersion);
  r.set("families", families_to_js());
  std::vector<std::string> weights;
  for (Weights w : {Weights::Uniform, Weights::Random, Weights::Decaying})
    weights.push_back(weights_name(w));
  r.set("weights", string_array(weights));
  val opts = val::object();
  for (const auto& o : option_table()) opts.set(o.name, option_to_js(o));
  r.set("options", opts);
  val ctx = val::object();
  for (const char* c : {"explorer", "lab", "wasm", "cli"}) ctx.set(c, context_to_js(c));
  r.set("contexts", ctx);
  r.set("linkDefaults", link_tables_to_js());
  val compute = val::object();
  compute.set("explorer", string_array(link_compute_options("explorer")));
  compute.set("lab", string_array(link_compute_options("lab")));
  r.set("linkCompute", compute);
  val page = val::object();
  page.set("maxL", kBrowserMaxL);
  page.set("maxNnzLink", kMaxNnzLink);
  page.set("maxDrawL", kMaxDrawL);
  r.set("pageLimits", page);
  r.set("presets", presets_to_js());
  r.set("constructions", constructions_to_js());
  set_legacy_fields(r);
  return r;
}

}  // namespace attnx::wasm
