// attnx core (internal): four floats or two doubles in a vector register, through GCC's and
// Clang's vector extension (SSE2 natively, SIMD128 in WebAssembly). Element-wise IEEE operations
// only (no FMA: -ffp-contract=off), so a loop written with them gives the scalar loop's bits.
// Not installed.
#pragma once
#include <cstdint>
#include <cstring>

namespace attnx::vec {

typedef float F4 __attribute__((vector_size(16)));
typedef std::int32_t I4 __attribute__((vector_size(16)));  // lane masks of F4 comparisons
typedef std::uint32_t U4 __attribute__((vector_size(16)));  // four words (logical shifts)
typedef double D2 __attribute__((vector_size(16)));
typedef std::int64_t I2 __attribute__((vector_size(16)));  // lane masks of D2 comparisons
typedef std::uint64_t U2 __attribute__((vector_size(16)));  // a D2's bits

inline F4 load4(const float* p) {
  F4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store4(float* p, F4 v) { std::memcpy(p, &v, sizeof v); }
inline F4 splat4(float x) { return F4{x, x, x, x}; }
// Lane by lane: a where mask is set, else b.
inline F4 select(I4 mask, F4 a, F4 b) { return (F4)(((I4)a & mask) | ((I4)b & ~mask)); }
inline I4 select(I4 mask, I4 a, I4 b) { return (a & mask) | (b & ~mask); }
inline D2 select(I2 mask, D2 a, D2 b) { return (D2)(((I2)a & mask) | ((I2)b & ~mask)); }

}  // namespace attnx::vec
