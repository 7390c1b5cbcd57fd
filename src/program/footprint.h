// Footprints as the race detector reads them (SPEC §8.5): a word's may-access set as byte
// ranges per partition. The op files say what a word touches (detail::FootprintSink: walks
// over channels, pointers, accumulators, lanes); this turns that into sorted, disjoint
// ranges, computing each walk's bytes once for all its channels.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "gpsimd/program.h"
#include "ops/operands.h"

namespace gpsimd::program {

// Bytes [lo, hi) of one partition (or [0, 1) for an accumulator or a lane) and how the
// word touches them.
struct Interval {
  uint32_t lo = 0, hi = 0;
  AccessKind access = AccessKind::Read;
  bool operator==(const Interval&) const = default;
};

// The rows of kLocationSpaceDefs: SBUF, PSUM, ACC, MATCH.
inline constexpr unsigned kLocationSpaces = static_cast<unsigned>(kLocationSpaceCount);

// A word's footprint: for each location space and partition, the sorted, disjoint
// intervals it touches (adjacent intervals of equal access merged). Partitions that share
// the same operands share one list.
struct CompactFootprint {
  static constexpr int16_t kNone = -1;
  CompactFootprint() {
    for (auto& row : list_of) row.fill(kNone);
  }
  std::array<std::array<int16_t, kPartitions>, kLocationSpaces> list_of;
  // The lists in use are the first `nlists`; the others keep their buffers for the next
  // word (FootprintBuilder reuses them).
  std::vector<std::vector<Interval>> lists;
  std::size_t nlists = 0;
  // The (space, partition) pairs with a list, in location order (SPEC §8.6).
  std::vector<std::pair<uint8_t, uint8_t>> touched;
  // The intervals of one partition of one space (empty when it is not touched).
  std::span<const Interval> at(unsigned space, unsigned p) const {
    const int16_t i = list_of[space][p];
    if (i == kNone) return {};
    return lists[static_cast<std::size_t>(i)];
  }
};

// The sorted, disjoint, merged byte intervals a walk covers in one partition.
void walk_intervals(const Walk& w, std::vector<Interval>& out, AccessKind access);

// Turns what an op file reported into a CompactFootprint, reusing its buffers from word
// to word.
class FootprintBuilder {
 public:
  void build(const detail::FootprintSink& sink, CompactFootprint& out);

 private:
  std::array<std::vector<Interval>, 8> walk_iv_;  // per walk of the sink
  struct Event {
    uint32_t pos;
    int8_t reads, writes;
  };
  std::vector<Event> events_;
};

// Every range of a compact footprint, in location order.
std::vector<FootprintRange> ranges_of(const CompactFootprint& fp);

}  // namespace gpsimd::program
