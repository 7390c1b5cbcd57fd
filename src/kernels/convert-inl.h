// The conversion of SPEC §5.1 on vectors: the two halves to_fp32 and from_fp32 of
// format.h for one vector of elements at a time, per dtype. Every vector conversion of
// the kernels is built from these (convert.cc's loops, Iota's int32 ramp to FP32), and
// each produces exactly the bits of the scalar half it mirrors (src/format/format.cc).
//
// A Highway per-target header: it is included once per SIMD target by the files that
// use it (after hwy/highway.h, inside their foreach_target pass), so the include guard
// toggles with HWY_TARGET_TOGGLE.
//
// Lanes are 32-bit: an element's bits sit in the low bits of its lane, zero-extended;
// FP32 values are their bit patterns. ToFp32<dt> takes such lanes (any bits above the
// element ignored only where noted: callers pass zero-extended elements) and returns
// FP32 bits; FromFp32<dt> returns the destination's bits, zero-extended.
#if defined(GPSIMD_KERNELS_CONVERT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GPSIMD_KERNELS_CONVERT_INL_H_
#undef GPSIMD_KERNELS_CONVERT_INL_H_
#else
#define GPSIMD_KERNELS_CONVERT_INL_H_
#endif

#include <cstdint>
#include <cstring>

#include "gpsimd/types.h"
#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::convert_inl::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DU32 = hn::ScalableTag<uint32_t>;
using VU32 = hn::Vec<DU32>;
using DI32 = hn::RebindToSigned<DU32>;
using DF32 = hn::RebindToFloat<DU32>;

// The most lanes any target has for 32-bit elements; tails go through buffers this big.
constexpr size_t kMaxLanes = 64;

constexpr bool IsInt(Dtype dt) {
  return dt == Dtype::INT8 || dt == Dtype::UINT8 || dt == Dtype::INT16 || dt == Dtype::UINT16 ||
         dt == Dtype::INT32 || dt == Dtype::UINT32;
}
constexpr unsigned SizeOf(Dtype dt) {
  return *dtype_size(dt);
}

// ---- order keys ---------------------------------------------------------------------

// FP32 patterns as the unsigned order keys of RangeSelect's max and Max8 (convert.h's
// bits_to_max_key; model.h's max8_order_key): -0.0 below +0.0, and 0, below every
// number's key, for a NaN.
HWY_INLINE VU32 MaxKeys(DU32 d, VU32 b) {
  const VU32 sign = hn::Set(d, 0x80000000u);
  const VU32 key = hn::IfThenElse(hn::TestBit(b, sign), hn::Not(b), hn::Or(b, sign));
  const auto nan = hn::Gt(hn::And(b, hn::Set(d, 0x7fffffffu)), hn::Set(d, 0x7f800000u));
  return hn::IfThenZeroElse(nan, key);
}

// ---- to_fp32 ------------------------------------------------------------------------

// A narrow IEEE-style float (exponent kExp bits, mantissa kMan bits) in the low bits of
// each lane, widened exactly to FP32. A NaN keeps sign and payload and gets the quiet
// bit, as x86's conversions do. Subnormals go through an exact integer-to-float
// conversion and a power-of-two scale (the product is a normal FP32 number).
template <int kExp, int kMan>
HWY_INLINE VU32 WidenMini(DU32 d, VU32 b) {
  constexpr int kBias = (1 << (kExp - 1)) - 1;
  constexpr uint32_t kExpMax = (1u << kExp) - 1;
  const VU32 man = hn::And(b, hn::Set(d, (1u << kMan) - 1));
  const VU32 e = hn::And(hn::ShiftRight<kMan>(b), hn::Set(d, kExpMax));
  const VU32 sign = hn::ShiftLeft<31 - kExp - kMan>(hn::And(b, hn::Set(d, 1u << (kExp + kMan))));
  const VU32 man_hi = hn::ShiftLeft<23 - kMan>(man);
  const VU32 normal =
      hn::Or(hn::ShiftLeft<23>(hn::Add(e, hn::Set(d, uint32_t{127 - kBias}))), man_hi);
  const VU32 special = hn::Or(hn::Or(hn::Set(d, 0x7f800000u), man_hi),
                              hn::IfThenElseZero(hn::Ne(man, hn::Zero(d)), hn::Set(d, 0x400000u)));
  const DF32 df;
  const DI32 di;
  // 2^(1 - bias - kMan): the value of one subnormal quantum.
  const float quantum = 1.0f / static_cast<float>(uint64_t{1} << (kBias - 1 + kMan));
  const VU32 sub =
      hn::BitCast(d, hn::Mul(hn::ConvertTo(df, hn::BitCast(di, man)), hn::Set(df, quantum)));
  VU32 r = hn::IfThenElse(hn::Eq(e, hn::Zero(d)), sub, normal);
  r = hn::IfThenElse(hn::Eq(e, hn::Set(d, kExpMax)), special, r);
  return hn::Or(r, sign);
}

