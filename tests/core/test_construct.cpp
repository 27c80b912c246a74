// The construction of SPEC §3: B, P, X, logits and M, recomputed in float64.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/detmath.hpp>
#include <attnx/pattern.hpp>
#include <attnx/rng.hpp>
#include "helpers.hpp"
#include "requests.hpp"
#include <attnx/memory.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/bounds.hpp>
#include <algorithm>

using attnx::Pattern;
using attnx::PatternSpec;
using th::MatD;

namespace {

Pattern make(attnx::Family f, int L, int k, attnx::Weights w, std::uint64_t seed) {
  PatternSpec s;
  s.family = f;
  s.L = L;
  s.k = k;
  s.w = 2;
  s.weights = w;
  s.w_min = 0.2;
  s.decay = 1.5;
  attnx::Rng rng(seed);
  return attnx::make_pattern(s, rng);
}

// X = [left | right], L x 2d row-major float -> (left, right) as double.
void split_X(const attnx::Construction& c, MatD& left, MatD& right) {
  const int L = c.L, d = c.d;
  REQUIRE(c.X.size() == static_cast<size_t>(L) * 2 * d);
  left.resize(L, d);
  right.resize(L, d);
  for (int i = 0; i < L; ++i)
    for (int j = 0; j < d; ++j) {
      left(i, j) = c.X[(size_t)i * 2 * d + j];
      right(i, j) = c.X[(size_t)i * 2 * d + d + j];
    }
}

}  // namespace

TEST_CASE("log_target is ln(A_ij/a_i) + ln(1/tau) + eps on the support, beta and d_star follow SPEC 3.5") {
  attnx::Tolerances tol;
  tol.eps = 0.7;
  tol.tau = 0.05;
  tol.delta = 0.2;
  Pattern A = make(attnx::Family::Window, 30, 2, attnx::Weights::Random, 3);
  auto B = attnx::log_target(A, tol);
  auto R = th::ref_log_target(A, tol.eps, tol.tau);
  REQUIRE(B.size() == R.size());
  double worst = 0, beta = 0;
  for (size_t p = 0; p < B.size(); ++p) worst = std::max(worst, std::fabs(B[p] - R[p]));
  CHECK(worst < 1e-13);
  // The smallest weight of each row gets exactly ln(1/tau) + eps.
  for (int i = 0; i < A.L; ++i) {
    double mn = 1e300, nrm2 = 0;
    for (int p = A.row_begin(i); p < A.row_end(i); ++p) {
      mn = std::min(mn, B[p]);
      nrm2 += R[p] * R[p];
    }
    CHECK(mn == doctest::Approx(std::log(20.0) + 0.7).epsilon(1e-13));
    beta = std::max(beta, std::sqrt(nrm2));
  }
  CHECK(attnx::beta_of(A, B) == doctest::Approx(beta).epsilon(1e-13));
  double ds = 16 * beta * beta * std::log(2.0 * 30 * 30 / 0.2) / (0.7 * 0.7);
  CHECK(attnx::d_star(beta, 30, tol) == doctest::Approx(ds).epsilon(1e-12));
  // Hand-computed: uniform k=2 row, eps=1, tau=0.1 -> B = ln 10 + 1 on both entries, beta = sqrt(2)(ln10+1).
  attnx::Tolerances t2;
  Pattern U = th::from_rows(2, {{{0, 1}, {1, 1}}, {{1, 1}}});
  auto BU = attnx::log_target(U, t2);
  CHECK(BU[0] == doctest::Approx(std::log(10.0) + 1).epsilon(1e-14));
  CHECK(BU[1] == doctest::Approx(std::log(10.0) + 1).epsilon(1e-14));
  CHECK(attnx::beta_of(U, BU) == doctest::Approx(std::sqrt(2.0) * (std::log(10.0) + 1)).epsilon(1e-14));
}

