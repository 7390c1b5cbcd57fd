// NonzeroWithCount (SPEC §4.11): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.11.
inline ExpectedInstr nonzero_with_count_row() {
  return ExpectedInstr{"NonzeroWithCount",
                       0xf2,
                       "S3D3_NONZERO_WITH_COUNT",
                       Engine::POOL,
                       {G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"num_active_channels", 12, 1, K::U8},
                           {"in_dtype", 13, 1, K::Dtype},
                           {"out_dtype", 14, 1, K::Dtype},
                           {"index_offset_src", 15, 1, K::ImmSrc},
                           {"src_mem_pattern", 16, 16, K::Tensor, 3},
                           {"index_offset", 32, 4, K::ImmVal, 0, "index_offset_src"},
                           {"padding_val_src", 36, 1, K::ImmSrc},
                           {"reserved0", 37, 3, K::Reserved},
                           {"padding_val", 40, 4, K::ImmVal, 0, "padding_val_src"},
                           {"dst_mem_pattern", 44, 16, K::Tensor, 3},
                           {"reserved1", 60, 4, K::Reserved},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_nonzero_with_count(): 17 channels from partition 0 (channels 0 and 16 are
// processed, SPEC §4.11), INT32 in and out. src: TENSOR3D steps {1, 4, 16} counts
// {4, 4, 1} (16 ids, 64 dense bytes) at SBUF partition 0 offset 0x100; dst: steps
// {1, 17, 17} counts {17, 1, 1} (16 indices or paddings, then the count: 68 dense bytes)
// at partition 0 offset 0x400. index_offset 16 and padding_val -1, both instruction
// immediates.
namespace nwc_word {
inline constexpr unsigned kChannels = 17;
inline constexpr unsigned kN = 16;  // count(src); dst has kN + 1
inline constexpr Dtype kIn = Dtype::INT32, kOut = Dtype::INT32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(0, 0x100), kDstAddr = sbuf_addr(0, 0x400);
inline constexpr uint32_t kIndexOffset = 16, kPadding = 0xffffffffu;
}  // namespace nwc_word

inline Word valid_nonzero_with_count() {
  using namespace nwc_word;
  return build(Opcode::NonzeroWithCount,
               {{"num_active_channels", uint64_t{kChannels}},
                {"in_dtype", uint64_t{static_cast<uint8_t>(kIn)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(kOut)}},
                {"src_mem_pattern", tensor(kSrcAddr, {1, 4, 16}, {4, 4, 1})},
                {"index_offset", uint64_t{kIndexOffset}},
                {"padding_val", uint64_t{kPadding}},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 17, 17}, {17, 1, 1})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.11. Offsets: 12 channels, 13 in_dtype, 15 index_offset_src, 16 src (TENSOR3D),
// 32 index_offset, 36 padding_val_src, 40 padding_val, 44 dst (TENSOR3D).
inline std::optional<FaultKind> nonzero_with_count(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[12];
  const bool fp = w[13] == dt::FP32;
  const Tensor st = get_tensor(w, 16, 3), dtn = get_tensor(w, 44, 3);
  const auto src = resolve(m, st, 4, false, false, n);
  const auto dst = resolve(m, dtn, 4, false, true, n);
  const auto off = resolve_imm(m, w[15], get(w, 32, 4), 4, false, n);
  const auto pad = resolve_imm(m, w[36], get(w, 40, 4), 4, false, n);
  if (!src || !dst || !off || !pad) return FaultKind::BadAddress;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto soffs = walk(st, src->offset, 4), doffs = walk(dtn, dst->offset, 4);
  // Every 16th channel, counted from the start partitions.
  for (unsigned c = 0; c < n; c += 16) {
    const std::size_t t = soffs.size();
    std::vector<uint32_t> out;
    for (std::size_t j = 0; j < t; ++j) {
      const uint32_t x = load(m, Space::SBUF, src->partition + c, soffs[j], 4);
      // INT32: any bit; FP32: x != 0 as a float, so -0.0 is zero and NaN is not.
      const bool nonzero = fp ? !(as_float(x) == 0.0f) : x != 0;
      if (nonzero)
        out.push_back(static_cast<uint32_t>((uint64_t{j} + off->at(m, c)) % (uint64_t{1} << 32)));
    }
    const auto k = static_cast<uint32_t>(out.size());
    while (out.size() < t) out.push_back(pad->at(m, c));
    out.push_back(k);
    for (std::size_t j = 0; j < doffs.size(); ++j)
      fx.stores.push_back({Space::SBUF, dst->partition + c, doffs[j], 4, out[j]});
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_nonzero_with_count(Builder& b) {
  Rng& r = b.rng();
  rm::NonzeroWithCountWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.in = r.pick<uint8_t>({rm::dt::INT32, rm::dt::FP32});
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 16384 / n));
  x.channels = static_cast<uint8_t>(n);
  const rm::Loc sl =
      b.place_pair(n, {.t = x.src, .space = Space::SBUF, .elem = 4, .dims = 3, .count = count},
                   {.t = x.dst, .space = Space::SBUF, .elem = 4, .dims = 3, .count = count + 1})
          .src;
  const unsigned ps = sl.partition;
  auto offset = [&](unsigned) {
    return r.pick<uint32_t>({0u, 16u, r.u32(), 0xffffffffu - r.uin(0, 8), r.u32() & 0xffff});
  };
  auto padding = [&](unsigned) { return r.pick<uint32_t>({0u, 0xffffffffu, r.u32()}); };
  std::tie(x.index_offset_src, x.index_offset) = b.immediate(4, ps, n, false, offset(0), offset);
  std::tie(x.padding_val_src, x.padding_val) = b.immediate(4, ps, n, false, padding(0), padding);
  const unsigned density = r.pick<unsigned>({0u, 1u, 50u, 99u, 100u, r.uin(0, 100)});
  const bool fp = x.in == rm::dt::FP32;
  b.fill(x.src, sl, n, 4, [&] { return zero_or_value(r, density, x.in, fp); });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.11: one byte each for in_dtype and out_dtype; count(dst) = count(src) + 1.
inline Word valid_nonzero_with_count(Gen& g) {
  Word w{};
  w[0] = 0xf2;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(40);
  w[12] = static_cast<uint8_t>(n);
  w[13] = g.below(2) ? 0x8 : 0xa;
  w[14] = 0x8;
  const auto num = g.nums(3);
  store_tensor(w, 16, g.tensor(3, num, n, 4, false));
  const uint16_t t = static_cast<uint16_t>(num[0] * num[1] * num[2]);
  const std::array<uint16_t, kMaxDims> dnum =
      g.below(2) ? std::array<uint16_t, kMaxDims>{static_cast<uint16_t>(t + 1), 1, 1, 1}
                 : std::array<uint16_t, kMaxDims>{1, static_cast<uint16_t>(t + 1), 1, 1};
  store_tensor(w, 44, g.tensor(3, dnum, n, 4, false));
  g.immediate(w, 15, 32, 4, n, false);
  g.immediate(w, 36, 40, 4, n, false);
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {
namespace {

// Densities 0, 1, 50, 99 and 100 %, INT32 and FP32 (-0.0, NaN, subnormals), dense and
// strided walks, lengths around the vector widths, 1 to 128 channels from any partition.

Word nonzero_with_count_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0xf2;
  w[1] = 0x10;
  const unsigned n = large ? 1 + 16 * rng.below(8) : random_channels(rng);
  const bool fp = rng.chance(0.5);
  Window win;
  win.bytes = large ? 65536 : 4096;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.5) ? p : rng.below(kPartitions - n + 1);
  const uint64_t t = random_count(rng, large ? 12000 : 500);
  const double dense = rng.chance(0.4) ? 1.0 : 0.3;
  TensorDesc src = dense_or_random(rng, t, 4, win, p, dense);
  TensorDesc dst = dense_or_random(rng, src.count() + 1, 4, win, pd, dense);
  const double density = rng.pick(kDensities);
  // The destination first, so that the source's values win where the two overlap.
  fill(rng, m, win, pd, n, Dtype::INT32);
  fill_density(rng, m, win, p, n, fp ? Dtype::FP32 : Dtype::INT32, density, fp);
  w[12] = static_cast<uint8_t>(n);
  w[13] = fp ? 0x0a : 0x08;
  w[14] = 0x08;
  store_tensor(w, 16, src);
  for (unsigned k = 0; k < 2; ++k) {  // index_offset (byte 15, 32), padding_val (36, 40)
    const unsigned src_at = k == 0 ? 15 : 36, val_at = k == 0 ? 32 : 40;
    auto value = [&] {
      const uint32_t vs[] = {0u, 16u, 0xffffffffu, 0xfffffff0u, 0x80000000u};
      return rng.chance(0.5) ? rng.pick(vs) : static_cast<uint32_t>(rng.bits());
    };
    if (rng.chance(0.25)) {
      w[src_at] = 1;
      const uint32_t off = rng.below(win.bytes / 4) * 4;
      const unsigned pp = rng.below(kPartitions - n + 1);
      store_u32(w, val_at, encode_static_addr({win.space, pp, off}));
      for (unsigned c = 0; c < n; ++c) {
        const uint32_t v = value();
        std::memcpy(m.a.partition(win.space, pp + c).data() + off, &v, 4);
        std::memcpy(m.b.partition(win.space, pp + c).data() + off, &v, 4);
        m.touched.emplace_back(win.space, pp + c);
      }
    } else {
      store_u32(w, val_at, value());
    }
  }
  store_tensor(w, 44, dst);
  return w;
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "NonzeroWithCount",
    .opcode = Opcode::NonzeroWithCount,
    .opcode_clause = "has_nonzero_with_count_opcode",
    .expected_row = expected_rows::nonzero_with_count_row,
    .valid_word = test_words::valid_nonzero_with_count,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::nonzero_with_count(m, w, fx);
        },
    .generate = random_words::gen_nonzero_with_count,
    .random_generations = {Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_nonzero_with_count,
    .kernel_words = {{kernels_equiv::nonzero_with_count_word, 17, 600, 12}},
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
  // ---- NonzeroWithCount (SPEC §4.11) ----
  c.push_back({"nwc_channels_0", NWC, [](Word& w) { set(w, "num_active_channels", 0); },
               "check_active_channels", "num_active_channels", "0", "1..128"});
  for (unsigned b : {37u, 39u})
    c.push_back({"nwc_reserved0_byte" + std::to_string(b), NWC, [b](Word& w) { w[b] = 0x20; },
                 "s3d3_nonzero_with_count_reserved_zero", "reserved0", "0x20", "zero"});
  for (unsigned b : {60u, 63u})
    c.push_back({"nwc_reserved1_byte" + std::to_string(b), NWC, [b](Word& w) { w[b] = 1; },
                 "s3d3_nonzero_with_count_reserved_zero", "reserved1", "0x01", "zero"});
  c.push_back({"nwc_index_offset_src_3", NWC, [](Word& w) { set(w, "index_offset_src", 3); },
               "has_valid_immediates", "index_offset_src", "0x03"});
  c.push_back({"nwc_padding_val_src_ff", NWC, [](Word& w) { set(w, "padding_val_src", 0xff); },
               "has_valid_immediates", "padding_val_src", "0xff"});
  c.push_back({"nwc_index_offset_pointer_psum", NWC,
               [](Word& w) {
                 set(w, "index_offset_src", 1);
                 set(w, "index_offset", psum_addr(0, 0x100));
               },
               "has_valid_immediates", "index_offset", "0x02000100", "SBUF"});
  c.push_back({"nwc_padding_val_pointer_psum", NWC,
               [](Word& w) {
                 set(w, "padding_val_src", 1);
                 set(w, "padding_val", psum_addr(3, 0x40));
               },
               "has_valid_immediates", "padding_val", "0x02018040", "SBUF"});
  c.push_back({"nwc_padding_val_pointer_misaligned", NWC,
               [](Word& w) {
                 set(w, "padding_val_src", 1);
                 set(w, "padding_val", sbuf_addr(0, 0x802));
               },
               "has_valid_immediates", "padding_val", "0x00000802"});
  c.push_back({"nwc_index_offset_pointer_partitions", NWC,
               [](Word& w) {
                 set(w, "index_offset_src", 1);
                 set(w, "index_offset", sbuf_addr(112, 0x800));  // 112 + 17 > 128
               },
               "has_valid_immediates", "index_offset", "0x01c00800"});
  c.push_back({"nwc_index_offset_pointer_mode_bits", NWC,
               [](Word& w) {
                 set(w, "index_offset_src", 1);
                 set(w, "index_offset", 0x20000800);
               },
               "has_valid_immediates", "index_offset", "0x20000800"});
  c.push_back({"nwc_index_offset_register_id_64", NWC,
               [](Word& w) {
                 set(w, "index_offset_src", 2);
                 set(w, "index_offset", 64);
               },
               "has_valid_immediates", "index_offset", "0x00000040"});
  c.push_back({"nwc_padding_val_register_upper_bytes", NWC,
               [](Word& w) {
                 set(w, "padding_val_src", 2);
                 set(w, "padding_val", 0x0000ff3f);
               },
               "has_valid_immediates", "padding_val", "0x0000ff3f"});
  for (Dtype d : {Dtype::INT16, Dtype::UINT32, Dtype::BF16, Dtype::INT8})
    c.push_back({"nwc_in_dtype_" + name_of(d), NWC, [d](Word& w) { set(w, "in_dtype", code(d)); },
                 "has_valid_nonzero_with_count_dtype", "in_dtype", name_of(d), "INT32 or FP32"});
  for (Dtype d : {Dtype::FP32, Dtype::FP32R, Dtype::UINT32, Dtype::INT16})
    c.push_back({"nwc_out_dtype_" + name_of(d), NWC, [d](Word& w) { set(w, "out_dtype", code(d)); },
                 "has_valid_nonzero_with_count_dtype", "out_dtype", name_of(d), "INT32"});
  c.push_back({"nwc_src_start_partition", NWC,
               [](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(112, 0x100)); },
               "start_addr_active_channels", "src_mem_pattern", "112"});
  c.push_back({"nwc_dst_start_partition", NWC,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x400)); },
               "start_addr_active_channels", "dst_mem_pattern", "127"});
  c.push_back({"nwc_src_psum", NWC,
               [](Word& w) { set_addr(w, "src_mem_pattern", psum_addr(0, 0x100)); },
               "tensor3d_valid", "src_mem_pattern", "0x02000100", "SBUF"});
  c.push_back({"nwc_dst_psum", NWC,
               [](Word& w) { set_addr(w, "dst_mem_pattern", psum_addr(0, 0x400)); },
               "tensor3d_valid", "dst_mem_pattern", "0x02000400", "SBUF"});
  c.push_back({"nwc_dst_misaligned", NWC,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(0, 0x402)); },
               "tensor3d_valid", "dst_mem_pattern", "0x00000402", "aligned"});
  c.push_back({"nwc_src_outside_partition", NWC,
               [](Word& w) { set_step(w, "src_mem_pattern", 1, -100); }, "tensor3d_valid",
               "src_mem_pattern", "0x00000100"});
  c.push_back({"nwc_count_dst_equal_src", NWC,
               [](Word& w) { set_num(w, "dst_mem_pattern", 0, 16); },
               "s3d3_nonzero_with_count_element_count_check_t3d", "dst_mem_pattern", "16",
               "count(src) + 1"});
  c.push_back({"nwc_count_dst_twice", NWC, [](Word& w) { set_num(w, "dst_mem_pattern", 1, 2); },
               "s3d3_nonzero_with_count_element_count_check_t3d", "dst_mem_pattern", "34"});
  c.push_back({"nwc_count_src_grows", NWC, [](Word& w) { set_num(w, "src_mem_pattern", 2, 2); },
               "s3d3_nonzero_with_count_element_count_check_t3d", "dst_mem_pattern", "src has 32"});
  // SPEC §4.11: the counts are in the word, so register mode waives nothing.
  c.push_back({"nwc_count_register_src", NWC,
               [](Word& w) {
                 set_addr(w, "src_mem_pattern", reg_addr(5));
                 set_num(w, "dst_mem_pattern", 0, 18);
               },
               "s3d3_nonzero_with_count_element_count_check_t3d", "dst_mem_pattern", "18"});
  c.push_back({"nwc_count_register_both", NWC,
               [](Word& w) {
                 set_addr(w, "src_mem_pattern", reg_addr(5));
                 set_addr(w, "dst_mem_pattern", reg_addr(6));
                 set_num(w, "src_mem_pattern", 0, 5);
               },
               "s3d3_nonzero_with_count_element_count_check_t3d", "dst_mem_pattern", "src has 20"});
  return c;
}
GPSIMD_CLAUSE_CASES(NonzeroWithCount, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// ---- NonzeroWithCount (SPEC §4.11) ------------------------------------------------------

TEST(NonzeroWithCount, SpecExampleInt32AndFp32) {
  // [0,1,1,0,0,1,0,0], index_offset 16, padding_val -1 -> [17,18,21,-1,-1,-1,-1,-1,3].
  const V want = {17, 18, 21, kMinus1, kMinus1, kMinus1, kMinus1, kMinus1, 3};
  {
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 0, 0x100, 4, {0, 1, 1, 0, 0, 1, 0, 0});
    expect_ok(m, nwc_word(dt::INT32, 8, 16, kMinus1).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 9), want);
  }
  {  // FP32 with other nonzero values and -0.0 among the zeros.
    Machine& m = fresh(Generation::V4);
    poke(m, SBUF, 0, 0x100, 4,
         {0, f32(1.0f), f32(-2.5f), 0x80000000, 0, f32(1e30f), 0x80000000, 0});
    expect_ok(m, nwc_word(dt::FP32, 8, 16, kMinus1).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 9), want);
  }
}

