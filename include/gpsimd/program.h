// Programs on several engine queues (SPEC §8): one queue of words per engine, validated
// whole before anything runs, issued by the reference schedule, with waits that block,
// the end states ok / deadlock / fault / invalid, a race detector over the happens-before
// order the semaphores give, and the static sync hazards. A stream (SPEC §8.9) is a
// program of one queue: one runner issues both (run_queues, run_stream, run_program).
//
// A SPEC §8.1 program is a QueueProgram (the three queues and `strict`) together with the
// machine it runs on: the machine's generation is the program's, and its state when
// run_queues starts is the program's initial state (docs/design.md, "Programs").
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"
#include "gpsimd/types.h"
#include "gpsimd/validate.h"

namespace gpsimd {

// ---- locations and footprints (SPEC §8.5) ------------------------------------------------

// AccessKind and LocationSpace (how a word touches a location, and the kinds of location)
// are the machine's (machine.h): an instruction's footprint names them too.

// One location: a byte (space SBUF or PSUM: partition and byte offset), or an accumulator
// or a search lane (partition = its index; offset 0). Ordered as SPEC §8.6 orders them.
struct RaceLocation {
  LocationSpace space = LocationSpace::SBUF;
  unsigned partition = 0;
  uint32_t offset = 0;
  bool operator==(const RaceLocation&) const = default;
  auto operator<=>(const RaceLocation&) const = default;
  // "sbuf[p=0] +0x100", "acc[3]", "match[5]".
  std::string to_string() const;
};

// A run of locations of one partition with the same access: bytes [lo, hi) of SBUF or
// PSUM, or [0, 1) for an accumulator or a search lane.
struct FootprintRange {
  LocationSpace space = LocationSpace::SBUF;
  unsigned partition = 0;
  uint32_t lo = 0, hi = 0;
  AccessKind access = AccessKind::Read;
  bool operator==(const FootprintRange&) const = default;
};

// What a word may read and write (SPEC §8.5), computed from its fields, the machine's
// registers and the engine, never from memory contents.
struct Footprint {
  // Sorted by location, disjoint, and adjacent ranges of equal access merged.
  std::vector<FootprintRange> ranges;
  Diagnostics invalid;         // the word is invalid on this engine: no footprint
  std::optional<Fault> fault;  // its resolution faults (bad-address ...): no footprint
  bool ok() const { return invalid.empty() && !fault; }
  // The access of one location, or nullopt when the word does not touch it.
  std::optional<AccessKind> access(const RaceLocation& where) const;
};
// The footprint of a word run on `engine` (its queue's engine) with the machine's
// registers. A word that is invalid, or that faults at execution (SPEC §8.5: a faulting
// word has no footprint), gets none, with the reason.
Footprint footprint(const Word& w, const Machine& m, Engine engine, bool strict = false);

// ---- programs (SPEC §8.1) -----------------------------------------------------------------

// A queue per engine, indexed by Engine (dve, pool, act: kEngines' rows), and the strict
// flag (SPEC §4.4).
struct QueueProgram {
  std::array<std::vector<Word>, kEngineCount> queues;
  bool strict = false;

