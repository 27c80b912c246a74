// attnx wasm: conversions for the text calls (custom pattern and sweep files, wasm/bind_io.cpp).
// Sweep records keep the shape the lab page uses (web/lab/io.js), the CLI's JSON keys:
//   { source: 'import', version: string|null,
//     params: { pattern?, <family parameters>?, weights?, w_min?, decay?, eps?, tau?,
//               delta: number|null, step?, d_max?, trials, seed?, max_bytes?, Ls: number[] },
//     points: [{ L, d_mins: (number|null)[], median: number|null, quantile: number|null,
//                d_star: number|null, k: number|null, max_col_count: number|null,
//                in_class: boolean|null, madds: number|null }],
//     fits: { log: { model, ok, a, b, r2 }, power: { model, ok, c, p, r2 } }  (nulls when not ok;
//             model: the file's text, "d = a + b ln L" / "d = c L^p"),
//     complete: true }
// Refusals are attnx::InvalidArgument naming the field and the path inside the value.
#pragma once
#include <emscripten/val.h>

#include <string>
#include <vector>

#include <attnx/pattern_io.hpp>
#include <attnx/sweep_io.hpp>

namespace attnx::wasm {

using emscripten::val;

// A JS string argument (refuses other types, naming `field`).
std::string read_text(const val& v, const char* field);

// d values per trial: null/undefined or negative = not reached (-1), else an integer in
// [1, kMaxD]; refusals name `path`[t] and carry `field`.
std::vector<int> read_d_values(const val& a, const char* field, const std::string& path);

// { L, triplets: { rows, cols, vals } } (arrays or typed arrays) -> triplets, for formatPattern.
PatternTriplets read_pattern_triplets(const val& p);
// { L, nnz, triplets: { rows: Int32Array, cols: Int32Array, vals: Float64Array } }
val pattern_triplets_to_js(const PatternTriplets& p);

// A record of the shape above (source, complete and params.Ls are not read; fits may be left
// out and are then computed from the points' quantiles). Types are checked, ranges are not.
SweepRecord read_sweep_record(const val& rec);
val sweep_record_to_js(const SweepRecord& rec);

// { log: { model, ok, a, b, r2 }, power: { model, ok, c, p, r2 } } with nulls when not ok.
val sweep_fits_to_js(const SweepFits& f);

}  // namespace attnx::wasm
