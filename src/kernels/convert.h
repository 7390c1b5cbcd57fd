// The conversion of SPEC §5.1 as vector loops: format.h's convert, convert_through_fp32,
// to_fp32 and from_fp32 over n contiguous elements, compiled once per x86 SIMD
// generation (Highway's foreach_target) and chosen at run time for the CPU, so one binary
// runs on any x86-64. Each produces exactly the bits of the scalar function it mirrors
// (src/format/format.cc) for every pair of the thirteen dtypes of §5.1's table; the
// per-vector halves they are built from are in convert-inl.h. In convert.cc.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpsimd/types.h"

namespace gpsimd::kernels::simd {

// Returns the name of the SIMD target the dispatcher picked for this CPU ("AVX3", ...).
const char* target_name();

// SPEC §5.1's cast for n contiguous elements: element i of `out` (a `to` element) is
// convert(element i of `in`, from, to): a copy when from == to, else through FP32.
void cast(Dtype from, Dtype to, const uint8_t* in, size_t n, uint8_t* out);

// The two halves applied one after the other, equal dtypes too (format.h's
// convert_through_fp32): element i of `out` = from_fp32(to, to_fp32(from, in[i])).
void through_fp32(Dtype from, Dtype to, const uint8_t* in, size_t n, uint8_t* out);

// out[i] = to_fp32(dt, element i of `in`), for n contiguous elements of dt (any of the
// thirteen dtypes of §5.1's table).
void to_fp32(Dtype dt, const uint8_t* in, size_t n, uint32_t* out);

// Element i of `out` = from_fp32(dt, in[i]), for n contiguous elements.
void from_fp32(Dtype dt, const uint32_t* in, size_t n, uint8_t* out);

// out[i] = to_fp32(BF16, the 2 bytes at in + 4 i), as 4-byte FP32 patterns, for n
// elements: a BF16 walk of step 2 read and widened in one pass (Cast to FP32).
void widen_bf16_words(const uint8_t* in, size_t n, uint8_t* out);

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

}  // namespace gpsimd::kernels::simd
