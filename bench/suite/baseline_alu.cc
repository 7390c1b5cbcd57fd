// The plain-loop baselines of the ALU rows of `gpsimd bench` (suite/harness.h): what a
// C++ programmer writes for TensorTensor's FP32 add, multiply and max, one expression
// per element, vectorised by the compiler at -O3 for the kernels' SIMD target (this file
// is compiled once per target by foreach_target and dispatched like the kernels). They
// are not exact in SPEC §3.8's sense (NaN results keep x86's patterns, std::max is not
// maxNum); the rows say so and check them against their own scalar expression.
#include <algorithm>

#include "suite/harness.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "suite/baseline_alu.cc"
// The same targets as the kernels: AVX-512, AVX2 and the portable baseline.
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_SSE4)
#endif
// clang-format off
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace gpsimd::bench::HWY_NAMESPACE {

void PlainFp32(PlainAluOp op, const float* a, const float* b, size_t n, float* out) {
  switch (op) {
    case PlainAluOp::Add:
      for (size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
      return;
    case PlainAluOp::Mult:
      for (size_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
      return;
    case PlainAluOp::Max:
      for (size_t i = 0; i < n; ++i) out[i] = std::max(a[i], b[i]);
      return;
  }
}

}  // namespace gpsimd::bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::bench {

HWY_EXPORT(PlainFp32);

void plain_fp32(PlainAluOp op, const float* a, const float* b, size_t n, float* out) {
  HWY_DYNAMIC_DISPATCH(PlainFp32)(op, a, b, n, out);
}

}  // namespace gpsimd::bench
#endif  // HWY_ONCE
