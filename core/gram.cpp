#include "gram.hpp"

#include <Eigen/Core>
#include <algorithm>

namespace attnx {

void gram_update_lower_eigen(float* G, int L, const float* Pb, int n) {
  Eigen::Map<Eigen::MatrixXf> g(G, L, L);
  Eigen::Map<const Eigen::MatrixXf> p(Pb, L, n);
  g.selfadjointView<Eigen::Lower>().rankUpdate(p);
}

void gram_update_lower_kernel(float* G, int L, const float* Pb, int n) {
  for (int j = 0; j < L; ++j) {
    float* gc = G + static_cast<std::size_t>(j) * L;
    for (int c = 0; c < n; ++c) {
      const float* pc = Pb + static_cast<std::size_t>(c) * L;
      const float pj = pc[j];
      for (int i = j; i < L; ++i) gc[i] += pc[i] * pj;
    }
  }
}

void gram_update_lower(float* G, int L, const float* Pb, int n) {
#ifdef __EMSCRIPTEN__
  gram_update_lower_kernel(G, L, Pb, n);
#else
  gram_update_lower_eigen(G, L, Pb, n);
#endif
}

const char* gram_kernel_name() {
#ifdef __EMSCRIPTEN__
#ifdef __wasm_simd128__
  return "wasm-simd128";
#else
  return "scalar";
#endif
#else
  return "eigen";
#endif
}

void symmetrize_from_lower(float* G, int L) {
  constexpr int T = 32;
  const std::size_t l = static_cast<std::size_t>(L);
  for (int jb = 0; jb < L; jb += T) {
    const int je = std::min(L, jb + T);
    for (int ib = jb; ib < L; ib += T) {
      const int ie = std::min(L, ib + T);
      for (int i = ib; i < ie; ++i)
        for (int j = jb; j < std::min(je, i); ++j) G[i * l + j] = G[j * l + i];
    }
  }
}

}  // namespace attnx
