// The four TensorScalar opcodes (SPEC §4.15, S3D3_TS): what the tests of TensorScalarArith,
// TensorScalarBitvec, TensorScalarPtrArith and TensorScalarPtrBitvec (tests/instructions/) share:
// the valid words' layout, the independent reference and the random generators of the family.
#pragma once

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace gpsimd::test_words {

// ---- TensorScalar (SPEC §4.15, S3D3_TS) ----------------------------------------------
//
// valid_tensor_scalar_arith(): 3 channels from partition 4. src: FP16, TENSOR3D steps
// {1, 4, 8} counts {4, 2, 1} (8 elements, 16 dense bytes) at SBUF partition 4 offset
// 0x100; dst: FP32, steps {1, 2, 8} counts {2, 4, 1} (8 elements, 32 dense bytes) at
// offset 0x400. op0 SUBTRACT imm0 1.0, op1 MULT imm1 0.5 (FP32 instruction immediates),
// reverse_operands NONE: dst = (x - 1.0) * 0.5.
// valid_tensor_scalar_bitvec(): the same walks, INT16 in and out; op0 BITWISE_AND imm0
// 0x00ff, op1 LOGICAL_SHIFT_LEFT imm1 4 (INT16 instruction immediates):
// dst = (x & 0xff) << 4.
// valid_tensor_scalar_ptr_arith() / _ptr_bitvec(): the arith / bitvec word as the pointer
// form: imm0_src = imm1_src = 0, imm0 and imm1 the static SBUF ADDR4s of partition 4
// offsets 0x600 and 0x604 (channel c reads partition 4 + c).
namespace ts_word {
inline constexpr unsigned kChannels = 3;
inline constexpr unsigned kPartition = 4;
inline constexpr unsigned kN = 8;
inline constexpr Dtype kArithIn = Dtype::FP16, kArithOut = Dtype::FP32, kBitvec = Dtype::INT16;
inline constexpr uint32_t kSrcAddr = sbuf_addr(kPartition, 0x100),
                          kDstAddr = sbuf_addr(kPartition, 0x400);
inline constexpr uint32_t kPtr0 = sbuf_addr(kPartition, 0x600),
                          kPtr1 = sbuf_addr(kPartition, 0x604);
inline constexpr float kImm0 = 1.0f, kImm1 = 0.5f;
inline constexpr uint32_t kMask = 0x00ff, kShift = 4;
}  // namespace ts_word

inline Word valid_s3d3_ts(Opcode op) {
  using namespace ts_word;
  const bool bitvec = op == Opcode::TensorScalarBitvec || op == Opcode::TensorScalarPtrBitvec;
  const bool pointer = op == Opcode::TensorScalarPtrArith || op == Opcode::TensorScalarPtrBitvec;
  const Dtype in = bitvec ? kBitvec : kArithIn, out = bitvec ? kBitvec : kArithOut;
  const AluOp op0 = bitvec ? AluOp::BITWISE_AND : AluOp::SUBTRACT;
  const AluOp op1 = bitvec ? AluOp::LOGICAL_SHIFT_LEFT : AluOp::MULT;
  const uint32_t imm0 = pointer ? kPtr0 : bitvec ? kMask : f32_bits(kImm0);
  const uint32_t imm1 = pointer ? kPtr1 : bitvec ? kShift : f32_bits(kImm1);
  return build(op, {{"src_mem_pattern", tensor(kSrcAddr, {1, 4, 8}, {4, 2, 1})},
                    {"in_dtype", uint64_t{static_cast<uint8_t>(in)}},
                    {"out_dtype", uint64_t{static_cast<uint8_t>(out)}},
                    {"num_active_channels", uint64_t{kChannels}},
                    {"op0", uint64_t{static_cast<uint8_t>(op0)}},
                    {"op1", uint64_t{static_cast<uint8_t>(op1)}},
                    {"imm0", uint64_t{imm0}},
                    {"imm1", uint64_t{imm1}},
                    {"dst_mem_pattern", tensor(kDstAddr, {1, 2, 8}, {2, 4, 1})}});
}

}  // namespace gpsimd::test_words

