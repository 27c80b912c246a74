// attnx core: the `jl` construction of SPEC §3 and §8.1 (X = [sqrt(d) B P_s, P_s] from the nested
// columns of the projection P, its logits from the Gram matrix G = P P^T) and its registry record.
#include <attnx/construct.hpp>
#include <attnx/construction.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include <attnx/detmath.hpp>
#include <attnx/errors.hpp>
#include <attnx/expf.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/inputs.hpp>
#include <attnx/mind.hpp>
#include <attnx/memory.hpp>
#include <attnx/schema.hpp>

#include "base/vec4.hpp"

#include "attention/rows.hpp"

namespace attnx {

std::uint64_t pattern_seed(std::uint64_t seed) { return derive_seed(seed, kPatternStream, 0); }
std::uint64_t projection_seed(std::uint64_t seed) { return derive_seed(seed, kProjectionStream, 0); }

void draw_projection_columns(Rng& rng, int L, int ncols, float* out) {
  // One word of `rng` seeds each column's own generator: the values depend only on the column
  // index, never on how the columns are split between calls (min-d draws `step` at a time).
  for (int c = 0; c < ncols; ++c)
    draw_raw_column(ProjectionKind::Gaussian, rng.next(), L, c, nullptr,
                    out + static_cast<std::size_t>(c) * L);
}

std::vector<float> scaled_projection_rows(const float* P, int L, int d) {
  return scaled_projection_rows(P, L, d, projection_scale(ProjectionKind::Gaussian, d, {}));
}

std::vector<float> scaled_projection_rows(const float* P, int L, int d, const ProjectionScale& scale) {
  const std::size_t l = static_cast<std::size_t>(L), dd = static_cast<std::size_t>(d);
  std::vector<float> row_scale(l);
  for (std::size_t i = 0; i < l; ++i) row_scale[i] = scale.row_scale(static_cast<int>(i));
  std::vector<float> Ps(l * dd);
  constexpr std::size_t T = 32;  // 32 x 32 tiles: contiguous rows without striding through P
  for (std::size_t t0 = 0; t0 < dd; t0 += T)
    for (std::size_t i0 = 0; i0 < l; i0 += T)
      for (std::size_t t = t0; t < std::min(dd, t0 + T); ++t)
        for (std::size_t i = i0; i < std::min(l, i0 + T); ++i) Ps[i * dd + t] = P[t * l + i] * row_scale[i];
  return Ps;
}

void input_left_row(const Pattern& A, const std::vector<double>& B, const float* Ps, int d, int i,
                    std::vector<double>& acc, float* out) {
  const std::size_t dd = static_cast<std::size_t>(d);
  const double sqrt_d = std::sqrt(double(d));
  acc.assign(dd, 0.0);
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
    const float* p = Ps + static_cast<std::size_t>(A.col[e]) * dd;
    for (std::size_t t = 0; t < dd; ++t) acc[t] += B[e] * double(p[t]);
  }
  for (std::size_t t = 0; t < dd; ++t) out[t] = static_cast<float>(sqrt_d * acc[t]);
}

std::vector<double> jl_inputs(const Pattern& A, const std::vector<double>& B, std::uint64_t seed, int d,
                              ProjectionKind projection) {
  const std::size_t l = static_cast<std::size_t>(A.L), dd = static_cast<std::size_t>(d);
  std::vector<float> P(l * dd);
  ProjectionStream(projection, A.L, projection_seed(seed)).next(d, P.data());
  const std::vector<float> Ps =
      scaled_projection_rows(P.data(), A.L, d, projection_scale_of(projection, P.data(), A.L, d));
  const double sqrt_d = std::sqrt(double(d));
  std::vector<double> X(l * 2 * dd, 0.0);
  for (int i = 0; i < A.L; ++i) {
    double* x = X.data() + i * 2 * dd;
    for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
      const float* p = Ps.data() + static_cast<std::size_t>(A.col[e]) * dd;
      for (std::size_t t = 0; t < dd; ++t) x[t] += B[e] * double(p[t]);
    }
    for (std::size_t t = 0; t < dd; ++t) x[t] *= sqrt_d;
    std::copy(Ps.data() + i * dd, Ps.data() + (i + 1) * dd, x + dd);
  }
  return X;
}

