// Runs arbitrary programs of queues (SPEC §8) on a machine whose registers, semaphores,
// accumulators, search lanes and a few memory windows come from the input, and checks:
//  - all or nothing: a program with an invalid word (validate_queues) is `invalid`,
//    reports exactly those words, runs nothing (no trace event, no schedule) and leaves
//    the machine as it was;
//  - the fast kernels and the reference give the same run (status, schedule with the
//    acquires, race, hazards, blocked heads, fault, invalid words) and the same state;
//  - race detection changes nothing but the race: a run without it has the same status,
//    schedule and state;
//  - what is reported is consistent: the schedule issues each queue's words in order, a
//    fault ends it with the one word that did not retire, a deadlock's blocked heads are
//    the queues not drained and their waits do not hold, a race is between retired words
//    of two queues at a location both footprints touch, one of them writing it; the sync
//    hazards are those of the program.
//
// Input format: byte 0 bits 0-1 the generation (V2..V5), bit 2 strict, bit 3 runs the
// reference without race detection; byte 1 the number of words (mod 13); then per word
// its queue (a byte, mod the number of engines, kEngineCount) and its 64 bytes; then the
// state records of exec_input.h.
// The machines live across inputs and are put back into the fresh state from the input's
// memory windows and the trace's writes; every kFullCheckPeriod inputs (every input with
// GPSIMD_FUZZ_FULL_CHECK=1) the whole of each machine is checked to be fresh again.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "exec_input.h"
#include "fuzz_util.h"
#include "gpsimd/execute.h"
#include "gpsimd/program.h"
#include "gpsimd/validate.h"

namespace gpsimd::fuzz {
namespace {

// As fuzz_execute: words whose walks visit more elements than this (all operands and
// channels, summed over the program) are validated but the program is not run.
constexpr uint64_t kWorkBudget = uint64_t{1} << 16;
constexpr unsigned kFullCheckPeriod = 256;
constexpr unsigned kMaxWords = 12;

struct Region {
  Space space;
  unsigned partition;
  uint32_t lo, hi;
};

// Records where the words wrote, and whether anything retired.
class Writes : public TraceSink {
 public:
  std::vector<Region> regions;
  std::size_t retired = 0;
  void retire(const Word&, const InstrDef&) override { ++retired; }
  void memory(Space s, unsigned p, uint32_t offset, std::span<const uint8_t> b) override {
    regions.push_back(Region{s, p, offset, offset + static_cast<uint32_t>(b.size())});
  }
  void accumulator(unsigned, uint32_t, uint32_t) override {}
  void semaphore(unsigned, uint32_t, uint32_t) override {}
};

struct Machines {
  std::unique_ptr<Machine> fast, ref;
};
Machines& machines(Generation g) {
  static Machines ms[4];
  Machines& m = ms[static_cast<unsigned>(g) - 2];
  if (!m.fast) {
    m.fast = std::make_unique<Machine>(g);
    m.ref = std::make_unique<Machine>(g);
  }
  return m;
}

uint64_t work_of(const Word& w) {
  const InstrDef* def = find_instruction(w[0]);
  if (def == nullptr) return 0;
  const FieldDef* chf = find_field(def->fields, "num_active_channels");
  const uint64_t n = std::max<uint64_t>(chf ? w[chf->offset] : 1u, 1);
  uint64_t total = 0;
  for (const FieldDef& f : def->fields)
    if (f.kind == FieldKind::Tensor) total += load_tensor(w, f).count() * n;
  return total;
}

void restore(Machine& m, const std::vector<Region>& dirty) {
  for (const Region& r : dirty)
    std::memset(m.partition(r.space, r.partition).data() + r.lo, 0, r.hi - r.lo);
  m.registers.fill(0);
  m.semaphores.fill(0);
  m.accumulators.fill(kNegInfBits);
  m.match.fill(MatchLane{});
}

bool same_small_state(const Machine& a, const Machine& b) {
  return a.registers == b.registers && a.semaphores == b.semaphores &&
         a.accumulators == b.accumulators && a.match == b.match;
}

std::string differing_region(const Machine& a, const Machine& b, const std::vector<Region>& rs) {
  for (const Region& r : rs) {
    const uint8_t* x = a.partition(r.space, r.partition).data();
    const uint8_t* y = b.partition(r.space, r.partition).data();
    if (std::memcmp(x + r.lo, y + r.lo, r.hi - r.lo) != 0)
      return fmt::format("{}[{}] [{:#x}, {:#x})", space_name(r.space), r.partition, r.lo, r.hi);
  }
  return {};
}

bool same_steps(const std::vector<ScheduleStep>& a, const std::vector<ScheduleStep>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i].word == b[i].word) || a[i].acquired != b[i].acquired || a[i].retired != b[i].retired)
      return false;
  return true;
}

