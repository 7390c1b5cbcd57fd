// What TensorTensorArith (0x41) and TensorTensorBitvec (0x51) share, written once (SPEC
// §4.14): the S3S3D3_TT layout, the clause set is_valid_tensor_tensor, the execution rule
// (unsupported-op, bad-address, shape-mismatch, too-large, then the element loop) and the
// three datapaths an element can take (§3.8.1). Each opcode, at the end of this family
// file, says which datapath its elements take; everything else is shared.
//
// Per channel c and ordinal j pairing the three walks:
//   a = src0[j] (dtype lo), b = src1[j] (dtype hi), dst[j] = op(a, b)
// with `a` the left operand (NKI's data1).
//
// CopyPredicated (0x72) has the same layout with src0 the predicate and src1 the data:
// dst[j] = src1[j] where src0[j] is nonzero, and dst[j] keeps its bytes elsewhere; op must
// be BYPASS and the data's dtype is the destination's (SPEC §4.22). Its clause set is
// is_valid_copy_cast_predicated, its section at the end of this file.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "alu/eval.h"
#include "gpsimd/alu.h"
#include "gpsimd/format.h"
#include "kernels/alu_stream.h"
#include "kernels/predicated.h"
#include "kernels/thread_pool.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail::tensor_tensor {

inline constexpr auto& F = table::kTensorTensorArith;
inline constexpr FieldDef kDtypes = field_of(F, "in0_in1_dtype");
inline constexpr FieldDef kOut = field_of(F, "out_dtype");
inline constexpr FieldDef kOp = field_of(F, "op");
inline constexpr FieldDef kChannels = field_of(F, "num_active_channels");
inline constexpr FieldDef kSrc0 = field_of(F, "src0_mem_pattern");
inline constexpr FieldDef kSrc1 = field_of(F, "src1_mem_pattern");
inline constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");
static_assert(&table::kTensorTensorBitvec == &table::kTensorTensorArith);

// The fields of a word that decide what an element does.
struct Types {
  uint8_t lo, hi, out;  // src0's, src1's and the destination's dtype codes
  uint8_t op;
};
inline Types types_of(const Word& w) {
  return Types{static_cast<uint8_t>(w[kDtypes.offset] & 0xf),
               static_cast<uint8_t>(w[kDtypes.offset] >> 4), w[kOut.offset], w[kOp.offset]};
}

// SPEC §4.14, §8.5: both sources' walks read, the destination's written, on the
// partitions and spaces execution resolves (the engine decides whether PSUM is allowed).
inline constexpr OperandDecl kOperandList[] = {
    tensor_operand(kSrc0, AccessKind::Read, dtype_low(kDtypes), "a, the left operand"),
    tensor_operand(kSrc1, AccessKind::Read, dtype_high(kDtypes), "b, the right operand"),
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kOut)),
};
enum : unsigned { kSrc0Op, kSrc1Op, kDstOp };

// After resolution: at most one source in PSUM (bad-address), then the shape rule of
// register-mode walks (shape-mismatch).
inline std::optional<Fault> operand_checks(const Word& w, const ResolvedOperands& ops) {
  const Operand& src0 = ops.tensor(kSrc0Op);
  const Operand& src1 = ops.tensor(kSrc1Op);
  if (src0.loc.space == Space::PSUM && src1.loc.space == Space::PSUM)
    return Fault{FaultKind::BadAddress,
                 fmt::format("src0_mem_pattern and src1_mem_pattern are both in PSUM (partitions "
                             "{} and {}); at most one source may be (tensor_tensor_src_psum_check)",
                             src0.loc.partition, src1.loc.partition)};
  return same_count(w, ops);
}
inline constexpr Operands kOperands{kOperandList, kChannels, 1, operand_checks};

// ---- validation (is_valid_tensor_tensor) -------------------------------------------------

// is_valid_dtype_64: the is_valid_dtype list of SPEC §3.6 without FP32R, plus INT64 and
// UINT64 (src0, src1); the destination may also be FP32R.
inline constexpr DtypeSet kSrcDtypes = {Dtype::INT8,   Dtype::UINT8,  Dtype::INT16, Dtype::UINT16,
                                        Dtype::INT32,  Dtype::UINT32, Dtype::INT64, Dtype::UINT64,
                                        Dtype::BF16,   Dtype::FP16,   Dtype::FP32,  Dtype::FP8_E3,
                                        Dtype::FP8_E4, Dtype::FP8_E5};
inline constexpr DtypeSet kOutDtypes = {Dtype::INT8,   Dtype::UINT8,  Dtype::INT16, Dtype::UINT16,
                                        Dtype::INT32,  Dtype::UINT32, Dtype::INT64, Dtype::UINT64,
                                        Dtype::BF16,   Dtype::FP16,   Dtype::FP32,  Dtype::FP32R,
                                        Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};