namespace {

// X = [sqrt(d) B P_s, P_s] with P_s = the raw columns P (L x d column-major) scaled row by row
// (projection.hpp; gaussian: P / sqrt(d)): row-major L x 2d, the left half summed in double.
std::vector<float> inputs_from_columns(const Pattern& A, const std::vector<double>& B, const float* P, int d,
                                const ProjectionScale& scale) {
  const std::size_t l = static_cast<std::size_t>(A.L), dd = static_cast<std::size_t>(d);
  const std::vector<float> Ps = scaled_projection_rows(P, A.L, d, scale);
  std::vector<float> X(l * 2 * dd, 0.0f);
  std::vector<double> acc;
  for (std::size_t i = 0; i < l; ++i) {
    float* x = X.data() + i * 2 * dd;
    input_left_row(A, B, Ps.data(), d, int(i), acc, x);
    std::copy(Ps.data() + i * dd, Ps.data() + (i + 1) * dd, x + dd);
  }
  return X;
}

// buf as an L x L buffer: `spare` (made ahead, first touched) when it has that size, else new.
void take_square(FloatBuffer& buf, FloatBuffer& spare, std::size_t size) {
  if (spare.size() == size) {
    buf.swap(spare);
  } else {
    FloatBuffer().swap(spare);
    buf.resize(size);
  }
}

}  // namespace

void logits_from_gram(const Pattern& A, const std::vector<double>& B, const float* G,
                      const ProjectionScale& scale, float* Z) {
  for (int i = 0; i < A.L; ++i)
    logits_row_from_gram(A, B, G, i, scale, Z + static_cast<std::size_t>(i) * static_cast<std::size_t>(A.L));
}

void logits_row_from_gram(const Pattern& A, const std::vector<double>& B, const float* G, int i,
                          const ProjectionScale& scale, float* z) {
  const std::size_t l = static_cast<std::size_t>(A.L);
  std::fill(z, z + l, 0.0f);
  for (int e = A.row_begin(i); e < A.row_end(i); ++e) {
    const float b = scale.coef(B[e], A.col[e]);
    const float* g = G + static_cast<std::size_t>(A.col[e]) * l;
    for (std::size_t j = 0; j < l; ++j) z[j] += b * g[j];
  }
  scale.finish_row(z, A.L);
}

Construction construct(const Pattern& A, const CheckedRequest& r, const BuildRun& run) {
  if (&r.kind() != &jl_kind() || r.purpose() != Purpose::Build) throw std::logic_error("attnx: construct of another request");
  const Progress& progress = run.progress;
  GramLadder* ladder = run.ladder;
  const Tolerances& tol = r->tol;
  const int d = r->d, L = A.L;
  const std::uint64_t seed = r->seed, max_bytes = r->mind.max_bytes;
  const ProjectionKind projection = r->mind.projection;
  auto report = [&](double f) {
    if (progress) progress(f);
  };
  // The budget was checked with the request (build_inputs); the ladder keeps rungs only in what
  // it leaves above this construct's own need.
  const std::uint64_t need = estimate_pattern_bytes(L, A.k) + estimate_construct_bytes(L, d, A.k);
  GramLadder local(0);  // no ladder given: keep nothing beyond this call
  GramLadder& g = ladder ? *ladder : local;
  if (ladder) ladder->set_rung_cap(max_bytes > need ? max_bytes - need : 0, d);
  Construction c;
  c.L = L;
  c.d = d;
  c.B = log_target(A, tol);
  c.projection = projection;

  // G = P P^T of the first d raw columns (nested in d), then Z = B G / d (unit kinds: B D^-1/2 G
  // D^-1/2), which equals Q K^T / sqrt(d) with Q = X W_Q = sqrt(d) B P_s and K = X W_K = P_s.
  const bool done = g.prepare(L, projection_seed(seed), d, [&](double f) {
    return progress ? progress(kConstructGramShare * f) : true;
  }, projection);
  if (!done) {  // stopped by progress: nothing evaluated, the ladder keeps what was summed
    c.cancelled = true;
    return c;
  }
  const ProjectionScale scale = projection_scale_of(projection, g.columns(), L, d);
  if (run.with_x) c.X = inputs_from_columns(A, c.B, g.columns(), d, scale);
  report(0.9);
  // What construct_ahead made, or an earlier construct kept: taken whether it is for these
  // settings or not, so that it never outlives this call unread.
  GramLadder::Ahead ahead = g.take_ahead();
  const std::size_t l = static_cast<std::size_t>(L);
  take_square(c.logits, ahead.logits, l * l);
  take_square(c.M, ahead.M, l * l);
  const double zmax = logits_attention_rows(A, c.B, g.gram(), scale, tol, c.logits.data(), c.M.data(), c.rows);
  c.metrics = summarise(A, c.B, c.rows, tol);
  // Lambda of the float32 X: made for this key already, else from X when it was built, else from
  // the columns (the same value, bit for bit: jl_input_scale); kept for the next construct of
  // these settings.
  std::vector<std::uint64_t> key = jl_scale_key(A, c.B, d, projection_seed(seed), projection);
  const double lambda = ahead.key == key ? ahead.logit_scale
                        : !c.X.empty()   ? input_scale(c.X.data(), L, d)
                                         : jl_scale_from_columns(A, c.B, d, g.columns(), scale);
  g.keep_ahead({std::move(key), lambda, {}, {}});
  c.bounds = bounds_of(A, tol.tau, d, lambda, zmax);
  report(1.0);
  return c;
}

