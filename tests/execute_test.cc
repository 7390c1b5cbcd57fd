// Execution of the instructions on hand-checked cases (SPEC §4): the worked examples,
// every dtype of every instruction, events, register-mode addresses, SBUF and PSUM,
// overlapping operands, destination walks that revisit bytes, all-or-nothing for every
// fault kind and for invalid words, the fault order, and the trace of writes.
//
// Every expected value is worked out by hand from SPEC.md (bit patterns are commented).
// Each case runs with the fast kernels and with the scalar reference path, and through
// the independent reference model; all three must give the same machine.
#include "gpsimd/execute.h"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gpsimd/machine.h"
#include "gpsimd/validate.h"
#include "instructions/tensor_scalar.h"
#include "reference_model.h"
#include "table_coverage.h"

namespace {

namespace rm = refmodel;
using gpsimd::ExecOptions;
using gpsimd::ExecResult;
using gpsimd::FaultKind;
using gpsimd::Generation;
using gpsimd::Machine;
using gpsimd::Space;
using gpsimd::Status;
using gpsimd::Word;
using rm::tensor1;
using rm::tensor2;
using rm::tensor3;
namespace dt = rm::dt;
namespace op = rm::op;

constexpr Space SBUF = Space::SBUF;
constexpr Space PSUM = Space::PSUM;
constexpr uint32_t kNegFltMax = 0xff7fffffu;
constexpr uint32_t kNegInf = 0xff800000u;
constexpr gpsimd::Engine kAllEnginesInTest[] = {gpsimd::Engine::DVE, gpsimd::Engine::POOL,
                                                gpsimd::Engine::ACT};

uint32_t f32(float f) {
  return rm::as_bits(f);
}

// ---- Machines -----------------------------------------------------------------------------
//
// Whole machines are large (tens of MiB), so the tests reuse a few of them and remember,
// per machine, which partitions may be nonzero (written by poke(), or reported written by
// the trace or the reference). Copies and cross-checks then touch only those partitions;
// the all-or-nothing checks still use the whole-state hash() and operator==.

using Key = std::pair<Space, unsigned>;

std::set<Key>& dirty(const Machine& m) {
  static std::map<const Machine*, std::set<Key>> sets;
  return sets[&m];
}

Machine& scratch(Generation g, unsigned slot) {
  static std::map<std::pair<Generation, unsigned>, std::unique_ptr<Machine>> pool;
  auto& m = pool[{g, slot}];
  if (!m) m = std::make_unique<Machine>(g);
  return *m;
}

void zero_dirty(Machine& m) {
  for (const auto& [s, p] : dirty(m))
    std::memset(m.partition(s, p).data(), 0, m.partition_bytes(s));
  dirty(m).clear();
}

// Returns a machine of generation `g` in the state of a fresh one (SPEC §2).
Machine& fresh(Generation g, unsigned slot = 0) {
  Machine& m = scratch(g, 100 + slot);
  zero_dirty(m);
  m.registers.fill(0);
  m.semaphores.fill(0);
  m.accumulators.fill(kNegInf);
  m.match.fill(gpsimd::MatchLane{});
  return m;
}

// Returns `slot`'s scratch machine holding a copy of `src`.
Machine& copy_of(const Machine& src, unsigned slot) {
  Machine& dst = scratch(src.generation(), slot);
  zero_dirty(dst);
  for (const auto& [s, p] : dirty(src)) {
    const auto from = src.partition(s, p);
    std::memcpy(dst.partition(s, p).data(), from.data(), from.size());
  }
  dirty(dst) = dirty(src);
  dst.registers = src.registers;
  dst.semaphores = src.semaphores;
  dst.accumulators = src.accumulators;
  dst.match = src.match;
  return dst;
}

// Returns true when two machines are equal: the small state everywhere, memory on the
// partitions either may have written (both are zero elsewhere).
bool same(const Machine& a, const Machine& b) {
  if (a.registers != b.registers || a.semaphores != b.semaphores ||
      a.accumulators != b.accumulators || a.match != b.match)
    return false;
  std::set<Key> keys = dirty(a);
  keys.insert(dirty(b).begin(), dirty(b).end());
  for (const auto& [s, p] : keys) {
    const auto x = a.partition(s, p), y = b.partition(s, p);
    if (std::memcmp(x.data(), y.data(), x.size()) != 0) return false;
  }
  return true;
}

// Notes the partitions an execution reports writing, and passes everything on.
class Marker : public gpsimd::TraceSink {
 public:
  Marker(const Machine& m, gpsimd::TraceSink* next) : m_(m), next_(next) {}
  void retire(const Word& w, const gpsimd::InstrDef& d) override {
    if (next_) next_->retire(w, d);
  }
  void memory(Space s, unsigned p, uint32_t off, std::span<const uint8_t> b) override {
    dirty(m_).insert({s, p});
    if (next_) next_->memory(s, p, off, b);
  }
  void accumulator(unsigned i, uint32_t before, uint32_t after) override {
    if (next_) next_->accumulator(i, before, after);
  }
  void semaphore(unsigned i, uint32_t before, uint32_t after) override {
    if (next_) next_->semaphore(i, before, after);
  }
  void match_lane(unsigned i, const gpsimd::MatchLane& before,
                  const gpsimd::MatchLane& after) override {
    if (next_) next_->match_lane(i, before, after);
  }

 private:
  const Machine& m_;
  gpsimd::TraceSink* next_;
};

// gpsimd::execute, noting what it writes.
ExecResult exec(Machine& m, const Word& w, ExecOptions opts = {}) {
  Marker marker(m, opts.trace);
  opts.trace = &marker;
  return gpsimd::execute(m, w, opts);
}

// Stores little-endian elements of `size` bytes at consecutive offsets.
void poke(Machine& m, Space s, unsigned p, uint32_t off, unsigned size,
          const std::vector<uint32_t>& vals) {
  dirty(m).insert({s, p});
  auto part = m.partition(s, p);
  for (std::size_t k = 0; k < vals.size(); ++k)
    for (unsigned i = 0; i < size; ++i)
      part[off + k * size + i] = static_cast<uint8_t>(vals[k] >> (8 * i));
}

// Returns `count` little-endian elements of `size` bytes from consecutive offsets.
std::vector<uint32_t> peek(const Machine& m, Space s, unsigned p, uint32_t off, unsigned size,
                           unsigned count) {
  const auto part = m.partition(s, p);
  std::vector<uint32_t> out(count);
  for (unsigned k = 0; k < count; ++k)
    for (unsigned i = 0; i < size; ++i)
      out[k] |= static_cast<uint32_t>(part[off + k * size + i]) << (8 * i);
  return out;
}

using V = std::vector<uint32_t>;

// Executes `w` with the fast kernels on `m`, and checks that the scalar path and the
// reference model produce the same result and the same machine.
ExecResult run(Machine& m, const Word& w, ExecOptions opts = {}) {
  Machine& scalar = copy_of(m, 0);
  Machine& ref = copy_of(m, 1);
  opts.fast = false;
  const ExecResult rs = exec(scalar, w, opts);
  opts.fast = true;
  const ExecResult rf = exec(m, w, opts);
  EXPECT_EQ(rf.status, rs.status) << rf.message() << " / " << rs.message();
  EXPECT_TRUE(same(m, scalar)) << "fast and scalar paths differ";
  if (rf.status != Status::Invalid) {
    const rm::Outcome ro = rm::execute(ref, w, opts.engine);
    dirty(ref).insert(ro.written.begin(), ro.written.end());
    EXPECT_EQ(ro.fault.has_value(), rf.status == Status::Faulted) << rf.message();
    EXPECT_TRUE(same(m, ref)) << "the reference model differs";
  }
  return rf;
}

void expect_ok(Machine& m, const Word& w, ExecOptions opts = {}) {
  const ExecResult r = run(m, w, opts);
  ASSERT_TRUE(r.ok()) << r.message();
}

// ---- RangeSelect (SPEC §4.1) ------------------------------------------------------------

// One channel, src at SBUF partition 0 offset 0x100, dst at partition 1 offset 0x200.
rm::RangeSelectWord rs_word(uint8_t in, uint8_t out, unsigned count, float base, uint8_t op0,
                            float b0, uint8_t op1, float b1, uint8_t cmd) {
  rm::RangeSelectWord x;
  x.in = in;
  x.out = out;
  x.base = f32(base);
  x.comp_op0 = op0;
  x.bound0 = f32(b0);
  x.comp_op1 = op1;
  x.bound1 = f32(b1);
  x.reduce_cmd = cmd;
  x.src = tensor2(rm::sbuf_addr(0, 0x100), 1, count, static_cast<int>(count), 1);
  x.dst = tensor2(rm::sbuf_addr(1, 0x200), 1, count, static_cast<int>(count), 1);
  return x;
}

// Encodings of 1.5, -2.0, 0.25 and of the fill -FLT_MAX as it lands in each dtype
// (beyond the finite range of every narrow format: -inf there).
struct Enc {
  uint8_t code;
  uint32_t one_half, minus_two, quarter, fill;
};
constexpr Enc kEnc[] = {
    {dt::FP32, 0x3FC00000, 0xC0000000, 0x3E800000, kNegFltMax},
    {dt::FP32R, 0x3FC00000, 0xC0000000, 0x3E800000, kNegFltMax},
    {dt::BF16, 0x3FC0, 0xC000, 0x3E80, 0xFF80},
    {dt::FP16, 0x3E00, 0xC000, 0x3400, 0xFC00},  // 0.25 = 2^-2: exponent 13
    {dt::FP8_E5, 0x3E, 0xC0, 0x34, 0xFC},        // 0 01111 10 / 1 10000 00 / 0 01101 00
    {dt::FP8_E4, 0x3C, 0xC0, 0x28, 0xF8},        // 0 0111 100 / 1 1000 000 / 0 0101 000
    {dt::FP8_E3, 0x38, 0xC0, 0x10, 0xF0},        // 0 011 1000 / 1 100 0000 / 0 001 0000
};

TEST(RangeSelect, EveryInputOutputDtypePair) {
  for (const Enc& in : kEnc) {
    if (in.code == dt::FP32R) continue;  // not an input dtype
    for (const Enc& out : kEnc) {
      SCOPED_TRACE(testing::Message() << "in " << int{in.code} << " out " << int{out.code});
      Machine& m = fresh(Generation::V3);
      const unsigned isz = rm::size_of(in.code), osz = rm::size_of(out.code);
      poke(m, SBUF, 0, 0x100, isz, {in.one_half, in.minus_two, in.quarter, in.one_half});
      // Indices 0..3; 1 <= idx <= 2 keeps j = 1, 2.
      expect_ok(m,
                rs_word(in.code, out.code, 4, 0.0f, op::IS_GE, 1.0f, op::IS_LE, 2.0f, 3).encode());
      EXPECT_EQ(peek(m, SBUF, 1, 0x200, osz, 4),
                (V{out.fill, out.minus_two, out.quarter, out.fill}));
      EXPECT_EQ(m.accumulators[0], 0x3E800000u);  // max(-FLT_MAX, -2, 0.25) = 0.25
      EXPECT_EQ(m.accumulators[1], kNegInf);
    }
  }
}

// FP32 inputs narrowed: round to nearest even, gradual underflow, overflow to inf, NaN.
TEST(RangeSelect, NarrowingRoundsToNearestEven) {
  struct Case {
    uint8_t out;
    V in, want;
  };
  const Case cases[] = {
      // 1+2^-8 tie -> 1.0; 1+3*2^-8 tie -> 1+2^-6; just above the tie; -FLT_MAX -> -inf;
      // 2^-134 tie -> 0; 1.5*2^-133 tie -> 2^-132; NaN -> canonical with sign.
      {dt::BF16,
       {0x3F808000, 0x3F818000, 0x3F808001, kNegFltMax, 0x00008000, 0x00018000, 0x7FC00001,
        0xFF800001},
       {0x3F80, 0x3F82, 0x3F81, 0xFF80, 0x0000, 0x0002, 0x7FC0, 0xFFC0}},
      // 1+2^-11 -> 1.0; 1+3*2^-11 -> 1+2^-9; 65520 -> inf; 65519 -> 65504; 2^-24; 2^-25 -> 0;
      // 1.5*2^-24 -> 2^-23; -2^-25 -> -0; -NaN.
      {dt::FP16,
       {0x3F801000, 0x3F803000, 0x477FF000, 0x477FEF00, 0x33800000, 0x33000000, 0x33C00000,
        0xB3000000, 0xFFC00000},
       {0x3C00, 0x3C02, 0x7C00, 0x7BFF, 0x0001, 0x0000, 0x0002, 0x8000, 0xFE00}},
      // 1.125 -> 1.0; 1.375 -> 1.5; 61440 -> inf; 61439 -> 57344; 2^-16; 2^-17 -> 0; NaN.
      {dt::FP8_E5,
       {0x3F900000, 0x3FB00000, 0x47700000, 0x476FFF00, 0x37800000, 0x37000000, 0x7F800001},
       {0x3C, 0x3E, 0x7C, 0x7B, 0x01, 0x00, 0x7E}},
      // 1.0625 -> 1.0; 1.1875 -> 1.25; 248 -> inf; 247 -> 240; 2^-9; -2^-10 -> -0; -NaN.
      {dt::FP8_E4,
       {0x3F880000, 0x3F980000, 0x43780000, 0x43770000, 0x3B000000, 0xBA800000, 0xFFFFFFFF},
       {0x38, 0x3A, 0x78, 0x77, 0x01, 0x80, 0xFC}},
      // 1.03125 -> 1.0; 1.09375 -> 1.125; 15.75 -> inf; 15.7 -> 15.5; 2^-6; 2^-7 -> 0; NaN.
      {dt::FP8_E3,
       {0x3F840000, 0x3F8C0000, 0x417C0000, 0x417B3333, 0x3C800000, 0x3C000000, 0x7FC00000},
       {0x30, 0x32, 0x70, 0x6F, 0x01, 0x00, 0x78}},
      // FP32 and FP32R store the bits, signalling NaN included.
      {dt::FP32, {0x7F800001, 0x00000001, kNegFltMax}, {0x7F800001, 0x00000001, kNegFltMax}},
      {dt::FP32R, {0xFF800001, 0x80000000}, {0xFF800001, 0x80000000}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int{c.out});
    Machine& m = fresh(Generation::V4);
    const auto n = static_cast<unsigned>(c.in.size());
    poke(m, SBUF, 0, 0x100, 4, c.in);
    expect_ok(m, rs_word(dt::FP32, c.out, n, 0.0f, op::IS_GE, -1.0f, op::IS_LE, 1e6f, 0).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, rm::size_of(c.out), n), c.want);
  }
}

// Narrow inputs widen exactly; a NaN keeps sign and payload and gets the quiet bit.
TEST(RangeSelect, WideningIsExactAndKeepsNaNPayloads) {
  struct Case {
    uint8_t in;
    V bits, want;
  };
  const Case cases[] = {
      // sNaN payload 1 -> 0x7FC10000; negative; min subnormal 2^-133; inf.
      {dt::BF16,
       {0x7F81, 0xFF81, 0x0001, 0x7F80},
       {0x7FC10000, 0xFFC10000, 0x00010000, 0x7F800000}},
      // -sNaN mantissa 0x101 -> 0xFFC00000 | 0x101 << 13; 2^-24; -inf.
      {dt::FP16, {0xFD01, 0x0001, 0xFC00}, {0xFFE02000, 0x33800000, kNegInf}},
      // NaN mantissa 01 -> quiet | 1 << 21; 2^-16; 57344.
      {dt::FP8_E5, {0x7D, 0x01, 0x7B}, {0x7FE00000, 0x37800000, 0x47600000}},
      // NaN mantissa 001 -> quiet | 1 << 20; 2^-9; 240.
      {dt::FP8_E4, {0x79, 0x01, 0x77}, {0x7FD00000, 0x3B000000, 0x43700000}},
      // NaN mantissa 0001 -> quiet | 1 << 19; 2^-6; 15.5.
      {dt::FP8_E3, {0x71, 0x01, 0x6F}, {0x7FC80000, 0x3C800000, 0x41780000}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int{c.in});
    Machine& m = fresh(Generation::V5);
    const auto n = static_cast<unsigned>(c.bits.size());
    poke(m, SBUF, 0, 0x100, rm::size_of(c.in), c.bits);
    expect_ok(m, rs_word(c.in, dt::FP32, n, 0.0f, op::IS_GE, 0.0f, op::IS_LT, 100.0f, 3).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, n), c.want);
  }
  // A narrow NaN through a narrow output comes out canonical.
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 2, {0x7F81, 0xFF81});
  expect_ok(m, rs_word(dt::BF16, dt::BF16, 2, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 9.0f, 0).encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 2, 2), (V{0x7FC0, 0xFFC0}));
}

// The fill is -FLT_MAX: -inf in a narrow output, -FLT_MAX in the accumulator.
TEST(RangeSelect, FillIsNegativeFltMaxAndTheAccumulatorSeesIt) {
  for (const Enc& out : kEnc) {
    SCOPED_TRACE(int{out.code});
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 0, 0x100, 4, {f32(1.0f), kNegInf, f32(7.0f)});
    // idx 0..2 with idx < 0: nothing passes.
    expect_ok(m,
              rs_word(dt::FP32, out.code, 3, 0.0f, op::IS_LT, 0.0f, op::IS_LT, 9.0f, 3).encode());
    const unsigned osz = rm::size_of(out.code);
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, osz, 3), (V{out.fill, out.fill, out.fill}));
    EXPECT_EQ(m.accumulators[0], kNegFltMax);
  }
  // A passing -inf is below the fill: the maximum is still -FLT_MAX, the BF16 output -inf.
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, {kNegInf, kNegInf});
  expect_ok(m, rs_word(dt::FP32, dt::BF16, 2, 0.0f, op::IS_EQ, 1.0f, op::IS_EQ, 1.0f, 3).encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 2, 2), (V{0xFF80, 0xFF80}));
  EXPECT_EQ(m.accumulators[0], kNegFltMax);
}

TEST(RangeSelect, ReduceModes) {
  struct Case {
    uint8_t cmd;
    uint32_t before, after;
  };
  const Case cases[] = {
      {0, 0x12345678, 0x12345678},    // IDLE: unchanged
      {2, f32(100.0f), f32(100.0f)},  // ACCUMULATE: max(100, 0.25)
      {2, f32(-1.0f), f32(0.25f)},    // ACCUMULATE: max(-1, 0.25)
      {3, f32(100.0f), f32(0.25f)},   // ZERO_ACCUMULATE: the old value does not count
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int{c.cmd});
    Machine& m = fresh(Generation::V3);
    m.accumulators[0] = c.before;
    poke(m, SBUF, 0, 0x100, 4, {f32(0.25f), f32(-3.0f)});
    expect_ok(
        m, rs_word(dt::FP32, dt::FP32, 2, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 5.0f, c.cmd).encode());
    EXPECT_EQ(m.accumulators[0], c.after);
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 2), (V{f32(0.25f), f32(-3.0f)}));
  }
}

// SPEC §4.1 max: NaNs ignored, -0 < +0, all NaN -> 0x7FC00000.
TEST(RangeSelect, MaxRulesForNaNAndSignedZero) {
  struct Case {
    uint8_t cmd;
    uint32_t acc;
    V y;
    uint32_t want;
  };
  const Case cases[] = {
      {3, 0, {0x80000000, 0x00000000}, 0x00000000}, {3, 0, {0x00000000, 0x80000000}, 0x00000000},
      {3, 0, {0x80000000, 0x80000000}, 0x80000000}, {3, 0, {0x7FC00001, f32(1.0f)}, f32(1.0f)},
      {3, 0, {0xFFFFFFFF, 0x7F800001}, 0x7FC00000}, {3, 0, {kNegInf, 0x7FC00000}, kNegInf},
      {2, 0x7FC00000, {f32(2.0f)}, f32(2.0f)},      {2, 0x00000000, {0x80000000}, 0x00000000},
      {2, 0x80000000, {0x00000000}, 0x00000000},    {2, f32(5.0f), {0x7FC00000}, f32(5.0f)},
      {2, 0x7FC12345, {0xFFC00000}, 0x7FC00000},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "acc " << std::hex << c.acc << " y0 " << c.y[0]);
    Machine& m = fresh(Generation::V3);
    m.accumulators[0] = c.acc;
    poke(m, SBUF, 0, 0x100, 4, c.y);
    const auto n = static_cast<unsigned>(c.y.size());
    expect_ok(
        m, rs_word(dt::FP32, dt::FP32, n, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 5.0f, c.cmd).encode());
    EXPECT_EQ(m.accumulators[0], c.want);
  }
}

// idx = fp32(base + j), one rounding; the comparisons are FP32 comparisons.
TEST(RangeSelect, IndexRoundingAndComparisons) {
  struct Case {
    float base;
    uint8_t op0;
    float b0;
    uint8_t op1;
    float b1;
    V pass;  // 1 where element j passes
  };
  const float nan = rm::as_float(0x7FC00000);
  const Case cases[] = {
      {0.5f, op::IS_GE, 1.0f, op::IS_LE, 2.0f, {0, 1, 0, 0}},  // idx 0.5 1.5 2.5 3.5
      // idx 8388607.5, 8388608.5 -> 8388608, 8388609.5 -> 8388610, 8388610.5 -> 8388610.
      {8388607.5f, op::IS_EQ, 8388610.0f, op::IS_EQ, 8388610.0f, {0, 0, 1, 1}},
      {8388607.5f, op::IS_EQ, 8388608.0f, op::IS_GE, 0.0f, {0, 1, 0, 0}},
      {0.0f, op::IS_GT, 0.0f, op::IS_LT, 3.0f, {0, 1, 1, 0}},
      {0.0f, op::IS_LE, 2.0f, op::IS_GE, 1.0f, {0, 1, 1, 0}},
      {0.0f, op::IS_GE, nan, op::IS_LE, 9.0f, {0, 0, 0, 0}},  // NaN compares false
      {-0.0f, op::IS_EQ, 0.0f, op::IS_LE, 9.0f, {1, 0, 0, 0}},
      {10.0f, op::IS_GE, 11.0f, op::IS_LT, 13.0f, {0, 1, 1, 0}},
      {0.0f,
       op::IS_GE,
       rm::as_float(0xff800000),
       op::IS_LT,
       rm::as_float(0x7f800000),
       {1, 1, 1, 1}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "base " << c.base << " b0 " << c.b0);
    Machine& m = fresh(Generation::V3);
    const V src = {f32(1.0f), f32(2.0f), f32(3.0f), f32(4.0f)};
    poke(m, SBUF, 0, 0x100, 4, src);
    expect_ok(m, rs_word(dt::FP32, dt::FP32, 4, c.base, c.op0, c.b0, c.op1, c.b1, 0).encode());
    V want(4);
    for (unsigned j = 0; j < 4; ++j) want[j] = c.pass[j] ? src[j] : kNegFltMax;
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 4), want);
  }
}

// Bounds per channel through a pointer and a register pointer; each channel reduces into
// the accumulator of its source partition.
TEST(RangeSelect, PointerBoundsAndPerPartitionAccumulators) {
  Machine& m = fresh(Generation::V3);
  rm::RangeSelectWord x;
  x.channels = 2;
  x.reduce_cmd = 3;
  x.src = tensor2(rm::sbuf_addr(20, 0x40), 1, 4, 4, 1);
  x.dst = tensor2(rm::sbuf_addr(60, 0x80), 1, 4, 4, 1);
  x.comp_op0 = op::IS_GE;
  x.bound0_src = 1;  // pointer: SBUF partitions 40, 41
  x.bound0 = rm::sbuf_addr(40, 0x100);
  x.comp_op1 = op::IS_LE;
  x.bound1_src = 2;  // register 9 holds a PSUM pointer: partitions 7, 8
  x.bound1 = 9;
  m.registers[9] = rm::psum_addr(7, 0x44);
  poke(m, SBUF, 40, 0x100, 4, {f32(0.0f)});
  poke(m, SBUF, 41, 0x100, 4, {f32(2.0f)});
  poke(m, PSUM, 7, 0x44, 4, {f32(0.0f)});
  poke(m, PSUM, 8, 0x44, 4, {f32(3.0f)});
  poke(m, SBUF, 20, 0x40, 4, {f32(5.0f), f32(6.0f), f32(7.0f), f32(8.0f)});
  poke(m, SBUF, 21, 0x40, 4, {f32(-5.0f), f32(-6.0f), f32(-7.0f), f32(-8.0f)});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 60, 0x80, 4, 4), (V{f32(5.0f), kNegFltMax, kNegFltMax, kNegFltMax}));
  EXPECT_EQ(peek(m, SBUF, 61, 0x80, 4, 4), (V{kNegFltMax, kNegFltMax, f32(-7.0f), f32(-8.0f)}));
  EXPECT_EQ(m.accumulators[20], f32(5.0f));
  EXPECT_EQ(m.accumulators[21], f32(-7.0f));
  EXPECT_EQ(m.accumulators[60], kNegInf);
  EXPECT_EQ(m.accumulators[61], kNegInf);
}

TEST(RangeSelect, PsumSourceAndDestination) {
  Machine& m = fresh(Generation::V3);
  rm::RangeSelectWord x = rs_word(dt::BF16, dt::FP32, 4, 0.0f, op::IS_GE, 1.0f, op::IS_LE, 3.0f, 3);
  x.src = tensor2(rm::psum_addr(3, 0x100), 1, 4, 4, 1);
  x.dst = tensor2(rm::psum_addr(5, 0x3FF0), 1, 4, 4, 1);  // the last 16 bytes of the partition
  poke(m, PSUM, 3, 0x100, 2, {0x3F80, 0x4000, 0x4040, 0x4080});  // 1 2 3 4
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, PSUM, 5, 0x3FF0, 4, 4), (V{kNegFltMax, f32(2.0f), f32(3.0f), f32(4.0f)}));
  EXPECT_EQ(m.accumulators[3], f32(4.0f));
}

// ---- TensorScalarSelect (SPEC §4.2) -----------------------------------------------------

rm::TensorScalarSelectWord tss_word(uint8_t dtype, uint8_t pdtype, unsigned count) {
  rm::TensorScalarSelectWord x;
  x.dtype = dtype;
  x.pred_imm_dtype = pdtype;
  x.src0 = tensor3(rm::sbuf_addr(2, 0x40), 1, count, 0, 1, 0, 1);
  x.dst = tensor3(rm::sbuf_addr(3, 0x80), 1, count, 0, 1, 0, 1);
  return x;
}

TEST(TensorScalarSelect, CopiesBitsForEveryDtype) {
  struct Case {
    uint8_t dtype, pdtype;
  };
  const Case cases[] = {
      {dt::INT8, dt::INT8},     {dt::UINT8, dt::UINT8},   {dt::FP8_E3, dt::INT8},
      {dt::FP8_E4, dt::UINT8},  {dt::FP8_E5, dt::INT8},   {dt::INT16, dt::INT16},
      {dt::UINT16, dt::UINT16}, {dt::BF16, dt::INT16},    {dt::FP16, dt::UINT16},
      {dt::INT32, dt::INT32},   {dt::UINT32, dt::UINT32}, {dt::FP32, dt::INT32},
  };
  for (const Case& c : cases) {
    const unsigned size = rm::size_of(c.dtype);
    // Signalling NaNs, -0, all ones: bits are copied, never converted.
    const V src = size == 1   ? V{0x7F, 0x80, 0xFF, 0x79}
                  : size == 2 ? V{0x7C01, 0x8000, 0xFFFF, 0x7F81}
                              : V{0x7F800001, 0x80000000, 0xFFFFFFFF, 0x00000001};
    const uint32_t scalar = size == 1 ? 0xA5 : (size == 2 ? 0xBEEF : 0xDEADBEEF);
    for (uint32_t pred : {0u, 1u}) {
      for (uint8_t rev : {uint8_t{0}, uint8_t{1}}) {
        SCOPED_TRACE(testing::Message()
                     << "dtype " << int{c.dtype} << " pred " << pred << " rev " << int{rev});
        Machine& m = fresh(Generation::V2);
        poke(m, SBUF, 2, 0x40, size, src);
        rm::TensorScalarSelectWord x = tss_word(c.dtype, c.pdtype, 4);
        x.pred_imm = pred;
        x.reversed_pred = rev;
        x.src1_imm = scalar;
        expect_ok(m, x.encode());
        const bool tensor = (pred != 0) != (rev != 0);
        EXPECT_EQ(peek(m, SBUF, 3, 0x80, size, 4), tensor ? src : V(4, scalar));
      }
    }
  }
}

// Per-channel predicates and scalars through pointers and register pointers; any nonzero
// predicate of the full pred_imm_dtype width is true.
TEST(TensorScalarSelect, PointerPredicatesAndScalars) {
  for (uint8_t rev : {uint8_t{0}, uint8_t{1}}) {
    SCOPED_TRACE(int{rev});
    Machine& m = fresh(Generation::V3);
    rm::TensorScalarSelectWord x = tss_word(dt::INT8, dt::UINT8, 2);
    x.channels = 3;
    x.reversed_pred = rev;
    x.pred_imm_src = 1;
    x.pred_imm = rm::sbuf_addr(7, 0x21);  // 1-byte predicates may sit at odd offsets
    x.src1_imm_src = 2;
    x.src1_imm = 12;
    m.registers[12] = rm::psum_addr(30, 0x10);  // DVE: a PSUM pointer is allowed
    poke(m, SBUF, 7, 0x21, 1, {0x00});
    poke(m, SBUF, 8, 0x21, 1, {0x01});
    poke(m, SBUF, 9, 0x21, 1, {0x80});
    for (unsigned c = 0; c < 3; ++c) {
      poke(m, PSUM, 30 + c, 0x10, 1, {0xC0 + c});
      poke(m, SBUF, 2 + c, 0x40, 1, {0x10 + c, 0x20 + c});
    }
    expect_ok(m, x.encode());
    const bool t[3] = {rev != 0, rev == 0, rev == 0};
    for (unsigned c = 0; c < 3; ++c) {
      const V want = t[c] ? V{0x10 + c, 0x20 + c} : V{0xC0 + c, 0xC0 + c};
      EXPECT_EQ(peek(m, SBUF, 3 + c, 0x80, 1, 2), want) << "channel " << c;
    }
  }
  // A 4-byte predicate whose only nonzero byte is the top one is true.
  Machine& m = fresh(Generation::V3);
  rm::TensorScalarSelectWord x = tss_word(dt::FP32, dt::INT32, 1);
  x.pred_imm_src = 2;
  x.pred_imm = 63;
  m.registers[63] = rm::sbuf_addr(100, 0x1000);
  poke(m, SBUF, 100, 0x1000, 4, {0x01000000});
  poke(m, SBUF, 2, 0x40, 4, {0x11223344});
  x.src1_imm = 0x55667788;
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 3, 0x80, 4, 1), V{0x11223344});
}

// ---- GetSequenceBounds (SPEC §4.3) ------------------------------------------------------

rm::GetSequenceBoundsWord gsb_word(uint8_t in, uint8_t out, unsigned n) {
  rm::GetSequenceBoundsWord x;
  x.in = in;
  x.out = out;
  x.src = tensor3(rm::sbuf_addr(4, 0x100), 1, n, 0, 1, 0, 1);
  x.dst = tensor3(rm::sbuf_addr(4, 0x400), 1, n, 0, 1, static_cast<int>(n), 2);
  return x;
}