// BF16 is the top half of FP32: a shift, plus the quiet bit for NaNs.
HWY_INLINE VU32 WidenBf16(DU32 d, VU32 b) {
  const VU32 x = hn::ShiftLeft<16>(b);
  // An unordered compare finds the NaNs in one op (no DAZ effect on NaNs).
  const auto nan = hn::RebindMask(d, hn::IsNaN(hn::BitCast(DF32(), x)));
  return hn::IfThenElse(nan, hn::Or(x, hn::Set(d, 0x400000u)), x);
}

// to_fp32 of SPEC §5.1 for one vector of zero-extended elements of kDt.
template <Dtype kDt>
HWY_INLINE VU32 ToFp32(DU32 d, VU32 b) {
  const DI32 di;
  const DF32 df;
  if constexpr (kDt == Dtype::FP32 || kDt == Dtype::FP32R) {
    return b;
  } else if constexpr (kDt == Dtype::BF16) {
    return WidenBf16(d, b);
  } else if constexpr (kDt == Dtype::FP16) {
    return WidenMini<5, 10>(d, b);
  } else if constexpr (kDt == Dtype::FP8_E5) {
    return WidenMini<5, 2>(d, b);
  } else if constexpr (kDt == Dtype::FP8_E4) {
    return WidenMini<4, 3>(d, b);
  } else if constexpr (kDt == Dtype::FP8_E3) {
    return WidenMini<3, 4>(d, b);
  } else if constexpr (kDt == Dtype::INT8 || kDt == Dtype::INT16) {
    // Sign-extended, then exact (|v| < 2^15).
    constexpr int kShift = 32 - 8 * static_cast<int>(SizeOf(kDt));
    const auto v = hn::ShiftRight<kShift>(hn::ShiftLeft<kShift>(hn::BitCast(di, b)));
    return hn::BitCast(d, hn::ConvertTo(df, v));
  } else if constexpr (kDt == Dtype::UINT8 || kDt == Dtype::UINT16) {
    return hn::BitCast(d, hn::ConvertTo(df, hn::BitCast(di, b)));  // exact
  } else if constexpr (kDt == Dtype::INT32) {
    return hn::BitCast(d, hn::ConvertTo(df, hn::BitCast(di, b)));  // RNE (cvtdq2ps)
  } else {
    static_assert(kDt == Dtype::UINT32);
    // RNE: vcvtudq2ps on AVX-512; elsewhere Highway's exact-product multiply-add of the
    // two 16-bit halves, which rounds once.
    return hn::BitCast(d, hn::ConvertTo(df, b));
  }
}

// ---- from_fp32 ----------------------------------------------------------------------

