// attnx core: sweep results as text, the files of `attnx sweep --format json|csv` and of the
// lab's export/import. String in, string out.
//
// JSON: {"command": "sweep", "version", "params": {...}, "points": [...], "fits": {...}} with
// the CLI's layout. CSV: the header L,trials,median,quantile,d_star,k,max_col_count,in_class,
// d_mins and one row per length, d_mins joined by ';'. Every value that is unknown, not reached
// or not finite is null in JSON and NA in CSV. Points with SPEC §9's bounds add, after madds, the
// keys of sweep_bound_keys() (JSON), and the CSV the same columns after d_mins (its per-trial lists
// joined by ';'); a record without bounds is written exactly as before they existed.
#pragma once
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sweep.hpp"

namespace attnx {

// Longest sweep text parse_sweep reads (32 MiB).
constexpr std::size_t kMaxSweepTextBytes = std::size_t(32) << 20;

// The "params" object, with the CLI's keys. Empty = not known (a CSV file has none of them).
struct SweepRecordParams {
  std::optional<std::string> pattern;                  // a family that scales with L
  std::vector<std::pair<std::string, long long>> family;  // its own parameters, family order
  std::optional<std::string> weights;
  std::optional<double> w_min, decay;  // written only with weights random / decaying
  std::optional<double> eps, tau, delta;
  std::optional<long long> step, d_max, trials, seed, max_bytes;
  std::optional<std::string> construction;  // written only when not jl (older files are jl)
  std::optional<double> box;                // lp's U
  std::optional<double> scale;              // opt's Lambda_max
  std::optional<std::string> projection;    // jl's kind, written only when not gaussian
};

// SPEC §9 at one length: each trial's logit scale and largest |logit| at its d_min, the floors at
// their medians (bounds.hpp; keys as bound_infos() names them). NaN / 0: unknown.
struct SweepPointBounds {
  std::vector<double> logit_scales, max_abs_logits;  // per trial; -1 = not reached
  int column_supports = 0;  // n: the smallest over the trials that reached (0: none)
  double logit_scale = NAN, max_abs_logit = NAN;  // medians over the trials that reached
  double d_lambda = NAN, ratio = NAN;             // packing floor at the median Lambda; median d / it
  double d_logit = NAN, ratio_logit = NAN;        // the same at the median max |Z|
  double bits_fixed_keys = NAN, bits_free_keys = NAN, bits_free_keys_regular = NAN;  // at (L, k)
};

// The bound keys of a sweep point, in the order files write them (bounds.hpp bound_infos()).
const std::vector<std::string>& sweep_bound_keys();
// The member of SweepPointBounds holding the scalar bound `key` (a key of sweep_bound_keys() other
// than column_supports and the per-trial lists); nullptr for any other key.
double SweepPointBounds::*scalar_bound_member(const std::string& key);

// One length. Not-reached d values are -1 as in SweepPoint; other values may be unknown.
struct SweepRecordPoint {
  int L = 0;
  std::vector<int> d_mins;  // per trial; -1 = not reached
  double median = -1;       // -1 = not reached
  int quantile = -1;        // -1 = not reached (or not known: a CSV row's NA)
  std::optional<double> d_star;
  std::optional<int> k, max_col_count;
  std::optional<bool> in_class;
  std::optional<std::uint64_t> madds;
  std::optional<SweepPointBounds> bounds;  // none in files written before SPEC §9
};

// The fits' "model" texts in sweep files.
constexpr const char* kLogFitModel = "d = a + b ln L";
constexpr const char* kPowerFitModel = "d = c L^p";

struct SweepFits {
  LogFit log;
  PowerFit power;
};

struct SweepRecord {
  std::string version;  // "" = not known; sweep_to_json then writes this build's version
  SweepRecordParams params;
  std::vector<SweepRecordPoint> points;  // params' "Ls" are the points' L
  SweepFits fits;
};

// The record `attnx sweep` prints for these options and this result.
SweepRecord sweep_record(const SweepOptions& opt, const SweepResult& r);
// The record of one length; its bounds summarised at tolerance tau (summarise_bounds).
SweepRecordPoint record_point(const SweepPoint& p, double tau);
// The floors of p.bounds from its per-trial values, p.median, p.k and p.L at tolerance tau: the
// medians of the reached trials' logit scales and largest logits, the packing floors at them with
// n = column_supports and their ratios to the median d_min, and the §9.3 floors at (L, k) (each
// NaN when what it needs is unknown). Nothing when p has no bounds.
void summarise_bounds(SweepRecordPoint& p, double tau);

struct SweepReport;  // sweep_report.hpp

// The texts of `attnx sweep --format json` and `--format csv` (byte for byte). JSON writes
// "params" members that are known, in the CLI's order, and the stored fits, then the report of
// `attnx sweep --report` when one is given (a "report" member, sweep_report.hpp).
std::string sweep_to_json(const SweepRecord& rec, const SweepReport* report = nullptr);
std::string sweep_to_csv(const SweepRecord& rec);

// Reads either text (JSON when it starts with '{' or '[', after a UTF-8 byte order mark and
// white space). Checks everything a plot uses and refuses the first problem with
// InvalidArgument("text", ...) naming it ("points[1].d_mins[3] must be an integer d from 1 to
// 4096 or null (got \"abc\")", "row 3, median must be a number or NA (got \"x\")"):
//   params: known keys within the option table's ranges (unknown keys are ignored), "delta"
//   required (JSON), pattern not custom; "Ls", if given, equal to the points' lengths;
//   points: 1 to kMaxLs, L ascending in [kMinL, kMaxL], d_mins 1 to kMaxTrials values each an
//   integer in [1, d_max] (kMaxD without d_max) or null, as many as params.trials; median and
//   quantile, when given, equal to what d_mins (and delta) give; d_star >= 0, k in [1, L],
//   max_col_count in [0, L], madds an integer in [0, 2^53-1], in_class a boolean, or null;
//   SPEC §9 bounds (optional: any of sweep_bound_keys(), the others unknown): logit_scales and
//   max_abs_logits as many as d_mins, each a number >= 0 or null and null where d_min is,
//   column_supports an integer in [1, L] or null, the other keys numbers >= 0 or null (taken as
//   written, like d_star). A CSV has either the 9 columns above or those and the bound columns.
// The result's median and quantile are recomputed (CSV without delta: quantile as written, one
// of the d_mins), params.trials is filled in from the points, and the fits recomputed. The JSON's
// "version" is kept when it reads as one (major.minor.patch, an optional -/+ suffix, at most 20
// bytes), else left out (empty, as for a CSV): it is only shown, never used.
SweepRecord parse_sweep(const std::string& text);

// Statistics of points whose d_mins are set (e.g. parts of one length merged from several
// workers): median and (1-delta)-quantile of every point (core median_d, quantile_d).
void summarise_points(std::vector<SweepRecordPoint>& points, double delta);
// The fits of the quantiles (core fit_sweep: points with a reached quantile).
SweepFits fit_points(const std::vector<SweepRecordPoint>& points, PowerGridCache* cache = nullptr);

// Which fit wins, and how reliably: in `resamples` bootstrap resamples of the trials (per length,
// as many trials as it has, drawn with replacement from a generator seeded by `seed`), the
// (1-delta)-quantiles and both fits are recomputed; a fit wins a resample when its R^2 (d-space)
// is the higher. Resamples where either fit cannot be made count for neither.
struct FitComparison {
  int resamples = 0, log_wins = 0, power_wins = 0;
  int lengths = 0;  // points whose quantile was reached (what the fits used)
};
constexpr int kDefaultFitResamples = 1000;
// A fit wins when its R^2 is the higher in at least this share of the resamples and the fits used
// at least kMinFitLengths lengths (two two-parameter curves through four points are not told
// apart by resampling the trials alone).
constexpr double kDecisiveFitShare = 0.9;
constexpr int kMinFitLengths = 5;

// "log", "power", "undecided" (neither wins often enough) or "too-few-lengths" for a comparison
// (the rule above).
const char* fit_verdict(const FitComparison& c);
FitComparison compare_fits(const std::vector<SweepRecordPoint>& points, double delta,
                           int resamples = kDefaultFitResamples, std::uint64_t seed = 1);

}  // namespace attnx
