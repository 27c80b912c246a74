// Running the attnx CLI (cli_path.hpp) from the doctest suite: argv without a shell, stdout
// and stderr captured byte for byte (NUL and control bytes included), the exit status; and a
// temporary directory removed at the end of a test.
#pragma once
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cli_path.hpp"

namespace cli_test {


// True when the CLI is built; otherwise logs why the calling test does nothing.
inline bool cli_available() {
  struct stat st;
  if (cli_path()[0] && ::stat(cli_path(), &st) == 0) return true;
  MESSAGE("attnx CLI not built at '" << cli_path() << "'; skipping");
  return false;
}

struct Run {
  int status = -1;  // exit status, or 128 + signal
  std::string out, err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void spit(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A fresh directory under $TMPDIR (or /tmp), removed with everything in it at the end.
class TempDir {
 public:
  TempDir() {
    const char* t = std::getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/attnx-cli-test-XXXXXX";
    std::vector<char> buf(tmpl.begin(), tmpl.end());
    buf.push_back('\0');
    REQUIRE(::mkdtemp(buf.data()) != nullptr);
    path_ = buf.data();
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs `program` with args; stdin from stdin_path, stdout to stdout_path (captured when "").
// guard_seconds: a run still going after that long is killed (SIGALRM, status 142): a guard
// against a hang (a FIFO opened for reading), not a measure of speed.
inline Run run_program(const std::string& program, const std::vector<std::string>& args,
                       const std::string& stdin_path = "/dev/null",
                       const std::string& stdout_path = "", unsigned guard_seconds = 0) {
  TempDir tmp;
  const std::string out = stdout_path.empty() ? tmp.file("stdout") : stdout_path;
  const std::string err = tmp.file("stderr");
  std::vector<char*> argv{const_cast<char*>(program.c_str())};
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int in = ::open(stdin_path.c_str(), O_RDONLY);
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || o < 0 || e < 0) ::_exit(120);
    ::dup2(in, 0);
    ::dup2(o, 1);
    ::dup2(e, 2);
    if (guard_seconds) ::alarm(guard_seconds);  // kept across execv
    ::execv(program.c_str(), argv.data());
    ::_exit(121);
  }
  int ws = 0;
  REQUIRE(::waitpid(pid, &ws, 0) == pid);
  Run r;
  r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
  if (stdout_path.empty()) r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// attnx with args.
inline Run run_cli(const std::vector<std::string>& args, const std::string& stdin_path = "/dev/null",
                   const std::string& stdout_path = "") {
  return run_program(cli_path(), args, stdin_path, stdout_path);
}

// attnx cmd with a test's common flags, then extra (the flags of one run).
inline Run run_cli_with(const std::string& cmd, const std::vector<std::string>& flags,
                        const std::vector<std::string>& extra) {
  std::vector<std::string> args = {cmd};
  args.insert(args.end(), flags.begin(), flags.end());
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args);
}

// The refusal policy: exit status 2 and exactly one line "attnx: ..." on stderr.
inline void check_refused(const Run& r) {
  CHECK(r.status == 2);
  CHECK(r.err.rfind("attnx: ", 0) == 0);
  CHECK(r.err.find('\n') == r.err.size() - 1);
}

// No byte below 0x20 but '\n', no DEL, and well-formed UTF-8 (checked here byte by byte, not
// with the escaping code under test) without C1 controls.
inline bool clean_text(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char b = static_cast<unsigned char>(s[i]);
    if (b < 0x80) {
      if ((b < 0x20 && b != '\n') || b == 0x7F) return false;
      ++i;
      continue;
    }
    const int n = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC2 ? 2 : 0;
    if (n == 0 || b > 0xF4 || i + n > s.size()) return false;
    for (int k = 1; k < n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    if (b == 0xC2 && static_cast<unsigned char>(s[i + 1]) < 0xA0) return false;  // C1
    if (b == 0xE0 && static_cast<unsigned char>(s[i + 1]) < 0xA0) return false;  // overlong
    if (b == 0xED && static_cast<unsigned char>(s[i + 1]) >= 0xA0) return false;  // surrogate
    if (b == 0xF0 && static_cast<unsigned char>(s[i + 1]) < 0x90) return false;   // overlong
    if (b == 0xF4 && static_cast<unsigned char>(s[i + 1]) >= 0x90) return false;  // > U+10FFFF
    i += n;
  }
  return true;
}

}  // namespace cli_test
