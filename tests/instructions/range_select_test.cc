// RangeSelect (SPEC §4.1): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.1.
inline ExpectedInstr range_select_row() {
  return ExpectedInstr{"RangeSelect",
                       0xbc,
                       "S2D2_RS",
                       Engine::DVE,
                       {G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"num_active_channels", 12, 1, K::U8},
                           {"in_out_dtype", 13, 1, K::DtypePair},
                           {"reduce_cmd", 14, 1, K::AccumCmd},
                           {"reduce_op", 15, 1, K::AluOp},
                           {"base", 16, 4, K::Fp32},
                           {"fill_val", 20, 4, K::Fp32},
                           {"src_mem_pattern", 24, 12, K::Tensor, 2},
                           {"comp_op0", 36, 1, K::AluOp},
                           {"comp_op1", 37, 1, K::AluOp},
                           {"bound0_src", 38, 1, K::ImmSrc},
                           {"bound1_src", 39, 1, K::ImmSrc},
                           {"bound0", 40, 4, K::ImmVal, 0, "bound0_src"},
                           {"bound1", 44, 4, K::ImmVal, 0, "bound1_src"},
                           {"dst_mem_pattern", 48, 12, K::Tensor, 2},
                           {"reserved1", 60, 4, K::Reserved},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_range_select(): 2 channels. src: BF16, TENSOR2D steps {1, 8} counts {8, 4} (32
// elements, 64 dense bytes) at SBUF partition 0 offset 0x100. dst: FP32, same shape
// (128 bytes) at partition 0 offset 0x1000. base 10.0; keeps index base + j when
// IS_GE 12.0 and IS_LT 30.0 (instruction immediates); ZERO_ACCUMULATE with MAX.
namespace rs_word {
inline constexpr unsigned kChannels = 2;
inline constexpr Dtype kIn = Dtype::BF16, kOut = Dtype::FP32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(0, 0x100), kDstAddr = sbuf_addr(0, 0x1000);
inline constexpr float kBase = 10.0f, kBound0 = 12.0f, kBound1 = 30.0f;
}  // namespace rs_word

inline Word valid_range_select() {
  using namespace rs_word;
  return build(Opcode::RangeSelect,
               {{"num_active_channels", uint64_t{kChannels}},
                {"in_out_dtype", uint64_t{dtype_pair(kIn, kOut)}},
                {"reduce_cmd", uint64_t{static_cast<uint8_t>(AccumCmd::ZERO_ACCUMULATE)}},
                {"reduce_op", uint64_t{static_cast<uint8_t>(AluOp::MAX)}},
                {"base", uint64_t{f32_bits(kBase)}},
                {"fill_val", uint64_t{kNegFltMaxBits}},
                {"src_mem_pattern", tensor(kSrcAddr, {1, 8}, {8, 4})},
                {"comp_op0", uint64_t{static_cast<uint8_t>(AluOp::IS_GE)}},
                {"comp_op1", uint64_t{static_cast<uint8_t>(AluOp::IS_LT)}},
                {"bound0", uint64_t{f32_bits(kBound0)}},
                {"bound1", uint64_t{f32_bits(kBound1)}},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 8}, {8, 4})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// Each returns the fault, or fills `fx` with every write of the instruction.
inline std::optional<FaultKind> range_select(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[12];
  const uint8_t din = w[13] & 0xf, dout = w[13] >> 4, cmd = w[14];
  const float base = as_float(get(w, 16, 4));
  const Tensor st = get_tensor(w, 24, 2), dtn = get_tensor(w, 48, 2);
  const unsigned isz = size_of(din), osz = size_of(dout);
  const auto src = resolve(m, st, isz, true, false, n);
  const auto dst = resolve(m, dtn, osz, true, true, n);
  const auto b0 = resolve_imm(m, w[38], get(w, 40, 4), 4, true, n);
  const auto b1 = resolve_imm(m, w[39], get(w, 44, 4), 4, true, n);
  if (!src || !dst || !b0 || !b1) return FaultKind::BadAddress;
  if ((st.register_mode() || dtn.register_mode()) && st.count() != dtn.count())
    return FaultKind::ShapeMismatch;
  // base + count(src) > 2^24, compared exactly: 2^24 - count is an exact integer.
  if (st.register_mode() &&
      static_cast<double>(base) > 16777216.0 - static_cast<double>(st.count()))
    return FaultKind::ShapeMismatch;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto soffs = walk(st, src->offset, isz), doffs = walk(dtn, dst->offset, osz);
  for (unsigned c = 0; c < n; ++c) {
    const float bound0 = as_float(b0->at(m, c)), bound1 = as_float(b1->at(m, c));
    std::vector<uint32_t> y(soffs.size());
    for (std::size_t j = 0; j < soffs.size(); ++j) {
      const uint32_t x = widen(din, load(m, src->space, src->partition + c, soffs[j], isz));
      const float idx = range_index(base, static_cast<uint32_t>(j));
      const bool pass = compare(w[36], idx, bound0) && compare(w[37], idx, bound1);
      y[j] = pass ? x : 0xff7fffffu;
    }
    for (std::size_t j = 0; j < doffs.size(); ++j)
      fx.stores.push_back({dst->space, dst->partition + c, doffs[j], osz, narrow(dout, y[j])});
    const unsigned acc = src->partition + c;
    if (cmd == 3) fx.accumulators.emplace_back(acc, max_of(y));
    if (cmd == 2) {
      // max(acc, max over y): the inner maximum is a value (0x7FC00000 when all NaN).
      fx.accumulators.emplace_back(acc, max_of({m.accumulators[acc], max_of(y)}));
    }
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_range_select(Builder& b) {
  Rng& r = b.rng();
  rm::RangeSelectWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.in = r.pick<uint8_t>(
      {rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5, rm::dt::FP16, rm::dt::BF16, rm::dt::FP32});
  x.out = r.pick<uint8_t>({rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5, rm::dt::FP16,
                           rm::dt::BF16, rm::dt::FP32, rm::dt::FP32R});
  const unsigned isz = rm::size_of(x.in), osz = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  const Space ss = b.space(30);
  const Space ds = b.space(osz == 4 ? 30 : 0);
  const rm::Loc sl =
      b.place_pair(n, {.t = x.src, .space = ss, .elem = isz, .dims = 2, .count = count},
                   {.t = x.dst, .space = ds, .elem = osz, .dims = 2, .count = count})
          .src;
  const unsigned ps = sl.partition;

  // base: 0, integers, fractions, subnormals, -0, and values where base + j rounds.
  const double room = 16777216.0 - static_cast<double>(count);
  float base = 0;
  switch (r.in(0, 9)) {
    case 0:
    case 1:
    case 2:
      base = 0;
      break;
    case 3:
    case 4:
      base = static_cast<float>(r.in(1, 1000));
      break;
    case 5:
      base = static_cast<float>(r.in(0, 100)) + r.pick({0.5f, 0.25f, 0.75f, 0.125f});
      break;
    case 6:
      base = rm::as_float(r.u32() & 0x7fffffu);
      break;  // subnormal
    case 7:
      base = -0.0f;
      break;
    default:
      base = static_cast<float>(std::min(room, 8388608.0 - static_cast<double>(r.in(0, 40)) * 0.5));
      break;
  }
  if (static_cast<double>(base) > room) base = static_cast<float>(room);
  x.base = rm::as_bits(base);
  x.reduce_cmd = r.pick<uint8_t>({0, 2, 3});
  const std::initializer_list<uint8_t> ops = {rm::op::IS_EQ, rm::op::IS_GT, rm::op::IS_GE,
                                              rm::op::IS_LE, rm::op::IS_LT};
  x.comp_op0 = r.pick(ops);
  x.comp_op1 = r.pick(ops);
  auto bound = [&](unsigned) -> uint32_t {
    switch (r.in(0, 9)) {
      case 0:
        return r.pick<uint32_t>({0x7fc00000u, 0x7f800000u, 0xff800000u, 0x80000000u, 0u});
      case 1:
        return random_value(r, rm::dt::FP32);
      case 2:
        return rm::as_bits(
            static_cast<float>(static_cast<double>(base) +
                               static_cast<double>(r.in(-2, static_cast<int64_t>(count) + 2))) +
            0.5f);
      default:
        return rm::as_bits(
            static_cast<float>(static_cast<double>(base) +
                               static_cast<double>(r.in(-2, static_cast<int64_t>(count) + 2))));
    }
  };
  std::tie(x.bound0_src, x.bound0) = b.immediate(4, ps, n, true, bound(0), bound);
  std::tie(x.bound1_src, x.bound1) = b.immediate(4, ps, n, true, bound(0), bound);

  for (unsigned c = 0; c < n; ++c) b.set_acc(sl.partition + c, random_value(r, rm::dt::FP32));
  const bool ties = x.in == rm::dt::FP32 && rm::format_of(x.out) && r.chance(50);
  b.fill(x.src, sl, n, isz, [&] { return ties ? near_tie(r, x.out) : random_value(r, x.in); });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  if (inj == Inject::Shape) {
    if (x.src.register_mode() && r.chance(50)) {
      x.src.num[0] += 1;
    } else if (x.src.register_mode()) {  // base + count(src) > 2^24
      x.base = rm::as_bits(static_cast<float>(
          16777216.0 - static_cast<double>(count) +
          static_cast<double>(r.in(1, std::min<int64_t>(3, static_cast<int64_t>(count))))));
    } else if (x.dst.register_mode()) {
      x.dst.num[1] += 1;
    }
  }
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_range_select(Gen& g) {
  static constexpr uint8_t kIn[] = {0xd, 0xe, 0xf, 0x7, 0x6, 0xa};
  static constexpr uint8_t kOut[] = {0xd, 0xe, 0xf, 0x7, 0x6, 0xa, 0xb};
  static constexpr uint8_t kCmp[] = {0x12, 0x13, 0x14, 0x15, 0x16};
  static constexpr uint8_t kCmd[] = {0, 2, 3};
  Word w{};
  w[0] = 0xbc;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t din = g.pick(kIn), dout = g.pick(kOut);
  w[12] = static_cast<uint8_t>(n);
  w[13] = static_cast<uint8_t>(din | dout << 4);
  w[14] = g.pick(kCmd);
  w[15] = 0x08;
  store_u32(w, 16, bits_from_fp32(static_cast<float>(g.below(1000))));
  store_u32(w, 20, 0xff7fffffu);
  const auto num = g.nums(2);
  const unsigned in_size = *dtype_size(din), out_size = *dtype_size(dout);
  store_tensor(w, 24, g.tensor(2, num, n, in_size, g.below(2)));
  // The destination visits as many elements, in another shape.
  std::array<uint16_t, kMaxDims> dnum{static_cast<uint16_t>(num[0] * num[1]), 1, 0};
  if (g.below(2)) dnum = {num[1], num[0], 0};
  store_tensor(w, 48, g.tensor(2, dnum, n, out_size, out_size == 4 && g.below(2)));
  w[36] = g.pick(kCmp);
  w[37] = g.pick(kCmp);
  g.immediate(w, 38, 40, 4, n, true);
  g.immediate(w, 39, 44, 4, n, true);
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {
namespace {

const Dtype kRsIn[] = {Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5,
                       Dtype::FP16,   Dtype::BF16,   Dtype::FP32};
const Dtype kRsOut[] = {Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5, Dtype::FP16,
                        Dtype::BF16,   Dtype::FP32,   Dtype::FP32R};

Word range_select_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0xbc;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype din = large || g_forced.on ? Dtype::FP32 : rng.pick(kRsIn);
  const Dtype dout = large ? rng.pick(kRsOut) : rng.pick(kRsOut);
  Window win;
  win.bytes = large ? 32768 : 4096;
  const bool psum = !large && rng.chance(0.15) && *dtype_size(dout) == 4;
  if (psum) win.space = Space::PSUM;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned isz = *dtype_size(din), osz = *dtype_size(dout);
  const uint64_t max_count = large ? 8000 : 600;
  TensorDesc src = random_walk(rng, 2, 0, max_count, isz, win, p);
  force_source(rng, src, isz, win, p);
  // The destination: its own shape over the same count, sometimes in another partition
  // range, so that it may or may not overlap the sources.
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  TensorDesc dst = random_walk(rng, 2, src.count(), 0, osz, win, pd);
  fill2(rng, m, win, p, pd, n, din);
  w[12] = static_cast<uint8_t>(n);
  w[13] = static_cast<uint8_t>(static_cast<uint8_t>(din) | static_cast<uint8_t>(dout) << 4);
  const uint8_t cmds[] = {0, 2, 3};
  w[14] = rng.pick(cmds);
  w[15] = 0x08;
  // base: integers, halves, a subnormal, or close to the 2^24 limit.
  float base = static_cast<float>(rng.below(1000));
  if (rng.chance(0.2)) base += 0.5f;
  if (rng.chance(0.1)) base = std::bit_cast<float>(0x00000001u);
  if (rng.chance(0.1)) base = static_cast<float>((1u << 24) - src.count() - rng.below(3));
  if (rng.chance(0.05))
    base = static_cast<float>((1u << 23) + 1) - static_cast<float>(rng.below(4));
  store_u32(w, 16, std::bit_cast<uint32_t>(base));
  store_u32(w, 20, 0xff7fffffu);
  store_tensor(w, 24, src);
  const uint8_t ops[] = {0x12, 0x13, 0x14, 0x15, 0x16};
  w[36] = rng.pick(ops);
  w[37] = rng.pick(ops);
  // Bounds near the index range, or special values; sometimes through pointers.
  for (unsigned k = 0; k < 2; ++k) {
    auto bound = [&] {
      float f = base + static_cast<float>(rng.below(static_cast<uint32_t>(src.count()) + 2)) - 1.0f;
      if (rng.chance(0.3)) f += 0.5f;
      const uint32_t specials[] = {0x7fc00000, 0xff800000, 0x7f800000,
                                   0x80000000, 0x00000000, 0x7f800001};
      return rng.chance(0.15) ? rng.pick(specials) : std::bit_cast<uint32_t>(f);
    };
    if (rng.chance(0.2)) {
      w[38 + k] = 1;  // POINTER_IMMEDIATE into the window
      const uint32_t off = rng.below(win.bytes / 4) * 4;
      const unsigned pp = rng.below(kPartitions - n + 1);
      store_u32(w, 40 + 4 * k, encode_static_addr({win.space, pp, off}));
      for (unsigned c = 0; c < n; ++c) {
        const uint32_t v = bound();
        std::memcpy(m.a.partition(win.space, pp + c).data() + off, &v, 4);
        std::memcpy(m.b.partition(win.space, pp + c).data() + off, &v, 4);
        m.touched.emplace_back(win.space, pp + c);
      }
    } else {
      store_u32(w, 40 + 4 * k, bound());
    }
  }
  store_tensor(w, 48, dst);
  for (unsigned c = 0; c < kPartitions; ++c) {
    const uint32_t accs[] = {0xff800000u, 0x7fc00000u, 0x3f800000u, 0x80000000u,
                             0x00000000u, 0xff7fffffu, 0xffc00001u};
    m.a.accumulators[c] = m.b.accumulators[c] = rng.pick(accs);
  }
  return w;
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "RangeSelect",
    .opcode = Opcode::RangeSelect,
    .opcode_clause = "has_range_select_opcode",
    .expected_row = expected_rows::range_select_row,
    .valid_word = test_words::valid_range_select,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::range_select(m, w, fx);
        },
    .generate = random_words::gen_range_select,
    .random_generations = {Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_range_select,
    .kernel_words = {{kernels_equiv::range_select_word, 11, 400, 4}},
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
  // ---- RangeSelect (SPEC §4.1) ----
  c.push_back({"rs_channels_0", RS, [](Word& w) { set(w, "num_active_channels", 0); },
               "check_active_channels", "num_active_channels", "0", "1..128"});
  c.push_back({"rs_in_dtype_int32", RS,
               [](Word& w) { set(w, "in_out_dtype", dtype_pair(Dtype::INT32, Dtype::FP32)); },
               "is_valid_fp_dtype_datapath", "in_out_dtype", "0x8"});
  c.push_back({"rs_in_dtype_fp32r", RS,
               [](Word& w) { set(w, "in_out_dtype", dtype_pair(Dtype::FP32R, Dtype::FP32)); },
               "is_valid_fp_dtype_datapath", "in_out_dtype", "0xb"});
  c.push_back({"rs_in_dtype_uint16", RS,
               [](Word& w) { set(w, "in_out_dtype", dtype_pair(Dtype::UINT16, Dtype::FP32)); },
               "is_valid_fp_dtype_datapath", "in_out_dtype", "0x5"});
  c.push_back({"rs_out_dtype_int8", RS,
               [](Word& w) { set(w, "in_out_dtype", dtype_pair(Dtype::BF16, Dtype::INT8)); },
               "is_valid_fp_dtype_datapath", "in_out_dtype", "0x2"});
  c.push_back({"rs_out_dtype_uint64", RS,
               [](Word& w) { set(w, "in_out_dtype", dtype_pair(Dtype::BF16, Dtype::UINT64)); },
               "is_valid_fp_dtype_datapath", "in_out_dtype", "0x1"});
  c.push_back({"rs_both_dtypes_int", RS,
               [](Word& w) { set(w, "in_out_dtype", dtype_pair(Dtype::INT16, Dtype::INT32)); },
               "is_valid_fp_dtype_datapath", "in_out_dtype", "0x8", "", 2});
  c.push_back({"rs_fill_zero", RS, [](Word& w) { set(w, "fill_val", 0); }, "is_valid_fill_val",
               "fill_val", "0x00000000", "0xff7fffff"});
  c.push_back({"rs_fill_minus_inf", RS, [](Word& w) { set(w, "fill_val", 0xff800000); },
               "is_valid_fill_val", "fill_val", "0xff800000"});
  c.push_back({"rs_fill_plus_flt_max", RS, [](Word& w) { set(w, "fill_val", 0x7f7fffff); },
               "is_valid_fill_val", "fill_val", "0x7f7fffff"});
  c.push_back({"rs_comp_op0_max", RS, [](Word& w) { set(w, "comp_op0", code(AluOp::MAX)); },
               "is_valid_rs_comp_op", "comp_op0", "0x08"});
  c.push_back({"rs_comp_op0_zero", RS, [](Word& w) { set(w, "comp_op0", 0); },
               "is_valid_rs_comp_op", "comp_op0", "0x00"});
  c.push_back({"rs_comp_op1_is_gt_int", RS,
               [](Word& w) { set(w, "comp_op1", code(AluOp::IS_GT_INT)); }, "is_valid_rs_comp_op",
               "comp_op1", "0xd1"});
  c.push_back({"rs_comp_op1_0x17", RS, [](Word& w) { set(w, "comp_op1", 0x17); },
               "is_valid_rs_comp_op", "comp_op1", "0x17"});
  c.push_back({"rs_reduce_cmd_zero", RS, [](Word& w) { set(w, "reduce_cmd", 1); },
               "has_valid_range_select_reduce_cmd", "reduce_cmd", "0x01"});
  c.push_back({"rs_reduce_cmd_load_accumulate", RS, [](Word& w) { set(w, "reduce_cmd", 4); },
               "has_valid_range_select_reduce_cmd", "reduce_cmd", "0x04"});
  c.push_back({"rs_reduce_cmd_5", RS, [](Word& w) { set(w, "reduce_cmd", 5); },
               "has_valid_range_select_reduce_cmd", "reduce_cmd", "0x05"});
  c.push_back({"rs_reduce_op_is_eq", RS, [](Word& w) { set(w, "reduce_op", code(AluOp::IS_EQ)); },
               "has_valid_range_select_reduce_op", "reduce_op", "0x12"});
  c.push_back({"rs_reduce_op_zero", RS, [](Word& w) { set(w, "reduce_op", 0); },
               "has_valid_range_select_reduce_op", "reduce_op", "0x00"});
  c.push_back(
      {"rs_reserved_byte60", RS, [](Word& w) { w[60] = 1; }, "reserved_zero", "reserved1", "0x01"});
  c.push_back({"rs_reserved_byte63", RS, [](Word& w) { w[63] = 0x80; }, "reserved_zero",
               "reserved1", "0x80"});
  c.push_back({"rs_elem_count", RS, [](Word& w) { set_num(w, "dst_mem_pattern", 1, 2); },
               "has_same_elem_count_rs_src_dst", "dst_mem_pattern", "16"});
  c.push_back({"rs_elem_count_src", RS, [](Word& w) { set_num(w, "src_mem_pattern", 0, 7); },
               "has_same_elem_count_rs_src_dst", "dst_mem_pattern", "28"});
  c.push_back({"rs_base_negative", RS, [](Word& w) { set_f32(w, "base", -1.0f); },
               "has_valid_total_index_range", "base", "-1"});
  c.push_back({"rs_base_negative_tiny", RS, [](Word& w) { set(w, "base", 0x80000001); },
               "has_valid_total_index_range", "base", "0x80000001"});
  c.push_back({"rs_base_nan", RS, [](Word& w) { set(w, "base", 0x7fc00000); },
               "has_valid_total_index_range", "base", "0x7fc00000"});
  c.push_back({"rs_base_inf", RS, [](Word& w) { set(w, "base", 0x7f800000); },
               "has_valid_total_index_range", "base", "0x7f800000"});
  c.push_back({"rs_base_above_2p24", RS, [](Word& w) { set_f32(w, "base", 16777218.0f); },
               "has_valid_total_index_range", "base", "0x4b800001"});
  c.push_back({"rs_base_plus_count_above_2p24", RS,
               [](Word& w) { set_f32(w, "base", 16777185.0f); }, "has_valid_total_index_range",
               "base", "16777185"});
  c.push_back({"rs_base_2p24_plus_count", RS, [](Word& w) { set_f32(w, "base", 16777216.0f); },
               "has_valid_total_index_range", "base", "16777216"});
  c.push_back({"rs_bound0_src_3", RS, [](Word& w) { set(w, "bound0_src", 3); },
               "has_valid_immediates", "bound0_src", "0x03"});
  c.push_back({"rs_bound1_src_ff", RS, [](Word& w) { set(w, "bound1_src", 0xff); },
               "has_valid_immediates", "bound1_src", "0xff"});
  c.push_back({"rs_bound0_pointer_mode_bits", RS,
               [](Word& w) {
                 set(w, "bound0_src", 1);
                 set(w, "bound0", 0x20000100);
               },
               "has_valid_immediates", "bound0", "0x20000100"});
  c.push_back({"rs_bound0_pointer_bits_25_28", RS,
               [](Word& w) {
                 set(w, "bound0_src", 1);
                 set(w, "bound0", 0x04000200);
               },
               "has_valid_immediates", "bound0", "0x04000200"});
  c.push_back({"rs_bound0_pointer_psum_offset_16k", RS,
               [](Word& w) {
                 set(w, "bound0_src", 1);
                 set(w, "bound0", psum_addr(0, 0x4000));
               },
               "has_valid_immediates", "bound0", "0x02004000"});
  c.push_back({"rs_bound0_pointer_misaligned", RS,
               [](Word& w) {
                 set(w, "bound0_src", 1);
                 set(w, "bound0", sbuf_addr(0, 0x202));
               },
               "has_valid_immediates", "bound0", "0x00000202"});
  c.push_back({"rs_bound1_pointer_partitions", RS,
               [](Word& w) {
                 set(w, "bound1_src", 1);
                 set(w, "bound1", sbuf_addr(127, 0x200));
               },
               "has_valid_immediates", "bound1", "0x01fc0200"});
  c.push_back({"rs_bound1_pointer_psum_partitions", RS,
               [](Word& w) {
                 set(w, "bound1_src", 1);
                 set(w, "bound1", psum_addr(127, 0x200));
               },
               "has_valid_immediates", "bound1", "0x023f8200"});
  c.push_back({"rs_bound0_register_id_64", RS,
               [](Word& w) {
                 set(w, "bound0_src", 2);
                 set(w, "bound0", 64);
               },
               "has_valid_immediates", "bound0", "0x00000040"});
  c.push_back({"rs_bound1_register_upper_bytes", RS,
               [](Word& w) {
                 set(w, "bound1_src", 2);
                 set(w, "bound1", 0x00000105);
               },
               "has_valid_immediates", "bound1", "0x00000105"});
  c.push_back({"rs_bound1_register_byte3", RS,
               [](Word& w) {
                 set(w, "bound1_src", 2);
                 set(w, "bound1", 0x01000005);
               },
               "has_valid_immediates", "bound1", "0x01000005"});
  c.push_back({"rs_src_start_partition", RS,
               [](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(127, 0x100)); },
               "start_addr_active_channels", "src_mem_pattern", "127"});
  c.push_back({"rs_dst_start_partition", RS,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x1000)); },
               "start_addr_active_channels", "dst_mem_pattern", "127"});
  c.push_back({"rs_128_channels_from_partition_1", RS,
               [](Word& w) {
                 set(w, "num_active_channels", 128);
                 set_addr(w, "src_mem_pattern", sbuf_addr(1, 0x100));
               },
               "start_addr_active_channels", "src_mem_pattern", "1"});
  c.push_back({"rs_src_num0_register_mode", RS,
               [](Word& w) {
                 set_addr(w, "src_mem_pattern", reg_addr(5));
                 set_num(w, "src_mem_pattern", 0, 0);
               },
               "tensor2d_valid", "src_mem_pattern", "0x80000005", "num_elem"});
  c.push_back({"rs_dst_num0_register_mode", RS,
               [](Word& w) {
                 set_addr(w, "dst_mem_pattern", reg_addr(63));
                 set_num(w, "dst_mem_pattern", 1, 0);
               },
               "tensor2d_valid", "dst_mem_pattern", "0x8000003f", "num_elem"});
  c.push_back({"rs_dst_psum_bf16", RS,
               [](Word& w) {
                 set(w, "in_out_dtype", dtype_pair(Dtype::BF16, Dtype::BF16));
                 set_addr(w, "dst_mem_pattern", psum_addr(0, 0x100));
               },
               "tensor2d_valid", "dst_mem_pattern", "0x02000100", "4-byte"});
  return c;
}
GPSIMD_CLAUSE_CASES(RangeSelect, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// ---- RangeSelect (SPEC §4.1) ------------------------------------------------------------

// Encodings of 1.5, -2.0, 0.25 and of the fill -FLT_MAX as it lands in each dtype
// (beyond the finite range of every narrow format: -inf there).
struct Enc {
  uint8_t code;
  uint32_t one_half, minus_two, quarter, fill;
};

constexpr Enc kEnc[] = {
    {dt::FP32, 0x3FC00000, 0xC0000000, 0x3E800000, kNegFltMax},
    {dt::FP32R, 0x3FC00000, 0xC0000000, 0x3E800000, kNegFltMax},
    {dt::BF16, 0x3FC0, 0xC000, 0x3E80, 0xFF80},
    {dt::FP16, 0x3E00, 0xC000, 0x3400, 0xFC00},  // 0.25 = 2^-2: exponent 13
    {dt::FP8_E5, 0x3E, 0xC0, 0x34, 0xFC},        // 0 01111 10 / 1 10000 00 / 0 01101 00
    {dt::FP8_E4, 0x3C, 0xC0, 0x28, 0xF8},        // 0 0111 100 / 1 1000 000 / 0 0101 000
    {dt::FP8_E3, 0x38, 0xC0, 0x10, 0xF0},        // 0 011 1000 / 1 100 0000 / 0 001 0000
};

TEST(RangeSelect, EveryInputOutputDtypePair) {
  for (const Enc& in : kEnc) {
    if (in.code == dt::FP32R) continue;  // not an input dtype
    for (const Enc& out : kEnc) {
      SCOPED_TRACE(testing::Message() << "in " << int{in.code} << " out " << int{out.code});
      Machine& m = fresh(Generation::V3);
      const unsigned isz = rm::size_of(in.code), osz = rm::size_of(out.code);
      poke(m, SBUF, 0, 0x100, isz, {in.one_half, in.minus_two, in.quarter, in.one_half});
      // Indices 0..3; 1 <= idx <= 2 keeps j = 1, 2.
      expect_ok(m,
                rs_word(in.code, out.code, 4, 0.0f, op::IS_GE, 1.0f, op::IS_LE, 2.0f, 3).encode());
      EXPECT_EQ(peek(m, SBUF, 1, 0x200, osz, 4),
                (V{out.fill, out.minus_two, out.quarter, out.fill}));
      EXPECT_EQ(m.accumulators[0], 0x3E800000u);  // max(-FLT_MAX, -2, 0.25) = 0.25
      EXPECT_EQ(m.accumulators[1], kNegInf);
    }
  }
}

// FP32 inputs narrowed: round to nearest even, gradual underflow, overflow to inf, NaN.
TEST(RangeSelect, NarrowingRoundsToNearestEven) {
  struct Case {
    uint8_t out;
    V in, want;
  };
  const Case cases[] = {
      // 1+2^-8 tie -> 1.0; 1+3*2^-8 tie -> 1+2^-6; just above the tie; -FLT_MAX -> -inf;
      // 2^-134 tie -> 0; 1.5*2^-133 tie -> 2^-132; NaN -> canonical with sign.
      {dt::BF16,
       {0x3F808000, 0x3F818000, 0x3F808001, kNegFltMax, 0x00008000, 0x00018000, 0x7FC00001,
        0xFF800001},
       {0x3F80, 0x3F82, 0x3F81, 0xFF80, 0x0000, 0x0002, 0x7FC0, 0xFFC0}},
      // 1+2^-11 -> 1.0; 1+3*2^-11 -> 1+2^-9; 65520 -> inf; 65519 -> 65504; 2^-24; 2^-25 -> 0;
      // 1.5*2^-24 -> 2^-23; -2^-25 -> -0; -NaN.
      {dt::FP16,
       {0x3F801000, 0x3F803000, 0x477FF000, 0x477FEF00, 0x33800000, 0x33000000, 0x33C00000,
        0xB3000000, 0xFFC00000},
       {0x3C00, 0x3C02, 0x7C00, 0x7BFF, 0x0001, 0x0000, 0x0002, 0x8000, 0xFE00}},
      // 1.125 -> 1.0; 1.375 -> 1.5; 61440 -> inf; 61439 -> 57344; 2^-16; 2^-17 -> 0; NaN.
      {dt::FP8_E5,
       {0x3F900000, 0x3FB00000, 0x47700000, 0x476FFF00, 0x37800000, 0x37000000, 0x7F800001},
       {0x3C, 0x3E, 0x7C, 0x7B, 0x01, 0x00, 0x7E}},
      // 1.0625 -> 1.0; 1.1875 -> 1.25; 248 -> inf; 247 -> 240; 2^-9; -2^-10 -> -0; -NaN.
      {dt::FP8_E4,
       {0x3F880000, 0x3F980000, 0x43780000, 0x43770000, 0x3B000000, 0xBA800000, 0xFFFFFFFF},
       {0x38, 0x3A, 0x78, 0x77, 0x01, 0x80, 0xFC}},
      // 1.03125 -> 1.0; 1.09375 -> 1.125; 15.75 -> inf; 15.7 -> 15.5; 2^-6; 2^-7 -> 0; NaN.
      {dt::FP8_E3,
       {0x3F840000, 0x3F8C0000, 0x417C0000, 0x417B3333, 0x3C800000, 0x3C000000, 0x7FC00000},
       {0x30, 0x32, 0x70, 0x6F, 0x01, 0x00, 0x78}},
      // FP32 and FP32R store the bits, signalling NaN included.
      {dt::FP32, {0x7F800001, 0x00000001, kNegFltMax}, {0x7F800001, 0x00000001, kNegFltMax}},
      {dt::FP32R, {0xFF800001, 0x80000000}, {0xFF800001, 0x80000000}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int{c.out});
    Machine& m = fresh(Generation::V4);
    const auto n = static_cast<unsigned>(c.in.size());
    poke(m, SBUF, 0, 0x100, 4, c.in);
    expect_ok(m, rs_word(dt::FP32, c.out, n, 0.0f, op::IS_GE, -1.0f, op::IS_LE, 1e6f, 0).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, rm::size_of(c.out), n), c.want);
  }
}

// Narrow inputs widen exactly; a NaN keeps sign and payload and gets the quiet bit.
TEST(RangeSelect, WideningIsExactAndKeepsNaNPayloads) {
  struct Case {
    uint8_t in;
    V bits, want;
  };
  const Case cases[] = {
      // sNaN payload 1 -> 0x7FC10000; negative; min subnormal 2^-133; inf.
      {dt::BF16,
       {0x7F81, 0xFF81, 0x0001, 0x7F80},
       {0x7FC10000, 0xFFC10000, 0x00010000, 0x7F800000}},
      // -sNaN mantissa 0x101 -> 0xFFC00000 | 0x101 << 13; 2^-24; -inf.
      {dt::FP16, {0xFD01, 0x0001, 0xFC00}, {0xFFE02000, 0x33800000, kNegInf}},
      // NaN mantissa 01 -> quiet | 1 << 21; 2^-16; 57344.
      {dt::FP8_E5, {0x7D, 0x01, 0x7B}, {0x7FE00000, 0x37800000, 0x47600000}},
      // NaN mantissa 001 -> quiet | 1 << 20; 2^-9; 240.
      {dt::FP8_E4, {0x79, 0x01, 0x77}, {0x7FD00000, 0x3B000000, 0x43700000}},
      // NaN mantissa 0001 -> quiet | 1 << 19; 2^-6; 15.5.
      {dt::FP8_E3, {0x71, 0x01, 0x6F}, {0x7FC80000, 0x3C800000, 0x41780000}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int{c.in});
    Machine& m = fresh(Generation::V5);
    const auto n = static_cast<unsigned>(c.bits.size());
    poke(m, SBUF, 0, 0x100, rm::size_of(c.in), c.bits);
    expect_ok(m, rs_word(c.in, dt::FP32, n, 0.0f, op::IS_GE, 0.0f, op::IS_LT, 100.0f, 3).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, n), c.want);
  }
  // A narrow NaN through a narrow output comes out canonical.
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 2, {0x7F81, 0xFF81});
  expect_ok(m, rs_word(dt::BF16, dt::BF16, 2, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 9.0f, 0).encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 2, 2), (V{0x7FC0, 0xFFC0}));
}

// The fill is -FLT_MAX: -inf in a narrow output, -FLT_MAX in the accumulator.
TEST(RangeSelect, FillIsNegativeFltMaxAndTheAccumulatorSeesIt) {
  for (const Enc& out : kEnc) {
    SCOPED_TRACE(int{out.code});
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 0, 0x100, 4, {f32(1.0f), kNegInf, f32(7.0f)});
    // idx 0..2 with idx < 0: nothing passes.
    expect_ok(m,
              rs_word(dt::FP32, out.code, 3, 0.0f, op::IS_LT, 0.0f, op::IS_LT, 9.0f, 3).encode());
    const unsigned osz = rm::size_of(out.code);
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, osz, 3), (V{out.fill, out.fill, out.fill}));
    EXPECT_EQ(m.accumulators[0], kNegFltMax);
  }
  // A passing -inf is below the fill: the maximum is still -FLT_MAX, the BF16 output -inf.
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, {kNegInf, kNegInf});
  expect_ok(m, rs_word(dt::FP32, dt::BF16, 2, 0.0f, op::IS_EQ, 1.0f, op::IS_EQ, 1.0f, 3).encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 2, 2), (V{0xFF80, 0xFF80}));
  EXPECT_EQ(m.accumulators[0], kNegFltMax);
}

