// attnx CLI: `attnx mind` (minimal d for one target and one projection).
#include "commands.hpp"
#include "common.hpp"
#include <attnx/construct_lp.hpp>
#include "sweep_parallel.hpp"

namespace attnx::cli {

int run_mind(const Args& a) {
  a.get_str("format");
  PatternSpec spec = pattern_spec(a, true);
  const Tolerances tol = tolerances(a);
  const MinDOptions opt = mind_options(a);
  const std::uint64_t seed = seed_of(a);

  Pattern A = build_pattern(a, spec, seed);
  ProgressPrinter progress(a.get_switch("progress"), "mind L=" + std::to_string(A.L));
  const std::string construction = a.get_str("construction");
  if (construction == "moment")
    throw UsageError("--construction moment has one hidden size per pattern, D = 2m (m: the largest "
                     "row support), at every L: nothing to search; use `attnx construct --construction "
                     "moment` for its metrics and precision report");
  const double box = a.get_real("box");
  const long long threads = a.get_int("threads");
  MinDResult r = construction == "lp" ? min_d_lp(A, tol, opt, seed, box, [&](double f) { return progress(f); },
                                                 rows_on_threads(threads == 0 ? default_threads() : int(threads)))
                                      : min_d(A, tol, opt, seed, [&](double f) { return progress(f); });
  progress.done();

  JsonWriter w;
  w.begin_object();
  w.field("command", "mind");
  w.field("version", ATTNX_VERSION);
  w.key("params").begin_object();
  write_pattern_params(w, a, spec, true);
  write_tolerances(w, tol);
  w.field("construction", construction);
  if (opt.projection != ProjectionKind::Gaussian) w.field("projection", projection_name(opt.projection));
  if (construction == "lp") w.field("box", box);
  w.field("step", opt.step);
  w.field("d_max", opt.d_max);
  w.field("seed", seed);
  w.field("max_bytes", opt.max_bytes);
  w.end_object();
  w.key("pattern");
  write_pattern_stats(w, A);
  w.key("d_min").value_or_null(r.reached() ? r.d_min : -1);
  w.field("reached", r.reached());
  if (!r.reached()) w.field("message", "not reached (d_min > d_max)");
  w.key("checked").begin_array(true);
  for (int d : r.checked) w.value(d);
  w.end_array();
  w.field("gram_madds", r.gram_madds);
  w.field("check_madds", r.check_madds);
  w.field("beta", r.beta);
  w.field("d_star", r.d_star);
  w.end_object();
  write_stdout(w.finish());
  return 0;
}

}  // namespace attnx::cli
