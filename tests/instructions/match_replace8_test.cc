// MatchReplace8 (SPEC §4.10): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/search.h"
#include "kernels_equiv.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.10.
inline ExpectedInstr match_replace8_row() {
  return ExpectedInstr{"MatchReplace8",
                       0x6f,
                       "S4D4_MR",
                       Engine::DVE,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"src_mem_pattern", 12, 20, K::Tensor, 4},
                           {"in_dtype", 32, 1, K::Dtype},
                           {"out_dtype", 33, 1, K::Dtype},
                           {"num_active_channels", 34, 1, K::U8},
                           {"reserved0", 35, 5, K::Reserved},
                           {"immediate", 40, 4, K::Fp32},
                           {"dst_mem_pattern", 44, 20, K::Tensor, 4},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_match_replace8(): 2 channels from partition 6, FP32 in and out, immediate -1.0.
// src: TENSOR4D steps {1, 4, 8, 8} counts {4, 3, 1, 1} (12 dense FP32) at SBUF partition
// 6 offset 0x100; dst: the same shape at offset 0x200.
namespace mr_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kN = 12;
inline constexpr unsigned kPartition = 6;
inline constexpr Dtype kIn = Dtype::FP32, kOut = Dtype::FP32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(kPartition, 0x100),
                          kDstAddr = sbuf_addr(kPartition, 0x200);
inline constexpr float kImmediate = -1.0f;
}  // namespace mr_word

