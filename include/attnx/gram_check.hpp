// attnx core: a Gram update checked against a float64 reference, so that the WebAssembly test
// build can check its kernels as the native tests do (wasm/test_hooks.cpp gramSelfTest).
#pragma once
#include <cstdint>

namespace attnx {

// A Gram update as gram.hpp's functions are: adds Pb Pb^T to the lower triangle of G (L x L).
using GramUpdate = void (*)(float* G, int L, const float* Pb, int n);

struct GramUpdateError {
  double max_err = 0;           // largest |G - (G0 + Pb Pb^T)| over the lower triangle
  double scale = 0;             // largest |G0 + Pb Pb^T| there (the reference's magnitude)
  bool upper_untouched = true;  // the upper triangle kept G0's bits
};

// Runs `update` on G0 (L x L) with Pb (L x n), both standard normal from Rng(seed) (G0 first), and
// compares with the reference summed in double. The same seed gives the same G0 and Pb for every
// update. Requires 1 <= L <= 4096 and 1 <= n <= 512 (InvalidArgument naming "L" or "n"). Cost: the
// update plus L^2 n / 2 double multiply-adds; memory 4 L (L + n) bytes twice.
GramUpdateError gram_update_error(GramUpdate update, int L, int n, std::uint64_t seed);

}  // namespace attnx
