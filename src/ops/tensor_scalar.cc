// The four TensorScalar opcodes (SPEC §4.15, S3D3_TS), one clause set and one effect:
// per channel c and ordinal j, with x = src[j] and the scalars s0, s1 of channel c,
//
//   t = op0 == BYPASS ? x : reverse FIRST/BOTH  ? op0(s0, x) : op0(x, s0)
//   r = op1 == BYPASS ? t : reverse SECOND/BOTH ? op1(s1, t) : op1(t, s1)
//
// TensorScalarArith (0x43) and TensorScalarPtrArith (0x44) take the FP32 path of SPEC
// §3.8.1 (x = to_fp32(src), t stays FP32, dst = from_fp32(r)) with FP32 immediates;
// TensorScalarBitvec (0x53) and TensorScalarPtrBitvec (0x54) the raw bits of in_dtype's
// width, with immediates of that width. 0x44 and 0x54 read both immediates through
// pointers whatever *_src says. The four opcodes' rows differ only in their Form: this
// file is the family's, each opcode's OpSemantics at its end.
//
// TensorScalarCacheCumulative (0xe6) has the same bytes and computes a running value per
// channel, reg = op1(op0(x, s0), reg), written at every element and left in the source
// partition's accumulator (SPEC §4.24); its section is at the end of this file.
#include <fmt/format.h>

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "alu/eval.h"
#include "gpsimd/alu.h"
#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "kernels/alu_stream.h"
#include "kernels/cumulative.h"
#include "kernels/thread_pool.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail::tensor_scalar {

// Which of the four opcodes a word is validated or executed as.
struct Form {
  Opcode opcode;
  bool bitvec;   // 0x53/0x54: raw bits; otherwise the FP32 path
  bool pointer;  // 0x44/0x54: both immediates are pointers
};
inline constexpr Form kArith{Opcode::TensorScalarArith, false, false};
inline constexpr Form kBitvec{Opcode::TensorScalarBitvec, true, false};
inline constexpr Form kPtrArith{Opcode::TensorScalarPtrArith, false, true};
inline constexpr Form kPtrBitvec{Opcode::TensorScalarPtrBitvec, true, true};

// The rows of S3D3_TS (the four opcodes' arrays differ only in how an immediate is
// written, not in their bytes).
inline constexpr auto& F = table::kTensorScalarArith;
inline constexpr FieldDef kAccumCmd = field_of(F, "accumulator_cmd");
inline constexpr FieldDef kReserved0 = field_of(F, "reserved0");
inline constexpr FieldDef kSrc = field_of(F, "src_mem_pattern");
inline constexpr FieldDef kInDtype = field_of(F, "in_dtype");
inline constexpr FieldDef kOutDtype = field_of(F, "out_dtype");
inline constexpr FieldDef kChannels = field_of(F, "num_active_channels");
inline constexpr FieldDef kImm0Src = field_of(F, "imm0_src");
inline constexpr FieldDef kOp0 = field_of(F, "op0");
inline constexpr FieldDef kOp1 = field_of(F, "op1");
inline constexpr FieldDef kReverse = field_of(F, "reverse_operands");
inline constexpr FieldDef kImm1Src = field_of(F, "imm1_src");
inline constexpr FieldDef kImm0 = field_of(F, "imm0");
inline constexpr FieldDef kImm1 = field_of(F, "imm1");
inline constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");
static_assert(field_of(table::kTensorScalarBitvec, "imm1").offset == kImm1.offset &&
              field_of(table::kTensorScalarPtr, "dst_mem_pattern").offset == kDst.offset);

// SPEC §4.15's tensor_scalar_valid_types: the bitvec opcodes' dtypes (in == out).
inline constexpr DtypeSet kBitvecDtypes = {Dtype::INT8,   Dtype::UINT8, Dtype::INT16,
                                           Dtype::UINT16, Dtype::INT32, Dtype::UINT32};

constexpr uint8_t code(AluOp op) {
  return static_cast<uint8_t>(op);
}
inline constexpr uint8_t kBypass = code(AluOp::BYPASS);

// The scalar is the left operand of op0 (FIRST, BOTH) and of op1 (SECOND, BOTH).
constexpr bool reverses_op0(uint8_t rev) {
  return rev == static_cast<uint8_t>(RevOps::FIRST) || rev == static_cast<uint8_t>(RevOps::BOTH);
}
constexpr bool reverses_op1(uint8_t rev) {
  return rev == static_cast<uint8_t>(RevOps::SECOND) || rev == static_cast<uint8_t>(RevOps::BOTH);
}

// The byte width of an immediate: an FP32 for the arithmetic opcodes whatever the data
// dtype, size(in_dtype) for the bitvec ones (nullopt for a dtype without a size).
inline std::optional<unsigned> imm_width(Form f, uint8_t in_dtype) {
  if (f.bitvec) return dtype_size(in_dtype);
  return 4u;
}

// SPEC §4.15, §8.5: the source walk and both immediates (pointers by *_src, or always for
// the pointer forms) are read, the destination walk written. Both immediates are resolved
// even when their op is BYPASS [model].
consteval std::array<OperandDecl, 4> operand_list(Form f) {
  const DtypeRef imm = f.bitvec ? dtype_byte(kInDtype) : dtype_fixed(Dtype::FP32);
  return {tensor_operand(kSrc, AccessKind::Read, dtype_byte(kInDtype)),
          tensor_operand(kDst, AccessKind::Write, dtype_byte(kOutDtype)),
          f.pointer ? pointer_operand(kImm0, imm) : immediate_operand(F, "imm0", imm),
          f.pointer ? pointer_operand(kImm1, imm) : immediate_operand(F, "imm1", imm)};
}
enum : unsigned { kSrcOp, kDstOp, kImm0Op, kImm1Op };
inline constexpr auto kArithList = operand_list(kArith), kBitvecList = operand_list(kBitvec),
                      kPtrArithList = operand_list(kPtrArith),
                      kPtrBitvecList = operand_list(kPtrBitvec);