namespace refmodel {

// ==== TensorScalar (SPEC §4.15) with its own ALU (SPEC §3.8) ===============================
//
// The FP32 ops are computed in double and rounded once to float: for +, -, * of two floats
// the double result rounded to float is the correctly rounded float result (53 >= 2*24 + 2),
// so this is an independent route to IEEE binary32 arithmetic.

namespace ts {

// ALU_OP values of SPEC §3.8.
namespace aop {
inline constexpr uint8_t BYPASS = 0x00, BITWISE_NOT = 0x01, ARITH_SHIFT_LEFT = 0x02,
                         ARITH_SHIFT_RIGHT = 0x03, ADD = 0x04, SUBTRACT = 0x05, MULT = 0x06,
                         MAX = 0x08, MIN = 0x09, BITWISE_AND = 0x0A, BITWISE_OR = 0x0B,
                         BITWISE_XOR = 0x0C, LOGICAL_AND = 0x0D, LOGICAL_OR = 0x0E,
                         LOGICAL_XOR = 0x0F, LOGICAL_SHIFT_LEFT = 0x10, LOGICAL_SHIFT_RIGHT = 0x11,
                         IS_EQ = 0x12, IS_GT = 0x13, IS_GE = 0x14, IS_LE = 0x15, IS_LT = 0x16,
                         ABSOLUTE_DIFF = 0x17, IS_NE = 0x18, ABSOLUTE_VALUE = 0x19, CRC32 = 0x1C,
                         RSQRT = 0x1D, ABS_MAX = 0x20, ABS_MIN = 0x21, RE_LU = 0x22, SQUARE = 0x23;
}  // namespace aop

inline constexpr uint32_t kNaN = 0x7FC00000u;  // every NaN an op produces (SPEC §3.8.2)

inline bool nan32(uint32_t b) {
  return (b & 0x7fffffffu) > 0x7f800000u;
}
inline uint32_t quiet(double v) {
  const uint32_t b = as_bits(static_cast<float>(v));
  return nan32(b) ? kNaN : b;
}
inline double d(uint32_t b) {
  return static_cast<double>(as_float(b));
}
// -0.0 < +0.0 for MAX and MIN (SPEC §3.8.2).
inline bool above(uint32_t a, uint32_t b) {
  if (d(a) != d(b)) return d(a) > d(b);
  return (a >> 31) < (b >> 31);  // equal values: only ±0 can differ, + is the larger
}

// op(a, b) on FP32 bit patterns (SPEC §3.8.2).
inline uint32_t fp32(uint8_t op, uint32_t a, uint32_t b) {
  const double x = d(a), y = d(b);
  const bool na = nan32(a), nb = nan32(b);
  switch (op) {
    case aop::BYPASS:
      return a;
    case aop::ADD:
      return quiet(x + y);
    case aop::SUBTRACT:
      return quiet(x - y);
    case aop::MULT:
      return quiet(x * y);
    case aop::SQUARE:
      return quiet(x * x);
    case aop::MAX:
      if (na || nb) return na && nb ? kNaN : (na ? b : a);
      return above(a, b) ? a : b;
    case aop::MIN:
      if (na || nb) return na && nb ? kNaN : (na ? b : a);
      return above(a, b) ? b : a;
    case aop::RE_LU:
      return na || x <= 0 ? 0u : a;  // NaN, -0.0 and negatives give +0.0
    case aop::IS_EQ:
      return x == y ? 0x3F800000u : 0u;
    case aop::IS_GT:
      return x > y ? 0x3F800000u : 0u;
    case aop::IS_GE:
      return x >= y ? 0x3F800000u : 0u;
    case aop::IS_LE:
      return x <= y ? 0x3F800000u : 0u;
    case aop::IS_LT:
      return x < y ? 0x3F800000u : 0u;
    case aop::IS_NE:
      return x == y ? 0u : 0x3F800000u;
    case aop::LOGICAL_AND:
      return (x != 0) && (y != 0) ? 0x3F800000u : 0u;
    case aop::LOGICAL_OR:
      return (x != 0) || (y != 0) ? 0x3F800000u : 0u;
    case aop::LOGICAL_XOR:
      return (x != 0) != (y != 0) ? 0x3F800000u : 0u;
    case aop::ABSOLUTE_DIFF: {
      const uint32_t r = quiet(x - y);
      return nan32(r) ? kNaN : r & 0x7fffffffu;
    }
    case aop::ABSOLUTE_VALUE:
      return na ? kNaN : a & 0x7fffffffu;
    case aop::ABS_MAX: {  // a when |a| > |b| (a NaN compares false), else b
      const uint32_t r = std::fabs(x) > std::fabs(y) ? a : b;
      return nan32(r) ? kNaN : r;
    }
    case aop::ABS_MIN: {
      const uint32_t r = std::fabs(x) < std::fabs(y) ? a : b;
      return nan32(r) ? kNaN : r;
    }
    default:
      std::abort();  // not an op the generators use on this path
  }
}

// op(a, b) on w-bit patterns (SPEC §3.8.2, raw bits): the count is b, unsigned; a count
// of w or more shifts every bit out.
inline uint32_t bits(uint8_t op, uint32_t a, uint32_t b, unsigned w) {
  const uint64_t mask = (uint64_t{1} << w) - 1;
  const uint64_t x = a & mask, k = b & mask;
  const bool neg = (x >> (w - 1)) & 1u;
  uint64_t r = 0;
  switch (op) {
    case aop::BYPASS:
      r = x;
      break;
    case aop::BITWISE_NOT:
      r = ~x;
      break;
    case aop::BITWISE_AND:
      r = x & k;
      break;
    case aop::BITWISE_OR:
      r = x | k;
      break;
    case aop::BITWISE_XOR:
      r = x ^ k;
      break;
    case aop::ARITH_SHIFT_LEFT:
    case aop::LOGICAL_SHIFT_LEFT:
      r = k >= w ? 0 : x << k;
      break;
    case aop::LOGICAL_SHIFT_RIGHT:
      r = k >= w ? 0 : x >> k;
      break;
    case aop::ARITH_SHIFT_RIGHT: {
      // The value as a signed w-bit integer, divided by 2^k rounding down.
      const int64_t v = neg ? static_cast<int64_t>(x) - (int64_t{1} << w) : static_cast<int64_t>(x);
      r = static_cast<uint64_t>(k >= w ? (neg ? -1 : 0) : v >> k);
      break;
    }
    default:
      std::abort();
  }
  return static_cast<uint32_t>(r & mask);
}

// SPEC §3.9 item 4 for TensorScalar: the ops the model does not run (§3.8.3: RSQRT and
// CRC32 reach execution; DIVIDE, POW, MOD do not validate) and every integer op of the V5
// arm (is_valid_int_aluop: 0xC4-0xCD and 0xCF-0xDD, §3.8), off pool.
inline bool unsupported_op(uint8_t op) {
  if (op == aop::RSQRT || op == aop::CRC32) return true;
  return (op >= 0xC4 && op <= 0xCD) || (op >= 0xCF && op <= 0xDD);
}

// SPEC §4.15. Offsets: 12 accumulator_cmd, 16 src (TENSOR3D), 32 in_dtype, 33 out_dtype,
// 34 channels, 35 imm0_src, 36 op0, 37 op1, 38 reverse, 39 imm1_src, 40 imm0, 44 imm1,
// 48 dst (TENSOR3D).
inline std::optional<FaultKind> execute(const Machine& m, const Word& w, internal::Effects& fx,
                                        gpsimd::Engine engine) {
  const uint8_t opcode = w[0];
  const bool bitvec = opcode == kTensorScalarBitvec || opcode == kTensorScalarPtrBitvec;
  const bool pointer = opcode == kTensorScalarPtrArith || opcode == kTensorScalarPtrBitvec;
  const uint8_t op0 = w[36], op1 = w[37], rev = w[38];
  if (engine != gpsimd::Engine::DVE) return FaultKind::UnsupportedOp;
  if (unsupported_op(op0) || unsupported_op(op1)) return FaultKind::UnsupportedOp;
  const unsigned n = w[34];
  const uint8_t din = w[32], dout = w[33];
  const unsigned isz = size_of(din), osz = size_of(dout);
  const Tensor st = get_tensor(w, 16, 3), dtn = get_tensor(w, 48, 3);
  const auto src = internal::resolve(m, st, isz, true, false, n);
  const auto dst = internal::resolve(m, dtn, osz, true, true, n);
  const unsigned width = bitvec ? isz : 4;  // an FP32 for the arithmetic opcodes
  const auto s0 = internal::resolve_imm(m, pointer ? 1 : w[35], get(w, 40, 4), width, true, n);
  const auto s1 = internal::resolve_imm(m, pointer ? 1 : w[39], get(w, 44, 4), width, true, n);
  if (!src || !dst || !s0 || !s1) return FaultKind::BadAddress;
  if ((st.register_mode() || dtn.register_mode()) && st.count() != dtn.count())
    return FaultKind::ShapeMismatch;
  if (st.count() > internal::kWalkLimit || dtn.count() > internal::kWalkLimit)
    return FaultKind::TooLarge;
  const bool rev0 = rev == 1 || rev == 3, rev1 = rev == 2 || rev == 3;
  const auto soffs = walk(st, src->offset, isz), doffs = walk(dtn, dst->offset, osz);
  for (unsigned c = 0; c < n; ++c) {
    const uint32_t a = s0->at(m, c), b = s1->at(m, c);
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      const uint32_t raw = internal::load(m, src->space, src->partition + c, soffs[j], isz);
      uint32_t r;
      if (bitvec) {
        const unsigned wbits = 8 * isz;
        const uint32_t t = op0 == aop::BYPASS ? raw
                           : rev0             ? bits(op0, a, raw, wbits)
                                              : bits(op0, raw, a, wbits);
        r = op1 == aop::BYPASS ? t : rev1 ? bits(op1, b, t, wbits) : bits(op1, t, b, wbits);
      } else {
        const uint32_t x = to_fp32(din, raw);
        const uint32_t t = op0 == aop::BYPASS ? x : rev0 ? fp32(op0, a, x) : fp32(op0, x, a);
        r = from_fp32(dout, op1 == aop::BYPASS ? t : rev1 ? fp32(op1, b, t) : fp32(op1, t, b));
      }
      fx.stores.push_back({dst->space, dst->partition + c, doffs[j], osz, r});
    }
  }
  return std::nullopt;
}

// The word (SPEC §4.15 offsets).
struct TensorScalarWord {
  uint8_t opcode = kTensorScalarArith;
  Events ev;
  uint8_t accumulator_cmd = 0;
  Tensor src{.dims = 3}, dst{.dims = 3};
  uint8_t in = dt::FP32, out = dt::FP32, channels = 1;
  uint8_t imm0_src = 0, op0 = aop::BYPASS, op1 = aop::BYPASS, reverse = 0, imm1_src = 0;
  uint32_t imm0 = 0, imm1 = 0;
  Word encode() const {
    Word w;
    put_header(w, opcode);
    put_events(w, ev);
    w[12] = accumulator_cmd;
    put_tensor(w, 16, src);
    w[32] = in;
    w[33] = out;
    w[34] = channels;
    w[35] = imm0_src;
    w[36] = op0;
    w[37] = op1;
    w[38] = reverse;
    w[39] = imm1_src;
    put(w, 40, 4, imm0);
    put(w, 44, 4, imm1);
    put_tensor(w, 48, dst);
    return w;
  }
};

}  // namespace ts

}  // namespace refmodel

