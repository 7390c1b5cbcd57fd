// run_program (issue 3): words execute in order; the first invalid or faulting word
// stops the run with its index and diagnostics; the words before it stay retired and
// the failing word changes nothing.
#include "gpsimd/program.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/machine.h"
#include "gpsimd/validate.h"
#include "reference_model.h"

namespace {

namespace rm = refmodel;
using gpsimd::ExecOptions;
using gpsimd::FaultKind;
using gpsimd::Generation;
using gpsimd::Machine;
using gpsimd::ProgramResult;
using gpsimd::Space;
using gpsimd::Status;
using gpsimd::Word;

void poke32(Machine& m, unsigned p, uint32_t off, const std::vector<uint32_t>& vals) {
  auto part = m.partition(Space::SBUF, p);
  for (std::size_t k = 0; k < vals.size(); ++k)
    for (unsigned i = 0; i < 4; ++i)
      part[off + 4 * k + i] = static_cast<uint8_t>(vals[k] >> (8 * i));
}
std::vector<uint32_t> peek32(const Machine& m, unsigned p, uint32_t off, unsigned count) {
  const auto part = m.partition(Space::SBUF, p);
  std::vector<uint32_t> out(count);
  for (unsigned k = 0; k < count; ++k)
    for (unsigned i = 0; i < 4; ++i)
      out[k] |= static_cast<uint32_t>(part[off + 4 * k + i]) << (8 * i);
  return out;
}

// Copies 4 INT32 from SBUF partition `from` to partition `to` (offset 0), with events.
Word copy4(unsigned from, unsigned to, const rm::Events& ev) {
  rm::TensorScalarSelectWord x;
  x.ev = ev;
  x.dtype = rm::dt::INT32;
  x.pred_imm_dtype = rm::dt::INT32;
  x.pred_imm = 1;
  x.src0 = rm::tensor3(rm::sbuf_addr(from, 0), 1, 4, 0, 1, 0, 1);
  x.dst = rm::tensor3(rm::sbuf_addr(to, 0), 1, 4, 0, 1, 0, 1);
  return x.encode();
}

// Sorts 4 INT32 of partition 1 ascending into (value, index) pairs in partition 2.
Word sort4(const rm::Events& ev) {
  rm::SortWord x;
  x.ev = ev;
  x.dtype = rm::dt::INT32;
  x.src = rm::tensor1(rm::sbuf_addr(1, 0), 1, 4);
  x.dst = rm::tensor2(rm::sbuf_addr(2, 0), 1, 2, 2, 4);
  return x.encode();
}

// w0 copies partition 0 to 1 and sets semaphore 3 to 7; w1 waits for semaphore 3 == 7
// (true only after w0), sorts, and increments semaphore 3.
const Word kW0 = copy4(0, 1, rm::Events{0, 0, 1, 3, 7});
const Word kW1 = sort4(rm::Events{2, 3, 2, 3, 7});
const Word kW3 = copy4(0, 3, rm::Events{0, 0, 2, 5, 0});

void setup(Machine& m) {
  poke32(m, 0, 0, {40, 10, 30, 20});
}

// The state after kW0 and kW1, worked out by hand.
void expect_after_w0_w1(const Machine& m) {
  EXPECT_EQ(peek32(m, 1, 0, 4), (std::vector<uint32_t>{40, 10, 30, 20}));
  EXPECT_EQ(peek32(m, 2, 0, 8), (std::vector<uint32_t>{10, 1, 20, 3, 30, 2, 40, 0}));
  EXPECT_EQ(m.semaphores[3], 8u);
  EXPECT_EQ(peek32(m, 3, 0, 4), (std::vector<uint32_t>{0, 0, 0, 0}));
  EXPECT_EQ(m.semaphores[5], 0u);
}

TEST(Program, RunsEveryWordInOrder) {
  Machine m(Generation::V3);
  setup(m);
  const std::vector<Word> words = {kW0, kW1, kW3};
  for (bool fast : {true, false}) {
    m.reset();
    setup(m);
    const ProgramResult r = gpsimd::run_program(m, words, ExecOptions{.fast = fast});
    EXPECT_TRUE(r.ok()) << r.failure.message();
    EXPECT_EQ(r.retired, 3u);
    EXPECT_FALSE(r.failed.has_value());
    EXPECT_EQ(peek32(m, 3, 0, 4), (std::vector<uint32_t>{40, 10, 30, 20}));
    EXPECT_EQ(m.semaphores[5], 1u);
  }
  // Order matters: w1 alone waits for a semaphore nothing has set.
  m.reset();
  setup(m);
  const std::vector<Word> swapped = {kW1, kW0};
  const ProgramResult r = gpsimd::run_program(m, swapped);
  ASSERT_EQ(r.failed, std::optional<std::size_t>{0});
  EXPECT_EQ(r.retired, 0u);
}

TEST(Program, EmptyProgramRetiresNothing) {
  Machine m(Generation::V2);
  const uint64_t h = m.hash();
  const ProgramResult r = gpsimd::run_program(m, std::vector<Word>{});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.retired, 0u);
  EXPECT_EQ(m.hash(), h);
}

