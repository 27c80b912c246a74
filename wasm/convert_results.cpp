// attnx wasm: the core's results as JS objects, and JS arrays of d values (see convert.hpp).
#include <algorithm>
#include <cmath>

#include <attnx/errors.hpp>
#include <attnx/schema.hpp>

#include "convert.hpp"

namespace attnx::wasm {

namespace {

val pattern_to_js(const Pattern& A) {
  std::vector<int> rows(A.col.size());
  for (int i = 0; i < A.L; ++i)
    std::fill(rows.begin() + A.row_begin(i), rows.begin() + A.row_end(i), i);
  val a = val::object();
  a.set("rows", to_int32_array(rows.data(), rows.size()));
  a.set("cols", to_int32_array(A.col.data(), A.col.size()));
  a.set("vals", to_float32_array(A.val.data(), A.val.size()));
  return a;
}

void set_pattern_stats(val& r, const Pattern& A) {
  r.set("L", A.L);
  r.set("k", A.k);
  r.set("maxColCount", A.max_col_count);
  r.set("inClass", A.in_class);
}

val metrics_to_js(const Metrics& m) {
  val o = val::object();
  o.set("rho", m.rho);
  o.set("zeta", m.zeta);
  o.set("lambda", m.lambda);
  o.set("success", m.success);
  o.set("okR", m.ok_r);
  o.set("okZ", m.ok_z);
  o.set("beta", m.beta);
  o.set("dStar", m.d_star);
  return o;
}

// The per-row criterion (core RowReport) as typed arrays; ratio errors follow A's entry order.
val rows_to_js(const RowReport& rr) {
  val o = val::object();
  o.set("rho", to_float64_array(rr.rho.data(), rr.rho.size()));
  o.set("zeta", to_float64_array(rr.zeta.data(), rr.zeta.size()));
  o.set("lambda", to_float64_array(rr.lambda.data(), rr.lambda.size()));
  o.set("okR", to_uint8_array(rr.ok_r.data(), rr.ok_r.size()));
  o.set("okZ", to_uint8_array(rr.ok_z.data(), rr.ok_z.size()));
  o.set("supportMinLogit", to_float32_array(rr.support_min_logit.data(), rr.support_min_logit.size()));
  o.set("ratioErrMean", to_float32_array(rr.ratio_err_mean.data(), rr.ratio_err_mean.size()));
  o.set("ratioErrMin", to_float32_array(rr.ratio_err_min.data(), rr.ratio_err_min.size()));
  return o;
}

}  // namespace

val int_or_null(long long v) { return v < 0 ? val::null() : val(static_cast<double>(v)); }


namespace {

val pooled_to_js(const Pooled& p) {
  val o = val::object();
  o.set("w", p.w);
  o.set("h", p.h);
  o.set("fr", p.fr);
  o.set("fc", p.fc);
  o.set("data", to_float32_array(p.data.data(), p.data.size()));
  return o;
}

val views_to_js(const Views& v) {
  val o = val::object();
  o.set("size", v.request.size);
  o.set("xRows", v.request.x_rows);
  o.set("xCols", v.request.x_cols);
  o.set("M", pooled_to_js(v.M));
  o.set("mMax", v.m_max);
  o.set("mMinPositive", v.m_min_positive);
  o.set("zero", pooled_to_js(v.zero));
  o.set("XB", v.request.inputs ? pooled_to_js(v.XB) : val::null());  // null: X's images not asked for
  o.set("XP", v.request.inputs ? pooled_to_js(v.XP) : val::null());
  o.set("xbMax", v.xb_max);
  o.set("xpMax", v.xp_max);
  return o;
}

}  // namespace

val precision_to_js(const PrecisionReport& p) {
  val o = val::object();
  o.set("inputNorm", p.input_norm);
  o.set("fp32", p.fp32);
  o.set("fp64", p.fp64);
  o.set("bits", p.bits > 0 ? val(p.bits) : val::null());
  return o;
}

namespace {

val lp_to_js(const LpReport& lp) {
  val o = val::object();
  o.set("margin", to_float64_array(lp.margin.data(), lp.margin.size()));
  o.set("iterations", to_int32_array(lp.iterations.data(), lp.iterations.size()));
  o.set("feasibleRows", lp.feasible_rows);
  o.set("allConverged", lp.all_converged);
  return o;
}

}  // namespace

val construction_to_js(BuiltInputs& b, const Pattern& A, const Options& o, const float* P) {
  Construction& c = b.c;
  val r = val::object();
  r.set("params", params_to_js(o, Call::Construct));
  r.set("cancelled", c.cancelled);
  if (c.cancelled) return r;
  r.set("metrics", metrics_to_js(c.metrics));
  set_pattern_stats(r, A);
  r.set("d", c.d);
  r.set("dStar", c.metrics.d_star);
  r.set("A", pattern_to_js(A));
  if (o.want_views) r.set("views", views_to_js(pool_views(A, c, o.views, P)));
  r.set("M", to_float32_array(c.M.data(), c.M.size()));
  c.M = {};  // free each L x L matrix as soon as JS has its copy
  r.set("logits", to_float32_array(c.logits.data(), c.logits.size()));
  c.logits = {};
  r.set("X", o.omit_x ? to_float32_array(c.X.data(), 0) : to_float32_array(c.X.data(), c.X.size()));
  r.set("rows", rows_to_js(c.rows));
  r.set("construction", o.construction);
  if (b.precision) r.set("precision", precision_to_js(*b.precision));
  if (b.lp) r.set("lp", lp_to_js(*b.lp));
  if (!b.moment_lambda.empty())
    r.set("momentLambda", to_float64_array(b.moment_lambda.data(), b.moment_lambda.size()));
  return r;
}

val min_d_to_js(const MinDResult& m, const Pattern& A, const Options& o, bool cancelled) {
  val r = val::object();
  r.set("params", params_to_js(o, Call::MinD));
  r.set("dMin", int_or_null(m.d_min));
  val checked = val::array();
  for (std::size_t n = 0; n < m.checked.size(); ++n) checked.set(n, m.checked[n]);
  r.set("checked", checked);
  r.set("gramMadds", static_cast<double>(m.gram_madds));
  r.set("checkMadds", static_cast<double>(m.check_madds));
  r.set("beta", m.beta);
  r.set("dStar", m.d_star);
  set_pattern_stats(r, A);
  r.set("cancelled", m.cancelled || cancelled);
  return r;
}

val sweep_point_to_js(const SweepPoint& p, const Options& o, bool cancelled) {
  val r = val::object();
  r.set("params", params_to_js(o, Call::SweepPoint));
  r.set("L", p.L);
  val dm = val::array();
  for (std::size_t n = 0; n < p.d_mins.size(); ++n) dm.set(n, int_or_null(p.d_mins[n]));
  r.set("dMins", dm);
  r.set("median", p.median < 0 ? val::null() : val(p.median));
  r.set("quantile", int_or_null(p.quantile));
  r.set("dStar", p.d_star);
  r.set("k", p.k);
  r.set("maxColCount", p.max_col_count);
  r.set("inClass", p.in_class);
  r.set("madds", static_cast<double>(p.madds));
  r.set("cancelled", cancelled);
  return r;
}

val fits_to_js(const LogFit& lf, const PowerFit& pf) {
  val r = val::object(), l = val::object(), p = val::object();
  l.set("ok", lf.ok);
  l.set("a", lf.a);
  l.set("b", lf.b);
  l.set("r2", lf.r2);
  p.set("ok", pf.ok);
  p.set("c", pf.c);
  p.set("p", pf.p);
  p.set("r2", pf.r2);
  r.set("log", l);
  r.set("power", p);
  return r;
}

SweepOptions sweep_options(const Options& o) {
  SweepOptions s;
  s.pattern = o.spec;
  s.tol = o.tol;
  s.mind = o.mind;
  s.Ls = {o.spec.L};
  s.trials = o.trials;
  s.first_trial = o.first_trial;
  s.seed = o.seed;
  s.construction = o.construction;
  s.box = o.box;
  return s;
}

// d values: numbers, or null/undefined/negative for "not reached".
std::vector<int> read_dmins(const val& a, const char* field) {
  if (a.typeOf().as<std::string>() != "object" || !a["length"].isNumber())
    fail(field, std::string(field) + " must be an array of d values (null = not reached)");
  const int n = a["length"].as<int>();
  std::vector<int> d(n);
  for (int q = 0; q < n; ++q) {
    val x = a[q];
    if (x.isNull() || x.isUndefined()) { d[q] = -1; continue; }
    const double v = x.isNumber() ? x.as<double>() : NAN;
    if (!std::isfinite(v) || v != std::floor(v) || v > kMaxD)
      fail(field, std::string(field) + "[" + std::to_string(q) +
                      "] must be an integer d from 1 to " + std::to_string(kMaxD) +
                      " or null (got " + fmt_num(v) + ")");
    d[q] = v < 0 ? -1 : static_cast<int>(v);
  }
  return d;
}

void read_fit_points(const val& Ls_in, const val& ds_in, std::vector<double>& x,
                     std::vector<double>& y) {
  const std::vector<double> Ls = read_number_array(Ls_in, "Ls");
  if (ds_in.typeOf().as<std::string>() != "object" || !ds_in["length"].isNumber() ||
      ds_in["length"].as<std::size_t>() != Ls.size())
    fail("ds", "ds must be an array as long as Ls (null = not reached)");
  for (std::size_t n = 0; n < Ls.size(); ++n) {
    val v = ds_in[n];
    if (v.isNull() || v.isUndefined() || !v.isNumber()) continue;
    const double d = v.as<double>();
    if (!(d > 0) || !std::isfinite(d)) continue;
    x.push_back(Ls[n]);
    y.push_back(d);
  }
}

}  // namespace attnx::wasm
