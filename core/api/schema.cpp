// attnx core: the option table (see schema.hpp). Defaults are read from the core's structs'
// member initialisers, so each default is written once, there.
#include <attnx/schema.hpp>
#include <attnx/construction.hpp>
#include <attnx/construct_lp.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <attnx/bounds.hpp>
#include <attnx/construct.hpp>
#include <attnx/errors.hpp>
#include <attnx/heads.hpp>
#include <attnx/memory.hpp>
#include <attnx/mind.hpp>
#include <attnx/pattern.hpp>
#include <attnx/sparsify.hpp>
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
  return int_opt(name, name, name, lo, kMaxL, def, name, help, "pattern");
}

OptionInfo with_unit(OptionInfo o, const char* unit) {
  o.unit = unit;
  return o;
}

// The target pattern's options: family, length, family parameters, weights (SPEC §1, §7).
void add_pattern_options(std::vector<OptionInfo>& v) {
  const PatternSpec s;
  std::vector<std::string> fams, weights;
  for (const auto& f : pattern_families()) fams.push_back(f.name);
  for (const auto& w : weights_infos()) weights.push_back(w.name);
  v.push_back(choice_opt("pattern", fams, family_name(s.family), "Pattern family",
                         "Which sparse target A to build.", "pattern"));
  v.push_back(with_unit(int_opt("L", "L", "L", kMinL, kMaxL, s.L, "Length L",
                                "Sequence length: A is L × L.", "pattern"), "tokens"));
  v.push_back(family_param("k", 1, s.k, "random: nonzeros per row and column."));
  v.push_back(family_param("w", 0, s.w, "window, causal, dilated, bigbird: half-width of the "
                                        "window (causal: how far back)."));
  v.push_back(family_param("r", 1, s.r, "dilated: the dilation between taps."));
  v.push_back(family_param("block", 1, s.block, "block: the block size."));
  v.push_back(family_param("stride", 1, s.stride, "strided: the stride (block length)."));
  v.push_back(family_param("globals", 0, s.globals, "bigbird: global tokens 0 … globals−1."));
  v.push_back(family_param("randoms", 0, s.randoms, "bigbird: random columns per row."));
  v.push_back(choice_opt("weights", weights, weights_name(s.weights), "Weights",
                         "How the support of each row is weighted before rows are normalised.",
                         "pattern"));
  v.push_back(real_opt("wMin", "w-min", "w_min", 0, 1, true, false, s.w_min, "w_min",
                       "Random weights are uniform in [w_min, 1], then normalised.", "pattern"));
  v.push_back(real_opt("decay", "decay", "decay", 0, 10, false, false, s.decay, "Decay",
                       "Decaying weights: A_ij ∝ (1 + |i − j|)^−decay.", "pattern"));
}

// The criterion's tolerances (SPEC §2) and δ of d* and the sweep's quantile (§3.5, §5).
void add_tolerance_options(std::vector<OptionInfo>& v) {
  const Tolerances t;
  v.push_back(real_opt("eps", "eps", "eps", kMinEps, kMaxEps, false, false, t.eps,
                       "ε (ratio tolerance)", "(R): log-ratios on the support kept within ε.",
                       "tolerances"));
  v.push_back(real_opt("tau", "tau", "tau", 0, 1, true, true, t.tau, "τ (zero tolerance)",
                       "(Z): every entry off the support at most τ × every entry on it.",
                       "tolerances"));
  v.push_back(real_opt("delta", "delta", "delta", 0, 1, true, true, t.delta, "δ (failure prob.)",
                       "Failure probability of the d*(L) estimate and of the sweep's (1 − δ)-"
                       "quantile.", "tolerances"));
}

