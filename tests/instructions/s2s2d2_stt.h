// The S2S2D2_STT family (SPEC §4.20 TensorTensorScan, §4.21 ScalarTensorTensorArith /
// ScalarTensorTensorBitvec, §4.25 SelectReduce): what the tests of its four opcodes
// (tests/instructions/) share: the word layout, the independent reference, the random
// generators and the clause cases.
#pragma once

#include "instructions/registry.h"
#include "instructions/tensor_tensor.h"  // refmodel::tt::fp32, the FP32 path of SPEC §3.8

namespace refmodel {

inline constexpr uint8_t kTensorTensorScan = 0xe5, kScalarTensorTensorArith = 0x9d,
                         kScalarTensorTensorBitvec = 0x9e, kSelectReduce = 0xea;

// The S2S2D2_STT layout (SPEC §4.20's table).
struct SttWord {
  uint8_t opcode = kTensorTensorScan;
  Events ev;
  Tensor src0{.dims = 2}, src1{.dims = 2}, dst{.dims = 2};
  uint8_t op0 = op::MULT, op1 = op::ADD, rev = 0, imm_src = 0;
  uint8_t lo = dt::FP32, hi = dt::FP32, out = dt::FP32, channels = 1, imm_dtype = dt::FP32;
  uint8_t cmd = 0;
  uint32_t imm0 = 0;
  Word encode() const {
    Word w;
    put_header(w, opcode);
    put_events(w, ev);
    put_tensor(w, 12, src0);
    put_tensor(w, 24, src1);
    w[36] = op0;
    w[37] = op1;
    w[38] = rev;
    w[39] = imm_src;
    w[40] = static_cast<uint8_t>(lo | (hi << 4));
    w[41] = out;
    w[42] = channels;
    w[43] = imm_dtype;
    w[44] = cmd;
    put_tensor(w, 48, dst);
    put(w, 60, 4, imm0);
    return w;
  }
};

}  // namespace refmodel

