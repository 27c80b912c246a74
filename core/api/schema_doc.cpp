// attnx core: the schema document (schema_doc.hpp) written from the core's tables.
#include <attnx/schema_doc.hpp>

#include <string>
#include <vector>

#include <attnx/bounds.hpp>
#include <attnx/construction.hpp>
#include <attnx/json.hpp>
#include <attnx/memory.hpp>
#include <attnx/metrics_info.hpp>
#include <attnx/number_grammar.hpp>
#include <attnx/pattern.hpp>
#include <attnx/schema.hpp>
#include <attnx/sparsify.hpp>
#include <attnx/views.hpp>

namespace attnx {

namespace {

const char* kind_name(OptionKind k) {
  switch (k) {
    case OptionKind::Int: return "int";
    case OptionKind::Real: return "real";
    case OptionKind::Choice: return "choice";
    case OptionKind::IntList: return "intList";
    case OptionKind::RealList: return "realList";
    case OptionKind::Text: return "text";
    case OptionKind::Switch: return "switch";
  }
  return "int";
}

// A value given as link text, written as the JSON value the option holds: a number for int and
// real options, a boolean for switches ("true"), a string otherwise.
void typed_value(JsonWriter& w, const OptionInfo& o, const std::string& text) {
  if (o.kind == OptionKind::Int || o.kind == OptionKind::Real) w.value(std::stod(text));
  else if (o.kind == OptionKind::Switch) w.value(text == "true");
  else w.value(text);
}

void strings(JsonWriter& w, const std::vector<std::string>& v) {
  w.begin_array(true);
  for (const auto& s : v) w.value(s);
  w.end_array();
}

void write_option(JsonWriter& w, const OptionInfo& o) {
  w.begin_object();
  w.field("name", o.name).field("flag", o.flag).field("json", o.json);
  w.field("kind", kind_name(o.kind)).field("min", o.min).field("max", o.max);
  w.field("minOpen", o.min_open).field("maxOpen", o.max_open);
  if (!o.min_expr.empty()) w.field("minExpr", o.min_expr);
  if (!o.max_expr.empty()) w.field("maxExpr", o.max_expr);
  w.key("default");
  typed_value(w, o, context_default("core", o.name));
  if (o.kind == OptionKind::Choice) w.key("choices"), strings(w, o.choices);
  if (o.kind == OptionKind::IntList || o.kind == OptionKind::RealList) w.field("maxCount", o.max_count);
  if (o.kind == OptionKind::Text) w.field("grammar", o.grammar);
  w.field("rangeText", option_range_text(o)).field("label", o.label).field("help", o.help);
  w.field("group", o.group).field("unit", o.unit);
  w.key("applies").begin_array();
  for (const auto& r : o.applies) {
    w.begin_object(true).field("option", r.option).key("values");
    strings(w, r.values);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_families(JsonWriter& w) {
  w.key("families").begin_array();
  for (const auto& f : pattern_families()) {
    w.begin_object();
    w.field("name", f.name).field("label", f.label).field("scalesWithL", f.scales_with_L);
    w.field("inClass", f.in_class).field("generated", f.generated);
    w.key("params").begin_array();
    for (const auto& p : f.params) {
      w.begin_object(true).field("name", p.name).field("label", p.label);
      w.field("min", p.min).field("max", p.max_expr).field("default", p.def).end_object();
    }
    w.end_array().end_object();
  }
  w.end_array();
  std::vector<std::string> names;
  w.key("weightings").begin_array();
  for (const auto& x : weights_infos()) {
    names.push_back(x.name);
    w.begin_object(true).field("name", x.name).field("label", x.label).key("params");
    strings(w, x.params);
    w.end_object();
  }
  w.end_array();
  w.key("weights");
  strings(w, names);
}

void write_constructions(JsonWriter& w) {
  w.key("constructions").begin_array();
  for (const auto& c : construction_infos()) {
    w.begin_object();
    w.field("name", c.name).field("label", c.label).field("usesD", c.uses_d);
    w.field("searchable", c.searchable).field("dMax", c.d_max).field("explorerD", c.explorer_d);
    w.field("searchStep", c.search_step).key("params");
    strings(w, c.params);
    w.field("bisect", c.bisect).field("dimension", c.dimension);
    w.field("precisionAlways", c.precision_always).key("rowReport");
    strings(w, c.row_report);
    w.field("rowQuery", c.row_query).field("sliced", c.sliced).field("summary", c.summary);
    w.field("bitsFloor", c.bits_floor).field("search", c.search).field("mark", c.kind_of_mark);
    w.field("compared", c.compared).field("frontierParam", c.frontier_param)
        .field("frontierKey", c.frontier_param.empty() ? std::string() : option_info(c.frontier_param).json);
    w.key("report").begin_array(true);
    for (const ReportField& f : c.report) {
      const char* kind = f.kind == ReportField::Kind::Flag ? "flag" : f.kind == ReportField::Kind::Count ? "count" : "real";
      w.begin_object(true).field("key", f.api).field("kind", kind).field("ok", f.ok).end_object();
    }
    w.end_array();
    w.key("halves").begin_array(true);
    w.begin_array(true).value(c.queries_title).value(c.queries_sub).end_array();
    w.begin_array(true).value(c.keys_title).value(c.keys_sub).end_array();
    w.end_array();
    w.end_object();
  }
  w.end_array();
}

void write_metrics(JsonWriter& w) {
  w.key("metrics").begin_object();
  for (const auto& m : metric_infos()) {
    w.key(m.key).begin_object(true);
    w.field("symbol", m.symbol).field("label", m.label).field("help", m.help).end_object();
  }
  w.end_object();
}

// { [key]: { symbol, label, help } } of SPEC §9's bounds (bounds.hpp), keyed as the CLI and the
// sweep files name them.
void write_bounds(JsonWriter& w) {
  w.key("bounds").begin_object();
  for (const auto& b : bound_infos()) {
    w.key(b.key).begin_object(true);
    w.field("symbol", b.symbol).field("label", b.label).field("help", b.help).end_object();
  }
  w.end_object();
}

// { defaults: {[name]: value}, max: {[name]: number} } of a context ("explorer", "lab", ...).
void write_context(JsonWriter& w, const std::string& ctx) {
  w.begin_object().key("defaults").begin_object();
  for (const auto& o : option_table()) {
    w.key(o.name);
    typed_value(w, o, context_default(ctx, o.name));
  }
  w.end_object().key("max").begin_object();
  for (const auto& o : option_table()) w.field(o.name, context_max(ctx, o.name));
  w.end_object().end_object();
}

void write_links(JsonWriter& w) {
  w.key("linkDefaults").begin_object();
  for (int v = 0; v <= kLinkVersion; ++v) {
    w.key(std::to_string(v)).begin_object();
    for (const char* page : {"explorer", "lab"}) {
      w.key(page).begin_object();
      for (const auto& e : link_defaults(v, page)) {
        w.key(e.option);
        typed_value(w, option_info(e.option), e.value);
      }
      w.end_object();
    }
    w.end_object();
  }
  w.end_object();
  w.key("linkCompute").begin_object();
  for (const char* page : {"explorer", "lab"}) {
    w.key(page);
    strings(w, link_compute_options(page));
  }
  w.end_object();
}

void write_presets(JsonWriter& w) {
  w.key("presets").begin_object();
  for (const auto& p : presets()) {
    w.key(p.name).begin_object().field("label", p.label).key("values").begin_object();
    for (const auto& e : p.values) {
      w.key(e.option);
      typed_value(w, option_info(e.option), e.value);
    }
    w.end_object().key("band");
    if (p.band_hi > 0)
      w.begin_object(true).field("lo", p.band_lo).field("hi", p.band_hi).field("text", p.band_text).end_object();
    else
      w.null();
    w.end_object();
  }
  w.end_object();
  w.key("explorerPresets").begin_array();
  for (const auto& p : explorer_presets()) {
    w.begin_object().field("name", p.name).field("label", p.label).key("values").begin_object(true);
    for (const auto& e : p.values) {
      w.key(e.option);
      typed_value(w, option_info(e.option), e.value);
    }
    w.end_object().field("dMin", p.d_min).end_object();
  }
  w.end_array();
  w.field("explorerWelcome", kExplorerWelcome);
}

// API version 1's `limits` and `defaults` (the wasm context), kept for existing callers.
void write_legacy(JsonWriter& w) {
  w.key("limits").begin_object();
  for (const auto& o : option_table()) {
    if (o.kind == OptionKind::Choice || o.kind == OptionKind::Text || o.kind == OptionKind::Switch) continue;
    w.key(o.name).begin_object(true).field("min", o.min).field("max", context_max("wasm", o.name));
    if (o.min_open) w.field("minOpen", true);
    if (o.max_open) w.field("maxOpen", true);
    w.end_object();
  }
  w.end_object().key("defaults").begin_object();
  for (const auto& o : option_table()) {
    w.key(o.name);
    typed_value(w, o, context_default("wasm", o.name));
  }
  w.end_object();
}

// The number grammar of links, attributes and flags (number_grammar.hpp): its three patterns
// and the notes that say why a number-like text does not fit.
void write_number_grammar(JsonWriter& w) {
  w.key("numberGrammar").begin_object().field("integer", kIntegerPattern).field("real", kRealPattern);
  w.field("integerList", kIntegerListPattern).field("realList", kRealListPattern).key("notes").begin_array();
  for (const auto& n : number_text_notes()) w.begin_object(true).field("pattern", n.pattern).field("note", n.note).end_object();
  w.end_array().end_object();
}

// The sparsification rules' kinds (sparsify.hpp rule_kinds): name, letter, integer or not, range.
void write_rule_kinds(JsonWriter& w) {
  w.key("ruleKinds").begin_array();
  for (const auto& k : rule_kinds()) {
    w.begin_object(true).field("name", k.name).field("letter", k.letter).field("integer", k.integer).field("min", k.min);
    w.field("minOpen", k.min_open);
    if (k.max_is_L) w.field("max", "L");
    else w.field("max", k.max);
    w.end_object();
  }
  w.end_array();
}

}  // namespace

std::string schema_json() {
  JsonWriter w;
  w.begin_object().field("linkVersion", kLinkVersion);
  write_families(w);
  w.key("options").begin_object();
  for (const auto& o : option_table()) {
    w.key(o.name);
    write_option(w, o);
  }
  w.end_object().key("contexts").begin_object();
  for (const char* c : {"explorer", "lab", "wasm", "cli"}) {
    w.key(c);
    write_context(w, c);
  }
  w.end_object();
  write_links(w);
  write_number_grammar(w);
  write_rule_kinds(w);
  w.key("pageLimits").begin_object(true).field("maxL", kBrowserMaxL);
  w.field("maxNnzLink", kMaxNnzLink).field("maxDrawL", kMaxDrawL);
  w.field("viewMinSpan", kMinViewSpan).end_object();  // views.hpp: a zoom window's fewest rows and columns
  write_presets(w);
  write_constructions(w);
  write_metrics(w);
  write_bounds(w);
  write_legacy(w);
  w.end_object();
  return w.finish();
}

}  // namespace attnx
