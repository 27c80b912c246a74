// Custom patterns as text (attnx/pattern_io.hpp): every accepted form, the export texts byte for
// byte, and refusals that name the line (and entry) first.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "helpers.hpp"
#include <attnx/json.hpp>
#include <attnx/pattern_io.hpp>

using attnx::PatternTriplets;
using attnx::parse_pattern_triplets;

namespace {

// (i, j, w) of a parse, for comparisons.
std::vector<std::vector<double>> rows_of(const PatternTriplets& p) {
  std::vector<std::vector<double>> v;
  for (const auto& t : p.triplets) v.push_back({double(t.i), double(t.j), t.w});
  return v;
}

// The message of the refusal of `text` (field "text"), or "" (and a failed check) if accepted.
std::string refusal(const std::string& text, long long L = -1) {
  auto e = th::invalid([&] { parse_pattern_triplets(text, L); });
  CHECK(e.field() == "text");
  return e.what();
}

const std::vector<std::vector<double>> kThree = {{0, 0, 1}, {1, 1, 2}, {2, 0, 0.5}, {2, 2, 1.5}};

}  // namespace

TEST_CASE("js_number prints doubles as JavaScript's String() does") {
  CHECK(attnx::js_number(1) == "1");
  CHECK(attnx::js_number(0.1) == "0.1");
  CHECK(attnx::js_number(-2.5) == "-2.5");
  CHECK(attnx::js_number(100) == "100");
  CHECK(attnx::js_number(1.0 / 3) == "0.3333333333333333");
  CHECK(attnx::js_number(0.000001) == "0.000001");
  CHECK(attnx::js_number(1e-7) == "1e-7");
  CHECK(attnx::js_number(1.5e-7) == "1.5e-7");
  CHECK(attnx::js_number(123e18) == "123000000000000000000");
  CHECK(attnx::js_number(1e21) == "1e+21");
  CHECK(attnx::js_number(1.7976931348623157e308) == "1.7976931348623157e+308");
  CHECK(attnx::js_number(5e-324) == "5e-324");
  CHECK(attnx::js_number(-0.0) == "0");
}

TEST_CASE("every accepted form gives the same raw triplets, sorted, zero weights dropped") {
  const std::vector<std::pair<std::string, long long>> forms = {
      {R"({"L": 3, "triplets": [[2, 2, 1.5], [0, 0, 1], [1, 1, 2], [2, 0, 0.5], [1, 0, 0]]})", -1},
      {R"({"triplets": [[0,0,1],[1,1,2],[2,0,0.5],[2,2,1.5]]})", -1},             // L inferred
      {"[[0,0,1],[1,1,2],[2,0,0.5],[2,2,1.5]]", 3},                              // bare, L given
      {"[[0,0,1],[1,1,2],[2,0,0.5],[2,2,1.5]]", -1},                             // bare, inferred
      {R"({"format": "attnx-construct-export/1", "L": 3, "d": 4, "A": [[0,0,1],[1,1,2],[2,0,0.5],[2,2,1.5]], "X": [[1]]})", -1},
      {"i,j,w\n0,0,1\n1,1,2\n2,0,0.5\n2,2,1.5\n", -1},
      {"# a comment\n\n  0 0 1\n1;1;2\r\n2\t0\t0.5\n2 , 2 , 1.5\n\n", 3},
      {"\xEF\xBB\xBF[[0,0,1],[1,1,2],[2,0,0.5],[2,2,1.5]]", -1},                 // UTF-8 BOM
      {"\xEF\xBB\xBFi,j,w\n0,0,1\n1,1,2\n2,0,.5\n2,2,+1.5e0\n", -1},
  };
  for (const auto& f : forms) {
    CAPTURE(f.first);
    const PatternTriplets p = parse_pattern_triplets(f.first, f.second);
    CHECK(p.L == 3);
    CHECK(rows_of(p) == kThree);
  }
}

TEST_CASE("parse_pattern_text normalises rows — the export texts are byte-exact") {
  const std::string json = "{\"L\":3,\"triplets\":[\n[0,0,1],\n[1,1,2],\n[2,0,0.5],\n[2,2,1.5]\n]}\n";
  const std::string csv = "i,j,w\n0,0,1\n1,1,2\n2,0,0.5\n2,2,1.5\n";
  const PatternTriplets p = parse_pattern_triplets(json, -1);
  CHECK(attnx::pattern_to_json(p) == json);
  CHECK(attnx::pattern_to_csv(p) == csv);
  CHECK(rows_of(parse_pattern_triplets(csv, -1)) == kThree);

  const attnx::Pattern A = attnx::parse_pattern_text(json, -1);
  th::check_pattern_invariants(A);
  CHECK(A.val == std::vector<double>{1, 1, 0.25, 0.75});
  CHECK(attnx::pattern_to_csv(A) == "i,j,w\n0,0,1\n1,1,1\n2,0,0.25\n2,2,0.75\n");

  PatternTriplets q;
  q.L = 2;
  q.triplets = {{0, 1, 1e-7}, {1, 0, 1e21}, {1, 1, 0.1}};
  CHECK(attnx::pattern_to_json(q) == "{\"L\":2,\"triplets\":[\n[0,1,1e-7],\n[1,0,1e+21],\n[1,1,0.1]\n]}\n");
  CHECK(attnx::pattern_to_csv(q) == "i,j,w\n0,1,1e-7\n1,0,1e+21\n1,1,0.1\n");
}

