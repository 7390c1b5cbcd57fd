// Tests of validation (SPEC §3, §4, §6): every instruction's valid word, the header,
// events and opcode clauses common to every instruction, the tensor sub-rules of every
// tensor operand, clauses SPEC ties together, what each clause accepts, the "not
// evaluated" rules of SPEC §3.6, reporting of several failures at once, strict mode, and
// every conformance vector's validation outcome. Each instruction's clauses failing alone
// (a mutation of its valid word per clause, with a diagnostic that names the field and the
// offending value) are in its file in tests/instructions/.
#include "gpsimd/validate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "instructions/validate_cases.h"
#include "test_words.h"

namespace gpsimd {
namespace {

using namespace test_words;

// Every row of the instruction table.
const std::vector<Opcode> kOpcodes = [] {
  std::vector<Opcode> out;
  for (const InstrDef& d : instructions()) out.push_back(d.opcode);
  return out;
}();

std::string op_name(const ::testing::TestParamInfo<Opcode>& info) {
  return mnemonic(info.param);
}

// ---- the valid words ---------------------------------------------------------------------

class PerInstruction : public ::testing::TestWithParam<Opcode> {};

TEST_P(PerInstruction, ValidWordPassesOnEveryGenerationWhereItExists) {
  const Word w = valid_word(GetParam());
  for (Generation g : generations_of(GetParam())) {
    EXPECT_TRUE(validate(w, g).empty()) << gen_text(g) << describe(validate(w, g));
    EXPECT_TRUE(validate(w, g, ValidateOptions{true}).empty()) << gen_text(g) << " strict";
    EXPECT_TRUE(validate_as(instruction(GetParam()), w, g).empty()) << gen_text(g);
  }
}

TEST_P(PerInstruction, ValidWordOnV2FailsOnlyTheGenerationClause) {
  const Opcode op = GetParam();
  const Word w = valid_word(op);
  if (op == Opcode::RangeSelect) {
    EXPECT_TRUE(fails_alone(validate(w, G::V2), op, "has_valid_nc_rs", "generation", "v2"));
  } else if (op == Opcode::GetSequenceBounds) {
    EXPECT_TRUE(fails_alone(validate(w, G::V2), op, "has_valid_nc_get_sequence_bounds",
                            "generation", "v2"));
  } else if (op == Opcode::NonzeroWithCount) {
    EXPECT_TRUE(
        fails_alone(validate(w, G::V2), op, "has_valid_nc_nonzero_with_count", "generation", "v2"));
    EXPECT_TRUE(fails_alone(validate(w, G::V2, ValidateOptions{true}), op,
                            "has_valid_nc_nonzero_with_count", "generation", "v2"));
  } else {
    EXPECT_TRUE(validate(w, G::V2).empty()) << describe(validate(w, G::V2));
  }
}

// ---- header and events (SPEC §3.1, §3.2), common to every instruction ----------------------

TEST_P(PerInstruction, HeaderClauseFailsAlone) {
  const Opcode op = GetParam();
  const auto opc = static_cast<uint32_t>(op);
  struct Case {
    unsigned byte;
    uint8_t value;
  };
  for (Case c : {Case{1, 0x20}, Case{1, 0x0f}, Case{1, 0x00}, Case{2, 0x01}, Case{3, 0x80}}) {
    Word w = valid_word(op);
    w[c.byte] = c.value;
    const uint32_t header = opc | (c.byte == 1 ? c.value : 0x10u) << 8 |
                            (c.byte == 2 ? uint32_t{c.value} << 16 : 0) |
                            (c.byte == 3 ? uint32_t{c.value} << 24 : 0);
    for (Generation g : generations_of(op))
      EXPECT_TRUE(
          fails_alone(validate(w, g), op, "has_valid_neuron_header", "header", hex32(header)))
          << "byte " << c.byte << " " << gen_text(g);
  }
}

TEST_P(PerInstruction, EventsSubRulesEachFailAlone) {
  const Opcode op = GetParam();
  struct Case {
    Events e;
    std::string field;
    std::string value;
  };
  const std::vector<Case> cases = {
      {{3, 0, 0, 0, 0}, "events.wait_mode", "3"},  // mode out of range
      {{255, 0, 0, 0, 0}, "events.wait_mode", "255"},
      {{0, 0, 4, 0, 0}, "events.update_mode", "4"},
      {{0, 0, 200, 0, 0}, "events.update_mode", "200"},
      {{0, 5, 0, 0, 0}, "events.wait_idx", "5"},  // index without a wait
      {{0, 5, 2, 1, 0}, "events.wait_idx", "5"},
      {{0, 0, 0, 7, 0}, "events.update_idx", "7"},  // index without an update
      {{1, 0, 0, 7, 3}, "events.update_idx", "7"},
      {{0, 0, 0, 0, 1}, "events.value", "0x00000001"},           // value neither waited on nor set
      {{0, 0, 2, 3, 9}, "events.value", "0x00000009"},           // INC does not use the value
      {{0, 0, 3, 3, 0x80000000}, "events.value", "0x80000000"},  // nor DEC
  };
  for (const Case& c : cases) {
    Word w = valid_word(op);
    set_events(w, c.e);
    for (Generation g : generations_of(op))
      EXPECT_TRUE(fails_alone(validate(w, g), op, "has_valid_neuron_events", c.field, c.value))
          << c.field << " " << c.value << " " << gen_text(g);
  }
}

TEST_P(PerInstruction, EventsInUseAreValid) {
  const Opcode op = GetParam();
  const std::vector<Events> ok = {
      {1, 5, 0, 0, 3},             // wait GE
      {2, 255, 0, 0, 0xffffffff},  // wait EQ
      {1, 0, 0, 0, 0},             // wait for >= 0
      {0, 0, 1, 7, 42},            // update SET
      {0, 0, 2, 9, 0},             // INC
      {0, 0, 3, 255, 0},           // DEC
      {1, 1, 2, 2, 5},             // wait and update
      {2, 0, 1, 0, 0},
  };
  for (const Events& e : ok) {
    Word w = valid_word(op);
    set_events(w, e);
    for (Generation g : generations_of(op))
      EXPECT_TRUE(validate(w, g).empty()) << gen_text(g) << describe(validate(w, g));
  }
}

// The opcode clause of each instruction, seen when a word is validated as that instruction
// whatever its byte 0 says.
TEST_P(PerInstruction, OpcodeClauseFailsAloneUnderValidateAs) {
  const Opcode op = GetParam();
  const std::map<Opcode, std::string> clause = {
      {Opcode::RangeSelect, "has_range_select_opcode"},
      {Opcode::TensorScalarSelect, "has_tensor_scalar_select_opcode"},
      {Opcode::GetSequenceBounds, "has_get_sequence_bounds_opcode"},
      {Opcode::Sort, "has_sort_opcode"},
      {Opcode::NonzeroWithCount, "has_nonzero_with_count_opcode"},
      {Opcode::CopyPredicatedScalar, "has_copy_predicated_scalar_opcode"},
      {Opcode::DveReadAccumulator, "has_dve_read_accumulator_opcode"},
      {Opcode::AffineSelect, "has_s2d2_ts_as_opcode"},
      {Opcode::Iota, "has_iota_opcode"},
      {Opcode::MatchValueLoad, "has_match_value_load_opcode"},
      {Opcode::Max8, "has_max8_opcode"},
      {Opcode::FindIndex8, "has_find_index8_opcode"},
      {Opcode::MatchReplace8, "has_match_replace8_opcode"},
      {Opcode::TensorTensorArith, "has_tensor_tensor_opcode"},
      {Opcode::TensorTensorBitvec, "has_tensor_tensor_opcode"},
      {Opcode::TensorScalarArith, "has_tensor_scalar_opcode"},
      {Opcode::TensorScalarBitvec, "has_tensor_scalar_opcode"},
      {Opcode::TensorScalarPtrArith, "has_tensor_scalar_ptr_opcode"},
      {Opcode::TensorScalarPtrBitvec, "has_tensor_scalar_ptr_opcode"},
      {Opcode::Copy, "has_copy_opcode"},
      {Opcode::Cast, "has_cast_opcode"},
      {Opcode::Memset, "has_memset_opcode"},
      {Opcode::TensorReduceArith, "has_tensor_reduce_opcode"},
      {Opcode::TensorReduceBitvec, "has_tensor_reduce_opcode"},
      {Opcode::CopyPredicated, "has_copy_cast_predicated_opcode"},
      {Opcode::TensorScalarCacheCumulative, "has_tensor_cache_cumulative_opcode"},
      {Opcode::TensorTensorScan, "has_tensor_tensor_scan_opcode"},
      {Opcode::ScalarTensorTensorArith, "has_scalar_tensor_tensor_opcode"},
      {Opcode::ScalarTensorTensorBitvec, "has_scalar_tensor_tensor_opcode"},
      {Opcode::SelectReduce, "has_select_reduce_opcode"},
  };
  for (uint8_t other :
       {uint8_t{0x97}, uint8_t{0x00}, uint8_t{0x96}, uint8_t{0xbc}, uint8_t{0xf2}, uint8_t{0x9b}}) {
    if (other == static_cast<uint8_t>(op)) continue;
    Word w = valid_word(op);
    w[0] = other;
    char value[8];
    std::snprintf(value, sizeof value, "0x%02x", other);
    for (Generation g : generations_of(op))
      EXPECT_TRUE(
          fails_alone(validate_as(instruction(op), w, g), op, clause.at(op), "header", value))
          << gen_text(g);
  }
}

INSTANTIATE_TEST_SUITE_P(All, PerInstruction, ::testing::ValuesIn(kOpcodes), op_name);

TEST(Validate, UnknownOpcodeReportsOnlyHasKnownOpcode) {
  // Even a word that would break many clauses of a known instruction.
  Word w;
  w.fill(0xff);
  w[0] = 0x97;
  const Diagnostics d = validate(w, G::V3);
  ASSERT_EQ(d.size(), 1u) << describe(d);
  EXPECT_EQ(d[0].clause, "has_known_opcode");
  EXPECT_EQ(d[0].value, "0x97");
  EXPECT_EQ(d[0].message().rfind("unknown: has_known_opcode: header = 0x97, ", 0), 0u)
      << d[0].message();
}

TEST(Validate, HasClauseFindsClauseNames) {
  Word w = valid_word(Opcode::RangeSelect);
  set(w, "fill_val", 0);
  const Diagnostics d = validate(w, G::V3);
  EXPECT_TRUE(has_clause(d, "is_valid_fill_val"));
  EXPECT_FALSE(has_clause(d, "is_valid_fill"));
  EXPECT_FALSE(has_clause(Diagnostics{}, "is_valid_fill_val"));
}

// The example diagnostic, word for word.
TEST(Validate, FillValDiagnosticReadsAsDocumented) {
  Word w = valid_word(Opcode::RangeSelect);
  set(w, "fill_val", 0);
  const Diagnostics d = validate(w, G::V3);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].message(),
            "RangeSelect: is_valid_fill_val: fill_val = 0x00000000, must be 0xff7fffff (-FLT_MAX)");
}

// ---- clauses that cannot fail alone: SPEC ties them to another clause ----------------------

