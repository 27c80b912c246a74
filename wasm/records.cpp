// attnx wasm: the core's records as plain JS objects, one registration each (embind value_object
// through Record, js_value.hpp). Field names are the JS API's (web/lib/attnx.d.ts); large arrays
// are fresh typed arrays, small ones plain arrays, nested records registered records, and what the
// core marks unknown or not reached null (known).
#include <cmath>

#include <attnx/calls.hpp>
#include <attnx/calls_bands.hpp>
#include <attnx/calls_frontier.hpp>
#include <attnx/calls_heads.hpp>
#include <attnx/calls_io.hpp>
#include <attnx/calls_lab.hpp>

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

// undefined (left out of the result by web/lib/attnx.js) when the construction has no such part.
template <class T>
val part(const std::optional<T>& x) {
  return x ? record(*x) : val::undefined();
}

val count(int n) { return n > 0 ? val(n) : val::null(); }  // 0: unknown

// A construction's own summary as { api name: number, or boolean for a flag } (undefined: none).
val report_values(const std::vector<ReportValue>& v) {
  if (v.empty()) return val::undefined();
  val o = val::object();
  for (const ReportValue& r : v) o.set(r.field.api, r.field.kind == ReportField::Kind::Flag ? val(r.value != 0) : val(r.value));
  return o;
}

// Its per-row extras as { key: Float64Array } (undefined: none).
val row_values(const std::vector<RowValues>& v) {
  if (v.empty()) return val::undefined();
  val o = val::object();
  for (const RowValues& r : v) o.set(r.key, typed_array(r.values));
  return o;
}

void register_parts() {
  register_entries<float>("PatternEntries");   // construct's A
  register_entries<double>("TripletEntries");  // parsePattern's triplets
  using T = PatternTriplets;
  Record<T>("PatternTriplets").field("L", &T::L)
      .get("nnz", [](const T& p) { return static_cast<double>(p.triplets.size()); })
      .get("triplets", [](const T& p) { return record(entry_columns(p.triplets)); });
  using Mt = Metrics;
  Record<Mt>("Metrics").field("rho", &Mt::rho).field("zeta", &Mt::zeta).field("lambda", &Mt::lambda)
      .field("success", &Mt::success).field("okR", &Mt::ok_r).field("okZ", &Mt::ok_z).field("beta", &Mt::beta)
      .field("dStar", &Mt::d_star);
  using R = RowReport;
  Record<R>("RowReport").array("rho", &R::rho).array("zeta", &R::zeta).array("lambda", &R::lambda)
      .array("okR", &R::ok_r).array("okZ", &R::ok_z).array("supportMinLogit", &R::support_min_logit)
      .array("ratioErrMean", &R::ratio_err_mean).array("ratioErrMin", &R::ratio_err_min);
  using P = PrecisionReport;  // bits 0: even 53 bits fail (exponentBits then unknown too)
  Record<P>("PrecisionReport").field("inputNorm", &P::input_norm).field("fp32", &P::fp32).field("fp64", &P::fp64)
      .get("bits", [](const P& p) { return count(p.bits); })
      .get("exponentBits", [](const P& p) { return p.bits > 0 ? val(p.exponent_bits) : val::null(); });
  Record<Pooled>("Pooled").field("w", &Pooled::w).field("h", &Pooled::h).field("fr", &Pooled::fr)
      .field("fc", &Pooled::fc).array("data", &Pooled::data);
  auto input_image = [](const Pooled Views::*m) {  // null when X's images were not asked for
    return [m](const Views& v) { return v.request.inputs ? record(v.*m) : val::null(); };
  };
  using V = Views;
  Record<V>("Views").field("size", &V::request, &ViewRequest::size).field("xRows", &V::request, &ViewRequest::x_rows)
      .field("xCols", &V::request, &ViewRequest::x_cols).field("M", &V::M).field("mMax", &V::m_max)
      .field("mMinPositive", &V::m_min_positive).field("zero", &V::zero).get("XB", input_image(&V::XB))
      .get("XP", input_image(&V::XP)).field("xbMax", &V::xb_max).field("xpMax", &V::xp_max);
}

