#include <attnx/construct.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include <attnx/detmath.hpp>
#include <attnx/errors.hpp>
#include <attnx/expf.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/memory.hpp>
#include <attnx/schema.hpp>

#include "base/vec4.hpp"

namespace attnx {

void validate(const Tolerances& tol) {
  require_option("eps", tol.eps);
  require_option("tau", tol.tau);
  require_option("delta", tol.delta);
}

std::uint64_t pattern_seed(std::uint64_t seed) { return derive_seed(seed, kPatternStream, 0); }
std::uint64_t projection_seed(std::uint64_t seed) { return derive_seed(seed, kProjectionStream, 0); }

std::vector<double> log_target(const Pattern& A, const Tolerances& tol) {
  std::vector<double> B(A.val.size());
  const double base = -det_log(tol.tau) + tol.eps;  // ln(1/tau) + eps
  for (int i = 0; i < A.L; ++i) {
    double a_min = std::numeric_limits<double>::infinity();
    for (int e = A.row_begin(i); e < A.row_end(i); ++e) a_min = std::min(a_min, A.val[e]);
    for (int e = A.row_begin(i); e < A.row_end(i); ++e)
      B[e] = det_log(A.val[e] / a_min) + base;
  }
  return B;
}

double beta_of(const Pattern& A, const std::vector<double>& B) {
  double beta2 = 0;
  for (int i = 0; i < A.L; ++i) {
    double s = 0;
    for (int e = A.row_begin(i); e < A.row_end(i); ++e) s += B[e] * B[e];
    beta2 = std::max(beta2, s);
  }
  return std::sqrt(beta2);
}

double d_star(double beta, int L, const Tolerances& tol) {
  // ln(2 L^2) - ln(delta): finite for every delta in (0, 1), even subnormal ones (2 L^2 / delta
  // would overflow to infinity for delta = 1e-320).
  const double log_term = det_log(2.0 * double(L) * double(L)) - det_log(tol.delta);
  return 16.0 * beta * beta * log_term / (tol.eps * tol.eps);
}

void draw_projection_columns(Rng& rng, int L, int ncols, float* out) {
  // One word of `rng` seeds each column's own generator: the values depend only on the column
  // index, never on how the columns are split between calls (min-d draws `step` at a time).
  for (int c = 0; c < ncols; ++c)
    draw_raw_column(ProjectionKind::Gaussian, rng.next(), L, c, nullptr,
                    out + static_cast<std::size_t>(c) * L);
}

namespace {

// The largest of z[0..n) as std::max_element finds it (an entry replaces the largest so far only
// when greater: NaN is skipped unless z[0] is NaN, then the result is NaN), in four chains of four
// lanes.
// Of equal +0 and -0 either may come back: z - mx then differs at most in the sign of a zero, and
// e^(+0) = e^(-0) = 1, so the softmax is the same for both.
float row_max(const float* z, std::size_t n) {
  using namespace vec;
  F4 acc[4] = {splat4(z[0]), splat4(z[0]), splat4(z[0]), splat4(z[0])};  // four chains
  std::size_t j = 0;
  for (; j + 16 <= n; j += 16)
    for (std::size_t q = 0; q < 4; ++q) {
      const F4 x = load4(z + j + 4 * q);
      acc[q] = select(x > acc[q], x, acc[q]);
    }
  for (; j + 4 <= n; j += 4) {
    const F4 x = load4(z + j);
    acc[0] = select(x > acc[0], x, acc[0]);
  }
  float mx = acc[0][0];
  for (int q = 0; q < 4; ++q)
    for (int lane = 0; lane < 4; ++lane) mx = acc[q][lane] > mx ? acc[q][lane] : mx;
  for (; j < n; ++j) mx = z[j] > mx ? z[j] : mx;
  return mx;
}

// Row z's e^(z_j - max z) in m.
void exp_row(const float* z, float* m, std::size_t l) {
  const float mx = row_max(z, l);
  for (std::size_t j = 0; j < l; ++j) m[j] = z[j] - mx;
  expf_inplace(m, l);  // std::exp(float) of the WebAssembly build, bit for bit (expf.hpp)
}

// sum[r] = the sum of rows[r][0..n) in double, added in order j = 0, 1, ... as `s += x` adds
// them, for four rows at once: each row's sum is one lane of two vectors, so the four chains of
// dependent additions run side by side.
void row_sums4(const float* const rows[4], std::size_t n, double sum[4]) {
  using namespace vec;
  D2 s01 = {0.0, 0.0}, s23 = {0.0, 0.0};
  std::size_t j = 0;
  for (; j + 4 <= n; j += 4) {
    F4 r[4] = {load4(rows[0] + j), load4(rows[1] + j), load4(rows[2] + j), load4(rows[3] + j)};
    transpose4(r);  // r[q]: entry j + q of each row
    for (std::size_t q = 0; q < 4; ++q) {
      s01 = s01 + widen_lo(r[q]);
      s23 = s23 + widen_hi(r[q]);
    }
  }
  sum[0] = s01[0], sum[1] = s01[1], sum[2] = s23[0], sum[3] = s23[1];
  for (; j < n; ++j)
    for (int k = 0; k < 4; ++k) sum[k] += rows[k][j];
}

// softmax_rows for rows i .. i+n-1 (n <= 4).
void softmax_block(const float* Z, float* M, std::size_t l, std::size_t i, std::size_t n) {
  const float* rows[4];
  double sum[4] = {0, 0, 0, 0};
  for (std::size_t r = 0; r < n; ++r) {
    exp_row(Z + (i + r) * l, M + (i + r) * l, l);
    rows[r] = M + (i + r) * l;
  }
  if (n == 4) {
    row_sums4(rows, l, sum);
  } else {
    for (std::size_t r = 0; r < n; ++r)
      for (std::size_t j = 0; j < l; ++j) sum[r] += rows[r][j];
  }
  for (std::size_t r = 0; r < n; ++r) {
    const float inv = static_cast<float>(1.0 / sum[r]);
    float* m = M + (i + r) * l;
    for (std::size_t j = 0; j < l; ++j) m[j] *= inv;
  }
}

}  // namespace

void softmax_rows(const float* Z, float* M, int L) {
  const std::size_t l = static_cast<std::size_t>(L);
  for (std::size_t i = 0; i < l; i += 4) softmax_block(Z, M, l, i, std::min<std::size_t>(4, l - i));
}

namespace {

// What row i's support gives (its ratio errors are written to r): the largest and smallest ratio,
// the smallest logit, whether every ratio is finite.
struct SupportPart {
  double rmax, rmin, zmin;
  bool finite;
};
// What the rest of the row gives: the largest logit (NaN skipped), whether every logit is finite,
// the leaked mass (the attention summed in double in column order; 0 without attention).
struct OffPart {
  double off_max, leak;
  bool finite;
};

template <class T>
SupportPart support_part(const Pattern& A, int i, const T* z, RowReport& r) {
  const double inf = std::numeric_limits<double>::infinity();
  double rmax = -inf, rmin = inf, zmin = inf, sum = 0;
  bool finite = true;  // std::max/min skip NaN: a non-finite logit makes the row's metrics NaN
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
    const double v = double(z[A.col[e]]) - det_log(A.val[e]);
    finite = finite && std::isfinite(v);
    rmax = std::max(rmax, v);
    rmin = std::min(rmin, v);
    sum += v;
    zmin = std::min(zmin, double(z[A.col[e]]));
  }
  const double mean = sum / (A.row_end(i) - A.row_begin(i));
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
    const double v = double(z[A.col[e]]) - det_log(A.val[e]);
    r.ratio_err_mean[e] = static_cast<float>(v - mean);
    r.ratio_err_min[e] = static_cast<float>(v - rmin);
  }
  return {rmax, rmin, zmin, finite};
}

