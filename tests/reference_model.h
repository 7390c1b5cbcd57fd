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
//
// This header holds what the instructions share (the codes, the walks, the conversions,
// the events, the word builders) and execute(); each instruction's effect is in its file
// in tests/instructions/ (a family's in the family's header there), which registers it
// (tests/instructions/registry.h).
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

// An instruction's effect: returns the fault, or fills `fx` with every write of the
// instruction. `engine` is the engine input (SPEC §3.9), nullopt for the opcode's default.
using Effect = std::optional<FaultKind> (*)(const Machine& m, const Word& w, Effects& fx,
                                            std::optional<gpsimd::Engine> engine);
// The effect of an opcode, from its file in tests/instructions/ (registry.h); null when no
// file registers it.
Effect effect_of(uint8_t opcode);

}  // namespace internal

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
  const internal::Effect effect = internal::effect_of(w[0]);
  if (effect == nullptr) return {};
  const std::optional<FaultKind> f = effect(m, w, fx, engine);
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

}  // namespace refmodel
