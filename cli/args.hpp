// attnx CLI: flag tables, parsing, validation and --help text.
#pragma once
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace attnx::cli {

// A usage error: printed as one line "attnx: <message>", exit status 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Kind { Int, Real, Choice, Text, IntList, Switch, RealList };

struct Flag {
  std::string name;   // without the leading "--"
  Kind kind = Kind::Int;
  std::string def;    // default as text; "" = none
  std::string help;   // one-line description
  std::string group;  // heading in --help
  long long lo = 0, hi = 0;                    // Int, IntList: static range
  double rlo = 0, rhi = 0;                     // Real, RealList: static range (+-inf for none)
  bool lo_open = false, hi_open = false;       // Real: "(" or "["
  std::vector<std::string> choices;            // Choice
  std::vector<std::pair<std::string, std::string>> refused;  // Choice: value -> message
  std::string range_note;                      // extra range text shown in help (e.g. "to L-1")
  std::string metavar;                         // the value's name in help ("I/N"); "": by kind
  std::string help_note;                       // help only, after the range ("with --construction lp: ...")
};

struct CommandDef {
  std::string name, summary, details;
  std::vector<Flag> flags;
  std::string operands;  // name of the command's non-flag arguments in help ("FILE..."); "" = none
  const Flag* find(const std::string& n) const;
};

// Flag constructors.
Flag int_flag(std::string name, long long def, long long lo, long long hi, std::string help,
              std::string group, std::string range_note = "");
Flag real_flag(std::string name, double def, double lo, double hi, bool lo_open, bool hi_open,
               std::string help, std::string group);
Flag choice_flag(std::string name, std::string def, std::vector<std::string> choices,
                 std::string help, std::string group);
Flag text_flag(std::string name, std::string help, std::string group);
Flag list_flag(std::string name, std::string def, long long lo, long long hi, std::string help,
               std::string group);
Flag switch_flag(std::string name, std::string help, std::string group);
Flag real_list_flag(std::string name, std::string def, double lo, double hi, bool lo_open, std::string help,
                    std::string group);

class Args {
 public:
  // Parses argv[first..argc) for `cmd`. Throws UsageError for unknown flags, missing values,
  // repeated flags and stray arguments. Values are checked when read: numbers against the
  // core's number grammar (attnx/number_grammar.hpp), then the flag's range.
  Args(const CommandDef& cmd, int argc, char** argv, int first);

  bool help() const { return help_; }
  bool given(const std::string& name) const { return vals_.count(name) != 0; }
  std::vector<std::string> given_names() const;  // in command-line order

  long long get_int(const std::string& name) const;
  double get_real(const std::string& name) const;
  std::string get_str(const std::string& name) const;  // Choice or Text ("" if no default)
  std::vector<int> get_int_list(const std::string& name) const;
  // A RealList flag's values: the grammar, each entry in the flag's range, strictly ascending.
  std::vector<double> get_real_list(const std::string& name) const;
  bool get_switch(const std::string& name) const { return given(name); }
  const std::vector<std::string>& operands() const { return operands_; }  // in order
  const CommandDef& command() const { return cmd_; }
  // The value of flag `name` when it is not given is `def` from now on instead of the table's
  // (a default that depends on another flag, e.g. the construction's own d); the value is
  // checked when read, as any other.
  void set_default(const std::string& name, std::string def);
  // The text of flag `name` as given ("" when not given).
  std::string given_text(const std::string& name) const;

 private:
  const Flag& flag(const std::string& name) const;
  std::string raw(const Flag& f) const;

  const CommandDef& cmd_;
  std::map<std::string, std::string> vals_;
  std::map<std::string, std::string> defaults_;  // set_default
  std::vector<std::string> order_;
  std::vector<std::string> operands_;
  bool help_ = false;
};

// Text of a flag's allowed range, e.g. "integer from 2 to 16384", "number in (0, 1)".
std::string range_text(const Flag& f);
std::string help_text(const CommandDef& cmd);

}  // namespace attnx::cli
