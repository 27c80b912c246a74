// attnx CLI: reading input files with a size limit, and output files written whole (the
// --pattern-file and import inputs; the --export and --out outputs).
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include <attnx/json.hpp>
#include <attnx/size_text.hpp>

namespace attnx::cli {

// The file at `path`, read whole. Refused with a UsageError naming it as `who` ("--pattern-file
// a.json", "a.npy") when it is a directory ("WHO is a directory"), cannot be read ("cannot read
// WHO: reason"), or is larger than `limit` bytes: then too_large(size, stream) gives the message
// (stream: the size is only known to be above the limit, as for a pipe). Never reads more than
// limit + 1 bytes, so /dev/zero or a pipe stops there. regular_only: anything but a regular file
// (a device such as /dev/zero or /dev/urandom, a FIFO, a socket) is refused before it is read
// ("WHO is a character device, not a regular file: <what>"): its type is checked before it is
// opened, and it is opened without blocking (a FIFO put in its place cannot hang the open) and
// checked again.
std::string read_bounded_file(const std::string& path, const std::string& who, std::uint64_t limit,
                              const std::function<std::string(std::uint64_t size, bool stream)>& too_large,
                              const char* regular_only = nullptr);

// An output file opened before the computation, so that a path that cannot be written is
// refused at once ("cannot write FLAG PATH: reason"). A file created here is removed again if
// nothing is written to it; an existing file is truncated only when the text is written.
class OutputFile {
 public:
  OutputFile(std::string path, std::string flag);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Writes the whole text produced by `body` (in chunks); throws UsageError naming the path.
  void write(const std::function<void(JsonWriter&)>& body);
  // Writes `text` as the whole file.
  void write_text(const std::string& text);

 private:
  bool write_all(const std::string& t, int& err);
  void truncate();
  void close_checked();
  [[noreturn]] void refuse(int err) const;

  std::string path_, flag_;
  int fd_ = -1;
  bool created_ = false, written_ = false;
};

}  // namespace attnx::cli
