// What a sweep's numbers say: hand-made success curves (an empirical CDF over ALL trials, so it
// stops below 1 when some did not reach), the reading of the fits (the bootstrap verdict when there
// is a comparison, else every branch of the single-sample rule), and the paper's band.
#include <doctest/doctest.h>

#include <vector>

#include <attnx/errors.hpp>
#include <attnx/sweep_reading.hpp>

using namespace attnx;

namespace {
void check_steps(const DDistribution& r, const std::vector<EcdfStep>& want) {
  REQUIRE(r.steps.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    CHECK(r.steps[i].d == want[i].d);
    CHECK(r.steps[i].count == want[i].count);
    CHECK(r.steps[i].p == want[i].p);  // exact: (trials up to d) / (all trials)
  }
}
SweepFits fits(double b, double log_r2, double p, double power_r2) {
  SweepFits f;
  f.log = {true, 100, b, log_r2};
  f.power = {true, 120, p, power_r2};
  return f;
}
}  // namespace

TEST_CASE("d_distribution: a hand-made success curve over all trials") {
  const DDistribution r = d_distribution({640, 640, -1, 600});
  CHECK(r.trials == 4);
  CHECK(r.reached == 3);
  CHECK(r.max_reached == 640);
  check_steps(r, {{600, 1, 0.25}, {640, 2, 0.75}});  // stops at 3/4: one trial not reached
  const DDistribution all = d_distribution({48, 16, 32, 16, 48});
  check_steps(all, {{16, 2, 0.4}, {32, 1, 0.6}, {48, 2, 1.0}});
  CHECK(all.max_reached == 48);
  const DDistribution none = d_distribution({-1, -1});
  CHECK(none.steps.empty());
  CHECK(none.reached == 0);
  CHECK(none.max_reached == -1);
  CHECK(d_distribution({}).trials == 0);
}

TEST_CASE("d_distribution crosses 1 - delta at quantile_d") {
  const std::vector<int> d = {160, 16, 32, -1, 64, 80, 96, 112, 128, 144};
  for (double delta : {0.05, 0.1, 0.25, 0.5, 0.9}) {
    const DDistribution r = d_distribution(d);
    int cross = -1;
    for (const EcdfStep& s : r.steps)
      if (s.p >= 1 - delta - 1e-12) { cross = s.d; break; }
    CHECK(cross == quantile_d(d, delta));
  }
}

TEST_CASE("read_fits: the bootstrap verdict when there is a comparison") {
  FitComparison c{1000, 950, 50, 5};
  const FitReading r = read_fits(fits(80, 0.95, 0.3, 0.99), &c, {500, 510, 520, 530, 540});
  CHECK(r.fits_ok);
  CHECK(r.basis == "bootstrap");
  CHECK(r.verdict == "log");
  CHECK(r.small_exponent);
  CHECK(r.per_doubling == 55);  // 80 ln 2 = 55.45
  CHECK(r.usable == 5);
  CHECK_FALSE(r.rough);
  c = {1000, 450, 550, 5};
  CHECK(read_fits(fits(80, 0.95, 0.3, 0.99), &c, {1, 2, 3, 4, 5}).verdict == "undecided");
  c = {1000, 1000, 0, 4};
  CHECK(read_fits(fits(80, 0.95, 0.3, 0.99), &c, {1, 2, 3, 4}).verdict == "too-few-lengths");
  c = {1000, 50, 950, 5};
  CHECK(read_fits(fits(80, 0.95, 0.6, 0.99), &c, {1, 2, 3, 4, 5}).verdict == "power");
}

TEST_CASE("read_fits falls back to the R^2 of this sample without a comparison") {
  const std::vector<int> q = {500, 510, 520, -1};
  auto verdict = [&](double p, double log_r2, double power_r2) { return read_fits(fits(80, log_r2, p, power_r2), nullptr, q).verdict; };
  CHECK(verdict(0.05, 0.5, 0.9) == "flat");        // p <= 0.05
  CHECK(verdict(0.2, 0.97, 0.98) == "log");        // small p, log R^2 within 0.02
  CHECK(verdict(0.2, 0.90, 0.98) == "power");      // small p, power better by more than 0.02
  CHECK(verdict(0.5, 0.90, 0.98) == "power");      // sizeable p, power better
  CHECK(verdict(0.5, 0.97, 0.98) == "undecided");  // sizeable p, equally good
  const FitReading r = read_fits(fits(-3, 0.9, 0.2, 0.9), nullptr, q);
  CHECK(r.basis == "sample");
  CHECK(r.usable == 3);
  CHECK(r.lengths == 4);
  CHECK(r.rough);                // 3 usable lengths < 4
  CHECK(r.per_doubling == -2);   // -3 ln 2 = -2.08: rounded half up
  FitComparison none;            // a comparison without resamples is none
  CHECK(read_fits(fits(80, 0.97, 0.2, 0.98), &none, q).basis == "sample");
  SweepFits bad = fits(80, 0.97, 0.2, 0.98);
  bad.power.ok = false;
  const FitReading n = read_fits(bad, nullptr, {500, -1});
  CHECK_FALSE(n.fits_ok);
  CHECK(n.basis == "none");
  CHECK(n.verdict == "none");
  CHECK(n.usable == 1);
  // One length: no fits, but the bootstrap still says there are too few lengths.
  const FitComparison one{1000, 0, 0, 1};
  const FitReading b = read_fits(bad, &one, {500});
  CHECK_FALSE(b.fits_ok);
  CHECK(b.basis == "bootstrap");
  CHECK(b.verdict == "too-few-lengths");
}

TEST_CASE("read_band: the medians of lengths 64 to 1024 against the paper's band") {
  const BandReading r = read_band({16, 64, 128, 256, 2048}, {300, 400, -1, 700, 900}, 300, 600);
  CHECK(r.lengths == 2);  // 64 and 256 (128 not reached; 16 and 2048 outside)
  CHECK(r.first_L == 64);
  CHECK(r.last_L == 256);
  CHECK(r.lo == 400);
  CHECK(r.hi == 700);
  CHECK(r.inside == 1);
  CHECK(read_band({}, {}, 1, 2).lengths == 0);
  CHECK_THROWS_AS(read_band({64}, {}, 1, 2), InvalidArgument);
}
