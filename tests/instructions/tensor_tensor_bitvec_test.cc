// TensorTensorBitvec (SPEC §4.14): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/tensor_tensor.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.14.
inline ExpectedInstr tensor_tensor_bitvec_row() {
  return ExpectedInstr{"TensorTensorBitvec",
                       0x51,
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

// valid_tensor_tensor_bitvec(): 2 channels from partition 1, BITWISE_AND of UINT16s into
// UINT16. src0: steps {1, 8, 8} counts {8, 1, 1} (8 UINT16, 16 bytes) at SBUF partition 1
// offset 0x80; src1: steps {1, 2, 8} counts {2, 4, 1} at offset 0x100; dst: steps
// {1, 8, 8} counts {8, 1, 1} at offset 0x180.
namespace ttb_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kPartition = 1;
inline constexpr Dtype kDtype = Dtype::UINT16;
inline constexpr AluOp kOp = AluOp::BITWISE_AND;
inline constexpr uint32_t kSrc0Addr = sbuf_addr(kPartition, 0x80),
                          kSrc1Addr = sbuf_addr(kPartition, 0x100),
                          kDstAddr = sbuf_addr(kPartition, 0x180);
}  // namespace ttb_word

inline Word valid_tensor_tensor_bitvec() {
  using namespace ttb_word;
  return build(Opcode::TensorTensorBitvec,
               {{"in0_in1_dtype", uint64_t{dtype_pair(kDtype, kDtype)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                {"op", uint64_t{static_cast<uint8_t>(kOp)}},
                {"num_active_channels", uint64_t{kChannels}},
                {"src0_mem_pattern", tensor(kSrc0Addr, {1, 8, 8}, {8, 1, 1})},
                {"src1_mem_pattern", tensor(kSrc1Addr, {1, 2, 8}, {2, 4, 1})},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 8, 8}, {8, 1, 1})}});
}

}  // namespace gpsimd::test_words

