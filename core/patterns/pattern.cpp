#include <attnx/pattern.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

#include <attnx/detmath.hpp>
#include <attnx/errors.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

// A family parameter within the range its family's table row gives (param_bounds).
void require_param(Family f, const char* name, long long value, int L) {
  long long lo = 0, hi = 0;
  param_bounds(f, name, L, lo, hi);
  require_int(name, value, lo, hi);
}

using Rows = std::vector<std::vector<int>>;

void shuffle(std::vector<int>& v, Rng& rng) {
  for (std::size_t i = v.size(); i > 1; --i) std::swap(v[i - 1], v[rng.below(i)]);
}

bool contains(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// Circulant construction with random relabelling: S_i = { sigma((pi(i) + o_t) mod L) }, k distinct
// offsets. Exactly k per row and column. Used for large k or when repair does not converge.
Rows random_regular_circulant(int L, int k, Rng& rng) {
  std::vector<int> sigma(L), pi(L), offs(L);
  std::iota(sigma.begin(), sigma.end(), 0);
  std::iota(pi.begin(), pi.end(), 0);
  std::iota(offs.begin(), offs.end(), 0);
  shuffle(sigma, rng);
  shuffle(pi, rng);
  shuffle(offs, rng);
  Rows rows(L);
  for (int i = 0; i < L; ++i)
    for (int t = 0; t < k; ++t) rows[i].push_back(sigma[(pi[i] + offs[t]) % L]);
  return rows;
}

// Union of k random permutations with no repeated column in a row: each new permutation is drawn
// uniformly, then conflicts (perm[i] already in row i) are removed by random swaps.
Rows random_regular(int L, int k, Rng& rng) {
  if (k > 64 || 2 * k > L) return random_regular_circulant(L, k, rng);
  Rows rows(L);
  std::vector<int> perm(L);
  for (int t = 0; t < k; ++t) {
    std::iota(perm.begin(), perm.end(), 0);
    shuffle(perm, rng);
    long long budget = 200ll * L + 1000;
    bool ok = true;
    for (int i = 0; i < L; ++i) {
      while (contains(rows[i], perm[i])) {
        if (--budget < 0) { ok = false; break; }
        int r = static_cast<int>(rng.below(L));
        if (r == i || contains(rows[i], perm[r]) || contains(rows[r], perm[i])) continue;
        std::swap(perm[i], perm[r]);
      }
      if (!ok) break;
    }
    if (!ok) return random_regular_circulant(L, k, rng);
    for (int i = 0; i < L; ++i) rows[i].push_back(perm[i]);
  }
  return rows;
}

Pattern from_rows(int L, Rows rows) {
  Pattern p;
  p.L = L;
  p.row_ptr.assign(L + 1, 0);
  for (int i = 0; i < L; ++i) {
    auto& r = rows[i];
    std::sort(r.begin(), r.end());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    p.row_ptr[i + 1] = p.row_ptr[i] + static_cast<int>(r.size());
  }
  p.col.reserve(p.row_ptr[L]);
  for (auto& r : rows) p.col.insert(p.col.end(), r.begin(), r.end());
  p.val.assign(p.col.size(), 0.0);
  return p;
}

void apply_weights(Pattern& p, const PatternSpec& s, Rng& rng) {
  for (int i = 0; i < p.L; ++i) {
    double sum = 0;
    for (int e = p.row_begin(i); e < p.row_end(i); ++e) {
      double w = 1.0;
      if (s.weights == Weights::Random) w = s.w_min + (1.0 - s.w_min) * rng.uniform();
      else if (s.weights == Weights::Decaying)
        w = det_exp(-s.decay * det_log(1.0 + std::abs(p.col[e] - i)));
      p.val[e] = w;
      sum += w;
    }
    for (int e = p.row_begin(i); e < p.row_end(i); ++e) p.val[e] /= sum;
  }
}



// Refuses a pattern of more than kMaxNnz nonzeros, naming the family's parameters that set it.
void check_nnz(const PatternSpec& s, long long per_row) {
  const long long estimate = per_row * s.L;
  if (estimate <= kMaxNnz) return;
  std::string params, first;
  for (const auto& f : pattern_families())
    if (f.name == family_name(s.family))
      for (const auto& q : f.params) {
        params += (params.empty() ? "" : ", ") + q.name;
        if (first.empty()) first = q.name;
      }
  fail(first.empty() ? "L" : first,
       "the pattern would have about " + std::to_string(estimate) + " nonzeros, above the limit of " +
           std::to_string(kMaxNnz) + "; reduce " + (params.empty() ? "" : params + " or ") + "L");
}

// Nonzeros per row that family parameters give (before rows are cut at the edges; custom: 0).
long long per_row_estimate(const PatternSpec& s) {
  switch (s.family) {
    case Family::Random: return s.k;
    case Family::Permutation: return 1;
    case Family::Window: case Family::Dilated: return 2ll * s.w + 1;
    case Family::Causal: return s.w + 1ll;
    case Family::Block: return s.block;
    case Family::Strided: return s.stride + 1ll * s.L / std::max(1, s.stride);
    case Family::BigBird: return 2ll * s.w + 1 + s.globals + s.randoms;
    case Family::Custom: break;
  }
  return 0;
}

Rows window_rows(const PatternSpec& s) {
  const int L = s.L;
  const bool causal = s.family == Family::Causal;
  Rows rows(L);
  for (int i = 0; i < L; ++i) {
    const int hi = causal ? i : std::min(L - 1, i + s.w);
    for (int j = std::max(0, i - s.w); j <= hi; ++j) rows[i].push_back(j);
  }
  return rows;
}

Rows dilated_rows(const PatternSpec& s) {
  Rows rows(s.L);
  for (int i = 0; i < s.L; ++i)
    for (long long t = -s.w; t <= s.w; ++t) {
      const long long j = i + 1ll * s.r * t;
      if (j >= 0 && j < s.L) rows[i].push_back(static_cast<int>(j));
    }
  return rows;
}

Rows block_rows(const PatternSpec& s) {
  Rows rows(s.L);
  for (int i = 0; i < s.L; ++i) {
    const int b0 = (i / s.block) * s.block;
    for (int j = b0; j < std::min(s.L, b0 + s.block); ++j) rows[i].push_back(j);
  }
  return rows;
}

Rows strided_rows(const PatternSpec& s) {
  Rows rows(s.L);
  for (int i = 0; i < s.L; ++i) {
    const int b0 = (i / s.stride) * s.stride;
    for (int j = b0; j < std::min(s.L, b0 + s.stride); ++j) rows[i].push_back(j);
    for (int j = s.stride - 1; j < s.L; j += s.stride) rows[i].push_back(j);  // summary columns
  }
  return rows;
}

// Window +-w, the global columns 0..globals-1, then `randoms` distinct random columns not yet in
// the row (as many as there is room for), drawn by rejection with an O(1) membership mark (the
// draws, and so the pattern, are those of a plain rejection loop).
Rows bigbird_rows(const PatternSpec& s, Rng& rng) {
  const int L = s.L;
  Rows rows(L);
  std::vector<int> mark(L, -1);  // mark[j] == i: column j is in row i
  for (int i = 0; i < L; ++i) {
    auto& r = rows[i];
    auto add = [&](int j) { if (mark[j] != i) { mark[j] = i; r.push_back(j); } };
    for (int j = std::max(0, i - s.w); j <= std::min(L - 1, i + s.w); ++j) add(j);
    for (int g = 0; g < s.globals; ++g) add(g);
    const int want = std::min<int>(s.randoms, L - static_cast<int>(r.size()));
    for (int added = 0; added < want;) {
      const int j = static_cast<int>(rng.below(L));
      if (mark[j] != i) { add(j); ++added; }
    }
  }
  return rows;
}

// The support of each row for a generated family (parameters already validated).
Rows family_rows(const PatternSpec& s, Rng& rng) {
  switch (s.family) {
    case Family::Random: return random_regular(s.L, s.k, rng);
    case Family::Permutation: return random_regular(s.L, 1, rng);
    case Family::Window: case Family::Causal: return window_rows(s);
    case Family::Dilated: return dilated_rows(s);
    case Family::Block: return block_rows(s);
    case Family::Strided: return strided_rows(s);
    case Family::BigBird: return bigbird_rows(s, rng);
    case Family::Custom: break;
  }
  fail("pattern", "pattern custom needs triplets (use pattern_from_triplets)");
}

}  // namespace

