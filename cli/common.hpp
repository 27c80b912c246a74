// attnx CLI: helpers shared by the subcommands (options -> core structs, JSON blocks, output).
#pragma once
#include <attnx/construction.hpp>
#include <chrono>
#include <functional>
#include <cstdint>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

#include "args.hpp"
#include <attnx/construct.hpp>
#include <attnx/inputs.hpp>
#include <attnx/json.hpp>
#include <attnx/mind.hpp>
#include <attnx/pattern.hpp>

namespace attnx::cli {

// Pattern flags -> PatternSpec (flags that do not apply to the family were refused before, see
// refuse_not_applying). with_L: read --L (construct, mind).
PatternSpec pattern_spec(const Args& a, bool with_L);
// The target for construct/mind: generated from Rng(pattern_seed(seed)), or read from
// --pattern-file for custom (then spec.L is set to the file's L).
Pattern build_pattern(const Args& a, PatternSpec& spec, std::uint64_t seed);
// Reads a custom pattern file (see --help). L_flag: value of --L or -1 if not given. Refuses
// (naming the file) a directory, and a file larger than the text limit under max_bytes before
// reading it (see attnx/text_budget.hpp).
Pattern read_pattern_file(const std::string& path, long long L_flag, std::uint64_t max_bytes);
// Refuses family parameters left at their default that do not fit the given lengths, naming
// the flag the user gave ("--L 2 is too small for the default --block 4: give --block from 1
// to 2"), and given parameters above a bound set by the default --L (construct, mind). Ls: the
// lengths the run uses; L_flag: "L" or "Ls".
void check_family_defaults(const Args& a, const PatternSpec& spec, const std::vector<int>& Ls,
                           const std::string& L_flag);

// Refuses the first given flag whose option does not apply to the chosen family, weights or
// construction (the core's applies rule), e.g. "--d 64 applies only to --construction jl or lp
// (got --construction moment, whose hidden size is D = 2m, fixed by the pattern ...)". Flags
// left at their default are never refused (applies.cpp).
void refuse_not_applying(const Args& a);

// Refuses the first of `others` that was given: "<why>; it cannot go with --<other>" (a flag the
// run would ignore is refused, never ignored).
void refuse_given_with(const Args& a, const std::string& why, std::initializer_list<const char*> others);
// The construction's own defaults of --d, --step and --dmax for those not given (lp: 32, 1,
// 256), so that a default is always within the construction's limits (applies.cpp).
void default_to_construction(Args& a);

// The largest row count of the target spec describes, for a budget checked before it is drawn,
// after the core's checks of the spec (pattern.hpp validate: a target above kMaxNnz nonzeros is
// refused naming the family's flags); -1 for a custom target (its file is read under a budget
// of its own).
int row_bound_before_drawing(const PatternSpec& spec);

Tolerances tolerances(const Args& a);
// --step, --dmax, --max-bytes and --projection (see projection_of).
MinDOptions mind_options(const Args& a);
// --projection, jl's projection kind (SPEC 8.1); given with another construction it was refused
// before (refuse_not_applying).
ProjectionKind projection_of(const Args& a);
// The construction's request as the command's flags give it (construction, tolerances, d when the
// command has --d, the grid when it has --step, seed, budget, box, scale, projection, --precision
// when it has it, --threads for rows where the construction spreads them): unchecked, for
// check_request (construction.hpp). A flag's refusal is thrown (UsageError, every bad flag in one),
// or kept in *refused when given (its field then keeps its default).
ConstructionRequest construction_request(const Args& a, std::vector<std::string>* refused = nullptr);
// That request checked for `purpose` after `set` (optional) fills what the command adds (threads):
// every bad flag and every refusal of check_request at once (InvalidArgument, worded with the
// flags by the CLI's error printer).
CheckedRequest checked_request(const Args& a, Purpose purpose,
                               const std::function<void(ConstructionRequest&)>& set = nullptr);
// Writes the construction's own parameters that it uses (info.params: box, scale).
void write_construction_params(JsonWriter& w, const Args& a, const ConstructionInfo& c);
std::uint64_t seed_of(const Args& a);
std::uint64_t max_bytes_of(const Args& a);
// --shard i/n of a command that prints a part file: { i, n } as given (each clamped to
// [-1, 2^30], the part's own check names a bad one). Refuses --format other than json (a part is
// JSON for attnx merge) and a text that is not two integers (UsageError naming --shard).
struct ShardFlag {
  int index = -1, count = -1;
};
ShardFlag shard_of(const Args& a);

// "params" members for the pattern: family, L (if with_L), the family's own parameters, weights.
void write_pattern_params(JsonWriter& w, const Args& a, const PatternSpec& spec, bool with_L);
void write_tolerances(JsonWriter& w, const Tolerances& t);
// {"L", "k", "max_col_count", "in_class", "nnz"}
void write_pattern_stats(JsonWriter& w, const Pattern& p);
// The "precision" member: SPEC §8.4's input norm, float32 and float64 verdicts, bits(X) (null:
// not reached).
void write_precision(JsonWriter& w, const PrecisionReport& p);
// The "bounds" member: SPEC §9 of one X, keys as the core's bound_values gives them, unknown or
// not finite values null.
void write_bounds(JsonWriter& w, const Bounds& b);

// A failed write of the output (stdout): "attnx: cannot write the output: <reason>", exit 1.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// Writes text to stdout; throws OutputError (with the system's reason) on I/O failure.
void write_stdout(const std::string& text);

// Progress on stderr: "\r"-updated on a terminal, a line per 10% otherwise, with the time left
// once the core's estimate has one (eta_seconds: the rate so far): "attnx: sweep 40% (about 12 s
// left)".
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
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace attnx::cli
