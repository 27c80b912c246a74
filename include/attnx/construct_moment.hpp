// attnx core: the `moment` construction of SPEC §8.3: keys on the moment curve of Chebyshev
// polynomials at Chebyshev nodes, D = 2m (m = the largest row support) for every L; exact in
// exact arithmetic, paid for in precision (the logits are differences of numbers growing like a
// power of L).
#pragma once
#include <vector>

#include "construct.hpp"
#include "inputs.hpp"
#include "memory.hpp"

namespace attnx {

struct MomentConstruction {
  Construction c;                 // X = [Q, K] rounded to float32, judged by §2 (inputs.hpp)
  PrecisionReport precision;      // SPEC §8.4 on the double X
  std::vector<double> lambda;     // L: the multiplier lambda_i of row i
};

// D = 2m of SPEC 8.3 for a target whose rows hold at most m entries: the moment curve's hidden
// size, which succeeds at every L in exact arithmetic.
inline int moment_dimension(int m) { return 2 * m; }

// The double inputs X (L x 2D, D = 2m) of §8.3: K_j = (T_1(t_j), ..., T_D(t_j)) with
// t_j = cos(pi (j + 1/2) / L); Q_i = sqrt(D) times the Chebyshev coefficients c_1..c_D of
// p_i = r_i - lambda_i pi_i. lambda (optional) receives the lambda_i. D: set to 2m.
std::vector<double> moment_inputs(const Pattern& A, const Tolerances& tol, int* D, std::vector<double>* lambda = nullptr);

// Builds the moment inputs and evaluates §2 and §8.4 on them (tolerances checked by the caller's
// request, its budget by build_inputs: moment_kind in construction.hpp).
MomentConstruction construct_moment(const Pattern& A, const Tolerances& tol);

}  // namespace attnx
