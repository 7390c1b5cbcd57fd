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
    .kernel_words = {{kernels_equiv::tensor_tensor_arith_word, 31, 600, 8,
                      kernels_equiv::alu_machines}},
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/effects.h"
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

namespace {

// ---- hand-checked effects (SPEC §4) ----

namespace tensor_tensor {

// SPEC §4.14's NKI example: tensor_tensor(a, b, op=nl.add) on (128, 512) FP32 tiles is ADD,
// 128 channels from partition 0, three contiguous walks of 512; golden np.add bit for bit.
TEST(TensorTensorArith, NkiAddExampleOnA128By512Tile) {
  Machine& m = fresh(Generation::V3);
  rm::TensorTensorWord x = tt_word(kArith, dt::FP32, dt::FP32, dt::FP32, op::ADD, 512);
  x.channels = 128;
  x.src0 = tensor3(rm::sbuf_addr(0, 0), 1, 512, 512, 1, 512, 1);
  x.src1 = tensor3(rm::sbuf_addr(0, 0x800), 1, 512, 512, 1, 512, 1);
  x.dst = tensor3(rm::sbuf_addr(0, 0x1000), 1, 512, 512, 1, 512, 1);
  std::vector<V> a(128), b(128);
  for (unsigned p = 0; p < 128; ++p) {
    for (unsigned j = 0; j < 512; ++j) {
      a[p].push_back(f32(0.1f * static_cast<float>(j) - static_cast<float>(p)));
      b[p].push_back(f32(1.0f / static_cast<float>(p + j + 1)));
    }
    poke(m, SBUF, p, 0, 4, a[p]);
    poke(m, SBUF, p, 0x800, 4, b[p]);
  }
  expect_ok(m, x.encode());
  for (unsigned p = 0; p < 128; p += 17) {
    V want;
    for (unsigned j = 0; j < 512; ++j)  // np.add: one IEEE single-precision addition
      want.push_back(f32(rm::as_float(a[p][j]) + rm::as_float(b[p][j])));
    EXPECT_EQ(peek(m, SBUF, p, 0x1000, 4, 512), want) << "partition " << p;
  }
}

}  // namespace tensor_tensor

namespace tensor_tensor {

// SPEC §3.9 item 2, §4.14: DVE converts 32-bit integers through FP32; POOL computes them
// natively (aws-neuron-sdk#1308).
TEST(TensorTensorArith, Issue1308DveRoundsThroughFp32PoolIsExact) {
  // UINT32 16777217 + 0.
  EXPECT_EQ(arith(kDve, dt::UINT32, dt::UINT32, dt::UINT32, op::ADD, 0x01000001, 0), 0x01000000u);
  EXPECT_EQ(arith(kDefault, dt::UINT32, dt::UINT32, dt::UINT32, op::ADD, 0x01000001, 0),
            0x01000000u);
  EXPECT_EQ(arith(kPool, dt::UINT32, dt::UINT32, dt::UINT32, op::ADD, 0x01000001, 0), 0x01000001u);
  // INT32 0x7FFFFFFF * 0xD251: saturated on DVE (2^31 * 53841 > INT32 max), wrapped on
  // POOL: (2^31 - 1) * 53841 = 53841 * 2^31 - 53841 = 2^31 - 0xD251 (mod 2^32).
  EXPECT_EQ(arith(kDve, dt::INT32, dt::INT32, dt::INT32, op::MULT, 0x7FFFFFFF, 0xD251),
            0x7FFFFFFFu);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::MULT, 0x7FFFFFFF, 0xD251),
            0x7FFF2DAFu);
  // SUBTRACT: 0 - 16777217 is -16777216 through FP32, -16777217 natively.
  EXPECT_EQ(arith(kDve, dt::INT32, dt::INT32, dt::INT32, op::SUBTRACT, 0, 0x01000001), 0xFF000000u);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::SUBTRACT, 0, 0x01000001),
            0xFEFFFFFFu);
  // Mixed signedness counts as 32-bit integers: exact values compare (SPEC §3.8.2).
  EXPECT_EQ(arith(kPool, dt::UINT32, dt::INT32, dt::UINT32, op::IS_GT, 0xFFFFFFFF, 0xFFFFFFFF), 1u);
  EXPECT_EQ(arith(kPool, dt::UINT32, dt::INT32, dt::INT32, op::IS_EQ, 0x01000001, 0x01000000), 0u);
  EXPECT_EQ(arith(kDve, dt::UINT32, dt::INT32, dt::INT32, op::IS_EQ, 0x01000001, 0x01000000), 1u);
}

}  // namespace tensor_tensor

namespace tensor_tensor {

// SPEC §3.8.1: BYPASS takes the FP32 path too, also with equal dtypes.
TEST(TensorTensorArith, BypassRoundsThroughFp32) {
  EXPECT_EQ(arith(kDve, dt::INT32, dt::INT32, dt::INT32, op::BYPASS, 0x01000001, 7), 0x01000000u);
  EXPECT_EQ(arith(kDve, dt::INT32, dt::INT32, dt::INT32, op::BYPASS, 0x01000003, 7), 0x01000004u);
  // BF16 signalling NaN: quieted on the way through FP32, then BF16's canonical NaN.
  EXPECT_EQ(arith(kDve, dt::BF16, dt::BF16, dt::BF16, op::BYPASS, 0x7F81, 0), 0x7FC0u);
  EXPECT_EQ(arith(kDve, dt::BF16, dt::BF16, dt::BF16, op::BYPASS, 0xFF81, 0), 0xFFC0u);
  // Widened to FP32 its payload moves up and the quiet bit is set; FP32 keeps its bits.
  EXPECT_EQ(arith(kDve, dt::BF16, dt::BF16, dt::FP32, op::BYPASS, 0x7F81, 0), 0x7FC10000u);
  EXPECT_EQ(fp32(op::BYPASS, 0x7F800001, 0), 0x7F800001u);
  EXPECT_EQ(fp32(op::BYPASS, 0xFFC12345, 0), 0xFFC12345u);
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::FP32R, op::BYPASS, 0x7F800001, 0), 0x7F800001u);
  // On POOL INT32 in and out is native: the bits are kept.
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::BYPASS, 0x01000001, 7), 0x01000001u);
  // A NaN to an integer is 0; infinities saturate.
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::INT32, op::BYPASS, 0x7FC00000, 0), 0u);
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::INT16, op::BYPASS, 0xFF800000, 0), 0x8000u);
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::UINT8, op::BYPASS, 0x7F800000, 0), 0xFFu);
}

}  // namespace tensor_tensor

