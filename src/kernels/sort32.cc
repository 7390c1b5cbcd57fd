// Sort of one channel of a 32-bit dtype (SPEC §4.4), for the N that one channel may hold
// beyond kernels/sort_network.cc's in-register runs (33 to 2048).
//
// The keys are the packed words of sort_network.h: key' << 32 | position, key' the value's
// sort_key (model.h), inverted for descending order. They are unique, so sorting them
// ascending gives SPEC's order, ties in increasing position. vqsort on 2048 of them
// costs more than these passes together (about 1.8x at N = 2048, random keys):
//
//  1. Pack the keys (vector loop), in position order, and note the smallest and largest
//     key'. Input already in order (key' never decreasing: sorted, all equal) or in
//     strictly reverse order is found from the values before that and written as it is;
//     input in reverse order with runs of equal keys is read backwards, each run forwards
//     (sort-inl.h). Up to 64 keys are sorted in registers by a bitonic network
//     (sort-inl.h), up to 128 by vqsort on AVX-512 (AVX2 goes on to the passes below
//     from 65, see kMaxNetwork); the passes below are for more.
//  2. One MSD radix pass: the bucket of a key is (key - min) >> shift, with the shift
//     that spreads the range of key' over about 2n buckets; a histogram, its prefix
//     sums and a scatter leave the keys ordered by bucket. Skewed inputs crowd a few
//     buckets (normal FP32 data: the keys of small magnitudes leave most of the range
//     empty); then the crowded buckets are split by the next key bits, in proportion to
//     their counts, before the scatter, unless a sample of 32 keys shows no two
//     different keys in one bucket (few distinct values: crowded buckets are runs of
//     equal keys, which the scatter leaves in position order, i.e. sorted). FP32 values
//     that are all finite may get buckets linear in the value instead (see Linear),
//     when the sample finds them less crowded (uniform and normal data). When the shift is 0 (a
//     narrow range of key'), a bucket holds a single key', its keys arrive in position order, and
//     the scatter already leaves everything sorted. When a sample shows one bucket holding a
//     quarter of the keys or more (many zeros, a tight cluster), counting them is one
//     long dependency chain, and vqsort sorts the keys instead.
//  3. Every key is now inside its bucket's final range. Buckets of up to 3 keys are
//     finished by two branch-free passes of sorting networks over the whole array: sort
//     every aligned block of 4 keys, then merge the two sorted halves of every block of
//     4 that starts at 2 (mod 4). A bucket of at most 3 keys lies inside one of those
//     blocks, and sorting a block never moves a key out of its bucket's range, nor
//     unsorts a bucket that is already sorted, so every such bucket ends sorted.
//     Larger buckets are sorted on their own first: in registers up to 64 keys, else by
//     vqsort unless already sorted (all equal or few distinct values, sorted input), so
//     the worst case stays O(n log n).
//  4. Write the pairs: the value comes back from key' (sort_key is a bijection except
//     for ±0 and NaNs, which are read from the source), the index from the position.
//
// The passes run on AVX2 (4 lanes of 64 bits, one network block a vector) and AVX-512
// (8 lanes, two blocks); other targets keep the vqsort path.
#include "kernels/sort32.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "kernels/sort_network.h"
#include "kernels/walk_cursor.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/sort32.cc"
#include "common/simd_targets.h"  // IWYU pragma: keep
// clang-format off
#include "kernels/sort-inl.h"
// clang-format on

// Defined once, although foreach_target includes this file once per target.
#ifndef GPSIMD_KERNELS_SORT32_SCRATCH
#define GPSIMD_KERNELS_SORT32_SCRATCH
namespace gpsimd::kernels::sort32 {

// Per-thread scratch, grown by the dispatcher (HWY_ONCE part below) and handed to the
// per-target code, so a warm call allocates nothing.
struct Scratch {
  uint64_t* keys;   // n packed keys in position order, padded to a multiple of 16
  uint64_t* tmp;    // the scattered keys, padded to a multiple of 8 plus 8
  uint32_t* index;  // the bucket of each key
  uint32_t* count;  // per bucket
  uint32_t* big;    // (start, size) of the buckets too large for the networks
};

}  // namespace gpsimd::kernels::sort32
#endif

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::sort32::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

#if HWY_TARGET <= HWY_AVX2

