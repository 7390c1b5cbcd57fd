// AffineSelect (0x92, S2D2_TS_AS): per channel c and ordinal j, keep the source element
// (converted to the output dtype) where the ramp base + Σ i[d]*step[d] + c*channel_multiplier
// compares against 0 as fill_mode says, and write the fill register's value elsewhere
// (SPEC §4.5). NKI's causal masks are this instruction.
#include <array>
#include <vector>

#include "gpsimd/format.h"
#include "kernels/affine.h"
#include "kernels/kernels.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kAffineSelect;
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kDtypes = field_of(F, "in_out_dtype");
constexpr FieldDef kFillMode = field_of(F, "fill_mode");
constexpr FieldDef kFillReg = field_of(F, "fill_reg");
constexpr FieldDef kMask = field_of(F, "mask_pattern");
constexpr FieldDef kSrc = field_of(F, "src_mem_pattern");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");
constexpr FieldDef kMultiplier = field_of(F, "channel_multiplier");

// SPEC §4.5, §8.5: every source element is read, selected or not (the fill comes from a
// register); the destination walk is written.
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kSrc, AccessKind::Read, dtype_low(kDtypes)),
    tensor_operand(kDst, AccessKind::Write, dtype_high(kDtypes)),
};
enum : unsigned { kSrcOp, kDstOp };
std::optional<Fault> shape_checks(const Word& w, const ResolvedOperands&);
constexpr Operands kOperands{kOperandList, kChannels, 1, shape_checks};

uint8_t in_dtype(const Word& w) {
  return w[kDtypes.offset] & 0xf;
}
uint8_t out_dtype(const Word& w) {
  return static_cast<uint8_t>(w[kDtypes.offset] >> 4);
}

// The text of the three counts, naming the one that disagrees with the other two.
struct CountMismatch {
  std::string_view field;
  std::string what;
};
CountMismatch count_mismatch(uint64_t mask, uint64_t src, uint64_t dst) {
  const std::string counts =
      fmt::format("count(mask) = {}, count(src) = {}, count(dst) = {}", mask, src, dst);
  if (src == dst) return {kMask.name, counts + ": mask disagrees with src and dst"};
  if (mask == dst) return {kSrc.name, counts + ": src disagrees with mask and dst"};
  if (mask == src) return {kDst.name, counts + ": dst disagrees with mask and src"};
  return {kMask.name, counts + ": all three disagree"};
}

// Validation's count clause, waived for register-mode addresses, faults at execution
// (shape-mismatch).
std::optional<Fault> shape_checks(const Word& w, const ResolvedOperands&) {
  const TensorDesc st = load_tensor(w, kSrc), dt = load_tensor(w, kDst);
  const TensorDesc mask = load_tensor(w, kMask);
  if ((st.register_mode() || dt.register_mode()) &&
      (st.count() != mask.count() || dt.count() != mask.count()))
    return Fault{FaultKind::ShapeMismatch,
                 count_mismatch(mask.count(), st.count(), dt.count()).what};
  return std::nullopt;
}

}  // namespace

void validate_affine_select(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, n);

  const uint8_t lo = in_dtype(w), hi = out_dtype(w);
  const TensorDesc src = load_tensor(w, kSrc), dst = load_tensor(w, kDst);
  check_tensor_operands(kOperands, w, g, *opts.engine, d);

  // s2d2_ts_as_valid_elem_count: the mask's num_elem always; the three counts unless
  // src or dst is register mode (then at execution, shape-mismatch).
  const TensorDesc mask = load_tensor(w, kMask);
  for (unsigned k = 0; k < kMaxDims; ++k)
    if (mask.num[k] == 0)
      d.fail("s2d2_ts_as_valid_elem_count", kMask.name, fmt::format("num_elem[{}] = 0", k),
             "every mask num_elem must be >= 1");
  if (!src.register_mode() && !dst.register_mode() &&
      (src.count() != mask.count() || dst.count() != mask.count())) {
    const CountMismatch m = count_mismatch(mask.count(), src.count(), dst.count());
    d.fail("s2d2_ts_as_valid_elem_count", m.field, m.what,
           "count(src), count(dst) and count(mask) must be equal");
  }

  check_valid_dtype(d, "s2d2_ts_as_valid_dtypes", "in_out_dtype (input, low nibble)", lo, false);
  check_valid_dtype(d, "s2d2_ts_as_valid_dtypes", "in_out_dtype (output, high nibble)", hi, true);
  check_one_of(d, "is_valid_enum", kFillMode.name, w[kFillMode.offset], {0, 1, 2, 3},
               "an AFFINE_SELECT_CMP: GT (0), GE (1), EQ (2) or NE (3)");
  if (w[kFillReg.offset] >= kRegisters)
    d.fail("is_valid_register_read", kFillReg.name, std::to_string(w[kFillReg.offset]),
           fmt::format("must be a register id < {}", kRegisters));
}