// The integer dtypes, by signedness (s3s3d3_tt_valid_int_signness, s3s3d3_tt_dtype).
inline constexpr DtypeSet kSignedDtypes = {Dtype::INT8, Dtype::INT16, Dtype::INT32, Dtype::INT64};
inline constexpr DtypeSet kUnsignedDtypes = {Dtype::UINT8, Dtype::UINT16, Dtype::UINT32,
                                             Dtype::UINT64};
inline constexpr DtypeSet kIntegerDtypes = {Dtype::INT8,   Dtype::UINT8, Dtype::INT16,
                                            Dtype::UINT16, Dtype::INT32, Dtype::UINT32,
                                            Dtype::INT64,  Dtype::UINT64};

// "ADD (0x04)", or "0x1e" for a byte no generation has.
inline std::string op_text(uint8_t op) {
  if (auto n = alu_op_name(op)) return fmt::format("{} ({:#04x})", *n, op);
  return hex8(op);
}

// The names of the ops on generation g for which `pred` holds, from the ALU_OP table.
template <class Pred>
std::string ops_text(Generation g, Pred&& pred) {
  std::string out;
  for (const alu::OpRow& r : alu::kOps)
    if (alu::is_enumerator(r.code, g) && pred(r.code))
      out += fmt::format("{}{}", out.empty() ? "" : ", ", r.name);
  return out;
}

// s3s3d3_tt_valid_op (SPEC §4.14): the ops each opcode takes.
inline bool valid_op(Opcode opcode, uint8_t op) {
  if (opcode == Opcode::TensorTensorBitvec) return alu::is_general_bitvec_op(op);
  return alu::is_general_arith_op(op) || op == static_cast<uint8_t>(AluOp::POW) ||
         alu::is_valid_int_aluop(op);
}

// s3s3d3_tt_valid_int_signness: an is_valid_int_aluop op needs three signed integer dtypes
// and an is_signed_alu_op op, or three unsigned ones and an is_unsigned_alu_op op.
inline bool valid_int_signness(const Types& t) {
  if (!alu::is_valid_int_aluop(t.op)) return true;
  const auto all_in = [&](DtypeSet s) {
    return dtype_in(s, t.lo) && dtype_in(s, t.hi) && dtype_in(s, t.out);
  };
  return (all_in(kSignedDtypes) && alu::is_signed_alu_op(t.op)) ||
         (all_in(kUnsignedDtypes) && alu::is_unsigned_alu_op(t.op));
}

// s3s3d3_tt_src_dst_dtype: 0x51 needs lo == out and hi == out, or a shift with a 64-bit
// lo and a UINT32 count.
inline bool valid_src_dst_dtype(Opcode opcode, const Types& t) {
  if (opcode != Opcode::TensorTensorBitvec) return true;
  if (t.lo == t.out && t.hi == t.out) return true;
  return alu::is_shift_op(t.op) && dtype_in({Dtype::INT64, Dtype::UINT64}, t.lo) &&
         t.hi == static_cast<uint8_t>(Dtype::UINT32);
}

inline std::string dtypes_text(const Types& t) {
  return fmt::format("src0 {}, src1 {}, out {}", dtype_str(t.lo), dtype_str(t.hi),
                     dtype_str(t.out));
}