TEST(NonzeroWithCount, Fp32AndInt32NonzeroRules) {
  // +0, -0, qNaN, +inf, -inf, smallest subnormal, negative subnormal, 1.0, sNaN, -0.
  const V src = {0x00000000, 0x80000000, 0x7FC00000, 0x7F800000, 0xFF800000,
                 0x00000001, 0x80000001, 0x3F800000, 0x7F800001, 0x80000000};
  constexpr uint32_t kPad = 0xAAAAAAAAu;
  {  // FP32: +0.0 and -0.0 are zero; NaN, inf and subnormals are not.
    Machine& m = fresh(Generation::V5);
    poke(m, SBUF, 0, 0x100, 4, src);
    expect_ok(m, nwc_word(dt::FP32, 10, 0, kPad).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 11), (V{2, 3, 4, 5, 6, 7, 8, kPad, kPad, kPad, 7}));
  }
  {  // INT32: any bit set, so -0.0's bit pattern is nonzero.
    Machine& m = fresh(Generation::V5);
    poke(m, SBUF, 0, 0x100, 4, src);
    expect_ok(m, nwc_word(dt::INT32, 10, 0, kPad).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 11), (V{1, 2, 3, 4, 5, 6, 7, 8, 9, kPad, 9}));
  }
}

TEST(NonzeroWithCount, AllZeroAndAllNonzeroSources) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, {0, 0, 0, 0, 0});
  expect_ok(m, nwc_word(dt::INT32, 5, 100, 0x12345678).encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 6),
            (V{0x12345678, 0x12345678, 0x12345678, 0x12345678, 0x12345678, 0}));
  poke(m, SBUF, 0, 0x100, 4, {9, kMinus1, 0x80000000, 1, 2});
  expect_ok(m, nwc_word(dt::INT32, 5, 100, 0x12345678).encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 6), (V{100, 101, 102, 103, 104, 5}));
  // One element: [index or padding, count].
  rm::NonzeroWithCountWord one = nwc_word(dt::FP32, 1, 7, 0xEE);
  poke(m, SBUF, 0, 0x100, 4, {0x80000000});
  expect_ok(m, one.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 2), (V{0xEE, 0}));
}

