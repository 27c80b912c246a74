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

// Building blocks of the constructions' estimates (each construction's record composes its own,
// construction.hpp): the log-target B and the §2 row report for L rows of at most k entries;
// evaluate_inputs (inputs.hpp) on X of width 2D, X itself not counted; the §8.4 report on a double
// X (not counted) while the construction's float logits, M and X are alive; jl's §8.4 report
// after construct().
std::uint64_t target_and_rows_bytes(int L, int k);
std::uint64_t evaluate_inputs_bytes(int L, int D);
std::uint64_t precision_phase_bytes(int L, int D);
std::uint64_t jl_precision_bytes(int L, int d);

// Throws BudgetExceeded("<what> needs about X MiB, above the memory budget of Y MiB; reduce
// <reduce>, or raise the budget") when bytes > max_bytes. reduce: the options that lower the
// estimate, as the core names them ("L or d").
void check_budget(const char* what, std::uint64_t bytes, std::uint64_t max_bytes,
                  const char* reduce = "L or d");
// Bytes as the refusals write them: MiB, rounded up.
std::string mib(std::uint64_t bytes);
// The same with a whole remedy after the "; " ("raise the budget" for a file that cannot shrink).
void check_budget(const std::string& what, std::uint64_t bytes, std::uint64_t max_bytes, const std::string& remedy);

}  // namespace attnx
