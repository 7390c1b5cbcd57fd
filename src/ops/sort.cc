// Sort (0x96, S1D2_SORT): per channel, sort N source elements ascending (IS_LT) or
// descending (IS_GT) and write (value, original position + index_offset) pairs for the
// first K of the sorted order (SPEC §4.4).
#include <algorithm>
#include <array>
#include <bit>
#include <numeric>
#include <vector>

#include "atoms/sort_key.h"
#include "gpsimd/model.h"
#include "kernels/kernels.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kSort;
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kOffsetSrc = field_of(F, "index_offset_src");
constexpr FieldDef kDtypes = field_of(F, "in_out_dtype");
constexpr FieldDef kComparison = field_of(F, "comparison");
constexpr FieldDef kSrc = field_of(F, "src_mem_pattern");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");
constexpr FieldDef kStable = field_of(F, "stable");

// SPEC §4.4, §8.5: the source walk and the index_offset pointer (4 bytes, a u32, whatever
// the dtype) are read; the destination's 2K elements are written.
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kSrc, AccessKind::Read, dtype_low(kDtypes)),
    tensor_operand(kDst, AccessKind::Write, dtype_high(kDtypes)),
    immediate_operand(F, "index_offset", dtype_fixed(Dtype::UINT32)),
};
enum : unsigned { kSrcOp, kDstOp, kOffsetOp };
constexpr Operands kOperands{kOperandList, kChannels, 1, nullptr, "sort_tensor_shapes_ok"};
constexpr FieldDef kReserved = field_of(F, "reserved1");

constexpr DtypeSet kSortDtypes = {Dtype::FP16, Dtype::BF16,   Dtype::UINT16, Dtype::INT16,
                                  Dtype::FP32, Dtype::UINT32, Dtype::INT32};

}  // namespace

void validate_sort(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  const uint8_t din = w[kDtypes.offset] & 0xf, dout = w[kDtypes.offset] >> 4;
  if (din != dout || !dtype_in(kSortDtypes, din))
    d.fail("sort_dtypes_ok", kDtypes.name,
           fmt::format("in {}, out {}", dtype_text(din), dtype_text(dout)),
           "in and out must be equal and one of FP16, BF16, UINT16, INT16, FP32, UINT32, INT32");
  const uint8_t osrc = w[kOffsetSrc.offset];
  if (osrc > static_cast<uint8_t>(ImmSrc::REG_PTR_IMMEDIATE))
    d.fail("is_valid_enum", kOffsetSrc.name, hex8(osrc),
           "must be INSTRUCTION_IMMEDIATE (0), POINTER_IMMEDIATE (1) or REG_PTR_IMMEDIATE (2)");
  check_one_of(d, "sort_valid_aluop", kComparison.name, w[kComparison.offset], {0x16, 0x13},
               "IS_LT (0x16, ascending) or IS_GT (0x13, descending)");
  check_flag(d, "sort_valid_stable", kStable.name, w[kStable.offset]);

  constexpr std::string_view kShapes = "sort_tensor_shapes_ok";
  const unsigned n = w[kChannels.offset];
  const TensorDesc src = load_tensor(w, kSrc), dst = load_tensor(w, kDst);
  check_tensor_operands(kOperands, w, g, *opts.engine, d);
  if (dst.num[0] != 2)
    d.fail(kShapes, kDst.name, fmt::format("num_elem[0] = {}", dst.num[0]),
           "num_elem[0] must be 2 (value, index)");
  const unsigned N = src.num[0], K = dst.num[1];
  if (opts.strict || !model::kTopKAllowedByDefault) {
    if (K != N)
      d.fail(kShapes, kDst.name, fmt::format("num_elem[1] = {} (src num_elem[0] = {})", K, N),
             "num_elem[1] must equal src num_elem[0] (strict: no top-K)");
  } else if (K < 1 || K > N) {
    d.fail(kShapes, kDst.name, fmt::format("num_elem[1] = {} (src num_elem[0] = {})", K, N),
           "num_elem[1] (K) must be 1..src num_elem[0]");
  }
  if (dtype_in(kSortDtypes, din)) {
    const unsigned limit = *dtype_size(din) == 2 ? 4096 : 2048;
    if (static_cast<uint64_t>(N) * n > limit)
      d.fail(kShapes, kSrc.name, fmt::format("N = {} x {} channels = {}", N, n, N * n),
             fmt::format("N x channels must be <= {} for {}-byte dtypes", limit, *dtype_size(din)));
  }
  if (osrc <= static_cast<uint8_t>(ImmSrc::REG_PTR_IMMEDIATE))  // else is_valid_enum
    check_immediate_operands(kOperands, w, g, *opts.engine, d, false);
  check_channel_range(d, "check_active_channels", kChannels.name, n);
  check_reserved(d, "reserved_zero", w, kReserved);
}

