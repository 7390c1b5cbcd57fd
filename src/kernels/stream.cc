// The streaming family's vector loops (stream.h): strided reads and GetSequenceBounds.
// Compiled once per SIMD target by Highway's foreach_target; HWY_DYNAMIC_DISPATCH picks
// the best one for the CPU at run time. Every loop has a scalar tail that applies the
// same rule, and the equivalence tests compare the whole against src/ops/.
#include "kernels/stream.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "kernels/kernels.h"
#include "kernels/walk_cursor.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/stream.cc"
#include "common/simd_targets.h"  // IWYU pragma: keep
// clang-format off
#include <hwy/cache_control.h>
#include "kernels/convert-inl.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::stream::HWY_NAMESPACE {
// hn, the 32-bit lane types (DU32, DI32, VU32), kMaxLanes and the conversions of
// convert-inl.h.
using namespace convert_inl::HWY_NAMESPACE;  // NOLINT(google-build-using-namespace)

using VI32 = hn::Vec<DI32>;

// Lanes of a 32-bit vector on this target, as a compile-time constant for the tables.
constexpr size_t kN = HWY_LANES(uint32_t);

// ---- strided reads ---------------------------------------------------------------------
//
// A block of N elements kS elements apart (kS = +-1..+-4) lies in s = |kS| whole vectors
// of contiguous memory. Each output lane takes one lane of one of them: the same lane
// index table serves every vector (the lane is the element's offset modulo N), and a
// constant mask per vector picks which lanes come from it. So a block costs s loads,
// s lane permutes and s - 1 blends, against N scattered loads for a gather; Zen's
// gathers in particular are far slower than its loads. Steps of ±2 and ±4 compact
// instead: ConcatEven (ConcatOdd going down, then a reverse) of two vectors at a time,
// s - 1 two-vector permutes a block.
//
// The loads never leave the walk's span. Going up, they start at the block's first
// element and end just before the next block's first element; going down, they start
// s - 1 elements below the block's lowest element (the walk's next element is s below
// it) and end at the block's first element. Both need another element after the block
// when s > 1.

// A prefetch `bytes` from p. The address is computed as an integer: it may lie outside
// the walk's span (a prefetch never faults), where pointer arithmetic would not be valid.
HWY_INLINE void PrefetchAt(const void* p, ptrdiff_t bytes) {
  hwy::Prefetch(reinterpret_cast<const uint8_t*>(reinterpret_cast<uintptr_t>(p) +
                                                 static_cast<uintptr_t>(bytes)));
}

struct StrideTable {
  int32_t lane[kN];    // lane of the element within its vector
  int32_t vector[kN];  // which of the s vectors holds it
};

template <int kS>
constexpr StrideTable MakeStrideTable() {
  constexpr int s = kS < 0 ? -kS : kS;
  StrideTable t{};
  for (size_t l = 0; l < kN; ++l) {
    // Offset of ordinal l of the block from the first loaded element.
    const size_t pos = kS > 0 ? l * s : (kN - 1 - l) * s + (s - 1);
    t.lane[l] = static_cast<int32_t>(pos % kN);
    t.vector[l] = static_cast<int32_t>(pos / kN);
  }
  return t;
}

