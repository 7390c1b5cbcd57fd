// The ALU evaluator's vector loops (simd.h). Compiled once per SIMD target by Highway's
// foreach_target and dispatched at run time, like src/kernels/. Every op is an integer or
// IEEE vector formula that gives eval.cc's bits lane by lane; tests/alu_equiv_test.cc
// compares every op, form and width with eval.cc on every compiled target.
//
// The exactness rules, once (SPEC §3.8.2):
// - FP32 arithmetic is the IEEE vector instruction (round to nearest even; Highway never
//   sets flush-to-zero, so subnormals stay), then any NaN result becomes kAluNaN.
// - maxNum / minNum compare sign-magnitude keys as signed integers (-0 < +0), with a
//   NaN's key the loser, so it is picked only when both are NaN (then made canonical).
// - Compares use the ordered IEEE predicates (a NaN gives false); IS_NE is Not(Eq),
//   never the vector "not equal" (ordered there too, so NaN would give false).
// - Shift counts are clamped to w - 1 and a count >= w selects the shifted-out value, so
//   no vector shift ever sees a count it leaves undefined.
// - Native integers keep each operand's signedness as a sign-bit mask: two values of
//   different "negativity" compare by that alone, otherwise by their unsigned bits.
#include "alu/simd.h"

#include <algorithm>
#include <cstring>

#include "alu/eval.h"
#include "gpsimd/alu.h"
#include "gpsimd/model.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "alu/simd.cc"
#include "common/simd_targets.h"  // IWYU pragma: keep

// The ops each datapath's loops implement, by name (each is a case of eval.cc).
// clang-format off
#define GPSIMD_ALU_FP32_OPS(X)                                                              \
  X(BYPASS) X(ADD) X(SUBTRACT) X(MULT) X(SQUARE) X(MAX) X(MIN) X(RE_LU)                     \
  X(IS_EQ) X(IS_GT) X(IS_GE) X(IS_LE) X(IS_LT) X(IS_NE)                                     \
  X(LOGICAL_AND) X(LOGICAL_OR) X(LOGICAL_XOR)                                               \
  X(ABSOLUTE_DIFF) X(ABSOLUTE_VALUE) X(ABS_MAX) X(ABS_MIN)
#define GPSIMD_ALU_BITS_OPS(X)                                                              \
  X(BYPASS) X(BITWISE_NOT) X(BITWISE_AND) X(BITWISE_OR) X(BITWISE_XOR)                      \
  X(ARITH_SHIFT_LEFT) X(LOGICAL_SHIFT_LEFT) X(LOGICAL_SHIFT_RIGHT) X(ARITH_SHIFT_RIGHT)
// clang-format on

HWY_BEFORE_NAMESPACE();
namespace gpsimd::alu::simd::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DU32 = hn::ScalableTag<uint32_t>;
using VU32 = hn::Vec<DU32>;

constexpr uint8_t code(AluOp op) {
  return static_cast<uint8_t>(op);
}

// ---- operands, results and the loop -------------------------------------------------

// The tail of a run goes through a zero-padded vector-sized buffer, so that the vector
// code is the only code.
constexpr size_t kBufBytes = 64;

// An operand read from memory.
template <class D>
struct Mem {
  const uint8_t* p;
  using T = hn::TFromD<D>;
  HWY_INLINE hn::Vec<D> At(D d, size_t i) const {
    return hn::LoadU(d, reinterpret_cast<const T*>(p) + i);
  }
  HWY_INLINE hn::Vec<D> Tail(D d, size_t i, size_t cnt) const {
    HWY_ALIGN uint8_t buf[kBufBytes] = {};
    std::memcpy(buf, p + i * sizeof(T), cnt * sizeof(T));
    return hn::Load(d, reinterpret_cast<const T*>(buf));
  }
};
// An operand that is one scalar for every element.
template <class D>
struct Splat {
  hn::Vec<D> v;
  HWY_INLINE hn::Vec<D> At(D /*d*/, size_t) const { return v; }
  HWY_INLINE hn::Vec<D> Tail(D /*d*/, size_t, size_t) const { return v; }
};

// out[i] = op(d, a[i], b[i]) for n elements of TFromD<D>.
template <class D, class A, class B, class Op>
HWY_INLINE void Run(D d, const A& a, const B& b, size_t n, uint8_t* out, const Op& op) {
  using T = hn::TFromD<D>;
  T* o = reinterpret_cast<T*>(out);
  const size_t N = hn::Lanes(d);
  size_t i = 0;
#if HWY_TARGET == HWY_AVX2
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto r0 = op(d, a.At(d, i), b.At(d, i));
    const auto r1 = op(d, a.At(d, i + N), b.At(d, i + N));
    hn::StoreU(r0, d, o + i);
    hn::StoreU(r1, d, o + i + N);
  }
#endif
  for (; i + N <= n; i += N) hn::StoreU(op(d, a.At(d, i), b.At(d, i)), d, o + i);
  if (i == n) return;
  HWY_ALIGN uint8_t buf[kBufBytes];
  hn::Store(op(d, a.Tail(d, i, n - i), b.Tail(d, i, n - i)), d, reinterpret_cast<T*>(buf));
  std::memcpy(out + i * sizeof(T), buf, (n - i) * sizeof(T));
}

// The three forms of a binary op: two runs, a run and a scalar (x op s), a scalar and a
// run (s op x).
template <class D, class Op>
HWY_INLINE void RunForm(D d, const Op& op, const uint8_t* a, const uint8_t* b, size_t n,
                        uint8_t* out) {
  Run(d, Mem<D>{a}, Mem<D>{b}, n, out, op);
}
template <class D, class Op>
HWY_INLINE void RunScalar(D d, const Op& op, const uint8_t* x, hn::TFromD<D> s, bool reverse,
                          size_t n, uint8_t* out) {
  if (reverse)
    Run(d, Splat<D>{hn::Set(d, s)}, Mem<D>{x}, n, out, op);
  else
    Run(d, Mem<D>{x}, Splat<D>{hn::Set(d, s)}, n, out, op);
}

