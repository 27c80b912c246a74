// attnx core: memory of reading a custom pattern text (see text_budget.hpp).
#include <attnx/text_budget.hpp>

#include <algorithm>

#include <attnx/pattern_io.hpp>

namespace attnx {

std::uint64_t estimate_pattern_text_bytes(std::uint64_t text_bytes) {
  return kPatternTextBytesFactor * text_bytes;
}

std::uint64_t max_pattern_text_bytes(std::uint64_t max_bytes) {
  return std::min<std::uint64_t>(kMaxPatternTextBytes, max_bytes / kPatternTextBytesFactor);
}

}  // namespace attnx
