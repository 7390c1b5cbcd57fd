// AffineSelect (SPEC §4.5): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.5.
inline ExpectedInstr affine_select_row() {
  return ExpectedInstr{"AffineSelect",
                       0x92,
                       "S2D2_TS_AS",
                       Engine::POOL,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"num_active_channels", 12, 1, K::U8},
                           {"in_out_dtype", 13, 1, K::DtypePair},
                           {"fill_mode", 14, 1, K::AffineCmp},
                           {"fill_reg", 15, 1, K::U8},
                           {"mask_pattern", 16, 20, K::Data4D, 4},
                           {"src_mem_pattern", 36, 12, K::Tensor, 2},
                           {"dst_mem_pattern", 48, 12, K::Tensor, 2},
                           {"channel_multiplier", 60, 4, K::I32},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_affine_select(): 3 channels from partition 1, FP32 in and out, fill_mode GT,
// fill_reg 7, channel_multiplier 1. mask: base -2, steps {-1, 0, 0, 0} counts
// {4, 2, 1, 1} (8 values: c - 2 - i0). src: TENSOR2D steps {1, 4} counts {4, 2} (32
// dense bytes) at SBUF partition 1 offset 0x100; dst: same shape at offset 0x300.
namespace as_word {
inline constexpr unsigned kChannels = 3;
inline constexpr Dtype kIn = Dtype::FP32, kOut = Dtype::FP32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(1, 0x100), kDstAddr = sbuf_addr(1, 0x300);
inline constexpr int32_t kBase = -2, kMultiplier = 1;
inline constexpr unsigned kFillReg = 7;
}  // namespace as_word

inline Word valid_affine_select() {
  using namespace as_word;
  return build(Opcode::AffineSelect,
               {{"num_active_channels", uint64_t{kChannels}},
                {"in_out_dtype", uint64_t{dtype_pair(kIn, kOut)}},
                {"fill_mode", uint64_t{0}},
                {"fill_reg", uint64_t{kFillReg}},
                {"mask_pattern", data4d(kBase, {-1, 0, 0, 0}, {4, 2, 1, 1})},
                {"src_mem_pattern", tensor(kSrcAddr, {1, 4}, {4, 2})},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 4}, {4, 2})},
                {"channel_multiplier", uint64_t{static_cast<uint32_t>(kMultiplier)}}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.5.
inline std::optional<FaultKind> affine_select(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[12];
  const uint8_t lo = w[13] & 0xf, hi = w[13] >> 4, mode = w[14], reg = w[15];
  const Tensor st = get_tensor(w, 36, 2), dtn = get_tensor(w, 48, 2);
  const auto mult = static_cast<int32_t>(get(w, 60, 4));
  const unsigned isz = size_of(lo), osz = size_of(hi);
  const auto src = resolve(m, st, isz, false, false, n);
  const auto dst = resolve(m, dtn, osz, false, true, n);
  if (!src || !dst) return FaultKind::BadAddress;
  const uint64_t mc = data4d_count(w, 16);
  if ((st.register_mode() || dtn.register_mode()) && (st.count() != mc || dtn.count() != mc))
    return FaultKind::ShapeMismatch;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const uint32_t fill = from_fp32(hi, m.registers[reg]);
  const auto soffs = walk(st, src->offset, isz), doffs = walk(dtn, dst->offset, osz);
  for (unsigned c = 0; c < n; ++c) {
    const std::vector<int32_t> r = ramp(w, 16, mult, c);
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      const int32_t v = r[j];
      const bool keep = mode == 0 ? v > 0 : mode == 1 ? v >= 0 : mode == 2 ? v == 0 : v != 0;
      const uint32_t x = load(m, src->space, src->partition + c, soffs[j], isz);
      const uint32_t y = !keep ? fill : lo == hi ? x : from_fp32(hi, to_fp32(lo, x));
      fx.stores.push_back({dst->space, dst->partition + c, doffs[j], osz, y});
    }
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_affine_select(Builder& b) {
  static constexpr uint8_t kData[] = {
      rm::dt::INT8, rm::dt::UINT8, rm::dt::INT16, rm::dt::UINT16, rm::dt::INT32,  rm::dt::UINT32,
      rm::dt::BF16, rm::dt::FP16,  rm::dt::FP32,  rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5};
  Rng& r = b.rng();
  rm::AffineSelectWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.in = kData[r.uin(0, 11)];
  x.out = r.chance(40) ? x.in : (r.chance(10) ? rm::dt::FP32R : kData[r.uin(0, 11)]);
  const unsigned isz = rm::size_of(x.in), osz = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  const rm::Loc sl =
      b.place_pair(n, {.t = x.src, .space = Space::SBUF, .elem = isz, .dims = 2, .count = count},
                   {.t = x.dst, .space = Space::SBUF, .elem = osz, .dims = 2, .count = count})
          .src;
  x.mask = random_pattern(b, count);
  x.channel_multiplier = random_multiplier(r);
  x.fill_mode = static_cast<uint8_t>(r.in(0, 3));
  x.fill_reg = static_cast<uint8_t>(b.fresh_reg());
  b.set_reg(x.fill_reg, r.chance(30) ? near_tie(r, x.out) : random_value(r, rm::dt::FP32));
  b.fill(x.src, sl, n, isz, [&] {
    return r.chance(20) && is_float(x.in) ? near_tie(r, x.out) & (isz == 4 ? ~0u : 0u)
                                          : random_value(r, x.in);
  });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  if (inj == Inject::Shape) {
    if (x.src.register_mode())
      x.src.num[1] += 1;
    else if (x.dst.register_mode())
      x.dst.num[0] += 1;
  }
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_affine_select(Gen& g) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  Word w{};
  w[0] = 0x92;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t lo = g.pick(kData), hi = g.below(8) ? g.pick(kData) : 0xb;
  w[12] = static_cast<uint8_t>(n);
  w[13] = static_cast<uint8_t>(lo | hi << 4);
  w[14] = static_cast<uint8_t>(g.below(4));
  w[15] = static_cast<uint8_t>(g.below(kRegisters));
  const auto num = g.nums(2);
  store_tensor(w, 16, data4d(g, {num[1], 1, num[0], 1}));
  store_tensor(w, 36, g.tensor(2, num, n, *dtype_size(lo), false));
  store_tensor(w, 48, g.tensor(2, {num[1], num[0], 1, 1}, n, *dtype_size(hi), false));
  store_u32(w, 60, static_cast<uint32_t>(g.rng()));
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {
namespace {

const Dtype kAffineData[] = {Dtype::INT8, Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16,
                             Dtype::BF16, Dtype::FP16,   Dtype::INT32,  Dtype::UINT32,
                             Dtype::FP32, Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};

Word affine_select_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0x92;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype din = large ? Dtype::FP32 : rng.pick(kAffineData);
  Dtype dout = rng.chance(0.4) ? din : rng.pick(kAffineData);
  if (large) dout = rng.chance(0.5) ? Dtype::FP32 : Dtype::BF16;
  if (!large && rng.chance(0.05)) dout = Dtype::FP32R;
  Window win;
  win.bytes = large ? 49152 : 4096;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned isz = *dtype_size(din), osz = *dtype_size(dout);
  TensorDesc src = random_walk(rng, 2, 0, large ? 10000 : 900, isz, win, p);
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  TensorDesc dst = random_walk(rng, 2, src.count(), 0, osz, win, pd);
  if (large) {  // dense rows, the fast path's best case
    src.step = {1, static_cast<int16_t>(src.num[0]), 0, 0};
    place(rng, src, isz, win, p);
    dst.num = src.num;
    dst.step = src.step;
    place(rng, dst, osz, win, pd);
  }
  fill2(rng, m, win, p, pd, n, din);
  TensorDesc mask = random_ramp(rng, src.count());
  if (large && rng.chance(0.5)) {  // the causal mask: m = c - j
    mask = TensorDesc{};
    mask.dims = 4;
    mask.step = {-1, static_cast<int16_t>(-static_cast<int>(src.num[0])), 0, 0};
    mask.num = {src.num[0], src.num[1], 1, 1};
  }
  w[12] = static_cast<uint8_t>(n);
  w[13] = static_cast<uint8_t>(static_cast<uint8_t>(din) | static_cast<uint8_t>(dout) << 4);
  w[14] = static_cast<uint8_t>(rng.below(4));
  w[15] = static_cast<uint8_t>(rng.below(64));
  const std::vector<uint32_t> edges = edge_values(Dtype::FP32);
  const uint32_t fill =
      rng.chance(0.5) ? edges[rng.below(edges.size())] : static_cast<uint32_t>(rng.bits());
  m.a.registers[w[15]] = m.b.registers[w[15]] = fill;
  store_tensor(w, 16, mask);
  store_tensor(w, 36, src);
  store_tensor(w, 48, dst);
  store_u32(w, 60, static_cast<uint32_t>(large ? 1 : random_multiplier(rng)));
  return w;
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "AffineSelect",
    .opcode = Opcode::AffineSelect,
    .opcode_clause = "has_s2d2_ts_as_opcode",
    .expected_row = expected_rows::affine_select_row,
    .valid_word = test_words::valid_affine_select,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::affine_select(m, w, fx);
        },
    .generate = random_words::gen_affine_select,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_affine_select,
    .kernel_words = {{kernels_equiv::affine_select_word, 18, 600, 8}},
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "kernels/affine.h"

#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd {
namespace {

// ---- clause cases (SPEC §4, §6): each mutation of the valid word fails one clause alone ----

std::vector<ClauseCase> clause_cases() {
  std::vector<ClauseCase> c;
  // ---- AffineSelect (SPEC §4.5): 3 channels from partition 1, counts 8/8/8 ----
  c.push_back({"as_channels_0", AS, [](Word& w) { set(w, "num_active_channels", 0); },
               "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
  c.push_back({"as_src_start_partition", AS,
               [](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(126, 0x100)); },
               "start_addr_active_channels", "src_mem_pattern", "126"});
  c.push_back({"as_dst_start_partition", AS,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x300)); },
               "start_addr_active_channels", "dst_mem_pattern", "127"});
  c.push_back({"as_count_src", AS, [](Word& w) { set_num(w, "src_mem_pattern", 1, 1); },
               "s2d2_ts_as_valid_elem_count", "src_mem_pattern",
               "count(mask) = 8, count(src) = 4, count(dst) = 8: src disagrees",
               "count(src), count(dst) and count(mask) must be equal"});
  c.push_back({"as_count_dst", AS, [](Word& w) { set_num(w, "dst_mem_pattern", 0, 3); },
               "s2d2_ts_as_valid_elem_count", "dst_mem_pattern",
               "count(mask) = 8, count(src) = 8, count(dst) = 6: dst disagrees"});
  c.push_back({"as_count_mask", AS, [](Word& w) { set_num(w, "mask_pattern", 3, 2); },
               "s2d2_ts_as_valid_elem_count", "mask_pattern",
               "count(mask) = 16, count(src) = 8, count(dst) = 8: mask disagrees"});
  c.push_back({"as_count_all_three", AS,
               [](Word& w) {
                 set_num(w, "src_mem_pattern", 1, 1);
                 set_num(w, "dst_mem_pattern", 0, 3);
               },
               "s2d2_ts_as_valid_elem_count", "mask_pattern",
               "count(mask) = 8, count(src) = 4, count(dst) = 6: all three disagree"});
  // A mask num_elem of 0: the num rule, and the count formula gives 0 (SPEC §3.6).
  c.push_back({"as_mask_num0", AS, [](Word& w) { set_num(w, "mask_pattern", 2, 0); },
               "s2d2_ts_as_valid_elem_count", "mask_pattern", "num_elem[2] = 0", ">= 1", 2});
  // Static even when src or dst is register mode.
  c.push_back({"as_mask_num0_register_src", AS,
               [](Word& w) {
                 set_num(w, "mask_pattern", 0, 0);
                 set_addr(w, "src_mem_pattern", reg_addr(3));
               },
               "s2d2_ts_as_valid_elem_count", "mask_pattern", "num_elem[0] = 0", ">= 1"});
  c.push_back({"as_in_dtype_fp32r", AS,
               [](Word& w) { set(w, "in_out_dtype", dtype_pair(Dtype::FP32R, Dtype::FP32)); },
               "s2d2_ts_as_valid_dtypes", "input", "FP32R (0xb)"});
  c.push_back({"as_in_dtype_int64", AS,
               [](Word& w) { set(w, "in_out_dtype", dtype_pair(Dtype::INT64, Dtype::FP32)); },
               "s2d2_ts_as_valid_dtypes", "input", "INT64 (0xc)"});
  c.push_back({"as_in_dtype_invalid", AS,
               [](Word& w) { set(w, "in_out_dtype", dtype_pair(Dtype::INVALID, Dtype::FP32)); },
               "s2d2_ts_as_valid_dtypes", "input", "INVALID (0x0)"});
  c.push_back({"as_out_dtype_uint64", AS,
               [](Word& w) { set(w, "in_out_dtype", dtype_pair(Dtype::FP32, Dtype::UINT64)); },
               "s2d2_ts_as_valid_dtypes", "output", "UINT64 (0x1)"});
  c.push_back({"as_out_dtype_invalid", AS,
               [](Word& w) { set(w, "in_out_dtype", dtype_pair(Dtype::FP32, Dtype::INVALID)); },
               "s2d2_ts_as_valid_dtypes", "output", "INVALID (0x0)"});
  for (unsigned m : {4u, 0x13u, 0xffu})
    c.push_back({"as_fill_mode_" + std::to_string(m), AS, [m](Word& w) { set(w, "fill_mode", m); },
                 "is_valid_enum", "fill_mode", hex8_of(m), "GT (0), GE (1), EQ (2) or NE (3)"});
  for (unsigned r : {64u, 255u})
    c.push_back({"as_fill_reg_" + std::to_string(r), AS, [r](Word& w) { set(w, "fill_reg", r); },
                 "is_valid_register_read", "fill_reg", std::to_string(r), "< 64"});
  return c;
}
GPSIMD_CLAUSE_CASES(AffineSelect, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// ---- AffineSelect (SPEC §4.5) -----------------------------------------------------------

// The NKI test: a 128 x 128 FP32 tile keeps col < row and fills the rest with -9984.0
// (base 0, step -1 over the columns, channel_multiplier +1, GT: m = c - j > 0).
TEST(AffineSelect, NkiUpperTriangleFill) {
  Machine& m = fresh(Generation::V3);
  rm::AffineSelectWord x = as_word(dt::FP32, dt::FP32, 128, 0, 128, 0, 5);
  x.mask.step[0] = -1;
  x.channel_multiplier = 1;
  m.registers[5] = f32(-9984.0f);
  for (unsigned c = 0; c < 128; ++c) {
    V row(128);
    for (unsigned j = 0; j < 128; ++j) row[j] = f32(static_cast<float>(c * 1000 + j) + 0.5f);
    poke(m, SBUF, c, 0x1000, 4, row);
  }
  expect_ok(m, x.encode());
  for (unsigned c = 0; c < 128; ++c) {
    V want(128);
    for (unsigned j = 0; j < 128; ++j)
      want[j] = j < c ? f32(static_cast<float>(c * 1000 + j) + 0.5f) : f32(-9984.0f);
    ASSERT_EQ(peek(m, SBUF, c, 0x8000, 4, 128), want) << "row " << c;
  }
}

TEST(AffineSelect, EveryFillModeComparesAgainstZero) {
  // base -2, step 1 over 5 elements: m = -2, -1, 0, 1, 2.
  const V src = {10, 11, 12, 13, 14};
  const uint32_t F = 0xFFFFFFFB;            // the fill register holds FP32 -5.0: INT32 -5
  const V want[4] = {{F, F, F, 13, 14},     // GT
                     {F, F, 12, 13, 14},    // GE
                     {F, F, 12, F, F},      // EQ
                     {10, 11, F, 13, 14}};  // NE
  for (uint8_t mode = 0; mode < 4; ++mode) {
    Machine& m = fresh(Generation::V2);
    rm::AffineSelectWord x = as_word(dt::INT32, dt::INT32, 1, 3, 5, mode, 63);
    x.mask.base = -2;
    m.registers[63] = f32(-5.0f);
    poke(m, SBUF, 3, 0x1000, 4, src);
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 3, 0x8000, 4, 5), want[mode]) << int{mode};
  }
}

// c counts from the operand's start partition, not from partition 0; the mask's four
// dimensions pair with a 2-D source by ordinal.
TEST(AffineSelect, ChannelIndexAndFourDimensionalMask) {
  Machine& m = fresh(Generation::V4);
  rm::AffineSelectWord x = as_word(dt::FP32, dt::FP32, 2, 40, 6, 1, 0);
  // m = -3 + 2*i0 - 1*i1 + 10*c over i0 < 3, i1 < 2 (ordinal j = i0 + 3*i1).
  x.mask.base = -3;
  x.mask.step[0] = 2;
  x.mask.step[1] = -1;
  x.mask.num[0] = 3;
  x.mask.num[1] = 2;
  x.mask.num[2] = 1;
  x.channel_multiplier = 10;
  x.src = tensor2(rm::sbuf_addr(40, 0x1000), 1, 2, 2, 3);
  x.dst = tensor2(rm::sbuf_addr(40, 0x8000), 1, 6, 0, 1);
  m.registers[0] = f32(-1.0f);
  for (unsigned c = 0; c < 2; ++c)
    poke(m, SBUF, 40 + c, 0x1000, 4, V{f32(1), f32(2), f32(3), f32(4), f32(5), f32(6)});
  expect_ok(m, x.encode());
  // Channel 0: m = -3, -1, 1, -4, -2, 0 -> GE keeps ordinals 2 and 5.
  EXPECT_EQ(peek(m, SBUF, 40, 0x8000, 4, 6),
            (V{f32(-1), f32(-1), f32(3), f32(-1), f32(-1), f32(6)}));
  // Channel 1 (partition 41): m + 10, every one >= 0.
  EXPECT_EQ(peek(m, SBUF, 41, 0x8000, 4, 6), (V{f32(1), f32(2), f32(3), f32(4), f32(5), f32(6)}));
}

// Different dtypes go through FP32: integers round to nearest even and saturate.
TEST(AffineSelect, ConversionsThroughFp32) {
  struct Case {
    uint8_t in, out;
    V src, want;
  };
  const Case cases[] = {
      // INT32 -> UINT32: negatives saturate to 0; beyond 2^24 rounds (2^31 - 1 -> 2^31).
      {dt::INT32,
       dt::UINT32,
       {0xFFFFFFFBu, 7, 0x7FFFFFFFu, 16777217},
       {0, 7, 0x80000000u, 16777216}},
      // INT32 -> INT8 saturates.
      {dt::INT32,
       dt::INT8,
       {300, 0xFFFFFED4u /* -300 */, 0xFFFFFFFFu, 127},
       {0x7F, 0x80, 0xFF, 0x7F}},
      // FP32 -> INT16: ties to even, -0.0 -> 0, NaN -> 0, +-inf -> the extremes.
      {dt::FP32, dt::INT16, {f32(2.5f), f32(3.5f), 0x80000000u, 0x7FC00001u}, {2, 4, 0, 0}},
      {dt::FP32,
       dt::INT16,
       {kNegInf, 0x7F800000u, f32(-32768.6f), f32(1e9f)},
       {0x8000, 0x7FFF, 0x8000, 0x7FFF}},
      // UINT8 -> BF16 exactly; INT16 -> FP16.
      {dt::UINT8, dt::BF16, {255, 0, 1, 128}, {0x437F, 0, 0x3F80, 0x4300}},
      {dt::INT16, dt::FP16, {0xFFFF, 2048, 2049, 0x7FFF}, {0xBC00, 0x6800, 0x6800, 0x7800}},
      // FP32 -> BF16 rounds to nearest even; BF16 -> FP32 widens exactly.
      {dt::FP32,
       dt::BF16,
       {0x3F808000u, 0x3F818000u, kNegFltMax, 0x7F800001u},
       {0x3F80, 0x3F82, 0xFF80, 0x7FC0}},
      {dt::BF16,
       dt::FP32,
       {0x3F80, 0xFF80, 0x8000, 0x7F81},
       {0x3F800000u, kNegInf, 0x80000000u, 0x7FC10000u}},
      // The same dtype is a bit copy, signalling NaN and -0.0 included.
      {dt::FP32, dt::FP32, {0x7F800001u, 0x80000000u, 1, 2}, {0x7F800001u, 0x80000000u, 1, 2}},
      // FP32 -> FP32R: the same bits.
      {dt::FP32, dt::FP32R, {0x7F800001u, 3, 4, 5}, {0x7F800001u, 3, 4, 5}},
  };
  for (const Case& k : cases) {
    Machine& m = fresh(Generation::V3);
    rm::AffineSelectWord x = as_word(k.in, k.out, 1, 9, 4, 1, 2);  // GE, m = 0, 1, 2, 3
    poke(m, SBUF, 9, 0x1000, rm::size_of(k.in), k.src);
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 9, 0x8000, rm::size_of(k.out), 4), k.want)
        << int{k.in} << " -> " << int{k.out};
  }
}