template <int kS>
HWY_INLINE void ReadStrided(const uint8_t* p, size_t n, uint8_t* out) {
  constexpr int s = kS < 0 ? -kS : kS;
  const DI32 di;
  const size_t N = hn::Lanes(di);
  HWY_DASSERT(N == kN);
  HWY_ALIGN static constexpr StrideTable kT = MakeStrideTable<kS>();
  const auto lanes = hn::SetTableIndices(di, kT.lane);
  const VI32 vec = hn::Load(di, kT.vector);
  // Lanes of vector k of the block taken from b + k * N, permuted into place.
  auto blend = [&](VI32 r, const int32_t* b, int k) {
    const VI32 v = hn::TableLookupLanes(hn::LoadU(di, b + k * static_cast<ptrdiff_t>(N)), lanes);
    return hn::IfThenElse(hn::Eq(vec, hn::Set(di, k)), v, r);
  };
  const int32_t* q = reinterpret_cast<const int32_t*>(p);
  int32_t* o = reinterpret_cast<int32_t*>(out);
  // Blocks while another element follows (s > 1), or while whole blocks remain (s = 1).
  const size_t last = s == 1 || n == 0 ? n : n - 1;
  size_t i = 0;
  for (; i + N <= last; i += N) {
    const int32_t* b = kS > 0 ? q + static_cast<ptrdiff_t>(i * s)
                              : q - static_cast<ptrdiff_t>((i + N - 1) * s + (s - 1));
    // Going down: a prefetch 4 KiB ahead of the loads.
    if constexpr (kS < 0)
      for (int k = 0; k < s; ++k) PrefetchAt(b, -4096 + 64 * k);
    VI32 r;
#if HWY_TARGET != HWY_SCALAR
    if constexpr (s == 2 || s == 4) {
      // Every second (fourth) element: one (three) two-vector compactions, the even
      // lanes going up, the odd ones (the block's elements end each pair) going down.
      auto half = [&](VI32 lo, VI32 hi) {
        return kS > 0 ? hn::ConcatEven(di, hi, lo) : hn::ConcatOdd(di, hi, lo);
      };
      const auto v = [&](int k) { return hn::LoadU(di, b + k * static_cast<ptrdiff_t>(N)); };
      if constexpr (s == 2)
        r = half(v(0), v(1));
      else
        r = half(half(v(0), v(1)), half(v(2), v(3)));
      if constexpr (kS < 0) r = hn::Reverse(di, r);
    } else
#endif
    {
      r = hn::TableLookupLanes(hn::LoadU(di, b), lanes);
      if constexpr (s > 1) r = blend(r, b, 1);
      if constexpr (s > 2) r = blend(r, b, 2);
      if constexpr (s > 3) r = blend(r, b, 3);
    }
    hn::StoreU(r, di, o + i);
  }
  for (; i < n; ++i) std::memcpy(o + i, q + static_cast<ptrdiff_t>(i) * kS, 4);
}

void ReadGather32(const uint8_t* p, int64_t step, size_t n, uint8_t* out) {
  const DU32 d;
  const hn::RebindToSigned<DU32> di;
  const size_t N = hn::Lanes(d);
  // Byte offsets from the block's first element; a partition is far below 2^31 bytes.
  const auto offsets = hn::Mul(hn::Iota(di, 0), hn::Set(di, static_cast<int32_t>(step)));
  const int64_t block = step * static_cast<int64_t>(N);
  size_t i = 0;
  for (; i + N <= n; i += N, p += block)
    hn::StoreU(hn::GatherOffset(d, reinterpret_cast<const uint32_t*>(p), offsets), d,
               reinterpret_cast<uint32_t*>(out + i * 4));
  for (; i < n; ++i, p += step) std::memcpy(out + i * 4, p, 4);
}

// The permuting reads by step in elements; nullptr for steps that gather.
using ReadFn = void (*)(const uint8_t*, size_t, uint8_t*);
ReadFn StridedReader(int64_t step) {
  if (step % 4 != 0) return nullptr;
  switch (step / 4) {
    case 1:
      return ReadStrided<1>;
    case 2:
      return ReadStrided<2>;
    case 3:
      return ReadStrided<3>;
    case 4:
      return ReadStrided<4>;
    case -1:
      return ReadStrided<-1>;
    case -2:
      return ReadStrided<-2>;
    case -3:
      return ReadStrided<-3>;
    case -4:
      return ReadStrided<-4>;
    default:
      return nullptr;
  }
}

void ReadStrided32(const uint8_t* p, int64_t step, size_t n, uint8_t* out) {
  if (ReadFn f = StridedReader(step)) return f(p, n, out);
  ReadGather32(p, step, n, out);
}

