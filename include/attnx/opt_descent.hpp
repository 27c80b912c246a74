// attnx core: the first-order method of the `opt` construction (SPEC §10.1): unit-ball rows
// U, V (L x D), logits Z = Lambda_max U V^T, a squared-hinge penalty of (R) and (Z) with a margin,
// projected Adam steps. Every operation is an IEEE float or double operation in a fixed order
// (no exp or log in the loop, no FMA: -ffp-contract=off), so a run gives the same bits natively
// and in WebAssembly, for every kernel (the logits' vector and scalar twins) and thread count.
#pragma once
#include <cstdint>
#include <vector>

#include "construct.hpp"

namespace attnx {

// The logits kernel's twins: the vector one (four columns j at a time, GCC/Clang vector lanes:
// SSE2 natively, SIMD128 in WebAssembly) and the plain loop; both sum t = 0..D-1 in order for
// every (i, j), so they give the same bits. Auto: the vector one.
enum class OptKernel { Auto, Scalar, Vector };

// Z (row-major L x L, rows i0 .. i1-1 written) = scale * (U V^T): z_ij = float(sum_t u_it v_jt,
// in float, t ascending) * scale. U: L x D row-major; Vt: D x L (V transposed, row-major).
void opt_logits(const float* U, const float* Vt, int L, int D, float scale, int i0, int i1, float* Z,
                OptKernel kernel = OptKernel::Auto);

// The method's settings (SPEC §10.1's reference unless said): Adam with learning rate lr and
// betas b1, b2 (epsilon adam_eps); margin mu on every hinge; at most max_steps steps.
struct OptSettings {
  float lr = 0.05f;
  float b1 = 0.9f, b2 = 0.999f, adam_eps = 1e-8f;
  float margin = 0.1f;
  int max_steps = 3000;
  OptKernel kernel = OptKernel::Auto;
};

// The state of one run at hidden size D: U, V (row-major L x D, rows in the unit ball) and Adam's
// moments; steps taken.
struct OptState {
  int L = 0, D = 0;
  std::vector<float> U, V, mU, vU, mV, vV;
  int steps = 0;
  double p1 = 1, p2 = 1;  // b1^steps, b2^steps (repeated products)
};

// A fresh state: every row of U and V a standard Gaussian of D entries (the seeded generator of
// SPEC §6, stream derive_seed(seed, kOptStream, D)) divided by its norm; moments 0.
OptState opt_start(int L, int D, std::uint64_t seed);
// A state at hidden size D - 1 from one at D: the coordinate with the least energy (sum over the
// rows of U and V of its squares; ties: the highest) removed from U and V, rows projected back
// into the unit ball, moments reset; steps kept.
OptState opt_drop_dimension(const OptState& s);

// The target as the penalty reads it: a_e = ln A_e per nonzero (A's CSR order), Delta = ln(1/tau).
struct OptTarget {
  const Pattern* A = nullptr;
  std::vector<double> log_a;
  double delta = 0, eps = 0, log_tau = 0;
};
OptTarget opt_target(const Pattern& A, const Tolerances& tol);

// The outcome of opt_descend: whether SPEC §2 held on the method's own float logits (no margin)
// at the end, the steps taken (total), the penalty P of the last logits, stopped by progress.
struct OptOutcome {
  bool passes = false;
  int steps = 0;
  double penalty = 0;
  bool cancelled = false;
};

// Runs up to `steps` more projected Adam steps from s (in place) at budget `scale`: after every
// step's logits SPEC §2 is tested on them (the method's float logits, no margin), and the run
// returns as soon as it holds (passes; unless stop_when_passing is false) or after `steps` steps,
// with the logits of the state it returns judged. progress(fraction of `steps`) is called every
// 16 steps; false stops (cancelled). Cost per step: L^2 D multiply-adds for the logits and
// (active pairs) x 2D for the gradient; memory: the L x L float logits and 6 L x D floats.
OptOutcome opt_descend(const OptTarget& t, double scale, const OptSettings& set, int steps, OptState& s,
                       const Progress& progress = nullptr, bool stop_when_passing = true);

// X = [s U, s V] (L x 2D, row-major, double) with s^2 = scale sqrt(D) (1 - 2^-20), so that the
// logits of X are scale U V^T and Lambda(X) <= scale after X is rounded to float32 (SPEC §9.2).
std::vector<double> opt_inputs(const OptState& s, double scale);

}  // namespace attnx
