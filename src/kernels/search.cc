// Fast paths of the DVE search instructions (SPEC §4.8-§4.10). Max8 scans a lane's
// elements once against a gate, the smallest key that could still change its top 8
// (found first from the maxima of groups of a prefix, then raised by every insertion):
// a vector with no element at the gate, the common case, costs a compare; the rare
// passing elements are inserted in scalar code. BF16 compares in 16 bits. FindIndex8
// and MatchReplace8 compare a block against every open match value at once and leave
// the rare matches to the scalar match core.
// Compiled once per SIMD target (Highway's foreach_target) and dispatched at run time.
#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <vector>

#include "atoms/match_core.h"
#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "kernels/kernels.h"
#include "kernels/walk_cursor.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/search.cc"
#include "common/simd_targets.h"  // IWYU pragma: keep
// clang-format off
#include "kernels/convert-inl.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::search::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Inserts `key` into top[0..8) (ascending; top[0] is the threshold) when it passes it.
inline void Insert(uint32_t* top, uint32_t key) {
  if (key <= top[0]) return;
  unsigned i = 0;
  while (i + 1 < 8 && top[i + 1] < key) {
    top[i] = top[i + 1];
    ++i;
  }
  top[i] = key;
}

// An FP32 pattern's order key (model.h's max8_order_key; 0 for a NaN) and back.
using simd::bits_to_max_key;
using simd::max_key_to_bits;

// -inf's key: the keys below it are NaNs'.
constexpr uint32_t kNegInfKey = model::max8_order_key(0xff800000u);

// The smallest key an element needs to change top[0..8): above top[0] once it is full,
// and at least `bound` (a key that at least 8 elements of the stream reach).
inline uint32_t Gate(const uint32_t* top, uint32_t bound) {
  const uint32_t g = std::max(bound, kNegInfKey);
  return top[0] != 0 ? std::max(g, top[0] + 1) : g;
}

// A stream of n elements is scanned once against the gate: a vector with no element at
// or above it, the common case, costs a compare; the rare passing elements are inserted
// in scalar code, which raises the gate. To start with a high gate rather than -inf, a
// first pass over a prefix takes the maxima of kGroups groups of elements (kGroups / N
// vectors of group maxima). Grouped by four, they give the maxima of 8 disjoint sets of
// elements; the smallest of those is reached by at least 8 elements, so no element below
// it is among the 8 largest (a little lower than the 8th largest group maximum, which
// std::nth_element found at three times the cost).
constexpr size_t kGroups = 32;
constexpr size_t kPrefix = 1024;

template <typename T>
T LowerBound8(const T* g) {
  T b = std::max(std::max(g[0], g[1]), std::max(g[2], g[3]));
  for (size_t k = 4; k < kGroups; k += 4)
    b = std::min(b, std::max(std::max(g[k], g[k + 1]), std::max(g[k + 2], g[k + 3])));
  return b;
}

// Calls hit(j) for each set lane j of `m` (at most 64 lanes).
template <class D, class M, class F>
HWY_INLINE void ForEachLane(D d, M m, F&& hit) {
  uint8_t bytes[8] = {};
  hn::StoreMaskBits(d, m, bytes);
  uint64_t bits;
  std::memcpy(&bits, bytes, 8);
  for (; bits != 0; bits &= bits - 1) hit(static_cast<size_t>(__builtin_ctzll(bits)));
}

// Calls hit(j) for each set lane j of `m0` and hit(N + j) for each of `m1` (N lanes
// each, 2N at most 64), in one loop: one loop exit to mispredict rather than two.
template <class D, class M, class F>
HWY_INLINE void ForEachLane2(D d, M m0, M m1, F&& hit) {
  constexpr size_t N = hn::MaxLanes(d);
  static_assert(2 * N <= 64);
  uint8_t b0[8] = {}, b1[8] = {};
  hn::StoreMaskBits(d, m0, b0);
  hn::StoreMaskBits(d, m1, b1);
  uint64_t lo, hi;
  std::memcpy(&lo, b0, 8);
  std::memcpy(&hi, b1, 8);
  for (uint64_t bits = lo | hi << N; bits != 0; bits &= bits - 1)
    hit(static_cast<size_t>(__builtin_ctzll(bits)));
}

