#include <attnx/gram_ladder.hpp>

#include <algorithm>
#include <cstdlib>

#include <attnx/gram.hpp>

namespace attnx {

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
  std::vector<float>().swap(P_);
  drawn_ = 0;
  std::vector<float>().swap(work_);
  work_lower_d_ = -1;
  work_symmetric_ = false;
  rungs_.clear();
}

void GramLadder::draw_columns(int d) {
  // One word of rng_ seeds each column's generator, as ProjectionStream does; the words are kept,
  // so columns dropped to save memory can be drawn again (the columns before d stay in P_, so an
  // orthogonal block's earlier columns are always there).
  while (static_cast<int>(col_seeds_.size()) < d) col_seeds_.push_back(rng_.next());
  const std::size_t l = static_cast<std::size_t>(L_);
  // Spare columns (beyond d) share the cap with the rungs.
  const std::uint64_t spare = static_cast<std::uint64_t>(std::max(0, drawn_ - d)) * l * sizeof(float);
  if (spare > 0 && spare + rung_bytes() > cap_) {
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
  const std::size_t ll = static_cast<std::size_t>(L_) * L_;
  int best = 0;
  auto it = rungs_.upper_bound(target);
  if (it != rungs_.begin()) best = std::prev(it)->first;
  const bool work_usable = work_lower_d_ >= 0 && work_lower_d_ <= target &&
                           (work_lower_d_ % kLadderStep == 0 || work_lower_d_ == target);
  if (work_usable && work_lower_d_ >= best) return work_lower_d_;  // continue in place
  if (best > 0) {
    work_ = rungs_.at(best);
  } else {
    work_.assign(ll, 0.0f);
  }
  work_lower_d_ = best;
  work_symmetric_ = false;
  return best;
}

void GramLadder::evict_for(std::uint64_t need, int d_now) {
  std::uint64_t have = rung_bytes();
  while (!rungs_.empty() && have + need > cap_) {
    auto far = rungs_.begin();
    for (auto it = rungs_.begin(); it != rungs_.end(); ++it)
      if (std::abs(it->first - d_now) > std::abs(far->first - d_now)) far = it;
    have -= far->second.size() * sizeof(float);
    rungs_.erase(far);
  }
}

void GramLadder::keep_rung(int at, int d_now) {
  if (rungs_.count(at)) return;
  const std::uint64_t bytes = static_cast<std::uint64_t>(L_) * L_ * sizeof(float);
  if (bytes == 0 || bytes > cap_) return;
  // Only rungs the cap can keep near d_now are worth a copy.
  const std::uint64_t fit = cap_ / bytes;
  if (static_cast<std::uint64_t>(std::abs(d_now - at)) >= fit * kLadderStep) return;
  evict_for(bytes, d_now);
  std::vector<float> copy(work_);  // copied before it enters the map: a failed copy leaves no rung
  rungs_.emplace(at, std::move(copy));
}

bool GramLadder::prepare(int L, std::uint64_t seed, int d,
                         const std::function<bool(double)>& progress, ProjectionKind kind) {
  const ProjectionKind family = column_family(kind);
  if (!has_key_ || L != L_ || seed != seed_ || family != family_) reset(L, seed, family);
  added_ = 0;
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
      if (t % kLadderStep == 0) keep_rung(t, d);
      if (progress && !progress(double(t) / double(d))) return false;
    }
  }
  if (!work_symmetric_) {
    symmetrize_from_lower(work_.data(), L_);
    work_symmetric_ = true;
  }
  return true;
}

}  // namespace attnx
