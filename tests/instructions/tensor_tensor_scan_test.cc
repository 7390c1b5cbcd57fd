// TensorTensorScan (SPEC §4.20): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests and those of
// the S2S2D2_STT family (s2s2d2_stt.h).

#include "instructions/registry.h"
#include "instructions/s2s2d2_stt.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.20; the rows of §4.21 and §4.25 have the same fields.
inline std::vector<ExpectedField> s2s2d2_stt_fields() {
  return {
      {"header", 0, 4, K::Header},
      {"events", 4, 8, K::Events},
      {"src0_mem_pattern", 12, 12, K::Tensor, 2},
      {"src1_mem_pattern", 24, 12, K::Tensor, 2},
      {"op0", 36, 1, K::AluOp},
      {"op1", 37, 1, K::AluOp},
      {"reverse_operands", 38, 1, K::RevOps},
      {"imm0_src", 39, 1, K::ImmSrc},
      {"in0_in1_dtype", 40, 1, K::DtypePair},
      {"out_dtype", 41, 1, K::Dtype},
      {"num_active_channels", 42, 1, K::U8},
      {"imm0_dtype", 43, 1, K::Dtype},
      {"accumulator_cmd", 44, 1, K::AccumCmd},
      {"reserved", 45, 3, K::Reserved},
      {"dst_mem_pattern", 48, 12, K::Tensor, 2},
      {"imm0", 60, 4, K::ImmVal, 0, "imm0_src"},
  };
}

