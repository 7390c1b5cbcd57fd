// Sort of one channel of a 16-bit dtype (SPEC §4.4), for the N that one channel may hold
// beyond kernels/sort_network.cc's in-register runs (33 to 4096).
//
// The keys are the packed words of sort_network.h: key' << 16 | position, key' the value's
// sort_key (model.h) in 16 bits, inverted for descending order. They are unique, and
// sorting them by key' alone with a stable method keeps equal keys in position order,
// which is SPEC's order. With only 16 bits of key', a least-significant-digit radix
// sort does it in at most two stable counting passes, whatever the distribution:
//
//  1. Pack the words (vector loop) in position order, and count both bytes of key'
//     (one histogram pass for both).
//  2. Input already in order (key' never decreasing: sorted input, all equal) needs no
//     pass; input in strictly reverse order is reversed by vector. Other inputs of up to
//     16 vectors of words (256 with AVX-512, 128 with AVX2) are sorted in registers by a
//     bitonic network (sort-inl.h). Larger inputs in reverse order (key' never
//     increasing) are read backwards, each run of equal keys forwards (sort-inl.h).
//     Otherwise one stable scatter per byte of key', low byte
//     first; a byte that all keys share is skipped (a narrow range of values, few
//     distinct ones). Each scatter walks the four quarters of the input with their own
//     bucket cursors, four independent chains of counter increments, so that a
//     bucket that takes many keys in a row (long runs, few distinct values) does not
//     serialise the pass.
//  3. Write the pairs (vector loop): the value back from key' (sort_key is a bijection
//     except for ±0 and NaNs, which are read from the source), the index from the
//     position.
//
// Portable Highway code: every target runs the same passes (the scalar one without the
// network).
#include "kernels/sort16.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "kernels/walk_cursor.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/sort16.cc"
#include "common/simd_targets.h"  // IWYU pragma: keep
// clang-format off
#include "kernels/sort-inl.h"
// clang-format on

// Defined once, although foreach_target includes this file once per target.
#ifndef GPSIMD_KERNELS_SORT16_SCRATCH
#define GPSIMD_KERNELS_SORT16_SCRATCH
namespace gpsimd::kernels::sort16 {

// Per-thread scratch, grown by the dispatcher (HWY_ONCE part below) and handed to the
// per-target code, so a warm call allocates nothing.
struct Scratch {
  uint32_t* words;  // n packed words, padded by a vector
  uint32_t* tmp;    // as many
  uint32_t* count;  // 8 x 256 counters: (low, high byte) x quarters
  uint32_t* start;  // n: the start of each word's run, for reversed input
};

}  // namespace gpsimd::kernels::sort16
#endif

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::sort16::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using D = hn::ScalableTag<uint32_t>;
using V = hn::Vec<D>;

// The 16-bit sort_key (atoms/sort_key.h) of the dtype, on 32-bit lanes holding 16-bit
// patterns. kInf: the float's infinity pattern, 0 for the integers.
template <Dtype kDt>
HWY_INLINE V Key(D d, V b) {
  if constexpr (kDt == Dtype::UINT16) {
    return b;
  } else if constexpr (kDt == Dtype::INT16) {
    return hn::Xor(b, hn::Set(d, 0x8000u));
  } else {
    constexpr uint32_t kInf = kDt == Dtype::FP16 ? 0x7c00u : 0x7f80u;
    const V mid = hn::Set(d, 0x8000u);
    const V mag = hn::And(b, hn::Set(d, 0x7fffu));
    const V k = hn::IfThenElse(hn::TestBit(b, mid), hn::Sub(mid, mag), hn::Add(mid, mag));
    return hn::IfThenElse(hn::Gt(mag, hn::Set(d, kInf)), hn::Set(d, 0xffffu), k);
  }
}

// Step 1: words[i] = key'(values[i]) << 16 | i.
template <Dtype kDt>
HWY_INLINE void PackWords(const uint16_t* values, size_t n, uint32_t flip, uint32_t* words) {
  const D d;
  const hn::Rebind<uint16_t, D> d16;
  const size_t N = hn::Lanes(d);
  const V vflip = hn::Set(d, flip);
  V pos = hn::Iota(d, 0);
  const V step = hn::Set(d, static_cast<uint32_t>(N));
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const V key = hn::Xor(Key<kDt>(d, hn::PromoteTo(d, hn::LoadU(d16, values + i))), vflip);
    hn::StoreU(hn::Or(hn::ShiftLeft<16>(key), pos), d, words + i);
    pos = hn::Add(pos, step);
  }
  for (; i < n; ++i) {
    const V key = hn::Xor(Key<kDt>(d, hn::Set(d, uint32_t{values[i]})), vflip);
    words[i] = (hn::GetLane(key) << 16) | static_cast<uint32_t>(i);
  }
}