// Off row i's support, from column j on (its support entries before j skipped: e is the first at
// or after j), added to o: walk the row, skipping the sorted support.
template <class T>
void off_support(const Pattern& A, int i, const T* z, const T* m, std::size_t j, int e, OffPart& o) {
  for (; j < static_cast<std::size_t>(A.L); ++j) {
    if (e < A.row_end(i) && static_cast<std::size_t>(A.col[e]) == j) {
      ++e;
      continue;
    }
    o.off_max = std::max(o.off_max, double(z[j]));
    o.finite = o.finite && std::isfinite(z[j]);
    if (m) o.leak += m[j];
  }
}

// off_support for rows i .. i+3 at once (float logits and attention), four columns at a time: the
// four leaked-mass sums are the lanes of two vectors (a support entry adds +0, which leaves a sum
// of terms >= +0 as skipping it does), so their chains of dependent additions run side by side and
// each row's sum keeps its column order; the maxima (NaN skipped) and finiteness are per row in
// four lanes. Of equal +0 and -0 either may be the maximum: e^(max - zmin) is the same for both.
void off_support4(const Pattern& A, int i, const float* Z, const float* M, OffPart o[4]) {
  using namespace vec;
  const std::size_t l = static_cast<std::size_t>(A.L);
  const I4 magnitude = {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff};
  const F4 inf = splat4(std::numeric_limits<float>::infinity());
  F4 zmax[4];
  I4 bad[4];
  int e[4];
  for (int r = 0; r < 4; ++r) zmax[r] = -inf, bad[r] = I4{0, 0, 0, 0}, e[r] = A.row_begin(i + r);
  D2 s01 = {0.0, 0.0}, s23 = {0.0, 0.0};
  std::size_t j = 0;
  for (; j + 4 <= l; j += 4) {
    F4 m[4];
    for (int r = 0; r < 4; ++r) {
      I4 on = {0, 0, 0, 0};
      for (; e[r] < A.row_end(i + r) && static_cast<std::size_t>(A.col[e[r]]) < j + 4; ++e[r])
        on[A.col[e[r]] - static_cast<int>(j)] = -1;
      const F4 x = load4(Z + (i + r) * l + j);
      zmax[r] = select((x > zmax[r]) & ~on, x, zmax[r]);
      bad[r] |= ~((F4)((I4)x & magnitude) < inf) & ~on;
      m[r] = select(on, splat4(0.0f), load4(M + (i + r) * l + j));
    }
    transpose4(m);  // m[q]: column j + q of each row
    for (int q = 0; q < 4; ++q) {
      s01 = s01 + widen_lo(m[q]);
      s23 = s23 + widen_hi(m[q]);
    }
  }
  const double leak[4] = {s01[0], s01[1], s23[0], s23[1]};
  for (int r = 0; r < 4; ++r) {
    float mx = zmax[r][0];
    for (int q = 1; q < 4; ++q) mx = zmax[r][q] > mx ? zmax[r][q] : mx;
    o[r] = {double(mx), leak[r], !(bad[r][0] | bad[r][1] | bad[r][2] | bad[r][3])};
    off_support(A, i + r, Z + (i + r) * l, M + (i + r) * l, j, e[r], o[r]);
  }
}

