// The S2S2D2_STT family (SPEC §4.20, §4.21, §4.25): two TENSOR2D sources and a TENSOR2D
// destination paired by ordinal, and imm0 read per imm0_src (a pointer reads
// size(imm0_dtype) bytes). Per channel c, with x = to_fp32(src0[j]), y = to_fp32(src1[j])
// and s the channel's imm0 as an FP32:
//
//   TensorTensorScan (0xe5):        r = op1(op0(x, s), y); dst[j] = r; s = r (the carry).
//   ScalarTensorTensorArith (0x9d): r[j] = op1(op0(x, s), y); dst[j] = r[j]; ACCUMULATE /
//                                   ZERO_ACCUMULATE add the r[j] into src0's accumulator.
//   ScalarTensorTensorBitvec (0x9e): validates, then faults unsupported-op.
//   SelectReduce (0xea):            y[j] = src0[j] != 0 (negated by reverse FIRST) ?
//                                   src1[j] : imm0; dst[j] = y[j]; ACCUMULATE /
//                                   ZERO_ACCUMULATE max the y[j] into src1's accumulator.
//
// reverse_operands FIRST/BOTH swaps op0's operands, SECOND/BOTH op1's; a BYPASS op passes
// its data side. Every op is the FP32 path of SPEC §3.8; results go to out_dtype by §5.1.
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "alu/eval.h"
#include "gpsimd/alu.h"
#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "kernels/alu_stream.h"
#include "kernels/thread_pool.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail::stt {
namespace {

// The bytes of S2S2D2_STT are the same in the four rows (isa.h's s2s2d2_stt_fields).
constexpr auto& F = table::kTensorTensorScan;
constexpr FieldDef kSrc0 = field_of(F, "src0_mem_pattern");
constexpr FieldDef kSrc1 = field_of(F, "src1_mem_pattern");
constexpr FieldDef kOp0 = field_of(F, "op0");
constexpr FieldDef kOp1 = field_of(F, "op1");
constexpr FieldDef kReverse = field_of(F, "reverse_operands");
constexpr FieldDef kImm0Src = field_of(F, "imm0_src");
constexpr FieldDef kDtypes = field_of(F, "in0_in1_dtype");
constexpr FieldDef kOut = field_of(F, "out_dtype");
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kImm0Dtype = field_of(F, "imm0_dtype");
constexpr FieldDef kAccumCmd = field_of(F, "accumulator_cmd");
constexpr FieldDef kReserved = field_of(F, "reserved");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");
constexpr FieldDef kImm0 = field_of(F, "imm0");
static_assert(field_of(table::kSelectReduce, "imm0").offset == kImm0.offset &&
              field_of(table::kScalarTensorTensorArith, "accumulator_cmd").offset ==
                  kAccumCmd.offset &&
              field_of(table::kScalarTensorTensorBitvec, "dst_mem_pattern").offset == kDst.offset);

constexpr uint8_t code(AluOp op) {
  return static_cast<uint8_t>(op);
}
constexpr uint8_t kBypass = code(AluOp::BYPASS);
constexpr uint8_t kMax = code(AluOp::MAX);
constexpr uint8_t kFp32 = static_cast<uint8_t>(Dtype::FP32);

// Which of the four opcodes a word is validated or executed as.
enum class Kind : uint8_t { Scan, SttArith, SttBitvec, SelectReduce };

// The fields of a word that decide what an element does.
struct Types {
  uint8_t lo, hi, out, imm;  // src0's, src1's, the destination's and imm0's dtype codes
  uint8_t op0, op1, rev, imm_src, cmd;
};
Types types_of(const Word& w) {
  return Types{static_cast<uint8_t>(w[kDtypes.offset] & 0xf),
               static_cast<uint8_t>(w[kDtypes.offset] >> 4),
               w[kOut.offset],
               w[kImm0Dtype.offset],
               w[kOp0.offset],
               w[kOp1.offset],
               w[kReverse.offset],
               w[kImm0Src.offset],
               w[kAccumCmd.offset]};
}

// The data operand of op0 / op1 is the right one under FIRST/BOTH and SECOND/BOTH.
constexpr bool reverses_op0(uint8_t rev) {
  return rev == static_cast<uint8_t>(RevOps::FIRST) || rev == static_cast<uint8_t>(RevOps::BOTH);
}
constexpr bool reverses_op1(uint8_t rev) {
  return rev == static_cast<uint8_t>(RevOps::SECOND) || rev == static_cast<uint8_t>(RevOps::BOTH);
}

// ---- the operands ------------------------------------------------------------------------

// ACCUMULATE reads and writes the data partitions' accumulators, ZERO_ACCUMULATE writes
// them, IDLE leaves them alone (SPEC §2 rule 2).
std::optional<AccessKind> accumulator_access(const Word& w) {
  switch (static_cast<AccumCmd>(w[kAccumCmd.offset])) {
    case AccumCmd::ACCUMULATE:
      return AccessKind::ReadWrite;
    case AccumCmd::ZERO_ACCUMULATE:
      return AccessKind::Write;
    default:
      return std::nullopt;
  }
}

// After resolution: the two sources not both in PSUM (bad-address, the execution side of
// tt_valid_partitions), then the shape rule of register-mode walks (shape-mismatch).
std::optional<Fault> operand_checks(const Word& w, const ResolvedOperands& ops);

// SPEC §4.20, §8.5: both sources' walks and imm0 (a pointer by imm0_src) are read, the
// destination written; 0x9d and 0xea also use the accumulators of their data operand's
// partitions (SPEC §2 rule 1: src0 for 0x9d, src1 for 0xea) by accumulator_cmd.
constexpr OperandDecl kScanList[] = {
    tensor_operand(kSrc0, AccessKind::Read, dtype_low(kDtypes), "x, op0's data"),
    tensor_operand(kSrc1, AccessKind::Read, dtype_high(kDtypes), "y, op1's data"),
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kOut)),
    immediate_operand(F, "imm0", dtype_byte(kImm0Dtype)),
};
constexpr OperandDecl kSttList[] = {
    tensor_operand(kSrc0, AccessKind::Read, dtype_low(kDtypes), "x, the data"),
    tensor_operand(kSrc1, AccessKind::Read, dtype_high(kDtypes), "y, the tensor operand of op1"),
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kOut)),
    immediate_operand(F, "imm0", dtype_byte(kImm0Dtype)),
    accumulators_of(0, AccessKind::ReadWrite, accumulator_access),
};
constexpr OperandDecl kSelectList[] = {
    tensor_operand(kSrc0, AccessKind::Read, dtype_low(kDtypes), "the predicate"),
    tensor_operand(kSrc1, AccessKind::Read, dtype_high(kDtypes), "on_true"),
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kOut)),
    immediate_operand(F, "imm0", dtype_byte(kImm0Dtype)),
    accumulators_of(1, AccessKind::ReadWrite, accumulator_access),
};
enum : unsigned { kSrc0Op, kSrc1Op, kDstOp, kImm0Op };
constexpr std::string_view kImmClause = "has_valid_s2s2d2_stt_immediate";
constexpr Operands kScanOperands{
    kScanList, kChannels, 1, operand_checks, {}, "start_addr_active_channels", kImmClause};
