// What Sort's channel kernels (sort16.cc, sort32.cc) share, on packed words whose key'
// is the bits from kShift up and whose position is below: the checks for input already
// in order or in reverse order, and bitonic sorting networks over keys held in vector
// registers: kR vectors of unsigned keys (32- or 64-bit lanes), kR
// times the lane count a power of two, sorted ascending across all the lanes of all the
// vectors, the whole network unrolled. Per-target code: include it after
// hwy/highway.h, as Highway's own *-inl.h headers.
//
// Stage (k, j) of Batcher's bitonic sort compares key e with key e ^ j; the pair is
// ascending when e & k is 0, and the lower key e (e & j == 0) keeps the smaller one
// there. With N lanes a vector, key e = r * N + l is lane l of vector r: for j >= N the
// partners are whole vectors (one Min and one Max for two vectors); for j < N the
// partner is a lane of the same vector (a table lookup, then Min, Max and a blend).

#if defined(GPSIMD_KERNELS_SORT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef GPSIMD_KERNELS_SORT_INL_H_
#undef GPSIMD_KERNELS_SORT_INL_H_
#else
#define GPSIMD_KERNELS_SORT_INL_H_
#endif

#include <hwy/highway.h>

#include <array>
#include <bit>
#include <cstddef>
#include <limits>

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::sort_inl::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// True when key' (the bits from kShift up) never decreases (kAscending) or never
// increases along words[0, n).
template <bool kAscending, int kShift, class D, class T = hn::TFromD<D>>
HWY_INLINE bool Monotone(D d, const T* words, size_t n) {
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N + 1 <= n; i += N) {
    const auto a = hn::ShiftRight<kShift>(hn::LoadU(d, words + i));
    const auto b = hn::ShiftRight<kShift>(hn::LoadU(d, words + i + 1));
    if (!hn::AllFalse(d, kAscending ? hn::Gt(a, b) : hn::Lt(a, b))) return false;
  }
  for (; i + 1 < n; ++i) {
    const T a = words[i] >> kShift, b = words[i + 1] >> kShift;
    if (kAscending ? a > b : a < b) return false;
  }
  return true;
}

// How many neighbours in words[0, n) have equal key'.
template <int kShift, class D, class T = hn::TFromD<D>>
HWY_INLINE size_t EqualNeighbours(D d, const T* words, size_t n) {
  const size_t N = hn::Lanes(d);
  size_t count = 0, i = 0;
  for (; i + N + 1 <= n; i += N) {
    const auto a = hn::ShiftRight<kShift>(hn::LoadU(d, words + i));
    const auto b = hn::ShiftRight<kShift>(hn::LoadU(d, words + i + 1));
    count += hn::CountTrue(d, hn::Eq(a, b));
  }
  for (; i + 1 < n; ++i) count += (words[i] >> kShift) == (words[i + 1] >> kShift);
  return count;
}

// out = words reversed, a vector at a time.
template <class D, class T = hn::TFromD<D>>
HWY_INLINE void ReverseWords(D d, const T* words, size_t n, T* out) {
  const size_t N = hn::Lanes(d);
  size_t o = 0;
  for (; o + N <= n; o += N)
    hn::StoreU(hn::Reverse(d, hn::LoadU(d, words + n - o - N)), d, out + o);
  for (; o < n; ++o) out[o] = words[n - 1 - o];
}

// The words reversed when no two neighbours have equal key' (returns true), else
// nothing (false).
template <int kShift, class D, class T = hn::TFromD<D>>
HWY_INLINE bool ReverseStrict(D d, const T* words, size_t n, T* out) {
  if (EqualNeighbours<kShift>(d, words, n) != 0) return false;
  ReverseWords(d, words, n, out);
  return true;
}

