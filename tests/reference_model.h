// An independent, straightforward implementation of the instructions' effects,
// written from SPEC.md for the tests. It shares no code with src/ops or src/format: it
// has its own field offsets (SPEC §4 tables), ADDR4 decoding (§3.4), tensor walk (§3.5),
// number conversions (§5), orderings, ALU (§3.8: its FP32, native integer and raw-bits
// datapaths, shares nothing with src/alu) and fault checks (§4 execution rule), so that a
// mistake in either implementation shows up as a difference between the two.
//
// gpsimd::Machine is used as plain storage only (its partitions, registers, semaphores
// and accumulators), so that whole-state equality can be checked with operator==.
//
// The reference assumes the word is valid (the tests check that with validate()); it
// still detects the execution faults, in the order of SPEC §4.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"

namespace refmodel {

using gpsimd::FaultKind;
using gpsimd::Generation;
using gpsimd::Machine;
using gpsimd::Space;
using gpsimd::Word;

// ---- Codes of SPEC §3.3 ----------------------------------------------------------------

namespace dt {
inline constexpr uint8_t UINT64 = 0x1, INT8 = 0x2, UINT8 = 0x3, INT16 = 0x4, UINT16 = 0x5,
                         BF16 = 0x6, FP16 = 0x7, INT32 = 0x8, UINT32 = 0x9, FP32 = 0xA, FP32R = 0xB,
                         INT64 = 0xC, FP8_E3 = 0xD, FP8_E4 = 0xE, FP8_E5 = 0xF;
}  // namespace dt

namespace op {
inline constexpr uint8_t MAX = 0x08, IS_EQ = 0x12, IS_GT = 0x13, IS_GE = 0x14, IS_LE = 0x15,
                         IS_LT = 0x16;
}  // namespace op

inline constexpr uint8_t kTensorScalarArith = 0x43, kTensorScalarPtrArith = 0x44,
                         kTensorScalarBitvec = 0x53, kTensorScalarPtrBitvec = 0x54;
inline constexpr uint8_t kRangeSelect = 0xbc, kTensorScalarSelect = 0x98, kGetSequenceBounds = 0xbe,
                         kSort = 0x96, kAffineSelect = 0x92, kIota = 0x7e, kNonzeroWithCount = 0xf2,
                         kCopyPredicatedScalar = 0xe8, kDveReadAccumulator = 0x9b, kMax8 = 0x6c,
                         kMatchValueLoad = 0x6d, kFindIndex8 = 0x6e, kMatchReplace8 = 0x6f,
                         kCopy = 0x46, kCast = 0x47;
inline constexpr uint8_t kTensorTensorArith = 0x41, kTensorTensorBitvec = 0x51;
// The opcodes execute() below implements (a test checks them against the table).
inline constexpr uint8_t kModelled[] = {kRangeSelect,
                                        kTensorScalarSelect,
                                        kGetSequenceBounds,
                                        kSort,
                                        kAffineSelect,
                                        kIota,
                                        kNonzeroWithCount,
                                        kCopyPredicatedScalar,
                                        kDveReadAccumulator,
                                        kMax8,
                                        kMatchValueLoad,
                                        kFindIndex8,
                                        kMatchReplace8,
                                        kTensorTensorArith,
                                        kTensorTensorBitvec,
                                        kTensorScalarArith,
                                        kTensorScalarBitvec,
                                        kTensorScalarPtrArith,
                                        kTensorScalarPtrBitvec,
                                        kCopy,
                                        kCast};

// Returns the byte size of a dtype code, 0 when it has none.
inline unsigned size_of(uint8_t code) {
  switch (code) {
    case dt::INT8:
    case dt::UINT8:
    case dt::FP8_E3:
    case dt::FP8_E4:
    case dt::FP8_E5:
      return 1;
    case dt::INT16:
    case dt::UINT16:
    case dt::BF16:
    case dt::FP16:
      return 2;
    case dt::INT32:
    case dt::UINT32:
    case dt::FP32:
    case dt::FP32R:
      return 4;
    case dt::UINT64:
    case dt::INT64:
      return 8;
    default:
      return 0;
  }
}

// ---- Little-endian word fields -------------------------------------------------------

// Returns the `n`-byte little-endian value at byte `off` of the word.
inline uint32_t get(const Word& w, unsigned off, unsigned n) {
  uint32_t v = 0;
  for (unsigned i = 0; i < n; ++i) v |= static_cast<uint32_t>(w[off + i]) << (8 * i);
  return v;
}
inline void put(Word& w, unsigned off, unsigned n, uint32_t v) {
  for (unsigned i = 0; i < n; ++i) w[off + i] = static_cast<uint8_t>(v >> (8 * i));
}

// ---- Events (SPEC §3.2) -----------------------------------------------------------------

struct Events {
  uint8_t wait_mode = 0, wait_idx = 0, update_mode = 0, update_idx = 0;
  uint32_t value = 0;
};
inline Events get_events(const Word& w) {
  return Events{w[4], w[5], w[6], w[7], get(w, 8, 4)};
}
inline void put_events(Word& w, const Events& e) {
  w[4] = e.wait_mode;
  w[5] = e.wait_idx;
  w[6] = e.update_mode;
  w[7] = e.update_idx;
  put(w, 8, 4, e.value);
}

// ---- ADDR4 (SPEC §3.4) ------------------------------------------------------------------

struct Loc {
  Space space = Space::SBUF;
  unsigned partition = 0;
  uint32_t offset = 0;
};

// Returns the SBUF bytes per partition of a generation (SPEC §2).
inline uint32_t sbuf_bytes(Generation g) {
  switch (g) {
    case Generation::V2:
      return 192 * 1024;
    case Generation::V3:
      return 224 * 1024;
    default:
      return 256 * 1024;
  }
}
inline constexpr uint32_t kPsumBytes = 16 * 1024;
inline uint32_t space_bytes(Space s, Generation g) {
  return s == Space::SBUF ? sbuf_bytes(g) : kPsumBytes;
}

inline uint32_t sbuf_addr(unsigned partition, uint32_t offset) {
  return (partition << 18) | offset;
}
inline uint32_t psum_addr(unsigned partition, uint32_t offset) {
  return 0x2000000u + (partition << 15) + offset;
}
inline uint32_t addr_of(const Loc& l) {
  return l.space == Space::SBUF ? sbuf_addr(l.partition, l.offset)
                                : psum_addr(l.partition, l.offset);
}
inline uint32_t reg_addr(unsigned reg) {
  return 0x80000000u | reg;
}

// Returns the location of a static ADDR4, or nullopt when it is not well-formed.
inline std::optional<Loc> decode_static(uint32_t a, Generation g) {
  if (a & 0x80000000u) return std::nullopt;                  // register mode
  if (a & 0x60000000u) return std::nullopt;                  // mode bits 29-30
  if (a >= 0x2000000u && a < 0x2000000u + 128u * 0x8000u) {  // the PSUM window
    const uint32_t rel = a - 0x2000000u;
    const uint32_t partition = rel / 0x8000u, offset = rel % 0x8000u;
    if (offset >= kPsumBytes) return std::nullopt;
    return Loc{Space::PSUM, partition, offset};
  }
  if ((a >> 25) != 0) return std::nullopt;  // bits 25-28 outside the PSUM window
  const uint32_t offset = a % (1u << 18), partition = a >> 18;
  if (offset >= sbuf_bytes(g)) return std::nullopt;
  return Loc{Space::SBUF, partition, offset};
}

// ---- Tensors (SPEC §3.5) ----------------------------------------------------------------

struct Tensor {
  uint32_t addr = 0;
  unsigned dims = 1;
  int step[4] = {0, 0, 0, 0};
  unsigned num[4] = {1, 1, 1, 1};
  bool register_mode() const { return (addr >> 31) != 0; }
  uint64_t count() const {
    uint64_t c = 1;
    for (unsigned d = 0; d < dims; ++d) c *= num[d];
    return c;
  }
};

inline Tensor get_tensor(const Word& w, unsigned off, unsigned dims) {
  Tensor t;
  t.dims = dims;
  t.addr = get(w, off, 4);
  for (unsigned d = 0; d < dims; ++d) {
    t.step[d] = static_cast<int16_t>(get(w, off + 4 + 2 * d, 2));
    t.num[d] = get(w, off + 4 + 2 * dims + 2 * d, 2);
  }
  return t;
}
inline void put_tensor(Word& w, unsigned off, const Tensor& t) {
  put(w, off, 4, t.addr);
  for (unsigned d = 0; d < t.dims; ++d) {
    put(w, off + 4 + 2 * d, 2, static_cast<uint16_t>(t.step[d]));
    put(w, off + 4 + 2 * t.dims + 2 * d, 2, t.num[d]);
  }
}

// Returns the byte offset of every ordinal of the walk, in walk order.
inline std::vector<int64_t> walk(const Tensor& t, int64_t start, unsigned elem) {
  std::vector<int64_t> out;
  out.reserve(t.count());
  const unsigned n0 = t.num[0], n1 = t.dims > 1 ? t.num[1] : 1, n2 = t.dims > 2 ? t.num[2] : 1,
                 n3 = t.dims > 3 ? t.num[3] : 1;
  for (unsigned i3 = 0; i3 < n3; ++i3)
    for (unsigned i2 = 0; i2 < n2; ++i2)
      for (unsigned i1 = 0; i1 < n1; ++i1)
        for (unsigned i0 = 0; i0 < n0; ++i0) {
          int64_t e = int64_t{i0} * t.step[0];
          if (t.dims > 1) e += int64_t{i1} * t.step[1];
          if (t.dims > 2) e += int64_t{i2} * t.step[2];
          if (t.dims > 3) e += int64_t{i3} * t.step[3];
          out.push_back(start + e * elem);
        }
  return out;
}

// The DATA4D ramp of SPEC §3.7 for channel c: every ordinal's exact sum
// base + Σ i[d]*step[d] + c*multiplier, reduced modulo 2^32 into an int32.
inline std::vector<int32_t> ramp(const Word& w, unsigned off, int32_t multiplier, unsigned c) {
  Tensor t;
  t.dims = 4;
  for (unsigned d = 0; d < 4; ++d) {
    t.step[d] = static_cast<int16_t>(get(w, off + 4 + 2 * d, 2));
    t.num[d] = get(w, off + 12 + 2 * d, 2);
  }
  const int64_t base = static_cast<int32_t>(get(w, off, 4));
  std::vector<int32_t> out;
  for (int64_t e : walk(t, 0, 1)) {
    const int64_t exact = base + e + int64_t{c} * multiplier;
    const int64_t wrapped = ((exact % 4294967296LL) + 4294967296LL) % 4294967296LL;
    out.push_back(static_cast<int32_t>(wrapped >= 2147483648LL ? wrapped - 4294967296LL : wrapped));
  }
  return out;
}
inline uint64_t data4d_count(const Word& w, unsigned off) {
  uint64_t c = 1;
  for (unsigned d = 0; d < 4; ++d) c *= get(w, off + 12 + 2 * d, 2);
  return c;
}

// Returns [lo, hi): the bytes the walk touches, from its extreme elements.
inline std::pair<int64_t, int64_t> extent(const Tensor& t, int64_t start, unsigned elem) {
  int64_t lo = 0, hi = 0;
  for (unsigned d = 0; d < t.dims; ++d) {
    const int64_t far = int64_t{t.step[d]} * (int64_t{t.num[d]} - 1);
    (far < 0 ? lo : hi) += far;
  }
  return {start + lo * elem, start + hi * elem + elem};
}

// ---- Number formats (SPEC §5), from the definitions -------------------------------------

struct Format {
  int exp_bits, man_bits, bias;
  uint32_t nan;  // the canonical NaN a narrowing writes (positive)
};
// Returns the format of a narrow float dtype, nullopt for FP32/FP32R and non-floats.
inline std::optional<Format> format_of(uint8_t code) {
  switch (code) {
    case dt::BF16:
      return Format{8, 7, 127, 0x7FC0};
    case dt::FP16:
      return Format{5, 10, 15, 0x7E00};
    case dt::FP8_E5:
      return Format{5, 2, 15, 0x7E};
    case dt::FP8_E4:
      return Format{4, 3, 7, 0x7C};
    case dt::FP8_E3:
      return Format{3, 4, 3, 0x78};
    default:
      return std::nullopt;
  }
}

inline float as_float(uint32_t bits) {
  return std::bit_cast<float>(bits);
}
inline uint32_t as_bits(float f) {
  return std::bit_cast<uint32_t>(f);
}

// Returns the FP32 bits of a dtype-`code` pattern: exact for numbers; a NaN keeps its sign
// and payload (mantissa shifted left) and gets the quiet bit.
inline uint32_t widen(uint8_t code, uint32_t bits) {
  const auto f = format_of(code);
  if (!f) return bits;  // FP32, FP32R
  const int total = 1 + f->exp_bits + f->man_bits;
  const uint32_t sign = (bits >> (total - 1)) & 1u;
  const uint32_t e = (bits >> f->man_bits) & ((1u << f->exp_bits) - 1u);
  const uint32_t m = bits & ((1u << f->man_bits) - 1u);
  if (e == (1u << f->exp_bits) - 1u) {
    if (m == 0) return (sign << 31) | 0x7F800000u;
    return (sign << 31) | 0x7F800000u | 0x400000u | (m << (23 - f->man_bits));
  }
  double v = e == 0 ? std::ldexp(static_cast<double>(m), 1 - f->bias - f->man_bits)
                    : std::ldexp(static_cast<double>(m + (1u << f->man_bits)),
                                 static_cast<int>(e) - f->bias - f->man_bits);
  if (sign) v = -v;
  return as_bits(static_cast<float>(v));  // exact: FP32 holds every narrow value
}

// Returns the dtype-`code` pattern nearest to an FP32 value: round to nearest, ties to
// even, on the exact value, with subnormals; beyond the finite range ±inf; NaN canonical.
inline uint32_t narrow(uint8_t code, uint32_t fp32) {
  const auto f = format_of(code);
  if (!f) return fp32;  // FP32, FP32R: stored as is
  const int total = 1 + f->exp_bits + f->man_bits;
  const uint32_t sign = (fp32 >> 31) << (total - 1);
  const uint32_t exp_ones = (1u << f->exp_bits) - 1u;
  const float x = as_float(fp32);
  if (std::isnan(x)) return sign | f->nan;
  if (std::isinf(x)) return sign | (exp_ones << f->man_bits);
  const double a = std::fabs(static_cast<double>(x));
  if (a == 0) return sign;
  const int emin = 1 - f->bias;  // exponent of the smallest normal
  int e2;
  std::frexp(a, &e2);  // a = fr * 2^e2, fr in [0.5, 1): floor(log2 a) = e2 - 1
  const int e = std::max(e2 - 1, emin);
  const double quantum = std::ldexp(1.0, e - f->man_bits);
  const double rounded = std::nearbyint(a / quantum) * quantum;  // ties to even
  const double max_finite =
      std::ldexp(2.0 - std::ldexp(1.0, -f->man_bits), static_cast<int>(exp_ones) - 1 - f->bias);
  if (rounded > max_finite) return sign | (exp_ones << f->man_bits);
  if (rounded < std::ldexp(1.0, emin)) {  // subnormal (or zero)
    const auto m = static_cast<uint32_t>(rounded / std::ldexp(1.0, emin - f->man_bits));
    return sign | m;
  }
  int r2;
  std::frexp(rounded, &r2);
  const int re = r2 - 1;
  const auto m =
      static_cast<uint32_t>(rounded / std::ldexp(1.0, re - f->man_bits)) - (1u << f->man_bits);
  return sign | (static_cast<uint32_t>(re + f->bias) << f->man_bits) | m;
}

inline bool is_nan_fp32(uint32_t b) {
  return (b & 0x7fffffffu) > 0x7f800000u;
}

// ---- Integers (SPEC §5.1), from the definitions ------------------------------------------

inline bool is_int(uint8_t code) {
  return code == dt::INT8 || code == dt::UINT8 || code == dt::INT16 || code == dt::UINT16 ||
         code == dt::INT32 || code == dt::UINT32;
}
inline bool is_signed_int(uint8_t code) {
  return code == dt::INT8 || code == dt::INT16 || code == dt::INT32;
}
// The value of an integer element (its low 8*size bits).
inline int64_t int_of(uint8_t code, uint32_t bits) {
  const unsigned width = 8 * size_of(code);
  const uint64_t low = width == 32 ? bits : bits & ((1u << width) - 1u);
  if (is_signed_int(code) && (low >> (width - 1)) != 0)
    return static_cast<int64_t>(low) - (int64_t{1} << width);
  return static_cast<int64_t>(low);
}
// Any dtype to FP32: integers rounded to nearest even (a double holds them exactly, and
// double -> float rounds to nearest even), floats widened.
inline uint32_t to_fp32(uint8_t code, uint32_t bits) {
  if (is_int(code)) return as_bits(static_cast<float>(static_cast<double>(int_of(code, bits))));
  return widen(code, bits);
}
// FP32 to any dtype: integers round to nearest even and saturate, NaN is 0.
inline uint32_t from_fp32(uint8_t code, uint32_t fp32) {
  if (!is_int(code)) return narrow(code, fp32);
  const unsigned width = 8 * size_of(code);
  const double lo = is_signed_int(code) ? -std::ldexp(1.0, static_cast<int>(width) - 1) : 0.0;
  const double hi = is_signed_int(code) ? std::ldexp(1.0, static_cast<int>(width) - 1) - 1
                                        : std::ldexp(1.0, static_cast<int>(width)) - 1;
  const float x = as_float(fp32);
  if (std::isnan(x)) return 0;
  const double r = std::clamp(std::nearbyint(static_cast<double>(x)), lo, hi);
  const auto v = static_cast<uint64_t>(static_cast<int64_t>(r));
  return static_cast<uint32_t>(width == 32 ? v & 0xffffffffu : v & ((1u << width) - 1u));
}

// ---- RangeSelect helpers ----------------------------------------------------------------

// Returns fp32(base + j): the exact sum (base finite, 0 <= base <= 2^24, j < 2^24) rounded
// once to FP32, nearest-even. The sum is formed exactly in fixed point with 2^-32 units;
// base bits below 2^-32 only act as a sticky bit, far below the rounding position.
inline float range_index(float base, uint32_t j) {
  if (j == 0) return base;
  const uint32_t b = as_bits(base) & 0x7fffffffu;
  const uint32_t be = b >> 23, bm = b & 0x7fffffu;
  const uint64_t mant = be == 0 ? bm : (bm | 0x800000u);
  const int exp = be == 0 ? -149 : static_cast<int>(be) - 150;  // base = mant * 2^exp
  uint64_t fixed = 0;
  bool sticky = false;
  const int sh = exp + 32;
  if (sh >= 0) {
    fixed = mant << sh;
  } else if (sh > -64) {
    fixed = mant >> -sh;
    sticky = (mant & ((uint64_t{1} << -sh) - 1)) != 0;
  } else {
    sticky = mant != 0;
  }
  const uint64_t s = (uint64_t{j} << 32) + fixed;
  const int bits = 64 - std::countl_zero(s);
  const int drop = bits - 24;  // >= 9: s >= 2^32
  uint64_t kept = s >> drop;
  const uint64_t rem = s & ((uint64_t{1} << drop) - 1), half = uint64_t{1} << (drop - 1);
  if (rem > half || (rem == half && (sticky || (kept & 1)))) ++kept;
  return static_cast<float>(std::ldexp(static_cast<double>(kept), drop - 32));
}

inline bool compare(uint8_t o, float a, float b) {
  switch (o) {
    case op::IS_EQ:
      return a == b;
    case op::IS_GT:
      return a > b;
    case op::IS_GE:
      return a >= b;
    case op::IS_LE:
      return a <= b;
    case op::IS_LT:
      return a < b;
    default:
      return false;
  }
}

// Returns the SPEC §4.1 maximum of FP32 patterns: NaNs ignored, -0 < +0, all NaN (or
// none) gives 0x7FC00000.
inline uint32_t max_of(const std::vector<uint32_t>& v) {
  std::optional<uint32_t> best;
  for (uint32_t b : v) {
    if (is_nan_fp32(b)) continue;
    if (!best) {
      best = b;
      continue;
    }
    const float x = as_float(b), y = as_float(*best);
    if (x > y || (x == 0 && y == 0 && std::signbit(y) && !std::signbit(x))) best = b;
  }
  return best ? *best : 0x7FC00000u;
}

// ---- Sort order (SPEC §4.4) -------------------------------------------------------------

// Returns <0, 0, >0 as a orders before, with, after b ascending.
inline int sort_compare(uint8_t code, uint32_t a, uint32_t b) {
  auto three = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  switch (code) {
    case dt::INT16:
      return three(static_cast<int16_t>(a), static_cast<int16_t>(b));
    case dt::UINT16:
      return three(static_cast<uint16_t>(a), static_cast<uint16_t>(b));
    case dt::INT32:
      return three(static_cast<int32_t>(a), static_cast<int32_t>(b));
    case dt::UINT32:
      return three(a, b);
    default: {
      const float x = as_float(widen(code, a)), y = as_float(widen(code, b));
      if (std::isnan(x) || std::isnan(y)) return three(std::isnan(x), std::isnan(y));
      return three(x, y);  // -0 == +0
    }
  }
}

// ---- The ALU of SPEC §3.8, for TensorTensor (§4.14), from SPEC's tables ------------------

// The ALU_OP values of SPEC §3.8 not named above.
namespace op {
inline constexpr uint8_t BYPASS = 0x00, BITWISE_NOT = 0x01, ARITH_SHIFT_LEFT = 0x02,
                         ARITH_SHIFT_RIGHT = 0x03, ADD = 0x04, SUBTRACT = 0x05, MULT = 0x06,
                         DIVIDE = 0x07, MIN = 0x09, BITWISE_AND = 0x0A, BITWISE_OR = 0x0B,
                         BITWISE_XOR = 0x0C, LOGICAL_AND = 0x0D, LOGICAL_OR = 0x0E,
                         LOGICAL_XOR = 0x0F, LOGICAL_SHIFT_LEFT = 0x10, LOGICAL_SHIFT_RIGHT = 0x11,
                         ABSOLUTE_DIFF = 0x17, IS_NE = 0x18, ABSOLUTE_VALUE = 0x19, POW = 0x1A,
                         MOD = 0x1B, CRC32 = 0x1C, RSQRT = 0x1D, ABS_MAX = 0x20, ABS_MIN = 0x21,
                         RE_LU = 0x22, SQUARE = 0x23, SYMMETRIC_CLAMP = 0x24, ADD_INT = 0xC4,
                         MULT_INT = 0xC5, SUBTRACT_INT = 0xC6, DIVIDE_INT = 0xC7, MOD_INT = 0xC8,
                         IS_EQUAL_INT = 0xC9, IS_NE_INT = 0xCA, ABS_MAX_INT = 0xCB,
                         ABS_MIN_INT = 0xCC, ABS_DIFF_INT = 0xCD, ABS_VALUE_INT = 0xCE,
                         MAX_INT = 0xCF, MIN_INT = 0xD0, IS_GT_INT = 0xD1, IS_GE_INT = 0xD2,
                         IS_LE_INT = 0xD3, IS_LT_INT = 0xD4, MAX_UINT = 0xD5, MIN_UINT = 0xD6,
                         IS_GT_UINT = 0xD7, IS_GE_UINT = 0xD8, IS_LE_UINT = 0xD9, IS_LT_UINT = 0xDA,
                         MULT_UINT = 0xDB, DIVIDE_UINT = 0xDC, MOD_UINT = 0xDD, AMAX_INT = 0xDE,
                         AMIN_INT = 0xDF, AMAX_UINT = 0xE0, AMIN_UINT = 0xE1;
}  // namespace op

namespace tt {

inline bool one_of(uint8_t x, std::initializer_list<uint8_t> set) {
  return std::find(set.begin(), set.end(), x) != set.end();
}
// SPEC §3.8's is_valid_int_aluop (26 ops).
inline bool int_aluop(uint8_t o) {
  using namespace op;
  return one_of(
      o, {ADD_INT,  MULT_INT,   SUBTRACT_INT, MOD,        DIVIDE_INT,   MOD_INT,     DIVIDE_UINT,
          MOD_UINT, MULT_UINT,  IS_EQUAL_INT, IS_NE_INT,  ABS_DIFF_INT, ABS_MAX_INT, ABS_MIN_INT,
          MAX_INT,  MIN_INT,    IS_GT_INT,    IS_GE_INT,  IS_LE_INT,    IS_LT_INT,   MAX_UINT,
          MIN_UINT, IS_GT_UINT, IS_GE_UINT,   IS_LE_UINT, IS_LT_UINT});
}
// is_general_arith_op: is_arith_op without DIVIDE, POW, MOD, RSQRT and the integer ops.
inline bool general_arith(uint8_t o) {
  using namespace op;
  return one_of(o, {BYPASS,     ADD,           SUBTRACT,       MULT,    MAX,     MIN,   LOGICAL_AND,
                    LOGICAL_OR, LOGICAL_XOR,   IS_EQ,          IS_GT,   IS_GE,   IS_LE, IS_LT,
                    IS_NE,      ABSOLUTE_DIFF, ABSOLUTE_VALUE, ABS_MAX, ABS_MIN, RE_LU, SQUARE});
}
// SPEC §3.8.3: no modelled result.
inline bool unmodelled(uint8_t o) {
  using namespace op;
  return one_of(o, {DIVIDE, POW, RSQRT, MOD, DIVIDE_INT, DIVIDE_UINT, MOD_INT, MOD_UINT, CRC32,
                    SYMMETRIC_CLAMP, ABS_VALUE_INT, AMAX_INT, AMIN_INT, AMAX_UINT, AMIN_UINT});
}

inline constexpr uint32_t kDefaultNaN = 0x7FC00000u;
inline uint32_t canonical(float x) {
  return std::isnan(x) ? kDefaultNaN : as_bits(x);
}
inline uint32_t truth(bool t) {
  return t ? 0x3F800000u : 0u;
}

// The FP32 path (SPEC §3.8.2) on binary32 patterns. Sums, differences and products are
// formed in double and rounded once to float: double holds every product of two floats
// exactly, and a double-rounded float sum is the correctly rounded one (53 >= 2*24 + 2).
inline uint32_t fp32(uint8_t o, uint32_t ab, uint32_t bb) {
  const float a = as_float(ab), b = as_float(bb);
  const double x = a, y = b;
  const bool an = std::isnan(a), bn = std::isnan(b);
  switch (o) {
    case op::BYPASS:
      return ab;
    case op::ADD:
      return canonical(static_cast<float>(x + y));
    case op::SUBTRACT:
      return canonical(static_cast<float>(x - y));
    case op::MULT:
      return canonical(static_cast<float>(x * y));
    case op::SQUARE:
      return canonical(static_cast<float>(x * x));
    case op::MAX:
    case op::MIN: {
      if (an && bn) return kDefaultNaN;
      if (an) return bb;
      if (bn) return ab;
      const bool max = o == op::MAX;
      if (a == b && a == 0.0f) {  // -0.0 < +0.0
        const bool a_neg = std::signbit(a);
        return max ? (a_neg ? bb : ab) : (a_neg ? ab : bb);
      }
      return (max ? a >= b : a <= b) ? ab : bb;
    }
    case op::RE_LU:
      if (an) return 0u;
      return a > 0.0f ? ab : 0u;  // -0.0 and negatives give +0.0
    case op::IS_EQ:
      return truth(a == b);
    case op::IS_GT:
      return truth(a > b);
    case op::IS_GE:
      return truth(a >= b);
    case op::IS_LE:
      return truth(a <= b);
    case op::IS_LT:
      return truth(a < b);
    case op::IS_NE:
      return truth(!(a == b));
    case op::LOGICAL_AND:
      return truth(!(a == 0.0f) && !(b == 0.0f));
    case op::LOGICAL_OR:
      return truth(!(a == 0.0f) || !(b == 0.0f));
    case op::LOGICAL_XOR:
      return truth(!(a == 0.0f) != !(b == 0.0f));
    case op::ABSOLUTE_DIFF: {
      const float d = static_cast<float>(x - y);
      return std::isnan(d) ? kDefaultNaN : as_bits(d) & 0x7FFFFFFFu;
    }
    case op::ABSOLUTE_VALUE:
      return an ? kDefaultNaN : ab & 0x7FFFFFFFu;
    case op::ABS_MAX:
    case op::ABS_MIN: {
      const float ma = std::fabs(a), mb = std::fabs(b);
      const bool take_a = o == op::ABS_MAX ? ma > mb : ma < mb;  // false with a NaN: b
      const uint32_t r = take_a ? ab : bb;
      return is_nan_fp32(r) ? kDefaultNaN : r;
    }
    default:
      return 0xDEADBEEFu;  // not an op of this path (the word faults before)
  }
}

__extension__ typedef __int128 Wide;

// The native integer path (SPEC §3.8.2) on exact values; returns the exact result.
inline Wide native(uint8_t o, int64_t a, int64_t b) {
  const Wide x = a, y = b;
  const auto abs = [](Wide v) { return v < 0 ? -v : v; };
  using namespace op;
  switch (o) {
    case BYPASS:
      return x;
    case ADD:
    case ADD_INT:
      return x + y;
    case SUBTRACT:
    case SUBTRACT_INT:
      return x - y;
    case MULT:
    case MULT_INT:
    case MULT_UINT:
      return x * y;
    case SQUARE:
      return x * x;
    case MAX:
    case MAX_INT:
    case MAX_UINT:
      return std::max(x, y);
    case MIN:
    case MIN_INT:
    case MIN_UINT:
      return std::min(x, y);
    case RE_LU:
      return std::max(x, Wide{0});
    case IS_EQ:
    case IS_EQUAL_INT:
      return x == y;
    case IS_NE:
    case IS_NE_INT:
      return x != y;
    case IS_GT:
    case IS_GT_INT:
    case IS_GT_UINT:
      return x > y;
    case IS_GE:
    case IS_GE_INT:
    case IS_GE_UINT:
      return x >= y;
    case IS_LE:
    case IS_LE_INT:
    case IS_LE_UINT:
      return x <= y;
    case IS_LT:
    case IS_LT_INT:
    case IS_LT_UINT:
      return x < y;
    case LOGICAL_AND:
      return x != 0 && y != 0;
    case LOGICAL_OR:
      return x != 0 || y != 0;
    case LOGICAL_XOR:
      return (x != 0) != (y != 0);
    case ABSOLUTE_DIFF:
    case ABS_DIFF_INT:
      return abs(x - y);
    case ABSOLUTE_VALUE:
      return abs(x);
    case ABS_MAX:
    case ABS_MAX_INT:
      return abs(x) > abs(y) ? x : y;
    case ABS_MIN:
    case ABS_MIN_INT:
      return abs(x) < abs(y) ? x : y;
    default:
      return 0xDEADBEEF;
  }
}
// The exact value reduced modulo 2^width (the wrap of the native path).
inline uint32_t wrap(Wide v, unsigned width) {
  const Wide m = Wide{1} << width;
  Wide r = v % m;
  if (r < 0) r += m;
  return static_cast<uint32_t>(r);
}

// The raw-bits path (SPEC §3.8.2) on w-bit patterns.
inline uint32_t bits(uint8_t o, uint32_t a, uint32_t b, unsigned w) {
  const uint64_t mask = (uint64_t{1} << w) - 1;
  const uint64_t x = a & mask, k = b & mask;  // the count: b as an unsigned w-bit integer
  const int64_t sx =
      (x >> (w - 1)) ? static_cast<int64_t>(x) - (int64_t{1} << w) : static_cast<int64_t>(x);
  switch (o) {
    case op::BYPASS:
      return static_cast<uint32_t>(x);
    case op::BITWISE_NOT:
      return static_cast<uint32_t>(~x & mask);
    case op::BITWISE_AND:
      return static_cast<uint32_t>(x & k);
    case op::BITWISE_OR:
      return static_cast<uint32_t>(x | k);
    case op::BITWISE_XOR:
      return static_cast<uint32_t>(x ^ k);
    case op::LOGICAL_SHIFT_LEFT:
    case op::ARITH_SHIFT_LEFT:
      return k >= w ? 0u : static_cast<uint32_t>((x << k) & mask);
    case op::LOGICAL_SHIFT_RIGHT:
      return k >= w ? 0u : static_cast<uint32_t>(x >> k);
    case op::ARITH_SHIFT_RIGHT:  // w copies of the sign bit once every bit is out
      return static_cast<uint32_t>(static_cast<uint64_t>(k >= w ? (sx < 0 ? -1 : 0) : sx >> k) &
                                   mask);
    default:
      return 0xDEADBEEFu;
  }
}

}  // namespace tt

// ---- Execution --------------------------------------------------------------------------

struct Outcome {
  std::optional<FaultKind> fault;                   // nullopt: retired
  std::vector<std::pair<Space, unsigned>> written;  // partitions written, in order
};

namespace internal {

struct Store {
  Space space;
  unsigned partition;
  int64_t offset;
  unsigned size;
  uint32_t bits;
};
struct Effects {
  std::vector<Store> stores;  // applied in order: a later store to the same byte wins
  std::vector<std::pair<unsigned, uint32_t>> accumulators;
  std::vector<std::pair<unsigned, gpsimd::MatchLane>> lanes;  // search lanes (SPEC §2)
};

inline uint32_t load(const Machine& m, Space s, unsigned p, int64_t off, unsigned size) {
  const auto part = m.partition(s, p);
  uint32_t v = 0;
  for (unsigned i = 0; i < size; ++i)
    v |= static_cast<uint32_t>(part[static_cast<std::size_t>(off) + i]) << (8 * i);
  return v;
}

// Resolves a tensor operand's address (its own, or the one its register holds) and
// checks the rules of SPEC §3.6 for it; nullopt means bad-address.
inline std::optional<Loc> resolve(const Machine& m, const Tensor& t, unsigned elem, bool dve,
                                  bool write, unsigned n) {
  const uint32_t a = t.register_mode() ? m.registers[t.addr & 0xffu] : t.addr;
  const auto loc = decode_static(a, m.generation());
  if (!loc) return std::nullopt;
  if (loc->space == Space::PSUM && !dve) return std::nullopt;
  if (loc->space == Space::PSUM && write && elem != 4) return std::nullopt;
  if (loc->offset % elem != 0) return std::nullopt;
  const auto [lo, hi] = extent(t, loc->offset, elem);
  if (lo < 0 || hi > space_bytes(loc->space, m.generation())) return std::nullopt;
  if (loc->partition + n > 128) return std::nullopt;
  return loc;
}

// An immediate: one value for all channels, or a pointer read per channel.
struct Imm {
  bool pointer = false;
  uint32_t value = 0;
  Loc loc;
  unsigned width = 4;
  uint32_t at(const Machine& m, unsigned c) const {
    return pointer ? load(m, loc.space, loc.partition + c, loc.offset, width) : value;
  }
};
// Resolves an IMM_VAL per its IMM_SRC; nullopt means bad-address.
inline std::optional<Imm> resolve_imm(const Machine& m, uint8_t src, uint32_t field, unsigned width,
                                      bool dve, unsigned n) {
  Imm imm;
  imm.width = width;
  if (src == 0) {
    imm.value = width == 4 ? field : field & ((1u << (8 * width)) - 1);
    return imm;
  }
  const uint32_t a = src == 1 ? field : m.registers[field & 0xffu];
  const auto loc = decode_static(a, m.generation());
  if (!loc) return std::nullopt;
  if (loc->space == Space::PSUM && !dve) return std::nullopt;
  if (loc->offset % width != 0) return std::nullopt;
  if (loc->partition + n > 128) return std::nullopt;
  imm.pointer = true;
  imm.loc = *loc;
  return imm;
}

inline constexpr uint64_t kWalkLimit = uint64_t{1} << 24;

// Each returns the fault, or fills `fx` with every write of the instruction.
inline std::optional<FaultKind> range_select(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[12];
  const uint8_t din = w[13] & 0xf, dout = w[13] >> 4, cmd = w[14];
  const float base = as_float(get(w, 16, 4));
  const Tensor st = get_tensor(w, 24, 2), dtn = get_tensor(w, 48, 2);
  const unsigned isz = size_of(din), osz = size_of(dout);
  const auto src = resolve(m, st, isz, true, false, n);
  const auto dst = resolve(m, dtn, osz, true, true, n);
  const auto b0 = resolve_imm(m, w[38], get(w, 40, 4), 4, true, n);
  const auto b1 = resolve_imm(m, w[39], get(w, 44, 4), 4, true, n);
  if (!src || !dst || !b0 || !b1) return FaultKind::BadAddress;
  if ((st.register_mode() || dtn.register_mode()) && st.count() != dtn.count())
    return FaultKind::ShapeMismatch;
  // base + count(src) > 2^24, compared exactly: 2^24 - count is an exact integer.
  if (st.register_mode() &&
      static_cast<double>(base) > 16777216.0 - static_cast<double>(st.count()))
    return FaultKind::ShapeMismatch;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto soffs = walk(st, src->offset, isz), doffs = walk(dtn, dst->offset, osz);
  for (unsigned c = 0; c < n; ++c) {
    const float bound0 = as_float(b0->at(m, c)), bound1 = as_float(b1->at(m, c));
    std::vector<uint32_t> y(soffs.size());
    for (std::size_t j = 0; j < soffs.size(); ++j) {
      const uint32_t x = widen(din, load(m, src->space, src->partition + c, soffs[j], isz));
      const float idx = range_index(base, static_cast<uint32_t>(j));
      const bool pass = compare(w[36], idx, bound0) && compare(w[37], idx, bound1);
      y[j] = pass ? x : 0xff7fffffu;
    }
    for (std::size_t j = 0; j < doffs.size(); ++j)
      fx.stores.push_back({dst->space, dst->partition + c, doffs[j], osz, narrow(dout, y[j])});
    const unsigned acc = src->partition + c;
    if (cmd == 3) fx.accumulators.emplace_back(acc, max_of(y));
    if (cmd == 2) {
      // max(acc, max over y): the inner maximum is a value (0x7FC00000 when all NaN).
      fx.accumulators.emplace_back(acc, max_of({m.accumulators[acc], max_of(y)}));
    }
  }
  return std::nullopt;
}

inline std::optional<FaultKind> tensor_scalar_select(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[33];
  const unsigned size = size_of(w[34]), psize = size_of(w[35]);
  const bool reversed = w[32] != 0;
  const Tensor st = get_tensor(w, 16, 3), dtn = get_tensor(w, 48, 3);
  const auto src = resolve(m, st, size, true, false, n);
  const auto dst = resolve(m, dtn, size, true, true, n);
  const auto s1 = resolve_imm(m, w[38], get(w, 40, 4), size, true, n);
  const auto pr = resolve_imm(m, w[39], get(w, 44, 4), psize, true, n);
  if (!src || !dst || !s1 || !pr) return FaultKind::BadAddress;
  if ((st.register_mode() || dtn.register_mode()) && st.count() != dtn.count())
    return FaultKind::ShapeMismatch;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto soffs = walk(st, src->offset, size), doffs = walk(dtn, dst->offset, size);
  for (unsigned c = 0; c < n; ++c) {
    // An instruction-immediate predicate is the whole field (validated 0 or 1).
    const uint32_t pred = w[39] == 0 ? get(w, 44, 4) : pr->at(m, c);
    const bool take = (pred != 0) != reversed;
    const uint32_t scalar = s1->at(m, c);
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      const uint32_t v = take ? load(m, src->space, src->partition + c, soffs[j], size) : scalar;
      fx.stores.push_back({dst->space, dst->partition + c, doffs[j], size, v});
    }
  }
  return std::nullopt;
}

inline std::optional<FaultKind> get_sequence_bounds(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[12];
  const bool fp_in = w[14] == dt::FP32, fp_out = w[15] == dt::FP32;
  const Tensor st = get_tensor(w, 16, 3), dtn = get_tensor(w, 32, 3);
  const auto src = resolve(m, st, 4, false, false, n);
  const auto dst = resolve(m, dtn, 4, false, true, n);
  if (!src || !dst) return FaultKind::BadAddress;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto soffs = walk(st, src->offset, 4), doffs = walk(dtn, dst->offset, 4);
  auto eq = [&](uint32_t a, uint32_t b) { return fp_in ? as_float(a) == as_float(b) : a == b; };
  auto pad = [&](uint32_t a) { return fp_in ? as_float(a) == 0.0f : a == 0; };
  for (unsigned c = 0; c < n; ++c) {
    const std::size_t len = soffs.size();
    std::vector<uint32_t> s(len);
    for (std::size_t i = 0; i < len; ++i)
      s[i] = load(m, Space::SBUF, src->partition + c, soffs[i], 4);
    // Maximal runs of equal adjacent ids: [a, b).
    std::vector<int64_t> bounds(2 * len);
    for (std::size_t a = 0; a < len;) {
      std::size_t b = a + 1;
      while (b < len && eq(s[b], s[b - 1])) ++b;
      for (std::size_t i = a; i < b; ++i) {
        bounds[i] = pad(s[i]) ? static_cast<int64_t>(len) : static_cast<int64_t>(a);
        bounds[len + i] = pad(s[i]) ? -1 : static_cast<int64_t>(b);
      }
      a = b;
    }
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      const auto v = static_cast<int32_t>(bounds[j]);
      const uint32_t bits = fp_out ? as_bits(static_cast<float>(v)) : static_cast<uint32_t>(v);
      fx.stores.push_back({Space::SBUF, dst->partition + c, doffs[j], 4, bits});
    }
  }
  return std::nullopt;
}

