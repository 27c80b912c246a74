// SPEC §9's bounds on built inputs: no X that succeeds ever has D below its floors (random X in tiny
// D with targets they succeed on, and every construction at L = 64..1024); the scale of the jl X
// is the same whether read from X, from the ladder's columns or from the min-d search; a sweep
// reports the median over the trials that reached.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "helpers.hpp"
#include "requests.hpp"
#include <attnx/bounds.hpp>
#include <attnx/construction.hpp>
#include <attnx/construct_lp.hpp>
#include <attnx/construct_moment.hpp>
#include <attnx/inputs.hpp>
#include <attnx/memory.hpp>
#include <attnx/rng.hpp>
#include <attnx/sweep.hpp>
#include <attnx/sweep_io.hpp>

namespace {

// Row i's support: its k largest logits, when they stand at least `gap` above the rest (else
// nothing: the row is not used). Uniform weights.
std::vector<std::vector<std::pair<int, double>>> top_k_rows(const std::vector<double>& Z, int L, int k,
                                                            double* gap) {
  std::vector<std::vector<std::pair<int, double>>> rows(L);
  *gap = std::numeric_limits<double>::infinity();
  for (int i = 0; i < L; ++i) {
    std::vector<int> order(L);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return Z[i * L + a] > Z[i * L + b]; });
    *gap = std::min(*gap, Z[i * L + order[k - 1]] - Z[i * L + order[k]]);
    for (int s = 0; s < k; ++s) rows[i].push_back({order[s], 1.0});
  }
  return rows;
}

}  // namespace

TEST_CASE("no random X in D = 1..4 that succeeds on a target has D below either packing floor") {
  attnx::Rng rng(5);
  int checked = 0;
  for (int D = 1; D <= 4; ++D)
    for (int L : {4, 9, 24})
      for (int k : {1, 2})
        for (int trial = 0; trial < 40; ++trial) {
          // X = [Q, K] with Gaussian entries, queries scaled up so that margins appear.
          std::vector<double> X(static_cast<std::size_t>(L) * 2 * D);
          for (double& x : X) x = rng.normal();
          for (int i = 0; i < L; ++i)
            for (int t = 0; t < D; ++t) X[i * 2 * D + t] *= 1 + 20 * rng.uniform();
          const std::vector<float> Xf(X.begin(), X.end());
          std::vector<double> Z(static_cast<std::size_t>(L) * L);
          for (int i = 0; i < L; ++i)
            for (int j = 0; j < L; ++j) {
              double s = 0;
              for (int t = 0; t < D; ++t) s += double(Xf[i * 2 * D + t]) * double(Xf[j * 2 * D + D + t]);
              Z[i * L + j] = s / std::sqrt(double(D));
            }
          double gap = 0;
          const attnx::Pattern A = th::from_rows(L, top_k_rows(Z, L, k, &gap));
          if (!(gap > 1e-6)) continue;
          attnx::Tolerances tol;
          tol.eps = 100;
          tol.tau = std::exp(-0.999 * gap);  // Delta just below the smallest margin: X succeeds
          const attnx::RowReport rows = attnx::evaluate_rows(A, Z.data(), static_cast<const double*>(nullptr), tol);
          REQUIRE(std::all_of(rows.ok_z.begin(), rows.ok_z.end(), [](unsigned char c) { return c; }));
          const attnx::Bounds b = attnx::bounds_of(A, tol.tau, D, attnx::input_scale(Xf.data(), L, D),
                                                   attnx::max_abs(Z.data(), Z.size()));
          CAPTURE(D);
          CAPTURE(L);
          CHECK(b.max_abs_logit <= b.logit_scale * (1 + 1e-12));
          CHECK(b.d_lambda <= b.d_logit + 1e-12);
          CHECK(b.d_logit <= D);
          ++checked;
        }
  CHECK(checked > 200);
}

