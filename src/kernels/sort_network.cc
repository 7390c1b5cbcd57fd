// Sort's vector building blocks (see sort_network.h): packed sort keys, the in-register
// sorting networks for small channels (one channel at a time, or one per lane), and
// vqsort on packed keys for the rest. Compiled once per SIMD target by Highway's
// foreach_target; HWY_DYNAMIC_DISPATCH picks the best one for the CPU at run time.
#include "kernels/sort_network.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <type_traits>

#include "gpsimd/model.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/sort_network.cc"
#include "common/simd_targets.h"  // IWYU pragma: keep
// clang-format off
#include <hwy/contrib/sort/traits-inl.h>
#include <hwy/contrib/sort/vqsort-inl.h>
#include <hwy/contrib/sort/vqsort.h>
#include "kernels/sort-inl.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DU32 = hn::ScalableTag<uint32_t>;
using VU32 = hn::Vec<DU32>;

// The most lanes any target has for 32-bit elements (AVX-512: 16); tails go through
// buffers of this size.
constexpr size_t kMaxLanes = 64;

// ---- Sort keys ----------------------------------------------------------------------

// sort_key (atoms/sort_key.h) of FP32 / FP16 / BF16 patterns, vectorised: the magnitude
// offset from the middle of the key range, NaNs at the top, and -0.0 meets +0.0 at the
// middle by itself (mid - 0 == mid + 0).
template <uint32_t kSign, uint32_t kInf>
HWY_INLINE VU32 FloatKey(DU32 d, VU32 b) {
  const VU32 mid = hn::Set(d, kSign);
  const VU32 mag = hn::And(b, hn::Set(d, kSign - 1));
  const VU32 k = hn::IfThenElse(hn::TestBit(b, mid), hn::Sub(mid, mag), hn::Add(mid, mag));
  return hn::IfThenElse(hn::Gt(mag, hn::Set(d, kInf)), hn::Set(d, (kSign << 1) - 1), k);
}

// A Sort dtype's sort_key (atoms/sort_key.h) as a vector function of the value bits (in
// the low bits of each 32-bit lane). The dtype is a run-time value: the switch is one
// predictable branch per vector, and the loops that call it are compiled once rather
// than once per dtype. UINT32 and UINT16 are their own keys.
struct SortKeyOf {
  Dtype dt;
  HWY_INLINE VU32 operator()(DU32 d, VU32 b) const {
    switch (dt) {
      case Dtype::FP32:
        return FloatKey<0x80000000u, 0x7f800000u>(d, b);
      case Dtype::INT32:
        return hn::Xor(b, hn::Set(d, 0x80000000u));
      case Dtype::FP16:
        return FloatKey<0x8000u, 0x7c00u>(d, b);
      case Dtype::BF16:
        return FloatKey<0x8000u, 0x7f80u>(d, b);
      case Dtype::INT16:
        return hn::Xor(b, hn::Set(d, 0x8000u));
      default:
        return b;
    }
  }
};

template <class KeyFn>
HWY_INLINE void Pack32Loop(const uint32_t* values, size_t n, bool descending, uint64_t* keys,
                           KeyFn key) {
  const DU32 d;
#if HWY_TARGET == HWY_SCALAR  // one lane: no zips, and nothing to gain from them
  const uint32_t flip1 = descending ? ~0u : 0u;
  for (size_t i = 0; i < n; ++i) {
    const uint32_t k = hn::GetLane(key(d, hn::Set(d, values[i]))) ^ flip1;
    keys[i] = uint64_t{k} << 32 | i;
  }
#else
  const hn::Repartition<uint64_t, DU32> d64;
  const size_t N = hn::Lanes(d);
  const VU32 flip = hn::Set(d, descending ? ~0u : 0u);
  VU32 pos = hn::Iota(d, 0);
  const VU32 step = hn::Set(d, static_cast<uint32_t>(N));
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const VU32 k = hn::Xor(key(d, hn::LoadU(d, values + i)), flip);
    // The two halves come out in a lane order of their own; it does not matter, the
    // keys are sorted next and each carries its own position.
    hn::StoreU(hn::ZipLower(d64, pos, k), d64, keys + i);
    hn::StoreU(hn::ZipUpper(d64, pos, k), d64, keys + i + N / 2);
    pos = hn::Add(pos, step);
  }
  HWY_ALIGN uint32_t kb[kMaxLanes];
  for (; i < n; i += N) {
    const size_t m = std::min(N, n - i);
    HWY_ALIGN uint32_t vb[kMaxLanes] = {};
    std::memcpy(vb, values + i, m * 4);
    hn::Store(hn::Xor(key(d, hn::Load(d, vb)), flip), d, kb);
    for (size_t j = 0; j < m; ++j) keys[i + j] = uint64_t{kb[j]} << 32 | (i + j);
  }
#endif
}

