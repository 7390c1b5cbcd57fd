// Predicated stores: CopyPredicatedScalar (SPEC §4.12) and CopyPredicated (SPEC §4.22). A
// block of predicate elements is compared with zero in registers and the scalar, or the
// block of data, is written with one masked store per vector, so the bytes it does not
// select are never touched. Compiled once per SIMD target (Highway's foreach_target) and
// dispatched at run time.
#include "kernels/predicated.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

#include "gpsimd/model.h"
#include "kernels/kernels.h"
#include "kernels/walk_cursor.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/predicated.cc"
#include "common/simd_targets.h"  // IWYU pragma: keep

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::predicated::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// For i < n: dst[i] = scalar where (pred[i] != 0) == write_when; dst[i] untouched
// elsewhere. pred holds n contiguous elements of P, dst of T; they may differ in width:
// the loop runs as many lanes as the wider type has per vector, and the predicate's mask
// is carried over to the destination's lanes.
// The lanes of `p` (predicate elements of P) that are nonzero, as a mask of T's lanes (the
// wider type's lane count: dp and dt rebind it).
template <class DW, class DP, class DT, class VP>
hn::Mask<DT> NonzeroLanes(DP dp, DT dt, VP p) {
  using P = hn::TFromD<DP>;
  using T = hn::TFromD<DT>;
  if constexpr (sizeof(P) == sizeof(T)) {
    return hn::Ne(hn::BitCast(dt, p), hn::Zero(dt));
  } else if constexpr (sizeof(P) < sizeof(T)) {
    return hn::Ne(hn::PromoteTo(dt, p), hn::Zero(dt));  // zero-extended: same truth
  } else {
    // All-ones lanes (-1) where nonzero, demoted with signed saturation to T's width.
    const hn::RebindToSigned<DP> dps;
    const hn::Rebind<hwy::MakeSigned<T>, DW> dts;
    const auto ones = hn::BitCast(dps, hn::VecFromMask(dp, hn::Ne(p, hn::Zero(dp))));
    return hn::MaskFromVec(hn::BitCast(dt, hn::DemoteTo(dts, ones)));
  }
}

template <class P, class T>
void MaskedFillT(const P* pred, T* dst, size_t n, bool write_when, T scalar) {
  using Wide = std::conditional_t<(sizeof(P) >= sizeof(T)), P, T>;
  using DW = hn::ScalableTag<Wide>;
  const DW dw;
  const hn::Rebind<P, DW> dp;
  const hn::Rebind<T, DW> dt;
  const size_t lanes = hn::Lanes(dw);
  const auto value = hn::Set(dt, scalar);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto nonzero = NonzeroLanes<DW>(dp, dt, hn::LoadU(dp, pred + i));
    hn::BlendedStore(value, write_when ? nonzero : hn::Not(nonzero), dt, dst + i);
  }
  for (; i < n; ++i)
    if (model::predicate_true(pred[i]) == write_when) dst[i] = scalar;
}

// For i < n: dst[i] = data[i] where pred[i] != 0; dst[i] untouched elsewhere
// (CopyPredicated). data and dst hold T, pred P, each n contiguous elements.
template <class P, class T>
void MaskedCopyT(const P* pred, const T* data, T* dst, size_t n) {
  using Wide = std::conditional_t<(sizeof(P) >= sizeof(T)), P, T>;
  using DW = hn::ScalableTag<Wide>;
  const DW dw;
  const hn::Rebind<P, DW> dp;
  const hn::Rebind<T, DW> dt;
  const size_t lanes = hn::Lanes(dw);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes)
    hn::BlendedStore(hn::LoadU(dt, data + i), NonzeroLanes<DW>(dp, dt, hn::LoadU(dp, pred + i)), dt,
                     dst + i);
  for (; i < n; ++i)
    if (model::predicate_true(pred[i])) dst[i] = data[i];
}

template <class P>
void MaskedCopyP(const P* pred, const uint8_t* data, uint8_t* dst, size_t n, unsigned size) {
  switch (size) {
    case 1:
      return MaskedCopyT(pred, data, dst, n);
    case 2:
      return MaskedCopyT(pred, reinterpret_cast<const uint16_t*>(data),
                         reinterpret_cast<uint16_t*>(dst), n);
    default:
      return MaskedCopyT(pred, reinterpret_cast<const uint32_t*>(data),
                         reinterpret_cast<uint32_t*>(dst), n);
  }
}