TEST(NonzeroWithCount, IndexWrapsModulo2To32) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, {1, 0, 1, 1, 1});
  expect_ok(m, nwc_word(dt::INT32, 5, 0xFFFFFFFEu, 0x5A).encode());
  // j = 0, 2, 3, 4 plus 2^32 - 2.
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 6), (V{0xFFFFFFFEu, 0, 1, 2, 0x5A, 4}));
  // index_offset = -16 (0xFFFFFFF0) on j = 20: 4.
  V src(21, 0);
  src[20] = 3;
  poke(m, SBUF, 0, 0x100, 4, src);
  expect_ok(m, nwc_word(dt::INT32, 21, 0xFFFFFFF0u, 0).encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 2), (V{4, 0}));
  EXPECT_EQ(peek(m, SBUF, 1, 0x200 + 21 * 4, 4, 1), V{1});
}

// Only channels c % 16 == 0, counted from the start partitions, are processed; the other
// channels' destinations keep their bytes.
TEST(NonzeroWithCount, OnlyEverySixteenthChannelFromTheStartPartition) {
  constexpr uint32_t kOld = 0xEEEEEEEEu;
  for (unsigned dst_start : {5u, 40u}) {
    SCOPED_TRACE(dst_start);
    Machine& m = fresh(Generation::V3);
    rm::NonzeroWithCountWord x = nwc_word(dt::INT32, 4, 10, kMinus1);
    x.channels = 17;
    x.src.addr = rm::sbuf_addr(5, 0x100);
    x.dst.addr = rm::sbuf_addr(dst_start, 0x400);
    for (unsigned c = 0; c < 17; ++c) {
      // Channel c: nonzero at ordinal c % 4 only.
      V s(4, 0);
      s[c % 4] = c + 1;
      poke(m, SBUF, 5 + c, 0x100, 4, s);
      poke(m, SBUF, dst_start + c, 0x400, 4, V(5, kOld));
    }
    expect_ok(m, x.encode());
    for (unsigned c = 0; c < 17; ++c) {
      // Channels 0 and 16: ordinal 0 -> index 10, three paddings, count 1.
      const V want = c % 16 == 0 ? V{10, kMinus1, kMinus1, kMinus1, 1} : V(5, kOld);
      EXPECT_EQ(peek(m, SBUF, dst_start + c, 0x400, 4, 5), want) << "channel " << c;
    }
    // The source is unchanged (the destination sits at other offsets).
    EXPECT_EQ(peek(m, SBUF, 21, 0x100, 4, 4), (V{17, 0, 0, 0}));
  }
  // 128 channels from partition 0: 0, 16, ..., 112 only.
  Machine& m = fresh(Generation::V5);
  rm::NonzeroWithCountWord x = nwc_word(dt::INT32, 2, 0, 7);
  x.channels = 128;
  x.src.addr = rm::sbuf_addr(0, 0x100);
  x.dst.addr = rm::sbuf_addr(0, 0x200);
  for (unsigned p = 0; p < 128; ++p) poke(m, SBUF, p, 0x100, 4, {0, p + 1});
  expect_ok(m, x.encode());
  for (unsigned p = 0; p < 128; ++p)
    EXPECT_EQ(peek(m, SBUF, p, 0x200, 4, 3), p % 16 == 0 ? (V{1, 7, 1}) : (V{0, 0, 0})) << p;
}

