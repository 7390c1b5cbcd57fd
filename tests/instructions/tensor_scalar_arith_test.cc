// TensorScalarArith (SPEC §4.15): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/tensor_scalar.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.15.
inline ExpectedInstr tensor_scalar_arith_row() {
  return {"TensorScalarArith", 0x43, "S3D3_TS", Engine::DVE, {G::V2, G::V3, G::V4, G::V5},
          s3d3_ts_fields()};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

inline Word valid_tensor_scalar_arith() {
  return valid_s3d3_ts(Opcode::TensorScalarArith);
}

}  // namespace gpsimd::test_words

namespace gpsimd::random_words {

inline Word gen_tensor_scalar_arith(Builder& b) {
  return gen_tensor_scalar(b, rm::kTensorScalarArith);
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_tensor_scalar_arith(Gen& g) {
  return valid_s3d3_ts(g, 0x43);
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "TensorScalarArith",
    .opcode = Opcode::TensorScalarArith,
    .opcode_clause = "has_tensor_scalar_opcode",
    .expected_row = expected_rows::tensor_scalar_arith_row,
    .valid_word = test_words::valid_tensor_scalar_arith,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::ts::execute(m, w, fx, e.value_or(gpsimd::Engine::DVE));
        },
    .generate = random_words::gen_tensor_scalar_arith,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_tensor_scalar_arith,
    .kernel_words = {{kernels_equiv::tensor_scalar_arith_word, 33, 600, 8,
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

// ---- clause cases (SPEC §4, §6): its share of the family's (tensor_scalar.h) ----

std::vector<ClauseCase> clause_cases() {
  return cases_of(Opcode::TensorScalarArith, tensor_scalar_clause_cases());
}
GPSIMD_CLAUSE_CASES(TensorScalarArith, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// NKI's examples (SPEC §4.15): a - 1.0 (op0 SUBTRACT, imm0 1.0, op1 BYPASS) and 1.0 - c
// (the same with reverse FIRST), bit for bit the float32 goldens.
TEST(TensorScalarArith, NkiSubtractOneAndOneMinus) {
  // 3.0, 0.5, -2.0, 1.0, inf, a NaN with a payload, -0.0, the smallest subnormal.
  const V x = {0x40400000, 0x3F000000, 0xC0000000, kOne, 0x7F800000, 0x7FC00001, 0x80000000, 1};
  // 2.0, -0.5, -3.0, +0.0, inf, the default NaN, -1.0, -1.0 (2^-149 - 1 rounds to -1).
  EXPECT_EQ(
      ts_result(ts_word(kArith, dt::FP32, dt::FP32, 8, aop::SUBTRACT, kOne), x),
      (V{0x40000000, 0xBF000000, 0xC0400000, 0, 0x7F800000, 0x7FC00000, 0xBF800000, 0xBF800000}));
  // 1 - x: -2.0, 0.5, 3.0, +0.0, -inf, the default NaN, 1.0, 1.0 (1 - 2^-149 rounds to 1).
  EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::FP32, 8, aop::SUBTRACT, kOne, aop::BYPASS, 0,
                              /*FIRST*/ 1),
                      x),
            (V{0xC0000000, 0x3F000000, 0x40400000, 0, 0xFF800000, 0x7FC00000, kOne, kOne}));
}

// NKI's e * f + 2.5 with f a (64, 1) tile (SPEC §4.15): op0 MULT by a pointer to f's
// column, op1 ADD 2.5; 64 channels, e a (64, 4) tile. Every value is exact in FP32.
TEST(TensorScalarArith, NkiMultiplyByAColumnThenAdd) {
  for (uint8_t opcode : {kArith, kPtrArith}) {
    SCOPED_TRACE(int{opcode});
    Machine& m = fresh(Generation::V3);
    TensorScalarWord x = ts_word(opcode, dt::FP32, dt::FP32, 4, aop::MULT, rm::sbuf_addr(0, 0x40),
                                 aop::ADD, 0x40200000);  // 2.5
    x.channels = 64;
    if (opcode == kArith) {
      x.imm0_src = 1;  // POINTER_IMMEDIATE
    } else {
      x.imm1 = rm::sbuf_addr(0, 0x44);  // the pointer form reads 2.5 from memory too
    }
    for (unsigned c = 0; c < 64; ++c) {
      poke(m, SBUF, c, 0x100, 4, {f32(1), f32(2), f32(3), f32(4)});  // e[c][k] = k + 1
      poke(m, SBUF, c, 0x40, 4, {f32(0.25f * static_cast<float>(c) - 4.0f), f32(2.5f)});
    }
    expect_ok(m, x.encode());
    for (unsigned c = 0; c < 64; ++c) {
      const float f = 0.25f * static_cast<float>(c) - 4.0f;
      EXPECT_EQ(peek(m, SBUF, 1 + c, 0x200, 4, 4),
                (V{f32(1 * f + 2.5f), f32(2 * f + 2.5f), f32(3 * f + 2.5f), f32(4 * f + 2.5f)}))
          << c;
    }
  }
}

// NKI's abs_max(-5, 3) = -5, abs_max(1, -1) = -1, abs_min(5, -3) = -3 (SPEC §4.15, V4+): the
// signed operand of the larger (smaller) magnitude, a tie giving the right operand.
TEST(TensorScalarArith, NkiAbsMaxAbsMin) {
  const auto one = [](uint8_t op, uint32_t x, uint32_t s) {
    return ts_result(ts_word(kArith, dt::FP32, dt::FP32, 1, op, s), {x}, Generation::V4)[0];
  };
  EXPECT_EQ(one(aop::ABS_MAX, 0xC0A00000, 0x40400000), 0xC0A00000u);  // -5 against 3
  EXPECT_EQ(one(aop::ABS_MAX, kOne, 0xBF800000), 0xBF800000u);        // 1 against -1: -1
  EXPECT_EQ(one(aop::ABS_MIN, 0x40A00000, 0xC0400000), 0xC0400000u);  // 5 against -3: -3
  EXPECT_EQ(one(aop::ABS_MIN, 0xC0000000, 0x40000000), 0x40000000u);  // -2 against 2: 2
  EXPECT_EQ(one(aop::ABS_MAX, 0x7FC00001, 0x40400000), 0x40400000u);  // NaN: the scalar
  EXPECT_EQ(one(aop::ABS_MAX, 0x40400000, 0x7F800001), 0x7FC00000u);  // a NaN b: default NaN
}

// SPEC §3.8, §4.15: a unary op under reverse computes on the scalar; the element is read
// and ignored.
TEST(TensorScalarArith, UnaryOpUnderReverseComputesOnTheScalar) {
  TensorScalarWord x = ts_word(kArith, dt::FP32, dt::FP32, 2, aop::ABSOLUTE_VALUE, 0x40400000);
  x.reverse = 1;                                                                   // FIRST
  EXPECT_EQ(ts_result(x, {0xC0A00000, 0x7FC00000}), (V{0x40400000, 0x40400000}));  // |3.0|
  x.reverse = 0;
  EXPECT_EQ(ts_result(x, {0xC0A00000, 0xFF800000}), (V{0x40A00000, 0x7F800000}));  // |x|
  // SQUARE (V4+) of the scalar -3.0 under BOTH; op1 BYPASS passes t.
  TensorScalarWord q = ts_word(kArith, dt::FP32, dt::FP32, 1, aop::SQUARE, 0xC0400000);
  q.reverse = 3;
  EXPECT_EQ(ts_result(q, {f32(7)}, Generation::V5), (V{f32(9)}));
}

// SPEC §3.8.1: the FP32 path holds for BYPASS too, in and out of the same dtype: INT32
// 0x01000001 becomes 0x01000000, a BF16 signalling NaN the canonical 0x7FC0; an FP32
// passes unchanged, signalling NaNs included.
TEST(TensorScalarArith, BypassBypassGoesThroughFp32) {
  EXPECT_EQ(ts_result(ts_word(kArith, dt::INT32, dt::INT32, 4, aop::BYPASS, 0),
                      {0x01000001, 0x7FFFFFFF, 0xFEFFFFFF, 0x00FFFFFF}),
            (V{0x01000000, 0x7FFFFFFF, 0xFF000000, 0x00FFFFFF}));  // 2^31 saturates
  EXPECT_EQ(ts_result(ts_word(kArith, dt::BF16, dt::BF16, 4, aop::BYPASS, 0),
                      {0x7F81, 0xFF81, 0x3F80, 0x8001}),
            (V{0x7FC0, 0xFFC0, 0x3F80, 0x8001}));
  EXPECT_EQ(
      ts_result(ts_word(kArith, dt::FP32, dt::FP32, 2, aop::BYPASS, 0), {0x7F800001, 0xFFC12345}),
      (V{0x7F800001, 0xFFC12345}));
  // The same words on the bitvec opcode copy the bits.
  EXPECT_EQ(ts_result(ts_word(kBitvec, dt::INT32, dt::INT32, 2, aop::BYPASS, 0),
                      {0x01000001, 0x7FFFFFFF}),
            (V{0x01000001, 0x7FFFFFFF}));
}

// SPEC §4.15: t stays FP32; only r is converted. (1 + 2^-20) + 1 - 2 = 2^-20 in BF16;
// rounding t to BF16 first would give 0.
TEST(TensorScalarArith, TheIntermediateStaysFp32) {
  EXPECT_EQ(
      ts_result(ts_word(kArith, dt::FP32, dt::BF16, 2, aop::ADD, kOne, aop::SUBTRACT, 0x40000000),
                {0x3F800008, kOne}),
      (V{0x3580, 0x0000}));
}

// SPEC §5.1: from FP32 to an integer rounds to nearest even and saturates; NaN is 0.
TEST(TensorScalarArith, IntegerOutputsRoundAndSaturate) {
  EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::INT8, 8, aop::BYPASS, 0),
                      {f32(300), f32(-1e9f), 0x7FC00000, f32(2.5f), f32(3.5f), f32(-2.5f),
                       0x80000000, 0x7F800000}),
            (V{0x7F, 0x80, 0x00, 0x02, 0x04, 0xFE, 0x00, 0x7F}));
  // UINT16 out of FP16 data times 4: -1 -> 0, 65535.5 rounds to 65536 and saturates.
  EXPECT_EQ(ts_result(ts_word(kArith, dt::FP16, dt::UINT16, 3, aop::MULT, f32(4)),
                      {0xBC00, 0x7BFF, 0x3400}),  // -1.0, 65504, 0.25
            (V{0x0000, 0xFFFF, 0x0001}));
  EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::UINT16, 1, aop::ADD, f32(0.5f)), {f32(65535)}),
            (V{0xFFFF}));
}

