// attnx core: the frontier's texts (see frontier.hpp): its JSON and CSV, its shards' tasks, the
// part files of a sharded run and their merge. A part carries its options as JSON; a part is
// read back field by field and refused, naming the field, when anything is not what a run writes.
#include <attnx/frontier.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/errors.hpp>
#include <attnx/json.hpp>
#include <attnx/number_grammar.hpp>
#include <attnx/schema.hpp>

#include "frontier/frontier_options.hpp"

namespace attnx {

namespace {

void write_list(JsonWriter& w, const char* key, const std::vector<double>& v) {
  w.key(key).begin_array(true);
  for (double x : v) w.value(x);
  w.end_array();
}

}  // namespace

// The options as a part carries them and the output's "params" print them (CLI keys).
void write_frontier_options(JsonWriter& w, const FrontierOptions& o) {
  w.begin_object();
  const PatternSpec& s = o.pattern;
  w.field("pattern", family_name(s.family));
  w.field("L", s.L);
  for (const FamilyInfo& f : pattern_families())
    if (f.name == family_name(s.family))
      for (const ParamInfo& q : f.params) w.field(q.name, param_value(s, q.name));
  w.field("weights", weights_name(s.weights));
  if (s.weights == Weights::Random) w.field("w_min", s.w_min);
  if (s.weights == Weights::Decaying) w.field("decay", s.decay);
  w.field("eps", o.tol.eps).field("tau", o.tol.tau).field("delta", o.tol.delta);
  w.key("constructions").begin_array(true);
  for (const std::string& c : o.constructions) w.value(c);
  w.end_array();
  write_list(w, "scales", o.scales);
  write_list(w, "boxes", o.boxes);
  w.field("trials", o.trials);
  w.field("seed", std::to_string(o.seed));
  w.field("max_bytes", std::to_string(o.max_bytes));
  w.end_object();
}

namespace {

void write_point(JsonWriter& w, const FrontierPoint& p) {
  w.begin_object();
  w.field("construction", p.construction).field("mark", p.mark);
  const std::string& param = construction_kind(p.construction).info.frontier_param;
  if (!param.empty()) w.field(option_info(param).json, p.setting);
  w.key("d_mins").begin_array(true);
  for (const FrontierTrial& t : p.trials) w.value_or_null(t.d_min);
  w.end_array();
  w.key("median").real_or_null(p.median);
  w.key("quantile").value_or_null(p.quantile);
  w.key("min").value_or_null(p.lo);
  w.key("max").value_or_null(p.hi);
  w.field("not_reached", p.not_reached);
  w.key("logit_scale").real_or_null(p.scale_median);
  w.key("d_lambda").real_or_null(p.d_lambda);
  w.key("logit_scales").begin_array(true);
  for (const FrontierTrial& t : p.trials) w.real_or_null(t.logit_scale);
  w.end_array();
  w.end_object();
}

std::string csv_value(double v) { return v < 0 || !std::isfinite(v) ? "NA" : json_number(v); }

}  // namespace

std::string frontier_json(const FrontierOptions& opt, const FrontierResult& r) {
  JsonWriter w;
  w.begin_object();
  w.field("command", "frontier");
  w.field("version", ATTNX_VERSION);
  w.key("params");
  write_frontier_options(w, opt);
  w.field("column_supports", r.column_supports);
  w.key("floor").begin_array();  // SPEC 9.2 at each of opt's budgets: a proof
  for (std::size_t n = 0; n < opt.scales.size(); ++n) {
    w.begin_object(true).field("scale", opt.scales[n]).field("mark", "proof");
    w.key("d_lambda").real_or_null(r.floor[n]);
    w.end_object();
  }
  w.end_array();
  w.key("points").begin_array();
  for (const FrontierPoint& p : r.points) write_point(w, p);
  w.end_array();
  w.end_object();
  return w.finish();
}

std::string frontier_csv(const FrontierOptions& opt, const FrontierResult& r) {
  std::string out = "mark,construction,parameter,setting,trials,reached,median,quantile,min,max,logit_scale,d_lambda\n";
  for (std::size_t n = 0; n < opt.scales.size(); ++n)
    out += "proof,,scale," + json_number(opt.scales[n]) + ",,,,,,," + json_number(opt.scales[n]) + "," +
           csv_value(r.floor[n]) + "\n";
  for (const FrontierPoint& p : r.points) {
    const std::string& param = construction_kind(p.construction).info.frontier_param;
    out += p.mark + "," + p.construction + "," + (param.empty() ? "" : option_info(param).json) + "," +
           (param.empty() ? "" : json_number(p.setting)) + "," +
           std::to_string(p.trials.size()) + "," + std::to_string(p.trials.size() - std::size_t(p.not_reached)) + "," +
           csv_value(p.median) + "," + csv_value(p.quantile) + "," + csv_value(p.lo) + "," + csv_value(p.hi) + "," +
           csv_value(p.scale_median) + "," + csv_value(p.d_lambda) + "\n";
  }
  return out;
}

namespace {

// A task's cost for the shards' balance: its construction's search cost (ConstructionInfo) at L.
double task_cost(const FrontierOptions& opt, const FrontierTask& t) {
  const std::string& name = opt.constructions[static_cast<std::size_t>(t.construction)];
  return construction_kind(name).info.search_cost * double(opt.pattern.L) * double(opt.pattern.L);
}

}  // namespace

std::vector<int> frontier_shard_tasks(const FrontierOptions& opt, int index, int count) {
  const std::vector<FrontierTask> tasks = frontier_tasks(opt);
  if (count < 1 || count > static_cast<int>(tasks.size()) || index < 0 || index >= count)
    fail("shard", "shard must be i/n with 0 <= i < n <= " + std::to_string(tasks.size()) + " (the frontier's tasks; got " +
                      std::to_string(index) + "/" + std::to_string(count) + ")");
  std::vector<int> order(tasks.size());
  for (std::size_t n = 0; n < order.size(); ++n) order[n] = static_cast<int>(n);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return task_cost(opt, tasks[a]) > task_cost(opt, tasks[b]); });
  std::vector<double> load(static_cast<std::size_t>(count), 0.0);
  std::vector<int> mine;
  for (int n : order) {
    const int s = int(std::min_element(load.begin(), load.end()) - load.begin());
    load[s] += task_cost(opt, tasks[n]);
    if (s == index) mine.push_back(n);
  }
  std::sort(mine.begin(), mine.end());
  return mine;
}

