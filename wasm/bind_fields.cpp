// attnx wasm: the input readers of bind_fields.hpp (never throwing a JS error).
#include "bind_fields.hpp"

namespace attnx::wasm {

namespace {
bool is_array_like(const val& a) {
  return !a.isNull() && !a.isUndefined() && a.typeOf().as<std::string>() == "object" && a["length"].isNumber();
}
}  // namespace

std::vector<double> numbers_from_js(const val& a) {
  std::vector<double> out;
  if (!is_array_like(a)) return out;
  const std::size_t n = a["length"].as<std::size_t>();
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const val x = a[i];
    out.push_back(x.isNumber() ? x.as<double>() : NAN);
  }
  return out;
}

std::vector<int> ints_from_js(const val& a) {
  std::vector<int> out;
  for (double x : numbers_from_js(a))
    out.push_back(std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 2147483648.0 ? static_cast<int>(x) : -1);
  return out;
}

double number_at(const val& o, const char* key) {
  if (o.isNull() || o.isUndefined()) return NAN;
  const val x = o[key];
  return x.isNumber() ? x.as<double>() : NAN;
}

int int_at(const val& o, const char* key) {
  const double x = number_at(o, key);
  return std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 2147483648.0 ? static_cast<int>(x) : -1;
}

bool bool_at(const val& o, const char* key, bool otherwise) {
  if (o.isNull() || o.isUndefined()) return otherwise;
  const val x = o[key];
  return x.isTrue() ? true : x.isFalse() ? false : otherwise;
}

}  // namespace attnx::wasm