inline Word valid_match_replace8() {
  using namespace mr_word;
  return build(Opcode::MatchReplace8,
               {{"src_mem_pattern", tensor(kSrcAddr, {1, 4, 8, 8}, {4, 3, 1, 1})},
                {"in_dtype", uint64_t{static_cast<uint8_t>(kIn)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(kOut)}},
                {"num_active_channels", uint64_t{kChannels}},
                {"immediate", uint64_t{f32_bits(kImmediate)}},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 4, 8, 8}, {4, 3, 1, 1})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.10. Offsets: 12 src (TENSOR4D), 32 in, 33 out, 34 channels, 40 immediate,
// 44 dst (TENSOR4D).
inline std::optional<FaultKind> match_replace8(const Machine& m, const Word& w, Effects& fx) {
  const uint32_t imm = get(w, 40, 4);
  return match_channels(m, w, fx, 44, 4,
                        [&](unsigned c, const gpsimd::MatchLane&, const std::vector<bool>& consumed,
                            const std::vector<uint32_t>& e, const Loc& dst,
                            const std::vector<int64_t>& doffs, unsigned out_size) {
                          for (std::size_t i = 0; i < doffs.size(); ++i)
                            fx.stores.push_back({dst.space, dst.partition + c, doffs[i], out_size,
                                                 from_fp32(w[33], consumed[i] ? imm : e[i])});
                        });
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_match_replace8(Builder& b) {
  Rng& r = b.rng();
  rm::MatchReplace8Word x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.in = r.pick(kMatchReplaceDtypes);
  x.out = r.pick(kMatchReplaceDtypes);
  const unsigned isz = rm::size_of(x.in), osz = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 16384 / n));
  x.channels = static_cast<uint8_t>(n);
  const Space ss = b.space(30);
  const Space ds = b.space(osz == 4 ? 30 : 0);
  const auto [sl, dl] =
      b.place_pair(n, {.t = x.src, .space = ss, .elem = isz, .dims = 4, .count = count},
                   {.t = x.dst, .space = ds, .elem = osz, .dims = 4, .count = count});
  x.immediate = r.chance(50) ? random_value(r, rm::dt::FP32) : r.u32();
  const std::vector<uint32_t> pool = value_pool(r, x.in);
  random_lanes(b, sl.partition, n, x.in, pool);
  b.fill(x.dst, dl, n, osz, [&] { return random_value(r, x.out); });
  b.fill(x.src, sl, n, isz,
         [&] { return r.chance(70) ? pool[r.uin(0, 7)] : random_value(r, x.in); });
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.10: the match-replace dtypes, equal source and destination counts.
inline Word valid_match_replace8(Gen& g) {
  static constexpr uint8_t kData[] = {0x7, 0x6, 0x3, 0x5, 0x9, 0xa, 0x8};
  Word w{};
  w[0] = 0x6f;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t in = g.pick(kData), out = g.pick(kData);
  const auto num = g.nums(4);
  store_tensor(w, 12, g.tensor(4, num, n, *dtype_size(in), g.below(2)));
  w[32] = in;
  w[33] = out;
  w[34] = static_cast<uint8_t>(n);
  store_u32(w, 40, static_cast<uint32_t>(g.rng()));
  const unsigned osize = *dtype_size(out);
  const std::array<uint16_t, kMaxDims> dnum{num[3], num[2], num[1], num[0]};
  store_tensor(w, 44, g.tensor(4, dnum, n, osize, osize == 4 && g.below(2)));
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {
namespace {

const Dtype kMrDtypes[] = {Dtype::FP16,   Dtype::BF16, Dtype::UINT8, Dtype::UINT16,
                           Dtype::UINT32, Dtype::FP32, Dtype::INT32};

Word match_replace8_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0x6f;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype din = large ? (rng.chance(0.5) ? Dtype::FP32 : Dtype::BF16) : rng.pick(kMrDtypes);
  const Dtype dout = large ? din : rng.pick(kMrDtypes);
  Window win;
  win.bytes = large ? 65536 : 4096;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.5) ? p : rng.below(kPartitions - n + 1);
  const TensorDesc src = search_source(rng, m, win, p, n, din, 1, large ? 16384 : 900);
  if (pd != p) fill(rng, m, win, pd, n, dout);
  const TensorDesc dst = random_walk(rng, 4, src.count(), 0, *dtype_size(dout), win, pd);
  random_lanes(rng, m, src, din, p, n);
  store_tensor(w, 12, src);
  w[32] = static_cast<uint8_t>(din);
  w[33] = static_cast<uint8_t>(dout);
  w[34] = static_cast<uint8_t>(n);
  const std::vector<uint32_t> edges = edge_values(Dtype::FP32);
  store_u32(w, 40, rng.chance(0.5) ? rng.pick_from(edges) : static_cast<uint32_t>(rng.bits()));
  store_tensor(w, 44, dst);
  return w;
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "MatchReplace8",
    .opcode = Opcode::MatchReplace8,
    .opcode_clause = "has_match_replace8_opcode",
    .expected_row = expected_rows::match_replace8_row,
    .valid_word = test_words::valid_match_replace8,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::match_replace8(m, w, fx);
        },
    .generate = random_words::gen_match_replace8,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_match_replace8,
    .kernel_words = {{kernels_equiv::match_replace8_word, 23, 600, 8}},
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
  // ---- MatchReplace8 (SPEC §4.10): 2 channels from partition 6, 12 FP32 ----
  for (unsigned b : {35u, 37u, 39u})
    c.push_back({"mr8_reserved_byte" + std::to_string(b), MR8, [b](Word& w) { w[b] = 0x01; },
                 "s4d4_mr_reserved_zero", "reserved0", "0x01", "zero"});
  c.push_back({"mr8_channels_0", MR8, [](Word& w) { set(w, "num_active_channels", 0); },
               "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
  for (Dtype d : {Dtype::INT8, Dtype::INT16, Dtype::FP8_E4, Dtype::FP32R}) {
    c.push_back({"mr8_out_dtype_" + name_of(d), MR8, [d](Word& w) { set(w, "out_dtype", code(d)); },
                 "match_replace_dtypes", "out_dtype", name_of(d)});
  }
  for (Dtype d : {Dtype::INT8, Dtype::INT16, Dtype::FP8_E5})
    c.push_back({"mr8_in_dtype_" + name_of(d), MR8, [d](Word& w) { set(w, "in_dtype", code(d)); },
                 "match_replace_dtypes", "in_dtype", name_of(d)});
  c.push_back({"mr8_src_start_partition", MR8,
               [](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(127, 0x100)); },
               "start_addr_active_channels", "src_mem_pattern", "127"});
  c.push_back({"mr8_dst_start_partition", MR8,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x200)); },
               "start_addr_active_channels", "dst_mem_pattern", "127"});
  c.push_back({"mr8_src_count_16385", MR8,
               [](Word& w) {
                 set_tensor(w, "src_mem_pattern",
                            tensor(sbuf_addr(6, 0x100), {0, 0, 0, 0}, {5, 29, 113, 1}));
                 set_tensor(w, "dst_mem_pattern",
                            tensor(sbuf_addr(6, 0x200), {0, 0, 0, 0}, {5, 29, 113, 1}));
               },
               "s4d4_mr_src_element_cnt", "src_mem_pattern", "count = 16385", "16384"});
  c.push_back({"mr8_dst_count", MR8, [](Word& w) { set_num(w, "dst_mem_pattern", 1, 2); },
               "s4d4_mr_same_src_dst_element_cnt", "dst_mem_pattern",
               "count(dst) = 8, count(src) = 12"});
  return c;
}
GPSIMD_CLAUSE_CASES(MatchReplace8, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

namespace search {

TEST(MatchReplace8, NkiDocstringExample) {
  // nc_match_replace8: positive step, mv[7 - k] = vals[k]: mv = [8,8,8,8,8,8,8,3].
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x40, 4, fp32v({3, 8, 8, 8, 8, 8, 8, 8}));
  poke(m, SBUF, 0, 0x100, 4, fp32v({1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8}));
  expect_ok(m, mvl(rm::sbuf_addr(0, 0x40), 1).encode());
  EXPECT_EQ(m.match[0].mv, fp32s({8, 8, 8, 8, 8, 8, 8, 3}));
  expect_ok(m, mr8(rm::sbuf_addr(0, 0x100), 11, rm::sbuf_addr(0, 0x200), -100.0f).encode());
  EXPECT_EQ(m.match[0].matched, 0xFF);
  EXPECT_EQ(m.match[0].idx, (std::array<uint32_t, 8>{4, 5, 6, 7, 8, 9, 10, 2}));
  const uint32_t r = f32(-100.0f);
  EXPECT_EQ(peek(m, SBUF, 0, 0x200, 4, 11), (V{f32(1), f32(2), r, f32(4), r, r, r, r, r, r, r}));
}

}  // namespace search

