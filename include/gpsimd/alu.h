// The ALU_OP table (SPEC §3.8): one row per op of alu_ops.h, with the generations that
// have it and the vendor's op-class predicates. Validation, the assembler and
// disassembler, `explain`, Python and the tests read this one table.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "gpsimd/alu_ops.h"
#include "gpsimd/types.h"

namespace gpsimd::alu {

// The classes of alu_ops.h, as bits.
enum Class : uint16_t {
  Bitvec = 1u << 0,
  Arith = 1u << 1,
  IntAluop = 1u << 2,
  Signed = 1u << 3,
  Unsigned = 1u << 4,
  IntDve = 1u << 5,
  Shift = 1u << 6,
  Unary = 1u << 7,
  Unmodelled = 1u << 8,
};

struct OpRow {
  uint8_t code;
  std::string_view name;
  uint8_t first_generation;  // the op is an enumerator on this generation and later
  uint16_t classes;
  bool in(Class c) const { return (classes & c) != 0; }
};

inline constexpr auto kOps = std::to_array<OpRow>({
#define GPSIMD_ALU_ROW(name, code, gen, classes) {code, #name, gen, static_cast<uint16_t>(classes)},
    GPSIMD_ALU_OPS(GPSIMD_ALU_ROW)
#undef GPSIMD_ALU_ROW
});

// The row index of each ALU_OP byte (kNoOp: no generation has it), so that the
// predicates below are a load, not a search of the table (validation asks several per
// word).
inline constexpr uint8_t kNoOp = kNoRow;
inline constexpr auto kOpIndex =
    first_row_by_byte(kOps, [](const OpRow& r) { return static_cast<uint8_t>(r.code); });

// The row of an ALU_OP value, or nullptr when no generation has it.
constexpr const OpRow* find_op(uint8_t code) {
  const uint8_t i = kOpIndex[code];
  return i == kNoOp ? nullptr : &kOps[i];
}
// The row of a name (case-insensitive), or nullptr.
const OpRow* find_op(std::string_view name);

// True when `code` is an ALU_OP enumerator on generation g (SPEC §3.3: 33 on V2, 60 on
// V3, 64 on V4, 65 on V5): what is_valid_enum / is_valid_aluop test.
constexpr bool is_enumerator(uint8_t code, Generation g) {
  const OpRow* r = find_op(code);
  return r != nullptr && static_cast<unsigned>(g) >= r->first_generation;
}
// The number of enumerators on a generation.
constexpr unsigned enumerator_count(Generation g) {
  return static_cast<unsigned>(std::count_if(kOps.begin(), kOps.end(), [g](const OpRow& r) {
    return static_cast<unsigned>(g) >= r.first_generation;
  }));
}
// "the 33 ALU_OP values of v2: 0x00-0x1d, 0xc4-0xc6", for diagnostics.
std::string enumerators_text(Generation g);

// The vendor's predicates (SPEC §3.8), on any byte (false for a value no generation has).
constexpr bool has_class(uint8_t code, Class c) {
  const OpRow* r = find_op(code);
  return r != nullptr && r->in(c);
}
constexpr bool is_bitvec_op(uint8_t code) {
  return has_class(code, Bitvec);
}
constexpr bool is_general_bitvec_op(uint8_t code) {
  return is_bitvec_op(code) && code != static_cast<uint8_t>(AluOp::CRC32);
}
constexpr bool is_arith_op(uint8_t code) {
  return has_class(code, Arith);
}
constexpr bool is_valid_int_aluop(uint8_t code) {
  return has_class(code, IntAluop);
}
// is_arith_op minus DIVIDE, POW, MOD, RSQRT and minus is_valid_int_aluop.
constexpr bool is_general_arith_op(uint8_t code) {
  switch (static_cast<AluOp>(code)) {
    case AluOp::DIVIDE:
    case AluOp::POW:
    case AluOp::MOD:
    case AluOp::RSQRT:
      return false;
    default:
      return is_arith_op(code) && !is_valid_int_aluop(code);
  }
}
constexpr bool is_signed_alu_op(uint8_t code) {
  return has_class(code, Signed);
}
constexpr bool is_unsigned_alu_op(uint8_t code) {
  return has_class(code, Unsigned);
}
constexpr bool is_valid_int_aluop_dve(uint8_t code) {
  return has_class(code, IntDve);
}
constexpr bool is_shift_op(uint8_t code) {
  return has_class(code, Shift);
}
// The unary ops compute on their left operand only (SPEC §3.8: ABSOLUTE_VALUE, RE_LU,
// SQUARE, BITWISE_NOT); the right one is still read.
constexpr bool is_unary(uint8_t code) {
  return has_class(code, Unary);
}
// SPEC §3.8.3: the ops the model validates but does not execute (unsupported-op).
constexpr bool is_unmodelled(uint8_t code) {
  return has_class(code, Unmodelled);
}

}  // namespace gpsimd::alu
