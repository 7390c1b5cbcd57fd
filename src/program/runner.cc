// The one runner (SPEC §8.2-§8.6, §8.9): a program of queues, or a stream as a program of
// one queue, issued by the reference schedule; it owns the schedule, the happens-before
// clocks the race detector reads, and (with a journal) what all-or-nothing undoes.
#include <fmt/format.h>

#include <algorithm>

#include "common/check.h"
#include "gpsimd/program.h"
#include "ops/operands.h"
#include "program/footprint.h"
#include "program/race.h"

namespace gpsimd {

namespace {

using program::Clock;

// A semaphore's values since the start (v_0 the initial value, then one per retired
// update) with the release clock recorded with each, and what SPEC §8.6's acquire rule
// needs to find j quickly.
struct SemHistory {
  std::vector<uint32_t> values;  // v_0, v_1, ..., v_m
  std::vector<Clock> clocks;     // clocks[j]: L_s after update j (j >= 1)
  std::vector<QueueWord> by;     // by[j]: the word of update j
  // Indices j with strictly increasing values, ending at m: the minimum of v_j .. v_m for
  // every j in (stack[t-1], stack[t]] is v_stack[t] (a suffix-minimum stack).
  std::vector<uint32_t> ge_stack;
  std::size_t run_start = 0;  // the first index of the run of values equal to v_m
  std::optional<Clock> release;

  void start(uint32_t v0) {
    values.assign(1, v0);
    clocks.assign(1, Clock{});
    by.assign(1, QueueWord{});
    ge_stack.assign(1, 0);
    run_start = 0;
  }
  void append(uint32_t v, const Clock& c, const QueueWord& w) {
    const auto j = static_cast<uint32_t>(values.size());
    if (v != values.back()) run_start = j;
    values.push_back(v);
    clocks.push_back(c);
    by.push_back(w);
    while (!ge_stack.empty() && values[ge_stack.back()] >= v) ge_stack.pop_back();
    ge_stack.push_back(j);
  }
  // SPEC §8.6: the smallest j such that the wait holds for every one of v_j .. v_m (it
  // holds for v_m, the current value).
  std::size_t acquire_index(WaitMode mode, uint32_t value) const {
    if (values.empty()) return 0;  // never updated: held since the start
    if (mode == WaitMode::EQ) return run_start;
    const auto t = std::partition_point(ge_stack.begin(), ge_stack.end(),
                                        [&](uint32_t j) { return values[j] < value; });
    GPSIMD_CHECK(t != ge_stack.end());
    return t == ge_stack.begin() ? 0 : *(t - 1) + 1;
  }
};

bool wait_holds(const Events& ev, const std::array<uint32_t, kSemaphores>& sems) {
  switch (static_cast<WaitMode>(ev.wait_mode)) {
    case WaitMode::NONE:
      return true;
    case WaitMode::GE:
      return sems[ev.wait_idx] >= ev.value;
    case WaitMode::EQ:
      return sems[ev.wait_idx] == ev.value;
  }
  return false;
}

// What the runner runs: the queues of a program, indexed by engine; or a stream, whose
// words are the first queue's.
struct RunInput {
  std::array<std::span<const Word>, kEngineCount> queues;
  bool strict = false;
  // A stream (SPEC §8.9) is a program of one queue whose words run as single words: each
  // is validated as it comes to issue (the words before an invalid one stay retired), with
  // its own engine input, and a wait that does not hold faults sync-would-block instead of
  // blocking (nothing else runs that could satisfy it).
  bool stream = false;
  std::span<const std::optional<Engine>> engines;  // a stream word's engine input, if set
  std::optional<Engine> engine;                    // the other stream words'