namespace search {

TEST(MatchReplace8, EveryElementPassesThroughFp32) {
  Machine& m = fresh(Generation::V2);
  // mv: 16777216 in every slot; the INT32 data 16777217 rounds to it and matches.
  expect_ok(m, [&] {
    poke(m, SBUF, 1, 0, 4, V(8, 0x4B800000u));
    return mvl(rm::sbuf_addr(1, 0), 1).encode();
  }());
  rm::MatchReplace8Word x = mr8(rm::sbuf_addr(1, 0x100), 3, rm::sbuf_addr(1, 0x200), 2.5f);
  x.in = x.out = dt::INT32;
  poke(m, SBUF, 1, 0x100, 4, {16777217u, 16777219u, 7});
  expect_ok(m, x.encode());
  // Ordinal 0 matches slot 0 (replaced by 2.5 -> INT32 2, ties to even); 16777219 becomes
  // 16777220 through FP32; 7 stays 7. Ordinal 1 (16777220.0) does not equal 16777216.
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 3), (V{2, 16777220u, 7}));
  EXPECT_EQ(m.match[1].matched, 0x01);
  // BF16: a signalling NaN comes back as 0x7FC0 (never matches, SPEC §4.10).
  rm::MatchReplace8Word b = mr8(rm::sbuf_addr(2, 0x100), 2, rm::sbuf_addr(2, 0x200), 1.0f);
  b.in = b.out = dt::BF16;
  poke(m, SBUF, 2, 0x100, 2, {0x7F81, 0x3F80});
  expect_ok(m, b.encode());
  // Lane 2 is fresh: mv all +0.0, nothing equals it here.
  EXPECT_EQ(peek(m, SBUF, 2, 0x200, 2, 2), (V{0x7FC0, 0x3F80}));
  EXPECT_TRUE(m.match[2].fresh());
}

}  // namespace search

}  // namespace
#endif
