// The sweep cost model: the prior is L^2 ln L per trial (the shards' weights, bit for bit); exact
// power laws are recovered by the fit; a sweep's prediction is the sum over its trials; the time
// estimate is elapsed (1 - f) / f of the done share f weighed by the model; the lab's task plan
// covers every trial in order, sized by the model.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include <attnx/sweep_cost.hpp>
#include <attnx/sweep_plan.hpp>

using namespace attnx;

TEST_CASE("the prior cost model: a trial at L costs L^2 ln L work units, exactly") {
  const CostModel prior = prior_cost_model();
  for (int L : {2, 3, 16, 64, 100, 1000, 1024, 16384}) {
    CHECK(trial_work(prior, L) == double(L) * L * std::log(double(L)));  // bit for bit
    CHECK(predict_trial_seconds(prior, L) == trial_work(prior, L));      // c = 1
  }
  CHECK(trial_work(prior, 512) / trial_work(prior, 256) == doctest::Approx(4 * std::log(512.0) / std::log(256.0)));
}

TEST_CASE("fit_cost recovers seconds = c (L^2 d)^p and d = a + b ln L from exact samples") {
  std::vector<TrialTiming> t;
  for (int L : {64, 128, 256, 512}) {
    const int d = int(std::lround(100 + 50 * std::log(double(L))));
    t.push_back({L, d, 2e-9 * std::pow(double(L) * L * d, 1.1)});
  }
  const CostModel m = fit_cost(t, 16, 4096);
  REQUIRE(m.ok);
  CHECK(m.p == doctest::Approx(1.1).epsilon(1e-3));
  CHECK(m.c == doctest::Approx(2e-9).epsilon(1e-2));
  CHECK(m.r2 == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(m.d_of_L.b == doctest::Approx(50).epsilon(0.02));
  const double d2048 = 100 + 50 * std::log(2048.0);
  CHECK(predict_trial_seconds(m, 2048) == doctest::Approx(2e-9 * std::pow(2048.0 * 2048 * d2048, 1.1)).epsilon(0.02));
  // d is clamped to [step, d_max]: at L = 2 the fitted d (about 135) stays, a huge L stops at d_max.
  CHECK(predict_trial_seconds(m, 16384) == doctest::Approx(m.c * std::pow(16384.0 * 16384 * std::min(4096.0, m.d_of_L.a + m.d_of_L.b * std::log(16384.0)), m.p)));
  SweepOptions o;
  o.Ls = {64, 2048};
  o.trials = 3;
  CHECK(predict_sweep_seconds(m, o) == doctest::Approx(3 * (predict_trial_seconds(m, 64) + predict_trial_seconds(m, 2048))));
  CHECK_FALSE(fit_cost({}, 16, 4096).ok);
  CHECK(fit_cost({}, 16, 4096).c == 0);
}

TEST_CASE("one timing, or timings the model does not fit, anchor p = 1 at the timing of most work") {
  const CostModel one = fit_cost({{64, 100, 1.0}}, 16, 4096);
  CHECK((one.ok && one.anchored && one.p == 1));
  CHECK(one.c == doctest::Approx(1.0 / (64.0 * 64 * 100)));
  CHECK((one.d_of_L.ok && one.d_of_L.a == 100 && one.d_of_L.b == 0));  // the one d reached, flat
  CHECK(predict_trial_seconds(one, 64) == doctest::Approx(1.0));
  // A cold first trial: 5 ms at L = 64, 0.7 ms at 128 fit p < 0, which predicted nothing at large
  // L; anchored, time grows as the work from L = 128 (d 600, flat: it did not grow).
  const CostModel cold = fit_cost({{64, 600, 5e-3}, {128, 600, 7e-4}}, 16, 4096);
  CHECK((cold.ok && cold.anchored && cold.p == 1));
  CHECK(predict_trial_seconds(cold, 1024) == doctest::Approx(7e-4 * 64));
  // Out of [kCostMinP, kCostMaxP], an R^2 below kCostMinR2, or fewer than kCostMinTimings lengths:
  // anchored, the fit's p kept in p_fit; inside: fitted.
  auto timed = [](double p, double noise, std::vector<int> Ls = {64, 128, 256, 512}) {
    std::vector<TrialTiming> t;
    int i = 0;
    for (int L : Ls) t.push_back({L, 500, 1e-9 * std::pow(double(L) * L * 500, p) * (i++ % 2 ? noise : 1)});
    return fit_cost(t, 16, 4096);
  };
  CHECK(timed(0.4, 1).anchored);
  CHECK(timed(0.4, 1).p_fit == doctest::Approx(0.4));
  CHECK(timed(1.6, 1).anchored);
  CHECK(timed(1.0, 30).anchored);  // alternate timings 30x off: R^2 about 0.7
  CHECK(timed(1.0, 30).r2 < 0.8);
  CHECK(timed(0.9, 1, {64, 128}).anchored);  // two lengths always fit exactly
  CHECK_FALSE(timed(0.9, 1).anchored);
  CHECK(timed(0.9, 1).p == doctest::Approx(0.9));
  CHECK(timed(0.9, 1).timed == 4);
}

TEST_CASE("beyond the timing of most work a trial takes at least that timing times the work's ratio") {
  // p = 0.72 fitted on L = 64 .. 1024 (measured), the anchor at L = 1024: at L = 8192 the fit alone
  // gives (8192^2 / 1024^2)^0.72 = 20x, the work ratio 64x (d flat here).
  std::vector<TrialTiming> t;
  for (int L : {64, 128, 256, 512, 1024}) t.push_back({L, 800, 1e-8 * std::pow(double(L) * L * 800, 0.72)});
  const CostModel m = fit_cost(t, 16, 4096);
  REQUIRE((m.ok && !m.anchored));
  CHECK(m.anchor_work == doctest::Approx(1024.0 * 1024 * 800));
  CHECK(predict_trial_seconds(m, 8192) == doctest::Approx(t.back().seconds * 64));
  CHECK(predict_trial_seconds(m, 256) == doctest::Approx(t[2].seconds));  // within the timings: the fit
  // With p > 1 the fit grows faster than the work: beyond the anchor it stands; below the anchor
  // too, though there the work's line from the anchor would be higher (the floor is only beyond).
  std::vector<TrialTiming> steep;
  for (int L : {64, 128, 256}) steep.push_back({L, 800, 1e-12 * std::pow(double(L) * L * 800, 1.2)});
  const CostModel s = fit_cost(steep, 16, 4096);
  REQUIRE((s.ok && !s.anchored));
  CHECK(predict_trial_seconds(s, 1024) == doctest::Approx(1e-12 * std::pow(1024.0 * 1024 * 800, 1.2)).epsilon(1e-6));
  CHECK(predict_trial_seconds(s, 64) == doctest::Approx(steep[0].seconds).epsilon(1e-6));
  CHECK(predict_trial_seconds(s, 64) < steep[2].seconds * (64.0 * 64) / (256.0 * 256));
}

TEST_CASE("timings that are not finite or not positive are left out of the fit, their d kept") {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  const CostModel m = fit_cost({{64, 500, inf}, {128, 600, nan}, {256, 700, 0}, {512, 800, 1e-3}}, 16, 4096);
  CHECK((m.ok && m.anchored && m.timed == 1));
  CHECK(m.anchor_seconds == 1e-3);
  CHECK(m.anchor_work == 512.0 * 512 * 800);  // the raw work, not exp(log(work))
  CHECK(m.d_of_L.b > 0);  // the d of all four trials
  CHECK(std::isfinite(m.c));
}

TEST_CASE("a d fit that falls with L is noise: the largest d reached stands for every L") {
  const CostModel m = fit_cost({{64, 700, 1e-3}, {128, 600, 4e-3}, {256, 650, 1.6e-2}}, 16, 4096);
  CHECK(m.d_of_L.ok);
  CHECK(m.d_of_L.b == 0);
  CHECK(m.d_of_L.a == 700);
}

TEST_CASE("eta_seconds and sweep_progress: the rate so far, once 1% and 0.3 s are behind") {
  CHECK(eta_seconds(0.25, 3) == 9);       // 3 s for a quarter: 9 s for the rest
  CHECK(eta_seconds(0.5, 0.31) == 0.31);
  CHECK(eta_seconds(1, 5) == 0);
  CHECK(eta_seconds(0.01, 100) == -1);    // not more than 1 % done
  CHECK(eta_seconds(0.5, 0.3) == -1);     // not more than 0.3 s passed
  const SweepProgress p = sweep_progress({{3, 1}, {1, 0}}, 3);
  CHECK(p.fraction == 0.75);
  CHECK(p.eta == 1);
  CHECK(sweep_progress({{1, 0}}, 1).eta == -1);
  CHECK(sweep_progress({{2, 1.5}, {2, -1}}, 1).fraction == 0.5);  // fractions clamped to [0, 1]
  CHECK(sweep_progress({}, 1).fraction == 0);
}

namespace {
// Checks the plan's invariants and returns it: every length's parts cover its trials in order,
// nearly equal in size, at least min(3 lanes, lengths x trials) tasks, each weighed by the model.
std::vector<PlannedTask> check_plan(const std::vector<int>& Ls, int T, int lanes) {
  const CostModel prior = prior_cost_model();
  const std::vector<PlannedTask> tasks = plan_sweep_tasks(prior, Ls, T, lanes);
  for (int L : Ls) {
    int next = 0, lo = T, hi = 0;
    for (const PlannedTask& t : tasks) {
      if (t.L != L) continue;
      CHECK(t.first_trial == next);
      CHECK(t.trials >= 1);
      CHECK(t.work == trial_work(prior, L) * t.trials);
      next += t.trials;
      lo = std::min(lo, t.trials), hi = std::max(hi, t.trials);
    }
    CHECK(next == T);
    CHECK(hi - lo <= 1);
  }
  CHECK(tasks.size() >= std::min<std::size_t>(3 * lanes, Ls.size() * T));
  return tasks;
}
std::vector<int> lengths_of(const std::vector<PlannedTask>& t) {
  std::vector<int> out;
  for (const PlannedTask& x : t)
    if (out.empty() || out.back() != x.L) out.push_back(x.L);
  return out;
}
}  // namespace

TEST_CASE("plan_sweep_tasks: parts in trial order, sized by cost, about 3 tasks per worker") {
  const auto a = check_plan({16, 32, 64, 128}, 6, 4);
  CHECK(lengths_of(a) == std::vector<int>{128, 64, 32, 16});  // several workers: largest L first
  CHECK(std::count_if(a.begin(), a.end(), [](const PlannedTask& t) { return t.L == 16; }) == 1);  // cheap: whole
  CHECK(lengths_of(check_plan({16, 32, 64, 128}, 10, 1)) == std::vector<int>{16, 32, 64, 128});  // one: smallest first
  const auto b = check_plan({512}, 2, 8);
  CHECK((b.size() == 2 && b[1].first_trial == 1 && b[1].trials == 1));  // never below one trial
  CHECK(check_plan({512}, 1, 8).size() == 1);
  std::vector<int> equal;
  for (int i = 0; i < 21; ++i) equal.push_back(64 + i);
  CHECK(check_plan(equal, 4, 2).size() == 21);  // many equal lengths: no split
  // One long length among short ones is split even when the lengths alone give enough tasks.
  const auto c = check_plan({16, 32, 64, 128, 256, 512, 1024, 2048}, 6, 2);
  for (int i = 0; i < 5; ++i) CHECK(c[i].L == 2048);
  double total = 0;
  for (const PlannedTask& t : c) total += t.work;
  for (const PlannedTask& t : c) CHECK((t.trials == 1 || t.work <= total / 6 * (1 + 1e-9)));
  check_plan({64, 128, 256, 512}, 1000, 16);
  check_plan({2, 4096}, 7, 3);
  // One worker, lengths 16 and 512, 5 trials: 16 whole, 512 one trial per task.
  const auto d = plan_sweep_tasks(prior_cost_model(), {16, 512}, 5, 1);
  REQUIRE(d.size() == 6);
  CHECK((d[0].L == 16 && d[0].trials == 5));
  for (int i = 1; i < 6; ++i) CHECK((d[i].L == 512 && d[i].first_trial == i - 1 && d[i].trials == 1));
}
