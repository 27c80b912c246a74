// attnx core: the report of `attnx sweep --report` (see sweep_report.hpp).
#include <attnx/sweep_report.hpp>

#include <attnx/errors.hpp>

namespace attnx {

SweepReport sweep_report(const SweepRecord& rec) {
  if (!rec.params.delta) fail("delta", "the report needs the sweep's delta (params.delta)");
  if (!rec.params.d_max) fail("d_max", "the report needs the sweep's d_max (params.d_max)");
  const int d_max = static_cast<int>(*rec.params.d_max);
  SweepReport r;
  r.comparison = compare_fits(rec.points, *rec.params.delta);
  std::vector<int> quantiles, max_reached;
  std::vector<DPlotPoint> d_points;
  for (const SweepRecordPoint& p : rec.points) {
    r.distributions.push_back(d_distribution(p.d_mins));
    r.Ls.push_back(p.L);
    quantiles.push_back(p.quantile);
    max_reached.push_back(r.distributions.back().max_reached);
    d_points.push_back({max_reached.back(), p.d_star ? *p.d_star : -1});
  }
  r.reading = read_fits(rec.fits, &r.comparison, quantiles);
  r.lengths = length_axis(r.Ls, false);
  r.d = d_axis(d_points, d_max, 0, false);
  r.success = success_axes(max_reached, d_max, false);
  return r;
}

namespace {

void write_axis(JsonWriter& w, const char* key, const Axis& a) {
  w.key(key).begin_object(true).field("lo", a.lo).field("hi", a.hi);
  w.key("ticks").begin_array(true);
  for (double t : a.ticks) w.value(t);
  w.end_array().end_object();
}

void write_distribution(JsonWriter& w, int L, const DDistribution& d) {
  w.begin_object().field("L", L).field("trials", d.trials).field("reached", d.reached);
  w.key("max_reached").value_or_null(d.max_reached);
  w.key("steps").begin_array(true);
  for (const EcdfStep& s : d.steps) w.begin_array(true).value(s.d).value(s.count).value(s.p).end_array();
  w.end_array().end_object();
}

}  // namespace

void write_report(JsonWriter& w, const SweepReport& r) {
  w.begin_object();
  const FitComparison& c = r.comparison;
  w.key("fit_comparison").begin_object(true).field("resamples", c.resamples).field("log_wins", c.log_wins);
  w.field("power_wins", c.power_wins).field("lengths", c.lengths).field("verdict", fit_verdict(c)).end_object();
  const FitReading& f = r.reading;
  w.key("reading").begin_object(true).field("fits_ok", f.fits_ok).field("basis", f.basis).field("verdict", f.verdict);
  w.field("small_exponent", f.small_exponent).field("usable", f.usable).field("lengths", f.lengths);
  w.field("rough", f.rough).field("per_doubling", f.per_doubling).end_object();
  w.key("success").begin_array();
  for (std::size_t i = 0; i < r.distributions.size(); ++i) write_distribution(w, r.Ls[i], r.distributions[i]);
  w.end_array();
  w.key("axes").begin_object();
  write_axis(w, "L", r.lengths);
  write_axis(w, "d", r.d.axis);
  w.key("d_star_above").begin_object(true).field("count", r.d.d_star_above.count);
  w.field("lo", r.d.d_star_above.lo).field("hi", r.d.d_star_above.hi).end_object();
  write_axis(w, "success_d", r.success.d);
  write_axis(w, "success_p", r.success.probability);
  w.end_object();
  w.end_object();
}

}  // namespace attnx
