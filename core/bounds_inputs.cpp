// attnx core: the quantities of a built X that SPEC §9's floors are read at (see bounds.hpp): its
// logit scale Lambda, its largest |logit| and the bits per number it uses.
#include <attnx/bounds.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <attnx/inputs.hpp>

#include "vec4.hpp"

namespace attnx {

namespace {

// Lambda from the largest squared norms of the queries and of the keys.
double scale_of(double q2_max, double k2_max, int D) {
  return std::sqrt(q2_max) * std::sqrt(k2_max) / std::sqrt(double(D));
}

template <class T>
double max_abs_of(const T* Z, std::size_t n) {
  double m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = std::fabs(double(Z[i]));
    if (std::isnan(a)) return a;
    m = std::max(m, a);
  }
  return m;
}

}  // namespace

double input_scale(const float* X, int L, int D) {
  const std::size_t dd = static_cast<std::size_t>(D);
  double q2_max = 0, k2_max = 0;
  for (std::size_t i = 0; i < static_cast<std::size_t>(L); ++i) {
    const float* x = X + i * 2 * dd;
    double q2 = 0, k2 = 0;
    for (std::size_t t = 0; t < dd; ++t) q2 += double(x[t]) * double(x[t]);
    for (std::size_t t = 0; t < dd; ++t) k2 += double(x[dd + t]) * double(x[dd + t]);
    q2_max = std::max(q2_max, q2);
    k2_max = std::max(k2_max, k2);
  }
  return scale_of(q2_max, k2_max, D);
}

namespace {

// Rows' sums of Q's squared entries for one raw column: K's entry (j) is raw[j] * rs[j] in float,
// Q_ic = float(sqrt(d) sum_e B_e K[col_e]) summed in double in A's entry order, added to q2.
void add_query_column(const Pattern& A, const std::vector<double>& B, const float* raw, const float* rs,
                      double sqrt_d, std::vector<double>& q2) {
  for (int i = 0; i < A.L; ++i) {
    double acc = 0.0;
    for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
      const int j = A.col[e];
      acc += B[e] * double(raw[j] * rs[j]);
    }
    const float q = static_cast<float>(sqrt_d * acc);
    q2[i] += double(q) * double(q);
  }
}

// The same for four columns at once: kt4[4 j + m] is K's entry (j, m); each lane sums as
// add_query_column does and the squares are added to q2 in column order, so the bits are the same.
void add_query_columns4(const Pattern& A, const std::vector<double>& B, const float* kt4, double sqrt_d,
                        std::vector<double>& q2) {
  using namespace vec;
  for (int i = 0; i < A.L; ++i) {
    D2 lo = {0.0, 0.0}, hi = {0.0, 0.0};
    for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
      const F4 k = load4(kt4 + 4 * static_cast<std::size_t>(A.col[e]));
      const D2 b = {B[e], B[e]};
      lo = lo + b * D2{double(k[0]), double(k[1])};
      hi = hi + b * D2{double(k[2]), double(k[3])};
    }
    const D2 qlo = lo * sqrt_d, qhi = hi * sqrt_d;
    const double q[4] = {double(static_cast<float>(qlo[0])), double(static_cast<float>(qlo[1])),
                         double(static_cast<float>(qhi[0])), double(static_cast<float>(qhi[1]))};
    double s = q2[i];
    for (int m = 0; m < 4; ++m) s = s + q[m] * q[m];
    q2[i] = s;
  }
}

// K's entries of four raw columns (column m at raw + m l; entry raw * rs[j] in float), written
// row by row to kt4[4 j + m] and their squares added to k2[j] in column order (m = 0..3): four
// rows at a time.
void key_columns4(const float* raw, std::size_t l, const float* rs, float* kt4, double* k2) {
  using namespace vec;
  std::size_t j = 0;
  for (; j + 4 <= l; j += 4) {
    const F4 r = load4(rs + j);
    F4 k[4];
    D2 lo, hi;
    std::memcpy(&lo, k2 + j, sizeof lo);
    std::memcpy(&hi, k2 + j + 2, sizeof hi);
    for (std::size_t m = 0; m < 4; ++m) {
      k[m] = load4(raw + m * l + j) * r;
      const D2 klo = {double(k[m][0]), double(k[m][1])}, khi = {double(k[m][2]), double(k[m][3])};
      lo = lo + klo * klo;
      hi = hi + khi * khi;
    }
    std::memcpy(k2 + j, &lo, sizeof lo);
    std::memcpy(k2 + j + 2, &hi, sizeof hi);
    for (std::size_t q = 0; q < 4; ++q)
      for (std::size_t m = 0; m < 4; ++m) kt4[4 * (j + q) + m] = k[m][q];
  }
  for (; j < l; ++j)
    for (std::size_t m = 0; m < 4; ++m) {
      const float k = raw[m * l + j] * rs[j];
      kt4[4 * j + m] = k;
      k2[j] += double(k) * double(k);
    }
}

}  // namespace

