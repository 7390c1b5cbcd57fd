// TensorScalarSelect (0x98, S3D3_TS_SELECT): per channel, copy the tensor src0 where an
// immediate predicate (one value, or one per channel through a pointer) differs from
// reversed_pred, and the scalar src1 elsewhere. Bits are copied, never converted
// (SPEC §4.2).
#include <array>
#include <cstring>
#include <vector>

#include "kernels/kernels.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kTensorScalarSelect;
constexpr FieldDef kReserved0 = field_of(F, "reserved0");
constexpr FieldDef kSrc0 = field_of(F, "src0_mem_pattern");
constexpr FieldDef kReversed = field_of(F, "reversed_pred");
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kDtype = field_of(F, "dtype");
constexpr FieldDef kPredDtype = field_of(F, "pred_imm_dtype");
constexpr FieldDef kReserved1 = field_of(F, "reserved1");
constexpr FieldDef kPredSrc = field_of(F, "pred_imm_src");
constexpr FieldDef kPred = field_of(F, "pred_imm");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");

// SPEC §4.2, §8.5: the source walk and both pointer immediates (by *_src) are read, the
// destination walk written.
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kSrc0, AccessKind::Read, dtype_byte(kDtype)),
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kDtype)),
    immediate_operand(F, "src1_imm", dtype_byte(kDtype)),
    immediate_operand(F, "pred_imm", dtype_byte(kPredDtype)),
};
enum : unsigned { kSrcOp, kDstOp, kScalarOp, kPredOp };
constexpr Operands kOperands{kOperandList, kChannels, 1, same_count};

}  // namespace

void validate_tensor_scalar_select(const Word& w, Generation g, const ValidateOptions& opts,
                                   DiagSink& d) {
  check_reserved(d, "s3d3_ts_select_reserved_zero", w, kReserved0);
  check_reserved(d, "s3d3_ts_select_reserved_zero", w, kReserved1);

  const unsigned n = w[kChannels.offset];
  const uint8_t dtype = w[kDtype.offset], pdtype = w[kPredDtype.offset];
  const TensorDesc src0 = load_tensor(w, kSrc0), dst = load_tensor(w, kDst);
  check_tensor_operands(kOperands, w, g, *opts.engine, d);
  if (!src0.register_mode() && !dst.register_mode() && src0.count() != dst.count())
    d.fail("same_element_count_t3d", kDst.name,
           fmt::format("{} elements (src0 has {})", dst.count(), src0.count()),
           "src0 and dst must visit the same number of elements");

  check_valid_dtype(d, "is_valid_dtype", kDtype.name, dtype, false);
  check_dtype_in(d, "is_valid_int_dtype_datapath", kPredDtype.name, pdtype, kIntDtypes);
  const auto size = dtype_size(dtype), psize = dtype_size(pdtype);
  if (size && psize && *size != *psize)
    d.fail("has_same_imm_dtype_width", kPredDtype.name,
           fmt::format("{}: {} byte(s); dtype {}: {} byte(s)", dtype_text(pdtype), *psize,
                       dtype_text(dtype), *size),
           "pred_imm_dtype must have the width of dtype");

  const uint8_t rev = w[kReversed.offset];
  check_flag(d, "has_valid_reversed_pred", kReversed.name, rev);

  const uint32_t pred = load_u32(w, kPred.offset);
  if (w[kPredSrc.offset] == static_cast<uint8_t>(ImmSrc::INSTRUCTION_IMMEDIATE) && pred > 1)
    d.fail("has_valid_pred_inst_imm_value", kPred.name, hex32(pred),
           "an instruction-immediate predicate must be 0 or 1 (whole 32-bit field)");
  check_immediate_operands(kOperands, w, g, *opts.engine, d);

  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, n);
}

