// attnx core: the checks of a sweep file's "params" and "points" (see sweep_check.hpp).
#include "sweep_check.hpp"

#include <algorithm>
#include <cmath>

#include <attnx/errors.hpp>
#include <attnx/schema.hpp>

namespace attnx::sweep_check {

using Type = JsonValue::Type;

void refuse(const std::string& m) { fail("text", m); }

std::string show(const JsonValue* v) {
  if (!v) return "nothing";
  switch (v->type) {
    case Type::Null: return "null";
    case Type::Bool: return v->b ? "true" : "false";
    case Type::Number: return js_number(v->num);
    case Type::String:
      return json_escape(v->str.size() > 30 ? v->str.substr(0, 30) + "..." : v->str);
    default: return json_type_name(v->type);
  }
}

bool is_int(const JsonValue* v, double lo, double hi) {
  return v && v->type == Type::Number && v->num == std::floor(v->num) && v->num >= lo &&
         v->num <= hi;
}

const OptionInfo& option_by_json(const std::string& key) {
  for (const OptionInfo& o : option_table())
    if (o.json == key) return o;
  return option_info(key);  // throws: a key missing from the table is a bug here
}

std::optional<double> option_number(const JsonValue& p, const std::string& path,
                                    const std::string& key, std::optional<double> lo_override) {
  const JsonValue* v = p.find(key);
  if (!v) return std::nullopt;
  OptionInfo o = option_by_json(key);
  if (lo_override) {
    o.min = std::max(o.min, *lo_override);
    o.min_open = false;
  }
  const double x = v->num;
  bool ok = v->type == Type::Number && (o.min_open ? x > o.min : x >= o.min) &&
            (o.max_open ? x < o.max : x <= o.max);
  if (o.kind != OptionKind::Real) ok = ok && x == std::floor(x);
  if (!ok) refuse(path + "." + key + " must be " + option_range_text(o) + " (got " + show(v) + ")");
  return x;
}

std::optional<std::string> option_choice(const JsonValue& p, const std::string& path,
                                         const std::string& key) {
  const JsonValue* v = p.find(key);
  if (!v) return std::nullopt;
  const OptionInfo& o = option_by_json(key);
  if (v->type != Type::String ||
      std::find(o.choices.begin(), o.choices.end(), v->str) == o.choices.end())
    refuse(path + "." + key + " must be " + option_range_text(o) + " (got " + show(v) + ")");
  return v->str;
}

namespace {


bool absent(const JsonValue* v) { return !v || v->type == Type::Null; }

std::vector<int> read_dmins(const JsonValue* a, const std::string& name, int d_hi) {
  if (!a || a->type != Type::Array)
    refuse(name + " must be an array of d values (null = not reached) (got " + show(a) + ")");
  if (a->arr.empty() || a->arr.size() > static_cast<std::size_t>(kMaxTrials))
    refuse(name + " must hold from 1 to " + std::to_string(kMaxTrials) + " trials (got " +
           std::to_string(a->arr.size()) + ")");
  std::vector<int> d;
  for (std::size_t t = 0; t < a->arr.size(); ++t) {
    const JsonValue& x = a->arr[t];
    if (x.type == Type::Null) { d.push_back(-1); continue; }
    if (!is_int(&x, 1, d_hi))
      refuse(name + "[" + std::to_string(t) + "] must be an integer d from 1 to " +
             std::to_string(d_hi) + " or null (got " + show(&x) + ")");
    d.push_back(static_cast<int>(x.num));
  }
  return d;
}

std::string show_d(double d) { return d < 0 ? "null" : js_number(d); }

// median and quantile: recomputed; a given value must agree.
void read_stats(const JsonValue& q, SweepRecordPoint& p, const Rules& r, const Names& n,
                std::size_t i) {
  p.median = median_d(p.d_mins);
  if (const JsonValue* m = q.find("median")) {
    const bool same =
        m->type == Type::Null ? p.median < 0 : (m->type == Type::Number && m->num == p.median);
    if (!same)
      refuse(n.at(i, "median") + " is " + show(m) + " but its d_mins give " + show_d(p.median));
  }
  const JsonValue* g = q.find("quantile");
  if (r.delta) {
    p.quantile = quantile_d(p.d_mins, *r.delta);
    const bool same =
        !g ||
        (g->type == Type::Null ? p.quantile < 0 : g->type == Type::Number && g->num == p.quantile);
    if (!same)
      refuse(n.at(i, "quantile") + " is " + show(g) + " but its d_mins and delta give " +
             show_d(p.quantile));
    return;
  }
  if (absent(g)) return;
  const bool listed = g->type == Type::Number &&
                      std::find(p.d_mins.begin(), p.d_mins.end(), g->num) != p.d_mins.end();
  if (!listed || g->num < 0)
    refuse(n.at(i, "quantile") + " " + show(g) + " is not one of its d_mins");
  p.quantile = static_cast<int>(g->num);
}

// d_star, k, max_col_count, in_class, madds: null or within range.
void read_extras(const JsonValue& q, SweepRecordPoint& p, const Names& n, std::size_t i) {
  const JsonValue* ds = q.find("d_star");
  if (!absent(ds)) {
    if (ds->type != Type::Number || !(ds->num >= 0))
      refuse(n.at(i, "d_star") + " must be a number >= 0 or null (got " + show(ds) + ")");
    p.d_star = ds->num;
  }
  auto int_field = [&](const char* k, double lo, double hi) -> std::optional<long long> {
    const JsonValue* v = q.find(k);
    if (absent(v)) return std::nullopt;
    if (!is_int(v, lo, hi))
      refuse(n.at(i, k) + " must be an integer from " + js_number(lo) + " to " + js_number(hi) +
             " (got " + show(v) + ")");
    return static_cast<long long>(v->num);
  };
  if (auto k = int_field("k", 1, p.L)) p.k = static_cast<int>(*k);
  if (auto c = int_field("max_col_count", 0, p.L)) p.max_col_count = static_cast<int>(*c);
  if (auto m = int_field("madds", 0, kMaxExactInt)) p.madds = static_cast<std::uint64_t>(*m);
  const JsonValue* ic = q.find("in_class");
  if (!absent(ic)) {
    if (ic->type != Type::Bool)
      refuse(n.at(i, "in_class") + " must be true or false (got " + show(ic) + ")");
    p.in_class = ic->b;
  }
}

std::optional<double> param_number(const JsonValue& p, const std::string& key,
                                   std::optional<double> lo_override = std::nullopt) {
  return option_number(p, "params", key, lo_override);
}

std::optional<long long> param_int(const JsonValue& p, const std::string& key,
                                   std::optional<double> lo_override = std::nullopt) {
  const auto v = param_number(p, key, lo_override);
  return v ? std::optional<long long>(static_cast<long long>(*v)) : std::nullopt;
}

void read_family(const JsonValue& p, SweepRecordParams& out) {
  const JsonValue* v = p.find("pattern");
  if (!v) return;
  std::string names;
  for (const FamilyInfo& f : pattern_families()) {
    if (!f.scales_with_L) continue;
    names += (names.empty() ? "" : ", ") + f.name;
    if (v->type != Type::String || v->str != f.name) continue;
    out.pattern = f.name;
    for (const ParamInfo& q : f.params)
      if (auto x = param_int(p, q.name)) out.family.emplace_back(q.name, *x);
  }
  if (v->type == Type::String && v->str == family_name(Family::Custom))
    refuse("params.pattern is custom: a sweep over L needs a generated family");
  if (!out.pattern) refuse("params.pattern must be one of " + names + " (got " + show(v) + ")");
}

std::optional<std::string> param_choice(const JsonValue& p, const std::string& key) {
  return option_choice(p, "params", key);
}

// A per-trial list of bounds (logit_scales, max_abs_logits): as many as d_mins, each null or a
// finite number >= 0, null where d_min is (a trial that did not reach has no X at d_min).
std::vector<double> read_trial_bounds(const JsonValue* a, const std::vector<int>& d_mins,
                                      const std::string& name) {
  if (absent(a)) return std::vector<double>(d_mins.size(), -1.0);
  if (a->type != Type::Array || a->arr.size() != d_mins.size())
    refuse(name + " must be an array of " + std::to_string(d_mins.size()) +
           " numbers or nulls, one per trial (got " + show(a) + ")");
  std::vector<double> v;
  for (std::size_t t = 0; t < a->arr.size(); ++t) {
    const JsonValue& x = a->arr[t];
    const std::string at = name + "[" + std::to_string(t) + "]";
    if (x.type == Type::Null) { v.push_back(-1); continue; }
    if (x.type != Type::Number || !(x.num >= 0) || !std::isfinite(x.num))
      refuse(at + " must be a number >= 0 or null (got " + show(&x) + ")");
    if (d_mins[t] < 0)
      refuse(at + " must be null where d_mins[" + std::to_string(t) + "] is null (not reached) (got " + show(&x) + ")");
    v.push_back(x.num);
  }
  return v;
}

}  // namespace

// SPEC §9's bounds of a point (sweep_io.hpp), when it has any of their keys: the per-trial lists
// checked as above, column_supports an integer in [1, L], the others numbers >= 0; null or
// absent: unknown. Taken as written, like d_star.
void read_bounds(const JsonValue& q, SweepRecordPoint& p, const Names& n, std::size_t i) {
  const std::vector<std::string>& keys = sweep_bound_keys();
  if (std::none_of(keys.begin(), keys.end(), [&](const std::string& k) { return q.find(k) != nullptr; })) return;
  SweepPointBounds b;
  b.logit_scales = read_trial_bounds(q.find("logit_scales"), p.d_mins, n.at(i, "logit_scales"));
  b.max_abs_logits = read_trial_bounds(q.find("max_abs_logits"), p.d_mins, n.at(i, "max_abs_logits"));
  const JsonValue* c = q.find("column_supports");
  if (!absent(c)) {
    if (!is_int(c, 1, p.L))
      refuse(n.at(i, "column_supports") + " must be an integer from 1 to " + std::to_string(p.L) +
             " or null (got " + show(c) + ")");
    b.column_supports = static_cast<int>(c->num);
  }
  for (const std::string& k : keys) {
    const JsonValue* v = q.find(k);
    if (k == "column_supports" || k == "logit_scales" || k == "max_abs_logits" || absent(v)) continue;
    if (v->type != Type::Number || !(v->num >= 0))
      refuse(n.at(i, k) + " must be a number >= 0 or null (got " + show(v) + ")");
    if (const auto m = scalar_bound_member(k)) b.*m = v->num;
  }
  p.bounds = std::move(b);
}

std::vector<SweepRecordPoint> read_points(const JsonValue* pts, const Rules& r, const Names& n) {
  if (!pts || pts->type != Type::Array) refuse("points must be an array (got " + show(pts) + ")");
  if (pts->arr.empty()) refuse("points is empty: the file holds no results");
  if (pts->arr.size() > static_cast<std::size_t>(kMaxLs))
    refuse("points must hold at most " + std::to_string(kMaxLs) + " lengths (got " +
           std::to_string(pts->arr.size()) + ")");
  std::vector<SweepRecordPoint> out;
  for (std::size_t i = 0; i < pts->arr.size(); ++i) {
    const JsonValue& q = pts->arr[i];
    if (q.type != Type::Object) refuse(n.base[i] + " must be an object (got " + show(&q) + ")");
    SweepRecordPoint p;
    const JsonValue* L = q.find("L");
    if (!is_int(L, kMinL, kMaxL))
      refuse(n.at(i, "L") + " must be an integer from " + std::to_string(kMinL) + " to " +
             std::to_string(kMaxL) + " (got " + show(L) + ")");
    p.L = static_cast<int>(L->num);
    if (!out.empty() && p.L <= out.back().L)
      refuse(n.at(i, "L") + " must be larger than the previous length (lengths ascend; got " +
             std::to_string(out.back().L) + " then " + std::to_string(p.L) + ")");
    p.d_mins = read_dmins(q.find("d_mins"), n.at(i, "d_mins"), r.d_hi);
    if (r.trials && static_cast<long long>(p.d_mins.size()) != *r.trials)
      refuse(n.at(i, "d_mins") + " has " + std::to_string(p.d_mins.size()) +
             " trials but params.trials is " + std::to_string(*r.trials));
    read_stats(q, p, r, n, i);
    read_extras(q, p, n, i);
    read_bounds(q, p, n, i);
    out.push_back(std::move(p));
  }
  return out;
}

SweepRecordParams read_params(const JsonValue* p) {
  if (!p || p->type != Type::Object) refuse("params must be an object (got " + show(p) + ")");
  SweepRecordParams out;
  read_family(*p, out);
  out.weights = param_choice(*p, "weights");
  out.w_min = param_number(*p, "w_min");
  out.decay = param_number(*p, "decay");
  out.eps = param_number(*p, "eps");
  out.tau = param_number(*p, "tau");
  if (!p->find("delta")) refuse("params.delta is missing (it defines the (1-delta)-quantile)");
  out.delta = param_number(*p, "delta");
  out.step = param_int(*p, "step");
  out.d_max = param_int(*p, "d_max", out.step ? std::optional<double>(*out.step) : std::nullopt);
  out.trials = param_int(*p, "trials");
  out.seed = param_int(*p, "seed");
  out.max_bytes = param_int(*p, "max_bytes");
  out.projection = param_choice(*p, "projection");
  out.construction = param_choice(*p, "construction");
  out.box = param_number(*p, "box");
  out.scale = param_number(*p, "scale");
  const JsonValue* Ls = p->find("Ls");
  if (Ls && Ls->type != Type::Array) refuse("params.Ls must be an array (got " + show(Ls) + ")");
  return out;
}

}  // namespace attnx::sweep_check
