// Fast paths of the affine family (SPEC §3.7 ramps): AffineSelect and Iota. The ramp
// base + Σ i[d]*step[d] + c*channel_multiplier is never written out per element: a run
// of it is a first value and a step, compared against 0 in closed form (a run that
// does not wrap is monotone, so the predicate holds on one interval) or in vector
// registers (a run that wraps). Bit-identical to the reference in src/ops/.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpsimd/machine.h"
#include "gpsimd/types.h"

namespace gpsimd::kernels {

// AffineSelect (SPEC §4.5), one channel: dst[j] = pred(ramp[j]) ? cvt(src[j]) : fill,
// where `fill` is already in the output dtype. Returns false when it does not handle
// the case (the caller then runs the reference).
bool affine_select_channel(const uint8_t* partition, const Walk& src, Dtype in, const Ramp& ramp,
                           uint8_t fill_mode, uint32_t fill, uint8_t* dst, const Walk& dst_walk,
                           Dtype out);

// Iota (SPEC §4.6), one channel: dst[j] = cvt_iota(ramp[j], out).
bool iota_channel(const Ramp& ramp, uint8_t* dst, const Walk& dst_walk, Dtype out);

namespace affine_simd {
// out[k] = pred(v0 + k*step) ? in[k] : fill for n 4-byte elements, the ramp in wrapping
// int32 arithmetic, compared in registers (in may equal out).
void select_run32(const uint8_t* in, size_t n, uint32_t v0, uint32_t step, uint8_t fill_mode,
                  uint32_t fill, uint8_t* out);
// The n ramp values v0 + k*step (wrapping) as `dt`: the low bits for the integer dtypes,
// FP32 (RNE) for FP32 and FP32R. Returns false for other dtypes.
bool ramp_run(Dtype dt, size_t n, uint32_t v0, uint32_t step, uint8_t* out);
}  // namespace affine_simd

}  // namespace gpsimd::kernels
