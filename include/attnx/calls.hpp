// attnx core: the JavaScript API's computing calls (web/lib/attnx.js construct, precision, minD,
// sweepPoint, estimateBytes, fits, median, quantile), from the caller's values (JsonValue, see
// call_options.hpp) to the records the WebAssembly module hands back. The module binds these
// records field by field (embind value_object, wasm/records.cpp) and converts nothing by hand;
// every rule (defaults, ranges, which fields apply, what "not reached" is) is applied here.
#pragma once
#include <optional>
#include <string>

#include "construction.hpp"
#include "call_options.hpp"
#include "json.hpp"
#include "views.hpp"

namespace attnx {

class GramLadder;

// A progress callback from the caller; the calls below wrap it (throttle, remember a stop).
// minD and sweepPoint report every 2% at most (and 1 at the end); construct every chunk of
// columns, so that a caller can slice its work by returning false.
constexpr double kCallProgressEvery = 0.02;

// construct(opts): X for one target A (SPEC §3, §8) and M. When the callback stopped the work,
// `cancelled` is true and only params are meaningful (the ladder keeps the columns summed: the
// same call again resumes). Else b holds the construction (X empty when views.omitX; M and the
// logits empty when views.dense is false), views the pooled images when asked, columns_added the
// ladder's new columns (jl; -1 for others).
struct ConstructCall {
  JsonValue params;
  bool cancelled = false;
  std::string construction;
  Pattern A;
  BuiltInputs b;
  std::optional<Views> views;
  int columns_added = -1;
};
// Cost: construct()'s, plus pooling when views are asked. Throws InvalidArgument /
// BudgetExceeded naming the field.
ConstructCall construct_call(const JsonValue& opts, const Progress& progress, GramLadder& ladder);

// precision(opts): the SPEC §8.4 report and the §9 bounds (w included) for construct's options
// (jl: X drawn again, a few L x L x d products).
struct PrecisionCall {
  JsonValue params;
  std::string construction;
  int d = 0;
  PrecisionReport precision;
  Bounds bounds;  // SPEC 9 of this X, w (bits_per_number) included
};
PrecisionCall precision_call(const JsonValue& opts);

// The statistics of a target pattern the results repeat.
struct PatternStats {
  int L = 0, k = 0, max_col_count = 0;
  bool in_class = false;
};

// minD(opts): search_min_d for the options' construction (SPEC §4; refused for one without a
// search, naming construction). cancelled: the callback stopped it.
struct MinDCall {
  JsonValue params;
  MinDResult m;
  PatternStats stats;
  bool cancelled = false;
};
MinDCall min_d_call(const JsonValue& opts, const Progress& progress);

// sweepPoint(opts): one L of the scaling experiment (SPEC §5), as sweep_point.
struct SweepPointCall {
  JsonValue params;
  SweepPoint p;
  bool cancelled = false;
};
SweepPointCall sweep_point_call(const JsonValue& opts, const Progress& progress);

// estimateBytes(opts): the memory of jl's construct and of its minimal-d search for the options,
// in bytes (exactly what those calls check before allocating), and the budget they are checked
// against.
struct ByteEstimate {
  double construct = 0, mind = 0, max_bytes = 0;
};
ByteEstimate estimate_call(const JsonValue& opts);

// fits(Ls, ds): both fits of SPEC §5 over the points whose d is a positive finite number (null:
// not reached). Ls: finite numbers; ds: as long as Ls.
struct FitsCall {
  LogFit log;
  PowerFit power;
};
FitsCall fits_call(const JsonValue& Ls, const JsonValue& ds);
// median(ds), quantile(ds, delta): a number, or null when not reached (null entries of ds are
// "not reached", as are negative ones). ds entries: integers up to kMaxD or null.
JsonValue median_call(const JsonValue& ds);
JsonValue quantile_call(const JsonValue& ds, const JsonValue& delta);

// d values of a caller's array: null, undefined and negative numbers are -1 (not reached), other
// entries integers up to kMaxD; refusals name field[i] (field "ds" for the calls above).
std::vector<int> read_d_list(const JsonValue& a, const char* field);

}  // namespace attnx
