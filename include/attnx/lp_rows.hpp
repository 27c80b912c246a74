// attnx core: the per-row linear programs of SPEC §8.2 (optimal queries over fixed keys).
#pragma once
#include <vector>

#include "construct.hpp"
#include "lp.hpp"
#include "pattern.hpp"

namespace attnx {

constexpr double kDefaultLpBox = 1000;  // U: |q_l| <= U (SPEC §8.2)

// The LP of row i of A over keys K (L x d, row-major: row j is k_j) with box U: variables
// x = (q_1..q_d, c, t), minimise -t subject to, with a_s = ln A_is and a_min = min_s a_s,
//   q·k_s - c + t <= a_s + eps/2 and -q·k_s + c + t <= eps/2 - a_s   (s in S_i)
//   q·k_j - c + t <= a_min - eps/2 + ln tau                          (j not in S_i)
//   t <= eps/2,  -U <= q_l <= U.
// Rows in that order (support pairs in S_i's order, then j ascending, then t, then the box).
LpProblem row_lp(const Pattern& A, int i, const float* K, int d, const Tolerances& tol, double box = kDefaultLpBox);

struct LpRow {
  double t = 0;            // the margin t* (the row is feasible when t* > 0)
  std::vector<double> q;   // d: the query (Z_ij = q·k_j)
  double c = 0;            // the row's constant
  int iterations = 0;      // interior-point iterations (solve_row: summed over its rounds)
  int rounds = 0;          // LPs solved (solve_row_full: 1)
  bool converged = false;  // every LP solved converged
  bool relaxed = false;    // solve_row stopped early on t <= 0: t bounds t* from above (t* <= t <= 0)
};

// The reference: solves row_lp(A, i, K, d, tol, box) as one LP (all L - |S_i| off-support rows).
LpRow solve_row_full(const Pattern& A, int i, const float* K, int d, const Tolerances& tol,
                     double box = kDefaultLpBox);

// Solves the same LP by constraint generation (cutting planes): the LP restricted to the support
// rows, t <= eps/2, the box and a working set of off-support rows is solved with solve_lp; every
// off-support row is then checked at its solution, and the n = d + 2 most violated (ties: j
// ascending) join the working set for the next round, until none exceeds its bound by more than
// solve_lp's own primal accuracy, tolerance * (1 + max|h|). The working set starts with the 2n
// columns j whose keys are most aligned with sum_s k_s. A restricted LP is a relaxation (its t is
// >= t*), so the last round's t equals solve_row_full's t* to the solver's accuracy and (q, c, t)
// satisfies every row of row_lp to that accuracy (q itself may be another optimum than
// solve_row_full's). With stop_if_infeasible, stops at the first round with t <= 0, which proves
// t* <= 0 (relaxed = true: t is only an upper bound). iterations: summed over the rounds. Falls
// back to solve_row_full if a round does not converge. Deterministic; no threads.
LpRow solve_row(const Pattern& A, int i, const float* K, int d, const Tolerances& tol, double box = kDefaultLpBox,
                bool stop_if_infeasible = false);

}  // namespace attnx
