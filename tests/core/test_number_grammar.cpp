// The number grammar of flags, attributes and links (attnx/number_grammar.hpp): the hand parsers
// accept exactly the texts the published ECMAScript patterns accept (std::regex, ECMAScript
// syntax, over every short text of a number-like alphabet and hand-picked ones), and the CLI
// refuses the spellings the grammar leaves out (issue 27: --Ls +16, --Ls 016, --d +16).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <regex>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include <attnx/json.hpp>
#include <attnx/number_grammar.hpp>
#include <attnx/schema_doc.hpp>

namespace {

// Every text of length 0..n over the alphabet.
std::vector<std::string> all_texts(const std::string& alphabet, int n) {
  std::vector<std::string> out = {""}, layer = {""};
  for (int len = 1; len <= n; ++len) {
    std::vector<std::string> next;
    for (const auto& s : layer)
      for (char c : alphabet) next.push_back(s + c);
    out.insert(out.end(), next.begin(), next.end());
    layer = std::move(next);
  }
  return out;
}

std::vector<std::string> corpus() {
  std::vector<std::string> c = all_texts("019-+.eE ,\t", 4);
  for (const char* s : {"016", "02", "+16", " 64", "64 ", "1.5e-7", "1E+2", "-0", "-0.5", "0.0", "00",
                        "1e400", "123456789012345678901234", "9223372036854775807",
                        "9223372036854775808", "-9223372036854775807", "16,32,64", "16,,32", ",16",
                        "16,", "0x10", "nan", "inf", "Infinity", ".5", "5.", "1e", "1e+", "3.0", "1_0"})
    c.push_back(s);
  return c;
}

}  // namespace

TEST_CASE("the number parsers accept exactly what the published patterns match") {
  const std::regex integer(attnx::kIntegerPattern, std::regex::ECMAScript);
  const std::regex real(attnx::kRealPattern, std::regex::ECMAScript);
  const std::regex list(attnx::kIntegerListPattern, std::regex::ECMAScript);
  int integers = 0, reals = 0, lists = 0;
  for (const std::string& s : corpus()) {
    const bool i = std::regex_match(s, integer), r = std::regex_match(s, real), l = std::regex_match(s, list);
    CHECK_MESSAGE(attnx::is_integer_text(s) == i, "integer: \"" << s << "\"");
    CHECK_MESSAGE(attnx::is_real_text(s) == r, "real: \"" << s << "\"");
    std::vector<long long> values;
    long long v = 0;
    double x = 0;
    // Parsing fails only where the grammar does, or on overflow.
    if (s.size() <= 18) {
      CHECK_MESSAGE(attnx::parse_integer_list_text(s, &values) == l, "list: \"" << s << "\"");
      CHECK(attnx::parse_integer_text(s, &v) == i);
      CHECK(attnx::parse_real_text(s, &x) == (r && std::isfinite(std::strtod(s.c_str(), nullptr))));
    }
    integers += i, reals += r, lists += l;
  }
  CHECK(integers > 100);  // the corpus holds both kinds of texts
  CHECK(reals > integers);
  CHECK(lists > integers);
}

TEST_CASE("integers and reals: values, overflow, and the spellings left out") {
  long long v = 0;
  double x = 0;
  CHECK((attnx::parse_integer_text("9223372036854775807", &v) && v == 9223372036854775807ll));
  CHECK_FALSE(attnx::parse_integer_text("9223372036854775808", &v));
  CHECK((attnx::parse_integer_text("-42", &v) && v == -42));
  for (const char* bad : {"+16", "016", "02", "-0", " 64", "64 ", "3.0", "1e3", "", "-", "0x10"})
    CHECK_MESSAGE(!attnx::parse_integer_text(bad, &v), bad);
  CHECK((attnx::parse_real_text("1.5e-7", &x) && x == 1.5e-7));
  CHECK((attnx::parse_real_text("1E2", &x) && x == 100));
  CHECK_FALSE(attnx::parse_real_text("1e400", &x));  // not finite
  for (const char* bad : {"+1", "01", ".5", "5.", "1e", "nan", "inf", " 1", "1 "})
    CHECK_MESSAGE(!attnx::parse_real_text(bad, &x), bad);
  std::vector<long long> l;
  CHECK((attnx::parse_integer_list_text("16,32,64", &l) && l == std::vector<long long>{16, 32, 64}));
  for (const char* bad : {"16,", ",16", "16,,32", "16, 32", "+16", "016,32", "16,032"})
    CHECK_MESSAGE(!attnx::parse_integer_list_text(bad, &l), bad);
  CHECK(attnx::number_text_note("+16") == "numbers are written without a plus sign");
  CHECK(attnx::number_text_note("16,032") == "numbers are written without leading zeros");
  CHECK(attnx::number_text_note(" 64") == "numbers are written without spaces");
  CHECK(attnx::number_text_note("abc") == "");
}