void PackKeys32(Dtype dt, bool descending, const uint32_t* values, size_t n, uint64_t* keys) {
  Pack32Loop(values, n, descending, keys, SortKeyOf{dt});
}

template <class KeyFn>
HWY_INLINE void Pack16Loop(const uint16_t* values, size_t n, bool descending, uint32_t* keys,
                           KeyFn key) {
  const DU32 d;
  const hn::Rebind<uint16_t, DU32> d16;
  const size_t N = hn::Lanes(d);
  const VU32 flip = hn::Set(d, descending ? 0xffff0000u : 0u);
  VU32 pos = hn::Iota(d, 0);
  const VU32 step = hn::Set(d, static_cast<uint32_t>(N));
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const VU32 k = hn::ShiftLeft<16>(key(d, hn::PromoteTo(d, hn::LoadU(d16, values + i))));
    hn::StoreU(hn::Or(hn::Xor(k, flip), pos), d, keys + i);
    pos = hn::Add(pos, step);
  }
  for (; i < n; i += N) {
    const size_t m = std::min(N, n - i);
    HWY_ALIGN uint16_t vb[kMaxLanes] = {};
    HWY_ALIGN uint32_t kb[kMaxLanes];
    std::memcpy(vb, values + i, m * 2);
    const VU32 k = hn::ShiftLeft<16>(key(d, hn::PromoteTo(d, hn::Load(d16, vb))));
    hn::Store(hn::Or(hn::Xor(k, flip), pos), d, kb);
    std::memcpy(keys + i, kb, m * 4);
  }
}

void PackKeys16(Dtype dt, bool descending, const uint16_t* values, size_t n, uint32_t* keys) {
  Pack16Loop(values, n, descending, keys, SortKeyOf{dt});
}

#if HWY_TARGET != HWY_SCALAR  // the network needs lanes to cross

// The bitonic network over kR vectors in registers (sort-inl.h), for the small sorts
// where any call overhead would dominate. Lanes past the keys hold the largest value,
// which no packed key reaches (its position bits are never all ones), so they sort last.
template <size_t kR, class D, class V = hn::Vec<D>>
HWY_INLINE void BitonicVectors(D d, V* v) {
  sort_inl::HWY_NAMESPACE::Network<kR>(d, v);
}

template <size_t kR, class D, class T = hn::TFromD<D>>
HWY_INLINE void SortInRegisters(D d, T* keys, size_t n) {
  using V = hn::Vec<D>;
  constexpr size_t N = HWY_LANES(T);
  V v[kR];
  const V pad = hn::Set(d, hwy::LimitsMax<T>());
  for (size_t r = 0; r < kR; ++r) {
    const size_t at = r * N;
    if (at + N <= n) {
      v[r] = hn::LoadU(d, keys + at);
    } else if (at < n) {
      const auto m = hn::FirstN(d, n - at);
      v[r] = hn::IfThenElse(m, hn::MaskedLoad(m, d, keys + at), pad);
    } else {
      v[r] = pad;
    }
  }
  BitonicVectors<kR>(d, v);
  for (size_t r = 0; r < kR; ++r) {
    const size_t at = r * N;
    if (at + N <= n)
      hn::StoreU(v[r], d, keys + at);
    else if (at < n)
      hn::BlendedStore(v[r], hn::FirstN(d, n - at), d, keys + at);
  }
}

// Sorts n <= 4 vectors of keys in registers. Returns false when n is larger.
template <typename T>
HWY_INLINE bool SortSmall(T* keys, size_t n) {
  const hn::ScalableTag<T> d;
  constexpr size_t N = HWY_LANES(T);
  if (n <= N)
    SortInRegisters<1>(d, keys, n);
  else if (n <= 2 * N)
    SortInRegisters<2>(d, keys, n);
  else if (n <= 4 * N)
    SortInRegisters<4>(d, keys, n);
  else
    return false;
  return true;
}

#endif  // HWY_TARGET != HWY_SCALAR

// vqsort's algorithm (Highway's vqsort-inl.h) compiled into this file, entered below
// its public Sort(): that one zeroes an 8 KiB buffer and seeds its pivot sampler from the
// OS (getrandom) on every call, which costs more than sorting a few thousand keys. The
// keys here are unique and sampling only picks pivots, so a fixed seed is as good, and
// the recursion's depth limit (heapsort beyond it) still bounds the worst case.
template <typename T>
void SortKeys(T* keys, size_t n) {
  if (n < 2) return;
#if HWY_TARGET == HWY_SCALAR  // vqsort needs vectors
  std::sort(keys, keys + n);
#else
  if (SortSmall(keys, n)) return;
  using Traits = hn::detail::SharedTraits<hn::detail::TraitsLane<hn::detail::OrderAscending<T>>>;
  const hn::SortTag<T> d;
  const Traits st;
  HWY_ALIGN T buf[hwy::SortConstants::BufNum<T>(HWY_LANES(T))];
  if (hn::detail::HandleSpecialCases(d, st, keys, n)) return;
  hn::detail::Generator rng(uint64_t{0x9e3779b97f4a7c15u} ^ n);
  for (int i = 0; i < 16; ++i) rng();  // one seed fills all three state words alike
  hn::detail::Recurse(d, st, keys, keys + n, n, buf, rng, 2 * hwy::CeilLog2(n) + 4);
#endif
}

