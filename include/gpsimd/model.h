// Every model-defined choice of SPEC.md (its **[model]** tags) in one place, so that
// each is easy to find and to change when better evidence appears.
//
// Choices that are plain numbers live here as constants; choices that are rules live
// here as small functions that the instructions call. Geometry taken from public
// documentation lives in types.h.
#pragma once

#include <bit>
#include <cstdint>
#include <string_view>

namespace gpsimd::model {

// SPEC §2: SBUF bytes per partition on V4 and V5 (32 MiB / 128). V2/V3 are public.
inline constexpr unsigned kSbufPartitionBytesV4V5 = 256 * 1024;
// SPEC §2: 256 semaphores (the driver exposes 256 per core).
inline constexpr unsigned kSemaphores = 256;

// SPEC §3.6: an operand walk of more than 2^24 elements per channel faults `too-large`.
inline constexpr uint64_t kWalkLimit = uint64_t{1} << 24;

// SPEC §3.6: start_addr_active_channels is start_partition + n <= 128 (the hardware's
// quadrant rules are not public).
inline constexpr unsigned kMaxPartitionEnd = 128;

// SPEC §4 execution rule: the order in which faults are looked for.
//   validate -> wait (sync-would-block) -> resolve (bad-address)
//   -> register-mode shapes (shape-mismatch) -> walk limit (too-large) -> read -> write.

// SPEC §4.1: reduce_cmd IDLE leaves the accumulator unchanged (see range_select.cc).

// SPEC §4.1: the maximum used by RangeSelect's reduce. NaN operands are ignored (IEEE
// maxNum); -0.0 counts as less than +0.0; when every operand is NaN the result is
// kAllNanMax. MaxFold folds operands one at a time.
inline constexpr uint32_t kAllNanMax = 0x7FC00000u;
class MaxFold {
 public:
  void add(uint32_t fp32_bits) {
    if ((fp32_bits & 0x7fffffffu) > 0x7f800000u) return;  // NaN: ignored
    if (!have_ || greater(fp32_bits, best_)) best_ = fp32_bits;
    have_ = true;
  }
  uint32_t result() const { return have_ ? best_ : kAllNanMax; }

  // a > b for non-NaN FP32 patterns, with -0.0 < +0.0 (a total order on the bits).
  static bool greater(uint32_t a, uint32_t b) { return order_key(a) > order_key(b); }

