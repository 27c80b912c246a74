// attnx CLI: `attnx frontier` (SPEC 10.2): the dimensions each construction needs against the
// logit scale at one L, on threads, or one shard of it as a part file for `attnx merge`. The
// numbers and texts are the core's (attnx/frontier.hpp).
#include <algorithm>
#include <mutex>

#include "commands.hpp"
#include "common.hpp"
#include "sweep_parallel.hpp"
#include <attnx/errors.hpp>
#include <attnx/frontier.hpp>

namespace attnx::cli {

namespace {

// The options as the flags give them, every bad flag and every refusal of the core's validate
// (the field named as its flag) in one message.
FrontierOptions frontier_options(const Args& a) {
  FrontierOptions o = default_frontier_options();
  Problems p;
  auto take = [&](const char* field, auto f) {
    try {
      f();
    } catch (const UsageError& e) {
      p.add(field, e.what());
    } catch (const InvalidArgument& e) {
      p.add(e.field(), e.what());
    }
  };
  take("pattern", [&] { o.pattern = pattern_spec(a, true); });
  if (o.pattern.family == Family::Custom) p.add("pattern", "--pattern custom has no frontier (choose a generated family)");
  take("eps", [&] { o.tol = tolerances(a); });
  take("scales", [&] { o.scales = a.get_real_list("scales"); });
  take("boxes", [&] { o.boxes = a.get_real_list("boxes"); });
  take("trials", [&] { o.trials = static_cast<int>(a.get_int("trials")); });
  take("constructions", [&] { o.constructions = parse_constructions(a.get_str("constructions")); });
  take("seed", [&] { o.seed = seed_of(a); });
  take("maxBytes", [&] { o.max_bytes = max_bytes_of(a); });
  if (p.empty()) check_boxes_apply(o, a.given("boxes"), p);
  if (p.empty()) validate(o);
  p.throw_if_any();
  return o;
}

// The results of `tasks` (indexes into frontier_tasks) on `threads` threads, in their order;
// progress: tasks done over all, under a lock.
std::vector<FrontierTrial> run_frontier_tasks(const FrontierOptions& o, const std::vector<int>& tasks, int threads,
                                              ProgressPrinter& progress) {
  const std::vector<FrontierTask> all = frontier_tasks(o);
  std::vector<FrontierTrial> out(tasks.size());
  std::mutex mu;
  int done = 0;
  parallel_for(static_cast<int>(tasks.size()), threads, [&](int n) {
    out[static_cast<std::size_t>(n)] = frontier_trial(o, all[static_cast<std::size_t>(tasks[static_cast<std::size_t>(n)])]);
    std::lock_guard<std::mutex> lock(mu);
    progress(double(++done) / double(tasks.size()));
  });
  progress.done();
  return out;
}

// --threads (0: one per core), at most as many trials as the budget holds at once.
int frontier_threads(const Args& a, const FrontierOptions& o) {
  const long long asked = a.get_int("threads");
  const int want = asked == 0 ? default_threads() : static_cast<int>(asked);
  std::uint64_t most = 1;
  for (const std::string& c : o.constructions) {
    ConstructionRequest r;
    r.construction = c;
    r.tol = o.tol;
    r.mind.max_bytes = o.max_bytes;
    r.mind.d_max = construction_kind(c).info.d_max > 0 ? std::min(construction_kind(c).info.d_max, r.mind.d_max) : r.mind.d_max;
    most = std::max(most, construction_kind(c).bytes(r, Purpose::Search, o.pattern.L, row_count_bound(o.pattern)));
  }
  const std::uint64_t fit = std::max<std::uint64_t>(1, o.max_bytes / most);
  return static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(want), fit));
}

int run_frontier_shard(const Args& a, const FrontierOptions& o, int threads, ProgressPrinter& progress) {
  FrontierPart part;
  part.opt = o;
  const ShardFlag shard = shard_of(a);
  part.index = shard.index;
  part.count = shard.count;
  part.tasks = frontier_shard_tasks(o, part.index, part.count);
  part.results = run_frontier_tasks(o, part.tasks, threads, progress);
  write_stdout(frontier_part_json(part));
  return 0;
}

}  // namespace

int run_frontier(const Args& a) {
  const FrontierOptions o = frontier_options(a);
  const int threads = frontier_threads(a, o);
  ProgressPrinter progress(a.get_switch("progress"), "frontier L=" + std::to_string(o.pattern.L));
  if (a.given("shard")) return run_frontier_shard(a, o, threads, progress);
  std::vector<int> all(frontier_tasks(o).size());
  for (std::size_t n = 0; n < all.size(); ++n) all[n] = static_cast<int>(n);
  const FrontierResult r = frontier_result(o, run_frontier_tasks(o, all, threads, progress));
  write_stdout(a.get_str("format") == "csv" ? frontier_csv(o, r) : frontier_json(o, r));
  return 0;
}

}  // namespace attnx::cli
