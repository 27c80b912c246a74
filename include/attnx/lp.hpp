// attnx core: a dense linear-program solver (primal-dual interior point, Mehrotra
// predictor-corrector) for the small LPs of SPEC §8.2: minimise c·x subject to G x <= h, with a
// few hundred variables at most and any number of rows. Normal equations (n x n, Eigen LDLT, one
// step of iterative refinement); rows with a single nonzero (bounds) only add to their diagonal.
#pragma once
#include <vector>

namespace attnx {

struct LpProblem {
  int n = 0;                  // variables
  int m = 0;                  // inequality rows
  std::vector<double> c;      // n: objective (minimised)
  std::vector<double> G;      // m x n, row-major
  std::vector<double> h;      // m
};

struct LpSolution {
  std::vector<double> x;      // n: the primal solution
  std::vector<double> z;      // m: the dual multipliers (>= 0), G^T z + c = 0 at the optimum
  double objective = 0;       // c·x
  int iterations = 0;
  bool converged = false;     // residuals and duality gap within tolerance
  bool unbounded_or_infeasible = false;  // the iterates diverged (not a solution)
};

struct LpOptions {
  int max_iterations = 200;
  double tolerance = 1e-10;   // relative primal/dual residual and duality (or complementarity) gap
};

// Solves min c·x s.t. G x <= h from an infeasible start (x = 0). Deterministic. Throws
// InvalidArgument("lp", ...) when the sizes do not match. converged == false means the iteration
// limit was reached or the problem looks infeasible or unbounded (then x is the last iterate).
LpSolution solve_lp(const LpProblem& p, const LpOptions& o = {});

}  // namespace attnx
