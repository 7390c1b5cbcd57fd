// Tests of the FP32 <-> narrow float conversions (SPEC §5).
//
// The expected values never come from the code under test: each format is restated here
// from SPEC §5, the value of each bit pattern is computed with ldexp in double, and
// narrowing is checked against a search for the nearest representable value (ties to
// the even encoding) over all finite values of the format.
#include "gpsimd/format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace gpsimd {
namespace {

// A narrow format as SPEC §5 defines it, restated independently of format.cc.
struct Spec {
  Dtype dtype;
  const char* name;
  int exp_bits;
  int man_bits;
  int bias;
  uint32_t canonical_nan;  // positive
  double max_finite;       // from the SPEC table (BF16: computed by hand, (2-2^-7)*2^127)
};

const Spec kSpecs[] = {
    {Dtype::BF16, "BF16", 8, 7, 127, 0x7FC0, 0x1.FEp127},
    {Dtype::FP16, "FP16", 5, 10, 15, 0x7E00, 65504.0},
    {Dtype::FP8_E5, "FP8_E5", 5, 2, 15, 0x7E, 57344.0},
    {Dtype::FP8_E4, "FP8_E4", 4, 3, 7, 0x7C, 240.0},
    {Dtype::FP8_E3, "FP8_E3", 3, 4, 3, 0x78, 15.5},
};

int total_bits(const Spec& s) {
  return 1 + s.exp_bits + s.man_bits;
}
uint32_t sign_bit(const Spec& s) {
  return 1u << (total_bits(s) - 1);
}
uint32_t pattern_count(const Spec& s) {
  return 1u << total_bits(s);
}
uint32_t exp_field(const Spec& s, uint32_t b) {
  return (b >> s.man_bits) & ((1u << s.exp_bits) - 1);
}
uint32_t man_field(const Spec& s, uint32_t b) {
  return b & ((1u << s.man_bits) - 1);
}
bool all_ones_exp(const Spec& s, uint32_t b) {
  return exp_field(s, b) == (1u << s.exp_bits) - 1;
}
bool is_nan(const Spec& s, uint32_t b) {
  return all_ones_exp(s, b) && man_field(s, b) != 0;
}
bool is_inf(const Spec& s, uint32_t b) {
  return all_ones_exp(s, b) && man_field(s, b) == 0;
}
uint32_t inf_pattern(const Spec& s) {
  return ((1u << s.exp_bits) - 1) << s.man_bits;
}

// The exact value of a non-NaN bit pattern, from the textbook definition.
double value_of(const Spec& s, uint32_t b) {
  const double sign = (b & sign_bit(s)) ? -1.0 : 1.0;
  if (is_inf(s, b)) return sign * std::numeric_limits<double>::infinity();
  const int e = static_cast<int>(exp_field(s, b));
  const double frac = std::ldexp(static_cast<double>(man_field(s, b)), -s.man_bits);
  if (e == 0) return sign * std::ldexp(frac, 1 - s.bias);
  return sign * std::ldexp(1.0 + frac, e - s.bias);
}

uint32_t f32_bits(double v) {
  return bits_from_fp32(static_cast<float>(v));
}

std::string hex(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%X", v);
  return buf;
}

// Nearest-even oracle: the non-negative finite values of a format in increasing order,
// followed by 2^(emax+1), which stands for +inf. IEEE rounds to inf exactly when the
// value would round to 2^(emax+1) with an unbounded exponent, and that number's
// encoding (the inf pattern) has an even mantissa, so it takes part in ties like any
// other candidate.
struct Oracle {
  const Spec* spec;
  std::vector<double> values;
  std::vector<uint32_t> patterns;

  explicit Oracle(const Spec& s) : spec(&s) {
    for (uint32_t b = 0; b < inf_pattern(s); ++b) {
      values.push_back(value_of(s, b));
      patterns.push_back(b);
    }
    const int emax = (1 << s.exp_bits) - 2 - s.bias;
    values.push_back(std::ldexp(1.0, emax + 1));
    patterns.push_back(inf_pattern(s));
  }