bool same_blocked(const std::vector<BlockedHead>& a, const std::vector<BlockedHead>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i].word == b[i].word) || a[i].wait != b[i].wait || a[i].semaphore != b[i].semaphore ||
        a[i].value != b[i].value || a[i].current != b[i].current)
      return false;
  return true;
}

bool same_invalid(const std::vector<InvalidWord>& a, const std::vector<InvalidWord>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i].word == b[i].word) || !(a[i].diagnostics == b[i].diagnostics)) return false;
  return true;
}

bool full_check_every_input() {
  const char* e = std::getenv("GPSIMD_FUZZ_FULL_CHECK");
  return e != nullptr && std::strcmp(e, "1") == 0;
}

}  // namespace

void run_one(const uint8_t* data, std::size_t size) {
  static const bool every_input = full_check_every_input();
  static unsigned count = 0;
  std::size_t pos = 0;
  auto byte = [&]() -> uint8_t { return pos < size ? data[pos++] : 0; };
  const uint8_t config = byte();
  const bool ref_without_races = (config >> 3) & 1u;
  const unsigned n = byte() % (kMaxWords + 1);
  QueueProgram prog;
  prog.strict = (config >> 2) & 1u;
  uint64_t work = 0;
  for (unsigned k = 0; k < n; ++k) {
    const auto q = static_cast<unsigned>(byte() % kEngineCount);
    Word w{};
    for (uint8_t& b : w) b = byte();
    work += work_of(w);
    prog.queues[q].push_back(w);
  }
  // The state records: exec_input.h's, after a configuration byte and a word of zeros.
  std::vector<uint8_t> rest(1 + 64, 0);
  rest[0] = config & 3u;
  rest.insert(rest.end(), data + std::min(pos, size), data + size);
  const ExecInput in = parse_exec_input(rest.data(), rest.size());
  const Generation g = in.gen;

  const std::vector<InvalidWord> invalid = validate_queues(prog, g);
  if (work > kWorkBudget && invalid.empty()) return;  // valid but too slow to run here

  Machines& ms = machines(g);
  Machine& fast = *ms.fast;
  Machine& ref = *ms.ref;
  std::vector<Region> dirty;
  for (Machine* m : {&fast, &ref}) {
    for (auto [i, v] : in.registers) m->registers[i] = v;
    for (auto [i, v] : in.semaphores) m->semaphores[i] = v;
    for (auto [i, v] : in.accumulators) m->accumulators[i] = v;
    for (const auto& [i, l] : in.match) m->match[i] = l;
    for (const MemoryRange& r : in.memory)
      std::memcpy(m->partition(r.space, r.partition).data() + r.offset, r.bytes.data(),
                  r.bytes.size());
  }
  for (const MemoryRange& r : in.memory)
    dirty.push_back(
        Region{r.space, r.partition, r.offset, r.offset + static_cast<uint32_t>(r.bytes.size())});
  const std::array<uint32_t, kSemaphores> initial_sems = fast.semaphores;

  Writes fast_writes, ref_writes;
  QueueRunOptions fo, ro;
  fo.trace = &fast_writes;
  ro.trace = &ref_writes;
  ro.fast = false;
  ro.detect_races = !ref_without_races;
  const QueueRun a = run_queues(fast, prog, fo);
  const QueueRun b = run_queues(ref, prog, ro);
  dirty.insert(dirty.end(), fast_writes.regions.begin(), fast_writes.regions.end());
  dirty.insert(dirty.end(), ref_writes.regions.begin(), ref_writes.regions.end());

  std::string sizes;
  for (const EngineDef& e : kEngines)
    sizes += fmt::format("{}{} {}", sizes.empty() ? "" : ", ", e.id, prog.queue(e.engine).size());
  const std::string what = fmt::format("{}{}, {} words ({})", generation_name(g),
                                       prog.strict ? " strict" : "", n, sizes);
  // All or nothing.
  GPSIMD_FUZZ_CHECK((a.status == ProgramStatus::Invalid) == !invalid.empty(),
                    "{}: status {} with {} invalid words", what, program_status_name(a.status),
                    invalid.size());
  GPSIMD_FUZZ_CHECK(same_invalid(a.invalid, invalid),
                    "{}: the invalid words differ from "
                    "validate_queues'",
                    what);
  if (a.status == ProgramStatus::Invalid) {
    GPSIMD_FUZZ_CHECK(
        a.schedule.empty() && !a.race && a.sync_hazards.empty() && a.blocked.empty() && !a.fault,
        "{}: an invalid program reports a run", what);
    GPSIMD_FUZZ_CHECK(fast_writes.retired == 0 && fast_writes.regions.empty(),
                      "{}: an invalid program wrote", what);
  }
  // Fast and reference agree.
  GPSIMD_FUZZ_CHECK(a.status == b.status, "{}: fast {} reference {}", what,
                    program_status_name(a.status), program_status_name(b.status));
  GPSIMD_FUZZ_CHECK(same_steps(a.schedule, b.schedule), "{}: the schedules differ", what);
  GPSIMD_FUZZ_CHECK(a.sync_hazards == b.sync_hazards, "{}: the hazards differ", what);
  GPSIMD_FUZZ_CHECK(same_blocked(a.blocked, b.blocked), "{}: the blocked heads differ", what);
  GPSIMD_FUZZ_CHECK(a.fault.has_value() == b.fault.has_value() &&
                        (!a.fault || (a.fault->word == b.fault->word &&
                                      a.fault->fault.kind == b.fault->fault.kind)),
                    "{}: the faults differ", what);
  GPSIMD_FUZZ_CHECK(same_invalid(a.invalid, b.invalid), "{}: the invalid words differ", what);
  if (ref_without_races)
    GPSIMD_FUZZ_CHECK(!b.race && !b.races_checked, "{}: a race without race detection", what);
  else
    GPSIMD_FUZZ_CHECK(a.race == b.race, "{}: the races differ", what);
  GPSIMD_FUZZ_CHECK(same_small_state(fast, ref),
                    "{}: registers, semaphores, accumulators or "
                    "search lanes differ between fast and reference",
                    what);
  const std::string diff = differing_region(fast, ref, dirty);
  GPSIMD_FUZZ_CHECK(diff.empty(), "{}: memory differs between fast and reference at {}", what,
                    diff);
  if (a.status == ProgramStatus::Invalid) {
    // Nothing ran: the semaphores are the input's (the rest is covered by fast == ref and
    // the periodic check that restoring the input's windows leaves a fresh machine).
    GPSIMD_FUZZ_CHECK(fast.semaphores == initial_sems,
                      "{}: an invalid program changed a "
                      "semaphore",
                      what);
  } else {
    // The schedule issues each queue in order; only a fault's last word did not retire.
    std::array<std::size_t, kEngineCount> next{};
    for (std::size_t k = 0; k < a.schedule.size(); ++k) {
      const ScheduleStep& s = a.schedule[k];
      const auto q = static_cast<std::size_t>(s.word.queue);
      GPSIMD_FUZZ_CHECK(s.word.index == next[q], "{}: step {} issues {} out of order", what, k,
                        s.word.to_string());
      ++next[q];
      const bool last = k + 1 == a.schedule.size();
      GPSIMD_FUZZ_CHECK(s.retired || (last && a.status == ProgramStatus::Fault),
                        "{}: step {} did not retire", what, k);
    }
    GPSIMD_FUZZ_CHECK(
        fast_writes.retired == a.schedule.size() - (a.status == ProgramStatus::Fault ? 1 : 0),
        "{}: {} retire events for a schedule of {}", what, fast_writes.retired, a.schedule.size());
    if (a.status == ProgramStatus::Fault)
      GPSIMD_FUZZ_CHECK(a.fault && a.fault->word == a.schedule.back().word &&
                            !a.schedule.back().retired &&
                            a.fault->fault.kind != FaultKind::SyncWouldBlock,
                        "{}: the fault is not the last step", what);
    if (a.status == ProgramStatus::Ok)
      for (std::size_t q = 0; q < kEngineCount; ++q)
        GPSIMD_FUZZ_CHECK(next[q] == prog.queues[q].size(), "{}: ok with a queue not drained",
                          what);
    if (a.status == ProgramStatus::Deadlock) {
      std::size_t not_drained = 0;
      for (std::size_t q = 0; q < kEngineCount; ++q) not_drained += next[q] < prog.queues[q].size();
      GPSIMD_FUZZ_CHECK(a.blocked.size() == not_drained && not_drained > 0,
                        "{}: {} blocked heads, {} queues not drained", what, a.blocked.size(),
                        not_drained);
      for (const BlockedHead& h : a.blocked) {
        const auto q = static_cast<std::size_t>(h.word.queue);
        GPSIMD_FUZZ_CHECK(h.word.index == next[q] && h.current == fast.semaphores[h.semaphore],
                          "{}: blocked head {} is not its queue's head", what, h.word.to_string());
        const bool holds = h.wait == WaitMode::EQ ? h.current == h.value : h.current >= h.value;
        GPSIMD_FUZZ_CHECK(!holds, "{}: blocked head {} waits for what holds", what,
                          h.word.to_string());
      }
    }
    if (a.race) {
      const Race& r = *a.race;
      GPSIMD_FUZZ_CHECK(r.first.word.queue != r.second.word.queue, "{}: a race within a queue",
                        what);
      std::optional<std::size_t> at_first, at_second;
      for (std::size_t k = 0; k < a.schedule.size(); ++k) {
        if (!a.schedule[k].retired) continue;
        if (a.schedule[k].word == r.first.word) at_first = k;
        if (a.schedule[k].word == r.second.word) at_second = k;
      }
      GPSIMD_FUZZ_CHECK(at_first && at_second && *at_first < *at_second,
                        "{}: the race's words did not both retire, first before second", what);
      GPSIMD_FUZZ_CHECK(r.first.access != AccessKind::Read || r.second.access != AccessKind::Read,
                        "{}: a race of two reads", what);
      // Both words touch the location as reported (registers never change, so the
      // footprints are those of the run).
      for (const RaceAccess* x : {&r.first, &r.second}) {
        const Footprint f =
            footprint(prog.queue(x->word.queue)[x->word.index], fast, x->word.queue, prog.strict);
        GPSIMD_FUZZ_CHECK(f.ok() && f.access(r.location) == x->access, "{}: {} does not {} {}",
                          what, x->word.to_string(), access_name(x->access),
                          r.location.to_string());
      }
    }
    GPSIMD_FUZZ_CHECK(a.sync_hazards == sync_hazards(prog, initial_sems),
                      "{}: the run's hazards are not the program's", what);
  }

  restore(fast, dirty);
  restore(ref, dirty);
  if (every_input || ++count % kFullCheckPeriod == 0) {
    for (const Machine* m : {&fast, &ref}) {
      const std::string problem = fresh_state_problem(*m);
      GPSIMD_FUZZ_CHECK(problem.empty(),
                        "{} machine not fresh after {}: {} (a write outside the trace; rerun "
                        "the recent inputs with GPSIMD_FUZZ_FULL_CHECK=1)",
                        generation_name(g), what, problem);
    }
  }
}

}  // namespace gpsimd::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  gpsimd::fuzz::run_one(data, size);
  return 0;
}
