// Copy (SPEC §4.16): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/copy.h"

#include "instructions/registry.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.16: Copy, S4D4_TR, default engine POOL (an engine input, §3.9).
inline ExpectedInstr copy_row() {
  return ExpectedInstr{"Copy",
                       0x46,
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

inline Word valid_copy() {
  return valid_s4d4_tr(Opcode::Copy, s4d4_tr_word::kCopyOut);
}

}  // namespace gpsimd::test_words

namespace gpsimd::random_words {

inline Word gen_copy(Builder& b) {
  return gen_copy_cast(b, rm::kCopy);
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_copy(Gen& g) {
  return valid_copy_cast(g, 0x46);
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "Copy",
    .opcode = Opcode::Copy,
    .opcode_clause = "has_copy_opcode",
    .expected_row = expected_rows::copy_row,
    .valid_word = test_words::valid_copy,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::copy_cast(m, w, e.value_or(gpsimd::Engine::POOL), fx);
        },
    .generate = random_words::gen_copy,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_copy,
    .kernel_words = {{kernels_equiv::copy_word, 31, 600, 6}},
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
  return cases_of(Opcode::Copy, copy_cast_clause_cases());
}
GPSIMD_CLAUSE_CASES(Copy, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// SPEC §4.16's NKI example: test_nki_isa_tensor_copy copies an 8x8 FP32 tile on the
// Vector engine: 8 channels from partition 0, 8 contiguous elements each; the output
// equals the input bit for bit, also into PSUM on DVE, and the PSUM word is invalid on
// POOL (the default engine).
TEST(Copy, NkiTensorCopyExampleOnTheVectorEngine) {
  for (bool to_psum : {false, true}) {
    SCOPED_TRACE(to_psum ? "to PSUM" : "to SBUF");
    Machine& m = fresh(Generation::V3);
    for (unsigned p = 0; p < 8; ++p) {
      V row;
      for (unsigned j = 0; j < 8; ++j) row.push_back(f32(static_cast<float>(p * 8 + j) * 1.37f));
      row[p] = 0x7FA00001u;  // a signalling NaN with a payload: bits unchanged too
      poke(m, SBUF, p, 0, 4, row);
    }
    rm::CopyCastWord x;
    x.in = x.out = dt::FP32;
    x.channels = 8;
    x.src = tensor4(rm::sbuf_addr(0, 0), 1, 8, 8, 1, 8, 1, 8, 1);
    x.dst =
        tensor4(to_psum ? rm::psum_addr(0, 0x40) : rm::sbuf_addr(0, 0x200), 1, 8, 8, 1, 8, 1, 8, 1);
    expect_ok(m, x.encode(), on(Engine::DVE));
    for (unsigned p = 0; p < 8; ++p)
      EXPECT_EQ(peek(m, to_psum ? PSUM : SBUF, p, to_psum ? 0x40 : 0x200, 4, 8),
                peek(m, SBUF, p, 0, 4, 8))
          << "partition " << p;
    if (to_psum) {
      expect_unchanged(m, x.encode(), Status::Invalid, std::nullopt, on(Engine::POOL));
      expect_unchanged(m, x.encode(), Status::Invalid, std::nullopt);  // default: POOL
    }
  }
}

// SPEC §4.16: equal dtypes, the bits unchanged on every engine (ACT too on V3..V5):
// NaN payloads, -0.0, INT32 beyond 2^24 included.
TEST(Copy, EveryDtypeKeepsItsBitsOnEveryEngine) {
  struct Case {
    uint8_t dtype;
    V bits;
  };
  const Case cases[] = {
      {dt::INT8, {0x80, 0xFF, 0x7F, 0x01}},
      {dt::UINT8, {0xFF, 0x00, 0x80}},
      {dt::INT16, {0x8000, 0xFFFF, 0x1234}},
      {dt::UINT16, {0xFFFF, 0x8001}},
      {dt::INT32, {0x01000001, 0x7FFFFFFF, 0x80000001, 0xFFFFFFFF}},
      {dt::UINT32, {0xFFFFFFFF, 0x01000001, 0x80000000}},
      {dt::BF16, {0x7F81, 0xFF81, 0x8000, 0x0001}},  // sNaNs, -0.0, a subnormal
      {dt::FP16, {0x7C01, 0xFD01, 0x8000, 0x0001}},
      {dt::FP32, {0x7F800001, 0xFFC00001, 0x80000000, 0x00000001}},
      {dt::FP8_E3, {0x71, 0xF9, 0x80, 0x01}},
      {dt::FP8_E4, {0x79, 0xFB, 0x80, 0x01}},
      {dt::FP8_E5, {0x7D, 0xFF, 0x80, 0x01}},
  };
  for (const Case& c : cases)
    for (std::optional<Engine> e :
         {std::optional<Engine>{}, std::optional<Engine>(Engine::POOL),
          std::optional<Engine>(Engine::DVE), std::optional<Engine>(Engine::ACT)})
      for (Generation g : {Generation::V3, Generation::V5}) {
        SCOPED_TRACE(testing::Message() << int{c.dtype} << " engine " << (e ? int(*e) : -1));
        EXPECT_EQ(cast_once(rm::kCopy, c.dtype, c.dtype, c.bits, e, g), c.bits);
      }
}

// SPEC §4.16: on ACT on V2 every element goes through FP32: INT32 2^24 + 1 becomes 2^24,
// 2^31 - 1 stays 2^31 - 1 by saturation, a BF16 signalling NaN 0x7F81 becomes 0x7FC0;
// FP32 is unchanged, signalling NaNs included. POOL and DVE on V2 keep the bits.
TEST(Copy, ActOnV2GoesThroughFp32) {
  const V i32 = {0x01000001, 0x7FFFFFFF, 0x80000000, 0x00FFFFFF, 0xFEFFFFFF};
  // 0xFEFFFFFF = -(2^24 + 1): rounds to -2^24 = 0xFF000000.
  EXPECT_EQ(cast_once(rm::kCopy, dt::INT32, dt::INT32, i32, Engine::ACT, Generation::V2),
            (V{0x01000000, 0x7FFFFFFF, 0x80000000, 0x00FFFFFF, 0xFF000000}));
  EXPECT_EQ(cast_once(rm::kCopy, dt::BF16, dt::BF16, {0x7F81, 0xFF81, 0x3F80}, Engine::ACT,
                      Generation::V2),
            (V{0x7FC0, 0xFFC0, 0x3F80}));
  EXPECT_EQ(cast_once(rm::kCopy, dt::FP32, dt::FP32, {0x7F800001, 0xFF800001}, Engine::ACT,
                      Generation::V2),
            (V{0x7F800001, 0xFF800001}));
  // FP8 NaNs become canonical; UINT32 2^32 - 1 rounds to 2^32 and saturates back.
  EXPECT_EQ(cast_once(rm::kCopy, dt::FP8_E4, dt::FP8_E4, {0x79, 0x77}, Engine::ACT, Generation::V2),
            (V{0x7C, 0x77}));
  EXPECT_EQ(cast_once(rm::kCopy, dt::UINT32, dt::UINT32, {0xFFFFFFFF, 0x01000003}, Engine::ACT,
                      Generation::V2),
            (V{0xFFFFFFFF, 0x01000004}));
  for (Engine e : {Engine::POOL, Engine::DVE}) {
    EXPECT_EQ(cast_once(rm::kCopy, dt::INT32, dt::INT32, i32, e, Generation::V2), i32);
    EXPECT_EQ(cast_once(rm::kCopy, dt::BF16, dt::BF16, {0x7F81}, e, Generation::V2), V{0x7F81});
  }
}

// The walks pair by ordinal; only the counts agree. A zero destination step lets the
// later ordinal win; a zero source step reads one element many times.
TEST(Copy, ShapesDifferZeroStepsAndFourDimensions) {
  Machine& m = fresh(Generation::V4);
  poke(m, SBUF, 3, 0x100, 4, {10, 11, 12, 13, 14, 15});
  rm::CopyCastWord x = cc_word(rm::kCopy, dt::INT32, dt::INT32, 6);
  // src as 2 rows of 3 walked column-major (steps 3, 1); dst dense.
  x.src = tensor4(rm::sbuf_addr(3, 0x100), 3, 2, 1, 3, 0, 1, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 3, 0x800, 4, 6), (V{10, 13, 11, 14, 12, 15}));
  // dst: every ordinal on one element: the last (ordinal 5, element 15) wins.
  x.src = tensor4(rm::sbuf_addr(3, 0x100), 1, 6, 0, 1, 0, 1, 0, 1);
  x.dst = tensor4(rm::sbuf_addr(3, 0x900), 0, 2, 0, 3, 0, 1, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 3, 0x900, 4, 2), (V{15, 0}));
  // src broadcast: a zero step reads element 0 six times; dst reversed (step -1).
  x.src = tensor4(rm::sbuf_addr(3, 0x104), 0, 6, 0, 1, 0, 1, 0, 1);
  x.dst = tensor4(rm::sbuf_addr(3, 0xA14), -1, 6, 0, 1, 0, 1, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 3, 0xA00, 4, 6), (V{11, 11, 11, 11, 11, 11}));
  // Four dimensions both sides: src nums 2x1x3x1 (steps 1, 0, 2, 0) = 10, 12, 14 / 11, 13,
  // 15 interleaved; dst 1x2x1x3 with steps that scatter.
  x.src = tensor4(rm::sbuf_addr(3, 0x100), 1, 2, 0, 1, 2, 3, 0, 1);
  x.dst = tensor4(rm::sbuf_addr(3, 0xB00), 0, 1, 4, 2, 0, 1, 1, 3);
  expect_ok(m, x.encode());
  // Ordinal j = i1 + 2*i3 of dst goes to element 4*i1 + i3: 0, 4, 1, 5, 2, 6.
  EXPECT_EQ(peek(m, SBUF, 3, 0xB00, 4, 7), (V{10, 12, 14, 0, 11, 13, 15}));
}

