#include <attnx/sweep_shard.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <attnx/errors.hpp>
#include <attnx/json.hpp>
#include <attnx/pattern.hpp>
#include <attnx/sweep_cost.hpp>

namespace attnx {

namespace {

[[noreturn]] void refuse(const std::string& msg) { throw InvalidArgument("part", msg); }

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

void write_options(JsonWriter& w, const SweepOptions& o) {
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
  if (o.mind.projection != ProjectionKind::Gaussian)  // parts of gaussian sweeps stay as they were
    w.field("projection", projection_name(o.mind.projection));
  w.end_object();
}

const JsonValue& member(const JsonValue& o, const char* k) {
  const JsonValue* v = o.find(k);
  if (!v) refuse(std::string("\"") + k + "\" is missing");
  return *v;
}

int int_of(const JsonValue& o, const char* k) { return static_cast<int>(member(o, k).num); }

SweepOptions read_options(const JsonValue& o) {
  SweepOptions opt;
  opt.pattern.family = parse_family(member(o, "pattern").str);
  opt.pattern.k = int_of(o, "k"), opt.pattern.w = int_of(o, "w"), opt.pattern.r = int_of(o, "r");
  opt.pattern.block = int_of(o, "block"), opt.pattern.stride = int_of(o, "stride");
  opt.pattern.globals = int_of(o, "globals"), opt.pattern.randoms = int_of(o, "randoms");
  opt.pattern.weights = parse_weights(member(o, "weights").str);
  opt.pattern.w_min = member(o, "w_min").num, opt.pattern.decay = member(o, "decay").num;
  opt.tol.eps = member(o, "eps").num, opt.tol.tau = member(o, "tau").num, opt.tol.delta = member(o, "delta").num;
  opt.mind.step = int_of(o, "step"), opt.mind.d_max = int_of(o, "d_max");
  opt.mind.max_bytes = std::stoull(member(o, "max_bytes").str);
  for (const JsonValue& L : member(o, "Ls").arr) opt.Ls.push_back(static_cast<int>(L.num));
  opt.trials = int_of(o, "trials");
  opt.seed = std::stoull(member(o, "seed").str);
  opt.construction = member(o, "construction").str;
  opt.box = member(o, "box").num;
  if (const JsonValue* p = o.find("projection")) opt.mind.projection = parse_projection(p->str);
  validate(opt);
  return opt;
}

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
  w.end_object();
}

SweepPoint read_result(const JsonValue& r, int L) {
  SweepPoint p;
  p.L = L;
  const JsonValue& d = member(r, "d_min");
  p.d_mins = {d.type == JsonValue::Type::Null ? -1 : static_cast<int>(d.num)};
  p.d_star = member(r, "d_star").num;
  p.k = int_of(r, "k"), p.max_col_count = int_of(r, "max_col_count");
  p.in_class = member(r, "in_class").b;
  p.madds = std::stoull(member(r, "madds").str);
  return p;
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
  write_options(w, part.opt);
  w.key("results").begin_array();
  for (std::size_t n = 0; n < part.tasks.size(); ++n) write_result(w, part.tasks[n], part.results[n]);
  w.end_array();
  w.end_object();
  return w.finish();
}

SweepPart parse_sweep_part(const std::string& text) {
  JsonValue doc;
  try {
    doc = json_parse(text);
  } catch (const std::exception& e) {
    refuse(std::string("not a sweep part (") + e.what() + ")");
  }
  if (doc.type != JsonValue::Type::Object || !doc.find("format") || doc.find("format")->str != "attnx-sweep-part/1")
    refuse("not a sweep part (format attnx-sweep-part/1 expected: the output of attnx sweep --shard i/n)");
  SweepPart p;
  p.opt = read_options(member(doc, "options"));
  JsonWriter w;
  write_options(w, p.opt);
  p.options_text = w.finish();
  p.index = int_of(member(doc, "shard"), "index");
  p.count = int_of(member(doc, "shard"), "count");
  p.tasks = shard_tasks(p.opt, p.index, p.count);
  const auto& rs = member(doc, "results").arr;
  if (rs.size() != p.tasks.size()) refuse("shard " + std::to_string(p.index) + "/" + std::to_string(p.count) + " must hold " + std::to_string(p.tasks.size()) + " results (got " + std::to_string(rs.size()) + ")");
  for (std::size_t n = 0; n < rs.size(); ++n) {
    if (int_of(rs[n], "L") != p.tasks[n].L || int_of(rs[n], "trial") != p.tasks[n].trial)
      refuse("result " + std::to_string(n) + " is not the task this shard runs (L " + std::to_string(p.tasks[n].L) + ", trial " + std::to_string(p.tasks[n].trial) + ")");
    p.results.push_back(read_result(rs[n], p.tasks[n].L));
  }
  return p;
}

SweepResult merge_sweep_parts(const std::vector<SweepPart>& parts, const std::vector<std::string>& names, SweepOptions& opt) {
  if (parts.empty()) throw InvalidArgument("files", "merge needs the part files of one sweep");
  const SweepPart& first = parts[0];
  std::vector<int> seen(static_cast<std::size_t>(first.count), -1);
  for (std::size_t n = 0; n < parts.size(); ++n) {
    const SweepPart& p = parts[n];
    if (p.options_text != first.options_text || p.count != first.count)
      throw InvalidArgument("files", names[n] + ": a part of another sweep (" + (p.count != first.count ? "shard count" : "options") + " differ from " + names[0] + ")");
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
