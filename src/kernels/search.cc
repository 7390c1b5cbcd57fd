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

#include "gpsimd/format.h"
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

// The per-lane top 8 (keys, T[0] largest .. T[7] smallest; 0 = empty) after a vector of
// keys: a compare-exchange chain, skipped when no lane's key passes its lane's T[7].
template <class D, class V>
HWY_INLINE void FoldLanes(D d, V k, V* T) {
  if (hn::AllFalse(d, hn::Gt(k, T[7]))) return;
  for (int j = 0; j < 8; ++j) {
    const V hi = hn::Max(T[j], k);
    k = hn::Min(T[j], k);
    T[j] = hi;
  }
}

// Order keys of FP32 patterns (model.h's max8_order_key; a NaN is key 0, below every
// number, which the caller turns into the -inf fill).
template <class D, class V>
HWY_INLINE V KeyOf(D d, V b) {
  const auto sign = hn::Set(d, 0x80000000u);
  const auto neg = hn::Ne(hn::And(b, sign), hn::Zero(d));
  const auto k = hn::IfThenElse(neg, hn::Not(b), hn::Or(b, sign));
  return hn::IfThenZeroElse(hn::Gt(hn::And(b, hn::Set(d, 0x7fffffffu)), hn::Set(d, 0x7f800000u)),
                            k);
}

// Merges the lanes' top 8 into top[0..8) (ascending; top[0] is the threshold): eight
// times the largest of the lanes' heads, popping it from the first lane that holds it.
template <class D, class V>
HWY_INLINE void MergeLanes(D d, const V* T, uint32_t* top) {
  V t[8];
  for (int j = 0; j < 8; ++j) t[j] = T[j];
  for (int k = 0; k < 8; ++k) {
    const V m = hn::MaxOfLanes(d, t[0]);
    const uint32_t key = hn::GetLane(m);
    if (key <= top[0]) return;  // no later head is larger
    Insert(top, key);
    const size_t lane = hn::FindKnownFirstTrue(d, hn::Eq(t[0], m));
    const auto pop = hn::Eq(hn::Iota(d, 0), hn::Set(d, static_cast<uint32_t>(lane)));
    for (int j = 0; j < 7; ++j) t[j] = hn::IfThenElse(pop, t[j + 1], t[j]);
    t[7] = hn::IfThenZeroElse(pop, t[7]);
  }
}

// The fold of a stream of key vectors: the lanes' top 8 behind a global threshold g,
// a lower bound of the 8th largest key so far (the 8th largest of the lanes' keys,
// refreshed now and then). A block of four vectors with no key above g, the common case
// once the stream is under way, costs three maxima and one compare; a key at or below g
// cannot be among the 8 largest (an equal key has equal bits: the multiset is the same).
template <class D>
class Folder {
 public:
  using V = hn::Vec<D>;
  explicit Folder(D d) : d_(d) {
    for (V& t : T_) t = hn::Zero(d);
  }
  template <class Load>
  void Run(size_t n, Load&& load) {
    const size_t N = hn::Lanes(d_);
    size_t i = 0;
    for (; i + 4 * N <= n; i += 4 * N) {
      const V k0 = load(i), k1 = load(i + N), k2 = load(i + 2 * N), k3 = load(i + 3 * N);
      const V m = hn::Max(hn::Max(k0, k1), hn::Max(k2, k3));
      if (hn::AllFalse(d_, hn::Gt(m, hn::Set(d_, g_)))) continue;
      FoldLanes(d_, k0, T_);
      FoldLanes(d_, k1, T_);
      FoldLanes(d_, k2, T_);
      FoldLanes(d_, k3, T_);
      if (++folds_ % 8 == 0) Refresh();
    }
    for (; i + N <= n; i += N) FoldLanes(d_, load(i), T_);
    tail_ = i;
  }
  size_t tail() const { return tail_; }
  void Merge(uint32_t* top) const { MergeLanes(d_, T_, top); }

 private:
  void Refresh() {
    uint32_t t[8] = {};
    MergeLanes(d_, T_, t);
    g_ = t[0];
  }
  D d_;
  V T_[8];
  uint32_t g_ = 0;
  size_t folds_ = 0, tail_ = 0;
};

// Folds n FP32 patterns into top[0..8): the 8 largest order keys.
void Top8(const uint32_t* bits, size_t n, uint32_t* top) {
  const hn::ScalableTag<uint32_t> d;
  Folder<decltype(d)> f(d);
  f.Run(n, [&](size_t i) { return KeyOf(d, hn::LoadU(d, bits + i)); });
  f.Merge(top);
  for (size_t i = f.tail(); i < n; ++i)
    Insert(top, model::max8_is_nan(bits[i]) ? 0 : model::max8_order_key(bits[i]));
}

