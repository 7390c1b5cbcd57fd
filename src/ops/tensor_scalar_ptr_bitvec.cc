// TensorScalarPtrBitvec (0x54, S3D3_TS): the vendor's deprecated pointer-only form of
// TensorScalarBitvec: both immediates are in_dtype values read per channel through pointers (imm0
// and imm1 are static ADDR4s, imm0_src and imm1_src 0), then dst = (x op0 s0) op1 s1 on the raw
// bits (SPEC §4.15). The clauses and the effect are the family's, in tensor_scalar.h.
#include "ops/tensor_scalar.h"

namespace gpsimd::detail {
namespace {

namespace ts = tensor_scalar;

void validate_tensor_scalar_ptr_bitvec(const Word& w, Generation g, const ValidateOptions& opts,
                                       DiagSink& d) {
  ts::validate(w, g, opts, d, ts::kPtrBitvec);
}

std::optional<Fault> footprint_tensor_scalar_ptr_bitvec(const Word& w, const Machine& m, Engine e,
                                                        FootprintSink& fp) {
  return ts::footprint(w, m, e, fp, ts::kPtrBitvec);
}

std::optional<Fault> execute_tensor_scalar_ptr_bitvec(const Word& w, const Machine& m, Writer& out,
                                                      const ExecEnv& env) {
  return ts::execute(w, m, out, env, ts::kPtrBitvec);
}

void explain_tensor_scalar_ptr_bitvec(const Decoded& d, const Machine& m, Explainer& x) {
  ts::explain(d, m, x, ts::kPtrBitvec);
}

// INT32, op0 BITWISE_XOR the INT32 at offset 128, op1 BITWISE_OR the one at offset 132.
Word sample_tensor_scalar_ptr_bitvec(unsigned p) {
  return ts::sample(p, ts::kPtrBitvec, 0x08, ts::code(AluOp::BITWISE_XOR),
                    encode_static_addr({Space::SBUF, p, 128}), ts::code(AluOp::BITWISE_OR),
                    encode_static_addr({Space::SBUF, p, 132}));
}

}  // namespace
}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kTensorScalarPtrBitvecOps = {
    detail::validate_tensor_scalar_ptr_bitvec, detail::execute_tensor_scalar_ptr_bitvec,
    detail::explain_tensor_scalar_ptr_bitvec,  detail::sample_tensor_scalar_ptr_bitvec,
    "TensorScalarPtrBitvec int32 (x^s0)|s1",   nullptr,
    detail::footprint_tensor_scalar_ptr_bitvec};
}  // namespace gpsimd