// Runs of n elements `step` bytes apart whose first elements are adjacent (run r starts at
// p + 4r): a matrix read column by column, the transposed pair of a 4-D walk. Four
// elements of N consecutive runs at a time: four contiguous loads (one per element index,
// across the runs), a 4 x 4 transpose inside each 128-bit block (two rounds of
// interleaves), and a 16-byte store per run; no gather. Returns how many runs it wrote
// (a multiple of N, its elements all of them); the caller does the rest.
size_t ReadAdjacentRuns32(const uint8_t* p, int64_t step, size_t n, size_t rows, uint8_t* out) {
#if HWY_TARGET == HWY_SCALAR
  (void)p, (void)step, (void)n, (void)rows, (void)out;
  return 0;  // one lane: nothing to transpose
#else
  const DU32 d;
  const hn::Repartition<uint64_t, DU32> d64;
  const size_t N = hn::Lanes(d);
  if (N < 4 || n < 4) return 0;
  HWY_ALIGN uint32_t buf[4][kMaxLanes];
  const size_t whole = rows / N * N;
  for (size_t k0 = 0; k0 < whole; k0 += N) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      const uint8_t* q = p + static_cast<int64_t>(i) * step + static_cast<int64_t>(k0) * 4;
      const VU32 a = hn::LoadU(d, reinterpret_cast<const uint32_t*>(q));
      const VU32 b = hn::LoadU(d, reinterpret_cast<const uint32_t*>(q + step));
      const VU32 c = hn::LoadU(d, reinterpret_cast<const uint32_t*>(q + 2 * step));
      const VU32 e = hn::LoadU(d, reinterpret_cast<const uint32_t*>(q + 3 * step));
      const auto t0 = hn::BitCast(d64, hn::InterleaveLower(d, a, b));
      const auto t1 = hn::BitCast(d64, hn::InterleaveUpper(d, a, b));
      const auto t2 = hn::BitCast(d64, hn::InterleaveLower(d, c, e));
      const auto t3 = hn::BitCast(d64, hn::InterleaveUpper(d, c, e));
      // Block j of col[k] holds elements i..i+3 of run k0 + 4j + k.
      hn::Store(hn::BitCast(d, hn::InterleaveLower(d64, t0, t2)), d, buf[0]);
      hn::Store(hn::BitCast(d, hn::InterleaveUpper(d64, t0, t2)), d, buf[1]);
      hn::Store(hn::BitCast(d, hn::InterleaveLower(d64, t1, t3)), d, buf[2]);
      hn::Store(hn::BitCast(d, hn::InterleaveUpper(d64, t1, t3)), d, buf[3]);
      for (size_t j = 0; j < N / 4; ++j)
        for (size_t k = 0; k < 4; ++k)
          std::memcpy(out + ((k0 + 4 * j + k) * n + i) * 4, &buf[k][4 * j], 16);
    }
    for (; i < n; ++i)  // the last elements of these runs
      for (size_t k = k0; k < k0 + N; ++k)
        std::memcpy(out + (k * n + i) * 4, p + static_cast<int64_t>(i) * step + k * 4, 4);
  }
  return whole;
#endif
}

void ReadRows32(const uint8_t* p, int64_t step, size_t n, int64_t row_step, size_t rows,
                uint8_t* out) {
  if (ReadFn f = StridedReader(step)) {
    for (size_t r = 0; r < rows; ++r, p += row_step, out += n * 4) f(p, n, out);
    return;
  }
  if (row_step == 4) {  // adjacent runs: transposed in registers
    const size_t done = ReadAdjacentRuns32(p, step, n, rows, out);
    p += static_cast<int64_t>(done) * 4;
    out += done * n * 4;
    rows -= done;
  }
  for (size_t r = 0; r < rows; ++r, p += row_step, out += n * 4) ReadGather32(p, step, n, out);
}

// Packs the low halves of n 32-bit words into n 16-bit elements.
void PackLow16(const uint32_t* w, size_t n, uint8_t* out) {
  const DU32 d;
  const hn::Rebind<uint16_t, DU32> d16;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N)
    hn::StoreU(hn::TruncateTo(d16, hn::LoadU(d, w + i)), d16,
               reinterpret_cast<uint16_t*>(out + 2 * i));
  for (; i < n; ++i) std::memcpy(out + 2 * i, w + i, 2);
}

// 2-byte elements kS elements apart, |kS| = 2 or 4: the blocks of ReadStrided (the same
// layout and bounds, in 16-bit lanes) compacted by ConcatEven / ConcatOdd straight into
// 16-bit lanes, no 4-byte words in between.
#if HWY_TARGET != HWY_SCALAR
template <int kS>
HWY_INLINE void ReadCompact16(const uint8_t* p, size_t n, uint8_t* out) {
  constexpr int s = kS < 0 ? -kS : kS;
  static_assert(s == 2 || s == 4);
  const hn::ScalableTag<uint16_t> d;
  const size_t N = hn::Lanes(d);
  const uint16_t* q = reinterpret_cast<const uint16_t*>(p);
  uint16_t* o = reinterpret_cast<uint16_t*>(out);
  auto half = [&](auto lo, auto hi) {
    return kS > 0 ? hn::ConcatEven(d, hi, lo) : hn::ConcatOdd(d, hi, lo);
  };
  const size_t last = n == 0 ? 0 : n - 1;  // another element follows every block
  size_t i = 0;
  for (; i + N <= last; i += N) {
    const uint16_t* b = kS > 0 ? q + static_cast<ptrdiff_t>(i * s)
                               : q - static_cast<ptrdiff_t>((i + N - 1) * s + (s - 1));
    for (int k = 0; k < s; ++k) PrefetchAt(b, (kS > 0 ? 4096 : -4096) + 64 * k);
    const auto v = [&](int k) { return hn::LoadU(d, b + k * static_cast<ptrdiff_t>(N)); };
    auto r = s == 2 ? half(v(0), v(1)) : half(half(v(0), v(1)), half(v(2), v(3)));
    if constexpr (kS < 0) r = hn::Reverse(d, r);
    hn::StoreU(r, d, o + i);
  }
  for (; i < n; ++i) std::memcpy(o + i, q + static_cast<ptrdiff_t>(i) * kS, 2);
}
#endif

