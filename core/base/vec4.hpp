// attnx core (internal): four floats or two doubles in a vector register, through GCC's and
// Clang's vector extension (SSE2 natively, SIMD128 in WebAssembly). Element-wise IEEE operations
// only (no FMA: -ffp-contract=off), so a loop written with them gives the scalar loop's bits.
// Not installed.
#pragma once
#include <cstdint>
#include <cstring>
#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace attnx::vec {

typedef float F4 __attribute__((vector_size(16)));
typedef std::int32_t I4 __attribute__((vector_size(16)));  // lane masks of F4 comparisons
typedef std::uint32_t U4 __attribute__((vector_size(16)));  // four words (logical shifts)
typedef double D2 __attribute__((vector_size(16)));
typedef float F2 __attribute__((vector_size(8)));  // two floats (a D2 rounded to float)
typedef std::int64_t I2 __attribute__((vector_size(16)));  // lane masks of D2 comparisons
typedef std::uint64_t U2 __attribute__((vector_size(16)));  // a D2's bits

inline F4 load4(const float* p) {
  F4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store4(float* p, F4 v) { std::memcpy(p, &v, sizeof v); }
inline D2 load2(const double* p) {
  D2 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store2(double* p, D2 v) { std::memcpy(p, &v, sizeof v); }
inline F4 splat4(float x) { return F4{x, x, x, x}; }
// Lanes 0, 1 (widen_lo) or 2, 3 (widen_hi) of k as doubles (exact).
inline D2 widen_lo(F4 k) { return D2{double(k[0]), double(k[1])}; }
inline D2 widen_hi(F4 k) { return D2{double(k[2]), double(k[3])}; }
// Each lane rounded to float (to nearest, as static_cast<float>) and back to double. In
// WebAssembly an empty asm statement between the two conversions keeps Clang 14 from folding them
// into two scalar round trips (f32x4.demote_f64x2_zero and f64x2.promote_low_f32x4 instead).
inline D2 round_to_float2(D2 x) {
#if defined(__wasm_simd128__)
  v128_t f = wasm_f32x4_demote_f64x2_zero((v128_t)x);
  __asm__("" : "+r"(f));
  return (D2)wasm_f64x2_promote_low_f32x4(f);
#else
  return __builtin_convertvector(__builtin_convertvector(x, F2), D2);
#endif
}
// The 4 x 4 transpose in place: lane q of r[m] becomes lane m of r[q] (Clang's and GCC's own
// shuffle builtins).
inline void transpose4(F4 r[4]) {
#if defined(__clang__)
  const F4 t0 = __builtin_shufflevector(r[0], r[1], 0, 4, 1, 5), t1 = __builtin_shufflevector(r[0], r[1], 2, 6, 3, 7);
  const F4 t2 = __builtin_shufflevector(r[2], r[3], 0, 4, 1, 5), t3 = __builtin_shufflevector(r[2], r[3], 2, 6, 3, 7);
  r[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
  r[1] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
  r[2] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
  r[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
#else
  const F4 t0 = __builtin_shuffle(r[0], r[1], I4{0, 4, 1, 5}), t1 = __builtin_shuffle(r[0], r[1], I4{2, 6, 3, 7});
  const F4 t2 = __builtin_shuffle(r[2], r[3], I4{0, 4, 1, 5}), t3 = __builtin_shuffle(r[2], r[3], I4{2, 6, 3, 7});
  r[0] = __builtin_shuffle(t0, t2, I4{0, 1, 4, 5});
  r[1] = __builtin_shuffle(t0, t2, I4{2, 3, 6, 7});
  r[2] = __builtin_shuffle(t1, t3, I4{0, 1, 4, 5});
  r[3] = __builtin_shuffle(t1, t3, I4{2, 3, 6, 7});
#endif
}
// {a[0], a[1], b[0], b[1]}: two pairs of floats, each in one 8-byte load.
inline F4 load_pairs(const float* a, const float* b) {
#if defined(__wasm_simd128__)
  return (F4)wasm_v128_load64_lane(b, wasm_v128_load64_zero(a), 1);
#else
  std::uint64_t pa, pb;
  std::memcpy(&pa, a, sizeof pa);
  std::memcpy(&pb, b, sizeof pb);
  return (F4)U2{pa, pb};
#endif
}
// The even lanes of a then b ({a0, a2, b0, b2}) and the odd ones ({a1, a3, b1, b3}).
inline void deinterleave(F4 a, F4 b, F4& even, F4& odd) {
#if defined(__clang__)
  even = __builtin_shufflevector(a, b, 0, 2, 4, 6);
  odd = __builtin_shufflevector(a, b, 1, 3, 5, 7);
#else
  even = __builtin_shuffle(a, b, I4{0, 2, 4, 6});
  odd = __builtin_shuffle(a, b, I4{1, 3, 5, 7});
#endif
}
// Lane by lane: a where mask is set, else b.
inline F4 select(I4 mask, F4 a, F4 b) { return (F4)(((I4)a & mask) | ((I4)b & ~mask)); }
inline I4 select(I4 mask, I4 a, I4 b) { return (a & mask) | (b & ~mask); }
inline D2 select(I2 mask, D2 a, D2 b) { return (D2)(((I2)a & mask) | ((I2)b & ~mask)); }

}  // namespace attnx::vec
