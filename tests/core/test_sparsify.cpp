// Sparsifying a dense head (issue 24): the three rules on hand-made rows (ties to the lower
// column, zeros never kept, the threshold's fallback row), the rule grammar, the checks of a
// head's values (NaN, negative, row sums, the softmax hint, masked rows) and the description
// of the sparse target, each against values worked out by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "helpers.hpp"
#include <attnx/head_import.hpp>
#include <attnx/schema_doc.hpp>

using attnx::RuleKind;

namespace {

std::vector<int> keep(const std::vector<double>& row, const std::string& rule, bool* fallback = nullptr) {
  std::vector<int> kept, scratch;
  const bool ok = attnx::sparsify_row(row.data(), int(row.size()), attnx::parse_rule(rule), kept, scratch);
  if (fallback) *fallback = !ok;
  return kept;
}

std::string refusal(const std::vector<float>& v, int L, bool softmax = false, const std::string& rule = "topk:1") {
  attnx::HeadOptions opt;
  opt.rule = attnx::parse_rule(rule);
  opt.softmax = softmax;
  try {
    attnx::import_head(v.data(), L, opt);
  } catch (const attnx::InvalidArgument& e) {
    return e.what();
  }
  FAIL_CHECK("the head was accepted");
  return "";
}

}  // namespace

TEST_CASE("topk keeps the K largest, ties to the lower column, never a zero") {
  const std::vector<double> row = {0.1, 0.3, 0.2, 0.3, 0.1, 0.0};
  CHECK(keep(row, "topk:1") == std::vector<int>{1});        // 0.3 at 1 and 3: the lower
  CHECK(keep(row, "topk:2") == std::vector<int>{1, 3});
  CHECK(keep(row, "topk:3") == std::vector<int>{1, 2, 3});
  CHECK(keep(row, "topk:4") == std::vector<int>{0, 1, 2, 3});  // 0.1 at 0 and 4: the lower
  CHECK(keep(row, "topk:6") == std::vector<int>{0, 1, 2, 3, 4});  // the zero is not kept
}

TEST_CASE("threshold keeps every entry >= T — a row with none keeps its largest") {
  const std::vector<double> row = {0.1, 0.3, 0.2, 0.3, 0.1, 0.0};
  bool fallback = true;
  CHECK(keep(row, "threshold:0.2", &fallback) == std::vector<int>{1, 2, 3});
  CHECK(!fallback);
  CHECK(keep(row, "threshold:0.3") == std::vector<int>{1, 3});
  CHECK(keep(row, "threshold:0.5", &fallback) == std::vector<int>{1});  // the first 0.3
  CHECK(fallback);
}

TEST_CASE("mass keeps the fewest entries holding >= P of the row, ties to the lower column") {
  const std::vector<double> row = {0.125, 0.25, 0.125, 0.5, 0.0};  // exact in binary
  CHECK(keep(row, "mass:0.5") == std::vector<int>{3});
  CHECK(keep(row, "mass:0.51") == std::vector<int>{1, 3});
  CHECK(keep(row, "mass:0.75") == std::vector<int>{1, 3});
  CHECK(keep(row, "mass:0.8") == std::vector<int>{0, 1, 3});  // 0.125 at 0 and 2: the lower
  CHECK(keep(row, "mass:1") == std::vector<int>{0, 1, 2, 3});  // all the mass, not the zero
}

TEST_CASE("the rule grammar is checked, with the allowed forms in the message") {
  CHECK(attnx::parse_rule("topk:3").k == 3);
  CHECK(attnx::parse_rule("mass:0.9").kind == RuleKind::Mass);
  CHECK(attnx::parse_rule("threshold:1e-2").value == 0.01);
  CHECK(attnx::rule_text(attnx::parse_rule("threshold:1e-2")) == "threshold:0.01");
  CHECK(attnx::rule_text(attnx::parse_rule("mass:1")) == "mass:1");
  auto msg = [](const std::string& r) { return th::invalid([&] { attnx::parse_rule(r); }); };
  CHECK(std::string(msg("top:2").what()) ==
        "rule must be topk:K (K from 1 to L), threshold:T (T in (0, 1]) or mass:P (P in (0, 1]) (got \"top:2\")");
  CHECK(msg("top:2").field() == "rule");
  CHECK(std::string(msg("topk:0").what()) == "rule topk:K needs K, an integer from 1 to 4096 (got \"0\")");
  CHECK(std::string(msg("topk:2.5").what()) == "rule topk:K needs K, an integer from 1 to 4096 (got \"2.5\")");
  CHECK(std::string(msg("mass:0").what()) == "rule mass:P needs P, a number in (0, 1] (got \"0\")");
  CHECK(std::string(msg("threshold:1.5").what()) == "rule threshold:T needs T, a number in (0, 1] (got \"1.5\")");
  CHECK(std::string(msg("mass: 0.5").what()).find("(got \" 0.5\")") != std::string::npos);
  CHECK(std::string(msg("topk").what()).find("rule must be") == 0);
}