// ---- the FP32 path ------------------------------------------------------------------

HWY_INLINE VU32 Canonical(DU32 d, VU32 r) {
  const hn::RebindToFloat<DU32> df;
  return hn::IfThenElse(hn::RebindMask(d, hn::IsNaN(hn::BitCast(df, r))),
                        hn::Set(d, model::kAluNaN), r);
}
HWY_INLINE VU32 Truth(DU32 d, hn::Mask<DU32> m) {
  return hn::IfThenElseZero(m, hn::Set(d, 0x3f800000u));
}
// maxNum (kMax) / minNum, the NaN result made canonical when kCanonical: the IEEE compare
// picks b when it wins; equal operands (only ±0 differ in bits) give the AND (max: +0
// wins) or the OR (min: -0 wins) of their patterns; a NaN a gives b, and a NaN b loses
// every compare, so a stays. Two NaNs give b, a NaN.
template <bool kMax, bool kCanonical>
HWY_INLINE VU32 MaxMinNum(DU32 d, VU32 a, VU32 b) {
  const hn::RebindToFloat<DU32> df;
  const auto fa = hn::BitCast(df, a), fb = hn::BitCast(df, b);
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
  // x86's vmaxps / vminps (Highway's Max / Min there) are exactly "b if b > a (< a),
  // else a" when b is the first operand: the ordered compare and the pick in one. Where
  // no lane has a NaN or a tie (Highway's Ne is the ordered vcmpneq_oqps there), that is
  // the answer; a vector with one goes through the fix-ups.
  VU32 r = hn::BitCast(d, kMax ? hn::Max(fb, fa) : hn::Min(fb, fa));
  if (HWY_LIKELY(hn::AllTrue(df, hn::Ne(fa, fb)))) return r;
#else
  const auto b_wins = kMax ? hn::Gt(fb, fa) : hn::Lt(fb, fa);
  VU32 r = hn::IfThenElse(hn::RebindMask(d, b_wins), b, a);
#endif
  r = hn::IfThenElse(hn::RebindMask(d, hn::Eq(fa, fb)), kMax ? hn::And(a, b) : hn::Or(a, b), r);
  r = hn::IfThenElse(hn::RebindMask(d, hn::IsNaN(fa)), b, r);
  return kCanonical ? Canonical(d, r) : r;
}

template <uint8_t kOp>
struct Fp32Op {
  HWY_INLINE VU32 operator()(DU32 d, VU32 a, VU32 b) const {
    const hn::RebindToFloat<DU32> df;
    const hn::RebindToSigned<DU32> di;
    const auto fa = hn::BitCast(df, a);
    const auto fb = hn::BitCast(df, b);
    const VU32 magnitude = hn::Set(d, 0x7fffffffu);
    if constexpr (kOp == code(AluOp::BYPASS)) {
      return a;
    } else if constexpr (kOp == code(AluOp::ADD)) {
      return Canonical(d, hn::BitCast(d, hn::Add(fa, fb)));
    } else if constexpr (kOp == code(AluOp::SUBTRACT)) {
      return Canonical(d, hn::BitCast(d, hn::Sub(fa, fb)));
    } else if constexpr (kOp == code(AluOp::MULT)) {
      return Canonical(d, hn::BitCast(d, hn::Mul(fa, fb)));
    } else if constexpr (kOp == code(AluOp::SQUARE)) {
      return Canonical(d, hn::BitCast(d, hn::Mul(fa, fa)));
    } else if constexpr (kOp == code(AluOp::MAX)) {
      return MaxMinNum<true, true>(d, a, b);
    } else if constexpr (kOp == code(AluOp::MIN)) {
      return MaxMinNum<false, true>(d, a, b);
    } else if constexpr (kOp == code(AluOp::RE_LU)) {
      // MAX(a, +0.0): a when 0 < bits <= +inf as a signed integer (positive, not NaN).
      const auto x = hn::BitCast(di, a);
      const auto keep =
          hn::And(hn::Gt(x, hn::Zero(di)), hn::Lt(x, hn::Set(di, int32_t{0x7f800001})));
      return hn::IfThenElseZero(hn::RebindMask(d, keep), a);
    } else if constexpr (kOp == code(AluOp::IS_EQ)) {
      return Truth(d, hn::RebindMask(d, hn::Eq(fa, fb)));
    } else if constexpr (kOp == code(AluOp::IS_GT)) {
      return Truth(d, hn::RebindMask(d, hn::Gt(fa, fb)));
    } else if constexpr (kOp == code(AluOp::IS_GE)) {
      return Truth(d, hn::RebindMask(d, hn::Ge(fa, fb)));
    } else if constexpr (kOp == code(AluOp::IS_LE)) {
      return Truth(d, hn::RebindMask(d, hn::Le(fa, fb)));
    } else if constexpr (kOp == code(AluOp::IS_LT)) {
      return Truth(d, hn::RebindMask(d, hn::Lt(fa, fb)));
    } else if constexpr (kOp == code(AluOp::IS_NE)) {
      return Truth(d, hn::Not(hn::RebindMask(d, hn::Eq(fa, fb))));
    } else if constexpr (kOp == code(AluOp::LOGICAL_AND) || kOp == code(AluOp::LOGICAL_OR) ||
                         kOp == code(AluOp::LOGICAL_XOR)) {
      // t(x) = x != 0.0: any bit but the sign set (a NaN is true).
      const auto ta = hn::Ne(hn::And(a, magnitude), hn::Zero(d));
      const auto tb = hn::Ne(hn::And(b, magnitude), hn::Zero(d));
      if constexpr (kOp == code(AluOp::LOGICAL_AND)) return Truth(d, hn::And(ta, tb));
      if constexpr (kOp == code(AluOp::LOGICAL_OR)) return Truth(d, hn::Or(ta, tb));
      return Truth(d, hn::Xor(ta, tb));
    } else if constexpr (kOp == code(AluOp::ABSOLUTE_DIFF)) {
      return Canonical(d, hn::And(hn::BitCast(d, hn::Sub(fa, fb)), magnitude));
    } else if constexpr (kOp == code(AluOp::ABSOLUTE_VALUE)) {
      return Canonical(d, hn::And(a, magnitude));
    } else if constexpr (kOp == code(AluOp::ABS_MAX)) {
      // a if |a| > |b| (ordered: a NaN gives false), else b.
      const auto pick_a = hn::Gt(hn::Abs(fa), hn::Abs(fb));
      return Canonical(d, hn::IfThenElse(hn::RebindMask(d, pick_a), a, b));
    } else {
      static_assert(kOp == code(AluOp::ABS_MIN));
      const auto pick_a = hn::Lt(hn::Abs(fa), hn::Abs(fb));
      return Canonical(d, hn::IfThenElse(hn::RebindMask(d, pick_a), a, b));
    }
  }
};

