// attnx core: a Gram update against a float64 reference (see gram_check.hpp).
#include <attnx/gram_check.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include <attnx/errors.hpp>
#include <attnx/rng.hpp>

namespace attnx {

GramUpdateError gram_update_error(GramUpdate update, int L, int n, std::uint64_t seed) {
  require_int("L", L, 1, 4096);
  require_int("n", n, 1, 512);
  Rng rng(seed);
  const std::size_t l = static_cast<std::size_t>(L);
  auto normals = [&rng](std::size_t count) {
    std::vector<float> v(count);
    for (float& x : v) x = static_cast<float>(rng.normal());
    return v;
  };
  const std::vector<float> G0 = normals(l * l), P = normals(l * static_cast<std::size_t>(n));
  std::vector<float> G = G0;
  update(G.data(), L, P.data(), n);
  GramUpdateError r;
  for (std::size_t j = 0; j < l; ++j)
    for (std::size_t i = 0; i < l; ++i) {
      const std::size_t at = i + j * l;  // column-major
      if (i < j) {
        r.upper_untouched = r.upper_untouched && G[at] == G0[at];
        continue;
      }
      double ref = G0[at];
      for (int t = 0; t < n; ++t) ref += double(P[i + t * l]) * double(P[j + t * l]);
      r.scale = std::max(r.scale, std::abs(ref));
      r.max_err = std::max(r.max_err, std::abs(G[at] - ref));
    }
  return r;
}

}  // namespace attnx