  // Returns the expected narrow pattern of a finite or infinite float x.
  uint32_t round(float x) const {
    const uint32_t sign = std::signbit(x) ? sign_bit(*spec) : 0;
    const double a = std::fabs(static_cast<double>(x));
    if (a >= values.back()) return sign | inf_pattern(*spec);
    const auto hi = std::lower_bound(values.begin(), values.end(), a);
    const size_t i = static_cast<size_t>(hi - values.begin());
    if (*hi == a) return sign | patterns[i];
    // values[i-1] < a < values[i]; comparing 2a with the sum avoids rounding in double.
    const double twice = 2.0 * a, sum = values[i - 1] + values[i];
    size_t pick;
    if (twice < sum) {
      pick = i - 1;
    } else if (twice > sum) {
      pick = i;
    } else {
      pick = (patterns[i - 1] & 1) == 0 ? i - 1 : i;
    }
    return sign | patterns[pick];
  }
};

class FormatTest : public ::testing::TestWithParam<Spec> {};

TEST_P(FormatTest, DescriptorMatchesSpec) {
  const Spec& s = GetParam();
  const MiniFloatFormat* f = minifloat_format(s.dtype);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->exp_bits, s.exp_bits);
  EXPECT_EQ(f->man_bits, s.man_bits);
  EXPECT_EQ(f->bias, s.bias);
  EXPECT_EQ(f->total_bits, static_cast<unsigned>(total_bits(s)));
  EXPECT_EQ(f->canonical_nan, s.canonical_nan);
}

TEST_P(FormatTest, MaxFiniteMatchesSpecTable) {
  const Spec& s = GetParam();
  const uint32_t max_pattern = inf_pattern(s) - 1;
  EXPECT_EQ(value_of(s, max_pattern), s.max_finite);
  EXPECT_EQ(widen_to_fp32(s.dtype, max_pattern), f32_bits(s.max_finite));
  EXPECT_EQ(widen_to_fp32(s.dtype, max_pattern | sign_bit(s)), f32_bits(-s.max_finite));
}

TEST_P(FormatTest, EveryPatternWidensExactlyAndNarrowsBack) {
  const Spec& s = GetParam();
  for (uint32_t b = 0; b < pattern_count(s); ++b) {
    SCOPED_TRACE(std::string(s.name) + " pattern " + hex(b));
    const uint32_t wide = widen_to_fp32(s.dtype, b);
    const uint32_t sign = (b & sign_bit(s)) ? 0x80000000u : 0;
    if (is_nan(s, b)) {
      const uint32_t payload = man_field(s, b) << (23 - s.man_bits);
      EXPECT_EQ(wide, sign | 0x7F800000u | 0x00400000u | payload);
      EXPECT_EQ(narrow_from_fp32(s.dtype, wide), (b & sign_bit(s)) | s.canonical_nan);
    } else {
      // Every narrow value is exactly representable in float, so the cast is exact and
      // keeps the sign of zero.
      EXPECT_EQ(wide, f32_bits(value_of(s, b)));
      EXPECT_EQ(narrow_from_fp32(s.dtype, wide), b);
    }
  }
}

TEST_P(FormatTest, WideningIgnoresHighBits) {
  const Spec& s = GetParam();
  for (uint32_t b : {0u, 1u, sign_bit(s) | 5u, inf_pattern(s), inf_pattern(s) | 1u}) {
    const uint32_t junk = 0xA5A5A5A5u << total_bits(s);
    EXPECT_EQ(widen_to_fp32(s.dtype, b | junk), widen_to_fp32(s.dtype, b)) << hex(b);
  }
}

// Every value, every midpoint between neighbours and the floats on either side of each
// midpoint, both signs; checked against the nearest-even oracle.
TEST_P(FormatTest, NarrowingMatchesOracleOnValuesAndMidpoints) {
  const Spec& s = GetParam();
  const Oracle oracle(s);
  size_t ties = 0;
  for (size_t i = 0; i + 1 < oracle.values.size(); ++i) {
    const double lo = oracle.values[i], hi = oracle.values[i + 1];
    const float mid = static_cast<float>((lo + hi) / 2);
    ASSERT_EQ(static_cast<double>(mid), (lo + hi) / 2) << "midpoint not exact in float";
    ++ties;
    const float probes[] = {static_cast<float>(lo), mid, std::nextafter(mid, 0.0f),
                            std::nextafter(mid, INFINITY)};
    for (float p : probes) {
      for (float x : {p, -p}) {
        const uint32_t xb = bits_from_fp32(x);
        ASSERT_EQ(narrow_from_fp32(s.dtype, xb), oracle.round(x))
            << s.name << " input " << hex(xb) << " = " << x;
      }
    }
  }
  EXPECT_EQ(ties, oracle.values.size() - 1);
}

