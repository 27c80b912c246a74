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

// min_d, jl's search, takes a checked request: construction.hpp.

// Criterion check on the Gram matrix (full symmetric, column-major == row-major, L x L,
// unscaled), at hidden size d. Returns the index of a failing row or -1 when all rows pass.
// Rows are checked from `first_row` on, cyclically. Adds its multiply-adds to *madds.
int check_criterion(const Pattern& A, const std::vector<double>& B, const float* G, int d,
                    const Tolerances& tol, int first_row, std::vector<float>& row_buf,
                    std::uint64_t* madds);

}  // namespace attnx
