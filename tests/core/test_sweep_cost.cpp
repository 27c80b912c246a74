// The sweep cost model: exact power laws are recovered; d grows with ln L as fitted; a sweep's
// prediction is the sum over its trials.
#include <doctest/doctest.h>

#include <cmath>

#include <attnx/sweep_cost.hpp>

using namespace attnx;

TEST_CASE("fit_cost recovers seconds = c (L^2 d)^p and d = a + b ln L from exact samples") {
  std::vector<TrialTiming> t;
  for (int L : {64, 128, 256, 512}) {
    const int d = int(std::lround(100 + 50 * std::log(double(L))));
    t.push_back({L, d, 2e-9 * std::pow(double(L) * L * d, 1.1)});
  }
  const CostModel m = fit_cost(t, 4096);
  REQUIRE(m.ok);
  CHECK(m.p == doctest::Approx(1.1).epsilon(1e-3));
  CHECK(m.r2 == doctest::Approx(1.0).epsilon(1e-6));
  CHECK(m.d_of_L.b == doctest::Approx(50).epsilon(0.02));
  const double d2048 = 100 + 50 * std::log(2048.0);
  CHECK(predict_trial_seconds(m, 2048, 16, 4096) == doctest::Approx(2e-9 * std::pow(2048.0 * 2048 * d2048, 1.1)).epsilon(0.02));
  SweepOptions o;
  o.Ls = {64, 2048};
  o.trials = 3;
  CHECK(predict_sweep_seconds(m, o) == doctest::Approx(3 * (predict_trial_seconds(m, 64, 16, 4096) + predict_trial_seconds(m, 2048, 16, 4096))));
  CHECK_FALSE(fit_cost({{64, 100, 1.0}}, 4096).ok);
}
