// Executes arbitrary words on a machine whose registers, semaphores, accumulators, search
// lanes and a few memory windows come from the input (format: exec_input.h), and checks:
//  - all or nothing: an invalid or faulting word leaves the machine as it was;
//  - the trace reports every write of a retired word (memory, accumulators, semaphores,
//    search lanes);
//  - the fast kernels (ExecOptions.fast) give the reference's result and state bit for bit;
//  - execute() reports exactly validate()'s diagnostics for an invalid word;
//  - the undo journal of a retired word puts the machine back as it was.
//
// The machines (34 MiB each) live across inputs and are put back into the fresh state
// after each one, so an input costs what its instruction does. Memory is compared over
// the windows the input wrote and every region an operand of the word can reach (its
// walk's extent on its partitions, pointer immediates), which is where a partial or stray
// write would land. Every kFullCheckPeriod inputs, and after every input when the
// environment sets GPSIMD_FUZZ_FULL_CHECK=1 (to pin down which input did it), the whole
// of every machine is checked to be fresh again, which catches a write anywhere else.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "exec_input.h"
#include "fuzz_util.h"
#include "gpsimd/execute.h"
#include "gpsimd/validate.h"

namespace gpsimd::fuzz {
namespace {

// Words whose walks visit more than this many elements in total (all operands, all
// channels) are validated but not executed, so that one input stays near a millisecond
// (the reference path runs at tens of ns per element under the sanitizers);
// tests/hostile_input_test.cc executes walks up to the limit. Walks beyond the walk
// limit are executed: they must fault too-large at once.
constexpr uint64_t kWorkBudget = uint64_t{1} << 16;
// Bytes of operand regions compared per input; the periodic full check covers the rest.
constexpr std::size_t kWatchBudget = std::size_t{1} << 18;
constexpr unsigned kFullCheckPeriod = 512;

struct Region {
  Space space;
  unsigned partition;
  uint32_t lo, hi;  // byte offsets [lo, hi) in the partition
};

// Records every trace event with the bytes written.
struct Event {
  enum Kind { Retire, Memory, Accumulator, Semaphore, Lane } kind;
  Space space = Space::SBUF;
  unsigned index = 0;  // partition, accumulator, semaphore or search lane
  uint32_t offset = 0, before = 0, after = 0;
  std::vector<uint8_t> bytes;
  MatchLane lane_before{}, lane_after{};
  bool operator==(const Event&) const = default;
};
class Recorder : public TraceSink {
 public:
  std::vector<Event> events;
  void retire(const Word& w, const InstrDef&) override {
    events.push_back(Event{Event::Retire, Space::SBUF, 0, 0, 0, 0, {w.begin(), w.end()}, {}, {}});
  }
  void memory(Space s, unsigned p, uint32_t offset, std::span<const uint8_t> b) override {
    events.push_back(Event{Event::Memory, s, p, offset, 0, 0, {b.begin(), b.end()}, {}, {}});
  }
  void accumulator(unsigned i, uint32_t before, uint32_t after) override {
    events.push_back(Event{Event::Accumulator, Space::SBUF, i, 0, before, after, {}, {}, {}});
  }
  void semaphore(unsigned i, uint32_t before, uint32_t after) override {
    events.push_back(Event{Event::Semaphore, Space::SBUF, i, 0, before, after, {}, {}, {}});
  }
  void match_lane(unsigned lane, const MatchLane& before, const MatchLane& after) override {
    events.push_back(Event{Event::Lane, Space::SBUF, lane, 0, 0, 0, {}, before, after});
  }
};

// The machines, one fast/reference pair per generation, created on first use.
struct Pair {
  std::unique_ptr<Machine> fast, ref;
};
Pair& machines(Generation g) {
  static Pair pairs[4];
  Pair& p = pairs[static_cast<unsigned>(g) - 2];
  if (!p.fast) {
    p.fast = std::make_unique<Machine>(g);
    p.ref = std::make_unique<Machine>(g);
  }
  return p;
}

// The location a static ADDR4 points at, read the simple way (SPEC §3.4) without the
// model's validity rules: only used to decide which bytes to watch.
Region guess_location(uint32_t addr) {
  if (addr >= kPsumBase && addr < kPsumWindowEnd) {
    const uint32_t rel = addr - kPsumBase;
    return Region{Space::PSUM, rel >> 15, rel & 0x7fffu, 0};
  }
  return Region{Space::SBUF, (addr >> 18) & 0x7fu, addr & 0x3ffffu, 0};
}

// Appends the regions channel 0..n-1 of an operand starting at `at` may touch, with byte
// extents [at.lo + lo_bytes, at.lo + hi_bytes) clipped to the partition.
void add_channels(std::vector<Region>& out, const Machine& m, Region at, unsigned n,
                  int64_t lo_bytes, int64_t hi_bytes) {
  const int64_t size = m.partition_bytes(at.space);
  const int64_t lo = std::max<int64_t>(0, int64_t{at.lo} + lo_bytes);
  const int64_t hi = std::min<int64_t>(size, int64_t{at.lo} + hi_bytes);
  if (lo >= hi) return;
  for (unsigned c = 0; c < n && at.partition + c < kPartitions; ++c)
    out.push_back(
        Region{at.space, at.partition + c, static_cast<uint32_t>(lo), static_cast<uint32_t>(hi)});
}

// Returns every region an operand of the word can reach on the machine (before it runs).
std::vector<Region> operand_regions(const Word& w, const Machine& m) {
  std::vector<Region> out;
  const InstrDef* def = find_instruction(w[0]);
  if (def == nullptr) return out;
  const FieldDef* chf = find_field(def->fields, "num_active_channels");
  const unsigned n = std::clamp<unsigned>(chf ? w[chf->offset] : 1u, 1u, kPartitions);
  for (const FieldDef& f : def->fields) {
    if (f.kind == FieldKind::Tensor) {
      const TensorDesc t = load_tensor(w, f);
      uint32_t addr = t.addr;
      if (t.register_mode()) {
        if ((addr & 0xffu) >= kRegisters) continue;
        addr = m.registers[addr & 0xffu];
      }
      // Element extents of the walk; 4 bytes per element bounds every dtype the
      // instructions accept (8-byte dtypes pass TensorTensor's validation only, and its
      // INT64/UINT64 words fault unsupported-op before they touch memory).
      int64_t lo = 0, hi = 0;
      for (unsigned d = 0; d < t.dims; ++d) {
        const int64_t span = int64_t{t.step[d]} * (std::max<int64_t>(t.num[d], 1) - 1);
        (span < 0 ? lo : hi) += span;
      }
      add_channels(out, m, guess_location(addr), n, lo * 4, hi * 4 + 4);
    } else if (f.kind == FieldKind::ImmVal) {
      const uint8_t src = w[find_field(def->fields, f.src_field)->offset];
      uint32_t addr = load_u32(w, f.offset);
      if (src == static_cast<uint8_t>(ImmSrc::REG_PTR_IMMEDIATE)) {
        if ((addr & 0xffu) >= kRegisters) continue;
        addr = m.registers[addr & 0xffu];
      } else if (src != static_cast<uint8_t>(ImmSrc::POINTER_IMMEDIATE) &&
                 f.imm_text != ImmText::Hex) {  // Hex: a pointer whatever *_src says
        continue;
      }
      add_channels(out, m, guess_location(addr), n, 0, 4);
    }
  }
  return out;
}

// Bytes of a machine's regions, to compare later.
struct Snapshot {
  std::vector<Region> regions;
  std::vector<uint8_t> bytes;
  std::array<uint32_t, kRegisters> registers{};
  std::array<uint32_t, kSemaphores> semaphores{};
  std::array<uint32_t, kPartitions> accumulators{};
  std::array<MatchLane, kPartitions> match{};