// is_valid_tensor_tensor (SPEC §4.14) on `engine` (opts.engine of the ValidateFn); header,
// events and has_tensor_tensor_opcode are checked by validate_as.
inline void validate(const Word& w, Generation g, Engine engine, Opcode opcode, DiagSink& d) {
  const Types t = types_of(w);
  check_dtype_in(d, "is_valid_dtype_64", "in0_in1_dtype (src0, low nibble)", t.lo, kSrcDtypes);
  check_dtype_in(d, "is_valid_dtype_64", "in0_in1_dtype (src1, high nibble)", t.hi, kSrcDtypes);
  check_dtype_in(d, "is_valid_dtype_64", kOut.name, t.out, kOutDtypes);

  // SPEC §3.6: the clauses that need the op's class are not evaluated when the op is not
  // an enumerator on the generation; is_valid_enum reports it.
  if (!alu::is_enumerator(t.op, g)) {
    d.fail("is_valid_enum", kOp.name, op_text(t.op), "must be one of " + alu::enumerators_text(g));
  } else {
    if (!valid_op(opcode, t.op))
      d.fail("s3s3d3_tt_valid_op", kOp.name, op_text(t.op),
             opcode == Opcode::TensorTensorBitvec
                 ? fmt::format("must be an is_general_bitvec_op op: {}",
                               ops_text(g, alu::is_general_bitvec_op))
                 : fmt::format("must be an is_general_arith_op op, POW or an is_valid_int_aluop "
                               "op: {}",
                               ops_text(g, [&](uint8_t o) { return valid_op(opcode, o); })));
    if (!valid_int_signness(t)) {
      const bool s = alu::is_signed_alu_op(t.op), u = alu::is_unsigned_alu_op(t.op);
      const std::string need =
          s && u ? "all signed (INT8, INT16, INT32, INT64) or all unsigned (UINT8, UINT16, "
                   "UINT32, UINT64)"
          : s    ? "all signed (INT8, INT16, INT32, INT64): the op is in is_signed_alu_op only"
                 : "all unsigned (UINT8, UINT16, UINT32, UINT64): the op is in "
                   "is_unsigned_alu_op only";
      d.fail("s3s3d3_tt_valid_int_signness", kOp.name,
             fmt::format("{} with {}", op_text(t.op), dtypes_text(t)),
             "an is_valid_int_aluop op needs src0, src1 and out " + need);
    }
    if (!valid_src_dst_dtype(opcode, t))
      d.fail("s3s3d3_tt_src_dst_dtype", kDtypes.name, dtypes_text(t),
             "src0 and src1 must have out_dtype's dtype (or, for a shift op, src0 INT64 or "
             "UINT64 with a UINT32 shift count in src1)");
  }
  if (opcode == Opcode::TensorTensorBitvec)
    check_dtype_in(d, "s3s3d3_tt_dtype", kOut.name, t.out, kIntegerDtypes);

  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, n);
  const TensorDesc s0 = load_tensor(w, kSrc0), s1 = load_tensor(w, kSrc1),
                   dst = load_tensor(w, kDst);
  check_tensor_operands(kOperands, w, g, engine, d);

  // tensor_tensor_src_psum_check: the two sources are not both static PSUM addresses.
  const StaticAddr a0 = check_static_addr(s0.addr, g), a1 = check_static_addr(s1.addr, g);
  if (a0.problem == AddrProblem::None && a1.problem == AddrProblem::None &&
      a0.loc.space == Space::PSUM && a1.loc.space == Space::PSUM)
    d.fail(
        "tensor_tensor_src_psum_check", kSrc1.name,
        fmt::format("{} and src0_mem_pattern {} are both in PSUM", hex32(s1.addr), hex32(s0.addr)),
        "src0 and src1 must not both be in PSUM");

  // The count clauses, each waived when one of its two addresses is register mode (then
  // checked at execution), and otherwise evaluated literally, a num_elem of 0 included.
  if (!s0.register_mode() && !s1.register_mode() && s0.count() != s1.count())
    d.fail("s3s3d3_tt_src_element_cnt_check", kSrc1.name,
           fmt::format("count(src1) = {}, count(src0) = {}", s1.count(), s0.count()),
           "count(src0) must equal count(src1)");
  if (!s0.register_mode() && !dst.register_mode() && s0.count() != dst.count())
    d.fail("s3s3d3_tt_dst_element_cnt_check", kDst.name,
           fmt::format("count(dst) = {}, count(src0) = {}", dst.count(), s0.count()),
           "count(src0) must equal count(dst)");
}

// ---- execution -----------------------------------------------------------------------

// The datapath of SPEC §3.8.1 an element takes (the same for every element of a word);
// the fast kernels take it as it is.
using Datapath = kernels::AluPath;

// SPEC §3.9 item 4 (what runs on which engine), for a valid word: the reason it faults
// unsupported-op, or nothing. Both opcodes run on DVE and POOL (item 4b never applies).
inline std::optional<std::string> unsupported_reason(const InstrDef& def, Engine e,
                                                     const Types& t) {
  if (e == Engine::ACT)
    return fmt::format("{} does not run on the ACT engine (SPEC §3.9: dve or pool)", def.mnemonic);
  if (alu::is_unmodelled(t.op))
    return fmt::format("op {} has no modelled result (SPEC §3.8.3)", op_text(t.op));
  for (uint8_t code : {t.lo, t.hi, t.out})
    if (dtype_in({Dtype::INT64, Dtype::UINT64}, code))
      return fmt::format("{} operands are not modelled ({}; SPEC §3.9: 64-bit lanes)",
                         dtype_str(code), dtypes_text(t));
  if (alu::is_valid_int_aluop(t.op) && e != Engine::POOL)
    return fmt::format("op {} is in the integer band, which runs on pool only (SPEC §3.9)",
                       op_text(t.op));
  return std::nullopt;
}

// One element's computation (SPEC §3.8.1, §4.14), on the bit patterns of a and b.
struct Element {
  Datapath path;
  uint8_t op;
  Dtype lo, hi, out;
  unsigned out_bits;  // 8 * size(out)

