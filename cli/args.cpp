// attnx CLI: flag parsing and validation.
#include "args.hpp"

#include <charconv>
#include <cmath>
#include <limits>

#include <attnx/json.hpp>
#include <attnx/number_grammar.hpp>

namespace attnx::cli {

namespace {
std::string num(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return json_number(v);
}
// Values are echoed in messages; keep them short and on one line.
std::string shown(const std::string& v) {
  std::string s;
  for (char c : v) s += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  if (s.size() > 60) {
    std::size_t cut = 57;  // not inside a UTF-8 sequence
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
    s = s.substr(0, cut) + "...";
  }
  return s.empty() ? "empty" : s;
}
// "(got 016; numbers are written without leading zeros)": the value, and why it is no number
// when it looks like one (number_grammar.hpp).
std::string got(const std::string& v) {
  const std::string note = number_text_note(v);
  return " (got " + shown(v) + (note.empty() ? "" : "; " + note) + ")";
}
// A flag with what every kind has: its name, kind, help and --help group; no default.
Flag flag_of(std::string name, Kind kind, std::string help, std::string group) {
  Flag f;
  f.name = std::move(name);
  f.kind = kind;
  f.help = std::move(help);
  f.group = std::move(group);
  return f;
}
}  // namespace

const Flag* CommandDef::find(const std::string& n) const {
  for (const auto& f : flags)
    if (f.name == n) return &f;
  return nullptr;
}

Flag int_flag(std::string name, long long def, long long lo, long long hi, std::string help,
              std::string group, std::string range_note) {
  Flag f = flag_of(std::move(name), Kind::Int, std::move(help), std::move(group));
  f.def = std::to_string(def);
  f.lo = lo;
  f.hi = hi;
  f.range_note = std::move(range_note);
  return f;
}

Flag real_flag(std::string name, double def, double lo, double hi, bool lo_open, bool hi_open,
               std::string help, std::string group) {
  Flag f = flag_of(std::move(name), Kind::Real, std::move(help), std::move(group));
  f.def = json_number(def);
  f.rlo = lo;
  f.rhi = hi;
  f.lo_open = lo_open;
  f.hi_open = hi_open;
  return f;
}

Flag choice_flag(std::string name, std::string def, std::vector<std::string> choices,
                 std::string help, std::string group) {
  Flag f = flag_of(std::move(name), Kind::Choice, std::move(help), std::move(group));
  f.def = std::move(def);
  f.choices = std::move(choices);
  return f;
}

Flag text_flag(std::string name, std::string help, std::string group) {
  return flag_of(std::move(name), Kind::Text, std::move(help), std::move(group));
}

Flag list_flag(std::string name, std::string def, long long lo, long long hi, std::string help,
               std::string group) {
  Flag f = int_flag(std::move(name), 0, lo, hi, std::move(help), std::move(group));
  f.kind = Kind::IntList;
  f.def = std::move(def);
  return f;
}

Flag real_list_flag(std::string name, std::string def, double lo, double hi, bool lo_open, std::string help,
                    std::string group) {
  Flag f = real_flag(std::move(name), 0, lo, hi, lo_open, false, std::move(help), std::move(group));
  f.kind = Kind::RealList;
  f.def = std::move(def);
  return f;
}

Flag switch_flag(std::string name, std::string help, std::string group) {
  return flag_of(std::move(name), Kind::Switch, std::move(help), std::move(group));
}

std::string range_text(const Flag& f) {
  switch (f.kind) {
    case Kind::Int: {
      std::string s = "integer from " + std::to_string(f.lo) + " to " + std::to_string(f.hi);
      if (!f.range_note.empty()) s += ", " + f.range_note;
      return s;
    }
    case Kind::IntList:
      return "comma-separated ascending integers from " + std::to_string(f.lo) + " to " +
             std::to_string(f.hi);
    case Kind::RealList:
      return "comma-separated ascending numbers in " + std::string(f.lo_open ? "(" : "[") + num(f.rlo) + ", " +
             num(f.rhi) + "]";
    case Kind::Real:
      if (std::isinf(f.rhi) && std::isinf(f.rlo)) return "number";
      if (std::isinf(f.rhi)) return std::string("number ") + (f.lo_open ? "> " : ">= ") + num(f.rlo);
      return std::string("number in ") + (f.lo_open ? "(" : "[") + num(f.rlo) + ", " + num(f.rhi) +
             (f.hi_open ? ")" : "]");
    case Kind::Choice: {
      std::string s = "one of ";
      for (std::size_t i = 0; i < f.choices.size(); ++i) s += (i ? ", " : "") + f.choices[i];
      return s;
    }
    case Kind::Text:
    case Kind::Switch:
      return "";
  }
  return "";
}

Args::Args(const CommandDef& cmd, int argc, char** argv, int first) : cmd_(cmd) {
  const std::string see = " (see attnx " + cmd.name + " --help)";
  for (int i = first; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      help_ = true;
      continue;
    }
    if (a.rfind("--help=", 0) == 0) throw UsageError("--help takes no value (got " + shown(a.substr(7)) + ")");
    if (a.empty()) throw UsageError("unexpected empty argument for '" + cmd.name + "'" + see);
    if (!cmd.operands.empty() && a[0] != '-') {
      operands_.push_back(a);
      continue;
    }
    if (a.size() < 3 || a[0] != '-' || a[1] != '-')
      throw UsageError("unexpected argument '" + shown(a) + "' for '" + cmd.name + "'" + see);
    std::string name = a.substr(2), value;
    bool has_value = false;
    auto eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    const Flag* f = cmd.find(name);
    if (!f) throw UsageError("unknown flag --" + shown(name) + " for '" + cmd.name + "'" + see);
    if (vals_.count(name)) throw UsageError("--" + name + " is given more than once");
    if (f->kind == Kind::Switch) {
      if (has_value) throw UsageError("--" + name + " takes no value (got " + shown(value) + ")");
    } else if (!has_value) {
      if (i + 1 >= argc) throw UsageError("--" + name + " needs a value: " + range_text(*f) +
                                          (range_text(*f).empty() ? f->help : ""));
      const std::string next = argv[i + 1];
      if (next.size() > 2 && next[0] == '-' && next[1] == '-' && cmd.find(next.substr(2, next.find('=') - 2)))
        throw UsageError("--" + name + " needs a value before " + shown(next.substr(0, next.find('='))) + ": " + range_text(*f) +
                         (range_text(*f).empty() ? f->help : ""));
      value = argv[++i];
    }
    vals_[name] = value;
    order_.push_back(name);
  }
}

