// TensorScalarCacheCumulative's fast path (SPEC §4.24): see cumulative.h.
#include "kernels/cumulative.h"

#include <bit>
#include <cstring>

#include "alu/eval.h"
#include "gpsimd/alu.h"
#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "kernels/walk_cursor.h"

namespace gpsimd::kernels {
namespace {

constexpr uint8_t kBypass = static_cast<uint8_t>(AluOp::BYPASS);
constexpr uint8_t kAdd = static_cast<uint8_t>(AluOp::ADD);
constexpr uint8_t kSubtract = static_cast<uint8_t>(AluOp::SUBTRACT);
constexpr uint8_t kMult = static_cast<uint8_t>(AluOp::MULT);
constexpr uint8_t kMax = static_cast<uint8_t>(AluOp::MAX);
constexpr uint8_t kMin = static_cast<uint8_t>(AluOp::MIN);
constexpr uint8_t kAny = 0xff;  // any other op: alu::eval_fp32

// SPEC §3.8.2: every NaN an op produces is the default NaN.
inline uint32_t canonical(float v) {
  const uint32_t b = std::bit_cast<uint32_t>(v);
  return (b & 0x7fffffffu) > 0x7f800000u ? model::kAluNaN : b;
}

// op(a, b) on FP32 bits: ADD, SUBTRACT and MULT inline, any other op as the ALU evaluates it.
inline float f(uint32_t bits) {
  return std::bit_cast<float>(bits);
}
inline bool is_nan(uint32_t bits) {
  return (bits & 0x7fffffffu) > 0x7f800000u;
}
// model::fp32_greater's order without a branch on the sign: a > b exactly when
// order_key(a) > order_key(b) (negatives inverted, positives above them).
inline uint32_t order_key(uint32_t bits) {
  return bits ^ (static_cast<uint32_t>(static_cast<int32_t>(bits) >> 31) | 0x80000000u);
}
template <uint8_t Op>
inline uint32_t apply(uint8_t op, uint32_t a, uint32_t b) {
  if constexpr (Op == kBypass) {
    return a;
  } else if constexpr (Op == kAdd) {
    return canonical(f(a) + f(b));
  } else if constexpr (Op == kSubtract) {
    return canonical(f(a) - f(b));
  } else if constexpr (Op == kMult) {
    return canonical(f(a) * f(b));
  } else if constexpr (Op == kMax) {  // maxNum, -0.0 < +0.0 (SPEC §3.8.2)
    if (is_nan(a) || is_nan(b)) [[unlikely]]
      return is_nan(a) ? (is_nan(b) ? model::kAluNaN : b) : a;
    return order_key(b) > order_key(a) ? b : a;
  } else if constexpr (Op == kMin) {
    if (is_nan(a) || is_nan(b)) [[unlikely]]
      return is_nan(a) ? (is_nan(b) ? model::kAluNaN : b) : a;
    return order_key(a) > order_key(b) ? b : a;
  } else {
    return alu::eval_fp32(op, a, b);
  }
}

// Little-endian elements of 1, 2 or 4 bytes.
inline uint32_t load32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint32_t load_elem(const uint8_t* p, unsigned size) {
  return size == 4 ? load32(p) : size == 2 ? uint32_t{p[0]} | uint32_t{p[1]} << 8 : p[0];
}
inline void store_elem(uint8_t* p, unsigned size, uint32_t v) {
  for (unsigned i = 0; i < size; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

template <uint8_t Op0, uint8_t Op1>
uint32_t run(uint8_t op0, uint8_t op1, Dtype in, Dtype out, uint32_t s0, uint32_t reg,
             const uint8_t* src, uint8_t* dst, uint64_t n) {
  const unsigned isz = *dtype_size(static_cast<uint8_t>(in));
  const unsigned osz = *dtype_size(static_cast<uint8_t>(out));
  const bool fp32_in = in == Dtype::FP32;
  const bool fp32_out = out == Dtype::FP32 || out == Dtype::FP32R;
  for (uint64_t j = 0; j < n; ++j) {
    const uint32_t x = fp32_in ? load32(src + 4 * j) : to_fp32(in, load_elem(src + isz * j, isz));
    reg = apply<Op1>(op1, apply<Op0>(op0, x, s0), reg);  // the element is op1's left operand
    if (fp32_out)
      std::memcpy(dst + 4 * j, &reg, 4);
    else
      store_elem(dst + osz * j, osz, from_fp32(out, reg));
  }
  return reg;
}

template <uint8_t Op0>
uint32_t run_op1(uint8_t op0, uint8_t op1, Dtype in, Dtype out, uint32_t s0, uint32_t reg,
                 const uint8_t* src, uint8_t* dst, uint64_t n) {
  switch (op1) {
    case kAdd:
      return run<Op0, kAdd>(op0, op1, in, out, s0, reg, src, dst, n);
    case kSubtract:
      return run<Op0, kSubtract>(op0, op1, in, out, s0, reg, src, dst, n);
    case kMult:
      return run<Op0, kMult>(op0, op1, in, out, s0, reg, src, dst, n);
    case kMax:
      return run<Op0, kMax>(op0, op1, in, out, s0, reg, src, dst, n);
    case kMin:
      return run<Op0, kMin>(op0, op1, in, out, s0, reg, src, dst, n);
    default:
      return run<Op0, kAny>(op0, op1, in, out, s0, reg, src, dst, n);
  }
}

// kLanes channels at once, FP32 in and out, each its own chain: the chains interleave, so
// one channel's op latency hides behind the others'.
template <uint8_t Op0, uint8_t Op1>
void run_lanes(uint8_t op0, uint8_t op1, const uint32_t* s0, uint32_t* reg,
               const uint8_t* const* src, uint8_t* const* dst, uint64_t n) {
  uint32_t r[kLanes], s[kLanes];
  for (unsigned k = 0; k < kLanes; ++k) r[k] = reg[k], s[k] = s0[k];
  for (uint64_t j = 0; j < n; ++j)
    for (unsigned k = 0; k < kLanes; ++k) {
      r[k] = apply<Op1>(op1, apply<Op0>(op0, load32(src[k] + 4 * j), s[k]), r[k]);
      std::memcpy(dst[k] + 4 * j, &r[k], 4);
    }
  for (unsigned k = 0; k < kLanes; ++k) reg[k] = r[k];
}

template <uint8_t Op0>
void run_lanes_op1(uint8_t op0, uint8_t op1, const uint32_t* s0, uint32_t* reg,
                   const uint8_t* const* src, uint8_t* const* dst, uint64_t n) {
  switch (op1) {
    case kAdd:
      return run_lanes<Op0, kAdd>(op0, op1, s0, reg, src, dst, n);
    case kSubtract:
      return run_lanes<Op0, kSubtract>(op0, op1, s0, reg, src, dst, n);
    case kMult:
      return run_lanes<Op0, kMult>(op0, op1, s0, reg, src, dst, n);
    case kMax:
      return run_lanes<Op0, kMax>(op0, op1, s0, reg, src, dst, n);
    case kMin:
      return run_lanes<Op0, kMin>(op0, op1, s0, reg, src, dst, n);
    default:
      return run_lanes<Op0, kAny>(op0, op1, s0, reg, src, dst, n);
  }
}

}  // namespace

bool cumulative_lanes(uint8_t op0, uint8_t op1, Dtype in, Dtype out, const uint32_t* s0,
                      uint32_t* reg, const uint8_t* const* partitions, const Walk& src,
                      uint8_t* const* dst, const Walk& dst_walk) {
  const Rows sr = Rows::of(src), dr = Rows::of(dst_walk);
  if (!sr.dense() || !dr.dense() || in != Dtype::FP32 ||
      (out != Dtype::FP32 && out != Dtype::FP32R))
    return false;
  const uint8_t* s[kLanes];
  uint8_t* d[kLanes];
  for (unsigned k = 0; k < kLanes; ++k) s[k] = partitions[k] + sr.start, d[k] = dst[k] + dr.start;
  const uint64_t n = sr.count();
  switch (op0) {
    case kBypass:
      run_lanes_op1<kBypass>(op0, op1, s0, reg, s, d, n);
      break;
    case kAdd:
      run_lanes_op1<kAdd>(op0, op1, s0, reg, s, d, n);
      break;
    case kMult:
      run_lanes_op1<kMult>(op0, op1, s0, reg, s, d, n);
      break;
    default:
      run_lanes_op1<kAny>(op0, op1, s0, reg, s, d, n);
      break;
  }
  return true;
}

std::optional<uint32_t> cumulative_channel(uint8_t op0, uint8_t op1, Dtype in, Dtype out,
                                           uint32_t s0, uint32_t seed, const uint8_t* partition,
                                           const Walk& src, uint8_t* dst, const Walk& dst_walk) {
  const Rows sr = Rows::of(src), dr = Rows::of(dst_walk);
  if (!sr.dense() || !dr.dense()) return std::nullopt;
  const uint8_t* s = partition + sr.start;
  uint8_t* d = dst + dr.start;
  const uint64_t n = sr.count();
  switch (op0) {
    case kBypass:
      return run_op1<kBypass>(op0, op1, in, out, s0, seed, s, d, n);
    case kAdd:
      return run_op1<kAdd>(op0, op1, in, out, s0, seed, s, d, n);
    case kMult:
      return run_op1<kMult>(op0, op1, in, out, s0, seed, s, d, n);
    default:
      return run_op1<kAny>(op0, op1, in, out, s0, seed, s, d, n);
  }
}

}  // namespace gpsimd::kernels
