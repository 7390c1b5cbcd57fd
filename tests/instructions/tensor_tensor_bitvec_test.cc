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
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

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
#endif