V as_fp32(const std::vector<int>& v) {
  V out;
  for (int x : v) out.push_back(f32(static_cast<float>(x)));
  return out;
}
V as_int32(const std::vector<int>& v) {
  V out;
  for (int x : v) out.push_back(static_cast<uint32_t>(x));
  return out;
}

TEST(GetSequenceBounds, SpecExampleForEveryDtype) {
  const std::vector<int> ids = {0, 1, 1, 2, 2, 2, 0, 3, 3};
  const std::vector<int> starts = {9, 1, 1, 3, 3, 3, 9, 7, 7};
  const std::vector<int> ends = {-1, 3, 3, 6, 6, 6, -1, 9, 9};
  for (uint8_t in : {dt::INT32, dt::FP32}) {
    for (uint8_t out : {dt::INT32, dt::FP32}) {
      SCOPED_TRACE(testing::Message() << int{in} << " " << int{out});
      Machine& m = fresh(Generation::V3);
      poke(m, SBUF, 4, 0x100, 4, in == dt::FP32 ? as_fp32(ids) : as_int32(ids));
      expect_ok(m, gsb_word(in, out, 9).encode());
      const auto conv = out == dt::FP32 ? as_fp32 : as_int32;
      EXPECT_EQ(peek(m, SBUF, 4, 0x400, 4, 9), conv(starts));
      EXPECT_EQ(peek(m, SBUF, 4, 0x400 + 36, 4, 9), conv(ends));
    }
  }
}

// A NaN id equals nothing (its own segment); -0.0 equals 0 (padding).
TEST(GetSequenceBounds, NaNAndNegativeZeroIds) {
  Machine& m = fresh(Generation::V4);
  poke(m, SBUF, 4, 0x100, 4, {0x7FC00000, 0x7FC00000, 0x80000000, f32(2.0f), f32(2.0f)});
  expect_ok(m, gsb_word(dt::FP32, dt::INT32, 5).encode());
  EXPECT_EQ(peek(m, SBUF, 4, 0x400, 4, 10), as_int32({0, 1, 5, 3, 3, 1, 2, -1, 5, 5}));
}

// The destination walk decides where starts and ends land: here ends before starts.
TEST(GetSequenceBounds, DestinationWalkPlacesStartsAndEnds) {
  Machine& m = fresh(Generation::V5);
  rm::GetSequenceBoundsWord x = gsb_word(dt::INT32, dt::INT32, 4);
  x.dst = tensor3(rm::sbuf_addr(9, 0x810), 1, 4, 0, 1, -4, 2);  // starts at 0x810, ends 0x800
  poke(m, SBUF, 4, 0x100, 4, {5, 5, 0, 6});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 9, 0x810, 4, 4), as_int32({0, 0, 4, 3}));
  EXPECT_EQ(peek(m, SBUF, 9, 0x800, 4, 4), as_int32({2, 2, -1, 4}));
}

// ---- Sort (SPEC §4.4) -------------------------------------------------------------------

// Channels from SBUF partition 10, src at 0x100, dst (value, index) pairs at 0x800.
rm::SortWord sort_word(uint8_t dtype, uint8_t cmp, unsigned n, unsigned k, uint32_t offset) {
  rm::SortWord x;
  x.dtype = dtype;
  x.comparison = cmp;
  x.index_offset = offset;
  x.src = tensor1(rm::sbuf_addr(10, 0x100), 1, n);
  x.dst = tensor2(rm::sbuf_addr(10, 0x800), 1, 2, 2, k);
  return x;
}

// Returns the interleaved (value, index) pairs of `values` and `indices`.
V pairs(const V& values, const V& indices) {
  V out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    out.push_back(values[i]);
    out.push_back(indices[i]);
  }
  return out;
}

TEST(Sort, SpecHeaderExampleEveryDtypeBothDirections) {
  struct Enc9 {
    uint8_t code;
    uint32_t v9, v3, v5, v1;
  };
  const Enc9 encs[] = {
      {dt::INT16, 9, 3, 5, 1},
      {dt::UINT16, 9, 3, 5, 1},
      {dt::INT32, 9, 3, 5, 1},
      {dt::UINT32, 9, 3, 5, 1},
      {dt::FP16, 0x4880, 0x4200, 0x4500, 0x3C00},
      {dt::BF16, 0x4110, 0x4040, 0x40A0, 0x3F80},
      {dt::FP32, 0x41100000, 0x40400000, 0x40A00000, 0x3F800000},
  };
  for (const Enc9& e : encs) {
    for (uint8_t stable : {uint8_t{0}, uint8_t{1}}) {
      SCOPED_TRACE(testing::Message() << int{e.code} << " stable " << int{stable});
      const unsigned size = rm::size_of(e.code);
      for (uint8_t cmp : {op::IS_LT, op::IS_GT}) {
        Machine& m = fresh(Generation::V2);
        poke(m, SBUF, 10, 0x100, size, {e.v9, e.v3, e.v5, e.v1, 0, 0});
        rm::SortWord x = sort_word(e.code, cmp, 6, 6, 100);
        x.stable = stable;
        expect_ok(m, x.encode());
        const V want = cmp == op::IS_LT
                           ? pairs({0, 0, e.v1, e.v3, e.v5, e.v9}, {104, 105, 103, 101, 102, 100})
                           : pairs({e.v9, e.v5, e.v3, e.v1, 0, 0}, {100, 102, 101, 103, 104, 105});
        EXPECT_EQ(peek(m, SBUF, 10, 0x800, size, 12), want);
      }
    }
  }
}

TEST(Sort, TiesComeOutInIncreasingPosition) {
  for (uint8_t stable : {uint8_t{0}, uint8_t{1}}) {
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 10, 0x100, 4, {5, 1, 5, 1, 5});
    rm::SortWord x = sort_word(dt::INT32, op::IS_LT, 5, 5, 0);
    x.stable = stable;
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, 4, 10), pairs({1, 1, 5, 5, 5}, {1, 3, 0, 2, 4}));
    x.comparison = op::IS_GT;
    poke(m, SBUF, 10, 0x100, 4, {5, 1, 5, 1, 5});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, 4, 10), pairs({5, 5, 5, 1, 1}, {0, 2, 4, 1, 3}));
  }
}

TEST(Sort, SignedZerosAreEqual) {
  struct Case {
    uint8_t code;
    uint32_t pz, nz, minus_one;
  };
  for (const Case& c : {Case{dt::FP32, 0, 0x80000000, 0xBF800000},
                        Case{dt::FP16, 0, 0x8000, 0xBC00}, Case{dt::BF16, 0, 0x8000, 0xBF80}}) {
    const unsigned size = rm::size_of(c.code);
    for (uint8_t cmp : {op::IS_LT, op::IS_GT}) {
      SCOPED_TRACE(testing::Message() << int{c.code} << " " << int{cmp});
      Machine& m = fresh(Generation::V3);
      poke(m, SBUF, 10, 0x100, size, {c.pz, c.nz, c.minus_one, c.nz, c.pz});
      expect_ok(m, sort_word(c.code, cmp, 5, 5, 0).encode());
      const V want = cmp == op::IS_LT
                         ? pairs({c.minus_one, c.pz, c.nz, c.nz, c.pz}, {2, 0, 1, 3, 4})
                         : pairs({c.pz, c.nz, c.nz, c.pz, c.minus_one}, {0, 1, 3, 4, 2});
      EXPECT_EQ(peek(m, SBUF, 10, 0x800, size, 10), want);
    }
  }
}

TEST(Sort, NaNsAreAboveInfinityAndEqual) {
  struct Case {
    uint8_t code;
    uint32_t nan, one, ninf, nnan, pinf;
  };
  for (const Case& c : {Case{dt::FP32, 0x7FC00000, 0x3F800000, kNegInf, 0xFFC00001, 0x7F800000},
                        Case{dt::FP16, 0x7E00, 0x3C00, 0xFC00, 0xFE01, 0x7C00},
                        Case{dt::BF16, 0x7FC0, 0x3F80, 0xFF80, 0xFF81, 0x7F80}}) {
    SCOPED_TRACE(int{c.code});
    const unsigned size = rm::size_of(c.code);
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 10, 0x100, size, {c.nan, c.one, c.ninf, c.nnan, c.pinf});
    expect_ok(m, sort_word(c.code, op::IS_LT, 5, 5, 0).encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, size, 10),
              pairs({c.ninf, c.one, c.pinf, c.nan, c.nnan}, {2, 1, 4, 0, 3}));
    expect_ok(m, sort_word(c.code, op::IS_GT, 5, 5, 0).encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, size, 10),
              pairs({c.nan, c.nnan, c.pinf, c.one, c.ninf}, {0, 3, 4, 1, 2}));
  }
}

TEST(Sort, IntegersCompareSignedOrUnsigned) {
  struct Case {
    uint8_t code;
    V in, values, idx;
  };
  const Case cases[] = {
      {dt::INT16, {0xFFFF, 1, 0x8000, 0x7FFF}, {0x8000, 0xFFFF, 1, 0x7FFF}, {2, 0, 1, 3}},
      {dt::UINT16, {0xFFFF, 1, 0x8000, 0x7FFF}, {1, 0x7FFF, 0x8000, 0xFFFF}, {1, 3, 2, 0}},
      {dt::INT32,
       {0xFFFFFFFF, 1, 0x80000000, 0x7FFFFFFF},
       {0x80000000, 0xFFFFFFFF, 1, 0x7FFFFFFF},
       {2, 0, 1, 3}},
      {dt::UINT32,
       {0xFFFFFFFF, 1, 0x80000000, 0x7FFFFFFF},
       {1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF},
       {1, 3, 2, 0}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int{c.code});
    const unsigned size = rm::size_of(c.code);
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 10, 0x100, size, c.in);
    expect_ok(m, sort_word(c.code, op::IS_LT, 4, 4, 0).encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, size, 8), pairs(c.values, c.idx));
  }
}

// Index = (position + index_offset) mod 2^16 or 2^32, unsigned, for float dtypes too.
TEST(Sort, IndexOffsetWrapsAround) {
  struct Case {
    uint8_t code;
    uint32_t offset;
    V idx;  // of sorted positions 3, 2, 1, 0
  };
  const Case cases[] = {
      {dt::UINT16, 0xFFFE, {1, 0, 0xFFFF, 0xFFFE}},
      {dt::BF16, 0x12345678, {0x567B, 0x567A, 0x5679, 0x5678}},
      {dt::UINT32, 0xFFFFFFFF, {2, 1, 0, 0xFFFFFFFF}},
      {dt::FP32, 0xFFFFFFFD, {0, 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int{c.code});
    const unsigned size = rm::size_of(c.code);
    // Values decreasing by position, so the ascending order is positions 3, 2, 1, 0.
    const V in = c.code == dt::BF16   ? V{0x4040, 0x4000, 0x3F80, 0}
                 : c.code == dt::FP32 ? V{0x40400000, 0x40000000, 0x3F800000, 0}
                                      : V{3, 2, 1, 0};
    Machine& m = fresh(Generation::V4);
    poke(m, SBUF, 10, 0x100, size, in);
    expect_ok(m, sort_word(c.code, op::IS_LT, 4, 4, c.offset).encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, size, 8), pairs({in[3], in[2], in[1], in[0]}, c.idx));
  }
}

TEST(Sort, TopK) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 10, 0x100, 4, {9, 3, 5, 1, 0, 0});
  poke(m, SBUF, 10, 0x800 + 24, 4, {0xAAAAAAAA, 0xBBBBBBBB});  // just past the 3 pairs
  const Word w = sort_word(dt::INT32, op::IS_LT, 6, 3, 0).encode();
  expect_ok(m, w);
  EXPECT_EQ(peek(m, SBUF, 10, 0x800, 4, 8), (V{0, 4, 0, 5, 1, 3, 0xAAAAAAAA, 0xBBBBBBBB}));
  // Vendor-strict validation rejects top-K and changes nothing.
  const Machine& before = copy_of(m, 2);
  const ExecResult r = gpsimd::execute(m, w, ExecOptions{.strict = true});
  EXPECT_EQ(r.status, Status::Invalid);
  EXPECT_TRUE(gpsimd::has_clause(r.diagnostics, "sort_tensor_shapes_ok")) << r.message();
  EXPECT_TRUE(m == before);
}

TEST(Sort, IndexOffsetFromPointerAndRegister) {
  for (uint8_t src : {uint8_t{1}, uint8_t{2}}) {
    SCOPED_TRACE(int{src});
    Machine& m = fresh(Generation::V3);
    rm::SortWord x = sort_word(dt::UINT16, op::IS_GT, 3, 3, 0);
    x.channels = 2;
    x.index_offset_src = src;
    x.index_offset = src == 1 ? rm::sbuf_addr(50, 0x20) : 33;
    m.registers[33] = rm::sbuf_addr(50, 0x20);
    poke(m, SBUF, 50, 0x20, 4, {1000});
    poke(m, SBUF, 51, 0x20, 4, {0x0001FFFF});  // u32 offset; indices wrap mod 2^16
    poke(m, SBUF, 10, 0x100, 2, {7, 9, 8});
    poke(m, SBUF, 11, 0x100, 2, {1, 2, 3});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, 2, 6), pairs({9, 8, 7}, {1001, 1002, 1000}));
    EXPECT_EQ(peek(m, SBUF, 11, 0x800, 2, 6), pairs({3, 2, 1}, {1, 0, 0xFFFF}));
  }
}

// ---- AffineSelect (SPEC §4.5) -----------------------------------------------------------

// A dense one-row-per-channel AffineSelect: n channels from `p`, `len` elements each.
rm::AffineSelectWord as_word(uint8_t in, uint8_t out, unsigned n, unsigned p, unsigned len,
                             uint8_t mode, unsigned fill_reg) {
  rm::AffineSelectWord x;
  x.channels = static_cast<uint8_t>(n);
  x.in = in;
  x.out = out;
  x.fill_mode = mode;
  x.fill_reg = static_cast<uint8_t>(fill_reg);
  x.mask.num[0] = len;
  x.src = tensor2(rm::sbuf_addr(p, 0x1000), 1, len, 0, 1);
  x.dst = tensor2(rm::sbuf_addr(p, 0x8000), 1, len, 0, 1);
  return x;
}

// The NKI test: a 128 x 128 FP32 tile keeps col < row and fills the rest with -9984.0
// (base 0, step -1 over the columns, channel_multiplier +1, GT: m = c - j > 0).
TEST(AffineSelect, NkiUpperTriangleFill) {
  Machine& m = fresh(Generation::V3);
  rm::AffineSelectWord x = as_word(dt::FP32, dt::FP32, 128, 0, 128, 0, 5);
  x.mask.step[0] = -1;
  x.channel_multiplier = 1;
  m.registers[5] = f32(-9984.0f);
  for (unsigned c = 0; c < 128; ++c) {
    V row(128);
    for (unsigned j = 0; j < 128; ++j) row[j] = f32(static_cast<float>(c * 1000 + j) + 0.5f);
    poke(m, SBUF, c, 0x1000, 4, row);
  }
  expect_ok(m, x.encode());
  for (unsigned c = 0; c < 128; ++c) {
    V want(128);
    for (unsigned j = 0; j < 128; ++j)
      want[j] = j < c ? f32(static_cast<float>(c * 1000 + j) + 0.5f) : f32(-9984.0f);
    ASSERT_EQ(peek(m, SBUF, c, 0x8000, 4, 128), want) << "row " << c;
  }
}

TEST(AffineSelect, EveryFillModeComparesAgainstZero) {
  // base -2, step 1 over 5 elements: m = -2, -1, 0, 1, 2.
  const V src = {10, 11, 12, 13, 14};
  const uint32_t F = 0xFFFFFFFB;            // the fill register holds FP32 -5.0: INT32 -5
  const V want[4] = {{F, F, F, 13, 14},     // GT
                     {F, F, 12, 13, 14},    // GE
                     {F, F, 12, F, F},      // EQ
                     {10, 11, F, 13, 14}};  // NE
  for (uint8_t mode = 0; mode < 4; ++mode) {
    Machine& m = fresh(Generation::V2);
    rm::AffineSelectWord x = as_word(dt::INT32, dt::INT32, 1, 3, 5, mode, 63);
    x.mask.base = -2;
    m.registers[63] = f32(-5.0f);
    poke(m, SBUF, 3, 0x1000, 4, src);
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 3, 0x8000, 4, 5), want[mode]) << int{mode};
  }
}

// c counts from the operand's start partition, not from partition 0; the mask's four
// dimensions pair with a 2-D source by ordinal.
TEST(AffineSelect, ChannelIndexAndFourDimensionalMask) {
  Machine& m = fresh(Generation::V4);
  rm::AffineSelectWord x = as_word(dt::FP32, dt::FP32, 2, 40, 6, 1, 0);
  // m = -3 + 2*i0 - 1*i1 + 10*c over i0 < 3, i1 < 2 (ordinal j = i0 + 3*i1).
  x.mask.base = -3;
  x.mask.step[0] = 2;
  x.mask.step[1] = -1;
  x.mask.num[0] = 3;
  x.mask.num[1] = 2;
  x.mask.num[2] = 1;
  x.channel_multiplier = 10;
  x.src = tensor2(rm::sbuf_addr(40, 0x1000), 1, 2, 2, 3);
  x.dst = tensor2(rm::sbuf_addr(40, 0x8000), 1, 6, 0, 1);
  m.registers[0] = f32(-1.0f);
  for (unsigned c = 0; c < 2; ++c)
    poke(m, SBUF, 40 + c, 0x1000, 4, V{f32(1), f32(2), f32(3), f32(4), f32(5), f32(6)});
  expect_ok(m, x.encode());
  // Channel 0: m = -3, -1, 1, -4, -2, 0 -> GE keeps ordinals 2 and 5.
  EXPECT_EQ(peek(m, SBUF, 40, 0x8000, 4, 6),
            (V{f32(-1), f32(-1), f32(3), f32(-1), f32(-1), f32(6)}));
  // Channel 1 (partition 41): m + 10, every one >= 0.
  EXPECT_EQ(peek(m, SBUF, 41, 0x8000, 4, 6), (V{f32(1), f32(2), f32(3), f32(4), f32(5), f32(6)}));
}

// Different dtypes go through FP32: integers round to nearest even and saturate.
TEST(AffineSelect, ConversionsThroughFp32) {
  struct Case {
    uint8_t in, out;
    V src, want;
  };
  const Case cases[] = {
      // INT32 -> UINT32: negatives saturate to 0; beyond 2^24 rounds (2^31 - 1 -> 2^31).
      {dt::INT32,
       dt::UINT32,
       {0xFFFFFFFBu, 7, 0x7FFFFFFFu, 16777217},
       {0, 7, 0x80000000u, 16777216}},
      // INT32 -> INT8 saturates.
      {dt::INT32,
       dt::INT8,
       {300, 0xFFFFFED4u /* -300 */, 0xFFFFFFFFu, 127},
       {0x7F, 0x80, 0xFF, 0x7F}},
      // FP32 -> INT16: ties to even, -0.0 -> 0, NaN -> 0, +-inf -> the extremes.
      {dt::FP32, dt::INT16, {f32(2.5f), f32(3.5f), 0x80000000u, 0x7FC00001u}, {2, 4, 0, 0}},
      {dt::FP32,
       dt::INT16,
       {kNegInf, 0x7F800000u, f32(-32768.6f), f32(1e9f)},
       {0x8000, 0x7FFF, 0x8000, 0x7FFF}},
      // UINT8 -> BF16 exactly; INT16 -> FP16.
      {dt::UINT8, dt::BF16, {255, 0, 1, 128}, {0x437F, 0, 0x3F80, 0x4300}},
      {dt::INT16, dt::FP16, {0xFFFF, 2048, 2049, 0x7FFF}, {0xBC00, 0x6800, 0x6800, 0x7800}},
      // FP32 -> BF16 rounds to nearest even; BF16 -> FP32 widens exactly.
      {dt::FP32,
       dt::BF16,
       {0x3F808000u, 0x3F818000u, kNegFltMax, 0x7F800001u},
       {0x3F80, 0x3F82, 0xFF80, 0x7FC0}},
      {dt::BF16,
       dt::FP32,
       {0x3F80, 0xFF80, 0x8000, 0x7F81},
       {0x3F800000u, kNegInf, 0x80000000u, 0x7FC10000u}},
      // The same dtype is a bit copy, signalling NaN and -0.0 included.
      {dt::FP32, dt::FP32, {0x7F800001u, 0x80000000u, 1, 2}, {0x7F800001u, 0x80000000u, 1, 2}},
      // FP32 -> FP32R: the same bits.
      {dt::FP32, dt::FP32R, {0x7F800001u, 3, 4, 5}, {0x7F800001u, 3, 4, 5}},
  };
  for (const Case& k : cases) {
    Machine& m = fresh(Generation::V3);
    rm::AffineSelectWord x = as_word(k.in, k.out, 1, 9, 4, 1, 2);  // GE, m = 0, 1, 2, 3
    poke(m, SBUF, 9, 0x1000, rm::size_of(k.in), k.src);
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 9, 0x8000, rm::size_of(k.out), 4), k.want)
        << int{k.in} << " -> " << int{k.out};
  }
}

// The fill is the register's 32 bits read as FP32 and converted to the output dtype.
TEST(AffineSelect, FillRegisterIsAnFp32ConvertedToTheOutput) {
  struct Case {
    uint8_t out;
    uint32_t reg, want;
  };
  const Case cases[] = {
      {dt::FP32, 0x7F800001u, 0x7F800001u},  // NaN payload kept
      {dt::FP32R, 0xFFC01234u, 0xFFC01234u},
      {dt::BF16, 0x7F800001u, 0x7FC0},  // canonical NaN
      {dt::BF16, kNegFltMax, 0xFF80},   // -FLT_MAX -> -inf
      {dt::INT32, 0xC0F00000u /* -7.5 */, 0xFFFFFFF8u},
      {dt::UINT16, 0xC0F00000u, 0},
      {dt::FP8_E4, 0x43780000u /* 248 */, 0x78},
  };
  for (const Case& k : cases) {
    Machine& m = fresh(Generation::V5);
    const uint8_t in = k.out == dt::FP32R ? dt::FP32 : k.out;     // FP32R is output-only
    rm::AffineSelectWord x = as_word(in, k.out, 1, 0, 2, 0, 11);  // GT: m = 0, 1
    m.registers[11] = k.reg;
    poke(m, SBUF, 0, 0x1000, rm::size_of(k.out), V{1, 1});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 0, 0x8000, rm::size_of(k.out), 1), V{k.want}) << int{k.out};
  }
}

// The ramp wraps modulo 2^32 (SPEC §3.7): INT32_MAX + 1 is negative.
TEST(AffineSelect, RampWrapsAround) {
  Machine& m = fresh(Generation::V3);
  rm::AffineSelectWord x = as_word(dt::INT32, dt::INT32, 2, 0, 3, 0, 1);
  x.mask.base = 2147483646;  // 2^31 - 2, then 2^31 - 1, then -2^31
  x.channel_multiplier = 1;  // channel 1: 2^31 - 1, -2^31, -2^31 + 1
  m.registers[1] = 99;
  poke(m, SBUF, 0, 0x1000, 4, V{1, 2, 3});
  poke(m, SBUF, 1, 0x1000, 4, V{4, 5, 6});
  expect_ok(m, x.encode());
  // The fill 99 read as FP32 (a subnormal) converts to INT32 0.
  EXPECT_EQ(peek(m, SBUF, 0, 0x8000, 4, 3), (V{1, 2, 0}));
  EXPECT_EQ(peek(m, SBUF, 1, 0x8000, 4, 3), (V{4, 0, 0}));
}

// ---- Iota (SPEC §4.6) -------------------------------------------------------------------

rm::IotaWord iota_word(uint8_t out, unsigned n, unsigned p, unsigned len) {
  rm::IotaWord x;
  x.out = out;
  x.channels = static_cast<uint8_t>(n);
  x.pattern.num[0] = len;
  x.dst = rm::tensor4(rm::sbuf_addr(p, 0x400), 1, len, 0, 1, 0, 1, 0, 1);
  return x;
}

TEST(Iota, NkiExamples) {
  Machine& m = fresh(Generation::V3);
  // [0..511]: one channel, step 1 x 512.
  expect_ok(m, iota_word(dt::INT32, 1, 0, 512).encode());
  V want(512);
  for (unsigned j = 0; j < 512; ++j) want[j] = j;
  EXPECT_EQ(peek(m, SBUF, 0, 0x400, 4, 512), want);
  // [0, -1, ..., -511]: step -1.
  rm::IotaWord down = iota_word(dt::INT32, 1, 1, 512);
  down.pattern.step[0] = -1;
  expect_ok(m, down.encode());
  for (unsigned j = 0; j < 512; ++j) want[j] = static_cast<uint32_t>(-static_cast<int32_t>(j));
  EXPECT_EQ(peek(m, SBUF, 1, 0x400, 4, 512), want);
  // [[0] ... [127]] and 5 + 2p: one element per channel.
  rm::IotaWord col = iota_word(dt::INT32, 128, 0, 1);
  col.channel_multiplier = 1;
  col.dst.addr = rm::sbuf_addr(0, 0x2000);
  expect_ok(m, col.encode());
  rm::IotaWord affine = col;
  affine.pattern.base = 5;
  affine.channel_multiplier = 2;
  affine.dst.addr = rm::sbuf_addr(0, 0x2004);
  expect_ok(m, affine.encode());
  for (unsigned c = 0; c < 128; ++c)
    ASSERT_EQ(peek(m, SBUF, c, 0x2000, 4, 2), (V{c, 5 + 2 * c})) << c;
  // p + f: 128 channels, step 1 x 512, channel_multiplier 1 (FP32).
  rm::IotaWord pf = iota_word(dt::FP32, 128, 0, 512);
  pf.channel_multiplier = 1;
  pf.dst.addr = rm::sbuf_addr(0, 0x4000);
  expect_ok(m, pf.encode());
  for (unsigned c = 0; c < 128; ++c) {
    for (unsigned j = 0; j < 512; ++j) want[j] = f32(static_cast<float>(c + j));
    ASSERT_EQ(peek(m, SBUF, c, 0x4000, 4, 512), want) << c;
  }
}

// Integer outputs keep the low bits of the int32 ramp (no saturation).
TEST(Iota, IntegerOutputsKeepTheLowBits) {
  struct Case {
    uint8_t out;
    int32_t base;
    uint32_t want;
  };
  const Case cases[] = {{dt::INT8, 300, 44},
                        {dt::INT8, -1, 0xFF},
                        {dt::UINT8, 256 + 7, 7},
                        {dt::INT16, 70000, 4464},
                        {dt::UINT16, -2, 0xFFFE},
                        {dt::UINT32, -1, 0xFFFFFFFFu},
                        {dt::INT32, INT32_MIN, 0x80000000u}};
  for (const Case& k : cases) {
    Machine& m = fresh(Generation::V2);
    rm::IotaWord x = iota_word(k.out, 1, 7, 1);
    x.pattern.base = k.base;
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 7, 0x400, rm::size_of(k.out), 1), V{k.want}) << int{k.out};
  }
}

// Float outputs go through FP32 (RNE) and then round again (SPEC §4.6).
TEST(Iota, FloatOutputsRoundTwice) {
  struct Case {
    uint8_t out;
    int32_t base;
    uint32_t want;
  };
  const Case cases[] = {
      {dt::BF16, (1 << 24) + (1 << 16) + 1, 0x4B80},  // 2^24, not 2^24 + 2^17 (0x4B81)
      {dt::FP32, (1 << 24) + 1, 0x4B800000u},         // 2^24 + 1 -> 2^24 (tie to even)
      {dt::FP32, (1 << 24) + 3, 0x4B800002u},         // -> 2^24 + 4
      {dt::FP32R, -3, 0xC0400000u},
      {dt::FP16, 65520, 0x7C00},  // +inf
      {dt::FP16, -65504, 0xFBFF},
      {dt::FP8_E4, 248, 0x78},  // +inf
      {dt::FP8_E4, 240, 0x77},
      {dt::FP8_E5, -57344, 0xFB},
      {dt::FP8_E3, 17, 0x70},  // 17 -> +inf (max 15.5)
  };
  for (const Case& k : cases) {
    Machine& m = fresh(Generation::V4);
    rm::IotaWord x = iota_word(k.out, 1, 0, 1);
    x.pattern.base = k.base;
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 0, 0x400, rm::size_of(k.out), 1), V{k.want})
        << int{k.out} << " " << k.base;
  }
}

TEST(Iota, WrapAroundAndFourDimensions) {
  Machine& m = fresh(Generation::V3);
  // base 2^31 - 2, step 1 over 2, then 2^30 over 2: the sums wrap modulo 2^32.
  rm::IotaWord x = iota_word(dt::INT32, 2, 10, 1);
  x.pattern = rm::Data4D{2147483646, {1, 16384, 0, 7}, {2, 2, 1, 2}};
  x.channel_multiplier = INT32_MIN;  // channel 1 adds 2^31
  x.dst = rm::tensor4(rm::sbuf_addr(10, 0x400), 1, 2, 2, 2, 0, 1, 4, 2);
  expect_ok(m, x.encode());
  // i3 adds 7; i1 adds 16384.
  const auto v = [](int64_t e) { return static_cast<uint32_t>(static_cast<uint64_t>(e)); };
  const int64_t b = 2147483646;
  EXPECT_EQ(peek(m, SBUF, 10, 0x400, 4, 8), (V{v(b), v(b + 1), v(b + 16384), v(b + 16385), v(b + 7),
                                               v(b + 8), v(b + 16391), v(b + 16392)}));
  EXPECT_EQ(peek(m, SBUF, 11, 0x400, 4, 2), (V{v(b + 2147483648LL), v(b + 1 + 2147483648LL)}));
}

// ---- Events (SPEC §3.2) -----------------------------------------------------------------

// A one-element FP32 copy with the given events.
Word copy_word(const rm::Events& e) {
  rm::TensorScalarSelectWord x = tss_word(dt::FP32, dt::INT32, 1);
  x.ev = e;
  return x.encode();
}

TEST(Events, WaitsThatAreSatisfiedRetire) {
  struct Case {
    uint8_t mode;
    uint32_t sem, value;
  };
  for (const Case& c : {Case{1, 5, 5}, Case{1, 6, 5}, Case{1, 0x80000000, 1}, Case{1, 0, 0},
                        Case{2, 7, 7}, Case{2, 0xFFFFFFFF, 0xFFFFFFFF}}) {
    SCOPED_TRACE(testing::Message() << int{c.mode} << " " << c.sem << " " << c.value);
    Machine& m = fresh(Generation::V3);
    m.semaphores[3] = c.sem;
    poke(m, SBUF, 2, 0x40, 4, {0x12345678});
    expect_ok(m, copy_word(rm::Events{c.mode, 3, 0, 0, c.value}));
    EXPECT_EQ(peek(m, SBUF, 3, 0x80, 4, 1), V{0x12345678});
    EXPECT_EQ(m.semaphores[3], c.sem);
  }
}

