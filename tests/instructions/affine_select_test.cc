// AffineSelect (SPEC §4.5): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"

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
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

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
#endif
