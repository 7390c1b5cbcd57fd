// What the hand-checked effects of every instruction (tests/instructions/<snake_case>_test.cc)
// and the effects of tests/execute_test.cc that are about no one instruction share: the
// machines, running a word three ways (fast kernels, the scalar path and the independent
// reference), and the word builders the cases of several instructions use.
//
// Every expected value is worked out by hand from SPEC.md (bit patterns are commented).
// Each case runs with the fast kernels and with the scalar reference path, and through
// the independent reference model; all three must give the same machine.
#pragma once

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

#include "gpsimd/execute.h"
#include "gpsimd/machine.h"
#include "gpsimd/validate.h"
#include "reference_model.h"

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

inline uint32_t f32(float f) {
  return rm::as_bits(f);
}

// ---- Machines -----------------------------------------------------------------------------
//
// Whole machines are large (tens of MiB), so the tests reuse a few of them and remember,
// per machine, which partitions may be nonzero (written by poke(), or reported written by
// the trace or the reference). Copies and cross-checks then touch only those partitions;
// the all-or-nothing checks still use the whole-state hash() and operator==.

using Key = std::pair<Space, unsigned>;

inline std::set<Key>& dirty(const Machine& m) {
  static std::map<const Machine*, std::set<Key>> sets;
  return sets[&m];
}

inline Machine& scratch(Generation g, unsigned slot) {
  static std::map<std::pair<Generation, unsigned>, std::unique_ptr<Machine>> pool;
  auto& m = pool[{g, slot}];
  if (!m) m = std::make_unique<Machine>(g);
  return *m;
}

inline void zero_dirty(Machine& m) {
  for (const auto& [s, p] : dirty(m))
    std::memset(m.partition(s, p).data(), 0, m.partition_bytes(s));
  dirty(m).clear();
}

// Returns a machine of generation `g` in the state of a fresh one (SPEC §2).
inline Machine& fresh(Generation g, unsigned slot = 0) {
  Machine& m = scratch(g, 100 + slot);
  zero_dirty(m);
  m.registers.fill(0);
  m.semaphores.fill(0);
  m.accumulators.fill(kNegInf);
  m.match.fill(gpsimd::MatchLane{});
  return m;
}

