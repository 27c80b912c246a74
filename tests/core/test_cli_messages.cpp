// CLI messages blame only flags the user gave (issue 9, item 11): a default that does not fit a
// given --L is named as a default, "reduce ..." lists only the given flags (and none already at
// its minimum), and a failed write of the output is one clear line with exit status 1.
#include <doctest/doctest.h>

#include <string>

#include "cli_run.hpp"

using cli_test::check_refused;
using cli_test::run_cli;

namespace {
bool has(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }
}  // namespace

TEST_CASE("a family default that does not fit the given L is named as the default") {
  if (!cli_test::cli_available()) return;
  const auto r = run_cli({"construct", "--pattern", "block", "--L", "2"});
  check_refused(r);
  CHECK(r.err == "attnx: --L 2 is too small for the default --block 4: give --block from 1 to 2\n");
  const auto d = run_cli({"mind", "--pattern", "dilated", "--L", "2", "--w", "1"});
  check_refused(d);
  CHECK(d.err == "attnx: --L 2 is too small for the default --r 2: give --r from 1 to 1\n");
  const auto s = run_cli({"sweep", "--pattern", "block", "--Ls", "2,8"});
  check_refused(s);
  CHECK(s.err ==
        "attnx: L = 2 in --Ls is too small for the default --block 4: give --block from 1 to 2\n");
  // A given value above the bound set by the default --L says that L is the default.
  const auto g = run_cli({"construct", "--pattern", "block", "--block", "300"});
  check_refused(g);
  CHECK(g.err == "attnx: --block must be an integer from 1 to 256 with the default --L 256 (got 300)\n");
  // Both given: the range, with the L that sets it (in --Ls: the first that does not fit).
  const auto both = run_cli({"construct", "--pattern", "block", "--L", "2", "--block", "3"});
  check_refused(both);
  CHECK(both.err == "attnx: --block must be an integer from 1 to 2 for --L 2 (got 3)\n");
  const auto swept = run_cli({"sweep", "--Ls", "2,64", "--k", "3"});
  check_refused(swept);
  CHECK(swept.err == "attnx: --k must be an integer from 1 to 2 for L = 2 in --Ls (got 3)\n");
}

TEST_CASE("too many nonzeros: only the given flags that can be reduced are named") {
  if (!cli_test::cli_available()) return;
  for (const bool w0 : {false, true}) {
    std::vector<std::string> args{"construct", "--pattern", "bigbird", "--L", "16384",
                                  "--globals", "16384"};
    if (w0) args.insert(args.end(), {"--w", "0"});  // already at its minimum
    const auto r = run_cli(args);
    check_refused(r);
    CHECK(has(r.err, "above the limit of 4194304; reduce --globals or --L\n"));
  }
  const auto r = run_cli({"construct", "--pattern", "bigbird", "--L", "16384", "--randoms", "16383"});
  check_refused(r);
  CHECK(has(r.err, "; reduce --randoms or --L\n"));
}

TEST_CASE("memory budget refusals name the command's own flags") {
  if (!cli_test::cli_available()) return;
  const auto m = run_cli({"mind", "--L", "16384", "--max-bytes", "1048576"});
  check_refused(m);
  CHECK(has(m.err, "; reduce --L, or raise --max-bytes\n"));
  const auto s = run_cli({"sweep", "--Ls", "16384", "--max-bytes", "1048576"});
  check_refused(s);
  CHECK(has(s.err, "; reduce --Ls, or raise --max-bytes\n"));
  const auto c = run_cli({"construct", "--d", "16384", "--max-bytes", "1048576"});
  check_refused(c);
  CHECK(has(c.err, "; reduce --d, or raise --max-bytes\n"));
}

TEST_CASE("a failed write of the output: 'cannot write the output', exit status 1") {
  if (!cli_test::cli_available()) return;
  const auto r = run_cli({"construct", "--L", "8", "--d", "8"}, "/dev/null", "/dev/full");
  CHECK(r.status == 1);
  CHECK(r.err == "attnx: cannot write the output: No space left on device\n");
  const auto h = run_cli({"--help"}, "/dev/null", "/dev/full");
  CHECK(h.status == 1);
  CHECK(h.err == "attnx: cannot write the output: No space left on device\n");
}