void ReadStrided16(const uint8_t* p, int64_t step, size_t n, uint8_t* out) {
  if (n == 0) return;
#if HWY_TARGET != HWY_SCALAR
  switch (step) {
    case 4:
      return ReadCompact16<2>(p, n, out);
    case -4:
      return ReadCompact16<-2>(p, n, out);
    case 8:
      return ReadCompact16<4>(p, n, out);
    case -8:
      return ReadCompact16<-4>(p, n, out);
    default:
      break;
  }
#endif
  if (step == -2) {  // reversed and contiguous
    const hn::ScalableTag<uint16_t> d16;
    const size_t N = hn::Lanes(d16);
    const uint16_t* q = reinterpret_cast<const uint16_t*>(p);
    size_t i = 0;
    for (; i + N <= n; i += N)
      hn::StoreU(hn::Reverse(d16, hn::LoadU(d16, q - (i + N - 1))), d16,
                 reinterpret_cast<uint16_t*>(out + 2 * i));
    for (; i < n; ++i) std::memcpy(out + 2 * i, p - 2 * static_cast<int64_t>(i), 2);
    return;
  }
  // The ordinals [first, first + m) read 4 bytes each; the one at the highest address
  // (the last going up, the first going down) alone.
  const size_t first = step > 0 ? 0 : 1, m = n - 1;
  const uint8_t* q = p + static_cast<int64_t>(first) * step;
  const ReadFn f = step % 4 == 0 ? StridedReader(step) : nullptr;
  HWY_ALIGN uint32_t words[512];
  for (size_t b = 0; b < m; b += 512) {
    const size_t k = std::min<size_t>(512, m - b);
    const uint8_t* qb = q + static_cast<int64_t>(b) * step;
    if (f)
      f(qb, k, reinterpret_cast<uint8_t*>(words));
    else
      ReadGather32(qb, step, k, reinterpret_cast<uint8_t*>(words));
    PackLow16(words, k, out + 2 * (first + b));
  }
  const size_t top = step > 0 ? n - 1 : 0;
  std::memcpy(out + 2 * top, p + static_cast<int64_t>(top) * step, 2);
}

const char* StridedReadKind(int64_t step) {
  return StridedReader(step) ? "permute" : "gather";
}

// ---- GetSequenceBounds ------------------------------------------------------------------
//
// Pass 1 (sequence_marks) reads the ids once and keeps two bits per id: "starts a
// segment" and "is padding". Pass 2 (sequence_bounds_from_marks) reads only those bits
// and writes both halves of the output left to right, 64 ids (a word of bits) at a time,
// a vector block at a time, all lane-local: lane l of a block at b0 needs the highest
// start bit among bits 0..l from b0 on (its segment's start; none: the carry from the
// blocks before) and the lowest among bits l+1..30 (the next segment's start, its end,
// unless the segment goes on past them). Both come out of integer work on the block's
// bits broadcast to every lane: mask the lane's bits, isolate the lowest one (x & -x)
// where needed, and read the index of the highest one off the exponent of its exact
// FP32 conversion. No lane crosses another but for the carry's broadcast, and the ids
// are read once instead of once per half.

// Ids of one block compared with their neighbours: FP32 ids by IEEE equality (a NaN
// equals nothing, -0.0 equals 0), INT32 ids by their bits.
template <bool kFloat>
HWY_INLINE auto IdsEqual(DU32 d, VU32 a, VU32 b) {
  if constexpr (kFloat) {
    const hn::RebindToFloat<DU32> df;
    return hn::RebindMask(d, hn::Eq(hn::BitCast(df, a), hn::BitCast(df, b)));
  } else {
    return hn::Eq(a, b);
  }
}
template <bool kFloat>
HWY_INLINE auto IsPadding(DU32 d, VU32 a) {
  return IdsEqual<kFloat>(d, a, hn::Zero(d));
}
template <bool kFloat>
HWY_INLINE bool IdEqual(uint32_t a, uint32_t b) {
  return kFloat ? model::seq_ids_equal_fp32(a, b) : a == b;
}
template <bool kFloat>
HWY_INLINE bool IdIsPadding(uint32_t a) {
  return kFloat ? model::seq_id_is_padding_fp32(a) : a == 0;
}

