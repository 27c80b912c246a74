// attnx CLI: `attnx sweep` (scaling experiment, SPEC section 5). The output texts are the
// core's (attnx/sweep_io.hpp), shared with the lab page.
#include "commands.hpp"
#include "common.hpp"
#include <attnx/memory.hpp>
#include <attnx/sweep.hpp>
#include <attnx/sweep_io.hpp>

namespace attnx::cli {

namespace {
// The budget of the largest L, checked before the first trial (the core checks each L when it
// reaches it, after the smaller ones have run); the estimate the explorer uses before a run.
void check_sweep_budget(const SweepOptions& opt) {
  PatternSpec s = opt.pattern;
  s.L = opt.Ls.back();
  check_budget("min-d search", estimate_mind_bytes(s.L, opt.mind.step, row_count_bound(s)),
               opt.mind.max_bytes);
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
  check_sweep_budget(opt);

  ProgressPrinter progress(a.get_switch("progress"), "sweep");
  const SweepResult r = sweep(opt, [&](double f) { return progress(f); });
  progress.done();

  const SweepRecord rec = sweep_record(opt, r);
  write_stdout(format == "csv" ? sweep_to_csv(rec) : sweep_to_json(rec));
  return 0;
}

}  // namespace attnx::cli
