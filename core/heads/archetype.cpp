// attnx core: archetypes of a dense head (see archetype.hpp for the rules).
#include <attnx/archetype.hpp>

#include <algorithm>
#include <numeric>

namespace attnx {

namespace {

std::string offset_text(int o) { return (o > 0 ? "+" : "") + std::to_string(o); }

Archetype diagonal(const std::vector<double>& offset_mass, double total, int L) {
  int best = 0;
  for (int d = 1; d < L; ++d)
    for (int o : {-d, d})
      if (offset_mass[o + L - 1] > offset_mass[best + L - 1]) best = o;
  Archetype a;
  a.kind = "diagonal";
  a.offset = best;
  a.share = offset_mass[best + L - 1] / total;
  a.cells = 1;
  a.code = "diagonal:" + std::to_string(best);
  const std::string what = best == 0 ? "self" : best == -1 ? "previous token" : best == 1 ? "next token" : "diagonal";
  a.label = what + " (diagonal, offset " + offset_text(best) + ")";
  return a;
}

Archetype sink(const std::vector<double>& column_mass, double total, int L) {
  std::vector<int> order(static_cast<std::size_t>(L));
  std::iota(order.begin(), order.end(), 0);
  const int most = std::max(1, std::min(kMaxSinkColumns, L / 8));
  std::partial_sort(order.begin(), order.begin() + most, order.end(), [&](int a, int b) {
    return column_mass[a] > column_mass[b] || (column_mass[a] == column_mass[b] && a < b);
  });
  Archetype a;
  a.kind = "sink";
  double held = 0;
  for (int s = 1; s <= most; ++s) {
    held += column_mass[order[s - 1]];
    a.columns.push_back(order[s - 1]);
    a.share = held / total;
    if (a.share >= kArchetypeShare) break;
  }
  a.cells = static_cast<int>(a.columns.size());
  std::string list;
  for (std::size_t n = 0; n < a.columns.size(); ++n) {
    a.code += (n ? "+" : "sink:") + std::to_string(a.columns[n]);
    list += (n ? ", " : "") + std::to_string(a.columns[n]);
  }
  a.label = a.columns.size() == 1 ? "sink (column " + list + ")" : "sinks (columns " + list + ")";
  return a;
}

Archetype window(const std::vector<double>& offset_mass, double total, int L) {
  std::vector<double> prefix(offset_mass.size() + 1, 0.0);  // prefix[n] = sum of offset_mass[0, n)
  for (std::size_t n = 0; n < offset_mass.size(); ++n) prefix[n + 1] = prefix[n] + offset_mass[n];
  auto band = [&](int lo, int hi) {  // offsets lo..hi, clipped to the matrix
    lo = std::max(lo, -(L - 1)), hi = std::min(hi, L - 1);
    return prefix[hi + L] - prefix[lo + L - 1];
  };
  const int widest = std::max(2, std::min(kMaxWindowWidth, L / 8));
  Archetype a;
  a.kind = "window";
  for (int w = 2; w <= widest; ++w) {
    int best = -(w - 1);
    for (int lo = -(w - 1) + 1; lo <= 0; ++lo)
      if (band(lo, lo + w - 1) > band(best, best + w - 1)) best = lo;
    a.offset_lo = best, a.offset_hi = best + w - 1;
    a.share = band(a.offset_lo, a.offset_hi) / total;
    a.cells = w;
    if (a.share >= kArchetypeShare) break;
  }
  const std::string range = std::to_string(a.offset_lo) + ".." + std::to_string(a.offset_hi);
  a.code = "window:" + range;
  a.label = "local window (offsets " + range + ", width " + std::to_string(a.cells) + ")";
  return a;
}

}  // namespace

std::vector<Archetype> archetype_candidates(const std::vector<double>& offset_mass,
                                            const std::vector<double>& column_mass, double total, int L) {
  std::vector<Archetype> v = {diagonal(offset_mass, total, L), sink(column_mass, total, L),
                              window(offset_mass, total, L)};
  for (Archetype& a : v) a.matches = a.share >= kArchetypeShare;
  return v;
}

Archetype choose_archetype(const std::vector<Archetype>& candidates) {
  const Archetype* best = nullptr;
  double closest = 0;
  for (const Archetype& a : candidates) {
    closest = std::max(closest, a.share);
    if (!a.matches) continue;
    if (!best || a.cells < best->cells || (a.cells == best->cells && a.share > best->share)) best = &a;
  }
  if (best) return *best;
  Archetype none;
  none.share = closest;
  none.code = "none";
  none.label = "none";
  return none;
}

}  // namespace attnx