constexpr Operands kSttOperands{
    kSttList, kChannels, 1, operand_checks, {}, "start_addr_active_channels", kImmClause};
constexpr Operands kSelectOperands{
    kSelectList, kChannels, 1, operand_checks, {}, "start_addr_active_channels", kImmClause};
const Operands& operands_of(Kind k) {
  switch (k) {
    case Kind::Scan:
      return kScanOperands;
    case Kind::SelectReduce:
      return kSelectOperands;
    default:
      return kSttOperands;
  }
}

std::optional<Fault> operand_checks(const Word& w, const ResolvedOperands& ops) {
  const Operand& src0 = ops.tensor(kSrc0Op);
  const Operand& src1 = ops.tensor(kSrc1Op);
  if (src0.loc.space == Space::PSUM && src1.loc.space == Space::PSUM)
    return Fault{FaultKind::BadAddress,
                 fmt::format("src0_mem_pattern and src1_mem_pattern are both in PSUM (partitions "
                             "{} and {}); at most one source may be (tt_valid_partitions)",
                             src0.loc.partition, src1.loc.partition)};
  return same_count(w, ops);
}

// ---- validation --------------------------------------------------------------------------

// "ADD (0x04)", or "0x25 (not an ALU_OP)".
std::string op_text(uint8_t op) {
  if (auto n = alu_op_name(op)) return fmt::format("{} ({:#04x})", *n, op);
  return fmt::format("{:#04x} (not an ALU_OP)", op);
}
// "ADD, SUBTRACT, ...": the enumerators on g that `pred` holds for.
std::string ops_text(bool (*pred)(uint8_t), Generation g) {
  std::string s;
  for (const alu::OpRow& r : alu::kOps)
    if (alu::is_enumerator(r.code, g) && pred(r.code))
      s += (s.empty() ? "" : ", ") + std::string(r.name);
  return s;
}
std::string ops_value(std::string_view field, const Types& t) {
  return field == kOp0.name ? fmt::format("{}, op1 is {}", op_text(t.op0), op_text(t.op1))
                            : fmt::format("{}, op0 is {}", op_text(t.op1), op_text(t.op0));
}

// The op clause of an opcode, for two enumerators: each op in the class of the opcode.
void check_ops(DiagSink& d, std::string_view clause, const Types& t, Generation g,
               bool (*pred)(uint8_t), std::string_view what) {
  if (pred(t.op0) && pred(t.op1)) return;
  const std::string_view field = pred(t.op0) ? kOp1.name : kOp0.name;
  d.fail(clause, field, ops_value(field, t),
         fmt::format("op0 and op1 must both be {} ops: {}", what, ops_text(pred, g)));
}

// SelectReduce's lo (the predicate) and hi (on_true) (has_valid_select_reduce_dtypes).
constexpr DtypeSet kIntDtypes32 = {Dtype::INT32, Dtype::UINT32};