using D64 = hn::ScalableTag<uint64_t>;
using V64 = hn::Vec<D64>;
using D32 = hn::Repartition<uint32_t, D64>;
using V32 = hn::Vec<D32>;
constexpr size_t kLanes = HWY_LANES(uint64_t);  // 64-bit lanes per vector: 4 or 8
static_assert(kLanes == 4 || kLanes == 8, "AVX2 or AVX-512 vectors");
constexpr size_t kLanes32 = 2 * kLanes;  // 32-bit lanes per vector
// The networks' blocks hold kWindow keys, and there are about two buckets per key: fewer
// crowded buckets than with one, and smaller networks than with blocks of 8 (measured:
// slightly faster than one bucket per key with blocks of 8).
constexpr size_t kWindow = 4;
constexpr unsigned kExtraBucketBits = 1;
// Buckets above this many keys are sorted on their own: a bucket of up to
// kWindow / 2 + 1 keys always lies inside one of the network passes' blocks.
constexpr uint32_t kNetBucket = kWindow / 2 + 1;
// Up to here a bitonic network in registers sorts the keys; from kMinRadix on the radix
// pass; between them vqsort. AVX-512: vqsort's base case fits 128 keys exactly (measured:
// the network over 16 vectors takes about 1.3x its time there; over 8, less than it).
// AVX2: vqsort's base case holds 64 keys and above them its recursion costs more than the
// radix pass (measured at N = 128 on Zen 3: the radix pass 1.2-1.4x vqsort's speed), so
// the network takes all 16 vectors and the radix pass the rest.
constexpr size_t kMaxNetwork = (kLanes == 4 ? 16 : 8) * kLanes;
constexpr size_t kMinRadix = kLanes == 4 ? 65 : 129;

// sort_key (atoms/sort_key.h) of FP32 patterns, 16 at once (as sort_network.cc's FloatKey).
HWY_INLINE V32 Fp32Key(D32 d, V32 b) {
  const V32 mid = hn::Set(d, 0x80000000u);
  const V32 mag = hn::And(b, hn::Set(d, 0x7fffffffu));
  const V32 k = hn::IfThenElse(hn::TestBit(b, mid), hn::Sub(mid, mag), hn::Add(mid, mag));
  return hn::IfThenElse(hn::Gt(mag, hn::Set(d, 0x7f800000u)), hn::Set(d, 0xffffffffu), k);
}

// Step 1: keys[i] = key'(values[i]) << 32 | i for i < n, in position order (the tail
// of the last 16 is padding); returns the smallest and largest key'.
template <class KeyFn>
HWY_INLINE void PackKeys(const uint32_t* values, size_t n, uint32_t flip, uint64_t* keys,
                         uint32_t* lo, uint32_t* hi, KeyFn key) {
  const D32 d;
  const hn::Half<D32> dh;
  const D64 d64;
  const V32 vflip = hn::Set(d, flip);
  V32 mn = hn::Set(d, ~0u), mx = hn::Zero(d);
  V64 pos = hn::Iota(d64, 0);
  const V64 step = hn::Set(d64, uint64_t{kLanes});
  auto store = [&](V32 k, size_t i) {
    const V64 k0 = hn::PromoteTo(d64, hn::LowerHalf(dh, k));
    const V64 k1 = hn::PromoteTo(d64, hn::UpperHalf(dh, k));
    hn::StoreU(hn::Or(hn::ShiftLeft<32>(k0), pos), d64, keys + i);
    pos = hn::Add(pos, step);
    hn::StoreU(hn::Or(hn::ShiftLeft<32>(k1), pos), d64, keys + i + kLanes);
    pos = hn::Add(pos, step);
  };
  size_t i = 0;
  for (; i + 2 * kLanes <= n; i += 2 * kLanes) {
    const V32 k = hn::Xor(key(d, hn::LoadU(d, values + i)), vflip);
    mn = hn::Min(mn, k);
    mx = hn::Max(mx, k);
    store(k, i);
  }
  if (i < n) {
    const auto m = hn::FirstN(d, n - i);
    const V32 k = hn::Xor(key(d, hn::MaskedLoad(m, d, values + i)), vflip);
    mn = hn::Min(mn, hn::IfThenElse(m, k, hn::Set(d, ~0u)));
    mx = hn::Max(mx, hn::IfThenElseZero(m, k));
    store(k, i);
  }
  *lo = hn::GetLane(hn::MinOfLanes(d, mn));
  *hi = hn::GetLane(hn::MaxOfLanes(d, mx));
}