// SPEC §4: sources are read before any write, so overlapping operands behave as if
// copied first; channels use their own partitions.
TEST(Copy, OverlapReadsFirstAndChannelsUseTheirPartitions) {
  Machine& m = fresh(Generation::V3);
  for (unsigned p = 3; p < 6; ++p) poke(m, SBUF, p, 0x100, 2, {p, p + 10, p + 20, p + 30});
  rm::CopyCastWord x = cc_word(rm::kCopy, dt::UINT16, dt::UINT16, 4);
  x.channels = 3;
  x.dst = tensor4(rm::sbuf_addr(3, 0x102), 1, 4, 0, 1, 0, 1, 0, 1);  // one element up
  expect_ok(m, x.encode());
  for (unsigned p = 3; p < 6; ++p)
    EXPECT_EQ(peek(m, SBUF, p, 0x100, 2, 5), (V{p, p, p + 10, p + 20, p + 30})) << p;
  x.dst = tensor4(rm::sbuf_addr(3, 0x0FE), 1, 4, 0, 1, 0, 1, 0, 1);  // one element down
  expect_ok(m, x.encode());
  for (unsigned p = 3; p < 6; ++p)
    // The source was p, p, p+10, p+20 (after the first copy); 0x106 keeps p+20.
    EXPECT_EQ(peek(m, SBUF, p, 0x0FE, 2, 5), (V{p, p, p + 10, p + 20, p + 20})) << p;
}

