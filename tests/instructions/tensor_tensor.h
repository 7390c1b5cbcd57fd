// TensorTensorArith and TensorTensorBitvec (SPEC §4.14, S3S3D3_TT): what the tests of
// TensorTensorArith and TensorTensorBitvec (tests/instructions/) share: the valid words' layout,
// the independent reference and the random generators of the family.
#pragma once

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace refmodel {

namespace tt {

inline bool one_of(uint8_t x, std::initializer_list<uint8_t> set) {
  return std::find(set.begin(), set.end(), x) != set.end();
}
// SPEC §3.8's is_valid_int_aluop (26 ops).
inline bool int_aluop(uint8_t o) {
  using namespace op;
  return one_of(
      o, {ADD_INT,  MULT_INT,   SUBTRACT_INT, MOD,        DIVIDE_INT,   MOD_INT,     DIVIDE_UINT,
          MOD_UINT, MULT_UINT,  IS_EQUAL_INT, IS_NE_INT,  ABS_DIFF_INT, ABS_MAX_INT, ABS_MIN_INT,
          MAX_INT,  MIN_INT,    IS_GT_INT,    IS_GE_INT,  IS_LE_INT,    IS_LT_INT,   MAX_UINT,
          MIN_UINT, IS_GT_UINT, IS_GE_UINT,   IS_LE_UINT, IS_LT_UINT});
}
// is_general_arith_op: is_arith_op without DIVIDE, POW, MOD, RSQRT and the integer ops.
inline bool general_arith(uint8_t o) {
  using namespace op;
  return one_of(o, {BYPASS,     ADD,           SUBTRACT,       MULT,    MAX,     MIN,   LOGICAL_AND,
                    LOGICAL_OR, LOGICAL_XOR,   IS_EQ,          IS_GT,   IS_GE,   IS_LE, IS_LT,
                    IS_NE,      ABSOLUTE_DIFF, ABSOLUTE_VALUE, ABS_MAX, ABS_MIN, RE_LU, SQUARE});
}
// SPEC §3.8.3: no modelled result.
inline bool unmodelled(uint8_t o) {
  using namespace op;
  return one_of(o, {DIVIDE, POW, RSQRT, MOD, DIVIDE_INT, DIVIDE_UINT, MOD_INT, MOD_UINT, CRC32,
                    SYMMETRIC_CLAMP, ABS_VALUE_INT, AMAX_INT, AMIN_INT, AMAX_UINT, AMIN_UINT});
}

inline constexpr uint32_t kDefaultNaN = 0x7FC00000u;
inline uint32_t canonical(float x) {
  return std::isnan(x) ? kDefaultNaN : as_bits(x);
}
inline uint32_t truth(bool t) {
  return t ? 0x3F800000u : 0u;
}

// The FP32 path (SPEC §3.8.2) on binary32 patterns. Sums, differences and products are
// formed in double and rounded once to float: double holds every product of two floats
// exactly, and a double-rounded float sum is the correctly rounded one (53 >= 2*24 + 2).
inline uint32_t fp32(uint8_t o, uint32_t ab, uint32_t bb) {
  const float a = as_float(ab), b = as_float(bb);
  const double x = a, y = b;
  const bool an = std::isnan(a), bn = std::isnan(b);
  switch (o) {
    case op::BYPASS:
      return ab;
    case op::ADD:
      return canonical(static_cast<float>(x + y));
    case op::SUBTRACT:
      return canonical(static_cast<float>(x - y));
    case op::MULT:
      return canonical(static_cast<float>(x * y));
    case op::SQUARE:
      return canonical(static_cast<float>(x * x));
    case op::MAX:
    case op::MIN: {
      if (an && bn) return kDefaultNaN;
      if (an) return bb;
      if (bn) return ab;
      const bool max = o == op::MAX;
      if (a == b && a == 0.0f) {  // -0.0 < +0.0
        const bool a_neg = std::signbit(a);
        return max ? (a_neg ? bb : ab) : (a_neg ? ab : bb);
      }
      return (max ? a >= b : a <= b) ? ab : bb;
    }
    case op::RE_LU:
      if (an) return 0u;
      return a > 0.0f ? ab : 0u;  // -0.0 and negatives give +0.0
    case op::IS_EQ:
      return truth(a == b);
    case op::IS_GT:
      return truth(a > b);
    case op::IS_GE:
      return truth(a >= b);
    case op::IS_LE:
      return truth(a <= b);
    case op::IS_LT:
      return truth(a < b);
    case op::IS_NE:
      return truth(!(a == b));
    case op::LOGICAL_AND:
      return truth(!(a == 0.0f) && !(b == 0.0f));
    case op::LOGICAL_OR:
      return truth(!(a == 0.0f) || !(b == 0.0f));
    case op::LOGICAL_XOR:
      return truth(!(a == 0.0f) != !(b == 0.0f));
    case op::ABSOLUTE_DIFF: {
      const float d = static_cast<float>(x - y);
      return std::isnan(d) ? kDefaultNaN : as_bits(d) & 0x7FFFFFFFu;
    }
    case op::ABSOLUTE_VALUE:
      return an ? kDefaultNaN : ab & 0x7FFFFFFFu;
    case op::ABS_MAX:
    case op::ABS_MIN: {
      const float ma = std::fabs(a), mb = std::fabs(b);
      const bool take_a = o == op::ABS_MAX ? ma > mb : ma < mb;  // false with a NaN: b
      const uint32_t r = take_a ? ab : bb;
      return is_nan_fp32(r) ? kDefaultNaN : r;
    }
    default:
      return 0xDEADBEEFu;  // not an op of this path (the word faults before)
  }
}

__extension__ typedef __int128 Wide;

// The native integer path (SPEC §3.8.2) on exact values; returns the exact result.
inline Wide native(uint8_t o, int64_t a, int64_t b) {
  const Wide x = a, y = b;
  const auto abs = [](Wide v) { return v < 0 ? -v : v; };
  using namespace op;
  switch (o) {
    case BYPASS:
      return x;
    case ADD:
    case ADD_INT:
      return x + y;
    case SUBTRACT:
    case SUBTRACT_INT:
      return x - y;
    case MULT:
    case MULT_INT:
    case MULT_UINT:
      return x * y;
    case SQUARE:
      return x * x;
    case MAX:
    case MAX_INT:
    case MAX_UINT:
      return std::max(x, y);
    case MIN:
    case MIN_INT:
    case MIN_UINT:
      return std::min(x, y);
    case RE_LU:
      return std::max(x, Wide{0});
    case IS_EQ:
    case IS_EQUAL_INT:
      return x == y;
    case IS_NE:
    case IS_NE_INT:
      return x != y;
    case IS_GT:
    case IS_GT_INT:
    case IS_GT_UINT:
      return x > y;
    case IS_GE:
    case IS_GE_INT:
    case IS_GE_UINT:
      return x >= y;
    case IS_LE:
    case IS_LE_INT:
    case IS_LE_UINT:
      return x <= y;
    case IS_LT:
    case IS_LT_INT:
    case IS_LT_UINT:
      return x < y;
    case LOGICAL_AND:
      return x != 0 && y != 0;
    case LOGICAL_OR:
      return x != 0 || y != 0;
    case LOGICAL_XOR:
      return (x != 0) != (y != 0);
    case ABSOLUTE_DIFF:
    case ABS_DIFF_INT:
      return abs(x - y);
    case ABSOLUTE_VALUE:
      return abs(x);
    case ABS_MAX:
    case ABS_MAX_INT:
      return abs(x) > abs(y) ? x : y;
    case ABS_MIN:
    case ABS_MIN_INT:
      return abs(x) < abs(y) ? x : y;
    default:
      return 0xDEADBEEF;
  }
}
// The exact value reduced modulo 2^width (the wrap of the native path).
inline uint32_t wrap(Wide v, unsigned width) {
  const Wide m = Wide{1} << width;
  Wide r = v % m;
  if (r < 0) r += m;
  return static_cast<uint32_t>(r);
}

// The raw-bits path (SPEC §3.8.2) on w-bit patterns.
inline uint32_t bits(uint8_t o, uint32_t a, uint32_t b, unsigned w) {
  const uint64_t mask = (uint64_t{1} << w) - 1;
  const uint64_t x = a & mask, k = b & mask;  // the count: b as an unsigned w-bit integer
  const int64_t sx =
      (x >> (w - 1)) ? static_cast<int64_t>(x) - (int64_t{1} << w) : static_cast<int64_t>(x);
  switch (o) {
    case op::BYPASS:
      return static_cast<uint32_t>(x);
    case op::BITWISE_NOT:
      return static_cast<uint32_t>(~x & mask);
    case op::BITWISE_AND:
      return static_cast<uint32_t>(x & k);
    case op::BITWISE_OR:
      return static_cast<uint32_t>(x | k);
    case op::BITWISE_XOR:
      return static_cast<uint32_t>(x ^ k);
    case op::LOGICAL_SHIFT_LEFT:
    case op::ARITH_SHIFT_LEFT:
      return k >= w ? 0u : static_cast<uint32_t>((x << k) & mask);
    case op::LOGICAL_SHIFT_RIGHT:
      return k >= w ? 0u : static_cast<uint32_t>(x >> k);
    case op::ARITH_SHIFT_RIGHT:  // w copies of the sign bit once every bit is out
      return static_cast<uint32_t>(static_cast<uint64_t>(k >= w ? (sx < 0 ? -1 : 0) : sx >> k) &
                                   mask);
    default:
      return 0xDEADBEEFu;
  }
}

}  // namespace tt

}  // namespace refmodel

