// The conversion of SPEC §5.1 as vector loops (see convert.h), and RangeSelect's maximum
// over FP32 results. Compiled once per SIMD target by Highway's foreach_target;
// HWY_DYNAMIC_DISPATCH picks the best one for the CPU at run time. Every pair of the
// thirteen dtypes of §5.1's table is one loop, convert-inl.h's to_fp32 half of the
// source followed by its from_fp32 half of the destination, in registers; tails go
// through zero-padded buffers so the vector code is the only code. The equivalence tests
// compare every loop against src/format/ on every 8- and 16-bit pattern.
#include "kernels/convert.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <utility>

#include "alu/simd.h"
#include "gpsimd/format.h"
#include "gpsimd/model.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/convert.cc"
#include "common/simd_targets.h"  // IWYU pragma: keep
// clang-format off
#include "kernels/convert-inl.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using namespace convert_inl::HWY_NAMESPACE;  // NOLINT: the per-target halves

// ---- one loop per pair ---------------------------------------------------------------

// out[i] = from_fp32(kOut, to_fp32(kIn, in[i])) for n elements.
template <Dtype kIn, Dtype kOut>
void PairLoop(const uint8_t* in, size_t n, uint8_t* out) {
  constexpr unsigned kI = SizeOf(kIn), kO = SizeOf(kOut);
  const DU32 d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
  // Narrow results: the low halves (bytes) of two (four) vectors packed into one and
  // stored whole, instead of a saturating demotion and a partial store per vector.
  if constexpr (kOut == Dtype::BF16) {
    const hn::Repartition<uint16_t, DU32> d16;
    for (; i + 2 * N <= n; i += 2 * N) {
      const VU32 a = NarrowBf16High(d, LoadFp32<kIn>(d, in + i * kI));
      const VU32 b = NarrowBf16High(d, LoadFp32<kIn>(d, in + (i + N) * kI));
      hn::StoreU(hn::ConcatOdd(d16, hn::BitCast(d16, b), hn::BitCast(d16, a)), d16,
                 reinterpret_cast<uint16_t*>(out + i * kO));
    }
  } else if constexpr (kO == 2) {
    const hn::Repartition<uint16_t, DU32> d16;
    for (; i + 2 * N <= n; i += 2 * N) {
      const VU32 a = FromFp32<kOut>(d, LoadFp32<kIn>(d, in + i * kI));
      const VU32 b = FromFp32<kOut>(d, LoadFp32<kIn>(d, in + (i + N) * kI));
      hn::StoreU(hn::ConcatEven(d16, hn::BitCast(d16, b), hn::BitCast(d16, a)), d16,
                 reinterpret_cast<uint16_t*>(out + i * kO));
    }
  } else if constexpr (kO == 1) {
    const hn::Repartition<uint16_t, DU32> d16;
    const hn::Repartition<uint8_t, DU32> d8;
    for (; i + 4 * N <= n; i += 4 * N) {
      const VU32 a = FromFp32<kOut>(d, LoadFp32<kIn>(d, in + i * kI));
      const VU32 b = FromFp32<kOut>(d, LoadFp32<kIn>(d, in + (i + N) * kI));
      const VU32 c = FromFp32<kOut>(d, LoadFp32<kIn>(d, in + (i + 2 * N) * kI));
      const VU32 e = FromFp32<kOut>(d, LoadFp32<kIn>(d, in + (i + 3 * N) * kI));
      const auto ab = hn::ConcatEven(d16, hn::BitCast(d16, b), hn::BitCast(d16, a));
      const auto ce = hn::ConcatEven(d16, hn::BitCast(d16, e), hn::BitCast(d16, c));
      hn::StoreU(hn::ConcatEven(d8, hn::BitCast(d8, ce), hn::BitCast(d8, ab)), d8, out + i);
    }
  }
#endif
  for (; i + 2 * N <= n; i += 2 * N) {
    const VU32 a = FromFp32<kOut>(d, LoadFp32<kIn>(d, in + i * kI));
    const VU32 b = FromFp32<kOut>(d, LoadFp32<kIn>(d, in + (i + N) * kI));
    StoreElems<kO>(d, a, out + i * kO);
    StoreElems<kO>(d, b, out + (i + N) * kO);
  }
  for (; i + N <= n; i += N)
    StoreElems<kO>(d, FromFp32<kOut>(d, LoadFp32<kIn>(d, in + i * kI)), out + i * kO);
  if (i == n) return;
  HWY_ALIGN uint8_t bin[kMaxLanes * 4] = {};
  HWY_ALIGN uint8_t bout[kMaxLanes * 4];
  std::memcpy(bin, in + i * kI, (n - i) * kI);
  StoreElems<kO>(d, FromFp32<kOut>(d, LoadFp32<kIn>(d, bin)), bout);
  std::memcpy(out + i * kO, bout, (n - i) * kO);
}

using PairFn = void (*)(const uint8_t*, size_t, uint8_t*);

