// Max8 (0x6c, S4D2_BN): per channel, the 8 largest source values (as FP32, NaNs left
// out, -0.0 < +0.0, -inf filling the low end when fewer than 8 remain) written smallest
// first along the destination walk. Changes no search state (SPEC §4.8).
#include <algorithm>
#include <array>
#include <vector>

#include "kernels/kernels.h"
#include "ops/explain.h"
#include "ops/op.h"
#include "ops/search.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kMax8;
constexpr FieldDef kSrc = field_of(F, "src_mem_pattern");
constexpr FieldDef kInDtype = field_of(F, "in_dtype");
constexpr FieldDef kOutDtype = field_of(F, "out_dtype");
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kReserved0 = field_of(F, "reserved0");
constexpr FieldDef kEvenCount = field_of(F, "even_count");
constexpr FieldDef kOddCount = field_of(F, "odd_count");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");
constexpr FieldDef kReserved1 = field_of(F, "reserved1");

// SPEC §8.5: the source walk is read, the destination walk written; no search state.
constexpr auto kOperandList = search_operands(F);
constexpr Operands kOperands{std::span(kOperandList).first(2), kChannels};

}  // namespace

void validate_s4d2_bn(const Word& w, Generation g, Engine engine, DiagSink& d) {
  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, n);
  const auto [in, outd] = check_in_out_dtypes(d, w, kInDtype, kOutDtype);
  const TensorDesc src = load_tensor(w, kSrc), dst = load_tensor(w, kDst);
  check_tensor_operands(kOperands, w, g, engine, d);
  if (search_count_evaluated(src, in) && (src.count() < 8 || src.count() > kSearchMaxElements))
    d.fail("s4d2_bn_src_element_cnt", kSrc.name,
           fmt::format("count = {} ({})", src.count(), tensor_text(src)),
           "count(src) must be 8..16384");
  if (search_count_evaluated(dst, outd) && dst.count() != 8)
    d.fail("s4d2_bn_dst_element_cnt", kDst.name,
           fmt::format("count = {} ({})", dst.count(), tensor_text(dst)), "count(dst) must be 8");
  for (const FieldDef& f : {kEvenCount, kOddCount}) {
    const uint32_t bits = load_u32(w, f.offset);
    if (fp32_from_bits(bits) != 0.0f)
      d.fail("s4d2_bn_zero_counts", f.name, hex32(bits), "must be 0.0 (+0.0 or -0.0)");
  }
  check_reserved(d, "s4d2_bn_reserved_zero", w, kReserved0);
  check_reserved(d, "s4d2_bn_reserved_zero", w, kReserved1);
}

static_assert(field_of(table::kMatchReplace8, "in_dtype").offset == kInDtype.offset &&
              field_of(table::kMatchReplace8, "out_dtype").offset == kOutDtype.offset &&
              field_of(table::kMatchReplace8, "num_active_channels").offset == kChannels.offset);

Word sample_search(std::span<const FieldDef> row, Opcode op, unsigned p, Dtype out,
                   const TensorDesc& dst) {
  const auto field = [&](std::string_view name) { return *find_field(row, name); };
  Word w = header_word(op);
  put_tensor(w, field("src_mem_pattern"), sample_tensor(4, p, 0, 16));
  put_u8(w, field("in_dtype"), static_cast<uint8_t>(Dtype::FP32));
  put_u8(w, field("out_dtype"), static_cast<uint8_t>(out));
  put_u8(w, field("num_active_channels"), 1);
  put_tensor(w, field("dst_mem_pattern"), dst);
  return w;
}

SearchIo search_io(const ResolvedOperands& r, const Word& w, Writer& out) {
  SearchIo io;
  io.n = r.n;
  io.din = static_cast<Dtype>(w[kInDtype.offset]);
  io.dout = static_cast<Dtype>(w[kOutDtype.offset]);
  io.in_size = *dtype_size(io.din);
  io.out_size = *dtype_size(io.dout);
  io.st = load_tensor(w, r.decl->list[0].field);
  io.src = r.tensor(0);
  io.dst = r.tensor(1);
  io.dwalk = out.regions(io.dst, io.n, io.dst_bytes.data());
  return io;
}

// SPEC §4.8 for one channel: the top 8 of `values` (FP32 bits, reordered), ascending.
std::array<uint32_t, 8> max8_reference(std::vector<uint32_t>& values) {
  auto end = std::remove_if(values.begin(), values.end(), model::max8_is_nan);
  const auto by_key = [](uint32_t a, uint32_t b) {
    return model::max8_order_key(a) < model::max8_order_key(b);
  };
  const std::size_t have = static_cast<std::size_t>(end - values.begin());
  const std::size_t take = std::min<std::size_t>(have, 8);
  std::partial_sort(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(take), end,
                    [&](uint32_t a, uint32_t b) { return by_key(b, a); });
  std::array<uint32_t, 8> top;
  top.fill(model::kMax8Fill);
  // Descending in values[0..take); ascending from slot 8 - take on.
  for (std::size_t k = 0; k < take; ++k) top[7 - k] = values[k];
  return top;
}

void validate_max8(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  validate_s4d2_bn(w, g, *opts.engine, d);
}

std::optional<Fault> execute_max8(const Word& w, const Machine& m, const ResolvedOperands& ops,
                                  Writer& out, const ExecEnv& env) {
  const bool fast = env.fast;
  const SearchIo io = search_io(ops, w, out);
  const Operand& src = io.src;

  run_search_channels(io, fast, io.in_size, [&](unsigned c) {
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    if (fast && kernels::max8_channel(in, src.walk, io.din, io.dout, io.dst_bytes[c], io.dwalk))
      return;
    thread_local std::vector<uint32_t> v;
    v.resize(io.st.count());
    src.walk.for_each(
        [&](uint64_t j, uint32_t off) { v[j] = to_fp32(io.din, load_elem(in + off, io.in_size)); });
    const std::array<uint32_t, 8> top = max8_reference(v);
    io.dwalk.for_each([&](uint64_t k, uint32_t off) {
      store_elem(io.dst_bytes[c] + off, io.out_size, from_fp32(io.dout, top[k]));
    });
  });
  return std::nullopt;
}

namespace {

void explain_max8(const Decoded& d, const Machine& m, Explainer& x) {
  explain_operands(kOperands, d, m, x);
  x.line("effect",
         "channel c writes the 8 largest source values (compared as FP32, NaNs left "
         "out, -0.0 below +0.0, -inf filling in when fewer than 8 remain) smallest "
         "first: destination ordinal 0 gets the 8th largest, ordinal 7 the largest. "
         "The search state is not used.");
}

Word sample_max8(unsigned p) {
  return sample_search(F, Opcode::Max8, p, Dtype::FP32, sample_tensor(2, p, 256, 8));
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kMax8Ops = {
    .validate = detail::validate_max8,
    .execute = detail::execute_max8,
    .explain = detail::explain_max8,
    .sample = detail::sample_max8,
    .sample_label = "Max8 fp32",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
