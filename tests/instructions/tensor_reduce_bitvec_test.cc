// TensorReduceBitvec (SPEC §4.19): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/tensor_reduce.h"

namespace gpsimd::expected_rows {

// SPEC §1, §4.16 and §4.19 (S4D4_TR, Copy's layout).
inline ExpectedInstr tensor_reduce_bitvec_row() {
  return ExpectedInstr{"TensorReduceBitvec",
                       0x52,
                       "S4D4_TR",
                       Engine::DVE,
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

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "TensorReduceBitvec",
    .opcode = Opcode::TensorReduceBitvec,
    .opcode_clause = "has_tensor_reduce_opcode",
    .expected_row = expected_rows::tensor_reduce_bitvec_row,
    .valid_word = test_words::valid_tensor_reduce_bitvec,
    .reference = refmodel::internal::tensor_reduce,
    .generate =
        [](random_words::Builder& b) {
          return random_words::gen_tensor_reduce(b, refmodel::kTensorReduceBitvec);
        },
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = [](asm_words::Gen& g) { return asm_words::valid_tensor_reduce(g, 0x52); },
    .kernel_words = {{kernels_equiv::tensor_reduce_bitvec_word, 52, 400, 6}},
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

namespace gpsimd {
namespace {

// ---- clause cases (SPEC §4, §6): its share of the family's (tensor_reduce.h) ----

std::vector<ClauseCase> clause_cases() {
  return cases_of(Opcode::TensorReduceBitvec, tensor_reduce_clause_cases());
}
GPSIMD_CLAUSE_CASES(TensorReduceBitvec, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

using tensor_reduce::reduce;
using tensor_reduce::tr_word;
constexpr uint8_t kBitvec = rm::kTensorReduceBitvec;

// ---- hand-checked effects (SPEC §4.19) ----

// The raw patterns folded with AND, OR, XOR, in every integer width; negated is ignored.
TEST(TensorReduceBitvec, RawBitsFolds) {
  const V u16 = {0xF0F0, 0x3C3C, 0xFF00, 0x0001, 0x8000, 0x7FFF};
  EXPECT_EQ(reduce(kBitvec, dt::UINT16, dt::UINT16, op::BITWISE_AND, u16, 3), (V{0x3000, 0x0000}));
  EXPECT_EQ(reduce(kBitvec, dt::UINT16, dt::UINT16, op::BITWISE_OR, u16, 3), (V{0xFFFC, 0xFFFF}));
  EXPECT_EQ(reduce(kBitvec, dt::UINT16, dt::UINT16, op::BITWISE_XOR, u16, 3), (V{0x33CC, 0xFFFE}));
  for (bool negated : {false, true}) {
    EXPECT_EQ(reduce(kBitvec, dt::INT8, dt::INT8, op::BITWISE_XOR, {0x80, 0x01, 0xFF}, 3, negated),
              V{0x7E});
    EXPECT_EQ(reduce(kBitvec, dt::INT32, dt::INT32, op::BITWISE_OR,
                     {0x80000000u, 0x00000001u, 0x7F800000u}, 3, negated),
              V{0xFF800001u});
    EXPECT_EQ(reduce(kBitvec, dt::UINT32, dt::UINT32, op::BITWISE_AND, {0xFFFFFFFFu}, 1, negated),
              V{0xFFFFFFFFu});
  }
}

// Every group over 4 dims (XYZW) and a destination walked backwards.
TEST(TensorReduceBitvec, GroupsOverEveryDimension) {
  Machine& m = fresh(Generation::V5);
  V v(16);
  for (unsigned j = 0; j < 16; ++j) v[j] = 1u << j;
  poke(m, SBUF, 0, 0x100, 2, v);
  rm::TensorReduceWord x =
      tr_word(kBitvec, dt::UINT16, dt::UINT16, op::BITWISE_OR, 0x5, {2, 2, 2, 2});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x800, 2, 1), V{0xFFFF});
  x = tr_word(kBitvec, dt::UINT16, dt::UINT16, op::BITWISE_XOR, 0x3, {2, 2, 2, 2});
  x.dst = rm::tensor4(rm::sbuf_addr(0, 0x906), -1, 4, 0, 1, 0, 1, 0, 1);  // reversed
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x900, 2, 4), (V{0xF000, 0x0F00, 0x00F0, 0x000F}));
}

// SPEC §3.9, §4.19: 0x52 runs on DVE only; a valid op other than AND, OR and XOR faults
// unsupported-op; POOL and ACT fail the engine clause.
TEST(TensorReduceBitvec, Engines) {
  Machine& m = busy_machine(Generation::V3);
  rm::TensorReduceWord x =
      tr_word(kBitvec, dt::INT32, dt::INT32, op::BITWISE_AND, 0x2, {4, 1, 1, 1});
  for (uint8_t o : {op::BYPASS, op::BITWISE_NOT, op::LOGICAL_SHIFT_LEFT, op::ARITH_SHIFT_RIGHT}) {
    rm::TensorReduceWord y = x;
    y.op = o;
    expect_unchanged(m, y.encode(), Status::Faulted, FaultKind::UnsupportedOp);
  }
  for (Engine e : {Engine::POOL, Engine::ACT})
    expect_unchanged(m, x.encode(), Status::Invalid, std::nullopt, ExecOptions{.engine = e});
  x.dst.addr = rm::psum_addr(0, 0x40);
  expect_ok(m, x.encode(), ExecOptions{.engine = Engine::DVE});
  // 1.0 & 2.0 & 3.0 & 4.0 as bit patterns: 0x3F800000 & 0x40000000 ... = 0.
  EXPECT_EQ(peek(m, PSUM, 0, 0x40, 4, 1), V{0});
}

}  // namespace
#endif