std::vector<ForcedCase> forced_cases() {
  return {
      // GetSequenceBounds needs exactly 1 channel, so any count outside 1..128 also
      // breaks has_valid_s3d3_seq_bounds_channels...
      {"gsb_channels_0",
       GSB,
       [](Word& w) { set(w, "num_active_channels", 0); },
       {"check_active_channels", "has_valid_s3d3_seq_bounds_channels"}},
      {"gsb_channels_200",
       GSB,
       [](Word& w) { set(w, "num_active_channels", 200); },
       {"check_active_channels", "has_valid_s3d3_seq_bounds_channels", "start_addr_active_channels",
        "start_addr_active_channels"}},
      // ...and with 1 channel every start partition (0..127) passes
      // start_addr_active_channels.
      {"gsb_start_partition",
       GSB,
       [](Word& w) {
         set(w, "num_active_channels", 2);
         set_addr(w, "src_mem_pattern", sbuf_addr(127, 0x40));
       },
       {"has_valid_s3d3_seq_bounds_channels", "start_addr_active_channels"}},
      // Every is_valid_dtype failure is also not INT32/FP32.
      {"gsb_in_dtype_fp32r",
       GSB,
       [](Word& w) { set(w, "in_dtype", code(Dtype::FP32R)); },
       {"has_valid_seq_bounds_dtype", "is_valid_dtype"}},
      {"gsb_out_dtype_int64",
       GSB,
       [](Word& w) { set(w, "out_dtype", code(Dtype::INT64)); },
       {"has_valid_seq_bounds_dtype", "is_valid_dtype"}},
      // An 8-byte dtype has no predicate dtype of the same width.
      {"tss_dtype_uint64",
       TSS,
       [](Word& w) { set(w, "dtype", code(Dtype::UINT64)); },
       {"has_same_imm_dtype_width", "is_valid_dtype"}},
      // A count above 128 also leaves the partitions.
      {"rs_channels_129",
       RS,
       [](Word& w) { set(w, "num_active_channels", 129); },
       {"check_active_channels", "start_addr_active_channels", "start_addr_active_channels"}},
      // AffineSelect and Iota: more than 128 channels also leave the partitions.
      {"as_channels_129",
       AS,
       [](Word& w) { set(w, "num_active_channels", 129); },
       {"has_valid_active_channel_range", "start_addr_active_channels",
        "start_addr_active_channels"}},
      {"iota_channels_200",
       IOTA,
       [](Word& w) { set(w, "num_active_channels", 200); },
       {"has_valid_active_channel_range", "start_addr_active_channels"}},
      // A destination num_elem of 0 breaks the tensor rule and the count formula (0).
      {"iota_dst_num0",
       IOTA,
       [](Word& w) { set_num(w, "dst_mem_pattern", 1, 0); },
       {"d4_iota_same_src_dst_count", "tensor4d_valid"}},
      {"as_src_num0",
       AS,
       [](Word& w) { set_num(w, "src_mem_pattern", 0, 0); },
       {"s2d2_ts_as_valid_elem_count", "tensor2d_valid"}},
      // An instruction-immediate predicate wider than its dtype breaks both rules.
      {"tss_pred_imm_0x10000",
       TSS,
       [](Word& w) { set(w, "pred_imm", 0x10000); },
       {"has_valid_immediates", "has_valid_pred_inst_imm_value"}},
      // SPEC §3.6: is_valid_dtype and the instruction's own dtype clause are evaluated
      // independently; a dtype both reject is reported by both.
      {"nwc_in_dtype_fp32r",
       NWC,
       [](Word& w) { set(w, "in_dtype", code(Dtype::FP32R)); },
       {"has_valid_nonzero_with_count_dtype", "is_valid_dtype"}},
      {"nwc_out_dtype_int64",
       NWC,
       [](Word& w) { set(w, "out_dtype", code(Dtype::INT64)); },
       {"has_valid_nonzero_with_count_dtype", "is_valid_dtype"}},
      {"nwc_in_dtype_0x11_sizeless",
       NWC,
       [](Word& w) {
         set(w, "in_dtype", 0x11);
         set_addr(w, "src_mem_pattern", sbuf_addr(0, 0x101));  // not evaluated: no size
       },
       {"has_valid_nonzero_with_count_dtype", "is_valid_dtype"}},
      {"nwc_channels_129",
       NWC,
       [](Word& w) { set(w, "num_active_channels", 129); },
       {"check_active_channels", "start_addr_active_channels", "start_addr_active_channels"}},
      // SPEC §3.6: a count clause uses its literal formula with a zero extent.
      {"nwc_src_num0",
       NWC,
       [](Word& w) { set_num(w, "src_mem_pattern", 1, 0); },
       {"tensor3d_valid", "s3d3_nonzero_with_count_element_count_check_t3d"}},
      {"nwc_dst_num0",
       NWC,
       [](Word& w) { set_num(w, "dst_mem_pattern", 0, 0); },
       {"tensor3d_valid", "s3d3_nonzero_with_count_element_count_check_t3d"}},
      {"nwc_src_num0_dst_1",
       NWC,
       [](Word& w) {  // count(src) = 0, count(dst) = 1: the count clause holds
         set_num(w, "src_mem_pattern", 0, 0);
         set_num(w, "dst_mem_pattern", 0, 1);
       },
       {"tensor3d_valid"}},
      {"cps_out_fp32r",
       CPS,
       [](Word& w) { set(w, "out_dtype", code(Dtype::FP32R)); },
       {"has_same_inout_dtype", "is_valid_dtype"}},
      {"cps_in_0x11",
       CPS,
       [](Word& w) { set(w, "in_dtype", 0x11); },
       {"has_same_inout_dtype", "is_valid_dtype"}},
      {"cps_channels_129",
       CPS,
       [](Word& w) { set(w, "num_active_channels", 129); },
       {"has_valid_active_channel_range", "start_addr_active_channels",
        "start_addr_active_channels"}},
      {"cps_pred_num0",
       CPS,
       [](Word& w) { set_num(w, "pred_mem_pattern", 0, 0); },
       {"same_element_count_t3d", "tensor3d_valid"}},
      {"cps_pred_num0_register_mode_waives_count",
       CPS,
       [](Word& w) {
         set_addr(w, "dst_mem_pattern", reg_addr(8));
         set_num(w, "pred_mem_pattern", 0, 0);
       },
       {"tensor3d_valid"}},
      {"dra_channels_129",
       DRA,
       [](Word& w) { set(w, "num_active_channels", 129); },
       {"check_active_channels", "start_addr_active_channels"}},
      {"dra_dst_num0",
       DRA,
       [](Word& w) { set_num(w, "dst_mem_pattern", 0, 0); },
       {"read_accumulator_dst_size", "tensor1d_valid"}},
      {"dra_dtype_and_count",
       DRA,
       [](Word& w) {
         set(w, "dtype", code(Dtype::INT8));
         set(w, "dst_element_count", 0);
         set_num(w, "dst_mem_pattern", 0, 3);
       },
       {"dve_read_accumulator_type_check", "read_accumulator_dst_size",
        "read_accumulator_dst_size"}},
      // ---- TensorScalar (SPEC §4.15) ----
      // On 0x43/0x44 a shift op fails tensor_scalar_valid_ops too; with a 2-byte in_dtype an
      // ARITH_SHIFT_RIGHT also fails tensor_scalar_shift_chk.
      {"tsa_op1_asr_fp16",
       TSA,
       [](Word& w) { set(w, "op1", code(AluOp::ARITH_SHIFT_RIGHT)); },
       {"tensor_scalar_shift_chk", "tensor_scalar_valid_ops"}},
      {"tspa_left_then_right_fp16",
       TSPA,
       [](Word& w) {
         set(w, "op0", code(AluOp::LOGICAL_SHIFT_LEFT));
         set(w, "op1", code(AluOp::LOGICAL_SHIFT_RIGHT));
       },
       {"tensor_scalar_shift_chk", "tensor_scalar_valid_ops"}},
      // A num_elem of 0: the tensor clause, and the count clause with its literal formula.
      {"tsa_src_num0",
       TSA,
       [](Word& w) { set_num(w, "src_mem_pattern", 0, 0); },
       {"mem3d_valid", "tensor_scalar_tensor_chk"}},
      {"tspb_dst_num0",
       TSPB,
       [](Word& w) { set_num(w, "dst_mem_pattern", 2, 0); },
       {"mem3d_valid", "tensor_scalar_tensor_chk"}},
      // 0x53: a non-integer or FP32R in_dtype fails both dtype clauses, evaluated
      // independently (SPEC §3.6).
      {"tsb_dtypes_fp32r",
       TSB,
       [](Word& w) {
         set(w, "in_dtype", code(Dtype::FP32R));
         set(w, "out_dtype", code(Dtype::FP32R));
       },
       {"is_valid_dtype", "tensor_scalar_valid_types"}},
      {"tspb_dtypes_int64",
       TSPB,
       [](Word& w) {
         set(w, "in_dtype", code(Dtype::INT64));
         set(w, "out_dtype", code(Dtype::INT64));
       },
       // INT64 has a size (8 bytes), so the pointers are checked for 8-byte alignment:
       // imm1 at offset 0x604 is not (SPEC §3.5, read literally).
       {"is_valid_dtype", "is_valid_dtype", "tensor_scalar_ptr_immediates",
        "tensor_scalar_valid_types"}},
      // 129 channels from partition 4: the range, and both tensors' partitions; the pointer
      // forms' pointers too.
      {"tsa_channels_129",
       TSA,
       [](Word& w) { set(w, "num_active_channels", 129); },
       {"has_valid_active_channel_range", "check_m3d_active_channels",
        "check_m3d_active_channels"}},
      {"tspb_channels_129",
       TSPB,
       [](Word& w) { set(w, "num_active_channels", 129); },
       {"has_valid_active_channel_range", "check_m3d_active_channels", "check_m3d_active_channels",
        "tensor_scalar_ptr_immediates", "tensor_scalar_ptr_immediates"}},
      // SPEC §3.6: a byte that is no ALU_OP on the generation fails both is_valid_enum and
      // s4d4_tr_op_bypass (the op clause is evaluated whatever the enumeration says).
      {"cp_op_not_enumerator_0x30",
       CP,
       [](Word& w) { set(w, "op", 0x30); },
       {"is_valid_enum", "s4d4_tr_op_bypass"}},
      {"ca_op_not_enumerator_0xff",
       CA,
       [](Word& w) { set(w, "op", 0xff); },
       {"is_valid_enum", "s4d4_tr_op_bypass"}},
      {"ca_op_not_enumerator_0x1e",
       CA,
       [](Word& w) { set(w, "op", 0x1e); },
       {"is_valid_enum", "s4d4_tr_op_bypass"}},
      {"cp_channels_129",
       CP,
       [](Word& w) { set(w, "num_active_channels", 129); },
       {"has_valid_active_channel_range", "start_addr_active_channels",
        "start_addr_active_channels"}},
      // A num_elem of 0: the tensor clause and the count clause (its literal formula).
      {"ca_src_num0",
       CA,
       [](Word& w) { set_num(w, "src_mem_pattern", 1, 0); },
       {"s4d4_tr_same_src_dst_count", "tensor4d_valid"}},
      {"cp_both_num0",
       CP,
       [](Word& w) {
         set_num(w, "src_mem_pattern", 0, 0);
         set_num(w, "dst_mem_pattern", 0, 0);
       },
       {"tensor4d_valid", "tensor4d_valid"}},
      // Copy: an invalid in_dtype is also unequal to out_dtype.
      {"cp_in_int64",
       CP,
       [](Word& w) { set(w, "in_dtype", code(Dtype::INT64)); },
       {"is_valid_dtype", "s4d4_tr_same_src_dst_type"}},
      {"cp_every_byte_clause",
       CP,
       [](Word& w) {
         w[2] = 1;
         w[39] = 1;
         set(w, "mask_enable", 1);
         set(w, "op_dim", 1);
         set(w, "op", code(AluOp::MAX));
         set(w, "negated", 1);
       },
       {"has_valid_neuron_header", "s4d4_tr_reserved_zero", "mask_enable_zero", "is_zero_subdim",
        "s4d4_tr_op_bypass", "has_zero_negated_field"}},
  };
}

class ForcedClauses : public ::testing::TestWithParam<ForcedCase> {};