TEST_CASE("projection_seed and pattern_seed are the documented derived streams") {
  for (std::uint64_t s : {0ull, 1ull, 123456789ull}) {
    CHECK(attnx::projection_seed(s) == attnx::derive_seed(s, attnx::kProjectionStream, 0));
    CHECK(attnx::pattern_seed(s) == attnx::derive_seed(s, attnx::kPatternStream, 0));
    CHECK(attnx::projection_seed(s) != attnx::pattern_seed(s));
  }
}

TEST_CASE("draw_projection_columns is nested: fewer columns are a prefix of more columns") {
  const int L = 37;  // odd: a Box-Muller/polar pair straddles column boundaries
  std::vector<float> a((size_t)L * 3), b((size_t)L * 10);
  attnx::Rng r1(attnx::projection_seed(8)), r2(attnx::projection_seed(8));
  attnx::draw_projection_columns(r1, L, 3, a.data());
  attnx::draw_projection_columns(r2, L, 10, b.data());
  for (size_t i = 0; i < a.size(); ++i) REQUIRE(a[i] == b[i]);
  // Unit variance entries.
  std::vector<float> big((size_t)500 * 200);
  attnx::Rng r3(5);
  attnx::draw_projection_columns(r3, 500, 200, big.data());
  double s = 0, s2 = 0;
  for (float v : big) {
    s += v;
    s2 += (double)v * v;
  }
  double n = (double)big.size(), mean = s / n;
  CHECK(std::fabs(mean) < 0.01);
  CHECK(std::fabs(s2 / n - mean * mean - 1) < 0.02);
}

TEST_CASE("a projection drawn step columns at a time (as min_d does) equals one drawn all at once (as construct does)") {
  struct C { int L, step, chunks; };
  for (C c : {C{32, 16, 6}, C{48, 4, 30}, C{20, 1, 50}, C{100, 16, 4}, C{37, 3, 9}, C{1000, 7, 3}}) {
    CAPTURE(c.L);
    CAPTURE(c.step);
    const int d = c.step * c.chunks;
    std::vector<float> once((size_t)c.L * d), pieces((size_t)c.L * d);
    attnx::Rng r1(attnx::projection_seed(21)), r2(attnx::projection_seed(21));
    attnx::draw_projection_columns(r1, c.L, d, once.data());
    for (int k = 0; k < c.chunks; ++k)
      attnx::draw_projection_columns(r2, c.L, c.step, pieces.data() + (size_t)k * c.step * c.L);
    size_t first_diff = once.size();
    for (size_t i = 0; i < once.size(); ++i)
      if (std::memcmp(&once[i], &pieces[i], sizeof(float)) != 0) {
        first_diff = i;
        break;
      }
    CAPTURE(first_diff);
    CHECK(first_diff == once.size());
  }
}

TEST_CASE("draw_projection_columns entries follow the standard normal CDF, including the tails") {
  const int L = 1000, n = 1500;
  std::vector<float> buf((size_t)L * n);
  attnx::Rng r(attnx::projection_seed(2));
  attnx::draw_projection_columns(r, L, n, buf.data());
  th::check_standard_normal(std::vector<double>(buf.begin(), buf.end()));
}

TEST_CASE("construct: right half of X is the seeded projection scaled by 1/sqrt(d)") {
  const int L = 48, d = 20;
  Pattern A = make(attnx::Family::Random, L, 2, attnx::Weights::Uniform, 1);
  attnx::Tolerances tol;
  auto c = attnx::construct(A, th::jl(tol, d, 77, attnx::kDefaultMaxBytes));
  CHECK(c.L == L);
  CHECK(c.d == d);
  std::vector<float> unit((size_t)L * d);
  attnx::Rng r(attnx::projection_seed(77));
  attnx::draw_projection_columns(r, L, d, unit.data());
  MatD left, right;
  split_X(c, left, right);
  double worst = 0;
  for (int i = 0; i < L; ++i)
    for (int j = 0; j < d; ++j) {
      double expect = unit[(size_t)j * L + i] / std::sqrt((double)d);
      worst = std::max(worst, std::fabs(right(i, j) - expect) / (std::fabs(expect) + 1e-30));
    }
  CHECK(worst < 2e-7);
}