// Rows on which the gate keeps letting most of a test's lanes through (ascending ones:
// every element raises it) stop paying a mispredicted branch and a scalar insertion per
// element: after kCrowdedRun such tests in a row, with at least kLaneRowMin elements
// left, the rest of the row goes to LaneTop8, and so do the row's later chunks of at
// least kLaneRowMin elements (`*crowded`, kept by the caller across a row's chunks).
// Random rows pass a test with a lane or two at a time, and keep the gate.
constexpr size_t kCrowdedRun = 2;
constexpr size_t kLaneRowMin = 1024;

// After a passing test of `lanes` lanes (two vectors), `passed` of them through, with
// `left` elements from the test on: whether the row goes to LaneTop8 now. `run` counts
// the crowded tests in a row (a test that passes nothing resets it too).
HWY_INLINE bool Crowded(size_t& run, size_t passed, size_t lanes, size_t left) {
  run = 2 * passed >= lanes ? run + 1 : 0;
  return run >= kCrowdedRun && left >= kLaneRowMin;
}

// The rest of a row, elements [i, n) less the last partial vector: a top 8 per vector
// lane, r0 the largest, each vector of order keys (`key(i)`; a NaN's key is below every
// number's and below `below()`) inserted into its lanes by a chain of eight Max/Min
// pairs, without a branch (while the row ascends, by a shift of the chain). The union of
// the lanes' top 8s holds the row's. They are then handed to `put` (the scalar
// insertion), r0 first, only the lanes above `below()` (a key no larger than the
// smallest that can still change the top 8); once no lane of an r<k> is, none of the
// later ones is either. Returns where the vectors stopped.
template <class D, class KeyFn, class BelowFn, class PutFn>
HWY_INLINE size_t LaneTop8(D d, size_t i, size_t n, KeyFn key, BelowFn below, PutFn put) {
  using V = hn::Vec<D>;
  using T = hn::TFromD<D>;
  constexpr size_t N = hn::MaxLanes(d);
  // Eight named vectors rather than an array, which GCC keeps in memory.
  V r0 = hn::Zero(d), r1 = r0, r2 = r0, r3 = r0, r4 = r0, r5 = r0, r6 = r0, r7 = r0;
  auto step = [](V& x, V& v) HWY_ATTR {
    const V hi = hn::Max(x, v);
    v = hn::Min(x, v);
    x = hi;
  };
  // A vector at or above every lane's largest (each vector of an ascending row) only
  // shifts the chain; the first one that is not ends the shortcut for the rest of these
  // elements, so that rows which only trend upwards do not pay the test.
  for (; i + N <= n; i += N) {
    const V v = key(i);
    if (!hn::AllFalse(d, hn::Gt(r0, v))) break;
    r7 = r6, r6 = r5, r5 = r4, r4 = r3, r3 = r2, r2 = r1, r1 = r0, r0 = v;
  }
  for (; i + N <= n; i += N) {
    V v = key(i);
    step(r0, v), step(r1, v), step(r2, v), step(r3, v);
    step(r4, v), step(r5, v), step(r6, v), step(r7, v);
  }
  HWY_ALIGN T keys[8 * N];
  const V r[8] = {r0, r1, r2, r3, r4, r5, r6, r7};
  for (size_t k = 0; k < 8; ++k) hn::Store(r[k], d, keys + k * N);
  for (size_t k = 0; k < 8; ++k) {
    const auto m = hn::Gt(hn::Load(d, keys + k * N), hn::Set(d, below()));
    if (hn::AllFalse(d, m)) break;
    ForEachLane(d, m, [&](size_t j) { put(keys[k * N + j]); });
  }
  return i;
}