TEST_CASE("keys on a circle, each row picking its own: D = 2 stays above both floors") {
  for (int L : {6, 16, 64}) {
    std::vector<float> X(static_cast<std::size_t>(L) * 4);
    for (int i = 0; i < L; ++i) {
      const double a = 2 * M_PI * i / L;
      X[i * 4 + 0] = float(30 * std::cos(a)), X[i * 4 + 1] = float(30 * std::sin(a));
      X[i * 4 + 2] = float(std::cos(a)), X[i * 4 + 3] = float(std::sin(a));
    }
    std::vector<std::vector<std::pair<int, double>>> rows(L);
    for (int i = 0; i < L; ++i) rows[i] = {{i, 1.0}};
    const attnx::Pattern A = th::from_rows(L, rows);
    std::vector<double> Z(static_cast<std::size_t>(L) * L);
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j)
        Z[i * L + j] = (double(X[i * 4]) * X[j * 4 + 2] + double(X[i * 4 + 1]) * X[j * 4 + 3]) / std::sqrt(2.0);
    const double margin = 30 * (1 - std::cos(2 * M_PI / L)) / std::sqrt(2.0);
    const attnx::Bounds b = attnx::bounds_of(A, std::exp(-0.99 * margin), 2, attnx::input_scale(X.data(), L, 2),
                                             attnx::max_abs(Z.data(), Z.size()));
    CHECK(b.column_supports == L);
    CHECK(b.logit_scale == doctest::Approx(30 / std::sqrt(2.0)).epsilon(1e-6));
    CHECK(b.d_logit <= 2);
  }
}

TEST_CASE("the jl scale is the same read from X, from the ladder's columns and from the min-d search") {
  const attnx::Tolerances tol;
  for (auto kind : {attnx::ProjectionKind::Gaussian, attnx::ProjectionKind::GaussianUnit,
                    attnx::ProjectionKind::Orthogonal, attnx::ProjectionKind::Rademacher}) {
    const attnx::Pattern A = th::random_pattern(96, 2, 4);
    attnx::MinDOptions opt;
    opt.projection = kind;
    const attnx::MinDResult m = attnx::min_d(A, th::search("jl", tol, opt, 4));
    REQUIRE(m.reached());
    const attnx::Construction with = attnx::construct(A, th::jl(tol, m.d_min, 4, attnx::kDefaultMaxBytes, kind));
    const attnx::Construction without = attnx::construct(A, th::jl(tol, m.d_min, 4, attnx::kDefaultMaxBytes, kind), {nullptr, nullptr, false});
    REQUIRE(with.metrics.success);
    CHECK(with.bounds.logit_scale == attnx::input_scale(with.X.data(), A.L, m.d_min));
    CHECK(without.bounds.logit_scale == with.bounds.logit_scale);  // bit for bit
    CHECK(m.bounds.logit_scale == with.bounds.logit_scale);
    CHECK(without.bounds.max_abs_logit == with.bounds.max_abs_logit);
    CHECK(m.bounds.max_abs_logit == doctest::Approx(with.bounds.max_abs_logit).epsilon(1e-5));  // Gram sums
    CHECK(with.bounds.max_abs_logit == attnx::max_abs(with.logits.data(), with.logits.size()));
  }
}

namespace {

// jl_input_scale reading P's columns (L x d, column-major) where they are, `piece` at a time.
double scale_in_place(const attnx::Pattern& A, const std::vector<double>& B, int d,
                      const attnx::ProjectionScale& scale, const std::vector<float>& P, int piece) {
  std::size_t at = 0;
  return attnx::jl_input_scale(A, B, d, scale, [&](int n, float*) {
    const float* cols = P.data() + at;
    at += static_cast<std::size_t>(A.L) * n;
    return cols;
  }, nullptr, piece);
}

}  // namespace