TEST(Events, WaitsThatCannotBeSatisfiedFaultAndChangeNothing) {
  struct Case {
    uint8_t mode;
    uint32_t sem, value;
  };
  // Unsigned comparisons: 0x7FFFFFFF < 0x80000000.
  for (const Case& c :
       {Case{1, 4, 5}, Case{1, 0x7FFFFFFF, 0x80000000}, Case{2, 8, 7}, Case{2, 6, 7}}) {
    SCOPED_TRACE(testing::Message() << int{c.mode} << " " << c.sem << " " << c.value);
    Machine& m = fresh(Generation::V3);
    m.semaphores[3] = c.sem;
    m.semaphores[4] = 10;
    poke(m, SBUF, 2, 0x40, 4, {0x12345678});
    const Machine& before = copy_of(m, 2);
    const ExecResult r = run(m, copy_word(rm::Events{c.mode, 3, 2, 4, c.value}));
    ASSERT_EQ(r.status, Status::Faulted);
    EXPECT_EQ(r.fault->kind, FaultKind::SyncWouldBlock);
    EXPECT_TRUE(m == before);
  }
}

TEST(Events, UpdatesAfterRetiring) {
  struct Case {
    uint8_t mode, idx;
    uint32_t value, before, after;
  };
  const Case cases[] = {
      {1, 200, 0xCAFEBABE, 17, 0xCAFEBABE},  // SET
      {2, 255, 0, 41, 42},                   // INC
      {2, 255, 0, 0xFFFFFFFF, 0},            // INC wraps
      {3, 0, 0, 42, 41},                     // DEC
      {3, 0, 0, 0, 0xFFFFFFFF},              // DEC wraps
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << int{c.mode} << " " << c.before);
    Machine& m = fresh(Generation::V2);
    m.semaphores[c.idx] = c.before;
    expect_ok(m, copy_word(rm::Events{0, 0, c.mode, c.idx, c.value}));
    EXPECT_EQ(m.semaphores[c.idx], c.after);
  }
  // Wait and update on one semaphore: the wait sees the old value, then INC.
  Machine& m = fresh(Generation::V3);
  m.semaphores[4] = 9;
  expect_ok(m, copy_word(rm::Events{2, 4, 2, 4, 9}));
  EXPECT_EQ(m.semaphores[4], 10u);
  // The shared value: wait GE 5 on semaphore 1, SET semaphore 2 to 5.
  m.semaphores[1] = 6;
  expect_ok(m, copy_word(rm::Events{1, 1, 1, 2, 5}));
  EXPECT_EQ(m.semaphores[1], 6u);
  EXPECT_EQ(m.semaphores[2], 5u);
}

// ---- Register-mode addresses (SPEC §3.4) --------------------------------------------------

TEST(RegisterMode, EachInstructionUsesTheAddressItsRegisterHolds) {
  Machine& m = fresh(Generation::V3);
  // TensorScalarSelect: src0 from register 5 (SBUF), dst from register 6 (PSUM).
  rm::TensorScalarSelectWord t = tss_word(dt::FP32, dt::INT32, 2);
  t.src0.addr = rm::reg_addr(5);
  t.dst.addr = rm::reg_addr(6);
  m.registers[5] = rm::sbuf_addr(70, 0x1230);
  m.registers[6] = rm::psum_addr(71, 0x100);
  poke(m, SBUF, 70, 0x1230, 4, {0x11, 0x22});
  expect_ok(m, t.encode());
  EXPECT_EQ(peek(m, PSUM, 71, 0x100, 4, 2), (V{0x11, 0x22}));

  // Sort: src and dst from registers 0 and 63.
  rm::SortWord s = sort_word(dt::INT16, op::IS_LT, 3, 3, 0);
  s.src.addr = rm::reg_addr(0);
  s.dst.addr = rm::reg_addr(63);
  m.registers[0] = rm::sbuf_addr(90, 0x2000);
  m.registers[63] = rm::sbuf_addr(91, 0x3000);
  poke(m, SBUF, 90, 0x2000, 2, {0xFFFE, 4, 0});  // -2 4 0
  expect_ok(m, s.encode());
  EXPECT_EQ(peek(m, SBUF, 91, 0x3000, 2, 6), pairs({0xFFFE, 0, 4}, {0, 2, 1}));

  // GetSequenceBounds: dst from register 7.
  rm::GetSequenceBoundsWord g = gsb_word(dt::INT32, dt::INT32, 3);
  g.dst.addr = rm::reg_addr(7);
  m.registers[7] = rm::sbuf_addr(92, 0x10);
  poke(m, SBUF, 4, 0x100, 4, {8, 8, 9});
  expect_ok(m, g.encode());
  EXPECT_EQ(peek(m, SBUF, 92, 0x10, 4, 6), as_int32({0, 0, 2, 2, 2, 3}));

  // RangeSelect: src from register 8 (PSUM), base + count checked at execution.
  rm::RangeSelectWord r = rs_word(dt::FP32, dt::FP32, 2, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 9.0f, 3);
  r.src.addr = rm::reg_addr(8);
  m.registers[8] = rm::psum_addr(93, 0x20);
  poke(m, PSUM, 93, 0x20, 4, {f32(1.0f), f32(2.0f)});
  expect_ok(m, r.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 2), (V{f32(1.0f), f32(2.0f)}));
  EXPECT_EQ(m.accumulators[93], f32(2.0f));
}

// ---- Overlapping operands and revisited bytes (SPEC §4) ---------------------------------

TEST(Overlap, InPlaceBehavesAsIfSourcesWereCopiedFirst) {
  {  // TensorScalarSelect: dst is src read backwards, in place.
    Machine& m = fresh(Generation::V3);
    rm::TensorScalarSelectWord x = tss_word(dt::FP32, dt::INT32, 4);
    x.dst = tensor3(rm::sbuf_addr(2, 0x40 + 12), -1, 4, 0, 1, 0, 1);
    poke(m, SBUF, 2, 0x40, 4, {1, 2, 3, 4});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 2, 0x40, 4, 4), (V{4, 3, 2, 1}));
  }
  {  // TensorScalarSelect: channel 0 writes the partition channel 1 reads.
    Machine& m = fresh(Generation::V3);
    rm::TensorScalarSelectWord x = tss_word(dt::INT16, dt::INT16, 2);
    x.channels = 2;
    x.dst.addr = rm::sbuf_addr(3, 0x40);
    poke(m, SBUF, 2, 0x40, 2, {0xA0, 0xA1});
    poke(m, SBUF, 3, 0x40, 2, {0xB0, 0xB1});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 3, 0x40, 2, 2), (V{0xA0, 0xA1}));
    EXPECT_EQ(peek(m, SBUF, 4, 0x40, 2, 2), (V{0xB0, 0xB1}));
  }
  {  // RangeSelect in place, reversed.
    Machine& m = fresh(Generation::V3);
    rm::RangeSelectWord x =
        rs_word(dt::FP32, dt::FP32, 4, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 9.0f, 0);
    x.dst = tensor2(rm::sbuf_addr(0, 0x100 + 12), -1, 4, 0, 1);
    poke(m, SBUF, 0, 0x100, 4, {f32(1.0f), f32(2.0f), f32(3.0f), f32(4.0f)});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 4), (V{f32(4.0f), f32(3.0f), f32(2.0f), f32(1.0f)}));
  }
  {  // Sort: the pairs overwrite the source.
    Machine& m = fresh(Generation::V3);
    rm::SortWord x = sort_word(dt::FP32, op::IS_LT, 4, 4, 0);
    x.dst.addr = rm::sbuf_addr(10, 0x100);
    poke(m, SBUF, 10, 0x100, 4, {f32(9.0f), f32(3.0f), f32(5.0f), f32(1.0f)});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x100, 4, 8),
              pairs({f32(1.0f), f32(3.0f), f32(5.0f), f32(9.0f)}, {3, 1, 2, 0}));
  }
  {  // Sort: the index offset pointer is inside the destination.
    Machine& m = fresh(Generation::V3);
    rm::SortWord x = sort_word(dt::INT32, op::IS_LT, 2, 2, 0);
    x.index_offset_src = 1;
    x.index_offset = rm::sbuf_addr(10, 0x800 + 4);
    poke(m, SBUF, 10, 0x800 + 4, 4, {50});
    poke(m, SBUF, 10, 0x100, 4, {2, 1});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, 4, 4), (V{1, 51, 2, 50}));
  }
  {  // GetSequenceBounds: starts overwrite the ids.
    Machine& m = fresh(Generation::V3);
    rm::GetSequenceBoundsWord x = gsb_word(dt::INT32, dt::INT32, 4);
    x.dst.addr = rm::sbuf_addr(4, 0x100);
    poke(m, SBUF, 4, 0x100, 4, {1, 1, 2, 2});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 4, 0x100, 4, 8), as_int32({0, 0, 2, 2, 2, 2, 4, 4}));
  }
}

TEST(Overlap, DestinationThatRevisitsAByteKeepsTheLaterOrdinal) {
  {  // TensorScalarSelect: four ordinals on one element.
    Machine& m = fresh(Generation::V3);
    rm::TensorScalarSelectWord x = tss_word(dt::UINT16, dt::UINT16, 4);
    x.dst = tensor3(rm::sbuf_addr(3, 0x80), 0, 4, 0, 1, 0, 1);
    poke(m, SBUF, 2, 0x40, 2, {1, 2, 3, 4});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 3, 0x80, 2, 2), (V{4, 0}));
  }
  {  // RangeSelect: ordinals 0..3 on one BF16 element; the last is 4.0.
    Machine& m = fresh(Generation::V3);
    rm::RangeSelectWord x =
        rs_word(dt::FP32, dt::BF16, 4, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 9.0f, 0);
    x.dst = tensor2(rm::sbuf_addr(1, 0x200), 0, 2, 0, 2);
    poke(m, SBUF, 0, 0x100, 4, {f32(1.0f), f32(2.0f), f32(3.0f), f32(4.0f)});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 2, 2), (V{0x4080, 0}));
  }
  {  // Sort: every pair lands on the same two elements; the last pair (largest) wins.
    Machine& m = fresh(Generation::V3);
    rm::SortWord x = sort_word(dt::INT32, op::IS_LT, 3, 3, 10);
    x.dst = tensor2(rm::sbuf_addr(10, 0x800), 1, 2, 0, 3);
    poke(m, SBUF, 10, 0x100, 4, {7, 9, 8});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, 4, 3), (V{9, 11, 0}));
  }
  {  // GetSequenceBounds: all starts on one element, all ends on the next.
    Machine& m = fresh(Generation::V3);
    rm::GetSequenceBoundsWord x = gsb_word(dt::INT32, dt::INT32, 3);
    x.dst = tensor3(rm::sbuf_addr(4, 0x400), 0, 3, 0, 1, 1, 2);
    poke(m, SBUF, 4, 0x100, 4, {1, 2, 2});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 4, 0x400, 4, 2), as_int32({1, 3}));
  }
}

// ---- All or nothing (SPEC §4, §6) -------------------------------------------------------

// Executes a word that must not retire, with and without the fast kernels, and checks
// that the whole machine (hash and a copy) is unchanged.
void expect_unchanged(Machine& m, const Word& w, Status status, std::optional<FaultKind> kind,
                      ExecOptions opts = {}) {
  const Machine& before = copy_of(m, 2);
  const uint64_t hash = m.hash();
  for (bool fast : {true, false}) {
    opts.fast = fast;
    const ExecResult r = gpsimd::execute(m, w, opts);
    EXPECT_EQ(r.status, status) << r.message();
    if (kind && r.fault) {
      EXPECT_EQ(r.fault->kind, *kind) << r.message();
    }
    if (status == Status::Invalid) {
      EXPECT_FALSE(r.diagnostics.empty());
    }
    EXPECT_EQ(m.hash(), hash) << "fast=" << fast;
    EXPECT_TRUE(m == before) << "fast=" << fast;
  }
  if (status == Status::Faulted) {  // the reference agrees on the fault
    const rm::Outcome o = rm::execute(copy_of(m, 1), w, opts.engine);
    EXPECT_EQ(o.fault, kind);
  }
}

// A machine where each word below would write plenty if it ran.
Machine& busy_machine(Generation g = Generation::V3) {
  Machine& m = fresh(g);
  for (unsigned p : {0, 1, 2, 3, 4, 5, 9, 10, 11, 40, 41, 126, 127}) {
    poke(m, SBUF, p, 0x100, 4, {f32(1.0f), f32(2.0f), f32(3.0f), f32(4.0f)});
    poke(m, PSUM, p, 0x100, 4, {f32(5.0f), f32(6.0f)});
    m.accumulators[p] = f32(-100.0f);
  }
  m.semaphores[9] = 3;
  return m;
}

constexpr rm::Events kSet9{0, 0, 1, 9, 0x77};  // would SET semaphore 9

TEST(AllOrNothing, InvalidWordsChangeNothing) {
  Machine& m = busy_machine();
  rm::RangeSelectWord r = rs_word(dt::FP32, dt::FP32, 4, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 9.0f, 3);
  r.ev = kSet9;
  r.fill = 0;  // is_valid_fill_val
  expect_unchanged(m, r.encode(), Status::Invalid, std::nullopt);
  Word unknown = r.encode();
  unknown[0] = 0x97;  // SortMerge does not exist
  expect_unchanged(m, unknown, Status::Invalid, std::nullopt);
  rm::SortWord s = sort_word(dt::FP32, op::IS_LT, 4, 4, 0);
  s.ev = kSet9;
  s.stable = 2;  // sort_valid_stable
  expect_unchanged(m, s.encode(), Status::Invalid, std::nullopt);
  rm::TensorScalarSelectWord t = tss_word(dt::FP32, dt::INT32, 4);
  t.ev = kSet9;
  Word tw = t.encode();
  tw[36] = 1;  // s3d3_ts_select_reserved_zero
  expect_unchanged(m, tw, Status::Invalid, std::nullopt);
  // GetSequenceBounds does not exist on V2.
  Machine& v2 = busy_machine(Generation::V2);
  rm::GetSequenceBoundsWord g = gsb_word(dt::INT32, dt::INT32, 4);
  g.ev = kSet9;
  expect_unchanged(v2, g.encode(), Status::Invalid, std::nullopt);
  // The same words retire when valid: the checks above could fail.
  r.fill = kNegFltMax;
  expect_ok(m, r.encode());
  EXPECT_EQ(m.semaphores[9], 0x77u);
}

TEST(AllOrNothing, BadAddressChangesNothing) {
  Machine& m = busy_machine();
  rm::TensorScalarSelectWord t = tss_word(dt::FP32, dt::INT32, 4);
  t.ev = kSet9;
  t.src0.addr = rm::reg_addr(5);
  t.channels = 2;
  const uint32_t bad_tensor_addrs[] = {
      rm::sbuf_addr(0, 0x102),                // not aligned to 4
      0x80000000u | rm::sbuf_addr(0, 0x100),  // bit 31: not a static address
      rm::sbuf_addr(0, 0x100) | 0x20000000u,  // mode bits
      rm::sbuf_addr(127, 0x100),              // partitions 127..128: 128 does not exist
      rm::sbuf_addr(0, 224 * 1024 - 8),       // the walk leaves the V3 partition
      rm::sbuf_addr(0, 224 * 1024),           // offset beyond the V3 partition
      rm::psum_addr(0, 0x4000),               // PSUM offset >= 16 KiB
      0x04000000u,                            // bits 25-28 outside the PSUM window
  };
  for (uint32_t a : bad_tensor_addrs) {
    SCOPED_TRACE(testing::Message() << std::hex << a);
    m.registers[5] = a;
    expect_unchanged(m, t.encode(), Status::Faulted, FaultKind::BadAddress);
  }
  // PSUM write with a 2-byte dtype, through a register.
  rm::TensorScalarSelectWord h = tss_word(dt::FP16, dt::INT16, 4);
  h.ev = kSet9;
  h.dst.addr = rm::reg_addr(6);
  m.registers[6] = rm::psum_addr(3, 0x100);
  expect_unchanged(m, h.encode(), Status::Faulted, FaultKind::BadAddress);
  // POOL instructions may not touch PSUM: Sort source and GetSequenceBounds destination.
  rm::SortWord s = sort_word(dt::FP32, op::IS_LT, 4, 4, 0);
  s.ev = kSet9;
  s.src.addr = rm::reg_addr(7);
  m.registers[7] = rm::psum_addr(10, 0x100);
  expect_unchanged(m, s.encode(), Status::Faulted, FaultKind::BadAddress);
  rm::GetSequenceBoundsWord g = gsb_word(dt::INT32, dt::INT32, 4);
  g.ev = kSet9;
  g.dst.addr = rm::reg_addr(8);
  m.registers[8] = rm::psum_addr(10, 0x100);
  expect_unchanged(m, g.encode(), Status::Faulted, FaultKind::BadAddress);
  // Register pointers: misaligned, PSUM for a POOL instruction, partitions past 127.
  s.src.addr = rm::sbuf_addr(10, 0x100);
  s.index_offset_src = 2;
  s.index_offset = 11;
  s.channels = 2;
  for (uint32_t a : {rm::sbuf_addr(0, 0x102), rm::psum_addr(0, 0x100), rm::sbuf_addr(127, 0x100)}) {
    m.registers[11] = a;
    expect_unchanged(m, s.encode(), Status::Faulted, FaultKind::BadAddress);
  }
  rm::RangeSelectWord r = rs_word(dt::FP32, dt::FP32, 4, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 9.0f, 2);
  r.ev = kSet9;
  r.bound1_src = 2;
  r.bound1 = 12;
  m.registers[12] = rm::psum_addr(0, 0x102);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  // And with good registers each retires.
  m.registers[12] = rm::psum_addr(0, 0x100);
  expect_ok(m, r.encode());
}

TEST(AllOrNothing, ShapeMismatchChangesNothing) {
  Machine& m = busy_machine();
  // Register-mode operands waive the static element-count clauses.
  rm::RangeSelectWord r = rs_word(dt::FP32, dt::FP32, 4, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 9.0f, 2);
  r.ev = kSet9;
  r.dst = tensor2(rm::reg_addr(3), 1, 3, 3, 1);
  m.registers[3] = rm::sbuf_addr(1, 0x200);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::ShapeMismatch);
  rm::TensorScalarSelectWord t = tss_word(dt::FP32, dt::INT32, 4);
  t.ev = kSet9;
  t.src0 = tensor3(rm::reg_addr(4), 1, 2, 2, 3, 0, 1);  // 6 elements, dst 4
  m.registers[4] = rm::sbuf_addr(2, 0x100);
  expect_unchanged(m, t.encode(), Status::Faulted, FaultKind::ShapeMismatch);
  // RangeSelect: a register-mode source with base + count(src) > 2^24.
  rm::RangeSelectWord b =
      rs_word(dt::FP32, dt::FP32, 4, 16777213.0f, op::IS_GE, 0.0f, op::IS_LE, 9.0f, 2);
  b.ev = kSet9;
  b.src.addr = rm::reg_addr(3);
  m.registers[3] = rm::sbuf_addr(0, 0x100);
  expect_unchanged(m, b.encode(), Status::Faulted, FaultKind::ShapeMismatch);
  // The sum is exact: the smallest subnormal base plus 2^24 elements exceeds 2^24
  // (rounded to double or float it would not).
  b.base = 0x00000001u;
  b.src = tensor2(rm::reg_addr(3), 0, 4096, 0, 4096);
  b.dst = tensor2(rm::sbuf_addr(1, 0x200), 0, 4096, 0, 4096);
  expect_unchanged(m, b.encode(), Status::Faulted, FaultKind::ShapeMismatch);
  // Exactly 2^24 is allowed.
  b.base = 0;
  b.src = tensor2(rm::reg_addr(3), 1, 4, 4, 1);
  b.dst = tensor2(rm::sbuf_addr(1, 0x200), 1, 4, 4, 1);
  b.base = f32(16777212.0f);
  expect_ok(m, b.encode());
}

TEST(AllOrNothing, TooLargeChangesNothing) {
  Machine& m = busy_machine();
  // 4096 x 4097 > 2^24 elements per channel, on one element (zero steps).
  rm::TensorScalarSelectWord t = tss_word(dt::FP32, dt::INT32, 1);
  t.ev = kSet9;
  t.src0 = tensor3(rm::sbuf_addr(2, 0x100), 0, 4096, 0, 4097, 0, 1);
  t.dst = tensor3(rm::sbuf_addr(3, 0x100), 0, 4096, 0, 4097, 0, 1);
  expect_unchanged(m, t.encode(), Status::Faulted, FaultKind::TooLarge);
  // GetSequenceBounds: the 2n-element destination counts too.
  rm::GetSequenceBoundsWord g = gsb_word(dt::INT32, dt::INT32, 1);
  g.ev = kSet9;
  g.src = tensor3(rm::sbuf_addr(4, 0x100), 0, 4097, 0, 2048, 0, 1);
  g.dst = tensor3(rm::sbuf_addr(5, 0x100), 0, 4097, 0, 2048, 1, 2);
  expect_unchanged(m, g.encode(), Status::Faulted, FaultKind::TooLarge);
  // Exactly 2^24 elements is not too large (a scalar fill, so it stays quick).
  t.src0 = tensor3(rm::sbuf_addr(2, 0x100), 0, 4096, 0, 4096, 0, 1);
  t.dst = tensor3(rm::sbuf_addr(3, 0x100), 0, 4096, 0, 4096, 0, 1);
  t.pred_imm = 0;
  t.src1_imm = 0xABCD;
  const ExecResult r = exec(m, t.encode());
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(peek(m, SBUF, 3, 0x100, 4, 2), (V{0xABCD, f32(2.0f)}));
}

// SPEC §4: validate, then the wait, then addresses, then shapes, then the walk limit.
TEST(AllOrNothing, FaultsComeInTheSpecOrder) {
  Machine& m = busy_machine();
  rm::TensorScalarSelectWord t = tss_word(dt::FP32, dt::INT32, 1);
  t.ev = rm::Events{2, 2, 1, 9, 1};  // wait semaphore 2 == 1; SET semaphore 9
  t.src0 = tensor3(rm::reg_addr(10), 0, 4096, 0, 4096, 0, 1);        // 2^24 elements
  t.dst = tensor3(rm::sbuf_addr(3, 0x100), 0, 4096, 0, 4097, 0, 1);  // more than 2^24
  m.registers[10] = rm::sbuf_addr(2, 0x102);                         // misaligned
  Word w = t.encode();
  w[37] = 1;  // reserved
  expect_unchanged(m, w, Status::Invalid, std::nullopt);
  expect_unchanged(m, t.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  m.semaphores[2] = 1;
  expect_unchanged(m, t.encode(), Status::Faulted, FaultKind::BadAddress);
  m.registers[10] = rm::sbuf_addr(2, 0x100);
  expect_unchanged(m, t.encode(), Status::Faulted, FaultKind::ShapeMismatch);
  t.src0.num[1] = 4097;
  expect_unchanged(m, t.encode(), Status::Faulted, FaultKind::TooLarge);
  t.src0.num[1] = 1;
  t.src0.num[0] = 1;
  t.dst.num[1] = 1;
  t.dst.num[0] = 1;
  expect_ok(m, t.encode());
  EXPECT_EQ(peek(m, SBUF, 3, 0x100, 4, 1), V{f32(1.0f)});
  EXPECT_EQ(m.semaphores[9], 1u);
}

// AffineSelect and Iota: every fault kind SPEC §6 lists for them leaves the machine as it
// was, in the SPEC §4 order.
TEST(AllOrNothing, AffineSelectAndIotaFaults) {
  Machine& m = busy_machine();
  rm::AffineSelectWord a = as_word(dt::FP32, dt::FP32, 4, 2, 4, 0, 3);
  a.ev = kSet9;
  a.mask.step[0] = -1;
  a.channel_multiplier = 1;
  expect_ok(m, a.encode());
  // A register-mode source: its register must hold a good SBUF address.
  a.src.addr = rm::reg_addr(12);
  m.registers[12] = rm::psum_addr(2, 0x100);  // POOL: no PSUM
  expect_unchanged(m, a.encode(), Status::Faulted, FaultKind::BadAddress);
  m.registers[12] = rm::sbuf_addr(126, 0x100);  // 126 + 4 channels > 128
  expect_unchanged(m, a.encode(), Status::Faulted, FaultKind::BadAddress);
  m.registers[12] = rm::sbuf_addr(2, 0x1000);
  expect_ok(m, a.encode());
  // Counts the register escape left to execution: src 5, mask and dst 4.
  a.src.num[0] = 5;
  expect_unchanged(m, a.encode(), Status::Faulted, FaultKind::ShapeMismatch);
  // ... and the mask disagreeing with both.
  a.src.num[0] = 4;
  a.mask.num[1] = 2;
  expect_unchanged(m, a.encode(), Status::Faulted, FaultKind::ShapeMismatch);
  a.mask.num[1] = 1;
  // Too large: 4097 x 4096 elements on one element (zero steps).
  a.src = tensor2(rm::reg_addr(12), 0, 4097, 0, 4096);
  a.dst = tensor2(rm::sbuf_addr(2, 0x8000), 0, 4097, 0, 4096);
  a.mask.num[0] = 4097;
  a.mask.num[1] = 4096;
  expect_unchanged(m, a.encode(), Status::Faulted, FaultKind::TooLarge);
  // The wait comes first.
  a.ev = rm::Events{2, 200, 0, 0, 5};
  expect_unchanged(m, a.encode(), Status::Faulted, FaultKind::SyncWouldBlock);

  rm::IotaWord t = iota_word(dt::INT16, 3, 5, 8);
  t.ev = kSet9;
  t.dst.addr = rm::reg_addr(13);
  m.registers[13] = rm::sbuf_addr(5, 0x401);  // misaligned for INT16
  expect_unchanged(m, t.encode(), Status::Faulted, FaultKind::BadAddress);
  m.registers[13] = rm::sbuf_addr(5, 0x400);
  expect_ok(m, t.encode());
  t.dst = rm::tensor4(rm::reg_addr(13), 0, 4097, 0, 4096, 0, 1, 0, 1);
  t.pattern.num[0] = 4097;
  t.pattern.num[1] = 4096;
  expect_unchanged(m, t.encode(), Status::Faulted, FaultKind::TooLarge);
  t.ev = rm::Events{1, 201, 0, 0, 1};
  expect_unchanged(m, t.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
}

// ---- Trace (every architectural write is reported) ---------------------------------------

class Recorder : public gpsimd::TraceSink {
 public:
  struct Mem {
    Space space;
    unsigned partition;
    uint32_t offset;
    std::vector<uint8_t> bytes;
  };
  struct Reg {
    unsigned index;
    uint32_t before, after;
  };
  std::vector<std::string> retired;
  std::vector<Mem> memory_writes;
  std::vector<Reg> accumulators, semaphores;

  void retire(const Word& w, const gpsimd::InstrDef& def) override {
    retired.push_back(std::string(def.mnemonic) + " " + gpsimd::word_to_hex(w));
  }
  void memory(Space s, unsigned p, uint32_t off, std::span<const uint8_t> b) override {
    memory_writes.push_back(Mem{s, p, off, {b.begin(), b.end()}});
  }
  void accumulator(unsigned i, uint32_t before, uint32_t after) override {
    accumulators.push_back(Reg{i, before, after});
  }
  void semaphore(unsigned i, uint32_t before, uint32_t after) override {
    semaphores.push_back(Reg{i, before, after});
  }
  bool empty() const {
    return retired.empty() && memory_writes.empty() && accumulators.empty() && semaphores.empty();
  }
};

// Executes `w` with a trace and checks that replaying the reported writes on the old
// state gives the new state exactly, and that only `partitions` were written.
void check_trace(Machine& m, const Word& w, const std::set<Key>& partitions) {
  const Machine& before = copy_of(m, 2);
  Recorder rec;
  const ExecResult res = exec(m, w, ExecOptions{.trace = &rec});
  ASSERT_TRUE(res.ok()) << res.message();
  const std::string mnemonic(gpsimd::find_instruction(w[0])->mnemonic);
  ASSERT_EQ(rec.retired, std::vector<std::string>{mnemonic + " " + gpsimd::word_to_hex(w)});
  Machine& replay = copy_of(before, 3);
  for (const Recorder::Mem& x : rec.memory_writes) {
    EXPECT_TRUE(partitions.count({x.space, x.partition})) << x.partition;
    auto part = replay.partition(x.space, x.partition);
    std::copy(x.bytes.begin(), x.bytes.end(), part.begin() + x.offset);
  }
  for (const Recorder::Reg& a : rec.accumulators) {
    EXPECT_EQ(a.before, before.accumulators[a.index]);
    replay.accumulators[a.index] = a.after;
  }
  for (const Recorder::Reg& x : rec.semaphores) {
    EXPECT_EQ(x.before, before.semaphores[x.index]);
    replay.semaphores[x.index] = x.after;
  }
  EXPECT_TRUE(replay == m) << mnemonic << ": a write was not reported";
}

TEST(Trace, ReportsEveryWriteAndNothingForAFailingWord) {
  Machine& m = busy_machine();
  rm::RangeSelectWord r = rs_word(dt::FP32, dt::BF16, 4, 0.0f, op::IS_GE, 1.0f, op::IS_LE, 9.0f, 2);
  r.channels = 2;
  r.ev = rm::Events{0, 0, 2, 9, 0};                      // INC semaphore 9
  r.dst = tensor2(rm::sbuf_addr(40, 0x10), 2, 4, 0, 1);  // strided: bytes between stay
  check_trace(m, r.encode(), {{SBUF, 40}, {SBUF, 41}});
  EXPECT_EQ(peek(m, SBUF, 40, 0x10, 2, 8), (V{0xFF80, 0, 0x4000, 0, 0x4040, 0, 0x4080, 0}));
  EXPECT_EQ(m.accumulators[0], f32(4.0f));
  EXPECT_EQ(m.semaphores[9], 4u);

  rm::TensorScalarSelectWord t = tss_word(dt::FP32, dt::INT32, 3);
  t.channels = 2;
  t.src0.addr = rm::sbuf_addr(2, 0x100);  // nonzero data
  t.dst.addr = rm::psum_addr(10, 0x3FF0);
  t.ev = rm::Events{0, 0, 1, 200, 5};
  check_trace(m, t.encode(), {{PSUM, 10}, {PSUM, 11}});
  EXPECT_EQ(m.semaphores[200], 5u);

  rm::SortWord s = sort_word(dt::FP32, op::IS_GT, 4, 4, 7);
  s.channels = 3;
  check_trace(m, s.encode(), {{SBUF, 10}, {SBUF, 11}, {SBUF, 12}});
  EXPECT_EQ(peek(m, SBUF, 10, 0x800, 4, 2), (V{f32(4.0f), 10}));

  rm::GetSequenceBoundsWord g = gsb_word(dt::FP32, dt::FP32, 4);
  g.ev = rm::Events{0, 0, 3, 0, 0};  // DEC semaphore 0: wraps
  check_trace(m, g.encode(), {{SBUF, 4}});
  EXPECT_EQ(m.semaphores[0], 0xFFFFFFFFu);

  // Nothing is reported for a word that faults or is invalid.
  Recorder none;
  rm::RangeSelectWord blocked = r;
  blocked.ev = rm::Events{2, 0, 2, 9, 1};  // waits for semaphore 0 == 1
  EXPECT_EQ(gpsimd::execute(m, blocked.encode(), ExecOptions{.trace = &none}).status,
            Status::Faulted);
  rm::RangeSelectWord invalid = r;
  invalid.reduce_op = 0;
  EXPECT_EQ(gpsimd::execute(m, invalid.encode(), ExecOptions{.trace = &none}).status,
            Status::Invalid);
  EXPECT_TRUE(none.empty());
}

// ---- NonzeroWithCount (SPEC §4.11) ------------------------------------------------------

// One channel, INT32 ids dense at SBUF partition 0 offset 0x100, count(src) + 1 results
// dense at partition 1 offset 0x200.
rm::NonzeroWithCountWord nwc_word(uint8_t in, unsigned t, uint32_t offset, uint32_t padding) {
  rm::NonzeroWithCountWord x;
  x.in = in;
  x.index_offset = offset;
  x.padding_val = padding;
  x.src = tensor3(rm::sbuf_addr(0, 0x100), 1, t, 0, 1, 0, 1);
  x.dst = tensor3(rm::sbuf_addr(1, 0x200), 1, t + 1, 0, 1, 0, 1);
  return x;
}

constexpr uint32_t kMinus1 = 0xFFFFFFFFu;

TEST(NonzeroWithCount, SpecExampleInt32AndFp32) {
  // [0,1,1,0,0,1,0,0], index_offset 16, padding_val -1 -> [17,18,21,-1,-1,-1,-1,-1,3].
  const V want = {17, 18, 21, kMinus1, kMinus1, kMinus1, kMinus1, kMinus1, 3};
  {
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 0, 0x100, 4, {0, 1, 1, 0, 0, 1, 0, 0});
    expect_ok(m, nwc_word(dt::INT32, 8, 16, kMinus1).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 9), want);
  }
  {  // FP32 with other nonzero values and -0.0 among the zeros.
    Machine& m = fresh(Generation::V4);
    poke(m, SBUF, 0, 0x100, 4,
         {0, f32(1.0f), f32(-2.5f), 0x80000000, 0, f32(1e30f), 0x80000000, 0});
    expect_ok(m, nwc_word(dt::FP32, 8, 16, kMinus1).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 9), want);
  }
}