void validate(const Word& w, Generation g, Engine engine, Kind kind, DiagSink& d) {
  const Types t = types_of(w);
  const unsigned n = w[kChannels.offset];

  // is_valid_dtype: lo, hi and imm0_dtype without FP32R, out with it.
  check_valid_dtype(d, "is_valid_dtype", "in0_in1_dtype (src0, low nibble)", t.lo, false);
  check_valid_dtype(d, "is_valid_dtype", "in0_in1_dtype (src1, high nibble)", t.hi, false);
  check_valid_dtype(d, "is_valid_dtype", kOut.name, t.out, true);
  check_valid_dtype(d, "is_valid_dtype", kImm0Dtype.name, t.imm, false);

  if (kind == Kind::SttBitvec) {
    // has_valid_scalar_tensor_tensor_dtypes, s2s2d2_stt_src_dst_dtype (raw codes).
    check_dtype_in(d, "has_valid_scalar_tensor_tensor_dtypes", "in0_in1_dtype (src0, low nibble)",
                   t.lo, kIntDtypes);
    check_dtype_in(d, "has_valid_scalar_tensor_tensor_dtypes", "in0_in1_dtype (src1, high nibble)",
                   t.hi, kIntDtypes);
    check_dtype_in(d, "has_valid_scalar_tensor_tensor_dtypes", kImm0Dtype.name, t.imm, kIntDtypes);
    check_dtype_in(d, "has_valid_scalar_tensor_tensor_dtypes", kOut.name, t.out, kIntDtypes);
    if (t.lo != t.out || t.hi != t.out || t.imm != t.out)
      d.fail("s2s2d2_stt_src_dst_dtype",
             t.lo != t.out   ? "in0_in1_dtype (src0, low nibble)"
             : t.hi != t.out ? "in0_in1_dtype (src1, high nibble)"
                             : kImm0Dtype.name,
             fmt::format("src0 {}, src1 {}, imm0_dtype {}, out_dtype {}", dtype_text(t.lo),
                         dtype_text(t.hi), dtype_text(t.imm), dtype_text(t.out)),
             "src0's, src1's and imm0's dtypes must each equal out_dtype");
  }
  if (kind == Kind::SelectReduce) {
    // has_valid_select_reduce_dtypes: an integer predicate, an on_true of at most 16 bits
    // or a float.
    check_dtype_in(d, "has_valid_select_reduce_dtypes", "in0_in1_dtype (src0, low nibble)", t.lo,
                   kIntDtypes);
    if (dtype_in(kIntDtypes32, t.hi))
      d.fail("has_valid_select_reduce_dtypes", "in0_in1_dtype (src1, high nibble)",
             dtype_text(t.hi), "on_true (src1) must not be INT32 or UINT32");
  }

  // s2s2d2_stt_imm0_dtype, literally: a pointer, or an FP32 imm0_dtype (0x9e: its dtype
  // clauses above say what imm0_dtype may be).
  if (kind != Kind::SttBitvec && t.imm_src != static_cast<uint8_t>(ImmSrc::POINTER_IMMEDIATE) &&
      t.imm_src != static_cast<uint8_t>(ImmSrc::REG_PTR_IMMEDIATE) && t.imm != kFp32)
    d.fail("s2s2d2_stt_imm0_dtype", kImm0Dtype.name,
           fmt::format("{} with imm0_src {}", dtype_text(t.imm), hex8(t.imm_src)),
           "must be FP32 unless imm0_src is POINTER_IMMEDIATE (1) or REG_PTR_IMMEDIATE (2)");

  // is_valid_enum on op0 and op1; the op clause needs both ops' classes (SPEC §3.6).
  for (const FieldDef* f : {&kOp0, &kOp1})
    if (!alu::is_enumerator(w[f->offset], g))
      d.fail("is_valid_enum", f->name, op_text(w[f->offset]),
             "must be one of " + alu::enumerators_text(g));
  if (alu::is_enumerator(t.op0, g) && alu::is_enumerator(t.op1, g)) {
    switch (kind) {
      case Kind::Scan:
        check_ops(d, "has_valid_tensor_tensor_scan_op", t, g, alu::is_general_arith_op,
                  "general arithmetic");
        break;
      case Kind::SttArith:
        check_ops(d, "has_valid_scalar_tensor_tensor_op", t, g, alu::is_general_arith_op,
                  "general arithmetic");
        break;
      case Kind::SttBitvec:
        check_ops(d, "has_valid_scalar_tensor_tensor_op", t, g, alu::is_general_bitvec_op,
                  "general bitvec");
        break;
      case Kind::SelectReduce:
        if (t.op0 != kBypass || t.op1 != kMax)
          d.fail("has_valid_select_reduce_op", t.op0 != kBypass ? kOp0.name : kOp1.name,
                 ops_value(t.op0 != kBypass ? kOp0.name : kOp1.name, t),
                 "op0 must be BYPASS (0x00) and op1 MAX (0x08)");
        break;
    }
  }

  // has_valid_s2s2d2_stt_immediate: an instruction immediate is any 4 bytes; a pointer is
  // size(imm0_dtype) wide (not evaluated without a size); a register pointer needs none.
  {
    std::optional<unsigned> width = 4u;
    if (t.imm_src == static_cast<uint8_t>(ImmSrc::POINTER_IMMEDIATE)) width = dtype_size(t.imm);
    check_immediate(d, kImm0.name, t.imm_src, load_u32(w, kImm0.offset), width,
                    operand_rule(engine, AccessKind::Read).allow_psum, n, g, true, kImmClause);
  }

  // start_addr_active_channels and tensor2d_valid of src0, src1 and dst.
  check_tensor_operands(operands_of(kind), w, g, engine, d);
  check_channel_range(d, "check_active_channels", kChannels.name, n);

  // The count clauses, each waived when one of its two addresses is register mode (then
  // checked at execution), and otherwise evaluated literally, a num_elem of 0 included.
  const TensorDesc s0 = load_tensor(w, kSrc0), s1 = load_tensor(w, kSrc1),
                   dst = load_tensor(w, kDst);
  if (!s0.register_mode() && !s1.register_mode() && s0.count() != s1.count())
    d.fail("s2s2d2_stt_src_element_cnt_check", kSrc1.name,
           fmt::format("count(src1) = {}, count(src0) = {}", s1.count(), s0.count()),
           "count(src0) must equal count(src1)");
  if (!s0.register_mode() && !dst.register_mode() && s0.count() != dst.count())
    d.fail("s2s2d2_stt_dst_element_cnt_check", kDst.name,
           fmt::format("count(dst) = {}, count(src0) = {}", dst.count(), s0.count()),
           "count(src0) must equal count(dst)");

  // tt_valid_partitions: the two sources are not both static addresses that decode into
  // PSUM (alignment aside).
  const StaticAddr a0 = check_static_addr(s0.addr, g), a1 = check_static_addr(s1.addr, g);
  if (a0.problem == AddrProblem::None && a1.problem == AddrProblem::None &&
      a0.loc.space == Space::PSUM && a1.loc.space == Space::PSUM)
    d.fail(
        "tt_valid_partitions", kSrc1.name,
        fmt::format("{} and src0_mem_pattern {} are both in PSUM", hex32(s1.addr), hex32(s0.addr)),
        "src0 and src1 must not both be in PSUM");

  // The accumulator command.
  switch (kind) {
    case Kind::Scan:
      if (t.cmd != 0) d.fail("has_zero_accum_cmd", kAccumCmd.name, hex8(t.cmd), "must be IDLE (0)");
      break;
    case Kind::SttArith:
      check_one_of(d, "has_valid_s2s2d2_stt_accum_cmd", kAccumCmd.name, t.cmd, {0, 2, 3},
                   "IDLE (0), ACCUMULATE (2) or ZERO_ACCUMULATE (3)");
      break;
    case Kind::SttBitvec:
      check_one_of(d, "has_valid_s2s2d2_stt_accum_cmd", kAccumCmd.name, t.cmd, {0},
                   "IDLE (0) (ScalarTensorTensorBitvec does not accumulate)");
      break;
    case Kind::SelectReduce:
      check_one_of(d, "has_valid_s2s2d2_cpr_accum_cmd", kAccumCmd.name, t.cmd, {0, 2, 3},
                   "IDLE (0), ACCUMULATE (2) or ZERO_ACCUMULATE (3)");
      break;
  }
  if (t.rev > static_cast<uint8_t>(RevOps::BOTH))
    d.fail("is_valid_enum", kReverse.name, hex8(t.rev),
           "must be NONE (0), FIRST (1), SECOND (2) or BOTH (3)");
  check_reserved(d, "has_s2s2d2_stt_reserved_zero", w, kReserved);
  if (kind == Kind::SelectReduce && t.rev > static_cast<uint8_t>(RevOps::FIRST))
    d.fail("has_valid_select_reduce_rev_ops", kReverse.name, hex8(t.rev),
           "must be NONE (0) or FIRST (1) (NKI's reverse_pred)");
  // s2s2d2_stt_quadrant_check: its body is not public; it holds for every word.
  if ((kind == Kind::SttArith || kind == Kind::SttBitvec) && !model::stt_quadrant_check_holds())
    d.fail("s2s2d2_stt_quadrant_check", kSrc0.name, tensor_text(s0), "same SBUF quadrant");
}