TEST_CASE("--help gives each construction's own defaults and limits, and --shard's value as I/N") {
  if (!cli_test::cli_available()) return;
  // One line per flag: help wraps at 100 columns, so join the lines before searching.
  auto joined = [](std::string s) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '\n') {
        while (i + 1 < s.size() && s[i + 1] == ' ') ++i;
        out += ' ';
      } else {
        out += s[i];
      }
    }
    return out;
  };
  const std::string mind = joined(run_cli({"mind", "--help"}).out);
  CHECK(mind.find("with --construction lp: default 1; with --construction opt: default 1)") != std::string::npos);
  CHECK(mind.find("with --construction lp: default 256, at most 256; with --construction opt: default 128, at most 128)") != std::string::npos);
  const std::string construct = joined(run_cli({"construct", "--help"}).out);
  CHECK(construct.find("with --construction lp: default 32, at most 256; with --construction opt: default 16, at most 128)") != std::string::npos);
  // What the help says is what runs: mind with lp and no grid flags searches step 1 up to 256.
  const auto r = run_cli({"mind", "--L", "32", "--construction", "lp"});
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\"step\": 1,") != std::string::npos);
  CHECK(r.out.find("\"d_max\": 256") != std::string::npos);
  CHECK(run_cli({"sweep", "--help"}).out.find("--shard I/N ") != std::string::npos);
}

TEST_CASE("flags a run would ignore are refused, naming them: dry run with csv, a shard or progress - bench scaling with trials or GEMM repetitions - threads without lp") {
  if (!cli_test::cli_available()) return;
  const std::vector<std::pair<std::vector<std::string>, std::string>> runs = {
      {{"sweep", "--Ls", "64", "--dry-run", "--format", "csv"}, "attnx: --dry-run prints its prediction as JSON; it cannot go with --format csv\n"},
      {{"sweep", "--Ls", "64", "--dry-run", "--shard", "0/2"}, "attnx: --dry-run predicts the whole sweep without running it; it cannot go with --shard\n"},
      {{"sweep", "--Ls", "64", "--dry-run", "--progress"}, "attnx: --dry-run predicts the whole sweep without running it; it cannot go with --progress\n"},
      {{"bench", "--scaling", "--trials", "2"}, "attnx: --scaling times one trial per L and no GEMM; it cannot go with --trials\n"},
      {{"bench", "--scaling", "--gemm-reps", "7"}, "attnx: --scaling times one trial per L and no GEMM; it cannot go with --gemm-reps\n"},
      {{"construct", "--d", "16", "--threads", "2"}, "attnx: --threads 2 applies only to --construction lp on construct (its rows' linear programs; got --construction jl, which runs on one thread)\n"},
      {{"mind", "--L", "64", "--construction", "jl", "--threads", "0"}, "attnx: --threads 0 applies only to --construction lp on mind (its rows' linear programs; got --construction jl, which runs on one thread)\n"},
      {{"construct", "--construction", "moment", "--L", "16", "--threads", "2"}, "attnx: --threads 2 applies only to --construction lp on construct (its rows' linear programs; got --construction moment, which runs on one thread)\n"},
  };
  for (const auto& [args, text] : runs) {
    const auto r = run_cli(args);
    cli_test::check_refused(r);
    CHECK(r.err == text);
  }
  CHECK(run_cli({"construct", "--construction", "lp", "--L", "32", "--threads", "2"}).status == 0);
  CHECK(run_cli({"sweep", "--Ls", "32", "--trials", "2", "--dry-run", "--format", "json"}).status == 0);
}

TEST_CASE("a flag followed by another flag needs its value first - help and version take nothing") {
  if (!cli_test::cli_available()) return;
  const std::vector<std::pair<std::vector<std::string>, std::string>> runs = {
      {{"construct", "--L", "--d", "16"}, "attnx: --L needs a value before --d: integer from 2 to 16384\n"},
      {{"sweep", "--Ls", "--trials=3"}, "attnx: --Ls needs a value before --trials: comma-separated ascending integers from 2 to 16384\n"},
      {{"construct", "--help=1"}, "attnx: --help takes no value (got 1)\n"},
      {{"--version", "extra"}, "attnx: --version takes nothing after it (got 'extra')\n"},
  };
  for (const auto& [args, text] : runs) {
    const auto r = run_cli(args);
    cli_test::check_refused(r);
    CHECK(r.err == text);
  }
  // A value that only looks like a flag is a value, refused by its own range.
  CHECK(run_cli({"construct", "--L", "--foo"}).err == "attnx: --L must be an integer from 2 to 16384 (got --foo)\n");
}
