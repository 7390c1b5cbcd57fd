// Vector loops behind the kernels, compiled once per x86 SIMD generation (Highway's
// foreach_target) and chosen at run time for the CPU, so one binary runs on any x86-64.
// Each one produces exactly the bits of the scalar reference it replaces.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpsimd/types.h"

namespace gpsimd::kernels::simd {

// Returns the name of the SIMD target the dispatcher picked for this CPU ("AVX3", ...).
const char* target_name();

// out[i] = widen_to_fp32(dt, element i of `in`), for n contiguous elements of dt
// (FP8_E3/E4/E5, FP16, BF16, FP32, FP32R).
void widen_to_fp32(Dtype dt, const uint8_t* in, size_t n, uint32_t* out);

// Element i of `out` = narrow_from_fp32(dt, in[i]), for n contiguous elements.
void narrow_from_fp32(Dtype dt, const uint32_t* in, size_t n, uint8_t* out);

// The maximum of n FP32 patterns in RangeSelect's order (SPEC §4.1: NaN ignored,
// -0.0 < +0.0), as a key: 0 when every value is NaN (or n == 0), else a value that
// max_key_to_bits turns back into the FP32 pattern. Keys of two ranges combine by max.
uint32_t max_key(const uint32_t* y, size_t n);
inline uint32_t max_key_to_bits(uint32_t key) {
  return (key >> 31) ? (key & 0x7fffffffu) : ~key;
}
inline uint32_t bits_to_max_key(uint32_t bits) {
  if ((bits & 0x7fffffffu) > 0x7f800000u) return 0;  // NaN
  return (bits >> 31) ? ~bits : (bits | 0x80000000u);
}

// Sort (SPEC §4.4) on packed keys: key' << 32 | position for 32-bit dtypes, and
// key' << 16 | position for 16-bit ones, where key' is sort_key (model.h), inverted for
// descending order. The packed words are unique, so sorting them ascending gives
// SPEC's order with ties in increasing position.
void pack_keys32(Dtype dt, bool descending, const uint32_t* values, size_t n, uint64_t* keys);
void pack_keys16(Dtype dt, bool descending, const uint16_t* values, size_t n, uint32_t* keys);
void sort_u64(uint64_t* keys, size_t n);
void sort_u32(uint32_t* keys, size_t n);
// pack_keys then sort, in one call.
void pack_sort32(Dtype dt, bool descending, const uint32_t* values, size_t n, uint64_t* keys);
void pack_sort16(Dtype dt, bool descending, const uint16_t* values, size_t n, uint32_t* keys);

// One channel of a Sort: its source partition, its destination region and its
// index_offset.
struct SortChannel {
  const uint8_t* partition;
  uint8_t* dst;
  uint32_t offset;
};

// Sort, channel after channel, each held whole in registers: the n contiguous elements
// of dt at partition + src_off, sorted; the first k (value, position + offset) pairs
// stored contiguously at dst + dst_off (value at ordinal 2i, index at 2i + 1). At most
// `readable` bytes are read from partition + src_off. Returns false, doing nothing, when
// n is more than this target keeps in registers (32 on AVX2 and AVX-512) or dt is not a
// Sort dtype.
bool sort_runs(Dtype dt, bool descending, size_t n, size_t k, const SortChannel* channels,
               size_t count, uint32_t src_off, uint32_t dst_off, size_t readable);

// A sorting network down the columns of a row-major matrix of rows of lanes64() (or
// lanes32()) keys, 64-byte aligned: for each pair (a, b) of `ce`, row a gets the
// lane-wise min and row b the max. One channel per lane sorts them all at once.
void sort_columns64(uint64_t* rows, const uint16_t* ce, size_t nce);
void sort_columns32(uint32_t* rows, const uint16_t* ce, size_t nce);
size_t lanes64();
size_t lanes32();

}  // namespace gpsimd::kernels::simd
