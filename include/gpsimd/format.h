// Number formats and conversion between FP32 and the narrow float dtypes (SPEC §5).
//
// Every value crosses FP32: an instruction widens its inputs to FP32 and narrows its
// results back. Both directions are one generic algorithm parametrised by a
// MiniFloatFormat, so BF16, FP16 and the three FP8 formats share one rounding path.
#pragma once

#include <bit>
#include <cstdint>

#include "gpsimd/types.h"

namespace gpsimd {

// An IEEE-style binary format: sign, exponent, mantissa (no implicit bit stored).
// An all-ones exponent encodes inf (mantissa 0) or NaN (mantissa != 0); an all-zeros
// exponent encodes zero and the subnormals. The sign is the top bit, bit total_bits-1.
struct MiniFloatFormat {
  int exp_bits;
  int man_bits;
  int bias;
  unsigned total_bits;     // 1 + exp_bits + man_bits
  uint32_t canonical_nan;  // positive NaN that a narrowing writes (SPEC §5 table)
};

// Returns the descriptor of BF16, FP16, FP8_E5, FP8_E4 or FP8_E3; nullptr for FP32,
// FP32R and every dtype that is not a float with a defined conversion.
const MiniFloatFormat* minifloat_format(Dtype dt);

// Returns the FP32 bits of the value whose dtype-`dt` bit pattern is in the low bits of
// `bits` (higher bits are ignored). Exact for numbers; a NaN keeps its sign and payload
// (mantissa shifted left into the FP32 mantissa) and gets the quiet bit set, as x86's
// conversion instructions do. FP32 and FP32R: `bits` unchanged, signalling NaNs too.
// Aborts for a dtype that is not FP32, FP32R, BF16, FP16 or FP8_E3/E4/E5.
uint32_t widen_to_fp32(Dtype dt, uint32_t bits);

// Returns the dtype-`dt` bit pattern (in the low bits) nearest to the FP32 value
// `fp32_bits`: round-to-nearest-even on the exact value, gradual underflow, a result
// beyond the finite range becomes ±inf, a NaN becomes the canonical NaN of SPEC §5
// with the input's sign. FP32 and FP32R: `fp32_bits` unchanged.
// Aborts for a dtype that is not FP32, FP32R, BF16, FP16 or FP8_E3/E4/E5.
uint32_t narrow_from_fp32(Dtype dt, uint32_t fp32_bits);

// ---- Integers (SPEC §5.1) ---------------------------------------------------------------

// True for INT8, UINT8, INT16, UINT16, INT32, UINT32.
bool is_int_dtype(Dtype dt);
// Returns the FP32 bits nearest to the integer `v` (round to nearest, ties to even;
// exact up to 2^24 in magnitude).
uint32_t int_to_fp32(int64_t v);
// Returns the value of an integer element of dtype `dt` whose bit pattern is in the
// low bits of `bits` (sign-extended for the signed dtypes).
int64_t int_value(Dtype dt, uint32_t bits);
// Returns the dtype-`dt` integer bit pattern (in the low bits) of the FP32 value
// `fp32_bits`: rounded to nearest, ties to even, then saturated to the dtype's range;
// NaN becomes 0, +inf the maximum, -inf the minimum, -0.0 becomes 0.
// Aborts for a dtype that is not one of the six integer dtypes.
uint32_t fp32_to_int(Dtype dt, uint32_t fp32_bits);

// The two halves of every conversion through FP32, for any of the twelve data dtypes
// and FP32R: floats widen / narrow as above, integers convert as SPEC §5.1 says.
uint32_t to_fp32(Dtype dt, uint32_t bits);
uint32_t from_fp32(Dtype dt, uint32_t fp32_bits);

// Returns the float whose IEEE binary32 encoding is `bits`.
inline float fp32_from_bits(uint32_t bits) {
  return std::bit_cast<float>(bits);
}
// Returns the IEEE binary32 encoding of `f`.
inline uint32_t bits_from_fp32(float f) {
  return std::bit_cast<uint32_t>(f);
}

}  // namespace gpsimd
