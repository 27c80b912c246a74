// attnx core: target attention patterns A (SPEC §1, §7).
// A pattern is a row-stochastic sparse L x L matrix stored as CSR with sorted column indices.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "rng.hpp"

namespace attnx {

constexpr int kMinL = 2;
constexpr int kMaxL = 16384;
constexpr long long kMaxNnz = 1ll << 22;  // 4,194,304 nonzeros: keeps checks O(L^2 k) sane

enum class Family { Random, Permutation, Window, Causal, Dilated, Block, Strided, BigBird, Custom };
enum class Weights { Uniform, Random, Decaying };

// Parameters of a generated pattern. Only the fields of the chosen family are read.
struct PatternSpec {
  Family family = Family::Random;
  int L = 256;
  int k = 2;          // random: nonzeros per row and column
  int w = 1;          // window, causal, dilated, bigbird: half-width (causal: width back)
  int r = 2;          // dilated: dilation
  int block = 4;      // block: block size
  int stride = 8;     // strided: block/stride length
  int globals = 1;    // bigbird: number of global columns (tokens 0..globals-1)
  int randoms = 1;    // bigbird: random columns per row
  Weights weights = Weights::Uniform;
  double w_min = 0.1;  // random weights: uniform in [w_min, 1] before normalising
  double decay = 1.0;  // decaying weights: A_ij proportional to (1 + |i-j|)^-decay
};

struct Pattern {
  int L = 0;
  std::vector<int> row_ptr;  // size L+1
  std::vector<int> col;      // size nnz, sorted within each row
  std::vector<double> val;   // size nnz, > 0, each row sums to 1
  int k = 0;                 // max nonzeros in a row (derived)
  int max_col_count = 0;     // max nonzeros in a column
  bool in_class = false;     // max_col_count <= k: inside the theorem's class

  int nnz() const { return static_cast<int>(col.size()); }
  int row_begin(int i) const { return row_ptr[i]; }
  int row_end(int i) const { return row_ptr[i + 1]; }
};

struct Triplet {
  long long i = 0, j = 0;
  double w = 0.0;
};

// Refuses a spec make_pattern would refuse, without drawing anything: L, the family's own
// parameters at L, more than kMaxNnz nonzeros (naming the family's parameters), the weights'
// options; a custom family (it has no generator). Field names as in the CLI.
void validate(const PatternSpec& spec);

// Validates spec (validate above) and draws the pattern. Random choices use `rng` only.
Pattern make_pattern(const PatternSpec& spec, Rng& rng);

// Custom pattern from triplets (i, j, weight >= 0). Zero weights are dropped; duplicates,
// out-of-range indices, non-finite weights and empty rows are refused naming the entry.
// Rows are normalised to sum 1. Triplet t is reported as "entry t" (0-based).
Pattern pattern_from_triplets(int L, const std::vector<Triplet>& triplets);
// Custom pattern from a dense row-major L x L matrix (same rules).
Pattern pattern_from_dense(int L, const std::vector<double>& dense);

// Upper bound of the largest row count of the pattern `spec` describes, from its parameters
// without drawing it (custom: counted from `triplets`, whose zero weights are dropped). Used to
// estimate memory before a run.
int row_count_bound(const PatternSpec& spec, const std::vector<Triplet>& triplets = {});

// Fills k, max_col_count and in_class from the structure.
void compute_stats(Pattern& p);

Family parse_family(const std::string& name);   // throws InvalidArgument("pattern", ...)
const char* family_name(Family f);
Weights parse_weights(const std::string& name);  // throws InvalidArgument("weights", ...)
const char* weights_name(Weights w);

// Self-description for UIs: families, their parameters and allowed ranges (max may depend on L,
// given as the string "L" or "L-1").
struct ParamInfo {
  std::string name, label, max_expr;
  long long min = 0;
  long long def = 0;
};
struct FamilyInfo {
  std::string name, label;
  bool scales_with_L = true;  // usable in a sweep (custom is not)
  bool in_class = true;       // generated patterns are always inside the class
  std::vector<ParamInfo> params;
  bool generated = true;      // drawn from its parameters and weights (custom: given entry by entry,
                              // drawn by hand or imported; its weights are its own)
};
std::vector<FamilyInfo> pattern_families();
// The weightings of a generated pattern's support (SPEC §7) with the options each one uses.
struct WeightsInfo {
  std::string name, label;
  std::vector<std::string> params;  // "wMin" (random), "decay" (decaying)
};
const std::vector<WeightsInfo>& weights_infos();
// Range of parameter `name` for family f at length L: the family's table row (min, max "L" or
// "L-1"), or the option's static range when the family has no such parameter.
void param_bounds(Family f, const std::string& name, int L, long long& lo, long long& hi);
// The value of family parameter `name` ("k", "w", "r", "block", "stride", "globals", "randoms")
// in s; any other name gives randoms.
long long param_value(const PatternSpec& s, const std::string& name);

}  // namespace attnx
