// attnx core: a small strict JSON reader (RFC 8259; no comments, no trailing commas, no
// repeated keys) recording where each value starts; the grammar is formats/json_cursor.hpp's.
#include <attnx/json.hpp>

#include <unordered_set>

#include "formats/json_cursor.hpp"

namespace attnx {

const JsonValue* JsonValue::find(const std::string& k) const {
  if (type != Type::Object) return nullptr;
  for (const auto& kv : obj)
    if (kv.first == k) return &kv.second;
  return nullptr;
}

JsonValue JsonValue::of(double v) {
  JsonValue j;
  j.type = Type::Number;
  j.num = v;
  return j;
}

JsonValue JsonValue::of(bool v) {
  JsonValue j;
  j.type = Type::Bool;
  j.b = v;
  return j;
}

JsonValue JsonValue::of(const std::string& v) {
  JsonValue j;
  j.type = Type::String;
  j.str = v;
  return j;
}

JsonValue JsonValue::array() {
  JsonValue j;
  j.type = Type::Array;
  return j;
}

JsonValue JsonValue::object() {
  JsonValue j;
  j.type = Type::Object;
  return j;
}

JsonValue JsonValue::count_or_null(double v) { return v < 0 ? JsonValue() : of(v); }

JsonValue& JsonValue::set(const std::string& k, JsonValue v) {
  obj.emplace_back(k, std::move(v));
  return *this;
}

const char* json_type_name(JsonValue::Type t) {
  switch (t) {
    case JsonValue::Type::Null: return "null";
    case JsonValue::Type::Bool: return "a boolean";
    case JsonValue::Type::Number: return "a number";
    case JsonValue::Type::String: return "a string";
    case JsonValue::Type::Array:
    case JsonValue::Type::Numbers: return "an array";
    case JsonValue::Type::Object: return "an object";
    case JsonValue::Type::Other: return "a value JSON has no type for";
  }
  return "?";
}

JsonSyntaxError::JsonSyntaxError(int line, int column, const std::string& what)
    : std::runtime_error("line " + std::to_string(line) + ", column " + std::to_string(column) +
                         ": " + what),
      line_(line), column_(column), reason_(what) {}

void append_utf8(std::string& o, char32_t cp) {
  if (cp < 0x80) {
    o += static_cast<char>(cp);
  } else if (cp < 0x800) {
    o += static_cast<char>(0xC0 | (cp >> 6));
    o += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    o += static_cast<char>(0xE0 | (cp >> 12));
    o += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    o += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    o += static_cast<char>(0xF0 | (cp >> 18));
    o += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    o += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    o += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

namespace {

// The value tree of a text, read on the shared grammar (formats/json_cursor.hpp).
class Parser {
 public:
  explicit Parser(const std::string& t) : c_(t) {}

  JsonValue document() {
    c_.skip_ws();
    JsonValue v = value(0);
    c_.skip_ws();
    if (!c_.at_end()) c_.error("unexpected text after the JSON value");
    return v;
  }

 private:
  json_detail::JsonCursor c_;

  JsonValue value(int depth) {
    c_.check_value_start(depth);
    JsonValue v;
    v.line = c_.line();
    v.column = c_.column();
    const char c = c_.peek();
    if (c == '{') {
      object(v, depth);
    } else if (c == '[') {
      array(v, depth);
    } else if (c == '"') {
      v.type = JsonValue::Type::String;
      v.str = c_.string();
    } else if (c == 't') {
      c_.expect_word("true");
      v.type = JsonValue::Type::Bool;
      v.b = true;
    } else if (c == 'f') {
      c_.expect_word("false");
      v.type = JsonValue::Type::Bool;
    } else if (c == 'n') {
      c_.expect_word("null");
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.type = JsonValue::Type::Number;
      v.num = c_.number();
    } else {
      c_.error("unexpected character " + json_detail::JsonCursor::shown_char(c));
    }
    return v;
  }

  // True if object v already has key k. Small objects are searched; large ones use `index`.
  static bool repeated(const JsonValue& v, const std::string& k,
                       std::unordered_set<std::string>& index) {
    if (v.obj.size() < 16) {
      for (const auto& kv : v.obj)
        if (kv.first == k) return true;
      return false;
    }
    if (index.empty())
      for (const auto& kv : v.obj) index.insert(kv.first);
    return !index.insert(k).second;
  }

  void object(JsonValue& v, int depth) {
    v.type = JsonValue::Type::Object;
    c_.eat('{');
    c_.skip_ws();
    if (c_.eat('}')) return;
    std::unordered_set<std::string> index;
    for (;;) {
      c_.skip_ws();
      if (!c_.at_end() && c_.peek() == '}') c_.error("trailing comma before '}'");
      if (c_.at_end() || c_.peek() != '"') c_.error("expected a string key");
      const std::size_t key_at = c_.pos();
      std::string k = c_.string();
      if (repeated(v, k, index)) {
        c_.rewind(key_at);
        c_.error("repeated key " + json_escape(k) + " (each key may appear once)");
      }
      c_.skip_ws();
      if (!c_.eat(':')) c_.error("expected ':' after an object key");
      c_.skip_ws();
      v.obj.emplace_back(std::move(k), value(depth + 1));
      c_.skip_ws();
      if (c_.eat('}')) return;
      if (!c_.eat(',')) c_.error("expected ',' or '}' in an object");
    }
  }

  void array(JsonValue& v, int depth) {
    v.type = JsonValue::Type::Array;
    c_.eat('[');
    c_.skip_ws();
    if (c_.eat(']')) return;
    for (;;) {
      c_.skip_ws();
      if (!c_.at_end() && c_.peek() == ']') c_.error("trailing comma before ']'");
      v.arr.push_back(value(depth + 1));
      c_.skip_ws();
      if (c_.eat(']')) return;
      if (!c_.eat(',')) c_.error("expected ',' or ']' in an array");
    }
  }
};

}  // namespace

JsonValue json_parse(const std::string& text) { return Parser(text).document(); }

}  // namespace attnx