TEST(NonzeroWithCount, Fp32AndInt32NonzeroRules) {
  // +0, -0, qNaN, +inf, -inf, smallest subnormal, negative subnormal, 1.0, sNaN, -0.
  const V src = {0x00000000, 0x80000000, 0x7FC00000, 0x7F800000, 0xFF800000,
                 0x00000001, 0x80000001, 0x3F800000, 0x7F800001, 0x80000000};
  constexpr uint32_t kPad = 0xAAAAAAAAu;
  {  // FP32: +0.0 and -0.0 are zero; NaN, inf and subnormals are not.
    Machine& m = fresh(Generation::V5);
    poke(m, SBUF, 0, 0x100, 4, src);
    expect_ok(m, nwc_word(dt::FP32, 10, 0, kPad).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 11), (V{2, 3, 4, 5, 6, 7, 8, kPad, kPad, kPad, 7}));
  }
  {  // INT32: any bit set, so -0.0's bit pattern is nonzero.
    Machine& m = fresh(Generation::V5);
    poke(m, SBUF, 0, 0x100, 4, src);
    expect_ok(m, nwc_word(dt::INT32, 10, 0, kPad).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 11), (V{1, 2, 3, 4, 5, 6, 7, 8, 9, kPad, 9}));
  }
}

TEST(NonzeroWithCount, AllZeroAndAllNonzeroSources) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, {0, 0, 0, 0, 0});
  expect_ok(m, nwc_word(dt::INT32, 5, 100, 0x12345678).encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 6),
            (V{0x12345678, 0x12345678, 0x12345678, 0x12345678, 0x12345678, 0}));
  poke(m, SBUF, 0, 0x100, 4, {9, kMinus1, 0x80000000, 1, 2});
  expect_ok(m, nwc_word(dt::INT32, 5, 100, 0x12345678).encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 6), (V{100, 101, 102, 103, 104, 5}));
  // One element: [index or padding, count].
  rm::NonzeroWithCountWord one = nwc_word(dt::FP32, 1, 7, 0xEE);
  poke(m, SBUF, 0, 0x100, 4, {0x80000000});
  expect_ok(m, one.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 2), (V{0xEE, 0}));
}

TEST(NonzeroWithCount, IndexWrapsModulo2To32) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, {1, 0, 1, 1, 1});
  expect_ok(m, nwc_word(dt::INT32, 5, 0xFFFFFFFEu, 0x5A).encode());
  // j = 0, 2, 3, 4 plus 2^32 - 2.
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 6), (V{0xFFFFFFFEu, 0, 1, 2, 0x5A, 4}));
  // index_offset = -16 (0xFFFFFFF0) on j = 20: 4.
  V src(21, 0);
  src[20] = 3;
  poke(m, SBUF, 0, 0x100, 4, src);
  expect_ok(m, nwc_word(dt::INT32, 21, 0xFFFFFFF0u, 0).encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 2), (V{4, 0}));
  EXPECT_EQ(peek(m, SBUF, 1, 0x200 + 21 * 4, 4, 1), V{1});
}

// Only channels c % 16 == 0, counted from the start partitions, are processed; the other
// channels' destinations keep their bytes.
TEST(NonzeroWithCount, OnlyEverySixteenthChannelFromTheStartPartition) {
  constexpr uint32_t kOld = 0xEEEEEEEEu;
  for (unsigned dst_start : {5u, 40u}) {
    SCOPED_TRACE(dst_start);
    Machine& m = fresh(Generation::V3);
    rm::NonzeroWithCountWord x = nwc_word(dt::INT32, 4, 10, kMinus1);
    x.channels = 17;
    x.src.addr = rm::sbuf_addr(5, 0x100);
    x.dst.addr = rm::sbuf_addr(dst_start, 0x400);
    for (unsigned c = 0; c < 17; ++c) {
      // Channel c: nonzero at ordinal c % 4 only.
      V s(4, 0);
      s[c % 4] = c + 1;
      poke(m, SBUF, 5 + c, 0x100, 4, s);
      poke(m, SBUF, dst_start + c, 0x400, 4, V(5, kOld));
    }
    expect_ok(m, x.encode());
    for (unsigned c = 0; c < 17; ++c) {
      // Channels 0 and 16: ordinal 0 -> index 10, three paddings, count 1.
      const V want = c % 16 == 0 ? V{10, kMinus1, kMinus1, kMinus1, 1} : V(5, kOld);
      EXPECT_EQ(peek(m, SBUF, dst_start + c, 0x400, 4, 5), want) << "channel " << c;
    }
    // The source is unchanged (the destination sits at other offsets).
    EXPECT_EQ(peek(m, SBUF, 21, 0x100, 4, 4), (V{17, 0, 0, 0}));
  }
  // 128 channels from partition 0: 0, 16, ..., 112 only.
  Machine& m = fresh(Generation::V5);
  rm::NonzeroWithCountWord x = nwc_word(dt::INT32, 2, 0, 7);
  x.channels = 128;
  x.src.addr = rm::sbuf_addr(0, 0x100);
  x.dst.addr = rm::sbuf_addr(0, 0x200);
  for (unsigned p = 0; p < 128; ++p) poke(m, SBUF, p, 0x100, 4, {0, p + 1});
  expect_ok(m, x.encode());
  for (unsigned p = 0; p < 128; ++p)
    EXPECT_EQ(peek(m, SBUF, p, 0x200, 4, 3), p % 16 == 0 ? (V{1, 7, 1}) : (V{0, 0, 0})) << p;
}

TEST(NonzeroWithCount, PointerImmediatesArePerChannel) {
  Machine& m = fresh(Generation::V3);
  rm::NonzeroWithCountWord x = nwc_word(dt::INT32, 3, 0, 0);
  x.channels = 17;
  x.src.addr = rm::sbuf_addr(0, 0x100);
  x.dst.addr = rm::sbuf_addr(20, 0x200);
  x.index_offset_src = 1;  // pointer: channel c reads partition 60 + c
  x.index_offset = rm::sbuf_addr(60, 0x40);
  x.padding_val_src = 2;  // register pointer
  x.padding_val = 9;
  m.registers[9] = rm::sbuf_addr(80, 0x44);
  for (unsigned c = 0; c < 17; ++c) {
    poke(m, SBUF, c, 0x100, 4, {c + 1, 0, 0});
    poke(m, SBUF, 60 + c, 0x40, 4, {1000 * (c + 1)});
    poke(m, SBUF, 80 + c, 0x44, 4, {0xD0 + c});
  }
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 20, 0x200, 4, 4), (V{1000, 0xD0, 0xD0, 1}));
  EXPECT_EQ(peek(m, SBUF, 36, 0x200, 4, 4), (V{17000, 0xD0 + 16, 0xD0 + 16, 1}));
  EXPECT_EQ(peek(m, SBUF, 21, 0x200, 4, 4), (V{0, 0, 0, 0}));
}

TEST(NonzeroWithCount, StridedAndNegativeStepWalks) {
  constexpr uint32_t kOld = 0x77777777u;
  Machine& m = fresh(Generation::V3);
  // src: 3-D, steps {-1, 4, 0}, counts {4, 2, 2}: rows read backwards, the second outer
  // pass repeats the first. Memory at 0x100: [0,5,0,7 | 8,0,0,9].
  poke(m, SBUF, 0, 0x100, 4, {0, 5, 0, 7, 8, 0, 0, 9});
  rm::NonzeroWithCountWord x = nwc_word(dt::INT32, 16, 0x40, kMinus1);
  x.src = tensor3(rm::sbuf_addr(0, 0x10C), -1, 4, 4, 2, 0, 2);
  // Walk order s = [7,0,5,0, 9,0,0,8, 7,0,5,0, 9,0,0,8]: nonzero at 0,2,4,7,8,10,12,15.
  // dst: 17 elements, every other slot (step 2), so the slots between keep their bytes.
  x.dst = tensor3(rm::sbuf_addr(1, 0x200), 2, 17, 0, 1, 0, 1);
  poke(m, SBUF, 1, 0x200, 4, V(34, kOld));
  expect_ok(m, x.encode());
  const V got = peek(m, SBUF, 1, 0x200, 4, 34);
  const V results = {0x40,    0x42,    0x44,    0x47,    0x48,    0x4A,    0x4C,    0x4F, kMinus1,
                     kMinus1, kMinus1, kMinus1, kMinus1, kMinus1, kMinus1, kMinus1, 8};
  for (unsigned j = 0; j < 17; ++j) {
    EXPECT_EQ(got[2 * j], results[j]) << j;
    EXPECT_EQ(got[2 * j + 1], kOld) << j;
  }
  // dst walked backwards in two rows: ordinal j lands at row-reversed places.
  x.src = tensor3(rm::sbuf_addr(0, 0x100), 1, 3, 0, 1, 0, 1);   // [0,5,0] -> [0x41, pad, pad, 1]
  x.dst = tensor3(rm::sbuf_addr(1, 0x30C), -1, 2, 2, 2, 0, 1);  // 0x30C,0x308,0x314,0x310
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x308, 4, 4), (V{kMinus1, 0x41, 1, kMinus1}));
}

TEST(NonzeroWithCount, InPlaceReadsTheSourceFirst) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, {0, 3, 0, 4});
  rm::NonzeroWithCountWord x = nwc_word(dt::INT32, 4, 0, 0xAB);
  x.dst.addr = rm::sbuf_addr(0, 0x100);  // over the source
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 5), (V{1, 3, 0xAB, 0xAB, 2}));
  // A zero-step destination: every ordinal on one element, the count (last) wins.
  poke(m, SBUF, 0, 0x100, 4, {0, 3, 0, 4});
  x.dst = tensor3(rm::sbuf_addr(2, 0x10), 0, 5, 0, 1, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 2, 0x10, 4, 2), (V{2, 0}));
}

TEST(NonzeroWithCount, FaultsChangeNothing) {
  Machine& m = busy_machine();
  rm::NonzeroWithCountWord x = nwc_word(dt::INT32, 4, 0, 0);
  x.ev = kSet9;
  x.channels = 17;
  // sync-would-block.
  rm::NonzeroWithCountWord wait = x;
  wait.ev = rm::Events{1, 3, 1, 9, 4};  // semaphore 3 >= 4 never holds
  expect_unchanged(m, wait.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  // bad-address: register-mode src in PSUM (POOL), misaligned, partitions past 127.
  rm::NonzeroWithCountWord r = x;
  r.src.addr = rm::reg_addr(5);
  for (uint32_t a : {rm::psum_addr(0, 0x100), rm::sbuf_addr(0, 0x102), rm::sbuf_addr(112, 0x100),
                     rm::sbuf_addr(0, 224 * 1024 - 8), 0x20000100u}) {
    SCOPED_TRACE(testing::Message() << std::hex << a);
    m.registers[5] = a;
    expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  }
  // ... a register-mode dst, checked on every channel though only 0 and 16 run.
  r = x;
  r.dst.addr = rm::reg_addr(6);
  m.registers[6] = rm::sbuf_addr(112, 0x200);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  // ... pointer immediates: a register pointer into PSUM, a misaligned one, too high.
  r = x;
  r.padding_val_src = 2;
  r.padding_val = 7;
  for (uint32_t a : {rm::psum_addr(3, 0x100), rm::sbuf_addr(3, 0x101), rm::sbuf_addr(112, 0x100)}) {
    m.registers[7] = a;
    expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  }
  // too-large: 2^24 source elements need a 2^24 + 1 element destination.
  r = x;
  r.channels = 1;
  r.src = tensor3(rm::sbuf_addr(0, 0x100), 0, 4096, 0, 4096, 0, 1);
  r.dst = tensor3(rm::sbuf_addr(1, 0x200), 0, 673, 0, 257, 0, 97);  // 16777217
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::TooLarge);
  // Fault order: the wait before the address.
  rm::NonzeroWithCountWord both = wait;
  both.src.addr = rm::reg_addr(5);
  m.registers[5] = rm::psum_addr(0, 0x100);
  expect_unchanged(m, both.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  // ... and the address before the walk limit.
  r.src.addr = rm::reg_addr(5);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  // Good registers retire.
  m.registers[5] = rm::sbuf_addr(0, 0x100);
  m.registers[6] = rm::sbuf_addr(40, 0x200);
  rm::NonzeroWithCountWord ok = x;
  ok.src.addr = rm::reg_addr(5);
  ok.dst.addr = rm::reg_addr(6);
  expect_ok(m, ok.encode());
  EXPECT_EQ(peek(m, SBUF, 40, 0x200, 4, 5), (V{0, 1, 2, 3, 4}));
  EXPECT_EQ(m.semaphores[9], 0x77u);
  // Invalid words change nothing: on V2 NonzeroWithCount does not exist; a count that
  // is not count(src) + 1.
  Machine& v2 = busy_machine(Generation::V2);
  expect_unchanged(v2, x.encode(), Status::Invalid, std::nullopt);
  rm::NonzeroWithCountWord c = x;
  c.dst.num[0] = 4;
  expect_unchanged(m, c.encode(), Status::Invalid, std::nullopt);
}

// ---- CopyPredicatedScalar (SPEC §4.12) --------------------------------------------------

// One channel: pred dense at SBUF partition 0 offset 0x100, dst dense at partition 1
// offset 0x200, `n` elements each.
rm::CopyPredicatedScalarWord cps_word(uint8_t pdtype, uint8_t dtype, unsigned n, uint32_t scalar,
                                      uint8_t reversed) {
  rm::CopyPredicatedScalarWord x;
  x.pred_dtype = pdtype;
  x.dtype = dtype;
  x.src0_imm = scalar;
  x.reversed_pred = reversed;
  x.pred = tensor3(rm::sbuf_addr(0, 0x100), 1, n, 0, 1, 0, 1);
  x.dst = tensor3(rm::sbuf_addr(1, 0x200), 1, n, 0, 1, 0, 1);
  return x;
}

TEST(CopyPredicatedScalar, PolarityAndUntouchedElements) {
  const V pred = {0, 1, 0, 0xFF, 0x80, 0, 2, 0};
  const V old = {f32(1.0f), f32(2.0f), f32(3.0f), f32(4.0f),
                 f32(5.0f), f32(6.0f), f32(7.0f), f32(8.0f)};
  const uint32_t s = f32(-9984.0f);
  for (uint8_t rev : {uint8_t{0}, uint8_t{1}}) {
    SCOPED_TRACE(int{rev});
    Machine& m = fresh(Generation::V2);
    poke(m, SBUF, 0, 0x100, 1, pred);
    poke(m, SBUF, 1, 0x200, 4, old);
    expect_ok(m, cps_word(dt::UINT8, dt::FP32, 8, s, rev).encode());
    // reversed_pred = 1 writes where pred != 0; 0 where pred == 0.
    const V want = rev == 1 ? V{old[0], s, old[2], s, s, old[5], s, old[7]}
                            : V{s, old[1], s, old[3], old[4], s, old[6], s};
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 8), want);
    EXPECT_EQ(peek(m, SBUF, 0, 0x100, 1, 8), pred);  // the predicate is unchanged
  }
}

TEST(CopyPredicatedScalar, AnyBitOfThePredicateWidthIsTrue) {
  struct Case {
    uint8_t pdtype;
    V pred;
    V selected;  // 1 where the element is true
  };
  const Case cases[] = {
      {dt::INT8, {0x80, 0, 0x01, 0xFF}, {1, 0, 1, 1}},
      {dt::UINT16, {0x8000, 0, 0x0100, 0x0001}, {1, 0, 1, 1}},
      {dt::INT16, {0, 0xFFFF, 0x8000, 0}, {0, 1, 1, 0}},
      {dt::INT32, {0x80000000, 0, 0x00010000, 0x01000000}, {1, 0, 1, 1}},
      {dt::UINT32, {0, 0x00000100, 0, 0x80000000}, {0, 1, 0, 1}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int{c.pdtype});
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 0, 0x100, rm::size_of(c.pdtype), c.pred);
    poke(m, SBUF, 1, 0x200, 2, {0x1111, 0x2222, 0x3333, 0x4444});
    expect_ok(m, cps_word(c.pdtype, dt::INT16, 4, 0xBEEF, 1).encode());
    V want = {0x1111, 0x2222, 0x3333, 0x4444};
    for (unsigned j = 0; j < 4; ++j)
      if (c.selected[j]) want[j] = 0xBEEF;
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 2, 4), want);
    // The 2-byte elements past the walk keep their zeros.
    EXPECT_EQ(peek(m, SBUF, 1, 0x208, 2, 2), (V{0, 0}));
  }
}

TEST(CopyPredicatedScalar, ScalarBitsAreCopiedNeverConverted) {
  struct Case {
    uint8_t dtype;
    uint32_t scalar;
  };
  const Case cases[] = {
      {dt::FP32, 0x7F800001},  // signalling NaN with payload 1
      {dt::FP32, 0xFFC12345},  // negative quiet NaN with a payload
      {dt::FP32, 0x80000000},  // -0.0
      {dt::FP32, 0x00000001},  // the smallest subnormal
      {dt::BF16, 0xFF81},     {dt::FP16, 0x7C01},   {dt::FP16, 0x8000},
      {dt::FP8_E4, 0x79},     {dt::FP8_E5, 0xFF},   {dt::FP8_E3, 0x80},
      {dt::INT8, 0x80},       {dt::UINT16, 0xFFFF}, {dt::INT32, 0x80000000},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << int{c.dtype} << " " << std::hex << c.scalar);
    const unsigned size = rm::size_of(c.dtype);
    Machine& m = fresh(Generation::V4);
    poke(m, SBUF, 0, 0x100, 1, {1, 0, 1});
    expect_ok(m, cps_word(dt::UINT8, c.dtype, 3, c.scalar, 1).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, size, 3), (V{c.scalar, 0, c.scalar}));
  }
}

TEST(CopyPredicatedScalar, PointerScalarsArePerChannel) {
  Machine& m = fresh(Generation::V3);
  rm::CopyPredicatedScalarWord x = cps_word(dt::UINT8, dt::INT16, 2, 0, 0);
  x.channels = 3;
  x.pred.addr = rm::sbuf_addr(10, 0x21);  // 1-byte predicates at an odd offset
  x.dst.addr = rm::sbuf_addr(20, 0x10);
  x.src0_imm_src = 1;  // pointer into PSUM: allowed for DVE
  x.src0_imm = rm::psum_addr(30, 0x40);
  for (unsigned c = 0; c < 3; ++c) {
    poke(m, SBUF, 10 + c, 0x21, 1, {c == 1 ? 1u : 0u, 0});
    poke(m, PSUM, 30 + c, 0x40, 2, {0xA000 + c});
  }
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 20, 0x10, 2, 2), (V{0xA000, 0xA000}));
  EXPECT_EQ(peek(m, SBUF, 21, 0x10, 2, 2), (V{0, 0xA001}));
  EXPECT_EQ(peek(m, SBUF, 22, 0x10, 2, 2), (V{0xA002, 0xA002}));
  // A register pointer, and an FP32 PSUM destination.
  rm::CopyPredicatedScalarWord y = cps_word(dt::INT32, dt::FP32, 2, 0, 1);
  y.channels = 2;
  y.pred.addr = rm::psum_addr(40, 0x80);
  y.dst.addr = rm::psum_addr(50, 0x3FF8);  // ends exactly at 16 KiB
  y.src0_imm_src = 2;
  y.src0_imm = 63;
  m.registers[63] = rm::sbuf_addr(60, 0x1000);
  poke(m, PSUM, 40, 0x80, 4, {0, 0x80000000});
  poke(m, PSUM, 41, 0x80, 4, {5, 0});
  poke(m, SBUF, 60, 0x1000, 4, {f32(-0.0f)});
  poke(m, SBUF, 61, 0x1000, 4, {0x7FC00001});
  expect_ok(m, y.encode());
  EXPECT_EQ(peek(m, PSUM, 50, 0x3FF8, 4, 2), (V{0, 0x80000000}));
  EXPECT_EQ(peek(m, PSUM, 51, 0x3FF8, 4, 2), (V{0x7FC00001, 0}));
}

TEST(CopyPredicatedScalar, DecisionsComeFromThePredicateAsItWas) {
  // dst is pred shifted by one element: dst[j] is pred[j + 1]. Decisions from the
  // predicate as it was: j = 0, 1, 2 write 0; j = 3 (pred 0) does not.
  // Read live, j = 0 would clear pred[1] and j = 1 would not write.
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, {1, 1, 1, 0, 0x55});
  rm::CopyPredicatedScalarWord x = cps_word(dt::UINT32, dt::UINT32, 4, 0, 1);
  x.dst.addr = rm::sbuf_addr(0, 0x104);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 5), (V{1, 0, 0, 0, 0x55}));
  // Exactly on the predicate, reversed_pred 0: the zeros become 7, the rest stays.
  poke(m, SBUF, 0, 0x100, 4, {0, 3, 0, 4});
  x.reversed_pred = 0;
  x.src0_imm = 7;
  x.dst.addr = rm::sbuf_addr(0, 0x100);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 4), (V{7, 3, 7, 4}));
}

TEST(CopyPredicatedScalar, ZeroStepDestinationIsWrittenWhenAnyOrdinalSelects) {
  Machine& m = fresh(Generation::V3);
  rm::CopyPredicatedScalarWord x = cps_word(dt::UINT8, dt::INT32, 4, 0xCAFE, 1);
  x.dst = tensor3(rm::sbuf_addr(1, 0x200), 0, 4, 0, 1, 0, 1);
  poke(m, SBUF, 1, 0x200, 4, {0x1234});
  poke(m, SBUF, 0, 0x100, 1, {0, 0, 0, 0});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 2), (V{0x1234, 0}));
  poke(m, SBUF, 0, 0x100, 1, {0, 0, 9, 0});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 2), (V{0xCAFE, 0}));
  // Strided and reversed: pred steps {2}, dst steps {-3}.
  Machine& n = fresh(Generation::V3);
  rm::CopyPredicatedScalarWord y = cps_word(dt::INT8, dt::UINT8, 3, 0xEE, 1);
  y.pred = tensor3(rm::sbuf_addr(0, 0x100), 2, 3, 0, 1, 0, 1);  // bytes 0x100, 0x102, 0x104
  y.dst = tensor3(rm::sbuf_addr(1, 0x206), -3, 3, 0, 1, 0, 1);  // bytes 0x206, 0x203, 0x200
  poke(n, SBUF, 0, 0x100, 1, {1, 1, 0, 1, 1});
  poke(n, SBUF, 1, 0x200, 1, {0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16});
  expect_ok(n, y.encode());
  EXPECT_EQ(peek(n, SBUF, 1, 0x200, 1, 7), (V{0xEE, 0x11, 0x12, 0x13, 0x14, 0x15, 0xEE}));
}

TEST(CopyPredicatedScalar, FaultsChangeNothing) {
  Machine& m = busy_machine();
  rm::CopyPredicatedScalarWord x = cps_word(dt::UINT8, dt::FP32, 4, f32(-5.0f), 1);
  x.ev = kSet9;
  x.channels = 2;
  x.pred.addr = rm::sbuf_addr(0, 0x100);  // busy bytes of 1.0f: 00 00 80 3F
  x.dst.addr = rm::sbuf_addr(2, 0x100);
  rm::CopyPredicatedScalarWord wait = x;
  wait.ev = rm::Events{2, 9, 0, 0, 4};  // semaphore 9 == 4 never holds (it is 3)
  expect_unchanged(m, wait.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  // bad-address: register-mode dst in PSUM with a 2-byte dtype, misaligned, too high.
  rm::CopyPredicatedScalarWord r = cps_word(dt::UINT8, dt::BF16, 4, 0x3F80, 1);
  r.ev = kSet9;
  r.channels = 2;
  r.dst.addr = rm::reg_addr(6);
  for (uint32_t a : {rm::psum_addr(3, 0x100), rm::sbuf_addr(3, 0x101), rm::sbuf_addr(127, 0x100)}) {
    SCOPED_TRACE(testing::Message() << std::hex << a);
    m.registers[6] = a;
    expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  }
  // ... register-mode pred past the partitions; a misaligned register pointer scalar.
  r = x;
  r.pred.addr = rm::reg_addr(7);
  m.registers[7] = rm::sbuf_addr(127, 0x100);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  r = x;
  r.src0_imm_src = 2;
  r.src0_imm = 8;
  m.registers[8] = rm::psum_addr(0, 0x102);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  // shape-mismatch: register mode waived the count clause; the counts differ.
  r = x;
  r.dst = tensor3(rm::reg_addr(6), 1, 3, 0, 1, 0, 1);
  m.registers[6] = rm::sbuf_addr(2, 0x100);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::ShapeMismatch);
  // The address comes before the shape.
  m.registers[6] = rm::sbuf_addr(2, 0x102);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  // too-large: 4096 x 4097 ordinals on one element.
  r = x;
  r.pred = tensor3(rm::sbuf_addr(0, 0x100), 0, 4096, 0, 4097, 0, 1);
  r.dst = tensor3(rm::sbuf_addr(2, 0x100), 0, 4096, 0, 4097, 0, 1);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::TooLarge);
  // Equal register-mode counts retire.
  r = x;
  r.dst = tensor3(rm::reg_addr(6), 1, 2, 2, 2, 0, 1);
  m.registers[6] = rm::sbuf_addr(2, 0x100);
  expect_ok(m, r.encode());
  for (unsigned p : {2u, 3u})
    EXPECT_EQ(peek(m, SBUF, p, 0x100, 4, 4), (V{f32(1.0f), f32(2.0f), f32(-5.0f), f32(-5.0f)}));
  EXPECT_EQ(m.semaphores[9], 0x77u);
  // Invalid words change nothing either: a reserved byte, a float predicate.
  Word bad = x.encode();
  bad[36] = 1;
  expect_unchanged(m, bad, Status::Invalid, std::nullopt);
  r = x;
  r.pred_dtype = dt::FP16;
  expect_unchanged(m, r.encode(), Status::Invalid, std::nullopt);
}

// ---- DveReadAccumulator (SPEC §4.13) ----------------------------------------------------

rm::DveReadAccumulatorWord dra_word(uint8_t dtype, unsigned channels, uint32_t addr,
                                    uint8_t negated = 0) {
  rm::DveReadAccumulatorWord x;
  x.dtype = dtype;
  x.channels = static_cast<uint8_t>(channels);
  x.negated = negated;
  x.dst = tensor1(addr, 1, 1);
  return x;
}

TEST(DveReadAccumulator, ReadsEachPartitionsAccumulatorAndNegates) {
  // Accumulators 2..7: 1.5, -0.0, +0.0, quiet NaN with payload, -FLT_MAX, sNaN.
  const V acc = {0x3FC00000, 0x80000000, 0x00000000, 0x7FC00001, kNegFltMax, 0x7F800001};
  struct Case {
    uint8_t dtype;
    V plain, negated;
  };
  const Case cases[] = {
      {dt::FP32,
       {0x3FC00000, 0x80000000, 0x00000000, 0x7FC00001, 0xFF7FFFFF, 0x7F800001},
       {0xBFC00000, 0x00000000, 0x80000000, 0xFFC00001, 0x7F7FFFFF, 0xFF800001}},
      {dt::FP32R,
       {0x3FC00000, 0x80000000, 0x00000000, 0x7FC00001, 0xFF7FFFFF, 0x7F800001},
       {0xBFC00000, 0x00000000, 0x80000000, 0xFFC00001, 0x7F7FFFFF, 0xFF800001}},
      // -FLT_MAX is beyond BF16's range: -inf. NaNs become the canonical NaN with sign.
      {dt::BF16,
       {0x3FC0, 0x8000, 0x0000, 0x7FC0, 0xFF80, 0x7FC0},
       {0xBFC0, 0x0000, 0x8000, 0xFFC0, 0x7F80, 0xFFC0}},
      {dt::FP16,
       {0x3E00, 0x8000, 0x0000, 0x7E00, 0xFC00, 0x7E00},
       {0xBE00, 0x0000, 0x8000, 0xFE00, 0x7C00, 0xFE00}},
      {dt::FP8_E5, {0x3E, 0x80, 0x00, 0x7E, 0xFC, 0x7E}, {0xBE, 0x00, 0x80, 0xFE, 0x7C, 0xFE}},
      {dt::FP8_E4, {0x3C, 0x80, 0x00, 0x7C, 0xF8, 0x7C}, {0xBC, 0x00, 0x80, 0xFC, 0x78, 0xFC}},
      {dt::FP8_E3, {0x38, 0x80, 0x00, 0x78, 0xF0, 0x78}, {0xB8, 0x00, 0x80, 0xF8, 0x70, 0xF8}},
  };
  for (const Case& c : cases) {
    for (uint8_t neg : {uint8_t{0}, uint8_t{1}}) {
      SCOPED_TRACE(testing::Message() << int{c.dtype} << " negated " << int{neg});
      Machine& m = fresh(Generation::V2);
      for (unsigned i = 0; i < 6; ++i) m.accumulators[2 + i] = acc[i];
      const auto before = m.accumulators;
      const unsigned size = rm::size_of(c.dtype);
      expect_ok(m, dra_word(c.dtype, 6, rm::sbuf_addr(2, 0x300), neg).encode());
      const V& want = neg ? c.negated : c.plain;
      for (unsigned i = 0; i < 6; ++i) {
        EXPECT_EQ(peek(m, SBUF, 2 + i, 0x300, size, 1), V{want[i]}) << "channel " << i;
        // Exactly one element: the next one is untouched.
        EXPECT_EQ(peek(m, SBUF, 2 + i, 0x300 + size, size, 1), V{0}) << "channel " << i;
      }
      EXPECT_EQ(peek(m, SBUF, 8, 0x300, 4, 1), V{0});  // channel 6 does not exist
      EXPECT_EQ(m.accumulators, before);               // not changed
    }
  }
}