// Random FP32 inputs: uniform over all bit patterns (mostly far out of an FP8 range) and
// concentrated on the format's range with full-width random mantissas.
TEST_P(FormatTest, NarrowingMatchesOracleOnRandomInputs) {
  const Spec& s = GetParam();
  const Oracle oracle(s);
  std::mt19937 rng(0x5EED0000u + static_cast<uint32_t>(s.dtype));
  const int emin = 1 - s.bias, emax = (1 << s.exp_bits) - 2 - s.bias;
  std::uniform_int_distribution<int> exp_dist(std::max(emin - s.man_bits - 3, -149), emax + 2);
  std::uniform_int_distribution<uint32_t> any(0, 0xFFFFFFFFu);
  for (int k = 0; k < 40000; ++k) {
    float x;
    if (k % 2 == 0) {
      x = fp32_from_bits(any(rng));
    } else {
      const double m = 1.0 + std::ldexp(static_cast<double>(any(rng) & 0x7FFFFF), -23);
      x = static_cast<float>(std::ldexp(m, exp_dist(rng)));  // may underflow to subnormal
      if (any(rng) & 1) x = -x;
    }
    const uint32_t xb = bits_from_fp32(x);
    if (std::isnan(x)) {
      ASSERT_EQ(narrow_from_fp32(s.dtype, xb), (xb >> 31 ? sign_bit(s) : 0) | s.canonical_nan)
          << s.name << " input " << hex(xb);
    } else {
      ASSERT_EQ(narrow_from_fp32(s.dtype, xb), oracle.round(x))
          << s.name << " input " << hex(xb) << " = " << x;
    }
  }
}

TEST_P(FormatTest, OverflowBoundary) {
  const Spec& s = GetParam();
  const uint32_t max_pattern = inf_pattern(s) - 1;
  const int emax = (1 << s.exp_bits) - 2 - s.bias;
  const double half_ulp = std::ldexp(1.0, emax - s.man_bits - 1);
  const float boundary = static_cast<float>(s.max_finite + half_ulp);
  ASSERT_EQ(static_cast<double>(boundary), s.max_finite + half_ulp);
  for (uint32_t sign : {0u, 1u}) {
    const float m = sign ? -1.0f : 1.0f;
    const uint32_t sb = sign ? sign_bit(s) : 0;
    EXPECT_EQ(narrow_from_fp32(s.dtype, bits_from_fp32(m * boundary)), sb | inf_pattern(s));
    EXPECT_EQ(narrow_from_fp32(s.dtype, bits_from_fp32(m * std::nextafter(boundary, 0.0f))),
              sb | max_pattern);
    EXPECT_EQ(narrow_from_fp32(s.dtype, bits_from_fp32(m * INFINITY)), sb | inf_pattern(s));
  }
  EXPECT_EQ(narrow_from_fp32(s.dtype, bits_from_fp32(-FLT_MAX)), sign_bit(s) | inf_pattern(s));
  EXPECT_EQ(narrow_from_fp32(s.dtype, bits_from_fp32(FLT_MAX)), inf_pattern(s));
}

TEST_P(FormatTest, SmallestSubnormalBoundary) {
  const Spec& s = GetParam();
  const double min_sub = std::ldexp(1.0, 1 - s.bias - s.man_bits);
  const float half = static_cast<float>(min_sub / 2);
  ASSERT_EQ(static_cast<double>(half), min_sub / 2);
  for (uint32_t sign : {0u, 1u}) {
    const float m = sign ? -1.0f : 1.0f;
    const uint32_t sb = sign ? sign_bit(s) : 0;
    // Half of the smallest subnormal is a tie between 0 (even) and 1 quantum (odd).
    EXPECT_EQ(narrow_from_fp32(s.dtype, bits_from_fp32(m * half)), sb);
    EXPECT_EQ(narrow_from_fp32(s.dtype, bits_from_fp32(m * std::nextafter(half, 1.0f))), sb | 1u);
    EXPECT_EQ(narrow_from_fp32(s.dtype, bits_from_fp32(m * std::nextafter(half, 0.0f))), sb);
    // 1.5 quanta is a tie between 1 (odd) and 2 (even).
    EXPECT_EQ(narrow_from_fp32(s.dtype, bits_from_fp32(m * static_cast<float>(1.5 * min_sub))),
              sb | 2u);
    // The smallest FP32 subnormal is far below any of these formats' quanta.
    EXPECT_EQ(narrow_from_fp32(s.dtype, sign ? 0x80000001u : 0x00000001u), sb);
  }
}

