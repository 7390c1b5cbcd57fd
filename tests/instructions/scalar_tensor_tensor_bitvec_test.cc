// ScalarTensorTensorBitvec (SPEC §4.21): its expected table row, its valid word, the
// independent reference of its effect (it faults unsupported-op once valid) and its random
// generators, registered for the generic drivers (tests/instructions/registry.h); in
// instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/s2s2d2_stt.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.21: §4.20's fields.
inline ExpectedInstr scalar_tensor_tensor_bitvec_row() {
  ExpectedInstr r{"ScalarTensorTensorBitvec",   0x9e, "S2S2D2_STT", Engine::DVE,
                  {G::V2, G::V3, G::V4, G::V5}, {}};
  r.fields = {
      {"header", 0, 4, K::Header},
      {"events", 4, 8, K::Events},
      {"src0_mem_pattern", 12, 12, K::Tensor, 2},
      {"src1_mem_pattern", 24, 12, K::Tensor, 2},
      {"op0", 36, 1, K::AluOp},
      {"op1", 37, 1, K::AluOp},
      {"reverse_operands", 38, 1, K::RevOps},
      {"imm0_src", 39, 1, K::ImmSrc},
      {"in0_in1_dtype", 40, 1, K::DtypePair},
      {"out_dtype", 41, 1, K::Dtype},
      {"num_active_channels", 42, 1, K::U8},
      {"imm0_dtype", 43, 1, K::Dtype},
      {"accumulator_cmd", 44, 1, K::AccumCmd},
      {"reserved", 45, 3, K::Reserved},
      {"dst_mem_pattern", 48, 12, K::Tensor, 2},
      {"imm0", 60, 4, K::ImmVal, 0, "imm0_src"},
  };
  return r;
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_scalar_tensor_tensor_bitvec(): stt_word's layout, INT16 throughout (imm0_dtype
// too), (x & 0xff) | y.
inline Word valid_scalar_tensor_tensor_bitvec() {
  return valid_s2s2d2_stt(Opcode::ScalarTensorTensorBitvec, Dtype::INT16, Dtype::INT16,
                          Dtype::INT16, AluOp::BITWISE_AND, AluOp::BITWISE_OR, Dtype::INT16, 0xff,
                          AccumCmd::IDLE);
}

}  // namespace gpsimd::test_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "ScalarTensorTensorBitvec",
    .opcode = Opcode::ScalarTensorTensorBitvec,
    .opcode_clause = "has_scalar_tensor_tensor_opcode",
    .expected_row = expected_rows::scalar_tensor_tensor_bitvec_row,
    .valid_word = test_words::valid_scalar_tensor_tensor_bitvec,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::s2s2d2_stt(m, w, fx);
        },
    .generate =
        [](random_words::Builder& b) {
          return random_words::gen_s2s2d2_stt(b, rm::kScalarTensorTensorBitvec);
        },
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = [](asm_words::Gen& g) { return asm_words::valid_s2s2d2_stt(g, 0x9e); },
    .no_fast_path_comparison = "it never runs: every valid word faults unsupported-op",
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd {
namespace {

// ---- clause cases (SPEC §4.21, §6): its share of the family's (s2s2d2_stt.h) ----

std::vector<ClauseCase> clause_cases() {
  return cases_of(Opcode::ScalarTensorTensorBitvec, s2s2d2_stt_clause_cases());
}
GPSIMD_CLAUSE_CASES(ScalarTensorTensorBitvec, clause_cases);

// Its instruction immediate is any 4 bytes (bytes above size(imm0_dtype) included), and
// s2s2d2_stt_imm0_dtype holds whatever imm0_dtype is (its dtype clauses decide).
TEST(ScalarTensorTensorBitvecValidate, ImmediateIsAnyFourBytes) {
  Word w = test_words::valid_scalar_tensor_tensor_bitvec();
  set(w, "imm0", 0xdeadbeef);
  EXPECT_TRUE(validate(w, Generation::V3).empty()) << describe(validate(w, Generation::V3));
  for (Dtype d : {Dtype::UINT8, Dtype::INT32}) {
    set(w, "in0_in1_dtype", dtype_pair(d, d));
    set(w, "out_dtype", code(d));
    set(w, "imm0_dtype", code(d));
    EXPECT_TRUE(validate(w, Generation::V5).empty()) << describe(validate(w, Generation::V5));
  }
}

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4.21: 0x9e validates, then faults unsupported-op) ----

namespace stt {

TEST(ScalarTensorTensorBitvec, FaultsUnsupportedAfterTheWaitChangingNothing) {
  Machine& m = busy_machine(Generation::V4);
  rm::SttWord x = stt_word(rm::kScalarTensorTensorBitvec, dt::INT32, dt::INT32, dt::INT32,
                           op::BITWISE_XOR, op::BITWISE_OR, 4);
  x.imm_dtype = dt::INT32;
  x.imm0 = 0xff;
  x.ev = kSet9;
  expect_fault(m, x.encode(), FaultKind::UnsupportedOp);
  // Before anything is resolved: a bad register address or a huge walk still gives
  // unsupported-op.
  x.dst.addr = rm::reg_addr(5);
  m.registers[5] = 0xffffffffu;
  expect_fault(m, x.encode(), FaultKind::UnsupportedOp);
  // After the wait check: a wait that does not hold gives sync-would-block.
  x.ev = rm::Events{2, 9, 0, 0, 12345};
  expect_fault(m, x.encode(), FaultKind::SyncWouldBlock);
  for (Generation g : {Generation::V2, Generation::V3, Generation::V5}) {
    Machine& f = fresh(g);
    const ExecResult r = exec(f, test_words::valid_scalar_tensor_tensor_bitvec());
    ASSERT_EQ(r.status, Status::Faulted) << r.message();
    EXPECT_EQ(r.fault->kind, FaultKind::UnsupportedOp);
  }
}

}  // namespace stt

}  // namespace
#endif
