#include <attnx/mind.hpp>

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <attnx/bounds.hpp>
#include <attnx/construction.hpp>
#include <attnx/detmath.hpp>
#include <attnx/errors.hpp>
#include <attnx/gram.hpp>
#include <attnx/memory.hpp>
#include <attnx/schema.hpp>

#include "base/vec4.hpp"

namespace attnx {

void validate(const MinDOptions& opt) {
  require_option("step", opt.step);
  // dmax's lower bound is step (the table's min_expr).
  require_int("dmax", opt.d_max, opt.step, static_cast<long long>(option_info("dmax").max));
  require_gram_kernel_runs(opt.gram_kernel);
}

namespace {

constexpr int kMaxWatched = 16;    // recently failing rows tested at every grid point
constexpr int kWatchColumns = 64;  // support columns kept for them (at least one row's worth)

// Evaluates the criterion for row i given its logits row z (length L, overwritten). A row with a
// non-finite logit never passes (std::max would skip a NaN).
bool row_passes(const Pattern& A, const std::vector<double>& B, int i, float* z, double eps,
                double log_tau) {
  const int L = A.L;
  double rmax = -std::numeric_limits<double>::infinity(), rmin = -rmax, zmin = -rmax;
  bool finite = true;
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
    const double zi = z[A.col[e]];
    finite = finite && std::isfinite(zi);
    const double r = zi - B[e];  // equals Z - ln A up to a per-row constant
    rmax = std::max(rmax, r);
    rmin = std::min(rmin, r);
    zmin = std::min(zmin, zi);
  }
  if (!finite || !(rmax - rmin <= eps)) return false;
  // Off-support maximum: walk the row, skipping the sorted support. Off-support logits must be
  // finite too (an overflow to -inf or NaN is no valid zero).
  float off = -std::numeric_limits<float>::infinity();
  bool all_finite = true;
  int e = A.row_begin(i);
  for (int j = 0; j < L; ++j) {
    if (e < A.row_end(i) && A.col[e] == j) { ++e; continue; }
    off = std::max(off, z[j]);
    all_finite = all_finite && std::isfinite(z[j]);
  }
  return all_finite && double(off) - zmin <= log_tau;
}

// Scans rows first_row, first_row+1, ... (cyclically) and appends failing rows to `failing`,
// stopping once it holds max_failing rows.
void scan_rows(const Pattern& A, const std::vector<double>& B, const float* G,
               const ProjectionScale& scale, const Tolerances& tol, int first_row,
               std::size_t max_failing, std::vector<float>& row_buf, std::uint64_t* madds,
               std::vector<int>& failing) {
  const int L = A.L;
  row_buf.resize(L);
  const double log_tau = det_log(tol.tau);
  for (int n = 0; n < L && failing.size() < max_failing; ++n) {
    const int i = (first_row + n) % L;
    logits_row_from_gram(A, B, G, i, scale, row_buf.data());
    if (madds) *madds += static_cast<std::uint64_t>(L) * (A.row_end(i) - A.row_begin(i));
    if (!row_passes(A, B, i, row_buf.data(), tol.eps, log_tau)) failing.push_back(i);
  }
}

}  // namespace

int check_criterion(const Pattern& A, const std::vector<double>& B, const float* G, int d,
                    const Tolerances& tol, int first_row, std::vector<float>& row_buf,
                    std::uint64_t* madds) {
  std::vector<int> failing;
  scan_rows(A, B, G, projection_scale(ProjectionKind::Gaussian, d, {}), tol, first_row, 1, row_buf,
            madds, failing);
  return failing.empty() ? -1 : failing[0];
}

namespace {

using vec::F4;
using vec::load4;

// Rows that failed recently. Their support columns of the current Gram matrix are kept up to date
// as one L x W matrix (W = total support size, at most max(kWatchColumns, k)), updated with a small
// GEMM per grid point, so that they can be tested in O(L W) without touching the L x L matrix.
struct Watched {
  std::vector<int> rows;     // watched rows, in scan order
  std::vector<int> offset;   // first column of row n in `cols`
  std::vector<int> support;  // G column index of each column of `cols`
  Eigen::MatrixXf cols;      // L x W
  Eigen::MatrixXf gather;    // step x W: the fresh projection rows of `support`

