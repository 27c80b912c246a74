// attnx core: the Gram update kernel of the minimal-d search (SPEC §4).
#pragma once

namespace attnx {

// Contract: G is L x L, column-major with leading dimension L (symmetric, so row-major too).
// Adds Pb * Pb^T to the LOWER triangle (i >= j) of G, where Pb is L x n column-major (ld L).
// The upper triangle is left untouched. Summation order may differ between implementations,
// so results agree to float rounding, not bit for bit.
void gram_update_lower(float* G, int L, const float* Pb, int n);

// The implementations behind gram_update_lower, callable directly so tests compare them:
void gram_update_lower_eigen(float* G, int L, const float* Pb, int n);   // Eigen rankUpdate
void gram_update_lower_kernel(float* G, int L, const float* Pb, int n);  // hand-written; four-lane
                          // vectors (wasm_simd128 with -msimd128, SSE2 on x86-64), else scalar
// The scalar twin of gram_update_lower_kernel, always available: the same sums in the same order
// (separate multiply and add), so the two agree bit for bit (tests compare them).
void gram_update_lower_scalar(float* G, int L, const float* Pb, int n);
// Name of what gram_update_lower runs: "eigen", "wasm-simd128" or "scalar".
const char* gram_kernel_name();
// Name of what gram_update_lower_kernel runs: "wasm-simd128", "sse2" or "scalar".
const char* gram_vector_kernel_name();

// Copies the lower triangle onto the upper one (G becomes fully symmetric). Cache-blocked.
void symmetrize_from_lower(float* G, int L);

}  // namespace attnx