void SortU64(uint64_t* keys, size_t n) {
  // Above the base case the Debian library's build of the same algorithm partitions
  // 64-bit keys about twice as fast as this file's (measured; the 32-bit build is on
  // par), which repays its per-call reseeding; below it that reseeding dominates.
  if (n > 128) {
    thread_local hwy::Sorter sorter;
    sorter(keys, n, hwy::SortAscending());
    return;
  }
  SortKeys(keys, n);
}
void SortU32(uint32_t* keys, size_t n) {
  SortKeys(keys, n);
}

void PackSort32(Dtype dt, bool descending, const uint32_t* values, size_t n, uint64_t* keys) {
  PackKeys32(dt, descending, values, n, keys);
  SortU64(keys, n);
}
void PackSort16(Dtype dt, bool descending, const uint16_t* values, size_t n, uint32_t* keys) {
  PackKeys16(dt, descending, values, n, keys);
  SortKeys(keys, n);
}

// ---- Sort, one small channel in registers ----------------------------------------------

#if HWY_TARGET != HWY_SCALAR  // the network needs lanes to cross

// Stores the first min(count, lanes) lanes of v at p.
template <class D, class V, class T>
HWY_INLINE void StoreFirst(D d, V v, T* p, size_t count) {
  if (count >= hn::Lanes(d))
    hn::StoreU(v, d, p);
  else
    hn::BlendedStore(v, hn::FirstN(d, count), d, p);
}

// Lanes of a row that lie past the run get all-ones keys and positions, which sort last
// (a real packed key never is all ones: its position bits are below n).
HWY_INLINE VU32 PastRun(DU32 d, size_t row_start, size_t n) {
  return hn::VecFromMask(d, hn::Not(hn::FirstN(d, n > row_start ? n - row_start : 0)));
}

// The rows of a run: loaded in place when whole vectors can be read there, else copied.
template <class T, size_t kMax>
HWY_INLINE const T* RunSource(const uint8_t* src, size_t n, size_t row_bytes, size_t rows,
                              size_t readable, T (&copy)[kMax]) {
  if (rows * row_bytes <= readable) return reinterpret_cast<const T*>(src);
  std::memcpy(copy, src, n * sizeof(T));
  return copy;
}

// One channel's run on the narrow path (SortRun32Narrow below), between its phases: the values,
// their full keys', the packed words (sorted by the network in place) and the bits dropped.
struct Narrow32 {
  VU32 x, full, v;
  int shift;
};

template <class KeyFn>
HWY_INLINE Narrow32 NarrowPack(const uint8_t* src, size_t n, bool descending, size_t readable,
                               KeyFn key) {
  const DU32 d;
  const hn::RebindToSigned<DU32> di;
  constexpr size_t L = HWY_LANES(uint32_t);
  constexpr int kPosBits = std::countr_zero(L);
  HWY_ALIGN uint32_t copy[L] = {};
  const uint32_t* in = RunSource(src, n, L * 4, 1, readable, copy);
  Narrow32 r;
  r.x = hn::LoadU(d, in);
  const VU32 past = PastRun(d, 0, n);
  r.full = hn::Xor(key(d, r.x), hn::Set(d, descending ? ~0u : 0u));
  // The highest bit in which some key differs from key 0: the highest bit of the
  // largest difference.
  const VU32 first = hn::TableLookupLanes(r.full, hn::IndicesFromVec(d, hn::Zero(di)));
  const uint32_t spread = hn::GetLane(hn::MaxOfLanes(d, hn::AndNot(past, hn::Xor(r.full, first))));
  const int width = std::bit_width(spread);  // keys differ only in their low `width` bits
  r.shift = std::max(0, width - (32 - kPosBits));
  const uint32_t low = width == 32 ? ~0u : (1u << width) - 1;
  const VU32 kept = hn::ShiftRightSame(hn::And(r.full, hn::Set(d, low)), r.shift);
  r.v = hn::Or(hn::Or(hn::ShiftLeft<kPosBits>(kept), hn::Iota(d, 0)), past);
  return r;
}

