// FindIndex8 (0x6e, S4D2_BN): per channel, the match core over the source walk on lane
// src partition + c (each unmatched slot takes the first equal element not already
// consumed), then the lane's eight indices written along the destination walk, slot n
// at ordinal n, as UINT16 or UINT32 (SPEC §4.9).
#include <array>

#include "kernels/kernels.h"
#include "ops/explain.h"
#include "ops/op.h"
#include "ops/search.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kFindIndex8;
constexpr FieldDef kOutDtype = field_of(F, "out_dtype");

// SPEC §8.5: the source walk is read, the destination walk written, the source
// partitions' search lanes read and written.
constexpr auto kOperandList = search_operands(F);
constexpr Operands kOperands{kOperandList, field_of(F, "num_active_channels")};

constexpr DtypeSet kIndexDtypes = {Dtype::UINT16, Dtype::UINT32};

}  // namespace

void validate_find_index8(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  validate_s4d2_bn(w, g, *opts.engine, d);
  check_dtype_in(d, "has_find_index8_dst_type", kOutDtype.name, w[kOutDtype.offset], kIndexDtypes);
}

std::optional<Fault> execute_find_index8(const Word& w, const Machine& m,
                                         const ResolvedOperands& ops, Writer& out,
                                         const ExecEnv& env) {
  const bool fast = env.fast;
  const SearchIo io = search_io(ops, w, out);
  const Operand& src = io.src;

  run_match_channels(
      m, io, fast, io.in_size, out,
      [&](unsigned c, const uint8_t* in, const MatchLane& before, MatchLane& lane) {
        if (!fast || !kernels::match_channel(in, src.walk, io.din, before, lane, nullptr))
          lane = match_lane_reference(in, src.walk, io.din, before);
        if (fast) {
          kernels::find_index8_store(lane, io.out_size, io.dst_bytes[c], io.dwalk);
          return;
        }
        io.dwalk.for_each([&](uint64_t k, uint32_t off) {
          store_elem(io.dst_bytes[c] + off, io.out_size, int_low_bits(io.dout, lane.idx[k]));
        });
      });
  return std::nullopt;
}

namespace {

void explain_find_index8(const Decoded& d, const Machine& m, Explainer& x) {
  explain_operands(kOperands, d, m, x);
  x.line("effect",
         "each source element, in walk order and as FP32, is taken by the lowest slot "
         "not yet matched whose match value equals it (NaN equals nothing, -0.0 == "
         "+0.0); that slot records the element's ordinal and is marked matched. Then "
         "destination ordinal n gets slot n's index (0xFFFFFFFF, or 0xFFFF as UINT16, "
         "when it found nothing). Matched flags stay set until the next "
         "MatchValueLoad.");
}

// UINT32 indices.
Word sample_find_index8(unsigned p) {
  return sample_search(F, Opcode::FindIndex8, p, Dtype::UINT32, sample_tensor(2, p, 256, 8));
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kFindIndex8Ops = {
    .validate = detail::validate_find_index8,
    .execute = detail::execute_find_index8,
    .explain = detail::explain_find_index8,
    .sample = detail::sample_find_index8,
    .sample_label = "FindIndex8 fp32",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