std::optional<Fault> execute_affine_select(const Word& w, const Machine& m,
                                           const ResolvedOperands& ops, Writer& out,
                                           const ExecEnv& env) {
  const bool fast = env.fast;
  const unsigned n = w[kChannels.offset];
  const uint8_t lo = in_dtype(w), hi = out_dtype(w);
  const unsigned in_size = *dtype_size(lo), out_size = *dtype_size(hi);
  const TensorDesc st = load_tensor(w, kSrc);
  const TensorDesc mask = load_tensor(w, kMask);

  const Operand& src = ops.tensor(kSrcOp);
  const Operand& dst = ops.tensor(kDstOp);
  const uint8_t mode = w[kFillMode.offset];
  const uint32_t fill = from_fp32(static_cast<Dtype>(hi), m.registers[w[kFillReg.offset]]);
  const auto mult = static_cast<int32_t>(load_u32(w, kMultiplier.offset));
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());

  // The reference, one channel: gather the source in ordinal order, select against the
  // ramp, then store along the destination walk (the later ordinal wins).
  auto reference_channel = [&](unsigned c, uint8_t* bytes, std::vector<uint32_t>& y) {
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    y.resize(st.count());
    src.walk.for_each([&](uint64_t j, uint32_t off) { y[j] = load_elem(in + off, in_size); });
    Ramp::of(mask, mult, c).for_each([&](uint64_t j, int32_t v) {
      y[j] = model::affine_select_pred(mode, v)
                 ? convert(y[j], static_cast<Dtype>(lo), static_cast<Dtype>(hi))
                 : fill;
    });
    dwalk.for_each([&](uint64_t j, uint32_t off) { store_elem(bytes + off, out_size, y[j]); });
  };

  if (!fast) {
    std::vector<uint32_t> y;
    for (unsigned c = 0; c < n; ++c) reference_channel(c, dst_bytes[c], y);
    return std::nullopt;
  }
  kernels::for_channels(n, uint64_t{n} * st.count() * (in_size + out_size), [&](unsigned c) {
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    if (kernels::affine_select_channel(in, src.walk, static_cast<Dtype>(lo),
                                       Ramp::of(mask, mult, c), mode, fill, dst_bytes[c], dwalk,
                                       static_cast<Dtype>(hi)))
      return;
    thread_local std::vector<uint32_t> y;
    reference_channel(c, dst_bytes[c], y);
  });
  return std::nullopt;
}

namespace {

void explain_affine_select(const Decoded& d, const Machine& m, Explainer& x) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t pair = d.integer("in_out_dtype");
  const uint64_t din = pair & 0xf, dout = pair >> 4;
  const auto mult = static_cast<int32_t>(u32(d, "channel_multiplier"));
  const unsigned reg = u32(d, "fill_reg");
  const uint8_t mode = static_cast<uint8_t>(d.integer("fill_mode"));
  static constexpr std::string_view kCmp[] = {"> 0", ">= 0", "== 0", "!= 0"};
  x.line("channels", channels_text(n));
  x.line("reads",
         tensor_text("reads", row(d, "src_mem_pattern"), d.tensor("src_mem_pattern"), din, n, m));
  const uint32_t fill = from_fp32(static_cast<Dtype>(dout), m.registers[reg]);
  x.line("register",
         fmt::format("fill_reg = reg({}) = {:#010x} (FP32 {}), written as {} "
                     "bits {:#x}",
                     reg, m.registers[reg], format_fp32(m.registers[reg]), dtype_str(dout), fill));
  x.line("ramp", "mask_pattern: m = " + ramp_text(d.tensor("mask_pattern"), mult));
  x.line("writes",
         tensor_text("writes", row(d, "dst_mem_pattern"), d.tensor("dst_mem_pattern"), dout, n, m));
  const bool ints = is_int_dtype(static_cast<Dtype>(din)) || is_int_dtype(static_cast<Dtype>(dout));
  const std::string conv =
      din == dout ? fmt::format("copied bit for bit ({})", dtype_str(din))
                  : fmt::format("converted from {} to {} through FP32 (round to nearest even{})",
                                dtype_str(din), dtype_str(dout),
                                ints ? "; integer results saturate, NaN becomes 0" : "");
  x.line("effect", fmt::format("pairs the ramp, the source and the destination by ordinal j: where "
                               "m {} ({}) the source element is {}; elsewhere the destination gets "
                               "the fill value.",
                               kCmp[mode & 3], affine_select_cmp_name(mode).value_or("?"), conv));
}

Word sample_affine_select(unsigned p) {
  Word w = header_word(Opcode::AffineSelect);
  put_u8(w, field_of(F, "num_active_channels"), 1);
  put_u8(w, field_of(F, "in_out_dtype"), 0xaa);  // FP32 -> FP32, fill_mode GT
  TensorDesc mask = sample_tensor(4, p, 0, 16);  // m = 8 - j: keeps ordinals 0..7
  mask.addr = 8;
  mask.step = {-1, 0, 0, 0};
  put_tensor(w, field_of(F, "mask_pattern"), mask);
  put_tensor(w, field_of(F, "src_mem_pattern"), sample_tensor(2, p, 0, 16));
  put_tensor(w, field_of(F, "dst_mem_pattern"), sample_tensor(2, p, 256, 16));
  return w;
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kAffineSelectOps = {
    .validate = detail::validate_affine_select,
    .execute = detail::execute_affine_select,
    .explain = detail::explain_affine_select,
    .sample = detail::sample_affine_select,
    .sample_label = "AffineSelect fp32",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
