// Program vectors (SPEC §8.8, format gpsimd-programs/1): load program vector files, with
// every malformed case a runner error naming the file and the vector, run each program on a
// fresh machine and compare the status, the schedule, the race, the sync hazards, the
// blocked heads, the fault, the invalid words and the complete final state.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpsimd/program.h"
#include "gpsimd/vectors.h"

namespace gpsimd {

// A fault as a program vector expects it: the word and the kind.
struct ExpectedFault {
  QueueWord word;
  FaultKind kind = FaultKind::BadAddress;
};
// An invalid word as a program vector expects it: the word and clauses it must report.
struct ExpectedInvalid {
  QueueWord word;
  std::vector<std::string> violations;
};

struct ProgramExpect {
  ProgramStatus status = ProgramStatus::Ok;
  std::vector<QueueWord> schedule;       // ok, deadlock, fault
  std::optional<Race> race;              // ok, deadlock, fault (nullopt: "race": null)
  std::vector<SyncHazard> sync_hazards;  // ok, deadlock, fault
  std::vector<BlockedHead> blocked;      // deadlock
  std::optional<ExpectedFault> fault;    // fault
  std::vector<ExpectedInvalid> invalid;  // invalid
  // The complete final state (SPEC §7's sense; `status`, `violations` and `fault` unused).
  VectorExpect state;
};

struct ProgramVector {
  std::string name;
  Generation nc = Generation::V3;
  QueueProgram program;                  // its queues and strict flag
  std::vector<std::string> model_rules;  // SPEC §7 "model_rules" (an annotation)
  // The initial state: registers, semaphores, accumulators, match_state, memory (SPEC §7).
  std::map<unsigned, uint32_t> registers, semaphores, accumulators;
  std::map<unsigned, MatchLane> match_state;
  std::vector<MemoryRange> memory;
  ProgramExpect expect;
};

struct ProgramVectorFile {
  std::string path;
  std::vector<ProgramVector> vectors;
};

// The "format" a vector file's JSON text declares ("gpsimd-vectors/1",
// "gpsimd-programs/1", ...), or nullopt when it is not JSON or names none.
std::optional<std::string> vector_file_format(const std::string& json_text);

// Parses a program vector file's JSON text (SPEC §8.8). On error returns nullopt and sets
// `error` to a message naming the file, the vector (index and name) and the key.
std::optional<ProgramVectorFile> parse_program_vectors(const std::string& json_text,
                                                       const std::string& path, std::string* error);
std::optional<ProgramVectorFile> load_program_vectors(const std::string& path, std::string* error);

// SPEC §8.8: a program file counts, in full, as soon as every opcode its words use is in
// the instruction table; until then it is pending, reported but never run. The result names
// the instructions it waits for: the opcodes its words use that SPEC specifies
// (kSpecifiedInstructions) and the table does not have. (A word of an opcode SPEC does not
// specify, such as 0x97, tests has_known_opcode and does not make a file pending.)
std::optional<PendingFile> pending_program_file(const ProgramVectorFile& f);

// Puts a program vector's initial state on a machine (fresh and of its generation).
void apply_initial_state(Machine& m, const ProgramVector& v);

struct ProgramVectorOutcome {
  bool passed = false;
  QueueRun run;
  std::vector<std::string> differences;  // one line each: what was expected, what came
};

// Runs one program vector on a fresh machine and compares everything SPEC §8.8 names
// (status, schedule, race, sync_hazards, blocked, fault exactly; the invalid words in
// order, each reporting at least its listed clauses; the whole final machine).
ProgramVectorOutcome run_program_vector(const ProgramVector& v, const QueueRunOptions& opts = {});

}  // namespace gpsimd