TEST(DveReadAccumulator, NarrowingRoundsToNearestEven) {
  struct Case {
    uint8_t dtype;
    uint32_t acc, want;
  };
  const Case cases[] = {
      {dt::BF16, 0x3F808000, 0x3F80},  // 1 + 2^-8: tie, to even
      {dt::BF16, 0x3F818000, 0x3F82},  // 1 + 3 * 2^-8: tie, to even (up)
      {dt::BF16, 0x3F808001, 0x3F81},  // just above the tie
      {dt::BF16, 0x00010000, 0x0001},  // a subnormal stays
      {dt::BF16, 0x7F7FFFFF, 0x7F80},  // FLT_MAX rounds to +inf
      {dt::FP16, 0x3F801000, 0x3C00},  // 1 + 2^-11: tie, to even
      {dt::FP16, 0x3F803000, 0x3C02},  // 1 + 3 * 2^-11: tie, up to even
      {dt::FP16, 0x477FE000, 0x7BFF},  // 65504
      {dt::FP16, 0x477FF000, 0x7C00},  // 65520: tie to 65536, beyond: +inf
      {dt::FP16, 0x33800000, 0x0001},  // 2^-24: the smallest subnormal
      {dt::FP16, 0x33000000, 0x0000},  // 2^-25: tie with 0, to even
      {dt::FP8_E4, 0x43700000, 0x77},  // 240, the maximum
      {dt::FP8_E4, 0x437A0000, 0x78},  // 250 rounds to 256: +inf
      {dt::FP8_E4, 0x40400000, 0x44},  // 3.0
      {dt::FP8_E5, 0x47600000, 0x7B},  // 57344, the maximum
      {dt::FP8_E5, 0x3FA00000, 0x3D},  // 1.25
      {dt::FP8_E3, 0x41780000, 0x6F},  // 15.5, the maximum
      {dt::FP8_E3, 0x41800000, 0x70},  // 16: +inf
      {dt::FP8_E3, 0x3F840000, 0x30},  // 1 + 2^-5, half an E3 step: tie, to even (1.0)
      {dt::FP8_E3, 0x3F8C0000, 0x32},  // 1 + 3 * 2^-5: tie, to even (up)
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << int{c.dtype} << " " << std::hex << c.acc);
    Machine& m = fresh(Generation::V3);
    m.accumulators[9] = c.acc;
    expect_ok(m, dra_word(c.dtype, 1, rm::sbuf_addr(9, 0x10)).encode());
    EXPECT_EQ(peek(m, SBUF, 9, 0x10, rm::size_of(c.dtype), 1), V{c.want});
  }
}

TEST(DveReadAccumulator, FreshMachineReadsMinusInfinityAndReadsRepeat) {
  Machine& m = fresh(Generation::V5);
  expect_ok(m, dra_word(dt::FP32, 128, rm::sbuf_addr(0, 0x40)).encode());
  expect_ok(m, dra_word(dt::FP32, 128, rm::sbuf_addr(0, 0x44), 1).encode());
  expect_ok(m, dra_word(dt::BF16, 128, rm::sbuf_addr(0, 0x48)).encode());
  for (unsigned p = 0; p < 128; ++p) {
    EXPECT_EQ(peek(m, SBUF, p, 0x40, 4, 2), (V{kNegInf, 0x7F800000})) << p;
    EXPECT_EQ(peek(m, SBUF, p, 0x48, 2, 1), V{0xFF80}) << p;
    EXPECT_EQ(m.accumulators[p], kNegInf);
  }
  // Two reads of the same accumulators are equal.
  m.accumulators[70] = f32(42.0f);
  expect_ok(m, dra_word(dt::FP32, 1, rm::sbuf_addr(70, 0x100)).encode());
  expect_ok(m, dra_word(dt::FP32, 1, rm::sbuf_addr(70, 0x104)).encode());
  EXPECT_EQ(peek(m, SBUF, 70, 0x100, 4, 2), (V{f32(42.0f), f32(42.0f)}));
}

TEST(DveReadAccumulator, DestinationPartitionPicksTheAccumulatorStepIsIrrelevant) {
  Machine& m = fresh(Generation::V3);
  for (unsigned p = 0; p < 128; ++p) m.accumulators[p] = f32(static_cast<float>(p));
  // PSUM destination (FP32), with a negative step and a register-mode address.
  rm::DveReadAccumulatorWord x = dra_word(dt::FP32, 3, rm::psum_addr(100, 0x3FFC));
  x.dst.step[0] = -7;
  expect_ok(m, x.encode());
  for (unsigned c = 0; c < 3; ++c)
    EXPECT_EQ(peek(m, PSUM, 100 + c, 0x3FFC, 4, 1), V{f32(static_cast<float>(100 + c))});
  x = dra_word(dt::FP16, 2, rm::reg_addr(33));
  m.registers[33] = rm::sbuf_addr(64, 0x2002);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 64, 0x2002, 2, 1), V{0x5400});  // 64.0
  EXPECT_EQ(peek(m, SBUF, 65, 0x2002, 2, 1), V{0x5410});  // 65.0
}

// SPEC §4.13: a DveReadAccumulator whose destination starts at the RangeSelect's source
// partition reads back what the reduction left.
TEST(DveReadAccumulator, ReadsWhatRangeSelectAccumulatedOverTwoTiles) {
  Machine& m = fresh(Generation::V3);
  // Two channels (partitions 0 and 1); indices kept when 0 <= base + j <= 3.
  rm::RangeSelectWord r = rs_word(dt::FP32, dt::FP32, 4, 0.0f, op::IS_GE, 0.0f, op::IS_LE, 3.0f, 2);
  r.channels = 2;
  r.dst.addr = rm::sbuf_addr(10, 0x200);
  // Tile 1.
  poke(m, SBUF, 0, 0x100, 4, {f32(1.0f), f32(5.0f), f32(3.0f), f32(2.0f)});
  poke(m, SBUF, 1, 0x100, 4, {f32(-8.0f), f32(-9.0f), f32(-7.5f), f32(-10.0f)});
  expect_ok(m, r.encode());
  // Tile 2: channel 0 has a larger value, channel 1 only smaller ones.
  poke(m, SBUF, 0, 0x100, 4, {f32(7.0f), f32(-1.0f), f32(6.0f), f32(0.0f)});
  poke(m, SBUF, 1, 0x100, 4, {f32(-20.0f), f32(-30.0f), f32(-40.0f), f32(-50.0f)});
  expect_ok(m, r.encode());
  rm::DveReadAccumulatorWord d = dra_word(dt::FP32, 2, rm::sbuf_addr(0, 0x800));
  expect_ok(m, d.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x800, 4, 1), V{f32(7.0f)});
  EXPECT_EQ(peek(m, SBUF, 1, 0x800, 4, 1), V{f32(-7.5f)});
  d = dra_word(dt::BF16, 2, rm::sbuf_addr(0, 0x900), 1);
  expect_ok(m, d.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x900, 2, 1), V{0xC0E0});  // -7.0
  EXPECT_EQ(peek(m, SBUF, 1, 0x900, 2, 1), V{0x40F0});  // 7.5
  // A tile whose every index is filtered out on a fresh accumulator: -FLT_MAX, -inf in BF16.
  Machine& n = fresh(Generation::V3);
  r.bound1 = f32(-1.0f);  // nothing passes
  expect_ok(n, r.encode());
  d = dra_word(dt::BF16, 1, rm::sbuf_addr(0, 0x900));
  expect_ok(n, d.encode());
  EXPECT_EQ(peek(n, SBUF, 0, 0x900, 2, 1), V{0xFF80});
  d = dra_word(dt::FP32, 1, rm::sbuf_addr(0, 0x904));
  expect_ok(n, d.encode());
  EXPECT_EQ(peek(n, SBUF, 0, 0x904, 4, 1), V{kNegFltMax});
}

TEST(DveReadAccumulator, FaultsChangeNothing) {
  Machine& m = busy_machine(Generation::V2);
  rm::DveReadAccumulatorWord x = dra_word(dt::BF16, 4, rm::reg_addr(3));
  x.ev = kSet9;
  rm::DveReadAccumulatorWord wait = x;
  wait.ev = rm::Events{2, 9, 1, 9, 0};  // semaphore 9 == 0 never holds (it is 3)
  expect_unchanged(m, wait.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  for (uint32_t a : {rm::psum_addr(0, 0x100),       // a 2-byte PSUM write
                     rm::sbuf_addr(0, 0x101),       // misaligned
                     rm::sbuf_addr(125, 0x100),     // partitions 125..128
                     rm::sbuf_addr(0, 192 * 1024),  // beyond the V2 partition
                     0x20000100u}) {
    SCOPED_TRACE(testing::Message() << std::hex << a);
    m.registers[3] = a;
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress);
  }
  m.registers[3] = rm::sbuf_addr(124, 0x100);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 126, 0x100, 2, 1), V{0xC2C8});  // -100.0
  EXPECT_EQ(m.semaphores[9], 0x77u);
  // Invalid words change nothing: two elements, an integer dtype.
  rm::DveReadAccumulatorWord bad = x;
  bad.dst_element_count = 2;
  expect_unchanged(m, bad.encode(), Status::Invalid, std::nullopt);
  bad = x;
  bad.dtype = dt::INT32;
  expect_unchanged(m, bad.encode(), Status::Invalid, std::nullopt);
}

TEST(Trace, NewInstructionsReportEveryWrite) {
  Machine& m = busy_machine();
  rm::NonzeroWithCountWord x = nwc_word(dt::FP32, 4, 3, kMinus1);
  x.channels = 17;
  x.src.addr = rm::sbuf_addr(0, 0x100);
  x.dst.addr = rm::sbuf_addr(10, 0x400);
  x.ev = rm::Events{0, 0, 2, 9, 0};
  check_trace(m, x.encode(), {{SBUF, 10}, {SBUF, 26}});
  EXPECT_EQ(peek(m, SBUF, 10, 0x400, 4, 5), (V{3, 4, 5, 6, 4}));

  rm::CopyPredicatedScalarWord c = cps_word(dt::UINT32, dt::FP32, 4, 0x12345678, 0);
  c.channels = 2;
  c.pred.addr = rm::sbuf_addr(40, 0x100);
  c.dst.addr = rm::psum_addr(0, 0x100);
  poke(m, SBUF, 40, 0x100, 4, {0, 1, 0, 1});
  check_trace(m, c.encode(), {{PSUM, 0}, {PSUM, 1}});

  rm::DveReadAccumulatorWord d = dra_word(dt::FP8_E4, 3, rm::sbuf_addr(125, 0x11));
  check_trace(m, d.encode(), {{SBUF, 125}, {SBUF, 126}, {SBUF, 127}});
  // -100 = -1.5625 * 2^6: mantissa 4.5 eighths, a tie, to even: -96 = 1 1101 100.
  EXPECT_EQ(peek(m, SBUF, 126, 0x11, 1, 1), V{0xEC});
  EXPECT_EQ(peek(m, SBUF, 125, 0x11, 1, 1), V{0xF8});  // fresh: -inf
}

// ---- The DVE search instructions (SPEC §4.7-§4.10) --------------------------------------

namespace search {

constexpr uint32_t kFF = 0xFFFFFFFFu;
const uint32_t kQNaN = 0x7FC00000u;

rm::MatchValueLoadWord mvl(uint32_t addr, int step, uint8_t dtype = dt::FP32,
                           unsigned channels = 1) {
  rm::MatchValueLoadWord x;
  x.dtype = dtype;
  x.channels = static_cast<uint8_t>(channels);
  x.src = tensor2(addr, step, 8, 0, 1);
  return x;
}
rm::S4D2BnWord fi8(uint32_t src, unsigned n, uint32_t dst, uint8_t out = dt::UINT32) {
  rm::S4D2BnWord x;
  x.opcode = rm::kFindIndex8;
  x.out = out;
  x.src = rm::tensor4(src, 1, n, 0, 1, 0, 1, 0, 1);
  x.dst = tensor2(dst, 1, 8, 0, 1);
  return x;
}
rm::MatchReplace8Word mr8(uint32_t src, unsigned n, uint32_t dst, float imm) {
  rm::MatchReplace8Word x;
  x.src = rm::tensor4(src, 1, n, 0, 1, 0, 1, 0, 1);
  x.dst = rm::tensor4(dst, 1, n, 0, 1, 0, 1, 0, 1);
  x.immediate = f32(imm);
  return x;
}
std::array<uint32_t, 8> fp32s(std::initializer_list<float> v) {
  std::array<uint32_t, 8> a{};
  std::size_t i = 0;
  for (float f : v) a[i++] = f32(f);
  return a;
}
V fp32v(std::initializer_list<float> v) {
  V out;
  for (float f : v) out.push_back(f32(f));
  return out;
}

TEST(MatchValueLoad, OrdinalKLoadsSlotSevenMinusKAndReArms) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 4, 0x100, 4, fp32v({1, 2, 3, 4, 5, 6, 7, 8}));
  poke(m, SBUF, 5, 0x100, 4, fp32v({-1, -2, -3, -4, -5, -6, -7, -8}));
  // Lane 4 was used: flags and indices set. Loading re-arms it.
  m.match[4].matched = 0x5a;
  m.match[4].idx = {1, 2, 3, 4, 5, 6, 7, 8};
  expect_ok(m, mvl(rm::sbuf_addr(4, 0x100), 1, dt::FP32, 2).encode());
  EXPECT_EQ(m.match[4].mv, fp32s({8, 7, 6, 5, 4, 3, 2, 1}));
  EXPECT_EQ(m.match[5].mv, fp32s({-8, -7, -6, -5, -4, -3, -2, -1}));
  for (unsigned l : {4u, 5u}) {
    EXPECT_EQ(m.match[l].matched, 0);
    for (uint32_t i : m.match[l].idx) EXPECT_EQ(i, kFF);
  }
  EXPECT_TRUE(m.match[3].fresh());
  EXPECT_TRUE(m.match[6].fresh());
  // NKI's negated step: ordinal k reads vals[7 - k], so mv[n] = vals[n].
  expect_ok(m, mvl(rm::sbuf_addr(4, 0x100 + 28), -1).encode());
  EXPECT_EQ(m.match[4].mv, fp32s({1, 2, 3, 4, 5, 6, 7, 8}));
}

TEST(MatchValueLoad, ConvertsEveryDtypeToFp32) {
  Machine& m = fresh(Generation::V2);
  // BF16 1.5 = 0x3FC0, -2 = 0xC000; signalling NaN 0x7F81 widens quiet: 0x7FC10000.
  poke(m, SBUF, 0, 0, 2, {0x3FC0, 0xC000, 0x7F81, 0, 0, 0, 0, 0x8000});
  expect_ok(m, mvl(rm::sbuf_addr(0, 0), 1, dt::BF16).encode());
  EXPECT_EQ(m.match[0].mv, (std::array<uint32_t, 8>{0x80000000u, 0, 0, 0, 0, 0x7FC10000u,
                                                    0xC0000000u, 0x3FC00000u}));
  // INT32 16777217 is not an FP32: it rounds to even, 16777216 (0x4B800000); -1 is
  // 0xBF800000.
  poke(m, SBUF, 1, 0, 4, {16777217u, 0xFFFFFFFFu, 3, 0, 0, 0, 0, 16777219u});
  expect_ok(m, mvl(rm::sbuf_addr(1, 0), 1, dt::INT32).encode());
  EXPECT_EQ(m.match[1].mv, (std::array<uint32_t, 8>{0x4B800002u, 0, 0, 0, 0, 0x40400000u,
                                                    0xBF800000u, 0x4B800000u}));
  // FP32 signalling NaN passes unchanged.
  poke(m, SBUF, 2, 0, 4, {0x7F800001u, 0, 0, 0, 0, 0, 0, 0});
  expect_ok(m, mvl(rm::sbuf_addr(2, 0), 1).encode());
  EXPECT_EQ(m.match[2].mv[7], 0x7F800001u);
  // A zero step loads one element into every slot.
  expect_ok(m, mvl(rm::sbuf_addr(2, 0), 0).encode());
  for (uint32_t v : m.match[2].mv) EXPECT_EQ(v, 0x7F800001u);
}

TEST(FindIndex8, NkiDocstringExample) {
  // nc_find_index8: vals [3,8,8,8,8,8,8,8] loaded with a negated step, so mv[n] = vals[n].
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x40, 4, fp32v({3, 8, 8, 8, 8, 8, 8, 8}));
  poke(m, SBUF, 0, 0x100, 4, fp32v({1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8}));
  expect_ok(m, mvl(rm::sbuf_addr(0, 0x40 + 28), -1).encode());
  expect_ok(m, fi8(rm::sbuf_addr(0, 0x100), 11, rm::sbuf_addr(0, 0x200)).encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x200, 4, 8), (V{2, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(m.match[0].matched, 0xFF);
  EXPECT_EQ(m.match[0].idx, (std::array<uint32_t, 8>{2, 4, 5, 6, 7, 8, 9, 10}));
}

TEST(FindIndex8, NanNeverMatchesAndMinusZeroEqualsZero) {
  Machine& m = fresh(Generation::V3);
  // mv = [NaN, -0.0, 5, +inf, 5, 7, 7, 7] (slot order), loaded with a negated step.
  poke(m, SBUF, 3, 0, 4, {kQNaN, 0x80000000u, f32(5), 0x7F800000u, f32(5), f32(7), f32(7), f32(7)});
  expect_ok(m, mvl(rm::sbuf_addr(3, 28), -1).encode());
  // Data: NaN, +0.0, 5, 5, 5, inf, 7 (ordinals 0..6), then 9.
  poke(m, SBUF, 3, 0x100, 4, {kQNaN, 0, f32(5), f32(5), f32(5), 0x7F800000u, f32(7), f32(9)});
  expect_ok(m, fi8(rm::sbuf_addr(3, 0x100), 8, rm::sbuf_addr(3, 0x200), dt::UINT16).encode());
  // Slot 0 (NaN) finds nothing: 0xFFFF as UINT16. Slot 1 (-0.0) takes +0.0 at 1. Slots 2
  // and 4 (5) take 2 and 3. Slot 3 (inf) takes 5. Slot 5 takes the only 7; 6, 7 nothing.
  EXPECT_EQ(peek(m, SBUF, 3, 0x200, 2, 8), (V{0xFFFF, 1, 2, 5, 3, 6, 0xFFFF, 0xFFFF}));
  EXPECT_EQ(m.match[3].matched, 0b00111110);
  EXPECT_EQ(m.match[3].idx, (std::array<uint32_t, 8>{kFF, 1, 2, 5, 3, 6, kFF, kFF}));
  EXPECT_EQ(peek(m, SBUF, 3, 0x210, 2, 1), V{0});  // 8 elements only
}

TEST(FindIndex8, FlagsPersistUntilTheNextMatchValueLoad) {
  Machine& m = fresh(Generation::V4);
  poke(m, SBUF, 9, 0, 4, fp32v({1, 2, 3, 4, 5, 6, 7, 8}));  // mv[n] = n + 1
  expect_ok(m, mvl(rm::sbuf_addr(9, 28), -1).encode());
  poke(m, SBUF, 9, 0x100, 4, fp32v({1, 2, 3, 0, 0, 0, 0, 0}));
  expect_ok(m, fi8(rm::sbuf_addr(9, 0x100), 8, rm::sbuf_addr(9, 0x200)).encode());
  EXPECT_EQ(peek(m, SBUF, 9, 0x200, 4, 8), (V{0, 1, 2, kFF, kFF, kFF, kFF, kFF}));
  // Second search: 1, 2, 3 are matched already and keep their indices; 8 and 4 are new.
  poke(m, SBUF, 9, 0x140, 4, fp32v({8, 3, 2, 1, 4, 0, 0, 0}));
  expect_ok(m, fi8(rm::sbuf_addr(9, 0x140), 8, rm::sbuf_addr(9, 0x240)).encode());
  EXPECT_EQ(peek(m, SBUF, 9, 0x240, 4, 8), (V{0, 1, 2, 4, kFF, kFF, kFF, 0}));
  EXPECT_EQ(m.match[9].matched, 0b10001111);
  // MatchValueLoad re-arms: the same search now finds every key present afresh.
  expect_ok(m, mvl(rm::sbuf_addr(9, 28), -1).encode());
  expect_ok(m, fi8(rm::sbuf_addr(9, 0x140), 8, rm::sbuf_addr(9, 0x240)).encode());
  EXPECT_EQ(peek(m, SBUF, 9, 0x240, 4, 8), (V{3, 2, 1, 4, kFF, kFF, kFF, 0}));
}

TEST(MatchReplace8, NkiDocstringExample) {
  // nc_match_replace8: positive step, mv[7 - k] = vals[k]: mv = [8,8,8,8,8,8,8,3].
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x40, 4, fp32v({3, 8, 8, 8, 8, 8, 8, 8}));
  poke(m, SBUF, 0, 0x100, 4, fp32v({1, 2, 3, 4, 8, 8, 8, 8, 8, 8, 8}));
  expect_ok(m, mvl(rm::sbuf_addr(0, 0x40), 1).encode());
  EXPECT_EQ(m.match[0].mv, fp32s({8, 8, 8, 8, 8, 8, 8, 3}));
  expect_ok(m, mr8(rm::sbuf_addr(0, 0x100), 11, rm::sbuf_addr(0, 0x200), -100.0f).encode());
  EXPECT_EQ(m.match[0].matched, 0xFF);
  EXPECT_EQ(m.match[0].idx, (std::array<uint32_t, 8>{4, 5, 6, 7, 8, 9, 10, 2}));
  const uint32_t r = f32(-100.0f);
  EXPECT_EQ(peek(m, SBUF, 0, 0x200, 4, 11), (V{f32(1), f32(2), r, f32(4), r, r, r, r, r, r, r}));
}

TEST(MatchReplace8, EveryElementPassesThroughFp32) {
  Machine& m = fresh(Generation::V2);
  // mv: 16777216 in every slot; the INT32 data 16777217 rounds to it and matches.
  expect_ok(m, [&] {
    poke(m, SBUF, 1, 0, 4, V(8, 0x4B800000u));
    return mvl(rm::sbuf_addr(1, 0), 1).encode();
  }());
  rm::MatchReplace8Word x = mr8(rm::sbuf_addr(1, 0x100), 3, rm::sbuf_addr(1, 0x200), 2.5f);
  x.in = x.out = dt::INT32;
  poke(m, SBUF, 1, 0x100, 4, {16777217u, 16777219u, 7});
  expect_ok(m, x.encode());
  // Ordinal 0 matches slot 0 (replaced by 2.5 -> INT32 2, ties to even); 16777219 becomes
  // 16777220 through FP32; 7 stays 7. Ordinal 1 (16777220.0) does not equal 16777216.
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 3), (V{2, 16777220u, 7}));
  EXPECT_EQ(m.match[1].matched, 0x01);
  // BF16: a signalling NaN comes back as 0x7FC0 (never matches, SPEC §4.10).
  rm::MatchReplace8Word b = mr8(rm::sbuf_addr(2, 0x100), 2, rm::sbuf_addr(2, 0x200), 1.0f);
  b.in = b.out = dt::BF16;
  poke(m, SBUF, 2, 0x100, 2, {0x7F81, 0x3F80});
  expect_ok(m, b.encode());
  // Lane 2 is fresh: mv all +0.0, nothing equals it here.
  EXPECT_EQ(peek(m, SBUF, 2, 0x200, 2, 2), (V{0x7FC0, 0x3F80}));
  EXPECT_TRUE(m.match[2].fresh());
}

TEST(Max8, TopEightSmallestFirstAndDescendingWithANegatedStep) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 7, 0, 4, fp32v({5, -1, 9, 3, 9, 0.5f, 100, -7, 2, 8, 1, 4}));
  rm::S4D2BnWord x;
  x.src = rm::tensor4(rm::sbuf_addr(7, 0), 1, 4, 4, 3, 0, 1, 0, 1);
  x.dst = tensor2(rm::sbuf_addr(7, 0x100), 1, 8, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 7, 0x100, 4, 8), fp32v({2, 3, 4, 5, 8, 9, 9, 100}));
  // NKI's max8: destination from slot 7 down: descending, like -np.sort(-x)[:8].
  x.dst = tensor2(rm::sbuf_addr(7, 0x200 + 28), -1, 8, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 7, 0x200, 4, 8), fp32v({100, 9, 9, 8, 5, 4, 3, 2}));
  EXPECT_TRUE(m.match[7].fresh());  // no search state is touched
}

TEST(Max8, NansLeftOutMinusInfFillsAndMinusZeroBelowZero) {
  Machine& m = fresh(Generation::V3);
  // Ten elements: 4 NaNs, -0.0, +0.0, -3, 1, -inf, 2: six non-NaN values.
  poke(m, SBUF, 0, 0, 4,
       {kQNaN, 0x80000000u, 0xFFC00001u, 0, f32(-3), 0x7F800001u, f32(1), kNegInf, kQNaN, f32(2)});
  rm::S4D2BnWord x;
  x.src = rm::tensor4(rm::sbuf_addr(0, 0), 1, 10, 0, 1, 0, 1, 0, 1);
  x.dst = tensor2(rm::sbuf_addr(0, 0x100), 1, 8, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 8),
            (V{kNegInf, kNegInf, kNegInf, f32(-3), 0x80000000u, 0, f32(1), f32(2)}));
  // INT32 16777217 counts as 16777216: it ties with 16777216 and is written as it.
  poke(m, SBUF, 1, 0, 4, {16777217u, 16777216u, 0xFFFFFFFFu, 0, 1, 2, 3, 4});
  x.in = x.out = dt::INT32;
  x.src = rm::tensor4(rm::sbuf_addr(1, 0), 1, 8, 0, 1, 0, 1, 0, 1);
  x.dst = tensor2(rm::sbuf_addr(1, 0x100), 1, 8, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x100, 4, 8), (V{0xFFFFFFFFu, 0, 1, 2, 3, 4, 16777216u, 16777216u}));
  // BF16 out: rounded; the -inf fill stays -inf (0xFF80).
  poke(m, SBUF, 2, 0, 4, {f32(1.00390625f), kQNaN, kQNaN, kQNaN, kQNaN, kQNaN, kQNaN, kQNaN});
  x.in = dt::FP32;
  x.out = dt::BF16;
  x.src = rm::tensor4(rm::sbuf_addr(2, 0), 1, 8, 0, 1, 0, 1, 0, 1);
  x.dst = tensor2(rm::sbuf_addr(2, 0x100), 1, 8, 0, 1);
  expect_ok(m, x.encode());
  // 1 + 2^-8 is a tie between 0x3F80 and 0x3F81: to even, 0x3F80.
  EXPECT_EQ(peek(m, SBUF, 2, 0x100, 2, 8),
            (V{0xFF80, 0xFF80, 0xFF80, 0xFF80, 0xFF80, 0xFF80, 0xFF80, 0x3F80}));
}

TEST(Search, FaultsChangeNothingAndLanesAreTraced) {
  Machine& m = fresh(Generation::V3);
  m.match[5].matched = 3;
  // Register-mode source whose register holds a PSUM address with a bad offset.
  m.registers[4] = 0x2000000u + 0x7000u;
  rm::S4D2BnWord x = fi8(rm::reg_addr(4), 8, rm::sbuf_addr(5, 0x200));
  expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress);
  rm::MatchValueLoadWord l = mvl(rm::reg_addr(4), 1);
  expect_unchanged(m, l.encode(), Status::Faulted, FaultKind::BadAddress);
  l = mvl(rm::sbuf_addr(5, 0), 1);
  l.ev.wait_mode = 1;
  l.ev.wait_idx = 2;
  l.ev.value = 1;
  expect_unchanged(m, l.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  // Invalid: a count of 7.
  l = mvl(rm::sbuf_addr(5, 0), 1);
  l.src.num[0] = 7;
  expect_unchanged(m, l.encode(), Status::Invalid, std::nullopt);

  // The trace reports each lane whose state changed, once, with before and after.
  struct Lanes : gpsimd::TraceSink {
    std::vector<std::pair<unsigned, gpsimd::MatchLane>> seen;
    void retire(const Word&, const gpsimd::InstrDef&) override {}
    void memory(Space, unsigned, uint32_t, std::span<const uint8_t>) override {}
    void accumulator(unsigned, uint32_t, uint32_t) override {}
    void semaphore(unsigned, uint32_t, uint32_t) override {}
    void match_lane(unsigned lane, const gpsimd::MatchLane& before,
                    const gpsimd::MatchLane& after) override {
      EXPECT_NE(before, after);
      seen.emplace_back(lane, after);
    }
  } sink;
  poke(m, SBUF, 5, 0, 4, fp32v({1, 2, 3, 4, 5, 6, 7, 8}));
  // Lane 6 is fresh and loads eight +0.0: unchanged, not reported.
  ASSERT_TRUE(
      exec(m, mvl(rm::sbuf_addr(5, 0), 1, dt::FP32, 2).encode(), ExecOptions{false, &sink, true})
          .ok());
  ASSERT_EQ(sink.seen.size(), 1u);
  EXPECT_EQ(sink.seen[0].first, 5u);
  EXPECT_EQ(sink.seen[0].second, m.match[5]);
}

}  // namespace search

// ---- TensorTensorArith / TensorTensorBitvec (SPEC §4.14, §3.8, §3.9) -------------------

