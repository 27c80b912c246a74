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

// Refuses a hidden size (field "d", or "dmax" for a search's largest) outside 1..kMaxLpD,
// naming the field and lp's limit.
void require_lp_d(const char* field, int d);

// The ways of choosing X that the core builds (SPEC §8): "jl" (§3, the paper's), "lp" (§8.2)
// and "moment" (§8.3).
const std::vector<std::string>& construction_names();

// Runs body(i) for every i in [0, n) in any order, e.g. on threads (the rows of the LPs are
// independent); null: in order on the calling thread. The results do not depend on it.
using ForEachRow = std::function<void(int n, const std::function<void(int)>& body)>;

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

// Builds the `lp` inputs at hidden size d and evaluates SPEC §2 on them (logits Z = Q K^T / sqrt(d)
// from the float32 X, accumulated in double). box: U of §8.2. Validates d (1..kMaxLpD) and the
// budget (estimate_inputs_bytes, one row's LP at a time: callers that solve rows on threads
// check their own estimate first). progress (optional) gets the fraction of rows solved; returning
// false stops (c.cancelled = true, nothing evaluated).
LpConstruction construct_lp(const Pattern& A, const Tolerances& tol, int d, std::uint64_t seed,
                            double box = kDefaultLpBox, std::uint64_t max_bytes = kDefaultMaxBytes,
                            const Progress& progress = nullptr, const ForEachRow& for_each = nullptr);

// Whether hidden size d succeeds for `lp`: every row's LP feasible (t* > 0) and §2 on the built X.
// Stops at the first infeasible row (then false without building X).
bool lp_succeeds(const Pattern& A, const Tolerances& tol, int d, std::uint64_t seed, double box,
                 const ForEachRow& for_each = nullptr);

// The smallest grid d (multiples of opt.step up to opt.d_max) at which lp_succeeds, found by
// trying the grid in ascending order: each d is solved first on the rows that were infeasible at
// a smaller d (most recent first), which usually fails it for one row's LP, and only then on
// every row (stopping at the first infeasible one, which joins them), so only d_min pays for
// every row and the evaluation of X (issue 47: 3 full evaluations and 4 long failing ones of
// doubling and bisection became 1 at L = 4096). Every grid point below d_min fails, whether or
// not feasibility is monotone in d. Refuses opt.d_max above kMaxLpD (field "dmax") and a run above
// the budget (estimate_search_bytes, one row's LP at a time). d_min = -1 when d_max fails.
// checked: the grid points evaluated, ascending (up to d_min). progress gets the fraction of the
// grid tried; false cancels. bounds: SPEC §9 of the X built at d_min (kept from its evaluation).
MinDResult min_d_lp(const Pattern& A, const Tolerances& tol, const MinDOptions& opt, std::uint64_t seed,
                    double box = kDefaultLpBox, const Progress& progress = nullptr,
                    const ForEachRow& for_each = nullptr);

}  // namespace attnx