// After the network: false when dropping bits broke the order of the full keys.
HWY_INLINE bool NarrowInOrder(const Narrow32& r, size_t n) {
  if (r.shift == 0) return true;
  const DU32 d;
  const hn::RebindToSigned<DU32> di;
  constexpr size_t L = HWY_LANES(uint32_t);
  HWY_ALIGN static constexpr auto kNext = [] {
    std::array<int32_t, L> t{};
    for (size_t l = 0; l < L; ++l) t[l] = static_cast<int32_t>(std::min(l + 1, L - 1));
    return t;
  }();
  const VU32 pos = hn::And(r.v, hn::Set(d, L - 1));
  const VU32 sorted = hn::TableLookupLanes(r.full, hn::IndicesFromVec(d, hn::BitCast(di, pos)));
  const VU32 next = hn::TableLookupLanes(sorted, hn::SetTableIndices(d, kNext.data()));
  return hn::AllFalse(d, hn::And(hn::FirstN(d, n - 1), hn::Gt(sorted, next)));
}

// The first k (value, position + offset) pairs of a sorted narrow run.
HWY_INLINE void NarrowStore(const Narrow32& r, size_t k, uint32_t offset, uint8_t* dst) {
  const DU32 d;
  const hn::RebindToSigned<DU32> di;
  constexpr size_t L = HWY_LANES(uint32_t);
  const VU32 pos = hn::And(r.v, hn::Set(d, L - 1));
  // (value, position + offset) pairs in order: InterleaveLower/Upper pair lanes within
  // 128-bit blocks, so first move sorted pairs 2b, 2b + 1 and L/2 + 2b, L/2 + 2b + 1 into
  // block b; the lower interleave is then pairs 0 .. L/2 - 1, the upper the rest.
  HWY_ALIGN static constexpr auto kPairs = [] {
    std::array<int32_t, L> t{};
    for (size_t b = 0; b < L / 4; ++b)
      for (size_t j = 0; j < 2; ++j) {
        t[4 * b + j] = static_cast<int32_t>(2 * b + j);
        t[4 * b + 2 + j] = static_cast<int32_t>(L / 2 + 2 * b + j);
      }
    return t;
  }();
  const VU32 order = hn::TableLookupLanes(pos, hn::SetTableIndices(d, kPairs.data()));
  const VU32 value = hn::TableLookupLanes(r.x, hn::IndicesFromVec(d, hn::BitCast(di, order)));
  const VU32 index = hn::Add(order, hn::Set(d, offset));
  auto* out = reinterpret_cast<uint32_t*>(dst);
  const VU32 halves[2] = {hn::InterleaveLower(d, value, index),
                          hn::InterleaveUpper(d, value, index)};
  for (size_t h = 0; h < 2 && h * L / 2 < k; ++h)
    StoreFirst(d, halves[h], out + h * L, 2 * (k - h * L / 2));
}

// 32-bit dtypes, a run that fits one vector: the keys packed into 32 bits instead of
// 64, which halves the network. Packed = (key' without the bits all keys share, shifted
// right to leave room) << log2(lanes) | position. When the keys differ in fewer bits
// than there is room for, the packing keeps them whole and the order is exact.
// Otherwise it drops low bits, and the order is exact unless two keys agree on the bits
// kept but not on the others: then the full keys do not come out non-decreasing, which
// is checked, and the caller sorts the run on 64-bit keys instead (returns false).
template <class KeyFn>
HWY_INLINE bool SortRun32Narrow(const uint8_t* src, size_t n, size_t k, uint32_t offset,
                                bool descending, size_t readable, uint8_t* dst, KeyFn key) {
  Narrow32 r = NarrowPack(src, n, descending, readable, key);
  BitonicVectors<1>(DU32(), &r.v);
  if (!NarrowInOrder(r, n)) return false;
  NarrowStore(r, k, offset, dst);
  return true;
}