std::vector<std::string> Args::given_names() const { return order_; }

const Flag& Args::flag(const std::string& name) const {
  const Flag* f = cmd_.find(name);
  if (!f) throw std::logic_error("attnx cli: flag --" + name + " not defined for " + cmd_.name);
  return *f;
}

std::string Args::raw(const Flag& f) const {
  auto it = vals_.find(f.name);
  if (it != vals_.end()) return it->second;
  auto d = defaults_.find(f.name);
  return d == defaults_.end() ? f.def : d->second;
}

void Args::set_default(const std::string& name, std::string def) {
  flag(name);  // a flag of this command
  defaults_[name] = std::move(def);
}

std::string Args::given_text(const std::string& name) const {
  auto it = vals_.find(name);
  return it == vals_.end() ? "" : it->second;
}

long long Args::get_int(const std::string& name) const {
  const Flag& f = flag(name);
  std::string s = raw(f);
  long long v = 0;
  if (!parse_integer_text(s, &v) || v < f.lo || v > f.hi)
    throw UsageError("--" + name + " must be an " + range_text(f) + got(s));
  return v;
}

double Args::get_real(const std::string& name) const {
  const Flag& f = flag(name);
  std::string s = raw(f);
  double v = 0;
  bool ok = parse_real_text(s, &v);
  if (ok) {
    ok = (f.lo_open ? v > f.rlo : v >= f.rlo) && (f.hi_open ? v < f.rhi : v <= f.rhi);
  }
  if (!ok) throw UsageError("--" + name + " must be a " + range_text(f) + got(s));
  return v;
}

std::string Args::get_str(const std::string& name) const {
  const Flag& f = flag(name);
  std::string s = raw(f);
  if (f.kind == Kind::Choice) {
    for (const auto& c : f.choices)
      if (c == s) return s;
    for (const auto& r : f.refused)
      if (r.first == s) throw UsageError("--" + name + " " + s + " " + r.second);
    if (name == "format" && (s == "json" || s == "csv" || s == "text")) {
      std::string alts;
      for (std::size_t i = 0; i < f.choices.size(); ++i)
        alts += (i ? (i + 1 == f.choices.size() ? " or " : ", ") : "") + f.choices[i];
      throw UsageError("--format " + s + " is not available for '" + cmd_.name + "' (" +
                       (f.choices.size() == 1 ? "its output is not a table; " : "") + "use " +
                       alts + ")");
    }
    throw UsageError("--" + name + " must be " + range_text(f) + " (got " + shown(s) + ")");
  }
  if (f.kind == Kind::Text && given(name) && s.empty())
    throw UsageError("--" + name + " must not be empty");
  return s;
}

std::vector<int> Args::get_int_list(const std::string& name) const {
  const Flag& f = flag(name);
  const std::string s = raw(f);
  std::vector<long long> values;
  bool ok = parse_integer_list_text(s, &values);
  for (long long v : values) ok = ok && v >= f.lo && v <= f.hi;
  if (!ok)
    throw UsageError("--" + name + " must be a comma-separated list of integers from " +
                     std::to_string(f.lo) + " to " + std::to_string(f.hi) + got(s));
  std::vector<int> out;
  for (long long v : values) {
    if (!out.empty() && v <= out.back())
      throw UsageError("--" + name + " must be strictly ascending (got " + shown(s) + ")");
    out.push_back(static_cast<int>(v));
  }
  return out;
}

std::vector<double> Args::get_real_list(const std::string& name) const {
  const Flag& f = flag(name);
  const std::string s = raw(f);
  std::vector<double> values;
  bool ok = parse_real_list_text(s, &values);
  for (double v : values) ok = ok && (f.lo_open ? v > f.rlo : v >= f.rlo) && v <= f.rhi;
  if (!ok) throw UsageError("--" + name + " must be " + range_text(f) + got(s));
  for (std::size_t i = 1; i < values.size(); ++i)
    if (values[i] <= values[i - 1]) throw UsageError("--" + name + " must be strictly ascending (got " + shown(s) + ")");
  return values;
}

}  // namespace attnx::cli
