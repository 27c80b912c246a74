// Attention maps as JSON (issue 24): CircuitsVis' {"tokens", "attention"} object, bare [L][L],
// [H][L][L] and BertViz's [layers][H][L][L] arrays, read with the core's strict JSON reader;
// ragged arrays, non-numbers and token counts refused naming the place and the line.
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"
#include <attnx/heads.hpp>

namespace {

constexpr std::uint64_t kBudget = 1ull << 30;

attnx::AttentionArray read(const std::string& text) { return attnx::read_attention(text, "a.json", kBudget); }

std::string refusal(const std::string& text, std::uint64_t budget = kBudget) {
  try {
    attnx::read_attention(text, "a.json", budget);
  } catch (const attnx::InvalidArgument& e) {
    return e.what();
  }
  FAIL_CHECK("the text was accepted");
  return "";
}

}  // namespace

TEST_CASE("the CircuitsVis object gives the heads and the tokens") {
  const attnx::AttentionArray a =
      read("\xEF\xBB\xBF{\"tokens\": [\"The\", \"cat\"], \"attention\": [[[1, 0], [0.25, 0.75]], [[0.5, 0.5], [0, 1]]]}");
  CHECK(a.format == "json");
  CHECK(a.rank == 3);
  CHECK(a.heads == 2);
  CHECK(a.L == 2);
  CHECK(a.values == std::vector<float>{1, 0, 0.25f, 0.75f, 0.5f, 0.5f, 0, 1});
  CHECK(a.tokens == std::vector<std::string>{"The", "cat"});
}

TEST_CASE("bare arrays of rank 2 and 4 are read as [L, L] and [layers, H, L, L]") {
  const attnx::AttentionArray two = read("[[1, 0], [0, 1]]");
  CHECK(two.rank == 2);
  CHECK(two.heads == 1);
  const attnx::AttentionArray four = read("[[[[1,0],[0,1]]], [[[0,1],[1,0]]], [[[1,0],[1,0]]]]");
  CHECK(four.rank == 4);
  CHECK(four.layers == 3);
  CHECK(four.heads == 1);
  CHECK(four.values[4 * 2 + 2] == 1);  // layer 2, row 1, column 0
  CHECK(attnx::attention_shape_text(four) == "[3, 1, 2, 2]");
}

TEST_CASE("ragged arrays, non-numbers and wrong token counts are refused with the place") {
  CHECK(th::contains(refusal("[[[1, 0], [0, 1]],\n [[1, 0], [1]]]"),
                     "a.json: line 2: attention[1][1] has 1 entries, expected 2"));
  CHECK(th::contains(refusal("[[1, 0], [0, null]]"), "attention[1][1] must be a number (got null)"));
  CHECK(th::contains(refusal("[[1, 0], 5]"), "attention[1] must be an array of 2 entries (got a number)"));
  CHECK(th::contains(refusal("{\"tokens\": [\"a\"], \"attention\": [[1, 0], [0, 1]]}"),
                     "\"tokens\" has 1 entries, but L is 2"));
  CHECK(th::contains(refusal("{\"tokens\": [\"a\", 2], \"attention\": [[1, 0], [0, 1]]}"),
                     "tokens[1] must be a string (got a number)"));
  CHECK(th::contains(refusal("{\"heads\": []}"), "the JSON object has no \"attention\""));
  CHECK(th::contains(refusal("{\"attention\": 3}"), "\"attention\" must be an array (got a number)"));
  CHECK(th::contains(refusal("[[1, 0, 0], [0, 1, 0]]"), "not square: shape [2, 3]"));
  CHECK(th::contains(refusal("[[1, 0], [0, 1],]"), "a.json: line 1, column 17: invalid JSON: trailing comma before ']'"));
}

