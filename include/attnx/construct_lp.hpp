// attnx core: the `lp` construction of SPEC §8.2: the keys of §3 (K = P/sqrt(d), same seed,
// nested columns) and, for each row, the query of the max-margin LP (lp_rows.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "construct.hpp"
#include "inputs.hpp"
#include "lp_rows.hpp"
#include "memory.hpp"
#include "mind.hpp"

namespace attnx {

constexpr int kMaxLpD = 256;  // lp: d + 2 LP variables per row (SPEC §8.2: d up to a few hundred)

class CheckedRequest;
struct BuildRun;
using ForEachRow = std::function<void(int n, const std::function<void(int)>& body)>;  // construction.hpp

struct LpReport {
  std::vector<double> margin;    // L: t*_i (row i's LP is feasible when > 0)
  std::vector<int> iterations;   // L: interior-point iterations of row i (0: not solved)
  int feasible_rows = 0;         // rows with t* > 0
  bool all_converged = true;     // every solved LP converged
};

struct LpConstruction {
  Construction c;                // X = [Q, K] (Q_i = sqrt(d) q_i), logits from X, M, §2 rows and metrics
  LpReport lp;
  PrecisionReport precision;     // SPEC §8.4 on the double X
};

// Builds the `lp` inputs at the checked request's hidden size d and evaluates SPEC §2 on them
// (logits Z = Q K^T / sqrt(d) from the float32 X, accumulated in double) and §8.4; box: U of §8.2.
// run.progress (optional) gets the fraction of rows solved (per row only without run.for_each,
// which spreads rows, e.g. on threads); returning false stops (c.cancelled = true, nothing
// evaluated). The request and its budget were checked (build_inputs).
LpConstruction construct_lp(const Pattern& A, const CheckedRequest& r, const BuildRun& run);

// Whether hidden size d succeeds for `lp`: every row's LP feasible (t* > 0) and §2 on the built X.
// Stops at the first infeasible row (then false without building X).
bool lp_succeeds(const Pattern& A, const Tolerances& tol, int d, std::uint64_t seed, double box,
                 const ForEachRow& for_each = nullptr);

// The smallest grid d (multiples of r->mind.step up to its d_max) at which lp_succeeds, for a
// checked lp Search request, found by trying the grid in ascending order: each d is solved first
// on the rows that were infeasible at a smaller d (most recent first), which usually fails it for
// one row's LP, and only then on every row (stopping at the first infeasible one, which joins
// them), so only d_min pays for every row and the evaluation of X (issue 47: 3 full evaluations
// and 4 long failing ones of doubling and bisection became 1 at L = 4096). Every grid point below
// d_min fails, whether or not feasibility is monotone in d. d_min = -1 when d_max fails. checked:
// the grid points evaluated, ascending (up to d_min). run.progress gets the fraction of the grid
// tried; false cancels. bounds: SPEC §9 of the X built at d_min (kept from its evaluation).
MinDResult min_d_lp(const Pattern& A, const CheckedRequest& r, const BuildRun& run);

}  // namespace attnx
