// attnx core: a small JSON writer (deterministic, pretty-printed like every attnx output) and a
// small strict JSON reader (RFC 8259) that records where each value starts, so that readers of
// files can name the line of a bad entry. String in, string out: no I/O here.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace attnx {

// Shortest text that parses back to the same double (std::to_chars: fixed or scientific,
// whichever is shorter, e.g. "0.1", "1e-05", "8589934592"); "null" if not finite.
std::string json_number(double v);
// Same for float data (round-trips as float32).
std::string json_number(float v);
// The text JavaScript's String(v) gives (ECMAScript Number::toString: the same shortest digits,
// exponent form only below 1e-6 or from 1e21, as "1e-7", "1.5e+21"; "NaN", "Infinity").
std::string js_number(double v);
// s as a JSON string literal, quotes included. Always ASCII-safe for a terminal: besides '"' and
// '\\', the control characters (U+0000-U+001F, U+007F-U+009F), the line and paragraph
// separators U+2028/U+2029 and invisible format characters (U+200B-U+200F, U+202A-U+202E,
// U+2060-U+2069, U+FEFF: zero-width, bidirectional overrides, byte order mark) are written as
// \uXXXX (\n, \r, \t for those three). A byte that is not part of well-formed UTF-8 (RFC 3629:
// no overlong forms, no surrogates, nothing above U+10FFFF) is written as \ufffd, one per byte.
// Other UTF-8 text is copied unchanged.
std::string json_escape(const std::string& s);
// s for a one-line message on a terminal (stderr): the characters json_escape writes as
// \uXXXX are written the same way (newline, tab and carriage return too), a byte that is not
// UTF-8 as \xNN (so a file name stays recognisable); nothing else changes (no quotes added).
std::string escape_message(const std::string& s);
// Length (1 to 4) of the well-formed UTF-8 sequence starting at s[i], with its code point in
// *cp; 0 when s[i] does not start one (i < s.size()).
std::size_t utf8_sequence(const std::string& s, std::size_t i, char32_t* cp);
// Appends code point cp (at most U+10FFFF) to o as UTF-8 (1 to 4 bytes).
void append_utf8(std::string& o, char32_t cp);
// The double nearest to the decimal number text [first, last), whose syntax the caller has
// checked (JSON number or [-]digits[.digits][e[+-]digits]); +-infinity when out of range.
double parse_decimal(const char* first, const char* last);

namespace detail {
// Shortest round-trip decimal of a finite v > 0: v ~ d.ddd x 10^exp, digits without the point.
struct Decimal {
  std::string digits;
  int exp = 0;
};
// Found with printf and strtod alone (for builds whose std::to_chars has no floating point,
// such as Emscripten 3.1.6's libc++); equal to what std::to_chars gives. Exposed for its test.
Decimal shortest_decimal_search(double v);
Decimal shortest_decimal_search(float v);
// The to_chars text of v (fixed or scientific, whichever is shorter; fixed on ties; fixed
// integers printed exactly) from v's shortest decimal.
std::string to_chars_text(double v, const Decimal& d);
}  // namespace detail

// Streaming writer. Objects and arrays are pretty-printed (two-space indent) unless opened
// "compact", which puts the whole container on one line (used for rows of numbers).
// If a sink is given, text is handed to it in chunks as the buffer grows (large exports); the
// sink returns false on a write error.
class JsonWriter {
 public:
  using Sink = std::function<bool(const std::string&)>;
  explicit JsonWriter(Sink sink = nullptr) : sink_(std::move(sink)) {}

  JsonWriter& begin_object(bool compact = false);
  JsonWriter& end_object();
  JsonWriter& begin_array(bool compact = false);
  JsonWriter& end_array();
  JsonWriter& key(const std::string& k);

  JsonWriter& value(double v);
  JsonWriter& value_f(float v);
  JsonWriter& value(int v) { return value_ll(v); }
  JsonWriter& value(long long v) { return value_ll(v); }
  JsonWriter& value(std::uint64_t v);
  JsonWriter& value(bool v);
  JsonWriter& value(const std::string& v);
  JsonWriter& value(const char* v) { return value(std::string(v)); }
  JsonWriter& null();
  JsonWriter& value_ll(long long v);
  // An int where negative means "not reached / none": prints null.
  JsonWriter& value_or_null(long long v) { return v < 0 ? null() : value_ll(v); }
  JsonWriter& value_or_null(int v) { return value_or_null(static_cast<long long>(v)); }
  // A measure that is unknown when negative (a median of no trial: -1) or not finite.
  JsonWriter& real_or_null(double v) { return v < 0 || !(v == v) || v - v != 0 ? null() : value(v); }

  template <class T>
  JsonWriter& field(const std::string& k, const T& v) { key(k); return value(v); }

  // Finishes the document (adds a newline) and returns the text not yet handed to the sink.
  std::string finish();
  // Hands what is buffered to the sink (no-op without one). False once any write failed.
  bool flush();

 private:
  struct Frame { bool object, compact; int count; };
  void before_value();
  void raw(const std::string& s);
  void newline_indent();
  void close(const char* bracket);

  Sink sink_;
  std::string out_;
  std::vector<Frame> stack_;
  bool after_key_ = false;
  bool io_error_ = false;
};

// A JSON value: what json_parse reads, and the plain data the JavaScript API hands to the core
// and gets back (the WebAssembly module converts JS values to and from it generically). Object
// members keep their order; the reader makes keys unique. Two types never come out of
// json_parse: Numbers, an array of numbers held packed in `nums` (a JavaScript typed array:
// Float32Array, Int32Array, ...), and Other, a JavaScript value JSON has no type for (undefined,
// a bigint, a function, a symbol), with `str` the text that names it in messages ("undefined",
// "5n"). Number may hold NaN and +-infinity (from JavaScript).
struct JsonValue {
  enum class Type { Null, Bool, Number, String, Array, Object, Numbers, Other };
  Type type = Type::Null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<JsonValue> arr;
  std::vector<std::pair<std::string, JsonValue>> obj;
  std::vector<double> nums;  // Numbers
  int line = 0, column = 0;  // where the value starts (1-based; column counts bytes)

  const JsonValue* find(const std::string& k) const;  // object member or nullptr

  // Builders for values the core hands back.
  static JsonValue of(double v);
  static JsonValue of(bool v);
  static JsonValue of(const std::string& v);
  static JsonValue of(const char* v) { return of(std::string(v)); }
  static JsonValue of(int v) { return of(static_cast<double>(v)); }
  static JsonValue array();
  static JsonValue object();
  // A count or d where negative means "none / not reached": null then.
  static JsonValue count_or_null(double v);
  // Appends member k (the caller keeps keys unique) and returns *this.
  JsonValue& set(const std::string& k, JsonValue v);
};
// "null", "a boolean", "a number", "a string", "an array" (Array, Numbers), "an object", and
// "a value JSON has no type for" (Other).
const char* json_type_name(JsonValue::Type t);

// A syntax error: what() is "line L, column C: <what>".
class JsonSyntaxError : public std::runtime_error {
 public:
  JsonSyntaxError(int line, int column, const std::string& what);
  int line() const { return line_; }
  int column() const { return column_; }
  const std::string& reason() const { return reason_; }

 private:
  int line_, column_;
  std::string reason_;
};

// Parses a whole document. Throws JsonSyntaxError on bad syntax, including a number that does
// not fit in a double, a repeated key in one object, a trailing comma and nesting deeper than 64.
JsonValue json_parse(const std::string& text);

}  // namespace attnx
