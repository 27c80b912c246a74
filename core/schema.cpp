// attnx core: the option table (see schema.hpp). Defaults are read from the core's structs'
// member initialisers, so each default is written once, there.
#include <attnx/schema.hpp>
#include <attnx/construct_lp.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

#include <attnx/construct.hpp>
#include <attnx/errors.hpp>
#include <attnx/memory.hpp>
#include <attnx/mind.hpp>
#include <attnx/pattern.hpp>
#include <attnx/sweep.hpp>

namespace attnx {

namespace {


OptionInfo int_opt(const char* name, const char* flag, const char* json, double lo, double hi,
                   double def, const char* label, const char* help, const char* group) {
  OptionInfo o;
  o.name = name, o.flag = flag, o.json = json, o.kind = OptionKind::Int;
  o.min = lo, o.max = hi, o.def = def;
  o.label = label, o.help = help, o.group = group;
  return o;
}

OptionInfo real_opt(const char* name, const char* flag, const char* json, double lo, double hi,
                    bool lo_open, bool hi_open, double def, const char* label, const char* help,
                    const char* group) {
  OptionInfo o = int_opt(name, flag, json, lo, hi, def, label, help, group);
  o.kind = OptionKind::Real;
  o.min_open = lo_open, o.max_open = hi_open;
  return o;
}

OptionInfo choice_opt(const char* name, std::vector<std::string> choices, std::string def,
                      const char* label, const char* help, const char* group) {
  OptionInfo o = int_opt(name, name, name, 0, 0, 0, label, help, group);
  o.kind = OptionKind::Choice;
  o.choices = std::move(choices);
  o.def_text = std::move(def);
  return o;
}

// Family parameters: static range [min over families, kMaxL]; the family narrows it (pattern.cpp).
OptionInfo family_param(const char* name, double lo, double def, const char* help) {
  OptionInfo o = int_opt(name, name, name, lo, kMaxL, def, name, help, "pattern");
  return o;
}

std::vector<OptionInfo> build_table() {
  const PatternSpec s;
  const Tolerances t;
  const MinDOptions m;
  std::vector<std::string> fams, weights;
  for (const auto& f : pattern_families()) fams.push_back(f.name);
  for (Weights w : {Weights::Uniform, Weights::Random, Weights::Decaying})
    weights.push_back(weights_name(w));
  std::vector<OptionInfo> v;
  v.push_back(choice_opt("pattern", fams, family_name(s.family), "Pattern family",
                         "pattern family", "pattern"));
  v.push_back(int_opt("L", "L", "L", kMinL, kMaxL, s.L, "Length L", "sequence length", "pattern"));
  v.push_back(family_param("k", 1, s.k, "random: nonzeros per row and column"));
  v.push_back(family_param("w", 0, s.w, "window/causal/dilated/bigbird: half-width (causal: width back)"));
  v.push_back(family_param("r", 1, s.r, "dilated: dilation"));
  v.push_back(family_param("block", 1, s.block, "block: block size"));
  v.push_back(family_param("stride", 1, s.stride, "strided: stride (block length)"));
  v.push_back(family_param("globals", 0, s.globals, "bigbird: global tokens 0..globals-1"));
  v.push_back(family_param("randoms", 0, s.randoms, "bigbird: random columns per row"));
  v.push_back(choice_opt("weights", weights, weights_name(s.weights), "Weights",
                         "weights on the support (not for custom)", "pattern"));
  v.push_back(real_opt("wMin", "w-min", "w_min", 0, 1, true, false, s.w_min, "w_min",
                       "random weights: uniform in [w-min, 1], then normalised", "pattern"));
  v.push_back(real_opt("decay", "decay", "decay", 0, 10, false, false, s.decay, "Decay",
                       "decaying weights: A_ij ~ (1+|i-j|)^-decay", "pattern"));
  v.push_back(real_opt("eps", "eps", "eps", kMinEps, kMaxEps, false, false, t.eps, "ε (ratio tolerance)",
                       "(R) bound on the log-ratio error rho", "tolerances"));
  v.push_back(real_opt("tau", "tau", "tau", 0, 1, true, true, t.tau, "τ (zero tolerance)",
                       "(Z) bound on the zero ratio zeta", "tolerances"));
  v.push_back(real_opt("delta", "delta", "delta", 0, 1, true, true, t.delta, "δ (failure prob.)",
                       "failure probability used by d* (and the sweep quantile 1-delta)",
                       "tolerances"));
  v.push_back(int_opt("d", "d", "d", 1, kMaxD, kDefaultD, "Hidden size d", "hidden size",
                      "construction"));
  v.push_back(choice_opt("construction", construction_names(), "jl", "Construction",
                         "how X is chosen: jl (the paper's random projection, SPEC 3), lp "
                         "(optimal queries over the same keys, SPEC 8.2) or moment (the moment "
                         "curve, D = 2k at every L, SPEC 8.3)", "construction"));
  v.push_back(choice_opt("projection", projection_names(), projection_name(m.projection),
                         "Projection",
                         "jl: the kind of random projection P (SPEC 8.1): gaussian (the paper's; its "
                         "guarantee, SPEC 3.4, is stated for it), or, as experiments without that "
                         "guarantee, rademacher (+-1/sqrt(d)), gaussian-unit (rows of norm 1), "
                         "orthogonal (orthonormalised blocks of min(L, 256) columns) or "
                         "orthogonal-unit", "construction"));
  v.push_back(real_opt("box", "box", "box", 0, 1e9, true, false, kDefaultLpBox, "Query box U",
                       "lp: each query coordinate is at most U in size (SPEC 8.2)", "construction"));
  v.push_back(int_opt("step", "step", "step", 1, kMaxD, m.step, "Grid step", "grid step of d",
                      "search"));
  OptionInfo dmax = int_opt("dmax", "dmax", "d_max", 1, kMaxD, m.d_max, "Largest d",
                            "largest d tried", "search");
  dmax.min_expr = "step";
  v.push_back(dmax);
  OptionInfo ls = int_opt("Ls", "Ls", "Ls", kMinL, kMaxL, 0, "Lengths L", "sequence lengths",
                          "sweep");
  ls.kind = OptionKind::IntList;
  ls.def_text = kDefaultLs;
  ls.max_count = kMaxLs;
  v.push_back(ls);
  v.push_back(int_opt("trials", "trials", "trials", 1, kMaxTrials, kDefaultTrials, "Trials per L",
                      "trials per L", "sweep"));
  v.push_back(int_opt("seed", "seed", "seed", 0, kMaxSeed, kDefaultSeed, "Seed", "master seed",
                      "run"));
  v.push_back(int_opt("threads", "threads", "threads", 0, kMaxThreads, 0, "Threads",
                      "worker threads of the CLI's sweep (0: one per core); the output does not "
                      "depend on it", "run"));
  v.push_back(int_opt("maxBytes", "max-bytes", "max_bytes", 1 << 20, double(1ull << 50),
                      double(kDefaultMaxBytes), "Memory budget",
                      "memory budget in bytes; larger runs are refused", "run"));
  return v;
}

std::string int_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", v);
  return buf;
}

}  // namespace

