// attnx core: a dense head made a sparse target and described (see head_import.hpp). One pass
// over the rows: check (or softmax) the row, add it to the offset and column sums the
// archetypes need, sparsify it; then the pattern is built and described.
#include <attnx/head_import.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <attnx/detmath.hpp>
#include <attnx/errors.hpp>

namespace attnx {

namespace {

[[noreturn]] void bad(const std::string& what) { fail("file", what); }

std::string cell(int i, int j) { return "row " + std::to_string(i) + ", column " + std::to_string(j); }

// Row i as probabilities: every entry finite and >= 0, the row summing to 1 within tolerance.
void checked_row(const float* v, int L, int i, double* p) {
  double sum = 0;
  bool above_one = false;
  for (int j = 0; j < L; ++j) {
    const float x = v[j];
    if (std::isnan(x)) bad(cell(i, j) + " is NaN");
    if (std::isinf(x))
      bad(cell(i, j) + " is " + (x > 0 ? "+Infinity" : "-Infinity") +
          ": probabilities are finite; scores with masked (-Infinity) entries need softmax (--softmax)");
    if (x < 0)
      bad(cell(i, j) + " is negative (" + fmt_num(x) +
          "): probabilities are >= 0; if these are scores (logits), apply softmax to the rows (--softmax)");
    above_one = above_one || x > 1;
    p[j] = x;
    sum += x;
  }
  if (std::fabs(sum - 1) > kRowSumTolerance)
    bad("row " + std::to_string(i) + " sums to " + fmt_num(sum) + ", not 1 (within " + fmt_num(kRowSumTolerance) +
        "): " + (above_one ? "entries above 1 look like scores (logits), not probabilities: apply softmax to the "
                             "rows (--softmax)"
                           : "each row of an attention map sums to 1 (was it cropped, or masked without "
                             "renormalising?)"));
}

// Row i as the softmax of its scores (max-subtracted, det_exp); -infinity entries get 0.
void softmax_row(const float* v, int L, int i, double* p) {
  double m = -std::numeric_limits<double>::infinity();
  for (int j = 0; j < L; ++j) {
    const float x = v[j];
    if (std::isnan(x)) bad(cell(i, j) + " is NaN");
    if (std::isinf(x) && x > 0) bad(cell(i, j) + " is +Infinity: scores are finite, or -Infinity for a masked entry");
    m = std::max(m, double(x));
  }
  if (std::isinf(m)) bad("row " + std::to_string(i) + " is fully masked (every score is -Infinity): nothing to attend to");
  double sum = 0;
  for (int j = 0; j < L; ++j) {
    p[j] = std::isinf(v[j]) ? 0.0 : det_exp(double(v[j]) - m);
    sum += p[j];
  }
  for (int j = 0; j < L; ++j) p[j] /= sum;
}

// What the rows add up to while they are read.
struct RowSums {
  std::vector<double> offset_mass, column_mass, kept_mass;
  double total = 0;
  std::vector<Triplet> kept;
  int fallback_rows = 0;
  std::vector<int> fallback_row_list;
};

void add_row(RowSums& s, const double* p, int L, int i, const SparsifyRule& rule, std::vector<int>& kept,
             std::vector<int>& scratch) {
  double row = 0;
  for (int j = 0; j < L; ++j) {
    row += p[j];
    s.offset_mass[j - i + L - 1] += p[j];
    s.column_mass[j] += p[j];
  }
  s.total += row;
  if (!sparsify_row(p, L, rule, kept, scratch)) {
    ++s.fallback_rows;
    if (s.fallback_row_list.size() < static_cast<std::size_t>(kMaxListedRows)) s.fallback_row_list.push_back(i);
  }
  double held = 0;
  for (int j : kept) {
    held += p[j];
    s.kept.push_back({i, j, p[j]});
  }
  if (s.kept.size() > static_cast<std::size_t>(kMaxNnz))
    fail("rule", "rule " + rule_text(rule) + " keeps more than " + std::to_string(kMaxNnz) +
                     " entries (a pattern's limit) by row " + std::to_string(i) +
                     ": choose a rule that keeps fewer (a smaller K or P, or a larger T)");
  s.kept_mass[i] = held / row;
}

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

HeadDescription describe(const Pattern& A, const RowSums& s, const HeadOptions& opt) {
  HeadDescription d;
  d.L = A.L;
  d.rule = rule_text(opt.rule);
  d.softmax = opt.softmax;
  const auto lowest = std::min_element(s.kept_mass.begin(), s.kept_mass.end());
  d.kept_mass_min = *lowest;
  d.kept_mass_min_row = static_cast<int>(lowest - s.kept_mass.begin());
  d.kept_mass_median = median_of(s.kept_mass);
  d.k = A.k, d.max_col_count = A.max_col_count, d.in_class = A.in_class, d.nnz = A.nnz();
  std::vector<ColumnCount> over;
  std::vector<int> counts(static_cast<std::size_t>(A.L), 0);
  for (int j : A.col) ++counts[j];
  for (int j = 0; j < A.L; ++j)
    if (counts[j] > A.k) over.push_back({j, counts[j]});
  d.columns_over_k = static_cast<int>(over.size());
  std::stable_sort(over.begin(), over.end(), [](const ColumnCount& a, const ColumnCount& b) { return a.count > b.count; });
  if (over.size() > static_cast<std::size_t>(kMaxListedColumns)) over.resize(kMaxListedColumns);
  d.top_columns_over_k = std::move(over);
  d.fallback_rows = s.fallback_rows;
  d.fallback_row_list = s.fallback_row_list;
  d.candidates = archetype_candidates(s.offset_mass, s.column_mass, s.total, A.L);
  d.archetype = choose_archetype(d.candidates);
  return d;
}

}  // namespace

std::uint64_t estimate_import_head_bytes(int L, std::uint64_t nnz_bound, bool with_probabilities) {
  const std::uint64_t l = static_cast<std::uint64_t>(L);
  // Triplets (24 bytes) and the pattern's column and value (12 bytes) per entry; rows, sums and
  // the sorting scratch (about 64 bytes per column); the probabilities (4 bytes per entry).
  return 36 * nnz_bound + 64 * l + (with_probabilities ? 4 * l * l : 0) + 4096;
}

HeadImport import_head(const float* values, int L, const HeadOptions& opt, bool with_probabilities) {
  require_int("L", L, kMinL, kMaxImportL);
  require_rule_fits(opt.rule, L);
  const std::uint64_t l = static_cast<std::uint64_t>(L);
  const std::uint64_t bound = opt.rule.kind == RuleKind::TopK ? l * static_cast<std::uint64_t>(opt.rule.k)
                                                             : std::min<std::uint64_t>(l * l, kMaxNnz);
  check_budget("importing a head of L = " + std::to_string(L) + " with rule " + rule_text(opt.rule),
               estimate_import_head_bytes(L, bound, with_probabilities), opt.max_bytes,
               opt.remedy == BudgetRemedy::Raise ? "choose a rule that keeps fewer entries, or raise the budget"
                                                 : "choose a rule that keeps fewer entries (" +
                                                       budget_remedy_text(opt.remedy) + ")");
  HeadImport out;
  RowSums s;
  s.offset_mass.assign(2 * l - 1, 0.0);
  s.column_mass.assign(l, 0.0);
  s.kept_mass.assign(l, 0.0);
  if (with_probabilities) out.probabilities.resize(l * l);
  std::vector<double> p(l);
  std::vector<int> kept, scratch;
  for (int i = 0; i < L; ++i) {
    const float* row = values + static_cast<std::size_t>(i) * l;
    (opt.softmax ? softmax_row : checked_row)(row, L, i, p.data());
    if (with_probabilities)
      for (int j = 0; j < L; ++j) out.probabilities[static_cast<std::size_t>(i) * l + j] = static_cast<float>(p[j]);
    add_row(s, p.data(), L, i, opt.rule, kept, scratch);
  }
  out.target = pattern_from_triplets(L, s.kept);
  out.description = describe(out.target, s, opt);
  out.kept_mass = std::move(s.kept_mass);
  return out;
}

HeadImport import_file_head(const AttentionArray& a, int layer, int head, const HeadOptions& opt,
                            const std::string& name, bool with_probabilities) {
  require_head_index(a, layer, head, name);
  return in_file_head(a, layer, head, name,
                      [&] { return import_head(a.head(layer, head), a.L, opt, with_probabilities); });
}

}  // namespace attnx
