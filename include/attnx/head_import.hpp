// attnx core: one dense attention head made a sparse target (issue 24): its values checked as
// probabilities (or turned into them by a row softmax), each row sparsified (sparsify.hpp), the
// result a custom Pattern like an imported triplet file, and a description of what was kept
// and what the head looks like (archetype.hpp). Values in, records out; no I/O.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "archetype.hpp"
#include "errors.hpp"
#include "heads.hpp"
#include "memory.hpp"
#include "pattern.hpp"
#include "sparsify.hpp"

namespace attnx {

// A row of probabilities must sum to 1 within this.
constexpr double kRowSumTolerance = 1e-3;
// Columns over k listed by name in a description (the count covers all of them).
constexpr int kMaxListedColumns = 16;
// Fallback rows (threshold) listed by index.
constexpr int kMaxListedRows = 16;

struct HeadOptions {
  SparsifyRule rule;
  bool softmax = false;  // the values are scores: softmax each row first (-infinity: masked)
  std::uint64_t max_bytes = kDefaultMaxBytes;
  BudgetRemedy remedy = BudgetRemedy::Raise;  // what a refusal over max_bytes suggests (heads.hpp)
};

struct ColumnCount {
  int column = 0, count = 0;
};

struct HeadDescription {
  int L = 0;
  std::string rule;                 // rule_text of the rule used
  bool softmax = false;
  double kept_mass_min = 0;         // min over rows of (kept mass / row mass)
  int kept_mass_min_row = 0;        // the first row with that minimum
  double kept_mass_median = 0;      // median over rows (mean of the two middle ones for even L)
  int k = 0, max_col_count = 0, nnz = 0;
  bool in_class = false;            // max_col_count <= k (SPEC §1)
  int columns_over_k = 0;           // columns with more than k nonzeros (break the column bound)
  std::vector<ColumnCount> top_columns_over_k;  // up to kMaxListedColumns of them, most first
                                                // (ties: lower column)
  int fallback_rows = 0;            // threshold: rows with no entry >= T (kept their largest)
  std::vector<int> fallback_row_list;  // the first kMaxListedRows of them
  Archetype archetype;              // archetype.hpp
  std::vector<Archetype> candidates;   // diagonal, sink, window
};

struct HeadImport {
  Pattern target;                   // the sparse target: kept values renormalised per row
  HeadDescription description;
  std::vector<double> kept_mass;    // per row: kept mass / row mass
  std::vector<float> probabilities; // L x L row-major after the softmax (when asked), else empty
};

// Bytes import_head needs besides the values: the pattern of at most nnz_bound entries (as
// triplets and CSR), O(L) rows and sums, and L^2 floats when the probabilities are returned.
std::uint64_t estimate_import_head_bytes(int L, std::uint64_t nnz_bound, bool with_probabilities);

// Makes the sparse target of the L x L head `values` (row-major; rows are queries). Checks
// every row first: without softmax, entries finite and >= 0 and the row summing to 1 within
// kRowSumTolerance (a hint names --softmax when entries exceed 1, or are negative); with
// softmax, no NaN or +infinity and not every entry -infinity. Refusals: InvalidArgument("file",
// "row 3, column 7 is negative (-0.52): ..."), ("rule", ...) for topk:K with K > L or more than
// kMaxNnz nonzeros kept; BudgetExceeded above opt.max_bytes. Softmax uses det_exp (the same bits
// natively and in WebAssembly). Cost: O(L^2) plus the rule's sorting (sparsify.hpp).
HeadImport import_head(const float* values, int L, const HeadOptions& opt, bool with_probabilities = false);

// Runs f() for head (layer, head) of file `name`: an InvalidArgument on "file" it throws (a
// refusal of the head's values) comes out prefixed "NAME: layer 1, head 2: " (head_name's words).
template <class F>
auto in_file_head(const AttentionArray& a, int layer, int head, const std::string& name, F&& f) {
  try {
    return f();
  } catch (const InvalidArgument& e) {
    if (e.field() != "file") throw;
    const std::string which = head_name(a, layer, head);
    throw InvalidArgument("file", name + ": " + (which.empty() ? "" : which + ": ") + e.what());
  }
}

// import_head of head (layer, head) of a file, refusing bad indices (require_head_index) and
// prefixing refusals of the values with "NAME: layer 1, head 2: " (as head_name words it).
HeadImport import_file_head(const AttentionArray& a, int layer, int head, const HeadOptions& opt,
                            const std::string& name, bool with_probabilities = false);

}  // namespace attnx
