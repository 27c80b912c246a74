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

Pooled make_pooled(int rows, int cols, int budget_r, int budget_c, float fill) {
  Pooled p;
  p.fr = pool_factor(rows, budget_r);
  p.fc = pool_factor(cols, budget_c);
  p.h = pool_size(rows, budget_r);
  p.w = pool_size(cols, budget_c);
  p.data.assign(static_cast<std::size_t>(p.w) * p.h, fill);
  return p;
}

// Max-pools M and finds its largest and smallest positive entry.
void pool_attention(const Construction& c, const ViewRequest& r, Views& v) {
  const int L = c.L;
  v.M = make_pooled(L, L, r.size, r.size, -std::numeric_limits<float>::infinity());
  float mx = 0, mn = std::numeric_limits<float>::infinity();
  const int fc = v.M.fc;
  for (int i = 0; i < L; ++i) {
    const float* m = c.M.data() + static_cast<std::size_t>(i) * L;
    float* out = v.M.data.data() + static_cast<std::size_t>(i / v.M.fr) * v.M.w;
    for (int j0 = 0, q = 0; j0 < L; j0 += fc, ++q) {
      float cell = out[q];
      for (int j = j0, j1 = std::min(L, j0 + fc); j < j1; ++j) cell = m[j] > cell ? m[j] : cell;
      out[q] = cell;
    }
    for (int j = 0; j < L; ++j) {
      mx = m[j] > mx ? m[j] : mx;
      mn = m[j] > 0 && m[j] < mn ? m[j] : mn;
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
      float best = -std::numeric_limits<float>::infinity();
      bool any = false;
      for (int j = j0, j1 = std::min(L, j0 + fc); j < j1; ++j) {
        const float x = row[static_cast<std::size_t>(j)];
        any = any || x == x;
        best = x > best ? x : best;
      }
      if (!any) continue;
      const float val = static_cast<float>((double(best) - zmin) / ln10);
      if (std::isnan(out[q]) || val > out[q]) out[q] = val;
    }
  }
}

// Columns [c0, c1) of the row-major L x C matrix X: value of largest magnitude per cell (the
// first in row-major order on a tie of opposite signs, as the page's pooling keeps it). Per row
// and cell the largest and smallest entries are found (vectorisable), and only an exact tie
// |max| == |min| is settled by a scan in order.
Pooled pool_abs_max(const std::vector<float>& X, int L, int C, int c0, int c1, const ViewRequest& r,
                    double& largest) {
  const int n = c1 - c0;
  Pooled p = make_pooled(L, n, r.x_rows, r.x_cols, 0.0f);
  float big = 0;
  for (int i = 0; i < L; ++i) {
    const float* x = X.data() + static_cast<std::size_t>(i) * C + c0;
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
  largest = big;
  return p;
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

Views pool_views(const Pattern& A, const Construction& c, const ViewRequest& r) {
  validate(r);
  Views v;
  v.request = r;
  pool_attention(c, r, v);
  pool_zero(A, c, r, v);
  const int C = 2 * c.d;
  v.XB = pool_abs_max(c.X, c.L, C, 0, c.d, r, v.xb_max);
  v.XP = pool_abs_max(c.X, c.L, C, c.d, C, r, v.xp_max);
  return v;
}

}  // namespace attnx
