// The match core of SPEC §4.9 for one search lane: a shared semantic atom.
//
// src/atoms/ is the floor of the scalar rules that both the reference (src/ops/) and the
// fast paths (src/kernels/) decide results with. It sits above the machine (spaces,
// walks, formats, model.h's rules) and below both, so that a kernel reuses the
// reference's own rule without including an op file: machine < atoms < kernels < ops <
// program < faces (docs/design.md, "Floors"). Files here include only the machine floor.
//
// The reference runs the core over a whole walk (src/ops/search.h's match_walk, for
// FindIndex8 and MatchReplace8). Its vector twin is the fast path's MatchScan
// (src/kernels/search.cc): it tests whole vectors against the open slots' values and
// offers this core only the rare elements that may match, so the two cannot disagree.
#pragma once

#include <cstdint>

#include "gpsimd/machine.h"
#include "gpsimd/model.h"

namespace gpsimd::detail {

// The match core (SPEC §4.9), for one lane: element i (its FP32 bits) takes the lowest
// slot not yet matched whose match value equals it. Returns true when it was consumed.
class MatchCore {
 public:
  explicit MatchCore(const MatchLane& lane) : lane_(lane) {
    // A slot whose value is NaN can never match: treat it as taken for the search, but
    // leave its flag as it is.
    open_ = static_cast<uint8_t>(~lane.matched);
    for (unsigned n = 0; n < 8; ++n)
      if (model::max8_is_nan(lane.mv[n])) open_ &= static_cast<uint8_t>(~(1u << n));
  }
  bool done() const { return open_ == 0; }
  // True when slot n can still take an element (not matched, not NaN).
  bool open(unsigned n) const { return (open_ >> n) & 1u; }
  bool offer(uint32_t i, uint32_t e) {
    for (uint8_t rest = open_; rest != 0; rest &= static_cast<uint8_t>(rest - 1)) {
      const unsigned n = static_cast<unsigned>(__builtin_ctz(rest));
      if (model::match_equal(e, lane_.mv[n])) {
        open_ &= static_cast<uint8_t>(~(1u << n));
        lane_.matched |= static_cast<uint8_t>(1u << n);
        lane_.idx[n] = i;
        return true;
      }
    }
    return false;
  }
  const MatchLane& lane() const { return lane_; }

 private:
  MatchLane lane_;
  uint8_t open_;
};

}  // namespace gpsimd::detail
