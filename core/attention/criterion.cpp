// attnx core: the criterion of SPEC §2 (row by row, from float or double logits), its metrics and
// the stable softmax (see construct.hpp); and, for jl's construct, its logits, attention and row
// report made four rows at a time while they are in cache (attention/rows.hpp).
#include <attnx/construct.hpp>

#include "attention/rows.hpp"

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

}  // namespace

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

}  // namespace attnx
