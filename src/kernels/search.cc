// Fast paths of the DVE search instructions (SPEC §4.8-§4.10). Sources are read in
// chunks and widened to FP32 bits. Max8 keeps a lane's top 8 as order keys beside a
// threshold (the 8th largest so far): a block of vectors whose maximum key does not
// pass it, the common case, costs a max and one compare; the rare passing elements
// are inserted in scalar code. FindIndex8 and MatchReplace8 compare a block against
// every open match value at once and leave the rare matches to the scalar match core.
// Compiled once per SIMD target (Highway's foreach_target) and dispatched at run time.
#include "ops/search.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "gpsimd/model.h"
#include "kernels/kernels.h"
#include "kernels/walk_cursor.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/search.cc"
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_SSE4)
#endif
// clang-format off
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
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

// Folds n FP32 patterns into top[0..8): the 8 largest order keys (model.h's
// max8_order_key; a NaN is key 0, below every number, which the caller turns into the
// -inf fill).
void Top8(const uint32_t* bits, size_t n, uint32_t* top) {
  const hn::ScalableTag<uint32_t> d;
  const size_t N = hn::Lanes(d);
  const auto sign = hn::Set(d, 0x80000000u);
  const auto abs_mask = hn::Set(d, 0x7fffffffu);
  const auto inf = hn::Set(d, 0x7f800000u);
  const auto zero = hn::Zero(d);
  auto key_of = [&](hn::Vec<decltype(d)> b) {
    // max8_order_key: negative -> ~bits, else bits | sign; NaN -> 0.
    const auto neg = hn::Ne(hn::And(b, sign), zero);
    const auto k = hn::IfThenElse(neg, hn::Not(b), hn::Or(b, sign));
    return hn::IfThenZeroElse(hn::Gt(hn::And(b, abs_mask), inf), k);
  };
  HWY_ALIGN uint32_t lanes[HWY_MAX_BYTES];  // 4 vectors of u32
  size_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) {
    const auto k0 = key_of(hn::LoadU(d, bits + i));
    const auto k1 = key_of(hn::LoadU(d, bits + i + N));
    const auto k2 = key_of(hn::LoadU(d, bits + i + 2 * N));
    const auto k3 = key_of(hn::LoadU(d, bits + i + 3 * N));
    const auto m = hn::Max(hn::Max(k0, k1), hn::Max(k2, k3));
    if (hn::AllFalse(d, hn::Gt(m, hn::Set(d, top[0])))) continue;
    hn::Store(k0, d, lanes);
    hn::Store(k1, d, lanes + N);
    hn::Store(k2, d, lanes + 2 * N);
    hn::Store(k3, d, lanes + 3 * N);
    for (size_t j = 0; j < 4 * N; ++j) Insert(top, lanes[j]);
  }
  for (; i < n; ++i) Insert(top, model::max8_is_nan(bits[i]) ? 0 : model::max8_order_key(bits[i]));
}

// The first index i in [0, n) whose FP32 value equals (IEEE) one of keys[0..nk), or n.
size_t FirstMatch(const uint32_t* bits, size_t n, const uint32_t* keys, unsigned nk) {
  const hn::ScalableTag<float> df;
  const hn::RebindToUnsigned<decltype(df)> du;
  const size_t N = hn::Lanes(df);
  hn::Vec<decltype(df)> k[8];
  for (unsigned s = 0; s < 8; ++s) k[s] = hn::BitCast(df, hn::Set(du, keys[s < nk ? s : 0]));
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto v = hn::BitCast(df, hn::LoadU(du, bits + i));
    auto hit = hn::Eq(v, k[0]);
    for (unsigned s = 1; s < nk; ++s) hit = hn::Or(hit, hn::Eq(v, k[s]));
    if (!hn::AllFalse(df, hit)) return i + static_cast<size_t>(hn::FindKnownFirstTrue(df, hit));
  }
  for (; i < n; ++i)
    for (unsigned s = 0; s < nk; ++s)
      if (model::match_equal(bits[i], keys[s])) return i;
  return n;
}

}  // namespace gpsimd::kernels::search::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::kernels {
namespace search {
HWY_EXPORT(Top8);
HWY_EXPORT(FirstMatch);
}  // namespace search

namespace {

thread_local std::vector<uint8_t> t_raw;
thread_local std::vector<uint32_t> t_bits;

// Reads the next m source elements as FP32 bits (FP32 and the narrow floats; false for
// the integer dtypes, which the reference converts).
bool can_widen(Dtype dt) {
  switch (dt) {
    case Dtype::FP32:
    case Dtype::BF16:
    case Dtype::FP16:
    case Dtype::FP8_E3:
    case Dtype::FP8_E4:
    case Dtype::FP8_E5:
      return true;
    default:
      return false;
  }
}
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
  simd::widen_to_fp32(dt, in, m, out);
  return out;
}

}  // namespace

bool max8_channel(const uint8_t* partition, const Walk& src, Dtype in,
                  std::array<uint32_t, 8>& top) {
  if (!can_widen(in)) return false;
  // In-place FP32 rows are only 4-aligned when the partition is (validated offsets).
  if (in == Dtype::FP32 && reinterpret_cast<uintptr_t>(partition) % 4 != 0) return false;
  std::array<uint32_t, 8> keys{};  // 0: empty (or NaN)
  Cursor c(Rows::of(src));
  const auto fold = HWY_DYNAMIC_DISPATCH(search::Top8);
  for (uint64_t j = 0, t = src.count(); j < t;) {
    const uint64_t m = std::min(kChunk, t - j);
    fold(read_fp32(c, partition, in, m), m, keys.data());
    j += m;
  }
  for (unsigned k = 0; k < 8; ++k) {
    const uint32_t key = keys[k];
    top[k] = key == 0 ? model::kMax8Fill : (key >> 31) ? key & 0x7fffffffu : ~key;
  }
  return true;
}

bool match_channel(const uint8_t* partition, const Walk& src, Dtype in, const MatchLane& before,
                   MatchLane& after, std::vector<uint32_t>* hits) {
  if (!can_widen(in)) return false;
  if (in == Dtype::FP32 && reinterpret_cast<uintptr_t>(partition) % 4 != 0) return false;
  detail::MatchCore core(before);
  // The match values of the open slots (not matched, not NaN): what a block is compared
  // with. Rebuilt after every match.
  std::array<uint32_t, 8> open{};
  unsigned nk = 0;
  auto refresh = [&] {
    nk = 0;
    const MatchLane& l = core.lane();
    for (unsigned s = 0; s < 8; ++s)
      if (!((l.matched >> s) & 1u) && !model::max8_is_nan(l.mv[s])) open[nk++] = l.mv[s];
  };
  refresh();
  Cursor c(Rows::of(src));
  const auto first = HWY_DYNAMIC_DISPATCH(search::FirstMatch);
  for (uint64_t j = 0, t = src.count(); j < t && !core.done();) {
    const uint64_t m = std::min(kChunk, t - j);
    const uint32_t* e = read_fp32(c, partition, in, m);
    for (size_t i = 0; i < m && nk > 0;) {
      i += first(e + i, m - i, open.data(), nk);
      if (i >= m) break;
      if (core.offer(static_cast<uint32_t>(j + i), e[i])) {
        if (hits) hits->push_back(static_cast<uint32_t>(j + i));
        refresh();
      }
      ++i;
    }
    j += m;
  }
  after = core.lane();
  return true;
}

}  // namespace gpsimd::kernels
#endif  // HWY_ONCE