// 32-bit dtypes: kRows vectors of values, each zipped into two vectors of packed keys
// (key' << 32 | position, in a lane order of their own: each key carries its position),
// sorted by the bitonic network, then each position looks its value up again.
// kTryNarrow: one row tries SortRun32Narrow first (false where that has failed already).
template <size_t kRows, bool kTryNarrow = true, class KeyFn>
HWY_INLINE void SortRun32(const uint8_t* src, size_t n, size_t k, uint32_t offset, bool descending,
                          size_t readable, uint8_t* dst, KeyFn key) {
  if constexpr (kRows == 1 && kTryNarrow) {
    if (SortRun32Narrow(src, n, k, offset, descending, readable, dst, key)) return;
  }
  const DU32 d;
  const hn::Repartition<uint64_t, DU32> d64;
  const hn::RebindToSigned<decltype(d64)> di64;
  const hn::RebindToSigned<DU32> di;
  using V64 = hn::Vec<decltype(d64)>;
  constexpr size_t L = HWY_LANES(uint32_t);
  HWY_ALIGN uint32_t copy[kRows * L] = {};
  // The values again, for the lookup by position, which reads 8 bytes: one spare word.
  HWY_ALIGN uint32_t values[kRows * L + 2];
  values[kRows * L] = 0;
  const uint32_t* in = RunSource(src, n, L * 4, kRows, readable, copy);
  const VU32 flip = hn::Set(d, descending ? ~0u : 0u);
  V64 v[2 * kRows];
  VU32 row[kRows];  // the values
  for (size_t r = 0; r < kRows; ++r) {
    const VU32 x = hn::LoadU(d, in + r * L);
    row[r] = x;
    if constexpr (kRows > 1 && HWY_TARGET <= HWY_AVX3) hn::Store(x, d, values + r * L);
    const VU32 past = PastRun(d, r * L, n);
    const VU32 kk = hn::Or(hn::Xor(key(d, x), flip), past);
    const VU32 pos = hn::Or(hn::Iota(d, static_cast<uint32_t>(r * L)), past);
    v[2 * r] = hn::ZipLower(d64, pos, kk);
    v[2 * r + 1] = hn::ZipUpper(d64, pos, kk);
  }
  BitonicVectors<2 * kRows>(d64, v);
  const V64 low = hn::Set(d64, 0xffffffffu);
  const V64 off = hn::Set(d64, offset);
  const auto* table = reinterpret_cast<const uint64_t*>(values);
  constexpr size_t L64 = L / 2;
  for (size_t r = 0; r < 2 * kRows && r * L64 < k; ++r) {
    const V64 pos = hn::And(v[r], low);
    // Lanes past k are not stored, but may hold the padding's all-ones position:
    // keep their lookups inside the table too.
    const V64 lane = hn::And(pos, hn::Set(d64, kRows * L - 1));
    V64 value;
    if constexpr (kRows == 1 || HWY_TARGET > HWY_AVX3) {
      // A lane permutation of each vector of values, the row picked by the position's
      // bits above the lane (AVX2's gathers cost more than up to four of these). As
      // 32-bit lanes the indices are the positions in the even lanes and 0 in the odd
      // ones, which the mask clears.
      const auto idx = hn::IndicesFromVec(d, hn::BitCast(di, hn::And(lane, hn::Set(d64, L - 1))));
      value = hn::BitCast(d64, hn::TableLookupLanes(row[0], idx));
      for (size_t q = 1; q < kRows; ++q) {
        const auto in_q = hn::Eq(hn::ShiftRight<std::countr_zero(L)>(lane), hn::Set(d64, q));
        value = hn::IfThenElse(in_q, hn::BitCast(d64, hn::TableLookupLanes(row[q], idx)), value);
      }
      value = hn::And(value, low);
    } else {
      value = hn::And(hn::GatherOffset(d64, table, hn::BitCast(di64, hn::ShiftLeft<2>(lane))), low);
    }
    // Little-endian: the value at ordinal 2i, position + offset (mod 2^32) at 2i + 1.
    const V64 pair = hn::Or(value, hn::ShiftLeft<32>(hn::Add(pos, off)));
    StoreFirst(d64, pair, reinterpret_cast<uint64_t*>(dst) + r * L64, k - r * L64);
  }
}

// 16-bit dtypes: kRows vectors of packed keys key' << 16 | position, one per vector of
// values widened to 32 bits.
template <size_t kRows, class KeyFn>
HWY_INLINE void SortRun16Gather(const uint8_t* src, size_t n, size_t k, uint32_t offset,
                                bool descending, size_t readable, uint8_t* dst, KeyFn key) {
  const DU32 d;
  const hn::RebindToSigned<DU32> di;
  const hn::Rebind<uint16_t, DU32> d16;
  constexpr size_t L = HWY_LANES(uint32_t);
  HWY_ALIGN uint16_t copy[kRows * L] = {};
  // The lookup by position reads 4 bytes: one spare element.
  HWY_ALIGN uint16_t values[kRows * L + 2];
  values[kRows * L] = 0;
  const uint16_t* in = RunSource(src, n, L * 2, kRows, readable, copy);
  const VU32 flip = hn::Set(d, descending ? 0xffff0000u : 0u);
  VU32 v[kRows];
  for (size_t r = 0; r < kRows; ++r) {
    const auto x = hn::LoadU(d16, in + r * L);
    hn::Store(x, d16, values + r * L);
    const VU32 wide = hn::PromoteTo(d, x);
    const VU32 kk = hn::Xor(hn::ShiftLeft<16>(key(d, wide)), flip);
    v[r] = hn::Or(hn::Or(kk, hn::Iota(d, static_cast<uint32_t>(r * L))), PastRun(d, r * L, n));
  }
  BitonicVectors<kRows>(d, v);
  const VU32 low = hn::Set(d, 0xffffu);
  const VU32 off = hn::Set(d, offset);
  const auto* table = reinterpret_cast<const uint32_t*>(values);
  for (size_t r = 0; r < kRows && r * L < k; ++r) {
    const VU32 pos = hn::And(v[r], low);
    // Lanes past k are not stored, but may hold the padding's all-ones position:
    // keep their lookups inside the table too.
    const VU32 lane = hn::And(pos, hn::Set(d, kRows * L - 1));
    const VU32 value =
        hn::And(hn::GatherOffset(d, table, hn::BitCast(di, hn::ShiftLeft<1>(lane))), low);
    // The value at ordinal 2i, position + offset (mod 2^16) at 2i + 1.
    const VU32 pair = hn::Or(value, hn::ShiftLeft<16>(hn::Add(pos, off)));
    StoreFirst(d, pair, reinterpret_cast<uint32_t*>(dst) + r * L, k - r * L);
  }
}

