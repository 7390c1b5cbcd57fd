// The race detector (SPEC §8.6): check and record each retiring word's footprint against
// the shadow memory.
#include "program/race.h"

#include <algorithm>

#include "common/check.h"

namespace gpsimd::program {

RaceDetector::RaceDetector(const std::array<std::size_t, kEngineCount>& queue_sizes) {
  for (std::size_t q = 0; q < kEngineCount; ++q) retire_seq_[q].resize(queue_sizes[q], 0);
}

std::size_t RaceDetector::segments() const {
  std::size_t n = 0;
  for (const auto& space : shadow_)
    for (const auto& part : space) n += part.size();
  return n;
}

std::size_t RaceDetector::bytes() const {
  std::size_t n = 0;
  for (const auto& space : shadow_)
    for (const auto& part : space) n += part.capacity() * sizeof(Segment);
  return n;
}

std::optional<RaceAccess> RaceDetector::check(const std::array<QueueAccess, kEngineCount>& h,
                                              const QueueWord& b, AccessKind a,
                                              const Clock& c) const {
  const bool writes = (static_cast<unsigned>(a) & 2u) != 0;
  std::optional<RaceAccess> best;
  uint32_t best_seq = 0;
  for (std::size_t q = 0; q < kEngineCount; ++q) {
    if (q == static_cast<std::size_t>(b.queue)) continue;  // program order: never a race
    const uint32_t w = h[q].write & ~kAlsoRead, r = h[q].read;
    // A write conflicts with every access, a read with writes. The latest such word of
    // queue q races when c does not cover it; then it also retired last of q's.
    const uint32_t cand = writes ? std::max(w, r) : w;
    if (cand == 0 || cand <= c[q]) continue;
    const uint32_t seq = retire_seq_[q][cand - 1];
    if (best && seq < best_seq) continue;
    const bool wrote = w == cand;
    const bool read = r == cand || (wrote && (h[q].write & kAlsoRead));
    best = RaceAccess{QueueWord{static_cast<Engine>(q), cand - 1}, wrote && read
                                                                       ? AccessKind::ReadWrite
                                                                   : wrote ? AccessKind::Write
                                                                           : AccessKind::Read};
    best_seq = seq;
  }
  return best;
}

void RaceDetector::apply(std::vector<Segment>& shadow, std::span<const Interval> ivs,
                         const QueueWord& b, const Clock& c, LocationSpace space,
                         unsigned partition) {
  const auto self = static_cast<std::size_t>(b.queue);
  const auto index1 = static_cast<uint32_t>(b.index + 1);
  const uint32_t lo = ivs.front().lo, hi = ivs.back().hi;
  auto record = [&](std::array<QueueAccess, kEngineCount>& q, AccessKind a) {
    const unsigned bits = static_cast<unsigned>(a);
    if (bits & 2u) q[self].write = index1 | ((bits & 1u) ? kAlsoRead : 0u);
    if (bits & 1u) q[self].read = index1;
  };
  if (ivs.size() == 1) {
    // The common case of a loop: the interval is exactly a segment (the same tile as an
    // earlier word's). Check and update it in place, then merge it with a neighbour whose
    // history became equal.
    const auto it = std::partition_point(shadow.begin(), shadow.end(),
                                         [&](const Segment& s) { return s.hi <= lo; });
    if (it != shadow.end() && it->lo == lo && it->hi == hi) {
      if (!race_)
        if (auto other = check(it->q, b, ivs.front().access, c))
          race_ =
              Race{*other, RaceAccess{b, ivs.front().access}, RaceLocation{space, partition, lo}};
      record(it->q, ivs.front().access);
      auto at = it;
      if (at + 1 != shadow.end() && (at + 1)->lo == at->hi && (at + 1)->q == at->q) {
        at->hi = (at + 1)->hi;
        at = shadow.erase(at + 1) - 1;
      }
      if (at != shadow.begin() && (at - 1)->hi == at->lo && (at - 1)->q == at->q) {
        (at - 1)->hi = at->hi;
        shadow.erase(at);
      }
      return;
    }
  }
  // The segments [first, last) that meet the word's intervals are rebuilt into scratch_.
  const auto first =
      static_cast<std::size_t>(std::partition_point(shadow.begin(), shadow.end(),
                                                    [&](const Segment& s) { return s.hi <= lo; }) -
                               shadow.begin());
  const auto last = static_cast<std::size_t>(
      std::partition_point(shadow.begin() + static_cast<std::ptrdiff_t>(first), shadow.end(),
                           [&](const Segment& s) { return s.lo < hi; }) -
      shadow.begin());
  scratch_.clear();
  auto push = [&](uint32_t l, uint32_t h, const std::array<QueueAccess, kEngineCount>& q) {
    if (l >= h) return;
    if (!scratch_.empty() && scratch_.back().hi == l && scratch_.back().q == q) {
      scratch_.back().hi = h;
      return;
    }
    scratch_.push_back(Segment{l, h, q});
  };
  // One piece [l, h) of an interval with history q: check it, then record the access.
  auto visit = [&](uint32_t l, uint32_t h, std::array<QueueAccess, kEngineCount> q, AccessKind a) {
    if (!race_) {
      if (auto other = check(q, b, a, c))
        race_ = Race{*other, RaceAccess{b, a}, RaceLocation{space, partition, l}};
    }
    record(q, a);
    push(l, h, q);
  };
  std::size_t i = first;
  Segment cur{};  // the segment being consumed (its part before `cur.lo` is done)
  bool have = false;
  auto next = [&] {
    have = i < last;
    if (have) cur = shadow[i++];
  };
  next();
  for (const Interval& iv : ivs) {
    uint32_t pos = iv.lo;
    // Segments wholly before this interval keep their history.
    while (have && cur.hi <= pos) {
      push(cur.lo, cur.hi, cur.q);
      next();
    }
    while (pos < iv.hi) {
      if (have && cur.lo <= pos) {
        push(cur.lo, pos, cur.q);  // the part before the interval, if any
        const uint32_t end = std::min(cur.hi, iv.hi);
        visit(pos, end, cur.q, iv.access);
        pos = end;
        if (cur.hi > end) {
          cur.lo = end;  // the rest of the segment lies after this interval
        } else {
          next();
        }
      } else {
        const uint32_t end = have ? std::min(cur.lo, iv.hi) : iv.hi;
        visit(pos, end, {}, iv.access);  // untouched so far: nothing to race with
        pos = end;
      }
    }
  }
  while (have) {
    push(cur.lo, cur.hi, cur.q);
    next();
  }
  // Merge with the neighbours outside the rebuilt range when their histories are equal.
  std::size_t from = first, to = last;
  if (from > 0 && shadow[from - 1].hi == scratch_.front().lo &&
      shadow[from - 1].q == scratch_.front().q) {
    scratch_.front().lo = shadow[from - 1].lo;
    --from;
  }
  if (to < shadow.size() && shadow[to].lo == scratch_.back().hi &&
      shadow[to].q == scratch_.back().q) {
    scratch_.back().hi = shadow[to].hi;
    ++to;
  }
  const auto f = shadow.begin() + static_cast<std::ptrdiff_t>(from);
  const auto t = shadow.begin() + static_cast<std::ptrdiff_t>(to);
  const auto common = std::min<std::size_t>(to - from, scratch_.size());
  std::copy_n(scratch_.begin(), common, f);
  if (scratch_.size() > common) {
    shadow.insert(f + static_cast<std::ptrdiff_t>(common),
                  scratch_.begin() + static_cast<std::ptrdiff_t>(common), scratch_.end());
  } else {
    shadow.erase(f + static_cast<std::ptrdiff_t>(common), t);
  }
}

void RaceDetector::retire(const QueueWord& b, const Clock& c, const CompactFootprint& fp) {
  if (race_) return;
  retire_seq_[static_cast<std::size_t>(b.queue)][b.index] = ++retired_;
  // Locations in SPEC §8.6's order (space, partition, offset): the first race found while
  // checking in that order is at the lowest location.
  for (auto [s, p] : fp.touched) {
    const std::span<const Interval> ivs = fp.at(s, p);
    // A few intervals far apart (a word's source and destination in one partition) are
    // applied one by one, so that the segments between them are not rebuilt; many (a
    // strided walk) in one pass over the shadow.
    if (ivs.size() <= 4) {
      for (std::size_t k = 0; k < ivs.size(); ++k)
        apply(shadow_[s][p], ivs.subspan(k, 1), b, c, static_cast<LocationSpace>(s), p);
    } else {
      apply(shadow_[s][p], ivs, b, c, static_cast<LocationSpace>(s), p);
    }
  }
}

}  // namespace gpsimd::program
