// MatchValueLoad (SPEC §4.7): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/search.h"

namespace gpsimd::expected_rows {

// SPEC §4.7: imm1, imm0_ptr and imm0_src are unused (zero), but named fields.
inline ExpectedInstr match_value_load_row() {
  return ExpectedInstr{"MatchValueLoad",
                       0x6d,
                       "S2_BN",
                       Engine::DVE,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"reserved0", 12, 4, K::Reserved},
                           {"src_mem_pattern", 16, 12, K::Tensor, 2},
                           {"imm1", 28, 4, K::U32},
                           {"dtype", 32, 1, K::Dtype},
                           {"reserved1", 33, 1, K::Reserved},
                           {"num_active_channels", 34, 1, K::U8},
                           {"reserved2", 35, 9, K::Reserved},
                           {"imm0_ptr", 44, 4, K::U32},
                           {"imm0_src", 48, 1, K::U8},
                           {"reserved3", 49, 15, K::Reserved},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_match_value_load(): 2 channels from partition 4, FP32. src: TENSOR2D steps {1, 4}
// counts {4, 2} (8 dense FP32, 32 bytes) at SBUF partition 4 offset 0x100: ordinal k
// loads slot 7 - k of lane 4 + c.
namespace mvl_word {
inline constexpr unsigned kChannels = 2;
inline constexpr Dtype kDtype = Dtype::FP32;
inline constexpr unsigned kPartition = 4;
inline constexpr uint32_t kSrcAddr = sbuf_addr(kPartition, 0x100);
}  // namespace mvl_word

inline Word valid_match_value_load() {
  using namespace mvl_word;
  return build(Opcode::MatchValueLoad, {{"src_mem_pattern", tensor(kSrcAddr, {1, 4}, {4, 2})},
                                        {"dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                                        {"num_active_channels", uint64_t{kChannels}}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.7. Offsets: 16 src (TENSOR2D), 32 dtype, 34 channels.
inline std::optional<FaultKind> match_value_load(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[34];
  const uint8_t code = w[32];
  const unsigned size = size_of(code);
  const Tensor st = get_tensor(w, 16, 2);
  const auto src = resolve(m, st, size, true, false, n);
  if (!src) return FaultKind::BadAddress;
  const auto offs = walk(st, src->offset, size);
  for (unsigned c = 0; c < n; ++c) {
    gpsimd::MatchLane lane;
    for (unsigned n2 = 0; n2 < 8; ++n2) lane.idx[n2] = 0xFFFFFFFFu;
    lane.matched = 0;
    for (std::size_t k = 0; k < offs.size(); ++k)
      lane.mv[7 - k] = to_fp32(code, load(m, src->space, src->partition + c, offs[k], size));
    fx.lanes.emplace_back(src->partition + c, lane);
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_match_value_load(Builder& b) {
  Rng& r = b.rng();
  rm::MatchValueLoadWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.dtype = r.pick(kSearchIn);
  const unsigned size = rm::size_of(x.dtype);
  const unsigned n = b.channels();
  x.channels = static_cast<uint8_t>(n);
  const Space ss = b.space(30);
  const unsigned ps = b.start_partition(n);
  x.src = b.shape(2, 8, size, ss);
  const rm::Loc sl = b.place(x.src, ss, ps, n, size, true);
  const std::vector<uint32_t> pool = value_pool(r, x.dtype);
  random_lanes(b, sl.partition, n, x.dtype, pool);  // re-armed by the load
  b.fill(x.src, sl, n, size, [&] { return random_value(r, x.dtype); });
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.7: eight values per lane, any data dtype.
inline Word valid_match_value_load(Gen& g) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  static constexpr std::array<uint16_t, kMaxDims> kShapes[] = {
      {1, 8, 0, 0}, {2, 4, 0, 0}, {4, 2, 0, 0}, {8, 1, 0, 0}};
  Word w{};
  w[0] = 0x6d;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t dt = g.pick(kData);
  store_tensor(w, 16, g.tensor(2, g.pick(kShapes), n, *dtype_size(dt), g.below(2)));
  w[32] = dt;
  w[34] = static_cast<uint8_t>(n);
  return w;
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "MatchValueLoad",
    .opcode = Opcode::MatchValueLoad,
    .opcode_clause = "has_match_value_load_opcode",
    .expected_row = expected_rows::match_value_load_row,
    .valid_word = test_words::valid_match_value_load,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::match_value_load(m, w, fx);
        },
    .generate = random_words::gen_match_value_load,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_match_value_load,
    .no_fast_path_comparison = "its fast path is convert.cc's widening (WideningEveryPattern)",
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
  // ---- MatchValueLoad (SPEC §4.7): 2 channels from partition 4, 8 FP32 ----
  for (unsigned b : {12u, 15u, 28u, 31u, 33u, 35u, 43u, 44u, 47u, 48u, 49u, 63u})
    c.push_back({"mvl_reserved_byte" + std::to_string(b), MVL, [b](Word& w) { w[b] = 0x04; },
                 "s2_bn_reserved_zero", "", "0x04", "zero"});
  c.push_back({"mvl_channels_0", MVL, [](Word& w) { set(w, "num_active_channels", 0); },
               "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
  c.push_back({"mvl_dtype_fp32r", MVL, [](Word& w) { set(w, "dtype", code(Dtype::FP32R)); },
               "is_valid_dtype", "dtype", "FP32R (0xb)"});
  c.push_back({"mvl_dtype_int64", MVL, [](Word& w) { set(w, "dtype", code(Dtype::INT64)); },
               "is_valid_dtype", "dtype", "INT64 (0xc)"});
  c.push_back({"mvl_src_start_partition", MVL,
               [](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(127, 0x100)); },
               "start_addr_active_channels", "src_mem_pattern", "127"});
  c.push_back({"mvl_count_16", MVL, [](Word& w) { set_num(w, "src_mem_pattern", 1, 4); },
               "has_match_value_load_src_element_cnt", "src_mem_pattern", "count = 16", "8"});
  c.push_back({"mvl_count_7", MVL,
               [](Word& w) {
                 set_num(w, "src_mem_pattern", 0, 7);
                 set_num(w, "src_mem_pattern", 1, 1);
               },
               "has_match_value_load_src_element_cnt", "src_mem_pattern", "count = 7"});
  // A num_elem of 0: the tensor clause reports it, the count clause is not evaluated.
  c.push_back({"mvl_num0", MVL, [](Word& w) { set_num(w, "src_mem_pattern", 1, 0); },
               "tensor2d_valid", "src_mem_pattern", "num=[4,0]", ">= 1"});
  return c;
}
GPSIMD_CLAUSE_CASES(MatchValueLoad, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

namespace search {

TEST(MatchValueLoad, OrdinalKLoadsSlotSevenMinusKAndReArms) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 4, 0x100, 4, fp32v({1, 2, 3, 4, 5, 6, 7, 8}));
  poke(m, SBUF, 5, 0x100, 4, fp32v({-1, -2, -3, -4, -5, -6, -7, -8}));
  // Lane 4 was used: flags and indices set. Loading re-arms it.
  m.match[4].matched = 0x5a;
  m.match[4].idx = {1, 2, 3, 4, 5, 6, 7, 8};
  expect_ok(m, mvl(rm::sbuf_addr(4, 0x100), 1, dt::FP32, 2).encode());
  EXPECT_EQ(m.match[4].mv, fp32s({8, 7, 6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(m.match[5].mv, fp32s({-8, -7, -6, -5, -4, -3, -2, -1}));
  for (unsigned l : {4u, 5u}) {
    EXPECT_EQ(m.match[l].matched, 0);
    for (uint32_t i : m.match[l].idx) EXPECT_EQ(i, kFF);
  }
  EXPECT_TRUE(m.match[3].fresh());
  EXPECT_TRUE(m.match[6].fresh());
  // NKI's negated step: ordinal k reads vals[7 - k], so mv[n] = vals[n].
  expect_ok(m, mvl(rm::sbuf_addr(4, 0x100 + 28), -1).encode());
  EXPECT_EQ(m.match[4].mv, fp32s({1, 2, 3, 4, 5, 6, 7, 8}));
}

}  // namespace search

namespace search {

TEST(MatchValueLoad, ConvertsEveryDtypeToFp32) {
  Machine& m = fresh(Generation::V2);
  // BF16 1.5 = 0x3FC0, -2 = 0xC000; signalling NaN 0x7F81 widens quiet: 0x7FC10000.
  poke(m, SBUF, 0, 0, 2, {0x3FC0, 0xC000, 0x7F81, 0, 0, 0, 0, 0x8000});
  expect_ok(m, mvl(rm::sbuf_addr(0, 0), 1, dt::BF16).encode());
  EXPECT_EQ(m.match[0].mv, (std::array<uint32_t, 8>{0x80000000u, 0, 0, 0, 0, 0x7FC10000u,
                                                    0xC0000000u, 0x3FC00000u}));
  // INT32 16777217 is not an FP32: it rounds to even, 16777216 (0x4B800000); -1 is
  // 0xBF800000.
  poke(m, SBUF, 1, 0, 4, {16777217u, 0xFFFFFFFFu, 3, 0, 0, 0, 0, 16777219u});
  expect_ok(m, mvl(rm::sbuf_addr(1, 0), 1, dt::INT32).encode());
  EXPECT_EQ(m.match[1].mv, (std::array<uint32_t, 8>{0x4B800002u, 0, 0, 0, 0, 0x40400000u,
                                                    0xBF800000u, 0x4B800000u}));
  // FP32 signalling NaN passes unchanged.
  poke(m, SBUF, 2, 0, 4, {0x7F800001u, 0, 0, 0, 0, 0, 0, 0});
  expect_ok(m, mvl(rm::sbuf_addr(2, 0), 1).encode());
  EXPECT_EQ(m.match[2].mv[7], 0x7F800001u);
  // A zero step loads one element into every slot.
  expect_ok(m, mvl(rm::sbuf_addr(2, 0), 0).encode());
  for (uint32_t v : m.match[2].mv) EXPECT_EQ(v, 0x7F800001u);
}

}  // namespace search

namespace search {

TEST(Search, FaultsChangeNothingAndLanesAreTraced) {
  Machine& m = fresh(Generation::V3);
  m.match[5].matched = 3;
  // Register-mode source whose register holds a PSUM address with a bad offset.
  m.registers[4] = 0x2000000u + 0x7000u;
  rm::S4D2BnWord x = fi8(rm::reg_addr(4), 8, rm::sbuf_addr(5, 0x200));
  expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress);
  rm::MatchValueLoadWord l = mvl(rm::reg_addr(4), 1);
  expect_unchanged(m, l.encode(), Status::Faulted, FaultKind::BadAddress);
  l = mvl(rm::sbuf_addr(5, 0), 1);
  l.ev.wait_mode = 1;
  l.ev.wait_idx = 2;
  l.ev.value = 1;
  expect_unchanged(m, l.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  // Invalid: a count of 7.
  l = mvl(rm::sbuf_addr(5, 0), 1);
  l.src.num[0] = 7;
  expect_unchanged(m, l.encode(), Status::Invalid, std::nullopt);

  // The trace reports each lane whose state changed, once, with before and after.
  struct Lanes : gpsimd::TraceSink {
    std::vector<std::pair<unsigned, gpsimd::MatchLane>> seen;
    void retire(const Word&, const gpsimd::InstrDef&) override {}
    void memory(Space, unsigned, uint32_t, std::span<const uint8_t>) override {}
    void accumulator(unsigned, uint32_t, uint32_t) override {}
    void semaphore(unsigned, uint32_t, uint32_t) override {}
    void match_lane(unsigned lane, const gpsimd::MatchLane& before,
                    const gpsimd::MatchLane& after) override {
      EXPECT_NE(before, after);
      seen.emplace_back(lane, after);
    }
  } sink;
  poke(m, SBUF, 5, 0, 4, fp32v({1, 2, 3, 4, 5, 6, 7, 8}));
  // Lane 6 is fresh and loads eight +0.0: unchanged, not reported.
  ASSERT_TRUE(
      exec(m, mvl(rm::sbuf_addr(5, 0), 1, dt::FP32, 2).encode(), ExecOptions{false, &sink, true})
          .ok());
  ASSERT_EQ(sink.seen.size(), 1u);
  EXPECT_EQ(sink.seen[0].first, 5u);
  EXPECT_EQ(sink.seen[0].second, m.match[5]);
}

}  // namespace search

}  // namespace
#endif