// Calls Form::Go(Fp32Op<op>{}, args...); false for an op outside the FP32 path.
template <class Form, class... Args>
HWY_INLINE bool WithFp32Op(uint8_t op, Args... args) {
  switch (static_cast<AluOp>(op)) {
#define GPSIMD_CASE(name)                           \
  case AluOp::name:                                 \
    Form::Go(Fp32Op<code(AluOp::name)>{}, args...); \
    return true;
    GPSIMD_ALU_FP32_OPS(GPSIMD_CASE)
#undef GPSIMD_CASE
    default:
      return false;
  }
}

struct BinaryForm {
  template <class Op>
  static void Go(const Op& op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out) {
    RunForm(DU32(), op, a, b, n, out);
  }
};
struct ScalarForm {
  template <class Op>
  static void Go(const Op& op, const uint8_t* x, uint32_t s, bool reverse, size_t n, uint8_t* out) {
    RunScalar(DU32(), op, x, s, reverse, n, out);
  }
};

bool Fp32Binary(uint8_t op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out) {
  if (!fp32_path_has(op)) return false;
  return WithFp32Op<BinaryForm>(op, a, b, n, out);
}
bool Fp32Scalar(uint8_t op, const uint8_t* x, uint32_t s, bool reverse, size_t n, uint8_t* out) {
  if (!fp32_path_has(op)) return false;
  return WithFp32Op<ScalarForm>(op, x, s, reverse, n, out);
}

// TensorScalar's two ops, a piece at a time: op0 from x into out, then op1 on out in
// place while the piece is still in L1. BYPASS is the data side: no pass at all.
constexpr size_t kPiece = 2048;  // bytes per pass

template <class One>
HWY_INLINE void TwoOps(ScalarOp op0, ScalarOp op1, size_t esize, const uint8_t* x, size_t n,
                       uint8_t* out, One one) {
  const bool by0 = op0.op == code(AluOp::BYPASS), by1 = op1.op == code(AluOp::BYPASS);
  if (by0 && by1) {
    if (out != x) std::memmove(out, x, n * esize);
    return;
  }
  if (by0 || by1) return one(by0 ? op1 : op0, x, n, out);
  const size_t piece = kPiece / esize;
  for (size_t i = 0; i < n; i += piece) {
    const size_t m = std::min(piece, n - i);
    one(op0, x + i * esize, m, out + i * esize);
    one(op1, out + i * esize, m, out + i * esize);
  }
}

// The pairs of the common ops run in one pass, in registers. Only whether op0's result
// is a NaN matters to op1 here (ADD, SUBTRACT and MULT turn any NaN into the canonical
// one, MAX and MIN ignore it), so op0's result is not made canonical first. ADD, MULT,
// MAX and MIN are commutative to the bit (their NaN results are canonical, maxNum's ties
// have equal bits), so their reverse flag changes nothing; SUBTRACT's gives RSub.
enum class Fuse : uint8_t { Add, Sub, RSub, Mul, Max, Min, None };
constexpr Fuse fuse_of(ScalarOp o) {
  switch (static_cast<AluOp>(o.op)) {
    case AluOp::ADD:
      return Fuse::Add;
    case AluOp::SUBTRACT:
      return o.reverse ? Fuse::RSub : Fuse::Sub;
    case AluOp::MULT:
      return Fuse::Mul;
    case AluOp::MAX:
      return Fuse::Max;
    case AluOp::MIN:
      return Fuse::Min;
    default:
      return Fuse::None;
  }
}
// x op s (s op x for RSub), NaN results not yet canonical.
template <Fuse kOp>
HWY_INLINE VU32 FuseRaw(DU32 d, VU32 x, VU32 s) {
  const hn::RebindToFloat<DU32> df;
  const auto fx = hn::BitCast(df, x), fs = hn::BitCast(df, s);
  if constexpr (kOp == Fuse::Add) return hn::BitCast(d, hn::Add(fx, fs));
  if constexpr (kOp == Fuse::Sub) return hn::BitCast(d, hn::Sub(fx, fs));
  if constexpr (kOp == Fuse::RSub) return hn::BitCast(d, hn::Sub(fs, fx));
  if constexpr (kOp == Fuse::Mul) return hn::BitCast(d, hn::Mul(fx, fs));
  if constexpr (kOp == Fuse::Max) return MaxMinNum<true, false>(d, x, s);
  if constexpr (kOp == Fuse::Min) return MaxMinNum<false, false>(d, x, s);
  return x;
}
// The library is compiled with -ffp-contract=off, so a MULT then ADD stays two roundings.
template <Fuse k0, Fuse k1>
struct FusedPair {
  VU32 s1;
  HWY_INLINE VU32 operator()(DU32 d, VU32 x, VU32 s0) const {
    return Canonical(d, FuseRaw<k1>(d, FuseRaw<k0>(d, x, s0), s1));
  }
};