// Row i's metrics from its two parts.
void finish_row(RowReport& r, int i, const SupportPart& s, const OffPart& o) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const bool finite = s.finite && o.finite;
  r.rho[i] = finite ? s.rmax - s.rmin : nan;
  r.zeta[i] = finite ? std::exp(o.off_max - s.zmin) : nan;  // exp(-inf) = 0 when the row is full
  // A share of the row's mass, so at most 1: the row's float32 entries sum to 1 only up to their
  // rounding (about L 2^-24), and a row whose mass is all off the support would read 1.0000001.
  r.lambda[i] = std::min(o.leak, 1.0);
  r.support_min_logit[i] = static_cast<float>(s.zmin);
}

// Rows i .. i+n-1 of the criterion: ratio errors on the support, zero ratio and leaked mass
// (logits and attention in float or double: one rule for both; four float rows at a time).
template <class T>
void evaluate_block(const Pattern& A, int i, int n, const T* Z, const T* M, RowReport& r) {
  const std::size_t l = static_cast<std::size_t>(A.L);
  OffPart o[4];
  for (int q = 0; q < n; ++q) o[q] = {-std::numeric_limits<double>::infinity(), 0.0, true};
  if constexpr (std::is_same_v<T, float>) {
    if (n == 4 && M) off_support4(A, i, Z, M, o);
  }
  for (int q = 0; q < n; ++q) {
    const T* z = Z + (i + q) * l;
    if (!(std::is_same_v<T, float> && n == 4 && M))
      off_support(A, i + q, z, M ? M + (i + q) * l : nullptr, 0, A.row_begin(i + q), o[q]);
    finish_row(r, i + q, support_part(A, i + q, z, r), o[q]);
  }
}

