// MatchValueLoad (0x6d, S2_BN): per channel, load eight source elements as FP32 into the
// match values of lane src partition + c, walk ordinal k into slot 7 - k, and re-arm the
// lane (no slot matched, every index 0xFFFFFFFF). Writes no memory (SPEC §4.7).
#include <array>
#include <cstring>
#include <vector>

#include "kernels/convert.h"
#include "kernels/walk_cursor.h"
#include "ops/explain.h"
#include "ops/operands.h"
#include "ops/search.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kMatchValueLoad;
constexpr FieldDef kReserved0 = field_of(F, "reserved0");
constexpr FieldDef kSrc = field_of(F, "src_mem_pattern");
constexpr FieldDef kImm1 = field_of(F, "imm1");
constexpr FieldDef kDtype = field_of(F, "dtype");
constexpr FieldDef kReserved1 = field_of(F, "reserved1");
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kReserved2 = field_of(F, "reserved2");
constexpr FieldDef kImm0Ptr = field_of(F, "imm0_ptr");
constexpr FieldDef kImm0Src = field_of(F, "imm0_src");
constexpr FieldDef kReserved3 = field_of(F, "reserved3");

// SPEC §4.7, §8.5: the source walk is read, the source partitions' search lanes written.
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kSrc, AccessKind::Read, dtype_byte(kDtype)),
    lanes_of(0, AccessKind::Write),
};
enum : unsigned { kSrcOp };
constexpr Operands kOperands{kOperandList, kChannels};

}  // namespace

void validate_match_value_load(const Word& w, Generation g, const ValidateOptions& opts,
                               DiagSink& d) {
  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, n);
  const uint8_t dtype = w[kDtype.offset];
  check_valid_dtype(d, "is_valid_dtype", kDtype.name, dtype, false);
  const TensorDesc src = load_tensor(w, kSrc);
  check_tensor_operands(kOperands, w, g, *opts.engine, d);
  if (search_count_evaluated(src, dtype) && src.count() != 8)
    d.fail("has_match_value_load_src_element_cnt", kSrc.name,
           fmt::format("count = {} ({})", src.count(), tensor_text(src)),
           "num_elem[0] * num_elem[1] must be 8");
  for (const FieldDef& f :
       {kReserved0, kImm1, kReserved1, kReserved2, kImm0Ptr, kImm0Src, kReserved3})
    check_reserved(d, "s2_bn_reserved_zero", w, f);
}

std::optional<Fault> execute_match_value_load(const Word& w, const Machine& m,
                                              const ResolvedOperands& ops, Writer& out,
                                              const ExecEnv& env) {
  const bool fast = env.fast;
  const unsigned n = w[kChannels.offset];
  const auto dtype = static_cast<Dtype>(w[kDtype.offset]);
  const unsigned size = *dtype_size(dtype);
  const Operand& src = ops.tensor(kSrcOp);
  // The fast path widens the float elements of every channel with one SIMD call.
  thread_local std::vector<uint8_t> raw;
  thread_local std::vector<uint32_t> widened;
  const bool batch = fast;
  if (batch) {
    raw.resize(std::size_t{n} * 8 * size);
    widened.resize(std::size_t{n} * 8);
    const kernels::Rows rows = kernels::Rows::of(src.walk);
    for (unsigned c = 0; c < n; ++c) {
      const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
      uint8_t* o = raw.data() + std::size_t{c} * 8 * size;
      if (rows.dense())
        std::memcpy(o, in + rows.start, 8 * size);
      else
        src.walk.for_each(
            [&](uint64_t k, uint32_t off) { std::memcpy(o + k * size, in + off, size); });
    }
    kernels::simd::to_fp32(dtype, raw.data(), std::size_t{n} * 8, widened.data());
  }
  for (unsigned c = 0; c < n; ++c) {
    const unsigned lane = src.partition(c);
    const uint8_t* in = m.partition(src.loc.space, lane).data();
    MatchLane state;  // re-armed: no slot matched, every index 0xFFFFFFFF
    if (batch) {
      for (unsigned k = 0; k < 8; ++k)
        state.mv[model::match_value_slot(k)] = widened[std::size_t{c} * 8 + k];
    } else {
      src.walk.for_each([&](uint64_t k, uint32_t off) {
        state.mv[model::match_value_slot(static_cast<unsigned>(k))] =
            to_fp32(dtype, load_elem(in + off, size));
      });
    }
    out.set_match_lane(lane, state);
  }
  return std::nullopt;
}

namespace {

void explain_match_value_load(const Decoded& d, const Machine& m, Explainer& x) {
  const unsigned n = u32(d, "num_active_channels");
  const TensorDesc& src = d.tensor("src_mem_pattern");
  x.line("channels", channels_text(n));
  x.line("reads", tensor_text("reads", row(d, "src_mem_pattern"), src, d.integer("dtype"), n, m));
  x.line("writes", lanes_text(src, n, m) + "; no memory");
  x.line("effect",
         "source ordinal k, converted to FP32, becomes match value mv[7 - k] (the slots "
         "load in reverse: ordinal 0 is slot 7); the lane is re-armed: no slot "
         "matched, every index 0xFFFFFFFF.");
}

Word sample_match_value_load(unsigned p) {
  Word w = header_word(Opcode::MatchValueLoad);
  put_tensor(w, field_of(F, "src_mem_pattern"), sample_tensor(2, p, 0, 8));
  put_u8(w, field_of(F, "dtype"), 0x0a);  // FP32
  put_u8(w, field_of(F, "num_active_channels"), 1);
  return w;
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kMatchValueLoadOps = {
    .validate = detail::validate_match_value_load,
    .execute = detail::execute_match_value_load,
    .explain = detail::explain_match_value_load,
    .sample = detail::sample_match_value_load,
    .sample_label = "MatchValueLoad fp32",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
