// attnx core: sweep records, their JSON and CSV texts and their statistics (see sweep_io.hpp).
#include <attnx/sweep_io.hpp>

#include <attnx/construction.hpp>
#include <attnx/schema.hpp>

#include <attnx/rng.hpp>

#include <cmath>
#include <initializer_list>
#include <map>
#include <utility>

#include <attnx/bounds.hpp>

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
  if (opt.construction != option_info("construction").def_text) {  // older files are jl's
    p.construction = opt.construction;
    for (const std::string& name : construction_kind(opt.construction).info.params)
      if (name == "box") p.box = opt.box;
      else if (name == "budget") p.scale = opt.scale;
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
  if (p.scale) w.field("scale", *p.scale);
  if (p.projection) w.field("projection", *p.projection);
  w.end_object();
}

template <class T>
void field_or_null(JsonWriter& w, const char* k, const std::optional<T>& v) {
  if (v) w.field(k, *v);
  else w.key(k).null();
}

// The scalar bounds of a point other than column_supports, by key.
struct ScalarBound {
  const char* key;
  double SweepPointBounds::*member;
};
constexpr ScalarBound kScalarBounds[] = {
    {"logit_scale", &SweepPointBounds::logit_scale},
    {"d_lambda", &SweepPointBounds::d_lambda},
    {"ratio", &SweepPointBounds::ratio},
    {"max_abs_logit", &SweepPointBounds::max_abs_logit},
    {"d_logit", &SweepPointBounds::d_logit},
    {"ratio_logit", &SweepPointBounds::ratio_logit},
    {"bits_fixed_keys", &SweepPointBounds::bits_fixed_keys},
    {"bits_free_keys", &SweepPointBounds::bits_free_keys},
    {"bits_free_keys_regular", &SweepPointBounds::bits_free_keys_regular},
};

double scalar_bound(const SweepPointBounds& b, const std::string& key) {
  const auto m = scalar_bound_member(key);
  return m ? b.*m : NAN;
}

const std::vector<double>& trial_bounds(const SweepPointBounds& b, const std::string& key) {
  return key == "logit_scales" ? b.logit_scales : b.max_abs_logits;
}

bool is_trial_list(const std::string& key) { return key == "logit_scales" || key == "max_abs_logits"; }

void write_bounds(JsonWriter& w, const SweepPointBounds& b) {
  for (const std::string& k : sweep_bound_keys()) {
    if (is_trial_list(k)) {
      w.key(k).begin_array(true);
      for (double x : trial_bounds(b, k)) x < 0 ? w.null() : w.value(x);
      w.end_array();
    } else if (k == "column_supports") {
      w.key(k).value_or_null(b.column_supports > 0 ? b.column_supports : -1);
    } else {
      w.field(k, scalar_bound(b, k));  // not finite: null
    }
  }
}

// The CSV cells of the bound columns (after d_mins), each with its leading comma.
std::string csv_bounds(const SweepPointBounds& b);

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
  if (p.bounds) write_bounds(w, *p.bounds);
  w.end_object();
}

// One fit as the compact object {model, ok, and its three numbers (null when not ok)}.
void write_fit(JsonWriter& w, const char* name, const char* model, bool ok,
               std::initializer_list<std::pair<const char*, double>> numbers) {
  w.key(name).begin_object(true);
  w.field("model", model);
  w.field("ok", ok);
  for (const auto& [k, v] : numbers) ok ? w.field(k, v) : w.key(k).null();
  w.end_object();
}

void write_fits(JsonWriter& w, const SweepFits& f) {
  w.key("fits").begin_object();
  write_fit(w, "log", kLogFitModel, f.log.ok, {{"a", f.log.a}, {"b", f.log.b}, {"r2", f.log.r2}});
  write_fit(w, "power", kPowerFitModel, f.power.ok, {{"c", f.power.c}, {"p", f.power.p}, {"r2", f.power.r2}});
  w.end_object();
}

// CSV cells: NA for anything unknown, not reached or not finite.
std::string csv_real(double v) { return std::isfinite(v) ? json_number(v) : "NA"; }
std::string csv_int(long long v) { return v < 0 ? "NA" : std::to_string(v); }
template <class T>
std::string csv_opt(const std::optional<T>& v) { return v ? csv_int(*v) : "NA"; }

// The bounds of a point that has none, in a record where others have them: all unknown.
SweepPointBounds empty_bounds(const SweepRecordPoint& p) {
  SweepPointBounds b;
  b.logit_scales.assign(p.d_mins.size(), -1);
  b.max_abs_logits = b.logit_scales;
  return b;
}

std::string csv_bounds(const SweepPointBounds& b) {
  std::string o;
  for (const std::string& k : sweep_bound_keys()) {
    o += ",";
    if (is_trial_list(k)) {
      const std::vector<double>& v = trial_bounds(b, k);
      for (std::size_t t = 0; t < v.size(); ++t) o += (t ? ";" : "") + (v[t] < 0 ? std::string("NA") : csv_real(v[t]));
    } else if (k == "column_supports") {
      o += b.column_supports > 0 ? std::to_string(b.column_supports) : "NA";
    } else {
      o += csv_real(scalar_bound(b, k));
    }
  }
  return o;
}

}  // namespace

double SweepPointBounds::*scalar_bound_member(const std::string& key) {
  for (const ScalarBound& s : kScalarBounds)
    if (key == s.key) return s.member;
  return nullptr;
}

const std::vector<std::string>& sweep_bound_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> v;
    for (const BoundInfo& b : bound_infos())
      if (b.key != "bits_per_number") v.push_back(b.key);  // bits(X) is not computed in a sweep
    return v;
  }();
  return keys;
}

