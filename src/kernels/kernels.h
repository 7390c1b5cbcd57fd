// Fast kernels beside the scalar reference (src/ops/). Each returns false when it does
// not handle the case (dtype, walk shape, CPU), and the caller then runs the reference.
// Whatever they handle, they must produce exactly the reference's bits: the
// equivalence tests compare them on random inputs.
#pragma once

#include <cstdint>

#include "gpsimd/machine.h"
#include "gpsimd/types.h"

namespace gpsimd::kernels {

// RangeSelect, one channel: y[j] = FP32 bits of the selected-or-filled value of ordinal j.
bool range_select_channel(const uint8_t* partition, const Walk& src, Dtype in, float base,
                          uint8_t op0, float bound0, uint8_t op1, float bound1, uint32_t* y);

// Stores y[j] converted to `out` at the walk's ordinal j (offsets relative to `bytes`).
bool store_converted(uint8_t* bytes, const Walk& dst, Dtype out, const uint32_t* y);

// TensorScalarSelect, one channel: copy the source walk to the destination walk, or fill
// the destination with `scalar` (low `size` bytes) when !take_tensor.
bool select_copy(uint8_t* dst_bytes, const Walk& dst, const uint8_t* src_partition,
                 const Walk& src, unsigned size, bool take_tensor, uint32_t scalar);

// Sort, one channel: result[2k] = k-th value, result[2k+1] = (position + offset) mod 2^width.
bool sort_channel(Dtype dt, bool descending, const uint32_t* values, unsigned n, unsigned k,
                  uint32_t offset, uint32_t* result);

}  // namespace gpsimd::kernels
