// The instruction table: the single source of encoding truth (SPEC §3, §4).
//
// One InstrDef row per instruction and one FieldDef row per field. Encode, decode,
// field access, disassembly, assembly and the reserved-bytes checks all walk these
// rows, so they cannot drift apart. The tables are constexpr so that instruction
// code can name a field and get its offset at compile time (field_of).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gpsimd/inline_vector.h"
#include "gpsimd/types.h"

namespace gpsimd {

inline constexpr std::size_t kWordBytes = 64;
using Word = std::array<uint8_t, kWordBytes>;

enum class Opcode : uint8_t {
  TensorTensorArith = 0x41,
  TensorTensorBitvec = 0x51,
  TensorScalarArith = 0x43,
  TensorScalarPtrArith = 0x44,
  TensorScalarBitvec = 0x53,
  TensorScalarPtrBitvec = 0x54,
  Copy = 0x46,
  Cast = 0x47,
  Max8 = 0x6c,
  MatchValueLoad = 0x6d,
  FindIndex8 = 0x6e,
  MatchReplace8 = 0x6f,
  Iota = 0x7e,
  AffineSelect = 0x92,
  Sort = 0x96,
  TensorScalarSelect = 0x98,
  DveReadAccumulator = 0x9b,
  RangeSelect = 0xbc,
  GetSequenceBounds = 0xbe,
  CopyPredicatedScalar = 0xe8,
  NonzeroWithCount = 0xf2,
  Memset = 0x49,
  TensorReduceArith = 0x42,
  TensorReduceBitvec = 0x52,
  TensorTensorScan = 0xe5,
  ScalarTensorTensorArith = 0x9d,
  ScalarTensorTensorBitvec = 0x9e,
  CopyPredicated = 0x72,
  TensorScalarCacheCumulative = 0xe6,
  SelectReduce = 0xea,
};

// The engines (SPEC §3.9): DVE (Vector), POOL (GpSimd) and ACT (Scalar/Activation), in
// the order SPEC lists them (§8.3's round-robin order). Each engine is a row of kEngines;
// a program has one queue per row (program.h), and the names, the parsing and the texts
// below all come from the rows.
enum class Engine : uint8_t { DVE, POOL, ACT };

struct EngineDef {
  Engine engine;
  // "dve": SPEC §7's "engine" key, `--engine`, the assembly's `.engine` and `.queue`, and
  // a queue's name in "E:i" (SPEC §8.1).
  std::string_view id;
  // "DVE": the engine as messages name it.
  std::string_view name;
  // NKI's name of the engine ("vector"), and another name NKI code uses for it
  // ("activation"), or empty; parse_engine accepts both.
  std::string_view nki_name;
  std::string_view nki_alias;
  // SPEC §3.9 item 1: the engine may touch PSUM (every engine but POOL).
  bool touches_psum;
};

// One row per Engine value, in the enum's order (row i is Engine(i)).
inline constexpr std::array kEngines = {
    EngineDef{Engine::DVE, "dve", "DVE", "vector", "", true},
    EngineDef{Engine::POOL, "pool", "POOL", "gpsimd", "", false},
    EngineDef{Engine::ACT, "act", "ACT", "scalar", "activation", true},
};
inline constexpr std::size_t kEngineCount = kEngines.size();
static_assert([] {
  for (std::size_t i = 0; i < kEngineCount; ++i)
    if (static_cast<std::size_t>(kEngines[i].engine) != i) return false;
  return true;
}());

// The row of an engine.
constexpr const EngineDef& engine_def(Engine e) {
  return kEngines[static_cast<std::size_t>(e)];
}
// Every engine, in the table's order.
inline constexpr std::array<Engine, kEngineCount> kAllEngines = [] {
  std::array<Engine, kEngineCount> a{};
  for (std::size_t i = 0; i < kEngineCount; ++i) a[i] = kEngines[i].engine;
  return a;
}();

// "DVE", "POOL", "ACT".
std::string_view engine_name(Engine e);
// "dve", "pool", "act": the names of SPEC §7's "engine" key and of `--engine`.
std::string_view engine_id(Engine e);
// Parses exactly an engine's id ("dve", "pool" or "act", SPEC §7); nullopt for anything
// else.
std::optional<Engine> parse_engine_id(std::string_view s);
// Parses an engine as a person may write it: its id ("dve", "pool", "act") in any case, or
// NKI's names ("vector", "gpsimd", "scalar", also "activation"). nullopt otherwise.
std::optional<Engine> parse_engine(std::string_view s);

namespace detail {
// The texts of the engine table: the ids joined "a, b or c", quoted when kQuoted, with
// "and" when kAnd; kNki adds " (NKI's x, y, z)".
enum EngineText : unsigned { kQuoted = 1, kAnd = 2, kNki = 4 };
// Writes text `t` into `out` (when not null); returns its length.
constexpr std::size_t write_engine_text(char* out, unsigned t) {
  std::size_t n = 0;
  const auto put = [&](std::string_view s) {
    for (char c : s) {
      if (out) out[n] = c;
      ++n;
    }
  };
  // "a, b or c" of the rows' `field`, each between `quote`s.
  const auto list = [&](std::string_view EngineDef::*field, std::string_view quote,
                        std::string_view last) {
    for (std::size_t i = 0; i < kEngineCount; ++i) {
      if (i > 0) put(i + 1 == kEngineCount ? last : ", ");
      put(quote);
      put(kEngines[i].*field);
      put(quote);
    }
  };
  list(&EngineDef::id, t & kQuoted ? "\"" : "", t & kAnd ? " and " : " or ");
  if (t & kNki) {
    put(" (NKI's ");
    list(&EngineDef::nki_name, "", ", ");
    put(")");
  }
  return n;
}
template <unsigned T>
inline constexpr auto kEngineTextChars = [] {
  std::array<char, write_engine_text(nullptr, T)> a{};
  write_engine_text(a.data(), T);
  return a;
}();
template <unsigned T>
inline constexpr std::string_view kEngineText{kEngineTextChars<T>.data(),
                                              kEngineTextChars<T>.size()};
}  // namespace detail

// The engines' ids, for messages: "dve, pool or act", "dve, pool and act", and quoted:
// "\"dve\", \"pool\" or \"act\"", "\"dve\", \"pool\" and \"act\"".
inline constexpr std::string_view kEngineIdsText = detail::kEngineText<0>;
inline constexpr std::string_view kEngineIdsAndText = detail::kEngineText<detail::kAnd>;
inline constexpr std::string_view kEngineIdsQuotedText = detail::kEngineText<detail::kQuoted>;
inline constexpr std::string_view kEngineIdsQuotedAndText =
    detail::kEngineText<detail::kQuoted | detail::kAnd>;
// What the lenient parser accepts, for error messages:
// "dve, pool or act (NKI's vector, gpsimd, scalar)".
inline constexpr std::string_view kEngineNamesText = detail::kEngineText<detail::kNki>;

namespace detail {
// What an instruction does (src/ops/op.h): its clauses, its effect, what `explain` says
// about it and the valid word tools start from. Each instruction's op file defines one,
// and its table row points to it, so the row and the op file are the two places that
// hold an instruction.
struct OpSemantics;
}  // namespace detail

enum class FieldKind : uint8_t {
  Header,     // 4 bytes: opcode, length in 32-bit words, two zero bytes (kept raw)
  Events,     // 8 bytes: wait_mode, wait_idx, update_mode, update_idx, value (SPEC §3.2)
  U8,         // a plain byte: a count or a flag
  U32,        // a plain unsigned 32-bit integer (a count)
  Dtype,      // DTYPE
  DtypePair,  // DTYPE_PAIR: input in the low nibble, output in the high nibble
  AluOp,      // ALU_OP
  AccumCmd,   // ACCUM_CMD
  ImmSrc,     // IMM_SRC
  Fp32,       // an FP32 immediate
  ImmVal,     // IMM_VAL_INST_FIELD, read per its *_src field (SPEC §3.5)
  Tensor,     // TENSOR{dims}D (SPEC §3.5)
  Reserved,   // must be zero
  I32,        // a signed 32-bit integer (channel_multiplier)
  AffineCmp,  // AFFINE_SELECT_CMP (SPEC §3.3)
  Data4D,     // DATA4D, the ramp pattern (SPEC §3.7): a TensorDesc whose addr is the base
  RevOps,     // TENS_SCALAR_REV_OPS (SPEC §3.3)
};
std::string_view field_kind_name(FieldKind k);

// How an IMM_VAL field read as INSTRUCTION_IMMEDIATE is written in assembly text (SPEC
// §3.5 says how each instruction reads its immediates).
enum class ImmText : uint8_t {
  U32,      // an unsigned 32-bit integer (Sort's index_offset)
  I32,      // a signed 32-bit integer (NonzeroWithCount's INT32 operands)
  Fp32,     // an FP32 number (RangeSelect's bounds)
  DtypeOf,  // a value of the dtype held by another field (`dtype_field`)
  Hex,      // the 32 bits in hex (an ADDR4 the instruction always reads as a pointer)
};

struct FieldDef {
  std::string_view name;
  uint8_t offset;
  uint8_t size;
  FieldKind kind;
  uint8_t dims = 0;                 // Tensor, Data4D: number of dimensions
  std::string_view src_field{};     // ImmVal: the IMM_SRC field that says how to read it
  ImmText imm_text = ImmText::U32;  // ImmVal: how its instruction immediate is written
  std::string_view dtype_field{};   // ImmText::DtypeOf: the field holding its dtype
  // An integer-valued field the assembly text may omit gets this value (docs/assembly.md:
  // the one legal value, or the identity choice). Header, events and reserved rows always
  // have defaults; every other field without one is required.
  bool has_default = false;
  uint64_t default_value = 0;
};
// A row whose instruction immediate is written as `t` (with its dtype in `dtype_field`).
constexpr FieldDef imm_text(FieldDef f, ImmText t, std::string_view dtype_field = {}) {
  f.imm_text = t;
  f.dtype_field = dtype_field;
  return f;
}
// A row the assembly text may omit, and the value it then gets.
constexpr FieldDef with_default(FieldDef f, uint64_t default_value) {
  f.has_default = true;
  f.default_value = default_value;
  return f;
}

struct InstrDef {
  Opcode opcode;
  std::string_view mnemonic;     // spelled as in SPEC: "RangeSelect"
  std::string_view struct_name;  // the vendor's operand struct: "S2D2_RS"
  // The engine it runs on (SPEC §1); for an instruction that takes the engine as an input
  // (`engine_input`, SPEC §3.9: §4.14-§4.17), the opcode's default engine.
  Engine engine;
  uint8_t generation_mask;  // bit g set when the instruction exists on Vg
  std::span<const FieldDef> fields;
  // The vendor's name of the clause that checks byte 0 ("has_sort_opcode"): it fails when
  // a word is validated as this instruction and its opcode byte names another.
  std::string_view opcode_clause;
  // True when vendor-strict validation (ValidateOptions::strict) adds a clause to this
  // instruction's (SPEC §4.4: Sort's top-K); strict mode changes no other instruction.
  bool strict_adds_clauses;
  const detail::OpSemantics* semantics;  // defined in src/ops/<snake_case mnemonic>.cc
  // SPEC §3.9: the engine is an input of validation and execution (any of the three may
  // be given; `engine` applies when none is). False: the instruction runs on `engine` and
  // ignores the engine input.
  bool engine_input = false;

