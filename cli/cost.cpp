// attnx CLI: bench --scaling and sweep --dry-run (see cost.hpp).
#include "cost.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "common.hpp"
#include <attnx/json.hpp>
#include <attnx/sweep_cost.hpp>

namespace attnx::cli {

namespace {

// A run this long is timed once (the noise of longer runs is small beside them), and the untimed
// warm-up runs at a length at most kWarmUpL (a cold first trial took 5x as long, enough to turn
// the fit's exponent negative).
constexpr double kRepeatBelowSeconds = 0.2;
constexpr int kWarmUpL = 256;

// Trial 0 at each L, timed (pattern drawing and the minimal-d search): the best of up to `reps`
// runs (see kRepeatBelowSeconds), after one untimed run at min(first L, kWarmUpL).
std::vector<TrialTiming> time_trials(const SweepOptions& opt, const std::vector<int>& Ls, int reps) {
  std::vector<TrialTiming> out;
  if (!Ls.empty()) (void)sweep_trial(opt, std::min(Ls.front(), kWarmUpL), 0);
  for (int L : Ls) {
    double best = 0;
    int d_min = -1;
    for (int r = 0; r < reps && (r == 0 || best < kRepeatBelowSeconds); ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      const SweepPoint p = sweep_trial(opt, L, 0);
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      best = r == 0 ? s : std::min(best, s);
      d_min = p.d_mins.at(0);
    }
    out.push_back({L, d_min, best});
  }
  return out;
}

// What the model rests on, in words (bench --scaling's text, the dry run's note).
std::string model_basis(const CostModel& m) {
  if (!m.ok) return "no timing to fit";
  if (!m.anchored) return "fitted to the timings";
  if (m.timed < 2) return "one length timed: p = 1 from it";
  char fit[96];
  std::snprintf(fit, sizeof fit, "the fit (p = %.3f, R^2 %.3f over %d lengths)", m.p_fit, m.r2, m.timed);
  return std::string(fit) + " is not trusted (it needs " + std::to_string(kCostMinTimings) + " lengths, p in [" +
         json_number(kCostMinP) + ", " + json_number(kCostMaxP) + "], R^2 >= " + json_number(kCostMinR2) +
         "), so p = 1 from the timing of most work";
}

// What d against L rests on, in words.
std::string d_basis(const CostModel& m) {
  char buf[96];
  if (!m.d_of_L.ok) return "d: no length reached";
  if (m.d_of_L.b == 0 && m.d_of_L.r2 == 0) {
    std::snprintf(buf, sizeof buf, "d ~ %.0f at every L (the largest reached; no rising fit)", m.d_of_L.a);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "d ~ %.1f + %.1f ln L", m.d_of_L.a, m.d_of_L.b);
  return buf;
}

void write_model(JsonWriter& w, const CostModel& m) {
  w.key("model").begin_object();
  w.field("formula", "seconds per trial = c (L^2 d)^p, and beyond anchor_work at least anchor_seconds (L^2 d) / anchor_work; d = a + b ln L");
  w.field("ok", m.ok);
  w.field("anchored", m.anchored);
  w.field("basis", model_basis(m));
  w.field("c", m.c);
  w.field("p", m.p);
  w.field("p_fit", m.p_fit);
  w.field("r2_log", m.r2);
  w.field("anchor_work", m.anchor_work);
  w.field("anchor_seconds", m.anchor_seconds);
  w.field("a", m.d_of_L.a);
  w.field("b", m.d_of_L.b);
  w.end_object();
}

void write_timings(JsonWriter& w, const std::vector<TrialTiming>& t) {
  w.key("trials").begin_array();
  for (const TrialTiming& s : t) {
    w.begin_object(true).field("L", s.L);
    w.key("d_min").value_or_null(s.d_min);
    w.field("seconds", s.seconds).end_object();
  }
  w.end_array();
}

// How a running sweep's progress and time left are estimated (the core's, as --progress prints
// them and the lab shows them): each trial weighed by the prior model's work.
void write_progress_model(JsonWriter& w) {
  w.key("progress").begin_object();
  w.field("formula", "fraction = done work / all work, work per trial = L^2 ln L; seconds left = elapsed (1 - fraction) / fraction");
  w.field("eta_min_fraction", kEtaMinFraction);
  w.field("eta_min_seconds", kEtaMinSeconds);
  w.end_object();
}

}  // namespace

int run_bench_scaling(const SweepOptions& opt, const std::string& format) {
  const std::vector<TrialTiming> t = time_trials(opt, opt.Ls, 1);
  const CostModel m = fit_cost(t, opt.mind.step, opt.mind.d_max);
  if (format == "text") {
    std::string o = "attnx bench --scaling: one trial per L (paper preset), seconds against L^2 d_min\n";
    char buf[160];
    for (const TrialTiming& s : t) {
      std::snprintf(buf, sizeof buf, "  L %6d  d_min %5d  %9.3f s  L^2 d = %.3g\n", s.L, s.d_min, s.seconds, double(s.L) * s.L * std::max(s.d_min, 1));
      o += buf;
    }
    if (m.ok && !m.anchored) std::snprintf(buf, sizeof buf, "time ~ %.3g (L^2 d)^%.3f (R^2 %.3f in log-log)", m.c, m.p, m.r2);
    else if (m.ok) std::snprintf(buf, sizeof buf, "time ~ %.3g (L^2 d): ", m.c);
    o += m.ok && !m.anchored ? std::string(buf) : m.ok ? std::string(buf) + model_basis(m) : "time: " + model_basis(m);
    write_stdout(o + "; " + d_basis(m) + "\n");
    return 0;
  }
  JsonWriter w;
  w.begin_object();
  w.field("command", "bench");
  w.field("mode", "scaling");
  write_timings(w, t);
  write_model(w, m);
  w.end_object();
  write_stdout(w.finish());
  return 0;
}

// Runs per pilot length (the best counts; a run of kRepeatBelowSeconds or more is not repeated).
constexpr int kPilotReps = 3;

int run_sweep_dry_run(const SweepOptions& opt, int threads) {
  std::vector<int> pilot;
  for (int L : opt.Ls)
    if (L <= 1024 || pilot.size() < 2) pilot.push_back(L);
  const std::vector<TrialTiming> t = time_trials(opt, pilot, kPilotReps);
  const CostModel m = fit_cost(t, opt.mind.step, opt.mind.d_max);
  JsonWriter w;
  w.begin_object();
  w.field("command", "sweep");
  w.field("dry_run", true);
  w.key("pilot");
  w.begin_object();
  write_timings(w, t);
  w.end_object();
  write_model(w, m);
  write_progress_model(w);
  w.key("predicted").begin_array();
  double total = 0;
  const CostModel prior = prior_cost_model();
  for (int L : opt.Ls) {
    const double s = predict_trial_seconds(m, L);
    total += s * opt.trials;
    w.begin_object(true).field("L", L).field("trials", opt.trials).field("seconds_per_trial", s).field("seconds", s * opt.trials);
    w.field("work_per_trial", trial_work(prior, L)).end_object();
  }
  w.end_array();
  w.field("core_hours", total / 3600);
  w.field("threads", threads);
  w.field("wall_hours", total / 3600 / std::max(1, threads));
  w.field("note", "a prediction from the pilot's trials (" + model_basis(m) + "); real times vary with the machine and its load");
  w.end_object();
  write_stdout(w.finish());
  return 0;
}

}  // namespace attnx::cli
