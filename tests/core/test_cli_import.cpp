// `attnx import` (issue 24): the description as JSON, the round trip import --out -> construct
// / mind --pattern-file, the survey (--all) the same bytes on 1 and 2 threads and its rows equal
// to the core's per-head calls, the flags' refusals (one line, exit status 2), --help.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "cli_run.hpp"
#include "heads_bytes.hpp"
#include "helpers.hpp"
#include "requests.hpp"
#include <attnx/construction.hpp>
#include <attnx/head_survey.hpp>
#include <attnx/pattern_io.hpp>

using cli_test::check_refused;
using cli_test::run_cli;
using cli_test::spit;
using cli_test::TempDir;

namespace {

// Three heads of L = 16: previous token, sink on column 0, and 0.55 self + the rest uniform.
std::vector<double> three_heads() {
  const int L = 16;
  std::vector<double> v;
  for (int h = 0; h < 3; ++h)
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j) {
        double x = 0.3 / L;
        if (h == 0) x += j == (i ? i - 1 : 0) ? 0.7 : 0;
        if (h == 1) x += j == 0 ? 0.7 : 0;
        if (h == 2) x = (j == i ? 0.55 : 0) + 0.45 / L;
        v.push_back(x);
      }
  return v;
}

std::string heads_file(const TempDir& dir) {
  const std::string path = dir.file("heads.npy");
  spit(path, hb::npy_floats(three_heads(), {3, 16, 16}, 4, false));
  return path;
}

attnx::JsonValue json_of(const cli_test::Run& r) {
  REQUIRE(r.status == 0);
  return attnx::json_parse(r.out);
}

}  // namespace

TEST_CASE("import describes a head, and its --out file is read back by construct and mind") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string f = heads_file(dir), out = dir.file("head1.json");
  const auto r = run_cli({"import", f, "--head", "1", "--rule", "topk:2", "--out", out});
  const attnx::JsonValue j = json_of(r);
  CHECK(j.find("params")->find("format")->str == "npy");
  CHECK(j.find("params")->find("shape")->arr.size() == 3);
  const attnx::JsonValue& head = *j.find("head");
  CHECK(head.find("archetype")->find("code")->str == "sink:0");
  CHECK(head.find("k")->num == 2);
  CHECK(head.find("max_col_count")->num == 16);
  CHECK(head.find("in_class")->type == attnx::JsonValue::Type::Bool);
  CHECK(j.find("out")->str == out);
  // The file is the sparse target in the pattern format: the same pattern as the core's import.
  const attnx::AttentionArray a = attnx::read_attention(cli_test::slurp(f), f, 1ull << 30);
  attnx::HeadOptions opt;
  opt.rule = attnx::parse_rule("topk:2");
  const attnx::HeadImport h = attnx::import_file_head(a, 0, 1, opt, f);
  const attnx::Pattern back = attnx::parse_pattern_text(cli_test::slurp(out), -1);
  CHECK(back.col == h.target.col);
  for (std::size_t n = 0; n < back.val.size(); ++n) CHECK(back.val[n] == doctest::Approx(h.target.val[n]).epsilon(1e-12));
  const auto c = run_cli({"construct", "--pattern", "custom", "--pattern-file", out, "--d", "64"});
  const attnx::JsonValue cj = json_of(c);
  CHECK(cj.find("pattern")->find("k")->num == 2);
  CHECK(cj.find("pattern")->find("max_col_count")->num == 16);
  CHECK(cj.find("pattern")->find("L")->num == 16);
  const auto m = run_cli({"mind", "--pattern", "custom", "--pattern-file", out, "--construction", "lp", "--step", "1",
                          "--dmax", "256"});
  CHECK(m.status == 0);
}