// The fill is the register's 32 bits read as FP32 and converted to the output dtype.
TEST(AffineSelect, FillRegisterIsAnFp32ConvertedToTheOutput) {
  struct Case {
    uint8_t out;
    uint32_t reg, want;
  };
  const Case cases[] = {
      {dt::FP32, 0x7F800001u, 0x7F800001u},  // NaN payload kept
      {dt::FP32R, 0xFFC01234u, 0xFFC01234u},
      {dt::BF16, 0x7F800001u, 0x7FC0},  // canonical NaN
      {dt::BF16, kNegFltMax, 0xFF80},   // -FLT_MAX -> -inf
      {dt::INT32, 0xC0F00000u /* -7.5 */, 0xFFFFFFF8u},
      {dt::UINT16, 0xC0F00000u, 0},
      {dt::FP8_E4, 0x43780000u /* 248 */, 0x78},
  };
  for (const Case& k : cases) {
    Machine& m = fresh(Generation::V5);
    const uint8_t in = k.out == dt::FP32R ? dt::FP32 : k.out;     // FP32R is output-only
    rm::AffineSelectWord x = as_word(in, k.out, 1, 0, 2, 0, 11);  // GT: m = 0, 1
    m.registers[11] = k.reg;
    poke(m, SBUF, 0, 0x1000, rm::size_of(k.out), V{1, 1});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 0, 0x8000, rm::size_of(k.out), 1), V{k.want}) << int{k.out};
  }
}

