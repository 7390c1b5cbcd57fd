// CopyPredicatedScalar (0xe8, S3D3_CP_PRED_SCALAR): per channel, write a scalar (an
// instruction immediate, or one value per channel through a pointer) at the destination
// ordinals whose predicate element selects it, and leave every other ordinal untouched.
// reversed_pred = 0 writes where the predicate is zero, 1 where it is nonzero. Bits are
// copied, never converted (SPEC §4.12).
#include <array>
#include <vector>

#include "gpsimd/model.h"
#include "kernels/kernels.h"
#include "ops/explain.h"
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {

constexpr auto& F = table::kCopyPredicatedScalar;
constexpr FieldDef kReserved0 = field_of(F, "reserved0");
constexpr FieldDef kPred = field_of(F, "pred_mem_pattern");
constexpr FieldDef kPredDtype = field_of(F, "pred_dtype");
constexpr FieldDef kReversed = field_of(F, "reversed_pred");
constexpr FieldDef kChannels = field_of(F, "num_active_channels");
constexpr FieldDef kReserved1 = field_of(F, "reserved1");
constexpr FieldDef kInDtype = field_of(F, "in_dtype");
constexpr FieldDef kOutDtype = field_of(F, "out_dtype");
constexpr FieldDef kDst = field_of(F, "dst_mem_pattern");

// SPEC §4.12, §8.5: the predicate walk and the scalar pointer are read, the destination
// walk written (where the predicate does not select, its bytes keep their value).
constexpr OperandDecl kOperandList[] = {
    tensor_operand(kPred, AccessKind::Read, dtype_byte(kPredDtype)),
    tensor_operand(kDst, AccessKind::Write, dtype_byte(kOutDtype)),
    immediate_operand(F, "src0_imm", dtype_byte(kInDtype)),
};
enum : unsigned { kPredOp, kDstOp, kScalarOp };
constexpr Operands kOperands{kOperandList, kChannels, 1, same_count};

}  // namespace

void validate_copy_predicated_scalar(const Word& w, Generation g, const ValidateOptions& opts,
                                     DiagSink& d) {
  check_reserved(d, "s3d3_cp_pred_scalar_reserved_zero", w, kReserved0);
  check_reserved(d, "s3d3_cp_pred_scalar_reserved_zero", w, kReserved1);

  const unsigned n = w[kChannels.offset];
  const uint8_t pdt = w[kPredDtype.offset], din = w[kInDtype.offset], dout = w[kOutDtype.offset];
  check_immediate_operands(kOperands, w, g, *opts.engine, d);
  const TensorDesc pred = load_tensor(w, kPred), dst = load_tensor(w, kDst);
  check_tensor_operands(kOperands, w, g, *opts.engine, d);
  if (!pred.register_mode() && !dst.register_mode() && pred.count() != dst.count())
    d.fail("same_element_count_t3d", kDst.name,
           fmt::format("{} elements (pred_mem_pattern has {})", dst.count(), pred.count()),
           "pred_mem_pattern and dst_mem_pattern must visit the same number of elements");
  check_dtype_in(d, "is_valid_int_dtype_datapath", kPredDtype.name, pdt, kIntDtypes);
  check_valid_dtype(d, "is_valid_dtype", kInDtype.name, din, false);
  check_valid_dtype(d, "is_valid_dtype", kOutDtype.name, dout, false);
  if (din != dout)
    d.fail("has_same_inout_dtype", kOutDtype.name,
           fmt::format("{} (in_dtype is {})", dtype_text(dout), dtype_text(din)),
           "out_dtype must equal in_dtype");
  check_flag(d, "has_valid_reversed_pred", kReversed.name, w[kReversed.offset]);
  check_channel_range(d, "has_valid_active_channel_range", kChannels.name, n);
}

