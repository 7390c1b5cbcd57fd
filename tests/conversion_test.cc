// The conversion table of SPEC §5.1 and the one conversion piece (format.h's convert,
// to_fp32, from_fp32, convert_through_fp32, int_low_bits).
//
// The table is data (kConversionTable); here every letter is checked for what SPEC says
// it means, derived from convert() over the whole source range (every pattern of the 8-
// and 16-bit dtypes, a large edge-biased sample of the 32-bit ones): "=" the bits
// unchanged, "W" exact widening with the NaN payload kept, "X" every source value a
// destination value, "R" one rounding to nearest even and needed, "RR" two roundings
// (the difference visible into BF16 only), "I" round and saturate with NaN -> 0, "S" an
// integer clamp, "S24" a clamp after rounding to FP32. The expected values come from
// double arithmetic on the formats restated here from SPEC §5, never from the code under
// test. The examples of SPEC §5.1 and §4.17 are checked as written.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gpsimd/format.h"

namespace gpsimd {
namespace {

// ---- the formats of SPEC §5, restated -------------------------------------------------

struct Fmt {
  int exp_bits, man_bits, bias;
  uint32_t nan;  // canonical, positive
};
std::optional<Fmt> narrow_format(Dtype dt) {
  switch (dt) {
    case Dtype::BF16:
      return Fmt{8, 7, 127, 0x7FC0};
    case Dtype::FP16:
      return Fmt{5, 10, 15, 0x7E00};
    case Dtype::FP8_E5:
      return Fmt{5, 2, 15, 0x7E};
    case Dtype::FP8_E4:
      return Fmt{4, 3, 7, 0x7C};
    case Dtype::FP8_E3:
      return Fmt{3, 4, 3, 0x78};
    default:
      return std::nullopt;
  }
}
bool is_fp32(Dtype dt) {
  return dt == Dtype::FP32 || dt == Dtype::FP32R;
}
bool is_float(Dtype dt) {
  return is_fp32(dt) || narrow_format(dt).has_value();
}
unsigned bits_of(Dtype dt) {
  switch (dt) {
    case Dtype::INT8:
    case Dtype::UINT8:
    case Dtype::FP8_E3:
    case Dtype::FP8_E4:
    case Dtype::FP8_E5:
      return 8;
    case Dtype::INT16:
    case Dtype::UINT16:
    case Dtype::BF16:
    case Dtype::FP16:
      return 16;
    default:
      return 32;
  }
}
bool is_signed(Dtype dt) {
  return dt == Dtype::INT8 || dt == Dtype::INT16 || dt == Dtype::INT32;
}
double int_min(Dtype dt) {
  return is_signed(dt) ? -std::ldexp(1.0, static_cast<int>(bits_of(dt)) - 1) : 0.0;
}
double int_max(Dtype dt) {
  return is_signed(dt) ? std::ldexp(1.0, static_cast<int>(bits_of(dt)) - 1) - 1
                       : std::ldexp(1.0, static_cast<int>(bits_of(dt))) - 1;
}
Fmt fmt_of(Dtype dt) {
  if (is_fp32(dt)) return Fmt{8, 23, 127, 0x7FC00000};
  return *narrow_format(dt);
}

// What a bit pattern means: a finite number (its exact value, the sign of a zero), an
// infinity or a NaN (its sign and mantissa field).
struct Value {
  enum Kind { Finite, Inf, NaN } kind = Finite;
  double v = 0;  // Finite: the value; Inf: ±1
  bool negative = false;
  uint32_t mantissa = 0;  // NaN: the mantissa field
};
Value value_of(Dtype dt, uint32_t bits) {
  Value r;
  if (!is_float(dt)) {
    const unsigned w = bits_of(dt);
    const uint64_t low = w == 32 ? bits : bits & ((1u << w) - 1);
    int64_t x = static_cast<int64_t>(low);
    if (is_signed(dt) && (low >> (w - 1))) x -= int64_t{1} << w;
    r.v = static_cast<double>(x);
    r.negative = x < 0;
    return r;
  }
  const Fmt f = fmt_of(dt);
  const int total = 1 + f.exp_bits + f.man_bits;
  r.negative = (bits >> (total - 1)) & 1;
  const uint32_t e = (bits >> f.man_bits) & ((1u << f.exp_bits) - 1);
  const uint32_t m = bits & ((1u << f.man_bits) - 1);
  if (e == (1u << f.exp_bits) - 1) {
    r.kind = m == 0 ? Value::Inf : Value::NaN;
    r.mantissa = m;
    r.v = r.negative ? -1 : 1;
    return r;
  }
  const double mag =
      e == 0 ? std::ldexp(m, 1 - f.bias - f.man_bits)
             : std::ldexp(m + (1u << f.man_bits), static_cast<int>(e) - f.bias - f.man_bits);
  r.v = r.negative ? -mag : mag;
  return r;
}
bool same_value(const Value& a, const Value& b) {
  return a.kind == b.kind && a.negative == b.negative && (a.kind != Value::Finite || a.v == b.v);
}

// The encoding in float dtype `dt` of the exact value v (finite), rounded to nearest even
// with gradual underflow; beyond the finite range ±inf. `neg_zero`: the sign of a zero v.
uint32_t round_to(Dtype dt, double v, bool neg_zero) {
  const Fmt f = fmt_of(dt);
  const int total = 1 + f.exp_bits + f.man_bits;
  const bool neg = v < 0 || (v == 0 && neg_zero);
  const uint32_t sign = neg ? 1u << (total - 1) : 0;
  const uint32_t inf = ((1u << f.exp_bits) - 1) << f.man_bits;
  const double a = std::fabs(v);
  if (a == 0) return sign;
  const int emin = 1 - f.bias, emax = (1 << f.exp_bits) - 2 - f.bias;
  int e2;
  std::frexp(a, &e2);
  const int e = std::max(e2 - 1, emin);
  const double q = std::ldexp(1.0, e - f.man_bits);
  const double r = std::nearbyint(a / q) * q;  // ties to even (the default mode)
  const double max_finite = std::ldexp(2.0 - std::ldexp(1.0, -f.man_bits), emax);
  if (r > max_finite) return sign | inf;
  if (r < std::ldexp(1.0, emin))
    return sign | static_cast<uint32_t>(r / std::ldexp(1.0, emin - f.man_bits));
  int r2;
  std::frexp(r, &r2);
  const int re = r2 - 1;
  const auto m = static_cast<uint32_t>(r / std::ldexp(1.0, re - f.man_bits)) - (1u << f.man_bits);
  return sign | static_cast<uint32_t>(re + f.bias) << f.man_bits | m;
}
// The integer pattern of the exact value v clamped to dt's range.
uint32_t clamp_to(Dtype dt, double v) {
  const double c = std::clamp(v, int_min(dt), int_max(dt));
  const auto x = static_cast<uint64_t>(static_cast<int64_t>(c));
  const unsigned w = bits_of(dt);
  return static_cast<uint32_t>(w == 32 ? x & 0xffffffffu : x & ((1u << w) - 1));
}
// FP32 as a double (one rounding of an exact integer).
double fp32_round(double v) {
  return static_cast<double>(static_cast<float>(v));
}
uint32_t canonical_nan(Dtype dt, bool negative) {
  const Fmt f = fmt_of(dt);
  return (negative ? 1u << (f.exp_bits + f.man_bits) : 0) | f.nan;
}

std::string name(Dtype dt) {
  return std::string(*dtype_name(static_cast<uint8_t>(dt)));
}

// The source patterns a pair is checked on: every one of an 8- or 16-bit dtype; for the
// 32-bit ones the edges (limits, 2^24 ± small, halves, ties, NaN payloads, subnormals)
// and random bits.
std::vector<uint32_t> sources(Dtype dt) {
  std::vector<uint32_t> v;
  const unsigned w = bits_of(dt);
  if (w < 32) {
    for (uint32_t b = 0; b < (1u << w); ++b) v.push_back(b);
    return v;
  }
  std::mt19937 rng(static_cast<uint32_t>(dt) * 977u);
  if (is_float(dt)) {
    for (uint32_t b :
         {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u,
          0xff800001u, 0x7fbfffffu, 0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu,
          0x4f000000u, 0x4effffffu, 0x4f800000u, 0x4f7fffffu, 0xcf000000u, 0xcf000001u})
      v.push_back(b);
    for (double x :
         {0.5,     1.5,     2.5,     3.5,   127.5, 128.5, 255.5, 32767.5, 65535.5, 8388607.5,
          65504.0, 65519.0, 65520.0, 240.0, 247.0, 248.0, 15.5,  15.75,   57344.0, 61440.0})
      for (double s : {1.0, -1.0}) v.push_back(std::bit_cast<uint32_t>(static_cast<float>(x * s)));
    // Every exponent, with mantissas at the narrow formats' ties and beside them.
    for (uint32_t e = 0; e < 256; ++e)
      for (uint32_t m : {0u, 1u, 0x8000u, 0x8001u, 0x7fffu, 0x18000u, 0x80000u, 0x7fffffu,
                         0x100000u, 0x40000u, 0xfffffu, 0x200000u})
        for (uint32_t s : {0u, 0x80000000u}) v.push_back(s | e << 23 | m);
  } else {
    for (int k = 0; k < 32; ++k)
      for (int64_t d = -2; d <= 2; ++d)
        for (int64_t s : {1, -1}) v.push_back(static_cast<uint32_t>(s * ((int64_t{1} << k) + d)));
    for (uint32_t b : {0x01010001u, 0x7fffffc0u, 0x7fffffbfu, 0xffffffffu, 0x80000000u})
      v.push_back(b);
  }
  for (int i = 0; i < 200000; ++i) v.push_back(static_cast<uint32_t>(rng()));
  return v;
}

class ConversionTable : public ::testing::TestWithParam<Dtype> {};

// Every letter of the source's row, checked over the source range.
TEST_P(ConversionTable, EveryLetterOfTheRowHoldsOverTheSourceRange) {
  const Dtype from = GetParam();
  const std::vector<uint32_t> xs = sources(from);
  for (Dtype to : kConversionDtypes) {
    const ConversionKind k = *conversion_kind(from, to);
    SCOPED_TRACE(::testing::Message()
                 << name(from) << " -> " << name(to) << " (" << conversion_letter(k) << ")");
    bool rounded_somewhere = false;  // R, RR, S24: some value changes
    bool double_rounding_shows = false;
    for (uint32_t x0 : xs) {
      const uint32_t x = bits_of(from) == 32 ? x0 : x0 & ((1u << bits_of(from)) - 1);
      const uint32_t y = convert(x, from, to);
      const Value a = value_of(from, x);
      const auto where = [&] { return ::testing::Message() << "source 0x" << std::hex << x; };
      switch (k) {
        case ConversionKind::Same:
          ASSERT_EQ(y, x) << where();
          break;
        case ConversionKind::Widen: {
          ASSERT_TRUE(is_fp32(to));
          const Value b = value_of(to, y);
          if (a.kind == Value::NaN) {
            const Fmt f = fmt_of(from);
            ASSERT_EQ(
                y, (a.negative ? 0x80000000u : 0u) | 0x7fc00000u | a.mantissa << (23 - f.man_bits))
                << where();
          } else {
            ASSERT_TRUE(same_value(a, b)) << where();
          }
          break;
        }
        case ConversionKind::Exact: {
          ASSERT_TRUE(is_float(to));
          if (a.kind == Value::NaN) {
            ASSERT_EQ(y, canonical_nan(to, a.negative)) << where();
          } else {
            ASSERT_TRUE(same_value(a, value_of(to, y))) << where();
          }
          break;
        }
        case ConversionKind::Round:
        case ConversionKind::RoundTwice: {
          ASSERT_TRUE(is_float(to));
          if (a.kind == Value::NaN) {
            ASSERT_EQ(y, canonical_nan(to, a.negative)) << where();
            break;
          }
          if (a.kind == Value::Inf) {
            ASSERT_TRUE(same_value(a, value_of(to, y))) << where();
            break;
          }
          const uint32_t once = round_to(to, a.v, a.negative);
          if (k == ConversionKind::Round) {
            ASSERT_EQ(y, once) << where();
          } else {
            const uint32_t twice = round_to(to, fp32_round(a.v), false);
            ASSERT_EQ(y, twice) << where();
            double_rounding_shows |= once != twice;
          }
          rounded_somewhere |= !same_value(a, value_of(to, y));
          break;
        }
        case ConversionKind::FloatToInt: {
          ASSERT_FALSE(is_float(to));
          uint32_t want;
          if (a.kind == Value::NaN)
            want = 0;
          else if (a.kind == Value::Inf)
            want = clamp_to(to, a.negative ? int_min(to) : int_max(to));
          else
            want = clamp_to(to, std::nearbyint(a.v));
          ASSERT_EQ(y, want) << where();
          break;
        }
        case ConversionKind::Saturate:
          ASSERT_FALSE(is_float(from) || is_float(to));
          ASSERT_EQ(y, clamp_to(to, a.v)) << where();
          break;
        case ConversionKind::Saturate24:
          ASSERT_EQ(y, clamp_to(to, fp32_round(a.v))) << where();
          rounded_somewhere |= y != clamp_to(to, a.v);
          break;
      }
    }
    // The letters that say something changes: some source shows it.
    if (k == ConversionKind::Round || k == ConversionKind::Saturate24) {
      EXPECT_TRUE(rounded_somewhere) << "no source is rounded: the letter would be X or S";
    }
    // RR: "only BF16 can show the difference".
    if (k == ConversionKind::RoundTwice) {
      EXPECT_EQ(double_rounding_shows, to == Dtype::BF16);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryRow, ConversionTable, ::testing::ValuesIn(kConversionDtypes),
                         [](const auto& p) { return name(p.param); });

// The table as SPEC §5.1 prints it, letter by letter (rows: source, columns: destination).
TEST(ConversionTableText, MatchesSpec) {
  const char* rows[] = {
      "= S S S S S X X R R R X X",        "S = S S S S X X R R R X X",
      "S S = S S S R R R R R X X",        "S S S = S S R R R R R X X",
      "S S S S = S24 RR RR RR RR RR R R", "S S S S S24 = RR RR RR RR RR R R",
      "I I I I I I = R R R R W W",        "I I I I I I R = R R R W W",
      "I I I I I I X X = R R W W",        "I I I I I I X X R = R W W",
      "I I I I I I X X R R = W W",        "I I I I I I R R R R R = =",
      "I I I I I I R R R R R = =",
  };
  for (unsigned i = 0; i < 13; ++i) {
    std::string got;
    for (unsigned j = 0; j < 13; ++j) {
      if (j) got += ' ';
      got += conversion_letter(kConversionTable[i][j]);
    }
    EXPECT_EQ(got, rows[i]) << name(kConversionDtypes[i]);
  }
  EXPECT_FALSE(conversion_kind(Dtype::INT64, Dtype::FP32).has_value());
  EXPECT_FALSE(conversion_kind(Dtype::FP32, Dtype::FP4_E2).has_value());
  EXPECT_EQ(conversion_index(Dtype::FP32R), 12u);
}

// SPEC §4.17's and §5.1's examples, as written.
TEST(ConversionExamples, Section4_17) {
  const auto f = [](float x) { return std::bit_cast<uint32_t>(x); };
  EXPECT_EQ(convert(f(2.5f), Dtype::FP32, Dtype::INT32), 2u);
  EXPECT_EQ(convert(f(3.5f), Dtype::FP32, Dtype::INT32), 4u);
  EXPECT_EQ(convert(f(-0.5f), Dtype::FP32, Dtype::INT32), 0u);
  EXPECT_EQ(convert(0x7fc00000u, Dtype::FP32, Dtype::INT32), 0u);
  EXPECT_EQ(convert(0x7f800000u, Dtype::FP32, Dtype::INT32), 0x7fffffffu);
  EXPECT_EQ(convert(300, Dtype::INT32, Dtype::INT8), 0x7fu);
  EXPECT_EQ(convert(0xff, Dtype::INT8, Dtype::UINT8), 0u);
  EXPECT_EQ(convert(0xffffffffu, Dtype::UINT32, Dtype::INT32), 0x7fffffffu);
  EXPECT_EQ(convert(0x7fffffffu, Dtype::INT32, Dtype::UINT32), 0x80000000u);
  EXPECT_EQ(convert(0x01010001u, Dtype::INT32, Dtype::BF16), 0x4b80u);
  EXPECT_EQ(convert(0xff7fffffu, Dtype::FP32, Dtype::BF16), 0xff80u);
  EXPECT_EQ(convert(0x7f81u, Dtype::BF16, Dtype::FP32), 0x7fc10000u);
  EXPECT_EQ(convert(0x7bffu, Dtype::FP16, Dtype::FP8_E4), 0x78u);
}

TEST(ConversionExamples, Section5_1) {
  EXPECT_EQ(convert(0xff, Dtype::INT8, Dtype::UINT32), 0u);
  EXPECT_EQ(convert(0xffff, Dtype::UINT16, Dtype::INT16), 0x7fffu);
  EXPECT_EQ(convert(16777217, Dtype::INT32, Dtype::UINT32), 16777216u);
  EXPECT_EQ(convert(0x7fffffffu, Dtype::INT32, Dtype::UINT32), 0x80000000u);
  EXPECT_EQ(convert(0x7fffffc0u, Dtype::UINT32, Dtype::INT32), 0x7fffffffu);
  // 2^24 + 2^16 + 1 -> BF16: two roundings give 2^24, one would give 2^24 + 2^17.
  EXPECT_EQ(convert((1u << 24) + (1u << 16) + 1, Dtype::INT32, Dtype::BF16), 0x4b80u);
  EXPECT_EQ(round_to(Dtype::BF16, 16777216.0 + 65536.0 + 1.0, false), 0x4b81u);
  // FP32 <-> FP32R: "=".
  EXPECT_EQ(convert(0x7f800001u, Dtype::FP32, Dtype::FP32R), 0x7f800001u);
  // Integer 0 becomes +0.0; -0.0 becomes 0.
  EXPECT_EQ(to_fp32(Dtype::INT32, 0), 0u);
  EXPECT_EQ(from_fp32(Dtype::INT16, 0x80000000u), 0u);
  EXPECT_EQ(from_fp32(Dtype::UINT8, 0xff800000u), 0u);    // -inf -> the minimum
  EXPECT_EQ(from_fp32(Dtype::INT8, 0xff800000u), 0x80u);  // -inf -> -128
  EXPECT_EQ(from_fp32(Dtype::UINT16, 0x7f800000u), 0xffffu);
}

// "Who uses what": the halves apart go through FP32 also for equal dtypes.
TEST(ConversionExamples, ThroughFp32KeepsNoEqualDtypeCopy) {
  EXPECT_EQ(convert_through_fp32(0x01000001u, Dtype::INT32, Dtype::INT32), 0x01000000u);
  EXPECT_EQ(convert(0x01000001u, Dtype::INT32, Dtype::INT32), 0x01000001u);
  EXPECT_EQ(convert_through_fp32(0x7f81u, Dtype::BF16, Dtype::BF16), 0x7fc0u);
  EXPECT_EQ(convert(0x7f81u, Dtype::BF16, Dtype::BF16), 0x7f81u);
  // 2^31 - 1 stays 2^31 - 1 by saturation (SPEC §4.16); FP32 is unchanged, sNaN too.
  EXPECT_EQ(convert_through_fp32(0x7fffffffu, Dtype::INT32, Dtype::INT32), 0x7fffffffu);
  EXPECT_EQ(convert_through_fp32(0x7f800001u, Dtype::FP32, Dtype::FP32), 0x7f800001u);
  // Bits above a narrow element are not part of it.
  EXPECT_EQ(convert(0xabcd1234u, Dtype::INT16, Dtype::INT16), 0x1234u);
}

// Iota's, FindIndex8's and the native path's low bits (§5.1 "Who uses what", §4.6).
TEST(ConversionExamples, LowBitsOfIntegers) {
  EXPECT_EQ(int_low_bits(Dtype::INT8, 300), 44u);
  EXPECT_EQ(int_low_bits(Dtype::INT8, -1), 0xffu);
  EXPECT_EQ(int_low_bits(Dtype::UINT16, 0xffffffffu), 0xffffu);
  EXPECT_EQ(int_low_bits(Dtype::UINT32, -1), 0xffffffffu);
  EXPECT_EQ(int_low_bits(Dtype::INT32, int64_t{1} << 32), 0u);
}

// The inline BF16 widening of the kernels is to_fp32's, on every pattern: a number is
// the pattern's value (restated from SPEC §5: 1-8-7, bias 127), a NaN keeps its sign and
// payload and gets the quiet bit.
TEST(ConversionExamples, InlineBf16WideningIsToFp32) {
  for (uint32_t b = 0; b <= 0xffff; ++b) {
    const uint32_t got = bf16_to_fp32(static_cast<uint16_t>(b));
    ASSERT_EQ(got, to_fp32(Dtype::BF16, b)) << std::hex << b;
    const uint32_t e = (b >> 7) & 0xff, man = b & 0x7f;
    const double sign = (b >> 15) ? -1.0 : 1.0;
    if (e == 0xff && man != 0) {
      EXPECT_EQ(got, (b << 16) | 0x00400000u) << std::hex << b;
    } else if (e == 0xff) {
      EXPECT_EQ(std::bit_cast<float>(got), static_cast<float>(sign * INFINITY)) << std::hex << b;
    } else {
      const double v =
          e == 0 ? std::ldexp(man, -133) : std::ldexp(128 + man, static_cast<int>(e) - 134);
      EXPECT_EQ(static_cast<double>(std::bit_cast<float>(got)), sign * v) << std::hex << b;
      EXPECT_EQ(got >> 31, b >> 15) << std::hex << b;  // -0.0 too
    }
  }
  EXPECT_EQ(bf16_to_fp32(0x7f81), 0x7fc10000u);  // SPEC §4.17
}

TEST(ConversionDeathTest, DtypesOutsideTheTableAbort) {
  EXPECT_DEATH(convert(0, Dtype::INT64, Dtype::FP32), "not a dtype of SPEC section 5.1");
  EXPECT_DEATH(to_fp32(Dtype::FP4_E2, 0), "not a dtype of SPEC section 5.1");
  EXPECT_DEATH(from_fp32(Dtype::INVALID, 0), "not a dtype of SPEC section 5.1");
  EXPECT_DEATH(int_low_bits(Dtype::FP32, 0), "not an integer dtype");
}

}  // namespace
}  // namespace gpsimd