TEST_CASE("a JSON text is refused above the memory budget once its shape is known, before a value is read") {
  // The budget holds the text and 4 bytes per value (and, for the object, the tokens: at most
  // the text). The syntax error of the first value ('x') is never reached.
  std::string text = "[";
  for (int i = 0; i < 64; ++i) {
    text += std::string(i ? ",[" : "[") + (i ? "0" : "x");
    for (int j = 1; j < 64; ++j) text += ",0";
    text += "]";
  }
  text += "]";
  CHECK(th::contains(refusal(text), "line 1, column 3: invalid JSON: unexpected character 'x'"));
  const std::uint64_t need = attnx::estimate_attention_bytes(text.size(), 64 * 64, 0);
  try {
    attnx::read_attention(text, "a.json", need - 1);
    FAIL_CHECK("accepted");
  } catch (const attnx::BudgetExceeded& e) {
    CHECK(th::contains(e.what(), "a.json: reading it needs about"));
  }
}

TEST_CASE("a JSON attention's shape is refused before its values are read") {
  // 200,000 rows of one value: not square, said before the values (and the syntax error at the end).
  std::string text = "[";
  for (int i = 0; i < 200000; ++i) text += i ? ",[1]" : "[1]";
  CHECK(th::contains(refusal(text + ",]"), "not square: shape [200000, 1]"));
  CHECK(th::contains(refusal(text + "]"), "not square: shape [200000, 1]"));
  // The first entries decide the shape (rank 5 named), and a misplaced comma is the text's error.
  CHECK(th::contains(refusal("[[[[[1]]]]]"), "(rank 5)"));
  CHECK(th::contains(refusal("[[1, 0], [0, 1],]"), "line 1, column 17: invalid JSON: trailing comma before ']'"));
  CHECK(th::contains(refusal("[[1, 0], [0, 1], [0"), "line 1, column 20: invalid JSON: expected ',' or ']' in an array"));
  CHECK(th::contains(refusal("[[1, 0], [0, 1, 1]]"), "attention[1] has 3 entries, expected 2"));
  CHECK(th::contains(refusal("[[1, 0], [0, 1, [[[]]]]]"), "attention[1] has 3 entries, expected 2"));
  CHECK(th::contains(refusal("[[\"a]\", 0], [0, 1]]"), "attention[0][0] must be a number (got a string)"));
  CHECK(th::contains(refusal("{\"x\": {\"a\": 1, \"a\": 2}, \"attention\": [[1, 0], [0, 1]]}"), "repeated key \"a\""));
  CHECK(th::contains(refusal("{\"attention\": [[1, 0], [0, 1]], \"attention\": 1}"), "repeated key \"attention\""));
  CHECK(read("{\"x\": [[[\"]\"]], {}], \"attention\": [[1, 0], [0, 1]], \"y\": null}").L == 2);
}

TEST_CASE("tokens that are not Unicode text are refused as the .npz tokens are") {
  const std::string att = ", \"attention\": [[1, 0], [0, 1]]}";
  CHECK(th::contains(refusal("{\"tokens\": [\"a\", \"b\\ud800\"]" + att),
                     "a.json: line 1: tokens[1] holds a lone surrogate (U+D800, a \\ud800 escape without its pair): "
                     "tokens must be Unicode text"));
  CHECK(th::contains(refusal("{\"tokens\": [\"\\udfff\", \"b\"]" + att), "tokens[0] holds a lone surrogate (U+DFFF"));
  CHECK(th::contains(refusal("{\"tokens\": [\"a\", \"b\xff\"]" + att),
                     "tokens[1] is not valid UTF-8 (byte 0xFF at byte 1): tokens must be Unicode text"));
  CHECK(th::contains(refusal("{\"tokens\": [\"\xED\xA0\x80\", \"b\"]" + att), "tokens[0] holds a lone surrogate (U+D800"));
  CHECK(th::contains(refusal("{\"tokens\": [\"\xC0\xAF\", \"b\"]" + att), "tokens[0] is not valid UTF-8 (byte 0xC0"));
  // A pair is one character; the attention's problems come first, then the count, then an entry.
  CHECK(read("{\"tokens\": [\"\\ud83d\\ude00\", \"\xC3\xA9\"]" + att).tokens[0] == "\xF0\x9F\x98\x80");
  CHECK(th::contains(refusal("{\"tokens\": [\"\\ud800\"], \"attention\": [[1, 0], [0, 1]]}"), "\"tokens\" has 1 entries"));
  CHECK(th::contains(refusal("{\"tokens\": [\"\\ud800\", 2], \"attention\": [[1, 0], [0]]}"), "attention[1] has 1 entries"));
}
