// attnx CLI: `attnx bench` — the minimal-d search (paper preset) against a plain Eigen GEMM, each
// Gram kernel's rank-256 update against this core's floating-point peak (measured here too).
#include <Eigen/Core>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "commands.hpp"
#include <attnx/construction.hpp>
#include "common.hpp"
#include "cost.hpp"
#include <attnx/flops_peak.hpp>
#include <attnx/gram.hpp>
#include <attnx/memory.hpp>
#include <attnx/rng.hpp>
#include <attnx/schema.hpp>
#include <attnx/sweep.hpp>

#ifndef ATTNX_FLAVOUR
#define ATTNX_FLAVOUR "unknown"
#endif

namespace attnx::cli {

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// CPU seconds this thread has run: what the Gram kernels and the peak are timed with, so that
// time spent waiting for a core on a shared machine does not count.
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// One rank-n update of an L x L Gram matrix's lower triangle by one kernel (best of reps).
struct GramTiming {
  GramKernel kernel = GramKernel::Scalar;
  double seconds = 0;
};

// The single-core peak: fused multiply-add chains and separate multiply and add ones.
struct Peak {
  std::string fma_isa, mul_add_isa;
  double fma_gflops = 0, mul_add_gflops = 0;
};

struct BenchRow {
  int L = 0, trials = 0;
  std::vector<int> d_mins;
  double median = -1;
  double seconds = 0;  // total over trials (min_d only; pattern drawing excluded)
  std::uint64_t gram_madds = 0, check_madds = 0;
  int gemm_d = 0;
  double gemm_seconds = 0;  // best of reps
  int gram_n = 0;           // columns of the timed Gram updates
  std::vector<GramTiming> gram;  // every kernel that runs here, narrowest first
  double gram_gflops(const GramTiming& g) const {
    return g.seconds > 0 ? 2.0 * (L * (L + 1.0) / 2.0) * gram_n / g.seconds / 1e9 : 0;
  }
  double trial_gflops() const {
    return seconds > 0 ? 2.0 * static_cast<double>(gram_madds + check_madds) / seconds / 1e9 : 0;
  }
  double gemm_gflops() const {
    return gemm_seconds > 0 ? 2.0 * L * static_cast<double>(L) * gemm_d / gemm_seconds / 1e9 : 0;
  }
};

double time_gemm(int L, int d, int reps) {
  Eigen::MatrixXf P = Eigen::MatrixXf::Random(L, d);
  Eigen::MatrixXf G(L, L);
  G.noalias() = P * P.transpose();  // warm-up
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    auto t0 = Clock::now();
    G.noalias() = P * P.transpose();
    best = std::min(best, seconds_since(t0));
  }
  // Keep the result observable so the product is not optimised away.
  volatile float sink = G(L - 1, 0);
  (void)sink;
  return best;
}

double time_gram(GramKernel k, int L, int n, int reps) {
  const std::size_t l = static_cast<std::size_t>(L);
  std::vector<float> G(l * l, 0.0f), P(l * static_cast<std::size_t>(n));
  Rng rng(1);
  rng.fill_normal(P.data(), P.size());
  gram_update_lower_with(k, G.data(), L, P.data(), n);  // warm-up
  double best = 1e300;
  for (int r = 0; r < reps; ++r) {
    const double t0 = thread_cpu_seconds();
    gram_update_lower_with(k, G.data(), L, P.data(), n);
    best = std::min(best, thread_cpu_seconds() - t0);
  }
  volatile float sink = G[l - 1];
  (void)sink;
  return best;
}

// GFLOP/s of run_peak_chains: rounds doubled until a run takes 5 ms, then the best of 9 runs.
std::pair<std::string, double> measure_peak(bool fused) {
  long rounds = 1 << 12;
  double s = 0;
  PeakWork w;
  for (;;) {
    const double t0 = thread_cpu_seconds();
    w = run_peak_chains(fused, rounds);
    s = thread_cpu_seconds() - t0;
    if (s >= 0.005 || rounds >= (1L << 40)) break;
    rounds *= 2;
  }
  for (int r = 0; r < 9; ++r) {
    const double t0 = thread_cpu_seconds();
    w = run_peak_chains(fused, rounds);
    s = std::min(s, thread_cpu_seconds() - t0);
  }
  volatile float sink = w.sink;
  (void)sink;
  return {w.isa, w.flops / s / 1e9};
}

