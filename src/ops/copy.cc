// Copy (0x46, S4D4_TR): a 4-D source walk to a 4-D destination walk of the same count,
// the bits unchanged (SPEC §4.16): §5.1's cast with equal dtypes. On the ACT engine of V2
// every element goes through FP32 instead (INT32 2^24 + 1 becomes 2^24).
// Cast (0x47, S4D4_TR): Copy's walk, every element converted from in_dtype to out_dtype
// by SPEC §5.1's cast (equal dtypes copy the bits, every other pair goes through FP32;
// SPEC §4.17). On the ACT engine of V2 every element goes through FP32. Its clauses are
// Copy's without s4d4_tr_same_src_dst_type, its effect Copy's.
// The two opcodes are one family (S4D4_TR): everything below is shared but each
// opcode's wrapper, explain wording and sample at the end.
#include <array>
#include <vector>

#include "gpsimd/alu.h"
#include "gpsimd/format.h"
#include "kernels/kernels.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kCopy;
constexpr FieldDef kSrc = field_of(F, "src_mem_pattern");
constexpr FieldDef kInDtype = field_of(F, "in_dtype");
constexpr FieldDef kOutDtype = field_of(F, "out_dtype");
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kNegated = field_of(F, "negated");
constexpr FieldDef kOp = field_of(F, "op");
constexpr FieldDef kOpDim = field_of(F, "op_dim");
constexpr FieldDef kMaskEnable = field_of(F, "mask_enable");
constexpr FieldDef kReserved1 = field_of(F, "reserved1");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");

// SPEC §4.16, §4.17, §8.5: the source walk read, the destination walk written, on the
// engine's rules (PSUM off POOL).
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kSrc, AccessKind::Read, dtype_byte(kInDtype)),
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kOutDtype)),
};
enum : unsigned { kSrcOp, kDstOp };
constexpr Operands kOperands{kOperandList, kChannels};

// SPEC §3.9 item 3: ACT on V2 takes every element through FP32.
bool through_fp32(Engine e, Generation g) {
  return e == Engine::ACT && model::act_copies_through_fp32(static_cast<unsigned>(g));
}

}  // namespace

void validate_s4d4_tr(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d,
                      bool cast) {
  const Engine engine = *opts.engine;  // validate_as() resolves the engine input
  check_reserved(d, "s4d4_tr_reserved_zero", w, kReserved1);
  if (w[kMaskEnable.offset] != 0)
    d.fail("mask_enable_zero", kMaskEnable.name, hex8(w[kMaskEnable.offset]), "must be 0");
  const auto [in, out] = check_in_out_dtypes(d, w, kInDtype, kOutDtype);
  // is_valid_enum and s4d4_tr_op_bypass are both evaluated: a byte that is no ALU_OP on
  // the generation fails both (SPEC §3.6).
  const uint8_t op = w[kOp.offset];
  if (!alu::is_enumerator(op, g))
    d.fail(
        "is_valid_enum", kOp.name, hex8(op),
        fmt::format("must be an ALU_OP of {}: {}", generation_name(g), alu::enumerators_text(g)));
  check_one_of(d, "is_zero_subdim", kOpDim.name, w[kOpDim.offset], {0x0, 0x2},
               "a TENSOR_SUBDIM Copy and Cast allow: UNUSED (0x0) or X (0x2)");
  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, n);
  const TensorDesc src = load_tensor(w, kSrc), dst = load_tensor(w, kDst);
  check_tensor_operands(kOperands, w, g, engine, d);
  // Static for register-mode operands too (no escape), and the literal formula when a
  // num_elem is 0 (SPEC §3.6); the counts are exact 64-bit products (§3.5).
  if (src.count() != dst.count())
    d.fail("s4d4_tr_same_src_dst_count", kDst.name,
           fmt::format("count(dst) = {}, count(src) = {}", dst.count(), src.count()),
           "count(dst) must equal count(src)");
  if (op != static_cast<uint8_t>(AluOp::BYPASS))
    d.fail("s4d4_tr_op_bypass", kOp.name,
           fmt::format("{} ({})", hex8(op), alu_op_name(op).value_or("no ALU_OP")),
           "must be BYPASS (0x00)");
  if (!cast && out != in)
    d.fail("s4d4_tr_same_src_dst_type", kOutDtype.name,
           fmt::format("{}, in_dtype = {}", dtype_text(out), dtype_text(in)),
           "must equal in_dtype (Copy keeps the bits; Cast converts)");
  if (w[kNegated.offset] != 0)
    d.fail("has_zero_negated_field", kNegated.name, hex8(w[kNegated.offset]), "must be 0");
}

