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

}  // namespace gpsimd