namespace tensor_tensor {

// SPEC §3.9 item 2: on POOL an 8/16-bit general op goes through FP32 and saturates; the
// integer ops compute natively at any width and wrap.
TEST(TensorTensorArith, PoolNarrowIntegersFp32PathVersusIntegerOps) {
  EXPECT_EQ(arith(kPool, dt::INT8, dt::INT8, dt::INT8, op::ADD, 0x64, 0x64), 0x7Fu);
  EXPECT_EQ(arith(kPool, dt::INT8, dt::INT8, dt::INT8, op::ADD_INT, 0x64, 0x64), 0xC8u);
  EXPECT_EQ(arith(kDve, dt::INT8, dt::INT8, dt::INT8, op::ADD, 0x64, 0x64), 0x7Fu);
  EXPECT_EQ(arith(kPool, dt::INT16, dt::INT16, dt::INT16, op::ADD_INT, 0x7FFF, 1), 0x8000u);
  EXPECT_EQ(arith(kPool, dt::INT16, dt::INT16, dt::INT16, op::MULT_INT, 300, 300), 0x5F90u);
  EXPECT_EQ(arith(kPool, dt::UINT8, dt::UINT8, dt::UINT8, op::SUBTRACT_INT, 1, 2), 0xFFu);
  // A general op with a 16-bit output among 32-bit inputs: FP32, saturating.
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT16, op::ADD, 0x7FFF, 1), 0x7FFFu);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::ADD, 0x7FFFFFFF, 1), 0x80000000u);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::FP32, dt::INT32, op::ADD, 0x7FFFFFFF, kOne), 0x7FFFFFFFu);
  // The integer ops of V3 and later (SPEC §3.8.2's native rules).
  const Generation v3 = Generation::V3;
  EXPECT_EQ(arith(kPool, dt::INT8, dt::INT8, dt::INT8, op::MAX_INT, 0xFF, 5, v3), 5u);
  EXPECT_EQ(arith(kPool, dt::UINT8, dt::UINT8, dt::UINT8, op::MAX_UINT, 0xFF, 5, v3), 0xFFu);
  EXPECT_EQ(arith(kPool, dt::INT8, dt::INT8, dt::INT8, op::MIN_INT, 0x80, 0x7F, v3), 0x80u);
  EXPECT_EQ(arith(kPool, dt::INT8, dt::INT8, dt::INT8, op::ABS_DIFF_INT, 0x80, 0x7F, v3), 0xFFu);
  EXPECT_EQ(arith(kPool, dt::INT16, dt::INT16, dt::INT16, op::ABS_MAX_INT, 0xFFFD, 3, v3), 3u);
  EXPECT_EQ(arith(kPool, dt::INT16, dt::INT16, dt::INT16, op::ABS_MAX_INT, 0xFFFB, 3, v3), 0xFFFBu);
  EXPECT_EQ(arith(kPool, dt::INT16, dt::INT16, dt::INT16, op::ABS_MIN_INT, 0xFFFB, 3, v3), 3u);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::IS_LT_INT, 0xFFFFFFFF, 0, v3), 1u);
  EXPECT_EQ(arith(kPool, dt::UINT32, dt::UINT32, dt::UINT32, op::IS_LT_UINT, 0xFFFFFFFF, 0, v3),
            0u);
  EXPECT_EQ(
      arith(kPool, dt::UINT32, dt::UINT32, dt::UINT32, op::MULT_UINT, 0xFFFFFFFF, 0xFFFFFFFF, v3),
      1u);
  EXPECT_EQ(arith(kPool, dt::INT16, dt::INT16, dt::INT16, op::IS_EQUAL_INT, 7, 7, v3), 1u);
  EXPECT_EQ(arith(kPool, dt::UINT16, dt::UINT16, dt::UINT16, op::IS_NE_INT, 7, 7, v3), 0u);
  // Native general ops on 32 bits: |INT32 min| wraps to itself; RE_LU; SQUARE.
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::ABSOLUTE_VALUE, 0x80000000, 1),
            0x80000000u);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::RE_LU, 0xFFFFFFF6, 1), 0u);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::SQUARE, 0x10000, 1), 0u);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::UINT32, dt::UINT32, op::LOGICAL_XOR, 5, 0), 1u);
}

}  // namespace tensor_tensor

namespace tensor_tensor {

// SPEC §3.8.2: NaN results are the default NaN; only BYPASS keeps a NaN's bits.
TEST(TensorTensorArith, NanResultsAreTheDefaultNan) {
  EXPECT_EQ(fp32(op::ADD, kOne, 0x7F800001), kNaN);
  EXPECT_EQ(fp32(op::MULT, 0xFFC00001, kTwo), kNaN);
  EXPECT_EQ(fp32(op::SUBTRACT, 0x7F800000, 0x7F800000), kNaN);  // inf - inf
  EXPECT_EQ(fp32(op::MULT, 0, 0xFF800000), kNaN);               // 0 * inf
  EXPECT_EQ(fp32(op::ABSOLUTE_VALUE, 0xFFC12345, 0), kNaN);
  EXPECT_EQ(fp32(op::ABSOLUTE_DIFF, 0x7FC00001, kOne), kNaN);
  EXPECT_EQ(fp32(op::MAX, 0x7FC00001, 0xFF800001), kNaN);
  EXPECT_EQ(fp32(op::SQUARE, 0x7FA00000, 0), kNaN);
  // Into BF16 / FP16: their canonical NaNs.
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::BF16, op::ADD, 0xFFC00001, kOne), 0x7FC0u);
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::FP16, op::ADD, 0xFFC00001, kOne), 0x7E00u);
  // Compares with a NaN: false, but IS_NE true; logicals count a NaN as true.
  EXPECT_EQ(fp32(op::IS_EQ, kNaN, kNaN), 0u);
  EXPECT_EQ(fp32(op::IS_GE, kNaN, kOne), 0u);
  EXPECT_EQ(fp32(op::IS_LT, kOne, 0xFF800001), 0u);
  EXPECT_EQ(fp32(op::IS_NE, kNaN, kNaN), kOne);
  EXPECT_EQ(fp32(op::LOGICAL_AND, kNaN, kTwo), kOne);
  EXPECT_EQ(fp32(op::LOGICAL_OR, 0x80000000, 0), 0u);
  EXPECT_EQ(fp32(op::LOGICAL_XOR, kNaN, 0), kOne);
  // 1.0 / 0.0 converted like any result: INT32 1, BF16 0x3F80.
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::INT32, op::IS_GT, kTwo, kOne), 1u);
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::BF16, op::IS_GT, kTwo, kOne), 0x3F80u);
  EXPECT_EQ(arith(kDve, dt::BF16, dt::FP16, dt::UINT8, op::IS_EQ, 0x3F80, 0x3C00), 1u);
}

}  // namespace tensor_tensor

