// SelectReduce (SPEC §4.25): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/s2s2d2_stt.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.25: §4.20's fields, with other roles.
inline ExpectedInstr select_reduce_row() {
  ExpectedInstr r{
      "SelectReduce", 0xea, "S2S2D2_STT", Engine::DVE, {G::V2, G::V3, G::V4, G::V5}, {}};
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

// valid_select_reduce(): stt_word's layout, a UINT8 predicate, FP32 on_true and
// destination, on_false -FLT_MAX, ZERO_ACCUMULATE.
inline Word valid_select_reduce() {
  return valid_s2s2d2_stt(Opcode::SelectReduce, Dtype::UINT8, Dtype::FP32, Dtype::FP32,
                          AluOp::BYPASS, AluOp::MAX, Dtype::FP32, kNegFltMaxBits,
                          AccumCmd::ZERO_ACCUMULATE);
}

}  // namespace gpsimd::test_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "SelectReduce",
    .opcode = Opcode::SelectReduce,
    .opcode_clause = "has_select_reduce_opcode",
    .expected_row = expected_rows::select_reduce_row,
    .valid_word = test_words::valid_select_reduce,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::s2s2d2_stt(m, w, fx);
        },
    .generate =
        [](random_words::Builder& b) { return random_words::gen_s2s2d2_stt(b, rm::kSelectReduce); },
    // On V2 every word faults unsupported-op (SPEC §4.25; SelectReduce.FaultsOnV2...).
    .random_generations = {Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = [](asm_words::Gen& g) { return asm_words::valid_s2s2d2_stt(g, 0xea); },
    .no_fast_path_comparison = "the reference path is its only path (no fast kernel yet)",
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd {
namespace {

// ---- clause cases (SPEC §4.25, §6): its share of the family's (s2s2d2_stt.h) ----

std::vector<ClauseCase> clause_cases() {
  return cases_of(Opcode::SelectReduce, s2s2d2_stt_clause_cases());
}
GPSIMD_CLAUSE_CASES(SelectReduce, clause_cases);

// A reverse_operands above 3 fails both reverse clauses; an INT64 predicate fails
// is_valid_dtype and has_valid_select_reduce_dtypes.
TEST(SelectReduceValidate, ClausesTiedTogether) {
  Word w = test_words::valid_select_reduce();
  set(w, "reverse_operands", 4);
  EXPECT_EQ(clauses_of(validate(w, Generation::V3)),
            (std::vector<std::string>{"has_valid_select_reduce_rev_ops", "is_valid_enum"}));
  w = test_words::valid_select_reduce();
  set(w, "in0_in1_dtype", dtype_pair(Dtype::INT64, Dtype::FP32));
  EXPECT_EQ(clauses_of(validate(w, Generation::V3)),
            (std::vector<std::string>{"has_valid_select_reduce_dtypes", "is_valid_dtype"}));
}

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4.25) ----

namespace stt {

// n predicate elements (dtype pd) at partition 0 offset 0x100, n FP32 on_true at 0x200,
// the FP32 destination at 0x300; on_false an FP32 instruction immediate.
inline rm::SttWord sr_word(uint8_t pd, uint8_t hi, uint8_t out, unsigned n, uint32_t on_false) {
  rm::SttWord x = stt_word(rm::kSelectReduce, pd, hi, out, op::BYPASS, op::MAX, n);
  x.imm0 = on_false;
  return x;
}

// test_select_reduce_basic, on 4 partitions of 4: predicate 1 on the first two; IDLE
// leaves the accumulators; reverse_pred (FIRST) swaps the halves.
TEST(SelectReduce, BasicAndReversedPredicate) {
  Machine& m = fresh(Generation::V3);
  for (unsigned p = 0; p < 4; ++p) {
    poke(m, SBUF, p, 0x100, 1, V(4, p < 2 ? 1u : 0u));
    poke(m, SBUF, p, 0x200, 4, V(4, f32(1)));
  }
  rm::SttWord x = sr_word(dt::UINT8, dt::FP32, dt::FP32, 4, kNegFltMax);
  x.channels = 4;
  expect_ok(m, x.encode());
  for (unsigned p = 0; p < 4; ++p) {
    EXPECT_EQ(peek(m, SBUF, p, 0x300, 4, 4), V(4, p < 2 ? f32(1) : kNegFltMax)) << p;
    EXPECT_EQ(m.accumulators[p], kNegInf);
  }
  x.rev = 1;
  expect_ok(m, x.encode());
  for (unsigned p = 0; p < 4; ++p)
    EXPECT_EQ(peek(m, SBUF, p, 0x300, 4, 4), V(4, p < 2 ? kNegFltMax : f32(1))) << p;
}

// test_select_reduce_with_reduction: the max runs over the whole result, on_false
// included; on_false through a pointer per partition; the accumulator is on_true's
// partition's; DveReadAccumulator reads it back.
TEST(SelectReduce, ReductionIncludesOnFalseIntoOnTruesPartition) {
  Machine& m = fresh(Generation::V4);
  poke(m, SBUF, 10, 0x100, 1, {1, 0, 1, 0});  // the predicate in partition 10
  poke(m, SBUF, 30, 0x200, 4, {f32(5), f32(50), f32(7), f32(-1)});
  poke(m, SBUF, 40, 0x600, 4, {f32(99.786f)});  // on_false above every selected value
  rm::SttWord x = sr_word(dt::UINT8, dt::FP32, dt::FP32, 4, 0);
  x.src0.addr = rm::sbuf_addr(10, 0x100);
  x.src1.addr = rm::sbuf_addr(30, 0x200);
  x.dst.addr = rm::sbuf_addr(50, 0x300);
  x.imm_src = 1;
  x.imm0 = rm::sbuf_addr(40, 0x600);
  x.cmd = 3;
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 50, 0x300, 4, 4), (V{f32(5), f32(99.786f), f32(7), f32(99.786f)}));
  EXPECT_EQ(m.accumulators[30], f32(99.786f));
  EXPECT_EQ(m.accumulators[10], kNegInf);
  EXPECT_EQ(m.accumulators[50], kNegInf);
  expect_ok(m, dra_word(dt::FP32, 1, rm::sbuf_addr(30, 0x700)).encode());
  EXPECT_EQ(peek(m, SBUF, 30, 0x700, 4, 1), (V{f32(99.786f)}));
  // ACCUMULATE: the old value is one more operand.
  m.accumulators[30] = f32(1000);
  x.cmd = 2;
  expect_ok(m, x.encode());
  EXPECT_EQ(m.accumulators[30], f32(1000));
}

// ZERO_ACCUMULATE of an all-NaN row leaves -inf; ACCUMULATE over a NaN accumulator and
// NaN values gives 0x7FC00000; -0.0 < +0.0.
TEST(SelectReduce, NanRowsAndSignedZeros) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 1, V(3, 1));
  poke(m, SBUF, 0, 0x200, 4, {0x7FC00000u, 0xFF800001u, 0x7F800001u});
  rm::SttWord x = sr_word(dt::UINT8, dt::FP32, dt::FP32, 3, kNegFltMax);
  x.cmd = 3;
  expect_ok(m, x.encode());
  EXPECT_EQ(m.accumulators[0], kNegInf);
  // FP32 to FP32 keeps a NaN's bits (SPEC §5), signalling ones included.
  EXPECT_EQ(peek(m, SBUF, 0, 0x300, 4, 3), (V{0x7FC00000u, 0xFF800001u, 0x7F800001u}));
  m.accumulators[0] = 0x7FC00000u;
  x.cmd = 2;
  expect_ok(m, x.encode());
  EXPECT_EQ(m.accumulators[0], 0x7FC00000u);
  poke(m, SBUF, 0, 0x200, 4, {0x80000000u, 0, 0x80000000u});
  x.cmd = 3;
  expect_ok(m, x.encode());
  EXPECT_EQ(m.accumulators[0], 0u);
}