namespace {

ConstructionInfo jl_info() {
  ConstructionInfo c;
  c.name = "jl", c.label = "Random projection (the paper's, §3)";
  c.d_max = kMaxD, c.explorer_d = 1024;
  c.params = {"d", "projection", "step", "dmax"};
  c.search = "one pass over nested columns of P: the first d on the grid at which §2 holds";
  c.dimension = "d";
  c.bits_floor = "bits_fixed_keys";
  c.sliced = true;
  c.kind_of_mark = "construction";
  c.queries_title = "Q: √d·B·P", c.queries_sub = "first d columns of X";
  c.keys_title = "K = P", c.keys_sub = "last d columns of X";
  c.summary = "The paper's construction (§3): Q = √d·B·P, K = P for a random Gaussian P. It "
              "needs d in the hundreds, and a few bits of X suffice.";
  return c;
}

// construct() and, when asked, its §8.4 report; then the pattern: a search keeps only the Gram
// matrix and its pending columns (estimate_mind_bytes counts the pattern).
std::uint64_t jl_bytes(const ConstructionRequest& r, Purpose purpose, int L, int k) {
  const std::uint64_t pattern = estimate_pattern_bytes(L, k);
  if (purpose == Purpose::Search) return std::max(pattern, estimate_mind_bytes(L, r.mind.step, k, r.mind.projection));
  const std::uint64_t jl = estimate_construct_bytes(L, r.d, k);
  if (!r.precision) return pattern + jl;
  return pattern + std::max(jl, target_and_rows_bytes(L, k) + jl_precision_bytes(L, r.d));
}

BuiltInputs jl_build(const Pattern& A, const CheckedRequest& r, const BuildRun& run) {
  BuiltInputs out;
  out.c = construct(A, r, run);
  if (out.c.cancelled || !r->precision) return out;
  out.precision = precision_report(A, r->tol, jl_inputs(A, out.c.B, r->seed, r->d, r->mind.projection), r->d);
  out.c.bounds.bits_per_number = bits_per_number(out.precision->bits, out.precision->exponent_bits);
  return out;
}

MinDResult jl_search(const Pattern& A, const CheckedRequest& r, const BuildRun& run) {
  return min_d(A, r, run.progress);
}

}  // namespace

const ConstructionKind& jl_kind() {
  static const ConstructionKind k = [] {
    ConstructionKind c;
    c.info = jl_info();
    c.bytes = jl_bytes;
    c.build = jl_build;
    c.search = jl_search;
    return c;
  }();
  return k;
}

}  // namespace attnx
