// attnx core: the project's own deterministic random generator (SPEC §6).
// SplitMix64 seeds xoshiro256**; normals by a 256-layer ziggurat in double whose tables and
// rejection tests use only correctly-rounded operations plus det_log/det_exp (detmath.hpp), so
// native (libstdc++/glibc) and WASM (libc++/musl) builds draw bit-identical streams.
#pragma once
#include <cstddef>
#include <cstdint>

namespace attnx {

std::uint64_t splitmix64(std::uint64_t& state);

// Mixes a master seed with two integers into an independent seed (sweep trials: master, L, t).
std::uint64_t derive_seed(std::uint64_t master, std::uint64_t a, std::uint64_t b);

// Stream tags used with derive_seed(seed, tag, 0) so that pattern and projection draws of one
// seed are independent and a construct with seed s equals a sweep trial with trial seed s.
enum StreamTag : std::uint64_t { kPatternStream = 0x70617474u, kProjectionStream = 0x70726f6au, kOptStream = 0x6f707473u };

class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  std::uint64_t next();        // xoshiro256** output
  double uniform();            // in [0, 1), 53 random bits
  std::uint64_t below(std::uint64_t n);  // uniform integer in [0, n), unbiased (rejection); n >= 1
  double normal();             // N(0, 1), ziggurat
  // n N(0,1) values in float: a separate, faster stream (two candidates per 64-bit draw, 23-bit
  // abscissa), used for projections. Deterministic and platform-independent like normal().
  void fill_normal(float* out, std::size_t n);

 private:
  std::uint64_t next_inline();
  double normal_with(const void* tables);
  // e_near: exp_near(-x^2 / 2) for a wedge layer (layer > 0), unread for the tail (layer 0).
  double slow_path(const void* tables, int layer, double sign, double x, double e_near);
  std::uint64_t s_[4];
};

}  // namespace attnx
