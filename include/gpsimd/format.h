// Number formats and the conversion of SPEC §5 and §5.1: the one piece of code every
// instruction converts elements through.
//
// Every conversion between two dtypes crosses FP32 (SPEC §5.1's `cast`): the source
// widens to FP32 (to_fp32) and FP32 narrows to the destination (from_fp32); equal
// dtypes copy the bits (convert). The float directions are one generic algorithm
// parametrised by a MiniFloatFormat, so BF16, FP16 and the three FP8 formats share one
// rounding path; the integer directions round and saturate as §5.1 says. The vector
// versions of the same functions (src/kernels/convert.h) are tested against these bit
// for bit.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

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

// ---- The conversion of SPEC §5.1: the one piece every instruction converts through ----
//
// Every element an instruction converts goes through these functions (and, on the fast
// paths, through their vector versions in src/kernels/convert.h, checked against them
// bit for bit). No instruction converts elements any other way.

// The two halves of every conversion through FP32, for any of the twelve data dtypes
// and FP32R (read as FP32): floats widen / narrow as above, integers convert as SPEC
// §5.1 says (to_fp32: nearest FP32, ties to even; from_fp32: round to nearest even,
// saturate, NaN -> 0). Abort for a dtype outside those thirteen.
uint32_t to_fp32(Dtype dt, uint32_t bits);
uint32_t from_fp32(Dtype dt, uint32_t fp32_bits);

// to_fp32(BF16, bits) inline, for the scalar code in the kernels' hot loops: BF16 is the
// top half of FP32, so a number widens by a shift and a NaN also gets the quiet bit
// (0x7F81 -> 0x7FC10000). Checked against to_fp32 on every pattern.
inline uint32_t bf16_to_fp32(uint16_t bits) {
  const uint32_t x = uint32_t{bits} << 16;
  return (x & 0x7fffffffu) > 0x7f800000u ? x | 0x00400000u : x;
}

// SPEC §5.1's `cast(x, from, to)`: equal dtypes copy the bits (in the low bits of
// `bits`); every other pair is from_fp32(to_fp32(x, from), to). Used by Cast (§4.17),
// AffineSelect (§4.5) and Copy (§4.16, equal dtypes).
uint32_t convert(uint32_t bits, Dtype from, Dtype to);

// The two halves applied one after the other, also for equal dtypes (SPEC §5.1 "Who
// uses what": RangeSelect, Max8, MatchReplace8, the ALU's FP32 path, Copy and Cast on
// ACT on V2): an INT32 beyond 2^24 is rounded, a BF16 signalling NaN made canonical.
inline uint32_t convert_through_fp32(uint32_t bits, Dtype from, Dtype to) {
  return from_fp32(to, to_fp32(from, bits));
}

// The low 8*size bits of the two's-complement integer v, as an integer dtype's bit
// pattern: what SPEC §5.1 "Who uses what" uses instead of the S entries for values that
// come from an integer datapath (Iota's int32 ramp, FindIndex8's u32 indices, the
// native integer path of TensorTensorArith). Aborts for a dtype that is not an integer.
uint32_t int_low_bits(Dtype dt, int64_t v);
// int_low_bits for a dtype of `size` bytes (1, 2 or 4), known to be an integer one: the
// same bits, without the dtype lookup, for the fast paths.
constexpr uint32_t int_low_bits_of_size(unsigned size, uint64_t v) {
  const auto bits = static_cast<uint32_t>(v);
  return size >= 4 ? bits : bits & ((1u << (8 * size)) - 1);
}

// The letters of SPEC §5.1's table: what convert() amounts to for a pair.
enum class ConversionKind : uint8_t {
  Same,        // "="   the bits unchanged (FP32 <-> FP32R too)
  Widen,       // "W"   exact widening, a NaN keeps its payload and gets the quiet bit
  Exact,       // "X"   every source value is a destination value (NaN -> canonical NaN)
  Round,       // "R"   one rounding to nearest even into a float (overflow to ±inf)
  RoundTwice,  // "RR"  INT32/UINT32 -> FP32 -> a narrow float: two roundings
  FloatToInt,  // "I"   the float's value rounded to nearest even and saturated, NaN -> 0
  Saturate,    // "S"   the integer clamped to the destination's range
  Saturate24,  // "S24" INT32 <-> UINT32: rounded to FP32 first, then clamped
};
// "=", "W", "X", "R", "RR", "I", "S", "S24".
std::string_view conversion_letter(ConversionKind k);

