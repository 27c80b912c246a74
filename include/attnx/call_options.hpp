// attnx core: the options of the JavaScript API's calls (web/lib/attnx.js: construct, precision,
// minD, sweepPoint, estimateBytes), read from the caller's plain object as a JsonValue (the
// WebAssembly module converts it generically). Names are the option table's (schema.hpp):
//   pattern L k w r block stride globals randoms weights wMin decay triplets eps tau delta d seed
//   dmax step trials firstTrial maxBytes construction box scale projection precision trial views
// Every refusal is an InvalidArgument naming the field and its range, worded as the core's own
// checks word them; values are named as JavaScript prints them ("(got 2.5)", "(got \"256\")").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <optional>

#include "construction.hpp"
#include "json.hpp"
#include "mind.hpp"
#include "pattern.hpp"
#include "sweep.hpp"
#include "views.hpp"

namespace attnx {

// Which call the options are for: each accepts its own names (others are refused as unknown).
enum class Call { Construct, MinD, SweepPoint, Estimate };

// All options of any call, resolved against the defaults (the CLI's; limits of the "wasm" context).
struct CallOptions {
  PatternSpec spec;                 // family, L and the family's parameters, weights
  std::vector<Triplet> triplets;    // pattern "custom" only
  Tolerances tol;
  int d = kDefaultD;
  std::uint64_t seed = kDefaultSeed;   // the trial's seed when trial >= 0
  std::uint64_t master_seed = kDefaultSeed;  // the seed as given
  MinDOptions mind;                 // grid, budget and jl's projection kind (mind.projection)
  int trials = kDefaultTrials;
  int first_trial = 0;  // sweepPoint: runs trials firstTrial .. firstTrial+trials-1 of this L
  bool want_views = false;  // construct: pooled images requested (views)
  ViewRequest views;
  bool omit_x = false;      // construct: X left out of the result (its images are in views)
  bool omit_dense = false;  // construct: M and the logits left out (views.dense false; pooled in views)
  std::string construction = kDefaultConstruction;  // construct, minD, sweepPoint: how X is chosen (SPEC §3, §8)
  double box = kDefaultLpBox;       // lp: U of SPEC §8.2
  double scale = kDefaultOptScale;  // opt: Lambda_max of SPEC §10.1
  bool precision = false;           // construct with jl: also the §8.4 report
  int trial = -1;                   // construct: trial t of a sweep (seed = trial_seed(seed, L, t))
  // construct (Build), minD and sweepPoint (Search): the fields above as one checked request
  // (construction.hpp); estimateBytes has none.
  std::optional<CheckedRequest> request;
};

// Reads a caller's options object; absent (null, undefined, missing) members keep their
// defaults, and so does an absent object. Checks the object and the names the call accepts, then
// every value in one pass (its type, the "wasm" context's ranges of seed, maxBytes, L, d, step,
// dmax, trials, firstTrial, trial, views.*, the family name and custom triplets: pattern custom
// needs them and L, other families refuse them) and the construction's request (check_request:
// tolerances, d or the grid in the construction's range, box, scale, projection); every refusal
// at once (InvalidArgument with fields()). The family parameters' ranges are checked when the
// pattern is made (call_pattern). Cost: linear in the options (the triplets' count).
CallOptions read_call_options(const JsonValue& opts, Call call);

// The resolved options as a result's `params` object (API names; only the fields that apply:
// the family's own parameters, wMin / decay with their weights, box with lp, construction and
// projection when not the default, the call's own grid or d, trial, the seed as given).
JsonValue call_params(const CallOptions& o, Call call);

// The target pattern of a call: make_pattern with Rng(pattern_seed(seed)), or the triplets.
// Refuses family parameters outside their family's range.
Pattern call_pattern(const CallOptions& o);
// The one-length sweep of a sweepPoint call.
SweepOptions call_sweep_options(const CallOptions& o);

// A caller's value as messages name it: numbers as JavaScript prints them, strings quoted (their
// first 40 bytes, then "..."), "an array", "an object" (a typed array too), true / false, null,
// and Other's text ("undefined", "5n").
std::string describe_value(const JsonValue& v);
// Missing (nullptr), null or undefined: the caller gave nothing.
bool absent(const JsonValue* v);

}  // namespace attnx
