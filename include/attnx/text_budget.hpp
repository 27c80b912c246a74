// attnx core: memory of reading a custom pattern text (attnx/pattern_io.hpp), so that a caller
// holding a file can refuse it under a memory budget before reading it.
#pragma once
#include <cstdint>

namespace attnx {

// Bytes of peak memory per byte of pattern text while parse_pattern_text reads it (an upper
// bound: JSON builds a value tree of about 120 bytes per value, and "[1,1,1]," is 4 values in
// 8 bytes; measured peak 87 bytes per byte; the lines form peaks at about 31).
constexpr std::uint64_t kPatternTextBytesFactor = 96;

// Peak memory of parsing a pattern text of `text_bytes` bytes (text included).
std::uint64_t estimate_pattern_text_bytes(std::uint64_t text_bytes);
// Longest pattern text that may be read under `max_bytes`: the smaller of kMaxPatternTextBytes
// and the largest n whose estimate is at most max_bytes.
std::uint64_t max_pattern_text_bytes(std::uint64_t max_bytes);

}  // namespace attnx
