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
