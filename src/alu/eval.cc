// The ALU evaluator's scalar reference (SPEC §3.8.1, §3.8.2), op by op as SPEC's tables
// list them. The model's choices (NaN results, maxNum with -0 < +0, shift counts) are
// model.h's.
#include "alu/eval.h"

#include <bit>
#include <cmath>
#include <cstdlib>

#include "gpsimd/alu.h"
#include "gpsimd/model.h"
#include "gpsimd/types.h"

namespace gpsimd::alu {
namespace {

float f(uint32_t bits) {
  return std::bit_cast<float>(bits);
}
uint32_t bits_of(float x) {
  return std::bit_cast<uint32_t>(x);
}
bool is_nan(uint32_t bits) {
  return (bits & 0x7fffffffu) > 0x7f800000u;
}
// Every NaN an op produces is the default NaN [model].
uint32_t result(float x) {
  const uint32_t b = bits_of(x);
  return is_nan(b) ? model::kAluNaN : b;
}
uint32_t truth(bool t) {
  return t ? 0x3f800000u : 0u;  // 1.0 / 0.0, never all-ones
}
// maxNum / minNum [model]: a NaN operand is ignored, two NaNs give NaN, -0.0 < +0.0.
uint32_t max_num(uint32_t a, uint32_t b) {
  if (is_nan(a)) return is_nan(b) ? model::kAluNaN : b;
  if (is_nan(b)) return a;
  return model::fp32_greater(b, a) ? b : a;
}
uint32_t min_num(uint32_t a, uint32_t b) {
  if (is_nan(a)) return is_nan(b) ? model::kAluNaN : b;
  if (is_nan(b)) return a;
  return model::fp32_greater(a, b) ? b : a;
}

}  // namespace

bool fp32_path_has(uint8_t op) {
  return is_general_arith_op(op) && !is_unmodelled(op);
}

uint32_t eval_fp32(uint8_t op, uint32_t a, uint32_t b) {
  const float x = f(a), y = f(b);
  switch (static_cast<AluOp>(op)) {
    case AluOp::BYPASS:
      return a;  // all 32 bits, a NaN's payload included
    case AluOp::ADD:
      return result(x + y);
    case AluOp::SUBTRACT:
      return result(x - y);
    case AluOp::MULT:
      return result(x * y);
    case AluOp::SQUARE:
      return result(x * x);
    case AluOp::MAX:
      return max_num(a, b);
    case AluOp::MIN:
      return min_num(a, b);
    case AluOp::RE_LU:
      return max_num(a, 0u);  // so RE_LU(NaN) = RE_LU(-0.0) = +0.0
    case AluOp::IS_EQ:
      return truth(x == y);  // IEEE ordered comparisons: a NaN gives 0.0, -0.0 == +0.0
    case AluOp::IS_GT:
      return truth(x > y);
    case AluOp::IS_GE:
      return truth(x >= y);
    case AluOp::IS_LE:
      return truth(x <= y);
    case AluOp::IS_LT:
      return truth(x < y);
    case AluOp::IS_NE:
      return truth(!(x == y));  // a NaN gives 1.0
    case AluOp::LOGICAL_AND:
      return truth(x != 0.0f && y != 0.0f);  // t(x) = x != 0: +-0.0 false, NaN true
    case AluOp::LOGICAL_OR:
      return truth(x != 0.0f || y != 0.0f);
    case AluOp::LOGICAL_XOR:
      return truth((x != 0.0f) != (y != 0.0f));
    case AluOp::ABSOLUTE_DIFF:
      return result(std::fabs(x - y));  // the rounded difference, sign cleared
    case AluOp::ABSOLUTE_VALUE:
      return result(std::fabs(x));
    case AluOp::ABS_MAX:  // the signed operand of larger magnitude; a tie or a NaN gives b
      return result(std::fabs(x) > std::fabs(y) ? x : y);
    case AluOp::ABS_MIN:
      return result(std::fabs(x) < std::fabs(y) ? x : y);
    default:
      break;
  }
  std::abort();  // not an op of this datapath: the instruction checks before it evaluates
}

bool native_path_has(uint8_t op) {
  return (is_general_arith_op(op) || is_valid_int_aluop(op)) && !is_unmodelled(op);
}

uint64_t eval_native(uint8_t op, int64_t a, int64_t b) {
  // Sums, differences and products are exact modulo 2^64, which is all the caller keeps
  // of them (the result wraps to at most 32 bits); the rest are exact in int64.
  const uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  const auto abs64 = [](int64_t v) { return v < 0 ? -v : v; };
  switch (static_cast<AluOp>(op)) {
    case AluOp::BYPASS:
      return ua;
    case AluOp::ADD:
    case AluOp::ADD_INT:
      return ua + ub;
    case AluOp::SUBTRACT:
    case AluOp::SUBTRACT_INT:
      return ua - ub;
    case AluOp::MULT:
    case AluOp::MULT_INT:
    case AluOp::MULT_UINT:
      return ua * ub;
    case AluOp::SQUARE:
      return ua * ua;
    case AluOp::MAX:
    case AluOp::MAX_INT:
    case AluOp::MAX_UINT:
      return static_cast<uint64_t>(a > b ? a : b);
    case AluOp::MIN:
    case AluOp::MIN_INT:
    case AluOp::MIN_UINT:
      return static_cast<uint64_t>(a < b ? a : b);
    case AluOp::RE_LU:
      return static_cast<uint64_t>(a > 0 ? a : 0);
    case AluOp::IS_EQ:
    case AluOp::IS_EQUAL_INT:
      return a == b;  // exact values: UINT32 0xFFFFFFFF is not INT32 -1
    case AluOp::IS_NE:
    case AluOp::IS_NE_INT:
      return a != b;
    case AluOp::IS_GT:
    case AluOp::IS_GT_INT:
    case AluOp::IS_GT_UINT:
      return a > b;
    case AluOp::IS_GE:
    case AluOp::IS_GE_INT:
    case AluOp::IS_GE_UINT:
      return a >= b;
    case AluOp::IS_LE:
    case AluOp::IS_LE_INT:
    case AluOp::IS_LE_UINT:
      return a <= b;
    case AluOp::IS_LT:
    case AluOp::IS_LT_INT:
    case AluOp::IS_LT_UINT:
      return a < b;
    case AluOp::LOGICAL_AND:
      return a != 0 && b != 0;
    case AluOp::LOGICAL_OR:
      return a != 0 || b != 0;
    case AluOp::LOGICAL_XOR:
      return (a != 0) != (b != 0);
    case AluOp::ABSOLUTE_DIFF:
    case AluOp::ABS_DIFF_INT:
      return static_cast<uint64_t>(abs64(a - b));
    case AluOp::ABSOLUTE_VALUE:
      return static_cast<uint64_t>(abs64(a));
    case AluOp::ABS_MAX:
    case AluOp::ABS_MAX_INT:  // a tie gives b
      return static_cast<uint64_t>(abs64(a) > abs64(b) ? a : b);
    case AluOp::ABS_MIN:
    case AluOp::ABS_MIN_INT:
      return static_cast<uint64_t>(abs64(a) < abs64(b) ? a : b);
    default:
      break;
  }
  std::abort();
}

bool bits_path_has(uint8_t op) {
  return is_general_bitvec_op(op);
}

uint32_t eval_bits(uint8_t op, uint32_t a, uint32_t b, unsigned width) {
  const uint32_t mask = width >= 32 ? 0xffffffffu : (1u << width) - 1;
  a &= mask;
  b &= mask;
  const uint32_t k = b;  // the shift count: b as an unsigned width-bit integer [model]
  const bool sign = ((a >> (width - 1)) & 1u) != 0;
  switch (static_cast<AluOp>(op)) {
    case AluOp::BYPASS:
      return a;
    case AluOp::BITWISE_NOT:
      return ~a & mask;
    case AluOp::BITWISE_AND:
      return a & b;
    case AluOp::BITWISE_OR:
      return a | b;
    case AluOp::BITWISE_XOR:
      return a ^ b;
    case AluOp::LOGICAL_SHIFT_LEFT:
    case AluOp::ARITH_SHIFT_LEFT:
      return model::alu_shift_out(k, width) ? 0u : (a << k) & mask;
    case AluOp::LOGICAL_SHIFT_RIGHT:
      return model::alu_shift_out(k, width) ? 0u : a >> k;
    case AluOp::ARITH_SHIFT_RIGHT: {
      if (model::alu_shift_out(k, width)) return sign ? mask : 0u;  // width copies of it
      const uint32_t fill = sign && k > 0 ? mask & ~(mask >> k) : 0u;
      return (a >> k) | fill;
    }
    default:
      break;
  }
  std::abort();
}

}  // namespace gpsimd::alu
