// The affine family's kernels (affine.h). The vector loops are compiled once per SIMD
// target by Highway's foreach_target and picked at run time, like convert.cc's; the
// walk handling below them runs once (HWY_ONCE).
#include "kernels/affine.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "kernels/convert.h"
#include "kernels/walk_cursor.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/affine.cc"
#include "common/simd_targets.h"  // IWYU pragma: keep
// clang-format off
#include "kernels/convert-inl.h"
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::affine_simd::HWY_NAMESPACE {
// hn, the 32-bit lane types, kMaxLanes and the conversions of convert-inl.h.
using namespace convert_inl::HWY_NAMESPACE;  // NOLINT(google-build-using-namespace)

// The ramp values of lanes 0..N-1, and the step from one vector to the next.
struct RampVec {
  VU32 v, next;
};
HWY_INLINE RampVec ramp_vec(DU32 d, uint32_t v0, uint32_t step) {
  const VU32 s = hn::Set(d, step);
  return {hn::Add(hn::Set(d, v0), hn::Mul(hn::Iota(d, 0), s)),
          hn::Set(d, static_cast<uint32_t>(hn::Lanes(d)) * step)};
}

template <uint8_t kMode>
HWY_INLINE hn::Mask<DU32> pred(DU32 d, VU32 v) {
  const hn::RebindToSigned<DU32> di;
  const auto x = hn::BitCast(di, v);
  if constexpr (kMode == 0) return hn::RebindMask(d, hn::Gt(x, hn::Zero(di)));
  if constexpr (kMode == 1) return hn::RebindMask(d, hn::Not(hn::Lt(x, hn::Zero(di))));
  if constexpr (kMode == 2) return hn::RebindMask(d, hn::Eq(x, hn::Zero(di)));
  return hn::RebindMask(d, hn::Ne(x, hn::Zero(di)));
}

template <uint8_t kMode>
HWY_INLINE void SelectLoop(const uint8_t* in, size_t n, uint32_t v0, uint32_t step, uint32_t fill,
                           uint8_t* out) {
  const DU32 d;
  const size_t N = hn::Lanes(d);
  RampVec r = ramp_vec(d, v0, step);
  const VU32 f = hn::Set(d, fill);
  size_t i = 0;
  for (; i + N <= n; i += N, r.v = hn::Add(r.v, r.next)) {
    const VU32 x = hn::LoadU(d, reinterpret_cast<const uint32_t*>(in + 4 * i));
    hn::StoreU(hn::IfThenElse(pred<kMode>(d, r.v), x, f), d,
               reinterpret_cast<uint32_t*>(out + 4 * i));
  }
  if (i == n) return;
  HWY_ALIGN uint32_t buf[kMaxLanes] = {};
  std::memcpy(buf, in + 4 * i, (n - i) * 4);
  const VU32 y = hn::IfThenElse(pred<kMode>(d, r.v), hn::Load(d, buf), f);
  hn::Store(y, d, buf);
  std::memcpy(out + 4 * i, buf, (n - i) * 4);
}

void SelectRun32(const uint8_t* in, size_t n, uint32_t v0, uint32_t step, uint8_t mode,
                 uint32_t fill, uint8_t* out) {
  switch (mode) {
    case 0:
      return SelectLoop<0>(in, n, v0, step, fill, out);
    case 1:
      return SelectLoop<1>(in, n, v0, step, fill, out);
    case 2:
      return SelectLoop<2>(in, n, v0, step, fill, out);
    default:
      return SelectLoop<3>(in, n, v0, step, fill, out);
  }
}

// Stores the N lanes of v as kOut-byte elements (kConv: 0 the low bits, 1 the int32's
// to_fp32, SPEC §5.1, through the conversion's vector half).
template <unsigned kOut, int kConv>
HWY_INLINE void StoreRamp(DU32 d, VU32 v, uint8_t* p) {
  if constexpr (kConv == 1) v = ToFp32<Dtype::INT32>(d, v);
  if constexpr (kOut == 4) {
    hn::StoreU(v, d, reinterpret_cast<uint32_t*>(p));
  } else if constexpr (kOut == 2) {
    const hn::Rebind<uint16_t, DU32> d16;
    hn::StoreU(hn::TruncateTo(d16, v), d16, reinterpret_cast<uint16_t*>(p));
  } else {
    const hn::Rebind<uint8_t, DU32> d8;
    hn::StoreU(hn::TruncateTo(d8, v), d8, p);
  }
}

template <unsigned kOut, int kConv>
HWY_INLINE void RampLoop(size_t n, uint32_t v0, uint32_t step, uint8_t* out) {
  const DU32 d;
  const size_t N = hn::Lanes(d);
  RampVec r = ramp_vec(d, v0, step);
  size_t i = 0;
  for (; i + N <= n; i += N, r.v = hn::Add(r.v, r.next))
    StoreRamp<kOut, kConv>(d, r.v, out + i * kOut);
  if (i == n) return;
  HWY_ALIGN uint8_t buf[kMaxLanes * 4];
  StoreRamp<kOut, kConv>(d, r.v, buf);
  std::memcpy(out + i * kOut, buf, (n - i) * kOut);
}

bool RampRun(Dtype dt, size_t n, uint32_t v0, uint32_t step, uint8_t* out) {
  switch (dt) {
    case Dtype::INT32:
    case Dtype::UINT32:
      RampLoop<4, 0>(n, v0, step, out);
      return true;
    case Dtype::INT16:
    case Dtype::UINT16:
      RampLoop<2, 0>(n, v0, step, out);
      return true;
    case Dtype::INT8:
    case Dtype::UINT8:
      RampLoop<1, 0>(n, v0, step, out);
      return true;
    case Dtype::FP32:
    case Dtype::FP32R:
      RampLoop<4, 1>(n, v0, step, out);
      return true;
    default:
      return false;
  }
}

}  // namespace gpsimd::kernels::affine_simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::kernels {

