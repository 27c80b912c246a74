// attnx wasm: the core's records as plain JS objects, one registration each (embind value_object
// through Record, js_value.hpp). Field names are the JS API's (web/lib/attnx.d.ts); arrays are
// fresh typed arrays, nested records registered records, "not reached" null (count_or_null).
#include <attnx/calls.hpp>
#include <attnx/calls_io.hpp>

#include "js_value.hpp"

using namespace attnx;
using namespace attnx::wasm;

namespace {

// A sparse matrix as { rows, cols, vals }: each entry's row, column and weight.
template <class V>
void register_entries(const char* name) {
  using E = EntryColumns<V>;
  Record<E>(name).array("rows", &E::rows).array("cols", &E::cols).array("vals", &E::vals);
}

void register_patterns() {
  register_entries<float>("PatternEntries");  // construct's A
  register_entries<double>("TripletEntries");  // parsePattern's triplets
  using T = PatternTriplets;
  Record<T>("PatternTriplets").field("L", &T::L)
      .get("nnz", [](const T& p) { return static_cast<double>(p.triplets.size()); })
      .get("triplets", [](const T& p) { return record(entry_columns(p.triplets)); });
}

void register_construction_parts() {
  Record<Metrics>("Metrics")
      .field("rho", &Metrics::rho).field("zeta", &Metrics::zeta).field("lambda", &Metrics::lambda)
      .field("success", &Metrics::success).field("okR", &Metrics::ok_r)
      .field("okZ", &Metrics::ok_z).field("beta", &Metrics::beta).field("dStar", &Metrics::d_star);
  using R = RowReport;
  Record<R>("RowReport")
      .array("rho", &R::rho).array("zeta", &R::zeta).array("lambda", &R::lambda)
      .array("okR", &R::ok_r).array("okZ", &R::ok_z).array("supportMinLogit", &R::support_min_logit)
      .array("ratioErrMean", &R::ratio_err_mean).array("ratioErrMin", &R::ratio_err_min);
  using P = PrecisionReport;
  Record<P>("PrecisionReport")
      .field("inputNorm", &P::input_norm).field("fp32", &P::fp32).field("fp64", &P::fp64)
      .get("bits", [](const P& p) { return p.bits > 0 ? val(p.bits) : val::null(); });  // 0: none
  using Lp = LpReport;
  Record<Lp>("LpReport").array("margin", &Lp::margin).array("iterations", &Lp::iterations)
      .field("feasibleRows", &Lp::feasible_rows).field("allConverged", &Lp::all_converged);
  Record<Pooled>("Pooled").field("w", &Pooled::w).field("h", &Pooled::h)
      .field("fr", &Pooled::fr).field("fc", &Pooled::fc).array("data", &Pooled::data);
  // XB, XP: null when X's images were not asked for (views.inputs false).
  auto input_image = [](const Pooled Views::*m) {
    return [m](const Views& v) { return v.request.inputs ? record(v.*m) : val::null(); };
  };
  using V = Views;
  Record<V>("Views")
      .get("size", [](const V& v) { return v.request.size; })
      .get("xRows", [](const V& v) { return v.request.x_rows; })
      .get("xCols", [](const V& v) { return v.request.x_cols; })
      .get("M", [](const V& v) { return ref(v.M); })
      .field("mMax", &V::m_max).field("mMinPositive", &V::m_min_positive)
      .get("zero", [](const V& v) { return ref(v.zero); })
      .get("XB", input_image(&V::XB)).get("XP", input_image(&V::XP))
      .field("xbMax", &V::xb_max).field("xpMax", &V::xp_max);
}

// undefined (left out of the result by web/lib/attnx.js) when the construction has no such part.
template <class T>
val part(const std::optional<T>& x) {
  return x ? record(*x) : val::undefined();
}

void register_construct() {
  using C = ConstructCall;
  Record<C>("ConstructCall")
      .get("params", [](const C& c) { return to_js(c.params); }).field("cancelled", &C::cancelled)
      .get("metrics", [](const C& c) { return ref(c.b.c.metrics); })
      .get("L", [](const C& c) { return c.A.L; }).get("k", [](const C& c) { return c.A.k; })
      .get("maxColCount", [](const C& c) { return c.A.max_col_count; })
      .get("inClass", [](const C& c) { return c.A.in_class; })
      .get("d", [](const C& c) { return c.b.c.d; })
      .get("dStar", [](const C& c) { return c.b.c.metrics.d_star; })
      .get("A", [](const C& c) { return record(entry_columns(c.A)); })
      .get("views", [](const C& c) { return part(c.views); })
      .get("M", [](const C& c) { return typed_array(c.b.c.M); })
      .get("logits", [](const C& c) { return typed_array(c.b.c.logits); })
      .get("X", [](const C& c) { return typed_array(c.b.c.X); })
      .get("rows", [](const C& c) { return ref(c.b.c.rows); })
      .field("construction", &C::construction)
      .get("precision", [](const C& c) { return part(c.b.precision); })
      .get("lp", [](const C& c) { return part(c.b.lp); })
      .get("momentLambda", [](const C& c) {
        return c.b.moment_lambda.empty() ? val::undefined() : typed_array(c.b.moment_lambda);
      })
      .get("gramColumnsAdded", [](const C& c) {
        return c.columns_added < 0 ? val::undefined() : val(c.columns_added);
      });
  using P = PrecisionCall;
  Record<P>("PrecisionCall")
      .get("params", [](const P& c) { return to_js(c.params); })
      .field("construction", &P::construction).field("d", &P::d)
      .get("precision", [](const P& c) { return ref(c.precision); });
}

void register_searches() {
  using M = MinDCall;
  Record<M>("MinDCall")
      .get("params", [](const M& c) { return to_js(c.params); })
      .get("dMin", [](const M& c) { return count_or_null(c.m.d_min); })
      .get("checked", [](const M& c) { return val::array(c.m.checked); })
      .get("gramMadds", [](const M& c) { return static_cast<double>(c.m.gram_madds); })
      .get("checkMadds", [](const M& c) { return static_cast<double>(c.m.check_madds); })
      .get("beta", [](const M& c) { return c.m.beta; })
      .get("dStar", [](const M& c) { return c.m.d_star; })
      .get("L", [](const M& c) { return c.stats.L; }).get("k", [](const M& c) { return c.stats.k; })
      .get("maxColCount", [](const M& c) { return c.stats.max_col_count; })
      .get("inClass", [](const M& c) { return c.stats.in_class; }).field("cancelled", &M::cancelled);
  using S = SweepPointCall;
  Record<S>("SweepPointCall")
      .get("params", [](const S& c) { return to_js(c.params); })
      .get("L", [](const S& c) { return c.p.L; })
      .get("dMins", [](const S& c) { return counts_or_null(c.p.d_mins); })
      .get("median", [](const S& c) { return count_or_null(c.p.median); })
      .get("quantile", [](const S& c) { return count_or_null(c.p.quantile); })
      .get("dStar", [](const S& c) { return c.p.d_star; }).get("k", [](const S& c) { return c.p.k; })
      .get("maxColCount", [](const S& c) { return c.p.max_col_count; })
      .get("inClass", [](const S& c) { return c.p.in_class; })
      .get("madds", [](const S& c) { return static_cast<double>(c.p.madds); })
      .field("cancelled", &S::cancelled);
  using B = ByteEstimate;
  Record<B>("ByteEstimate").field("construct", &B::construct).field("mind", &B::mind)
      .field("maxBytes", &B::max_bytes);
  using Lg = LogFit;
  Record<Lg>("LogFit").field("ok", &Lg::ok).field("a", &Lg::a).field("b", &Lg::b).field("r2", &Lg::r2);
  using Pw = PowerFit;
  Record<Pw>("PowerFit").field("ok", &Pw::ok).field("c", &Pw::c).field("p", &Pw::p).field("r2", &Pw::r2);
  Record<FitsCall>("FitsCall").get("log", [](const FitsCall& f) { return ref(f.log); })
      .get("power", [](const FitsCall& f) { return ref(f.power); });
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnx_records) {
  register_patterns();
  register_construction_parts();
  register_construct();
  register_searches();
}
