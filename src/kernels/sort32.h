// Sort (SPEC §4.4) of one channel of a 32-bit dtype (FP32, INT32, UINT32), from the values
// to the (value, position + offset) pairs; see sort32.cc for how.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpsimd/types.h"

namespace gpsimd::kernels::sort32 {

// out[2i] = the i-th value of the sorted order, out[2i + 1] = its position + offset
// (modulo 2^32), for i < k <= n. Ties keep increasing position. n <= 2^16.
void sort_pairs(Dtype dt, bool descending, const uint32_t* values, size_t n, size_t k,
                uint32_t offset, uint32_t* out);

}  // namespace gpsimd::kernels::sort32
