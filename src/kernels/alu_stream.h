// The fast paths of the instructions with an ALU op (SPEC §4.14 TensorTensor, §4.15
// TensorScalar), one channel at a time: the walks are read a chunk at a time
// (walk_cursor.h: a dense run in place, a strided one copied), converted to FP32 where
// the datapath says so (convert.h's vector loops for the float dtypes, format.h's
// to_fp32 / from_fp32 element by element for the integer ones), computed by the ALU's
// vector loops (alu/simd.h) and written back along the destination walk in ordinal
// order (a revisited byte takes the later ordinal). Every step is bit-identical to the
// reference of src/ops/tensor_tensor.cc and tensor_scalar.cc, which
// tests/kernels_equiv_test.cc checks on every SIMD target. In alu_stream.cc.
//
// Like every kernel (kernels.h), each returns false when it does not handle the case;
// the caller then runs the reference for the channel. Sources are whole partitions; the
// destination is the Writer's region for the channel, never overlapping a source (the
// Writer gives an overlapping destination a shadow), so a channel the kernel gives up
// on part way is still rewritten whole by the reference.
#pragma once

#include <cstdint>

#include "alu/simd.h"
#include "gpsimd/machine.h"
#include "gpsimd/types.h"

namespace gpsimd::kernels {

// The datapath of SPEC §3.8.1 an element takes (the same for every element of a word).
enum class AluPath : uint8_t { RawBits, NativeInteger, Fp32 };

// TensorTensor's element rule: dst[j] = op(src0[j], src1[j]) on the datapath `path`.
struct TensorTensorOp {
  AluPath path;
  uint8_t op;
  Dtype lo, hi, out;  // src0's, src1's and the destination's dtypes
};

// True when tensor_tensor_channel handles `k` (its op and dtypes; any walks).
bool tensor_tensor_handles(const TensorTensorOp& k);

// One channel of TensorTensor: the three walks paired by ordinal.
bool tensor_tensor_channel(const TensorTensorOp& k, const uint8_t* in0, const Walk& w0,
                           const uint8_t* in1, const Walk& w1, uint8_t* dst, const Walk& wd);

// TensorScalar's element rule `(x op0 s0) op1 s1` (alu::simd::fp32_scalar2 or
// bits_scalar2; the scalars are set per channel).
struct TensorScalarOp {
  bool bitvec;  // the raw-bits path at 8 * size(din); otherwise FP32
  uint8_t op0, op1;
  bool rev0, rev1;  // the scalar is the left operand
  Dtype din, dout;
};

// True when tensor_scalar_channel handles `k`.
bool tensor_scalar_handles(const TensorScalarOp& k);

// One channel of TensorScalar with the channel's scalars s0 and s1.
bool tensor_scalar_channel(const TensorScalarOp& k, uint32_t s0, uint32_t s1, const uint8_t* in,
                           const Walk& src, uint8_t* dst, const Walk& wd);

}  // namespace gpsimd::kernels