// The sorted order of words whose key' never increases: the runs of equal key' from the
// last to the first, each in position order. Without two equal neighbours that is the
// words reversed. With a few, the words are reversed a vector at a time where a vector
// (and the word before it) holds no two equal neighbours, else one run at a time. With
// many, word p goes to n - end(p) + p - start(p), with [start(p), end(p)) its run (the
// later runs' keys are smaller and come first): `start` (n entries of scratch) from a
// forward pass, `end` on the way back, both branch-free, whatever the lengths of the
// runs.
template <int kShift, class D, class T = hn::TFromD<D>>
HWY_INLINE void ReverseRuns(D d, const T* words, size_t n, T* out, uint32_t* start) {
  const size_t equal = EqualNeighbours<kShift>(d, words, n);
  if (equal == 0) return ReverseWords(d, words, n, out);
  const size_t N = hn::Lanes(d);
  if (equal * 4 * N < n) {
    size_t o = 0, end = n;  // words[end, n) are done; `end` starts a run
    while (end > 0) {
      if (end > N) {
        const auto a = hn::ShiftRight<kShift>(hn::LoadU(d, words + end - N - 1));
        const auto v = hn::LoadU(d, words + end - N);
        if (hn::AllFalse(d, hn::Eq(a, hn::ShiftRight<kShift>(v)))) {
          hn::StoreU(hn::Reverse(d, v), d, out + o);
          o += N;
          end -= N;
          continue;
        }
      }
      size_t first = end - 1;
      const T key = words[first] >> kShift;
      while (first > 0 && (words[first - 1] >> kShift) == key) --first;
      for (size_t j = first; j < end; ++j) out[o++] = words[j];
      end = first;
    }
    return;
  }
  // Selections by mask, not branches: run boundaries follow the data.
  auto differ = [&](size_t a, size_t b) -> uint32_t {
    return 0u - static_cast<uint32_t>((words[a] >> kShift) != (words[b] >> kShift));
  };
  uint32_t s = 0;
  start[0] = 0;
  for (size_t p = 1; p < n; ++p) {
    const uint32_t m = differ(p, p - 1);
    s = (s & ~m) | (static_cast<uint32_t>(p) & m);
    start[p] = s;
  }
  uint32_t end = static_cast<uint32_t>(n);
  out[(n - 1) - start[n - 1]] = words[n - 1];
  for (size_t p = n - 1; p-- > 0;) {
    const uint32_t m = differ(p, p + 1);
    end = (end & ~m) | (static_cast<uint32_t>(p + 1) & m);
    out[n - end + p - start[p]] = words[p];
  }
}

#if HWY_TARGET != HWY_SCALAR  // the network needs lanes to cross

// Lane l's partner l ^ 2^b, for every 2^b below the lane count of D.
template <class D>
struct PartnerTable {
  using TI = hn::TFromD<hn::RebindToSigned<D>>;
  static constexpr size_t kN = HWY_LANES(hn::TFromD<D>);
  HWY_ALIGN static constexpr auto kTable = [] {
    std::array<std::array<TI, kN>, 8> t{};
    for (size_t b = 0; (size_t{1} << b) < kN; ++b)
      for (size_t l = 0; l < kN; ++l) t[b][l] = static_cast<TI>(l ^ (size_t{1} << b));
    return t;
  }();
};

// Lane l of v moved to lane l ^ 2^jb (2^jb < N): a shuffle within 128-bit blocks, a swap
// of neighbouring blocks or of the two halves where the pattern is one of those (one
// instruction with less latency than a table lookup across the vector), else the table
// lookup. jb is a constant once Network's loops are unrolled, and so is the choice.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V Partner(D d, V v, size_t jb) {
  using T = hn::TFromD<D>;
  constexpr size_t N = HWY_LANES(T);
  const size_t bytes = sizeof(T) << jb;
  if constexpr (sizeof(T) == 4) {
    if (bytes == 4) return hn::Shuffle2301(v);
    if (bytes == 8) return hn::Shuffle1032(v);
  } else {
    if (bytes == 8) return hn::Shuffle01(v);
  }
  if (bytes == 16 && N * sizeof(T) >= 32) return hn::SwapAdjacentBlocks(v);
  if (2 * (size_t{1} << jb) == N) return hn::ConcatLowerUpper(d, v, v);
  return hn::TableLookupLanes(v, hn::SetTableIndices(d, PartnerTable<D>::kTable[jb].data()));
}

// One compare-exchange of the lanes of v with their partners p: where take_max is false
// the smaller key of the pair stays, else the larger. AVX2 has no 64-bit Min or Max
// (Highway builds each from a comparison and a blend, unsigned ones also bias both
// operands): one comparison then picks v or p, v where v > p is take_max.
template <class D, class V = hn::Vec<D>, class M = hn::Mask<D>>
HWY_INLINE V Exchange(V v, V p, M take_max) {
#if HWY_TARGET > HWY_AVX3
  if constexpr (sizeof(hn::TFromD<D>) == 8)
    return hn::IfThenElse(hn::Xor(hn::Gt(v, p), take_max), p, v);
  else
#endif
    return hn::IfThenElse(take_max, hn::Max(v, p), hn::Min(v, p));
}

