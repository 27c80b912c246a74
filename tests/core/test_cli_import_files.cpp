// `attnx import` and the files it reads (issue 47): what is not a regular file (/dev/zero,
// /dev/urandom, a FIFO) is refused before it is read, a file above the default budget (what one
// head of L = 4096 can need) from its size alone, sizes in one unit with the budget, a single
// head's survey the same bytes with its lp rows on threads, and the survey's progress on stderr
// when that is a terminal.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <pty.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include "heads_bytes.hpp"
#include "helpers.hpp"
#include <attnx/head_survey.hpp>

using cli_test::check_refused;
using cli_test::run_cli;
using cli_test::spit;
using cli_test::TempDir;

namespace {

// A run killed after a minute counts as a hang (the old reader blocked on a FIFO forever).
constexpr unsigned kHangGuardSeconds = 60;

cli_test::Run import_guarded(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"import"};
  all.insert(all.end(), args.begin(), args.end());
  return cli_test::run_program(cli_test::cli_path(), all, "/dev/null", "", kHangGuardSeconds);
}

void refused_with(const cli_test::Run& r, const std::string& want) {
  check_refused(r);
  CHECK_MESSAGE(r.err.find(want) != std::string::npos, r.err);
}

// A file of `size` bytes that holds no data on disk (a hole): its size is all the CLI looks at.
void sparse_file(const std::string& path, off_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::ftruncate(fd, size) == 0);
  ::close(fd);
}

// One head of L = 16: 0.7 on the previous token, the rest uniform.
std::string one_head() {
  const int L = 16;
  std::vector<double> v;
  for (int i = 0; i < L; ++i)
    for (int j = 0; j < L; ++j) v.push_back(0.3 / L + (j == (i ? i - 1 : 0) ? 0.7 : 0));
  return hb::npy_floats(v, {L, L}, 4, false);
}

}  // namespace

TEST_CASE("import refuses devices and FIFOs before reading them, naming what they are") {
  if (!cli_test::cli_available()) return;
  // With a budget of 1 MiB the old reader stopped after 1 MiB of /dev/zero and named its size.
  for (const char* dev : {"/dev/zero", "/dev/urandom"})
    refused_with(import_guarded({dev, "--max-bytes", "1048576"}),
                 std::string("attnx: ") + dev + " is a character device, not a regular file: attnx import reads a "
                 "saved .npy, .npz or JSON file\n");
  TempDir dir;
  const std::string fifo = dir.file("heads.fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // No writer: opening it for reading would block forever.
  refused_with(import_guarded({fifo}), fifo + " is a FIFO (a named pipe), not a regular file");
  refused_with(import_guarded({fifo, "--all"}), "is a FIFO (a named pipe), not a regular file");
}

TEST_CASE("import's default budget is what one head of L = 4096 can need, and a larger file is refused by its size") {
  if (!cli_test::cli_available()) return;
  const std::uint64_t def = attnx::import_default_max_bytes();
  // A float64 file of one head, its values and its survey with topk:L, in whole MiB.
  const std::uint64_t l = attnx::kMaxImportL;
  const std::uint64_t need = attnx::estimate_attention_bytes(8 * l * l + 128, l * l, 0) +
                             attnx::estimate_survey_head_bytes(attnx::kMaxImportL, attnx::SparsifyRule{attnx::RuleKind::TopK, attnx::kMaxImportL});
  CHECK(def % (1u << 20) == 0);
  CHECK(def >= need);
  CHECK(def < need + (1u << 20));
  CHECK(def < attnx::kCliDefaultMaxBytes);
  const auto help = run_cli({"import", "--help"});
  CHECK(th::contains(help.out, "(default " + std::to_string(def) + ";"));
  TempDir dir;
  const std::string big = dir.file("big.npy");
  sparse_file(big, off_t(def) + (off_t(1) << 20));
  refused_with(import_guarded({big}), big + " is " + std::to_string(def / (1u << 20) + 1) +
                                          " MiB, above the memory budget of " + std::to_string(def / (1u << 20)) +
                                          " MiB (--max-bytes)\n");
}

TEST_CASE("import says a file's size in the unit of its budget") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string f = dir.file("a.npy");
  sparse_file(f, 10000100);
  // 10000000 bytes is 9.54 MiB: not "9 MiB", nor "10 MiB, above ... 10 MiB".
  refused_with(import_guarded({f, "--max-bytes", "10000000"}),
               f + " is 10000100 bytes, above the memory budget of 10000000 bytes (--max-bytes)\n");
  refused_with(import_guarded({f, "--max-bytes", "9437184"}), f + " is 10 MiB, above the memory budget of 9 MiB");
}

TEST_CASE("import --all of one head: its lp rows on threads give the same bytes") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string f = dir.file("one.npy");
  spit(f, one_head());
  const auto a = run_cli({"import", f, "--all", "--threads", "1"});
  const auto b = run_cli({"import", f, "--all", "--threads", "3"});
  REQUIRE(a.status == 0);
  CHECK(a.out == b.out);
  CHECK(th::contains(a.out, "\"lp_d_min\": "));
}

TEST_CASE("import --all shows its progress on stderr when that is a terminal, unasked") {
  if (!cli_test::cli_available()) return;
  TempDir dir;
  const std::string f = dir.file("one.npy");
  spit(f, one_head());
  int master = -1, slave = -1;
  REQUIRE(::openpty(&master, &slave, nullptr, nullptr, nullptr) == 0);
  const std::string out = dir.file("out.json");
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0) ::_exit(120);
    ::dup2(o, 1);
    ::dup2(slave, 2);
    ::close(master);
    ::alarm(kHangGuardSeconds);
    ::execl(cli_test::cli_path(), cli_test::cli_path(), "import", f.c_str(), "--all", static_cast<char*>(nullptr));
    ::_exit(121);
  }
  ::close(slave);
  std::string err;
  char buf[4096];
  for (;;) {  // until the child has gone (EIO: no slave left)
    const ssize_t n = ::read(master, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    err.append(buf, std::size_t(n));
  }
  ::close(master);
  int ws = 0;
  REQUIRE(::waitpid(pid, &ws, 0) == pid);
  CHECK(WIFEXITED(ws));
  CHECK(WEXITSTATUS(ws) == 0);
  CHECK_MESSAGE(th::contains(err, "attnx: import --all"), err);
  CHECK(th::contains(err, "100%"));
  // Not a terminal (the other tests): nothing unless --progress.
  const auto quiet = run_cli({"import", f, "--all"});
  CHECK(quiet.err.empty());
  CHECK(th::contains(run_cli({"import", f, "--all", "--progress"}).err, "attnx: import --all"));
}
