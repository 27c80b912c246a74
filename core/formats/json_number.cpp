// attnx core: numbers as text (see json.hpp). Native builds take the shortest round-trip digits
// from std::to_chars; builds whose library has no floating-point to_chars (Emscripten 3.1.6)
// find the same digits with printf and strtod. Both then print them the same way, so the CLI
// and the pages write the same bytes.
#include <attnx/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

#if !defined(__EMSCRIPTEN__)
#include <charconv>
#endif

namespace attnx {

namespace detail {

namespace {

template <class T>
T read_back(const char* s) {
  if constexpr (std::is_same_v<T, float>) return std::strtof(s, nullptr);
  else return std::strtod(s, nullptr);
}

// "d.ddde+x" -> digits and exponent.
Decimal split_scientific(const std::string& s) {
  Decimal d;
  const std::size_t e = s.find_first_of("eE");
  for (std::size_t i = 0; i < e; ++i)
    if (s[i] != '.') d.digits += s[i];
  d.exp = std::atoi(s.c_str() + e + 1);
  return d;
}

std::string scientific_text(const Decimal& d) {
  std::string s = d.digits.substr(0, 1);
  if (d.digits.size() > 1) s += "." + d.digits.substr(1);
  char e[16];
  std::snprintf(e, sizeof e, "e%c%02d", d.exp < 0 ? '-' : '+', std::abs(d.exp));
  return s + e;
}

// The p-digit decimal one unit (in the last digit) above (dir = +1) or below (-1) d.
Decimal neighbour(Decimal d, int dir) {
  std::string& g = d.digits;
  int i = static_cast<int>(g.size()) - 1;
  for (; i >= 0; --i) {
    if (dir > 0 && g[i] == '9') { g[i] = '0'; continue; }
    if (dir < 0 && g[i] == '0') { g[i] = '9'; continue; }
    g[i] = static_cast<char>(g[i] + dir);
    break;
  }
  if (i < 0 && dir > 0) {  // 9.99e4 + 0.01e4 = 1.00e5
    g = "1" + std::string(g.size() - 1, '0');
    ++d.exp;
  } else if (g[0] == '0') {  // 1.00e5 - 0.01e5: the p-digit decimal below is 9.99e4
    g = std::string(g.size(), '9');
    --d.exp;
  }
  return d;
}

void trim_zeros(Decimal& d) {
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
}

// Fewest digits that read back to v; among those the closest to v (as std::to_chars). The
// nearest p-digit decimal comes from printf; if it does not read back, only its neighbour on
// the other side of v can (the decimals that read back to v form an interval around v).
template <class T>
Decimal search(T v) {
  const int max_digits = std::is_same_v<T, float> ? 9 : 17;
  char buf[64];
  for (int p = 1;; ++p) {
    std::snprintf(buf, sizeof buf, "%.*e", p - 1, static_cast<double>(v));
    Decimal d = split_scientific(buf);
    const T back = read_back<T>(buf);
    if (back == v || p == max_digits) {
      trim_zeros(d);
      return d;
    }
    Decimal o = neighbour(d, back < v ? 1 : -1);
    if (read_back<T>(scientific_text(o).c_str()) == v) {
      trim_zeros(o);
      return o;
    }
  }
}

}  // namespace

Decimal shortest_decimal_search(double v) { return search(v); }
Decimal shortest_decimal_search(float v) { return search(v); }

std::string to_chars_text(double v, const Decimal& d) {
  const int k = static_cast<int>(d.digits.size()), e = d.exp;
  const std::string sci = scientific_text(d);
  std::string fixed;
  if (e >= k - 1) {
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.0f", std::fabs(v));  // an integer: printed exactly
    fixed = buf;
  } else if (e >= 0) {
    fixed = d.digits.substr(0, e + 1) + "." + d.digits.substr(e + 1);
  } else {
    fixed = "0." + std::string(-e - 1, '0') + d.digits;
  }
  return (v < 0 ? "-" : "") + (fixed.size() <= sci.size() ? fixed : sci);
}

}  // namespace detail

namespace {

template <class T>
detail::Decimal shortest(T v) {  // finite v > 0
#if defined(__EMSCRIPTEN__)
  return detail::shortest_decimal_search(v);
#else
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  return detail::split_scientific(std::string(buf, r.ptr));
#endif
}

template <class T>
std::string number_text(T v) {
  if (!std::isfinite(v)) return "null";
  if (v == 0) return std::signbit(v) ? "-0" : "0";
  return detail::to_chars_text(static_cast<double>(v), shortest(std::fabs(v)));
}

}  // namespace

std::string json_number(double v) { return number_text(v); }
std::string json_number(float v) { return number_text(v); }

std::string js_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  if (v == 0) return "0";  // String(-0) is "0" too
  // ECMAScript Number::toString: value = 0.digits x 10^n.
  const detail::Decimal d = shortest(std::fabs(v));
  const std::string& g = d.digits;
  const int k = static_cast<int>(g.size()), n = d.exp + 1;
  std::string o = v < 0 ? "-" : "";
  if (k <= n && n <= 21) {
    o += g + std::string(n - k, '0');
  } else if (0 < n && n <= 21) {
    o += g.substr(0, n) + "." + g.substr(n);
  } else if (-6 < n && n <= 0) {
    o += "0." + std::string(-n, '0') + g;
  } else {
    o += g.substr(0, 1);
    if (k > 1) o += "." + g.substr(1);
    o += (n - 1 < 0 ? "e-" : "e+") + std::to_string(std::abs(n - 1));
  }
  return o;
}

namespace {

// Clinger's fast path: the digits (at most 15 significant, so below 2^53) and a power of ten
// of at most 22 (exact in a double) give the correctly rounded double by one multiplication or
// division, which is what strtod returns. False when the text is outside that (strtod reads it).
bool fast_decimal(const char* p, const char* last, double* out) {
  static const double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  const bool negative = p < last && *p == '-';
  if (negative) ++p;
  std::uint64_t digits = 0;
  int count = 0, scale = 0;
  for (bool point = false; p < last; ++p) {
    if (*p == '.' && !point) {
      point = true;
    } else if (*p >= '0' && *p <= '9') {
      if (digits == 0 && *p == '0') {
        scale -= point;  // leading zeros count only for the scale
        continue;
      }
      if (++count > 15) return false;
      digits = digits * 10 + std::uint64_t(*p - '0');
      scale -= point;
    } else {
      return false;  // an exponent: strtod
    }
  }
  if (scale < -22) return false;
  const double v = scale < 0 ? double(digits) / kPow10[-scale] : double(digits);
  *out = negative ? -v : v;
  return true;
}

}  // namespace

double parse_decimal(const char* first, const char* last) {
  double v;
  if (fast_decimal(first, last, &v)) return v;
  const std::string s(first, last);  // strtod needs a terminated string
  return std::strtod(s.c_str(), nullptr);
}

}  // namespace attnx
