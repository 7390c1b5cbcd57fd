// The expectations of `gpsimd demo` (tools/demo.cc): what each of its checks compares the
// model's results with, computed from the demo's inputs by plain loops that restate
// SPEC.md's definitions the way numpy would compute them (a tril mask, a ranking by
// selection, float32 arithmetic, rounding to nearest even). Like reference_model.h, whose
// number conversions it uses, it shares no code with the model (src/). The build runs it
// (demo_expectations.cc) on examples/demo.gpsimd's inputs, and gpsimd carries only the
// values it computed; demo_reference_test.cc checks it against reference_model.h running
// the demo's words.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "demo_layout.h"
#include "gpsimd/machine.h"
#include "reference_model.h"

namespace demoref {

using namespace gpsimd::demo;
using gpsimd::Machine;
using gpsimd::Space;
using refmodel::as_bits;
using refmodel::as_float;

// The demo's inputs, as examples/demo.gpsimd's .data and .reg directives set them (bit
// patterns of their dtypes).
struct Inputs {
  uint32_t scores[kRows][kKeys];  // FP32
  uint32_t qpos[kRows];           // FP32
  uint32_t live[kRows];           // INT16
  uint32_t logits[kRows][kExperts];
  uint32_t ids[kTokens];  // INT32
  uint32_t routed[kRoutingRows][kTokens];
  uint32_t token_list[kRoutingRows][kTokens + 1];  // the destination before the run
  uint32_t fill;                                   // FP32, register kFillRegister
  uint32_t tile[kRows][kAccCols];                  // FP32, in PSUM
};

inline uint32_t load(const Machine& m, unsigned p, uint32_t off, unsigned size,
                     Space s = Space::SBUF) {
  return refmodel::internal::load(m, s, p, off, size);
}

// Reads the inputs from a machine the demo's setup directives have run on.
inline Inputs read_inputs(const Machine& m) {
  Inputs in{};
  for (unsigned p = 0; p < kRows; ++p) {
    for (unsigned k = 0; k < kKeys; ++k) in.scores[p][k] = load(m, p, kScores + 4 * k, 4);
    in.qpos[p] = load(m, p, kQpos, 4);
    in.live[p] = load(m, p, kLive, 2);
    for (unsigned e = 0; e < kExperts; ++e) in.logits[p][e] = load(m, p, kLogits + 4 * e, 4);
    for (unsigned k = 0; k < kAccCols; ++k)
      in.tile[p][k] = load(m, p, kAcc + 4 * k, 4, Space::PSUM);
  }
  for (unsigned i = 0; i < kTokens; ++i) in.ids[i] = load(m, 0, kIds + 4 * i, 4);
  for (unsigned r = 0; r < kRoutingRows; ++r) {
    const unsigned p = kRoutingPartitions[r];
    for (unsigned t = 0; t < kTokens; ++t) in.routed[r][t] = load(m, p, kRouted + 4 * t, 4);
    for (unsigned t = 0; t <= kTokens; ++t) in.token_list[r][t] = load(m, p, kTokenList + 4 * t, 4);
  }
  in.fill = m.registers[kFillRegister];
  return in;
}

// SPEC §5.1's FP32 -> BF16: to nearest, ties to even, beyond the finite range ±inf (what
// numpy's bfloat16 does too).
inline uint32_t bf16(uint32_t fp32) {
  return refmodel::narrow(refmodel::dt::BF16, fp32);
}

// The experts of a row of logits by selection: repeatedly the largest remaining logit,
// the lowest index among equals (numpy's stable argsort of the negated row).
inline void ranked(const uint32_t (&logits)[kExperts], unsigned (&order)[kExperts]) {
  bool taken[kExperts] = {};
  for (unsigned k = 0; k < kExperts; ++k) {
    int pick = -1;
    for (unsigned e = 0; e < kExperts; ++e) {
      if (taken[e]) continue;
      if (pick < 0 || as_float(logits[e]) > as_float(logits[pick])) pick = static_cast<int>(e);
    }
    taken[pick] = true;
    order[k] = static_cast<unsigned>(pick);
  }
}

// numpy.tril(ones(kRows, kKeys), kQueryStart): query c sees key k when k - c <= 8.
inline bool tril(unsigned c, unsigned k) {
  return static_cast<int>(k) - static_cast<int>(c) <= static_cast<int>(kQueryStart);
}

inline Expected expect(const Inputs& in) {
  Expected e{};
  for (unsigned p = 0; p < kRows; ++p) {
    // 1. SPEC §4.1: key k (the index base + j of its tile) passes when 0 <= k <= qpos;
    // hidden scores become fill_val (-FLT_MAX), stored as BF16; the max-reduce sees the
    // FP32 values and starts from -FLT_MAX.
    const float qpos = as_float(in.qpos[p]);
    uint32_t best = 0xff7fffffu;
    for (unsigned k = 0; k < kKeys; ++k) {
      const bool visible = static_cast<float>(k) >= 0.0f && static_cast<float>(k) <= qpos;
      const uint32_t y = visible ? in.scores[p][k] : 0xff7fffffu;
      if (as_float(y) > as_float(best)) best = y;
      e.masked[p][k] = bf16(y);
    }
    e.row_max[p] = best;
    // 2. and 8.: the ranking by selection; Sort writes the first 3 (value, index) pairs.
    unsigned order[kExperts];
    ranked(in.logits[p], order);
    for (unsigned k = 0; k < kExperts; ++k) {
      e.rank_value[p][k] = in.logits[p][order[k]];
      e.rank_index[p][k] = order[k];
    }
    for (unsigned k = 0; k < kTopK; ++k) {
      e.top_value[p][k] = e.rank_value[p][k];
      e.top_index[p][k] = e.rank_index[p][k];
    }
    // 4. live ? masked : the scalar 0.0 (BF16 0x0000), bits copied.
    for (unsigned k = 0; k < kKeys; ++k) e.blended[p][k] = in.live[p] != 0 ? e.masked[p][k] : 0;
    // 5. where(tril(...), scores, fill).
    for (unsigned k = 0; k < kKeys; ++k) e.causal[p][k] = tril(p, k) ? in.scores[p][k] : in.fill;
    // 6. The accumulator rounded to BF16.
    e.read_back[p] = bf16(e.row_max[p]);
    // 9. numpy's float32: s = scores * float32(1 / sqrt(64)); a = where(tril, s, fill);
    // a - a.max(axis=1, keepdims=True); each product and difference rounded once.
    const auto scale = static_cast<float>(1.0 / std::sqrt(kHeadDim));
    float attn[kKeys];
    float rowmax = -std::numeric_limits<float>::infinity();
    for (unsigned k = 0; k < kKeys; ++k) {
      const float s = as_float(in.scores[p][k]) * scale;
      e.scaled[p][k] = as_bits(s);
      attn[k] = tril(p, k) ? s : as_float(in.fill);
      e.attn[p][k] = as_bits(attn[k]);
      rowmax = std::max(rowmax, attn[k]);
    }
    e.attn_max[p] = as_bits(rowmax);
    // 11. a.max(axis=1) again, the reduction's one result per row.
    e.reduced_max[p] = as_bits(rowmax);
    for (unsigned k = 0; k < kKeys; ++k) e.shifted[p][k] = as_bits(attn[k] - rowmax);
    // 10. The nearest BF16 of each value of the PSUM tile.
    for (unsigned k = 0; k < kAccCols; ++k) e.tile16[p][k] = bf16(in.tile[p][k]);
  }
  // 3. SPEC §4.3: a token's segment is the run of equal nonzero ids around it; padding
  // (id 0) gets start n and end -1.
  const auto n = static_cast<int32_t>(kTokens);
  for (int32_t i = 0; i < n; ++i) {
    if (in.ids[i] == 0)
      e.start[i] = n;
    else if (i > 0 && in.ids[i] == in.ids[i - 1])
      e.start[i] = e.start[i - 1];
    else
      e.start[i] = i;
  }
  for (int32_t i = n - 1; i >= 0; --i) {
    if (in.ids[i] == 0)
      e.end[i] = -1;
    else if (i < n - 1 && in.ids[i] == in.ids[i + 1])
      e.end[i] = e.end[i + 1];
    else
      e.end[i] = i + 1;
  }
  // 7. SPEC §4.11: one GpSimd core per 16 partitions runs only the first; it writes the
  // indices of the nonzero elements, -1 padding, then their count. Other rows keep what
  // they held.
  for (unsigned r = 0; r < kRoutingRows; ++r) {
    if (kRoutingPartitions[r] % 16 != 0) {
      std::copy(std::begin(in.token_list[r]), std::end(in.token_list[r]), e.tokens[r]);
      continue;
    }
    uint32_t count = 0;
    for (unsigned t = 0; t < kTokens; ++t)
      if (in.routed[r][t] != 0) e.tokens[r][count++] = t;
    for (unsigned t = count; t < kTokens; ++t) e.tokens[r][t] = 0xffffffffu;
    e.tokens[r][kTokens] = count;
  }
  // 11. nki-library's cumsum in float32: s = 1 * s + x[t] from s = 0, each step rounded
  // once (the INT32 counts are exact in FP32).
  float running = 0.0f;
  for (unsigned t = 0; t < kTokens; ++t) {
    running = 1.0f * running + static_cast<float>(static_cast<int32_t>(in.routed[0][t]));
    e.running[t] = as_bits(running);
  }
  // 12. With the wait, Max8 reads Iota's ramp 0.0 .. 15.0 and writes its 8 largest in
  // ascending slots; without it, it reads the zeros before the ramp.
  for (unsigned k = 0; k < 8; ++k) {
    e.queue_top[0][k] = as_bits(static_cast<float>(kRampLength - 8 + k));
    e.queue_top[1][k] = as_bits(0.0f);
  }
  return e;
}

}  // namespace demoref