std::optional<Fault> execute_s4d4_tr(const Word& w, const Machine& m, const ResolvedOperands& ops,
                                     Writer& out, const ExecEnv& env) {
  // Copy and Cast never fault unsupported-op (SPEC §3.9 item 4).
  const unsigned n = w[kChannels.offset];
  const auto din = static_cast<Dtype>(w[kInDtype.offset]);
  const auto dout = static_cast<Dtype>(w[kOutDtype.offset]);
  const unsigned in_size = *dtype_size(din), out_size = *dtype_size(dout);
  const TensorDesc st = load_tensor(w, kSrc);

  // No shape-mismatch: the count clause is static.

  const Operand& src = ops.tensor(kSrcOp);
  const Operand& dst = ops.tensor(kDstOp);
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());
  const bool through = through_fp32(env.engine, m.generation());

  // The reference, one channel: the source in ordinal order, each element converted,
  // then stored along the destination walk (the later ordinal wins).
  auto reference_channel = [&](unsigned c, std::vector<uint32_t>& y) {
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    y.resize(st.count());
    src.walk.for_each([&](uint64_t j, uint32_t off) {
      const uint32_t x = load_elem(in + off, in_size);
      y[j] = through ? convert_through_fp32(x, din, dout) : convert(x, din, dout);
    });
    dwalk.for_each(
        [&](uint64_t j, uint32_t off) { store_elem(dst_bytes[c] + off, out_size, y[j]); });
  };
  if (!env.fast) {
    std::vector<uint32_t> y;
    for (unsigned c = 0; c < n; ++c) reference_channel(c, y);
    return std::nullopt;
  }
  kernels::for_channels(n, uint64_t{n} * st.count() * (in_size + out_size), [&](unsigned c) {
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    if (kernels::copy_channel(in, src.walk, din, dst_bytes[c], dwalk, dout, through)) return;
    thread_local std::vector<uint32_t> y;
    reference_channel(c, y);
  });
  return std::nullopt;
}

namespace {

// What §5.1's table says of a pair, in words.
std::string pair_text(Dtype in, Dtype out) {
  const auto k = conversion_kind(in, out);
  if (!k) return "(a dtype outside SPEC §5.1's table)";
  const std::string name =
      fmt::format("{} -> {}, SPEC §5.1 \"{}\"", dtype_str(static_cast<uint8_t>(in)),
                  dtype_str(static_cast<uint8_t>(out)), conversion_letter(*k));
  switch (*k) {
    case ConversionKind::Same:
      return name + ": the bits unchanged";
    case ConversionKind::Widen:
      return name + ": widened exactly (a NaN keeps its payload and gets the quiet bit)";
    case ConversionKind::Exact:
      return name + ": exact, every source value is a destination value (NaN canonical)";
    case ConversionKind::Round:
      return name + ": rounded once to nearest even (beyond the finite range ±inf, NaN canonical)";
    case ConversionKind::RoundTwice:
      return name + ": rounded to FP32, then again to the narrow float (round to nearest even)";
    case ConversionKind::FloatToInt:
      return name + ": rounded to nearest even and saturated; NaN becomes 0";
    case ConversionKind::Saturate:
      return name + ": clamped to the destination's range";
    case ConversionKind::Saturate24:
      return name + ": rounded to FP32 (beyond 2^24), then clamped";
  }
  return name;
}

}  // namespace

void explain_s4d4_tr(const Decoded& d, const Machine& m, Explainer& x, bool cast) {
  const uint64_t din = d.integer("in_dtype"), dout = d.integer("out_dtype");
  explain_operands(kOperands, d, m, x);
  const auto in = static_cast<Dtype>(din), out = static_cast<Dtype>(dout);
  const std::string act = fmt::format(" On ACT on V2 every element goes through FP32 instead ({}).",
                                      in == out && is_int_dtype(in) && *dtype_size(in) == 4
                                          ? "values beyond 2^24 are rounded"
                                          : "SPEC §5.1's two halves apart, equal dtypes too");
  x.line("effect",
         fmt::format("pairs the source and destination walks by ordinal j (the shapes may differ, "
                     "the counts agree); destination ordinal j gets source element j {}.{}",
                     cast ? "converted: " + pair_text(in, out) : std::string("bit for bit"), act));
}

Word sample_s4d4_tr(Opcode op, unsigned p, Dtype in, Dtype out) {
  Word w = header_word(op);
  put_tensor(w, kSrc, sample_tensor(4, p, 0, 16));
  put_u8(w, kInDtype, static_cast<uint8_t>(in));
  put_u8(w, kOutDtype, static_cast<uint8_t>(out));
  put_u8(w, kChannels, 1);
  put_tensor(w, kDst, sample_tensor(4, p, 256, 16));
  return w;
}

namespace {

void validate_copy(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  validate_s4d4_tr(w, g, opts, d, false);
}

void explain_copy(const Decoded& d, const Machine& m, Explainer& x) {
  explain_s4d4_tr(d, m, x, false);
}

Word sample_copy(unsigned p) {
  return sample_s4d4_tr(Opcode::Copy, p, Dtype::FP32, Dtype::FP32);
}

void validate_cast(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  validate_s4d4_tr(w, g, opts, d, true);
}

void explain_cast(const Decoded& d, const Machine& m, Explainer& x) {
  explain_s4d4_tr(d, m, x, true);
}

// FP32 to BF16: NKI's most common tensor_copy (an accumulation down to BF16).
Word sample_cast(unsigned p) {
  return sample_s4d4_tr(Opcode::Cast, p, Dtype::FP32, Dtype::BF16);
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kCopyOps = {
    .validate = detail::validate_copy,
    .execute = detail::execute_s4d4_tr,
    .explain = detail::explain_copy,
    .sample = detail::sample_copy,
    .sample_label = "Copy fp32",
    .operands = &detail::kOperands,
};
const detail::OpSemantics table::kCastOps = {
    .validate = detail::validate_cast,
    .execute = detail::execute_s4d4_tr,
    .explain = detail::explain_cast,
    .sample = detail::sample_cast,
    .sample_label = "Cast fp32->bf16",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