  uint32_t operator()(uint32_t a, uint32_t b) const {
    switch (path) {
      case Datapath::RawBits:  // w-bit patterns, w = 8 * size(out)
        return alu::eval_bits(op, a, b, out_bits);
      case Datapath::NativeInteger: {  // exact integers, wrapped to the output
        const uint64_t r = alu::eval_native(op, int_value(lo, a), int_value(hi, b));
        return static_cast<uint32_t>(out_bits >= 32 ? r : r & ((uint64_t{1} << out_bits) - 1));
      }
      case Datapath::Fp32:
        return from_fp32(out, alu::eval_fp32(op, to_fp32(lo, a), to_fp32(hi, b)));
    }
    return 0;
  }
};

// The reference effect on one channel: every a and b is read, then every destination
// ordinal written; `in0`, `in1` are the sources' partitions, `out` the destination region
// its walk `wd` addresses. The Writer gives a destination that overlaps a source a shadow,
// so the sources read as they were before the instruction.
inline void channel_reference(const Element& e, const uint8_t* in0, const Walk& w0,
                              const uint8_t* in1, const Walk& w1, uint8_t* out, const Walk& wd,
                              std::vector<uint32_t>& a, std::vector<uint32_t>& b) {
  a.resize(w0.count());
  b.resize(w1.count());
  w0.for_each([&](uint64_t j, uint32_t off) { a[j] = load_elem(in0 + off, w0.elem); });
  w1.for_each([&](uint64_t j, uint32_t off) { b[j] = load_elem(in1 + off, w1.elem); });
  wd.for_each([&](uint64_t j, uint32_t off) { store_elem(out + off, wd.elem, e(a[j], b[j])); });
}

// The execution rule of SPEC §4 after validation and the wait: unsupported-op, then
// bad-address (register-mode tensors: their rules, PSUM on pool, both sources in PSUM),
// then shape-mismatch (register-mode counts), then too-large, then the effect.
// `datapath` is the op file's rule for its elements.
inline std::optional<Fault> unsupported(const Word& w, Engine engine, const InstrDef& def) {
  if (auto why = unsupported_reason(def, engine, types_of(w)))
    return Fault{FaultKind::UnsupportedOp,
                 fmt::format("{} on {}: {}", def.mnemonic, engine_id(engine), *why)};
  return std::nullopt;
}

inline std::optional<Fault> execute(const Word& w, const Machine& m, const ResolvedOperands& ops,
                                    Writer& out, const ExecEnv& env, Datapath path) {
  const Types t = types_of(w);
  const unsigned n = w[kChannels.offset];
  const unsigned s0 = *dtype_size(t.lo), s1 = *dtype_size(t.hi), sd = *dtype_size(t.out);
  const TensorDesc t0 = load_tensor(w, kSrc0);
  const Operand& src0 = ops.tensor(kSrc0Op);
  const Operand& src1 = ops.tensor(kSrc1Op);
  const Operand& dst = ops.tensor(kDstOp);
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());
  const Element e{
      path,  t.op, static_cast<Dtype>(t.lo), static_cast<Dtype>(t.hi), static_cast<Dtype>(t.out),
      8 * sd};
  auto in0 = [&](unsigned c) { return m.partition(src0.loc.space, src0.partition(c)).data(); };
  auto in1 = [&](unsigned c) { return m.partition(src1.loc.space, src1.partition(c)).data(); };
  if (!env.fast) {
    std::vector<uint32_t> a, b;
    for (unsigned c = 0; c < n; ++c)
      channel_reference(e, in0(c), src0.walk, in1(c), src1.walk, dst_bytes[c], dwalk, a, b);
    return std::nullopt;
  }
  // Fast: the channel kernel (alu_stream.h), the reference where it declines; channels in
  // parallel when the work is large, each into its own region.
  const kernels::TensorTensorOp k{e.path, e.op, e.lo, e.hi, e.out};
  kernels::for_channels(n, uint64_t{n} * t0.count() * (s0 + s1 + sd), [&](unsigned c) {
    if (kernels::tensor_tensor_channel(k, in0(c), src0.walk, in1(c), src1.walk, dst_bytes[c],
                                       dwalk))
      return;
    thread_local std::vector<uint32_t> a, b;
    channel_reference(e, in0(c), src0.walk, in1(c), src1.walk, dst_bytes[c], dwalk, a, b);
  });
  return std::nullopt;
}

// ---- explain and sample ----------------------------------------------------------------