// ---- execution ---------------------------------------------------------------------------

// One ordinal of 0xe5 / 0x9d on FP32 patterns: r = op1(op0(x, s), y) as reverse_operands
// orders each op's operands; a BYPASS op passes its data side.
struct Element {
  uint8_t op0, op1;
  bool rev0, rev1;
  uint32_t operator()(uint32_t x, uint32_t s, uint32_t y) const {
    const uint32_t t = op0 == kBypass ? x
                       : rev0         ? alu::eval_fp32(op0, s, x)
                                      : alu::eval_fp32(op0, x, s);
    return op1 == kBypass ? t : rev1 ? alu::eval_fp32(op1, y, t) : alu::eval_fp32(op1, t, y);
  }
};

// The channel's imm0 as an FP32 (SPEC §4.20's initial): the 4 bytes of an instruction
// immediate (imm0_dtype is FP32), or a pointer's size(imm0_dtype)-byte value widened.
uint32_t imm0_fp32(const Immediate& imm, const Machine& m, unsigned c, Dtype imm_dtype) {
  return to_fp32(imm_dtype, imm.read(m, c));
}

std::optional<Fault> execute(const Word& w, const Machine& m, const ResolvedOperands& ops,
                             Writer& out, Kind kind, bool fast) {
  const Types t = types_of(w);
  const unsigned n = w[kChannels.offset];
  const auto lo = static_cast<Dtype>(t.lo), hi = static_cast<Dtype>(t.hi),
             dout = static_cast<Dtype>(t.out), dimm = static_cast<Dtype>(t.imm);
  const unsigned s0 = *dtype_size(lo), s1 = *dtype_size(hi), sd = *dtype_size(dout);
  const Operand& src0 = ops.tensor(kSrc0Op);
  const Operand& src1 = ops.tensor(kSrc1Op);
  const Operand& dst = ops.tensor(kDstOp);
  const Immediate& imm0 = ops.immediate(kImm0Op);
  const auto cmd = static_cast<AccumCmd>(t.cmd);
  const bool reduce = cmd == AccumCmd::ACCUMULATE || cmd == AccumCmd::ZERO_ACCUMULATE;
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());
  const Element e{t.op0, t.op1, reverses_op0(t.rev), reverses_op1(t.rev)};
  const bool negate = t.rev == static_cast<uint8_t>(RevOps::FIRST);

  // The reference, one channel: every source element and the channel's imm0 are read (from
  // the machine as it was: a destination that overlaps a source is a shadow, see Writer),
  // the FP32 results r computed in ordinal order, then written along the destination walk.
  auto reference_channel = [&](unsigned c, std::vector<uint32_t>& a, std::vector<uint32_t>& b,
                               std::vector<uint32_t>& r) {
    const uint8_t* in0 = m.partition(src0.loc.space, src0.partition(c)).data();
    const uint8_t* in1 = m.partition(src1.loc.space, src1.partition(c)).data();
    a.resize(src0.walk.count());
    b.resize(src1.walk.count());
    src0.walk.for_each([&](uint64_t j, uint32_t off) { a[j] = load_elem(in0 + off, s0); });
    src1.walk.for_each([&](uint64_t j, uint32_t off) { b[j] = load_elem(in1 + off, s1); });
    const uint32_t s = imm0_fp32(imm0, m, c, dimm);
    r.resize(a.size());
    switch (kind) {
      case Kind::Scan: {
        uint32_t carry = s;
        for (std::size_t j = 0; j < a.size(); ++j) {
          r[j] = e(to_fp32(lo, a[j]), carry, to_fp32(hi, b[j]));
          carry = model::scan_carry(r[j]);
        }
        break;
      }
      case Kind::SttArith:
      case Kind::SttBitvec:
        for (std::size_t j = 0; j < a.size(); ++j)
          r[j] = e(to_fp32(lo, a[j]), s, to_fp32(hi, b[j]));
        break;
      case Kind::SelectReduce:
        for (std::size_t j = 0; j < a.size(); ++j)
          r[j] = model::select_reduce_selects(model::predicate_true(a[j]), negate)
                     ? to_fp32(hi, b[j])
                     : s;
        break;
    }
    dwalk.for_each([&](uint64_t j, uint32_t off) {
      store_elem(dst_bytes[c] + off, sd, from_fp32(dout, r[j]));
    });
  };

  // Fast, ScalarTensorTensorArith without an accumulator: TensorScalar's channel kernel
  // computes t = op0(x, s) into an FP32 row, TensorTensor's then op1 of t and y into the
  // destination (the same FP32 path, element for element); the reference where either
  // declines. Channels in parallel when the work is large, each into its own region.
  if (fast && kind == Kind::SttArith && !reduce) {
    const kernels::TensorScalarOp k0{false, t.op0, kBypass,    reverses_op0(t.rev),
                                     false, lo,    Dtype::FP32};
    // A BYPASS op1 passes t whatever reverse_operands says; otherwise y is op1's left
    // operand under SECOND/BOTH.
    const bool swap = t.op1 != kBypass && reverses_op1(t.rev);
    const kernels::TensorTensorOp k1{kernels::AluPath::Fp32, t.op1, swap ? hi : Dtype::FP32,
                                     swap ? Dtype::FP32 : hi, dout};
    if (kernels::tensor_scalar_handles(k0) && kernels::tensor_tensor_handles(k1)) {
      Walk row;  // t, dense FP32 in ordinal order
      row.elem = 4;
      row.step[0] = 1;
      row.num[0] = static_cast<uint32_t>(src0.walk.count());
      const uint64_t work = uint64_t{n} * src0.walk.count() * (s0 + s1 + sd);
      kernels::for_channels(n, work, [&](unsigned c) {
        thread_local std::vector<uint8_t> tbuf;
        tbuf.resize(4 * std::size_t{row.num[0]});
        const uint8_t* in0 = m.partition(src0.loc.space, src0.partition(c)).data();
        const uint8_t* in1 = m.partition(src1.loc.space, src1.partition(c)).data();
        bool done = kernels::tensor_scalar_channel(k0, imm0_fp32(imm0, m, c, dimm), 0, in0,
                                                   src0.walk, tbuf.data(), row);
        if (done)
          done = swap ? kernels::tensor_tensor_channel(k1, in1, src1.walk, tbuf.data(), row,
                                                       dst_bytes[c], dwalk)
                      : kernels::tensor_tensor_channel(k1, tbuf.data(), row, in1, src1.walk,
                                                       dst_bytes[c], dwalk);
        if (done) return;
        thread_local std::vector<uint32_t> a, b, r;
        reference_channel(c, a, b, r);
      });
      return std::nullopt;
    }
  }

  // The channel's accumulator (SPEC §2: the data operand's partition) and its new value.
  auto accumulate = [&](unsigned c,
                        const std::vector<uint32_t>& r) -> std::pair<unsigned, uint32_t> {
    if (kind == Kind::SttArith) {
      // Rule accumulate-order (model::OrderRule::Accumulate, SPEC §4.21): the FP32 r[j]
      // added one at a time in walk order, one rounding per addition, from +0.0
      // (ZERO_ACCUMULATE) or the accumulator's bits (ACCUMULATE).
      const unsigned p = model::accumulator_index(src0.loc.partition, c);
      uint32_t acc = cmd == AccumCmd::ACCUMULATE ? m.accumulators[p] : model::kAccumulateSumStart;
      for (uint32_t v : r) acc = alu::eval_fp32(code(AluOp::ADD), acc, v);
      return {p, acc};
    }
    // SelectReduce: MAX is order-free: the y[j] and the start (-inf, or the accumulator's
    // bits).
    const unsigned p = model::accumulator_index(src1.loc.partition, c);
    model::MaxFold fold;
    fold.add(cmd == AccumCmd::ACCUMULATE ? m.accumulators[p] : model::kSelectReduceMaxStart);
    for (uint32_t v : r) fold.add(v);
    return {p, fold.result()};
  };
  const bool accumulates = reduce && (kind == Kind::SttArith || kind == Kind::SelectReduce);

  if (!fast) {
    std::vector<uint32_t> a, b, r;
    for (unsigned c = 0; c < n; ++c) {
      reference_channel(c, a, b, r);
      if (!accumulates) continue;  // IDLE: the accumulators are unchanged
      const auto [p, acc] = accumulate(c, r);
      out.set_accumulator(p, acc);
    }
    return std::nullopt;
  }
  // Fast: the same per channel, the channels in parallel when the work is large (each into
  // its own region; the accumulators set once all are done, the Writer being one thread's).
  std::array<std::pair<unsigned, uint32_t>, kPartitions> accs;
  const uint64_t work = uint64_t{n} * src0.walk.count() * (s0 + s1 + sd);
  kernels::for_channels(n, work, [&](unsigned c) {
    thread_local std::vector<uint32_t> a, b, r;
    reference_channel(c, a, b, r);
    if (accumulates) accs[c] = accumulate(c, r);
  });
  if (accumulates)
    for (unsigned c = 0; c < n; ++c) out.set_accumulator(accs[c].first, accs[c].second);
  return std::nullopt;
}

