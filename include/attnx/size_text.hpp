// attnx core: sizes in bytes as messages say them (the memory budget's refusals, the CLI's file
// limits). A refusal compares a size with a limit in one unit, so that the two numbers read in
// the order they are: MiB when the limit is a whole number of MiB (the size rounded up), else
// both in bytes (a budget of 10000000 bytes is not "10 MiB", nor "9 MiB").
#pragma once
#include <cstdint>
#include <string>

namespace attnx {

constexpr std::uint64_t kMiB = 1ull << 20;

// "812 bytes", "3 MiB" (a whole number of MiB from 1 MiB on), else "10000000 bytes": exact.
std::string size_text(std::uint64_t bytes);

struct SizesText {
  std::string size, limit;
};
// A size above a limit, in one unit: { "11 MiB", "10 MiB" } when the limit is a whole number of
// MiB (the size rounded up, so it stays above), else { "10000500 bytes", "10000000 bytes" }.
SizesText sizes_above_limit(std::uint64_t size, std::uint64_t limit);

// A derived bound ("files up to 10 MiB fit"): from 1 MiB on in MiB rounded down, so that what it
// says stays true; below, in bytes.
std::string size_up_to_text(std::uint64_t bound);
// A size above such a bound ("is 61 MiB"): from 1 MiB on in MiB rounded up, so that it reads
// above the bound rounded down; below, in bytes.
std::string size_above_text(std::uint64_t size);

}  // namespace attnx
