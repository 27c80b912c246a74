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

// The constraint matrix G with its rows in two parts: the dense rows (two nonzeros or more, or
// none) and the singleton rows (one nonzero: bounds on one variable, such as §8.2's box), which
// only touch the diagonal of G^T W G. Internally the dense rows come first, each part in G's
// order; every row vector (h, s, z) of the iteration is in that internal order.
class Rows {
 public:
  explicit Rows(const LpProblem& p) : n_(p.n) {
    std::vector<int> dense;
    for (int r = 0; r < p.m; ++r) {
      const double* g = p.G.data() + std::size_t(r) * std::size_t(p.n);
      const int nonzeros = int(std::count_if(g, g + p.n, [](double v) { return v != 0; }));
      if (nonzeros == 1) {
        const int v = int(std::find_if(g, g + p.n, [](double x) { return x != 0; }) - g);
        var_.push_back(v);
        coef_.push_back(g[v]);
        single_.push_back(r);
      } else {
        dense.push_back(r);
      }
    }
    dense_.resize(Eigen::Index(dense.size()), p.n);
    for (std::size_t e = 0; e < dense.size(); ++e)
      dense_.row(Eigen::Index(e)) = Eigen::Map<const Vec>(p.G.data() + std::size_t(dense[e]) * std::size_t(p.n), p.n);
    order_ = dense;
    order_.insert(order_.end(), single_.begin(), single_.end());
  }

  // G x.
  Vec mul(const Vec& x) const {
    Vec y(Eigen::Index(order_.size()));
    const Eigen::Index nd = dense_.rows();
    y.head(nd).noalias() = dense_ * x;
    for (std::size_t e = 0; e < var_.size(); ++e) y[nd + Eigen::Index(e)] = coef_[e] * x[var_[e]];
    return y;
  }

  // G^T y.
  Vec mul_t(const Vec& y) const {
    const Eigen::Index nd = dense_.rows();
    Vec x = dense_.transpose() * y.head(nd);
    for (std::size_t e = 0; e < var_.size(); ++e) x[var_[e]] += coef_[e] * y[nd + Eigen::Index(e)];
    return x;
  }

  // The lower triangle of G^T diag(w) G (w > 0; the strict upper triangle is left zero).
  Eigen::MatrixXd normal(const Vec& w) const {
    const Eigen::Index nd = dense_.rows();
    const Mat scaled = w.head(nd).cwiseSqrt().asDiagonal() * dense_;
    Eigen::MatrixXd N = Eigen::MatrixXd::Zero(n_, n_);
    N.selfadjointView<Eigen::Lower>().rankUpdate(scaled.transpose());
    for (std::size_t e = 0; e < var_.size(); ++e) N(var_[e], var_[e]) += w[nd + Eigen::Index(e)] * coef_[e] * coef_[e];
    return N;
  }

  // A row vector of G's order in the internal order, and back.
  Vec to_internal(const std::vector<double>& v) const {
    Vec out(Eigen::Index(order_.size()));
    for (std::size_t r = 0; r < order_.size(); ++r) out[Eigen::Index(r)] = v[std::size_t(order_[r])];
    return out;
  }
  std::vector<double> to_original(const Vec& v) const {
    std::vector<double> out(order_.size());
    for (std::size_t r = 0; r < order_.size(); ++r) out[std::size_t(order_[r])] = v[Eigen::Index(r)];
    return out;
  }

 private:
  int n_;
  Mat dense_;
  std::vector<int> var_, single_;  // singleton rows: their variable and their row in G
  std::vector<double> coef_;       // and their coefficient
  std::vector<int> order_;         // internal row r is G's row order_[r]
};

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
Direction newton(const Rows& G, const Eigen::LDLT<Eigen::MatrixXd>& K, const Iterate& it, const Vec& rp,
                 const Vec& rd, const Vec& rc) {
  const Vec sinv = it.s.cwiseInverse();
  const Vec w = it.z.cwiseProduct(sinv);
  const Vec t = sinv.cwiseProduct(rc - it.z.cwiseProduct(rp));
  Direction d;
  const Vec rhs = -rd + G.mul_t(t);
  d.dx = K.solve(rhs);
  // One step of iterative refinement against G^T W G applied as products (not the factorised N,
  // which loses accuracy when W spans many decades near the optimum).
  d.dx += K.solve(rhs - G.mul_t(w.cwiseProduct(G.mul(d.dx))));
  const Vec Gdx = G.mul(d.dx);
  d.dz = -t + w.cwiseProduct(Gdx);
  d.ds = -rp - Gdx;
  return d;
}

// The factorised normal matrix G^T W G (+ a tiny diagonal keeping it positive definite).
Eigen::LDLT<Eigen::MatrixXd> normal_matrix(const Rows& G, const Iterate& it) {
  Eigen::MatrixXd N = G.normal(it.z.cwiseQuotient(it.s));
  const double scale = std::max(1.0, N.diagonal().cwiseAbs().maxCoeff());
  N.diagonal().array() += 1e-14 * scale;
  return Eigen::LDLT<Eigen::MatrixXd>(N);  // reads the lower triangle
}

// One Mehrotra predictor-corrector step from the residuals rp, rd. Returns false when the
// factorisation failed.
bool step(const Rows& G, const Vec& rp, const Vec& rd, Iterate& it) {
  const double m = double(it.s.size());
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
  const Rows G(p);
  const Vec h = G.to_internal(p.h), c = Eigen::Map<const Vec>(p.c.data(), p.n);
  Iterate it{Vec::Zero(p.n), (h.array().max(0.0) + 1.0).matrix(), Vec::Ones(p.m)};
  const double hn = 1.0 + h.lpNorm<Eigen::Infinity>(), cn = 1.0 + c.lpNorm<Eigen::Infinity>();
  LpSolution out;
  for (out.iterations = 0; out.iterations < o.max_iterations; ++out.iterations) {
    const Vec rp = G.mul(it.x) + it.s - h, rd = G.mul_t(it.z) + c;
    // The gap: |primal - dual objective| or, when the dual residual times a large x (a binding box
    // of 1000, say) keeps that above tolerance, the complementarity s·z it stands for.
    const double pobj = c.dot(it.x), dobj = -h.dot(it.z);
    const double gap = std::min(std::abs(pobj - dobj), it.s.dot(it.z)) / (1.0 + std::abs(pobj));
    if (rp.lpNorm<Eigen::Infinity>() / hn < o.tolerance && rd.lpNorm<Eigen::Infinity>() / cn < o.tolerance &&
        gap < o.tolerance) {
      out.converged = true;
      break;
    }
    if (!it.x.allFinite() || it.x.lpNorm<Eigen::Infinity>() > 1e30 || it.z.lpNorm<Eigen::Infinity>() > 1e30) {
      out.unbounded_or_infeasible = true;
      break;
    }
    if (!step(G, rp, rd, it)) break;
  }
  out.x.assign(it.x.data(), it.x.data() + p.n);
  out.z = G.to_original(it.z);
  out.objective = c.dot(it.x);
  return out;
}

}  // namespace attnx