inline ExpectedInstr tensor_tensor_scan_row() {
  return ExpectedInstr{
      "TensorTensorScan", 0xe5, "S2S2D2_STT", Engine::DVE, {G::V2, G::V3, G::V4, G::V5},
      s2s2d2_stt_fields()};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_tensor_tensor_scan(): stt_word's layout, FP32 throughout, MULT then ADD, an FP32
// instruction immediate 0.5 as the initial.
inline Word valid_tensor_tensor_scan() {
  return valid_s2s2d2_stt(Opcode::TensorTensorScan, Dtype::FP32, Dtype::FP32, Dtype::FP32,
                          AluOp::MULT, AluOp::ADD, Dtype::FP32, f32_bits(0.5f), AccumCmd::IDLE);
}

}  // namespace gpsimd::test_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "TensorTensorScan",
    .opcode = Opcode::TensorTensorScan,
    .opcode_clause = "has_tensor_tensor_scan_opcode",
    .expected_row = expected_rows::tensor_tensor_scan_row,
    .valid_word = test_words::valid_tensor_tensor_scan,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::s2s2d2_stt(m, w, fx);
        },
    .generate =
        [](random_words::Builder& b) {
          return random_words::gen_s2s2d2_stt(b, rm::kTensorTensorScan);
        },
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = [](asm_words::Gen& g) { return asm_words::valid_s2s2d2_stt(g, 0xe5); },
    .no_fast_path_comparison = "the reference path is its only path (no fast kernel yet)",
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd {
namespace {

// ---- clause cases (SPEC §4.20, §6): its share of the family's (s2s2d2_stt.h) ----

std::vector<ClauseCase> clause_cases() {
  return cases_of(Opcode::TensorTensorScan, s2s2d2_stt_clause_cases());
}
GPSIMD_CLAUSE_CASES(TensorTensorScan, clause_cases);

// The clauses SPEC §4.20 ties together: an imm0_src of 3 with a BF16 imm0_dtype fails both
// s2s2d2_stt_imm0_dtype and has_valid_s2s2d2_stt_immediate; a pointer imm0 with a dtype
// without a size is not checked as a pointer (is_valid_dtype reports the dtype).
TEST(TensorTensorScanValidate, ClausesEvaluatedLiterally) {
  const Word base = test_words::valid_tensor_tensor_scan();
  Word w = base;
  set(w, "imm0_src", 3);
  set(w, "imm0_dtype", 0x6);
  EXPECT_EQ(clauses_of(validate(w, Generation::V3)),
            (std::vector<std::string>{"has_valid_s2s2d2_stt_immediate", "s2s2d2_stt_imm0_dtype"}));
  w = base;
  set(w, "imm0_src", 1);
  set(w, "imm0_dtype", 0x0);
  set(w, "imm0", 0x12345677);  // misaligned and no valid address: not evaluated
  EXPECT_EQ(clauses_of(validate(w, Generation::V3)), (std::vector<std::string>{"is_valid_dtype"}));
  // A register pointer needs no size: evaluated.
  set(w, "imm0_src", 2);
  set(w, "imm0", 0x100);
  EXPECT_EQ(clauses_of(validate(w, Generation::V3)),
            (std::vector<std::string>{"has_valid_s2s2d2_stt_immediate", "is_valid_dtype"}));
  // An instruction immediate is any 4 bytes; a pointer to a 2-byte value is aligned to 2.
  w = base;
  set(w, "imm0", 0xffffffff);
  EXPECT_TRUE(validate(w, Generation::V2).empty());
  set(w, "imm0_src", 1);
  set(w, "imm0_dtype", code(Dtype::BF16));
  set(w, "imm0", sbuf_addr(3, 0x602));
  EXPECT_TRUE(validate(w, Generation::V2).empty());
  set(w, "imm0_dtype", code(Dtype::FP32));
  EXPECT_EQ(clauses_of(validate(w, Generation::V2)),
            (std::vector<std::string>{"has_valid_s2s2d2_stt_immediate"}));
  // A PSUM-window address with an offset >= 16 KiB fails tensor2d_valid only.
  w = base;
  set_addr(w, "src0_mem_pattern", psum_addr(3, 0x100));
  set_addr(w, "src1_mem_pattern", psum_addr(3, 0x4000));
  EXPECT_EQ(clauses_of(validate(w, Generation::V3)), (std::vector<std::string>{"tensor2d_valid"}));
}

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4.20) ----

namespace stt {

// SPEC §4.20's example: reverse BOTH, op0 = op1 = SUBTRACT, initial 100.
TEST(TensorTensorScan, ReverseBothSubtractExample) {
  rm::SttWord x =
      stt_word(rm::kTensorTensorScan, dt::FP32, dt::FP32, dt::FP32, op::SUBTRACT, op::SUBTRACT, 3);
  x.rev = 3;
  x.imm0 = f32(100);
  EXPECT_EQ(run_elems(x, {f32(1), f32(2), f32(3)}, {f32(10), f32(20), f32(30)}),
            (V{f32(-89), f32(111), f32(-78)}));
  // No reverse: r = (x - s) - y: 1 - 100 - 10 = -109, 2 + 109 - 20 = 91, 3 - 91 - 30 = -118.
  x.rev = 0;
  EXPECT_EQ(run_elems(x, {f32(1), f32(2), f32(3)}, {f32(10), f32(20), f32(30)}),
            (V{f32(-109), f32(91), f32(-118)}));
}

// AWS's cumsum (data0 ones, op0 MULT, op1 ADD, the initial a (P, 1) FP32 tile through a
// pointer): the sequential FP32 prefix sum; a BF16 destination rounds each FP32 sum once,
// and the carry stays FP32.
TEST(TensorTensorScan, CumsumThroughAPointerAndTheCarryStaysFp32) {
  Machine& m = fresh(Generation::V3);
  const V ones(4, f32(1));
  // 2^24 + 1 is not an FP32: the sums round as np.cumsum(float32) does.
  const V data = {f32(16777216.0f), f32(1), f32(1), f32(0.5f)};
  for (unsigned p : {5u, 6u}) {
    poke(m, SBUF, p, 0x100, 4, ones);
    poke(m, SBUF, p, 0x200, 4, data);
  }
  poke(m, SBUF, 5, 0x600, 4, {f32(0)});
  poke(m, SBUF, 6, 0x600, 4, {f32(2)});
  rm::SttWord x =
      stt_word(rm::kTensorTensorScan, dt::FP32, dt::FP32, dt::FP32, op::MULT, op::ADD, 4);
  x.channels = 2;
  x.src0.addr = rm::sbuf_addr(5, 0x100);
  x.src1.addr = rm::sbuf_addr(5, 0x200);
  x.dst.addr = rm::sbuf_addr(5, 0x300);
  x.imm_src = 1;
  x.imm0 = rm::sbuf_addr(5, 0x600);
  expect_ok(m, x.encode());
  // Channel 0: 2^24, 2^24 (+1 rounds to even), 2^24 again, 2^24 (+0.5 too).
  EXPECT_EQ(peek(m, SBUF, 5, 0x300, 4, 4),
            (V{f32(16777216.0f), f32(16777216.0f), f32(16777216.0f), f32(16777216.0f)}));
  // Channel 1 starts at 2: 2^24 + 2, + 1 is a tie -> 2^24 + 4, + 1 -> 2^24 + 4, + 0.5.
  EXPECT_EQ(peek(m, SBUF, 6, 0x300, 4, 4),
            (V{f32(16777218.0f), f32(16777220.0f), f32(16777220.0f), f32(16777220.0f)}));
  // BF16 destination: the FP32 sums 1 + 1/256 * k are carried, each rounded once on the way
  // out: 1.00390625 is a tie (to 1.0), 1.0078125 is a BF16, 1.01171875 a tie (to 1.015625).
  Machine& b = fresh(Generation::V3);
  rm::SttWord y =
      stt_word(rm::kTensorTensorScan, dt::FP32, dt::FP32, dt::BF16, op::MULT, op::ADD, 3);
  y.imm0 = f32(1);
  poke(b, SBUF, 0, 0x100, 4, V(3, f32(1)));
  poke(b, SBUF, 0, 0x200, 4, V(3, f32(1.0f / 256)));
  expect_ok(b, y.encode());
  EXPECT_EQ(peek(b, SBUF, 0, 0x300, 2, 3), (V{0x3F80, 0x3F81, 0x3F82}));
}

// NKI's example: two words, the second seeded through a pointer to the first's last
// column, give the bits of one word over both halves.
TEST(TensorTensorScan, TwoHalvesChainedThroughAPointerEqualOneWord) {
  const V a = {f32(0.5f), f32(1.25f), f32(-0.75f), f32(3), f32(0.1f), f32(-2), f32(0.3f), f32(1)};
  const V b = {f32(1), f32(-0.2f), f32(7), f32(0.01f), f32(-5), f32(2.5f), f32(0.7f), f32(9)};
  rm::SttWord whole =
      stt_word(rm::kTensorTensorScan, dt::FP32, dt::FP32, dt::FP32, op::MULT, op::ADD, 8);
  const V one = run_elems(whole, a, b);
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, a);
  poke(m, SBUF, 0, 0x200, 4, b);
  rm::SttWord first =
      stt_word(rm::kTensorTensorScan, dt::FP32, dt::FP32, dt::FP32, op::MULT, op::ADD, 4);
  expect_ok(m, first.encode());
  rm::SttWord second = first;
  second.src0.addr = rm::sbuf_addr(0, 0x110);
  second.src1.addr = rm::sbuf_addr(0, 0x210);
  second.dst.addr = rm::sbuf_addr(0, 0x310);
  second.imm_src = 1;
  second.imm0 = rm::sbuf_addr(0, 0x30c);
  expect_ok(m, second.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x300, 4, 8), one);
  // c[0] = a[0]*0 + b[0], c[i] = a[i]*c[i-1] + b[i] in float32.
  float c = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    c = rm::as_float(a[i]) * c;
    c = c + rm::as_float(b[i]);
    EXPECT_EQ(one[i], rm::as_bits(c)) << i;
  }
}