TEST_P(ForcedClauses, ReportExactlyTheTiedClauses) {
  const ForcedCase& c = GetParam();
  const Word w = with(valid_word(c.op), c.mutate);
  std::vector<std::string> want = c.clauses;
  std::sort(want.begin(), want.end());
  for (Generation g : generations_of(c.op))
    EXPECT_EQ(clauses_of(validate(w, g)), want) << gen_text(g) << describe(validate(w, g));
}

INSTANTIATE_TEST_SUITE_P(Spec, ForcedClauses, ::testing::ValuesIn(forced_cases()),
                         [](const auto& p) { return p.param.name; });

// ---- tensor sub-rules (SPEC §3.4-§3.6), for every tensor operand -------------------------

enum class PsumUse {
  Read,         // a DVE source: PSUM allowed
  Write4,       // a DVE destination with a 4-byte dtype: PSUM allowed
  WriteNarrow,  // a DVE destination with a narrower dtype: PSUM rejected
  Forbidden,    // a POOL operand
};

struct TensorOperand {
  Opcode op;
  std::string field;
  std::string clause;  // the tensor clause of this operand
  unsigned elem;       // element bytes in the valid word
  PsumUse psum;
  std::string channels_clause = "start_addr_active_channels";  // its name in the instruction
};

void PrintTo(const TensorOperand& t, std::ostream* os) {
  *os << mnemonic(t.op) << "." << t.field;
}

const std::vector<TensorOperand> kOperands = {
    {RS, "src_mem_pattern", "tensor2d_valid", 2, PsumUse::Read},
    {RS, "dst_mem_pattern", "tensor2d_valid", 4, PsumUse::Write4},
    {TSS, "src0_mem_pattern", "tensor3d_valid", 2, PsumUse::Read},
    {TSS, "dst_mem_pattern", "tensor3d_valid", 2, PsumUse::WriteNarrow},
    {GSB, "src_mem_pattern", "tensor3d_valid", 4, PsumUse::Forbidden},
    {GSB, "dst_mem_pattern", "tensor3d_valid", 4, PsumUse::Forbidden},
    {SORT, "src_mem_pattern", "sort_tensor_shapes_ok", 4, PsumUse::Forbidden},
    {SORT, "dst_mem_pattern", "sort_tensor_shapes_ok", 4, PsumUse::Forbidden},
    {NWC, "src_mem_pattern", "tensor3d_valid", 4, PsumUse::Forbidden},
    {NWC, "dst_mem_pattern", "tensor3d_valid", 4, PsumUse::Forbidden},
    {CPS, "pred_mem_pattern", "tensor3d_valid", 1, PsumUse::Read},
    {CPS, "dst_mem_pattern", "tensor3d_valid", 4, PsumUse::Write4},
    {DRA, "dst_mem_pattern", "tensor1d_valid", 2, PsumUse::WriteNarrow},
    {AS, "src_mem_pattern", "tensor2d_valid", 4, PsumUse::Forbidden},
    {AS, "dst_mem_pattern", "tensor2d_valid", 4, PsumUse::Forbidden},
    {IOTA, "dst_mem_pattern", "tensor4d_valid", 4, PsumUse::Forbidden},
    {MVL, "src_mem_pattern", "tensor2d_valid", 4, PsumUse::Read},
    {MAX8, "src_mem_pattern", "tensor4d_valid", 4, PsumUse::Read},
    {MAX8, "dst_mem_pattern", "tensor2d_valid", 4, PsumUse::Write4},
    {FI8, "src_mem_pattern", "tensor4d_valid", 4, PsumUse::Read},
    {FI8, "dst_mem_pattern", "tensor2d_valid", 4, PsumUse::Write4},
    {MR8, "src_mem_pattern", "tensor4d_valid", 4, PsumUse::Read},
    {MR8, "dst_mem_pattern", "tensor4d_valid", 4, PsumUse::Write4},
    // TensorTensor on its default engine, DVE (the other engines: TensorTensorEngines below).
    {TTA, "src0_mem_pattern", "tensor3d_valid", 2, PsumUse::Read},
    {TTA, "src1_mem_pattern", "tensor3d_valid", 4, PsumUse::Read},
    {TTA, "dst_mem_pattern", "tensor3d_valid", 4, PsumUse::Write4},
    {TTB, "src0_mem_pattern", "tensor3d_valid", 2, PsumUse::Read},
    {TTB, "src1_mem_pattern", "tensor3d_valid", 2, PsumUse::Read},
    {TTB, "dst_mem_pattern", "tensor3d_valid", 2, PsumUse::WriteNarrow},
    // TensorScalar (SPEC §4.15) names the two clauses mem3d_valid and check_m3d_active_channels.
    {TSA, "src_mem_pattern", "mem3d_valid", 2, PsumUse::Read, "check_m3d_active_channels"},
    {TSA, "dst_mem_pattern", "mem3d_valid", 4, PsumUse::Write4, "check_m3d_active_channels"},
    {TSB, "src_mem_pattern", "mem3d_valid", 2, PsumUse::Read, "check_m3d_active_channels"},
    {TSB, "dst_mem_pattern", "mem3d_valid", 2, PsumUse::WriteNarrow, "check_m3d_active_channels"},
    {TSPA, "src_mem_pattern", "mem3d_valid", 2, PsumUse::Read, "check_m3d_active_channels"},
    {TSPA, "dst_mem_pattern", "mem3d_valid", 4, PsumUse::Write4, "check_m3d_active_channels"},
    {TSPB, "src_mem_pattern", "mem3d_valid", 2, PsumUse::Read, "check_m3d_active_channels"},
    {TSPB, "dst_mem_pattern", "mem3d_valid", 2, PsumUse::WriteNarrow, "check_m3d_active_channels"},
    // Copy and Cast on their default engine, POOL (SPEC §3.9).
    {CP, "src_mem_pattern", "tensor4d_valid", 4, PsumUse::Forbidden},
    {CP, "dst_mem_pattern", "tensor4d_valid", 4, PsumUse::Forbidden},
    {CA, "src_mem_pattern", "tensor4d_valid", 4, PsumUse::Forbidden},
    {CA, "dst_mem_pattern", "tensor4d_valid", 2, PsumUse::Forbidden},
};

class TensorRules : public ::testing::TestWithParam<TensorOperand> {
 protected:
  const TensorOperand& t() const { return GetParam(); }
  Word valid() const { return valid_word(t().op); }
  TensorDesc desc() const { return get_tensor(valid(), t().field); }
  uint32_t partition() const { return desc().addr >> 18; }
  uint32_t offset() const { return desc().addr & 0x3ffff; }
  unsigned channels() const { return static_cast<unsigned>(get(valid(), "num_active_channels")); }
  // Bytes from the lowest to one past the highest touched byte, by a plain nested loop
  // (the valid words' steps are non-negative, so the walk starts at its lowest byte).
  int64_t extent() const {
    const TensorDesc d = desc();
    int64_t hi = 0;
    for (uint32_t i2 = 0; i2 < (d.dims > 2 ? d.num[2] : 1u); ++i2)
      for (uint32_t i1 = 0; i1 < (d.dims > 1 ? d.num[1] : 1u); ++i1)
        for (uint32_t i0 = 0; i0 < d.num[0]; ++i0)
          hi = std::max<int64_t>(
              hi, int64_t{i0} * d.step[0] + int64_t{i1} * d.step[1] + int64_t{i2} * d.step[2]);
    return (hi + 1) * t().elem;
  }
  Word with_addr(uint32_t addr) const {
    Word w = valid();
    set_addr(w, t().field, addr);
    return w;
  }
  // Checks that `w` fails the operand's tensor clause alone on every generation in `gens`
  // (default: all where the opcode exists), with the ADDR4 shown in the value.
  void expect_tensor_failure(const Word& w, uint32_t addr, std::string_view allowed = {},
                             std::vector<Generation> gens = {}) const {
    if (gens.empty()) gens = generations_of(t().op);
    for (Generation g : gens)
      EXPECT_TRUE(fails_alone(validate(w, g), t().op, t().clause, t().field, hex32(addr), allowed))
          << gen_text(g);
  }
  void expect_valid(const Word& w, std::vector<Generation> gens = {}) const {
    if (gens.empty()) gens = generations_of(t().op);
    for (Generation g : gens)
      EXPECT_TRUE(validate(w, g).empty()) << gen_text(g) << describe(validate(w, g));
  }
};

TEST_P(TensorRules, ModeBitsMakeTheAddressMalformed) {
  for (uint32_t bits : {1u << 29, 1u << 30, 3u << 29}) {
    const uint32_t a = desc().addr | bits;
    expect_tensor_failure(with_addr(a), a);
  }
}

TEST_P(TensorRules, Bits25To28OutsideThePsumWindowAreMalformed) {
  for (uint32_t a : {desc().addr | 1u << 26, desc().addr | 1u << 28, desc().addr | 0x1e000000u,
                     0x2400000u | offset()}) {
    expect_tensor_failure(with_addr(a), a);
  }
}

TEST_P(TensorRules, PsumOffsetOf16KiBOrMoreIsMalformed) {
  for (uint32_t off : {kPsumBytes, kPsumBytes + 4 * t().elem, 0x7ff0u}) {
    const uint32_t a = psum_addr(1, off);
    expect_tensor_failure(with_addr(a), a);
  }
}

TEST_P(TensorRules, SbufOffsetAtThePartitionSizeIsMalformed) {
  // Only V2 and V3 have offsets >= P that the 18 offset bits can name.
  for (Generation g : {G::V2, G::V3}) {
    const auto gens = generations_of(t().op);
    if (std::find(gens.begin(), gens.end(), g) == gens.end()) continue;
    const uint32_t a = sbuf_addr(partition(), sbuf_bytes(g));
    expect_tensor_failure(with_addr(a), a, {}, {g});
  }
}

TEST_P(TensorRules, MisalignedStartFails) {
  for (uint32_t delta = 1; delta < t().elem; ++delta) {
    const uint32_t a = desc().addr + delta;
    expect_tensor_failure(with_addr(a), a, "aligned");
  }
}

TEST_P(TensorRules, WalkPastThePartitionEndFailsPerGeneration) {
  for (Generation g : generations_of(t().op)) {
    const auto last = static_cast<uint32_t>(sbuf_bytes(g) - extent());
    expect_valid(with_addr(sbuf_addr(partition(), last)), {g});  // ends exactly at P
    // A one-element walk one element further starts at P, which the 18 offset bits of
    // an SBUF ADDR4 cannot name on V4/V5 (SbufOffsetAtThePartitionSizeIsMalformed covers
    // V2/V3).
    if (last + t().elem >= (1u << 18)) continue;
    const uint32_t a = sbuf_addr(partition(), last + t().elem);
    expect_tensor_failure(with_addr(a), a, {}, {g});
    // The smaller generations' valid placement is past the end of no larger one.
    for (Generation bigger : generations_of(t().op))
      if (sbuf_bytes(bigger) > sbuf_bytes(g)) expect_valid(with_addr(a), {bigger});
  }
}

TEST_P(TensorRules, WalkBelowOffsetZeroFails) {
  // Reverse the outermost dimension that has more than one element. DveReadAccumulator's
  // destination has a single element (its count clause needs num_elem[0] == 1), so its
  // walk is its start and cannot go below offset 0, whatever the step.
  const TensorDesc d = desc();
  unsigned dim = d.dims - 1;
  while (dim > 0 && d.num[dim] < 2) --dim;
  if (d.num[dim] < 2) {
    Word w = with_addr(sbuf_addr(partition(), 0));
    set_step(w, t().field, 0, -32768);
    expect_valid(w);
    return;
  }
  constexpr int16_t kStep = -64;
  const uint32_t reach = 64u * (d.num[dim] - 1u) * t().elem;  // bytes below the start
  Word ok = with_addr(sbuf_addr(partition(), reach));
  set_step(ok, t().field, dim, kStep);
  expect_valid(ok);  // the lowest element is at offset 0
  const uint32_t a = sbuf_addr(partition(), reach - t().elem);
  Word bad = ok;
  set_addr(bad, t().field, a);
  expect_tensor_failure(bad, a);
}

