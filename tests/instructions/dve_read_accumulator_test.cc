// DveReadAccumulator (SPEC §4.13): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.13.
inline ExpectedInstr dve_read_accumulator_row() {
  return ExpectedInstr{"DveReadAccumulator",
                       0x9b,
                       "D1_RD",
                       Engine::DVE,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"reserved0", 12, 16, K::Reserved},
                           {"dst_element_count", 28, 4, K::U32},
                           {"dtype", 32, 1, K::Dtype},
                           {"negated", 33, 1, K::U8},
                           {"num_active_channels", 34, 1, K::U8},
                           {"reserved1", 35, 9, K::Reserved},
                           {"dst_mem_pattern", 44, 8, K::Tensor, 1},
                           {"reserved2", 52, 12, K::Reserved},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_dve_read_accumulator(): 4 channels, BF16, negated 0. dst: TENSOR1D step {1}
// count {1} at SBUF partition 2 offset 0x300 (channel c writes one BF16 at offset 0x300
// of partition 2 + c, from accumulator 2 + c); dst_element_count 1.
namespace dra_word {
inline constexpr unsigned kChannels = 4;
inline constexpr Dtype kDtype = Dtype::BF16;
inline constexpr unsigned kPartition = 2, kOffset = 0x300;
inline constexpr uint32_t kDstAddr = sbuf_addr(kPartition, kOffset);
}  // namespace dra_word

inline Word valid_dve_read_accumulator() {
  using namespace dra_word;
  return build(Opcode::DveReadAccumulator, {{"dst_element_count", uint64_t{1}},
                                            {"dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                                            {"num_active_channels", uint64_t{kChannels}},
                                            {"dst_mem_pattern", tensor(kDstAddr, {1}, {1})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.13. Offsets: 32 dtype, 33 negated, 34 channels, 44 dst (TENSOR1D).
inline std::optional<FaultKind> dve_read_accumulator(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[34];
  const uint8_t code = w[32];
  const unsigned size = size_of(code);
  const Tensor dtn = get_tensor(w, 44, 1);
  const auto dst = resolve(m, dtn, size, true, true, n);
  if (!dst) return FaultKind::BadAddress;
  for (unsigned c = 0; c < n; ++c) {
    uint32_t a = m.accumulators[dst->partition + c];
    if (w[33] == 1) a ^= 0x80000000u;
    fx.stores.push_back({dst->space, dst->partition + c, dst->offset, size, narrow(code, a)});
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_dve_read_accumulator(Builder& b) {
  Rng& r = b.rng();
  rm::DveReadAccumulatorWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.dtype = r.pick<uint8_t>({rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5, rm::dt::FP16,
                             rm::dt::BF16, rm::dt::FP32, rm::dt::FP32R});
  const unsigned size = rm::size_of(x.dtype);
  const unsigned n = b.channels();
  x.channels = static_cast<uint8_t>(n);
  x.negated = static_cast<uint8_t>(r.in(0, 1));
  const Space ds = b.space(size == 4 ? 40 : 0);
  const unsigned pd = b.start_partition(n);
  x.dst = b.shape(1, 1, size, ds);  // one element, any step
  b.place(x.dst, ds, pd, n, size, true);
  for (unsigned c = 0; c < n; ++c)
    b.set_acc(pd + c, r.chance(40) ? near_tie(r, x.dtype) : random_value(r, rm::dt::FP32));

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.13: one element per channel.
inline Word valid_dve_read_accumulator(Gen& g) {
  static constexpr uint8_t kFloat[] = {0xd, 0xe, 0xf, 0x7, 0x6, 0xa, 0xb};
  Word w{};
  w[0] = 0x9b;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t dt = g.pick(kFloat);
  const unsigned size = *dtype_size(dt);
  store_u32(w, 28, 1);
  w[32] = dt;
  w[33] = static_cast<uint8_t>(g.below(2));
  w[34] = static_cast<uint8_t>(n);
  store_tensor(w, 44, g.tensor(1, {1, 0, 0}, n, size, size == 4 && g.below(2)));
  return w;
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "DveReadAccumulator",
    .opcode = Opcode::DveReadAccumulator,
    .opcode_clause = "has_dve_read_accumulator_opcode",
    .expected_row = expected_rows::dve_read_accumulator_row,
    .valid_word = test_words::valid_dve_read_accumulator,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::dve_read_accumulator(m, w, fx);
        },
    .generate = random_words::gen_dve_read_accumulator,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_dve_read_accumulator,
    .no_fast_path_comparison = "no fast path: one element per channel",
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd {
namespace {

// ---- clause cases (SPEC §4, §6): each mutation of the valid word fails one clause alone ----

std::vector<ClauseCase> clause_cases() {
  std::vector<ClauseCase> c;
  // ---- DveReadAccumulator (SPEC §4.13) ----
  for (unsigned b : {12u, 20u, 27u})
    c.push_back({"dra_reserved0_byte" + std::to_string(b), DRA, [b](Word& w) { w[b] = 2; },
                 "d1_rd_reserved_zero", "reserved0", "0x02", "zero"});
  for (unsigned b : {35u, 43u})
    c.push_back({"dra_reserved1_byte" + std::to_string(b), DRA, [b](Word& w) { w[b] = 2; },
                 "d1_rd_reserved_zero", "reserved1", "0x02", "zero"});
  for (unsigned b : {52u, 63u})
    c.push_back({"dra_reserved2_byte" + std::to_string(b), DRA, [b](Word& w) { w[b] = 0xff; },
                 "d1_rd_reserved_zero", "reserved2", "0xff", "zero"});
  c.push_back({"dra_channels_0", DRA, [](Word& w) { set(w, "num_active_channels", 0); },
               "check_active_channels", "num_active_channels", "0", "1..128"});
  for (Dtype d : {Dtype::INT32, Dtype::UINT8, Dtype::INT16, Dtype::UINT32, Dtype::INVALID,
                  Dtype::INT64, Dtype::FP4_E2})
    c.push_back({"dra_dtype_" + name_of(d), DRA, [d](Word& w) { set(w, "dtype", code(d)); },
                 "dve_read_accumulator_type_check", "dtype", name_of(d), "FP32R"});
  c.push_back({"dra_dtype_unknown", DRA, [](Word& w) { set(w, "dtype", 0x20); },
               "dve_read_accumulator_type_check", "dtype", "0x20"});
  c.push_back({"dra_dst_start_partition", DRA,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(125, 0x300)); },
               "start_addr_active_channels", "dst_mem_pattern", "125"});
  c.push_back({"dra_dst_psum_bf16", DRA,
               [](Word& w) { set_addr(w, "dst_mem_pattern", psum_addr(2, 0x300)); },
               "tensor1d_valid", "dst_mem_pattern", "0x02010300", "4-byte"});
  c.push_back({"dra_dst_misaligned", DRA,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(2, 0x301)); },
               "tensor1d_valid", "dst_mem_pattern", "0x00080301", "aligned"});
  for (uint32_t n : {0u, 2u, 0xffffffffu, 0x100u})
    c.push_back({"dra_dst_element_count_" + std::to_string(n), DRA,
                 [n](Word& w) { set(w, "dst_element_count", n); }, "read_accumulator_dst_size",
                 "dst_element_count", std::to_string(n), "1"});
  c.push_back({"dra_dst_num_2", DRA, [](Word& w) { set_num(w, "dst_mem_pattern", 0, 2); },
               "read_accumulator_dst_size", "dst_mem_pattern", "num=[2]", "num_elem[0]"});
  c.push_back({"dra_dst_num_65535", DRA,
               [](Word& w) {
                 set_step(w, "dst_mem_pattern", 0, 0);
                 set_num(w, "dst_mem_pattern", 0, 65535);
               },
               "read_accumulator_dst_size", "dst_mem_pattern", "num=[65535]"});
  c.push_back({"dra_negated_2", DRA, [](Word& w) { set(w, "negated", 2); },
               "d1_rd_has_valid_negated_field", "negated", "0x02", "0 or 1"});
  c.push_back({"dra_negated_80", DRA, [](Word& w) { set(w, "negated", 0x80); },
               "d1_rd_has_valid_negated_field", "negated", "0x80"});
  return c;
}
GPSIMD_CLAUSE_CASES(DveReadAccumulator, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// ---- DveReadAccumulator (SPEC §4.13) ----------------------------------------------------

TEST(DveReadAccumulator, ReadsEachPartitionsAccumulatorAndNegates) {
  // Accumulators 2..7: 1.5, -0.0, +0.0, quiet NaN with payload, -FLT_MAX, sNaN.
  const V acc = {0x3FC00000, 0x80000000, 0x00000000, 0x7FC00001, kNegFltMax, 0x7F800001};
  struct Case {
    uint8_t dtype;
    V plain, negated;
  };
  const Case cases[] = {
      {dt::FP32,
       {0x3FC00000, 0x80000000, 0x00000000, 0x7FC00001, 0xFF7FFFFF, 0x7F800001},
       {0xBFC00000, 0x00000000, 0x80000000, 0xFFC00001, 0x7F7FFFFF, 0xFF800001}},
      {dt::FP32R,
       {0x3FC00000, 0x80000000, 0x00000000, 0x7FC00001, 0xFF7FFFFF, 0x7F800001},
       {0xBFC00000, 0x00000000, 0x80000000, 0xFFC00001, 0x7F7FFFFF, 0xFF800001}},
      // -FLT_MAX is beyond BF16's range: -inf. NaNs become the canonical NaN with sign.
      {dt::BF16,
       {0x3FC0, 0x8000, 0x0000, 0x7FC0, 0xFF80, 0x7FC0},
       {0xBFC0, 0x0000, 0x8000, 0xFFC0, 0x7F80, 0xFFC0}},
      {dt::FP16,
       {0x3E00, 0x8000, 0x0000, 0x7E00, 0xFC00, 0x7E00},
       {0xBE00, 0x0000, 0x8000, 0xFE00, 0x7C00, 0xFE00}},
      {dt::FP8_E5, {0x3E, 0x80, 0x00, 0x7E, 0xFC, 0x7E}, {0xBE, 0x00, 0x80, 0xFE, 0x7C, 0xFE}},
      {dt::FP8_E4, {0x3C, 0x80, 0x00, 0x7C, 0xF8, 0x7C}, {0xBC, 0x00, 0x80, 0xFC, 0x78, 0xFC}},
      {dt::FP8_E3, {0x38, 0x80, 0x00, 0x78, 0xF0, 0x78}, {0xB8, 0x00, 0x80, 0xF8, 0x70, 0xF8}},
  };
  for (const Case& c : cases) {
    for (uint8_t neg : {uint8_t{0}, uint8_t{1}}) {
      SCOPED_TRACE(testing::Message() << int{c.dtype} << " negated " << int{neg});
      Machine& m = fresh(Generation::V2);
      for (unsigned i = 0; i < 6; ++i) m.accumulators[2 + i] = acc[i];
      const auto before = m.accumulators;
      const unsigned size = rm::size_of(c.dtype);
      expect_ok(m, dra_word(c.dtype, 6, rm::sbuf_addr(2, 0x300), neg).encode());
      const V& want = neg ? c.negated : c.plain;
      for (unsigned i = 0; i < 6; ++i) {
        EXPECT_EQ(peek(m, SBUF, 2 + i, 0x300, size, 1), V{want[i]}) << "channel " << i;
        // Exactly one element: the next one is untouched.
        EXPECT_EQ(peek(m, SBUF, 2 + i, 0x300 + size, size, 1), V{0}) << "channel " << i;
      }
      EXPECT_EQ(peek(m, SBUF, 8, 0x300, 4, 1), V{0});  // channel 6 does not exist
      EXPECT_EQ(m.accumulators, before);               // not changed
    }
  }
}

TEST(DveReadAccumulator, NarrowingRoundsToNearestEven) {
  struct Case {
    uint8_t dtype;
    uint32_t acc, want;
  };
  const Case cases[] = {
      {dt::BF16, 0x3F808000, 0x3F80},  // 1 + 2^-8: tie, to even
      {dt::BF16, 0x3F818000, 0x3F82},  // 1 + 3 * 2^-8: tie, to even (up)
      {dt::BF16, 0x3F808001, 0x3F81},  // just above the tie
      {dt::BF16, 0x00010000, 0x0001},  // a subnormal stays
      {dt::BF16, 0x7F7FFFFF, 0x7F80},  // FLT_MAX rounds to +inf
      {dt::FP16, 0x3F801000, 0x3C00},  // 1 + 2^-11: tie, to even
      {dt::FP16, 0x3F803000, 0x3C02},  // 1 + 3 * 2^-11: tie, up to even
      {dt::FP16, 0x477FE000, 0x7BFF},  // 65504
      {dt::FP16, 0x477FF000, 0x7C00},  // 65520: tie to 65536, beyond: +inf
      {dt::FP16, 0x33800000, 0x0001},  // 2^-24: the smallest subnormal
      {dt::FP16, 0x33000000, 0x0000},  // 2^-25: tie with 0, to even
      {dt::FP8_E4, 0x43700000, 0x77},  // 240, the maximum
      {dt::FP8_E4, 0x437A0000, 0x78},  // 250 rounds to 256: +inf
      {dt::FP8_E4, 0x40400000, 0x44},  // 3.0
      {dt::FP8_E5, 0x47600000, 0x7B},  // 57344, the maximum
      {dt::FP8_E5, 0x3FA00000, 0x3D},  // 1.25
      {dt::FP8_E3, 0x41780000, 0x6F},  // 15.5, the maximum
      {dt::FP8_E3, 0x41800000, 0x70},  // 16: +inf
      {dt::FP8_E3, 0x3F840000, 0x30},  // 1 + 2^-5, half an E3 step: tie, to even (1.0)
      {dt::FP8_E3, 0x3F8C0000, 0x32},  // 1 + 3 * 2^-5: tie, to even (up)
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << int{c.dtype} << " " << std::hex << c.acc);
    Machine& m = fresh(Generation::V3);
    m.accumulators[9] = c.acc;
    expect_ok(m, dra_word(c.dtype, 1, rm::sbuf_addr(9, 0x10)).encode());
    EXPECT_EQ(peek(m, SBUF, 9, 0x10, rm::size_of(c.dtype), 1), V{c.want});
  }
}

TEST(DveReadAccumulator, FreshMachineReadsMinusInfinityAndReadsRepeat) {
  Machine& m = fresh(Generation::V5);
  expect_ok(m, dra_word(dt::FP32, 128, rm::sbuf_addr(0, 0x40)).encode());
  expect_ok(m, dra_word(dt::FP32, 128, rm::sbuf_addr(0, 0x44), 1).encode());
  expect_ok(m, dra_word(dt::BF16, 128, rm::sbuf_addr(0, 0x48)).encode());
  for (unsigned p = 0; p < 128; ++p) {
    EXPECT_EQ(peek(m, SBUF, p, 0x40, 4, 2), (V{kNegInf, 0x7F800000})) << p;
    EXPECT_EQ(peek(m, SBUF, p, 0x48, 2, 1), V{0xFF80}) << p;
    EXPECT_EQ(m.accumulators[p], kNegInf);
  }
  // Two reads of the same accumulators are equal.
  m.accumulators[70] = f32(42.0f);
  expect_ok(m, dra_word(dt::FP32, 1, rm::sbuf_addr(70, 0x100)).encode());
  expect_ok(m, dra_word(dt::FP32, 1, rm::sbuf_addr(70, 0x104)).encode());
  EXPECT_EQ(peek(m, SBUF, 70, 0x100, 4, 2), (V{f32(42.0f), f32(42.0f)}));
}

TEST(DveReadAccumulator, DestinationPartitionPicksTheAccumulatorStepIsIrrelevant) {
  Machine& m = fresh(Generation::V3);
  for (unsigned p = 0; p < 128; ++p) m.accumulators[p] = f32(static_cast<float>(p));
  // PSUM destination (FP32), with a negative step and a register-mode address.
  rm::DveReadAccumulatorWord x = dra_word(dt::FP32, 3, rm::psum_addr(100, 0x3FFC));
  x.dst.step[0] = -7;
  expect_ok(m, x.encode());
  for (unsigned c = 0; c < 3; ++c)
    EXPECT_EQ(peek(m, PSUM, 100 + c, 0x3FFC, 4, 1), V{f32(static_cast<float>(100 + c))});
  x = dra_word(dt::FP16, 2, rm::reg_addr(33));
  m.registers[33] = rm::sbuf_addr(64, 0x2002);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 64, 0x2002, 2, 1), V{0x5400});  // 64.0
  EXPECT_EQ(peek(m, SBUF, 65, 0x2002, 2, 1), V{0x5410});  // 65.0
}

// SPEC §4.13: a DveReadAccumulator whose destination starts at the RangeSelect's source
// partition reads back what the reduction left.
TEST(DveReadAccumulator, ReadsWhatRangeSelectAccumulatedOverTwoTiles) {
  Machine& m = fresh(Generation::V3);
  // Two channels (partitions 0 and 1); indices kept when 0 <= base + j <= 3.
  rm::RangeSelectWord r = rs_word(dt::FP32, dt::FP32, 4, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 3.0f, 2);
  r.channels = 2;
  r.dst.addr = rm::sbuf_addr(10, 0x200);
  // Tile 1.
  poke(m, SBUF, 0, 0x100, 4, {f32(1.0f), f32(5.0f), f32(3.0f), f32(2.0f)});
  poke(m, SBUF, 1, 0x100, 4, {f32(-8.0f), f32(-9.0f), f32(-7.5f), f32(-10.0f)});
  expect_ok(m, r.encode());
  // Tile 2: channel 0 has a larger value, channel 1 only smaller ones.
  poke(m, SBUF, 0, 0x100, 4, {f32(7.0f), f32(-1.0f), f32(6.0f), f32(0.0f)});
  poke(m, SBUF, 1, 0x100, 4, {f32(-20.0f), f32(-30.0f), f32(-40.0f), f32(-50.0f)});
  expect_ok(m, r.encode());
  rm::DveReadAccumulatorWord d = dra_word(dt::FP32, 2, rm::sbuf_addr(0, 0x800));
  expect_ok(m, d.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x800, 4, 1), V{f32(7.0f)});
  EXPECT_EQ(peek(m, SBUF, 1, 0x800, 4, 1), V{f32(-7.5f)});
  d = dra_word(dt::BF16, 2, rm::sbuf_addr(0, 0x900), 1);
  expect_ok(m, d.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x900, 2, 1), V{0xC0E0});  // -7.0
  EXPECT_EQ(peek(m, SBUF, 1, 0x900, 2, 1), V{0x40F0});  // 7.5
  // A tile whose every index is filtered out on a fresh accumulator: -FLT_MAX, -inf in BF16.
  Machine& n = fresh(Generation::V3);
  r.bound1 = f32(-1.0f);  // nothing passes
  expect_ok(n, r.encode());
  d = dra_word(dt::BF16, 1, rm::sbuf_addr(0, 0x900));
  expect_ok(n, d.encode());
  EXPECT_EQ(peek(n, SBUF, 0, 0x900, 2, 1), V{0xFF80});
  d = dra_word(dt::FP32, 1, rm::sbuf_addr(0, 0x904));
  expect_ok(n, d.encode());
  EXPECT_EQ(peek(n, SBUF, 0, 0x904, 4, 1), V{kNegFltMax});
}

TEST(DveReadAccumulator, FaultsChangeNothing) {
  Machine& m = busy_machine(Generation::V2);
  rm::DveReadAccumulatorWord x = dra_word(dt::BF16, 4, rm::reg_addr(3));
  x.ev = kSet9;
  rm::DveReadAccumulatorWord wait = x;
  wait.ev = rm::Events{2, 9, 1, 9, 0};  // semaphore 9 == 0 never holds (it is 3)
  expect_unchanged(m, wait.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  for (uint32_t a : {rm::psum_addr(0, 0x100),       // a 2-byte PSUM write
                     rm::sbuf_addr(0, 0x101),       // misaligned
                     rm::sbuf_addr(125, 0x100),     // partitions 125..128
                     rm::sbuf_addr(0, 192 * 1024),  // beyond the V2 partition
                     0x20000100u}) {
    SCOPED_TRACE(testing::Message() << std::hex << a);
    m.registers[3] = a;
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress);
  }
  m.registers[3] = rm::sbuf_addr(124, 0x100);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 126, 0x100, 2, 1), V{0xC2C8});  // -100.0
  EXPECT_EQ(m.semaphores[9], 0x77u);
  // Invalid words change nothing: two elements, an integer dtype.
  rm::DveReadAccumulatorWord bad = x;
  bad.dst_element_count = 2;
  expect_unchanged(m, bad.encode(), Status::Invalid, std::nullopt);
  bad = x;
  bad.dtype = dt::INT32;
  expect_unchanged(m, bad.encode(), Status::Invalid, std::nullopt);
}

}  // namespace
#endif
