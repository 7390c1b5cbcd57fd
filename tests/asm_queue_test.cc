// `.queue` (SPEC §8.9): a text with a `.queue` is a program of queues; `.queue E` starts or
// continues E's queue; an instruction before the first `.queue` and `.engine` anywhere in a
// program are errors with SPEC's messages; a wrong name lists the three; the other
// directives apply to the whole program; print_program writes the queues back; SPEC
// §8.9's example assembles to §8.10's words and runs as §8.10's first example says.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "gpsimd/asm.h"
#include "gpsimd/program.h"

namespace {

using gpsimd::Engine;
using gpsimd::QueueWord;

// SPEC §8.9's example, with the one field it leaves out that gpsimd requires (Iota's
// channel_multiplier, docs/assembly.md "Field defaults").
const char* const kSpecExample = R"(.nc v3
.queue pool
Iota src_data_pattern=0 num=[16,1,1,1], out_dtype=FP32, num_active_channels=1, channel_multiplier=0,
     dst_mem_pattern=sbuf[p=0, off=0x100] num=[16,1,1,1], update_mode=INC, update_idx=1
.queue dve
Max8 src_mem_pattern=sbuf[p=0, off=0x100] num=[16,1,1,1], in_dtype=FP32, out_dtype=FP32,
     num_active_channels=1, dst_mem_pattern=sbuf[p=0, off=0x200] num=[8,1],
     wait_mode=GE, wait_idx=1, value=1
.dump sbuf[p=0, off=0x200] FP32 [8]
)";

gpsimd::Program parse(const std::string& text) {
  gpsimd::AsmErrors e;
  auto p = gpsimd::parse_program(text, "t.gpsimd", &e);
  EXPECT_TRUE(p.has_value()) << e.to_string(text);
  return p.value_or(gpsimd::Program{});
}
gpsimd::AsmErrors errors(const std::string& text) {
  gpsimd::AsmErrors e;
  EXPECT_FALSE(gpsimd::parse_program(text, "t.gpsimd", &e).has_value()) << text;
  return e;
}

const std::string kIota =
    "Iota src_data_pattern=0 num=[4,1,1,1], out_dtype=INT32, num_active_channels=1, "
    "channel_multiplier=0, "
    "dst_mem_pattern=sbuf[p=0, off=0x0] num=[4,1,1,1]\n";
const std::string kMax8 =
    "Max8 src_mem_pattern=sbuf[p=0, off=0x100] num=[8,1,1,1], in_dtype=FP32, out_dtype=FP32, "
    "num_active_channels=1, dst_mem_pattern=sbuf[p=0, off=0x200] num=[8,1]\n";

TEST(AsmQueue, SpecExampleIsSpecWords) {
  const gpsimd::Program p = parse(kSpecExample);
  EXPECT_TRUE(p.queued);
  ASSERT_EQ(p.words.size(), 2u);
  EXPECT_EQ(p.word_queues, (std::vector<Engine>{Engine::POOL, Engine::DVE}));
  EXPECT_EQ(p.nc, gpsimd::Generation::V3);
  EXPECT_EQ(p.dumps.size(), 1u);
  std::vector<QueueWord> where;
  const gpsimd::QueueProgram q = gpsimd::queue_program(p, false, &where);
  EXPECT_EQ(where, (std::vector<QueueWord>{{Engine::POOL, 0}, {Engine::DVE, 0}}));
  ASSERT_EQ(q.queue(Engine::POOL).size(), 1u);
  ASSERT_EQ(q.queue(Engine::DVE).size(), 1u);
  // SPEC §8.10's words: Max8 byte for byte; the Iota too but for the steps of its ramp's
  // dimensions of one element (bytes 18-23), which the text does not give: the assembler
  // writes dense steps (16), §8.10 zeros. They change nothing (SPEC §3.7).
  const std::string pool_hex =
      "7e10000000000201000000000000000001000000000000001000010001000100"
      "000a0100000000000000000000010000010010001000100010000100010001"
      "00";
  std::string iota = gpsimd::word_to_hex(q.queue(Engine::POOL)[0]);
  EXPECT_EQ(iota.substr(36, 12), "100010001000");
  iota.replace(36, 12, "000000000000");
  EXPECT_EQ(iota, pool_hex);
  EXPECT_EQ(gpsimd::word_to_hex(q.queue(Engine::DVE)[0]),
            "6c10000001010000010000000001000001001000100010001000010001000100"
            "0a0a010000000000000000000000000000020000010008000800010000000000");
  gpsimd::Machine m(gpsimd::Generation::V3);
  const gpsimd::QueueRun r = gpsimd::run_queues(m, q);
  EXPECT_EQ(r.status, gpsimd::ProgramStatus::Ok);
  EXPECT_EQ(r.schedule_text(), (std::vector<std::string>{"pool:0", "dve:0"}));
  EXPECT_FALSE(r.race);
  float top[8];
  std::memcpy(top, m.partition(gpsimd::Space::SBUF, 0).data() + 0x200, sizeof top);
  EXPECT_EQ(top[0], 8.0f);
  EXPECT_EQ(top[7], 15.0f);
}