  void load(const Pattern& A, const float* G, const std::vector<int>& failing, int budget) {
    rows.clear();
    offset.clear();
    support.clear();
    for (int r : failing) {
      const int nb = A.row_end(r) - A.row_begin(r);
      if (!rows.empty() && static_cast<int>(support.size()) + nb > budget) break;
      rows.push_back(r);
      offset.push_back(static_cast<int>(support.size()));
      for (int e = A.row_begin(r); e < A.row_end(r); ++e) support.push_back(A.col[e]);
    }
    const Eigen::Index l = A.L;
    cols.resize(l, static_cast<Eigen::Index>(support.size()));
    for (std::size_t w = 0; w < support.size(); ++w)
      cols.col(static_cast<Eigen::Index>(w)) =
          Eigen::Map<const Eigen::VectorXf>(G + static_cast<std::size_t>(support[w]) * l, l);
  }

  // cols += P_fresh P_fresh[support, :]^T. Each element adds its `step` products in ascending t
  // (no FMA), so native and WASM builds get the same bits; blocked WN columns x 8 rows so the
  // accumulators stay in registers (16 in SSE2 and in WASM's SIMD).
  void update(const float* fresh, int L, int step) {
    const int W = static_cast<int>(support.size());
    gather.resize(step, W);  // gather(t, w) = P(support[w], t)
    for (int w = 0; w < W; ++w)
      for (int t = 0; t < step; ++t)
        gather(t, w) = fresh[static_cast<std::size_t>(t) * L + support[w]];
    int w0 = 0;
    for (; w0 + 4 <= W; w0 += 4) update_columns<4>(fresh, L, step, w0);
    for (; w0 < W; ++w0) update_columns<1>(fresh, L, step, w0);
  }

  template <int WN>
  void update_columns(const float* fresh, int L, int step, int w0) {
    constexpr int JB = 8;
    float* c[WN];
    for (int q = 0; q < WN; ++q) c[q] = cols.data() + static_cast<std::size_t>(w0 + q) * L;
    int j0 = 0;
    for (; j0 + JB <= L; j0 += JB) {
      F4 lo[WN], hi[WN];
      for (int q = 0; q < WN; ++q) {
        lo[q] = load4(c[q] + j0);
        hi[q] = load4(c[q] + j0 + 4);
      }
      for (int t = 0; t < step; ++t) {
        const float* p = fresh + static_cast<std::size_t>(t) * L + j0;
        const F4 plo = load4(p), phi = load4(p + 4);
        for (int q = 0; q < WN; ++q) {
          const float g = gather(t, w0 + q);
          const F4 gv = {g, g, g, g};
          lo[q] = lo[q] + plo * gv;
          hi[q] = hi[q] + phi * gv;
        }
      }
      for (int q = 0; q < WN; ++q) {
        std::memcpy(c[q] + j0, &lo[q], sizeof(F4));
        std::memcpy(c[q] + j0 + 4, &hi[q], sizeof(F4));
      }
    }
    for (int t = 0; t < step; ++t)  // the last L % 8 rows
      for (int q = 0; q < WN; ++q)
        for (int j = j0; j < L; ++j) c[q][j] = c[q][j] + fresh[static_cast<std::size_t>(t) * L + j] * gather(t, w0 + q);
  }

