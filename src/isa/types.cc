// Names of the enumerations of SPEC §3.3, and the per-generation geometry of SPEC §2.
#include "gpsimd/types.h"

#include <fmt/format.h>

#include "common/names.h"
#include "gpsimd/alu.h"

namespace gpsimd {
namespace {

// The fields' names by their codes: a code has one name, and text may write it in any case.
using NamedCode = Named<uint8_t>;

template <std::size_t N>
std::optional<std::string_view> code_name(const NamedCode (&t)[N], uint8_t code) {
  if (const NamedCode* r = find_row(t, code)) return r->name;
  return std::nullopt;
}
template <std::size_t N>
std::optional<uint8_t> code_of(const NamedCode (&t)[N], std::string_view name) {
  for (const NamedCode& e : t)
    if (iequals(e.name, name)) return e.value;
  return std::nullopt;
}

constexpr NamedCode kDtypes[] = {
    {0x0, "INVALID"}, {0x1, "UINT64"},  {0x2, "INT8"},   {0x3, "UINT8"},  {0x4, "INT16"},
    {0x5, "UINT16"},  {0x6, "BF16"},    {0x7, "FP16"},   {0x8, "INT32"},  {0x9, "UINT32"},
    {0xA, "FP32"},    {0xB, "FP32R"},   {0xC, "INT64"},  {0xD, "FP8_E3"}, {0xE, "FP8_E4"},
    {0xF, "FP8_E5"},  {0x10, "FP4_E2"}, {0x19, "CPTC1"}, {0x1A, "CPTC2"}, {0x1B, "CPTC3"},
    {0x1C, "CPTC4"},  {0x1D, "CPTC5"},  {0x1E, "CPTC6"}, {0x1F, "CPTC7"},
};
constexpr NamedCode kAccumCmds[] = {
    {0, "IDLE"}, {1, "ZERO"}, {2, "ACCUMULATE"}, {3, "ZERO_ACCUMULATE"}, {4, "LOAD_ACCUMULATE"},
};
constexpr NamedCode kImmSrcs[] = {
    {0, "INSTRUCTION_IMMEDIATE"},
    {1, "POINTER_IMMEDIATE"},
    {2, "REG_PTR_IMMEDIATE"},
};
constexpr NamedCode kRevOps[] = {{0, "NONE"}, {1, "FIRST"}, {2, "SECOND"}, {3, "BOTH"}};
constexpr NamedCode kAffineSelectCmps[] = {{0, "GT"}, {1, "GE"}, {2, "EQ"}, {3, "NE"}};
constexpr NamedCode kWaitModes[] = {{0, "NONE"}, {1, "GE"}, {2, "EQ"}};
constexpr NamedCode kUpdateModes[] = {{0, "NONE"}, {1, "SET"}, {2, "INC"}, {3, "DEC"}};

template <class E, std::size_t N>
std::optional<E> parse_as(const NamedCode (&t)[N], std::string_view s) {
  if (auto c = code_of(t, s)) return static_cast<E>(*c);
  return std::nullopt;
}

}  // namespace

namespace alu {

const OpRow* find_op(std::string_view name) {
  for (const OpRow& r : kOps)
    if (iequals(r.name, name)) return &r;
  return nullptr;
}

std::string enumerators_text(Generation g) {
  std::string ranges;
  const OpRow* first = nullptr;
  const OpRow* last = nullptr;
  auto flush = [&] {
    if (!first) return;
    ranges += fmt::format("{}{:#04x}", ranges.empty() ? "" : ", ", first->code);
    if (last != first) ranges += fmt::format("-{:#04x}", last->code);
  };
  for (const OpRow& r : kOps) {
    if (static_cast<unsigned>(g) < r.first_generation) continue;
    if (last && r.code == last->code + 1) {
      last = &r;
      continue;
    }
    flush();
    first = last = &r;
  }
  flush();
  return fmt::format("the {} ALU_OP values of {}: {}", enumerator_count(g), generation_name(g),
                     ranges);
}

}  // namespace alu

std::string_view generation_name(Generation g) {
  static constexpr Named<Generation> kNames[] = {
      {Generation::V2, "v2"},
      {Generation::V3, "v3"},
      {Generation::V4, "v4"},
      {Generation::V5, "v5"},
  };
  const Named<Generation>* r = find_row(kNames, g);
  return r ? r->name : "v?";
}

std::optional<Generation> parse_generation(std::string_view s) {
  if (!s.empty() && (s[0] == 'v' || s[0] == 'V')) s.remove_prefix(1);
  if (s.size() != 1 || s[0] < '2' || s[0] > '5') return std::nullopt;
  return static_cast<Generation>(s[0] - '0');
}

std::optional<Generation> parse_nc(std::string_view s) {
  if (auto g = parse_generation(s)) return g;
  // SPEC §1: V2 = SUNDA (Trn1/Inf2), V3 = CAYMAN (Trn2), V4 = MARIANA, V5 = MAVERICK.
  static constexpr NamedCode kNames[] = {
      {2, "trn1"},   {2, "inf2"},    {2, "sunda"},    {3, "trn2"},
      {3, "cayman"}, {4, "mariana"}, {5, "maverick"},
  };
  if (auto c = code_of(kNames, s)) return static_cast<Generation>(*c);
  return std::nullopt;
}

std::optional<std::string_view> dtype_name(uint8_t code) {
  return code_name(kDtypes, code);
}
std::optional<Dtype> parse_dtype(std::string_view s) {
  return parse_as<Dtype>(kDtypes, s);
}

bool is_float_dtype(Dtype d) {
  switch (d) {
    case Dtype::FP32:
    case Dtype::FP32R:
    case Dtype::BF16:
    case Dtype::FP16:
    case Dtype::FP8_E3:
    case Dtype::FP8_E4:
    case Dtype::FP8_E5:
      return true;
    default:
      return false;
  }
}

std::optional<std::string_view> alu_op_name(uint8_t code) {
  if (const alu::OpRow* r = alu::find_op(code)) return r->name;
  return std::nullopt;
}
std::optional<AluOp> parse_alu_op(std::string_view s) {
  if (const alu::OpRow* r = alu::find_op(s)) return static_cast<AluOp>(r->code);
  return std::nullopt;
}
std::optional<std::string_view> accum_cmd_name(uint8_t code) {
  return code_name(kAccumCmds, code);
}
std::optional<AccumCmd> parse_accum_cmd(std::string_view s) {
  return parse_as<AccumCmd>(kAccumCmds, s);
}
std::optional<std::string_view> imm_src_name(uint8_t code) {
  return code_name(kImmSrcs, code);
}
std::optional<ImmSrc> parse_imm_src(std::string_view s) {
  return parse_as<ImmSrc>(kImmSrcs, s);
}
std::optional<std::string_view> rev_ops_name(uint8_t code) {
  return code_name(kRevOps, code);
}
std::optional<RevOps> parse_rev_ops(std::string_view s) {
  return parse_as<RevOps>(kRevOps, s);
}
std::optional<std::string_view> affine_select_cmp_name(uint8_t code) {
  return code_name(kAffineSelectCmps, code);
}
std::optional<AffineSelectCmp> parse_affine_select_cmp(std::string_view s) {
  return parse_as<AffineSelectCmp>(kAffineSelectCmps, s);
}
std::optional<std::string_view> wait_mode_name(uint8_t code) {
  return code_name(kWaitModes, code);
}
std::optional<WaitMode> parse_wait_mode(std::string_view s) {
  return parse_as<WaitMode>(kWaitModes, s);
}
std::optional<std::string_view> update_mode_name(uint8_t code) {
  return code_name(kUpdateModes, code);
}
std::optional<UpdateMode> parse_update_mode(std::string_view s) {
  return parse_as<UpdateMode>(kUpdateModes, s);
}

}  // namespace gpsimd
