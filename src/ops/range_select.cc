// RangeSelect (0xbc, S2D2_RS): per channel, keep each source element whose index
// base + j lies inside a two-sided range, fill the others with -FLT_MAX, convert to the
// output dtype, and optionally max-reduce the FP32 results into the partition's
// accumulator (SPEC §4.1).
#include "atoms/range_select.h"

#include <array>
#include <bit>
#include <cmath>
#include <vector>

#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "kernels/kernels.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kRangeSelect;
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kDtypes = field_of(F, "in_out_dtype");
constexpr FieldDef kReduceCmd = field_of(F, "reduce_cmd");
constexpr FieldDef kReduceOp = field_of(F, "reduce_op");
constexpr FieldDef kBase = field_of(F, "base");
constexpr FieldDef kFill = field_of(F, "fill_val");
constexpr FieldDef kSrc = field_of(F, "src_mem_pattern");
constexpr FieldDef kCompOp0 = field_of(F, "comp_op0");
constexpr FieldDef kCompOp1 = field_of(F, "comp_op1");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");
constexpr FieldDef kReserved = field_of(F, "reserved1");

constexpr uint32_t kFillBits = 0xff7fffffu;  // -FLT_MAX, the only legal fill
constexpr double kIndexLimit = 16777216.0;   // 2^24

// is_valid_fp_dtype_datapath: the float dtypes; the output also FP32R.
constexpr DtypeSet kInDtypes = {Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5,
                                Dtype::FP16,   Dtype::BF16,   Dtype::FP32};
constexpr DtypeSet kOutDtypes = {Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5, Dtype::FP16,
                                 Dtype::BF16,   Dtype::FP32,   Dtype::FP32R};

uint8_t in_dtype(const Word& w) {
  return w[kDtypes.offset] & 0xf;
}
uint8_t out_dtype(const Word& w) {
  return w[kDtypes.offset] >> 4;
}
float base_of(const Word& w) {
  return std::bit_cast<float>(load_u32(w, kBase.offset));
}

// ACCUMULATE reads and writes the source partitions' accumulators, ZERO_ACCUMULATE writes
// them, IDLE leaves them alone.
std::optional<AccessKind> accumulator_access(const Word& w) {
  switch (static_cast<AccumCmd>(w[kReduceCmd.offset])) {
    case AccumCmd::ACCUMULATE:
      return AccessKind::ReadWrite;
    case AccumCmd::ZERO_ACCUMULATE:
      return AccessKind::Write;
    default:
      return std::nullopt;
  }
}

// SPEC §4.1, §8.5: the source walk and the bound pointers are read, the destination walk
// written, and the source partitions' accumulators by the reduce command.
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kSrc, AccessKind::Read, dtype_low(kDtypes)),
    tensor_operand(kDst, AccessKind::Write, dtype_high(kDtypes)),
    immediate_operand(F, "bound0", dtype_fixed(Dtype::FP32)),
    immediate_operand(F, "bound1", dtype_fixed(Dtype::FP32)),
    accumulators_of(0, AccessKind::ReadWrite, accumulator_access),
};
enum : unsigned { kSrcOp, kDstOp, kBound0Op, kBound1Op };
std::optional<Fault> shape_checks(const Word& w, const ResolvedOperands& ops);
constexpr Operands kOperands{kOperandList, kChannels, 1, shape_checks};

// Validation's shape clauses, waived for register-mode addresses, fault at execution
// (shape-mismatch): the same count, and base + count <= 2^24.
std::optional<Fault> shape_checks(const Word& w, const ResolvedOperands& ops) {
  if (auto f = same_count(w, ops)) return f;
  const TensorDesc st = load_tensor(w, kSrc);
  const float base = base_of(w);
  // Exact: kIndexLimit - count is an integer; a double sum base + count may round down.
  if (st.register_mode() &&
      static_cast<double>(base) > kIndexLimit - static_cast<double>(st.count()))
    return Fault{FaultKind::ShapeMismatch,
                 fmt::format("base {} + {} source elements exceeds 2^24", base, st.count())};
  return std::nullopt;
}

}  // namespace

