// attnx core: the frontier of SPEC §10.2 (see frontier.hpp): its options, tasks, one task's search
// and the statistics of every (construction, setting). Its texts and parts: frontier_io.cpp.
#include <attnx/frontier.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <attnx/bounds.hpp>
#include <attnx/errors.hpp>
#include <attnx/head_survey.hpp>
#include <attnx/number_grammar.hpp>
#include <attnx/rng.hpp>
#include <attnx/schema.hpp>
#include <attnx/sweep.hpp>

namespace attnx {

namespace {

std::vector<double> real_list(const char* text) {
  std::vector<double> v;
  parse_real_list_text(text, &v);
  return v;
}

void check_grid(const char* name, const std::vector<double>& v, Problems& p) {
  const OptionInfo& o = option_info(name);
  if (v.empty() || v.size() > static_cast<std::size_t>(o.max_count))
    return p.add(name, std::string(name) + " must list from 1 to " + std::to_string(o.max_count) + " values (got " +
                           std::to_string(v.size()) + ")");
  for (std::size_t n = 0; n < v.size(); ++n) {
    p.check([&] { require_option(name, v[n]); });
    if (n && !(v[n] > v[n - 1]))
      p.add(name, std::string(name) + " must be strictly ascending (got " + fmt_num(v[n - 1]) + " then " + fmt_num(v[n]) + ")");
  }
}

// The request of construction `name` for one trial at one setting (NaN: none).
ConstructionRequest trial_request(const FrontierOptions& opt, const std::string& name, double setting, std::uint64_t seed) {
  const ConstructionKind& kind = construction_kind(name);
  ConstructionRequest r;
  r.construction = name;
  r.tol = opt.tol;
  r.mind = survey_grid(kind, opt.max_bytes);
  r.seed = seed;
  if (kind.info.frontier_param == "budget") r.scale = setting;
  if (kind.info.frontier_param == "box") r.box = setting;
  return r;
}

// The construction's request at one setting, checked as its trials will be: a refusal of the
// swept parameter names the grid ("scales holds 1: scale must be above ...").
void check_setting(const FrontierOptions& opt, const std::string& name, double setting, Problems& p) {
  Problems q;
  check_request_fields(trial_request(opt, name, setting, opt.seed), Purpose::Search, q);
  const std::string& param = construction_kind(name).info.frontier_param;
  const std::string grid = param == "budget" ? "scales" : "boxes";
  for (std::size_t n = 0; n < q.fields().size(); ++n)
    if (!param.empty() && q.fields()[n] == param)
      p.add(grid, grid + " holds " + fmt_num(setting) + ": " + q.messages()[n]);
    else
      p.add(q.fields()[n], q.messages()[n]);
}

}  // namespace

FrontierOptions default_frontier_options() {
  FrontierOptions o;
  o.constructions = construction_names();
  o.scales = real_list(kDefaultFrontierScales);
  o.boxes = real_list(kDefaultFrontierBoxes);
  return o;
}

std::vector<std::string> parse_constructions(const std::string& text) {
  std::vector<std::string> given;
  for (std::size_t p = 0;;) {
    const std::size_t e = std::min(text.find(',', p), text.size());
    given.push_back(text.substr(p, e - p));
    if (e == text.size()) break;
    p = e + 1;
  }
  std::vector<std::string> out;
  for (const std::string& g : given) {
    if (std::count(given.begin(), given.end(), g) > 1)
      fail("constructions", "constructions must name each construction once (got " + g.substr(0, 40) + " twice)");
    try {
      construction_kind(g);  // refuses an unknown name, as this field's (not as --construction's)
    } catch (const InvalidArgument& e) {
      fail("constructions", std::string("constructions holds an unknown name: ") + e.what());
    }
  }
  for (const std::string& n : construction_names())
    if (std::find(given.begin(), given.end(), n) != given.end()) out.push_back(n);
  return out;
}

void validate(const FrontierOptions& opt) {
  Problems p;
  p.check([&] { validate(opt.pattern); });
  if (opt.pattern.family == Family::Custom) p.add("pattern", "pattern custom has no frontier (choose a generated family)");
  p.check([&] { validate(opt.tol); });
  if (opt.constructions.empty()) p.add("constructions", "constructions must name at least one construction");
  check_grid("scales", opt.scales, p);
  check_grid("boxes", opt.boxes, p);
  p.check([&] { require_option("trials", opt.trials); });
  p.check([&] { require_option("maxBytes", static_cast<double>(opt.max_bytes)); });
  for (const std::string& name : opt.constructions)
    for (double setting : p.empty() ? frontier_settings(opt, name) : std::vector<double>{})
      check_setting(opt, name, setting, p);
  p.throw_if_any();
  for (const std::string& name : opt.constructions)  // each trial's budget at the pattern's row bound
    check_request_budget(check_request(trial_request(opt, name, frontier_settings(opt, name)[0], opt.seed), Purpose::Search),
                         opt.pattern.L, row_count_bound(opt.pattern));
}

void check_boxes_apply(const FrontierOptions& opt, bool boxes_given, Problems& p) {
  std::string takers, chosen;
  for (const std::string& n : construction_names())
    if (construction_kind(n).info.frontier_param == "box") takers += (takers.empty() ? "" : " or ") + n;
  for (const std::string& n : opt.constructions) {
    if (construction_kind(n).info.frontier_param == "box") return;
    chosen += (chosen.empty() ? "" : ",") + n;
  }
  if (boxes_given) p.add("boxes", "boxes applies only to " + takers + "'s points (got constructions " + chosen + ")");
}

std::vector<double> frontier_settings(const FrontierOptions& opt, const std::string& name) {
  const std::string& param = construction_kind(name).info.frontier_param;
  if (param.empty()) return {std::numeric_limits<double>::quiet_NaN()};
  return param == "budget" ? opt.scales : opt.boxes;
}

std::vector<FrontierTask> frontier_tasks(const FrontierOptions& opt) {
  std::vector<FrontierTask> v;
  for (int c = 0; c < static_cast<int>(opt.constructions.size()); ++c) {
    const int n = static_cast<int>(frontier_settings(opt, opt.constructions[c]).size());
    for (int s = 0; s < n; ++s)
      for (int t = 0; t < opt.trials; ++t) v.push_back({c, s, t});
  }
  return v;
}

FrontierTrial frontier_trial(const FrontierOptions& opt, const FrontierTask& task, const Progress& progress) {
  const std::string& name = opt.constructions.at(static_cast<std::size_t>(task.construction));
  const double setting = frontier_settings(opt, name).at(static_cast<std::size_t>(task.setting));
  const std::uint64_t seed = trial_seed(opt.seed, opt.pattern.L, task.trial);
  Rng rng(pattern_seed(seed));
  const Pattern A = make_pattern(opt.pattern, rng);
  const MinDResult r = search_min_d(A, check_request(trial_request(opt, name, setting, seed), Purpose::Search), {progress});
  FrontierTrial t;
  t.cancelled = r.cancelled;
  t.d_min = r.reached() ? r.d_min : -1;
  t.logit_scale = r.reached() ? r.bounds.logit_scale : -1;
  t.max_abs_logit = r.reached() ? r.bounds.max_abs_logit : -1;
  t.column_supports = r.bounds.column_supports > 0 ? r.bounds.column_supports : bounds_of(A, opt.tol.tau, 1, -1, -1).column_supports;
  return t;
}

namespace {

FrontierPoint point_of(const FrontierOptions& opt, const std::string& name, double setting,
                       std::vector<FrontierTrial> trials, int n) {
  FrontierPoint p;
  p.construction = name;
  p.mark = construction_kind(name).info.kind_of_mark;
  p.setting = setting;
  std::vector<int> d;
  std::vector<double> scales;
  for (const FrontierTrial& t : trials) {
    d.push_back(t.d_min);
    scales.push_back(t.logit_scale);
    if (t.d_min < 0) {
      ++p.not_reached;
      continue;
    }
    p.lo = p.lo < 0 ? t.d_min : std::min(p.lo, t.d_min);
    p.hi = std::max(p.hi, t.d_min);
  }
  p.trials = std::move(trials);
  p.median = median_d(d);
  p.quantile = quantile_d(d, opt.tol.delta);
  p.scale_median = median_reached(scales);
  const bool budget = construction_kind(name).info.frontier_param == "budget";
  const double at = budget ? setting : p.scale_median;
  if (at > 0 && n > 0) p.d_lambda = packing_floor(at, n, opt.tol.tau);
  return p;
}

}  // namespace

FrontierResult frontier_result(const FrontierOptions& opt, const std::vector<FrontierTrial>& trials) {
  const std::vector<FrontierTask> tasks = frontier_tasks(opt);
  if (trials.size() != tasks.size())
    fail("results", "results must hold one trial per task (" + std::to_string(tasks.size()) + ", got " +
                        std::to_string(trials.size()) + ")");
  FrontierResult r;
  for (const FrontierTrial& t : trials) r.column_supports = smallest_supports(r.column_supports, t.column_supports);
  for (std::size_t a = 0; a < tasks.size(); a += static_cast<std::size_t>(opt.trials)) {
    const FrontierTask& t = tasks[a];
    const std::string& name = opt.constructions[static_cast<std::size_t>(t.construction)];
    const double setting = frontier_settings(opt, name)[static_cast<std::size_t>(t.setting)];
    std::vector<FrontierTrial> own(trials.begin() + static_cast<std::ptrdiff_t>(a),
                                   trials.begin() + static_cast<std::ptrdiff_t>(a + static_cast<std::size_t>(opt.trials)));
    r.points.push_back(point_of(opt, name, setting, std::move(own), r.column_supports));
  }
  for (double s : opt.scales) r.floor.push_back(r.column_supports > 0 ? packing_floor(s, r.column_supports, opt.tol.tau) : -1);
  return r;
}

}  // namespace attnx