std::optional<Fault> execute_copy_predicated_scalar(const Word& w, const Machine& m,
                                                    const ResolvedOperands& ops, Writer& out,
                                                    const ExecEnv& env) {
  const bool fast = env.fast;
  const unsigned n = w[kChannels.offset];
  const unsigned psize = *dtype_size(w[kPredDtype.offset]);
  const unsigned size = *dtype_size(w[kOutDtype.offset]);
  const TensorDesc pt = load_tensor(w, kPred);

  const Operand& pred = ops.tensor(kPredOp);
  const Operand& dst = ops.tensor(kDstOp);
  const Immediate& scalar = ops.immediate(kScalarOp);

  // reversed_pred = 1 writes where the predicate is true, 0 where it is false.
  const bool write_when = w[kReversed.offset] == 1;
  std::array<uint8_t*, kPartitions> dst_bytes;
  const Walk dwalk = out.regions(dst, n, dst_bytes.data());
  auto reference_channel = [&](unsigned c, std::vector<uint8_t>& sel) {
    const uint8_t* p = m.partition(pred.loc.space, pred.partition(c)).data();
    const uint32_t s = scalar.read(m, c);
    // Every decision first: a destination overlapping the predicate is a shadow (see
    // Writer), and decisions come from the predicate as it was.
    sel.resize(pt.count());
    pred.walk.for_each([&](uint64_t j, uint32_t off) {
      sel[j] = model::predicate_true(load_elem(p + off, psize)) == write_when;
    });
    dwalk.for_each([&](uint64_t j, uint32_t off) {
      if (sel[j]) store_elem(dst_bytes[c] + off, size, s);
    });
  };
  if (!fast) {
    std::vector<uint8_t> sel;
    for (unsigned c = 0; c < n; ++c) reference_channel(c, sel);
    return std::nullopt;
  }
  kernels::for_channels(n, uint64_t{n} * pt.count() * (psize + size), [&](unsigned c) {
    const uint8_t* p = m.partition(pred.loc.space, pred.partition(c)).data();
    if (kernels::copy_predicated(dst_bytes[c], dwalk, p, pred.walk, psize, size, write_when,
                                 scalar.read(m, c)))
      return;
    thread_local std::vector<uint8_t> sel;
    reference_channel(c, sel);
  });
  return std::nullopt;
}

namespace {

void explain_copy_predicated_scalar(const Decoded& d, const Machine& m, Explainer& x) {
  explain_operands(kOperands, d, m, x);
  const bool reversed = d.integer("reversed_pred") != 0;
  x.line("effect",
         fmt::format("element j of the destination gets the scalar where predicate element j is "
                     "{} (reversed_pred = {}; NKI's reverse_pred={} is this), and keeps its old "
                     "bytes elsewhere; bits are copied, never converted.",
                     reversed ? "nonzero" : "zero", reversed ? 1 : 0, reversed ? "False" : "True"));
}

Word sample_copy_predicated_scalar(unsigned p) {
  Word w = header_word(Opcode::CopyPredicatedScalar);
  put_tensor(w, field_of(F, "pred_mem_pattern"), sample_tensor(3, p, 0, 16));
  put_u8(w, field_of(F, "pred_dtype"), 0x08);  // INT32 predicates
  put_u8(w, field_of(F, "reversed_pred"), 1);  // write where the predicate is nonzero
  put_u8(w, field_of(F, "num_active_channels"), 1);
  put_u8(w, field_of(F, "in_dtype"), 0x0a);  // FP32
  put_u8(w, field_of(F, "out_dtype"), 0x0a);
  put_u32(w, field_of(F, "src0_imm"), 0xc61c0000u);  // -9984.0
  put_tensor(w, field_of(F, "dst_mem_pattern"), sample_tensor(3, p, 256, 16));
  return w;
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kCopyPredicatedScalarOps = {
    .validate = detail::validate_copy_predicated_scalar,
    .execute = detail::execute_copy_predicated_scalar,
    .explain = detail::explain_copy_predicated_scalar,
    .sample = detail::sample_copy_predicated_scalar,
    .sample_label = "CopyPredicatedScalar fp32",
    .operands = &detail::kOperands,
};
}  // namespace gpsimd