void validate_range_select(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  check_v3_or_later(d, "has_valid_nc_rs", g, "RangeSelect");

  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "check_active_channels", kChannels.name, n);

  const uint8_t din = in_dtype(w), dout = out_dtype(w);
  check_dtype_in(d, "is_valid_fp_dtype_datapath", "in_out_dtype (input, low nibble)", din,
                 kInDtypes);
  check_dtype_in(d, "is_valid_fp_dtype_datapath", "in_out_dtype (output, high nibble)", dout,
                 kOutDtypes);

  const TensorDesc src = load_tensor(w, kSrc), dst = load_tensor(w, kDst);
  check_tensor_operands(kOperands, w, g, *opts.engine, d);
  if (!src.register_mode() && !dst.register_mode() && src.count() != dst.count())
    d.fail("has_same_elem_count_rs_src_dst", "dst_mem_pattern",
           fmt::format("{} elements (src has {})", dst.count(), src.count()),
           "src and dst must visit the same number of elements");

  const float base = base_of(w);
  const double end = static_cast<double>(base) + static_cast<double>(src.count());
  if (!std::isfinite(base) || !(base >= 0.0f) || static_cast<double>(base) > kIndexLimit)
    d.fail("has_valid_total_index_range", kBase.name,
           fmt::format("{} ({})", base, hex32(load_u32(w, kBase.offset))),
           "must be finite and 0 <= base <= 2^24");
  else if (!src.register_mode() &&
           static_cast<double>(base) > kIndexLimit - static_cast<double>(src.count()))
    d.fail("has_valid_total_index_range", kBase.name,
           fmt::format("{} + {} elements = {}", base, src.count(), end),
           "base + count(src) must be <= 2^24 (16777216)");

  const uint32_t fill = load_u32(w, kFill.offset);
  if (fill != kFillBits)
    d.fail("is_valid_fill_val", kFill.name, hex32(fill), "must be 0xff7fffff (-FLT_MAX)");

  for (const FieldDef& f : {kCompOp0, kCompOp1})
    check_one_of(d, "is_valid_rs_comp_op", f.name, w[f.offset], {0x12, 0x13, 0x14, 0x15, 0x16},
                 "IS_EQ, IS_GT, IS_GE, IS_LE or IS_LT");
  check_immediate_operands(kOperands, w, g, *opts.engine, d);
  check_one_of(d, "has_valid_range_select_reduce_cmd", kReduceCmd.name, w[kReduceCmd.offset],
               {0, 2, 3}, "IDLE (0), ACCUMULATE (2) or ZERO_ACCUMULATE (3)");
  check_one_of(d, "has_valid_range_select_reduce_op", kReduceOp.name, w[kReduceOp.offset], {0x08},
               "MAX (0x08)");
  check_reserved(d, "reserved_zero", w, kReserved);
}

std::optional<Fault> execute_range_select(const Word& w, const Machine& m,
                                          const ResolvedOperands& ops, Writer& out,
                                          const ExecEnv& env) {
  const bool fast = env.fast;
  const unsigned n = w[kChannels.offset];
  const Dtype din = static_cast<Dtype>(in_dtype(w)), dout = static_cast<Dtype>(out_dtype(w));
  const unsigned in_size = *dtype_size(din), out_size = *dtype_size(dout);
  const TensorDesc st = load_tensor(w, kSrc);

  const float base = base_of(w);

  const Operand& src = ops.tensor(kSrcOp);
  const Operand& dst = ops.tensor(kDstOp);
  const Immediate& bound0 = ops.immediate(kBound0Op);
  const Immediate& bound1 = ops.immediate(kBound1Op);

  const uint8_t op0 = w[kCompOp0.offset], op1 = w[kCompOp1.offset];
  const auto cmd = static_cast<AccumCmd>(w[kReduceCmd.offset]);
  const bool reduce = cmd == AccumCmd::ZERO_ACCUMULATE || cmd == AccumCmd::ACCUMULATE;
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());
  // The reference, one channel: SPEC §4.1's loop. A destination that overlaps a source
  // is a shadow (see Writer), so later channels still read the sources as they were.
  auto reference_channel = [&](unsigned c, uint8_t* bytes, std::vector<uint32_t>& y) {
    const float bnd0 = std::bit_cast<float>(bound0.read(m, c));
    const float bnd1 = std::bit_cast<float>(bound1.read(m, c));
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    y.resize(st.count());  // the channel's FP32 results, in ordinal order
    src.walk.for_each([&](uint64_t j, uint32_t off) {
      const uint32_t x = to_fp32(din, load_elem(in + off, in_size));
      const float idx = range_select_index(base, static_cast<uint32_t>(j));
      const bool pass =
          range_select_compare(op0, idx, bnd0) && range_select_compare(op1, idx, bnd1);
      y[j] = pass ? x : kFillBits;
    });
    dwalk.for_each([&](uint64_t j, uint32_t off) {
      store_elem(bytes + off, out_size, from_fp32(dout, y[j]));
    });
    // The reduction sees the FP32 y before the down-conversion.
    model::MaxFold fold;
    if (cmd == AccumCmd::ACCUMULATE) fold.add(m.accumulators[src.partition(c)]);
    for (uint32_t v : y) fold.add(v);
    return fold.result();
  };

  if (!fast) {
    std::vector<uint32_t> y;
    for (unsigned c = 0; c < n; ++c) {
      const uint32_t acc = reference_channel(c, dst_bytes[c], y);
      if (reduce) out.set_accumulator(src.partition(c), acc);
    }
    return std::nullopt;
  }

  // Fast: the channels run in parallel when the work is large, each into its own region.
  std::array<uint32_t, kPartitions> accs;
  const uint64_t work = uint64_t{n} * st.count() * (in_size + out_size);
  kernels::for_channels(n, work, [&](unsigned c) {
    const float bnd0 = std::bit_cast<float>(bound0.read(m, c));
    const float bnd1 = std::bit_cast<float>(bound1.read(m, c));
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    std::optional<uint32_t> max;
    if (kernels::range_select_channel(in, src.walk, din, base, op0, bnd0, op1, bnd1, dst_bytes[c],
                                      dwalk, dout, reduce ? &max : nullptr)) {
      model::MaxFold fold;
      if (cmd == AccumCmd::ACCUMULATE) fold.add(m.accumulators[src.partition(c)]);
      if (max) fold.add(*max);
      accs[c] = fold.result();
    } else {
      thread_local std::vector<uint32_t> y;
      accs[c] = reference_channel(c, dst_bytes[c], y);
    }
  });
  if (reduce)
    for (unsigned c = 0; c < n; ++c) out.set_accumulator(src.partition(c), accs[c]);
  return std::nullopt;
}