inline std::optional<FaultKind> sort(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[12];
  const uint8_t code = w[14] & 0xf;
  const unsigned size = size_of(code);
  const bool descending = w[15] == op::IS_GT;
  const Tensor st = get_tensor(w, 16, 1), dtn = get_tensor(w, 24, 2);
  const auto src = resolve(m, st, size, false, false, n);
  const auto dst = resolve(m, dtn, size, false, true, n);
  const auto off = resolve_imm(m, w[13], get(w, 36, 4), 4, false, n);
  if (!src || !dst || !off) return FaultKind::BadAddress;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto soffs = walk(st, src->offset, size), doffs = walk(dtn, dst->offset, size);
  const unsigned k = dtn.num[1];
  for (unsigned c = 0; c < n; ++c) {
    std::vector<uint32_t> v(soffs.size());
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = load(m, Space::SBUF, src->partition + c, soffs[i], size);
    std::vector<uint32_t> pos(v.size());
    std::iota(pos.begin(), pos.end(), 0u);
    std::sort(pos.begin(), pos.end(), [&](uint32_t a, uint32_t b) {
      int r = sort_compare(code, v[a], v[b]);
      if (descending) r = -r;
      return r != 0 ? r < 0 : a < b;  // ties: increasing original position
    });
    const uint64_t modulus = uint64_t{1} << (8 * size);
    const uint64_t base = off->at(m, c);
    std::vector<uint32_t> out;
    for (unsigned i = 0; i < k; ++i) {
      out.push_back(v[pos[i]]);
      out.push_back(static_cast<uint32_t>((pos[i] + base) % modulus));
    }
    for (std::size_t j = 0; j < doffs.size(); ++j)
      fx.stores.push_back({Space::SBUF, dst->partition + c, doffs[j], size, out[j]});
  }
  return std::nullopt;
}