// The loops of every (from, to) pair, indexed as kConversionDtypes.
template <size_t kRow, size_t... kJ>
constexpr std::array<PairFn, sizeof...(kJ)> PairRow(std::index_sequence<kJ...>) {
  return {&PairLoop<kConversionDtypes[kRow], kConversionDtypes[kJ]>...};
}
template <size_t... kI>
constexpr std::array<std::array<PairFn, kConversionDtypes.size()>, sizeof...(kI)> PairTable(
    std::index_sequence<kI...>) {
  return {PairRow<kI>(std::make_index_sequence<kConversionDtypes.size()>())...};
}
const auto& Pairs() {
  static constexpr auto kPairs = PairTable(std::make_index_sequence<kConversionDtypes.size()>());
  return kPairs;
}

// The index of a dtype of SPEC §5.1's table; aborts (a programming error) otherwise.
size_t Index(Dtype dt) {
  for (size_t i = 0; i < kConversionDtypes.size(); ++i)
    if (kConversionDtypes[i] == dt) return i;
  HWY_ABORT("gpsimd convert: dtype code 0x%X is not a dtype of SPEC section 5.1",
            static_cast<unsigned>(dt));
}

bool IsFp32(Dtype dt) {
  return dt == Dtype::FP32 || dt == Dtype::FP32R;
}

void ThroughFp32(Dtype from, Dtype to, const uint8_t* in, size_t n, uint8_t* out) {
  // FP32 and FP32R pass both halves unchanged (SPEC §5): a copy.
  if (IsFp32(from) && IsFp32(to)) return static_cast<void>(std::memcpy(out, in, n * 4));
  Pairs()[Index(from)][Index(to)](in, n, out);
}

void Cast(Dtype from, Dtype to, const uint8_t* in, size_t n, uint8_t* out) {
  if (from == to) {
    std::memcpy(out, in, n * *dtype_size(from));  // SPEC §5.1: the bits unchanged
    return;
  }
  ThroughFp32(from, to, in, n, out);
}

void ToFp32(Dtype dt, const uint8_t* in, size_t n, uint32_t* out) {
  ThroughFp32(dt, Dtype::FP32, in, n, reinterpret_cast<uint8_t*>(out));
}

void FromFp32(Dtype dt, const uint32_t* in, size_t n, uint8_t* out) {
  ThroughFp32(Dtype::FP32, dt, reinterpret_cast<const uint8_t*>(in), n, out);
}

// ---- BF16 read a word apart -------------------------------------------------------

// out[i] = to_fp32(BF16, the 2 bytes at in + 4 i): a BF16 walk of step 2 widened from
// the partition's words in one pass (WidenBf16 shifts each word's high half out). The
// last element's word may end past the walk, so it and the tail go through a buffer.
void WidenBf16Words(const uint8_t* in, size_t n, uint8_t* out) {
  const DU32 d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N < n; i += N)
    hn::StoreU(WidenBf16(d, hn::LoadU(d, reinterpret_cast<const uint32_t*>(in + 4 * i))), d,
               reinterpret_cast<uint32_t*>(out + 4 * i));
  for (; i < n; i += N) {
    const size_t k = std::min(N, n - i);
    HWY_ALIGN uint32_t w[kMaxLanes] = {};
    for (size_t j = 0; j < k; ++j) std::memcpy(&w[j], in + 4 * (i + j), 2);
    HWY_ALIGN uint32_t r[kMaxLanes];
    hn::Store(WidenBf16(d, hn::Load(d, w)), d, r);
    std::memcpy(out + 4 * i, r, 4 * k);
  }
}

// ---- RangeSelect's max --------------------------------------------------------------

uint32_t MaxKey(const uint32_t* y, size_t n) {
  const DU32 d;
  const size_t N = hn::Lanes(d);
  VU32 acc = hn::Zero(d);
  size_t i = 0;
  for (; i + N <= n; i += N) acc = hn::Max(acc, MaxKeys(d, hn::LoadU(d, y + i)));
  uint32_t best = hn::GetLane(hn::MaxOfLanes(d, acc));
  for (; i < n; ++i) best = std::max(best, bits_to_max_key(y[i]));
  return best;
}

}  // namespace gpsimd::kernels::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::kernels::simd {

// The kernels are compiled for alu/simd.cc's targets (common/simd_targets.h), so the
// dispatcher picks the same one for both.
const char* target_name() {
  return alu::simd::target_name();
}
HWY_EXPORT(Cast);
void cast(Dtype from, Dtype to, const uint8_t* in, size_t n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(Cast)(from, to, in, n, out);
}
HWY_EXPORT(ThroughFp32);
void through_fp32(Dtype from, Dtype to, const uint8_t* in, size_t n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(ThroughFp32)(from, to, in, n, out);
}
HWY_EXPORT(WidenBf16Words);
void widen_bf16_words(const uint8_t* in, size_t n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(WidenBf16Words)(in, n, out);
}
HWY_EXPORT(ToFp32);
void to_fp32(Dtype dt, const uint8_t* in, size_t n, uint32_t* out) {
  HWY_DYNAMIC_DISPATCH(ToFp32)(dt, in, n, out);
}
HWY_EXPORT(FromFp32);
void from_fp32(Dtype dt, const uint32_t* in, size_t n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(FromFp32)(dt, in, n, out);
}
HWY_EXPORT(MaxKey);
uint32_t max_key(const uint32_t* y, size_t n) {
  return HWY_DYNAMIC_DISPATCH(MaxKey)(y, n);
}

}  // namespace gpsimd::kernels::simd
#endif  // HWY_ONCE
