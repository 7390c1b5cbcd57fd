// Execution (SPEC §4 execution rule): validate, wait, resolve, check shapes and the
// walk limit, read every source, then write. All or nothing: any failure leaves the
// machine exactly as it was.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpsimd/isa.h"
#include "gpsimd/machine.h"
#include "gpsimd/validate.h"

namespace gpsimd {

enum class FaultKind : uint8_t {
  BadAddress,
  ShapeMismatch,
  SyncWouldBlock,
  TooLarge,
  UnsupportedOp,  // SPEC §3.8.3, §3.9: the model does not implement it on this engine
};
// "bad-address", "shape-mismatch", "sync-would-block", "too-large", "unsupported-op".
std::string_view fault_name(FaultKind k);
std::optional<FaultKind> parse_fault(std::string_view s);

struct Fault {
  FaultKind kind;
  std::string detail;  // names the operand, the value and the rule
};

enum class Status : uint8_t { Retired, Invalid, Faulted };
std::string_view status_name(Status s);  // "ok", "invalid", "fault"

struct ExecResult {
  Status status = Status::Retired;
  Diagnostics diagnostics;     // Invalid: every failing clause
  std::optional<Fault> fault;  // Faulted
  bool ok() const { return status == Status::Retired; }
  // One line for a person: "ok", the diagnostics, or "fault bad-address: ...".
  std::string message() const;
};

// Observes every architectural write, in order, after an instruction retires
// (like Spike's commit log). Nothing is reported for a word that does not retire.
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  virtual void retire(const Word& w, const InstrDef& def) = 0;
  // Bytes [offset, offset + bytes.size()) of a partition, as they are after the write.
  virtual void memory(Space s, unsigned partition, uint32_t offset,
                      std::span<const uint8_t> bytes) = 0;
  virtual void accumulator(unsigned index, uint32_t before, uint32_t after) = 0;
  virtual void semaphore(unsigned index, uint32_t before, uint32_t after) = 0;
  // A search lane (SPEC §2) whose state changed. Sinks that do not follow the search
  // state need not override it.
  virtual void match_lane(unsigned lane, const MatchLane& before, const MatchLane& after) {
    (void)lane, (void)before, (void)after;
  }
};

struct ExecOptions {
  bool strict = false;         // vendor-strict validation (SPEC §4.4)
  TraceSink* trace = nullptr;  // optional observer of the writes
  bool fast = true;            // use the fast kernels (bit-identical to the reference)
  // The engine input (SPEC §3.9) of the instructions of §4.14-§4.17; nullopt: the
  // opcode's default. The other instructions ignore it.
  std::optional<Engine> engine = std::nullopt;
  // With a journal, what each word overwrites is saved in it first, so the caller can undo
  // a batch of words (Journal, machine.h).
  Journal* journal = nullptr;
};

// Executes one word on the machine: a single word (SPEC §7), and the step by which the
// runner (program.h: run_stream, run_program, run_queues) issues each word of a stream.
ExecResult execute(Machine& m, const Word& w, const ExecOptions& opts = {});

}  // namespace gpsimd
