// Sort (SPEC §4.4) of one channel of a 16-bit dtype (FP16, BF16, INT16, UINT16), from the
// values to the (value, position + offset) pairs; see sort16.cc for how.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpsimd/types.h"

namespace gpsimd::kernels::sort16 {

// out[2i] = the i-th value of the sorted order, out[2i + 1] = its position + offset
// (modulo 2^16), for i < k <= n. Ties keep increasing position. n <= 2^16.
void sort_pairs(Dtype dt, bool descending, const uint16_t* values, size_t n, size_t k,
                uint16_t offset, uint16_t* out);

}  // namespace gpsimd::kernels::sort16