// SPEC §4.5.
inline std::optional<FaultKind> affine_select(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[12];
  const uint8_t lo = w[13] & 0xf, hi = w[13] >> 4, mode = w[14], reg = w[15];
  const Tensor st = get_tensor(w, 36, 2), dtn = get_tensor(w, 48, 2);
  const auto mult = static_cast<int32_t>(get(w, 60, 4));
  const unsigned isz = size_of(lo), osz = size_of(hi);
  const auto src = resolve(m, st, isz, false, false, n);
  const auto dst = resolve(m, dtn, osz, false, true, n);
  if (!src || !dst) return FaultKind::BadAddress;
  const uint64_t mc = data4d_count(w, 16);
  if ((st.register_mode() || dtn.register_mode()) && (st.count() != mc || dtn.count() != mc))
    return FaultKind::ShapeMismatch;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const uint32_t fill = from_fp32(hi, m.registers[reg]);
  const auto soffs = walk(st, src->offset, isz), doffs = walk(dtn, dst->offset, osz);
  for (unsigned c = 0; c < n; ++c) {
    const std::vector<int32_t> r = ramp(w, 16, mult, c);
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      const int32_t v = r[j];
      const bool keep = mode == 0 ? v > 0 : mode == 1 ? v >= 0 : mode == 2 ? v == 0 : v != 0;
      const uint32_t x = load(m, src->space, src->partition + c, soffs[j], isz);
      const uint32_t y = !keep ? fill : lo == hi ? x : from_fp32(hi, to_fp32(lo, x));
      fx.stores.push_back({dst->space, dst->partition + c, doffs[j], osz, y});
    }
  }
  return std::nullopt;
}