TEST(RangeSelect, ReduceModes) {
  struct Case {
    uint8_t cmd;
    uint32_t before, after;
  };
  const Case cases[] = {
      {0, 0x12345678, 0x12345678},    // IDLE: unchanged
      {2, f32(100.0f), f32(100.0f)},  // ACCUMULATE: max(100, 0.25)
      {2, f32(-1.0f), f32(0.25f)},    // ACCUMULATE: max(-1, 0.25)
      {3, f32(100.0f), f32(0.25f)},   // ZERO_ACCUMULATE: the old value does not count
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int{c.cmd});
    Machine& m = fresh(Generation::V3);
    m.accumulators[0] = c.before;
    poke(m, SBUF, 0, 0x100, 4, {f32(0.25f), f32(-3.0f)});
    expect_ok(
        m, rs_word(dt::FP32, dt::FP32, 2, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 5.0f, c.cmd).encode());
    EXPECT_EQ(m.accumulators[0], c.after);
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 2), (V{f32(0.25f), f32(-3.0f)}));
  }
}

// SPEC §4.1 max: NaNs ignored, -0 < +0, all NaN -> 0x7FC00000.
TEST(RangeSelect, MaxRulesForNaNAndSignedZero) {
  struct Case {
    uint8_t cmd;
    uint32_t acc;
    V y;
    uint32_t want;
  };
  const Case cases[] = {
      {3, 0, {0x80000000, 0x00000000}, 0x00000000}, {3, 0, {0x00000000, 0x80000000}, 0x00000000},
      {3, 0, {0x80000000, 0x80000000}, 0x80000000}, {3, 0, {0x7FC00001, f32(1.0f)}, f32(1.0f)},
      {3, 0, {0xFFFFFFFF, 0x7F800001}, 0x7FC00000}, {3, 0, {kNegInf, 0x7FC00000}, kNegInf},
      {2, 0x7FC00000, {f32(2.0f)}, f32(2.0f)},      {2, 0x00000000, {0x80000000}, 0x00000000},
      {2, 0x80000000, {0x00000000}, 0x00000000},    {2, f32(5.0f), {0x7FC00000}, f32(5.0f)},
      {2, 0x7FC12345, {0xFFC00000}, 0x7FC00000},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "acc " << std::hex << c.acc << " y0 " << c.y[0]);
    Machine& m = fresh(Generation::V3);
    m.accumulators[0] = c.acc;
    poke(m, SBUF, 0, 0x100, 4, c.y);
    const auto n = static_cast<unsigned>(c.y.size());
    expect_ok(
        m, rs_word(dt::FP32, dt::FP32, n, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 5.0f, c.cmd).encode());
    EXPECT_EQ(m.accumulators[0], c.want);
  }
}

