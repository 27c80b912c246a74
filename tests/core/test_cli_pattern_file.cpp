// `attnx construct --pattern custom --pattern-file FILE` (issue 9, item 6): the file is checked
// against the memory budget and the text limit before it is read, reading is bounded (a stream
// such as /dev/zero is not read to the end), every message names the file, a directory is
// called a directory, and a NUL byte in the file does not cut the message.
#include <doctest/doctest.h>

#include <string>

#include "cli_run.hpp"
#include <attnx/pattern_io.hpp>
#include <attnx/text_budget.hpp>

using cli_test::check_refused;
using cli_test::clean_text;
using cli_test::run_cli;
using cli_test::spit;
using cli_test::TempDir;

namespace {
const std::string kMinBudget = "1048576";  // the smallest --max-bytes

bool has(const std::string& s, const std::string& sub) { return s.find(sub) != std::string::npos; }

cli_test::Run construct_file(const std::string& path, const std::string& budget = "") {
  std::vector<std::string> args{"construct", "--pattern", "custom", "--pattern-file", path,
                                "--d", "16"};
  if (!budget.empty()) args.insert(args.end(), {"--max-bytes", budget});
  return run_cli(args);
}

// A valid lines-form pattern on L = 128 (distinct cells, every row) of at least `bytes` bytes.
std::string pattern_text(std::size_t bytes) {
  std::string t;
  for (int n = 0; n < 128 || t.size() < bytes; ++n)
    t += std::to_string(n % 128) + "," + std::to_string(n / 128) + ",1\n";
  return t;
}

// The longest text read under the smallest budget, as the message shows it.
std::string min_limit() { return std::to_string(attnx::max_pattern_text_bytes(1u << 20)); }
}  // namespace

TEST_CASE("the text limit follows the memory budget (core estimate)") {
  // 1 MiB of budget at kPatternTextBytesFactor bytes per byte of text.
  CHECK(attnx::max_pattern_text_bytes(1u << 20) == (1u << 20) / attnx::kPatternTextBytesFactor);
  CHECK(attnx::max_pattern_text_bytes(1ull << 50) == attnx::kMaxPatternTextBytes);
  CHECK(attnx::estimate_pattern_text_bytes(1000) == 1000 * attnx::kPatternTextBytesFactor);
}

TEST_CASE("a pattern file whose parse would not fit --max-bytes is refused, naming the file") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string small = dir.file("small.csv"), big = dir.file("big.csv");
  spit(small, pattern_text(2000));
  spit(big, pattern_text(40000));  // above min_limit()
  const auto ok = construct_file(small, kMinBudget);
  CHECK(ok.status == 0);
  const auto r = construct_file(big, kMinBudget);
  check_refused(r);
  CHECK(has(r.err, "--pattern-file " + big + " is "));
  CHECK(has(r.err, "--max-bytes"));
  CHECK(has(r.err, "files up to " + min_limit() + " bytes fit"));
  // The default budget reads it.
  CHECK(construct_file(big).status == 0);
}

TEST_CASE("a stream is read only up to the limit: /dev/zero and a pipe are refused quickly") {
  if (!cli_test::cli_available()) return;
  const auto z = construct_file("/dev/zero", kMinBudget);
  check_refused(z);
  CHECK(z.err.find('\0') == std::string::npos);
  CHECK(has(z.err, "--pattern-file /dev/zero is larger than " + min_limit() + " bytes"));
  // 50 MB through a pipe: refused after min_limit() + 1 bytes (the writer gets SIGPIPE).
  const auto p = cli_test::run_program(
      "/bin/sh", {"-c", "head -c 50000000 /dev/zero | \"$0\" construct --pattern custom "
                        "--pattern-file /dev/stdin --max-bytes 1048576",
                  cli_test::cli_path()});
  check_refused(p);
  CHECK(has(p.err, "--pattern-file /dev/stdin is larger than " + min_limit() + " bytes"));
}

TEST_CASE("a directory as --pattern-file is called a directory") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const auto r = construct_file(dir.path());
  check_refused(r);
  CHECK(r.err == "attnx: --pattern-file " + dir.path() + " is a directory\n");
}

TEST_CASE("every refusal of a pattern file names it — a NUL byte does not cut the message") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string nul = dir.file("nul.json"), bad = dir.file("bad.csv");
  spit(nul, std::string("[[0,0,1],\0]", 11));
  spit(bad, "0,0,1\n1,5,1\n");
  const auto r = construct_file(nul);
  check_refused(r);
  CHECK(r.err == "attnx: --pattern-file " + nul +
                     ": line 1, column 10: invalid JSON: unexpected character \"\\u0000\"\n");
  CHECK(clean_text(r.err));
  const auto b = run_cli({"construct", "--pattern", "custom", "--pattern-file", bad, "--L", "2"});
  check_refused(b);
  CHECK(has(b.err, "--pattern-file " + bad + ": line 2"));
  const auto missing = construct_file(dir.file("missing.json"));
  check_refused(missing);
  CHECK(missing.err == "attnx: cannot read --pattern-file " + dir.file("missing.json") +
                           ": No such file or directory\n");
}
