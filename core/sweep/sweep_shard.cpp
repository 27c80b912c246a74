// attnx core: a sweep in shards (see sweep_shard.hpp): each shard's tasks, the part writer and
// the merge. The part reader, which checks every field, is sweep_part_read.cpp.
#include <attnx/sweep_shard.hpp>

#include <attnx/construction.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <attnx/errors.hpp>
#include <attnx/json.hpp>
#include <attnx/pattern.hpp>
#include "sweep_part_options.hpp"
#include <attnx/sweep_cost.hpp>

namespace attnx {

namespace {

// Every task's shard (LPT: largest cost first, ties by L then trial, to the least loaded shard).
std::vector<std::pair<SweepTask, int>> assign(const SweepOptions& opt, int count) {
  std::vector<SweepTask> all;
  for (int L : opt.Ls)
    for (int t = 0; t < opt.trials; ++t) all.push_back({L, t});
  std::stable_sort(all.begin(), all.end(), [](const SweepTask& a, const SweepTask& b) { return a.L > b.L; });
  std::vector<double> load(static_cast<std::size_t>(count), 0.0);
  const CostModel prior = prior_cost_model();
  std::vector<std::pair<SweepTask, int>> out;
  for (const SweepTask& t : all) {
    const int s = int(std::min_element(load.begin(), load.end()) - load.begin());
    load[s] += trial_work(prior, t.L);
    out.push_back({t, s});
  }
  return out;
}

}  // namespace

void write_sweep_options(JsonWriter& w, const SweepOptions& o) {
  w.begin_object();
  w.field("pattern", family_name(o.pattern.family));
  for (const auto& [k, v] : {std::pair<const char*, int>{"k", o.pattern.k}, {"w", o.pattern.w}, {"r", o.pattern.r},
                             {"block", o.pattern.block}, {"stride", o.pattern.stride},
                             {"globals", o.pattern.globals}, {"randoms", o.pattern.randoms}})
    w.field(k, v);
  w.field("weights", weights_name(o.pattern.weights));
  w.field("w_min", o.pattern.w_min);
  w.field("decay", o.pattern.decay);
  w.field("eps", o.tol.eps);
  w.field("tau", o.tol.tau);
  w.field("delta", o.tol.delta);
  w.field("step", o.mind.step);
  w.field("d_max", o.mind.d_max);
  w.field("max_bytes", std::to_string(o.mind.max_bytes));
  w.key("Ls").begin_array(true);
  for (int L : o.Ls) w.value(L);
  w.end_array();
  w.field("trials", o.trials);
  w.field("seed", std::to_string(o.seed));
  w.field("construction", o.construction);
  w.field("box", o.box);
  if (o.scale != kDefaultOptScale) w.field("scale", o.scale);  // parts of other constructions stay as they were
  if (o.mind.projection != ProjectionKind::Gaussian)  // parts of gaussian sweeps stay as they were
    w.field("projection", projection_name(o.mind.projection));
  w.end_object();
}

namespace {

void write_result(JsonWriter& w, const SweepTask& t, const SweepPoint& p) {
  w.begin_object(true);
  w.field("L", t.L);
  w.field("trial", t.trial);
  w.key("d_min").value_or_null(p.d_mins.at(0));
  w.field("d_star", p.d_star);
  w.field("k", p.k);
  w.field("max_col_count", p.max_col_count);
  w.field("in_class", p.in_class);
  w.field("madds", std::to_string(p.madds));
  // SPEC §9 at d_min (null: not reached); parts written before them lack these keys.
  const double scale = p.logit_scales.empty() ? -1 : p.logit_scales[0];
  const double z = p.max_abs_logits.empty() ? -1 : p.max_abs_logits[0];
  scale < 0 ? w.key("logit_scale").null() : w.field("logit_scale", scale);
  z < 0 ? w.key("max_abs_logit").null() : w.field("max_abs_logit", z);
  w.key("column_supports").value_or_null(p.column_supports > 0 ? p.column_supports : -1);
  w.end_object();
}

// The first option in which two parts differ, as "options.KEY is X here, Y in FILE": their
// options texts are write_sweep_options's, one member a line ("KEY": VALUE), in one order; a
// member only one of them has (projection) is "absent" in the other.
std::string option_difference(const std::string& here, const std::string& there, const std::string& file) {
  auto members = [](const std::string& text) {
    std::vector<std::pair<std::string, std::string>> out;
    std::size_t p = 0;
    while (p < text.size()) {
      std::size_t e = text.find('\n', p);
      if (e == std::string::npos) e = text.size();
      std::string line = text.substr(p, e - p);
      p = e + 1;
      const std::size_t q = line.find('"'), colon = line.find("\": ");
      if (q == std::string::npos || colon == std::string::npos) continue;
      std::string value = line.substr(colon + 3);
      if (!value.empty() && value.back() == ',') value.pop_back();
      out.emplace_back(line.substr(q + 1, colon - q - 1), value);
    }
    return out;
  };
  const auto a = members(here), b = members(there);
  auto value_in = [](const std::vector<std::pair<std::string, std::string>>& m, const std::string& k) {
    for (const auto& [key, v] : m)
      if (key == k) return v;
    return std::string("absent");
  };
  std::vector<std::string> keys;
  for (const auto& m : {a, b})
    for (const auto& kv : m)
      if (std::find(keys.begin(), keys.end(), kv.first) == keys.end()) keys.push_back(kv.first);
  for (const std::string& k : keys) {
    const std::string x = value_in(a, k), y = value_in(b, k);
    if (x != y) return "options." + k + " is " + x + " here, " + y + " in " + file;
  }
  return "options differ from " + file;
}

}  // namespace

std::vector<SweepTask> shard_tasks(const SweepOptions& opt, int index, int count) {
  const long long tasks = static_cast<long long>(opt.Ls.size()) * opt.trials;
  if (count < 1 || count > tasks || index < 0 || index >= count)
    throw InvalidArgument("shard", "shard must be i/n with 0 <= i < n <= " + std::to_string(tasks) +
                                       " (the sweep's tasks: lengths x trials) (got " + std::to_string(index) + "/" +
                                       std::to_string(count) + ")");
  std::vector<SweepTask> mine;
  for (const auto& [t, s] : assign(opt, count))
    if (s == index) mine.push_back(t);
  return mine;
}

std::string sweep_part_to_json(const SweepPart& part) {
  JsonWriter w;
  w.begin_object();
  w.field("format", "attnx-sweep-part/1");
  w.field("about", "one shard of an attnx sweep; `attnx merge` joins all shards into the sweep's output");
  w.key("shard").begin_object(true).field("index", part.index).field("count", part.count).end_object();
  w.key("options");
  write_sweep_options(w, part.opt);
  w.key("results").begin_array();
  for (std::size_t n = 0; n < part.tasks.size(); ++n) write_result(w, part.tasks[n], part.results[n]);
  w.end_array();
  w.end_object();
  return w.finish();
}

SweepResult merge_sweep_parts(const std::vector<SweepPart>& parts, const std::vector<std::string>& names, SweepOptions& opt) {
  if (parts.empty()) throw InvalidArgument("files", "merge needs the part files of one sweep");
  const SweepPart& first = parts[0];
  std::vector<int> seen(static_cast<std::size_t>(first.count), -1);
  for (std::size_t n = 0; n < parts.size(); ++n) {
    const SweepPart& p = parts[n];
    if (p.count != first.count)
      throw InvalidArgument("files", names[n] + ": a part of another sweep (shard.count is " + std::to_string(p.count) + " here, " +
                                         std::to_string(first.count) + " in " + names[0] + ")");
    if (p.options_text != first.options_text)
      throw InvalidArgument("files", names[n] + ": a part of another sweep (" + option_difference(p.options_text, first.options_text, names[0]) + ")");
    if (seen[p.index] >= 0)
      throw InvalidArgument("files", names[n] + ": shard " + std::to_string(p.index) + "/" + std::to_string(p.count) + " is also in " + names[seen[p.index]]);
    seen[p.index] = int(n);
  }
  for (int s = 0; s < first.count; ++s)
    if (seen[s] < 0) throw InvalidArgument("files", "shard " + std::to_string(s) + "/" + std::to_string(first.count) + " is missing");
  opt = first.opt;
  std::vector<std::vector<SweepPoint>> by_L(opt.Ls.size(), std::vector<SweepPoint>(static_cast<std::size_t>(opt.trials)));
  for (const SweepPart& p : parts)
    for (std::size_t n = 0; n < p.tasks.size(); ++n) {
      const std::size_t i = std::size_t(std::find(opt.Ls.begin(), opt.Ls.end(), p.tasks[n].L) - opt.Ls.begin());
      by_L[i][static_cast<std::size_t>(p.tasks[n].trial)] = p.results[n];
    }
  SweepResult r;
  for (std::size_t i = 0; i < opt.Ls.size(); ++i) r.points.push_back(merge_trials(opt, opt.Ls[i], by_L[i]));
  fit_sweep(r);
  return r;
}

}  // namespace attnx