#define GPSIMD_FUSE_CASES(M) M(Add) M(Sub) M(RSub) M(Mul) M(Max) M(Min)
template <Fuse k0>
HWY_INLINE void FusedSecond(Fuse k1, const uint8_t* x, uint32_t s0, uint32_t s1, size_t n,
                            uint8_t* out) {
  const DU32 d;
  switch (k1) {
#define GPSIMD_CASE(name)                                            \
  case Fuse::name:                                                   \
    return Run(d, Mem<DU32>{x}, Splat<DU32>{hn::Set(d, s0)}, n, out, \
               FusedPair<k0, Fuse::name>{hn::Set(d, s1)});
    GPSIMD_FUSE_CASES(GPSIMD_CASE)
#undef GPSIMD_CASE
    default:
      return;
  }
}
void Fused(Fuse k0, Fuse k1, const uint8_t* x, uint32_t s0, uint32_t s1, size_t n, uint8_t* out) {
  switch (k0) {
#define GPSIMD_CASE(name) \
  case Fuse::name:        \
    return FusedSecond<Fuse::name>(k1, x, s0, s1, n, out);
    GPSIMD_FUSE_CASES(GPSIMD_CASE)
#undef GPSIMD_CASE
    default:
      return;
  }
}
#undef GPSIMD_FUSE_CASES

bool Fp32Scalar2(ScalarOp op0, ScalarOp op1, const uint8_t* x, size_t n, uint8_t* out) {
  if (!fp32_path_has(op0.op) || !fp32_path_has(op1.op)) return false;
  const Fuse k0 = fuse_of(op0), k1 = fuse_of(op1);
  if (k0 != Fuse::None && k1 != Fuse::None) {
    Fused(k0, k1, x, op0.s, op1.s, n, out);
    return true;
  }
  TwoOps(op0, op1, 4, x, n, out, [](ScalarOp o, const uint8_t* in, size_t m, uint8_t* to) {
    Fp32Scalar(o.op, in, o.s, o.reverse, m, to);
  });
  return true;
}

// ---- the native integer path --------------------------------------------------------

// The native ops after aliasing (ADD and ADD_INT are one computation, ...).
enum class Native : uint8_t {
  Bypass,
  Add,
  Sub,
  Mul,
  Square,
  Max,
  Min,
  Relu,
  Eq,
  Ne,
  Gt,
  Ge,
  Le,
  Lt,
  LogicalAnd,
  LogicalOr,
  LogicalXor,
  AbsDiff,
  Abs,
  AbsMax,
  AbsMin,
  None
};
constexpr Native native_of(uint8_t op) {
  switch (static_cast<AluOp>(op)) {
    case AluOp::BYPASS:
      return Native::Bypass;
    case AluOp::ADD:
    case AluOp::ADD_INT:
      return Native::Add;
    case AluOp::SUBTRACT:
    case AluOp::SUBTRACT_INT:
      return Native::Sub;
    case AluOp::MULT:
    case AluOp::MULT_INT:
    case AluOp::MULT_UINT:
      return Native::Mul;
    case AluOp::SQUARE:
      return Native::Square;
    case AluOp::MAX:
    case AluOp::MAX_INT:
    case AluOp::MAX_UINT:
      return Native::Max;
    case AluOp::MIN:
    case AluOp::MIN_INT:
    case AluOp::MIN_UINT:
      return Native::Min;
    case AluOp::RE_LU:
      return Native::Relu;
    case AluOp::IS_EQ:
    case AluOp::IS_EQUAL_INT:
      return Native::Eq;
    case AluOp::IS_NE:
    case AluOp::IS_NE_INT:
      return Native::Ne;
    case AluOp::IS_GT:
    case AluOp::IS_GT_INT:
    case AluOp::IS_GT_UINT:
      return Native::Gt;
    case AluOp::IS_GE:
    case AluOp::IS_GE_INT:
    case AluOp::IS_GE_UINT:
      return Native::Ge;
    case AluOp::IS_LE:
    case AluOp::IS_LE_INT:
    case AluOp::IS_LE_UINT:
      return Native::Le;
    case AluOp::IS_LT:
    case AluOp::IS_LT_INT:
    case AluOp::IS_LT_UINT:
      return Native::Lt;
    case AluOp::LOGICAL_AND:
      return Native::LogicalAnd;
    case AluOp::LOGICAL_OR:
      return Native::LogicalOr;
    case AluOp::LOGICAL_XOR:
      return Native::LogicalXor;
    case AluOp::ABSOLUTE_DIFF:
    case AluOp::ABS_DIFF_INT:
      return Native::AbsDiff;
    case AluOp::ABSOLUTE_VALUE:
      return Native::Abs;
    case AluOp::ABS_MAX:
    case AluOp::ABS_MAX_INT:
      return Native::AbsMax;
    case AluOp::ABS_MIN:
    case AluOp::ABS_MIN_INT:
      return Native::AbsMin;
    default:
      return Native::None;
  }
}