// Register-mode operands resolve at execution; every fault changes nothing; the kinds
// are SPEC §6's for Copy and Cast: sync-would-block, bad-address, too-large, never
// shape-mismatch or unsupported-op.
TEST(Copy, RegisterModeAndFaultsChangeNothing) {
  Machine& m = busy_machine(Generation::V3);
  rm::CopyCastWord x = cc_word(rm::kCopy, dt::FP32, dt::FP32, 4);
  x.channels = 2;
  x.src = tensor4(rm::reg_addr(3), 1, 4, 0, 1, 0, 1, 0, 1);
  x.dst = tensor4(rm::reg_addr(4), 1, 4, 0, 1, 0, 1, 0, 1);
  x.ev = kSet9;
  m.registers[3] = rm::sbuf_addr(0, 0x100);
  m.registers[4] = rm::sbuf_addr(40, 0x200);
  rm::CopyCastWord wait = x;
  wait.ev = rm::Events{1, 9, 0, 0, 4};  // semaphore 9 >= 4 never holds (it is 3)
  expect_unchanged(m, wait.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  for (Engine e : kAllEnginesInTest) {
    SCOPED_TRACE(int(e));
    for (uint32_t a : {rm::sbuf_addr(0, 0x102),       // misaligned
                       rm::sbuf_addr(127, 0x100),     // partitions 127..128
                       rm::sbuf_addr(0, 224 * 1024),  // beyond the V3 partition
                       0x40000100u,                   // mode bits
                       rm::reg_addr(2)}) {            // a register holds no register-mode address
      m.registers[3] = a;
      expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress, on(e));
    }
    m.registers[3] = rm::psum_addr(0, 0x100);  // PSUM: a bad address on POOL only
    if (e == Engine::POOL)
      expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress, on(e));
    m.registers[3] = rm::sbuf_addr(0, 0x100);
    m.registers[4] = rm::psum_addr(1, 0x3FF4);  // the walk ends past 16 KiB
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress, on(e));
    m.registers[4] = rm::sbuf_addr(40, 0x200);
  }
  // bad-address before too-large: a walk of 2^24 + 1 elements with a bad register.
  rm::CopyCastWord big = x;
  big.src = tensor4(rm::reg_addr(3), 0, 4097, 0, 4096, 0, 1, 0, 1);
  big.dst = tensor4(rm::sbuf_addr(0, 0x400), 0, 4097, 0, 4096, 0, 1, 0, 1);
  expect_unchanged(m, big.encode(), Status::Faulted, FaultKind::TooLarge);
  m.registers[3] = rm::sbuf_addr(0, 0x101);
  expect_unchanged(m, big.encode(), Status::Faulted, FaultKind::BadAddress);
  m.registers[3] = rm::sbuf_addr(0, 0x100);
  // It runs: channels 0 and 1 from partitions 0 and 1 to partitions 40 and 41.
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 40, 0x200, 4, 4), (V{f32(1), f32(2), f32(3), f32(4)}));
  EXPECT_EQ(peek(m, SBUF, 41, 0x200, 4, 4), (V{f32(1), f32(2), f32(3), f32(4)}));
  EXPECT_EQ(m.semaphores[9], 0x77u);
  // From PSUM on DVE through a register.
  m.registers[3] = rm::psum_addr(0, 0x100);
  x.src.num[0] = 2;
  x.dst.num[0] = 2;
  expect_ok(m, x.encode(), on(Engine::DVE));
  EXPECT_EQ(peek(m, SBUF, 40, 0x200, 4, 3), (V{f32(5), f32(6), f32(3)}));
  // Invalid words change nothing: unequal dtypes, unequal counts (register mode too).
  rm::CopyCastWord bad = x;
  bad.out = dt::FP32R;
  expect_unchanged(m, bad.encode(), Status::Invalid, std::nullopt);
  bad = x;
  bad.dst.num[1] = 2;
  expect_unchanged(m, bad.encode(), Status::Invalid, std::nullopt);
}

}  // namespace

