#include <attnx/construct_moment.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/detmath.hpp>

namespace attnx {

namespace {

const double kPi = 3.14159265358979323846;

// T_0(x), ..., T_n(x) into out (n + 1 values).
void chebyshev(double x, int n, double* out) {
  out[0] = 1;
  if (n >= 1) out[1] = x;
  for (int k = 2; k <= n; ++k) out[k] = 2 * x * out[k - 1] - out[k - 2];
}

// Row i's interpolant r_i (through (t_s, ln A_is)) and pi_i = prod (x - t_s)^2 at x.
struct RowPoly {
  std::vector<double> ts, as;
  double r(double x) const {
    double sum = 0;
    for (std::size_t s = 0; s < ts.size(); ++s) {
      double w = as[s];
      for (std::size_t u = 0; u < ts.size(); ++u)
        if (u != s) w *= (x - ts[u]) / (ts[s] - ts[u]);
      sum += w;
    }
    return sum;
  }
  double pi(double x) const {
    double p = 1;
    for (double t : ts) p *= (x - t) * (x - t);
    return p;
  }
};

RowPoly row_poly(const Pattern& A, int i, const std::vector<double>& nodes) {
  RowPoly p;
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
    p.ts.push_back(nodes[A.col[e]]);
    p.as.push_back(det_log(A.val[e]));
  }
  return p;
}

// lambda_i = 2 max(0, max_{j not in S_i} (r_i(t_j) - a_min + ln(1/tau)) / pi_i(t_j)).
double row_lambda(const Pattern& A, int i, const RowPoly& p, const std::vector<double>& nodes, const Tolerances& tol) {
  const double a_min = *std::min_element(p.as.begin(), p.as.end());
  double worst = 0;
  for (int j = 0, e = A.row_begin(i); j < A.L; ++j) {
    if (e < A.row_end(i) && A.col[e] == j) { ++e; continue; }
    worst = std::max(worst, (p.r(nodes[j]) - a_min - det_log(tol.tau)) / p.pi(nodes[j]));
  }
  return 2 * worst;
}

// Chebyshev coefficients c_0..c_D of a polynomial of degree <= D given as a function, from its
// values at the D + 1 Chebyshev nodes (exact for that degree).
template <class F>
std::vector<double> chebyshev_coefficients(const F& f, int D) {
  const int N = D + 1;
  std::vector<double> c(static_cast<std::size_t>(N), 0.0), T(static_cast<std::size_t>(N));
  for (int k = 0; k < N; ++k) {
    const double x = std::cos(kPi * (k + 0.5) / N), fx = f(x);
    chebyshev(x, D, T.data());
    for (int n = 0; n < N; ++n) c[n] += fx * T[n];
  }
  for (int n = 0; n < N; ++n) c[n] *= (n == 0 ? 1.0 : 2.0) / N;
  return c;
}

}  // namespace

std::vector<double> moment_inputs(const Pattern& A, const Tolerances& tol, int* D_out, std::vector<double>* lambda) {
  int m = 0;
  for (int i = 0; i < A.L; ++i) m = std::max(m, A.row_end(i) - A.row_begin(i));
  const int D = moment_dimension(m);
  *D_out = D;
  const std::size_t l = static_cast<std::size_t>(A.L), w = 2 * static_cast<std::size_t>(D);
  std::vector<double> nodes(l), X(l * w), T(static_cast<std::size_t>(D) + 1);
  for (std::size_t j = 0; j < l; ++j) nodes[j] = std::cos(kPi * (double(j) + 0.5) / double(l));
  for (std::size_t j = 0; j < l; ++j) {
    chebyshev(nodes[j], D, T.data());
    std::copy(T.begin() + 1, T.end(), X.begin() + j * w + D);
  }
  if (lambda) lambda->assign(l, 0.0);
  const double sqrt_D = std::sqrt(double(D));
  for (int i = 0; i < A.L; ++i) {
    const RowPoly p = row_poly(A, i, nodes);
    const double lam = row_lambda(A, i, p, nodes, tol);
    if (lambda) (*lambda)[i] = lam;
    const std::vector<double> c = chebyshev_coefficients([&](double x) { return p.r(x) - lam * p.pi(x); }, D);
    for (int n = 1; n <= D; ++n) X[i * w + (n - 1)] = sqrt_D * c[n];
  }
  return X;
}

MomentConstruction construct_moment(const Pattern& A, const Tolerances& tol, std::uint64_t max_bytes) {
  validate(tol);
  check_inputs_budget("moment", A.L, A.k, 0, false, max_bytes);
  MomentConstruction out;
  int D = 0;
  const std::vector<double> X = moment_inputs(A, tol, &D, &out.lambda);
  out.c = evaluate_inputs(A, tol, X, D);
  out.precision = precision_report(A, tol, X, D);
  return out;
}

}  // namespace attnx
