// NonzeroWithCount (0xf2, S3D3_NONZERO_WITH_COUNT): per processed channel, the walk
// ordinals of the nonzero source elements plus index_offset, then padding_val in every
// remaining slot, then the count of nonzero elements in the last ordinal, all as INT32.
// Only every 16th channel is processed (SPEC §4.11).
#include <array>
#include <vector>

#include "gpsimd/model.h"
#include "kernels/kernels.h"
#include "ops/op.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kNonzeroWithCount;
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kInDtype = field_of(F, "in_dtype");
constexpr FieldDef kOutDtype = field_of(F, "out_dtype");
constexpr FieldDef kOffsetSrc = field_of(F, "index_offset_src");
constexpr FieldDef kSrc = field_of(F, "src_mem_pattern");
constexpr FieldDef kOffset = field_of(F, "index_offset");
constexpr FieldDef kPaddingSrc = field_of(F, "padding_val_src");
constexpr FieldDef kReserved0 = field_of(F, "reserved0");
constexpr FieldDef kPadding = field_of(F, "padding_val");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");
constexpr FieldDef kReserved1 = field_of(F, "reserved1");

constexpr DtypeSet kInDtypes = {Dtype::INT32, Dtype::FP32};
constexpr DtypeSet kOutDtypes = {Dtype::INT32};
constexpr OperandRule kRead{false, false}, kWrite{false, true};  // POOL: SBUF only

}  // namespace

void validate_nonzero_with_count(const Word& w, Generation g, const ValidateOptions&, DiagSink& d) {
  check_opcode(d, "has_nonzero_with_count_opcode", w, Opcode::NonzeroWithCount);
  if (g == Generation::V2)
    d.fail("has_valid_nc_nonzero_with_count", "generation", std::string(generation_name(g)),
           "must be v3, v4 or v5 (the generations that have NonzeroWithCount)");
  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "check_active_channels", kChannels.name, n);
  check_reserved(d, "s3d3_nonzero_with_count_reserved_zero", w, kReserved0);
  check_reserved(d, "s3d3_nonzero_with_count_reserved_zero", w, kReserved1);
  check_immediate(d, kOffset.name, w[kOffsetSrc.offset], load_u32(w, kOffset.offset), 4u, false, n,
                  g, true);
  check_immediate(d, kPadding.name, w[kPaddingSrc.offset], load_u32(w, kPadding.offset), 4u, false,
                  n, g, true);

  const uint8_t din = w[kInDtype.offset], dout = w[kOutDtype.offset];
  check_valid_dtype(d, "is_valid_dtype", kInDtype.name, din, false);
  check_valid_dtype(d, "is_valid_dtype", kOutDtype.name, dout, true);
  check_dtype_in(d, "has_valid_nonzero_with_count_dtype", kInDtype.name, din, kInDtypes);
  check_dtype_in(d, "has_valid_nonzero_with_count_dtype", kOutDtype.name, dout, kOutDtypes);

  const TensorDesc src = load_tensor(w, kSrc), dst = load_tensor(w, kDst);
  check_start_channels(d, kSrc.name, src, n, g);
  check_start_channels(d, kDst.name, dst, n, g);
  check_tensor(d, "tensor3d_valid", kSrc.name, src, dtype_size(din), g, kRead);
  check_tensor(d, "tensor3d_valid", kDst.name, dst, dtype_size(dout), g, kWrite);
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

std::optional<Fault> execute_nonzero_with_count(const Word& w, const Machine& m, Writer& out,
                                                bool fast) {
  const unsigned n = w[kChannels.offset];
  const TensorDesc st = load_tensor(w, kSrc), dt = load_tensor(w, kDst);

  Resolved rs = resolve_tensor(m, kSrc.name, st, 4, kRead, n);
  if (auto* f = std::get_if<Fault>(&rs)) return *f;
  Resolved rd = resolve_tensor(m, kDst.name, dt, 4, kWrite, n);
  if (auto* f = std::get_if<Fault>(&rd)) return *f;
  ResolvedImm ro = resolve_immediate(m, kOffset.name, w[kOffsetSrc.offset],
                                     load_u32(w, kOffset.offset), 4, false, n);
  if (auto* f = std::get_if<Fault>(&ro)) return *f;
  ResolvedImm rp = resolve_immediate(m, kPadding.name, w[kPaddingSrc.offset],
                                     load_u32(w, kPadding.offset), 4, false, n);
  if (auto* f = std::get_if<Fault>(&rp)) return *f;
  if (auto f = check_walk_limit(kSrc.name, st)) return f;
  if (auto f = check_walk_limit(kDst.name, dt)) return f;

  const Operand& src = std::get<Operand>(rs);
  const Operand& dst = std::get<Operand>(rd);
  const Immediate& offset = std::get<Immediate>(ro);
  const Immediate& padding = std::get<Immediate>(rp);
  out.note_source(src, n);
  out.note_immediate(offset, n);
  out.note_immediate(padding, n);

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

}  // namespace gpsimd::detail
