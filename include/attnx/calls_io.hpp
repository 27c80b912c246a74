// attnx core: the JavaScript API's text calls (web/lib/attnx.js parsePattern, formatPattern,
// formatSweep, parseSweep, summariseSweep), from the caller's values (JsonValue, see
// call_options.hpp) to what the WebAssembly module hands back, converting nothing itself.
// The lab's sweep record has the CLI's JSON keys (sweep_io.hpp):
//   { source: 'import', version: string|null,
//     params: { pattern?, <family parameters>?, weights?, w_min?, decay?, eps?, tau?,
//               delta: number|null, step?, d_max?, trials?, seed?, max_bytes?, construction?,
//               box?, projection?, Ls: number[] },
//     points: [{ L, d_mins: (number|null)[], median, quantile, d_star, k, max_col_count,
//                in_class, madds }] (null: not reached, unknown or not finite),
//     fits: { log: { model, ok, a, b, r2 }, power: { model, ok, c, p, r2 } } (nulls when not ok),
//     complete: true }
// Refusals are InvalidArgument naming the field and the path inside the value.
#pragma once
#include <string>
#include <vector>

#include "json.hpp"
#include "pattern_io.hpp"
#include "sweep_io.hpp"

namespace attnx {

// parsePattern(text, L): the pattern text read by parse_pattern_triplets; L null or an L of the
// option table's range. Cost: linear in the text.
PatternTriplets parse_pattern_call(const JsonValue& text, const JsonValue& L);
// formatPattern({ L, triplets: { rows, cols, vals } }, 'json' | 'csv'): the export text.
std::string format_pattern_call(const JsonValue& pattern, const JsonValue& format);
// formatSweep(record, 'json' | 'csv'): the text of `attnx sweep --format json|csv` for a record
// of the shape above (source, complete and params.Ls are not read; fits may be left out and are
// then computed from the points' quantiles). Types are checked, ranges are not.
std::string format_sweep_call(const JsonValue& record, const JsonValue& format);
// parseSweep(text): parse_sweep's record in the shape above.
JsonValue parse_sweep_call(const JsonValue& text);
// summariseSweep({ delta, points: [{ L, dMins, ... }] }): { points: [each point as given with
// dMins (not reached = null), median and quantile (null: not reached)], fits (as in the record),
// fitComparison: { resamples, logWins, powerWins, lengths, verdict } (compare_fits, fit_verdict) }.
JsonValue summarise_sweep_call(const JsonValue& input);

// A caller's array of finite numbers (JSON array or typed array); refusals name field and field[i].
std::vector<double> read_number_list(const JsonValue& a, const std::string& field);

}  // namespace attnx
