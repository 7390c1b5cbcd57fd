// ScalarTensorTensorArith (SPEC §4.21): its expected table row, its valid word, the
// independent reference of its effect and its random generators, registered for the
// generic drivers (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/s2s2d2_stt.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.21: §4.20's fields.
inline ExpectedInstr scalar_tensor_tensor_arith_row() {
  ExpectedInstr r{"ScalarTensorTensorArith",    0x9d, "S2S2D2_STT", Engine::DVE,
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

// valid_scalar_tensor_tensor_arith(): stt_word's layout, FP32 throughout, (x * 2.0) + y,
// ZERO_ACCUMULATE.
inline Word valid_scalar_tensor_tensor_arith() {
  return valid_s2s2d2_stt(Opcode::ScalarTensorTensorArith, Dtype::FP32, Dtype::FP32, Dtype::FP32,
                          AluOp::MULT, AluOp::ADD, Dtype::FP32, f32_bits(2.0f),
                          AccumCmd::ZERO_ACCUMULATE);
}

}  // namespace gpsimd::test_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "ScalarTensorTensorArith",
    .opcode = Opcode::ScalarTensorTensorArith,
    .opcode_clause = "has_scalar_tensor_tensor_opcode",
    .expected_row = expected_rows::scalar_tensor_tensor_arith_row,
    .valid_word = test_words::valid_scalar_tensor_tensor_arith,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::s2s2d2_stt(m, w, fx);
        },
    .generate =
        [](random_words::Builder& b) {
          return random_words::gen_s2s2d2_stt(b, rm::kScalarTensorTensorArith);
        },
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = [](asm_words::Gen& g) { return asm_words::valid_s2s2d2_stt(g, 0x9d); },
    .kernel_words = {{kernels_equiv::scalar_tensor_tensor_arith_word, 0x9d, 400, 4,
                      kernels_equiv::alu_machines}},
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
  return cases_of(Opcode::ScalarTensorTensorArith, s2s2d2_stt_clause_cases());
}
GPSIMD_CLAUSE_CASES(ScalarTensorTensorArith, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4.21) ----

namespace stt {

// SPEC §4.21's example: reverse FIRST, op0 = op1 = SUBTRACT, s = 5.
TEST(ScalarTensorTensorArith, ReverseFirstSubtractExample) {
  rm::SttWord x = stt_word(rm::kScalarTensorTensorArith, dt::FP32, dt::FP32, dt::FP32, op::SUBTRACT,
                           op::SUBTRACT, 2);
  x.rev = 1;
  x.imm0 = f32(5);
  EXPECT_EQ(run_elems(x, {f32(2), f32(-3)}, {f32(10), f32(20)}), (V{f32(-7), f32(-12)}));
  // SECOND: y - (x - s): 10 - (2 - 5) = 13, 20 - (-3 - 5) = 28.
  x.rev = 2;
  EXPECT_EQ(run_elems(x, {f32(2), f32(-3)}, {f32(10), f32(20)}), (V{f32(13), f32(28)}));
}

// moe_cte's token_indices * 4 + [0, 1, 2, 3]: src0 INT32 read 4 times each (step 0), src1
// the FP32 ramp (step 0 on its rows); an index of 2^24 + 1 comes in as 2^24.
TEST(ScalarTensorTensorArith, MoeIndexExpansion) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, {3, 16777217u});
  poke(m, SBUF, 0, 0x200, 4, {f32(0), f32(1), f32(2), f32(3)});
  rm::SttWord x =
      stt_word(rm::kScalarTensorTensorArith, dt::INT32, dt::FP32, dt::FP32, op::MULT, op::ADD, 8);
  x.src0 = tensor2(rm::sbuf_addr(0, 0x100), 0, 4, 1, 2);
  x.src1 = tensor2(rm::sbuf_addr(0, 0x200), 1, 4, 0, 2);
  x.imm0 = f32(4);
  expect_ok(m, x.encode());
  // 4 * 2^24 = 2^26, where FP32's spacing is 8: + 1, + 2, + 3 round back to 2^26.
  const uint32_t k26 = f32(67108864.0f);
  EXPECT_EQ(peek(m, SBUF, 0, 0x300, 4, 8),
            (V{f32(12), f32(13), f32(14), f32(15), k26, k26, k26, k26}));
}

