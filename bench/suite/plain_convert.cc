// The plain Highway conversion loops `gpsimd bench` compares Cast with (suite/harness.h):
// each is the loop a C++ programmer writes with Highway's own conversion op
// (DemoteTo, PromoteTo, ConvertTo, NearestInt), compiled once per SIMD target like the
// kernels and dispatched the same way. They do not round as SPEC §5.1 says for every
// input (docs/performance.md says where), so each is checked against the op's own
// rule (plain_convert_expected), not against the model.
#include <cmath>
#include <cstring>

#include "gpsimd/format.h"
#include "suite/harness.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "suite/plain_convert.cc"
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_SSE4)
#endif
// clang-format off
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace gpsimd::bench::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// n elements; the tails element by element with the op's scalar form.
void PlainConvert(PlainOp op, const uint8_t* in, size_t n, uint8_t* out) {
  const hn::ScalableTag<float> df;
  const hn::RebindToSigned<decltype(df)> di;
  const size_t N = hn::Lanes(df);
  size_t i = 0;
  switch (op) {
    case PlainOp::Fp32ToBf16: {  // DemoteTo: Highway 1.0.3 truncates (drops the low half)
      const hn::Rebind<hwy::bfloat16_t, decltype(df)> dbf;
      const float* f = reinterpret_cast<const float*>(in);
      hwy::bfloat16_t* o = reinterpret_cast<hwy::bfloat16_t*>(out);
      for (; i + N <= n; i += N) hn::StoreU(hn::DemoteTo(dbf, hn::LoadU(df, f + i)), dbf, o + i);
      break;
    }
    case PlainOp::Bf16ToFp32: {  // PromoteTo: the bits shifted, NaNs not quieted
      const hn::Rebind<hwy::bfloat16_t, decltype(df)> dbf;
      const hwy::bfloat16_t* h = reinterpret_cast<const hwy::bfloat16_t*>(in);
      float* o = reinterpret_cast<float*>(out);
      for (; i + N <= n; i += N) hn::StoreU(hn::PromoteTo(df, hn::LoadU(dbf, h + i)), df, o + i);
      break;
    }
    case PlainOp::Fp32ToFp16: {  // DemoteTo: F16C (round to nearest even), NaN payloads kept
      const hn::Rebind<hwy::float16_t, decltype(df)> dh;
      const float* f = reinterpret_cast<const float*>(in);
      hwy::float16_t* o = reinterpret_cast<hwy::float16_t*>(out);
      for (; i + N <= n; i += N) hn::StoreU(hn::DemoteTo(dh, hn::LoadU(df, f + i)), dh, o + i);
      break;
    }
    case PlainOp::Int32ToFp32: {  // ConvertTo: cvtdq2ps, round to nearest even
      const int32_t* s = reinterpret_cast<const int32_t*>(in);
      float* o = reinterpret_cast<float*>(out);
      for (; i + N <= n; i += N) hn::StoreU(hn::ConvertTo(df, hn::LoadU(di, s + i)), df, o + i);
      break;
    }
    case PlainOp::Fp32ToInt32: {  // NearestInt: round to nearest even; NaN and overflow
      const float* f = reinterpret_cast<const float*>(in);  // saturate by the sign
      int32_t* o = reinterpret_cast<int32_t*>(out);
      for (; i + N <= n; i += N) hn::StoreU(hn::NearestInt(hn::LoadU(df, f + i)), di, o + i);
      break;
    }
  }
  for (; i < n; ++i) plain_convert_expected(op, in, i, out);
}

}  // namespace gpsimd::bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::bench {

HWY_EXPORT(PlainConvert);

void plain_convert(PlainOp op, const uint8_t* in, size_t n, uint8_t* out) {
  HWY_DYNAMIC_DISPATCH(PlainConvert)(op, in, n, out);
}

// The rule of each op, element by element: what the vector loop must produce.
void plain_convert_expected(PlainOp op, const uint8_t* in, size_t i, uint8_t* out) {
  uint32_t x = 0;
  switch (op) {
    case PlainOp::Fp32ToBf16: {
      std::memcpy(&x, in + 4 * i, 4);
      const auto h = static_cast<uint16_t>(x >> 16);
      std::memcpy(out + 2 * i, &h, 2);
      return;
    }
    case PlainOp::Bf16ToFp32: {
      std::memcpy(&x, in + 2 * i, 2);
      const uint32_t f = x << 16;
      std::memcpy(out + 4 * i, &f, 4);
      return;
    }
    case PlainOp::Fp32ToFp16: {
      std::memcpy(&x, in + 4 * i, 4);
      // Round to nearest even as SPEC §5 does; a NaN as F16C keeps it: quieted, the
      // payload's top bits kept.
      const bool nan = (x & 0x7fffffffu) > 0x7f800000u;
      const auto h =
          static_cast<uint16_t>(nan ? ((x >> 16) & 0x8000u) | 0x7e00u | ((x >> 13) & 0x3ffu)
                                    : narrow_from_fp32(Dtype::FP16, x));
      std::memcpy(out + 2 * i, &h, 2);
      return;
    }
    case PlainOp::Int32ToFp32: {
      int32_t v = 0;
      std::memcpy(&v, in + 4 * i, 4);
      const float f = static_cast<float>(v);
      std::memcpy(out + 4 * i, &f, 4);
      return;
    }
    case PlainOp::Fp32ToInt32: {
      float f = 0;
      std::memcpy(&f, in + 4 * i, 4);
      int32_t v;
      if (!(std::fabs(f) < 2147483648.0f))  // NaN and |f| >= 2^31: by the sign bit
        v = std::signbit(f) ? INT32_MIN : INT32_MAX;
      else
        v = static_cast<int32_t>(std::nearbyint(f));
      std::memcpy(out + 4 * i, &v, 4);
      return;
    }
  }
}

}  // namespace gpsimd::bench
#endif  // HWY_ONCE
