// Max8 (SPEC §4.8): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/search.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.8.
inline ExpectedInstr max8_row() {
  return ExpectedInstr{"Max8",
                       0x6c,
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

inline Word valid_max8() {
  return valid_s4d2_bn(Opcode::Max8, s4d2_word::kMax8Out);
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.8. Offsets: 12 src (TENSOR4D), 32 in, 33 out, 34 channels, 48 dst (TENSOR2D).
inline std::optional<FaultKind> max8(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[34];
  const unsigned in_size = size_of(w[32]), out_size = size_of(w[33]);
  const Tensor st = get_tensor(w, 12, 4), dtn = get_tensor(w, 48, 2);
  const auto src = resolve(m, st, in_size, true, false, n);
  const auto dst = resolve(m, dtn, out_size, true, true, n);
  if (!src || !dst) return FaultKind::BadAddress;
  const auto soffs = walk(st, src->offset, in_size), doffs = walk(dtn, dst->offset, out_size);
  // Descending by value; of two zeros the positive one first.
  auto before = [](uint32_t a, uint32_t b) {
    const float x = as_float(a), y = as_float(b);
    if (x != y) return x > y;
    return (a >> 31) < (b >> 31);
  };
  for (unsigned c = 0; c < n; ++c) {
    std::vector<uint32_t> v;
    for (int64_t off : soffs) {
      const uint32_t x = to_fp32(w[32], load(m, src->space, src->partition + c, off, in_size));
      if (!std::isnan(as_float(x))) v.push_back(x);
    }
    std::sort(v.begin(), v.end(), before);
    while (v.size() < 8) v.push_back(0xff800000u);  // -inf at the low end
    for (std::size_t k = 0; k < 8; ++k)             // smallest first
      fx.stores.push_back(
          {dst->space, dst->partition + c, doffs[k], out_size, from_fp32(w[33], v[7 - k])});
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_max8(Builder& b) {
  return gen_s4d2(b, rm::kMax8);
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_max8(Gen& g) {
  return valid_s4d2_bn(g, 0x6c);
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "Max8",
    .opcode = Opcode::Max8,
    .opcode_clause = "has_max8_opcode",
    .expected_row = expected_rows::max8_row,
    .valid_word = test_words::valid_max8,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) { return refmodel::internal::max8(m, w, fx); },
    .generate = random_words::gen_max8,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_max8,
    .kernel_words = {{kernels_equiv::max8_word, 21, 600, 8}},
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
  return cases_of(Opcode::Max8, search_clause_cases());
}
GPSIMD_CLAUSE_CASES(Max8, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

namespace search {

TEST(Max8, TopEightSmallestFirstAndDescendingWithANegatedStep) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 7, 0, 4, fp32v({5, -1, 9, 3, 9, 0.5f, 100, -7, 2, 8, 1, 4}));
  rm::S4D2BnWord x;
  x.src = rm::tensor4(rm::sbuf_addr(7, 0), 1, 4, 4, 3, 0, 1, 0, 1);
  x.dst = tensor2(rm::sbuf_addr(7, 0x100), 1, 8, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 7, 0x100, 4, 8), fp32v({2, 3, 4, 5, 8, 9, 9, 100}));
  // NKI's max8: destination from slot 7 down: descending, like -np.sort(-x)[:8].
  x.dst = tensor2(rm::sbuf_addr(7, 0x200 + 28), -1, 8, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 7, 0x200, 4, 8), fp32v({100, 9, 9, 8, 5, 4, 3, 2}));
  EXPECT_TRUE(m.match[7].fresh());  // no search state is touched
}

}  // namespace search

namespace search {

TEST(Max8, NansLeftOutMinusInfFillsAndMinusZeroBelowZero) {
  Machine& m = fresh(Generation::V3);
  // Ten elements: 4 NaNs, -0.0, +0.0, -3, 1, -inf, 2: six non-NaN values.
  poke(m, SBUF, 0, 0, 4,
       {kQNaN, 0x80000000u, 0xFFC00001u, 0, f32(-3), 0x7F800001u, f32(1), kNegInf, kQNaN, f32(2)});
  rm::S4D2BnWord x;
  x.src = rm::tensor4(rm::sbuf_addr(0, 0), 1, 10, 0, 1, 0, 1, 0, 1);
  x.dst = tensor2(rm::sbuf_addr(0, 0x100), 1, 8, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 8),
            (V{kNegInf, kNegInf, kNegInf, f32(-3), 0x80000000u, 0, f32(1), f32(2)}));
  // INT32 16777217 counts as 16777216: it ties with 16777216 and is written as it.
  poke(m, SBUF, 1, 0, 4, {16777217u, 16777216u, 0xFFFFFFFFu, 0, 1, 2, 3, 4});
  x.in = x.out = dt::INT32;
  x.src = rm::tensor4(rm::sbuf_addr(1, 0), 1, 8, 0, 1, 0, 1, 0, 1);
  x.dst = tensor2(rm::sbuf_addr(1, 0x100), 1, 8, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x100, 4, 8), (V{0xFFFFFFFFu, 0, 1, 2, 3, 4, 16777216u, 16777216u}));
  // BF16 out: rounded; the -inf fill stays -inf (0xFF80).
  poke(m, SBUF, 2, 0, 4, {f32(1.00390625f), kQNaN, kQNaN, kQNaN, kQNaN, kQNaN, kQNaN, kQNaN});
  x.in = dt::FP32;
  x.out = dt::BF16;
  x.src = rm::tensor4(rm::sbuf_addr(2, 0), 1, 8, 0, 1, 0, 1, 0, 1);
  x.dst = tensor2(rm::sbuf_addr(2, 0x100), 1, 8, 0, 1);
  expect_ok(m, x.encode());
  // 1 + 2^-8 is a tie between 0x3F80 and 0x3F81: to even, 0x3F80.
  EXPECT_EQ(peek(m, SBUF, 2, 0x100, 2, 8),
            (V{0xFF80, 0xFF80, 0xFF80, 0xFF80, 0xFF80, 0xFF80, 0xFF80, 0x3F80}));
}

}  // namespace search

}  // namespace
#endif