void compute_stats(Pattern& p) {
  std::vector<int> colc(p.L, 0);
  p.k = 0;
  for (int i = 0; i < p.L; ++i) p.k = std::max(p.k, p.row_end(i) - p.row_begin(i));
  for (int c : p.col) ++colc[c];
  p.max_col_count = p.L ? *std::max_element(colc.begin(), colc.end()) : 0;
  p.in_class = p.max_col_count <= p.k;
}

void validate(const PatternSpec& s) {
  require_option("L", s.L);
  for (const auto& f : pattern_families())  // every parameter of the family, in table order
    if (f.name == family_name(s.family))
      for (const auto& q : f.params) require_param(s.family, q.name.c_str(), param_value(s, q.name), s.L);
  if (s.family == Family::Custom) fail("pattern", "pattern custom needs triplets (use pattern_from_triplets)");
  check_nnz(s, per_row_estimate(s));
  if (s.weights == Weights::Random) require_option("wMin", s.w_min);
  if (s.weights == Weights::Decaying) require_option("decay", s.decay);
}

Pattern make_pattern(const PatternSpec& s, Rng& rng) {
  validate(s);
  Rows rows = family_rows(s, rng);
  Pattern p = from_rows(s.L, std::move(rows));
  apply_weights(p, s, rng);
  compute_stats(p);
  return p;
}

