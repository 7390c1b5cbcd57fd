// Programs on several engine queues (SPEC §8): validation, the reference schedule, the
// end states, happens-before and the sync hazards.
#include "gpsimd/program.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>

#include "common/check.h"
#include "common/names.h"
#include "ops/operands.h"
#include "program/footprint.h"
#include "program/race.h"

namespace gpsimd {

// ---- names -------------------------------------------------------------------------------

std::string RaceLocation::to_string() const {
  if (location_space_def(space).memory)
    return fmt::format("{}[p={}] +{:#x}", location_space_name(space), partition, offset);
  return fmt::format("{}[{}]", location_space_name(space), partition);
}

std::string QueueWord::to_string() const {
  return fmt::format("{}:{}", engine_id(queue), index);
}

std::optional<QueueWord> parse_queue_word(std::string_view s) {
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto e = parse_engine_id(s.substr(0, colon));
  const std::string_view digits = s.substr(colon + 1);
  std::size_t index = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (!e || digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
      (digits.size() > 1 && digits[0] == '0'))
    return std::nullopt;
  return QueueWord{*e, index};
}

namespace {

constexpr Named<ProgramStatus> kProgramStatusNames[] = {
    {ProgramStatus::Ok, "ok"},
    {ProgramStatus::Deadlock, "deadlock"},
    {ProgramStatus::Fault, "fault"},
    {ProgramStatus::Invalid, "invalid"},
};
constexpr Named<HazardKind> kHazardNames[] = {
    {HazardKind::Updaters, "updaters"},
    {HazardKind::Decrease, "decrease"},
    {HazardKind::EqWait, "eq-wait"},
};

}  // namespace

std::string_view program_status_name(ProgramStatus s) {
  return name_of(kProgramStatusNames, s);
}
std::optional<ProgramStatus> parse_program_status(std::string_view s) {
  return parse_name(kProgramStatusNames, s);
}

std::string_view hazard_name(HazardKind k) {
  return name_of(kHazardNames, k);
}
std::optional<HazardKind> parse_hazard(std::string_view s) {
  return parse_name(kHazardNames, s);
}

std::vector<std::string> QueueRun::schedule_text() const {
  std::vector<std::string> out;
  out.reserve(schedule.size());
  for (const ScheduleStep& s : schedule) out.push_back(s.word.to_string());
  return out;
}

// ---- validation (SPEC §8.1) --------------------------------------------------------------

std::optional<Diagnostic> queue_engine_violation(const Word& w, Engine queue) {
  const InstrDef* def = find_instruction(w[0]);
  // Unknown opcodes: has_known_opcode alone (SPEC §6). §4.14-§4.17: any queue, the engine
  // is the queue's (§3.9).
  if (def == nullptr || def->engine_input || def->engine == queue) return std::nullopt;
  return Diagnostic{std::string(def->mnemonic), "has_valid_queue_engine", "queue",
                    std::string(engine_id(queue)),
                    fmt::format("{} runs on {} only: it belongs in the {} queue", def->mnemonic,
                                engine_name(def->engine), engine_id(def->engine))};
}

std::vector<InvalidWord> validate_queues(const QueueProgram& p, Generation g) {
  std::vector<InvalidWord> out;
  for (Engine e : kAllEngines) {
    const std::vector<Word>& q = p.queue(e);
    for (std::size_t i = 0; i < q.size(); ++i) {
      Diagnostics d;
      if (auto v = queue_engine_violation(q[i], e)) d.push_back(std::move(*v));
      Diagnostics own = validate(q[i], g, ValidateOptions{p.strict, e});
      d.insert(d.end(), std::make_move_iterator(own.begin()), std::make_move_iterator(own.end()));
      if (!d.empty()) out.push_back(InvalidWord{QueueWord{e, i}, std::move(d)});
    }
  }
  return out;
}

// ---- sync hazards (SPEC §8.7) ------------------------------------------------------------

std::vector<SyncHazard> sync_hazards(const QueueProgram& p,
                                     const std::array<uint32_t, kSemaphores>& initial) {
  struct Sem {
    unsigned queues = 0;  // bit q: queue q updates it
    bool set_or_dec = false;
    uint64_t incs = 0;
    bool eq_wait = false;
  };
  std::array<Sem, kSemaphores> sems{};
  for (Engine e : kAllEngines)
    for (const Word& w : p.queue(e)) {
      const Events ev = load_events(w);
      if (ev.wait_mode == static_cast<uint8_t>(WaitMode::EQ)) sems[ev.wait_idx].eq_wait = true;
      const auto mode = static_cast<UpdateMode>(ev.update_mode);
      if (ev.update_mode == 0 || ev.update_mode > 3) continue;
      Sem& s = sems[ev.update_idx];
      s.queues |= 1u << static_cast<unsigned>(e);
      if (mode == UpdateMode::INC)
        ++s.incs;
      else
        s.set_or_dec = true;
    }
  std::vector<SyncHazard> out;
  for (unsigned i = 0; i < kSemaphores; ++i) {
    const Sem& s = sems[i];
    if (s.queues == 0) continue;  // a semaphore no word updates has no hazard
    const bool several = (s.queues & (s.queues - 1)) != 0;
    if (several) out.push_back(SyncHazard{i, HazardKind::Updaters});
    bool decrease = false;
    if (several) {
      decrease = s.set_or_dec || s.incs > uint64_t{0xffffffffu} - initial[i];
    } else {
      // One updating queue: its updates in program order, from the initial value; a step
      // to a smaller value is a decrease (a DEC from 0 wraps up, an INC from 0xffffffff
      // wraps down).
      const Engine e = static_cast<Engine>(std::countr_zero(s.queues));
      uint32_t v = initial[i];
      for (const Word& w : p.queue(e)) {
        const Events ev = load_events(w);
        if (ev.update_idx != i || ev.update_mode == 0 || ev.update_mode > 3) continue;
        uint32_t next = v;
        switch (static_cast<UpdateMode>(ev.update_mode)) {
          case UpdateMode::SET:
            next = ev.value;
            break;
          case UpdateMode::INC:
            next = v + 1u;
            break;
          case UpdateMode::DEC:
            next = v - 1u;
            break;
          case UpdateMode::NONE:
            break;
        }
        if (next < v) decrease = true;
        v = next;
      }
    }
    if (decrease) out.push_back(SyncHazard{i, HazardKind::Decrease});
    if (s.eq_wait) out.push_back(SyncHazard{i, HazardKind::EqWait});
  }
  return out;
}

// ---- the run (SPEC §8.2-§8.6) ------------------------------------------------------------

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

}  // namespace