TEST_CASE("construct: left half of X equals sqrt(d) B P and logits equal B P P^T (float64 recomputation)") {
  struct C { attnx::Family f; int L, k; attnx::Weights w; int d; std::uint64_t seed; };
  for (C c : {C{attnx::Family::Random, 64, 2, attnx::Weights::Uniform, 32, 1},
              C{attnx::Family::Window, 50, 2, attnx::Weights::Random, 100, 2},
              C{attnx::Family::Causal, 33, 2, attnx::Weights::Decaying, 7, 3},
              C{attnx::Family::BigBird, 40, 2, attnx::Weights::Uniform, 64, 4},
              C{attnx::Family::Random, 128, 3, attnx::Weights::Random, 1, 5}}) {
    CAPTURE(c.L);
    CAPTURE(c.d);
    Pattern A = make(c.f, c.L, c.k, c.w, c.seed);
    attnx::Tolerances tol;
    tol.eps = 0.5;
    tol.tau = 0.2;
    auto con = attnx::construct(A, th::jl(tol, c.d, c.seed * 31, attnx::kDefaultMaxBytes));
    // B is the log-target.
    auto Bref = th::ref_log_target(A, tol.eps, tol.tau);
    REQUIRE(con.B.size() == Bref.size());
    for (size_t p = 0; p < Bref.size(); ++p) REQUIRE(con.B[p] == doctest::Approx(Bref[p]).epsilon(1e-12));
    MatD left, right;
    split_X(con, left, right);
    MatD Bd = th::dense_B(A, Bref);
    MatD BP = std::sqrt((double)c.d) * Bd * right;
    double scaleBP = BP.cwiseAbs().maxCoeff();
    CHECK((left - BP).cwiseAbs().maxCoeff() <= 1e-5 * scaleBP);
    // Z = B P P^T
    MatD Z = Bd * right * right.transpose();
    REQUIRE(con.logits.size() == (size_t)c.L * c.L);
    MatD Zc = th::to_double(con.logits.data(), c.L, c.L);
    double scale = Z.cwiseAbs().maxCoeff();
    CHECK((Zc - Z).cwiseAbs().maxCoeff() <= 1e-4 * scale);
    // and equals (X W_Q)(X W_K)^T / sqrt(d) computed from X itself
    MatD Zx = left * right.transpose() / std::sqrt((double)c.d);
    CHECK((Zc - Zx).cwiseAbs().maxCoeff() <= 1e-4 * scale);
  }
}

TEST_CASE("construct: M rows sum to 1 and equal a float64 stable softmax of the logits") {
  Pattern A = make(attnx::Family::Random, 96, 2, attnx::Weights::Random, 9);
  attnx::Tolerances tol;
  auto c = attnx::construct(A, th::jl(tol, 48, 5, attnx::kDefaultMaxBytes));
  const int L = 96;
  REQUIRE(c.M.size() == (size_t)L * L);
  MatD Z = th::to_double(c.logits.data(), L, L);
  double worst = 0, worst_sum = 0;
  for (int i = 0; i < L; ++i) {
    double mx = Z.row(i).maxCoeff(), tot = 0, sumM = 0;
    for (int j = 0; j < L; ++j) tot += std::exp(Z(i, j) - mx);
    for (int j = 0; j < L; ++j) {
      double ref = std::exp(Z(i, j) - mx) / tot;
      worst = std::max(worst, std::fabs(ref - c.M[(size_t)i * L + j]));
      sumM += c.M[(size_t)i * L + j];
      REQUIRE(c.M[(size_t)i * L + j] >= 0.0f);
    }
    worst_sum = std::max(worst_sum, std::fabs(sumM - 1));
  }
  CHECK(worst < 1e-6);
  CHECK(worst_sum < 1e-5);
}