// What an element's trip through the datapath is, for `explain`.
inline std::string datapath_text(Datapath p, const Types& t) {
  const std::string op = std::string(alu_op_name(t.op).value_or("op"));
  switch (p) {
    case Datapath::RawBits:
      return fmt::format("{} on the raw {}-bit patterns of a and b (no conversion)", op,
                         8 * dtype_size(t.out).value_or(0));
    case Datapath::NativeInteger:
      return fmt::format(
          "the native integer path: a ({}) and b ({}) as exact integers, {} computed exactly, "
          "the result wrapped to {} bits of {}",
          dtype_str(t.lo), dtype_str(t.hi), op, 8 * dtype_size(t.out).value_or(0),
          dtype_str(t.out));
    case Datapath::Fp32:
      break;
  }
  const auto to = [](const char* name, uint8_t code) {
    const auto dt = static_cast<Dtype>(code);
    if (code == static_cast<uint8_t>(Dtype::FP32)) return fmt::format("{} (FP32) as it is", name);
    if (is_int_dtype(dt))
      return fmt::format("{} ({}) rounded to the nearest FP32, ties to even", name,
                         dtype_str(code));
    return fmt::format("{} ({}) widened exactly", name, dtype_str(code));
  };
  const auto dt = static_cast<Dtype>(t.out);
  const std::string back =
      t.out == static_cast<uint8_t>(Dtype::FP32) || t.out == static_cast<uint8_t>(Dtype::FP32R)
          ? fmt::format("stored as {} unchanged", dtype_str(t.out))
      : is_int_dtype(dt)
          ? fmt::format("converted to {}: rounded to nearest even, saturated, NaN to 0",
                        dtype_str(t.out))
          : fmt::format("rounded to nearest even into {}", dtype_str(t.out));
  return fmt::format(
      "the FP32 path: {}, {}, {} in IEEE binary32 (a NaN result is 0x7FC00000; only BYPASS "
      "keeps a NaN's bits), the result {}",
      to("a", t.lo), to("b", t.hi), op, back);
}

// The lines every S3S3D3_TT word has: channels, the two sources, the destination, the
// effect and, per engine, the datapath (`datapath(e)` is the op file's rule).
template <class DatapathOf>
void explain(const Decoded& d, const Machine& m, Explainer& x, const InstrDef& def,
             DatapathOf&& datapath) {
  const uint64_t pair = d.integer("in0_in1_dtype");
  const Types t{static_cast<uint8_t>(pair & 0xf), static_cast<uint8_t>(pair >> 4),
                static_cast<uint8_t>(d.integer("out_dtype")),
                static_cast<uint8_t>(d.integer("op"))};
  explain_operands(kOperands, d, m, x);
  const std::string op = std::string(alu_op_name(t.op).value_or("op"));
  x.line(
      "effect",
      fmt::format(
          "destination element j = {}(a, b) with a = src0 element j and b = src1 "
          "element j (the three walks pair up by ordinal); {}every a and b is read "
          "before anything is written",
          op,
          alu::is_unary(t.op) ? fmt::format("{} computes on a alone, b is read too; ", op) : ""));
  // One clause per engine, engines that do the same named together.
  std::vector<std::pair<std::string, std::string>> said;  // engines, what they do
  for (Engine e : kAllEngines) {
    const auto why = unsupported_reason(def, e, t);
    const std::string what =
        why ? "faults unsupported-op: " + *why : datapath_text(datapath(e, t), t);
    const std::string name =
        fmt::format("{}{}", engine_id(e), e == def.engine ? " (the default)" : "");
    auto same =
        std::find_if(said.begin(), said.end(), [&](const auto& s) { return s.second == what; });
    if (same == said.end())
      said.emplace_back(name, what);
    else
      same->first += " and " + name;
  }
  std::string per_engine;
  for (const auto& [engines, what] : said)
    per_engine += fmt::format("{}on {}: {}", per_engine.empty() ? "" : "; ", engines, what);
  x.line("datapath", per_engine);
}

// A valid word of one channel in `partition`: src0 16 elements at offset 0, src1 16 at
// 0x40, the destination at 0x100.
inline Word sample(Opcode opcode, unsigned partition, Dtype dtype, AluOp op) {
  Word w = header_word(opcode);
  const auto code = static_cast<uint8_t>(dtype);
  put_u8(w, kDtypes, static_cast<uint8_t>(code | code << 4));
  put_u8(w, kOut, code);
  put_u8(w, kOp, static_cast<uint8_t>(op));
  put_u8(w, kChannels, 1);
  const unsigned size = *dtype_size(dtype);
  put_tensor(w, kSrc0, sample_tensor(3, partition, 0, 16));
  put_tensor(w, kSrc1, sample_tensor(3, partition, 16 * size, 16));
  put_tensor(w, kDst, sample_tensor(3, partition, 256, 16));
  return w;
}

}  // namespace gpsimd::detail::tensor_tensor