namespace gpsimd::random_words {

// ---- TensorScalar (SPEC §4.15) ----

// SPEC §3.8's is_general_arith_op, from the table of §3.8 (V4 adds the last four).
constexpr uint8_t kGeneralArith[] = {0x00, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0D,
                                     0x0E, 0x0F, 0x12, 0x13, 0x14, 0x15, 0x16,
                                     0x17, 0x18, 0x19, 0x20, 0x21, 0x22, 0x23};
// is_valid_int_aluop_dve (V5) without BYPASS: they validate on V5 and fault on dve.
constexpr uint8_t kIntDve[] = {0xC4, 0xC5, 0xC6, 0xCF, 0xD0, 0xCB, 0xCC,
                               0xCD, 0xC9, 0xD1, 0xD2, 0xD3, 0xD4, 0xCA};
// is_general_bitvec_op.
constexpr uint8_t kBitvecOps[] = {0x00, 0x01, 0x02, 0x03, 0x10, 0x11, 0x0A, 0x0B, 0x0C};

// A random FP32 scalar: special values, values near the data, small integers.
inline uint32_t ts_scalar(Rng& r) {
  switch (r.in(0, 5)) {
    case 0:
      return random_value(r, rm::dt::FP32);
    case 1:
      return rm::as_bits(static_cast<float>(r.in(-8, 8)));
    case 2:
      return rm::as_bits(static_cast<float>(r.in(-1000, 1000)) / 8.0f);
    default:
      return r.pick<uint32_t>({0x3F800000u, 0xBF800000u, 0u, 0x80000000u, 0x7F800000u, 0xFF800000u,
                               0x7FC00001u, 0x7F800001u, 0x00000001u, 0x4B800000u, 0x3F000000u});
  }
}
// A random w-bit scalar for the raw-bits path: shift counts (around and beyond w), masks.
inline uint32_t ts_bits_scalar(Rng& r, uint8_t code) {
  const unsigned w = 8 * rm::size_of(code);
  const uint32_t mask = w == 32 ? ~0u : (1u << w) - 1;
  switch (r.in(0, 3)) {
    case 0:
      return static_cast<uint32_t>(r.in(0, w + 2)) & mask;
    case 1:
      return r.pick<uint32_t>({0u, 1u, w - 1, w, mask, mask >> 1, (mask >> 1) + 1}) & mask;
    default:
      return random_value(r, code);
  }
}

inline Word gen_tensor_scalar(Builder& b, uint8_t opcode) {
  Rng& r = b.rng();
  const Generation g = b.generation();
  const bool bitvec = opcode == rm::kTensorScalarBitvec || opcode == rm::kTensorScalarPtrBitvec;
  const bool pointer = opcode == rm::kTensorScalarPtrArith || opcode == rm::kTensorScalarPtrBitvec;
  rm::ts::TensorScalarWord x;
  x.opcode = opcode;
  const Inject inj = pick_injection(r);
  // The engine: mostly the default or dve; pool and act fault unsupported-op (and, on pool,
  // every operand stays out of PSUM).
  const unsigned e = r.uin(0, 99);
  b.engine = e < 70   ? std::optional<gpsimd::Engine>{}
             : e < 97 ? std::optional{gpsimd::Engine::DVE}
             : e < 98 ? std::optional{gpsimd::Engine::POOL}
                      : std::optional{gpsimd::Engine::ACT};
  const bool psum_ok = b.engine != gpsimd::Engine::POOL;
  x.ev = b.events();
  if (bitvec) {
    x.in = x.out = r.pick<uint8_t>({rm::dt::INT8, rm::dt::UINT8, rm::dt::INT16, rm::dt::UINT16,
                                    rm::dt::INT32, rm::dt::UINT32});
  } else {
    const std::initializer_list<uint8_t> data = {rm::dt::INT8,   rm::dt::UINT8,  rm::dt::INT16,
                                                 rm::dt::UINT16, rm::dt::BF16,   rm::dt::FP16,
                                                 rm::dt::INT32,  rm::dt::UINT32, rm::dt::FP32,
                                                 rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5};
    x.in = r.chance(40) ? rm::dt::FP32 : r.pick(data);
    x.out = r.chance(40) ? rm::dt::FP32 : r.chance(10) ? rm::dt::FP32R : r.pick(data);
  }
  const unsigned isz = rm::size_of(x.in), osz = rm::size_of(x.out);
  // The ops: valid for the opcode and generation; now and then one that faults
  // unsupported-op (RSQRT's arm, CRC32, the V5 integer arm).
  const unsigned ngeneral = g >= Generation::V4 ? 21 : 17;
  auto general = [&] { return kGeneralArith[r.uin(0, ngeneral - 1)]; };
  bool rsqrt = false;
  for (;;) {
    if (bitvec) {
      x.op0 = r.chance(2) ? rm::ts::aop::CRC32 : kBitvecOps[r.uin(0, 8)];
      x.op1 = r.chance(2) ? rm::ts::aop::CRC32 : kBitvecOps[r.uin(0, 8)];
    } else if (r.chance(2)) {
      rsqrt = true;
      x.op0 = rm::ts::aop::RSQRT;
      x.op1 = 0;
    } else if (g == Generation::V5 && r.chance(2)) {
      x.op0 = kIntDve[r.uin(0, 13)];
      x.op1 = r.chance(50) ? 0 : kIntDve[r.uin(0, 13)];
    } else {
      x.op0 = r.chance(5) ? 0 : general();
      x.op1 = r.chance(15) ? 0 : general();
    }
    if (x.op0 == 0 && x.op1 != 0) continue;  // tensor_scalar_valid_ops (3)
    if (bitvec && isz <= 2) {                // tensor_scalar_shift_chk
      const auto left = [](uint8_t o) { return o == 0x02 || o == 0x10; };
      const auto right = [](uint8_t o) { return o == 0x03 || o == 0x11; };
      if ((left(x.op0) && right(x.op1)) || x.op0 == 0x03 || x.op1 == 0x03) continue;
    }
    break;
  }
  x.reverse = static_cast<uint8_t>(r.in(0, 3));
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  const Space ss = psum_ok ? b.space(30) : Space::SBUF;
  const Space ds = psum_ok ? b.space(osz == 4 ? 30 : 0) : Space::SBUF;
  const auto [sl, dl] =
      b.place_pair(n, {.t = x.src, .space = ss, .elem = isz, .dims = 3, .count = count},
                   {.t = x.dst, .space = ds, .elem = osz, .dims = 3, .count = count});
  const unsigned width = bitvec ? isz : 4;
  auto scalar = [&](unsigned) { return bitvec ? ts_bits_scalar(r, x.in) : ts_scalar(r); };
  if (rsqrt) {
    x.imm0 = x.imm1 = 0;  // the RSQRT arm: every immediate byte and source 0
  } else if (pointer) {
    x.imm0 = b.pointer(width, sl.partition, n, psum_ok, scalar);
    x.imm1 = b.pointer(width, sl.partition, n, psum_ok, scalar);
  } else {
    std::tie(x.imm0_src, x.imm0) = b.immediate(width, sl.partition, n, psum_ok, scalar(0), scalar);
    std::tie(x.imm1_src, x.imm1) = b.immediate(width, sl.partition, n, psum_ok, scalar(0), scalar);
  }
  // The old destination first, then the source (it wins where they overlap).
  b.fill(x.dst, dl, n, osz, [&] { return random_value(r, x.out); });
  const bool ties = !bitvec && x.in == rm::dt::FP32 && rm::format_of(x.out) && r.chance(30);
  b.fill(x.src, sl, n, isz, [&] { return ties ? near_tie(r, x.out) : random_value(r, x.in); });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  if (inj == Inject::Shape) {
    if (x.src.register_mode())
      x.src.num[1] += 1;
    else if (x.dst.register_mode())
      x.dst.num[2] += 1;
  }
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.15: S3D3_TS, the four opcodes; ops valid for the opcode on V3 (the generation
// RandomValidInstructions validates on), every reverse flag, every kind of immediate.
inline Word valid_s3d3_ts(Gen& g, uint8_t opcode) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  static constexpr uint8_t kOut[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8,
                                     0x9, 0xa, 0xb, 0xd, 0xe, 0xf};
  static constexpr uint8_t kInt[] = {0x2, 0x3, 0x4, 0x5, 0x8, 0x9};
  // is_general_arith_op on V3, and is_bitvec_op without ARITH_SHIFT_RIGHT (any width).
  static constexpr uint8_t kArith[] = {0x00, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0d, 0x0e, 0x0f,
                                       0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19};
  static constexpr uint8_t kBitvec[] = {0x00, 0x01, 0x02, 0x10, 0x0a, 0x0b, 0x0c, 0x1c};
  const bool bitvec = opcode == 0x53 || opcode == 0x54, pointer = opcode == 0x44 || opcode == 0x54;
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t in = bitvec ? g.pick(kInt) : g.pick(kData);
  const uint8_t out = bitvec ? in : g.pick(kOut);
  const unsigned isz = *dtype_size(in), osz = *dtype_size(out);
  const auto num = g.nums(3);
  store_tensor(w, 16, g.tensor(3, num, n, isz, g.below(2)));
  const std::array<uint16_t, kMaxDims> dnum{num[1], num[0], num[2], 1};
  store_tensor(w, 48, g.tensor(3, dnum, n, osz, osz == 4 && g.below(2)));
  w[32] = in;
  w[33] = out;
  w[34] = static_cast<uint8_t>(n);
  uint8_t op0 = bitvec ? g.pick(kBitvec) : g.pick(kArith);
  uint8_t op1 = bitvec ? g.pick(kBitvec) : g.pick(kArith);
  if (op0 == 0) op1 = 0;
  if (bitvec && isz <= 2 && (op0 == 0x02 || op0 == 0x10) && op1 == 0x11)
    op1 = 0x10;  // no left, right
  w[36] = op0;
  w[37] = op1;
  w[38] = static_cast<uint8_t>(g.below(4));
  const unsigned width = bitvec ? isz : 4;
  if (pointer) {
    store_u32(w, 40, g.static_addr(n, width, g.below(2)));
    store_u32(w, 44, g.static_addr(n, width, g.below(2)));
  } else {
    g.immediate(w, 35, 40, width, n, true);
    g.immediate(w, 39, 44, width, n, true);
  }
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::expected_rows {

// SPEC §4.15: the S3D3_TS layout the four opcodes share.
inline std::vector<ExpectedField> s3d3_ts_fields() {
  return {
      {"header", 0, 4, K::Header},
      {"events", 4, 8, K::Events},
      {"accumulator_cmd", 12, 1, K::AccumCmd},
      {"reserved0", 13, 3, K::Reserved},
      {"src_mem_pattern", 16, 16, K::Tensor, 3},
      {"in_dtype", 32, 1, K::Dtype},
      {"out_dtype", 33, 1, K::Dtype},
      {"num_active_channels", 34, 1, K::U8},
      {"imm0_src", 35, 1, K::ImmSrc},
      {"op0", 36, 1, K::AluOp},
      {"op1", 37, 1, K::AluOp},
      {"reverse_operands", 38, 1, K::RevOps},
      {"imm1_src", 39, 1, K::ImmSrc},
      {"imm0", 40, 4, K::ImmVal, 0, "imm0_src"},
      {"imm1", 44, 4, K::ImmVal, 0, "imm1_src"},
      {"dst_mem_pattern", 48, 16, K::Tensor, 3},
  };
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::kernels_equiv {

inline Word tensor_scalar_word(Rng& rng, Machines& m, bool large, uint8_t opcode) {
  const bool bitvec = opcode == 0x53 || opcode == 0x54;
  const bool pointer = opcode == 0x44 || opcode == 0x54;
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  m.engine = alu_engine(rng, 0.04);
  const bool pool = m.engine == Engine::POOL;
  const unsigned n = large ? 128 : random_channels(rng);
  Dtype din, dout;
  uint8_t op0, op1;
  if (bitvec) {
    din = dout = rng.pick(kAluIntDtypes);
    op0 = pick_op(rng, alu::is_general_bitvec_op);
    op1 = pick_op(rng, alu::is_general_bitvec_op);
    if (!large && rng.chance(0.02)) op1 = static_cast<uint8_t>(AluOp::CRC32);  // unsupported-op
    if (*dtype_size(din) <= 2) {  // tensor_scalar_shift_chk
      const auto asr = static_cast<uint8_t>(AluOp::ARITH_SHIFT_RIGHT);
      const auto lsr = static_cast<uint8_t>(AluOp::LOGICAL_SHIFT_RIGHT);
      const auto lsl = static_cast<uint8_t>(AluOp::LOGICAL_SHIFT_LEFT);
      if (op0 == asr) op0 = lsr;
      if (op1 == asr) op1 = lsr;
      if ((op0 == lsl || op0 == static_cast<uint8_t>(AluOp::ARITH_SHIFT_LEFT)) && op1 == lsr)
        op1 = lsl;
    }
  } else {
    din = large ? (rng.chance(0.5) ? Dtype::FP32 : Dtype::BF16) : rng.pick(kAluDtypes);
    dout = large ? din : rng.pick(kAluDtypes);
    op0 = pick_op(rng, [](uint8_t o) { return alu::is_general_arith_op(o); });
    op1 = pick_op(rng, [](uint8_t o) { return alu::is_general_arith_op(o); });
    if (!large && rng.chance(0.02)) {  // the V5 integer arm: valid, unsupported-op on dve
      op0 = pick_op(rng, [](uint8_t o) { return alu::is_valid_int_aluop_dve(o) && o != 0; });
      op1 = static_cast<uint8_t>(AluOp::ADD_INT);
    }
  }
  if (op0 == 0 && op1 != 0 && rng.chance(0.9)) std::swap(op0, op1);
  const unsigned si = *dtype_size(din), so = *dtype_size(dout);
  const Window ws = alu_window(rng, large, !pool);
  const Window wd = alu_window(rng, large, !pool && so == 4);
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.6) ? p : rng.below(kPartitions - n + 1);
  const TensorDesc src = alu_walk(rng, 0, large ? 8000 : 900, si, ws, p);
  const TensorDesc dst = alu_walk(rng, src.count(), 0, so, wd, pd);
  alu_fill(rng, m, wd, pd, n, dout);
  alu_fill(rng, m, ws, p, n, din);
  w[32] = static_cast<uint8_t>(din);
  w[33] = static_cast<uint8_t>(dout);
  w[34] = static_cast<uint8_t>(n);
  w[36] = op0;
  w[37] = op1;
  w[38] = static_cast<uint8_t>(rng.below(4));
  // The scalars: FP32 patterns (arithmetic) or in_dtype-wide bits (bitvec), as immediates
  // or per-channel pointers into the source's window (overlapping it and, often, the
  // destination).
  const std::vector<uint32_t> fp_edges = edge_values(Dtype::FP32);
  const unsigned width = bitvec ? si : 4, bits = 8 * width;
  const uint32_t mask = width == 4 ? ~0u : (1u << bits) - 1;
  auto scalar = [&] {
    if (!bitvec)
      return rng.chance(0.6) ? rng.pick_from(fp_edges) : static_cast<uint32_t>(rng.bits());
    const uint32_t counts[] = {0u, 1u, bits - 1, bits, bits + 1, 2 * bits, mask};
    return (rng.chance(0.5) ? rng.pick(counts) : static_cast<uint32_t>(rng.bits())) & mask;
  };
  for (unsigned k = 0; k < 2; ++k) {
    const unsigned at = 40 + 4 * k;
    if (pointer || rng.chance(0.35)) {
      w[k == 0 ? 35 : 39] = pointer ? 0 : 1;
      const unsigned pp = rng.chance(0.5) ? pd : rng.below(kPartitions - n + 1);
      const uint32_t off = rng.below(ws.bytes / width) * width;
      store_u32(w, at, encode_static_addr({ws.space, pp, off}));
      for (unsigned c = 0; c < n; ++c) {
        const uint32_t v = scalar();
        std::memcpy(m.a.partition(ws.space, pp + c).data() + off, &v, width);
        std::memcpy(m.b.partition(ws.space, pp + c).data() + off, &v, width);
        m.touched.emplace_back(ws.space, pp + c);
      }
    } else {
      store_u32(w, at, scalar());
    }
  }
  store_tensor(w, 16, src);
  store_tensor(w, 48, dst);
  return w;
}

inline Word tensor_scalar_arith_word(Rng& rng, Machines& m, bool large) {
  return tensor_scalar_word(rng, m, large, 0x43);
}

inline Word tensor_scalar_bitvec_word(Rng& rng, Machines& m, bool large) {
  return tensor_scalar_word(rng, m, large, 0x53);
}

inline Word tensor_scalar_ptr_arith_word(Rng& rng, Machines& m, bool large) {
  return tensor_scalar_word(rng, m, large, 0x44);
}

inline Word tensor_scalar_ptr_bitvec_word(Rng& rng, Machines& m, bool large) {
  return tensor_scalar_word(rng, m, large, 0x54);
}

}  // namespace gpsimd::kernels_equiv

#ifdef GPSIMD_INSTRUCTION_TESTS
#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd::validate_cases {

// ---- the family's clause cases (each instruction's file instantiates its share) ----

inline void add_tensor_scalar_clause_cases(std::vector<ClauseCase>& c) {
  for (Opcode op : kTensorScalarOps) {
    const std::string pre = ts_prefix(op);
    // is_valid_aluop: a byte that is no enumerator on the generation (SPEC §3.3); the
    // class clause tensor_scalar_valid_ops is then not evaluated.
    c.push_back({pre + "op0_gap_0x1e", op, [](Word& w) { set(w, "op0", 0x1e); }, "is_valid_aluop",
                 "op0", "0x1e", "ALU_OP values of"});
    c.push_back({pre + "op1_0xff", op, [](Word& w) { set(w, "op1", 0xff); }, "is_valid_aluop",
                 "op1", "0xff", "ALU_OP values of"});
    c.push_back({pre + "op0_abs_max_before_v4",
                 op,
                 [](Word& w) { set(w, "op0", 0x20); },
                 "is_valid_aluop",
                 "op0",
                 "ABS_MAX (0x20)",
                 "ALU_OP values of",
                 1,
                 {G::V2, G::V3}});
    c.push_back({pre + "op1_symmetric_clamp_before_v5",
                 op,
                 [](Word& w) { set(w, "op1", 0x24); },
                 "is_valid_aluop",
                 "op1",
                 "SYMMETRIC_CLAMP (0x24)",
                 "",
                 1,
                 {G::V2, G::V3, G::V4}});
    c.push_back({pre + "op0_divide_int_on_v2",
                 op,
                 [](Word& w) { set(w, "op0", 0xc7); },
                 "is_valid_aluop",
                 "op0",
                 "DIVIDE_INT (0xc7)",
                 "the 33 ALU_OP values of v2",
                 1,
                 {G::V2}});
    // Both ops outside the enumeration: two diagnostics.
    c.push_back({pre + "both_ops_0x30", op,
                 [](Word& w) {
                   set(w, "op0", 0x30);
                   set(w, "op1", 0x31);
                 },
                 "is_valid_aluop", "op", "0x3", "ALU_OP", 2});
    // tensor_scalar_valid_ops (1): DIVIDE, POW and MOD, for every opcode.
    for (AluOp bad : {AluOp::DIVIDE, AluOp::POW, AluOp::MOD}) {
      c.push_back({pre + "op0_" + name_of(bad), op, [bad](Word& w) { set(w, "op0", code(bad)); },
                   "tensor_scalar_valid_ops", "op0", name_of(bad), "DIVIDE, POW or MOD"});
      c.push_back({pre + "op1_" + name_of(bad), op, [bad](Word& w) { set(w, "op1", code(bad)); },
                   "tensor_scalar_valid_ops", "op1", name_of(bad), "DIVIDE, POW or MOD"});
    }
    // (3) a BYPASS op0 with another op1.
    c.push_back({pre + "bypass_then_op", op, [](Word& w) { set(w, "op0", 0); },
                 "tensor_scalar_valid_ops", "op1", "op0 is BYPASS (0x00)",
                 "op1 must be BYPASS when op0 is BYPASS"});
    // Conditions (1) and (3) at once: one diagnostic with both rules.
    c.push_back({pre + "bypass_then_divide", op,
                 [](Word& w) {
                   set(w, "op0", 0);
                   set(w, "op1", code(AluOp::DIVIDE));
                 },
                 "tensor_scalar_valid_ops", "op1", "DIVIDE (0x07)",
                 "op0 and op1 must not be DIVIDE, POW or MOD; "});
    // tensor_scalar_reverse_chk, s3d3_ts_reserved_zero, has_zero_accum_cmd_field,
    // has_valid_active_channel_range.
    for (uint64_t rev : {4u, 0x80u, 0xffu})
      c.push_back({pre + "reverse_" + std::to_string(rev), op,
                   [rev](Word& w) { set(w, "reverse_operands", rev); }, "tensor_scalar_reverse_chk",
                   "reverse_operands", hex8_of(static_cast<unsigned>(rev)),
                   "NONE (0), FIRST (1), SECOND (2) or BOTH (3)"});
    for (unsigned b : {13u, 14u, 15u})
      c.push_back({pre + "reserved_byte" + std::to_string(b), op, [b](Word& w) { w[b] = 0x40; },
                   "s3d3_ts_reserved_zero", "reserved0", "0x40", "zero"});
    for (uint64_t cmd : {1u, 3u, 4u, 0xffu})
      c.push_back({pre + "accumulator_cmd_" + std::to_string(cmd), op,
                   [cmd](Word& w) { set(w, "accumulator_cmd", cmd); }, "has_zero_accum_cmd_field",
                   "accumulator_cmd", hex8_of(static_cast<unsigned>(cmd)), "IDLE (0)"});
    c.push_back({pre + "channels_0", op, [](Word& w) { set(w, "num_active_channels", 0); },
                 "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
    // check_m3d_active_channels: TensorScalar's name of start_addr_active_channels.
    c.push_back({pre + "src_start_partition", op,
                 [](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(126, 0x100)); },
                 "check_m3d_active_channels", "src_mem_pattern", "start partition 126 + 3",
                 "<= 128"});
    c.push_back({pre + "dst_start_partition", op,
                 [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x400)); },
                 "check_m3d_active_channels", "dst_mem_pattern", "start partition 127 + 3"});
    // tensor_scalar_tensor_chk: the literal formula, also for differently shaped walks.
    c.push_back({pre + "dst_count_6", op, [](Word& w) { set_num(w, "dst_mem_pattern", 1, 3); },
                 "tensor_scalar_tensor_chk", "dst_mem_pattern",
                 "6 elements (src_mem_pattern has 8)", "the same number of elements"});
    c.push_back({pre + "src_count_16", op, [](Word& w) { set_num(w, "src_mem_pattern", 2, 2); },
                 "tensor_scalar_tensor_chk", "dst_mem_pattern", "src_mem_pattern has 16"});
    // mem3d_valid: TensorScalar's name of tensor3d_valid.
    c.push_back({pre + "src_register_64", op,
                 [](Word& w) { set_addr(w, "src_mem_pattern", reg_addr(64)); }, "mem3d_valid",
                 "src_mem_pattern", "0x80000040", "register < 64"});
    c.push_back({pre + "src_misaligned", op,
                 [](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(4, 0x101)); },
                 "mem3d_valid", "src_mem_pattern", "0x00100101", "aligned"});
    c.push_back({pre + "src_psum_on_pool",
                 op,
                 [](Word& w) { set_addr(w, "src_mem_pattern", psum_addr(4, 0x100)); },
                 "mem3d_valid",
                 "src_mem_pattern",
                 "in PSUM",
                 "SBUF",
                 1,
                 {},
                 false,
                 Engine::POOL});
    c.push_back({pre + "dst_psum_on_pool",
                 op,
                 [](Word& w) { set_addr(w, "dst_mem_pattern", psum_addr(4, 0x400)); },
                 "mem3d_valid",
                 "dst_mem_pattern",
                 "in PSUM",
                 "this engine cannot access PSUM",
                 1,
                 {},
                 false,
                 Engine::POOL});
    // A num_elem of 0 in a register-mode source: the tensor clause; the count clause is
    // waived (register mode), not evaluated with the literal formula.
    c.push_back({pre + "src_register_num0", op,
                 [](Word& w) {
                   set_addr(w, "src_mem_pattern", reg_addr(3));
                   set_num(w, "src_mem_pattern", 1, 0);
                 },
                 "mem3d_valid", "src_mem_pattern", "num=[4,0,1]", "num_elem[1] must be >= 1"});
    // is_valid_dtype: in_dtype without FP32R; out_dtype with (arith: the only dtype
    // clause; the bitvec forms also fail tensor_scalar_valid_types, ForcedClauses).
    if (!ts_bitvec(op)) {
      for (Dtype d : {Dtype::FP32R, Dtype::INT64, Dtype::UINT64})
        c.push_back({pre + "in_dtype_" + name_of(d), op,
                     [d](Word& w) { set(w, "in_dtype", code(d)); }, "is_valid_dtype", "in_dtype",
                     name_of(d), "must not be INVALID, FP32R"});
      for (uint64_t d : {0x11u, 0x1fu, 0x20u})
        c.push_back({pre + "in_dtype_sizeless_" + std::to_string(d), op,
                     [d](Word& w) { set(w, "in_dtype", d); }, "is_valid_dtype", "in_dtype",
                     fmt_hex(d)});
      for (uint64_t d : {code(Dtype::INT64), code(Dtype::FP4_E2), uint64_t{0}})
        c.push_back({pre + "out_dtype_" + std::to_string(d), op,
                     [d](Word& w) { set(w, "out_dtype", d); }, "is_valid_dtype", "out_dtype",
                     fmt_hex(d), "must not be INVALID, UINT64"});
    }
  }

  // ---- the arithmetic opcodes (0x43, 0x44) ----
  for (Opcode op : {TSA, TSPA}) {
    const std::string pre = ts_prefix(op);
    // (2): both ops general arithmetic, the RSQRT arm, or (V5) the integer arm.
    c.push_back({pre + "op0_bitwise_and", op,
                 [](Word& w) { set(w, "op0", code(AluOp::BITWISE_AND)); },
                 "tensor_scalar_valid_ops", "op0", "BITWISE_AND (0x0a)",
                 "general arithmetic ops (BYPASS, ADD"});
    // A shift op1 with a 2-byte in_dtype: shift_chk holds (no right shift after it).
    c.push_back({pre + "op1_logical_shift_left", op,
                 [](Word& w) { set(w, "op1", code(AluOp::LOGICAL_SHIFT_LEFT)); },
                 "tensor_scalar_valid_ops", "op1", "LOGICAL_SHIFT_LEFT (0x10)"});
    c.push_back({pre + "op1_crc32", op, [](Word& w) { set(w, "op1", code(AluOp::CRC32)); },
                 "tensor_scalar_valid_ops", "op1", "CRC32 (0x1c)"});
    // RSQRT only as op0 with op1 BYPASS and every immediate byte and source 0.
    c.push_back({pre + "rsqrt_with_immediates", op,
                 [](Word& w) {
                   set(w, "op0", code(AluOp::RSQRT));
                   set(w, "op1", 0);
                 },
                 "tensor_scalar_valid_ops", "op0", "RSQRT (0x1d)",
                 "op0 RSQRT with op1 BYPASS and imm0, imm1, imm0_src and imm1_src all 0"});
    c.push_back({pre + "rsqrt_then_add", op,
                 [](Word& w) {
                   set(w, "op0", code(AluOp::RSQRT));
                   set(w, "op1", code(AluOp::ADD));
                   set(w, "imm0", 0);
                   set(w, "imm1", 0);
                 },
                 "tensor_scalar_valid_ops", "op0", "RSQRT (0x1d), op1 is ADD"});
    c.push_back({pre + "op1_rsqrt", op,
                 [](Word& w) {
                   set(w, "op1", code(AluOp::RSQRT));
                   set(w, "imm0", 0);
                   set(w, "imm1", 0);
                 },
                 "tensor_scalar_valid_ops", "op1", "RSQRT (0x1d)"});
    // The integer arm exists on V5 only; before it ADD_INT is no general arith op.
    c.push_back({pre + "add_int_before_v5",
                 op,
                 [](Word& w) {
                   set(w, "op0", code(AluOp::ADD_INT));
                   set(w, "op1", 0);
                 },
                 "tensor_scalar_valid_ops",
                 "op0",
                 "ADD_INT (0xc4)",
                 "general arithmetic",
                 1,
                 {G::V2, G::V3, G::V4}});
    c.push_back({pre + "is_equal_int_v3_v4",
                 op,
                 [](Word& w) {
                   set(w, "op0", code(AluOp::IS_EQUAL_INT));
                   set(w, "op1", code(AluOp::MAX_INT));
                 },
                 "tensor_scalar_valid_ops",
                 "op0",
                 "IS_EQUAL_INT (0xc9)",
                 "",
                 1,
                 {G::V3, G::V4}});
    // On V5: MAX_UINT is no DVE integer op; a general op with an integer op mixes arms.
    c.push_back({pre + "max_uint_v5",
                 op,
                 [](Word& w) {
                   set(w, "op0", code(AluOp::MAX_UINT));
                   set(w, "op1", 0);
                 },
                 "tensor_scalar_valid_ops",
                 "op0",
                 "MAX_UINT (0xd5)",
                 "V5 integer set (BYPASS, ADD_INT",
                 1,
                 {G::V5}});
    c.push_back({pre + "general_then_int_v5",
                 op,
                 [](Word& w) { set(w, "op1", code(AluOp::MULT_INT)); },
                 "tensor_scalar_valid_ops",
                 "op1",
                 "MULT_INT (0xc5)",
                 "",
                 1,
                 {G::V5}});
    c.push_back({pre + "symmetric_clamp_v5",
                 op,
                 [](Word& w) { set(w, "op0", code(AluOp::SYMMETRIC_CLAMP)); },
                 "tensor_scalar_valid_ops",
                 "op0",
                 "SYMMETRIC_CLAMP (0x24)",
                 "",
                 1,
                 {G::V5}});
  }

  // ---- the bitvec opcodes (0x53, 0x54) ----
  for (Opcode op : {TSB, TSPB}) {
    const std::string pre = ts_prefix(op);
    c.push_back({pre + "op0_add", op, [](Word& w) { set(w, "op0", code(AluOp::ADD)); },
                 "tensor_scalar_valid_ops", "op0", "ADD (0x04)",
                 "both ops must be bitvec ops (BYPASS, BITWISE_NOT"});
    c.push_back({pre + "op1_add_int", op, [](Word& w) { set(w, "op1", code(AluOp::ADD_INT)); },
                 "tensor_scalar_valid_ops", "op1", "ADD_INT (0xc4)", "bitvec ops"});
    // tensor_scalar_valid_types: in_dtype == out_dtype, an integer dtype.
    c.push_back({pre + "out_dtype_int32", op,
                 [](Word& w) { set(w, "out_dtype", code(Dtype::INT32)); },
                 "tensor_scalar_valid_types", "out_dtype", "INT32 (0x8), in_dtype is INT16",
                 "out_dtype must equal in_dtype"});
    c.push_back({pre + "out_dtype_uint16", op,
                 [](Word& w) { set(w, "out_dtype", code(Dtype::UINT16)); },
                 "tensor_scalar_valid_types", "out_dtype", "UINT16"});
    for (Dtype d : {Dtype::BF16, Dtype::FP16})
      c.push_back({pre + "dtypes_" + name_of(d), op,
                   [d](Word& w) {
                     set(w, "in_dtype", code(d));
                     set(w, "out_dtype", code(d));
                   },
                   "tensor_scalar_valid_types", "in_dtype", name_of(d),
                   "INT8, UINT8, INT16, UINT16, INT32 or UINT32"});
    c.push_back({pre + "in_fp32_out_int16", op,
                 [](Word& w) { set(w, "in_dtype", code(Dtype::FP32)); },
                 "tensor_scalar_valid_types", "in_dtype", "FP32 (0xa), out_dtype is INT16"});
    // tensor_scalar_shift_chk: 1- and 2-byte in_dtypes.
    c.push_back({pre + "left_then_right_int16", op,
                 [](Word& w) {
                   set(w, "op0", code(AluOp::LOGICAL_SHIFT_LEFT));
                   set(w, "op1", code(AluOp::LOGICAL_SHIFT_RIGHT));
                 },
                 "tensor_scalar_shift_chk", "op1", "LOGICAL_SHIFT_RIGHT (0x11)",
                 "op1 must not be a right shift when op0 is a left shift"});
    c.push_back({pre + "arith_left_then_logical_right_int16", op,
                 [](Word& w) {
                   set(w, "op0", code(AluOp::ARITH_SHIFT_LEFT));
                   set(w, "op1", code(AluOp::LOGICAL_SHIFT_RIGHT));
                 },
                 "tensor_scalar_shift_chk", "op1", "with in_dtype INT16"});
    c.push_back({pre + "op1_asr_int16", op,
                 [](Word& w) { set(w, "op1", code(AluOp::ARITH_SHIFT_RIGHT)); },
                 "tensor_scalar_shift_chk", "op1", "ARITH_SHIFT_RIGHT (0x03)",
                 "neither op may be ARITH_SHIFT_RIGHT"});
    c.push_back({pre + "op0_asr_uint8", op,
                 [](Word& w) {
                   set(w, "in_dtype", code(Dtype::UINT8));
                   set(w, "out_dtype", code(Dtype::UINT8));
                   set(w, "op0", code(AluOp::ARITH_SHIFT_RIGHT));
                   set(w, "op1", 0);
                 },
                 "tensor_scalar_shift_chk", "op0", "ARITH_SHIFT_RIGHT (0x03), op1 is BYPASS"});
    c.push_back({pre + "left_then_asr_int8", op,
                 [](Word& w) {
                   set(w, "in_dtype", code(Dtype::INT8));
                   set(w, "out_dtype", code(Dtype::INT8));
                   set(w, "op0", code(AluOp::LOGICAL_SHIFT_LEFT));
                   set(w, "op1", code(AluOp::ARITH_SHIFT_RIGHT));
                 },
                 "tensor_scalar_shift_chk", "op1", "INT8"});
  }

  // ---- tensor_scalar_immediates_check (0x43, 0x53): per immediate, by its *_src ----
  for (Opcode op : {TSA, TSB}) {
    const std::string pre = ts_prefix(op);
    const unsigned width = op == TSA ? 4 : 2;
    c.push_back({pre + "imm0_src_3", op, [](Word& w) { set(w, "imm0_src", 3); },
                 "tensor_scalar_immediates_check", "imm0_src", "0x03",
                 "INSTRUCTION_IMMEDIATE (0), POINTER_IMMEDIATE (1) or REG_PTR_IMMEDIATE (2)"});
    // A BYPASS op1 does not waive imm1.
    c.push_back({pre + "imm1_src_0xff_op1_bypass", op,
                 [](Word& w) {
                   set(w, "op1", 0);
                   set(w, "imm1_src", 0xff);
                 },
                 "tensor_scalar_immediates_check", "imm1_src", "0xff"});
    // Pointers: aligned to 4 for 0x43 (an FP32, whatever the FP16 data), to 2 for INT16.
    c.push_back({pre + "imm0_pointer_misaligned", op,
                 [width](Word& w) {
                   set(w, "imm0_src", 1);
                   set(w, "imm0", sbuf_addr(4, 0x600 + width / 2));
                 },
                 "tensor_scalar_immediates_check", "imm0", "offset",
                 "aligned to the immediate's width"});
    c.push_back({pre + "imm1_pointer_psum_on_pool",
                 op,
                 [](Word& w) {
                   set(w, "imm1_src", 1);
                   set(w, "imm1", psum_addr(4, 0x100));
                 },
                 "tensor_scalar_immediates_check",
                 "imm1",
                 "in PSUM",
                 "SBUF",
                 1,
                 {},
                 false,
                 Engine::POOL});
    c.push_back({pre + "imm0_pointer_past_127", op,
                 [](Word& w) {
                   set(w, "imm0_src", 1);
                   set(w, "imm0", sbuf_addr(126, 0x600));
                 },
                 "tensor_scalar_immediates_check", "imm0", "partitions 126..128", "< 128"});
    c.push_back({pre + "imm0_pointer_mode_bits", op,
                 [](Word& w) {
                   set(w, "imm0_src", 1);
                   set(w, "imm0", sbuf_addr(4, 0x600) | 0x20000000u);
                 },
                 "tensor_scalar_immediates_check", "imm0", "0x20100600", "mode bits"});
    c.push_back({pre + "imm1_pointer_register_mode", op,
                 [](Word& w) {
                   set(w, "imm1_src", 1);
                   set(w, "imm1", reg_addr(5));
                 },
                 "tensor_scalar_immediates_check", "imm1", "0x80000005",
                 "a pointer must be a static ADDR4"});
    c.push_back({pre + "imm0_register_64", op,
                 [](Word& w) {
                   set(w, "imm0_src", 2);
                   set(w, "imm0", 64);
                 },
                 "tensor_scalar_immediates_check", "imm0", "0x00000040", "register id < 64"});
    c.push_back({pre + "imm1_register_high_bytes", op,
                 [](Word& w) {
                   set(w, "imm1_src", 2);
                   set(w, "imm1", 0x0105);
                 },
                 "tensor_scalar_immediates_check", "imm1", "0x00000105", "bytes 1-3 zero"});
  }
  // 0x53: an instruction immediate of in_dtype's width has its upper bytes zero.
  c.push_back({"tsb_imm0_upper_bytes", TSB, [](Word& w) { set(w, "imm0", 0x00010000); },
               "tensor_scalar_immediates_check", "imm0", "0x00010000",
               "an instruction immediate of 2 byte(s) must have its upper 2 byte(s) zero"});
  c.push_back({"tsb_imm1_upper_bytes_int8", TSB,
               [](Word& w) {
                 set(w, "in_dtype", code(Dtype::INT8));
                 set(w, "out_dtype", code(Dtype::INT8));
                 set(w, "imm1", 0x100);
               },
               "tensor_scalar_immediates_check", "imm1", "0x00000100", "upper 3 byte(s) zero"});

  // ---- the pointer forms (0x44, 0x54) ----
  for (Opcode op : {TSPA, TSPB}) {
    const std::string pre = ts_prefix(op);
    const unsigned width = op == TSPA ? 4 : 2;
    // tensor_scalar_ptr_imm_src: both *_src are 0.
    for (uint64_t src : {1u, 2u, 3u})
      c.push_back({pre + "imm0_src_" + std::to_string(src), op,
                   [src](Word& w) { set(w, "imm0_src", src); }, "tensor_scalar_ptr_imm_src",
                   "imm0_src", hex8_of(static_cast<unsigned>(src)), "must be 0"});
    c.push_back({pre + "both_src_1", op,
                 [](Word& w) {
                   set(w, "imm0_src", 1);
                   set(w, "imm1_src", 1);
                 },
                 "tensor_scalar_ptr_imm_src", "_src", "0x01", "must be 0", 2});
    // tensor_scalar_ptr_immediates: both fields are pointers, whatever their ops.
    c.push_back({pre + "imm0_misaligned", op,
                 [width](Word& w) { set(w, "imm0", sbuf_addr(4, 0x600 + width / 2)); },
                 "tensor_scalar_ptr_immediates", "imm0", "offset", "aligned"});
    c.push_back({pre + "imm1_register_mode_op1_bypass", op,
                 [](Word& w) {
                   set(w, "op1", 0);
                   set(w, "imm1", reg_addr(5));
                 },
                 "tensor_scalar_ptr_immediates", "imm1", "0x80000005", "static ADDR4"});
    c.push_back({pre + "imm1_psum_on_pool",
                 op,
                 [](Word& w) { set(w, "imm1", psum_addr(4, 0x100)); },
                 "tensor_scalar_ptr_immediates",
                 "imm1",
                 "in PSUM",
                 "SBUF",
                 1,
                 {},
                 false,
                 Engine::POOL});
    c.push_back({pre + "imm0_past_127", op, [](Word& w) { set(w, "imm0", sbuf_addr(127, 0x600)); },
                 "tensor_scalar_ptr_immediates", "imm0", "partitions 127..129"});
    c.push_back({pre + "imm1_bits_25_28", op, [](Word& w) { set(w, "imm1", 0x04000000u); },
                 "tensor_scalar_ptr_immediates", "imm1", "0x04000000", "bits 25-28"});
  }
  // 0x54 with a 1-byte in_dtype: any byte offset.
  c.push_back({"tspb_imm0_psum_offset", TSPB, [](Word& w) { set(w, "imm0", psum_addr(4, 0x4000)); },
               "tensor_scalar_ptr_immediates", "imm0", hex32(psum_addr(4, 0x4000)), "16 KiB"});
}
inline std::vector<ClauseCase> tensor_scalar_clause_cases() {
  std::vector<ClauseCase> c;
  add_tensor_scalar_clause_cases(c);
  return c;
}

}  // namespace gpsimd::validate_cases

// ---- what the family's hand-checked effects share ----

namespace {

// ---- TensorScalar (SPEC §4.15) ------------------------------------------------------------

namespace tensor_scalar {
namespace aop = rm::ts::aop;
}  // namespace tensor_scalar

namespace tensor_scalar {
using gpsimd::Engine;
}  // namespace tensor_scalar

namespace tensor_scalar {
using rm::ts::TensorScalarWord;
}  // namespace tensor_scalar

namespace tensor_scalar {
constexpr uint8_t kArith = rm::kTensorScalarArith, kBitvec = rm::kTensorScalarBitvec,
                  kPtrArith = rm::kTensorScalarPtrArith, kPtrBitvec = rm::kTensorScalarPtrBitvec;
}  // namespace tensor_scalar

namespace tensor_scalar {
constexpr uint32_t kOne = 0x3F800000u;  // 1.0f
}  // namespace tensor_scalar

namespace tensor_scalar {
// One channel: `n` dense elements of `in` at SBUF partition 0 offset 0x100, `n` of `out` at
// partition 1 offset 0x200; instruction immediates (pointer forms: set imm0/imm1 to ADDR4s).
inline TensorScalarWord ts_word(uint8_t opcode, uint8_t in, uint8_t out, unsigned n, uint8_t op0,
                                uint32_t imm0, uint8_t op1 = aop::BYPASS, uint32_t imm1 = 0,
                                uint8_t reverse = 0) {
  TensorScalarWord x;
  x.opcode = opcode;
  x.in = in;
  x.out = out;
  x.op0 = op0;
  x.imm0 = imm0;
  x.op1 = op1;
  x.imm1 = imm1;
  x.reverse = reverse;
  x.src = tensor3(rm::sbuf_addr(0, 0x100), 1, n, static_cast<int>(n), 1, 0, 1);
  x.dst = tensor3(rm::sbuf_addr(1, 0x200), 1, n, static_cast<int>(n), 1, 0, 1);
  return x;
}
}  // namespace tensor_scalar

namespace tensor_scalar {
// Runs `x` on a fresh machine of `g` with `src` (elements of x.in) at its source, and
// returns its destination elements.
inline V ts_result(const TensorScalarWord& x, const V& src, Generation g = Generation::V3) {
  Machine& m = fresh(g);
  poke(m, SBUF, 0, 0x100, rm::size_of(x.in), src);
  const ExecResult r = run(m, x.encode());
  EXPECT_TRUE(r.ok()) << r.message();
  return peek(m, SBUF, 1, 0x200, rm::size_of(x.out), static_cast<unsigned>(src.size()));
}
}  // namespace tensor_scalar

namespace tensor_scalar {
// A fault of the given kind that changes nothing (fast and scalar path; the reference
// model agrees on the kind).
inline void expect_ts_fault(Machine& m, const Word& w, FaultKind kind,
                            std::optional<Engine> engine = std::nullopt) {
  expect_unchanged(m, w, Status::Faulted, kind, ExecOptions{.engine = engine});
}
}  // namespace tensor_scalar

using namespace tensor_scalar;

}  // namespace
#endif
