// The select family's per-channel kernels: RangeSelect (SPEC §4.1) and
// TensorScalarSelect (§4.2). Walks are handled a run at a time (walk_cursor.h) and the
// element work goes to the conversion loops of convert.cc. Anything that decides a
// result (index rounding, comparisons) calls the reference's own atoms (src/atoms/).
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

#include "atoms/range_select.h"
#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "kernels/convert.h"
#include "kernels/kernels.h"
#include "kernels/walk_cursor.h"

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
    } else if (out_size == 4) {
      // FP32 or FP32R out: the FP32 patterns are the output's bits, so they are widened
      // straight into the destination (no from_fp32 pass, which would copy them).
      uint32_t* t = reinterpret_cast<uint32_t*>(target);
      simd::to_fp32(in, x + a * in_size, b - a, t + a);
      std::fill_n(t, a, kFillBits);
      std::fill_n(t + b, m - b, kFillBits);
      if (max) best = std::max(best, simd::max_key(t + a, b - a));
    } else {
      simd::to_fp32(in, x + a * in_size, b - a, y + a);
      std::fill_n(y, a, kFillBits);
      std::fill_n(y + b, m - b, kFillBits);
      if (max) best = std::max(best, simd::max_key(y + a, b - a));
      simd::from_fp32(out, y, m, target);
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
  uint8_t* buf = scratch(t_in, kCopyChunk * 4);
  if (take_tensor) {
    Cursor sc(Rows::of(src));
    copy_runs(sc, partition, dc, dst, size, count, buf);
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

}  // namespace gpsimd::kernels
