// attnx core: surveying every head of a model's attention (issue 24): per head the sparse
// target's description (head_import.hpp) and the minimal d of the `lp` and `jl` constructions
// (SPEC §4, §8.2) on the survey's grids. survey_head is one head, so the CLI runs heads on
// threads and the page on its worker pool; the result does not depend on which runs where.
// The JSON and CSV texts are written here once for both.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "construct.hpp"
#include "construction.hpp"
#include "head_import.hpp"
#include "json.hpp"
#include "mind.hpp"

namespace attnx {

struct SurveyOptions {
  HeadOptions head;           // rule, softmax, memory budget
  Tolerances tol;             // eps, tau (delta is not used)
  std::uint64_t seed = kDefaultSeed;  // the projection P of both searches
  ForEachRow rows;            // runs lp's rows (e.g. on threads; null: in order); the row does not depend on it
};

struct SurveyRow {
  int layer = 0, head = 0;
  HeadDescription description;
  int lp_d_min = -1, jl_d_min = -1;  // -1: not reached on the grid
  bool cancelled = false;            // progress returned false (nothing else is meaningful)
};

struct ConstructionKind;
// The survey's grid for a construction: the option table's step and dmax (16 and 4096, the
// paper's) unless its ConstructionInfo has its own (lp: step 1, d_max kMaxLpD = 256), with the
// memory budget.
MinDOptions survey_grid(const ConstructionKind& construction, std::uint64_t max_bytes);

// Peak memory of survey_head at length L with `rule` (the largest of the import, the jl search
// and the lp search, one after another; the row bound is K for topk and L otherwise).
std::uint64_t estimate_survey_head_bytes(int L, const SparsifyRule& rule);

// The memory budget of `attnx import` when --max-bytes is not given: what one head can need at
// L = kMaxImportL, its file saved as float64 .npy (the largest of the dtypes), its values, and
// its survey with the rule that keeps most (topk:L); a whole number of MiB. Larger files (many
// heads) are refused by default, naming --max-bytes.
std::uint64_t import_default_max_bytes();

// One head: import_head(values, L, opt.head), then search_min_d of jl and of lp
// on the target with opt.seed. progress gets the fraction done (jl the first half, lp the
// second); returning false stops (cancelled = true). Refusals as import_head and search_min_d.
// Cost: the two searches (jl: about L^2 d_min / 2 multiply-adds; lp: L LPs per grid point).
SurveyRow survey_head(const float* values, int L, const SurveyOptions& opt, const Progress& progress = nullptr);

// survey_head of head (layer, head) of a file: indices checked and refusals named as
// import_file_head does; the row carries layer and head.
SurveyRow survey_file_head(const AttentionArray& a, int layer, int head, const SurveyOptions& opt,
                           const std::string& name, const Progress& progress = nullptr);

struct SurveyRecord {
  std::string file;                  // the file's name as given
  std::vector<int> shape;            // the file's shape
  SurveyOptions options;
  std::vector<SurveyRow> rows;       // in (layer, head) order
};

// The shape of a as a list ([4, 64, 64]).
std::vector<int> attention_shape(const AttentionArray& a);

// A head's description as a JSON object (the CLI's `import` output and the survey's files):
// L, rule, softmax, k, max_col_count, in_class, nnz, kept_mass {min, min_row, median},
// columns_over_k {count, columns: [{column, count}]}, fallback_rows {count, rows},
// archetype {kind, code, label, share, matches, and offset | columns | offset_lo, offset_hi,
// width}, candidates [the three archetype candidates].
void write_head_description(JsonWriter& w, const HeadDescription& d);

// Survey files. JSON: {"format": "attnx-head-survey/1", "version", "params": {file, shape,
// rule, softmax, eps, tau, seed, jl: {step, d_max}, lp: {step, d_max}}, "heads": [{layer,
// head, k, max_col_count, in_class, nnz, kept_mass_min, kept_mass_median, columns_over_k,
// archetype, archetype_label, archetype_share, lp_d_min, jl_d_min}]} (d_min null when not
// reached). CSV: the same per-head columns (archetype as its code, label left out), "NA" for
// not reached.
std::string survey_to_json(const SurveyRecord& r);
std::string survey_to_csv(const SurveyRecord& r);

}  // namespace attnx