// ---- the two opcodes ---------------------------------------------------------------------

namespace gpsimd::detail::tensor_tensor {
namespace {

// TensorTensorArith (0x41, S3S3D3_TT): per channel, dst[j] = op(src0[j], src1[j]) over
// three 3-D walks paired by ordinal, an arithmetic op (SPEC §4.14). On POOL the integer
// ops, and the general ops on 32-bit integers, compute exactly and wrap (the native
// integer path); every other element goes through FP32 (SPEC §3.8.1, §3.9 item 2).
Datapath arith_datapath(Engine e, const Types& t) {
  if (e != Engine::POOL) return Datapath::Fp32;
  if (alu::is_valid_int_aluop(t.op)) return Datapath::NativeInteger;
  const auto int32 = [](uint8_t code) {
    return code == static_cast<uint8_t>(Dtype::INT32) ||
           code == static_cast<uint8_t>(Dtype::UINT32);
  };
  if (alu::is_general_arith_op(t.op) && int32(t.lo) && int32(t.hi) && int32(t.out))
    return Datapath::NativeInteger;
  return Datapath::Fp32;
}

// TensorTensorBitvec (0x51, S3S3D3_TT): per channel, dst[j] = op(src0[j], src1[j]) over
// three 3-D walks paired by ordinal, a bitvec op on the elements' raw w-bit patterns,
// w = 8 * size(out_dtype): no conversion, shifts by counts >= w shift every bit out (SPEC
// §4.14, §3.8.1 item 1: on every engine that runs it).
Datapath bitvec_datapath(Engine, const Types&) {
  return Datapath::RawBits;
}

// What tells the two opcodes apart: their elements' datapath, and their sample word.
struct Opcode2 {
  Opcode opcode;
  Datapath (*datapath)(Engine, const Types&);
  Dtype sample_dtype;
  AluOp sample_op;
};
constexpr Opcode2 kArith{Opcode::TensorTensorArith, arith_datapath, Dtype::FP32, AluOp::ADD};
constexpr Opcode2 kBitvec{Opcode::TensorTensorBitvec, bitvec_datapath, Dtype::INT32,
                          AluOp::BITWISE_XOR};

template <const Opcode2& K>
void validate_opcode(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  validate(w, g, *opts.engine, K.opcode, d);
}
template <const Opcode2& K>
std::optional<Fault> execute_opcode(const Word& w, const Machine& m, const ResolvedOperands& ops,
                                    Writer& out, const ExecEnv& env) {
  return execute(w, m, ops, out, env, K.datapath(env.engine, types_of(w)));
}
template <const Opcode2& K>
std::optional<Fault> unsupported_opcode(const Word& w, Engine engine) {
  return unsupported(w, engine, instruction(K.opcode));
}
template <const Opcode2& K>
void explain_opcode(const Decoded& d, const Machine& m, Explainer& x) {
  explain(d, m, x, instruction(K.opcode), K.datapath);
}
template <const Opcode2& K>
Word sample_opcode(unsigned p) {
  return sample(K.opcode, p, K.sample_dtype, K.sample_op);
}
template <const Opcode2& K>
constexpr OpSemantics semantics_of(std::string_view label) {
  return OpSemantics{.validate = validate_opcode<K>,
                     .execute = execute_opcode<K>,
                     .explain = explain_opcode<K>,
                     .sample = sample_opcode<K>,
                     .sample_label = label,
                     .operands = &kOperands,
                     .unsupported = unsupported_opcode<K>};
}

}  // namespace
}  // namespace gpsimd::detail::tensor_tensor

// ---- CopyPredicated (0x72) ---------------------------------------------------------------

namespace gpsimd::detail::tensor_tensor {
namespace {

// CopyPredicated (0x72, S3S3D3_TT): per channel, dst[j] = src1[j] where the predicate
// src0[j] is nonzero (any bit set, SPEC §4.12's truth rule), and dst[j] keeps its old bytes
// where it is zero; the three 3-D walks pair by ordinal, the data's bits are copied
// unchanged (hi == out), and every source element is read before any write (SPEC §4.22).
static_assert(field_of(table::kCopyPredicated, "src0_mem_pattern").offset == kSrc0.offset &&
              field_of(table::kCopyPredicated, "op").offset == kOp.offset &&
              field_of(table::kCopyPredicated, "dst_mem_pattern").offset == kDst.offset);

// SPEC §4.22, §8.5: the predicate and the data walks read, the destination walk written
// (where the predicate is zero its bytes keep their value).
constexpr OperandDecl kCpOperandList[] = {
    tensor_operand(kSrc0, AccessKind::Read, dtype_low(kDtypes), "the predicate"),
    tensor_operand(kSrc1, AccessKind::Read, dtype_high(kDtypes), "the data"),
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kOut)),
};

