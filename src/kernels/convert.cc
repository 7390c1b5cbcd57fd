// The FP32 conversions of SPEC §5 as vector loops (see convert.h), and RangeSelect's
// maximum over FP32 results. Compiled once per SIMD target by Highway's foreach_target;
// HWY_DYNAMIC_DISPATCH picks the best one for the CPU at run time. Every loop has a
// scalar tail that calls the same rule as the reference, and the equivalence tests
// compare the whole against src/format/.
#include "kernels/convert.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <type_traits>

#include "gpsimd/model.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/convert.cc"
// AVX-512, AVX2 and the portable baseline: SSSE3/SSE4 only add build time, and the
// baseline still runs on those machines.
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_SSE4)
#endif
// foreach_target.h must come first: it re-includes this file once per target.
// clang-format off
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DU32 = hn::ScalableTag<uint32_t>;
using VU32 = hn::Vec<DU32>;

// The most lanes any target has for 32-bit elements (AVX-512: 16); tails go through
// buffers of this size.
constexpr size_t kMaxLanes = 64;

// ---- FP32 widening (SPEC §5) --------------------------------------------------------

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
  const hn::RebindToFloat<DU32> df;
  const hn::RebindToSigned<DU32> di;
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
  const auto nan = hn::Gt(hn::And(x, hn::Set(d, 0x7fffffffu)), hn::Set(d, 0x7f800000u));
  return hn::IfThenElse(nan, hn::Or(x, hn::Set(d, 0x400000u)), x);
}

template <unsigned kBytes>
HWY_INLINE VU32 LoadElems(DU32 d, const uint8_t* p) {
  if constexpr (kBytes == 1) {
    const hn::Rebind<uint8_t, DU32> d8;
    return hn::PromoteTo(d, hn::LoadU(d8, p));
  } else if constexpr (kBytes == 2) {
    const hn::Rebind<uint16_t, DU32> d16;
    return hn::PromoteTo(d, hn::LoadU(d16, reinterpret_cast<const uint16_t*>(p)));
  } else {
    return hn::LoadU(d, reinterpret_cast<const uint32_t*>(p));
  }
}

template <unsigned kBytes>
HWY_INLINE void StoreElems(DU32 d, VU32 v, uint8_t* p) {
  const hn::RebindToSigned<DU32> di;
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

// out[i] = conv(element i) for n elements of kIn bytes, written as kOut-byte elements.
template <unsigned kIn, unsigned kOut, class Conv>
HWY_INLINE void MapLoop(const uint8_t* in, size_t n, uint8_t* out, Conv conv) {
  const DU32 d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N)
    StoreElems<kOut>(d, conv(d, LoadElems<kIn>(d, in + i * kIn)), out + i * kOut);
  if (i == n) return;
  // The tail: through zero-padded buffers, so the vector code is the only code.
  HWY_ALIGN uint8_t bin[kMaxLanes * 4] = {};
  HWY_ALIGN uint8_t bout[kMaxLanes * 4];
  std::memcpy(bin, in + i * kIn, (n - i) * kIn);
  StoreElems<kOut>(d, conv(d, LoadElems<kIn>(d, bin)), bout);
  std::memcpy(out + i * kOut, bout, (n - i) * kOut);
}

#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
// FP16 through the F16C conversion (vcvtph2ps), which widens exactly as SPEC §5 says
// (NaNs quieted, payload kept): x86's conversion is the definition.
void WidenFp16(const uint8_t* in, size_t n, uint32_t* out) {
  const hn::ScalableTag<float> df;
  const hn::Rebind<hwy::float16_t, decltype(df)> dh;
  const DU32 d;
  const size_t N = hn::Lanes(df);
  const hwy::float16_t* h = reinterpret_cast<const hwy::float16_t*>(in);
  size_t i = 0;
  for (; i + N <= n; i += N)
    hn::StoreU(hn::BitCast(d, hn::PromoteTo(df, hn::LoadU(dh, h + i))), d, out + i);
  if (i == n) return;
  HWY_ALIGN hwy::float16_t bin[kMaxLanes] = {};
  HWY_ALIGN uint32_t bout[kMaxLanes];
  std::memcpy(bin, h + i, (n - i) * 2);
  hn::Store(hn::BitCast(d, hn::PromoteTo(df, hn::Load(dh, bin))), d, bout);
  std::memcpy(out + i, bout, (n - i) * 4);
}
#endif

