// attnx core: SPEC §2 and §8.4 on inputs X given in double (see inputs.hpp): the logits of the
// float32 X, their softmax and rows, and the precision report's bits.
#include <attnx/inputs.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnx {

namespace {

// Z = Q K^T / sqrt(D) with T-precision inputs and S-precision sums, returned as Z's type. Each
// dot product is summed in one fixed order (platform-independent: no contraction, see
// CMakeLists.txt): in order when `lanes` is 1 (evaluate_inputs' logits), else in 4 interleaved
// partial sums added as (s0 + s1) + (s2 + s3) (the precision report's: 4 independent chains).
// Z = Q K^T / sqrt(D) summed in order (each dot product from t = 0 up, as logits_of with lanes
// 1), a block of keys at a time: K is transposed once (in S), so that the sums of kBlock keys
// advance side by side over contiguous memory; each is finished by the same expression as alone
// (s + 0 turns -0 into +0): the same bits as one dot product after another, several times faster.
template <class T, class S, class Z>
std::vector<Z> logits_in_order(const std::vector<T>& X, int L, int D) {
  constexpr std::size_t kBlock = 64;
  const std::size_t l = static_cast<std::size_t>(L), dd = static_cast<std::size_t>(D);
  const S inv = S(1) / std::sqrt(S(D));
  std::vector<S> kt(dd * l);  // kt[t * l + j] = k_j[t]
  for (std::size_t j = 0; j < l; ++j)
    for (std::size_t t = 0; t < dd; ++t) kt[t * l + j] = S(X[j * 2 * dd + dd + t]);
  std::vector<Z> out(l * l);
  S acc[kBlock];
  for (std::size_t i = 0; i < l; ++i) {
    const T* q = X.data() + i * 2 * dd;
    for (std::size_t j0 = 0; j0 < l; j0 += kBlock) {
      const std::size_t nb = std::min(kBlock, l - j0);
      std::fill(acc, acc + nb, S(0));
      for (std::size_t t = 0; t < dd; ++t) {
        const S qt = S(q[t]);
        const S* k = kt.data() + t * l + j0;
        for (std::size_t u = 0; u < nb; ++u) acc[u] += qt * k[u];
      }
      for (std::size_t u = 0; u < nb; ++u) out[i * l + j0 + u] = static_cast<Z>(((acc[u] + S(0)) + (S(0) + S(0))) * inv);
    }
  }
  return out;
}

// Z = Q K^T / sqrt(D) with T-precision inputs and S-precision sums, returned as Z's type. Each
// dot product is summed in one fixed order (platform-independent: no contraction, see
// CMakeLists.txt): in order when `lanes` is 1 (evaluate_inputs' logits, logits_in_order), else in
// 4 interleaved partial sums added as (s0 + s1) + (s2 + s3) (the precision report's: 4
// independent chains).
template <class T, class S, class Z>
std::vector<Z> logits_of(const std::vector<T>& X, int L, int D, int lanes = 1) {
  if (lanes == 1) return logits_in_order<T, S, Z>(X, L, D);
  const std::size_t l = static_cast<std::size_t>(L), dd = static_cast<std::size_t>(D);
  const S inv = S(1) / std::sqrt(S(D));
  std::vector<Z> out(l * l);
  for (std::size_t i = 0; i < l; ++i) {
    const T* q = X.data() + i * 2 * dd;
    for (std::size_t j = 0; j < l; ++j) {
      const T* k = X.data() + j * 2 * dd + dd;
      S s[4] = {0, 0, 0, 0};
      std::size_t t = 0;
      for (; t + 4 <= dd; t += 4)
        for (int u = 0; u < 4; ++u) s[u] += S(q[t + u]) * S(k[t + u]);
      for (; t < dd; ++t) s[0] += S(q[t]) * S(k[t]);
      out[i * l + j] = static_cast<Z>(((s[0] + s[1]) + (s[2] + s[3])) * inv);
    }
  }
  return out;
}

template <class T>
bool passes(const Pattern& A, const Tolerances& tol, const std::vector<T>& Z) {
  const RowReport r = evaluate_rows(A, Z.data(), static_cast<const T*>(nullptr), tol);
  for (int i = 0; i < A.L; ++i)
    if (!r.ok_r[i] || !r.ok_z[i]) return false;
  return true;
}

bool passes_with_bits(const Pattern& A, const Tolerances& tol, const std::vector<double>& X, int D, int b) {
  std::vector<double> Xb(X.size());
  for (std::size_t n = 0; n < X.size(); ++n) Xb[n] = round_to_bits(X[n], b);
  return passes(A, tol, logits_of<double, double, double>(Xb, A.L, D, 4));
}

}  // namespace

