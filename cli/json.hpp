// attnx CLI: a small JSON writer (streaming, deterministic) and a small JSON reader.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace attnx::cli {

// Shortest text that parses back to the same double (std::to_chars); "null" if not finite.
std::string json_number(double v);
// Same for float data (round-trips as float32).
std::string json_number(float v);

// Streaming writer. Objects and arrays are pretty-printed (two-space indent) unless opened
// "compact", which puts the whole container on one line (used for rows of numbers).
// If a sink FILE* is given, the buffer is flushed to it as it grows (large exports).
class JsonWriter {
 public:
  explicit JsonWriter(std::FILE* sink = nullptr) : sink_(sink) {}

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

  template <class T>
  JsonWriter& field(const std::string& k, const T& v) { key(k); return value(v); }

  // Finishes the document (adds a newline) and returns the text not yet flushed.
  std::string finish();
  // Writes what is buffered to the sink (no-op without a sink). Returns false on I/O error.
  bool flush();

 private:
  struct Frame { bool object, compact; int count; };
  void before_value();
  void raw(const std::string& s);
  void newline_indent();
  void close(const char* bracket);

  std::FILE* sink_;
  std::string out_;
  std::vector<Frame> stack_;
  bool after_key_ = false;
  bool io_error_ = false;
};

std::string json_escape(const std::string& s);

// Parsed JSON value (reader). Object members keep file order.
struct JsonValue {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool b = false;
  double num = 0;
  std::string str;
  std::vector<JsonValue> arr;
  std::vector<std::pair<std::string, JsonValue>> obj;

  const JsonValue* find(const std::string& k) const;  // object member or nullptr
};
const char* json_type_name(JsonValue::Type t);

// Parses a whole document. Throws std::runtime_error("line L, column C: <what>") on bad syntax,
// including a number that does not fit in a double.
JsonValue json_parse(const std::string& text);

}  // namespace attnx::cli