void WidenToFp32(Dtype dt, const uint8_t* in, size_t n, uint32_t* out) {
  uint8_t* o = reinterpret_cast<uint8_t*>(out);
  switch (dt) {
    case Dtype::FP32:
    case Dtype::FP32R:
      std::memcpy(out, in, n * 4);
      return;
    case Dtype::BF16:
      return MapLoop<2, 4>(in, n, o, [](DU32 d, VU32 b) { return WidenBf16(d, b); });
    case Dtype::FP16:
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
      return WidenFp16(in, n, out);
#else
      return MapLoop<2, 4>(in, n, o, [](DU32 d, VU32 b) { return WidenMini<5, 10>(d, b); });
#endif
    case Dtype::FP8_E5:
      return MapLoop<1, 4>(in, n, o, [](DU32 d, VU32 b) { return WidenMini<5, 2>(d, b); });
    case Dtype::FP8_E4:
      return MapLoop<1, 4>(in, n, o, [](DU32 d, VU32 b) { return WidenMini<4, 3>(d, b); });
    case Dtype::FP8_E3:
      return MapLoop<1, 4>(in, n, o, [](DU32 d, VU32 b) { return WidenMini<3, 4>(d, b); });
    default:
      HWY_ASSERT(false);
  }
}

// ---- FP32 narrowing (SPEC §5) -------------------------------------------------------

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

// BF16 is the top half of FP32, so NarrowMini<8, 7>'s rounding is one addition: 0x7fff
// plus the kept half's lowest bit rounds to nearest even (a carry into the exponent is
// the next binade, or infinity past the largest finite value; subnormals round the same
// way); a NaN becomes the canonical 0x7FC0 with its sign. The same bits in a handful of
// operations instead of about 25.
HWY_INLINE VU32 NarrowBf16(DU32 d, VU32 x) {
  const VU32 hi = hn::ShiftRight<16>(x);
  const VU32 rounded =
      hn::ShiftRight<16>(hn::Add(hn::Add(x, hn::Set(d, 0x7fffu)), hn::And(hi, hn::Set(d, 1u))));
  const auto nan = hn::Gt(hn::And(x, hn::Set(d, 0x7fffffffu)), hn::Set(d, 0x7f800000u));
  return hn::IfThenElse(nan, hn::Or(hn::And(hi, hn::Set(d, 0x8000u)), hn::Set(d, 0x7fc0u)),
                        rounded);
}

void NarrowFromFp32(Dtype dt, const uint32_t* in, size_t n, uint8_t* out) {
  const uint8_t* i = reinterpret_cast<const uint8_t*>(in);
  switch (dt) {
    case Dtype::FP32:
    case Dtype::FP32R:
      std::memcpy(out, in, n * 4);
      return;
    case Dtype::BF16:
      return MapLoop<4, 2>(i, n, out, [](DU32 d, VU32 x) { return NarrowBf16(d, x); });
    case Dtype::FP16:
      return MapLoop<4, 2>(i, n, out, [](DU32 d, VU32 x) { return NarrowMini<5, 10>(d, x); });
    case Dtype::FP8_E5:
      return MapLoop<4, 1>(i, n, out, [](DU32 d, VU32 x) { return NarrowMini<5, 2>(d, x); });
    case Dtype::FP8_E4:
      return MapLoop<4, 1>(i, n, out, [](DU32 d, VU32 x) { return NarrowMini<4, 3>(d, x); });
    case Dtype::FP8_E3:
      return MapLoop<4, 1>(i, n, out, [](DU32 d, VU32 x) { return NarrowMini<3, 4>(d, x); });
    default:
      HWY_ASSERT(false);
  }
}

// ---- RangeSelect's max --------------------------------------------------------------

uint32_t MaxKey(const uint32_t* y, size_t n) {
  const DU32 d;
  const size_t N = hn::Lanes(d);
  const VU32 sign = hn::Set(d, 0x80000000u);
  VU32 acc = hn::Zero(d);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const VU32 b = hn::LoadU(d, y + i);
    const VU32 key = hn::IfThenElse(hn::TestBit(b, sign), hn::Not(b), hn::Or(b, sign));
    const auto nan = hn::Gt(hn::And(b, hn::Set(d, 0x7fffffffu)), hn::Set(d, 0x7f800000u));
    acc = hn::Max(acc, hn::IfThenZeroElse(nan, key));
  }
  uint32_t best = hn::GetLane(hn::MaxOfLanes(d, acc));
  for (; i < n; ++i) best = std::max(best, bits_to_max_key(y[i]));
  return best;
}

const char* TargetName() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace gpsimd::kernels::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::kernels::simd {

HWY_EXPORT(TargetName);
HWY_EXPORT(WidenToFp32);
HWY_EXPORT(NarrowFromFp32);
HWY_EXPORT(MaxKey);

const char* target_name() {
  return HWY_DYNAMIC_DISPATCH(TargetName)();
}
void widen_to_fp32(Dtype dt, const uint8_t* in, size_t n, uint32_t* out) {
  HWY_DYNAMIC_DISPATCH(WidenToFp32)(dt, in, n, out);
}
void narrow_from_fp32(Dtype dt, const uint32_t* in, size_t n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(NarrowFromFp32)(dt, in, n, out);
}
uint32_t max_key(const uint32_t* y, size_t n) {
  return HWY_DYNAMIC_DISPATCH(MaxKey)(y, n);
}

}  // namespace gpsimd::kernels::simd
#endif  // HWY_ONCE
