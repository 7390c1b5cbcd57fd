// The one runner (program.h): a stream is a program of one queue, and all-or-nothing for
// a batch of words is an undo journal (machine.h's Journal) kept from the Writers, not a
// copy of the machine.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/machine.h"
#include "gpsimd/program.h"
#include "ops/op.h"
#include "ops/operands.h"

namespace {

using namespace gpsimd;

// Every byte of SBUF and PSUM random, and random registers-free small state, so that an
// undo that forgets a byte shows.
void scramble(Machine& m, uint32_t seed) {
  std::mt19937 rng(seed);
  for (Space s : kAllSpaces)
    for (uint8_t& b : m.space(s)) b = static_cast<uint8_t>(rng());
  for (uint32_t& a : m.accumulators) a = rng() & 0x3fffffffu;  // finite, positive
  for (uint32_t& s : m.semaphores) s = rng() % 4;
}

// The sample word of every row (SPEC §4's instructions, the one tools and the bench start
// from) at a partition, each updating a semaphore (INC) so semaphores change too; but
// ScalarTensorTensorBitvec's, whose every valid word faults unsupported-op (SPEC §4.21).
std::vector<Word> samples(unsigned partition) {
  std::vector<Word> out;
  for (const InstrDef& d : instructions()) {
    if (!d.exists_on(Generation::V3) || d.opcode == Opcode::ScalarTensorTensorBitvec) continue;
    Word w = detail::semantics(d).sample(partition);
    Events e;
    e.update_mode = static_cast<uint8_t>(UpdateMode::INC);
    e.update_idx = static_cast<uint8_t>(out.size() % kSemaphores);
    store_events(w, e);
    out.push_back(w);
  }
  return out;
}

TEST(Journal, UndoPutsBackEveryByteAndTheSmallState) {
  Machine m(Generation::V3);
  scramble(m, 1);
  std::vector<Word> words;
  for (unsigned p : {0u, 5u, 127u})
    for (const Word& w : samples(p)) words.push_back(w);
  const Machine before = m;
  Journal journal(m);
  ExecOptions opts;
  opts.journal = &journal;
  const ProgramResult r = run_program(m, words, opts);
  ASSERT_TRUE(r.ok()) << r.failure.message();
  ASSERT_EQ(r.retired, words.size());
  EXPECT_NE(m, before) << "the words must change the machine for the test to mean anything";
  EXPECT_GT(journal.bytes(), 0u);
  // The journal holds what was overwritten, not the machine: far less than its memory.
  EXPECT_LT(journal.bytes(), m.space(Space::SBUF).size() / 16);
  journal.undo(m);
  EXPECT_EQ(m, before);
}

TEST(Journal, ARangeWrittenTwiceGetsItsOldestBytesBack) {
  Machine m(Generation::V2);
  scramble(m, 2);
  const Machine before = m;
  Journal journal(m);
  journal.save(m, Space::SBUF, 3, 16, 48);
  std::fill_n(m.partition(Space::SBUF, 3).data() + 16, 32, uint8_t{0xaa});
  journal.save(m, Space::SBUF, 3, 0, 32);
  std::fill_n(m.partition(Space::SBUF, 3).data(), 32, uint8_t{0x55});
  m.registers[7] = 99;
  m.match[4].matched = 0x0f;
  journal.undo(m);
  EXPECT_EQ(m, before);
}

TEST(Runner, AFailedStreamWithAJournalUndoesToTheStart) {
  Machine m(Generation::V3);
  scramble(m, 3);
  std::vector<Word> words = samples(9);
  // The last word waits for a semaphore value nothing gives: sync-would-block.
  Word blocked = words.front();
  Events e;
  e.wait_mode = static_cast<uint8_t>(WaitMode::GE);
  e.wait_idx = 31;
  e.value = 0xffffffffu;
  store_events(blocked, e);
  words.push_back(blocked);
  const Machine before = m;
  Journal journal(m);
  ExecOptions opts;
  opts.journal = &journal;
  const ProgramResult r = run_program(m, words, opts);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.failed, words.size() - 1);
  EXPECT_EQ(r.retired, words.size() - 1);
  ASSERT_TRUE(r.failure.fault);
  EXPECT_EQ(r.failure.fault->kind, FaultKind::SyncWouldBlock);
  EXPECT_NE(m, before);  // the words before it retired
  journal.undo(m);
  EXPECT_EQ(m, before);
}

