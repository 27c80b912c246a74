// attnx core: minimal d search (SPEC §4).
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "construct.hpp"
#include "memory.hpp"

namespace attnx {

struct MinDOptions {
  int d_max = 4096;  // >= step, <= kMaxD
  int step = 16;     // >= 1
  std::uint64_t max_bytes = kDefaultMaxBytes;
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
};

// progress (construct.hpp) is called after every grid point; return false to cancel (then the
// result so far is returned with d_min = -1 and cancelled = true).

// One pass over nested columns: G += P_blk P_blk^T (lower triangle, rank `step`), then the
// criterion on Z = B G / d with early exit. P is drawn from projection_seed(seed).
MinDResult min_d(const Pattern& A, const Tolerances& tol, const MinDOptions& opt,
                 std::uint64_t seed, const Progress& progress = nullptr);

// Criterion check on the Gram matrix (full symmetric, column-major == row-major, L x L,
// unscaled), at hidden size d. Returns the index of a failing row or -1 when all rows pass.
// `first_row` is checked first (sticky failing row). Adds its multiply-adds to *madds.
int check_criterion(const Pattern& A, const std::vector<double>& B, const float* G, int d,
                    const Tolerances& tol, int first_row, std::vector<float>& row_buf,
                    std::uint64_t* madds);

}  // namespace attnx