void summarise_bounds(SweepRecordPoint& p, double tau) {
  if (!p.bounds) return;
  SweepPointBounds& b = *p.bounds;
  const double nan = NAN, scale = median_reached(b.logit_scales), z = median_reached(b.max_abs_logits);
  b.logit_scale = scale >= 0 ? scale : nan;
  b.max_abs_logit = z >= 0 ? z : nan;
  const bool n_known = b.column_supports > 0;
  b.d_lambda = n_known && scale >= 0 ? packing_floor(scale, b.column_supports, tau) : nan;
  b.d_logit = n_known && z >= 0 ? packing_floor(z, b.column_supports, tau) : nan;
  b.ratio = p.median > 0 ? times_floor(p.median, b.d_lambda) : nan;
  b.ratio_logit = p.median > 0 ? times_floor(p.median, b.d_logit) : nan;
  const bool k_known = p.k && *p.k >= 1 && *p.k <= p.L;
  b.bits_fixed_keys = k_known ? bits_fixed_keys(p.L, *p.k) : nan;
  b.bits_free_keys = k_known ? bits_free_keys(p.L, *p.k) : nan;
  b.bits_free_keys_regular = k_known ? bits_free_keys_regular(p.L, *p.k) : nan;
}

SweepRecordPoint record_point(const SweepPoint& p, double tau) {
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
  if (!p.logit_scales.empty()) {
    SweepPointBounds b;
    b.logit_scales = p.logit_scales;
    b.max_abs_logits = p.max_abs_logits;
    b.column_supports = p.column_supports;
    q.bounds = std::move(b);
    summarise_bounds(q, tau);
  }
  return q;
}

SweepRecord sweep_record(const SweepOptions& opt, const SweepResult& r) {
  SweepRecord rec;
  rec.version = ATTNX_VERSION;
  rec.params = record_params(opt);
  for (const SweepPoint& p : r.points) rec.points.push_back(record_point(p, opt.tol.tau));
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
  // The bound columns only when a point has bounds: a record without them keeps the old layout.
  bool bounds = false;
  for (const SweepRecordPoint& p : rec.points) bounds = bounds || p.bounds.has_value();
  std::string o = "L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins";
  if (bounds)
    for (const std::string& k : sweep_bound_keys()) o += "," + k;
  o += "\n";
  for (const SweepRecordPoint& p : rec.points) {
    std::string dm;
    for (std::size_t t = 0; t < p.d_mins.size(); ++t) dm += (t ? ";" : "") + csv_int(p.d_mins[t]);
    o += std::to_string(p.L) + "," + std::to_string(p.d_mins.size()) + "," +
         (p.median < 0 ? "NA" : csv_real(p.median)) + "," + csv_int(p.quantile) + "," +
         (p.d_star ? csv_real(*p.d_star) : "NA") + "," + csv_opt(p.k) + "," +
         csv_opt(p.max_col_count) + "," +
         (p.in_class ? (*p.in_class ? "true" : "false") : "NA") + "," + dm;
    if (bounds) o += csv_bounds(p.bounds ? *p.bounds : empty_bounds(p));
    o += "\n";
  }
  return o;
}

void summarise_points(std::vector<SweepRecordPoint>& points, double delta) {
  for (SweepRecordPoint& p : points) {
    p.median = median_d(p.d_mins);
    p.quantile = quantile_d(p.d_mins, delta);
  }
}

SweepFits fit_points(const std::vector<SweepRecordPoint>& points, PowerGridCache* cache) {
  SweepResult r;
  for (const SweepRecordPoint& p : points) {
    SweepPoint q;
    q.L = p.L;
    q.quantile = p.quantile;
    r.points.push_back(q);
  }
  fit_sweep(r, cache);
  return {r.log_fit, r.power_fit};
}

namespace {

// Which fit of one resample wins: 1 the log fit, 2 the power fit, 0 neither (a fit could not be
// made, or their R^2 are equal).
int winner(const SweepFits& f) {
  if (!f.log.ok || !f.power.ok) return 0;
  if (f.log.r2 > f.power.r2) return 1;
  return f.power.r2 > f.log.r2 ? 2 : 0;
}

}  // namespace

FitComparison compare_fits(const std::vector<SweepRecordPoint>& points, double delta, int resamples,
                           std::uint64_t seed) {
  FitComparison c;
  c.resamples = resamples;
  for (const SweepRecordPoint& p : points) c.lengths += quantile_d(p.d_mins, delta) > 0;
  if (points.size() < 2) return c;  // no fit of one length: every resample would count for neither
  Rng rng(seed);
  std::vector<SweepRecordPoint> drawn(points.size());
  // A resample's outcome depends only on its quantiles (one per length, each one of that length's
  // trials): resamples with the same quantiles share the fits (0: neither wins, 1: log, 2: power).
  std::map<std::vector<int>, int> outcome_of;
  PowerGridCache grid;
  std::vector<int> key(points.size());
  for (int b = 0; b < resamples; ++b) {
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::vector<int>& d = points[i].d_mins;
      drawn[i].L = points[i].L;
      drawn[i].d_mins.resize(d.size());
      for (int& v : drawn[i].d_mins) v = d[static_cast<std::size_t>(rng.below(d.size()))];
      key[i] = quantile_d(drawn[i].d_mins, delta);
    }
    auto known = outcome_of.find(key);
    if (known == outcome_of.end()) {
      for (std::size_t i = 0; i < points.size(); ++i) drawn[i].quantile = key[i];
      const SweepFits f = fit_points(drawn, &grid);
      known = outcome_of.emplace(key, winner(f)).first;
    }
    c.log_wins += known->second == 1;
    c.power_wins += known->second == 2;
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
