// attnx core: a caller's single values (see call_values.hpp).
#include <attnx/call_values.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/call_options.hpp>
#include <attnx/errors.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

using Type = JsonValue::Type;

const JsonValue& undefined_value() {
  static const JsonValue u = [] {
    JsonValue v;
    v.type = Type::Other;
    v.str = "undefined";
    return v;
  }();
  return u;
}

// Refuses the value at `path` inside argument `field` ("Ls[2]" inside "Ls").
[[noreturn]] void refuse(const std::string& field, const std::string& want, const JsonValue& got,
                         const std::string& path = "") {
  fail(field, (path.empty() ? field : path) + " must be " + want + " (got " + describe_value(got) + ")");
}

bool is_int_in(const JsonValue& v, long long lo, long long hi) {
  return v.type == Type::Number && std::isfinite(v.num) && v.num == std::floor(v.num) &&
         v.num >= static_cast<double>(lo) && v.num <= static_cast<double>(hi);
}

std::string int_range(long long lo, long long hi) {
  return "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
}

bool is_list(const JsonValue& a) { return a.type == Type::Array || a.type == Type::Numbers; }

std::size_t list_size(const JsonValue& a) { return a.type == Type::Numbers ? a.nums.size() : a.arr.size(); }

JsonValue list_entry(const JsonValue& a, std::size_t n) {
  return a.type == Type::Numbers ? JsonValue::of(a.nums[n]) : a.arr[n];
}

std::string at(const std::string& field, std::size_t n) { return field + "[" + std::to_string(n) + "]"; }

}  // namespace

long long int_value(const JsonValue& v, const std::string& field, long long lo, long long hi) {
  if (!is_int_in(v, lo, hi)) refuse(field, int_range(lo, hi), v);
  return static_cast<long long>(v.num);
}

long long option_value(const JsonValue& v, const char* name, const std::string& field) {
  return int_value(v, field, static_cast<long long>(option_info(name).min),
                   static_cast<long long>(context_max("wasm", name)));
}

double number_value(const JsonValue& v, const std::string& field) {
  if (v.type != Type::Number || !std::isfinite(v.num)) refuse(field, "a finite number", v);
  return v.num;
}

bool flag_value(const JsonValue& v, const std::string& field, bool otherwise) {
  if (absent(&v)) return otherwise;
  if (v.type != Type::Bool) refuse(field, "true or false", v);
  return v.b;
}

const std::string& text_value(const JsonValue& v, const std::string& field) {
  if (v.type != Type::String) refuse(field, "a string", v);
  return v.str;
}

std::vector<int> int_list(const JsonValue& a, const std::string& field, long long lo, long long hi) {
  if (!is_list(a)) refuse(field, "an array of integers", a);
  std::vector<int> out(list_size(a));
  for (std::size_t n = 0; n < out.size(); ++n) {
    const JsonValue x = list_entry(a, n);
    if (!is_int_in(x, lo, hi)) refuse(field, int_range(lo, hi), x, at(field, n));
    out[n] = static_cast<int>(x.num);
  }
  return out;
}

std::vector<double> numbers_or_none(const JsonValue& a, const std::string& field, double none) {
  if (!is_list(a)) refuse(field, "an array of numbers (null: none)", a);
  std::vector<double> out(list_size(a));
  for (std::size_t n = 0; n < out.size(); ++n) {
    const JsonValue x = list_entry(a, n);
    if (!absent(&x) && x.type != Type::Number) refuse(field, "a number or null", x, at(field, n));
    out[n] = absent(&x) ? none : x.num;
  }
  return out;
}

const std::vector<JsonValue>& object_list(const JsonValue& a, const std::string& field) {
  if (a.type != Type::Array) refuse(field, "an array of objects", a);
  for (std::size_t n = 0; n < a.arr.size(); ++n)
    if (a.arr[n].type != Type::Object) refuse(field, "an object", a.arr[n], at(field, n));
  return a.arr;
}

const JsonValue& member(const JsonValue& o, const std::string& key) {
  const JsonValue* v = o.type == Type::Object ? o.find(key) : nullptr;
  return v ? *v : undefined_value();
}

const JsonValue& options_value(const JsonValue& o, const std::vector<std::string>& allowed) {
  static const JsonValue empty = JsonValue::object();
  if (absent(&o)) return empty;
  if (o.type != Type::Object) fail("options", "options must be a plain object (got " + describe_value(o) + ")");
  for (const auto& m : o.obj) {
    if (std::find(allowed.begin(), allowed.end(), m.first) != allowed.end()) continue;
    std::string list;
    for (const auto& name : allowed) list += (list.empty() ? "" : ", ") + name;
    fail(m.first, "unknown option \"" + m.first.substr(0, 40) + "\" (allowed: " + list + ")");
  }
  return o;
}

}  // namespace attnx
