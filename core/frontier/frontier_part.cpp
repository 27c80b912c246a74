// attnx core: the part files of a sharded frontier (see frontier.hpp): written by `attnx frontier
// --shard i/n`, read back field by field (a refusal names the JSON path: "results[3].d_min must be
// ..."), merged into the unsharded run's result, byte for byte.
#include <attnx/frontier.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <attnx/errors.hpp>
#include <attnx/head_survey.hpp>
#include <attnx/json.hpp>
#include <attnx/number_grammar.hpp>
#include <attnx/schema.hpp>
#include <attnx/sweep.hpp>

#include "frontier/frontier_options.hpp"

namespace attnx {

namespace {

using Type = JsonValue::Type;

[[noreturn]] void refuse(const std::string& message) { fail("part", message); }

std::string show(const JsonValue* v) {
  if (!v) return "nothing";
  if (v->type == Type::String) return json_escape(v->str.substr(0, 40));
  if (v->type == Type::Number) return json_number(v->num);
  return v->type == Type::Null ? "null" : v->type == Type::Bool ? (v->b ? "true" : "false") : "an array or object";
}

const JsonValue& member(const JsonValue& o, const std::string& path, const char* key) {
  const JsonValue* v = o.type == Type::Object ? o.find(key) : nullptr;
  if (!v) refuse(path + "." + key + " is missing");
  return *v;
}

double number(const JsonValue& o, const std::string& path, const char* key, double lo, double hi) {
  const JsonValue& v = member(o, path, key);
  if (v.type != Type::Number || !(v.num >= lo && v.num <= hi))
    refuse(path + "." + key + " must be a number from " + fmt_num(lo) + " to " + fmt_num(hi) + " (got " + show(&v) + ")");
  return v.num;
}

int integer(const JsonValue& o, const std::string& path, const char* key, int lo, int hi) {
  const double v = number(o, path, key, lo, hi);
  if (v != std::floor(v)) refuse(path + "." + key + " must be an integer (got " + json_number(v) + ")");
  return static_cast<int>(v);
}

std::uint64_t decimal(const JsonValue& o, const std::string& path, const char* key) {
  const JsonValue& v = member(o, path, key);
  long long x = 0;
  if (v.type != Type::String || !parse_integer_text(v.str, &x) || x < 0)
    refuse(path + "." + key + " must be a string of decimal digits, as attnx frontier --shard writes it (got " + show(&v) + ")");
  return static_cast<std::uint64_t>(x);
}

std::vector<double> numbers(const JsonValue& o, const char* key) {
  const JsonValue& v = member(o, "options", key);
  if (v.type != Type::Array) refuse(std::string("options.") + key + " must be an array of numbers");
  std::vector<double> out;
  for (const JsonValue& x : v.arr) {
    if (x.type != Type::Number) refuse(std::string("options.") + key + " must be an array of numbers (got " + show(&x) + ")");
    out.push_back(x.num);
  }
  return out;
}

std::string text(const JsonValue& o, const std::string& path, const char* key) {
  const JsonValue& v = member(o, path, key);
  if (v.type != Type::String) refuse(path + "." + key + " must be a string (got " + show(&v) + ")");
  return v.str;
}

PatternSpec read_pattern(const JsonValue& o) {
  PatternSpec s;
  s.family = parse_family(text(o, "options", "pattern"));
  s.L = integer(o, "options", "L", kMinL, kMaxL);
  int* fields[] = {&s.k, &s.w, &s.r, &s.block, &s.stride, &s.globals, &s.randoms};
  const char* names[] = {"k", "w", "r", "block", "stride", "globals", "randoms"};
  for (int n = 0; n < 7; ++n)
    if (o.find(names[n])) *fields[n] = integer(o, "options", names[n], 0, kMaxL);
  s.weights = parse_weights(text(o, "options", "weights"));
  if (o.find("w_min")) s.w_min = number(o, "options", "w_min", 0, 1);
  if (o.find("decay")) s.decay = number(o, "options", "decay", 0, 10);
  return s;
}

FrontierOptions read_options(const JsonValue& o) {
  FrontierOptions f;
  f.pattern = read_pattern(o);
  f.tol.eps = number(o, "options", "eps", -INFINITY, INFINITY);
  f.tol.tau = number(o, "options", "tau", -INFINITY, INFINITY);
  f.tol.delta = number(o, "options", "delta", -INFINITY, INFINITY);
  const JsonValue& cons = member(o, "options", "constructions");
  std::string list;
  for (const JsonValue& c : cons.type == Type::Array ? cons.arr : std::vector<JsonValue>{})
    list += (list.empty() ? "" : ",") + (c.type == Type::String ? c.str : std::string("?"));
  f.constructions = parse_constructions(list);
  f.scales = numbers(o, "scales");
  f.boxes = numbers(o, "boxes");
  f.trials = integer(o, "options", "trials", 1, kMaxTrials);
  f.seed = decimal(o, "options", "seed");
  f.max_bytes = decimal(o, "options", "max_bytes");
  validate(f);
  return f;
}

// One result as a run writes it for task `task` (its construction's grid bounds d_min).
FrontierTrial read_trial(const JsonValue& r, const std::string& path, const FrontierOptions& opt, const FrontierTask& task) {
  FrontierTrial t;
  const ConstructionKind& kind = construction_kind(opt.constructions[static_cast<std::size_t>(task.construction)]);
  const MinDOptions grid = survey_grid(kind, opt.max_bytes);
  const int top = kind.info.uses_d ? grid.d_max : 2 * row_count_bound(opt.pattern);
  const JsonValue& d = member(r, path, "d_min");
  if (d.type != Type::Null) t.d_min = integer(r, path, "d_min", 1, top);
  if (t.d_min > 0 && kind.info.uses_d && t.d_min % grid.step != 0)
    refuse(path + ".d_min must be a multiple of " + std::to_string(grid.step) + " (got " + std::to_string(t.d_min) + ")");
  const double hi = std::numeric_limits<double>::max();
  for (auto [key, out] : {std::pair{"logit_scale", &t.logit_scale}, std::pair{"max_abs_logit", &t.max_abs_logit}}) {
    const JsonValue& v = member(r, path, key);
    if ((v.type == Type::Null) != (t.d_min < 0))
      refuse(path + "." + key + " must be null exactly when d_min is (got " + show(&v) + ")");
    if (v.type != Type::Null) *out = number(r, path, key, 0, hi);
  }
  if (t.d_min > 0 && t.max_abs_logit > t.logit_scale * (1 + 1e-12))  // (not reached: both null, -1)
    refuse(path + ".max_abs_logit must be at most logit_scale (no logit exceeds the scale)");
  t.column_supports = integer(r, path, "column_supports", 1, opt.pattern.L);
  return t;
}

std::string options_text(const FrontierOptions& opt) {
  JsonWriter w;
  write_frontier_options(w, opt);
  return w.finish();
}

// o as an object with no member outside `keys`.
const JsonValue& object(const JsonValue& o, const std::string& path, std::initializer_list<const char*> keys) {
  if (o.type != Type::Object) refuse(path + " must be an object (got " + show(&o) + ")");
  for (const auto& kv : o.obj)
    if (std::none_of(keys.begin(), keys.end(), [&](const char* k) { return kv.first == k; }))
      refuse(path + "." + kv.first.substr(0, 40) + " is not a field of a frontier part");
  return o;
}

// Every member of options o is one that the options' writer writes (options_text): a key of another
// family or weighting, or of no frontier, is refused rather than dropped.
void check_option_keys(const JsonValue& o, const std::string& written_text) {
  const JsonValue written = json_parse(written_text);
  for (const auto& kv : o.obj)
    if (!written.find(kv.first)) refuse("options." + kv.first.substr(0, 40) + " is not a field of this frontier's options");
}

}  // namespace

FrontierPart parse_frontier_part(const std::string& part_text) {
  JsonValue doc;
  try {
    doc = json_parse(part_text);
  } catch (const std::exception& e) {
    refuse(std::string("not JSON: ") + e.what());
  }
  object(doc, "part", {"format", "about", "shard", "options", "results"});
  if (text(doc, "part", "format") != "attnx-frontier-part/1") refuse("part.format must be attnx-frontier-part/1");
  FrontierPart p;
  const JsonValue& shard = object(member(doc, "part", "shard"), "shard", {"index", "count"});
  p.count = integer(shard, "shard", "count", 1, std::numeric_limits<int>::max());
  p.index = integer(shard, "shard", "index", 0, p.count - 1);
  const JsonValue& o = member(doc, "part", "options");
  try {
    p.opt = read_options(o);
  } catch (const InvalidArgument& e) {
    if (e.field() == "part") throw;
    refuse("options." + e.field() + ": " + e.what());
  }
  p.options_text = options_text(p.opt);
  check_option_keys(o, p.options_text);
  p.tasks = frontier_shard_tasks(p.opt, p.index, p.count);
  const JsonValue& results = member(doc, "part", "results");
  if (results.type != Type::Array || results.arr.size() != p.tasks.size())
    refuse("results must hold the " + std::to_string(p.tasks.size()) + " tasks of shard " + std::to_string(p.index) + "/" +
           std::to_string(p.count));
  const std::vector<FrontierTask> all = frontier_tasks(p.opt);
  for (std::size_t n = 0; n < p.tasks.size(); ++n) {
    const std::string path = "results[" + std::to_string(n) + "]";
    const JsonValue& r = object(results.arr[n], path, {"task", "d_min", "logit_scale", "max_abs_logit", "column_supports"});
    if (integer(r, path, "task", 0, int(all.size()) - 1) != p.tasks[n])
      refuse(path + ".task is not the task this shard runs (" + std::to_string(p.tasks[n]) + ")");
    p.results.push_back(read_trial(r, path, p.opt, all[static_cast<std::size_t>(p.tasks[n])]));
  }
  return p;
}

FrontierResult merge_frontier_parts(const std::vector<FrontierPart>& parts, const std::vector<std::string>& names,
                                    FrontierOptions& opt) {
  if (parts.empty()) fail("files", "merge needs the part files of one frontier");
  const FrontierPart& first = parts[0];
  std::vector<int> seen(static_cast<std::size_t>(first.count), -1);
  for (std::size_t n = 0; n < parts.size(); ++n) {
    const FrontierPart& p = parts[n];
    if (p.count != first.count || p.options_text != first.options_text)
      fail("files", names[n] + ": a part of another frontier (its options or shard count differ from " + names[0] + ")");
    if (seen[p.index] >= 0)
      fail("files", names[n] + ": shard " + std::to_string(p.index) + "/" + std::to_string(p.count) + " is also in " + names[seen[p.index]]);
    seen[p.index] = int(n);
  }
  for (int s = 0; s < first.count; ++s)
    if (seen[s] < 0) fail("files", "shard " + std::to_string(s) + "/" + std::to_string(first.count) + " is missing");
  opt = first.opt;
  std::vector<FrontierTrial> all(frontier_tasks(opt).size());
  for (const FrontierPart& p : parts)
    for (std::size_t n = 0; n < p.tasks.size(); ++n) all[static_cast<std::size_t>(p.tasks[n])] = p.results[n];
  return frontier_result(opt, all);
}

}  // namespace attnx