// Folds n FP32 patterns into top[0..8) (ascending keys; 0 = empty). The vectors compare
// as floats: an ordered compare leaves NaNs out, and -0.0 == +0.0 only makes the set
// of passing elements larger; the scalar insertion decides exactly. `*crowded`: see
// kCrowdedRun.
void Top8(const uint32_t* bits, size_t n, uint32_t* top, bool* crowded) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  using VF = hn::Vec<decltype(df)>;
  constexpr size_t N = hn::MaxLanes(df);
  constexpr size_t A = N >= kGroups ? 1 : kGroups / N;
  auto load = [&](size_t i) { return hn::BitCast(df, hn::LoadU(du, bits + i)); };
  // For LaneTop8: the order keys of Insert (NaNs' 0).
  auto lane_key = [&](size_t j) HWY_ATTR {
    return convert_inl::HWY_NAMESPACE::MaxKeys(du, hn::LoadU(du, bits + j));
  };
  auto lane_below = [&] { return Gate(top, 0) - 1; };
  auto lane_put = [&](uint32_t k) { Insert(top, k); };
  if (*crowded && n >= kLaneRowMin) {
    const size_t i = LaneTop8(du, 0, n, lane_key, lane_below, lane_put);
    for (size_t j = i; j < n; ++j) Insert(top, bits_to_max_key(bits[j]));
    return;
  }
  uint32_t bound = 0;
  if (top[0] == 0 && N * A == kGroups && n >= 2 * kGroups) {
    const size_t p = std::min(n, kPrefix) / kGroups * kGroups;
    // Two running maxima per vector of groups (even and odd blocks of kGroups), merged
    // at the end: half the dependency chain of one.
    VF acc[A], acc2[A];
    auto fold = [](VF v, VF m) { return hn::IfThenElse(hn::Gt(v, m), v, m); };
    for (size_t a = 0; a < A; ++a)
      acc[a] = acc2[a] = hn::Set(df, -std::numeric_limits<float>::infinity());
    size_t i = 0;
    for (; i + 2 * kGroups <= p; i += 2 * kGroups)
      for (size_t a = 0; a < A; ++a) {
        acc[a] = fold(load(i + a * N), acc[a]);
        acc2[a] = fold(load(i + kGroups + a * N), acc2[a]);
      }
    for (size_t a = 0; a < A; ++a) {
      if (i < p) acc[a] = fold(load(i + a * N), acc[a]);
      acc[a] = fold(acc2[a], acc[a]);
    }
    HWY_ALIGN float g[kGroups];
    for (size_t a = 0; a < A; ++a) hn::Store(acc[a], df, g + a * N);
    bound = model::max8_order_key(bits_from_fp32(LowerBound8(g)));
  }
  auto gate = [&] { return hn::BitCast(df, hn::Set(du, max_key_to_bits(Gate(top, bound)))); };
  VF t = gate();
  size_t i = 0;
  if constexpr (2 * N <= 64) {
    // Two vectors per test: half the branches (a passing vector is rare, and where it
    // is, its branch mispredicts); the second vector's test uses the gate as it was
    // before the first's insertions, which lets more through, never less.
    size_t run = 0;  // crowded tests in a row (kCrowdedRun)
    for (; i + 2 * N <= n; i += 2 * N) {
      const auto p0 = hn::Ge(load(i), t), p1 = hn::Ge(load(i + N), t);
      if (HWY_LIKELY(hn::AllFalse(df, hn::Or(p0, p1)))) {
        run = 0;
        continue;
      }
      ForEachLane2(df, p0, p1, [&](size_t j) { Insert(top, bits_to_max_key(bits[i + j])); });
      t = gate();
      if (Crowded(run, hn::CountTrue(df, p0) + hn::CountTrue(df, p1), 2 * N, n - i)) {
        *crowded = true;
        i = LaneTop8(du, i + 2 * N, n, lane_key, lane_below, lane_put);
        break;
      }
    }
  }
  for (; i + N <= n; i += N) {
    const auto pass = hn::Ge(load(i), t);
    if (HWY_LIKELY(hn::AllFalse(df, pass))) continue;
    ForEachLane(df, pass, [&](size_t j) { Insert(top, bits_to_max_key(bits[i + j])); });
    t = gate();
  }
  for (; i < n; ++i) Insert(top, bits_to_max_key(bits[i]));
}

// Top8 of n BF16 patterns, compared in 16 bits. The 16-bit order key of a pattern b
// (b | 0x8000 when positive, ~b when negative) is the high half of the 32-bit key of b << 16,
// whose low half is 0 (positive) or 0xffff (negative). Adding 0x7f (mod 2^16) moves the
// positive NaNs' keys (above +inf's, 0xff80) to the bottom, below the negative NaNs', and
// those below -inf's: a key of 0xfe or more is a number's, in order.
inline uint32_t Gate16(uint32_t gate) {
  uint32_t k = gate >> 16;
  if (((k << 16) | (k >= 0x8000 ? 0u : 0xffffu)) < gate) ++k;
  return k + 0x7f;  // <= 0xff80 + 0x7f: the gate is at most +inf's key + 1
}

