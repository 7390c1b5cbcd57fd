// RangeSelect's index and comparison (SPEC §4.1), for the reference and the fast path.
#include "atoms/range_select.h"

#include <cmath>

#include "gpsimd/types.h"

namespace gpsimd::detail {

// fp32(base + j): the exact sum rounded once to FP32, nearest-even. The double sum can
// itself be rounded (a subnormal base plus a large j); TwoSum recovers the exact error,
// which only matters when the double lands exactly halfway between two floats.
float range_select_index(float base, uint32_t j) {
  const double a = base, b = j;
  const double s = a + b;
  const double bb = s - a;
  const double err = (a - (s - bb)) + (b - bb);
  float f = static_cast<float>(s);
  if (err != 0.0 && static_cast<double>(f) != s) {
    const float other = std::nextafter(f, s < static_cast<double>(f) ? -INFINITY : INFINITY);
    const double mid = (static_cast<double>(f) + static_cast<double>(other)) / 2;
    if (mid == s) {
      // s is a tie in double only: the exact sum is on err's side of it.
      f = (err > 0) == (static_cast<double>(other) > s) ? other : f;
    }
  }
  return f;
}

bool range_select_compare(uint8_t op, float a, float b) {
  switch (static_cast<AluOp>(op)) {
    case AluOp::IS_EQ:
      return a == b;
    case AluOp::IS_GT:
      return a > b;
    case AluOp::IS_GE:
      return a >= b;
    case AluOp::IS_LE:
      return a <= b;
    case AluOp::IS_LT:
      return a < b;
    default:
      return false;  // validated: never reached
  }
}

}  // namespace gpsimd::detail