TEST_CASE("jl_input_scale equals input_scale of X bit for bit whatever the pieces, copied or read in place: eight, four and one columns at a time, rows in pairs and alone") {
  const attnx::Tolerances tol;
  // Rows of 1 .. 4 entries (causal) and odd L (a row left after the pairs: at L = 3 and 5 it is
  // often the largest). Sums of float squares in double are exact unless their sizes differ a
  // lot, so an order changed shows only over many columns (d = 203).
  const attnx::Pattern patterns[] = {th::random_pattern(70, 3, 5), th::pattern_of(attnx::Family::Causal, 71, 4, 5),
                                      th::random_pattern(301, 6, 5), th::random_pattern(3, 3, 5),
                                      th::random_pattern(5, 2, 6)};
  for (auto kind : {attnx::ProjectionKind::Gaussian, attnx::ProjectionKind::GaussianUnit})
    for (const attnx::Pattern& A : patterns)
      for (int d : {1, 3, 4, 9, 33, 45, 203}) {
        const attnx::Construction c = attnx::construct(A, th::jl(tol, d, 5, attnx::kDefaultMaxBytes, kind));
        const double want = attnx::input_scale(c.X.data(), A.L, d);
        std::vector<float> P(static_cast<std::size_t>(A.L) * d);
        attnx::ProjectionStream(kind, A.L, attnx::projection_seed(5)).next(d, P.data());
        const attnx::ProjectionScale scale = attnx::projection_scale_of(kind, P.data(), A.L, d);
        for (int piece : {1, 4, 5, 16}) {
          CAPTURE(d);
          CAPTURE(piece);
          std::vector<float> buf(static_cast<std::size_t>(A.L) * piece);
          std::size_t at = 0;
          const double copied = attnx::jl_input_scale(A, c.B, d, scale, [&](int n, float* out) {
            std::copy(P.begin() + at, P.begin() + at + static_cast<std::size_t>(A.L) * n, out);
            at += static_cast<std::size_t>(A.L) * n;
            return static_cast<const float*>(out);
          }, buf.data(), piece);
          CHECK(copied == want);
          CHECK(scale_in_place(A, c.B, d, scale, P, piece) == want);  // construct's kept columns
        }
      }
}

TEST_CASE("jl_input_scale sums every row's queries as the definition does: each row in turn made the largest") {
  // Lambda reads only the largest row sums; scaling one row's B up makes that row's the largest,
  // so each row's sum (paired rows, the odd last row, every piece) is compared with a scalar
  // reference: K's entries float(raw * row scale), Q's float(sqrt(d) sum_e B_e K) summed in
  // double in entry order, the squares added in column order.
  const attnx::Tolerances tol;
  const attnx::Pattern patterns[] = {th::random_pattern(71, 3, 5), th::pattern_of(attnx::Family::Causal, 70, 4, 8)};
  const int d = 45;
  int bad = 0, runs = 0;
  for (const attnx::Pattern& A : patterns) {
    const std::size_t l = static_cast<std::size_t>(A.L);
    std::vector<float> P(l * d);
    attnx::ProjectionStream(attnx::ProjectionKind::Gaussian, A.L, attnx::projection_seed(5)).next(d, P.data());
    const attnx::ProjectionScale scale = attnx::projection_scale_of(attnx::ProjectionKind::Gaussian, P.data(), A.L, d);
    auto K = [&](int c, int j) { return P[static_cast<std::size_t>(c) * l + j] * scale.row_scale(j); };
    std::vector<double> k2(l, 0.0);
    for (int c = 0; c < d; ++c)
      for (std::size_t j = 0; j < l; ++j) k2[j] += double(K(c, int(j))) * double(K(c, int(j)));
    const std::vector<double> B0 = attnx::log_target(A, tol);
    for (int r = 0; r < A.L; ++r, ++runs) {
      std::vector<double> B = B0;
      for (int e = A.row_begin(r); e < A.row_end(r); ++e) B[e] *= 50.0;
      std::vector<double> q2(l, 0.0);
      for (int c = 0; c < d; ++c)
        for (int i = 0; i < A.L; ++i) {
          double acc = 0.0;
          for (int e = A.row_begin(i); e < A.row_end(i); ++e) acc += B[e] * double(K(c, A.col[e]));
          const float q = static_cast<float>(std::sqrt(double(d)) * acc);
          q2[i] += double(q) * double(q);
        }
      const double want = std::sqrt(*std::max_element(q2.begin(), q2.end())) *
                          std::sqrt(*std::max_element(k2.begin(), k2.end())) / std::sqrt(double(d));
      for (int piece : {1, 4, 5, 16, 45}) {
        if (scale_in_place(A, B, d, scale, P, piece) != want) ++bad;
      }
    }
  }
  CHECK(runs == 141);
  CHECK(bad == 0);
}

