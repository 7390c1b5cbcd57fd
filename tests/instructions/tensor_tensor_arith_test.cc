// TensorTensorArith (SPEC §4.14): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/tensor_tensor.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.14: S3S3D3_TT, DVE the default of the engine input; no reserved bytes.
inline ExpectedInstr tensor_tensor_arith_row() {
  return ExpectedInstr{"TensorTensorArith",
                       0x41,
                       "S3S3D3_TT",
                       Engine::DVE,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"in0_in1_dtype", 12, 1, K::DtypePair},
                           {"out_dtype", 13, 1, K::Dtype},
                           {"op", 14, 1, K::AluOp},
                           {"num_active_channels", 15, 1, K::U8},
                           {"src0_mem_pattern", 16, 16, K::Tensor, 3},
                           {"src1_mem_pattern", 32, 16, K::Tensor, 3},
                           {"dst_mem_pattern", 48, 16, K::Tensor, 3},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_tensor_tensor_arith(): 3 channels from partition 2, ADD of BF16 src0 and FP32
// src1 into FP32. src0: TENSOR3D steps {1, 4, 16} counts {4, 4, 1} (16 BF16, 32 dense
// bytes) at SBUF partition 2 offset 0x100; src1: steps {1, 8, 16} counts {8, 2, 1} (16
// FP32, 64 bytes) at offset 0x200; dst: steps {1, 16, 16} counts {16, 1, 1} (16 FP32) at
// offset 0x400. Three shapes, one count.
namespace tta_word {
inline constexpr unsigned kChannels = 3;
inline constexpr unsigned kPartition = 2;
inline constexpr Dtype kLo = Dtype::BF16, kHi = Dtype::FP32, kOut = Dtype::FP32;
inline constexpr AluOp kOp = AluOp::ADD;
inline constexpr uint32_t kSrc0Addr = sbuf_addr(kPartition, 0x100),
                          kSrc1Addr = sbuf_addr(kPartition, 0x200),
                          kDstAddr = sbuf_addr(kPartition, 0x400);
}  // namespace tta_word

inline Word valid_tensor_tensor_arith() {
  using namespace tta_word;
  return build(Opcode::TensorTensorArith,
               {{"in0_in1_dtype", uint64_t{dtype_pair(kLo, kHi)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(kOut)}},
                {"op", uint64_t{static_cast<uint8_t>(kOp)}},
                {"num_active_channels", uint64_t{kChannels}},
                {"src0_mem_pattern", tensor(kSrc0Addr, {1, 4, 16}, {4, 4, 1})},
                {"src1_mem_pattern", tensor(kSrc1Addr, {1, 8, 16}, {8, 2, 1})},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 16, 16}, {16, 1, 1})}});
}

}  // namespace gpsimd::test_words

namespace gpsimd::random_words {

inline Word gen_tensor_tensor_arith(Builder& b) {
  return gen_tensor_tensor(b, rm::kTensorTensorArith);
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_tensor_tensor_arith(Gen& g) {
  return valid_tensor_tensor(g, 0x41);
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "TensorTensorArith",
    .opcode = Opcode::TensorTensorArith,
    .opcode_clause = "has_tensor_tensor_opcode",
    .expected_row = expected_rows::tensor_tensor_arith_row,
    .valid_word = test_words::valid_tensor_tensor_arith,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::tensor_tensor(m, w, fx, e.value_or(gpsimd::Engine::DVE));
        },
    .generate = random_words::gen_tensor_tensor_arith,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_tensor_tensor_arith,
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/validate_cases.h"

namespace {

namespace rm = refmodel;

// The reference's ALU (SPEC §3.8.2) against SPEC's own examples, so that the random
// comparison of TensorTensor rests on a checked oracle.
TEST(ReferenceModel, TensorTensorAluMatchesSpecExamples) {
  namespace o = rm::op;
  EXPECT_EQ(rm::tt::fp32(o::ADD, 0x3F800000u, 0x7F800001u), 0x7FC00000u);
  EXPECT_EQ(rm::tt::fp32(o::MAX, 0x80000000u, 0x00000000u), 0x00000000u);
  EXPECT_EQ(rm::tt::fp32(o::MIN, 0x7FC00001u, 0xC0000000u), 0xC0000000u);
  EXPECT_EQ(rm::tt::fp32(o::ABS_MAX, 0xC0A00000u, 0x40400000u), 0xC0A00000u);
  EXPECT_EQ(rm::tt::fp32(o::IS_NE, 0x7FC00000u, 0x7FC00000u), 0x3F800000u);
  EXPECT_EQ(rm::tt::fp32(o::RE_LU, 0x7FC00000u, 0), 0u);
  EXPECT_EQ(rm::tt::fp32(o::RE_LU, 0x80000000u, 0), 0u);
  EXPECT_EQ(rm::tt::fp32(o::BYPASS, 0x7F800001u, 0), 0x7F800001u);
  EXPECT_EQ(rm::tt::fp32(o::ADD, 0x3F800000u, 0x33800000u), 0x3F800000u);  // tie to even
  EXPECT_EQ(rm::tt::fp32(o::ADD, 0x00000001u, 0x00000001u), 0x00000002u);  // subnormals
  // Native: INT32 0x7FFFFFFF + 1 wraps; |INT32 min| wraps to itself; exact mixed compares.
  EXPECT_EQ(rm::tt::wrap(rm::tt::native(o::ADD, 0x7FFFFFFF, 1), 32), 0x80000000u);
  EXPECT_EQ(rm::tt::wrap(rm::tt::native(o::ABSOLUTE_VALUE, -2147483648LL, 0), 32), 0x80000000u);
  EXPECT_EQ(rm::tt::wrap(rm::tt::native(o::IS_GT, 0xFFFFFFFFLL, -1), 32), 1u);
  EXPECT_EQ(rm::tt::wrap(rm::tt::native(o::ADD_INT, 100, 100), 8), 0xC8u);
  EXPECT_EQ(rm::tt::wrap(rm::tt::native(o::MULT, 0x7FFFFFFF, 0xD251), 32), 0x7FFF2DAFu);
  EXPECT_EQ(rm::tt::wrap(rm::tt::native(o::SUBTRACT, 0, 1), 16), 0xFFFFu);
  // Raw bits (INT16).
  EXPECT_EQ(rm::tt::bits(o::ARITH_SHIFT_RIGHT, 0x8000, 3, 16), 0xF000u);
  EXPECT_EQ(rm::tt::bits(o::ARITH_SHIFT_RIGHT, 0x8000, 0x10, 16), 0xFFFFu);
  EXPECT_EQ(rm::tt::bits(o::LOGICAL_SHIFT_RIGHT, 0x8000, 0xFFFF, 16), 0u);
  EXPECT_EQ(rm::tt::bits(o::LOGICAL_SHIFT_LEFT, 0x1234, 4, 16), 0x2340u);
  EXPECT_EQ(rm::tt::bits(o::BITWISE_NOT, 0x00F0, 0, 16), 0xFF0Fu);
  EXPECT_EQ(rm::tt::bits(o::ARITH_SHIFT_RIGHT, 0x80000000u, 0xFFFFFFFFu, 32), 0xFFFFFFFFu);
}

}  // namespace

namespace gpsimd {
namespace {

// ---- clause cases (SPEC §4, §6): its share of the family's (tensor_tensor.h) ----

std::vector<ClauseCase> clause_cases() {
  return cases_of(Opcode::TensorTensorArith, tensor_tensor_clause_cases());
}
GPSIMD_CLAUSE_CASES(TensorTensorArith, clause_cases);

}  // namespace
}  // namespace gpsimd
#endif