// How X is chosen (SPEC §3, §8) and the minimal-d search's grid (§4).
void add_construction_options(std::vector<OptionInfo>& v) {
  const MinDOptions m;
  v.push_back(with_unit(int_opt("d", "d", "d", 1, kMaxD, kDefaultD, "Hidden size d",
                                "Hidden size: X has 2d columns.", "construction"), "dimensions"));
  v.push_back(choice_opt("construction", construction_names(), kDefaultConstruction, "Construction",
                         "How the inputs X are chosen; the weights stay fixed: jl (the paper's "
                         "random projection, SPEC 3), lp (optimal queries over the same keys, "
                         "SPEC 8.2), moment (the moment curve, D = 2m at every L, SPEC 8.3) or opt "
                         "(queries and keys searched together under a logit-scale budget, SPEC 10.1).",
                         "construction"));
  v.push_back(choice_opt("projection", projection_names(), projection_name(m.projection),
                         "Projection",
                         "jl: the kind of random projection P (SPEC 8.1): gaussian (the paper's; its "
                         "guarantee, SPEC 3.4, is stated for it), or, as experiments without that "
                         "guarantee, rademacher (±1/sqrt(d)), gaussian-unit (rows of norm 1), "
                         "orthogonal (orthonormalised blocks of min(L, 256) columns) or "
                         "orthogonal-unit.", "construction"));
  v.push_back(real_opt("box", "box", "box", 0, 1e9, true, false, kDefaultLpBox, "Query box U",
                       "lp: each query coordinate is at most U in size (SPEC 8.2).",
                       "construction"));
  v.push_back(real_opt("budget", "scale", "scale", 0, kMaxOptScale, true, false, kDefaultOptScale,
                       "Logit-scale budget Λ_max",
                       "opt: no logit can exceed Λ_max, ‖Q_i‖·‖K_j‖/√D ≤ Λ_max for all rows (SPEC 10.1); "
                       "it must exceed ln(1/τ)/2, below which no X passes (Z).", "construction"));
  v.push_back(with_unit(int_opt("step", "step", "step", 1, kMaxD, m.step, "Grid step",
                                "The minimal-d search tries d = step, 2·step, … (SPEC 4).",
                                "search"), "dimensions"));
  OptionInfo dmax = with_unit(int_opt("dmax", "dmax", "d_max", 1, kMaxD, m.d_max, "Largest d",
                                      "The largest d the search tries; beyond it a trial is "
                                      "“not reached”.", "search"), "dimensions");
  dmax.min_expr = "step";
  v.push_back(dmax);
}

// The logit scale at which `attnx bounds` reads SPEC §9.2's packing floor.
void add_bounds_options(std::vector<OptionInfo>& v) {
  v.push_back(real_opt("logitScale", "scale", "scale", 0, std::numeric_limits<double>::infinity(), true,
                       false, kDefaultLogitScale, "Logit scale Λ",
                       "The logit scale Λ at which the packing floor D_Λ = ln n / ln(1 + 2Λ / ln(1/τ)) of "
                       "SPEC 9.2 is read: there is no floor on d without a limit on the logits.",
                       "bounds"));
}

// The frontier's grids (SPEC §10.2): opt's budgets Lambda_max and lp's boxes U.
void add_frontier_options(std::vector<OptionInfo>& v) {
  OptionInfo scales = real_opt("scales", "scales", "scales", 0, kMaxOptScale, true, false, 0, "Budgets Λ_max",
                               "The frontier's logit-scale budgets: opt's minimal D is searched at each (SPEC 10.2).",
                               "frontier");
  scales.kind = OptionKind::RealList;
  scales.def_text = kDefaultFrontierScales;
  scales.max_count = kMaxFrontierSettings;
  v.push_back(scales);
  OptionInfo boxes = real_opt("boxes", "boxes", "boxes", 0, 1e9, true, false, 0, "Boxes U",
                              "The frontier's query boxes of lp: each gives lp's (Λ, d_min) point (SPEC 8.2, 10.2).",
                              "frontier");
  boxes.kind = OptionKind::RealList;
  boxes.def_text = kDefaultFrontierBoxes;
  boxes.max_count = kMaxFrontierSettings;
  v.push_back(boxes);
}

// The sweep's lengths and trials, the seed, and the CLI's run settings (SPEC §5, §6).
void add_run_options(std::vector<OptionInfo>& v) {
  OptionInfo ls = int_opt("Ls", "Ls", "Ls", kMinL, kMaxL, 0, "Lengths L",
                          "The sequence lengths of the sweep, increasing.", "sweep");
  ls.kind = OptionKind::IntList;
  ls.def_text = kDefaultLs;
  ls.max_count = kMaxLs;
  ls.unit = "tokens";
  v.push_back(ls);
  v.push_back(int_opt("trials", "trials", "trials", 1, kMaxTrials, kDefaultTrials, "Trials per L",
                      "Trials per L: a fresh target and projection each.", "sweep"));
  v.push_back(int_opt("seed", "seed", "seed", 0, kMaxSeed, kDefaultSeed, "Seed",
                      "One seed reproduces the pattern and the projection P.", "run"));
  v.push_back(int_opt("threads", "threads", "threads", 0, kMaxThreads, 0, "Threads",
                      "worker threads of the CLI's sweep (0: one per core); the output does not "
                      "depend on it", "run"));
  v.push_back(with_unit(int_opt("maxBytes", "max-bytes", "max_bytes", 1 << 20,
                                double(1ull << 50), double(kDefaultMaxBytes), "Memory budget",
                                "memory budget in bytes; larger runs are refused", "run"),
                        "bytes"));
}