TEST_P(FormatTest, NaNsNarrowToCanonicalWithSign) {
  const Spec& s = GetParam();
  for (uint32_t nan : {0x7FC00000u, 0x7F800001u, 0x7FFFFFFFu, 0x7FA5A5A5u}) {
    EXPECT_EQ(narrow_from_fp32(s.dtype, nan), s.canonical_nan) << hex(nan);
    EXPECT_EQ(narrow_from_fp32(s.dtype, nan | 0x80000000u), sign_bit(s) | s.canonical_nan)
        << hex(nan);
  }
}

TEST_P(FormatTest, SignedZeros) {
  const Spec& s = GetParam();
  EXPECT_EQ(narrow_from_fp32(s.dtype, 0x00000000u), 0u);
  EXPECT_EQ(narrow_from_fp32(s.dtype, 0x80000000u), sign_bit(s));
  EXPECT_EQ(widen_to_fp32(s.dtype, 0), 0u);
  EXPECT_EQ(widen_to_fp32(s.dtype, sign_bit(s)), 0x80000000u);
}

INSTANTIATE_TEST_SUITE_P(AllNarrowFormats, FormatTest, ::testing::ValuesIn(kSpecs),
                         [](const ::testing::TestParamInfo<Spec>& param_info) {
                           return std::string(param_info.param.name);
                         });

// Hand-checked values, written out bit by bit.
TEST(FormatSpotTest, LargestFiniteValues) {
  // FP8_E4 0x77 = 0.1110.111 = 1.875 * 2^(14-7) = 240.
  EXPECT_EQ(fp32_from_bits(widen_to_fp32(Dtype::FP8_E4, 0x77)), 240.0f);
  // FP8_E3 0x6F = 0.110.1111 = 1.9375 * 2^(6-3) = 15.5.
  EXPECT_EQ(fp32_from_bits(widen_to_fp32(Dtype::FP8_E3, 0x6F)), 15.5f);
  // FP8_E5 0x7B = 0.11110.11 = 1.75 * 2^(30-15) = 57344.
  EXPECT_EQ(fp32_from_bits(widen_to_fp32(Dtype::FP8_E5, 0x7B)), 57344.0f);
  // FP16 0x7BFF = 0.11110.1111111111 = (2 - 2^-10) * 2^15 = 65504.
  EXPECT_EQ(fp32_from_bits(widen_to_fp32(Dtype::FP16, 0x7BFF)), 65504.0f);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E4, bits_from_fp32(240.0f)), 0x77u);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E3, bits_from_fp32(15.5f)), 0x6Fu);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E5, bits_from_fp32(57344.0f)), 0x7Bu);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP16, bits_from_fp32(65504.0f)), 0x7BFFu);
}

