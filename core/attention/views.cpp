#include <attnx/views.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include <attnx/errors.hpp>

#include "base/vec4.hpp"

namespace attnx {

namespace {

void require_pixels(const char* name, int v) {
  if (v < 1 || v > kMaxViewPixels)
    throw InvalidArgument(name, std::string(name) + " must be an integer from 1 to " +
                                    std::to_string(kMaxViewPixels) + " (got " + std::to_string(v) + ")");
}

Pooled make_pooled(int rows, int cols, int budget_r, int budget_c, float fill) {
  Pooled p;
  p.fr = pool_factor(rows, budget_r);
  p.fc = pool_factor(cols, budget_c);
  p.h = pool_size(rows, budget_r);
  p.w = pool_size(cols, budget_c);
  p.data.assign(static_cast<std::size_t>(p.w) * p.h, fill);
  return p;
}

// Column by column over the fr rows of one pixel row of M: the largest entry (NaN skipped; -inf
// when none) and the smallest positive entry (+inf when none). Element-wise across rows, four
// columns at a time.
void fold_rows(const float* m, int rows, int L, float* top, float* low) {
  using namespace vec;
  const float inf = std::numeric_limits<float>::infinity();
  std::fill(top, top + L, -inf);
  std::fill(low, low + L, inf);
  const F4 zero = splat4(0.0f);
  for (int i = 0; i < rows; ++i) {
    const float* r = m + static_cast<std::size_t>(i) * L;
    int j = 0;
    for (; j + 4 <= L; j += 4) {
      const F4 x = load4(r + j), t = load4(top + j), lo = load4(low + j);
      store4(top + j, select(x > t, x, t));  // NaN never wins; an equal later value does not either
      store4(low + j, select((x > zero) & (x < lo), x, lo));
    }
    for (; j < L; ++j) {
      const float x = r[j];
      top[j] = x > top[j] ? x : top[j];
      low[j] = (x > 0 && x < low[j]) ? x : low[j];
    }
  }
}

// The lanes p[0], p[f], p[2 f], ... of a vector (one per lane).
inline vec::F4 strided(const float* p, int f) { return vec::F4{p[0], p[f], p[2 * f], p[3 * f]}; }
inline vec::D2 strided(const double* p, int f) { return vec::D2{p[0], p[f]}; }

// cm[q] = the largest of x[q f .. min(n, (q + 1) f)) for each of the ceil(n / f) cells (-inf when
// a cell holds only NaN; x never holds NaN here). Several whole cells at a time, one per lane of V,
// so the comparisons do not branch. Of equal +0 and -0 either may be kept:
// the callers scan such cells again.
template <class T, class V>
void cell_maxima(const T* x, int n, int f, std::vector<T>& cm) {
  constexpr int N = static_cast<int>(sizeof(V) / sizeof(T));
  const T inf = std::numeric_limits<T>::infinity(), lowest[4] = {-inf, -inf, -inf, -inf};
  const int cells = (n + f - 1) / f, whole = n / f;
  cm.assign(static_cast<std::size_t>(cells), -inf);
  int q = 0;
  for (; q + N <= whole; q += N) {
    const T* p = x + static_cast<std::size_t>(q) * f;
    V acc = strided(lowest, 1);
    for (int k = 0; k < f; ++k) {
      const V v = strided(p + k, f);
      acc = vec::select(v > acc, v, acc);
    }
    std::memcpy(cm.data() + q, &acc, sizeof acc);
  }
  for (; q < cells; ++q)
    for (int j = q * f; j < std::min(n, (q + 1) * f); ++j) cm[q] = x[j] > cm[q] ? x[j] : cm[q];
}

// M's cell of rows [i0, i1) and columns [j0, j1) scanned entry by entry in row-major order: the
// first largest value (NaN skipped), or `out` unchanged when the cell holds only NaN. For the
// cells whose folded maximum is 0 (+0 and -0 differ in bits: the row-major first is kept) or -inf
// (NaN only, or a -inf there).
void attention_cell_exact(const float* M, int L, int i0, int i1, int j0, int j1, float& out) {
  bool any = false;
  float best = 0;
  for (int i = i0; i < i1; ++i)
    for (int j = j0; j < j1; ++j) {
      const float x = M[static_cast<std::size_t>(i) * L + j];
      if (x == x && (!any || x > best)) best = x, any = true;
    }
  if (any) out = best;
}

// mx = max(mx, top[j]) and mn = min(mn, low[j]) over j < L (neither holds NaN: max and min are
// exact, in any order), four lanes at a time.
void extremes(const float* top, const float* low, int L, float& mx, float& mn) {
  using namespace vec;
  F4 hi = splat4(mx), lo = splat4(mn);
  int j = 0;
  for (; j + 4 <= L; j += 4) {
    const F4 t = load4(top + j), l = load4(low + j);
    hi = select(t > hi, t, hi);
    lo = select(l < lo, l, lo);
  }
  for (int q = 0; q < 4; ++q) {
    mx = hi[q] > mx ? hi[q] : mx;
    mn = lo[q] < mn ? lo[q] : mn;
  }
  for (; j < L; ++j) {
    mx = top[j] > mx ? top[j] : mx;
    mn = low[j] < mn ? low[j] : mn;
  }
}

// Max-pools M (NaN skipped; a cell of NaN only stays NaN) and finds its largest and smallest
// positive entry: each pixel row folds its fr rows column by column, then its cells. Max and min
// are exact, and a cell whose maximum is 0 or -inf is scanned again in row-major order, so every
// value is the row-by-row scan's, bit for bit.
void pool_attention(const Construction& c, const ViewRequest& r, Views& v) {
  const int L = c.L;
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  v.M = make_pooled(L, L, r.size, r.size, nan);
  std::vector<float> top(static_cast<std::size_t>(L)), low(static_cast<std::size_t>(L)), cm;
  float mx = 0, mn = inf;
  for (int i0 = 0, y = 0; i0 < L; i0 += v.M.fr, ++y) {
    const int i1 = std::min(L, i0 + v.M.fr);
    fold_rows(c.M.data() + static_cast<std::size_t>(i0) * L, i1 - i0, L, top.data(), low.data());
    cell_maxima<float, vec::F4>(top.data(), L, v.M.fc, cm);
    float* out = v.M.data.data() + static_cast<std::size_t>(y) * v.M.w;
    for (int j0 = 0, q = 0; j0 < L; j0 += v.M.fc, ++q) {
      if (cm[q] == 0 || cm[q] == -inf) attention_cell_exact(c.M.data(), L, i0, i1, j0, std::min(L, j0 + v.M.fc), out[q]);
      else out[q] = cm[q];
    }
    extremes(top.data(), low.data(), L, mx, mn);
  }
  v.m_max = mx;
  v.m_min_positive = mn;
}

// Whether (i, j) is in A's support (a scan of row i's entries: used only by the exact scans).
bool on_support(const Pattern& A, int i, int j) {
  for (int e = A.row_begin(i); e < A.row_end(i); ++e)
    if (A.col[e] == j) return true;
  return false;
}

// The zero-ratio pixel of rows [i0, i1) and columns [j0, j1), row by row as the reference scan
// does: per row the largest off-support logit of the cell is mapped, x -> (x - min_{S_i} Z) /
// ln 10 (each entry mapped when min_{S_i} Z is not finite: inf - inf), and the cell keeps the
// first largest value (NaN when it holds no off-support number).
float zero_cell_exact(const Pattern& A, const Construction& c, int i0, int i1, int j0, int j1) {
  const double ln10 = std::log(10.0);
  float out = std::numeric_limits<float>::quiet_NaN();
  const auto keep = [&out](float val) {
    if (std::isnan(out) || val > out) out = val;
  };
  for (int i = i0; i < i1; ++i) {
    const float* z = c.logits.data() + static_cast<std::size_t>(i) * c.L;
    const double zmin = c.rows.support_min_logit[static_cast<std::size_t>(i)];
    float best = -std::numeric_limits<float>::infinity();
    bool any = false;
    for (int j = j0; j < j1; ++j) {
      const float x = z[j];
      if (x != x || on_support(A, i, j)) continue;
      any = true;
      if (!std::isfinite(zmin)) keep(static_cast<float>((double(x) - zmin) / ln10));
      else best = x > best ? x : best;
    }
    if (any && std::isfinite(zmin)) keep(static_cast<float>((double(best) - zmin) / ln10));
  }
  return out;
}

// Column by column over rows [i0, i1) of the logits: the largest double(Z_ij) - min_{S_i} Z off
// the support (NaN skipped; -inf when none), element-wise, two columns at a time. row: scratch.
void fold_zero_rows(const Pattern& A, const Construction& c, int i0, int i1, float* row, double* top) {
  using namespace vec;
  const int L = c.L;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::fill(top, top + L, -std::numeric_limits<double>::infinity());
  for (int i = i0; i < i1; ++i) {
    const float* z = c.logits.data() + static_cast<std::size_t>(i) * L;
    std::copy(z, z + L, row);
    for (int e = A.row_begin(i); e < A.row_end(i); ++e) row[A.col[e]] = nan;
    const double zmin = c.rows.support_min_logit[static_cast<std::size_t>(i)];
    int j = 0;
    for (; j + 2 <= L; j += 2) {
      const D2 t = D2{double(row[j]), double(row[j + 1])} - zmin;
      D2 best;
      std::memcpy(&best, top + j, sizeof best);
      best = select(t > best, t, best);
      std::memcpy(top + j, &best, sizeof best);
    }
    for (; j < L; ++j) {
      const double t = double(row[j]) - zmin;
      top[j] = t > top[j] ? t : top[j];
    }
  }
}

// Whether every row in [i0, i1) has a finite smallest support logit (the fold needs it).
bool finite_support_mins(const Construction& c, int i0, int i1) {
  for (int i = i0; i < i1; ++i)
    if (!std::isfinite(c.rows.support_min_logit[static_cast<std::size_t>(i)])) return false;
  return true;
}

// log10 of the zero ratio off the support, max-pooled; NaN where a cell holds only support. Each
// pixel row folds its rows' double(Z_ij) - min_{S_i} Z column by column, then maps each cell's
// largest once: the map is non-decreasing, so this is the row-by-row scan's largest mapped value.
// Cells where the value's bits could differ (0: +0 or -0; -inf: no number or a -inf) and pixel
// rows holding a row whose min_{S_i} Z is not finite are scanned as the reference does.
void pool_zero(const Pattern& A, const Construction& c, const ViewRequest& r, Views& v) {
  const int L = c.L;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  v.zero = make_pooled(L, L, r.size, r.size, nan);
  const double ln10 = std::log(10.0);
  std::vector<float> row(static_cast<std::size_t>(L));
  std::vector<double> top(static_cast<std::size_t>(L)), cm;
  for (int i0 = 0, y = 0; i0 < L; i0 += v.zero.fr, ++y) {
    const int i1 = std::min(L, i0 + v.zero.fr);
    const bool fast = finite_support_mins(c, i0, i1);
    if (fast) {
      fold_zero_rows(A, c, i0, i1, row.data(), top.data());
      cell_maxima<double, vec::D2>(top.data(), L, v.zero.fc, cm);
    }
    float* out = v.zero.data.data() + static_cast<std::size_t>(y) * v.zero.w;
    for (int j0 = 0, q = 0; j0 < L; j0 += v.zero.fc, ++q) {
      const double best = fast ? cm[q] : 0;
      const float val = static_cast<float>(best / ln10);
      if (fast && val != 0 && best > -std::numeric_limits<double>::infinity()) out[q] = val;
      else out[q] = zero_cell_exact(A, c, i0, i1, j0, std::min(L, j0 + v.zero.fc));
    }
  }
}

// Adds row i (n values) of a matrix to p: value of largest magnitude per cell (the first in
// row-major order on a tie of opposite signs, as the page's pooling keeps it). Per cell the
// largest and smallest entries are found (vectorisable); only an exact tie |max| == |min| is
// settled by a scan in order. big: the largest |value| so far.
void pool_abs_max_row(const float* x, int n, int i, Pooled& p, float& big) {
  float* out = p.data.data() + static_cast<std::size_t>(i / p.fr) * p.w;
  for (int j0 = 0, q = 0; j0 < n; j0 += p.fc, ++q) {
    const int j1 = std::min(n, j0 + p.fc);
    float hi = 0, lo = 0;
    for (int j = j0; j < j1; ++j) {
      hi = x[j] > hi ? x[j] : hi;
      lo = x[j] < lo ? x[j] : lo;
    }
    float pick = hi > -lo ? hi : lo;
    if (hi == -lo && hi != 0)
      for (int j = j0; j < j1; ++j)
        if (std::fabs(x[j]) == hi) { pick = x[j]; break; }
    if (std::fabs(pick) > std::fabs(out[q])) out[q] = pick;
    big = std::max(big, std::fabs(pick));
  }
}

// Both halves of X, read from c.X, or (c.X empty) made row by row from the projection P (L x d
// column-major) with the same operations as construct's X.
void pool_inputs(const Pattern& A, const Construction& c, const ViewRequest& r, const float* P, Views& v) {
  const int L = c.L, d = c.d;
  v.XB = make_pooled(L, d, r.x_rows, r.x_cols, 0.0f);
  v.XP = make_pooled(L, d, r.x_rows, r.x_cols, 0.0f);
  float bb = 0, bp = 0;
  if (!c.X.empty()) {
    for (int i = 0; i < L; ++i) {
      const float* x = c.X.data() + static_cast<std::size_t>(i) * 2 * d;
      pool_abs_max_row(x, d, i, v.XB, bb);
      pool_abs_max_row(x + d, d, i, v.XP, bp);
    }
  } else {
    if (!P) throw InvalidArgument("views", "pool_views: the construction has no X and no projection was given");
    const std::vector<float> Ps =
        scaled_projection_rows(P, L, d, projection_scale_of(c.projection, P, L, d));
    std::vector<double> acc;
    std::vector<float> left(static_cast<std::size_t>(d));
    for (int i = 0; i < L; ++i) {
      input_left_row(A, c.B, Ps.data(), d, i, acc, left.data());
      pool_abs_max_row(left.data(), d, i, v.XB, bb);
      pool_abs_max_row(Ps.data() + static_cast<std::size_t>(i) * d, d, i, v.XP, bp);
    }
  }
  v.xb_max = bb;
  v.xp_max = bp;
}

}  // namespace

int pool_factor(int n, int budget) { return std::max(1, (n + budget - 1) / budget); }
int pool_size(int n, int budget) {
  const int f = pool_factor(n, budget);
  return (n + f - 1) / f;
}

void validate(const ViewRequest& r) {
  require_pixels("views.size", r.size);
  require_pixels("views.xRows", r.x_rows);
  require_pixels("views.xCols", r.x_cols);
}

Views pool_views(const Pattern& A, const Construction& c, const ViewRequest& r, const float* P) {
  validate(r);
  Views v;
  v.request = r;
  pool_attention(c, r, v);
  pool_zero(A, c, r, v);
  if (r.inputs) pool_inputs(A, c, r, P, v);
  return v;
}

}  // namespace attnx
