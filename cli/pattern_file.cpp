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

// The refusal of a text of `size` bytes, larger than the limit under `max_bytes` (stream: only
// known to be larger, as a pipe's). Each size is said in the unit of the one it is compared with:
// the file's rounded up against the limit rounded down, the estimate against the budget.
std::string size_refusal(const std::string& path, std::uint64_t size, bool stream, std::uint64_t max_bytes) {
  const std::uint64_t limit = max_pattern_text_bytes(max_bytes);
  const std::string shown = stream ? "is larger than " + size_up_to_text(limit) : "is " + size_above_text(size);
  std::string msg = "--pattern-file " + path + " " + shown;
  if (limit < kMaxPatternTextBytes) {
    const SizesText need = sizes_above_limit(estimate_pattern_text_bytes(size), max_bytes);
    msg += ": reading it needs about " + need.size + ", above the memory budget of " + need.limit +
           " (--max-bytes; files up to " + size_up_to_text(limit) + " fit)";
  } else {
    msg += ", above the limit of " + size_text(kMaxPatternTextBytes) + " for a pattern text";
  }
  return msg;
}

}  // namespace

Pattern read_pattern_file(const std::string& path, long long L_flag, std::uint64_t max_bytes) {
  const std::uint64_t limit = max_pattern_text_bytes(max_bytes);
  const std::string text =
      read_bounded_file(path, "--pattern-file " + path, limit,
                        [&](std::uint64_t size, bool stream) { return size_refusal(path, size, stream, max_bytes); });
  try {
    return parse_pattern_text(text, L_flag);
  } catch (const InvalidArgument& e) {
    throw UsageError("--pattern-file " + path + ": " + e.what());
  }
}

}  // namespace attnx::cli
