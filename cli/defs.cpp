// attnx CLI: flag tables of every subcommand (defaults, ranges, help).
#include <algorithm>
#include <limits>

#include "commands.hpp"
#include <attnx/bounds.hpp>
#include <attnx/construction.hpp>
#include <attnx/construct.hpp>
#include <attnx/head_survey.hpp>
#include <attnx/pattern.hpp>
#include <attnx/schema.hpp>
#include <attnx/sweep.hpp>

namespace attnx::cli {

namespace {

// The CLI flag of a core option (schema.hpp): name, kind, range and default come from the table;
// the default is the CLI's (context "cli"). range_note: a bound the table gives as an expression.
Flag option_flag(const std::string& option, const std::string& group,
                 const std::string& range_note = "") {
  const OptionInfo& o = option_info(option);
  const std::string def = context_default("cli", option);
  switch (o.kind) {
    case OptionKind::Int:
      return int_flag(o.flag, std::stoll(def), static_cast<long long>(o.min),
                      static_cast<long long>(context_max("cli", option)), o.help, group,
                      range_note);
    case OptionKind::Real:
      return real_flag(o.flag, o.def, o.min, o.max, o.min_open, o.max_open, o.help, group);
    case OptionKind::Choice:
      return choice_flag(o.flag, def, o.choices, o.help, group);
    case OptionKind::IntList:
      return list_flag(o.flag, def, static_cast<long long>(o.min), static_cast<long long>(o.max),
                       o.help, group);
    case OptionKind::Text: {
      Flag f = text_flag(o.flag, o.help, group);
      f.def = def;
      return f;
    }
    case OptionKind::Switch:
      return switch_flag(o.flag, o.help, group);
    case OptionKind::RealList:
      return real_list_flag(o.flag, def, o.min, o.max, o.min_open, o.help, group);
  }
  return text_flag(o.flag, o.help, group);
}

// What the constructions change of option `name` for the CLI: "lp: default 1, at most 256"
// (their own default where it differs, their own d_max for d and dmax), "" when none do.
std::string construction_note(const std::string& name) {
  std::string out;
  const std::string base = context_default("cli", name);
  const long long top = context_max("cli", name);
  for (const ConstructionInfo& c : construction_infos()) {
    const std::string def = construction_default("cli", name, c.name);
    if (def.empty()) continue;
    std::string own = def != base ? "default " + def : "";
    if ((name == "d" || name == "dmax") && c.d_max > 0 && c.d_max < top)
      own += (own.empty() ? "" : ", ") + std::string("at most ") + std::to_string(c.d_max);
    if (!own.empty()) out += (out.empty() ? "" : "; ") + ("with --construction " + c.name + ": " + own);
  }
  return out;
}

// option_flag with the constructions' own defaults and limits in its help (not in its range:
// a refusal names the range of the construction given, see applies.cpp).
Flag construction_option_flag(const std::string& option, const std::string& group, const std::string& range_note = "") {
  Flag f = option_flag(option, group, range_note);
  f.help_note = construction_note(option);
  return f;
}

// A command: its name, what runs it, its one-line summary and --help details; flags are added after.
Command command(const char* name, int (*run)(const Args&), const char* summary, std::string details) {
  Command c;
  c.def.name = name;
  c.def.summary = summary;
  c.def.details = std::move(details);
  c.run = run;
  return c;
}

// --format in the Output group: json (the default) or one of `choices`.
Flag format_flag(std::vector<std::string> choices, const std::string& help = "output format") {
  return choice_flag("format", "json", std::move(choices), help, "Output");
}

// --report of sweep and merge (JSON only): the numbers the lab shows beside the sweep.
Flag report_flag() {
  return switch_flag("report", "add a \"report\" to the JSON: the bootstrap comparison of the fits and its "
                     "reading, every length's success curve and the plots' axes, as the lab shows them",
                     "Output");
}

void add_pattern_flags(std::vector<Flag>& v, bool single_L) {
  const std::string g = "Pattern (target A)";
  v.push_back(option_flag("pattern", g));
  if (!single_L) {
    auto& c = v.back().choices;
    c.erase(std::remove(c.begin(), c.end(), std::string("custom")), c.end());
    v.back().refused.push_back({"custom", "cannot be swept over L (choose a generated family)"});
  }
  if (single_L) {
    v.push_back(option_flag("L", g));
    v.back().help += " (optional with custom when the file gives L)";
  }
  for (const char* p : {"k", "w", "r", "block", "stride", "globals", "randoms"}) {
    std::string note;  // the family's bound, from the family table
    for (const auto& f : pattern_families())
      for (const auto& q : f.params)
        if (q.name == p && note.empty()) note = "at most " + q.max_expr;
    v.push_back(option_flag(p, g, note));
  }
  v.push_back(option_flag("weights", g));
  v.push_back(option_flag("wMin", g));
  v.push_back(option_flag("decay", g));
  if (single_L)
    v.push_back(text_flag("pattern-file",
                          "custom: JSON {\"L\": n, \"triplets\": [[i,j,w],...]}, a bare "
                          "[[i,j,w],...] or lines i,j,w (0-based; rows are normalised)",
                          g));
}

// The target A (pattern flags) and the tolerances that decide success on it (eps, tau, delta):
// the first flags of construct, mind and sweep.
void add_target_flags(std::vector<Flag>& v, bool single_L) {
  add_pattern_flags(v, single_L);
  for (const char* t : {"eps", "tau", "delta"}) v.push_back(option_flag(t, "Tolerances"));
}

void add_mind_flags(std::vector<Flag>& v) {
  const std::string g = "Minimal-d search";
  v.push_back(construction_option_flag("step", g, "at most --dmax"));
  v.push_back(construction_option_flag("dmax", g, "at least --step"));
}

void add_construction_flags(std::vector<Flag>& v) {
  v.push_back(option_flag("construction", "Construction"));
  v.push_back(option_flag("projection", "Construction"));
  v.push_back(option_flag("box", "Construction"));
  v.push_back(option_flag("budget", "Construction"));
  v.push_back(option_flag("threads", "Construction"));
  v.back().help = "lp: threads solving the rows' LPs (0: one per core); the output does not depend on it";
}

void add_run_flags(std::vector<Flag>& v) {
  v.push_back(option_flag("seed", "Run"));
  v.push_back(option_flag("maxBytes", "Run"));
}

Command construct_command() {
  Command c = command("construct", run_construct, "build X for one target A and report the metrics of M",
                      "Draws the pattern from the seed (or reads --pattern-file), builds X = [sqrt(d) B P, P]\n"
                      "with the fixed W_Q = [I; 0], W_K = [0; I] and prints rho, zeta, lambda, success,\n"
                      "beta and d* (JSON). --export writes A, X, W_Q, W_K and the metrics to a JSON file.\n"
                      "\"bounds\": SPEC section 9's floors at the X built (its logit scale, the packing floor\n"
                      "there and D / floor, the bits floors; see attnx bounds --help for each key).");
  add_target_flags(c.def.flags, true);
  c.def.flags.push_back(construction_option_flag("d", "Construction"));
  add_construction_flags(c.def.flags);
  c.def.flags.push_back(switch_flag("precision", "add SPEC 8.4's precision report for jl (input norm, float32 and float64 "
                                    "verdicts, bits(X)); lp and moment always report it", "Construction"));
  c.def.flags.push_back(text_flag("export", "write parameters, A, X, W_Q, W_K, metrics to FILE",
                                  "Construction"));
  add_run_flags(c.def.flags);
  c.def.flags.push_back(format_flag({"json"}));
  return c;
}

Command mind_command() {
  Command c = command("mind", run_mind, "smallest d on the grid {step, 2 step, ..., dmax} at which the construction succeeds",
                      "One target, one projection with nested columns (SPEC section 4). d_min is null when\n"
                      "not reached (d_min > dmax); that is a result, exit status 0. \"bounds\": SPEC section 9's\n"
                      "floors at the X of d_min (not reached: n and the bits floors only; see attnx bounds --help).");
  add_target_flags(c.def.flags, true);
  add_mind_flags(c.def.flags);
  add_construction_flags(c.def.flags);
  c.def.flags.push_back(switch_flag("precision", "add SPEC 8.4's precision report of the X at d_min (the "
                                    "construction built again there) and its w to bounds", "Construction"));
  add_run_flags(c.def.flags);
  c.def.flags.push_back(switch_flag("progress", "print progress to stderr", "Output"));
  c.def.flags.push_back(format_flag({"json"}));
  return c;
}

Command sweep_command() {
  Command c = command("sweep", run_sweep, "scaling experiment: d_min versus L over many trials, with fits",
                      "For each L and trial t a fresh pattern and projection are drawn from seeds derived\n"
                      "from (seed, L, t). Reports every d_min, the median, the (1-delta)-quantile, d*, and\n"
                      "fits of the quantile to d = a + b ln L and d = c L^p. Paper preset: the defaults\n"
                      "(random, k=2, uniform, eps=1, tau=0.1, delta=0.1, step 16). Per L also SPEC section 9:\n"
                      "each trial's logit scale and largest |logit| at its d_min, the floors at their medians over\n"
                      "the trials that reached (the others are left out) and the bits floors (attnx bounds --help).");
  add_target_flags(c.def.flags, false);
  add_mind_flags(c.def.flags);
  c.def.flags.push_back(option_flag("Ls", "Sweep"));
  c.def.flags.push_back(option_flag("trials", "Sweep"));
  c.def.flags.push_back(option_flag("construction", "Sweep"));
  c.def.flags.back().help = "how each trial's minimal d is found: jl (the paper's, SPEC 3), lp (SPEC 8.2; use a fine "
                            "--step) or moment (SPEC 8.3: d_min is its D = 2m when its float32 X passes, else not reached)";
  c.def.flags.push_back(option_flag("projection", "Sweep"));
  c.def.flags.push_back(option_flag("box", "Sweep"));
  c.def.flags.push_back(option_flag("budget", "Sweep"));
  add_run_flags(c.def.flags);
  c.def.flags.push_back(option_flag("threads", "Run"));
  c.def.flags.push_back(switch_flag("dry-run", "predict the sweep's core-hours from a short pilot (one trial "
                                    "per L up to 1024) instead of running it", "Run"));
  c.def.flags.push_back(text_flag("shard", "run only shard i of n (i/n, 0 <= i < n): a deterministic share of the "
                                  "(L, trial) tasks balanced by cost; prints a part file for attnx merge", "Run"));
  c.def.flags.back().metavar = "I/N";
  c.def.flags.push_back(switch_flag("progress", "print progress and the time left to stderr", "Output"));
  c.def.flags.push_back(format_flag({"json", "csv"}));
  c.def.flags.push_back(report_flag());
  return c;
}

// The --help text of `attnx bounds`: what it prints and each key's meaning (the core's table).
std::string bounds_details() {
  std::string o =
      "Prints SPEC section 9's floors for each length: the bits floors of 9.3 on D w (D: hidden size,\n"
      "w: bits per input number) for a construction that handles every k-regular target, and, only\n"
      "with --scale, the packing floor of 9.2 on D at that logit scale for a target whose L columns\n"
      "all have different supports (n = L; 1 when k = L). Without a limit on the logits there is no floor on D\n"
      "(SPEC 9.1: the moment construction needs D = 2k at every L in exact arithmetic). These are\n"
      "proofs, not fits. construct and mind print the same keys in their \"bounds\" object, at the\n"
      "X they built; sweep adds them per L. Keys:\n";
  for (const BoundInfo& b : bound_infos()) o += "  " + b.key + ": " + b.help + "\n";
  o.pop_back();
  return o;
}

Command bounds_command() {
  Command c = command("bounds", run_bounds, "the proven floors of SPEC section 9 (bits, and with --scale the packing floor) per L",
                      bounds_details());
  const std::string g = "Floors";
  c.def.flags.push_back(option_flag("L", g));
  c.def.flags.push_back(option_flag("Ls", g));
  c.def.flags.back().def = "";  // only when given, instead of --L
  c.def.flags.back().help = "sequence lengths, instead of --L";
  c.def.flags.push_back(option_flag("k", g, "at most L"));
  c.def.flags.back().help = "nonzeros per row and column of the k-regular targets";
  c.def.flags.push_back(option_flag("tau", g));
  c.def.flags.push_back(option_flag("logitScale", g));
  c.def.flags.back().def = "";  // no packing floor unless given (SPEC 9.1)
  c.def.flags.push_back(format_flag({"json", "csv"}));
  return c;
}

Command bench_command() {
  Command c = command("bench", run_bench, "time the minimal-d search (paper preset) against a plain Eigen GEMM, and the Gram "
                      "kernels against this core's peak",
                      "Paper preset: random pattern, k=2, uniform weights, eps=1, tau=0.1, delta=0.1, step 16,\n"
                      "dmax 4096. For each L: seconds per min-d trial, multiply-adds done (gram + checks),\n"
                      "GFLOP/s (2 madds / s), and GFLOP/s of Eigen G = P P^T (P: L x d_min float, best of\n"
                      "--gemm-reps; counts L*L*d_min madds). Then each Gram kernel that runs here (the\n"
                      "search uses the widest): one rank-256 update of the lower triangle, GFLOP/s and the\n"
                      "fraction of the single-core FMA peak, measured by the same binary (independent FMA\n"
                      "chains in registers). Output includes timings, so it is not reproducible byte for byte.");
  c.def.flags.push_back(list_flag("Ls", "256,1024,2048", kMinL, kMaxL, "sequence lengths",
                                  "Bench"));
  c.def.flags.push_back(int_flag("trials", 3, 1, kMaxTrials, "min-d trials per L", "Bench"));
  c.def.flags.push_back(int_flag("gemm-reps", 5, 1, 1000,
                                 "GEMM and Gram-update repetitions (best is kept)", "Bench"));
  c.def.flags.push_back(switch_flag("scaling", "one trial per L (default 64, 128, ..., 16384): seconds against L, "
                                    "and the fitted exponent of time against L^2 d_min (predicts sweeps; see "
                                    "attnx sweep --dry-run)", "Bench"));
  add_run_flags(c.def.flags);
  c.def.flags.push_back(format_flag({"json", "csv", "text"}));
  return c;
}

Command frontier_command() {
  Command c = command("frontier", run_frontier, "how few dimensions at a given logit scale: opt, lp, jl and moment against the floor (SPEC 10.2)",
                      "At one L and over --trials targets (the sweep's trial targets, shared by every\n"
                      "construction): opt's minimal D at each budget of --scales (a search: an upper bound on\n"
                      "the fewest dimensions at that scale), lp's minimal d and logit scale at each box of\n"
                      "--boxes, jl's and moment's single points (constructions), and the packing floor D_Lambda\n"
                      "at each budget (a proof, SPEC 9.2). Per point: every trial's d_min, the median, the\n"
                      "(1-delta)-quantile, the smallest and largest, how many did not reach, the median logit\n"
                      "scale and the floor there. --shard i/n prints a part file for attnx merge.");
  add_pattern_flags(c.def.flags, true);
  for (const char* t : {"eps", "tau", "delta"}) c.def.flags.push_back(option_flag(t, "Tolerances"));
  const std::string g = "Frontier";
  c.def.flags.push_back(option_flag("scales", g));
  c.def.flags.push_back(option_flag("boxes", g));
  c.def.flags.push_back(option_flag("trials", g));
  c.def.flags.push_back(text_flag("constructions", "the constructions drawn, comma-separated (default: all of them)", g));
  c.def.flags.back().def = [] {
    std::string all;
    for (const std::string& n : construction_names()) all += (all.empty() ? "" : ",") + n;
    return all;
  }();
  add_run_flags(c.def.flags);
  c.def.flags.push_back(option_flag("threads", "Run"));
  c.def.flags.back().help = "worker threads running the tasks (0: one per core); the output does not depend on it";
  c.def.flags.push_back(text_flag("shard", "run only shard i of n (i/n, 0 <= i < n) of the (construction, setting, trial) "
                                  "tasks; prints a part file for attnx merge", "Run"));
  c.def.flags.back().metavar = "I/N";
  c.def.flags.push_back(switch_flag("progress", "print progress to stderr", "Output"));
  c.def.flags.push_back(format_flag({"json", "csv"}));
  return c;
}

Command merge_command() {
  Command c = command("merge", run_merge, "join the part files of a sharded sweep or frontier (--shard i/n) into its output",
                      "Checks that the parts belong to one sweep or frontier (same options and shard count)\n"
                      "and that every shard is there exactly once, naming the file otherwise; prints what the\n"
                      "unsharded attnx sweep or attnx frontier prints, byte for byte.");
  c.def.operands = "FILE...";
  c.def.flags.push_back(format_flag({"json", "csv"}));
  c.def.flags.push_back(report_flag());
  return c;
}

Command import_command() {
  Command c = command("import", run_import, "a model's attention head as a sparse target: describe it, write it as a pattern, survey every head",
                      "FILE: .npy (float16/32/64, [L,L], [H,L,L] or [layers,H,L,L]), .npz (np.savez or\n"
                      "np.savez_compressed: attention.npy, optional tokens.npy) or JSON ({\"tokens\", \"attention\"}\n"
                      "as CircuitsVis writes it, or a bare array). Values are probabilities (rows sum to 1;\n"
                      "--softmax for scores). Each row is made sparse by --rule; prints the description (kept\n"
                      "mass, k, column counts, class flag, archetype) as JSON. --out writes the target as a\n"
                      "pattern file for construct and mind --pattern-file. --all surveys every head: the\n"
                      "minimal d of lp (step 1, dmax 256) and jl (step 16, dmax 4096) per head, on threads.");
  c.def.operands = "FILE";
  const std::string g = "Head";
  for (const char* o : {"layer", "head", "rule", "softmax"}) c.def.flags.push_back(option_flag(o, g));
  c.def.flags.push_back(switch_flag("all", "survey every head (JSON or CSV): k, column counts, class flag, "
                                    "archetype, kept mass, minimal d of lp and jl", "Survey"));
  for (const char* o : {"eps", "tau", "seed", "threads"}) c.def.flags.push_back(option_flag(o, "Survey"));
  c.def.flags.back().help = "worker threads of the survey (0: one per core); the output does not depend on it";
  c.def.flags.push_back(option_flag("maxBytes", "Run"));
  c.def.flags.back().def = std::to_string(import_default_max_bytes());  // the core's: one head of L = 4096
  c.def.flags.back().help_note = "import's default: what one head of L = 4096 can need (its file as float64, its "
                                 "values and its survey); files with more heads name --max-bytes";
  c.def.flags.push_back(text_flag("out", "write the sparse target as a pattern file (JSON triplets)", "Output"));
  c.def.flags.push_back(switch_flag("progress", "print the survey's progress to stderr", "Output"));
  c.def.flags.push_back(format_flag({"json", "csv"}, "output format (csv: with --all)"));
  return c;
}

std::vector<Command> make_commands() {
  return {construct_command(), mind_command(), sweep_command(), frontier_command(), merge_command(), bounds_command(),
          bench_command(), import_command()};
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
