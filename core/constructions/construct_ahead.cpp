// attnx core: what a jl construct needs besides G, made before G is complete (see construction.hpp).
#include <attnx/construct.hpp>

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <attnx/bounds.hpp>
#include <attnx/construction.hpp>
#include <attnx/gram_ladder.hpp>
#include <attnx/memory.hpp>
#include <attnx/schema.hpp>

namespace attnx {

namespace {

// Page-fault cost of first touching one float of fresh WebAssembly memory, and the logit scale's
// cost per entry of P (L d) and per nonzero of A per column (nnz d), in the Gram kernel's
// multiply-adds. Measured in headless Chromium and Node on a 2-core Zen 5 (December 2026): the
// kernel sums about 30e9 multiply-adds per second per worker; touching 256 MiB takes 87 ms; the
// scale takes 12.1 / 13.6 / 15.1 / 17.3 / 24.8 ms for 4096 x 4096 columns at k = 1 / 2 / 3 / 4 /
// 8 (scaleBench), about (0.62 + 0.108 k) ns per L d.
constexpr double kTouchMacsPerFloat = 40.0;
constexpr double kScaleMacsPerEntry = 19.0;
constexpr double kScaleMacsPerNonzero = 3.2;

// MurmurHash3's 64-bit finaliser: a bijection that mixes every bit into every other.
std::uint64_t fmix64(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

// A 128-bit fingerprint of a sequence of words: two chains, each word mixed into both (the second
// also with its position), so two sequences of the same length collide with a chance of about
// 2^-128. A key of constant size, whatever the pattern's nonzeros.
struct Fingerprint {
  std::uint64_t a = 0x243f6a8885a308d3ULL, b = 0x13198a2e03707344ULL, n = 0;
  void add(std::uint64_t w) {
    a = fmix64(a ^ w);
    b = fmix64(b + w + 0x9e3779b97f4a7c15ULL * ++n);
  }
  void add_ints(const std::vector<int>& xs) {
    add(xs.size());
    for (int x : xs) add(static_cast<std::uint32_t>(x));
  }
};

// An L x L buffer with every page written once (FloatBuffer's resize leaves them untouched).
FloatBuffer touched_square(int L) {
  FloatBuffer b(static_cast<std::size_t>(L) * static_cast<std::size_t>(L));
  std::fill(b.begin(), b.end(), 0.0f);
  return b;
}

}  // namespace

std::vector<std::uint64_t> jl_scale_key(const Pattern& A, const std::vector<double>& B, int d, std::uint64_t seed,
                                        ProjectionKind projection) {
  Fingerprint f;
  f.add_ints(A.row_ptr);
  f.add_ints(A.col);
  f.add(B.size());
  for (double b : B) {
    std::uint64_t bits;
    std::memcpy(&bits, &b, sizeof bits);
    f.add(bits);
  }
  return {static_cast<std::uint64_t>(A.L), static_cast<std::uint64_t>(d), static_cast<std::uint64_t>(projection),
          seed, A.col.size(), f.a, f.b};
}

double jl_scale_from_columns(const Pattern& A, const std::vector<double>& B, int d, const float* P,
                             const ProjectionScale& scale) {
  const std::size_t l = static_cast<std::size_t>(A.L);
  std::size_t at = 0;
  auto next = [&](int n, float*) {  // the columns in place
    const float* cols = P + at * l;
    at += static_cast<std::size_t>(n);
    return cols;
  };
  return jl_input_scale(A, B, d, scale, next, nullptr, d);
}

bool construct_ahead(const Pattern& A, const CheckedRequest& r, GramLadder& ladder) {
  if (&r.kind() != &jl_kind() || r.purpose() != Purpose::Build) throw std::logic_error("attnx: construct_ahead of another request");
  check_request_budget(r, A.L, A.k);  // as build_inputs checks it
  const Tolerances& tol = r->tol;
  const int d = r->d;
  const std::uint64_t seed = r->seed;
  const ProjectionKind projection = r->mind.projection;
  const std::uint64_t stream = projection_seed(seed);
  if (!ladder.holds_columns(A.L, stream, d, projection)) return false;
  const std::vector<double> B = log_target(A, tol);
  std::vector<std::uint64_t> key = jl_scale_key(A, B, d, stream, projection);
  GramLadder::Ahead a = ladder.take_ahead();
  if (a.key != key) {  // else made already (a stopped construct's, taken up again)
    a.key = std::move(key);
    const ProjectionScale scale = projection_scale_of(projection, ladder.columns(), A.L, d);
    a.logit_scale = jl_scale_from_columns(A, B, d, ladder.columns(), scale);
  }
  const std::size_t size = static_cast<std::size_t>(A.L) * static_cast<std::size_t>(A.L);
  for (FloatBuffer* buf : {&a.logits, &a.M}) {
    if (buf->size() == size) continue;
    FloatBuffer().swap(*buf);  // another L's: freed first
    *buf = touched_square(A.L);
  }
  ladder.keep_ahead(std::move(a));
  return true;
}

double construct_ahead_macs(int L, int k, int d) {
  const double l = std::max(L, 0), dd = std::max(d, 0);
  return kScaleMacsPerEntry * l * dd + kScaleMacsPerNonzero * double(std::max(k, 0)) * l * dd +
         kTouchMacsPerFloat * 2.0 * l * l;
}

}  // namespace attnx
