// The text of values: numbers, FP32 immediates, values of a dtype, ADDR4 words, and
// the defaults and immediate types the assembler and disassembler share (syntax.h).
#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>

#include "asm/syntax.h"
#include "common/names.h"
#include "gpsimd/asm.h"
#include "gpsimd/format.h"
#include "gpsimd/machine.h"

namespace gpsimd {
namespace asmtext {
namespace {

bool is_hex_literal(std::string_view t) {
  return t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X');
}

}  // namespace

std::optional<int64_t> parse_int(std::string_view text, int64_t lo, int64_t hi, std::string* why) {
  std::string_view t = text;
  bool neg = false;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    neg = t[0] == '-';
    t.remove_prefix(1);
  }
  int base = 10;
  if (is_hex_literal(t)) {
    base = 16;
    t.remove_prefix(2);
  }
  uint64_t mag = 0;
  auto r = std::from_chars(t.data(), t.data() + t.size(), mag, base);
  if (t.empty() || r.ptr != t.data() + t.size() || r.ec == std::errc::invalid_argument) {
    if (why) *why = fmt::format("expected an integer, got '{}'", text);
    return std::nullopt;
  }
  const bool too_big = r.ec == std::errc::result_out_of_range ||
                       mag > (neg ? uint64_t{1} << 63 : uint64_t{INT64_MAX});
  const int64_t v = neg ? static_cast<int64_t>(0 - mag) : static_cast<int64_t>(mag);
  if (too_big || v < lo || v > hi) {
    if (why) {
      *why = hi - lo > 0xffff && lo == 0
                 ? fmt::format("{} is out of range: expected 0..{:#x}", text, hi)
                 : fmt::format("{} is out of range: expected {}..{}", text, lo, hi);
    }
    return std::nullopt;
  }
  return v;
}

std::optional<uint32_t> parse_fp32(std::string_view text, std::string* why) {
  if (is_hex_literal(text)) {
    auto v = parse_int(text, 0, 0xffffffffll, why);
    if (!v) return std::nullopt;
    return static_cast<uint32_t>(*v);
  }
  std::string_view t = text;
  bool neg = false;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    neg = t[0] == '-';
    t.remove_prefix(1);
  }
  const uint32_t sign = neg ? 0x80000000u : 0u;
  if (iequals(t, "inf") || iequals(t, "infinity")) return sign | 0x7f800000u;
  if (iequals(t, "nan")) return sign | 0x7fc00000u;
  float f = 0;
  auto r = std::from_chars(t.data(), t.data() + t.size(), f, std::chars_format::general);
  if (t.empty() || r.ptr != t.data() + t.size() || r.ec == std::errc::invalid_argument ||
      !(std::isdigit(static_cast<unsigned char>(t[0])))) {
    if (why) *why = fmt::format("expected a number (decimal, inf, nan or 0x bits), got '{}'", text);
    return std::nullopt;
  }
  if (r.ec == std::errc::result_out_of_range) {
    if (why)
      *why = fmt::format("{} is outside the FP32 range (write inf, 0.0 or the bits in hex)", text);
    return std::nullopt;
  }
  return sign | bits_from_fp32(f);
}

std::optional<uint64_t> integer_default(const FieldDef& f) {
  if (!f.has_default) return std::nullopt;
  return f.default_value;
}

ImmType imm_type(const InstrDef&, const FieldDef& f) {
  switch (f.imm_text) {
    case gpsimd::ImmText::Fp32:
      return {ImmType::Fp32, {}};
    case gpsimd::ImmText::I32:
      return {ImmType::I32, {}};
    case gpsimd::ImmText::DtypeOf:
      return {ImmType::DtypeOf, f.dtype_field};
    case gpsimd::ImmText::Hex:
      return {ImmType::Hex, {}};
    case gpsimd::ImmText::U32:
      break;
  }
  return {ImmType::U32, {}};
}

const FieldDef* imm_of_src(const InstrDef& def, const FieldDef& src) {
  for (const FieldDef& f : def.fields)
    if (f.kind == FieldKind::ImmVal && f.src_field == src.name) return &f;
  return nullptr;
}

std::string format_imm(ImmType t, uint8_t dtype, uint32_t value) {
  switch (t.kind) {
    case ImmType::Fp32:
      return format_fp32(value);
    case ImmType::U32:
      return std::to_string(value);
    case ImmType::Hex:
      return fmt::format("{:#010x}", value);
    case ImmType::I32:
      return std::to_string(static_cast<int32_t>(value));
    case ImmType::DtypeOf: {
      const auto dt = static_cast<Dtype>(dtype);
      const auto size = dtype_size(dtype);
      if (!is_data_dtype(dt) || !size || (*size < 4 && (value >> (8 * *size)) != 0))
        return fmt::format("{:#010x}", value);
      return format_value(dt, value);
    }
  }
  return fmt::format("{:#010x}", value);
}

