// attnx core: attention maps as JSON (see heads.hpp): CircuitsVis' {"tokens", "attention"}
// object or a bare nested array, read in one pass on the core's strict JSON grammar
// (formats/json_cursor.hpp) straight into the float32 values: the shape is found first by a
// structural scan of the arrays' first entries (no values read), refused or checked against the
// memory budget, and only then are the values allocated and filled. Peak memory: the text, the
// values and the tokens; no value tree is built.
#include <attnx/heads.hpp>

#include <cstdio>
#include <unordered_set>

#include <attnx/errors.hpp>
#include <attnx/json.hpp>

#include "formats/json_cursor.hpp"

namespace attnx {

namespace {

using json_detail::JsonCursor;

[[noreturn]] void bad(const std::string& what) { fail("file", what); }

std::string at_line(int line) { return "line " + std::to_string(line) + ": "; }

// Levels of first entries the shape scan follows: one more than an attention's rank can be, so
// that set_attention_shape names a rank of 5.
constexpr std::size_t kMaxScannedRank = 5;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The index of the quote closing the string that opens at s[p]; npos when it is not closed.
std::size_t string_end(std::string_view s, std::size_t p) {
  for (++p; p < s.size(); ++p) {
    if (s[p] == '\\') ++p;
    else if (s[p] == '"') return p;
  }
  return std::string_view::npos;
}

// The lengths of the arrays on the path of first entries from the array at s[p]: shape[0] is
// the number of its entries, shape[1] that of its first entry when that is an array, and so on
// (at most kMaxScannedRank levels). A structural scan of brackets and strings that counts the
// values starting in each array and reads none; empty when the text ends before that array
// closes (the strict read then says where; so it does for a misplaced comma, which is not counted).
std::vector<std::uint64_t> first_path_shape(std::string_view s, std::size_t p) {
  struct Frame {
    bool path;
    std::uint64_t values;
  };
  std::vector<Frame> stack;
  std::vector<std::uint64_t> shape;
  for (; p < s.size(); ++p) {
    const char c = s[p];
    if (is_space(c) || c == ':' || c == ',') continue;
    if (c == ']' || c == '}') {
      const Frame f = stack.back();
      stack.pop_back();
      if (f.path) shape[stack.size()] = f.values;
      if (stack.empty()) return shape;
      continue;
    }
    bool path = stack.empty();  // a value starts at p
    if (!stack.empty()) path = stack.back().path && stack.back().values++ == 0 && stack.size() < kMaxScannedRank;
    if (c == '[' || c == '{') {
      if (path && c == '[') shape.push_back(0);
      stack.push_back({path && c == '[', 0});
    } else if (c == '"') {
      if ((p = string_end(s, p)) == std::string_view::npos) return {};
    } else {
      while (p + 1 < s.size() && !is_space(s[p + 1]) && s[p + 1] != ',' && s[p + 1] != ']' && s[p + 1] != '}') ++p;
    }
    if (stack.empty()) return {};  // the value at p is no array
  }
  return {};
}

// The type of the value at the cursor, for a message, after checking its syntax (a syntax error
// comes first); the cursor moves past it.
const char* skipped_type(JsonCursor& c, int depth) {
  const char k = c.at_end() ? '\0' : c.peek();
  c.skip_value(depth);
  if (k == '{') return "an object";
  if (k == '[') return "an array";
  if (k == '"') return "a string";
  if (k == 't' || k == 'f') return "a boolean";
  if (k == 'n') return "null";
  return "a number";
}

// Reads the head arrays at the cursor into `out` (C order) under `shape`, checking every length
// and entry as they come; messages name the entry ("attention[1][2]") and its line.
class HeadFill {
 public:
  HeadFill(JsonCursor& c, const std::vector<std::uint64_t>& shape, float* out) : c_(c), shape_(shape), out_(out) {}

  void array(std::size_t depth, int nest) {
    const int line = c_.line();
    c_.eat('[');
    c_.skip_ws();
    std::uint64_t n = 0;
    if (!c_.eat(']')) {
      for (;; ++n) {
        c_.skip_ws();
        if (!c_.at_end() && c_.peek() == ']') c_.error("trailing comma before ']'");
        index_.push_back(n);
        entry(depth, nest + 1, n < shape_[depth]);
        index_.pop_back();
        c_.skip_ws();
        if (c_.eat(']')) break;
        if (!c_.eat(',')) c_.error("expected ',' or ']' in an array");
      }
      ++n;
    }
    if (n != shape_[depth])
      bad(at_line(line) + path() + " has " + std::to_string(n) + " entries, expected " + std::to_string(shape_[depth]) +
          " (the shape " + (depth == 0 ? "has" : "of its first entries says") + " so; arrays must not be ragged)");
  }

