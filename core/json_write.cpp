// attnx core: JSON writer (see json.hpp; numbers are formatted in json_number.cpp).
#include <attnx/json.hpp>


namespace attnx {

std::string json_escape(const std::string& s) {
  std::string o = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"': o += "\\\""; break;
      case '\\': o += "\\\\"; break;
      case '\n': o += "\\n"; break;
      case '\r': o += "\\r"; break;
      case '\t': o += "\\t"; break;
      default:
        if (c < 0x20) {
          static const char* hex = "0123456789abcdef";
          o += "\\u00";
          o += hex[c >> 4];
          o += hex[c & 15];
        } else {
          o += static_cast<char>(c);
        }
    }
  }
  o += '"';
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