// SPEC §4.6.
inline std::optional<FaultKind> iota(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[34];
  const uint8_t out = w[33];
  const auto mult = static_cast<int32_t>(get(w, 36, 4));
  const Tensor dtn = get_tensor(w, 44, 4);
  const unsigned osz = size_of(out);
  const auto dst = resolve(m, dtn, osz, false, true, n);
  if (!dst) return FaultKind::BadAddress;
  if (dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto doffs = walk(dtn, dst->offset, osz);
  for (unsigned c = 0; c < n; ++c) {
    const std::vector<int32_t> r = ramp(w, 12, mult, c);
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      const auto bits = static_cast<uint32_t>(r[j]);
      // Integers keep the low bits; floats go through FP32.
      const uint32_t y = is_int(out) ? bits : narrow(out, to_fp32(dt::INT32, bits));
      fx.stores.push_back({Space::SBUF, dst->partition + c, doffs[j], osz, y});
    }
  }
  return std::nullopt;
}

// SPEC §4.11. Offsets: 12 channels, 13 in_dtype, 15 index_offset_src, 16 src (TENSOR3D),
// 32 index_offset, 36 padding_val_src, 40 padding_val, 44 dst (TENSOR3D).
inline std::optional<FaultKind> nonzero_with_count(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[12];
  const bool fp = w[13] == dt::FP32;
  const Tensor st = get_tensor(w, 16, 3), dtn = get_tensor(w, 44, 3);
  const auto src = resolve(m, st, 4, false, false, n);
  const auto dst = resolve(m, dtn, 4, false, true, n);
  const auto off = resolve_imm(m, w[15], get(w, 32, 4), 4, false, n);
  const auto pad = resolve_imm(m, w[36], get(w, 40, 4), 4, false, n);
  if (!src || !dst || !off || !pad) return FaultKind::BadAddress;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto soffs = walk(st, src->offset, 4), doffs = walk(dtn, dst->offset, 4);
  // Every 16th channel, counted from the start partitions.
  for (unsigned c = 0; c < n; c += 16) {
    const std::size_t t = soffs.size();
    std::vector<uint32_t> out;
    for (std::size_t j = 0; j < t; ++j) {
      const uint32_t x = load(m, Space::SBUF, src->partition + c, soffs[j], 4);
      // INT32: any bit; FP32: x != 0 as a float, so -0.0 is zero and NaN is not.
      const bool nonzero = fp ? !(as_float(x) == 0.0f) : x != 0;
      if (nonzero)
        out.push_back(static_cast<uint32_t>((uint64_t{j} + off->at(m, c)) % (uint64_t{1} << 32)));
    }
    const auto k = static_cast<uint32_t>(out.size());
    while (out.size() < t) out.push_back(pad->at(m, c));
    out.push_back(k);
    for (std::size_t j = 0; j < doffs.size(); ++j)
      fx.stores.push_back({Space::SBUF, dst->partition + c, doffs[j], 4, out[j]});
  }
  return std::nullopt;
}

