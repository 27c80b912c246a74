// attnx CLI: `attnx mind` (minimal d for one target and one projection).
#include "commands.hpp"
#include "common.hpp"
#include <optional>

#include <attnx/construction.hpp>
#include "sweep_parallel.hpp"

namespace attnx::cli {

namespace {

// SPEC §8.4's report of the X built at d_min (--precision): the construction built again there.
PrecisionReport precision_at(const Pattern& A, const ConstructionRequest& search, int d, const ForEachRow& rows) {
  ConstructionRequest r = search;
  r.d = d;
  r.precision = true;
  return *build_inputs(A, check_request(r, Purpose::Build), {nullptr, nullptr, false, rows}).precision;
}

// The mind command's JSON: its parameters, the pattern, the result, the precision report when
// asked for and the SPEC §9 bounds.
std::string mind_json(const Args& a, const PatternSpec& spec, const CheckedRequest& req, const Pattern& A,
                      const MinDResult& r, const std::optional<PrecisionReport>& precision) {
  const MinDOptions& opt = req->mind;
  JsonWriter w;
  w.begin_object();
  w.field("command", "mind");
  w.field("version", ATTNX_VERSION);
  w.key("params").begin_object();
  write_pattern_params(w, a, spec, true);
  write_tolerances(w, req->tol);
  w.field("construction", req.kind().info.name);
  if (opt.projection != ProjectionKind::Gaussian) w.field("projection", projection_name(opt.projection));
  write_construction_params(w, a, req.kind().info);
  w.field("step", opt.step);
  w.field("d_max", opt.d_max);
  w.field("seed", req->seed);
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
  const ConstructionKind& kind = construction_kind(a.get_str("construction"));
  if (!kind.info.searchable)
    throw UsageError("--construction " + kind.info.name + " has " + kind.info.search + "; use `attnx construct "
                     "--construction " + kind.info.name + "` for its metrics and precision report");
  const CheckedRequest req = checked_request(a, Purpose::Search, [&](ConstructionRequest& r) {
    r.threads = rows_threads(a, r.construction);
  });
  const ConstructionRequest& rq = req.get();
  // The search's budget before the target is drawn.
  if (const int k = row_bound_before_drawing(spec); k > 0) check_request_budget(req, spec.L, k);
  Pattern A = build_pattern(a, spec, rq.seed);
  ProgressPrinter progress(a.get_switch("progress"), "mind L=" + std::to_string(A.L));
  const ForEachRow rows = rows_on_threads(rq.threads);
  MinDResult r = search_min_d(A, req, {[&](double f) { return progress(f); }, nullptr, true, rows});
  progress.done();
  std::optional<PrecisionReport> precision;
  if (a.get_switch("precision") && r.reached()) precision = precision_at(A, rq, r.d_min, rows);
  if (precision) r.bounds.bits_per_number = bits_per_number(precision->bits, precision->exponent_bits);

  write_stdout(mind_json(a, spec, req, A, r, precision));
  return 0;
}

}  // namespace attnx::cli
