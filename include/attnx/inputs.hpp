// attnx core: SPEC §2 and §8.4 on inputs X = [Q, K] given in double (the `lp` and `moment`
// constructions, and `jl` for its precision report): every construction is judged on the X it built.
#pragma once
#include <vector>

#include "construct.hpp"

namespace attnx {

// The Construction of inputs X (L x 2D, row-major, double; Q = X[:, :D], K = X[:, D:]): X rounded
// to float32, logits Z = Q K^T / sqrt(D) of that float X summed in double, M its softmax in
// double, the rows and metrics of §2 on those doubles (logits and M are kept as float for
// display). B is the target's log-target (for beta and d*). bounds: SPEC §9 with Lambda of the
// float X and max |Z| of the double logits (bits_per_number left 0).
Construction evaluate_inputs(const Pattern& A, const Tolerances& tol, const std::vector<double>& X, int D);

// Significand bits of IEEE 754 binary32 and binary64, the implicit bit included (the float32 and
// float64 of SPEC §8.4).
constexpr int kFloat32SignificandBits = 24;
constexpr int kFloat64SignificandBits = 53;

struct PrecisionReport {
  double input_norm = 0;   // max_i ||X_i||_2
  bool fp32 = false;       // §2 holds with X rounded to float32 and logits summed in float32
  bool fp64 = false;       // §2 holds with X and logits in double
  int bits = 0;            // smallest significand bits b in 2..53 with which X rounded to b bits
                           // (nearest) and double logits pass §2; 0 when even 53 fails
  int exponent_bits = 0;   // ceil(log2(e_max - e_min + 1)) over the nonzero entries of X rounded
                           // to `bits` bits (SPEC §9.3's w = bits + 1 + this); 0 when bits is 0
};

// SPEC §8.4 for inputs X (as evaluate_inputs). bits is found by galloping up from b = 2, then
// bisection (more bits are assumed never to hurt; the answer b passes and b - 1 fails). The
// checks sum each logit in 4 interleaved partial sums (float32 ones for fp32).
PrecisionReport precision_report(const Pattern& A, const Tolerances& tol, const std::vector<double>& X, int D);

// x rounded to nearest (ties to even) with b significand bits (1 <= b <= 53); 0, inf, NaN unchanged.
double round_to_bits(double x, int b);

}  // namespace attnx
