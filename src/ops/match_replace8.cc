// MatchReplace8 (0x6f, S4D4_MR): per channel, the match core of FindIndex8 on lane src
// partition + c, and the source copied through FP32 to the destination with every
// consumed element replaced by the FP32 immediate (SPEC §4.10).
#include <array>
#include <vector>

#include "kernels/kernels.h"
#include "ops/explain.h"
#include "ops/op.h"
#include "ops/search.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kMatchReplace8;
constexpr FieldDef kSrc = field_of(F, "src_mem_pattern");
constexpr FieldDef kInDtype = field_of(F, "in_dtype");
constexpr FieldDef kOutDtype = field_of(F, "out_dtype");
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kReserved0 = field_of(F, "reserved0");
constexpr FieldDef kImmediate = field_of(F, "immediate");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");

// SPEC §8.5: the source walk is read, the destination walk written, the source
// partitions' search lanes read and written.
constexpr auto kOperandList = search_operands(F);
constexpr Operands kOperands{kOperandList, field_of(F, "num_active_channels")};

constexpr DtypeSet kDtypes = {Dtype::FP16,   Dtype::BF16, Dtype::UINT8, Dtype::UINT16,
                              Dtype::UINT32, Dtype::FP32, Dtype::INT32};

}  // namespace

void validate_match_replace8(const Word& w, Generation g, const ValidateOptions& opts,
                             DiagSink& d) {
  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, n);
  const auto [in, outd] = check_in_out_dtypes(d, w, kInDtype, kOutDtype);
  check_dtype_in(d, "match_replace_dtypes", kInDtype.name, in, kDtypes);
  check_dtype_in(d, "match_replace_dtypes", kOutDtype.name, outd, kDtypes);
  const TensorDesc src = load_tensor(w, kSrc), dst = load_tensor(w, kDst);
  check_tensor_operands(kOperands, w, g, *opts.engine, d);
  const bool src_counted = search_count_evaluated(src, in);
  if (src_counted && src.count() > kSearchMaxElements)
    d.fail("s4d4_mr_src_element_cnt", kSrc.name,
           fmt::format("count = {} ({})", src.count(), tensor_text(src)),
           "count(src) must be <= 16384");
  if (src_counted && search_count_evaluated(dst, outd) && dst.count() != src.count())
    d.fail("s4d4_mr_same_src_dst_element_cnt", kDst.name,
           fmt::format("count(dst) = {}, count(src) = {}", dst.count(), src.count()),
           "count(dst) must equal count(src)");
  check_reserved(d, "s4d4_mr_reserved_zero", w, kReserved0);
}

std::optional<Fault> execute_match_replace8(const Word& w, const Machine& m,
                                            const ResolvedOperands& ops, Writer& out,
                                            const ExecEnv& env) {
  const bool fast = env.fast;
  const SearchIo io = search_io(ops, w, out);
  const Operand& src = io.src;
  const uint32_t immediate = load_u32(w, kImmediate.offset);
  const uint32_t replacement = from_fp32(io.dout, immediate);

  run_match_channels(
      m, io, fast, io.in_size + io.out_size, out,
      [&](unsigned c, const uint8_t* in, const MatchLane& before, MatchLane& lane) {
        if (fast && kernels::match_replace_channel(in, src.walk, io.din, before, lane, immediate,
                                                   io.dout, io.dst_bytes[c], io.dwalk))
          return;
        thread_local std::vector<uint32_t> y;
        y.resize(io.st.count());
        src.walk.for_each([&](uint64_t i, uint32_t off) {
          y[i] = from_fp32(io.dout, to_fp32(io.din, load_elem(in + off, io.in_size)));
        });
        thread_local std::vector<uint32_t> hits;
        hits.clear();
        lane = match_walk(in, src.walk, io.din, before,
                          [&](uint64_t i) { hits.push_back(static_cast<uint32_t>(i)); });
        for (uint32_t i : hits) y[i] = replacement;
        io.dwalk.for_each([&](uint64_t i, uint32_t off) {
          store_elem(io.dst_bytes[c] + off, io.out_size, y[i]);
        });
      });
  return std::nullopt;
}

namespace {

void explain_match_replace8(const Decoded& d, const Machine& m, Explainer& x) {
  explain_operands(kOperands, d, m, x);
  x.line("effect",
         fmt::format("the match of FindIndex8 (lowest free slot with an equal match value takes "
                     "each element, in walk order); destination ordinal i gets the immediate {} "
                     "where element i was taken, and element i through FP32 elsewhere. The "
                     "lane's flags and indices are updated.",
                     format_value(Dtype::FP32, u32(d, "immediate"))));
}

Word sample_match_replace8(unsigned p) {
  Word w = sample_search(F, Opcode::MatchReplace8, p, Dtype::FP32, sample_tensor(4, p, 256, 16));
  put_u32(w, field_of(F, "immediate"), 0xc61c0000u);  // -9984.0
  return w;
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kMatchReplace8Ops = {
    .validate = detail::validate_match_replace8,
    .execute = detail::execute_match_replace8,
    .explain = detail::explain_match_replace8,
    .sample = detail::sample_match_replace8,
    .sample_label = "MatchReplace8 fp32",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
