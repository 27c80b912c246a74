#include <attnx/gram_ladder.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include <attnx/errors.hpp>
#include <attnx/gram.hpp>
#include <attnx/gram_bands.hpp>

namespace attnx {

namespace {

using Reader = std::function<void(float*, std::size_t, std::size_t)>;

// Reads a band's lower part at a rung point (GramBand::rungs: rows j .. L-1 of each column j in
// c0 .. c1-1, one column after the other) through read, from float `off` on, into those rows of
// the L x L buffer r: in one read to the band's first place, then each column moved to its own
// from the last back (column j's packed place starts at or before its own, and after every
// earlier column's). The rows above each column's diagonal are left unset: a rung's lower
// triangle is all that is read.
void read_band_lower(float* r, int L, int c0, int c1, std::size_t off, const Reader& read) {
  const std::size_t l = static_cast<std::size_t>(L);
  float* band = r + static_cast<std::size_t>(c0) * l;
  std::size_t at = gram_band_lower_size(L, c0, c1);
  read(band, off, at);
  for (int j = c1 - 1; j >= c0; --j) {
    const std::size_t n = static_cast<std::size_t>(L - j);
    at -= n;
    std::memmove(r + static_cast<std::size_t>(j) * l + static_cast<std::size_t>(j), band + at, n * sizeof(float));
  }
}

}  // namespace

GramLadder::GramLadder(std::uint64_t rung_bytes) : cap_(std::min(rung_bytes, kLadderMaxRungBytes)) {}

std::uint64_t GramLadder::rung_bytes() const {
  std::uint64_t b = 0;
  for (const auto& r : rungs_) b += r.second.size() * sizeof(float);
  return b;
}

void GramLadder::set_rung_cap(std::uint64_t bytes, int d_next) {
  cap_ = std::min(bytes, kLadderMaxRungBytes);
  evict_for(0, d_next);
}

void GramLadder::reset(int L, std::uint64_t seed, ProjectionKind family) {
  L_ = L;
  seed_ = seed;
  family_ = family;
  has_key_ = true;
  rng_ = Rng(seed);
  // Release the memory (clear() would keep the capacity of another L's buffers).
  std::vector<std::uint64_t>().swap(col_seeds_);
  FloatBuffer().swap(P_);
  drawn_ = 0;
  FloatBuffer().swap(work_);
  work_lower_d_ = -1;
  work_symmetric_ = false;
  rungs_.clear();
  band_ = BandSum{};
  late_ = LateRungs{};
  ahead_ = Ahead{};
  pending_added_ = pending_d_ = -1;
}

void GramLadder::draw_columns(int d) {
  // One word of rng_ seeds each column's generator, as ProjectionStream does; the words are kept,
  // so columns dropped to save memory can be drawn again (the columns before d stay in P_, so an
  // orthogonal block's earlier columns are always there).
  while (static_cast<int>(col_seeds_.size()) < d) col_seeds_.push_back(rng_.next());
  const std::size_t l = static_cast<std::size_t>(L_);
  // Spare columns (beyond d) share the cap with the rungs.
  const std::uint64_t spare = static_cast<std::uint64_t>(std::max(0, drawn_ - d)) * l * sizeof(float);
  if (spare > 0 && spare + held_rung_bytes() > cap_) {
    P_.resize(l * static_cast<std::size_t>(d));  // keep what scrubbing back up may need, no more
    P_.shrink_to_fit();
    drawn_ = d;
  }
  if (drawn_ >= d) return;
  P_.resize(l * static_cast<std::size_t>(d));
  const int block = orthogonal_block(L_);
  for (int c = drawn_; c < d; ++c)  // orthogonal columns read their block's earlier ones from P_
    draw_raw_column(family_, col_seeds_[static_cast<std::size_t>(c)], L_, c,
                    P_.data() + static_cast<std::size_t>(c - c % block) * l,
                    P_.data() + static_cast<std::size_t>(c) * l);
  drawn_ = d;
}

int GramLadder::start_from(int target) {
  const int from = start_column(L_, seed_, target, family_);
  if (work_lower_d_ >= 0 && from == work_lower_d_) {  // continue in place
    if (from < target && from % kLadderStep == 0) keep_rung(from, target);  // G at `from`, copied
    return from;
  }
  const bool kept = keep_working_rung(target);
  if (from > 0) {
    work_ = rungs_.at(from);  // into the same buffer when the working G was not kept
  } else {
    work_.assign(static_cast<std::size_t>(L_) * L_, 0.0f);
  }
  work_lower_d_ = from;
  work_symmetric_ = false;
  if (kept) evict_for(0, target);  // only now: making room before could evict the start
  return from;
}

void GramLadder::evict_for(std::uint64_t need, int d_now) {
  // The rungs kept and those being assembled (by a band sum, or waiting for a finished one's late
  // parts) count alike: the farthest from d_now goes first, of equal ones the smallest, until
  // `need` more bytes fit under the cap.
  for (;;) {
    std::vector<int> at;
    for (const auto& r : rungs_) at.push_back(r.first);
    for (const auto* assembling : {&band_.rung_g, &late_.rung_g})
      for (const auto& r : *assembling)
        if (!r.second.empty()) at.push_back(r.first);  // (empty: evicted)
    if (at.empty() || held_rung_bytes() + need <= cap_) return;
    std::sort(at.begin(), at.end());
    int far = at.front();
    for (int a : at)
      if (std::abs(a - d_now) > std::abs(far - d_now)) far = a;
    if (rungs_.erase(far) != 0) continue;
    if (!empty_rung(band_.rung_g, far) && !empty_rung(late_.rung_g, far)) return;  // cannot happen
  }
}

bool GramLadder::empty_rung(std::map<int, FloatBuffer>& rung_g, int at) {
  auto it = rung_g.find(at);
  if (it == rung_g.end() || it->second.empty()) return false;
  FloatBuffer().swap(it->second);
  return true;
}

std::uint64_t GramLadder::held_rung_bytes() const {
  std::uint64_t b = rung_bytes();
  for (const auto* assembling : {&band_.rung_g, &late_.rung_g})
    for (const auto& r : *assembling) b += r.second.size() * sizeof(float);
  return b;
}

bool GramLadder::rung_worth_keeping(int at, int d_now) const {
  // Only rungs the cap can keep near d_now are worth a copy.
  const std::uint64_t bytes = static_cast<std::uint64_t>(L_) * L_ * sizeof(float);
  if (bytes == 0 || bytes > cap_) return false;
  return static_cast<std::uint64_t>(std::abs(d_now - at)) < (cap_ / bytes) * kLadderStep;
}

bool GramLadder::keep_working_rung(int d_next) {
  const int at = work_lower_d_;
  if (at <= 0 || at % kLadderStep != 0 || rungs_.count(at) || !rung_worth_keeping(at, d_next)) return false;
  rungs_.emplace(at, std::move(work_));
  work_lower_d_ = -1;
  work_symmetric_ = false;
  return true;
}

void GramLadder::keep_rung(int at, int d_now) {
  if (rungs_.count(at) || !rung_worth_keeping(at, d_now)) return;
  evict_for(static_cast<std::uint64_t>(L_) * L_ * sizeof(float), d_now);
  FloatBuffer copy(work_);  // copied before it enters the map: a failed copy leaves no rung
  rungs_.emplace(at, std::move(copy));
}

bool GramLadder::prepare(int L, std::uint64_t seed, int d,
                         const std::function<bool(double)>& progress, ProjectionKind kind) {
  const ProjectionKind family = column_family(kind);
  if (!has_key_ || L != L_ || seed != seed_ || family != family_) reset(L, seed, family);
  drop_bands();
  added_ = (pending_d_ == d && work_lower_d_ == d) ? pending_added_ : 0;  // summed in bands
  pending_added_ = pending_d_ = -1;
  draw_columns(d);
  if (work_lower_d_ != d) {
    const int from = start_from(d);
    const std::size_t l = static_cast<std::size_t>(L_);
    int t = from;
    while (t < d) {
      const int n = std::min(kLadderStep - t % kLadderStep, d - t);
      gram_update_lower(work_.data(), L_, P_.data() + static_cast<std::size_t>(t) * l, n);
      t += n;
      work_lower_d_ = t;
      work_symmetric_ = false;
      added_ = t - from;
      if (t % kLadderStep == 0 && t < d) keep_rung(t, d);  // G at d: kept when left (start_from)
      if (progress && !progress(double(t) / double(d))) return false;
    }
  }
  if (!work_symmetric_) {
    symmetrize_from_lower(work_.data(), L_);
    work_symmetric_ = true;
  }
  return true;
}

int GramLadder::start_column(int L, std::uint64_t seed, int d, ProjectionKind kind) const {
  if (!has_key_ || L != L_ || seed != seed_ || column_family(kind) != family_) return 0;
  if (work_lower_d_ == d) return d;
  int best = 0;
  auto it = rungs_.upper_bound(d);
  if (it != rungs_.begin()) best = std::prev(it)->first;
  const bool work_usable = work_lower_d_ >= 0 && work_lower_d_ <= d &&
                           (work_lower_d_ % kLadderStep == 0 || work_lower_d_ == d);
  return work_usable && work_lower_d_ >= best ? work_lower_d_ : best;
}

bool GramLadder::holds_columns(int L, std::uint64_t seed, int d, ProjectionKind kind) const {
  return has_key_ && L == L_ && seed == seed_ && column_family(kind) == family_ && drawn_ >= d;
}

std::vector<int> GramLadder::rungs_kept_between(int from, int d) const {
  // The rungs prepare keeps when it sums from .. d (keep_rung), not at d itself: there the summed G
  // is the working G, kept as a rung when the ladder leaves d (start_from), so no worker copies its
  // band at d twice (nor posts it again).
  std::vector<int> out;
  for (int t = (from / kLadderStep + 1) * kLadderStep; t < d; t += kLadderStep)
    if (rung_worth_keeping(t, d)) out.push_back(t);
  return out;
}

std::vector<int> GramLadder::rung_points() const {
  std::vector<int> out;
  for (const auto& r : rungs_) out.push_back(r.first);
  return out;
}

bool GramLadder::bands_begun(int L, std::uint64_t seed, int d, ProjectionKind kind) const {
  return band_.active && has_key_ && L == L_ && seed == seed_ && column_family(kind) == family_ &&
         d == band_.d;
}

int GramLadder::begin_bands(int L, std::uint64_t seed, int d, ProjectionKind kind,
                            std::vector<int> edges) {
  const ProjectionKind family = column_family(kind);
  if (!has_key_ || L != L_ || seed != seed_ || family != family_) reset(L, seed, family);
  drop_bands();
  late_ = LateRungs{};  // a new sum: an earlier one's late rung parts are not awaited any more
  pending_added_ = pending_d_ = -1;
  if (work_lower_d_ == d) return d;
  const int from = start_from(d);
  band_.active = true;
  band_.from = from;
  band_.d = d;
  band_.own_t = from;
  band_.rungs = rungs_kept_between(from, d);
  band_.edges = std::move(edges);
  work_lower_d_ = -1;  // work_ is being summed: never read as it is until finish_bands
  work_symmetric_ = false;
  return from;
}

float* GramLadder::rung_buffer(int t) {
  // Made when first written (not in begin_bands: that is on the way to the helpers' start).
  auto it = band_.rung_g.find(t);
  if (it != band_.rung_g.end()) return it->second.empty() ? nullptr : it->second.data();
  const std::size_t ll = static_cast<std::size_t>(L_) * L_;
  evict_for(ll * sizeof(float), band_.d);  // as keep_rung makes room
  FloatBuffer& g = band_.rung_g[t];
  g.resize(ll);
  return g.data();
}

void GramLadder::drop_bands() {
  if (!band_.active) return;
  band_ = BandSum{};
  work_lower_d_ = -1;
  work_symmetric_ = false;
}

void GramLadder::check_band(int c0, int c1) const {
  if (!band_.active) fail("gram_band", "gram_band: no band sum has begun (begin_bands)");
  require_gram_band(c0, c1, L_, false);
  for (const auto& b : band_.taken)
    if (c0 < b.second && b.first < c1)
      fail("gram_band", "gram_band: columns " + std::to_string(c0) + " .. " + std::to_string(c1) +
                            " overlap a band already summed");
}

std::vector<float> GramLadder::band_start(int c0, int c1) const {
  check_band(c0, c1);
  if (band_.from == 0) return {};
  const std::size_t l = static_cast<std::size_t>(L_);
  return std::vector<float>(work_.begin() + static_cast<std::ptrdiff_t>(c0 * l),
                            work_.begin() + static_cast<std::ptrdiff_t>(c1 * l));
}

bool GramLadder::sum_band(int c0, int c1, const std::function<bool(double)>& progress) {
  if (band_.own_c0 != c0 || band_.own_c1 != c1) {
    check_band(c0, c1);
    if (band_.own_c0 >= 0) fail("gram_band", "gram_band: this worker's band is already chosen");
    band_.own_c0 = c0;
    band_.own_c1 = c1;
  }
  draw_columns(band_.d);  // every call: nothing to do once drawn, and a call that threw is redone
  const std::size_t l = static_cast<std::size_t>(L_);
  float* band = work_.data() + static_cast<std::size_t>(c0) * l;
  const double span = std::max(1, band_.d - band_.from);
  while (band_.own_t < band_.d) {
    const int t = band_.own_t, n = std::min(kLadderStep - t % kLadderStep, band_.d - t);
    gram_update_lower_band(band, L_, P_.data() + static_cast<std::size_t>(t) * l, n, c0, c1);
    band_.own_t = t + n;
    if (std::binary_search(band_.rungs.begin(), band_.rungs.end(), band_.own_t))
      if (float* r = rung_buffer(band_.own_t)) std::copy(band, band + (c1 - c0) * l, r + c0 * l);
    if (progress && !progress(double(band_.own_t - band_.from) / span)) return false;
  }
  if (std::find(band_.taken.begin(), band_.taken.end(), std::make_pair(c0, c1)) == band_.taken.end())
    band_.taken.emplace_back(c0, c1);
  return true;
}

void GramLadder::adopt_band(int c0, int c1, const float* at_d, std::size_t at_d_size,
                            const float* rungs, std::size_t rungs_size) {
  adopt_band_by(c0, c1, at_d_size, rungs_size, [&](float* dst, std::size_t off, std::size_t n) {
    const float* src = off < at_d_size ? at_d + off : rungs + (off - at_d_size);
    std::copy(src, src + n, dst);
  });
}

void GramLadder::adopt_band_by(int c0, int c1, std::size_t at_d_size, std::size_t rungs_size,
                               const std::function<void(float*, std::size_t, std::size_t)>& read) {
  check_band(c0, c1);
  if (band_.own_c0 >= 0 && c0 < band_.own_c1 && band_.own_c0 < c1)
    fail("gram_band", "gram_band: a band taken in overlaps this worker's own");
  const std::size_t l = static_cast<std::size_t>(L_), w = static_cast<std::size_t>(c1 - c0) * l;
  const std::size_t lower = gram_band_lower_size(L_, c0, c1);
  const bool later = rungs_size == 0 && !band_.rungs.empty();
  if (at_d_size != w || (rungs_size != lower * band_.rungs.size() && !later))
    fail("gram_band", "gram_band: a band of columns " + std::to_string(c0) + " .. " +
                          std::to_string(c1) + " has " + std::to_string(w) + " floats at d and " +
                          std::to_string(lower * band_.rungs.size()) + " at its rungs (or none: later)");
  read(work_.data() + c0 * l, 0, w);
  if (later) band_.rungs_to_come.emplace_back(c0, c1);
  for (std::size_t k = 0; k < band_.rungs.size() && !later; ++k)
    if (float* r = rung_buffer(band_.rungs[k])) read_band_lower(r, L_, c0, c1, w + lower * k, read);
  band_.taken.emplace_back(c0, c1);
}

bool GramLadder::adopt_band_rungs_by(int c0, int c1, const std::vector<int>& points, std::size_t rungs_size,
                                     const std::function<void(float*, std::size_t, std::size_t)>& read) {
  const bool active = band_.active;
  auto& to_come = active ? band_.rungs_to_come : late_.to_come;
  const auto it = std::find(to_come.begin(), to_come.end(), std::make_pair(c0, c1));
  if (points != (active ? band_.rungs : late_.points)) return false;  // another sum's rungs
  if (it == to_come.end()) {
    const bool known = active && std::find(band_.taken.begin(), band_.taken.end(),
                                           std::make_pair(c0, c1)) != band_.taken.end();
    if (known) fail("gram_band", "gram_band: the rungs of columns " + std::to_string(c0) + " .. " +
                                     std::to_string(c1) + " were taken already");
    return false;  // no sum waits for them (the caller's late message is moot)
  }
  const std::size_t lower = gram_band_lower_size(L_, c0, c1);
  if (rungs_size != lower * points.size())
    fail("gram_band", "gram_band: the rungs of columns " + std::to_string(c0) + " .. " +
                          std::to_string(c1) + " have " + std::to_string(lower * points.size()) +
                          " floats (got " + std::to_string(rungs_size) + ")");
  for (std::size_t k = 0; k < points.size(); ++k) {
    float* r = nullptr;
    if (active) {
      r = rung_buffer(points[k]);
    } else {
      auto g = late_.rung_g.find(points[k]);
      if (g != late_.rung_g.end() && !g->second.empty()) r = g->second.data();
    }
    if (r) read_band_lower(r, L_, c0, c1, lower * k, read);
  }
  to_come.erase(it);
  if (!active && late_.to_come.empty()) {
    keep_assembled_rungs(late_.rung_g);
    late_ = LateRungs{};
  }
  return true;
}

void GramLadder::keep_assembled_rungs(std::map<int, FloatBuffer>& rung_g) {
  for (auto& r : rung_g)  // room was made for each as it was made (rung_buffer)
    if (!r.second.empty()) rungs_.emplace(r.first, std::move(r.second));
}

bool GramLadder::finish_bands() {
  if (!band_.active) return false;
  auto taken = band_.taken;
  std::sort(taken.begin(), taken.end());
  int covered = 0;
  for (const auto& b : taken)
    if (b.first == covered) covered = b.second;
  if (covered != L_) {
    drop_bands();
    return false;
  }
  if (band_.rungs_to_come.empty()) {
    keep_assembled_rungs(band_.rung_g);
  } else {  // kept once the last part is in (adopt_band_rungs_by)
    late_.points = band_.rungs;
    late_.rung_g = std::move(band_.rung_g);
    late_.to_come = band_.rungs_to_come;
  }
  work_lower_d_ = band_.d;
  work_symmetric_ = false;
  pending_added_ = band_.d - band_.from;
  pending_d_ = band_.d;
  band_ = BandSum{};
  return true;
}

}  // namespace attnx
