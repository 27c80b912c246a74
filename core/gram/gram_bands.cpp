// attnx core: G summed in column bands (see gram_bands.hpp).
#include <attnx/gram_bands.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include <attnx/errors.hpp>
#include <attnx/gram.hpp>
#include <attnx/gram_ladder.hpp>

namespace attnx {

std::vector<int> gram_band_edges(int L, int from, int d, int workers, double home_ahead) {
  const int l = std::max(L, 0);
  const double macs = 0.5 * double(l) * double(l) * double(std::max(0, d - from));
  const int m = std::min({workers, kGramMaxBands, l / kGramBandMinColumns});
  if (m < 2 || macs < kGramSplitMinMacs) return {0, l};
  // The work of columns 0 .. c-1 of the lower triangle is about c L - c^2 / 2 (of L^2 / 2 in all):
  // an edge with a share s of it before is at c = L (1 - sqrt(1 - s)). The ladder's own band gets
  // (1 + kGramHomeExtra) / m less (m - 1) / m of its other work's share, the helpers' the rest in
  // equal shares (with W = macs and a = home_ahead: home s W + a = helper (1 - s) W / (m - 1)).
  const double ahead = std::max(0.0, home_ahead) / macs;
  const double home = std::max(0.0, (1.0 + kGramHomeExtra) / m - ahead * (m - 1) / m);
  std::vector<int> edges{0};
  for (int b = 1; b < m; ++b) {
    const double share = home + (b - 1) * (1.0 - home) / (m - 1);
    const double c = double(l) * (1.0 - std::sqrt(1.0 - share));
    int e = static_cast<int>(std::lround(c / kGramBandAlign)) * kGramBandAlign;
    if (b == 1) e = std::max(e, kGramBandMinColumns);  // the ladder's band: narrow rather than none
    if (e - edges.back() >= kGramBandMinColumns && l - e >= kGramBandMinColumns) edges.push_back(e);
  }
  edges.push_back(l);
  return edges;
}

std::size_t gram_band_lower_size(int L, int c0, int c1) {
  const std::uint64_t w = static_cast<std::uint64_t>(std::max(0, c1 - c0));
  // sum over j = c0 .. c1-1 of (L - j) = w L - (c0 + c1 - 1) w / 2, the product even (in 64 bits:
  // a 32-bit size_t holds the result, at most L^2 / 2, not always the product)
  return static_cast<std::size_t>(w * static_cast<std::uint64_t>(L) - (w * static_cast<std::uint64_t>(c0 + c1 - 1)) / 2);
}

namespace {

void check_task(const GramBandTask& t, std::size_t start_size) {
  auto bad = [](const std::string& what) { fail("gram_band", "gram_band: " + what); };
  if (t.L < 1) bad("L must be at least 1 (got " + std::to_string(t.L) + ")");
  if (t.from < 0 || t.d < t.from)
    bad("columns must satisfy 0 <= from <= d (got " + std::to_string(t.from) + " .. " +
        std::to_string(t.d) + ")");
  require_gram_band(t.c0, t.c1, t.L, false);
  int prev = t.from;
  for (int r : t.rungs) {
    if (r <= prev || r > t.d || r % kLadderStep != 0)
      bad("rung points must be ascending multiples of " + std::to_string(kLadderStep) +
          " in (from, d] (got " + std::to_string(r) + ")");
    prev = r;
  }
  const std::size_t w = static_cast<std::size_t>(t.c1 - t.c0) * static_cast<std::size_t>(t.L);
  if (start_size != 0 && start_size != w)
    bad("the start of a band of columns " + std::to_string(t.c0) + " .. " + std::to_string(t.c1) +
        " has " + std::to_string(w) + " floats (got " + std::to_string(start_size) + ")");
}

}  // namespace

GramBand sum_gram_band(const GramBandTask& task, std::vector<float> start,
                       const std::function<bool(double)>& progress) {
  check_task(task, start.size());
  const std::size_t l = static_cast<std::size_t>(task.L);
  const std::size_t w = static_cast<std::size_t>(task.c1 - task.c0) * l;
  GramBand out;
  out.at_d = std::move(start);
  out.at_d.resize(w, 0.0f);
  out.rungs.reserve(gram_band_lower_size(task.L, task.c0, task.c1) * task.rungs.size());
  ProjectionStream stream(column_family(task.kind), task.L, task.seed);
  stream.skip(task.from);
  std::vector<float> cols(l * kLadderStep);
  auto rung = task.rungs.begin();
  const double span = std::max(1, task.d - task.from);
  // The ladder's chunks: up to the next multiple of kLadderStep (GramLadder::prepare).
  for (int t = task.from; t < task.d;) {
    const int n = std::min(kLadderStep - t % kLadderStep, task.d - t);
    stream.next(n, cols.data());
    gram_update_lower_band(out.at_d.data(), task.L, cols.data(), n, task.c0, task.c1);
    t += n;
    if (rung != task.rungs.end() && *rung == t) {  // the lower part of each column
      for (int j = task.c0; j < task.c1; ++j) {
        const float* col = out.at_d.data() + static_cast<std::size_t>(j - task.c0) * l + static_cast<std::size_t>(j);
        out.rungs.insert(out.rungs.end(), col, col + (task.L - j));
      }
      ++rung;
    }
    if (progress && !progress(double(t - task.from) / span)) {
      out.cancelled = true;
      out.at_d.clear();
      out.rungs.clear();
      return out;
    }
  }
  return out;
}

}  // namespace attnx
