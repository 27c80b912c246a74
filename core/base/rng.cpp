#include <attnx/rng.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>

#include <attnx/detmath.hpp>

#include "vec4.hpp"

namespace attnx {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

std::uint64_t derive_seed(std::uint64_t master, std::uint64_t a, std::uint64_t b) {
  std::uint64_t s = master;
  std::uint64_t h = splitmix64(s);
  s = h ^ (a * 0xD6E8FEB86659FD93ull);
  h = splitmix64(s);
  s = h ^ (b * 0xA0761D6478BD642Full);
  return splitmix64(s);
}

static inline std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

Rng::Rng(std::uint64_t seed) {
  std::uint64_t sm = seed;
  for (auto& w : s_) w = splitmix64(sm);
}

inline std::uint64_t Rng::next_inline() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Rng::next() { return next_inline(); }

double Rng::uniform() { return static_cast<double>(static_cast<std::int64_t>(next() >> 11)) * 0x1.0p-53; }

std::uint64_t Rng::below(std::uint64_t n) {
  // Lemire-free simple rejection: threshold = 2^64 mod n.
  const std::uint64_t threshold = (0 - n) % n;
  for (;;) {
    std::uint64_t r = next();
    if (r >= threshold) return r % n;
  }
}

namespace {

// Ziggurat tables (Marsaglia & Tsang 2000, 256 layers), computed once from det_exp/det_log and
// sqrt, so they are bit-identical on every platform.
struct Ziggurat {
  static constexpr int N = 256;
  double x[N + 1];  // layer right edges, x[0] = V / f(R) (base strip incl. tail), x[1] = R
  double f[N + 1];  // f(x[i]) = exp(-x[i]^2 / 2)
  float xs[N + 1];  // x[i] * 2^-23 in float (scales a 23-bit integer abscissa)
  float xf[N + 1];  // x[i] in float
  float pair[N][2];  // {xs[i], xf[i + 1]}: a candidate's two entries in one 8-byte load
  static constexpr double R = 3.6541528853610088;
  static constexpr double V = 0.00492867323399;
  Ziggurat() {
    const double fR = det_exp(-0.5 * R * R);
    x[0] = V / fR;
    x[1] = R;
    for (int i = 2; i < N; ++i) x[i] = std::sqrt(-2.0 * det_log(V / x[i - 1] + det_exp(-0.5 * x[i - 1] * x[i - 1])));
    x[N] = 0.0;
    for (int i = 0; i <= N; ++i) f[i] = det_exp(-0.5 * x[i] * x[i]);
    f[0] = fR;  // the base strip's top is f(R)
    for (int i = 0; i <= N; ++i) {
      xs[i] = static_cast<float>(x[i] * 0x1.0p-23);
      xf[i] = static_cast<float>(x[i]);
    }
    for (int i = 0; i < N; ++i) pair[i][0] = xs[i], pair[i][1] = xf[i + 1];
  }
};

const Ziggurat& zig() {
  static const Ziggurat z;
  return z;
}

}  // namespace

// Wedge or tail test of a candidate x in layer i that missed the fast path; on rejection a
// fresh normal is drawn (the ziggurat restarts).
double Rng::slow_path(const void* tables, int i, double sign, double x, double e_near) {
  const Ziggurat& z = *static_cast<const Ziggurat*>(tables);
  if (i == 0) {  // tail beyond R (Marsaglia 1964)
    double a, b;
    do {
      a = -det_log(1.0 - uniform()) / Ziggurat::R;
      b = -det_log(1.0 - uniform());
    } while (b + b < a * a);
    return sign * (Ziggurat::R + a);
  }
  const double y = z.f[i] + uniform() * (z.f[i + 1] - z.f[i]);
  if (below_det_exp_near(y, -0.5 * x * x, e_near)) return sign * x;
  return normal_with(tables);
}

// N(0, 1) by the ziggurat method: one 64-bit draw on the fast path (about 99% of draws).
double Rng::normal_with(const void* tables) {
  const Ziggurat& z = *static_cast<const Ziggurat*>(tables);
  const std::uint64_t u = next_inline();
  const int i = static_cast<int>(u & 0xFF);
  const double x = static_cast<double>(static_cast<std::int64_t>(u >> 11)) * 0x1.0p-53 * z.x[i];
  const double sign = (u & 0x100) ? -1.0 : 1.0;
  if (x < z.x[i + 1]) return sign * x;
  return slow_path(tables, i, sign, x, i > 0 ? exp_near(-0.5 * x * x) : 0.0);
}

double Rng::normal() { return normal_with(&zig()); }

namespace {

// The fast path of fill_normal on words 0 .. cnt-1 of a block, four at a time (a rest of 1 to 3
// is left to the caller's scalar twin): each candidate's abscissa to o[w] with its sign bit set,
// and the index of each one that misses the fast path appended to miss in order (bit for bit the
// scalar loop's work). Returns the words done.
std::size_t fast_path4(const std::uint32_t* words, std::size_t cnt, const Ziggurat& z, float* o,
                       std::uint32_t* miss, unsigned& misses) {
  using namespace vec;
  std::size_t w = 0;
  for (; w + 4 <= cnt; w += 4) {
    U4 v;
    std::memcpy(&v, words + w, sizeof v);
    const U4 i = v & 0xFFu;
    F4 xs, xf;  // each candidate's {xs[i], xf[i + 1]}, in one 8-byte load
    deinterleave(load_pairs(z.pair[i[0]], z.pair[i[1]]), load_pairs(z.pair[i[2]], z.pair[i[3]]), xs, xf);
    const F4 x = __builtin_convertvector((I4)(v >> 9u), F4) * xs;  // v >> 9 < 2^23: exact
    const I4 fast = x < xf;
    const U4 bits = (U4)x ^ ((v & 0x100u) << 23u);
    std::memcpy(o + w, &bits, sizeof bits);
    if (fast[0] & fast[1] & fast[2] & fast[3]) continue;
    for (int m = 0; m < 4; ++m) {
      miss[misses] = static_cast<std::uint32_t>(w + m);
      misses += !fast[m];
    }
  }
  return w;
}

}  // namespace

// Float stream, in blocks: up to 256 64-bit draws give 512 candidates (two 32-bit words each:
// 8 bits of layer, 1 sign bit, 23 bits of abscissa), transformed without branches; the ~1.5% of
// candidates that miss the fast path are then resolved in order by the double-precision slow path,
// which continues the same stream. The block structure is part of the stream's definition.
void Rng::fill_normal(float* out, std::size_t n) {
  const Ziggurat& z = zig();
  constexpr std::size_t kBlock = 512;
  std::uint32_t words[kBlock];
  for (std::size_t base = 0; base < n; base += kBlock) {
    const std::size_t cnt = std::min(kBlock, n - base);
    std::uint64_t s0 = s_[0], s1 = s_[1], s2 = s_[2], s3 = s_[3];  // next_inline, in registers
    for (std::size_t w = 0; w < cnt; w += 2) {
      const std::uint64_t u = rotl(s1 * 5, 7) * 9, t = s1 << 17;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = rotl(s3, 45);
      words[w] = static_cast<std::uint32_t>(u);
      words[w + 1] = static_cast<std::uint32_t>(u >> 32);
    }
    s_[0] = s0, s_[1] = s1, s_[2] = s2, s_[3] = s3;
    float* o = out + base;
    std::uint32_t miss[kBlock];
    unsigned misses = 0;
    for (std::size_t w = fast_path4(words, cnt, z, o, miss, misses); w < cnt; ++w) {
      const std::uint32_t v = words[w];
      const int i = static_cast<int>(v & 0xFF);
      const float x = static_cast<float>(static_cast<std::int32_t>(v >> 9)) * z.xs[i];
      miss[misses] = static_cast<std::uint32_t>(w);
      misses += !(x < z.xf[i + 1]);
      std::uint32_t bits;  // branch-free sign: copy bit 8 of v onto the float's sign bit
      std::memcpy(&bits, &x, 4);
      bits ^= (v & 0x100u) << 23;
      std::memcpy(o + w, &bits, 4);
    }
    // The wedge tests' e^(-x^2 / 2) first, one independent chain per miss (their latency
    // overlaps), then each miss resolved in order, continuing the stream.
    double e_near[kBlock];
    for (unsigned q = 0; q < misses; ++q) {
      const double x = std::fabs(o[miss[q]]);
      e_near[q] = (words[miss[q]] & 0xFF) != 0 ? exp_near(-0.5 * x * x) : 0.0;
    }
    for (unsigned q = 0; q < misses; ++q) {
      const std::uint32_t w = miss[q], v = words[w];
      o[w] = static_cast<float>(slow_path(&z, static_cast<int>(v & 0xFF), (v & 0x100) ? -1.0 : 1.0,
                                          std::fabs(o[w]), e_near[q]));
    }
  }
}

}  // namespace attnx
