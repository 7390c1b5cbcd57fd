// TensorScalarArith (0x43, S3D3_TS): per channel, dst = (x op0 s0) op1 s1 on the FP32 path (x
// converted to FP32, t kept in FP32, the result converted to out_dtype), with FP32 immediates:
// instruction values, or one per channel through a pointer; reverse_operands makes a scalar the
// left operand (SPEC §4.15). The clauses and the effect are the family's, in tensor_scalar.h.
#include "ops/tensor_scalar.h"

namespace gpsimd::detail {
namespace {

namespace ts = tensor_scalar;

void validate_tensor_scalar_arith(const Word& w, Generation g, const ValidateOptions& opts,
                                  DiagSink& d) {
  ts::validate(w, g, opts, d, ts::kArith);
}

std::optional<Fault> footprint_tensor_scalar_arith(const Word& w, const Machine& m, Engine e,
                                                   FootprintSink& fp) {
  return ts::footprint(w, m, e, fp, ts::kArith);
}

std::optional<Fault> execute_tensor_scalar_arith(const Word& w, const Machine& m, Writer& out,
                                                 const ExecEnv& env) {
  return ts::execute(w, m, out, env, ts::kArith);
}

void explain_tensor_scalar_arith(const Decoded& d, const Machine& m, Explainer& x) {
  ts::explain(d, m, x, ts::kArith);
}

// FP32 dtype, op0 MULT by 2.0, op1 ADD 1.0: dst = x * 2 + 1.
Word sample_tensor_scalar_arith(unsigned p) {
  return ts::sample(p, ts::kArith, 0x0a, ts::code(AluOp::MULT), 0x40000000u, ts::code(AluOp::ADD),
                    0x3f800000u);
}

}  // namespace
}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kTensorScalarArithOps = {
    detail::validate_tensor_scalar_arith, detail::execute_tensor_scalar_arith,
    detail::explain_tensor_scalar_arith,  detail::sample_tensor_scalar_arith,
    "TensorScalarArith fp32 x*2+1",       nullptr,
    detail::footprint_tensor_scalar_arith};
}  // namespace gpsimd