// SPEC §4.12. Offsets: 16 pred (TENSOR3D), 32 pred_dtype, 33 reversed_pred, 34 channels,
// 41 in_dtype, 42 out_dtype, 43 src0_imm_src, 44 src0_imm, 48 dst (TENSOR3D).
inline std::optional<FaultKind> copy_predicated_scalar(const Machine& m, const Word& w,
                                                       Effects& fx) {
  const unsigned n = w[34];
  const unsigned psize = size_of(w[32]), size = size_of(w[42]);
  const bool reversed = w[33] == 1;
  const Tensor pt = get_tensor(w, 16, 3), dtn = get_tensor(w, 48, 3);
  const auto pred = resolve(m, pt, psize, true, false, n);
  const auto dst = resolve(m, dtn, size, true, true, n);
  const auto sc = resolve_imm(m, w[43], get(w, 44, 4), size_of(w[41]), true, n);
  if (!pred || !dst || !sc) return FaultKind::BadAddress;
  if ((pt.register_mode() || dtn.register_mode()) && pt.count() != dtn.count())
    return FaultKind::ShapeMismatch;
  if (pt.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto poffs = walk(pt, pred->offset, psize), doffs = walk(dtn, dst->offset, size);
  for (unsigned c = 0; c < n; ++c) {
    const uint32_t scalar = sc->at(m, c);
    // Every decision from the machine before any store (stores are applied afterwards).
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      const uint32_t p = load(m, pred->space, pred->partition + c, poffs[j], psize);
      if ((p != 0) == reversed)
        fx.stores.push_back({dst->space, dst->partition + c, doffs[j], size, scalar});
    }
  }
  return std::nullopt;
}

// SPEC §4.13. Offsets: 32 dtype, 33 negated, 34 channels, 44 dst (TENSOR1D).
inline std::optional<FaultKind> dve_read_accumulator(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[34];
  const uint8_t code = w[32];
  const unsigned size = size_of(code);
  const Tensor dtn = get_tensor(w, 44, 1);
  const auto dst = resolve(m, dtn, size, true, true, n);
  if (!dst) return FaultKind::BadAddress;
  for (unsigned c = 0; c < n; ++c) {
    uint32_t a = m.accumulators[dst->partition + c];
    if (w[33] == 1) a ^= 0x80000000u;
    fx.stores.push_back({dst->space, dst->partition + c, dst->offset, size, narrow(code, a)});
  }
  return std::nullopt;
}

// SPEC §4.7. Offsets: 16 src (TENSOR2D), 32 dtype, 34 channels.
inline std::optional<FaultKind> match_value_load(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[34];
  const uint8_t code = w[32];
  const unsigned size = size_of(code);
  const Tensor st = get_tensor(w, 16, 2);
  const auto src = resolve(m, st, size, true, false, n);
  if (!src) return FaultKind::BadAddress;
  const auto offs = walk(st, src->offset, size);
  for (unsigned c = 0; c < n; ++c) {
    gpsimd::MatchLane lane;
    for (unsigned n2 = 0; n2 < 8; ++n2) lane.idx[n2] = 0xFFFFFFFFu;
    lane.matched = 0;
    for (std::size_t k = 0; k < offs.size(); ++k)
      lane.mv[7 - k] = to_fp32(code, load(m, src->space, src->partition + c, offs[k], size));
    fx.lanes.emplace_back(src->partition + c, lane);
  }
  return std::nullopt;
}

// SPEC §4.8. Offsets: 12 src (TENSOR4D), 32 in, 33 out, 34 channels, 48 dst (TENSOR2D).
inline std::optional<FaultKind> max8(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[34];
  const unsigned in_size = size_of(w[32]), out_size = size_of(w[33]);
  const Tensor st = get_tensor(w, 12, 4), dtn = get_tensor(w, 48, 2);
  const auto src = resolve(m, st, in_size, true, false, n);
  const auto dst = resolve(m, dtn, out_size, true, true, n);
  if (!src || !dst) return FaultKind::BadAddress;
  const auto soffs = walk(st, src->offset, in_size), doffs = walk(dtn, dst->offset, out_size);
  // Descending by value; of two zeros the positive one first.
  auto before = [](uint32_t a, uint32_t b) {
    const float x = as_float(a), y = as_float(b);
    if (x != y) return x > y;
    return (a >> 31) < (b >> 31);
  };
  for (unsigned c = 0; c < n; ++c) {
    std::vector<uint32_t> v;
    for (int64_t off : soffs) {
      const uint32_t x = to_fp32(w[32], load(m, src->space, src->partition + c, off, in_size));
      if (!std::isnan(as_float(x))) v.push_back(x);
    }
    std::sort(v.begin(), v.end(), before);
    while (v.size() < 8) v.push_back(0xff800000u);  // -inf at the low end
    for (std::size_t k = 0; k < 8; ++k)             // smallest first
      fx.stores.push_back(
          {dst->space, dst->partition + c, doffs[k], out_size, from_fp32(w[33], v[7 - k])});
  }
  return std::nullopt;
}

// SPEC §4.9 / §4.10: one lane's match over the source elements (FP32 bits, walk order);
// returns which ordinals were consumed.
inline std::vector<bool> match_lane(gpsimd::MatchLane& lane, const std::vector<uint32_t>& e) {
  std::vector<bool> consumed(e.size(), false);
  for (std::size_t i = 0; i < e.size(); ++i) {
    for (unsigned s = 0; s < 8; ++s) {
      if ((lane.matched >> s) & 1u) continue;
      if (as_float(e[i]) == as_float(lane.mv[s])) {  // IEEE: NaN never, -0 == +0
        lane.matched = static_cast<uint8_t>(lane.matched | (1u << s));
        lane.idx[s] = static_cast<uint32_t>(i);
        consumed[i] = true;
        break;
      }
    }
  }
  return consumed;
}

// SPEC §4.9. The layout of Max8; out_dtype UINT16 or UINT32.
// The match of FindIndex8 and MatchReplace8 on every channel: src at 12 (TENSOR4D), dst
// at `dst_at` with `dst_dims`; `store(c, lane, consumed, e, dst, doffs, out_size)` adds the
// channel's stores.
template <class Store>
inline std::optional<FaultKind> match_channels(const Machine& m, const Word& w, Effects& fx,
                                               unsigned dst_at, unsigned dst_dims, Store store) {
  const unsigned n = w[34];
  const unsigned in_size = size_of(w[32]), out_size = size_of(w[33]);
  const Tensor st = get_tensor(w, 12, 4), dtn = get_tensor(w, dst_at, dst_dims);
  const auto src = resolve(m, st, in_size, true, false, n);
  const auto dst = resolve(m, dtn, out_size, true, true, n);
  if (!src || !dst) return FaultKind::BadAddress;
  const auto soffs = walk(st, src->offset, in_size), doffs = walk(dtn, dst->offset, out_size);
  for (unsigned c = 0; c < n; ++c) {
    std::vector<uint32_t> e;
    for (int64_t off : soffs)
      e.push_back(to_fp32(w[32], load(m, src->space, src->partition + c, off, in_size)));
    gpsimd::MatchLane lane = m.match[src->partition + c];
    const std::vector<bool> consumed = match_lane(lane, e);
    store(c, lane, consumed, e, *dst, doffs, out_size);
    fx.lanes.emplace_back(src->partition + c, lane);
  }
  return std::nullopt;
}

