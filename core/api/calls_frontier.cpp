// attnx core: the JavaScript API's frontier calls (see calls_frontier.hpp).
#include <attnx/calls_frontier.hpp>

#include <cmath>
#include <limits>

#include <attnx/bounds.hpp>
#include <attnx/call_options.hpp>
#include <attnx/call_values.hpp>
#include <attnx/errors.hpp>
#include <attnx/number_grammar.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

using Type = JsonValue::Type;

const char* const kPatternNames[] = {"pattern", "L", "k", "w", "r", "block", "stride", "globals", "randoms",
                                     "weights", "wMin", "decay", "eps", "tau", "delta", "seed", "maxBytes", "trials"};

// A list option given as an array of numbers or as its link text ("4,5.3"); absent: its default.
std::vector<double> real_list_of(const JsonValue& o, const char* name, Problems& p) {
  const JsonValue& v = member(o, name);
  std::vector<double> out;
  if (absent(&v)) {
    parse_real_list_text(option_info(name).def_text, &out);
  } else if (v.type == Type::String) {
    if (!parse_real_list_text(v.str, &out)) p.add(name, std::string(name) + " must be " + option_range_text(option_info(name)) +
                                                            ", comma-separated (got " + describe_value(v) + ")");
  } else {
    p.check([&] { out = numbers_or_none(v, name, NAN); });
  }
  return out;
}

std::vector<std::string> constructions_of(const JsonValue& o, Problems& p) {
  const JsonValue& v = member(o, "constructions");
  if (absent(&v)) return construction_names();
  std::string text;
  if (v.type == Type::String) text = v.str;
  else if (v.type == Type::Array)
    for (const JsonValue& c : v.arr) text += (text.empty() ? "" : ",") + (c.type == Type::String ? c.str : describe_value(c));
  else
    text = describe_value(v);
  std::vector<std::string> out;
  p.check([&] { out = parse_constructions(text); });
  return out;
}

// The options of a frontier call, every bad one at once.
FrontierOptions frontier_options_call(const JsonValue& opts_in) {
  std::vector<std::string> allowed(std::begin(kPatternNames), std::end(kPatternNames));
  allowed.insert(allowed.end(), {"constructions", "scales", "boxes"});
  const JsonValue& opts = options_value(opts_in, allowed);
  JsonValue common = JsonValue::object();  // the pattern, tolerances, seed, budget and trials as estimateBytes reads them
  for (const char* n : kPatternNames)
    if (const JsonValue* v = opts.find(n)) common.set(n, *v);
  FrontierOptions f = default_frontier_options();
  Problems p;
  p.check([&] {
    const CallOptions c = read_call_options(common, Call::Estimate);
    f.pattern = c.spec, f.tol = c.tol, f.seed = c.seed, f.max_bytes = c.mind.max_bytes, f.trials = c.trials;
  });
  f.constructions = constructions_of(opts, p);
  f.scales = real_list_of(opts, "scales", p);
  f.boxes = real_list_of(opts, "boxes", p);
  if (p.empty()) check_boxes_apply(f, !absent(&member(opts, "boxes")), p);
  p.throw_if_any();
  validate(f);  // its refusal names every field it refused (fields()), so it is thrown as it is
  return f;
}

}  // namespace

std::vector<FrontierTaskInfo> frontier_tasks_call(const JsonValue& opts) {
  const FrontierOptions f = frontier_options_call(opts);
  std::vector<FrontierTaskInfo> out;
  for (const FrontierTask& t : frontier_tasks(f)) {
    const std::string& name = f.constructions[static_cast<std::size_t>(t.construction)];
    out.push_back({name, frontier_settings(f, name)[static_cast<std::size_t>(t.setting)], t.trial});
  }
  return out;
}

FrontierTrialCall frontier_trial_call(const JsonValue& opts, const JsonValue& task, const Progress& progress) {
  const FrontierOptions f = frontier_options_call(opts);
  const std::vector<FrontierTask> tasks = frontier_tasks(f);
  FrontierTrialCall r;
  r.task = static_cast<int>(int_value(task, "task", 0, static_cast<long long>(tasks.size()) - 1));
  bool stopped = false;
  r.trial = frontier_trial(f, tasks[static_cast<std::size_t>(r.task)], [&](double x) {
    if (progress && !progress(x)) stopped = true;
    return !stopped;
  });
  r.cancelled = stopped || r.trial.cancelled;
  return r;
}

namespace {

std::vector<FrontierTrial> trials_of(const FrontierOptions& f, const JsonValue& trials) {
  const std::vector<JsonValue>& list = object_list(trials, "trials");
  if (list.size() != frontier_tasks(f).size())
    fail("trials", "trials must hold one result per task (" + std::to_string(frontier_tasks(f).size()) + ", got " +
                       std::to_string(list.size()) + ")");
  std::vector<FrontierTrial> out;
  for (std::size_t n = 0; n < list.size(); ++n) {
    const std::string at = "trials[" + std::to_string(n) + "].";
    FrontierTrial t;
    const JsonValue& d = member(list[n], "dMin");
    t.d_min = absent(&d) ? -1 : static_cast<int>(int_value(d, at + "dMin", 1, kMaxD));
    for (auto [key, out_v] : {std::pair{"logitScale", &t.logit_scale}, std::pair{"maxAbsLogit", &t.max_abs_logit}}) {
      const JsonValue& v = member(list[n], key);
      *out_v = absent(&v) ? -1 : number_value(v, at + key);
    }
    t.column_supports = static_cast<int>(int_value(member(list[n], "columnSupports"), at + "columnSupports", 1, kMaxL));
    out.push_back(t);
  }
  return out;
}

}  // namespace

JsonValue frontier_result_call(const JsonValue& opts, const JsonValue& trials) {
  const FrontierOptions f = frontier_options_call(opts);
  return json_parse(frontier_json(f, frontier_result(f, trials_of(f, trials))));
}

std::string frontier_csv_call(const JsonValue& opts, const JsonValue& trials) {
  const FrontierOptions f = frontier_options_call(opts);
  return frontier_csv(f, frontier_result(f, trials_of(f, trials)));
}

std::vector<double> packing_floors_call(const JsonValue& n, const JsonValue& tau, const JsonValue& scales) {
  const int columns = static_cast<int>(int_value(n, "n", 1, kMaxL));
  const double t = number_value(tau, "tau");
  require_option("tau", t);
  std::vector<double> out;
  for (double s : numbers_or_none(scales, "scales", NAN)) out.push_back(s > 0 ? packing_floor(s, columns, t) : NAN);
  return out;
}

}  // namespace attnx
