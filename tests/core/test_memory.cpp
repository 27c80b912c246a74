// Issue 27, item 1: every construction and every entry point has a memory estimate in the core,
// checked before anything is allocated. The estimates are checked here against what each
// computation must hold at once (hand-derived from its phases); scripts/bench-memory.mjs
// measures them against the peak resident memory of real runs (not part of the tests).
#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

#include "cli_run.hpp"
#include <attnx/construction.hpp>
#include <attnx/construct_moment.hpp>
#include <attnx/errors.hpp>
#include <attnx/memory.hpp>
#include <attnx/pattern.hpp>
#include <attnx/rng.hpp>
#include <attnx/sweep.hpp>
#include "requests.hpp"

using cli_test::run_cli;

namespace {

using u64 = std::uint64_t;
constexpr u64 MiB = 1ull << 20;

attnx::Pattern random_pattern(int L, int k) {
  attnx::PatternSpec s;
  s.L = L;
  s.k = k;
  attnx::Rng rng(attnx::pattern_seed(1));
  return attnx::make_pattern(s, rng);
}

bool has(const std::string& s, const std::string& t) { return s.find(t) != std::string::npos; }

// The registry's estimate of a build of construction c at hidden size d (rows on `threads`).
u64 inputs_bytes(const std::string& c, int L, int k, int d, bool precision = false, int threads = 1) {
  attnx::ConstructionRequest r;
  r.construction = c;
  r.d = d;
  r.precision = precision;
  r.threads = threads;
  return attnx::construction_kind(c).bytes(r, attnx::Purpose::Build, L, k);
}

// The registry's estimate of a search of construction c on the grid step .. dmax.
u64 search_bytes(const std::string& c, int L, int k, int step, int dmax) {
  attnx::ConstructionRequest r;
  r.construction = c;
  r.mind.step = step;
  r.mind.d_max = dmax;
  return attnx::construction_kind(c).bytes(r, attnx::Purpose::Search, L, k);
}

}  // namespace

TEST_CASE("lp and moment hold the double logits, M in double and a float copy at once: 20 bytes per L^2") {
  for (int L : {1024, 4096, 16384}) {
    const u64 ll = u64(L) * L;
    for (const char* c : {"lp", "moment"}) {
      CAPTURE(L);
      CAPTURE(c);
      const u64 e = inputs_bytes(c, L, 2, 1);
      CHECK(e >= 20 * ll);
      CHECK(e <= 25 * ll);  // and not far above it at d = 1 (the issue measured 6.2 GB at L = 16384)
    }
  }
  // The lp at L = 16384, d = 1 was estimated at 3 GiB: now above 5 GiB.
  CHECK(inputs_bytes("lp", 16384, 2, 1) > 5 * 1024 * MiB);
}

TEST_CASE("jl's precision report is in the estimate: X in double, in float and rounded, the double logits") {
  for (int L : {256, 2048})
    for (int d : {64, 512}) {
      const u64 l = u64(L), dd = u64(d);
      // construct's logits and M (float), its X (float), X in double, X in float again, X rounded
      // (double) and its double logits.
      const u64 held = 8 * l * l + 8 * l * dd + 16 * l * dd + 8 * l * dd + 16 * l * dd + 8 * l * l;
      CHECK(inputs_bytes("jl", L, 2, d, true) >= held);
      CHECK(inputs_bytes("jl", L, 2, d, true) > inputs_bytes("jl", L, 2, d, false));
    }
}

TEST_CASE("lp's search holds X up to its largest d — moment's trial is its construction") {
  const u64 l = 2048;
  // The keys (float), the queries and X (double), X in float, then 20 bytes per L^2.
  CHECK(search_bytes("lp", 2048, 2, 1, 256) >=
        4 * l * 256 + 8 * l * 256 + 16 * l * 256 + 8 * l * 256 + 20 * l * l);
  CHECK(search_bytes("moment", 2048, 2, 16, 4096) ==
        inputs_bytes("moment", 2048, 2, 0));
  // Each row's LP grows with the threads solving rows at once.
  CHECK(inputs_bytes("lp", 256, 2, 256, false, 4) > inputs_bytes("lp", 256, 2, 256, false, 1));
}

