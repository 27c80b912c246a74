// attnx sweep --report: the numbers the lab shows beside a sweep, printed by the CLI from the same
// core functions: every length's success curve equals the one recomputed here from its d_mins,
// the reading counts the reached quantiles, the axes cover the data; without --report the output
// is unchanged (the sweep file), with it the file still reads; --report is refused with CSV,
// --dry-run and --shard before anything runs.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include <attnx/json.hpp>
#include <attnx/sweep_io.hpp>

using cli_test::run_cli;
using attnx::JsonValue;

namespace {
const std::vector<std::string> kSweep = {"sweep", "--Ls", "16,32,64,128,256", "--trials", "3", "--seed", "2"};

std::vector<std::string> with(std::vector<std::string> a, std::initializer_list<const char*> more) {
  for (const char* m : more) a.push_back(m);
  return a;
}
}  // namespace

TEST_CASE("sweep --report prints the success curves, the fit reading and the plots' axes") {
  if (!cli_test::cli_available()) return;
  const auto plain = run_cli(kSweep);
  const auto r = run_cli(with(kSweep, {"--report"}));
  REQUIRE(plain.status == 0);
  REQUIRE(r.status == 0);
  CHECK(plain.out.find("\"report\"") == std::string::npos);
  // The sweep file is the same up to the report, which closes it.
  CHECK(r.out.compare(0, plain.out.size() - 3, plain.out, 0, plain.out.size() - 3) == 0);
  CHECK(attnx::sweep_to_json(attnx::parse_sweep(r.out)) == plain.out);
  const JsonValue j = attnx::json_parse(r.out);
  const JsonValue& rep = *j.find("report");
  const auto& points = j.find("points")->arr;
  const auto& success = rep.find("success")->arr;
  REQUIRE(success.size() == points.size());
  int usable = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    // The success curve recomputed here: counts of each reached d, p = trials up to d / all trials.
    std::map<int, int> count;
    const auto& d = points[i].find("d_mins")->arr;
    for (const JsonValue& v : d)
      if (v.type == JsonValue::Type::Number) ++count[static_cast<int>(v.num)];
    const auto& steps = success[i].find("steps")->arr;
    REQUIRE(steps.size() == count.size());
    int cum = 0, k = 0;
    for (const auto& [dv, n] : count) {
      cum += n;
      CHECK(steps[k].arr[0].num == dv);
      CHECK(steps[k].arr[1].num == n);
      CHECK(steps[k].arr[2].num == double(cum) / double(d.size()));
      ++k;
    }
    CHECK(success[i].find("L")->num == points[i].find("L")->num);
    usable += points[i].find("quantile")->type == JsonValue::Type::Number;
  }
  const JsonValue& reading = *rep.find("reading");
  CHECK(reading.find("usable")->num == usable);
  CHECK(reading.find("lengths")->num == 5);
  CHECK(reading.find("fits_ok")->b);
  CHECK(reading.find("basis")->str == "bootstrap");
  const JsonValue& cmp = *rep.find("fit_comparison");
  CHECK(cmp.find("resamples")->num == 1000);
  CHECK(reading.find("verdict")->str == cmp.find("verdict")->str);
  // fit_verdict's rule on the printed counts: a share of 0.9 of the resamples, 5 lengths.
  const double logw = cmp.find("log_wins")->num, poww = cmp.find("power_wins")->num;
  const std::string rule = usable < 5 ? "too-few-lengths" : logw >= 900 ? "log" : poww >= 900 ? "power" : "undecided";
  CHECK(cmp.find("verdict")->str == rule);
  const JsonValue& axes = *rep.find("axes");
  CHECK(axes.find("L")->find("lo")->num == 16 / 1.3);
  std::vector<double> ticks;
  for (const JsonValue& t : axes.find("L")->find("ticks")->arr) ticks.push_back(t.num);
  CHECK(ticks == std::vector<double>{16, 32, 64, 128, 256});
  double top = 0;
  for (const JsonValue& p : points)
    for (const JsonValue& v : p.find("d_mins")->arr) top = std::max(top, v.num);
  CHECK(axes.find("d")->find("hi")->num >= top);
  CHECK(axes.find("success_d")->find("hi")->num >= top);
}

TEST_CASE("sweep and merge refuse --report where it has no meaning, before running") {
  if (!cli_test::cli_available()) return;
  for (const auto& extra : {std::vector<std::string>{"--format", "csv"}, std::vector<std::string>{"--dry-run"},
                            std::vector<std::string>{"--shard", "0/2"}}) {
    std::vector<std::string> a = with(kSweep, {"--report"});
    a.insert(a.end(), extra.begin(), extra.end());
    const auto r = run_cli(a);
    CHECK(r.status == 2);
    CHECK(r.err.rfind("attnx: --report", 0) == 0);
  }
}