// The 16-bit order key of a BF16 pattern (b | 0x8000 when positive, ~b when negative).
template <class D, class V>
HWY_INLINE V OrderKey16(D d, V b) {
  const hn::RebindToSigned<D> di;
  const V s = hn::BitCast(d, hn::ShiftRight<15>(hn::BitCast(di, b)));
  return hn::Xor(b, hn::Or(s, hn::Set(d, uint16_t{0x8000})));
}
inline uint16_t OrderKey16(uint16_t b) {
  return static_cast<uint16_t>((b >> 15) ? ~b : b | 0x8000u);
}

void Top8Bf16(const uint16_t* half, size_t n, uint32_t* top, bool* crowded) {
  const hn::ScalableTag<uint16_t> d;
  using V = hn::Vec<decltype(d)>;
  constexpr size_t N = hn::MaxLanes(d);
  constexpr size_t A = N >= kGroups ? 1 : kGroups / N;
  auto key = [&](size_t i) {
    return hn::Add(OrderKey16(d, hn::LoadU(d, half + i)), hn::Set(d, uint16_t{0x7f}));
  };
  // For LaneTop8: the keys above. NaNs' (below 0xfe) may stay: lane_below() is at least
  // 0xfd, so they are never handed on. A number's key k less 0x7f is the high half of
  // its 32-bit key, whose low half is 0 (positive) or 0xffff (negative; top bit clear).
  auto lane_put = [&](uint16_t k) {
    const uint32_t o = static_cast<uint16_t>(k - 0x7f);
    Insert(top, o << 16 | ((o & 0x8000u) ? 0u : 0xffffu));
  };
  auto lane_below = [&] { return static_cast<uint16_t>(Gate16(Gate(top, 0)) - 1); };
  if (*crowded && n >= kLaneRowMin) {
    const size_t i = LaneTop8(d, 0, n, key, lane_below, lane_put);
    for (size_t j = i; j < n; ++j) Insert(top, bits_to_max_key(bf16_to_fp32(half[j])));
    return;
  }
  uint32_t bound = 0;
  if (top[0] == 0 && N * A == kGroups && n >= 2 * kGroups) {
    const size_t p = std::min(n, kPrefix) / kGroups * kGroups;
    V acc[A];
    for (size_t a = 0; a < A; ++a) acc[a] = hn::Zero(d);
    for (size_t i = 0; i < p; i += kGroups)
      for (size_t a = 0; a < A; ++a) acc[a] = hn::Max(acc[a], key(i + a * N));
    HWY_ALIGN uint16_t g[kGroups];
    for (size_t a = 0; a < A; ++a) hn::Store(acc[a], d, g + a * N);
    const uint32_t k = LowerBound8(g);
    // Below 0xfe: fewer than 8 groups hold a number, and -inf bounds nothing.
    if (k >= 0xfe) bound = (k - 0x7f) << 16;
  }
  // Gt(k, gate - 1): the gate is at least 0xfe.
  auto gate = [&] { return hn::Set(d, static_cast<uint16_t>(Gate16(Gate(top, bound)) - 1)); };
  V t = gate();
  size_t i = 0;
  if constexpr (2 * N <= 64) {
    // Two vectors per test, as in Top8.
    size_t run = 0;  // as in Top8
    for (; i + 2 * N <= n; i += 2 * N) {
      const auto p0 = hn::Gt(key(i), t), p1 = hn::Gt(key(i + N), t);
      if (HWY_LIKELY(hn::AllFalse(d, hn::Or(p0, p1)))) {
        run = 0;
        continue;
      }
      ForEachLane2(d, p0, p1,
                   [&](size_t j) { Insert(top, bits_to_max_key(bf16_to_fp32(half[i + j]))); });
      t = gate();
      if (Crowded(run, hn::CountTrue(d, p0) + hn::CountTrue(d, p1), 2 * N, n - i)) {
        *crowded = true;
        i = LaneTop8(d, i + 2 * N, n, key, lane_below, lane_put);
        break;
      }
    }
  }
  for (; i + N <= n; i += N) {
    const auto pass = hn::Gt(key(i), t);
    if (HWY_LIKELY(hn::AllFalse(d, pass))) continue;
    ForEachLane(d, pass,
                [&](size_t j) { Insert(top, bits_to_max_key(bf16_to_fp32(half[i + j]))); });
    t = gate();
  }
  for (; i < n; ++i) Insert(top, bits_to_max_key(bf16_to_fp32(half[i])));
}

