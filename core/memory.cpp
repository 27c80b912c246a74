#include <attnx/memory.hpp>

#include <string>

#include <attnx/errors.hpp>

namespace attnx {

std::uint64_t estimate_construct_bytes(int L, int d) {
  const std::uint64_t l = static_cast<std::uint64_t>(L), dd = static_cast<std::uint64_t>(d);
  // P and its transpose (L x d each), X (L x 2d), the Gram matrix, logits and M (L x L each), the
  // kernel's packing buffer ((L + 63) x 128, rows padded to the widest kernel's tile), float32;
  // plus per-row work buffers.
  return 4 * (4 * l * dd + 3 * l * l + 128 * (l + 63)) + 64 * l;
}

int mind_chunk_columns(int step) { return step * (step < 256 ? 256 / step : 1); }

std::uint64_t estimate_mind_bytes(int L, int step, int k, ProjectionKind projection) {
  const std::uint64_t l = static_cast<std::uint64_t>(L);
  const std::uint64_t chunk = static_cast<std::uint64_t>(mind_chunk_columns(step));
  // Gram (L x L), pending columns (L x chunk), the kernel's packing buffer ((L + 63) x 256: rows
  // padded to the widest kernel's tile), row and watched-column buffers, B and the pattern.
  const std::uint64_t watch = static_cast<std::uint64_t>(k > 64 ? k : 64);
  std::uint64_t extra = 0;  // gaussian and rademacher: nothing more
  if (column_family(projection) == ProjectionKind::Orthogonal)  // the block, one column in double
    extra += 4 * l * static_cast<std::uint64_t>(orthogonal_block(L)) + 8 * l;
  if (unit_rows(projection)) extra += 8 * l;  // the raw rows' squared norms
  return 4 * (l * l + l * chunk + (l + 63) * 256 + 2 * l + l * watch) +
         20 * l * static_cast<std::uint64_t>(k) + 64 * l + extra;
}

void check_budget(const char* what, std::uint64_t bytes, std::uint64_t max_bytes) {
  if (bytes <= max_bytes) return;
  auto mib = [](std::uint64_t b) { return std::to_string((b + (1u << 20) - 1) >> 20); };
  throw BudgetExceeded(std::string(what) + " needs about " + mib(bytes) +
                       " MiB, above the memory budget of " + mib(max_bytes) +
                       " MiB; reduce L or d, or raise the budget");
}

}  // namespace attnx
