// attnx CLI: helpers shared by the subcommands (options -> core structs, JSON blocks, output).
#pragma once
#include <cstdint>
#include <string>

#include "args.hpp"
#include <attnx/construct.hpp>
#include <attnx/json.hpp>
#include <attnx/mind.hpp>
#include <attnx/pattern.hpp>

namespace attnx::cli {

// Pattern flags -> PatternSpec. Refuses flags that do not apply to the chosen family
// (e.g. --k with --pattern window). with_L: read --L (construct, mind).
PatternSpec pattern_spec(const Args& a, bool with_L);
// The target for construct/mind: generated from Rng(pattern_seed(seed)), or read from
// --pattern-file for custom (then spec.L is set to the file's L).
Pattern build_pattern(const Args& a, PatternSpec& spec, std::uint64_t seed);
// Reads a custom pattern file (see --help). L_flag: value of --L or -1 if not given.
Pattern read_pattern_file(const std::string& path, long long L_flag);

Tolerances tolerances(const Args& a);
MinDOptions mind_options(const Args& a);
std::uint64_t seed_of(const Args& a);
std::uint64_t max_bytes_of(const Args& a);

// "params" members for the pattern: family, L (if with_L), the family's own parameters, weights.
void write_pattern_params(JsonWriter& w, const Args& a, const PatternSpec& spec, bool with_L);
void write_tolerances(JsonWriter& w, const Tolerances& t);
// {"L", "k", "max_col_count", "in_class", "nnz"}
void write_pattern_stats(JsonWriter& w, const Pattern& p);

// Writes text to stdout; throws std::runtime_error on I/O failure.
void write_stdout(const std::string& text);

// Progress on stderr: "\r"-updated on a terminal, a line per 10% otherwise.
class ProgressPrinter {
 public:
  ProgressPrinter(bool enabled, std::string label);
  ~ProgressPrinter();
  bool operator()(double fraction);
  void set_label(std::string label) { label_ = std::move(label); }
  void done();

 private:
  bool enabled_, tty_, open_ = false;
  std::string label_;
  int last_ = -1;
};

}  // namespace attnx::cli
