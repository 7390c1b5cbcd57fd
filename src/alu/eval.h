// The ALU evaluator (SPEC §3.8.1, §3.8.2): the scalar reference of the three datapaths,
// written once for every instruction with an ALU op (TensorTensor, TensorScalar, and the
// reductions, scans and activations after them). The table of ops is include/gpsimd/alu.h;
// which datapath an element takes is the instruction's rule (§3.9).
#pragma once

#include <cstdint>

namespace gpsimd::alu {

// The FP32 path: op(a, b) on IEEE binary32 bit patterns, round to nearest even,
// subnormals kept. Every NaN an op produces is the default NaN 0x7FC00000; only BYPASS
// passes its operand's bits. Compares and logicals give 1.0 / 0.0. `op` is one of the
// modelled is_general_arith_op ops (alu.h); the unary ones ignore `b`.
uint32_t eval_fp32(uint8_t op, uint32_t a, uint32_t b);

// The native integer path: op(a, b) on exact integer values (the operands' dtypes read
// as two's complement or unsigned), computed exactly; returns the exact result modulo
// 2^64, which the caller reduces modulo 2^(8 * size(out)) (wrap). Compares and logicals
// give 1 / 0. `op` is a modelled is_general_arith_op or is_valid_int_aluop op.
uint64_t eval_native(uint8_t op, int64_t a, int64_t b);

// The raw-bits path: op(a, b) on `width`-bit patterns (8, 16 or 32) in the low bits of
// a and b; returns a `width`-bit pattern. A shift count is b read as an unsigned
// `width`-bit integer; a count >= width shifts every bit out (0, or `width` copies of the
// sign bit for ARITH_SHIFT_RIGHT). `op` is an is_general_bitvec_op op.
uint32_t eval_bits(uint8_t op, uint32_t a, uint32_t b, unsigned width);

// True when the datapath implements `op` (the ops above; SPEC §3.8.3's are not).
bool fp32_path_has(uint8_t op);
bool native_path_has(uint8_t op);
bool bits_path_has(uint8_t op);

}  // namespace gpsimd::alu
