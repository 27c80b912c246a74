// Sweep files (attnx/sweep_io.hpp): the CLI's texts byte for byte (unedited `attnx sweep`
// outputs in tests/node/lab-fixtures and a live run), a hand-made record written exactly,
// round trips, and refusals that name the first problem.
#include <doctest/doctest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#include "cli_path.hpp"
#include "helpers.hpp"
#include <attnx/sweep_io.hpp>

using attnx::SweepRecord;
using attnx::SweepRecordPoint;
using attnx::parse_sweep;

namespace {

std::string fixture(const std::string& name) {
  std::string dir = __FILE__;
  dir = dir.substr(0, dir.rfind('/'));  // tests/core
  std::ifstream in(dir + "/../node/lab-fixtures/" + name, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string refusal(const std::string& text) {
  auto e = th::invalid([&] { parse_sweep(text); });
  CHECK(e.field() == "text");
  return e.what();
}

SweepRecord hand_record() {
  SweepRecord r;
  r.version = "9.9.9";
  r.params.pattern = "window";
  r.params.family = {{"w", 2}};
  r.params.weights = "decaying";
  r.params.decay = 0.5;
  r.params.w_min = 0.3;  // not written: weights are not random
  r.params.eps = 1;
  r.params.tau = 0.1;
  r.params.delta = 0.25;
  r.params.step = 8;
  r.params.d_max = 64;
  r.params.trials = 2;
  r.params.seed = 7;
  r.params.max_bytes = 1048576;
  SweepRecordPoint a, b;
  a.L = 16, a.d_mins = {8, 24}, a.median = 16, a.quantile = 24, a.d_star = 123.5;
  a.k = 5, a.max_col_count = 5, a.in_class = true, a.madds = 1000;
  b.L = 32, b.d_mins = {-1, 40}, b.median = -1, b.quantile = -1;
  b.d_star = std::numeric_limits<double>::infinity(), b.max_col_count = 3;
  r.points = {a, b};
  r.fits.power = {true, 2.5, 0.5, 1};
  return r;
}

const char* const kHandJson = R"({
  "command": "sweep",
  "version": "9.9.9",
  "params": {
    "pattern": "window",
    "w": 2,
    "weights": "decaying",
    "decay": 0.5,
    "eps": 1,
    "tau": 0.1,
    "delta": 0.25,
    "step": 8,
    "d_max": 64,
    "Ls": [16, 32],
    "trials": 2,
    "seed": 7,
    "max_bytes": 1048576
  },
  "points": [
    {
      "L": 16,
      "d_mins": [8, 24],
      "median": 16,
      "quantile": 24,
      "d_star": 123.5,
      "k": 5,
      "max_col_count": 5,
      "in_class": true,
      "madds": 1000
    },
    {
      "L": 32,
      "d_mins": [null, 40],
      "median": null,
      "quantile": null,
      "d_star": null,
      "k": null,
      "max_col_count": 3,
      "in_class": null,
      "madds": null
    }
  ],
  "fits": {
    "log": {"model": "d = a + b ln L", "ok": false, "a": null, "b": null, "r2": null},
    "power": {"model": "d = c L^p", "ok": true, "c": 2.5, "p": 0.5, "r2": 1}
  }
}
)";

const char* const kHandCsv =
    "L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins\n"
    "16,2,16,24,123.5,5,5,true,8;24\n"
    "32,2,NA,NA,NA,NA,3,NA,NA;40\n";

bool run_cli(const std::string& cmd, std::string& out) {
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return false;
  char buf[4096];
  std::size_t n;
  out.clear();
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  return pclose(p) == 0;
}

}  // namespace

TEST_CASE("a hand-made record is written exactly — unknown and non-finite values are null / NA") {
  const SweepRecord r = hand_record();
  CHECK(attnx::sweep_to_json(r) == kHandJson);
  CHECK(attnx::sweep_to_csv(r) == kHandCsv);
  SweepRecord unversioned = r;
  unversioned.version.clear();
  CHECK(th::contains(attnx::sweep_to_json(unversioned), "\"version\": \"" ATTNX_VERSION "\""));
}

