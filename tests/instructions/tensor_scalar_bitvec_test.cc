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
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

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
#endif