// Step 3's bitonic networks, on the two blocks of kWindow = 4 lanes of a vector (AVX2:
// one block), as sort-inl.h's Network: on AVX2 over the keys with the top bit flipped,
// compared as signed.
struct Networks {
#if HWY_TARGET > HWY_AVX3
  using DK = hn::RebindToSigned<D64>;
#else
  using DK = D64;
#endif
  using VK = hn::Vec<DK>;
  using MK = hn::Mask<DK>;
  MK pairs;           // (k, j) = (2, 1): take the larger key where set
  MK lower2, upper2;  // lanes 0, 1 of each block, and lanes 2, 3
  MK upper1;          // (4, 1) and (4, 2): ascending, the larger key to the upper lane
  Networks() {
    const DK d;
    const VK iota = hn::Iota(d, 0);
    auto clear = [&](int64_t bit) { return hn::Eq(hn::And(iota, hn::Set(d, bit)), hn::Zero(d)); };
    lower2 = clear(2);
    upper2 = hn::Not(lower2);
    upper1 = hn::Not(clear(1));
    pairs = hn::Xor(upper1, upper2);
  }
  // Sorts each block of v (loaded from and stored to p).
  HWY_INLINE void Sort(uint64_t* p) const {
    Store(Merge(Stage<0>(Load(p), pairs)), p);
  }
  // Merges the two ascending halves of each block. (Reversing the upper half, lanes 2
  // and 3 swapped, makes the second run descending.)
  HWY_INLINE void MergeHalves(uint64_t* p) const {
    const VK v = Load(p);
    Store(Merge(hn::IfThenElse(lower2, v, hn::Shuffle01(v))), p);
  }

 private:
  // One compare-exchange stage between lanes l and l ^ (1 << kJb).
  template <int kJb>
  static HWY_INLINE VK Stage(VK v, MK take_max) {
    return sort_inl::HWY_NAMESPACE::Exchange<DK>(v, sort_inl::HWY_NAMESPACE::Partner(DK(), v, kJb),
                                                 take_max);
  }
  // Sorts each bitonic block.
  HWY_INLINE VK Merge(VK v) const {
    return Stage<0>(Stage<1>(v, upper2), upper1);
  }
#if HWY_TARGET > HWY_AVX3
  static VK Bias() {
    return hn::Set(DK(), std::numeric_limits<int64_t>::min());
  }
  static HWY_INLINE VK Load(const uint64_t* p) {
    return hn::Xor(hn::BitCast(DK(), hn::LoadU(D64(), p)), Bias());
  }
  static HWY_INLINE void Store(VK v, uint64_t* p) {
    hn::StoreU(hn::BitCast(D64(), hn::Xor(v, Bias())), D64(), p);
  }
#else
  static HWY_INLINE VK Load(const uint64_t* p) {
    return hn::LoadU(DK(), p);
  }
  static HWY_INLINE void Store(VK v, uint64_t* p) {
    hn::StoreU(v, DK(), p);
  }
#endif
};

// A bucket too large for the networks: sorted on its own, in registers up to 64 keys,
// else by vqsort unless it is already sorted (all equal keys, or sorted input, arrive in
// position order).
HWY_NOINLINE void SortBucket(uint64_t* p, size_t m) {
  if (m <= kMaxNetwork) return sort_inl::HWY_NAMESPACE::SortSmall(D64(), p, m);
  if (sort_inl::HWY_NAMESPACE::Monotone<true, 0>(D64(), p, m)) return;
  simd::sort_u64(p, m);
}

// Step 4: the value from key' (the inverse of sort_key) and the index from the position,
// 8 pairs at a time; out holds u32 pairs, i.e. one u64 per pair (value low, index high).
template <Dtype kDt>
HWY_INLINE void WritePairs(const uint64_t* keys, const uint32_t* values, size_t k, uint32_t flip,
                           uint32_t offset, uint32_t* out) {
  const D64 d;
  const D32 d32;
  const V64 low = hn::Set(d, 0xffffffffu), vflip = hn::Set(d, flip), voff = hn::Set(d, offset);
  const V64 sign = hn::Set(d, 0x80000000u);
  auto pairs = [&](V64 key, size_t at, size_t m) {
    const V64 pos = hn::And(key, low);
    const V64 kk = hn::Xor(hn::ShiftRight<32>(key), vflip);
    V64 value;
    if constexpr (kDt == Dtype::FP32) {
      // key' above the middle: +mag; below: -(middle - key'). The middle itself is ±0
      // and the top is any NaN: those are read from the source.
      value = hn::IfThenElse(hn::Gt(kk, sign), hn::Sub(kk, sign), hn::Or(hn::Sub(sign, kk), sign));
      // (Lanes past k hold padding, whose position is not one.)
      const auto ambiguous = hn::And(hn::Or(hn::Eq(kk, sign), hn::Eq(kk, low)), hn::FirstN(d, m));
      if (!hn::AllFalse(d, ambiguous)) {
#if HWY_TARGET <= HWY_AVX3
        // A masked gather of 32-bit values at 64-bit positions (no Highway op for it).
        const __m256i got =
            _mm512_mask_i64gather_epi32(_mm256_setzero_si256(), ambiguous.raw, pos.raw, values, 4);
        value = hn::IfThenElse(ambiguous, hn::PromoteTo(d, hn::Vec256<uint32_t>{got}), value);
#else
        // (AVX2's masked gather wants the mask in 32-bit lanes; four lanes read one by one.)
        HWY_ALIGN uint64_t v[kLanes], at[kLanes];
        HWY_ALIGN uint8_t bits[8];
        hn::Store(value, d, v);
        hn::Store(pos, d, at);
        hn::StoreMaskBits(d, ambiguous, bits);
        for (size_t l = 0; l < kLanes; ++l)
          if ((bits[0] >> l) & 1) v[l] = values[at[l]];
        value = hn::Load(d, v);
#endif
      }
    } else if constexpr (kDt == Dtype::INT32) {
      value = hn::Xor(kk, sign);
    } else {
      value = kk;
    }
    const V32 pair = hn::BitCast(d32, hn::Or(hn::ShiftLeft<32>(hn::Add(pos, voff)), value));
    if (m == kLanes)
      hn::StoreU(pair, d32, out + 2 * at);
    else
      hn::BlendedStore(pair, hn::FirstN(d32, 2 * m), d32, out + 2 * at);
  };
  size_t i = 0;
  for (; i + kLanes <= k; i += kLanes) pairs(hn::LoadU(d, keys + i), i, kLanes);
  if (i < k) {
    // The keys are padded to a multiple of 8.
    pairs(hn::LoadU(d, keys + i), i, k - i);
  }
}