namespace {

// Row i of p divided by its sum, computed after scaling by the row's largest weight so that
// neither 1e308 + 1e308 overflows nor tiny weights underflow in the sum. A weight whose share
// still rounds to 0 (1e-300 next to 1e300) is refused, naming its entry (es: entries in p's
// order, with their index in the caller's list).
template <class Entries>
void normalise_row(Pattern& p, int i, const Entries& es) {
  double mx = 0;
  for (int e = p.row_begin(i); e < p.row_end(i); ++e) mx = std::max(mx, p.val[e]);
  double sum = 0;
  for (int e = p.row_begin(i); e < p.row_end(i); ++e) sum += p.val[e] / mx;
  for (int e = p.row_begin(i); e < p.row_end(i); ++e) {
    const double w = p.val[e];
    p.val[e] = (w / mx) / sum;
    if (!(p.val[e] > 0))
      fail("triplets", "entry " + std::to_string(es[e].idx) + ": weight " + fmt_num(w) +
                           " is too small next to the largest weight of row " +
                           std::to_string(i) + " (" + fmt_num(mx) +
                           "): its share of the row underflows to 0");
  }
}

}  // namespace

Pattern pattern_from_triplets(int L, const std::vector<Triplet>& t) {
  require_option("L", L);
  if (static_cast<long long>(t.size()) > kMaxNnz)
    fail("triplets", "a custom pattern may have at most " + std::to_string(kMaxNnz) +
                         " entries (got " + std::to_string(t.size()) + ")");
  struct E { int i, j; double w; std::size_t idx; };
  std::vector<E> es;
  es.reserve(t.size());
  for (std::size_t n = 0; n < t.size(); ++n) {
    const auto& x = t[n];
    const std::string at = "entry " + std::to_string(n) + ": ";
    if (x.i < 0 || x.i >= L)
      fail("triplets", at + "row index must be an integer from 0 to " + std::to_string(L - 1) +
                           " (got " + std::to_string(x.i) + ")");
    if (x.j < 0 || x.j >= L)
      fail("triplets", at + "column index must be an integer from 0 to " +
                           std::to_string(L - 1) + " (got " + std::to_string(x.j) + ")");
    if (!std::isfinite(x.w) || x.w < 0)
      fail("triplets", at + "weight must be a finite number >= 0 (got " + fmt_num(x.w) + ")");
    if (x.w > 0) es.push_back({static_cast<int>(x.i), static_cast<int>(x.j), x.w, n});
  }
  std::sort(es.begin(), es.end(), [](const E& a, const E& b) {
    return a.i != b.i ? a.i < b.i : (a.j != b.j ? a.j < b.j : a.idx < b.idx);
  });
  for (std::size_t n = 1; n < es.size(); ++n)
    if (es[n].i == es[n - 1].i && es[n].j == es[n - 1].j)
      fail("triplets", "entry " + std::to_string(es[n].idx) + ": duplicates (" +
                           std::to_string(es[n].i) + ", " + std::to_string(es[n].j) +
                           ") of entry " + std::to_string(es[n - 1].idx));
  Pattern p;
  p.L = L;
  p.row_ptr.assign(L + 1, 0);
  for (const auto& e : es) ++p.row_ptr[e.i + 1];
  for (int i = 0; i < L; ++i) {
    if (p.row_ptr[i + 1] == 0)
      fail("triplets", "row " + std::to_string(i) +
                           " has no positive weight (every row needs at least one nonzero)");
    p.row_ptr[i + 1] += p.row_ptr[i];
  }
  for (const auto& e : es) {
    p.col.push_back(e.j);
    p.val.push_back(e.w);
  }
  for (int i = 0; i < L; ++i) normalise_row(p, i, es);
  compute_stats(p);
  return p;
}

Pattern pattern_from_dense(int L, const std::vector<double>& dense) {
  require_option("L", L);
  if (dense.size() != static_cast<std::size_t>(L) * L)
    fail("dense", "a dense pattern must have L*L = " + std::to_string(1ll * L * L) +
                      " values (got " + std::to_string(dense.size()) + ")");
  std::vector<Triplet> t;
  for (int i = 0; i < L; ++i)
    for (int j = 0; j < L; ++j) {
      const double w = dense[static_cast<std::size_t>(i) * L + j];
      if (!std::isfinite(w) || w < 0)
        fail("dense", "entry (" + std::to_string(i) + ", " + std::to_string(j) +
                          "): weight must be a finite number >= 0 (got " + fmt_num(w) + ")");
      if (w != 0) t.push_back({i, j, w});
    }
  return pattern_from_triplets(L, t);
}

