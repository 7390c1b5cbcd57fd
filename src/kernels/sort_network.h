// Sort's vector building blocks (SPEC §4.4): packed sort keys, in-register sorting
// networks and vqsort on packed keys, compiled once per x86 SIMD generation (Highway's
// foreach_target) and chosen at run time for the CPU. In sort_network.cc.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpsimd/types.h"

namespace gpsimd::kernels::simd {

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
