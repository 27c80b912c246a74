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
  int iterations = 0;      // interior-point iterations
  bool converged = false;
};

// Solves row_lp(A, i, K, d, tol, box).
LpRow solve_row(const Pattern& A, int i, const float* K, int d, const Tolerances& tol, double box = kDefaultLpBox);

}  // namespace attnx
