// attnx core: what the JavaScript API's options resolve to: the result's params, the pattern,
// the inputs request and the sweep options (see call_options.hpp).
#include <attnx/call_options.hpp>

#include <attnx/rng.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

void set_pattern_params(JsonValue& p, const PatternSpec& s) {
  p.set("pattern", JsonValue::of(family_name(s.family)));
  p.set("L", JsonValue::of(s.L));
  for (const FamilyInfo& fam : pattern_families())
    if (fam.name == family_name(s.family))
      for (const ParamInfo& q : fam.params)
        p.set(q.name, JsonValue::of(static_cast<double>(param_value(s, q.name))));
  if (s.family == Family::Custom) return;
  p.set("weights", JsonValue::of(weights_name(s.weights)));
  if (s.weights == Weights::Random) p.set("wMin", JsonValue::of(s.w_min));
  if (s.weights == Weights::Decaying) p.set("decay", JsonValue::of(s.decay));
}

}  // namespace

JsonValue call_params(const CallOptions& o, Call call) {
  JsonValue p = JsonValue::object();
  set_pattern_params(p, o.spec);
  p.set("eps", JsonValue::of(o.tol.eps));
  p.set("tau", JsonValue::of(o.tol.tau));
  p.set("delta", JsonValue::of(o.tol.delta));
  if (call == Call::Construct || call == Call::Estimate) p.set("d", JsonValue::of(o.d));
  if (call != Call::Estimate && o.construction != option_info("construction").def_text) {
    const ConstructionInfo& c = o.request->kind().info;
    p.set("construction", JsonValue::of(c.name));
    for (const std::string& name : c.params)
      if (name == "box") p.set("box", JsonValue::of(o.box));
      else if (name == "budget") p.set("budget", JsonValue::of(o.scale));
  }
  if (call != Call::Estimate && o.mind.projection != ProjectionKind::Gaussian)
    p.set("projection", JsonValue::of(projection_name(o.mind.projection)));
  if (call != Call::Construct) {
    p.set("dmax", JsonValue::of(o.mind.d_max));
    p.set("step", JsonValue::of(o.mind.step));
  }
  if (call == Call::SweepPoint || call == Call::Estimate) p.set("trials", JsonValue::of(o.trials));
  if (call == Call::SweepPoint && o.first_trial > 0) p.set("firstTrial", JsonValue::of(o.first_trial));
  if (o.trial >= 0) p.set("trial", JsonValue::of(o.trial));
  p.set("seed", JsonValue::of(static_cast<double>(o.master_seed)));
  p.set("maxBytes", JsonValue::of(static_cast<double>(o.mind.max_bytes)));
  return p;
}

Pattern call_pattern(const CallOptions& o) {
  if (o.spec.family == Family::Custom) return pattern_from_triplets(o.spec.L, o.triplets);
  Rng rng(pattern_seed(o.seed));
  return make_pattern(o.spec, rng);
}

SweepOptions call_sweep_options(const CallOptions& o) {
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
  s.scale = o.scale;
  return s;
}

}  // namespace attnx
