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
  return cases_of(Opcode::Max8, search_clause_cases());
}
GPSIMD_CLAUSE_CASES(Max8, clause_cases);

}  // namespace
}  // namespace gpsimd
#endif