// Top8 of n BF16 patterns, widened in registers (a number's FP32 pattern is its BF16
// pattern << 16; NaNs are left out, so their quieting does not matter).
void Top8Bf16(const uint16_t* half, size_t n, uint32_t* top) {
  const hn::ScalableTag<uint32_t> d;
  const hn::Rebind<uint16_t, decltype(d)> d16;
  Folder<decltype(d)> f(d);
  f.Run(n, [&](size_t i) {
    return KeyOf(d, hn::ShiftLeft<16>(hn::PromoteTo(d, hn::LoadU(d16, half + i))));
  });
  f.Merge(top);
  for (size_t i = f.tail(); i < n; ++i) {
    const uint32_t b = uint32_t{half[i]} << 16;
    Insert(top, model::max8_is_nan(b) ? 0 : model::max8_order_key(b));
  }
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
HWY_EXPORT(Top8Bf16);
HWY_EXPORT(FirstMatch);
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
  const auto fold_bf16 = HWY_DYNAMIC_DISPATCH(search::Top8Bf16);
  for (uint64_t j = 0, t = src.count(); j < t;) {
    const uint64_t m = std::min(kChunk, t - j);
    if (in == Dtype::BF16) {
      const uint8_t* raw = c.read<2>(partition, m, scratch(t_raw, kChunk * 2));
      if (reinterpret_cast<uintptr_t>(raw) % 2 != 0) return false;
      fold_bf16(reinterpret_cast<const uint16_t*>(raw), m, keys.data());
    } else {
      fold(read_fp32(c, partition, in, m), m, keys.data());
    }
    j += m;
  }
  for (unsigned k = 0; k < 8; ++k) {
    const uint32_t key = keys[k];
    top[k] = key == 0 ? model::kMax8Fill : (key >> 31) ? key & 0x7fffffffu : ~key;
  }
  return true;
}

namespace {

// The match core over n FP32 patterns e[0..n), ordinals j0 + i: blocks without a key
// among the open slots' match values are skipped in registers.
void scan(detail::MatchCore& core, const uint32_t* e, size_t n, uint64_t j0,
          std::vector<uint32_t>* hits) {
  std::array<uint32_t, 8> open{};
  unsigned nk = 0;
  auto refresh = [&] {
    nk = 0;
    const MatchLane& l = core.lane();
    for (unsigned s = 0; s < 8; ++s)
      if (!((l.matched >> s) & 1u) && !model::max8_is_nan(l.mv[s])) open[nk++] = l.mv[s];
  };
  refresh();
  const auto first = HWY_DYNAMIC_DISPATCH(search::FirstMatch);
  for (size_t i = 0; i < n && nk > 0;) {
    i += first(e + i, n - i, open.data(), nk);
    if (i >= n) break;
    if (core.offer(static_cast<uint32_t>(j0 + i), e[i])) {
      if (hits) hits->push_back(static_cast<uint32_t>(j0 + i));
      refresh();
    }
    ++i;
  }
}

bool is_float_io(Dtype dt) {
  return dt == Dtype::FP32 || dt == Dtype::BF16 || dt == Dtype::FP16;
}

thread_local std::vector<uint32_t> t_all;
thread_local std::vector<uint8_t> t_out;

}  // namespace

bool match_channel(const uint8_t* partition, const Walk& src, Dtype in, const MatchLane& before,
                   MatchLane& after, std::vector<uint32_t>* hits) {
  if (!can_widen(in)) return false;
  if (in == Dtype::FP32 && reinterpret_cast<uintptr_t>(partition) % 4 != 0) return false;
  detail::MatchCore core(before);
  Cursor c(Rows::of(src));
  for (uint64_t j = 0, t = src.count(); j < t && !core.done();) {
    const uint64_t m = std::min(kChunk, t - j);
    scan(core, read_fp32(c, partition, in, m), m, j, hits);
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
  uint32_t* y = scratch(t_all, t);
  Cursor c(Rows::of(src));
  for (uint64_t j = 0; j < t;) {
    const uint64_t m = std::min(kChunk, t - j);
    if (in == Dtype::FP32) {
      const uint8_t* raw = c.read<4>(partition, m, reinterpret_cast<uint8_t*>(y + j));
      if (raw != reinterpret_cast<uint8_t*>(y + j)) std::memcpy(y + j, raw, m * 4);
    } else {  // widened straight into place
      simd::widen_to_fp32(in, c.read<2>(partition, m, scratch(t_raw, kChunk * 2)), m, y + j);
    }
    j += m;
  }
  detail::MatchCore core(before);
  thread_local std::vector<uint32_t> hits;
  hits.clear();
  scan(core, y, t, 0, &hits);
  after = core.lane();
  const unsigned size = *dtype_size(out);
  uint8_t* bytes = scratch(t_out, t * size);
  if (in == out && size == 2) {
    // A 16-bit float through FP32 and back is its own bits, but for NaNs, which come
    // back as the canonical NaN with their sign (SPEC §5): no rounding to do.
    const MiniFloatFormat& f = *minifloat_format(out);
    const auto inf = static_cast<uint16_t>(((1u << f.exp_bits) - 1) << f.man_bits);
    const auto nan = static_cast<uint16_t>(f.canonical_nan);
    Cursor sc(Rows::of(src));
    auto* o = reinterpret_cast<uint16_t*>(bytes);
    for (uint64_t j = 0; j < t;) {
      const uint64_t m = std::min(kChunk, t - j);
      const uint8_t* raw = sc.read<2>(partition, m, scratch(t_raw, kChunk * 2));
      for (uint64_t i = 0; i < m; ++i) {
        uint16_t v;
        std::memcpy(&v, raw + 2 * i, 2);
        o[j + i] = (v & 0x7fffu) > inf ? static_cast<uint16_t>((v & 0x8000u) | nan) : v;
      }
      j += m;
    }
    const auto r = static_cast<uint16_t>(narrow_from_fp32(out, immediate));
    for (uint32_t i : hits) o[i] = r;
  } else {
    // from_fp32(immediate) where consumed, from_fp32(element) elsewhere: one narrowing.
    for (uint32_t i : hits) y[i] = immediate;
    simd::narrow_from_fp32(out, y, t, bytes);
  }
  Cursor dc(Rows::of(dst_walk));
  if (size == 4)
    dc.write<4>(dst, t, bytes);
  else
    dc.write<2>(dst, t, bytes);
  return true;
}

}  // namespace gpsimd::kernels
#endif  // HWY_ONCE
