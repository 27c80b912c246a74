// attnx wasm: embind registrations of the text calls: custom pattern files, sweep files and the
// statistics of merged sweep parts (core attnx/pattern_io.hpp, attnx/sweep_io.hpp). As in
// bindings.cpp, every function catches all C++ exceptions and RETURNS a JS Error (RangeError for
// refused input, with .field and .kind) that web/lib/attnx.js throws.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <cmath>
#include <exception>

#include <attnx/errors.hpp>
#include <attnx/pattern_io.hpp>
#include <attnx/schema.hpp>
#include <attnx/sweep_io.hpp>
#include "convert.hpp"
#include "convert_io.hpp"

using emscripten::val;
using namespace attnx;
using namespace attnx::wasm;

namespace {

bool present(const val& v) { return !v.isUndefined() && !v.isNull(); }

std::string read_format(const val& f) {
  const std::string s = f.isString() ? f.as<std::string>() : std::string();
  if (s != "json" && s != "csv")
    fail("format", "format must be one of json, csv (got " +
                       (f.isString() ? "\"" + s.substr(0, 40) + "\""
                                     : val::global("String")(f).as<std::string>()) +
                       ")");
  return s;
}

// parsePattern(text, L | null) -> { L, nnz, triplets: { rows, cols, vals } } (raw weights).
val js_parse_pattern(val text, val L) {
  return guarded([&] {
    long long L_given = -1;
    if (present(L)) {
      const double x = L.isNumber() ? L.as<double>() : NAN;
      require_option("L", x);
      L_given = static_cast<long long>(x);
    }
    return pattern_triplets_to_js(parse_pattern_triplets(read_text(text, "text"), L_given));
  });
}

// formatPattern({ L, triplets }, 'json' | 'csv') -> the explorer's export text.
val js_format_pattern(val pattern, val format) {
  return guarded([&] {
    const std::string f = read_format(format);
    const PatternTriplets p = read_pattern_triplets(pattern);
    return val(f == "json" ? pattern_to_json(p) : pattern_to_csv(p));
  });
}

// formatSweep(record, 'json' | 'csv') -> the text of `attnx sweep --format json|csv`.
val js_format_sweep(val record, val format) {
  return guarded([&] {
    const std::string f = read_format(format);
    const SweepRecord r = read_sweep_record(record);
    return val(f == "json" ? sweep_to_json(r) : sweep_to_csv(r));
  });
}

// parseSweep(text) -> record (see convert_io.hpp).
val js_parse_sweep(val text) {
  return guarded([&] { return sweep_record_to_js(parse_sweep(read_text(text, "text"))); });
}

// summariseSweep({ delta, points: [{ L, dMins, ... }] }) -> { points: [{ ...each point, dMins
// (not reached = null), median, quantile }], fits, fitComparison: { resamples, logWins,
// powerWins, lengths, verdict } (compare_fits: bootstrap resamples of the trials, seed 1;
// verdict 'log' | 'power' | 'undecided' | 'too-few-lengths' by the core's rule, fit_verdict) }.
val js_summarise_sweep(val in) {
  return guarded([&] {
    if (!present(in) || in.typeOf().as<std::string>() != "object")
      fail("points", "summariseSweep needs { delta, points: [{ L, dMins }] }");
    const val dv = in["delta"];
    require_option("delta", dv.isNumber() ? dv.as<double>() : NAN);
    const val pts = in["points"];
    if (!present(pts) || !pts.isArray()) fail("points", "points must be an array of { L, dMins }");
    const int n = pts["length"].as<int>();
    std::vector<SweepRecordPoint> rp(n);
    for (int i = 0; i < n; ++i) {
      const std::string at = "points[" + std::to_string(i) + "]";
      const val p = pts[i];
      if (!present(p) || p.typeOf().as<std::string>() != "object")
        fail("points", at + " must be an object { L, dMins, ... }");
      const val L = p["L"];
      require_option("L", L.isNumber() ? L.as<double>() : NAN);
      rp[i].L = L.as<int>();
      rp[i].d_mins = read_d_values(p["dMins"], "points", at + ".dMins");
    }
    summarise_points(rp, dv.as<double>());
    val out = val::array();
    for (int i = 0; i < n; ++i) {
      val o = val::global("Object").call<val>("assign", val::object(), pts[i]);
      val d = val::array();
      for (std::size_t t = 0; t < rp[i].d_mins.size(); ++t)
        d.set(t, rp[i].d_mins[t] < 0 ? val::null() : val(rp[i].d_mins[t]));
      o.set("dMins", d);
      o.set("median", rp[i].median < 0 ? val::null() : val(rp[i].median));
      o.set("quantile", rp[i].quantile < 0 ? val::null() : val(rp[i].quantile));
      out.set(i, o);
    }
    val r = val::object();
    r.set("points", out);
    r.set("fits", sweep_fits_to_js(fit_points(rp)));
    const FitComparison c = compare_fits(rp, dv.as<double>());
    val cmp = val::object();
    cmp.set("resamples", c.resamples);
    cmp.set("logWins", c.log_wins);
    cmp.set("powerWins", c.power_wins);
    cmp.set("lengths", c.lengths);
    cmp.set("verdict", std::string(fit_verdict(c)));
    r.set("fitComparison", cmp);
    return r;
  });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnx_io) {
  emscripten::function("parsePattern", &js_parse_pattern);
  emscripten::function("formatPattern", &js_format_pattern);
  emscripten::function("formatSweep", &js_format_sweep);
  emscripten::function("parseSweep", &js_parse_sweep);
  emscripten::function("summariseSweep", &js_summarise_sweep);
}
