// Fast kernels of Memset (SPEC §4.18) and TensorReduce (§4.19), one channel each, beside
// their scalar references in src/ops/memset.cc and src/ops/tensor_reduce.cc. As every
// kernel (kernels.h), each returns false when it does not handle the case, and the caller
// then runs the reference; what it handles it computes to the reference's bits
// (tests/kernels_equiv_test.cc compares them on random words). In reduce.cc.
#pragma once

#include <cstdint>

#include "gpsimd/machine.h"
#include "gpsimd/types.h"

namespace gpsimd::kernels {

// Memset, one channel: the low `size` bytes of `pattern` at every element of a
// contiguous destination walk (`dst` as the Writer hands it out).
bool memset_channel(uint8_t* dst, const Walk& dst_walk, unsigned size, uint32_t pattern);

// What one TensorReduce word does to every group.
struct Reduction {
  bool bitvec;   // 0x52: the raw bits; 0x42: FP32
  uint8_t op;    // NKI's reduction ops (SPEC §4.19's list) only
  bool negated;  // 0x42 only
  Dtype in, out;
};

// TensorReduce, one channel, for a contiguous source walk: consecutive groups of `group`
// elements of the source (a whole partition), group k folded into destination ordinal k.
bool tensor_reduce_channel(const Reduction& r, const uint8_t* partition, const Walk& src,
                           uint64_t group, uint8_t* dst, const Walk& dst_walk);

}  // namespace gpsimd::kernels
