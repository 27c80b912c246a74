// attnx core: the strict JSON grammar as a cursor (see json_cursor.hpp).
#include "formats/json_cursor.hpp"

#include <cmath>
#include <unordered_set>

namespace attnx::json_detail {

std::string JsonCursor::shown_char(char c) {
  if (c >= 0x20 && c < 0x7F) return std::string("'") + c + "'";
  return json_escape(std::string(1, c));
}

void JsonCursor::error(const std::string& what) const {
  int line = 1, col = 1;
  for (std::size_t i = 0; i < p_ && i < s_.size(); ++i) {
    if (s_[i] == '\n') { ++line; col = 1; } else { ++col; }
  }
  throw JsonSyntaxError(line, col, what);
}

void JsonCursor::skip_ws() {
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

bool JsonCursor::eat(char c) {
  if (p_ < s_.size() && s_[p_] == c) { ++p_; return true; }
  return false;
}

void JsonCursor::expect_word(const char* w) {
  for (const char* q = w; *q; ++q)
    if (!eat(*q)) error(std::string("invalid literal (expected '") + w + "')");
}

void JsonCursor::check_value_start(int depth) const {
  if (depth > kMaxJsonDepth) error("nesting deeper than 64 levels");
  if (p_ >= s_.size()) error("unexpected end of input");
}

double JsonCursor::number() {
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

unsigned JsonCursor::hex4() {
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

void JsonCursor::escape(std::string& o) {
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
      if (cp >= 0xD800 && cp < 0xDC00 && p_ + 1 < s_.size() && s_[p_] == '\\' && s_[p_ + 1] == 'u') {
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

std::string JsonCursor::string() {
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

void JsonCursor::skip_container(char close, int depth) {
  const bool object = close == '}';
  ++p_;
  skip_ws();
  if (eat(close)) return;
  std::unordered_set<std::string> keys;
  for (;;) {
    skip_ws();
    if (p_ < s_.size() && s_[p_] == close) error(std::string("trailing comma before '") + close + "'");
    if (object) {
      if (p_ >= s_.size() || s_[p_] != '"') error("expected a string key");
      const std::size_t key_at = p_;
      std::string k = string();
      if (!keys.insert(k).second) {
        p_ = key_at;
        error("repeated key " + json_escape(k) + " (each key may appear once)");
      }
      skip_ws();
      if (!eat(':')) error("expected ':' after an object key");
      skip_ws();
    }
    skip_value(depth + 1);
    skip_ws();
    if (eat(close)) return;
    if (!eat(',')) error(object ? "expected ',' or '}' in an object" : "expected ',' or ']' in an array");
  }
}

void JsonCursor::skip_value(int depth) {
  check_value_start(depth);
  const char c = s_[p_];
  if (c == '{' || c == '[') skip_container(c == '{' ? '}' : ']', depth);
  else if (c == '"') string();
  else if (c == 't') expect_word("true");
  else if (c == 'f') expect_word("false");
  else if (c == 'n') expect_word("null");
  else if (c == '-' || (c >= '0' && c <= '9')) number();
  else error("unexpected character " + shown_char(c));
}

}  // namespace attnx::json_detail
