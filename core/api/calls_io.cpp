// attnx core: the JavaScript API's text calls (see calls_io.hpp).
#include <attnx/calls_io.hpp>

#include <cmath>

#include <attnx/call_options.hpp>
#include <attnx/errors.hpp>
#include <attnx/schema.hpp>
#include "call_record.hpp"

namespace attnx {

namespace {

using Type = JsonValue::Type;
using namespace call_record;

const std::string& read_text(const JsonValue& v, const char* field) {
  if (v.type != Type::String)
    fail(field, std::string(field) + " must be a string (got " + describe_value(v) + ")");
  return v.str;
}

// "json" (true) or "csv" (false).
bool read_json_format(const JsonValue& f) {
  if (f.type == Type::String && (f.str == "json" || f.str == "csv")) return f.str == "json";
  fail("format", "format must be one of json, csv (got " +
                     (f.type == Type::String ? "\"" + f.str.substr(0, 40) + "\"" : describe_value(f)) +
                     ")");
}

PatternTriplets read_pattern(const JsonValue& p) {
  if (p.type != Type::Object)
    fail("pattern", "pattern must be an object { L, triplets: { rows, cols, vals } } (got " +
                        describe_value(p) + ")");
  const JsonValue* L = p.find("L");
  if (absent(L) || L->type != Type::Number || L->num != std::floor(L->num))
    fail("L", "L must be an integer (got " + (L ? describe_value(*L) : "undefined") + ")");
  require_option("L", L->num);
  const JsonValue* t = p.find("triplets");
  if (absent(t) || !is_object(*t))
    fail("triplets", "triplets must be an object { rows, cols, vals } (got " +
                         (t ? describe_value(*t) : "undefined") + ")");
  JsonValue none;  // a missing member, as JavaScript names it
  none.type = Type::Other;
  none.str = "undefined";
  auto column = [&](const char* key) {
    const JsonValue* c = t->find(key);
    return read_number_list(c ? *c : none, std::string("triplets.") + key);
  };
  const std::vector<double> rows = column("rows"), cols = column("cols"), vals = column("vals");
  if (cols.size() != rows.size() || vals.size() != rows.size())
    fail("triplets", "triplets.rows, .cols and .vals must have the same length (got " +
                         std::to_string(rows.size()) + ", " + std::to_string(cols.size()) + ", " +
                         std::to_string(vals.size()) + ")");
  PatternTriplets out;
  out.L = static_cast<int>(L->num);
  for (std::size_t n = 0; n < rows.size(); ++n) {
    if (rows[n] != std::floor(rows[n]) || cols[n] != std::floor(cols[n]))
      fail("triplets", "entry " + std::to_string(n) + ": indices must be integers (got " +
                           fmt_num(rows[n]) + ", " + fmt_num(cols[n]) + ")");
    out.triplets.push_back(
        {static_cast<long long>(rows[n]), static_cast<long long>(cols[n]), vals[n]});
  }
  return out;
}

// One point of summariseSweep's input: { L, dMins, ... }.
SweepRecordPoint read_summary_point(const JsonValue& p, std::size_t i) {
  const std::string at = "points[" + std::to_string(i) + "]";
  if (p.type != Type::Object) fail("points", at + " must be an object { L, dMins, ... }");
  const JsonValue* L = p.find("L");
  require_option("L", L && L->type == Type::Number ? L->num : NAN);
  SweepRecordPoint q;
  q.L = static_cast<int>(L->num);
  q.d_mins = read_d_values(p.find("dMins"), "points", at + ".dMins");
  return q;
}

JsonValue fit_comparison_value(const FitComparison& c) {
  JsonValue o = JsonValue::object();
  o.set("resamples", JsonValue::of(c.resamples)).set("logWins", JsonValue::of(c.log_wins));
  o.set("powerWins", JsonValue::of(c.power_wins)).set("lengths", JsonValue::of(c.lengths));
  return o.set("verdict", JsonValue::of(fit_verdict(c)));
}

}  // namespace

std::vector<double> read_number_list(const JsonValue& a, const std::string& field) {
  if (a.type != Type::Array && a.type != Type::Numbers)
    fail(field, field + " must be an array of numbers (got " + describe_value(a) + ")");
  std::vector<double> v = a.nums;
  if (a.type == Type::Array) v.resize(a.arr.size());
  for (std::size_t n = 0; n < v.size(); ++n) {
    const bool num = a.type == Type::Numbers || a.arr[n].type == Type::Number;
    if (num && a.type == Type::Array) v[n] = a.arr[n].num;
    if (!num || !std::isfinite(v[n]))
      fail(field, field + "[" + std::to_string(n) + "] must be a finite number (got " +
                      (num ? fmt_num(v[n]) : describe_value(a.arr[n])) + ")");
  }
  return v;
}

PatternTriplets parse_pattern_call(const JsonValue& text, const JsonValue& L) {
  long long L_given = -1;
  if (!absent(&L)) {
    require_option("L", L.type == Type::Number ? L.num : NAN);
    L_given = static_cast<long long>(L.num);
  }
  return parse_pattern_triplets(read_text(text, "text"), L_given);
}

std::string format_pattern_call(const JsonValue& pattern, const JsonValue& format) {
  const bool json = read_json_format(format);
  const PatternTriplets p = read_pattern(pattern);
  return json ? pattern_to_json(p) : pattern_to_csv(p);
}

std::string format_sweep_call(const JsonValue& record, const JsonValue& format) {
  const bool json = read_json_format(format);
  const SweepRecord r = read_record(record);
  return json ? sweep_to_json(r) : sweep_to_csv(r);
}

JsonValue parse_sweep_call(const JsonValue& text) {
  return record_value(parse_sweep(read_text(text, "text")));
}

JsonValue summarise_sweep_call(const JsonValue& in) {
  if (in.type != Type::Object) fail("points", "summariseSweep needs { delta, points: [{ L, dMins }] }");
  const JsonValue* delta = in.find("delta");
  require_option("delta", delta && delta->type == Type::Number ? delta->num : NAN);
  const JsonValue* pts = in.find("points");
  if (absent(pts) || pts->type != Type::Array) fail("points", "points must be an array of { L, dMins }");
  std::vector<SweepRecordPoint> rp;
  for (std::size_t i = 0; i < pts->arr.size(); ++i) rp.push_back(read_summary_point(pts->arr[i], i));
  summarise_points(rp, delta->num);
  JsonValue out = JsonValue::array();
  for (std::size_t i = 0; i < rp.size(); ++i) {
    JsonValue p = pts->arr[i];  // the point as given, with its statistics
    auto put = [&p](const char* key, JsonValue v) {
      for (auto& m : p.obj)
        if (m.first == key) return void(m.second = std::move(v));
      p.set(key, std::move(v));
    };
    put("dMins", d_values(rp[i].d_mins));
    put("median", JsonValue::count_or_null(rp[i].median));
    put("quantile", JsonValue::count_or_null(rp[i].quantile));
    out.arr.push_back(std::move(p));
  }
  JsonValue r = JsonValue::object();
  r.set("points", std::move(out)).set("fits", fits_value(fit_points(rp)));
  return r.set("fitComparison", fit_comparison_value(compare_fits(rp, delta->num)));
}

}  // namespace attnx
