// attnx CLI: `attnx import FILE` (issue 24): one head of a model's attention (.npy, .npz or
// JSON; a regular file) made a sparse target and described, written as a pattern file (--out),
// or every head surveyed (--all) on threads, its progress on stderr when that is a terminal (or
// with --progress). Reading, checking, sparsifying, describing, the default memory budget and
// the survey's texts are the core's (heads.hpp, head_import.hpp, head_survey.hpp).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <mutex>
#include <optional>
#include <vector>

#include "commands.hpp"
#include "common.hpp"
#include "files.hpp"
#include "sweep_parallel.hpp"
#include <attnx/head_survey.hpp>
#include <attnx/pattern_io.hpp>

namespace attnx::cli {

namespace {

// Flags that do not go together, refused before any work.
void check_import_flags(const Args& a) {
  if (a.operands().size() != 1)
    throw UsageError("import needs exactly one FILE (.npy, .npz or JSON; see attnx import --help), got " +
                     std::to_string(a.operands().size()));
  const bool all = a.get_switch("all");
  for (const char* f : {"layer", "head", "out"})
    if (all && a.given(f))
      throw UsageError(std::string("--") + f + " does not apply with --all (it surveys every head)");
  if (!all && a.get_str("format") == "csv")
    throw UsageError("--format csv applies only with --all (one head's description is JSON)");
  for (const char* f : {"eps", "tau", "seed", "threads", "progress"})
    if (!all && a.given(f)) throw UsageError(std::string("--") + f + " applies only with --all (the survey's searches)");
}

// The file (a regular file: no device, FIFO or socket), read whole under the memory budget, and
// parsed by the core.
AttentionArray read_file(const std::string& path, std::uint64_t max_bytes) {
  const auto too_large = [&](std::uint64_t size, bool grew) {
    const SizesText t = sizes_above_limit(size, max_bytes);
    return path + (grew ? " grew while it was read, above" : " is " + t.size + ", above") + " the memory budget of " +
           t.limit + " (--max-bytes)";
  };
  const std::string bytes =
      read_bounded_file(path, path, max_bytes, too_large, "attnx import reads a saved .npy, .npz or JSON file");
  return read_attention(bytes, path, max_bytes);
}

void write_params(JsonWriter& w, const Args& a, const AttentionArray& arr, const HeadOptions& opt) {
  w.key("params").begin_object();
  w.field("file", a.operands()[0]);
  w.field("format", arr.format);
  w.field("dtype", arr.dtype);
  w.key("shape").begin_array(true);
  for (int n : attention_shape(arr)) w.value(n);
  w.end_array();
  w.field("layer", static_cast<int>(a.get_int("layer")));
  w.field("head", static_cast<int>(a.get_int("head")));
  w.field("rule", rule_text(opt.rule));
  w.field("softmax", opt.softmax);
  w.field("max_bytes", opt.max_bytes);
  w.end_object();
}

int describe_head(const Args& a, const AttentionArray& arr, const HeadOptions& opt, std::optional<OutputFile>& out) {
  const std::string& path = a.operands()[0];
  const HeadImport h = import_file_head(arr, static_cast<int>(a.get_int("layer")), static_cast<int>(a.get_int("head")),
                                        opt, path);
  JsonWriter w;
  w.begin_object();
  w.field("command", "import");
  w.field("version", ATTNX_VERSION);
  write_params(w, a, arr, opt);
  w.field("tokens", static_cast<int>(arr.tokens.size()));
  w.key("head");
  write_head_description(w, h.description);
  if (out) w.field("out", a.get_str("out"));
  w.end_object();
  const std::string text = w.finish();
  if (out) out->write_text(pattern_to_json(h.target));
  write_stdout(text);
  return 0;
}

// Threads for the survey: --threads (0: one per core), at most the heads and as many as the
// memory left after the file holds (said on stderr when fewer; the output does not change).
int survey_threads(const Args& a, const AttentionArray& arr, std::uint64_t left, std::uint64_t per_head) {
  const long long asked = a.get_int("threads");
  const int want = std::min<long long>(asked == 0 ? default_threads() : asked, 1ll * arr.layers * arr.heads);
  const std::uint64_t fit = std::max<std::uint64_t>(1, left / std::max<std::uint64_t>(per_head, 1));
  if (static_cast<std::uint64_t>(want) <= fit) return want;
  std::fprintf(stderr, "attnx import: %d threads at once would exceed --max-bytes; using %d\n", want, int(fit));
  return static_cast<int>(fit);
}

// The survey's progress: the fraction of every head, summed (heads run side by side).
class SurveyProgress {
 public:
  SurveyProgress(const Args& a, int heads)
      : printer_(a.get_switch("progress") || isatty(2) != 0, "import --all"), part_(std::size_t(heads), 0.0) {}

