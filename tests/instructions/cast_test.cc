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
    .kernel_words = {{kernels_equiv::cast_word, 32, 900, 8}},
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/effects.h"
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

namespace {

// ---- hand-checked effects (SPEC §4) ----

// SPEC §4.17's examples, each on every engine (the same on all three but ACT on V2).
TEST(Cast, Section4_17Examples) {
  struct Case {
    uint8_t in, out;
    V src, want;
  };
  const Case cases[] = {
      // FP32 2.5 -> 2, 3.5 -> 4, -0.5 -> 0, NaN -> 0, +inf -> 0x7FFFFFFF.
      {dt::FP32,
       dt::INT32,
       {0x40200000, 0x40600000, 0xBF000000, 0x7FC00000, 0x7F800000},
       {2, 4, 0, 0, 0x7FFFFFFF}},
      {dt::INT32, dt::INT8, {300}, {0x7F}},
      {dt::INT8, dt::UINT8, {0xFF}, {0x00}},
      {dt::UINT32, dt::INT32, {0xFFFFFFFF}, {0x7FFFFFFF}},
      {dt::INT32, dt::UINT32, {0x7FFFFFFF}, {0x80000000}},
      // 2^24 + 2^16 + 1 -> BF16 2^24: two roundings, as Iota.
      {dt::INT32, dt::BF16, {0x01010001}, {0x4B80}},
      {dt::FP32, dt::BF16, {0xFF7FFFFF}, {0xFF80}},
      {dt::BF16, dt::FP32, {0x7F81}, {0x7FC10000}},
      {dt::FP16, dt::FP8_E4, {0x7BFF}, {0x78}},
  };
  for (const Case& c : cases)
    for (Engine e : kAllEnginesInTest)
      for (Generation g : {Generation::V2, Generation::V4}) {
        SCOPED_TRACE(testing::Message() << int{c.in} << " -> " << int{c.out} << " engine " << int(e)
                                        << " " << gpsimd::generation_name(g));
        EXPECT_EQ(cast_once(rm::kCast, c.in, c.out, c.src, e, g), c.want);
      }
}

// SPEC §5.1's examples and one case of every letter of its table.
TEST(Cast, Section5_1ExamplesAndLetters) {
  struct Case {
    uint8_t in, out;
    V src, want;
  };
  const Case cases[] = {
      // S: INT8 -1 -> UINT32 0; UINT16 65535 -> INT16 32767; INT16 -32768 -> INT8 -128.
      {dt::INT8, dt::UINT32, {0xFF}, {0}},
      {dt::UINT16, dt::INT16, {0xFFFF}, {0x7FFF}},
      {dt::INT16, dt::INT8, {0x8000, 0x0005}, {0x80, 0x05}},
      // S24: INT32 16777217 -> UINT32 16777216; UINT32 0x7FFFFFC0 (a tie between 2^31 -
      // 128 and 2^31, even: 2^31) -> INT32 0x7FFFFFFF.
      {dt::INT32, dt::UINT32, {0x01000001, 0xFFFFFFFF}, {0x01000000, 0}},
      {dt::UINT32, dt::INT32, {0x7FFFFFC0}, {0x7FFFFFFF}},
      // RR into FP16 and FP8 overflow before 2^24 shows: 65520 -> inf, 248 -> inf.
      {dt::INT32, dt::FP16, {65520, 65519}, {0x7C00, 0x7BFF}},
      {dt::INT32, dt::FP8_E4, {248, 0xFFFFFF08}, {0x78, 0xF8}},  // -248 -> -inf
      // R: INT32 -> FP32 rounds beyond 2^24; INT16 257 -> BF16 256 (tie to even);
      // UINT16 2049 -> FP16 2048.
      {dt::INT32, dt::FP32, {0x01000001, 0x01000003}, {0x4B800000, 0x4B800002}},
      {dt::INT16, dt::BF16, {0x0101}, {0x4380}},
      {dt::UINT16, dt::FP16, {2049}, {0x6800}},
      // X: INT8 -128 -> BF16; UINT8 255 -> FP16; an FP8 NaN -> the canonical BF16 NaN.
      {dt::INT8, dt::BF16, {0x80}, {0xC300}},
      {dt::UINT8, dt::FP16, {0xFF}, {0x5BF8}},
      {dt::FP8_E4, dt::BF16, {0xF9}, {0xFFC0}},
      // W: an FP8_E3 NaN keeps its payload (0001 -> bit 19) and gets the quiet bit.
      {dt::FP8_E3, dt::FP32R, {0x71}, {0x7FC80000}},
      // I: BF16 65536 -> INT16 32767; -32768 exact; NaN -> 0; FP16 -2.5 -> INT8 -2.
      {dt::BF16, dt::INT16, {0x4780, 0xC700, 0x7FC0}, {0x7FFF, 0x8000, 0}},
      {dt::FP16, dt::INT8, {0xC100}, {0xFE}},
      // =: FP32 -> FP32R keeps a signalling NaN; equal dtypes keep INT32 beyond 2^24.
      {dt::FP32, dt::FP32R, {0x7F800001}, {0x7F800001}},
      {dt::INT32, dt::INT32, {0x01000001}, {0x01000001}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << int{c.in} << " -> " << int{c.out});
    EXPECT_EQ(cast_once(rm::kCast, c.in, c.out, c.src, std::nullopt), c.want);
  }
}

// SPEC §4.17: ACT on V2 takes every element through FP32, equal dtypes too; a pair of
// different dtypes goes through FP32 anyway, so only equal dtypes differ from POOL.
TEST(Cast, ActOnV2TakesEqualDtypesThroughFp32) {
  EXPECT_EQ(cast_once(rm::kCast, dt::INT32, dt::INT32, {0x01000001}, Engine::ACT, Generation::V2),
            V{0x01000000});
  EXPECT_EQ(cast_once(rm::kCast, dt::INT32, dt::INT32, {0x01000001}, Engine::ACT, Generation::V3),
            V{0x01000001});
  EXPECT_EQ(cast_once(rm::kCast, dt::BF16, dt::BF16, {0x7F81}, Engine::ACT, Generation::V2),
            V{0x7FC0});
  EXPECT_EQ(cast_once(rm::kCast, dt::FP32, dt::FP32R, {0xFF800001}, Engine::ACT, Generation::V2),
            V{0xFF800001});
  EXPECT_EQ(cast_once(rm::kCast, dt::INT32, dt::UINT32, {0x01000001, 0x80000000}, Engine::ACT,
                      Generation::V2),
            (V{0x01000000, 0}));
}

// The step NKI kernels end with: an FP32 accumulation in PSUM moved to BF16 in SBUF on
// the Vector engine, round to nearest even; the same word on POOL is invalid.
TEST(Cast, PsumFp32ToSbufBf16OnTheVectorEngine) {
  Machine& m = fresh(Generation::V3);
  // 1 + 2^-8 (a tie -> 1.0), 1 + 3*2^-8 (a tie -> 1 + 2^-6), -FLT_MAX (-> -inf), NaN.
  const V acc = {0x3F808000, 0x3F818000, kNegFltMax, 0x7FC00001};
  for (unsigned p = 0; p < 4; ++p) poke(m, PSUM, p, 0x80, 4, acc);
  rm::CopyCastWord x;
  x.opcode = rm::kCast;
  x.in = dt::FP32;
  x.out = dt::BF16;
  x.channels = 4;
  x.src = tensor4(rm::psum_addr(0, 0x80), 1, 4, 0, 1, 0, 1, 0, 1);
  x.dst = tensor4(rm::sbuf_addr(0, 0x40), 1, 4, 0, 1, 0, 1, 0, 1);
  expect_ok(m, x.encode(), on(Engine::DVE));
  for (unsigned p = 0; p < 4; ++p)
    EXPECT_EQ(peek(m, SBUF, p, 0x40, 2, 4), (V{0x3F80, 0x3F82, 0xFF80, 0x7FC0})) << p;
  expect_unchanged(m, x.encode(), Status::Invalid, std::nullopt, on(Engine::POOL));
  const gpsimd::Diagnostics d =
      gpsimd::validate(x.encode(), Generation::V3, gpsimd::ValidateOptions{false, Engine::POOL});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].clause, "tensor4d_valid");
  EXPECT_EQ(d[0].field, "src_mem_pattern");
}