// The vendor's clause names of S3D3_TS.
inline constexpr std::string_view kMem = "mem3d_valid", kM3dChannels = "check_m3d_active_channels";
inline constexpr Operands kArithOperands{
    kArithList, kChannels, 1, same_count, kMem, kM3dChannels, "tensor_scalar_immediates_check"},
    kBitvecOperands{kBitvecList,
                    kChannels,
                    1,
                    same_count,
                    kMem,
                    kM3dChannels,
                    "tensor_scalar_immediates_check"},
    kPtrArithOperands{kPtrArithList,
                      kChannels,
                      1,
                      same_count,
                      kMem,
                      kM3dChannels,
                      "tensor_scalar_ptr_immediates"},
    kPtrBitvecOperands{kPtrBitvecList,
                       kChannels,
                       1,
                       same_count,
                       kMem,
                       kM3dChannels,
                       "tensor_scalar_ptr_immediates"};
template <const Form& K>
inline constexpr const Operands& operands_of_form = K.pointer ? (K.bitvec ? kPtrBitvecOperands
                                                                          : kPtrArithOperands)
                                                              : (K.bitvec ? kBitvecOperands
                                                                          : kArithOperands);
inline const Operands& operands_of(Form f) {
  if (f.pointer) return f.bitvec ? kPtrBitvecOperands : kPtrArithOperands;
  return f.bitvec ? kBitvecOperands : kArithOperands;
}

// "SUBTRACT (0x05)", or "0x25 (not an ALU_OP)".
inline std::string op_text(uint8_t op) {
  if (auto n = alu_op_name(op)) return fmt::format("{} ({:#04x})", *n, op);
  return fmt::format("{:#04x} (not an ALU_OP)", op);
}
// "ADD, SUBTRACT, ...": the enumerators on g that `pred` holds for, from the op table.
inline std::string ops_text(bool (*pred)(uint8_t), Generation g) {
  std::string s;
  for (const alu::OpRow& r : alu::kOps)
    if (alu::is_enumerator(r.code, g) && pred(r.code))
      s += (s.empty() ? "" : ", ") + std::string(r.name);
  return s;
}

// ---- the clauses (SPEC §4.15) ------------------------------------------------------------

// The value of a clause about both ops, for the diagnostic of `field`: "RSQRT (0x1d), op0 is
// MULT (0x06)".
inline std::string ops_value(std::string_view field, uint8_t op0, uint8_t op1) {
  return field == kOp0.name ? fmt::format("{}, op1 is {}", op_text(op0), op_text(op1))
                            : fmt::format("{}, op0 is {}", op_text(op1), op_text(op0));
}

// tensor_scalar_valid_ops, for two enumerators: one diagnostic naming the op of the first
// condition that fails, with every failing condition's rule.
inline void check_valid_ops(const Word& w, Generation g, Form form, DiagSink& d) {
  const uint8_t op0 = w[kOp0.offset], op1 = w[kOp1.offset];
  std::string field, rules;
  auto broken = [&](std::string_view f, const std::string& rule) {
    if (field.empty()) field = f;
    rules += (rules.empty() ? "" : "; ") + rule;
  };
  // (1) neither op is DIVIDE, POW or MOD.
  auto banned = [](uint8_t op) {
    return op == code(AluOp::DIVIDE) || op == code(AluOp::POW) || op == code(AluOp::MOD);
  };
  if (banned(op0) || banned(op1))
    broken(banned(op0) ? kOp0.name : kOp1.name, "op0 and op1 must not be DIVIDE, POW or MOD");
  // (2) the op class of the opcode.
  if (form.bitvec) {
    if (!alu::is_bitvec_op(op0) || !alu::is_bitvec_op(op1))
      broken(alu::is_bitvec_op(op0) ? kOp1.name : kOp0.name,
             "both ops must be bitvec ops (" + ops_text(alu::is_bitvec_op, g) + ")");
  } else {
    const bool general = alu::is_general_arith_op(op0) && alu::is_general_arith_op(op1);
    const bool rsqrt = op0 == code(AluOp::RSQRT) && op1 == kBypass && w[kImm0Src.offset] == 0 &&
                       w[kImm1Src.offset] == 0 && load_u32(w, kImm0.offset) == 0 &&
                       load_u32(w, kImm1.offset) == 0;
    const bool int_dve =
        g == Generation::V5 && alu::is_valid_int_aluop_dve(op0) && alu::is_valid_int_aluop_dve(op1);
    if (!general && !rsqrt && !int_dve) {
      std::string rule = "both ops must be general arithmetic ops (" +
                         ops_text(alu::is_general_arith_op, g) +
                         "), or op0 RSQRT with op1 BYPASS and imm0, imm1, imm0_src and imm1_src "
                         "all 0";
      if (g == Generation::V5)
        rule += ", or both ops in the V5 integer set (" + ops_text(alu::is_valid_int_aluop_dve, g) +
                ")";
      broken(alu::is_general_arith_op(op0) ? kOp1.name : kOp0.name, rule);
    }
  }
  // (3) a BYPASS op0 needs a BYPASS op1.
  if (op0 == kBypass && op1 != kBypass) broken(kOp1.name, "op1 must be BYPASS when op0 is BYPASS");
  if (!field.empty()) d.fail("tensor_scalar_valid_ops", field, ops_value(field, op0, op1), rules);
}

