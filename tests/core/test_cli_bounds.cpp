// SPEC §9 in the CLI: `attnx bounds` prints the floors alone (the packing floor only with --scale),
// construct and mind print a "bounds" object at the X they built, sweep adds the bounds per L after
// its existing fields and columns; bad values get the one-line refusals of every other flag.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include <attnx/bounds.hpp>
#include <attnx/json.hpp>
#include <attnx/sweep_io.hpp>

using cli_test::check_refused;
using cli_test::run_cli;

namespace {

attnx::JsonValue json_of(const std::vector<std::string>& args) {
  const auto r = run_cli(args);
  REQUIRE(r.status == 0);
  return attnx::json_parse(r.out);
}

double num(const attnx::JsonValue& o, const char* k) {
  const attnx::JsonValue* v = o.find(k);
  REQUIRE(v != nullptr);
  return v->type == attnx::JsonValue::Type::Null ? NAN : v->num;
}

std::vector<std::string> keys_of(const attnx::JsonValue& o) {
  std::vector<std::string> k;
  for (const auto& m : o.obj) k.push_back(m.first);
  return k;
}

}  // namespace

TEST_CASE("attnx bounds prints SPEC 9's floors: 4.136 at Lambda 5, 18.9986 and 4.2817 bits at L 1024") {
  if (!cli_test::cli_available()) return;
  const auto doc = json_of({"bounds", "--L", "1024", "--k", "2", "--tau", "0.1", "--scale", "5"});
  CHECK(doc.find("command")->str == "bounds");
  CHECK(num(*doc.find("params"), "scale") == 5);
  const attnx::JsonValue& p = doc.find("points")->arr.at(0);
  CHECK(num(p, "L") == 1024);
  CHECK(num(p, "column_supports") == 1024);
  CHECK(num(p, "d_lambda") == doctest::Approx(4.136273).epsilon(1e-6));
  CHECK(num(p, "bits_fixed_keys") == doctest::Approx(18.9986).epsilon(1e-5));
  CHECK(num(p, "bits_free_keys") == doctest::Approx(4.2817).epsilon(1e-5));
  CHECK(num(p, "bits_free_keys_regular") == attnx::bits_free_keys_regular(1024, 2));
  // Without a limit on the logits there is no packing floor (SPEC 9.1): no such keys.
  const auto bare = json_of({"bounds", "--L", "1024"});
  CHECK(bare.find("points")->arr.at(0).find("d_lambda") == nullptr);
  CHECK(bare.find("params")->find("scale") == nullptr);
}

TEST_CASE("attnx bounds --Ls lists one point per length — --format csv has NA without --scale") {
  if (!cli_test::cli_available()) return;
  const auto doc = json_of({"bounds", "--Ls", "64,128,4096", "--k", "3", "--tau", "0.05", "--scale", "2"});
  const auto& pts = doc.find("points")->arr;
  REQUIRE(pts.size() == 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    const int L = static_cast<int>(num(pts[i], "L"));
    CHECK(num(pts[i], "d_lambda") == attnx::packing_floor(2, L, 0.05));
    CHECK(num(pts[i], "bits_fixed_keys") == attnx::bits_fixed_keys(L, 3));
  }
  const auto csv = run_cli({"bounds", "--Ls", "64,128", "--format", "csv"});
  REQUIRE(csv.status == 0);
  CHECK(csv.out.rfind("L,k,tau,scale,column_supports,d_lambda,bits_fixed_keys,bits_free_keys,bits_free_keys_regular\n"
                      "64,2,0.1,NA,NA,NA,10.97727992349991", 0) == 0);
  const auto help = run_cli({"bounds", "--help"});
  CHECK(help.status == 0);
  for (const auto& b : attnx::bound_infos()) CHECK(help.out.find("  " + b.key + ": ") != std::string::npos);
  CHECK(help.out.find("--scale X") != std::string::npos);
  CHECK(run_cli({"--help"}).out.find("  bounds ") != std::string::npos);
}

TEST_CASE("attnx bounds refuses bad values in one line naming the flag and its range") {
  if (!cli_test::cli_available()) return;
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"--tau", "1"}, "attnx: --tau must be a number in (0, 1) (got 1)\n"},
      {{"--tau", "0"}, "attnx: --tau must be a number in (0, 1) (got 0)\n"},
      {{"--scale", "0"}, "attnx: --scale must be a number > 0 (got 0)\n"},
      {{"--scale", "-3"}, "attnx: --scale must be a number > 0 (got -3)\n"},
      {{"--scale", "inf"}, "attnx: --scale must be a number > 0 (got inf)\n"},
      {{"--scale", "nan"}, "attnx: --scale must be a number > 0 (got nan)\n"},
      {{"--L", "4", "--k", "5"}, "attnx: --k must be an integer from 1 to 4 (got 5)\n"},
      {{"--Ls", "64,3", "--k", "4"}, "attnx: --Ls must be strictly ascending (got 64,3)\n"},
      {{"--Ls", "8,16", "--k", "12"}, "attnx: --k must be an integer from 1 to 8 (got 12)\n"},
      {{"--k", "0"}, "attnx: --k must be an integer from 1 to 16384, at most L (got 0)\n"},
      {{"--L", "64", "--Ls", "64,128"}, "attnx: give --L or --Ls, not both\n"},
      {{"--L", "1"}, "attnx: --L must be an integer from 2 to 16384 (got 1)\n"},
      {{"--format", "text"}, "attnx: --format text is not available for 'bounds' (use json or csv)\n"},
  };
  for (const auto& [extra, message] : cases) {
    std::vector<std::string> args = {"bounds"};
    args.insert(args.end(), extra.begin(), extra.end());
    const auto r = run_cli(args);
    check_refused(r);
    CHECK(r.err == message);
  }
}