// The ramp wraps modulo 2^32 (SPEC §3.7): INT32_MAX + 1 is negative.
TEST(AffineSelect, RampWrapsAround) {
  Machine& m = fresh(Generation::V3);
  rm::AffineSelectWord x = as_word(dt::INT32, dt::INT32, 2, 0, 3, 0, 1);
  x.mask.base = 2147483646;  // 2^31 - 2, then 2^31 - 1, then -2^31
  x.channel_multiplier = 1;  // channel 1: 2^31 - 1, -2^31, -2^31 + 1
  m.registers[1] = 99;
  poke(m, SBUF, 0, 0x1000, 4, V{1, 2, 3});
  poke(m, SBUF, 1, 0x1000, 4, V{4, 5, 6});
  expect_ok(m, x.encode());
  // The fill 99 read as FP32 (a subnormal) converts to INT32 0.
  EXPECT_EQ(peek(m, SBUF, 0, 0x8000, 4, 3), (V{1, 2, 0}));
  EXPECT_EQ(peek(m, SBUF, 1, 0x8000, 4, 3), (V{4, 0, 0}));
}

}  // namespace

namespace gpsimd::kernels_equiv {
namespace {

// The in-register comparison of a wrapping run, directly against the rule, on every
// target: every fill mode, run lengths around the vector widths, steps that wrap.
TEST(KernelsEquivTest, AffineSelectRunInRegisters) {
  Rng rng(20);
  for_each_target([&](bool) {
    for (int i = 0; i < 2000; ++i) {
      const size_t len = 1 + rng.below(70);
      std::vector<uint32_t> in(len), out(len);
      for (uint32_t& v : in) v = static_cast<uint32_t>(rng.bits());
      const uint32_t v0 = static_cast<uint32_t>(rng.bits());
      const uint32_t steps[] = {1u,          0xffffffffu, 0x7fffu,
                                0xffff8000u, 0u,          static_cast<uint32_t>(rng.bits())};
      const uint32_t step = rng.pick(steps);
      const uint8_t mode = static_cast<uint8_t>(rng.below(4));
      const uint32_t fill = static_cast<uint32_t>(rng.bits());
      kernels::affine_simd::select_run32(reinterpret_cast<const uint8_t*>(in.data()), len, v0, step,
                                         mode, fill, reinterpret_cast<uint8_t*>(out.data()));
      for (size_t k = 0; k < len; ++k) {
        const auto v = static_cast<int32_t>(v0 + static_cast<uint32_t>(k) * step);
        const bool keep = mode == 0 ? v > 0 : mode == 1 ? v >= 0 : mode == 2 ? v == 0 : v != 0;
        ASSERT_EQ(out[k], keep ? in[k] : fill) << "mode " << int{mode} << " k " << k;
      }
    }
  });
}

}  // namespace
}  // namespace gpsimd::kernels_equiv
#endif
