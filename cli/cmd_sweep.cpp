// attnx CLI: `attnx sweep` (scaling experiment, SPEC section 5). The output texts are the
// core's (attnx/sweep_io.hpp), shared with the lab page.
#include "commands.hpp"
#include "common.hpp"
#include <attnx/memory.hpp>
#include <attnx/sweep.hpp>
#include <attnx/sweep_io.hpp>

#include <algorithm>
#include <cstdio>

#include "sweep_parallel.hpp"

namespace attnx::cli {

namespace {
// The budget of the largest L, checked before the first trial (the core checks each L when it
// reaches it, after the smaller ones have run); the estimate the explorer uses before a run.
// Returns how many tasks of that size fit in the budget at once.
std::uint64_t check_sweep_budget(const SweepOptions& opt) {
  PatternSpec s = opt.pattern;
  s.L = opt.Ls.back();
  const std::uint64_t one = estimate_mind_bytes(s.L, opt.mind.step, row_count_bound(s));
  check_budget("min-d search", one, opt.mind.max_bytes);
  return opt.mind.max_bytes / std::max<std::uint64_t>(one, 1);
}

// --threads (0: one per core), at most as many as the memory budget holds at the largest L (a
// smaller number changes the time, never the output; said on stderr).
int sweep_threads(const Args& a, std::uint64_t fit) {
  const long long asked = a.get_int("threads");
  const int want = asked == 0 ? default_threads() : static_cast<int>(asked);
  if (static_cast<std::uint64_t>(want) <= fit) return want;
  std::fprintf(stderr, "attnx sweep: %d threads at once would exceed --max-bytes; using %d\n", want, int(fit));
  return static_cast<int>(std::max<std::uint64_t>(fit, 1));
}
}  // namespace

int run_sweep(const Args& a) {
  const std::string format = a.get_str("format");
  SweepOptions opt;
  opt.pattern = pattern_spec(a, false);
  opt.tol = tolerances(a);
  opt.mind = mind_options(a);
  opt.Ls = a.get_int_list("Ls");
  check_family_defaults(a, opt.pattern, opt.Ls, "Ls");
  opt.trials = static_cast<int>(a.get_int("trials"));
  opt.seed = seed_of(a);
  validate(opt);
  const int threads = sweep_threads(a, check_sweep_budget(opt));

  ProgressPrinter progress(a.get_switch("progress"), "sweep");
  const SweepResult r = sweep_parallel(opt, threads, [&](double f) { return progress(f); });
  progress.done();

  const SweepRecord rec = sweep_record(opt, r);
  write_stdout(format == "csv" ? sweep_to_csv(rec) : sweep_to_json(rec));
  return 0;
}

}  // namespace attnx::cli