TEST_CASE("the CLI refuses --Ls +16, --Ls 016 and --d +16, saying why") {
  if (!cli_test::cli_available()) return;
  const std::vector<std::pair<std::vector<std::string>, std::string>> runs = {
      {{"sweep", "--Ls", "+16", "--trials", "1", "--dmax", "64"}, "(got +16; numbers are written without a plus sign)"},
      {{"sweep", "--Ls", "016", "--trials", "1", "--dmax", "64"}, "(got 016; numbers are written without leading zeros)"},
      {{"sweep", "--Ls", "16,032", "--trials", "1", "--dmax", "64"}, "leading zeros"},
      {{"construct", "--L", "16", "--d", "+16"}, "--d must be an integer from 1 to 16384 (got +16; "},
      {{"construct", "--L", "016", "--d", "16"}, "--L must be an integer"},
      {{"construct", "--L", "16", "--d", "16", "--eps", "+1"}, "--eps must be a number"},
      {{"construct", "--L", "16", "--d", "16", "--eps", ".5"}, "--eps must be a number"},
      {{"construct", "--L", "16", "--d", " 16"}, "spaces"},
      {{"sweep", "--Ls", "16", "--trials", "2", "--shard", "+0/2"}, "--shard must be i/n"},
  };
  for (const auto& [args, text] : runs) {
    const auto r = cli_test::run_cli(args);
    CHECK_MESSAGE(r.status == 2, args[1] << " " << args[2]);
    CHECK_MESSAGE(r.err.find(text) != std::string::npos, r.err);
  }
  CHECK(cli_test::run_cli({"construct", "--L", "16", "--d", "16", "--eps", "1E0"}).status == 0);
}

TEST_CASE("the published notes say what number_text_note says, and the schema carries the grammar") {
  const auto& notes = attnx::number_text_notes();
  REQUIRE(notes.size() == 5);
  std::vector<std::regex> res;
  for (const auto& n : notes) res.emplace_back(n.pattern, std::regex::ECMAScript);
  std::vector<int> given(notes.size(), 0);  // how often each note is the one given
  for (const std::string& s : corpus()) {
    std::string first;
    for (std::size_t i = 0; i < res.size() && first.empty(); ++i)
      if (std::regex_search(s, res[i])) first = notes[i].note, ++given[i];
    CHECK_MESSAGE(attnx::number_text_note(s) == first, "\"" << s << "\"");
  }
  for (std::size_t i = 0; i < notes.size(); ++i) CHECK_MESSAGE(given[i] > 10, std::string(notes[i].note));  // each note is given somewhere
  CHECK(attnx::number_text_note(".5") == notes[2].note);
  CHECK(attnx::number_text_note("5.") == notes[2].note);
  CHECK(attnx::number_text_note("-0") == notes[3].note);
  CHECK(attnx::number_text_note("16,-0") == notes[3].note);
  CHECK(attnx::number_text_note("-0.5") == "");  // a real that fits
  CHECK(attnx::number_text_note("\t8") == notes[4].note);
  const attnx::JsonValue doc = attnx::json_parse(attnx::schema_json());
  const attnx::JsonValue* g = doc.find("numberGrammar");
  REQUIRE(g);
  CHECK(g->find("integer")->str == attnx::kIntegerPattern);
  CHECK(g->find("real")->str == attnx::kRealPattern);
  CHECK(g->find("integerList")->str == attnx::kIntegerListPattern);
  REQUIRE(g->find("notes")->arr.size() == notes.size());
  CHECK(g->find("notes")->arr[1].find("pattern")->str == "(?:^|[, ])-?0[0-9]");
  CHECK(g->find("notes")->arr[4].find("note")->str == "numbers are written without spaces");
}