// SPEC §4.21, §4.25: what the model does not run, after the wait and before anything is
// resolved.
std::optional<Fault> unsupported_bitvec(const Word&, Engine) {
  if (model::kScalarTensorTensorBitvecRuns) return std::nullopt;
  return Fault{FaultKind::UnsupportedOp,
               "ScalarTensorTensorBitvec (0x9e) is not modelled: NKI says bitvec operators are "
               "not supported by scalar_tensor_tensor and nothing public says what it computes "
               "(SPEC §4.21)"};
}
std::optional<Fault> unsupported_select_reduce(const Word&, Generation g) {
  if (model::select_reduce_runs_on(static_cast<unsigned>(g))) return std::nullopt;
  return Fault{FaultKind::UnsupportedOp,
               fmt::format("SelectReduce on {} is not modelled: AWS's kernels avoid it on Trn1 "
                           "(\"produces wrong results\"); it runs on v3, v4 and v5 (SPEC §4.25)",
                           generation_name(g))};
}

// ---- explain -----------------------------------------------------------------------------

// "SUBTRACT(x, s)", "ABSOLUTE_VALUE(x)": one op applied as the word says.
std::string call_text(uint8_t op, const std::string& left, const std::string& right) {
  const std::string name = alu_op_name(op) ? std::string(*alu_op_name(op)) : op_text(op);
  if (alu::is_unary(op)) return fmt::format("{}({})", name, left);
  return fmt::format("{}({}, {})", name, left, right);
}

