// RangeSelect (SPEC §4.1): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"

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
#endif