// An op on 32-bit operands whose signedness is a sign-bit mask (0x80000000 for INT32, 0
// for UINT32). A value is negative when its masked sign bit is set.
// v is a negative value: its sign bit is set and `sign` (0x80000000 or 0) says it counts.
// (Not hn::TestBit, which is true for a zero `sign`.)
HWY_INLINE hn::Mask<DU32> Negative(VU32 v, VU32 sign) {
  return hn::Ne(hn::And(v, sign), hn::Zero(DU32()));
}

template <Native kOp>
struct NativeOp {
  VU32 sa, sb;

  // The exact a > b: a negative and a non-negative value compare by that; two negative
  // ones (both INT32) or two non-negative ones (whose bits are their values) compare as
  // unsigned bits.
  HWY_INLINE hn::Mask<DU32> Greater(VU32 a, VU32 na_bit, VU32 b, VU32 nb_bit) const {
    const auto na = Negative(a, na_bit), nb = Negative(b, nb_bit);
    const auto differ = hn::Xor(na, nb);
    return hn::Or(hn::AndNot(differ, hn::Gt(a, b)), hn::And(differ, nb));
  }
  // |v| as an unsigned 32-bit value (exact: |INT32_MIN| is 0x80000000).
  HWY_INLINE VU32 Magnitude(DU32 d, VU32 v, VU32 sign) const {
    return hn::IfThenElse(Negative(v, sign), hn::Sub(hn::Zero(d), v), v);
  }

  HWY_INLINE VU32 operator()(DU32 d, VU32 a, VU32 b) const {
    const VU32 one = hn::Set(d, 1u);
    if constexpr (kOp == Native::Bypass) {
      return a;
    } else if constexpr (kOp == Native::Add) {
      return hn::Add(a, b);
    } else if constexpr (kOp == Native::Sub) {
      return hn::Sub(a, b);
    } else if constexpr (kOp == Native::Mul) {
      return hn::Mul(a, b);
    } else if constexpr (kOp == Native::Square) {
      return hn::Mul(a, a);
    } else if constexpr (kOp == Native::Max) {
      return hn::IfThenElse(Greater(a, sa, b, sb), a, b);
    } else if constexpr (kOp == Native::Min) {
      return hn::IfThenElse(Greater(b, sb, a, sa), a, b);
    } else if constexpr (kOp == Native::Relu) {
      return hn::IfThenZeroElse(Negative(a, sa), a);
    } else if constexpr (kOp == Native::Eq || kOp == Native::Ne) {
      const auto same = hn::AndNot(hn::Xor(Negative(a, sa), Negative(b, sb)), hn::Eq(a, b));
      return hn::IfThenElseZero(kOp == Native::Eq ? same : hn::Not(same), one);
    } else if constexpr (kOp == Native::Gt) {
      return hn::IfThenElseZero(Greater(a, sa, b, sb), one);
    } else if constexpr (kOp == Native::Ge) {
      return hn::IfThenZeroElse(Greater(b, sb, a, sa), one);
    } else if constexpr (kOp == Native::Le) {
      return hn::IfThenZeroElse(Greater(a, sa, b, sb), one);
    } else if constexpr (kOp == Native::Lt) {
      return hn::IfThenElseZero(Greater(b, sb, a, sa), one);
    } else if constexpr (kOp == Native::LogicalAnd || kOp == Native::LogicalOr ||
                         kOp == Native::LogicalXor) {
      const auto ta = hn::Ne(a, hn::Zero(d)), tb = hn::Ne(b, hn::Zero(d));
      if constexpr (kOp == Native::LogicalAnd) return hn::IfThenElseZero(hn::And(ta, tb), one);
      if constexpr (kOp == Native::LogicalOr) return hn::IfThenElseZero(hn::Or(ta, tb), one);
      return hn::IfThenElseZero(hn::Xor(ta, tb), one);
    } else if constexpr (kOp == Native::AbsDiff) {
      // |a - b| modulo 2^32: a - b when a >= b, else b - a.
      return hn::IfThenElse(Greater(b, sb, a, sa), hn::Sub(b, a), hn::Sub(a, b));
    } else if constexpr (kOp == Native::Abs) {
      return Magnitude(d, a, sa);
    } else if constexpr (kOp == Native::AbsMax) {
      return hn::IfThenElse(hn::Gt(Magnitude(d, a, sa), Magnitude(d, b, sb)), a, b);
    } else {
      static_assert(kOp == Native::AbsMin);
      return hn::IfThenElse(hn::Lt(Magnitude(d, a, sa), Magnitude(d, b, sb)), a, b);
    }
  }
};

template <class Form, class... Args>
HWY_INLINE bool WithNativeOp(uint8_t op, VU32 sa, VU32 sb, Args... args) {
  switch (native_of(op)) {
#define GPSIMD_CASE(name)                              \
  case Native::name:                                   \
    Form::Go(NativeOp<Native::name>{sa, sb}, args...); \
    return true;
    GPSIMD_CASE(Bypass)
    GPSIMD_CASE(Add)
    GPSIMD_CASE(Sub)
    GPSIMD_CASE(Mul)
    GPSIMD_CASE(Square)
    GPSIMD_CASE(Max)
    GPSIMD_CASE(Min)
    GPSIMD_CASE(Relu)
    GPSIMD_CASE(Eq)
    GPSIMD_CASE(Ne)
    GPSIMD_CASE(Gt)
    GPSIMD_CASE(Ge)
    GPSIMD_CASE(Le)
    GPSIMD_CASE(Lt)
    GPSIMD_CASE(LogicalAnd)
    GPSIMD_CASE(LogicalOr)
    GPSIMD_CASE(LogicalXor)
    GPSIMD_CASE(AbsDiff)
    GPSIMD_CASE(Abs)
    GPSIMD_CASE(AbsMax)
    GPSIMD_CASE(AbsMin)
#undef GPSIMD_CASE
    default:
      return false;
  }
}

