// attnx core: memory estimates (see memory.hpp). Each term names what it counts; sizes in bytes
// (float 4, double 8, int 4). l = L, d = hidden size, k = the largest row count, nnz <= l k.
#include <attnx/memory.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

#include <attnx/errors.hpp>
#include <attnx/size_text.hpp>

namespace attnx {

namespace {

using u64 = std::uint64_t;

u64 U(int v) { return static_cast<u64>(std::max(0, v)); }

// The log-target B (double per nonzero) and the row report of SPEC §2 (rho, zeta, lambda in
// double, two verdict bytes and a float per row; two floats per nonzero).
u64 target_and_rows(u64 l, u64 k) { return 8 * l * k + 30 * l + 8 * l * k; }

// evaluate_inputs (inputs.hpp) on X of width 2D in double, X itself not counted: X in float,
// then the double logits Z, M and the float logits at once (then Z is released before M's
// float copy).
u64 evaluate_inputs_bytes(u64 l, u64 D) { return 8 * l * D + 20 * l * l; }

// precision_report on X (L x 2D double, not counted) while the construction's float logits, M
// and X are alive: X in float, then X rounded to b bits and its double logits.
u64 precision_phase_bytes(u64 l, u64 D) { return (8 * l * l + 8 * l * D) + 8 * l * D + 16 * l * D + 8 * l * l; }

// One row's linear program of lp (lp_rows.hpp) while it is solved: n = d + 2 variables; its rows
// (2 per support entry, the working set of off-support columns, t, the box) as G, the solver's
// copy of the dense ones and their scaled copy, the normal matrix and its factor. The working
// set starts at 2n columns and grows by n per round; 4n (or L) is what the rows of random
// targets reach.
u64 lp_row_bytes(u64 l, u64 d, u64 k) {
  const u64 n = d + 2, work = std::min(l, 4 * n), dense = 2 * k + work + 1;
  return 8 * n * (3 * dense + 2 * d) + 16 * n * n + 64 * (dense + 2 * d);
}

// lp's construction at hidden size d up to its evaluation (build_lp): the keys (and P while they
// are scaled), the rows' queries, the linear programs being solved; then X in double and
// evaluate_inputs with the keys and queries still alive.
u64 lp_build_bytes(u64 l, u64 d, u64 k, u64 threads) {
  const u64 keys = 4 * l * d, queries = l * (8 * d + 96);
  const u64 solve = keys + std::max(4 * l * d, queries + threads * lp_row_bytes(l, d, k));
  const u64 evaluate = keys + queries + 16 * l * d + evaluate_inputs_bytes(l, d);
  return std::max(solve, evaluate);
}

u64 lp_bytes(u64 l, u64 d, u64 k, u64 threads) {
  const u64 precision = 16 * l * d + precision_phase_bytes(l, d);  // X in double + the report
  return std::max(lp_build_bytes(l, d, k, threads), precision);
}

// moment: its X (L x 2D double, D = 2k) with the nodes and lambdas, then evaluate_inputs, then the
// precision report.
u64 moment_bytes(u64 l, u64 k) {
  const u64 D = 2 * k, X = 16 * l * D + 16 * l;
  return X + std::max(evaluate_inputs_bytes(l, D), precision_phase_bytes(l, D));
}

// jl's precision report after construct(): X in double from P and its scaled rows, then the
// report, while construct's logits, M and X are alive.
u64 jl_precision_bytes(u64 l, u64 d) {
  const u64 X = 16 * l * d;
  return X + std::max(8 * l * d + 8 * l * l + 8 * l * d, precision_phase_bytes(l, d));
}

}  // namespace

std::uint64_t estimate_pattern_bytes(int L, int k) { return 17 * U(L) * U(k) + 8 * U(L); }

std::uint64_t estimate_construct_bytes(int L, int d, int k) {
  const u64 l = U(L), dd = U(d);
  // The Gram matrix (l x l) and P (l x d), the kernel's packing buffer ((L + 63) x 128 floats: rows
  // padded to the widest kernel's tile); then either X (l x 2d)
  // with P's scaled rows (l x d), or X with the logits and M (l x l each).
  const u64 held = 4 * l * l + 4 * l * dd + 512 * (l + 63);
  return held + std::max(12 * l * dd, 8 * l * dd + 8 * l * l) + target_and_rows(l, U(k));
}

int mind_chunk_columns(int step) { return step * (step < 256 ? 256 / step : 1); }

std::uint64_t estimate_mind_bytes(int L, int step, int k, ProjectionKind projection) {
  const u64 l = U(L);
  const u64 chunk = U(mind_chunk_columns(step));
  // Gram (L x L), pending columns (L x chunk), the kernel's packing buffer ((L + 63) x 256: rows
  // padded to the widest kernel's tile), row and watched-column buffers, B and the pattern; at
  // d_min the §9 scale's row sums (24 bytes a row). Not counted: the raw columns the search keeps
  // for that scale (mind.cpp, Kept) only in what the budget has left above this estimate, at most
  // MinDOptions::keep_bytes; without that room it draws them again.
  const u64 watch = U(k > 64 ? k : 64);
  u64 extra = 0;  // gaussian and rademacher: nothing more
  if (column_family(projection) == ProjectionKind::Orthogonal)  // the block, one column in double
    extra += 4 * l * U(orthogonal_block(L)) + 8 * l;
  if (unit_rows(projection)) extra += 8 * l;  // the raw rows' squared norms
  return 4 * (l * l + l * chunk + (l + 63) * 256 + 2 * l + l * watch) + 20 * l * U(k) + 64 * l + 24 * l + extra;
}

std::uint64_t estimate_inputs_bytes(const std::string& construction, int L, int k, int d,
                                    bool jl_precision, int lp_threads) {
  const u64 l = U(L), kk = U(k), dd = U(d), pattern = estimate_pattern_bytes(L, k);
  if (construction == "lp")
    return pattern + target_and_rows(l, kk) + lp_bytes(l, dd, kk, U(std::max(1, lp_threads)));
  if (construction == "moment") return pattern + target_and_rows(l, kk) + moment_bytes(l, kk);
  if (construction != "jl") throw std::logic_error("attnx: no construction named " + construction);
  const u64 jl = estimate_construct_bytes(L, d, k);
  if (!jl_precision) return pattern + jl;
  return pattern + std::max(jl, target_and_rows(l, kk) + jl_precision_bytes(l, dd));
}

std::uint64_t estimate_search_bytes(const std::string& construction, int L, int k, int step,
                                    int d_max, ProjectionKind projection, int lp_threads) {
  const u64 l = U(L), kk = U(k), pattern = estimate_pattern_bytes(L, k);
  if (construction == "lp")
    return pattern + target_and_rows(l, kk) + lp_build_bytes(l, U(d_max), kk, U(std::max(1, lp_threads)));
  if (construction == "moment") return estimate_inputs_bytes(construction, L, k, 0);
  if (construction != "jl") throw std::logic_error("attnx: no construction named " + construction);
  return std::max(pattern, estimate_mind_bytes(L, step, k, projection));  // it counts the pattern
}

void check_budget(const char* what, std::uint64_t bytes, std::uint64_t max_bytes, const char* reduce) {
  if (bytes <= max_bytes) return;
  const SizesText t = sizes_above_limit(bytes, max_bytes);
  throw BudgetExceeded(std::string(what) + " needs about " + t.size + ", above the memory budget of " + t.limit +
                       "; reduce " + reduce + ", or raise the budget");
}

void check_inputs_budget(const std::string& construction, int L, int k, int d, bool jl_precision,
                         std::uint64_t max_bytes, int lp_threads) {
  check_budget("construct", estimate_inputs_bytes(construction, L, k, d, jl_precision, lp_threads),
               max_bytes, construction == "moment" ? "L" : "L or d");
}

void check_search_budget(const std::string& construction, int L, int k, int step, int d_max,
                         ProjectionKind projection, std::uint64_t max_bytes, int lp_threads) {
  const bool moment = construction == "moment";
  check_budget(moment ? "moment trial" : "min-d search",
               estimate_search_bytes(construction, L, k, step, d_max, projection, lp_threads),
               max_bytes, construction == "lp" ? "L or dmax" : "L");
}

void check_budget(const std::string& what, std::uint64_t bytes, std::uint64_t max_bytes, const std::string& remedy) {
  if (bytes <= max_bytes) return;
  const SizesText t = sizes_above_limit(bytes, max_bytes);
  throw BudgetExceeded(what + " needs about " + t.size + ", above the memory budget of " + t.limit + "; " + remedy);
}

}  // namespace attnx