  // Copies the state and the regions' bytes (reusing this snapshot's buffers).
  void take(const Machine& m, const std::vector<Region>& rs) {
    registers = m.registers;
    semaphores = m.semaphores;
    accumulators = m.accumulators;
    match = m.match;
    regions = rs;
    std::size_t total = 0;
    for (const Region& r : regions) total += r.hi - r.lo;
    bytes.resize(total);
    std::size_t at = 0;
    for (const Region& r : regions) {
      std::memcpy(bytes.data() + at, m.partition(r.space, r.partition).data() + r.lo, r.hi - r.lo);
      at += r.hi - r.lo;
    }
  }
  // Applies a retired word's trace to the expected state (checking each "before").
  void apply(const std::vector<Event>& events) {
    for (const Event& e : events) {
      switch (e.kind) {
        case Event::Retire:
          break;
        case Event::Memory: {
          std::size_t at = 0;
          for (const Region& r : regions) {
            if (r.space == e.space && r.partition == e.index) {
              const uint32_t lo = std::max(r.lo, e.offset);
              const uint32_t hi =
                  std::min<uint32_t>(r.hi, e.offset + static_cast<uint32_t>(e.bytes.size()));
              for (uint32_t b = lo; b < hi; ++b) bytes[at + b - r.lo] = e.bytes[b - e.offset];
            }
            at += r.hi - r.lo;
          }
          break;
        }
        case Event::Accumulator:
          GPSIMD_FUZZ_CHECK(accumulators[e.index] == e.before,
                            "trace: accumulator {} before {:#x}, machine held {:#x}", e.index,
                            e.before, accumulators[e.index]);
          accumulators[e.index] = e.after;
          break;
        case Event::Semaphore:
          GPSIMD_FUZZ_CHECK(semaphores[e.index] == e.before,
                            "trace: semaphore {} before {:#x}, machine held {:#x}", e.index,
                            e.before, semaphores[e.index]);
          semaphores[e.index] = e.after;
          break;
        case Event::Lane:
          GPSIMD_FUZZ_CHECK(match[e.index] == e.lane_before,
                            "trace: search lane {} before differs from the machine's", e.index);
          GPSIMD_FUZZ_CHECK(!(e.lane_before == e.lane_after),
                            "trace: search lane {} reported without a change", e.index);
          match[e.index] = e.lane_after;
          break;
      }
    }
  }
  // Returns an empty string when the machine matches, else the first difference.
  std::string mismatch(const Machine& m) const {
    for (unsigned i = 0; i < kRegisters; ++i)
      if (m.registers[i] != registers[i])
        return fmt::format("register {}: {:#x} -> {:#x}", i, registers[i], m.registers[i]);
    for (unsigned i = 0; i < kSemaphores; ++i)
      if (m.semaphores[i] != semaphores[i])
        return fmt::format("semaphore {}: expected {:#x}, machine {:#x}", i, semaphores[i],
                           m.semaphores[i]);
    for (unsigned i = 0; i < kPartitions; ++i)
      if (m.accumulators[i] != accumulators[i])
        return fmt::format("accumulator {}: expected {:#x}, machine {:#x}", i, accumulators[i],
                           m.accumulators[i]);
    for (unsigned i = 0; i < kPartitions; ++i)
      if (!(m.match[i] == match[i])) return fmt::format("search lane {} differs", i);
    std::size_t at = 0;
    for (const Region& r : regions) {
      auto p = m.partition(r.space, r.partition);
      if (std::memcmp(p.data() + r.lo, bytes.data() + at, r.hi - r.lo) != 0) {
        uint32_t b = r.lo;
        while (p[b] == bytes[at + b - r.lo]) ++b;
        return fmt::format("{} partition {} byte {:#x}: expected {:#04x}, machine {:#04x}",
                           space_name(r.space), r.partition, b, bytes[at + b - r.lo], p[b]);
      }
      at += r.hi - r.lo;
    }
    return {};
  }
};

// Puts a machine back into the fresh state, given every region that may have changed.
void restore(Machine& m, const std::vector<Region>& dirty) {
  for (const Region& r : dirty)
    std::memset(m.partition(r.space, r.partition).data() + r.lo, 0, r.hi - r.lo);
  m.registers.fill(0);
  m.semaphores.fill(0);
  m.accumulators.fill(kNegInfBits);
  m.match.fill(MatchLane{});
}

void written_regions(const std::vector<Event>& events, std::vector<Region>& out) {
  for (const Event& e : events)
    if (e.kind == Event::Memory)
      out.push_back(
          Region{e.space, e.index, e.offset, e.offset + static_cast<uint32_t>(e.bytes.size())});
}

// Elements visited by every operand walk on every channel, and the largest per-channel
// walk of one operand.
std::pair<uint64_t, uint64_t> work_of(const Word& w) {
  const InstrDef* def = find_instruction(w[0]);
  if (def == nullptr) return {0, 0};
  const FieldDef* chf = find_field(def->fields, "num_active_channels");
  const uint64_t n = std::max<uint64_t>(chf ? w[chf->offset] : 1u, 1);
  uint64_t total = 0, largest = 0;
  for (const FieldDef& f : def->fields) {
    if (f.kind != FieldKind::Tensor) continue;
    const uint64_t c = load_tensor(w, f).count();
    total += c * n;
    largest = std::max(largest, c);
  }
  return {total, largest};
}

std::string describe(const ExecInput& in) {
  return fmt::format("{}{}{} word {}", generation_name(in.gen), in.strict ? " strict" : "",
                     in.engine ? fmt::format(" engine {}", engine_id(*in.engine)) : "",
                     word_to_hex(in.word));
}

bool full_check_every_input() {
  const char* e = std::getenv("GPSIMD_FUZZ_FULL_CHECK");
  return e != nullptr && std::strcmp(e, "1") == 0;
}

void full_check(const char* when) {
  for (Generation g : kAllGenerations) {
    Pair& p = machines(g);
    for (const Machine* m : {p.fast.get(), p.ref.get()}) {
      const std::string problem = fresh_state_problem(*m);
      GPSIMD_FUZZ_CHECK(problem.empty(),
                        "{} machine not fresh {}: {} (a write outside the trace and the operand "
                        "regions; rerun the recent inputs with GPSIMD_FUZZ_FULL_CHECK=1)",
                        generation_name(g), when, problem);
    }
  }
}

}  // namespace

void run_one(const uint8_t* data, std::size_t size) {
  static const bool every_input = full_check_every_input();
  static unsigned count = 0;
  const ExecInput in = parse_exec_input(data, size);
  Pair& pair = machines(in.gen);
  Machine& fast = *pair.fast;
  Machine& ref = *pair.ref;

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

  std::vector<Region> watch = dirty;
  std::size_t watched = 0;
  for (const Region& r : watch) watched += r.hi - r.lo;
  for (const Region& r : operand_regions(in.word, fast)) {
    if (watched + (r.hi - r.lo) > kWatchBudget) break;
    watched += r.hi - r.lo;
    watch.push_back(r);
  }
  // Static: the buffers are reused, the harness should cost little per input.
  static Snapshot before, pre, expect;
  before.take(fast, watch);

  const auto [work, largest] = work_of(in.word);
  const Diagnostics diags = validate(in.word, in.gen, ValidateOptions{in.strict, in.engine});
  if (diags.empty() && largest <= model::kWalkLimit && work > kWorkBudget) {
    restore(fast, dirty);
    restore(ref, dirty);
    return;
  }

  Recorder tf, tr;
  Journal journal(ref);  // what the reference run overwrites, for the undo check below
  const ExecResult rf = execute(fast, in.word, ExecOptions{in.strict, &tf, true, in.engine});
  const ExecResult rr =
      execute(ref, in.word, ExecOptions{in.strict, &tr, false, in.engine, &journal});

  GPSIMD_FUZZ_CHECK(rf.status == rr.status, "{}: fast {} but reference {}", describe(in),
                    rf.message(), rr.message());
  GPSIMD_FUZZ_CHECK(rf.diagnostics == rr.diagnostics && rf.message() == rr.message(),
                    "{}: fast {} but reference {}", describe(in), rf.message(), rr.message());
  if (rr.status == Status::Invalid) {
    GPSIMD_FUZZ_CHECK(rr.diagnostics == diags && !diags.empty(),
                      "{}: execute() reports {} but validate() {} diagnostics", describe(in),
                      rr.message(), diags.size());
  } else {
    GPSIMD_FUZZ_CHECK(diags.empty(), "{}: validate() fails but execute() says {}", describe(in),
                      rr.message());
  }
  if (rr.status == Status::Faulted)
    GPSIMD_FUZZ_CHECK(rr.fault.has_value() && !rr.fault->detail.empty(),
                      "{}: fault without kind or detail", describe(in));

  if (rr.status != Status::Retired) {
    GPSIMD_FUZZ_CHECK(tf.events.empty() && tr.events.empty(), "{}: {} but the trace saw writes",
                      describe(in), rr.message());
    for (const Machine* m : {&fast, &ref}) {
      const std::string diff = before.mismatch(*m);
      GPSIMD_FUZZ_CHECK(diff.empty(), "{}: {} ({}) changed the machine: {}", describe(in),
                        rr.message(), m == &fast ? "fast" : "reference", diff);
    }
  } else {
    GPSIMD_FUZZ_CHECK(tf.events == tr.events, "{}: fast and reference traces differ", describe(in));
    GPSIMD_FUZZ_CHECK(!tr.events.empty() && tr.events.front().kind == Event::Retire,
                      "{}: retired without a retire event first", describe(in));
    // Everything the trace reports, and nothing else, changed; fast == reference.
    std::vector<Region> compare = watch;
    written_regions(tr.events, compare);
    expect.take(ref, compare);
    pre = before;
    pre.apply(tr.events);
    const std::string diff = pre.mismatch(ref);
    GPSIMD_FUZZ_CHECK(diff.empty(), "{}: the reference changed state the trace did not report: {}",
                      describe(in), diff);
    expect.registers = ref.registers;
    const std::string fdiff = expect.mismatch(fast);
    GPSIMD_FUZZ_CHECK(fdiff.empty(), "{}: fast and reference states differ: {}", describe(in),
                      fdiff);
    written_regions(tr.events, dirty);
    written_regions(tf.events, dirty);
    // The undo journal (all-or-nothing for batches of words) puts back exactly what the
    // word overwrote.
    journal.undo(ref);
    const std::string udiff = before.mismatch(ref);
    GPSIMD_FUZZ_CHECK(udiff.empty(), "{}: undoing the journal leaves a difference: {}",
                      describe(in), udiff);
  }
  restore(fast, dirty);
  restore(ref, dirty);
  if (every_input || ++count % kFullCheckPeriod == 0) full_check("after an input");
}

}  // namespace gpsimd::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  gpsimd::fuzz::run_one(data, size);
  return 0;
}
