// attnx core: sizes in messages (see size_text.hpp).
#include <attnx/size_text.hpp>

namespace attnx {

namespace {

bool whole_mib(std::uint64_t b) { return b >= kMiB && b % kMiB == 0; }

}  // namespace

std::string size_text(std::uint64_t bytes) {
  if (whole_mib(bytes)) return std::to_string(bytes / kMiB) + " MiB";
  return std::to_string(bytes) + " bytes";
}

SizesText sizes_above_limit(std::uint64_t size, std::uint64_t limit) {
  if (!whole_mib(limit)) return {std::to_string(size) + " bytes", std::to_string(limit) + " bytes"};
  return {std::to_string(size / kMiB + (size % kMiB != 0)) + " MiB", size_text(limit)};
}

std::string size_up_to_text(std::uint64_t bound) {
  return bound < kMiB ? std::to_string(bound) + " bytes" : std::to_string(bound / kMiB) + " MiB";
}

std::string size_above_text(std::uint64_t size) {
  return size < kMiB ? std::to_string(size) + " bytes" : std::to_string(size / kMiB + (size % kMiB != 0)) + " MiB";
}

}  // namespace attnx
