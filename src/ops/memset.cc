// Memset (0x49, D4_MR): per channel, every element of a 4-D destination walk gets the low
// size(dtype) bytes of set_value, the destination dtype's own bit pattern: no conversion,
// nothing read (SPEC §4.18). It runs on DVE and POOL; on ACT it faults unsupported-op
// (SPEC §3.9 item 4).
#include <array>

#include "gpsimd/format.h"
#include "kernels/reduce.h"
#include "kernels/thread_pool.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kMemset;
constexpr FieldDef kReserved0 = field_of(F, "reserved0");
constexpr FieldDef kCount = field_of(F, "dst_element_count");
constexpr FieldDef kDtype = field_of(F, "dtype");
constexpr FieldDef kReserved1 = field_of(F, "reserved1");
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kReserved2 = field_of(F, "reserved2");
constexpr FieldDef kSerialization = field_of(F, "serialization_mode");
constexpr FieldDef kReserved3 = field_of(F, "reserved3");
constexpr FieldDef kSetValue = field_of(F, "set_value");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");

// SPEC §4.18, §8.5: the destination walk is written; nothing is read (set_value is in
// the word).
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kDtype)),
};
enum : unsigned { kDstOp };
constexpr Operands kOperands{kOperandList, kChannels};

// memset_set_value_type's arms (SPEC §4.18): the dtypes whose fill takes all 32 bits of
// set_value, the low 16 bits, the low 8 bits. Every other dtype (FP32R included) is in no
// arm.
constexpr DtypeSet kWhole = {Dtype::FP32, Dtype::INT32, Dtype::UINT32};
constexpr DtypeSet kLow16 = {Dtype::UINT16, Dtype::INT16, Dtype::BF16, Dtype::FP16};
constexpr DtypeSet kLow8 = {Dtype::UINT8, Dtype::INT8, Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};

void set_value_type(DiagSink& d, uint8_t dtype, uint32_t v) {
  if (dtype_in(kWhole, dtype)) return;
  const bool in16 = dtype_in(kLow16, dtype), in8 = dtype_in(kLow8, dtype);
  if (in16 && (v & 0xffff0000u) == 0) return;
  if (in8 && (v & 0xffffff00u) == 0) return;
  const std::string value = fmt::format("{} with dtype {}", hex32(v), dtype_text(dtype));
  if (in16 || in8)
    d.fail("memset_set_value_type", kSetValue.name, value,
           fmt::format("a {}-bit dtype must have zero bits {}-31 in set_value (mask {}): its "
                       "bit pattern in the low {} byte{}",
                       in16 ? 16 : 8, in16 ? 16 : 8, in16 ? "0xffff0000" : "0xffffff00",
                       in16 ? 2 : 1, in16 ? "s" : ""));
  else
    d.fail("memset_set_value_type", kDtype.name, value,
           "dtype must be FP32, INT32, UINT32 (any set_value), UINT16, INT16, BF16, FP16 (low 16 "
           "bits) or UINT8, INT8, FP8_E3, FP8_E4, FP8_E5 (low 8 bits)");
}

// The clauses of SPEC §4.18 in its order; header, events and has_memset_opcode are
// checked by validate_as.
void validate_memset(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  for (const FieldDef& f : {kReserved0, kReserved1, kReserved2, kReserved3})
    check_reserved(d, "d4_mr_reserved_zero", w, f);
  const uint8_t dtype = w[kDtype.offset];
  check_valid_dtype(d, "is_valid_dtype", kDtype.name, dtype, true);
  set_value_type(d, dtype, load_u32(w, kSetValue.offset));
  check_one_of(d, "d4_mr_zero_serialization", kSerialization.name, w[kSerialization.offset], {0},
               "must be Serial (0x0), the only REG_SERIAL_MODE Memset allows");
  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, n);
  check_tensor_operands(kOperands, w, g, *opts.engine, d);
  // Static for a register-mode dst too (both numbers are in the word), and the literal
  // formula when a num_elem is 0 (SPEC §3.6); count() is an exact 64-bit product (§3.5).
  const TensorDesc dst = load_tensor(w, kDst);
  const uint32_t count = load_u32(w, kCount.offset);
  if (count != dst.count())
    d.fail("d4_mr_dst_element_count", kCount.name,
           fmt::format("{}, count(dst) = {}", count, dst.count()),
           "dst_element_count must equal count(dst_mem_pattern)");
}

// SPEC §3.9 item 4: Memset runs on DVE and POOL, not on ACT.
std::optional<Fault> unsupported_memset(const Word&, Engine engine) {
  if (engine == Engine::ACT)
    return Fault{FaultKind::UnsupportedOp,
                 "Memset on act: Memset does not run on the ACT engine (SPEC §3.9: dve or pool)"};
  return std::nullopt;
}

std::optional<Fault> execute_memset(const Word& w, const Machine&, const ResolvedOperands& ops,
                                    Writer& out, const ExecEnv& env) {
  const unsigned n = w[kChannels.offset];
  const unsigned size = *dtype_size(w[kDtype.offset]);
  const uint32_t value = model::memset_pattern(load_u32(w, kSetValue.offset), size);
  const Operand& dst = ops.tensor(kDstOp);
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());
  // The reference, one channel: every ordinal of the walk gets the pattern.
  auto reference_channel = [&](unsigned c) {
    dwalk.for_each([&](uint64_t, uint32_t off) { store_elem(dst_bytes[c] + off, size, value); });
  };
  if (!env.fast) {
    for (unsigned c = 0; c < n; ++c) reference_channel(c);
    return std::nullopt;
  }
  // Fast: a contiguous walk is one fill (kernels/reduce.h); the reference otherwise.
  kernels::for_channels(n, uint64_t{n} * dwalk.count() * size, [&](unsigned c) {
    if (!kernels::memset_channel(dst_bytes[c], dwalk, size, value)) reference_channel(c);
  });
  return std::nullopt;
}

void explain_memset(const Decoded& d, const Machine& m, Explainer& x) {
  explain_operands(kOperands, d, m, x);
  const uint64_t dt = d.integer("dtype");
  const uint32_t v = u32(d, "set_value");
  const std::optional<unsigned> size = dtype_size(static_cast<uint8_t>(dt));
  if (!size) {
    x.line("effect",
           fmt::format("reads nothing; set_value {} has no {} pattern", hex32(v), dtype_str(dt)));
    return;
  }
  const uint32_t pattern = model::memset_pattern(v, *size);
  x.line(
      "effect",
      fmt::format("reads nothing; writes {:#0{}x} (the low {} byte{} of set_value {}, taken as "
                  "{}'s bit pattern, no conversion) to every element of the destination walk "
                  "of each channel; on ACT it faults unsupported-op.",
                  pattern, 2 + 2 * *size, *size, *size == 1 ? "" : "s", hex32(v), dtype_str(dt)));
}

// An FP32 fill of 1.0 over 16 elements at 0x100.
Word sample_memset(unsigned p) {
  Word w = header_word(Opcode::Memset);
  put_u32(w, kCount, 16);
  put_u8(w, kDtype, static_cast<uint8_t>(Dtype::FP32));
  put_u8(w, kChannels, 1);
  put_u32(w, kSetValue, 0x3f800000u);
  put_tensor(w, kDst, sample_tensor(4, p, 256, 16));
  return w;
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kMemsetOps = {
    .validate = detail::validate_memset,
    .execute = detail::execute_memset,
    .explain = detail::explain_memset,
    .sample = detail::sample_memset,
    .sample_label = "Memset fp32 1.0",
    .operands = &detail::kOperands,
    .unsupported = detail::unsupported_memset,
};
}  // namespace gpsimd
