// TensorScalarPtrArith (SPEC §4.15): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/tensor_scalar.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.15.
inline ExpectedInstr tensor_scalar_ptr_arith_row() {
  return {"TensorScalarPtrArith", 0x44, "S3D3_TS", Engine::DVE, {G::V2, G::V3, G::V4, G::V5},
          s3d3_ts_fields()};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

inline Word valid_tensor_scalar_ptr_arith() {
  return valid_s3d3_ts(Opcode::TensorScalarPtrArith);
}

}  // namespace gpsimd::test_words

namespace gpsimd::random_words {

inline Word gen_tensor_scalar_ptr_arith(Builder& b) {
  return gen_tensor_scalar(b, rm::kTensorScalarPtrArith);
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_tensor_scalar_ptr_arith(Gen& g) {
  return valid_s3d3_ts(g, 0x44);
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "TensorScalarPtrArith",
    .opcode = Opcode::TensorScalarPtrArith,
    .opcode_clause = "has_tensor_scalar_ptr_opcode",
    .expected_row = expected_rows::tensor_scalar_ptr_arith_row,
    .valid_word = test_words::valid_tensor_scalar_ptr_arith,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::ts::execute(m, w, fx, e.value_or(gpsimd::Engine::DVE));
        },
    .generate = random_words::gen_tensor_scalar_ptr_arith,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_tensor_scalar_ptr_arith,
    .kernel_words = {{kernels_equiv::tensor_scalar_ptr_arith_word, 35, 400, 6,
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
  return cases_of(Opcode::TensorScalarPtrArith, tensor_scalar_clause_cases());
}
GPSIMD_CLAUSE_CASES(TensorScalarPtrArith, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// SPEC §3.5: the arithmetic pointer form reads 4 bytes, an FP32, whatever the data dtype.
TEST(TensorScalarPtrArith, PointersReadAnFp32WhateverTheDataDtype) {
  Machine& m = fresh(Generation::V3);
  TensorScalarWord x = ts_word(kPtrArith, dt::FP16, dt::FP16, 2, aop::MULT, rm::sbuf_addr(0, 0x40),
                               aop::ADD, rm::sbuf_addr(0, 0x44));
  x.channels = 2;
  for (unsigned c = 0; c < 2; ++c) {
    poke(m, SBUF, c, 0x100, 2, {0x3C00, 0xC000});  // 1.0, -2.0
    poke(m, SBUF, c, 0x40, 4, {f32(2.0f + static_cast<float>(c)), f32(0.5f)});
  }
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 2, 2), (V{0x4100, 0xC300}));  // 2.5, -3.5
  EXPECT_EQ(peek(m, SBUF, 2, 0x200, 2, 2), (V{0x4300, 0xC580}));  // 3.5, -5.5
}

// Sources are read before any destination is written; a destination that revisits a
// byte keeps the later ordinal.
TEST(TensorScalarPtrArith, OverlapAndRevisitedBytes) {
  Machine& m = fresh(Generation::V3);
  // In place, walked backwards: dst[j] = 2 * src[3 - j] on the same four bytes.
  TensorScalarWord x = ts_word(kPtrArith, dt::FP32, dt::FP32, 4, aop::MULT, rm::sbuf_addr(0, 0x10),
                               aop::BYPASS, rm::sbuf_addr(0, 0x10));
  x.dst = tensor3(rm::sbuf_addr(0, 0x10C), -1, 4, 4, 1, 0, 1);
  poke(m, SBUF, 0, 0x10, 4, {f32(2)});
  poke(m, SBUF, 0, 0x100, 4, {f32(1), f32(2), f32(3), f32(4)});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 4), (V{f32(8), f32(6), f32(4), f32(2)}));
  // The pointer's own bytes as the destination: every channel read 2.0 before the write.
  TensorScalarWord y = ts_word(kPtrArith, dt::FP32, dt::FP32, 2, aop::ADD, rm::sbuf_addr(0, 0x10),
                               aop::BYPASS, rm::sbuf_addr(0, 0x10));
  y.dst = tensor3(rm::sbuf_addr(0, 0x10), 0, 2, 1, 1, 0, 1);  // one element, written twice
  expect_ok(m, y.encode());
  // The source is now 8, 6, ...: the later ordinal wins, 6 + 2.
  EXPECT_EQ(peek(m, SBUF, 0, 0x10, 4, 1), (V{f32(8)}));
}

}  // namespace
#endif