// A mask's lanes as the low N bits of an integer.
template <class M>
HWY_INLINE uint64_t MaskBits(DU32 d, M m) {
  uint8_t bytes[8] = {};
  hn::StoreMaskBits(d, m, bytes);
  uint64_t bits = 0;
  std::memcpy(&bits, bytes, (hn::Lanes(d) + 7) / 8);
  return hn::Lanes(d) >= 64 ? bits : bits & ((uint64_t{1} << hn::Lanes(d)) - 1);
}

template <bool kFloat>
void MarksLoop(const uint32_t* s, size_t m, size_t pos, const uint32_t* prev, uint64_t* bounds,
               uint64_t* padding) {
  const DU32 d;
  const size_t N = hn::Lanes(d);
  uint64_t* bw = bounds + pos / 64;
  uint64_t* pw = padding + pos / 64;
  uint64_t wb = 0, wp = 0;
  unsigned sh = 0;
  auto put = [&](uint64_t b, uint64_t p, unsigned count) {
    wb |= b << sh;
    wp |= p << sh;
    sh += count;
    if (sh == 64) *bw++ = wb, *pw++ = wp, wb = wp = 0, sh = 0;
  };
  size_t i = 0;
  for (; i + N <= m; i += N) {
    const VU32 v = hn::LoadU(d, s + i);
    VU32 before;
    if (i == 0) {
      // Element 0's neighbour is *prev; at position 0 there is none (bit set below).
      HWY_ALIGN uint32_t buf[kMaxLanes];
      buf[0] = prev ? *prev : s[0];
      std::memcpy(buf + 1, s, (N - 1) * 4);
      before = hn::Load(d, buf);
    } else {
      before = hn::LoadU(d, s + i - 1);
    }
    uint64_t b = MaskBits(d, hn::Not(IdsEqual<kFloat>(d, v, before)));
    if (pos + i == 0) b |= 1;
    put(b, MaskBits(d, IsPadding<kFloat>(d, v)), static_cast<unsigned>(N));
  }
  for (; i < m; ++i) {
    const bool start = pos + i == 0 || !IdEqual<kFloat>(s[i], i > 0 ? s[i - 1] : *prev);
    put(start, IdIsPadding<kFloat>(s[i]), 1);
  }
  if (sh > 0) *bw = wb, *pw = wp;
}

void SequenceMarks(const uint32_t* ids, size_t m, size_t pos, const uint32_t* prev, bool fp_in,
                   uint64_t* bounds, uint64_t* padding) {
  if (fp_in)
    MarksLoop<true>(ids, m, pos, prev, bounds, padding);
  else
    MarksLoop<false>(ids, m, pos, prev, bounds, padding);
}

// A bound as stored: its INT32 bits, or the FP32 bits of the same number (exact: bounds
// are below 2^24), through the conversion piece's to_fp32 (format.h, convert-inl.h).
// Converted as it is stored, so FP32 output costs no extra pass.
template <bool kFpOut>
HWY_INLINE uint32_t BoundBits(int32_t v) {
  if constexpr (kFpOut)
    return to_fp32(Dtype::INT32, static_cast<uint32_t>(v));
  else
    return static_cast<uint32_t>(v);
}
template <bool kFpOut>
HWY_INLINE VU32 BoundsBits(DU32 d, VI32 v) {
  if constexpr (kFpOut)
    return ToFp32<Dtype::INT32>(d, hn::BitCast(d, v));
  else
    return hn::BitCast(d, v);
}

// Output of at least this many ids per half (64 KiB of bounds in all, more than a core's
// L1 data cache) is written with non-temporal stores when both halves are vector-aligned,
// on Intel CPUs only. There each line is written whole, so reading it in first (what an
// ordinary store does) is wasted traffic: measured on the Xeon machine with the earlier
// two-scan loop, 0.46-0.52x -> 0.54-0.57x memcpy. On the AMD EPYC machine this loop,
// which writes both halves at once, ran a full partition at 0.44-0.57x memcpy with them
// and 0.58-0.67x without (the output then stays in the 1 MiB L2).
constexpr size_t kStreamBoundsMin = 8192;
bool StreamsPay() {
  static const bool intel = __builtin_cpu_is("intel");
  return intel;
}

template <bool kStream>
HWY_INLINE void PutBounds(DU32 d, VU32 v, uint32_t* p) {
  if constexpr (kStream)
    hn::Stream(v, d, p);
  else
    hn::StoreU(v, d, p);
}