// SPEC §4.15: the reverse flags make the scalar the left operand of op0 (FIRST), op1
// (SECOND) or both, with x = 4, s0 = 1, s1 = 10 and two SUBTRACTs.
TEST(TensorScalarArith, ReverseFlagsPickTheLeftOperand) {
  const float want[4] = {(4 - 1) - 10, (1 - 4) - 10, 10 - (4 - 1), 10 - (1 - 4)};
  for (uint8_t rev = 0; rev < 4; ++rev)
    EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::FP32, 1, aop::SUBTRACT, kOne, aop::SUBTRACT,
                                f32(10), rev),
                        {f32(4)}),
              (V{f32(want[rev])}))
        << int{rev};
  // BYPASS passes the data side whatever the flag: op1 BYPASS with BOTH gives t = 1 + x.
  EXPECT_EQ(
      ts_result(ts_word(kArith, dt::FP32, dt::FP32, 1, aop::ADD, kOne, aop::BYPASS, f32(100), 3),
                {f32(4)}),
      (V{f32(5)}));
}

// SPEC §3.8.2 through TensorScalarArith, one element per case (x op0 s0, op1 BYPASS).
TEST(TensorScalarArith, Fp32OpsOfSpec) {
  struct Case {
    uint8_t op;
    uint32_t x, s, want;
  };
  const Case cases[] = {
      {aop::ADD, kOne, 0x7F800001, 0x7FC00000},         // a NaN operand: the default NaN
      {aop::ADD, 0x7F800000, 0xFF800000, 0x7FC00000},   // inf - inf
      {aop::MULT, 0, 0x7F800000, 0x7FC00000},           // 0 * inf
      {aop::ADD, 0x80000000, 0x80000000, 0x80000000},   // -0 + -0 = -0
      {aop::SUBTRACT, kOne, kOne, 0},                   // x - x = +0
      {aop::MULT, 0x80000000, kOne, 0x80000000},        // -0 * 1 = -0
      {aop::MULT, 0x00800000, 0x3F000000, 0x00400000},  // a subnormal result is kept
      {aop::MAX, 0x80000000, 0, 0},                     // -0 < +0
      {aop::MIN, 0, 0x80000000, 0x80000000},
      {aop::MIN, 0x7FC00001, 0xC0000000, 0xC0000000},  // maxNum/minNum ignore a NaN
      {aop::MAX, 0x7FC00001, 0xFFC00000, 0x7FC00000},  // two NaNs: the default NaN
      {aop::IS_GT, f32(2), kOne, kOne},
      {aop::IS_LE, f32(2), kOne, 0},
      {aop::IS_EQ, 0x80000000, 0, kOne},  // -0 == +0
      {aop::IS_NE, 0x7FC00000, 0x7FC00000, kOne},
      {aop::IS_GE, 0x7FC00000, 0x7FC00000, 0},
      {aop::LOGICAL_AND, 0x7FC00000, kOne, kOne},  // NaN is true
      {aop::LOGICAL_OR, 0x80000000, 0, 0},         // -0 is false
      {aop::LOGICAL_XOR, f32(3), 0, kOne},
      {aop::ABSOLUTE_DIFF, kOne, f32(3), f32(2)},
      {aop::ABSOLUTE_VALUE, 0x80000000, f32(3), 0},
      {aop::ABSOLUTE_VALUE, 0xFFC12345, 0, 0x7FC00000},  // |NaN|: the default NaN
  };
  for (const Case& c : cases)
    EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::FP32, 1, c.op, c.s), {c.x})[0], c.want)
        << std::hex << int{c.op} << " " << c.x << " " << c.s;
  // RE_LU (V4+): NaN and -0 give +0.
  for (uint32_t x : {0x7FC00000u, 0x80000000u, 0xC0000000u})
    EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::FP32, 1, aop::RE_LU, 0), {x}, Generation::V4),
              (V{0}));
  // Compares into an integer dtype give 1 / 0, into BF16 0x3F80.
  EXPECT_EQ(ts_result(ts_word(kArith, dt::INT32, dt::INT32, 2, aop::IS_GT, f32(5)), {6, 5}),
            (V{1, 0}));
  EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::BF16, 1, aop::IS_LT, f32(5)), {f32(-1)}),
            (V{0x3F80}));
}

