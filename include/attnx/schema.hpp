// attnx core: the one table of every public option (SPEC §2, §5, §7 inputs).
// Each option has one name (the JS API's and the links' spelling), the CLI flag that carries it,
// its key in the CLI's JSON output, its kind, range, default, label and help. The core's
// validate() functions check against it; the CLI's flag tables, the WASM option reader and both
// pages' state tables are built from it. Nothing else defines a range or a default.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attnx {

constexpr int kMaxThreads = 1024;  // attnx sweep --threads

constexpr double kMaxExactInt = 9007199254740991.0;  // 2^53 - 1: the largest exact JS integer
constexpr double kMaxSeed = kMaxExactInt;         // every seed is an exact JS number
constexpr int kMaxLs = 64;                        // lengths in one sweep

// Text: a string with its own grammar (OptionInfo::grammar; e.g. import's rule "topk:2").
// Switch: on or off (a CLI flag without a value; def 0 = off).
enum class OptionKind { Int, Real, Choice, IntList, Text, Switch, RealList };

// When an option is used: the choice option `option` ("pattern", "weights", "construction")
// holds one of `values`. An option is used when every one of its rules holds.
struct AppliesRule {
  std::string option;
  std::vector<std::string> values;
};

struct OptionInfo {
  std::string name;      // API and link name ("wMin")
  std::string flag;      // CLI flag without the dashes ("w-min")
  std::string json;      // key in the CLI's JSON output ("w_min")
  OptionKind kind = OptionKind::Int;
  double min = 0, max = 0;              // static range (Int, Real; IntList, RealList: each entry)
  bool min_open = false, max_open = false;
  std::string min_expr, max_expr;       // further bound by another option: "step", "L", "L-1"
  double def = 0;                       // Int, Real
  std::string def_text;                 // Choice, IntList, RealList
  std::vector<std::string> choices;     // Choice
  std::string grammar;                  // Text: the accepted forms, as range texts show them
  int max_count = 0;                    // IntList, RealList: most entries
  std::string label, help, group;
  std::string unit;                     // "tokens", "dimensions", ... ("" = none)
  std::vector<AppliesRule> applies;     // empty: used with every family and construction
};

// Every option, in the order forms show them (pattern, tolerances, construction, search, run).
const std::vector<OptionInfo>& option_table();
// The option called `name`; throws std::logic_error for a name not in the table (a bug).
const OptionInfo& option_info(const std::string& name);

// Refusals name the option and its range, as the table gives it:
//   "tau must be a number in (0, 1) (got 1.5)", "L must be an integer from 2 to 16384 (got 1)".
// require_option checks the static range; the *_upto form also applies an upper bound `hi`
// (a family parameter's "L" or "L-1", say) and names it as `hi_text` when given.
void require_option(const std::string& name, double value);
void require_option_upto(const std::string& name, long long value, long long hi);
// The value a choice option holds in the caller's settings ("pattern" -> "window").
using ChoiceLookup = std::function<std::string(const std::string& name)>;
// Whether option o is used with the settings `choice` describes (every rule of o.applies holds).
bool option_applies(const OptionInfo& o, const ChoiceLookup& choice);
// The first rule of o.applies that the settings break (for callers that word the refusal with
// their own names, such as the CLI's flags); null when o is used.
const AppliesRule* option_failing_rule(const OptionInfo& o, const ChoiceLookup& choice);
// Why o is not used with those settings, naming the first rule that fails: "box applies only to
// construction lp (got construction jl)"; "" when it is used.
std::string option_not_applying_text(const OptionInfo& o, const ChoiceLookup& choice);

// Text of an option's allowed range, e.g. "an integer from 2 to 16384", "a number in [1e-06, 100]".
std::string option_range_text(const OptionInfo& o);

// Value of a range expression of the table ("L", "L-1" or a number) for length L.
long long eval_bound(const std::string& expr, long long L);

// Pages and contexts that use other defaults or tighter limits than the core's (the browser
// builds cap L, the CLI has a larger memory budget). Values are written as link text.
struct ContextRule {
  std::string context;   // "cli", "wasm", "explorer", "lab"
  std::string option;
  std::string def;       // "" = keep the table's default
  double max = 0;        // 0 = keep the table's maximum
};
const std::vector<ContextRule>& context_rules();
// Default of `name` in `context` as link text ("1024", "0.1", "random", "16,32,64").
std::string context_default(const std::string& context, const std::string& name);
double context_max(const std::string& context, const std::string& name);
// Default of `name` in `context` for construction `construction` (one of construction_names()),
// as link text: always within that construction's own limits, so a page or the CLI can fall
// back to it whatever else is set. d: the context's default when the construction accepts it,
// else the construction's own (ConstructionInfo::explorer_d, e.g. lp's 32 where the explorer's
// 1024 is above lp's 256); step and dmax: the construction's own search grid when it has one
// (search_step and d_max: lp's 1 and 256), else the context's defaults capped at its d_max.
// Other options: context_default. "" when the option does not apply to the construction
// (moment's d, step, dmax). Throws std::logic_error for an unknown option or construction.
std::string construction_default(const std::string& context, const std::string& name,
                                 const std::string& construction);

// Links are a public format (SPEC §6 determinism carried into URLs). A link names its format
// version `v`; a link without `v` is version 0. Each version has a FROZEN copy of the defaults
// its links were read with: never edit a published version's table, add a new version instead.
constexpr int kLinkVersion = 3;
struct LinkDefault {
  std::string option, value;
};
// The frozen defaults of link version `version` (0 to kLinkVersion) for `page` ("explorer" or "lab").
// Throws InvalidArgument("v", ...) for an unknown version or page.
const std::vector<LinkDefault>& link_defaults(int version, const std::string& page);
// Options that change the numbers a page computes: a version-1 link writes every one of them.
const std::vector<std::string>& link_compute_options(const std::string& page);

// Named settings (SPEC §5's paper preset) and what the paper reports for them.
struct Preset {
  std::string name, label;
  std::vector<LinkDefault> values;  // every option the preset sets, as link text
  double band_lo = 0, band_hi = 0;  // the d the paper reports (0 = none)
  std::string band_text;
};
const std::vector<Preset>& presets();
// The explorer's own presets (its menu, after the paper's setting): settings as link text on top of
// the explorer's defaults; with d_min the explorer sets d to the target's minimal d (the core's
// search, step and d_max of the explorer) instead of a number written here.
struct ExplorerPreset {
  std::string name, label;
  std::vector<LinkDefault> values;
  bool d_min = false;
};
const std::vector<ExplorerPreset>& explorer_presets();
// The preset the explorer opens with when its link names nothing: a structured pattern that
// visibly succeeds (a sliding window at its minimal d); the paper's random setting is one click away.
constexpr const char* kExplorerWelcome = "window";

// The value preset `preset` gives `option`, as link text; throws std::logic_error when it has none.
std::string preset_value(const std::string& preset, const std::string& option);

// Browser page limits (not options): custom patterns carried in a link, drawn by hand.
constexpr int kMaxNnzLink = 2048;
constexpr int kMaxDrawL = 256;

}  // namespace attnx
