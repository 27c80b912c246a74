// attnx CLI: `attnx sweep` (scaling experiment, SPEC section 5). The output texts are the
// core's (attnx/sweep_io.hpp), shared with the lab page.
#include "commands.hpp"
#include "common.hpp"
#include <attnx/sweep.hpp>
#include <attnx/sweep_io.hpp>

namespace attnx::cli {

int run_sweep(const Args& a) {
  const std::string format = a.get_str("format");
  SweepOptions opt;
  opt.pattern = pattern_spec(a, false);
  opt.tol = tolerances(a);
  opt.mind = mind_options(a);
  opt.Ls = a.get_int_list("Ls");
  opt.trials = static_cast<int>(a.get_int("trials"));
  opt.seed = seed_of(a);
  validate(opt);

  ProgressPrinter progress(a.get_switch("progress"), "sweep");
  const SweepResult r = sweep(opt, [&](double f) { return progress(f); });
  progress.done();

  const SweepRecord rec = sweep_record(opt, r);
  write_stdout(format == "csv" ? sweep_to_csv(rec) : sweep_to_json(rec));
  return 0;
}

}  // namespace attnx::cli
