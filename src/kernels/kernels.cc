// The per-channel kernels: walks are handled a run at a time (walk_cursor.h) and the
// element work goes to the vector loops of simd.cc. Anything that decides a result
// (index rounding, comparisons) calls the reference's own helpers from src/ops/.
#include "kernels/kernels.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "kernels/simd.h"
#include "kernels/sort16.h"
#include "kernels/sort32.h"
#include "kernels/stream.h"
#include "kernels/walk_cursor.h"
#include "ops/op.h"

namespace gpsimd::kernels {
namespace {

constexpr uint32_t kFillBits = 0xff7fffffu;  // -FLT_MAX, RangeSelect's fill

// The first ordinal j in [0, count) at which a predicate that is false and then true
// along j becomes true; count when it never does.
template <class P>
uint64_t first_true(uint64_t count, P pred) {
  uint64_t lo = 0, hi = count;
  while (lo < hi) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (pred(static_cast<uint32_t>(mid)))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// The ordinals [lo, hi) whose index passes cmp(op, fp32(base + j), bound). The index
// never decreases along j (one correctly rounded sum of an increasing exact value), so
// each comparison passes on one interval; its ends are found with the reference's own
// rounding and comparison, so they are exactly the reference's.
struct Interval {
  uint64_t lo, hi;
};
Interval pass_interval(uint64_t count, float base, uint8_t op, float bound) {
  auto idx = [&](uint32_t j) { return detail::range_select_index(base, j); };
  auto passes = [&](uint32_t j) { return detail::range_select_compare(op, idx(j), bound); };
  switch (static_cast<AluOp>(op)) {
    case AluOp::IS_GT:
    case AluOp::IS_GE:
      return {first_true(count, passes), count};
    case AluOp::IS_LT:
    case AluOp::IS_LE:
      return {0, first_true(count, [&](uint32_t j) { return !passes(j); })};
    default: {  // IS_EQ: from the first index >= bound to the first one > bound
      const uint64_t lo = first_true(count, [&](uint32_t j) { return idx(j) >= bound; });
      const uint64_t hi = first_true(count, [&](uint32_t j) { return idx(j) > bound; });
      return {lo, std::max(lo, hi)};
    }
  }
}

thread_local std::vector<uint32_t> t_y;
thread_local std::vector<uint8_t> t_in, t_out;
thread_local std::vector<uint32_t> t_values, t_result;
thread_local std::vector<uint64_t> t_bounds, t_padding;

}  // namespace

const char* simd_target() {
  return simd::target_name();
}

bool range_select_channel(const uint8_t* partition, const Walk& src, Dtype in, float base,
                          uint8_t op0, float bound0, uint8_t op1, float bound1, uint8_t* dst,
                          const Walk& dst_walk, Dtype out, std::optional<uint32_t>* max) {
  const uint64_t count = src.count();
  const unsigned in_size = src.elem, out_size = dst_walk.elem;
  const Interval p0 = pass_interval(count, base, op0, bound0);
  const Interval p1 = pass_interval(count, base, op1, bound1);
  const uint64_t lo = std::max(p0.lo, p1.lo);
  const uint64_t hi = std::max(lo, std::min(p0.hi, p1.hi));

  uint32_t* y = scratch(t_y, kChunk);
  uint8_t* inb = scratch(t_in, kChunk * 4);
  uint8_t* outb = scratch(t_out, kChunk * 4);
  Cursor sc(Rows::of(src)), dc(Rows::of(dst_walk));
  const bool fp32_copy = in_size == 4 && out_size == 4;  // FP32/FP32R: bits pass through
  uint32_t best = 0;
  bool filled = false;
  for (uint64_t j0 = 0; j0 < count;) {
    const uint64_t m = std::min(kChunk, count - j0);
    const uint8_t* x = read_run(sc, in_size, partition, m, inb);
    // Ordinals [a, b) of this chunk pass; the rest is fill.
    const uint64_t a = std::clamp(lo, j0, j0 + m) - j0, b = std::clamp(hi, j0, j0 + m) - j0;
    filled |= a > 0 || b < m;
    uint8_t* o = dc.direct(dst, m);
    uint8_t* target = o ? o : outb;
    if (fp32_copy) {
      std::memcpy(target + a * 4, x + a * 4, (b - a) * 4);
      std::fill_n(reinterpret_cast<uint32_t*>(target), a, kFillBits);
      std::fill_n(reinterpret_cast<uint32_t*>(target) + b, m - b, kFillBits);
      if (max)
        best = std::max(best, simd::max_key(reinterpret_cast<const uint32_t*>(x) + a, b - a));
    } else {
      simd::widen_to_fp32(in, x + a * in_size, b - a, y + a);
      std::fill_n(y, a, kFillBits);
      std::fill_n(y + b, m - b, kFillBits);
      if (max) best = std::max(best, simd::max_key(y + a, b - a));
      simd::narrow_from_fp32(out, y, m, target);
    }
    if (!o) write_run(dc, out_size, dst, m, outb);
    j0 += m;
  }
  if (max) {
    if (filled) best = std::max(best, simd::bits_to_max_key(kFillBits));
    *max = best ? std::optional<uint32_t>(simd::max_key_to_bits(best)) : std::nullopt;
  }
  return true;
}

bool select_copy(uint8_t* dst, const Walk& dst_walk, const uint8_t* partition, const Walk& src,
                 unsigned size, bool take_tensor, uint32_t scalar) {
  const uint64_t count = dst_walk.count();
  Cursor dc(Rows::of(dst_walk));
  constexpr uint64_t kCopyChunk = 4 * kChunk;
  uint8_t* buf = scratch(t_in, kCopyChunk * 4);
  if (take_tensor) {
    Cursor sc(Rows::of(src));
    for (uint64_t j0 = 0; j0 < count;) {
      const uint64_t m = std::min(kCopyChunk, count - j0);
      // A dense destination takes a strided source's elements straight away. (It is not
      // the source: the Writer gives a destination that overlaps a source a copy.)
      uint8_t* o = dc.direct(dst, m);
      const uint8_t* x = read_run(sc, size, partition, m, o ? o : buf);
      if (o && x != o)
        std::memcpy(o, x, m * size);
      else if (!o)
        write_run(dc, size, dst, m, x);
      j0 += m;
    }
    return true;
  }
  // The fill pattern, a chunk of it, once; then chunk after chunk.
  const uint64_t first = std::min(kCopyChunk, count);
  with_size(size, [&](auto s) {
    constexpr unsigned kSize = decltype(s)::value;
    for (uint64_t i = 0; i < first; ++i) std::memcpy(buf + i * kSize, &scalar, kSize);
  });
  for (uint64_t j0 = 0; j0 < count;) {
    const uint64_t m = std::min(kCopyChunk, count - j0);
    if (uint8_t* o = dc.direct(dst, m))
      std::memcpy(o, buf, m * size);
    else
      write_run(dc, size, dst, m, buf);
    j0 += m;
  }
  return true;
}

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

bool sort_channel(Dtype dt, bool descending, const uint8_t* partition, const Walk& src, unsigned k,
                  uint32_t offset, uint8_t* dst, const Walk& dst_walk) {
  const uint64_t n = src.count();
  const unsigned size = src.elem;
  Cursor sc(Rows::of(src)), dc(Rows::of(dst_walk));
  uint8_t* vbuf = reinterpret_cast<uint8_t*>(scratch(t_values, n));
  const uint8_t* values = read_run(sc, size, partition, n, vbuf);
  uint8_t* o = dc.direct(dst, 2 * uint64_t{k});
  uint8_t* res = o ? o : reinterpret_cast<uint8_t*>(scratch(t_result, 2 * uint64_t{k}));
  if (size == 4) {
    sort32::sort_pairs(dt, descending, reinterpret_cast<const uint32_t*>(values), n, k, offset,
                       reinterpret_cast<uint32_t*>(res));
  } else {
    sort16::sort_pairs(dt, descending, reinterpret_cast<const uint16_t*>(values), n, k,
                       static_cast<uint16_t>(offset), reinterpret_cast<uint16_t*>(res));
  }
  if (!o) write_run(dc, size, dst, 2 * uint64_t{k}, res);
  return true;
}

namespace {

// Batcher's odd-even merge sort network for n = 2^p keys, as compare-exchange pairs.
std::vector<uint16_t> batcher_network(unsigned n) {
  std::vector<uint16_t> ce;
  for (unsigned p = 1; p < n; p <<= 1)
    for (unsigned k = p; k >= 1; k >>= 1)
      for (unsigned j = k % p; j + k < n; j += 2 * k)
        for (unsigned i = 0; i < std::min(k, n - j - k); ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) {
            ce.push_back(static_cast<uint16_t>(i + j));
            ce.push_back(static_cast<uint16_t>(i + j + k));
          }
  return ce;
}

constexpr unsigned kColumnSortMax = 32;

// The networks for 2, 4, ..., 32 keys, built once.
const std::vector<uint16_t>& network(unsigned rows) {
  static const auto all = [] {
    std::array<std::vector<uint16_t>, 6> a;
    for (unsigned b = 1; b < 6; ++b) a[b] = batcher_network(1u << b);
    return a;
  }();
  return all[static_cast<unsigned>(std::countr_zero(rows))];
}

}  // namespace

namespace {

template <class T>
T load_as(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
void store_as(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// T: the element type (uint16_t or uint32_t); W: the packed key (uint32_t or uint64_t);
// KeyFn: the dtype's sort_key (model.h), inlined.
template <class T, class W, class KeyFn>
void sort_columns(KeyFn sort_key, bool descending, unsigned N, const uint32_t* soff,
                  const uint32_t* doff, unsigned k, const SortChannel* channels, unsigned n, W* m,
                  unsigned L) {
  constexpr unsigned kShift = 8 * sizeof(T);
  const unsigned rows = std::max(2u, std::bit_ceil(N));
  const std::vector<uint16_t>& ce = network(rows);
  const uint32_t flip = descending ? static_cast<T>(~T{0}) : 0;
  // Each channel lives in its own partition, so its bytes miss the caches; ask for the
  // next group's sources and this group's destinations early.
  auto prefetch = [&](unsigned from, unsigned to, bool dst) {
    for (unsigned c = from; c < std::min(to, n); ++c)
      if (dst)
        __builtin_prefetch(channels[c].dst + doff[0], 1);
      else
        __builtin_prefetch(channels[c].partition + soff[0]);
  };
  prefetch(0, L, false);
  for (unsigned g0 = 0; g0 < n; g0 += L) {
    const unsigned gc = std::min(L, n - g0);
    prefetch(g0 + L, g0 + 2 * L, false);
    prefetch(g0, g0 + L, true);
    std::fill_n(m, std::size_t{rows} * L, ~W{0});  // padding: above every packed key
    for (unsigned c = 0; c < gc; ++c) {
      const uint8_t* part = channels[g0 + c].partition;
      for (unsigned i = 0; i < N; ++i) {
        const uint32_t key = sort_key(load_as<T>(part + soff[i])) ^ flip;
        m[i * L + c] = static_cast<W>(W{key} << kShift | i);
      }
    }
    if constexpr (sizeof(W) == 8)
      simd::sort_columns64(m, ce.data(), ce.size() / 2);
    else
      simd::sort_columns32(m, ce.data(), ce.size() / 2);
    for (unsigned c = 0; c < gc; ++c) {
      const SortChannel& ch = channels[g0 + c];
      for (unsigned r = 0; r < k; ++r) {
        const unsigned p = static_cast<unsigned>(m[r * L + c] & ((W{1} << kShift) - 1));
        store_as<T>(ch.dst + doff[2 * r], load_as<T>(ch.partition + soff[p]));
        store_as<T>(ch.dst + doff[2 * r + 1], static_cast<T>(p + ch.offset));
      }
    }
  }
}

}  // namespace

bool sort_channels(Dtype dt, bool descending, const Walk& src, unsigned k, const Walk& dst_walk,
                   const SortChannel* channels, unsigned n, std::size_t partition_bytes) {
  const uint64_t count = src.count();
  if (count == 0 || count > kColumnSortMax || k == 0) return false;
  const Rows rs = Rows::of(src), rd = Rows::of(dst_walk);
  if (rs.dense() && rd.dense()) {
    const auto src_off = static_cast<uint32_t>(rs.start), dst_off = static_cast<uint32_t>(rd.start);
    if (simd::sort_runs(dt, descending, count, k, channels, n, src_off, dst_off,
                        partition_bytes - src_off))
      return true;
  }
  if (n < 2) return false;
  std::array<uint32_t, kColumnSortMax> soff;
  std::array<uint32_t, 2 * kColumnSortMax> doff;
  src.for_each([&](uint64_t j, uint32_t off) { soff[j] = off; });
  dst_walk.for_each([&](uint64_t j, uint32_t off) { doff[j] = off; });
  // Rows of one vector each, 64-byte aligned for the vector loads.
  alignas(64) thread_local uint64_t m64[kColumnSortMax * 16];
  alignas(64) thread_local uint32_t m32[kColumnSortMax * 32];
  const unsigned N = static_cast<unsigned>(count);
  const unsigned L64 = static_cast<unsigned>(simd::lanes64());
  const unsigned L32 = static_cast<unsigned>(simd::lanes32());
  auto run32 = [&](auto key) {
    sort_columns<uint32_t>(key, descending, N, soff.data(), doff.data(), k, channels, n, m64, L64);
  };
  auto run16 = [&](auto key) {
    sort_columns<uint16_t>(key, descending, N, soff.data(), doff.data(), k, channels, n, m32, L32);
  };
  switch (dt) {
    case Dtype::FP32:
      run32([](uint32_t b) { return model::sort_key_float(b, 8, 32); });
      break;
    case Dtype::INT32:
      run32([](uint32_t b) { return model::sort_key_int(b, 32, true); });
      break;
    case Dtype::UINT32:
      run32([](uint32_t b) { return b; });
      break;
    case Dtype::FP16:
      run16([](uint32_t b) { return model::sort_key_float(b, 5, 16); });
      break;
    case Dtype::BF16:
      run16([](uint32_t b) { return model::sort_key_float(b, 8, 16); });
      break;
    case Dtype::INT16:
      run16([](uint32_t b) { return model::sort_key_int(b, 16, true); });
      break;
    case Dtype::UINT16:
      run16([](uint32_t b) { return b; });
      break;
    default:
      return false;
  }
  return true;
}

}  // namespace gpsimd::kernels
