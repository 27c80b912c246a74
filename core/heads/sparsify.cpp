// attnx core: the sparsification rules (see sparsify.hpp).
#include <attnx/sparsify.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/errors.hpp>
#include <attnx/heads.hpp>
#include <attnx/json.hpp>

namespace attnx {

namespace {

[[noreturn]] void refuse(const std::string& text) {
  fail("rule", std::string("rule must be ") + kRuleGrammar + " (got " + json_escape(text.substr(0, 40)) + ")");
}

// A JSON number (the whole text), or NaN.
double number_of(const std::string& s) {
  std::size_t p = 0;
  auto digits = [&] {
    const std::size_t a = p;
    while (p < s.size() && s[p] >= '0' && s[p] <= '9') ++p;
    return p - a;
  };
  if (p < s.size() && s[p] == '-') ++p;
  const std::size_t int_start = p;
  if (digits() == 0 || (s[int_start] == '0' && p - int_start > 1)) return NAN;
  if (p < s.size() && s[p] == '.' && (++p, digits() == 0)) return NAN;
  if (p < s.size() && (s[p] == 'e' || s[p] == 'E')) {
    ++p;
    if (p < s.size() && (s[p] == '+' || s[p] == '-')) ++p;
    if (digits() == 0) return NAN;
  }
  return p == s.size() ? parse_decimal(s.data(), s.data() + s.size()) : NAN;
}

}  // namespace

const std::vector<RuleKindInfo>& rule_kinds() {
  static const std::vector<RuleKindInfo> kinds = {
      {RuleKind::TopK, "topk", "K", true, 1, false, static_cast<double>(kMaxImportL), true},
      {RuleKind::Threshold, "threshold", "T", false, 0, true, 1, false},
      {RuleKind::Mass, "mass", "P", false, 0, true, 1, false},
  };
  return kinds;
}

SparsifyRule parse_rule(const std::string& text) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) refuse(text);
  const std::string name = text.substr(0, colon), arg = text.substr(colon + 1);
  const auto& kinds = rule_kinds();
  const auto it = std::find_if(kinds.begin(), kinds.end(), [&](const RuleKindInfo& k) { return name == k.name; });
  if (it == kinds.end()) refuse(text);
  const double v = number_of(arg);
  const bool above = it->min_open ? v > it->min : v >= it->min;
  if (!(above && v <= it->max && (!it->integer || v == std::floor(v)))) {
    const std::string range = it->integer ? "an integer from " + js_number(it->min) + " to " + js_number(it->max)
                                          : std::string("a number in (") + js_number(it->min) + ", " + js_number(it->max) + "]";
    fail("rule", "rule " + name + ":" + it->letter + " needs " + it->letter + ", " + range + " (got " + json_escape(arg.substr(0, 40)) + ")");
  }
  SparsifyRule r;
  r.kind = it->kind;
  if (it->integer) r.k = static_cast<int>(v);
  else r.value = v;
  return r;
}

std::string rule_text(const SparsifyRule& r) {
  switch (r.kind) {
    case RuleKind::TopK: return "topk:" + std::to_string(r.k);
    case RuleKind::Threshold: return "threshold:" + js_number(r.value);
    case RuleKind::Mass: return "mass:" + js_number(r.value);
  }
  return "";
}

void require_rule_fits(const SparsifyRule& r, int L) {
  if (r.kind == RuleKind::TopK && r.k > L)
    fail("rule", "rule topk:" + std::to_string(r.k) + " keeps more entries than a row has (L = " + std::to_string(L) +
                     "): give K from 1 to " + std::to_string(L));
}

bool sparsify_row(const double* p, int L, const SparsifyRule& r, std::vector<int>& kept, std::vector<int>& idx) {
  kept.clear();
  if (r.kind == RuleKind::Threshold) {
    int best = 0;
    for (int j = 0; j < L; ++j) {
      if (p[j] >= r.value && p[j] > 0) kept.push_back(j);
      if (p[j] > p[best]) best = j;
    }
    if (!kept.empty()) return true;
    kept.push_back(best);
    return false;
  }
  idx.clear();
  for (int j = 0; j < L; ++j)
    if (p[j] > 0) idx.push_back(j);
  auto first = [p](int a, int b) { return p[a] > p[b] || (p[a] == p[b] && a < b); };
  if (r.kind == RuleKind::TopK) {
    const std::size_t n = std::min<std::size_t>(static_cast<std::size_t>(r.k), idx.size());
    std::partial_sort(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(n), idx.end(), first);
    kept.assign(idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(n));
  } else {
    std::sort(idx.begin(), idx.end(), first);
    double total = 0;
    for (int j : idx) total += p[j];
    // Summed in the same order, the prefix reaches `total` exactly at the last entry, and
    // P * total <= total for P <= 1, so the loop always stops.
    const double target = r.value * total;
    double acc = 0;
    for (int j : idx) {
      kept.push_back(j);
      acc += p[j];
      if (acc >= target) break;
    }
  }
  std::sort(kept.begin(), kept.end());
  return true;
}

}  // namespace attnx