namespace affine_simd {
HWY_EXPORT(SelectRun32);
HWY_EXPORT(RampRun);

void select_run32(const uint8_t* in, size_t n, uint32_t v0, uint32_t step, uint8_t fill_mode,
                  uint32_t fill, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(SelectRun32)(in, n, v0, step, fill_mode, fill, out);
}
bool ramp_run(Dtype dt, size_t n, uint32_t v0, uint32_t step, uint8_t* out) {
  return HWY_DYNAMIC_DISPATCH(RampRun)(dt, n, v0, step, out);
}
}  // namespace affine_simd

namespace {

thread_local std::vector<uint8_t> t_in, t_out, t_fill;
thread_local std::vector<uint32_t> t_wide;

// A ramp's index arithmetic as a walk of 1-byte elements from offset 0: a run's offset
// is then the exact sum Σ i[d]*step[d] of its first element, and its step the ramp's.
Walk ramp_walk(const Ramp& r) {
  Walk w;
  w.dims = kMaxDims;
  for (unsigned d = 0; d < kMaxDims; ++d) {
    w.step[d] = static_cast<int32_t>(r.step[d]);
    w.num[d] = r.num[d];
  }
  return w;
}

// The ordinals [lo, hi) of a run of n values first + k*step (exact, no wrap) for which
// v > t; the values are monotone in k.
struct Span {
  uint64_t lo, hi;
};
Span greater_than(int64_t first, int64_t step, uint64_t n, int64_t t) {
  const auto sn = static_cast<int64_t>(n);
  if (step == 0) return first > t ? Span{0, n} : Span{0, 0};
  if (step > 0) {
    // first + k*step > t  <=>  k > (t - first) / step
    if (first > t) return {0, n};
    const int64_t k = (t - first) / step + 1;  // t - first >= 0: floor
    return {static_cast<uint64_t>(std::min(k, sn)), n};
  }
  // step < 0: k < (first - t) / -step
  if (first <= t) return {0, 0};
  const int64_t k = (first - t + (-step) - 1) / (-step);  // ceil
  return {0, static_cast<uint64_t>(std::min(k, sn))};
}

}  // namespace

