// Execution on hand-checked cases (SPEC §4) that are about no one instruction: events,
// register-mode addresses, overlapping operands, destination walks that revisit bytes,
// all-or-nothing for every fault kind and for invalid words, the fault order, and the trace
// of writes. Each instruction's own effects (its worked examples, every dtype) are in its
// file in tests/instructions/, on the helpers of tests/instructions/effects.h.
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
#include "instructions/effects.h"
#include "reference_model.h"
#include "table_coverage.h"

namespace {

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

}  // namespace
