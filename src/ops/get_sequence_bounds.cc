// GetSequenceBounds (0xbe, S3D3_SEQ_BOUNDS): for each element of a sequence of segment
// ids, the [start, end) of the maximal run of equal ids it belongs to; id 0 is padding,
// with start = n and end = -1. Starts fill the first half of the destination walk,
// ends the second (SPEC §4.3).
#include <array>
#include <bit>

#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "kernels/kernels.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kGetSequenceBounds;
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kReserved0 = field_of(F, "reserved0");
constexpr FieldDef kInDtype = field_of(F, "in_dtype");
constexpr FieldDef kOutDtype = field_of(F, "out_dtype");
constexpr FieldDef kSrc = field_of(F, "src_mem_pattern");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");
constexpr FieldDef kReserved1 = field_of(F, "reserved1");

// SPEC §4.3, §8.5: the source walk is read, the destination walk written (INT32 or FP32
// elements).
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kSrc, AccessKind::Read, dtype_byte(kInDtype)),
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kOutDtype)),
};
enum : unsigned { kSrcOp, kDstOp };
constexpr Operands kOperands{kOperandList, kChannels};

constexpr DtypeSet kBoundsDtypes = {Dtype::INT32, Dtype::FP32};

}  // namespace

void validate_get_sequence_bounds(const Word& w, Generation g, const ValidateOptions& opts,
                                  DiagSink& d) {
  check_v3_or_later(d, "has_valid_nc_get_sequence_bounds", g, "GetSequenceBounds");
  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "check_active_channels", kChannels.name, n);
  if (n != 1)
    d.fail("has_valid_s3d3_seq_bounds_channels", kChannels.name, std::to_string(n),
           "must be exactly 1");
  check_reserved(d, "s3d3_seq_bounds_reserved_zero", w, kReserved0);
  check_reserved(d, "s3d3_seq_bounds_reserved_zero", w, kReserved1);

  const auto [din, dout] = check_in_out_dtypes(d, w, kInDtype, kOutDtype);
  check_dtype_in(d, "has_valid_seq_bounds_dtype", kInDtype.name, din, kBoundsDtypes);
  check_dtype_in(d, "has_valid_seq_bounds_dtype", kOutDtype.name, dout, kBoundsDtypes);

  const TensorDesc src = load_tensor(w, kSrc), dst = load_tensor(w, kDst);
  check_tensor_operands(kOperands, w, g, *opts.engine, d);
  if (dst.count() != 2 * src.count() || dst.num[2] != 2)
    d.fail("s3d3_seq_bounds_element_count_check_t3d", kDst.name,
           fmt::format("{} elements, num_elem[2] = {} (src has {})", dst.count(), dst.num[2],
                       src.count()),
           "dst must visit 2 x count(src) elements, with num_elem[2] = 2");
}

// The reference loop of SPEC §4.3 over ids in walk order, as `eq` and `padding` define
// equality. Returns starts then ends (2n values).
template <class Eq, class Pad>
std::vector<int32_t> sequence_bounds(const std::vector<uint32_t>& s, Eq eq, Pad padding) {
  const std::size_t n = s.size();
  std::vector<int32_t> out(2 * n);
  int32_t* start = out.data();
  int32_t* end = out.data() + n;
  for (std::size_t i = 0; i < n; ++i) {
    if (padding(s[i]))
      start[i] = static_cast<int32_t>(n);
    else if (i > 0 && eq(s[i], s[i - 1]))
      start[i] = start[i - 1];
    else
      start[i] = static_cast<int32_t>(i);
  }
  for (std::size_t k = n; k-- > 0;) {
    if (padding(s[k]))
      end[k] = -1;
    else if (k + 1 < n && eq(s[k], s[k + 1]))
      end[k] = end[k + 1];
    else
      end[k] = static_cast<int32_t>(k + 1);
  }
  return out;
}

std::optional<Fault> execute_get_sequence_bounds(const Word& w, const Machine& m,
                                                 const ResolvedOperands& ops, Writer& out,
                                                 const ExecEnv& env) {
  const bool fast = env.fast;
  const unsigned n = w[kChannels.offset];
  const TensorDesc st = load_tensor(w, kSrc);

  const Operand& src = ops.tensor(kSrcOp);
  const Operand& dst = ops.tensor(kDstOp);

  const bool fp_in = w[kInDtype.offset] == static_cast<uint8_t>(Dtype::FP32);
  const bool fp_out = w[kOutDtype.offset] == static_cast<uint8_t>(Dtype::FP32);
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());
  std::vector<uint32_t> ids;
  for (unsigned c = 0; c < n; ++c) {
    const uint8_t* in = m.partition(Space::SBUF, src.partition(c)).data();
    uint8_t* bytes = dst_bytes[c];
    if (fast && kernels::sequence_bounds(in, src.walk, fp_in, fp_out, bytes, dwalk)) continue;
    ids.resize(st.count());
    src.walk.for_each([&](uint64_t j, uint32_t off) { ids[j] = load_elem(in + off, 4); });
    const std::vector<int32_t> bounds =
        fp_in ? sequence_bounds(ids, model::seq_ids_equal_fp32, model::seq_id_is_padding_fp32)
              : sequence_bounds(
                    ids, [](uint32_t a, uint32_t b) { return a == b; },
                    [](uint32_t a) { return a == 0; });
    dwalk.for_each([&](uint64_t j, uint32_t off) {
      const int32_t v = bounds[j];
      // Bounds are below 2^24 (the walk limit), so the FP32 form (SPEC §5.1) is exact.
      const uint32_t bits =
          fp_out ? to_fp32(Dtype::INT32, static_cast<uint32_t>(v)) : static_cast<uint32_t>(v);
      store_elem(bytes + off, 4, bits);
    });
  }
  return std::nullopt;
}

namespace {

void explain_get_sequence_bounds(const Decoded& d, const Machine& m, Explainer& x) {
  const uint64_t din = d.integer("in_dtype"), dout = d.integer("out_dtype");
  const uint64_t count = d.tensor("src_mem_pattern").count();
  explain_operands(kOperands, d, m, x);
  x.line(
      "effect",
      fmt::format("the {} segment ids (compared as {}) form runs of equal adjacent ids; id 0 is "
                  "padding. Ordinals 0..{} of the destination get each element's run start, "
                  "ordinals {}..{} its run end (exclusive); padding gets start {} and end -1. "
                  "Written as {}.",
                  count, dtype_str(din), count - 1, count, 2 * count - 1, count, dtype_str(dout)));
}

Word sample_get_sequence_bounds(unsigned p) {
  Word w = header_word(Opcode::GetSequenceBounds);
  put_u8(w, field_of(F, "num_active_channels"), 1);
  put_u8(w, field_of(F, "in_dtype"), 0x08);   // INT32 ids
  put_u8(w, field_of(F, "out_dtype"), 0x08);  // INT32 bounds
  put_tensor(w, field_of(F, "src_mem_pattern"), sample_tensor(3, p, 0, 16));
  TensorDesc dst = sample_tensor(3, p, 256, 16);  // 16 starts, then 16 ends
  dst.step = {1, 16, 0, 0};
  dst.num = {16, 1, 2, 1};
  put_tensor(w, field_of(F, "dst_mem_pattern"), dst);
  return w;
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kGetSequenceBoundsOps = {
    .validate = detail::validate_get_sequence_bounds,
    .execute = detail::execute_get_sequence_bounds,
    .explain = detail::explain_get_sequence_bounds,
    .sample = detail::sample_get_sequence_bounds,
    .sample_label = "GetSequenceBounds int32",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