inline void validate(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d,
                     Form form) {
  const uint8_t op0 = w[kOp0.offset], op1 = w[kOp1.offset];
  const uint8_t din = w[kInDtype.offset], dout = w[kOutDtype.offset];
  const unsigned n = w[kChannels.offset];

  // is_valid_aluop; tensor_scalar_valid_ops needs both ops' classes (SPEC §3.6).
  for (const FieldDef* f : {&kOp0, &kOp1})
    if (!alu::is_enumerator(w[f->offset], g))
      d.fail("is_valid_aluop", f->name, op_text(w[f->offset]),
             "must be one of " + alu::enumerators_text(g));
  if (alu::is_enumerator(op0, g) && alu::is_enumerator(op1, g)) check_valid_ops(w, g, form, d);

  if (form.bitvec && (!dtype_in(kBitvecDtypes, din) || din != dout))
    d.fail("tensor_scalar_valid_types",
           dtype_in(kBitvecDtypes, din) ? kOutDtype.name : kInDtype.name,
           dtype_in(kBitvecDtypes, din)
               ? fmt::format("{}, in_dtype is {}", dtype_text(dout), dtype_text(din))
               : fmt::format("{}, out_dtype is {}", dtype_text(din), dtype_text(dout)),
           "out_dtype must equal in_dtype, and in_dtype " + must_be_one_of(kBitvecDtypes));

  // The immediates, whatever their ops (a BYPASS op1 does not waive imm1).
  if (form.pointer)
    for (const FieldDef* src : {&kImm0Src, &kImm1Src})
      if (w[src->offset] != 0)
        d.fail("tensor_scalar_ptr_imm_src", src->name, hex8(w[src->offset]),
               "must be 0 (the pointer forms read imm0 and imm1 as pointers whatever *_src says)");
  // For 0x53 and 0x54 not evaluated when in_dtype has no size (SPEC §3.6).
  if (imm_width(form, din)) check_immediate_operands(operands_of(form), w, g, *opts.engine, d);

  if (const auto size = dtype_size(din); size && *size <= 2) {
    const auto left = [](uint8_t op) {
      return op == code(AluOp::ARITH_SHIFT_LEFT) || op == code(AluOp::LOGICAL_SHIFT_LEFT);
    };
    const auto right = [](uint8_t op) {
      return op == code(AluOp::ARITH_SHIFT_RIGHT) || op == code(AluOp::LOGICAL_SHIFT_RIGHT);
    };
    const uint8_t asr = code(AluOp::ARITH_SHIFT_RIGHT);
    if ((left(op0) && right(op1)) || op0 == asr || op1 == asr)
      d.fail("tensor_scalar_shift_chk", op0 == asr ? kOp0.name : kOp1.name,
             fmt::format("{} with in_dtype {}",
                         ops_value(op0 == asr ? kOp0.name : kOp1.name, op0, op1), dtype_text(din)),
             "with a 1- or 2-byte in_dtype, op1 must not be a right shift when op0 is a left "
             "shift, and neither op may be ARITH_SHIFT_RIGHT");
  }

  const TensorDesc src = load_tensor(w, kSrc), dst = load_tensor(w, kDst);
  if (!src.register_mode() && !dst.register_mode() && src.count() != dst.count())
    d.fail("tensor_scalar_tensor_chk", kDst.name,
           fmt::format("{} elements (src_mem_pattern has {})", dst.count(), src.count()),
           "src_mem_pattern and dst_mem_pattern must visit the same number of elements");
  if (w[kReverse.offset] > static_cast<uint8_t>(RevOps::BOTH))
    d.fail("tensor_scalar_reverse_chk", kReverse.name, hex8(w[kReverse.offset]),
           "must be NONE (0), FIRST (1), SECOND (2) or BOTH (3)");
  check_reserved(d, "s3d3_ts_reserved_zero", w, kReserved0);
  check_valid_dtype(d, "is_valid_dtype", kInDtype.name, din, false);
  check_valid_dtype(d, "is_valid_dtype", kOutDtype.name, dout, true);
  if (w[kAccumCmd.offset] != 0)
    d.fail("has_zero_accum_cmd_field", kAccumCmd.name, hex8(w[kAccumCmd.offset]),
           "must be IDLE (0)");
  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, n);
  check_tensor_operands(operands_of(form), w, g, *opts.engine, d);
}

// ---- the effect --------------------------------------------------------------------------

// One element of the effect: x is the source element's bits, s0 and s1 the channel's
// scalars (FP32 bit patterns for the arithmetic opcodes, in_dtype-wide bits for bitvec).
// A fast path may compute whole runs beside it; this is the reference.
struct Element {
  Form form;
  uint8_t op0, op1;
  bool rev0, rev1;  // the scalar is the left operand
  Dtype din, dout;
  unsigned width;  // bitvec: 8 * size(in_dtype)

  uint32_t operator()(uint32_t x, uint32_t s0, uint32_t s1) const {
    if (form.bitvec) {
      const uint32_t t = op0 == kBypass ? x
                         : rev0         ? alu::eval_bits(op0, s0, x, width)
                                        : alu::eval_bits(op0, x, s0, width);
      return op1 == kBypass ? t
             : rev1         ? alu::eval_bits(op1, s1, t, width)
                            : alu::eval_bits(op1, t, s1, width);
    }
    const uint32_t a = to_fp32(din, x);
    const uint32_t t = op0 == kBypass ? a
                       : rev0         ? alu::eval_fp32(op0, s0, a)
                                      : alu::eval_fp32(op0, a, s0);
    const uint32_t r = op1 == kBypass ? t
                       : rev1         ? alu::eval_fp32(op1, s1, t)
                                      : alu::eval_fp32(op1, t, s1);
    return from_fp32(dout, r);
  }
};
inline Element element_of(const Word& w, Form form) {
  const auto din = static_cast<Dtype>(w[kInDtype.offset]);
  return Element{form,
                 w[kOp0.offset],
                 w[kOp1.offset],
                 reverses_op0(w[kReverse.offset]),
                 reverses_op1(w[kReverse.offset]),
                 din,
                 static_cast<Dtype>(w[kOutDtype.offset]),
                 8 * dtype_size(din).value_or(4)};
}