TEST(NonzeroWithCount, PointerImmediatesArePerChannel) {
  Machine& m = fresh(Generation::V3);
  rm::NonzeroWithCountWord x = nwc_word(dt::INT32, 3, 0, 0);
  x.channels = 17;
  x.src.addr = rm::sbuf_addr(0, 0x100);
  x.dst.addr = rm::sbuf_addr(20, 0x200);
  x.index_offset_src = 1;  // pointer: channel c reads partition 60 + c
  x.index_offset = rm::sbuf_addr(60, 0x40);
  x.padding_val_src = 2;  // register pointer
  x.padding_val = 9;
  m.registers[9] = rm::sbuf_addr(80, 0x44);
  for (unsigned c = 0; c < 17; ++c) {
    poke(m, SBUF, c, 0x100, 4, {c + 1, 0, 0});
    poke(m, SBUF, 60 + c, 0x40, 4, {1000 * (c + 1)});
    poke(m, SBUF, 80 + c, 0x44, 4, {0xD0 + c});
  }
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 20, 0x200, 4, 4), (V{1000, 0xD0, 0xD0, 1}));
  EXPECT_EQ(peek(m, SBUF, 36, 0x200, 4, 4), (V{17000, 0xD0 + 16, 0xD0 + 16, 1}));
  EXPECT_EQ(peek(m, SBUF, 21, 0x200, 4, 4), (V{0, 0, 0, 0}));
}

