// Cast (0x47, S4D4_TR): Copy's walk, every element converted from in_dtype to out_dtype
// by SPEC §5.1's cast (equal dtypes copy the bits, every other pair goes through FP32;
// SPEC §4.17). On the ACT engine of V2 every element goes through FP32. Its clauses are
// Copy's without s4d4_tr_same_src_dst_type, its effect Copy's (copy_cast.h, copy.cc).
#include "ops/copy_cast.h"

namespace gpsimd::detail {
namespace {

void validate_cast(const Word& w, Generation g, const ValidateOptions& opts, DiagSink& d) {
  validate_s4d4_tr(w, g, opts, d, true);
}

void explain_cast(const Decoded& d, const Machine& m, Explainer& x) {
  explain_s4d4_tr(d, m, x, true);
}

// FP32 to BF16: NKI's most common tensor_copy (an accumulation down to BF16).
Word sample_cast(unsigned p) {
  return sample_s4d4_tr(Opcode::Cast, p, Dtype::FP32, Dtype::BF16);
}

}  // namespace
}  // namespace gpsimd::detail

namespace gpsimd {
const detail::OpSemantics table::kCastOps = {detail::validate_cast,    detail::execute_s4d4_tr,
                                             detail::explain_cast,     detail::sample_cast,
                                             "Cast fp32->bf16",        nullptr,
                                             detail::footprint_s4d4_tr};
}  // namespace gpsimd