// Importing a model's head (issue 24): which head of the file, how rows are made sparse, and
// whether the values are scores to softmax first.
void add_import_options(std::vector<OptionInfo>& v) {
  v.push_back(int_opt("layer", "layer", "layer", 0, kMaxImportAxis - 1, 0, "Layer",
                      "import: the layer of a [layers, H, L, L] file (0-based).", "import"));
  v.push_back(int_opt("head", "head", "head", 0, kMaxImportAxis - 1, 0, "Head",
                      "import: the head of an [H, L, L] or [layers, H, L, L] file (0-based).", "import"));
  OptionInfo rule = choice_opt("rule", {}, kDefaultRule, "Sparsification rule",
                               "import: how each row is made sparse: topk:K (the K largest entries, ties to the "
                               "lower column), threshold:T (every entry >= T; a row with none keeps its largest) or "
                               "mass:P (the fewest entries holding >= P of the row's mass).", "import");
  rule.kind = OptionKind::Text;
  rule.grammar = kRuleGrammar;
  v.push_back(rule);
  OptionInfo softmax = int_opt("softmax", "softmax", "softmax", 0, 1, 0, "Softmax the rows",
                               "import: the values are scores (logits): apply a softmax to each row first; "
                               "-Infinity marks a masked entry.", "import");
  softmax.kind = OptionKind::Switch;
  v.push_back(softmax);
}

// Fills each option's `applies` from the records that own the rule: a family parameter is used
// by the families that list it, the weights only by generated families, w_min and decay by the
// weightings that list them, d, projection, box and the search grid by the constructions that
// list them (ConstructionInfo::params).
void derive_applies(std::vector<OptionInfo>& v) {
  std::vector<std::string> generated;
  for (const auto& f : pattern_families())
    if (f.generated) generated.push_back(f.name);
  for (auto& o : v) {
    std::vector<std::string> fams, weights, cons;
    for (const auto& f : pattern_families())
      for (const auto& p : f.params)
        if (p.name == o.name) fams.push_back(f.name);
    for (const auto& w : weights_infos())
      for (const auto& p : w.params)
        if (p == o.name) weights.push_back(w.name);
    for (const auto& c : construction_infos())
      for (const auto& p : c.params)
        if (p == o.name) cons.push_back(c.name);
    if (o.name == "weights" || !weights.empty()) o.applies.push_back({"pattern", generated});
    if (!fams.empty()) o.applies.push_back({"pattern", fams});
    if (!weights.empty()) o.applies.push_back({"weights", weights});
    if (!cons.empty()) o.applies.push_back({"construction", cons});
  }
}

