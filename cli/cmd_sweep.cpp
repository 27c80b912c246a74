// attnx CLI: `attnx sweep` (scaling experiment, SPEC section 5).
#include "commands.hpp"
#include "common.hpp"
#include <attnx/sweep.hpp>

namespace attnx::cli {

namespace {

std::string csv(const SweepResult& r) {
  std::string o = "L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins\n";
  for (const SweepPoint& p : r.points) {
    std::string dm;
    for (std::size_t t = 0; t < p.d_mins.size(); ++t)
      dm += (t ? ";" : "") + (p.d_mins[t] < 0 ? std::string("NA") : std::to_string(p.d_mins[t]));
    o += std::to_string(p.L) + "," + std::to_string(p.d_mins.size()) + "," +
         (p.median < 0 ? "NA" : json_number(p.median)) + "," +
         (p.quantile < 0 ? "NA" : std::to_string(p.quantile)) + "," + json_number(p.d_star) +
         "," + std::to_string(p.k) + "," + std::to_string(p.max_col_count) + "," +
         (p.in_class ? "true" : "false") + "," + dm + "\n";
  }
  return o;
}

}  // namespace

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
  SweepResult r = sweep(opt, [&](double f) { return progress(f); });
  progress.done();

  if (format == "csv") {
    write_stdout(csv(r));
    return 0;
  }
  JsonWriter w;
  w.begin_object();
  w.field("command", "sweep");
  w.field("version", ATTNX_VERSION);
  w.key("params").begin_object();
  write_pattern_params(w, a, opt.pattern, false);
  write_tolerances(w, opt.tol);
  w.field("step", opt.mind.step);
  w.field("d_max", opt.mind.d_max);
  w.key("Ls").begin_array(true);
  for (int L : opt.Ls) w.value(L);
  w.end_array();
  w.field("trials", opt.trials);
  w.field("seed", opt.seed);
  w.field("max_bytes", opt.mind.max_bytes);
  w.end_object();
  w.key("points").begin_array();
  for (const SweepPoint& p : r.points) {
    w.begin_object();
    w.field("L", p.L);
    w.key("d_mins").begin_array(true);
    for (int d : p.d_mins) w.value_or_null(d);
    w.end_array();
    if (p.median < 0) w.key("median").null(); else w.field("median", p.median);
    w.key("quantile").value_or_null(p.quantile);
    w.field("d_star", p.d_star);
    w.field("k", p.k);
    w.field("max_col_count", p.max_col_count);
    w.field("in_class", p.in_class);
    w.field("madds", p.madds);
    w.end_object();
  }
  w.end_array();
  w.key("fits").begin_object();
  w.key("log").begin_object(true);
  w.field("model", "d = a + b ln L");
  w.field("ok", r.log_fit.ok);
  auto num = [&w](bool ok, const char* k, double v) { ok ? w.field(k, v) : w.key(k).null(); };
  num(r.log_fit.ok, "a", r.log_fit.a);
  num(r.log_fit.ok, "b", r.log_fit.b);
  num(r.log_fit.ok, "r2", r.log_fit.r2);
  w.end_object();
  w.key("power").begin_object(true);
  w.field("model", "d = c L^p");
  w.field("ok", r.power_fit.ok);
  num(r.power_fit.ok, "c", r.power_fit.c);
  num(r.power_fit.ok, "p", r.power_fit.p);
  num(r.power_fit.ok, "r2", r.power_fit.r2);
  w.end_object();
  w.end_object();
  w.end_object();
  write_stdout(w.finish());
  return 0;
}

}  // namespace attnx::cli
