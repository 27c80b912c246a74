// attnx CLI: the subcommands and their flag tables.
#pragma once
#include <string>
#include <vector>

#include "args.hpp"

namespace attnx::cli {

// Native default memory budget (8 GiB); the browser build uses the core's 2 GiB default.
constexpr unsigned long long kCliDefaultMaxBytes = 8ull << 30;
// Seeds are limited to integers a JavaScript number holds exactly, so every seed can be
// reproduced in the browser build too.
constexpr long long kMaxSeed = 9007199254740991LL;  // 2^53 - 1

struct Command {
  CommandDef def;
  int (*run)(const Args&);
};
const std::vector<Command>& commands();
const Command* find_command(const std::string& name);

int run_construct(const Args& a);
int run_mind(const Args& a);
int run_sweep(const Args& a);
int run_bench(const Args& a);

std::string version_line();
std::string top_help();

}  // namespace attnx::cli