TEST_P(TensorRules, PsumPlacementFollowsTheEngineAndDirection) {
  const uint32_t a = psum_addr(0, 0);
  switch (t().psum) {
    case PsumUse::Read:
    case PsumUse::Write4:
      expect_valid(with_addr(a));
      break;
    case PsumUse::WriteNarrow:
      expect_tensor_failure(with_addr(a), a, "4-byte");
      break;
    case PsumUse::Forbidden:
      expect_tensor_failure(with_addr(a), a, "SBUF");
      break;
  }
}

// The operands that may use PSUM with the valid word's dtypes.
class PsumTensorRules : public TensorRules {};

TEST_P(PsumTensorRules, PsumWalkMustEndInside16KiB) {
  const auto last = static_cast<uint32_t>(kPsumBytes - extent());
  expect_valid(with_addr(psum_addr(5, last)));
  const uint32_t a = psum_addr(5, last + t().elem);
  expect_tensor_failure(with_addr(a), a);
}

TEST_P(PsumTensorRules, PsumStartPartitionPlusChannelsMustNotPass128) {
  const unsigned n = channels();
  expect_valid(with_addr(psum_addr(128 - n, 0)));
  const Word bad = with_addr(psum_addr(129 - n, 0));
  for (Generation g : generations_of(t().op))
    EXPECT_TRUE(fails_alone(validate(bad, g), t().op, t().channels_clause, t().field,
                            std::to_string(129 - n)))
        << gen_text(g);
}

TEST_P(TensorRules, SbufStartPartitionPlusChannelsMustNotPass128) {
  const unsigned n = channels();
  expect_valid(with_addr(sbuf_addr(128 - n, offset())));
  if (129 - n > 127) return;  // one channel: every partition 0..127 is a valid start
  const Word bad = with_addr(sbuf_addr(129 - n, offset()));
  for (Generation g : generations_of(t().op))
    EXPECT_TRUE(fails_alone(validate(bad, g), t().op, t().channels_clause, t().field,
                            std::to_string(129 - n)))
        << gen_text(g);
}

TEST_P(TensorRules, RegisterModeIsCheckedForItsRegisterIdOnly) {
  // Well-formed register-mode addresses pass statically, whatever the register holds.
  for (uint32_t r : {0u, 5u, 63u}) expect_valid(with_addr(reg_addr(r)));
  // Register id >= 64, or bits 8-30 set, are malformed.
  for (uint32_t a : {reg_addr(64), reg_addr(255), reg_addr(5) | 0x100u, reg_addr(5) | 0x40000000u,
                     reg_addr(0) | 0x00800000u}) {
    expect_tensor_failure(with_addr(a), a);
  }
}

std::string operand_name(const ::testing::TestParamInfo<TensorOperand>& info) {
  return mnemonic(info.param.op) + "_" + info.param.field;
}

std::vector<TensorOperand> psum_operands() {
  std::vector<TensorOperand> out;
  for (const TensorOperand& t : kOperands)
    if (t.psum == PsumUse::Read || t.psum == PsumUse::Write4) out.push_back(t);
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllOperands, TensorRules, ::testing::ValuesIn(kOperands), operand_name);
INSTANTIATE_TEST_SUITE_P(DveOperands, PsumTensorRules, ::testing::ValuesIn(psum_operands()),
                         operand_name);

// ---- valid variants: each clause accepts what SPEC allows --------------------------------

// ---- TensorScalar (SPEC §4.15): what each clause accepts ---------------------------------
void add_tensor_scalar_valid_cases(std::vector<ValidCase>& c) {
  for (Opcode op : kTensorScalarOps) {
    const std::string pre = ts_prefix(op);
    for (uint64_t rev : {0u, 1u, 2u, 3u})
      c.push_back({pre + "reverse_" + std::to_string(rev), op,
                   [rev](Word& w) { set(w, "reverse_operands", rev); }});
    c.push_back({pre + "bypass_bypass", op, [](Word& w) {
                   set(w, "op0", 0);
                   set(w, "op1", 0);
                 }});
    c.push_back({pre + "op1_bypass", op, [](Word& w) { set(w, "op1", 0); }});
    // Register mode waives the count clause (checked at execution).
    c.push_back({pre + "register_src_waives_count", op, [](Word& w) {
                   set_addr(w, "src_mem_pattern", reg_addr(63));
                   set_num(w, "src_mem_pattern", 2, 7);
                 }});
    c.push_back({pre + "register_dst_waives_count", op, [](Word& w) {
                   set_addr(w, "dst_mem_pattern", reg_addr(0));
                   set_num(w, "dst_mem_pattern", 0, 1);
                 }});
    // The same count in another shape; a source in PSUM on dve.
    c.push_back(
        {pre + "dst_other_shape", op, [](Word& w) {
           set_tensor(w, "dst_mem_pattern", tensor(sbuf_addr(4, 0x400), {0, 1, 2}, {8, 1, 1}));
         }});
    c.push_back({pre + "src_psum", op,
                 [](Word& w) { set_addr(w, "src_mem_pattern", psum_addr(125, 0x3ff0)); }});
    c.push_back({pre + "128_channels", op, [op](Word& w) {
                   set(w, "num_active_channels", 128);
                   set_addr(w, "src_mem_pattern", sbuf_addr(0, 0x100));
                   set_addr(w, "dst_mem_pattern", sbuf_addr(0, 0x400));
                   if (op == TSPA || op == TSPB) {  // every pointer partition 0..127 exists
                     set(w, "imm0", sbuf_addr(0, 0x600));
                     set(w, "imm1", sbuf_addr(0, 0x604));
                   }
                 }});
  }
  // 0x43: every general arithmetic op in both places, on every generation that has it;
  // any FP32 bits as an immediate; the pointer's 4 bytes whatever the data dtype.
  // SPEC §3.8's is_general_arith_op: 17 ops on V2/V3, and 4 more from V4 on.
  const AluOp general[] = {AluOp::BYPASS,
                           AluOp::ADD,
                           AluOp::SUBTRACT,
                           AluOp::MULT,
                           AluOp::MAX,
                           AluOp::MIN,
                           AluOp::LOGICAL_AND,
                           AluOp::LOGICAL_OR,
                           AluOp::LOGICAL_XOR,
                           AluOp::IS_EQ,
                           AluOp::IS_GT,
                           AluOp::IS_GE,
                           AluOp::IS_LE,
                           AluOp::IS_LT,
                           AluOp::ABSOLUTE_DIFF,
                           AluOp::IS_NE,
                           AluOp::ABSOLUTE_VALUE,
                           AluOp::ABS_MAX,
                           AluOp::ABS_MIN,
                           AluOp::RE_LU,
                           AluOp::SQUARE};
  for (AluOp a : general) {
    const uint8_t v = static_cast<uint8_t>(a);
    const std::vector<Generation> gens =
        v >= 0x20 ? std::vector<Generation>{G::V4, G::V5} : std::vector<Generation>{};
    c.push_back({"tsa_ops_" + name_of(a), TSA,
                 [v](Word& w) {
                   set(w, "op0", v);
                   set(w, "op1", v);
                   if (v != 0x00) set(w, "imm1", 0xffffffffu);  // any 4 bytes: a NaN
                 },
                 gens});
  }
  for (Dtype d :
       {Dtype::INT8, Dtype::UINT8, Dtype::INT16, Dtype::UINT16, Dtype::INT32, Dtype::UINT32,
        Dtype::BF16, Dtype::FP16, Dtype::FP32, Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5})
    c.push_back({"tsa_in_" + name_of(d) + "_out_fp32r", TSA, [d](Word& w) {
                   set(w, "in_dtype", code(d));
                   set(w, "out_dtype", code(Dtype::FP32R));
                   set(w, "imm0_src", 1);  // an FP32 pointer: aligned to 4, whatever d is
                   set(w, "imm0", sbuf_addr(4, 0x604));
                 }});
  c.push_back({"tsa_out_int8", TSA, [](Word& w) { set(w, "out_dtype", code(Dtype::INT8)); }});
  c.push_back({"tsa_imm_pointer_psum", TSA, [](Word& w) {
                 set(w, "imm1_src", 1);
                 set(w, "imm1", psum_addr(125, 0x3ffc));
               }});
  c.push_back({"tsa_imm_register", TSA, [](Word& w) {
                 set(w, "imm0_src", 2);
                 set(w, "imm0", 63);
               }});
  // The RSQRT arm: op0 RSQRT, op1 BYPASS, every immediate byte and source 0 (it
  // validates; executing it faults unsupported-op).
  for (Opcode op : {TSA, TSPA})
    c.push_back({ts_prefix(op) + "rsqrt_arm", op, [](Word& w) {
                   set(w, "op0", code(AluOp::RSQRT));
                   set(w, "op1", 0);
                   set(w, "imm0", 0);
                   set(w, "imm1", 0);
                 }});
  // 0x53: every bitvec op, CRC32 included, both places; the integer dtypes.
  // SPEC §3.8's is_bitvec_op but ARITH_SHIFT_RIGHT (which INT16 may not use).
  for (AluOp a : {AluOp::BYPASS, AluOp::BITWISE_NOT, AluOp::ARITH_SHIFT_LEFT,
                  AluOp::LOGICAL_SHIFT_LEFT, AluOp::LOGICAL_SHIFT_RIGHT, AluOp::BITWISE_AND,
                  AluOp::BITWISE_OR, AluOp::BITWISE_XOR, AluOp::CRC32}) {
    const uint8_t v = static_cast<uint8_t>(a);
    c.push_back({"tsb_ops_" + name_of(a), TSB, [v](Word& w) {
                   set(w, "op0", v);
                   set(w, "op1", v == 0x00 ? 0 : code(AluOp::BITWISE_XOR));
                 }});
  }
  for (Dtype d :
       {Dtype::INT8, Dtype::UINT8, Dtype::INT16, Dtype::UINT16, Dtype::INT32, Dtype::UINT32})
    for (Opcode op : {TSB, TSPB})
      c.push_back({ts_prefix(op) + "dtype_" + name_of(d), op, [d](Word& w) {
                     set(w, "in_dtype", code(d));
                     set(w, "out_dtype", code(d));
                   }});
  // The shift rule binds 1- and 2-byte dtypes only; a right shift then a left one is fine.
  for (Opcode op : {TSB, TSPB}) {
    c.push_back({ts_prefix(op) + "int32_asr_after_left", op, [](Word& w) {
                   set(w, "in_dtype", code(Dtype::INT32));
                   set(w, "out_dtype", code(Dtype::INT32));
                   set(w, "op0", code(AluOp::ARITH_SHIFT_LEFT));
                   set(w, "op1", code(AluOp::ARITH_SHIFT_RIGHT));
                 }});
    c.push_back({ts_prefix(op) + "int16_right_then_left", op, [](Word& w) {
                   set(w, "op0", code(AluOp::LOGICAL_SHIFT_RIGHT));
                   set(w, "op1", code(AluOp::LOGICAL_SHIFT_LEFT));
                 }});
  }
  // An in_dtype-wide immediate: INT16 0xffff; an odd pointer offset for a 1-byte dtype.
  c.push_back({"tsb_imm0_0xffff", TSB, [](Word& w) { set(w, "imm0", 0xffff); }});
  c.push_back({"tspb_uint8_odd_pointer", TSPB, [](Word& w) {
                 set(w, "in_dtype", code(Dtype::UINT8));
                 set(w, "out_dtype", code(Dtype::UINT8));
                 set(w, "imm0", sbuf_addr(4, 0x601));
               }});
  c.push_back({"tspa_pointers_in_psum", TSPA, [](Word& w) {
                 set(w, "imm0", psum_addr(0, 0));
                 set(w, "imm1", psum_addr(125, 0x3ffc));
               }});
}