namespace refmodel::internal {

// SPEC §4.20, §4.21, §4.25. Offsets: 12 src0, 24 src1 (TENSOR2D), 36 op0, 37 op1,
// 38 reverse_operands, 39 imm0_src, 40 in0_in1_dtype, 41 out_dtype, 42 channels,
// 43 imm0_dtype, 44 accumulator_cmd, 48 dst (TENSOR2D), 60 imm0.
inline std::optional<FaultKind> s2s2d2_stt(const Machine& m, const Word& w, Effects& fx) {
  const uint8_t opcode = w[0];
  // 0x9e never runs; SelectReduce does not run on V2 (after the wait, before anything).
  if (opcode == kScalarTensorTensorBitvec) return FaultKind::UnsupportedOp;
  if (opcode == kSelectReduce && m.generation() == Generation::V2) return FaultKind::UnsupportedOp;
  const uint8_t lo = w[40] & 0xf, hi = w[40] >> 4, out = w[41], idt = w[43], cmd = w[44];
  const uint8_t op0 = w[36], op1 = w[37], rev = w[38];
  const unsigned n = w[42];
  const Tensor t0 = get_tensor(w, 12, 2), t1 = get_tensor(w, 24, 2), td = get_tensor(w, 48, 2);
  const unsigned s0 = size_of(lo), s1 = size_of(hi), sd = size_of(out);
  const auto a0 = resolve(m, t0, s0, true, false, n);
  const auto a1 = resolve(m, t1, s1, true, false, n);
  const auto ad = resolve(m, td, sd, true, true, n);
  const auto imm = resolve_imm(m, w[39], get(w, 60, 4), size_of(idt), true, n);
  if (!a0 || !a1 || !ad || !imm) return FaultKind::BadAddress;
  if (a0->space == Space::PSUM && a1->space == Space::PSUM) return FaultKind::BadAddress;
  if ((t0.register_mode() || t1.register_mode() || td.register_mode()) &&
      (t0.count() != t1.count() || t0.count() != td.count()))
    return FaultKind::ShapeMismatch;
  if (t0.count() > kWalkLimit || t1.count() > kWalkLimit || td.count() > kWalkLimit)
    return FaultKind::TooLarge;
  const auto o0 = walk(t0, a0->offset, s0), o1 = walk(t1, a1->offset, s1),
             od = walk(td, ad->offset, sd);
  const bool rev0 = rev == 1 || rev == 3, rev1 = rev == 2 || rev == 3;
  for (unsigned c = 0; c < n; ++c) {
    // imm0 of channel c as an FP32 (the initial, the scalar or on_false).
    const uint32_t s = to_fp32(idt, imm->at(m, c));
    std::vector<uint32_t> r(o0.size());
    uint32_t carry = s;
    for (std::size_t j = 0; j < o0.size(); ++j) {
      const uint32_t a = load(m, a0->space, a0->partition + c, o0[j], s0);
      const uint32_t b = load(m, a1->space, a1->partition + c, o1[j], s1);
      if (opcode == kSelectReduce) {
        const bool sel = (a != 0) != (rev == 1);
        r[j] = sel ? to_fp32(hi, b) : s;
        continue;
      }
      const uint32_t x = to_fp32(lo, a), y = to_fp32(hi, b);
      const uint32_t k = opcode == kTensorTensorScan ? carry : s;
      const uint32_t t = op0 == op::BYPASS ? x : rev0 ? tt::fp32(op0, k, x) : tt::fp32(op0, x, k);
      r[j] = op1 == op::BYPASS ? t : rev1 ? tt::fp32(op1, y, t) : tt::fp32(op1, t, y);
      carry = r[j];
    }
    for (std::size_t j = 0; j < od.size(); ++j)
      fx.stores.push_back({ad->space, ad->partition + c, od[j], sd, from_fp32(out, r[j])});
    if (cmd != 2 && cmd != 3) continue;
    if (opcode == kScalarTensorTensorArith) {  // the sum, in walk order, into src0's acc
      const unsigned p = a0->partition + c;
      uint32_t acc = cmd == 2 ? m.accumulators[p] : 0u;
      for (uint32_t v : r) acc = tt::fp32(op::ADD, acc, v);
      fx.accumulators.emplace_back(p, acc);
    } else if (opcode == kSelectReduce) {  // the max, into src1's acc
      const unsigned p = a1->partition + c;
      std::vector<uint32_t> all{cmd == 2 ? m.accumulators[p] : 0xff800000u};
      all.insert(all.end(), r.begin(), r.end());
      fx.accumulators.emplace_back(p, max_of(all));
    }
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::test_words {

// The valid words of the family: 2 channels from partition 3. src0: steps {1, 8} counts
// {8, 2} at SBUF offset 0x100; src1: steps {1, 4} counts {4, 4} at 0x200; dst: steps
// {1, 0} counts {16, 1} at 0x300.
namespace stt_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kPartition = 3;
inline constexpr uint32_t kSrc0Addr = sbuf_addr(kPartition, 0x100),
                          kSrc1Addr = sbuf_addr(kPartition, 0x200),
                          kDstAddr = sbuf_addr(kPartition, 0x300);
}  // namespace stt_word

inline Word valid_s2s2d2_stt(Opcode op, Dtype lo, Dtype hi, Dtype out, AluOp op0, AluOp op1,
                             Dtype imm_dtype, uint32_t imm0, AccumCmd cmd) {
  using namespace stt_word;
  return build(op, {{"src0_mem_pattern", tensor(kSrc0Addr, {1, 8}, {8, 2})},
                    {"src1_mem_pattern", tensor(kSrc1Addr, {1, 4}, {4, 4})},
                    {"op0", uint64_t{static_cast<uint8_t>(op0)}},
                    {"op1", uint64_t{static_cast<uint8_t>(op1)}},
                    {"in0_in1_dtype", uint64_t{dtype_pair(lo, hi)}},
                    {"out_dtype", uint64_t{static_cast<uint8_t>(out)}},
                    {"num_active_channels", uint64_t{kChannels}},
                    {"imm0_dtype", uint64_t{static_cast<uint8_t>(imm_dtype)}},
                    {"accumulator_cmd", uint64_t{static_cast<uint8_t>(cmd)}},
                    {"dst_mem_pattern", tensor(kDstAddr, {1, 0}, {16, 1})},
                    {"imm0", uint64_t{imm0}}});
}

}  // namespace gpsimd::test_words

namespace gpsimd::random_words {

// Random valid S2S2D2_STT words of `opcode` (SPEC §4.20, §4.21, §4.25).
inline Word gen_s2s2d2_stt(Builder& b, uint8_t opcode) {
  using namespace rm::dt;
  Rng& r = b.rng();
  const Generation g = b.generation();
  const bool v4 = g == Generation::V4 || g == Generation::V5;
  rm::SttWord x;
  x.opcode = opcode;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  std::vector<uint8_t> general = ttops::kGeneral;
  if (v4) general.insert(general.end(), ttops::kGeneralV4.begin(), ttops::kGeneralV4.end());
  const auto any_dtype = [&] { return data_dtype(r); };
  bool runs = true;
  switch (opcode) {
    case rm::kTensorTensorScan:
    case rm::kScalarTensorTensorArith:
      x.op0 = pick_of(r, general);
      x.op1 = pick_of(r, general);
      x.lo = any_dtype();
      x.hi = any_dtype();
      x.out = r.chance(8) ? FP32R : any_dtype();
      x.imm_dtype = any_dtype();
      x.rev = static_cast<uint8_t>(r.uin(0, 3));
      x.cmd = opcode == rm::kTensorTensorScan ? 0 : r.pick<uint8_t>({0, 2, 3});
      break;
    case rm::kScalarTensorTensorBitvec: {
      std::vector<uint8_t> bitvec = ttops::kBitvec;
      x.op0 = pick_of(r, bitvec);
      x.op1 = pick_of(r, bitvec);
      x.lo = x.hi = x.out = x.imm_dtype =
          r.pick<uint8_t>({INT8, UINT8, INT16, UINT16, INT32, UINT32});
      x.rev = static_cast<uint8_t>(r.uin(0, 3));
      runs = false;
      break;
    }
    default:  // SelectReduce
      x.op0 = rm::op::BYPASS;
      x.op1 = rm::op::MAX;
      x.lo = r.pick<uint8_t>({INT8, UINT8, INT16, UINT16, INT32, UINT32});
      do x.hi = any_dtype();
      while (x.hi == INT32 || x.hi == UINT32);
      x.out = r.chance(8) ? FP32R : any_dtype();
      x.imm_dtype = any_dtype();
      x.rev = static_cast<uint8_t>(r.uin(0, 1));
      x.cmd = r.pick<uint8_t>({0, 2, 3});
      runs = g != Generation::V2;
      break;
  }
  const unsigned s0 = rm::size_of(x.lo), s1 = rm::size_of(x.hi), sd = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  // At most one source in PSUM; a PSUM destination has 4-byte elements.
  const unsigned psum_source = r.uin(0, 2);  // 1: src0, 2: src1
  const Space sp0 = psum_source == 1 ? b.space(60) : Space::SBUF;
  const Space sp1 = psum_source == 2 ? b.space(60) : Space::SBUF;
  const Space spd = sd == 4 ? b.space(30) : Space::SBUF;
  x.src0 = b.shape(2, count, s0, sp0);
  x.src1 = b.shape(2, count, s1, sp1);
  x.dst = b.shape(2, count, sd, spd);
  const unsigned p0 = b.start_partition(n);
  const unsigned p1 = b.near_partition(p0, n);
  const rm::Loc ld = b.place(x.dst, spd, b.near_partition(p0, n), n, sd, true);
  const rm::Loc l0 = b.place(x.src0, sp0, p0, n, s0, true);
  const rm::Loc l1 = b.place(x.src1, sp1, p1, n, s1, true);
  // imm0: an FP32 instruction immediate, or imm0_dtype values through a pointer.
  const uint8_t idt = x.imm_dtype;
  std::tie(x.imm_src, x.imm0) = b.immediate(rm::size_of(idt), p0, n, true, random_value(r, FP32),
                                            [&](unsigned) { return random_value(r, idt); });
  if (x.imm_src == 0 && opcode != rm::kScalarTensorTensorBitvec) x.imm_dtype = FP32;
  if (runs) {
    b.fill(x.dst, ld, n, sd, [&] { return random_value(r, x.out); });
    const bool sparse = opcode == rm::kSelectReduce && r.chance(50);
    b.fill(x.src0, l0, n, s0,
           [&] { return sparse ? zero_or_value(r, 50, x.lo, false) : random_value(r, x.lo); });
    b.fill(x.src1, l1, n, s1, [&] { return random_value(r, x.hi); });
    for (unsigned c = 0; c < n; ++c)
      b.set_acc(opcode == rm::kSelectReduce ? l1.partition + c : l0.partition + c,
                r.chance(20) ? r.pick<uint32_t>({0xff800000u, 0x7fc00000u, 0x80000000u})
                             : random_value(r, FP32));
  }
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  if (inj == Inject::Shape) {
    if (x.src0.register_mode())
      x.src0.num[1] += 1;
    else if (x.src1.register_mode())
      x.src1.num[0] += 1;
    else if (x.dst.register_mode())
      x.dst.num[0] += 1;
  }
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.20, §4.21, §4.25: random valid S2S2D2_STT words of `opcode` (valid on V3).
inline Word valid_s2s2d2_stt(Gen& g, uint8_t opcode) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  static constexpr uint8_t kNarrow[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0xa, 0xd, 0xe, 0xf};
  static constexpr uint8_t kInt[] = {0x2, 0x3, 0x4, 0x5, 0x8, 0x9};
  static constexpr uint8_t kGeneral[] = {0x00, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0d, 0x0e, 0x0f,
                                         0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19};
  static constexpr uint8_t kBitvec[] = {0x00, 0x01, 0x02, 0x03, 0x10, 0x11, 0x0a, 0x0b, 0x0c};
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  uint8_t lo, hi, out, idt, op0, op1, rev = static_cast<uint8_t>(g.below(4)), cmd = 0;
  if (opcode == 0x9e) {
    lo = hi = out = idt = g.pick(kInt);
    op0 = g.pick(kBitvec);
    op1 = g.pick(kBitvec);
  } else if (opcode == 0xea) {
    lo = g.pick(kInt);
    hi = g.pick(kNarrow);
    out = g.below(8) == 0 ? 0xb : g.pick(kData);
    idt = g.pick(kData);
    op0 = 0x00;
    op1 = 0x08;
    rev = static_cast<uint8_t>(g.below(2));
    cmd = static_cast<uint8_t>(g.below(3) == 0 ? 0 : 2 + g.below(2));
  } else {
    lo = g.pick(kData);
    hi = g.pick(kData);
    out = g.below(8) == 0 ? 0xb : g.pick(kData);
    idt = g.pick(kData);
    op0 = g.pick(kGeneral);
    op1 = g.pick(kGeneral);
    if (opcode == 0x9d) cmd = static_cast<uint8_t>(g.below(3) == 0 ? 0 : 2 + g.below(2));
  }
  w[36] = op0;
  w[37] = op1;
  w[38] = rev;
  w[40] = static_cast<uint8_t>(lo | hi << 4);
  w[41] = out;
  w[42] = static_cast<uint8_t>(n);
  w[44] = cmd;
  const auto num = g.nums(2);
  const unsigned s0 = *dtype_size(lo), s1 = *dtype_size(hi), sd = *dtype_size(out);
  const unsigned psum = g.below(3);  // at most one source in PSUM
  store_tensor(w, 12, g.tensor(2, num, n, s0, psum == 1));
  store_tensor(w, 24, g.tensor(2, {num[1], num[0], 0, 0}, n, s1, psum == 2));
  store_tensor(
      w, 48,
      g.tensor(2, {static_cast<uint16_t>(num[0] * num[1]), 1, 0, 0}, n, sd, sd == 4 && g.below(2)));
  g.immediate(w, 39, 60, *dtype_size(idt), n, true);
  if (w[39] == 0) {
    // An instruction immediate: FP32 (0x9e: any 4 bytes of its integer imm0_dtype).
    if (opcode != 0x9e) idt = 0xa;
    store_u32(w, 60, static_cast<uint32_t>(g.rng()));
  }
  w[43] = idt;
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {

// Random ScalarTensorTensorArith words (SPEC §4.21) for the fast path (TensorScalar's and
// TensorTensor's channel kernels, IDLE only) against the scalar path: general arithmetic
// ops, any data dtypes, 2-D walks that may overlap, a scalar or a pointer, sometimes an
// accumulator command (the reference path on both sides).
inline Word scalar_tensor_tensor_arith_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0x9d;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const auto general = [](uint8_t o) { return alu::is_general_arith_op(o); };
  const uint8_t op0 = pick_op(rng, general), op1 = pick_op(rng, general);
  const Dtype lo = large ? Dtype::FP32 : rng.pick(kAluDtypes);
  const Dtype hi = large ? Dtype::FP32 : rng.pick(kAluDtypes);
  const Dtype out = large ? (rng.chance(0.5) ? Dtype::FP32 : Dtype::BF16) : rng.pick(kAluDtypes);
  const unsigned s0 = *dtype_size(lo), s1 = *dtype_size(hi), sd = *dtype_size(out);
  const Window w0 = alu_window(rng, large, true);
  const Window w1 = alu_window(rng, large, w0.space != Space::PSUM);
  const Window wd = alu_window(rng, large, sd == 4);
  const unsigned p0 = rng.below(kPartitions - n + 1);
  const unsigned p1 = rng.chance(0.5) ? p0 : rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.6) ? p0 : rng.below(kPartitions - n + 1);
  const TensorDesc src0 = random_walk(rng, 2, 0, large ? 8000 : 600, s0, w0, p0);
  const TensorDesc src1 = random_walk(rng, 2, src0.count(), 0, s1, w1, p1);
  const TensorDesc dst = random_walk(rng, 2, src0.count(), 0, sd, wd, pd);
  alu_fill(rng, m, wd, pd, n, out);
  alu_fill(rng, m, w0, p0, n, lo);
  alu_fill(rng, m, w1, p1, n, hi);
  w[36] = op0;
  w[37] = op1;
  w[38] = static_cast<uint8_t>(rng.below(4));
  w[40] = static_cast<uint8_t>(static_cast<uint8_t>(lo) | static_cast<uint8_t>(hi) << 4);
  w[41] = static_cast<uint8_t>(out);
  w[42] = static_cast<uint8_t>(n);
  w[43] = static_cast<uint8_t>(Dtype::FP32);
  w[44] = rng.chance(0.1) ? static_cast<uint8_t>(2 + rng.below(2)) : 0;
  const uint32_t specials[] = {0x7fc00000u, 0xff800000u, 0x80000000u, 0x00000001u, 0x3f800000u};
  store_u32(w, 60,
            rng.chance(0.2)
                ? rng.pick(specials)
                : std::bit_cast<uint32_t>(static_cast<float>(rng.below(200)) / 8.0f - 12.0f));
  store_tensor(w, 12, src0);
  store_tensor(w, 24, src1);
  store_tensor(w, 48, dst);
  return w;
}

}  // namespace gpsimd::kernels_equiv

#ifdef GPSIMD_INSTRUCTION_TESTS
#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd::validate_cases {

inline constexpr auto TTS = Opcode::TensorTensorScan;
inline constexpr auto STTA = Opcode::ScalarTensorTensorArith;
inline constexpr auto STTB = Opcode::ScalarTensorTensorBitvec;
inline constexpr auto SR = Opcode::SelectReduce;
inline constexpr Opcode kSttOps[] = {TTS, STTA, STTB, SR};
inline std::string stt_prefix(Opcode op) {
  switch (op) {
    case TTS:
      return "tts_";
    case STTA:
      return "stta_";
    case STTB:
      return "sttb_";
    default:
      return "sr_";
  }
}

// ---- the family's clause cases (each instruction's file instantiates its share) ----
//
// The valid words (test_words.h via each file): 2 channels from partition 3, 16 elements.
// TensorTensorScan: FP32 x FP32 -> FP32, MULT then ADD, initial 0.5; ScalarTensorTensorArith
// the same with imm0 2.0 and ZERO_ACCUMULATE; ScalarTensorTensorBitvec INT16 throughout,
// BITWISE_AND then BITWISE_OR, imm0 0xff; SelectReduce a UINT8 predicate, FP32 on_true and
// destination, on_false -FLT_MAX, ZERO_ACCUMULATE.
inline std::vector<ClauseCase> s2s2d2_stt_clause_cases() {
  using D = Dtype;
  std::vector<ClauseCase> c;
  for (Opcode o : kSttOps) {
    const std::string p = stt_prefix(o);
    // is_valid_dtype: lo, hi and imm0_dtype without FP32R; out with it (0x9e: its own
    // dtype clauses fail too, below).
    if (o != STTB)
      c.push_back({p + "out_invalid", o, [](Word& w) { set(w, "out_dtype", 0x0); },
                   "is_valid_dtype", "out_dtype", "INVALID (0x0)", "must not be"});
    if (o != STTB)
      c.push_back({p + "out_int64", o, [](Word& w) { set(w, "out_dtype", 0xc); }, "is_valid_dtype",
                   "out_dtype", "INT64 (0xc)"});
    // start_addr_active_channels: the 2 channels from partition 127 pass 128.
    for (std::string f : {"src0_mem_pattern", "src1_mem_pattern", "dst_mem_pattern"})
      c.push_back(
          {p + "start_partition_" + f, o,
           [f](Word& w) { set_addr(w, f, sbuf_addr(127, get_tensor(w, f).addr & 0x3ffff)); },
           "start_addr_active_channels", f, "start partition 127 + 2 channels", "<= 128"});
    // tensor2d_valid.
    c.push_back({p + "dst_misaligned", o,
                 [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(3, 0x301)); },
                 "tensor2d_valid", "dst_mem_pattern", "0x000c0301", "aligned"});
    c.push_back({p + "src1_register_64", o,
                 [](Word& w) { set_addr(w, "src1_mem_pattern", reg_addr(64)); }, "tensor2d_valid",
                 "src1_mem_pattern", "0x80000040", "register"});
    c.push_back({p + "src0_num0", o,
                 [](Word& w) {
                   set_addr(w, "src0_mem_pattern", reg_addr(5));
                   set_num(w, "src0_mem_pattern", 1, 0);
                 },
                 "tensor2d_valid", "src0_mem_pattern", "num=[8,0]", "num_elem[1] must be >= 1"});
    // check_active_channels.
    c.push_back({p + "channels_0", o, [](Word& w) { set(w, "num_active_channels", 0); },
                 "check_active_channels", "num_active_channels", "0", "1..128"});
    // The two count clauses.
    c.push_back({p + "src1_count", o, [](Word& w) { set_num(w, "src1_mem_pattern", 1, 3); },
                 "s2s2d2_stt_src_element_cnt_check", "src1_mem_pattern",
                 "count(src1) = 12, count(src0) = 16", "count(src0) must equal count(src1)"});
    c.push_back({p + "dst_count", o, [](Word& w) { set_num(w, "dst_mem_pattern", 0, 12); },
                 "s2s2d2_stt_dst_element_cnt_check", "dst_mem_pattern",
                 "count(dst) = 12, count(src0) = 16", "count(src0) must equal count(dst)"});
    c.push_back({p + "dst_count_with_register_src1", o,
                 [](Word& w) {
                   set_addr(w, "src1_mem_pattern", reg_addr(7));
                   set_num(w, "dst_mem_pattern", 0, 15);
                 },
                 "s2s2d2_stt_dst_element_cnt_check", "dst_mem_pattern", "count(dst) = 15"});
    // tt_valid_partitions: not both sources decoding into PSUM.
    c.push_back({p + "both_sources_psum", o,
                 [](Word& w) {
                   set_addr(w, "src0_mem_pattern", psum_addr(3, 0x100));
                   set_addr(w, "src1_mem_pattern", psum_addr(3, 0x200));
                 },
                 "tt_valid_partitions", "src1_mem_pattern", "both in PSUM",
                 "must not both be in PSUM"});
    // has_valid_s2s2d2_stt_immediate.
    c.push_back({p + "imm0_src_3", o, [](Word& w) { set(w, "imm0_src", 3); },
                 "has_valid_s2s2d2_stt_immediate", "imm0_src", "0x03",
                 "INSTRUCTION_IMMEDIATE (0)"});
    c.push_back({p + "imm0_regptr_64", o,
                 [](Word& w) {
                   set(w, "imm0_src", 2);
                   set(w, "imm0", 64);
                 },
                 "has_valid_s2s2d2_stt_immediate", "imm0", "0x00000040", "register id < 64"});
    c.push_back({p + "imm0_pointer_partitions", o,
                 [](Word& w) {
                   set(w, "imm0_src", 1);
                   set(w, "imm0", sbuf_addr(127, 0x600));
                 },
                 "has_valid_s2s2d2_stt_immediate", "imm0", "partitions 127..128", "must be < 128"});
    // is_valid_enum: reverse_operands <= 3, op0 an ALU_OP enumerator.
    c.push_back({p + "reverse_4", o, [](Word& w) { set(w, "reverse_operands", 4); },
                 "is_valid_enum", "reverse_operands", "0x04", "NONE (0), FIRST (1)"});
    c.push_back({p + "op0_gap", o, [](Word& w) { set(w, "op0", 0x1e); }, "is_valid_enum", "op0",
                 "0x1e", "ALU_OP values of v"});
    // has_s2s2d2_stt_reserved_zero.
    c.push_back({p + "reserved", o, [](Word& w) { w[46] = 1; }, "has_s2s2d2_stt_reserved_zero",
                 "reserved", "byte 0x2e", "zero"});
  }
  // SelectReduce's reverse 4 also fails has_valid_select_reduce_rev_ops: not alone.
  std::erase_if(c, [](const ClauseCase& x) { return x.name == "sr_reverse_4"; });

  // The op clauses.
  c.push_back({"tts_op1_divide", TTS, [](Word& w) { set(w, "op1", 0x07); },
               "has_valid_tensor_tensor_scan_op", "op1", "DIVIDE (0x07)",
               "must both be general arithmetic ops"});
  c.push_back({"tts_op0_bitwise_and", TTS, [](Word& w) { set(w, "op0", 0x0a); },
               "has_valid_tensor_tensor_scan_op", "op0", "BITWISE_AND (0x0a)"});
  c.push_back({"stta_op0_rsqrt", STTA, [](Word& w) { set(w, "op0", 0x1d); },
               "has_valid_scalar_tensor_tensor_op", "op0", "RSQRT (0x1d)", "general arithmetic"});
  c.push_back({"stta_op1_add_int",
               STTA,
               [](Word& w) { set(w, "op1", 0xc4); },
               "has_valid_scalar_tensor_tensor_op",
               "op1",
               "ADD_INT (0xc4)",
               "general arithmetic",
               1,
               {G::V3, G::V4, G::V5}});
  c.push_back({"sttb_op1_add", STTB, [](Word& w) { set(w, "op1", 0x04); },
               "has_valid_scalar_tensor_tensor_op", "op1", "ADD (0x04)", "general bitvec"});
  c.push_back({"sttb_op0_crc32", STTB, [](Word& w) { set(w, "op0", 0x1c); },
               "has_valid_scalar_tensor_tensor_op", "op0", "CRC32 (0x1c)", "general bitvec"});
  c.push_back({"sr_op0_add", SR, [](Word& w) { set(w, "op0", 0x04); }, "has_valid_select_reduce_op",
               "op0", "ADD (0x04)", "op0 must be BYPASS (0x00) and op1 MAX (0x08)"});
  c.push_back({"sr_op1_min", SR, [](Word& w) { set(w, "op1", 0x09); }, "has_valid_select_reduce_op",
               "op1", "MIN (0x09)"});
  // The accumulator command clauses.
  c.push_back({"tts_accumulate", TTS, [](Word& w) { set(w, "accumulator_cmd", 2); },
               "has_zero_accum_cmd", "accumulator_cmd", "0x02", "IDLE (0)"});
  c.push_back({"stta_zero", STTA, [](Word& w) { set(w, "accumulator_cmd", 1); },
               "has_valid_s2s2d2_stt_accum_cmd", "accumulator_cmd", "0x01", "ZERO_ACCUMULATE (3)"});
  c.push_back({"stta_load_accumulate", STTA, [](Word& w) { set(w, "accumulator_cmd", 4); },
               "has_valid_s2s2d2_stt_accum_cmd", "accumulator_cmd", "0x04"});
  c.push_back({"sttb_accumulate", STTB, [](Word& w) { set(w, "accumulator_cmd", 2); },
               "has_valid_s2s2d2_stt_accum_cmd", "accumulator_cmd", "0x02", "IDLE (0)"});
  c.push_back({"sr_reset", SR, [](Word& w) { set(w, "accumulator_cmd", 1); },
               "has_valid_s2s2d2_cpr_accum_cmd", "accumulator_cmd", "0x01", "ZERO_ACCUMULATE (3)"});
  c.push_back({"sr_load_reduce", SR, [](Word& w) { set(w, "accumulator_cmd", 4); },
               "has_valid_s2s2d2_cpr_accum_cmd", "accumulator_cmd", "0x04"});
  // s2s2d2_stt_imm0_dtype: an instruction immediate needs an FP32 imm0_dtype (0x9e: holds).
  for (Opcode o : {TTS, STTA, SR})
    c.push_back({stt_prefix(o) + "imm0_dtype_bf16", o, [](Word& w) { set(w, "imm0_dtype", 0x6); },
                 "s2s2d2_stt_imm0_dtype", "imm0_dtype", "BF16 (0x6) with imm0_src 0x00",
                 "must be FP32 unless imm0_src is POINTER_IMMEDIATE"});
  // 0x9e's dtype clauses.
  c.push_back({"sttb_dtypes_fp16", STTB,
               [](Word& w) {
                 set(w, "in0_in1_dtype", dtype_pair(D::FP16, D::FP16));
                 set(w, "out_dtype", code(D::FP16));
                 set(w, "imm0_dtype", code(D::FP16));
               },
               "has_valid_scalar_tensor_tensor_dtypes", "", "FP16 (0x7)", "must be INT8", 4});
  c.push_back({"sttb_src_dst_lo", STTB,
               [](Word& w) { set(w, "in0_in1_dtype", dtype_pair(D::UINT16, D::INT16)); },
               "s2s2d2_stt_src_dst_dtype", "in0_in1_dtype (src0", "src0 UINT16 (0x5)",
               "must each equal out_dtype"});
  c.push_back({"sttb_src_dst_imm", STTB, [](Word& w) { set(w, "imm0_dtype", code(D::INT32)); },
               "s2s2d2_stt_src_dst_dtype", "imm0_dtype", "imm0_dtype INT32 (0x8)"});
  // SelectReduce's dtypes and reverse.
  c.push_back({"sr_pred_fp32", SR,
               [](Word& w) { set(w, "in0_in1_dtype", dtype_pair(D::FP32, D::FP32)); },
               "has_valid_select_reduce_dtypes", "src0", "FP32 (0xa)", "must be INT8"});
  c.push_back({"sr_on_true_int32", SR,
               [](Word& w) { set(w, "in0_in1_dtype", dtype_pair(D::UINT8, D::INT32)); },
               "has_valid_select_reduce_dtypes", "src1", "INT32 (0x8)",
               "must not be INT32 or UINT32"});
  c.push_back({"sr_reverse_second", SR, [](Word& w) { set(w, "reverse_operands", 2); },
               "has_valid_select_reduce_rev_ops", "reverse_operands", "0x02",
               "NONE (0) or FIRST (1)"});
  return c;
}

}  // namespace gpsimd::validate_cases

