// The baselines' key and pair loops of `gpsimd bench` (suite/harness.h), written
// with Highway ops and compiled once per SIMD target by foreach_target, like the kernels,
// so that a baseline builds its keys with the same vector width as the kernels it is
// compared with. They are the bench's own code: nothing here calls into the kernels or
// the model, and the bench checks each baseline's output against the scalar reference.
#include <cstring>

#include "suite/harness.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "suite/baseline_keys.cc"
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
namespace hn = hwy::HWY_NAMESPACE;

// The order of SPEC §4.4 as an unsigned key of the value's bits, one kind per dtype:
// floats map their magnitude up or down from the middle of the range, -0.0 meets +0.0
// there, and every NaN goes to the top; signed integers flip the sign bit.
enum class Kind { Fp32, Fp16, Bf16, Int32, Int16, Unsigned };

template <Kind K>
constexpr uint32_t kSign = K == Kind::Fp32 || K == Kind::Int32 ? 0x80000000u : 0x8000u;
template <Kind K>
constexpr uint32_t kInf = K == Kind::Fp32   ? 0x7f800000u
                          : K == Kind::Fp16 ? 0x7c00u
                                            : 0x7f80u;

template <Kind K, class D, class V>
HWY_INLINE V Key(D d, V b) {
  if constexpr (K == Kind::Unsigned) {
    return b;
  } else if constexpr (K == Kind::Int32 || K == Kind::Int16) {
    return hn::Xor(b, hn::Set(d, kSign<K>));
  } else {
    const V mid = hn::Set(d, kSign<K>);
    const V mag = hn::And(b, hn::Set(d, kSign<K> - 1));
    const V k = hn::IfThenElse(hn::TestBit(b, mid), hn::Sub(mid, mag), hn::Add(mid, mag));
    return hn::IfThenElse(hn::Gt(mag, hn::Set(d, kInf<K>)), hn::Set(d, 2 * kSign<K> - 1), k);
  }
}

template <Kind K>
HWY_INLINE uint32_t ScalarKey(uint32_t b) {
  if constexpr (K == Kind::Unsigned) {
    return b;
  } else if constexpr (K == Kind::Int32 || K == Kind::Int16) {
    return b ^ kSign<K>;
  } else {
    const uint32_t mag = b & (kSign<K> - 1);
    if (mag > kInf<K>) return 2 * kSign<K> - 1;
    return (b & kSign<K>) ? kSign<K> - mag : kSign<K> + mag;
  }
}

// keys[i] = (key(values[i]) ^ flip) << 32 | i.
template <Kind K>
void Pack64(const uint32_t* values, size_t n, bool descending, uint64_t* keys) {
  const hn::ScalableTag<uint64_t> d64;
  const hn::Rebind<uint32_t, decltype(d64)> d32;
  const size_t N = hn::Lanes(d64);
  const auto flip = hn::Set(d32, descending ? ~0u : 0u);
  auto pos = hn::Iota(d64, 0);
  const auto step = hn::Set(d64, N);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto k = hn::Xor(Key<K>(d32, hn::LoadU(d32, values + i)), flip);
    hn::StoreU(hn::Or(hn::ShiftLeft<32>(hn::PromoteTo(d64, k)), pos), d64, keys + i);
    pos = hn::Add(pos, step);
  }
  const uint32_t f = descending ? ~0u : 0u;
  for (; i < n; ++i) keys[i] = uint64_t{ScalarKey<K>(values[i]) ^ f} << 32 | i;
}

// keys[i] = (key(values[i]) ^ flip) << 16 | i, for n <= 65536.
template <Kind K>
void Pack32(const uint16_t* values, size_t n, bool descending, uint32_t* keys) {
  const hn::ScalableTag<uint32_t> d32;
  const hn::Rebind<uint16_t, decltype(d32)> d16;
  const size_t N = hn::Lanes(d32);
  const auto flip = hn::Set(d32, descending ? 0xffffu : 0u);
  auto pos = hn::Iota(d32, 0);
  const auto step = hn::Set(d32, static_cast<uint32_t>(N));
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto k = hn::Xor(Key<K>(d32, hn::PromoteTo(d32, hn::LoadU(d16, values + i))), flip);
    hn::StoreU(hn::Or(hn::ShiftLeft<16>(k), pos), d32, keys + i);
    pos = hn::Add(pos, step);
  }
  const uint32_t f = descending ? 0xffffu : 0u;
  for (; i < n; ++i) keys[i] = (ScalarKey<K>(values[i]) ^ f) << 16 | static_cast<uint32_t>(i);
}

// keys[i] = key(values[i]), for 4- or 2-byte values.
template <Kind K, class T>
void Keys(const T* values, size_t n, uint32_t* keys) {
  const hn::ScalableTag<uint32_t> d32;
  const hn::Rebind<T, decltype(d32)> dt;
  const size_t N = hn::Lanes(d32);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    auto v = hn::LoadU(dt, values + i);
    if constexpr (sizeof(T) == 4)
      hn::StoreU(Key<K>(d32, v), d32, keys + i);
    else
      hn::StoreU(Key<K>(d32, hn::PromoteTo(d32, v)), d32, keys + i);
  }
  for (; i < n; ++i) keys[i] = ScalarKey<K>(values[i]);
}

