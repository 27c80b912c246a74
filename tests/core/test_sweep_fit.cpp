// Issue 12 item 6, fair statistics: the power fit d = c L^p is least squares in d-space (where the
// log fit is), checked against an independent brute-force search over p, against the log-log
// regression it replaced, and through the bootstrap comparison that uses it.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include <attnx/rng.hpp>
#include <attnx/sweep.hpp>
#include <attnx/sweep_io.hpp>

namespace {

// Residual sum of squares of d ~ c L^p with the least-squares c for this p (the test's own code).
double sse_at(const std::vector<double>& L, const std::vector<double>& d, double p, double* c_out = nullptr) {
  double sdx = 0, sxx = 0;
  for (std::size_t i = 0; i < L.size(); ++i) {
    sdx += d[i] * std::pow(L[i], p);
    sxx += std::pow(L[i], 2 * p);
  }
  const double c = sdx / sxx;
  double s = 0;
  for (std::size_t i = 0; i < L.size(); ++i) s += std::pow(d[i] - c * std::pow(L[i], p), 2);
  if (c_out) *c_out = c;
  return s;
}

double sse_of(const std::vector<double>& L, const std::vector<double>& d, double c, double p) {
  double s = 0;
  for (std::size_t i = 0; i < L.size(); ++i) s += std::pow(d[i] - c * std::pow(L[i], p), 2);
  return s;
}

double r2_of(const std::vector<double>& d, double sse) {
  double m = 0, st = 0;
  for (double v : d) m += v / double(d.size());
  for (double v : d) st += (v - m) * (v - m);
  return 1 - sse / st;
}

}  // namespace

TEST_CASE("fit_power on data exactly c L^p recovers c and p, R^2 = 1") {
  const std::vector<double> L = {16, 64, 256, 1024, 4096};
  for (double p : {-0.3, 0.0, 0.37, 1.0, 1.9}) {
    std::vector<double> d;
    for (double l : L) d.push_back(7.25 * std::pow(l, p));
    const attnx::PowerFit f = attnx::fit_power(L, d);
    REQUIRE(f.ok);
    CHECK(f.p == doctest::Approx(p).epsilon(1e-7).scale(1));
    CHECK(f.c == doctest::Approx(7.25).epsilon(1e-6));
    CHECK(f.r2 == doctest::Approx(1.0).epsilon(1e-10));
  }
}

TEST_CASE("data exactly a + b ln L: the log fit has R^2 = 1, the power fit less") {
  const std::vector<double> L = {64, 128, 256, 512, 1024, 2048};
  std::vector<double> d;
  for (double l : L) d.push_back(-300 + 150 * std::log(l));
  const attnx::LogFit lf = attnx::fit_log(L, d);
  const attnx::PowerFit pf = attnx::fit_power(L, d);
  REQUIRE(lf.ok);
  REQUIRE(pf.ok);
  CHECK(lf.r2 == doctest::Approx(1.0).epsilon(1e-12));
  CHECK(pf.r2 < 1 - 1e-6);
  CHECK(pf.r2 == doctest::Approx(r2_of(d, sse_of(L, d, pf.c, pf.p))).epsilon(1e-12));
}

TEST_CASE("fit_power is the least-squares optimum of a brute-force grid over p, never worse than log-log") {
  const std::vector<double> L = {64, 128, 256, 512, 1024, 2048};
  const std::vector<std::vector<double>> sets = {
      {688, 944, 944, 1120, 1200, 1280}, {176, 192, 192, 224, 224, 1664}, {624, 592, 528, 752, 736, 688},
      {900, 700, 650, 600, 580, 560}};
  for (const auto& d : sets) {
    double best_p = 0, best = INFINITY;
    for (int k = -40000; k <= 40000; ++k) {  // p in [-4, 4] step 1e-4
      const double s = sse_at(L, d, k * 1e-4);
      if (s < best) best = s, best_p = k * 1e-4;
    }
    const attnx::PowerFit f = attnx::fit_power(L, d);
    REQUIRE(f.ok);
    const double mine = sse_of(L, d, f.c, f.p);
    CHECK(mine <= best * (1 + 1e-9));
    CHECK(std::fabs(f.p - best_p) < 2e-4);
    CHECK(f.r2 == doctest::Approx(r2_of(d, mine)).epsilon(1e-12));
    // The log-log regression's curve, scored in d-space: the d-space fit is at least as good.
    double mx = 0, my = 0, sxx = 0, sxy = 0;
    for (std::size_t i = 0; i < L.size(); ++i) mx += std::log(L[i]) / L.size(), my += std::log(d[i]) / L.size();
    for (std::size_t i = 0; i < L.size(); ++i) {
      sxx += std::pow(std::log(L[i]) - mx, 2);
      sxy += (std::log(L[i]) - mx) * (std::log(d[i]) - my);
    }
    const double p_ll = sxy / sxx, c_ll = std::exp(my - p_ll * mx);
    CHECK(f.r2 >= r2_of(d, sse_of(L, d, c_ll, p_ll)));
  }
}