TEST_CASE("every construction that succeeds at L = 64..1024 uses at least its floors (real runs)") {
  // jl and lp at their minimal d (lp at L = 1024 once: its search there takes seconds), moment at
  // D = 2m; scripts/bounds-table.mjs checks the same on every trial of its table up to L = 4096.
  const attnx::Tolerances tol;
  int successes = 0;
  for (int L : {64, 256, 1024})
    for (std::uint64_t seed : {1, 2}) {
      const attnx::Pattern A = th::random_pattern(L, 2, seed);
      attnx::MinDOptions lp;
      lp.step = 1;
      lp.d_max = attnx::kMaxLpD;
      std::vector<attnx::MinDResult> runs = {attnx::min_d(A, th::search("jl", tol, attnx::MinDOptions{}, seed))};
      if (L < 1024 || seed == 1) runs.push_back(attnx::min_d_lp(A, th::search("lp", tol, lp, seed), {}));
      for (const attnx::MinDResult& r : runs) {
        REQUIRE(r.reached());
        CAPTURE(L);
        CAPTURE(r.d_min);
        CHECK(r.d_min >= r.bounds.d_lambda);
        CHECK(r.d_min >= r.bounds.d_logit);
        CHECK(r.bounds.d_logit >= r.bounds.d_lambda);
        ++successes;
      }
      if (L == 64) {  // lp's bounds are those of the X construct_lp builds at d_min
        const attnx::LpConstruction c = attnx::construct_lp(A, th::build("lp", tol, runs[1].d_min, seed), {});
        CHECK(c.c.bounds.logit_scale == runs[1].bounds.logit_scale);
      }
      const attnx::MomentConstruction m = attnx::construct_moment(A, tol);
      if (m.c.metrics.success) CHECK(m.c.d >= m.c.bounds.d_logit);
      CHECK(m.c.bounds.logit_scale == attnx::input_scale(m.c.X.data(), L, m.c.d));
    }
  CHECK(successes == 11);
}

TEST_CASE("build_inputs adds w = bits + 1 + exponent bits when it has a precision report") {
  const attnx::Pattern A = th::random_pattern(48, 2, 2);
  attnx::ConstructionRequest r;
  r.construction = "moment";
  const attnx::BuiltInputs m = attnx::build_inputs(A, th::checked(r, attnx::Tolerances{}));
  REQUIRE(m.precision);
  REQUIRE(m.precision->bits > 0);
  CHECK(m.c.bounds.bits_per_number == m.precision->bits + 1 + m.precision->exponent_bits);
  CHECK(m.precision->exponent_bits == attnx::exponent_bits(attnx::moment_inputs(A, attnx::Tolerances{}, &r.d), m.precision->bits));
  r.construction = "jl";
  r.d = 512;
  CHECK(attnx::build_inputs(A, th::checked(r, attnx::Tolerances{})).c.bounds.bits_per_number == 0);  // not computed
  r.precision = true;
  const attnx::BuiltInputs j = attnx::build_inputs(A, th::checked(r, attnx::Tolerances{}));
  CHECK(j.c.bounds.bits_per_number == attnx::bits_per_number(j.precision->bits, j.precision->exponent_bits));
}

