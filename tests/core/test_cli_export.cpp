// `attnx construct --export FILE` (issue 9, item 8): the file is opened before the computation
// (an unwritable path fails at once, naming it), its size is kept under --max-bytes, W_Q and W_K
// are written compactly ({"rows", "cols", "identity_row_offset"}, docs/cli.md "Export file"), and a
// reader that follows docs/cli.md recomputes the reported metrics from X and the weights.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "cli_run.hpp"
#include "helpers.hpp"
#include <attnx/json.hpp>
#include <attnx/pattern_io.hpp>

using cli_test::check_refused;
using cli_test::run_cli;
using cli_test::slurp;
using cli_test::TempDir;

namespace {
bool has(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

// W of the compact form, as docs/cli.md's reader builds it: W[r][c] = 1 iff r = c + offset.
th::MatD weights(const attnx::JsonValue& w) {
  const int rows = static_cast<int>(w.find("rows")->num), cols = static_cast<int>(w.find("cols")->num);
  const int offset = static_cast<int>(w.find("identity_row_offset")->num);
  th::MatD m = th::MatD::Zero(rows, cols);
  for (int c = 0; c < cols; ++c) m(c + offset, c) = 1;
  return m;
}

}  // namespace

TEST_CASE("an export file is read back: compact W_Q, W_K and X give the reported metrics") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string path = dir.file("out.json");
  const auto r = run_cli({"construct", "--L", "24", "--k", "3", "--d", "12", "--eps", "2",
                          "--weights", "random", "--seed", "5", "--export", path});
  REQUIRE(r.status == 0);
  const std::string text = slurp(path);
  const attnx::JsonValue e = attnx::json_parse(text);
  CHECK(e.find("format")->str == "attnx-construct-export/2");
  const int d = static_cast<int>(e.find("d")->num);
  REQUIRE(d == 12);
  const attnx::JsonValue* wq = e.find("W_Q");
  const attnx::JsonValue* wk = e.find("W_K");
  REQUIRE((wq && wk && wq->type == attnx::JsonValue::Type::Object));
  CHECK(wq->find("rows")->num == 2 * d);
  CHECK(wq->find("cols")->num == d);
  CHECK(wq->find("identity_row_offset")->num == 0);
  CHECK(wk->find("identity_row_offset")->num == d);
  // Z = (X W_Q)(X W_K)^T / sqrt(d) in double, metrics of SPEC section 2 against A read back by
  // the pattern reader (which accepts export files).
  const th::MatD X = th::matrix_of(*e.find("X"));
  REQUIRE(X.cols() == 2 * d);
  const th::MatD Z = (X * weights(*wq)) * (X * weights(*wk)).transpose() / std::sqrt(double(d));
  const attnx::Pattern A = attnx::parse_pattern_text(text, -1);
  CHECK(A.nnz() == static_cast<int>(e.find("A")->arr.size()));
  const th::RefMetrics ref = th::ref_metrics(A, Z);
  const attnx::JsonValue* m = e.find("metrics");
  CHECK(m->find("rho")->num == doctest::Approx(ref.rho).epsilon(1e-4));
  CHECK(m->find("zeta")->num == doctest::Approx(ref.zeta).epsilon(1e-3));
  CHECK(m->find("lambda")->num == doctest::Approx(ref.lambda).epsilon(1e-4));
  // stdout is the same run.
  CHECK(attnx::json_parse(r.out).find("metrics")->find("rho")->num == m->find("rho")->num);
}

TEST_CASE("an export path that cannot be written fails before the computation, naming it") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string missing = dir.file("no/such/dir/out.json");
  // The construction itself would be refused by the budget: the path is checked first.
  const auto r = run_cli({"construct", "--L", "16384", "--d", "16384", "--max-bytes", "1048576",
                          "--export", missing});
  check_refused(r);
  CHECK(r.err == "attnx: cannot write --export " + missing + ": No such file or directory\n");
  const auto d = run_cli({"construct", "--L", "8", "--d", "4", "--export", dir.path()});
  check_refused(d);
  CHECK(d.err == "attnx: cannot write --export " + dir.path() + ": Is a directory\n");
  const auto full = run_cli({"construct", "--L", "8", "--d", "4", "--export", "/dev/full"});
  check_refused(full);
  CHECK(full.err == "attnx: cannot write --export /dev/full: No space left on device\n");
}

TEST_CASE("an export larger than --max-bytes is refused before computing — no file is left") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string path = dir.file("big.json"), kept = dir.file("kept.json");
  // L = 64, d = 16384: the construction needs about 17 MiB, X alone is about 30 MB of text.
  const std::vector<std::string> args{"construct", "--L", "64", "--d", "16384", "--max-bytes",
                                      "25165824"};
  CHECK(run_cli(args).status == 0);  // without --export the run fits
  auto with = args;
  with.insert(with.end(), {"--export", path});
  const auto r = run_cli(with);
  check_refused(r);
  CHECK(has(r.err, "attnx: --export " + path + " would be up to "));
  CHECK(has(r.err, "above the memory budget of 24 MiB (--max-bytes)"));
  CHECK(!exists(path));
  // An existing file is left as it was.
  cli_test::spit(kept, "keep");
  auto keep = args;
  keep.insert(keep.end(), {"--export", kept});
  check_refused(run_cli(keep));
  CHECK(slurp(kept) == "keep");
}
