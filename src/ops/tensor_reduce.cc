// TensorReduceArith (0x42, S4D4_TR): per channel, the source walk's ordinals fall into
// consecutive groups of G (the op_dim innermost dims); group k is folded with op in FP32,
// left to right in walk order (SPEC §7's rule reduce-order), optionally multiplied by
// -1.0, and written as destination ordinal k converted to out_dtype (SPEC §4.19).
// TensorReduceBitvec (0x52, S4D4_TR): the same groups folded with a bitwise op on the
// elements' raw bit patterns; negated is ignored.
// The two opcodes are one family (S4D4_TR, Copy's bytes): everything below is shared but
// each opcode's wrapper, op set and sample at the end.
#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "alu/eval.h"
#include "gpsimd/alu.h"
#include "gpsimd/format.h"
#include "kernels/reduce.h"
#include "kernels/thread_pool.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kTensorReduceArith;
static_assert(&table::kTensorReduceBitvec == &table::kTensorReduceArith);
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

// SPEC §4.19, §8.5: the source walk read, the destination walk (one element per group)
// written, on the engine's rules (PSUM off POOL).
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kSrc, AccessKind::Read, dtype_byte(kInDtype)),
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kOutDtype)),
};
enum : unsigned { kSrcOp, kDstOp };
constexpr Operands kOperands{kOperandList, kChannels};

// TENSOR_SUBDIM: X 0x2, XY 0x3, XYZ 0x4, XYZW 0x5 reduce the innermost 1..4 dims.
constexpr uint8_t kSubdimX = 0x2, kSubdimXYZW = 0x5;
// The number of reduced dims of a valid op_dim.
unsigned reduced_dims(uint8_t op_dim) {
  return op_dim - kSubdimX + 1;
}
// G = num_elem[0] ... num_elem[k-1], K = num_elem[k] ... num_elem[3] of the source
// (exact: each is a product of at most four 16-bit counts).
struct Groups {
  uint64_t size = 1;   // G
  uint64_t count = 1;  // K
};
Groups groups_of(const TensorDesc& src, unsigned k) {
  Groups g;
  for (unsigned d = 0; d < kMaxDims; ++d) (d < k ? g.size : g.count) *= src.num[d];
  return g;
}

std::string op_text(uint8_t op) {
  if (auto n = alu_op_name(op)) return fmt::format("{} ({:#04x})", *n, op);
  return hex8(op);
}
template <class Pred>
std::string ops_text(Generation g, Pred&& pred) {
  std::string out;
  for (const alu::OpRow& r : alu::kOps)
    if (alu::is_enumerator(r.code, g) && pred(r.code))
      out += fmt::format("{}{}", out.empty() ? "" : ", ", r.name);
  return out;
}

// tensor_reduce_valid_alu_op (SPEC §4.19): 0x42 takes is_general_arith_op or the integer
// band, 0x52 is_general_bitvec_op.
bool valid_alu_op(Opcode opcode, uint8_t op) {
  if (opcode == Opcode::TensorReduceBitvec) return alu::is_general_bitvec_op(op);
  return alu::is_general_arith_op(op) || model::is_valid_tensor_reduce_int_op(op);
}

// The vendor's engine predicate (SPEC §4.19), minus the parts other clauses report: on
// DVE the op is outside the integer band; on POOL it is inside and in_dtype is a 32- or
// 64-bit integer; on ACT nothing passes.
bool valid_engine(Engine e, uint8_t op, uint8_t in) {
  switch (e) {
    case Engine::DVE:
      return !model::is_valid_tensor_reduce_int_op(op) && !model::is_argmax_argmin_int_op(op);
    case Engine::POOL:
      return model::is_valid_tensor_reduce_int_op(op) &&
             dtype_in({Dtype::INT32, Dtype::UINT32, Dtype::INT64, Dtype::UINT64}, in);
    case Engine::ACT:
      return false;
  }
  return false;
}

