// attnx core: the Gram update kernels of the minimal-d search and the Gram ladder (SPEC §4).
#pragma once
#include <vector>

namespace attnx {

// The hand-written Gram kernels. All of them sum every element of G in the same order with
// separate multiply and add (no FMA), so they give bit-identical results (tests compare them):
//   Scalar       plain C++, every build
//   Sse2         four-lane SSE2, x86-64 native builds
//   WasmSimd128  four-lane wasm_simd128, the WebAssembly SIMD build
//   Avx2         eight-lane AVX2, x86-64 native builds on a CPU that has AVX2 (chosen at run time)
//   Avx512       sixteen-lane AVX-512F, x86-64 native builds on a CPU that has it (run time)
// Auto stands for gram_kernel_best().
enum class GramKernel { Auto, Scalar, Sse2, WasmSimd128, Avx2, Avx512 };

// Contract: G is L x L, column-major with leading dimension L (symmetric, so row-major too).
// Adds Pb * Pb^T to the LOWER triangle (i >= j) of G, where Pb is L x n column-major (ld L), with
// the kernel k. The upper triangle is left untouched. Nothing happens when L <= 0 or n <= 0.
// Errors: InvalidArgument("gram_kernel") when k does not run here (gram_kernel_runs). Cost: about L^2 n / 2
// multiply-adds, memory L x min(n, 256) floats (a packed copy of Pb's columns, rows padded to the
// kernel's tile).
void gram_update_lower_with(GramKernel k, float* G, int L, const float* Pb, int n);
// gram_update_lower_with(gram_kernel_best(), ...): what the min-d search and the ladder run.
void gram_update_lower(float* G, int L, const float* Pb, int n);

// A band's first column is a multiple of this (every kernel's column block divides it: 8 is
// AVX-512's). The split's edges are rounded to it: 8 columns at L = 4096 are about 12 ms of one
// worker's sum (32 were 50 ms, too coarse to balance the workers' ends).
constexpr int kGramBandAlign = 8;
// Contract: the same update as gram_update_lower_with on columns c0 .. c1-1 of G's lower triangle
// only. band is those columns of G (L x (c1 - c0), column-major, ld L: band[(j - c0) L + i] is
// G(i, j)); rows i >= j are added to, nothing else is touched. Each element gets the same sum, bit
// for bit, as from the whole update, so G can be summed in bands by separate workers. Errors:
// InvalidArgument("gram_band") unless 0 <= c0 <= c1 <= L and c0 % kGramBandAlign == 0;
// InvalidArgument("gram_kernel") as gram_update_lower_with. Cost: about (c1 - c0)(L - (c0 + c1)/2) n
// multiply-adds.
void gram_update_lower_band_with(GramKernel k, float* band, int L, const float* Pb, int n, int c0,
                                 int c1);
void gram_update_lower_band(float* band, int L, const float* Pb, int n, int c0, int c1);
// Throws InvalidArgument("gram_band") unless 0 <= c0 <= c1 <= L (c0 < c1 unless allow_empty) and
// c0 % kGramBandAlign == 0: the columns a band may have.
void require_gram_band(int c0, int c1, int L, bool allow_empty);

// Whether kernel k is compiled into this build and this CPU can run it (Auto: always true).
bool gram_kernel_runs(GramKernel k);
// Throws InvalidArgument("gram_kernel", message naming the kernels that run here) unless
// gram_kernel_runs(k).
void require_gram_kernel_runs(GramKernel k);
// The kernels that run here, narrowest first (Scalar always, never Auto).
std::vector<GramKernel> gram_kernels_available();
// The widest kernel that runs here: Avx512, else Avx2, else Sse2 / WasmSimd128, else Scalar.
GramKernel gram_kernel_best();
// "auto", "scalar", "sse2", "wasm-simd128", "avx2" or "avx512".
const char* gram_kernel_label(GramKernel k);
// Name of what gram_update_lower runs: gram_kernel_label(gram_kernel_best()).
const char* gram_kernel_name();

// The four-lane kernel (wasm_simd128 with -msimd128, SSE2 on x86-64, else the scalar one) and the
// scalar one, directly; same contract as gram_update_lower_with.
void gram_update_lower_kernel(float* G, int L, const float* Pb, int n);
void gram_update_lower_scalar(float* G, int L, const float* Pb, int n);
// Name of what gram_update_lower_kernel runs: "wasm-simd128", "sse2" or "scalar".
const char* gram_vector_kernel_name();
// Eigen's rankUpdate (another summation order: agrees to float rounding, not bit for bit). Kept as
// an independent implementation for tests and benchmarks.
void gram_update_lower_eigen(float* G, int L, const float* Pb, int n);

// Copies the lower triangle onto the upper one (G becomes fully symmetric). Cache-blocked.
void symmetrize_from_lower(float* G, int L);

}  // namespace attnx