// Column by column: K's entry (raw * row scale, in float, as scaled_projection_rows) and Q's
// (float(sqrt(d) sum_e B_e K[col_e]), summed in double in A's entry order, as input_left_row),
// their squares added to the rows' sums in column order, as input_scale adds them. Four columns of
// a piece at a time where it has them (K's entries then gathered row by row), then one by one; the
// columns are read where next leaves them.
double jl_input_scale(const Pattern& A, const std::vector<double>& B, int d, const ProjectionScale& scale,
                      const std::function<const float*(int n, float* buf)>& next, float* buf, int buf_cols) {
  const std::size_t l = static_cast<std::size_t>(A.L);
  std::vector<double> q2(l, 0.0), k2(l, 0.0);
  std::vector<float> rs(l), kt(4 * l);
  for (std::size_t j = 0; j < l; ++j) rs[j] = scale.row_scale(static_cast<int>(j));
  const double sqrt_d = std::sqrt(double(d));
  for (int done = 0; done < d;) {
    const int n = std::min(buf_cols, d - done);
    const float* cols = next(n, buf);
    int c = 0;
    for (; c + 4 <= n; c += 4) {
      const float* raw = cols + static_cast<std::size_t>(c) * l;
      key_columns4(raw, l, rs.data(), kt.data(), k2.data());
      add_query_columns4(A, B, kt.data(), sqrt_d, q2);
    }
    for (; c < n; ++c) {
      const float* raw = cols + static_cast<std::size_t>(c) * l;
      for (std::size_t j = 0; j < l; ++j) {
        const float k = raw[j] * rs[j];
        k2[j] += double(k) * double(k);
      }
      add_query_column(A, B, raw, rs.data(), sqrt_d, q2);
    }
    done += n;
  }
  return scale_of(*std::max_element(q2.begin(), q2.end()), *std::max_element(k2.begin(), k2.end()), d);
}

// Four lanes at a time: the largest |Z_i| is exact in float and does not depend on the order; a
// NaN anywhere sends the scan to max_abs_of, which returns the first one as before.
double max_abs(const float* Z, std::size_t n) {
  using namespace vec;
  const I4 magnitude = {0x7fffffff, 0x7fffffff, 0x7fffffff, 0x7fffffff};
  I4 acc = {0, 0, 0, 0}, nan = acc;  // |x| as bits: for non-NaN floats, bits order as values
  std::size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const F4 x = load4(Z + i);
    nan |= x != x;
    const I4 a = (I4)x & magnitude;
    acc = select(a > acc, a, acc);
  }
  if (nan[0] | nan[1] | nan[2] | nan[3]) return max_abs_of(Z, n);
  const std::int32_t top = std::max(std::max(acc[0], acc[1]), std::max(acc[2], acc[3]));
  float m;
  std::memcpy(&m, &top, sizeof m);
  for (; i < n; ++i) {
    if (std::isnan(Z[i])) return max_abs_of(Z, n);
    m = std::max(m, std::fabs(Z[i]));
  }
  return m;
}
double max_abs(const double* Z, std::size_t n) { return max_abs_of(Z, n); }

int exponent_bits(const std::vector<double>& X, int bits) {
  bool any = false;
  int lo = 0, hi = 0;
  for (double x : X) {
    const double r = round_to_bits(x, bits);
    if (r == 0 || !std::isfinite(r)) continue;
    int e = 0;
    std::frexp(r, &e);
    lo = any ? std::min(lo, e) : e;
    hi = any ? std::max(hi, e) : e;
    any = true;
  }
  int t = 0;
  while (any && (1LL << t) < static_cast<long long>(hi) - lo + 1) ++t;
  return t;
}

int bits_per_number(int bits, int exponent_bits) { return bits > 0 ? bits + 1 + exponent_bits : 0; }

}  // namespace attnx