std::string engine_rule(Engine e) {
  switch (e) {
    case Engine::DVE:
      return "on dve the op must not be in the integer band 0xC4-0xE1";
    case Engine::POOL:
      return "on pool the op must be in the integer band 0xC4-0xE1 and in_dtype INT32, UINT32, "
             "INT64 or UINT64";
    case Engine::ACT:
      return "the engine must be dve or pool (the vendor predicate has no ACT arm)";
  }
  return "";
}

constexpr DtypeSet kBitvecDtypes = {Dtype::INT8,   Dtype::UINT8, Dtype::INT16,
                                    Dtype::UINT16, Dtype::INT32, Dtype::UINT32};

// The clauses of SPEC §4.19 in its order; header, events and has_tensor_reduce_opcode are
// checked by validate_as.
void validate(const Word& w, Generation g, Engine engine, Opcode opcode, DiagSink& d) {
  const bool bitvec = opcode == Opcode::TensorReduceBitvec;
  check_reserved(d, "s4d4_tr_reserved_zero", w, kReserved1);
  if (w[kMaskEnable.offset] != 0)
    d.fail("mask_enable_zero", kMaskEnable.name, hex8(w[kMaskEnable.offset]), "must be 0");
  const auto [in, out] = check_in_out_dtypes(d, w, kInDtype, kOutDtype);
  // SPEC §3.6: the op-class clauses are not evaluated when the op is no enumerator of the
  // generation (on every engine, ACT included); is_valid_enum reports it.
  const uint8_t op = w[kOp.offset];
  if (!alu::is_enumerator(op, g)) {
    d.fail(
        "is_valid_enum", kOp.name, op_text(op),
        fmt::format("must be an ALU_OP of {}: {}", generation_name(g), alu::enumerators_text(g)));
  } else {
    if (!valid_alu_op(opcode, op))
      d.fail("tensor_reduce_valid_alu_op", kOp.name, op_text(op),
             bitvec ? fmt::format("must be an is_general_bitvec_op op: {}",
                                  ops_text(g, alu::is_general_bitvec_op))
                    : fmt::format("must be an is_general_arith_op op or in the integer band "
                                  "0xC4-0xE1: {}",
                                  ops_text(g, [&](uint8_t o) { return valid_alu_op(opcode, o); })));
    if (!valid_engine(engine, op, in))
      d.fail(
          bitvec ? "is_valid_tensor_reduce_bitvec_engine" : "is_valid_tensor_reduce_arith_engine",
          kOp.name,
          fmt::format("{} with in_dtype {} on {}", op_text(op), dtype_text(in), engine_id(engine)),
          engine_rule(engine));
  }
  const uint8_t op_dim = w[kOpDim.offset];
  check_one_of(d, "is_valid_subdim", kOpDim.name, op_dim, {0x2, 0x3, 0x4, 0x5},
               "a TENSOR_SUBDIM that reduces: X (0x2), XY (0x3), XYZ (0x4) or XYZW (0x5)");
  check_flag(d, "has_valid_reduce_negated", kNegated.name, w[kNegated.offset]);
  if (bitvec && (in != out || !dtype_in(kBitvecDtypes, in)))
    d.fail("tensor_reduce_bitvec_dtype", kOutDtype.name,
           fmt::format("in_dtype {}, out_dtype {}", dtype_text(in), dtype_text(out)),
           "in_dtype and out_dtype must be equal and one of INT8, UINT8, INT16, UINT16, INT32, "
           "UINT32");
  const unsigned n = w[kChannels.offset];
  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, n);
  check_tensor_operands(kOperands, w, g, engine, d);
  // Static for register-mode operands too, the literal formula when a num_elem is 0 and
  // not evaluated when is_valid_subdim fails (SPEC §3.6, §4.19).
  if (op_dim >= kSubdimX && op_dim <= kSubdimXYZW) {
    const TensorDesc src = load_tensor(w, kSrc), dst = load_tensor(w, kDst);
    const Groups gr = groups_of(src, reduced_dims(op_dim));
    if (dst.count() != gr.count)
      d.fail("tensor_reduce_dst_element_count", kDst.name,
             fmt::format("count(dst) = {}, groups of src = {}", dst.count(), gr.count),
             fmt::format("count(dst) must equal the number of groups K = num_elem[{}..3] of src",
                         reduced_dims(op_dim)));
  }
}