TEST(NonzeroWithCount, StridedAndNegativeStepWalks) {
  constexpr uint32_t kOld = 0x77777777u;
  Machine& m = fresh(Generation::V3);
  // src: 3-D, steps {-1, 4, 0}, counts {4, 2, 2}: rows read backwards, the second outer
  // pass repeats the first. Memory at 0x100: [0,5,0,7 | 8,0,0,9].
  poke(m, SBUF, 0, 0x100, 4, {0, 5, 0, 7, 8, 0, 0, 9});
  rm::NonzeroWithCountWord x = nwc_word(dt::INT32, 16, 0x40, kMinus1);
  x.src = tensor3(rm::sbuf_addr(0, 0x10C), -1, 4, 4, 2, 0, 2);
  // Walk order s = [7,0,5,0, 9,0,0,8, 7,0,5,0, 9,0,0,8]: nonzero at 0,2,4,7,8,10,12,15.
  // dst: 17 elements, every other slot (step 2), so the slots between keep their bytes.
  x.dst = tensor3(rm::sbuf_addr(1, 0x200), 2, 17, 0, 1, 0, 1);
  poke(m, SBUF, 1, 0x200, 4, V(34, kOld));
  expect_ok(m, x.encode());
  const V got = peek(m, SBUF, 1, 0x200, 4, 34);
  const V results = {0x40,    0x42,    0x44,    0x47,    0x48,    0x4A,    0x4C,    0x4F, kMinus1,
                     kMinus1, kMinus1, kMinus1, kMinus1, kMinus1, kMinus1, kMinus1, 8};
  for (unsigned j = 0; j < 17; ++j) {
    EXPECT_EQ(got[2 * j], results[j]) << j;
    EXPECT_EQ(got[2 * j + 1], kOld) << j;
  }
  // dst walked backwards in two rows: ordinal j lands at row-reversed places.
  x.src = tensor3(rm::sbuf_addr(0, 0x100), 1, 3, 0, 1, 0, 1);   // [0,5,0] -> [0x41, pad, pad, 1]
  x.dst = tensor3(rm::sbuf_addr(1, 0x30C), -1, 2, 2, 2, 0, 1);  // 0x30C,0x308,0x314,0x310
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x308, 4, 4), (V{kMinus1, 0x41, 1, kMinus1}));
}

