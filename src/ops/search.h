// The semantics the four DVE search instructions share (SPEC §4.7-§4.10), written once:
// the S4D2_BN clauses of Max8 and FindIndex8, and the walk of the per-lane match core
// (atoms/match_core.h, shared with the fast path) for FindIndex8 and MatchReplace8.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "atoms/match_core.h"
#include "gpsimd/format.h"
#include "gpsimd/machine.h"
#include "gpsimd/model.h"
#include "kernels/thread_pool.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {

// The largest element count a search instruction's source may have (SPEC §4.8, §4.10).
inline constexpr uint64_t kSearchMaxElements = 16384;

// True when a count clause of a search instruction is evaluated for this tensor
// (SPEC §3.6 "Count clauses and zero extents"): every num_elem >= 1 and the dtype has a
// size.
inline bool search_count_evaluated(const TensorDesc& t, uint8_t dtype) {
  if (!dtype_size(dtype)) return false;
  for (unsigned d = 0; d < t.dims; ++d)
    if (t.num[d] == 0) return false;
  return true;
}

// The operands of Max8, FindIndex8 and MatchReplace8 (SPEC §8.5): the source walk read
// (operand 0), the destination walk written (operand 1) and, for FindIndex8 and
// MatchReplace8, the source partitions' search lanes read and written. in_dtype,
// out_dtype and num_active_channels sit at the same offsets in S4D2_BN and S4D4_MR.
consteval std::array<OperandDecl, 3> search_operands(std::span<const FieldDef> row) {
  return {tensor_operand(field_of(row, "src_mem_pattern"), AccessKind::Read,
                         dtype_byte(field_of(row, "in_dtype"))),
          tensor_operand(field_of(row, "dst_mem_pattern"), AccessKind::Write,
                         dtype_byte(field_of(row, "out_dtype"))),
          lanes_of(0, AccessKind::ReadWrite)};
}

// The operands of Max8, FindIndex8 and MatchReplace8 after resolution: the source and
// destination (register addresses resolved, faults returned), the source noted on the
// Writer and the destination's regions asked for.
struct SearchIo {
  unsigned n = 0;
  Dtype din{}, dout{};
  unsigned in_size = 0, out_size = 0;
  TensorDesc st;
  Operand src, dst;
  Walk dwalk;
  std::array<uint8_t*, kPartitions> dst_bytes{};
};
SearchIo search_io(const ResolvedOperands& ops, const Word& w, Writer& out);

// Runs channel(c) for c in [0, io.n): in order on the reference path, over the worker
// pool on the fast one when the work (`bytes_per_element` per source element) is large.
template <class F>
void run_search_channels(const SearchIo& io, bool fast, unsigned bytes_per_element, F&& channel) {
  if (!fast) {
    for (unsigned c = 0; c < io.n; ++c) channel(c);
    return;
  }
  kernels::for_channels(io.n, uint64_t{io.n} * io.st.count() * bytes_per_element, channel);
}

// The match of FindIndex8 and MatchReplace8 channel by channel (as run_search_channels):
// channel(c, in, before, lane) sets `lane`, the search lane of channel c's source partition
// after the instruction, from that partition's bytes `in` and the lane `before`, and writes
// the channel's destination. The new lanes are then set on the Writer.
template <class Channel>
void run_match_channels(const Machine& m, const SearchIo& io, bool fast, unsigned bytes_per_element,
                        Writer& out, Channel&& channel) {
  InlineVector<MatchLane, kPartitions> lanes(io.n);  // only the active channels built
  run_search_channels(io, fast, bytes_per_element, [&](unsigned c) {
    const uint32_t p = io.src.partition(c);
    channel(c, m.partition(io.src.loc.space, p).data(), m.match[p], lanes[c]);
  });
  for (unsigned c = 0; c < io.n; ++c) out.set_match_lane(io.src.partition(c), lanes[c]);
}

// The S4D2_BN clauses Max8 and FindIndex8 share (SPEC §4.8): everything but the opcode
// clause and FindIndex8's destination dtype clause.
void validate_s4d2_bn(const Word& w, Generation g, Engine engine, DiagSink& d);

// The sample word (SampleFn) of Max8, FindIndex8 or MatchReplace8, `row` its layout: one
// channel of 16 FP32 source elements (a 4-D walk at offset 0) and the destination `dst` of
// dtype `out`.
Word sample_search(std::span<const FieldDef> row, Opcode op, unsigned p, Dtype out,
                   const TensorDesc& dst);

// The match core (atoms/match_core.h) over one channel's source walk (SPEC §4.9), shared
// by FindIndex8 and MatchReplace8: returns the lane after the walk; `consumed(i)` is
// called for every element a slot takes, in walk order.
template <class Consumed>
MatchLane match_walk(const uint8_t* in, const Walk& src, Dtype din, const MatchLane& lane,
                     Consumed&& consumed) {
  MatchCore core(lane);
  const unsigned size = src.elem;
  src.for_each([&](uint64_t i, uint32_t off) {
    if (core.done()) return;
    if (core.offer(static_cast<uint32_t>(i), to_fp32(din, load_elem(in + off, size)))) consumed(i);
  });
  return core.lane();
}
inline MatchLane match_lane_reference(const uint8_t* in, const Walk& src, Dtype din,
                                      const MatchLane& lane) {
  return match_walk(in, src, din, lane, [](uint64_t) {});
}

// SPEC §4.8 for one channel: the top 8 of `values` (FP32 bits; reordered), ascending,
// -inf filling the low end.
std::array<uint32_t, 8> max8_reference(std::vector<uint32_t>& values);

}  // namespace gpsimd::detail
