// attnx core (internal): the checks parse_sweep applies to a sweep file's "params" and
// "points", shared by its JSON and CSV readers (core/sweep_read.cpp), and the typed readers of
// option values that the part reader (core/sweep_part_read.cpp) uses too. Not installed.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/json.hpp>
#include <attnx/schema.hpp>
#include <attnx/sweep_io.hpp>

namespace attnx::sweep_check {

// Refuses the file: InvalidArgument("text", message).
[[noreturn]] void refuse(const std::string& message);

// A value for messages: nothing, null, true, 12.5, "text" (30 characters at most), an array.
std::string show(const JsonValue* v);

// Whether v is a number with an integer value in [lo, hi].
bool is_int(const JsonValue* v, double lo, double hi);

// The option of the table whose JSON key is `key` ("w_min", "d_max").
const OptionInfo& option_by_json(const std::string& key);

// Member `key` of object p (absent: nothing) as a number within its option's range (an integer
// for an Int option; lo_override: a larger lower bound). Refused as "<path>.<key> must be <the
// option's range> (got <value>)".
std::optional<double> option_number(const JsonValue& p, const std::string& path,
                                    const std::string& key,
                                    std::optional<double> lo_override = std::nullopt);
// Member `key` of p (absent: nothing) as one of its Choice option's choices, refused likewise.
std::optional<std::string> option_choice(const JsonValue& p, const std::string& path,
                                         const std::string& key);

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

// SPEC §9's bounds of point i (sweep_io.hpp) into p, when q has any of their keys: the per-trial
// lists as many as p.d_mins (null where d_min is null), column_supports an integer in [1, p.L], the
// others numbers >= 0; null or absent: unknown. Refusals name n.at(i, key).
void read_bounds(const JsonValue& q, SweepRecordPoint& p, const Names& n, std::size_t i);

// The params object: known keys within the option table's ranges, delta required.
// Does not look at "Ls" beyond its type.
SweepRecordParams read_params(const JsonValue* params);

}  // namespace attnx::sweep_check