// SPEC §3.9 item 4: what the model does not run (after the wait, before anything is
// resolved). INT64/UINT64 operands (item d) cannot get here: is_valid_dtype rejects them.
inline std::optional<Fault> unsupported(const Word& w, Engine engine, Form form) {
  const std::string_view name = instruction(form.opcode).mnemonic;
  if (engine != Engine::DVE)
    return Fault{FaultKind::UnsupportedOp,
                 fmt::format("{} runs on dve only; on {} it is not modelled (SPEC §3.9)", name,
                             engine_id(engine))};
  for (const FieldDef* f : {&kOp0, &kOp1}) {
    const uint8_t op = w[f->offset];
    if (alu::is_unmodelled(op))
      return Fault{FaultKind::UnsupportedOp,
                   fmt::format("{}: {} = {} has no modelled result (SPEC §3.8.3)", name, f->name,
                               op_text(op))};
    if (alu::is_valid_int_aluop(op))
      return Fault{FaultKind::UnsupportedOp,
                   fmt::format("{}: {} = {} is an integer op of the V5 arm, which the model does "
                               "not run on dve (SPEC §3.9)",
                               name, f->name, op_text(op))};
  }
  return std::nullopt;
}

inline std::optional<Fault> execute(const Word& w, const Machine& m, const ResolvedOperands& ops,
                                    Writer& out, const ExecEnv& env, Form form) {
  const unsigned n = w[kChannels.offset];
  const unsigned in_size = *dtype_size(w[kInDtype.offset]);
  const unsigned out_size = *dtype_size(w[kOutDtype.offset]);
  const TensorDesc st = load_tensor(w, kSrc);

  const Operand& src = ops.tensor(kSrcOp);
  const Operand& dst = ops.tensor(kDstOp);
  const Immediate& s0 = ops.immediate(kImm0Op);
  const Immediate& s1 = ops.immediate(kImm1Op);
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());

  // The reference: the source elements of a channel in ordinal order, then the results
  // along the destination walk (a revisited byte takes the later ordinal). A destination
  // that overlaps a source is a shadow (Writer), so every read sees the old machine.
  const Element element = element_of(w, form);
  auto reference = [&](unsigned c, std::vector<uint32_t>& x) {
    const uint32_t a = s0.read(m, c), b = s1.read(m, c);
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    x.resize(st.count());
    src.walk.for_each([&](uint64_t j, uint32_t off) { x[j] = load_elem(in + off, in_size); });
    dwalk.for_each([&](uint64_t j, uint32_t off) {
      store_elem(dst_bytes[c] + off, out_size, element(x[j], a, b));
    });
  };
  if (!env.fast) {
    std::vector<uint32_t> x;
    for (unsigned c = 0; c < n; ++c) reference(c, x);
    return std::nullopt;
  }
  // Fast: the channel kernel (alu_stream.h), the reference where it declines; channels in
  // parallel when the work is large, each into its own region.
  const kernels::TensorScalarOp k{form.bitvec,  element.op0, element.op1, element.rev0,
                                  element.rev1, element.din, element.dout};
  kernels::for_channels(n, uint64_t{n} * st.count() * (in_size + out_size), [&](unsigned c) {
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    if (kernels::tensor_scalar_channel(k, s0.read(m, c), s1.read(m, c), in, src.walk, dst_bytes[c],
                                       dwalk))
      return;
    thread_local std::vector<uint32_t> x;
    reference(c, x);
  });
  return std::nullopt;
}

// ---- explain -----------------------------------------------------------------------------

// How r reaches the destination dtype (SPEC §5, §5.1).
inline std::string result_text(uint64_t dout) {
  const auto d = static_cast<Dtype>(dout);
  if (d == Dtype::FP32 || d == Dtype::FP32R)
    return fmt::format("is written as {}, its bits unchanged", dtype_str(dout));
  if (is_int_dtype(d))
    return fmt::format("is converted to {}: rounded to nearest even and saturated, NaN -> 0",
                       dtype_str(dout));
  return fmt::format("is converted to {}, rounded to nearest even", dtype_str(dout));
}

// "SUBTRACT(x, s0)", "ABSOLUTE_VALUE(s0)": one op applied as the word says.
inline std::string call_text(uint8_t op, const std::string& left, const std::string& right) {
  const std::string name = alu_op_name(op) ? std::string(*alu_op_name(op)) : op_text(op);
  if (alu::is_unary(op)) return fmt::format("{}({})", name, left);
  return fmt::format("{}({}, {})", name, left, right);
}

inline void explain(const Decoded& d, const Machine& m, Explainer& x, Form form) {
  const uint64_t din = d.integer("in_dtype"), dout = d.integer("out_dtype");
  explain_operands(operands_of(form), d, m, x);

  const auto op0 = static_cast<uint8_t>(d.integer("op0"));
  const auto op1 = static_cast<uint8_t>(d.integer("op1"));
  const auto rev = static_cast<uint8_t>(d.integer("reverse_operands"));
  const std::string t = op0 == kBypass      ? "x"
                        : reverses_op0(rev) ? call_text(op0, "s0", "x")
                                            : call_text(op0, "x", "s0");
  const std::string r = op1 == kBypass      ? "t (op1 BYPASS: imm1 is resolved, not used)"
                        : reverses_op1(rev) ? call_text(op1, "s1", "t")
                                            : call_text(op1, "t", "s1");
  std::string effect = fmt::format("for each element x of channel c: t = {}, r = {}; ", t, r);
  if (form.bitvec)
    effect += fmt::format("on the {}-bit patterns of {} (no conversion), dst = r.",
                          8 * dtype_size(static_cast<uint8_t>(din)).value_or(4), dtype_str(din));
  else
    effect += fmt::format("x {}, both ops run in FP32 (t stays FP32), and r {}.",
                          din == static_cast<uint64_t>(Dtype::FP32)
                              ? "is used as it is"
                              : fmt::format("is converted from {} to FP32", dtype_str(din)),
                          result_text(dout));
  if (form.pointer)
    effect +=
        " imm0 and imm1 are pointers whatever imm0_src and imm1_src say (this is the "
        "pointer-only form).";
  if ((op0 != kBypass && alu::is_unary(op0) && reverses_op0(rev)) ||
      (op1 != kBypass && alu::is_unary(op1) && reverses_op1(rev)))
    effect +=
        " A unary op under reverse computes on its scalar; the data element is read and "
        "ignored.";
  effect += " Runs on dve only: on pool and act the word faults unsupported-op";
  for (uint8_t op : {op0, op1}) {
    if (alu::is_unmodelled(op))
      effect += fmt::format(", and {} has no modelled result, so it faults there too", op_text(op));
    else if (alu::is_valid_int_aluop(op))
      effect += fmt::format(", and the V5 integer op {} faults there too", op_text(op));
  }
  effect += ".";
  x.line("effect", effect);
}