inline std::optional<FaultKind> find_index8(const Machine& m, const Word& w, Effects& fx) {
  return match_channels(
      m, w, fx, 48, 2,
      [&](unsigned c, const gpsimd::MatchLane& lane, const std::vector<bool>&,
          const std::vector<uint32_t>&, const Loc& dst, const std::vector<int64_t>& doffs,
          unsigned out_size) {
        for (std::size_t k = 0; k < 8; ++k)
          fx.stores.push_back({dst.space, dst.partition + c, doffs[k], out_size,
                               out_size == 2 ? lane.idx[k] & 0xFFFFu : lane.idx[k]});
      });
}

// SPEC §4.10. Offsets: 12 src (TENSOR4D), 32 in, 33 out, 34 channels, 40 immediate,
// 44 dst (TENSOR4D).
inline std::optional<FaultKind> match_replace8(const Machine& m, const Word& w, Effects& fx) {
  const uint32_t imm = get(w, 40, 4);
  return match_channels(m, w, fx, 44, 4,
                        [&](unsigned c, const gpsimd::MatchLane&, const std::vector<bool>& consumed,
                            const std::vector<uint32_t>& e, const Loc& dst,
                            const std::vector<int64_t>& doffs, unsigned out_size) {
                          for (std::size_t i = 0; i < doffs.size(); ++i)
                            fx.stores.push_back({dst.space, dst.partition + c, doffs[i], out_size,
                                                 from_fp32(w[33], consumed[i] ? imm : e[i])});
                        });
}

// SPEC §4.14. Offsets: 12 in0_in1_dtype (src0 low nibble, src1 high), 13 out_dtype, 14 op,
// 15 channels, 16 src0, 32 src1, 48 dst (TENSOR3D each). `e` is the engine it runs on.
inline std::optional<FaultKind> tensor_tensor(const Machine& m, const Word& w, Effects& fx,
                                              gpsimd::Engine e) {
  const uint8_t lo = w[12] & 0xf, hi = w[12] >> 4, out = w[13], o = w[14];
  const unsigned n = w[15];
  const bool bitvec = w[0] == kTensorTensorBitvec;
  const bool pool = e == gpsimd::Engine::POOL;
  // SPEC §3.9 item 4: act; the ops of §3.8.3; INT64/UINT64; the integer band off pool.
  if (e == gpsimd::Engine::ACT || tt::unmodelled(o)) return FaultKind::UnsupportedOp;
  for (uint8_t d : {lo, hi, out})
    if (d == dt::INT64 || d == dt::UINT64) return FaultKind::UnsupportedOp;
  if (tt::int_aluop(o) && !pool) return FaultKind::UnsupportedOp;
  const Tensor t0 = get_tensor(w, 16, 3), t1 = get_tensor(w, 32, 3), td = get_tensor(w, 48, 3);
  const unsigned s0 = size_of(lo), s1 = size_of(hi), sd = size_of(out);
  const auto a0 = resolve(m, t0, s0, !pool, false, n);
  const auto a1 = resolve(m, t1, s1, !pool, false, n);
  const auto ad = resolve(m, td, sd, !pool, true, n);
  if (!a0 || !a1 || !ad) return FaultKind::BadAddress;
  if (a0->space == Space::PSUM && a1->space == Space::PSUM) return FaultKind::BadAddress;
  if ((t0.register_mode() || t1.register_mode() || td.register_mode()) &&
      (t0.count() != t1.count() || t0.count() != td.count()))
    return FaultKind::ShapeMismatch;
  if (t0.count() > kWalkLimit || t1.count() > kWalkLimit || td.count() > kWalkLimit)
    return FaultKind::TooLarge;
  // SPEC §3.9 item 2: on pool the integer ops at any width, and the general ops when all
  // three dtypes are INT32 or UINT32, compute natively.
  const auto is32 = [](uint8_t d) { return d == dt::INT32 || d == dt::UINT32; };
  const bool native = pool && (tt::int_aluop(o) || (is32(lo) && is32(hi) && is32(out)));
  const auto o0 = walk(t0, a0->offset, s0), o1 = walk(t1, a1->offset, s1),
             od = walk(td, ad->offset, sd);
  for (unsigned c = 0; c < n; ++c) {
    for (std::size_t j = 0; j < od.size(); ++j) {
      const uint32_t a = load(m, a0->space, a0->partition + c, o0[j], s0);
      const uint32_t b = load(m, a1->space, a1->partition + c, o1[j], s1);
      uint32_t r;
      if (bitvec)
        r = tt::bits(o, a, b, 8 * sd);
      else if (native)
        r = tt::wrap(tt::native(o, int_of(lo, a), int_of(hi, b)), 8 * sd);
      else
        r = from_fp32(out, tt::fp32(o, to_fp32(lo, a), to_fp32(hi, b)));
      fx.stores.push_back({ad->space, ad->partition + c, od[j], sd, r});
    }
  }
  return std::nullopt;
}

// SPEC §4.16 (Copy) and §4.17 (Cast), from the SPEC tables: 12 src (TENSOR4D), 32
// in_dtype, 33 out_dtype, 34 num_active_channels, 44 dst (TENSOR4D). The engine is an
// input (§3.9): POOL (the default) may not touch PSUM; ACT on V2 takes every element
// through FP32; otherwise equal dtypes keep the bits and other pairs go through FP32.
inline std::optional<FaultKind> copy_cast(const Machine& m, const Word& w, gpsimd::Engine engine,
                                          Effects& fx) {
  const unsigned n = w[34];
  const uint8_t in = w[32], out = w[33];
  const Tensor st = get_tensor(w, 12, 4), dtn = get_tensor(w, 44, 4);
  const unsigned isz = size_of(in), osz = size_of(out);
  const bool psum = engine != gpsimd::Engine::POOL;
  const auto src = resolve(m, st, isz, psum, false, n);
  if (!src) return FaultKind::BadAddress;
  const auto dst = resolve(m, dtn, osz, psum, true, n);
  if (!dst) return FaultKind::BadAddress;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const bool through = engine == gpsimd::Engine::ACT && m.generation() == Generation::V2;
  const auto soffs = walk(st, src->offset, isz), doffs = walk(dtn, dst->offset, osz);
  for (unsigned c = 0; c < n; ++c) {
    std::vector<uint32_t> y(soffs.size());  // every source element before any write
    for (std::size_t j = 0; j < soffs.size(); ++j) {
      const uint32_t x = load(m, src->space, src->partition + c, soffs[j], isz);
      y[j] = in == out && !through ? x : from_fp32(out, to_fp32(in, x));
    }
    for (std::size_t j = 0; j < doffs.size(); ++j)
      fx.stores.push_back({dst->space, dst->partition + c, doffs[j], osz, y[j]});
  }
  return std::nullopt;
}

}  // namespace internal

namespace ts {
inline std::optional<FaultKind> execute(const Machine& m, const Word& w, internal::Effects& fx,
                                        gpsimd::Engine engine);
}

// Executes a valid word on `m` as SPEC §4 says, on `engine` (SPEC §3.9: the instructions of
// §4.14-§4.17 take it as an input, DVE by default for TensorTensor and TensorScalar, POOL for Copy
// and Cast; the others ignore it). On a fault `m` is left unchanged.
inline Outcome execute(Machine& m, const Word& w,
                       std::optional<gpsimd::Engine> engine = std::nullopt) {
  const Events ev = get_events(w);
  if (ev.wait_mode == 1 && !(m.semaphores[ev.wait_idx] >= ev.value))
    return {FaultKind::SyncWouldBlock, {}};
  if (ev.wait_mode == 2 && m.semaphores[ev.wait_idx] != ev.value)
    return {FaultKind::SyncWouldBlock, {}};
  internal::Effects fx;
  std::optional<FaultKind> f;
  switch (w[0]) {
    case kRangeSelect:
      f = internal::range_select(m, w, fx);
      break;
    case kTensorScalarSelect:
      f = internal::tensor_scalar_select(m, w, fx);
      break;
    case kGetSequenceBounds:
      f = internal::get_sequence_bounds(m, w, fx);
      break;
    case kSort:
      f = internal::sort(m, w, fx);
      break;
    case kNonzeroWithCount:
      f = internal::nonzero_with_count(m, w, fx);
      break;
    case kCopyPredicatedScalar:
      f = internal::copy_predicated_scalar(m, w, fx);
      break;
    case kDveReadAccumulator:
      f = internal::dve_read_accumulator(m, w, fx);
      break;
    case kAffineSelect:
      f = internal::affine_select(m, w, fx);
      break;
    case kIota:
      f = internal::iota(m, w, fx);
      break;
    case kMatchValueLoad:
      f = internal::match_value_load(m, w, fx);
      break;
    case kMax8:
      f = internal::max8(m, w, fx);
      break;
    case kFindIndex8:
      f = internal::find_index8(m, w, fx);
      break;
    case kMatchReplace8:
      f = internal::match_replace8(m, w, fx);
      break;
    case kTensorTensorArith:
    case kTensorTensorBitvec:
      f = internal::tensor_tensor(m, w, fx, engine.value_or(gpsimd::Engine::DVE));
      break;
    case kTensorScalarArith:
    case kTensorScalarBitvec:
    case kTensorScalarPtrArith:
    case kTensorScalarPtrBitvec:
      f = ts::execute(m, w, fx, engine.value_or(gpsimd::Engine::DVE));
      break;
    case kCopy:
    case kCast:
      f = internal::copy_cast(m, w, engine.value_or(gpsimd::Engine::POOL), fx);
      break;
    default:
      return {};
  }
  if (f) return {f, {}};
  Outcome out;
  for (const internal::Store& s : fx.stores) {
    if (out.written.empty() || out.written.back() != std::pair{s.space, s.partition})
      out.written.emplace_back(s.space, s.partition);
    auto part = m.partition(s.space, s.partition);
    for (unsigned i = 0; i < s.size; ++i)
      part[static_cast<std::size_t>(s.offset) + i] = static_cast<uint8_t>(s.bits >> (8 * i));
  }
  for (auto [i, bits] : fx.accumulators) m.accumulators[i] = bits;
  for (const auto& [i, lane] : fx.lanes) m.match[i] = lane;
  uint32_t& sem = m.semaphores[ev.update_idx];
  if (ev.update_mode == 1) sem = ev.value;
  if (ev.update_mode == 2) sem = sem + 1u;
  if (ev.update_mode == 3) sem = sem - 1u;
  return out;
}

// ---- Word builders (field offsets of the SPEC §4 tables) --------------------------------

inline void put_header(Word& w, uint8_t opcode) {
  w = Word{};
  w[0] = opcode;
  w[1] = 0x10;
}

struct RangeSelectWord {
  Events ev;
  uint8_t channels = 1;
  uint8_t in = dt::FP32, out = dt::FP32;
  uint8_t reduce_cmd = 0, reduce_op = op::MAX;
  uint32_t base = 0;  // FP32 bits
  uint32_t fill = 0xff7fffffu;
  Tensor src{.dims = 2}, dst{.dims = 2};
  uint8_t comp_op0 = op::IS_GE, comp_op1 = op::IS_LE;
  uint8_t bound0_src = 0, bound1_src = 0;
  uint32_t bound0 = 0, bound1 = 0;
  Word encode() const {
    Word w;
    put_header(w, kRangeSelect);
    put_events(w, ev);
    w[12] = channels;
    w[13] = static_cast<uint8_t>(in | (out << 4));
    w[14] = reduce_cmd;
    w[15] = reduce_op;
    put(w, 16, 4, base);
    put(w, 20, 4, fill);
    put_tensor(w, 24, src);
    w[36] = comp_op0;
    w[37] = comp_op1;
    w[38] = bound0_src;
    w[39] = bound1_src;
    put(w, 40, 4, bound0);
    put(w, 44, 4, bound1);
    put_tensor(w, 48, dst);
    return w;
  }
};

