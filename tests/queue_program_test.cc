// Programs on several engine queues (SPEC §8): the worked examples of §8.10 from their
// hex words, the schedule example of §8.3, every case of §8.6's acquire table, the end
// states of §8.4 (deadlock report, faults that keep the retired words, invalid programs
// that change nothing), the sync hazards of §8.7, the one-queue agreement of §8.2 against
// run_program in a randomized test, the race detector against a brute-force reading of
// §8.6 on random programs, and the shadow memory's size.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/program.h"
#include "random_words.h"
#include "test_words.h"

namespace {

namespace tw = gpsimd::test_words;
using gpsimd::AccessKind;
using gpsimd::Engine;
using gpsimd::Events;
using gpsimd::Generation;
using gpsimd::HazardKind;
using gpsimd::LocationSpace;
using gpsimd::Machine;
using gpsimd::ProgramStatus;
using gpsimd::QueueProgram;
using gpsimd::QueueRun;
using gpsimd::QueueWord;
using gpsimd::Space;
using gpsimd::SyncHazard;
using gpsimd::Word;

Word hex(const std::string& text) {
  std::string e;
  auto w = gpsimd::word_from_hex(text, &e);
  if (!w) ADD_FAILURE() << e;
  return w.value_or(Word{});
}

// SPEC §8.10's words, verbatim.
const Word kPool0 =
    hex("7e100000 00000201 00000000 00000000 01000000 00000000 10000100 01000100 000a0100 00000000 "
        "00000000 00010000 01001000 10001000 10000100 01000100");
const Word kDve0 =
    hex("6c100000 01010000 01000000 00010000 01001000 10001000 10000100 01000100 0a0a0100 00000000 "
        "00000000 00000000 00020000 01000800 08000100 00000000");

Word with_events(Word w, uint8_t wait_mode, uint8_t wait_idx, uint8_t update_mode,
                 uint8_t update_idx, uint32_t value) {
  gpsimd::store_events(w, Events{wait_mode, wait_idx, update_mode, update_idx, value});
  return w;
}
constexpr uint8_t NONE = 0, GE = 1, EQ = 2, SET = 1, INC = 2, DEC = 3;

// Iota of the FP32 ramp 0 .. count-1 (one channel) into SBUF partition p at `off`, the
// steps of the unused dimensions written as SPEC §8.10 writes them.
Word iota(uint32_t off, uint16_t count, unsigned p = 0) {
  const auto c = static_cast<int16_t>(count);
  return tw::build(
      gpsimd::Opcode::Iota,
      {{"src_data_pattern", tw::data4d(0, {1, 0, 0, 0}, {count, 1, 1, 1})},
       {"out_dtype", uint64_t{0x0a}},
       {"num_active_channels", uint64_t{1}},
       {"dst_mem_pattern", tw::tensor(tw::sbuf_addr(p, off), {1, c, c, c}, {count, 1, 1, 1})}});
}
// Max8 of `count` FP32 at `src` into eight FP32 at `dst` (one channel, partition p).
Word max8(uint32_t src, uint16_t count, uint32_t dst, unsigned p = 0) {
  const auto c = static_cast<int16_t>(count);
  return tw::build(
      gpsimd::Opcode::Max8,
      {{"src_mem_pattern", tw::tensor(tw::sbuf_addr(p, src), {1, c, c, c}, {count, 1, 1, 1})},
       {"in_dtype", uint64_t{0x0a}},
       {"out_dtype", uint64_t{0x0a}},
       {"num_active_channels", uint64_t{1}},
       {"dst_mem_pattern", tw::tensor(tw::sbuf_addr(p, dst), {1, 8}, {8, 1})}});
}
// A TensorScalarSelect that copies `count` INT32 from `src` to `dst` of partition p.
Word copy_tss(uint32_t src, uint32_t dst, uint16_t count, unsigned p) {
  return tw::build(
      gpsimd::Opcode::TensorScalarSelect,
      {{"src0_mem_pattern", tw::tensor(tw::sbuf_addr(p, src), {1, 0, 0}, {count, 1, 1})},
       {"num_active_channels", uint64_t{1}},
       {"dtype", uint64_t{0x08}},
       {"pred_imm_dtype", uint64_t{0x08}},
       {"pred_imm", uint64_t{1}},
       {"dst_mem_pattern", tw::tensor(tw::sbuf_addr(p, dst), {1, 0, 0}, {count, 1, 1})}});
}

QueueProgram program(std::vector<Word> dve, std::vector<Word> pool, std::vector<Word> act = {}) {
  QueueProgram p;
  p.queue(Engine::DVE) = std::move(dve);
  p.queue(Engine::POOL) = std::move(pool);
  p.queue(Engine::ACT) = std::move(act);
  return p;
}

std::string sched(const QueueRun& r) {
  std::string s;
  for (const std::string& x : r.schedule_text()) s += (s.empty() ? "" : " ") + x;
  return s;
}

std::vector<float> floats(const Machine& m, unsigned p, uint32_t off, unsigned n) {
  std::vector<float> out(n);
  std::memcpy(out.data(), m.partition(Space::SBUF, p).data() + off, 4 * n);
  return out;
}

TEST(QueueProgramExamples, TheWordsAreSpecsWords) {
  // The builders above make exactly §8.10's words (so the variants below mean what they say).
  EXPECT_EQ(with_events(iota(0x100, 16), NONE, 0, INC, 1, 0), kPool0);
  EXPECT_EQ(with_events(max8(0x100, 16, 0x200), GE, 1, NONE, 0, 1), kDve0);
}

// §8.10 example 1.
TEST(QueueProgramExamples, ProducerConsumer) {
  Machine m(Generation::V3);
  const QueueRun r = run_queues(m, program({kDve0}, {kPool0}));
  EXPECT_EQ(r.status, ProgramStatus::Ok);
  EXPECT_EQ(sched(r), "pool:0 dve:0");
  EXPECT_TRUE(r.races_checked);
  EXPECT_FALSE(r.race.has_value());
  EXPECT_TRUE(r.sync_hazards.empty());
  ASSERT_EQ(r.schedule.size(), 2u);
  EXPECT_EQ(r.schedule[1].acquired, (QueueWord{Engine::POOL, 0}));
  EXPECT_FALSE(r.schedule[0].acquired);
  EXPECT_EQ(floats(m, 0, 0x200, 8), (std::vector<float>{8, 9, 10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(m.semaphores[1], 1u);
}

// §8.10 example 2: the words without events.
TEST(QueueProgramExamples, MissingWait) {
  Machine m(Generation::V3);
  const Word pool = with_events(kPool0, 0, 0, 0, 0, 0), dve = with_events(kDve0, 0, 0, 0, 0, 0);
  ASSERT_EQ(gpsimd::word_to_hex(pool).substr(0, 16), "7e10000000000000");
  const QueueRun r = run_queues(m, program({dve}, {pool}));
  EXPECT_EQ(r.status, ProgramStatus::Ok);
  EXPECT_EQ(sched(r), "dve:0 pool:0");
  ASSERT_TRUE(r.race.has_value());
  EXPECT_EQ(r.race->first, (gpsimd::RaceAccess{{Engine::DVE, 0}, AccessKind::Read}));
  EXPECT_EQ(r.race->second, (gpsimd::RaceAccess{{Engine::POOL, 0}, AccessKind::Write}));
  EXPECT_EQ(r.race->location, (gpsimd::RaceLocation{LocationSpace::SBUF, 0, 0x100}));
  EXPECT_EQ(floats(m, 0, 0x200, 8), std::vector<float>(8, 0.0f));
  // Without race detection, everything but the race is the same.
  Machine m2(Generation::V3);
  const QueueRun r2 = run_queues(m2, program({dve}, {pool}), {.detect_races = false});
  EXPECT_FALSE(r2.races_checked);
  EXPECT_FALSE(r2.race);
  EXPECT_EQ(sched(r2), sched(r));
  EXPECT_TRUE(m == m2);
}

// §8.10 example 3.
TEST(QueueProgramExamples, Cycle) {
  Machine m(Generation::V3);
  const Word dve = with_events(kDve0, GE, 2, INC, 1, 1),
             pool = with_events(kPool0, GE, 1, INC, 2, 1);
  EXPECT_EQ(gpsimd::word_to_hex(dve).substr(0, 24),
            "6c10000001020201"
            "01000000");
  EXPECT_EQ(gpsimd::word_to_hex(pool).substr(0, 24),
            "7e10000001010202"
            "01000000");
  const QueueRun r = run_queues(m, program({dve}, {pool}));
  EXPECT_EQ(r.status, ProgramStatus::Deadlock);
  EXPECT_TRUE(r.schedule.empty());
  ASSERT_EQ(r.blocked.size(), 2u);
  EXPECT_EQ(r.blocked[0].word, (QueueWord{Engine::DVE, 0}));
  EXPECT_EQ(r.blocked[0].wait, gpsimd::WaitMode::GE);
  EXPECT_EQ(r.blocked[0].semaphore, 2u);
  EXPECT_EQ(r.blocked[0].value, 1u);
  EXPECT_EQ(r.blocked[0].current, 0u);
  EXPECT_EQ(r.blocked[1].word, (QueueWord{Engine::POOL, 0}));
  EXPECT_EQ(r.blocked[1].semaphore, 1u);
  EXPECT_FALSE(r.race);
  EXPECT_TRUE(m == Machine(Generation::V3));
}

// §8.10 example 4, and its two variants.
TEST(QueueProgramExamples, ShortCount) {
  const uint32_t A = 0x100, B = 0x200;
  for (int variant = 0; variant < 3; ++variant) {
    const uint8_t mode = variant == 2 ? SET : INC;
    const uint32_t val = variant == 2 ? 1 : 0;
    const Word p0 = with_events(iota(A, 16), NONE, 0, mode, 4, val);
    const Word p1 = with_events(iota(B, 16), NONE, 0, mode, 4, val);
    const Word d0 = copy_tss(0, 0x40, 4, 9), d1 = copy_tss(0x80, 0xc0, 4, 9);
    const Word d2 = with_events(max8(B, 16, 0x400), GE, 4, NONE, 0, variant == 1 ? 2 : 1);
    Machine m(Generation::V3);
    const QueueRun r = run_queues(m, program({d0, d1, d2}, {p0, p1}));
    EXPECT_EQ(r.status, ProgramStatus::Ok) << variant;
    EXPECT_EQ(sched(r), "dve:0 pool:0 dve:1 pool:1 dve:2") << variant;
    if (variant == 1) {
      EXPECT_FALSE(r.race) << "value 2 waits for both Iotas";
      EXPECT_EQ(r.schedule[4].acquired, (QueueWord{Engine::POOL, 1}));
      continue;
    }
    ASSERT_TRUE(r.race) << variant;
    EXPECT_EQ(r.race->first, (gpsimd::RaceAccess{{Engine::POOL, 1}, AccessKind::Write}));
    EXPECT_EQ(r.race->second, (gpsimd::RaceAccess{{Engine::DVE, 2}, AccessKind::Read}));
    EXPECT_EQ(r.race->location, (gpsimd::RaceLocation{LocationSpace::SBUF, 0, B}));
    EXPECT_EQ(r.schedule[4].acquired, (QueueWord{Engine::POOL, 0}));
  }
}

// §8.10 example 5.
TEST(QueueProgramExamples, EqWindow) {
  const Word p0 = with_events(iota(0x100, 16), NONE, 0, INC, 0, 0);
  const Word p1 = with_events(iota(0x300, 16), NONE, 0, INC, 0, 0);
  const Word d0 = with_events(max8(0x100, 16, 0x200), EQ, 0, NONE, 0, 1);
  Machine m(Generation::V3);
  const QueueRun r = run_queues(m, program({d0}, {p0, p1}));
  EXPECT_EQ(r.status, ProgramStatus::Ok);
  EXPECT_EQ(sched(r), "pool:0 dve:0 pool:1");
  EXPECT_EQ(r.sync_hazards, (std::vector<SyncHazard>{{0, HazardKind::EqWait}}));
  EXPECT_FALSE(r.race);
  EXPECT_EQ(m.semaphores[0], 2u);
}

// §8.10 example 6.
TEST(QueueProgramExamples, LowestRacingLocation) {
  const Word p0 = with_events(iota(0x100, 16), NONE, 0, INC, 1, 0);
  const Word p1 = iota(0x140, 16);
  const Word d0 = copy_tss(0, 0x40, 4, 9), d1 = copy_tss(0x80, 0xc0, 4, 9);
  const Word d2 = with_events(max8(0x100, 32, 0x400), GE, 1, NONE, 0, 1);
  Machine m(Generation::V3);
  const QueueRun r = run_queues(m, program({d0, d1, d2}, {p0, p1}));
  EXPECT_EQ(sched(r), "dve:0 pool:0 dve:1 pool:1 dve:2");
  ASSERT_TRUE(r.race);
  EXPECT_EQ(r.race->first, (gpsimd::RaceAccess{{Engine::POOL, 1}, AccessKind::Write}));
  EXPECT_EQ(r.race->second, (gpsimd::RaceAccess{{Engine::DVE, 2}, AccessKind::Read}));
  EXPECT_EQ(r.race->location, (gpsimd::RaceLocation{LocationSpace::SBUF, 0, 0x140}));
}

// §8.3's example, and the cursor rule.
TEST(QueueProgramSchedule, CursorMovesPastTheIssuer) {
  const Word a = with_events(copy_tss(0, 0x40, 4, 9), GE, 1, NONE, 0, 1);
  const Word b = copy_tss(0x80, 0xc0, 4, 9);
  const Word c = with_events(iota(0x100, 4, 10), NONE, 0, INC, 1, 0);
  const Word d = iota(0x200, 4, 10);
  Machine m(Generation::V3);
  EXPECT_EQ(sched(run_queues(m, program({a, b}, {c, d}))), "pool:0 dve:0 pool:1 dve:1");
  // Three queues that never wait: one word each per turn, dve, pool, act.
  QueueProgram p = program({b, b}, {d, d, d});
  Machine m2(Generation::V3);
  EXPECT_EQ(sched(run_queues(m2, p)), "dve:0 pool:0 dve:1 pool:1 pool:2");
}

TEST(QueueProgramSchedule, EmptyProgram) {
  Machine m(Generation::V2);
  const QueueRun r = run_queues(m, QueueProgram{});
  EXPECT_EQ(r.status, ProgramStatus::Ok);
  EXPECT_TRUE(r.schedule.empty());
  EXPECT_FALSE(r.race);
  EXPECT_TRUE(r.sync_hazards.empty());
}

// SPEC §8.6's table: which update a wait acquires. Producers on POOL (p0, p1, p2) and on
// DVE; the consumer on ACT cannot run a §4.1-§4.13 word, so the consumer is the last DVE
// word and the producers are POOL's, except in "two updaters".
struct AcquireCase {
  const char* name;
  uint32_t v0;
  std::vector<std::pair<uint8_t, uint32_t>> updates;  // mode, SET value
  uint8_t wait;
  uint32_t value;
  std::optional<std::size_t> acquired;  // the POOL word acquired (via its release)
  bool race_with_last;                  // whether the consumer races with the last producer
};

TEST(QueueProgramAcquire, SpecTable) {
  const std::vector<AcquireCase> cases = {
      {"producer ran ahead", 0, {{INC, 0}, {INC, 0}}, GE, 1, 0, true},
      {"counted", 0, {{INC, 0}, {INC, 0}}, GE, 2, 1, false},
      {"SET to the same value GE", 0, {{SET, 1}, {SET, 1}}, GE, 1, 0, true},
      {"SET to the same value EQ", 0, {{SET, 1}, {SET, 1}}, EQ, 1, 0, true},
      {"a dip", 0, {{INC, 0}, {DEC, 0}, {INC, 0}}, GE, 1, 2, false},
      {"held since the start", 1, {{INC, 0}}, GE, 1, std::nullopt, true},
      {"wrapping DEC", 0, {{DEC, 0}}, GE, 5, 0, false},
      {"EQ after several", 0, {{INC, 0}, {INC, 0}, {DEC, 0}}, EQ, 1, 2, false},
      {"SET after INCs", 0, {{INC, 0}, {SET, 5}}, GE, 5, 1, false},
  };
  for (const AcquireCase& c : cases) {
    // POOL: one Iota per update, each into its own tile (tile k at 0x100 * (k + 1)); DVE:
    // a Max8 reading every tile, waiting; it issues after all of POOL's words.
    std::vector<Word> pool;
    for (std::size_t k = 0; k < c.updates.size(); ++k)
      pool.push_back(with_events(iota(static_cast<uint32_t>(0x100 * (k + 1)), 8), NONE, 0,
                                 c.updates[k].first, 7, c.updates[k].second));
    // The consumer reads the last tile only: it races with the last producer unless the
    // acquired release covers it.
    const uint32_t last = static_cast<uint32_t>(0x100 * c.updates.size());
    // A filler that keeps DVE busy until POOL is done (dve waits on nothing but its own
    // queue order), then the consumer.
    std::vector<Word> dve(c.updates.size(), copy_tss(0, 0x40, 4, 9));
    dve.push_back(with_events(max8(last, 8, 0x800), c.wait, 7, NONE, 0, c.value));
    Machine m(Generation::V3);
    m.semaphores[7] = c.v0;
    const QueueRun r = run_queues(m, program(dve, pool));
    ASSERT_EQ(r.status, ProgramStatus::Ok) << c.name << ": " << sched(r);
    const gpsimd::ScheduleStep& consumer = r.schedule.back();
    ASSERT_EQ(consumer.word, (QueueWord{Engine::DVE, c.updates.size()}))
        << c.name << ": " << sched(r);
    if (c.acquired) {
      EXPECT_EQ(consumer.acquired, (QueueWord{Engine::POOL, *c.acquired})) << c.name;
    } else {
      EXPECT_FALSE(consumer.acquired) << c.name;
    }
    EXPECT_EQ(r.race.has_value(), c.race_with_last) << c.name << ": " << sched(r);
    if (r.race) {
      EXPECT_EQ(r.race->second.word, consumer.word) << c.name;
      EXPECT_EQ(r.race->first.word, (QueueWord{Engine::POOL, c.updates.size() - 1})) << c.name;
    }
  }
}

// "two updaters": pool:0 INC, then dve:1 INC; pool:1's GE 2 wait acquires the release
// after dve:1, which is pool:0's clock joined with dve:1's: it covers dve:0, whose read of
// pool:0's tile pool:1 then overwrites without a race. Without the wait it races.
TEST(QueueProgramAcquire, TwoUpdaters) {
  const Word p0 = with_events(iota(0x100, 8), NONE, 0, INC, 7, 0);
  const Word d0 = with_events(copy_tss(0x100, 0x800, 4, 0), GE, 7, NONE, 0, 1);
  const Word d1 = with_events(copy_tss(0x400, 0x440, 4, 9), NONE, 0, INC, 7, 0);
  const Word p1 = with_events(iota(0x100, 8), GE, 7, NONE, 0, 2);
  Machine m(Generation::V3);
  const QueueRun r = run_queues(m, program({d0, d1}, {p0, p1}));
  ASSERT_EQ(r.status, ProgramStatus::Ok) << sched(r);
  EXPECT_EQ(sched(r), "pool:0 dve:0 dve:1 pool:1");
  EXPECT_EQ(r.schedule[1].acquired, (QueueWord{Engine::POOL, 0}));
  EXPECT_EQ(r.schedule[3].acquired, (QueueWord{Engine::DVE, 1}));
  EXPECT_FALSE(r.race);
  EXPECT_EQ(r.sync_hazards, (std::vector<SyncHazard>{{7, HazardKind::Updaters}}));
  Machine m2(Generation::V3);
  const QueueRun r2 = run_queues(m2, program({d0, d1}, {p0, iota(0x100, 8)}));
  ASSERT_TRUE(r2.race) << sched(r2);
  EXPECT_EQ(r2.race->first, (gpsimd::RaceAccess{{Engine::DVE, 0}, AccessKind::Read}));
  EXPECT_EQ(r2.race->second, (gpsimd::RaceAccess{{Engine::POOL, 1}, AccessKind::Write}));
}

TEST(QueueProgramEndStates, FaultKeepsTheRetiredWords) {
  // pool:0 retires, then dve:0 faults bad-address (a register-mode source whose register
  // holds a misaligned address); pool:1 never issues.
  Word bad = max8(0x100, 16, 0x200);
  tw::set_addr(bad, "src_mem_pattern", tw::reg_addr(5));
  const Word p0 = iota(0x100, 16), p1 = iota(0x300, 16);
  Machine m(Generation::V3);
  m.registers[5] = tw::sbuf_addr(0, 0x102);
  const QueueRun r = run_queues(m, program({bad}, {p0, p1}));
  EXPECT_EQ(r.status, ProgramStatus::Fault);
  EXPECT_EQ(sched(r), "dve:0");
  ASSERT_TRUE(r.fault);
  EXPECT_EQ(r.fault->word, (QueueWord{Engine::DVE, 0}));
  EXPECT_EQ(r.fault->fault.kind, gpsimd::FaultKind::BadAddress);
  EXPECT_FALSE(r.schedule.back().retired);
  // With POOL first (DVE waits for it), pool:0 retires before the fault and stays.
  Machine m2(Generation::V3);
  m2.registers[5] = tw::sbuf_addr(0, 0x102);
  const QueueRun r2 = run_queues(m2, program({with_events(bad, GE, 1, NONE, 0, 1)},
                                             {with_events(p0, NONE, 0, INC, 1, 0), p1}));
  EXPECT_EQ(sched(r2), "pool:0 dve:0");
  EXPECT_EQ(r2.status, ProgramStatus::Fault);
  EXPECT_EQ(floats(m2, 0, 0x104, 2), (std::vector<float>{1, 2}));
  EXPECT_EQ(floats(m2, 0, 0x300, 2), (std::vector<float>{0, 0}));  // pool:1 never issued
}

TEST(QueueProgramEndStates, InvalidIsAllOrNothing) {
  // An Iota in the dve queue, a Max8 in the pool queue, an invalid Max8 in the act queue
  // that would never issue: nothing runs, every invalid word is listed in queue order.
  Word broken = kDve0;
  broken[34] = 0;  // num_active_channels 0
  const QueueProgram p = program({kDve0, kPool0}, {kDve0, kPool0}, {broken});
  Machine m(Generation::V3);
  m.registers[1] = 7;
  const Machine before = m;
  const QueueRun r = run_queues(m, p);
  EXPECT_EQ(r.status, ProgramStatus::Invalid);
  ASSERT_EQ(r.invalid.size(), 3u);
  EXPECT_EQ(r.invalid[0].word, (QueueWord{Engine::DVE, 1}));
  EXPECT_EQ(r.invalid[1].word, (QueueWord{Engine::POOL, 0}));
  EXPECT_EQ(r.invalid[2].word, (QueueWord{Engine::ACT, 0}));
  EXPECT_TRUE(gpsimd::has_clause(r.invalid[0].diagnostics, "has_valid_queue_engine"));
  EXPECT_TRUE(gpsimd::has_clause(r.invalid[1].diagnostics, "has_valid_queue_engine"));
  EXPECT_TRUE(gpsimd::has_clause(r.invalid[2].diagnostics, "has_valid_queue_engine"));
  EXPECT_TRUE(gpsimd::has_clause(r.invalid[2].diagnostics, "has_valid_active_channel_range"));
  EXPECT_EQ(r.invalid[0].diagnostics.front().message(),
            "Iota: has_valid_queue_engine: queue = dve, Iota runs on POOL only: it belongs in "
            "the pool queue");
  EXPECT_TRUE(r.schedule.empty());
  EXPECT_TRUE(r.sync_hazards.empty());
  EXPECT_TRUE(m == before);
  // An unknown opcode is has_known_opcode only, in any queue.
  Word unknown{};
  unknown[0] = 0x97;
  const auto inv = gpsimd::validate_queues(program({}, {unknown}), Generation::V3);
  ASSERT_EQ(inv.size(), 1u);
  ASSERT_EQ(inv[0].diagnostics.size(), 1u);
  EXPECT_EQ(inv[0].diagnostics[0].clause, "has_known_opcode");
}

TEST(QueueProgramEndStates, QueueEngineTable) {
  // SPEC §8.1's table, row by row, from the instruction table's engines.
  for (const gpsimd::InstrDef& d : gpsimd::instructions()) {
    const Word w = tw::valid_word(d.opcode);
    for (Engine e : gpsimd::kAllEngines) {
      const auto v = gpsimd::queue_engine_violation(w, e);
      const bool own = (d.engine == Engine::DVE) ? e == Engine::DVE : e == Engine::POOL;
      EXPECT_EQ(!v.has_value(), own || d.engine_input) << d.mnemonic << " in " << engine_id(e);
    }
  }
}

TEST(QueueProgramHazards, EveryKind) {
  auto upd = [](uint8_t mode, uint8_t sem, uint32_t value = 0) {
    return with_events(iota(0x100, 4), NONE, 0, mode, sem, value);
  };
  auto dupd = [](uint8_t mode, uint8_t sem, uint32_t value = 0) {
    return with_events(copy_tss(0, 0x40, 4, 9), NONE, 0, mode, sem, value);
  };
  std::array<uint32_t, gpsimd::kSemaphores> init{};
  init[5] = 0xffffffffu;
  init[6] = 0xfffffffeu;
  const QueueProgram p = program(
      {dupd(INC, 1), with_events(copy_tss(0, 0x40, 4, 9), EQ, 1, NONE, 0, 1),
       with_events(copy_tss(0, 0x40, 4, 9), EQ, 9, NONE, 0, 0), dupd(INC, 6)},
      {upd(INC, 1), upd(DEC, 2), upd(DEC, 2), upd(SET, 3, 4), upd(SET, 3, 4), upd(SET, 4, 4),
       upd(SET, 4, 3), upd(INC, 5), upd(INC, 6), upd(INC, 8), upd(SET, 8, 0)});
  // sem 1: two updating queues (INC only): updaters; EQ wait: eq-wait.
  // sem 2: DEC from 0 wraps up to 0xffffffff, then down: decrease.
  // sem 3: SET 4 twice: no step down. sem 4: SET 4 then 3: decrease.
  // sem 5: INC from 0xffffffff wraps to 0: decrease. sem 6: two queues, 2 INCs from
  // 0xfffffffe: more INC words than 0xffffffff - initial = 1: updaters, decrease.
  // sem 8: INC then SET 0: decrease. sem 9: an EQ wait on a semaphore nobody updates: none.
  EXPECT_EQ(gpsimd::sync_hazards(p, init), (std::vector<SyncHazard>{{1, HazardKind::Updaters},
                                                                    {1, HazardKind::EqWait},
                                                                    {2, HazardKind::Decrease},
                                                                    {4, HazardKind::Decrease},
                                                                    {5, HazardKind::Decrease},
                                                                    {6, HazardKind::Updaters},
                                                                    {6, HazardKind::Decrease},
                                                                    {8, HazardKind::Decrease}}));
  // A single DEC from 0 goes up: no decrease; with two queues any DEC is one.
  EXPECT_TRUE(gpsimd::sync_hazards(program({}, {upd(DEC, 2)}), {}).empty());
  EXPECT_EQ(gpsimd::sync_hazards(program({dupd(INC, 2)}, {upd(DEC, 2)}), {}),
            (std::vector<SyncHazard>{{2, HazardKind::Updaters}, {2, HazardKind::Decrease}}));
}

// ---- SPEC §8.2: a one-queue program agrees with the stream -------------------------------

namespace rw = gpsimd::random_words;

TEST(QueueProgramOneQueue, AgreesWithTheStream) {
  using Gen = Word (*)(rw::Builder&);
  const std::vector<Gen> dve = {rw::generator(gpsimd::Opcode::RangeSelect),
                                rw::generator(gpsimd::Opcode::TensorScalarSelect),
                                rw::generator(gpsimd::Opcode::MatchValueLoad),
                                rw::generator(gpsimd::Opcode::Max8),
                                rw::generator(gpsimd::Opcode::FindIndex8),
                                rw::generator(gpsimd::Opcode::MatchReplace8),
                                rw::generator(gpsimd::Opcode::CopyPredicatedScalar),
                                rw::generator(gpsimd::Opcode::DveReadAccumulator)};
  const std::vector<Gen> pool = {
      rw::generator(gpsimd::Opcode::GetSequenceBounds), rw::generator(gpsimd::Opcode::Sort),
      rw::generator(gpsimd::Opcode::AffineSelect), rw::generator(gpsimd::Opcode::Iota),
      rw::generator(gpsimd::Opcode::NonzeroWithCount)};
  std::map<std::string, unsigned> outcomes;
  for (unsigned trial = 0; trial < 120; ++trial) {
    rw::Rng r(0x51ab + trial * 7919ull);
    const Engine e = trial % 2 ? Engine::POOL : Engine::DVE;
    const Generation g = trial % 3 ? Generation::V3 : Generation::V5;
    Machine stream(g), queued(g), spare(g);
    std::vector<Word> words;
    const unsigned n = r.uin(1, 8);
    for (unsigned k = 0; k < n; ++k) {
      rw::Builder b(r, g, {&stream, &queued, &spare});
      const auto& gens = e == Engine::DVE ? dve : pool;
      words.push_back(gens[r.uin(0, static_cast<unsigned>(gens.size()) - 1)](b));
    }
    QueueProgram p;
    p.queue(e) = words;
    ASSERT_TRUE(gpsimd::validate_queues(p, g).empty()) << trial;
    const std::vector<std::optional<Engine>> engines(words.size(), e);
    const gpsimd::ProgramResult s = gpsimd::run_program(stream, words, engines, {});
    const QueueRun q = run_queues(queued, p);
    const std::string where = fmt::format("trial {} ({} words on {})", trial, n, engine_id(e));
    if (!s.failed) {
      EXPECT_EQ(q.status, ProgramStatus::Ok) << where;
      EXPECT_EQ(q.schedule.size(), words.size()) << where;
      ++outcomes["ok"];
    } else if (s.failure.fault && s.failure.fault->kind == gpsimd::FaultKind::SyncWouldBlock) {
      ASSERT_EQ(q.status, ProgramStatus::Deadlock) << where;
      ASSERT_EQ(q.blocked.size(), 1u) << where;
      EXPECT_EQ(q.blocked[0].word, (QueueWord{e, *s.failed})) << where;
      EXPECT_EQ(q.schedule.size(), *s.failed) << where;
      ++outcomes["deadlock"];
    } else {
      ASSERT_TRUE(s.failure.fault) << where << ": " << s.failure.message();
      ASSERT_EQ(q.status, ProgramStatus::Fault) << where;
      EXPECT_EQ(q.fault->word, (QueueWord{e, *s.failed})) << where;
      EXPECT_EQ(q.fault->fault.kind, s.failure.fault->kind) << where;
      EXPECT_EQ(q.schedule.size(), *s.failed + 1) << where;
      ++outcomes["fault"];
    }
    for (std::size_t k = 0; k < q.schedule.size(); ++k)
      EXPECT_EQ(q.schedule[k].word, (QueueWord{e, k})) << where;
    EXPECT_FALSE(q.race) << where;
    ASSERT_TRUE(stream == queued) << where << ": the machines differ";
  }
  // Every outcome happened (the generators inject blocked waits and bad registers).
  EXPECT_GT(outcomes["ok"], 10u);
  EXPECT_GT(outcomes["deadlock"], 3u);
  EXPECT_GT(outcomes["fault"], 3u);
}

// ---- the race detector against a brute-force reading of SPEC §8.6 -------------------------

struct Loc {
  int space;
  unsigned partition;
  uint32_t offset;
  auto operator<=>(const Loc&) const = default;
};

// SPEC §8.6 by the letter, on the reference schedule of `r`: every history scanned back for
// j, every footprint a set of locations, every earlier word compared.
std::optional<gpsimd::Race> brute_race(const QueueProgram& p, const Machine& registers,
                                       const std::array<uint32_t, gpsimd::kSemaphores>& init_sem,
                                       const QueueRun& r) {
  using Clock = std::array<uint32_t, 3>;
  struct Upd {
    uint32_t value;
    Clock clock;
  };
  std::map<unsigned, std::vector<Upd>> hist;
  std::map<unsigned, std::optional<Clock>> release;
  std::array<uint32_t, gpsimd::kSemaphores> sem = init_sem;
  std::array<Clock, 3> clock{};
  struct Retired {
    QueueWord w;
    std::map<Loc, AccessKind> fp;
  };
  std::vector<Retired> done;
  for (const gpsimd::ScheduleStep& st : r.schedule) {
    if (!st.retired) break;
    const std::size_t q = static_cast<std::size_t>(st.word.queue);
    const Word& w = p.queue(st.word.queue)[st.word.index];
    const Events ev = gpsimd::load_events(w);
    if (ev.wait_mode) {
      std::vector<uint32_t> v = {init_sem[ev.wait_idx]};
      for (const Upd& u : hist[ev.wait_idx]) v.push_back(u.value);
      auto holds = [&](uint32_t x) { return ev.wait_mode == GE ? x >= ev.value : x == ev.value; };
      std::size_t j = v.size() - 1;
      while (j > 0 && holds(v[j - 1])) --j;
      if (j > 0) {
        const Clock& c = hist[ev.wait_idx][j - 1].clock;
        for (int k = 0; k < 3; ++k) clock[q][k] = std::max(clock[q][k], c[k]);
      }
    }
    clock[q][q] = static_cast<uint32_t>(st.word.index + 1);
    const gpsimd::Footprint f = gpsimd::footprint(w, registers, st.word.queue);
    std::map<Loc, AccessKind> fp;
    for (const gpsimd::FootprintRange& x : f.ranges)
      for (uint32_t o = x.lo; o < x.hi; ++o)
        fp[Loc{static_cast<int>(x.space), x.partition, o}] = x.access;
    // The lowest racing location, and there the racing word that retired last.
    for (const auto& [loc, acc] : fp) {
      std::optional<gpsimd::RaceAccess> first;
      for (const Retired& a : done) {
        if (a.w.queue == st.word.queue) continue;
        auto it = a.fp.find(loc);
        if (it == a.fp.end()) continue;
        const bool conflict = (static_cast<unsigned>(acc) | static_cast<unsigned>(it->second)) & 2u;
        const bool covered = clock[q][static_cast<std::size_t>(a.w.queue)] >= a.w.index + 1;
        if (conflict && !covered) first = gpsimd::RaceAccess{a.w, it->second};
      }
      if (first)
        return gpsimd::Race{
            *first, gpsimd::RaceAccess{st.word, acc},
            gpsimd::RaceLocation{static_cast<LocationSpace>(loc.space), loc.partition, loc.offset}};
    }
    done.push_back(Retired{st.word, std::move(fp)});
    if (ev.update_mode) {
      uint32_t& s = sem[ev.update_idx];
      s = ev.update_mode == SET ? ev.value : ev.update_mode == INC ? s + 1 : s - 1;
      auto& rel = release[ev.update_idx];
      if (ev.update_mode == SET || !rel) {
        rel = clock[q];
      } else {
        for (int k = 0; k < 3; ++k) (*rel)[k] = std::max((*rel)[k], clock[q][k]);
      }
      hist[ev.update_idx].push_back(Upd{s, *rel});
    }
  }
  return std::nullopt;
}

// Random programs of small words on a few partitions and bytes, with waits and updates on
// three semaphores: races, orderings, deadlocks and every acquire case come up often.
Word random_word(rw::Rng& r, Engine e) {
  const unsigned p = r.uin(0, 2);
  const auto off = [&] { return static_cast<uint32_t>(r.uin(0, 12) * 16); };
  Word w;
  if (e == Engine::POOL) {
    w = iota(off(), static_cast<uint16_t>(r.uin(1, 12)), p);
  } else if (r.chance(50)) {
    w = max8(off(), static_cast<uint16_t>(r.uin(8, 16)), off(), p);
  } else {
    w = copy_tss(off(), off(), static_cast<uint16_t>(r.uin(1, 8)), p);
  }
  Events ev;
  if (r.chance(50)) {
    ev.wait_mode = r.chance(75) ? GE : EQ;
    ev.wait_idx = static_cast<uint8_t>(r.uin(0, 2));
    ev.value = r.uin(0, 3);
  }
  if (r.chance(60)) {
    ev.update_mode = static_cast<uint8_t>(r.chance(70) ? INC : r.chance(50) ? SET : DEC);
    ev.update_idx = static_cast<uint8_t>(r.uin(0, 2));
    if (ev.update_mode == SET) {
      if (ev.wait_mode == 0) ev.value = r.uin(0, 3);
    }
  }
  gpsimd::store_events(w, ev);
  return w;
}

TEST(QueueProgramRaces, AgreeWithBruteForce) {
  std::map<std::string, unsigned> seen;
  Machine m(Generation::V3);
  const Machine registers(Generation::V3);  // every register 0, as in m
  for (unsigned trial = 0; trial < 1500; ++trial) {
    rw::Rng r(0xace0 + trial);
    QueueProgram p;
    for (Engine e : {Engine::DVE, Engine::POOL}) {
      const unsigned n = r.uin(0, 7);
      for (unsigned k = 0; k < n; ++k) p.queue(e).push_back(random_word(r, e));
    }
    // The words write partitions 0..2 below 0x200 only: clean those (and the semaphores)
    // instead of a fresh machine per trial.
    for (unsigned part = 0; part < 3; ++part)
      std::fill_n(m.partition(Space::SBUF, part).data(), 0x200, uint8_t{0});
    m.semaphores.fill(0);
    for (unsigned s = 0; s < 3; ++s) m.semaphores[s] = r.chance(70) ? 0 : r.uin(1, 2);
    const auto init_sem = m.semaphores;
    const QueueRun q = run_queues(m, p);
    ASSERT_NE(q.status, ProgramStatus::Invalid);
    const auto want = brute_race(p, registers, init_sem, q);
    ASSERT_EQ(q.race.has_value(), want.has_value())
        << "trial " << trial << ": " << sched(q)
        << (want ? " brute force: " + want->location.to_string() : std::string());
    if (want) {
      EXPECT_EQ(q.race->location, want->location) << trial;
      EXPECT_EQ(q.race->first, want->first) << trial << " " << sched(q);
      EXPECT_EQ(q.race->second, want->second) << trial;
      ++seen["race"];
    } else {
      ++seen["no race"];
    }
    ++seen[std::string(gpsimd::program_status_name(q.status))];
  }
  EXPECT_GT(seen["race"], 200u);
  EXPECT_GT(seen["no race"], 200u);
  EXPECT_GT(seen["deadlock"], 50u);
  EXPECT_GT(seen["ok"], 200u);
}

// The shadow memory holds one segment per run of equal history, not one per byte or per
// word: a pipeline of 4000 words over the same tile leaves a few segments, whatever the
// number of words; a tile of twice the bytes does not add segments either, and words on
// 16 partitions add a segment per partition.
QueueProgram pipeline(unsigned words, uint16_t elems, unsigned partitions) {
  QueueProgram p;
  for (unsigned k = 0; k < words; ++k) {
    // pool:k waits for dve:k-1 (sem 1 >= k) and counts on sem 0; dve:k waits for pool:k.
    Word io = with_events(iota(0x1000, elems), GE, 1, INC, 0, k);
    Word mx = with_events(max8(0x1000, elems, 0x8000), GE, 0, INC, 1, k + 1);
    tw::set(io, "num_active_channels", partitions);
    tw::set(mx, "num_active_channels", partitions);
    p.queue(Engine::POOL).push_back(io);
    p.queue(Engine::DVE).push_back(mx);
  }
  return p;
}

TEST(QueueProgramRaces, ShadowGrowsWithTheBytesTouched) {
  std::map<std::tuple<unsigned, unsigned, unsigned>, std::size_t> segments;
  for (unsigned words : {10u, 2000u})
    for (uint16_t elems : {uint16_t{1024}, uint16_t{2048}})
      for (unsigned parts : {1u, 16u}) {
        Machine m(Generation::V3);
        const QueueRun r = run_queues(m, pipeline(words, elems, parts));
        ASSERT_EQ(r.status, ProgramStatus::Ok) << words;
        ASSERT_FALSE(r.race) << r.race->location.to_string();
        EXPECT_EQ(r.schedule.size(), 2u * words);
        segments[{words, elems, parts}] = r.shadow_segments;
        // Two runs of bytes per partition: the tile (written by POOL, read by DVE) and
        // Max8's eight results (written by DVE only).
        EXPECT_EQ(r.shadow_segments, 2u * parts) << words << " words, " << elems << " x " << parts;
        EXPECT_LT(r.shadow_bytes, 4096u * parts);
      }
}

}  // namespace
