// attnx CLI: reading a custom pattern file (--pattern custom --pattern-file FILE). The file's
// text is read by the core (attnx/pattern_io.hpp), which knows every accepted form. The file is
// checked against the text limit and the memory budget (attnx/text_budget.hpp) before it is
// read, and never more than the limit + 1 bytes are read (a pipe or /dev/zero has no size).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "common.hpp"
#include <attnx/errors.hpp>
#include <attnx/pattern_io.hpp>
#include <attnx/text_budget.hpp>

namespace attnx::cli {

namespace {

// "812 bytes", "3 MiB" (rounded up, or down for a limit).
std::string size_text(std::uint64_t b, bool round_down = false) {
  if (b < (1u << 20)) return std::to_string(b) + " bytes";
  return std::to_string((b + (round_down ? 0 : (1u << 20) - 1)) >> 20) + " MiB";
}

// The refusal of a text larger than `limit`; size_shown: "is 3 MiB" or "is larger than ...".
[[noreturn]] void refuse_size(const std::string& path, const std::string& size_shown,
                              std::uint64_t size, std::uint64_t max_bytes) {
  const std::uint64_t limit = max_pattern_text_bytes(max_bytes);
  std::string msg = "--pattern-file " + path + " " + size_shown;
  if (limit < kMaxPatternTextBytes) {
    msg += ": reading it needs about " + size_text(estimate_pattern_text_bytes(size)) +
           ", above the memory budget of " + size_text(max_bytes) + " (--max-bytes; files up to " +
           size_text(limit, true) + " fit)";
  } else {
    msg += ", above the limit of " + size_text(kMaxPatternTextBytes) + " for a pattern text";
  }
  throw UsageError(msg);
}

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

[[noreturn]] void refuse_read(const std::string& path, int err) {
  throw UsageError("cannot read --pattern-file " + path + ": " + std::strerror(err));
}

// At most `limit` + 1 bytes of fd (stops at end of file).
std::string read_at_most(int fd, std::uint64_t limit, const std::string& path) {
  std::string text;
  char buf[1 << 16];
  while (text.size() <= limit) {
    const std::uint64_t want = std::min<std::uint64_t>(sizeof buf, limit + 1 - text.size());
    const ssize_t n = ::read(fd, buf, static_cast<std::size_t>(want));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) refuse_read(path, errno);
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

// The whole file, refused (naming it) when it is a directory, unreadable, or larger than the
// text limit under `max_bytes`.
std::string read_file(const std::string& path, std::uint64_t max_bytes) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) refuse_read(path, errno);
  struct stat st;
  if (::fstat(f.fd, &st) != 0) refuse_read(path, errno);
  if (S_ISDIR(st.st_mode)) throw UsageError("--pattern-file " + path + " is a directory");
  const std::uint64_t limit = max_pattern_text_bytes(max_bytes);
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > limit)
    refuse_size(path, "is " + size_text(static_cast<std::uint64_t>(st.st_size)),
                static_cast<std::uint64_t>(st.st_size), max_bytes);
  std::string text = read_at_most(f.fd, limit, path);
  if (text.size() > limit)  // a stream, or a file that grew
    refuse_size(path, "is larger than " + size_text(limit, true), text.size(), max_bytes);
  return text;
}

}  // namespace

Pattern read_pattern_file(const std::string& path, long long L_flag, std::uint64_t max_bytes) {
  const std::string text = read_file(path, max_bytes);
  try {
    return parse_pattern_text(text, L_flag);
  } catch (const InvalidArgument& e) {
    throw UsageError("--pattern-file " + path + ": " + e.what());
  }
}

}  // namespace attnx::cli