std::vector<ValidCase> valid_cases() {
  std::vector<ValidCase> c;
  const std::vector<Dtype> rs_in = {Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5,
                                    Dtype::FP16,   Dtype::BF16,   Dtype::FP32};
  for (Dtype in : rs_in) {
    std::vector<Dtype> outs = rs_in;
    outs.push_back(Dtype::FP32R);
    for (Dtype out : outs)
      c.push_back({"rs_dtypes_" + name_of(in) + "_" + name_of(out), RS,
                   [in, out](Word& w) { set(w, "in_out_dtype", dtype_pair(in, out)); }});
  }
  for (AluOp op : {AluOp::IS_EQ, AluOp::IS_GT, AluOp::IS_GE, AluOp::IS_LE, AluOp::IS_LT})
    c.push_back({"rs_comp_ops_" + name_of(op), RS, [op](Word& w) {
                   set(w, "comp_op0", code(op));
                   set(w, "comp_op1", code(op));
                 }});
  for (uint64_t cmd : {0u, 2u, 3u})
    c.push_back({"rs_reduce_cmd_" + std::to_string(cmd), RS,
                 [cmd](Word& w) { set(w, "reduce_cmd", cmd); }});
  for (float base : {0.0f, -0.0f, 0.5f, 1e-40f, 16777184.0f})  // 2^24 - 32: ends at 2^24
    c.push_back(
        {"rs_base_" + std::to_string(static_cast<int>(base)) + "_" + std::to_string(c.size()), RS,
         [base](Word& w) { set_f32(w, "base", base); }});
  // Register mode waives the element-count and base + count checks.
  c.push_back({"rs_register_src_waives_counts", RS, [](Word& w) {
                 set_addr(w, "src_mem_pattern", reg_addr(9));
                 set_num(w, "src_mem_pattern", 1, 7);
                 set_f32(w, "base", 16777216.0f);
               }});
  c.push_back({"rs_register_dst_waives_count", RS, [](Word& w) {
                 set_addr(w, "dst_mem_pattern", reg_addr(9));
                 set_num(w, "dst_mem_pattern", 0, 1);
               }});
  c.push_back({"rs_pointer_bounds_sbuf_and_psum", RS, [](Word& w) {
                 set(w, "bound0_src", 1);
                 set(w, "bound0", sbuf_addr(126, 0x2fffc));  // P - 4 on V2
                 set(w, "bound1_src", 1);
                 set(w, "bound1", psum_addr(126, 0x3ffc));
               }});
  c.push_back({"rs_register_pointer_bounds", RS, [](Word& w) {
                 set(w, "bound0_src", 2);
                 set(w, "bound0", 0);
                 set(w, "bound1_src", 2);
                 set(w, "bound1", 63);
               }});
  c.push_back({"rs_psum_src_and_dst", RS, [](Word& w) {
                 set_addr(w, "src_mem_pattern", psum_addr(0, 0));
                 set_addr(w, "dst_mem_pattern", psum_addr(0, 0x100));
               }});
  c.push_back({"rs_psum_dst_fp32r", RS, [](Word& w) {
                 set(w, "in_out_dtype", dtype_pair(Dtype::FP8_E5, Dtype::FP32R));
                 set_addr(w, "dst_mem_pattern", psum_addr(9, 0x200));
               }});
  c.push_back({"rs_128_channels", RS, [](Word& w) { set(w, "num_active_channels", 128); }});
  c.push_back({"rs_one_channel_at_127", RS, [](Word& w) {
                 set(w, "num_active_channels", 1);
                 set_addr(w, "src_mem_pattern", sbuf_addr(127, 0x100));
                 set_addr(w, "dst_mem_pattern", psum_addr(127, 0));
               }});

  const std::vector<std::pair<Dtype, Dtype>> tss_types = {
      {Dtype::INT8, Dtype::INT8},     {Dtype::UINT8, Dtype::UINT8},   {Dtype::FP8_E3, Dtype::INT8},
      {Dtype::FP8_E4, Dtype::UINT8},  {Dtype::FP8_E5, Dtype::INT8},   {Dtype::INT16, Dtype::INT16},
      {Dtype::UINT16, Dtype::UINT16}, {Dtype::BF16, Dtype::INT16},    {Dtype::FP16, Dtype::UINT16},
      {Dtype::INT32, Dtype::INT32},   {Dtype::UINT32, Dtype::UINT32}, {Dtype::FP32, Dtype::INT32},
  };
  for (auto [d, p] : tss_types)
    c.push_back({"tss_dtype_" + name_of(d) + "_pred_" + name_of(p), TSS, [d = d, p = p](Word& w) {
                   set(w, "dtype", code(d));
                   set(w, "pred_imm_dtype", code(p));
                   set(w, "src1_imm", 0x7f);
                 }});
  c.push_back({"tss_reversed_pred_1_pred_0", TSS, [](Word& w) {
                 set(w, "reversed_pred", 1);
                 set(w, "pred_imm", 0);
               }});
  c.push_back({"tss_src1_imm_full_width", TSS, [](Word& w) { set(w, "src1_imm", 0xffff); }});
  c.push_back({"tss_pointers", TSS, [](Word& w) {
                 set(w, "src1_imm_src", 1);
                 set(w, "src1_imm", sbuf_addr(124, 0x3002));
                 set(w, "pred_imm_src", 1);
                 set(w, "pred_imm", psum_addr(124, 0x3ffe));
               }});
  c.push_back({"tss_register_pointers", TSS, [](Word& w) {
                 set(w, "src1_imm_src", 2);
                 set(w, "src1_imm", 63);
                 set(w, "pred_imm_src", 2);
                 set(w, "pred_imm", 0);
               }});
  c.push_back({"tss_register_src0_waives_count", TSS, [](Word& w) {
                 set_addr(w, "src0_mem_pattern", reg_addr(3));
                 set_num(w, "src0_mem_pattern", 2, 9);
               }});
  c.push_back({"tss_psum_dst_4_bytes", TSS, [](Word& w) {
                 set(w, "dtype", code(Dtype::FP32));
                 set(w, "pred_imm_dtype", code(Dtype::UINT32));
                 set(w, "src1_imm", 0xff7fffff);
                 set_addr(w, "dst_mem_pattern", psum_addr(2, 0x100));
                 set_addr(w, "src0_mem_pattern", psum_addr(2, 0x200));
               }});

  for (auto [in, out] : std::vector<std::pair<Dtype, Dtype>>{
           {Dtype::FP32, Dtype::FP32}, {Dtype::INT32, Dtype::FP32}, {Dtype::FP32, Dtype::INT32}})
    c.push_back({"gsb_" + name_of(in) + "_to_" + name_of(out), GSB, [in = in, out = out](Word& w) {
                   set(w, "in_dtype", code(in));
                   set(w, "out_dtype", code(out));
                 }});
  c.push_back({"gsb_dst_8_1_2", GSB, [](Word& w) {
                 set_num(w, "dst_mem_pattern", 0, 8);
                 set_num(w, "dst_mem_pattern", 1, 1);
               }});
  c.push_back({"gsb_register_tensors", GSB, [](Word& w) {
                 set_addr(w, "src_mem_pattern", reg_addr(1));
                 set_addr(w, "dst_mem_pattern", reg_addr(2));
               }});
  c.push_back({"gsb_at_partition_127", GSB, [](Word& w) {
                 set_addr(w, "src_mem_pattern", sbuf_addr(127, 0x40));
                 set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x400));
               }});

  for (Dtype d : {Dtype::FP16, Dtype::BF16, Dtype::UINT16, Dtype::INT16, Dtype::FP32, Dtype::UINT32,
                  Dtype::INT32})
    c.push_back({"sort_dtype_" + name_of(d), SORT,
                 [d](Word& w) { set(w, "in_out_dtype", dtype_pair(d, d)); }});
  c.push_back({"sort_descending_unstable", SORT, [](Word& w) {
                 set(w, "comparison", code(AluOp::IS_GT));
                 set(w, "stable", 0);
               }});
  for (uint16_t k : {uint16_t{1}, uint16_t{15}})
    c.push_back({"sort_top_" + std::to_string(k), SORT,
                 [k](Word& w) { set_num(w, "dst_mem_pattern", 1, k); }});
  c.push_back({"sort_limit_fp32_2048", SORT, [](Word& w) {
                 set_num(w, "src_mem_pattern", 0, 1024);
                 set_num(w, "dst_mem_pattern", 1, 1024);
                 set_addr(w, "dst_mem_pattern", sbuf_addr(4, 0x2000));
               }});
  c.push_back({"sort_limit_bf16_4096", SORT, [](Word& w) {
                 set(w, "in_out_dtype", dtype_pair(Dtype::BF16, Dtype::BF16));
                 set_num(w, "src_mem_pattern", 0, 2048);
                 set_num(w, "dst_mem_pattern", 1, 2048);
                 set_addr(w, "dst_mem_pattern", sbuf_addr(4, 0x2000));
               }});
  c.push_back({"sort_limit_int16_4096_one_channel", SORT, [](Word& w) {
                 set(w, "in_out_dtype", dtype_pair(Dtype::INT16, Dtype::INT16));
                 set(w, "num_active_channels", 1);
                 set_num(w, "src_mem_pattern", 0, 4096);
                 set_num(w, "dst_mem_pattern", 1, 4096);
                 set_addr(w, "dst_mem_pattern", sbuf_addr(4, 0x4000));
               }});
  c.push_back({"sort_128_channels", SORT, [](Word& w) {
                 set(w, "num_active_channels", 128);
                 set_addr(w, "src_mem_pattern", sbuf_addr(0, 0x100));
                 set_addr(w, "dst_mem_pattern", sbuf_addr(0, 0x400));
               }});
  // AffineSelect: every data dtype in, the same or FP32R out; every AFFINE_SELECT_CMP; any
  // fill register; any channel_multiplier; register-mode counts are checked at execution.
  const std::vector<Dtype> data = {Dtype::INT8,  Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16,
                                   Dtype::INT32, Dtype::UINT32, Dtype::BF16,   Dtype::FP16,
                                   Dtype::FP32,  Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};
  for (Dtype in : data)
    for (Dtype out : {in, Dtype::FP32R, Dtype::FP32})
      if (out != Dtype::FP32 || in != Dtype::FP32)
        c.push_back({"as_dtypes_" + name_of(in) + "_" + name_of(out), AS, [in, out](Word& w) {
                       set(w, "in_out_dtype", dtype_pair(in, out));
                       set_addr(w, "src_mem_pattern", sbuf_addr(1, 0x100));
                     }});
  for (unsigned m = 0; m < 4; ++m)
    c.push_back(
        {"as_fill_mode_" + std::to_string(m), AS, [m](Word& w) { set(w, "fill_mode", m); }});
  c.push_back({"as_fill_reg_63", AS, [](Word& w) { set(w, "fill_reg", 63); }});
  c.push_back(
      {"as_multiplier_negative", AS, [](Word& w) { set(w, "channel_multiplier", 0x80000000u); }});
  c.push_back({"as_register_src_count_waived", AS, [](Word& w) {
                 set_addr(w, "src_mem_pattern", reg_addr(63));
                 set_num(w, "src_mem_pattern", 1, 7);
               }});
  c.push_back({"as_register_dst_count_waived", AS, [](Word& w) {
                 set_addr(w, "dst_mem_pattern", reg_addr(0));
                 set_num(w, "mask_pattern", 3, 9);
               }});
  for (Dtype out : data)
    c.push_back(
        {"iota_dtype_" + name_of(out), IOTA, [out](Word& w) { set(w, "out_dtype", code(out)); }});
  c.push_back({"iota_dtype_FP32R", IOTA, [](Word& w) { set(w, "out_dtype", code(Dtype::FP32R)); }});
  c.push_back({"iota_128_channels", IOTA, [](Word& w) {
                 set(w, "num_active_channels", 128);
                 set_addr(w, "dst_mem_pattern", sbuf_addr(0, 0x80));
               }});
  c.push_back({"iota_other_shape_same_count", IOTA, [](Word& w) {
                 set_tensor(w, "src_data_pattern", data4d(-7, {0, 0, 0, 3}, {1, 1, 1, 6}));
               }});
  c.push_back(
      {"sort_index_offset_any_u32", SORT, [](Word& w) { set(w, "index_offset", 0xffffffff); }});
  c.push_back({"sort_index_offset_pointer", SORT, [](Word& w) {
                 set(w, "index_offset_src", 1);
                 set(w, "index_offset", sbuf_addr(126, 0x800));
               }});
  c.push_back({"sort_index_offset_register", SORT, [](Word& w) {
                 set(w, "index_offset_src", 2);
                 set(w, "index_offset", 63);
               }});
  // ---- NonzeroWithCount, CopyPredicatedScalar, DveReadAccumulator ----
  for (Dtype in : {Dtype::INT32, Dtype::FP32})
    c.push_back({"nwc_in_" + name_of(in), NWC, [in](Word& w) { set(w, "in_dtype", code(in)); }});
  c.push_back({"nwc_any_immediates", NWC, [](Word& w) {
                 set(w, "index_offset", 0xffffffff);
                 set(w, "padding_val", 0x80000000);
               }});
  c.push_back({"nwc_pointer_immediates", NWC, [](Word& w) {
                 set(w, "index_offset_src", 1);
                 set(w, "index_offset", sbuf_addr(111, 0x2fffc));  // P - 4 on V3's smaller SBUF
                 set(w, "padding_val_src", 2);
                 set(w, "padding_val", 63);
               }});
  c.push_back({"nwc_register_operands_keep_counts", NWC, [](Word& w) {
                 set_addr(w, "src_mem_pattern", reg_addr(0));
                 set_addr(w, "dst_mem_pattern", reg_addr(63));
               }});
  c.push_back({"nwc_128_channels", NWC, [](Word& w) { set(w, "num_active_channels", 128); }});
  c.push_back(
      {"nwc_one_element", NWC, [](Word& w) {
         set_tensor(w, "src_mem_pattern", tensor(sbuf_addr(0, 0x100), {0, 0, 0}, {1, 1, 1}));
         set_tensor(w, "dst_mem_pattern", tensor(sbuf_addr(0, 0x400), {1, 0, 0}, {2, 1, 1}));
       }});
  c.push_back({"nwc_dst_overlaps_src", NWC,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(0, 0x100)); }});
  for (Dtype p :
       {Dtype::INT8, Dtype::INT16, Dtype::INT32, Dtype::UINT8, Dtype::UINT16, Dtype::UINT32})
    c.push_back({"cps_pred_" + name_of(p), CPS, [p](Word& w) { set(w, "pred_dtype", code(p)); }});
  for (Dtype d :
       {Dtype::INT8, Dtype::UINT8, Dtype::INT16, Dtype::UINT16, Dtype::INT32, Dtype::UINT32,
        Dtype::BF16, Dtype::FP16, Dtype::FP32, Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5})
    c.push_back({"cps_dtype_" + name_of(d), CPS, [d](Word& w) {
                   set(w, "in_dtype", code(d));
                   set(w, "out_dtype", code(d));
                   set(w, "src0_imm", 0x7f);  // fits every width
                 }});
  c.push_back({"cps_reversed_pred_0", CPS, [](Word& w) { set(w, "reversed_pred", 0); }});
  c.push_back({"cps_src0_pointer_psum", CPS, [](Word& w) {  // DVE: PSUM pointers allowed
                 set(w, "src0_imm_src", 1);
                 set(w, "src0_imm", psum_addr(126, 0x3ffc));
               }});
  c.push_back({"cps_src0_pointer_sbuf", CPS, [](Word& w) {
                 set(w, "src0_imm_src", 1);
                 set(w, "src0_imm", sbuf_addr(126, 0x2fffc));
               }});
  c.push_back({"cps_src0_register_pointer", CPS, [](Word& w) {
                 set(w, "src0_imm_src", 2);
                 set(w, "src0_imm", 63);
               }});
  c.push_back({"cps_register_pred_waives_count", CPS, [](Word& w) {
                 set_addr(w, "pred_mem_pattern", reg_addr(4));
                 set_num(w, "dst_mem_pattern", 1, 3);
               }});
  c.push_back({"cps_register_dst_waives_count", CPS, [](Word& w) {
                 set_addr(w, "dst_mem_pattern", reg_addr(4));
                 set_num(w, "pred_mem_pattern", 2, 7);
               }});
  c.push_back({"cps_pred_psum_int16", CPS, [](Word& w) {
                 set(w, "pred_dtype", code(Dtype::INT16));
                 set_addr(w, "pred_mem_pattern", psum_addr(3, 0x100));
               }});
  c.push_back({"cps_dst_psum_fp32", CPS,
               [](Word& w) { set_addr(w, "dst_mem_pattern", psum_addr(0, 0x3fc0)); }});
  c.push_back({"cps_dst_overlaps_pred", CPS, [](Word& w) {
                 set(w, "pred_dtype", code(Dtype::UINT32));
                 set_addr(w, "dst_mem_pattern", sbuf_addr(0, 0x100));
               }});
  for (Dtype d : {Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5, Dtype::FP16, Dtype::BF16,
                  Dtype::FP32, Dtype::FP32R})
    c.push_back({"dra_dtype_" + name_of(d), DRA, [d](Word& w) { set(w, "dtype", code(d)); }});
  c.push_back({"dra_negated_1", DRA, [](Word& w) { set(w, "negated", 1); }});
  c.push_back({"dra_dst_psum_fp32", DRA, [](Word& w) {
                 set(w, "dtype", code(Dtype::FP32));
                 set_addr(w, "dst_mem_pattern", psum_addr(124, 0x3ffc));
               }});
  c.push_back(
      {"dra_dst_register", DRA, [](Word& w) { set_addr(w, "dst_mem_pattern", reg_addr(63)); }});
  c.push_back({"dra_any_step", DRA, [](Word& w) { set_step(w, "dst_mem_pattern", 0, -32768); }});
  c.push_back({"dra_128_channels", DRA, [](Word& w) {
                 set(w, "num_active_channels", 128);
                 set_addr(w, "dst_mem_pattern", sbuf_addr(0, 0x300));
               }});
  add_tensor_scalar_valid_cases(c);
  // Copy and Cast: op_dim X, every op byte BYPASS only; any shapes of equal counts, zero
  // and negative steps, register-mode operands with equal counts, 128 channels.
  for (Opcode op : {CP, CA}) {
    const std::string p = op == CP ? "cp_" : "ca_";
    c.push_back({p + "op_dim_x", op, [](Word& w) { set(w, "op_dim", 2); }});
    c.push_back({p + "shapes_differ", op, [](Word& w) {
                   set_tensor(w, "dst_mem_pattern",
                              tensor(sbuf_addr(2, 0x400), {1, 1, 1, 1}, {1, 8, 1, 1}));
                 }});
    c.push_back({p + "zero_and_negative_steps", op, [](Word& w) {
                   set_tensor(w, "src_mem_pattern",
                              tensor(sbuf_addr(2, 0x180), {0, -8, 0, 3}, {4, 2, 1, 1}));
                   set_tensor(w, "dst_mem_pattern",
                              tensor(sbuf_addr(2, 0x400), {0, 0, 0, 0}, {2, 2, 2, 1}));
                 }});
    c.push_back({p + "register_mode", op, [](Word& w) {
                   set_addr(w, "src_mem_pattern", reg_addr(0));
                   set_addr(w, "dst_mem_pattern", reg_addr(63));
                 }});
    c.push_back({p + "128_channels", op, [](Word& w) {
                   set(w, "num_active_channels", 128);
                   set_addr(w, "src_mem_pattern", sbuf_addr(0, 0x100));
                   set_addr(w, "dst_mem_pattern", sbuf_addr(0, 0x400));
                 }});
  }
  for (Dtype d :
       {Dtype::INT8, Dtype::UINT8, Dtype::INT16, Dtype::UINT16, Dtype::INT32, Dtype::UINT32,
        Dtype::BF16, Dtype::FP16, Dtype::FP32, Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5})
    c.push_back({"cp_dtype_" + name_of(d), CP, [d](Word& w) {
                   set(w, "in_dtype", code(d));
                   set(w, "out_dtype", code(d));
                 }});
  return c;
}

