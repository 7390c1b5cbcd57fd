// TensorScalarBitvec (0x53, S3D3_TS): per channel, dst = (x op0 s0) op1 s1 on the raw bits of
// in_dtype (= out_dtype, an integer dtype), with immediates of in_dtype's width: instruction
// values, or one per channel through a pointer; reverse_operands makes a scalar the left operand
// (SPEC §4.15). The clauses and the effect are the family's, in tensor_scalar.h.
#include "ops/tensor_scalar.h"

namespace gpsimd::detail {
namespace {

namespace ts = tensor_scalar;

void validate_tensor_scalar_bitvec(const Word& w, Generation g, const ValidateOptions& opts,
                                   DiagSink& d) {
  ts::validate(w, g, opts, d, ts::kBitvec);
}

std::optional<Fault> footprint_tensor_scalar_bitvec(const Word& w, const Machine& m, Engine e,
                                                    FootprintSink& fp) {
  return ts::footprint(w, m, e, fp, ts::kBitvec);
}

std::optional<Fault> execute_tensor_scalar_bitvec(const Word& w, const Machine& m, Writer& out,
                                                  const ExecEnv& env) {
  return ts::execute(w, m, out, env, ts::kBitvec);
}

void explain_tensor_scalar_bitvec(const Decoded& d, const Machine& m, Explainer& x) {
  ts::explain(d, m, x, ts::kBitvec);
}

// INT32, op0 BITWISE_AND 0xff, op1 LOGICAL_SHIFT_LEFT 4: dst = (x & 0xff) << 4.
Word sample_tensor_scalar_bitvec(unsigned p) {
  return ts::sample(p, ts::kBitvec, 0x08, ts::code(AluOp::BITWISE_AND), 0x000000ffu,
                    ts::code(AluOp::LOGICAL_SHIFT_LEFT), 4u);
}

}  // namespace
}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kTensorScalarBitvecOps = {
    detail::validate_tensor_scalar_bitvec,  detail::execute_tensor_scalar_bitvec,
    detail::explain_tensor_scalar_bitvec,   detail::sample_tensor_scalar_bitvec,
    "TensorScalarBitvec int32 (x&0xff)<<4", nullptr,
    detail::footprint_tensor_scalar_bitvec};
}  // namespace gpsimd