  // Whether every watched row passes at the scale's d (row: scratch of L floats).
  bool passes(const Pattern& A, const std::vector<double>& B, const ProjectionScale& scale,
              const Tolerances& tol, double log_tau, std::vector<float>& row,
              std::uint64_t* madds) const {
    const std::size_t l = static_cast<std::size_t>(A.L);
    for (std::size_t n = 0; n < rows.size(); ++n) {
      const int r = rows[n];
      std::fill(row.begin(), row.end(), 0.0f);
      for (int s = 0; s < A.row_end(r) - A.row_begin(r); ++s) {
        const int e = A.row_begin(r) + s;
        const float b = scale.coef(B[e], A.col[e]);
        const float* cs = cols.data() + static_cast<std::size_t>(offset[n] + s) * l;
        for (std::size_t j = 0; j < l; ++j) row[j] += b * cs[j];
      }
      scale.finish_row(row.data(), A.L);
      *madds += l * static_cast<std::uint64_t>(A.row_end(r) - A.row_begin(r));
      if (!row_passes(A, B, r, row.data(), tol.eps, log_tau)) return false;
    }
    return true;
  }
};

// The raw columns drawn so far, kept so that SPEC §9's scale at d_min need not draw them again.
// Room is reserved once for as many columns as fit in keep_bytes and, on top of the search's
// estimate, in its memory budget (up to d_max); a search that goes past them drops them, and
// bounds_at draws the stream again (the same columns, from the same seed).
struct Kept {
  std::vector<float> cols;  // column-major L x (cols.size() / L)
  bool on = false;
  Kept(int L, int d_max, std::uint64_t estimate, std::uint64_t max_bytes, std::uint64_t keep_bytes) {
    const std::uint64_t column = 4 * static_cast<std::uint64_t>(L);
    const std::uint64_t room = std::min(keep_bytes, max_bytes > estimate ? max_bytes - estimate : 0);
    const std::uint64_t n = std::min<std::uint64_t>(static_cast<std::uint64_t>(d_max), room / column);
    on = n > 0;
    if (on) cols.reserve(static_cast<std::size_t>(n) * L);
  }
  void add(const float* fresh, std::size_t n) {
    if (!on) return;
    if (cols.size() + n > cols.capacity()) {
      on = false;
      std::vector<float>().swap(cols);
      return;
    }
    cols.insert(cols.end(), fresh, fresh + n);
  }
};

// SPEC §9 at the grid point d where every row passed: Lambda of construct()'s float32 X at d (from
// the kept raw columns, or drawn again into buf, L x buf_cols: then `stream` is replaced by a fresh
// one, so the old one's block is freed first) and max |Z| over the rows of the current Gram matrix G.
Bounds bounds_at(const Pattern& A, const std::vector<double>& B, const float* G, const ProjectionScale& scale,
                 ProjectionKind kind, std::uint64_t seed, int d, double tau, ProjectionStream& stream,
                 const Kept& kept, float* buf, int buf_cols, std::vector<float>& row) {
  const std::size_t l = static_cast<std::size_t>(A.L);
  double lambda;
  if (kept.on && kept.cols.size() == l * static_cast<std::size_t>(d)) {
    std::size_t at = 0;
    lambda = jl_input_scale(A, B, d, scale, [&](int n, float*) {  // the kept columns in place
      const float* cols = kept.cols.data() + at;
      at += l * n;
      return cols;
    }, buf, buf_cols);
  } else {
    stream = ProjectionStream(kind, A.L, projection_seed(seed));
    lambda = jl_input_scale(A, B, d, scale, [&](int n, float* out) {
      stream.next(n, out);
      return static_cast<const float*>(out);
    }, buf, buf_cols);
  }
  double z_max = 0;
  for (int i = 0; i < A.L; ++i) {
    logits_row_from_gram(A, B, G, i, scale, row.data());
    const double a = max_abs(row.data(), row.size());
    if (std::isnan(a) || a > z_max) z_max = a;
  }
  return bounds_of(A, tau, d, lambda, z_max);
}

// Columns drawn since the last sync (m of them, column-major L x m in cols), waiting to join G.
struct Pending {
  std::vector<float> cols;
  int m = 0;
  // G's lower triangle += cols cols^T in one rank-m update; counts its multiply-adds.
  void join(GramKernel kernel, float* G, int L, std::uint64_t* madds) {
    if (m == 0) return;
    gram_update_lower_with(kernel, G, L, cols.data(), m);
    const auto l = static_cast<std::uint64_t>(L);
    *madds += l * (l + 1) / 2 * static_cast<std::uint64_t>(m);
    m = 0;
  }
};

}  // namespace

