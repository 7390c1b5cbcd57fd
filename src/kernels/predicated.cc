// Predicated stores: CopyPredicatedScalar (SPEC §4.12). A block of predicate elements is
// compared with zero in registers and the scalar is written with one masked store per
// vector, so the bytes it does not select are never touched. Compiled once per SIMD
// target (Highway's foreach_target) and dispatched at run time.
#include <algorithm>
#include <cstring>
#include <vector>

#include "gpsimd/model.h"
#include "kernels/kernels.h"
#include "kernels/walk_cursor.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/predicated.cc"
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_SSE4)
#endif
// clang-format off
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace gpsimd::kernels::predicated::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// For i < n: dst[i] = scalar where (pred[i] != 0) == write_when; dst[i] untouched
// elsewhere. pred and dst hold n contiguous elements of the same width T.
template <class T>
void MaskedFillT(const T* pred, T* dst, size_t n, bool write_when, T scalar) {
  const hn::ScalableTag<T> d;
  const size_t lanes = hn::Lanes(d);
  const auto value = hn::Set(d, scalar);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) {
    const auto nonzero = hn::Ne(hn::LoadU(d, pred + i), hn::Zero(d));
    const auto sel = write_when ? nonzero : hn::Not(nonzero);
    hn::BlendedStore(value, sel, d, dst + i);
  }
  for (; i < n; ++i)
    if (model::predicate_true(pred[i]) == write_when) dst[i] = scalar;
}

void MaskedFill(const uint8_t* pred, uint8_t* dst, size_t n, unsigned size, bool write_when,
                uint32_t scalar) {
  switch (size) {
    case 1:
      return MaskedFillT(pred, dst, n, write_when, static_cast<uint8_t>(scalar));
    case 2:
      return MaskedFillT(reinterpret_cast<const uint16_t*>(pred), reinterpret_cast<uint16_t*>(dst),
                         n, write_when, static_cast<uint16_t>(scalar));
    default:
      return MaskedFillT(reinterpret_cast<const uint32_t*>(pred), reinterpret_cast<uint32_t*>(dst),
                         n, write_when, scalar);
  }
}

}  // namespace gpsimd::kernels::predicated::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::kernels {
namespace predicated {
HWY_EXPORT(MaskedFill);
}  // namespace predicated

bool copy_predicated(uint8_t* dst, const Walk& dst_walk, const uint8_t* partition, const Walk& pred,
                     unsigned pred_size, unsigned size, bool write_when, uint32_t scalar) {
  // The vector path: predicate and destination of one width, each one dense run, the
  // destination aligned to its elements. Other shapes take the reference.
  const Rows pr = Rows::of(pred), dr = Rows::of(dst_walk);
  if (pred_size != size || !pr.dense() || !dr.dense()) return false;
  const uint8_t* p = partition + pr.start;
  uint8_t* o = dst + dr.start;
  if (reinterpret_cast<uintptr_t>(p) % size != 0 || reinterpret_cast<uintptr_t>(o) % size != 0)
    return false;
  HWY_DYNAMIC_DISPATCH(predicated::MaskedFill)(p, o, pr.count(), size, write_when, scalar);
  return true;
}

}  // namespace gpsimd::kernels
#endif  // HWY_ONCE