// Sorts the kR * N keys of v[0, kR) ascending (lane order within a vector, then vector
// order).
template <size_t kR, class D, class V = hn::Vec<D>>
HWY_INLINE void Network(D d, V* v) {
  using T = hn::TFromD<D>;
#if HWY_TARGET > HWY_AVX3
  // AVX2 compares 64-bit lanes as signed only: unsigned keys with the top bit flipped
  // keep their order as signed ones, which saves the bias of every comparison.
  if constexpr (sizeof(T) == 8 && !hwy::IsSigned<T>()) {
    const hn::RebindToSigned<D> di;
    using VI = hn::Vec<decltype(di)>;
    const VI top = hn::Set(di, std::numeric_limits<int64_t>::min());
    VI w[kR];
#pragma GCC unroll 16
    for (size_t r = 0; r < kR; ++r) w[r] = hn::Xor(hn::BitCast(di, v[r]), top);
    Network<kR>(di, w);
#pragma GCC unroll 16
    for (size_t r = 0; r < kR; ++r) v[r] = hn::BitCast(d, hn::Xor(w[r], top));
    return;
  }
#endif
  constexpr size_t N = HWY_LANES(T);
  constexpr size_t kTotal = kR * N;
  static_assert(std::has_single_bit(kTotal), "a power of two keys");
  const V iota = hn::Iota(d, 0);
  auto bit_clear = [&](size_t bit) {
    return hn::Eq(hn::And(iota, hn::Set(d, static_cast<T>(bit))), hn::Zero(d));
  };
  constexpr size_t kLog = static_cast<size_t>(std::countr_zero(kTotal));
  // Unrolled by request: GCC keeps some of these loops otherwise, and the vectors then
  // live on the stack. (Counted loops over exponents: GCC does not unroll shifting ones.)
#pragma GCC unroll 16
  for (size_t kb = 1; kb <= kLog; ++kb) {
    const size_t k = size_t{1} << kb;
#pragma GCC unroll 16
    for (size_t jb = kb; jb-- > 0;) {
      const size_t j = size_t{1} << jb;
      if (j >= N) {
        const size_t jv = j / N;
#pragma GCC unroll 16
        for (size_t r = 0; r < kR; ++r) {
          const size_t p = r ^ jv;
          if (p < r) continue;
          const V lo = hn::Min(v[r], v[p]), hi = hn::Max(v[r], v[p]);
          const bool asc = ((r * N) & k) == 0;
          v[r] = asc ? lo : hi;
          v[p] = asc ? hi : lo;
        }
        continue;
      }
      const auto lower = bit_clear(j);
      // k < N: the direction changes inside a vector.
      const auto take_min = k < N ? hn::Not(hn::Xor(lower, bit_clear(k))) : lower;
      const auto take_max = hn::Not(take_min);
#pragma GCC unroll 16
      for (size_t r = 0; r < kR; ++r) {
        const V partner = Partner(d, v[r], jb);
        const bool up = k < N || ((r * N) & k) == 0;
        v[r] = Exchange<D>(v[r], partner, up ? take_max : take_min);
      }
    }
  }
}

// Sorts p[0, m) ascending, m <= kR * lanes, through kR registers; lanes past m hold
// all-ones keys, which must sort last (packed keys never reach all ones: their
// position bits never do).
template <size_t kR, class D, class T = hn::TFromD<D>>
HWY_INLINE void SortRegisters(D d, T* p, size_t m) {
  constexpr size_t N = HWY_LANES(T);
  const hn::Vec<D> pad = hn::Set(d, static_cast<T>(~T{0}));
  hn::Vec<D> v[kR];
#pragma GCC unroll 16
  for (size_t r = 0; r < kR; ++r) {
    const size_t at = r * N;
    if (at + N <= m) {
      v[r] = hn::LoadU(d, p + at);
    } else if (at < m) {
      const auto mask = hn::FirstN(d, m - at);
      v[r] = hn::IfThenElse(mask, hn::MaskedLoad(mask, d, p + at), pad);
    } else {
      v[r] = pad;
    }
  }
  Network<kR>(d, v);
#pragma GCC unroll 16
  for (size_t r = 0; r < kR; ++r) {
    const size_t at = r * N;
    if (at + N <= m)
      hn::StoreU(v[r], d, p + at);
    else if (at < m)
      hn::BlendedStore(v[r], hn::FirstN(d, m - at), d, p + at);
  }
}

// The most keys Sort sorts in registers: 16 vectors, which leaves registers for the
// network's temporaries with AVX-512's 32 (AVX2's 16 spill some; still faster than
// the alternatives measured at these sizes).
template <class T>
constexpr size_t MaxKeys() {
  return 16 * HWY_LANES(T);
}

// Sorts p[0, m) ascending in registers, m <= MaxKeys<T>(), with the fewest vectors
// that hold m keys.
template <class D, class T = hn::TFromD<D>>
HWY_INLINE void SortSmall(D d, T* p, size_t m) {
  constexpr size_t N = HWY_LANES(T);
  if (m <= N) return SortRegisters<1>(d, p, m);
  if (m <= 2 * N) return SortRegisters<2>(d, p, m);
  if (m <= 4 * N) return SortRegisters<4>(d, p, m);
  if (m <= 8 * N) return SortRegisters<8>(d, p, m);
  return SortRegisters<16>(d, p, m);
}

#endif  // HWY_TARGET != HWY_SCALAR

}  // namespace gpsimd::kernels::sort_inl::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // include guard
