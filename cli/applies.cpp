// attnx CLI: what applies. A flag the user gave whose option the core's applies rule
// (schema.hpp: option_failing_rule) does not use with the chosen family, weights or
// construction is refused, saying which choice it needs and what the chosen one takes; flags
// left at their default are never refused. The construction's own defaults of d, step and dmax
// (schema.hpp: construction_default) replace the table's when those flags are not given.
#include <string>
#include <vector>

#include "common.hpp"
#include <attnx/construction.hpp>
#include <attnx/schema.hpp>

namespace attnx::cli {

namespace {

// The flags of core option names that command `cmd` has, as "--a, --b" (construct has --d, mind
// and sweep have --step and --dmax: each names only its own).
std::string flags_text(const CommandDef& cmd, const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names)
    if (cmd.find(option_info(n).flag)) s += (s.empty() ? "--" : ", --") + option_info(n).flag;
  return s;
}

// What the choice `value` of option `choice` takes, for the message: "whose own flags are --w".
std::string choice_note(const CommandDef& cmd, const std::string& choice, const std::string& value) {
  std::vector<std::string> own;
  if (choice == "pattern") {
    if (value == family_name(Family::Custom)) return "whose target comes from --pattern-file";
    for (const auto& f : pattern_families())
      if (f.name == value)
        for (const auto& p : f.params) own.push_back(p.name);
  } else if (choice == "weights") {
    for (const auto& w : weights_infos())
      if (w.name == value) own = w.params;
  } else if (choice == "construction") {
    for (const auto& c : construction_infos()) {
      if (c.name != value) continue;
      own = c.params;
      if (c.dimension == "2m")
        return "whose hidden size D = 2m is fixed by the pattern, m being its largest row count";
    }
  }
  const std::string flags = flags_text(cmd, own);
  return flags.empty() ? "which takes no flags of its own" : "whose own flags are " + flags;
}

// The command's value of choice option `name` (given or default); its CLI default when the
// command has no such flag.
std::string choice_of(const Args& a, const std::string& name) {
  const std::string flag = option_info(name).flag;
  return a.command().find(flag) ? a.get_str(flag) : context_default("cli", name);
}

}  // namespace

void refuse_not_applying(const Args& a) {
  const ChoiceLookup choice = [&](const std::string& name) { return choice_of(a, name); };
  for (const std::string& flag : a.given_names()) {
    for (const OptionInfo& o : option_table()) {
      if (o.flag != flag) continue;
      const AppliesRule* rule = option_failing_rule(o, choice);
      // A rule on a choice the command does not have cannot fail (bounds' --scale is the logit
      // scale of its floor, not opt's budget).
      if (!rule || !a.command().find(option_info(rule->option).flag)) continue;
      std::string list;
      for (std::size_t n = 0; n < rule->values.size(); ++n)
        list += (n == 0 ? "" : n + 1 == rule->values.size() ? " or " : ", ") + rule->values[n];
      const std::string got = choice(rule->option), value = a.given_text(flag);
      throw UsageError("--" + flag + " " + (value.size() > 40 ? value.substr(0, 37) + "..." : value) +
                       " applies only to --" + rule->option + " " + list + " (got --" + rule->option +
                       " " + got + ", " + choice_note(a.command(), rule->option, got) + ")");
    }
  }
}

void refuse_given_with(const Args& a, const std::string& why, std::initializer_list<const char*> others) {
  for (const char* other : others)
    if (a.given(other)) throw UsageError(why + "; it cannot go with --" + other);
}

void default_to_construction(Args& a) {
  if (!a.command().find("construction")) return;
  const std::string construction = a.get_str("construction");
  for (const char* name : {"d", "step", "dmax"}) {
    const std::string flag = option_info(name).flag;
    if (!a.command().find(flag) || a.given(flag)) continue;
    const std::string def = construction_default("cli", name, construction);
    if (!def.empty()) a.set_default(flag, def);
  }
}

}  // namespace attnx::cli
