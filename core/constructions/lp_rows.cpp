#include <attnx/lp_rows.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

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

// a_min - eps/2 + ln tau: the bound of every off-support row of row i.
double off_bound(const Pattern& A, int i, const Tolerances& tol) {
  double a_min = std::numeric_limits<double>::infinity();
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) a_min = std::min(a_min, det_log(A.val[e]));
  return a_min - tol.eps / 2 + det_log(tol.tau);
}

// The LP of row_lp keeping only the off-support rows of the columns j with keep[j] (keep null: all).
LpProblem build_row_lp(const Pattern& A, int i, const float* K, int d, const Tolerances& tol, double box,
                       const std::vector<char>* keep) {
  LpProblem p;
  p.n = d + 2;
  const std::size_t dd = static_cast<std::size_t>(d);
  const int support = A.row_end(i) - A.row_begin(i);
  const int off_rows = keep ? int(std::count(keep->begin(), keep->end(), 1)) : A.L - support;
  p.G.reserve(static_cast<std::size_t>(2 * support + off_rows + 1 + 2 * d) * (dd + 2));
  const double half = tol.eps / 2;
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
    const float* k = K + static_cast<std::size_t>(A.col[e]) * dd;
    const double a = det_log(A.val[e]);
    add_row(p, k, d, 1.0, -1.0, 1.0, a + half);
    add_row(p, k, d, -1.0, 1.0, 1.0, half - a);
  }
  const double off = off_bound(A, i, tol);
  for (int j = 0, e = A.row_begin(i); j < A.L; ++j) {
    if (e < A.row_end(i) && A.col[e] == j) { ++e; continue; }
    if (!keep || (*keep)[static_cast<std::size_t>(j)])
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

// The columns j with candidate[j] whose off-support row is exceeded by more than floor at
// x = (q, c, t), i.e. q·k_j - c + t - off > floor; the largest excess first (ties: j ascending,
// so the choice is deterministic), at most batch of them.
std::vector<int> most_violated(const float* K, int d, const std::vector<char>& candidate, const std::vector<double>& x,
                               double off, double floor, int batch) {
  const std::size_t dd = static_cast<std::size_t>(d);
  const double shift = x[dd + 1] - x[dd] - off;
  std::vector<std::pair<double, int>> v;
  for (std::size_t j = 0; j < candidate.size(); ++j) {
    if (!candidate[j]) continue;
    const float* k = K + j * dd;
    double p[4] = {0, 0, 0, 0};  // four partial sums (a fixed order: the same on every platform)
    std::size_t l = 0;
    for (; l + 4 <= dd; l += 4)
      for (std::size_t u = 0; u < 4; ++u) p[u] += x[l + u] * double(k[l + u]);
    for (; l < dd; ++l) p[0] += x[l] * double(k[l]);
    const double s = (p[0] + p[1]) + (p[2] + p[3]);
    if (s + shift > floor) v.emplace_back(-(s + shift), int(j));
  }
  const std::size_t keep = std::min(v.size(), static_cast<std::size_t>(std::max(0, batch)));
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(keep);  // pairs are distinct: one order
  if (keep < v.size()) std::nth_element(v.begin(), mid, v.end());
  std::sort(v.begin(), mid);
  std::vector<int> out;
  for (std::size_t e = 0; e < keep; ++e) out.push_back(v[e].second);
  return out;
}

// The working set's start: the count off-support columns (candidate) whose keys are most aligned
// with sum_s k_s, the columns that a query favouring the support would overshoot first.
std::vector<int> initial_columns(const Pattern& A, int i, const float* K, int d, const std::vector<char>& candidate,
                                 int count) {
  std::vector<double> x0(static_cast<std::size_t>(d) + 2, 0.0);
  for (int e = A.row_begin(i); e < A.row_end(i); ++e)
    for (int l = 0; l < d; ++l)
      x0[static_cast<std::size_t>(l)] += double(K[static_cast<std::size_t>(A.col[e]) * static_cast<std::size_t>(d) + l]);
  return most_violated(K, d, candidate, x0, 0.0, -std::numeric_limits<double>::infinity(), count);
}

// solve_lp's primal accuracy on p's rows (its relative residual times 1 + max|h|), also used for
// the rows left out of p, whose bound is off.
double primal_accuracy(const LpProblem& p, double off, const LpOptions& o) {
  double h_max = std::abs(off);
  for (double h : p.h) h_max = std::max(h_max, std::abs(h));
  return o.tolerance * (1.0 + h_max);
}

LpRow row_of(const LpSolution& s, int d) {
  LpRow r;
  r.q.assign(s.x.begin(), s.x.begin() + d);
  r.c = s.x[static_cast<std::size_t>(d)];
  r.t = s.x[static_cast<std::size_t>(d) + 1];
  r.iterations = s.iterations;
  r.rounds = 1;
  r.converged = s.converged;
  return r;
}

}  // namespace

LpProblem row_lp(const Pattern& A, int i, const float* K, int d, const Tolerances& tol, double box) {
  return build_row_lp(A, i, K, d, tol, box, nullptr);
}

LpRow solve_row_full(const Pattern& A, int i, const float* K, int d, const Tolerances& tol, double box) {
  return row_of(solve_lp(row_lp(A, i, K, d, tol, box)), d);
}

LpRow solve_row(const Pattern& A, int i, const float* K, int d, const Tolerances& tol, double box,
                bool stop_if_infeasible) {
  const std::size_t l = static_cast<std::size_t>(A.L);
  const double off = off_bound(A, i, tol);
  const int batch = d + 2;  // n, as many rows as are active at a vertex of the LP
  std::vector<char> candidate(l, 1), work(l, 0);  // off-support columns outside / inside the working set
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) candidate[static_cast<std::size_t>(A.col[e])] = 0;
  auto take = [&](const std::vector<int>& js) {
    for (int j : js) work[static_cast<std::size_t>(j)] = 1, candidate[static_cast<std::size_t>(j)] = 0;
  };
  take(initial_columns(A, i, K, d, candidate, 2 * batch));
  const LpOptions opt;
  LpRow out;
  for (int round = 1;; ++round) {
    const LpProblem p = build_row_lp(A, i, K, d, tol, box, &work);
    const LpSolution s = solve_lp(p, opt);
    const int iterations = out.iterations + s.iterations;
    out = row_of(s, d);
    out.iterations = iterations;
    out.rounds = round;
    if (!s.converged) {  // not seen in practice; then the reference decides (iterations add up)
      out = solve_row_full(A, i, K, d, tol, box);
      out.iterations += iterations;
      out.rounds = round + 1;
      break;
    }
    if (stop_if_infeasible && !(out.t > 0)) {
      out.relaxed = true;
      break;
    }
    const std::vector<int> add = most_violated(K, d, candidate, s.x, off, primal_accuracy(p, off, opt), batch);
    if (add.empty()) break;
    take(add);
  }
  return out;
}

}  // namespace attnx
