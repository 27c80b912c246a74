// attnx CLI: entry point, dispatch, --help/--version, and the one-line error policy
// (any bad flag, value or core refusal: "attnx: <message>" on stderr, exit status 2).
#include <Eigen/Core>
#include <cstdio>
#include <new>
#include <string>

#include "commands.hpp"
#include <attnx/errors.hpp>
#include <attnx/gram.hpp>
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
      "  attnx bench --Ls 256,1024,2048\n";
  return o;
}

namespace {

std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

// Core messages start with the option's name ("wMin must be ..."); show its CLI flag, from the
// option table, instead ("--w-min must be ...").
std::string cli_message(const InvalidArgument& e) {
  std::string msg = e.what();
  const std::string& field = e.field();
  if (field.empty() || msg.compare(0, field.size(), field) != 0) return msg;
  std::string flag = field;
  for (const auto& o : option_table())
    if (o.name == field) flag = o.flag;
  return "--" + flag + msg.substr(field.size());
}

int fail(const std::string& msg) {
  std::fprintf(stderr, "attnx: %s\n", one_line(msg).c_str());
  return 2;
}

}  // namespace

int main_impl(int argc, char** argv) {
  if (argc < 2) return fail("missing command (see attnx --help)");
  const std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    if (cmd == "help" && argc > 2) {
      const Command* c = find_command(argv[2]);
      if (!c) return fail("unknown command '" + std::string(argv[2]) + "' (see attnx --help)");
      std::fputs(help_text(c->def).c_str(), stdout);
      return 0;
    }
    std::fputs(top_help().c_str(), stdout);
    return 0;
  }
  if (cmd == "--version" || cmd == "-V" || cmd == "version") {
    std::fputs(version_line().c_str(), stdout);
    return 0;
  }
  const Command* c = find_command(cmd);
  if (!c) {
    if (cmd.rfind("--", 0) == 0) return fail("unknown option " + cmd + " (see attnx --help)");
    return fail("unknown command '" + cmd + "' (see attnx --help)");
  }
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::fputs(help_text(c->def).c_str(), stdout);
      return 0;
    }
  }
  try {
    Args args(c->def, argc, argv, 2);
    if (args.help()) {
      std::fputs(help_text(c->def).c_str(), stdout);
      return 0;
    }
    return c->run(args);
  } catch (const UsageError& e) {
    return fail(e.what());
  } catch (const InvalidArgument& e) {
    return fail(cli_message(e));
  } catch (const BudgetExceeded& e) {
    std::string msg = e.what();
    auto at = msg.find("raise the budget");
    if (at != std::string::npos) msg.replace(at, 16, "raise --max-bytes");
    return fail(msg);
  } catch (const std::bad_alloc&) {
    return fail("out of memory (lower --L, --d or --dmax, or --max-bytes)");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "attnx: internal error: %s\n", one_line(e.what()).c_str());
    return 1;
  }
}

}  // namespace attnx::cli

int main(int argc, char** argv) { return attnx::cli::main_impl(argc, argv); }
