// Iota (SPEC §4.6): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.6.
inline ExpectedInstr iota_row() {
  return ExpectedInstr{"Iota",
                       0x7e,
                       "D4_IOTA",
                       Engine::POOL,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"src_data_pattern", 12, 20, K::Data4D, 4},
                           {"reserved0", 32, 1, K::Reserved},
                           {"out_dtype", 33, 1, K::Dtype},
                           {"num_active_channels", 34, 1, K::U8},
                           {"reserved1", 35, 1, K::Reserved},
                           {"channel_multiplier", 36, 4, K::I32},
                           {"reserved2", 40, 4, K::Reserved},
                           {"dst_mem_pattern", 44, 20, K::Tensor, 4},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_iota(): 2 channels from partition 3, out_dtype INT32, channel_multiplier 100.
// src: base 5, steps {1, 10, 0, 0} counts {3, 2, 1, 1} (6 values). dst: TENSOR4D steps
// {1, 3, 6, 6} counts {3, 2, 1, 1} (24 dense bytes) at SBUF partition 3 offset 0x80.
namespace iota_word {
inline constexpr unsigned kChannels = 2;
inline constexpr Dtype kOut = Dtype::INT32;
inline constexpr uint32_t kDstAddr = sbuf_addr(3, 0x80);
inline constexpr int32_t kBase = 5, kMultiplier = 100;
}  // namespace iota_word

inline Word valid_iota() {
  using namespace iota_word;
  return build(Opcode::Iota, {{"src_data_pattern", data4d(kBase, {1, 10, 0, 0}, {3, 2, 1, 1})},
                              {"out_dtype", uint64_t{static_cast<uint8_t>(kOut)}},
                              {"num_active_channels", uint64_t{kChannels}},
                              {"channel_multiplier", uint64_t{static_cast<uint32_t>(kMultiplier)}},
                              {"dst_mem_pattern", tensor(kDstAddr, {1, 3, 6, 6}, {3, 2, 1, 1})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.6.
inline std::optional<FaultKind> iota(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[34];
  const uint8_t out = w[33];
  const auto mult = static_cast<int32_t>(get(w, 36, 4));
  const Tensor dtn = get_tensor(w, 44, 4);
  const unsigned osz = size_of(out);
  const auto dst = resolve(m, dtn, osz, false, true, n);
  if (!dst) return FaultKind::BadAddress;
  if (dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto doffs = walk(dtn, dst->offset, osz);
  for (unsigned c = 0; c < n; ++c) {
    const std::vector<int32_t> r = ramp(w, 12, mult, c);
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      const auto bits = static_cast<uint32_t>(r[j]);
      // Integers keep the low bits; floats go through FP32.
      const uint32_t y = is_int(out) ? bits : narrow(out, to_fp32(dt::INT32, bits));
      fx.stores.push_back({Space::SBUF, dst->partition + c, doffs[j], osz, y});
    }
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_iota(Builder& b) {
  static constexpr uint8_t kOut[] = {rm::dt::INT8,  rm::dt::UINT8,  rm::dt::INT16,  rm::dt::UINT16,
                                     rm::dt::INT32, rm::dt::UINT32, rm::dt::BF16,   rm::dt::FP16,
                                     rm::dt::FP32,  rm::dt::FP32R,  rm::dt::FP8_E3, rm::dt::FP8_E4,
                                     rm::dt::FP8_E5};
  Rng& r = b.rng();
  rm::IotaWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.out = kOut[r.uin(0, 12)];
  const unsigned osz = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  x.dst = b.shape(4, count, osz, Space::SBUF);
  b.place(x.dst, Space::SBUF, b.start_partition(n), n, osz, true);
  x.pattern = random_pattern(b, count);
  x.channel_multiplier = random_multiplier(r);
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_iota(Gen& g) {
  static constexpr uint8_t kOut[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8,
                                     0x9, 0xa, 0xb, 0xd, 0xe, 0xf};
  Word w{};
  w[0] = 0x7e;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t dt = g.pick(kOut);
  const auto num = g.nums(4);
  store_tensor(w, 12, data4d(g, {num[3], num[2], num[1], num[0]}));
  w[33] = dt;
  w[34] = static_cast<uint8_t>(n);
  store_u32(w, 36, static_cast<uint32_t>(g.rng()));
  store_tensor(w, 44, g.tensor(4, num, n, *dtype_size(dt), false));
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {
namespace {

Word iota_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0x7e;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype dt = large ? (rng.chance(0.5) ? Dtype::INT32 : Dtype::FP32) : rng.pick(kIotaOut);
  const unsigned size = *dtype_size(dt);
  Window win;
  win.bytes = large ? 49152 : 4096;
  const unsigned p = rng.below(kPartitions - n + 1);
  TensorDesc dst = random_walk(rng, 4, 0, large ? 12000 : 900, size, win, p);
  fill(rng, m, win, p, n, dt);  // old contents, to be overwritten
  store_tensor(w, 12, random_ramp(rng, dst.count()));
  w[33] = static_cast<uint8_t>(dt);
  w[34] = static_cast<uint8_t>(n);
  store_u32(w, 36, static_cast<uint32_t>(random_multiplier(rng)));
  store_tensor(w, 44, dst);
  return w;
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "Iota",
    .opcode = Opcode::Iota,
    .opcode_clause = "has_iota_opcode",
    .expected_row = expected_rows::iota_row,
    .valid_word = test_words::valid_iota,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) { return refmodel::internal::iota(m, w, fx); },
    .generate = random_words::gen_iota,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_iota,
    .kernel_words = {{kernels_equiv::iota_word, 19, 600, 8}},
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
  // ---- Iota (SPEC §4.6): 2 channels from partition 3, 6 values ----
  for (unsigned b : {32u, 35u, 40u, 43u})
    c.push_back({"iota_reserved_byte" + std::to_string(b), IOTA, [b](Word& w) { w[b] = 0x10; },
                 "d4_iota_reserved_zero", "reserved", "0x10", "zero"});
  c.push_back({"iota_dtype_int64", IOTA, [](Word& w) { set(w, "out_dtype", code(Dtype::INT64)); },
               "is_valid_dtype", "out_dtype", "INT64 (0xc)"});
  c.push_back({"iota_dtype_fp4", IOTA, [](Word& w) { set(w, "out_dtype", code(Dtype::FP4_E2)); },
               "is_valid_dtype", "out_dtype", "FP4_E2 (0x10)"});
  c.push_back({"iota_dtype_unknown", IOTA, [](Word& w) { set(w, "out_dtype", 0x20); },
               "is_valid_dtype", "out_dtype", "0x20 (unknown)"});
  c.push_back({"iota_channels_0", IOTA, [](Word& w) { set(w, "num_active_channels", 0); },
               "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
  c.push_back({"iota_dst_start_partition", IOTA,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x80)); },
               "start_addr_active_channels", "dst_mem_pattern", "127"});
  c.push_back({"iota_count", IOTA, [](Word& w) { set_num(w, "src_data_pattern", 1, 1); },
               "d4_iota_same_src_dst_count", "dst_mem_pattern", "count(dst) = 6, count(src) = 3",
               "count(dst) must equal count(src)"});
  c.push_back({"iota_count_dst_4d", IOTA, [](Word& w) { set_num(w, "dst_mem_pattern", 3, 2); },
               "d4_iota_same_src_dst_count", "dst_mem_pattern", "count(dst) = 12, count(src) = 6"});
  // No register escape: the counts are checked for a register-mode destination too.
  c.push_back({"iota_count_register_dst", IOTA,
               [](Word& w) {
                 set_addr(w, "dst_mem_pattern", reg_addr(9));
                 set_num(w, "src_data_pattern", 2, 5);
               },
               "d4_iota_same_src_dst_count", "dst_mem_pattern", "count(dst) = 6, count(src) = 30"});
  c.push_back({"iota_src_num0", IOTA, [](Word& w) { set_num(w, "src_data_pattern", 3, 0); },
               "d4_iota_same_src_dst_count", "src_data_pattern", "num_elem[3] = 0", ">= 1", 2});
  return c;
}
GPSIMD_CLAUSE_CASES(Iota, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// ---- Iota (SPEC §4.6) -------------------------------------------------------------------

TEST(Iota, NkiExamples) {
  Machine& m = fresh(Generation::V3);
  // [0..511]: one channel, step 1 x 512.
  expect_ok(m, iota_word(dt::INT32, 1, 0, 512).encode());
  V want(512);
  for (unsigned j = 0; j < 512; ++j) want[j] = j;
  EXPECT_EQ(peek(m, SBUF, 0, 0x400, 4, 512), want);
  // [0, -1, ..., -511]: step -1.
  rm::IotaWord down = iota_word(dt::INT32, 1, 1, 512);
  down.pattern.step[0] = -1;
  expect_ok(m, down.encode());
  for (unsigned j = 0; j < 512; ++j) want[j] = static_cast<uint32_t>(-static_cast<int32_t>(j));
  EXPECT_EQ(peek(m, SBUF, 1, 0x400, 4, 512), want);
  // [[0] ... [127]] and 5 + 2p: one element per channel.
  rm::IotaWord col = iota_word(dt::INT32, 128, 0, 1);
  col.channel_multiplier = 1;
  col.dst.addr = rm::sbuf_addr(0, 0x2000);
  expect_ok(m, col.encode());
  rm::IotaWord affine = col;
  affine.pattern.base = 5;
  affine.channel_multiplier = 2;
  affine.dst.addr = rm::sbuf_addr(0, 0x2004);
  expect_ok(m, affine.encode());
  for (unsigned c = 0; c < 128; ++c)
    ASSERT_EQ(peek(m, SBUF, c, 0x2000, 4, 2), (V{c, 5 + 2 * c})) << c;
  // p + f: 128 channels, step 1 x 512, channel_multiplier 1 (FP32).
  rm::IotaWord pf = iota_word(dt::FP32, 128, 0, 512);
  pf.channel_multiplier = 1;
  pf.dst.addr = rm::sbuf_addr(0, 0x4000);
  expect_ok(m, pf.encode());
  for (unsigned c = 0; c < 128; ++c) {
    for (unsigned j = 0; j < 512; ++j) want[j] = f32(static_cast<float>(c + j));
    ASSERT_EQ(peek(m, SBUF, c, 0x4000, 4, 512), want) << c;
  }
}

// Integer outputs keep the low bits of the int32 ramp (no saturation).
TEST(Iota, IntegerOutputsKeepTheLowBits) {
  struct Case {
    uint8_t out;
    int32_t base;
    uint32_t want;
  };
  const Case cases[] = {{dt::INT8, 300, 44},
                        {dt::INT8, -1, 0xFF},
                        {dt::UINT8, 256 + 7, 7},
                        {dt::INT16, 70000, 4464},
                        {dt::UINT16, -2, 0xFFFE},
                        {dt::UINT32, -1, 0xFFFFFFFFu},
                        {dt::INT32, INT32_MIN, 0x80000000u}};
  for (const Case& k : cases) {
    Machine& m = fresh(Generation::V2);
    rm::IotaWord x = iota_word(k.out, 1, 7, 1);
    x.pattern.base = k.base;
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 7, 0x400, rm::size_of(k.out), 1), V{k.want}) << int{k.out};
  }
}

// Float outputs go through FP32 (RNE) and then round again (SPEC §4.6).
TEST(Iota, FloatOutputsRoundTwice) {
  struct Case {
    uint8_t out;
    int32_t base;
    uint32_t want;
  };
  const Case cases[] = {
      {dt::BF16, (1 << 24) + (1 << 16) + 1, 0x4B80},  // 2^24, not 2^24 + 2^17 (0x4B81)
      {dt::FP32, (1 << 24) + 1, 0x4B800000u},         // 2^24 + 1 -> 2^24 (tie to even)
      {dt::FP32, (1 << 24) + 3, 0x4B800002u},         // -> 2^24 + 4
      {dt::FP32R, -3, 0xC0400000u},
      {dt::FP16, 65520, 0x7C00},  // +inf
      {dt::FP16, -65504, 0xFBFF},
      {dt::FP8_E4, 248, 0x78},  // +inf
      {dt::FP8_E4, 240, 0x77},
      {dt::FP8_E5, -57344, 0xFB},
      {dt::FP8_E3, 17, 0x70},  // 17 -> +inf (max 15.5)
  };
  for (const Case& k : cases) {
    Machine& m = fresh(Generation::V4);
    rm::IotaWord x = iota_word(k.out, 1, 0, 1);
    x.pattern.base = k.base;
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 0, 0x400, rm::size_of(k.out), 1), V{k.want})
        << int{k.out} << " " << k.base;
  }
}

TEST(Iota, WrapAroundAndFourDimensions) {
  Machine& m = fresh(Generation::V3);
  // base 2^31 - 2, step 1 over 2, then 2^30 over 2: the sums wrap modulo 2^32.
  rm::IotaWord x = iota_word(dt::INT32, 2, 10, 1);
  x.pattern = rm::Data4D{2147483646, {1, 16384, 0, 7}, {2, 2, 1, 2}};
  x.channel_multiplier = INT32_MIN;  // channel 1 adds 2^31
  x.dst = rm::tensor4(rm::sbuf_addr(10, 0x400), 1, 2, 2, 2, 0, 1, 4, 2);
  expect_ok(m, x.encode());
  // i3 adds 7; i1 adds 16384.
  const auto v = [](int64_t e) { return static_cast<uint32_t>(static_cast<uint64_t>(e)); };
  const int64_t b = 2147483646;
  EXPECT_EQ(peek(m, SBUF, 10, 0x400, 4, 8), (V{v(b), v(b + 1), v(b + 16384), v(b + 16385), v(b + 7),
                                               v(b + 8), v(b + 16391), v(b + 16392)}));
  EXPECT_EQ(peek(m, SBUF, 11, 0x400, 4, 2), (V{v(b + 2147483648LL), v(b + 1 + 2147483648LL)}));
}

}  // namespace
#endif
