// attnx CLI: per-command --help text generated from the flag tables.
#include <string>

#include "args.hpp"

namespace attnx::cli {

namespace {
// A text flag with a default is a value of its own grammar (--rule TEXT); without one, a path;
// a flag may name its value itself (--shard I/N).
std::string placeholder(const Flag& f) {
  if (!f.metavar.empty()) return " " + f.metavar;
  switch (f.kind) {
    case Kind::Int: return " N";
    case Kind::Real: return " X";
    case Kind::Choice: return " NAME";
    case Kind::Text: return f.def.empty() ? " FILE" : " TEXT";
    case Kind::IntList: return " N,N,...";
    case Kind::RealList: return " X,X,...";
    case Kind::Switch: return "";
  }
  return "";
}
// Word-wraps text to `width` columns; continuation lines are indented by `indent`.
std::string wrap(const std::string& text, std::size_t indent, std::size_t width) {
  std::string out, word;
  std::size_t col = indent;
  auto put = [&] {
    if (word.empty()) return;
    if (col > indent && col + 1 + word.size() > width) {
      out += "\n" + std::string(indent, ' ');
      col = indent;
    } else if (col > indent) {
      out += ' ';
      ++col;
    }
    out += word;
    col += word.size();
    word.clear();
  };
  for (char c : text) {
    if (c == ' ') put();
    else word += c;
  }
  put();
  return out;
}

}  // namespace

std::string help_text(const CommandDef& cmd) {
  std::string o = "attnx " + cmd.name + ": " + cmd.summary + "\n\nUsage: attnx " + cmd.name +
                  " [--flag VALUE | --flag=VALUE]..." + (cmd.operands.empty() ? "" : " " + cmd.operands) + "\n";
  if (!cmd.details.empty()) o += "\n" + cmd.details + "\n";
  std::string group = "\x01";
  for (const Flag& f : cmd.flags) {
    if (f.group != group) {
      group = f.group;
      o += "\n" + group + ":\n";
    }
    std::string left = "  --" + f.name + placeholder(f);
    if (left.size() < 24) left.resize(24, ' ');
    else left += "\n" + std::string(24, ' ');
    std::string right = f.help;
    std::string range = range_text(f);
    std::string extra;
    if (!f.def.empty()) extra = "default " + f.def;
    if (!range.empty()) extra += (extra.empty() ? "" : "; ") + range;
    if (!f.help_note.empty()) extra += (extra.empty() ? "" : "; ") + f.help_note;
    if (!extra.empty()) right += " (" + extra + ")";
    o += left + wrap(right, 24, 100) + "\n";
  }
  o += "\n  --help, -h            show this help and exit\n";
  return o;
}

}  // namespace attnx::cli
