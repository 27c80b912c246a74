// attnx core: the quantities of a built X that SPEC §9's floors are read at (see bounds.hpp): its
// logit scale Lambda, its largest |logit| and the bits per number it uses.
#include <attnx/bounds.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <attnx/inputs.hpp>

#include "base/vec4.hpp"

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

constexpr int kScaleColumns = 8;  // columns of P per pass of jl_input_scale (then 4, then 1)

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

// Rows' sums for W columns at once (W a multiple of 4): kt[W j + m] is K's entry (j, m) as a
// double. Each column's Q entry is summed as add_query_column sums it (in double, in A's entry
// order, two columns per vector) and rounded to float, and the squares are added to q2 in column
// order, so the bits are the same.
template <int W>
struct QueryRows {
  const int* row_ptr;
  const int* col;
  const double* b_of;
  const double* kt;
  // acc[m] = row i's sums for columns 2m, 2m+1 (in A's entry order, from 0).
  void sums(int i, vec::D2* acc) const {
    using namespace vec;
    for (int m = 0; m < W / 2; ++m) acc[m] = D2{0.0, 0.0};
    for (int e = row_ptr[i]; e < row_ptr[i + 1]; ++e) {
      const double* k = kt + W * static_cast<std::size_t>(col[e]);
      const D2 b = {b_of[e], b_of[e]};
      for (int m = 0; m < W / 2; ++m) acc[m] = acc[m] + b * load2(k + 2 * m);
    }
  }
};

template <int W>
void add_query_columns(const Pattern& A, const std::vector<double>& B, const double* kt, double sqrt_d,
                       double* q2) {
  using namespace vec;
  const QueryRows<W> rows{A.row_ptr.data(), A.col.data(), B.data(), kt};
  int i = 0;
  for (; i + 2 <= A.L; i += 2) {  // rows i and i + 1 in the lanes of s
    D2 a[W / 2], c[W / 2];
    rows.sums(i, a);
    rows.sums(i + 1, c);
    D2 s = {q2[i], q2[i + 1]};
    for (int m = 0; m < W / 2; ++m) {
      const D2 qa = round_to_float2(a[m] * sqrt_d), qc = round_to_float2(c[m] * sqrt_d);
      const D2 sa = qa * qa, sc = qc * qc;
      s = s + D2{sa[0], sc[0]};
      s = s + D2{sa[1], sc[1]};
    }
    q2[i] = s[0];
    q2[i + 1] = s[1];
  }
  for (; i < A.L; ++i) {
    D2 a[W / 2];
    rows.sums(i, a);
    double s = q2[i];
    for (int m = 0; m < W / 2; ++m) {
      const D2 q = round_to_float2(a[m] * sqrt_d), sq = q * q;
      s = s + sq[0];
      s = s + sq[1];
    }
    q2[i] = s;
  }
}

// K's entries of W raw columns (W a multiple of 4; column m at raw + m l, entry raw * rs[j] in
// float), written row by row as doubles to kt[W j + m], and their squares added to k2[j] in column
// order: four rows at a time (rows in lanes, transposed four columns at a time), then one by one.
template <int W>
void key_columns(const float* raw, std::size_t l, const float* rs, double* kt, double* k2) {
  using namespace vec;
  std::size_t j = 0;
  for (; j + 4 <= l; j += 4) {
    const F4 r = load4(rs + j);
    D2 lo = load2(k2 + j), hi = load2(k2 + j + 2);
    for (std::size_t g = 0; g < W; g += 4) {
      F4 k[4];
      for (std::size_t m = 0; m < 4; ++m) {
        k[m] = load4(raw + (g + m) * l + j) * r;
        const D2 klo = widen_lo(k[m]), khi = widen_hi(k[m]);
        lo = lo + klo * klo;
        hi = hi + khi * khi;
      }
      transpose4(k);
      for (std::size_t q = 0; q < 4; ++q) {
        store2(kt + W * (j + q) + g, widen_lo(k[q]));
        store2(kt + W * (j + q) + g + 2, widen_hi(k[q]));
      }
    }
    store2(k2 + j, lo);
    store2(k2 + j + 2, hi);
  }
  for (; j < l; ++j)
    for (std::size_t m = 0; m < W; ++m) {
      const float k = raw[m * l + j] * rs[j];
      kt[W * j + m] = k;
      k2[j] += double(k) * double(k);
    }
}

// Keys then queries of W raw columns (a multiple of 4) at `raw`, in column order.
template <int W>
void add_columns(const Pattern& A, const std::vector<double>& B, const float* raw, std::size_t l,
                 const float* rs, double sqrt_d, double* kt, double* k2, double* q2) {
  key_columns<W>(raw, l, rs, kt, k2);
  add_query_columns<W>(A, B, kt, sqrt_d, q2);
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
  std::vector<float> rs(l);
  std::vector<double> kt(kScaleColumns * l);
  for (std::size_t j = 0; j < l; ++j) rs[j] = scale.row_scale(static_cast<int>(j));
  const double sqrt_d = std::sqrt(double(d));
  for (int done = 0; done < d;) {
    const int n = std::min(buf_cols, d - done);
    const float* cols = next(n, buf);
    int c = 0;
    for (; c + kScaleColumns <= n; c += kScaleColumns)
      add_columns<kScaleColumns>(A, B, cols + static_cast<std::size_t>(c) * l, l, rs.data(), sqrt_d, kt.data(),
                                 k2.data(), q2.data());
    for (; c + 4 <= n; c += 4)
      add_columns<4>(A, B, cols + static_cast<std::size_t>(c) * l, l, rs.data(), sqrt_d, kt.data(), k2.data(),
                     q2.data());
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