Peak measure_peaks() {
  Peak p;
  std::tie(p.fma_isa, p.fma_gflops) = measure_peak(true);
  std::tie(p.mul_add_isa, p.mul_add_gflops) = measure_peak(false);
  return p;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// The paper preset of the core's table (presets(), SPEC §5) as a min-d setting.
struct BenchSetup {
  PatternSpec spec;
  Tolerances tol;
  MinDOptions opt;
};

BenchSetup paper_setup(std::uint64_t max_bytes) {
  BenchSetup b;
  auto value = [](const char* option) { return preset_value("paper", option); };
  b.spec.family = parse_family(value("pattern"));
  b.spec.k = std::stoi(value("k"));
  b.spec.weights = parse_weights(value("weights"));
  b.tol.eps = std::stod(value("eps"));
  b.tol.tau = std::stod(value("tau"));
  b.tol.delta = std::stod(value("delta"));
  b.opt.step = std::stoi(value("step"));
  b.opt.d_max = std::stoi(value("dmax"));
  b.opt.max_bytes = max_bytes;
  return b;
}

// `trials` min-d trials at length L (seeds as the sweep derives them), then the GEMM timing.
BenchRow measure_row(BenchSetup b, int L, int trials, std::uint64_t seed, int reps) {
  BenchRow row;
  row.L = L;
  row.trials = trials;
  b.spec.L = L;
  for (int t = 0; t < trials; ++t) {
    const std::uint64_t s = trial_seed(seed, L, t);
    Rng rng(pattern_seed(s));
    Pattern A = make_pattern(b.spec, rng);
    auto t0 = Clock::now();
    ConstructionRequest q;
    q.tol = b.tol;
    q.mind = b.opt;
    q.seed = s;
    MinDResult r = min_d(A, check_request(q, Purpose::Search));
    row.seconds += seconds_since(t0);
    row.gram_madds += r.gram_madds;
    row.check_madds += r.check_madds;
    row.d_mins.push_back(r.d_min);
  }
  row.median = median_d(row.d_mins);
  row.gemm_d = row.median > 0 ? static_cast<int>(row.median + 0.5) : b.opt.d_max;
  row.gemm_seconds = time_gemm(L, row.gemm_d, reps);
  row.gram_n = mind_chunk_columns(b.opt.step);
  for (GramKernel k : gram_kernels_available())
    row.gram.push_back({k, time_gram(k, L, row.gram_n, reps)});
  return row;
}

const char* const kBenchNote =
    "trial GFLOP/s = 2 * (gram_madds + check_madds) / seconds, the multiply-adds the search "
    "actually did (Gram lower triangle, about L^2 d_min / 2, plus checks); GEMM GFLOP/s = "
    "2 * L * L * d / seconds for Eigen G = P P^T (P: L x d float, d = median d_min, best of "
    "gemm_reps); ratio = trial GFLOP/s / GEMM GFLOP/s; time_ratio = seconds per trial / GEMM "
    "seconds. Trial seconds include drawing the normals of P. gram GFLOP/s = 2 * L (L + 1) / 2 * n "
    "/ seconds for one rank-n update of the lower triangle of an L x L Gram matrix by each Gram "
    "kernel that runs here (n = the search's chunk of columns, best of gemm_reps); peak = "
    "independent fused multiply-add chains in registers on the widest vector instruction set "
    "this CPU runs, in this binary (best of 9), and the same with separate multiply and add "
    "(what the Gram kernels use, see the README); peak_fraction = gram GFLOP/s / FMA peak GFLOP/s. "
    "Gram and peak seconds are the thread's CPU time (waiting for a core is not counted); the "
    "others are wall-clock.";

// The timing of the kernel the search used (gram_kernel_best).
const GramTiming& used_gram(const BenchRow& r) {
  for (const auto& g : r.gram)
    if (g.kernel == gram_kernel_best()) return g;
  return r.gram.back();
}

std::string bench_csv(const std::vector<BenchRow>& rows, const Peak& peak,
                      const std::string& simd) {
  std::string o =
      "L,trials,d_min_median,seconds_per_trial,madds_per_trial,trial_gflops,gemm_d,"
      "gemm_seconds,gemm_gflops,ratio,time_ratio,flavour,gram_kernel,eigen_simd,"
      "gram_n,gram_gflops,peak_isa,peak_gflops,gram_peak_fraction\n";
  for (const auto& r : rows) {
    const double gram = r.gram_gflops(used_gram(r));
    o += std::to_string(r.L) + "," + std::to_string(r.trials) + "," +
         (r.median < 0 ? "NA" : json_number(r.median)) + "," +
         fmt("%.6g", r.seconds / r.trials) + "," +
         std::to_string((r.gram_madds + r.check_madds) / r.trials) + "," +
         fmt("%.4g", r.trial_gflops()) + "," + std::to_string(r.gemm_d) + "," +
         fmt("%.6g", r.gemm_seconds) + "," + fmt("%.4g", r.gemm_gflops()) + "," +
         fmt("%.3f", r.trial_gflops() / r.gemm_gflops()) + "," +
         fmt("%.3f", r.seconds / r.trials / r.gemm_seconds) + "," + ATTNX_FLAVOUR + "," +
         gram_kernel_name() + ",\"" + simd + "\"," + std::to_string(r.gram_n) + "," +
         fmt("%.4g", gram) + "," + peak.fma_isa + "," + fmt("%.4g", peak.fma_gflops) + "," +
         fmt("%.3f", gram / peak.fma_gflops) + "\n";
  }
  return o;
}

// The Gram table of the text output: GFLOP/s and % of the FMA peak per kernel and L.
std::string gram_text(const std::vector<BenchRow>& rows, const Peak& peak) {
  std::string o = "Gram update (rank " + std::to_string(rows.front().gram_n) +
                  ", lower triangle), GFLOP/s and % of the FMA peak; peak " + peak.fma_isa + " " +
                  fmt("%.1f", peak.fma_gflops) + " GFLOP/s, " + peak.mul_add_isa + " " +
                  fmt("%.1f", peak.mul_add_gflops) + " GFLOP/s (one core)\n";
  char cell[64];
  o += "      L";
  for (const auto& g : rows.front().gram) {
    std::snprintf(cell, sizeof cell, " %16s", gram_kernel_label(g.kernel));
    o += cell;
  }
  o += "\n";
  for (const auto& r : rows) {
    std::snprintf(cell, sizeof cell, "%7d", r.L);
    o += cell;
    for (const auto& g : r.gram) {
      const double gf = r.gram_gflops(g);
      std::snprintf(cell, sizeof cell, " %8.1f (%3.0f%%)", gf, 100 * gf / peak.fma_gflops);
      o += cell;
    }
    o += "\n";
  }
  return o;
}

std::string bench_text(const std::vector<BenchRow>& rows, const Peak& peak,
                       const std::string& simd, int trials) {
  std::string o = "attnx bench: " ATTNX_FLAVOUR ", gram kernel " + std::string(gram_kernel_name()) +
                  ", Eigen SIMD: " + simd + "\n";
  o += "paper preset (random k=2 uniform, eps=1, tau=0.1, step 16, dmax 4096), " +
       std::to_string(trials) + " trial(s) per L\n\n";
  char line[256];
  std::snprintf(line, sizeof line, "%7s %8s %11s %14s %12s %8s %11s %12s %7s %10s\n", "L",
                "d_min", "s/trial", "Mmadds/trial", "trial GF/s", "GEMM d", "GEMM s",
                "GEMM GF/s", "ratio", "time ratio");
  o += line;
  for (const auto& r : rows) {
    std::snprintf(line, sizeof line, "%7d %8s %11.4f %14.1f %12.2f %8d %11.4f %12.2f %7.3f %10.3f\n",
                  r.L, r.median < 0 ? "NA" : json_number(r.median).c_str(),
                  r.seconds / r.trials,
                  static_cast<double>(r.gram_madds + r.check_madds) / r.trials / 1e6,
                  r.trial_gflops(), r.gemm_d, r.gemm_seconds, r.gemm_gflops(),
                  r.trial_gflops() / r.gemm_gflops(), r.seconds / r.trials / r.gemm_seconds);
    o += line;
  }
  o += "\n" + gram_text(rows, peak);
  o += std::string("\n") + kBenchNote + "\n";
  return o;
}

void write_bench_params(JsonWriter& w, const BenchSetup& b, const Args& a) {
  w.key("params").begin_object();
  w.field("pattern", family_name(b.spec.family));
  w.field("k", b.spec.k);
  w.field("weights", weights_name(b.spec.weights));
  write_tolerances(w, b.tol);
  w.field("step", b.opt.step);
  w.field("d_max", b.opt.d_max);
  w.key("Ls").begin_array(true);
  for (int L : a.get_int_list("Ls")) w.value(L);
  w.end_array();
  w.field("trials", static_cast<int>(a.get_int("trials")));
  w.field("gemm_reps", static_cast<int>(a.get_int("gemm-reps")));
  w.field("seed", seed_of(a));
  w.field("max_bytes", b.opt.max_bytes);
  w.end_object();
}

// "gram": the timed rank-n updates of one L, every kernel, and the one the search used.
void write_bench_gram(JsonWriter& w, const BenchRow& r, const Peak& peak) {
  const double used = r.gram_gflops(used_gram(r));
  w.key("gram").begin_object();
  w.field("n", r.gram_n);
  w.field("madds", static_cast<std::uint64_t>(r.L) * (r.L + 1) / 2 * r.gram_n);
  w.field("kernel", gram_kernel_name());
  w.field("gflops", used);
  w.field("peak_fraction", used / peak.fma_gflops);
  w.key("kernels").begin_array();
  for (const auto& g : r.gram) {
    w.begin_object(true);
    w.field("kernel", gram_kernel_label(g.kernel));
    w.field("seconds", g.seconds);
    w.field("gflops", r.gram_gflops(g));
    w.field("peak_fraction", r.gram_gflops(g) / peak.fma_gflops);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_bench_row(JsonWriter& w, const BenchRow& r, const Peak& peak) {
  w.begin_object();
  w.field("L", r.L);
  w.key("d_mins").begin_array(true);
  for (int d : r.d_mins) w.value_or_null(d);
  w.end_array();
  if (r.median < 0) w.key("d_min_median").null(); else w.field("d_min_median", r.median);
  w.field("seconds_per_trial", r.seconds / r.trials);
  w.field("gram_madds_per_trial", (r.gram_madds) / r.trials);
  w.field("check_madds_per_trial", (r.check_madds) / r.trials);
  w.field("madds_per_trial", (r.gram_madds + r.check_madds) / r.trials);
  w.field("trial_gflops", r.trial_gflops());
  w.key("gemm").begin_object(true);
  w.field("d", r.gemm_d);
  w.field("seconds", r.gemm_seconds);
  w.field("madds", static_cast<std::uint64_t>(r.L) * r.L * r.gemm_d);
  w.field("gflops", r.gemm_gflops());
  w.end_object();
  w.field("ratio", r.trial_gflops() / r.gemm_gflops());
  w.field("time_ratio", r.seconds / r.trials / r.gemm_seconds);
  write_bench_gram(w, r, peak);
  w.end_object();
}

std::string bench_json(const std::vector<BenchRow>& rows, const Peak& peak,
                       const std::string& simd, const BenchSetup& b, const Args& a) {
  JsonWriter w;
  w.begin_object();
  w.field("command", "bench");
  w.field("version", ATTNX_VERSION);
  w.field("flavour", ATTNX_FLAVOUR);
  w.field("gram_kernel", gram_kernel_name());
  w.key("gram_kernels").begin_array(true);
  for (GramKernel k : gram_kernels_available()) w.value(gram_kernel_label(k));
  w.end_array();
  w.field("eigen_simd", simd);
  w.field("eigen_version", std::to_string(EIGEN_WORLD_VERSION) + "." +
                               std::to_string(EIGEN_MAJOR_VERSION) + "." +
                               std::to_string(EIGEN_MINOR_VERSION));
  w.field("compiler", __VERSION__);
  w.key("peak").begin_object(true);
  w.field("isa", peak.fma_isa);
  w.field("gflops", peak.fma_gflops);
  w.field("mul_add_isa", peak.mul_add_isa);
  w.field("mul_add_gflops", peak.mul_add_gflops);
  w.end_object();
  write_bench_params(w, b, a);
  w.key("results").begin_array();
  for (const auto& r : rows) write_bench_row(w, r, peak);
  w.end_array();
  w.field("note", kBenchNote);
  w.end_object();
  return w.finish();
}

}  // namespace

int run_bench(const Args& a) {
  const std::string format = a.get_str("format");
  const int trials = static_cast<int>(a.get_int("trials"));
  const BenchSetup b = paper_setup(max_bytes_of(a));
  if (a.get_switch("scaling")) {
    if (format == "csv") throw UsageError("--scaling prints json or text");
    refuse_given_with(a, "--scaling times one trial per L and no GEMM", {"trials", "gemm-reps"});
    SweepOptions opt;
    opt.pattern = b.spec;
    opt.tol = b.tol;
    opt.mind = b.opt;
    opt.Ls = a.given("Ls") ? a.get_int_list("Ls") : std::vector<int>{64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384};
    opt.trials = 1;
    opt.seed = seed_of(a);
    return run_bench_scaling(opt, format);
  }
  std::vector<BenchRow> rows;
  for (int L : a.get_int_list("Ls"))
    rows.push_back(measure_row(b, L, trials, seed_of(a), static_cast<int>(a.get_int("gemm-reps"))));
  const Peak peak = measure_peaks();
  const std::string simd = Eigen::SimdInstructionSetsInUse();
  if (format == "csv") write_stdout(bench_csv(rows, peak, simd));
  else if (format == "text") write_stdout(bench_text(rows, peak, simd, trials));
  else write_stdout(bench_json(rows, peak, simd, b, a));
  return 0;
}

}  // namespace attnx::cli