namespace gpsimd::random_words {

inline Word gen_tensor_tensor_bitvec(Builder& b) {
  return gen_tensor_tensor(b, rm::kTensorTensorBitvec);
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_tensor_tensor_bitvec(Gen& g) {
  return valid_tensor_tensor(g, 0x51);
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "TensorTensorBitvec",
    .opcode = Opcode::TensorTensorBitvec,
    .opcode_clause = "has_tensor_tensor_opcode",
    .expected_row = expected_rows::tensor_tensor_bitvec_row,
    .valid_word = test_words::valid_tensor_tensor_bitvec,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::tensor_tensor(m, w, fx, e.value_or(gpsimd::Engine::DVE));
        },
    .generate = random_words::gen_tensor_tensor_bitvec,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_tensor_tensor_bitvec,
    .kernel_words = {{kernels_equiv::tensor_tensor_bitvec_word, 32, 400, 6,
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

// ---- clause cases (SPEC §4, §6): its share of the family's (tensor_tensor.h) ----

std::vector<ClauseCase> clause_cases() {
  return cases_of(Opcode::TensorTensorBitvec, tensor_tensor_clause_cases());
}
GPSIMD_CLAUSE_CASES(TensorTensorBitvec, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

namespace tensor_tensor {

// SPEC §3.8.2's raw-bits examples (INT16) and shift counts >= the width; no conversion.
TEST(TensorTensorBitvec, ShiftsWithCountsBeyondTheWidth) {
  auto bits = [](std::optional<Engine> e, uint8_t d, uint8_t o, const V& a, const V& b) {
    return elems(e, kBitvec, d, d, d, o, a, b, Generation::V2);
  };
  EXPECT_EQ(bits(kDve, dt::INT16, op::ARITH_SHIFT_RIGHT, {0x8000, 0x8000, 0x4000, 0x8001},
                 {3, 0x10, 1, 0xFFFF}),
            (V{0xF000, 0xFFFF, 0x2000, 0xFFFF}));
  EXPECT_EQ(
      bits(kPool, dt::INT16, op::LOGICAL_SHIFT_RIGHT, {0x8000, 0x8000, 0xFFFF}, {0xFFFF, 15, 16}),
      (V{0x0000, 0x0001, 0x0000}));
  EXPECT_EQ(
      bits(kDefault, dt::INT16, op::LOGICAL_SHIFT_LEFT, {0x1234, 0x1234, 0x1234}, {4, 15, 16}),
      (V{0x2340, 0x0000, 0x0000}));
  EXPECT_EQ(bits(kDve, dt::UINT16, op::ARITH_SHIFT_LEFT, {0xFFFF, 0x0001}, {1, 0x8000}),
            (V{0xFFFE, 0x0000}));
  // Unsigned dtypes too shift arithmetically right with bit w-1 (bits are bits).
  EXPECT_EQ(bits(kDve, dt::UINT32, op::ARITH_SHIFT_RIGHT, {0x80000000, 0x80000000, 0x7FFFFFFF},
                 {31, 40, 0xFFFFFFFF}),
            (V{0xFFFFFFFF, 0xFFFFFFFF, 0x00000000}));
  EXPECT_EQ(bits(kPool, dt::INT32, op::LOGICAL_SHIFT_LEFT, {1, 1, 0x80000001}, {31, 32, 0}),
            (V{0x80000000, 0, 0x80000001}));
  // An INT8 count of -1 is 255: every bit out.
  EXPECT_EQ(bits(kDve, dt::INT8, op::LOGICAL_SHIFT_LEFT, {0x01, 0x81}, {0xFF, 7}), (V{0, 0x80}));
  EXPECT_EQ(bits(kDve, dt::INT8, op::ARITH_SHIFT_RIGHT, {0x81, 0x7F}, {0xFF, 6}), (V{0xFF, 0x01}));
}

}  // namespace tensor_tensor

namespace tensor_tensor {

TEST(TensorTensorBitvec, BitwiseOpsAndBypassCopyBits) {
  auto bits = [](std::optional<Engine> e, uint8_t d, uint8_t o, const V& a, const V& b) {
    return elems(e, kBitvec, d, d, d, o, a, b, Generation::V3);
  };
  // BYPASS keeps every bit (no FP32 rounding as for 0x41), on dve and pool.
  for (auto e : {kDve, kPool})
    EXPECT_EQ(bits(e, dt::INT32, op::BYPASS, {0x01000001, 0x7F800001}, {5, 6}),
              (V{0x01000001, 0x7F800001}));
  EXPECT_EQ(bits(kDve, dt::UINT8, op::BITWISE_NOT, {0x00, 0xA5}, {0xFF, 0x12}), (V{0xFF, 0x5A}));
  EXPECT_EQ(bits(kPool, dt::INT16, op::BITWISE_AND, {0xF0F0, 0x1234}, {0x0FF0, 0xFFFF}),
            (V{0x00F0, 0x1234}));
  EXPECT_EQ(bits(kDve, dt::UINT32, op::BITWISE_OR, {0x80000000, 0}, {1, 0}), (V{0x80000001, 0}));
  EXPECT_EQ(bits(kDve, dt::INT8, op::BITWISE_XOR, {0xFF, 0x0F}, {0x0F, 0x0F}), (V{0xF0, 0x00}));
}

}  // namespace tensor_tensor

namespace tensor_tensor {

TEST(TensorTensorBitvec, FaultsChangeNothing) {
  Machine& m = busy_machine(Generation::V3);
  rm::TensorTensorWord x = tt_word(kBitvec, dt::UINT32, dt::UINT32, dt::UINT32, op::BITWISE_XOR, 4);
  x.ev = kSet9;
  expect_fault(m, x.encode(), FaultKind::UnsupportedOp, kAct);
  // Every INT64/UINT64 word faults, the 64-bit shifts included.
  rm::TensorTensorWord wide = x;
  wide.lo = dt::UINT64;
  wide.op = op::LOGICAL_SHIFT_LEFT;
  for (auto e : {kDefault, kDve, kPool})
    expect_fault(m, wide.encode(), FaultKind::UnsupportedOp, e);
  wide.lo = wide.hi = wide.out = dt::INT64;
  wide.op = op::BITWISE_AND;
  expect_fault(m, wide.encode(), FaultKind::UnsupportedOp, kDve);
  // Register-mode faults as for 0x41.
  rm::TensorTensorWord reg = x;
  reg.dst.addr = rm::reg_addr(6);
  m.registers[6] = rm::psum_addr(0, 0x100);
  expect_fault(m, reg.encode(), FaultKind::BadAddress, kPool);
  reg.dst.num[0] = 3;
  expect_fault(m, reg.encode(), FaultKind::ShapeMismatch, kDve);
  reg.dst.num[0] = 4;
  expect_ok(m, reg.encode(), on(kDve));  // a PSUM destination is fine on dve
  EXPECT_EQ(m.semaphores[9], 0x77u);
}

}  // namespace tensor_tensor

namespace tensor_tensor {

// Every architectural write of a TensorTensor word is in the trace, one region per
// destination partition.
TEST(TensorTensorBitvec, TraceReportsTheDestination) {
  Machine& m = fresh(Generation::V4);
  rm::TensorTensorWord x = tt_word(kBitvec, dt::UINT16, dt::UINT16, dt::UINT16, op::BITWISE_OR, 4);
  x.channels = 3;
  check_trace(m, x.encode(), {{SBUF, 0}, {SBUF, 1}, {SBUF, 2}});
}

}  // namespace tensor_tensor

}  // namespace
#endif
