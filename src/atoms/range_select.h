// RangeSelect's index and comparison (SPEC §4.1): shared semantic atoms.
//
// src/atoms/ is the floor of the scalar rules that both the reference (src/ops/) and the
// fast paths (src/kernels/) decide results with, below both: machine < atoms < kernels <
// ops < program < faces (docs/design.md, "Floors"). Files here include only the machine
// floor.
//
// The reference (src/ops/range_select.cc) evaluates these for every element. The fast
// path (src/kernels/select.cc's pass_interval) has no vector twin of them: it calls these
// same functions to find where each comparison starts and stops passing, which is exactly
// where the reference's does.
#pragma once

#include <cstdint>

namespace gpsimd::detail {

// fp32(base + j): the exact sum rounded once to FP32, nearest-even.
float range_select_index(float base, uint32_t j);
// RangeSelect's comparison `op` (an ALU_OP: IS_EQ, IS_GT, IS_GE, IS_LE, IS_LT) of two FP32
// values: a op b.
bool range_select_compare(uint8_t op, float a, float b);

}  // namespace gpsimd::detail
