// attnx wasm: conversions for the text calls (see convert_io.hpp).
#include "convert_io.hpp"

#include <cmath>
#include <optional>

#include <attnx/construct.hpp>
#include <attnx/errors.hpp>
#include <attnx/schema.hpp>
#include "convert.hpp"

namespace attnx::wasm {

namespace {


bool present(const val& v) { return !v.isUndefined() && !v.isNull(); }
bool is_number(const val& v) { return v.typeOf().as<std::string>() == "number"; }

// Short text of a JS value for messages: numbers as JS prints them, strings quoted.
std::string describe(const val& v) {
  const std::string type = v.typeOf().as<std::string>();
  std::string s = val::global("String")(v).as<std::string>();
  if (s.size() > 40) s = s.substr(0, 40) + "...";
  if (type == "string") return "\"" + s + "\"";
  if (type == "object" && v.isArray()) return "an array";
  if (type == "object" && !v.isNull()) return "an object";
  return s;
}

[[noreturn]] void bad(const char* field, const std::string& path, const char* want, const val& v) {
  fail(field, path + " must be " + want + " (got " + describe(v) + ")");
}

bool is_object(const val& v) { return present(v) && v.typeOf().as<std::string>() == "object"; }

// Record members: missing/null -> empty; other types refused naming the path.
std::optional<double> opt_number(const val& o, const std::string& key, const std::string& path) {
  const val v = o[key];
  if (!present(v)) return std::nullopt;
  if (!is_number(v)) bad("record", path + "." + key, "a number or null", v);
  return v.as<double>();
}

std::optional<long long> opt_int(const val& o, const std::string& key, const std::string& path) {
  const val v = o[key];
  const auto x = opt_number(o, key, path);
  if (x && !(std::fabs(*x) <= kMaxExactInt && *x == std::floor(*x)))
    bad("record", path + "." + key, "an integer or null", v);
  return x ? std::optional<long long>(static_cast<long long>(*x)) : std::nullopt;
}

std::optional<std::string> opt_string(const val& o, const std::string& key,
                                      const std::string& path) {
  const val v = o[key];
  if (!present(v)) return std::nullopt;
  if (!v.isString()) bad("record", path + "." + key, "a string or null", v);
  return v.as<std::string>();
}

std::optional<bool> opt_bool(const val& o, const std::string& key, const std::string& path) {
  const val v = o[key];
  if (!present(v)) return std::nullopt;
  if (!v.isTrue() && !v.isFalse()) bad("record", path + "." + key, "true, false or null", v);
  return v.isTrue();
}

SweepRecordParams read_params(const val& p) {
  const std::string at = "record.params";
  if (!is_object(p)) bad("record", at, "an object", p);
  SweepRecordParams o;
  o.pattern = opt_string(p, "pattern", at);
  for (const FamilyInfo& f : pattern_families())
    if (o.pattern && f.name == *o.pattern)
      for (const ParamInfo& q : f.params)
        if (auto v = opt_int(p, q.name, at)) o.family.emplace_back(q.name, *v);
  o.weights = opt_string(p, "weights", at);
  o.w_min = opt_number(p, "w_min", at);
  o.decay = opt_number(p, "decay", at);
  o.eps = opt_number(p, "eps", at);
  o.tau = opt_number(p, "tau", at);
  o.delta = opt_number(p, "delta", at);
  o.step = opt_int(p, "step", at);
  o.d_max = opt_int(p, "d_max", at);
  o.trials = opt_int(p, "trials", at);
  o.seed = opt_int(p, "seed", at);
  o.max_bytes = opt_int(p, "max_bytes", at);
  o.construction = opt_string(p, "construction", at);
  o.box = opt_number(p, "box", at);
  o.projection = opt_string(p, "projection", at);
  return o;
}

SweepRecordPoint read_point(const val& q, const std::string& at) {
  if (!is_object(q)) bad("record", at, "an object", q);
  SweepRecordPoint p;
  const auto L = opt_int(q, "L", at);
  if (!L) bad("record", at + ".L", "an integer", q["L"]);
  p.L = static_cast<int>(*L);
  p.d_mins = read_d_values(q["d_mins"], "record", at + ".d_mins");
  p.median = opt_number(q, "median", at).value_or(-1);
  p.quantile = static_cast<int>(opt_int(q, "quantile", at).value_or(-1));
  p.d_star = opt_number(q, "d_star", at);
  if (auto k = opt_int(q, "k", at)) p.k = static_cast<int>(*k);
  if (auto c = opt_int(q, "max_col_count", at)) p.max_col_count = static_cast<int>(*c);
  p.in_class = opt_bool(q, "in_class", at);
  if (auto m = opt_int(q, "madds", at); m && *m >= 0) p.madds = static_cast<std::uint64_t>(*m);
  return p;
}

// A fit: ok and its three numbers (null -> NaN, which the writer prints as null).
struct FitIn {
  bool ok = false;
  double x[3] = {NAN, NAN, NAN};
};
FitIn read_fit(const val& f, const std::string& at, const char* k0, const char* k1) {
  if (!is_object(f)) bad("record", at, "an object", f);
  FitIn out;
  out.ok = opt_bool(f, "ok", at).value_or(false);
  const char* keys[3] = {k0, k1, "r2"};
  for (int n = 0; n < 3; ++n) out.x[n] = opt_number(f, keys[n], at).value_or(NAN);
  return out;
}

val or_null(const std::optional<double>& v) { return v ? val(*v) : val::null(); }
val int_or_null(long long v) { return v < 0 ? val::null() : val(static_cast<double>(v)); }

val params_to_js(const SweepRecord& rec) {
  const SweepRecordParams& p = rec.params;
  val o = val::object();
  if (p.pattern) o.set("pattern", *p.pattern);
  for (const auto& f : p.family) o.set(f.first, static_cast<double>(f.second));
  if (p.weights) o.set("weights", *p.weights);
  const std::pair<const char*, const std::optional<double>*> reals[] = {
      {"w_min", &p.w_min}, {"decay", &p.decay}, {"eps", &p.eps}, {"tau", &p.tau}};
  for (const auto& r : reals)
    if (*r.second) o.set(r.first, **r.second);
  o.set("delta", or_null(p.delta));
  const std::pair<const char*, const std::optional<long long>*> ints[] = {
      {"step", &p.step}, {"d_max", &p.d_max}, {"trials", &p.trials}, {"seed", &p.seed},
      {"max_bytes", &p.max_bytes}};
  for (const auto& r : ints)
    if (*r.second) o.set(r.first, static_cast<double>(**r.second));
  if (p.construction) o.set("construction", *p.construction);
  if (p.box) o.set("box", *p.box);
  if (p.projection) o.set("projection", *p.projection);
  val Ls = val::array();
  for (std::size_t i = 0; i < rec.points.size(); ++i) Ls.set(i, rec.points[i].L);
  o.set("Ls", Ls);
  return o;
}

val point_to_js(const SweepRecordPoint& p) {
  val o = val::object();
  o.set("L", p.L);
  val d = val::array();
  for (std::size_t t = 0; t < p.d_mins.size(); ++t) d.set(t, int_or_null(p.d_mins[t]));
  o.set("d_mins", d);
  o.set("median", p.median < 0 ? val::null() : val(p.median));
  o.set("quantile", int_or_null(p.quantile));
  o.set("d_star", p.d_star && std::isfinite(*p.d_star) ? val(*p.d_star) : val::null());
  o.set("k", p.k ? val(*p.k) : val::null());
  o.set("max_col_count", p.max_col_count ? val(*p.max_col_count) : val::null());
  o.set("in_class", p.in_class ? val(*p.in_class) : val::null());
  o.set("madds", p.madds ? val(static_cast<double>(*p.madds)) : val::null());
  return o;
}

}  // namespace

std::vector<int> read_d_values(const val& a, const char* field, const std::string& path) {
  if (!is_object(a) || !a["length"].isNumber())
    bad(field, path, "an array of d values (null = not reached)", a);
  const int n = a["length"].as<int>();
  std::vector<int> d(n);
  for (int t = 0; t < n; ++t) {
    const val x = a[t];
    const double v = !present(x) ? -1 : (is_number(x) ? x.as<double>() : NAN);
    if (!(v == std::floor(v) && v <= kMaxD && v != 0))
      fail(field, path + "[" + std::to_string(t) + "] must be an integer d from 1 to " +
                      std::to_string(kMaxD) + " or null (got " + describe(x) + ")");
    d[t] = v < 0 ? -1 : static_cast<int>(v);
  }
  return d;
}

std::string read_text(const val& v, const char* field) {
  if (!v.isString()) bad(field, field, "a string", v);
  return v.as<std::string>();
}

PatternTriplets read_pattern_triplets(const val& p) {
  if (!is_object(p))
    bad("pattern", "pattern", "an object { L, triplets: { rows, cols, vals } }", p);
  const val Lv = p["L"];
  if (!is_number(Lv) || Lv.as<double>() != std::floor(Lv.as<double>()))
    bad("L", "L", "an integer", Lv);
  require_option("L", Lv.as<double>());
  const val t = p["triplets"];
  if (!is_object(t)) bad("triplets", "triplets", "an object { rows, cols, vals }", t);
  const std::vector<double> rows = read_number_array(t["rows"], "triplets.rows");
  const std::vector<double> cols = read_number_array(t["cols"], "triplets.cols");
  const std::vector<double> vals = read_number_array(t["vals"], "triplets.vals");
  if (cols.size() != rows.size() || vals.size() != rows.size())
    fail("triplets", "triplets.rows, .cols and .vals must have the same length (got " +
                         std::to_string(rows.size()) + ", " + std::to_string(cols.size()) + ", " +
                         std::to_string(vals.size()) + ")");
  PatternTriplets out;
  out.L = Lv.as<int>();
  for (std::size_t n = 0; n < rows.size(); ++n) {
    if (rows[n] != std::floor(rows[n]) || cols[n] != std::floor(cols[n]))
      fail("triplets", "entry " + std::to_string(n) + ": indices must be integers (got " +
                           fmt_num(rows[n]) + ", " + fmt_num(cols[n]) + ")");
    out.triplets.push_back(
        {static_cast<long long>(rows[n]), static_cast<long long>(cols[n]), vals[n]});
  }
  return out;
}

val pattern_triplets_to_js(const PatternTriplets& p) {
  const std::size_t n = p.triplets.size();
  std::vector<int> rows(n), cols(n);
  std::vector<double> vals(n);
  for (std::size_t t = 0; t < n; ++t) {
    rows[t] = static_cast<int>(p.triplets[t].i);
    cols[t] = static_cast<int>(p.triplets[t].j);
    vals[t] = p.triplets[t].w;
  }
  val tr = val::object();
  tr.set("rows", to_int32_array(rows.data(), n));
  tr.set("cols", to_int32_array(cols.data(), n));
  tr.set("vals", to_float64_array(vals.data(), n));
  val o = val::object();
  o.set("L", p.L);
  o.set("nnz", static_cast<double>(n));
  o.set("triplets", tr);
  return o;
}

SweepRecord read_sweep_record(const val& rec) {
  if (!is_object(rec)) bad("record", "record", "an object { version, params, points, fits }", rec);
  SweepRecord r;
  r.version = opt_string(rec, "version", "record").value_or("");
  r.params = read_params(rec["params"]);
  const val pts = rec["points"];
  if (!is_object(pts) || !pts.isArray()) bad("record", "record.points", "an array", pts);
  const int n = pts["length"].as<int>();
  for (int i = 0; i < n; ++i)
    r.points.push_back(read_point(pts[i], "record.points[" + std::to_string(i) + "]"));
  const val f = rec["fits"];
  if (!present(f)) {
    r.fits = fit_points(r.points);
    return r;
  }
  if (!is_object(f)) bad("record", "record.fits", "an object { log, power }", f);
  const FitIn lf = read_fit(f["log"], "record.fits.log", "a", "b");
  const FitIn pf = read_fit(f["power"], "record.fits.power", "c", "p");
  r.fits.log = {lf.ok, lf.x[0], lf.x[1], lf.x[2]};
  r.fits.power = {pf.ok, pf.x[0], pf.x[1], pf.x[2]};
  return r;
}

val sweep_fits_to_js(const SweepFits& f) {
  auto num = [](bool ok, double v) { return ok ? val(v) : val::null(); };
  val l = val::object(), p = val::object(), o = val::object();
  l.set("model", std::string(kLogFitModel));
  l.set("ok", f.log.ok);
  l.set("a", num(f.log.ok, f.log.a));
  l.set("b", num(f.log.ok, f.log.b));
  l.set("r2", num(f.log.ok, f.log.r2));
  p.set("model", std::string(kPowerFitModel));
  p.set("ok", f.power.ok);
  p.set("c", num(f.power.ok, f.power.c));
  p.set("p", num(f.power.ok, f.power.p));
  p.set("r2", num(f.power.ok, f.power.r2));
  o.set("log", l);
  o.set("power", p);
  return o;
}

val sweep_record_to_js(const SweepRecord& rec) {
  val o = val::object();
  o.set("source", std::string("import"));
  o.set("version", rec.version.empty() ? val::null() : val(rec.version));
  o.set("params", params_to_js(rec));
  val pts = val::array();
  for (std::size_t i = 0; i < rec.points.size(); ++i) pts.set(i, point_to_js(rec.points[i]));
  o.set("points", pts);
  o.set("fits", sweep_fits_to_js(rec.fits));
  o.set("complete", true);
  return o;
}

}  // namespace attnx::wasm
