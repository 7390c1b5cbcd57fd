// Enumerations shared by the whole model: generations, dtypes, ALU ops and the
// small field enums of SPEC §3.3. Names and codes are the vendor's.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "gpsimd/alu_ops.h"
#include "gpsimd/model.h"

namespace gpsimd {

// NeuronCore generations (SPEC §1). The numeric value is the version number.
enum class Generation : uint8_t { V2 = 2, V3 = 3, V4 = 4, V5 = 5 };

inline constexpr std::array<Generation, 4> kAllGenerations = {Generation::V2, Generation::V3,
                                                              Generation::V4, Generation::V5};

// Returns "v2".."v5".
std::string_view generation_name(Generation g);
// Parses "v2".."v5" (case-insensitive, "V3" and "3" accepted); nullopt otherwise.
std::optional<Generation> parse_generation(std::string_view s);
// Parses a generation as a user names it (--nc, `.nc`, Python's generation=): what
// parse_generation takes, or a name SPEC §1 gives the generation, in any case: trn1,
// inf2, sunda (v2); trn2, cayman (v3); mariana (v4); maverick (v5). nullopt otherwise.
std::optional<Generation> parse_nc(std::string_view s);
// What parse_nc accepts, for messages.
inline constexpr std::string_view kNcNames =
    "v2, v3, v4 or v5, or a name of one: trn1, inf2, sunda (v2); trn2, cayman (v3); "
    "mariana (v4); maverick (v5)";

// DTYPE (SPEC §3.3).
enum class Dtype : uint8_t {
  INVALID = 0x0,
  UINT64 = 0x1,
  INT8 = 0x2,
  UINT8 = 0x3,
  INT16 = 0x4,
  UINT16 = 0x5,
  BF16 = 0x6,
  FP16 = 0x7,
  INT32 = 0x8,
  UINT32 = 0x9,
  FP32 = 0xA,
  FP32R = 0xB,
  INT64 = 0xC,
  FP8_E3 = 0xD,
  FP8_E4 = 0xE,
  FP8_E5 = 0xF,
  FP4_E2 = 0x10,
  CPTC1 = 0x19,
  CPTC2 = 0x1A,
  CPTC3 = 0x1B,
  CPTC4 = 0x1C,
  CPTC5 = 0x1D,
  CPTC6 = 0x1E,
  CPTC7 = 0x1F,
};

// Returns the byte size of a dtype, or nullopt for one that has none
// (INVALID, FP4_E2, CPTC*, or a code outside the enumeration).
// Inline: validation asks for it several times per word.
constexpr std::optional<unsigned> dtype_size(uint8_t code) {
  switch (static_cast<Dtype>(code)) {
    case Dtype::INT8:
    case Dtype::UINT8:
    case Dtype::FP8_E3:
    case Dtype::FP8_E4:
    case Dtype::FP8_E5:
      return 1;
    case Dtype::INT16:
    case Dtype::UINT16:
    case Dtype::BF16:
    case Dtype::FP16:
      return 2;
    case Dtype::INT32:
    case Dtype::UINT32:
    case Dtype::FP32:
    case Dtype::FP32R:
      return 4;
    case Dtype::UINT64:
    case Dtype::INT64:
      return 8;
    default:
      return std::nullopt;
  }
}
constexpr std::optional<unsigned> dtype_size(Dtype d) {
  return dtype_size(static_cast<uint8_t>(d));
}
// Returns the vendor name ("FP32", "BF16", ...) or nullopt for an unknown code.
std::optional<std::string_view> dtype_name(uint8_t code);
// Parses a dtype name, case-insensitive ("fp32", "FP8_E4").
std::optional<Dtype> parse_dtype(std::string_view s);
// True for the floating-point dtypes that have a defined conversion (SPEC §5).
bool is_float_dtype(Dtype d);

// ALU_OP (SPEC §3.3, §3.8): every op of alu_ops.h; alu.h holds its table and predicates.
enum class AluOp : uint8_t {
#define GPSIMD_ALU_ENUMERATOR(name, code, gen, classes) name = code,
  GPSIMD_ALU_OPS(GPSIMD_ALU_ENUMERATOR)
#undef GPSIMD_ALU_ENUMERATOR
};
// The op's name ("IS_GT"), whatever the generation; nullopt for a value no generation has.
std::optional<std::string_view> alu_op_name(uint8_t code);
std::optional<AluOp> parse_alu_op(std::string_view s);

// ACCUM_CMD (SPEC §3.3).
enum class AccumCmd : uint8_t {
  IDLE = 0,
  ZERO = 1,
  ACCUMULATE = 2,
  ZERO_ACCUMULATE = 3,
  LOAD_ACCUMULATE = 4,
};
std::optional<std::string_view> accum_cmd_name(uint8_t code);
std::optional<AccumCmd> parse_accum_cmd(std::string_view s);

// IMM_SRC (SPEC §3.3).
enum class ImmSrc : uint8_t {
  INSTRUCTION_IMMEDIATE = 0,
  POINTER_IMMEDIATE = 1,
  REG_PTR_IMMEDIATE = 2,
};
std::optional<std::string_view> imm_src_name(uint8_t code);
std::optional<ImmSrc> parse_imm_src(std::string_view s);

// TENS_SCALAR_REV_OPS (SPEC §3.3): which of TensorScalar's two ops take the scalar as
// their left operand (SPEC §4.15).
enum class RevOps : uint8_t { NONE = 0, FIRST = 1, SECOND = 2, BOTH = 3 };
std::optional<std::string_view> rev_ops_name(uint8_t code);
std::optional<RevOps> parse_rev_ops(std::string_view s);

// AFFINE_SELECT_CMP (SPEC §3.3): how a ramp value is compared against 0.
enum class AffineSelectCmp : uint8_t { GT = 0, GE = 1, EQ = 2, NE = 3 };
std::optional<std::string_view> affine_select_cmp_name(uint8_t code);
std::optional<AffineSelectCmp> parse_affine_select_cmp(std::string_view s);

// Event modes (SPEC §3.2).
enum class WaitMode : uint8_t { NONE = 0, GE = 1, EQ = 2 };
enum class UpdateMode : uint8_t { NONE = 0, SET = 1, INC = 2, DEC = 3 };
std::optional<std::string_view> wait_mode_name(uint8_t code);
std::optional<WaitMode> parse_wait_mode(std::string_view s);
std::optional<std::string_view> update_mode_name(uint8_t code);
std::optional<UpdateMode> parse_update_mode(std::string_view s);

// Machine geometry (SPEC §2).
inline constexpr unsigned kPartitions = 128;
inline constexpr unsigned kPsumPartitionBytes = 16 * 1024;
inline constexpr unsigned kRegisters = 64;
inline constexpr unsigned kSemaphores = model::kSemaphores;  // [model]
// Returns the SBUF bytes per partition for a generation.
constexpr unsigned sbuf_partition_bytes(Generation g) {
  switch (g) {
    case Generation::V2:
      return 192 * 1024;
    case Generation::V3:
      return 224 * 1024;
    case Generation::V4:
    case Generation::V5:
      return model::kSbufPartitionBytesV4V5;
  }
  return 0;
}

// The index of the first row of `rows` whose byte `key(row)` is each value, or 0xff when
// no row has it: finding a table's row by one byte is then a load. `rows` has fewer than
// 0xff rows.
inline constexpr uint8_t kNoRow = 0xff;
template <class Row, std::size_t N, class Key>
constexpr std::array<uint8_t, 256> first_row_by_byte(const std::array<Row, N>& rows, Key key) {
  static_assert(N < kNoRow);
  std::array<uint8_t, 256> index{};
  index.fill(kNoRow);
  for (std::size_t i = 0; i < N; ++i)
    if (uint8_t& slot = index[key(rows[i])]; slot == kNoRow) slot = static_cast<uint8_t>(i);
  return index;
}

}  // namespace gpsimd
