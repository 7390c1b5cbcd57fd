// Fast kernels beside the scalar reference (src/ops/). Each works on one channel and
// returns false when it does not handle the case, and the caller then runs the
// reference. Whatever they handle, they produce exactly the reference's bits: the
// equivalence test (tests/kernels_equiv_test.cc) compares them on random inputs.
//
// Destinations are the bytes the Writer hands out for a channel, with the walk's
// offsets relative to them; sources are whole partitions. Kernels keep their scratch
// in thread_local buffers, so a call allocates nothing once warm, and they may run on
// several threads at once for different channels.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpsimd/machine.h"
#include "gpsimd/types.h"
#include "kernels/convert.h"
#include "kernels/sort_network.h"
#include "kernels/thread_pool.h"

namespace gpsimd::kernels {

// Returns the SIMD target the kernels run on for this CPU ("AVX3", "AVX2", ...).
const char* simd_target();

// The SIMD targets compiled into the kernels that this CPU supports, best first
// ("AVX3", "AVX2", "SCALAR"), whatever force_simd_target chose. In targets.cc.
std::vector<std::string> simd_targets_supported();

// Makes Highway's dispatcher run `name`'s code (avx3, avx2 or scalar, any case) from the
// next call on: for the kernels, and for every other HWY_DYNAMIC_DISPATCH in the process
// (the Highway library's vqsort too), since they share one choice. An empty name gives
// the CPU's best target back. Returns an error message (nothing changed) when the name
// is unknown or the CPU does not support it, else an empty string. Not for use while
// other threads run kernels.
std::string force_simd_target(std::string_view name);

// RangeSelect (SPEC §4.1), one channel: reads the source walk, keeps the elements whose
// index fp32(base + j) passes both comparisons and fills the others with -FLT_MAX,
// converts to `out` and stores them along the destination walk. When `max` is not
// null it receives the maximum of the FP32 results in the reduce order (nullopt when
// every one is NaN).
bool range_select_channel(const uint8_t* partition, const Walk& src, Dtype in, float base,
                          uint8_t op0, float bound0, uint8_t op1, float bound1, uint8_t* dst,
                          const Walk& dst_walk, Dtype out, std::optional<uint32_t>* max);

// TensorScalarSelect (SPEC §4.2), one channel: copies the source walk to the destination
// walk, or fills the destination with `scalar` (its low `size` bytes) when !take_tensor.
bool select_copy(uint8_t* dst, const Walk& dst_walk, const uint8_t* partition, const Walk& src,
                 unsigned size, bool take_tensor, uint32_t scalar);

// GetSequenceBounds (SPEC §4.3), one channel: starts then ends of the source ids.
bool sequence_bounds(const uint8_t* partition, const Walk& src, bool fp_in, bool fp_out,
                     uint8_t* dst, const Walk& dst_walk);

// Sort (SPEC §4.4), one channel: the first `k` (value, position + offset) pairs of the
// sorted source, the value at destination ordinal 2i and the index at 2i + 1.
bool sort_channel(Dtype dt, bool descending, const uint8_t* partition, const Walk& src, unsigned k,
                  uint32_t offset, uint8_t* dst, const Walk& dst_walk);

// Sort, many channels of the same small shape at once: the same bits as sort_channel on
// each channel. Contiguous runs of up to 32 elements are sorted in registers, channel
// after channel; other walks of up to 32 elements one channel per vector lane. Returns
// false when N is larger (or the walks are not contiguous and there is a single
// channel). `partition_bytes`: the size of a source partition.
using simd::SortChannel;
bool sort_channels(Dtype dt, bool descending, const Walk& src, unsigned k, const Walk& dst_walk,
                   const SortChannel* channels, unsigned n, std::size_t partition_bytes);

// NonzeroWithCount (SPEC §4.11), one processed channel: the ordinals of the nonzero
// source elements plus index_offset, padding in the remaining slots, then the count, as
// INT32 along the destination walk (count(src) + 1 elements). In compact.cc.
bool nonzero_with_count(const uint8_t* partition, const Walk& src, bool fp, uint32_t index_offset,
                        uint32_t padding, uint8_t* dst, const Walk& dst_walk);

// CopyPredicatedScalar (SPEC §4.12), one channel: `scalar` (its low `size` bytes) at the
// destination ordinals whose predicate element is nonzero exactly when write_when; the
// other ordinals untouched. In predicated.cc.
bool copy_predicated(uint8_t* dst, const Walk& dst_walk, const uint8_t* partition, const Walk& pred,
                     unsigned pred_size, unsigned size, bool write_when, uint32_t scalar);

// Max8 (SPEC §4.8), one channel: the 8 largest source values as FP32 (NaNs left out,
// -0.0 < +0.0), ascending, -inf filling the low end, converted to `out` and stored along
// the destination walk. In search.cc.
bool max8_channel(const uint8_t* partition, const Walk& src, Dtype in, Dtype out, uint8_t* dst,
                  const Walk& dst_walk);

// The match core of FindIndex8 and MatchReplace8 (SPEC §4.9), one channel: `after` is the
// lane `before` after the source walk; when `hits` is not null, the ordinals of the
// consumed elements are appended to it. In search.cc.
bool match_channel(const uint8_t* partition, const Walk& src, Dtype in, const MatchLane& before,
                   MatchLane& after, std::vector<uint32_t>* hits);

// FindIndex8's destination (SPEC §4.9), one channel: the lane's eight indices as
// `out_size`-byte integers (the low bits, format.h's int_low_bits), slot k at ordinal k of the
// destination walk, written as runs rather than byte by byte. In search.cc.
void find_index8_store(const MatchLane& lane, unsigned out_size, uint8_t* dst,
                       const Walk& dst_walk);

// MatchReplace8 (SPEC §4.10), one channel of float dtypes (FP32, BF16, FP16 in and out):
// the match core as match_channel, then every element through FP32 to `out`, the
// consumed ones replaced by the FP32 `immediate`, stored along the destination walk.
bool match_replace_channel(const uint8_t* partition, const Walk& src, Dtype in,
                           const MatchLane& before, MatchLane& after, uint32_t immediate, Dtype out,
                           uint8_t* dst, const Walk& dst_walk);

// Copy and Cast (SPEC §4.16, §4.17), one channel: source element j converted from `in`
// to `out` (simd::cast: the bits when they are equal; with `through_fp32`, ACT on V2,
// simd::through_fp32) stored at destination ordinal j. In copy.cc.
bool copy_channel(const uint8_t* partition, const Walk& src, Dtype in, uint8_t* dst,
                  const Walk& dst_walk, Dtype out, bool through_fp32);

}  // namespace gpsimd::kernels
