// Writes §8.2 row LPs (row_lp: the full problem) and attnx's solutions (solve_row: constraint
// generation) as JSON lines for tests/lp/lp_highs.py, which solves each with SciPy's HiGHS (an
// independent solver) and compares. Problems: random k-regular
// patterns with uniform and random weights, several L, d, tolerances and seeds, some rows
// feasible and some not, plus the box binding.
#include <cmath>
#include <cstdio>
#include <vector>

#include <attnx/construct.hpp>
#include <attnx/lp_rows.hpp>
#include <attnx/pattern.hpp>
#include <attnx/rng.hpp>

using namespace attnx;

namespace {

void print_array(const std::vector<double>& v) {
  std::printf("[");
  for (std::size_t i = 0; i < v.size(); ++i) std::printf("%s%.17g", i ? "," : "", v[i]);
  std::printf("]");
}

// Unit normal keys scaled by 1/sqrt(d) (as the construction's K), row-major L x d.
std::vector<float> keys(int L, int d, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> K(static_cast<std::size_t>(L) * d);
  rng.fill_normal(K.data(), K.size());
  for (float& k : K) k = static_cast<float>(k / std::sqrt(double(d)));
  return K;
}

void dump(int L, int k, int d, Weights w, double eps, double tau, double box, std::uint64_t seed) {
  PatternSpec s;
  s.L = L;
  s.k = k;
  s.weights = w;
  Rng rng(seed);
  const Pattern A = make_pattern(s, rng);
  const std::vector<float> K = keys(L, d, seed + 17);
  Tolerances tol;
  tol.eps = eps;
  tol.tau = tau;
  for (int i = 0; i < std::min(L, 6); ++i) {
    const LpProblem p = row_lp(A, i, K.data(), d, tol, box);
    const LpRow r = solve_row(A, i, K.data(), d, tol, box);
    std::printf("{\"n\":%d,\"m\":%d,\"c\":", p.n, p.m);
    print_array(p.c);
    std::printf(",\"G\":");
    print_array(p.G);
    std::printf(",\"h\":");
    print_array(p.h);
    std::vector<double> x = r.q;  // solve_row's (q, c, t): checked against every row of the full LP
    x.push_back(r.c);
    x.push_back(r.t);
    std::printf(",\"x\":");
    print_array(x);
    std::printf(",\"t\":%.17g,\"converged\":%s,\"iterations\":%d,\"rounds\":%d}\n", r.t,
                r.converged ? "true" : "false", r.iterations, r.rounds);
  }
}

}  // namespace

int main() {
  dump(16, 2, 4, Weights::Uniform, 1.0, 0.1, 1000, 1);
  dump(64, 2, 16, Weights::Uniform, 1.0, 0.1, 1000, 2);
  dump(64, 3, 24, Weights::Random, 0.5, 0.05, 1000, 3);
  dump(128, 2, 8, Weights::Uniform, 1.0, 0.1, 1000, 4);     // too small d: negative margins
  dump(256, 2, 30, Weights::Uniform, 1.0, 0.1, 1000, 5);
  dump(64, 2, 16, Weights::Uniform, 1.0, 0.1, 2.0, 6);      // the box binds
  return 0;
}
