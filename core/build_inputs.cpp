#include <attnx/build_inputs.hpp>

#include <algorithm>

#include <attnx/construct_moment.hpp>
#include <attnx/errors.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/schema.hpp>

namespace attnx {

const std::vector<ConstructionInfo>& construction_infos() {
  static const std::vector<ConstructionInfo> v = {
      {"jl", "Random projection (the paper's, §3)", true, true, kMaxD, 1024, 0},
      {"lp", "Optimal queries, same keys (LP, §8.2)", true, true, kMaxLpD, 32, 1},
      {"moment", "Moment curve, D = 2m (§8.3)", false, false, 0, 0, 0},
  };
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

BuiltInputs build_inputs(const Pattern& A, const Tolerances& tol, const InputsRequest& r,
                         const Progress& progress, GramLadder* ladder, bool with_x,
                         const ForEachRow& for_each) {
  require_construction(r.construction);
  require_projection_applies(r.construction, r.projection);
  BuiltInputs out;
  if (r.construction == "lp") {
    require_option("box", r.box);
    if (r.d > kMaxLpD)
      fail("d", "d must be an integer from 1 to " + std::to_string(kMaxLpD) +
                    " for construction lp (got " + std::to_string(r.d) + ")");
    LpConstruction lp = construct_lp(A, tol, r.d, r.seed, r.box, r.max_bytes, progress, for_each);
    out.c = std::move(lp.c);
    if (out.c.cancelled) return out;
    out.lp = std::move(lp.lp);
    out.precision = lp.precision;
  } else if (r.construction == "moment") {
    MomentConstruction m = construct_moment(A, tol);
    out.c = std::move(m.c);
    out.precision = m.precision;
    out.moment_lambda = std::move(m.lambda);
    if (progress) progress(1.0);
  } else {
    out.c = construct(A, tol, r.d, r.seed, r.max_bytes, progress, ladder, with_x, r.projection);
    if (out.c.cancelled || !r.jl_precision) return out;
    out.precision = precision_report(A, tol, jl_inputs(A, out.c.B, r.seed, r.d, r.projection), r.d);
  }
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

MinDResult moment_trial(const Pattern& A, const Tolerances& tol) {
  const MomentConstruction m = construct_moment(A, tol);
  MinDResult r;
  r.beta = m.c.metrics.beta;
  r.d_star = m.c.metrics.d_star;
  r.checked = {m.c.d};
  r.d_min = m.c.metrics.success ? m.c.d : -1;
  return r;
}

}  // namespace attnx