TEST_CASE("JSON refusals name the line and the 0-based entry") {
  const std::string three = "[[0,0,1],\n[1,1,1],\n";
  CHECK(refusal(three + "[1,0,\"x\"]]") ==
        "line 3 (entry 2): weight must be a finite number >= 0 (got \"x\")");
  CHECK(refusal(three + "[1,0,-1]]") ==
        "line 3 (entry 2): weight must be a finite number >= 0 (got -1)");
  CHECK(refusal(three + "[1,-1,1]]") ==
        "line 3 (entry 2): column index must be an integer from 0 to 16383 (got -1)");
  CHECK(refusal(three + "[1.5,0,1]]") ==
        "line 3 (entry 2): row index must be an integer from 0 to 16383 (got 1.5)");
  CHECK(refusal(three + "[1,2,1]]", 2) ==
        "line 3 (entry 2): column index must be an integer from 0 to 1 (got 2)");
  CHECK(refusal(three + "[1,0]]") == "line 3 (entry 2): expected [i, j, w] (got an array of 2)");
  CHECK(refusal(three + "null]") == "line 3 (entry 2): expected [i, j, w] (got null)");
  CHECK(refusal(three + "[0,0,2]]") ==
        "line 3 (entry 2): cell (0, 0) appears twice (first at line 1 (entry 0))");
}

TEST_CASE("JSON syntax, keys and L are refused naming the line") {
  CHECK(refusal("[[0,0,1],\n[1,1,1],\n[1,0 2]]") ==
        "line 3, column 6: invalid JSON: expected ',' or ']' in an array");
  CHECK(refusal("[[0,0,1],\n[1,1,1],\n]") ==
        "line 3, column 1: invalid JSON: trailing comma before ']'");
  CHECK(refusal("{\"L\": 2,\n \"L\": 2, \"triplets\": [[0,0,1],[1,1,1]]}") ==
        "line 2, column 2: invalid JSON: repeated key \"L\" (each key may appear once)");
  CHECK(refusal("{\"L\": 20000, \"triplets\": [[0,0,1]]}") ==
        "line 1: \"L\" must be an integer from 2 to 16384 (got 20000)");
  CHECK(refusal("{\n\"L\": 3, \"triplets\": [[0,0,1],[1,1,1],[2,2,1]]}", 4) ==
        "line 2: \"L\" is 3 but the length given is 4");
  CHECK(refusal("{\"L\": 3, \"rows\": []}") ==
        "line 1: expected a \"triplets\" array of [i, j, w] entries");
  CHECK(refusal("{\"L\": 3,\n\"triplets\": 5}") ==
        "line 2: expected a \"triplets\" array of [i, j, w] entries (got a number)");
  CHECK(refusal("[]") == "no entries found: expected triplets i, j, w");
}

TEST_CASE("line-form refusals name the line — empty rows and empty text are refused") {
  CHECK(refusal("0,0,1\n1,1\n") == "line 2: expected 3 values \"i,j,w\" (got 2)");
  CHECK(refusal("i,j,w\n0,0,1\n1,-1,1\n") ==
        "line 3: column index must be an integer from 0 to 16383 (got -1)");
  CHECK(refusal("0,0,1\n1,1,abc\n") ==
        "line 2: weight must be a finite number >= 0 (got \"abc\")");
  CHECK(refusal("0,0,1\n1,1,1e999\n") ==
        "line 2: weight must be a finite number >= 0 (got 1e999)");
  CHECK(refusal("0,0,1\n0,0,1\n1,1,1") == "line 2: cell (0, 0) appears twice (first at line 1)");
  CHECK(refusal("0,0,1\n2,2,1") == "row 1 has no positive weight; every row needs at least one (L = 3)");
  CHECK(refusal("[[0,0,1],[1,1,1],[0,0,0],[2,1,0]]") ==
        "row 2 has no positive weight; every row needs at least one (L = 3)");
  const auto bad_L = th::invalid([] { parse_pattern_triplets("0,0,1\n1,1,1\n", 1); });
  CHECK(bad_L.field() == "L");  // the caller's L, not the text
  CHECK(std::string(bad_L.what()) == "L must be an integer from 2 to 16384 (got 1)");
  CHECK(refusal(" \n\t") ==
        "the text is empty: expected {\"L\": n, \"triplets\": [[i, j, w], ...]}, "
        "[[i, j, w], ...] or lines i,j,w");
  CHECK(refusal("\xEF\xBB\xBF").find("the text is empty") == 0);
}

TEST_CASE("a zero weight may repeat a cell — a positive weight may not") {
  const PatternTriplets p = parse_pattern_triplets("[[0,0,0],[0,0,1],[1,1,1],[1,1,0]]", -1);
  CHECK(rows_of(p) == std::vector<std::vector<double>>{{0, 0, 1}, {1, 1, 1}});
}
