// The streaming family's vector loops: strided reads of a walk's runs and
// GetSequenceBounds. Compiled once per x86 SIMD generation (Highway's foreach_target) and
// chosen at run time for the CPU, like convert.h's; each produces exactly the bits of the
// scalar reference it replaces.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpsimd::kernels::stream {

// out[i] = the 4 bytes at p + i * step, for n elements (a strided walk's run, step in
// bytes, negative going down; every address in the walk is readable, nothing beyond it
// is read). Steps of +-1..+-4 elements are contiguous loads and in-register lane
// permutes; other steps are vector gathers.
void read_strided32(const uint8_t* p, int64_t step, size_t n, uint8_t* out);

// The same for 2-byte elements: out[i] = the 2 bytes at p + i * step (step a multiple of
// 2). Element steps of ±2 and ±4 are contiguous loads compacted in 16-bit lanes (on the
// one-lane baseline, 4-byte reads as ±6 and ±8), -1 a reversed contiguous read, ±6 and ±8
// 4-byte reads through read_strided32's permutes, others 4-byte gathers (the element at
// the highest address, whose 4-byte read would pass the walk, read alone).
void read_strided16(const uint8_t* p, int64_t step, size_t n, uint8_t* out);

// read_strided32 for `rows` runs of n elements, run r starting at p + r * row_step (bytes),
// into `out` one run after the other: a walk of rows (a transposed pair of dimensions is
// rows of a large step) in one call, so that short runs cost no call each.
void read_rows32(const uint8_t* p, int64_t step, size_t n, int64_t row_step, size_t rows,
                 uint8_t* out);

// Which strided read read_strided32 uses for a step (in bytes): "permute" or "gather".
const char* strided_read_kind(int64_t step);

// GetSequenceBounds (SPEC §4.3) in two streaming passes over bitmaps of one bit per id.
// Both bitmaps of n ids have marks_words(n) words.
constexpr size_t marks_words(size_t n) {
  return n / 64 + 3;
}
//
// sequence_marks, chunk after chunk in walk order: for the m ids at positions pos ..
// pos + m - 1 (pos a multiple of 64), sets bit (position) of `bounds` when the id
// starts a segment (position 0, or not equal to the id before it: *prev for the first
// one when pos > 0) and of `padding` when it is padding. FP32 ids (fp_in) compare as
// FP32 (a NaN equals nothing, -0.0 equals 0), INT32 ids by their bits. Writes the words
// pos / 64 .. (pos + m - 1) / 64 whole (bits past the ids are 0).
void sequence_marks(const uint32_t* ids, size_t m, size_t pos, const uint32_t* prev, bool fp_in,
                    uint64_t* bounds, uint64_t* padding);

// Then start[i] = the last segment start <= i and end[i] = the first one > i, or n and -1
// for padding, as INT32 bit patterns or, when fp_out, FP32 patterns of the same numbers,
// for the ids [from, to): `from` a multiple of 64, `to` one too or n, the pieces in
// order, `state` carried from one to the next. The bits must be there up to to + 160
// (bits past the ids 0), with a segment start at to + 95 or later, or all of them with
// bit n set (the end of the last segment) when to == n.
struct BoundsState {
  int32_t carry = 0;  // the last segment start before `from`
  size_t next = 0;    // a segment start; the first one past some id before `from`
};
void sequence_bounds_from_marks(const uint64_t* bounds, const uint64_t* padding, size_t n,
                                size_t from, size_t to, bool fp_out, uint32_t* start, uint32_t* end,
                                BoundsState& state);

}  // namespace gpsimd::kernels::stream