// The search: G holds the Gram matrix of the raw columns drawn up to the last sync (lower
// triangle); the columns drawn since wait in Pending and join G in one rank-m update (m <= chunk)
// when a full check needs G or the buffer is full. Rows that failed recently are watched (see
// Watched), so most grid points are decided by them alone and the full check (symmetrise + scan)
// runs only when they all pass. Unit kinds keep the raw rows' squared norms (diag of G) up to date.
MinDResult min_d(const Pattern& A, const CheckedRequest& r, const Progress& progress) {
  if (&r.kind() != &jl_kind() || r.purpose() != Purpose::Search) throw std::logic_error("attnx: min_d of another request");
  const Tolerances& tol = r->tol;
  const MinDOptions& opt = r->mind;
  const std::uint64_t seed = r->seed;
  const int L = A.L, chunk = mind_chunk_columns(opt.step);
  const std::uint64_t estimate = estimate_mind_bytes(L, opt.step, A.k, opt.projection);  // checked with the request
  MinDResult res;
  const std::vector<double> B = log_target(A, tol);
  res.beta = beta_of(A, B);
  res.d_star = d_star(res.beta, L, tol);
  const std::size_t l = static_cast<std::size_t>(L);
  std::vector<float> G(l * l, 0.0f), row(l);
  std::vector<double> norms2;
  const bool unit = unit_rows(opt.projection);
  const int watch_budget = std::max(kWatchColumns, A.k);
  Watched watched;
  watched.load(A, G.data(), {0}, watch_budget);
  Pending pending{std::vector<float>(l * chunk), 0};
  ProjectionStream stream(opt.projection, L, projection_seed(seed));
  Kept kept(L, opt.d_max, estimate, opt.max_bytes, opt.keep_bytes);
  const double log_tau = det_log(tol.tau);
  auto sync = [&] { pending.join(opt.gram_kernel, G.data(), L, &res.gram_madds); };
  for (int d = opt.step; d <= opt.d_max; d += opt.step) {
    float* fresh = pending.cols.data() + static_cast<std::size_t>(pending.m) * l;
    stream.next(opt.step, fresh);
    kept.add(fresh, l * opt.step);
    if (unit) add_row_norms2(fresh, L, opt.step, norms2);
    pending.m += opt.step;
    res.checked.push_back(d);
    watched.update(fresh, L, opt.step);
    res.check_madds += static_cast<std::uint64_t>(l) * watched.support.size() * opt.step;
    const ProjectionScale scale = projection_scale(opt.projection, d, norms2);
    if (watched.passes(A, B, scale, tol, log_tau, row, &res.check_madds)) {
      sync();
      symmetrize_from_lower(G.data(), L);
      // G is current: collect up to kMaxWatched failing rows in one scan, so that the next full
      // check waits until all of them pass.
      std::vector<int> failing;
      scan_rows(A, B, G.data(), scale, tol, watched.rows.back(), kMaxWatched, row,
                &res.check_madds, failing);
      if (failing.empty()) {
        res.d_min = d;
        res.bounds = bounds_at(A, B, G.data(), scale, opt.projection, seed, d, tol.tau, stream, kept,
                               pending.cols.data(), chunk, row);
        if (progress) progress(1.0);
        return res;
      }
      watched.load(A, G.data(), failing, watch_budget);
    } else if (pending.m == chunk) {
      sync();
    }
    if (progress && !progress(double(d) / opt.d_max)) {
      res.cancelled = true;
      return res;
    }
  }
  res.bounds = bounds_of(A, tol.tau, opt.d_max, -1, -1);  // not reached: n and the bits floors only
  return res;
}

}  // namespace attnx
