// The ALU_OP enumeration of SPEC §3.8 as one list: value, name, the first generation
// that has it, and the classes the vendor's predicates put it in. The enum (types.h),
// the op table (alu.h: names, generations, predicates for validation messages, `dis`,
// `asm`, `explain` and Python) and the evaluator all come from this list; no op list is
// written anywhere else.
//
// GPSIMD_ALU_OPS(X) calls X(NAME, value, first generation, classes) once per op, in value
// order. The class names are the enumerators of gpsimd::alu::Class (alu.h):
//   Bitvec        is_bitvec_op                  Arith     is_arith_op
//   IntAluop      is_valid_int_aluop            Signed    is_signed_alu_op
//   Unsigned      is_unsigned_alu_op            IntDve    is_valid_int_aluop_dve (V5)
//   Shift         is_shift_op                   Unary     computes on its left operand only
//   Unmodelled    SPEC §3.8.3: validates as the vendor does, executes as unsupported-op
// is_general_bitvec_op and is_general_arith_op are derived (alu.h).
#pragma once

// clang-format off
#define GPSIMD_ALU_OPS(X)                                                                   \
  X(BYPASS,              0x00, 2, Bitvec | Arith | IntDve)                                  \
  X(BITWISE_NOT,         0x01, 2, Bitvec | Unary)                                           \
  X(ARITH_SHIFT_LEFT,    0x02, 2, Bitvec | Shift)                                           \
  X(ARITH_SHIFT_RIGHT,   0x03, 2, Bitvec | Shift)                                           \
  X(ADD,                 0x04, 2, Arith)                                                    \
  X(SUBTRACT,            0x05, 2, Arith)                                                    \
  X(MULT,                0x06, 2, Arith)                                                    \
  X(DIVIDE,              0x07, 2, Arith | Unmodelled)                                       \
  X(MAX,                 0x08, 2, Arith)                                                    \
  X(MIN,                 0x09, 2, Arith)                                                    \
  X(BITWISE_AND,         0x0A, 2, Bitvec)                                                   \
  X(BITWISE_OR,          0x0B, 2, Bitvec)                                                   \
  X(BITWISE_XOR,         0x0C, 2, Bitvec)                                                   \
  X(LOGICAL_AND,         0x0D, 2, Arith)                                                    \
  X(LOGICAL_OR,          0x0E, 2, Arith)                                                    \
  X(LOGICAL_XOR,         0x0F, 2, Arith)                                                    \
  X(LOGICAL_SHIFT_LEFT,  0x10, 2, Bitvec | Shift)                                           \
  X(LOGICAL_SHIFT_RIGHT, 0x11, 2, Bitvec | Shift)                                           \
  X(IS_EQ,               0x12, 2, Arith)                                                    \
  X(IS_GT,               0x13, 2, Arith)                                                    \
  X(IS_GE,               0x14, 2, Arith)                                                    \
  X(IS_LE,               0x15, 2, Arith)                                                    \
  X(IS_LT,               0x16, 2, Arith)                                                    \
  X(ABSOLUTE_DIFF,       0x17, 2, Arith)                                                    \
  X(IS_NE,               0x18, 2, Arith)                                                    \
  X(ABSOLUTE_VALUE,      0x19, 2, Arith | Unary)                                            \
  X(POW,                 0x1A, 2, Arith | Unmodelled)                                       \
  X(MOD,                 0x1B, 2, Arith | IntAluop | Signed | Unsigned | Unmodelled)        \
  X(CRC32,               0x1C, 2, Bitvec | Unmodelled)                                      \
  X(RSQRT,               0x1D, 2, Arith | Unmodelled)                                       \
  X(ABS_MAX,             0x20, 4, Arith)                                                    \
  X(ABS_MIN,             0x21, 4, Arith)                                                    \
  X(RE_LU,               0x22, 4, Arith | Unary)                                            \
  X(SQUARE,              0x23, 4, Arith | Unary)                                            \
  X(SYMMETRIC_CLAMP,     0x24, 5, Unmodelled)                                               \
  X(ADD_INT,             0xC4, 2, Arith | IntAluop | Signed | Unsigned | IntDve)            \
  X(MULT_INT,            0xC5, 2, Arith | IntAluop | Signed | Unsigned | IntDve)            \
  X(SUBTRACT_INT,        0xC6, 2, Arith | IntAluop | Signed | Unsigned | IntDve)            \
  X(DIVIDE_INT,          0xC7, 3, Arith | IntAluop | Signed | Unsigned | Unmodelled)        \
  X(MOD_INT,             0xC8, 3, Arith | IntAluop | Signed | Unsigned | Unmodelled)        \
  X(IS_EQUAL_INT,        0xC9, 3, IntAluop | Signed | Unsigned | IntDve)                    \
  X(IS_NE_INT,           0xCA, 3, IntAluop | Signed | Unsigned | IntDve)                    \
  X(ABS_MAX_INT,         0xCB, 3, IntAluop | Signed | IntDve)                               \
  X(ABS_MIN_INT,         0xCC, 3, IntAluop | Signed | IntDve)                               \
  X(ABS_DIFF_INT,        0xCD, 3, IntAluop | Signed | IntDve)                               \
  X(ABS_VALUE_INT,       0xCE, 3, Unmodelled)                                               \
  X(MAX_INT,             0xCF, 3, IntAluop | Signed | IntDve)                               \
  X(MIN_INT,             0xD0, 3, IntAluop | Signed | IntDve)                               \
  X(IS_GT_INT,           0xD1, 3, IntAluop | Signed | IntDve)                               \
  X(IS_GE_INT,           0xD2, 3, IntAluop | Signed | IntDve)                               \
  X(IS_LE_INT,           0xD3, 3, IntAluop | Signed | IntDve)                               \
  X(IS_LT_INT,           0xD4, 3, IntAluop | Signed | IntDve)                               \
  X(MAX_UINT,            0xD5, 3, IntAluop | Unsigned)                                      \
  X(MIN_UINT,            0xD6, 3, IntAluop | Unsigned)                                      \
  X(IS_GT_UINT,          0xD7, 3, IntAluop | Unsigned)                                      \
  X(IS_GE_UINT,          0xD8, 3, IntAluop | Unsigned)                                      \
  X(IS_LE_UINT,          0xD9, 3, IntAluop | Unsigned)                                      \
  X(IS_LT_UINT,          0xDA, 3, IntAluop | Unsigned)                                      \
  X(MULT_UINT,           0xDB, 3, IntAluop | Unsigned)                                      \
  X(DIVIDE_UINT,         0xDC, 3, IntAluop | Unsigned | Unmodelled)                         \
  X(MOD_UINT,            0xDD, 3, IntAluop | Unsigned | Unmodelled)                         \
  X(AMAX_INT,            0xDE, 3, Unmodelled)                                               \
  X(AMIN_INT,            0xDF, 3, Unmodelled)                                               \
  X(AMAX_UINT,           0xE0, 3, Unmodelled)                                               \
  X(AMIN_UINT,           0xE1, 3, Unmodelled)
// clang-format on
