// attnx core: sweep records, their JSON and CSV texts and their statistics (see sweep_io.hpp).
#include <attnx/sweep_io.hpp>

#include <attnx/rng.hpp>

#include <cmath>

#include <attnx/json.hpp>
#include <attnx/sweep_report.hpp>

namespace attnx {

namespace {

SweepRecordParams record_params(const SweepOptions& opt) {
  SweepRecordParams p;
  const PatternSpec& s = opt.pattern;
  p.pattern = family_name(s.family);
  for (const FamilyInfo& f : pattern_families())
    if (f.name == *p.pattern)
      for (const ParamInfo& q : f.params) p.family.emplace_back(q.name, param_value(s, q.name));
  p.weights = weights_name(s.weights);
  if (s.weights == Weights::Random) p.w_min = s.w_min;
  if (s.weights == Weights::Decaying) p.decay = s.decay;
  p.eps = opt.tol.eps;
  p.tau = opt.tol.tau;
  p.delta = opt.tol.delta;
  p.step = opt.mind.step;
  p.d_max = opt.mind.d_max;
  p.trials = opt.trials;
  p.seed = static_cast<long long>(opt.seed);
  p.max_bytes = static_cast<long long>(opt.mind.max_bytes);
  if (opt.construction != "jl") {
    p.construction = opt.construction;
    p.box = opt.box;
  }
  if (opt.mind.projection != ProjectionKind::Gaussian) p.projection = projection_name(opt.mind.projection);
  return p;
}

void write_params(JsonWriter& w, const SweepRecord& rec) {
  const SweepRecordParams& p = rec.params;
  w.key("params").begin_object();
  if (p.pattern) w.field("pattern", *p.pattern);
  for (const auto& f : p.family) w.field(f.first, f.second);
  if (p.weights) w.field("weights", *p.weights);
  if (p.w_min && p.weights == std::string("random")) w.field("w_min", *p.w_min);
  if (p.decay && p.weights == std::string("decaying")) w.field("decay", *p.decay);
  if (p.eps) w.field("eps", *p.eps);
  if (p.tau) w.field("tau", *p.tau);
  if (p.delta) w.field("delta", *p.delta);
  if (p.step) w.field("step", *p.step);
  if (p.d_max) w.field("d_max", *p.d_max);
  w.key("Ls").begin_array(true);
  for (const SweepRecordPoint& q : rec.points) w.value(q.L);
  w.end_array();
  if (p.trials) w.field("trials", *p.trials);
  if (p.seed) w.field("seed", *p.seed);
  if (p.max_bytes) w.field("max_bytes", *p.max_bytes);
  if (p.construction) w.field("construction", *p.construction);
  if (p.box) w.field("box", *p.box);
  if (p.projection) w.field("projection", *p.projection);
  w.end_object();
}

template <class T>
void field_or_null(JsonWriter& w, const char* k, const std::optional<T>& v) {
  if (v) w.field(k, *v);
  else w.key(k).null();
}

void write_point(JsonWriter& w, const SweepRecordPoint& p) {
  w.begin_object();
  w.field("L", p.L);
  w.key("d_mins").begin_array(true);
  for (int d : p.d_mins) w.value_or_null(d);
  w.end_array();
  if (p.median < 0) w.key("median").null(); else w.field("median", p.median);
  w.key("quantile").value_or_null(p.quantile);
  field_or_null(w, "d_star", p.d_star);
  field_or_null(w, "k", p.k);
  field_or_null(w, "max_col_count", p.max_col_count);
  field_or_null(w, "in_class", p.in_class);
  field_or_null(w, "madds", p.madds);
  w.end_object();
}

void write_fits(JsonWriter& w, const SweepFits& f) {
  auto num = [&w](bool ok, const char* k, double v) { ok ? w.field(k, v) : w.key(k).null(); };
  w.key("fits").begin_object();
  w.key("log").begin_object(true);
  w.field("model", kLogFitModel);
  w.field("ok", f.log.ok);
  num(f.log.ok, "a", f.log.a);
  num(f.log.ok, "b", f.log.b);
  num(f.log.ok, "r2", f.log.r2);
  w.end_object();
  w.key("power").begin_object(true);
  w.field("model", kPowerFitModel);
  w.field("ok", f.power.ok);
  num(f.power.ok, "c", f.power.c);
  num(f.power.ok, "p", f.power.p);
  num(f.power.ok, "r2", f.power.r2);
  w.end_object();
  w.end_object();
}

// CSV cells: NA for anything unknown, not reached or not finite.
std::string csv_real(double v) { return std::isfinite(v) ? json_number(v) : "NA"; }
std::string csv_int(long long v) { return v < 0 ? "NA" : std::to_string(v); }
template <class T>
std::string csv_opt(const std::optional<T>& v) { return v ? csv_int(*v) : "NA"; }

}  // namespace

SweepRecordPoint record_point(const SweepPoint& p) {
  SweepRecordPoint q;
  q.L = p.L;
  q.d_mins = p.d_mins;
  q.median = p.median;
  q.quantile = p.quantile;
  q.d_star = p.d_star;
  q.k = p.k;
  q.max_col_count = p.max_col_count;
  q.in_class = p.in_class;
  q.madds = p.madds;
  return q;
}

SweepRecord sweep_record(const SweepOptions& opt, const SweepResult& r) {
  SweepRecord rec;
  rec.version = ATTNX_VERSION;
  rec.params = record_params(opt);
  for (const SweepPoint& p : r.points) rec.points.push_back(record_point(p));
  rec.fits = {r.log_fit, r.power_fit};
  return rec;
}

std::string sweep_to_json(const SweepRecord& rec, const SweepReport* report) {
  JsonWriter w;
  w.begin_object();
  w.field("command", "sweep");
  w.field("version", rec.version.empty() ? std::string(ATTNX_VERSION) : rec.version);
  write_params(w, rec);
  w.key("points").begin_array();
  for (const SweepRecordPoint& p : rec.points) write_point(w, p);
  w.end_array();
  write_fits(w, rec.fits);
  if (report) write_report(w.key("report"), *report);
  w.end_object();
  return w.finish();
}

std::string sweep_to_csv(const SweepRecord& rec) {
  std::string o = "L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins\n";
  for (const SweepRecordPoint& p : rec.points) {
    std::string dm;
    for (std::size_t t = 0; t < p.d_mins.size(); ++t) dm += (t ? ";" : "") + csv_int(p.d_mins[t]);
    o += std::to_string(p.L) + "," + std::to_string(p.d_mins.size()) + "," +
         (p.median < 0 ? "NA" : csv_real(p.median)) + "," + csv_int(p.quantile) + "," +
         (p.d_star ? csv_real(*p.d_star) : "NA") + "," + csv_opt(p.k) + "," +
         csv_opt(p.max_col_count) + "," +
         (p.in_class ? (*p.in_class ? "true" : "false") : "NA") + "," + dm + "\n";
  }
  return o;
}

void summarise_points(std::vector<SweepRecordPoint>& points, double delta) {
  for (SweepRecordPoint& p : points) {
    p.median = median_d(p.d_mins);
    p.quantile = quantile_d(p.d_mins, delta);
  }
}

SweepFits fit_points(const std::vector<SweepRecordPoint>& points) {
  SweepResult r;
  for (const SweepRecordPoint& p : points) {
    SweepPoint q;
    q.L = p.L;
    q.quantile = p.quantile;
    r.points.push_back(q);
  }
  fit_sweep(r);
  return {r.log_fit, r.power_fit};
}

FitComparison compare_fits(const std::vector<SweepRecordPoint>& points, double delta, int resamples,
                           std::uint64_t seed) {
  FitComparison c;
  c.resamples = resamples;
  for (const SweepRecordPoint& p : points) c.lengths += quantile_d(p.d_mins, delta) > 0;
  if (points.size() < 2) return c;  // no fit of one length: every resample would count for neither
  Rng rng(seed);
  std::vector<SweepRecordPoint> drawn(points.size());
  for (int b = 0; b < resamples; ++b) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::vector<int>& d = points[i].d_mins;
      drawn[i].L = points[i].L;
      drawn[i].d_mins.resize(d.size());
      for (int& v : drawn[i].d_mins) v = d[static_cast<std::size_t>(rng.below(d.size()))];
    }
    summarise_points(drawn, delta);
    const SweepFits f = fit_points(drawn);
    if (!f.log.ok || !f.power.ok) continue;
    if (f.log.r2 > f.power.r2) ++c.log_wins;
    else if (f.power.r2 > f.log.r2) ++c.power_wins;
  }
  return c;
}

const char* fit_verdict(const FitComparison& c) {
  if (c.lengths < kMinFitLengths) return "too-few-lengths";
  if (c.resamples <= 0) return "undecided";
  if (c.log_wins >= kDecisiveFitShare * c.resamples) return "log";
  if (c.power_wins >= kDecisiveFitShare * c.resamples) return "power";
  return "undecided";
}

}  // namespace attnx
