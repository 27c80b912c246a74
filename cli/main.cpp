// attnx CLI: entry point, dispatch, --help/--version, and the one-line error policy
// (any bad flag, value or core refusal: "attnx: <message>" on stderr, exit status 2).
#include <Eigen/Core>
#include <cstdio>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "common.hpp"
#include <attnx/errors.hpp>
#include <attnx/gram.hpp>
#include <attnx/json.hpp>
#include <attnx/schema.hpp>

#ifndef ATTNX_FLAVOUR
#define ATTNX_FLAVOUR "unknown"
#endif

namespace attnx::cli {

std::string version_line() {
  return std::string("attnx ") + ATTNX_VERSION + " (" + ATTNX_FLAVOUR + "; gram kernel " +
         gram_kernel_name() + "; Eigen " + std::to_string(EIGEN_WORLD_VERSION) + "." +
         std::to_string(EIGEN_MAJOR_VERSION) + "." + std::to_string(EIGEN_MINOR_VERSION) +
         ", SIMD: " + Eigen::SimdInstructionSetsInUse() + ")\n";
}

std::string top_help() {
  std::string o =
      "attnx: explore how self-attention with fixed weights approximates sparse attention "
      "patterns\n(Likhosherstov, Choromanski, Weller, arXiv:2106.03764): d = O(log L).\n\n"
      "Usage: attnx COMMAND [--flag VALUE | --flag=VALUE]...\n"
      "       attnx COMMAND --help      flags of COMMAND with defaults and ranges\n"
      "       attnx --version\n\nCommands:\n";
  for (const auto& c : commands()) {
    std::string n = "  " + c.def.name;
    n.resize(14, ' ');
    o += n + c.def.summary + "\n";
  }
  o +=
      "\nOutput is JSON on stdout (sweep and bench also --format csv; bench --format text).\n"
      "The same flags and seed give byte-identical output (bench excepted: it has timings).\n"
      "Errors: one line on stderr, exit status 2.\n\nExamples:\n"
      "  attnx construct --pattern random --L 256 --k 2 --eps 1 --tau 0.1 --d 512 --seed 7\n"
      "  attnx mind --pattern window --L 512 --w 2 --dmax 4096 --step 16\n"
      "  attnx sweep --Ls 64,128,256,512 --trials 10 --seed 1 --format csv\n"
      "  attnx bench --Ls 256,1024,2048\n"
      "  attnx import examples/heads.npy --head 0 --rule topk:2 --out head0.json\n";
  return o;
}

namespace {

// One line, printable: newlines become spaces; control characters, invisible format characters
// and bytes that are not UTF-8 are escaped (attnx/json.hpp escape_message), so neither a file's
// bytes nor a NUL can reach the terminal or cut the message.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  return escape_message(s);
}

// The CLI flag of a core option name ("wMin" -> "w-min"; "L" -> "Ls" for sweep); "" when the
// command has no such flag, "?" when the name is no option at all.
std::string flag_of(const std::string& name, const Args& a) {
  std::string flag = "?";
  for (const auto& o : option_table())
    if (o.name == name) flag = o.flag;
  if (flag == "L" && !a.command().find("L") && a.command().find("Ls")) flag = "Ls";
  return flag == "?" || a.command().find(flag) ? flag : "";
}

// True when flag f is an integer flag at its smallest value (nothing left to reduce).
bool at_minimum(const Args& a, const std::string& f) {
  const Flag* fl = a.command().find(f);
  return fl && fl->kind == Kind::Int && a.get_int(f) <= fl->lo;
}

// A core message ending in "; reduce w, globals, randoms or L[, or ...]" names the options that
// could be lowered; keep those the user gave, as flags ("; reduce --globals or --L"), or all of
// them when none was given; a flag already at its smallest value is left out.
std::string name_given_flags(const std::string& msg, const Args* a) {
  const std::string mark = "; reduce ";
  const std::size_t at = msg.find(mark);
  if (!a || at == std::string::npos) return msg;
  const std::size_t start = at + mark.size();
  std::size_t end = msg.find(", or ", start);
  if (end == std::string::npos) end = msg.size();
  std::vector<std::string> all, given;
  std::string list = msg.substr(start, end - start) + ", ";
  for (std::size_t p = 0, q; (q = list.find(", ", p)) != std::string::npos; p = q + 2) {
    std::string item = list.substr(p, q - p);
    for (std::size_t o; (o = item.find(" or ")) != std::string::npos; item = item.substr(o + 4))
      all.push_back(item.substr(0, o));
    all.push_back(item);
  }
  std::vector<std::string> own;
  for (const std::string& n : all) {
    const std::string f = flag_of(n, *a);
    if (f == "?") return msg;  // not a list of options: leave the core's words
    if (f.empty() || at_minimum(*a, f)) continue;  // not a flag here, or nothing to reduce
    own.push_back(f);
    if (a->given(f)) given.push_back(f);
  }
  if (own.empty()) return msg;
  const std::vector<std::string>& names = given.empty() ? own : given;
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + ("--" + names[i]);
  return msg.substr(0, start) + out + msg.substr(end);
}

// Core messages start with the option's name ("wMin must be ..."); show its CLI flag, from the
// option table, instead ("--w-min must be ...").
// A message of several refusals (Problems: "d must be ...; tau must be ...") gets each one's flag.
std::string cli_message(const InvalidArgument& e, const Args* a) {
  std::string msg = name_given_flags(e.what(), a);
  for (const std::string& field : e.fields()) {
    if (field.empty()) continue;
    std::string flag = field;
    for (const auto& o : option_table())
      if (o.name == field) flag = o.flag;
    const std::string head = field + " ";
    if (msg.compare(0, field.size(), field) == 0 && (msg.size() == field.size() || msg[field.size()] == ' '))
      msg = "--" + flag + msg.substr(field.size());
    const std::size_t at = msg.find("; " + head);
    if (at != std::string::npos) msg = msg.substr(0, at + 2) + "--" + flag + msg.substr(at + 2 + field.size());
  }
  return msg;
}

// A budget refusal with the CLI's flags ("raise --max-bytes", the given flags to reduce).
std::string budget_message(const BudgetExceeded& e, const Args* a) {
  std::string msg = name_given_flags(e.what(), a);
  auto at = msg.find("raise the budget");
  if (at != std::string::npos) msg.replace(at, 16, "raise --max-bytes");
  return msg;
}

int fail(const std::string& msg) {
  std::fprintf(stderr, "attnx: %s\n", one_line(msg).c_str());
  return 2;
}

// Help and version texts; false when the arguments ask for neither.
bool info_request(int argc, char** argv, int* status) {
  const std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    if (cmd == "help" && argc > 2) {
      const Command* c = find_command(argv[2]);
      if (!c) {
        *status = fail("unknown command '" + std::string(argv[2]) + "' (see attnx --help)");
        return true;
      }
      write_stdout(help_text(c->def));
    } else {
      write_stdout(top_help());
    }
  } else if (cmd == "--version" || cmd == "-V" || cmd == "version") {
    if (argc > 2) {
      *status = fail(cmd + " takes nothing after it (got '" + std::string(argv[2]) + "')");
      return true;
    }
    write_stdout(version_line());
  } else {
    return false;
  }
  *status = 0;
  return true;
}

