// attnx core: memory estimates. Every construction and every entry point (construct, mind,
// sweep trials, the precision report, the moment trial) has one, and runs above the budget are
// refused before anything is allocated. Each estimate follows the phases of its computation
// (what is alive at once); scripts/bench-memory.mjs measures them against the peak resident
// memory of CLI runs (within a factor of 1.25, beyond the process's own few MiB).
#pragma once
#include <cstdint>
#include <string>

#include "projection.hpp"

namespace attnx {

constexpr std::uint64_t kDefaultMaxBytes = 2ull << 30;     // 2 GiB (fits the browser build)
constexpr std::uint64_t kCliDefaultMaxBytes = 8ull << 30;  // the CLI's default budget
constexpr int kBrowserMaxL = 4096;  // the pages' largest L (larger runs: the CLI, then import)

// Bytes of a target of L rows with at most k nonzeros in a row while it is drawn and then held
// (CSR: column and weight per nonzero, with the generator's temporaries).
std::uint64_t estimate_pattern_bytes(int L, int k);

// jl's construct() at hidden size d (construct.hpp) for a target of L rows with at most k
// nonzeros in a row, the pattern itself excluded: the Gram matrix and P, then X and P's scaled
// rows, then X, the logits, M and the row report.
std::uint64_t estimate_construct_bytes(int L, int d, int k = 1);

// Columns of P the min-d search keeps pending before a Gram sync: a multiple of step, about 256.
int mind_chunk_columns(int step);
// Memory of jl's min-d search (Gram L x L, pending columns, packing buffer, rows, B, pattern; the
// orthogonal kinds' current block, the unit kinds' row norms).
std::uint64_t estimate_mind_bytes(int L, int step, int k,
                                  ProjectionKind projection = ProjectionKind::Gaussian);

// The peak bytes of building X with `construction` ("jl", "lp" or "moment") and evaluating it
// (build_inputs, construct_lp, construct_moment), pattern included: for a target of L rows with
// at most k nonzeros in a row; d: jl's and lp's hidden size (moment: D = 2k); jl_precision: jl
// with its SPEC 8.4 report (lp and moment always have it); lp_threads: lp rows whose linear
// programs are solved at once. Throws std::logic_error for another construction name.
std::uint64_t estimate_inputs_bytes(const std::string& construction, int L, int k, int d,
                                    bool jl_precision = false, int lp_threads = 1);

// The peak bytes of one minimal-d search or sweep trial of `construction`, pattern included: jl's
// min_d (estimate_mind_bytes), lp's min_d_lp (builds X up to d = d_max) and moment's trial (its
// construction and precision report; step and d_max unused).
std::uint64_t estimate_search_bytes(const std::string& construction, int L, int k, int step,
                                    int d_max, ProjectionKind projection = ProjectionKind::Gaussian,
                                    int lp_threads = 1);

// Throws BudgetExceeded("<what> needs about X MiB, above the memory budget of Y MiB; reduce
// <reduce>, or raise the budget") when bytes > max_bytes. reduce: the options that lower the
// estimate, as the core names them ("L or d").
void check_budget(const char* what, std::uint64_t bytes, std::uint64_t max_bytes,
                  const char* reduce = "L or d");
// check_budget of estimate_inputs_bytes ("construct"; reduce L or d, moment: L or k).
void check_inputs_budget(const std::string& construction, int L, int k, int d, bool jl_precision,
                         std::uint64_t max_bytes, int lp_threads = 1);
// check_budget of estimate_search_bytes ("min-d search"; reduce L, lp: L or dmax; moment:
// "moment trial", L or k).
void check_search_budget(const std::string& construction, int L, int k, int step, int d_max,
                         ProjectionKind projection, std::uint64_t max_bytes, int lp_threads = 1);
// The same with a whole remedy after the "; " ("raise the budget" for a file that cannot shrink).
void check_budget(const std::string& what, std::uint64_t bytes, std::uint64_t max_bytes, const std::string& remedy);

}  // namespace attnx
