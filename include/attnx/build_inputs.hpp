// attnx core: one entry point for every way of choosing the inputs X (SPEC §3 and §8): the CLI's
// construct and the WASM module's construct both build through it, so a construction's rules
// (which options apply, what it reports) live here once.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "construct.hpp"
#include "construct_lp.hpp"
#include "inputs.hpp"
#include "memory.hpp"
#include "mind.hpp"
#include "projection.hpp"

namespace attnx {

class GramLadder;

// What a page needs to know of each construction: the pages read these properties instead of
// comparing construction names, so a new construction is a core change only.
struct ConstructionInfo {
  std::string name, label;  // "lp", "Optimal queries (LP, §8.2)"
  bool uses_d = true;       // moment: D = 2m, d is not an input
  bool searchable = true;   // minimal d exists (jl, lp)
  int d_max = 0;            // largest d construct accepts
  int explorer_d = 0;       // the explorer's d when this construction is picked (0: keep d)
  int search_step = 0;      // the explorer's minimal-d grid step (0: the option's default)
  std::vector<std::string> params;  // the options only this kind of construction uses
  bool bisect = false;      // success is monotone in d (nested columns): its d search may bisect
  std::string dimension;    // "d" (chosen) or "2m" (fixed by the pattern: D = 2m)
  bool precision_always = false;  // the §8.4 report comes with every result (else on request)
  std::vector<std::string> row_report;  // per-row extras it reports: "margin", "iterations", "lambda"
  bool row_query = false;   // its X is small: the row inspector shows a row's query
  bool sliced = false;      // construct stops between slices and resumes (keeps its Gram ladder)
  std::string summary;      // one sentence: what it does and what it costs
  std::string bits_floor;   // the SPEC 9.3 floor on D w that holds for it (a bounds.hpp key):
                            // "bits_fixed_keys" (keys fixed before the target) or "bits_free_keys"
  // The two halves of X = [Q, K] as the explorer names them: a title and a subtitle each.
  std::string queries_title, queries_sub, keys_title, keys_sub;
};
// jl, lp, moment, in construction_names() order.
const std::vector<ConstructionInfo>& construction_infos();

struct InputsRequest {
  std::string construction = "jl";  // one of construction_names()
  int d = kDefaultD;                // jl and lp; moment has D = 2m (m: the largest row support)
  std::uint64_t seed = kDefaultSeed;
  double box = kDefaultLpBox;       // lp: U of SPEC §8.2
  std::uint64_t max_bytes = kDefaultMaxBytes;
  bool jl_precision = false;        // jl: also the §8.4 report (lp and moment always have it)
  ProjectionKind projection = ProjectionKind::Gaussian;  // jl's projection (SPEC §8.1); others: gaussian only
};

struct BuiltInputs {
  Construction c;                           // X, logits, M, §2 rows and metrics (c.d: d or D),
                                            // SPEC §9 bounds (w when there is a §8.4 report)
  std::optional<LpReport> lp;               // lp: margins t* and iterations per row
  std::optional<PrecisionReport> precision; // SPEC §8.4 (jl: only when asked)
  std::vector<double> moment_lambda;        // moment: lambda_i per row
};

// Refuses a construction name that is not one of construction_names(), naming the field
// "construction" and the allowed names.
void require_construction(const std::string& name);

// Builds X with r.construction and evaluates SPEC §2 on it (and §8.4 as above). Validates the
// name, the tolerances, d (lp: 1..kMaxLpD; moment does not use it) and the whole run's budget
// (estimate_inputs_bytes, the precision report included) before building anything. jl: construct() (ladder, progress, with_x as there); lp: construct_lp()
// (progress per row, for_each spreads rows); moment: construct_moment() (d not used). When
// progress stops the work, c.cancelled is true and nothing else is set.
BuiltInputs build_inputs(const Pattern& A, const Tolerances& tol, const InputsRequest& r,
                         const Progress& progress = nullptr, GramLadder* ladder = nullptr,
                         bool with_x = true, const ForEachRow& for_each = nullptr);

// Refuses a projection other than gaussian for a construction other than jl (field "projection").
void require_projection_applies(const std::string& construction, ProjectionKind projection);

// The minimal d of SPEC §4 for `construction`: min_d for jl (opt.projection), min_d_lp (box) for
// lp; moment is refused (InvalidArgument on "construction": it has one D = 2m per pattern, nothing
// to search), as is a projection other than gaussian for lp.
MinDResult min_d_of(const std::string& construction, const Pattern& A, const Tolerances& tol,
                    const MinDOptions& opt, std::uint64_t seed, double box = kDefaultLpBox,
                    const Progress& progress = nullptr, const ForEachRow& for_each = nullptr);

// One trial of a sweep over L for `moment` (SPEC §8.3, §5): it has one D = 2m per pattern, so
// the trial's d_min is D when the moment inputs (X in float32, as every construction is judged)
// pass SPEC §2, and -1 (not reached) when they do not; checked = {D}; beta and d* of the target;
// bounds (SPEC §9, without w; not reached: n and the bits floors only).
MinDResult moment_trial(const Pattern& A, const Tolerances& tol,
                        std::uint64_t max_bytes = kDefaultMaxBytes);

}  // namespace attnx