TEST(AsmQueue, StartsAndContinuesQueues) {
  const gpsimd::Program p =
      parse(".queue dve\n" + kMax8 + ".queue pool\n" + kIota + ".reg 3 = 7\n.queue dve\n" + kMax8 +
            ".sem 2 = 1\n.queue act\n.queue pool\n" + kIota);
  EXPECT_EQ(p.word_queues,
            (std::vector<Engine>{Engine::DVE, Engine::POOL, Engine::DVE, Engine::POOL}));
  std::vector<QueueWord> where;
  const gpsimd::QueueProgram q = gpsimd::queue_program(p, true, &where);
  EXPECT_TRUE(q.strict);
  EXPECT_EQ(q.queue(Engine::DVE).size(), 2u);
  EXPECT_EQ(q.queue(Engine::POOL).size(), 2u);
  EXPECT_TRUE(q.queue(Engine::ACT).empty());  // `.queue act` with nothing after it
  EXPECT_EQ(where[2], (QueueWord{Engine::DVE, 1}));
  EXPECT_EQ(where[3], (QueueWord{Engine::POOL, 1}));
  // The state directives apply to the whole program, wherever they are.
  EXPECT_EQ(p.setup.size(), 2u);
  // Every word's engine input is unset: the queue is the engine.
  for (const auto& e : p.word_engines) EXPECT_FALSE(e.has_value());
}

TEST(AsmQueue, AQueueWithoutWordsIsAProgram) {
  const gpsimd::Program p = parse(".nc v2\n.queue act\n");
  EXPECT_TRUE(p.queued);
  EXPECT_TRUE(p.words.empty());
  EXPECT_EQ(gpsimd::print_program(p), ".nc v2\n\n.queue dve\n");
  EXPECT_TRUE(gpsimd::same_program(parse(gpsimd::print_program(p)), p));
  // A text without .queue is a stream.
  const gpsimd::Program s = parse(kIota + kMax8);
  EXPECT_FALSE(s.queued);
  EXPECT_TRUE(s.word_queues.empty());
}

TEST(AsmQueue, PrintsTheQueuesBack) {
  const gpsimd::Program p = parse(".nc v3\n.queue pool\n" + kIota + kIota + ".queue dve\n" + kMax8 +
                                  ".queue pool\n" + kIota + ".dump sbuf[p=0, off=0x0] INT32 [4]\n");
  const std::string text = gpsimd::print_program(p);
  EXPECT_EQ(text.substr(0, 19), ".nc v3\n\n.queue pool");
  std::size_t queues = 0;
  for (std::size_t at = text.find(".queue"); at != std::string::npos;
       at = text.find(".queue", at + 1))
    ++queues;
  EXPECT_EQ(queues, 3u);  // pool, dve, pool: one line wherever the queue changes
  const gpsimd::Program back = parse(text);
  EXPECT_TRUE(gpsimd::same_program(back, p));
  EXPECT_EQ(back.word_queues, p.word_queues);
  // A program differs from the stream of the same words.
  gpsimd::Program stream = p;
  stream.queued = false;
  stream.word_queues.clear();
  EXPECT_FALSE(gpsimd::same_program(stream, p));
}

TEST(AsmQueue, InstructionOutsideAQueue) {
  const gpsimd::AsmErrors e = errors(kIota + ".queue pool\n" + kIota);
  ASSERT_EQ(e.errors.size(), 1u);
  EXPECT_EQ(e.errors[0].line, 1);
  EXPECT_EQ(e.errors[0].column, 1);
  EXPECT_EQ(e.errors[0].token, "Iota");
  EXPECT_EQ(e.errors[0].message, "instruction outside a queue: put `.queue ENGINE` before it");
  // A .word too.
  const gpsimd::AsmErrors w = errors(".word 0x" + std::string(128, '0') + "\n.queue dve\n");
  ASSERT_EQ(w.errors.size(), 1u);
  EXPECT_EQ(w.errors[0].message, "instruction outside a queue: put `.queue ENGINE` before it");
}

TEST(AsmQueue, EngineIsForStreams) {
  for (const std::string& text :
       {".engine pool\n.queue pool\n" + kIota, ".queue pool\n" + kIota + ".engine act\n"}) {
    const gpsimd::AsmErrors e = errors(text);
    ASSERT_EQ(e.errors.size(), 1u) << text;
    EXPECT_EQ(e.errors[0].token, ".engine");
    EXPECT_EQ(e.errors[0].message,
              "`.engine` is for streams: in a program the queue is the engine");
  }
  // Both errors and an ordinary one, in source order.
  const gpsimd::AsmErrors e = errors(kIota + ".engine dve\nMax8 bogus=1\n.queue dve\n");
  ASSERT_EQ(e.errors.size(), 3u);
  EXPECT_EQ(e.errors[0].line, 1);
  EXPECT_EQ(e.errors[1].line, 2);
  EXPECT_EQ(e.errors[2].line, 3);
  EXPECT_EQ(e.errors[1].token, ".engine");
}

TEST(AsmQueue, QueueNames) {
  for (const char* bad : {"DVE", "gpsimd", "vector", "Pool", "scalar"}) {
    const gpsimd::AsmErrors e = errors(std::string(".queue ") + bad + "\n");
    ASSERT_EQ(e.errors.size(), 1u) << bad;
    EXPECT_EQ(e.errors[0].token, bad);
    EXPECT_NE(e.errors[0].message.find("unknown queue"), std::string::npos) << e.errors[0].message;
    EXPECT_NE(e.errors[0].message.find("expected dve, pool or act"), std::string::npos)
        << e.errors[0].message;
  }
  EXPECT_EQ(errors(".queue pol\n").errors[0].message,
            "unknown queue: did you mean pool? (expected dve, pool or act)");
  EXPECT_EQ(errors(".queue\n").errors[0].message, "expected a queue: dve, pool or act");
  EXPECT_EQ(errors(".queue dve pool\n").errors.size(), 1u);
  // A misspelt queue is the one error: the words after it are not also outside a queue.
  EXPECT_EQ(errors(".queue pol\n" + kIota + kIota).errors.size(), 1u);
}

}  // namespace