namespace {
struct NameF { const char* name; Family f; };
const NameF kFamilies[] = {{"random", Family::Random},   {"permutation", Family::Permutation},
                           {"window", Family::Window},   {"causal", Family::Causal},
                           {"dilated", Family::Dilated}, {"block", Family::Block},
                           {"strided", Family::Strided}, {"bigbird", Family::BigBird},
                           {"custom", Family::Custom}};
}  // namespace

Family parse_family(const std::string& name) {
  for (const auto& x : kFamilies)
    if (name == x.name) return x.f;
  fail("pattern", "pattern must be one of random, permutation, window, causal, dilated, block, "
                  "strided, bigbird, custom (got \"" + name.substr(0, 40) + "\")");
}

const char* family_name(Family f) {
  for (const auto& x : kFamilies)
    if (x.f == f) return x.name;
  return "?";
}

Weights parse_weights(const std::string& name) {
  if (name == "uniform") return Weights::Uniform;
  if (name == "random") return Weights::Random;
  if (name == "decaying") return Weights::Decaying;
  fail("weights", "weights must be one of uniform, random, decaying (got \"" +
                      name.substr(0, 40) + "\")");
}

const char* weights_name(Weights w) {
  switch (w) {
    case Weights::Uniform: return "uniform";
    case Weights::Random: return "random";
    case Weights::Decaying: return "decaying";
  }
  return "?";
}

std::vector<FamilyInfo> pattern_families() {
  auto P = [](const char* n, const char* label, long long mn, const char* mx, long long def) {
    return ParamInfo{n, label, mx, mn, def};
  };
  return {
      {"random", "Random k-regular", true, true, {P("k", "nonzeros per row and column", 1, "L", 2)}},
      {"permutation", "Permutation (k = 1)", true, true, {}},
      {"window", "Sliding window |i-j| <= w", true, true, {P("w", "half-width", 0, "L-1", 1)}},
      {"causal", "Causal window i-w <= j <= i", true, true, {P("w", "look-back", 0, "L-1", 1)}},
      {"dilated", "Dilated window j = i + r t", true, true,
       {P("w", "half-width (taps)", 0, "L-1", 1), P("r", "dilation", 1, "L-1", 2)}},
      {"block", "Block diagonal", true, true, {P("block", "block size", 1, "L", 4)}},
      {"strided", "Strided (Sparse Transformer)", true, false,
       {P("stride", "stride", 1, "L", 8)}},
      {"bigbird", "BigBird-like", true, false,
       {P("w", "window half-width", 0, "L-1", 1), P("globals", "global tokens", 0, "L", 1),
        P("randoms", "random links per row", 0, "L-1", 1)}},
      {"custom", "Custom (drawn or imported)", false, true, {}, false},
  };
}

const std::vector<WeightsInfo>& weights_infos() {
  static const std::vector<WeightsInfo> v = {
      {weights_name(Weights::Uniform), "uniform", {}},
      {weights_name(Weights::Random), "random [w_min, 1]", {"wMin"}},
      {weights_name(Weights::Decaying), "decaying with |i − j|", {"decay"}},
  };
  return v;
}

long long param_value(const PatternSpec& s, const std::string& name) {
  if (name == "k") return s.k;
  if (name == "w") return s.w;
  if (name == "r") return s.r;
  if (name == "block") return s.block;
  if (name == "stride") return s.stride;
  if (name == "globals") return s.globals;
  return s.randoms;
}

void param_bounds(Family f, const std::string& name, int L, long long& lo, long long& hi) {
  for (const auto& fam : pattern_families()) {
    if (fam.name != family_name(f)) continue;
    for (const auto& p : fam.params)
      if (p.name == name) {
        lo = p.min;
        hi = eval_bound(p.max_expr, L);
        return;
      }
  }
  const OptionInfo& o = option_info(name);
  lo = static_cast<long long>(o.min);
  hi = static_cast<long long>(o.max);
}

int row_count_bound(const PatternSpec& s, const std::vector<Triplet>& triplets) {
  const long long L = s.L;
  long long k = per_row_estimate(s);
  if (s.family == Family::Custom) {
    std::vector<int> cnt(std::max(0, s.L), 0);
    for (const auto& t : triplets)
      if (t.w > 0 && t.i >= 0 && t.i < L) ++cnt[t.i];
    k = cnt.empty() ? 1 : *std::max_element(cnt.begin(), cnt.end());
  }
  return static_cast<int>(std::max(1ll, std::min(k, L)));
}

}  // namespace attnx
