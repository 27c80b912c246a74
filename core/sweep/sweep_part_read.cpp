// attnx core: reading a sweep part file (parse_sweep_part, sweep_shard.hpp). Nothing in a part
// is trusted: every field is checked for its type and for the values the sweep itself writes
// (integers, d_min on the step grid up to d_max, booleans, 64-bit values as decimal strings,
// the family's parameters within their bounds at every L), and no field may be added. A refusal
// names the field by its JSON path ("results[2].d_min must be ..."); no value is ever converted
// into another (16.5 is not read as 16, "yes" is not read as false).
#include <attnx/sweep_shard.hpp>

#include <cctype>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>

#include <attnx/construct.hpp>
#include <attnx/detmath.hpp>
#include <attnx/errors.hpp>
#include <attnx/json.hpp>
#include <attnx/number_grammar.hpp>
#include <attnx/pattern.hpp>
#include <attnx/schema.hpp>
#include <attnx/construction.hpp>

#include "sweep_check.hpp"
#include "sweep_part_options.hpp"

namespace attnx {

namespace {

using Type = JsonValue::Type;
using sweep_check::is_int;
using sweep_check::refuse;
using sweep_check::show;

[[noreturn]] void bad(const std::string& path, const std::string& what, const JsonValue* v) {
  refuse(path + " must be " + what + " (got " + show(v) + ")");
}

// The JSON path of member `key` of the value at `path`: "options.k", or options["a b"] for a key
// that is no plain name.
std::string at(const std::string& path, const std::string& key) {
  bool plain = !key.empty();
  for (char c : key) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!plain) return path + "[" + json_escape(key.substr(0, 30)) + "]";
  return path.empty() ? key : path + "." + key;
}

const JsonValue& member(const JsonValue& o, const std::string& path, const char* key) {
  const JsonValue* v = o.find(key);
  if (!v) refuse(at(path, key) + " is missing");
  return *v;
}

// o as an object with no member outside `keys`.
const JsonValue& object(const JsonValue& o, const std::string& path, std::initializer_list<const char*> keys) {
  if (o.type != Type::Object) bad(path.empty() ? "a part" : path, "an object", &o);
  for (const auto& kv : o.obj) {
    bool known = false;
    for (const char* k : keys) known = known || kv.first == k;
    if (!known) refuse(at(path, kv.first) + " is not a field of a sweep part");
  }
  return o;
}

long long integer(const JsonValue& o, const std::string& path, const char* key, long long lo, long long hi) {
  const JsonValue& v = member(o, path, key);
  if (!is_int(&v, double(lo), double(hi)))
    bad(at(path, key), "an integer from " + std::to_string(lo) + " to " + std::to_string(hi), &v);
  return static_cast<long long>(v.num);
}

// A 64-bit value as the writer writes it: a string of decimal digits (no sign, no leading zero).
std::uint64_t decimal(const JsonValue& o, const std::string& path, const char* key, std::uint64_t lo,
                      std::uint64_t hi) {
  const JsonValue& v = member(o, path, key);
  std::uint64_t x = 0;
  bool ok = v.type == Type::String && is_integer_text(v.str) && v.str[0] != '-';
  for (std::size_t p = 0; ok && p < v.str.size(); ++p) {
    const unsigned d = static_cast<unsigned>(v.str[p] - '0');
    ok = x <= (std::numeric_limits<std::uint64_t>::max() - d) / 10;
    x = x * 10 + d;
  }
  if (!ok || x < lo || x > hi)
    bad(at(path, key), "a string of decimal digits from " + std::to_string(lo) + " to " + std::to_string(hi) +
                           ", as attnx sweep --shard writes it", &v);
  return x;
}

// An option's value: present, of the option's kind and within its range (option_number).
double option_value(const JsonValue& o, const char* key, std::optional<double> lo = std::nullopt) {
  member(o, "options", key);
  return *sweep_check::option_number(o, "options", key, lo);
}

std::string option_text(const JsonValue& o, const char* key) {
  member(o, "options", key);
  return *sweep_check::option_choice(o, "options", key);
}

Family read_family(const JsonValue& o) {
  const JsonValue& v = member(o, "options", "pattern");
  std::string names;
  for (const FamilyInfo& f : pattern_families()) {
    if (!f.scales_with_L) continue;
    names += (names.empty() ? "" : ", ") + f.name;
    if (v.type == Type::String && v.str == f.name) return parse_family(f.name);
  }
  bad("options.pattern", "one of " + names, &v);
}

std::vector<int> read_Ls(const JsonValue& o) {
  const JsonValue& v = member(o, "options", "Ls");
  if (v.type != Type::Array || v.arr.empty() || v.arr.size() > static_cast<std::size_t>(kMaxLs))
    bad("options.Ls", "an array of 1 to " + std::to_string(kMaxLs) + " lengths", &v);
  std::vector<int> Ls;
  for (std::size_t i = 0; i < v.arr.size(); ++i) {
    const JsonValue& L = v.arr[i];
    const int lo = Ls.empty() ? kMinL : Ls.back() + 1;
    if (!is_int(&L, lo, kMaxL))
      bad("options.Ls[" + std::to_string(i) + "]", "an integer from " + std::to_string(lo) + " to " +
                                                       std::to_string(kMaxL) + " (lengths ascend)", &L);
    Ls.push_back(static_cast<int>(L.num));
  }
  return Ls;
}

// The family's own parameters within their bounds at every L of the sweep (as make_pattern).
void check_family_bounds(const SweepOptions& opt) {
  for (const FamilyInfo& f : pattern_families()) {
    if (f.name != family_name(opt.pattern.family)) continue;
    for (const ParamInfo& q : f.params)
      for (int L : opt.Ls) {
        long long lo = 0, hi = 0;
        param_bounds(opt.pattern.family, q.name, L, lo, hi);
        const long long v = param_value(opt.pattern, q.name);
        if (v < lo || v > hi)
          refuse("options." + q.name + " must be an integer from " + std::to_string(lo) + " to " +
                 std::to_string(hi) + " for L = " + std::to_string(L) + " of options.Ls (got " +
                 std::to_string(v) + ")");
      }
  }
}

SweepOptions read_options(const JsonValue& doc) {
  const JsonValue& o = object(member(doc, "", "options"), "options",
                              {"pattern", "k", "w", "r", "block", "stride", "globals", "randoms", "weights",
                               "w_min", "decay", "eps", "tau", "delta", "step", "d_max", "max_bytes", "Ls",
                               "trials", "seed", "construction", "box", "scale", "projection"});
  SweepOptions opt;
  PatternSpec& s = opt.pattern;
  s.family = read_family(o);
  int* params[] = {&s.k, &s.w, &s.r, &s.block, &s.stride, &s.globals, &s.randoms};
  const char* names[] = {"k", "w", "r", "block", "stride", "globals", "randoms"};
  for (int n = 0; n < 7; ++n) *params[n] = static_cast<int>(option_value(o, names[n]));
  s.weights = parse_weights(option_text(o, "weights"));
  s.w_min = option_value(o, "w_min"), s.decay = option_value(o, "decay");
  opt.tol.eps = option_value(o, "eps"), opt.tol.tau = option_value(o, "tau");
  opt.tol.delta = option_value(o, "delta");
  opt.mind.step = static_cast<int>(option_value(o, "step"));
  opt.mind.d_max = static_cast<int>(option_value(o, "d_max", double(opt.mind.step)));
  const OptionInfo& budget = option_info("maxBytes");
  opt.mind.max_bytes = decimal(o, "options", "max_bytes", std::uint64_t(budget.min), std::uint64_t(budget.max));
  opt.Ls = read_Ls(o);
  opt.trials = static_cast<int>(option_value(o, "trials"));
  opt.seed = decimal(o, "options", "seed", 0, std::uint64_t(kMaxSeed));
  opt.construction = option_text(o, "construction");
  opt.box = option_value(o, "box");
  if (o.find("scale")) opt.scale = option_value(o, "scale");
  if (o.find("projection")) opt.mind.projection = parse_projection(option_text(o, "projection"));
  check_family_bounds(opt);
  try {
    validate(opt);  // what holds between options (lp's d_max, a projection only jl takes)
  } catch (const InvalidArgument& e) {
    std::string key = e.field();
    for (const OptionInfo& oi : option_table())
      if (oi.name == key || oi.flag == key) {
        key = oi.json;
        break;
      }
    refuse("options." + key + ": " + e.what());
  }
  return opt;
}

// A SPEC §9 bound of a result: a number >= 0 (an integer from 1 to L for column_supports), or -1
// when null or absent (not reached, or a part written before the bounds).
double optional_bound(const JsonValue& r, const std::string& path, const char* key, int L = 0) {
  const JsonValue* v = r.find(key);
  if (!v || v->type == Type::Null) return -1;
  if (L > 0 && !is_int(v, 1, L)) bad(at(path, key), "null or an integer from 1 to " + std::to_string(L), v);
  if (v->type != Type::Number || !(v->num >= 0) || !std::isfinite(v->num)) bad(at(path, key), "null or a number >= 0", v);
  return v->num;
}

// d_star of a result: SPEC §3.5's 16 beta^2 ln(2 L^2 / delta) / eps^2 with beta = max ||B_i|| at
// least ln(1/tau) + eps (every entry of B on the support is), so no sweep writes less than d_star
// at that beta (less a rounding margin).
double read_d_star(const JsonValue& r, const std::string& path, const Tolerances& tol, int L) {
  const JsonValue& ds = member(r, path, "d_star");
  const double least = d_star(-det_log(tol.tau) + tol.eps, L, tol) * (1 - 1e-9);
  if (ds.type != Type::Number || !(ds.num >= least) || !std::isfinite(ds.num))
    bad(at(path, "d_star"), "a number >= " + js_number(least) + " (SPEC 3.5's d* at beta = ln(1/tau) + eps, the least beta)", &ds);
  return ds.num;
}

// No logit exceeds the logit scale (SPEC §9: |Z_ij| <= Lambda): max_abs_logit above logit_scale
// (beyond float32 rounding) is no sweep's. Either may be absent (-1).
void check_logits_within_scale(double max_abs, double scale, const std::string& path) {
  if (max_abs < 0 || scale < 0 || max_abs <= scale * (1 + 1e-5) + 1e-30) return;
  refuse(at(path, "max_abs_logit") + " is " + js_number(max_abs) + " but no logit can exceed logit_scale " +
         js_number(scale) + " (SPEC 9: |Z| <= Lambda)");
}

// One result of task t: the fields the sweep writes, each what the sweep can produce.
SweepPoint read_result(const JsonValue& v, const std::string& path, const SweepOptions& opt, const SweepTask& t) {
  const JsonValue& r = object(v, path, {"L", "trial", "d_min", "d_star", "k", "max_col_count", "in_class", "madds",
                                               "logit_scale", "max_abs_logit", "column_supports"});
  if (integer(r, path, "L", kMinL, kMaxL) != t.L || integer(r, path, "trial", 0, kMaxTrials - 1) != t.trial)
    refuse(path + " is not the task this shard runs (L " + std::to_string(t.L) + ", trial " +
           std::to_string(t.trial) + ")");
  SweepPoint p;
  p.L = t.L;
  PatternSpec spec = opt.pattern;
  spec.L = t.L;
  p.k = static_cast<int>(integer(r, path, "k", 1, row_count_bound(spec)));
  p.max_col_count = static_cast<int>(integer(r, path, "max_col_count", 1, t.L));
  const JsonValue& d = member(r, path, "d_min");
  const ConstructionKind& kind = construction_kind(opt.construction);
  const bool fixed = !kind.info.uses_d;  // one dimension per pattern (moment: D = 2m)
  const int step = opt.mind.step, hi = fixed ? kind.dimension(opt.request(0), p.k) : opt.mind.d_max;
  const int lo = fixed ? hi : step;
  if (d.type != Type::Null && !(is_int(&d, lo, hi) && (fixed || int(d.num) % step == 0)))
    bad(at(path, "d_min"), "null (not reached) or " +
                               (fixed ? "D = " + kind.info.dimension + " = " + std::to_string(hi)
                                       : "a multiple of step " + std::to_string(step) + " from " +
                                             std::to_string(step) + " to d_max " + std::to_string(hi)), &d);
  p.d_mins = {d.type == Type::Null ? -1 : static_cast<int>(d.num)};
  p.d_star = read_d_star(r, path, opt.tol, t.L);
  const JsonValue& ic = member(r, path, "in_class");
  if (ic.type != Type::Bool) bad(at(path, "in_class"), "true or false", &ic);
  if (ic.b != (p.max_col_count <= p.k))
    refuse(at(path, "in_class") + " is " + show(&ic) + " but max_col_count " + std::to_string(p.max_col_count) +
           (ic.b ? " > k " : " <= k ") + std::to_string(p.k));
  p.in_class = ic.b;
  p.madds = decimal(r, path, "madds", 0, std::numeric_limits<std::uint64_t>::max());
  p.logit_scales = {optional_bound(r, path, "logit_scale")};
  p.max_abs_logits = {optional_bound(r, path, "max_abs_logit")};
  check_logits_within_scale(p.max_abs_logits[0], p.logit_scales[0], path);
  const double n = optional_bound(r, path, "column_supports", t.L);
  p.column_supports = n > 0 ? static_cast<int>(n) : 0;
  return p;
}

}  // namespace