TEST_CASE("import --all surveys every head: the same bytes on 1 and 2 threads, the core's numbers") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string f = heads_file(dir);
  const auto one = run_cli({"import", f, "--all", "--threads", "1"});
  const auto two = run_cli({"import", f, "--all", "--threads", "2"});
  REQUIRE(one.status == 0);
  CHECK(one.out == two.out);
  const attnx::JsonValue j = json_of(one);
  CHECK(j.find("format")->str == "attnx-head-survey/1");
  const attnx::JsonValue& heads = *j.find("heads");
  REQUIRE(heads.arr.size() == 3);
  const attnx::AttentionArray a = attnx::read_attention(cli_test::slurp(f), f, 1ull << 30);
  attnx::SurveyOptions opt;
  for (int h = 0; h < 3; ++h) {
    const attnx::SurveyRow row = attnx::survey_file_head(a, 0, h, opt, f);
    CHECK(heads.arr[h].find("head")->num == h);
    CHECK(heads.arr[h].find("archetype")->str == row.description.archetype.code);
    CHECK(heads.arr[h].find("jl_d_min")->num == row.jl_d_min);
    CHECK(heads.arr[h].find("lp_d_min")->num == row.lp_d_min);
    // The survey's d_min are the core's min-d searches on the imported target.
    const attnx::HeadImport t = attnx::import_file_head(a, 0, h, opt.head, f);
    CHECK(row.jl_d_min == attnx::search_min_d(t.target, th::search("jl", opt.tol, attnx::survey_grid(attnx::jl_kind(), 1ull << 30), 1)).d_min);
  }
  CHECK(heads.arr[0].find("archetype")->str == "diagonal:-1");
  CHECK(heads.arr[2].find("archetype")->str == "diagonal:0");
  const auto csv = run_cli({"import", f, "--all", "--format", "csv"});
  REQUIRE(csv.status == 0);
  CHECK(csv.out.rfind("layer,head,k,max_col_count,in_class,nnz,kept_mass_min,kept_mass_median,columns_over_k,"
                      "archetype,archetype_share,lp_d_min,jl_d_min\n0,0,2,", 0) == 0);
}

TEST_CASE("import refuses bad flags, indices, rules and files with one line naming them") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string f = heads_file(dir);
  auto refused = [&](const std::vector<std::string>& args, const std::string& want) {
    const auto r = run_cli(args);
    check_refused(r);
    CHECK_MESSAGE(r.err.find(want) != std::string::npos, r.err);
  };
  refused({"import", f, "--layer", "1"},
          "attnx: --layer must be an integer from 0 to 0 (got 1): " + f + " has shape [3, 16, 16] (no layer axis)\n");
  refused({"import", f, "--head", "3"}, "--head must be an integer from 0 to 2 (got 3)");
  refused({"import", f, "--rule", "top:2"}, "--rule must be topk:K (K from 1 to L), threshold:T");
  refused({"import", f, "--rule", "topk:17"}, "--rule topk:17 keeps more entries than a row has (L = 16)");
  refused({"import", f, "--format", "csv"}, "--format csv applies only with --all");
  refused({"import", f, "--all", "--out", dir.file("x.json")}, "--out does not apply with --all");
  refused({"import", f, "--eps", "0.5"}, "--eps applies only with --all");
  refused({"import"}, "import needs exactly one FILE");
  refused({"import", dir.file("missing.npy")}, "cannot read " + dir.file("missing.npy") + ": No such file");
  refused({"import", dir.path()}, dir.path() + " is a directory");
  // The memory budget: a file above it is not read; one whose values would not fit is refused
  // by the core before they are allocated.
  spit(dir.file("big.npy"), hb::npy_floats(std::vector<double>(4 * 256 * 256, 1.0 / 256), {4, 256, 256}, 4, false));
  refused({"import", dir.file("big.npy"), "--max-bytes", "1048576"},
          "big.npy is 2 MiB, above the memory budget of 1 MiB (--max-bytes)");
  spit(dir.file("half.npy"), hb::npy_floats(std::vector<double>(2 * 256 * 256, 1.0 / 256), {2, 256, 256}, 4, false));
  refused({"import", dir.file("half.npy"), "--max-bytes", "1048576"},
          dir.file("half.npy") + ": reading it needs about 2 MiB, above the memory budget of 1 MiB; it holds the "
          "file, its inflated arrays and 4 bytes per value; raise --max-bytes\n");
  spit(dir.file("scores.npy"), hb::npy_floats({2, -1, 0.5, 3}, {2, 2}, 4, false));
  refused({"import", dir.file("scores.npy")}, "scores.npy: row 0, column 1 is negative (-1)");
  const auto soft = run_cli({"import", dir.file("scores.npy"), "--softmax"});
  CHECK(soft.status == 0);
  spit(dir.file("bad.npy"), "\x93NUMPY\x01");
  refused({"import", dir.file("bad.npy")}, "bad.npy: the .npy file is truncated");
  const auto help = run_cli({"import", "--help"});
  CHECK(help.status == 0);
  CHECK(help.out.find("--rule") != std::string::npos);
  CHECK(help.out.find("topk:2") != std::string::npos);
  CHECK(help.out.find("--softmax") != std::string::npos);
}

TEST_CASE("an --out path that cannot be written is refused before the file is read") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const auto r = run_cli({"import", dir.file("missing.npy"), "--out", dir.file("no/such/dir.json")});
  check_refused(r);
  CHECK(r.err.find("cannot write --out " + dir.file("no/such/dir.json")) != std::string::npos);
}