// ---- the sample word ---------------------------------------------------------------------

// One channel in partition p: 16 source elements at offset 0, the destination at 256,
// the pointer forms' scalars at offsets 128 and 132.
inline Word sample(unsigned p, Form form, uint8_t dtype, uint8_t op0, uint32_t imm0, uint8_t op1,
                   uint32_t imm1) {
  Word w = header_word(form.opcode);
  put_tensor(w, kSrc, sample_tensor(3, p, 0, 16));
  put_u8(w, kInDtype, dtype);
  put_u8(w, kOutDtype, dtype);
  put_u8(w, kChannels, 1);
  put_u8(w, kOp0, op0);
  put_u8(w, kOp1, op1);
  put_u32(w, kImm0, imm0);
  put_u32(w, kImm1, imm1);
  put_tensor(w, kDst, sample_tensor(3, p, 256, 16));
  return w;
}

}  // namespace gpsimd::detail::tensor_scalar

// ---- the four opcodes: each a Form of the family ------------------------------------------

namespace gpsimd::detail::tensor_scalar {
namespace {

template <const Form& K>
void validate_form(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  validate(w, g, opts, d, K);
}
template <const Form& K>
std::optional<Fault> execute_form(const Word& w, const Machine& m, const ResolvedOperands& ops,
                                  Writer& out, const ExecEnv& env) {
  return execute(w, m, ops, out, env, K);
}
template <const Form& K>
std::optional<Fault> unsupported_form(const Word& w, Engine engine) {
  return unsupported(w, engine, K);
}
template <const Form& K>
void explain_form(const Decoded& d, const Machine& m, Explainer& x) {
  explain(d, m, x, K);
}

// FP32 dtype, op0 MULT by 2.0, op1 ADD 1.0: dst = x * 2 + 1.
Word sample_tensor_scalar_arith(unsigned p) {
  return sample(p, kArith, 0x0a, code(AluOp::MULT), 0x40000000u, code(AluOp::ADD), 0x3f800000u);
}

// INT32, op0 BITWISE_AND 0xff, op1 LOGICAL_SHIFT_LEFT 4: dst = (x & 0xff) << 4.
Word sample_tensor_scalar_bitvec(unsigned p) {
  return sample(p, kBitvec, 0x08, code(AluOp::BITWISE_AND), 0x000000ffu,
                code(AluOp::LOGICAL_SHIFT_LEFT), 4u);
}

// FP32, op0 MULT by the FP32 at offset 128, op1 ADD the FP32 at offset 132.
Word sample_tensor_scalar_ptr_arith(unsigned p) {
  return sample(p, kPtrArith, 0x0a, code(AluOp::MULT), encode_static_addr({Space::SBUF, p, 128}),
                code(AluOp::ADD), encode_static_addr({Space::SBUF, p, 132}));
}

// INT32, op0 BITWISE_XOR the INT32 at offset 128, op1 BITWISE_OR the one at offset 132.
Word sample_tensor_scalar_ptr_bitvec(unsigned p) {
  return sample(p, kPtrBitvec, 0x08, code(AluOp::BITWISE_XOR),
                encode_static_addr({Space::SBUF, p, 128}), code(AluOp::BITWISE_OR),
                encode_static_addr({Space::SBUF, p, 132}));
}

template <const Form& K>
constexpr OpSemantics semantics_of(Word (*sample)(unsigned), std::string_view label) {
  return OpSemantics{.validate = validate_form<K>,
                     .execute = execute_form<K>,
                     .explain = explain_form<K>,
                     .sample = sample,
                     .sample_label = label,
                     .operands = &operands_of_form<K>,
                     .unsupported = unsupported_form<K>};
}

}  // namespace
}  // namespace gpsimd::detail::tensor_scalar

// ---- TensorScalarCacheCumulative (0xe6) ---------------------------------------------------

namespace gpsimd::detail::tensor_scalar {
namespace {

// TensorScalarCacheCumulative (0xe6, S3D3_TS): per channel c, with p = src start partition
// + c, the running value reg starts from the seed accumulator_cmd selects and, for every
// ordinal j of the source walk in order, becomes op1(op0(x, s0), reg) on SPEC §3.8's FP32
// path, the element op1's LEFT operand; dst[j] = reg converted to out_dtype, and acc[p] =
// the last reg, unrounded (SPEC §4.24).
static_assert(field_of(table::kTensorScalarCacheCumulative, "imm1").offset == kImm1.offset &&
              field_of(table::kTensorScalarCacheCumulative, "accumulator_cmd").offset ==
                  kAccumCmd.offset);

constexpr uint8_t kCmdAccumulate = static_cast<uint8_t>(AccumCmd::ACCUMULATE);
constexpr uint8_t kCmdZeroAccumulate = static_cast<uint8_t>(AccumCmd::ZERO_ACCUMULATE);
constexpr uint8_t kCmdLoadAccumulate = static_cast<uint8_t>(AccumCmd::LOAD_ACCUMULATE);

// ACCUMULATE reads and writes the source partitions' accumulators; ZERO_ACCUMULATE and
// LOAD_ACCUMULATE write them (every valid command writes the last running value).
std::optional<AccessKind> cumulative_accumulator_access(const Word& w) {
  const uint8_t cmd = w[kAccumCmd.offset];
  if (cmd == kCmdAccumulate) return AccessKind::ReadWrite;
  if (cmd == kCmdZeroAccumulate || cmd == kCmdLoadAccumulate) return AccessKind::Write;
  return std::nullopt;
}

// SPEC §4.24, §8.5: the source walk and imm0 (a pointer by imm0_src) are read, imm1 is the
// seed of LOAD_ACCUMULATE (an instruction immediate 0 otherwise: validation sees to it),
// the destination walk is written, and the source partitions' accumulators.
constexpr OperandDecl kCumulativeList[] = {
    tensor_operand(kSrc, AccessKind::Read, dtype_byte(kInDtype)),
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kOutDtype)),
    immediate_operand(F, "imm0", dtype_fixed(Dtype::FP32)),
    immediate_operand(F, "imm1", dtype_fixed(Dtype::FP32)),
    accumulators_of(kSrcOp, AccessKind::ReadWrite, cumulative_accumulator_access),
};
constexpr std::string_view kCumulativeImmediates = "tensor_scalar_cache_reduce_immediates_check";
constexpr Operands kCumulativeOperands{
    kCumulativeList, kChannels, 1, same_count, kMem, kM3dChannels, kCumulativeImmediates};