// Faults change nothing, for a converting word too; a 2^24-element walk is the limit
// and runs (zero steps keep it small in memory).
TEST(Cast, FaultsChangeNothingAndTheWalkLimitIsInclusive) {
  Machine& m = busy_machine(Generation::V5);
  rm::CopyCastWord x = cc_word(rm::kCast, dt::FP32, dt::FP16, 4);
  x.src = tensor4(rm::reg_addr(7), 1, 4, 0, 1, 0, 1, 0, 1);
  m.registers[7] = rm::psum_addr(2, 0x100);
  expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress);  // POOL
  expect_ok(m, x.encode(), on(Engine::ACT));
  EXPECT_EQ(peek(m, SBUF, 3, 0x800, 2, 2), (V{0x4500, 0x4600}));  // 5.0, 6.0
  rm::CopyCastWord limit = cc_word(rm::kCast, dt::INT8, dt::FP32, 1);
  limit.src = tensor4(rm::sbuf_addr(4, 0x100), 0, 4096, 0, 4096, 0, 1, 0, 1);  // 2^24
  limit.dst = tensor4(rm::sbuf_addr(4, 0x200), 0, 4096, 0, 4096, 0, 1, 0, 1);
  poke(m, SBUF, 4, 0x100, 1, {0x85});  // -123
  const ExecResult r = gpsimd::execute(m, limit.encode());
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(peek(m, SBUF, 4, 0x200, 4, 1), V{f32(-123.0f)});
  limit.src.num[2] = 2;  // 2^25
  limit.dst.num[2] = 2;
  expect_unchanged(m, limit.encode(), Status::Faulted, FaultKind::TooLarge);
}

}  // namespace
#endif
