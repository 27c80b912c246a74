// attnx wasm: conversions between JS values (emscripten::val) and the core's types.
// Option objects use the JS API names (the CLI's names, camelCase where the CLI has a dash):
//   pattern L k w r block stride globals randoms weights wMin decay eps tau delta d seed
//   dmax step trials maxBytes triplets construction box projection precision
// Every refusal is an attnx::InvalidArgument naming the field and its range, like the core's.
#pragma once
#include <emscripten/val.h>

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

#include <attnx/build_inputs.hpp>
#include <attnx/construct.hpp>
#include <attnx/construct_lp.hpp>
#include <attnx/mind.hpp>
#include <attnx/pattern.hpp>
#include <attnx/sweep.hpp>
#include <attnx/views.hpp>

namespace attnx::wasm {

using emscripten::val;

// All options of any call, resolved against the defaults (the CLI's defaults).
struct Options {
  PatternSpec spec;                 // family, L and the family's parameters, weights
  std::vector<Triplet> triplets;    // pattern "custom" only
  bool has_triplets = false;
  Tolerances tol;
  int d = kDefaultD;
  std::uint64_t seed = kDefaultSeed;
  MinDOptions mind;
  int trials = kDefaultTrials;
  int first_trial = 0;  // sweepPoint: run trials firstTrial .. firstTrial+trials-1 of this L
  bool want_views = false;  // construct: pooled images requested (opts.views)
  ViewRequest views;
  bool omit_x = false;      // construct: leave X out of the result (its images are in views)
  std::string construction = "jl";  // construct, minD: how X is chosen (SPEC §3, §8)
  double box = kDefaultLpBox;       // lp: U of SPEC §8.2
  bool precision = false;           // construct with jl: also the §8.4 report
  // jl's projection kind (SPEC §8.1) is mind.projection
  int trial = -1;                   // construct: trial t of a sweep (seed = trial_seed(seed, L, t))
  std::uint64_t master_seed = kDefaultSeed;  // the seed as given (seed is the trial's when trial >= 0)
};

// Which option names a call accepts (others are refused as unknown).
enum class Call { Construct, MinD, SweepPoint, Estimate };

// Reads a plain JS object. Missing (undefined/null) fields keep their defaults. Checks types
// (numbers, integers, strings) and the ranges the core cannot see (seed, maxBytes, ranges beyond
// the int type); the core validates the rest when the options are used.
Options read_options(const val& opts, Call call);

// The resolved options as a plain JS object (JS names; only the fields that apply).
val params_to_js(const Options& o, Call call);

// The target pattern of a call: make_pattern with Rng(pattern_seed(seed)), or the triplets.
Pattern build_pattern(const Options& o);

// Copies (never views) of native arrays as new JS typed arrays.
val to_float32_array(const float* p, std::size_t n);
val to_float32_array(const double* p, std::size_t n);
val to_int32_array(const int* p, std::size_t n);
val to_float64_array(const double* p, std::size_t n);
val to_uint8_array(const unsigned char* p, std::size_t n);

// A number array (JS Array or typed array) as doubles; refuses non-finite entries naming field.
std::vector<double> read_number_array(const val& a, const char* field);

// A JS Error for a caught exception: InvalidArgument and BudgetExceeded -> RangeError,
// std::bad_alloc and the rest -> Error. The core names fields as the JS API does (option table);
// the error gets .field (when known) and .kind ("invalid", "budget", "memory", "internal").
val error_to_js(std::exception_ptr e);

// Wraps a JS progress callback: called with a fraction in [0, 1] at most every `every` (and at
// 1); its return value `false` (strictly) asks to cancel. A null/undefined callback is fine.
Progress make_progress(const val& callback, double every = 0.02);

// Runs f and returns its value; any C++ exception becomes a RETURNED JS Error (error_to_js), so
// every destructor runs, no embind handle leaks, and the module stays usable.
template <class F>
val guarded(F&& f) {
  try {
    return f();
  } catch (...) {
    return error_to_js(std::current_exception());
  }
}

// A progress wrapper that remembers whether the callback asked to cancel.
struct ProgressState {
  Progress inner;
  bool cancelled = false;
  Progress fn() {
    if (!inner) return nullptr;
    return [this](double f) {
      const bool go = inner(f);
      if (!go) cancelled = true;
      return go;
    };
  }
};

// Results as plain JS objects (convert_results.cpp). construction_to_js frees c's L x L matrices
// once copied. Typed arrays are copies; -1 / "not reached" values become null.
// P (optional): the projection's columns, for X's images when c has no X (see pool_views).
// construction_to_js adds construction (the name), precision { inputNorm, fp32, fp64, bits (null:
// not reached) } when built, lp { margin (Float64Array t*), iterations (Int32Array), feasibleRows,
// allConverged } and momentLambda (Float64Array) for those constructions.
val construction_to_js(BuiltInputs& b, const Pattern& A, const Options& o, const float* P = nullptr);
// SPEC §8.4 as { inputNorm, fp32, fp64, bits (null: not reached) }.
val precision_to_js(const PrecisionReport& p);
// The core's request for construct's options (construction, d, seed, box, budget, precision).
InputsRequest inputs_request(const Options& o);
val min_d_to_js(const MinDResult& m, const Pattern& A, const Options& o, bool cancelled);
val sweep_point_to_js(const SweepPoint& p, const Options& o, bool cancelled);
val fits_to_js(const LogFit& log_fit, const PowerFit& power_fit);
val int_or_null(long long v);
// The one-length sweep of a sweepPoint call.
SweepOptions sweep_options(const Options& o);
// d values: numbers, or null/undefined/negative for "not reached"; refuses others naming field[i].
std::vector<int> read_dmins(const val& a, const char* field);
// (L, d) pairs of fits(Ls, ds): the points whose d is a positive finite number.
void read_fit_points(const val& Ls, const val& ds, std::vector<double>& x, std::vector<double>& y);

}  // namespace attnx::wasm