TEST_CASE("the leaked mass is a share: at most 1 when a row's whole float32 mass is off its support") {
  // eps = 100 puts the support's logits far up; d = 2 scatters them, so some row puts its whole
  // mass off the support, and its float32 entries summed in double came to 1.0000000521.
  Pattern A = make(attnx::Family::Random, 1024, 2, attnx::Weights::Uniform, 1);
  attnx::Tolerances tol;
  tol.eps = 100;
  const auto c = attnx::construct(A, th::jl(tol, 2, 1, attnx::kDefaultMaxBytes));
  CHECK(c.metrics.lambda <= 1.0);
  CHECK(c.metrics.lambda > 0.999);
}

TEST_CASE("softmax_rows is stable for huge logits and matches float64") {
  const int L = 3;
  std::vector<float> Z = {1000.f, 999.f, -1000.f,  //
                          -50.f, -50.f, -50.f,    //
                          88.f, 0.f, 100.f};
  std::vector<float> M(9, -1.f);
  attnx::softmax_rows(Z.data(), M.data(), L);
  for (int i = 0; i < L; ++i) {
    double mx = std::max({(double)Z[i * 3], (double)Z[i * 3 + 1], (double)Z[i * 3 + 2]}), tot = 0;
    for (int j = 0; j < 3; ++j) tot += std::exp(Z[i * 3 + j] - mx);
    for (int j = 0; j < 3; ++j) {
      REQUIRE(std::isfinite(M[i * 3 + j]));
      CHECK(M[i * 3 + j] == doctest::Approx(std::exp(Z[i * 3 + j] - mx) / tot).epsilon(1e-6));
    }
  }
  CHECK(M[3] == doctest::Approx(1.0 / 3).epsilon(1e-6));
}

TEST_CASE("construct: the first d' projection columns of a larger d equal the d' projection up to the 1/sqrt(d) scaling") {
  const int L = 41;
  Pattern A = make(attnx::Family::Window, L, 2, attnx::Weights::Uniform, 1);
  attnx::Tolerances tol;
  auto small = attnx::construct(A, th::jl(tol, 5, 1234, attnx::kDefaultMaxBytes));
  auto big = attnx::construct(A, th::jl(tol, 24, 1234, attnx::kDefaultMaxBytes));
  MatD ls, rs, lb, rb;
  split_X(small, ls, rs);
  split_X(big, lb, rb);
  MatD a = rs * std::sqrt(5.0), b = rb.leftCols(5) * std::sqrt(24.0);
  double worst = ((a - b).cwiseAbs().array() / (a.cwiseAbs().array() + 1e-30)).maxCoeff();
  CHECK(worst < 3e-7);
  // The projection is not degenerate (different columns differ).
  CHECK((rb.col(0) - rb.col(1)).norm() > 0.1);
}

TEST_CASE("construct: projection entries have mean 0 and variance 1/d") {
  const int L = 256, d = 64;
  Pattern A = make(attnx::Family::Permutation, L, 1, attnx::Weights::Uniform, 1);
  auto c = attnx::construct(A, th::jl(attnx::Tolerances{}, d, 3, attnx::kDefaultMaxBytes));
  MatD left, right;
  split_X(c, left, right);
  double n = (double)L * d, mean = right.sum() / n;
  double var = (right.array() - mean).square().sum() / n;
  CHECK(std::fabs(mean) < 0.03 / std::sqrt((double)d));
  CHECK(var * d == doctest::Approx(1.0).epsilon(0.05));
}

