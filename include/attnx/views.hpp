// attnx core: a construction's dense matrices pooled to screen size (the explorer's images).
//
// An n-cell axis shown in at most `budget` pixels is cut into cells of f = max(1, ceil(n / budget))
// data cells, size = ceil(n / f) pixels (web/common/raster.js poolGeometry uses the same rule).
// Pooling keeps the largest value of a cell (so a single large entry stays visible); the values
// are the ones the page would compute from the full matrices, bit for bit.
#pragma once
#include <vector>

#include "construct.hpp"

namespace attnx {

constexpr int kMaxViewPixels = 4096;  // largest budget per axis

struct ViewRequest {
  int size = 512;    // pixels per axis of the L x L images (M, zero ratio)
  int x_rows = 512;  // pixels for X's L rows
  int x_cols = 256;  // pixels for each half of X (d columns)
  bool inputs = true;  // X's images too (a page whose X card is off screen leaves them out)
};
// Throws InvalidArgument naming views.size / views.xRows / views.xCols and the range.
void validate(const ViewRequest& r);

// Pixels (w x h, row-major) and the pool factors (data cells per pixel) along rows and columns.
struct Pooled {
  int w = 0, h = 0, fr = 1, fc = 1;
  std::vector<float> data;
};

struct Views {
  ViewRequest request;
  Pooled M;                    // max of M_ij over each cell (NaN skipped; NaN if all are)
  double m_max = 0;            // largest M_ij
  double m_min_positive = 0;   // smallest positive M_ij (+inf when none)
  Pooled zero;                 // max over off-support cells of (Z_ij - min_{S_i} Z) / ln 10, in
                               // double rounded to float; NaN for cells without off-support entries
  Pooled XB, XP;               // each half of X: the value of largest magnitude (sign kept; the
                               // first in row-major order on ties; 0 for an all-zero cell)
  double xb_max = 0, xp_max = 0;  // largest |X_ij| of each half
};

// Pixels and factor for n cells in `budget` pixels.
int pool_factor(int n, int budget);
int pool_size(int n, int budget);

// Pools c (from construct(A, ...)) for request r. c must hold M, logits, rows and B, and X unless
// it was built without (construct's with_x = false): then X's halves are made from P, the
// projection's first d raw columns (L x d column-major, of kind c.projection:
// GramLadder::columns()), with the same operations, so the images are the same bit for bit.
Views pool_views(const Pattern& A, const Construction& c, const ViewRequest& r, const float* P = nullptr);

}  // namespace attnx
