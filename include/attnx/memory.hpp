// attnx core: memory estimates. Runs above the budget are refused before allocating.
#pragma once
#include <cstdint>
#include <string>

#include "projection.hpp"

namespace attnx {

constexpr std::uint64_t kDefaultMaxBytes = 2ull << 30;     // 2 GiB (fits the browser build)
constexpr std::uint64_t kCliDefaultMaxBytes = 8ull << 30;  // the CLI's default budget
constexpr int kBrowserMaxL = 4096;  // the pages' largest L (larger runs: the CLI, then import)

std::uint64_t estimate_construct_bytes(int L, int d);
// Columns of P the min-d search keeps pending before a Gram sync: a multiple of step, about 256.
int mind_chunk_columns(int step);
// Memory of a min-d search (Gram L x L, pending columns, packing buffer, rows, B, pattern; the
// orthogonal kinds' current block, the unit kinds' row norms).
std::uint64_t estimate_mind_bytes(int L, int step, int k,
                                  ProjectionKind projection = ProjectionKind::Gaussian);
// Throws BudgetExceeded("<what> needs about X MiB, above the memory budget of Y MiB ...").
void check_budget(const char* what, std::uint64_t bytes, std::uint64_t max_bytes);
// The same with another remedy after the "; " ("raise the budget" for a file that cannot shrink).
void check_budget(const std::string& what, std::uint64_t bytes, std::uint64_t max_bytes, const std::string& remedy);

}  // namespace attnx