// ---- what the family's hand-checked effects share ----

namespace {

namespace stt {

// n elements per operand, one channel in partition 0: src0 at SBUF offset 0x100, src1 at
// 0x200, dst at 0x300, each a dense 1-D walk (as TENSOR2D: counts {n, 1}).
inline rm::SttWord stt_word(uint8_t opcode, uint8_t lo, uint8_t hi, uint8_t out, uint8_t op0,
                            uint8_t op1, unsigned n) {
  rm::SttWord x;
  x.opcode = opcode;
  x.lo = lo;
  x.hi = hi;
  x.out = out;
  x.op0 = op0;
  x.op1 = op1;
  x.src0 = tensor2(rm::sbuf_addr(0, 0x100), 1, n, 0, 1);
  x.src1 = tensor2(rm::sbuf_addr(0, 0x200), 1, n, 0, 1);
  x.dst = tensor2(rm::sbuf_addr(0, 0x300), 1, n, 0, 1);
  return x;
}

// Runs a word on fresh `g` with src0 = a, src1 = b and returns the destination elements.
inline V run_elems(rm::SttWord x, const V& a, const V& b, Generation g = Generation::V3) {
  Machine& m = fresh(g);
  poke(m, SBUF, 0, 0x100, rm::size_of(x.lo), a);
  poke(m, SBUF, 0, 0x200, rm::size_of(x.hi), b);
  const ExecResult r = run(m, x.encode());
  EXPECT_TRUE(r.ok()) << r.message();
  return peek(m, SBUF, 0, 0x300, rm::size_of(x.out), static_cast<unsigned>(a.size()));
}

inline void expect_fault(Machine& m, const Word& w, FaultKind kind) {
  expect_unchanged(m, w, Status::Faulted, kind);
}

}  // namespace stt

}  // namespace
#endif