// The words split in four quarters (the last takes the remainder): four independent
// chains of counter increments in the histograms and the scatters, so that a bucket that
// takes many keys in a row (long runs, few distinct values, a crowded high byte) does not
// serialise a pass on the store-to-load latency of one counter.
constexpr size_t kParts = 4;

HWY_INLINE size_t PartSize(size_t n) {
  return n / kParts;
}

// The histograms of both bytes of key' for each quarter of the words (count[512 q + v]:
// low byte of quarter q; count[512 q + 256 + v]: its high byte).
HWY_INLINE void Histograms(const uint32_t* words, size_t n, uint32_t* count) {
  std::fill_n(count, 512 * kParts, 0u);
  const size_t h = PartSize(n);
  for (size_t i = 0; i < h; ++i) {
    for (size_t q = 0; q < kParts; ++q) {
      const uint32_t w = words[q * h + i];
      ++count[512 * q + ((w >> 16) & 0xff)];
      ++count[512 * q + 256 + (w >> 24)];
    }
  }
  uint32_t* last = count + 512 * (kParts - 1);
  for (size_t j = kParts * h; j < n; ++j) {
    const uint32_t w = words[j];
    ++last[(w >> 16) & 0xff];
    ++last[256 + (w >> 24)];
  }
}

// One stable counting pass on the byte of key' at bit `shift` (16 or 24) of the words:
// quarter q of src from the bucket starts plus the counts of the quarters before it.
// cnt[q]: the byte's histogram of quarter q.
HWY_INLINE void Scatter(const uint32_t* src, size_t n, unsigned shift, const uint32_t* const* cnt,
                        uint32_t* dst) {
  uint32_t cur[kParts][256];
  uint32_t sum = 0;
  for (unsigned v = 0; v < 256; ++v)
    for (size_t q = 0; q < kParts; ++q) {
      cur[q][v] = sum;
      sum += cnt[q][v];
    }
  const size_t h = PartSize(n);
  // The quarters interleaved: independent chains of increments.
  for (size_t i = 0; i < h; ++i) {
    for (size_t q = 0; q < kParts; ++q) {
      const uint32_t w = src[q * h + i];
      dst[cur[q][(w >> shift) & 0xff]++] = w;
    }
  }
  for (size_t i = kParts * h; i < n; ++i) {
    const uint32_t w = src[i];
    dst[cur[kParts - 1][(w >> shift) & 0xff]++] = w;
  }
}

// Step 3: the pairs of words[0, k), `N` at a time; out holds u16 pairs, i.e. one u32 per
// pair (value low, index high).
template <Dtype kDt>
HWY_INLINE void WritePairs(const uint32_t* words, const uint16_t* values, size_t k, uint32_t flip,
                           uint16_t offset, uint16_t* out) {
  const D d;
  const size_t N = hn::Lanes(d);
  const V low = hn::Set(d, 0xffffu), vflip = hn::Set(d, flip), voff = hn::Set(d, offset);
  const V mid = hn::Set(d, 0x8000u);
  auto pairs = [&](const uint32_t* w, uint32_t* o, size_t m) {
    const V word = hn::LoadU(d, w);
    const V pos = hn::And(word, low);
    const V key = hn::Xor(hn::ShiftRight<16>(word), vflip);
    V value;
    if constexpr (kDt == Dtype::UINT16) {
      value = key;
    } else if constexpr (kDt == Dtype::INT16) {
      value = hn::Xor(key, mid);
    } else {
      // key' above the middle: +mag; below: -(middle - key'). The middle itself is ±0 and
      // the top is any NaN: those are read from the source.
      value = hn::IfThenElse(hn::Gt(key, mid), hn::Sub(key, mid), hn::Or(hn::Sub(mid, key), mid));
      const auto ambiguous = hn::Or(hn::Eq(key, mid), hn::Eq(key, low));
      if (!hn::AllFalse(d, ambiguous)) {
        HWY_ALIGN uint32_t p[hn::MaxLanes(D())], v[hn::MaxLanes(D())];
        hn::Store(pos, d, p);
        hn::Store(value, d, v);
        for (size_t l = 0; l < m; ++l) {
          const uint32_t kk = (w[l] >> 16) ^ flip;
          if (kk == 0x8000u || kk == 0xffffu) v[l] = values[p[l]];
        }
        value = hn::Load(d, v);
      }
    }
    const V pair = hn::Or(hn::ShiftLeft<16>(hn::Add(pos, voff)), value);
    if (m == N) {
      hn::StoreU(pair, d, o);
    } else {
      HWY_ALIGN uint32_t tail[hn::MaxLanes(D())];
      hn::Store(pair, d, tail);
      std::memcpy(o, tail, m * sizeof(uint32_t));
    }
  };
  // Pairs are 4-byte units; out may be only 2-byte aligned, so stores are unaligned and
  // addressed through memcpy-safe uint32_t lanes (StoreU).
  uint32_t* o = reinterpret_cast<uint32_t*>(out);
  size_t i = 0;
  for (; i + N <= k; i += N) pairs(words + i, o + i, N);
  if (i < k) pairs(words + i, o + i, k - i);  // the words are padded by a vector
}