TEST_CASE("every entry point refuses a run above the budget with the usual message") {
  const attnx::Pattern A = random_pattern(1024, 1);
  const attnx::Tolerances tol;
  const auto refused = [](const std::function<void()>& f, const std::string& what) {
    try {
      f();
    } catch (const attnx::BudgetExceeded& e) {
      CHECK_MESSAGE(std::string(e.what()).rfind(what + " needs about ", 0) == 0, e.what());
      CHECK(has(e.what(), "above the memory budget of 1 MiB"));
      return;
    }
    FAIL("not refused: " << what);
  };
  refused([&] { attnx::build_inputs(A, th::build("moment", tol, 8, 1, attnx::kDefaultLpBox, MiB)); }, "construct");
  refused([&] { attnx::build_inputs(A, th::build("lp", tol, 8, 1, attnx::kDefaultLpBox, MiB)); }, "construct");
  attnx::MinDOptions small;
  small.max_bytes = MiB;
  refused([&] { attnx::search_min_d(A, th::search("moment", tol, small, 1)); }, "moment trial");
  attnx::MinDOptions opt;
  opt.step = 1;
  opt.d_max = 64;
  opt.max_bytes = MiB;
  refused([&] { attnx::search_min_d(A, th::search("lp", tol, opt, 1)); }, "min-d search");
  refused([&] { attnx::search_min_d(A, th::search("jl", tol, opt, 1)); }, "min-d search");
  for (const std::string c : {"jl", "lp", "moment"}) {
    attnx::ConstructionRequest r;
    r.construction = c;
    r.d = 8;
    r.mind.max_bytes = MiB;
    refused([&] { attnx::build_inputs(A, th::checked(r, tol)); }, "construct");
    attnx::SweepOptions s;
    s.Ls = {1024};
    s.trials = 1;
    s.construction = c;
    s.mind = opt;
    if (c != "lp") s.mind = attnx::MinDOptions{}, s.mind.max_bytes = MiB;
    refused([&] { attnx::sweep_point(s, 1024); }, c == "moment" ? "moment trial" : "min-d search");
  }
  // The precision report: jl fits without it and is refused with it.
  attnx::ConstructionRequest r;
  r.d = 512;
  r.mind.max_bytes = inputs_bytes("jl", 1024, 1, 512) + MiB;
  CHECK_NOTHROW(attnx::build_inputs(A, th::checked(r, tol)));
  r.precision = true;
  CHECK_THROWS_AS(attnx::build_inputs(A, th::checked(r, tol)), attnx::BudgetExceeded);
}

TEST_CASE("the CLI refuses lp and moment runs above --max-bytes that it used to run") {
  if (!cli_test::cli_available()) return;
  const std::vector<std::pair<std::vector<std::string>, std::string>> runs = {
      // The issue: jl was refused, moment ran in 28 MB.
      {{"construct", "--construction", "moment", "--L", "1024", "--k", "1", "--max-bytes", "1048576"},
       "attnx: construct needs about 21 MiB, above the memory budget of 1 MiB; reduce --L, or raise --max-bytes\n"},
      {{"construct", "--construction", "lp", "--L", "1024", "--d", "8", "--max-bytes", "16777216"}, "attnx: construct needs about"},
      {{"construct", "--L", "1024", "--d", "512", "--precision", "--max-bytes", "33554432"}, "attnx: construct needs about"},
      {{"mind", "--construction", "lp", "--L", "1024", "--step", "1", "--dmax", "64", "--max-bytes", "16777216"},
       "attnx: min-d search needs about 23 MiB, above the memory budget of 16 MiB; reduce --L or --dmax, or raise --max-bytes\n"},
      {{"sweep", "--construction", "moment", "--Ls", "1024", "--trials", "1", "--max-bytes", "10485760"},
       "attnx: moment trial needs about 21 MiB, above the memory budget of 10 MiB; reduce --Ls, or raise --max-bytes\n"},
  };
  for (const auto& [args, text] : runs) {
    const auto r = run_cli(args);
    cli_test::check_refused(r);
    CHECK_MESSAGE(r.err.rfind(text, 0) == 0, r.err);
  }
  // jl without the report fits where the report does not.
  CHECK(run_cli({"construct", "--L", "1024", "--d", "512", "--max-bytes", "33554432"}).status == 0);
}

TEST_CASE("the CLI checks the budget before allocating: refused, not out of memory, under a smaller address space") {
  if (!cli_test::cli_available()) return;
  // About 330 MiB each; the process may map 200 MiB, the budget says 100 MiB.
  for (const std::vector<std::string>& run : std::vector<std::vector<std::string>>{
           {"construct", "--construction", "moment", "--L", "4096", "--k", "1"},
           {"construct", "--construction", "lp", "--L", "4096", "--d", "1"},
           {"sweep", "--construction", "moment", "--Ls", "4096", "--trials", "1"}}) {
    std::vector<std::string> args = {"-c", "ulimit -v 204800 && exec \"$0\" \"$@\"", cli_test::cli_path()};
    args.insert(args.end(), run.begin(), run.end());
    args.insert(args.end(), {"--max-bytes", "104857600"});
    const auto r = cli_test::run_program("/bin/sh", args);
    cli_test::check_refused(r);
    CHECK_MESSAGE(has(r.err, "needs about"), r.err);
  }
}