TEST(FormatSpotTest, SpecialPatterns) {
  EXPECT_EQ(widen_to_fp32(Dtype::FP8_E4, 0x78), 0x7F800000u);  // S.1111.000 = +inf
  EXPECT_EQ(widen_to_fp32(Dtype::FP8_E4, 0xF8), 0xFF800000u);
  EXPECT_EQ(widen_to_fp32(Dtype::FP8_E3, 0x70), 0x7F800000u);  // S.111.0000 = +inf
  EXPECT_EQ(widen_to_fp32(Dtype::FP8_E5, 0xFC), 0xFF800000u);  // S.11111.00 = -inf
  EXPECT_EQ(widen_to_fp32(Dtype::FP16, 0x7C00), 0x7F800000u);
  EXPECT_EQ(widen_to_fp32(Dtype::BF16, 0xFF80), 0xFF800000u);
  // Smallest subnormals: 2^-9 (E4), 2^-6 (E3), 2^-16 (E5), 2^-24 (FP16), 2^-133 (BF16,
  // an FP32 subnormal: bit 16 of the FP32 mantissa).
  EXPECT_EQ(fp32_from_bits(widen_to_fp32(Dtype::FP8_E4, 0x01)), 0x1p-9f);
  EXPECT_EQ(fp32_from_bits(widen_to_fp32(Dtype::FP8_E3, 0x01)), 0x1p-6f);
  EXPECT_EQ(fp32_from_bits(widen_to_fp32(Dtype::FP8_E5, 0x01)), 0x1p-16f);
  EXPECT_EQ(fp32_from_bits(widen_to_fp32(Dtype::FP16, 0x0001)), 0x1p-24f);
  EXPECT_EQ(widen_to_fp32(Dtype::BF16, 0x0001), 0x00010000u);
  EXPECT_EQ(widen_to_fp32(Dtype::FP8_E4, 0x38), bits_from_fp32(1.0f));   // 0.0111.000
  EXPECT_EQ(widen_to_fp32(Dtype::FP8_E3, 0x30), bits_from_fp32(1.0f));   // 0.011.0000
  EXPECT_EQ(widen_to_fp32(Dtype::FP8_E5, 0xBC), bits_from_fp32(-1.0f));  // 1.01111.00
}

TEST(FormatSpotTest, HalfwayRoundsToEven) {
  // BF16: 1 + 2^-8 lies halfway between 1 (0x3F80, even) and 1 + 2^-7 (0x3F81).
  EXPECT_EQ(narrow_from_fp32(Dtype::BF16, 0x3F808000u), 0x3F80u);
  EXPECT_EQ(narrow_from_fp32(Dtype::BF16, 0x3F808001u), 0x3F81u);
  EXPECT_EQ(narrow_from_fp32(Dtype::BF16, 0x3F818000u), 0x3F82u);  // odd below: up
  EXPECT_EQ(narrow_from_fp32(Dtype::BF16, 0xBF818000u), 0xBF82u);
  // FP16: 1 + 2^-11 and 1 + 3 * 2^-11.
  EXPECT_EQ(narrow_from_fp32(Dtype::FP16, bits_from_fp32(1.0f + 0x1p-11f)), 0x3C00u);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP16, bits_from_fp32(1.0f + 0x3p-11f)), 0x3C02u);
  // FP8_E4: 1 + 2^-4 -> 1.0 (0x38), 1 + 3 * 2^-4 -> 1.25 (0x3A).
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E4, bits_from_fp32(1.0625f)), 0x38u);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E4, bits_from_fp32(1.1875f)), 0x3Au);
  // FP8_E4 between 224 (0x76) and 240 (0x77): 232 ties to 224; a rounding carry from
  // 0x3F (1.875 * 2^0) to 2.0 (0x40) crosses into the next binade.
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E4, bits_from_fp32(232.0f)), 0x76u);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E4, bits_from_fp32(1.9375f)), 0x40u);
  // FP8_E5: 1.125 ties to 1.0 (0x3C), 1.375 ties to 1.5 (0x3E).
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E5, bits_from_fp32(1.125f)), 0x3Cu);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E5, bits_from_fp32(1.375f)), 0x3Eu);
  // FP8_E3: 15.25 ties between 15.0 (0x6E, even) and 15.5 (0x6F).
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E3, bits_from_fp32(15.25f)), 0x6Eu);
  // FP8_E3 largest subnormal 0.000.1111 = 15/16 * 2^-2; halfway up to min normal 0x10.
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E3, bits_from_fp32(0x1.Fp-3f)), 0x10u);
}

TEST(FormatSpotTest, OverflowToInfinity) {
  // FP8_E4: max 240, half ulp 8: 248 -> inf, just below -> 240.
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E4, bits_from_fp32(248.0f)), 0x78u);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E4, bits_from_fp32(247.99998f)), 0x77u);
  // FP16: 65520 = 65504 + 16 -> inf; BF16 -FLT_MAX -> -inf (0xFF80).
  EXPECT_EQ(narrow_from_fp32(Dtype::FP16, bits_from_fp32(65520.0f)), 0x7C00u);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP16, bits_from_fp32(65519.996f)), 0x7BFFu);
  EXPECT_EQ(narrow_from_fp32(Dtype::BF16, bits_from_fp32(-FLT_MAX)), 0xFF80u);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E5, bits_from_fp32(-FLT_MAX)), 0xFCu);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E4, bits_from_fp32(-FLT_MAX)), 0xF8u);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP8_E3, bits_from_fp32(-FLT_MAX)), 0xF0u);
  EXPECT_EQ(narrow_from_fp32(Dtype::FP16, bits_from_fp32(-FLT_MAX)), 0xFC00u);
}