// A report for A's rows, every entry 0 (evaluate_block fills it in).
RowReport empty_report(const Pattern& A) {
  const std::size_t l = static_cast<std::size_t>(A.L), nnz = A.col.size();
  RowReport r;
  r.rho.assign(l, 0), r.zeta.assign(l, 0), r.lambda.assign(l, 0);
  r.ok_r.assign(l, 0), r.ok_z.assign(l, 0), r.support_min_logit.assign(l, 0);
  r.ratio_err_mean.assign(nnz, 0), r.ratio_err_min.assign(nnz, 0);
  return r;
}

// Each row's verdicts from its metrics.
void judge_rows(RowReport& r, const Tolerances& tol) {
  for (std::size_t i = 0; i < r.rho.size(); ++i) {
    r.ok_r[i] = r.rho[i] <= tol.eps;    // false for NaN
    r.ok_z[i] = r.zeta[i] <= tol.tau;
  }
}

template <class T>
RowReport evaluate_rows_of(const Pattern& A, const T* Z, const T* M, const Tolerances& tol) {
  RowReport r = empty_report(A);
  for (int i = 0; i < A.L; i += 4) evaluate_block(A, i, std::min(4, A.L - i), Z, M, r);
  judge_rows(r, tol);
  return r;
}

// construct's logits Z = B G / d (L x L), attention M, row report and max |Z|, four rows at a time:
// each block's rows are judged while they are in cache, with the bits of logits_from_gram,
// softmax_rows, evaluate_rows and max_abs run one after the other (max |Z| is NaN when one is).
double logits_attention_rows(const Pattern& A, const std::vector<double>& B, const float* G,
                             const ProjectionScale& scale, const Tolerances& tol, float* Z, float* M,
                             RowReport& rows) {
  const std::size_t l = static_cast<std::size_t>(A.L);
  rows = empty_report(A);
  double zmax = 0;
  for (int i = 0; i < A.L; i += 4) {
    const int n = std::min(4, A.L - i);
    for (int q = 0; q < n; ++q) logits_row_from_gram(A, B, G, i + q, scale, Z + (i + q) * l);
    softmax_block(Z, M, l, static_cast<std::size_t>(i), static_cast<std::size_t>(n));
    evaluate_block(A, i, n, Z, M, rows);
    const double block = max_abs(Z + i * l, static_cast<std::size_t>(n) * l);
    if (!std::isnan(zmax)) zmax = std::isnan(block) ? block : std::max(zmax, block);
  }
  judge_rows(rows, tol);
  return zmax;
}

}  // namespace

RowReport evaluate_rows(const Pattern& A, const float* Z, const float* M, const Tolerances& tol) {
  return evaluate_rows_of(A, Z, M, tol);
}

RowReport evaluate_rows(const Pattern& A, const double* Z, const double* M, const Tolerances& tol) {
  return evaluate_rows_of(A, Z, M, tol);
}

Metrics summarise(const Pattern& A, const std::vector<double>& B, const RowReport& rows,
                  const Tolerances& tol) {
  Metrics m;
  m.ok_r = m.ok_z = true;
  bool nan = false;  // a NaN row makes the metric NaN (never silently skipped)
  for (int i = 0; i < A.L; ++i) {
    nan = nan || std::isnan(rows.rho[i]) || std::isnan(rows.zeta[i]) || std::isnan(rows.lambda[i]);
    m.rho = std::max(m.rho, rows.rho[i]);
    m.zeta = std::max(m.zeta, rows.zeta[i]);
    m.lambda = std::max(m.lambda, rows.lambda[i]);
    m.ok_r = m.ok_r && rows.ok_r[i];
    m.ok_z = m.ok_z && rows.ok_z[i];
  }
  if (nan) m.rho = m.zeta = m.lambda = std::numeric_limits<double>::quiet_NaN();
  m.success = m.ok_r && m.ok_z && !nan;
  m.beta = beta_of(A, B);
  m.d_star = d_star(m.beta, A.L, tol);
  return m;
}