// Step 2's scalar loops, unrolled with the loads first: count may alias index as far as
// the compiler knows.
HWY_INLINE void Histogram(const uint32_t* index, size_t n, uint32_t* count) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint32_t b0 = index[i], b1 = index[i + 1], b2 = index[i + 2], b3 = index[i + 3];
    ++count[b0];
    ++count[b1];
    ++count[b2];
    ++count[b3];
  }
  for (; i < n; ++i) ++count[index[i]];
}
HWY_INLINE void Scatter(const uint64_t* keys, const uint32_t* index, size_t n, uint32_t* count,
                        uint64_t* out) {
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const uint32_t b0 = index[i], b1 = index[i + 1], b2 = index[i + 2], b3 = index[i + 3];
    out[count[b0]++] = keys[i];
    out[count[b1]++] = keys[i + 1];
    out[count[b2]++] = keys[i + 2];
    out[count[b3]++] = keys[i + 3];
  }
  for (; i < n; ++i) out[count[index[i]]++] = keys[i];
}

#if HWY_TARGET <= HWY_AVX3
// Lanes moved up by kShift across the whole vector, zeros below.
template <int kShift>
HWY_INLINE V32 ShiftUpLanes(V32 v) {
  return V32{_mm512_alignr_epi32(v.raw, _mm512_setzero_si512(), 16 - kShift)};
}
#endif
// Inclusive prefix sums across all the lanes of x (Highway's lane shifts stay inside
// 128-bit blocks).
HWY_INLINE V32 PrefixLanes(V32 x) {
#if HWY_TARGET <= HWY_AVX3
  x = hn::Add(x, ShiftUpLanes<1>(x));
  x = hn::Add(x, ShiftUpLanes<2>(x));
  x = hn::Add(x, ShiftUpLanes<4>(x));
  return hn::Add(x, ShiftUpLanes<8>(x));
#else
  const D32 d;
  x = hn::Add(x, hn::ShiftLeftLanes<1>(d, x));
  x = hn::Add(x, hn::ShiftLeftLanes<2>(d, x));
  // The lower block's total added to the upper block.
  return hn::Add(x, hn::ConcatLowerLower(d, hn::Broadcast<3>(x), hn::Zero(d)));
#endif
}
// The last lane of x in every lane.
HWY_INLINE V32 LastLane(V32 x) {
#if HWY_TARGET <= HWY_AVX3
  return V32{_mm512_permutexvar_epi32(_mm512_set1_epi32(15), x.raw)};
#else
  const V32 b = hn::Broadcast<3>(x);
  return hn::ConcatUpperUpper(D32(), b, b);
#endif
}

