// FP32 <-> narrow float conversion (SPEC §5), one algorithm for every format.
//
// A finite value is handled as an exact pair (n, q) meaning n * 2^q with an integer n.
// Decoding a bit pattern into that pair is exact; encoding a pair into a format is the
// only place that rounds. Widening is decode(narrow) + encode(FP32), which never has to
// round because FP32 holds every narrow value; narrowing is decode(FP32) +
// encode(narrow). NaNs are not numbers and take their own, direction-specific path.
#include "gpsimd/format.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "common/names.h"

// Invariant breaks are programming errors (ARCHITECTURE: abort with file:line).
#define GPSIMD_FORMAT_ASSERT(cond, ...)                                   \
  do {                                                                    \
    if (!(cond)) {                                                        \
      std::fprintf(stderr, "%s:%d: gpsimd format: ", __FILE__, __LINE__); \
      std::fprintf(stderr, __VA_ARGS__);                                  \
      std::fputc('\n', stderr);                                           \
      std::abort();                                                       \
    }                                                                     \
  } while (0)

namespace gpsimd {
namespace {

//                                         exp man bias bits canonical NaN
constexpr MiniFloatFormat kFp32Format = {8, 23, 127, 32, 0x7FC00000u};
constexpr MiniFloatFormat kBf16Format = {8, 7, 127, 16, 0x7FC0u};
constexpr MiniFloatFormat kFp16Format = {5, 10, 15, 16, 0x7E00u};
constexpr MiniFloatFormat kFp8E5Format = {5, 2, 15, 8, 0x7Eu};
constexpr MiniFloatFormat kFp8E4Format = {4, 3, 7, 8, 0x7Cu};
constexpr MiniFloatFormat kFp8E3Format = {3, 4, 3, 8, 0x78u};

// The descriptors and the SPEC §5 table must agree; these catch a typo at compile time.
constexpr bool self_consistent(const MiniFloatFormat& f) {
  const uint32_t exp_all_ones = ((1u << f.exp_bits) - 1u) << f.man_bits;
  const uint32_t quiet_bit = 1u << (f.man_bits - 1);
  return f.total_bits == static_cast<unsigned>(1 + f.exp_bits + f.man_bits) &&
         f.bias == (1 << (f.exp_bits - 1)) - 1 && f.canonical_nan == (exp_all_ones | quiet_bit);
}
static_assert(self_consistent(kFp32Format) && self_consistent(kBf16Format) &&
              self_consistent(kFp16Format) && self_consistent(kFp8E5Format) &&
              self_consistent(kFp8E4Format) && self_consistent(kFp8E3Format));

uint32_t sign_mask(const MiniFloatFormat& f) {
  return 1u << (f.total_bits - 1);
}
uint32_t man_mask(const MiniFloatFormat& f) {
  return (1u << f.man_bits) - 1u;
}
uint32_t exp_field_max(const MiniFloatFormat& f) {
  return (1u << f.exp_bits) - 1u;
}
uint32_t inf_bits(const MiniFloatFormat& f) {
  return exp_field_max(f) << f.man_bits;
}
// Unbiased exponents of the smallest and largest normal binades.
int min_normal_exp(const MiniFloatFormat& f) {
  return 1 - f.bias;
}
int max_normal_exp(const MiniFloatFormat& f) {
  return static_cast<int>(exp_field_max(f)) - 1 - f.bias;
}

enum class Kind { kFinite, kInf, kNaN };

// A decoded bit pattern. For kFinite the magnitude is exactly n * 2^q (n may be 0);
// for kNaN `mantissa` is the stored mantissa field (the payload, quiet bit included).
struct Decoded {
  Kind kind;
  bool negative;
  uint64_t n;
  int q;
  uint32_t mantissa;
};

// Bits above the sign bit are ignored (callers may pass a zero- or sign-extended word).
Decoded decode(const MiniFloatFormat& f, uint32_t bits) {
  const bool negative = (bits & sign_mask(f)) != 0;
  const uint32_t exp_field = (bits >> f.man_bits) & exp_field_max(f);
  const uint32_t mantissa = bits & man_mask(f);
  if (exp_field == exp_field_max(f)) {
    return {mantissa == 0 ? Kind::kInf : Kind::kNaN, negative, 0, 0, mantissa};
  }
  // A subnormal shares the smallest normal binade's quantum but has no implicit bit.
  if (exp_field == 0) {
    return {Kind::kFinite, negative, mantissa, min_normal_exp(f) - f.man_bits, mantissa};
  }
  const uint64_t n = (uint64_t{1} << f.man_bits) | mantissa;
  return {Kind::kFinite, negative, n, static_cast<int>(exp_field) - f.bias - f.man_bits, mantissa};
}

// Returns n / 2^shift rounded to the nearest integer, ties to even. Requires shift > 0.
uint64_t shift_right_round_even(uint64_t n, int shift) {
  const int width = static_cast<int>(std::bit_width(n));  // libstdc++ 12 returns uint64_t
  // Anything shifted further than one place past its top bit is below half and
  // rounds to 0; stopping there also keeps the shifts below 64.
  if (shift > width) return 0;
  const uint64_t kept = n >> shift;
  const uint64_t dropped = n & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  const bool round_up = dropped > half || (dropped == half && (kept & 1) != 0);
  return kept + (round_up ? 1 : 0);
}

// Returns the encoding in `f` of ±n * 2^q, rounded to nearest even, with gradual
// underflow and overflow to ±inf.
uint32_t encode(const MiniFloatFormat& f, bool negative, uint64_t n, int q) {
  const uint32_t sign = negative ? sign_mask(f) : 0;
  if (n == 0) return sign;
  // The value lies in the binade [2^e, 2^(e+1)).
  const int e = static_cast<int>(std::bit_width(n)) - 1 + q;
  // Rounding never carries past 2^(e+1), so a value above the top binade can only be inf;
  // deciding it here also keeps the left shift below within 64 bits.
  if (e > max_normal_exp(f)) return sign | inf_bits(f);
  // The result is a whole number of quanta of the binade it lands in; below the normal
  // range the quantum stays that of the smallest normal binade (gradual underflow).
  const int binade = std::max(e, min_normal_exp(f));
  const int quantum_exp = binade - f.man_bits;
  const int shift = quantum_exp - q;
  // shift <= 0: the value is already a whole number of quanta (left shift <= man_bits).
  const uint64_t quanta = shift <= 0 ? n << -shift : shift_right_round_even(n, shift);
  // For a normal binade `quanta` includes the implicit bit 2^man_bits, which adds the
  // missing 1 to the exponent field; a subnormal has binade - min = 0 and no implicit bit.
  // A round-up to 2^(man_bits+1) carries into the exponent field, which is what makes
  // the next binade (or, from the top binade, the inf encoding) come out by itself.
  const uint64_t magnitude =
      (static_cast<uint64_t>(binade - min_normal_exp(f)) << f.man_bits) + quanta;
  GPSIMD_FORMAT_ASSERT(magnitude <= inf_bits(f), "encode overflowed the exponent field");
  return sign | static_cast<uint32_t>(magnitude);
}

bool is_fp32(Dtype dt) {
  return dt == Dtype::FP32 || dt == Dtype::FP32R;
}

const MiniFloatFormat& format_or_abort(Dtype dt, const char* what) {
  const MiniFloatFormat* f = minifloat_format(dt);
  GPSIMD_FORMAT_ASSERT(f != nullptr, "%s: dtype code 0x%X is not a float dtype of SPEC section 5",
                       what, static_cast<unsigned>(dt));
  return *f;
}

}  // namespace

const MiniFloatFormat* minifloat_format(Dtype dt) {
  switch (dt) {
    case Dtype::BF16:
      return &kBf16Format;
    case Dtype::FP16:
      return &kFp16Format;
    case Dtype::FP8_E5:
      return &kFp8E5Format;
    case Dtype::FP8_E4:
      return &kFp8E4Format;
    case Dtype::FP8_E3:
      return &kFp8E3Format;
    default:
      return nullptr;
  }
}

uint32_t widen_to_fp32(Dtype dt, uint32_t bits) {
  if (is_fp32(dt)) return bits;
  const MiniFloatFormat& f = format_or_abort(dt, "widen_to_fp32");
  const Decoded d = decode(f, bits);
  switch (d.kind) {
    case Kind::kNaN: {
      const uint32_t sign = d.negative ? sign_mask(kFp32Format) : 0;
      const uint32_t payload = d.mantissa << (kFp32Format.man_bits - f.man_bits);
      return sign | kFp32Format.canonical_nan | payload;
    }
    case Kind::kInf:
      return (d.negative ? sign_mask(kFp32Format) : 0) | inf_bits(kFp32Format);
    case Kind::kFinite:
      break;
  }
  return encode(kFp32Format, d.negative, d.n, d.q);
}

uint32_t narrow_from_fp32(Dtype dt, uint32_t fp32_bits) {
  if (is_fp32(dt)) return fp32_bits;
  const MiniFloatFormat& f = format_or_abort(dt, "narrow_from_fp32");
  const Decoded d = decode(kFp32Format, fp32_bits);
  switch (d.kind) {
    case Kind::kNaN:
      return (d.negative ? sign_mask(f) : 0) | f.canonical_nan;
    case Kind::kInf:
      return (d.negative ? sign_mask(f) : 0) | inf_bits(f);
    case Kind::kFinite:
      break;
  }
  return encode(f, d.negative, d.n, d.q);
}

// ---- Integers (SPEC §5.1) ---------------------------------------------------------------

namespace {

struct IntRange {
  int64_t min, max;
};
IntRange int_range(Dtype dt) {
  switch (dt) {
    case Dtype::INT8:
      return {-128, 127};
    case Dtype::UINT8:
      return {0, 255};
    case Dtype::INT16:
      return {-32768, 32767};
    case Dtype::UINT16:
      return {0, 65535};
    case Dtype::INT32:
      return {-2147483648LL, 2147483647LL};
    case Dtype::UINT32:
      return {0, 4294967295LL};
    default:
      GPSIMD_FORMAT_ASSERT(false, "dtype code 0x%X is not an integer dtype of SPEC section 5.1",
                           static_cast<unsigned>(dt));
  }
  return {0, 0};
}

}  // namespace

bool is_int_dtype(Dtype dt) {
  switch (dt) {
    case Dtype::INT8:
    case Dtype::UINT8:
    case Dtype::INT16:
    case Dtype::UINT16:
    case Dtype::INT32:
    case Dtype::UINT32:
      return true;
    default:
      return false;
  }
}

uint32_t int_to_fp32(int64_t v) {
  const bool negative = v < 0;
  const uint64_t mag = negative ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  return encode(kFp32Format, negative, mag, 0);
}

int64_t int_value(Dtype dt, uint32_t bits) {
  const IntRange r = int_range(dt);
  const unsigned width = static_cast<unsigned>(std::bit_width(static_cast<uint64_t>(r.max)));
  const uint64_t low = bits & ((uint64_t{1} << (r.min < 0 ? width + 1 : width)) - 1);
  if (r.min < 0 && (low >> width) != 0)
    return static_cast<int64_t>(low) - (int64_t{1} << (width + 1));
  return static_cast<int64_t>(low);
}

uint32_t fp32_to_int(Dtype dt, uint32_t fp32_bits) {
  const IntRange r = int_range(dt);
  const Decoded d = decode(kFp32Format, fp32_bits);
  int64_t v = 0;
  switch (d.kind) {
    case Kind::kNaN:
      v = 0;
      break;
    case Kind::kInf:
      v = d.negative ? r.min : r.max;
      break;
    case Kind::kFinite: {
      // |value| = n * 2^q with n < 2^24; anything at or above 2^40 saturates every dtype.
      uint64_t mag;
      if (d.q >= 0)
        mag = static_cast<int>(std::bit_width(d.n)) + d.q > 40 ? uint64_t{1} << 40 : d.n << d.q;
      else
        mag = shift_right_round_even(d.n, -d.q);
      const int64_t s = static_cast<int64_t>(mag);
      v = std::clamp(d.negative ? -s : s, r.min, r.max);
      break;
    }
  }
  return int_low_bits_of_size(*dtype_size(dt), static_cast<uint64_t>(v));
}

// ---- The conversion of SPEC §5.1 --------------------------------------------------------

namespace {

// The thirteen dtypes of SPEC §5.1's table (the twelve data dtypes and FP32R).
bool in_table(Dtype dt) {
  return is_int_dtype(dt) || is_fp32(dt) || minifloat_format(dt) != nullptr;
}

void table_or_abort(Dtype dt, const char* what) {
  GPSIMD_FORMAT_ASSERT(in_table(dt), "%s: dtype code 0x%X is not a dtype of SPEC section 5.1", what,
                       static_cast<unsigned>(dt));
}

}  // namespace

// to_fp32: an integer becomes the nearest FP32 (ties to even), a float widens exactly.
uint32_t to_fp32(Dtype dt, uint32_t bits) {
  if (is_int_dtype(dt)) return int_to_fp32(int_value(dt, bits));
  table_or_abort(dt, "to_fp32");
  return widen_to_fp32(dt, bits);
}

// from_fp32: to an integer, round to nearest even and saturate (NaN -> 0); to a float,
// round to nearest even (FP32/FP32R: the bits unchanged).
uint32_t from_fp32(Dtype dt, uint32_t fp32_bits) {
  if (is_int_dtype(dt)) return fp32_to_int(dt, fp32_bits);
  table_or_abort(dt, "from_fp32");
  return narrow_from_fp32(dt, fp32_bits);
}

// cast(x, a, b) = x if a == b, else from_fp32(to_fp32(x, a), b).
uint32_t convert(uint32_t bits, Dtype from, Dtype to) {
  if (from == to) {
    table_or_abort(from, "convert");
    const unsigned size = *dtype_size(from);
    return size == 4 ? bits : bits & ((1u << (8 * size)) - 1);
  }
  return convert_through_fp32(bits, from, to);
}

uint32_t int_low_bits(Dtype dt, int64_t v) {
  GPSIMD_FORMAT_ASSERT(is_int_dtype(dt), "int_low_bits: dtype code 0x%X is not an integer dtype",
                       static_cast<unsigned>(dt));
  return int_low_bits_of_size(*dtype_size(dt), static_cast<uint64_t>(v));
}

std::string_view conversion_letter(ConversionKind k) {
  static constexpr Named<ConversionKind> kLetters[] = {
      {ConversionKind::Same, "="},        {ConversionKind::Widen, "W"},
      {ConversionKind::Exact, "X"},       {ConversionKind::Round, "R"},
      {ConversionKind::RoundTwice, "RR"}, {ConversionKind::FloatToInt, "I"},
      {ConversionKind::Saturate, "S"},    {ConversionKind::Saturate24, "S24"},
  };
  return name_of(kLetters, k);
}

std::optional<unsigned> conversion_index(Dtype dt) {
  for (unsigned i = 0; i < kConversionDtypes.size(); ++i)
    if (kConversionDtypes[i] == dt) return i;
  return std::nullopt;
}

std::optional<ConversionKind> conversion_kind(Dtype from, Dtype to) {
  const auto a = conversion_index(from), b = conversion_index(to);
  if (!a || !b) return std::nullopt;
  return kConversionTable[*a][*b];
}

// ---- The conversion rules SPEC marks [model] (declared in model.h) ----------------------

namespace model {

// SPEC §4.6 cvt_iota: integers keep the low bits (§5.1 "Who uses what"); floats take the
// INT32 row of §5.1 (R to FP32, RR to the narrow floats).
uint32_t iota_convert(uint8_t out_dtype, int32_t v) {
  const auto dt = static_cast<Dtype>(out_dtype);
  if (is_int_dtype(dt)) return int_low_bits(dt, v);
  return convert(static_cast<uint32_t>(v), Dtype::INT32, dt);
}

}  // namespace model

}  // namespace gpsimd
