// attnx core: the first-order method of the `opt` construction (see opt_descent.hpp): the logits'
// twin kernels, the squared-hinge penalty of SPEC §10.1 and its gradient row by row, projected Adam.
#include <attnx/opt_descent.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/detmath.hpp>
#include <attnx/rng.hpp>

#include "base/vec4.hpp"

namespace attnx {

namespace {

using vec::F4;

// Rows i .. i+n-1 (n <= 4) of Z, four columns at a time: one lane per column, t ascending.
void logits_rows_vector(const float* U, const float* Vt, int L, int D, float scale, int i, int n, float* Z) {
  const std::size_t l = static_cast<std::size_t>(L);
  int j = 0;
  for (; j + 4 <= L; j += 4) {
    F4 acc[4] = {vec::splat4(0), vec::splat4(0), vec::splat4(0), vec::splat4(0)};
    for (int t = 0; t < D; ++t) {
      const F4 v = vec::load4(Vt + static_cast<std::size_t>(t) * l + j);
      for (int q = 0; q < n; ++q) acc[q] += vec::splat4(U[static_cast<std::size_t>(i + q) * D + t]) * v;
    }
    for (int q = 0; q < n; ++q) vec::store4(Z + static_cast<std::size_t>(i + q) * l + j, acc[q] * vec::splat4(scale));
  }
  for (; j < L; ++j)
    for (int q = 0; q < n; ++q) {
      float acc = 0;
      for (int t = 0; t < D; ++t) acc += U[static_cast<std::size_t>(i + q) * D + t] * Vt[static_cast<std::size_t>(t) * l + j];
      Z[static_cast<std::size_t>(i + q) * l + j] = acc * scale;
    }
}

void logits_row_scalar(const float* U, const float* Vt, int L, int D, float scale, int i, float* Z) {
  const std::size_t l = static_cast<std::size_t>(L);
  for (int j = 0; j < L; ++j) {
    float acc = 0;
    for (int t = 0; t < D; ++t) acc += U[static_cast<std::size_t>(i) * D + t] * Vt[static_cast<std::size_t>(t) * l + j];
    Z[static_cast<std::size_t>(i) * l + j] = acc * scale;
  }
}

// Row r of M (L x D row-major) scaled into the unit ball: divided by its norm when that is above 1.
void project_row(float* r, int D) {
  float n2 = 0;
  for (int t = 0; t < D; ++t) n2 += r[t] * r[t];
  const float n = std::sqrt(n2);
  if (n > 1.0f)
    for (int t = 0; t < D; ++t) r[t] /= n;
}

// One Adam step of parameters p with gradient g and moments m, v: c1 = 1 / (1 - b1^t), c2 = 1 / (1 - b2^t).
void adam(std::vector<float>& p, const std::vector<float>& g, std::vector<float>& m, std::vector<float>& v,
          const OptSettings& set, float c1, float c2) {
  const float a1 = 1.0f - set.b1, a2 = 1.0f - set.b2;
  for (std::size_t n = 0; n < p.size(); ++n) {
    m[n] = set.b1 * m[n] + a1 * g[n];
    v[n] = set.b2 * v[n] + a2 * g[n] * g[n];
    p[n] -= set.lr * (m[n] * c1) / (std::sqrt(v[n] * c2) + set.adam_eps);
  }
}

// The gradient of one row's penalty with respect to its logits, applied to gU and gV at once:
// gU_i += w g_ij v_j, gV_j += w g_ij u_i with w = scale (dZ/dU = scale V).
struct RowGrad {
  const OptState& s;
  float w;
  std::vector<float>& gU;
  std::vector<float>& gV;
  void add(int i, int j, float g) const {
    const int D = s.D;
    const float c = w * g;
    const float* u = s.U.data() + static_cast<std::size_t>(i) * D;
    const float* v = s.V.data() + static_cast<std::size_t>(j) * D;
    float* gu = gU.data() + static_cast<std::size_t>(i) * D;
    float* gv = gV.data() + static_cast<std::size_t>(j) * D;
    for (int t = 0; t < D; ++t) gu[t] += c * v[t];
    for (int t = 0; t < D; ++t) gv[t] += c * u[t];
  }
};

// The off-support entries of row z that are above thr (their indices, ascending, into `active`)
// and the largest off-support entry (-inf when the support is the whole row). The support's
// entries are set to -inf while the row is read four at a time, then restored.
float scan_row(const Pattern& A, int i, float* z, float thr, std::vector<float>& saved, std::vector<int>& active) {
  const int b = A.row_begin(i), e = A.row_end(i);
  saved.clear();
  for (int p = b; p < e; ++p) saved.push_back(z[A.col[p]]), z[A.col[p]] = -INFINITY;
  active.clear();
  vec::F4 mx = vec::splat4(-INFINITY);
  const vec::F4 t4 = vec::splat4(thr);
  int j = 0;
  for (; j + 4 <= A.L; j += 4) {
    const vec::F4 v = vec::load4(z + j);
    mx = vec::select(v > mx, v, mx);
    const vec::I4 m = v > t4;
    if (m[0] | m[1] | m[2] | m[3])
      for (int q = 0; q < 4; ++q)
        if (m[q]) active.push_back(j + q);
  }
  float off = std::max(std::max(mx[0], mx[1]), std::max(mx[2], mx[3]));
  for (; j < A.L; ++j) {
    off = std::max(off, z[j]);
    if (z[j] > thr) active.push_back(j);
  }
  for (int p = b; p < e; ++p) z[A.col[p]] = saved[p - b];
  return off;
}

// Scratch of row_penalty, kept across rows: the support's saved logits, the active columns, the
// support's gradient.
struct RowScratch {
  std::vector<float> saved, gs;
  std::vector<int> active;
};

// Row i's penalty from its logits z (SPEC §10.1 with (Z) against the row's smallest support
// logit m: h(z_j - m + Delta + mu)^2 for j off the support; (R) on every pair of the support), its
// gradient into g, and SPEC §2's margins on z: (Z) m - Delta - max off z_j, (R) eps - the spread.
double row_penalty(const OptTarget& t, int i, float* z, float mu, const RowGrad& g, RowScratch& w,
                   double* zero_margin, double* ratio_margin) {
  const Pattern& A = *t.A;
  const int b = A.row_begin(i), e = A.row_end(i);
  const float c = static_cast<float>(t.delta) + mu;
  int low = b;  // the smallest support logit (the first of equal ones)
  for (int p = b + 1; p < e; ++p)
    if (z[A.col[p]] < z[A.col[low]]) low = p;
  const float m = z[A.col[low]];
  double P = 0;
  w.gs.assign(static_cast<std::size_t>(e - b), 0.0f);
  const float off = scan_row(A, i, z, m - c, w.saved, w.active);
  for (const int j : w.active) {
    const float h = z[j] - m + c;
    P += double(h) * double(h);
    g.add(i, j, 2 * h);
    w.gs[low - b] -= 2 * h;
  }
  double lo = INFINITY, hi = -INFINITY;
  for (int p = b; p < e; ++p) {
    const double r = double(z[A.col[p]]) - t.log_a[p];
    lo = std::min(lo, r), hi = std::max(hi, r);
    for (int q = p + 1; q < e; ++q) {
      const float d = static_cast<float>(r - (double(z[A.col[q]]) - t.log_a[q]));
      const float h = std::fabs(d) - static_cast<float>(t.eps) + mu;
      if (!(h > 0)) continue;
      P += double(h) * double(h);
      const float gd = d > 0 ? 2 * h : -2 * h;
      w.gs[p - b] += gd, w.gs[q - b] -= gd;
    }
  }
  for (int p = b; p < e; ++p)
    if (w.gs[p - b] != 0) g.add(i, A.col[p], w.gs[p - b]);
  *zero_margin = e - b == A.L ? INFINITY : double(m) - t.delta - double(off);
  *ratio_margin = t.eps - (hi - lo);
  return P;
}

}  // namespace

void opt_logits(const float* U, const float* Vt, int L, int D, float scale, int i0, int i1, float* Z, OptKernel kernel) {
  if (kernel == OptKernel::Scalar) {
    for (int i = i0; i < i1; ++i) logits_row_scalar(U, Vt, L, D, scale, i, Z);
    return;
  }
  for (int i = i0; i < i1; i += 4) logits_rows_vector(U, Vt, L, D, scale, i, std::min(4, i1 - i), Z);
}

OptState opt_start(int L, int D, std::uint64_t seed, int retry) {
  OptState s;
  s.L = L, s.D = D;
  const std::size_t n = static_cast<std::size_t>(L) * static_cast<std::size_t>(D);
  const std::uint64_t stream = derive_seed(seed, kOptStream, static_cast<std::uint64_t>(D));
  Rng rng(retry > 0 ? derive_seed(stream, static_cast<std::uint64_t>(retry), 0) : stream);
  for (std::vector<float>* m : {&s.U, &s.V}) {
    m->resize(n);
    for (std::size_t r = 0; r < n; r += static_cast<std::size_t>(D)) {
      double n2 = 0;
      std::vector<double> x(static_cast<std::size_t>(D));
      for (double& v : x) v = rng.normal(), n2 += v * v;
      const double norm = std::sqrt(n2);
      for (int t = 0; t < D; ++t) (*m)[r + t] = static_cast<float>(x[t] / norm);
    }
  }
  s.mU.assign(n, 0), s.vU.assign(n, 0), s.mV.assign(n, 0), s.vV.assign(n, 0);
  return s;
}

OptTarget opt_target(const Pattern& A, const Tolerances& tol) {
  OptTarget t;
  t.A = &A;
  t.log_a.resize(A.val.size());
  for (std::size_t e = 0; e < A.val.size(); ++e) t.log_a[e] = det_log(A.val[e]);
  t.log_tau = det_log(tol.tau);
  t.delta = -t.log_tau;
  t.eps = tol.eps;
  return t;
}

namespace {

// The penalty of the logits Z (all rows), its gradient into gU, gV, and whether §2 holds with
// `margin` to spare.
double penalty_of(const OptTarget& t, const OptState& s, float* Z, float scale, float mu, double margin,
                  std::vector<float>& gU, std::vector<float>& gV, bool* passes) {
  std::fill(gU.begin(), gU.end(), 0.0f);
  std::fill(gV.begin(), gV.end(), 0.0f);
  const RowGrad g{s, scale, gU, gV};
  RowScratch w;
  double P = 0, zm = INFINITY, rm = INFINITY;
  for (int i = 0; i < s.L; ++i) {
    double z = 0, r = 0;
    P += row_penalty(t, i, Z + static_cast<std::size_t>(i) * static_cast<std::size_t>(s.L), mu, g, w, &z, &r);
    zm = std::min(zm, z), rm = std::min(rm, r);
  }
  *passes = zm >= margin && rm >= margin;
  return P;
}

// The buffers of one descent (the logits, V transposed, the gradients) and its guard's and
// plateau's memory.
struct Descent {
  std::vector<float> Z, Vt, gU, gV;
  double best = INFINITY;
  OptState kept;           // the guard's best state
  std::vector<double> penalties;  // every step's, for the plateau rule
};

// The logits and penalty of state s into d, and whether §2 holds on them.
double judge(const OptTarget& t, double scale, const OptSettings& set, const OptState& s, Descent& d, bool* passes) {
  const std::size_t l = static_cast<std::size_t>(s.L);
  for (std::size_t j = 0; j < l; ++j)
    for (int q = 0; q < s.D; ++q) d.Vt[static_cast<std::size_t>(q) * l + j] = s.V[j * s.D + q];
  opt_logits(s.U.data(), d.Vt.data(), s.L, s.D, static_cast<float>(scale), 0, s.L, d.Z.data(), set.kernel);
  return penalty_of(t, s, d.Z.data(), static_cast<float>(scale), set.margin, set.check_margin, d.gU, d.gV, passes);
}

// The plateau rule at step k of this run (the penalties so far in d): true when it stops the run.
bool plateau(const OptSettings& set, const Descent& d, int k) {
  const int w = set.plateau_window;
  if (k < set.plateau_from || k % w != 0 || static_cast<int>(d.penalties.size()) <= w) return false;
  const auto split = d.penalties.end() - w;
  return *std::min_element(split, d.penalties.end()) > set.plateau_ratio * *std::min_element(d.penalties.begin(), split);
}

// One projected Adam step of s with the gradients in d.
void step(const OptSettings& set, OptState& s, const Descent& d) {
  ++s.steps;
  s.p1 *= set.b1, s.p2 *= set.b2;
  const float c1 = static_cast<float>(1.0 / (1.0 - s.p1)), c2 = static_cast<float>(1.0 / (1.0 - s.p2));
  OptSettings at = set;
  at.lr = static_cast<float>(set.lr * s.lr_scale);
  adam(s.U, d.gU, s.mU, s.vU, at, c1, c2);
  adam(s.V, d.gV, s.mV, s.vV, at, c1, c2);
  const std::size_t n = s.U.size();
  for (std::size_t r = 0; r < n; r += static_cast<std::size_t>(s.D)) {
    project_row(s.U.data() + r, s.D);
    project_row(s.V.data() + r, s.D);
  }
}

}  // namespace

OptOutcome opt_descend(const OptTarget& t, double scale, const OptSettings& set, int steps, OptState& s,
                       const Progress& progress, bool stop_when_passing) {
  const std::size_t l = static_cast<std::size_t>(s.L), n = l * static_cast<std::size_t>(s.D);
  Descent d{std::vector<float>(l * l), std::vector<float>(n), std::vector<float>(n), std::vector<float>(n)};
  OptOutcome out;
  for (int k = 0;; ++k) {
    out.penalty = judge(t, scale, set, s, d, &out.passes);
    out.steps = s.steps;
    if ((out.passes && stop_when_passing) || k == steps) return out;
    if (progress && k % 16 == 0 && !progress(double(k) / steps)) return out.cancelled = true, out;
    d.penalties.push_back(out.penalty);
    if (stop_when_passing && plateau(set, d, k)) return out.plateau = true, out;
    if (out.penalty < d.best) {
      d.best = out.penalty, d.kept = s;
    } else if (k >= set.guard_from && out.penalty > set.guard_ratio * d.best) {
      const double lr = s.lr_scale * set.guard_factor;
      const int taken = s.steps;
      s = d.kept;  // back to the best state, at a smaller learning rate from now on
      s.lr_scale = d.kept.lr_scale = lr;
      s.steps = taken;
      judge(t, scale, set, s, d, &out.passes);
    }
    step(set, s, d);
  }
}

std::vector<double> opt_inputs(const OptState& s, double scale) {
  const std::size_t l = static_cast<std::size_t>(s.L), d = static_cast<std::size_t>(s.D);
  const double f = std::sqrt(scale * std::sqrt(double(s.D)) * (1.0 - std::ldexp(1.0, -20)));
  std::vector<double> X(l * 2 * d);
  for (std::size_t i = 0; i < l; ++i)
    for (std::size_t t = 0; t < d; ++t) {
      X[i * 2 * d + t] = f * double(s.U[i * d + t]);
      X[i * 2 * d + d + t] = f * double(s.V[i * d + t]);
    }
  return X;
}

}  // namespace attnx