TEST_CASE("compare_fits scores the d-space power fit: a case the log-log fit would have lost") {
  // Quantiles 176, 192, 192, 224, 224, 1664 (L = 64 .. 2048): log fit R^2 = 0.459; the log-log
  // power curve scores 0.396 in d-space, the d-space power fit 0.924 (p = 2.41). Every trial of a
  // length is the same, so every resample is the data: power must win all of them.
  const std::vector<int> L = {64, 128, 256, 512, 1024, 2048};
  const std::vector<int> q = {176, 192, 192, 224, 224, 1664};
  std::vector<attnx::SweepRecordPoint> pts;
  for (std::size_t i = 0; i < L.size(); ++i) {
    attnx::SweepRecordPoint p;
    p.L = L[i];
    p.d_mins.assign(10, q[i]);
    pts.push_back(p);
  }
  const attnx::SweepFits f = attnx::fit_points([&] {
    auto s = pts;
    attnx::summarise_points(s, 0.1);
    return s;
  }());
  CHECK(f.log.r2 == doctest::Approx(0.4586317994).epsilon(1e-8));
  CHECK(f.power.r2 == doctest::Approx(0.9244728337).epsilon(1e-6));
  const attnx::FitComparison c = attnx::compare_fits(pts, 0.1, 50, 1);
  CHECK(c.power_wins == 50);
  CHECK(c.log_wins == 0);
  CHECK(std::string(attnx::fit_verdict(c)) == "power");
}

TEST_CASE("fit_power refuses one distinct length and non-positive d") {
  CHECK_FALSE(attnx::fit_power({128, 128}, {200, 300}).ok);
  CHECK_FALSE(attnx::fit_power({64, 128}, {0, 300}).ok);
  CHECK(attnx::fit_power({64, 128}, {100, 100}).p == doctest::Approx(0.0).scale(1));
  CHECK(attnx::fit_power({64, 128}, {100, 100}).r2 == 1.0);
}

TEST_CASE("fit_power with a shared grid cache gives the fits it gives without one, bit for bit") {
  attnx::PowerGridCache cache;
  attnx::Rng rng(3);
  const std::vector<std::vector<double>> length_sets = {{64, 128, 256, 512}, {16, 32}, {100, 300, 900}, {64, 128, 256, 512}};
  int fits = 0;
  for (int n = 0; n < 400; ++n) {
    const std::vector<double>& L = length_sets[n % length_sets.size()];
    std::vector<double> d;
    for (double l : L) d.push_back(std::floor(200 + 80 * std::log(l) + 300 * rng.uniform()));
    const attnx::PowerFit with = attnx::fit_power(L, d, &cache), without = attnx::fit_power(L, d);
    REQUIRE(with.ok == without.ok);
    CHECK(with.p == without.p);
    CHECK(with.c == without.c);
    CHECK(with.r2 == without.r2);
    fits += with.ok;
  }
  CHECK(fits == 400);
  CHECK(cache.powers.size() == 3u);  // one table per distinct set of lengths
}

TEST_CASE("fit_power gives the bits it gave before its grid's powers were shared") {
  // p, c and R^2 recorded (as hexadecimal floats) with the build before PowerGridCache.
  struct Case { std::vector<double> L, d; double p, c, r2; };
  const std::vector<Case> cases = {
      {{64, 128, 256, 512}, {656, 752, 936, 976}, 0x1.906c90c92230ep-3, 0x1.2905635b6c1e3p+8, 0x1.dd99bb753021fp-1},
      {{16, 32}, {300, 420}, 0x1.f113baed3d279p-2, 0x1.385eae3875e62p+6, 0x1p+0},
      {{100, 300, 900}, {500, 610, 700}, 0x1.33411cc184dabp-3, 0x1.fc3d75fa285dbp+7, 0x1.fa59faed35198p-1}};
  attnx::PowerGridCache cache;
  for (const Case& k : cases)
    for (attnx::PowerGridCache* c : {static_cast<attnx::PowerGridCache*>(nullptr), &cache}) {
      const attnx::PowerFit f = attnx::fit_power(k.L, k.d, c);
      CHECK(f.p == k.p);
      CHECK(f.c == k.c);
      CHECK(f.r2 == k.r2);
    }
}
