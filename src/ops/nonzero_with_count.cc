// NonzeroWithCount (0xf2, S3D3_NONZERO_WITH_COUNT): per processed channel, the walk
// ordinals of the nonzero source elements plus index_offset, then padding_val in every
// remaining slot, then the count of nonzero elements in the last ordinal, all as INT32.
// Only every 16th channel is processed (SPEC §4.11).
#include <array>
#include <vector>

#include "gpsimd/model.h"
#include "kernels/kernels.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kNonzeroWithCount;
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kInDtype = field_of(F, "in_dtype");
constexpr FieldDef kOutDtype = field_of(F, "out_dtype");
constexpr FieldDef kSrc = field_of(F, "src_mem_pattern");
constexpr FieldDef kReserved0 = field_of(F, "reserved0");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");
constexpr FieldDef kReserved1 = field_of(F, "reserved1");

// SPEC §4.11, §8.5: on the running channels (every 16th), the source walk and the
// index_offset and padding_val pointers are read, the destination walk written.
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kSrc, AccessKind::Read, dtype_byte(kInDtype)),
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kOutDtype)),
    immediate_operand(F, "index_offset", dtype_fixed(Dtype::INT32)),
    immediate_operand(F, "padding_val", dtype_fixed(Dtype::INT32)),
};
enum : unsigned { kSrcOp, kDstOp, kOffsetOp, kPaddingOp };
constexpr Operands kOperands{kOperandList, kChannels, model::kNonzeroChannelStride};

constexpr DtypeSet kInDtypes = {Dtype::INT32, Dtype::FP32};
constexpr DtypeSet kOutDtypes = {Dtype::INT32};

}  // namespace

void validate_nonzero_with_count(const Word& w, Generation g, const ValidateOptions& opts,
                                 DiagSink& d) {
  check_v3_or_later(d, "has_valid_nc_nonzero_with_count", g, "NonzeroWithCount");
  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "check_active_channels", kChannels.name, n);
  check_reserved(d, "s3d3_nonzero_with_count_reserved_zero", w, kReserved0);
  check_reserved(d, "s3d3_nonzero_with_count_reserved_zero", w, kReserved1);
  check_immediate_operands(kOperands, w, g, *opts.engine, d);

  const auto [din, dout] = check_in_out_dtypes(d, w, kInDtype, kOutDtype);
  check_dtype_in(d, "has_valid_nonzero_with_count_dtype", kInDtype.name, din, kInDtypes);
  check_dtype_in(d, "has_valid_nonzero_with_count_dtype", kOutDtype.name, dout, kOutDtypes);

  const TensorDesc src = load_tensor(w, kSrc), dst = load_tensor(w, kDst);
  check_tensor_operands(kOperands, w, g, *opts.engine, d);
  // The counts are in the word, register-mode operands included (SPEC §4.11).
  if (dst.count() != src.count() + 1)
    d.fail("s3d3_nonzero_with_count_element_count_check_t3d", kDst.name,
           fmt::format("{} elements (src has {})", dst.count(), src.count()),
           "dst must visit count(src) + 1 elements: the indices and padding, then the count");
}

// The reference loop of SPEC §4.11 for one channel: out[0..T] from the source in walk
// order.
void nonzero_with_count(const std::vector<uint32_t>& s, bool fp, uint32_t index_offset,
                        uint32_t padding, std::vector<uint32_t>& out) {
  const std::size_t t = s.size();
  out.assign(t + 1, padding);
  uint32_t k = 0;
  for (std::size_t j = 0; j < t; ++j)
    if (fp ? model::nonzero_fp32(s[j]) : model::nonzero_int32(s[j]))
      out[k++] = model::nonzero_index(j, index_offset);
  out[t] = k;
}

std::optional<Fault> execute_nonzero_with_count(const Word& w, const Machine& m,
                                                const ResolvedOperands& ops, Writer& out,
                                                const ExecEnv& env) {
  const bool fast = env.fast;
  const unsigned n = w[kChannels.offset];
  const TensorDesc st = load_tensor(w, kSrc);

  const Operand& src = ops.tensor(kSrcOp);
  const Operand& dst = ops.tensor(kDstOp);
  const Immediate& offset = ops.immediate(kOffsetOp);
  const Immediate& padding = ops.immediate(kPaddingOp);

  const bool fp = w[kInDtype.offset] == static_cast<uint8_t>(Dtype::FP32);
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data(), model::kNonzeroChannelStride);
  std::vector<uint32_t> s, res;
  for (unsigned c = 0; c < n; ++c) {
    if (!model::nonzero_channel_processed(c)) continue;
    const uint8_t* in = m.partition(Space::SBUF, src.partition(c)).data();
    const uint32_t off = offset.read(m, c), pad = padding.read(m, c);
    if (fast && kernels::nonzero_with_count(in, src.walk, fp, off, pad, dst_bytes[c], dwalk))
      continue;
    s.resize(st.count());
    src.walk.for_each([&](uint64_t j, uint32_t o) { s[j] = load_elem(in + o, 4); });
    nonzero_with_count(s, fp, off, pad, res);
    dwalk.for_each([&](uint64_t j, uint32_t o) { store_elem(dst_bytes[c] + o, 4, res[j]); });
  }
  return std::nullopt;
}

