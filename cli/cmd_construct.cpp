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
#include <attnx/construction.hpp>
#include "sweep_parallel.hpp"

namespace attnx::cli {

namespace {

void write_params(JsonWriter& w, const Args& a, const PatternSpec& spec, const CheckedRequest& req, int d) {
  const Tolerances& tol = req->tol;
  const std::uint64_t seed = req->seed, max_bytes = req->mind.max_bytes;
  w.begin_object();
  write_pattern_params(w, a, spec, true);
  write_tolerances(w, tol);
  w.field("construction", req.kind().info.name);
  const ProjectionKind projection = projection_of(a);
  if (projection != ProjectionKind::Gaussian) w.field("projection", projection_name(projection));
  write_construction_params(w, a, req.kind().info);
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

// The construction's own summary (ConstructionInfo::report; lp: rows with a positive margin, the
// smallest margin, iterations), under its name; nothing when it has none.
void write_report(JsonWriter& w, const ConstructionInfo& c, const BuiltInputs& b) {
  if (b.report.empty()) return;
  w.key(c.name).begin_object();
  for (const ReportValue& v : b.report) {
    w.key(v.field.key);
    if (v.field.kind == ReportField::Kind::Flag) w.value(v.value != 0);
    else if (v.field.kind == ReportField::Kind::Count) w.value(static_cast<long long>(v.value));
    else w.value(v.value);
  }
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
void write_export(JsonWriter& w, const Args& a, const PatternSpec& spec, const CheckedRequest& req,
                  const Pattern& A, const BuiltInputs& b) {
  const Construction& c = b.c;
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
  write_params(w, a, spec, req, d);
  w.key("pattern");
  write_pattern_stats(w, A);
  w.key("metrics");
  write_metrics(w, c.metrics);
  write_report(w, req.kind().info, b);
  for (const RowValues& r : b.rows) {  // the rows the export carries (lp: its margins)
    if (r.export_key.empty()) continue;
    w.key(r.export_key).begin_array(true);
    for (double t : r.values) w.value(t);
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
  // moment: d's default (a given --d was refused)
  const CheckedRequest req = checked_request(a, Purpose::Build, [&](ConstructionRequest& r) {
    r.threads = rows_threads(a, r.construction);
  });
  const ConstructionRequest& rq = req.get();
  const std::string export_path = a.get_str("export");
  std::optional<OutputFile> file;  // a path that cannot be written is refused first
  if (!export_path.empty()) file.emplace(export_path, "--export");
  // The whole run's budget before the target is drawn.
  if (const int k = row_bound_before_drawing(spec); k > 0) check_request_budget(req, spec.L, k);
  Pattern A = build_pattern(a, spec, rq.seed);
  check_request_budget(req, A.L, A.k);
  if (file) check_export_size(export_path, A, req.kind().dimension(rq, A.k), rq.mind.max_bytes);
  const BuiltInputs built = build_inputs(A, req, {nullptr, nullptr, true, rows_on_threads(rq.threads)});
  const Construction& c = built.c;

  JsonWriter w;
  w.begin_object();
  w.field("command", "construct");
  w.field("version", ATTNX_VERSION);
  w.key("params");
  write_params(w, a, spec, req, c.d);  // moment: D = 2m
  w.key("pattern");
  write_pattern_stats(w, A);
  w.key("metrics");
  write_metrics(w, c.metrics);
  write_report(w, req.kind().info, built);
  if (built.precision) write_precision(w, *built.precision);
  write_bounds(w, c.bounds);
  if (!export_path.empty()) w.field("export", export_path);
  w.end_object();
  std::string out = w.finish();

  if (file) file->write([&](JsonWriter& ew) { write_export(ew, a, spec, req, A, built); });
  write_stdout(out);
  return 0;
}

}  // namespace attnx::cli
