// The `opt` construction of SPEC §10.1: its logits' twin kernels give the same bits, its X passes
// SPEC §2 re-checked in float64 here (Eigen, not the core's code) with Lambda(X) <= Lambda_max, its
// search's smallest D is a success and the D below it in the chain is not, and its request's
// limits (a budget at or below ln(1/tau)/2, D above kMaxOptD) are refused by name.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include <attnx/construct_opt.hpp>
#include <attnx/construction.hpp>
#include <attnx/errors.hpp>
#include <attnx/rng.hpp>

#include "helpers.hpp"
#include "requests.hpp"

using namespace attnx;

namespace {

CheckedRequest opt_request(int d, double scale, std::uint64_t seed, Purpose purpose = Purpose::Build, int dmax = 64) {
  ConstructionRequest r;
  r.construction = "opt";
  r.d = d;
  r.scale = scale;
  r.seed = seed;
  r.mind.step = 1;
  r.mind.d_max = dmax;
  return check_request(r, purpose);
}

// SPEC §2 and Lambda(X) from X (L x 2D, double) in float64, X rounded to float32 as the core judges it.
struct Recheck {
  th::RefMetrics m;
  double lambda = 0;
};
Recheck recheck(const Pattern& A, const std::vector<double>& X, int D) {
  const int L = A.L;
  th::MatD Q(L, D), K(L, D);
  for (int i = 0; i < L; ++i)
    for (int t = 0; t < D; ++t) {
      Q(i, t) = double(float(X[std::size_t(i) * 2 * D + t]));
      K(i, t) = double(float(X[std::size_t(i) * 2 * D + D + t]));
    }
  const th::MatD Z = Q * K.transpose() / std::sqrt(double(D));
  return {th::ref_metrics(A, Z), Q.rowwise().norm().maxCoeff() * K.rowwise().norm().maxCoeff() / std::sqrt(double(D))};
}

std::vector<float> gaussian(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(rng.normal());
  return v;
}

}  // namespace

TEST_CASE("opt's logits: the vector and the scalar twin give the same bits, and float64 within float error") {
  for (int L : {1, 5, 64, 67}) {
    for (int D : {1, 3, 16}) {
      const std::vector<float> U = gaussian(std::size_t(L) * D, 1), Vt = gaussian(std::size_t(L) * D, 2);
      std::vector<float> a(std::size_t(L) * L), b(a.size());
      opt_logits(U.data(), Vt.data(), L, D, 5.3f, 0, L, a.data(), OptKernel::Vector);
      opt_logits(U.data(), Vt.data(), L, D, 5.3f, 0, L, b.data(), OptKernel::Scalar);
      CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
      for (int i = 0; i < L; ++i)
        for (int j = 0; j < L; ++j) {
          double z = 0, mag = 0;
          for (int t = 0; t < D; ++t) {
            z += double(U[std::size_t(i) * D + t]) * double(Vt[std::size_t(t) * L + j]);
            mag += std::fabs(double(U[std::size_t(i) * D + t]) * double(Vt[std::size_t(t) * L + j]));
          }
          CHECK(std::fabs(a[std::size_t(i) * L + j] - 5.3 * z) <= 5.3 * mag * 1e-6 + 1e-30);
        }
    }
  }
}

TEST_CASE("opt's descent is the same, bit for bit, with either kernel") {
  const Pattern A = th::random_pattern(37, 2, 4);
  const OptTarget t = opt_target(A, Tolerances{});
  OptSettings vs = opt_settings(), ss = opt_settings();
  vs.kernel = OptKernel::Vector, ss.kernel = OptKernel::Scalar;
  OptState a = opt_start(37, 6, 9), b = opt_start(37, 6, 9);
  const OptOutcome oa = opt_descend(t, 5.3, vs, 40, a), ob = opt_descend(t, 5.3, ss, 40, b);
  CHECK(oa.steps == ob.steps);
  CHECK(th::same_bits(oa.penalty, ob.penalty));
  CHECK(std::memcmp(a.U.data(), b.U.data(), a.U.size() * sizeof(float)) == 0);
  CHECK(std::memcmp(a.V.data(), b.V.data(), a.V.size() * sizeof(float)) == 0);
}