class ValidVariant : public ::testing::TestWithParam<ValidCase> {};

TEST_P(ValidVariant, PassesOnEveryGeneration) {
  const ValidCase& c = GetParam();
  const Word w = with(valid_word(c.op), c.mutate);
  for (Generation g : c.gens.empty() ? generations_of(c.op) : c.gens)
    EXPECT_TRUE(validate(w, g).empty()) << gen_text(g) << describe(validate(w, g));
}

INSTANTIATE_TEST_SUITE_P(Spec, ValidVariant, ::testing::ValuesIn(valid_cases()),
                         [](const auto& p) { return p.param.name; });

// SPEC §3.6: a dtype without a size leaves the tensor clause of its operand unevaluated;
// the count clause needs no size and is evaluated.
TEST(NotEvaluated, CopyCastSizelessDtypes) {
  Word w = valid_word(Opcode::Cast);
  set(w, "in_dtype", code(Dtype::FP4_E2));
  set_addr(w, "src_mem_pattern", psum_addr(2, 0x3fff));  // PSUM on POOL, odd, past the end
  EXPECT_TRUE(fails_alone(validate(w, G::V3), CA, "is_valid_dtype", "in_dtype", "0x10"));
  set_num(w, "src_mem_pattern", 0, 5);
  EXPECT_EQ(clauses_of(validate(w, G::V3)),
            (std::vector<std::string>{"is_valid_dtype", "s4d4_tr_same_src_dst_count"}))
      << describe(validate(w, G::V3));
}

// ---- SPEC §3.6: clauses that are not evaluated -------------------------------------------

// A dtype without a size: only the dtype clause reports, although the tensors (and
// immediates) it governs are also broken.
TEST(NotEvaluated, SizelessDtypeSuppressesSizeDependentClauses) {
  {
    Word w = valid_word(Opcode::RangeSelect);
    set(w, "in_out_dtype", dtype_pair(Dtype::INVALID, Dtype::FP32));
    set_addr(w, "src_mem_pattern", sbuf_addr(0, 0x101));  // misaligned for any size > 1
    set_step(w, "src_mem_pattern", 1, -1000);             // and below offset 0
    EXPECT_TRUE(
        fails_alone(validate(w, G::V3), RS, "is_valid_fp_dtype_datapath", "in_out_dtype", "0x0"));
  }
  {
    Word w = valid_word(Opcode::RangeSelect);
    set(w, "in_out_dtype", dtype_pair(Dtype::BF16, Dtype::INVALID));
    set_addr(w, "dst_mem_pattern", psum_addr(0, 0x3fff));
    EXPECT_TRUE(
        fails_alone(validate(w, G::V4), RS, "is_valid_fp_dtype_datapath", "in_out_dtype", "0x0"));
  }
  {
    Word w = valid_word(Opcode::TensorScalarSelect);
    set(w, "dtype", 0x11);
    set(w, "src1_imm", 0xffffffff);                        // too wide for any 1-2 byte dtype
    set_addr(w, "src0_mem_pattern", sbuf_addr(2, 0x201));  // misaligned
    set_addr(w, "dst_mem_pattern", psum_addr(2, 0x3ff1));  // PSUM, odd, past the end
    EXPECT_TRUE(fails_alone(validate(w, G::V2), TSS, "is_valid_dtype", "dtype", "0x11"));
  }
  {
    Word w = valid_word(Opcode::TensorScalarSelect);
    set(w, "pred_imm_dtype", code(Dtype::CPTC1));
    set(w, "pred_imm_src", 1);
    set(w, "pred_imm", sbuf_addr(2, 0x301));  // misaligned for 2- and 4-byte widths
    EXPECT_TRUE(fails_alone(validate(w, G::V3), TSS, "is_valid_int_dtype_datapath",
                            "pred_imm_dtype", "0x19"));
  }
  {
    Word w = valid_word(Opcode::GetSequenceBounds);
    set(w, "in_dtype", code(Dtype::FP4_E2));
    set_addr(w, "src_mem_pattern", sbuf_addr(0, 0x41));
    EXPECT_EQ(clauses_of(validate(w, G::V5)),
              (std::vector<std::string>{"has_valid_seq_bounds_dtype", "is_valid_dtype"}))
        << describe(validate(w, G::V5));
  }
  {
    // Sort: no tensor checks and no size limit without a size (N x channels = 8192).
    Word w = valid_word(Opcode::Sort);
    set(w, "in_out_dtype", dtype_pair(Dtype::INVALID, Dtype::INVALID));
    set_addr(w, "src_mem_pattern", sbuf_addr(4, 0x101));
    set_num(w, "src_mem_pattern", 0, 4096);
    set_num(w, "dst_mem_pattern", 1, 4096);
    EXPECT_TRUE(fails_alone(validate(w, G::V2), SORT, "sort_dtypes_ok", "in_out_dtype", "0x0"));
  }
}