// Exclusive prefix sums of count[0, buckets) in place, a vector of buckets a step (count
// is zero up to a multiple of 16). The buckets of more than kNetBucket keys go to `big` as
// (start, size); returns how many.
HWY_INLINE size_t PrefixSums(uint32_t* count, size_t buckets, uint32_t* big) {
  const D32 d;
  const V32 limit = hn::Set(d, kNetBucket);
  V32 carry = hn::Zero(d);
  size_t nbig = 0;
  for (size_t b = 0; b < buckets; b += kLanes32) {
    const V32 c = hn::LoadU(d, count + b);
    const V32 x = PrefixLanes(c);
    const V32 start = hn::Add(carry, hn::Sub(x, c));
    hn::StoreU(start, d, count + b);
    carry = hn::Add(carry, LastLane(x));
    const auto over = hn::Gt(c, limit);
    if (HWY_UNLIKELY(!hn::AllFalse(d, over))) {
      HWY_ALIGN uint32_t cs[kLanes32], ss[kLanes32];
      hn::Store(c, d, cs);
      hn::Store(start, d, ss);
      HWY_ALIGN uint8_t bits[8];
      hn::StoreMaskBits(d, over, bits);
      for (unsigned l = 0; l < kLanes32; ++l)
        if ((bits[l / 8] >> (l % 8)) & 1) {
          big[2 * nbig] = ss[l];
          big[2 * nbig + 1] = cs[l];
          ++nbig;
        }
    }
  }
  return nbig;
}

// The keys in buckets of more than kNetBucket keys.
HWY_INLINE size_t CrowdedKeys(const uint32_t* count, size_t buckets) {
  const D32 d;
  const V32 limit = hn::Set(d, kNetBucket);
  V32 sum = hn::Zero(d);
  for (size_t b = 0; b < buckets; b += kLanes32) {
    const V32 c = hn::LoadU(d, count + b);
    sum = hn::Add(sum, hn::IfThenElseZero(hn::Gt(c, limit), c));
  }
  return hn::GetLane(hn::SumOfLanes(d, sum));
}

// For skewed inputs (most keys in a few buckets), a second look: each bucket b of c > 1
// keys is split into 2^bit_width(c - 1) buckets by the key bits below its own, so that
// the refined buckets hold about one key each again. Replaces count[b] with the map
// entry first refined bucket << 5 | split bits; returns the number of refined buckets.
HWY_INLINE size_t RefineMap(uint32_t* count, size_t buckets) {
  const D32 d;
  const hn::RebindToSigned<D32> di;
  const hn::RebindToFloat<D32> df;
  V32 carry = hn::Zero(d);
  for (size_t b = 0; b < buckets; b += kLanes32) {
    const V32 c = hn::LoadU(d, count + b);
    // bit_width(c - 1) from the exponent of its exact float conversion (c <= 2^16).
    const V32 x = hn::Sub(hn::Max(c, hn::Set(d, 1u)), hn::Set(d, 1u));
    const V32 e = hn::ShiftRight<23>(hn::BitCast(d, hn::ConvertTo(df, hn::BitCast(di, x))));
    const V32 bits = hn::IfThenElseZero(hn::Gt(x, hn::Zero(d)), hn::Sub(e, hn::Set(d, 126u)));
    const V32 size = hn::IfThenElseZero(hn::Gt(c, hn::Zero(d)), hn::Set(d, 1u) << bits);
    const V32 sum = PrefixLanes(size);
    const V32 first = hn::Add(carry, hn::Sub(sum, size));
    hn::StoreU(hn::Or(hn::ShiftLeft<5>(first), bits), d, count + b);
    carry = hn::Add(carry, LastLane(sum));
  }
  return hn::GetLane(carry);
}
// index[i] becomes key i's refined bucket (see RefineMap), from its key and bucket.
HWY_INLINE void Refine(const uint64_t* keys, uint32_t* index, size_t n, const uint32_t* map,
                       uint64_t base, unsigned shift) {
  for (size_t i = 0; i < n; ++i) {
    const uint32_t m = map[index[i]];
    const unsigned bits = m & 31;
    const uint64_t sub = ((keys[i] - base) >> (shift - bits)) & ((uint64_t{1} << bits) - 1);
    index[i] = (m >> 5) + static_cast<uint32_t>(sub);
  }
}

// What 32 keys spread over the input say about a choice of buckets (bucket_of: packed
// key to bucket): `dominated` when one bucket holds about a quarter of the keys or more
// (the radix pass then loses to vqsort: the histogram's and the scatter's increments of
// that bucket's counter form one long dependency chain); `mixed`, how many neighbours
// in key order share a bucket but not key' (crowded buckets then hold different keys,
// which refining spreads; without any, crowded buckets are runs of equal keys, as with
// few distinct values, which the scatter leaves sorted).
struct Sample {
  bool dominated;
  unsigned mixed;
};
template <class BucketOf>
HWY_INLINE Sample SampleBuckets(const uint64_t* keys, size_t n, BucketOf bucket_of) {
  constexpr size_t kSamples = 32;
  HWY_ALIGN uint64_t b[kSamples];
  for (size_t i = 0; i < kSamples; ++i) b[i] = keys[i * n / kSamples];
  sort_inl::HWY_NAMESPACE::SortRegisters<kSamples / kLanes>(D64(), b, kSamples);
  constexpr size_t kRun = kSamples / 4;
  Sample r{false, 0};
  for (size_t i = 0; i + kRun <= kSamples; ++i)
    if (bucket_of(b[i]) == bucket_of(b[i + kRun - 1])) r.dominated = true;
  for (size_t i = 0; i + 1 < kSamples; ++i)
    if (bucket_of(b[i]) == bucket_of(b[i + 1]) && (b[i] >> 32) != (b[i + 1] >> 32)) ++r.mixed;
  return r;
}