// The scan runs over the whole walk, both dimensions, without a restart at a row, whatever
// the shapes of the three walks.
TEST(TensorTensorScan, ScansTheWholeWalkAcrossRows) {
  Machine& m = fresh(Generation::V4);
  poke(m, SBUF, 0, 0x100, 4, V(6, f32(1)));
  poke(m, SBUF, 0, 0x200, 4, {f32(1), f32(2), f32(3), f32(4), f32(5), f32(6)});
  rm::SttWord x =
      stt_word(rm::kTensorTensorScan, dt::FP32, dt::FP32, dt::FP32, op::MULT, op::ADD, 6);
  x.src0 = tensor2(rm::sbuf_addr(0, 0x100), 1, 2, 2, 3);  // rows of 2
  x.src1 = tensor2(rm::sbuf_addr(0, 0x200), 1, 3, 3, 2);  // rows of 3
  x.dst = tensor2(rm::sbuf_addr(0, 0x314), -1, 6, 0, 1);  // written backwards
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x300, 4, 6), (V{f32(21), f32(15), f32(10), f32(6), f32(3), f32(1)}));
}

// A destination on the sources scans the old values (its only feedback is the carry); a
// running MAX seeded with NaN returns the data (maxNum ignores the NaN carry); -0.0 is
// carried as it is.
TEST(TensorTensorScan, OverlapNanAndSignedZeroCarry) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, V(4, f32(1)));
  poke(m, SBUF, 0, 0x200, 4, {f32(1), f32(2), f32(3), f32(4)});
  rm::SttWord x =
      stt_word(rm::kTensorTensorScan, dt::FP32, dt::FP32, dt::FP32, op::MULT, op::ADD, 4);
  x.dst.addr = rm::sbuf_addr(0, 0x1fc);  // dst[j] on src1[j - 1]: dst[j + 1] on src1[j]
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x1fc, 4, 4), (V{f32(1), f32(3), f32(6), f32(10)}));
  // MAX(x, s) then BYPASS, seeded with a NaN: max(1, NaN) = 1, then 2, ...
  rm::SttWord mx =
      stt_word(rm::kTensorTensorScan, dt::FP32, dt::FP32, dt::FP32, op::MAX, op::BYPASS, 3);
  mx.imm0 = 0x7FC00000u;
  EXPECT_EQ(run_elems(mx, {f32(1), f32(-2), 0x7F800001u}, {0, 0, 0}), (V{f32(1), f32(1), f32(1)}));
  // ADD(x, s) with s = -0.0 and x = -0.0 gives -0.0, carried as it is to the next ordinal.
  rm::SttWord z =
      stt_word(rm::kTensorTensorScan, dt::FP32, dt::FP32, dt::FP32, op::ADD, op::BYPASS, 2);
  z.imm0 = 0x80000000u;
  EXPECT_EQ(run_elems(z, {0x80000000u, 0x80000000u}, {0, 0}), (V{0x80000000u, 0x80000000u}));
}