// idx = fp32(base + j), one rounding; the comparisons are FP32 comparisons.
TEST(RangeSelect, IndexRoundingAndComparisons) {
  struct Case {
    float base;
    uint8_t op0;
    float b0;
    uint8_t op1;
    float b1;
    V pass;  // 1 where element j passes
  };
  const float nan = rm::as_float(0x7FC00000);
  const Case cases[] = {
      {0.5f, op::IS_GE, 1.0f, op::IS_LE, 2.0f, {0, 1, 0, 0}},  // idx 0.5 1.5 2.5 3.5
      // idx 8388607.5, 8388608.5 -> 8388608, 8388609.5 -> 8388610, 8388610.5 -> 8388610.
      {8388607.5f, op::IS_EQ, 8388610.0f, op::IS_EQ, 8388610.0f, {0, 0, 1, 1}},
      {8388607.5f, op::IS_EQ, 8388608.0f, op::IS_GE, 0.0f, {0, 1, 0, 0}},
      {0.0f, op::IS_GT, 0.0f, op::IS_LT, 3.0f, {0, 1, 1, 0}},
      {0.0f, op::IS_LE, 2.0f, op::IS_GE, 1.0f, {0, 1, 1, 0}},
      {0.0f, op::IS_GE, nan, op::IS_LE, 9.0f, {0, 0, 0, 0}},  // NaN compares false
      {-0.0f, op::IS_EQ, 0.0f, op::IS_LE, 9.0f, {1, 0, 0, 0}},
      {10.0f, op::IS_GE, 11.0f, op::IS_LT, 13.0f, {0, 1, 1, 0}},
      {0.0f,
       op::IS_GE,
       rm::as_float(0xff800000),
       op::IS_LT,
       rm::as_float(0x7f800000),
       {1, 1, 1, 1}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "base " << c.base << " b0 " << c.b0);
    Machine& m = fresh(Generation::V3);
    const V src = {f32(1.0f), f32(2.0f), f32(3.0f), f32(4.0f)};
    poke(m, SBUF, 0, 0x100, 4, src);
    expect_ok(m, rs_word(dt::FP32, dt::FP32, 4, c.base, c.op0, c.b0, c.op1, c.b1, 0).encode());
    V want(4);
    for (unsigned j = 0; j < 4; ++j) want[j] = c.pass[j] ? src[j] : kNegFltMax;
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 4), want);
  }
}