double round_to_bits(double x, int b) {
  if (x == 0 || !std::isfinite(x) || b >= 53) return x;
  int e = 0;
  const double m = std::frexp(x, &e);  // x = m 2^e, 0.5 <= |m| < 1
  return std::ldexp(std::nearbyint(std::ldexp(m, b)), e - b);
}

namespace {

// Stable row softmax in double (max subtracted).
std::vector<double> softmax_rows_double(const std::vector<double>& Z, int L) {
  const std::size_t l = static_cast<std::size_t>(L);
  std::vector<double> M(Z.size());
  for (std::size_t i = 0; i < l; ++i) {
    const double* z = Z.data() + i * l;
    double mx = -std::numeric_limits<double>::infinity(), sum = 0;
    for (std::size_t j = 0; j < l; ++j) mx = std::max(mx, z[j]);
    for (std::size_t j = 0; j < l; ++j) sum += (M[i * l + j] = std::exp(z[j] - mx));
    for (std::size_t j = 0; j < l; ++j) M[i * l + j] /= sum;
  }
  return M;
}

}  // namespace

Construction evaluate_inputs(const Pattern& A, const Tolerances& tol, const std::vector<double>& X, int D) {
  Construction c;
  c.L = A.L;
  c.d = D;
  c.B = log_target(A, tol);
  c.X.assign(X.begin(), X.end());  // rounded to float32
  // The criterion on the double logits of the float X (the logits of `moment` are differences of
  // large numbers: rounding them to float32 first would add an error of its own); float copies
  // of Z and M are kept for display.
  // Z is released before M's float copy is made: at most Z, M and one float copy are alive.
  std::vector<double> Z = logits_of<float, double, double>(c.X, A.L, D);
  const std::vector<double> M = softmax_rows_double(Z, A.L);
  c.rows = evaluate_rows(A, Z.data(), M.data(), tol);
  c.metrics = summarise(A, c.B, c.rows, tol);
  c.bounds = bounds_of(A, tol.tau, D, input_scale(c.X.data(), A.L, D), max_abs(Z.data(), Z.size()));
  c.logits.assign(Z.begin(), Z.end());
  std::vector<double>().swap(Z);
  c.M.assign(M.begin(), M.end());
  return c;
}

PrecisionReport precision_report(const Pattern& A, const Tolerances& tol, const std::vector<double>& X, int D) {
  PrecisionReport p;
  const std::size_t w = 2 * static_cast<std::size_t>(D);
  for (int i = 0; i < A.L; ++i) {
    double s = 0;
    for (std::size_t t = 0; t < w; ++t) s += X[i * w + t] * X[i * w + t];
    p.input_norm = std::max(p.input_norm, std::sqrt(s));
  }
  const std::vector<float> Xf(X.begin(), X.end());
  p.fp32 = passes(A, tol, logits_of<float, float, float>(Xf, A.L, D, 4));
  p.fp64 = passes(A, tol, logits_of<double, double, double>(X, A.L, D, 4));
  if (!p.fp64) return p;  // 53 bits are X itself
  // Galloping up from 2 bits (b = 2, 4, 8, 16, 32), then bisection: the constructions that need
  // few bits (jl, lp) cost few evaluations of L x L x D.
  int lo = 1, hi = 53;    // lo fails (1 bit is below the range), hi passes
  for (int b = 2; b < 53; b *= 2) {
    if (passes_with_bits(A, tol, X, D, b)) {
      hi = b;
      break;
    }
    lo = b;
  }
  while (hi - lo > 1) {
    const int mid = (lo + hi) / 2;
    (passes_with_bits(A, tol, X, D, mid) ? hi : lo) = mid;
  }
  p.bits = hi;
  p.exponent_bits = exponent_bits(X, hi);
  return p;
}

}  // namespace attnx
