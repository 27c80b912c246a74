#include <attnx/views.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <attnx/errors.hpp>

namespace attnx {

namespace {

void require_pixels(const char* name, int v) {
  if (v < 1 || v > kMaxViewPixels)
    throw InvalidArgument(name, std::string(name) + " must be an integer from 1 to " +
                                    std::to_string(kMaxViewPixels) + " (got " + std::to_string(v) + ")");
}

// Whether x[j0..j1) holds a number (not only NaN), given its largest value `best` (-inf when no
// entry was larger): only a cell of -inf or NaN entries needs the scan.
bool has_number(const float* x, int j0, int j1, float best) {
  if (best > -std::numeric_limits<float>::infinity()) return true;
  for (int j = j0; j < j1; ++j)
    if (x[j] == x[j]) return true;
  return false;
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
// when none) and the first row holding it, whether a number (not NaN) is there, and the smallest
// positive entry (+inf when none). Element-wise across rows, so the loop vectorises.
struct Folded {
  std::vector<float> top, low;
  std::vector<int> first;
  std::vector<unsigned char> num;
  explicit Folded(std::size_t l) : top(l), low(l), first(l), num(l) {}
};

void fold_rows(const float* m, int rows, int L, Folded& f) {
  const float inf = std::numeric_limits<float>::infinity();
  std::fill(f.top.begin(), f.top.end(), -inf);
  std::fill(f.low.begin(), f.low.end(), inf);
  std::fill(f.first.begin(), f.first.end(), 0);
  std::fill(f.num.begin(), f.num.end(), 0);
  for (int i = 0; i < rows; ++i) {
    const float* r = m + static_cast<std::size_t>(i) * L;
    for (int j = 0; j < L; ++j) {
      const float x = r[j];
      const bool up = x > f.top[j];  // NaN never wins; an equal later value does not either
      f.top[j] = up ? x : f.top[j];
      f.first[j] = up ? i : f.first[j];
      f.num[j] = static_cast<unsigned char>(f.num[j] | (x == x));
      f.low[j] = x > 0 && x < f.low[j] ? x : f.low[j];
    }
  }
}

// Cell [j0, j1) of a folded pixel row: its largest value, the first in row-major order among equal
// ones (as a row-by-row scan keeps it), so of +0 and -0 the earlier one. false: no number there.
bool cell_of(const Folded& f, int j0, int j1, float& out) {
  float best = -std::numeric_limits<float>::infinity();
  bool any = false;
  int at = j0;
  for (int j = j0; j < j1; ++j) {
    if (f.top[j] > best) best = f.top[j], at = j;
    any = any || f.num[j];
  }
  if (best == 0)  // equal values differ in bits only as +0 and -0: the earliest (row, column) wins
    for (int j = j0; j < j1; ++j)
      if (f.top[j] == 0 && f.first[j] < f.first[at]) at = j;
  if (any) out = f.top[at];
  return any;
}

// Max-pools M (NaN skipped; a cell of NaN only stays NaN) and finds its largest and smallest
// positive entry: each pixel row folds its fr rows column by column, then its cells. Max and min
// are exact, and ties keep the row-major first, so every value is the row-by-row scan's, bit for
// bit.
void pool_attention(const Construction& c, const ViewRequest& r, Views& v) {
  const int L = c.L;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  v.M = make_pooled(L, L, r.size, r.size, nan);
  const std::size_t l = static_cast<std::size_t>(L);
  Folded f(l);
  float mx = 0, mn = std::numeric_limits<float>::infinity();
  for (int i0 = 0, y = 0; i0 < L; i0 += v.M.fr, ++y) {
    fold_rows(c.M.data() + static_cast<std::size_t>(i0) * l, std::min(v.M.fr, L - i0), L, f);
    float* out = v.M.data.data() + static_cast<std::size_t>(y) * v.M.w;
    for (int j0 = 0, q = 0; j0 < L; j0 += v.M.fc, ++q) cell_of(f, j0, std::min(L, j0 + v.M.fc), out[q]);
    for (int j = 0; j < L; ++j) {
      mx = f.top[j] > mx ? f.top[j] : mx;
      mn = f.low[j] < mn ? f.low[j] : mn;
    }
  }
  v.m_max = mx;
  v.m_min_positive = mn;
}

// log10 of the zero ratio off the support, max-pooled; NaN where a cell holds only support. Per
// row and cell the largest off-support logit is found first (NaN skipped, as the page's pooling
// does) and mapped once: x -> (x - min_{S_i} Z) / ln 10 is non-decreasing, so this is the largest
// mapped value, bit for bit.
void pool_zero(const Pattern& A, const Construction& c, const ViewRequest& r, Views& v) {
  const int L = c.L, fc = pool_factor(L, r.size);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  v.zero = make_pooled(L, L, r.size, r.size, nan);
  const double ln10 = std::log(10.0);
  std::vector<float> row(static_cast<std::size_t>(L));
  for (int i = 0; i < L; ++i) {
    const float* z = c.logits.data() + static_cast<std::size_t>(i) * L;
    std::copy(z, z + L, row.begin());
    for (int e = A.row_begin(i); e < A.row_end(i); ++e) row[static_cast<std::size_t>(A.col[e])] = nan;
    const double zmin = c.rows.support_min_logit[static_cast<std::size_t>(i)];
    float* out = v.zero.data.data() + static_cast<std::size_t>(i / v.zero.fr) * v.zero.w;
    for (int j0 = 0, q = 0; j0 < L; j0 += fc, ++q) {
      const int j1 = std::min(L, j0 + fc);
      float best = -std::numeric_limits<float>::infinity();
      for (int j = j0; j < j1; ++j) best = row[static_cast<std::size_t>(j)] > best ? row[static_cast<std::size_t>(j)] : best;
      if (!has_number(row.data(), j0, j1, best)) continue;
      if (!std::isfinite(zmin)) {  // x - zmin is not monotone there (inf - inf): map each entry
        for (int j = j0, j1 = std::min(L, j0 + fc); j < j1; ++j) {
          const float x = row[static_cast<std::size_t>(j)];
          if (x != x) continue;
          const float val = static_cast<float>((double(x) - zmin) / ln10);
          if (std::isnan(out[q]) || val > out[q]) out[q] = val;
        }
        continue;
      }
      const float val = static_cast<float>((double(best) - zmin) / ln10);
      if (std::isnan(out[q]) || val > out[q]) out[q] = val;
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