bool runs(Opcode opcode, uint8_t op) {
  if (opcode == Opcode::TensorReduceBitvec) {
    for (uint8_t o : model::kReduceBitvecOps)
      if (o == op) return true;
    return false;
  }
  for (uint8_t o : model::kReduceArithOps)
    if (o == op) return true;
  return false;
}

// SPEC §3.9 item 4, §4.19: a valid word faults unsupported-op on POOL (its integer
// reductions have no public definition) and for an op NKI does not reduce with.
std::optional<std::string> unsupported_reason(Opcode opcode, Engine e, uint8_t op) {
  const std::string_view name = instruction(opcode).mnemonic;
  if (e != Engine::DVE)
    return fmt::format(
        "{} runs on dve only (SPEC §3.9, §4.19: the integer reductions pool "
        "admits have no public definition)",
        name);
  if (!runs(opcode, op))
    return fmt::format("op {} is not one of NKI's tensor_reduce ops ({}; SPEC §4.19)", op_text(op),
                       opcode == Opcode::TensorReduceBitvec
                           ? "BITWISE_AND, BITWISE_OR, BITWISE_XOR"
                           : "ADD, SUBTRACT, MULT, MAX, MIN, LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR");
  return std::nullopt;
}

// One group's fold, on the elements' bit patterns v[0 .. G-1] in walk order.
struct Reduce {
  bool bitvec;
  uint8_t op;
  Dtype in, out;
  bool negated;
  unsigned bits;  // 8 * size(in_dtype), the raw width of 0x52

  uint32_t operator()(const uint32_t* v, uint64_t g) const {
    if (bitvec) {
      uint32_t acc = v[0];
      for (uint64_t i = 1; i < g; ++i) acc = alu::eval_bits(op, acc, v[i], bits);
      return acc;
    }
    // The rule reduce-order (model::OrderRule::Reduce, SPEC §4.19): one FP32 accumulator
    // started from init(op, v[0]), then a left fold in walk order, one IEEE binary32
    // operation of §3.8.2 per step.
    uint32_t acc = model::reduce_init(op, to_fp32(in, v[0]));
    for (uint64_t i = 1; i < g; ++i) acc = alu::eval_fp32(op, acc, to_fp32(in, v[i]));
    if (negated)
      acc = alu::eval_fp32(static_cast<uint8_t>(AluOp::MULT), acc, model::kReduceNegateFactor);
    return from_fp32(out, acc);
  }
};

std::optional<Fault> execute(const Word& w, const Machine& m, const ResolvedOperands& ops,
                             Writer& out, const ExecEnv& env, Opcode opcode) {
  const unsigned n = w[kChannels.offset];
  const auto din = static_cast<Dtype>(w[kInDtype.offset]);
  const auto dout = static_cast<Dtype>(w[kOutDtype.offset]);
  const unsigned in_size = *dtype_size(din), out_size = *dtype_size(dout);
  const TensorDesc st = load_tensor(w, kSrc);
  const Groups gr = groups_of(st, reduced_dims(w[kOpDim.offset]));
  const Reduce reduce{opcode == Opcode::TensorReduceBitvec,
                      w[kOp.offset],
                      din,
                      dout,
                      w[kNegated.offset] != 0,
                      8 * in_size};

  const Operand& src = ops.tensor(kSrcOp);
  const Operand& dst = ops.tensor(kDstOp);
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());

  // The reference, one channel: the source in ordinal order, group k (ordinals k*G ..
  // k*G + G - 1) folded into result k, then the results stored along the destination walk
  // (a zero step makes the later group win). The Writer gives a destination that overlaps
  // the source a shadow, so the source reads as it was.
  auto channel = [&](unsigned c, std::vector<uint32_t>& v, std::vector<uint32_t>& r) {
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    v.resize(st.count());
    src.walk.for_each([&](uint64_t j, uint32_t off) { v[j] = load_elem(in + off, in_size); });
    r.resize(gr.count);
    for (uint64_t k = 0; k < gr.count; ++k) r[k] = reduce(v.data() + k * gr.size, gr.size);
    dwalk.for_each(
        [&](uint64_t k, uint32_t off) { store_elem(dst_bytes[c] + off, out_size, r[k]); });
  };
  if (!env.fast) {
    std::vector<uint32_t> v, r;
    for (unsigned c = 0; c < n; ++c) channel(c, v, r);
    return std::nullopt;
  }
  // Fast: a contiguous source walk by the kernel (kernels/reduce.h), the reference
  // otherwise.
  const kernels::Reduction k{reduce.bitvec, reduce.op, reduce.negated, din, dout};
  kernels::for_channels(n, uint64_t{n} * st.count() * in_size, [&](unsigned c) {
    const uint8_t* in = m.partition(src.loc.space, src.partition(c)).data();
    if (kernels::tensor_reduce_channel(k, in, src.walk, gr.size, dst_bytes[c], dwalk)) return;
    thread_local std::vector<uint32_t> v, r;
    channel(c, v, r);
  });
  return std::nullopt;
}