// The rows and columns of SPEC §5.1's table, in its order.
inline constexpr std::array<Dtype, 13> kConversionDtypes = {
    Dtype::INT8,   Dtype::UINT8, Dtype::INT16, Dtype::UINT16, Dtype::INT32,
    Dtype::UINT32, Dtype::BF16,  Dtype::FP16,  Dtype::FP8_E3, Dtype::FP8_E4,
    Dtype::FP8_E5, Dtype::FP32,  Dtype::FP32R};

// SPEC §5.1's table as data: kConversionTable[row = from][column = to], both indexed as
// kConversionDtypes.
namespace conversion_table_detail {
using C = ConversionKind;
inline constexpr C E = C::Same, W = C::Widen, X = C::Exact, R = C::Round, RR = C::RoundTwice,
                   I = C::FloatToInt, S = C::Saturate, S24 = C::Saturate24;
}  // namespace conversion_table_detail
inline constexpr std::array<std::array<ConversionKind, 13>, 13> kConversionTable = [] {
  using namespace conversion_table_detail;
  //          I8  U8  I16 U16 I32  U32  BF16 FP16 E3  E4  E5  FP32 FP32R
  return std::array<std::array<ConversionKind, 13>, 13>{{
      /* I8    */ {E, S, S, S, S, S, X, X, R, R, R, X, X},
      /* U8    */ {S, E, S, S, S, S, X, X, R, R, R, X, X},
      /* I16   */ {S, S, E, S, S, S, R, R, R, R, R, X, X},
      /* U16   */ {S, S, S, E, S, S, R, R, R, R, R, X, X},
      /* I32   */ {S, S, S, S, E, S24, RR, RR, RR, RR, RR, R, R},
      /* U32   */ {S, S, S, S, S24, E, RR, RR, RR, RR, RR, R, R},
      /* BF16  */ {I, I, I, I, I, I, E, R, R, R, R, W, W},
      /* FP16  */ {I, I, I, I, I, I, R, E, R, R, R, W, W},
      /* E3    */ {I, I, I, I, I, I, X, X, E, R, R, W, W},
      /* E4    */ {I, I, I, I, I, I, X, X, R, E, R, W, W},
      /* E5    */ {I, I, I, I, I, I, X, X, R, R, E, W, W},
      /* FP32  */ {I, I, I, I, I, I, R, R, R, R, R, E, E},
      /* FP32R */ {I, I, I, I, I, I, R, R, R, R, R, E, E},
  }};
}();
// The index of a dtype in kConversionDtypes; nullopt for a dtype outside the table.
std::optional<unsigned> conversion_index(Dtype dt);
// The table's letter for a pair; nullopt when either dtype is outside the table.
std::optional<ConversionKind> conversion_kind(Dtype from, Dtype to);

// Returns the float whose IEEE binary32 encoding is `bits`.
inline float fp32_from_bits(uint32_t bits) {
  return std::bit_cast<float>(bits);
}
// Returns the IEEE binary32 encoding of `f`.
inline uint32_t bits_from_fp32(float f) {
  return std::bit_cast<uint32_t>(f);
}

// ---- the text of values (the assembly text, explain and the trace print them) ----------

// An FP32 bit pattern: the shortest decimal that reads back to the same bits ("1.0",
// "-inf", "1e-45"), or "0x7fc00001" for a NaN.
std::string format_fp32(uint32_t bits);
// A value of a dtype, given its bit pattern: the shortest decimal that reads back to the
// same bits through the dtype's conversion (floats), the decimal integer (integers), or
// 0x bits (NaNs, dtypes without a conversion).
std::string format_value(Dtype dt, uint32_t bits);
// True when .data/.dump can hold values of this dtype (a float with a conversion or an
// integer of at most 4 bytes).
bool is_data_dtype(Dtype dt);
// True for the signed integer dtypes (INT8, INT16, INT32).
bool is_signed_int_dtype(Dtype dt);
// The text of a float that is short and reads back exactly: shortest digits, then the way
// a person writes them ("0.5", "100.0", "1e-05").
std::string float_text(double v);

}  // namespace gpsimd