// SPEC §9 (bounds.hpp) of one X, and the floors of `attnx bounds` at one length.
void register_bounds() {
  using B = Bounds;
  auto n = [](int B::*m) { return [m](const B& b) { return count(b.*m); }; };
  auto x = [](double B::*m) { return [m](const B& b) { return known(b.*m); }; };  // -1, NaN: unknown
  Record<B>("Bounds").get("logitScale", x(&B::logit_scale)).get("maxAbsLogit", x(&B::max_abs_logit))
      .get("columnSupports", n(&B::column_supports)).get("dLambda", x(&B::d_lambda)).get("ratio", x(&B::ratio))
      .get("dLogit", x(&B::d_logit)).get("ratioLogit", x(&B::ratio_logit)).get("bitsPerNumber", n(&B::bits_per_number))
      .get("bitsFixedKeys", x(&B::bits_fixed_keys)).get("bitsFreeKeys", x(&B::bits_free_keys))
      .get("bitsFreeKeysRegular", x(&B::bits_free_keys_regular));
  using F = FloorsAtL;  // the packing floor's members left out without a scale
  auto scaled = [](auto F::*m) { return [m](const F& f) { return f.has_scale ? val(f.*m) : val::undefined(); }; };
  Record<F>("FloorsAtL").field("L", &F::L).field("k", &F::k).field("momentD", &F::moment_d).field("bitsFixedKeys", &F::bits_fixed_keys)
      .field("bitsFreeKeys", &F::bits_free_keys).field("bitsFreeKeysRegular", &F::bits_free_keys_regular)
      .get("columnSupports", scaled(&F::column_supports)).get("dLambda", scaled(&F::d_lambda));
}

void register_construct() {
  using C = ConstructCall;
  Record<C>("ConstructCall").get("params", [](const C& c) { return to_js(c.params); }).field("cancelled", &C::cancelled)
      .get("metrics", [](const C& c) { return ref(c.b.c.metrics); })
      .field("L", &C::A, &Pattern::L).field("k", &C::A, &Pattern::k)
      .field("maxColCount", &C::A, &Pattern::max_col_count).field("inClass", &C::A, &Pattern::in_class)
      .get("d", [](const C& c) { return c.b.c.d; }).get("dStar", [](const C& c) { return c.b.c.metrics.d_star; })
      .get("A", [](const C& c) { return record(entry_columns(c.A)); }).get("views", [](const C& c) { return part(c.views); })
      .get("M", [](const C& c) { return typed_array(c.b.c.M); })
      .get("logits", [](const C& c) { return typed_array(c.b.c.logits); })
      .get("X", [](const C& c) { return typed_array(c.b.c.X); }).get("rows", [](const C& c) { return ref(c.b.c.rows); })
      .get("bounds", [](const C& c) { return ref(c.b.c.bounds); }).field("construction", &C::construction)
      .get("precision", [](const C& c) { return part(c.b.precision); })
      .get("report", [](const C& c) { return report_values(c.b.report); })
      .get("rowValues", [](const C& c) { return row_values(c.b.rows); })
      .get("gramColumnsAdded", [](const C& c) { return c.columns_added < 0 ? val::undefined() : val(c.columns_added); });
  using P = PrecisionCall;
  Record<P>("PrecisionCall").get("params", [](const P& c) { return to_js(c.params); })
      .field("construction", &P::construction).field("d", &P::d).field("precision", &P::precision)
      .get("bounds", [](const P& c) { return ref(c.bounds); });
}

