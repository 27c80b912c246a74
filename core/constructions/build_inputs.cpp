#include <attnx/build_inputs.hpp>

#include <algorithm>

#include <attnx/construct_moment.hpp>
#include <attnx/errors.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

ConstructionInfo info(const char* name, const char* label, bool uses_d, int d_max, int explorer_d,
                      int search_step) {
  ConstructionInfo c;
  c.name = name, c.label = label, c.uses_d = uses_d, c.searchable = uses_d;
  c.d_max = d_max, c.explorer_d = explorer_d, c.search_step = search_step;
  return c;
}

ConstructionInfo jl_info() {
  ConstructionInfo c = info("jl", "Random projection (the paper's, §3)", true, kMaxD, 1024, 0);
  c.params = {"d", "projection", "step", "dmax"};
  c.dimension = "d";
  c.bits_floor = "bits_fixed_keys";
  c.sliced = true;
  c.queries_title = "Q: √d·B·P", c.queries_sub = "first d columns of X";
  c.keys_title = "K = P", c.keys_sub = "last d columns of X";
  c.summary = "The paper's construction (§3): Q = √d·B·P, K = P for a random Gaussian P. It "
              "needs d in the hundreds, and a few bits of X suffice.";
  return c;
}

ConstructionInfo lp_info() {
  ConstructionInfo c = info("lp", "Optimal queries, same keys (LP, §8.2)", true, kMaxLpD, 32, 1);
  c.params = {"d", "box", "step", "dmax"};
  c.bisect = true;
  c.dimension = "d";
  c.bits_floor = "bits_fixed_keys";
  c.precision_always = true;
  c.row_report = {"margin", "iterations"};
  c.row_query = true;
  c.queries_title = "Q: LP queries √d·q_i", c.queries_sub = "first d columns: one linear program per row";
  c.keys_title = "K = P", c.keys_sub = "last d columns: the same random keys as jl";
  c.summary = "Optimal queries (§8.2): the same keys K = P, and for each row the query q_i of "
              "a linear program that maximises the margin t by which (R) and (Z) hold. Same "
              "weights, far fewer dimensions.";
  return c;
}

ConstructionInfo moment_info() {
  ConstructionInfo c = info("moment", "Moment curve, D = 2m (§8.3)", false, 0, 0, 0);
  c.dimension = "2m";
  c.bits_floor = "bits_free_keys";
  c.precision_always = true;
  c.row_report = {"lambda"};
  c.row_query = true;
  c.queries_title = "Q: √D·coefficients of p_i", c.queries_sub = "first D columns: a polynomial per row";
  c.keys_title = "K: T₁(t_j) … T_D(t_j)", c.keys_sub = "last D columns: the moment curve";
  c.summary = "The moment curve (§8.3): keys K_j = (T₁(t_j), …, T_D(t_j)) at Chebyshev nodes "
              "t_j, and for each row a polynomial that is exact on its support and far below "
              "elsewhere. D = 2m dimensions at every L, paid for in bits.";
  return c;
}

}  // namespace

const std::vector<ConstructionInfo>& construction_infos() {
  static const std::vector<ConstructionInfo> v = {jl_info(), lp_info(), moment_info()};
  return v;
}

void require_construction(const std::string& name) {
  const auto& names = construction_names();
  if (std::find(names.begin(), names.end(), name) != names.end()) return;
  fail("construction", "construction must be " + option_range_text(option_info("construction")) +
                           " (got \"" + name.substr(0, 40) + "\")");
}

void require_projection_applies(const std::string& construction, ProjectionKind projection) {
  if (construction == "jl" || projection == ProjectionKind::Gaussian) return;
  fail("projection", std::string("projection ") + projection_name(projection) +
                         " applies only to construction jl (got construction " + construction +
                         "; its keys are the gaussian P of §3)");
}

namespace {

// SPEC §9.3's w from the §8.4 report, when there is one.
void add_bits(BuiltInputs& out) {
  if (out.precision)
    out.c.bounds.bits_per_number = bits_per_number(out.precision->bits, out.precision->exponent_bits);
}

}  // namespace

BuiltInputs build_inputs(const Pattern& A, const Tolerances& tol, const InputsRequest& r,
                         const Progress& progress, GramLadder* ladder, bool with_x,
                         const ForEachRow& for_each) {
  require_construction(r.construction);
  require_projection_applies(r.construction, r.projection);
  validate(tol);
  if (r.construction == "lp") {
    require_option("box", r.box);
    require_lp_d("d", r.d);
  } else if (r.construction == "jl") {
    require_option("d", r.d);
  }
  check_inputs_budget(r.construction, A.L, A.k, r.d, r.jl_precision, r.max_bytes);  // all of it, first
  BuiltInputs out;
  if (r.construction == "lp") {
    LpConstruction lp = construct_lp(A, tol, r.d, r.seed, r.box, r.max_bytes, progress, for_each);
    out.c = std::move(lp.c);
    if (out.c.cancelled) return out;
    out.lp = std::move(lp.lp);
    out.precision = lp.precision;
    add_bits(out);
    return out;
  }
  if (r.construction == "moment") {
    MomentConstruction m = construct_moment(A, tol, r.max_bytes);
    out.c = std::move(m.c);
    out.precision = m.precision;
    out.moment_lambda = std::move(m.lambda);
    if (progress) progress(1.0);
    add_bits(out);
    return out;
  }
  out.c = construct(A, tol, r.d, r.seed, r.max_bytes, progress, ladder, with_x, r.projection);
  if (out.c.cancelled || !r.jl_precision) return out;
  out.precision = precision_report(A, tol, jl_inputs(A, out.c.B, r.seed, r.d, r.projection), r.d);
  add_bits(out);
  return out;
}

MinDResult min_d_of(const std::string& construction, const Pattern& A, const Tolerances& tol,
                    const MinDOptions& opt, std::uint64_t seed, double box, const Progress& progress,
                    const ForEachRow& for_each) {
  require_construction(construction);
  if (construction == "moment")
    fail("construction", "construction moment has one hidden size per pattern, D = 2m (m: the "
                         "largest row support), at every L: there is no minimal d to search");
  if (construction == "jl") return min_d(A, tol, opt, seed, progress);
  require_projection_applies(construction, opt.projection);
  require_option("box", box);
  return min_d_lp(A, tol, opt, seed, box, progress, for_each);
}

MinDResult moment_trial(const Pattern& A, const Tolerances& tol, std::uint64_t max_bytes) {
  check_search_budget("moment", A.L, A.k, 0, 0, ProjectionKind::Gaussian, max_bytes);
  const MomentConstruction m = construct_moment(A, tol, max_bytes);
  MinDResult r;
  r.beta = m.c.metrics.beta;
  r.d_star = m.c.metrics.d_star;
  r.checked = {m.c.d};
  r.d_min = m.c.metrics.success ? m.c.d : -1;
  r.bounds = r.reached() ? m.c.bounds : bounds_of(A, tol.tau, m.c.d, -1, -1);
  return r;
}

}  // namespace attnx