// After resolution: at most one source in PSUM (bad-address, tt_valid_partitions checked
// late for register-mode sources), then the shape rule of register-mode walks.
std::optional<Fault> cp_operand_checks(const Word& w, const ResolvedOperands& ops) {
  const Operand& pred = ops.tensor(kSrc0Op);
  const Operand& data = ops.tensor(kSrc1Op);
  if (pred.loc.space == Space::PSUM && data.loc.space == Space::PSUM)
    return Fault{FaultKind::BadAddress,
                 fmt::format("src0_mem_pattern (the predicate) and src1_mem_pattern (the data) "
                             "are both in PSUM (partitions {} and {}); at most one may be "
                             "(tt_valid_partitions)",
                             pred.loc.partition, data.loc.partition)};
  return same_count(w, ops);
}
constexpr Operands kCpOperands{kCpOperandList, kChannels, 1, cp_operand_checks};

// is_valid_copy_cast_predicated (SPEC §4.22); header, events and
// has_copy_cast_predicated_opcode are checked by validate_as. The engine is not an input
// (SPEC §3.9): the word runs on DVE, where PSUM is allowed.
void validate_copy_predicated(const Word& w, Generation g, const ValidateOptions& opts,
                              DiagSink& d) {
  const Types t = types_of(w);
  check_valid_dtype(d, "is_valid_dtype", "in0_in1_dtype (src0, the predicate, low nibble)", t.lo,
                    false);
  check_valid_dtype(d, "is_valid_dtype", "in0_in1_dtype (src1, the data, high nibble)", t.hi,
                    false);
  check_valid_dtype(d, "is_valid_dtype", kOut.name, t.out, false);
  check_dtype_in(d, "s3s3d3_copy_pred_src0_dtype",
                 "in0_in1_dtype (src0, the predicate, low nibble)", t.lo, kIntDtypes);
  if (t.hi != t.out)
    d.fail("s3s3d3_copy_cast_pred_src1_dst_dtype", kOut.name,
           fmt::format("{} (the data, src1, is {})", dtype_text(t.out), dtype_text(t.hi)),
           "out_dtype must equal the data's dtype (the high nibble of in0_in1_dtype): "
           "CopyPredicated copies bits, it does not convert");
  if (t.op != 0) d.fail("s3s3d3_tt_is_zero_op", kOp.name, op_text(t.op), "must be BYPASS (0x00)");
  check_channel_range(d, "check_active_channels", kChannels.name, w[kChannels.offset]);
  check_tensor_operands(kCpOperands, w, g, *opts.engine, d);

  // tt_valid_partitions: the predicate and the data are not both static PSUM addresses.
  const TensorDesc s0 = load_tensor(w, kSrc0), s1 = load_tensor(w, kSrc1),
                   dst = load_tensor(w, kDst);
  const StaticAddr a0 = check_static_addr(s0.addr, g), a1 = check_static_addr(s1.addr, g);
  if (a0.problem == AddrProblem::None && a1.problem == AddrProblem::None &&
      a0.loc.space == Space::PSUM && a1.loc.space == Space::PSUM)
    d.fail(
        "tt_valid_partitions", kSrc1.name,
        fmt::format("{} and src0_mem_pattern {} are both in PSUM", hex32(s1.addr), hex32(s0.addr)),
        "the predicate (src0) and the data (src1) must not both be in PSUM");

  // The count clauses of SPEC §4.14, each waived when one of its two addresses is
  // register mode (then checked at execution).
  if (!s0.register_mode() && !s1.register_mode() && s0.count() != s1.count())
    d.fail("s3s3d3_tt_src_element_cnt_check", kSrc1.name,
           fmt::format("count(src1) = {}, count(src0) = {}", s1.count(), s0.count()),
           "count(src0) must equal count(src1)");
  if (!s0.register_mode() && !dst.register_mode() && s0.count() != dst.count())
    d.fail("s3s3d3_tt_dst_element_cnt_check", kDst.name,
           fmt::format("count(dst) = {}, count(src0) = {}", dst.count(), s0.count()),
           "count(src0) must equal count(dst)");
}

// One channel, SPEC §4.22's loop: every predicate and data element is read first (a
// destination that overlaps a source is a shadow, see Writer), then each ordinal whose
// predicate is true writes the data's bits; a zero predicate writes nothing, so at a
// location the walk reaches twice the later written ordinal wins.
void copy_predicated_channel(const uint8_t* pred, const Walk& wp, const uint8_t* data,
                             const Walk& wd, uint8_t* out, const Walk& wo,
                             std::vector<uint32_t>& value, std::vector<uint8_t>& take) {
  take.resize(wp.count());
  value.resize(wd.count());
  wp.for_each([&](uint64_t j, uint32_t off) {
    take[j] = model::predicate_true(load_elem(pred + off, wp.elem));
  });
  wd.for_each([&](uint64_t j, uint32_t off) { value[j] = load_elem(data + off, wd.elem); });
  wo.for_each([&](uint64_t j, uint32_t off) {
    if (take[j]) store_elem(out + off, wo.elem, value[j]);
  });
}

