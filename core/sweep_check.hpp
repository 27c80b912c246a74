// attnx core (internal): the checks parse_sweep applies to a sweep file's "params" and
// "points", shared by its JSON and CSV readers (core/sweep_read.cpp). Not installed.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/json.hpp>
#include <attnx/sweep_io.hpp>

namespace attnx::sweep_check {

// Refuses the file: InvalidArgument("text", message).
[[noreturn]] void refuse(const std::string& message);

// A value for messages: nothing, null, true, 12.5, "text" (30 characters at most), an array.
std::string show(const JsonValue* v);

// How points are named in messages: "points[2]" + "." + "L" (JSON), "row 4" + ", " + "L" (CSV).
struct Names {
  std::vector<std::string> base;
  const char* sep = ".";
  std::string at(std::size_t i, const std::string& field) const { return base[i] + sep + field; }
};

// What the points are checked against (from params).
struct Rules {
  std::optional<double> delta;      // none: quantiles are taken as written (one of the d_mins)
  int d_hi = kMaxD;                 // largest d (params.d_max)
  std::optional<long long> trials;  // d_mins per point
};

// The points array (see parse_sweep in sweep_io.hpp for the rules); names has one entry per
// point. Medians are recomputed, quantiles too when delta is known.
std::vector<SweepRecordPoint> read_points(const JsonValue* points, const Rules& rules,
                                          const Names& names);

// The params object: known keys within the option table's ranges, delta required.
// Does not look at "Ls" beyond its type.
SweepRecordParams read_params(const JsonValue* params);

}  // namespace attnx::sweep_check
