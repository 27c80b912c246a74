// attnx CLI: `attnx construct` and its --export file (README "Export file").
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <optional>
#include <string>

#include "commands.hpp"
#include "common.hpp"
#include "files.hpp"
#include <attnx/build_inputs.hpp>
#include "sweep_parallel.hpp"

namespace attnx::cli {

namespace {

void write_params(JsonWriter& w, const Args& a, const PatternSpec& spec, const Tolerances& tol,
                  int d, std::uint64_t seed, std::uint64_t max_bytes) {
  w.begin_object();
  write_pattern_params(w, a, spec, true);
  write_tolerances(w, tol);
  w.field("construction", a.get_str("construction"));
  const ProjectionKind projection = projection_of(a);
  if (projection != ProjectionKind::Gaussian) w.field("projection", projection_name(projection));
  if (a.get_str("construction") == "lp") w.field("box", a.get_real("box"));
  w.field("d", d);
  w.field("seed", seed);
  w.field("max_bytes", max_bytes);
  w.end_object();
}

void write_metrics(JsonWriter& w, const Metrics& m) {
  w.begin_object();
  w.field("rho", m.rho);
  w.field("zeta", m.zeta);
  w.field("lambda", m.lambda);
  w.field("success", m.success);
  w.field("beta", m.beta);
  w.field("d_star", m.d_star);
  w.end_object();
}

// The LP's summary (SPEC §8.2): rows with a positive margin, the smallest margin, iterations.
void write_lp_report(JsonWriter& w, const LpReport& r) {
  double t_min = r.margin.empty() ? 0 : r.margin[0];
  int it_max = 0;
  double it_sum = 0;
  for (std::size_t i = 0; i < r.margin.size(); ++i) {
    t_min = std::min(t_min, r.margin[i]);
    it_max = std::max(it_max, r.iterations[i]);
    it_sum += r.iterations[i];
  }
  w.key("lp").begin_object();
  w.field("feasible_rows", r.feasible_rows);
  w.field("margin_min", t_min);
  w.field("iterations_mean", r.margin.empty() ? 0.0 : it_sum / double(r.margin.size()));
  w.field("iterations_max", it_max);
  w.field("converged", r.all_converged);
  w.end_object();
}


// Upper bound of the export's size: X's 2d floats per row, each written as the shortest double
// text of its exact value, at most 26 bytes with its separator ("-1.1754943508222875e-38, "), an
// entry of A at most 48 bytes, the rest at most 64 KiB.
std::uint64_t export_bytes_bound(const Pattern& A, int d) {
  const std::uint64_t L = static_cast<std::uint64_t>(A.L), dd = static_cast<std::uint64_t>(d);
  return L * (2 * dd * 26 + 16) + static_cast<std::uint64_t>(A.nnz()) * 48 + (64u << 10);
}

void check_export_size(const std::string& path, const Pattern& A, int d,
                       std::uint64_t max_bytes) {
  const std::uint64_t bytes = export_bytes_bound(A, d);
  if (bytes <= max_bytes) return;
  auto mib = [](std::uint64_t b) { return std::to_string((b + (1u << 20) - 1) >> 20); };
  throw UsageError("--export " + path + " would be up to " + mib(bytes) +
                   " MiB, above the memory budget of " + mib(max_bytes) +
                   " MiB (--max-bytes); lower --L or --d, or raise --max-bytes");
}

// W_Q = [I_d; 0] (offset 0) or W_K = [0; I_d] (offset d), 2d x d, written compactly.
void write_weights(JsonWriter& w, const char* name, int d, int offset) {
  w.key(name).begin_object(true);
  w.field("rows", 2 * d);
  w.field("cols", d);
  w.field("identity_row_offset", offset);
  w.end_object();
}

// The export: everything needed to recompute M in NumPy (README "Export file").
void write_export(JsonWriter& w, const Args& a, const PatternSpec& spec, const Tolerances& tol,
                  std::uint64_t seed, std::uint64_t max_bytes, const Pattern& A,
                  const Construction& c, const LpReport* lp) {
  const int L = c.L, d = c.d;
  w.begin_object();
  w.field("format", "attnx-construct-export/2");
  w.field("about",
          "M = softmax_rows((X W_Q) (X W_K)^T / sqrt(d)) with a max-subtracted softmax; "
          "A is the target as [i, j, a] triplets (0-based, rows sum to 1); X is L x 2d float32 "
          "= [Q, K]: [sqrt(d) B P, P] for jl, [sqrt(d) q_i, P] with row i's LP query q_i for lp, Chebyshev "
          "coefficients and values for moment; each float32 entry is written as the decimal of its "
          "exact value, so a float64 reader gets the float exactly; W_Q = [I_d; 0], W_K = [0; I_d] are 2d x d, written as {rows, "
          "cols, identity_row_offset}: W[r][c] = 1 if r = c + identity_row_offset, else 0.");
  w.field("version", ATTNX_VERSION);
  w.field("L", L);
  w.field("d", d);
  w.key("params");
  write_params(w, a, spec, tol, d, seed, max_bytes);
  w.key("pattern");
  write_pattern_stats(w, A);
  w.key("metrics");
  write_metrics(w, c.metrics);
  if (lp) {
    write_lp_report(w, *lp);
    w.key("margins").begin_array(true);
    for (double t : lp->margin) w.value(t);
    w.end_array();
  }
  w.key("A").begin_array();
  for (int i = 0; i < L; ++i)
    for (int p = A.row_begin(i); p < A.row_end(i); ++p)
      w.begin_array(true).value(i).value(A.col[p]).value(A.val[p]).end_array();
  w.end_array();
  w.key("X").begin_array();
  for (int i = 0; i < L; ++i) {
    w.begin_array(true);
    const float* row = c.X.data() + static_cast<std::size_t>(i) * 2 * d;
    for (int j = 0; j < 2 * d; ++j) w.value(double(row[j]));  // the float's exact value, read back exactly as a double
    w.end_array();
  }
  w.end_array();
  write_weights(w, "W_Q", d, 0);
  write_weights(w, "W_K", d, d);
  w.end_object();
}

}  // namespace

int run_construct(const Args& a) {
  a.get_str("format");
  PatternSpec spec = pattern_spec(a, true);
  const Tolerances tol = tolerances(a);
  InputsRequest req;
  req.construction = a.get_str("construction");
  req.d = static_cast<int>(a.get_int("d"));  // moment: its default (a given --d was refused)
  req.projection = projection_of(a);
  req.seed = seed_of(a);
  req.max_bytes = max_bytes_of(a);
  req.box = a.get_real("box");
  req.jl_precision = a.get_switch("precision");
  const int threads = rows_threads(a, req.construction);
  const std::string export_path = a.get_str("export");
  if (req.construction == "lp") require_lp_d("d", req.d);  // lp's limit before its budget
  std::optional<OutputFile> file;  // a path that cannot be written is refused first
  if (!export_path.empty()) file.emplace(export_path, "--export");
  // The whole run's budget before the target is drawn.
  if (const int k = row_bound_before_drawing(spec); k > 0)
    check_inputs_budget(req.construction, spec.L, k, req.d, req.jl_precision, req.max_bytes, threads);
  Pattern A = build_pattern(a, spec, req.seed);
  check_inputs_budget(req.construction, A.L, A.k, req.d, req.jl_precision, req.max_bytes, threads);
  const int D = req.construction == "moment" ? 2 * A.k : req.d;  // the export's width
  if (file) check_export_size(export_path, A, D, req.max_bytes);
  const bool lp = req.construction == "lp";
  const BuiltInputs built = build_inputs(A, tol, req, nullptr, nullptr, true, lp ? rows_on_threads(threads) : nullptr);
  const Construction& c = built.c;

  JsonWriter w;
  w.begin_object();
  w.field("command", "construct");
  w.field("version", ATTNX_VERSION);
  w.key("params");
  write_params(w, a, spec, tol, c.d, req.seed, req.max_bytes);  // moment: D = 2m
  w.key("pattern");
  write_pattern_stats(w, A);
  w.key("metrics");
  write_metrics(w, c.metrics);
  if (built.lp) write_lp_report(w, *built.lp);
  if (built.precision) write_precision(w, *built.precision);
  write_bounds(w, c.bounds);
  if (!export_path.empty()) w.field("export", export_path);
  w.end_object();
  std::string out = w.finish();

  if (file)
    file->write([&](JsonWriter& ew) {
      write_export(ew, a, spec, tol, req.seed, req.max_bytes, A, c, built.lp ? &*built.lp : nullptr);
    });
  write_stdout(out);
  return 0;
}

}  // namespace attnx::cli
