// Compressing a vector of 32-bit lanes in a register (the lanes of a mask moved to the
// front, in order), the same bits on every target: AVX-512 has an instruction for it
// (vpcompressd); AVX2 takes a permutation table of 256 entries of 8 lane indices (one
// vpermd, the indices widened from 8 bytes), as the best AVX2 code does. Highway 1.0.3's
// own AVX2 Compress builds its 1 KiB table on the stack at every call when GCC compiles it
// (a `rep movsq` per vector), and its mask bits of 16-bit lanes use BMI2 pext, which Zen 2
// microcodes: neither is used here. Per-target code: include it after hwy/highway.h, as
// Highway's own *-inl.h headers.

#if defined(GPSIMD_KERNELS_COMPRESS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GPSIMD_KERNELS_COMPRESS_INL_H_
#undef GPSIMD_KERNELS_COMPRESS_INL_H_
#else
#define GPSIMD_KERNELS_COMPRESS_INL_H_
#endif

#include <hwy/highway.h>

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::compress_inl::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The mask's lanes as the low bits of an integer (at most 64 lanes), one bit per lane.
// For 16-bit lanes on AVX2 without pext: the mask's bytes' sign bits (two per lane), then
// every other bit kept by a multiply-free fold.
template <class D>
HWY_INLINE uint64_t MaskBits(D d, hn::Mask<D> m) {
  using T = hn::TFromD<D>;
#if HWY_TARGET == HWY_AVX2
  if constexpr (sizeof(T) == 2) {
    const hn::Repartition<uint8_t, D> d8;
    uint8_t bytes[8] = {};
    hn::StoreMaskBits(d8, hn::MaskFromVec(hn::BitCast(d8, hn::VecFromMask(d, m))), bytes);
    uint64_t x;
    std::memcpy(&x, bytes, 8);
    // Bits 2i and 2i + 1 are equal: keep the odd ones and gather them to the low half.
    x = (x >> 1) & 0x55555555u;
    x = (x | (x >> 1)) & 0x33333333u;
    x = (x | (x >> 2)) & 0x0f0f0f0fu;
    x = (x | (x >> 4)) & 0x00ff00ffu;
    x = (x | (x >> 8)) & 0x0000ffffu;
    return x;
  }
#endif
  (void)sizeof(T);
  uint8_t bytes[8] = {};
  hn::StoreMaskBits(d, m, bytes);
  uint64_t bits;
  std::memcpy(&bits, bytes, 8);
  return bits;
}

#if HWY_TARGET == HWY_AVX2
// Entry b: the indices of the set bits of b, lowest first, then the others (unused).
HWY_ALIGN constexpr auto kCompress8 = [] {
  std::array<std::array<uint8_t, 8>, 256> t{};
  for (unsigned b = 0; b < 256; ++b) {
    unsigned k = 0;
    for (unsigned l = 0; l < 8; ++l)
      if ((b >> l) & 1) t[b][k++] = static_cast<uint8_t>(l);
    for (unsigned l = 0; l < 8; ++l)
      if (!((b >> l) & 1)) t[b][k++] = static_cast<uint8_t>(l);
  }
  return t;
}();
#endif

// The lanes of v selected by m, in order, at the front (the other lanes unspecified);
// `count` receives how many.
template <class D>
HWY_INLINE hn::Vec<D> Compress32(D d, hn::Vec<D> v, hn::Mask<D> m, size_t* count) {
  static_assert(sizeof(hn::TFromD<D>) == 4, "32-bit lanes");
#if HWY_TARGET == HWY_AVX2
  const unsigned bits = static_cast<unsigned>(MaskBits(d, m));
  *count = static_cast<size_t>(std::popcount(bits));
  const hn::RebindToUnsigned<D> du;
  const hn::Rebind<uint8_t, decltype(du)> d8;
  const auto idx = hn::PromoteTo(du, hn::LoadU(d8, kCompress8[bits].data()));
  return hn::TableLookupLanes(v, hn::IndicesFromVec(d, idx));
#else
  *count = hn::CountTrue(d, m);
  return hn::Compress(v, m);
#endif
}

}  // namespace gpsimd::kernels::compress_inl::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
