// Issue 27, item 3: a value given for a field that does not apply is refused, saying why, by the
// core's applies rule (schema.hpp), the same way for every command; a flag left at its default
// is never refused; the construction's own defaults are used where the table's would be out of
// its limits (lp's d, step and dmax).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli_run.hpp"
#include <attnx/construction.hpp>
#include <attnx/json.hpp>
#include <attnx/schema.hpp>

using cli_test::run_cli;

namespace {

bool has(const cli_test::Run& r, const std::string& text) { return r.err.find(text) != std::string::npos; }

}  // namespace

TEST_CASE("values that do not apply to the construction are refused, saying what the construction takes") {
  if (!cli_test::cli_available()) return;
  const std::string moment = "(got --construction moment, whose hidden size D = 2m is fixed by the pattern";
  const std::vector<std::pair<std::vector<std::string>, std::string>> runs = {
      {{"construct", "--construction", "moment", "--L", "64", "--d", "16384"},
       "--d 16384 applies only to --construction jl, lp or opt " + moment},
      {{"construct", "--construction", "moment", "--L", "64", "--box", "nan"}, "--box nan applies only to --construction lp " + moment},
      {{"construct", "--construction", "moment", "--L", "64", "--box", "inf"}, "--box inf applies only to --construction lp"},
      {{"construct", "--construction", "moment", "--L", "64", "--box", "-1"}, "--box -1 applies only to --construction lp"},
      {{"construct", "--construction", "moment", "--L", "64", "--box", "0"}, "--box 0 applies only to --construction lp"},
      {{"construct", "--construction", "jl", "--L", "64", "--box", "5"},
       "--box 5 applies only to --construction lp (got --construction jl, whose own flags are --d, --projection)"},  // construct has no --step, --dmax
      {{"construct", "--L", "64", "--box", "5"}, "--box 5 applies only to --construction lp (got --construction jl"},
      {{"sweep", "--construction", "moment", "--Ls", "16", "--step", "4"}, "--step 4 applies only to --construction jl, lp or opt " + moment},
      {{"sweep", "--construction", "moment", "--Ls", "16", "--dmax", "64"}, "--dmax 64 applies only to --construction jl, lp or opt"},
      {{"sweep", "--construction", "moment", "--Ls", "16", "--box", "3"}, "--box 3 applies only to --construction lp"},
      {{"mind", "--construction", "lp", "--L", "16", "--projection", "orthogonal"},
       "--projection orthogonal applies only to --construction jl (got --construction lp, whose own flags are --box, --step, --dmax)"},  // mind has no --d
      {{"construct", "--construction", "lp", "--L", "16", "--projection", "gaussian"}, "--projection gaussian applies only to --construction jl"},
  };
  for (const auto& [args, text] : runs) {
    const auto r = run_cli(args);
    cli_test::check_refused(r);
    CHECK_MESSAGE(has(r, text), r.err);
  }
}

TEST_CASE("values that do not apply to the family or the weights are refused, naming the family's flags") {
  if (!cli_test::cli_available()) return;
  cli_test::TempDir dir;
  const std::string file = dir.file("p.csv");
  cli_test::spit(file, "0,1,1\n1,0,1\n");
  const std::vector<std::pair<std::vector<std::string>, std::string>> runs = {
      {{"construct", "--pattern", "window", "--k", "3"}, "--k 3 applies only to --pattern random (got --pattern window, whose own flags are --w)"},
      {{"construct", "--pattern", "permutation", "--w", "3"}, "(got --pattern permutation, which takes no flags of its own)"},
      {{"mind", "--pattern", "block", "--globals", "2"}, "--globals 2 applies only to --pattern bigbird (got --pattern block, whose own flags are --block)"},
      {{"sweep", "--pattern", "dilated", "--stride", "2", "--Ls", "16"}, "--stride 2 applies only to --pattern strided"},
      {{"construct", "--pattern", "custom", "--pattern-file", file, "--k", "2"}, "(got --pattern custom, whose target comes from --pattern-file)"},
      {{"construct", "--pattern", "custom", "--pattern-file", file, "--weights", "random"}, "--weights random applies only to --pattern random, permutation"},
      {{"construct", "--weights", "uniform", "--w-min", "0.5"}, "--w-min 0.5 applies only to --weights random (got --weights uniform, which takes no flags of its own)"},
      {{"construct", "--weights", "random", "--decay", "2"}, "--decay 2 applies only to --weights decaying (got --weights random, whose own flags are --w-min)"},
  };
  for (const auto& [args, text] : runs) {
    const auto r = run_cli(args);
    cli_test::check_refused(r);
    CHECK_MESSAGE(has(r, text), r.err);
  }
}

