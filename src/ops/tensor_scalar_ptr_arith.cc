// TensorScalarPtrArith (0x44, S3D3_TS): the vendor's deprecated pointer-only form of
// TensorScalarArith: both immediates are FP32 values read per channel through pointers (imm0 and
// imm1 are static ADDR4s, imm0_src and imm1_src 0), then dst = (x op0 s0) op1 s1 on the FP32 path
// (SPEC §4.15). The clauses and the effect are the family's, in tensor_scalar.h.
#include "ops/tensor_scalar.h"

namespace gpsimd::detail {
namespace {

namespace ts = tensor_scalar;

void validate_tensor_scalar_ptr_arith(const Word& w, Generation g, const ValidateOptions& opts,
                                      DiagSink& d) {
  ts::validate(w, g, opts, d, ts::kPtrArith);
}

std::optional<Fault> footprint_tensor_scalar_ptr_arith(const Word& w, const Machine& m, Engine e,
                                                       FootprintSink& fp) {
  return ts::footprint(w, m, e, fp, ts::kPtrArith);
}

std::optional<Fault> execute_tensor_scalar_ptr_arith(const Word& w, const Machine& m, Writer& out,
                                                     const ExecEnv& env) {
  return ts::execute(w, m, out, env, ts::kPtrArith);
}

void explain_tensor_scalar_ptr_arith(const Decoded& d, const Machine& m, Explainer& x) {
  ts::explain(d, m, x, ts::kPtrArith);
}

// FP32, op0 MULT by the FP32 at offset 128, op1 ADD the FP32 at offset 132.
Word sample_tensor_scalar_ptr_arith(unsigned p) {
  return ts::sample(p, ts::kPtrArith, 0x0a, ts::code(AluOp::MULT),
                    encode_static_addr({Space::SBUF, p, 128}), ts::code(AluOp::ADD),
                    encode_static_addr({Space::SBUF, p, 132}));
}

}  // namespace
}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kTensorScalarPtrArithOps = {
    detail::validate_tensor_scalar_ptr_arith, detail::execute_tensor_scalar_ptr_arith,
    detail::explain_tensor_scalar_ptr_arith,  detail::sample_tensor_scalar_ptr_arith,
    "TensorScalarPtrArith fp32 x*s0+s1",      nullptr,
    detail::footprint_tensor_scalar_ptr_arith};
}  // namespace gpsimd
