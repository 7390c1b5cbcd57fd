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
};

struct TestVector {
  std::string name;
  Generation nc = Generation::V3;
  bool strict = false;
  Word instruction{};
  std::map<unsigned, uint32_t> registers, semaphores, accumulators;
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

// Puts a vector's initial state on a machine (which must be fresh and of its generation).
void apply_initial_state(Machine& m, const TestVector& v);

struct VectorOutcome {
  bool passed = false;
  ExecResult result;
  std::vector<std::string> differences;  // one line each: what was expected, what came
};

// Runs one vector on a fresh machine and compares the whole final state.
VectorOutcome run_vector(const TestVector& v, const ExecOptions& opts = {});

// Compares a machine against the expected final state; returns the differences.
std::vector<std::string> compare_state(const Machine& m, const VectorExpect& e,
                                       std::optional<Dtype> dtype_hint);

}  // namespace gpsimd