// The same rule for the three newer instructions: a dtype without a size leaves its
// tensors and immediates unchecked, and only the dtype clauses report.
TEST(NotEvaluated, SizelessDtypesOfTheNewerInstructions) {
  {
    Word w = valid_word(Opcode::NonzeroWithCount);
    set(w, "out_dtype", 0x11);
    set_addr(w, "dst_mem_pattern", sbuf_addr(0, 0x401));  // misaligned for any size > 1
    EXPECT_EQ(clauses_of(validate(w, G::V3)),
              (std::vector<std::string>{"has_valid_nonzero_with_count_dtype", "is_valid_dtype"}))
        << describe(validate(w, G::V3));
  }
  {
    // CopyPredicatedScalar: no immediate check without in_dtype's size (SPEC §4.12), no
    // destination check without out_dtype's.
    Word w = valid_word(Opcode::CopyPredicatedScalar);
    set(w, "in_dtype", code(Dtype::FP4_E2));
    set(w, "out_dtype", code(Dtype::FP4_E2));
    set(w, "src0_imm_src", 1);
    set(w, "src0_imm", sbuf_addr(0, 0x801));  // misaligned for widths 2 and 4
    set_addr(w, "dst_mem_pattern", psum_addr(0, 0x3ff1));
    EXPECT_TRUE(fails_alone(validate(w, G::V2), CPS, "is_valid_dtype", "_dtype", "0x10", "", 2));
  }
  {
    Word w = valid_word(Opcode::CopyPredicatedScalar);
    set(w, "pred_dtype", code(Dtype::CPTC3));
    set_addr(w, "pred_mem_pattern", sbuf_addr(0, 0x101));
    set_step(w, "pred_mem_pattern", 0, -1000);
    EXPECT_TRUE(
        fails_alone(validate(w, G::V4), CPS, "is_valid_int_dtype_datapath", "pred_dtype", "0x1b"));
  }
  {
    Word w = valid_word(Opcode::DveReadAccumulator);
    set(w, "dtype", 0);
    set_addr(w, "dst_mem_pattern", psum_addr(2, 0x301));  // PSUM, odd
    EXPECT_TRUE(
        fails_alone(validate(w, G::V5), DRA, "dve_read_accumulator_type_check", "dtype", "0x0"));
  }
}

// Sort's size limit is skipped for a dtype that has a size but is not a sort dtype.
TEST(NotEvaluated, SortSizeLimitSkippedForNonSortDtype) {
  Word w = valid_word(Opcode::Sort);
  set(w, "in_out_dtype", dtype_pair(Dtype::FP8_E4, Dtype::FP8_E4));
  set_num(w, "src_mem_pattern", 0, 4096);
  set_num(w, "dst_mem_pattern", 1, 4096);  // 4096 x 2 channels > 4096
  EXPECT_TRUE(fails_alone(validate(w, G::V3), SORT, "sort_dtypes_ok", "in_out_dtype", "0xe"));
}

// is_valid_enum already reports Sort's index_offset_src, so has_valid_immediates is
// not evaluated for it, whatever index_offset holds.
TEST(NotEvaluated, SortIsValidEnumSuppressesHasValidImmediates) {
  for (uint8_t src : {uint8_t{3}, uint8_t{0x80}, uint8_t{0xff}}) {
    for (uint32_t v : {0u, 0x60000001u, 0xffffffffu, psum_addr(0, 0)}) {
      Word w = valid_word(Opcode::Sort);
      set(w, "index_offset_src", src);
      set(w, "index_offset", v);
      char value[8];
      std::snprintf(value, sizeof value, "0x%02x", src);
      EXPECT_TRUE(
          fails_alone(validate(w, G::V3), SORT, "is_valid_enum", "index_offset_src", value));
    }
  }
}

// TensorScalar (SPEC §4.15, §3.6): tensor_scalar_valid_ops needs both ops' classes, so
// it is not evaluated when either op is no enumerator on the generation.
TEST(NotEvaluated, TensorScalarValidOpsNeedsTwoEnumerators) {
  for (Opcode op : kTensorScalarOps) {
    SCOPED_TRACE(mnemonic(op));
    Word w = valid_word(op);
    set(w, "op0", 0x1e);
    set(w, "op1", code(AluOp::POW));  // alone, POW fails tensor_scalar_valid_ops
    EXPECT_TRUE(fails_alone(validate(w, G::V3), op, "is_valid_aluop", "op0", "0x1e"));
    // ABS_MAX is an enumerator from V4 on: then the class clause reports the POW.
    set(w, "op0", code(AluOp::ABS_MAX));
    EXPECT_TRUE(fails_alone(validate(w, G::V3), op, "is_valid_aluop", "op0", "ABS_MAX"));
    EXPECT_TRUE(fails_alone(validate(w, G::V4), op, "tensor_scalar_valid_ops", "op", "POW"));
  }
}

// A dtype without a size: for the bitvec opcodes the immediates clause (an IMM_SRC outside
// the enumeration included), the shift clause and the tensor clause of the operand are
// not evaluated; the dtype clauses report. The arithmetic opcodes' immediates are FP32
// whatever the dtype, so their clause is still evaluated.
TEST(NotEvaluated, TensorScalarSizelessInDtype) {
  {
    Word w = valid_word(Opcode::TensorScalarBitvec);
    set(w, "in_dtype", 0x11);
    set(w, "out_dtype", 0x11);
    set(w, "imm0_src", 7);
    set(w, "imm1", 0x12345678);
    set(w, "op1", code(AluOp::ARITH_SHIFT_RIGHT));
    set_addr(w, "src_mem_pattern", sbuf_addr(4, 0x101));
    EXPECT_EQ(
        clauses_of(validate(w, G::V3)),
        (std::vector<std::string>{"is_valid_dtype", "is_valid_dtype", "tensor_scalar_valid_types"}))
        << describe(validate(w, G::V3));
  }
  {
    Word w = valid_word(Opcode::TensorScalarPtrBitvec);
    set(w, "in_dtype", code(Dtype::FP4_E2));
    set(w, "out_dtype", code(Dtype::FP4_E2));
    set(w, "imm0_src", 1);                  // still reported: it needs no size
    set(w, "imm1", sbuf_addr(127, 0x601));  // not evaluated
    EXPECT_EQ(clauses_of(validate(w, G::V4)),
              (std::vector<std::string>{"is_valid_dtype", "is_valid_dtype",
                                        "tensor_scalar_ptr_imm_src", "tensor_scalar_valid_types"}))
        << describe(validate(w, G::V4));
  }
  {
    Word w = valid_word(Opcode::TensorScalarArith);
    set(w, "in_dtype", 0x11);
    set(w, "imm0_src", 7);
    set(w, "op1", code(AluOp::ARITH_SHIFT_RIGHT));        // fails the class clause only
    set_addr(w, "src_mem_pattern", sbuf_addr(4, 0x101));  // not evaluated
    EXPECT_EQ(clauses_of(validate(w, G::V2)),
              (std::vector<std::string>{"is_valid_dtype", "tensor_scalar_immediates_check",
                                        "tensor_scalar_valid_ops"}))
        << describe(validate(w, G::V2));
  }
}

// SPEC §3.9: the engine input decides only the PSUM rule; on pool no tensor and no
// pointer may be in PSUM. ACT and DVE allow it (a word that then faults unsupported-op
// still validates).
TEST(EngineInput, TensorScalarPsumRuleFollowsTheEngine) {
  for (Opcode op : kTensorScalarOps) {
    SCOPED_TRACE(mnemonic(op));
    const bool pointer = op == TSPA || op == TSPB;
    Word w = valid_word(op);
    set_addr(w, "src_mem_pattern", psum_addr(4, 0x100));
    if (!pointer) set(w, "imm1_src", 1);
    set(w, "imm1", psum_addr(4, 0x200));
    for (std::optional<Engine> e :
         {std::optional<Engine>{}, std::optional{Engine::DVE}, std::optional{Engine::ACT}})
      EXPECT_TRUE(validate(w, G::V3, {.engine = e}).empty())
          << describe(validate(w, G::V3, {.engine = e}));
    const std::string imm_clause =
        pointer ? "tensor_scalar_ptr_immediates" : "tensor_scalar_immediates_check";
    EXPECT_EQ(clauses_of(validate(w, G::V3, {.engine = Engine::POOL})),
              (std::vector<std::string>{"mem3d_valid", imm_clause}))
        << describe(validate(w, G::V3, {.engine = Engine::POOL}));
  }
}

// ---- several failures at once --------------------------------------------------------

