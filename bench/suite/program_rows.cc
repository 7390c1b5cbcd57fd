// The program rows of `gpsimd bench` (suite/bench.h): a program of 10,000 words on engine
// queues (SPEC §8) run by run_queues with race detection, against the same run without it.
// The target: race detection costs at most 2x.
//
// The program is a ring of kSlots tiles through the three engines, the way a kernel
// multi-buffers: POOL's word i writes tile i % kSlots with Iota (4 partitions x 64 FP32)
// and increments semaphore 1; DVE's word i waits for semaphore 1 >= i + 1, reads the tile
// with Max8 and increments semaphore 2; ACT's word i waits for semaphore 2 >= i + 1,
// copies the tile with Copy (SPEC §8.1: ACT runs only §4.14-§4.17) and increments
// semaphore 3; POOL's word i waits for semaphore 3 >= i - kSlots + 1 before overwriting a
// tile ACT (and so, by the order the semaphores give, DVE) has not read yet. Correctly
// synchronised, so a run finds no race, and its race detector sees every word's
// footprint. ACT's queue has two rounds fewer, so that the program has 10,000 words.
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpsimd/asm.h"
#include "gpsimd/program.h"
#include "suite/harness.h"

namespace gpsimd::bench {
namespace {

constexpr unsigned kWords = 10000;
constexpr unsigned kRounds = 3334, kActRounds = kWords - 2 * kRounds;  // 3334 + 3334 + 3332
constexpr unsigned kSlots = 16;
constexpr uint32_t kTileBase = 0x1000, kTileBytes = 256, kOutBase = 0x4000, kOutBytes = 32,
                   kCopyBase = 0x5000;
static_assert(kActRounds > kRounds - kSlots);  // POOL's last waits name ACT words that run

std::vector<Word> assemble_one(const std::string& text) {
  AsmErrors err;
  auto words = assemble(text, "bench", &err);
  if (!words || words->size() != 1)
    throw std::runtime_error("bench: the program row's word does not assemble: " +
                             err.to_string(text));
  return *words;
}

// The ring program over the POOL, DVE and ACT queues.
QueueProgram ring_program() {
  QueueProgram p;
  for (unsigned i = 0; i < kRounds; ++i) {
    const uint32_t tile = kTileBase + (i % kSlots) * kTileBytes;
    const std::string wait =
        i >= kSlots ? fmt::format(", wait_mode=GE, wait_idx=3, value={}", i - kSlots + 1)
                    : std::string();
    p.queue(Engine::POOL)
        .push_back(assemble_one(
            fmt::format("Iota num_active_channels=4, out_dtype=FP32, channel_multiplier=1, "
                        "src_data_pattern={} num=[64,1,1,1], dst_mem_pattern=sbuf[p=0, off={:#x}] "
                        "num=[64,1,1,1], update_mode=INC, update_idx=1{}",
                        i % 97, tile, wait))[0]);
    p.queue(Engine::DVE)
        .push_back(assemble_one(
            fmt::format("Max8 num_active_channels=4, in_dtype=FP32, out_dtype=FP32, "
                        "src_mem_pattern=sbuf[p=0, off={:#x}] num=[64,1,1,1], "
                        "dst_mem_pattern=sbuf[p=0, off={:#x}] num=[8,1], wait_mode=GE, wait_idx=1, "
                        "value={}, update_mode=INC, update_idx=2",
                        tile, kOutBase + (i % kSlots) * kOutBytes, i + 1))[0]);
    if (i < kActRounds)
      p.queue(Engine::ACT)
          .push_back(assemble_one(fmt::format(
              "Copy num_active_channels=4, in_dtype=FP32, out_dtype=FP32, "
              "src_mem_pattern=sbuf[p=0, off={:#x}] num=[64,1,1,1], "
              "dst_mem_pattern=sbuf[p=0, off={:#x}] num=[64,1,1,1], wait_mode=GE, wait_idx=2, "
              "value={}, update_mode=INC, update_idx=3",
              tile, kCopyBase + (i % kSlots) * kTileBytes, i + 1))[0]);
  }
  return p;
}

struct RingRun {
  Machine machine{kGen};
  QueueProgram program;
  std::vector<std::vector<uint8_t>> expected;  // the reference's output and copy bytes
  QueueRun last;

  void run(bool races) {
    machine.semaphores.fill(0);
    QueueRunOptions o;
    o.detect_races = races;
    last = run_queues(machine, program, o);
  }
  std::vector<std::vector<uint8_t>> outputs() const {
    std::vector<std::vector<uint8_t>> out;
    for (unsigned p = 0; p < 4; ++p) {
      const uint8_t* b = machine.partition(Space::SBUF, p).data();
      out.emplace_back(b + kOutBase, b + kOutBase + kSlots * kOutBytes);
      out.emplace_back(b + kCopyBase, b + kCopyBase + kSlots * kTileBytes);
    }
    return out;
  }
  // The run issued every word, retired them all, found no race when it looked, and left
  // the scalar reference's outputs and semaphores.
  bool verify(bool races) const {
    return last.status == ProgramStatus::Ok && last.schedule.size() == kWords &&
           last.races_checked == races && !last.race && machine.semaphores[1] == kRounds &&
           machine.semaphores[2] == kRounds && machine.semaphores[3] == kActRounds &&
           outputs() == expected;
  }
};

}  // namespace

Row program_row() {
  auto with = std::make_shared<RingRun>();
  auto without = std::make_shared<RingRun>();
  with->program = ring_program();
  without->program = with->program;
  {
    // The expected outputs: the scalar reference, with race detection, once.
    RingRun ref;
    ref.program = with->program;
    QueueRunOptions o;
    o.fast = false;
    ref.last = run_queues(ref.machine, ref.program, o);
    if (ref.last.status != ProgramStatus::Ok || ref.last.race)
      throw std::runtime_error("bench: the ring program does not run cleanly on the reference");
    with->expected = without->expected = ref.outputs();
  }
  Row row;
  row.name = "program 10000 words, three queues";
  row.unit = "ns/word";
  row.per_run = kWords;
  row.contenders.push_back({"gpsimd (race detection)", [with] { with->run(true); },
                            [with] { return with->verify(true); }});
  row.contenders.push_back({"no race detection", [without] { without->run(false); },
                            [without] { return without->verify(false); }});
  row.targets.push_back({1, Goal::TimeRatioAtMost, 2.0});
  return row;
}

}  // namespace gpsimd::bench