std::optional<Fault> execute_tensor_scalar_select(const Word& w, const Machine& m,
                                                  const ResolvedOperands& ops, Writer& out,
                                                  const ExecEnv& env) {
  const bool fast = env.fast;
  const unsigned n = w[kChannels.offset];
  const auto dtype = static_cast<Dtype>(w[kDtype.offset]);
  const unsigned size = *dtype_size(dtype);
  const TensorDesc st = load_tensor(w, kSrc0);

  const Operand& src = ops.tensor(kSrcOp);
  const Operand& dst = ops.tensor(kDstOp);
  const Immediate& scalar = ops.immediate(kScalarOp);
  const Immediate& pred = ops.immediate(kPredOp);

  const bool reversed = w[kReversed.offset] != 0;
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());
  // The reference, one channel. A destination overlapping any source is a shadow (see
  // Writer), so later channels still see the sources as they were.
  auto reference_channel = [&](unsigned c, uint8_t* bytes, std::vector<uint8_t>& tmp) {
    const bool take_tensor = (pred.read(m, c) != 0) != reversed;
    const uint32_t s = scalar.read(m, c);
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    if (!take_tensor) {
      dwalk.for_each([&](uint64_t, uint32_t off) { store_elem(bytes + off, size, s); });
      return;
    }
    // Gather the source in ordinal order first: a dst walk may revisit bytes, and the
    // later ordinal must win with the source value of that ordinal.
    tmp.resize(st.count() * size);
    src.walk.for_each(
        [&](uint64_t j, uint32_t off) { std::memcpy(tmp.data() + j * size, in + off, size); });
    dwalk.for_each(
        [&](uint64_t j, uint32_t off) { std::memcpy(bytes + off, tmp.data() + j * size, size); });
  };

  if (!fast) {
    std::vector<uint8_t> tmp;
    for (unsigned c = 0; c < n; ++c) reference_channel(c, dst_bytes[c], tmp);
    return std::nullopt;
  }

  // Fast: the channels run in parallel when the work is large, each into its own region.
  kernels::for_channels(n, uint64_t{n} * st.count() * size * 2, [&](unsigned c) {
    const bool take_tensor = (pred.read(m, c) != 0) != reversed;
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    if (kernels::select_copy(dst_bytes[c], dwalk, in, src.walk, size, take_tensor,
                             scalar.read(m, c)))
      return;
    thread_local std::vector<uint8_t> tmp;
    reference_channel(c, dst_bytes[c], tmp);
  });
  return std::nullopt;
}

namespace {

void explain_tensor_scalar_select(const Decoded& d, const Machine& m, Explainer& x) {
  explain_operands(kOperands, d, m, x);
  const uint32_t pr = u32(d, "pred_imm");
  const bool reversed = d.integer("reversed_pred") != 0;
  std::string effect = fmt::format(
      "channel c copies src0 where its predicate is {} and writes the scalar to every element "
      "otherwise (reversed_pred = {}); bits are copied, never converted.",
      reversed ? "zero" : "nonzero", reversed ? 1 : 0);
  if (d.integer("pred_imm_src") == 0)
    effect += (pr != 0) != reversed ? " Here every channel copies src0."
                                    : " Here every channel writes the scalar.";
  x.line("effect", effect);
}

Word sample_tensor_scalar_select(unsigned p) {
  Word w = header_word(Opcode::TensorScalarSelect);
  put_tensor(w, field_of(F, "src0_mem_pattern"), sample_tensor(3, p, 0, 16));
  put_u8(w, field_of(F, "num_active_channels"), 1);
  put_u8(w, field_of(F, "dtype"), 0x0a);           // FP32
  put_u8(w, field_of(F, "pred_imm_dtype"), 0x09);  // UINT32
  put_u32(w, field_of(F, "pred_imm"), 1);          // take the tensor
  put_tensor(w, field_of(F, "dst_mem_pattern"), sample_tensor(3, p, 256, 16));
  return w;
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kTensorScalarSelectOps = {
    .validate = detail::validate_tensor_scalar_select,
    .execute = detail::execute_tensor_scalar_select,
    .explain = detail::explain_tensor_scalar_select,
    .sample = detail::sample_tensor_scalar_select,
    .sample_label = "TensorScalarSelect fp32",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
