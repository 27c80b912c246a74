// attnx CLI: flag tables of every subcommand (defaults, ranges, help).
#include <limits>

#include "commands.hpp"
#include <attnx/construct.hpp>
#include <attnx/pattern.hpp>
#include <attnx/sweep.hpp>

namespace attnx::cli {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

void add_pattern_flags(std::vector<Flag>& v, bool single_L) {
  const PatternSpec d;  // core defaults
  const std::string g = "Pattern (target A)";
  std::vector<std::string> names = {"random", "permutation", "window", "causal", "dilated",
                                    "block",  "strided",     "bigbird"};
  if (single_L) names.push_back("custom");
  v.push_back(choice_flag("pattern", "random", names, "pattern family", g));
  if (!single_L)
    v.back().refused.push_back({"custom", "cannot be swept over L (choose a generated family)"});
  if (single_L)
    v.push_back(int_flag("L", d.L, kMinL, kMaxL,
                         "sequence length (optional with custom when the file gives L)", g));
  v.push_back(int_flag("k", d.k, 1, kMaxL, "random: nonzeros per row and column", g, "at most L"));
  v.push_back(int_flag("w", d.w, 0, kMaxL,
                       "window/causal/dilated/bigbird: half-width (causal: width back)", g,
                       "at most L-1"));
  v.push_back(int_flag("r", d.r, 1, kMaxL, "dilated: dilation", g, "at most L-1"));
  v.push_back(int_flag("block", d.block, 1, kMaxL, "block: block size", g, "at most L"));
  v.push_back(int_flag("stride", d.stride, 1, kMaxL, "strided: stride (block length)", g,
                       "at most L"));
  v.push_back(int_flag("globals", d.globals, 0, kMaxL, "bigbird: global tokens 0..globals-1", g,
                       "at most L"));
  v.push_back(int_flag("randoms", d.randoms, 0, kMaxL, "bigbird: random columns per row", g,
                       "at most L-1"));
  v.push_back(choice_flag("weights", "uniform", {"uniform", "random", "decaying"},
                          "weights on the support (not for custom)", g));
  v.push_back(real_flag("w-min", d.w_min, 0, 1, true, false,
                        "random weights: uniform in [w-min, 1], then normalised", g));
  v.push_back(real_flag("decay", d.decay, 0, 10, false, false,
                        "decaying weights: A_ij ~ (1+|i-j|)^-decay", g));
  if (single_L)
    v.push_back(text_flag("pattern-file",
                          "custom: JSON {\"L\": n, \"triplets\": [[i,j,w],...]} or a bare "
                          "[[i,j,w],...] with --L (0-based; rows are normalised)",
                          g));
}

void add_tolerance_flags(std::vector<Flag>& v) {
  const Tolerances t;
  const std::string g = "Tolerances";
  v.push_back(real_flag("eps", t.eps, 0, kInf, true, false,
                        "(R) bound on the log-ratio error rho", g));
  v.push_back(real_flag("tau", t.tau, 0, 1, true, true, "(Z) bound on the zero ratio zeta", g));
  v.push_back(real_flag("delta", t.delta, 0, 1, true, true,
                        "failure probability used by d* (and the sweep quantile 1-delta)", g));
}

void add_mind_flags(std::vector<Flag>& v) {
  const MinDOptions m;
  const std::string g = "Minimal-d search";
  v.push_back(int_flag("step", m.step, 1, kMaxD, "grid step of d", g, "at most --dmax"));
  v.push_back(int_flag("dmax", m.d_max, 1, kMaxD, "largest d tried", g, "at least --step"));
}

void add_run_flags(std::vector<Flag>& v, long long seed_def) {
  const std::string g = "Run";
  v.push_back(int_flag("seed", seed_def, 0, kMaxSeed, "master seed", g));
  v.push_back(int_flag("max-bytes", static_cast<long long>(kCliDefaultMaxBytes), 1 << 20,
                       1LL << 50, "memory budget in bytes; larger runs are refused", g));
}

std::vector<Command> make_commands() {
  std::vector<Command> cs;
  {
    Command c;
    c.def.name = "construct";
    c.def.summary = "build X for one target A and report the metrics of M";
    c.def.details =
        "Draws the pattern from the seed (or reads --pattern-file), builds X = [sqrt(d) B P, P]\n"
        "with the fixed W_Q = [I; 0], W_K = [0; I] and prints rho, zeta, lambda, success,\n"
        "beta and d* (JSON). --export writes A, X, W_Q, W_K and the metrics to a JSON file.";
    add_pattern_flags(c.def.flags, true);
    add_tolerance_flags(c.def.flags);
    c.def.flags.push_back(int_flag("d", 512, 1, kMaxD, "hidden size", "Construction"));
    c.def.flags.push_back(text_flag("export", "write parameters, A, X, W_Q, W_K, metrics to FILE",
                                    "Construction"));
    add_run_flags(c.def.flags, 1);
    c.def.flags.push_back(choice_flag("format", "json", {"json"}, "output format", "Output"));
    c.run = run_construct;
    cs.push_back(c);
  }
  {
    Command c;
    c.def.name = "mind";
    c.def.summary = "smallest d on the grid {step, 2 step, ..., dmax} at which the construction succeeds";
    c.def.details =
        "One target, one projection with nested columns (SPEC section 4). d_min is null when\n"
        "not reached (d_min > dmax); that is a result, exit status 0.";
    add_pattern_flags(c.def.flags, true);
    add_tolerance_flags(c.def.flags);
    add_mind_flags(c.def.flags);
    add_run_flags(c.def.flags, 1);
    c.def.flags.push_back(switch_flag("progress", "print progress to stderr", "Output"));
    c.def.flags.push_back(choice_flag("format", "json", {"json"}, "output format", "Output"));
    c.run = run_mind;
    cs.push_back(c);
  }
  {
    Command c;
    c.def.name = "sweep";
    c.def.summary = "scaling experiment: d_min versus L over many trials, with fits";
    c.def.details =
        "For each L and trial t a fresh pattern and projection are drawn from seeds derived\n"
        "from (seed, L, t). Reports every d_min, the median, the (1-delta)-quantile, d*, and\n"
        "fits of the quantile to d = a + b ln L and d = c L^p. Paper preset: the defaults\n"
        "(random, k=2, uniform, eps=1, tau=0.1, delta=0.1, step 16).";
    add_pattern_flags(c.def.flags, false);
    add_tolerance_flags(c.def.flags);
    add_mind_flags(c.def.flags);
    c.def.flags.push_back(list_flag("Ls", "64,128,256,512", kMinL, kMaxL, "sequence lengths",
                                    "Sweep"));
    c.def.flags.push_back(int_flag("trials", 10, 1, kMaxTrials, "trials per L", "Sweep"));
    add_run_flags(c.def.flags, 1);
    c.def.flags.push_back(switch_flag("progress", "print progress to stderr", "Output"));
    c.def.flags.push_back(choice_flag("format", "json", {"json", "csv"}, "output format", "Output"));
    c.run = run_sweep;
    cs.push_back(c);
  }
  {
    Command c;
    c.def.name = "bench";
    c.def.summary = "time the minimal-d search (paper preset) against a plain Eigen GEMM";
    c.def.details =
        "Paper preset: random pattern, k=2, uniform weights, eps=1, tau=0.1, delta=0.1, step 16,\n"
        "dmax 4096. For each L: seconds per min-d trial, multiply-adds done (gram + checks),\n"
        "GFLOP/s (2 madds / s), and GFLOP/s of Eigen G = P P^T (P: L x d_min float, best of\n"
        "--gemm-reps; counts L*L*d_min madds). Output includes timings, so it is not\n"
        "reproducible byte for byte.";
    c.def.flags.push_back(list_flag("Ls", "256,1024,2048", kMinL, kMaxL, "sequence lengths",
                                    "Bench"));
    c.def.flags.push_back(int_flag("trials", 3, 1, kMaxTrials, "min-d trials per L", "Bench"));
    c.def.flags.push_back(int_flag("gemm-reps", 5, 1, 1000, "GEMM repetitions (best is kept)",
                                   "Bench"));
    add_run_flags(c.def.flags, 1);
    c.def.flags.push_back(choice_flag("format", "json", {"json", "csv", "text"}, "output format",
                                      "Output"));
    c.run = run_bench;
    cs.push_back(c);
  }
  return cs;
}
}  // namespace

const std::vector<Command>& commands() {
  static const std::vector<Command> cs = make_commands();
  return cs;
}

const Command* find_command(const std::string& name) {
  for (const auto& c : commands())
    if (c.def.name == name) return &c;
  return nullptr;
}

}  // namespace attnx::cli