TEST_CASE("construct: reported beta and d_star match the log-target") {
  Pattern A = make(attnx::Family::Random, 64, 3, attnx::Weights::Random, 2);
  attnx::Tolerances tol;
  tol.eps = 1.3;
  tol.tau = 0.02;
  tol.delta = 0.05;
  auto c = attnx::construct(A, th::jl(tol, 16, 1, attnx::kDefaultMaxBytes));
  auto B = th::ref_log_target(A, tol.eps, tol.tau);
  double beta = 0;
  for (int i = 0; i < A.L; ++i) {
    double s = 0;
    for (int p = A.row_begin(i); p < A.row_end(i); ++p) s += B[p] * B[p];
    beta = std::max(beta, std::sqrt(s));
  }
  CHECK(c.metrics.beta == doctest::Approx(beta).epsilon(1e-12));
  CHECK(c.metrics.d_star ==
        doctest::Approx(16 * beta * beta * std::log(2.0 * 64 * 64 / 0.05) / (1.3 * 1.3)).epsilon(1e-12));
}

TEST_CASE("memory estimates cover the dense L x L float arrays they allocate") {
  for (int L : {2, 100, 1024, 16384}) {
    CAPTURE(L);
    std::uint64_t LL = (std::uint64_t)L * L;
    // logits and M are L x L floats each.
    CHECK(attnx::estimate_construct_bytes(L, 16) >= 2 * LL * 4);
    // the Gram matrix is L x L floats.
    CHECK(attnx::estimate_mind_bytes(L, 16, 2) >= LL * 4);
    CHECK(attnx::estimate_construct_bytes(L, 512) >= attnx::estimate_construct_bytes(L, 16));
  }
}

TEST_CASE("construct reports monotone progress ending at 1, and the result does not depend on it") {
  const int L = 300, d = 64;
  Pattern A = make(attnx::Family::Random, L, 2, attnx::Weights::Uniform, 5);
  attnx::Tolerances tol;
  std::vector<double> seen;
  auto with = attnx::construct(A, th::jl(tol, d, 9, attnx::kDefaultMaxBytes), {[&](double f) {
    seen.push_back(f);
    return true;
  }});
  auto without = attnx::construct(A, th::jl(tol, d, 9, attnx::kDefaultMaxBytes));
  REQUIRE(seen.size() >= 3);
  for (std::size_t n = 1; n < seen.size(); ++n) CHECK(seen[n] >= seen[n - 1]);
  CHECK(seen.front() > 0.0);
  CHECK(seen.back() == 1.0);
  CHECK(std::memcmp(with.logits.data(), without.logits.data(), with.logits.size() * 4) == 0);
  CHECK(with.metrics.rho == without.metrics.rho);
}

TEST_CASE("evaluate_rows in float equals its one-by-one definition bit for bit: leaked mass in column order, largest logit off the support, NaN and infinities, every tail") {
  const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f};
  attnx::Tolerances tol;
  attnx::Rng rng(13);
  auto bits = [](double x) {
    std::uint64_t u;
    std::memcpy(&u, &x, sizeof u);
    return std::isnan(x) ? 0x7ff8000000000000ull : u;
  };
  int bad = 0, rows = 0;
  for (int it = 0; it < 120; ++it) {
    const int L = 2 + (it * 5) % 37, k = std::min(L, 1 + it % 4);
    // Uneven (causal) or k entries per row; every row full now and then (nothing off the support).
    const attnx::Pattern A = th::pattern_of(it % 3 == 0 ? attnx::Family::Causal : attnx::Family::Random, L,
                                            it % 7 == 0 ? L : k, it);
    std::vector<float> Z(static_cast<std::size_t>(L) * L), M(Z.size());
    for (std::size_t q = 0; q < Z.size(); ++q) {
      const std::uint64_t r = rng.next();
      Z[q] = it % 4 == 0 && r % 6 == 0 ? specials[(r >> 8) % 5] : static_cast<float>(rng.normal() * 20.0);
      M[q] = static_cast<float>(std::exp(-40.0 * rng.uniform()));  // sizes far apart: order shows
    }
    const attnx::RowReport got = attnx::evaluate_rows(A, Z.data(), M.data(), tol);
    for (int i = 0; i < L; ++i, ++rows) {  // the definition: walk the row, skip the support
      const float* z = Z.data() + static_cast<std::size_t>(i) * L;
      const float* m = M.data() + static_cast<std::size_t>(i) * L;
      double off_max = -INFINITY, leak = 0, zmin = INFINITY, rmax = -INFINITY, rmin = INFINITY;
      bool finite = true;
      for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
        const double v = double(z[A.col[e]]) - attnx::det_log(A.val[e]);
        finite = finite && std::isfinite(v);
        rmax = std::max(rmax, v), rmin = std::min(rmin, v), zmin = std::min(zmin, double(z[A.col[e]]));
      }
      for (int j = 0, e = A.row_begin(i); j < L; ++j) {
        if (e < A.row_end(i) && A.col[e] == j) {
          ++e;
          continue;
        }
        off_max = std::max(off_max, double(z[j]));
        finite = finite && std::isfinite(z[j]);
        leak += m[j];
      }
      leak = std::min(leak, 1.0);  // a share of the row's mass: at most 1
      const double zeta = finite ? std::exp(off_max - zmin) : NAN, rho = finite ? rmax - rmin : NAN;
      if (bits(got.lambda[i]) != bits(leak) || bits(got.zeta[i]) != bits(zeta) || bits(got.rho[i]) != bits(rho)) ++bad;
    }
  }
  CHECK(rows > 1500);
  CHECK(bad == 0);
}