// rmsnorm_quant's (x * inverse_rms[p]) * gamma in place: the scalar through a pointer,
// gamma in PSUM, dst = src0.
TEST(ScalarTensorTensorArith, InPlaceWithAPointerScalarAndPsumOperand) {
  Machine& m = fresh(Generation::V3);
  const V x0 = {f32(1.5f), f32(-2), f32(0.1f)}, x1 = {f32(3), f32(0.25f), f32(-7)};
  const V gamma = {f32(0.5f), f32(3), f32(1.1f)};
  poke(m, SBUF, 2, 0x100, 4, x0);
  poke(m, SBUF, 3, 0x100, 4, x1);
  poke(m, PSUM, 2, 0x40, 4, gamma);
  poke(m, PSUM, 3, 0x40, 4, gamma);
  poke(m, SBUF, 2, 0x800, 4, {f32(0.3f)});
  poke(m, SBUF, 3, 0x800, 4, {f32(-1.7f)});
  rm::SttWord x =
      stt_word(rm::kScalarTensorTensorArith, dt::FP32, dt::FP32, dt::FP32, op::MULT, op::MULT, 3);
  x.channels = 2;
  x.src0.addr = x.dst.addr = rm::sbuf_addr(2, 0x100);
  x.src1.addr = rm::psum_addr(2, 0x40);
  x.imm_src = 1;
  x.imm0 = rm::sbuf_addr(2, 0x800);
  expect_ok(m, x.encode());
  for (unsigned c = 0; c < 2; ++c) {
    const float s = c == 0 ? 0.3f : -1.7f;
    const V& in = c == 0 ? x0 : x1;
    V want;
    for (std::size_t j = 0; j < 3; ++j) {
      float t = rm::as_float(in[j]) * s;
      t = t * rm::as_float(gamma[j]);
      want.push_back(rm::as_bits(t));
    }
    EXPECT_EQ(peek(m, SBUF, 2 + c, 0x100, 4, 3), want) << c;
  }
}

// The accumulator (SPEC §4.21, rule accumulate-order): the FP32 results summed one at a
// time in walk order into src0's partition's accumulator; ZERO_ACCUMULATE from +0.0,
// ACCUMULATE from the accumulator's bits, IDLE leaves it; the destination is written
// whatever the command.
TEST(ScalarTensorTensorArith, AccumulatesInWalkOrderIntoSrc0sPartition) {
  Machine& m = fresh(Generation::V3);
  // r = x * 1 + 0 = x: 1e8 + 1 rounds back to 1e8, - 1e8 = 0, + 1 = 1 (another order: 0 or 2).
  const V data = {f32(1e8f), f32(1), f32(-1e8f), f32(1)};
  poke(m, SBUF, 9, 0x100, 4, data);
  poke(m, SBUF, 9, 0x200, 4, V(4, 0));
  rm::SttWord x =
      stt_word(rm::kScalarTensorTensorArith, dt::FP32, dt::FP32, dt::BF16, op::MULT, op::ADD, 4);
  x.src0.addr = rm::sbuf_addr(9, 0x100);
  x.src1.addr = rm::sbuf_addr(4, 0x200);
  x.dst.addr = rm::sbuf_addr(20, 0x300);
  poke(m, SBUF, 4, 0x200, 4, V(4, 0));
  x.imm0 = f32(1);
  x.cmd = 3;
  expect_ok(m, x.encode());
  EXPECT_EQ(m.accumulators[9], f32(1));
  EXPECT_EQ(m.accumulators[4], kNegInf);   // not src1's
  EXPECT_EQ(m.accumulators[20], kNegInf);  // nor the destination's
  EXPECT_EQ(peek(m, SBUF, 20, 0x300, 2, 4), (V{0x4CBF, 0x3F80, 0xCCBF, 0x3F80}));
  // ACCUMULATE continues from the accumulator's bits.
  x.cmd = 2;
  m.accumulators[9] = f32(0.5f);
  expect_ok(m, x.encode());
  EXPECT_EQ(m.accumulators[9], f32(1));  // 0.5 + 1e8 = 1e8 too
  m.accumulators[9] = f32(-1e8f);
  expect_ok(m, x.encode());  // -1e8 + 1e8 = 0, + 1 = 1, - 1e8 = -1e8, + 1 = -1e8
  EXPECT_EQ(m.accumulators[9], f32(-1e8f));
  // IDLE: unchanged.
  x.cmd = 0;
  expect_ok(m, x.encode());
  EXPECT_EQ(m.accumulators[9], f32(-1e8f));
  // Results all -0.0 (-0.0 * 1 + -0.0): ZERO_ACCUMULATE leaves +0.0 (the fold starts from
  // +0.0).
  poke(m, SBUF, 9, 0x100, 4, V(4, 0x80000000u));
  poke(m, SBUF, 4, 0x200, 4, V(4, 0x80000000u));
  x.cmd = 3;
  expect_ok(m, x.encode());
  EXPECT_EQ(m.accumulators[9], 0u);
}

