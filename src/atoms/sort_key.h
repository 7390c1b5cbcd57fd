// Sort's order key for each of its dtypes (SPEC §4.4): a shared semantic atom.
//
// src/atoms/ is the floor of the scalar rules that both the reference (src/ops/) and the
// fast paths (src/kernels/) decide results with, below both: machine < atoms < kernels <
// ops < program < faces (docs/design.md, "Floors"). Files here include only the machine
// floor.
//
// The reference (src/ops/sort.cc) compares these keys. Its vector twins are in
// src/kernels/: SortKeyOf and FloatKey (sort_network.cc), Key (sort16.cc) and Fp32Key
// (sort32.cc), each built on the same rules of model.h (sort_key_float, sort_key_int).
#pragma once

#include <cstdint>

#include "gpsimd/types.h"

namespace gpsimd::detail {

// An unsigned key of SPEC §4.4's order for a value of dtype `dt` given its bits.
uint32_t sort_key(Dtype dt, uint32_t bits);

}  // namespace gpsimd::detail