std::optional<Fault> execute_copy_predicated(const Word& w, const Machine& m,
                                             const ResolvedOperands& ops, Writer& out,
                                             const ExecEnv& env) {
  const unsigned n = w[kChannels.offset];
  const Operand& pred = ops.tensor(kSrc0Op);
  const Operand& data = ops.tensor(kSrc1Op);
  const Operand& dst = ops.tensor(kDstOp);
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());
  auto in_pred = [&](unsigned c) { return m.partition(pred.loc.space, pred.partition(c)).data(); };
  auto in_data = [&](unsigned c) { return m.partition(data.loc.space, data.partition(c)).data(); };
  if (!env.fast) {
    std::vector<uint32_t> value;
    std::vector<uint8_t> take;
    for (unsigned c = 0; c < n; ++c)
      copy_predicated_channel(in_pred(c), pred.walk, in_data(c), data.walk, dst_bytes[c], dwalk,
                              value, take);
    return std::nullopt;
  }
  const uint64_t work = uint64_t{n} * pred.walk.count() * (pred.walk.elem + 2 * data.walk.elem);
  // Fast: the masked-copy kernel (predicated.cc), the reference where it declines;
  // channels in parallel when the work is large, each into its own region.
  kernels::for_channels(n, work, [&](unsigned c) {
    if (kernels::copy_predicated_tensor(dst_bytes[c], dwalk, in_pred(c), pred.walk, in_data(c),
                                        data.walk))
      return;
    thread_local std::vector<uint32_t> value;
    thread_local std::vector<uint8_t> take;
    copy_predicated_channel(in_pred(c), pred.walk, in_data(c), data.walk, dst_bytes[c], dwalk,
                            value, take);
  });
  return std::nullopt;
}

void explain_copy_predicated(const Decoded& d, const Machine& m, Explainer& x) {
  explain_operands(kCpOperands, d, m, x);
  const uint64_t pair = d.integer("in0_in1_dtype");
  x.line("effect",
         fmt::format("destination element j = src1 element j (the data, {}) where src0 element j "
                     "(the predicate, {}) is nonzero, any bit set (0x8000 and 0x80000000 are "
                     "true); where it is zero the destination keeps its old bytes. The three "
                     "walks pair up by ordinal; the data's bits are copied unchanged (NaN "
                     "payloads and -0.0 included); every predicate and data element is read "
                     "before anything is written. Runs on dve whatever engine is given.",
                     dtype_str(pair >> 4), dtype_str(pair & 0xf)));
}

// One channel in partition p: a UINT8 predicate of 16 elements at offset 0, FP32 data at
// 0x40, the destination at 0x100.
Word sample_copy_predicated(unsigned p) {
  Word w = header_word(Opcode::CopyPredicated);
  put_u8(w, kDtypes,
         static_cast<uint8_t>(static_cast<uint8_t>(Dtype::UINT8) | static_cast<uint8_t>(Dtype::FP32)
                                                                       << 4));
  put_u8(w, kOut, static_cast<uint8_t>(Dtype::FP32));
  put_u8(w, kChannels, 1);
  put_tensor(w, kSrc0, sample_tensor(3, p, 0, 16));
  put_tensor(w, kSrc1, sample_tensor(3, p, 0x40, 16));
  put_tensor(w, kDst, sample_tensor(3, p, 0x100, 16));
  return w;
}

}  // namespace
}  // namespace gpsimd::detail::tensor_tensor

namespace gpsimd {
namespace tt = detail::tensor_tensor;
const detail::OpSemantics table::kTensorTensorArithOps =
    tt::semantics_of<tt::kArith>("TensorTensorArith fp32 add");
const detail::OpSemantics table::kTensorTensorBitvecOps =
    tt::semantics_of<tt::kBitvec>("TensorTensorBitvec int32 xor");
const detail::OpSemantics table::kCopyPredicatedOps = {
    .validate = tt::validate_copy_predicated,
    .execute = tt::execute_copy_predicated,
    .explain = tt::explain_copy_predicated,
    .sample = tt::sample_copy_predicated,
    .sample_label = "CopyPredicated fp32 under a uint8 predicate",
    .operands = &tt::kCpOperands,
};
}  // namespace gpsimd