// Truth is any bit set (0x0100 in INT16 and the sign bit are true); a narrow NaN on_true is
// canonicalised even with equal dtypes; on_false -FLT_MAX becomes -inf in BF16.
TEST(SelectReduce, TruthAndTheFp32DataPath) {
  Machine& m = fresh(Generation::V5);
  poke(m, SBUF, 0, 0x100, 2, {0x0100, 0x8000, 0, 1});
  poke(m, SBUF, 0, 0x200, 2, {0x7F81, 0x3F80, 0x4000, 0xC000});
  rm::SttWord x = sr_word(dt::INT16, dt::BF16, dt::BF16, 4, kNegFltMax);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x300, 2, 4), (V{0x7FC0, 0x3F80, 0xFF80, 0xC000}));
}

// V2 validates, then faults unsupported-op (after the wait, before anything is resolved).
TEST(SelectReduce, FaultsOnV2AndChangesNothing) {
  Machine& m = busy_machine(Generation::V2);
  rm::SttWord x = sr_word(dt::UINT8, dt::FP32, dt::FP32, 4, kNegFltMax);
  x.ev = kSet9;
  x.cmd = 3;
  expect_fault(m, x.encode(), FaultKind::UnsupportedOp);
  x.src1.addr = rm::reg_addr(4);
  m.registers[4] = 0x7fffffffu;
  expect_fault(m, x.encode(), FaultKind::UnsupportedOp);
  Machine& v3 = busy_machine(Generation::V3);
  v3.registers[4] = 0x7fffffffu;
  expect_fault(v3, x.encode(), FaultKind::BadAddress);
  v3.registers[4] = rm::psum_addr(0, 0x100);
  x.src0.addr = rm::psum_addr(1, 0x100);
  expect_fault(v3, x.encode(), FaultKind::BadAddress);  // both sources in PSUM
}

}  // namespace stt

}  // namespace
#endif