TEST_CASE("a head's values are checked row by row, with the softmax hint for scores") {
  CHECK(refusal({0.5f, 0.5f, NAN, 1}, 2) == "row 1, column 0 is NaN");
  CHECK(refusal({0.5f, 0.5f, -0.25f, 1.25f}, 2) ==
        "row 1, column 0 is negative (-0.25): probabilities are >= 0; if these are scores (logits), apply softmax "
        "to the rows (--softmax)");
  CHECK(refusal({0.5f, 0.5f, 0.5f, 0.4f}, 2) ==
        "row 1 sums to 0.9, not 1 (within 0.001): each row of an attention map sums to 1 (was it cropped, or "
        "masked without renormalising?)");
  CHECK(th::contains(refusal({3, 2, 0.5f, 0.5f}, 2), "row 0 sums to 5, not 1 (within 0.001): entries above 1 look like "
                                                   "scores (logits), not probabilities: apply softmax"));
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(th::contains(refusal({1, 0, -inf, 1}, 2), "row 1, column 0 is -Infinity"));
  CHECK(refusal({0, -inf, -inf, -inf}, 2, true) == "row 1 is fully masked (every score is -Infinity): nothing to attend to");
  CHECK(th::contains(refusal({0, inf, 0, 0}, 2, true), "row 0, column 1 is +Infinity"));
  CHECK(refusal({0, NAN, 0, 0}, 2, true) == "row 0, column 1 is NaN");
  CHECK(th::contains(refusal({1, 0, 0, 1}, 2, false, "topk:3"), "rule topk:3 keeps more entries than a row has (L = 2)"));
}

TEST_CASE("softmax with masked entries gives the probabilities worked out by hand") {
  // Scores ln 1, ln 3, -inf: probabilities 1/4, 3/4, 0.
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> scores = {0, -inf, -inf,   std::log(1.0f), std::log(3.0f), -inf,   1, 1, 1};
  attnx::HeadOptions opt;
  opt.rule = attnx::parse_rule("mass:1");
  opt.softmax = true;
  const attnx::HeadImport h = attnx::import_head(scores.data(), 3, opt, true);
  CHECK(h.probabilities[3] == doctest::Approx(0.25).epsilon(1e-6));
  CHECK(h.probabilities[4] == doctest::Approx(0.75).epsilon(1e-6));
  CHECK(h.probabilities[5] == 0);
  CHECK(h.target.row_end(0) - h.target.row_begin(0) == 1);
  CHECK(h.target.row_end(1) - h.target.row_begin(1) == 2);
  CHECK(h.target.row_end(2) - h.target.row_begin(2) == 3);
  CHECK(h.description.k == 3);
}

TEST_CASE("the sparse target and its description match a hand-made head") {
  // L = 4. Row i: 0.5 on column 0 (a sink), 0.3 on i, 0.2 spread; topk:2 keeps column 0 and i.
  const std::vector<float> v = {
      0.8f, 0.1f, 0.05f, 0.05f,   // row 0: 0 (0.8), 1 (0.1) -> kept 0.9
      0.5f, 0.3f, 0.1f, 0.1f,     // row 1: 0, 1 -> 0.8
      0.5f, 0.1f, 0.3f, 0.1f,     // row 2: 0, 2 -> 0.8
      0.4f, 0.1f, 0.1f, 0.4f};    // row 3: 0, 3 (tie 0.4 / 0.4) -> 0.8
  attnx::HeadOptions opt;
  opt.rule = attnx::parse_rule("topk:2");
  const attnx::HeadImport h = attnx::import_head(v.data(), 4, opt);
  th::check_pattern_invariants(h.target);
  CHECK(h.target.col == std::vector<int>{0, 1, 0, 1, 0, 2, 0, 3});
  CHECK(h.target.val[0] == doctest::Approx(0.8 / 0.9));
  CHECK(h.target.val[3] == doctest::Approx(0.3 / 0.8));
  CHECK(h.target.val[6] == doctest::Approx(0.5));
  const attnx::HeadDescription& d = h.description;
  CHECK(d.k == 2);
  CHECK(d.max_col_count == 4);
  CHECK(!d.in_class);
  CHECK(d.nnz == 8);
  CHECK(d.kept_mass_min == doctest::Approx(0.8).epsilon(1e-6));
  CHECK(d.kept_mass_min_row == 1);
  CHECK(d.kept_mass_median == doctest::Approx(0.8).epsilon(1e-6));  // 0.8, 0.8, 0.8, 0.9
  CHECK(d.columns_over_k == 1);
  REQUIRE(d.top_columns_over_k.size() == 1);
  CHECK(d.top_columns_over_k[0].column == 0);
  CHECK(d.top_columns_over_k[0].count == 4);
  CHECK(d.rule == "topk:2");
  CHECK(d.fallback_rows == 0);
  // The sink holds (0.8 + 0.5 + 0.5 + 0.4) / 4 = 0.55 of the mass: L = 4 allows one sink column.
  CHECK(d.archetype.kind == "sink");
  CHECK(d.archetype.share == doctest::Approx(0.55).epsilon(1e-6));
}

