// The running value of TensorScalarCacheCumulative (SPEC §4.24) on dense walks: one tight
// loop per channel with the ops inlined (the carried value allows no reordering: rule
// cumulative-order, one FP32 rounding per op0 and per op1 in walk order), the channels in
// parallel. Bit-identical to the reference in src/ops/tensor_scalar.cc.
#pragma once

#include <cstdint>
#include <optional>

#include "gpsimd/machine.h"
#include "gpsimd/types.h"

namespace gpsimd::kernels {

// One channel: for every ordinal j of the source walk, reg = op1(op0(x, s0), reg) on the
// FP32 path (x the element converted from `in`), dst[j] = reg converted to `out`. Returns
// the last reg, or nullopt when it does not handle the walks (not both dense: the caller
// then runs the reference).
std::optional<uint32_t> cumulative_channel(uint8_t op0, uint8_t op1, Dtype in, Dtype out,
                                           uint32_t s0, uint32_t seed, const uint8_t* partition,
                                           const Walk& src, uint8_t* dst, const Walk& dst_walk);

// kLanes channels at once (FP32 in, FP32 or FP32R out, both walks dense): channel k reads
// partitions[k], writes dst[k], with scalar s0[k], its running value starting from reg[k]
// and left there. Returns false, changing nothing, when it does not handle the case.
inline constexpr unsigned kLanes = 8;
bool cumulative_lanes(uint8_t op0, uint8_t op1, Dtype in, Dtype out, const uint32_t* s0,
                      uint32_t* reg, const uint8_t* const* partitions, const Walk& src,
                      uint8_t* const* dst, const Walk& dst_walk);

}  // namespace gpsimd::kernels
