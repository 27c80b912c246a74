// attnx core: the projection kinds of the `jl` construction (see projection.hpp).
#include <attnx/projection.hpp>

#include <algorithm>
#include <cmath>

#include <attnx/errors.hpp>

namespace attnx {

namespace {

constexpr ProjectionKind kKinds[] = {ProjectionKind::Gaussian, ProjectionKind::Rademacher,
                                     ProjectionKind::GaussianUnit, ProjectionKind::Orthogonal,
                                     ProjectionKind::OrthogonalUnit};

// +-1 entries: bit (i mod 64) of the column generator's word i / 64.
void fill_signs(Rng& rng, float* out, int L) {
  std::uint64_t word = 0;
  for (int i = 0; i < L; ++i) {
    if (i % 64 == 0) word = rng.next();
    out[i] = (word >> (i % 64)) & 1u ? 1.0f : -1.0f;
  }
}

// Modified Gram-Schmidt of a Gaussian column against the block's earlier columns (float, norm
// about sqrt(L)), in double; out = sqrt(L) * the unit result.
void orthogonalise(const float* prev, int n_prev, int L, const float* gauss, float* out) {
  const std::size_t l = static_cast<std::size_t>(L);
  std::vector<double> v(gauss, gauss + l);
  for (int q = 0; q < n_prev; ++q) {
    const float* u = prev + static_cast<std::size_t>(q) * l;
    double uv = 0, uu = 0;
    for (std::size_t i = 0; i < l; ++i) {
      uv += double(u[i]) * v[i];
      uu += double(u[i]) * double(u[i]);
    }
    const double f = uv / uu;
    for (std::size_t i = 0; i < l; ++i) v[i] -= f * double(u[i]);
  }
  double nn = 0;
  for (double x : v) nn += x * x;
  const double s = std::sqrt(double(L) / nn);
  for (std::size_t i = 0; i < l; ++i) out[i] = static_cast<float>(s * v[i]);
}

}  // namespace

const std::vector<std::string>& projection_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (ProjectionKind k : kKinds) v.push_back(projection_name(k));
    return v;
  }();
  return names;
}

const char* projection_name(ProjectionKind kind) {
  switch (kind) {
    case ProjectionKind::Gaussian: return "gaussian";
    case ProjectionKind::Rademacher: return "rademacher";
    case ProjectionKind::GaussianUnit: return "gaussian-unit";
    case ProjectionKind::Orthogonal: return "orthogonal";
    case ProjectionKind::OrthogonalUnit: return "orthogonal-unit";
  }
  return "gaussian";
}

ProjectionKind parse_projection(const std::string& name) {
  for (ProjectionKind k : kKinds)
    if (name == projection_name(k)) return k;
  std::string list;
  for (const std::string& n : projection_names()) list += (list.empty() ? "" : ", ") + n;
  fail("projection", "projection must be one of " + list + " (got \"" + name.substr(0, 40) + "\")");
}

bool unit_rows(ProjectionKind kind) {
  return kind == ProjectionKind::GaussianUnit || kind == ProjectionKind::OrthogonalUnit;
}

ProjectionKind column_family(ProjectionKind kind) {
  if (kind == ProjectionKind::GaussianUnit) return ProjectionKind::Gaussian;
  if (kind == ProjectionKind::OrthogonalUnit) return ProjectionKind::Orthogonal;
  return kind;
}

int orthogonal_block(int L) { return std::min(L, kOrthogonalBlock); }

void draw_raw_column(ProjectionKind kind, std::uint64_t column_seed, int L, int c,
                     const float* block_start, float* out) {
  Rng column(column_seed);
  const ProjectionKind family = column_family(kind);
  if (family == ProjectionKind::Rademacher) {
    fill_signs(column, out, L);
    return;
  }
  if (family == ProjectionKind::Gaussian) {
    column.fill_normal(out, static_cast<std::size_t>(L));
    return;
  }
  std::vector<float> gauss(static_cast<std::size_t>(L));
  column.fill_normal(gauss.data(), gauss.size());
  orthogonalise(block_start, c % orthogonal_block(L), L, gauss.data(), out);
}

ProjectionStream::ProjectionStream(ProjectionKind kind, int L, std::uint64_t projection_seed)
    : kind_(kind), L_(L), rng_(projection_seed) {
  if (column_family(kind) == ProjectionKind::Orthogonal)
    block_.reserve(static_cast<std::size_t>(L) * orthogonal_block(L));
}

void ProjectionStream::next(int n, float* out) {
  const std::size_t l = static_cast<std::size_t>(L_);
  const bool ortho = column_family(kind_) == ProjectionKind::Orthogonal;
  const int block = orthogonal_block(L_);
  for (int k = 0; k < n; ++k, ++drawn_) {
    float* col = out + static_cast<std::size_t>(k) * l;
    const std::uint64_t seed = rng_.next();
    if (!ortho) {
      draw_raw_column(kind_, seed, L_, drawn_, nullptr, col);
      continue;
    }
    const int in_block = drawn_ % block;
    block_.resize(static_cast<std::size_t>(in_block + 1) * l);  // a new block starts over
    float* slot = block_.data() + static_cast<std::size_t>(in_block) * l;
    draw_raw_column(kind_, seed, L_, drawn_, block_.data(), slot);
    std::copy(slot, slot + l, col);
  }
}

void ProjectionStream::skip(int n) {
  const int target = drawn_ + std::max(n, 0);
  const bool ortho = column_family(kind_) == ProjectionKind::Orthogonal;
  const int keep_from = ortho ? target - target % orthogonal_block(L_) : target;
  for (; drawn_ < keep_from; ++drawn_) rng_.next();  // columns nothing after them reads
  std::vector<float> scratch(static_cast<std::size_t>(L_));
  while (drawn_ < target) next(1, scratch.data());  // the block's columns before target
}

void add_row_norms2(const float* cols, int L, int n, std::vector<double>& norms2) {
  const std::size_t l = static_cast<std::size_t>(L);
  norms2.resize(l, 0.0);
  for (int c = 0; c < n; ++c) {
    const float* p = cols + static_cast<std::size_t>(c) * l;
    for (std::size_t i = 0; i < l; ++i) norms2[i] += double(p[i]) * double(p[i]);
  }
}

void ProjectionScale::finish_row(float* z, int L) const {
  if (!unit) return;
  for (int j = 0; j < L; ++j) z[j] *= static_cast<float>(inv_norm[static_cast<std::size_t>(j)]);
}

ProjectionScale projection_scale(ProjectionKind kind, int d, const std::vector<double>& norms2) {
  ProjectionScale s;
  s.unit = unit_rows(kind);
  s.d = d;
  s.inv_d = static_cast<float>(1.0 / d);
  s.inv_sqrt_d = static_cast<float>(1.0 / std::sqrt(double(d)));
  if (s.unit) {
    s.inv_norm.resize(norms2.size());
    for (std::size_t i = 0; i < norms2.size(); ++i) s.inv_norm[i] = 1.0 / std::sqrt(norms2[i]);
  }
  return s;
}

ProjectionScale projection_scale_of(ProjectionKind kind, const float* P, int L, int d) {
  std::vector<double> norms2;
  if (unit_rows(kind)) add_row_norms2(P, L, d, norms2);
  return projection_scale(kind, d, norms2);
}

}  // namespace attnx