// The sign-bit mask of a 32-bit integer operand dtype, or nullopt-like 1 for any other.
constexpr uint32_t kNotNative = 1;
constexpr uint32_t sign_mask(Dtype dt) {
  return dt == Dtype::INT32 ? 0x80000000u : dt == Dtype::UINT32 ? 0u : kNotNative;
}
constexpr unsigned out_bytes(Dtype dt) {
  switch (dt) {
    case Dtype::INT8:
    case Dtype::UINT8:
      return 1;
    case Dtype::INT16:
    case Dtype::UINT16:
      return 2;
    case Dtype::INT32:
    case Dtype::UINT32:
      return 4;
    default:
      return 0;
  }
}

// Keeps the low `bytes` bytes of n 32-bit results (wrap).
void Narrow(const uint32_t* in, size_t n, unsigned bytes, uint8_t* out) {
  const DU32 d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  if (bytes == 2) {
    const hn::Rebind<uint16_t, DU32> d16;
    uint16_t* o = reinterpret_cast<uint16_t*>(out);
    for (; i + N <= n; i += N) hn::StoreU(hn::TruncateTo(d16, hn::LoadU(d, in + i)), d16, o + i);
  } else {
    const hn::Rebind<uint8_t, DU32> d8;
    for (; i + N <= n; i += N) hn::StoreU(hn::TruncateTo(d8, hn::LoadU(d, in + i)), d8, out + i);
  }
  for (; i < n; ++i) {
    const uint16_t low = static_cast<uint16_t>(in[i]);
    if (bytes == 2)
      std::memcpy(out + 2 * i, &low, 2);
    else
      out[i] = static_cast<uint8_t>(low);
  }
}

// Runs `one(out32, m)` writing m 32-bit results, straight into out when out_dt is 32
// bits wide, else a piece at a time through a buffer that is then narrowed.
template <class One>
HWY_INLINE void NativeOut(size_t n, unsigned bytes, uint8_t* out, One one) {
  if (bytes == 4) return one(size_t{0}, n, out);
  HWY_ALIGN uint32_t buf[kPiece / 4];
  for (size_t i = 0; i < n; i += kPiece / 4) {
    const size_t m = std::min(kPiece / 4, n - i);
    one(i, m, reinterpret_cast<uint8_t*>(buf));
    Narrow(buf, m, bytes, out + i * bytes);
  }
}

bool NativeBinary(uint8_t op, Dtype a_dt, const uint8_t* a, Dtype b_dt, const uint8_t* b, size_t n,
                  Dtype out_dt, uint8_t* out) {
  const uint32_t ma = sign_mask(a_dt), mb = sign_mask(b_dt);
  const unsigned bytes = out_bytes(out_dt);
  if (!native_path_has(op) || ma == kNotNative || mb == kNotNative || bytes == 0) return false;
  const DU32 d;
  NativeOut(n, bytes, out, [&](size_t i, size_t m, uint8_t* to) {
    WithNativeOp<BinaryForm>(op, hn::Set(d, ma), hn::Set(d, mb), a + 4 * i, b + 4 * i, m, to);
  });
  return true;
}

bool NativeScalar(uint8_t op, Dtype x_dt, const uint8_t* x, Dtype s_dt, uint32_t s, bool reverse,
                  size_t n, Dtype out_dt, uint8_t* out) {
  const uint32_t mx = sign_mask(x_dt), ms = sign_mask(s_dt);
  const unsigned bytes = out_bytes(out_dt);
  if (!native_path_has(op) || mx == kNotNative || ms == kNotNative || bytes == 0) return false;
  const DU32 d;
  // The left operand's mask first: the scalar's when reversed.
  const VU32 sa = hn::Set(d, reverse ? ms : mx), sb = hn::Set(d, reverse ? mx : ms);
  NativeOut(n, bytes, out, [&](size_t i, size_t m, uint8_t* to) {
    WithNativeOp<ScalarForm>(op, sa, sb, x + 4 * i, s, reverse, m, to);
  });
  return true;
}

// ---- the raw-bits path --------------------------------------------------------------

// Variable shifts of 8-bit lanes (Highway has none): each 16-bit lane shifts its low and
// its high byte separately. Counts are below 8.
template <uint8_t kOp, class D8>
HWY_INLINE hn::Vec<D8> Shift8(D8 d8, hn::Vec<D8> a, hn::Vec<D8> k) {
  const hn::Repartition<uint16_t, D8> d16;
  const hn::RebindToSigned<decltype(d16)> di16;
  const auto a16 = hn::BitCast(d16, a), k16 = hn::BitCast(d16, k);
  const auto lo = hn::Set(d16, uint16_t{0x00ff}), hi = hn::Set(d16, uint16_t{0xff00});
  const auto klo = hn::And(k16, lo), khi = hn::ShiftRight<8>(k16);
  hn::Vec<decltype(d16)> rlo, rhi;
  if constexpr (kOp == code(AluOp::LOGICAL_SHIFT_RIGHT)) {
    rlo = hn::Shr(hn::And(a16, lo), klo);
    rhi = hn::And(hn::Shr(a16, khi), hi);
  } else if constexpr (kOp == code(AluOp::ARITH_SHIFT_RIGHT)) {
    // The low byte moves up to take the sign bit, shifts, and comes back down.
    rlo = hn::ShiftRight<8>(hn::BitCast(
        d16, hn::Shr(hn::BitCast(di16, hn::ShiftLeft<8>(a16)), hn::BitCast(di16, klo))));
    rhi = hn::And(hn::BitCast(d16, hn::Shr(hn::BitCast(di16, a16), hn::BitCast(di16, khi))), hi);
  } else {  // left shifts
    rlo = hn::And(hn::Shl(hn::And(a16, lo), klo), lo);
    rhi = hn::And(hn::Shl(hn::And(a16, hi), khi), hi);
  }
  return hn::BitCast(d8, hn::Or(rlo, rhi));
}

