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

// The method's settings (chosen by measurement, NumPy then this code, on random k = 2 targets at
// L = 64 to 1024 and budgets 4 to 64; SPEC §10.1's reference is lr 0.05, betas 0.9 / 0.999, margin
// 0.1, 3000 steps, every D from scratch): Adam with a large learning rate (with the projection
// onto the unit balls each step moves a row by a bounded angle), betas b1, b2, epsilon adam_eps;
// margin mu on every hinge; at most max_steps steps. Guard: the best state so far is kept, and a
// step whose penalty is above guard_ratio times the best (from step guard_from on) goes back to
// it with the learning rate times guard_factor. Plateau: from step plateau_from on, every
// plateau_window steps, the run stops ("not passing") when the least penalty of the last window is
// above plateau_ratio times the least before it. A run passes when SPEC §2 holds on its logits
// with check_margin to spare on (R) and (Z) (then the built X is judged).
struct OptSettings {
  float lr = 16.0f;
  float b1 = 0.8f, b2 = 0.9999f, adam_eps = 1e-8f;
  float margin = 0.05f;
  int max_steps = 2000;
  double guard_ratio = 100, guard_factor = 0.5;
  int guard_from = 10;
  int plateau_window = 150, plateau_from = 300;
  double plateau_ratio = 0.9;
  double check_margin = 1e-4;
  OptKernel kernel = OptKernel::Auto;
};

// The state of one run at hidden size D: U, V (row-major L x D, rows in the unit ball), Adam's
// moments, steps taken, the learning rate's factor (the guard's halvings).
struct OptState {
  int L = 0, D = 0;
  std::vector<float> U, V, mU, vU, mV, vV;
  int steps = 0;
  double p1 = 1, p2 = 1;  // b1^steps, b2^steps (repeated products)
  double lr_scale = 1;
};

// A fresh state: every row of U and V a standard Gaussian of D entries (the seeded generator of
// SPEC §6, stream derive_seed(seed, kOptStream, D), or for a retry r > 0 derive_seed(that, r, 0))
// divided by its norm; moments 0.
OptState opt_start(int L, int D, std::uint64_t seed, int retry = 0);
// The target as the penalty reads it: a_e = ln A_e per nonzero (A's CSR order), Delta = ln(1/tau).
struct OptTarget {
  const Pattern* A = nullptr;
  std::vector<double> log_a;
  double delta = 0, eps = 0, log_tau = 0;
};
OptTarget opt_target(const Pattern& A, const Tolerances& tol);

// The outcome of opt_descend: whether SPEC §2 held on the method's own float logits (with
// check_margin) at the end, the steps taken (total), the penalty P of the last logits, whether the
// plateau rule stopped it, whether progress stopped it.
struct OptOutcome {
  bool passes = false;
  int steps = 0;
  double penalty = 0;
  bool plateau = false;
  bool cancelled = false;
};

// Runs up to `steps` more projected Adam steps from s (in place) at budget `scale`: after every
// step's logits SPEC §2 is tested on them (the method's float logits, with check_margin), and the
// run returns as soon as it holds (passes; unless stop_when_passing is false), when the plateau
// rule stops it, or after `steps` steps, with the logits of the state it returns judged. The
// penalty is SPEC §10.1's with (Z) against the smallest support logit of the row only (one hinge
// per off-support logit: the same zero set, a cheaper gradient). progress(fraction of `steps`) is called every
// 16 steps; false stops (cancelled). Cost per step: L^2 D multiply-adds for the logits and
// (active pairs) x 2D for the gradient; memory: the L x L float logits and 6 L x D floats.
OptOutcome opt_descend(const OptTarget& t, double scale, const OptSettings& set, int steps, OptState& s,
                       const Progress& progress = nullptr, bool stop_when_passing = true);

// X = [s U, s V] (L x 2D, row-major, double) with s^2 = scale sqrt(D) (1 - 2^-20), so that the
// logits of X are scale U V^T and Lambda(X) <= scale after X is rounded to float32 (SPEC §9.2).
std::vector<double> opt_inputs(const OptState& s, double scale);

}  // namespace attnx