namespace tensor_tensor {

// SPEC §3.8.2: MAX/MIN are maxNum/minNum with -0.0 < +0.0; ABS_MAX/ABS_MIN keep the signed
// operand, a tie or a NaN giving b; RE_LU is MAX(a, +0.0).
TEST(TensorTensorArith, SignedZerosMaxMinAndAbsMax) {
  EXPECT_EQ(fp32(op::MAX, 0x80000000, 0), 0u);
  EXPECT_EQ(fp32(op::MAX, 0, 0x80000000), 0u);
  EXPECT_EQ(fp32(op::MIN, 0, 0x80000000), 0x80000000u);
  EXPECT_EQ(fp32(op::MIN, 0x80000000, 0), 0x80000000u);
  EXPECT_EQ(fp32(op::MIN, 0x7FC00001, 0xC0000000), 0xC0000000u);
  EXPECT_EQ(fp32(op::MAX, 0x00000001, 0x7F800001), 0x00000001u);  // a subnormal, kept
  EXPECT_EQ(fp32(op::MAX, kMinusThree, 0xFF800000), kMinusThree);
  EXPECT_EQ(fp32(op::ABS_MAX, 0xC0A00000, kThree), 0xC0A00000u);  // -5 against 3
  EXPECT_EQ(fp32(op::ABS_MAX, kMinusThree, kThree), kThree);      // a tie gives b
  EXPECT_EQ(fp32(op::ABS_MAX, kThree, kMinusThree), kMinusThree);
  EXPECT_EQ(fp32(op::ABS_MIN, 0xC0A00000, kThree), kThree);
  EXPECT_EQ(fp32(op::ABS_MIN, kMinusThree, 0xC0A00000), kMinusThree);
  EXPECT_EQ(fp32(op::ABS_MAX, kNaN, kTwo), kTwo);        // the comparison is false: b
  EXPECT_EQ(fp32(op::ABS_MAX, kTwo, 0x7F800001), kNaN);  // b, a NaN: the default NaN
  EXPECT_EQ(fp32(op::ABS_MIN, 0x80000000, 0), 0u);       // |-0| < |+0| is false: b
  EXPECT_EQ(fp32(op::RE_LU, kNaN, kOne), 0u);
  EXPECT_EQ(fp32(op::RE_LU, 0x80000000, kOne), 0u);
  EXPECT_EQ(fp32(op::RE_LU, kMinusThree, kOne), 0u);
  EXPECT_EQ(fp32(op::RE_LU, kThree, kMinusThree), kThree);
  EXPECT_EQ(fp32(op::IS_EQ, 0x80000000, 0), kOne);  // -0.0 == +0.0
  // On V2 and V3 ABS_MAX does not exist (is_valid_enum).
  Machine& m = fresh(Generation::V3);
  const Word w = tt_word(kArith, dt::FP32, dt::FP32, dt::FP32, op::ABS_MAX, 1).encode();
  expect_unchanged(m, w, Status::Invalid, std::nullopt);
}

}  // namespace tensor_tensor

namespace tensor_tensor {

// SPEC §3.8.2: one rounding, IEEE signs of zeros, overflow to infinity, subnormals kept.
TEST(TensorTensorArith, Fp32ArithmeticRoundsOnceAndKeepsSubnormals) {
  EXPECT_EQ(fp32(op::ADD, 0x80000000, 0x80000000), 0x80000000u);  // (-0) + (-0)
  EXPECT_EQ(fp32(op::ADD, kThree, kMinusThree), 0u);              // x + (-x) = +0
  EXPECT_EQ(fp32(op::SUBTRACT, 0x80000000, 0), 0x80000000u);      // (-0) - (+0)
  EXPECT_EQ(fp32(op::MULT, 0x80000000, kThree), 0x80000000u);
  EXPECT_EQ(fp32(op::ADD, 0x7F7FFFFF, 0x7F7FFFFF), 0x7F800000u);
  EXPECT_EQ(fp32(op::MULT, 0xFF7FFFFF, kTwo), 0xFF800000u);
  EXPECT_EQ(fp32(op::ADD, 0x00000001, 0x00000001), 0x00000002u);
  EXPECT_EQ(fp32(op::MULT, 0x00800000, 0x3F000000), 0x00400000u);     // 2^-126 / 2: subnormal
  EXPECT_EQ(fp32(op::ADD, kOne, 0x33800000), kOne);                   // 1 + 2^-24: tie to even
  EXPECT_EQ(fp32(op::ADD, kOne, 0x33C00000), 0x3F800001u);            // 1 + 1.5 * 2^-24
  EXPECT_EQ(fp32(op::SQUARE, kMinusThree, 0x7FC00000), 0x41100000u);  // 9; b is ignored
  EXPECT_EQ(fp32(op::ABSOLUTE_VALUE, 0xC0200000, kOne), 0x40200000u);
  EXPECT_EQ(fp32(op::ABSOLUTE_DIFF, kOne, kThree), kTwo);
  EXPECT_EQ(fp32(op::ABSOLUTE_DIFF, kThree, kThree), 0u);
  // Integers in, the FP32 result rounded to nearest even and saturated.
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::INT32, op::ADD, 0x40200000, 0), 2u);  // 2.5
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::INT32, op::ADD, 0x40600000, 0), 4u);  // 3.5
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::UINT16, op::SUBTRACT, 0, kOne), 0u);
  EXPECT_EQ(arith(kDve, dt::INT16, dt::UINT16, dt::INT8, op::ADD, 0xFF9C, 0xFFFF), 0x7Fu);
  EXPECT_EQ(arith(kDve, dt::UINT8, dt::INT8, dt::FP16, op::MULT, 200, 0xFE), 0xDE40u);  // -400
  // Narrow float outputs round once to nearest even: 1 + 2^-8 ties to 1.0 in BF16.
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::BF16, op::ADD, kOne, 0x3B800000), 0x3F80u);
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::BF16, op::ADD, kOne, 0x3BC00000), 0x3F81u);
  EXPECT_EQ(arith(kDve, dt::FP8_E4, dt::FP8_E5, dt::FP8_E3, op::ADD, 0x38, 0x3C),
            0x40u);  // 1 + 1 = 2: exponent 1 + bias 3, 0 100 0000
}

}  // namespace tensor_tensor