// The index of the highest set bit of each lane (below 2^24), plus `base`: read off the
// exponent of the lane's exact FP32 value (base - 127 for 0).
HWY_INLINE VI32 HighestBitPlus(DU32 d, VU32 x, VI32 base_minus_127) {
  const DI32 di;
  const VU32 f = hn::BitCast(d, hn::ConvertTo(hn::RebindToFloat<DU32>(), hn::BitCast(di, x)));
  return hn::Add(hn::BitCast(di, hn::ShiftRight<23>(f)), base_minus_127);
}

// The 64 bits of `bits` from position p on (the words past the last one read are 0).
HWY_INLINE uint64_t BitsFrom(const uint64_t* bits, size_t p) {
  const size_t k = p / 64;
  const unsigned sh = p % 64;
  // (w << 1) << (63 - sh): the next word's part, 0 when sh == 0, without shifting by 64.
  return bits[k] >> sh | (bits[k + 1] << 1) << (63 - sh);
}

// The first set bit at a position > q (bit n is set, and q < n).
HWY_INLINE size_t NextMark(const uint64_t* bounds, size_t q) {
  size_t k = (q + 1) / 64;
  uint64_t w = bounds[k] & (~uint64_t{0} << ((q + 1) % 64));
  while (w == 0) w = bounds[++k];
  return k * 64 + static_cast<size_t>(std::countr_zero(w));
}

template <bool kFpOut, bool kStream>
void FromMarksLoop(const uint64_t* bounds, const uint64_t* padding, size_t n, size_t from,
                   size_t to, uint32_t* start, uint32_t* end, BoundsState& state) {
  const DU32 d;
  const DI32 di;
  const size_t N = hn::Lanes(d);
  HWY_DASSERT(N == kN && N <= 16);
  // Lane l's bits of the 31 from the block's first id on (positive as INT32, for the
  // conversion): 0..l hold its segment's start, l+1..30 its end (when the segment ends
  // within them); its own bit for padding.
  struct LaneBits {
    uint32_t upto[kN], after[kN], own[kN];
  };
  HWY_ALIGN static constexpr LaneBits kL = [] {
    LaneBits t{};
    for (size_t l = 0; l < kN; ++l) {
      t.upto[l] = static_cast<uint32_t>((uint64_t{2} << l) - 1);
      t.after[l] = static_cast<uint32_t>(~uint64_t{0} << (l + 1)) & 0x7fffffffu;
      t.own[l] = uint32_t{1} << l;
    }
    return t;
  }();
  const VU32 upto = hn::Load(d, kL.upto), after = hn::Load(d, kL.after);
  const VU32 own = hn::Load(d, kL.own);
  const VI32 padding_start = hn::Set(di, static_cast<int32_t>(n));
  const VI32 padding_end = hn::Set(di, -1);
  const VI32 step = hn::Set(di, static_cast<int32_t>(N));
  VI32 base = hn::Set(di, static_cast<int32_t>(from) - 127);  // b0 - 127
  // The last segment start before the block, in every lane.
  VI32 carry = hn::Set(di, state.carry);
  struct LastLane {
    int32_t lane[kN];
  };
  HWY_ALIGN static constexpr LastLane kLast = [] {
    LastLane t{};
    for (size_t l = 0; l < kN; ++l) t.lane[l] = static_cast<int32_t>(kN - 1);
    return t;
  }();
  const auto last_lane = hn::SetTableIndices(di, kLast.lane);
  size_t next = state.next;  // a segment start; the first one past q once q < next
  // One block of N ids at b0: `win` holds the bits from b0 on (at least 31 of them),
  // `later` the 64 from b0 + 31 on.
  auto block = [&](size_t b0, uint64_t win, uint64_t later) HWY_ATTR {
    const VU32 w = hn::Set(d, static_cast<uint32_t>(win));
    auto pad = [&] {
      if constexpr (kN >= 8)  // whole bytes of the bitmap (x86: little-endian words)
        return hn::RebindMask(
            di, hn::LoadMaskBits(d, reinterpret_cast<const uint8_t*>(padding) + b0 / 8));
      else
        return hn::RebindMask(
            di, hn::TestBit(hn::Set(d, static_cast<uint32_t>(padding[b0 / 64] >> (b0 % 64))), own));
    }();

    const VU32 vs = hn::And(w, upto);
    VI32 st = HighestBitPlus(d, vs, base);
    st = hn::IfThenElse(hn::RebindMask(di, hn::Eq(vs, hn::Zero(d))), carry, st);
    // The next block's carry is this block's last start, kept in a register.
    carry = hn::TableLookupLanes(st, last_lane);
    st = hn::IfThenElse(pad, padding_start, st);
    PutBounds<kStream>(d, BoundsBits<kFpOut>(d, st), start + b0);

    // Lanes whose segment goes on past bit 30 end at the next start after it: within
    // the 64 bits from there, or (segments longer than that) found once and kept.
    if (later != 0)
      next = b0 + 31 + static_cast<size_t>(std::countr_zero(later));
    else if (next <= b0 + 94 && b0 + 95 <= n)
      next = NextMark(bounds, b0 + 94);
    const VU32 ve = hn::And(w, after);
    const VU32 lowest = hn::And(ve, hn::Sub(hn::Zero(d), ve));
    VI32 en = HighestBitPlus(d, lowest, base);
    en = hn::IfThenElse(hn::RebindMask(di, hn::Eq(ve, hn::Zero(d))),
                        hn::Set(di, static_cast<int32_t>(next)), en);
    en = hn::IfThenElse(pad, padding_end, en);
    PutBounds<kStream>(d, BoundsBits<kFpOut>(d, en), end + b0);
    base = hn::Add(base, step);
  };
  // 64 ids (one word of bits) at a time, the words loaded once and the blocks' windows
  // cut from them with constant shifts; then the blocks of the last partial word.
  size_t b0 = from;
  for (; b0 + 64 <= to; b0 += 64) {
    const uint64_t* wp = bounds + b0 / 64;
    const uint64_t w0 = wp[0], w1 = wp[1], w2 = wp[2];
    for (size_t j = 0; j < 64; j += kN) {  // a constant trip count: unrolled
      const uint64_t win = j == 0 ? w0 : (w0 >> j | w1 << (64 - j));
      const size_t o = j + 31;  // 31 .. 79
      const uint64_t later = o < 64    ? (w0 >> o | w1 << (64 - o))
                             : o == 64 ? w1
                                       : (w1 >> (o - 64) | w2 << (128 - o));
      block(b0 + j, win, later);
    }
  }
  state.next = next;
  if (to < n) {  // a piece: `to` is a multiple of 64
    state.carry = hn::GetLane(carry);
    return;
  }
  base = hn::Set(di, static_cast<int32_t>(b0) - 127);
  for (; b0 + N <= n; b0 += N) block(b0, BitsFrom(bounds, b0), BitsFrom(bounds, b0 + 31));
  // The tail, an id at a time; `next` may lie past a start the tail needs: found again.
  next = 0;
  int32_t carry_scalar = hn::GetLane(carry);
  for (size_t i = b0; i < n; ++i) {
    if ((bounds[i / 64] >> (i % 64)) & 1) carry_scalar = static_cast<int32_t>(i);
    if (next <= i) next = NextMark(bounds, i);
    const bool pad = (padding[i / 64] >> (i % 64)) & 1;
    start[i] = BoundBits<kFpOut>(pad ? static_cast<int32_t>(n) : carry_scalar);
    end[i] = BoundBits<kFpOut>(pad ? -1 : static_cast<int32_t>(next));
  }
  state.carry = carry_scalar;
  state.next = next;
}

