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

std::string bounds_csv(const std::vector<FloorsAtL>& floors, double tau, bool has_scale, double scale) {
  std::string o = std::string(kBoundsCsvHead) + "\n";
  for (const FloorsAtL& f : floors)
    o += std::to_string(f.L) + "," + std::to_string(f.k) + "," + csv_cell(tau) + "," +
         (has_scale ? csv_cell(scale) : "NA") + "," + (has_scale ? std::to_string(f.column_supports) : "NA") + "," +
         (has_scale ? csv_cell(f.d_lambda) : "NA") + "," + csv_cell(f.bits_fixed_keys) + "," +
         csv_cell(f.bits_free_keys) + "," + csv_cell(f.bits_free_keys_regular) + "\n";
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
    if (has_scale) {
      w.field("column_supports", f.column_supports);
      w.field("d_lambda", f.d_lambda);
    }
    w.field("bits_fixed_keys", f.bits_fixed_keys);
    w.field("bits_free_keys", f.bits_free_keys);
    w.field("bits_free_keys_regular", f.bits_free_keys_regular);
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
