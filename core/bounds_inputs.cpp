// attnx core: the quantities of a built X that SPEC §9's floors are read at (see bounds.hpp): its
// logit scale Lambda, its largest |logit| and the bits per number it uses.
#include <attnx/bounds.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/inputs.hpp>

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

// Column by column: K's entry (raw * row scale, in float, as scaled_projection_rows) and Q's
// (float(sqrt(d) sum_e B_e K[col_e]), summed in double in A's entry order, as input_left_row),
// their squares added to the rows' sums in column order, as input_scale adds them.
double jl_input_scale(const Pattern& A, const std::vector<double>& B, int d, const ProjectionScale& scale,
                      const std::function<void(int n, float* out)>& next, float* buf, int buf_cols) {
  const std::size_t l = static_cast<std::size_t>(A.L);
  std::vector<double> q2(l, 0.0), k2(l, 0.0);
  std::vector<float> rs(l), kt(l);
  for (std::size_t j = 0; j < l; ++j) rs[j] = scale.row_scale(static_cast<int>(j));
  const double sqrt_d = std::sqrt(double(d));
  for (int done = 0; done < d;) {
    const int n = std::min(buf_cols, d - done);
    next(n, buf);
    for (int c = 0; c < n; ++c) {
      const float* raw = buf + static_cast<std::size_t>(c) * l;
      for (std::size_t j = 0; j < l; ++j) {
        kt[j] = raw[j] * rs[j];
        k2[j] += double(kt[j]) * double(kt[j]);
      }
      for (int i = 0; i < A.L; ++i) {
        double acc = 0.0;
        for (int e = A.row_begin(i); e < A.row_end(i); ++e) acc += B[e] * double(kt[A.col[e]]);
        const float q = static_cast<float>(sqrt_d * acc);
        q2[i] += double(q) * double(q);
      }
    }
    done += n;
  }
  return scale_of(*std::max_element(q2.begin(), q2.end()), *std::max_element(k2.begin(), k2.end()), d);
}

double max_abs(const float* Z, std::size_t n) { return max_abs_of(Z, n); }
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