// run_stream reports what run_program does, with the schedule when it is kept: each
// word by the engine it runs on (its engine input for §4.14-§4.17, its own otherwise).
TEST(Runner, AStreamKeepsItsScheduleWhenAsked) {
  const std::vector<Word> words = samples(2);
  // Each word's engine input: DVE for the rows that take one and default to POOL (Copy,
  // Cast), their own for the other rows that take one, POOL for the rest (which ignore it).
  std::vector<std::optional<Engine>> engines;
  for (const Word& w : words) {
    const InstrDef& d = *find_instruction(w[0]);
    engines.push_back(!d.engine_input            ? Engine::POOL
                      : d.engine == Engine::POOL ? Engine::DVE
                                                 : d.engine);
  }
  Machine a(Generation::V3), b(Generation::V3);
  const QueueRun run = run_stream(a, Stream{words, engines, std::nullopt, false});
  const ProgramResult r = run_program(b, words, engines, ExecOptions{});
  ASSERT_EQ(run.status, ProgramStatus::Ok) << (run.fault ? run.fault->fault.detail : "");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(run.retired, r.retired);
  EXPECT_EQ(a, b);
  ASSERT_EQ(run.schedule.size(), words.size());
  for (std::size_t i = 0; i < words.size(); ++i) {
    const InstrDef& d = *find_instruction(words[i][0]);
    EXPECT_EQ(run.schedule[i].word.index, i);
    EXPECT_EQ(run.schedule[i].word.queue, d.engine_input ? *engines[i] : d.engine) << d.mnemonic;
  }
  QueueRunOptions none;
  none.keep_schedule = false;
  Machine c(Generation::V3);
  const QueueRun quiet = run_stream(c, Stream{words, engines, std::nullopt, false}, none);
  EXPECT_TRUE(quiet.schedule.empty());
  EXPECT_EQ(quiet.retired, words.size());
  EXPECT_EQ(c, a);
}

// An invalid stream word stops the run there (SPEC §8.9), not before it starts as in a
// program (§8.1): the words before it retire.
TEST(Runner, AStreamValidatesEachWordAsItComesToIssue) {
  std::vector<Word> words = samples(1);
  Word bad = words[0];
  bad[1] = 0xff;  // a header byte no instruction allows
  words.insert(words.begin() + 2, bad);
  Machine m(Generation::V3);
  const QueueRun run = run_stream(m, Stream{words});
  ASSERT_EQ(run.status, ProgramStatus::Invalid) << run.retired;
  ASSERT_EQ(run.invalid.size(), 1u);
  EXPECT_EQ(run.invalid[0].word.index, 2u);
  EXPECT_FALSE(run.invalid[0].diagnostics.empty());
  EXPECT_EQ(run.retired, 2u);
  const ProgramResult r = stream_result(run);
  EXPECT_EQ(r.failed, 2u);
  EXPECT_EQ(r.failure.status, Status::Invalid);
}

// SPEC §9.3's terms (the slot the timeline fills) come from the family's declaration: a
// TensorTensor reads src0 and src1 and writes dst, so three terms in that order, with
// count(T) the product of the word's num_elem, space(T) the resolved space (through the
// register for a register-mode address) and contiguous(T) step_elem[0] == 1.
TEST(Runner, CostTermsComeFromTheDeclaration) {
  const InstrDef& d = *find_instruction("TensorTensorArith");
  const detail::OpSemantics& ops = detail::semantics(d);
  Word w = ops.sample(0);
  const FieldDef* src0 = find_field(d.fields, "src0_mem_pattern");
  const FieldDef* src1 = find_field(d.fields, "src1_mem_pattern");
  const FieldDef* dst = find_field(d.fields, "dst_mem_pattern");
  ASSERT_TRUE(src0 && src1 && dst);
  TensorDesc a = load_tensor(w, *src0), b = load_tensor(w, *src1), c = load_tensor(w, *dst);
  a.num = {3, 5, 1, 1};
  a.step = {2, 6, 0, 0};  // every other element: not contiguous
  b.num = {15, 1, 1, 1};
  b.step = {1, 0, 0, 0};
  c.num = b.num;
  c.step = b.step;
  c.addr = 0x80000000u | 7;  // register 7 holds the destination's address
  store_tensor(w, src0->offset, a);
  store_tensor(w, src1->offset, b);
  store_tensor(w, dst->offset, c);
  Machine m(Generation::V3);
  m.registers[7] = kPsumBase + 0x100;  // PSUM partition 0, offset 0x100
  detail::CostTerms terms;
  const auto f = detail::cost_terms(*ops.operands, w, m, Engine::DVE, terms);
  ASSERT_FALSE(f) << f->detail;
  ASSERT_EQ(terms.size(), 3u);
  EXPECT_EQ(terms[0].count, 15u);
  EXPECT_FALSE(terms[0].contiguous);
  EXPECT_EQ(terms[0].space, Space::SBUF);
  EXPECT_EQ(terms[1].count, 15u);
  EXPECT_TRUE(terms[1].contiguous);
  EXPECT_EQ(terms[2].count, 15u);
  EXPECT_EQ(terms[2].space, Space::PSUM);
}

}  // namespace
