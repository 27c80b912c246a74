// attnx CLI: `attnx construct` and its --export file.
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "commands.hpp"
#include "common.hpp"

namespace attnx::cli {

namespace {

void write_params(JsonWriter& w, const Args& a, const PatternSpec& spec, const Tolerances& tol,
                  int d, std::uint64_t seed, std::uint64_t max_bytes) {
  w.begin_object();
  write_pattern_params(w, a, spec, true);
  write_tolerances(w, tol);
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

// The export: everything needed to recompute M in NumPy.
void write_export(const std::string& path, const Args& a, const PatternSpec& spec,
                  const Tolerances& tol, std::uint64_t seed, std::uint64_t max_bytes,
                  const Pattern& A, const Construction& c) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw UsageError("cannot write --export " + path + ": " + std::strerror(errno));
  const int L = c.L, d = c.d;
  JsonWriter w(
      [f](const std::string& s) { return std::fwrite(s.data(), 1, s.size(), f) == s.size(); });
  w.begin_object();
  w.field("format", "attnx-construct-export/1");
  w.field("about",
          "M = softmax_rows((X W_Q) (X W_K)^T / sqrt(d)) with a max-subtracted softmax; "
          "A is the target as [i, j, a] triplets (0-based, rows sum to 1); X is L x 2d float32 "
          "= [sqrt(d) B P, P]; W_Q = [I_d; 0], W_K = [0; I_d] are 2d x d.");
  w.field("version", ATTNX_VERSION);
  w.field("L", L);
  w.field("d", d);
  w.key("params");
  write_params(w, a, spec, tol, d, seed, max_bytes);
  w.key("pattern");
  write_pattern_stats(w, A);
  w.key("metrics");
  write_metrics(w, c.metrics);
  w.key("A").begin_array();
  for (int i = 0; i < L; ++i)
    for (int p = A.row_begin(i); p < A.row_end(i); ++p)
      w.begin_array(true).value(i).value(A.col[p]).value(A.val[p]).end_array();
  w.end_array();
  w.key("X").begin_array();
  for (int i = 0; i < L; ++i) {
    w.begin_array(true);
    const float* row = c.X.data() + static_cast<std::size_t>(i) * 2 * d;
    for (int j = 0; j < 2 * d; ++j) w.value_f(row[j]);
    w.end_array();
  }
  w.end_array();
  for (int which = 0; which < 2; ++which) {
    w.key(which == 0 ? "W_Q" : "W_K").begin_array();
    for (int r = 0; r < 2 * d; ++r) {
      w.begin_array(true);
      const int one = which == 0 ? r : r - d;  // W_Q = [I; 0], W_K = [0; I]
      for (int col = 0; col < d; ++col) w.value(col == one ? 1 : 0);
      w.end_array();
    }
    w.end_array();
  }
  w.end_object();
  std::string tail = w.finish();
  bool ok = w.flush() && std::fwrite(tail.data(), 1, tail.size(), f) == tail.size();
  ok = (std::fclose(f) == 0) && ok;
  if (!ok) throw UsageError("cannot write --export " + path + ": write failed");
}

}  // namespace

int run_construct(const Args& a) {
  a.get_str("format");
  PatternSpec spec = pattern_spec(a, true);
  const Tolerances tol = tolerances(a);
  const int d = static_cast<int>(a.get_int("d"));
  const std::uint64_t seed = seed_of(a), max_bytes = max_bytes_of(a);
  const std::string export_path = a.get_str("export");

  Pattern A = build_pattern(a, spec, seed);
  Construction c = construct(A, tol, d, seed, max_bytes);

  JsonWriter w;
  w.begin_object();
  w.field("command", "construct");
  w.field("version", ATTNX_VERSION);
  w.key("params");
  write_params(w, a, spec, tol, d, seed, max_bytes);
  w.key("pattern");
  write_pattern_stats(w, A);
  w.key("metrics");
  write_metrics(w, c.metrics);
  if (!export_path.empty()) w.field("export", export_path);
  w.end_object();
  std::string out = w.finish();

  if (!export_path.empty()) write_export(export_path, a, spec, tol, seed, max_bytes, A, c);
  write_stdout(out);
  return 0;
}

}  // namespace attnx::cli