  std::vector<Word>& queue(Engine e) { return queues[static_cast<std::size_t>(e)]; }
  const std::vector<Word>& queue(Engine e) const { return queues[static_cast<std::size_t>(e)]; }
  std::size_t size() const {
    std::size_t n = 0;
    for (const std::vector<Word>& q : queues) n += q.size();
    return n;
  }
};

// Word `index` of queue `queue`, written "E:i" (SPEC §8.1: "pool:0").
struct QueueWord {
  Engine queue = Engine::DVE;
  std::size_t index = 0;
  bool operator==(const QueueWord&) const = default;
  std::string to_string() const;
};
// Parses "dve:0", "pool:12", "act:3" (decimal index); nullopt otherwise.
std::optional<QueueWord> parse_queue_word(std::string_view s);

// The clause of SPEC §8.1's table for a word in the queue of `queue`: nullopt when it
// holds (every word of §4.14-§4.17, every word of §4.1-§4.13 in its own engine's queue,
// and every unknown opcode, which has_known_opcode reports), else the diagnostic
// has_valid_queue_engine *(name [model])*.
std::optional<Diagnostic> queue_engine_violation(const Word& w, Engine queue);

// An invalid word: every clause it fails on its queue's engine (SPEC §8.1).
struct InvalidWord {
  QueueWord word;
  Diagnostics diagnostics;
};
// SPEC §8.1's static validation: every word of every queue (queues in the order dve, pool,
// act, indices ascending) with every clause it fails; empty when the program is valid.
std::vector<InvalidWord> validate_queues(const QueueProgram& p, Generation g);

// ---- results (SPEC §8.4) ------------------------------------------------------------------

enum class ProgramStatus : uint8_t { Ok, Deadlock, Fault, Invalid };
// "ok", "deadlock", "fault", "invalid".
std::string_view program_status_name(ProgramStatus s);
std::optional<ProgramStatus> parse_program_status(std::string_view s);

// A blocked head at a deadlock: its wait (GE or EQ, the semaphore, the value waited for)
// and the semaphore's value when the program stopped.
struct BlockedHead {
  QueueWord word;
  WaitMode wait = WaitMode::GE;
  unsigned semaphore = 0;
  uint32_t value = 0;
  uint32_t current = 0;
};

struct ProgramFault {
  QueueWord word;
  Fault fault;
};

// One side of a race: the word and its access at the race's location.
struct RaceAccess {
  QueueWord word;
  AccessKind access = AccessKind::Read;
  bool operator==(const RaceAccess&) const = default;
};
// The first race of a run (SPEC §8.6): `second` is the first word of the schedule whose
// retirement completed a race, `location` the lowest location at which it races, and
// `first` the word it races with there that retired last.
struct Race {
  RaceAccess first, second;
  RaceLocation location;
  bool operator==(const Race&) const = default;
};

// SPEC §8.7's hazards, in its order.
enum class HazardKind : uint8_t { Updaters, Decrease, EqWait };
// "updaters", "decrease", "eq-wait".
std::string_view hazard_name(HazardKind k);
std::optional<HazardKind> parse_hazard(std::string_view s);
struct SyncHazard {
  unsigned semaphore = 0;
  HazardKind kind = HazardKind::Updaters;
  bool operator==(const SyncHazard&) const = default;
};
// The sync hazards of a program (SPEC §8.7), evaluated statically on every word of every
// queue and the initial semaphores, sorted by semaphore, then kind. A word's events are
// read from its bytes 4-11 (SPEC §3.2) whatever its opcode; a mode outside the
// enumeration counts as none.
std::vector<SyncHazard> sync_hazards(const QueueProgram& p,
                                     const std::array<uint32_t, kSemaphores>& initial);

// One issued word of the schedule.
struct ScheduleStep {
  QueueWord word;
  // The word whose semaphore update this word's wait acquired (SPEC §8.6: the update j
  // that began the run of values satisfying the wait); nullopt when it waits for nothing
  // or its condition held since the start.
  std::optional<QueueWord> acquired;
  // The semaphore it waited on and the one it updated (for timelines), if any.
  std::optional<unsigned> wait_semaphore, update_semaphore;
  bool retired = true;  // false for the faulting word, the last of a `fault` run
};

struct QueueRun {
  ProgramStatus status = ProgramStatus::Ok;
  std::vector<ScheduleStep> schedule;  // issue order (SPEC §8.3)
  std::optional<Race> race;            // the first race; nullopt when there is none
  bool races_checked = false;          // false when race detection was off (or invalid)
  std::size_t retired = 0;             // the words that retired
  std::vector<SyncHazard> sync_hazards;
  std::vector<BlockedHead> blocked;   // deadlock: each queue not drained, engine order
  std::optional<ProgramFault> fault;  // fault
  std::vector<InvalidWord> invalid;   // invalid
  // The race detector's shadow memory at the end: its segments (runs of locations with the
  // same access history, docs/design.md) and their bytes. 0 without race detection.
  std::size_t shadow_segments = 0, shadow_bytes = 0;
  // The schedule as SPEC §8.8 writes it: "pool:0", "dve:0", ...
  std::vector<std::string> schedule_text() const;
};

struct QueueRunOptions {
  // Compute footprints and look for races (SPEC §8.6). Off, `race` stays nullopt and
  // `races_checked` false; everything else is the same.
  bool detect_races = true;
  bool fast = true;            // the fast kernels (bit-identical to the reference)
  TraceSink* trace = nullptr;  // every retired word's writes and semaphore update
  // Called with each word just before it issues (after its acquire), in schedule order.
  std::function<void(const QueueWord&)> on_issue = {};
  // Keep the schedule (QueueRun::schedule) and each step's acquired update. Off, a run
  // that detects no races keeps nothing per word (a stream of a million words runs in
  // memory that does not grow with it); `retired` still counts.
  bool keep_schedule = true;
  // With a journal, what each word overwrites is saved in it first: the caller undoes the
  // run (all or nothing) with journal->undo(m) when it does not end as wanted.
  Journal* journal = nullptr;
};

// Runs a program on a machine whose state is the program's initial state and whose
// generation is the program's (SPEC §8.1-§8.7): validates every word (invalid: nothing
// runs, the machine is untouched), then issues words by the reference schedule until every
// queue is drained (ok), no queue is ready (deadlock) or a word faults (fault: the words
// retired before it stay). On return the machine holds the final state of SPEC §8.4.
QueueRun run_queues(Machine& m, const QueueProgram& p, const QueueRunOptions& opts = {});

// ---- streams (SPEC §8.9): programs of one queue ------------------------------------------

// A stream: words run one after another as single words, word i with engine input
// engines[i] where that is set (a text's `.engine` directives), `engine` otherwise
// (nullopt: the opcode's default; SPEC §3.9).
struct Stream {
  std::span<const Word> words;
  std::span<const std::optional<Engine>> engines = {};
  std::optional<Engine> engine = std::nullopt;
  bool strict = false;
};
// Runs a stream on the runner of run_queues, as a program of one queue whose words are
// validated as they come to issue: the first invalid word ends the run `invalid` (in
// `invalid`, its only entry), a wait that does not hold ends it `fault` sync-would-block
// (SPEC §3.2; nothing else runs to satisfy it), any other fault `fault`; the words before
// stay retired. Schedule steps name each word by the engine it runs on and its index.
QueueRun run_stream(Machine& m, const Stream& s, const QueueRunOptions& opts = {});

struct ProgramResult {
  std::size_t retired = 0;            // words that retired
  std::optional<std::size_t> failed;  // index of the first word that did not
  ExecResult failure;                 // its result
  bool ok() const { return !failed.has_value(); }
};
// A stream's run as the result of single words: the words retired, the first that did
// not and why.
ProgramResult stream_result(const QueueRun& run);

// Runs words as a stream (run_stream, keeping no schedule), stopping at the first invalid
// or faulting one (which changes nothing; the words before it stay retired).
ProgramResult run_program(Machine& m, std::span<const Word> words, const ExecOptions& opts = {});
// The same, word i with engine input engines[i] where it is set (a stream's `.engine`
// directives, SPEC §8.9); opts.engine otherwise.
ProgramResult run_program(Machine& m, std::span<const Word> words,
                          std::span<const std::optional<Engine>> engines, const ExecOptions& opts);

}  // namespace gpsimd
