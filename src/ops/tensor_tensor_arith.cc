// TensorTensorArith (0x41, S3S3D3_TT): per channel, dst[j] = op(src0[j], src1[j]) over
// three 3-D walks paired by ordinal, an arithmetic op (SPEC §4.14). On POOL the integer
// ops, and the general ops on 32-bit integers, compute exactly and wrap (the native
// integer path); every other element goes through FP32 (SPEC §3.8.1, §3.9 item 2). The
// clauses, the faults and the element loop are tensor_tensor.h's.
#include "ops/explain.h"
#include "ops/op.h"
#include "ops/tensor_tensor.h"

namespace gpsimd::detail {
namespace {

namespace tt = tensor_tensor;

constexpr const InstrDef& kDef = instruction(Opcode::TensorTensorArith);

// SPEC §3.9 item 2: on POOL, every is_valid_int_aluop op takes the native integer path at
// any integer width, and an is_general_arith_op op takes it when its three dtypes are each
// INT32 or UINT32; every other element (every element on DVE) takes the FP32 path.
tt::Datapath arith_datapath(Engine e, const tt::Types& t) {
  if (e != Engine::POOL) return tt::Datapath::Fp32;
  if (alu::is_valid_int_aluop(t.op)) return tt::Datapath::NativeInteger;
  const auto int32 = [](uint8_t code) {
    return code == static_cast<uint8_t>(Dtype::INT32) ||
           code == static_cast<uint8_t>(Dtype::UINT32);
  };
  if (alu::is_general_arith_op(t.op) && int32(t.lo) && int32(t.hi) && int32(t.out))
    return tt::Datapath::NativeInteger;
  return tt::Datapath::Fp32;
}

}  // namespace

void validate_tensor_tensor_arith(const Word& w, Generation g, const ValidateOptions& opts,
                                  DiagSink& d) {
  tt::validate(w, g, *opts.engine, Opcode::TensorTensorArith, d);
}

std::optional<Fault> execute_tensor_tensor_arith(const Word& w, const Machine& m, Writer& out,
                                                 const ExecEnv& env) {
  return tt::execute(w, m, out, env, kDef, arith_datapath(env.engine, tt::types_of(w)));
}

namespace {

void explain_tensor_tensor_arith(const Decoded& d, const Machine& m, Explainer& x) {
  tt::explain(d, m, x, kDef, arith_datapath);
}

Word sample_tensor_tensor_arith(unsigned p) {
  return tt::sample(Opcode::TensorTensorArith, p, Dtype::FP32, AluOp::ADD);
}

}  // namespace

}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kTensorTensorArithOps = {detail::validate_tensor_tensor_arith,
                                                          detail::execute_tensor_tensor_arith,
                                                          detail::explain_tensor_tensor_arith,
                                                          detail::sample_tensor_tensor_arith,
                                                          "TensorTensorArith fp32 add",
                                                          nullptr,
                                                          detail::tt::footprint};
}  // namespace gpsimd