  // The engine a word of this instruction runs on, given the engine input (if any).
  Engine engine_for(std::optional<Engine> input) const {
    return engine_input && input ? *input : engine;
  }

  bool exists_on(Generation g) const { return (generation_mask >> static_cast<unsigned>(g)) & 1u; }
};

constexpr uint8_t gen_mask(std::initializer_list<Generation> gs) {
  uint8_t m = 0;
  for (Generation g : gs) m = static_cast<uint8_t>(m | (1u << static_cast<unsigned>(g)));
  return m;
}

// Byte sizes of the composite kinds.
constexpr uint8_t tensor_bytes(uint8_t dims) {
  return static_cast<uint8_t>(4 + 4 * dims);
}

namespace table {
using K = FieldKind;
inline constexpr FieldDef kHeader{"header", 0, 4, K::Header};
inline constexpr FieldDef kEvents{"events", 4, 8, K::Events};

// SPEC §4.1, S2D2_RS.
extern const detail::OpSemantics kRangeSelectOps;
inline constexpr std::array kRangeSelect = {
    kHeader,
    kEvents,
    FieldDef{"num_active_channels", 12, 1, K::U8},
    FieldDef{"in_out_dtype", 13, 1, K::DtypePair},
    with_default(FieldDef{"reduce_cmd", 14, 1, K::AccumCmd}, 0),
    with_default(FieldDef{"reduce_op", 15, 1, K::AluOp}, 0x08),
    with_default(FieldDef{"base", 16, 4, K::Fp32}, 0),
    with_default(FieldDef{"fill_val", 20, 4, K::Fp32}, 0xff7fffffu),
    FieldDef{"src_mem_pattern", 24, tensor_bytes(2), K::Tensor, 2},
    FieldDef{"comp_op0", 36, 1, K::AluOp},
    FieldDef{"comp_op1", 37, 1, K::AluOp},
    FieldDef{"bound0_src", 38, 1, K::ImmSrc},
    FieldDef{"bound1_src", 39, 1, K::ImmSrc},
    imm_text(FieldDef{"bound0", 40, 4, K::ImmVal, 0, "bound0_src"}, ImmText::Fp32),
    imm_text(FieldDef{"bound1", 44, 4, K::ImmVal, 0, "bound1_src"}, ImmText::Fp32),
    FieldDef{"dst_mem_pattern", 48, tensor_bytes(2), K::Tensor, 2},
    FieldDef{"reserved1", 60, 4, K::Reserved},
};

// SPEC §4.2, S3D3_TS_SELECT.
extern const detail::OpSemantics kTensorScalarSelectOps;
inline constexpr std::array kTensorScalarSelect = {
    kHeader,
    kEvents,
    FieldDef{"reserved0", 12, 4, K::Reserved},
    FieldDef{"src0_mem_pattern", 16, tensor_bytes(3), K::Tensor, 3},
    with_default(FieldDef{"reversed_pred", 32, 1, K::U8}, 0),
    FieldDef{"num_active_channels", 33, 1, K::U8},
    FieldDef{"dtype", 34, 1, K::Dtype},
    FieldDef{"pred_imm_dtype", 35, 1, K::Dtype},
    FieldDef{"reserved1", 36, 2, K::Reserved},
    FieldDef{"src1_imm_src", 38, 1, K::ImmSrc},
    FieldDef{"pred_imm_src", 39, 1, K::ImmSrc},
    imm_text(FieldDef{"src1_imm", 40, 4, K::ImmVal, 0, "src1_imm_src"}, ImmText::DtypeOf, "dtype"),
    imm_text(FieldDef{"pred_imm", 44, 4, K::ImmVal, 0, "pred_imm_src"}, ImmText::DtypeOf,
             "pred_imm_dtype"),
    FieldDef{"dst_mem_pattern", 48, tensor_bytes(3), K::Tensor, 3},
};

// SPEC §4.3, S3D3_SEQ_BOUNDS.
extern const detail::OpSemantics kGetSequenceBoundsOps;
inline constexpr std::array kGetSequenceBounds = {
    kHeader,
    kEvents,
    FieldDef{"num_active_channels", 12, 1, K::U8},
    FieldDef{"reserved0", 13, 1, K::Reserved},
    FieldDef{"in_dtype", 14, 1, K::Dtype},
    FieldDef{"out_dtype", 15, 1, K::Dtype},
    FieldDef{"src_mem_pattern", 16, tensor_bytes(3), K::Tensor, 3},
    FieldDef{"dst_mem_pattern", 32, tensor_bytes(3), K::Tensor, 3},
    FieldDef{"reserved1", 48, 16, K::Reserved},
};

// SPEC §4.4, S1D2_SORT.
extern const detail::OpSemantics kSortOps;
inline constexpr std::array kSort = {
    kHeader,
    kEvents,
    FieldDef{"num_active_channels", 12, 1, K::U8},
    FieldDef{"index_offset_src", 13, 1, K::ImmSrc},
    FieldDef{"in_out_dtype", 14, 1, K::DtypePair},
    FieldDef{"comparison", 15, 1, K::AluOp},
    FieldDef{"src_mem_pattern", 16, tensor_bytes(1), K::Tensor, 1},
    FieldDef{"dst_mem_pattern", 24, tensor_bytes(2), K::Tensor, 2},
    with_default(FieldDef{"index_offset", 36, 4, K::ImmVal, 0, "index_offset_src"}, 0),
    with_default(FieldDef{"stable", 40, 1, K::U8}, 0),
    FieldDef{"reserved1", 41, 23, K::Reserved},
};

// SPEC §4.5, S2D2_TS_AS. No reserved bytes.
extern const detail::OpSemantics kAffineSelectOps;
inline constexpr std::array kAffineSelect = {
    kHeader,
    kEvents,
    FieldDef{"num_active_channels", 12, 1, K::U8},
    FieldDef{"in_out_dtype", 13, 1, K::DtypePair},
    FieldDef{"fill_mode", 14, 1, K::AffineCmp},
    FieldDef{"fill_reg", 15, 1, K::U8},
    FieldDef{"mask_pattern", 16, tensor_bytes(4), K::Data4D, 4},
    FieldDef{"src_mem_pattern", 36, tensor_bytes(2), K::Tensor, 2},
    FieldDef{"dst_mem_pattern", 48, tensor_bytes(2), K::Tensor, 2},
    FieldDef{"channel_multiplier", 60, 4, K::I32},
};

// SPEC §4.6, D4_IOTA.
extern const detail::OpSemantics kIotaOps;
inline constexpr std::array kIota = {
    kHeader,
    kEvents,
    FieldDef{"src_data_pattern", 12, tensor_bytes(4), K::Data4D, 4},
    FieldDef{"reserved0", 32, 1, K::Reserved},
    FieldDef{"out_dtype", 33, 1, K::Dtype},
    FieldDef{"num_active_channels", 34, 1, K::U8},
    FieldDef{"reserved1", 35, 1, K::Reserved},
    FieldDef{"channel_multiplier", 36, 4, K::I32},
    FieldDef{"reserved2", 40, 4, K::Reserved},
    FieldDef{"dst_mem_pattern", 44, tensor_bytes(4), K::Tensor, 4},
};

// SPEC §4.7, S2_BN. imm1, imm0_ptr and imm0_src are unused and must be zero.
extern const detail::OpSemantics kMatchValueLoadOps;
inline constexpr std::array kMatchValueLoad = {
    kHeader,
    kEvents,
    FieldDef{"reserved0", 12, 4, K::Reserved},
    FieldDef{"src_mem_pattern", 16, tensor_bytes(2), K::Tensor, 2},
    with_default(FieldDef{"imm1", 28, 4, K::U32}, 0),
    FieldDef{"dtype", 32, 1, K::Dtype},
    FieldDef{"reserved1", 33, 1, K::Reserved},
    FieldDef{"num_active_channels", 34, 1, K::U8},
    FieldDef{"reserved2", 35, 9, K::Reserved},
    with_default(FieldDef{"imm0_ptr", 44, 4, K::U32}, 0),
    with_default(FieldDef{"imm0_src", 48, 1, K::U8}, 0),
    FieldDef{"reserved3", 49, 15, K::Reserved},
};

// SPEC §4.8, S4D2_BN: Max8, and FindIndex8 (SPEC §4.9) with the same layout.
extern const detail::OpSemantics kMax8Ops;
inline constexpr std::array kMax8 = {
    kHeader,
    kEvents,
    FieldDef{"src_mem_pattern", 12, tensor_bytes(4), K::Tensor, 4},
    FieldDef{"in_dtype", 32, 1, K::Dtype},
    FieldDef{"out_dtype", 33, 1, K::Dtype},
    FieldDef{"num_active_channels", 34, 1, K::U8},
    FieldDef{"reserved0", 35, 5, K::Reserved},
    with_default(FieldDef{"even_count", 40, 4, K::Fp32}, 0),
    with_default(FieldDef{"odd_count", 44, 4, K::Fp32}, 0),
    FieldDef{"dst_mem_pattern", 48, tensor_bytes(2), K::Tensor, 2},
    FieldDef{"reserved1", 60, 4, K::Reserved},
};
extern const detail::OpSemantics kFindIndex8Ops;
inline constexpr auto& kFindIndex8 = kMax8;

// SPEC §4.10, S4D4_MR.
extern const detail::OpSemantics kMatchReplace8Ops;
inline constexpr std::array kMatchReplace8 = {
    kHeader,
    kEvents,
    FieldDef{"src_mem_pattern", 12, tensor_bytes(4), K::Tensor, 4},
    FieldDef{"in_dtype", 32, 1, K::Dtype},
    FieldDef{"out_dtype", 33, 1, K::Dtype},
    FieldDef{"num_active_channels", 34, 1, K::U8},
    FieldDef{"reserved0", 35, 5, K::Reserved},
    FieldDef{"immediate", 40, 4, K::Fp32},
    FieldDef{"dst_mem_pattern", 44, tensor_bytes(4), K::Tensor, 4},
};

// SPEC §4.11, S3D3_NONZERO_WITH_COUNT. in_dtype and out_dtype are two bytes, not a pair.
extern const detail::OpSemantics kNonzeroWithCountOps;
inline constexpr std::array kNonzeroWithCount = {
    kHeader,
    kEvents,
    FieldDef{"num_active_channels", 12, 1, K::U8},
    FieldDef{"in_dtype", 13, 1, K::Dtype},
    FieldDef{"out_dtype", 14, 1, K::Dtype},
    FieldDef{"index_offset_src", 15, 1, K::ImmSrc},
    FieldDef{"src_mem_pattern", 16, tensor_bytes(3), K::Tensor, 3},
    with_default(
        imm_text(FieldDef{"index_offset", 32, 4, K::ImmVal, 0, "index_offset_src"}, ImmText::I32),
        0),
    FieldDef{"padding_val_src", 36, 1, K::ImmSrc},
    FieldDef{"reserved0", 37, 3, K::Reserved},
    imm_text(FieldDef{"padding_val", 40, 4, K::ImmVal, 0, "padding_val_src"}, ImmText::I32),
    FieldDef{"dst_mem_pattern", 44, tensor_bytes(3), K::Tensor, 3},
    FieldDef{"reserved1", 60, 4, K::Reserved},
};

// SPEC §4.12, S3D3_CP_PRED_SCALAR.
extern const detail::OpSemantics kCopyPredicatedScalarOps;
inline constexpr std::array kCopyPredicatedScalar = {
    kHeader,
    kEvents,
    FieldDef{"reserved0", 12, 4, K::Reserved},
    FieldDef{"pred_mem_pattern", 16, tensor_bytes(3), K::Tensor, 3},
    FieldDef{"pred_dtype", 32, 1, K::Dtype},
    with_default(FieldDef{"reversed_pred", 33, 1, K::U8}, 0),
    FieldDef{"num_active_channels", 34, 1, K::U8},
    FieldDef{"reserved1", 35, 6, K::Reserved},
    FieldDef{"in_dtype", 41, 1, K::Dtype},
    FieldDef{"out_dtype", 42, 1, K::Dtype},
    FieldDef{"src0_imm_src", 43, 1, K::ImmSrc},
    imm_text(FieldDef{"src0_imm", 44, 4, K::ImmVal, 0, "src0_imm_src"}, ImmText::DtypeOf,
             "in_dtype"),
    FieldDef{"dst_mem_pattern", 48, tensor_bytes(3), K::Tensor, 3},
};

// SPEC §4.13, D1_RD.
extern const detail::OpSemantics kDveReadAccumulatorOps;
inline constexpr std::array kDveReadAccumulator = {
    kHeader,
    kEvents,
    FieldDef{"reserved0", 12, 16, K::Reserved},
    with_default(FieldDef{"dst_element_count", 28, 4, K::U32}, 1),
    FieldDef{"dtype", 32, 1, K::Dtype},
    with_default(FieldDef{"negated", 33, 1, K::U8}, 0),
    FieldDef{"num_active_channels", 34, 1, K::U8},
    FieldDef{"reserved1", 35, 9, K::Reserved},
    FieldDef{"dst_mem_pattern", 44, tensor_bytes(1), K::Tensor, 1},
    FieldDef{"reserved2", 52, 12, K::Reserved},
};

// SPEC §4.14, S3S3D3_TT: TensorTensorArith, and TensorTensorBitvec with the same layout.
// No reserved bytes; in0_in1_dtype holds src0's dtype in the low nibble, src1's in the high.
// CopyPredicated (SPEC §4.22) has the same bytes, its op defaulting to BYPASS.
constexpr std::array<FieldDef, 9> s3s3d3_tt_fields(FieldDef op) {
  return {
      kHeader,
      kEvents,
      FieldDef{"in0_in1_dtype", 12, 1, K::DtypePair},
      FieldDef{"out_dtype", 13, 1, K::Dtype},
      op,
      FieldDef{"num_active_channels", 15, 1, K::U8},
      FieldDef{"src0_mem_pattern", 16, tensor_bytes(3), K::Tensor, 3},
      FieldDef{"src1_mem_pattern", 32, tensor_bytes(3), K::Tensor, 3},
      FieldDef{"dst_mem_pattern", 48, tensor_bytes(3), K::Tensor, 3},
  };
}
inline constexpr FieldDef kTtOp{"op", 14, 1, K::AluOp};
extern const detail::OpSemantics kTensorTensorArithOps;
inline constexpr std::array kTensorTensorArith = s3s3d3_tt_fields(kTtOp);
extern const detail::OpSemantics kTensorTensorBitvecOps;
inline constexpr auto& kTensorTensorBitvec = kTensorTensorArith;
// SPEC §4.15, S3D3_TS: TensorScalarArith (0x43) and TensorScalarBitvec (0x53), and their
// pointer-only forms TensorScalarPtrArith (0x44) and TensorScalarPtrBitvec (0x54). The
// four rows share the bytes; they differ in how an instruction immediate is written:
// an FP32 for the arithmetic opcode, a value of in_dtype for the bitvec one, and the
// ADDR4's bits for the pointer forms, whose imm0/imm1 are pointers whatever *_src says.
inline constexpr FieldDef kTsAccumulatorCmd{"accumulator_cmd", 12, 1, K::AccumCmd};
constexpr std::array<FieldDef, 16> s3d3_ts_fields(
    FieldDef imm0, FieldDef imm1,
    FieldDef accumulator_cmd = with_default(kTsAccumulatorCmd, 0)) {  // IDLE, the only value
  return {
      kHeader,
      kEvents,
      accumulator_cmd,
      FieldDef{"reserved0", 13, 3, K::Reserved},
      FieldDef{"src_mem_pattern", 16, tensor_bytes(3), K::Tensor, 3},
      FieldDef{"in_dtype", 32, 1, K::Dtype},
      FieldDef{"out_dtype", 33, 1, K::Dtype},
      FieldDef{"num_active_channels", 34, 1, K::U8},
      FieldDef{"imm0_src", 35, 1, K::ImmSrc},
      FieldDef{"op0", 36, 1, K::AluOp},
      with_default(FieldDef{"op1", 37, 1, K::AluOp}, 0),                // BYPASS
      with_default(FieldDef{"reverse_operands", 38, 1, K::RevOps}, 0),  // NONE
      FieldDef{"imm1_src", 39, 1, K::ImmSrc},
      imm0,
      imm1,
      FieldDef{"dst_mem_pattern", 48, tensor_bytes(3), K::Tensor, 3},
  };
}
inline constexpr FieldDef kTsImm0{"imm0", 40, 4, K::ImmVal, 0, "imm0_src"};
inline constexpr FieldDef kTsImm1{"imm1", 44, 4, K::ImmVal, 0, "imm1_src"};
extern const detail::OpSemantics kTensorScalarArithOps;
extern const detail::OpSemantics kTensorScalarBitvecOps;
extern const detail::OpSemantics kTensorScalarPtrArithOps;
extern const detail::OpSemantics kTensorScalarPtrBitvecOps;
inline constexpr std::array kTensorScalarArith = s3d3_ts_fields(
    imm_text(kTsImm0, ImmText::Fp32), with_default(imm_text(kTsImm1, ImmText::Fp32), 0));
inline constexpr std::array kTensorScalarBitvec =
    s3d3_ts_fields(imm_text(kTsImm0, ImmText::DtypeOf, "in_dtype"),
                   with_default(imm_text(kTsImm1, ImmText::DtypeOf, "in_dtype"), 0));
inline constexpr std::array kTensorScalarPtr =
    s3d3_ts_fields(imm_text(kTsImm0, ImmText::Hex), imm_text(kTsImm1, ImmText::Hex));
inline constexpr auto& kTensorScalarPtrArith = kTensorScalarPtr;
inline constexpr auto& kTensorScalarPtrBitvec = kTensorScalarPtr;
// SPEC §4.16, S4D4_TR: Copy, and Cast (SPEC §4.17) with the same layout. in_dtype and
// out_dtype are two full bytes; op (must be BYPASS), op_dim (TENSOR_SUBDIM: UNUSED 0x0 or
// X 0x2), mask_enable and negated (both 0) have the one legal value or UNUSED as default.
extern const detail::OpSemantics kCopyOps;
inline constexpr std::array kCopy = {
    kHeader,
    kEvents,
    FieldDef{"src_mem_pattern", 12, tensor_bytes(4), K::Tensor, 4},
    FieldDef{"in_dtype", 32, 1, K::Dtype},
    FieldDef{"out_dtype", 33, 1, K::Dtype},
    FieldDef{"num_active_channels", 34, 1, K::U8},
    with_default(FieldDef{"negated", 35, 1, K::U8}, 0),
    with_default(FieldDef{"op", 36, 1, K::AluOp}, 0),
    with_default(FieldDef{"op_dim", 37, 1, K::U8}, 0),
    with_default(FieldDef{"mask_enable", 38, 1, K::U8}, 0),
    FieldDef{"reserved1", 39, 5, K::Reserved},
    FieldDef{"dst_mem_pattern", 44, tensor_bytes(4), K::Tensor, 4},
};
extern const detail::OpSemantics kCastOps;
inline constexpr auto& kCast = kCopy;

// SPEC §4.18, D4_MR. set_value is the destination dtype's bit pattern in its low bytes.
extern const detail::OpSemantics kMemsetOps;
inline constexpr std::array kMemset = {
    kHeader,
    kEvents,
    FieldDef{"reserved0", 12, 16, K::Reserved},
    FieldDef{"dst_element_count", 28, 4, K::U32},
    FieldDef{"dtype", 32, 1, K::Dtype},
    FieldDef{"reserved1", 33, 1, K::Reserved},
    FieldDef{"num_active_channels", 34, 1, K::U8},
    FieldDef{"reserved2", 35, 1, K::Reserved},
    with_default(FieldDef{"serialization_mode", 36, 1, K::U8}, 0),  // Serial, the only value
    FieldDef{"reserved3", 37, 3, K::Reserved},
    FieldDef{"set_value", 40, 4, K::U32},
    FieldDef{"dst_mem_pattern", 44, tensor_bytes(4), K::Tensor, 4},
};

// SPEC §4.19, S4D4_TR as Copy's: TensorReduceArith, and TensorReduceBitvec with the same
// layout. op is the reduction, op_dim (TENSOR_SUBDIM: X 0x2 ... XYZW 0x5) how many innermost
// dims it folds.
extern const detail::OpSemantics kTensorReduceArithOps;
inline constexpr std::array kTensorReduceArith = {
    kHeader,
    kEvents,
    FieldDef{"src_mem_pattern", 12, tensor_bytes(4), K::Tensor, 4},
    FieldDef{"in_dtype", 32, 1, K::Dtype},
    FieldDef{"out_dtype", 33, 1, K::Dtype},
    FieldDef{"num_active_channels", 34, 1, K::U8},
    with_default(FieldDef{"negated", 35, 1, K::U8}, 0),
    FieldDef{"op", 36, 1, K::AluOp},
    FieldDef{"op_dim", 37, 1, K::U8},
    with_default(FieldDef{"mask_enable", 38, 1, K::U8}, 0),
    FieldDef{"reserved1", 39, 5, K::Reserved},
    FieldDef{"dst_mem_pattern", 44, tensor_bytes(4), K::Tensor, 4},
};
extern const detail::OpSemantics kTensorReduceBitvecOps;
inline constexpr auto& kTensorReduceBitvec = kTensorReduceArith;

// SPEC §4.20, S2S2D2_STT: TensorTensorScan, and ScalarTensorTensorArith/Bitvec (§4.21) and
// SelectReduce (§4.25) with the same bytes. imm0 (read per imm0_src, with imm0_dtype for a
// pointer) is the scan's initial, the scalar, or SelectReduce's on_false.
constexpr std::array<FieldDef, 16> s2s2d2_stt_fields(FieldDef op0, FieldDef op1,
                                                     FieldDef accumulator_cmd, FieldDef imm0) {
  return {
      kHeader,
      kEvents,
      FieldDef{"src0_mem_pattern", 12, tensor_bytes(2), K::Tensor, 2},
      FieldDef{"src1_mem_pattern", 24, tensor_bytes(2), K::Tensor, 2},
      op0,
      op1,
      with_default(FieldDef{"reverse_operands", 38, 1, K::RevOps}, 0),  // NONE
      FieldDef{"imm0_src", 39, 1, K::ImmSrc},
      FieldDef{"in0_in1_dtype", 40, 1, K::DtypePair},
      FieldDef{"out_dtype", 41, 1, K::Dtype},
      FieldDef{"num_active_channels", 42, 1, K::U8},
      with_default(FieldDef{"imm0_dtype", 43, 1, K::Dtype}, 0x0a),  // FP32
      accumulator_cmd,
      FieldDef{"reserved", 45, 3, K::Reserved},
      FieldDef{"dst_mem_pattern", 48, tensor_bytes(2), K::Tensor, 2},
      imm0,
  };
}
inline constexpr FieldDef kSttOp0{"op0", 36, 1, K::AluOp};
inline constexpr FieldDef kSttOp1{"op1", 37, 1, K::AluOp};
inline constexpr FieldDef kSttAccumulatorCmd{"accumulator_cmd", 44, 1, K::AccumCmd};
inline constexpr FieldDef kSttImm0{"imm0", 60, 4, K::ImmVal, 0, "imm0_src"};
extern const detail::OpSemantics kTensorTensorScanOps;
inline constexpr std::array kTensorTensorScan = s2s2d2_stt_fields(
    kSttOp0, kSttOp1, with_default(kSttAccumulatorCmd, 0),  // IDLE, the only value
    imm_text(kSttImm0, ImmText::Fp32));
extern const detail::OpSemantics kScalarTensorTensorArithOps;
inline constexpr std::array kScalarTensorTensorArith = s2s2d2_stt_fields(
    kSttOp0, kSttOp1, with_default(kSttAccumulatorCmd, 0), imm_text(kSttImm0, ImmText::Fp32));
extern const detail::OpSemantics kScalarTensorTensorBitvecOps;
inline constexpr std::array kScalarTensorTensorBitvec = s2s2d2_stt_fields(
    kSttOp0, kSttOp1, with_default(kSttAccumulatorCmd, 0), imm_text(kSttImm0, ImmText::Hex));

// SPEC §4.22, S3S3D3_TT as TensorTensor's: src0 the predicate, src1 the data; op must be
// BYPASS.
extern const detail::OpSemantics kCopyPredicatedOps;
inline constexpr std::array kCopyPredicated =
    s3s3d3_tt_fields(with_default(kTtOp, 0));  // BYPASS, the only value

// SPEC §4.24, S3D3_TS as TensorScalar's: accumulator_cmd is the seed (ZERO_ACCUMULATE,
// NKI's reset_reduce, by default), imm1 the seed of LOAD_ACCUMULATE.
extern const detail::OpSemantics kTensorScalarCacheCumulativeOps;
inline constexpr std::array kTensorScalarCacheCumulative = s3d3_ts_fields(
    imm_text(kTsImm0, ImmText::Fp32), with_default(imm_text(kTsImm1, ImmText::Fp32), 0),
    with_default(kTsAccumulatorCmd, 3));

// SPEC §4.25, S2S2D2_STT: src0 the predicate, src1 on_true, imm0 on_false; op0 BYPASS and
// op1 MAX are the only values.
extern const detail::OpSemantics kSelectReduceOps;
inline constexpr std::array kSelectReduce =
    s2s2d2_stt_fields(with_default(kSttOp0, 0), with_default(kSttOp1, 0x08),
                      with_default(kSttAccumulatorCmd, 0), imm_text(kSttImm0, ImmText::Fp32));

using G = Generation;
inline constexpr std::array kInstructions = {
    InstrDef{Opcode::RangeSelect, "RangeSelect", "S2D2_RS", Engine::DVE,
             gen_mask({G::V3, G::V4, G::V5}), kRangeSelect, "has_range_select_opcode", false,
             &kRangeSelectOps},
    InstrDef{Opcode::TensorScalarSelect, "TensorScalarSelect", "S3D3_TS_SELECT", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kTensorScalarSelect,
             "has_tensor_scalar_select_opcode", false, &kTensorScalarSelectOps},
    InstrDef{Opcode::GetSequenceBounds, "GetSequenceBounds", "S3D3_SEQ_BOUNDS", Engine::POOL,
             gen_mask({G::V3, G::V4, G::V5}), kGetSequenceBounds, "has_get_sequence_bounds_opcode",
             false, &kGetSequenceBoundsOps},
    InstrDef{Opcode::Sort, "Sort", "S1D2_SORT", Engine::POOL,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kSort, "has_sort_opcode", true, &kSortOps},
    InstrDef{Opcode::AffineSelect, "AffineSelect", "S2D2_TS_AS", Engine::POOL,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kAffineSelect, "has_s2d2_ts_as_opcode", false,
             &kAffineSelectOps},
    InstrDef{Opcode::Iota, "Iota", "D4_IOTA", Engine::POOL, gen_mask({G::V2, G::V3, G::V4, G::V5}),
             kIota, "has_iota_opcode", false, &kIotaOps},
    InstrDef{Opcode::MatchValueLoad, "MatchValueLoad", "S2_BN", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kMatchValueLoad, "has_match_value_load_opcode",
             false, &kMatchValueLoadOps},
    InstrDef{Opcode::Max8, "Max8", "S4D2_BN", Engine::DVE, gen_mask({G::V2, G::V3, G::V4, G::V5}),
             kMax8, "has_max8_opcode", false, &kMax8Ops},
    InstrDef{Opcode::FindIndex8, "FindIndex8", "S4D2_BN", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kFindIndex8, "has_find_index8_opcode", false,
             &kFindIndex8Ops},
    InstrDef{Opcode::MatchReplace8, "MatchReplace8", "S4D4_MR", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kMatchReplace8, "has_match_replace8_opcode",
             false, &kMatchReplace8Ops},
    InstrDef{Opcode::NonzeroWithCount, "NonzeroWithCount", "S3D3_NONZERO_WITH_COUNT", Engine::POOL,
             gen_mask({G::V3, G::V4, G::V5}), kNonzeroWithCount, "has_nonzero_with_count_opcode",
             false, &kNonzeroWithCountOps},
    InstrDef{Opcode::CopyPredicatedScalar, "CopyPredicatedScalar", "S3D3_CP_PRED_SCALAR",
             Engine::DVE, gen_mask({G::V2, G::V3, G::V4, G::V5}), kCopyPredicatedScalar,
             "has_copy_predicated_scalar_opcode", false, &kCopyPredicatedScalarOps},
    InstrDef{Opcode::DveReadAccumulator, "DveReadAccumulator", "D1_RD", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kDveReadAccumulator,
             "has_dve_read_accumulator_opcode", false, &kDveReadAccumulatorOps},
    InstrDef{Opcode::TensorTensorArith, "TensorTensorArith", "S3S3D3_TT", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kTensorTensorArith, "has_tensor_tensor_opcode",
             false, &kTensorTensorArithOps, /*engine_input=*/true},
    InstrDef{Opcode::TensorTensorBitvec, "TensorTensorBitvec", "S3S3D3_TT", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kTensorTensorBitvec,
             "has_tensor_tensor_opcode", false, &kTensorTensorBitvecOps, /*engine_input=*/true},
    InstrDef{Opcode::TensorScalarArith, "TensorScalarArith", "S3D3_TS", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kTensorScalarArith, "has_tensor_scalar_opcode",
             false, &kTensorScalarArithOps, /*engine_input=*/true},
    InstrDef{Opcode::TensorScalarBitvec, "TensorScalarBitvec", "S3D3_TS", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kTensorScalarBitvec,
             "has_tensor_scalar_opcode", false, &kTensorScalarBitvecOps, /*engine_input=*/true},
    InstrDef{Opcode::TensorScalarPtrArith, "TensorScalarPtrArith", "S3D3_TS", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kTensorScalarPtrArith,
             "has_tensor_scalar_ptr_opcode", false, &kTensorScalarPtrArithOps,
             /*engine_input=*/true},
    InstrDef{Opcode::TensorScalarPtrBitvec, "TensorScalarPtrBitvec", "S3D3_TS", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kTensorScalarPtrBitvec,
             "has_tensor_scalar_ptr_opcode", false, &kTensorScalarPtrBitvecOps,
             /*engine_input=*/true},
    InstrDef{Opcode::Copy, "Copy", "S4D4_TR", Engine::POOL, gen_mask({G::V2, G::V3, G::V4, G::V5}),
             kCopy, "has_copy_opcode", false, &kCopyOps, /*engine_input=*/true},
    InstrDef{Opcode::Cast, "Cast", "S4D4_TR", Engine::POOL, gen_mask({G::V2, G::V3, G::V4, G::V5}),
             kCast, "has_cast_opcode", false, &kCastOps, /*engine_input=*/true},
    InstrDef{Opcode::Memset, "Memset", "D4_MR", Engine::DVE, gen_mask({G::V2, G::V3, G::V4, G::V5}),
             kMemset, "has_memset_opcode", false, &kMemsetOps, /*engine_input=*/true},
    InstrDef{Opcode::TensorReduceArith, "TensorReduceArith", "S4D4_TR", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kTensorReduceArith, "has_tensor_reduce_opcode",
             false, &kTensorReduceArithOps, /*engine_input=*/true},
    InstrDef{Opcode::TensorReduceBitvec, "TensorReduceBitvec", "S4D4_TR", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kTensorReduceBitvec,
             "has_tensor_reduce_opcode", false, &kTensorReduceBitvecOps, /*engine_input=*/true},
    InstrDef{Opcode::TensorTensorScan, "TensorTensorScan", "S2S2D2_STT", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kTensorTensorScan,
             "has_tensor_tensor_scan_opcode", false, &kTensorTensorScanOps},
    InstrDef{Opcode::ScalarTensorTensorArith, "ScalarTensorTensorArith", "S2S2D2_STT", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kScalarTensorTensorArith,
             "has_scalar_tensor_tensor_opcode", false, &kScalarTensorTensorArithOps},
    InstrDef{Opcode::ScalarTensorTensorBitvec, "ScalarTensorTensorBitvec", "S2S2D2_STT",
             Engine::DVE, gen_mask({G::V2, G::V3, G::V4, G::V5}), kScalarTensorTensorBitvec,
             "has_scalar_tensor_tensor_opcode", false, &kScalarTensorTensorBitvecOps},
    InstrDef{Opcode::CopyPredicated, "CopyPredicated", "S3S3D3_TT", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kCopyPredicated,
             "has_copy_cast_predicated_opcode", false, &kCopyPredicatedOps},
    InstrDef{Opcode::TensorScalarCacheCumulative, "TensorScalarCacheCumulative", "S3D3_TS",
             Engine::DVE, gen_mask({G::V2, G::V3, G::V4, G::V5}), kTensorScalarCacheCumulative,
             "has_tensor_cache_cumulative_opcode", false, &kTensorScalarCacheCumulativeOps},
    InstrDef{Opcode::SelectReduce, "SelectReduce", "S2S2D2_STT", Engine::DVE,
             gen_mask({G::V2, G::V3, G::V4, G::V5}), kSelectReduce, "has_select_reduce_opcode",
             false, &kSelectReduceOps},
};
}  // namespace table

// All instruction rows, in SPEC order.
inline constexpr std::span<const InstrDef> instructions() {
  return table::kInstructions;
}

namespace table {
// The row index of each opcode byte (kNoInstruction: unknown), so that finding a word's
// row is one load (validation and execution do it for every word).
inline constexpr uint8_t kNoInstruction = kNoRow;
inline constexpr auto kOpcodeIndex = first_row_by_byte(
    kInstructions, [](const InstrDef& r) { return static_cast<uint8_t>(r.opcode); });
}  // namespace table

// Returns the row for an opcode byte, or nullptr when the opcode is unknown.
constexpr const InstrDef* find_instruction(uint8_t opcode) {
  const uint8_t i = table::kOpcodeIndex[opcode];
  return i == table::kNoInstruction ? nullptr : &table::kInstructions[i];
}
constexpr const InstrDef& instruction(Opcode op) {
  return *find_instruction(static_cast<uint8_t>(op));
}
// Returns the row whose mnemonic matches (case-insensitive), or nullptr.
const InstrDef* find_instruction(std::string_view mnemonic);
// The modelled opcodes in increasing order, as has_known_opcode's message names them:
// "0x96 (Sort), 0x98 (TensorScalarSelect), ...".
std::string known_opcodes_text();

// Every instruction SPEC.md specifies (its §1 table), modelled or not. The conformance
// runner uses it to tell a vector file of an instruction that is not modelled yet
// (pending, SPEC §7) from one that tests unknown opcodes.
struct SpecifiedInstr {
  uint8_t opcode;
  std::string_view mnemonic;
};
inline constexpr std::array<SpecifiedInstr, 31> kSpecifiedInstructions = {{
    {0xbc, "RangeSelect"},
    {0x98, "TensorScalarSelect"},
    {0xbe, "GetSequenceBounds"},
    {0x96, "Sort"},
    {0x92, "AffineSelect"},
    {0x7e, "Iota"},
    {0x6d, "MatchValueLoad"},
    {0x6c, "Max8"},
    {0x6e, "FindIndex8"},
    {0x6f, "MatchReplace8"},
    {0xf2, "NonzeroWithCount"},
    {0xe8, "CopyPredicatedScalar"},
    {0x9b, "DveReadAccumulator"},
    {0x41, "TensorTensorArith"},
    {0x51, "TensorTensorBitvec"},
    {0x43, "TensorScalarArith"},
    {0x53, "TensorScalarBitvec"},
    {0x44, "TensorScalarPtrArith"},
    {0x54, "TensorScalarPtrBitvec"},
    {0x46, "Copy"},
    {0x47, "Cast"},
    {0x49, "Memset"},
    {0x42, "TensorReduceArith"},
    {0x52, "TensorReduceBitvec"},
    {0xe5, "TensorTensorScan"},
    {0x9d, "ScalarTensorTensorArith"},
    {0x9e, "ScalarTensorTensorBitvec"},
    {0x72, "CopyPredicated"},
    {0xb8, "DmaMemcpy"},
    {0xe6, "TensorScalarCacheCumulative"},
    {0xea, "SelectReduce"},
}};
// Returns the SPEC mnemonic of an opcode, modelled or not; nullopt when SPEC has none.
constexpr std::optional<std::string_view> specified_mnemonic(uint8_t opcode) {
  for (const SpecifiedInstr& s : kSpecifiedInstructions)
    if (s.opcode == opcode) return s.mnemonic;
  return std::nullopt;
}

// Returns the field named `name` of an instruction's fields, or nullptr.
constexpr const FieldDef* find_field(std::span<const FieldDef> fields, std::string_view name) {
  for (const FieldDef& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}
// Compile-time field lookup: fails to compile when the field does not exist.
consteval FieldDef field_of(std::span<const FieldDef> fields, std::string_view name) {
  // No pointer compared with null here: GCC 12 with -fsanitize=undefined cannot fold that.
  for (const FieldDef& f : fields)
    if (f.name == name) return f;
  throw "no such field";  // not a constant expression: compile error
}

// ---- Raw little-endian access to a word ------------------------------------------------

inline uint8_t load_u8(const Word& w, unsigned off) {
  return w[off];
}
inline uint16_t load_u16(const Word& w, unsigned off) {
  return static_cast<uint16_t>(w[off] | (w[off + 1] << 8));
}
inline uint32_t load_u32(const Word& w, unsigned off) {
  return static_cast<uint32_t>(w[off]) | (static_cast<uint32_t>(w[off + 1]) << 8) |
         (static_cast<uint32_t>(w[off + 2]) << 16) | (static_cast<uint32_t>(w[off + 3]) << 24);
}
inline void store_u8(Word& w, unsigned off, uint8_t v) {
  w[off] = v;
}
inline void store_u16(Word& w, unsigned off, uint16_t v) {
  w[off] = static_cast<uint8_t>(v);
  w[off + 1] = static_cast<uint8_t>(v >> 8);
}
inline void store_u32(Word& w, unsigned off, uint32_t v) {
  for (unsigned i = 0; i < 4; ++i) w[off + i] = static_cast<uint8_t>(v >> (8 * i));
}

// ---- Decoded values of the composite kinds ---------------------------------------------

struct Events {
  uint8_t wait_mode = 0;
  uint8_t wait_idx = 0;
  uint8_t update_mode = 0;
  uint8_t update_idx = 0;
  uint32_t value = 0;
  bool operator==(const Events&) const = default;
};

// The most dimensions a descriptor has (TENSOR4D, DATA4D).
inline constexpr unsigned kMaxDims = 4;

// A TENSOR{N}D descriptor: ADDR4, then int16 step_elem[N], then uint16 num_elem[N].
// A DATA4D (SPEC §3.7) has the same layout with the int32 base in place of the ADDR4;
// it is held here too, its base in `addr` (see data_base).
struct TensorDesc {
  uint32_t addr = 0;
  uint8_t dims = 1;
  std::array<int16_t, kMaxDims> step{};
  std::array<uint16_t, kMaxDims> num{};
  // Returns the number of elements the walk visits (product of num_elem).
  uint64_t count() const {
    uint64_t c = 1;
    for (unsigned d = 0; d < dims; ++d) c *= num[d];
    return c;
  }
  bool register_mode() const { return (addr >> 31) != 0; }
  bool operator==(const TensorDesc&) const = default;
};
// The base of a DATA4D held in a TensorDesc.
inline int32_t data_base(const TensorDesc& t) {
  return static_cast<int32_t>(t.addr);
}

inline Events load_events(const Word& w, unsigned off = 4) {
  return Events{w[off], w[off + 1], w[off + 2], w[off + 3], load_u32(w, off + 4)};
}
void store_events(Word& w, const Events& e, unsigned off = 4);
// Reads a descriptor of `dims` (1..4, clamped) dimensions at byte `off` (a DATA4D too).
inline TensorDesc load_tensor(const Word& w, unsigned off, unsigned dims) {
  TensorDesc t;
  t.addr = load_u32(w, off);
  t.dims = static_cast<uint8_t>(std::clamp(dims, 1u, kMaxDims));
  for (unsigned d = 0; d < t.dims; ++d) {
    t.step[d] = static_cast<int16_t>(load_u16(w, off + 4 + 2 * d));
    t.num[d] = load_u16(w, off + 4 + 2 * t.dims + 2 * d);
  }
  return t;
}
void store_tensor(Word& w, unsigned off, const TensorDesc& t);
inline TensorDesc load_tensor(const Word& w, const FieldDef& f) {
  return load_tensor(w, f.offset, f.dims);
}

// The value of one field: an integer (bytes, enums, FP32 bits, IMM_VAL bits, the raw
// header), events, a tensor descriptor, or the raw bytes of a reserved field.
// Reserved bytes are held inline (the largest reserved field has 23 bytes); decoding
// allocates nothing, and a value is 32 bytes.
using ReservedBytes = InlineVector<uint8_t, 24>;
using FieldValue = std::variant<uint64_t, Events, TensorDesc, ReservedBytes>;
static_assert(std::ranges::all_of(table::kInstructions, [](const InstrDef& d) {
  return std::ranges::all_of(d.fields, [](const FieldDef& f) {
    return f.kind != FieldKind::Reserved || f.size <= ReservedBytes::capacity();
  });
}));

// The most fields an instruction has.
inline constexpr std::size_t kMaxFields =
    std::ranges::max(table::kInstructions, {}, [](const InstrDef& d) {
      return d.fields.size();
    }).fields.size();

// A decoded word: the instruction row and one value per field row, in row order.
struct Decoded {
  const InstrDef* def = nullptr;
  InlineVector<FieldValue, kMaxFields> values;

  // User-provided, so that a new Decoded is not zero-filled first (decode is hot).
  explicit Decoded(const InstrDef* d = nullptr) noexcept : def(d) {}
  // Reads every field of `def` from `w` (whatever w's opcode byte is).
  Decoded(const InstrDef& d, const Word& w) noexcept;

  // Returns the value of the named field; aborts when the field does not exist.
  const FieldValue& get(std::string_view name) const;
  FieldValue& get(std::string_view name);
  uint64_t integer(std::string_view name) const { return std::get<uint64_t>(get(name)); }
  const TensorDesc& tensor(std::string_view name) const { return std::get<TensorDesc>(get(name)); }
  const Events& events() const { return std::get<Events>(get("events")); }
};

// Reads one field of a word, as its FieldValue.
FieldValue read_field(const Word& w, const FieldDef& f);
// Writes one field. Returns an error text when the value does not fit the field
// (wrong alternative, integer wider than the field, reserved bytes of wrong length).
std::optional<std::string> write_field(Word& w, const FieldDef& f, const FieldValue& v);

// Decodes a word of a known opcode into its fields; nullopt when the opcode is unknown.
// Never fails otherwise: every byte of a known instruction belongs to a field, so
// invalid words decode too, and encode(decode(w)) == w for every such word.
std::optional<Decoded> decode(const Word& w);
// Encodes decoded fields into a word. Throws nothing; returns an error text when a
// value does not fit its field.
struct EncodeResult {
  Word word{};
  std::optional<std::string> error;
};
EncodeResult encode(const Decoded& d);
// A Decoded with every field at its default: header = opcode | 0x10 << 8, the rest zero.
Decoded default_fields(const InstrDef& def);
// The default header word for an opcode (SPEC §3.1).
constexpr uint32_t default_header(Opcode op) {
  return static_cast<uint32_t>(op) | (0x10u << 8);
}

// Parses 128 hex digits (whitespace ignored) into a word; nullopt with a reason otherwise.
std::optional<Word> word_from_hex(std::string_view hex, std::string* error = nullptr);
std::string word_to_hex(const Word& w);

}  // namespace gpsimd