constexpr const char* kFrontierPartFormat = "attnx-frontier-part/1";

std::string frontier_part_json(const FrontierPart& part) {
  JsonWriter w;
  w.begin_object();
  w.field("format", kFrontierPartFormat);
  w.field("about", "one shard of an attnx frontier; `attnx merge` joins all shards into the frontier's output");
  w.key("shard").begin_object(true).field("index", part.index).field("count", part.count).end_object();
  w.key("options");
  write_frontier_options(w, part.opt);
  w.key("results").begin_array();
  for (std::size_t n = 0; n < part.tasks.size(); ++n) {
    const FrontierTrial& t = part.results[n];
    w.begin_object(true).field("task", part.tasks[n]);
    w.key("d_min").value_or_null(t.d_min);
    w.key("logit_scale").real_or_null(t.logit_scale);
    w.key("max_abs_logit").real_or_null(t.max_abs_logit);
    w.field("column_supports", t.column_supports);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.finish();
}

bool is_frontier_part(const std::string& text) {
  // Its "format" member in any layout; text that is no JSON (a damaged part) by the format's name
  // anywhere in it, so that the frontier's reader says what is wrong with it.
  try {
    const JsonValue doc = json_parse(text);
    const JsonValue* f = doc.type == JsonValue::Type::Object ? doc.find("format") : nullptr;
    return f && f->type == JsonValue::Type::String && f->str == kFrontierPartFormat;
  } catch (const std::exception&) {
    return text.find(kFrontierPartFormat) != std::string::npos;
  }
}

}  // namespace attnx