  // Head i has done `fraction` of its work.
  void set(int i, double fraction) {
    std::lock_guard<std::mutex> lock(mu_);
    sum_ += fraction - part_[std::size_t(i)];
    part_[std::size_t(i)] = fraction;
    printer_(sum_ / double(part_.size()));
  }
  void done() { printer_.done(); }

 private:
  ProgressPrinter printer_;  // --progress, or stderr a terminal
  std::vector<double> part_;
  double sum_ = 0;
  std::mutex mu_;
};

int survey(const Args& a, const AttentionArray& arr, HeadOptions head) {
  SurveyRecord rec;
  rec.file = a.operands()[0];
  rec.shape = attention_shape(arr);
  rec.options.tol.eps = a.get_real("eps");
  rec.options.tol.tau = a.get_real("tau");
  rec.options.seed = seed_of(a);
  const std::uint64_t held = estimate_attention_bytes(0, arr.values.size(), 0);
  const std::uint64_t left = head.max_bytes > held ? head.max_bytes - held : 0;
  const int threads = survey_threads(a, arr, left, estimate_survey_head_bytes(arr.L, head.rule));
  head.max_bytes = std::max<std::uint64_t>(left / static_cast<std::uint64_t>(threads), 1);
  rec.options.head = head;
  const int n = arr.layers * arr.heads;
  // Fewer heads than threads: the rest solve lp's rows of each head (the rows do not depend on it).
  const int asked = a.get_int("threads") == 0 ? default_threads() : static_cast<int>(a.get_int("threads"));
  const int row_threads = std::max(1, asked / threads);
  if (row_threads > 1) rec.options.rows = rows_on_threads(row_threads);
  rec.rows.resize(static_cast<std::size_t>(n));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n));
  SurveyProgress progress(a, n);
  parallel_for(n, threads, [&](int i) {
    try {
      rec.rows[i] = survey_file_head(arr, i / arr.heads, i % arr.heads, rec.options, rec.file,
                                     [&](double f) { return progress.set(i, f), true; });
    } catch (...) {
      errors[i] = std::current_exception();  // the first head's error is reported, whatever the threads
    }
    progress.set(i, 1.0);
  });
  progress.done();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  write_stdout(a.get_str("format") == "csv" ? survey_to_csv(rec) : survey_to_json(rec));
  return 0;
}

}  // namespace

int run_import(const Args& a) {
  check_import_flags(a);
  HeadOptions opt;
  opt.rule = parse_rule(a.get_str("rule"));
  opt.softmax = a.get_switch("softmax");
  opt.max_bytes = max_bytes_of(a);
  std::optional<OutputFile> out;
  if (a.given("out")) out.emplace(a.get_str("out"), "--out");  // refused at once if it cannot be written
  const AttentionArray arr = read_file(a.operands()[0], opt.max_bytes);
  if (a.get_switch("all")) return survey(a, arr, opt);
  return describe_head(a, arr, opt, out);
}

}  // namespace attnx::cli