// a shifted by a vector of counts k < w.
template <uint8_t kOp, class D>
HWY_INLINE hn::Vec<D> ShiftBy(D d, hn::Vec<D> a, hn::Vec<D> k) {
  // 8-bit lanes have variable shifts on the scalar and emulated targets only.
  constexpr bool kBytePairs =
      sizeof(hn::TFromD<D>) == 1 && HWY_TARGET != HWY_SCALAR && HWY_TARGET != HWY_EMU128;
  if constexpr (kBytePairs) {
    return Shift8<kOp>(d, a, k);
  } else if constexpr (kOp == code(AluOp::ARITH_SHIFT_RIGHT)) {
    const hn::RebindToSigned<D> di;
    return hn::BitCast(d, hn::Shr(hn::BitCast(di, a), hn::BitCast(di, k)));
  } else if constexpr (kOp == code(AluOp::LOGICAL_SHIFT_RIGHT)) {
    return hn::Shr(a, k);
  } else {
    return hn::Shl(a, k);
  }
}

template <uint8_t kOp>
struct BitsOp {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> a, hn::Vec<D> b) const {
    using T = hn::TFromD<D>;
    if constexpr (kOp == code(AluOp::BYPASS)) {
      return a;
    } else if constexpr (kOp == code(AluOp::BITWISE_NOT)) {
      return hn::Not(a);
    } else if constexpr (kOp == code(AluOp::BITWISE_AND)) {
      return hn::And(a, b);
    } else if constexpr (kOp == code(AluOp::BITWISE_OR)) {
      return hn::Or(a, b);
    } else if constexpr (kOp == code(AluOp::BITWISE_XOR)) {
      return hn::Xor(a, b);
    } else {
#if HWY_TARGET == HWY_AVX2 || HWY_TARGET == HWY_AVX3
      // x86's variable shifts of 32-bit lanes (vpsllvd, vpsrlvd, vpsravd) and, with
      // AVX-512, of 16-bit lanes read the count as unsigned and define counts >= w as
      // SPEC does: every bit out, w copies of the sign bit for the arithmetic one.
      constexpr bool kX86Counts = sizeof(T) == 4 || (sizeof(T) == 2 && HWY_TARGET == HWY_AVX3);
#else
      constexpr bool kX86Counts = false;
#endif
      if constexpr (kX86Counts) return ShiftBy<kOp>(d, a, b);
      // A count k >= w shifts every bit out; w - 1 is the last count that keeps any, and
      // for ARITH_SHIFT_RIGHT it already gives w copies of the sign bit.
      const auto last = hn::Set(d, static_cast<T>(8 * sizeof(T) - 1));
      const auto shifted = ShiftBy<kOp>(d, a, hn::Min(b, last));
      if constexpr (kOp == code(AluOp::ARITH_SHIFT_RIGHT)) return shifted;
      return hn::IfThenZeroElse(hn::Gt(b, last), shifted);
    }
  }
};

// A shift of the run by one scalar count k < w (x op s, not reversed).
template <uint8_t kOp>
struct ShiftSame {
  int k;
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> a, hn::Vec<D> /*unused*/) const {
    if constexpr (kOp == code(AluOp::ARITH_SHIFT_RIGHT)) {
      const hn::RebindToSigned<D> di;
      return hn::BitCast(d, hn::ShiftRightSame(hn::BitCast(di, a), k));
    } else if constexpr (kOp == code(AluOp::LOGICAL_SHIFT_RIGHT)) {
      return hn::ShiftRightSame(a, k);
    } else {
      return hn::ShiftLeftSame(a, k);
    }
  }
};
// Every bit shifted out: zeros.
struct AllOut {
  template <class D>
  HWY_INLINE hn::Vec<D> operator()(D d, hn::Vec<D> /*a*/, hn::Vec<D> /*b*/) const {
    return hn::Zero(d);
  }
};

template <class T>
struct BitsBinaryForm {
  template <class Op>
  static void Go(const Op& op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out) {
    RunForm(hn::ScalableTag<T>(), op, a, b, n, out);
  }
};
template <class T>
struct BitsScalarForm {
  template <class Op>
  static void Go(const Op& op, const uint8_t* x, uint32_t s, bool reverse, size_t n, uint8_t* out) {
    RunScalar(hn::ScalableTag<T>(), op, x, static_cast<T>(s), reverse, n, out);
  }
};

template <class Form, class... Args>
HWY_INLINE bool WithBitsOp(uint8_t op, Args... args) {
  switch (static_cast<AluOp>(op)) {
#define GPSIMD_CASE(name)                           \
  case AluOp::name:                                 \
    Form::Go(BitsOp<code(AluOp::name)>{}, args...); \
    return true;
    GPSIMD_ALU_BITS_OPS(GPSIMD_CASE)
#undef GPSIMD_CASE
    default:
      return false;
  }
}

template <class T>
bool BitsBinaryT(uint8_t op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out) {
  return WithBitsOp<BitsBinaryForm<T>>(op, a, b, n, out);
}

