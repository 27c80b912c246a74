// attnx core: the `moment` construction of SPEC §8.3 (see construct_moment.hpp) and its registry record.
#include <attnx/construct_moment.hpp>

#include <attnx/construction.hpp>

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

MomentConstruction construct_moment(const Pattern& A, const Tolerances& tol) {
  MomentConstruction out;
  int D = 0;
  const std::vector<double> X = moment_inputs(A, tol, &D, &out.lambda);
  out.c = evaluate_inputs(A, tol, X, D);
  out.precision = precision_report(A, tol, X, D);
  return out;
}

namespace {

ConstructionInfo moment_info() {
  ConstructionInfo c;
  c.name = "moment", c.label = "Moment curve, D = 2m (§8.3)";
  c.uses_d = false, c.searchable = false;
  c.search = "one hidden size per pattern, D = 2m (m: the largest row support), at every L: there is no "
             "minimal d to search (a sweep's trial is that D, or not reached)";
  c.dimension = "2m";
  c.bits_floor = "bits_free_keys";
  c.precision_always = true;
  c.row_report = {"lambda"};
  c.row_query = true;
  c.search_cost = 0.1;
  c.kind_of_mark = "construction";
  c.queries_title = "Q: √D·coefficients of p_i", c.queries_sub = "first D columns: a polynomial per row";
  c.keys_title = "K: T₁(t_j) … T_D(t_j)", c.keys_sub = "last D columns: the moment curve";
  c.summary = "The moment curve (§8.3): keys K_j = (T₁(t_j), …, T_D(t_j)) at Chebyshev nodes "
              "t_j, and for each row a polynomial that is exact on its support and far below "
              "elsewhere. D = 2m dimensions at every L, paid for in bits.";
  return c;
}

// Its X (L x 2D double, D = 2k) with the nodes and lambdas, then evaluate_inputs, then the
// precision report; the target and its row report; the pattern. A trial builds the same.
std::uint64_t moment_bytes(const ConstructionRequest&, Purpose, int L, int k) {
  const int D = moment_dimension(k);
  const std::uint64_t l = std::uint64_t(L), X = 16 * l * std::uint64_t(D) + 16 * l;
  return estimate_pattern_bytes(L, k) + target_and_rows_bytes(L, k) + X +
         std::max(evaluate_inputs_bytes(L, D), precision_phase_bytes(L, D));
}

BuiltInputs moment_build(const Pattern& A, const CheckedRequest& r, const BuildRun& run) {
  MomentConstruction m = construct_moment(A, r->tol);
  BuiltInputs out;
  out.c = std::move(m.c);
  out.precision = m.precision;
  out.rows = {{"lambda", std::move(m.lambda), ""}};
  out.c.bounds.bits_per_number = bits_per_number(m.precision.bits, m.precision.exponent_bits);
  if (run.progress) run.progress(1.0);
  return out;
}

// One trial of a sweep (SPEC §8.3, §5): d_min = D when the inputs (X in float32, as every
// construction is judged) pass SPEC §2, else -1 (not reached); checked = {D}; beta and d* of the
// target; bounds (SPEC §9, without w; not reached: n and the bits floors only).
MinDResult moment_trial(const Pattern& A, const CheckedRequest& r, const BuildRun&) {
  const MomentConstruction m = construct_moment(A, r->tol);
  MinDResult out;
  out.beta = m.c.metrics.beta;
  out.d_star = m.c.metrics.d_star;
  out.checked = {m.c.d};
  out.d_min = m.c.metrics.success ? m.c.d : -1;
  out.bounds = out.reached() ? m.c.bounds : bounds_of(A, r->tol.tau, m.c.d, -1, -1);
  return out;
}

int moment_d(const ConstructionRequest&, int k) { return moment_dimension(k); }

}  // namespace

const ConstructionKind& moment_kind() {
  static const ConstructionKind k = [] {
    ConstructionKind c;
    c.info = moment_info();
    c.bytes = moment_bytes;
    c.build_remedy = "L";
    c.search_what = "moment trial";
    c.build = moment_build;
    c.search = moment_trial;
    c.dimension = moment_d;
    return c;
  }();
  return k;
}

}  // namespace attnx