// How a source reaches FP32 (SPEC §5.1's to_fp32) and a result its dtype (from_fp32).
std::string in_text(const char* name, uint8_t code) {
  if (code == kFp32) return fmt::format("{} (FP32) as it is", name);
  if (is_int_dtype(static_cast<Dtype>(code)))
    return fmt::format("{} ({}) rounded to the nearest FP32, ties to even", name, dtype_str(code));
  return fmt::format("{} ({}) widened exactly to FP32", name, dtype_str(code));
}
std::string out_text(const char* name, uint8_t code) {
  if (code == kFp32 || code == static_cast<uint8_t>(Dtype::FP32R))
    return fmt::format("{} is written as {} unchanged", name, dtype_str(code));
  if (is_int_dtype(static_cast<Dtype>(code)))
    return fmt::format("{} is converted to {}: rounded to nearest even, saturated, NaN to 0", name,
                       dtype_str(code));
  return fmt::format("{} is rounded to nearest even into {}", name, dtype_str(code));
}
std::string path_text(const Types& t) {
  return fmt::format("{}, {}; the ops run in FP32 (a NaN they compute is 0x7FC00000) and {}",
                     in_text("x", t.lo), in_text("y", t.hi), out_text("r", t.out));
}

// What s is: "imm0 (FP32 2.5)" or "the channel's imm0_dtype value at the pointer".
std::string imm_source_text(const Types& t, uint32_t imm) {
  if (t.imm_src == static_cast<uint8_t>(ImmSrc::INSTRUCTION_IMMEDIATE))
    return fmt::format("imm0 = {}", format_fp32(imm));
  return fmt::format("channel c's {} value at the imm0 pointer, widened to FP32", dtype_str(t.imm));
}