// A fresh accumulator is -inf: ACCUMULATE of finite values stays -inf; a NaN summand gives
// 0x7FC00000; a PSUM src0 in partition 9 uses acc[9]; DveReadAccumulator reads it back.
TEST(ScalarTensorTensorArith, FreshAccumulatorNanSummandPsumSource) {
  Machine& m = fresh(Generation::V4);
  poke(m, PSUM, 9, 0x100, 4, {f32(1), f32(2)});
  poke(m, SBUF, 9, 0x200, 4, {f32(0), f32(0)});
  rm::SttWord x =
      stt_word(rm::kScalarTensorTensorArith, dt::FP32, dt::FP32, dt::FP32, op::ADD, op::ADD, 2);
  x.src0.addr = rm::psum_addr(9, 0x100);
  x.src1.addr = rm::sbuf_addr(9, 0x200);
  x.dst.addr = rm::sbuf_addr(9, 0x300);
  x.cmd = 2;
  expect_ok(m, x.encode());
  EXPECT_EQ(m.accumulators[9], kNegInf);
  x.cmd = 3;
  expect_ok(m, x.encode());
  EXPECT_EQ(m.accumulators[9], f32(3));
  expect_ok(m, dra_word(dt::FP32, 1, rm::sbuf_addr(9, 0x400)).encode());
  EXPECT_EQ(peek(m, SBUF, 9, 0x400, 4, 1), (V{f32(3)}));
  poke(m, PSUM, 9, 0x100, 4, {0x7F800001u, f32(2)});
  x.cmd = 2;
  expect_ok(m, x.encode());
  EXPECT_EQ(m.accumulators[9], 0x7FC00000u);
}

// A faulting word changes no accumulator, ZERO_ACCUMULATE included; every source is read
// before the destination is written.
TEST(ScalarTensorTensorArith, FaultsChangeNothing) {
  Machine& m = busy_machine(Generation::V3);
  rm::SttWord x =
      stt_word(rm::kScalarTensorTensorArith, dt::FP32, dt::FP32, dt::FP32, op::ADD, op::ADD, 4);
  x.ev = kSet9;
  x.cmd = 3;
  x.dst.addr = rm::reg_addr(3);
  m.registers[3] = rm::sbuf_addr(0, 0x102);
  expect_fault(m, x.encode(), FaultKind::BadAddress);
  m.registers[3] = rm::sbuf_addr(0, 0x100);
  x.dst.num[0] = 5;
  expect_fault(m, x.encode(), FaultKind::ShapeMismatch);
  x.dst.num[0] = 4;
  // dst on src0 (in place): r = (x + 0) + y with y = 0 written over x; the sum 10.
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 4), (V{f32(1), f32(2), f32(3), f32(4)}));
  EXPECT_EQ(m.accumulators[0], f32(10));
  EXPECT_EQ(m.semaphores[9], 0x77u);
}

}  // namespace stt

}  // namespace
#endif