TEST_CASE("threshold's fallback rows are counted and named") {
  const std::vector<float> v = {0.6f, 0.4f, 0.5f, 0.5f};
  attnx::HeadOptions opt;
  opt.rule = attnx::parse_rule("threshold:0.55");
  const attnx::HeadImport h = attnx::import_head(v.data(), 2, opt);
  CHECK(h.description.fallback_rows == 1);
  CHECK(h.description.fallback_row_list == std::vector<int>{1});
  CHECK(h.target.col == std::vector<int>{0, 0});  // row 1: 0.5 / 0.5, the lower column
}

TEST_CASE("a head whose sparse target would not fit the budget is refused before it is built") {
  // L = 64 under mass:1: up to 64^2 entries of 36 bytes (triplets and pattern): about 0.15 MB.
  const std::vector<float> v(64 * 64, 1.0f / 64);
  attnx::HeadOptions opt;
  opt.rule = attnx::parse_rule("mass:1");
  opt.max_bytes = 100000;
  try {
    attnx::import_head(v.data(), 64, opt);
    FAIL_CHECK("accepted above the budget");
  } catch (const attnx::BudgetExceeded& e) {
    // A budget that is no whole number of MiB: both sizes in bytes (not "1 MiB, above ... 1 MiB").
    CHECK(std::string(e.what()) == "importing a head of L = 64 with rule mass:1 needs about 155648 bytes, above the memory "
                                   "budget of 100000 bytes; choose a rule that keeps fewer entries, or raise the budget");
  }
  opt.remedy = attnx::BudgetRemedy::Fixed;  // the explorer: no budget to raise
  try {
    attnx::import_head(v.data(), 64, opt);
    FAIL_CHECK("accepted above the budget");
  } catch (const attnx::BudgetExceeded& e) {
    CHECK(th::contains(e.what(), "choose a rule that keeps fewer entries (the page's memory budget is fixed: attnx "
                                 "import on the command line reads it with a larger --max-bytes)"));
    CHECK(!th::contains(e.what(), "raise the budget"));
  }
  opt.rule = attnx::parse_rule("topk:2");  // 128 entries fit
  CHECK(attnx::import_head(v.data(), 64, opt).description.nnz == 128);
}

TEST_CASE("the rule kinds are one table: the reader's ranges at their closed ends, and the schema publishes them") {
  CHECK(attnx::parse_rule("topk:4096").k == 4096);
  CHECK(attnx::parse_rule("threshold:1").value == 1);
  CHECK(attnx::parse_rule("mass:5e-324").value > 0);
  const auto& kinds = attnx::rule_kinds();
  REQUIRE(kinds.size() == 3);
  CHECK(std::string(kinds[0].name) == "topk");
  CHECK(kinds[0].max_is_L);
  const std::string schema = attnx::schema_json();
  CHECK(schema.find("\"ruleKinds\"") != std::string::npos);
  CHECK(schema.find("\"name\": \"topk\", \"letter\": \"K\", \"integer\": true, \"min\": 1, \"minOpen\": false, \"max\": \"L\"") != std::string::npos);
  CHECK(schema.find("\"name\": \"mass\", \"letter\": \"P\", \"integer\": false, \"min\": 0, \"minOpen\": true, \"max\": 1") != std::string::npos);
}
