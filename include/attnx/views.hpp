// attnx core: a construction's dense matrices pooled to screen size (the explorer's images).
//
// An n-cell axis shown in at most `budget` pixels is cut into cells of f = max(1, ceil(n / budget))
// data cells, size = ceil(n / f) pixels (web/common/raster.js poolGeometry uses the same rule).
// Pooling keeps the largest value of a cell (so a single large entry stays visible); the values
// are the ones the page would compute from the full matrices, bit for bit.
#pragma once
#include <string>
#include <vector>

#include "construct.hpp"
#include "json.hpp"

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

// A window of the L x L images (the explorer's zoom, its link field `view=i0,i1,j0,j1`): rows
// [i0, i1) and columns [j0, j1), each at least min(kMinViewSpan, L) cells. The pages pool it
// themselves from the dense M and logits (web/explorer/window-pool.js); this is the rule of which
// windows exist, published as schema().pageLimits.viewMinSpan and checked by viewWindow().
constexpr int kMinViewSpan = 4;
struct ViewWindow {
  int i0 = 0, i1 = 0, j0 = 0, j1 = 0;
  bool full(int L) const { return i0 == 0 && j0 == 0 && i1 == L && j1 == L; }
};
// The fewest rows (and columns) a window of an L x L matrix has: min(kMinViewSpan, L).
int view_min_span(int L);
// The allowed windows in words: "i0,i1,j0,j1 with 0 <= i0 < i1 <= L and 0 <= j0 < j1 <= L, at
// least 4 rows and 4 columns".
std::string view_window_range_text(int L);
// Reads the text "i0,i1,j0,j1" (four integers of the number grammar's integer list) as a window
// of an L x L matrix. Throws InvalidArgument("view", "view must be <range text> (got "...")"),
// with the grammar's note for a number-like text it refuses. Cost: O(length).
ViewWindow read_view_window(const std::string& text, int L);
// viewWindow(text, L) of the JavaScript API: { i0, i1, j0, j1, full } (full: the whole matrix,
// which links leave out), or the refusal above; L must be an integer from kMinL to kMaxL.
JsonValue view_window_call(const JsonValue& text, const JsonValue& L);

}  // namespace attnx