// ---- explain and sample ----------------------------------------------------------------

std::string fp32_in_text(Dtype in) {
  if (in == Dtype::FP32) return "taken as FP32";
  if (is_int_dtype(in))
    return fmt::format("converted from {} to FP32 (nearest, ties to even)",
                       dtype_str(static_cast<uint8_t>(in)));
  return fmt::format("widened exactly from {} to FP32", dtype_str(static_cast<uint8_t>(in)));
}

std::string fp32_out_text(Dtype out) {
  const auto code = static_cast<uint8_t>(out);
  if (out == Dtype::FP32 || out == Dtype::FP32R)
    return fmt::format("stored as {} unchanged", dtype_str(code));
  if (is_int_dtype(out))
    return fmt::format("converted to {}: rounded to nearest even, saturated, NaN to 0",
                       dtype_str(code));
  return fmt::format("rounded to nearest even into {}", dtype_str(code));
}

void explain(const Decoded& d, const Machine& m, Explainer& x, Opcode opcode) {
  explain_operands(kOperands, d, m, x);
  const auto op = static_cast<uint8_t>(d.integer("op"));
  const auto op_dim = static_cast<uint8_t>(d.integer("op_dim"));
  const auto in = static_cast<Dtype>(d.integer("in_dtype"));
  const auto out = static_cast<Dtype>(d.integer("out_dtype"));
  const bool negated = d.integer("negated") != 0;
  const std::string name(alu_op_name(op).value_or("op"));
  if (op_dim < kSubdimX || op_dim > kSubdimXYZW) {
    x.line("effect", fmt::format("op_dim {} reduces nothing (a valid word has X 0x2 .. XYZW 0x5)",
                                 hex8(op_dim)));
    return;
  }
  const unsigned k = reduced_dims(op_dim);
  const Groups gr = groups_of(d.tensor("src_mem_pattern"), k);
  const std::string groups = fmt::format(
      "the source walk's ordinals form {} group{} of G = {} consecutive elements (the {} "
      "innermost dim{}, num_elem[0..{}]); group k is folded with {} and written to destination "
      "ordinal k",
      gr.count, gr.count == 1 ? "" : "s", gr.size, k, k == 1 ? "" : "s", k - 1, name);
  if (opcode == Opcode::TensorReduceBitvec) {
    x.line("effect",
           fmt::format("{}: on the raw {}-bit patterns, no conversion; negated is ignored. Every "
                       "source element is read before anything is written.",
                       groups, 8 * dtype_size(static_cast<uint8_t>(in)).value_or(0)));
  } else {
    const bool logical = op >= 0x0D && op <= 0x0F;
    x.line("effect",
           fmt::format(
               "{}: each element {}, the accumulator started from {}, then acc = {}(acc, v[i]) "
               "for i = 1 .. G-1 in IEEE binary32{}; {}. Every source element is read before "
               "anything is written.",
               groups, fp32_in_text(in),
               logical ? "the first element's truth value (1.0 or 0.0)"
                       : "the first element (a NaN as 0x7FC00000)",
               name, negated ? ", the result multiplied by -1.0 (FP32 MULT)" : "",
               "the result " + fp32_out_text(out)));
  }
  std::string engines;
  for (Engine e : kAllEngines) {
    const auto why = unsupported_reason(opcode, e, op);
    engines += fmt::format("{}{}: {}", engines.empty() ? "" : "; ", engine_id(e),
                           e == Engine::DVE && !why ? "runs" : "does not run");
  }
  x.line("engines", engines +
                        " (SPEC §3.9: dve only; act and pool words are invalid or fault "
                        "unsupported-op)");
}

