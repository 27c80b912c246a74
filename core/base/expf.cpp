// attnx core: musl's expf, one by one and four at a time in two-lane vectors (see expf.hpp).
#include <attnx/expf.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "vec4.hpp"

namespace attnx {

namespace {

constexpr int kTableBits = 5;
constexpr int kN = 1 << kTableBits;
// tab[i] = bits of 2^(i/32) minus (i << 47): 2^(k/32) = asdouble(tab[k % 32] + (k << 47)).
constexpr std::uint64_t kTab[kN] = {
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
};
constexpr double kInvLn2N = 0x1.71547652b82fep+0 * kN;
constexpr double kShift = 0x1.8p+52;
constexpr double kC0 = 0x1.c6af84b912394p-5 / kN / kN / kN;
constexpr double kC1 = 0x1.ebfce50fac4f3p-3 / kN / kN;
constexpr double kC2 = 0x1.62e42ff0c52d6p-1 / kN;

std::uint32_t bits_of(float x) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
}

// Top 12 bits of |x| (sign cleared): at least kTop88 for |x| >= 88, kTopInf for infinities and NaN.
std::uint32_t abs_top12(float x) { return (bits_of(x) >> 20) & 0x7ff; }
constexpr std::uint32_t kTop88 = 0x42b;   // 88.0f is 0x42b00000
constexpr std::uint32_t kTopInf = 0x7f8;  // +inf is 0x7f800000

using vec::D2;
using vec::U2;

}  // namespace

float expf_portable(float x) {
  if (abs_top12(x) >= kTop88) {
    if (bits_of(x) == bits_of(-__builtin_inff())) return 0.0f;
    if (abs_top12(x) >= kTopInf) return x + x;  // +inf, NaN
    if (x > 0x1.62e42ep6f) return __builtin_inff();                       // overflow
    if (x < -0x1.9fe368p6f) return 0.0f;                                  // underflow
  }
  const double z = kInvLn2N * double(x);
  double kd = z + kShift;  // rounds z to an integer in the low bits
  std::uint64_t ki;
  std::memcpy(&ki, &kd, sizeof ki);
  kd -= kShift;
  const double r = z - kd;
  const std::uint64_t t = kTab[ki % kN] + (ki << (52 - kTableBits));
  double s;
  std::memcpy(&s, &t, sizeof s);
  const double p = kC0 * r + kC1, r2 = r * r;
  double y = kC2 * r + 1;
  y = p * r2 + y;
  return static_cast<float>(y * s);
}

namespace {

// e^x of two normal-range floats (|x| < 88, not NaN) as expf_portable computes each.
inline D2 expf_pair(float a, float b) {
  const D2 z = D2{double(a), double(b)} * kInvLn2N;
  D2 kd = z + kShift;  // rounds z to an integer in the low bits
  const U2 ki = (U2)kd;
  kd -= kShift;
  const D2 r = z - kd;
  const U2 t = U2{kTab[ki[0] % kN], kTab[ki[1] % kN]} + (ki << (52 - kTableBits));
  const D2 p = kC0 * r + kC1, r2 = r * r;
  D2 y = kC2 * r + 1;
  y = p * r2 + y;
  return y * (D2)t;
}

}  // namespace

void expf_inplace(float* x, std::size_t n) {
  std::size_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const std::uint32_t top = std::max(std::max(abs_top12(x[j]), abs_top12(x[j + 1])),
                                       std::max(abs_top12(x[j + 2]), abs_top12(x[j + 3])));
    if (top >= kTop88) {  // special cases: one by one
      for (std::size_t q = j; q < j + 4; ++q) x[q] = expf_portable(x[q]);
      continue;
    }
    const D2 lo = expf_pair(x[j], x[j + 1]), hi = expf_pair(x[j + 2], x[j + 3]);
    x[j] = static_cast<float>(lo[0]);
    x[j + 1] = static_cast<float>(lo[1]);
    x[j + 2] = static_cast<float>(hi[0]);
    x[j + 3] = static_cast<float>(hi[1]);
  }
  for (; j < n; ++j) x[j] = expf_portable(x[j]);
}

}  // namespace attnx
