// attnx core: the `opt` construction of SPEC §10.1: queries and keys chosen together by a
// first-order method (opt_descent.hpp) under a logit-scale budget Lambda_max, and its minimal D.
// opt is a search, not a proof: its D is an upper bound on D*(Lambda_max) for that target.
#pragma once
#include <cstdint>
#include <vector>

#include "construct.hpp"
#include "inputs.hpp"
#include "mind.hpp"
#include "opt_descent.hpp"

namespace attnx {

class CheckedRequest;
struct BuildRun;

constexpr int kMaxOptD = 128;  // opt's largest D: L x D floats per matrix, L^2 D per step

struct OptConstruction {
  Construction c;             // X = [s U, s V] rounded to float32, judged by SPEC §2 (inputs.hpp)
  PrecisionReport precision;  // SPEC §8.4 on the double X
  int steps = 0;              // first-order steps taken
  double penalty = 0;         // P(U, V) of the last step's logits
};

// Builds opt's X at the checked request's hidden size D = r->d and budget r->scale: from the
// seeded start (opt_start(L, D, seed)), projected Adam steps until SPEC §2 holds on the built X
// (float32, as every construction is judged) or the step limit (opt_settings().max_steps); the X
// of the last step either way (not reached is a result, never a crash). run.progress gets the
// fraction of the step limit; false stops (c.cancelled). The request and its budget were checked.
OptConstruction construct_opt(const Pattern& A, const CheckedRequest& r, const BuildRun& run);

// The settings opt runs with (SPEC §10.1's method with this project's choices; see
// construct_opt.cpp).
const OptSettings& opt_settings();

// opt's minimal D for a checked Search request on the grid 1 .. r->mind.d_max (step 1): see
// construct_opt.cpp for how the search moves (checked: the D tried, in that order). d_min: the
// smallest D at which the built X passed SPEC §2 with Lambda(X) <= Lambda_max; -1: not reached.
// bounds: SPEC §9 of that X. run.progress gets the fraction of the search's step budget; false
// cancels. x_at_d_min (optional) receives that X in double (L x 2 d_min, before its rounding).
MinDResult min_d_opt(const Pattern& A, const CheckedRequest& r, const BuildRun& run,
                     std::vector<double>* x_at_d_min = nullptr);

}  // namespace attnx
