// attnx core: a small strict JSON reader (RFC 8259; no comments, no trailing commas, no
// repeated keys) recording where each value starts.
#include <attnx/json.hpp>

#include <cmath>
#include <unordered_set>

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

class Parser {
 public:
  explicit Parser(const std::string& t) : s_(t) {}

  JsonValue document() {
    skip_ws();
    JsonValue v = value(0);
    skip_ws();
    if (p_ != s_.size()) error("unexpected text after the JSON value");
    return v;
  }

 private:
  const std::string& s_;
  std::size_t p_ = 0;
  int line_ = 1;
  std::size_t line_start_ = 0;  // offset of the current line's first byte

  // A character for a message: 'x', or escaped ("\u0000") when not printable ASCII, so a NUL
  // cannot cut the message and no control byte reaches a terminal.
  static std::string shown_char(char c) {
    if (c >= 0x20 && c < 0x7F) return std::string("'") + c + "'";
    return json_escape(std::string(1, c));
  }

  [[noreturn]] void error(const std::string& what) const {
    int line = 1, col = 1;
    for (std::size_t i = 0; i < p_ && i < s_.size(); ++i) {
      if (s_[i] == '\n') { ++line; col = 1; } else { ++col; }
    }
    throw JsonSyntaxError(line, col, what);
  }

  void skip_ws() {
    while (p_ < s_.size()) {
      const char c = s_[p_];
      if (c == '\n') {
        ++line_;
        line_start_ = p_ + 1;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        break;
      }
      ++p_;
    }
  }
  bool eat(char c) {
    if (p_ < s_.size() && s_[p_] == c) { ++p_; return true; }
    return false;
  }
  void expect_word(const char* w) {
    for (const char* q = w; *q; ++q)
      if (!eat(*q)) error(std::string("invalid literal (expected '") + w + "')");
  }

  JsonValue value(int depth) {
    if (depth > 64) error("nesting deeper than 64 levels");
    if (p_ >= s_.size()) error("unexpected end of input");
    JsonValue v;
    v.line = line_;
    v.column = static_cast<int>(p_ - line_start_) + 1;
    const char c = s_[p_];
    if (c == '{') {
      object(v, depth);
    } else if (c == '[') {
      array(v, depth);
    } else if (c == '"') {
      v.type = JsonValue::Type::String;
      v.str = string();
    } else if (c == 't') {
      expect_word("true");
      v.type = JsonValue::Type::Bool;
      v.b = true;
    } else if (c == 'f') {
      expect_word("false");
      v.type = JsonValue::Type::Bool;
    } else if (c == 'n') {
      expect_word("null");
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      v.type = JsonValue::Type::Number;
      v.num = number();
    } else {
      error("unexpected character " + shown_char(c));
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
    ++p_;
    skip_ws();
    if (eat('}')) return;
    std::unordered_set<std::string> index;
    for (;;) {
      skip_ws();
      if (p_ < s_.size() && s_[p_] == '}') error("trailing comma before '}'");
      if (p_ >= s_.size() || s_[p_] != '"') error("expected a string key");
      const std::size_t key_at = p_;
      std::string k = string();
      if (repeated(v, k, index)) {
        p_ = key_at;
        error("repeated key " + json_escape(k) + " (each key may appear once)");
      }
      skip_ws();
      if (!eat(':')) error("expected ':' after an object key");
      skip_ws();
      v.obj.emplace_back(std::move(k), value(depth + 1));
      skip_ws();
      if (eat('}')) return;
      if (!eat(',')) error("expected ',' or '}' in an object");
    }
  }

  void array(JsonValue& v, int depth) {
    v.type = JsonValue::Type::Array;
    ++p_;
    skip_ws();
    if (eat(']')) return;
    for (;;) {
      skip_ws();
      if (p_ < s_.size() && s_[p_] == ']') error("trailing comma before ']'");
      v.arr.push_back(value(depth + 1));
      skip_ws();
      if (eat(']')) return;
      if (!eat(',')) error("expected ',' or ']' in an array");
    }
  }

  double number() {
    const std::size_t start = p_;
    auto digit = [&] { return p_ < s_.size() && s_[p_] >= '0' && s_[p_] <= '9'; };
    eat('-');
    if (eat('0')) {
    } else if (digit()) {
      while (digit()) ++p_;
    } else {
      error("invalid number");
    }
    if (eat('.')) {
      if (!digit()) error("invalid number (digit expected after '.')");
      while (digit()) ++p_;
    }
    if (p_ < s_.size() && (s_[p_] == 'e' || s_[p_] == 'E')) {
      ++p_;
      if (!eat('+')) eat('-');
      if (!digit()) error("invalid number (digit expected in the exponent)");
      while (digit()) ++p_;
    }
    const double d = parse_decimal(s_.data() + start, s_.data() + p_);
    if (!std::isfinite(d)) {
      p_ = start;
      error("number out of range");
    }
    return d;
  }

  unsigned hex4() {
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      if (p_ >= s_.size()) error("unexpected end of input in a \\u escape");
      const char c = s_[p_++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= c - '0';
      else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
      else error("invalid \\u escape");
    }
    return v;
  }

  void escape(std::string& o) {
    if (p_ >= s_.size()) error("unterminated string");
    const char e = s_[p_++];
    switch (e) {
      case '"': o += '"'; break;
      case '\\': o += '\\'; break;
      case '/': o += '/'; break;
      case 'b': o += '\b'; break;
      case 'f': o += '\f'; break;
      case 'n': o += '\n'; break;
      case 'r': o += '\r'; break;
      case 't': o += '\t'; break;
      case 'u': {
        unsigned cp = hex4();
        if (cp >= 0xD800 && cp < 0xDC00 && p_ + 1 < s_.size() && s_[p_] == '\\' &&
            s_[p_ + 1] == 'u') {
          p_ += 2;
          const unsigned lo = hex4();
          if (lo >= 0xDC00 && lo < 0xE000) cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          else error("invalid surrogate pair");
        }
        append_utf8(o, cp);
        break;
      }
      default:
        error(e >= 0x20 && e < 0x7F ? std::string("invalid escape '\\") + e + "'"
                                    : "invalid escape: '\\' followed by " + shown_char(e));
    }
  }

  std::string string() {
    ++p_;  // opening quote
    std::string o;
    for (;;) {
      if (p_ >= s_.size()) error("unterminated string");
      const unsigned char c = static_cast<unsigned char>(s_[p_++]);
      if (c == '"') return o;
      if (c < 0x20) {
        --p_;
        error("control character in a string");
      }
      if (c == '\\') escape(o);
      else o += static_cast<char>(c);
    }
  }
};

}  // namespace

JsonValue json_parse(const std::string& text) { return Parser(text).document(); }

}  // namespace attnx