// 16-bit dtypes, a run of one or two vectors, in phases as Narrow32 (for two channels at
// a time): the values widened and the packed keys, sorted by the network in place. The
// values are looked up again by position with lane permutations (a gather costs more).
template <size_t kRows>
struct Run16 {
  VU32 wide[kRows], v[kRows];
};

template <size_t kRows, class KeyFn>
HWY_INLINE Run16<kRows> Pack16(const uint8_t* src, size_t n, bool descending, size_t readable,
                               KeyFn key) {
  const DU32 d;
  const hn::Rebind<uint16_t, DU32> d16;
  constexpr size_t L = HWY_LANES(uint32_t);
  HWY_ALIGN uint16_t copy[kRows * L] = {};
  const uint16_t* in = RunSource(src, n, L * 2, kRows, readable, copy);
  Run16<kRows> r;
  const VU32 flip = hn::Set(d, descending ? 0xffff0000u : 0u);
  for (size_t i = 0; i < kRows; ++i) {
    r.wide[i] = hn::PromoteTo(d, hn::LoadU(d16, in + i * L));
    const VU32 kk = hn::Xor(hn::ShiftLeft<16>(key(d, r.wide[i])), flip);
    r.v[i] = hn::Or(hn::Or(kk, hn::Iota(d, static_cast<uint32_t>(i * L))), PastRun(d, i * L, n));
  }
  return r;
}

// Lane `pos` (< 2 L) of the two vectors a (lanes 0 .. L - 1) and b (L .. 2L - 1).
HWY_INLINE VU32 Lookup2(DU32 d, VU32 a, VU32 b, VU32 pos) {
#if HWY_TARGET <= HWY_AVX3
  (void)d;
  return VU32{_mm512_permutex2var_epi32(a.raw, pos.raw, b.raw)};
#else
  const hn::RebindToSigned<DU32> di;
  constexpr size_t L = HWY_LANES(uint32_t);
  const auto idx = hn::IndicesFromVec(d, hn::BitCast(di, hn::And(pos, hn::Set(d, L - 1))));
  return hn::IfThenElse(hn::TestBit(pos, hn::Set(d, L)), hn::TableLookupLanes(b, idx),
                        hn::TableLookupLanes(a, idx));
#endif
}

// The first k (value, position + offset) pairs of a sorted Run16.
template <size_t kRows>
HWY_INLINE void Store16(const Run16<kRows>& r, size_t k, uint32_t offset, uint8_t* dst) {
  const DU32 d;
  const hn::RebindToSigned<DU32> di;
  constexpr size_t L = HWY_LANES(uint32_t);
  const VU32 off = hn::Set(d, offset);
  for (size_t i = 0; i < kRows && i * L < k; ++i) {
    const VU32 pos = hn::And(r.v[i], hn::Set(d, 0xffffu));
    // Lanes past k are not stored, but may hold the padding's all-ones position: keep
    // their lookups inside the vectors too.
    const VU32 lane = hn::And(pos, hn::Set(d, kRows * L - 1));
    VU32 value;
    if constexpr (kRows == 1)
      value = hn::TableLookupLanes(r.wide[0], hn::IndicesFromVec(d, hn::BitCast(di, lane)));
    else
      value = Lookup2(d, r.wide[0], r.wide[1], lane);
    // The value at ordinal 2i, position + offset (mod 2^16) at 2i + 1.
    const VU32 pair = hn::Or(value, hn::ShiftLeft<16>(hn::Add(pos, off)));
    StoreFirst(d, pair, reinterpret_cast<uint32_t*>(dst) + i * L, k - i * L);
  }
}

template <size_t kRows, class KeyFn>
HWY_INLINE void SortRun16(const uint8_t* src, size_t n, size_t k, uint32_t offset, bool descending,
                          size_t readable, uint8_t* dst, KeyFn key) {
  if constexpr (kRows <= 2) {
    Run16<kRows> r = Pack16<kRows>(src, n, descending, readable, key);
    BitonicVectors<kRows>(DU32(), r.v);
    Store16(r, k, offset, dst);
  } else {
    SortRun16Gather<kRows>(src, n, k, offset, descending, readable, dst, key);
  }
}