void register_searches() {
  using M = MinDCall;
  using Md = MinDResult;
  using St = PatternStats;
  Record<M>("MinDCall").get("params", [](const M& c) { return to_js(c.params); })
      .get("dMin", [](const M& c) { return known(c.m.d_min); }).get("checked", [](const M& c) { return list(c.m.checked); })
      .get("gramMadds", [](const M& c) { return static_cast<double>(c.m.gram_madds); })
      .get("checkMadds", [](const M& c) { return static_cast<double>(c.m.check_madds); })
      .field("beta", &M::m, &Md::beta).field("dStar", &M::m, &Md::d_star).field("L", &M::stats, &St::L)
      .field("k", &M::stats, &St::k).field("maxColCount", &M::stats, &St::max_col_count)
      .field("inClass", &M::stats, &St::in_class).field("cancelled", &M::cancelled)
      .get("bounds", [](const M& c) { return ref(c.m.bounds); });
  using S = SweepPointCall;
  using Sp = SweepPoint;
  Record<S>("SweepPointCall").get("params", [](const S& c) { return to_js(c.params); }).field("L", &S::p, &Sp::L)
      .get("dMins", [](const S& c) { return knowns(c.p.d_mins); }).get("median", [](const S& c) { return known(c.p.median); })
      .get("quantile", [](const S& c) { return known(c.p.quantile); }).field("dStar", &S::p, &Sp::d_star)
      .field("k", &S::p, &Sp::k).field("maxColCount", &S::p, &Sp::max_col_count).field("inClass", &S::p, &Sp::in_class)
      .get("madds", [](const S& c) { return static_cast<double>(c.p.madds); })
      .get("logitScales", [](const S& c) { return knowns(c.p.logit_scales); })
      .get("maxAbsLogits", [](const S& c) { return knowns(c.p.max_abs_logits); })
      .get("columnSupports", [](const S& c) { return count(c.p.column_supports); }).field("cancelled", &S::cancelled);
  using B = ByteEstimate;
  Record<B>("ByteEstimate").field("construct", &B::construct).field("mind", &B::mind).field("maxBytes", &B::max_bytes);
  using Lg = LogFit;
  Record<Lg>("LogFit").field("ok", &Lg::ok).field("a", &Lg::a).field("b", &Lg::b).field("r2", &Lg::r2);
  using Pw = PowerFit;
  Record<Pw>("PowerFit").field("ok", &Pw::ok).field("c", &Pw::c).field("p", &Pw::p).field("r2", &Pw::r2);
  Record<FitsCall>("FitsCall").field("log", &FitsCall::log).field("power", &FitsCall::power);
}

// The lab's records (calls_lab.hpp).
void register_lab() {
  using T = PlannedTask;
  Record<T>("PlannedTask").field("L", &T::L).field("firstTrial", &T::first_trial).field("trials", &T::trials)
      .field("weight", &T::work);
  Record<SweepProgress>("SweepProgress").field("fraction", &SweepProgress::fraction)
      .get("eta", [](const SweepProgress& p) { return known(p.eta); });
  using C = CostModel;
  Record<C>("CostModel").field("ok", &C::ok).field("anchored", &C::anchored).field("c", &C::c).field("p", &C::p).field("r2", &C::r2)
      .field("dOfL", &C::d_of_L).field("dLo", &C::d_lo).field("dHi", &C::d_hi)
      .field("anchorWork", &C::anchor_work).field("anchorSeconds", &C::anchor_seconds);
  Record<EcdfStep>("EcdfStep").field("d", &EcdfStep::d).field("count", &EcdfStep::count).field("p", &EcdfStep::p);
  using D = DDistribution;
  Record<D>("DDistribution").field("trials", &D::trials).field("reached", &D::reached)
      .get("maxReached", [](const D& d) { return known(d.max_reached); }).list("steps", &D::steps);
  using F = FitReading;
  Record<F>("FitReading").field("fitsOk", &F::fits_ok).field("basis", &F::basis).field("verdict", &F::verdict)
      .field("smallExponent", &F::small_exponent).field("usable", &F::usable).field("lengths", &F::lengths)
      .field("rough", &F::rough).field("perDoubling", &F::per_doubling);
  using Bd = BandReading;
  Record<Bd>("BandReading").field("lengths", &Bd::lengths).field("firstL", &Bd::first_L).field("lastL", &Bd::last_L)
      .field("lo", &Bd::lo).field("hi", &Bd::hi).field("inside", &Bd::inside);
  Record<Axis>("Axis").field("lo", &Axis::lo).field("hi", &Axis::hi).field("step", &Axis::step).list("ticks", &Axis::ticks);
  using A = DStarAbove;
  Record<A>("DStarAbove").field("count", &A::count).field("lo", &A::lo).field("hi", &A::hi);
  Record<DAxis>("DAxis").field("axis", &DAxis::axis).field("dStarAbove", &DAxis::d_star_above);
  Record<SuccessAxes>("SuccessAxes").field("d", &SuccessAxes::d).field("probability", &SuccessAxes::probability);
  Record<FloatFormat>("FloatFormat").field("name", &FloatFormat::name).field("bits", &FloatFormat::bits);
  Record<BitsAxis>("BitsAxis").field("axis", &BitsAxis::axis).list("formats", &BitsAxis::formats);
}