namespace tensor_tensor {

using gpsimd::Engine;
constexpr std::optional<Engine> kDefault = std::nullopt, kDve = Engine::DVE, kPool = Engine::POOL,
                                kAct = Engine::ACT;
constexpr uint8_t kArith = rm::kTensorTensorArith, kBitvec = rm::kTensorTensorBitvec;

// n elements per operand, one channel: src0 at SBUF partition 0 offset 0x100, src1 at
// 0x200, dst at 0x300, each a dense 1 x n x 1 walk.
rm::TensorTensorWord tt_word(uint8_t opcode, uint8_t lo, uint8_t hi, uint8_t out, uint8_t o,
                             unsigned n) {
  rm::TensorTensorWord x;
  x.opcode = opcode;
  x.lo = lo;
  x.hi = hi;
  x.out = out;
  x.op = o;
  x.src0 = tensor3(rm::sbuf_addr(0, 0x100), 1, n, static_cast<int>(n), 1, static_cast<int>(n), 1);
  x.src1 = tensor3(rm::sbuf_addr(0, 0x200), 1, n, static_cast<int>(n), 1, static_cast<int>(n), 1);
  x.dst = tensor3(rm::sbuf_addr(0, 0x300), 1, n, static_cast<int>(n), 1, static_cast<int>(n), 1);
  return x;
}

ExecOptions on(std::optional<Engine> e) {
  return ExecOptions{.engine = e};
}

// Runs op(a, b) element-wise on `engine` and returns the destination elements.
V elems(std::optional<Engine> e, uint8_t opcode, uint8_t lo, uint8_t hi, uint8_t out, uint8_t o,
        const V& a, const V& b, Generation g = Generation::V4) {
  Machine& m = fresh(g);
  poke(m, SBUF, 0, 0x100, rm::size_of(lo), a);
  poke(m, SBUF, 0, 0x200, rm::size_of(hi), b);
  const auto n = static_cast<unsigned>(a.size());
  const ExecResult r = run(m, tt_word(opcode, lo, hi, out, o, n).encode(), on(e));
  EXPECT_TRUE(r.ok()) << r.message();
  return peek(m, SBUF, 0, 0x300, rm::size_of(out), n);
}
// One element of 0x41.
uint32_t arith(std::optional<Engine> e, uint8_t lo, uint8_t hi, uint8_t out, uint8_t o, uint32_t a,
               uint32_t b, Generation g = Generation::V4) {
  return elems(e, kArith, lo, hi, out, o, {a}, {b}, g)[0];
}
uint32_t fp32(uint8_t o, uint32_t a, uint32_t b) {
  return arith(kDve, dt::FP32, dt::FP32, dt::FP32, o, a, b);
}
// Executes a word that must fault `kind` (or be invalid), changing nothing, on `engine`.
void expect_fault(Machine& m, const Word& w, FaultKind kind, std::optional<Engine> e) {
  expect_unchanged(m, w, Status::Faulted, kind, on(e));
}

constexpr uint32_t kOne = 0x3F800000u, kTwo = 0x40000000u, kThree = 0x40400000u,
                   kMinusThree = 0xC0400000u, kNaN = 0x7FC00000u;

// SPEC §4.14's NKI example: tensor_tensor(a, b, op=nl.add) on (128, 512) FP32 tiles is ADD,
// 128 channels from partition 0, three contiguous walks of 512; golden np.add bit for bit.
TEST(TensorTensorArith, NkiAddExampleOnA128By512Tile) {
  Machine& m = fresh(Generation::V3);
  rm::TensorTensorWord x = tt_word(kArith, dt::FP32, dt::FP32, dt::FP32, op::ADD, 512);
  x.channels = 128;
  x.src0 = tensor3(rm::sbuf_addr(0, 0), 1, 512, 512, 1, 512, 1);
  x.src1 = tensor3(rm::sbuf_addr(0, 0x800), 1, 512, 512, 1, 512, 1);
  x.dst = tensor3(rm::sbuf_addr(0, 0x1000), 1, 512, 512, 1, 512, 1);
  std::vector<V> a(128), b(128);
  for (unsigned p = 0; p < 128; ++p) {
    for (unsigned j = 0; j < 512; ++j) {
      a[p].push_back(f32(0.1f * static_cast<float>(j) - static_cast<float>(p)));
      b[p].push_back(f32(1.0f / static_cast<float>(p + j + 1)));
    }
    poke(m, SBUF, p, 0, 4, a[p]);
    poke(m, SBUF, p, 0x800, 4, b[p]);
  }
  expect_ok(m, x.encode());
  for (unsigned p = 0; p < 128; p += 17) {
    V want;
    for (unsigned j = 0; j < 512; ++j)  // np.add: one IEEE single-precision addition
      want.push_back(f32(rm::as_float(a[p][j]) + rm::as_float(b[p][j])));
    EXPECT_EQ(peek(m, SBUF, p, 0x1000, 4, 512), want) << "partition " << p;
  }
}

// SPEC §3.9 item 2, §4.14: DVE converts 32-bit integers through FP32; POOL computes them
// natively (aws-neuron-sdk#1308).
TEST(TensorTensorArith, Issue1308DveRoundsThroughFp32PoolIsExact) {
  // UINT32 16777217 + 0.
  EXPECT_EQ(arith(kDve, dt::UINT32, dt::UINT32, dt::UINT32, op::ADD, 0x01000001, 0), 0x01000000u);
  EXPECT_EQ(arith(kDefault, dt::UINT32, dt::UINT32, dt::UINT32, op::ADD, 0x01000001, 0),
            0x01000000u);
  EXPECT_EQ(arith(kPool, dt::UINT32, dt::UINT32, dt::UINT32, op::ADD, 0x01000001, 0), 0x01000001u);
  // INT32 0x7FFFFFFF * 0xD251: saturated on DVE (2^31 * 53841 > INT32 max), wrapped on
  // POOL: (2^31 - 1) * 53841 = 53841 * 2^31 - 53841 = 2^31 - 0xD251 (mod 2^32).
  EXPECT_EQ(arith(kDve, dt::INT32, dt::INT32, dt::INT32, op::MULT, 0x7FFFFFFF, 0xD251),
            0x7FFFFFFFu);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::MULT, 0x7FFFFFFF, 0xD251),
            0x7FFF2DAFu);
  // SUBTRACT: 0 - 16777217 is -16777216 through FP32, -16777217 natively.
  EXPECT_EQ(arith(kDve, dt::INT32, dt::INT32, dt::INT32, op::SUBTRACT, 0, 0x01000001), 0xFF000000u);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::SUBTRACT, 0, 0x01000001),
            0xFEFFFFFFu);
  // Mixed signedness counts as 32-bit integers: exact values compare (SPEC §3.8.2).
  EXPECT_EQ(arith(kPool, dt::UINT32, dt::INT32, dt::UINT32, op::IS_GT, 0xFFFFFFFF, 0xFFFFFFFF), 1u);
  EXPECT_EQ(arith(kPool, dt::UINT32, dt::INT32, dt::INT32, op::IS_EQ, 0x01000001, 0x01000000), 0u);
  EXPECT_EQ(arith(kDve, dt::UINT32, dt::INT32, dt::INT32, op::IS_EQ, 0x01000001, 0x01000000), 1u);
}

// SPEC §3.8.1: BYPASS takes the FP32 path too, also with equal dtypes.
TEST(TensorTensorArith, BypassRoundsThroughFp32) {
  EXPECT_EQ(arith(kDve, dt::INT32, dt::INT32, dt::INT32, op::BYPASS, 0x01000001, 7), 0x01000000u);
  EXPECT_EQ(arith(kDve, dt::INT32, dt::INT32, dt::INT32, op::BYPASS, 0x01000003, 7), 0x01000004u);
  // BF16 signalling NaN: quieted on the way through FP32, then BF16's canonical NaN.
  EXPECT_EQ(arith(kDve, dt::BF16, dt::BF16, dt::BF16, op::BYPASS, 0x7F81, 0), 0x7FC0u);
  EXPECT_EQ(arith(kDve, dt::BF16, dt::BF16, dt::BF16, op::BYPASS, 0xFF81, 0), 0xFFC0u);
  // Widened to FP32 its payload moves up and the quiet bit is set; FP32 keeps its bits.
  EXPECT_EQ(arith(kDve, dt::BF16, dt::BF16, dt::FP32, op::BYPASS, 0x7F81, 0), 0x7FC10000u);
  EXPECT_EQ(fp32(op::BYPASS, 0x7F800001, 0), 0x7F800001u);
  EXPECT_EQ(fp32(op::BYPASS, 0xFFC12345, 0), 0xFFC12345u);
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::FP32R, op::BYPASS, 0x7F800001, 0), 0x7F800001u);
  // On POOL INT32 in and out is native: the bits are kept.
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::BYPASS, 0x01000001, 7), 0x01000001u);
  // A NaN to an integer is 0; infinities saturate.
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::INT32, op::BYPASS, 0x7FC00000, 0), 0u);
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::INT16, op::BYPASS, 0xFF800000, 0), 0x8000u);
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::UINT8, op::BYPASS, 0x7F800000, 0), 0xFFu);
}

// SPEC §3.9 item 2: on POOL an 8/16-bit general op goes through FP32 and saturates; the
// integer ops compute natively at any width and wrap.
TEST(TensorTensorArith, PoolNarrowIntegersFp32PathVersusIntegerOps) {
  EXPECT_EQ(arith(kPool, dt::INT8, dt::INT8, dt::INT8, op::ADD, 0x64, 0x64), 0x7Fu);
  EXPECT_EQ(arith(kPool, dt::INT8, dt::INT8, dt::INT8, op::ADD_INT, 0x64, 0x64), 0xC8u);
  EXPECT_EQ(arith(kDve, dt::INT8, dt::INT8, dt::INT8, op::ADD, 0x64, 0x64), 0x7Fu);
  EXPECT_EQ(arith(kPool, dt::INT16, dt::INT16, dt::INT16, op::ADD_INT, 0x7FFF, 1), 0x8000u);
  EXPECT_EQ(arith(kPool, dt::INT16, dt::INT16, dt::INT16, op::MULT_INT, 300, 300), 0x5F90u);
  EXPECT_EQ(arith(kPool, dt::UINT8, dt::UINT8, dt::UINT8, op::SUBTRACT_INT, 1, 2), 0xFFu);
  // A general op with a 16-bit output among 32-bit inputs: FP32, saturating.
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT16, op::ADD, 0x7FFF, 1), 0x7FFFu);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::ADD, 0x7FFFFFFF, 1), 0x80000000u);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::FP32, dt::INT32, op::ADD, 0x7FFFFFFF, kOne), 0x7FFFFFFFu);
  // The integer ops of V3 and later (SPEC §3.8.2's native rules).
  const Generation v3 = Generation::V3;
  EXPECT_EQ(arith(kPool, dt::INT8, dt::INT8, dt::INT8, op::MAX_INT, 0xFF, 5, v3), 5u);
  EXPECT_EQ(arith(kPool, dt::UINT8, dt::UINT8, dt::UINT8, op::MAX_UINT, 0xFF, 5, v3), 0xFFu);
  EXPECT_EQ(arith(kPool, dt::INT8, dt::INT8, dt::INT8, op::MIN_INT, 0x80, 0x7F, v3), 0x80u);
  EXPECT_EQ(arith(kPool, dt::INT8, dt::INT8, dt::INT8, op::ABS_DIFF_INT, 0x80, 0x7F, v3), 0xFFu);
  EXPECT_EQ(arith(kPool, dt::INT16, dt::INT16, dt::INT16, op::ABS_MAX_INT, 0xFFFD, 3, v3), 3u);
  EXPECT_EQ(arith(kPool, dt::INT16, dt::INT16, dt::INT16, op::ABS_MAX_INT, 0xFFFB, 3, v3), 0xFFFBu);
  EXPECT_EQ(arith(kPool, dt::INT16, dt::INT16, dt::INT16, op::ABS_MIN_INT, 0xFFFB, 3, v3), 3u);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::IS_LT_INT, 0xFFFFFFFF, 0, v3), 1u);
  EXPECT_EQ(arith(kPool, dt::UINT32, dt::UINT32, dt::UINT32, op::IS_LT_UINT, 0xFFFFFFFF, 0, v3),
            0u);
  EXPECT_EQ(
      arith(kPool, dt::UINT32, dt::UINT32, dt::UINT32, op::MULT_UINT, 0xFFFFFFFF, 0xFFFFFFFF, v3),
      1u);
  EXPECT_EQ(arith(kPool, dt::INT16, dt::INT16, dt::INT16, op::IS_EQUAL_INT, 7, 7, v3), 1u);
  EXPECT_EQ(arith(kPool, dt::UINT16, dt::UINT16, dt::UINT16, op::IS_NE_INT, 7, 7, v3), 0u);
  // Native general ops on 32 bits: |INT32 min| wraps to itself; RE_LU; SQUARE.
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::ABSOLUTE_VALUE, 0x80000000, 1),
            0x80000000u);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::RE_LU, 0xFFFFFFF6, 1), 0u);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::INT32, dt::INT32, op::SQUARE, 0x10000, 1), 0u);
  EXPECT_EQ(arith(kPool, dt::INT32, dt::UINT32, dt::UINT32, op::LOGICAL_XOR, 5, 0), 1u);
}

// SPEC §3.8.2: NaN results are the default NaN; only BYPASS keeps a NaN's bits.
TEST(TensorTensorArith, NanResultsAreTheDefaultNan) {
  EXPECT_EQ(fp32(op::ADD, kOne, 0x7F800001), kNaN);
  EXPECT_EQ(fp32(op::MULT, 0xFFC00001, kTwo), kNaN);
  EXPECT_EQ(fp32(op::SUBTRACT, 0x7F800000, 0x7F800000), kNaN);  // inf - inf
  EXPECT_EQ(fp32(op::MULT, 0, 0xFF800000), kNaN);               // 0 * inf
  EXPECT_EQ(fp32(op::ABSOLUTE_VALUE, 0xFFC12345, 0), kNaN);
  EXPECT_EQ(fp32(op::ABSOLUTE_DIFF, 0x7FC00001, kOne), kNaN);
  EXPECT_EQ(fp32(op::MAX, 0x7FC00001, 0xFF800001), kNaN);
  EXPECT_EQ(fp32(op::SQUARE, 0x7FA00000, 0), kNaN);
  // Into BF16 / FP16: their canonical NaNs.
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::BF16, op::ADD, 0xFFC00001, kOne), 0x7FC0u);
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::FP16, op::ADD, 0xFFC00001, kOne), 0x7E00u);
  // Compares with a NaN: false, but IS_NE true; logicals count a NaN as true.
  EXPECT_EQ(fp32(op::IS_EQ, kNaN, kNaN), 0u);
  EXPECT_EQ(fp32(op::IS_GE, kNaN, kOne), 0u);
  EXPECT_EQ(fp32(op::IS_LT, kOne, 0xFF800001), 0u);
  EXPECT_EQ(fp32(op::IS_NE, kNaN, kNaN), kOne);
  EXPECT_EQ(fp32(op::LOGICAL_AND, kNaN, kTwo), kOne);
  EXPECT_EQ(fp32(op::LOGICAL_OR, 0x80000000, 0), 0u);
  EXPECT_EQ(fp32(op::LOGICAL_XOR, kNaN, 0), kOne);
  // 1.0 / 0.0 converted like any result: INT32 1, BF16 0x3F80.
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::INT32, op::IS_GT, kTwo, kOne), 1u);
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::BF16, op::IS_GT, kTwo, kOne), 0x3F80u);
  EXPECT_EQ(arith(kDve, dt::BF16, dt::FP16, dt::UINT8, op::IS_EQ, 0x3F80, 0x3C00), 1u);
}

// SPEC §3.8.2: MAX/MIN are maxNum/minNum with -0.0 < +0.0; ABS_MAX/ABS_MIN keep the signed
// operand, a tie or a NaN giving b; RE_LU is MAX(a, +0.0).
TEST(TensorTensorArith, SignedZerosMaxMinAndAbsMax) {
  EXPECT_EQ(fp32(op::MAX, 0x80000000, 0), 0u);
  EXPECT_EQ(fp32(op::MAX, 0, 0x80000000), 0u);
  EXPECT_EQ(fp32(op::MIN, 0, 0x80000000), 0x80000000u);
  EXPECT_EQ(fp32(op::MIN, 0x80000000, 0), 0x80000000u);
  EXPECT_EQ(fp32(op::MIN, 0x7FC00001, 0xC0000000), 0xC0000000u);
  EXPECT_EQ(fp32(op::MAX, 0x00000001, 0x7F800001), 0x00000001u);  // a subnormal, kept
  EXPECT_EQ(fp32(op::MAX, kMinusThree, 0xFF800000), kMinusThree);
  EXPECT_EQ(fp32(op::ABS_MAX, 0xC0A00000, kThree), 0xC0A00000u);  // -5 against 3
  EXPECT_EQ(fp32(op::ABS_MAX, kMinusThree, kThree), kThree);      // a tie gives b
  EXPECT_EQ(fp32(op::ABS_MAX, kThree, kMinusThree), kMinusThree);
  EXPECT_EQ(fp32(op::ABS_MIN, 0xC0A00000, kThree), kThree);
  EXPECT_EQ(fp32(op::ABS_MIN, kMinusThree, 0xC0A00000), kMinusThree);
  EXPECT_EQ(fp32(op::ABS_MAX, kNaN, kTwo), kTwo);        // the comparison is false: b
  EXPECT_EQ(fp32(op::ABS_MAX, kTwo, 0x7F800001), kNaN);  // b, a NaN: the default NaN
  EXPECT_EQ(fp32(op::ABS_MIN, 0x80000000, 0), 0u);       // |-0| < |+0| is false: b
  EXPECT_EQ(fp32(op::RE_LU, kNaN, kOne), 0u);
  EXPECT_EQ(fp32(op::RE_LU, 0x80000000, kOne), 0u);
  EXPECT_EQ(fp32(op::RE_LU, kMinusThree, kOne), 0u);
  EXPECT_EQ(fp32(op::RE_LU, kThree, kMinusThree), kThree);
  EXPECT_EQ(fp32(op::IS_EQ, 0x80000000, 0), kOne);  // -0.0 == +0.0
  // On V2 and V3 ABS_MAX does not exist (is_valid_enum).
  Machine& m = fresh(Generation::V3);
  const Word w = tt_word(kArith, dt::FP32, dt::FP32, dt::FP32, op::ABS_MAX, 1).encode();
  expect_unchanged(m, w, Status::Invalid, std::nullopt);
}

// SPEC §3.8.2: one rounding, IEEE signs of zeros, overflow to infinity, subnormals kept.
TEST(TensorTensorArith, Fp32ArithmeticRoundsOnceAndKeepsSubnormals) {
  EXPECT_EQ(fp32(op::ADD, 0x80000000, 0x80000000), 0x80000000u);  // (-0) + (-0)
  EXPECT_EQ(fp32(op::ADD, kThree, kMinusThree), 0u);              // x + (-x) = +0
  EXPECT_EQ(fp32(op::SUBTRACT, 0x80000000, 0), 0x80000000u);      // (-0) - (+0)
  EXPECT_EQ(fp32(op::MULT, 0x80000000, kThree), 0x80000000u);
  EXPECT_EQ(fp32(op::ADD, 0x7F7FFFFF, 0x7F7FFFFF), 0x7F800000u);
  EXPECT_EQ(fp32(op::MULT, 0xFF7FFFFF, kTwo), 0xFF800000u);
  EXPECT_EQ(fp32(op::ADD, 0x00000001, 0x00000001), 0x00000002u);
  EXPECT_EQ(fp32(op::MULT, 0x00800000, 0x3F000000), 0x00400000u);     // 2^-126 / 2: subnormal
  EXPECT_EQ(fp32(op::ADD, kOne, 0x33800000), kOne);                   // 1 + 2^-24: tie to even
  EXPECT_EQ(fp32(op::ADD, kOne, 0x33C00000), 0x3F800001u);            // 1 + 1.5 * 2^-24
  EXPECT_EQ(fp32(op::SQUARE, kMinusThree, 0x7FC00000), 0x41100000u);  // 9; b is ignored
  EXPECT_EQ(fp32(op::ABSOLUTE_VALUE, 0xC0200000, kOne), 0x40200000u);
  EXPECT_EQ(fp32(op::ABSOLUTE_DIFF, kOne, kThree), kTwo);
  EXPECT_EQ(fp32(op::ABSOLUTE_DIFF, kThree, kThree), 0u);
  // Integers in, the FP32 result rounded to nearest even and saturated.
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::INT32, op::ADD, 0x40200000, 0), 2u);  // 2.5
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::INT32, op::ADD, 0x40600000, 0), 4u);  // 3.5
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::UINT16, op::SUBTRACT, 0, kOne), 0u);
  EXPECT_EQ(arith(kDve, dt::INT16, dt::UINT16, dt::INT8, op::ADD, 0xFF9C, 0xFFFF), 0x7Fu);
  EXPECT_EQ(arith(kDve, dt::UINT8, dt::INT8, dt::FP16, op::MULT, 200, 0xFE), 0xDE40u);  // -400
  // Narrow float outputs round once to nearest even: 1 + 2^-8 ties to 1.0 in BF16.
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::BF16, op::ADD, kOne, 0x3B800000), 0x3F80u);
  EXPECT_EQ(arith(kDve, dt::FP32, dt::FP32, dt::BF16, op::ADD, kOne, 0x3BC00000), 0x3F81u);
  EXPECT_EQ(arith(kDve, dt::FP8_E4, dt::FP8_E5, dt::FP8_E3, op::ADD, 0x38, 0x3C),
            0x40u);  // 1 + 1 = 2: exponent 1 + bias 3, 0 100 0000
}

// SPEC §3.9 item 4: act, the ops of §3.8.3, INT64/UINT64 and the integer band off pool
// fault unsupported-op, after the wait and before any address is resolved; nothing changes.
TEST(TensorTensorArith, UnsupportedOpFaultsChangeNothing) {
  Machine& m = busy_machine(Generation::V4);
  rm::TensorTensorWord x = tt_word(kArith, dt::FP32, dt::FP32, dt::FP32, op::ADD, 4);
  x.ev = kSet9;
  expect_fault(m, x.encode(), FaultKind::UnsupportedOp, kAct);
  rm::TensorTensorWord p = x;
  p.op = op::POW;
  for (auto e : {kDefault, kDve, kPool, kAct})
    expect_fault(m, p.encode(), FaultKind::UnsupportedOp, e);
  rm::TensorTensorWord ints = x;
  ints.lo = ints.hi = ints.out = dt::INT32;
  for (uint8_t o : {op::MOD, op::DIVIDE_INT, op::MOD_INT}) {
    ints.op = o;
    expect_fault(m, ints.encode(), FaultKind::UnsupportedOp, kPool);
  }
  ints.lo = ints.hi = ints.out = dt::UINT32;
  for (uint8_t o : {op::DIVIDE_UINT, op::MOD_UINT}) {
    ints.op = o;
    expect_fault(m, ints.encode(), FaultKind::UnsupportedOp, kPool);
  }
  // The integer band runs on pool only.
  ints.op = op::ADD_INT;
  for (auto e : {kDefault, kDve, kAct}) expect_fault(m, ints.encode(), FaultKind::UnsupportedOp, e);
  // INT64 / UINT64 operands (valid words).
  rm::TensorTensorWord wide = x;
  wide.lo = dt::INT64;
  for (auto e : {kDve, kPool}) expect_fault(m, wide.encode(), FaultKind::UnsupportedOp, e);
  wide.lo = dt::FP32;
  wide.out = dt::UINT64;
  expect_fault(m, wide.encode(), FaultKind::UnsupportedOp, kPool);
  // Before bad-address: a register holding a malformed address is never resolved.
  rm::TensorTensorWord reg = x;
  reg.src1.addr = rm::reg_addr(20);
  m.registers[20] = 0x60000000;  // mode bits set
  expect_fault(m, reg.encode(), FaultKind::UnsupportedOp, kAct);
  expect_fault(m, reg.encode(), FaultKind::BadAddress, kDve);
  m.registers[20] = 0;
  // After the wait: an unsatisfiable wait is reported first.
  rm::TensorTensorWord wait = x;
  wait.ev = rm::Events{2, 9, 0, 0, 1234};  // sem[9] == 1234: it holds 3
  expect_fault(m, wait.encode(), FaultKind::SyncWouldBlock, kAct);
  // The same word retires where it is supported.
  expect_ok(m, x.encode(), on(kPool));
  EXPECT_EQ(m.semaphores[9], 0x77u);
}

// SPEC §4.14's faults: bad-address (register-mode tensors: malformed, out of bounds,
// misaligned, partitions beyond 127, PSUM on pool, both sources in PSUM), shape-mismatch,
// too-large, in that order; all or nothing.
TEST(TensorTensorArith, FaultsInOrderChangeNothing) {
  Machine& m = busy_machine(Generation::V3);
  rm::TensorTensorWord x = tt_word(kArith, dt::FP32, dt::FP32, dt::FP32, op::ADD, 4);
  x.ev = kSet9;
  x.src0.addr = rm::reg_addr(1);
  x.dst.addr = rm::reg_addr(2);
  m.registers[2] = rm::sbuf_addr(0, 0x300);
  for (uint32_t bad : {0x1E000000u, rm::sbuf_addr(0, 0x102), rm::sbuf_addr(0, 224 * 1024 - 8),
                       rm::psum_addr(0, 0x4000), rm::reg_addr(3)}) {
    m.registers[1] = bad;
    expect_fault(m, x.encode(), FaultKind::BadAddress, kDve);
  }
  // Partitions beyond 127: 4 channels from partition 125.
  rm::TensorTensorWord four = x;
  four.channels = 4;
  m.registers[1] = rm::sbuf_addr(125, 0x100);
  expect_fault(m, four.encode(), FaultKind::BadAddress, kDve);
  // PSUM through a register: fine on dve and act, bad-address on pool.
  m.registers[1] = rm::psum_addr(0, 0x100);
  expect_fault(m, x.encode(), FaultKind::BadAddress, kPool);
  m.registers[2] = rm::psum_addr(3, 0x0);
  m.registers[1] = rm::sbuf_addr(0, 0x100);
  expect_fault(m, x.encode(), FaultKind::BadAddress, kPool);
  // Both sources in PSUM: one static, one from a register (the static rule, checked late).
  rm::TensorTensorWord both = x;
  both.src1.addr = rm::psum_addr(1, 0x100);
  m.registers[1] = rm::psum_addr(0, 0x100);
  m.registers[2] = rm::sbuf_addr(0, 0x300);
  for (auto e : {kDefault, kDve}) expect_fault(m, both.encode(), FaultKind::BadAddress, e);
  expect_fault(m, both.encode(), FaultKind::UnsupportedOp, kAct);
  // Register-mode counts that differ: shape-mismatch...
  rm::TensorTensorWord shape = x;
  m.registers[1] = rm::sbuf_addr(0, 0x100);
  shape.src1.num[0] = 5;
  expect_fault(m, shape.encode(), FaultKind::ShapeMismatch, kDve);
  shape.src1.num[0] = 4;
  shape.dst.num[1] = 2;
  expect_fault(m, shape.encode(), FaultKind::ShapeMismatch, kPool);
  // ...after bad-address,
  m.registers[1] = 0x1E000000u;
  expect_fault(m, shape.encode(), FaultKind::BadAddress, kDve);
  m.registers[1] = rm::sbuf_addr(0, 0x100);
  // ...and before too-large: 4096 x 4097 > 2^24 elements with zero steps.
  rm::TensorTensorWord big = x;
  big.src0 = tensor3(rm::reg_addr(1), 0, 4096, 0, 4097, 0, 1);
  big.src1 = tensor3(rm::sbuf_addr(0, 0x200), 0, 4096, 0, 4097, 0, 1);
  big.dst = tensor3(rm::sbuf_addr(0, 0x300), 0, 4096, 0, 4096, 0, 1);
  expect_fault(m, big.encode(), FaultKind::ShapeMismatch, kDve);
  big.dst.num[1] = 4097;
  expect_fault(m, big.encode(), FaultKind::TooLarge, kDve);
  big.src0.addr = rm::sbuf_addr(0, 0x100);
  expect_fault(m, big.encode(), FaultKind::TooLarge, kPool);
  // The same word retires with a good register.
  x.src1.num[0] = 4;
  m.registers[1] = rm::sbuf_addr(0, 0x100);
  m.registers[2] = rm::sbuf_addr(0, 0x300);
  expect_ok(m, x.encode());
  EXPECT_EQ(m.semaphores[9], 0x77u);
}

// SPEC §4.14: shapes may differ (counts are compared), a zero step broadcasts, both
// sources are read before any write, a destination that revisits a byte keeps the later
// ordinal, and channel c uses partition start + c of each operand.
TEST(TensorTensorArith, WalksPairByOrdinalAcrossShapesAndChannels) {
  Machine& m = fresh(Generation::V2);
  rm::TensorTensorWord x = tt_word(kArith, dt::INT16, dt::FP32, dt::FP32, op::SUBTRACT, 8);
  x.channels = 2;
  x.src0 = tensor3(rm::sbuf_addr(3, 0x100), 1, 8, 8, 1, 8, 1);   // [8, 1, 1]
  x.src1 = tensor3(rm::sbuf_addr(10, 0x200), 0, 2, 1, 4, 0, 1);  // [2, 4, 1]: each twice
  x.dst = tensor3(rm::psum_addr(5, 0x40), 2, 4, 1, 2, 0, 1);     // [4, 2, 1] interleaved
  for (unsigned c = 0; c < 2; ++c) {
    poke(m, SBUF, 3 + c, 0x100, 2, {1, 2, 3, 4, 5, 6, 7, 8});
    poke(m, SBUF, 10 + c, 0x200, 4, {f32(c == 0 ? 10.0f : 20.0f), f32(20), f32(30), f32(40)});
  }
  expect_ok(m, x.encode());
  // ordinal j: a = j + 1, b = src1[j / 2]; dst ordinal j at element 2 * (j % 4) + j / 4.
  for (unsigned c = 0; c < 2; ++c) {
    const float b0 = c == 0 ? 10.0f : 20.0f;
    EXPECT_EQ(peek(m, PSUM, 5 + c, 0x40, 4, 8),
              (V{f32(1 - b0), f32(5 - 30), f32(2 - b0), f32(6 - 30), f32(3 - 20), f32(7 - 40),
                 f32(4 - 20), f32(8 - 40)}))
        << "channel " << c;
  }
  // In place: dst over src0 (the sources are read first).
  Machine& q = fresh(Generation::V3);
  rm::TensorTensorWord y = tt_word(kArith, dt::FP32, dt::FP32, dt::FP32, op::ADD, 4);
  y.dst = y.src0;
  y.dst.step[0] = -1;
  y.dst.addr = rm::sbuf_addr(0, 0x10C);  // the same bytes, backwards
  poke(q, SBUF, 0, 0x100, 4, {f32(1), f32(2), f32(3), f32(4)});
  poke(q, SBUF, 0, 0x200, 4, {f32(10), f32(20), f32(30), f32(40)});
  expect_ok(q, y.encode());
  EXPECT_EQ(peek(q, SBUF, 0, 0x100, 4, 4), (V{f32(44), f32(33), f32(22), f32(11)}));
  // A zero-step destination: every ordinal lands on one element; the last one wins.
  rm::TensorTensorWord z = tt_word(kArith, dt::FP32, dt::FP32, dt::FP32, op::MULT, 4);
  z.dst.step[0] = 0;
  expect_ok(q, z.encode());
  EXPECT_EQ(peek(q, SBUF, 0, 0x300, 4, 2), (V{f32(11 * 40), 0}));
}

TEST(TensorTensorArith, RegisterAndPsumOperands) {
  Machine& m = fresh(Generation::V5);
  rm::TensorTensorWord x = tt_word(kArith, dt::FP32, dt::INT32, dt::INT32, op::MAX, 3);
  x.src0.addr = rm::reg_addr(4);
  x.src1.addr = rm::psum_addr(2, 0x80);
  x.dst.addr = rm::reg_addr(5);
  // A PSUM source through a register while the other source is in PSUM: bad-address.
  m.registers[4] = rm::psum_addr(9, 0x20);
  m.registers[5] = rm::sbuf_addr(7, 0x40);
  poke(m, PSUM, 9, 0x20, 4, {f32(-1.5f), f32(2.5f), f32(1e10f)});
  poke(m, PSUM, 2, 0x80, 4, {5, 2, 0xFFFFFFFF});
  expect_fault(m, x.encode(), FaultKind::BadAddress, kDve);
  m.registers[4] = rm::sbuf_addr(9, 0x20);
  poke(m, SBUF, 9, 0x20, 4, {f32(-1.5f), f32(2.5f), f32(1e10f)});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 7, 0x40, 4, 3), (V{5, 2, 0x7FFFFFFF}));  // 2.5 -> 2 (even)
  // On act the same word faults unsupported-op; on pool its static PSUM source is invalid.
  expect_fault(m, x.encode(), FaultKind::UnsupportedOp, kAct);
  expect_unchanged(m, x.encode(), Status::Invalid, std::nullopt, on(kPool));
}