// FP32 buckets linear in the value instead of key': floor((y - ymin) * scale), at most
// `last`, with y the value, negated for descending order. Monotone in key' (rounding is),
// so a bucket still holds a range of keys; for values spread evenly (uniform, and the
// middle of normal data) they crowd far less than key' buckets, whose width doubles with
// every octave of magnitude. Only for finite values (no NaN, no infinity).
struct Linear {
  float ymin, scale;
  uint32_t last, flip;
  // The value of key' (the inverse of sort_key; ±0 read as +0).
  static float Value(uint32_t key) {
    const uint32_t bits =
        key >= 0x80000000u ? key - 0x80000000u : 0x80000000u | (0x80000000u - key);
    return std::bit_cast<float>(bits);
  }
  float Y(uint32_t key) const {
    const float x = Value(key ^ flip);
    return flip ? -x : x;
  }
  uint32_t operator()(uint64_t key) const {
    const float t = (Y(static_cast<uint32_t>(key >> 32)) - ymin) * scale;
    return std::min(static_cast<uint32_t>(t), last);
  }
};

// Sorted input (key' never decreasing: +1) or strictly reverse-sorted input (key' always
// decreasing: -1), found from the values directly, before any key is packed; else 0.
template <class KeyFn>
HWY_INLINE int InputOrder(const uint32_t* values, size_t n, uint32_t flip, KeyFn key) {
  const D32 d;
  const V32 vflip = hn::Set(d, flip);
  constexpr size_t N = 2 * kLanes;
  bool up = true, down = true;
  size_t i = 0;
  for (; (up || down) && i + N + 1 <= n; i += N) {
    const V32 a = hn::Xor(key(d, hn::LoadU(d, values + i)), vflip);
    const V32 b = hn::Xor(key(d, hn::LoadU(d, values + i + 1)), vflip);
    up = up && hn::AllFalse(d, hn::Gt(a, b));
    down = down && hn::AllTrue(d, hn::Gt(a, b));
  }
  for (; (up || down) && i + 1 < n; ++i) {
    const uint32_t a = hn::GetLane(hn::Xor(key(d, hn::Set(d, values[i])), vflip));
    const uint32_t b = hn::GetLane(hn::Xor(key(d, hn::Set(d, values[i + 1])), vflip));
    up = up && a <= b;
    down = down && a > b;
  }
  return up ? 1 : down ? -1 : 0;
}

// The first k pairs of the values in position order (kReverse: in reverse position
// order), 8 at a time: value low, position + offset high.
template <bool kReverse>
HWY_INLINE void WriteInOrder(const uint32_t* values, size_t n, size_t k, uint32_t offset,
                             uint32_t* out) {
  const D64 d;
  const hn::Half<D32> dh;
  const D32 d32;
  // Positions + offset, a running vector (Iota at a varying start builds its lanes
  // through memory).
  const V64 step = hn::Set(d, kReverse ? uint64_t{0} - kLanes : uint64_t{kLanes});
  V64 pos = kReverse ? hn::Sub(hn::Set(d, uint64_t{n - 1} + offset), hn::Iota(d, 0))
                     : hn::Add(hn::Iota(d, 0), hn::Set(d, uint64_t{offset}));
  size_t i = 0;
  for (; i + kLanes <= k; i += kLanes) {
    const V64 value =
        kReverse ? hn::PromoteTo(d, hn::Reverse(dh, hn::LoadU(dh, values + n - i - kLanes)))
                 : hn::PromoteTo(d, hn::LoadU(dh, values + i));
    hn::StoreU(hn::BitCast(d32, hn::Or(hn::ShiftLeft<32>(pos), value)), d32, out + 2 * i);
    pos = hn::Add(pos, step);
  }
  for (; i < k; ++i) {
    const size_t p = kReverse ? n - 1 - i : i;
    out[2 * i] = values[p];
    out[2 * i + 1] = static_cast<uint32_t>(p) + offset;
  }
}

