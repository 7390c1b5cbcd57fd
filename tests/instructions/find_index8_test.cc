// FindIndex8 (SPEC §4.9): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/search.h"

namespace gpsimd::expected_rows {

// SPEC §4.9: the layout of Max8.
inline ExpectedInstr find_index8_row() {
  return ExpectedInstr{"FindIndex8",
                       0x6e,
                       "S4D2_BN",
                       Engine::DVE,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"src_mem_pattern", 12, 20, K::Tensor, 4},
                           {"in_dtype", 32, 1, K::Dtype},
                           {"out_dtype", 33, 1, K::Dtype},
                           {"num_active_channels", 34, 1, K::U8},
                           {"reserved0", 35, 5, K::Reserved},
                           {"even_count", 40, 4, K::Fp32},
                           {"odd_count", 44, 4, K::Fp32},
                           {"dst_mem_pattern", 48, 12, K::Tensor, 2},
                           {"reserved1", 60, 4, K::Reserved},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

inline Word valid_find_index8() {
  return valid_s4d2_bn(Opcode::FindIndex8, s4d2_word::kIndexOut);
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

inline std::optional<FaultKind> find_index8(const Machine& m, const Word& w, Effects& fx) {
  return match_channels(
      m, w, fx, 48, 2,
      [&](unsigned c, const gpsimd::MatchLane& lane, const std::vector<bool>&,
          const std::vector<uint32_t>&, const Loc& dst, const std::vector<int64_t>& doffs,
          unsigned out_size) {
        for (std::size_t k = 0; k < 8; ++k)
          fx.stores.push_back({dst.space, dst.partition + c, doffs[k], out_size,
                               out_size == 2 ? lane.idx[k] & 0xFFFFu : lane.idx[k]});
      });
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_find_index8(Builder& b) {
  return gen_s4d2(b, rm::kFindIndex8);
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_find_index8(Gen& g) {
  return valid_s4d2_bn(g, 0x6e);
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "FindIndex8",
    .opcode = Opcode::FindIndex8,
    .opcode_clause = "has_find_index8_opcode",
    .expected_row = expected_rows::find_index8_row,
    .valid_word = test_words::valid_find_index8,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::find_index8(m, w, fx);
        },
    .generate = random_words::gen_find_index8,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_find_index8,
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/validate_cases.h"

namespace gpsimd {
namespace {

// ---- clause cases (SPEC §4, §6): its share of the family's (search.h) ----

std::vector<ClauseCase> clause_cases() {
  return cases_of(Opcode::FindIndex8, search_clause_cases());
}
GPSIMD_CLAUSE_CASES(FindIndex8, clause_cases);

}  // namespace
}  // namespace gpsimd
#endif