// SPEC §3.8.2's raw-bits examples (INT16) and shift counts >= the width; no conversion.
TEST(TensorTensorBitvec, ShiftsWithCountsBeyondTheWidth) {
  auto bits = [](std::optional<Engine> e, uint8_t d, uint8_t o, const V& a, const V& b) {
    return elems(e, kBitvec, d, d, d, o, a, b, Generation::V2);
  };
  EXPECT_EQ(bits(kDve, dt::INT16, op::ARITH_SHIFT_RIGHT, {0x8000, 0x8000, 0x4000, 0x8001},
                 {3, 0x10, 1, 0xFFFF}),
            (V{0xF000, 0xFFFF, 0x2000, 0xFFFF}));
  EXPECT_EQ(
      bits(kPool, dt::INT16, op::LOGICAL_SHIFT_RIGHT, {0x8000, 0x8000, 0xFFFF}, {0xFFFF, 15, 16}),
      (V{0x0000, 0x0001, 0x0000}));
  EXPECT_EQ(
      bits(kDefault, dt::INT16, op::LOGICAL_SHIFT_LEFT, {0x1234, 0x1234, 0x1234}, {4, 15, 16}),
      (V{0x2340, 0x0000, 0x0000}));
  EXPECT_EQ(bits(kDve, dt::UINT16, op::ARITH_SHIFT_LEFT, {0xFFFF, 0x0001}, {1, 0x8000}),
            (V{0xFFFE, 0x0000}));
  // Unsigned dtypes too shift arithmetically right with bit w-1 (bits are bits).
  EXPECT_EQ(bits(kDve, dt::UINT32, op::ARITH_SHIFT_RIGHT, {0x80000000, 0x80000000, 0x7FFFFFFF},
                 {31, 40, 0xFFFFFFFF}),
            (V{0xFFFFFFFF, 0xFFFFFFFF, 0x00000000}));
  EXPECT_EQ(bits(kPool, dt::INT32, op::LOGICAL_SHIFT_LEFT, {1, 1, 0x80000001}, {31, 32, 0}),
            (V{0x80000000, 0, 0x80000001}));
  // An INT8 count of -1 is 255: every bit out.
  EXPECT_EQ(bits(kDve, dt::INT8, op::LOGICAL_SHIFT_LEFT, {0x01, 0x81}, {0xFF, 7}), (V{0, 0x80}));
  EXPECT_EQ(bits(kDve, dt::INT8, op::ARITH_SHIFT_RIGHT, {0x81, 0x7F}, {0xFF, 6}), (V{0xFF, 0x01}));
}

TEST(TensorTensorBitvec, BitwiseOpsAndBypassCopyBits) {
  auto bits = [](std::optional<Engine> e, uint8_t d, uint8_t o, const V& a, const V& b) {
    return elems(e, kBitvec, d, d, d, o, a, b, Generation::V3);
  };
  // BYPASS keeps every bit (no FP32 rounding as for 0x41), on dve and pool.
  for (auto e : {kDve, kPool})
    EXPECT_EQ(bits(e, dt::INT32, op::BYPASS, {0x01000001, 0x7F800001}, {5, 6}),
              (V{0x01000001, 0x7F800001}));
  EXPECT_EQ(bits(kDve, dt::UINT8, op::BITWISE_NOT, {0x00, 0xA5}, {0xFF, 0x12}), (V{0xFF, 0x5A}));
  EXPECT_EQ(bits(kPool, dt::INT16, op::BITWISE_AND, {0xF0F0, 0x1234}, {0x0FF0, 0xFFFF}),
            (V{0x00F0, 0x1234}));
  EXPECT_EQ(bits(kDve, dt::UINT32, op::BITWISE_OR, {0x80000000, 0}, {1, 0}), (V{0x80000001, 0}));
  EXPECT_EQ(bits(kDve, dt::INT8, op::BITWISE_XOR, {0xFF, 0x0F}, {0x0F, 0x0F}), (V{0xF0, 0x00}));
}

TEST(TensorTensorBitvec, FaultsChangeNothing) {
  Machine& m = busy_machine(Generation::V3);
  rm::TensorTensorWord x = tt_word(kBitvec, dt::UINT32, dt::UINT32, dt::UINT32, op::BITWISE_XOR, 4);
  x.ev = kSet9;
  expect_fault(m, x.encode(), FaultKind::UnsupportedOp, kAct);
  // Every INT64/UINT64 word faults, the 64-bit shifts included.
  rm::TensorTensorWord wide = x;
  wide.lo = dt::UINT64;
  wide.op = op::LOGICAL_SHIFT_LEFT;
  for (auto e : {kDefault, kDve, kPool})
    expect_fault(m, wide.encode(), FaultKind::UnsupportedOp, e);
  wide.lo = wide.hi = wide.out = dt::INT64;
  wide.op = op::BITWISE_AND;
  expect_fault(m, wide.encode(), FaultKind::UnsupportedOp, kDve);
  // Register-mode faults as for 0x41.
  rm::TensorTensorWord reg = x;
  reg.dst.addr = rm::reg_addr(6);
  m.registers[6] = rm::psum_addr(0, 0x100);
  expect_fault(m, reg.encode(), FaultKind::BadAddress, kPool);
  reg.dst.num[0] = 3;
  expect_fault(m, reg.encode(), FaultKind::ShapeMismatch, kDve);
  reg.dst.num[0] = 4;
  expect_ok(m, reg.encode(), on(kDve));  // a PSUM destination is fine on dve
  EXPECT_EQ(m.semaphores[9], 0x77u);
}

// Every architectural write of a TensorTensor word is in the trace, one region per
// destination partition.
TEST(TensorTensorBitvec, TraceReportsTheDestination) {
  Machine& m = fresh(Generation::V4);
  rm::TensorTensorWord x = tt_word(kBitvec, dt::UINT16, dt::UINT16, dt::UINT16, op::BITWISE_OR, 4);
  x.channels = 3;
  check_trace(m, x.encode(), {{SBUF, 0}, {SBUF, 1}, {SBUF, 2}});
}

}  // namespace tensor_tensor

// ---- TensorScalar (SPEC §4.15) ------------------------------------------------------------

namespace tensor_scalar {

namespace aop = rm::ts::aop;
using gpsimd::Engine;
using rm::ts::TensorScalarWord;

constexpr uint8_t kArith = rm::kTensorScalarArith, kBitvec = rm::kTensorScalarBitvec,
                  kPtrArith = rm::kTensorScalarPtrArith, kPtrBitvec = rm::kTensorScalarPtrBitvec;
constexpr uint32_t kOne = 0x3F800000u;  // 1.0f

// One channel: `n` dense elements of `in` at SBUF partition 0 offset 0x100, `n` of `out` at
// partition 1 offset 0x200; instruction immediates (pointer forms: set imm0/imm1 to ADDR4s).
TensorScalarWord ts_word(uint8_t opcode, uint8_t in, uint8_t out, unsigned n, uint8_t op0,
                         uint32_t imm0, uint8_t op1 = aop::BYPASS, uint32_t imm1 = 0,
                         uint8_t reverse = 0) {
  TensorScalarWord x;
  x.opcode = opcode;
  x.in = in;
  x.out = out;
  x.op0 = op0;
  x.imm0 = imm0;
  x.op1 = op1;
  x.imm1 = imm1;
  x.reverse = reverse;
  x.src = tensor3(rm::sbuf_addr(0, 0x100), 1, n, static_cast<int>(n), 1, 0, 1);
  x.dst = tensor3(rm::sbuf_addr(1, 0x200), 1, n, static_cast<int>(n), 1, 0, 1);
  return x;
}

// Runs `x` on a fresh machine of `g` with `src` (elements of x.in) at its source, and
// returns its destination elements.
V ts_result(const TensorScalarWord& x, const V& src, Generation g = Generation::V3) {
  Machine& m = fresh(g);
  poke(m, SBUF, 0, 0x100, rm::size_of(x.in), src);
  const ExecResult r = run(m, x.encode());
  EXPECT_TRUE(r.ok()) << r.message();
  return peek(m, SBUF, 1, 0x200, rm::size_of(x.out), static_cast<unsigned>(src.size()));
}

// A fault of the given kind that changes nothing (fast and scalar path; the reference
// model agrees on the kind).
void expect_ts_fault(Machine& m, const Word& w, FaultKind kind,
                     std::optional<Engine> engine = std::nullopt) {
  expect_unchanged(m, w, Status::Faulted, kind, ExecOptions{.engine = engine});
}

}  // namespace tensor_scalar

using namespace tensor_scalar;

// NKI's examples (SPEC §4.15): a - 1.0 (op0 SUBTRACT, imm0 1.0, op1 BYPASS) and 1.0 - c
// (the same with reverse FIRST), bit for bit the float32 goldens.
TEST(TensorScalarArith, NkiSubtractOneAndOneMinus) {
  // 3.0, 0.5, -2.0, 1.0, inf, a NaN with a payload, -0.0, the smallest subnormal.
  const V x = {0x40400000, 0x3F000000, 0xC0000000, kOne, 0x7F800000, 0x7FC00001, 0x80000000, 1};
  // 2.0, -0.5, -3.0, +0.0, inf, the default NaN, -1.0, -1.0 (2^-149 - 1 rounds to -1).
  EXPECT_EQ(
      ts_result(ts_word(kArith, dt::FP32, dt::FP32, 8, aop::SUBTRACT, kOne), x),
      (V{0x40000000, 0xBF000000, 0xC0400000, 0, 0x7F800000, 0x7FC00000, 0xBF800000, 0xBF800000}));
  // 1 - x: -2.0, 0.5, 3.0, +0.0, -inf, the default NaN, 1.0, 1.0 (1 - 2^-149 rounds to 1).
  EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::FP32, 8, aop::SUBTRACT, kOne, aop::BYPASS, 0,
                              /*FIRST*/ 1),
                      x),
            (V{0xC0000000, 0x3F000000, 0x40400000, 0, 0xFF800000, 0x7FC00000, kOne, kOne}));
}

// NKI's e * f + 2.5 with f a (64, 1) tile (SPEC §4.15): op0 MULT by a pointer to f's
// column, op1 ADD 2.5; 64 channels, e a (64, 4) tile. Every value is exact in FP32.
TEST(TensorScalarArith, NkiMultiplyByAColumnThenAdd) {
  for (uint8_t opcode : {kArith, kPtrArith}) {
    SCOPED_TRACE(int{opcode});
    Machine& m = fresh(Generation::V3);
    TensorScalarWord x = ts_word(opcode, dt::FP32, dt::FP32, 4, aop::MULT, rm::sbuf_addr(0, 0x40),
                                 aop::ADD, 0x40200000);  // 2.5
    x.channels = 64;
    if (opcode == kArith) {
      x.imm0_src = 1;  // POINTER_IMMEDIATE
    } else {
      x.imm1 = rm::sbuf_addr(0, 0x44);  // the pointer form reads 2.5 from memory too
    }
    for (unsigned c = 0; c < 64; ++c) {
      poke(m, SBUF, c, 0x100, 4, {f32(1), f32(2), f32(3), f32(4)});  // e[c][k] = k + 1
      poke(m, SBUF, c, 0x40, 4, {f32(0.25f * static_cast<float>(c) - 4.0f), f32(2.5f)});
    }
    expect_ok(m, x.encode());
    for (unsigned c = 0; c < 64; ++c) {
      const float f = 0.25f * static_cast<float>(c) - 4.0f;
      EXPECT_EQ(peek(m, SBUF, 1 + c, 0x200, 4, 4),
                (V{f32(1 * f + 2.5f), f32(2 * f + 2.5f), f32(3 * f + 2.5f), f32(4 * f + 2.5f)}))
          << c;
    }
  }
}

// NKI's abs_max(-5, 3) = -5, abs_max(1, -1) = -1, abs_min(5, -3) = -3 (SPEC §4.15, V4+): the
// signed operand of the larger (smaller) magnitude, a tie giving the right operand.
TEST(TensorScalarArith, NkiAbsMaxAbsMin) {
  const auto one = [](uint8_t op, uint32_t x, uint32_t s) {
    return ts_result(ts_word(kArith, dt::FP32, dt::FP32, 1, op, s), {x}, Generation::V4)[0];
  };
  EXPECT_EQ(one(aop::ABS_MAX, 0xC0A00000, 0x40400000), 0xC0A00000u);  // -5 against 3
  EXPECT_EQ(one(aop::ABS_MAX, kOne, 0xBF800000), 0xBF800000u);        // 1 against -1: -1
  EXPECT_EQ(one(aop::ABS_MIN, 0x40A00000, 0xC0400000), 0xC0400000u);  // 5 against -3: -3
  EXPECT_EQ(one(aop::ABS_MIN, 0xC0000000, 0x40000000), 0x40000000u);  // -2 against 2: 2
  EXPECT_EQ(one(aop::ABS_MAX, 0x7FC00001, 0x40400000), 0x40400000u);  // NaN: the scalar
  EXPECT_EQ(one(aop::ABS_MAX, 0x40400000, 0x7F800001), 0x7FC00000u);  // a NaN b: default NaN
}

// SPEC §3.8, §4.15: a unary op under reverse computes on the scalar; the element is read
// and ignored.
TEST(TensorScalarArith, UnaryOpUnderReverseComputesOnTheScalar) {
  TensorScalarWord x = ts_word(kArith, dt::FP32, dt::FP32, 2, aop::ABSOLUTE_VALUE, 0x40400000);
  x.reverse = 1;                                                                   // FIRST
  EXPECT_EQ(ts_result(x, {0xC0A00000, 0x7FC00000}), (V{0x40400000, 0x40400000}));  // |3.0|
  x.reverse = 0;
  EXPECT_EQ(ts_result(x, {0xC0A00000, 0xFF800000}), (V{0x40A00000, 0x7F800000}));  // |x|
  // SQUARE (V4+) of the scalar -3.0 under BOTH; op1 BYPASS passes t.
  TensorScalarWord q = ts_word(kArith, dt::FP32, dt::FP32, 1, aop::SQUARE, 0xC0400000);
  q.reverse = 3;
  EXPECT_EQ(ts_result(q, {f32(7)}, Generation::V5), (V{f32(9)}));
}

// SPEC §3.8.1: the FP32 path holds for BYPASS too, in and out of the same dtype: INT32
// 0x01000001 becomes 0x01000000, a BF16 signalling NaN the canonical 0x7FC0; an FP32
// passes unchanged, signalling NaNs included.
TEST(TensorScalarArith, BypassBypassGoesThroughFp32) {
  EXPECT_EQ(ts_result(ts_word(kArith, dt::INT32, dt::INT32, 4, aop::BYPASS, 0),
                      {0x01000001, 0x7FFFFFFF, 0xFEFFFFFF, 0x00FFFFFF}),
            (V{0x01000000, 0x7FFFFFFF, 0xFF000000, 0x00FFFFFF}));  // 2^31 saturates
  EXPECT_EQ(ts_result(ts_word(kArith, dt::BF16, dt::BF16, 4, aop::BYPASS, 0),
                      {0x7F81, 0xFF81, 0x3F80, 0x8001}),
            (V{0x7FC0, 0xFFC0, 0x3F80, 0x8001}));
  EXPECT_EQ(
      ts_result(ts_word(kArith, dt::FP32, dt::FP32, 2, aop::BYPASS, 0), {0x7F800001, 0xFFC12345}),
      (V{0x7F800001, 0xFFC12345}));
  // The same words on the bitvec opcode copy the bits.
  EXPECT_EQ(ts_result(ts_word(kBitvec, dt::INT32, dt::INT32, 2, aop::BYPASS, 0),
                      {0x01000001, 0x7FFFFFFF}),
            (V{0x01000001, 0x7FFFFFFF}));
}

// SPEC §4.15: t stays FP32; only r is converted. (1 + 2^-20) + 1 - 2 = 2^-20 in BF16;
// rounding t to BF16 first would give 0.
TEST(TensorScalarArith, TheIntermediateStaysFp32) {
  EXPECT_EQ(
      ts_result(ts_word(kArith, dt::FP32, dt::BF16, 2, aop::ADD, kOne, aop::SUBTRACT, 0x40000000),
                {0x3F800008, kOne}),
      (V{0x3580, 0x0000}));
}

// SPEC §5.1: from FP32 to an integer rounds to nearest even and saturates; NaN is 0.
TEST(TensorScalarArith, IntegerOutputsRoundAndSaturate) {
  EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::INT8, 8, aop::BYPASS, 0),
                      {f32(300), f32(-1e9f), 0x7FC00000, f32(2.5f), f32(3.5f), f32(-2.5f),
                       0x80000000, 0x7F800000}),
            (V{0x7F, 0x80, 0x00, 0x02, 0x04, 0xFE, 0x00, 0x7F}));
  // UINT16 out of FP16 data times 4: -1 -> 0, 65535.5 rounds to 65536 and saturates.
  EXPECT_EQ(ts_result(ts_word(kArith, dt::FP16, dt::UINT16, 3, aop::MULT, f32(4)),
                      {0xBC00, 0x7BFF, 0x3400}),  // -1.0, 65504, 0.25
            (V{0x0000, 0xFFFF, 0x0001}));
  EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::UINT16, 1, aop::ADD, f32(0.5f)), {f32(65535)}),
            (V{0xFFFF}));
}

// SPEC §4.15: the reverse flags make the scalar the left operand of op0 (FIRST), op1
// (SECOND) or both, with x = 4, s0 = 1, s1 = 10 and two SUBTRACTs.
TEST(TensorScalarArith, ReverseFlagsPickTheLeftOperand) {
  const float want[4] = {(4 - 1) - 10, (1 - 4) - 10, 10 - (4 - 1), 10 - (1 - 4)};
  for (uint8_t rev = 0; rev < 4; ++rev)
    EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::FP32, 1, aop::SUBTRACT, kOne, aop::SUBTRACT,
                                f32(10), rev),
                        {f32(4)}),
              (V{f32(want[rev])}))
        << int{rev};
  // BYPASS passes the data side whatever the flag: op1 BYPASS with BOTH gives t = 1 + x.
  EXPECT_EQ(
      ts_result(ts_word(kArith, dt::FP32, dt::FP32, 1, aop::ADD, kOne, aop::BYPASS, f32(100), 3),
                {f32(4)}),
      (V{f32(5)}));
}

// SPEC §3.8.2 through TensorScalarArith, one element per case (x op0 s0, op1 BYPASS).
TEST(TensorScalarArith, Fp32OpsOfSpec) {
  struct Case {
    uint8_t op;
    uint32_t x, s, want;
  };
  const Case cases[] = {
      {aop::ADD, kOne, 0x7F800001, 0x7FC00000},         // a NaN operand: the default NaN
      {aop::ADD, 0x7F800000, 0xFF800000, 0x7FC00000},   // inf - inf
      {aop::MULT, 0, 0x7F800000, 0x7FC00000},           // 0 * inf
      {aop::ADD, 0x80000000, 0x80000000, 0x80000000},   // -0 + -0 = -0
      {aop::SUBTRACT, kOne, kOne, 0},                   // x - x = +0
      {aop::MULT, 0x80000000, kOne, 0x80000000},        // -0 * 1 = -0
      {aop::MULT, 0x00800000, 0x3F000000, 0x00400000},  // a subnormal result is kept
      {aop::MAX, 0x80000000, 0, 0},                     // -0 < +0
      {aop::MIN, 0, 0x80000000, 0x80000000},
      {aop::MIN, 0x7FC00001, 0xC0000000, 0xC0000000},  // maxNum/minNum ignore a NaN
      {aop::MAX, 0x7FC00001, 0xFFC00000, 0x7FC00000},  // two NaNs: the default NaN
      {aop::IS_GT, f32(2), kOne, kOne},
      {aop::IS_LE, f32(2), kOne, 0},
      {aop::IS_EQ, 0x80000000, 0, kOne},  // -0 == +0
      {aop::IS_NE, 0x7FC00000, 0x7FC00000, kOne},
      {aop::IS_GE, 0x7FC00000, 0x7FC00000, 0},
      {aop::LOGICAL_AND, 0x7FC00000, kOne, kOne},  // NaN is true
      {aop::LOGICAL_OR, 0x80000000, 0, 0},         // -0 is false
      {aop::LOGICAL_XOR, f32(3), 0, kOne},
      {aop::ABSOLUTE_DIFF, kOne, f32(3), f32(2)},
      {aop::ABSOLUTE_VALUE, 0x80000000, f32(3), 0},
      {aop::ABSOLUTE_VALUE, 0xFFC12345, 0, 0x7FC00000},  // |NaN|: the default NaN
  };
  for (const Case& c : cases)
    EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::FP32, 1, c.op, c.s), {c.x})[0], c.want)
        << std::hex << int{c.op} << " " << c.x << " " << c.s;
  // RE_LU (V4+): NaN and -0 give +0.
  for (uint32_t x : {0x7FC00000u, 0x80000000u, 0xC0000000u})
    EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::FP32, 1, aop::RE_LU, 0), {x}, Generation::V4),
              (V{0}));
  // Compares into an integer dtype give 1 / 0, into BF16 0x3F80.
  EXPECT_EQ(ts_result(ts_word(kArith, dt::INT32, dt::INT32, 2, aop::IS_GT, f32(5)), {6, 5}),
            (V{1, 0}));
  EXPECT_EQ(ts_result(ts_word(kArith, dt::FP32, dt::BF16, 1, aop::IS_LT, f32(5)), {f32(-1)}),
            (V{0x3F80}));
}

// SPEC §3.8.2's raw-bits examples through TensorScalarBitvec (ARITH_SHIFT_RIGHT is not
// allowed with a 2-byte in_dtype, so its examples run on 32 bits).
TEST(TensorScalarBitvec, ShiftsAndLogicOfSpec) {
  const auto one = [](uint8_t dtype, uint8_t op, uint32_t x, uint32_t s, uint8_t rev = 0) {
    return ts_result(ts_word(kBitvec, dtype, dtype, 1, op, s, aop::BYPASS, 0, rev), {x})[0];
  };
  EXPECT_EQ(one(dt::INT16, aop::LOGICAL_SHIFT_LEFT, 0x1234, 4), 0x2340u);
  EXPECT_EQ(one(dt::INT16, aop::LOGICAL_SHIFT_RIGHT, 0x8000, 0xFFFF), 0u);  // count >= 16
  EXPECT_EQ(one(dt::INT16, aop::LOGICAL_SHIFT_LEFT, 0x1234, 16), 0u);
  EXPECT_EQ(one(dt::UINT16, aop::LOGICAL_SHIFT_RIGHT, 0x8000, 15), 1u);
  EXPECT_EQ(one(dt::INT32, aop::ARITH_SHIFT_RIGHT, 0x80000000, 3), 0xF0000000u);
  EXPECT_EQ(one(dt::INT32, aop::ARITH_SHIFT_RIGHT, 0x80000000, 32), 0xFFFFFFFFu);
  EXPECT_EQ(one(dt::INT32, aop::ARITH_SHIFT_RIGHT, 0x80000000, 0xFFFFFFFF), 0xFFFFFFFFu);  // "-1"
  EXPECT_EQ(one(dt::UINT32, aop::ARITH_SHIFT_RIGHT, 0x80000000, 1),
            0xC0000000u);  // bits are bits
  EXPECT_EQ(one(dt::INT32, aop::ARITH_SHIFT_RIGHT, 0x40000000, 40), 0u);
  EXPECT_EQ(one(dt::UINT8, aop::LOGICAL_SHIFT_LEFT, 0x81, 1), 0x02u);
  EXPECT_EQ(one(dt::INT8, aop::ARITH_SHIFT_LEFT, 0x40, 1), 0x80u);
  EXPECT_EQ(one(dt::UINT8, aop::LOGICAL_SHIFT_RIGHT, 3, 0x80, /*FIRST*/ 1), 0x10u);  // s0 >> x
  EXPECT_EQ(one(dt::INT32, aop::BITWISE_AND, 0xF0F0F0F0, 0x0FF00FF0), 0x00F000F0u);
  EXPECT_EQ(one(dt::INT32, aop::BITWISE_OR, 0xF0F0F0F0, 0x0FF00FF0), 0xFFF0FFF0u);
  EXPECT_EQ(one(dt::UINT32, aop::BITWISE_XOR, 0xF0F0F0F0, 0x0FF00FF0), 0xFF00FF00u);
  EXPECT_EQ(one(dt::INT8, aop::BITWISE_NOT, 0x0F, 0x33), 0xF0u);
  // Two ops: (x & 0xff) << 4.
  EXPECT_EQ(ts_result(ts_word(kBitvec, dt::INT16, dt::INT16, 2, aop::BITWISE_AND, 0xFF,
                              aop::LOGICAL_SHIFT_LEFT, 4),
                      {0x1234, 0xFFFF}),
            (V{0x0340, 0x0FF0}));
}

// SPEC §4.15's example: INT16 BITWISE_NOT with reverse FIRST, s0 0x00FF, x 0x1234 -> 0xFF00.
TEST(TensorScalarBitvec, UnaryOpUnderReverseComputesOnTheScalar) {
  TensorScalarWord x = ts_word(kBitvec, dt::INT16, dt::INT16, 2, aop::BITWISE_NOT, 0x00FF);
  x.reverse = 1;
  EXPECT_EQ(ts_result(x, {0x1234, 0x0000}), (V{0xFF00, 0xFF00}));
  x.reverse = 0;
  EXPECT_EQ(ts_result(x, {0x1234, 0x0000}), (V{0xEDCB, 0xFFFF}));
}

// SPEC §3.5: a bitvec immediate has in_dtype's width; a pointer reads that many bytes per
// channel, at any offset aligned to it (one byte: any offset).
TEST(TensorScalarBitvec, ImmediatesHaveTheDataWidth) {
  Machine& m = fresh(Generation::V2);
  TensorScalarWord x =
      ts_word(kBitvec, dt::INT8, dt::INT8, 2, aop::BITWISE_AND, rm::sbuf_addr(5, 0x41));
  x.imm0_src = 1;
  x.channels = 3;
  x.op1 = aop::BITWISE_OR;
  x.imm1 = 0x80;  // INT8 -128
  for (unsigned c = 0; c < 3; ++c) {
    poke(m, SBUF, c, 0x100, 1, {0xFF, 0x3C});
    poke(m, SBUF, 5 + c, 0x40, 1, {0xEE, 0x0Fu << c, 0xEE});
  }
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 1, 2), (V{0x8F, 0x8C}));  // & 0x0F | 0x80
  EXPECT_EQ(peek(m, SBUF, 2, 0x200, 1, 2), (V{0x9E, 0x9C}));  // & 0x1E
  EXPECT_EQ(peek(m, SBUF, 3, 0x200, 1, 2), (V{0xBC, 0xBC}));  // & 0x3C
  // A register pointer into PSUM (allowed on dve), 2 bytes for UINT16.
  Machine& p = fresh(Generation::V5);
  TensorScalarWord y = ts_word(kBitvec, dt::UINT16, dt::UINT16, 1, aop::BITWISE_XOR, 9);
  y.imm0_src = 2;
  p.registers[9] = rm::psum_addr(0, 0x3FFE);
  poke(p, PSUM, 0, 0x3FFE, 2, {0xAAAA});
  poke(p, SBUF, 0, 0x100, 2, {0x0F0F});
  expect_ok(p, y.encode());
  EXPECT_EQ(peek(p, SBUF, 1, 0x200, 2, 1), (V{0xA5A5}));
}

// SPEC §3.5: the arithmetic pointer form reads 4 bytes, an FP32, whatever the data dtype.
TEST(TensorScalarPtrArith, PointersReadAnFp32WhateverTheDataDtype) {
  Machine& m = fresh(Generation::V3);
  TensorScalarWord x = ts_word(kPtrArith, dt::FP16, dt::FP16, 2, aop::MULT, rm::sbuf_addr(0, 0x40),
                               aop::ADD, rm::sbuf_addr(0, 0x44));
  x.channels = 2;
  for (unsigned c = 0; c < 2; ++c) {
    poke(m, SBUF, c, 0x100, 2, {0x3C00, 0xC000});  // 1.0, -2.0
    poke(m, SBUF, c, 0x40, 4, {f32(2.0f + static_cast<float>(c)), f32(0.5f)});
  }
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 2, 2), (V{0x4100, 0xC300}));  // 2.5, -3.5
  EXPECT_EQ(peek(m, SBUF, 2, 0x200, 2, 2), (V{0x4300, 0xC580}));  // 3.5, -5.5
}

// The bitvec pointer form: in_dtype-wide values per channel; the fields are pointers
// whatever *_src says (it is 0).
TEST(TensorScalarPtrBitvec, PointersReadInDtypeWideValues) {
  Machine& m = fresh(Generation::V4);
  TensorScalarWord x = ts_word(kPtrBitvec, dt::UINT8, dt::UINT8, 2, aop::BITWISE_AND,
                               rm::sbuf_addr(0, 0x41), aop::BITWISE_OR, rm::psum_addr(0, 0x42));
  x.channels = 2;
  for (unsigned c = 0; c < 2; ++c) {
    poke(m, SBUF, c, 0x100, 1, {0xFF, 0x5A});
    poke(m, SBUF, c, 0x41, 1, {c == 0 ? 0x0Fu : 0xF0u});
    poke(m, PSUM, c, 0x42, 1, {c == 0 ? 0x01u : 0x02u});
  }
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 1, 2), (V{0x0F, 0x0B}));
  EXPECT_EQ(peek(m, SBUF, 2, 0x200, 1, 2), (V{0xF2, 0x52}));
}

// SPEC §3.9: TensorScalar runs on dve only; pool and act fault unsupported-op (after the
// wait, before anything is resolved), changing nothing, for every opcode.
TEST(TensorScalarArith, OtherEnginesFaultUnsupportedOp) {
  for (uint8_t opcode : {kArith, kBitvec, kPtrArith, kPtrBitvec}) {
    SCOPED_TRACE(int{opcode});
    Machine& m = busy_machine();
    const bool bitvec = opcode == kBitvec || opcode == kPtrBitvec;
    const bool pointer = opcode == kPtrArith || opcode == kPtrBitvec;
    const uint32_t imm = pointer ? rm::sbuf_addr(0, 0x100) : bitvec ? 0 : kOne;
    TensorScalarWord x = bitvec ? ts_word(opcode, dt::INT32, dt::INT32, 4, aop::BITWISE_XOR, imm)
                                : ts_word(opcode, dt::FP32, dt::FP32, 4, aop::ADD, imm);
    x.ev = kSet9;
    for (Engine e : {Engine::POOL, Engine::ACT})
      expect_ts_fault(m, x.encode(), FaultKind::UnsupportedOp, e);
    // The wait comes first.
    TensorScalarWord blocked = x;
    blocked.ev = rm::Events{2, 4, 1, 9, 7};  // waits for semaphore 4 == 7
    expect_ts_fault(m, blocked.encode(), FaultKind::SyncWouldBlock, Engine::POOL);
    // Then unsupported-op, before a register that does not resolve.
    TensorScalarWord bad = x;
    bad.src.addr = rm::reg_addr(20);
    m.registers[20] = 0x60000000u;
    expect_ts_fault(m, bad.encode(), FaultKind::UnsupportedOp, Engine::ACT);
    expect_ts_fault(m, bad.encode(), FaultKind::BadAddress, Engine::DVE);
    // On dve (also when named) it runs.
    for (std::optional<Engine> e : {std::optional<Engine>{}, std::optional{Engine::DVE}}) {
      Machine& ok = busy_machine();
      const ExecResult r = run(ok, x.encode(), ExecOptions{.engine = e});
      EXPECT_TRUE(r.ok()) << r.message();
      EXPECT_EQ(ok.semaphores[9], 0x77u);
    }
  }
}

