// GetSequenceBounds (SPEC §4.3): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.3.
inline ExpectedInstr get_sequence_bounds_row() {
  return ExpectedInstr{"GetSequenceBounds",
                       0xbe,
                       "S3D3_SEQ_BOUNDS",
                       Engine::POOL,
                       {G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"num_active_channels", 12, 1, K::U8},
                           {"reserved0", 13, 1, K::Reserved},
                           {"in_dtype", 14, 1, K::Dtype},
                           {"out_dtype", 15, 1, K::Dtype},
                           {"src_mem_pattern", 16, 16, K::Tensor, 3},
                           {"dst_mem_pattern", 32, 16, K::Tensor, 3},
                           {"reserved1", 48, 16, K::Reserved},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_get_sequence_bounds(): 1 channel, INT32 in and out. src: TENSOR3D steps
// {1, 4, 8} counts {4, 2, 1} (8 ids, 32 dense bytes) at SBUF partition 0 offset 0x40;
// dst: steps {1, 4, 8} counts {4, 2, 2} (16 values: 8 starts then 8 ends, 64 dense
// bytes) at partition 0 offset 0x400.
namespace gsb_word {
inline constexpr unsigned kChannels = 1;
inline constexpr Dtype kIn = Dtype::INT32, kOut = Dtype::INT32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(0, 0x40), kDstAddr = sbuf_addr(0, 0x400);
}  // namespace gsb_word

inline Word valid_get_sequence_bounds() {
  using namespace gsb_word;
  return build(Opcode::GetSequenceBounds,
               {{"num_active_channels", uint64_t{kChannels}},
                {"in_dtype", uint64_t{static_cast<uint8_t>(kIn)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(kOut)}},
                {"src_mem_pattern", tensor(kSrcAddr, {1, 4, 8}, {4, 2, 1})},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 4, 8}, {4, 2, 2})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

inline std::optional<FaultKind> get_sequence_bounds(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[12];
  const bool fp_in = w[14] == dt::FP32, fp_out = w[15] == dt::FP32;
  const Tensor st = get_tensor(w, 16, 3), dtn = get_tensor(w, 32, 3);
  const auto src = resolve(m, st, 4, false, false, n);
  const auto dst = resolve(m, dtn, 4, false, true, n);
  if (!src || !dst) return FaultKind::BadAddress;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto soffs = walk(st, src->offset, 4), doffs = walk(dtn, dst->offset, 4);
  auto eq = [&](uint32_t a, uint32_t b) { return fp_in ? as_float(a) == as_float(b) : a == b; };
  auto pad = [&](uint32_t a) { return fp_in ? as_float(a) == 0.0f : a == 0; };
  for (unsigned c = 0; c < n; ++c) {
    const std::size_t len = soffs.size();
    std::vector<uint32_t> s(len);
    for (std::size_t i = 0; i < len; ++i)
      s[i] = load(m, Space::SBUF, src->partition + c, soffs[i], 4);
    // Maximal runs of equal adjacent ids: [a, b).
    std::vector<int64_t> bounds(2 * len);
    for (std::size_t a = 0; a < len;) {
      std::size_t b = a + 1;
      while (b < len && eq(s[b], s[b - 1])) ++b;
      for (std::size_t i = a; i < b; ++i) {
        bounds[i] = pad(s[i]) ? static_cast<int64_t>(len) : static_cast<int64_t>(a);
        bounds[len + i] = pad(s[i]) ? -1 : static_cast<int64_t>(b);
      }
      a = b;
    }
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      const auto v = static_cast<int32_t>(bounds[j]);
      const uint32_t bits = fp_out ? as_bits(static_cast<float>(v)) : static_cast<uint32_t>(v);
      fx.stores.push_back({Space::SBUF, dst->partition + c, doffs[j], 4, bits});
    }
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_get_sequence_bounds(Builder& b) {
  Rng& r = b.rng();
  rm::GetSequenceBoundsWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.in = r.pick<uint8_t>({rm::dt::INT32, rm::dt::FP32});
  x.out = r.pick<uint8_t>({rm::dt::INT32, rm::dt::FP32});
  const uint64_t count = b.count(1024);
  // The destination holds 2 x count elements: a walk of count, twice along a third dimension.
  auto bounds = [&] {
    const rm::Tensor half = b.shape(2, count, 4, Space::SBUF);
    return rm::tensor3(0, half.step[0], half.num[0], half.step[1], half.num[1],
                       r.chance(50) ? static_cast<int>(count) : static_cast<int>(r.in(-64, 64)), 2);
  };
  const rm::Loc sl =
      b.place_pair(1, {.t = x.src, .space = Space::SBUF, .elem = 4, .dims = 3, .count = count},
                   {.t = x.dst, .space = Space::SBUF, .elem = 4, .make = bounds})
          .src;

  // Ids in runs, from a small pool: padding (0, and -0.0 for FP32), NaNs, repeats.
  const bool fp = x.in == rm::dt::FP32;
  const std::vector<uint32_t> pool =
      fp ? std::vector<uint32_t>{0u,          0x80000000u, 0x3f800000u,
                                 0x40000000u, 0x7fc00000u, 0xffc00001u,
                                 0xbf800000u, 0x7f800000u, random_value(r, rm::dt::FP32)}
         : std::vector<uint32_t>{0u, 1u, 2u, 3u, 0xffffffffu, 0x80000000u, r.u32()};
  uint32_t cur = pool[0];
  unsigned left = 0;
  b.fill(x.src, sl, 1, 4, [&] {
    if (left == 0) {
      cur = pool[r.uin(0, static_cast<unsigned>(pool.size()) - 1)];
      left = r.uin(1, 4);
    }
    --left;
    return cur;
  });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_get_sequence_bounds(Gen& g) {
  Word w{};
  w[0] = 0xbe;
  w[1] = 0x10;
  g.events(w);
  w[12] = 1;
  w[14] = g.below(2) ? 0x8 : 0xa;
  w[15] = g.below(2) ? 0x8 : 0xa;
  const auto num = g.nums(3);
  store_tensor(w, 16, g.tensor(3, num, 1, 4, false));
  const std::array<uint16_t, kMaxDims> dnum{num[0], static_cast<uint16_t>(num[1] * num[2]), 2};
  store_tensor(w, 32, g.tensor(3, dnum, 1, 4, false));
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {
namespace {

// A GetSequenceBounds word without its tensors: one channel, INT32 or FP32 ids and bounds.
Word sequence_bounds_head(bool fp_in, bool fp_out) {
  Word w{};
  w[0] = 0xbe;
  w[1] = 0x10;
  w[12] = 1;
  w[14] = fp_in ? 0x0a : 0x08;
  w[15] = fp_out ? 0x0a : 0x08;
  return w;
}

Word sequence_bounds_word(Rng& rng, Machines& m, bool large) {
  const bool fp_in = rng.chance(0.5), fp_out = rng.chance(0.5);
  Word w = sequence_bounds_head(fp_in, fp_out);
  Window win;
  win.bytes = large ? 196608 : 4096;
  const unsigned p = rng.below(kPartitions);
  TensorDesc src = random_walk(rng, 3, 0, large ? 16000 : 300, 4, win, p);
  force_source(rng, src, 4, win, p);
  // dst: 2 x count(src) with num_elem[2] == 2; the halves dense after each other, or
  // apart, reversed, or on top of each other.
  TensorDesc dst = random_walk(rng, 2, src.count(), 0, 4, win, p);
  dst.dims = 3;
  dst.num[2] = 2;
  const int64_t half = int64_t{dst.num[0]} * dst.num[1];
  const int64_t steps2[] = {half, half, -half, 0, half + 5, 3};
  dst.step[2] = static_cast<int16_t>(std::clamp<int64_t>(rng.pick(steps2), -32768, 32767));
  if (rng.chance(0.5))
    dst.step = {1, static_cast<int16_t>(dst.num[0]),
                static_cast<int16_t>(std::min<int64_t>(half, 32767))};
  place(rng, dst, 4, win, p);
  fill(rng, m, win, p, 1, fp_in ? Dtype::FP32 : Dtype::INT32, true);
  store_tensor(w, 16, src);
  store_tensor(w, 32, dst);
  return w;
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "GetSequenceBounds",
    .opcode = Opcode::GetSequenceBounds,
    .opcode_clause = "has_get_sequence_bounds_opcode",
    .expected_row = expected_rows::get_sequence_bounds_row,
    .valid_word = test_words::valid_get_sequence_bounds,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::get_sequence_bounds(m, w, fx);
        },
    .generate = random_words::gen_get_sequence_bounds,
    .random_generations = {Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_get_sequence_bounds,
    .kernel_words = {{kernels_equiv::sequence_bounds_word, 13, 400, 6}},
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
  // ---- GetSequenceBounds (SPEC §4.3) ----
  c.push_back({"gsb_two_channels", GSB, [](Word& w) { set(w, "num_active_channels", 2); },
               "has_valid_s3d3_seq_bounds_channels", "num_active_channels", "2"});
  c.push_back({"gsb_128_channels", GSB, [](Word& w) { set(w, "num_active_channels", 128); },
               "has_valid_s3d3_seq_bounds_channels", "num_active_channels", "128"});
  c.push_back({"gsb_reserved0", GSB, [](Word& w) { w[13] = 2; }, "s3d3_seq_bounds_reserved_zero",
               "reserved0", "0x02"});
  for (unsigned b : {48u, 55u, 63u})
    c.push_back({"gsb_reserved1_byte" + std::to_string(b), GSB, [b](Word& w) { w[b] = 0xff; },
                 "s3d3_seq_bounds_reserved_zero", "reserved1", "0xff"});
  c.push_back({"gsb_in_dtype_uint32", GSB, [](Word& w) { set(w, "in_dtype", code(Dtype::UINT32)); },
               "has_valid_seq_bounds_dtype", "in_dtype", "0x9"});
  c.push_back({"gsb_in_dtype_int16", GSB, [](Word& w) { set(w, "in_dtype", code(Dtype::INT16)); },
               "has_valid_seq_bounds_dtype", "in_dtype", "0x4"});
  c.push_back({"gsb_in_dtype_bf16", GSB, [](Word& w) { set(w, "in_dtype", code(Dtype::BF16)); },
               "has_valid_seq_bounds_dtype", "in_dtype", "0x6"});
  c.push_back({"gsb_out_dtype_uint32", GSB,
               [](Word& w) { set(w, "out_dtype", code(Dtype::UINT32)); },
               "has_valid_seq_bounds_dtype", "out_dtype", "0x9"});
  // FP32R is an is_valid_dtype output, but not a bounds dtype.
  c.push_back({"gsb_out_dtype_fp32r", GSB, [](Word& w) { set(w, "out_dtype", code(Dtype::FP32R)); },
               "has_valid_seq_bounds_dtype", "out_dtype", "0xb"});
  c.push_back({"gsb_dst_num2_not_2", GSB,
               [](Word& w) {
                 set_num(w, "dst_mem_pattern", 1, 4);
                 set_num(w, "dst_mem_pattern", 2, 1);
               },
               "s3d3_seq_bounds_element_count_check_t3d", "dst_mem_pattern", "16"});
  c.push_back({"gsb_dst_count_not_2n", GSB, [](Word& w) { set_num(w, "dst_mem_pattern", 0, 2); },
               "s3d3_seq_bounds_element_count_check_t3d", "dst_mem_pattern", "8"});
  c.push_back({"gsb_src_count_changed", GSB, [](Word& w) { set_num(w, "src_mem_pattern", 2, 2); },
               "s3d3_seq_bounds_element_count_check_t3d", "dst_mem_pattern", "16"});
  // num_elem 0: the src count 0 needs a dst count 0 to keep the element-count clause
  // quiet, so both tensors report.
  c.push_back({"gsb_num0_both", GSB,
               [](Word& w) {
                 set_num(w, "src_mem_pattern", 0, 0);
                 set_num(w, "dst_mem_pattern", 0, 0);
               },
               "tensor3d_valid", "src_mem_pattern", "num=[0", "num_elem", 2});
  return c;
}
GPSIMD_CLAUSE_CASES(GetSequenceBounds, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// ---- GetSequenceBounds (SPEC §4.3) ------------------------------------------------------

TEST(GetSequenceBounds, SpecExampleForEveryDtype) {
  const std::vector<int> ids = {0, 1, 1, 2, 2, 2, 0, 3, 3};
  const std::vector<int> starts = {9, 1, 1, 3, 3, 3, 9, 7, 7};
  const std::vector<int> ends = {-1, 3, 3, 6, 6, 6, -1, 9, 9};
  for (uint8_t in : {dt::INT32, dt::FP32}) {
    for (uint8_t out : {dt::INT32, dt::FP32}) {
      SCOPED_TRACE(testing::Message() << int{in} << " " << int{out});
      Machine& m = fresh(Generation::V3);
      poke(m, SBUF, 4, 0x100, 4, in == dt::FP32 ? as_fp32(ids) : as_int32(ids));
      expect_ok(m, gsb_word(in, out, 9).encode());
      const auto conv = out == dt::FP32 ? as_fp32 : as_int32;
      EXPECT_EQ(peek(m, SBUF, 4, 0x400, 4, 9), conv(starts));
      EXPECT_EQ(peek(m, SBUF, 4, 0x400 + 36, 4, 9), conv(ends));
    }
  }
}

// A NaN id equals nothing (its own segment); -0.0 equals 0 (padding).
TEST(GetSequenceBounds, NaNAndNegativeZeroIds) {
  Machine& m = fresh(Generation::V4);
  poke(m, SBUF, 4, 0x100, 4, {0x7FC00000, 0x7FC00000, 0x80000000, f32(2.0f), f32(2.0f)});
  expect_ok(m, gsb_word(dt::FP32, dt::INT32, 5).encode());
  EXPECT_EQ(peek(m, SBUF, 4, 0x400, 4, 10), as_int32({0, 1, 5, 3, 3, 1, 2, -1, 5, 5}));
}

// The destination walk decides where starts and ends land: here ends before starts.
TEST(GetSequenceBounds, DestinationWalkPlacesStartsAndEnds) {
  Machine& m = fresh(Generation::V5);
  rm::GetSequenceBoundsWord x = gsb_word(dt::INT32, dt::INT32, 4);
  x.dst = tensor3(rm::sbuf_addr(9, 0x810), 1, 4, 0, 1, -4, 2);  // starts at 0x810, ends 0x800
  poke(m, SBUF, 4, 0x100, 4, {5, 5, 0, 6});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 9, 0x810, 4, 4), as_int32({0, 0, 4, 3}));
  EXPECT_EQ(peek(m, SBUF, 9, 0x800, 4, 4), as_int32({2, 2, -1, 4}));
}

}  // namespace

namespace gpsimd::kernels_equiv {
namespace {

// Segments of every length (one id to thousands, so that runs span many vector blocks),
// padding runs and, as FP32, -0.0 (padding too), NaN (never equal) and infinities; over
// whole partitions, where the fast path streams its output when it is aligned.
TEST(KernelsEquivTest, GetSequenceBoundsLongRuns) {
  Machines& m = machines();
  for_each_target([&](bool best) {
    Rng rng(17);
    Counts counts;
    const auto cases = static_cast<int>(test_effort::random_cases(best ? 48 : 16));
    for (int i = 0; i < cases; ++i) {
      m.touched.clear();
      const bool fp_in = rng.chance(0.5), fp_out = rng.chance(0.5);
      // Dense sources, and sources every other, third or fourth id, up or down (read by
      // contiguous loads and permutes); around the vector widths, the 64-id words of
      // the marks, and the 4096-id chunks of the first pass.
      const int16_t steps[] = {1, 1, 1, -1, 2, -2, 3, -3, 4, -4};
      const int16_t step = rng.pick(steps);
      const uint32_t sizes[] = {16000, 8192, 8208, 8195, 12345, 4095, 4096, 4097,
                                16,    100,  1000, 63,   64,    65,   97,   129};
      const auto stride = static_cast<uint32_t>(std::abs(step));
      uint32_t n = rng.pick(sizes);
      if (stride > 1) n = std::min<uint32_t>(n, 8191 * 4 / (stride + 2));
      const uint32_t span = n * stride * 4;
      const unsigned p = rng.below(kPartitions);
      uint8_t* pa = m.a.partition(Space::SBUF, p).data();
      uint8_t* pb = m.b.partition(Space::SBUF, p).data();
      m.touched.emplace_back(Space::SBUF, p);
      const uint32_t fp_ids[] = {0x80000000u, 0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u};
      const uint32_t first = step < 0 ? span - stride * 4 : 0;  // ordinal 0's offset
      uint32_t next_id = 1;
      for (uint32_t k = 0; k < n;) {
        const uint32_t lengths[] = {1, 2, 7, 15, 16, 17, 31, 33, 64, 100, 1000, 5000};
        const uint32_t len =
            std::min<uint32_t>(n - k, rng.chance(0.3) ? 1 + rng.below(20) : rng.pick(lengths));
        uint32_t id = next_id++;
        if (fp_in) id = std::bit_cast<uint32_t>(static_cast<float>(id));
        if (rng.chance(0.15)) id = 0;
        if (fp_in && rng.chance(0.15)) id = rng.pick(fp_ids);
        for (uint32_t e = 0; e < len; ++e, ++k) {
          const uint32_t off = first + static_cast<uint32_t>(int64_t{k} * step * 4);
          std::memcpy(pa + off, &id, 4);
          std::memcpy(pb + off, &id, 4);
        }
      }
      Word w = sequence_bounds_head(fp_in, fp_out);
      TensorDesc src, dst;
      src.dims = 3;
      src.step = {step, 0, 0};
      src.num = {static_cast<uint16_t>(n), 1, 1};
      src.addr = encode_static_addr({Space::SBUF, p, first});
      // Halves dense one after the other at a 64-byte boundary, or 4 bytes past one.
      const uint32_t dst_off = std::max<uint32_t>(65536, (span + 63) / 64 * 64);
      dst.dims = 3;
      dst.step = {1, 0, static_cast<int16_t>(n)};
      dst.num = {static_cast<uint16_t>(n), 1, 2};
      dst.addr = encode_static_addr({Space::SBUF, p, dst_off + (rng.chance(0.7) ? 0u : 4u)});
      store_tensor(w, 16, src);
      store_tensor(w, 32, dst);
      SCOPED_TRACE(testing::Message() << "case " << i << " n " << n << " step " << step);
      run_both(m, w, counts, true);
      if (testing::Test::HasFatalFailure()) return;
    }
    EXPECT_EQ(counts.retired, cases);
  });
}

}  // namespace
}  // namespace gpsimd::kernels_equiv
#endif