// FP32 patterns narrowed to a kExp/kMan float: round to nearest even on the exact value,
// gradual underflow, ±inf beyond the finite range, canonical NaN with the input's sign.
// The same steps as format.cc's encode(), per lane: the value is mant * 2^(E - 150);
// it lands in binade max(E, emin) and is shifted right to that binade's quantum.
template <int kExp, int kMan>
HWY_INLINE VU32 NarrowMini(DU32 d, VU32 x) {
  constexpr int kBias = (1 << (kExp - 1)) - 1;
  constexpr uint32_t kEminB = static_cast<uint32_t>(1 - kBias + 127);  // biased by 127
  constexpr uint32_t kEmaxB = static_cast<uint32_t>((1 << kExp) - 2 - kBias + 127);
  constexpr unsigned kTotal = 1 + kExp + kMan;
  constexpr uint32_t kInf = ((1u << kExp) - 1) << kMan;
  constexpr uint32_t kNan = kInf | (1u << (kMan - 1));
  const VU32 one = hn::Set(d, 1u);
  const VU32 a = hn::And(x, hn::Set(d, 0x7fffffffu));
  const VU32 sign = hn::ShiftRight<32 - kTotal>(hn::And(x, hn::Set(d, 0x80000000u)));
  const VU32 E = hn::ShiftRight<23>(a);
  const VU32 eb = hn::Max(E, one);  // FP32 subnormals share the smallest binade's quantum
  const VU32 mant = hn::Or(hn::And(a, hn::Set(d, 0x7fffffu)),
                           hn::IfThenElseZero(hn::Gt(E, hn::Zero(d)), hn::Set(d, 0x800000u)));
  const VU32 binade = hn::Max(eb, hn::Set(d, kEminB));
  // Past 25 places everything (mant < 2^24) is below half a quantum: 0.
  const VU32 shift =
      hn::Min(hn::Add(hn::Sub(binade, eb), hn::Set(d, uint32_t{23 - kMan})), hn::Set(d, 25u));
  const VU32 kept = hn::Shr(mant, shift);
  const VU32 rem = hn::And(mant, hn::Sub(hn::Shl(one, shift), one));
  const VU32 half = hn::Shl(one, hn::Sub(shift, one));
  const auto up =
      hn::Or(hn::Gt(rem, half), hn::And(hn::Eq(rem, half), hn::Eq(hn::And(kept, one), one)));
  const VU32 quanta = hn::Add(kept, hn::IfThenElseZero(up, one));
  // A round-up to the next binade carries into the exponent field by itself.
  const VU32 mag = hn::Add(hn::ShiftLeft<kMan>(hn::Sub(binade, hn::Set(d, kEminB))), quanta);
  VU32 r = hn::IfThenElse(hn::Gt(E, hn::Set(d, kEmaxB)), hn::Set(d, kInf), mag);
  r = hn::IfThenElse(hn::Gt(a, hn::Set(d, 0x7f800000u)), hn::Set(d, kNan), r);
  return hn::Or(r, sign);
}

// BF16 shares FP32's exponent range, so round to nearest even is integer arithmetic on
// the bits: add 0x7FFF plus the kept part's lowest bit and drop the low half. A carry
// into the exponent gives the next binade, from the top binade +inf; subnormals round
// the same way. NaNs become the canonical 0x7FC0 with their sign.
HWY_INLINE VU32 NarrowBf16(DU32 d, VU32 x) {
  const VU32 a = hn::And(x, hn::Set(d, 0x7fffffffu));
  const VU32 odd = hn::And(hn::ShiftRight<16>(x), hn::Set(d, 1u));
  const VU32 r = hn::ShiftRight<16>(hn::Add(hn::Add(x, hn::Set(d, 0x7fffu)), odd));
  const VU32 nan = hn::Or(hn::ShiftRight<16>(hn::Xor(x, a)), hn::Set(d, 0x7fc0u));
  return hn::IfThenElse(hn::Gt(a, hn::Set(d, 0x7f800000u)), nan, r);
}

// NarrowBf16 with the result left in the high half of each lane (the low half is not
// cleared): what a store that keeps the odd 16-bit lanes of two vectors needs, one shift
// fewer. NaNs: sign | 0x7FC0 in the high half.
HWY_INLINE VU32 NarrowBf16High(DU32 d, VU32 x) {
  const VU32 odd = hn::And(hn::ShiftRight<16>(x), hn::Set(d, 1u));
  const VU32 r = hn::Add(hn::Add(x, hn::Set(d, 0x7fffu)), odd);
  const VU32 nan = hn::OrAnd(hn::Set(d, 0x7fc00000u), x, hn::Set(d, 0x80000000u));
  return hn::IfThenElse(hn::RebindMask(d, hn::IsNaN(hn::BitCast(DF32(), x))), nan, r);
}

