// attnx core: minimal d search (SPEC §4).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "construct.hpp"
#include "gram.hpp"
#include "memory.hpp"

namespace attnx {

struct MinDOptions {
  int d_max = 4096;  // >= step, <= kMaxD
  int step = 16;     // >= 1
  std::uint64_t max_bytes = kDefaultMaxBytes;
  ProjectionKind projection = ProjectionKind::Gaussian;  // jl's projection kind (SPEC 8.1)
  // Gram kernel of the rank-m updates. Every kernel gives the same bits (gram.hpp), so this
  // changes the speed only; tests and benchmarks set it, must run here (gram_kernel_runs).
  GramKernel gram_kernel = GramKernel::Auto;
  // Room for the raw columns the search keeps for SPEC §9's scale at d_min (on top of its
  // estimate, and only in what max_bytes leaves above it); without room it draws them again. The
  // speed changes, never a result. Searches that share one budget (the CLI's threaded sweep) pass
  // each its share.
  std::uint64_t keep_bytes = 32ull << 20;
};
void validate(const MinDOptions& opt);

struct MinDResult {
  int d_min = -1;                // -1: not reached (d_min > d_max) or cancelled
  bool reached() const { return d_min > 0; }
  bool cancelled = false;        // progress callback returned false
  std::vector<int> checked;      // grid points evaluated, ascending
  std::uint64_t gram_madds = 0;  // multiply-adds spent in Gram updates
  std::uint64_t check_madds = 0; // multiply-adds spent in criterion checks
  double beta = 0, d_star = 0;
  Bounds bounds;                 // SPEC §9 of the X at d_min (without w); not reached: n and the
                                 // bits floors only (its scales -1)
};

// One pass over nested columns of P (drawn from projection_seed(seed), `step` at a time, of kind
// opt.projection; unit kinds read Z = B D^-1/2 G D^-1/2 with D the raw rows' squared norms). The
// Gram matrix G = P P^T is kept as its lower triangle and brought up to date by symmetric rank-m
// updates (m up to mind_chunk_columns(step)); at each grid point d the criterion of SPEC §2 is
// evaluated on Z = B G / d using the sparsity of B: first on recently failing rows (cheap, from
// cached columns), then, only when they all pass, on every row with early exit. d_min is the first
// grid point where every row passes. progress (construct.hpp) is called after every grid point;
// returning false cancels (d_min = -1, cancelled = true). At d_min, bounds: Lambda of construct()'s
// float32 X at d_min (its columns drawn again in pieces of the pending buffer: O(L d + nnz d))
// and max |Z| of the logits the last check read (one more pass over the rows: O(L^2 k)).
MinDResult min_d(const Pattern& A, const Tolerances& tol, const MinDOptions& opt,
                 std::uint64_t seed, const Progress& progress = nullptr);

// Criterion check on the Gram matrix (full symmetric, column-major == row-major, L x L,
// unscaled), at hidden size d. Returns the index of a failing row or -1 when all rows pass.
// Rows are checked from `first_row` on, cyclically. Adds its multiply-adds to *madds.
int check_criterion(const Pattern& A, const std::vector<double>& B, const float* G, int d,
                    const Tolerances& tol, int first_row, std::vector<float>& row_buf,
                    std::uint64_t* madds);

}  // namespace attnx
