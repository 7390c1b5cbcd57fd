// TensorTensorBitvec (0x51, S3S3D3_TT): per channel, dst[j] = op(src0[j], src1[j]) over
// three 3-D walks paired by ordinal, a bitvec op on the elements' raw w-bit patterns,
// w = 8 * size(out_dtype): no conversion, shifts by counts >= w shift every bit out (SPEC
// §4.14, §3.8.1). The clauses, the faults and the element loop are tensor_tensor.h's.
#include "ops/explain.h"
#include "ops/op.h"
#include "ops/tensor_tensor.h"

namespace gpsimd::detail {
namespace {

namespace tt = tensor_tensor;

constexpr const InstrDef& kDef = instruction(Opcode::TensorTensorBitvec);

// SPEC §3.8.1 item 1: every element of a bitvec opcode takes the raw-bits path, on every
// engine that runs it.
tt::Datapath bitvec_datapath(Engine, const tt::Types&) {
  return tt::Datapath::RawBits;
}

}  // namespace

void validate_tensor_tensor_bitvec(const Word& w, Generation g, const ValidateOptions& opts,
                                   DiagSink& d) {
  tt::validate(w, g, *opts.engine, Opcode::TensorTensorBitvec, d);
}

std::optional<Fault> execute_tensor_tensor_bitvec(const Word& w, const Machine& m, Writer& out,
                                                  const ExecEnv& env) {
  return tt::execute(w, m, out, env, kDef, bitvec_datapath(env.engine, tt::types_of(w)));
}

namespace {

void explain_tensor_tensor_bitvec(const Decoded& d, const Machine& m, Explainer& x) {
  tt::explain(d, m, x, kDef, bitvec_datapath);
}

Word sample_tensor_tensor_bitvec(unsigned p) {
  return tt::sample(Opcode::TensorTensorBitvec, p, Dtype::INT32, AluOp::BITWISE_XOR);
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kTensorTensorBitvecOps = {detail::validate_tensor_tensor_bitvec,
                                                           detail::execute_tensor_tensor_bitvec,
                                                           detail::explain_tensor_tensor_bitvec,
                                                           detail::sample_tensor_tensor_bitvec,
                                                           "TensorTensorBitvec int32 xor",
                                                           nullptr,
                                                           detail::tt::footprint};
}  // namespace gpsimd
