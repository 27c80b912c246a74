// attnx CLI: reading a custom pattern file (--pattern custom --pattern-file FILE). The file's
// text is read by the core (attnx/pattern_io.hpp), which knows every accepted form. The file is
// checked against the text limit and the memory budget (attnx/text_budget.hpp) before it is
// read, and never more than the limit + 1 bytes are read (a pipe or /dev/zero has no size).
#include "common.hpp"
#include "files.hpp"
#include <attnx/errors.hpp>
#include <attnx/pattern_io.hpp>
#include <attnx/text_budget.hpp>

namespace attnx::cli {

namespace {

// The refusal of a text larger than the limit under `max_bytes`; size_shown: "is 3 MiB" or "is
// larger than ...".
std::string size_refusal(const std::string& path, const std::string& size_shown, std::uint64_t size,
                         std::uint64_t max_bytes) {
  const std::uint64_t limit = max_pattern_text_bytes(max_bytes);
  std::string msg = "--pattern-file " + path + " " + size_shown;
  if (limit < kMaxPatternTextBytes) {
    msg += ": reading it needs about " + size_text(estimate_pattern_text_bytes(size)) +
           ", above the memory budget of " + size_text(max_bytes) + " (--max-bytes; files up to " +
           size_text(limit, true) + " fit)";
  } else {
    msg += ", above the limit of " + size_text(kMaxPatternTextBytes) + " for a pattern text";
  }
  return msg;
}

}  // namespace

Pattern read_pattern_file(const std::string& path, long long L_flag, std::uint64_t max_bytes) {
  const std::uint64_t limit = max_pattern_text_bytes(max_bytes);
  const std::string text =
      read_bounded_file(path, "--pattern-file " + path, limit, [&](std::uint64_t size, bool stream) {
        return size_refusal(path, stream ? "is larger than " + size_text(limit, true) : "is " + size_text(size), size,
                            max_bytes);
      });
  try {
    return parse_pattern_text(text, L_flag);
  } catch (const InvalidArgument& e) {
    throw UsageError("--pattern-file " + path + ": " + e.what());
  }
}

}  // namespace attnx::cli
