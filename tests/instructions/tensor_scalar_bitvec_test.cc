// TensorScalarBitvec (SPEC §4.15): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/tensor_scalar.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.15.
inline ExpectedInstr tensor_scalar_bitvec_row() {
  return {"TensorScalarBitvec", 0x53, "S3D3_TS", Engine::DVE, {G::V2, G::V3, G::V4, G::V5},
          s3d3_ts_fields()};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

inline Word valid_tensor_scalar_bitvec() {
  return valid_s3d3_ts(Opcode::TensorScalarBitvec);
}

}  // namespace gpsimd::test_words

namespace gpsimd::random_words {

inline Word gen_tensor_scalar_bitvec(Builder& b) {
  return gen_tensor_scalar(b, rm::kTensorScalarBitvec);
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_tensor_scalar_bitvec(Gen& g) {
  return valid_s3d3_ts(g, 0x53);
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "TensorScalarBitvec",
    .opcode = Opcode::TensorScalarBitvec,
    .opcode_clause = "has_tensor_scalar_opcode",
    .expected_row = expected_rows::tensor_scalar_bitvec_row,
    .valid_word = test_words::valid_tensor_scalar_bitvec,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::ts::execute(m, w, fx, e.value_or(gpsimd::Engine::DVE));
        },
    .generate = random_words::gen_tensor_scalar_bitvec,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_tensor_scalar_bitvec,
    .kernel_words = {{kernels_equiv::tensor_scalar_bitvec_word, 34, 400, 6,
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

// ---- clause cases (SPEC §4, §6): its share of the family's (tensor_scalar.h) ----

std::vector<ClauseCase> clause_cases() {
  return cases_of(Opcode::TensorScalarBitvec, tensor_scalar_clause_cases());
}
GPSIMD_CLAUSE_CASES(TensorScalarBitvec, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// SPEC §3.8.2's raw-bits examples through TensorScalarBitvec (ARITH_SHIFT_RIGHT is not
// allowed with a 2-byte in_dtype, so its examples run on 32 bits).
TEST(TensorScalarBitvec, ShiftsAndLogicOfSpec) {
  const auto one = [](uint8_t dtype, uint8_t op, uint32_t x, uint32_t s, uint8_t rev = 0) {
    return ts_result(ts_word(kBitvec, dtype, dtype, 1, op, s, aop::BYPASS, 0, rev), {x})[0];
  };
  EXPECT_EQ(one(dt::INT16, aop::LOGICAL_SHIFT_LEFT, 0x1234, 4), 0x2340u);
  EXPECT_EQ(one(dt::INT16, aop::LOGICAL_SHIFT_RIGHT, 0x8000, 0xFFFF), 0u);  // count >= 16
  EXPECT_EQ(one(dt::INT16, aop::LOGICAL_SHIFT_LEFT, 0x1234, 16), 0u);
  EXPECT_EQ(one(dt::UINT16, aop::LOGICAL_SHIFT_RIGHT, 0x8000, 15), 1u);
  EXPECT_EQ(one(dt::INT32, aop::ARITH_SHIFT_RIGHT, 0x80000000, 3), 0xF0000000u);
  EXPECT_EQ(one(dt::INT32, aop::ARITH_SHIFT_RIGHT, 0x80000000, 32), 0xFFFFFFFFu);
  EXPECT_EQ(one(dt::INT32, aop::ARITH_SHIFT_RIGHT, 0x80000000, 0xFFFFFFFF), 0xFFFFFFFFu);  // "-1"
  EXPECT_EQ(one(dt::UINT32, aop::ARITH_SHIFT_RIGHT, 0x80000000, 1),
            0xC0000000u);  // bits are bits
  EXPECT_EQ(one(dt::INT32, aop::ARITH_SHIFT_RIGHT, 0x40000000, 40), 0u);
  EXPECT_EQ(one(dt::UINT8, aop::LOGICAL_SHIFT_LEFT, 0x81, 1), 0x02u);
  EXPECT_EQ(one(dt::INT8, aop::ARITH_SHIFT_LEFT, 0x40, 1), 0x80u);
  EXPECT_EQ(one(dt::UINT8, aop::LOGICAL_SHIFT_RIGHT, 3, 0x80, /*FIRST*/ 1), 0x10u);  // s0 >> x
  EXPECT_EQ(one(dt::INT32, aop::BITWISE_AND, 0xF0F0F0F0, 0x0FF00FF0), 0x00F000F0u);
  EXPECT_EQ(one(dt::INT32, aop::BITWISE_OR, 0xF0F0F0F0, 0x0FF00FF0), 0xFFF0FFF0u);
  EXPECT_EQ(one(dt::UINT32, aop::BITWISE_XOR, 0xF0F0F0F0, 0x0FF00FF0), 0xFF00FF00u);
  EXPECT_EQ(one(dt::INT8, aop::BITWISE_NOT, 0x0F, 0x33), 0xF0u);
  // Two ops: (x & 0xff) << 4.
  EXPECT_EQ(ts_result(ts_word(kBitvec, dt::INT16, dt::INT16, 2, aop::BITWISE_AND, 0xFF,
                              aop::LOGICAL_SHIFT_LEFT, 4),
                      {0x1234, 0xFFFF}),
            (V{0x0340, 0x0FF0}));
}

// SPEC §4.15's example: INT16 BITWISE_NOT with reverse FIRST, s0 0x00FF, x 0x1234 -> 0xFF00.
TEST(TensorScalarBitvec, UnaryOpUnderReverseComputesOnTheScalar) {
  TensorScalarWord x = ts_word(kBitvec, dt::INT16, dt::INT16, 2, aop::BITWISE_NOT, 0x00FF);
  x.reverse = 1;
  EXPECT_EQ(ts_result(x, {0x1234, 0x0000}), (V{0xFF00, 0xFF00}));
  x.reverse = 0;
  EXPECT_EQ(ts_result(x, {0x1234, 0x0000}), (V{0xEDCB, 0xFFFF}));
}

// SPEC §3.5: a bitvec immediate has in_dtype's width; a pointer reads that many bytes per
// channel, at any offset aligned to it (one byte: any offset).
TEST(TensorScalarBitvec, ImmediatesHaveTheDataWidth) {
  Machine& m = fresh(Generation::V2);
  TensorScalarWord x =
      ts_word(kBitvec, dt::INT8, dt::INT8, 2, aop::BITWISE_AND, rm::sbuf_addr(5, 0x41));
  x.imm0_src = 1;
  x.channels = 3;
  x.op1 = aop::BITWISE_OR;
  x.imm1 = 0x80;  // INT8 -128
  for (unsigned c = 0; c < 3; ++c) {
    poke(m, SBUF, c, 0x100, 1, {0xFF, 0x3C});
    poke(m, SBUF, 5 + c, 0x40, 1, {0xEE, 0x0Fu << c, 0xEE});
  }
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 1, 2), (V{0x8F, 0x8C}));  // & 0x0F | 0x80
  EXPECT_EQ(peek(m, SBUF, 2, 0x200, 1, 2), (V{0x9E, 0x9C}));  // & 0x1E
  EXPECT_EQ(peek(m, SBUF, 3, 0x200, 1, 2), (V{0xBC, 0xBC}));  // & 0x3C
  // A register pointer into PSUM (allowed on dve), 2 bytes for UINT16.
  Machine& p = fresh(Generation::V5);
  TensorScalarWord y = ts_word(kBitvec, dt::UINT16, dt::UINT16, 1, aop::BITWISE_XOR, 9);
  y.imm0_src = 2;
  p.registers[9] = rm::psum_addr(0, 0x3FFE);
  poke(p, PSUM, 0, 0x3FFE, 2, {0xAAAA});
  poke(p, SBUF, 0, 0x100, 2, {0x0F0F});
  expect_ok(p, y.encode());
  EXPECT_EQ(peek(p, SBUF, 1, 0x200, 2, 1), (V{0xA5A5}));
}

// Register-mode tensors: resolved at execution (bad-address), their counts compared
// (shape-mismatch), then the walk limit (too-large); a PSUM write needs 4 bytes.
TEST(TensorScalarBitvec, RegisterTensorsShapesAndTheWalkLimit) {
  Machine& m = busy_machine();
  TensorScalarWord x = ts_word(kBitvec, dt::INT16, dt::INT16, 4, aop::BITWISE_OR, 0x0100);
  x.ev = kSet9;
  x.dst.addr = rm::reg_addr(30);
  for (uint32_t a : {rm::psum_addr(1, 0x200),  // a PSUM write of 2-byte elements
                     rm::sbuf_addr(1, 0x201), 0x1E000000u}) {
    m.registers[30] = a;
    expect_ts_fault(m, x.encode(), FaultKind::BadAddress);
  }
  m.registers[30] = rm::sbuf_addr(1, 0x200);
  x.dst.num[0] = 3;  // 3 elements against 4
  expect_ts_fault(m, x.encode(), FaultKind::ShapeMismatch);
  x.dst.num[0] = 4;
  expect_ok(m, x.encode());
  // busy_machine's FP32 1.0 at 0x100 is the INT16 pair 0x0000, 0x3F80.
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 2, 4), (V{0x0100, 0x3F80, 0x0100, 0x4100}));
  // 4096 x 4097 elements (zero steps) is over the walk limit.
  TensorScalarWord big = ts_word(kBitvec, dt::INT32, dt::INT32, 1, aop::BITWISE_OR, 1);
  big.ev = kSet9;
  big.src = tensor3(rm::sbuf_addr(2, 0x100), 0, 4096, 0, 4097, 0, 1);
  big.dst = tensor3(rm::sbuf_addr(3, 0x100), 0, 4096, 0, 4097, 0, 1);
  expect_ts_fault(m, big.encode(), FaultKind::TooLarge);
}

}  // namespace
#endif
