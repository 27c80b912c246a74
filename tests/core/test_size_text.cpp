// Sizes in messages (size_text.hpp, issue 47 item 7): a size and the limit it is above are said
// in one unit, so that they read in the order they are: MiB when the limit is a whole number of
// MiB, bytes otherwise (a budget of 10000000 bytes is neither "9 MiB" nor "10 MiB"); a derived
// bound is rounded down and a size above it up. The budget refusals use them.
#include <doctest/doctest.h>

#include <string>

#include "helpers.hpp"
#include <attnx/errors.hpp>
#include <attnx/memory.hpp>
#include <attnx/size_text.hpp>

using attnx::kMiB;

TEST_CASE("size_text is exact: MiB for whole MiB, else bytes") {
  CHECK(attnx::size_text(812) == "812 bytes");
  CHECK(attnx::size_text(3 * kMiB) == "3 MiB");
  CHECK(attnx::size_text(10000000) == "10000000 bytes");
  CHECK(attnx::size_text(kMiB - 1) == "1048575 bytes");
}

TEST_CASE("a size above a limit is said in the limit's unit, and reads above it") {
  const attnx::SizesText whole = attnx::sizes_above_limit(10 * kMiB + 1, 10 * kMiB);
  CHECK(whole.size == "11 MiB");
  CHECK(whole.limit == "10 MiB");
  const attnx::SizesText bytes = attnx::sizes_above_limit(10000100, 10000000);
  CHECK(bytes.size == "10000100 bytes");
  CHECK(bytes.limit == "10000000 bytes");
  CHECK(attnx::sizes_above_limit(9 * kMiB + 5, 9 * kMiB).size == "10 MiB");
  // A derived bound rounded down, a size above it rounded up: 10.67 MiB and 61 MiB.
  CHECK(attnx::size_up_to_text(11184810) == "10 MiB");
  CHECK(attnx::size_above_text(63963136) == "61 MiB");
  CHECK(attnx::size_above_text(10 * kMiB) == "10 MiB");
  CHECK(attnx::size_up_to_text(1000) == "1000 bytes");
}

TEST_CASE("a budget refusal says its estimate in the budget's unit") {
  auto said = [](std::uint64_t bytes, std::uint64_t max) {
    try {
      attnx::check_budget("construct", bytes, max, "L or d");
    } catch (const attnx::BudgetExceeded& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(said(10 * kMiB + 500, 10000000) ==
        "construct needs about 10486260 bytes, above the memory budget of 10000000 bytes; reduce L or d, or raise the budget");
  CHECK(said(21 * kMiB - 3, kMiB) == "construct needs about 21 MiB, above the memory budget of 1 MiB; reduce L or d, or raise the budget");
  CHECK(said(kMiB, kMiB) == "accepted");
}