template <bool kStream>
void FromMarksFor(const uint64_t* bounds, const uint64_t* padding, size_t n, size_t from, size_t to,
                  bool fp_out, uint32_t* start, uint32_t* end, BoundsState& state) {
  if (fp_out)
    FromMarksLoop<true, kStream>(bounds, padding, n, from, to, start, end, state);
  else
    FromMarksLoop<false, kStream>(bounds, padding, n, from, to, start, end, state);
}

void SequenceBoundsFromMarks(const uint64_t* bounds, const uint64_t* padding, size_t n, size_t from,
                             size_t to, bool fp_out, uint32_t* start, uint32_t* end,
                             BoundsState& state) {
  const size_t vec_bytes = hn::Lanes(DU32()) * sizeof(uint32_t);
  const bool stream = n >= kStreamBoundsMin && StreamsPay() &&
                      reinterpret_cast<uintptr_t>(start) % vec_bytes == 0 &&
                      reinterpret_cast<uintptr_t>(end) % vec_bytes == 0;
  if (!stream) return FromMarksFor<false>(bounds, padding, n, from, to, fp_out, start, end, state);
  FromMarksFor<true>(bounds, padding, n, from, to, fp_out, start, end, state);
  // Orders the streamed stores before whatever signals that the output is ready.
  hwy::FlushStream();
}
}  // namespace gpsimd::kernels::stream::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::kernels::stream {