void explain(const Decoded& d, const Machine& m, Explainer& x, Kind kind) {
  explain_operands(operands_of(kind), d, m, x);
  const uint64_t pair = d.integer("in0_in1_dtype");
  const Types t{static_cast<uint8_t>(pair & 0xf),
                static_cast<uint8_t>(pair >> 4),
                static_cast<uint8_t>(d.integer("out_dtype")),
                static_cast<uint8_t>(d.integer("imm0_dtype")),
                static_cast<uint8_t>(d.integer("op0")),
                static_cast<uint8_t>(d.integer("op1")),
                static_cast<uint8_t>(d.integer("reverse_operands")),
                static_cast<uint8_t>(d.integer("imm0_src")),
                static_cast<uint8_t>(d.integer("accumulator_cmd"))};
  const uint32_t imm = u32(d, "imm0");
  const std::string tt = t.op0 == kBypass      ? "x"
                         : reverses_op0(t.rev) ? call_text(t.op0, "s", "x")
                                               : call_text(t.op0, "x", "s");
  const std::string rr = t.op1 == kBypass      ? "t"
                         : reverses_op1(t.rev) ? call_text(t.op1, "y", "t")
                                               : call_text(t.op1, "t", "y");
  const std::string ordinals =
      "x = src0 element j, y = src1 element j (the three walks pair up by ordinal, both "
      "dimensions, dimension 0 innermost)";
  switch (kind) {
    case Kind::Scan:
      x.line("effect",
             fmt::format("a scan per channel c: s starts as {}; for j = 0, 1, ...: t = {}, r = {}, "
                         "dst[j] = r, then s = r (the FP32 r is carried, not dst[j]); {}; {}. "
                         "Every source element and the initial are read before anything is "
                         "written, so an overlapping destination scans the old values",
                         imm_source_text(t, imm), tt, rr, ordinals, path_text(t)));
      break;
    case Kind::SttArith:
    case Kind::SttBitvec: {
      if (kind == Kind::SttBitvec) {
        x.line("effect",
               "faults unsupported-op once valid: ScalarTensorTensorBitvec is not modelled "
               "(SPEC §4.21), nothing is resolved or written");
        break;
      }
      x.line("effect", fmt::format("per channel c with s = {}: t = {}, r[j] = {}, dst[j] = r[j]; "
                                   "{}; {}. Every source element and s are read before "
                                   "anything is written",
                                   imm_source_text(t, imm), tt, rr, ordinals, path_text(t)));
      const auto& rule = model::order_rule(model::OrderRule::Accumulate);
      const ResolvedAddr a = resolve_addr(d.tensor("src0_mem_pattern").addr, m);
      const auto n = static_cast<unsigned>(d.integer("num_active_channels"));
      const std::string accs = a.loc ? fmt::format("accumulators {}..{} (src0's partitions)",
                                                   a.loc->partition, a.loc->partition + n - 1)
                                     : std::string("the accumulators of src0's partitions");
      switch (static_cast<AccumCmd>(t.cmd)) {
        case AccumCmd::ACCUMULATE:
          x.line("accumulate",
                 fmt::format("writes {}: acc = acc + r[0] + r[1] + ... in FP32, one rounding per "
                             "addition in walk order, from the accumulator's bits as they are "
                             "(ACCUMULATE; the order is rule {}, {})",
                             accs, rule.name, rule.section));
          break;
        case AccumCmd::ZERO_ACCUMULATE:
          x.line("accumulate",
                 fmt::format("writes {}: acc = +0.0 + r[0] + r[1] + ... in FP32, one rounding "
                             "per addition in walk order (ZERO_ACCUMULATE; the order is rule "
                             "{}, {})",
                             accs, rule.name, rule.section));
          break;
        default:
          x.line("accumulate", "none (IDLE): the accumulators are unchanged");
          break;
      }
      break;
    }
    case Kind::SelectReduce: {
      const std::string pred = t.rev == static_cast<uint8_t>(RevOps::FIRST)
                                   ? "src0 element j is zero (reverse_operands FIRST)"
                                   : "src0 element j has any bit set";
      const std::string on_false =
          t.imm_src == static_cast<uint8_t>(ImmSrc::INSTRUCTION_IMMEDIATE)
              ? fmt::format("on_false = {}", format_fp32(imm))
              : fmt::format("on_false, channel c's {} value at the imm0 pointer widened to FP32",
                            dtype_str(t.imm));
      x.line("effect",
             fmt::format("y[j] = {} where {}, else {}; {} (every ordinal is written); every "
                         "source element is read before anything is written",
                         in_text("src1 element j", t.hi), pred, on_false, out_text("y[j]", t.out)));
      const ResolvedAddr a = resolve_addr(d.tensor("src1_mem_pattern").addr, m);
      const auto n = static_cast<unsigned>(d.integer("num_active_channels"));
      const std::string accs = a.loc ? fmt::format("accumulators {}..{} (src1's partitions)",
                                                   a.loc->partition, a.loc->partition + n - 1)
                                     : std::string("the accumulators of src1's partitions");
      switch (static_cast<AccumCmd>(t.cmd)) {
        case AccumCmd::ACCUMULATE:
          x.line("reduce", fmt::format("writes {}: acc = max(acc, y[0], y[1], ...) over the "
                                       "FP32 y before conversion, NaNs ignored (ACCUMULATE)",
                                       accs));
          break;
        case AccumCmd::ZERO_ACCUMULATE:
          x.line("reduce", fmt::format("writes {}: acc = max(-inf, y[0], y[1], ...) over the "
                                       "FP32 y before conversion, NaNs ignored "
                                       "(ZERO_ACCUMULATE)",
                                       accs));
          break;
        default:
          x.line("reduce", "none (IDLE): the accumulators are unchanged");
          break;
      }
      if (m.generation() == Generation::V2)
        x.line("generation",
               "faults unsupported-op on v2 (SPEC §4.25): SelectReduce is not "
               "modelled there");
      break;
    }
  }
}

