// The text of values: the shortest decimal that reads back to a value's bits, for the
// assembly text, explain and the trace (on the machine floor, below everything that
// prints values).
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <string>

#include "gpsimd/format.h"

namespace gpsimd {

bool is_signed_int_dtype(Dtype dt) {
  return dt == Dtype::INT8 || dt == Dtype::INT16 || dt == Dtype::INT32;
}

std::string float_text(double v) {
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

std::string format_fp32(uint32_t bits) {
  const float f = fp32_from_bits(bits);
  if (std::isnan(f)) return fmt::format("{:#010x}", bits);
  if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
  std::string s = fmt::format("{}", f);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

bool is_data_dtype(Dtype dt) {
  return is_int_dtype(dt) || minifloat_format(dt) != nullptr || dt == Dtype::FP32 ||
         dt == Dtype::FP32R;
}

std::string format_value(Dtype dt, uint32_t bits) {
  const auto size = dtype_size(dt);
  if (!size || *size > 4 || !is_data_dtype(dt)) return fmt::format("{:#x}", bits);
  const unsigned width = 8 * *size;
  const uint32_t mask = width == 32 ? 0xffffffffu : (1u << width) - 1;
  bits &= mask;
  if (is_int_dtype(dt)) {
    if (is_signed_int_dtype(dt) && (bits >> (width - 1)))
      return std::to_string(static_cast<int64_t>(bits) - (int64_t{1} << width));
    return std::to_string(bits);
  }
  if (dt == Dtype::FP32 || dt == Dtype::FP32R) return format_fp32(bits);
  const uint32_t wide = widen_to_fp32(dt, bits);
  const float f = fp32_from_bits(wide);
  if (std::isnan(f)) return fmt::format("{:#0{}x}", bits, 2 + width / 4);
  if (std::isinf(f)) return f < 0 ? "-inf" : "inf";
  // The fewest significant digits that convert back to the same bits.
  for (int digits = 1; digits <= 9; ++digits) {
    const std::string s = fmt::format("{:.{}g}", static_cast<double>(f), digits);
    float g = 0;
    std::from_chars(s.data(), s.data() + s.size(), g);
    if (narrow_from_fp32(dt, bits_from_fp32(g)) == bits) {
      double d = 0;
      std::from_chars(s.data(), s.data() + s.size(), d);
      return float_text(d);
    }
  }
  return format_fp32(wide);
}

}  // namespace gpsimd
