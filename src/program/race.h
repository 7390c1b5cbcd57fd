// The race detector of SPEC §8.6: shadow memory over the locations retired words touched,
// checked and updated as each word retires, with the happens-before order given by
// vector clocks (program.cc keeps the clocks).
//
// Shadow memory (docs/design.md, "The shadow memory"): for each location space and
// partition, a sorted vector of segments [lo, hi) of locations with the same access
// history. A segment holds, for each queue, the index of the last word of
// that queue that wrote there (and whether it also read) and of the last word that read
// there. That is all the check needs: within a queue, program order makes a word covered
// by a clock whenever a later one is, so the latest access of a queue is the one that
// races if any does. Segments exist only where some retired word touched something, and
// neighbours with equal histories are merged, so the shadow grows with the bytes touched,
// not with the machine's size or the number of words.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "gpsimd/program.h"
#include "program/footprint.h"

namespace gpsimd::program {

// A vector clock: one counter per queue (SPEC §8.6). Word E:i is covered by K when
// K[E] >= i + 1.
using Clock = std::array<uint32_t, kEngineCount>;
inline Clock join(const Clock& a, const Clock& b) {
  Clock c{};
  for (std::size_t q = 0; q < kEngineCount; ++q) c[q] = std::max(a[q], b[q]);
  return c;
}

class RaceDetector {
 public:
  explicit RaceDetector(const std::array<std::size_t, kEngineCount>& queue_sizes);
  // Word `b` retires with its clock at issue `c` (after its acquire) and its footprint:
  // checks it against every earlier retired word, then records its accesses. Once a race is
  // found, later words are neither checked nor recorded (only the first is reported).
  void retire(const QueueWord& b, const Clock& c, const CompactFootprint& fp);
  const std::optional<Race>& race() const { return race_; }
  // How many segments the shadow holds (for tests of its size).
  std::size_t segments() const;
  // The memory the shadow holds (its segments' capacity).
  std::size_t bytes() const;

 private:
  // The last accesses of one queue to a segment: index + 1 of the last word that wrote
  // (kAlsoRead set when that word also read) and of the last that read; 0 for none.
  static constexpr uint32_t kAlsoRead = 0x80000000u;
  struct QueueAccess {
    uint32_t write = 0, read = 0;
    bool operator==(const QueueAccess&) const = default;
  };
  struct Segment {
    uint32_t lo, hi;
    std::array<QueueAccess, kEngineCount> q;
  };
  // The race that b's access `a` to a segment with history `h` makes, if any (the
  // racing word of another queue that retired last, and its access there).
  std::optional<RaceAccess> check(const std::array<QueueAccess, kEngineCount>& h,
                                  const QueueWord& b, AccessKind a, const Clock& c) const;
  void apply(std::vector<Segment>& shadow, std::span<const Interval> ivs, const QueueWord& b,
             const Clock& c, LocationSpace space, unsigned partition);

  std::array<std::vector<uint32_t>, kEngineCount>
      retire_seq_;  // the retirement number of each word
  uint32_t retired_ = 0;
  std::array<std::array<std::vector<Segment>, kPartitions>, kLocationSpaces> shadow_;
  std::vector<Segment> scratch_;
  std::optional<Race> race_;
};

}  // namespace gpsimd::program