template <size_t kRows, bool kWide, class KeyFn>
HWY_INLINE void SortRunsT(size_t n, size_t k, bool descending, const SortChannel* ch, size_t count,
                          uint32_t src_off, uint32_t dst_off, size_t readable, KeyFn key) {
  // Each channel sits in a partition of its own, far from the last: ask for the
  // channels a few ahead early.
  constexpr size_t kAhead = 4;
  for (size_t c = 0; c < std::min(count, kAhead); ++c)
    __builtin_prefetch(ch[c].partition + src_off);
  // Before sorting channels c .. c + m - 1: the source and destination of the m channels
  // kAhead further on.
  auto prefetch_ahead = [&](size_t c, size_t m) {
    for (size_t a = c + kAhead; a < std::min(count, c + kAhead + m); ++a) {
      __builtin_prefetch(ch[a].partition + src_off);
      __builtin_prefetch(ch[a].dst + dst_off, 1);
    }
  };
  size_t c = 0;
  if constexpr (kWide && kRows == 1) {
    // kWays runs at a time: their networks are chains of dependent steps, and
    // independent chains side by side keep more of the vector units busy (AVX-512's 32
    // registers hold four runs' state; AVX2's 16 two).
    constexpr size_t kWays = HWY_TARGET <= HWY_AVX3 ? 4 : 2;
    const DU32 d;
    for (; c + kWays <= count; c += kWays) {
      prefetch_ahead(c, kWays);
      Narrow32 r[kWays];
      for (size_t w = 0; w < kWays; ++w)
        r[w] = NarrowPack(ch[c + w].partition + src_off, n, descending, readable, key);
      for (size_t w = 0; w < kWays; ++w) BitonicVectors<1>(d, &r[w].v);
      bool in_order[kWays];
      for (size_t w = 0; w < kWays; ++w) in_order[w] = NarrowInOrder(r[w], n);
      for (size_t w = 0; w < kWays; ++w) {
        const SortChannel& x = ch[c + w];
        if (in_order[w])
          NarrowStore(r[w], k, x.offset, x.dst + dst_off);
        else
          SortRun32<1, false>(x.partition + src_off, n, k, x.offset, descending, readable,
                              x.dst + dst_off, key);
      }
    }
  }
  if constexpr (!kWide && kRows <= 2) {
    const DU32 d;
    for (; c + 2 <= count; c += 2) {
      prefetch_ahead(c, 2);
      Run16<kRows> r0 = Pack16<kRows>(ch[c].partition + src_off, n, descending, readable, key);
      Run16<kRows> r1 = Pack16<kRows>(ch[c + 1].partition + src_off, n, descending, readable, key);
      BitonicVectors<kRows>(d, r0.v);
      BitonicVectors<kRows>(d, r1.v);
      Store16(r0, k, ch[c].offset, ch[c].dst + dst_off);
      Store16(r1, k, ch[c + 1].offset, ch[c + 1].dst + dst_off);
    }
  }
  for (; c < count; ++c) {
    prefetch_ahead(c, 1);
    if constexpr (kWide)
      SortRun32<kRows>(ch[c].partition + src_off, n, k, ch[c].offset, descending, readable,
                       ch[c].dst + dst_off, key);
    else
      SortRun16<kRows>(ch[c].partition + src_off, n, k, ch[c].offset, descending, readable,
                       ch[c].dst + dst_off, key);
  }
}

// kRows: the fewest vectors (a power of two, for the network) that hold n keys.
template <bool kWide, class KeyFn>
HWY_INLINE bool SortRunsRows(size_t n, size_t k, bool descending, const SortChannel* ch,
                             size_t count, uint32_t src_off, uint32_t dst_off, size_t readable,
                             KeyFn key) {
  constexpr size_t L = HWY_LANES(uint32_t);
  // Up to 8 vectors of packed keys (the 32-bit dtypes take two per row). With 4 lanes (a
  // 128-bit baseline target, as clang builds it) 32 16-bit keys take 8 rows.
  constexpr size_t kMaxRows = kWide ? 4 : 8;
  if (n > 32) return false;
  const size_t rows = std::bit_ceil((n + L - 1) / L);
  auto run = [&](auto rows_tag) {
    SortRunsT<decltype(rows_tag)::value, kWide>(n, k, descending, ch, count, src_off, dst_off,
                                                readable, key);
    return true;
  };
  if (rows > kMaxRows) return false;
  if (rows == 1) return run(std::integral_constant<size_t, 1>());
  if (rows == 2) return run(std::integral_constant<size_t, 2>());
  if constexpr (L <= 8) {
    if (rows == 4) return run(std::integral_constant<size_t, 4>());
    if constexpr (!kWide)
      if (rows == 8) return run(std::integral_constant<size_t, 8>());
  }
  return false;
}

#endif  // HWY_TARGET != HWY_SCALAR