namespace refmodel::internal {

// SPEC §4.14. Offsets: 12 in0_in1_dtype (src0 low nibble, src1 high), 13 out_dtype, 14 op,
// 15 channels, 16 src0, 32 src1, 48 dst (TENSOR3D each). `e` is the engine it runs on.
inline std::optional<FaultKind> tensor_tensor(const Machine& m, const Word& w, Effects& fx,
                                              gpsimd::Engine e) {
  const uint8_t lo = w[12] & 0xf, hi = w[12] >> 4, out = w[13], o = w[14];
  const unsigned n = w[15];
  const bool bitvec = w[0] == kTensorTensorBitvec;
  const bool pool = e == gpsimd::Engine::POOL;
  // SPEC §3.9 item 4: act; the ops of §3.8.3; INT64/UINT64; the integer band off pool.
  if (e == gpsimd::Engine::ACT || tt::unmodelled(o)) return FaultKind::UnsupportedOp;
  for (uint8_t d : {lo, hi, out})
    if (d == dt::INT64 || d == dt::UINT64) return FaultKind::UnsupportedOp;
  if (tt::int_aluop(o) && !pool) return FaultKind::UnsupportedOp;
  const Tensor t0 = get_tensor(w, 16, 3), t1 = get_tensor(w, 32, 3), td = get_tensor(w, 48, 3);
  const unsigned s0 = size_of(lo), s1 = size_of(hi), sd = size_of(out);
  const auto a0 = resolve(m, t0, s0, !pool, false, n);
  const auto a1 = resolve(m, t1, s1, !pool, false, n);
  const auto ad = resolve(m, td, sd, !pool, true, n);
  if (!a0 || !a1 || !ad) return FaultKind::BadAddress;
  if (a0->space == Space::PSUM && a1->space == Space::PSUM) return FaultKind::BadAddress;
  if ((t0.register_mode() || t1.register_mode() || td.register_mode()) &&
      (t0.count() != t1.count() || t0.count() != td.count()))
    return FaultKind::ShapeMismatch;
  if (t0.count() > kWalkLimit || t1.count() > kWalkLimit || td.count() > kWalkLimit)
    return FaultKind::TooLarge;
  // SPEC §3.9 item 2: on pool the integer ops at any width, and the general ops when all
  // three dtypes are INT32 or UINT32, compute natively.
  const auto is32 = [](uint8_t d) { return d == dt::INT32 || d == dt::UINT32; };
  const bool native = pool && (tt::int_aluop(o) || (is32(lo) && is32(hi) && is32(out)));
  const auto o0 = walk(t0, a0->offset, s0), o1 = walk(t1, a1->offset, s1),
             od = walk(td, ad->offset, sd);
  for (unsigned c = 0; c < n; ++c) {
    for (std::size_t j = 0; j < od.size(); ++j) {
      const uint32_t a = load(m, a0->space, a0->partition + c, o0[j], s0);
      const uint32_t b = load(m, a1->space, a1->partition + c, o1[j], s1);
      uint32_t r;
      if (bitvec)
        r = tt::bits(o, a, b, 8 * sd);
      else if (native)
        r = tt::wrap(tt::native(o, int_of(lo, a), int_of(hi, b)), 8 * sd);
      else
        r = from_fp32(out, tt::fp32(o, to_fp32(lo, a), to_fp32(hi, b)));
      fx.stores.push_back({ad->space, ad->partition + c, od[j], sd, r});
    }
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

// ---- TensorTensorArith / TensorTensorBitvec (SPEC §4.14) -------------------------------

// The ops of SPEC §3.8 as the generator needs them, written out from its table.
namespace ttops {
using namespace rm::op;
// is_general_arith_op on V2/V3; V4 adds ABS_MAX, ABS_MIN, RE_LU, SQUARE.
const std::vector<uint8_t> kGeneral = {
    BYPASS, ADD,   SUBTRACT, MULT,  MAX,   MIN,   LOGICAL_AND,   LOGICAL_OR,    LOGICAL_XOR,
    IS_EQ,  IS_GT, IS_GE,    IS_LE, IS_LT, IS_NE, ABSOLUTE_DIFF, ABSOLUTE_VALUE};
const std::vector<uint8_t> kGeneralV4 = {ABS_MAX, ABS_MIN, RE_LU, SQUARE};
// The modelled is_valid_int_aluop ops: V2 has the first three; both signed and unsigned
// (is_signed_alu_op and is_unsigned_alu_op), signed only, unsigned only.
const std::vector<uint8_t> kIntV2 = {ADD_INT, MULT_INT, SUBTRACT_INT};
const std::vector<uint8_t> kIntBoth = {ADD_INT, MULT_INT, SUBTRACT_INT, IS_EQUAL_INT, IS_NE_INT};
const std::vector<uint8_t> kIntSigned = {ABS_MAX_INT, ABS_MIN_INT, ABS_DIFF_INT, MAX_INT,  MIN_INT,
                                         IS_GT_INT,   IS_GE_INT,   IS_LE_INT,    IS_LT_INT};
const std::vector<uint8_t> kIntUnsigned = {MAX_UINT,   MIN_UINT,   IS_GT_UINT, IS_GE_UINT,
                                           IS_LE_UINT, IS_LT_UINT, MULT_UINT};
// Valid on 0x41 but unmodelled (SPEC §3.8.3): POW, and MOD on V2 too.
const std::vector<uint8_t> kBitvec = {BYPASS,
                                      BITWISE_NOT,
                                      ARITH_SHIFT_LEFT,
                                      ARITH_SHIFT_RIGHT,
                                      LOGICAL_SHIFT_LEFT,
                                      LOGICAL_SHIFT_RIGHT,
                                      BITWISE_AND,
                                      BITWISE_OR,
                                      BITWISE_XOR};
inline bool is_shift(uint8_t o) {
  return o == ARITH_SHIFT_LEFT || o == ARITH_SHIFT_RIGHT || o == LOGICAL_SHIFT_LEFT ||
         o == LOGICAL_SHIFT_RIGHT;
}
}  // namespace ttops

inline uint8_t pick_of(Rng& r, const std::vector<uint8_t>& v) {
  return v[r.uin(0, static_cast<unsigned>(v.size()) - 1)];
}

constexpr uint8_t kDataDtypes[] = {rm::dt::INT8,  rm::dt::UINT8,  rm::dt::INT16,  rm::dt::UINT16,
                                   rm::dt::INT32, rm::dt::UINT32, rm::dt::BF16,   rm::dt::FP16,
                                   rm::dt::FP32,  rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5};
inline uint8_t data_dtype(Rng& r) {
  return kDataDtypes[r.uin(0, 11)];
}

inline Word gen_tensor_tensor(Builder& b, uint8_t opcode) {
  using namespace rm::dt;
  Rng& r = b.rng();
  const Generation g = b.generation();
  const bool v3 = g != Generation::V2, v4 = g == Generation::V4 || g == Generation::V5;
  rm::TensorTensorWord x;
  x.opcode = opcode;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  // The engine: mostly given, sometimes the default (dve), rarely act (unsupported-op).
  const unsigned pe = r.uin(0, 99);
  b.engine = pe < 3    ? std::optional{gpsimd::Engine::ACT}
             : pe < 25 ? std::nullopt
             : pe < 50 ? std::optional{gpsimd::Engine::DVE}
                       : std::optional{gpsimd::Engine::POOL};
  const bool pool = b.engine == gpsimd::Engine::POOL;
  bool supported = b.engine != gpsimd::Engine::ACT;
  if (opcode == rm::kTensorTensorBitvec) {
    x.op = pick_of(r, ttops::kBitvec);
    x.lo = x.hi = x.out = r.pick<uint8_t>({INT8, UINT8, INT16, UINT16, INT32, UINT32});
    if (r.chance(1)) {  // 64-bit lanes: unsupported-op
      x.lo = r.pick<uint8_t>({INT64, UINT64});
      x.op = rm::op::LOGICAL_SHIFT_RIGHT;
      x.hi = UINT32;
      supported = false;
    }
  } else {
    const unsigned kind = r.uin(0, 99);
    if (kind < 35 || (!pool && kind < 97)) {  // a general op, any dtypes
      std::vector<uint8_t> ops = ttops::kGeneral;
      if (v4) ops.insert(ops.end(), ttops::kGeneralV4.begin(), ttops::kGeneralV4.end());
      x.op = pick_of(r, ops);
      if (r.chance(40)) {  // 32-bit integers: POOL's native path
        x.lo = r.pick<uint8_t>({INT32, UINT32});
        x.hi = r.pick<uint8_t>({INT32, UINT32});
        x.out = r.pick<uint8_t>({INT32, UINT32});
      } else {
        x.lo = data_dtype(r);
        x.hi = data_dtype(r);
        x.out = r.chance(8) ? FP32R : data_dtype(r);
      }
    } else if (kind < 98) {  // an integer op, three dtypes of its signedness
      std::vector<uint8_t> ops = v3 ? ttops::kIntBoth : ttops::kIntV2;
      if (v3) {
        ops.insert(ops.end(), ttops::kIntSigned.begin(), ttops::kIntSigned.end());
        ops.insert(ops.end(), ttops::kIntUnsigned.begin(), ttops::kIntUnsigned.end());
      }
      x.op = pick_of(r, ops);
      const bool both =
          std::find(ttops::kIntBoth.begin(), ttops::kIntBoth.end(), x.op) != ttops::kIntBoth.end();
      const bool is_signed = both ? r.chance(50)
                                  : std::find(ttops::kIntSigned.begin(), ttops::kIntSigned.end(),
                                              x.op) != ttops::kIntSigned.end();
      auto d = [&] {
        return is_signed ? r.pick<uint8_t>({INT8, INT16, INT32})
                         : r.pick<uint8_t>({UINT8, UINT16, UINT32});
      };
      x.lo = d();
      x.hi = d();
      x.out = d();
      supported = supported && pool;
    } else {  // valid but unmodelled, or 64-bit: unsupported-op
      x.op = rm::op::POW;
      x.lo = data_dtype(r);
      x.hi = data_dtype(r);
      x.out = r.chance(50) ? data_dtype(r) : INT64;
      supported = false;
    }
  }
  const unsigned s0 = rm::size_of(x.lo), s1 = rm::size_of(x.hi), sd = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  // PSUM: never on pool; at most one source; a destination of 4-byte elements.
  const unsigned psum_source = pool ? 0 : r.uin(0, 2);  // 1: src0, 2: src1
  const Space sp0 = psum_source == 1 ? b.space(60) : Space::SBUF;
  const Space sp1 = psum_source == 2 ? b.space(60) : Space::SBUF;
  const Space spd = !pool && sd == 4 ? b.space(30) : Space::SBUF;
  x.src0 = b.shape(3, count, s0, sp0);
  x.src1 = b.shape(3, count, s1, sp1);
  x.dst = b.shape(3, count, sd, spd);
  const unsigned p0 = b.start_partition(n);
  const rm::Loc ld = b.place(x.dst, spd, b.near_partition(p0, n), n, sd, true);
  const rm::Loc l0 = b.place(x.src0, sp0, p0, n, s0, true);
  const rm::Loc l1 = b.place(x.src1, sp1, b.near_partition(p0, n), n, s1, true);
  if (supported) {
    // The old destination first, then the sources (which win where they overlap it).
    b.fill(x.dst, ld, n, sd, [&] { return random_value(r, x.out); });
    b.fill(x.src0, l0, n, s0, [&] { return random_value(r, x.lo); });
    const bool shift = opcode == rm::kTensorTensorBitvec && ttops::is_shift(x.op);
    b.fill(x.src1, l1, n, s1,
           [&] { return shift && r.chance(60) ? r.uin(0, 8 * s1 + 2) : random_value(r, x.hi); });
  }
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  if (inj == Inject::Shape) {
    if (x.src0.register_mode())
      x.src0.num[1] += 1;
    else if (x.src1.register_mode())
      x.src1.num[2] += 1;
    else if (x.dst.register_mode())
      x.dst.num[0] += 1;
  }
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.14: S3S3D3_TT. 0x41: any op of the table (valid on V3: the words are checked
// there) with data dtypes an integer op accepts; 0x51: a general bitvec op, one integer
// dtype. The three walks visit as many elements in other shapes.
inline Word valid_tensor_tensor(Gen& g, uint8_t opcode) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  static constexpr uint8_t kGeneral[] = {0x00, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0d, 0x0e, 0x0f,
                                         0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a};
  static constexpr uint8_t kSignedInt[] = {0xc4, 0xc5, 0xc6, 0xc7, 0xcf, 0xd0, 0xd1, 0xcb};
  static constexpr uint8_t kSigned[] = {0x2, 0x4, 0x8, 0xc};  // INT8, INT16, INT32, INT64
  static constexpr uint8_t kBitvec[] = {0x00, 0x01, 0x02, 0x03, 0x10, 0x11, 0x0a, 0x0b, 0x0c};
  static constexpr uint8_t kInt[] = {0x2, 0x3, 0x4, 0x5, 0x8, 0x9};
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  uint8_t lo, hi, out, op;
  if (opcode == 0x51) {
    op = g.pick(kBitvec);
    lo = hi = out = g.pick(kInt);
  } else if (g.below(3) == 0) {
    op = g.pick(kSignedInt);
    lo = g.pick(kSigned);
    hi = g.pick(kSigned);
    out = g.pick(kSigned);
  } else {
    op = g.pick(kGeneral);
    lo = g.pick(kData);
    hi = g.pick(kData);
    out = g.below(8) == 0 ? 0xb : g.pick(kData);  // FP32R only as the output
  }
  w[12] = static_cast<uint8_t>(lo | hi << 4);
  w[13] = out;
  w[14] = op;
  w[15] = static_cast<uint8_t>(n);
  const auto num = g.nums(3);
  const unsigned s0 = *dtype_size(lo), s1 = *dtype_size(hi), sd = *dtype_size(out);
  // At most one source in PSUM; a PSUM destination has 4-byte elements.
  const unsigned psum = g.below(3);
  store_tensor(w, 16, g.tensor(3, num, n, s0, psum == 1));
  store_tensor(w, 32, g.tensor(3, {num[2], num[0], num[1], 1}, n, s1, psum == 2));
  store_tensor(w, 48, g.tensor(3, {num[1], num[2], num[0], 1}, n, sd, sd == 4 && g.below(2)));
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {

inline Word tensor_tensor_word(Rng& rng, Machines& m, bool large, bool bitvec) {
  Word w{};
  w[0] = bitvec ? 0x51 : 0x41;
  w[1] = 0x10;
  m.engine = alu_engine(rng, 0.3);
  const bool pool = m.engine == Engine::POOL;
  const unsigned n = large ? 128 : random_channels(rng);
  uint8_t op;
  Dtype lo, hi, out;
  if (bitvec) {
    op = pick_op(rng, alu::is_general_bitvec_op);
    lo = hi = out = rng.pick(kAluIntDtypes);
  } else if (!large && rng.chance(pool ? 0.5 : 0.04)) {
    // The integer band: three signed or three unsigned dtypes, as the op allows.
    op = pick_op(rng, [](uint8_t o) { return alu::is_valid_int_aluop(o); });
    const bool sgn = alu::is_signed_alu_op(op) && (!alu::is_unsigned_alu_op(op) || rng.chance(0.5));
    const Dtype s[] = {Dtype::INT8, Dtype::INT16, Dtype::INT32, Dtype::INT32};
    const Dtype u[] = {Dtype::UINT8, Dtype::UINT16, Dtype::UINT32, Dtype::UINT32};
    lo = sgn ? rng.pick(s) : rng.pick(u);
    hi = sgn ? rng.pick(s) : rng.pick(u);
    out = sgn ? rng.pick(s) : rng.pick(u);
  } else {
    op = pick_op(rng, [](uint8_t o) { return alu::is_general_arith_op(o); });
    if (!large && rng.chance(0.02)) op = static_cast<uint8_t>(AluOp::POW);  // unsupported-op
    const Dtype i32[] = {Dtype::INT32, Dtype::UINT32};
    const bool native = rng.chance(pool ? 0.5 : 0.2);  // 32-bit integers: native on POOL
    lo = large ? Dtype::FP32 : native ? rng.pick(i32) : rng.pick(kAluDtypes);
    hi = large ? Dtype::FP32 : native ? rng.pick(i32) : rng.pick(kAluDtypes);
    out = large    ? (rng.chance(0.5) ? Dtype::FP32 : Dtype::BF16)
          : native ? rng.pick(i32)
                   : rng.pick(kAluDtypes);
  }
  const unsigned s0 = *dtype_size(lo), s1 = *dtype_size(hi), sd = *dtype_size(out);
  const Window w0 = alu_window(rng, large, !pool);
  const Window w1 = alu_window(rng, large, !pool && w0.space != Space::PSUM);
  const Window wd = alu_window(rng, large, !pool && sd == 4);
  const unsigned p0 = rng.below(kPartitions - n + 1);
  const unsigned p1 = rng.chance(0.5) ? p0 : rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.6) ? p0 : rng.below(kPartitions - n + 1);
  const TensorDesc src0 = alu_walk(rng, 0, large ? 8000 : 600, s0, w0, p0);
  const TensorDesc src1 = alu_walk(rng, src0.count(), 0, s1, w1, p1);
  const TensorDesc dst = alu_walk(rng, src0.count(), 0, sd, wd, pd);
  alu_fill(rng, m, wd, pd, n, out);
  alu_fill(rng, m, w0, p0, n, lo);
  alu_fill(rng, m, w1, p1, n, hi);
  w[12] = static_cast<uint8_t>(static_cast<uint8_t>(lo) | static_cast<uint8_t>(hi) << 4);
  w[13] = static_cast<uint8_t>(out);
  w[14] = op;
  w[15] = static_cast<uint8_t>(n);
  store_tensor(w, 16, src0);
  store_tensor(w, 32, src1);
  store_tensor(w, 48, dst);
  return w;
}

inline Word tensor_tensor_arith_word(Rng& rng, Machines& m, bool large) {
  return tensor_tensor_word(rng, m, large, false);
}

inline Word tensor_tensor_bitvec_word(Rng& rng, Machines& m, bool large) {
  return tensor_tensor_word(rng, m, large, true);
}

}  // namespace gpsimd::kernels_equiv

#ifdef GPSIMD_INSTRUCTION_TESTS
#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd::validate_cases {

// ---- the family's clause cases (each instruction's file instantiates its share) ----

inline std::vector<ClauseCase> tensor_tensor_clause_cases() {
  using D = Dtype;
  const std::vector<Generation> v2{G::V2}, v3{G::V3}, v4{G::V4}, v5{G::V5};
  const std::vector<Generation> v3up{G::V3, G::V4, G::V5}, v4up{G::V4, G::V5};
  const std::vector<Generation> to_v3{G::V2, G::V3}, to_v4{G::V2, G::V3, G::V4};
  std::vector<ClauseCase> c;
  // is_valid_dtype_64: src0 and src1 the §3.6 list without FP32R plus INT64/UINT64, out the
  // same with FP32R. A dtype without a size leaves its tensor unchecked (SPEC §3.6).
  for (auto [name, lo, hi, field, value] :
       std::vector<std::tuple<std::string, D, D, std::string, std::string>>{
           {"lo_fp32r", D::FP32R, D::FP32, "src0", "FP32R (0xb)"},
           {"lo_invalid", D::INVALID, D::FP32, "src0", "INVALID (0x0)"},
           {"hi_invalid", D::BF16, D::INVALID, "src1", "INVALID (0x0)"},
           {"hi_fp32r", D::BF16, D::FP32R, "src1", "FP32R (0xb)"}})
    c.push_back({"tta_" + name, TTA,
                 [lo, hi](Word& w) { set(w, "in0_in1_dtype", dtype_pair(lo, hi)); },
                 "is_valid_dtype_64", "in0_in1_dtype (" + field, value, "UINT64"});
  for (auto [name, out, value] : std::vector<std::tuple<std::string, unsigned, std::string>>{
           {"fp4", 0x10, "FP4_E2 (0x10)"},
           {"unknown_0x11", 0x11, "0x11 (unknown)"},
           {"cptc1", 0x19, "CPTC1 (0x19)"},
           {"invalid", 0x0, "INVALID (0x0)"},
           {"unknown_0xff", 0xff, "0xff (unknown)"}})
    c.push_back({"tta_out_" + name, TTA, [out](Word& w) { set(w, "out_dtype", out); },
                 "is_valid_dtype_64", "out_dtype", value, "FP32R"});
  // is_valid_enum: op is an enumerator on the generation (SPEC §3.3).
  for (unsigned op : {0x1eu, 0x1fu, 0x25u, 0x80u, 0xc3u, 0xe2u, 0xffu})
    for (Opcode o : {TTA, TTB})
      c.push_back({std::string(o == TTA ? "tta" : "ttb") + "_op_gap_" + hex8_of(op), o,
                   [op](Word& w) { set(w, "op", op); }, "is_valid_enum", "op", hex8_of(op),
                   "ALU_OP values of v"});
  c.push_back({"tta_op_abs_max_v2", TTA, [](Word& w) { set(w, "op", 0x20); }, "is_valid_enum", "op",
               "ABS_MAX (0x20)", "the 33 ALU_OP values of v2: 0x00-0x1d, 0xc4-0xc6", 1, v2});
  c.push_back({"tta_op_abs_max_v3", TTA, [](Word& w) { set(w, "op", 0x20); }, "is_valid_enum", "op",
               "ABS_MAX (0x20)", "the 60 ALU_OP values of v3: 0x00-0x1d, 0xc4-0xe1", 1, v3});
  c.push_back({"tta_op_square_to_v3", TTA, [](Word& w) { set(w, "op", 0x23); }, "is_valid_enum",
               "op", "SQUARE (0x23)", "ALU_OP values", 1, to_v3});
  c.push_back({"tta_op_max_int_v2", TTA,
               [](Word& w) {
                 set_tt(w, D::INT32, D::INT32, D::INT32);
                 set(w, "op", 0xcf);
               },
               "is_valid_enum", "op", "MAX_INT (0xcf)", "33 ALU_OP values of v2", 1, v2});
  c.push_back({"tta_op_symmetric_clamp_to_v4", TTA, [](Word& w) { set(w, "op", 0x24); },
               "is_valid_enum", "op", "SYMMETRIC_CLAMP (0x24)", "ALU_OP values", 1, to_v4});
  c.push_back({"tta_op_symmetric_clamp_v4_text", TTA, [](Word& w) { set(w, "op", 0x24); },
               "is_valid_enum", "op", "0x24",
               "the 64 ALU_OP values of v4: 0x00-0x1d, 0x20-0x23, 0xc4-0xe1", 1, v4});
  c.push_back({"tta_op_v5_text", TTA, [](Word& w) { set(w, "op", 0x25); }, "is_valid_enum", "op",
               "0x25", "the 65 ALU_OP values of v5: 0x00-0x1d, 0x20-0x24, 0xc4-0xe1", 1, v5});
  c.push_back({"ttb_op_abs_min_to_v3", TTB, [](Word& w) { set(w, "op", 0x21); }, "is_valid_enum",
               "op", "ABS_MIN (0x21)", "ALU_OP values", 1, to_v3});
  // s3s3d3_tt_valid_op, 0x41: is_general_arith_op, POW or is_valid_int_aluop.
  for (auto [op, value, gens] : std::vector<std::tuple<unsigned, std::string, std::vector<G>>>{
           {0x07, "DIVIDE (0x07)", {}},
           {0x1d, "RSQRT (0x1d)", {}},
           {0x01, "BITWISE_NOT (0x01)", {}},
           {0x02, "ARITH_SHIFT_LEFT (0x02)", {}},
           {0x0c, "BITWISE_XOR (0x0c)", {}},
           {0x10, "LOGICAL_SHIFT_LEFT (0x10)", {}},
           {0x1c, "CRC32 (0x1c)", {}},
           {0xce, "ABS_VALUE_INT (0xce)", v3up},
           {0xde, "AMAX_INT (0xde)", v3up},
           {0xe1, "AMIN_UINT (0xe1)", v3up},
           {0x24, "SYMMETRIC_CLAMP (0x24)", v5}})
    c.push_back({"tta_op_" + std::to_string(op), TTA, [op](Word& w) { set(w, "op", op); },
                 "s3s3d3_tt_valid_op", "op", value,
                 "must be an is_general_arith_op op, POW or an is_valid_int_aluop op", 1, gens});
  // 0x51: is_general_bitvec_op (CRC32 and the arithmetic ops are not).
  for (auto [op, value, gens] : std::vector<std::tuple<unsigned, std::string, std::vector<G>>>{
           {0x04, "ADD (0x04)", {}},
           {0x08, "MAX (0x08)", {}},
           {0x12, "IS_EQ (0x12)", {}},
           {0x0d, "LOGICAL_AND (0x0d)", {}},
           {0x1a, "POW (0x1a)", {}},
           {0x1c, "CRC32 (0x1c)", {}},
           {0xc4, "ADD_INT (0xc4)", {}},  // UINT16 x3 and ADD_INT: the signedness holds
           {0x20, "ABS_MAX (0x20)", v4up},
           {0xdf, "AMIN_INT (0xdf)", v3up},
           {0x24, "SYMMETRIC_CLAMP (0x24)", v5}})
    c.push_back({"ttb_op_" + std::to_string(op), TTB, [op](Word& w) { set(w, "op", op); },
                 "s3s3d3_tt_valid_op", "op", value,
                 "must be an is_general_bitvec_op op: BYPASS, BITWISE_NOT", 1, gens});
  // s3s3d3_tt_valid_int_signness: an is_valid_int_aluop op needs three signed dtypes and a
  // signed op, or three unsigned ones and an unsigned op.
  c.push_back({"tta_signness_add_int_floats", TTA, [](Word& w) { set(w, "op", 0xc4); },
               "s3s3d3_tt_valid_int_signness", "op", "ADD_INT (0xc4) with src0 BF16, src1 FP32",
               "all signed (INT8, INT16, INT32, INT64) or all unsigned"});
  c.push_back({"tta_signness_mult_int_mixed", TTA,
               [](Word& w) {
                 set_tt(w, D::INT32, D::UINT32, D::INT32);
                 set(w, "op", 0xc5);
               },
               "s3s3d3_tt_valid_int_signness", "op", "src0 INT32, src1 UINT32, out INT32"});
  c.push_back({"tta_signness_subtract_int_out_unsigned", TTA,
               [](Word& w) {
                 set_tt(w, D::INT8, D::INT8, D::UINT8);
                 set(w, "op", 0xc6);
               },
               "s3s3d3_tt_valid_int_signness", "op", "SUBTRACT_INT (0xc6)"});
  c.push_back({"tta_signness_mod_fp32", TTA,
               [](Word& w) {
                 set_tt(w, D::FP32, D::FP32, D::FP32);
                 set(w, "op", 0x1b);
               },
               "s3s3d3_tt_valid_int_signness", "op", "MOD (0x1b)"});
  c.push_back({"tta_signness_max_int_unsigned", TTA,
               [](Word& w) {
                 set_tt(w, D::UINT32, D::UINT32, D::UINT32);
                 set(w, "op", 0xcf);
               },
               "s3s3d3_tt_valid_int_signness", "op", "MAX_INT (0xcf)", "is_signed_alu_op only", 1,
               v3up});
  c.push_back({"tta_signness_is_gt_uint_signed", TTA,
               [](Word& w) {
                 set_tt(w, D::INT16, D::INT16, D::INT16);
                 set(w, "op", 0xd7);
               },
               "s3s3d3_tt_valid_int_signness", "op", "IS_GT_UINT (0xd7)", "is_unsigned_alu_op only",
               1, v3up});
  c.push_back({"tta_signness_int64_with_int32", TTA,
               [](Word& w) {
                 set_tt(w, D::INT64, D::UINT32, D::INT32);
                 set(w, "op", 0xc4);
               },
               "s3s3d3_tt_valid_int_signness", "op", "src0 INT64, src1 UINT32"});
  // s3s3d3_tt_src_dst_dtype (0x51): src0 and src1 of out's dtype, or a shift of a 64-bit
  // src0 by a UINT32 count.
  c.push_back({"ttb_src_dst_lo_signed", TTB,
               [](Word& w) { set_tt(w, D::INT16, D::UINT16, D::UINT16); },
               "s3s3d3_tt_src_dst_dtype", "in0_in1_dtype", "src0 INT16, src1 UINT16, out UINT16",
               "for a shift op"});
  c.push_back({"ttb_src_dst_hi_narrow", TTB,
               [](Word& w) { set_tt(w, D::UINT16, D::UINT8, D::UINT16); },
               "s3s3d3_tt_src_dst_dtype", "in0_in1_dtype", "src1 UINT8"});
  c.push_back({"ttb_src_dst_out_narrow", TTB,
               [](Word& w) { set_tt(w, D::UINT32, D::UINT32, D::UINT16); },
               "s3s3d3_tt_src_dst_dtype", "in0_in1_dtype", "src0 UINT32, src1 UINT32, out UINT16"});
  c.push_back({"ttb_src_dst_int64_not_a_shift", TTB,
               [](Word& w) { set_tt(w, D::INT64, D::UINT32, D::UINT16); },
               "s3s3d3_tt_src_dst_dtype", "in0_in1_dtype", "src0 INT64, src1 UINT32"});
  c.push_back({"ttb_src_dst_shift_count_not_uint32", TTB,
               [](Word& w) {
                 set_tt(w, D::UINT64, D::UINT16, D::UINT16);
                 set(w, "op", 0x10);
               },
               "s3s3d3_tt_src_dst_dtype", "in0_in1_dtype", "src0 UINT64, src1 UINT16"});
  // s3s3d3_tt_dtype (0x51): out is an integer dtype.
  for (D d : {D::FP16, D::BF16, D::FP32, D::FP8_E4})
    c.push_back({"ttb_dtype_" + name_of(d), TTB, [d](Word& w) { set_tt(w, d, d, d); },
                 "s3s3d3_tt_dtype", "out_dtype", name_of(d),
                 "must be INT8, UINT8, INT16, UINT16, INT32, UINT32, INT64 or UINT64"});
  // has_valid_active_channel_range.
  for (Opcode o : {TTA, TTB})
    c.push_back({std::string(o == TTA ? "tta" : "ttb") + "_channels_0", o,
                 [](Word& w) { set(w, "num_active_channels", 0); },
                 "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
  // start_addr_active_channels, each operand (3 channels from partition 126 pass 128).
  for (std::string f : {"src0_mem_pattern", "src1_mem_pattern", "dst_mem_pattern"})
    c.push_back({"tta_start_partition_" + f, TTA,
                 [f](Word& w) { set_addr(w, f, sbuf_addr(126, get_tensor(w, f).addr & 0x3ffff)); },
                 "start_addr_active_channels", f, "start partition 126 + 3 channels", "<= 128"});
  c.push_back({"ttb_src0_psum_start_partition", TTB,
               [](Word& w) { set_addr(w, "src0_mem_pattern", psum_addr(127, 0x80)); },
               "start_addr_active_channels", "src0_mem_pattern", "127"});
  // tensor3d_valid (the sub-rules are TensorRules' below, every operand).
  c.push_back({"tta_src1_misaligned", TTA,
               [](Word& w) { set_addr(w, "src1_mem_pattern", sbuf_addr(2, 0x202)); },
               "tensor3d_valid", "src1_mem_pattern", "0x00080202", "aligned"});
  c.push_back({"tta_dst_register_64", TTA,
               [](Word& w) { set_addr(w, "dst_mem_pattern", reg_addr(64)); }, "tensor3d_valid",
               "dst_mem_pattern", "0x80000040", "register"});
  c.push_back({"ttb_dst_psum_two_byte_write", TTB,
               [](Word& w) { set_addr(w, "dst_mem_pattern", psum_addr(1, 0x180)); },
               "tensor3d_valid", "dst_mem_pattern", "0x02008180", "4-byte"});
  c.push_back({"tta_src0_int64_misaligned", TTA,
               [](Word& w) {
                 set_tt(w, D::INT64, D::FP32, D::FP32);
                 set_addr(w, "src0_mem_pattern", sbuf_addr(2, 0x104));
               },
               "tensor3d_valid", "src0_mem_pattern", "8-byte elements", "aligned"});
  // A num_elem of 0 on a register-mode operand: the tensor clause; both count clauses that
  // involve it are waived.
  c.push_back({"tta_src0_register_num0", TTA,
               [](Word& w) {
                 set_addr(w, "src0_mem_pattern", reg_addr(3));
                 set_num(w, "src0_mem_pattern", 1, 0);
               },
               "tensor3d_valid", "src0_mem_pattern", "num=[4,0,1]", "num_elem[1] must be >= 1"});
  c.push_back({"tta_dst_register_num0", TTA,
               [](Word& w) {
                 set_addr(w, "dst_mem_pattern", reg_addr(63));
                 set_num(w, "dst_mem_pattern", 0, 0);
               },
               "tensor3d_valid", "dst_mem_pattern", "num=[0,1,1]", ">= 1"});
  // tensor_tensor_src_psum_check: not both sources in PSUM (DVE allows either alone).
  c.push_back({"tta_both_sources_psum", TTA,
               [](Word& w) {
                 set_addr(w, "src0_mem_pattern", psum_addr(2, 0x100));
                 set_addr(w, "src1_mem_pattern", psum_addr(5, 0x200));
               },
               "tensor_tensor_src_psum_check", "src1_mem_pattern", "both in PSUM",
               "must not both be in PSUM"});
  c.push_back({"ttb_both_sources_psum", TTB,
               [](Word& w) {
                 set_addr(w, "src0_mem_pattern", psum_addr(1, 0x80));
                 set_addr(w, "src1_mem_pattern", psum_addr(1, 0x80));
               },
               "tensor_tensor_src_psum_check", "src1_mem_pattern", "0x02008080"});
  // The two count clauses (shapes may differ; the counts must agree).
  c.push_back({"tta_src1_count", TTA, [](Word& w) { set_num(w, "src1_mem_pattern", 1, 3); },
               "s3s3d3_tt_src_element_cnt_check", "src1_mem_pattern",
               "count(src1) = 24, count(src0) = 16", "count(src0) must equal count(src1)"});
  c.push_back({"tta_dst_count", TTA, [](Word& w) { set_num(w, "dst_mem_pattern", 0, 12); },
               "s3s3d3_tt_dst_element_cnt_check", "dst_mem_pattern",
               "count(dst) = 12, count(src0) = 16", "count(src0) must equal count(dst)"});
  c.push_back({"ttb_src1_count", TTB, [](Word& w) { set_num(w, "src1_mem_pattern", 2, 2); },
               "s3s3d3_tt_src_element_cnt_check", "src1_mem_pattern",
               "count(src1) = 16, count(src0) = 8"});
  c.push_back({"ttb_dst_count", TTB, [](Word& w) { set_num(w, "dst_mem_pattern", 0, 9); },
               "s3s3d3_tt_dst_element_cnt_check", "dst_mem_pattern",
               "count(dst) = 9, count(src0) = 8"});
  // Waived for the pair with a register-mode address, evaluated for the other pair.
  c.push_back({"tta_dst_count_with_register_src1", TTA,
               [](Word& w) {
                 set_addr(w, "src1_mem_pattern", reg_addr(7));
                 set_num(w, "dst_mem_pattern", 0, 12);
               },
               "s3s3d3_tt_dst_element_cnt_check", "dst_mem_pattern", "count(dst) = 12"});
  c.push_back({"tta_src1_count_with_register_dst", TTA,
               [](Word& w) {
                 set_addr(w, "dst_mem_pattern", reg_addr(7));
                 set_num(w, "src1_mem_pattern", 0, 4);
               },
               "s3s3d3_tt_src_element_cnt_check", "src1_mem_pattern", "count(src1) = 8"});
  return c;
}

}  // namespace gpsimd::validate_cases

// ---- what the family's hand-checked effects share ----

namespace {

// ---- TensorTensorArith / TensorTensorBitvec (SPEC §4.14, §3.8, §3.9) -------------------

namespace tensor_tensor {
using gpsimd::Engine;
}  // namespace tensor_tensor

namespace tensor_tensor {
constexpr std::optional<Engine> kDefault = std::nullopt, kDve = Engine::DVE, kPool = Engine::POOL,
                                kAct = Engine::ACT;
}  // namespace tensor_tensor

namespace tensor_tensor {
constexpr uint8_t kArith = rm::kTensorTensorArith, kBitvec = rm::kTensorTensorBitvec;
}  // namespace tensor_tensor

namespace tensor_tensor {
// n elements per operand, one channel: src0 at SBUF partition 0 offset 0x100, src1 at
// 0x200, dst at 0x300, each a dense 1 x n x 1 walk.
inline rm::TensorTensorWord tt_word(uint8_t opcode, uint8_t lo, uint8_t hi, uint8_t out, uint8_t o,
                                    unsigned n) {
  rm::TensorTensorWord x;
  x.opcode = opcode;
  x.lo = lo;
  x.hi = hi;
  x.out = out;
  x.op = o;
  x.src0 = tensor3(rm::sbuf_addr(0, 0x100), 1, n, static_cast<int>(n), 1, static_cast<int>(n), 1);
  x.src1 = tensor3(rm::sbuf_addr(0, 0x200), 1, n, static_cast<int>(n), 1, static_cast<int>(n), 1);
  x.dst = tensor3(rm::sbuf_addr(0, 0x300), 1, n, static_cast<int>(n), 1, static_cast<int>(n), 1);
  return x;
}
}  // namespace tensor_tensor

namespace tensor_tensor {
inline ExecOptions on(std::optional<Engine> e) {
  return ExecOptions{.engine = e};
}
}  // namespace tensor_tensor

namespace tensor_tensor {
// Runs op(a, b) element-wise on `engine` and returns the destination elements.
inline V elems(std::optional<Engine> e, uint8_t opcode, uint8_t lo, uint8_t hi, uint8_t out,
               uint8_t o, const V& a, const V& b, Generation g = Generation::V4) {
  Machine& m = fresh(g);
  poke(m, SBUF, 0, 0x100, rm::size_of(lo), a);
  poke(m, SBUF, 0, 0x200, rm::size_of(hi), b);
  const auto n = static_cast<unsigned>(a.size());
  const ExecResult r = run(m, tt_word(opcode, lo, hi, out, o, n).encode(), on(e));
  EXPECT_TRUE(r.ok()) << r.message();
  return peek(m, SBUF, 0, 0x300, rm::size_of(out), n);
}
}  // namespace tensor_tensor

namespace tensor_tensor {
// One element of 0x41.
inline uint32_t arith(std::optional<Engine> e, uint8_t lo, uint8_t hi, uint8_t out, uint8_t o,
                      uint32_t a, uint32_t b, Generation g = Generation::V4) {
  return elems(e, kArith, lo, hi, out, o, {a}, {b}, g)[0];
}
}  // namespace tensor_tensor

namespace tensor_tensor {
inline uint32_t fp32(uint8_t o, uint32_t a, uint32_t b) {
  return arith(kDve, dt::FP32, dt::FP32, dt::FP32, o, a, b);
}
}  // namespace tensor_tensor

namespace tensor_tensor {
// Executes a word that must fault `kind` (or be invalid), changing nothing, on `engine`.
inline void expect_fault(Machine& m, const Word& w, FaultKind kind, std::optional<Engine> e) {
  expect_unchanged(m, w, Status::Faulted, kind, on(e));
}
}  // namespace tensor_tensor

namespace tensor_tensor {
constexpr uint32_t kOne = 0x3F800000u, kTwo = 0x40000000u, kThree = 0x40400000u,
                   kMinusThree = 0xC0400000u, kNaN = 0x7FC00000u;
}  // namespace tensor_tensor

}  // namespace
#endif