// SPEC §4.19's reduce-order: the result of an ADD, SUBTRACT or MULT group of more than one
// element rests on the [model] fold order (explain.h's order_rule).
std::optional<model::OrderRule> order_rule(const Word& w) {
  const uint8_t op = w[kOp.offset], op_dim = w[kOpDim.offset];
  const bool order_dependent = op == static_cast<uint8_t>(AluOp::ADD) ||
                               op == static_cast<uint8_t>(AluOp::SUBTRACT) ||
                               op == static_cast<uint8_t>(AluOp::MULT);
  if (!order_dependent || op_dim < kSubdimX || op_dim > kSubdimXYZW) return std::nullopt;
  if (groups_of(load_tensor(w, kSrc), reduced_dims(op_dim)).size < 2) return std::nullopt;
  return model::OrderRule::Reduce;
}

// A valid word of one channel: 16 source elements at 0 reduced (X) to one at 0x100.
Word sample(Opcode opcode, unsigned p, Dtype dtype, AluOp op) {
  Word w = header_word(opcode);
  put_tensor(w, kSrc, sample_tensor(4, p, 0, 16));
  put_u8(w, kInDtype, static_cast<uint8_t>(dtype));
  put_u8(w, kOutDtype, static_cast<uint8_t>(dtype));
  put_u8(w, kChannels, 1);
  put_u8(w, kOp, static_cast<uint8_t>(op));
  put_u8(w, kOpDim, kSubdimX);
  put_tensor(w, kDst, sample_tensor(4, p, 256, 1));
  return w;
}

// What tells the two opcodes apart.
struct Opcode2 {
  Opcode opcode;
  Dtype sample_dtype;
  AluOp sample_op;
};
constexpr Opcode2 kArith{Opcode::TensorReduceArith, Dtype::FP32, AluOp::ADD};
constexpr Opcode2 kBitvec{Opcode::TensorReduceBitvec, Dtype::INT32, AluOp::BITWISE_XOR};

template <const Opcode2& K>
void validate_opcode(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  validate(w, g, *opts.engine, K.opcode, d);  // validate_as() resolves the engine input
}
template <const Opcode2& K>
std::optional<Fault> execute_opcode(const Word& w, const Machine& m, const ResolvedOperands& ops,
                                    Writer& out, const ExecEnv& env) {
  return execute(w, m, ops, out, env, K.opcode);
}
template <const Opcode2& K>
std::optional<Fault> unsupported_opcode(const Word& w, Engine engine) {
  if (auto why = unsupported_reason(K.opcode, engine, w[kOp.offset]))
    return Fault{
        FaultKind::UnsupportedOp,
        fmt::format("{} on {}: {}", instruction(K.opcode).mnemonic, engine_id(engine), *why)};
  return std::nullopt;
}
template <const Opcode2& K>
void explain_opcode(const Decoded& d, const Machine& m, Explainer& x) {
  explain(d, m, x, K.opcode);
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
                     .unsupported = unsupported_opcode<K>,
                     .order_rule = K.opcode == Opcode::TensorReduceArith ? order_rule : nullptr};
}

}  // namespace
}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kTensorReduceArithOps =
    detail::semantics_of<detail::kArith>("TensorReduceArith fp32 add");
const detail::OpSemantics table::kTensorReduceBitvecOps =
    detail::semantics_of<detail::kBitvec>("TensorReduceBitvec int32 xor");
}  // namespace gpsimd