struct TensorScalarSelectWord {
  Events ev;
  Tensor src0{.dims = 3}, dst{.dims = 3};
  uint8_t reversed_pred = 0, channels = 1;
  uint8_t dtype = dt::FP32, pred_imm_dtype = dt::INT32;
  uint8_t src1_imm_src = 0, pred_imm_src = 0;
  uint32_t src1_imm = 0, pred_imm = 1;
  Word encode() const {
    Word w;
    put_header(w, kTensorScalarSelect);
    put_events(w, ev);
    put_tensor(w, 16, src0);
    w[32] = reversed_pred;
    w[33] = channels;
    w[34] = dtype;
    w[35] = pred_imm_dtype;
    w[38] = src1_imm_src;
    w[39] = pred_imm_src;
    put(w, 40, 4, src1_imm);
    put(w, 44, 4, pred_imm);
    put_tensor(w, 48, dst);
    return w;
  }
};

struct GetSequenceBoundsWord {
  Events ev;
  uint8_t channels = 1;
  uint8_t in = dt::INT32, out = dt::INT32;
  Tensor src{.dims = 3}, dst{.dims = 3};
  Word encode() const {
    Word w;
    put_header(w, kGetSequenceBounds);
    put_events(w, ev);
    w[12] = channels;
    w[14] = in;
    w[15] = out;
    put_tensor(w, 16, src);
    put_tensor(w, 32, dst);
    return w;
  }
};

struct SortWord {
  Events ev;
  uint8_t channels = 1;
  uint8_t index_offset_src = 0;
  uint8_t dtype = dt::FP32;  // in == out
  uint8_t comparison = op::IS_LT;
  Tensor src{.dims = 1}, dst{.dims = 2};
  uint32_t index_offset = 0;
  uint8_t stable = 1;
  Word encode() const {
    Word w;
    put_header(w, kSort);
    put_events(w, ev);
    w[12] = channels;
    w[13] = index_offset_src;
    w[14] = static_cast<uint8_t>(dtype | (dtype << 4));
    w[15] = comparison;
    put_tensor(w, 16, src);
    put_tensor(w, 24, dst);
    put(w, 36, 4, index_offset);
    w[40] = stable;
    return w;
  }
};

// A DATA4D: the int32 base, four steps and four counts (SPEC §3.7).
struct Data4D {
  int32_t base = 0;
  int step[4] = {1, 0, 0, 0};
  unsigned num[4] = {1, 1, 1, 1};
  uint64_t count() const { return uint64_t{num[0]} * num[1] * num[2] * num[3]; }
};
inline void put_data4d(Word& w, unsigned off, const Data4D& d) {
  put(w, off, 4, static_cast<uint32_t>(d.base));
  for (unsigned k = 0; k < 4; ++k) {
    put(w, off + 4 + 2 * k, 2, static_cast<uint16_t>(d.step[k]));
    put(w, off + 12 + 2 * k, 2, d.num[k]);
  }
}

struct AffineSelectWord {
  Events ev;
  uint8_t channels = 1;
  uint8_t in = dt::FP32, out = dt::FP32;
  uint8_t fill_mode = 0, fill_reg = 0;
  Data4D mask;
  Tensor src{.dims = 2}, dst{.dims = 2};
  int32_t channel_multiplier = 0;
  Word encode() const {
    Word w;
    put_header(w, kAffineSelect);
    put_events(w, ev);
    w[12] = channels;
    w[13] = static_cast<uint8_t>(in | (out << 4));
    w[14] = fill_mode;
    w[15] = fill_reg;
    put_data4d(w, 16, mask);
    put_tensor(w, 36, src);
    put_tensor(w, 48, dst);
    put(w, 60, 4, static_cast<uint32_t>(channel_multiplier));
    return w;
  }
};

struct IotaWord {
  Events ev;
  Data4D pattern;
  uint8_t out = dt::INT32;
  uint8_t channels = 1;
  int32_t channel_multiplier = 0;
  Tensor dst{.dims = 4};
  Word encode() const {
    Word w;
    put_header(w, kIota);
    put_events(w, ev);
    put_data4d(w, 12, pattern);
    w[33] = out;
    w[34] = channels;
    put(w, 36, 4, static_cast<uint32_t>(channel_multiplier));
    put_tensor(w, 44, dst);
    return w;
  }
};

struct NonzeroWithCountWord {
  Events ev;
  uint8_t channels = 1;
  uint8_t in = dt::INT32, out = dt::INT32;
  uint8_t index_offset_src = 0, padding_val_src = 0;
  Tensor src{.dims = 3}, dst{.dims = 3};
  uint32_t index_offset = 0, padding_val = 0;
  Word encode() const {
    Word w;
    put_header(w, kNonzeroWithCount);
    put_events(w, ev);
    w[12] = channels;
    w[13] = in;
    w[14] = out;
    w[15] = index_offset_src;
    put_tensor(w, 16, src);
    put(w, 32, 4, index_offset);
    w[36] = padding_val_src;
    put(w, 40, 4, padding_val);
    put_tensor(w, 44, dst);
    return w;
  }
};

struct CopyPredicatedScalarWord {
  Events ev;
  Tensor pred{.dims = 3}, dst{.dims = 3};
  uint8_t pred_dtype = dt::UINT8, reversed_pred = 1, channels = 1;
  uint8_t dtype = dt::FP32;  // in == out
  uint8_t src0_imm_src = 0;
  uint32_t src0_imm = 0;
  Word encode() const {
    Word w;
    put_header(w, kCopyPredicatedScalar);
    put_events(w, ev);
    put_tensor(w, 16, pred);
    w[32] = pred_dtype;
    w[33] = reversed_pred;
    w[34] = channels;
    w[41] = dtype;
    w[42] = dtype;
    w[43] = src0_imm_src;
    put(w, 44, 4, src0_imm);
    put_tensor(w, 48, dst);
    return w;
  }
};

struct DveReadAccumulatorWord {
  Events ev;
  uint32_t dst_element_count = 1;
  uint8_t dtype = dt::FP32, negated = 0, channels = 1;
  Tensor dst{.dims = 1};
  Word encode() const {
    Word w;
    put_header(w, kDveReadAccumulator);
    put_events(w, ev);
    put(w, 28, 4, dst_element_count);
    w[32] = dtype;
    w[33] = negated;
    w[34] = channels;
    put_tensor(w, 44, dst);
    return w;
  }
};

struct MatchValueLoadWord {
  Events ev;
  Tensor src{.dims = 2};
  uint8_t dtype = dt::FP32, channels = 1;
  Word encode() const {
    Word w;
    put_header(w, kMatchValueLoad);
    put_events(w, ev);
    put_tensor(w, 16, src);
    w[32] = dtype;
    w[34] = channels;
    return w;
  }
};

// Max8 (opcode 0x6c) or FindIndex8 (0x6e): the S4D2_BN layout.
struct S4D2BnWord {
  uint8_t opcode = kMax8;
  Events ev;
  Tensor src{.dims = 4}, dst{.dims = 2};
  uint8_t in = dt::FP32, out = dt::FP32, channels = 1;
  Word encode() const {
    Word w;
    put_header(w, opcode);
    put_events(w, ev);
    put_tensor(w, 12, src);
    w[32] = in;
    w[33] = out;
    w[34] = channels;
    put_tensor(w, 48, dst);
    return w;
  }
};

struct MatchReplace8Word {
  Events ev;
  Tensor src{.dims = 4}, dst{.dims = 4};
  uint8_t in = dt::FP32, out = dt::FP32, channels = 1;
  uint32_t immediate = 0;  // FP32 bits
  Word encode() const {
    Word w;
    put_header(w, kMatchReplace8);
    put_events(w, ev);
    put_tensor(w, 12, src);
    w[32] = in;
    w[33] = out;
    w[34] = channels;
    put(w, 40, 4, immediate);
    put_tensor(w, 44, dst);
    return w;
  }
};

// TensorTensorArith (0x41) or TensorTensorBitvec (0x51): the S3S3D3_TT layout.
struct TensorTensorWord {
  uint8_t opcode = kTensorTensorArith;
  Events ev;
  uint8_t lo = dt::FP32, hi = dt::FP32, out = dt::FP32;  // src0, src1, destination dtypes
  uint8_t op = op::ADD, channels = 1;
  Tensor src0{.dims = 3}, src1{.dims = 3}, dst{.dims = 3};
  Word encode() const {
    Word w;
    put_header(w, opcode);
    put_events(w, ev);
    w[12] = static_cast<uint8_t>(lo | (hi << 4));
    w[13] = out;
    w[14] = op;
    w[15] = channels;
    put_tensor(w, 16, src0);
    put_tensor(w, 32, src1);
    put_tensor(w, 48, dst);
    return w;
  }
};

// Copy (0x46) or Cast (0x47): the S4D4_TR layout.
struct CopyCastWord {
  uint8_t opcode = kCopy;
  Events ev;
  Tensor src{.dims = 4}, dst{.dims = 4};
  uint8_t in = dt::FP32, out = dt::FP32, channels = 1;
  uint8_t negated = 0, op = 0, op_dim = 0, mask_enable = 0;
  Word encode() const {
    Word w;
    put_header(w, opcode);
    put_events(w, ev);
    put_tensor(w, 12, src);
    w[32] = in;
    w[33] = out;
    w[34] = channels;
    w[35] = negated;
    w[36] = op;
    w[37] = op_dim;
    w[38] = mask_enable;
    put_tensor(w, 44, dst);
    return w;
  }
};

// Tensor shorthands: a dense row of `n` elements, and general 1-4 dimension walks.
inline Tensor tensor1(uint32_t addr, int step0, unsigned num0) {
  return Tensor{addr, 1, {step0, 0, 0, 0}, {num0, 1, 1, 1}};
}
inline Tensor tensor2(uint32_t addr, int s0, unsigned n0, int s1, unsigned n1) {
  return Tensor{addr, 2, {s0, s1, 0, 0}, {n0, n1, 1, 1}};
}
inline Tensor tensor3(uint32_t addr, int s0, unsigned n0, int s1, unsigned n1, int s2,
                      unsigned n2) {
  return Tensor{addr, 3, {s0, s1, s2, 0}, {n0, n1, n2, 1}};
}
inline Tensor tensor4(uint32_t addr, int s0, unsigned n0, int s1, unsigned n1, int s2, unsigned n2,
                      int s3, unsigned n3) {
  return Tensor{addr, 4, {s0, s1, s2, s3}, {n0, n1, n2, n3}};
}

// ==== TensorScalar (SPEC §4.15) with its own ALU (SPEC §3.8) ===============================
//
// The FP32 ops are computed in double and rounded once to float: for +, -, * of two floats
// the double result rounded to float is the correctly rounded float result (53 >= 2*24 + 2),
// so this is an independent route to IEEE binary32 arithmetic.

