// Iota (0x7e, D4_IOTA): write the ramp base + Σ i[d]*step[d] + c*channel_multiplier of
// each channel c along a 4-D destination walk, converted to out_dtype (SPEC §4.6).
#include <array>

#include "kernels/affine.h"
#include "kernels/kernels.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kIota;
constexpr FieldDef kPattern = field_of(F, "src_data_pattern");
constexpr FieldDef kReserved0 = field_of(F, "reserved0");
constexpr FieldDef kOutDtype = field_of(F, "out_dtype");
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kReserved1 = field_of(F, "reserved1");
constexpr FieldDef kMultiplier = field_of(F, "channel_multiplier");
constexpr FieldDef kReserved2 = field_of(F, "reserved2");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");

// SPEC §4.6, §8.5: the destination walk is written; nothing is read.
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kOutDtype)),
};
enum : unsigned { kDstOp };
constexpr Operands kOperands{kOperandList, kChannels};

}  // namespace

void validate_iota(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  check_reserved(d, "d4_iota_reserved_zero", w, kReserved0);
  check_reserved(d, "d4_iota_reserved_zero", w, kReserved1);
  check_reserved(d, "d4_iota_reserved_zero", w, kReserved2);
  const uint8_t dtype = w[kOutDtype.offset];
  check_valid_dtype(d, "is_valid_dtype", kOutDtype.name, dtype, true);
  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, n);

  const TensorDesc dst = load_tensor(w, kDst), pattern = load_tensor(w, kPattern);
  check_tensor_operands(kOperands, w, g, *opts.engine, d);
  // d4_iota_same_src_dst_count: static for a register-mode dst too (no escape).
  for (unsigned k = 0; k < kMaxDims; ++k)
    if (pattern.num[k] == 0)
      d.fail("d4_iota_same_src_dst_count", kPattern.name, fmt::format("num_elem[{}] = 0", k),
             "every src num_elem must be >= 1");
  if (pattern.count() != dst.count())
    d.fail("d4_iota_same_src_dst_count", kDst.name,
           fmt::format("count(dst) = {}, count(src) = {}", dst.count(), pattern.count()),
           "count(dst) must equal count(src)");
}

std::optional<Fault> execute_iota(const Word& w, const Machine&, const ResolvedOperands& ops,
                                  Writer& out, const ExecEnv& env) {
  const bool fast = env.fast;
  const unsigned n = w[kChannels.offset];
  const uint8_t dtype = w[kOutDtype.offset];
  const unsigned size = *dtype_size(dtype);
  const TensorDesc dt = load_tensor(w, kDst), pattern = load_tensor(w, kPattern);

  const Operand& dst = ops.tensor(kDstOp);
  const auto mult = static_cast<int32_t>(load_u32(w, kMultiplier.offset));
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());

  // The reference, one channel: the ramp's ordinal j goes to the destination's ordinal j.
  // Both walks have the same count and the same order, so they advance together.
  auto reference_channel = [&](unsigned c, uint8_t* bytes) {
    std::vector<uint32_t> v(pattern.count());
    Ramp::of(pattern, mult, c).for_each([&](uint64_t j, int32_t x) {
      v[j] = model::iota_convert(dtype, x);
    });
    dwalk.for_each([&](uint64_t j, uint32_t off) { store_elem(bytes + off, size, v[j]); });
  };
  if (!fast) {
    for (unsigned c = 0; c < n; ++c) reference_channel(c, dst_bytes[c]);
    return std::nullopt;
  }
  kernels::for_channels(n, uint64_t{n} * dt.count() * size, [&](unsigned c) {
    if (!kernels::iota_channel(Ramp::of(pattern, mult, c), dst_bytes[c], dwalk,
                               static_cast<Dtype>(dtype)))
      reference_channel(c, dst_bytes[c]);
  });
  return std::nullopt;
}

namespace {

void explain_iota(const Decoded& d, const Machine& m, Explainer& x) {
  const unsigned n = u32(d, "num_active_channels");
  const uint64_t dt = d.integer("out_dtype");
  const auto mult = static_cast<int32_t>(u32(d, "channel_multiplier"));
  x.line("channels", channels_text(n));
  x.line("ramp", "src_data_pattern: v = " + ramp_text(d.tensor("src_data_pattern"), mult));
  x.line("writes",
         tensor_text("writes", row(d, "dst_mem_pattern"), d.tensor("dst_mem_pattern"), dt, n, m));
  const bool is_int = is_int_dtype(static_cast<Dtype>(dt));
  x.line("effect",
         fmt::format(
             "reads nothing; writes ramp value j of channel c to destination ordinal j, {}.",
             is_int ? fmt::format("as {}: {}", dtype_str(dt),
                                  dtype_size(static_cast<uint8_t>(dt)).value_or(4) == 4
                                      ? std::string("the int32's 32 bits")
                                      : fmt::format("the low {} bits of the int32",
                                                    8 * *dtype_size(static_cast<uint8_t>(dt))))
                    : fmt::format("as {}: int32 to FP32 rounded to nearest even{}", dtype_str(dt),
                                  dtype_size(static_cast<uint8_t>(dt)).value_or(4) == 4
                                      ? ""
                                      : ", then rounded again to the narrow format")));
}

Word sample_iota(unsigned p) {
  Word w = header_word(Opcode::Iota);
  TensorDesc ramp = sample_tensor(4, p, 0, 16);  // 5, 6, ..., 20
  ramp.addr = 5;
  put_tensor(w, field_of(F, "src_data_pattern"), ramp);
  put_u8(w, field_of(F, "out_dtype"), 0x08);  // INT32
  put_u8(w, field_of(F, "num_active_channels"), 1);
  put_tensor(w, field_of(F, "dst_mem_pattern"), sample_tensor(4, p, 256, 16));
  return w;
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kIotaOps = {
    .validate = detail::validate_iota,
    .execute = detail::execute_iota,
    .explain = detail::explain_iota,
    .sample = detail::sample_iota,
    .sample_label = "Iota int32",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