std::optional<Fault> execute_sort(const Word& w, const Machine& m, const ResolvedOperands& ops,
                                  Writer& out, const ExecEnv& env) {
  const bool fast = env.fast;
  const unsigned n = w[kChannels.offset];
  const auto dt = static_cast<Dtype>(w[kDtypes.offset] & 0xf);
  const unsigned size = *dtype_size(dt);
  const TensorDesc st = load_tensor(w, kSrc), dtd = load_tensor(w, kDst);

  const Operand& src = ops.tensor(kSrcOp);
  const Operand& dst = ops.tensor(kDstOp);
  const Immediate& offset = ops.immediate(kOffsetOp);

  const bool descending = w[kComparison.offset] == static_cast<uint8_t>(AluOp::IS_GT);
  const unsigned N = st.num[0], K = dtd.num[1];
  const uint32_t mask = size == 2 ? 0xffffu : 0xffffffffu;

  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());
  // The reference, one channel: a stable sort of positions by key; ties keep
  // increasing position.
  struct Scratch {
    std::vector<uint32_t> values, order, result;
  };
  auto reference_channel = [&](unsigned c, uint8_t* bytes, Scratch& t) {
    const uint8_t* in = m.partition(Space::SBUF, src.partition(c)).data();
    t.values.resize(N);
    t.order.resize(N);
    t.result.resize(2 * std::size_t{K});
    src.walk.for_each([&](uint64_t j, uint32_t off) { t.values[j] = load_elem(in + off, size); });
    const uint32_t base = offset.read(m, c);
    std::iota(t.order.begin(), t.order.end(), 0u);
    std::stable_sort(t.order.begin(), t.order.end(), [&](uint32_t a, uint32_t b) {
      const uint32_t ka = sort_key(dt, t.values[a]), kb = sort_key(dt, t.values[b]);
      return descending ? ka > kb : ka < kb;
    });
    for (unsigned k = 0; k < K; ++k) {
      t.result[2 * k] = t.values[t.order[k]];
      t.result[2 * k + 1] = (t.order[k] + base) & mask;
    }
    dwalk.for_each([&](uint64_t j, uint32_t off) { store_elem(bytes + off, size, t.result[j]); });
  };

  if (!fast) {
    Scratch t;
    for (unsigned c = 0; c < n; ++c) reference_channel(c, dst_bytes[c], t);
    return std::nullopt;
  }

  // Fast: the channels run in parallel when the work is large, each into its own region.
  // Sorting costs about log2(N) passes over the keys; weigh the bytes by that.
  const uint64_t work = uint64_t{n} * N * size * 2 * std::bit_width(N);
  // Small N: all channels at once, one per vector lane.
  // The channel table, a fixed cost per channel that small N feels: the partitions by
  // stride from the space's base (no per-channel checks), the offset read per channel
  // only when it comes from memory.
  std::array<kernels::SortChannel, kPartitions> jobs;
  const uint8_t* sbuf = m.space(Space::SBUF).data();
  const std::size_t stride = m.partition_bytes(Space::SBUF);
  const uint8_t* first = sbuf + std::size_t{src.partition(0)} * stride;
  if (offset.pointer) {
    for (unsigned c = 0; c < n; ++c)
      jobs[c] = {first + c * stride, dst_bytes[c], offset.read(m, c)};
  } else {
    for (unsigned c = 0; c < n; ++c) jobs[c] = {first + c * stride, dst_bytes[c], offset.value};
  }
  if (kernels::sort_channels(dt, descending, src.walk, K, dwalk, jobs.data(), n,
                             m.partition_bytes(Space::SBUF)))
    return std::nullopt;
  kernels::for_channels(n, work, [&](unsigned c) {
    const uint8_t* in = m.partition(Space::SBUF, src.partition(c)).data();
    if (kernels::sort_channel(dt, descending, in, src.walk, K, offset.read(m, c), dst_bytes[c],
                              dwalk))
      return;
    thread_local Scratch t;
    reference_channel(c, dst_bytes[c], t);
  });
  return std::nullopt;
}

namespace {

void explain_sort(const Decoded& d, const Machine& m, Explainer& x) {
  const uint64_t dt = d.integer("in_out_dtype") & 0xf;
  const unsigned width = dtype_size(static_cast<uint8_t>(dt)).value_or(4);
  const unsigned N = d.tensor("src_mem_pattern").num[0];
  const unsigned K = d.tensor("dst_mem_pattern").num[1];
  explain_operands(kOperands, d, m, x);
  const bool desc = d.integer("comparison") == static_cast<uint64_t>(AluOp::IS_GT);
  x.line("effect",
         fmt::format("sorts the {} values of each partition {} and writes the first {}{} as "
                     "pairs: ordinal 2k gets the k-th value (bits unchanged), ordinal 2k+1 its "
                     "original position + index_offset as a {}-bit unsigned integer. Equal values "
                     "keep increasing position.",
                     N, desc ? "descending (IS_GT)" : "ascending (IS_LT)", K,
                     K < N ? fmt::format(" (top-K: K = {} < N = {})", K, N) : "", 8 * width));
}

Word sample_sort(unsigned p) {
  Word w = header_word(Opcode::Sort);
  put_u8(w, field_of(F, "num_active_channels"), 1);
  put_u8(w, field_of(F, "in_out_dtype"), 0xaa);  // FP32
  put_u8(w, field_of(F, "comparison"), 0x16);    // IS_LT: ascending
  put_tensor(w, field_of(F, "src_mem_pattern"), sample_tensor(1, p, 0, 16));
  TensorDesc dst = sample_tensor(2, p, 256, 2);  // 16 (value, index) pairs
  dst.step = {1, 2, 0, 0};
  dst.num = {2, 16, 1, 1};
  put_tensor(w, field_of(F, "dst_mem_pattern"), dst);
  return w;
}

// The destination holds value, index, value, index, ...: the indices are unsigned integers
// of the dtype's width (SPEC §4.4).
std::optional<DestinationDtypes> destination_sort(const Decoded& d) {
  const auto dt = static_cast<uint8_t>(d.integer("in_out_dtype") >> 4);
  const auto size = dtype_size(dt);
  if (!size || *size > 4 || !is_data_dtype(static_cast<Dtype>(dt))) return std::nullopt;
  return DestinationDtypes{static_cast<Dtype>(dt), *size == 2 ? Dtype::UINT16 : Dtype::UINT32};
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kSortOps = {
    .validate = detail::validate_sort,
    .execute = detail::execute_sort,
    .explain = detail::explain_sort,
    .sample = detail::sample_sort,
    .sample_label = "Sort fp32",
    .destination = detail::destination_sort,
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
