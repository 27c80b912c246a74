// attnx CLI: `attnx sweep` (scaling experiment, SPEC section 5). The output texts are the
// core's (attnx/sweep_io.hpp), shared with the lab page.
#include "commands.hpp"
#include "common.hpp"
#include <attnx/memory.hpp>
#include <attnx/sweep.hpp>
#include <attnx/sweep_io.hpp>
#include <attnx/sweep_report.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "cost.hpp"
#include "sweep_parallel.hpp"
#include <attnx/errors.hpp>
#include <attnx/frontier.hpp>
#include <attnx/sweep_shard.hpp>

namespace attnx::cli {

namespace {
// The budget of the largest L, checked before the first trial (the core checks each L when it
// reaches it, after the smaller ones have run); the estimate the explorer uses before a run.
// Returns how many tasks of that size fit in the budget at once.
std::uint64_t check_sweep_budget(const SweepOptions& opt) {
  PatternSpec s = opt.pattern;
  s.L = opt.Ls.back();
  validate(s);  // the spec at the largest L first (as the core's sweep_point does at each L)
  check_request_budget(check_request(opt.request(opt.seed), Purpose::Search), s.L, row_count_bound(s));
  return opt.mind.max_bytes / std::max<std::uint64_t>(search_bytes_at_largest(opt), 1);
}

// --threads (0: one per core), at most as many as the memory budget holds at the largest L (a
// smaller number changes the time, never the output; said on stderr).
int sweep_threads(const Args& a, std::uint64_t fit) {
  const long long asked = a.get_int("threads");
  const int want = asked == 0 ? default_threads() : static_cast<int>(asked);
  if (static_cast<std::uint64_t>(want) <= fit) return want;
  std::fprintf(stderr, "attnx sweep: %d threads at once would exceed --max-bytes; using %d\n", want, int(fit));
  return static_cast<int>(std::max<std::uint64_t>(fit, 1));
}
// --shard i/n: the shard's tasks, printed as a part file (sweep_shard.hpp).
int run_shard(const Args& a, const SweepOptions& opt, int threads, ProgressPrinter& progress) {
  SweepPart part;
  part.opt = opt;
  const ShardFlag shard = shard_of(a);
  part.index = shard.index;
  part.count = shard.count;
  part.tasks = shard_tasks(opt, part.index, part.count);
  part.results = run_tasks(opt, part.tasks, threads, [&](double f) { return progress(f); });
  progress.done();
  write_stdout(sweep_part_to_json(part));
  return 0;
}
}  // namespace

// The text of part file `path` (refused, naming it, when unreadable, a directory or over 256 MiB).
std::string read_text_file(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) throw UsageError("cannot read " + path + ": " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw UsageError(path + " is a directory, not a part file");
  if (st.st_size > (std::int64_t(256) << 20)) throw UsageError(path + " is larger than 256 MiB: not a part file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read " + path + ": " + std::strerror(errno));
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// --report goes with the JSON of a whole sweep only (refused before anything runs).
void check_report(const Args& a) {
  if (!a.get_switch("report")) return;
  if (a.get_str("format") == "csv") throw UsageError("--report adds to the JSON output; it cannot go with --format csv");
  refuse_given_with(a, "--report reports a whole sweep's result", {"dry-run", "shard"});
}

// The output of a sweep or merge in --format (json, with the report when --report is given).
std::string sweep_output(const Args& a, const SweepRecord& rec) {
  if (a.get_str("format") == "csv") return sweep_to_csv(rec);
  if (!a.get_switch("report")) return sweep_to_json(rec);
  const SweepReport report = sweep_report(rec);
  return sweep_to_json(rec, &report);
}

// merge of frontier parts (the first file says which kind the parts are): the frontier's output.
int run_merge_frontier(const Args& a) {
  if (a.get_switch("report")) throw UsageError("--report applies to sweeps; a frontier has no fits to report");
  std::vector<FrontierPart> parts;
  for (const std::string& f : a.operands()) {
    try {
      parts.push_back(parse_frontier_part(read_text_file(f)));
    } catch (const InvalidArgument& e) {
      throw UsageError(f + ": " + e.what());
    }
  }
  FrontierOptions opt;
  FrontierResult r;
  try {
    r = merge_frontier_parts(parts, a.operands(), opt);
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }
  write_stdout(a.get_str("format") == "csv" ? frontier_csv(opt, r) : frontier_json(opt, r));
  return 0;
}

int run_merge(const Args& a) {
  if (!a.operands().empty() && is_frontier_part(read_text_file(a.operands()[0]))) return run_merge_frontier(a);
  check_report(a);
  if (a.operands().empty()) throw UsageError("merge needs the part files of one sweep (attnx merge FILE...)");
  std::vector<SweepPart> parts;
  for (const std::string& f : a.operands()) {
    try {
      parts.push_back(parse_sweep_part(read_text_file(f)));
    } catch (const InvalidArgument& e) {
      throw UsageError(f + ": " + e.what());
    }
  }
  SweepOptions opt;
  SweepResult r;
  try {
    r = merge_sweep_parts(parts, a.operands(), opt);
  } catch (const InvalidArgument& e) {
    throw UsageError(e.what());
  }
  write_stdout(sweep_output(a, sweep_record(opt, r)));
  return 0;
}

// --dry-run prints its prediction as JSON, for the whole sweep: refused with what it would ignore.
void check_dry_run(const Args& a) {
  if (!a.get_switch("dry-run")) return;
  if (a.given("format") && a.get_str("format") != "json")
    throw UsageError("--dry-run prints its prediction as JSON; it cannot go with --format " + a.get_str("format"));
  refuse_given_with(a, "--dry-run predicts the whole sweep without running it", {"shard", "progress"});
}

int run_sweep(const Args& a) {
  check_report(a);
  check_dry_run(a);
  SweepOptions opt;
  opt.pattern = pattern_spec(a, false);
  opt.tol = tolerances(a);
  opt.mind = mind_options(a);
  opt.Ls = a.get_int_list("Ls");
  check_family_defaults(a, opt.pattern, opt.Ls, "Ls");
  opt.trials = static_cast<int>(a.get_int("trials"));
  opt.seed = seed_of(a);
  opt.construction = a.get_str("construction");
  opt.box = a.get_real("box");
  opt.scale = a.get_real("scale");
  validate(opt);
  const int threads = sweep_threads(a, check_sweep_budget(opt));

  if (a.get_switch("dry-run")) return run_sweep_dry_run(opt, threads);
  ProgressPrinter progress(a.get_switch("progress"), "sweep");
  if (a.given("shard")) return run_shard(a, opt, threads, progress);
  const SweepResult r = sweep_parallel(opt, threads, [&](double f) { return progress(f); });
  progress.done();
  write_stdout(sweep_output(a, sweep_record(opt, r)));
  return 0;
}

}  // namespace attnx::cli
