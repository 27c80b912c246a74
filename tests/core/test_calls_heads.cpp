// The heads calls in the core (attnx/calls_heads.hpp): a file's bytes read as `attnx import` reads
// them (hand-made .npy here, tests/core/heads_bytes.hpp), the options read from a caller's value
// with the option table's defaults and names, and each result against the core functions it wraps.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "heads_bytes.hpp"
#include "helpers.hpp"
#include <attnx/calls_heads.hpp>
#include <attnx/pattern_io.hpp>

using attnx::JsonValue;
using attnx::json_parse;

namespace {

// Two heads of L = 4 ([2, 4, 4], float32, C order): head 0 the previous token (0.7, and 0.3 on
// itself; row 0 all on itself), head 1 uniform rows.
std::string two_heads() {
  std::vector<double> v(32, 0.0);
  v[0] = 1;
  for (int i = 1; i < 4; ++i) v[4 * i + i - 1] = 0.7, v[4 * i + i] = 0.3;
  for (int n = 16; n < 32; ++n) v[n] = 0.25;
  return hb::npy_floats(v, {2, 4, 4}, 4, false);
}

JsonValue name(const std::string& s) { return JsonValue::of(s); }

}  // namespace

TEST_CASE("readAttention: format, dtype, shape and axes of the file — values not kept — messages start with the name") {
  const attnx::AttentionArray a = attnx::read_attention_call(two_heads(), name("h.npy"), JsonValue());
  CHECK((a.format == "npy" && a.dtype == "<f4" && a.rank == 3 && a.heads == 2 && a.layers == 1 && a.L == 4));
  CHECK(a.values.empty());
  CHECK(std::string(th::invalid([] { attnx::read_attention_call("", name("x.npy"), JsonValue()); }).what()) ==
        "x.npy: the file is empty");
  CHECK(std::string(th::invalid([] { attnx::read_attention_call("", JsonValue(), JsonValue()); }).what()) ==
        "attention: the file is empty");  // no name given
  CHECK(th::invalid([] { attnx::read_attention_call("", JsonValue::of(5.0), JsonValue()); }).field() == "name");
  const std::string big = hb::npy_floats(std::vector<double>(512 * 512, 0.0), {512, 512}, 4, false);  // 1 MiB of data
  auto budget = [&] { attnx::read_attention_call(big, name("big.npy"), json_parse(R"({"maxBytes": 1048576})")); };
  CHECK_THROWS_AS(budget(), attnx::BudgetExceeded);
  CHECK(th::invalid([] { attnx::read_attention_call(two_heads(), name("h.npy"), json_parse(R"({"layer": 0})")); }).field() ==
        "layer");  // readAttention takes maxBytes only
}

TEST_CASE("importHead: import_file_head's description, the --out pattern text and its triplets, the dense head") {
  const std::string bytes = two_heads();
  const attnx::ImportHeadCall r =
      attnx::import_head_call(bytes, name("h.npy"), json_parse(R"({"head": 0, "rule": "topk:1"})"));
  const attnx::AttentionArray a = attnx::read_attention(bytes, "h.npy", attnx::kDefaultMaxBytes);
  attnx::HeadOptions o;
  o.rule = attnx::parse_rule("topk:1");
  const attnx::HeadImport want = attnx::import_file_head(a, 0, 0, o, "h.npy");
  CHECK(r.pattern_text == attnx::pattern_to_json(want.target));
  CHECK(r.h.description.archetype.code == "diagonal:-1");
  CHECK((r.h.description.k == 1 && r.h.description.nnz == 4));
  REQUIRE(r.pattern.triplets.size() == 4);
  CHECK((r.pattern.L == 4 && r.pattern.triplets[1].i == 1 && r.pattern.triplets[1].j == 0 && r.pattern.triplets[1].w == 1));
  REQUIRE(r.h.probabilities.size() == 16);
  CHECK(r.h.probabilities[4] == 0.7f);  // row 1, column 0
  CHECK(r.h.kept_mass[1] == doctest::Approx(0.7));
  const JsonValue* rule = r.params.find("rule");
  CHECK((rule && rule->str == "topk:1" && r.params.find("maxBytes")->num == attnx::kDefaultMaxBytes));
  CHECK(std::string(th::invalid([&] { attnx::import_head_call(bytes, name("h.npy"), json_parse(R"({"head": 2})")); }).what())
            .rfind("head must be an integer from 0 to 1 (got 2)", 0) == 0);
  CHECK(th::invalid([&] { attnx::import_head_call(bytes, name("h.npy"), json_parse(R"({"rule": "top:2"})")); }).field() == "rule");
  CHECK(th::invalid([&] { attnx::import_head_call(bytes, name("h.npy"), json_parse(R"({"softmax": 1})")); }).field() == "softmax");
  CHECK(th::invalid([&] { attnx::import_head_call(bytes, name("h.npy"), json_parse(R"({"seed": 1})")); }).field() == "seed");
}

TEST_CASE("surveyHead: survey_file_head of the head with the option table's grids — progress can stop it") {
  const std::string bytes = two_heads();
  const attnx::SurveyRow r = attnx::survey_head_call(bytes, name("h.npy"), json_parse(R"({"head": 1, "rule": "topk:1"})"), nullptr);
  const attnx::AttentionArray a = attnx::read_attention(bytes, "h.npy", attnx::kDefaultMaxBytes);
  attnx::SurveyOptions o;
  o.head.rule = attnx::parse_rule("topk:1");
  const attnx::SurveyRow want = attnx::survey_file_head(a, 0, 1, o, "h.npy");
  CHECK((r.layer == 0 && r.head == 1));
  CHECK((r.jl_d_min == want.jl_d_min && r.lp_d_min == want.lp_d_min && r.description.k == want.description.k));
  const attnx::SurveyRow stopped = attnx::survey_head_call(bytes, name("h.npy"), JsonValue(), [](double) { return false; });
  CHECK(stopped.cancelled);
  CHECK(th::invalid([&] { attnx::survey_head_call(bytes, name("h.npy"), json_parse(R"({"tau": 2})"), nullptr); }).field() == "tau");
}
