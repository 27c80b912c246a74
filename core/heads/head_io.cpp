// attnx core: a head's description and a survey as text (see head_survey.hpp). One writer for
// the CLI and the page, so their files are the same bytes.
#include <attnx/head_survey.hpp>

#include <attnx/construction.hpp>
#include <attnx/pattern_io.hpp>

namespace attnx {

namespace {

void write_archetype(JsonWriter& w, const Archetype& a) {
  w.begin_object();
  w.field("kind", a.kind);
  w.field("code", a.code);
  w.field("label", a.label);
  w.field("share", a.share);
  w.field("matches", a.matches);
  if (a.kind == "diagonal") w.field("offset", a.offset);
  if (a.kind == "sink") {
    w.key("columns").begin_array(true);
    for (int c : a.columns) w.value(c);
    w.end_array();
  }
  if (a.kind == "window") {
    w.field("offset_lo", a.offset_lo);
    w.field("offset_hi", a.offset_hi);
    w.field("width", a.cells);
  }
  w.end_object();
}

void write_grid(JsonWriter& w, const ConstructionKind& construction) {
  const MinDOptions g = survey_grid(construction, 0);
  w.key(construction.info.name).begin_object(true);
  w.field("step", g.step);
  w.field("d_max", g.d_max);
  w.end_object();
}

std::string csv_d(int d) { return d > 0 ? std::to_string(d) : "NA"; }

}  // namespace

void write_head_description(JsonWriter& w, const HeadDescription& d) {
  w.begin_object();
  w.field("L", d.L);
  w.field("rule", d.rule);
  w.field("softmax", d.softmax);
  write_pattern_counts(w, d.k, d.max_col_count, d.in_class, d.nnz);
  w.key("kept_mass").begin_object(true);
  w.field("min", d.kept_mass_min);
  w.field("min_row", d.kept_mass_min_row);
  w.field("median", d.kept_mass_median);
  w.end_object();
  w.key("columns_over_k").begin_object();
  w.field("count", d.columns_over_k);
  w.key("columns").begin_array();
  for (const ColumnCount& c : d.top_columns_over_k) {
    w.begin_object(true);
    w.field("column", c.column);
    w.field("count", c.count);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.key("fallback_rows").begin_object(true);
  w.field("count", d.fallback_rows);
  w.key("rows").begin_array(true);
  for (int r : d.fallback_row_list) w.value(r);
  w.end_array();
  w.end_object();
  w.key("archetype");
  write_archetype(w, d.archetype);
  w.key("candidates").begin_array();
  for (const Archetype& a : d.candidates) write_archetype(w, a);
  w.end_array();
  w.end_object();
}

std::string survey_to_json(const SurveyRecord& r) {
  JsonWriter w;
  w.begin_object();
  w.field("format", "attnx-head-survey/1");
  w.field("version", ATTNX_VERSION);
  w.key("params").begin_object();
  w.field("file", r.file);
  w.key("shape").begin_array(true);
  for (int n : r.shape) w.value(n);
  w.end_array();
  w.field("rule", rule_text(r.options.head.rule));
  w.field("softmax", r.options.head.softmax);
  w.field("eps", r.options.tol.eps);
  w.field("tau", r.options.tol.tau);
  w.field("seed", r.options.seed);
  write_grid(w, jl_kind());
  write_grid(w, lp_kind());
  w.end_object();
  w.key("heads").begin_array();
  for (const SurveyRow& row : r.rows) {
    const HeadDescription& d = row.description;
    w.begin_object(true);
    w.field("layer", row.layer);
    w.field("head", row.head);
    write_pattern_counts(w, d.k, d.max_col_count, d.in_class, d.nnz);
    w.field("kept_mass_min", d.kept_mass_min);
    w.field("kept_mass_median", d.kept_mass_median);
    w.field("columns_over_k", d.columns_over_k);
    w.field("archetype", d.archetype.code);
    w.field("archetype_label", d.archetype.label);
    w.field("archetype_share", d.archetype.share);
    w.key("lp_d_min").value_or_null(row.lp_d_min);
    w.key("jl_d_min").value_or_null(row.jl_d_min);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.finish();
}

std::string survey_to_csv(const SurveyRecord& r) {
  std::string o =
      "layer,head,k,max_col_count,in_class,nnz,kept_mass_min,kept_mass_median,columns_over_k,archetype,"
      "archetype_share,lp_d_min,jl_d_min\n";
  for (const SurveyRow& row : r.rows) {
    const HeadDescription& d = row.description;
    o += std::to_string(row.layer) + "," + std::to_string(row.head) + "," + std::to_string(d.k) + "," +
         std::to_string(d.max_col_count) + "," + (d.in_class ? "true" : "false") + "," + std::to_string(d.nnz) +
         "," + json_number(d.kept_mass_min) + "," + json_number(d.kept_mass_median) + "," +
         std::to_string(d.columns_over_k) + "," + d.archetype.code + "," + json_number(d.archetype.share) + "," +
         csv_d(row.lp_d_min) + "," + csv_d(row.jl_d_min) + "\n";
  }
  return o;
}

}  // namespace attnx