// The immediates clause checks imm0 always and imm1 only under LOAD_ACCUMULATE: the two
// halves of the declaration it looks at.
constexpr Operands kCumulativeImm0{std::span<const OperandDecl>(kCumulativeList, 3),
                                   kChannels,
                                   1,
                                   same_count,
                                   kMem,
                                   kM3dChannels,
                                   kCumulativeImmediates};
constexpr Operands kCumulativeImm1{std::span<const OperandDecl>(kCumulativeList + 3, 1),
                                   kChannels,
                                   1,
                                   same_count,
                                   kMem,
                                   kM3dChannels,
                                   kCumulativeImmediates};

// tensor_scalar_cache_reduce_valid_types: the FP datapath or the 8/16-bit integers.
constexpr DtypeSet kCumulativeInDtypes = {Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5, Dtype::FP16,
                                          Dtype::BF16,   Dtype::FP32,   Dtype::INT8,   Dtype::INT16,
                                          Dtype::UINT8,  Dtype::UINT16};

// is_valid_cache_reduce_op: the running operators.
constexpr bool is_cache_reduce_op(uint8_t op) {
  return op == code(AluOp::ADD) || op == code(AluOp::SUBTRACT) || op == code(AluOp::MULT) ||
         op == code(AluOp::MAX) || op == code(AluOp::MIN);
}
// Whether the running value of op1 depends on the order of its FP32 roundings (SPEC
// §4.24: ADD, SUBTRACT and MULT; MAX and MIN are exact in every order).
constexpr bool order_dependent(uint8_t op1) {
  return op1 == code(AluOp::ADD) || op1 == code(AluOp::SUBTRACT) || op1 == code(AluOp::MULT);
}

// ZERO_ACCUMULATE's seed: the identity of op1 (ADD, SUBTRACT +0.0; MULT 1.0; MAX -inf;
// MIN +inf), FP32 bits.
constexpr uint32_t identity_of(uint8_t op1) {
  if (op1 == code(AluOp::MULT)) return 0x3f800000u;
  if (op1 == code(AluOp::MAX)) return 0xff800000u;
  if (op1 == code(AluOp::MIN)) return 0x7f800000u;
  return 0x00000000u;
}

// is_valid_tensor_scalar_cache_cumulative (SPEC §4.24), the vendor's list; header, events
// and has_tensor_cache_cumulative_opcode are checked by validate_as. The engine is not an
// input (SPEC §3.9): the word runs on DVE, where PSUM is allowed.
void validate_cumulative(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  const uint8_t op0 = w[kOp0.offset], op1 = w[kOp1.offset];
  const uint8_t din = w[kInDtype.offset], dout = w[kOutDtype.offset];
  const uint8_t cmd = w[kAccumCmd.offset];

  // is_valid_aluop; tensor_scalar_cache_reduce_valid_ops needs both ops' classes (§3.6).
  for (const FieldDef* f : {&kOp0, &kOp1})
    if (!alu::is_enumerator(w[f->offset], g))
      d.fail("is_valid_aluop", f->name, op_text(w[f->offset]),
             "must be one of " + alu::enumerators_text(g));
  if (alu::is_enumerator(op0, g) && alu::is_enumerator(op1, g)) {
    if (!alu::is_general_arith_op(op0))
      d.fail("tensor_scalar_cache_reduce_valid_ops", kOp0.name, ops_value(kOp0.name, op0, op1),
             "op0 must be a general arithmetic op (" + ops_text(alu::is_general_arith_op, g) + ")");
    else if (!is_cache_reduce_op(op1))
      d.fail("tensor_scalar_cache_reduce_valid_ops", kOp1.name, ops_value(kOp1.name, op1, op0),
             "op1 must be ADD, SUBTRACT, MULT, MAX or MIN");
  }
  check_dtype_in(d, "tensor_scalar_cache_reduce_valid_types", kInDtype.name, din,
                 kCumulativeInDtypes);

  // imm0 always; imm1 by the same rules under LOAD_ACCUMULATE, otherwise all zero.
  check_immediate_operands(kCumulativeImm0, w, g, *opts.engine, d);
  if (cmd == kCmdLoadAccumulate) {
    check_immediate_operands(kCumulativeImm1, w, g, *opts.engine, d);
  } else if (w[kImm1Src.offset] != 0 || load_u32(w, kImm1.offset) != 0) {
    const FieldDef& f = w[kImm1Src.offset] != 0 ? kImm1Src : kImm1;
    d.fail(
        kCumulativeImmediates, f.name,
        f.offset == kImm1Src.offset ? hex8(w[kImm1Src.offset]) : hex32(load_u32(w, kImm1.offset)),
        fmt::format("must be 0 unless accumulator_cmd is LOAD_ACCUMULATE (4; it is {}): only "
                    "LOAD_ACCUMULATE reads imm1 and imm1_src, as its seed",
                    cmd));
  }

  const TensorDesc src = load_tensor(w, kSrc), dst = load_tensor(w, kDst);
  if (!src.register_mode() && !dst.register_mode() && src.count() != dst.count())
    d.fail("tensor_scalar_tensor_chk", kDst.name,
           fmt::format("{} elements (src_mem_pattern has {})", dst.count(), src.count()),
           "src_mem_pattern and dst_mem_pattern must visit the same number of elements");
  if (w[kReverse.offset] != 0)
    d.fail("tensor_scalar_cache_reduce_reverse_chk", kReverse.name, hex8(w[kReverse.offset]),
           "must be NONE (0): op0's scalar is always its right operand");
  check_reserved(d, "s3d3_ts_reserved_zero", w, kReserved0);
  check_one_of(d, "has_valid_tensor_scalar_cache_reduce_accum_cmd", kAccumCmd.name, cmd,
               {kCmdAccumulate, kCmdZeroAccumulate, kCmdLoadAccumulate},
               "ACCUMULATE (2), ZERO_ACCUMULATE (3) or LOAD_ACCUMULATE (4)");
  check_valid_dtype(d, "is_valid_dtype", kInDtype.name, din, false);
  check_valid_dtype(d, "is_valid_dtype", kOutDtype.name, dout, true);
  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, w[kChannels.offset]);
  check_tensor_operands(kCumulativeOperands, w, g, *opts.engine, d);
}