bool SortRuns(Dtype dt, bool descending, size_t n, size_t k, const SortChannel* ch, size_t count,
              uint32_t src_off, uint32_t dst_off, size_t readable) {
#if HWY_TARGET == HWY_SCALAR
  (void)dt, (void)descending, (void)n, (void)k, (void)ch, (void)count, (void)src_off, (void)dst_off,
      (void)readable;
  return false;
#else
  switch (dt) {
    case Dtype::FP32:
    case Dtype::INT32:
    case Dtype::UINT32:
      return SortRunsRows<true>(n, k, descending, ch, count, src_off, dst_off, readable,
                                SortKeyOf{dt});
    case Dtype::FP16:
    case Dtype::BF16:
    case Dtype::INT16:
    case Dtype::UINT16:
      return SortRunsRows<false>(n, k, descending, ch, count, src_off, dst_off, readable,
                                 SortKeyOf{dt});
    default:
      return false;
  }
#endif
}

// ---- Sort, many small channels at once ------------------------------------------------

// A sorting network applied down the columns of a row-major matrix: each row is one
// vector of lanes (one channel per lane), each compare-exchange (a, b) leaves the
// lane-wise min in row a and the max in row b. With one channel per lane, the network
// sorts every channel at once, without moving data across lanes.
template <typename T>
void SortColumnsT(T* rows, const uint16_t* ce, size_t nce) {
  const hn::ScalableTag<T> d;
  const size_t N = hn::Lanes(d);
  for (size_t i = 0; i < nce; ++i) {
    T* a = rows + ce[2 * i] * N;
    T* b = rows + ce[2 * i + 1] * N;
    const auto va = hn::Load(d, a), vb = hn::Load(d, b);
    hn::Store(hn::Min(va, vb), d, a);
    hn::Store(hn::Max(va, vb), d, b);
  }
}
void SortColumns64(uint64_t* rows, const uint16_t* ce, size_t nce) {
  SortColumnsT(rows, ce, nce);
}
void SortColumns32(uint32_t* rows, const uint16_t* ce, size_t nce) {
  SortColumnsT(rows, ce, nce);
}
size_t Lanes64() {
  return hn::Lanes(hn::ScalableTag<uint64_t>());
}
size_t Lanes32() {
  return hn::Lanes(hn::ScalableTag<uint32_t>());
}

}  // namespace gpsimd::kernels::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::kernels::simd {

HWY_EXPORT(PackKeys32);
void pack_keys32(Dtype dt, bool descending, const uint32_t* values, size_t n, uint64_t* keys) {
  HWY_DYNAMIC_DISPATCH(PackKeys32)(dt, descending, values, n, keys);
}
HWY_EXPORT(PackKeys16);
void pack_keys16(Dtype dt, bool descending, const uint16_t* values, size_t n, uint32_t* keys) {
  HWY_DYNAMIC_DISPATCH(PackKeys16)(dt, descending, values, n, keys);
}
HWY_EXPORT(SortU64);
void sort_u64(uint64_t* keys, size_t n) {
  HWY_DYNAMIC_DISPATCH(SortU64)(keys, n);
}
HWY_EXPORT(SortU32);
void sort_u32(uint32_t* keys, size_t n) {
  HWY_DYNAMIC_DISPATCH(SortU32)(keys, n);
}
HWY_EXPORT(PackSort32);
void pack_sort32(Dtype dt, bool descending, const uint32_t* values, size_t n, uint64_t* keys) {
  HWY_DYNAMIC_DISPATCH(PackSort32)(dt, descending, values, n, keys);
}
HWY_EXPORT(PackSort16);
void pack_sort16(Dtype dt, bool descending, const uint16_t* values, size_t n, uint32_t* keys) {
  HWY_DYNAMIC_DISPATCH(PackSort16)(dt, descending, values, n, keys);
}
HWY_EXPORT(SortRuns);
bool sort_runs(Dtype dt, bool descending, size_t n, size_t k, const SortChannel* channels,
               size_t count, uint32_t src_off, uint32_t dst_off, size_t readable) {
  return HWY_DYNAMIC_DISPATCH(SortRuns)(dt, descending, n, k, channels, count, src_off, dst_off,
                                        readable);
}
HWY_EXPORT(SortColumns64);
void sort_columns64(uint64_t* rows, const uint16_t* ce, size_t nce) {
  HWY_DYNAMIC_DISPATCH(SortColumns64)(rows, ce, nce);
}
HWY_EXPORT(SortColumns32);
void sort_columns32(uint32_t* rows, const uint16_t* ce, size_t nce) {
  HWY_DYNAMIC_DISPATCH(SortColumns32)(rows, ce, nce);
}
HWY_EXPORT(Lanes64);
size_t lanes64() {
  return HWY_DYNAMIC_DISPATCH(Lanes64)();
}
HWY_EXPORT(Lanes32);
size_t lanes32() {
  return HWY_DYNAMIC_DISPATCH(Lanes32)();
}
}  // namespace gpsimd::kernels::simd
#endif  // HWY_ONCE
