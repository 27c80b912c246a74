// attnx CLI: `attnx bounds` (SPEC §9's floors alone, for lengths L, sparsity k, tolerance tau and,
// when given, a logit scale).
#include <string>
#include <vector>

#include "commands.hpp"
#include "common.hpp"
#include <attnx/bounds.hpp>
#include <attnx/json.hpp>

namespace attnx::cli {

namespace {

// The CSV columns of `attnx bounds --format csv`; the packing floor's are NA without --scale.
const char* const kBoundsCsvHead =
    "L,k,tau,scale,column_supports,d_lambda,bits_fixed_keys,bits_free_keys,bits_free_keys_regular";

std::string csv_cell(double v) { return json_number(v) == "null" ? "NA" : json_number(v); }

// One floor at a length: its key (a column of kBoundsCsvHead), its value, and whether it is the
// packing floor's (SPEC §9.2), which is there only with --scale.
struct Floor {
  const char* key;
  double value;
  bool packing;
};

// The floors at one length, in kBoundsCsvHead's order: one list for the JSON and the CSV.
// column_supports (at most kMaxL) as a double is written with the same digits as the int.
std::vector<Floor> floors_of(const FloorsAtL& f) {
  return {{"column_supports", double(f.column_supports), true},
          {"d_lambda", f.d_lambda, true},
          {"bits_fixed_keys", f.bits_fixed_keys, false},
          {"bits_free_keys", f.bits_free_keys, false},
          {"bits_free_keys_regular", f.bits_free_keys_regular, false}};
}

std::string bounds_csv(const std::vector<FloorsAtL>& floors, double tau, bool has_scale, double scale) {
  std::string o = std::string(kBoundsCsvHead) + "\n";
  for (const FloorsAtL& f : floors) {
    o += std::to_string(f.L) + "," + std::to_string(f.k) + "," + csv_cell(tau) + "," +
         (has_scale ? csv_cell(scale) : "NA");
    for (const Floor& x : floors_of(f)) o += "," + (has_scale || !x.packing ? csv_cell(x.value) : "NA");
    o += "\n";
  }
  return o;
}

std::string bounds_json(const std::vector<FloorsAtL>& floors, double tau, bool has_scale, double scale) {
  JsonWriter w;
  w.begin_object();
  w.field("command", "bounds");
  w.field("version", ATTNX_VERSION);
  w.key("params").begin_object();
  w.key("Ls").begin_array(true);
  for (const FloorsAtL& f : floors) w.value(f.L);
  w.end_array();
  w.field("k", floors.front().k);
  w.field("tau", tau);
  if (has_scale) w.field("scale", scale);
  w.end_object();
  w.key("points").begin_array();
  for (const FloorsAtL& f : floors) {
    w.begin_object();
    w.field("L", f.L);
    for (const Floor& x : floors_of(f))
      if (has_scale || !x.packing) w.field(x.key, x.value);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.finish();
}

}  // namespace

int run_bounds(const Args& a) {
  const std::string format = a.get_str("format");
  if (a.given("L") && a.given("Ls")) throw UsageError("give --L or --Ls, not both");
  const std::vector<int> Ls = a.given("Ls") ? a.get_int_list("Ls") : std::vector<int>{int(a.get_int("L"))};
  const int k = static_cast<int>(a.get_int("k"));
  const double tau = a.get_real("tau");
  const bool has_scale = a.given("scale");
  const double scale = has_scale ? a.get_real("scale") : 0;
  std::vector<FloorsAtL> floors;
  for (int L : Ls) floors.push_back(floors_at(L, k, tau, has_scale, scale));
  write_stdout(format == "csv" ? bounds_csv(floors, tau, has_scale, scale)
                               : bounds_json(floors, tau, has_scale, scale));
  return 0;
}

}  // namespace attnx::cli