std::optional<uint32_t> parse_imm(ImmType t, uint8_t dtype, std::string_view text,
                                  std::string* why) {
  if (is_hex_literal(text)) {
    auto v = parse_int(text, 0, 0xffffffffll, why);
    if (!v) return std::nullopt;
    return static_cast<uint32_t>(*v);
  }
  switch (t.kind) {
    case ImmType::Fp32:
      return parse_fp32(text, why);
    case ImmType::Hex:
    case ImmType::U32: {
      auto v = parse_int(text, 0, 0xffffffffll, why);
      if (!v) return std::nullopt;
      return static_cast<uint32_t>(*v);
    }
    case ImmType::I32: {
      auto v = parse_int(text, INT32_MIN, INT32_MAX, why);
      if (!v) return std::nullopt;
      return static_cast<uint32_t>(*v);
    }
    case ImmType::DtypeOf: {
      const auto dt = static_cast<Dtype>(dtype);
      if (!is_data_dtype(dt)) {
        if (why) {
          auto name = dtype_name(dtype);
          *why = fmt::format(
              "a decimal value needs {} to be a dtype of at most 4 bytes, "
              "it is {}: write the bits in hex",
              t.dtype_field, name ? std::string(*name) : fmt::format("{:#x}", dtype));
        }
        return std::nullopt;
      }
      return parse_value(dt, text, why);
    }
  }
  return std::nullopt;
}

}  // namespace asmtext

std::string format_addr4(uint32_t addr) {
  if (addr >> 31) {
    if ((addr & 0x7fffff00u) == 0) return fmt::format("reg({})", addr & 0xffu);
    return fmt::format("addr({:#010x})", addr);
  }
  if (addr >= kPsumBase && addr < kPsumWindowEnd) {
    const uint32_t rel = addr - kPsumBase;
    if ((rel & 0x7fffu) < kPsumPartitionBytes)
      return fmt::format("psum[p={}, off={:#x}]", rel >> 15, rel & 0x7fffu);
    return fmt::format("addr({:#010x})", addr);
  }
  if ((addr >> 25) == 0) return fmt::format("sbuf[p={}, off={:#x}]", addr >> 18, addr & 0x3ffffu);
  return fmt::format("addr({:#010x})", addr);
}

std::optional<uint32_t> parse_value(Dtype dt, std::string_view text, std::string* why) {
  const auto size = dtype_size(dt);
  if (!size || *size > 4 || !is_data_dtype(dt)) {
    if (why) {
      auto name = dtype_name(static_cast<uint8_t>(dt));
      *why = fmt::format("dtype {} has no value format here", name ? *name : "?");
    }
    return std::nullopt;
  }
  const unsigned width = 8 * *size;
  const int64_t umax = (int64_t{1} << width) - 1;
  if (asmtext::is_hex_literal(text)) {
    auto v = asmtext::parse_int(text, 0, umax, why);
    if (!v && why)
      *why = fmt::format("{} does not fit in {} bits ({})", text, width,
                         *dtype_name(static_cast<uint8_t>(dt)));
    if (!v) return std::nullopt;
    return static_cast<uint32_t>(*v);
  }
  if (is_int_dtype(dt)) {
    const bool sgn = is_signed_int_dtype(dt);
    const int64_t lo = sgn ? -(int64_t{1} << (width - 1)) : 0;
    const int64_t hi = sgn ? (int64_t{1} << (width - 1)) - 1 : umax;
    auto v = asmtext::parse_int(text, lo, hi, why);
    if (!v) {
      const std::string_view name = *dtype_name(static_cast<uint8_t>(dt));
      if (why && why->find("out of range") != std::string::npos)
        *why = fmt::format("{} is out of range for {}: expected {}..{}", text, name, lo, hi);
      else if (why)
        *why = fmt::format("expected an integer for {} (decimal or 0x bits), got '{}'", name, text);
      return std::nullopt;
    }
    return static_cast<uint32_t>(*v) & static_cast<uint32_t>(umax);
  }
  auto bits = asmtext::parse_fp32(text, why);
  if (!bits) return std::nullopt;
  return narrow_from_fp32(dt, *bits);
}

std::string wrap_statement(std::string_view line, std::size_t width) {
  // Break points: just after a top-level ", ".
  std::vector<std::string_view> parts;
  int depth = 0;
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '"') quoted = !quoted;
    if (quoted) continue;
    if (c == '[' || c == '(') ++depth;
    if (c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0 && i + 1 < line.size() && line[i + 1] == ' ') {
      parts.push_back(line.substr(start, i + 1 - start));
      start = i + 2;
    }
  }
  parts.push_back(line.substr(start));
  std::string out;
  std::size_t col = 0;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    if (k == 0) {
      out += parts[k];
      col = parts[k].size();
    } else if (col + 1 + parts[k].size() > width) {
      out += "\n    ";
      out += parts[k];
      col = 4 + parts[k].size();
    } else {
      out += ' ';
      out += parts[k];
      col += 1 + parts[k].size();
    }
  }
  return out;
}

}  // namespace gpsimd