// SPEC §3.9: TensorScalar runs on dve only; pool and act fault unsupported-op (after the
// wait, before anything is resolved), changing nothing, for every opcode.
TEST(TensorScalarArith, OtherEnginesFaultUnsupportedOp) {
  for (uint8_t opcode : {kArith, kBitvec, kPtrArith, kPtrBitvec}) {
    SCOPED_TRACE(int{opcode});
    Machine& m = busy_machine();
    const bool bitvec = opcode == kBitvec || opcode == kPtrBitvec;
    const bool pointer = opcode == kPtrArith || opcode == kPtrBitvec;
    const uint32_t imm = pointer ? rm::sbuf_addr(0, 0x100) : bitvec ? 0 : kOne;
    TensorScalarWord x = bitvec ? ts_word(opcode, dt::INT32, dt::INT32, 4, aop::BITWISE_XOR, imm)
                                : ts_word(opcode, dt::FP32, dt::FP32, 4, aop::ADD, imm);
    x.ev = kSet9;
    for (Engine e : {Engine::POOL, Engine::ACT})
      expect_ts_fault(m, x.encode(), FaultKind::UnsupportedOp, e);
    // The wait comes first.
    TensorScalarWord blocked = x;
    blocked.ev = rm::Events{2, 4, 1, 9, 7};  // waits for semaphore 4 == 7
    expect_ts_fault(m, blocked.encode(), FaultKind::SyncWouldBlock, Engine::POOL);
    // Then unsupported-op, before a register that does not resolve.
    TensorScalarWord bad = x;
    bad.src.addr = rm::reg_addr(20);
    m.registers[20] = 0x60000000u;
    expect_ts_fault(m, bad.encode(), FaultKind::UnsupportedOp, Engine::ACT);
    expect_ts_fault(m, bad.encode(), FaultKind::BadAddress, Engine::DVE);
    // On dve (also when named) it runs.
    for (std::optional<Engine> e : {std::optional<Engine>{}, std::optional{Engine::DVE}}) {
      Machine& ok = busy_machine();
      const ExecResult r = run(ok, x.encode(), ExecOptions{.engine = e});
      EXPECT_TRUE(r.ok()) << r.message();
      EXPECT_EQ(ok.semaphores[9], 0x77u);
    }
  }
}