namespace tensor_tensor {

// SPEC §3.9 item 4: act, the ops of §3.8.3, INT64/UINT64 and the integer band off pool
// fault unsupported-op, after the wait and before any address is resolved; nothing changes.
TEST(TensorTensorArith, UnsupportedOpFaultsChangeNothing) {
  Machine& m = busy_machine(Generation::V4);
  rm::TensorTensorWord x = tt_word(kArith, dt::FP32, dt::FP32, dt::FP32, op::ADD, 4);
  x.ev = kSet9;
  expect_fault(m, x.encode(), FaultKind::UnsupportedOp, kAct);
  rm::TensorTensorWord p = x;
  p.op = op::POW;
  for (auto e : {kDefault, kDve, kPool, kAct})
    expect_fault(m, p.encode(), FaultKind::UnsupportedOp, e);
  rm::TensorTensorWord ints = x;
  ints.lo = ints.hi = ints.out = dt::INT32;
  for (uint8_t o : {op::MOD, op::DIVIDE_INT, op::MOD_INT}) {
    ints.op = o;
    expect_fault(m, ints.encode(), FaultKind::UnsupportedOp, kPool);
  }
  ints.lo = ints.hi = ints.out = dt::UINT32;
  for (uint8_t o : {op::DIVIDE_UINT, op::MOD_UINT}) {
    ints.op = o;
    expect_fault(m, ints.encode(), FaultKind::UnsupportedOp, kPool);
  }
  // The integer band runs on pool only.
  ints.op = op::ADD_INT;
  for (auto e : {kDefault, kDve, kAct}) expect_fault(m, ints.encode(), FaultKind::UnsupportedOp, e);
  // INT64 / UINT64 operands (valid words).
  rm::TensorTensorWord wide = x;
  wide.lo = dt::INT64;
  for (auto e : {kDve, kPool}) expect_fault(m, wide.encode(), FaultKind::UnsupportedOp, e);
  wide.lo = dt::FP32;
  wide.out = dt::UINT64;
  expect_fault(m, wide.encode(), FaultKind::UnsupportedOp, kPool);
  // Before bad-address: a register holding a malformed address is never resolved.
  rm::TensorTensorWord reg = x;
  reg.src1.addr = rm::reg_addr(20);
  m.registers[20] = 0x60000000;  // mode bits set
  expect_fault(m, reg.encode(), FaultKind::UnsupportedOp, kAct);
  expect_fault(m, reg.encode(), FaultKind::BadAddress, kDve);
  m.registers[20] = 0;
  // After the wait: an unsatisfiable wait is reported first.
  rm::TensorTensorWord wait = x;
  wait.ev = rm::Events{2, 9, 0, 0, 1234};  // sem[9] == 1234: it holds 3
  expect_fault(m, wait.encode(), FaultKind::SyncWouldBlock, kAct);
  // The same word retires where it is supported.
  expect_ok(m, x.encode(), on(kPool));
  EXPECT_EQ(m.semaphores[9], 0x77u);
}

}  // namespace tensor_tensor

namespace tensor_tensor {

// SPEC §4.14's faults: bad-address (register-mode tensors: malformed, out of bounds,
// misaligned, partitions beyond 127, PSUM on pool, both sources in PSUM), shape-mismatch,
// too-large, in that order; all or nothing.
TEST(TensorTensorArith, FaultsInOrderChangeNothing) {
  Machine& m = busy_machine(Generation::V3);
  rm::TensorTensorWord x = tt_word(kArith, dt::FP32, dt::FP32, dt::FP32, op::ADD, 4);
  x.ev = kSet9;
  x.src0.addr = rm::reg_addr(1);
  x.dst.addr = rm::reg_addr(2);
  m.registers[2] = rm::sbuf_addr(0, 0x300);
  for (uint32_t bad : {0x1E000000u, rm::sbuf_addr(0, 0x102), rm::sbuf_addr(0, 224 * 1024 - 8),
                       rm::psum_addr(0, 0x4000), rm::reg_addr(3)}) {
    m.registers[1] = bad;
    expect_fault(m, x.encode(), FaultKind::BadAddress, kDve);
  }
  // Partitions beyond 127: 4 channels from partition 125.
  rm::TensorTensorWord four = x;
  four.channels = 4;
  m.registers[1] = rm::sbuf_addr(125, 0x100);
  expect_fault(m, four.encode(), FaultKind::BadAddress, kDve);
  // PSUM through a register: fine on dve and act, bad-address on pool.
  m.registers[1] = rm::psum_addr(0, 0x100);
  expect_fault(m, x.encode(), FaultKind::BadAddress, kPool);
  m.registers[2] = rm::psum_addr(3, 0x0);
  m.registers[1] = rm::sbuf_addr(0, 0x100);
  expect_fault(m, x.encode(), FaultKind::BadAddress, kPool);
  // Both sources in PSUM: one static, one from a register (the static rule, checked late).
  rm::TensorTensorWord both = x;
  both.src1.addr = rm::psum_addr(1, 0x100);
  m.registers[1] = rm::psum_addr(0, 0x100);
  m.registers[2] = rm::sbuf_addr(0, 0x300);
  for (auto e : {kDefault, kDve}) expect_fault(m, both.encode(), FaultKind::BadAddress, e);
  expect_fault(m, both.encode(), FaultKind::UnsupportedOp, kAct);
  // Register-mode counts that differ: shape-mismatch...
  rm::TensorTensorWord shape = x;
  m.registers[1] = rm::sbuf_addr(0, 0x100);
  shape.src1.num[0] = 5;
  expect_fault(m, shape.encode(), FaultKind::ShapeMismatch, kDve);
  shape.src1.num[0] = 4;
  shape.dst.num[1] = 2;
  expect_fault(m, shape.encode(), FaultKind::ShapeMismatch, kPool);
  // ...after bad-address,
  m.registers[1] = 0x1E000000u;
  expect_fault(m, shape.encode(), FaultKind::BadAddress, kDve);
  m.registers[1] = rm::sbuf_addr(0, 0x100);
  // ...and before too-large: 4096 x 4097 > 2^24 elements with zero steps.
  rm::TensorTensorWord big = x;
  big.src0 = tensor3(rm::reg_addr(1), 0, 4096, 0, 4097, 0, 1);
  big.src1 = tensor3(rm::sbuf_addr(0, 0x200), 0, 4096, 0, 4097, 0, 1);
  big.dst = tensor3(rm::sbuf_addr(0, 0x300), 0, 4096, 0, 4096, 0, 1);
  expect_fault(m, big.encode(), FaultKind::ShapeMismatch, kDve);
  big.dst.num[1] = 4097;
  expect_fault(m, big.encode(), FaultKind::TooLarge, kDve);
  big.src0.addr = rm::sbuf_addr(0, 0x100);
  expect_fault(m, big.encode(), FaultKind::TooLarge, kPool);
  // The same word retires with a good register.
  x.src1.num[0] = 4;
  m.registers[1] = rm::sbuf_addr(0, 0x100);
  m.registers[2] = rm::sbuf_addr(0, 0x300);
  expect_ok(m, x.encode());
  EXPECT_EQ(m.semaphores[9], 0x77u);
}

}  // namespace tensor_tensor

