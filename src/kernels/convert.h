// The FP32 conversions of SPEC §5 as vector loops, compiled once per x86 SIMD generation
// (Highway's foreach_target) and chosen at run time for the CPU, so one binary runs on
// any x86-64. Each produces exactly the bits of the scalar rule it replaces
// (src/format/format.cc). In convert.cc.
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

}  // namespace gpsimd::kernels::simd