const std::vector<OptionInfo>& option_table() {
  static const std::vector<OptionInfo> table = build_table();
  return table;
}

const OptionInfo& option_info(const std::string& name) {
  for (const auto& o : option_table())
    if (o.name == name) return o;
  throw std::logic_error("attnx: no option named " + name);
}

std::string option_range_text(const OptionInfo& o) {
  switch (o.kind) {
    case OptionKind::Int:
    case OptionKind::IntList:
      return "an integer from " + int_text(o.min) + " to " + int_text(o.max);
    case OptionKind::Real:
      if (std::isinf(o.max))
        return std::string("a finite number ") + (o.min_open ? "> " : ">= ") + fmt_num(o.min);
      return std::string("a number in ") + (o.min_open ? "(" : "[") + fmt_num(o.min) + ", " +
             fmt_num(o.max) + (o.max_open ? ")" : "]");
    case OptionKind::Choice: {
      std::string s = "one of ";
      for (std::size_t n = 0; n < o.choices.size(); ++n) s += (n ? ", " : "") + o.choices[n];
      return s;
    }
  }
  return "";
}

void require_option(const std::string& name, double value) {
  const OptionInfo& o = option_info(name);
  if (o.kind == OptionKind::Real) {
    require_real(o.name.c_str(), value, o.min, o.max, o.min_open, o.max_open);
    return;
  }
  const bool ok = std::isfinite(value) && value == std::floor(value) && value >= o.min &&
                  value <= o.max;
  if (!ok)
    fail(o.name, o.name + " must be " + option_range_text(o) + " (got " +
                     (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e18
                          ? int_text(value) : fmt_num(value)) + ")");
}

void require_option_upto(const std::string& name, long long value, long long hi) {
  const OptionInfo& o = option_info(name);
  require_int(o.name.c_str(), value, static_cast<long long>(o.min), hi);
}

long long eval_bound(const std::string& expr, long long L) {
  if (expr == "L") return L;
  if (expr == "L-1") return L - 1;
  return std::stoll(expr);
}

const std::vector<ContextRule>& context_rules() {
  static const std::vector<ContextRule> rules = {
      {"cli", "maxBytes", int_text(double(kCliDefaultMaxBytes)), 0},
      {"wasm", "maxBytes", "", 4294967296.0},
      {"explorer", "d", "1024", 0},
      {"explorer", "L", "", kBrowserMaxL},
      {"lab", "L", "", kBrowserMaxL},
      {"lab", "Ls", "16,32,64,128,256,512,1024", kBrowserMaxL},
  };
  return rules;
}

