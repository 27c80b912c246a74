// One length's point from streamed parts (the lab's worker tasks): hand-made parts finishing out of
// order merge in trial order with the statistics of all trials; parts that leave a gap, overlap or
// miss trials are refused naming the trial; real parts reproduce sweep_point.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include <attnx/errors.hpp>
#include <attnx/sweep.hpp>

using namespace attnx;

namespace {
PointPart part(int first, std::vector<int> d, double d_star, int k, int cols, bool in_class, std::uint64_t madds) {
  PointPart p;
  p.first_trial = first;
  p.point.d_mins = std::move(d);
  p.point.d_star = d_star;
  p.point.k = k;
  p.point.max_col_count = cols;
  p.point.in_class = in_class;
  p.point.madds = madds;
  return p;
}
std::string refusal(int L, std::vector<PointPart> parts, int trials) {
  try {
    merge_point_parts(L, std::move(parts), trials, 0.1);
  } catch (const InvalidArgument& e) {
    CHECK(e.field() == "parts");
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("merge_point_parts: parts finishing out of order merge in trial order") {
  // Trials 0..5 of L = 64: [528, 832, 928, 640, 528, 720] arriving as 3..4, 5, 0..2.
  const std::vector<PointPart> parts = {part(3, {640, 528}, 703, 2, 6, true, 200),
                                        part(5, {-1}, 705, 3, 8, false, 100),
                                        part(0, {528, 832, 928}, 700, 2, 3, true, 300)};
  const SweepPoint m = merge_point_parts(64, parts, 6, 0.1);
  CHECK(m.L == 64);
  CHECK(m.d_mins == std::vector<int>{528, 832, 928, 640, 528, -1});
  CHECK(m.median == 736);    // sorted 528 528 640 832 928 (n.r.): (640 + 832) / 2
  CHECK(m.quantile == -1);   // ceil(0.9 * 6) = 6 successes needed, 5 reached
  CHECK(m.d_star == 705);    // the largest part's
  CHECK(m.k == 3);
  CHECK(m.max_col_count == 8);
  CHECK(m.in_class == false);  // one part outside the class
  CHECK(m.madds == 600);       // multiply-adds add up
  CHECK(merge_point_parts(64, parts, 6, 0.2).quantile == 928);  // ceil(4.8) = 5th smallest
}

TEST_CASE("merge_point_parts refuses parts that do not cover the trials exactly once") {
  CHECK(refusal(8, {part(0, {4}, 1, 2, 2, true, 1), part(2, {5}, 1, 2, 2, true, 1)}, 3) ==
        "the trials of L = 8 do not join up at trial 2: trials 1..1 are in no part");
  CHECK(refusal(8, {part(0, {4, 5}, 1, 2, 2, true, 1), part(1, {5}, 1, 2, 2, true, 1)}, 3) ==
        "the trials of L = 8 do not join up at trial 1: it is in two parts");
  CHECK(refusal(8, {part(0, {4, 5}, 1, 2, 2, true, 1)}, 3) ==
        "the trials of L = 8 do not join up at trial 3: trials 2..2 are in no part");
  CHECK(refusal(8, {part(1, {4}, 1, 2, 2, true, 1)}, 2) ==
        "the trials of L = 8 do not join up at trial 1: trials 0..0 are in no part");
  CHECK(refusal(8, {part(0, {4, 5, 6}, 1, 2, 2, true, 1)}, 2) == "the parts of L = 8 hold 3 trials, not 2");
  CHECK_THROWS_AS(merge_point_parts(8, {part(0, {4}, 1, 2, 2, true, 1)}, 1, 1.5), InvalidArgument);  // delta
}

TEST_CASE("merge_point_parts of real parts in any order equals sweep_point over all the trials") {
  SweepOptions opt;
  opt.Ls = {32};
  opt.trials = 7;
  opt.seed = 5;
  const SweepPoint whole = sweep_point(opt, 32);
  std::vector<PointPart> parts;
  for (auto [first, n] : {std::pair{4, 3}, std::pair{0, 2}, std::pair{2, 2}}) {
    SweepOptions o = opt;
    o.first_trial = first;
    o.trials = n;
    parts.push_back({first, sweep_point(o, 32)});
  }
  const SweepPoint m = merge_point_parts(32, parts, 7, opt.tol.delta);
  CHECK(m.d_mins == whole.d_mins);
  CHECK(m.median == whole.median);
  CHECK(m.quantile == whole.quantile);
  CHECK(m.d_star == whole.d_star);
  CHECK(m.k == whole.k);
  CHECK(m.max_col_count == whole.max_col_count);
  CHECK(m.in_class == whole.in_class);
  CHECK(m.madds == whole.madds);
}