// SPEC §4.21's accumulate-order: ACCUMULATE and ZERO_ACCUMULATE sum the results into the
// accumulator in the [model] order (explain.h's order_rule).
std::optional<model::OrderRule> accumulate_order_rule(const Word& w) {
  const auto cmd = static_cast<AccumCmd>(w[kAccumCmd.offset]);
  if (cmd != AccumCmd::ACCUMULATE && cmd != AccumCmd::ZERO_ACCUMULATE) return std::nullopt;
  return model::OrderRule::Accumulate;
}

// ---- sample words ------------------------------------------------------------------------

// One channel in partition p: src0 16 elements at offset 0, src1 16 at 0x40, the
// destination at 0x100.
Word sample(Opcode opcode, unsigned p, uint8_t lo, uint8_t hi, uint8_t out, uint8_t op0,
            uint8_t op1, uint8_t imm_dtype, uint32_t imm) {
  Word w = header_word(opcode);
  put_tensor(w, kSrc0, sample_tensor(2, p, 0, 16));
  put_tensor(w, kSrc1, sample_tensor(2, p, 0x40, 16));
  put_tensor(w, kDst, sample_tensor(2, p, 0x100, 16));
  put_u8(w, kDtypes, static_cast<uint8_t>(lo | hi << 4));
  put_u8(w, kOut, out);
  put_u8(w, kOp0, op0);
  put_u8(w, kOp1, op1);
  put_u8(w, kChannels, 1);
  put_u8(w, kImm0Dtype, imm_dtype);
  put_u32(w, kImm0, imm);
  return w;
}

// FP32, op0 MULT, op1 ADD, initial 0: dst[j] = src0[j] * dst[j-1] + src1[j].
Word sample_scan(unsigned p) {
  return sample(Opcode::TensorTensorScan, p, kFp32, kFp32, kFp32, code(AluOp::MULT),
                code(AluOp::ADD), kFp32, 0);
}
// FP32, (x * 2.0) + y.
Word sample_stt_arith(unsigned p) {
  return sample(Opcode::ScalarTensorTensorArith, p, kFp32, kFp32, kFp32, code(AluOp::MULT),
                code(AluOp::ADD), kFp32, 0x40000000u);
}
// INT32, (x & 0xff) | y: valid; it faults unsupported-op when run.
Word sample_stt_bitvec(unsigned p) {
  const auto i32 = static_cast<uint8_t>(Dtype::INT32);
  return sample(Opcode::ScalarTensorTensorBitvec, p, i32, i32, i32, code(AluOp::BITWISE_AND),
                code(AluOp::BITWISE_OR), i32, 0xffu);
}
// A UINT8 predicate, FP32 on_true, on_false -FLT_MAX, IDLE.
Word sample_select_reduce(unsigned p) {
  return sample(Opcode::SelectReduce, p, static_cast<uint8_t>(Dtype::UINT8), kFp32, kFp32, kBypass,
                kMax, kFp32, 0xff7fffffu);
}

template <Kind K>
void validate_kind(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  validate(w, g, *opts.engine, K, d);
}
template <Kind K>
std::optional<Fault> execute_kind(const Word& w, const Machine& m, const ResolvedOperands& ops,
                                  Writer& out, const ExecEnv& env) {
  return execute(w, m, ops, out, K, env.fast);
}
template <Kind K>
void explain_kind(const Decoded& d, const Machine& m, Explainer& x) {
  explain(d, m, x, K);
}

}  // namespace
}  // namespace gpsimd::detail::stt

namespace gpsimd {
namespace stt = detail::stt;
const detail::OpSemantics table::kTensorTensorScanOps = {
    .validate = stt::validate_kind<stt::Kind::Scan>,
    .execute = stt::execute_kind<stt::Kind::Scan>,
    .explain = stt::explain_kind<stt::Kind::Scan>,
    .sample = stt::sample_scan,
    .sample_label = "TensorTensorScan fp32 x*s+y",
    .operands = &stt::kScanOperands,
};
const detail::OpSemantics table::kScalarTensorTensorArithOps = {
    .validate = stt::validate_kind<stt::Kind::SttArith>,
    .execute = stt::execute_kind<stt::Kind::SttArith>,
    .explain = stt::explain_kind<stt::Kind::SttArith>,
    .sample = stt::sample_stt_arith,
    .sample_label = "ScalarTensorTensorArith fp32 x*2+y",
    .operands = &stt::kSttOperands,
    .order_rule = stt::accumulate_order_rule,
};
const detail::OpSemantics table::kScalarTensorTensorBitvecOps = {
    .validate = stt::validate_kind<stt::Kind::SttBitvec>,
    .execute = stt::execute_kind<stt::Kind::SttBitvec>,
    .explain = stt::explain_kind<stt::Kind::SttBitvec>,
    .sample = stt::sample_stt_bitvec,
    .sample_label = "ScalarTensorTensorBitvec int32 (x&0xff)|y",
    .operands = &stt::kSttOperands,
    .unsupported = stt::unsupported_bitvec,
};
const detail::OpSemantics table::kSelectReduceOps = {
    .validate = stt::validate_kind<stt::Kind::SelectReduce>,
    .execute = stt::execute_kind<stt::Kind::SelectReduce>,
    .explain = stt::explain_kind<stt::Kind::SelectReduce>,
    .sample = stt::sample_select_reduce,
    .sample_label = "SelectReduce u8 pred fp32",
    .operands = &stt::kSelectOperands,
    .unsupported_on = stt::unsupported_select_reduce,
};
}  // namespace gpsimd
