// TensorScalarPtrBitvec (SPEC §4.15): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/tensor_scalar.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.15.
inline ExpectedInstr tensor_scalar_ptr_bitvec_row() {
  return {"TensorScalarPtrBitvec", 0x54, "S3D3_TS", Engine::DVE, {G::V2, G::V3, G::V4, G::V5},
          s3d3_ts_fields()};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

inline Word valid_tensor_scalar_ptr_bitvec() {
  return valid_s3d3_ts(Opcode::TensorScalarPtrBitvec);
}

}  // namespace gpsimd::test_words

namespace gpsimd::random_words {

inline Word gen_tensor_scalar_ptr_bitvec(Builder& b) {
  return gen_tensor_scalar(b, rm::kTensorScalarPtrBitvec);
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_tensor_scalar_ptr_bitvec(Gen& g) {
  return valid_s3d3_ts(g, 0x54);
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "TensorScalarPtrBitvec",
    .opcode = Opcode::TensorScalarPtrBitvec,
    .opcode_clause = "has_tensor_scalar_ptr_opcode",
    .expected_row = expected_rows::tensor_scalar_ptr_bitvec_row,
    .valid_word = test_words::valid_tensor_scalar_ptr_bitvec,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::ts::execute(m, w, fx, e.value_or(gpsimd::Engine::DVE));
        },
    .generate = random_words::gen_tensor_scalar_ptr_bitvec,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_tensor_scalar_ptr_bitvec,
    .kernel_words = {{kernels_equiv::tensor_scalar_ptr_bitvec_word, 36, 400, 6,
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
  return cases_of(Opcode::TensorScalarPtrBitvec, tensor_scalar_clause_cases());
}
GPSIMD_CLAUSE_CASES(TensorScalarPtrBitvec, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// The bitvec pointer form: in_dtype-wide values per channel; the fields are pointers
// whatever *_src says (it is 0).
TEST(TensorScalarPtrBitvec, PointersReadInDtypeWideValues) {
  Machine& m = fresh(Generation::V4);
  TensorScalarWord x = ts_word(kPtrBitvec, dt::UINT8, dt::UINT8, 2, aop::BITWISE_AND,
                               rm::sbuf_addr(0, 0x41), aop::BITWISE_OR, rm::psum_addr(0, 0x42));
  x.channels = 2;
  for (unsigned c = 0; c < 2; ++c) {
    poke(m, SBUF, c, 0x100, 1, {0xFF, 0x5A});
    poke(m, SBUF, c, 0x41, 1, {c == 0 ? 0x0Fu : 0xF0u});
    poke(m, PSUM, c, 0x42, 1, {c == 0 ? 0x01u : 0x02u});
  }
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 1, 2), (V{0x0F, 0x0B}));
  EXPECT_EQ(peek(m, SBUF, 2, 0x200, 1, 2), (V{0xF2, 0x52}));
}

}  // namespace
#endif
