// Stream compaction: NonzeroWithCount (SPEC §4.11). A block of ids is compared with zero
// in registers, the ordinals of the nonzero ones are compressed in a register
// (compress-inl.h: vpcompressd on AVX-512, a permutation table on AVX2) and stored as a
// whole vector at the output's end; the padding and the count follow. Compiled once per
// SIMD target (Highway's foreach_target) and dispatched at run time.
#include <algorithm>
#include <cstring>
#include <vector>

#include "gpsimd/model.h"
#include "kernels/kernels.h"
#include "kernels/walk_cursor.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/compact.cc"
#include "common/simd_targets.h"  // IWYU pragma: keep
// clang-format off
#include "kernels/compress-inl.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::compact::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Writes (j0 + j + offset) for every nonzero ids[j], j < n, to out[k...] and returns the
// new k. Nonzero is model.h's rule, as a mask: FP32 ignores the sign bit (so -0.0 is
// zero), INT32 does not. Writes whole vectors at out + k: the caller guarantees room for
// the n slots after its current k (there are never more indices than ids read).
size_t CompressNonzero(const uint32_t* ids, size_t n, bool fp, uint32_t first_index, uint32_t* out,
                       size_t k) {
  namespace ci = compress_inl::HWY_NAMESPACE;
  const hn::ScalableTag<uint32_t> d;
  const size_t lanes = hn::Lanes(d);
  const auto magnitude = hn::Set(d, fp ? 0x7fffffffu : 0xffffffffu);
  auto index = hn::Add(hn::Iota(d, 0), hn::Set(d, first_index));
  const auto step = hn::Set(d, static_cast<uint32_t>(lanes));
  size_t j = 0;
  for (; j + lanes <= n; j += lanes) {
    const auto v = hn::And(hn::LoadU(d, ids + j), magnitude);
    // Compress in a register, then one whole-vector store: the store form of a compress
    // (vpcompressd to memory) is microcoded and many times slower on some x86 cores.
    size_t count;
    hn::StoreU(ci::Compress32(d, index, hn::Ne(v, hn::Zero(d)), &count), d, out + k);
    k += count;
    index = hn::Add(index, step);
  }
  // The last partial vector: lanes past n are loaded as zero and never selected, and
  // only the selected lanes are stored (past them may lie the end of the output).
  if (j < n) {
    const auto valid = hn::FirstN(d, n - j);
    const auto v = hn::And(hn::MaskedLoad(valid, d, ids + j), magnitude);
    size_t count;
    const auto packed = ci::Compress32(d, index, hn::And(hn::Ne(v, hn::Zero(d)), valid), &count);
    HWY_ALIGN uint32_t buf[hn::MaxLanes(d)];
    hn::Store(packed, d, buf);
    std::memcpy(out + k, buf, count * sizeof(uint32_t));
    k += count;
  }
  return k;
}

// out[i] = value for i in [0, n).
void Fill32(uint32_t* out, size_t n, uint32_t value) {
  const hn::ScalableTag<uint32_t> d;
  const size_t lanes = hn::Lanes(d);
  const auto v = hn::Set(d, value);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) hn::StoreU(v, d, out + i);
  for (; i < n; ++i) out[i] = value;
}

}  // namespace gpsimd::kernels::compact::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::kernels {
namespace compact {
HWY_EXPORT(CompressNonzero);
HWY_EXPORT(Fill32);
}  // namespace compact

namespace {
thread_local std::vector<uint32_t> t_ids, t_out;
}  // namespace

bool nonzero_with_count(const uint8_t* partition, const Walk& src, bool fp, uint32_t index_offset,
                        uint32_t padding, uint8_t* dst, const Walk& dst_walk) {
  const uint64_t t = src.count();
  Cursor dc(Rows::of(dst_walk));
  // A dense destination takes the result in place; otherwise it is built in scratch
  // and written along the walk.
  uint8_t* direct = dc.direct(dst, t + 1);
  uint32_t* out = direct ? reinterpret_cast<uint32_t*>(direct) : scratch(t_out, t + 1);
  if (direct && reinterpret_cast<uintptr_t>(direct) % alignof(uint32_t) != 0) return false;
  Cursor sc(Rows::of(src));
  uint32_t* buf = scratch(t_ids, kChunk);
  const auto compress = HWY_DYNAMIC_DISPATCH(compact::CompressNonzero);
  size_t k = 0;
  for (uint64_t j0 = 0; j0 < t;) {
    const uint64_t m = std::min(kChunk, t - j0);
    // Element offsets are 4-aligned (validated), so in-place ids are uint32_t-aligned.
    const auto* ids = reinterpret_cast<const uint32_t*>(
        sc.read<4>(partition, m, reinterpret_cast<uint8_t*>(buf)));
    k = compress(ids, m, fp, model::nonzero_index(j0, index_offset), out, k);
    j0 += m;
  }
  HWY_DYNAMIC_DISPATCH(compact::Fill32)(out + k, t - k, padding);
  out[t] = static_cast<uint32_t>(k);
  if (!direct) dc.write<4>(dst, t + 1, reinterpret_cast<const uint8_t*>(out));
  return true;
}

}  // namespace gpsimd::kernels
#endif  // HWY_ONCE