void MaskedCopy(const uint8_t* pred, unsigned pred_size, const uint8_t* data, uint8_t* dst,
                size_t n, unsigned size) {
  switch (pred_size) {
    case 1:
      return MaskedCopyP(pred, data, dst, n, size);
    case 2:
      return MaskedCopyP(reinterpret_cast<const uint16_t*>(pred), data, dst, n, size);
    default:
      return MaskedCopyP(reinterpret_cast<const uint32_t*>(pred), data, dst, n, size);
  }
}

template <class P>
void MaskedFillP(const P* pred, uint8_t* dst, size_t n, unsigned size, bool write_when,
                 uint32_t scalar) {
  switch (size) {
    case 1:
      return MaskedFillT(pred, dst, n, write_when, static_cast<uint8_t>(scalar));
    case 2:
      return MaskedFillT(pred, reinterpret_cast<uint16_t*>(dst), n, write_when,
                         static_cast<uint16_t>(scalar));
    default:
      return MaskedFillT(pred, reinterpret_cast<uint32_t*>(dst), n, write_when, scalar);
  }
}

void MaskedFill(const uint8_t* pred, unsigned pred_size, uint8_t* dst, size_t n, unsigned size,
                bool write_when, uint32_t scalar) {
  switch (pred_size) {
    case 1:
      return MaskedFillP(pred, dst, n, size, write_when, scalar);
    case 2:
      return MaskedFillP(reinterpret_cast<const uint16_t*>(pred), dst, n, size, write_when, scalar);
    default:
      return MaskedFillP(reinterpret_cast<const uint32_t*>(pred), dst, n, size, write_when, scalar);
  }
}

}  // namespace gpsimd::kernels::predicated::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::kernels {
namespace predicated {
HWY_EXPORT(MaskedFill);
HWY_EXPORT(MaskedCopy);
}  // namespace predicated

bool copy_predicated(uint8_t* dst, const Walk& dst_walk, const uint8_t* partition, const Walk& pred,
                     unsigned pred_size, unsigned size, bool write_when, uint32_t scalar) {
  // The vector path: predicate and destination each one dense run, aligned to their
  // elements (validated for static addresses). Other shapes take the reference.
  const Rows pr = Rows::of(pred), dr = Rows::of(dst_walk);
  if (!pr.dense() || !dr.dense()) return false;
  const uint8_t* p = partition + pr.start;
  uint8_t* o = dst + dr.start;
  if (reinterpret_cast<uintptr_t>(p) % pred_size != 0 || reinterpret_cast<uintptr_t>(o) % size != 0)
    return false;
  HWY_DYNAMIC_DISPATCH(predicated::MaskedFill)
  (p, pred_size, o, pr.count(), size, write_when, scalar);
  return true;
}

bool copy_predicated_tensor(uint8_t* dst, const Walk& dst_walk, const uint8_t* pred_partition,
                            const Walk& pred, const uint8_t* data_partition, const Walk& data) {
  // The vector path: the three walks each one dense run, aligned to their elements.
  // Other shapes take the reference.
  const Rows pr = Rows::of(pred), sr = Rows::of(data), dr = Rows::of(dst_walk);
  if (!pr.dense() || !sr.dense() || !dr.dense() || data.elem != dst_walk.elem) return false;
  const uint8_t* p = pred_partition + pr.start;
  const uint8_t* s = data_partition + sr.start;
  uint8_t* o = dst + dr.start;
  const unsigned size = dst_walk.elem;
  if (reinterpret_cast<uintptr_t>(p) % pred.elem != 0 ||
      reinterpret_cast<uintptr_t>(s) % size != 0 || reinterpret_cast<uintptr_t>(o) % size != 0)
    return false;
  HWY_DYNAMIC_DISPATCH(predicated::MaskedCopy)(p, pred.elem, s, o, pr.count(), size);
  return true;
}

}  // namespace gpsimd::kernels
#endif  // HWY_ONCE