// The match core (SPEC §4.9) over n elements with ordinals j0 + i: the vector twin of
// atoms/match_core.h's MatchCore, which the reference runs over every element. A vector
// is first tested against the range of the open slots' keys (two compares; when the keys
// are a row's largest values, as in a top-k round, almost no vector is in range), then
// compared with every key at once (eight compares, the keys repeated to fill them, or
// sixteen); the elements equal to one, rare, are offered to the core in scalar code,
// which may close a slot (the keys are taken again when they let through an element
// that no slot takes). `Keys` gives a lane's keys (0 when
// none is left) and returns their count, `Load` a vector of elements, `InRange(v, lo,
// hi)` the lanes between two keys, `Lo`/`Hi` the smaller/larger of two keys, `Fp32` an
// element's FP32 pattern.
template <class D, class Keys, class Load, class InRange, class Less, class Fp32>
HWY_INLINE void MatchScan(D d, size_t n, uint64_t j0, detail::MatchCore& core,
                          std::vector<uint32_t>* hits, Keys&& keys, Load&& load, InRange&& in_range,
                          Less&& less, Fp32&& fp32) {
  using V = hn::Vec<D>;
  using T = hn::TFromD<D>;
  constexpr size_t N = hn::MaxLanes(d);
  T k[16];
  unsigned nk = 0;
  V kv[16], lo = hn::Zero(d), hi = hn::Zero(d);
  auto refresh = [&] {
    nk = keys(k);
    if (nk == 0) return;
    T kl = k[0], kh = k[0];
    for (unsigned s = 1; s < nk; ++s) {
      if (less(k[s], kl)) kl = k[s];
      if (less(kh, k[s])) kh = k[s];
    }
    lo = hn::Set(d, kl);
    hi = hn::Set(d, kh);
    const unsigned fill = nk <= 8 ? 8 : 16;
    for (unsigned s = nk; s < fill; ++s) k[s] = k[0];
    for (unsigned s = 0; s < fill; ++s) kv[s] = hn::Set(d, k[s]);
    nk = fill;
  };
  refresh();
  size_t i = 0;
  for (; nk != 0 && i + N <= n; i += N) {
    const V v = load(i);
    if (HWY_LIKELY(hn::AllFalse(d, in_range(v, lo, hi)))) continue;
    auto hit = hn::Or(hn::Or(hn::Or(hn::Eq(v, kv[0]), hn::Eq(v, kv[1])),
                             hn::Or(hn::Eq(v, kv[2]), hn::Eq(v, kv[3]))),
                      hn::Or(hn::Or(hn::Eq(v, kv[4]), hn::Eq(v, kv[5])),
                             hn::Or(hn::Eq(v, kv[6]), hn::Eq(v, kv[7]))));
    if (nk == 16)
      for (unsigned s = 8; s < 16; ++s) hit = hn::Or(hit, hn::Eq(v, kv[s]));
    if (hn::AllFalse(d, hit)) continue;
    bool consumed = false;
    ForEachLane(d, hit, [&](size_t j) {
      if (core.offer(static_cast<uint32_t>(j0 + i + j), fp32(i + j))) {
        if (hits) hits->push_back(static_cast<uint32_t>(j0 + i + j));
        consumed = true;
      }
    });
    // A closed slot's key stays in the test until it lets through an element no slot
    // takes: the test only has to let through every element an open slot would take.
    if (core.done()) return;
    if (!consumed) refresh();
  }
  if (nk == 0) return;  // no element can match
  for (; i < n && !core.done(); ++i)
    if (core.offer(static_cast<uint32_t>(j0 + i), fp32(i)) && hits)
      hits->push_back(static_cast<uint32_t>(j0 + i));
}

// The open slots' FP32 match values (NaNs match nothing and are left out).
inline unsigned OpenKeys32(const detail::MatchCore& core, uint32_t* k) {
  const MatchLane& l = core.lane();
  unsigned nk = 0;
  for (unsigned s = 0; s < 8; ++s)
    if (core.open(s)) k[nk++] = l.mv[s];
  return nk;
}

