// Cast (SPEC §4.17): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/copy.h"
#include "instructions/registry.h"

namespace gpsimd::expected_rows {

// SPEC §4.17: the layout of Copy, opcode 0x47.
inline ExpectedInstr cast_row() {
  return ExpectedInstr{"Cast",
                       0x47,
                       "S4D4_TR",
                       Engine::POOL,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"src_mem_pattern", 12, 20, K::Tensor, 4},
                           {"in_dtype", 32, 1, K::Dtype},
                           {"out_dtype", 33, 1, K::Dtype},
                           {"num_active_channels", 34, 1, K::U8},
                           {"negated", 35, 1, K::U8},
                           {"op", 36, 1, K::AluOp},
                           {"op_dim", 37, 1, K::U8},
                           {"mask_enable", 38, 1, K::U8},
                           {"reserved1", 39, 5, K::Reserved},
                           {"dst_mem_pattern", 44, 20, K::Tensor, 4},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

inline Word valid_cast() {
  return valid_s4d4_tr(Opcode::Cast, s4d4_tr_word::kCastOut);
}

}  // namespace gpsimd::test_words

namespace gpsimd::random_words {

inline Word gen_cast(Builder& b) {
  return gen_copy_cast(b, rm::kCast);
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_cast(Gen& g) {
  return valid_copy_cast(g, 0x47);
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "Cast",
    .opcode = Opcode::Cast,
    .opcode_clause = "has_cast_opcode",  // SPEC §4.17: the name is [model]
    .expected_row = expected_rows::cast_row,
    .valid_word = test_words::valid_cast,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::copy_cast(m, w, e.value_or(gpsimd::Engine::POOL), fx);
        },
    .generate = random_words::gen_cast,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_cast,
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/validate_cases.h"

namespace gpsimd {
namespace {

// ---- clause cases (SPEC §4, §6): its share of the family's (copy.h) ----

std::vector<ClauseCase> clause_cases() {
  return cases_of(Opcode::Cast, copy_cast_clause_cases());
}
GPSIMD_CLAUSE_CASES(Cast, clause_cases);

}  // namespace
}  // namespace gpsimd
#endif
