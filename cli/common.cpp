// attnx CLI: options -> core structs, shared JSON blocks, stdout and progress.
#include "common.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <stdexcept>

#include <attnx/errors.hpp>
#include <attnx/schema.hpp>
#include <attnx/memory.hpp>
#include <attnx/number_grammar.hpp>
#include <attnx/pattern_io.hpp>
#include <attnx/rng.hpp>
#include <attnx/sweep_cost.hpp>

namespace attnx::cli {

namespace {

// The family's own parameters, from the core's family table.
std::vector<std::string> family_params(Family f) {
  std::vector<std::string> own;
  for (const auto& info : pattern_families())
    if (info.name == family_name(f))
      for (const auto& p : info.params) own.push_back(p.name);
  return own;
}

int int_param(const Args& a, const char* name) { return static_cast<int>(a.get_int(name)); }
}  // namespace

PatternSpec pattern_spec(const Args& a, bool with_L) {
  PatternSpec s;
  s.family = parse_family(a.get_str("pattern"));
  if (s.family == Family::Custom) {
    if (!a.given("pattern-file"))
      throw UsageError("--pattern custom needs --pattern-file FILE (see attnx " +
                       a.command().name + " --help)");
  } else if (a.command().find("pattern-file") && a.given("pattern-file")) {
    throw UsageError("--pattern-file needs --pattern custom (got --pattern " + a.get_str("pattern") + ")");
  }
  if (s.family != Family::Custom) s.weights = parse_weights(a.get_str("weights"));
  if (with_L && (s.family != Family::Custom || a.given("L"))) s.L = int_param(a, "L");
  for (const auto& p : family_params(s.family)) {
    int v = int_param(a, p.c_str());
    if (p == "k") s.k = v;
    else if (p == "w") s.w = v;
    else if (p == "r") s.r = v;
    else if (p == "block") s.block = v;
    else if (p == "stride") s.stride = v;
    else if (p == "globals") s.globals = v;
    else if (p == "randoms") s.randoms = v;
  }
  if (s.family != Family::Custom) {
    if (s.weights == Weights::Random) s.w_min = a.get_real("w-min");
    if (s.weights == Weights::Decaying) s.decay = a.get_real("decay");
  }
  if (with_L && s.family != Family::Custom) check_family_defaults(a, s, {s.L}, "L");
  return s;
}

void check_family_defaults(const Args& a, const PatternSpec& s, const std::vector<int>& Ls,
                           const std::string& L_flag) {
  const bool L_given = a.given(L_flag);
  for (const auto& p : family_params(s.family)) {
    const long long v = a.get_int(p);
    for (int L : Ls) {  // ascending: the first L that does not fit is the one to name
      long long lo = 0, hi = 0;
      param_bounds(s.family, p, L, lo, hi);
      if (v >= lo && v <= hi) continue;
      const std::string range = "from " + std::to_string(lo) + " to " + std::to_string(hi);
      const std::string L_text = L_flag == "L" ? "--L " + std::to_string(L)
                                               : "L = " + std::to_string(L) + " in --Ls";
      if (!a.given(p) && L_given)
        throw UsageError(L_text + " is too small for the default --" + p + " " +
                         std::to_string(v) + ": give --" + p + " " + range);
      if (a.given(p) && !L_given)
        throw UsageError("--" + p + " must be an integer " + range + " with " +
                         (L_flag == "L" ? "the default --L " + std::to_string(L)
                                        : "L = " + std::to_string(L) + " of the default --Ls") +
                         " (got " + std::to_string(v) + ")");
      if (a.given(p) && L_given)
        throw UsageError("--" + p + " must be an integer " + range + " for " + L_text + " (got " + std::to_string(v) + ")");
      return;  // neither given: the core's message
    }
  }
}

Pattern build_pattern(const Args& a, PatternSpec& spec, std::uint64_t seed) {
  if (spec.family == Family::Custom) {
    Pattern p = read_pattern_file(a.get_str("pattern-file"), a.given("L") ? spec.L : -1,
                                  max_bytes_of(a));
    spec.L = p.L;
    return p;
  }
  Rng rng(pattern_seed(seed));
  return make_pattern(spec, rng);
}

int row_bound_before_drawing(const PatternSpec& spec) {
  if (spec.family == Family::Custom) return -1;
  validate(spec);
  return row_count_bound(spec);
}

Tolerances tolerances(const Args& a) {
  Tolerances t;
  t.eps = a.get_real("eps");
  t.tau = a.get_real("tau");
  t.delta = a.get_real("delta");
  return t;
}

MinDOptions mind_options(const Args& a) {
  MinDOptions m;
  m.step = static_cast<int>(a.get_int("step"));
  m.d_max = static_cast<int>(a.get_int("dmax"));
  if (m.step > m.d_max)
    throw UsageError("--step must be at most --dmax (got --step " + std::to_string(m.step) +
                     " and --dmax " + std::to_string(m.d_max) + ")");
  m.max_bytes = max_bytes_of(a);
  m.projection = projection_of(a);
  return m;
}

ProjectionKind projection_of(const Args& a) { return parse_projection(a.get_str("projection")); }

namespace {

// Runs f, keeping the refusal of a flag it reads (UsageError) in `bad`.
template <class F>
void take(std::vector<std::string>& bad, F&& f) {
  try {
    f();
  } catch (const UsageError& e) {
    bad.push_back(e.what());
  }
}

}  // namespace

ConstructionRequest construction_request(const Args& a, std::vector<std::string>* refused) {
  ConstructionRequest r;
  std::vector<std::string> own, &bad = refused ? *refused : own;
  const CommandDef& cmd = a.command();
  take(bad, [&] { r.construction = a.get_str("construction"); });
  take(bad, [&] { r.tol.eps = a.get_real("eps"); });
  take(bad, [&] { r.tol.tau = a.get_real("tau"); });
  take(bad, [&] { r.tol.delta = a.get_real("delta"); });
  if (cmd.find("d")) take(bad, [&] { r.d = static_cast<int>(a.get_int("d")); });
  if (cmd.find("step")) take(bad, [&] { r.mind = mind_options(a); });
  take(bad, [&] { r.mind.max_bytes = max_bytes_of(a); });
  take(bad, [&] { r.mind.projection = projection_of(a); });
  take(bad, [&] { r.seed = seed_of(a); });
  if (cmd.find("box")) take(bad, [&] { r.box = a.get_real("box"); });
  if (cmd.find("scale")) take(bad, [&] { r.scale = a.get_real("scale"); });
  if (cmd.find("precision")) r.precision = a.get_switch("precision");
  if (bad.empty() || refused) return r;
  std::string text;
  for (const std::string& b : bad) text += (text.empty() ? "" : "; ") + b;
  throw UsageError(text);
}

CheckedRequest checked_request(const Args& a, Purpose purpose, const std::function<void(ConstructionRequest&)>& set) {
  std::vector<std::string> bad;
  ConstructionRequest r = construction_request(a, &bad);
  if (set) take(bad, [&] { set(r); });
  Problems problems;
  for (const std::string& b : bad) problems.add("", b);
  check_request_fields(r, purpose, problems);
  problems.throw_if_any();
  return check_request(r, purpose);
}

void write_construction_params(JsonWriter& w, const Args& a, const ConstructionInfo& c) {
  for (const std::string& name : c.params)
    if (name == "box" || name == "budget") w.field(option_info(name).json, a.get_real(option_info(name).flag));
}

std::uint64_t seed_of(const Args& a) { return static_cast<std::uint64_t>(a.get_int("seed")); }
std::uint64_t max_bytes_of(const Args& a) {
  return static_cast<std::uint64_t>(a.get_int("max-bytes"));
}

ShardFlag shard_of(const Args& a) {
  if (a.given("format") && a.get_str("format") != "json")
    throw UsageError("--shard prints a part file (JSON) for attnx merge; give --format to merge instead");
  const std::string text = a.get_str("shard");
  const auto slash = text.find('/');
  long long i = -1, n = -1;
  if (slash == std::string::npos || !parse_integer_text(text.substr(0, slash), &i) || !parse_integer_text(text.substr(slash + 1), &n))
    throw UsageError("--shard must be i/n, two integers with 0 <= i < n (got \"" + text.substr(0, 40) + "\")");
  return {static_cast<int>(std::clamp<long long>(i, -1, 1 << 30)), static_cast<int>(std::clamp<long long>(n, -1, 1 << 30))};
}

void write_pattern_params(JsonWriter& w, const Args& a, const PatternSpec& s, bool with_L) {
  w.field("pattern", family_name(s.family));
  if (with_L) w.field("L", s.L);
  for (const auto& p : family_params(s.family)) w.field(p, static_cast<int>(a.get_int(p)));
  if (s.family == Family::Custom) {
    w.field("pattern_file", a.get_str("pattern-file"));
    return;
  }
  w.field("weights", weights_name(s.weights));
  if (s.weights == Weights::Random) w.field("w_min", s.w_min);
  if (s.weights == Weights::Decaying) w.field("decay", s.decay);
}

void write_tolerances(JsonWriter& w, const Tolerances& t) {
  w.field("eps", t.eps);
  w.field("tau", t.tau);
  w.field("delta", t.delta);
}

void write_pattern_stats(JsonWriter& w, const Pattern& p) {
  w.begin_object();
  w.field("L", p.L);
  write_pattern_counts(w, p.k, p.max_col_count, p.in_class, p.nnz());
  w.end_object();
}

// SPEC §8.4: the input norm, the float32 and float64 verdicts, bits(X) (null: not reached).
void write_precision(JsonWriter& w, const PrecisionReport& p) {
  w.key("precision").begin_object();
  w.field("input_norm", p.input_norm);
  w.field("fp32", p.fp32);
  w.field("fp64", p.fp64);
  w.key("bits").value_or_null(p.bits > 0 ? p.bits : -1);
  w.end_object();
}

void write_bounds(JsonWriter& w, const Bounds& b) {
  w.key("bounds").begin_object();
  for (const auto& [key, value] : bound_values(b)) w.field(key, value);  // NaN, inf: null
  w.end_object();
}

void write_stdout(const std::string& text) {
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
    throw OutputError(errno ? std::strerror(errno) : "write failed");
}

ProgressPrinter::ProgressPrinter(bool enabled, std::string label)
    : enabled_(enabled), tty_(isatty(2) != 0), label_(std::move(label)) {}

ProgressPrinter::~ProgressPrinter() { done(); }

bool ProgressPrinter::operator()(double fraction) {
  if (!enabled_) return true;
  int pct = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * 100.0);
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double eta = pct < 100 ? eta_seconds(fraction, elapsed) : -1;
  char left[48] = "";
  if (eta >= 0) std::snprintf(left, sizeof left, " (about %.0f s left)", eta);
  if (tty_) {
    if (pct != last_) {
      std::fprintf(stderr, "\rattnx: %s %3d%%%-22s", label_.c_str(), pct, left);
      std::fflush(stderr);
      open_ = true;
    }
  } else if (pct / 10 != last_ / 10 || last_ < 0) {
    std::fprintf(stderr, "attnx: %s %d%%%s\n", label_.c_str(), pct / 10 * 10, left);
  }
  last_ = pct;
  return true;
}

void ProgressPrinter::done() {
  if (open_) std::fputc('\n', stderr);
  open_ = false;
}

}  // namespace attnx::cli