// Rounds FP32 lanes to integral values, ties to even (NaN lanes must be cleared first).
HWY_INLINE hn::Vec<DF32> RoundEven(DF32 df, hn::Vec<DF32> f) {
#if HWY_TARGET == HWY_SCALAR
  // Adding and subtracting 2^23 rounds |f| < 2^23 to an integer by the current rounding
  // mode, to nearest even; larger values are integral already.
  const auto a = hn::Abs(f);
  const auto big = hn::Set(df, 8388608.0f);
  const auto r = hn::IfThenElse(hn::Lt(a, big), hn::Sub(hn::Add(a, big), big), a);
  return hn::CopySignToAbs(r, f);
#else
  (void)df;
  return hn::Round(f);  // roundps, to nearest even
#endif
}

// FP32 to an integer dtype (SPEC §5.1): round to nearest even, saturate to the range,
// NaN -> 0, ±inf -> the limits, -0.0 -> 0; the result's bits zero-extended.
template <Dtype kDt>
HWY_INLINE VU32 Fp32ToInt(DU32 d, VU32 x) {
  const DI32 di;
  const DF32 df;
  const auto f0 = hn::BitCast(df, x);
  // NaN lanes become 0 before anything converts them.
  const auto f = hn::IfThenZeroElse(hn::IsNaN(f0), f0);
  const auto r = RoundEven(df, f);
  if constexpr (kDt == Dtype::INT32) {
#if HWY_TARGET != HWY_SCALAR
    // cvtps2dq rounds to nearest even and, with Highway's overflow fix, saturates by the
    // sign: exactly §5.1 once NaN lanes are 0.
    (void)r;
    return hn::BitCast(d, hn::NearestInt(f));
#endif
    // Every FP32 in [-2^31, 2^31) converts exactly; the largest below 2^31 is 2^31 - 128.
    const auto c = hn::Min(hn::Max(r, hn::Set(df, -2147483648.0f)), hn::Set(df, 2147483520.0f));
    const VU32 v = hn::BitCast(d, hn::ConvertTo(di, c));
    return hn::IfThenElse(hn::RebindMask(d, hn::Ge(r, hn::Set(df, 2147483648.0f))),
                          hn::Set(d, 0x7fffffffu), v);
  } else if constexpr (kDt == Dtype::UINT32) {
    const auto p = hn::Max(r, hn::Zero(df));
    const auto high = hn::Ge(p, hn::Set(df, 2147483648.0f));
    // [2^31, 2^32): minus 2^31 is exact (both are multiples of the ulp there).
    const auto t = hn::IfThenElse(high, hn::Sub(p, hn::Set(df, 2147483648.0f)), p);
    const auto c = hn::Min(t, hn::Set(df, 2147483520.0f));
    VU32 v = hn::BitCast(d, hn::ConvertTo(di, c));
    v = hn::Or(v, hn::IfThenElseZero(hn::RebindMask(d, high), hn::Set(d, 0x80000000u)));
    return hn::IfThenElse(hn::RebindMask(d, hn::Ge(p, hn::Set(df, 4294967296.0f))),
                          hn::Set(d, 0xffffffffu), v);
  } else {
    constexpr unsigned kBits = 8 * SizeOf(kDt);
    constexpr bool kSigned = kDt == Dtype::INT8 || kDt == Dtype::INT16;
    constexpr float kLo = kSigned ? -static_cast<float>(1u << (kBits - 1)) : 0.0f;
    constexpr float kHi = kSigned ? static_cast<float>((1u << (kBits - 1)) - 1)
                                  : static_cast<float>((1u << kBits) - 1);
    const auto c = hn::Min(hn::Max(r, hn::Set(df, kLo)), hn::Set(df, kHi));
    return hn::And(hn::BitCast(d, hn::ConvertTo(di, c)), hn::Set(d, (1u << kBits) - 1));
  }
}