// Sorts the n packed keys in s.keys whose key' lie in [lo, hi]; returns where the sorted
// keys are (s.keys or s.tmp). fp32: the values are FP32 (value-linear buckets may be
// used). Compiled once per target for the three dtypes.
HWY_NOINLINE const uint64_t* SortKeys(bool fp32, const uint32_t* values, size_t n, uint32_t flip,
                                      uint32_t lo, uint32_t hi, const Scratch& s) {
  uint64_t* keys = s.keys;
  namespace si = sort_inl::HWY_NAMESPACE;
  const D64 d;
  // Input in reverse order with runs of equal keys: the runs (sort-inl.h).
  if (si::Monotone<false, 32>(d, keys, n)) {
    si::ReverseRuns<32>(d, keys, n, s.tmp, s.index);
    return s.tmp;
  }
  if (n <= kMaxNetwork) {
    si::SortSmall(d, keys, n);
    return keys;
  }
  if (n < kMinRadix) {
    simd::sort_u64(keys, n);
    return keys;
  }

  // Padding above every key sorts to the end and stays there. The networks run over
  // `span` keys, which leaves a block of the second pass for every key.
  const size_t span = (n + kLanes - 1) / kLanes * kLanes + kLanes;
  uint64_t* tmp = s.tmp;
  std::fill(tmp + n, tmp + span, ~uint64_t{0});
  // (All keys equal, lo == hi, is input in order: handled above.)
  // Step 2. The range of key' in bit_width(n - 1) + kExtraBucketBits bits.
  const unsigned bucket_bits = static_cast<unsigned>(std::bit_width(n - 1)) + kExtraBucketBits;
  const unsigned range_bits = static_cast<unsigned>(std::bit_width(hi - lo));
  const unsigned shift = 32 + (range_bits > bucket_bits ? range_bits - bucket_bits : 0);
  size_t buckets = ((uint64_t{hi} - lo) << 32 >> shift) + 1;
  // With shift 32 a bucket holds one key', its keys arrive in position order, and the
  // scatter leaves them sorted: nothing to refine, nor to sort after it.
  const bool exact = shift == 32;
  const uint64_t base64 = uint64_t{lo} << 32;
  Sample sample{false, 0};
  if (!exact)
    sample = SampleBuckets(keys, n, [&](uint64_t key) { return (key - base64) >> shift; });
  // FP32: value-linear buckets instead, when the sample finds them less crowded.
  bool linear = false;
  Linear lin{};
  if (fp32 && !exact && sample.mixed > 0) {
    lin.flip = flip;
    const float ymin = lin.Y(lo), ymax = lin.Y(hi);
    const float range = ymax - ymin;
    const size_t b = size_t{1} << bucket_bits;
    // A range of subnormals is so narrow that b / range overflows: then (y - ymin) * scale
    // is inf or, at ymin, 0 * inf = NaN, and neither converts to a bucket.
    const float scale = range > 0 ? static_cast<float>(b) / range : 0.0f;
    if (std::isfinite(ymin) && std::isfinite(ymax) && std::isfinite(range) && range > 0 &&
        std::isfinite(scale)) {
      lin.ymin = ymin;
      lin.scale = scale;
      lin.last = static_cast<uint32_t>(b - 1);
      const Sample ls = SampleBuckets(keys, n, lin);
      if (ls.mixed < sample.mixed) {
        linear = true;
        sample = ls;
        buckets = b;
      }
    }
  }
  if (sample.dominated) {
    simd::sort_u64(keys, n);
    return keys;
  }
  const D32 d32;
  uint32_t* index = s.index;
  if (linear) {
    const hn::RebindToFloat<D32> df;
    const hn::RebindToSigned<D32> di;
    const auto ymin = hn::Set(df, lin.ymin), scale = hn::Set(df, lin.scale);
    const V32 last = hn::Set(d32, lin.last);
    for (size_t i = 0; i < n; i += 2 * kLanes) {
      // (Lanes past n read as 0; their buckets are not used.)
      const V32 raw = i + 2 * kLanes <= n ? hn::LoadU(d32, values + i)
                                          : hn::MaskedLoad(hn::FirstN(d32, n - i), d32, values + i);
      auto y = hn::BitCast(df, raw);
      if (flip) y = hn::Neg(y);
      const auto t = hn::Mul(hn::Sub(y, ymin), scale);
      hn::StoreU(hn::Min(hn::BitCast(d32, hn::ConvertTo(di, t)), last), d32, index + i);
    }
  } else {
    const V64 base = hn::Set(d, base64);
    for (size_t i = 0; i < n; i += 2 * kLanes) {
      const V64 b0 =
          hn::ShiftRightSame(hn::Sub(hn::LoadU(d, keys + i), base), static_cast<int>(shift));
      const V64 b1 = hn::ShiftRightSame(hn::Sub(hn::LoadU(d, keys + i + kLanes), base),
                                        static_cast<int>(shift));
      hn::StoreU(hn::ConcatEven(d32, hn::BitCast(d32, b1), hn::BitCast(d32, b0)), d32, index + i);
    }
  }
  uint32_t* count = s.count;
  std::fill_n(count, (buckets + 15) / 16 * 16, 0u);
  Histogram(index, n, count);
  if (!linear && sample.mixed > 0 && CrowdedKeys(count, buckets) > n / 16) {
    const size_t refined = RefineMap(count, buckets);
    Refine(keys, index, n, count, uint64_t{lo} << 32, shift);
    buckets = refined;
    std::fill_n(count, (buckets + 15) / 16 * 16, 0u);
    Histogram(index, n, count);
  }
  const size_t nbig = PrefixSums(count, buckets, s.big);
  Scatter(keys, index, n, count, tmp);
  if (!exact) {
    for (size_t j = 0; j < nbig; ++j) SortBucket(tmp + s.big[2 * j], s.big[2 * j + 1]);
    // Step 3.
    const Networks net;
    for (size_t i = 0; i < span; i += kLanes) net.Sort(tmp + i);
    for (size_t i = kWindow / 2; i + kLanes <= span; i += kLanes) net.MergeHalves(tmp + i);
  }
  return tmp;
}