TEST_CASE("parse_sweep keeps a file's version only when it reads as one") {
  auto version_of = [](const std::string& v) {
    std::string text = kHandJson;
    const std::string key = "\"version\": \"9.9.9\"";
    REQUIRE(text.find(key) != std::string::npos);
    text.replace(text.find(key), key.size(), "\"version\": \"" + v + "\"");
    return parse_sweep(text).version;
  };
  for (const char* ok : {"0.1.0", "12.0.345", "1.2.3-rc.1", "1.2.3+build-7"}) CHECK(version_of(ok) == ok);
  for (const char* bad : {"NaN.0", "1.2", "1..3", "v1.2.3", "1.2.3-", "1.2.3 ", "1.2.3-a b", "", "1.2.3-abcdefghijklmnop"})
    CHECK_MESSAGE(version_of(bad).empty(), bad);
}

TEST_CASE("parse_sweep reads both texts back") {
  SweepRecord j = parse_sweep(kHandJson);
  CHECK(j.version == "9.9.9");
  CHECK(j.points[0].median == 16);
  CHECK(j.points[0].quantile == 24);
  CHECK(!j.points[1].d_star);  // the file's null (the record had infinity)
  CHECK(!j.fits.log.ok);       // fits are recomputed: one reached quantile is too few
  CHECK(!j.fits.power.ok);
  j.fits = hand_record().fits;
  CHECK(attnx::sweep_to_json(j) == kHandJson);

  const SweepRecord c = parse_sweep(kHandCsv);
  CHECK(c.version.empty());
  CHECK(!c.params.delta);
  CHECK(!c.params.pattern);
  CHECK(c.params.trials == 2LL);
  CHECK(c.points[0].quantile == 24);  // as written (no delta in a CSV)
  CHECK(!c.points[1].madds);
  CHECK(attnx::sweep_to_csv(c) == kHandCsv);
}

// text with its fits' "power" line replaced by `line` (the fixtures were written before the power
// fit became least squares in d-space: their power line may hold the log-log fit's numbers).
std::string with_power_line(std::string text, const std::string& line) {
  const std::size_t at = text.find("    \"power\": {");
  REQUIRE(at != std::string::npos);
  return text.replace(at, text.find('\n', at) - at, line);
}

TEST_CASE("attnx sweep outputs read back and are written byte for byte, the power fit recomputed in d-space") {
  // The paper fixture's quantiles (688, 944, 944, 1120 at L = 64..512) fitted as d = c L^p by
  // least squares in d-space; checked independently with a fine grid over p and a ternary search
  // in Python: c 324.943119, p 0.198801423, R^2 0.867592640542811 (the residual is flat at the
  // optimum, so c and p agree to about 1e-8 relative, R^2 to 1e-15).
  const std::string paper_power =
      "    \"power\": {\"model\": \"d = c L^p\", \"ok\": true, \"c\": 324.9431270391453, "
      "\"p\": 0.19880141879068566, \"r2\": 0.8675926405428116}";
  for (const char* f : {"cli-sweep-paper.json", "cli-sweep-dilated.json", "cli-sweep-notreached.json"}) {
    CAPTURE(f);
    std::string text = fixture(f);
    if (std::string(f) == "cli-sweep-paper.json") text = with_power_line(text, paper_power);
    CHECK(attnx::sweep_to_json(parse_sweep(text)) == text);
    CHECK(attnx::sweep_to_json(parse_sweep("\xEF\xBB\xBF\n" + text)) == text);  // BOM accepted
  }
  const std::string csv = fixture("cli-sweep-paper.csv");
  CHECK(attnx::sweep_to_csv(parse_sweep(csv)) == csv);
  CHECK(attnx::sweep_to_csv(parse_sweep(fixture("cli-sweep-paper.json"))) == csv);
}

TEST_CASE("a live attnx sweep run reads back to its own JSON and CSV") {
  const std::string cli = cli_test::cli_path();
  struct stat st;
  if (stat(cli.c_str(), &st) != 0) {
    MESSAGE("CLI not built at " << cli << "; skipping");
    return;
  }
  const std::string args = " sweep --Ls 16,32 --trials 4 --dmax 400 --seed 3 2>/dev/null";
  std::string json, csv;
  REQUIRE(run_cli(cli + args, json));
  REQUIRE(run_cli(cli + args + " --format csv", csv));
  const SweepRecord r = parse_sweep(json);
  CHECK(attnx::sweep_to_json(r) == json);
  CHECK(attnx::sweep_to_csv(r) == csv);
  CHECK(attnx::sweep_to_csv(parse_sweep(csv)) == csv);
}