TEST(MultipleFailures, EveryFailingClauseIsReported) {
  struct Case {
    Opcode op;
    std::function<void(Word&)> mutate;
    std::vector<std::string> clauses;
    Generation g;
  };
  const std::vector<Case> cases = {
      {RS,
       [](Word& w) {
         w[1] = 0x20;
         set(w, "fill_val", 0);
         set(w, "reduce_op", 0x12);
         set(w, "comp_op0", 0x08);
         w[61] = 1;
       },
       {"has_valid_neuron_header", "is_valid_fill_val", "has_valid_range_select_reduce_op",
        "is_valid_rs_comp_op", "reserved_zero"},
       G::V3},
      {RS,  // on V2 the generation clause joins the others
       [](Word& w) {
         set_events(w, Events{0, 0, 0, 0, 5});
         set(w, "comp_op0", 0x08);
         set(w, "comp_op1", 0x08);
         set(w, "reduce_cmd", 1);
       },
       {"has_valid_nc_rs", "has_valid_neuron_events", "is_valid_rs_comp_op", "is_valid_rs_comp_op",
        "has_valid_range_select_reduce_cmd"},
       G::V2},
      {TSS,
       [](Word& w) {
         w[2] = 1;
         set_events(w, Events{3, 0, 0, 0, 0});
         set(w, "reversed_pred", 2);
         set(w, "num_active_channels", 0);
         w[36] = 9;
       },
       {"has_valid_neuron_header", "has_valid_neuron_events", "has_valid_reversed_pred",
        "has_valid_active_channel_range", "s3d3_ts_select_reserved_zero"},
       G::V2},
      {GSB,
       [](Word& w) {
         set(w, "num_active_channels", 3);
         set(w, "out_dtype", code(Dtype::UINT32));
         set_addr(w, "src_mem_pattern", psum_addr(0, 0));
         set_num(w, "dst_mem_pattern", 2, 1);
         w[50] = 1;
       },
       {"has_valid_s3d3_seq_bounds_channels", "has_valid_seq_bounds_dtype", "tensor3d_valid",
        "s3d3_seq_bounds_element_count_check_t3d", "s3d3_seq_bounds_reserved_zero"},
       G::V4},
      {SORT,
       [](Word& w) {
         set(w, "stable", 3);
         set(w, "comparison", 0x14);
         set(w, "index_offset_src", 7);
         set(w, "in_out_dtype", dtype_pair(Dtype::INT32, Dtype::UINT32));
         w[41] = 1;
       },
       {"sort_valid_stable", "sort_valid_aluop", "is_valid_enum", "sort_dtypes_ok",
        "reserved_zero"},
       G::V5},
      {NWC,  // on V2 the generation clause joins the others
       [](Word& w) {
         set(w, "in_dtype", code(Dtype::UINT32));
         set(w, "padding_val_src", 4);
         set_num(w, "dst_mem_pattern", 0, 3);
         w[38] = 1;
       },
       {"has_valid_nc_nonzero_with_count", "has_valid_nonzero_with_count_dtype",
        "has_valid_immediates", "s3d3_nonzero_with_count_element_count_check_t3d",
        "s3d3_nonzero_with_count_reserved_zero"},
       G::V2},
      {CPS,
       [](Word& w) {
         set(w, "reversed_pred", 3);
         set(w, "pred_dtype", code(Dtype::FP32));
         set(w, "out_dtype", code(Dtype::INT32));
         set_num(w, "dst_mem_pattern", 0, 2);
         w[13] = 1;
       },
       {"has_valid_reversed_pred", "is_valid_int_dtype_datapath", "has_same_inout_dtype",
        "same_element_count_t3d", "s3d3_cp_pred_scalar_reserved_zero"},
       G::V3},
      {DRA,
       [](Word& w) {
         set(w, "negated", 9);
         set(w, "dtype", code(Dtype::UINT16));
         set(w, "dst_element_count", 4);
         w[12] = 1;
         w[63] = 1;
       },
       {"d1_rd_has_valid_negated_field", "dve_read_accumulator_type_check",
        "read_accumulator_dst_size", "d1_rd_reserved_zero", "d1_rd_reserved_zero"},
       G::V4},
  };
  for (const Case& c : cases) {
    const Word w = with(valid_word(c.op), c.mutate);
    std::vector<std::string> want = c.clauses;
    std::sort(want.begin(), want.end());
    const Diagnostics d = validate(w, c.g);
    EXPECT_EQ(clauses_of(d), want) << mnemonic(c.op) << describe(d);
    for (const Diagnostic& x : d) {
      EXPECT_EQ(x.instruction, mnemonic(c.op));
      EXPECT_FALSE(x.field.empty());
      EXPECT_FALSE(x.value.empty());
      EXPECT_FALSE(x.allowed.empty());
    }
  }
}

// SPEC §3.6: the clauses that are not evaluated.
TEST(NotEvaluated, TensorTensorSizelessDtypesAndNonEnumeratorOps) {
  {
    // A src0 dtype without a size: src0's tensor clause is not evaluated.
    Word w = valid_word(Opcode::TensorTensorArith);
    set(w, "in0_in1_dtype", dtype_pair(Dtype::INVALID, Dtype::FP32));
    set_addr(w, "src0_mem_pattern", sbuf_addr(2, 0x101));  // misaligned for sizes 2 .. 8
    set_step(w, "src0_mem_pattern", 1, -1000);             // and below offset 0
    for (Generation g : kAllGenerations)
      EXPECT_TRUE(fails_alone(validate(w, g), TTA, "is_valid_dtype_64", "src0", "INVALID (0x0)"));
  }
  {
    Word w = valid_word(Opcode::TensorTensorArith);
    set(w, "out_dtype", 0x11);
    set_addr(w, "dst_mem_pattern", psum_addr(2, 0x3ff1));  // PSUM, odd, past the end
    EXPECT_TRUE(fails_alone(validate(w, G::V4), TTA, "is_valid_dtype_64", "out_dtype", "0x11"));
  }
  {
    // IS_GT_INT is no enumerator on V2: its class is unknown there, so the signedness rule
    // is not evaluated; on V3 it is, and fails for these float dtypes.
    Word w = valid_word(Opcode::TensorTensorArith);
    set(w, "op", 0xd1);
    EXPECT_TRUE(fails_alone(validate(w, G::V2), TTA, "is_valid_enum", "op", "IS_GT_INT (0xd1)"));
    for (Generation g : {G::V3, G::V4, G::V5})
      EXPECT_TRUE(fails_alone(validate(w, g), TTA, "s3s3d3_tt_valid_int_signness", "op",
                              "IS_GT_INT (0xd1)"));
  }
  {
    // SYMMETRIC_CLAMP with mismatched bitvec dtypes: on V4 only is_valid_enum; on V5 it is
    // an enumerator, in no class: not a bitvec op, and the dtype pair is checked too.
    Word w = valid_word(Opcode::TensorTensorBitvec);
    set(w, "op", 0x24);
    set(w, "in0_in1_dtype", dtype_pair(Dtype::INT16, Dtype::UINT16));
    EXPECT_EQ(clauses_of(validate(w, G::V4)), (std::vector<std::string>{"is_valid_enum"}));
    EXPECT_EQ(clauses_of(validate(w, G::V5)),
              (std::vector<std::string>{"s3s3d3_tt_src_dst_dtype", "s3s3d3_tt_valid_op"}));
  }
  {
    // s3s3d3_tt_dtype needs no op class: evaluated beside is_valid_enum.
    Word w = valid_word(Opcode::TensorTensorBitvec);
    set(w, "op", 0x30);
    set(w, "in0_in1_dtype", dtype_pair(Dtype::FP16, Dtype::INT16));
    set(w, "out_dtype", code(Dtype::FP16));
    for (Generation g : kAllGenerations)
      EXPECT_EQ(clauses_of(validate(w, g)),
                (std::vector<std::string>{"is_valid_enum", "s3s3d3_tt_dtype"}))
          << gen_text(g);
  }
}

// SPEC §3.6: start_addr_active_channels is evaluated whenever the start partition can be
// decoded from a static address, even when its offset breaks a rule of §3.4; not when mode
// bits or bits 25-28 make the partition unknown.
TEST(NotEvaluated, StartPartitionIsCheckedWhenOnlyTheOffsetIsBad) {
  const std::vector<std::string> both = {"start_addr_active_channels", "tensor3d_valid"};
  const std::vector<std::string> tensor_only = {"tensor3d_valid"};
  // 3 channels from partition 127, SBUF offset = P (no such offset on V2/V3).
  for (Generation g : {G::V2, G::V3}) {
    const Word w = with(valid_word(Opcode::TensorTensorArith), [&](Word& x) {
      set_addr(x, "src1_mem_pattern", sbuf_addr(127, sbuf_bytes(g)));
    });
    EXPECT_EQ(clauses_of(validate(w, g)), both) << gen_text(g) << describe(validate(w, g));
    EXPECT_TRUE(has_clause(validate(w, g), "start_addr_active_channels"));
  }
  // PSUM offset >= 16 KiB, partition 127.
  const Word psum = with(valid_word(Opcode::TensorTensorArith),
                         [](Word& x) { set_addr(x, "dst_mem_pattern", psum_addr(127, 0x4000)); });
  for (Generation g : kAllGenerations)
    EXPECT_EQ(clauses_of(validate(psum, g)), both) << gen_text(g) << describe(validate(psum, g));
  // Mode bits: the partition is unknown, only the tensor clause.
  const Word mode = with(valid_word(Opcode::TensorTensorArith), [](Word& x) {
    set_addr(x, "src0_mem_pattern", sbuf_addr(127, 0x100) | 0x20000000u);
  });
  for (Generation g : kAllGenerations) EXPECT_EQ(clauses_of(validate(mode, g)), tensor_only);
  // The same rule for the other instructions: RangeSelect's 2 channels from partition 127.
  const Word rs = with(valid_word(Opcode::RangeSelect),
                       [](Word& x) { set_addr(x, "dst_mem_pattern", psum_addr(127, 0x5000)); });
  EXPECT_EQ(clauses_of(validate(rs, G::V3)),
            (std::vector<std::string>{"start_addr_active_channels", "tensor2d_valid"}))
      << describe(validate(rs, G::V3));
}

TEST(MultipleFailures, TensorTensorReportsEveryFailingClause) {
  Word w = valid_word(Opcode::TensorTensorArith);
  w[2] = 1;                              // has_valid_neuron_header
  set(w, "op", 0x07);                    // s3s3d3_tt_valid_op (DIVIDE)
  set(w, "out_dtype", 0x1f);             // is_valid_dtype_64 (CPTC7): dst unchecked
  set_num(w, "src1_mem_pattern", 2, 2);  // s3s3d3_tt_src_element_cnt_check
  set_addr(w, "src0_mem_pattern", psum_addr(2, 0x100));
  set_addr(w, "src1_mem_pattern", psum_addr(2, 0x200));  // tensor_tensor_src_psum_check
  std::vector<std::string> want = {"has_valid_neuron_header", "s3s3d3_tt_valid_op",
                                   "is_valid_dtype_64", "s3s3d3_tt_src_element_cnt_check",
                                   "tensor_tensor_src_psum_check"};
  std::sort(want.begin(), want.end());
  for (Generation g : kAllGenerations) {
    const Diagnostics d = validate(w, g);
    EXPECT_EQ(clauses_of(d), want) << gen_text(g) << describe(d);
    for (const Diagnostic& x : d) {
      EXPECT_EQ(x.instruction, "TensorTensorArith");
      EXPECT_FALSE(x.field.empty() || x.value.empty() || x.allowed.empty()) << x.message();
    }
  }
}

// ---- the conformance vectors (SPEC §7) -------------------------------------------------

// Every `invalid` vector reports at least its listed clauses; every other vector (ok or
// fault: faults are found at execution) validates clean. New files are picked up as
// they appear.
TEST(ConformanceVectors, ValidationMatchesTheExpectedStatus) {
  namespace fs = std::filesystem;
  const fs::path dir(GPSIMD_CONFORMANCE_DIR);
  ASSERT_TRUE(fs::is_directory(dir)) << dir;
  std::size_t files = 0, vectors = 0, invalid = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".json") continue;
    ++files;
    std::ifstream in(e.path());
    const nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << e.path();
    for (const nlohmann::json& v : doc.at("vectors")) {
      ++vectors;
      const std::string name =
          e.path().filename().string() + ": " + v.at("name").get<std::string>();
      const std::optional<Generation> g = parse_generation(v.at("nc").get<std::string>());
      ASSERT_TRUE(g.has_value()) << name;
      std::string error;
      const std::optional<Word> w = word_from_hex(v.at("instruction").get<std::string>(), &error);
      ASSERT_TRUE(w.has_value()) << name << ": " << error;
      const bool strict = v.value("strict", false);
      const Diagnostics d = validate(*w, *g, ValidateOptions{strict});
      const nlohmann::json& expect = v.at("expect");
      if (expect.at("status").get<std::string>() == "invalid") {
        ++invalid;
        EXPECT_FALSE(d.empty()) << name;
        for (const nlohmann::json& clause : expect.value("violations", nlohmann::json::array()))
          EXPECT_TRUE(has_clause(d, clause.get<std::string>()))
              << name << ": missing " << clause << describe(d);
      } else {
        EXPECT_TRUE(d.empty()) << name << describe(d);
      }
    }
  }
  EXPECT_GT(files, 0u);
  EXPECT_GT(vectors, 0u);
  EXPECT_GT(invalid, 0u);
}

}  // namespace
}  // namespace gpsimd