  // The engine input of word i of queue q: the queue's engine in a program (the queue is
  // the engine, SPEC §8.1), the word's input in a stream.
  std::optional<Engine> input(std::size_t q, std::size_t i) const {
    if (!stream) return static_cast<Engine>(q);
    return i < engines.size() && engines[i] ? engines[i] : engine;
  }
};

// The reference schedule (SPEC §8.3) over validated queues (or a stream), into r.
void issue_words(Machine& m, const RunInput& in, const QueueRunOptions& opts, QueueRun& r) {
  r.races_checked = opts.detect_races;
  // With one queue that has words there is nothing to race with.
  const std::size_t busy = static_cast<std::size_t>(
      std::count_if(in.queues.begin(), in.queues.end(), [](const auto& q) { return !q.empty(); }));
  const bool detect = opts.detect_races && busy > 1;
  // The semaphores' histories give each step the update it acquired and the race
  // detector its clocks; a run that keeps no schedule and detects nothing needs neither
  // (and then runs in memory that does not grow with its words).
  const bool history = detect || opts.keep_schedule;

  // Each queue's head, decoded once.
  struct Head {
    const InstrDef* def = nullptr;
    Events ev;
  };
  std::array<Head, kEngineCount> heads{};
  std::array<std::size_t, kEngineCount> head{};
  const auto drained = [&](std::size_t q) { return head[q] == in.queues[q].size(); };
  const auto decode = [&](std::size_t q) {
    if (drained(q)) return;
    const Word& w = in.queues[q][head[q]];
    heads[q] = Head{find_instruction(w[0]), load_events(w)};
  };
  for (std::size_t q = 0; q < kEngineCount; ++q) decode(q);
  // A word's place: its queue's engine; in a stream the engine it runs on (SPEC §3.9).
  const auto word_at = [&](std::size_t q) {
    const std::optional<Engine> input = in.input(q, head[q]);
    const Engine e =
        heads[q].def ? heads[q].def->engine_for(input) : input.value_or(static_cast<Engine>(q));
    return QueueWord{in.stream ? e : static_cast<Engine>(q), head[q]};
  };

  const std::array<uint32_t, kSemaphores> initial = m.semaphores;
  std::array<SemHistory, kSemaphores> hist;
  std::array<Clock, kEngineCount> clock{};
  std::optional<program::RaceDetector> detector;
  detail::FootprintSink sink;
  program::FootprintBuilder builder;
  program::CompactFootprint fp;
  if (detect) {
    std::array<std::size_t, kEngineCount> sizes{};
    for (std::size_t q = 0; q < kEngineCount; ++q) sizes[q] = in.queues[q].size();
    detector.emplace(sizes);
  }

  std::size_t cursor = 0;  // SPEC §8.3: the search for a ready queue starts here
  for (;;) {
    bool all_drained = true;
    for (std::size_t q = 0; q < kEngineCount; ++q) all_drained = all_drained && drained(q);
    if (all_drained) {
      r.status = ProgramStatus::Ok;
      break;
    }
    if (in.stream) {  // a stream word is validated as it comes to issue (SPEC §4's order)
      const std::size_t i = head[0];
      Diagnostics d =
          validate(in.queues[0][i], m.generation(), ValidateOptions{in.strict, in.input(0, i)});
      if (!d.empty()) {
        r.status = ProgramStatus::Invalid;
        r.invalid.push_back(InvalidWord{word_at(0), std::move(d)});
        break;
      }
    }
    std::optional<std::size_t> issuer;
    for (std::size_t k = 0; k < kEngineCount && !issuer; ++k) {
      const std::size_t q = (cursor + k) % kEngineCount;
      if (!drained(q) && wait_holds(heads[q].ev, m.semaphores)) issuer = q;
    }
    if (!issuer && in.stream) {  // SPEC §3.2: it never will hold
      const QueueWord word = word_at(0);
      if (opts.keep_schedule) r.schedule.push_back(ScheduleStep{word, {}, {}, {}, false});
      r.status = ProgramStatus::Fault;
      r.fault = ProgramFault{word, *detail::wait_fault(m, heads[0].ev)};
      break;
    }
    if (!issuer) {
      r.status = ProgramStatus::Deadlock;
      for (std::size_t q = 0; q < kEngineCount; ++q) {
        if (drained(q)) continue;
        const Events& ev = heads[q].ev;
        r.blocked.push_back(BlockedHead{word_at(q), static_cast<WaitMode>(ev.wait_mode),
                                        ev.wait_idx, ev.value, m.semaphores[ev.wait_idx]});
      }
      break;
    }
    const std::size_t q = *issuer;
    const std::size_t i = head[q];
    const QueueWord word = word_at(q);
    const Word& w = in.queues[q][i];
    const Head& h = heads[q];
    const Engine engine = h.def->engine_for(in.input(q, i));
    ScheduleStep step{word, std::nullopt, std::nullopt, std::nullopt, true};
    // Acquire (SPEC §8.6), then the word's own component.
    if (h.ev.wait_mode != 0) {
      step.wait_semaphore = h.ev.wait_idx;
      if (history) {
        const SemHistory& s = hist[h.ev.wait_idx];
        const std::size_t j = s.acquire_index(static_cast<WaitMode>(h.ev.wait_mode), h.ev.value);
        if (j > 0) {
          clock[q] = program::join(clock[q], s.clocks[j]);
          step.acquired = s.by[j];
        }
      }
    }
    clock[q][q] = static_cast<uint32_t>(i + 1);
    if (h.ev.update_mode != 0) step.update_semaphore = h.ev.update_idx;
    if (opts.on_issue) opts.on_issue(word);
    cursor = (q + 1) % kEngineCount;
    if (auto f =
            detail::execute_validated(m, w, *h.def, engine, opts.fast, opts.trace, opts.journal)) {
      step.retired = false;
      if (opts.keep_schedule) r.schedule.push_back(step);
      r.status = ProgramStatus::Fault;
      r.fault = ProgramFault{word, std::move(*f)};
      break;
    }
    ++r.retired;
    if (opts.keep_schedule) r.schedule.push_back(step);
    // Retired: its footprint against every earlier retired word, then its release.
    if (detector && !detector->race()) {
      sink.clear();
      const detail::OpSemantics& ops = detail::semantics(*h.def);
      GPSIMD_CHECK(ops.operands != nullptr);  // every row has one (isa_table_test)
      const auto f = detail::operand_footprint(*ops.operands, w, m, engine, sink);
      GPSIMD_CHECK(!f);  // it resolved when it executed, with the same registers
      builder.build(sink, fp);
      detector->retire(word, clock[q], fp);
    }
    if (history && h.ev.update_mode != 0) {
      SemHistory& s = hist[h.ev.update_idx];
      if (s.values.empty()) s.start(initial[h.ev.update_idx]);
      const auto mode = static_cast<UpdateMode>(h.ev.update_mode);
      s.release =
          mode == UpdateMode::SET || !s.release ? clock[q] : program::join(*s.release, clock[q]);
      s.append(m.semaphores[h.ev.update_idx], *s.release, word);
    }
    ++head[q];
    decode(q);
  }
  if (detector) {
    r.race = detector->race();
    r.shadow_segments = detector->segments();
    r.shadow_bytes = detector->bytes();
  }
}

}  // namespace

QueueRun run_queues(Machine& m, const QueueProgram& p, const QueueRunOptions& opts) {
  QueueRun r;
  r.invalid = validate_queues(p, m.generation());
  if (!r.invalid.empty()) {
    r.status = ProgramStatus::Invalid;
    return r;
  }
  r.sync_hazards = sync_hazards(p, m.semaphores);
  RunInput in;
  for (std::size_t q = 0; q < kEngineCount; ++q) in.queues[q] = p.queues[q];
  in.strict = p.strict;
  issue_words(m, in, opts, r);
  return r;
}

QueueRun run_stream(Machine& m, const Stream& s, const QueueRunOptions& opts) {
  QueueRun r;
  RunInput in;
  in.queues[0] = s.words;
  in.strict = s.strict;
  in.stream = true;
  in.engines = s.engines;
  in.engine = s.engine;
  issue_words(m, in, opts, r);
  return r;
}

ProgramResult stream_result(const QueueRun& run) {
  ProgramResult p;
  p.retired = run.retired;
  if (run.status == ProgramStatus::Invalid) {
    GPSIMD_CHECK(run.invalid.size() == 1);
    p.failed = run.invalid[0].word.index;
    p.failure.status = Status::Invalid;
    p.failure.diagnostics = run.invalid[0].diagnostics;
  } else if (run.fault) {
    p.failed = run.fault->word.index;
    p.failure.status = Status::Faulted;
    p.failure.fault = run.fault->fault;
  }
  return p;
}

ProgramResult run_program(Machine& m, std::span<const Word> words, const ExecOptions& opts) {
  return run_program(m, words, {}, opts);
}

ProgramResult run_program(Machine& m, std::span<const Word> words,
                          std::span<const std::optional<Engine>> engines, const ExecOptions& opts) {
  QueueRunOptions o;
  o.fast = opts.fast;
  o.trace = opts.trace;
  o.journal = opts.journal;
  o.keep_schedule = false;
  return stream_result(run_stream(m, Stream{words, engines, opts.engine, opts.strict}, o));
}

}  // namespace gpsimd