Metrics evaluate(const Pattern& A, const std::vector<double>& B, const float* Z, const float* M,
                 const Tolerances& tol) {
  return summarise(A, B, evaluate_rows(A, Z, M, tol), tol);
}

std::vector<float> scaled_projection_rows(const float* P, int L, int d) {
  return scaled_projection_rows(P, L, d, projection_scale(ProjectionKind::Gaussian, d, {}));
}

std::vector<float> scaled_projection_rows(const float* P, int L, int d, const ProjectionScale& scale) {
  const std::size_t l = static_cast<std::size_t>(L), dd = static_cast<std::size_t>(d);
  std::vector<float> row_scale(l);
  for (std::size_t i = 0; i < l; ++i) row_scale[i] = scale.row_scale(static_cast<int>(i));
  std::vector<float> Ps(l * dd);
  constexpr std::size_t T = 32;  // 32 x 32 tiles: contiguous rows without striding through P
  for (std::size_t t0 = 0; t0 < dd; t0 += T)
    for (std::size_t i0 = 0; i0 < l; i0 += T)
      for (std::size_t t = t0; t < std::min(dd, t0 + T); ++t)
        for (std::size_t i = i0; i < std::min(l, i0 + T); ++i) Ps[i * dd + t] = P[t * l + i] * row_scale[i];
  return Ps;
}

void input_left_row(const Pattern& A, const std::vector<double>& B, const float* Ps, int d, int i,
                    std::vector<double>& acc, float* out) {
  const std::size_t dd = static_cast<std::size_t>(d);
  const double sqrt_d = std::sqrt(double(d));
  acc.assign(dd, 0.0);
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
    const float* p = Ps + static_cast<std::size_t>(A.col[e]) * dd;
    for (std::size_t t = 0; t < dd; ++t) acc[t] += B[e] * double(p[t]);
  }
  for (std::size_t t = 0; t < dd; ++t) out[t] = static_cast<float>(sqrt_d * acc[t]);
}

std::vector<double> jl_inputs(const Pattern& A, const std::vector<double>& B, std::uint64_t seed, int d,
                              ProjectionKind projection) {
  const std::size_t l = static_cast<std::size_t>(A.L), dd = static_cast<std::size_t>(d);
  std::vector<float> P(l * dd);
  ProjectionStream(projection, A.L, projection_seed(seed)).next(d, P.data());
  const std::vector<float> Ps =
      scaled_projection_rows(P.data(), A.L, d, projection_scale_of(projection, P.data(), A.L, d));
  const double sqrt_d = std::sqrt(double(d));
  std::vector<double> X(l * 2 * dd, 0.0);
  for (int i = 0; i < A.L; ++i) {
    double* x = X.data() + i * 2 * dd;
    for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
      const float* p = Ps.data() + static_cast<std::size_t>(A.col[e]) * dd;
      for (std::size_t t = 0; t < dd; ++t) x[t] += B[e] * double(p[t]);
    }
    for (std::size_t t = 0; t < dd; ++t) x[t] *= sqrt_d;
    std::copy(Ps.data() + i * dd, Ps.data() + (i + 1) * dd, x + dd);
  }
  return X;
}

namespace {

// X = [sqrt(d) B P_s, P_s] with P_s = the raw columns P (L x d column-major) scaled row by row
// (projection.hpp; gaussian: P / sqrt(d)): row-major L x 2d, the left half summed in double.
std::vector<float> build_inputs(const Pattern& A, const std::vector<double>& B, const float* P, int d,
                                const ProjectionScale& scale) {
  const std::size_t l = static_cast<std::size_t>(A.L), dd = static_cast<std::size_t>(d);
  const std::vector<float> Ps = scaled_projection_rows(P, A.L, d, scale);
  std::vector<float> X(l * 2 * dd, 0.0f);
  std::vector<double> acc;
  for (std::size_t i = 0; i < l; ++i) {
    float* x = X.data() + i * 2 * dd;
    input_left_row(A, B, Ps.data(), d, int(i), acc, x);
    std::copy(Ps.data() + i * dd, Ps.data() + (i + 1) * dd, x + dd);
  }
  return X;
}

// buf as an L x L buffer: `spare` (made ahead, first touched) when it has that size, else new.
void take_square(FloatBuffer& buf, FloatBuffer& spare, std::size_t size) {
  if (spare.size() == size) {
    buf.swap(spare);
  } else {
    FloatBuffer().swap(spare);
    buf.resize(size);
  }
}

}  // namespace

