// The masked copy of CopyPredicated (SPEC §4.22): whole vectors of data stored under the
// predicate's nonzero lanes, so the destination bytes it does not select are never touched.
// Bit-identical to the reference in src/ops/tensor_tensor.cc. (CopyPredicatedScalar's
// masked fill, from the same file, is declared in kernels.h.)
#pragma once

#include <cstdint>

#include "gpsimd/machine.h"

namespace gpsimd::kernels {

// CopyPredicated, one channel: the data element at each destination ordinal whose
// predicate element is nonzero, the other ordinals untouched (the data's and the
// destination's elements of one size). Returns false when it does not handle the walks
// (the caller then runs the reference). In predicated.cc.
bool copy_predicated_tensor(uint8_t* dst, const Walk& dst_walk, const uint8_t* pred_partition,
                            const Walk& pred, const uint8_t* data_partition, const Walk& data);

}  // namespace gpsimd::kernels