std::string context_default(const std::string& context, const std::string& name) {
  for (const auto& r : context_rules())
    if (r.context == context && r.option == name && !r.def.empty()) return r.def;
  const OptionInfo& o = option_info(name);
  if (o.kind == OptionKind::Choice || o.kind == OptionKind::IntList) return o.def_text;
  if (o.kind == OptionKind::Int) return int_text(o.def);
  return fmt_num(o.def);
}

double context_max(const std::string& context, const std::string& name) {
  for (const auto& r : context_rules())
    if (r.context == context && r.option == name && r.max > 0) return r.max;
  return option_info(name).max;
}

namespace {

// A link table with the construction's options (version 2) just before d, whose range they set
// (at the end when the page has no d).
std::vector<LinkDefault> with_construction(std::vector<LinkDefault> v) {
  auto at = v.begin();
  while (at != v.end() && at->option != "d") ++at;
  v.insert(at, {{"construction", "jl"}, {"box", "1000"}, {"projection", "gaussian"}});
  return v;
}

}  // namespace

const std::vector<LinkDefault>& link_defaults(int version, const std::string& page) {
  // FROZEN: what links of each version meant when that version was published (2026-12).
  // Version 0 (links without v, written before 2026-12-02) omitted every value equal to the
  // default. Never change these lines; a new default needs a new link version.
  static const std::vector<LinkDefault> explorer_v0 = {
      {"pattern", "random"}, {"L", "256"},   {"k", "2"},         {"w", "1"},
      {"r", "2"},            {"block", "4"}, {"stride", "8"},    {"globals", "1"},
      {"randoms", "1"},      {"weights", "uniform"},             {"wMin", "0.1"},
      {"decay", "1"},        {"eps", "1"},   {"tau", "0.1"},     {"delta", "0.1"},
      {"d", "1024"},         {"seed", "1"}};
  static const std::vector<LinkDefault> lab_v0 = {
      {"Ls", "16,32,64,128,256,512,1024"}, {"pattern", "random"}, {"k", "2"}, {"w", "1"},
      {"r", "2"},        {"block", "4"},   {"stride", "8"},  {"globals", "1"}, {"randoms", "1"},
      {"weights", "uniform"}, {"wMin", "0.1"}, {"decay", "1"}, {"eps", "1"}, {"tau", "0.1"},
      {"delta", "0.1"},  {"trials", "10"}, {"step", "16"},   {"dmax", "4096"}, {"seed", "1"}};
  // Version 1 links write every option that changes the numbers; these fill only hand-made
  // links that leave one out.
  static const std::vector<LinkDefault> explorer_v1 = explorer_v0;
  static const std::vector<LinkDefault> lab_v1 = lab_v0;
  // Version 2 (2026-12-03) adds how X is chosen (SPEC §8): the construction, lp's box and jl's
  // projection kind. A link of version 0 or 1 is the paper's construction (jl, gaussian).
  static const std::vector<LinkDefault> explorer_v2 = with_construction(explorer_v1);
  static const std::vector<LinkDefault> lab_v2 = with_construction(lab_v1);
  if (page != "explorer" && page != "lab")
    fail("page", "page must be explorer or lab (got \"" + page.substr(0, 40) + "\")");
  if (version == 0) return page == "explorer" ? explorer_v0 : lab_v0;
  if (version == 1) return page == "explorer" ? explorer_v1 : lab_v1;
  if (version == 2) return page == "explorer" ? explorer_v2 : lab_v2;
  fail("v", "v must be a link version from 0 to " + std::to_string(kLinkVersion) + " (got " +
                std::to_string(version) + ")");
}

const std::vector<Preset>& presets() {
  static const std::vector<Preset> p = {
      {"paper", "Paper preset (SPEC §5)",
       {{"Ls", kDefaultLs}, {"pattern", "random"}, {"k", "2"}, {"weights", "uniform"},
        {"eps", "1"}, {"tau", "0.1"}, {"delta", "0.1"}, {"trials", "10"}, {"step", "16"},
        {"dmax", "4096"}, {"seed", "1"}},
       300, 1000, "d of 300–1000 suffices for k = 2, L in the hundreds"},
  };
  return p;
}

std::string preset_value(const std::string& preset, const std::string& option) {
  for (const auto& p : presets())
    if (p.name == preset)
      for (const auto& v : p.values)
        if (v.option == option) return v.value;
  throw std::logic_error("attnx: preset " + preset + " has no " + option);
}

const std::vector<std::string>& link_compute_options(const std::string& page) {
  static const std::vector<std::string> explorer = [] {
    std::vector<std::string> v;
    for (const auto& d : link_defaults(kLinkVersion, "explorer")) v.push_back(d.option);
    return v;
  }();
  static const std::vector<std::string> lab = [] {
    std::vector<std::string> v;
    for (const auto& d : link_defaults(kLinkVersion, "lab")) v.push_back(d.option);
    return v;
  }();
  return page == "lab" ? lab : explorer;
}

}  // namespace attnx