std::vector<OptionInfo> build_table() {
  std::vector<OptionInfo> v;
  add_pattern_options(v);
  add_tolerance_options(v);
  add_construction_options(v);
  add_bounds_options(v);
  add_frontier_options(v);
  add_run_options(v);
  add_import_options(v);
  derive_applies(v);
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
    case OptionKind::RealList:
      if (std::isinf(o.max))
        return std::string("a finite number ") + (o.min_open ? "> " : ">= ") + fmt_num(o.min);
      return std::string("a number in ") + (o.min_open ? "(" : "[") + fmt_num(o.min) + ", " +
             fmt_num(o.max) + (o.max_open ? ")" : "]");
    case OptionKind::Text:
      return o.grammar;
    case OptionKind::Switch:
      return "on or off";
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
  if (o.kind == OptionKind::Real || o.kind == OptionKind::RealList) {
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

bool option_applies(const OptionInfo& o, const ChoiceLookup& choice) {
  return option_failing_rule(o, choice) == nullptr;
}

const AppliesRule* option_failing_rule(const OptionInfo& o, const ChoiceLookup& choice) {
  for (const auto& rule : o.applies)
    if (std::find(rule.values.begin(), rule.values.end(), choice(rule.option)) == rule.values.end())
      return &rule;
  return nullptr;
}

std::string option_not_applying_text(const OptionInfo& o, const ChoiceLookup& choice) {
  const AppliesRule* rule = option_failing_rule(o, choice);
  if (!rule) return "";
  std::string list;
  for (std::size_t n = 0; n < rule->values.size(); ++n)
    list += (n == 0 ? "" : n + 1 == rule->values.size() ? " or " : ", ") + rule->values[n];
  return o.name + " applies only to " + rule->option + " " + list + " (got " + rule->option + " " +
         choice(rule->option).substr(0, 40) + ")";
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
  if (o.kind == OptionKind::Choice || o.kind == OptionKind::IntList || o.kind == OptionKind::RealList ||
      o.kind == OptionKind::Text)
    return o.def_text;
  if (o.kind == OptionKind::Switch) return o.def != 0 ? "true" : "false";
  if (o.kind == OptionKind::Int) return int_text(o.def);
  return fmt_num(o.def);
}

double context_max(const std::string& context, const std::string& name) {
  for (const auto& r : context_rules())
    if (r.context == context && r.option == name && r.max > 0) return r.max;
  return option_info(name).max;
}

std::string construction_default(const std::string& context, const std::string& name,
                                 const std::string& construction) {
  const ConstructionInfo* c = nullptr;
  for (const ConstructionKind* k : constructions())
    if (k->info.name == construction) c = &k->info;
  if (!c) throw std::logic_error("attnx: no construction named " + construction);
  for (const AppliesRule& rule : option_info(name).applies)
    if (rule.option == "construction" &&
        std::find(rule.values.begin(), rule.values.end(), construction) == rule.values.end())
      return "";
  const std::string def = context_default(context, name);
  const bool own_grid = c->search_step > 0;
  if (name == "d") return std::stod(def) <= c->d_max ? def : int_text(c->explorer_d);
  if (name == "step") return own_grid ? int_text(c->search_step) : def;
  if (name == "dmax") return own_grid || std::stod(def) > c->d_max ? int_text(c->d_max) : def;
  return def;
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

// A link table with opt's budget (version 3) after lp's box, and for the lab the frontier's fields
// at the end.
std::vector<LinkDefault> with_opt(std::vector<LinkDefault> v, bool frontier) {
  auto at = v.begin();
  while (at != v.end() && at->option != "box") ++at;
  if (at != v.end()) ++at;
  v.insert(at, {"budget", "5.3"});
  if (frontier) v.insert(v.end(), {{"L", "256"}, {"scales", "4,5.3,8,16,64"}, {"boxes", "1,3,10,30,100,1000"}});
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
  // Version 3 (2026-12-07) adds opt (SPEC §10.1): its budget Lambda_max; the lab adds the frontier
  // (SPEC §10.2): its length L, opt's budgets and lp's boxes. A link of version 0 to 2 never
  // chose opt and had no frontier.
  static const std::vector<LinkDefault> explorer_v3 = with_opt(explorer_v2, false);
  static const std::vector<LinkDefault> lab_v3 = with_opt(lab_v2, true);
  if (page != "explorer" && page != "lab")
    fail("page", "page must be explorer or lab (got \"" + page.substr(0, 40) + "\")");
  if (version == 0) return page == "explorer" ? explorer_v0 : lab_v0;
  if (version == 1) return page == "explorer" ? explorer_v1 : lab_v1;
  if (version == 2) return page == "explorer" ? explorer_v2 : lab_v2;
  if (version == 3) return page == "explorer" ? explorer_v3 : lab_v3;
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

const std::vector<ExplorerPreset>& explorer_presets() {
  static const std::vector<ExplorerPreset> p = {
      {"window", "Sliding window (L = 64, w = 2), at its minimal d",
       {{"pattern", "window"}, {"L", "64"}, {"w", "2"}}, true},
      {"bigbird", "BigBird (outside the class), at its minimal d",
       {{"pattern", "bigbird"}, {"L", "64"}, {"w", "1"}, {"globals", "1"}, {"randoms", "1"}}, true},
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