template <class T>
bool BitsScalarT(uint8_t op, const uint8_t* x, uint32_t s, bool reverse, size_t n, uint8_t* out) {
  constexpr unsigned kW = 8 * sizeof(T);
  s &= kW == 32 ? 0xffffffffu : (1u << kW) - 1;
  if (!reverse && is_shift_op(op)) {
    // One count for the whole run. A count >= w shifts every bit out: zeros, or for
    // ARITH_SHIFT_RIGHT the shift by w - 1 (w copies of the sign bit).
    const hn::ScalableTag<T> d;
    const Mem<decltype(d)> xs{x};
    const Splat<decltype(d)> unused{hn::Zero(d)};
    const bool out_all = model::alu_shift_out(s, kW);
    const int k = static_cast<int>(out_all ? kW - 1 : s);
    switch (static_cast<AluOp>(op)) {
      case AluOp::ARITH_SHIFT_RIGHT:
        Run(d, xs, unused, n, out, ShiftSame<code(AluOp::ARITH_SHIFT_RIGHT)>{k});
        return true;
      case AluOp::LOGICAL_SHIFT_RIGHT:
        if (out_all)
          Run(d, xs, unused, n, out, AllOut{});
        else
          Run(d, xs, unused, n, out, ShiftSame<code(AluOp::LOGICAL_SHIFT_RIGHT)>{k});
        return true;
      default:  // the two left shifts
        if (out_all)
          Run(d, xs, unused, n, out, AllOut{});
        else
          Run(d, xs, unused, n, out, ShiftSame<code(AluOp::LOGICAL_SHIFT_LEFT)>{k});
        return true;
    }
  }
  return WithBitsOp<BitsScalarForm<T>>(op, x, s, reverse, n, out);
}

bool BitsBinary(uint8_t op, unsigned width, const uint8_t* a, const uint8_t* b, size_t n,
                uint8_t* out) {
  if (!bits_path_has(op)) return false;
  switch (width) {
    case 8:
      return BitsBinaryT<uint8_t>(op, a, b, n, out);
    case 16:
      return BitsBinaryT<uint16_t>(op, a, b, n, out);
    case 32:
      return BitsBinaryT<uint32_t>(op, a, b, n, out);
    default:
      return false;
  }
}

bool BitsScalar(uint8_t op, unsigned width, const uint8_t* x, uint32_t s, bool reverse, size_t n,
                uint8_t* out) {
  if (!bits_path_has(op)) return false;
  switch (width) {
    case 8:
      return BitsScalarT<uint8_t>(op, x, s, reverse, n, out);
    case 16:
      return BitsScalarT<uint16_t>(op, x, s, reverse, n, out);
    case 32:
      return BitsScalarT<uint32_t>(op, x, s, reverse, n, out);
    default:
      return false;
  }
}

bool BitsScalar2(ScalarOp op0, ScalarOp op1, unsigned width, const uint8_t* x, size_t n,
                 uint8_t* out) {
  if (!bits_path_has(op0.op) || !bits_path_has(op1.op)) return false;
  if (width != 8 && width != 16 && width != 32) return false;
  TwoOps(op0, op1, width / 8, x, n, out,
         [width](ScalarOp o, const uint8_t* in, size_t m, uint8_t* to) {
           BitsScalar(o.op, width, in, o.s, o.reverse, m, to);
         });
  return true;
}

const char* TargetName() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace gpsimd::alu::simd::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::alu::simd {

namespace {
const uint8_t* in(const void* p) {
  return static_cast<const uint8_t*>(p);
}
uint8_t* to(void* p) {
  return static_cast<uint8_t*>(p);
}
}  // namespace

HWY_EXPORT(TargetName);
const char* target_name() {
  return HWY_DYNAMIC_DISPATCH(TargetName)();
}
HWY_EXPORT(Fp32Binary);
bool fp32_binary(uint8_t op, const void* a, const void* b, size_t n, void* out) {
  return HWY_DYNAMIC_DISPATCH(Fp32Binary)(op, in(a), in(b), n, to(out));
}
HWY_EXPORT(Fp32Scalar);
bool fp32_scalar(uint8_t op, const void* x, uint32_t s, bool reverse, size_t n, void* out) {
  return HWY_DYNAMIC_DISPATCH(Fp32Scalar)(op, in(x), s, reverse, n, to(out));
}
HWY_EXPORT(Fp32Scalar2);
bool fp32_scalar2(ScalarOp op0, ScalarOp op1, const void* x, size_t n, void* out) {
  return HWY_DYNAMIC_DISPATCH(Fp32Scalar2)(op0, op1, in(x), n, to(out));
}
HWY_EXPORT(NativeBinary);
bool native_binary(uint8_t op, Dtype a_dt, const void* a, Dtype b_dt, const void* b, size_t n,
                   Dtype out_dt, void* out) {
  return HWY_DYNAMIC_DISPATCH(NativeBinary)(op, a_dt, in(a), b_dt, in(b), n, out_dt, to(out));
}
HWY_EXPORT(NativeScalar);
bool native_scalar(uint8_t op, Dtype x_dt, const void* x, Dtype s_dt, uint32_t s, bool reverse,
                   size_t n, Dtype out_dt, void* out) {
  return HWY_DYNAMIC_DISPATCH(NativeScalar)(op, x_dt, in(x), s_dt, s, reverse, n, out_dt, to(out));
}
HWY_EXPORT(BitsBinary);
bool bits_binary(uint8_t op, unsigned width, const void* a, const void* b, size_t n, void* out) {
  return HWY_DYNAMIC_DISPATCH(BitsBinary)(op, width, in(a), in(b), n, to(out));
}
HWY_EXPORT(BitsScalar);
bool bits_scalar(uint8_t op, unsigned width, const void* x, uint32_t s, bool reverse, size_t n,
                 void* out) {
  return HWY_DYNAMIC_DISPATCH(BitsScalar)(op, width, in(x), s, reverse, n, to(out));
}
HWY_EXPORT(BitsScalar2);
bool bits_scalar2(ScalarOp op0, ScalarOp op1, unsigned width, const void* x, size_t n, void* out) {
  return HWY_DYNAMIC_DISPATCH(BitsScalar2)(op0, op1, width, in(x), n, to(out));
}

}  // namespace gpsimd::alu::simd
#endif  // HWY_ONCE