// Bounds per channel through a pointer and a register pointer; each channel reduces into
// the accumulator of its source partition.
TEST(RangeSelect, PointerBoundsAndPerPartitionAccumulators) {
  Machine& m = fresh(Generation::V3);
  rm::RangeSelectWord x;
  x.channels = 2;
  x.reduce_cmd = 3;
  x.src = tensor2(rm::sbuf_addr(20, 0x40), 1, 4, 4, 1);
  x.dst = tensor2(rm::sbuf_addr(60, 0x80), 1, 4, 4, 1);
  x.comp_op0 = op::IS_GE;
  x.bound0_src = 1;  // pointer: SBUF partitions 40, 41
  x.bound0 = rm::sbuf_addr(40, 0x100);
  x.comp_op1 = op::IS_LE;
  x.bound1_src = 2;  // register 9 holds a PSUM pointer: partitions 7, 8
  x.bound1 = 9;
  m.registers[9] = rm::psum_addr(7, 0x44);
  poke(m, SBUF, 40, 0x100, 4, {f32(0.0f)});
  poke(m, SBUF, 41, 0x100, 4, {f32(2.0f)});
  poke(m, PSUM, 7, 0x44, 4, {f32(0.0f)});
  poke(m, PSUM, 8, 0x44, 4, {f32(3.0f)});
  poke(m, SBUF, 20, 0x40, 4, {f32(5.0f), f32(6.0f), f32(7.0f), f32(8.0f)});
  poke(m, SBUF, 21, 0x40, 4, {f32(-5.0f), f32(-6.0f), f32(-7.0f), f32(-8.0f)});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 60, 0x80, 4, 4), (V{f32(5.0f), kNegFltMax, kNegFltMax, kNegFltMax}));
  EXPECT_EQ(peek(m, SBUF, 61, 0x80, 4, 4), (V{kNegFltMax, kNegFltMax, f32(-7.0f), f32(-8.0f)}));
  EXPECT_EQ(m.accumulators[20], f32(5.0f));
  EXPECT_EQ(m.accumulators[21], f32(-7.0f));
  EXPECT_EQ(m.accumulators[60], kNegInf);
  EXPECT_EQ(m.accumulators[61], kNegInf);
}

TEST(RangeSelect, PsumSourceAndDestination) {
  Machine& m = fresh(Generation::V3);
  rm::RangeSelectWord x = rs_word(dt::BF16, dt::FP32, 4, 0.0f, op::IS_GE, 1.0f, op::IS_LE, 3.0f, 3);
  x.src = tensor2(rm::psum_addr(3, 0x100), 1, 4, 4, 1);
  x.dst = tensor2(rm::psum_addr(5, 0x3FF0), 1, 4, 4, 1);  // the last 16 bytes of the partition
  poke(m, PSUM, 3, 0x100, 2, {0x3F80, 0x4000, 0x4040, 0x4080});  // 1 2 3 4
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, PSUM, 5, 0x3FF0, 4, 4), (V{kNegFltMax, f32(2.0f), f32(3.0f), f32(4.0f)}));
  EXPECT_EQ(m.accumulators[3], f32(4.0f));
}

}  // namespace
#endif