TEST(FormatSpotTest, NaNWideningKeepsSignAndPayloadAndSetsQuietBit) {
  // BF16 0x7F81: payload 0000001 -> FP32 mantissa bit 16, quiet bit 22.
  EXPECT_EQ(widen_to_fp32(Dtype::BF16, 0x7F81), 0x7FC10000u);
  EXPECT_EQ(widen_to_fp32(Dtype::BF16, 0xFF81), 0xFFC10000u);
  EXPECT_EQ(widen_to_fp32(Dtype::BF16, 0x7FC0), 0x7FC00000u);
  EXPECT_EQ(widen_to_fp32(Dtype::BF16, 0x7FFF), 0x7FFF0000u);
  // FP16 0x7C01: payload bit 0 -> FP32 bit 13.
  EXPECT_EQ(widen_to_fp32(Dtype::FP16, 0x7C01), 0x7FC02000u);
  EXPECT_EQ(widen_to_fp32(Dtype::FP16, 0xFE00), 0xFFC00000u);
  // FP8_E5 0x7D = 0.11111.01: payload bit 0 -> FP32 bit 21.
  EXPECT_EQ(widen_to_fp32(Dtype::FP8_E5, 0x7D), 0x7FE00000u);
  // FP8_E4 0xF9 = 1.1111.001: payload bit 0 -> FP32 bit 20.
  EXPECT_EQ(widen_to_fp32(Dtype::FP8_E4, 0xF9), 0xFFD00000u);
  EXPECT_EQ(widen_to_fp32(Dtype::FP8_E4, 0x7C), 0x7FC00000u);
  // FP8_E3 0x71 = 0.111.0001: payload bit 0 -> FP32 bit 19.
  EXPECT_EQ(widen_to_fp32(Dtype::FP8_E3, 0x71), 0x7FC80000u);
  EXPECT_EQ(widen_to_fp32(Dtype::FP8_E3, 0x78), 0x7FC00000u);
}

TEST(FormatSpotTest, Fp32IsIdentity) {
  for (Dtype dt : {Dtype::FP32, Dtype::FP32R}) {
    for (uint32_t b : {0x7F800001u, 0xFF800001u, 0x7FC00000u, 0x00000001u, 0x80000000u, 0x3F800000u,
                       0x7F7FFFFFu, 0xFF800000u}) {
      EXPECT_EQ(widen_to_fp32(dt, b), b) << hex(b);
      EXPECT_EQ(narrow_from_fp32(dt, b), b) << hex(b);
    }
  }
  EXPECT_EQ(minifloat_format(Dtype::FP32), nullptr);
  EXPECT_EQ(minifloat_format(Dtype::FP32R), nullptr);
  EXPECT_EQ(minifloat_format(Dtype::INT8), nullptr);
  EXPECT_EQ(minifloat_format(Dtype::FP4_E2), nullptr);
}

TEST(FormatSpotTest, BitCastHelpers) {
  EXPECT_EQ(bits_from_fp32(1.0f), 0x3F800000u);
  EXPECT_EQ(fp32_from_bits(0xC0000000u), -2.0f);
  EXPECT_TRUE(std::isnan(fp32_from_bits(0x7F800001u)));
}

// ---- Integers (SPEC §5.1), values worked out by hand ---------------------------------

TEST(FormatIntTest, IntegerToFp32RoundsToNearestEven) {
  EXPECT_EQ(int_to_fp32(0), 0x00000000u);
  EXPECT_EQ(int_to_fp32(-1), 0xBF800000u);
  EXPECT_EQ(int_to_fp32(16777216), 0x4B800000u);  // 2^24, exact
  EXPECT_EQ(int_to_fp32(16777217), 0x4B800000u);  // tie -> even (2^24)
  EXPECT_EQ(int_to_fp32(16777219), 0x4B800002u);  // tie -> even (2^24 + 4)
  EXPECT_EQ(int_to_fp32(INT32_MIN), 0xCF000000u);
  EXPECT_EQ(int_to_fp32(INT32_MAX), 0x4F000000u);  // rounds up to 2^31
  EXPECT_EQ(int_to_fp32(4294967295LL), 0x4F800000u);
}