TEST_CASE("a sweep reports the median scale of the trials that reached, and the floor there") {
  attnx::SweepOptions o;
  o.Ls = {48};
  o.trials = 5;
  o.seed = 3;
  o.mind.d_max = 640;  // some trials do not reach
  const attnx::SweepPoint p = attnx::sweep_point(o, 48);
  std::vector<double> reached;
  int n = 0;
  for (int t = 0; t < o.trials; ++t) {
    const std::uint64_t s = attnx::trial_seed(o.seed, 48, t);
    attnx::PatternSpec spec;
    spec.L = 48;
    attnx::Rng rng(attnx::pattern_seed(s));
    const attnx::MinDResult r = attnx::min_d(attnx::make_pattern(spec, rng), th::search("jl", o.tol, o.mind, s));
    CHECK(p.logit_scales[t] == (r.reached() ? r.bounds.logit_scale : -1));
    if (!r.reached()) continue;
    reached.push_back(r.bounds.logit_scale);
    n = n == 0 ? r.bounds.column_supports : std::min(n, r.bounds.column_supports);
  }
  REQUIRE(!reached.empty());
  REQUIRE(reached.size() < 5u);
  std::sort(reached.begin(), reached.end());
  const double median = 0.5 * (reached[(reached.size() - 1) / 2] + reached[reached.size() / 2]);
  const attnx::SweepRecordPoint q = attnx::record_point(p, o.tol.tau);
  REQUIRE(q.bounds);
  CHECK(q.bounds->logit_scale == median);
  CHECK(q.bounds->column_supports == n);
  CHECK(q.bounds->d_lambda == attnx::packing_floor(median, n, o.tol.tau));
  CHECK(q.bounds->bits_free_keys == attnx::bits_free_keys(48, 2));
}

TEST_CASE("the min-d search's scale is the same whether it kept the raw columns, dropped them midway or had no room") {
  const attnx::Tolerances tol;
  const attnx::Pattern A = th::random_pattern(512, 2, 9);
  for (auto kind : {attnx::ProjectionKind::Gaussian, attnx::ProjectionKind::OrthogonalUnit}) {
  attnx::MinDOptions opt;
  opt.projection = kind;
  const attnx::MinDResult kept = attnx::min_d(A, th::search("jl", tol, opt, 9));
  REQUIRE(kept.reached());
  const std::uint64_t estimate = attnx::estimate_mind_bytes(A.L, opt.step, A.k, opt.projection);
  // Room for half of d_min's columns (they are dropped at d_min / 2), and none at all.
  for (std::uint64_t room : {4ull * A.L * (kept.d_min / 2), 0ull}) {
    attnx::MinDOptions tight = opt;
    tight.max_bytes = std::max<std::uint64_t>(estimate + room, 1ull << 20);
    REQUIRE(tight.max_bytes - estimate < 4ull * A.L * kept.d_min);
    const attnx::MinDResult r = attnx::min_d(A, th::search("jl", tol, tight, 9));
    CHECK(r.d_min == kept.d_min);
    CHECK(r.bounds.logit_scale == kept.bounds.logit_scale);  // bit for bit
    CHECK(r.bounds.max_abs_logit == kept.bounds.max_abs_logit);
    CHECK(r.bounds.d_lambda == kept.bounds.d_lambda);
  }
  // A keep allowance smaller than d_min's columns (a threaded sweep's share of the budget).
  attnx::MinDOptions shared = opt;
  shared.keep_bytes = 4ull * A.L * (kept.d_min / 3);
  const attnx::MinDResult r = attnx::min_d(A, th::search("jl", tol, shared, 9));
  CHECK(r.bounds.logit_scale == kept.bounds.logit_scale);
  CHECK(r.bounds.max_abs_logit == kept.bounds.max_abs_logit);
  }
}