TEST_CASE("the CLI refuses a given flag exactly when the core's applies rule says it is not used") {
  if (!cli_test::cli_available()) return;
  cli_test::TempDir dir;
  const std::string file = dir.file("p.csv");
  cli_test::spit(file, "0,1,1\n1,0,1\n2,2,1\n3,3,1\n");
  std::vector<std::string> families;
  for (const auto& f : attnx::pattern_families()) families.push_back(f.name);
  int refused = 0, used = 0;
  for (const std::string& family : families)
    for (const std::string& weights : {"uniform", "random", "decaying"})
      for (const std::string& construction : attnx::construction_names())
        for (const char* name : {"k", "w", "stride", "weights", "wMin", "decay", "d", "projection", "box"}) {
          const attnx::OptionInfo& o = attnx::option_info(name);
          const bool about_weights = o.name == "weights" || o.name == "wMin" || o.name == "decay";
          if (weights != "uniform" && !about_weights) continue;  // the weights matter only to these
          const auto choice = [&](const std::string& n) {
            return n == "pattern" ? family : n == "weights" ? weights : construction;
          };
          // Only the flag under test is given beyond the choices (weights only where it applies).
          std::vector<std::string> args = {"construct", "--pattern", family, "--construction", construction, "--L", "4"};
          if (family == "custom") args.insert(args.end(), {"--pattern-file", file});
          const bool weights_given = family != "custom" && weights != "uniform" && std::string(name) != "weights";
          if (weights_given) args.insert(args.end(), {"--weights", weights});
          const std::string value = attnx::context_default("cli", name);
          args.insert(args.end(), {"--" + o.flag, o.name == "d" ? "2" : value});
          const auto r = run_cli(args);
          const bool refused_here = has(r, "--" + o.flag + " ") && has(r, " applies only to ");
          const bool applies = attnx::option_applies(o, choice);
          CHECK_MESSAGE(refused_here == !applies, family << " " << weights << " " << construction << " --" << o.flag << ": " << r.err);
          (applies ? used : refused) += 1;
        }
  CHECK(refused > 100);
  CHECK(used > 100);
}

TEST_CASE("defaults are never refused — the construction's own defaults keep lp within its limits") {
  if (!cli_test::cli_available()) return;
  auto params = [](const std::vector<std::string>& args) {
    const auto r = run_cli(args);
    REQUIRE_MESSAGE(r.status == 0, r.err);
    return attnx::json_parse(r.out);
  };
  // moment: d, step and dmax are left at their defaults, so nothing is refused.
  const auto m = params({"construct", "--construction", "moment", "--L", "16"});
  CHECK(m.find("params")->find("d")->num == 2 * m.find("pattern")->find("k")->num);  // D = 2m
  params({"sweep", "--construction", "moment", "--Ls", "16", "--trials", "1"});
  // lp: d 32 (the table's 512 is above lp's 256), its own grid step 1 and dmax 256.
  CHECK(params({"construct", "--construction", "lp", "--L", "16"}).find("params")->find("d")->num == 32);
  const auto lp = params({"mind", "--construction", "lp", "--L", "16"});
  CHECK(lp.find("params")->find("step")->num == 1);
  CHECK(lp.find("params")->find("d_max")->num == 256);
  // jl keeps the table's defaults.
  CHECK(params({"construct", "--L", "16"}).find("params")->find("d")->num == 512);
  const auto jl = params({"mind", "--L", "16"});
  CHECK(jl.find("params")->find("step")->num == 16);
  CHECK(jl.find("params")->find("d_max")->num == 4096);
  // A given value above lp's limit is refused with the limit, before any work.
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"construct", "--construction", "lp", "--L", "64", "--d", "16384", "--max-bytes", "1000000000"},
           {"mind", "--construction", "lp", "--L", "64", "--step", "16384", "--dmax", "16384"},
           {"sweep", "--construction", "lp", "--Ls", "64", "--dmax", "4096"}}) {
    const auto r = run_cli(args);
    cli_test::check_refused(r);
    CHECK_MESSAGE(has(r, "must be an integer from 1 to 256 for construction lp"), r.err);
  }
}
