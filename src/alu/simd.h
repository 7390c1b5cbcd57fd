// The ALU evaluator's vector loops (SPEC §3.8.1, §3.8.2): the three datapaths of eval.h
// over contiguous runs, for the fast paths of the instructions with an ALU op. Each
// function produces exactly the bits of the scalar reference (alu::eval_fp32,
// eval_native, eval_bits) for every element, and is compiled once per x86 SIMD target
// (Highway's foreach_target) with the best one picked at run time, like the kernels.
//
// Common rules:
// - Operands and results are contiguous runs of n elements; a pointer needs no
//   alignment. `out` may be one of the inputs exactly (in place) but must not overlap an
//   input otherwise. n = 0 does nothing and returns true.
// - Every function returns false, writing nothing, for an op (or width, or dtype) it does
//   not vectorise; the caller then runs the scalar reference. Today each vectorises
//   every op of its datapath (fp32_path_has, native_path_has, bits_path_has), and
//   returns false only for the ops outside it and for bad widths or dtypes.
// - The right operand of a unary op (ABSOLUTE_VALUE, RE_LU, SQUARE, BITWISE_NOT) is read
//   and ignored, as in eval.h.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gpsimd/types.h"

namespace gpsimd::alu::simd {

// The SIMD target the dispatcher picked for this CPU ("AVX3", "AVX2", ...).
const char* target_name();

// One op of TensorScalar's `(x op0 s0) op1 s1` (SPEC §4.15): the op, the scalar (an
// FP32 pattern on the FP32 path, a `width`-bit pattern on the bits path) and whether the
// scalar is the left operand (reverse: op(s, x)).
struct ScalarOp {
  uint8_t op;
  uint32_t s;
  bool reverse;
};

// ---- the FP32 path (eval_fp32) ------------------------------------------------------

// out[i] = eval_fp32(op, a[i], b[i]) on n FP32 bit patterns (TensorTensor's two
// operands, after the caller's conversion to FP32). Returns false, doing nothing, when
// !fp32_path_has(op).
bool fp32_binary(uint8_t op, const void* a, const void* b, size_t n, void* out);

// out[i] = eval_fp32(op, x[i], s), or eval_fp32(op, s, x[i]) when `reverse`: one
// operand and one FP32 scalar. This is eval's rule for every op, BYPASS included (a
// reversed BYPASS gives s); TensorScalar's "BYPASS passes the data side" is
// fp32_scalar2's. Returns false, doing nothing, when !fp32_path_has(op).
bool fp32_scalar(uint8_t op, const void* x, uint32_t s, bool reverse, size_t n, void* out);

// TensorScalar's two ops (SPEC §4.15) on FP32 patterns: t = op0 == BYPASS ? x[i] :
// op0.reverse ? eval_fp32(op0.op, op0.s, x[i]) : eval_fp32(op0.op, x[i], op0.s); then
// out[i] = op1 == BYPASS ? t : (the same with op1 and t). The intermediate t is the FP32
// pattern op0 produced (rounded, NaN canonical): no fused multiply-add. Returns false,
// doing nothing, unless fp32_path_has holds for both ops.
bool fp32_scalar2(ScalarOp op0, ScalarOp op1, const void* x, size_t n, void* out);

// ---- the native integer path (eval_native) ------------------------------------------

// out[i] = eval_native(op, value(a_dt, a[i]), value(b_dt, b[i])) wrapped to the output:
// a and b are 32-bit elements read as the exact values of their dtypes (INT32 two's
// complement, UINT32 unsigned; mixed signedness compares exact values, so UINT32
// 0xFFFFFFFF > INT32 -1), and the result is reduced modulo 2^(8 * size(out_dt)) into
// elements of out_dt (INT8, UINT8, INT16, UINT16, INT32 or UINT32). Returns false, doing
// nothing, when !native_path_has(op), an operand dtype is not INT32/UINT32, or out_dt is
// not one of those six.
bool native_binary(uint8_t op, Dtype a_dt, const void* a, Dtype b_dt, const void* b, size_t n,
                   Dtype out_dt, void* out);

// The same with one operand and a scalar: op(x[i], s), or op(s, x[i]) when `reverse`;
// s is a 32-bit pattern of s_dt (INT32/UINT32). Returns false as native_binary does.
bool native_scalar(uint8_t op, Dtype x_dt, const void* x, Dtype s_dt, uint32_t s, bool reverse,
                   size_t n, Dtype out_dt, void* out);

// ---- the raw-bits path (eval_bits) --------------------------------------------------

// out[i] = eval_bits(op, a[i], b[i], width) on n elements of width/8 bytes each (width
// 8, 16 or 32): BYPASS, BITWISE_NOT/AND/OR/XOR and the four shifts, a count being b[i]
// as an unsigned width-bit integer and counts >= width shifting every bit out (sign
// copies for ARITH_SHIFT_RIGHT). Returns false, doing nothing, when !bits_path_has(op)
// or width is not 8, 16 or 32.
bool bits_binary(uint8_t op, unsigned width, const void* a, const void* b, size_t n, void* out);

// out[i] = eval_bits(op, x[i], s, width), or eval_bits(op, s, x[i], width) when
// `reverse`; s's bits above `width` are ignored (eval_bits masks them). Returns false as
// bits_binary does.
bool bits_scalar(uint8_t op, unsigned width, const void* x, uint32_t s, bool reverse, size_t n,
                 void* out);

// TensorScalarBitvec's two ops (SPEC §4.15) at `width`: fp32_scalar2's formula with
// eval_bits (BYPASS passes the data side). Returns false, doing nothing, unless
// bits_path_has holds for both ops and width is 8, 16 or 32.
bool bits_scalar2(ScalarOp op0, ScalarOp op1, unsigned width, const void* x, size_t n, void* out);

}  // namespace gpsimd::alu::simd
