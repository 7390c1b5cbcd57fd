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
    .kernel_words = {{kernels_equiv::find_index8_word, 22, 600, 8}},
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/effects.h"
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

namespace {

// ---- hand-checked effects (SPEC §4) ----

namespace search {

TEST(FindIndex8, NkiDocstringExample) {
  // nc_find_index8: vals [3,8,8,8,8,8,8,8] loaded with a negated step, so mv[n] = vals[n].
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x40, 4, fp32v({3, 8, 8, 8, 8, 8, 8, 8}));
  poke(m, SBUF, 0, 0x100, 4, fp32v({1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8}));
  expect_ok(m, mvl(rm::sbuf_addr(0, 0x40 + 28), -1).encode());
  expect_ok(m, fi8(rm::sbuf_addr(0, 0x100), 11, rm::sbuf_addr(0, 0x200)).encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x200, 4, 8), (V{2, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(m.match[0].matched, 0xFF);
  EXPECT_EQ(m.match[0].idx, (std::array<uint32_t, 8>{2, 4, 5, 6, 7, 8, 9, 10}));
}

}  // namespace search

namespace search {

TEST(FindIndex8, NanNeverMatchesAndMinusZeroEqualsZero) {
  Machine& m = fresh(Generation::V3);
  // mv = [NaN, -0.0, 5, +inf, 5, 7, 7, 7] (slot order), loaded with a negated step.
  poke(m, SBUF, 3, 0, 4, {kQNaN, 0x80000000u, f32(5), 0x7F800000u, f32(5), f32(7), f32(7), f32(7)});
  expect_ok(m, mvl(rm::sbuf_addr(3, 28), -1).encode());
  // Data: NaN, +0.0, 5, 5, 5, inf, 7 (ordinals 0..6), then 9.
  poke(m, SBUF, 3, 0x100, 4, {kQNaN, 0, f32(5), f32(5), f32(5), 0x7F800000u, f32(7), f32(9)});
  expect_ok(m, fi8(rm::sbuf_addr(3, 0x100), 8, rm::sbuf_addr(3, 0x200), dt::UINT16).encode());
  // Slot 0 (NaN) finds nothing: 0xFFFF as UINT16. Slot 1 (-0.0) takes +0.0 at 1. Slots 2
  // and 4 (5) take 2 and 3. Slot 3 (inf) takes 5. Slot 5 takes the only 7; 6, 7 nothing.
  EXPECT_EQ(peek(m, SBUF, 3, 0x200, 2, 8), (V{0xFFFF, 1, 2, 5, 3, 6, 0xFFFF, 0xFFFF}));
  EXPECT_EQ(m.match[3].matched, 0b00111110);
  EXPECT_EQ(m.match[3].idx, (std::array<uint32_t, 8>{kFF, 1, 2, 5, 3, 6, kFF, kFF}));
  EXPECT_EQ(peek(m, SBUF, 3, 0x210, 2, 1), V{0});  // 8 elements only
}

}  // namespace search

namespace search {

TEST(FindIndex8, FlagsPersistUntilTheNextMatchValueLoad) {
  Machine& m = fresh(Generation::V4);
  poke(m, SBUF, 9, 0, 4, fp32v({1, 2, 3, 4, 5, 6, 7, 8}));  // mv[n] = n + 1
  expect_ok(m, mvl(rm::sbuf_addr(9, 28), -1).encode());
  poke(m, SBUF, 9, 0x100, 4, fp32v({1, 2, 3, 0, 0, 0, 0, 0}));
  expect_ok(m, fi8(rm::sbuf_addr(9, 0x100), 8, rm::sbuf_addr(9, 0x200)).encode());
  EXPECT_EQ(peek(m, SBUF, 9, 0x200, 4, 8), (V{0, 1, 2, kFF, kFF, kFF, kFF, kFF}));
  // Second search: 1, 2, 3 are matched already and keep their indices; 8 and 4 are new.
  poke(m, SBUF, 9, 0x140, 4, fp32v({8, 3, 2, 1, 4, 0, 0, 0}));
  expect_ok(m, fi8(rm::sbuf_addr(9, 0x140), 8, rm::sbuf_addr(9, 0x240)).encode());
  EXPECT_EQ(peek(m, SBUF, 9, 0x240, 4, 8), (V{0, 1, 2, 4, kFF, kFF, kFF, 0}));
  EXPECT_EQ(m.match[9].matched, 0b10001111);
  // MatchValueLoad re-arms: the same search now finds every key present afresh.
  expect_ok(m, mvl(rm::sbuf_addr(9, 28), -1).encode());
  expect_ok(m, fi8(rm::sbuf_addr(9, 0x140), 8, rm::sbuf_addr(9, 0x240)).encode());
  EXPECT_EQ(peek(m, SBUF, 9, 0x240, 4, 8), (V{3, 2, 1, 4, kFF, kFF, kFF, 0}));
}

}  // namespace search

}  // namespace
#endif