void logits_from_gram(const Pattern& A, const std::vector<double>& B, const float* G, int d, float* Z) {
  logits_from_gram(A, B, G, projection_scale(ProjectionKind::Gaussian, d, {}), Z);
}

void logits_from_gram(const Pattern& A, const std::vector<double>& B, const float* G,
                      const ProjectionScale& scale, float* Z) {
  for (int i = 0; i < A.L; ++i)
    logits_row_from_gram(A, B, G, i, scale, Z + static_cast<std::size_t>(i) * static_cast<std::size_t>(A.L));
}

void logits_row_from_gram(const Pattern& A, const std::vector<double>& B, const float* G, int i,
                          const ProjectionScale& scale, float* z) {
  const std::size_t l = static_cast<std::size_t>(A.L);
  std::fill(z, z + l, 0.0f);
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
    const float b = scale.coef(B[e], A.col[e]);
    const float* g = G + static_cast<std::size_t>(A.col[e]) * l;
    for (std::size_t j = 0; j < l; ++j) z[j] += b * g[j];
  }
  scale.finish_row(z, A.L);
}

Construction construct(const Pattern& A, const Tolerances& tol, int d, std::uint64_t seed,
                       std::uint64_t max_bytes, const Progress& progress, GramLadder* ladder,
                       bool with_x, ProjectionKind projection) {
  auto report = [&](double f) {
    if (progress) progress(f);
  };
  validate(tol);
  require_option("d", d);
  const int L = A.L;
  const std::uint64_t need = estimate_inputs_bytes("jl", L, A.k, d);
  check_inputs_budget("jl", L, A.k, d, false, max_bytes);
  GramLadder local(0);  // no ladder given: keep nothing beyond this call
  GramLadder& g = ladder ? *ladder : local;
  if (ladder) ladder->set_rung_cap(max_bytes - need, d);  // rungs only in what the budget leaves
  Construction c;
  c.L = L;
  c.d = d;
  c.B = log_target(A, tol);
  c.projection = projection;

  // G = P P^T of the first d raw columns (nested in d), then Z = B G / d (unit kinds: B D^-1/2 G
  // D^-1/2), which equals Q K^T / sqrt(d) with Q = X W_Q = sqrt(d) B P_s and K = X W_K = P_s.
  const bool done = g.prepare(L, projection_seed(seed), d, [&](double f) {
    return progress ? progress(kConstructGramShare * f) : true;
  }, projection);
  if (!done) {  // stopped by progress: nothing evaluated, the ladder keeps what was summed
    c.cancelled = true;
    return c;
  }
  const ProjectionScale scale = projection_scale_of(projection, g.columns(), L, d);
  if (with_x) c.X = build_inputs(A, c.B, g.columns(), d, scale);
  report(0.9);
  // What construct_ahead made, or an earlier construct kept: taken whether it is for these
  // settings or not, so that it never outlives this call unread.
  GramLadder::Ahead ahead = g.take_ahead();
  const std::size_t l = static_cast<std::size_t>(L);
  take_square(c.logits, ahead.logits, l * l);
  take_square(c.M, ahead.M, l * l);
  const double zmax = logits_attention_rows(A, c.B, g.gram(), scale, tol, c.logits.data(), c.M.data(), c.rows);
  c.metrics = summarise(A, c.B, c.rows, tol);
  // Lambda of the float32 X: made for this key already, else from X when it was built, else from
  // the columns (the same value, bit for bit: jl_input_scale); kept for the next construct of
  // these settings.
  std::vector<std::uint64_t> key = jl_scale_key(A, c.B, d, projection_seed(seed), projection);
  const double lambda = ahead.key == key ? ahead.logit_scale
                        : !c.X.empty()   ? input_scale(c.X.data(), L, d)
                                         : jl_scale_from_columns(A, c.B, d, g.columns(), scale);
  g.keep_ahead({std::move(key), lambda, {}, {}});
  c.bounds = bounds_of(A, tol.tau, d, lambda, zmax);
  report(1.0);
  return c;
}

}  // namespace attnx