// SPEC §4.24 [model]: an INT32 or UINT32 out_dtype faults unsupported-op (after the wait,
// before anything is resolved).
std::optional<Fault> unsupported_cumulative(const Word& w, Engine) {
  const uint8_t dout = w[kOutDtype.offset];
  if (model::cumulative_out_unsupported(dout))
    return Fault{FaultKind::UnsupportedOp,
                 fmt::format("TensorScalarCacheCumulative: out_dtype {} is not supported (INT32 "
                             "and UINT32 are not output dtypes of the running value, SPEC §4.24)",
                             dtype_text(dout))};
  return std::nullopt;
}

// The running value of one channel (SPEC §4.24), rule cumulative-order of model.h
// (model::OrderRule::Cumulative): one ordinal at a time in walk order, one FP32 rounding per
// op0 and per op1. `y` receives every running value in ordinal order; returns the last.
uint32_t cumulative_channel(uint8_t op0, uint8_t op1, Dtype din, uint32_t s0, uint32_t seed,
                            const uint8_t* in, const Walk& walk, std::vector<uint32_t>& y) {
  static_assert(model::order_rule(model::OrderRule::Cumulative).name == "cumulative-order");
  y.resize(walk.count());
  uint32_t reg = seed;
  walk.for_each([&](uint64_t j, uint32_t off) {
    const uint32_t x = to_fp32(din, load_elem(in + off, walk.elem));
    const uint32_t t = op0 == kBypass ? x : alu::eval_fp32(op0, x, s0);
    reg = alu::eval_fp32(op1, t, reg);  // the element is op1's left operand
    y[j] = reg;
  });
  return reg;
}

std::optional<Fault> execute_cumulative(const Word& w, const Machine& m,
                                        const ResolvedOperands& ops, Writer& out,
                                        const ExecEnv& env) {
  const unsigned n = w[kChannels.offset];
  const uint8_t op0 = w[kOp0.offset], op1 = w[kOp1.offset];
  const uint8_t cmd = w[kAccumCmd.offset];
  const auto din = static_cast<Dtype>(w[kInDtype.offset]);
  const auto dout = static_cast<Dtype>(w[kOutDtype.offset]);
  const unsigned out_size = *dtype_size(w[kOutDtype.offset]);

  const Operand& src = ops.tensor(kSrcOp);
  const Operand& dst = ops.tensor(kDstOp);
  const Immediate& imm0 = ops.immediate(kImm0Op);
  const Immediate& imm1 = ops.immediate(kImm1Op);
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());

  // One channel: the seed, the running values along the source walk, then the destination
  // walk (a destination that overlaps the source is a shadow, see Writer).
  std::array<uint32_t, kPartitions> last;
  auto seed_of = [&](unsigned c) {  // the accumulator index is the source's partition, SPEC §2
    return cmd == kCmdAccumulate       ? m.accumulators[src.partition(c)]
           : cmd == kCmdLoadAccumulate ? imm1.read(m, c)
                                       : identity_of(op1);
  };
  auto channel = [&](unsigned c, std::vector<uint32_t>& y) {
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    last[c] = cumulative_channel(op0, op1, din, imm0.read(m, c), seed_of(c), in, src.walk, y);
    dwalk.for_each([&](uint64_t j, uint32_t off) {
      store_elem(dst_bytes[c] + off, out_size, from_fp32(dout, y[j]));
    });
  };
  if (!env.fast) {
    std::vector<uint32_t> y;
    for (unsigned c = 0; c < n; ++c) channel(c, y);
  } else {
    // Fast: the channel loop of cumulative.cc, the reference where it declines; channels
    // in parallel when the work is large, each into its own region.
    const uint64_t work = uint64_t{n} * src.walk.count() * (src.walk.elem + out_size);
    // Groups of kernels::kLanes channels interleaved where the lanes loop takes them.
    const unsigned groups = n / kernels::kLanes;
    std::array<bool, kPartitions> done{};
    kernels::for_channels(groups, work, [&](unsigned g) {
      const unsigned c0 = g * kernels::kLanes;
      std::array<uint32_t, kernels::kLanes> s0, reg;
      std::array<const uint8_t*, kernels::kLanes> in;
      for (unsigned k = 0; k < kernels::kLanes; ++k) {
        s0[k] = imm0.read(m, c0 + k);
        reg[k] = seed_of(c0 + k);
        in[k] = m.partition(src.loc.space, src.partition(c0 + k)).data();
      }
      if (!kernels::cumulative_lanes(op0, op1, din, dout, s0.data(), reg.data(), in.data(),
                                     src.walk, dst_bytes.data() + c0, dwalk))
        return;
      for (unsigned k = 0; k < kernels::kLanes; ++k) last[c0 + k] = reg[k], done[c0 + k] = true;
    });
    kernels::for_channels(n, work, [&](unsigned c) {
      if (done[c]) return;
      if (auto r = kernels::cumulative_channel(op0, op1, din, dout, imm0.read(m, c), seed_of(c),
                                               m.partition(src.loc.space, src.partition(c)).data(),
                                               src.walk, dst_bytes[c], dwalk)) {
        last[c] = *r;
        return;
      }
      thread_local std::vector<uint32_t> y;
      channel(c, y);
    });
  }
  for (unsigned c = 0; c < n; ++c) out.set_accumulator(src.partition(c), last[c]);
  return std::nullopt;
}

