// attnx core: e^x in single precision, the same bits on every build.
// The function is musl's expf (Arm's optimized routines, 2018: 2^(k/32) from a table of 32
// doubles times a cubic in double, then rounded to float). The WebAssembly build's std::exp(float)
// is that very function, so the pages' numbers are the same as with it; natively it replaces the
// C library's expf (glibc's may contract into FMA on some CPUs), so the CLI gives the pages' bits.
// Built from +, -, * in double with -ffp-contract=off: exact IEEE-754 operations everywhere.
#pragma once
#include <cstddef>

namespace attnx {

// e^x as musl's expf: 0 for -inf and below about -103.97, +inf above about 88.72 and for +inf,
// NaN for NaN (ULP error 0.502).
float expf_portable(float x);
// x[j] = expf_portable(x[j]) for j < n, four at a time in two-lane vectors (the same bits as one by one).
void expf_inplace(float* x, std::size_t n);

}  // namespace attnx