bool affine_select_channel(const uint8_t* partition, const Walk& src, Dtype in, const Ramp& ramp,
                           uint8_t fill_mode, uint32_t fill, uint8_t* dst, const Walk& dst_walk,
                           Dtype out) {
  const unsigned isz = *dtype_size(in), osz = *dtype_size(out);
  const uint64_t count = dst_walk.count();
  Cursor sc(Rows::of(src)), dc(Rows::of(dst_walk)), rc(Rows::of(ramp_walk(ramp)));
  uint8_t* inbuf = scratch(t_in, kChunk * 4);
  uint8_t* outbuf = scratch(t_out, kChunk * 4);
  uint8_t* fills = scratch(t_fill, kChunk * 4);
  for (uint64_t k = 0; k < std::min(count, kChunk); ++k) std::memcpy(fills + k * osz, &fill, osz);

  for (uint64_t j0 = 0; j0 < count;) {
    const Cursor::Run run = rc.next(std::min(kChunk, count - j0));
    const uint64_t m = run.count;
    const uint8_t* x = read_run(sc, isz, partition, m, inbuf);
    uint8_t* o = dc.direct(dst, m);
    uint8_t* y = o ? o : outbuf;
    const uint32_t v0 = model::ramp_add(ramp.start, static_cast<uint32_t>(run.offset));
    const auto take = [&](uint64_t a, uint64_t b, bool keep) {
      if (a >= b) return;
      if (keep)
        simd::cast(in, out, x + a * isz, b - a, y + a * osz);
      else
        std::memcpy(y + a * osz, fills, (b - a) * osz);
    };
    const int64_t first = model::ramp_value(v0);
    const int64_t last = first + static_cast<int64_t>(m - 1) * run.step;
    if (std::min(first, last) >= INT32_MIN && std::max(first, last) <= INT32_MAX) {
      // No wrap: the run is monotone, so the predicate holds on one interval (GT, GE,
      // EQ) or outside one (NE). Each piece is a copy/conversion or a fill.
      Span s;
      if (fill_mode <= 1) {
        s = greater_than(first, run.step, m, fill_mode == 0 ? 0 : -1);
      } else {
        const Span gt = greater_than(first, run.step, m, 0);
        const Span ge = greater_than(first, run.step, m, -1);
        // The zeros are where ge and gt differ: [ge.lo, gt.lo) or [gt.hi, ge.hi).
        s = run.step >= 0 ? Span{ge.lo, gt.lo} : Span{gt.hi, ge.hi};
        if (run.step == 0) s = first == 0 ? Span{0, m} : Span{0, 0};
      }
      const bool inside = fill_mode != 3;  // NE keeps the outside of the zeros
      take(0, s.lo, !inside);
      take(s.lo, s.hi, inside);
      take(s.hi, m, !inside);
    } else if (osz == 4) {
      simd::cast(in, out, x, m, y);
      affine_simd::select_run32(y, m, v0, static_cast<uint32_t>(run.step), fill_mode, fill, y);
    } else {
      simd::cast(in, out, x, m, y);
      uint32_t v = v0;
      for (uint64_t k = 0; k < m; ++k, v = model::ramp_add(v, static_cast<uint32_t>(run.step)))
        if (!model::affine_select_pred(fill_mode, model::ramp_value(v)))
          std::memcpy(y + k * osz, fills, osz);
    }
    if (!o) write_run(dc, osz, dst, m, y);
    j0 += m;
  }
  return true;
}

bool iota_channel(const Ramp& ramp, uint8_t* dst, const Walk& dst_walk, Dtype out) {
  const unsigned osz = *dtype_size(out);
  const uint64_t count = dst_walk.count();
  Cursor dc(Rows::of(dst_walk)), rc(Rows::of(ramp_walk(ramp)));
  uint8_t* outbuf = scratch(t_out, kChunk * 4);
  const bool direct_dtype = affine_simd::ramp_run(out, 0, 0, 0, outbuf);
  for (uint64_t j0 = 0; j0 < count;) {
    const Cursor::Run run = rc.next(std::min(kChunk, count - j0));
    const uint64_t m = run.count;
    uint8_t* o = dc.direct(dst, m);
    uint8_t* y = o ? o : outbuf;
    const uint32_t v0 = model::ramp_add(ramp.start, static_cast<uint32_t>(run.offset));
    const auto step = static_cast<uint32_t>(run.step);
    if (direct_dtype) {
      affine_simd::ramp_run(out, m, v0, step, y);
    } else if (minifloat_format(out) != nullptr) {
      // Through FP32 (RNE), then §5: round twice, as the reference does.
      uint32_t* w = scratch(t_wide, m);
      affine_simd::ramp_run(Dtype::FP32, m, v0, step, reinterpret_cast<uint8_t*>(w));
      simd::from_fp32(out, w, m, y);
    } else {
      return false;  // validated dtypes never get here
    }
    if (!o) write_run(dc, osz, dst, m, y);
    j0 += m;
  }
  return true;
}

}  // namespace gpsimd::kernels
#endif  // HWY_ONCE
