// DveReadAccumulator (0x9b, D1_RD): per channel, the FP32 accumulator of the destination's
// partition, optionally negated, converted to the destination dtype and written as one
// element at the destination's start offset. The accumulators are not changed
// (SPEC §4.13).
#include <array>

#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kDveReadAccumulator;
constexpr FieldDef kReserved0 = field_of(F, "reserved0");
constexpr FieldDef kCount = field_of(F, "dst_element_count");
constexpr FieldDef kDtype = field_of(F, "dtype");
constexpr FieldDef kNegated = field_of(F, "negated");
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kReserved1 = field_of(F, "reserved1");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");
constexpr FieldDef kReserved2 = field_of(F, "reserved2");

// SPEC §4.13, §8.5: the destination partitions' accumulators are read, the destination
// walk written.
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kDtype)),
    accumulators_of(0, AccessKind::Read),
};
enum : unsigned { kDstOp };
constexpr Operands kOperands{kOperandList, kChannels};

constexpr DtypeSet kDtypes = {Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5, Dtype::FP16,
                              Dtype::BF16,   Dtype::FP32,   Dtype::FP32R};

}  // namespace

void validate_dve_read_accumulator(const Word& w, Generation g, const ValidateOptions& opts,
                                   DiagSink& d) {
  const uint8_t dtype = w[kDtype.offset];
  check_dtype_in(d, "dve_read_accumulator_type_check", kDtype.name, dtype, kDtypes);
  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "check_active_channels", kChannels.name, n);
  const TensorDesc dst = load_tensor(w, kDst);
  check_tensor_operands(kOperands, w, g, *opts.engine, d);
  const uint32_t count = load_u32(w, kCount.offset);
  if (count != 1)
    d.fail("read_accumulator_dst_size", kCount.name, std::to_string(count), "must be 1");
  if (dst.num[0] != 1)
    d.fail("read_accumulator_dst_size", kDst.name, tensor_text(dst), "num_elem[0] must be 1");
  check_flag(d, "d1_rd_has_valid_negated_field", kNegated.name, w[kNegated.offset]);
  check_reserved(d, "d1_rd_reserved_zero", w, kReserved0);
  check_reserved(d, "d1_rd_reserved_zero", w, kReserved1);
  check_reserved(d, "d1_rd_reserved_zero", w, kReserved2);
}

std::optional<Fault> execute_dve_read_accumulator(const Word& w, const Machine& m,
                                                  const ResolvedOperands& ops, Writer& out,
                                                  const ExecEnv&) {
  const unsigned n = w[kChannels.offset];
  const auto dtype = static_cast<Dtype>(w[kDtype.offset]);
  const unsigned size = *dtype_size(dtype);
  const Operand& dst = ops.tensor(kDstOp);
  // The accumulators are read, not memory: there is no source to note.
  const bool negated = w[kNegated.offset] != 0;
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());
  for (unsigned c = 0; c < n; ++c) {
    const uint32_t a = model::read_accumulator_value(m.accumulators[dst.partition(c)], negated);
    // One element per channel, at the start offset: the walk's first ordinal.
    store_elem(dst_bytes[c] + dwalk.start, size, from_fp32(dtype, a));
  }
  return std::nullopt;
}

namespace {

void explain_dve_read_accumulator(const Decoded& d, const Machine& m, Explainer& x) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t dt = d.integer("dtype");
  const TensorDesc& dst = d.tensor("dst_mem_pattern");
  x.line("channels", channels_text(n));
  const ResolvedAddr r = resolve_addr(dst.addr, m);
  x.line("reads", r.loc ? fmt::format("the FP32 accumulators of {} (the destination's partitions)",
                                      parts_text(r.loc->partition, n))
                        : std::string("the accumulators of the destination's partitions"));
  x.line("writes", tensor_text("writes", row(d, "dst_mem_pattern"), dst, dt, n, m));
  const bool negated = d.integer("negated") != 0;
  const bool exact =
      dt == static_cast<uint64_t>(Dtype::FP32) || dt == static_cast<uint64_t>(Dtype::FP32R);
  x.line(
      "effect",
      fmt::format("channel c writes {}accumulator (start partition + c) as {}{} at the start "
                  "offset of its partition; the accumulators are unchanged.",
                  negated ? "the negated (sign bit flipped) " : "", dtype_str(dt),
                  exact ? " (its 32 bits)" : " (rounded to nearest even; -FLT_MAX becomes -inf)"));
}

Word sample_dve_read_accumulator(unsigned p) {
  Word w = header_word(Opcode::DveReadAccumulator);
  put_u32(w, field_of(F, "dst_element_count"), 1);
  put_u8(w, field_of(F, "dtype"), 0x0a);  // FP32
  put_u8(w, field_of(F, "num_active_channels"), 1);
  put_tensor(w, field_of(F, "dst_mem_pattern"), sample_tensor(1, p, 256, 1));
  return w;
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kDveReadAccumulatorOps = {
    .validate = detail::validate_dve_read_accumulator,
    .execute = detail::execute_dve_read_accumulator,
    .explain = detail::explain_dve_read_accumulator,
    .sample = detail::sample_dve_read_accumulator,
    .sample_label = "DveReadAccumulator fp32",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
