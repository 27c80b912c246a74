// attnx core: attention maps as JSON (see heads.hpp): CircuitsVis' {"tokens", "attention"}
// object or a bare nested array, read with the core's strict JSON reader (json_read.cpp) under
// the pattern texts' memory estimate (text_budget.hpp).
#include <attnx/heads.hpp>

#include <attnx/errors.hpp>
#include <attnx/json.hpp>
#include <attnx/text_budget.hpp>

namespace attnx {

namespace {

[[noreturn]] void bad(const std::string& what) { fail("file", what); }

std::string at_line(const JsonValue& v) { return "line " + std::to_string(v.line) + ": "; }

// Fills a.values (C order) from the nested arrays under v at `depth`, checking every length.
void fill(const JsonValue& v, const std::vector<std::uint64_t>& shape, std::size_t depth, const std::string& path,
          float*& out) {
  if (v.type != JsonValue::Type::Array)
    bad(at_line(v) + path + " must be an array of " + std::to_string(shape[depth]) + " entries (got " +
        json_type_name(v.type) + ")");
  if (v.arr.size() != shape[depth])
    bad(at_line(v) + path + " has " + std::to_string(v.arr.size()) + " entries, expected " +
        std::to_string(shape[depth]) + " (the shape " + (depth == 0 ? "has" : "of its first entries says") +
        " so; arrays must not be ragged)");
  for (std::size_t n = 0; n < v.arr.size(); ++n) {
    const JsonValue& x = v.arr[n];
    const std::string here = path + "[" + std::to_string(n) + "]";
    if (depth + 1 < shape.size()) {
      fill(x, shape, depth + 1, here, out);
    } else if (x.type != JsonValue::Type::Number) {
      bad(at_line(x) + here + " must be a number (got " + json_type_name(x.type) + ")");
    } else {
      *out++ = static_cast<float>(x.num);
    }
  }
}

std::vector<std::string> json_tokens(const JsonValue& t, int L) {
  if (t.type != JsonValue::Type::Array)
    bad(at_line(t) + "\"tokens\" must be an array of strings (got " + json_type_name(t.type) + ")");
  if (t.arr.size() != static_cast<std::size_t>(L))
    bad(at_line(t) + "\"tokens\" has " + std::to_string(t.arr.size()) + " entries, but L is " + std::to_string(L) +
        " (one token per row)");
  std::vector<std::string> out;
  for (std::size_t n = 0; n < t.arr.size(); ++n) {
    if (t.arr[n].type != JsonValue::Type::String)
      bad(at_line(t.arr[n]) + "tokens[" + std::to_string(n) + "] must be a string (got " +
          json_type_name(t.arr[n].type) + ")");
    out.push_back(t.arr[n].str);
  }
  return out;
}

}  // namespace

void read_attention_json(std::string_view text, AttentionArray& a, std::uint64_t max_bytes, const std::string& name) {
  // A number takes at least 2 bytes with its separator: at most text/2 values of 4 bytes.
  check_attention_budget(name, estimate_pattern_text_bytes(text.size()) + 2 * text.size(), max_bytes);
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  JsonValue doc;
  try {
    doc = json_parse(std::string(text));
  } catch (const JsonSyntaxError& e) {
    bad("line " + std::to_string(e.line()) + ", column " + std::to_string(e.column()) + ": invalid JSON: " + e.reason());
  }
  const JsonValue* att = &doc;
  const JsonValue* tokens = nullptr;
  const std::string path = "attention";
  if (doc.type == JsonValue::Type::Object) {
    att = doc.find("attention");
    if (!att)
      bad("the JSON object has no \"attention\": expected {\"tokens\": [...], \"attention\": [H][L][L]} "
          "(CircuitsVis) or a bare [L][L], [H][L][L] or [layers][H][L][L] array");
    tokens = doc.find("tokens");
  }
  std::vector<std::uint64_t> shape;
  for (const JsonValue* v = att; v->type == JsonValue::Type::Array && shape.size() < 5; v = &v->arr[0]) {
    shape.push_back(v->arr.size());
    if (v->arr.empty()) break;
  }
  if (shape.empty()) bad(at_line(*att) + "\"attention\" must be an array (got " + json_type_name(att->type) + ")");
  set_attention_shape(a, shape);
  a.values.resize(static_cast<std::size_t>(a.layers) * a.heads * a.L * a.L);
  float* out = a.values.data();
  fill(*att, shape, 0, path, out);
  if (tokens) a.tokens = json_tokens(*tokens, a.L);
}

}  // namespace attnx
