// Placeholder semantics of the rows of SPEC §4.18-§4.25 while their op files are written.
// Each family's op file replaces its definitions here; this file goes when the last does.
#include "ops/operands.h"

namespace gpsimd::detail {
namespace {
void validate_nothing(const Word&, Generation, const ValidateOptions&, DiagSink&) {}
std::optional<Fault> execute_nothing(const Word&, const Machine&, const ResolvedOperands&, Writer&,
                                     const ExecEnv&) {
  return Fault{FaultKind::UnsupportedOp, "not written yet"};
}
void explain_nothing(const Decoded&, const Machine&, Explainer&) {}
template <Opcode K>
Word sample_nothing(unsigned) {
  return header_word(K);
}
constexpr OperandDecl kNoOperandList[] = {
    accumulators_of(0, AccessKind::Read),
};
constexpr Operands kNoOperands{kNoOperandList, field_of(table::kMemset, "num_active_channels")};
template <Opcode K>
constexpr OpSemantics placeholder() {
  return {.validate = validate_nothing,
          .execute = execute_nothing,
          .explain = explain_nothing,
          .sample = sample_nothing<K>,
          .sample_label = "placeholder",
          .operands = &kNoOperands};
}
}  // namespace
}  // namespace gpsimd::detail

namespace gpsimd {
// MEMSET_BEGIN
const detail::OpSemantics table::kMemsetOps = detail::placeholder<Opcode::Memset>();
// MEMSET_END
// REDUCE_BEGIN
const detail::OpSemantics table::kTensorReduceArithOps =
    detail::placeholder<Opcode::TensorReduceArith>();
const detail::OpSemantics table::kTensorReduceBitvecOps =
    detail::placeholder<Opcode::TensorReduceBitvec>();
// REDUCE_END
// CP_BEGIN
const detail::OpSemantics table::kCopyPredicatedOps = detail::placeholder<Opcode::CopyPredicated>();
// CP_END
// CUM_BEGIN
const detail::OpSemantics table::kTensorScalarCacheCumulativeOps =
    detail::placeholder<Opcode::TensorScalarCacheCumulative>();
// CUM_END
}  // namespace gpsimd
