// attnx core: the lab's sweep record as a caller's value, both ways (see calls_io.hpp and
// call_record.hpp).
#include "call_record.hpp"

#include <cmath>

#include "sweep/sweep_check.hpp"

#include <attnx/call_options.hpp>
#include <attnx/errors.hpp>
#include <attnx/schema.hpp>

namespace attnx::call_record {

namespace {

using Type = JsonValue::Type;

[[noreturn]] void bad(const char* field, const std::string& path, const char* want,
                      const JsonValue* v) {
  fail(field, path + " must be " + want + " (got " + (v ? describe_value(*v) : "undefined") + ")");
}

// Record members: missing / null / undefined -> empty; other types refused naming the path.
std::optional<double> opt_number(const JsonValue& o, const std::string& key, const std::string& at) {
  const JsonValue* v = o.find(key);
  if (absent(v)) return std::nullopt;
  if (v->type != Type::Number) bad("record", at + "." + key, "a number or null", v);
  return v->num;
}

std::optional<long long> opt_int(const JsonValue& o, const std::string& key, const std::string& at) {
  const auto x = opt_number(o, key, at);
  if (x && !(std::fabs(*x) <= kMaxExactInt && *x == std::floor(*x)))
    bad("record", at + "." + key, "an integer or null", o.find(key));
  return x ? std::optional<long long>(static_cast<long long>(*x)) : std::nullopt;
}

std::optional<std::string> opt_string(const JsonValue& o, const std::string& key,
                                      const std::string& at) {
  const JsonValue* v = o.find(key);
  if (absent(v)) return std::nullopt;
  if (v->type != Type::String) bad("record", at + "." + key, "a string or null", v);
  return v->str;
}

std::optional<bool> opt_bool(const JsonValue& o, const std::string& key, const std::string& at) {
  const JsonValue* v = o.find(key);
  if (absent(v)) return std::nullopt;
  if (v->type != Type::Bool) bad("record", at + "." + key, "true, false or null", v);
  return v->b;
}

SweepRecordParams read_params(const JsonValue* p) {
  const std::string at = "record.params";
  if (absent(p) || !is_object(*p)) bad("record", at, "an object", p);
  SweepRecordParams o;
  o.pattern = opt_string(*p, "pattern", at);
  for (const FamilyInfo& f : pattern_families())
    if (o.pattern && f.name == *o.pattern)
      for (const ParamInfo& q : f.params)
        if (auto v = opt_int(*p, q.name, at)) o.family.emplace_back(q.name, *v);
  o.weights = opt_string(*p, "weights", at);
  o.w_min = opt_number(*p, "w_min", at);
  o.decay = opt_number(*p, "decay", at);
  o.eps = opt_number(*p, "eps", at);
  o.tau = opt_number(*p, "tau", at);
  o.delta = opt_number(*p, "delta", at);
  o.step = opt_int(*p, "step", at);
  o.d_max = opt_int(*p, "d_max", at);
  o.trials = opt_int(*p, "trials", at);
  o.seed = opt_int(*p, "seed", at);
  o.max_bytes = opt_int(*p, "max_bytes", at);
  o.construction = opt_string(*p, "construction", at);
  o.box = opt_number(*p, "box", at);
  o.scale = opt_number(*p, "scale", at);
  o.projection = opt_string(*p, "projection", at);
  return o;
}

SweepRecordPoint read_point(const JsonValue& q, const std::string& at) {
  if (!is_object(q)) bad("record", at, "an object", &q);
  SweepRecordPoint p;
  const auto L = opt_int(q, "L", at);
  if (!L) bad("record", at + ".L", "an integer", q.find("L"));
  p.L = static_cast<int>(*L);
  p.d_mins = read_d_values(q.find("d_mins"), "record", at + ".d_mins");
  p.median = opt_number(q, "median", at).value_or(-1);
  p.quantile = static_cast<int>(opt_int(q, "quantile", at).value_or(-1));
  p.d_star = opt_number(q, "d_star", at);
  if (auto k = opt_int(q, "k", at)) p.k = static_cast<int>(*k);
  if (auto c = opt_int(q, "max_col_count", at)) p.max_col_count = static_cast<int>(*c);
  p.in_class = opt_bool(q, "in_class", at);
  if (auto m = opt_int(q, "madds", at); m && *m >= 0) p.madds = static_cast<std::uint64_t>(*m);
  try {  // SPEC §9's bounds, as parse_sweep reads them (refusals named here by field "record")
    sweep_check::read_bounds(q, p, sweep_check::Names{{at}, "."}, 0);
  } catch (const InvalidArgument& e) {
    fail("record", e.what());
  }
  return p;
}

// A fit: ok and its three numbers (null -> NaN, which the writers print as null / NA).
template <class Fit>
Fit read_fit(const JsonValue* f, const std::string& at, const char* k0, const char* k1) {
  if (absent(f) || !is_object(*f)) bad("record", at, "an object", f);
  const bool ok = opt_bool(*f, "ok", at).value_or(false);
  const double x0 = opt_number(*f, k0, at).value_or(NAN), x1 = opt_number(*f, k1, at).value_or(NAN);
  return {ok, x0, x1, opt_number(*f, "r2", at).value_or(NAN)};
}

JsonValue optional_number(const std::optional<double>& v) {
  return v && std::isfinite(*v) ? JsonValue::of(*v) : JsonValue();
}

JsonValue params_value(const SweepRecord& rec) {
  const SweepRecordParams& p = rec.params;
  JsonValue o = JsonValue::object();
  if (p.pattern) o.set("pattern", JsonValue::of(*p.pattern));
  for (const auto& f : p.family) o.set(f.first, JsonValue::of(static_cast<double>(f.second)));
  if (p.weights) o.set("weights", JsonValue::of(*p.weights));
  const std::pair<const char*, const std::optional<double>*> reals[] = {
      {"w_min", &p.w_min}, {"decay", &p.decay}, {"eps", &p.eps}, {"tau", &p.tau}};
  for (const auto& r : reals)
    if (*r.second) o.set(r.first, JsonValue::of(**r.second));
  o.set("delta", p.delta ? JsonValue::of(*p.delta) : JsonValue());
  const std::pair<const char*, const std::optional<long long>*> ints[] = {
      {"step", &p.step}, {"d_max", &p.d_max}, {"trials", &p.trials}, {"seed", &p.seed},
      {"max_bytes", &p.max_bytes}};
  for (const auto& r : ints)
    if (*r.second) o.set(r.first, JsonValue::of(static_cast<double>(**r.second)));
  if (p.construction) o.set("construction", JsonValue::of(*p.construction));
  if (p.box) o.set("box", JsonValue::of(*p.box));
  if (p.scale) o.set("scale", JsonValue::of(*p.scale));
  if (p.projection) o.set("projection", JsonValue::of(*p.projection));
  JsonValue Ls = JsonValue::array();
  for (const SweepRecordPoint& q : rec.points) Ls.arr.push_back(JsonValue::of(q.L));
  return o.set("Ls", std::move(Ls));
}

// SPEC §9's bounds in sweep_bound_keys() order, as sweep files write them (null: unknown).
void put_bounds(JsonValue& o, const SweepPointBounds& b) {
  for (const std::string& k : sweep_bound_keys()) {
    if (k == "logit_scales" || k == "max_abs_logits") {
      JsonValue a = JsonValue::array();
      for (double x : k == "logit_scales" ? b.logit_scales : b.max_abs_logits)
        a.arr.push_back(JsonValue::count_or_null(x));
      o.set(k, std::move(a));
    } else if (k == "column_supports") {
      o.set(k, b.column_supports > 0 ? JsonValue::of(b.column_supports) : JsonValue());
    } else {
      const auto m = scalar_bound_member(k);
      o.set(k, optional_number(m ? std::optional<double>(b.*m) : std::nullopt));
    }
  }
}

}  // namespace

bool is_object(const JsonValue& v) {
  return v.type == Type::Object || v.type == Type::Array || v.type == Type::Numbers;
}

std::vector<int> read_d_values(const JsonValue* a, const char* field, const std::string& path) {
  if (absent(a) || !is_object(*a)) bad(field, path, "an array of d values (null = not reached)", a);
  const std::size_t n = a->type == Type::Numbers ? a->nums.size() : a->arr.size();
  std::vector<int> d(n);
  for (std::size_t t = 0; t < n; ++t) {
    const JsonValue x = a->type == Type::Numbers ? JsonValue::of(a->nums[t]) : a->arr[t];
    const double v = absent(&x) ? -1 : (x.type == Type::Number ? x.num : NAN);
    if (!(v == std::floor(v) && v <= kMaxD && v != 0))
      fail(field, path + "[" + std::to_string(t) + "] must be an integer d from 1 to " +
                      std::to_string(kMaxD) + " or null (got " + describe_value(x) + ")");
    d[t] = v < 0 ? -1 : static_cast<int>(v);
  }
  return d;
}

JsonValue d_values(const std::vector<int>& d) {
  JsonValue a = JsonValue::array();
  for (int x : d) a.arr.push_back(JsonValue::count_or_null(x));
  return a;
}

SweepRecord read_record(const JsonValue& rec) {
  if (!is_object(rec)) bad("record", "record", "an object { version, params, points, fits }", &rec);
  SweepRecord r;
  r.version = opt_string(rec, "version", "record").value_or("");
  r.params = read_params(rec.find("params"));
  const JsonValue* pts = rec.find("points");
  if (absent(pts) || pts->type != Type::Array) bad("record", "record.points", "an array", pts);
  for (std::size_t i = 0; i < pts->arr.size(); ++i)
    r.points.push_back(read_point(pts->arr[i], "record.points[" + std::to_string(i) + "]"));
  const JsonValue* f = rec.find("fits");
  if (absent(f)) {
    r.fits = fit_points(r.points);
    return r;
  }
  if (!is_object(*f)) bad("record", "record.fits", "an object { log, power }", f);
  r.fits.log = read_fit<LogFit>(f->find("log"), "record.fits.log", "a", "b");
  r.fits.power = read_fit<PowerFit>(f->find("power"), "record.fits.power", "c", "p");
  return r;
}

JsonValue fits_value(const SweepFits& f) {
  auto num = [](bool ok, double v) { return ok ? JsonValue::of(v) : JsonValue(); };
  JsonValue log = JsonValue::object(), power = JsonValue::object();
  log.set("model", JsonValue::of(kLogFitModel)).set("ok", JsonValue::of(f.log.ok));
  log.set("a", num(f.log.ok, f.log.a)).set("b", num(f.log.ok, f.log.b));
  log.set("r2", num(f.log.ok, f.log.r2));
  power.set("model", JsonValue::of(kPowerFitModel)).set("ok", JsonValue::of(f.power.ok));
  power.set("c", num(f.power.ok, f.power.c)).set("p", num(f.power.ok, f.power.p));
  power.set("r2", num(f.power.ok, f.power.r2));
  JsonValue o = JsonValue::object();
  return o.set("log", std::move(log)).set("power", std::move(power));
}

JsonValue point_value(const SweepRecordPoint& p) {
  JsonValue o = JsonValue::object();
  o.set("L", JsonValue::of(p.L));
  o.set("d_mins", d_values(p.d_mins));
  o.set("median", JsonValue::count_or_null(p.median));
  o.set("quantile", JsonValue::count_or_null(p.quantile));
  o.set("d_star", optional_number(p.d_star));
  o.set("k", p.k ? JsonValue::of(*p.k) : JsonValue());
  o.set("max_col_count", p.max_col_count ? JsonValue::of(*p.max_col_count) : JsonValue());
  o.set("in_class", p.in_class ? JsonValue::of(*p.in_class) : JsonValue());
  o.set("madds", p.madds ? JsonValue::of(static_cast<double>(*p.madds)) : JsonValue());
  if (p.bounds) put_bounds(o, *p.bounds);
  return o;
}

JsonValue record_value(const SweepRecord& rec) {
  JsonValue o = JsonValue::object();
  o.set("source", JsonValue::of("import"));
  o.set("version", rec.version.empty() ? JsonValue() : JsonValue::of(rec.version));
  o.set("params", params_value(rec));
  JsonValue pts = JsonValue::array();
  for (const SweepRecordPoint& p : rec.points) pts.arr.push_back(point_value(p));
  o.set("points", std::move(pts));
  o.set("fits", fits_value(rec.fits));
  return o.set("complete", JsonValue::of(true));
}

}  // namespace attnx::call_record