// n FP32 patterns, compared as floats: IEEE equality, as the core's (a NaN is in no
// range and equals nothing; -0.0 == +0.0).
void MatchFp32(const uint32_t* e, size_t n, uint64_t j0, detail::MatchCore& core,
               std::vector<uint32_t>* hits) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  using VF = hn::Vec<decltype(df)>;
  MatchScan(
      df, n, j0, core, hits,
      [&](float* k) {
        uint32_t b[8];
        const unsigned nk = OpenKeys32(core, b);
        std::memcpy(k, b, nk * 4);
        return nk;
      },
      [&](size_t i) { return hn::BitCast(df, hn::LoadU(du, e + i)); },
      [](VF v, VF lo, VF hi) { return hn::And(hn::Ge(v, lo), hn::Ge(hi, v)); },
      [](float a, float b) { return a < b; }, [&](size_t i) { return e[i]; });
}

// n BF16 patterns, compared in 16 bits: an element's FP32 value (bf16_to_fp32) is its pattern
// << 16, so a match value with a nonzero low half equals none, and one with a zero low
// half equals exactly the element with its high half as pattern, or, for ±0, either
// zero. The range test compares order keys (a NaN's lies outside every range of numbers).
void MatchBf16(const uint16_t* e, size_t n, uint64_t j0, detail::MatchCore& core,
               std::vector<uint32_t>* hits) {
  const hn::ScalableTag<uint16_t> d;
  using V = hn::Vec<decltype(d)>;
  MatchScan(
      d, n, j0, core, hits,
      [&](uint16_t* k) {
        uint32_t b[8];
        const unsigned nb = OpenKeys32(core, b);
        unsigned nk = 0;
        for (unsigned s = 0; s < nb; ++s) {
          if ((b[s] & 0xffffu) != 0) continue;
          k[nk++] = static_cast<uint16_t>(b[s] >> 16);
          if ((b[s] & 0x7fffffffu) == 0) k[nk++] = static_cast<uint16_t>((b[s] >> 16) ^ 0x8000u);
        }
        return nk;
      },
      [&](size_t i) { return hn::LoadU(d, e + i); },
      [&](V v, V lo, V hi) {
        // lo <= key <= hi as key - lo <= hi - lo (unsigned).
        const V klo = OrderKey16(d, lo);
        return hn::Not(hn::Gt(hn::Sub(OrderKey16(d, v), klo), hn::Sub(OrderKey16(d, hi), klo)));
      },
      [](uint16_t a, uint16_t b) { return OrderKey16(a) < OrderKey16(b); },
      [&](size_t i) { return bf16_to_fp32(e[i]); });
}

}  // namespace gpsimd::kernels::search::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::kernels {
namespace search {
HWY_EXPORT(Top8);
HWY_EXPORT(Top8Bf16);
HWY_EXPORT(MatchFp32);
HWY_EXPORT(MatchBf16);
}  // namespace search

namespace {

thread_local std::vector<uint8_t> t_raw;
thread_local std::vector<uint32_t> t_bits;

// The source dtypes the fast paths widen themselves: the floats (FP32R is not a source
// dtype of these instructions); the integer dtypes go to the reference.
bool can_widen(Dtype dt) {
  return is_float_dtype(dt) && dt != Dtype::FP32R;
}
// Reads the next m source elements as FP32 bits.
const uint32_t* read_fp32(Cursor& c, const uint8_t* partition, Dtype dt, uint64_t m) {
  if (dt == Dtype::FP32) {
    uint32_t* buf = scratch(t_bits, kChunk);
    return reinterpret_cast<const uint32_t*>(
        c.read<4>(partition, m, reinterpret_cast<uint8_t*>(buf)));
  }
  uint8_t* raw = scratch(t_raw, kChunk * 2);
  const uint8_t* in = dt == Dtype::BF16 || dt == Dtype::FP16 ? c.read<2>(partition, m, raw)
                                                             : c.read<1>(partition, m, raw);
  uint32_t* out = scratch(t_bits, kChunk);
  simd::to_fp32(dt, in, m, out);
  return out;
}

}  // namespace