namespace {

void explain_range_select(const Decoded& d, const Machine& m, Explainer& x) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t pair = d.integer("in_out_dtype");
  const uint64_t din = pair & 0xf, dout = pair >> 4;
  const TensorDesc& src = d.tensor("src_mem_pattern");
  explain_operands(kOperands, d, m, x);
  const float base = fp32_from_bits(u32(d, "base"));
  const uint64_t count = src.count();
  const uint32_t fill_out = from_fp32(static_cast<Dtype>(dout), 0xff7fffffu);
  x.line("effect",
         fmt::format(
             "element j of channel c passes when (base + j) {} bound0 and (base + j) {} "
             "bound1, with base = {}, so the indices run {} .. {}. A passing element {}; "
             "the others become -FLT_MAX{}.",
             op_text(d.integer("comp_op0")), op_text(d.integer("comp_op1")),
             format_fp32(u32(d, "base")), format_fp32(bits_from_fp32(base)),
             format_fp32(bits_from_fp32(base + static_cast<float>(count - 1))),
             conversion_text(din, dout),
             fill_out == 0xff7fffffu
                 ? std::string()
                 : fmt::format(", which is {} in {}",
                               format_value(static_cast<Dtype>(dout), fill_out), dtype_str(dout))));
  const ResolvedAddr r = resolve_addr(src.addr, m);
  const std::string accs =
      r.loc ? fmt::format("accumulators {}..{}", r.loc->partition, r.loc->partition + n - 1)
            : std::string("the source partitions' accumulators");
  switch (d.integer("reduce_cmd")) {
    case 0:
      x.line("reduce", "none (IDLE): the accumulators are unchanged");
      break;
    case 2:
      x.line("reduce", fmt::format("writes {}: acc = max(acc, max over j of the FP32 "
                                   "results before conversion) (ACCUMULATE)",
                                   accs));
      break;
    case 3:
      x.line("reduce", fmt::format("writes {}: acc = max over j of the FP32 results "
                                   "before conversion (ZERO_ACCUMULATE)",
                                   accs));
      break;
    default:
      break;
  }
}

Word sample_range_select(unsigned p) {
  Word w = header_word(Opcode::RangeSelect);
  put_u8(w, field_of(F, "num_active_channels"), 1);
  put_u8(w, field_of(F, "in_out_dtype"), 0xaa);  // FP32 -> FP32
  put_u8(w, field_of(F, "reduce_op"), 0x08);     // MAX (reduce_cmd IDLE)
  put_u32(w, field_of(F, "fill_val"), 0xff7fffffu);
  put_tensor(w, field_of(F, "src_mem_pattern"), sample_tensor(2, p, 0, 16));
  put_u8(w, field_of(F, "comp_op0"), 0x14);  // index >= bound0 (0.0)
  put_u8(w, field_of(F, "comp_op1"), 0x16);  // index < bound1 (12.0)
  put_u32(w, field_of(F, "bound1"), 0x41400000u);
  put_tensor(w, field_of(F, "dst_mem_pattern"), sample_tensor(2, p, 256, 16));
  return w;
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kRangeSelectOps = {
    .validate = detail::validate_range_select,
    .execute = detail::execute_range_select,
    .explain = detail::explain_range_select,
    .sample = detail::sample_range_select,
    .sample_label = "RangeSelect fp32",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
