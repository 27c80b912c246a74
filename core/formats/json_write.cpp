// attnx core: JSON writer (see json.hpp; numbers are formatted in json_number.cpp).
#include <attnx/json.hpp>


namespace attnx {

std::size_t utf8_sequence(const std::string& s, std::size_t i, char32_t* cp) {
  const unsigned char b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    *cp = b0;
    return 1;
  }
  std::size_t n = 0;
  char32_t v = 0, lo = 0;
  if (b0 >= 0xC2 && b0 <= 0xDF) { n = 2; v = b0 & 0x1F; lo = 0x80; }
  else if (b0 >= 0xE0 && b0 <= 0xEF) { n = 3; v = b0 & 0x0F; lo = 0x800; }
  else if (b0 >= 0xF0 && b0 <= 0xF4) { n = 4; v = b0 & 0x07; lo = 0x10000; }
  else return 0;  // a continuation byte, C0/C1 (overlong) or F5-FF
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const unsigned char b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) return 0;
    v = (v << 6) | (b & 0x3F);
  }
  if (v < lo || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return n;
}

namespace {

// Code points json_escape and escape_message write as \uXXXX (see json.hpp).
bool escaped_code_point(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || (c >= 0x200B && c <= 0x200F) ||
         (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x2069) || c == 0xFEFF;
}

void append_hex(std::string& o, unsigned v, int digits) {
  static const char* hex = "0123456789abcdef";
  for (int k = digits - 1; k >= 0; --k) o += hex[(v >> (4 * k)) & 15];
}

// \n, \r, \t as JSON writes them; any other escaped code point as \uXXXX.
void append_escaped(std::string& o, char32_t c, bool short_forms) {
  if (short_forms && (c == '\n' || c == '\r' || c == '\t')) {
    o += c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\t";
    return;
  }
  o += "\\u";
  append_hex(o, static_cast<unsigned>(c), 4);
}

// Appends s with escaped code points as \uXXXX (short_forms: \n, \r, \t); `bad` handles a
// byte that is not UTF-8 and `plain` an ASCII character (both get the output and the byte).
template <class Bad, class Plain>
void escape_into(std::string& o, const std::string& s, bool short_forms, Bad bad, Plain plain) {
  for (std::size_t i = 0; i < s.size();) {
    char32_t c = 0;
    const std::size_t n = utf8_sequence(s, i, &c);
    if (n == 0) {
      bad(o, static_cast<unsigned char>(s[i]));
      ++i;
      continue;
    }
    if (n == 1 && !escaped_code_point(c)) plain(o, s[i]);
    else if (escaped_code_point(c)) append_escaped(o, c, short_forms);
    else o.append(s, i, n);
    i += n;
  }
}

}  // namespace

std::string json_escape(const std::string& s) {
  std::string o = "\"";
  escape_into(
      o, s, true, [](std::string& out, unsigned char) { out += "\\ufffd"; },
      [](std::string& out, char c) {
        if (c == '"') out += "\\\"";
        else if (c == '\\') out += "\\\\";
        else out += c;
      });
  o += '"';
  return o;
}

std::string escape_message(const std::string& s) {
  std::string o;
  escape_into(
      o, s, false,
      [](std::string& out, unsigned char b) {
        out += "\\x";
        append_hex(out, b, 2);
      },
      [](std::string& out, char c) { out += c; });
  return o;
}

void JsonWriter::raw(const std::string& s) {
  out_ += s;
  if (sink_ && out_.size() > (1u << 20)) flush();
}

bool JsonWriter::flush() {
  if (!sink_) return true;
  if (!out_.empty() && !sink_(out_)) io_error_ = true;
  out_.clear();
  return !io_error_;
}

void JsonWriter::newline_indent() {
  out_ += '\n';
  out_.append(2 * stack_.size(), ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (stack_.empty()) return;
  Frame& f = stack_.back();
  if (f.count++ > 0) out_ += f.compact ? ", " : ",";
  if (!f.compact) newline_indent();
}

JsonWriter& JsonWriter::key(const std::string& k) {
  before_value();
  raw(json_escape(k));
  out_ += ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::begin_object(bool compact) {
  before_value();
  // A container inside a compact container is compact too.
  if (!stack_.empty() && stack_.back().compact) compact = true;
  out_ += '{';
  stack_.push_back({true, compact, 0});
  return *this;
}

JsonWriter& JsonWriter::begin_array(bool compact) {
  before_value();
  if (!stack_.empty() && stack_.back().compact) compact = true;
  out_ += '[';
  stack_.push_back({false, compact, 0});
  return *this;
}

void JsonWriter::close(const char* bracket) {
  Frame f = stack_.back();
  stack_.pop_back();
  if (!f.compact && f.count > 0) newline_indent();
  raw(bracket);
}

JsonWriter& JsonWriter::end_object() { close("}"); return *this; }
JsonWriter& JsonWriter::end_array() { close("]"); return *this; }

JsonWriter& JsonWriter::value(double v) { before_value(); raw(json_number(v)); return *this; }
JsonWriter& JsonWriter::value_f(float v) { before_value(); raw(json_number(v)); return *this; }
JsonWriter& JsonWriter::value_ll(long long v) { before_value(); raw(std::to_string(v)); return *this; }
JsonWriter& JsonWriter::value(std::uint64_t v) { before_value(); raw(std::to_string(v)); return *this; }
JsonWriter& JsonWriter::value(bool v) { before_value(); raw(v ? "true" : "false"); return *this; }
JsonWriter& JsonWriter::value(const std::string& v) { before_value(); raw(json_escape(v)); return *this; }
JsonWriter& JsonWriter::null() { before_value(); raw("null"); return *this; }

std::string JsonWriter::finish() {
  out_ += '\n';
  std::string s;
  s.swap(out_);
  return s;
}

}  // namespace attnx