 private:
  static uint32_t order_key(uint32_t bits) { return (bits >> 31) ? ~bits : (bits | 0x80000000u); }
  bool have_ = false;
  uint32_t best_ = 0;
};

// SPEC §3.8.2, the ALU's FP32 path: every NaN an op produces (from a NaN operand, inf - inf,
// 0 * inf, MAX of two NaNs, |NaN|, an ABS_MAX that returns a NaN operand) is this default
// NaN; only BYPASS passes a NaN's bits. Subnormal inputs and results are kept (no flush).
inline constexpr uint32_t kAluNaN = 0x7FC00000u;
// SPEC §3.8.2: MAX and MIN are maxNum / minNum: a NaN operand is ignored, two NaNs give
// kAluNaN, and -0.0 < +0.0 (the order of MaxFold::greater, below). RE_LU is MAX(a, +0.0),
// so RE_LU(NaN) = RE_LU(-0.0) = +0.0. A compare with a NaN operand gives 0.0, IS_NE 1.0;
// ABS_MAX and ABS_MIN with a NaN operand return the other operand b (the comparison is
// false). fp32_greater is that order on non-NaN patterns.
bool fp32_greater(uint32_t a, uint32_t b);
// SPEC §3.8.2, the raw-bits path: a shift count is the right operand read as an unsigned
// w-bit integer (a "negative" count is a large one), and a count >= w shifts every bit
// out: 0, or w copies of the sign bit for ARITH_SHIFT_RIGHT (numpy's rule).
inline constexpr bool alu_shift_out(uint32_t count, unsigned width) {
  return count >= width;
}

// SPEC §3.9, TensorTensor (§4.14) [model]: what runs where is a rule of the op files.
// Item 4 (a valid word faults unsupported-op on act, for an op of §3.8.3, for INT64/UINT64
// operands, and for an is_valid_int_aluop op off pool) is unsupported_reason in
// src/ops/tensor_tensor.cc; item 2 (on pool, the integer ops at any width and the general
// ops on three 32-bit integer dtypes take the native integer path, every other 0x41
// element the FP32 path) is arith_datapath in src/ops/tensor_tensor_arith.cc.

// SPEC §4.3: GetSequenceBounds compares FP32 ids by IEEE equality: a NaN equals nothing
// (each NaN is a one-element segment) and -0.0 equals 0, so it is padding.
inline bool seq_ids_equal_fp32(uint32_t a, uint32_t b) {
  return std::bit_cast<float>(a) == std::bit_cast<float>(b);
}
inline bool seq_id_is_padding_fp32(uint32_t a) {
  return std::bit_cast<float>(a) == 0.0f;
}

inline bool fp32_greater(uint32_t a, uint32_t b) {
  return MaxFold::greater(a, b);
}

// SPEC §4.4: Sort's order. Integers compare signed or unsigned per dtype; floats by IEEE
// value with -0.0 == +0.0, every NaN above +inf and all NaNs equal. Ties come out in
// increasing original position (for stable = 0 too: it is one legal order).
// sort_key maps a float's bits (width 16 or 32, BF16/FP16/FP32) to an unsigned key of
// the same order. Per dtype: src/atoms/sort_key.h, which names the vector twins.
inline uint32_t sort_key_float(uint32_t bits, unsigned exp_bits, unsigned width) {
  const uint32_t sign = 1u << (width - 1);
  const uint32_t mag_mask = sign - 1;
  const unsigned man_bits = width - 1 - exp_bits;
  const uint32_t inf = ((1u << exp_bits) - 1) << man_bits;
  const uint32_t mag = bits & mag_mask;
  if (mag > inf) return ~0u;  // any NaN: above everything, all equal
  if (mag == 0) return sign;  // -0.0 folds onto +0.0
  return (bits & sign) ? (sign - mag) : (sign + mag);
}
inline uint32_t sort_key_int(uint32_t bits, unsigned width, bool is_signed) {
  return is_signed ? (bits ^ (1u << (width - 1))) : bits;
}

// SPEC §4.4: top-K (dst.num_elem[1] = K < N) is accepted unless validation is strict.
inline constexpr bool kTopKAllowedByDefault = true;

// SPEC §3.7: the ramp base + Σ i[d] * step_elem[d] + c * channel_multiplier is computed
// in 32-bit two's complement with wrap-around (the exact sum modulo 2^32, read back in
// [-2^31, 2^31)). Ramp (machine.h) adds with ramp_add only.
inline constexpr uint32_t ramp_add(uint32_t a, uint32_t b) {
  return a + b;  // unsigned: wraps modulo 2^32
}
inline constexpr int32_t ramp_value(uint32_t bits) {
  return static_cast<int32_t>(bits);
}

// SPEC §4.5: AffineSelect's predicate for fill_mode (AFFINE_SELECT_CMP: GT 0, GE 1,
// EQ 2, NE 3; validation rejects every other code).
inline constexpr bool affine_select_pred(uint8_t fill_mode, int32_t m) {
  switch (fill_mode) {
    case 0:
      return m > 0;
    case 1:
      return m >= 0;
    case 2:
      return m == 0;
    default:
      return m != 0;
  }
}

// SPEC §4.5 cvt(x, lo, hi) [nki][model] is SPEC §5.1's cast, and cvt_fp32 its second
// half: format.h's convert() and from_fp32(), the one conversion piece.
// SPEC §4.6 cvt_iota [model]: an integer out_dtype keeps the low 8*size bits of the
// two's-complement value (format.h's int_low_bits); a float one goes through FP32 (RNE),
// then §5 (rounding twice for BF16/FP16/FP8): the INT32 row of §5.1. Defined in
// src/format/format.cc on the conversion piece.
uint32_t iota_convert(uint8_t out_dtype, int32_t v);

// SPEC §3.9 item 3, §4.16, §4.17 [nki][model]: Copy and Cast on the ACT engine of V2 take
// every element through FP32, equal dtypes included (the two halves of §5.1 apart); every
// other engine and generation uses §5.1's cast. `version`: the generation's number.
inline constexpr bool act_copies_through_fp32(unsigned version) {
  return version == 2;
}

// SPEC §4.18 [re][model]: Memset's set_value is the destination dtype's bit pattern in
// its low size(dtype) bytes; no conversion happens. `size`: the dtype's byte size.
inline constexpr uint32_t memset_pattern(uint32_t set_value, unsigned size) {
  return size >= 4 ? set_value : set_value & ((uint32_t{1} << (8 * size)) - 1);
}

// SPEC §4.19 [model]: is_valid_tensor_reduce_int_op is the integer band 0xC4-0xE1 (of it,
// the enumerators of the generation), is_argmax_argmin_int_op its top 0xDE-0xE1.
inline constexpr bool is_valid_tensor_reduce_int_op(uint8_t op) {
  return op >= 0xC4 && op <= 0xE1;
}
inline constexpr bool is_argmax_argmin_int_op(uint8_t op) {
  return op >= 0xDE && op <= 0xE1;
}
// SPEC §4.19, §3.9 item 4 [model]: the reductions that run (NKI's legal tensor_reduce
// ops); every other valid op faults unsupported-op. The ALU_OP codes of SPEC §3.8.
inline constexpr uint8_t kReduceArithOps[] = {
    0x04, 0x05, 0x06, 0x08, 0x09,  // ADD, SUBTRACT, MULT, MAX, MIN
    0x0D, 0x0E, 0x0F,              // LOGICAL_AND, LOGICAL_OR, LOGICAL_XOR
};
inline constexpr uint8_t kReduceBitvecOps[] = {0x0A, 0x0B, 0x0C};  // BITWISE_AND, _OR, _XOR
// SPEC §4.19 [model]: init(op, x), the accumulator a group starts from (its first element
// in walk order, as FP32): for LOGICAL_AND/OR/XOR the truth value of x (1.0 or 0.0; ±0.0
// false, NaN true); for every other op x, a NaN replaced by the default NaN 0x7FC00000.
inline constexpr uint32_t reduce_init(uint8_t op, uint32_t x) {
  const bool nan = (x & 0x7fffffffu) > 0x7f800000u;
  if (op >= 0x0D && op <= 0x0F) return (x & 0x7fffffffu) != 0 ? 0x3f800000u : 0u;
  return nan ? 0x7fc00000u : x;
}
// SPEC §4.19 [nki][model]: negated multiplies the reduced FP32 value by -1.0 (an FP32
// MULT of §3.8.2: a NaN stays 0x7FC00000, +0.0 becomes -0.0), before from_fp32.
inline constexpr uint32_t kReduceNegateFactor = 0xbf800000u;

// SPEC §4.2, §4.12: a predicate element (an integer of its dtype's width) is true when any
// of its bits is set, so 0x8000 and 0x80000000 (the bits of -0.0) are true.
inline bool predicate_true(uint32_t bits) {
  return bits != 0;
}

// SPEC §4.11: NonzeroWithCount processes only the channels c with c % 16 == 0 (one per
// GpSimd core), c counted from the operands' start partitions; the others read and
// write nothing (their operands are still checked).
inline constexpr unsigned kNonzeroChannelStride = 16;
inline bool nonzero_channel_processed(unsigned c) {
  return c % kNonzeroChannelStride == 0;
}
// SPEC §4.11: INT32 is nonzero when any bit is set; FP32 when IEEE x != 0: +0.0 and -0.0
// are zero, every NaN, infinity and subnormal is nonzero.
inline bool nonzero_int32(uint32_t bits) {
  return bits != 0;
}
inline bool nonzero_fp32(uint32_t bits) {
  return (bits & 0x7fffffffu) != 0;
}
// SPEC §4.11: an index is (j + index_offset) modulo 2^32, written as INT32.
inline uint32_t nonzero_index(uint64_t j, uint32_t index_offset) {
  return static_cast<uint32_t>(j) + index_offset;
}

// SPEC §4.13: DveReadAccumulator's channel c reads the accumulator of partition
// dst start + c; `negated` flips the sign bit (NaN and ±0 too); the accumulators are not
// changed.
inline uint32_t read_accumulator_value(uint32_t acc_bits, bool negated) {
  return negated ? acc_bits ^ 0x80000000u : acc_bits;
}

// SPEC §2: a fresh search lane is the state MatchValueLoad leaves after loading eight
// +0.0 keys (see MatchLane in machine.h: mv 0, matched 0, idx 0xFFFFFFFF).

// SPEC §4.7: MatchValueLoad's walk ordinal k loads slot 7 - k, and re-arms the lane
// (matched all false, idx all 0xFFFFFFFF).
inline constexpr unsigned match_value_slot(unsigned k) {
  return 7 - k;
}

// SPEC §4.8: Max8 orders non-NaN FP32 values by value with -0.0 < +0.0 (the order of
// MaxFold::greater; this key is increasing in it), leaves NaNs out, and fills the low
// end with -inf when fewer than 8 values remain. Vector twin: kernels/convert-inl.h's MaxKeys.
inline constexpr uint32_t max8_order_key(uint32_t bits) {
  return (bits >> 31) ? ~bits : (bits | 0x80000000u);
}
inline constexpr bool max8_is_nan(uint32_t bits) {
  return (bits & 0x7fffffffu) > 0x7f800000u;
}
inline constexpr uint32_t kMax8Fill = 0xff800000u;  // -inf

// SPEC §4.9: the match core's equality is IEEE FP32 equality (a NaN equals nothing,
// -0.0 == +0.0). Matched flags persist until the next MatchValueLoad.
inline bool match_equal(uint32_t element_fp32, uint32_t match_value_fp32) {
  return std::bit_cast<float>(element_fp32) == std::bit_cast<float>(match_value_fp32);
}
// SPEC §4.9: FindIndex8 writes idx modulo 2^(8 * size): the low bits of the u32 index
// (format.h's int_low_bits), so a key not found reads 0xFFFF as UINT16.

// SPEC §4.24: TensorScalarCacheCumulative computes every op on the FP32 path of §3.8,
// integer data included (the RE's widened integer accumulator is not followed), and carries
// the FP32 running value unrounded (see tensor_scalar.cc). An INT32 (0x8) or UINT32 (0x9)
// out_dtype validates (the vendor clause checks in_dtype only) and then faults
// unsupported-op, before anything is resolved: NKI rules both out as outputs.
inline constexpr bool cumulative_out_unsupported(uint8_t out_dtype_code) {
  return out_dtype_code == 0x08 || out_dtype_code == 0x09;
}
// SPEC §4.20: TensorTensorScan carries the FP32 result r of ordinal j to ordinal j + 1, its
// 32 bits as they are (-0.0 and a BYPASS NaN payload included), not dst[j] rounded to
// out_dtype nor r rounded to src0's dtype.
inline constexpr uint32_t scan_carry(uint32_t r_fp32) {
  return r_fp32;
}
// SPEC §4.20, §4.21, §4.25: the S2S2D2_STT instructions resolve imm0 (a register pointer's
// faults included) whatever op0 is, as TensorScalar's immediates (§4.15).
// SPEC §4.21: s2s2d2_stt_quadrant_check (the vendor's NEURON-3759 "same SBUF quadrant"
// clause, whose body is not public) holds for every word.
inline constexpr bool stt_quadrant_check_holds() {
  return true;
}
// SPEC §4.21: ScalarTensorTensorBitvec (0x9e) validates, then faults unsupported-op (after
// the wait, before anything is resolved): nothing public says what it computes.
inline constexpr bool kScalarTensorTensorBitvecRuns = false;
// SPEC §4.25: SelectReduce on V2 validates, then faults unsupported-op (AWS's kernels avoid
// it on Trn1). `version`: the generation's number.
inline constexpr bool select_reduce_runs_on(unsigned version) {
  return version != 2;
}
// SPEC §2 rule 1: channel c of an accumulator writer uses acc[data start partition + c],
// the data operand's resolved start partition (ScalarTensorTensorArith: src0;
// SelectReduce: src1, on_true).
inline constexpr unsigned accumulator_index(unsigned data_start_partition, unsigned c) {
  return data_start_partition + c;
}
// SPEC §4.21: ScalarTensorTensorArith's ZERO_ACCUMULATE starts its sum (rule
// accumulate-order, below) from +0.0; ACCUMULATE from the accumulator's bits as they are.
inline constexpr uint32_t kAccumulateSumStart = 0x00000000u;
// SPEC §4.25: SelectReduce's ZERO_ACCUMULATE starts its MAX from -inf (an all-NaN row
// leaves -inf); ACCUMULATE from the accumulator's bits as they are.
inline constexpr uint32_t kSelectReduceMaxStart = 0xff800000u;
// SPEC §4.25: SelectReduce's reverse_operands FIRST negates the predicate (NKI's
// reverse_pred; a logical NOT of the any-bit-set truth of predicate_true).
inline constexpr bool select_reduce_selects(bool predicate, bool reverse_first) {
  return predicate != reverse_first;
}

// ---- floating-point orders that are not public (SPEC §7 "model_rules") ------------------
// Where a result depends on an order the hardware does not publish, SPEC names one rule,
// stated once; a conformance vector whose expected state rests on it lists the rule's name
// under "model_rules". Each rule is one sequential fold in walk order, one FP32 rounding
// per step:
//   reduce-order      SPEC §4.19, TensorReduceArith: acc = v[0], then acc = op(acc, v[i]).
//   accumulate-order  SPEC §4.21, ScalarTensorTensorArith's accumulator sum:
//                     acc = ((start + r[0]) + r[1]) + ... (start +0.0 or the old value).
//   cumulative-order  SPEC §4.24, TensorScalarCacheCumulative: reg = op1(op0(x, s0), reg)
//                     one ordinal at a time.
// The op files apply them through these names; `explain` and the trace say when a word's
// result depends on one.
enum class OrderRule : uint8_t { Reduce, Accumulate, Cumulative };
struct OrderRuleDef {
  OrderRule rule;
  std::string_view name;     // SPEC §7's name in "model_rules"
  std::string_view section;  // where SPEC states it
  std::string_view order;    // the order, in words
};
inline constexpr OrderRuleDef kOrderRules[] = {
    {OrderRule::Reduce, "reduce-order", "SPEC §4.19",
     "each group folds left to right in walk order, from its first element, one FP32 "
     "rounding per step"},
    {OrderRule::Accumulate, "accumulate-order", "SPEC §4.21",
     "the results are added to the accumulator one at a time in walk order, one FP32 "
     "rounding per addition"},
    {OrderRule::Cumulative, "cumulative-order", "SPEC §4.24",
     "the running value advances one element at a time in walk order, one FP32 rounding "
     "per op"},
};
inline constexpr const OrderRuleDef& order_rule(OrderRule r) {
  return kOrderRules[static_cast<unsigned>(r)];
}
// The rule named `name` in SPEC §7's table, or nullptr.
inline constexpr const OrderRuleDef* find_order_rule(std::string_view name) {
  for (const OrderRuleDef& d : kOrderRules)
    if (d.name == name) return &d;
  return nullptr;
}

}  // namespace gpsimd::model