// Runs command c with argv[2..argc); every refusal is one line on stderr, status 2.
int run_command(const Command& c, int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      write_stdout(help_text(c.def));
      return 0;
    }
  }
  std::optional<Args> args;
  try {
    args.emplace(c.def, argc, argv, 2);
    default_to_construction(*args);
    refuse_not_applying(*args);
    return c.run(*args);
  } catch (const UsageError& e) {
    return fail(e.what());
  } catch (const InvalidArgument& e) {
    return fail(cli_message(e, args ? &*args : nullptr));
  } catch (const BudgetExceeded& e) {
    return fail(budget_message(e, args ? &*args : nullptr));
  } catch (const std::bad_alloc&) {
    return fail("out of memory (lower --L, --d or --dmax, or --max-bytes)");
  }
}

}  // namespace

int main_impl(int argc, char** argv) {
  try {
    if (argc < 2) return fail("missing command (see attnx --help)");
    int status = 0;
    if (info_request(argc, argv, &status)) return status;
    const std::string cmd = argv[1];
    const Command* c = find_command(cmd);
    if (!c) {
      if (cmd.rfind("--", 0) == 0) return fail("unknown option " + cmd + " (see attnx --help)");
      return fail("unknown command '" + cmd + "' (see attnx --help)");
    }
    return run_command(*c, argc, argv);
  } catch (const OutputError& e) {
    std::fprintf(stderr, "attnx: cannot write the output: %s\n", one_line(e.what()).c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attnx: internal error: %s\n", one_line(e.what()).c_str());
    return 1;
  }
}

}  // namespace attnx::cli

int main(int argc, char** argv) { return attnx::cli::main_impl(argc, argv); }