TEST(NonzeroWithCount, InPlaceReadsTheSourceFirst) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, {0, 3, 0, 4});
  rm::NonzeroWithCountWord x = nwc_word(dt::INT32, 4, 0, 0xAB);
  x.dst.addr = rm::sbuf_addr(0, 0x100);  // over the source
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 5), (V{1, 3, 0xAB, 0xAB, 2}));
  // A zero-step destination: every ordinal on one element, the count (last) wins.
  poke(m, SBUF, 0, 0x100, 4, {0, 3, 0, 4});
  x.dst = tensor3(rm::sbuf_addr(2, 0x10), 0, 5, 0, 1, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 2, 0x10, 4, 2), (V{2, 0}));
}

TEST(NonzeroWithCount, FaultsChangeNothing) {
  Machine& m = busy_machine();
  rm::NonzeroWithCountWord x = nwc_word(dt::INT32, 4, 0, 0);
  x.ev = kSet9;
  x.channels = 17;
  // sync-would-block.
  rm::NonzeroWithCountWord wait = x;
  wait.ev = rm::Events{1, 3, 1, 9, 4};  // semaphore 3 >= 4 never holds
  expect_unchanged(m, wait.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  // bad-address: register-mode src in PSUM (POOL), misaligned, partitions past 127.
  rm::NonzeroWithCountWord r = x;
  r.src.addr = rm::reg_addr(5);
  for (uint32_t a : {rm::psum_addr(0, 0x100), rm::sbuf_addr(0, 0x102), rm::sbuf_addr(112, 0x100),
                     rm::sbuf_addr(0, 224 * 1024 - 8), 0x20000100u}) {
    SCOPED_TRACE(testing::Message() << std::hex << a);
    m.registers[5] = a;
    expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  }
  // ... a register-mode dst, checked on every channel though only 0 and 16 run.
  r = x;
  r.dst.addr = rm::reg_addr(6);
  m.registers[6] = rm::sbuf_addr(112, 0x200);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  // ... pointer immediates: a register pointer into PSUM, a misaligned one, too high.
  r = x;
  r.padding_val_src = 2;
  r.padding_val = 7;
  for (uint32_t a : {rm::psum_addr(3, 0x100), rm::sbuf_addr(3, 0x101), rm::sbuf_addr(112, 0x100)}) {
    m.registers[7] = a;
    expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  }
  // too-large: 2^24 source elements need a 2^24 + 1 element destination.
  r = x;
  r.channels = 1;
  r.src = tensor3(rm::sbuf_addr(0, 0x100), 0, 4096, 0, 4096, 0, 1);
  r.dst = tensor3(rm::sbuf_addr(1, 0x200), 0, 673, 0, 257, 0, 97);  // 16777217
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::TooLarge);
  // Fault order: the wait before the address.
  rm::NonzeroWithCountWord both = wait;
  both.src.addr = rm::reg_addr(5);
  m.registers[5] = rm::psum_addr(0, 0x100);
  expect_unchanged(m, both.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  // ... and the address before the walk limit.
  r.src.addr = rm::reg_addr(5);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  // Good registers retire.
  m.registers[5] = rm::sbuf_addr(0, 0x100);
  m.registers[6] = rm::sbuf_addr(40, 0x200);
  rm::NonzeroWithCountWord ok = x;
  ok.src.addr = rm::reg_addr(5);
  ok.dst.addr = rm::reg_addr(6);
  expect_ok(m, ok.encode());
  EXPECT_EQ(peek(m, SBUF, 40, 0x200, 4, 5), (V{0, 1, 2, 3, 4}));
  EXPECT_EQ(m.semaphores[9], 0x77u);
  // Invalid words change nothing: on V2 NonzeroWithCount does not exist; a count that
  // is not count(src) + 1.
  Machine& v2 = busy_machine(Generation::V2);
  expect_unchanged(v2, x.encode(), Status::Invalid, std::nullopt);
  rm::NonzeroWithCountWord c = x;
  c.dst.num[0] = 4;
  expect_unchanged(m, c.encode(), Status::Invalid, std::nullopt);
}

}  // namespace
#endif