bool max8_channel(const uint8_t* partition, const Walk& src, Dtype in, Dtype out, uint8_t* dst,
                  const Walk& dst_walk) {
  if (!can_widen(in)) return false;
  // In-place FP32 rows are only 4-aligned when the partition is (validated offsets).
  if (in == Dtype::FP32 && reinterpret_cast<uintptr_t>(partition) % 4 != 0) return false;
  std::array<uint32_t, 8> keys{};  // 0: empty (or NaN)
  bool crowded = false;            // the gate keeps letting vectors through (Top8)
  Cursor c(Rows::of(src));
  const auto fold = HWY_DYNAMIC_DISPATCH(search::Top8);
  const auto fold_bf16 = HWY_DYNAMIC_DISPATCH(search::Top8Bf16);
  const uint64_t t = src.count();
  // A dense FP32 or BF16 row is folded in place in one call, without chunk boundaries.
  const uint8_t* whole = in == Dtype::FP32 || in == Dtype::BF16 ? c.direct(partition, t) : nullptr;
  if (whole && in == Dtype::BF16) {
    if (reinterpret_cast<uintptr_t>(whole) % 2 != 0) return false;
    fold_bf16(reinterpret_cast<const uint16_t*>(whole), t, keys.data(), &crowded);
  } else if (whole) {
    fold(reinterpret_cast<const uint32_t*>(whole), t, keys.data(), &crowded);
  }
  for (uint64_t j = whole ? t : 0; j < t;) {
    const uint64_t m = std::min(kChunk, t - j);
    if (in == Dtype::BF16) {
      const uint8_t* raw = c.read<2>(partition, m, scratch(t_raw, kChunk * 2));
      if (reinterpret_cast<uintptr_t>(raw) % 2 != 0) return false;
      fold_bf16(reinterpret_cast<const uint16_t*>(raw), m, keys.data(), &crowded);
    } else {
      fold(read_fp32(c, partition, in, m), m, keys.data(), &crowded);
    }
    j += m;
  }
  std::array<uint32_t, 8> top;
  for (unsigned k = 0; k < 8; ++k) {
    const uint32_t key = keys[k];
    top[k] = key == 0 ? model::kMax8Fill : simd::max_key_to_bits(key);
  }
  // The eight values converted at once (from_fp32, SPEC §4.8).
  const unsigned size = *dtype_size(out);
  uint8_t bytes[8 * 4];
  simd::from_fp32(out, top.data(), 8, bytes);
  Cursor dc(Rows::of(dst_walk));
  if (size == 4)
    dc.write<4>(dst, 8, bytes);
  else if (size == 2)
    dc.write<2>(dst, 8, bytes);
  else
    dc.write<1>(dst, 8, bytes);
  return true;
}

void find_index8_store(const MatchLane& lane, unsigned out_size, uint8_t* dst,
                       const Walk& dst_walk) {
  // idx modulo 2^(8 * out_size) (format.h's int_low_bits): for 4 bytes the u32 indices
  // themselves, written from the lane.
  static_assert(int_low_bits_of_size(4, 0xfffffffeu) == 0xfffffffeu);
  Cursor dc(Rows::of(dst_walk));
  if (out_size == 4) {
    dc.write<4>(dst, 8, reinterpret_cast<const uint8_t*>(lane.idx.data()));
  } else {
    uint16_t v[8];
    for (unsigned k = 0; k < 8; ++k)
      v[k] = static_cast<uint16_t>(int_low_bits_of_size(2, lane.idx[k]));
    dc.write<2>(dst, 8, reinterpret_cast<const uint8_t*>(v));
  }
}

namespace {

bool is_float_io(Dtype dt) {
  return dt == Dtype::FP32 || dt == Dtype::BF16 || dt == Dtype::FP16;
}

// The match core over the next m source elements (ordinals j0 on): BF16 compared in 16
// bits in place, the other float dtypes as FP32 patterns. False when the BF16 elements
// are not 2-aligned.
bool match_chunk(Cursor& c, const uint8_t* partition, Dtype in, uint64_t m, uint64_t j0,
                 detail::MatchCore& core, std::vector<uint32_t>* hits) {
  if (in == Dtype::BF16) {
    const uint8_t* raw = c.read<2>(partition, m, scratch(t_raw, kChunk * 2));
    if (reinterpret_cast<uintptr_t>(raw) % 2 != 0) return false;
    HWY_DYNAMIC_DISPATCH(search::MatchBf16)
    (reinterpret_cast<const uint16_t*>(raw), m, j0, core, hits);
  } else {
    HWY_DYNAMIC_DISPATCH(search::MatchFp32)(read_fp32(c, partition, in, m), m, j0, core, hits);
  }
  return true;
}

thread_local std::vector<uint32_t> t_all;
thread_local std::vector<uint8_t> t_out;
thread_local std::vector<uint32_t> t_hits;

}  // namespace