void explain_cumulative(const Decoded& d, const Machine& m, Explainer& x) {
  explain_operands(kCumulativeOperands, d, m, x);
  const auto op0 = static_cast<uint8_t>(d.integer("op0"));
  const auto op1 = static_cast<uint8_t>(d.integer("op1"));
  const uint64_t din = d.integer("in_dtype"), dout = d.integer("out_dtype");
  const auto cmd = static_cast<uint8_t>(d.integer("accumulator_cmd"));
  const std::string t = op0 == kBypass ? "x" : call_text(op0, "x", "s0");
  const std::string seed =
      cmd == kCmdAccumulate
          ? "the accumulator of partition p as the last writer left it (ACCUMULATE; a fresh "
            "machine holds -inf)"
      : cmd == kCmdLoadAccumulate ? "imm1 (LOAD_ACCUMULATE)"
                                  : fmt::format("the identity of {}, {} (ZERO_ACCUMULATE)",
                                                op_text(op1), format_fp32(identity_of(op1)));
  x.line("effect",
         fmt::format("per channel c, with p = src start partition + c: reg starts from {}; for "
                     "each element x of the source walk in ordinal order (x {}), t = {} and reg "
                     "= {}, all on the FP32 path; destination element j = reg, which {}. The "
                     "carried reg stays FP32.",
                     seed,
                     din == static_cast<uint64_t>(Dtype::FP32)
                         ? "used as it is"
                         : fmt::format("converted from {} to FP32", dtype_str(din)),
                     t, call_text(op1, "t", "reg"), result_text(dout)));
  const ResolvedAddr r = resolve_addr(d.tensor("src_mem_pattern").addr, m);
  const unsigned n = u32(d, "num_active_channels");
  const std::string accs =
      r.loc ? fmt::format("accumulators {}..{}", r.loc->partition, r.loc->partition + n - 1)
            : std::string("the source partitions' accumulators");
  x.line("reduce",
         fmt::format(
             "writes {} with each channel's last reg, FP32, unrounded{}", accs,
             cmd == kCmdLoadAccumulate ? "" : "; imm1 is not used (it is LOAD_ACCUMULATE's seed)"));
  if (model::cumulative_out_unsupported(static_cast<uint8_t>(dout)))
    x.line("fault",
           fmt::format("out_dtype {} faults unsupported-op (SPEC §4.24)", dtype_str(dout)));
}

// SPEC §4.24's cumulative-order: a running ADD, SUBTRACT or MULT rests on the [model]
// order (explain.h's order_rule; explain's generic "order" line and the trace say it).
std::optional<model::OrderRule> cumulative_order_rule(const Word& w) {
  if (!order_dependent(w[kOp1.offset])) return std::nullopt;
  return model::OrderRule::Cumulative;
}

// FP32, op0 MULT by 2.0, op1 ADD from +0.0 (ZERO_ACCUMULATE): dst = the running sum of 2x.
Word sample_cumulative(unsigned p) {
  Word w = sample(p, Form{Opcode::TensorScalarCacheCumulative, false, false}, 0x0a,
                  code(AluOp::MULT), 0x40000000u, code(AluOp::ADD), 0);
  put_u8(w, kAccumCmd, kCmdZeroAccumulate);
  return w;
}

}  // namespace
}  // namespace gpsimd::detail::tensor_scalar

namespace gpsimd {
namespace ts = detail::tensor_scalar;
const detail::OpSemantics table::kTensorScalarArithOps =
    ts::semantics_of<ts::kArith>(ts::sample_tensor_scalar_arith, "TensorScalarArith fp32 x*2+1");
const detail::OpSemantics table::kTensorScalarBitvecOps = ts::semantics_of<ts::kBitvec>(
    ts::sample_tensor_scalar_bitvec, "TensorScalarBitvec int32 (x&0xff)<<4");
const detail::OpSemantics table::kTensorScalarPtrArithOps = ts::semantics_of<ts::kPtrArith>(
    ts::sample_tensor_scalar_ptr_arith, "TensorScalarPtrArith fp32 x*s0+s1");
const detail::OpSemantics table::kTensorScalarPtrBitvecOps = ts::semantics_of<ts::kPtrBitvec>(
    ts::sample_tensor_scalar_ptr_bitvec, "TensorScalarPtrBitvec int32 (x^s0)|s1");
const detail::OpSemantics table::kTensorScalarCacheCumulativeOps = {
    .validate = ts::validate_cumulative,
    .execute = ts::execute_cumulative,
    .explain = ts::explain_cumulative,
    .sample = ts::sample_cumulative,
    .sample_label = "TensorScalarCacheCumulative fp32 running sum of 2x",
    .operands = &ts::kCumulativeOperands,
    .unsupported = ts::unsupported_cumulative,
    .order_rule = ts::cumulative_order_rule,
};
}  // namespace gpsimd