// SPEC §3.8.3, §3.9: RSQRT's arm and CRC32 validate and fault; so does the V5 integer arm
// on dve.
TEST(TensorScalarArith, UnmodelledOpsAndTheIntegerArmFault) {
  for (Generation g : {Generation::V2, Generation::V5}) {
    Machine& m = busy_machine(g);
    for (uint8_t opcode : {kArith, kPtrArith}) {
      TensorScalarWord x = ts_word(opcode, dt::FP32, dt::FP32, 4, aop::RSQRT, 0);
      x.ev = kSet9;
      ASSERT_TRUE(gpsimd::validate(x.encode(), g).empty());
      expect_ts_fault(m, x.encode(), FaultKind::UnsupportedOp);
    }
    for (uint8_t opcode : {kBitvec, kPtrBitvec}) {
      TensorScalarWord x =
          ts_word(opcode, dt::INT32, dt::INT32, 4, aop::BITWISE_AND, 0, aop::CRC32, 0);
      x.ev = kSet9;
      ASSERT_TRUE(gpsimd::validate(x.encode(), g).empty());
      expect_ts_fault(m, x.encode(), FaultKind::UnsupportedOp);
    }
  }
  Machine& m = busy_machine(Generation::V5);
  for (uint8_t op :
       {uint8_t{0xC4}, uint8_t{0xD1}, uint8_t{0xCB}}) {  // ADD_INT, IS_GT_INT, ABS_MAX_INT
    TensorScalarWord x = ts_word(kArith, dt::INT32, dt::INT32, 4, op, 5, op, 6);
    ASSERT_TRUE(gpsimd::validate(x.encode(), Generation::V5).empty());
    expect_ts_fault(m, x.encode(), FaultKind::UnsupportedOp);
  }
}

// SPEC §4.15: both immediates are resolved, even when their op is BYPASS; a register
// pointer that breaks a rule faults bad-address.
TEST(TensorScalarArith, ImmediatesResolveEvenWhenTheirOpIsBypass) {
  Machine& m = busy_machine();
  TensorScalarWord x = ts_word(kArith, dt::FP32, dt::FP32, 4, aop::ADD, kOne, aop::BYPASS, 12);
  x.ev = kSet9;
  x.imm1_src = 2;  // REG_PTR_IMMEDIATE: register 12
  x.channels = 2;
  for (uint32_t a : {rm::sbuf_addr(0, 0x102),  // an FP32 pointer must be aligned to 4
                     rm::sbuf_addr(127, 0x100), 0x80000001u, rm::psum_addr(0, 0x4000)}) {
    SCOPED_TRACE(testing::Message() << std::hex << a);
    m.registers[12] = a;
    expect_ts_fault(m, x.encode(), FaultKind::BadAddress);
  }
  // PSUM is fine on dve; the BYPASS op1 leaves t = x + 1.
  m.registers[12] = rm::psum_addr(3, 0x100);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 4), (V{f32(2), f32(3), f32(4), f32(5)}));
}

// Register-mode tensors: resolved at execution (bad-address), their counts compared
// (shape-mismatch), then the walk limit (too-large); a PSUM write needs 4 bytes.
TEST(TensorScalarBitvec, RegisterTensorsShapesAndTheWalkLimit) {
  Machine& m = busy_machine();
  TensorScalarWord x = ts_word(kBitvec, dt::INT16, dt::INT16, 4, aop::BITWISE_OR, 0x0100);
  x.ev = kSet9;
  x.dst.addr = rm::reg_addr(30);
  for (uint32_t a : {rm::psum_addr(1, 0x200),  // a PSUM write of 2-byte elements
                     rm::sbuf_addr(1, 0x201), 0x1E000000u}) {
    m.registers[30] = a;
    expect_ts_fault(m, x.encode(), FaultKind::BadAddress);
  }
  m.registers[30] = rm::sbuf_addr(1, 0x200);
  x.dst.num[0] = 3;  // 3 elements against 4
  expect_ts_fault(m, x.encode(), FaultKind::ShapeMismatch);
  x.dst.num[0] = 4;
  expect_ok(m, x.encode());
  // busy_machine's FP32 1.0 at 0x100 is the INT16 pair 0x0000, 0x3F80.
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 2, 4), (V{0x0100, 0x3F80, 0x0100, 0x4100}));
  // 4096 x 4097 elements (zero steps) is over the walk limit.
  TensorScalarWord big = ts_word(kBitvec, dt::INT32, dt::INT32, 1, aop::BITWISE_OR, 1);
  big.ev = kSet9;
  big.src = tensor3(rm::sbuf_addr(2, 0x100), 0, 4096, 0, 4097, 0, 1);
  big.dst = tensor3(rm::sbuf_addr(3, 0x100), 0, 4096, 0, 4097, 0, 1);
  expect_ts_fault(m, big.encode(), FaultKind::TooLarge);
}

// Sources are read before any destination is written; a destination that revisits a
// byte keeps the later ordinal.
TEST(TensorScalarPtrArith, OverlapAndRevisitedBytes) {
  Machine& m = fresh(Generation::V3);
  // In place, walked backwards: dst[j] = 2 * src[3 - j] on the same four bytes.
  TensorScalarWord x = ts_word(kPtrArith, dt::FP32, dt::FP32, 4, aop::MULT, rm::sbuf_addr(0, 0x10),
                               aop::BYPASS, rm::sbuf_addr(0, 0x10));
  x.dst = tensor3(rm::sbuf_addr(0, 0x10C), -1, 4, 4, 1, 0, 1);
  poke(m, SBUF, 0, 0x10, 4, {f32(2)});
  poke(m, SBUF, 0, 0x100, 4, {f32(1), f32(2), f32(3), f32(4)});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 4), (V{f32(8), f32(6), f32(4), f32(2)}));
  // The pointer's own bytes as the destination: every channel read 2.0 before the write.
  TensorScalarWord y = ts_word(kPtrArith, dt::FP32, dt::FP32, 2, aop::ADD, rm::sbuf_addr(0, 0x10),
                               aop::BYPASS, rm::sbuf_addr(0, 0x10));
  y.dst = tensor3(rm::sbuf_addr(0, 0x10), 0, 2, 1, 1, 0, 1);  // one element, written twice
  expect_ok(m, y.encode());
  // The source is now 8, 6, ...: the later ordinal wins, 6 + 2.
  EXPECT_EQ(peek(m, SBUF, 0, 0x10, 4, 1), (V{f32(8)}));
}

// ---- Copy and Cast (SPEC §4.16, §4.17, §5.1) ----------------------------------------------

using gpsimd::Engine;
using rm::tensor4;

// One channel from SBUF partition 3: src `n` dense elements at 0x100, dst `n` dense at
// 0x800 (engine input: `e`).
rm::CopyCastWord cc_word(uint8_t opcode, uint8_t in, uint8_t out, unsigned n) {
  rm::CopyCastWord x;
  x.opcode = opcode;
  x.in = in;
  x.out = out;
  x.src = tensor4(rm::sbuf_addr(3, 0x100), 1, n, 0, 1, 0, 1, 0, 1);
  x.dst = tensor4(rm::sbuf_addr(3, 0x800), 1, n, 0, 1, 0, 1, 0, 1);
  return x;
}

ExecOptions on(Engine e) {
  ExecOptions o;
  o.engine = e;
  return o;
}

// Runs one conversion `in` -> `out` of `src` elements on a fresh machine of `g` and
// engine `e`, and returns the destination elements.
V cast_once(uint8_t opcode, uint8_t in, uint8_t out, const V& src, std::optional<Engine> e,
            Generation g = Generation::V3) {
  Machine& m = fresh(g);
  const auto n = static_cast<unsigned>(src.size());
  poke(m, SBUF, 3, 0x100, rm::size_of(in), src);
  ExecOptions o;
  o.engine = e;
  const ExecResult r = run(m, cc_word(opcode, in, out, n).encode(), o);
  EXPECT_TRUE(r.ok()) << r.message();
  return peek(m, SBUF, 3, 0x800, rm::size_of(out), n);
}

// SPEC §4.16's NKI example: test_nki_isa_tensor_copy copies an 8x8 FP32 tile on the
// Vector engine: 8 channels from partition 0, 8 contiguous elements each; the output
// equals the input bit for bit, also into PSUM on DVE, and the PSUM word is invalid on
// POOL (the default engine).
TEST(Copy, NkiTensorCopyExampleOnTheVectorEngine) {
  for (bool to_psum : {false, true}) {
    SCOPED_TRACE(to_psum ? "to PSUM" : "to SBUF");
    Machine& m = fresh(Generation::V3);
    for (unsigned p = 0; p < 8; ++p) {
      V row;
      for (unsigned j = 0; j < 8; ++j) row.push_back(f32(static_cast<float>(p * 8 + j) * 1.37f));
      row[p] = 0x7FA00001u;  // a signalling NaN with a payload: bits unchanged too
      poke(m, SBUF, p, 0, 4, row);
    }
    rm::CopyCastWord x;
    x.in = x.out = dt::FP32;
    x.channels = 8;
    x.src = tensor4(rm::sbuf_addr(0, 0), 1, 8, 8, 1, 8, 1, 8, 1);
    x.dst =
        tensor4(to_psum ? rm::psum_addr(0, 0x40) : rm::sbuf_addr(0, 0x200), 1, 8, 8, 1, 8, 1, 8, 1);
    expect_ok(m, x.encode(), on(Engine::DVE));
    for (unsigned p = 0; p < 8; ++p)
      EXPECT_EQ(peek(m, to_psum ? PSUM : SBUF, p, to_psum ? 0x40 : 0x200, 4, 8),
                peek(m, SBUF, p, 0, 4, 8))
          << "partition " << p;
    if (to_psum) {
      expect_unchanged(m, x.encode(), Status::Invalid, std::nullopt, on(Engine::POOL));
      expect_unchanged(m, x.encode(), Status::Invalid, std::nullopt);  // default: POOL
    }
  }
}

// SPEC §4.16: equal dtypes, the bits unchanged on every engine (ACT too on V3..V5):
// NaN payloads, -0.0, INT32 beyond 2^24 included.
TEST(Copy, EveryDtypeKeepsItsBitsOnEveryEngine) {
  struct Case {
    uint8_t dtype;
    V bits;
  };
  const Case cases[] = {
      {dt::INT8, {0x80, 0xFF, 0x7F, 0x01}},
      {dt::UINT8, {0xFF, 0x00, 0x80}},
      {dt::INT16, {0x8000, 0xFFFF, 0x1234}},
      {dt::UINT16, {0xFFFF, 0x8001}},
      {dt::INT32, {0x01000001, 0x7FFFFFFF, 0x80000001, 0xFFFFFFFF}},
      {dt::UINT32, {0xFFFFFFFF, 0x01000001, 0x80000000}},
      {dt::BF16, {0x7F81, 0xFF81, 0x8000, 0x0001}},  // sNaNs, -0.0, a subnormal
      {dt::FP16, {0x7C01, 0xFD01, 0x8000, 0x0001}},
      {dt::FP32, {0x7F800001, 0xFFC00001, 0x80000000, 0x00000001}},
      {dt::FP8_E3, {0x71, 0xF9, 0x80, 0x01}},
      {dt::FP8_E4, {0x79, 0xFB, 0x80, 0x01}},
      {dt::FP8_E5, {0x7D, 0xFF, 0x80, 0x01}},
  };
  for (const Case& c : cases)
    for (std::optional<Engine> e :
         {std::optional<Engine>{}, std::optional<Engine>(Engine::POOL),
          std::optional<Engine>(Engine::DVE), std::optional<Engine>(Engine::ACT)})
      for (Generation g : {Generation::V3, Generation::V5}) {
        SCOPED_TRACE(testing::Message() << int{c.dtype} << " engine " << (e ? int(*e) : -1));
        EXPECT_EQ(cast_once(rm::kCopy, c.dtype, c.dtype, c.bits, e, g), c.bits);
      }
}

// SPEC §4.16: on ACT on V2 every element goes through FP32: INT32 2^24 + 1 becomes 2^24,
// 2^31 - 1 stays 2^31 - 1 by saturation, a BF16 signalling NaN 0x7F81 becomes 0x7FC0;
// FP32 is unchanged, signalling NaNs included. POOL and DVE on V2 keep the bits.
TEST(Copy, ActOnV2GoesThroughFp32) {
  const V i32 = {0x01000001, 0x7FFFFFFF, 0x80000000, 0x00FFFFFF, 0xFEFFFFFF};
  // 0xFEFFFFFF = -(2^24 + 1): rounds to -2^24 = 0xFF000000.
  EXPECT_EQ(cast_once(rm::kCopy, dt::INT32, dt::INT32, i32, Engine::ACT, Generation::V2),
            (V{0x01000000, 0x7FFFFFFF, 0x80000000, 0x00FFFFFF, 0xFF000000}));
  EXPECT_EQ(cast_once(rm::kCopy, dt::BF16, dt::BF16, {0x7F81, 0xFF81, 0x3F80}, Engine::ACT,
                      Generation::V2),
            (V{0x7FC0, 0xFFC0, 0x3F80}));
  EXPECT_EQ(cast_once(rm::kCopy, dt::FP32, dt::FP32, {0x7F800001, 0xFF800001}, Engine::ACT,
                      Generation::V2),
            (V{0x7F800001, 0xFF800001}));
  // FP8 NaNs become canonical; UINT32 2^32 - 1 rounds to 2^32 and saturates back.
  EXPECT_EQ(cast_once(rm::kCopy, dt::FP8_E4, dt::FP8_E4, {0x79, 0x77}, Engine::ACT, Generation::V2),
            (V{0x7C, 0x77}));
  EXPECT_EQ(cast_once(rm::kCopy, dt::UINT32, dt::UINT32, {0xFFFFFFFF, 0x01000003}, Engine::ACT,
                      Generation::V2),
            (V{0xFFFFFFFF, 0x01000004}));
  for (Engine e : {Engine::POOL, Engine::DVE}) {
    EXPECT_EQ(cast_once(rm::kCopy, dt::INT32, dt::INT32, i32, e, Generation::V2), i32);
    EXPECT_EQ(cast_once(rm::kCopy, dt::BF16, dt::BF16, {0x7F81}, e, Generation::V2), V{0x7F81});
  }
}

// The walks pair by ordinal; only the counts agree. A zero destination step lets the
// later ordinal win; a zero source step reads one element many times.
TEST(Copy, ShapesDifferZeroStepsAndFourDimensions) {
  Machine& m = fresh(Generation::V4);
  poke(m, SBUF, 3, 0x100, 4, {10, 11, 12, 13, 14, 15});
  rm::CopyCastWord x = cc_word(rm::kCopy, dt::INT32, dt::INT32, 6);
  // src as 2 rows of 3 walked column-major (steps 3, 1); dst dense.
  x.src = tensor4(rm::sbuf_addr(3, 0x100), 3, 2, 1, 3, 0, 1, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 3, 0x800, 4, 6), (V{10, 13, 11, 14, 12, 15}));
  // dst: every ordinal on one element: the last (ordinal 5, element 15) wins.
  x.src = tensor4(rm::sbuf_addr(3, 0x100), 1, 6, 0, 1, 0, 1, 0, 1);
  x.dst = tensor4(rm::sbuf_addr(3, 0x900), 0, 2, 0, 3, 0, 1, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 3, 0x900, 4, 2), (V{15, 0}));
  // src broadcast: a zero step reads element 0 six times; dst reversed (step -1).
  x.src = tensor4(rm::sbuf_addr(3, 0x104), 0, 6, 0, 1, 0, 1, 0, 1);
  x.dst = tensor4(rm::sbuf_addr(3, 0xA14), -1, 6, 0, 1, 0, 1, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 3, 0xA00, 4, 6), (V{11, 11, 11, 11, 11, 11}));
  // Four dimensions both sides: src nums 2x1x3x1 (steps 1, 0, 2, 0) = 10, 12, 14 / 11, 13,
  // 15 interleaved; dst 1x2x1x3 with steps that scatter.
  x.src = tensor4(rm::sbuf_addr(3, 0x100), 1, 2, 0, 1, 2, 3, 0, 1);
  x.dst = tensor4(rm::sbuf_addr(3, 0xB00), 0, 1, 4, 2, 0, 1, 1, 3);
  expect_ok(m, x.encode());
  // Ordinal j = i1 + 2*i3 of dst goes to element 4*i1 + i3: 0, 4, 1, 5, 2, 6.
  EXPECT_EQ(peek(m, SBUF, 3, 0xB00, 4, 7), (V{10, 12, 14, 0, 11, 13, 15}));
}

// SPEC §4: sources are read before any write, so overlapping operands behave as if
// copied first; channels use their own partitions.
TEST(Copy, OverlapReadsFirstAndChannelsUseTheirPartitions) {
  Machine& m = fresh(Generation::V3);
  for (unsigned p = 3; p < 6; ++p) poke(m, SBUF, p, 0x100, 2, {p, p + 10, p + 20, p + 30});
  rm::CopyCastWord x = cc_word(rm::kCopy, dt::UINT16, dt::UINT16, 4);
  x.channels = 3;
  x.dst = tensor4(rm::sbuf_addr(3, 0x102), 1, 4, 0, 1, 0, 1, 0, 1);  // one element up
  expect_ok(m, x.encode());
  for (unsigned p = 3; p < 6; ++p)
    EXPECT_EQ(peek(m, SBUF, p, 0x100, 2, 5), (V{p, p, p + 10, p + 20, p + 30})) << p;
  x.dst = tensor4(rm::sbuf_addr(3, 0x0FE), 1, 4, 0, 1, 0, 1, 0, 1);  // one element down
  expect_ok(m, x.encode());
  for (unsigned p = 3; p < 6; ++p)
    // The source was p, p, p+10, p+20 (after the first copy); 0x106 keeps p+20.
    EXPECT_EQ(peek(m, SBUF, p, 0x0FE, 2, 5), (V{p, p, p + 10, p + 20, p + 20})) << p;
}

// Register-mode operands resolve at execution; every fault changes nothing; the kinds
// are SPEC §6's for Copy and Cast: sync-would-block, bad-address, too-large, never
// shape-mismatch or unsupported-op.
TEST(Copy, RegisterModeAndFaultsChangeNothing) {
  Machine& m = busy_machine(Generation::V3);
  rm::CopyCastWord x = cc_word(rm::kCopy, dt::FP32, dt::FP32, 4);
  x.channels = 2;
  x.src = tensor4(rm::reg_addr(3), 1, 4, 0, 1, 0, 1, 0, 1);
  x.dst = tensor4(rm::reg_addr(4), 1, 4, 0, 1, 0, 1, 0, 1);
  x.ev = kSet9;
  m.registers[3] = rm::sbuf_addr(0, 0x100);
  m.registers[4] = rm::sbuf_addr(40, 0x200);
  rm::CopyCastWord wait = x;
  wait.ev = rm::Events{1, 9, 0, 0, 4};  // semaphore 9 >= 4 never holds (it is 3)
  expect_unchanged(m, wait.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  for (Engine e : kAllEnginesInTest) {
    SCOPED_TRACE(int(e));
    for (uint32_t a : {rm::sbuf_addr(0, 0x102),       // misaligned
                       rm::sbuf_addr(127, 0x100),     // partitions 127..128
                       rm::sbuf_addr(0, 224 * 1024),  // beyond the V3 partition
                       0x40000100u,                   // mode bits
                       rm::reg_addr(2)}) {            // a register holds no register-mode address
      m.registers[3] = a;
      expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress, on(e));
    }
    m.registers[3] = rm::psum_addr(0, 0x100);  // PSUM: a bad address on POOL only
    if (e == Engine::POOL)
      expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress, on(e));
    m.registers[3] = rm::sbuf_addr(0, 0x100);
    m.registers[4] = rm::psum_addr(1, 0x3FF4);  // the walk ends past 16 KiB
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress, on(e));
    m.registers[4] = rm::sbuf_addr(40, 0x200);
  }
  // bad-address before too-large: a walk of 2^24 + 1 elements with a bad register.
  rm::CopyCastWord big = x;
  big.src = tensor4(rm::reg_addr(3), 0, 4097, 0, 4096, 0, 1, 0, 1);
  big.dst = tensor4(rm::sbuf_addr(0, 0x400), 0, 4097, 0, 4096, 0, 1, 0, 1);
  expect_unchanged(m, big.encode(), Status::Faulted, FaultKind::TooLarge);
  m.registers[3] = rm::sbuf_addr(0, 0x101);
  expect_unchanged(m, big.encode(), Status::Faulted, FaultKind::BadAddress);
  m.registers[3] = rm::sbuf_addr(0, 0x100);
  // It runs: channels 0 and 1 from partitions 0 and 1 to partitions 40 and 41.
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 40, 0x200, 4, 4), (V{f32(1), f32(2), f32(3), f32(4)}));
  EXPECT_EQ(peek(m, SBUF, 41, 0x200, 4, 4), (V{f32(1), f32(2), f32(3), f32(4)}));
  EXPECT_EQ(m.semaphores[9], 0x77u);
  // From PSUM on DVE through a register.
  m.registers[3] = rm::psum_addr(0, 0x100);
  x.src.num[0] = 2;
  x.dst.num[0] = 2;
  expect_ok(m, x.encode(), on(Engine::DVE));
  EXPECT_EQ(peek(m, SBUF, 40, 0x200, 4, 3), (V{f32(5), f32(6), f32(3)}));
  // Invalid words change nothing: unequal dtypes, unequal counts (register mode too).
  rm::CopyCastWord bad = x;
  bad.out = dt::FP32R;
  expect_unchanged(m, bad.encode(), Status::Invalid, std::nullopt);
  bad = x;
  bad.dst.num[1] = 2;
  expect_unchanged(m, bad.encode(), Status::Invalid, std::nullopt);
}

// SPEC §4.17's examples, each on every engine (the same on all three but ACT on V2).
TEST(Cast, Section4_17Examples) {
  struct Case {
    uint8_t in, out;
    V src, want;
  };
  const Case cases[] = {
      // FP32 2.5 -> 2, 3.5 -> 4, -0.5 -> 0, NaN -> 0, +inf -> 0x7FFFFFFF.
      {dt::FP32,
       dt::INT32,
       {0x40200000, 0x40600000, 0xBF000000, 0x7FC00000, 0x7F800000},
       {2, 4, 0, 0, 0x7FFFFFFF}},
      {dt::INT32, dt::INT8, {300}, {0x7F}},
      {dt::INT8, dt::UINT8, {0xFF}, {0x00}},
      {dt::UINT32, dt::INT32, {0xFFFFFFFF}, {0x7FFFFFFF}},
      {dt::INT32, dt::UINT32, {0x7FFFFFFF}, {0x80000000}},
      // 2^24 + 2^16 + 1 -> BF16 2^24: two roundings, as Iota.
      {dt::INT32, dt::BF16, {0x01010001}, {0x4B80}},
      {dt::FP32, dt::BF16, {0xFF7FFFFF}, {0xFF80}},
      {dt::BF16, dt::FP32, {0x7F81}, {0x7FC10000}},
      {dt::FP16, dt::FP8_E4, {0x7BFF}, {0x78}},
  };
  for (const Case& c : cases)
    for (Engine e : kAllEnginesInTest)
      for (Generation g : {Generation::V2, Generation::V4}) {
        SCOPED_TRACE(testing::Message() << int{c.in} << " -> " << int{c.out} << " engine " << int(e)
                                        << " " << gpsimd::generation_name(g));
        EXPECT_EQ(cast_once(rm::kCast, c.in, c.out, c.src, e, g), c.want);
      }
}

// SPEC §5.1's examples and one case of every letter of its table.
TEST(Cast, Section5_1ExamplesAndLetters) {
  struct Case {
    uint8_t in, out;
    V src, want;
  };
  const Case cases[] = {
      // S: INT8 -1 -> UINT32 0; UINT16 65535 -> INT16 32767; INT16 -32768 -> INT8 -128.
      {dt::INT8, dt::UINT32, {0xFF}, {0}},
      {dt::UINT16, dt::INT16, {0xFFFF}, {0x7FFF}},
      {dt::INT16, dt::INT8, {0x8000, 0x0005}, {0x80, 0x05}},
      // S24: INT32 16777217 -> UINT32 16777216; UINT32 0x7FFFFFC0 (a tie between 2^31 -
      // 128 and 2^31, even: 2^31) -> INT32 0x7FFFFFFF.
      {dt::INT32, dt::UINT32, {0x01000001, 0xFFFFFFFF}, {0x01000000, 0}},
      {dt::UINT32, dt::INT32, {0x7FFFFFC0}, {0x7FFFFFFF}},
      // RR into FP16 and FP8 overflow before 2^24 shows: 65520 -> inf, 248 -> inf.
      {dt::INT32, dt::FP16, {65520, 65519}, {0x7C00, 0x7BFF}},
      {dt::INT32, dt::FP8_E4, {248, 0xFFFFFF08}, {0x78, 0xF8}},  // -248 -> -inf
      // R: INT32 -> FP32 rounds beyond 2^24; INT16 257 -> BF16 256 (tie to even);
      // UINT16 2049 -> FP16 2048.
      {dt::INT32, dt::FP32, {0x01000001, 0x01000003}, {0x4B800000, 0x4B800002}},
      {dt::INT16, dt::BF16, {0x0101}, {0x4380}},
      {dt::UINT16, dt::FP16, {2049}, {0x6800}},
      // X: INT8 -128 -> BF16; UINT8 255 -> FP16; an FP8 NaN -> the canonical BF16 NaN.
      {dt::INT8, dt::BF16, {0x80}, {0xC300}},
      {dt::UINT8, dt::FP16, {0xFF}, {0x5BF8}},
      {dt::FP8_E4, dt::BF16, {0xF9}, {0xFFC0}},
      // W: an FP8_E3 NaN keeps its payload (0001 -> bit 19) and gets the quiet bit.
      {dt::FP8_E3, dt::FP32R, {0x71}, {0x7FC80000}},
      // I: BF16 65536 -> INT16 32767; -32768 exact; NaN -> 0; FP16 -2.5 -> INT8 -2.
      {dt::BF16, dt::INT16, {0x4780, 0xC700, 0x7FC0}, {0x7FFF, 0x8000, 0}},
      {dt::FP16, dt::INT8, {0xC100}, {0xFE}},
      // =: FP32 -> FP32R keeps a signalling NaN; equal dtypes keep INT32 beyond 2^24.
      {dt::FP32, dt::FP32R, {0x7F800001}, {0x7F800001}},
      {dt::INT32, dt::INT32, {0x01000001}, {0x01000001}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << int{c.in} << " -> " << int{c.out});
    EXPECT_EQ(cast_once(rm::kCast, c.in, c.out, c.src, std::nullopt), c.want);
  }
}

// SPEC §4.17: ACT on V2 takes every element through FP32, equal dtypes too; a pair of
// different dtypes goes through FP32 anyway, so only equal dtypes differ from POOL.
TEST(Cast, ActOnV2TakesEqualDtypesThroughFp32) {
  EXPECT_EQ(cast_once(rm::kCast, dt::INT32, dt::INT32, {0x01000001}, Engine::ACT, Generation::V2),
            V{0x01000000});
  EXPECT_EQ(cast_once(rm::kCast, dt::INT32, dt::INT32, {0x01000001}, Engine::ACT, Generation::V3),
            V{0x01000001});
  EXPECT_EQ(cast_once(rm::kCast, dt::BF16, dt::BF16, {0x7F81}, Engine::ACT, Generation::V2),
            V{0x7FC0});
  EXPECT_EQ(cast_once(rm::kCast, dt::FP32, dt::FP32R, {0xFF800001}, Engine::ACT, Generation::V2),
            V{0xFF800001});
  EXPECT_EQ(cast_once(rm::kCast, dt::INT32, dt::UINT32, {0x01000001, 0x80000000}, Engine::ACT,
                      Generation::V2),
            (V{0x01000000, 0}));
}

// The step NKI kernels end with: an FP32 accumulation in PSUM moved to BF16 in SBUF on
// the Vector engine, round to nearest even; the same word on POOL is invalid.
TEST(Cast, PsumFp32ToSbufBf16OnTheVectorEngine) {
  Machine& m = fresh(Generation::V3);
  // 1 + 2^-8 (a tie -> 1.0), 1 + 3*2^-8 (a tie -> 1 + 2^-6), -FLT_MAX (-> -inf), NaN.
  const V acc = {0x3F808000, 0x3F818000, kNegFltMax, 0x7FC00001};
  for (unsigned p = 0; p < 4; ++p) poke(m, PSUM, p, 0x80, 4, acc);
  rm::CopyCastWord x;
  x.opcode = rm::kCast;
  x.in = dt::FP32;
  x.out = dt::BF16;
  x.channels = 4;
  x.src = tensor4(rm::psum_addr(0, 0x80), 1, 4, 0, 1, 0, 1, 0, 1);
  x.dst = tensor4(rm::sbuf_addr(0, 0x40), 1, 4, 0, 1, 0, 1, 0, 1);
  expect_ok(m, x.encode(), on(Engine::DVE));
  for (unsigned p = 0; p < 4; ++p)
    EXPECT_EQ(peek(m, SBUF, p, 0x40, 2, 4), (V{0x3F80, 0x3F82, 0xFF80, 0x7FC0})) << p;
  expect_unchanged(m, x.encode(), Status::Invalid, std::nullopt, on(Engine::POOL));
  const gpsimd::Diagnostics d =
      gpsimd::validate(x.encode(), Generation::V3, gpsimd::ValidateOptions{false, Engine::POOL});
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0].clause, "tensor4d_valid");
  EXPECT_EQ(d[0].field, "src_mem_pattern");
}

// Faults change nothing, for a converting word too; a 2^24-element walk is the limit
// and runs (zero steps keep it small in memory).
TEST(Cast, FaultsChangeNothingAndTheWalkLimitIsInclusive) {
  Machine& m = busy_machine(Generation::V5);
  rm::CopyCastWord x = cc_word(rm::kCast, dt::FP32, dt::FP16, 4);
  x.src = tensor4(rm::reg_addr(7), 1, 4, 0, 1, 0, 1, 0, 1);
  m.registers[7] = rm::psum_addr(2, 0x100);
  expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress);  // POOL
  expect_ok(m, x.encode(), on(Engine::ACT));
  EXPECT_EQ(peek(m, SBUF, 3, 0x800, 2, 2), (V{0x4500, 0x4600}));  // 5.0, 6.0
  rm::CopyCastWord limit = cc_word(rm::kCast, dt::INT8, dt::FP32, 1);
  limit.src = tensor4(rm::sbuf_addr(4, 0x100), 0, 4096, 0, 4096, 0, 1, 0, 1);  // 2^24
  limit.dst = tensor4(rm::sbuf_addr(4, 0x200), 0, 4096, 0, 4096, 0, 1, 0, 1);
  poke(m, SBUF, 4, 0x100, 1, {0x85});  // -123
  const ExecResult r = gpsimd::execute(m, limit.encode());
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(peek(m, SBUF, 4, 0x200, 4, 1), V{f32(-123.0f)});
  limit.src.num[2] = 2;  // 2^25
  limit.dst.num[2] = 2;
  expect_unchanged(m, limit.encode(), Status::Faulted, FaultKind::TooLarge);
}

// Every table row has hand-checked effects: a test suite of its name in this file.
TEST(ExecuteCoverage, EveryInstructionHasHandCheckedEffects) {
  gpsimd::test_coverage::expect_suite_per_row();
}

}  // namespace