namespace tensor_tensor {

// SPEC §4.14: shapes may differ (counts are compared), a zero step broadcasts, both
// sources are read before any write, a destination that revisits a byte keeps the later
// ordinal, and channel c uses partition start + c of each operand.
TEST(TensorTensorArith, WalksPairByOrdinalAcrossShapesAndChannels) {
  Machine& m = fresh(Generation::V2);
  rm::TensorTensorWord x = tt_word(kArith, dt::INT16, dt::FP32, dt::FP32, op::SUBTRACT, 8);
  x.channels = 2;
  x.src0 = tensor3(rm::sbuf_addr(3, 0x100), 1, 8, 8, 1, 8, 1);   // [8, 1, 1]
  x.src1 = tensor3(rm::sbuf_addr(10, 0x200), 0, 2, 1, 4, 0, 1);  // [2, 4, 1]: each twice
  x.dst = tensor3(rm::psum_addr(5, 0x40), 2, 4, 1, 2, 0, 1);     // [4, 2, 1] interleaved
  for (unsigned c = 0; c < 2; ++c) {
    poke(m, SBUF, 3 + c, 0x100, 2, {1, 2, 3, 4, 5, 6, 7, 8});
    poke(m, SBUF, 10 + c, 0x200, 4, {f32(c == 0 ? 10.0f : 20.0f), f32(20), f32(30), f32(40)});
  }
  expect_ok(m, x.encode());
  // ordinal j: a = j + 1, b = src1[j / 2]; dst ordinal j at element 2 * (j % 4) + j / 4.
  for (unsigned c = 0; c < 2; ++c) {
    const float b0 = c == 0 ? 10.0f : 20.0f;
    EXPECT_EQ(peek(m, PSUM, 5 + c, 0x40, 4, 8),
              (V{f32(1 - b0), f32(5 - 30), f32(2 - b0), f32(6 - 30), f32(3 - 20), f32(7 - 40),
                 f32(4 - 20), f32(8 - 40)}))
        << "channel " << c;
  }
  // In place: dst over src0 (the sources are read first).
  Machine& q = fresh(Generation::V3);
  rm::TensorTensorWord y = tt_word(kArith, dt::FP32, dt::FP32, dt::FP32, op::ADD, 4);
  y.dst = y.src0;
  y.dst.step[0] = -1;
  y.dst.addr = rm::sbuf_addr(0, 0x10C);  // the same bytes, backwards
  poke(q, SBUF, 0, 0x100, 4, {f32(1), f32(2), f32(3), f32(4)});
  poke(q, SBUF, 0, 0x200, 4, {f32(10), f32(20), f32(30), f32(40)});
  expect_ok(q, y.encode());
  EXPECT_EQ(peek(q, SBUF, 0, 0x100, 4, 4), (V{f32(44), f32(33), f32(22), f32(11)}));
  // A zero-step destination: every ordinal lands on one element; the last one wins.
  rm::TensorTensorWord z = tt_word(kArith, dt::FP32, dt::FP32, dt::FP32, op::MULT, 4);
  z.dst.step[0] = 0;
  expect_ok(q, z.encode());
  EXPECT_EQ(peek(q, SBUF, 0, 0x300, 4, 2), (V{f32(11 * 40), 0}));
}

}  // namespace tensor_tensor

namespace tensor_tensor {

TEST(TensorTensorArith, RegisterAndPsumOperands) {
  Machine& m = fresh(Generation::V5);
  rm::TensorTensorWord x = tt_word(kArith, dt::FP32, dt::INT32, dt::INT32, op::MAX, 3);
  x.src0.addr = rm::reg_addr(4);
  x.src1.addr = rm::psum_addr(2, 0x80);
  x.dst.addr = rm::reg_addr(5);
  // A PSUM source through a register while the other source is in PSUM: bad-address.
  m.registers[4] = rm::psum_addr(9, 0x20);
  m.registers[5] = rm::sbuf_addr(7, 0x40);
  poke(m, PSUM, 9, 0x20, 4, {f32(-1.5f), f32(2.5f), f32(1e10f)});
  poke(m, PSUM, 2, 0x80, 4, {5, 2, 0xFFFFFFFF});
  expect_fault(m, x.encode(), FaultKind::BadAddress, kDve);
  m.registers[4] = rm::sbuf_addr(9, 0x20);
  poke(m, SBUF, 9, 0x20, 4, {f32(-1.5f), f32(2.5f), f32(1e10f)});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 7, 0x40, 4, 3), (V{5, 2, 0x7FFFFFFF}));  // 2.5 -> 2 (even)
  // On act the same word faults unsupported-op; on pool its static PSUM source is invalid.
  expect_fault(m, x.encode(), FaultKind::UnsupportedOp, kAct);
  expect_unchanged(m, x.encode(), Status::Invalid, std::nullopt, on(kPool));
}

}  // namespace tensor_tensor

}  // namespace