// Integer sources are rounded to FP32 on the way in, the result converted on the way out.
TEST(TensorTensorScan, IntegerSourcesAndDestination) {
  rm::SttWord x =
      stt_word(rm::kTensorTensorScan, dt::INT32, dt::INT16, dt::INT16, op::ADD, op::ADD, 3);
  x.imm0 = f32(0.5f);
  // r = (x + s) + y from s = 0.5: 1.5 + 2 = 3.5, written 4 (to even); 16777217 comes in as
  // 16777216, + 3.5 rounds to 16777220, - 1 is a tie back to 16777220, saturated to 0x7FFF;
  // -1 + 16777220 is a tie to 16777220 again.
  EXPECT_EQ(run_elems(x, {1, 16777217u, 0xFFFFFFFFu}, {2, 0xFFFF, 0}), (V{4, 0x7FFF, 0x7FFF}));
}

// Faults (SPEC §4.20): the initial is resolved when op0 is BYPASS; both sources resolving
// into PSUM; register-mode counts; every fault changes nothing.
TEST(TensorTensorScan, FaultsChangeNothing) {
  Machine& m = busy_machine(Generation::V3);
  rm::SttWord x =
      stt_word(rm::kTensorTensorScan, dt::FP32, dt::FP32, dt::FP32, op::BYPASS, op::ADD, 4);
  x.ev = kSet9;
  x.imm_src = 2;
  x.imm0 = 7;
  m.registers[7] = rm::sbuf_addr(127, 0x100);  // partitions 127..127: fine for one channel
  x.channels = 2;
  expect_fault(m, x.encode(), FaultKind::BadAddress);
  m.registers[7] = rm::sbuf_addr(0, 0x102);  // misaligned for an FP32
  expect_fault(m, x.encode(), FaultKind::BadAddress);
  m.registers[7] = rm::sbuf_addr(0, 0x100);
  x.src1.addr = rm::reg_addr(8);
  m.registers[8] = rm::psum_addr(0, 0x100);
  x.src0.addr = rm::psum_addr(1, 0x100);
  expect_fault(m, x.encode(), FaultKind::BadAddress);
  x.src0.addr = rm::sbuf_addr(1, 0x100);
  x.src1.num[0] = 3;
  expect_fault(m, x.encode(), FaultKind::ShapeMismatch);
  x.src1.num[0] = 4;
  expect_ok(m, x.encode());  // src1 in PSUM alone is fine
  EXPECT_EQ(m.semaphores[9], 0x77u);
}

}  // namespace stt

}  // namespace
#endif