TEST_CASE("opt's X passes SPEC §2 re-checked in float64, within its logit-scale budget, as the core says") {
  const Pattern A = th::random_pattern(64, 2, 3);
  for (double scale : {5.3, 16.0}) {
    CAPTURE(scale);
    const CheckedRequest r = opt_request(14, scale, 3);
    const OptConstruction o = construct_opt(A, r, {});
    REQUIRE(o.c.metrics.success);
    std::vector<double> X(o.c.X.begin(), o.c.X.end());
    const Recheck c = recheck(A, X, 14);
    CHECK(c.m.success(1.0, 0.1));
    CHECK(c.lambda <= scale);
    CHECK(o.c.bounds.logit_scale <= scale);
    CHECK(std::fabs(c.m.rho - o.c.metrics.rho) <= 1e-4 * std::max(1.0, c.m.rho));
    CHECK(o.steps > 0);
    // The same request again: the same bits.
    const OptConstruction again = construct_opt(A, r, {});
    CHECK(std::memcmp(again.c.X.data(), o.c.X.data(), o.c.X.size() * sizeof(float)) == 0);
  }
}

TEST_CASE("opt's search: its d_min's X passes in float64, the chain's next D does not, the floor is below") {
  const Pattern A = th::random_pattern(96, 2, 5);
  std::vector<double> X;
  const MinDResult m = min_d_opt(A, opt_request(0 + 1, 5.3, 5, Purpose::Search), {}, &X);
  REQUIRE(m.reached());
  REQUIRE(X.size() == std::size_t(96) * 2 * m.d_min);
  const Recheck c = recheck(A, X, m.d_min);
  CHECK(c.m.success(1.0, 0.1));
  CHECK(c.lambda <= 5.3);
  CHECK(m.bounds.logit_scale <= 5.3);
  CHECK(m.d_min >= std::ceil(m.bounds.d_lambda));  // a proof is a floor under every search
  // The chain ends at the first D below d_min that failed, and every D tried is in checked.
  REQUIRE(!m.checked.empty());
  CHECK(m.checked.back() == m.d_min - 1);
  CHECK(std::find(m.checked.begin(), m.checked.end(), m.d_min) != m.checked.end());
  // The registry's search is this one.
  CHECK(search_min_d(A, opt_request(1, 5.3, 5, Purpose::Search)).d_min == m.d_min);
}

TEST_CASE("opt's request: a budget at the wall or not a number, and D above its limit, are refused by name") {
  auto refusal = [](double scale, int d, Purpose p) {
    try {
      opt_request(d, scale, 1, p, p == Purpose::Search ? d : 64);
    } catch (const InvalidArgument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(refusal(1.1, 8, Purpose::Build).find("budget must be above ln(1/tau)/2 = 1.15129 for construction opt (got 1.1") == 0);
  CHECK(refusal(0, 8, Purpose::Build).find("budget must be a number in (0,") == 0);
  CHECK(refusal(NAN, 8, Purpose::Build).find("budget must be a number in (0,") == 0);
  CHECK(refusal(5.3, kMaxOptD + 1, Purpose::Build).find("d must be an integer from 1 to 128 for construction opt") == 0);
  CHECK(refusal(5.3, kMaxOptD + 1, Purpose::Search).find("dmax must be an integer from 1 to 128 for construction opt") == 0);
  CHECK(refusal(1.2, 8, Purpose::Build) == "accepted");
  try {  // both at once
    opt_request(200, 1.0, 1);
    FAIL("accepted");
  } catch (const InvalidArgument& e) {
    CHECK(e.fields() == std::vector<std::string>{"d", "budget"});
  }
}

TEST_CASE("opt at the wall: a budget near ln(1/tau)/2 is not reached, a result and not a crash") {
  const Pattern A = th::random_pattern(32, 2, 2);
  const MinDResult m = search_min_d(A, opt_request(1, 1.3, 2, Purpose::Search, 4));
  CHECK(!m.reached());
  CHECK(m.d_min == -1);
  CHECK(!m.checked.empty());
}