// Step 2 on the n packed words: returns where the sorted words are (s.words or s.tmp).
// The same for every dtype, so compiled once per target rather than once per dtype.
HWY_NOINLINE const uint32_t* SortWords(size_t n, const Scratch& s) {
  uint32_t* words = s.words;
  namespace si = sort_inl::HWY_NAMESPACE;
  if (n <= 1 || si::Monotone<true, 16>(D(), words, n)) return words;
  uint32_t* tmp = s.tmp;
  const bool reversed = si::Monotone<false, 16>(D(), words, n);
#if HWY_TARGET != HWY_SCALAR
  if (n <= si::MaxKeys<uint32_t>()) {
    if (reversed && si::ReverseStrict<16>(D(), words, n, tmp)) return tmp;
    si::SortSmall(D(), words, n);
    return words;
  }
#endif
  if (reversed) {
    si::ReverseRuns<16>(D(), words, n, tmp, s.start);
    return tmp;
  }
  uint32_t* count = s.count;
  Histograms(words, n, count);
  bool moved = false;
  for (unsigned byte = 0; byte < 2; ++byte) {
    const uint32_t* cnt[kParts];
    for (size_t q = 0; q < kParts; ++q) cnt[q] = count + 512 * q + 256 * byte;
    const unsigned shift = 16 + 8 * byte;
    const uint32_t any = (words[0] >> shift) & 0xff;
    size_t with_any = 0;
    for (size_t q = 0; q < kParts; ++q) with_any += cnt[q][any];
    if (with_any == n) continue;  // every key has this byte
    if (moved) {
      // The quarters hold other keys now: count them again (the last one from the
      // totals).
      uint32_t* last = count + 512 * (kParts - 1) + 256 * byte;
      for (size_t q = 0; q + 1 < kParts; ++q)
        for (unsigned v = 0; v < 256; ++v) last[v] += count[512 * q + 256 * byte + v];
      const size_t h = PartSize(n);
      uint32_t* c[kParts - 1];
      for (size_t q = 0; q + 1 < kParts; ++q) {
        c[q] = count + 512 * q + 256 * byte;
        std::fill_n(c[q], 256, 0u);
      }
      // Interleaved, as Histograms: independent chains of increments.
      for (size_t j = 0; j < h; ++j)
        for (size_t q = 0; q + 1 < kParts; ++q) ++c[q][words[q * h + j] >> shift];
      for (size_t q = 0; q + 1 < kParts; ++q)
        for (unsigned v = 0; v < 256; ++v) last[v] -= c[q][v];
    }
    Scatter(words, n, shift, cnt, tmp);
    std::swap(words, tmp);
    moved = true;
  }
  return words;
}

template <Dtype kDt>
void SortPairsT(bool descending, const uint16_t* values, size_t n, size_t k, uint16_t offset,
                uint16_t* out, const Scratch& s) {
  const uint32_t flip = descending ? 0xffffu : 0u;
  PackWords<kDt>(values, n, flip, s.words);
  WritePairs<kDt>(SortWords(n, s), values, k, flip, offset, out);
}

void SortPairs(Dtype dt, bool descending, const uint16_t* values, size_t n, size_t k,
               uint16_t offset, uint16_t* out, const Scratch* s) {
  switch (dt) {
    case Dtype::FP16:
      return SortPairsT<Dtype::FP16>(descending, values, n, k, offset, out, *s);
    case Dtype::BF16:
      return SortPairsT<Dtype::BF16>(descending, values, n, k, offset, out, *s);
    case Dtype::INT16:
      return SortPairsT<Dtype::INT16>(descending, values, n, k, offset, out, *s);
    default:
      return SortPairsT<Dtype::UINT16>(descending, values, n, k, offset, out, *s);
  }
}

}  // namespace gpsimd::kernels::sort16::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::kernels::sort16 {

HWY_EXPORT(SortPairs);

namespace {
thread_local std::vector<uint32_t> t_words, t_tmp, t_count, t_start;
}  // namespace

void sort_pairs(Dtype dt, bool descending, const uint16_t* values, size_t n, size_t k,
                uint16_t offset, uint16_t* out) {
  // Padded by the widest vector (16 lanes of 32 bits).
  const Scratch s{scratch(t_words, n + 16), scratch(t_tmp, n + 16), scratch(t_count, 2048),
                  scratch(t_start, n + 16)};
  HWY_DYNAMIC_DISPATCH(SortPairs)(dt, descending, values, n, k, offset, out, &s);
}

}  // namespace gpsimd::kernels::sort16
#endif  // HWY_ONCE
