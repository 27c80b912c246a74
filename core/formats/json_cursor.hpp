// attnx core (internal): the strict JSON grammar of RFC 8259 as a cursor over a text: white
// space, literals, numbers, strings with their escapes, and skipping a whole value, each refusal
// a JsonSyntaxError at its line and column. json_parse builds its value tree on it
// (json_read.cpp); the attention reader (heads_json.cpp) reads a head's numbers with it straight
// into its float32 array, so both accept exactly the same texts.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include <attnx/json.hpp>

namespace attnx::json_detail {

// Nesting deeper than this is refused ("nesting deeper than 64 levels").
constexpr int kMaxJsonDepth = 64;

class JsonCursor {
 public:
  explicit JsonCursor(std::string_view text) : s_(text) {}

  std::size_t pos() const { return p_; }
  bool at_end() const { return p_ >= s_.size(); }
  // The byte at the cursor (at_end() false).
  char peek() const { return s_[p_]; }
  int line() const { return line_; }
  // The column (1-based, in bytes) of the cursor on its line.
  int column() const { return static_cast<int>(p_ - line_start_) + 1; }

  // Throws JsonSyntaxError at the cursor.
  [[noreturn]] void error(const std::string& what) const;
  // A character for a message: 'x', or escaped ("\u0000") when not printable ASCII.
  static std::string shown_char(char c);

  void skip_ws();
  bool eat(char c);
  // The literal `w` (true, false, null) at the cursor.
  void expect_word(const char* w);
  // A number at the cursor (JSON's grammar), as the nearest double; refused when not finite.
  double number();
  // A string at the cursor (its opening quote), escapes decoded. A \uXXXX escape of a surrogate
  // without its pair is decoded as that surrogate's three bytes (not UTF-8: callers that need
  // text check it, see utf8_sequence).
  std::string string();
  // Reads (and checks) any value at the cursor without keeping it; depth as value's.
  void skip_value(int depth);
  // Refuses nesting deeper than kMaxJsonDepth, and the end of the text where a value must start.
  void check_value_start(int depth) const;
  // Moves the cursor back to `pos` (an earlier position of this line, for an error's column).
  void rewind(std::size_t pos) { p_ = pos; }

 private:
  unsigned hex4();
  void escape(std::string& o);
  void skip_container(char close, int depth);

  std::string_view s_;
  std::size_t p_ = 0;
  int line_ = 1;
  std::size_t line_start_ = 0;  // offset of the current line's first byte
};

}  // namespace attnx::json_detail