HWY_EXPORT(ReadStrided32);
void read_strided32(const uint8_t* p, int64_t step, size_t n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(ReadStrided32)(p, step, n, out);
}
HWY_EXPORT(ReadRows32);
void read_rows32(const uint8_t* p, int64_t step, size_t n, int64_t row_step, size_t rows,
                 uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(ReadRows32)(p, step, n, row_step, rows, out);
}
HWY_EXPORT(ReadStrided16);
void read_strided16(const uint8_t* p, int64_t step, size_t n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(ReadStrided16)(p, step, n, out);
}
HWY_EXPORT(StridedReadKind);
const char* strided_read_kind(int64_t step) {
  return HWY_DYNAMIC_DISPATCH(StridedReadKind)(step);
}
HWY_EXPORT(SequenceMarks);
void sequence_marks(const uint32_t* ids, size_t m, size_t pos, const uint32_t* prev, bool fp_in,
                    uint64_t* bounds, uint64_t* padding) {
  HWY_DYNAMIC_DISPATCH(SequenceMarks)(ids, m, pos, prev, fp_in, bounds, padding);
}
HWY_EXPORT(SequenceBoundsFromMarks);
void sequence_bounds_from_marks(const uint64_t* bounds, const uint64_t* padding, size_t n,
                                size_t from, size_t to, bool fp_out, uint32_t* start, uint32_t* end,
                                BoundsState& state) {
  HWY_DYNAMIC_DISPATCH(SequenceBoundsFromMarks)
  (bounds, padding, n, from, to, fp_out, start, end, state);
}

}  // namespace gpsimd::kernels::stream

namespace gpsimd::kernels {
namespace {

thread_local std::vector<uint32_t> t_values, t_result;
thread_local std::vector<uint64_t> t_bounds, t_padding;

}  // namespace

bool sequence_bounds(const uint8_t* partition, const Walk& src, bool fp_in, bool fp_out,
                     uint8_t* dst, const Walk& dst_walk) {
  const uint64_t n = src.count();
  Cursor dc(Rows::of(dst_walk));
  uint8_t* o = dc.direct(dst, 2 * n);
  uint32_t* start = o ? reinterpret_cast<uint32_t*>(o) : scratch(t_result, 2 * n);
  // The two passes of stream.h run interleaved, a piece at a time, so that reading the
  // ids and writing the bounds overlap: the bits of a piece of ids (read in place when
  // dense), then the bounds of the ids whose bits are all known (up to 160 ids back
  // from the last one read, and 95 before the last segment start seen; all at the end).
  const std::size_t words = stream::marks_words(n);
  uint64_t* bounds = scratch(t_bounds, words);
  uint64_t* padding = scratch(t_padding, words);
  std::fill_n(bounds + n / 64, 3, 0);  // the words past the ids' ones stay 0
  std::fill_n(padding + n / 64, 3, 0);
  Cursor sc(Rows::of(src));
  constexpr uint64_t kPiece = 2048;  // ids: 8 KiB of them, 16 KiB of bounds
  uint8_t* buf = reinterpret_cast<uint8_t*>(scratch(t_values, kPiece));
  stream::BoundsState state;
  uint32_t prev = 0;
  uint64_t marked = 0, done = 0, last_start = 0;
  while (done < n) {
    if (marked < n) {
      const uint64_t m = std::min(kPiece, n - marked);  // a multiple of 64 but the last
      // Element offsets are 4-aligned (validated), so in-place ids are uint32_t-aligned.
      const uint32_t* ids = reinterpret_cast<const uint32_t*>(sc.read<4>(partition, m, buf));
      stream::sequence_marks(ids, m, marked, marked > 0 ? &prev : nullptr, fp_in, bounds, padding);
      prev = ids[m - 1];
      for (uint64_t k = (marked + m - 1) / 64 + 1; k-- > marked / 64;)
        if (bounds[k] != 0) {
          last_start = k * 64 + 63 - static_cast<uint64_t>(std::countl_zero(bounds[k]));
          break;
        }
      marked += m;
      if (marked == n) bounds[n / 64] |= uint64_t{1} << (n % 64);
    }
    uint64_t to = n;
    if (marked < n) {
      const uint64_t safe =
          std::min(marked >= 160 ? marked - 160 : 0, last_start >= 95 ? last_start - 95 : 0);
      to = std::max(done, safe / 64 * 64);
    }
    if (to > done) {
      stream::sequence_bounds_from_marks(bounds, padding, n, done, to, fp_out, start, start + n,
                                         state);
      done = to;
    }
  }
  if (!o) dc.write<4>(dst, 2 * n, reinterpret_cast<const uint8_t*>(start));
  return true;
}

}  // namespace gpsimd::kernels
#endif  // HWY_ONCE