TEST(FormatIntTest, Fp32ToIntegerRoundsSaturatesAndZeroesNaN) {
  EXPECT_EQ(fp32_to_int(Dtype::INT32, 0x40200000u), 2u);           // 2.5 -> 2
  EXPECT_EQ(fp32_to_int(Dtype::INT32, 0x40600000u), 4u);           // 3.5 -> 4
  EXPECT_EQ(fp32_to_int(Dtype::INT32, 0xC0200000u), 0xFFFFFFFEu);  // -2.5 -> -2
  EXPECT_EQ(fp32_to_int(Dtype::INT32, 0x80000000u), 0u);           // -0.0 -> 0
  EXPECT_EQ(fp32_to_int(Dtype::INT32, 0x7FC00001u), 0u);           // NaN -> 0
  EXPECT_EQ(fp32_to_int(Dtype::INT32, 0x7F800000u), 0x7FFFFFFFu);  // +inf -> max
  EXPECT_EQ(fp32_to_int(Dtype::INT32, 0xFF800000u), 0x80000000u);  // -inf -> min
  EXPECT_EQ(fp32_to_int(Dtype::INT32, 0x4F000000u), 0x7FFFFFFFu);  // 2^31 saturates
  EXPECT_EQ(fp32_to_int(Dtype::UINT32, 0x4F000000u), 0x80000000u);
  EXPECT_EQ(fp32_to_int(Dtype::UINT32, 0xBF800000u), 0u);       // -1 -> 0
  EXPECT_EQ(fp32_to_int(Dtype::INT8, 0x43960000u), 0x7Fu);      // 300 -> 127
  EXPECT_EQ(fp32_to_int(Dtype::INT8, 0xC3960000u), 0x80u);      // -300 -> -128
  EXPECT_EQ(fp32_to_int(Dtype::INT16, 0xBF000000u), 0u);        // -0.5 -> -0 -> 0
  EXPECT_EQ(fp32_to_int(Dtype::UINT16, 0x477FFF80u), 0xFFFFu);  // 65535.5 -> 65535 (max)
  EXPECT_EQ(fp32_to_int(Dtype::UINT8, 0x00000001u), 0u);        // smallest subnormal
  EXPECT_EQ(fp32_to_int(Dtype::INT16, 0x7F7FFFFFu), 0x7FFFu);   // FLT_MAX
}

TEST(FormatIntTest, IntegerValuesAndTheGenericConversions) {
  EXPECT_EQ(int_value(Dtype::INT8, 0xFF), -1);
  EXPECT_EQ(int_value(Dtype::UINT8, 0x1FF), 255);  // bits above the dtype ignored
  EXPECT_EQ(int_value(Dtype::INT16, 0x8000), -32768);
  EXPECT_EQ(int_value(Dtype::UINT32, 0xFFFFFFFFu), 4294967295LL);
  EXPECT_EQ(to_fp32(Dtype::INT16, 0xFFFF), 0xBF800000u);
  EXPECT_EQ(to_fp32(Dtype::BF16, 0x3F80), 0x3F800000u);
  EXPECT_EQ(from_fp32(Dtype::INT16, 0xBF800000u), 0xFFFFu);  // the low 16 bits only
  EXPECT_EQ(from_fp32(Dtype::BF16, 0x3F808000u), 0x3F80u);
  EXPECT_EQ(from_fp32(Dtype::FP32R, 0x7F800001u), 0x7F800001u);
  EXPECT_TRUE(is_int_dtype(Dtype::UINT16));
  EXPECT_FALSE(is_int_dtype(Dtype::INT64));
  EXPECT_FALSE(is_int_dtype(Dtype::BF16));
}

TEST(FormatDeathTest, NonFloatDtypeAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(widen_to_fp32(Dtype::INT32, 0), "\\.cc:[0-9]+: .*widen_to_fp32");
  EXPECT_DEATH(narrow_from_fp32(Dtype::UINT8, 0), "\\.cc:[0-9]+: .*narrow_from_fp32");
  EXPECT_DEATH(narrow_from_fp32(Dtype::FP4_E2, 0), "not a float dtype");
}

}  // namespace
}  // namespace gpsimd