TEST_CASE("JSON refusals name the first problem") {
  const std::string pre = R"({"command":"sweep","params":{"pattern":"random","k":2,"delta":0.1,"step":16,"d_max":4096,"trials":2)";
  const std::string pts = R"(,"points":[{"L":64,"d_mins":[608,688],"median":648,"quantile":688},{"L":128,"d_mins":[720,null]}]})";
  CHECK_NOTHROW(parse_sweep(pre + "}" + pts));
  auto with_params = [&](const std::string& extra) { return pre + extra + "}" + pts; };
  auto with_points = [&](const std::string& p) { return pre + "},\"points\":" + p + "}"; };

  CHECK(th::contains(refusal("{ \"points\": ["), "the file is not valid JSON (line 1, column 14: "));
  CHECK(refusal("") == "the file is empty");
  CHECK(refusal("[1,2]") == "the file must hold a JSON object from attnx sweep");
  CHECK(refusal(R"({"command": "mind", "dMin": 3})") ==
        "this is the output of \"attnx mind\", not of \"attnx sweep\"");
  CHECK(refusal(R"({"params": {"delta": 0.1}})") ==
        "points is missing: this is not the output of attnx sweep --format json");
  CHECK(refusal(with_points("[]")) == "points is empty: the file holds no results");
  CHECK(refusal(R"({"params":{"trials":2},"points":[]})") ==
        "params.delta is missing (it defines the (1-delta)-quantile)");
  CHECK(th::contains(refusal(with_params(",\"delta\":0.2")), "repeated key \"delta\""));
  CHECK(refusal(with_params(",\"eps\":0")) == "params.eps must be a number in [1e-06, 100] (got 0)");
  CHECK(refusal(with_params(",\"tau\":\"x\"")) == "params.tau must be a number in (0, 1) (got \"x\")");
  CHECK(refusal(with_params(",\"seed\":1.5")) ==
        "params.seed must be an integer from 0 to 9007199254740991 (got 1.5)");
  CHECK(refusal(with_params(",\"Ls\":[1,2]")) ==
        "params.Ls [1, 2] does not match the lengths of points [64, 128]");
  CHECK(refusal(with_params(",\"Ls\":5")) == "params.Ls must be an array (got 5)");
  CHECK(refusal(R"({"params":{"pattern":"custom","delta":0.1},"points":[]})") ==
        "params.pattern is custom: a sweep over L needs a generated family");
  CHECK(refusal(R"({"params":{"pattern":"foo","delta":0.1},"points":[]})") ==
        "params.pattern must be one of random, permutation, window, causal, dilated, block, "
        "strided, bigbird (got \"foo\")");
  CHECK(refusal(R"({"params":{"step":16,"d_max":8,"delta":0.1},"points":[]})") ==
        "params.d_max must be an integer from 16 to 16384 (got 8)");

  CHECK(refusal(with_points(R"([{"L":64,"d_mins":[608,"abc"]}])")) ==
        "points[0].d_mins[1] must be an integer d from 1 to 4096 or null (got \"abc\")");
  CHECK(refusal(with_points(R"([{"L":64,"d_mins":[5000,1]}])")) ==
        "points[0].d_mins[0] must be an integer d from 1 to 4096 or null (got 5000)");
  CHECK(refusal(with_points(R"([{"L":64,"d_mins":[1,1]},{"L":32,"d_mins":[1,1]}])")) ==
        "points[1].L must be larger than the previous length (lengths ascend; got 64 then 32)");
  CHECK(refusal(with_points(R"([{"L":1,"d_mins":[1,1]}])")) ==
        "points[0].L must be an integer from 2 to 16384 (got 1)");
  CHECK(refusal(with_points(R"([{"L":64,"d_mins":[608,688],"median":1}])")) ==
        "points[0].median is 1 but its d_mins give 648");
  CHECK(refusal(with_points(R"([{"L":64,"d_mins":[608,688],"quantile":7}])")) ==
        "points[0].quantile is 7 but its d_mins and delta give 688");
  CHECK(refusal(with_points(R"([{"L":64,"d_mins":[608]}])")) ==
        "points[0].d_mins has 1 trials but params.trials is 2");
  CHECK(refusal(with_points(R"([{"L":64,"d_mins":[608,688],"in_class":"yes"}])")) ==
        "points[0].in_class must be true or false (got \"yes\")");
  CHECK(refusal(with_points(R"([{"L":64,"d_mins":[608,688],"k":0}])")) ==
        "points[0].k must be an integer from 1 to 64 (got 0)");
  CHECK(refusal(with_points(R"([{"L":64,"d_mins":[608,688],"d_star":-1}])")) ==
        "points[0].d_star must be a number >= 0 or null (got -1)");
  CHECK(refusal(with_points(R"([{"L":64,"d_mins":[608,688],"madds":0.5}])")) ==
        "points[0].madds must be an integer from 0 to 9007199254740991 (got 0.5)");
  CHECK(refusal(std::string(attnx::kMaxSweepTextBytes + 1, ' ')) ==
        "the file is too large (32.0 MiB; at most 32 MiB)");
}