// SPEC §3.8.3, §3.9: RSQRT's arm and CRC32 validate and fault; so does the V5 integer arm
// on dve.
TEST(TensorScalarArith, UnmodelledOpsAndTheIntegerArmFault) {
  for (Generation g : {Generation::V2, Generation::V5}) {
    Machine& m = busy_machine(g);
    for (uint8_t opcode : {kArith, kPtrArith}) {
      TensorScalarWord x = ts_word(opcode, dt::FP32, dt::FP32, 4, aop::RSQRT, 0);
      x.ev = kSet9;
      ASSERT_TRUE(gpsimd::validate(x.encode(), g).empty());
      expect_ts_fault(m, x.encode(), FaultKind::UnsupportedOp);
    }
    for (uint8_t opcode : {kBitvec, kPtrBitvec}) {
      TensorScalarWord x =
          ts_word(opcode, dt::INT32, dt::INT32, 4, aop::BITWISE_AND, 0, aop::CRC32, 0);
      x.ev = kSet9;
      ASSERT_TRUE(gpsimd::validate(x.encode(), g).empty());
      expect_ts_fault(m, x.encode(), FaultKind::UnsupportedOp);
    }
  }
  Machine& m = busy_machine(Generation::V5);
  for (uint8_t op :
       {uint8_t{0xC4}, uint8_t{0xD1}, uint8_t{0xCB}}) {  // ADD_INT, IS_GT_INT, ABS_MAX_INT
    TensorScalarWord x = ts_word(kArith, dt::INT32, dt::INT32, 4, op, 5, op, 6);
    ASSERT_TRUE(gpsimd::validate(x.encode(), Generation::V5).empty());
    expect_ts_fault(m, x.encode(), FaultKind::UnsupportedOp);
  }
}

// SPEC §4.15: both immediates are resolved, even when their op is BYPASS; a register
// pointer that breaks a rule faults bad-address.
TEST(TensorScalarArith, ImmediatesResolveEvenWhenTheirOpIsBypass) {
  Machine& m = busy_machine();
  TensorScalarWord x = ts_word(kArith, dt::FP32, dt::FP32, 4, aop::ADD, kOne, aop::BYPASS, 12);
  x.ev = kSet9;
  x.imm1_src = 2;  // REG_PTR_IMMEDIATE: register 12
  x.channels = 2;
  for (uint32_t a : {rm::sbuf_addr(0, 0x102),  // an FP32 pointer must be aligned to 4
                     rm::sbuf_addr(127, 0x100), 0x80000001u, rm::psum_addr(0, 0x4000)}) {
    SCOPED_TRACE(testing::Message() << std::hex << a);
    m.registers[12] = a;
    expect_ts_fault(m, x.encode(), FaultKind::BadAddress);
  }
  // PSUM is fine on dve; the BYPASS op1 leaves t = x + 1.
  m.registers[12] = rm::psum_addr(3, 0x100);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 4), (V{f32(2), f32(3), f32(4), f32(5)}));
}

}  // namespace
#endif