// Returns `slot`'s scratch machine holding a copy of `src`.
inline Machine& copy_of(const Machine& src, unsigned slot) {
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
inline bool same(const Machine& a, const Machine& b) {
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
inline ExecResult exec(Machine& m, const Word& w, ExecOptions opts = {}) {
  Marker marker(m, opts.trace);
  opts.trace = &marker;
  return gpsimd::execute(m, w, opts);
}

// Stores little-endian elements of `size` bytes at consecutive offsets.
inline void poke(Machine& m, Space s, unsigned p, uint32_t off, unsigned size,
                 const std::vector<uint32_t>& vals) {
  dirty(m).insert({s, p});
  auto part = m.partition(s, p);
  for (std::size_t k = 0; k < vals.size(); ++k)
    for (unsigned i = 0; i < size; ++i)
      part[off + k * size + i] = static_cast<uint8_t>(vals[k] >> (8 * i));
}

// Returns `count` little-endian elements of `size` bytes from consecutive offsets.
inline std::vector<uint32_t> peek(const Machine& m, Space s, unsigned p, uint32_t off,
                                  unsigned size, unsigned count) {
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
inline ExecResult run(Machine& m, const Word& w, ExecOptions opts = {}) {
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

inline void expect_ok(Machine& m, const Word& w, ExecOptions opts = {}) {
  const ExecResult r = run(m, w, opts);
  ASSERT_TRUE(r.ok()) << r.message();
}

// ---- word builders the cases of several instructions use ----------------------------------

// One channel, src at SBUF partition 0 offset 0x100, dst at partition 1 offset 0x200.
inline rm::RangeSelectWord rs_word(uint8_t in, uint8_t out, unsigned count, float base, uint8_t op0,
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

inline rm::TensorScalarSelectWord tss_word(uint8_t dtype, uint8_t pdtype, unsigned count) {
  rm::TensorScalarSelectWord x;
  x.dtype = dtype;
  x.pred_imm_dtype = pdtype;
  x.src0 = tensor3(rm::sbuf_addr(2, 0x40), 1, count, 0, 1, 0, 1);
  x.dst = tensor3(rm::sbuf_addr(3, 0x80), 1, count, 0, 1, 0, 1);
  return x;
}

inline rm::GetSequenceBoundsWord gsb_word(uint8_t in, uint8_t out, unsigned n) {
  rm::GetSequenceBoundsWord x;
  x.in = in;
  x.out = out;
  x.src = tensor3(rm::sbuf_addr(4, 0x100), 1, n, 0, 1, 0, 1);
  x.dst = tensor3(rm::sbuf_addr(4, 0x400), 1, n, 0, 1, static_cast<int>(n), 2);
  return x;
}

inline V as_fp32(const std::vector<int>& v) {
  V out;
  for (int x : v) out.push_back(f32(static_cast<float>(x)));
  return out;
}

inline V as_int32(const std::vector<int>& v) {
  V out;
  for (int x : v) out.push_back(static_cast<uint32_t>(x));
  return out;
}

// Channels from SBUF partition 10, src at 0x100, dst (value, index) pairs at 0x800.
inline rm::SortWord sort_word(uint8_t dtype, uint8_t cmp, unsigned n, unsigned k, uint32_t offset) {
  rm::SortWord x;
  x.dtype = dtype;
  x.comparison = cmp;
  x.index_offset = offset;
  x.src = tensor1(rm::sbuf_addr(10, 0x100), 1, n);
  x.dst = tensor2(rm::sbuf_addr(10, 0x800), 1, 2, 2, k);
  return x;
}

// Returns the interleaved (value, index) pairs of `values` and `indices`.
inline V pairs(const V& values, const V& indices) {
  V out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    out.push_back(values[i]);
    out.push_back(indices[i]);
  }
  return out;
}

// A dense one-row-per-channel AffineSelect: n channels from `p`, `len` elements each.
inline rm::AffineSelectWord as_word(uint8_t in, uint8_t out, unsigned n, unsigned p, unsigned len,
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

inline rm::IotaWord iota_word(uint8_t out, unsigned n, unsigned p, unsigned len) {
  rm::IotaWord x;
  x.out = out;
  x.channels = static_cast<uint8_t>(n);
  x.pattern.num[0] = len;
  x.dst = rm::tensor4(rm::sbuf_addr(p, 0x400), 1, len, 0, 1, 0, 1, 0, 1);
  return x;
}

// One channel, INT32 ids dense at SBUF partition 0 offset 0x100, count(src) + 1 results
// dense at partition 1 offset 0x200.
inline rm::NonzeroWithCountWord nwc_word(uint8_t in, unsigned t, uint32_t offset,
                                         uint32_t padding) {
  rm::NonzeroWithCountWord x;
  x.in = in;
  x.index_offset = offset;
  x.padding_val = padding;
  x.src = tensor3(rm::sbuf_addr(0, 0x100), 1, t, 0, 1, 0, 1);
  x.dst = tensor3(rm::sbuf_addr(1, 0x200), 1, t + 1, 0, 1, 0, 1);
  return x;
}

constexpr uint32_t kMinus1 = 0xFFFFFFFFu;

// One channel: pred dense at SBUF partition 0 offset 0x100, dst dense at partition 1
// offset 0x200, `n` elements each.
inline rm::CopyPredicatedScalarWord cps_word(uint8_t pdtype, uint8_t dtype, unsigned n,
                                             uint32_t scalar, uint8_t reversed) {
  rm::CopyPredicatedScalarWord x;
  x.pred_dtype = pdtype;
  x.dtype = dtype;
  x.src0_imm = scalar;
  x.reversed_pred = reversed;
  x.pred = tensor3(rm::sbuf_addr(0, 0x100), 1, n, 0, 1, 0, 1);
  x.dst = tensor3(rm::sbuf_addr(1, 0x200), 1, n, 0, 1, 0, 1);
  return x;
}

inline rm::DveReadAccumulatorWord dra_word(uint8_t dtype, unsigned channels, uint32_t addr,
                                           uint8_t negated = 0) {
  rm::DveReadAccumulatorWord x;
  x.dtype = dtype;
  x.channels = static_cast<uint8_t>(channels);
  x.negated = negated;
  x.dst = tensor1(addr, 1, 1);
  return x;
}

// ---- all or nothing (SPEC §4, §6) and the trace of writes ------------------------------

// Executes a word that must not retire, with and without the fast kernels, and checks
// that the whole machine (hash and a copy) is unchanged.
inline void expect_unchanged(Machine& m, const Word& w, Status status,
                             std::optional<FaultKind> kind, ExecOptions opts = {}) {
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
inline Machine& busy_machine(Generation g = Generation::V3) {
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
inline void check_trace(Machine& m, const Word& w, const std::set<Key>& partitions) {
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

}  // namespace