template <Dtype kDt>
void SortPairsT(bool descending, const uint32_t* values, size_t n, size_t k, uint32_t offset,
                uint32_t* out, const Scratch& s) {
  const uint32_t flip = descending ? ~0u : 0u;
  uint64_t* keys = s.keys;
  auto key = [](D32 d, V32 b) {
    if constexpr (kDt == Dtype::FP32)
      return Fp32Key(d, b);
    else if constexpr (kDt == Dtype::INT32)
      return hn::Xor(b, hn::Set(d, 0x80000000u));
    else
      return b;
  };
  // Input in order (sorted, all equal) or strictly reversed: written as it is.
  const int order = InputOrder(values, n, flip, key);
  if (order > 0) return WriteInOrder<false>(values, n, k, offset, out);
  if (order < 0) return WriteInOrder<true>(values, n, k, offset, out);
  uint32_t lo, hi;
  PackKeys(values, n, flip, keys, &lo, &hi, key);
  WritePairs<kDt>(SortKeys(kDt == Dtype::FP32, values, n, flip, lo, hi, s), values, k, flip, offset,
                  out);
}

#endif  // HWY_TARGET <= HWY_AVX2

// Returns false when this target leaves the sort to the vqsort path.
bool SortPairs(Dtype dt, bool descending, const uint32_t* values, size_t n, size_t k,
               uint32_t offset, uint32_t* out, const Scratch* s) {
#if HWY_TARGET <= HWY_AVX2
  switch (dt) {
    case Dtype::FP32:
      SortPairsT<Dtype::FP32>(descending, values, n, k, offset, out, *s);
      break;
    case Dtype::INT32:
      SortPairsT<Dtype::INT32>(descending, values, n, k, offset, out, *s);
      break;
    default:
      SortPairsT<Dtype::UINT32>(descending, values, n, k, offset, out, *s);
      break;
  }
  return true;
#else
  (void)dt, (void)descending, (void)values, (void)n, (void)k, (void)offset, (void)out, (void)s;
  return false;
#endif
}

}  // namespace gpsimd::kernels::sort32::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::kernels::sort32 {

HWY_EXPORT(SortPairs);

namespace {
thread_local std::vector<uint64_t> t_keys, t_tmp;
thread_local std::vector<uint32_t> t_index, t_count, t_big;
}  // namespace

void sort_pairs(Dtype dt, bool descending, const uint32_t* values, size_t n, size_t k,
                uint32_t offset, uint32_t* out) {
  const size_t padded = (n + 15) / 16 * 16;
  uint64_t* keys = scratch(t_keys, padded);
  Scratch s{keys, scratch(t_tmp, padded + 16), scratch(t_index, padded),
            scratch(t_count, std::max(2 * std::bit_ceil(std::max<size_t>(n, 2)), 2 * n) + 16),
            scratch(t_big, n + 32)};
  if (HWY_DYNAMIC_DISPATCH(SortPairs)(dt, descending, values, n, k, offset, out, &s)) return;
  // The vqsort path: small n, or a target without the networks.
  simd::pack_sort32(dt, descending, values, n, keys);
  for (size_t i = 0; i < k; ++i) {
    const uint32_t p = static_cast<uint32_t>(keys[i]);
    out[2 * i] = values[p];
    out[2 * i + 1] = p + offset;
  }
}

}  // namespace gpsimd::kernels::sort32
#endif  // HWY_ONCE
