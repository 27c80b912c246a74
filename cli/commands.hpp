// attnx CLI: the subcommands and their flag tables.
#pragma once
#include <string>
#include <vector>

#include "args.hpp"

namespace attnx::cli {

struct Command {
  CommandDef def;
  int (*run)(const Args&);
};
const std::vector<Command>& commands();
const Command* find_command(const std::string& name);

int run_construct(const Args& a);
int run_mind(const Args& a);
int run_sweep(const Args& a);
int run_merge(const Args& a);
int run_frontier(const Args& a);
int run_bounds(const Args& a);
int run_bench(const Args& a);
int run_import(const Args& a);

std::string version_line();
std::string top_help();

}  // namespace attnx::cli
