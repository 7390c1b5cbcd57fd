// What the assembler and the disassembler agree on beyond the instruction table: the
// default of each optional field, how an instruction immediate is typed, the names of the
// events sub-fields and of the enumeration-valued fields' codes (docs/assembly.md). Both sides use
// these functions, so a field omitted by one is filled in identically by the other.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "common/names.h"
#include "gpsimd/isa.h"
#include "gpsimd/types.h"

namespace gpsimd::asmtext {

// Sub-fields of an Events row (SPEC §3.2), in the order they are printed.
inline constexpr std::array<std::string_view, 5> kEventFields = {
    "wait_mode", "wait_idx", "update_mode", "update_idx", "value"};

// A field kind whose values are the codes of an enumeration: what messages call the
// enumeration, and the function that names a code (nullopt for a code without a name).
struct EnumField {
  FieldKind kind;
  std::string_view what;
  std::optional<std::string_view> (*name)(uint8_t);
};
inline constexpr EnumField kEnumFields[] = {
    {FieldKind::Dtype, "dtype", dtype_name},
    {FieldKind::AluOp, "ALU op", alu_op_name},
    {FieldKind::AccumCmd, "ACCUM_CMD", accum_cmd_name},
    {FieldKind::ImmSrc, "IMM_SRC", imm_src_name},
    {FieldKind::AffineCmp, "AFFINE_SELECT_CMP", affine_select_cmp_name},
    {FieldKind::RevOps, "TENS_SCALAR_REV_OPS", rev_ops_name},
};
// The row of an enumeration-valued field kind; nullptr for any other kind.
inline const EnumField* enum_field(FieldKind k) {
  return find_row(kEnumFields, k, &EnumField::kind);
}

// The default value of an integer-valued field that may be omitted, or nullopt when the
// field is required (the table row's with_default). Header, Events and Reserved rows
// always have defaults (the default header, all NONE/0, all zero).
std::optional<uint64_t> integer_default(const FieldDef& f);

// How an instruction immediate (IMM_VAL read as INSTRUCTION_IMMEDIATE) is written in
// text, as its table row says (FieldDef::imm_text): an FP32 number (RangeSelect's
// bounds), an unsigned 32-bit integer (Sort's index_offset), a signed one
// (NonzeroWithCount's INT32 index_offset and padding_val), or a value of the dtype named
// by another field (TensorScalarSelect: src1_imm has `dtype`, pred_imm has
// `pred_imm_dtype`; CopyPredicatedScalar: src0_imm has `in_dtype`), or the 32 bits in hex
// (the pointer-only TensorScalarPtr* forms, whose immediates are always ADDR4s).
struct ImmType {
  enum Kind { Fp32, U32, I32, DtypeOf, Hex } kind = U32;
  std::string_view dtype_field;  // DtypeOf: the field holding the dtype
};
ImmType imm_type(const InstrDef& def, const FieldDef& f);

// The ImmVal row whose `src_field` is the given ImmSrc row, or nullptr.
const FieldDef* imm_of_src(const InstrDef& def, const FieldDef& src);

// Parses an FP32 literal: a decimal number (rounded to the nearest FP32), inf, nan
// (with an optional sign), or 0x bits. Returns the bits, or nullopt with `why`.
std::optional<uint32_t> parse_fp32(std::string_view text, std::string* why);
// Parses an integer literal (decimal or 0x hex, optional sign) that must lie in
// [lo, hi]. Returns the value, or nullopt with `why`.
std::optional<int64_t> parse_int(std::string_view text, int64_t lo, int64_t hi, std::string* why);
// The text of an instruction immediate of the given type (see ImmType); `dtype` is the
// code of the dtype field for DtypeOf.
std::string format_imm(ImmType t, uint8_t dtype, uint32_t value);
// Parses an instruction immediate written as a number: 0x bits as they are, otherwise a
// value of the immediate's type. Returns the 32-bit field, or nullopt with `why`.
std::optional<uint32_t> parse_imm(ImmType t, uint8_t dtype, std::string_view text,
                                  std::string* why);

}  // namespace gpsimd::asmtext
