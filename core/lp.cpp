#include <attnx/lp.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <Eigen/Dense>

#include <attnx/errors.hpp>

namespace attnx {

namespace {

using Vec = Eigen::VectorXd;
using Mat = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The largest step a in (0, 1] with v + a dv >= 0 (v > 0).
double max_step(const Vec& v, const Vec& dv) {
  double a = 1.0;
  for (Eigen::Index i = 0; i < v.size(); ++i)
    if (dv[i] < 0) a = std::min(a, -v[i] / dv[i]);
  return a;
}

struct Iterate {
  Vec x, s, z;
};

struct Direction {
  Vec dx, ds, dz;
};

// Newton direction for the residuals rp = G x + s - h, rd = G^T z + c and complementarity target
// rc (s∘z - sigma mu e plus the corrector): normal equations (G^T W G) dx = -rd + G^T S^-1 (rc - Z rp),
// W = Z S^-1; then dz = S^-1 (Z rp - rc) + W G dx, ds = -rp - G dx.
Direction newton(const Mat& G, const Eigen::LDLT<Eigen::MatrixXd>& K, const Iterate& it, const Vec& rp,
                 const Vec& rd, const Vec& rc) {
  const Vec sinv = it.s.cwiseInverse();
  const Vec t = sinv.cwiseProduct(rc - it.z.cwiseProduct(rp));
  Direction d;
  d.dx = K.solve(-rd + G.transpose() * t);
  const Vec Gdx = G * d.dx;
  d.dz = -t + sinv.cwiseProduct(it.z).cwiseProduct(Gdx);
  d.ds = -rp - Gdx;
  return d;
}

// The factorised normal matrix G^T W G (+ a tiny diagonal keeping it positive definite).
Eigen::LDLT<Eigen::MatrixXd> normal_matrix(const Mat& G, const Iterate& it) {
  const Vec w = it.z.cwiseQuotient(it.s);
  Eigen::MatrixXd N = G.transpose() * w.asDiagonal() * G;
  const double scale = std::max(1.0, N.diagonal().cwiseAbs().maxCoeff());
  N.diagonal().array() += 1e-14 * scale;
  return Eigen::LDLT<Eigen::MatrixXd>(N);
}

// One Mehrotra predictor-corrector step. Returns false when the factorisation failed.
bool step(const Mat& G, const Vec& h, const Vec& c, Iterate& it) {
  const double m = double(it.s.size());
  const Vec rp = G * it.x + it.s - h, rd = G.transpose() * it.z + c;
  const double mu = it.s.dot(it.z) / m;
  const auto K = normal_matrix(G, it);
  if (K.info() != Eigen::Success) return false;
  const Direction aff = newton(G, K, it, rp, rd, it.s.cwiseProduct(it.z));
  const double a_aff = std::min(max_step(it.s, aff.ds), max_step(it.z, aff.dz));
  const double mu_aff = (it.s + a_aff * aff.ds).dot(it.z + a_aff * aff.dz) / m;
  const double sigma = std::pow(std::max(0.0, mu_aff) / mu, 3);
  const Vec rc = it.s.cwiseProduct(it.z) + aff.ds.cwiseProduct(aff.dz) - Vec::Constant(it.s.size(), sigma * mu);
  const Direction d = newton(G, K, it, rp, rd, rc);
  const double a = std::min(1.0, 0.99 * std::min(max_step(it.s, d.ds), max_step(it.z, d.dz)));
  it.x += a * d.dx;
  it.s += a * d.ds;
  it.z += a * d.dz;
  return true;
}

void check_sizes(const LpProblem& p) {
  if (p.n < 1 || p.m < 1 || p.c.size() != std::size_t(p.n) || p.h.size() != std::size_t(p.m) ||
      p.G.size() != std::size_t(p.n) * std::size_t(p.m))
    throw InvalidArgument("lp", "lp: sizes do not match (n = " + std::to_string(p.n) + ", m = " + std::to_string(p.m) + ")");
}

}  // namespace

LpSolution solve_lp(const LpProblem& p, const LpOptions& o) {
  check_sizes(p);
  const Mat G = Eigen::Map<const Mat>(p.G.data(), p.m, p.n);
  const Vec h = Eigen::Map<const Vec>(p.h.data(), p.m), c = Eigen::Map<const Vec>(p.c.data(), p.n);
  Iterate it{Vec::Zero(p.n), (h.array().max(0.0) + 1.0).matrix(), Vec::Ones(p.m)};
  const double hn = 1.0 + h.lpNorm<Eigen::Infinity>(), cn = 1.0 + c.lpNorm<Eigen::Infinity>();
  LpSolution out;
  for (out.iterations = 0; out.iterations < o.max_iterations; ++out.iterations) {
    const double rp = (G * it.x + it.s - h).lpNorm<Eigen::Infinity>() / hn;
    const double rd = (G.transpose() * it.z + c).lpNorm<Eigen::Infinity>() / cn;
    const double pobj = c.dot(it.x), dobj = -h.dot(it.z);
    const double gap = std::abs(pobj - dobj) / (1.0 + std::abs(pobj));
    if (rp < o.tolerance && rd < o.tolerance && gap < o.tolerance) {
      out.converged = true;
      break;
    }
    if (!it.x.allFinite() || it.x.lpNorm<Eigen::Infinity>() > 1e30 || it.z.lpNorm<Eigen::Infinity>() > 1e30) {
      out.unbounded_or_infeasible = true;
      break;
    }
    if (!step(G, h, c, it)) break;
  }
  out.x.assign(it.x.data(), it.x.data() + p.n);
  out.z.assign(it.z.data(), it.z.data() + p.m);
  out.objective = c.dot(it.x);
  return out;
}

}  // namespace attnx
