// attnx core: making one row of a dense attention head sparse (issue 24). Three rules, each
// keeping the row's entries in the order "larger value first, ties to the lower column":
//   topk:K       the K largest entries;
//   threshold:T  every entry >= T; a row with none keeps its largest entry alone (the head's
//                description counts and names such rows: "fallback rows");
//   mass:P       the fewest entries holding >= P of the row's mass.
// Entries equal to 0 are never kept (a pattern's weights are positive). The sparse target's
// weights are the kept values renormalised per row (pattern_from_triplets does it).
#pragma once
#include <string>
#include <vector>

namespace attnx {

enum class RuleKind { TopK, Threshold, Mass };

struct SparsifyRule {
  RuleKind kind = RuleKind::TopK;
  int k = 2;           // topk: K, 1 <= K <= kMaxImportL (and <= L, checked per head)
  double value = 0.5;  // threshold: T in (0, 1]; mass: P in (0, 1]
};

// The rule option's default and its grammar, as messages and help show it.
constexpr const char* kDefaultRule = "topk:2";
constexpr const char* kRuleGrammar = "topk:K (K from 1 to L), threshold:T (T in (0, 1]) or mass:P (P in (0, 1])";

// The rules' kinds, one record each (the schema publishes them as ruleKinds, and every reader of a
// rule checks its value by them): the name before the colon, the value's letter, whether it is an
// integer, its range [min, max] (min open for threshold and mass; max_is_L: topk's K is at most the
// head's L, kMaxImportL before L is known).
struct RuleKindInfo {
  RuleKind kind;
  const char* name;
  const char* letter;
  bool integer;
  double min;
  bool min_open;
  double max;
  bool max_is_L;
};
const std::vector<RuleKindInfo>& rule_kinds();

// Reads "topk:2", "threshold:0.1", "mass:0.9" (numbers as in JSON, no spaces). Refuses anything
// else as InvalidArgument("rule", "rule must be topk:K (K from 1 to L), threshold:T ... (got
// \"topk:0\")"), naming what is wrong: "rule topk:K needs K from 1 to 4096 (got 0)".
SparsifyRule parse_rule(const std::string& text);
// The rule's text, as parse_rule reads it: "topk:2", "threshold:0.1", "mass:0.9".
std::string rule_text(const SparsifyRule& r);
// Refuses topk:K with K > L (field "rule"), naming L.
void require_rule_fits(const SparsifyRule& r, int L);

// The columns row p[0..L) keeps under r, ascending. idx is scratch space. Returns false when
// the threshold rule kept its largest entry only because none reached T (a fallback row).
// The row must have a positive entry. Cost: topk O(L log K); mass O(L log L); threshold O(L).
bool sparsify_row(const double* p, int L, const SparsifyRule& r, std::vector<int>& kept, std::vector<int>& idx);

}  // namespace attnx
