// attnx CLI: bounded input files and whole output files (see files.hpp).
#include "files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "args.hpp"

namespace attnx::cli {

namespace {

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

[[noreturn]] void refuse_read(const std::string& who, int err) {
  throw UsageError("cannot read " + who + ": " + std::strerror(err));
}

// At most `limit` + 1 bytes of fd (stops at end of file); size: the bytes expected (a regular
// file's size), reserved at once so that the text is not copied as it grows.
std::string read_at_most(int fd, std::uint64_t limit, std::uint64_t size, const std::string& who) {
  std::string text;
  text.reserve(static_cast<std::size_t>(std::min(limit, size) + 1));
  char buf[1 << 16];
  while (text.size() <= limit) {
    const std::uint64_t want = std::min<std::uint64_t>(sizeof buf, limit + 1 - text.size());
    const ssize_t n = ::read(fd, buf, static_cast<std::size_t>(want));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) refuse_read(who, errno);
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  return text;
}

const char* file_type(mode_t m) {
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a FIFO (a named pipe)";
  if (S_ISSOCK(m)) return "a socket";
  return "no file";
}

// Refuses a directory and, with regular_only (what the reader takes, for the message), anything
// else that is not a regular file.
void check_type(const struct stat& st, const std::string& who, const char* regular_only) {
  if (S_ISDIR(st.st_mode)) throw UsageError(who + " is a directory");
  if (regular_only && !S_ISREG(st.st_mode))
    throw UsageError(who + " is " + file_type(st.st_mode) + ", not a regular file: " + regular_only);
}

}  // namespace

std::string read_bounded_file(const std::string& path, const std::string& who, std::uint64_t limit,
                              const std::function<std::string(std::uint64_t size, bool stream)>& too_large,
                              const char* regular_only) {
  struct stat st;
  if (regular_only) {
    if (::stat(path.c_str(), &st) != 0) refuse_read(who, errno);
    check_type(st, who, regular_only);
  }
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | (regular_only ? O_NONBLOCK : 0))};
  if (f.fd < 0) refuse_read(who, errno);
  if (::fstat(f.fd, &st) != 0) refuse_read(who, errno);
  check_type(st, who, regular_only);
  if (S_ISREG(st.st_mode) && static_cast<std::uint64_t>(st.st_size) > limit)
    throw UsageError(too_large(static_cast<std::uint64_t>(st.st_size), false));
  std::string text = read_at_most(f.fd, limit, S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0, who);
  if (text.size() > limit) throw UsageError(too_large(text.size(), true));  // a stream, or a file that grew
  return text;
}

OutputFile::OutputFile(std::string path, std::string flag) : path_(std::move(path)), flag_(std::move(flag)) {
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  created_ = fd_ >= 0;
  if (fd_ < 0 && errno == EEXIST) fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd_ < 0) refuse(errno);
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (created_ && !written_) ::unlink(path_.c_str());
}

void OutputFile::truncate() {
  written_ = true;
  struct stat st;
  if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode) && ::ftruncate(fd_, 0) != 0) refuse(errno);
}

void OutputFile::close_checked() {
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) refuse(errno);
}

void OutputFile::write(const std::function<void(JsonWriter&)>& body) {
  truncate();
  int err = 0;
  JsonWriter w([&](const std::string& t) { return write_all(t, err); });
  body(w);
  const std::string tail = w.finish();
  if (!w.flush() || !write_all(tail, err)) refuse(err);
  close_checked();
}

void OutputFile::write_text(const std::string& text) {
  truncate();
  int err = 0;
  if (!write_all(text, err)) refuse(err);
  close_checked();
}

bool OutputFile::write_all(const std::string& t, int& err) {
  for (std::size_t done = 0; done < t.size();) {
    const ssize_t n = ::write(fd_, t.data() + done, t.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      err = n < 0 ? errno : EIO;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

void OutputFile::refuse(int err) const {
  throw UsageError("cannot write " + flag_ + " " + path_ + ": " + std::strerror(err));
}

}  // namespace attnx::cli