namespace gpsimd {
namespace {

// ---- Copy and Cast: every dtype pair, and the engine input (SPEC §3.9, §4.16, §4.17) ----

// SPEC §4.17: every pair of the 12 input dtypes and 13 output dtypes is a valid Cast.
TEST(CopyCast, EveryCastPairIsValid) {
  const Dtype data[] = {Dtype::INT8,  Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16,
                        Dtype::INT32, Dtype::UINT32, Dtype::BF16,   Dtype::FP16,
                        Dtype::FP32,  Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};
  unsigned pairs = 0;
  for (Dtype in : data) {
    std::vector<Dtype> outs(std::begin(data), std::end(data));
    outs.push_back(Dtype::FP32R);
    for (Dtype out : outs) {
      Word w = valid_word(Opcode::Cast);
      set(w, "in_dtype", code(in));
      set(w, "out_dtype", code(out));
      ++pairs;
      for (Generation g : generations_of(CA))
        for (Engine e : kAllEngines)
          EXPECT_TRUE(validate(w, g, ValidateOptions{false, e}).empty())
              << name_of(in) << " -> " << name_of(out) << " " << gen_text(g)
              << describe(validate(w, g, ValidateOptions{false, e}));
    }
  }
  EXPECT_EQ(pairs, 12u * 13u);
}

// V4 and V5 have the same geometry and instructions: a Copy's or Cast's diagnostics are the
// same on both unless its op is SYMMETRIC_CLAMP (0x24, an enumerator on V5 only, SPEC
// §3.3) or no enumerator of V4 at all (is_valid_enum names each generation's set).
TEST(CopyCast, V4AndV5ReportAlike) {
  for (unsigned op = 0; op < 256; ++op) {
    if (op == 0x24 || (op > 0x1d && op < 0x20) || (op > 0x24 && op < 0xc4) || op > 0xe1) continue;
    for (Opcode o : {CP, CA}) {
      const Word w = with(valid_word(o), [op](Word& x) { set(x, "op", op); });
      EXPECT_EQ(validate(w, G::V4), validate(w, G::V5))
          << hex8_of(op) << describe(validate(w, G::V4));
      if (op != 0) {
        EXPECT_FALSE(validate(w, G::V4).empty()) << hex8_of(op);  // not BYPASS
      }
    }
  }
  // SYMMETRIC_CLAMP: is_valid_enum fails on V4 only; s4d4_tr_op_bypass on both.
  const Word w = with(valid_word(CP), [](Word& x) { set(x, "op", 0x24); });
  EXPECT_EQ(validate(w, G::V4).size(), validate(w, G::V5).size() + 1)
      << describe(validate(w, G::V4));
}

// SPEC §3.9 item 1: on DVE and ACT a Copy or Cast may read and write PSUM (a write with a
// 4-byte dtype); on POOL, the default, it may not. The clause set is otherwise the same
// on every engine.
TEST(CopyCast, PsumFollowsTheEngine) {
  for (Opcode op : {CP, CA}) {
    for (const char* field : {"src_mem_pattern", "dst_mem_pattern"}) {
      Word w = valid_word(op);
      set(w, "out_dtype", code(Dtype::FP32));  // Cast: a 4-byte destination too
      set_addr(w, field, psum_addr(5, 0x40));
      for (Generation g : generations_of(op)) {
        for (Engine e : {Engine::DVE, Engine::ACT})
          EXPECT_TRUE(validate(w, g, ValidateOptions{false, e}).empty())
              << mnemonic(op) << " " << field << " " << engine_id(e)
              << describe(validate(w, g, ValidateOptions{false, e}));
        for (std::optional<Engine> e :
             {std::optional<Engine>(Engine::POOL), std::optional<Engine>(std::nullopt)})
          EXPECT_TRUE(fails_alone(validate(w, g, ValidateOptions{false, e}), op, "tensor4d_valid",
                                  field, hex32(psum_addr(5, 0x40)), "SBUF"))
              << mnemonic(op) << " " << field;
      }
    }
    // Both operands in PSUM: fine on DVE (no rule against it for S4D4_TR).
    Word both = valid_word(op);
    set(both, "out_dtype", code(Dtype::FP32));
    set_addr(both, "src_mem_pattern", psum_addr(0, 0));
    set_addr(both, "dst_mem_pattern", psum_addr(0, 0x100));
    EXPECT_TRUE(validate(both, G::V3, ValidateOptions{false, Engine::DVE}).empty());
  }
}

// Validation of a word of §4.1-§4.13 ignores the engine input (SPEC §3.9).
TEST(CopyCast, OtherInstructionsIgnoreTheEngineInput) {
  Word w = valid_word(Opcode::Max8);
  set_addr(w, "src_mem_pattern", psum_addr(5, 0x100));
  for (Engine e : kAllEngines) EXPECT_TRUE(validate(w, G::V3, ValidateOptions{false, e}).empty());
}

}  // namespace
}  // namespace gpsimd
#endif
