#include <attnx/lp_rows.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

#include <attnx/detmath.hpp>

namespace attnx {

namespace {

// Appends one row (g over the n = d + 2 variables, bound) to p.
void add_row(LpProblem& p, const float* k, int d, double sign_k, double coef_c, double coef_t, double bound) {
  for (int l = 0; l < d; ++l) p.G.push_back(k ? sign_k * double(k[l]) : 0.0);
  p.G.push_back(coef_c);
  p.G.push_back(coef_t);
  p.h.push_back(bound);
  ++p.m;
}

}  // namespace

LpProblem row_lp(const Pattern& A, int i, const float* K, int d, const Tolerances& tol, double box) {
  LpProblem p;
  p.n = d + 2;
  const std::size_t dd = static_cast<std::size_t>(d);
  double a_min = std::numeric_limits<double>::infinity();
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) a_min = std::min(a_min, det_log(A.val[e]));
  const double half = tol.eps / 2;
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
    const float* k = K + static_cast<std::size_t>(A.col[e]) * dd;
    const double a = det_log(A.val[e]);
    add_row(p, k, d, 1.0, -1.0, 1.0, a + half);
    add_row(p, k, d, -1.0, 1.0, 1.0, half - a);
  }
  const double off = a_min - half + det_log(tol.tau);
  for (int j = 0, e = A.row_begin(i); j < A.L; ++j) {
    if (e < A.row_end(i) && A.col[e] == j) { ++e; continue; }
    add_row(p, K + static_cast<std::size_t>(j) * dd, d, 1.0, -1.0, 1.0, off);
  }
  add_row(p, nullptr, d, 0.0, 0.0, 1.0, half);
  for (int l = 0; l < d; ++l) {
    for (const double sign : {1.0, -1.0}) {
      for (int v = 0; v < p.n; ++v) p.G.push_back(v == l ? sign : 0.0);
      p.h.push_back(box);
      ++p.m;
    }
  }
  p.c.assign(static_cast<std::size_t>(p.n), 0.0);
  p.c[dd + 1] = -1.0;
  return p;
}

LpRow solve_row(const Pattern& A, int i, const float* K, int d, const Tolerances& tol, double box) {
  const LpSolution s = solve_lp(row_lp(A, i, K, d, tol, box));
  LpRow r;
  r.q.assign(s.x.begin(), s.x.begin() + d);
  r.c = s.x[static_cast<std::size_t>(d)];
  r.t = s.x[static_cast<std::size_t>(d) + 1];
  r.iterations = s.iterations;
  r.converged = s.converged;
  return r;
}

}  // namespace attnx