TEST_CASE("CSV refusals name the row (the file's line)") {
  const std::string head = "L,trials,median,quantile,d_star,k,max_col_count,in_class,d_mins\n";
  CHECK(th::contains(refusal("L,x\n1,2\n"), "the CSV header must be \"L,trials,median,"));
  CHECK(refusal(head) == "the CSV holds no rows of results");
  CHECK(refusal(head + "64,2,NA,NA,1,2,2,true,16;x\n") ==
        "row 2, d_mins[1] must be a number or NA (got \"x\")");
  CHECK(refusal(head + "64,2,16,16,1,2,2,true,16;16\n\n128,2,NA,NA,1,2,true,16;16\n") ==
        "row 4 must have 9 comma-separated columns (got 8)");
  CHECK(refusal(head + "64,3,NA,NA,1,2,2,true,16;16\n") ==
        "row 2: trials is 3 but d_mins lists 2 values");
  CHECK(refusal(head + "64,2,16,7,1,2,2,true,16;16\n") == "row 2, quantile 7 is not one of its d_mins");
  CHECK(refusal(head + "64,2,16,16,1,2,2,maybe,16;16\n") ==
        "row 2, in_class must be true or false (got \"maybe\")");
  CHECK(refusal(head + "64,2,16,16,1,2,2,true,16;16\n32,2,16,16,1,2,2,true,16;16\n") ==
        "row 3, L must be larger than the previous length (lengths ascend; got 64 then 32)");
}

TEST_CASE("summarise_points and fit_points agree with median_d, quantile_d and fit_sweep") {
  std::vector<SweepRecordPoint> pts(4);
  const int Ls[] = {16, 64, 256, 512};
  const std::vector<int> ds[] = {{32, 32}, {64, 64}, {128, 128}, {-1, 16}};
  for (int i = 0; i < 4; ++i) pts[i].L = Ls[i], pts[i].d_mins = ds[i];
  attnx::summarise_points(pts, 0.1);
  CHECK(pts[0].median == 32);
  CHECK(pts[2].quantile == 128);
  CHECK(pts[3].median == -1);   // sorted {16, not reached}: the upper middle is not reached
  CHECK(pts[3].quantile == -1);
  attnx::summarise_points(pts, 0.5);
  CHECK(pts[3].quantile == 16);
  pts[3].quantile = -1;  // the fits skip a point whose quantile is not reached
  const attnx::SweepFits f = attnx::fit_points(pts);
  REQUIRE(f.power.ok);
  CHECK(f.power.c == doctest::Approx(8).epsilon(1e-12));  // d = 8 L^(1/2) exactly
  CHECK(f.power.p == doctest::Approx(0.5).epsilon(1e-12));
  CHECK(f.power.r2 == doctest::Approx(1).epsilon(1e-12));
  CHECK(f.log.ok);
  CHECK(f.log.r2 < 1);
}