SweepPart parse_sweep_part(const std::string& text) {
  JsonValue doc;
  try {
    doc = json_parse(text);
  } catch (const std::exception& e) {
    refuse(std::string("not a sweep part (") + e.what() + ")");
  }
  const JsonValue* format = doc.type == Type::Object ? doc.find("format") : nullptr;
  if (!format || format->type != Type::String || format->str != "attnx-sweep-part/1")
    refuse("not a sweep part (format attnx-sweep-part/1 expected: the output of attnx sweep --shard i/n)");
  object(doc, "", {"format", "about", "shard", "options", "results"});
  SweepPart p;
  p.opt = read_options(doc);
  JsonWriter w;
  write_sweep_options(w, p.opt);
  p.options_text = w.finish();
  const JsonValue& shard = object(member(doc, "", "shard"), "shard", {"index", "count"});
  const long long tasks = static_cast<long long>(p.opt.Ls.size()) * p.opt.trials;
  p.count = static_cast<int>(integer(shard, "shard", "count", 1, tasks));
  p.index = static_cast<int>(integer(shard, "shard", "index", 0, p.count - 1));
  p.tasks = shard_tasks(p.opt, p.index, p.count);
  const JsonValue& rs = member(doc, "", "results");
  if (rs.type != Type::Array) bad("results", "an array", &rs);
  if (rs.arr.size() != p.tasks.size())
    refuse("results must hold the " + std::to_string(p.tasks.size()) + " results of shard " +
           std::to_string(p.index) + "/" + std::to_string(p.count) + " (got " + std::to_string(rs.arr.size()) + ")");
  for (std::size_t n = 0; n < rs.arr.size(); ++n)
    p.results.push_back(read_result(rs.arr[n], "results[" + std::to_string(n) + "]", p.opt, p.tasks[n]));
  return p;
}

}  // namespace attnx