bool match_channel(const uint8_t* partition, const Walk& src, Dtype in, const MatchLane& before,
                   MatchLane& after, std::vector<uint32_t>* hits) {
  if (!can_widen(in)) return false;
  if (in == Dtype::FP32 && reinterpret_cast<uintptr_t>(partition) % 4 != 0) return false;
  detail::MatchCore core(before);
  Cursor c(Rows::of(src));
  for (uint64_t j = 0, t = src.count(); j < t && !core.done();) {
    const uint64_t m = std::min(kChunk, t - j);
    if (!match_chunk(c, partition, in, m, j, core, hits)) return false;
    j += m;
  }
  after = core.lane();
  return true;
}

bool match_replace_channel(const uint8_t* partition, const Walk& src, Dtype in,
                           const MatchLane& before, MatchLane& after, uint32_t immediate, Dtype out,
                           uint8_t* dst, const Walk& dst_walk) {
  if (!is_float_io(in) || !is_float_io(out)) return false;
  if (reinterpret_cast<uintptr_t>(partition) % 4 != 0) return false;
  const uint64_t t = src.count();
  const unsigned size = *dtype_size(out);
  // Equal dtypes are built straight in a dense destination, else in a buffer written
  // along the destination walk at the end.
  const bool same = in == out && in != Dtype::FP16;
  Cursor probe(Rows::of(dst_walk));
  uint8_t* direct = same ? probe.direct(dst, t) : nullptr;
  if (reinterpret_cast<uintptr_t>(direct) % size != 0) direct = nullptr;
  uint8_t* bytes = direct ? direct : scratch(t_out, t * size);
  std::vector<uint32_t>& hits = t_hits;
  hits.clear();
  detail::MatchCore core(before);
  Cursor c(Rows::of(src));
  if (same) {
    // FP32 through FP32 is its own bits; BF16 too but for NaNs, which come back as the
    // canonical NaN with their sign (SPEC §5): both through the conversion's halves. The
    // match core runs on the copy (the NaNs it changed match nothing).
    const bool f = in == Dtype::BF16;
    for (uint64_t j = 0; j < t;) {
      const uint64_t m = std::min(kChunk, t - j);
      if (f) {
        const uint8_t* raw = c.read<2>(partition, m, scratch(t_raw, kChunk * 2));
        uint16_t* o = reinterpret_cast<uint16_t*>(bytes) + j;
        simd::through_fp32(Dtype::BF16, Dtype::BF16, raw, m, reinterpret_cast<uint8_t*>(o));
        if (!core.done()) HWY_DYNAMIC_DISPATCH(search::MatchBf16)(o, m, j, core, &hits);
      } else {
        uint32_t* o = reinterpret_cast<uint32_t*>(bytes) + j;
        const uint8_t* raw = c.read<4>(partition, m, reinterpret_cast<uint8_t*>(o));
        if (raw != reinterpret_cast<uint8_t*>(o)) std::memcpy(o, raw, m * 4);
        if (!core.done()) HWY_DYNAMIC_DISPATCH(search::MatchFp32)(o, m, j, core, &hits);
      }
      j += m;
    }
    const uint32_t r = from_fp32(out, immediate);
    for (uint32_t i : hits) std::memcpy(bytes + std::size_t{i} * size, &r, size);
  } else {
    // Every element widened to FP32, the consumed ones replaced by the immediate, then
    // one narrowing: from_fp32(immediate) where consumed, from_fp32(element) elsewhere.
    uint32_t* y = scratch(t_all, t);
    for (uint64_t j = 0; j < t;) {
      const uint64_t m = std::min(kChunk, t - j);
      if (in == Dtype::FP32) {
        const uint8_t* raw = c.read<4>(partition, m, reinterpret_cast<uint8_t*>(y + j));
        if (raw != reinterpret_cast<uint8_t*>(y + j)) std::memcpy(y + j, raw, m * 4);
      } else {
        simd::to_fp32(in, c.read<2>(partition, m, scratch(t_raw, kChunk * 2)), m, y + j);
      }
      if (!core.done()) HWY_DYNAMIC_DISPATCH(search::MatchFp32)(y + j, m, j, core, &hits);
      j += m;
    }
    for (uint32_t i : hits) y[i] = immediate;
    simd::from_fp32(out, y, t, bytes);
  }
  after = core.lane();
  if (direct) return true;
  Cursor dc(Rows::of(dst_walk));
  if (size == 4)
    dc.write<4>(dst, t, bytes);
  else
    dc.write<2>(dst, t, bytes);
  return true;
}

}  // namespace gpsimd::kernels
#endif  // HWY_ONCE
