// attnx CLI: reading a custom pattern file (--pattern custom --pattern-file FILE). The file's
// text is read by the core (attnx/pattern_io.hpp), which knows every accepted form.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common.hpp"
#include <attnx/errors.hpp>
#include <attnx/pattern_io.hpp>

namespace attnx::cli {

namespace {
std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read --pattern-file " + path + ": " + std::strerror(errno));
  in.seekg(0, std::ios::end);  // a size check before reading, where the file can tell its size
  const std::streamoff size = in.tellg();
  if (size > static_cast<std::streamoff>(kMaxPatternTextBytes))
    throw UsageError("--pattern-file " + path + " is too large (" + std::to_string(size >> 20) +
                     " MiB; at most " + std::to_string(kMaxPatternTextBytes >> 20) + " MiB)");
  in.clear();
  in.seekg(0, std::ios::beg);
  in.clear();  // a pipe cannot seek: read it from where it is
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw UsageError("cannot read --pattern-file " + path);
  return ss.str();
}
}  // namespace

Pattern read_pattern_file(const std::string& path, long long L_flag) {
  const std::string text = read_file(path);
  try {
    return parse_pattern_text(text, L_flag);
  } catch (const InvalidArgument& e) {
    throw UsageError("--pattern-file " + path + ": " + e.what());
  }
}

}  // namespace attnx::cli
