// Numbers as text (attnx/json.hpp): the printf/strtod search that WebAssembly builds use must
// give exactly what std::to_chars gives natively, so the CLI and the pages write the same bytes.
#include <doctest/doctest.h>

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <attnx/json.hpp>

namespace {

template <class T>
std::string std_to_chars(T v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

template <class T>
std::string searched(T v) {
  return attnx::detail::to_chars_text(static_cast<double>(v),
                                      attnx::detail::shortest_decimal_search(std::fabs(v)));
}

std::vector<double> sample_doubles() {
  std::mt19937_64 g(12345);
  std::vector<double> v;
  for (int n = 0; n < 40000; ++n) {  // every exponent: random bit patterns
    std::uint64_t b = g();
    double x;
    std::memcpy(&x, &b, 8);
    if (std::isfinite(x) && x != 0) v.push_back(x);
  }
  std::uniform_int_distribution<int> digits(1, 17), ex(-30, 30);
  for (int n = 0; n < 30000; ++n) {  // short decimals, as people type them
    const int k = digits(g);
    double m = std::floor(std::ldexp(double(g() >> 11), -53) * std::pow(10.0, k));
    v.push_back((m + 1) * std::pow(10.0, ex(g)));
  }
  for (int e = -1074; e <= 1023; ++e) v.push_back(std::ldexp(1.0, e));  // asymmetric gaps
  for (int e = 50; e <= 75; ++e)
    for (int d = -3; d <= 3; ++d) v.push_back(std::ldexp(1.0, e) + d * std::ldexp(1.0, e - 52));
  for (double x : {0.1, 0.3, 1e21, 1e22, 1e23, 5e-324, 1.7976931348623157e308, 100000.0,
                   120000.0, 123456789012345680000.0, 9007199254740993.0, 0.0001, 1e-5})
    v.push_back(x);
  return v;
}

}  // namespace

TEST_CASE("the printf/strtod search gives std::to_chars's text for doubles") {
  int bad = 0;
  for (double x : sample_doubles()) {
    for (double y : {x, -x}) {
      const std::string want = std_to_chars(y);
      if (searched(y) != want || attnx::json_number(y) != want) {
        if (++bad <= 5) FAIL_CHECK(y << ": to_chars " << want << ", search " << searched(y));
      }
    }
  }
  CHECK(bad == 0);
}

TEST_CASE("the printf/strtod search gives std::to_chars's text for floats") {
  std::mt19937 g(777);
  std::vector<float> v;
  for (int n = 0; n < 40000; ++n) {
    std::uint32_t b = g();
    float x;
    std::memcpy(&x, &b, 4);
    if (std::isfinite(x) && x != 0) v.push_back(x);
  }
  for (int e = -149; e <= 127; ++e) v.push_back(std::ldexp(1.0f, e));
  int bad = 0;
  for (float x : v) {
    const std::string want = std_to_chars(x);
    if (searched(x) != want || attnx::json_number(x) != want) {
      if (++bad <= 5) FAIL_CHECK(x << ": to_chars " << want << ", search " << searched(x));
    }
  }
  CHECK(bad == 0);
}

TEST_CASE("json_number: null for non-finite, signed zero kept — parse_decimal reads back") {
  CHECK(attnx::json_number(NAN) == "null");
  CHECK(attnx::json_number(-INFINITY) == "null");
  CHECK(attnx::json_number(-0.0) == "-0");
  CHECK(attnx::json_number(0.0) == "0");
  const std::string s = "3948.7072051209066";
  CHECK(attnx::parse_decimal(s.data(), s.data() + s.size()) == 3948.7072051209066);
  const std::string big = "1e400";
  CHECK(std::isinf(attnx::parse_decimal(big.data(), big.data() + big.size())));
}

TEST_CASE("parse_decimal equals strtod on decimals its fast path reads and on those it leaves to strtod") {
  std::mt19937_64 rng(47);
  int bad = 0;
  for (int n = 0; n < 200000; ++n) {
    std::string t = (rng() % 4 == 0) ? "-" : "";
    const int whole = int(rng() % 6), frac = int(rng() % 19);
    t += whole == 0 ? "0" : std::to_string(1 + rng() % 9);
    for (int k = 1; k < whole; ++k) t += char('0' + rng() % 10);
    if (frac > 0) {
      t += '.';
      for (int k = 0; k < frac; ++k) t += char('0' + (rng() % 3 == 0 ? 0 : rng() % 10));
    }
    if (rng() % 8 == 0) t += "e" + std::to_string(int(rng() % 40) - 20);
    const double want = std::strtod(t.c_str(), nullptr), got = attnx::parse_decimal(t.data(), t.data() + t.size());
    if (std::memcmp(&want, &got, sizeof got) != 0 && ++bad <= 5) FAIL_CHECK(t << ": strtod " << want << ", got " << got);
  }
  CHECK(bad == 0);
  for (const std::string t : {"0", "-0", "1", "0.5", "0.1", "0.30000000000000004", "123456789012345", "1234567890123456789",
                              "0.0000000000000000000001", "9007199254740993", "0.000000000000000000000000001"}) {
    const double want = std::strtod(t.c_str(), nullptr), got = attnx::parse_decimal(t.data(), t.data() + t.size());
    CHECK_MESSAGE(std::memcmp(&want, &got, sizeof got) == 0, t);
  }
}