// A model's attention file and its heads (calls_heads.hpp).
void register_frontier() {
  using T = FrontierTaskInfo;
  Record<T>("FrontierTaskInfo").field("construction", &T::construction).field("trial", &T::trial)
      .get("setting", [](const T& t) { return std::isnan(t.setting) ? val::null() : val(t.setting); });
  using F = FrontierTrialCall;
  Record<F>("FrontierTrialCall").field("task", &F::task).field("cancelled", &F::cancelled)
      .get("dMin", [](const F& c) { return c.trial.d_min > 0 ? val(c.trial.d_min) : val::null(); })
      .get("logitScale", [](const F& c) { return c.trial.logit_scale >= 0 ? val(c.trial.logit_scale) : val::null(); })
      .get("maxAbsLogit", [](const F& c) { return c.trial.max_abs_logit >= 0 ? val(c.trial.max_abs_logit) : val::null(); })
      .field("columnSupports", &F::trial, &FrontierTrial::column_supports);
}

void register_heads() {
  using At = AttentionArray;
  Record<At>("AttentionArray").field("format", &At::format).field("dtype", &At::dtype).field("rank", &At::rank)
      .get("shape", [](const At& a) { return list(attention_shape(a)); }).field("layers", &At::layers)
      .field("heads", &At::heads).field("L", &At::L).list("tokens", &At::tokens);
  using Ar = Archetype;
  Record<Ar>("Archetype").field("kind", &Ar::kind).field("code", &Ar::code).field("label", &Ar::label)
      .field("share", &Ar::share).field("matches", &Ar::matches).field("cells", &Ar::cells).field("offset", &Ar::offset)
      .field("offsetLo", &Ar::offset_lo).field("offsetHi", &Ar::offset_hi).list("columns", &Ar::columns);
  Record<ColumnCount>("ColumnCount").field("column", &ColumnCount::column).field("count", &ColumnCount::count);
  using D = HeadDescription;
  Record<D>("HeadDescription").field("L", &D::L).field("rule", &D::rule).field("softmax", &D::softmax)
      .field("k", &D::k).field("maxColCount", &D::max_col_count).field("inClass", &D::in_class).field("nnz", &D::nnz)
      .field("keptMassMin", &D::kept_mass_min).field("keptMassMinRow", &D::kept_mass_min_row)
      .field("keptMassMedian", &D::kept_mass_median).field("columnsOverK", &D::columns_over_k)
      .list("topColumnsOverK", &D::top_columns_over_k).field("fallbackRows", &D::fallback_rows)
      .list("fallbackRowList", &D::fallback_row_list).field("archetype", &D::archetype).list("candidates", &D::candidates);
  using I = ImportHeadCall;
  Record<I>("ImportHeadCall").get("params", [](const I& c) { return to_js(c.params); }).list("tokens", &I::tokens)
      .field("description", &I::h, &HeadImport::description).field("pattern", &I::pattern)
      .field("patternText", &I::pattern_text).get("values", [](const I& c) { return typed_array(c.h.probabilities); })
      .get("keptMass", [](const I& c) { return typed_array(c.h.kept_mass); });
  using S = SurveyRow;
  Record<S>("SurveyRow").field("layer", &S::layer).field("head", &S::head).field("description", &S::description)
      .get("lpDMin", [](const S& r) { return known(r.lp_d_min); }).get("jlDMin", [](const S& r) { return known(r.jl_d_min); })
      .field("cancelled", &S::cancelled);
}

void register_bands() {
  using P = GramPlan;
  Record<P>("GramPlan").field("split", &P::split).field("resumed", &P::resumed)
      .field("gramShare", &P::gram_share).field("L", &P::L).field("from", &P::from)
      .field("d", &P::d).list("edges", &P::edges).list("rungs", &P::rungs);
  using B = GramBand;
  Record<B>("GramBand").field("cancelled", &B::cancelled).array("atD", &B::at_d).array("rungs", &B::rungs);
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnx_records) {
  register_parts();
  register_bounds();
  register_construct();
  register_searches();
  register_lab();
  register_frontier();
  register_heads();
  register_bands();
}
