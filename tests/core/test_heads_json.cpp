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

TEST_CASE("a JSON text is refused above the memory budget before it is parsed") {
  // 2002 bytes: the pattern texts' estimate (96 bytes per byte) is above 100000.
  const std::string text = "[" + std::string(2000, ' ') + "]";
  CHECK_THROWS_AS(attnx::read_attention(text, "a.json", 100000), attnx::BudgetExceeded);
}
