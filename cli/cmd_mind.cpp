// attnx CLI: `attnx mind` (minimal d for one target and one projection).
#include "commands.hpp"
#include "common.hpp"
#include <optional>

#include <attnx/build_inputs.hpp>
#include "sweep_parallel.hpp"

namespace attnx::cli {

namespace {

// SPEC §8.4's report of the X built at d_min (--precision): the construction built again there.
PrecisionReport precision_at(const Pattern& A, const Tolerances& tol, int d, const std::string& construction,
                             const MinDOptions& opt, std::uint64_t seed, double box, const ForEachRow& rows) {
  InputsRequest req;
  req.construction = construction;
  req.d = d;
  req.seed = seed;
  req.box = box;
  req.max_bytes = opt.max_bytes;
  req.jl_precision = true;
  req.projection = opt.projection;
  return *build_inputs(A, tol, req, nullptr, nullptr, false, rows).precision;
}

// The mind command's JSON: its parameters, the pattern, the result, the precision report when
// asked for and the SPEC §9 bounds.
std::string mind_json(const Args& a, const PatternSpec& spec, const Tolerances& tol, const MinDOptions& opt,
                      const std::string& construction, double box, std::uint64_t seed, const Pattern& A,
                      const MinDResult& r, const std::optional<PrecisionReport>& precision) {
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
  if (precision) write_precision(w, *precision);
  write_bounds(w, r.bounds);  // not reached: n and the bits floors only
  w.end_object();
  return w.finish();
}

}  // namespace

int run_mind(const Args& a) {
  a.get_str("format");
  PatternSpec spec = pattern_spec(a, true);
  const Tolerances tol = tolerances(a);
  const MinDOptions opt = mind_options(a);
  const std::uint64_t seed = seed_of(a);

  const std::string construction = a.get_str("construction");
  if (construction == "moment")
    throw UsageError("--construction moment has one hidden size per pattern, D = 2m (m: the largest "
                     "row support), at every L: nothing to search; use `attnx construct --construction "
                     "moment` for its metrics and precision report");
  const double box = a.get_real("box");
  const int threads = rows_threads(a, construction);
  if (construction == "lp") require_lp_d("dmax", opt.d_max);  // lp's limit before its budget
  // The search's budget before the target is drawn.
  if (const int k = row_bound_before_drawing(spec); k > 0)
    check_search_budget(construction, spec.L, k, opt.step, opt.d_max, opt.projection, opt.max_bytes, threads);
  Pattern A = build_pattern(a, spec, seed);
  check_search_budget(construction, A.L, A.k, opt.step, opt.d_max, opt.projection, opt.max_bytes, threads);
  ProgressPrinter progress(a.get_switch("progress"), "mind L=" + std::to_string(A.L));
  const ForEachRow rows = threads > 1 ? rows_on_threads(threads) : nullptr;
  MinDResult r = min_d_of(construction, A, tol, opt, seed, box, [&](double f) { return progress(f); }, rows);
  progress.done();
  std::optional<PrecisionReport> precision;
  if (a.get_switch("precision") && r.reached())
    precision = precision_at(A, tol, r.d_min, construction, opt, seed, box, rows);
  if (precision) r.bounds.bits_per_number = bits_per_number(precision->bits, precision->exponent_bits);

  write_stdout(mind_json(a, spec, tol, opt, construction, box, seed, A, r, precision));
  return 0;
}

}  // namespace attnx::cli