// from_fp32 of SPEC §5.1 for one vector of FP32 patterns.
template <Dtype kDt>
HWY_INLINE VU32 FromFp32(DU32 d, VU32 x) {
  if constexpr (kDt == Dtype::FP32 || kDt == Dtype::FP32R) {
    return x;
  } else if constexpr (kDt == Dtype::BF16) {
    return NarrowBf16(d, x);
  } else if constexpr (kDt == Dtype::FP16) {
    return NarrowMini<5, 10>(d, x);
  } else if constexpr (kDt == Dtype::FP8_E5) {
    return NarrowMini<5, 2>(d, x);
  } else if constexpr (kDt == Dtype::FP8_E4) {
    return NarrowMini<4, 3>(d, x);
  } else if constexpr (kDt == Dtype::FP8_E3) {
    return NarrowMini<3, 4>(d, x);
  } else {
    return Fp32ToInt<kDt>(d, x);
  }
}

// ---- loads and stores of elements in 32-bit lanes -----------------------------------

// v, kept in a register: GCC's generic tuning otherwise folds a load into every
// instruction that uses its value (four loads of one vector in the BF16 narrowing), which
// ran 2.5 times slower than one load on the AMD EPYC measured (docs/performance.md).
template <class V>
HWY_INLINE V InRegister(V v) {
#if HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128 && HWY_COMPILER_GCC  // clang too
  asm("" : "+v"(v.raw));
#endif
  return v;
}

// N elements of kBytes bytes from p, zero-extended into the lanes.
template <unsigned kBytes>
HWY_INLINE VU32 LoadElems(DU32 d, const uint8_t* p) {
  if constexpr (kBytes == 1) {
    const hn::Rebind<uint8_t, DU32> d8;
    return hn::PromoteTo(d, hn::LoadU(d8, p));
  } else if constexpr (kBytes == 2) {
    const hn::Rebind<uint16_t, DU32> d16;
    return hn::PromoteTo(d, hn::LoadU(d16, reinterpret_cast<const uint16_t*>(p)));
  } else {
    return InRegister(hn::LoadU(d, reinterpret_cast<const uint32_t*>(p)));
  }
}

// Stores N lanes whose values fit kBytes bytes (zero-extended) as kBytes-byte elements.
template <unsigned kBytes>
HWY_INLINE void StoreElems(DU32 d, VU32 v, uint8_t* p) {
  const DI32 di;
  if constexpr (kBytes == 1) {
    const hn::Rebind<uint8_t, DU32> d8;
    hn::StoreU(hn::DemoteTo(d8, hn::BitCast(di, v)), d8, p);
  } else if constexpr (kBytes == 2) {
    const hn::Rebind<uint16_t, DU32> d16;
    hn::StoreU(hn::DemoteTo(d16, hn::BitCast(di, v)), d16, reinterpret_cast<uint16_t*>(p));
  } else {
    hn::StoreU(v, d, reinterpret_cast<uint32_t*>(p));
  }
}

// N elements of kDt from p, as FP32 patterns: LoadElems then ToFp32, except FP16 on the
// x86 targets with F16C, whose conversion (vcvtph2ps) widens exactly as SPEC §5 says
// (NaNs quieted, payload kept): x86's conversion is the definition there.
template <Dtype kDt>
HWY_INLINE VU32 LoadFp32(DU32 d, const uint8_t* p) {
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
  if constexpr (kDt == Dtype::FP16) {
    const DF32 df;
    const hn::Rebind<hwy::float16_t, DF32> dh;
    return hn::BitCast(
        d, hn::PromoteTo(df, hn::LoadU(dh, reinterpret_cast<const hwy::float16_t*>(p))));
  }
#endif
  return ToFp32<kDt>(d, LoadElems<SizeOf(kDt)>(d, p));
}

}  // namespace gpsimd::kernels::convert_inl::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // GPSIMD_KERNELS_CONVERT_INL_H_