namespace ts {

// ALU_OP values of SPEC §3.8.
namespace aop {
inline constexpr uint8_t BYPASS = 0x00, BITWISE_NOT = 0x01, ARITH_SHIFT_LEFT = 0x02,
                         ARITH_SHIFT_RIGHT = 0x03, ADD = 0x04, SUBTRACT = 0x05, MULT = 0x06,
                         MAX = 0x08, MIN = 0x09, BITWISE_AND = 0x0A, BITWISE_OR = 0x0B,
                         BITWISE_XOR = 0x0C, LOGICAL_AND = 0x0D, LOGICAL_OR = 0x0E,
                         LOGICAL_XOR = 0x0F, LOGICAL_SHIFT_LEFT = 0x10, LOGICAL_SHIFT_RIGHT = 0x11,
                         IS_EQ = 0x12, IS_GT = 0x13, IS_GE = 0x14, IS_LE = 0x15, IS_LT = 0x16,
                         ABSOLUTE_DIFF = 0x17, IS_NE = 0x18, ABSOLUTE_VALUE = 0x19, CRC32 = 0x1C,
                         RSQRT = 0x1D, ABS_MAX = 0x20, ABS_MIN = 0x21, RE_LU = 0x22, SQUARE = 0x23;
}  // namespace aop

inline constexpr uint32_t kNaN = 0x7FC00000u;  // every NaN an op produces (SPEC §3.8.2)

inline bool nan32(uint32_t b) {
  return (b & 0x7fffffffu) > 0x7f800000u;
}
inline uint32_t quiet(double v) {
  const uint32_t b = as_bits(static_cast<float>(v));
  return nan32(b) ? kNaN : b;
}
inline double d(uint32_t b) {
  return static_cast<double>(as_float(b));
}
// -0.0 < +0.0 for MAX and MIN (SPEC §3.8.2).
inline bool above(uint32_t a, uint32_t b) {
  if (d(a) != d(b)) return d(a) > d(b);
  return (a >> 31) < (b >> 31);  // equal values: only ±0 can differ, + is the larger
}

// op(a, b) on FP32 bit patterns (SPEC §3.8.2).
inline uint32_t fp32(uint8_t op, uint32_t a, uint32_t b) {
  const double x = d(a), y = d(b);
  const bool na = nan32(a), nb = nan32(b);
  switch (op) {
    case aop::BYPASS:
      return a;
    case aop::ADD:
      return quiet(x + y);
    case aop::SUBTRACT:
      return quiet(x - y);
    case aop::MULT:
      return quiet(x * y);
    case aop::SQUARE:
      return quiet(x * x);
    case aop::MAX:
      if (na || nb) return na && nb ? kNaN : (na ? b : a);
      return above(a, b) ? a : b;
    case aop::MIN:
      if (na || nb) return na && nb ? kNaN : (na ? b : a);
      return above(a, b) ? b : a;
    case aop::RE_LU:
      return na || x <= 0 ? 0u : a;  // NaN, -0.0 and negatives give +0.0
    case aop::IS_EQ:
      return x == y ? 0x3F800000u : 0u;
    case aop::IS_GT:
      return x > y ? 0x3F800000u : 0u;
    case aop::IS_GE:
      return x >= y ? 0x3F800000u : 0u;
    case aop::IS_LE:
      return x <= y ? 0x3F800000u : 0u;
    case aop::IS_LT:
      return x < y ? 0x3F800000u : 0u;
    case aop::IS_NE:
      return x == y ? 0u : 0x3F800000u;
    case aop::LOGICAL_AND:
      return (x != 0) && (y != 0) ? 0x3F800000u : 0u;
    case aop::LOGICAL_OR:
      return (x != 0) || (y != 0) ? 0x3F800000u : 0u;
    case aop::LOGICAL_XOR:
      return (x != 0) != (y != 0) ? 0x3F800000u : 0u;
    case aop::ABSOLUTE_DIFF: {
      const uint32_t r = quiet(x - y);
      return nan32(r) ? kNaN : r & 0x7fffffffu;
    }
    case aop::ABSOLUTE_VALUE:
      return na ? kNaN : a & 0x7fffffffu;
    case aop::ABS_MAX: {  // a when |a| > |b| (a NaN compares false), else b
      const uint32_t r = std::fabs(x) > std::fabs(y) ? a : b;
      return nan32(r) ? kNaN : r;
    }
    case aop::ABS_MIN: {
      const uint32_t r = std::fabs(x) < std::fabs(y) ? a : b;
      return nan32(r) ? kNaN : r;
    }
    default:
      std::abort();  // not an op the generators use on this path
  }
}

// op(a, b) on w-bit patterns (SPEC §3.8.2, raw bits): the count is b, unsigned; a count
// of w or more shifts every bit out.
inline uint32_t bits(uint8_t op, uint32_t a, uint32_t b, unsigned w) {
  const uint64_t mask = (uint64_t{1} << w) - 1;
  const uint64_t x = a & mask, k = b & mask;
  const bool neg = (x >> (w - 1)) & 1u;
  uint64_t r = 0;
  switch (op) {
    case aop::BYPASS:
      r = x;
      break;
    case aop::BITWISE_NOT:
      r = ~x;
      break;
    case aop::BITWISE_AND:
      r = x & k;
      break;
    case aop::BITWISE_OR:
      r = x | k;
      break;
    case aop::BITWISE_XOR:
      r = x ^ k;
      break;
    case aop::ARITH_SHIFT_LEFT:
    case aop::LOGICAL_SHIFT_LEFT:
      r = k >= w ? 0 : x << k;
      break;
    case aop::LOGICAL_SHIFT_RIGHT:
      r = k >= w ? 0 : x >> k;
      break;
    case aop::ARITH_SHIFT_RIGHT: {
      // The value as a signed w-bit integer, divided by 2^k rounding down.
      const int64_t v = neg ? static_cast<int64_t>(x) - (int64_t{1} << w) : static_cast<int64_t>(x);
      r = static_cast<uint64_t>(k >= w ? (neg ? -1 : 0) : v >> k);
      break;
    }
    default:
      std::abort();
  }
  return static_cast<uint32_t>(r & mask);
}

// SPEC §3.9 item 4 for TensorScalar: the ops the model does not run (§3.8.3: RSQRT and
// CRC32 reach execution; DIVIDE, POW, MOD do not validate) and every integer op of the V5
// arm (is_valid_int_aluop: 0xC4-0xCD and 0xCF-0xDD, §3.8), off pool.
inline bool unsupported_op(uint8_t op) {
  if (op == aop::RSQRT || op == aop::CRC32) return true;
  return (op >= 0xC4 && op <= 0xCD) || (op >= 0xCF && op <= 0xDD);
}

// SPEC §4.15. Offsets: 12 accumulator_cmd, 16 src (TENSOR3D), 32 in_dtype, 33 out_dtype,
// 34 channels, 35 imm0_src, 36 op0, 37 op1, 38 reverse, 39 imm1_src, 40 imm0, 44 imm1,
// 48 dst (TENSOR3D).
inline std::optional<FaultKind> execute(const Machine& m, const Word& w, internal::Effects& fx,
                                        gpsimd::Engine engine) {
  const uint8_t opcode = w[0];
  const bool bitvec = opcode == kTensorScalarBitvec || opcode == kTensorScalarPtrBitvec;
  const bool pointer = opcode == kTensorScalarPtrArith || opcode == kTensorScalarPtrBitvec;
  const uint8_t op0 = w[36], op1 = w[37], rev = w[38];
  if (engine != gpsimd::Engine::DVE) return FaultKind::UnsupportedOp;
  if (unsupported_op(op0) || unsupported_op(op1)) return FaultKind::UnsupportedOp;
  const unsigned n = w[34];
  const uint8_t din = w[32], dout = w[33];
  const unsigned isz = size_of(din), osz = size_of(dout);
  const Tensor st = get_tensor(w, 16, 3), dtn = get_tensor(w, 48, 3);
  const auto src = internal::resolve(m, st, isz, true, false, n);
  const auto dst = internal::resolve(m, dtn, osz, true, true, n);
  const unsigned width = bitvec ? isz : 4;  // an FP32 for the arithmetic opcodes
  const auto s0 = internal::resolve_imm(m, pointer ? 1 : w[35], get(w, 40, 4), width, true, n);
  const auto s1 = internal::resolve_imm(m, pointer ? 1 : w[39], get(w, 44, 4), width, true, n);
  if (!src || !dst || !s0 || !s1) return FaultKind::BadAddress;
  if ((st.register_mode() || dtn.register_mode()) && st.count() != dtn.count())
    return FaultKind::ShapeMismatch;
  if (st.count() > internal::kWalkLimit || dtn.count() > internal::kWalkLimit)
    return FaultKind::TooLarge;
  const bool rev0 = rev == 1 || rev == 3, rev1 = rev == 2 || rev == 3;
  const auto soffs = walk(st, src->offset, isz), doffs = walk(dtn, dst->offset, osz);
  for (unsigned c = 0; c < n; ++c) {
    const uint32_t a = s0->at(m, c), b = s1->at(m, c);
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      const uint32_t raw = internal::load(m, src->space, src->partition + c, soffs[j], isz);
      uint32_t r;
      if (bitvec) {
        const unsigned wbits = 8 * isz;
        const uint32_t t = op0 == aop::BYPASS ? raw
                           : rev0             ? bits(op0, a, raw, wbits)
                                              : bits(op0, raw, a, wbits);
        r = op1 == aop::BYPASS ? t : rev1 ? bits(op1, b, t, wbits) : bits(op1, t, b, wbits);
      } else {
        const uint32_t x = to_fp32(din, raw);
        const uint32_t t = op0 == aop::BYPASS ? x : rev0 ? fp32(op0, a, x) : fp32(op0, x, a);
        r = from_fp32(dout, op1 == aop::BYPASS ? t : rev1 ? fp32(op1, b, t) : fp32(op1, t, b));
      }
      fx.stores.push_back({dst->space, dst->partition + c, doffs[j], osz, r});
    }
  }
  return std::nullopt;
}

// The word (SPEC §4.15 offsets).
struct TensorScalarWord {
  uint8_t opcode = kTensorScalarArith;
  Events ev;
  uint8_t accumulator_cmd = 0;
  Tensor src{.dims = 3}, dst{.dims = 3};
  uint8_t in = dt::FP32, out = dt::FP32, channels = 1;
  uint8_t imm0_src = 0, op0 = aop::BYPASS, op1 = aop::BYPASS, reverse = 0, imm1_src = 0;
  uint32_t imm0 = 0, imm1 = 0;
  Word encode() const {
    Word w;
    put_header(w, opcode);
    put_events(w, ev);
    w[12] = accumulator_cmd;
    put_tensor(w, 16, src);
    w[32] = in;
    w[33] = out;
    w[34] = channels;
    w[35] = imm0_src;
    w[36] = op0;
    w[37] = op1;
    w[38] = reverse;
    w[39] = imm1_src;
    put(w, 40, 4, imm0);
    put(w, 44, 4, imm1);
    put_tensor(w, 48, dst);
    return w;
  }
};

}  // namespace ts

}  // namespace refmodel