// Runs {w0, w1, bad, w3}: the run stops at index 2 and the machine is what w0 and w1 made.
void check_stops_at_third(const Word& bad, Status status, std::optional<FaultKind> fault,
                          const ExecOptions& opts = {}) {
  Machine m(Generation::V3);
  setup(m);
  const std::vector<Word> words = {kW0, kW1, bad, kW3};
  const ProgramResult r = gpsimd::run_program(m, words, opts);
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.failed, std::optional<std::size_t>{2});
  EXPECT_EQ(r.retired, 2u);
  EXPECT_EQ(r.failure.status, status) << r.failure.message();
  if (fault) {
    ASSERT_TRUE(r.failure.fault.has_value());
    EXPECT_EQ(r.failure.fault->kind, *fault);
    EXPECT_FALSE(r.failure.fault->detail.empty());
  }
  if (status == Status::Invalid) {
    EXPECT_EQ(r.failure.diagnostics,
              gpsimd::validate(bad, Generation::V3, {.strict = opts.strict}));
    EXPECT_FALSE(r.failure.diagnostics.empty());
  }
  expect_after_w0_w1(m);
  // The failing word changed nothing: the same state as running only w0 and w1.
  Machine two(Generation::V3);
  setup(two);
  const std::vector<Word> prefix = {kW0, kW1};
  ASSERT_TRUE(gpsimd::run_program(two, prefix).ok());
  EXPECT_EQ(m.hash(), two.hash());
  EXPECT_TRUE(m == two);
}

TEST(Program, StopsAtTheFirstInvalidWord) {
  rm::RangeSelectWord x;  // on V3, with a wrong fill value and reduce op
  x.src = rm::tensor2(rm::sbuf_addr(0, 0), 1, 4, 4, 1);
  x.dst = rm::tensor2(rm::sbuf_addr(3, 0), 1, 4, 4, 1);
  x.fill = 0;
  x.reduce_op = 0;
  x.reduce_cmd = 3;
  x.ev = rm::Events{0, 0, 1, 5, 9};
  check_stops_at_third(x.encode(), Status::Invalid, std::nullopt);
  Machine m(Generation::V3);
  const ProgramResult r = gpsimd::run_program(m, std::vector<Word>{x.encode()});
  EXPECT_TRUE(gpsimd::has_clause(r.failure.diagnostics, "is_valid_fill_val"));
  EXPECT_TRUE(gpsimd::has_clause(r.failure.diagnostics, "has_valid_range_select_reduce_op"));
  // An unknown opcode.
  Word unknown = kW3;
  unknown[0] = 0x97;
  check_stops_at_third(unknown, Status::Invalid, std::nullopt);
}

TEST(Program, StopsAtTheFirstFaultingWord) {
  // Waits for semaphore 3 == 7, but w1 made it 8.
  check_stops_at_third(copy4(0, 3, rm::Events{2, 3, 2, 5, 7}), Status::Faulted,
                       FaultKind::SyncWouldBlock);
  // A register-mode source: register 1 holds 0 (SBUF partition 0, offset 0), and the walk
  // goes backwards from there, to bytes [-12, 4): bad-address.
  rm::TensorScalarSelectWord x;
  x.dtype = rm::dt::INT32;
  x.pred_imm_dtype = rm::dt::INT32;
  x.src0 = rm::tensor3(rm::reg_addr(1), -1, 4, 0, 1, 0, 1);
  x.dst = rm::tensor3(rm::sbuf_addr(3, 0), 1, 4, 0, 1, 0, 1);
  x.ev = rm::Events{0, 0, 2, 5, 0};
  check_stops_at_third(x.encode(), Status::Faulted, FaultKind::BadAddress);
}

TEST(Program, StrictModeAppliesToEveryWord) {
  // Top-K (K = 2 of 4) retires by default and is invalid in vendor-strict mode.
  rm::SortWord s;
  s.dtype = rm::dt::INT32;
  s.src = rm::tensor1(rm::sbuf_addr(0, 0), 1, 4);
  s.dst = rm::tensor2(rm::sbuf_addr(4, 0), 1, 2, 2, 2);
  Machine m(Generation::V3);
  setup(m);
  EXPECT_TRUE(gpsimd::run_program(m, std::vector<Word>{kW0, s.encode()}).ok());
  EXPECT_EQ(peek32(m, 4, 0, 4), (std::vector<uint32_t>{10, 1, 20, 3}));
  check_stops_at_third(s.encode(), Status::Invalid, std::nullopt, ExecOptions{.strict = true});
}

TEST(Program, FailingFirstWordRetiresNothing) {
  Machine m(Generation::V3);
  setup(m);
  m.registers[1] = rm::sbuf_addr(0, 2);  // misaligned for INT32
  const uint64_t h = m.hash();
  rm::TensorScalarSelectWord x;
  x.dtype = rm::dt::INT32;
  x.pred_imm_dtype = rm::dt::INT32;
  x.src0 = rm::tensor3(rm::reg_addr(1), 1, 4, 0, 1, 0, 1);
  x.dst = rm::tensor3(rm::sbuf_addr(3, 0), 1, 4, 0, 1, 0, 1);
  x.ev = rm::Events{0, 0, 1, 5, 9};
  const std::vector<Word> words = {x.encode(), kW0};
  const ProgramResult r = gpsimd::run_program(m, words);
  ASSERT_EQ(r.failed, std::optional<std::size_t>{0});
  EXPECT_EQ(r.retired, 0u);
  ASSERT_TRUE(r.failure.fault.has_value());
  EXPECT_EQ(r.failure.fault->kind, FaultKind::BadAddress);
  EXPECT_EQ(m.hash(), h);
  EXPECT_EQ(peek32(m, 1, 0, 4), (std::vector<uint32_t>{0, 0, 0, 0}));  // kW0 did not run
}

}  // namespace