template <template <Kind> class F, class... Args>
void WithKind(Dtype dt, Args... args) {
  switch (dt) {
    case Dtype::FP32:
      return F<Kind::Fp32>::Run(args...);
    case Dtype::FP16:
      return F<Kind::Fp16>::Run(args...);
    case Dtype::BF16:
      return F<Kind::Bf16>::Run(args...);
    case Dtype::INT32:
      return F<Kind::Int32>::Run(args...);
    case Dtype::INT16:
      return F<Kind::Int16>::Run(args...);
    default:
      return F<Kind::Unsigned>::Run(args...);
  }
}

template <Kind K>
struct Pack64Fn {
  static void Run(const uint32_t* v, size_t n, bool desc, uint64_t* k) { Pack64<K>(v, n, desc, k); }
};
template <Kind K>
struct Pack32Fn {
  static void Run(const uint16_t* v, size_t n, bool desc, uint32_t* k) { Pack32<K>(v, n, desc, k); }
};
template <Kind K>
struct Keys32Fn {
  static void Run(const uint32_t* v, size_t n, uint32_t* k) { Keys<K>(v, n, k); }
};
template <Kind K>
struct Keys16Fn {
  static void Run(const uint16_t* v, size_t n, uint32_t* k) { Keys<K>(v, n, k); }
};

void PackKeys64(Dtype dt, bool descending, const uint32_t* values, size_t n, uint64_t* keys) {
  WithKind<Pack64Fn>(dt, values, n, descending, keys);
}
void PackKeys32(Dtype dt, bool descending, const uint16_t* values, size_t n, uint32_t* keys) {
  WithKind<Pack32Fn>(dt, values, n, descending, keys);
}
void SortKeys32(Dtype dt, const uint32_t* values, size_t n, uint32_t* keys) {
  WithKind<Keys32Fn>(dt, values, n, keys);
}
void SortKeys16(Dtype dt, const uint16_t* values, size_t n, uint32_t* keys) {
  WithKind<Keys16Fn>(dt, values, n, keys);
}

// out[2i] = values[pos], out[2i + 1] = pos, pos = the low 32 bits of keys[i]: a vector
// gather of the values, the pairs built as 64-bit lanes.
void Pairs64(const uint64_t* keys, const uint32_t* values, size_t n, uint32_t* out) {
  const hn::ScalableTag<uint64_t> d64;
  const hn::Rebind<uint32_t, decltype(d64)> d32;
  const hn::Rebind<int32_t, decltype(d64)> di32;
  const size_t N = hn::Lanes(d64);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto pos = hn::TruncateTo(d32, hn::LoadU(d64, keys + i));
    const auto v = hn::GatherIndex(d32, values, hn::BitCast(di32, pos));
    const auto pair = hn::Or(hn::PromoteTo(d64, v), hn::ShiftLeft<32>(hn::PromoteTo(d64, pos)));
    hn::StoreU(pair, d64, reinterpret_cast<uint64_t*>(out) + i);
  }
  for (; i < n; ++i) {
    const auto pos = static_cast<uint32_t>(keys[i]);
    out[2 * i] = values[pos];
    out[2 * i + 1] = pos;
  }
}

void WidenBf16(const uint16_t* in, size_t n, float* out) {
  const hn::ScalableTag<uint32_t> d32;
  const hn::Rebind<uint16_t, decltype(d32)> d16;
  const hn::Rebind<float, decltype(d32)> df;
  const size_t N = hn::Lanes(d32);
  size_t i = 0;
  for (; i + N <= n; i += N)
    hn::StoreU(hn::BitCast(df, hn::ShiftLeft<16>(hn::PromoteTo(d32, hn::LoadU(d16, in + i)))), df,
               out + i);
  for (; i < n; ++i) {
    const uint32_t b = uint32_t{in[i]} << 16;
    std::memcpy(out + i, &b, 4);
  }
}

}  // namespace gpsimd::bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::bench {

HWY_EXPORT(PackKeys64);
HWY_EXPORT(PackKeys32);
HWY_EXPORT(SortKeys32);
HWY_EXPORT(SortKeys16);
HWY_EXPORT(Pairs64);
HWY_EXPORT(WidenBf16);

void pack_keys64(Dtype dt, bool descending, const uint32_t* values, size_t n, uint64_t* keys) {
  HWY_DYNAMIC_DISPATCH(PackKeys64)(dt, descending, values, n, keys);
}
void pack_keys32(Dtype dt, bool descending, const uint16_t* values, size_t n, uint32_t* keys) {
  HWY_DYNAMIC_DISPATCH(PackKeys32)(dt, descending, values, n, keys);
}
void sort_keys(Dtype dt, const uint32_t* values, size_t n, uint32_t* keys) {
  HWY_DYNAMIC_DISPATCH(SortKeys32)(dt, values, n, keys);
}
void sort_keys(Dtype dt, const uint16_t* values, size_t n, uint32_t* keys) {
  HWY_DYNAMIC_DISPATCH(SortKeys16)(dt, values, n, keys);
}
void pairs_from_keys(const uint64_t* keys, const uint32_t* values, size_t n, uint32_t* out) {
  HWY_DYNAMIC_DISPATCH(Pairs64)(keys, values, n, out);
}
void widen_bf16(const uint16_t* in, size_t n, float* out) {
  HWY_DYNAMIC_DISPATCH(WidenBf16)(in, n, out);
}

}  // namespace gpsimd::bench
#endif  // HWY_ONCE