namespace gpsimd {
namespace {

// ---- TensorTensorArith / TensorTensorBitvec (SPEC §4.14): the rest of the clause set ----

// The clauses SPEC ties together: each case reports exactly these (on every generation).
TEST(TensorTensorValidate, TiedClausesAreReportedTogether) {
  using D = Dtype;
  const std::vector<ForcedCase> cases = {
      // A num_elem of 0: the tensor clause, and the count clauses with their literal
      // formula (the count is 0) unless waived (SPEC §3.6).
      {"tta_src0_num0",
       TTA,
       [](Word& w) { set_num(w, "src0_mem_pattern", 2, 0); },
       {"tensor3d_valid", "s3s3d3_tt_src_element_cnt_check", "s3s3d3_tt_dst_element_cnt_check"}},
      {"tta_src1_num0",
       TTA,
       [](Word& w) { set_num(w, "src1_mem_pattern", 0, 0); },
       {"tensor3d_valid", "s3s3d3_tt_src_element_cnt_check"}},
      {"ttb_dst_num0",
       TTB,
       [](Word& w) { set_num(w, "dst_mem_pattern", 1, 0); },
       {"tensor3d_valid", "s3s3d3_tt_dst_element_cnt_check"}},
      // src0's count is in both count clauses.
      {"tta_src0_count",
       TTA,
       [](Word& w) { set_num(w, "src0_mem_pattern", 0, 2); },
       {"s3s3d3_tt_src_element_cnt_check", "s3s3d3_tt_dst_element_cnt_check"}},
      // 129 channels: the range, and every operand's start partition (2 + 129 > 128).
      {"tta_channels_129",
       TTA,
       [](Word& w) { set(w, "num_active_channels", 129); },
       {"has_valid_active_channel_range", "start_addr_active_channels",
        "start_addr_active_channels", "start_addr_active_channels"}},
      // A float out for 0x51 breaks s3s3d3_tt_dtype, and src_dst_dtype when src0 differs.
      {"ttb_out_fp16",
       TTB,
       [](Word& w) { set(w, "out_dtype", code(D::FP16)); },
       {"s3s3d3_tt_dtype", "s3s3d3_tt_src_dst_dtype"}},
      // A dtype without a size: is_valid_dtype_64, and 0x51's own dtype clauses.
      {"ttb_out_unknown",
       TTB,
       [](Word& w) { set(w, "out_dtype", 0x20); },
       {"is_valid_dtype_64", "s3s3d3_tt_dtype", "s3s3d3_tt_src_dst_dtype"}},
      // is_valid_dtype_64 and the signedness rule are independent (SPEC §3.6).
      {"tta_add_int_src0_invalid",
       TTA,
       [](Word& w) {
         set_tt(w, D::INVALID, D::INT32, D::INT32);
         set(w, "op", 0xc4);
       },
       {"is_valid_dtype_64", "s3s3d3_tt_valid_int_signness"}},
      // On 0x51 a signed-only op with unsigned dtypes is not a bitvec op either.
      {"ttb_mult_int_and_unsigned",
       TTB,
       [](Word& w) { set(w, "op", 0xc5); },  // MULT_INT: signed and unsigned: holds
       {"s3s3d3_tt_valid_op"}},
  };
  for (const ForcedCase& c : cases) {
    const Word w = with(valid_word(c.op), c.mutate);
    std::vector<std::string> want = c.clauses;
    std::sort(want.begin(), want.end());
    for (Generation g : generations_of(c.op))
      EXPECT_EQ(clauses_of(validate(w, g)), want)
          << c.name << " " << gen_text(g) << describe(validate(w, g));
  }
  // MAX_INT (signed only) on 0x51 with UINT16: not a bitvec op, and the wrong signedness.
  const Word w = with(valid_word(Opcode::TensorTensorBitvec), [](Word& x) { set(x, "op", 0xcf); });
  for (Generation g : {G::V3, G::V4, G::V5})
    EXPECT_EQ(clauses_of(validate(w, g)),
              (std::vector<std::string>{"s3s3d3_tt_valid_int_signness", "s3s3d3_tt_valid_op"}))
        << gen_text(g);
}

// What each clause accepts (SPEC §4.14), on the generations named.
TEST(TensorTensorValidate, ValidVariants) {
  using D = Dtype;
  struct Case {
    std::string name;
    Opcode op;
    std::function<void(Word&)> mutate;
    std::vector<Generation> gens = {G::V2, G::V3, G::V4, G::V5};
  };
  const std::vector<Generation> v3up{G::V3, G::V4, G::V5}, v4up{G::V4, G::V5};
  const std::vector<Case> cases = {
      {"out_fp32r", TTA, [](Word& w) { set(w, "out_dtype", code(D::FP32R)); }},
      // INT64 / UINT64 pass is_valid_dtype_64 (execution faults unsupported-op).
      {"src0_int64", TTA, [](Word& w) { set_tt(w, D::INT64, D::FP32, D::FP32); }},
      {"out_uint64", TTA,
       [](Word& w) {
         set(w, "out_dtype", code(D::UINT64));
         set_addr(w, "dst_mem_pattern", sbuf_addr(2, 0x400));
       }},
      // Any mix of data dtypes for the general ops, integer and float.
      {"mixed_int8_fp8", TTA, [](Word& w) { set_tt(w, D::INT8, D::FP8_E5, D::UINT16); }},
      {"mixed_int32_uint32", TTA, [](Word& w) { set_tt(w, D::INT32, D::UINT32, D::INT32); }},
      {"pow", TTA, [](Word& w) { set(w, "op", 0x1a); }},
      {"add_int_int8", TTA,
       [](Word& w) {
         set_tt(w, D::INT8, D::INT8, D::INT8);
         set(w, "op", 0xc4);
       }},
      {"mult_int_uint16", TTA,
       [](Word& w) {
         set_tt(w, D::UINT16, D::UINT16, D::UINT16);
         set(w, "op", 0xc5);
       }},
      {"mod_int64", TTA,
       [](Word& w) {
         set_tt(w, D::INT64, D::INT16, D::INT32);
         set(w, "op", 0x1b);
       }},
      {"max_int_int16", TTA,
       [](Word& w) {
         set_tt(w, D::INT16, D::INT16, D::INT16);
         set(w, "op", 0xcf);
       },
       v3up},
      {"mult_uint_uint32", TTA,
       [](Word& w) {
         set_tt(w, D::UINT32, D::UINT32, D::UINT32);
         set(w, "op", 0xdb);
       },
       v3up},
      {"divide_uint", TTA,
       [](Word& w) {
         set_tt(w, D::UINT8, D::UINT8, D::UINT8);
         set(w, "op", 0xdc);
       },
       v3up},
      {"abs_max", TTA, [](Word& w) { set(w, "op", 0x20); }, v4up},
      {"square", TTA, [](Word& w) { set(w, "op", 0x23); }, v4up},
      // The bitvec ops on integers of out's dtype, signed or not.
      {"bitvec_not_int8", TTB,
       [](Word& w) {
         set_tt(w, D::INT8, D::INT8, D::INT8);
         set(w, "op", 0x01);
       }},
      {"bitvec_shift_int32", TTB,
       [](Word& w) {
         set_tt(w, D::INT32, D::INT32, D::INT32);
         set(w, "op", 0x03);
       }},
      {"bitvec_bypass", TTB, [](Word& w) { set(w, "op", 0x00); }},
      // A shift of a 64-bit src0 by a UINT32 count (out is any integer dtype, literally).
      {"bitvec_shift_uint64_by_uint32", TTB,
       [](Word& w) {
         set_tt(w, D::UINT64, D::UINT32, D::UINT16);
         set(w, "op", 0x11);
       }},
      {"bitvec_int64", TTB,
       [](Word& w) {
         set_tt(w, D::INT64, D::INT64, D::INT64);
         set(w, "op", 0x0c);
       }},
      // Counts compare products: the shapes may differ; zero steps broadcast.
      {"shapes_differ", TTA,
       [](Word& w) {
         set_tensor(w, "src0_mem_pattern", tensor(sbuf_addr(2, 0x100), {0, 1, 0}, {2, 8, 1}));
         set_tensor(w, "dst_mem_pattern", tensor(sbuf_addr(2, 0x400), {1, 2, 4}, {2, 2, 4}));
       }},
      // The count clauses are waived for a register-mode operand (shape-mismatch at
      // execution).
      {"register_src1_count", TTA,
       [](Word& w) {
         set_addr(w, "src1_mem_pattern", reg_addr(5));
         set_num(w, "src1_mem_pattern", 1, 7);
       }},
      {"register_src0_counts", TTA,
       [](Word& w) {
         set_addr(w, "src0_mem_pattern", reg_addr(0));
         set_num(w, "src1_mem_pattern", 1, 3);
         set_num(w, "dst_mem_pattern", 0, 3);
       }},
      // One source in PSUM, the other register mode: the PSUM check is static only.
      {"psum_and_register_sources", TTA,
       [](Word& w) {
         set_addr(w, "src0_mem_pattern", psum_addr(2, 0x100));
         set_addr(w, "src1_mem_pattern", reg_addr(9));
       }},
      {"psum_source_and_destination", TTA,
       [](Word& w) {
         set_addr(w, "src1_mem_pattern", psum_addr(0, 0));
         set_addr(w, "dst_mem_pattern", psum_addr(0, 0x100));
       }},
      {"channels_128", TTB,
       [](Word& w) {
         set(w, "num_active_channels", 128);
         for (const char* f : {"src0_mem_pattern", "src1_mem_pattern", "dst_mem_pattern"})
           set_addr(w, f, get_tensor(w, f).addr & 0x3ffffu);
       }},
  };
  for (const Case& c : cases) {
    const Word w = with(valid_word(c.op), c.mutate);
    for (Generation g : c.gens)
      for (bool strict : {false, true})
        EXPECT_TRUE(validate(w, g, ValidateOptions{strict}).empty())
            << c.name << " " << gen_text(g) << describe(validate(w, g, ValidateOptions{strict}));
  }
}

// SPEC §3.3: the op is an enumerator on 33 (V2), 60 (V3), 64 (V4), 65 (V5) values, and
// s3s3d3_tt_valid_op takes exactly the ops SPEC §3.8's predicates give each opcode.
TEST(TensorTensorValidate, OpSetsPerGeneration) {
  auto in = [](unsigned op, std::initializer_list<std::pair<unsigned, unsigned>> ranges) {
    for (auto [lo, hi] : ranges)
      if (op >= lo && op <= hi) return true;
    return false;
  };
  const std::map<Generation, std::function<bool(unsigned)>> enumerator = {
      {G::V2,
       [&](unsigned op) {
         return in(op, {{0x00, 0x1d}, {0xc4, 0xc6}});
       }},
      {G::V3,
       [&](unsigned op) {
         return in(op, {{0x00, 0x1d}, {0xc4, 0xe1}});
       }},
      {G::V4,
       [&](unsigned op) {
         return in(op, {{0x00, 0x1d}, {0x20, 0x23}, {0xc4, 0xe1}});
       }},
      {G::V5,
       [&](unsigned op) {
         return in(op, {{0x00, 0x1d}, {0x20, 0x24}, {0xc4, 0xe1}});
       }},
  };
  const std::map<Generation, unsigned> count = {{G::V2, 33}, {G::V3, 60}, {G::V4, 64}, {G::V5, 65}};
  // SPEC §3.8, written out: the general arith ops, the integer ops (signed, unsigned).
  const std::set<unsigned> general = {0x00, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0d,
                                      0x0e, 0x0f, 0x12, 0x13, 0x14, 0x15, 0x16,
                                      0x17, 0x18, 0x19, 0x20, 0x21, 0x22, 0x23};
  const std::set<unsigned> int_signed = {0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0x1b, 0xc9, 0xca, 0xcb,
                                         0xcc, 0xcd, 0xcf, 0xd0, 0xd1, 0xd2, 0xd3, 0xd4};
  const std::set<unsigned> int_unsigned = {0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0x1b, 0xdc, 0xdd, 0xdb,
                                           0xc9, 0xca, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda};
  const std::set<unsigned> bitvec = {0x00, 0x01, 0x02, 0x03, 0x10, 0x11, 0x0a, 0x0b, 0x0c};
  for (Generation g : kAllGenerations) {
    unsigned enumerators = 0;
    for (unsigned op = 0; op < 256; ++op) {
      SCOPED_TRACE(gen_text(g) + " op " + hex8_of(op));
      const bool is_enum = enumerator.at(g)(op);
      enumerators += is_enum;
      // 0x41 with three dtypes the op's signedness accepts.
      Word a = valid_word(Opcode::TensorTensorArith);
      const bool unsigned_only = int_unsigned.count(op) && !int_signed.count(op);
      if (int_signed.count(op) || int_unsigned.count(op))
        set_tt(a, unsigned_only ? Dtype::UINT32 : Dtype::INT32,
               unsigned_only ? Dtype::UINT32 : Dtype::INT32,
               unsigned_only ? Dtype::UINT32 : Dtype::INT32);
      set(a, "op", op);
      const Diagnostics da = validate(a, g);
      EXPECT_EQ(has_clause(da, "is_valid_enum"), !is_enum) << describe(da);
      const bool arith_ok =
          general.count(op) || op == 0x1a || int_signed.count(op) || int_unsigned.count(op);
      EXPECT_EQ(da.empty(), is_enum && arith_ok) << describe(da);
      Word b = valid_word(Opcode::TensorTensorBitvec);
      set(b, "op", op);
      const Diagnostics db = validate(b, g);
      EXPECT_EQ(has_clause(db, "is_valid_enum"), !is_enum) << describe(db);
      // MAX_INT and its signed-only kind also break the signedness with UINT16.
      EXPECT_EQ(has_clause(db, "s3s3d3_tt_valid_op"), is_enum && !bitvec.count(op)) << describe(db);
      EXPECT_EQ(db.empty(), is_enum && bitvec.count(op)) << describe(db);
    }
    EXPECT_EQ(enumerators, count.at(g)) << gen_text(g);
  }
}

// SPEC §3.9 item 1, §4.14: on pool no operand may be in PSUM; dve and act allow it (a PSUM
// write still 4-byte); the two sources are never both in PSUM, whatever the engine.
TEST(TensorTensorValidate, PsumRulesFollowTheEngine) {
  struct Operand {
    Opcode op;
    std::string field;
    bool narrow_write;  // a destination of a 2-byte dtype
  };
  const std::vector<Operand> operands = {
      {TTA, "src0_mem_pattern", false}, {TTA, "src1_mem_pattern", false},
      {TTA, "dst_mem_pattern", false},  {TTB, "src0_mem_pattern", false},
      {TTB, "src1_mem_pattern", false}, {TTB, "dst_mem_pattern", true}};
  for (const Operand& o : operands) {
    SCOPED_TRACE(mnemonic(o.op) + "." + o.field);
    const Word valid = valid_word(o.op);
    const uint32_t offset = get_tensor(valid, o.field).addr & 0x3ffffu;
    const uint32_t a = psum_addr(3, offset);
    const Word w = with(valid, [&](Word& x) { set_addr(x, o.field, a); });
    for (Generation g : generations_of(o.op)) {
      // The engine input changes nothing for a word in SBUF.
      for (Engine e : kAllEngines)
        EXPECT_TRUE(validate(valid, g, ValidateOptions{false, e}).empty()) << engine_id(e);
      EXPECT_TRUE(fails_alone(validate(w, g, ValidateOptions{false, Engine::POOL}), o.op,
                              "tensor3d_valid", o.field, hex32(a),
                              "this engine cannot access PSUM"))
          << gen_text(g);
      EXPECT_TRUE(fails_alone(validate(w, g, ValidateOptions{true, Engine::POOL}), o.op,
                              "tensor3d_valid", o.field, hex32(a), "SBUF"))
          << gen_text(g) << " strict";
      for (std::optional<Engine> e :
           {std::optional<Engine>{}, std::optional{Engine::DVE}, std::optional{Engine::ACT}}) {
        const Diagnostics d = validate(w, g, ValidateOptions{false, e});
        if (o.narrow_write)
          EXPECT_TRUE(fails_alone(d, o.op, "tensor3d_valid", o.field, hex32(a), "4-byte"));
        else
          EXPECT_TRUE(d.empty()) << describe(d);
      }
    }
  }
  // Both sources in PSUM: the PSUM check on every engine, and on pool both tensor clauses.
  for (Opcode op : {TTA, TTB}) {
    Word w = valid_word(op);
    set_addr(w, "src0_mem_pattern", psum_addr(4, 0x100));
    set_addr(w, "src1_mem_pattern", psum_addr(4, 0x200));
    for (Generation g : generations_of(op)) {
      for (Engine e : {Engine::DVE, Engine::ACT})
        EXPECT_EQ(clauses_of(validate(w, g, ValidateOptions{false, e})),
                  (std::vector<std::string>{"tensor_tensor_src_psum_check"}))
            << engine_id(e);
      EXPECT_EQ(clauses_of(validate(w, g, ValidateOptions{false, Engine::POOL})),
                (std::vector<std::string>{"tensor3d_valid", "tensor3d_valid",
                                          "tensor_tensor_src_psum_check"}));
    }
  }
}

// SPEC §3.9: the instructions of §4.1-§4.13 ignore the engine input.
TEST(TensorTensorValidate, OtherInstructionsIgnoreTheEngineInput) {
  for (const InstrDef& d : instructions()) {
    if (d.engine_input) continue;  // TensorTensor, TensorScalar: tested on their own
    const Word w = valid_word(d.opcode);
    Word psum = w;
    // A DVE source moved to PSUM, or a POOL one (invalid there): the same on every engine.
    for (const FieldDef& f : d.fields)
      if (f.kind == FieldKind::Tensor) {
        set_addr(psum, f.name, psum_addr(0, 0));
        break;
      }
    for (Generation g : generations_of(d.opcode))
      for (Engine e : kAllEngines) {
        EXPECT_EQ(validate(w, g, ValidateOptions{false, e}), validate(w, g)) << d.mnemonic;
        EXPECT_EQ(validate(psum, g, ValidateOptions{false, e}), validate(psum, g)) << d.mnemonic;
      }
  }
}

// V4 and V5 have the same geometry and instructions: a word's diagnostics are the same
// on both unless its op is SYMMETRIC_CLAMP (an enumerator on V5 only) or not an enumerator
// at all (is_valid_enum names each generation's set).
TEST(TensorTensorValidate, V4AndV5ReportAlike) {
  for (unsigned op = 0; op < 256; ++op) {
    if (op == 0x24 || (op > 0x1d && op < 0x20) || (op > 0x24 && op < 0xc4) || op > 0xe1) continue;
    for (Opcode o : {TTA, TTB}) {
      const Word w = with(valid_word(o), [op](Word& x) { set(x, "op", op); });
      EXPECT_EQ(validate(w, G::V4), validate(w, G::V5))
          << hex8_of(op) << describe(validate(w, G::V4));
    }
  }
}

}  // namespace
}  // namespace gpsimd
#endif