TEST_CASE("construct's logits, attention, row report and max |Z| equal logits_from_gram, softmax_rows, evaluate_rows and max_abs one after the other") {
  long passed = 0, failed = 0;
  for (int L : {5, 6, 7, 64, 77}) {  // four rows at a time: every tail
    for (attnx::ProjectionKind kind : {attnx::ProjectionKind::Gaussian, attnx::ProjectionKind::OrthogonalUnit}) {
      CAPTURE(L);
      CAPTURE(static_cast<int>(kind));
      const attnx::Pattern A = th::random_pattern(L, std::min(3, L), 4);
      attnx::Tolerances tol;
      tol.eps = 0.3;  // some rows pass, some fail
      const int d = 37;
      attnx::GramLadder ladder;
      const attnx::Construction c = attnx::construct(A, th::jl(tol, d, 6, attnx::kDefaultMaxBytes, kind), {nullptr, &ladder, false});
      REQUIRE(ladder.prepare(L, attnx::projection_seed(6), d, nullptr, kind));
      const std::size_t ll = static_cast<std::size_t>(L) * L;
      std::vector<float> Z(ll), M(ll);
      attnx::logits_from_gram(A, c.B, ladder.gram(), attnx::projection_scale_of(kind, ladder.columns(), L, d), Z.data());
      attnx::softmax_rows(Z.data(), M.data(), L);
      const attnx::RowReport r = attnx::evaluate_rows(A, Z.data(), M.data(), tol);
      CHECK(std::memcmp(c.logits.data(), Z.data(), ll * sizeof(float)) == 0);
      CHECK(std::memcmp(c.M.data(), M.data(), ll * sizeof(float)) == 0);
      CHECK(c.rows.rho == r.rho);
      CHECK(c.rows.zeta == r.zeta);
      CHECK(c.rows.lambda == r.lambda);
      CHECK(c.rows.ok_r == r.ok_r);
      CHECK(c.rows.ok_z == r.ok_z);
      CHECK(c.rows.support_min_logit == r.support_min_logit);
      CHECK(c.rows.ratio_err_mean == r.ratio_err_mean);
      CHECK(c.rows.ratio_err_min == r.ratio_err_min);
      CHECK(c.bounds.max_abs_logit == attnx::max_abs(Z.data(), ll));
      passed += std::count(r.ok_r.begin(), r.ok_r.end(), 1);
      failed += std::count(r.ok_r.begin(), r.ok_r.end(), 0);
    }
  }
  CHECK(passed > 0);  // rows of both verdicts compared
  CHECK(failed > 0);
}
