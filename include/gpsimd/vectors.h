// Conformance vectors (SPEC §7): load vector files, run each vector on a fresh machine,
// and compare the complete final state.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"

namespace gpsimd {

struct MemoryRange {
  Space space = Space::SBUF;
  unsigned partition = 0;
  uint32_t offset = 0;
  std::vector<uint8_t> bytes;
};

struct VectorExpect {
  Status status = Status::Retired;
  std::vector<std::string> violations;        // invalid: each must be reported
  std::optional<FaultKind> fault;             // fault: the kind
  std::vector<MemoryRange> memory;            // the complete final memory (the rest is zero)
  std::map<unsigned, uint32_t> accumulators;  // others -inf
  std::map<unsigned, uint32_t> semaphores;    // others 0
  std::map<unsigned, MatchLane> match_state;  // search lanes; others fresh
};

struct TestVector {
  std::string name;
  Generation nc = Generation::V3;
  bool strict = false;
  std::optional<Engine> engine;  // SPEC §7 "engine" (§3.9); nullopt: the opcode's default
  // SPEC §7 "model_rules": the [model] order rules its expected state rests on (an
  // annotation: it changes neither validation nor execution).
  std::vector<std::string> model_rules;
  Word instruction{};
  std::map<unsigned, uint32_t> registers, semaphores, accumulators;
  std::map<unsigned, MatchLane> match_state;  // search lanes not named are fresh
  std::vector<MemoryRange> memory;
  VectorExpect expect;
};

struct VectorFile {
  std::string path;
  std::vector<TestVector> vectors;
};

// Parses a vector file's JSON text. On error returns nullopt and sets `error` to a
// message naming the file, the vector (index and name) and the key.
std::optional<VectorFile> parse_vectors(const std::string& json_text, const std::string& path,
                                        std::string* error);
// Reads and parses a vector file.
std::optional<VectorFile> load_vectors(const std::string& path, std::string* error);

// SPEC §7: the vectors of instructions that are not modelled yet are pending, reported
// but never run. A file is pending when every opcode its vectors carry is one SPEC
// specifies (kSpecifiedInstructions) and none is in the instruction table (a file may
// hold several opcodes of one family: it counts, in full, as soon as one of them is
// modelled). The result names the file's instructions. nullopt when the file counts:
// then every vector must pass. (A file that tests unknown opcodes, such as 0x97, is not
// pending: SPEC names no instruction for them, and the vectors expect has_known_opcode.)
struct PendingFile {
  std::vector<SpecifiedInstr> instructions;  // in the order the vectors first use them
  // "TensorTensorArith (0x41), TensorTensorBitvec (0x51)".
  std::string text() const;
};
std::optional<PendingFile> pending_instruction(const VectorFile& f);

// Puts a vector's initial state on a machine (which must be fresh and of its generation).
void apply_initial_state(Machine& m, const TestVector& v);

struct VectorOutcome {
  bool passed = false;
  ExecResult result;
  std::vector<std::string> differences;  // one line each: what was expected, what came
};

// How much memory run_vector compares with the expected state.
enum class CompareScope {
  // Every byte of SBUF and PSUM (SPEC §7): also catches a write that escaped the
  // instruction's trace. Reads the whole machine (34 MiB), a few ms per vector.
  Whole,
  // Only the partitions that the vector's initial or expected state names or that the
  // instruction's trace reports writing; every other partition is taken to be still
  // zero. Exact as long as every write is traced, which tests/kernels_equiv_test.cc
  // and the fuzz_execute target check; thousands of times less to read, for running
  // very many vectors (the fuzz_vectors target).
  Touched,
};

// Runs one vector on a fresh machine and compares the final state (registers,
// semaphores, accumulators, and the memory `scope` says).
VectorOutcome run_vector(const TestVector& v, const ExecOptions& opts = {},
                         CompareScope scope = CompareScope::Whole);

// Compares a machine against the expected final state; returns the differences.
std::vector<std::string> compare_state(const Machine& m, const VectorExpect& e,
                                       std::optional<Dtype> dtype_hint);

}  // namespace gpsimd