TEST_CASE("construct and mind print the bounds of the X they built — mind's scale is construct's at d_min") {
  if (!cli_test::cli_available()) return;
  const auto mind = json_of({"mind", "--L", "128", "--seed", "5", "--precision"});
  const int d = static_cast<int>(num(mind, "d_min"));
  const auto con = json_of({"construct", "--L", "128", "--seed", "5", "--d", std::to_string(d), "--precision"});
  const attnx::JsonValue& mb = *mind.find("bounds");
  const attnx::JsonValue& cb = *con.find("bounds");
  std::vector<std::string> expect;
  for (const auto& kv : attnx::bound_values(attnx::Bounds{})) expect.push_back(kv.first);
  CHECK(keys_of(cb) == expect);
  CHECK(keys_of(mb) == expect);
  CHECK(num(mb, "logit_scale") == num(cb, "logit_scale"));
  CHECK(num(mb, "d_lambda") == num(cb, "d_lambda"));
  CHECK(num(cb, "ratio") == doctest::Approx(d / num(cb, "d_lambda")).epsilon(1e-15));
  CHECK(d >= num(cb, "d_logit"));
  const double bits = num(*con.find("precision"), "bits");
  CHECK(num(cb, "bits_per_number") >= bits + 1);
  CHECK(num(mb, "bits_per_number") == num(cb, "bits_per_number"));
  // Without --precision jl computes no bits(X): w is null.
  CHECK(std::isnan(num(*json_of({"construct", "--L", "64", "--d", "64"}).find("bounds"), "bits_per_number")));
  // Not reached: no scale, no packing floor; n and the bits floors are still there.
  const auto nr = json_of({"mind", "--L", "64", "--dmax", "32", "--step", "16"});
  CHECK(std::isnan(num(*nr.find("bounds"), "logit_scale")));
  CHECK(std::isnan(num(*nr.find("bounds"), "d_lambda")));
  CHECK(num(*nr.find("bounds"), "bits_fixed_keys") == attnx::bits_fixed_keys(64, 2));
  // moment and lp too: their float32 X.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"construct", "--L", "64", "--construction", "moment"},
        std::vector<std::string>{"construct", "--L", "64", "--d", "16", "--construction", "lp"}}) {
    const auto r = json_of(args);
    CHECK(num(*r.find("bounds"), "logit_scale") > 0);
    CHECK(num(*r.find("bounds"), "bits_per_number") > 0);  // both pass with some bits (fp64 holds)
  }
}

TEST_CASE("sweep appends the bounds after its existing JSON keys and CSV columns") {
  if (!cli_test::cli_available()) return;
  const std::vector<std::string> args = {"sweep", "--Ls", "16,32", "--trials", "3", "--seed", "2"};
  const auto doc = json_of(args);
  const attnx::JsonValue& p = doc.find("points")->arr.at(0);
  std::vector<std::string> expect = {"L", "d_mins", "median", "quantile", "d_star", "k", "max_col_count", "in_class", "madds"};
  for (const std::string& k : attnx::sweep_bound_keys()) expect.push_back(k);
  CHECK(keys_of(p) == expect);
  CHECK(p.find("logit_scales")->arr.size() == 3u);
  const auto csv = run_cli({"sweep", "--Ls", "16,32", "--trials", "3", "--seed", "2", "--format", "csv"});
  REQUIRE(csv.status == 0);
  CHECK(csv.out.rfind("L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins,logit_scale,column_supports,"
                      "d_lambda,ratio,max_abs_logit,d_logit,ratio_logit,bits_fixed_keys,bits_free_keys,"
                      "bits_free_keys_regular,logit_scales,max_abs_logits\n", 0) == 0);
  // Both texts read back and are written again byte for byte.
  const auto json = run_cli(args);
  CHECK(attnx::sweep_to_json(attnx::parse_sweep(json.out)) == json.out);
  CHECK(attnx::sweep_to_csv(attnx::parse_sweep(csv.out)) == csv.out);
  CHECK(attnx::sweep_to_csv(attnx::parse_sweep(json.out)) == csv.out);
}