namespace {

void explain_nonzero_with_count(const Decoded& d, const Machine& m, Explainer& x) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t din = d.integer("in_dtype"), dout = d.integer("out_dtype");
  const TensorDesc& src = d.tensor("src_mem_pattern");
  const TensorDesc& dst = d.tensor("dst_mem_pattern");
  const uint64_t count = src.count();
  // The channels that run: c % 16 == 0, counted from the start partitions.
  std::string chans, src_parts, dst_parts;
  unsigned processed = 0;
  const ResolvedAddr rs = resolve_addr(src.addr, m), rd = resolve_addr(dst.addr, m);
  for (unsigned c = 0; c < n; ++c) {
    if (!model::nonzero_channel_processed(c)) continue;
    const std::string sep = processed++ ? ", " : "";
    chans += sep + std::to_string(c);
    if (rs.loc) src_parts += sep + std::to_string(rs.loc->partition + c);
    if (rd.loc) dst_parts += sep + std::to_string(rd.loc->partition + c);
  }
  std::string where;
  if (rs.loc && rd.loc)
    where = src_parts == dst_parts
                ? fmt::format(", on partition{} {}", processed == 1 ? "" : "s", src_parts)
                : fmt::format(", reading partition{0} {1} and writing partition{0} {2}",
                              processed == 1 ? "" : "s", src_parts, dst_parts);
  x.line("channels",
         fmt::format("{} ({}), of which only every 16th runs (one per GpSimd core): c = {}{}. The "
                     "other {} read and write nothing{}",
                     n, n == 1 ? std::string("c = 0") : fmt::format("c = 0..{}", n - 1), chans,
                     where, n - processed,
                     n > processed ? " (their addresses and pointers are still checked)" : ""));
  x.line("reads", tensor_text("reads", row(d, "src_mem_pattern"), src, din, n, m));
  const uint32_t off = u32(d, "index_offset"), pad = u32(d, "padding_val");
  x.line("immediate", imm_text(row(d, "index_offset"), d.integer("index_offset_src"), off, "INT32",
                               4, std::to_string(static_cast<int32_t>(off)), n, m));
  x.line("immediate", imm_text(row(d, "padding_val"), d.integer("padding_val_src"), pad, "INT32", 4,
                               std::to_string(static_cast<int32_t>(pad)), n, m));
  x.line("writes", tensor_text("writes", row(d, "dst_mem_pattern"), dst, dout, n, m));
  x.line("effect",
         fmt::format("a running channel writes, in order, j + index_offset for every source "
                     "ordinal j whose element is nonzero ({}), then padding_val in the remaining "
                     "slots up to ordinal {}, then the number of nonzero elements at ordinal {}; "
                     "all as INT32.",
                     din == static_cast<uint64_t>(Dtype::FP32)
                         ? "FP32: x != 0, so -0.0 is zero and NaN is nonzero"
                         : "INT32: any bit set",
                     count - 1, count));
}

Word sample_nonzero_with_count(unsigned p) {
  Word w = header_word(Opcode::NonzeroWithCount);
  put_u8(w, field_of(F, "num_active_channels"), 1);
  put_u8(w, field_of(F, "in_dtype"), 0x08);   // INT32
  put_u8(w, field_of(F, "out_dtype"), 0x08);  // INT32
  put_tensor(w, field_of(F, "src_mem_pattern"), sample_tensor(3, p, 0, 16));
  put_u32(w, field_of(F, "padding_val"), 0xffffffffu);  // -1
  put_tensor(w, field_of(F, "dst_mem_pattern"), sample_tensor(3, p, 256, 17));
  return w;
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kNonzeroWithCountOps = {
    .validate = detail::validate_nonzero_with_count,
    .execute = detail::execute_nonzero_with_count,
    .explain = detail::explain_nonzero_with_count,
    .sample = detail::sample_nonzero_with_count,
    .sample_label = "NonzeroWithCount int32",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