QueueRun run_queues(Machine& m, const QueueProgram& p, const QueueRunOptions& opts) {
  QueueRun r;
  r.invalid = validate_queues(p, m.generation());
  if (!r.invalid.empty()) {
    r.status = ProgramStatus::Invalid;
    return r;
  }
  r.sync_hazards = sync_hazards(p, m.semaphores);
  r.races_checked = opts.detect_races;
  // With one queue that has words there is nothing to race with.
  const std::size_t busy = static_cast<std::size_t>(
      std::count_if(p.queues.begin(), p.queues.end(), [](const auto& q) { return !q.empty(); }));
  const bool detect = opts.detect_races && busy > 1;

  // Each word's row and events, decoded once.
  struct Prepared {
    const InstrDef* def;
    Events ev;
  };
  std::array<std::vector<Prepared>, kEngineCount> words;
  for (Engine e : kAllEngines)
    for (const Word& w : p.queue(e))
      words[static_cast<std::size_t>(e)].push_back(
          Prepared{find_instruction(w[0]), load_events(w)});

  const std::array<uint32_t, kSemaphores> initial = m.semaphores;
  std::array<SemHistory, kSemaphores> hist;
  std::array<Clock, kEngineCount> clock{};
  std::array<std::size_t, kEngineCount> head{};
  std::optional<program::RaceDetector> detector;
  detail::FootprintSink sink;
  program::FootprintBuilder builder;
  program::CompactFootprint fp;
  if (detect) {
    std::array<std::size_t, kEngineCount> sizes{};
    for (std::size_t q = 0; q < kEngineCount; ++q) sizes[q] = p.queues[q].size();
    detector.emplace(sizes);
  }

  std::size_t cursor = 0;  // SPEC §8.3: the search for a ready queue starts here
  for (;;) {
    const auto drained = [&](std::size_t q) { return head[q] == words[q].size(); };
    bool all_drained = true;
    for (std::size_t q = 0; q < kEngineCount; ++q) all_drained = all_drained && drained(q);
    if (all_drained) {
      r.status = ProgramStatus::Ok;
      break;
    }
    std::optional<std::size_t> issuer;
    for (std::size_t k = 0; k < kEngineCount && !issuer; ++k) {
      const std::size_t q = (cursor + k) % kEngineCount;
      if (!drained(q) && wait_holds(words[q][head[q]].ev, m.semaphores)) issuer = q;
    }
    if (!issuer) {
      r.status = ProgramStatus::Deadlock;
      for (std::size_t q = 0; q < kEngineCount; ++q) {
        if (drained(q)) continue;
        const Events& ev = words[q][head[q]].ev;
        r.blocked.push_back(BlockedHead{QueueWord{static_cast<Engine>(q), head[q]},
                                        static_cast<WaitMode>(ev.wait_mode), ev.wait_idx, ev.value,
                                        m.semaphores[ev.wait_idx]});
      }
      break;
    }
    const std::size_t q = *issuer;
    const Engine engine = static_cast<Engine>(q);
    const std::size_t i = head[q];
    const QueueWord word{engine, i};
    const Word& w = p.queue(engine)[i];
    const Prepared& pw = words[q][i];
    ScheduleStep step{word, std::nullopt, std::nullopt, std::nullopt, true};
    // Acquire (SPEC §8.6), then the word's own component.
    if (pw.ev.wait_mode != 0) {
      step.wait_semaphore = pw.ev.wait_idx;
      const SemHistory& h = hist[pw.ev.wait_idx];
      const std::size_t j = h.acquire_index(static_cast<WaitMode>(pw.ev.wait_mode), pw.ev.value);
      if (j > 0) {
        clock[q] = program::join(clock[q], h.clocks[j]);
        step.acquired = h.by[j];
      }
    }
    clock[q][q] = static_cast<uint32_t>(i + 1);
    if (pw.ev.update_mode != 0) step.update_semaphore = pw.ev.update_idx;
    if (opts.on_issue) opts.on_issue(word);
    cursor = (q + 1) % kEngineCount;
    if (auto f = detail::execute_validated(m, w, *pw.def, pw.def->engine_for(engine), opts.fast,
                                           opts.trace)) {
      step.retired = false;
      r.schedule.push_back(step);
      r.status = ProgramStatus::Fault;
      r.fault = ProgramFault{word, std::move(*f)};
      break;
    }
    r.schedule.push_back(step);
    // Retired: its footprint against every earlier retired word, then its release.
    if (detector && !detector->race()) {
      sink.clear();
      const detail::OpSemantics& ops = detail::semantics(*pw.def);
      GPSIMD_CHECK(ops.operands != nullptr);  // every row has one (isa_table_test)
      const auto f =
          detail::operand_footprint(*ops.operands, w, m, pw.def->engine_for(engine), sink);
      GPSIMD_CHECK(!f);  // it resolved when it executed, with the same registers
      builder.build(sink, fp);
      detector->retire(word, clock[q], fp);
    }
    if (pw.ev.update_mode != 0) {
      SemHistory& h = hist[pw.ev.update_idx];
      if (h.values.empty()) h.start(initial[pw.ev.update_idx]);
      const auto mode = static_cast<UpdateMode>(pw.ev.update_mode);
      h.release =
          mode == UpdateMode::SET || !h.release ? clock[q] : program::join(*h.release, clock[q]);
      h.append(m.semaphores[pw.ev.update_idx], *h.release, word);
    }
    ++head[q];
  }
  if (detector) {
    r.race = detector->race();
    r.shadow_segments = detector->segments();
    r.shadow_bytes = detector->bytes();
  }
  return r;
}

}  // namespace gpsimd