 private:
  // Entry index_.back() of an array at `depth`; keep: within the shape (else only read).
  void entry(std::size_t depth, int nest, bool keep) {
    if (!keep) return c_.skip_value(nest);  // the array's count is refused when it closes
    c_.check_value_start(nest);
    const int line = c_.line();
    const char k = c_.peek();
    if (depth + 1 < shape_.size()) {
      if (k == '[') return array(depth + 1, nest);
      const char* type = skipped_type(c_, nest);
      bad(at_line(line) + path() + " must be an array of " + std::to_string(shape_[depth + 1]) + " entries (got " + type +
          ")");
    }
    if (k == '-' || (k >= '0' && k <= '9')) {
      *out_++ = static_cast<float>(c_.number());
      return;
    }
    const char* type = skipped_type(c_, nest);
    bad(at_line(line) + path() + " must be a number (got " + type + ")");
  }

  std::string path() const {
    std::string p = "attention";
    for (std::uint64_t i : index_) p += "[" + std::to_string(i) + "]";
    return p;
  }

  JsonCursor& c_;
  const std::vector<std::uint64_t>& shape_;
  float* out_;
  std::vector<std::uint64_t> index_;
};

// The head arrays at the cursor (`attention`, or the whole text): shape found and checked, the
// budget checked (extra: bytes held besides the text and the values), then the values read.
// depth: the array's nesting in the text (0: the whole text, 1: a member).
// Where the budget is checked: its limit, who reads (for the remedy) and the file's name.
struct Budget {
  std::uint64_t max_bytes;
  BudgetRemedy remedy;
  const std::string& name;
};

void read_heads(JsonCursor& c, std::string_view text, AttentionArray& a, int depth, std::uint64_t extra,
                const Budget& budget) {
  const int line = c.line();
  if (c.at_end() || c.peek() != '[') {
    const char* type = skipped_type(c, depth);
    bad(at_line(line) + "\"attention\" must be an array (got " + type + ")");
  }
  const std::vector<std::uint64_t> shape = first_path_shape(text, c.pos());
  if (shape.empty()) {
    c.skip_value(depth);  // the text ends inside the array: the strict read says where
    bad(at_line(line) + "\"attention\" is not a complete array");
  }
  set_attention_shape(a, shape);
  const std::uint64_t count = static_cast<std::uint64_t>(a.layers) * a.heads * a.L * a.L;
  check_attention_budget(budget.name, estimate_attention_bytes(text.size(), count, extra), budget.max_bytes,
                         budget.remedy);
  a.values.assign(static_cast<std::size_t>(count), 0.0f);
  HeadFill(c, shape, a.values.data()).array(0, depth + 1);
}

// What "tokens" held, checked once the attention's L is known (its problems come after the
// attention's, as they did when the whole text was read first).
struct TokenList {
  bool present = false, array = false;
  int line = 0;
  const char* type = "";            // when not an array
  std::uint64_t count = 0;
  std::vector<std::string> strings;  // the first kMaxImportL + 1 (more are refused by count)
  std::string problem;               // the first entry's problem ("line 3: tokens[1] ...")
};

// A token's first problem as text: "" for UTF-8 text; else the lone surrogate (a \uD800 escape
// without its pair, decoded as its three bytes) or the first byte that is not UTF-8.
std::string text_problem(const std::string& t) {
  for (std::size_t i = 0; i < t.size();) {
    char32_t cp = 0;
    const std::size_t n = utf8_sequence(t, i, &cp);
    if (n > 0) {
      i += n;
      continue;
    }
    const auto b = [&](std::size_t k) { return static_cast<unsigned char>(t[k]); };
    char buf[96];
    if (b(i) == 0xED && i + 2 < t.size() && (b(i + 1) & 0xE0) == 0xA0 && (b(i + 2) & 0xC0) == 0x80)
      std::snprintf(buf, sizeof buf, "holds a lone surrogate (U+%04X, a \\u%04x escape without its pair)",
                    0xD000u | ((b(i + 1) & 0x3Fu) << 6) | (b(i + 2) & 0x3Fu),
                    0xD000u | ((b(i + 1) & 0x3Fu) << 6) | (b(i + 2) & 0x3Fu));
    else
      std::snprintf(buf, sizeof buf, "is not valid UTF-8 (byte 0x%02X at byte %zu)", b(i), i);
    return buf;
  }
  return "";
}

void read_tokens(JsonCursor& c, TokenList& t) {
  t.present = true;
  t.line = c.line();
  if (c.at_end() || c.peek() != '[') {
    t.type = skipped_type(c, 1);
    return;
  }
  t.array = true;
  c.eat('[');
  c.skip_ws();
  if (c.eat(']')) return;
  for (;; ++t.count) {
    c.skip_ws();
    if (!c.at_end() && c.peek() == ']') c.error("trailing comma before ']'");
    c.check_value_start(2);
    const int line = c.line();
    const auto where = [&] { return at_line(line) + "tokens[" + std::to_string(t.count) + "]"; };
    if (c.peek() != '"') {
      const char* type = skipped_type(c, 2);
      if (t.problem.empty()) t.problem = where() + " must be a string (got " + type + ")";
    } else if (t.count <= static_cast<std::uint64_t>(kMaxImportL)) {
      t.strings.push_back(c.string());
      const std::string p = text_problem(t.strings.back());
      if (t.problem.empty() && !p.empty()) t.problem = where() + " " + p + ": tokens must be Unicode text";
    } else {
      c.string();
    }
    c.skip_ws();
    if (c.eat(']')) break;
    if (!c.eat(',')) c.error("expected ',' or ']' in an array");
  }
  ++t.count;
}

void check_tokens(TokenList& t, AttentionArray& a) {
  if (!t.present) return;
  if (!t.array) bad(at_line(t.line) + "\"tokens\" must be an array of strings (got " + t.type + ")");
  if (t.count != static_cast<std::uint64_t>(a.L))
    bad(at_line(t.line) + "\"tokens\" has " + std::to_string(t.count) + " entries, but L is " + std::to_string(a.L) +
        " (one token per row)");
  if (!t.problem.empty()) bad(t.problem);
  a.tokens = std::move(t.strings);
}

// The CircuitsVis object at the cursor: "attention" read as it comes, "tokens" kept, other
// members read and dropped. Returns whether it had "attention".
bool read_object(JsonCursor& c, std::string_view text, AttentionArray& a, TokenList& tokens, const Budget& budget) {
  bool attention = false;
  std::unordered_set<std::string> keys;
  c.eat('{');
  c.skip_ws();
  if (c.eat('}')) return false;
  for (;;) {
    c.skip_ws();
    if (!c.at_end() && c.peek() == '}') c.error("trailing comma before '}'");
    if (c.at_end() || c.peek() != '"') c.error("expected a string key");
    const std::size_t key_at = c.pos();
    std::string k = c.string();
    if (!keys.insert(k).second) {
      c.rewind(key_at);
      c.error("repeated key " + json_escape(k) + " (each key may appear once)");
    }
    c.skip_ws();
    if (!c.eat(':')) c.error("expected ':' after an object key");
    c.skip_ws();
    if (k == "attention") {
      read_heads(c, text, a, 1, text.size(), budget);  // extra: the tokens, at most the text
      attention = true;
    } else if (k == "tokens") {
      read_tokens(c, tokens);
    } else {
      c.skip_value(1);
    }
    c.skip_ws();
    if (c.eat('}')) return attention;
    if (!c.eat(',')) c.error("expected ',' or '}' in an object");
  }
}

}  // namespace

void read_attention_json(std::string_view text, AttentionArray& a, std::uint64_t max_bytes, const std::string& name,
                         BudgetRemedy remedy) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  const Budget budget{max_bytes, remedy, name};
  JsonCursor c(text);
  TokenList tokens;
  bool attention = true;
  try {
    c.skip_ws();
    if (!c.at_end() && c.peek() == '{') attention = read_object(c, text, a, tokens, budget);
    else read_heads(c, text, a, 0, 0, budget);
    c.skip_ws();
    if (!c.at_end()) c.error("unexpected text after the JSON value");
  } catch (const JsonSyntaxError& e) {
    bad("line " + std::to_string(e.line()) + ", column " + std::to_string(e.column()) + ": invalid JSON: " + e.reason());
  }
  if (!attention)
    bad("the JSON object has no \"attention\": expected {\"tokens\": [...], \"attention\": [H][L][L]} "
        "(CircuitsVis) or a bare [L][L], [H][L][L] or [layers][H][L][L] array");
  check_tokens(tokens, a);
}

}  // namespace attnx
