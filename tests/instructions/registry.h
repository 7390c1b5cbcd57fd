// The tests of each instruction, one file per instruction in tests/instructions/ (named
// after the mnemonic in snake case: sort_test.cc, tensor_scalar_arith_test.cc). Each file
// holds the instruction's expected table row, its valid word, the independent reference of
// its effect and its random generators, and registers them here; in the instruction_test
// executable the same file also holds its clause cases and hand-checked effects.
//
// The generic drivers iterate the registry: execute_random_test (random words against the
// reference), asm_roundtrip_test (random valid words through the assembly), isa_table_test
// (the expected rows), kernels_equiv_test (the kernel words, fast against the scalar
// path), footprint_test and the valid words of test_words.h. The registry's
// coverage test (instruction_test) fails while a table row has no entry.
//
// Each file is compiled once, into instruction_test (with GPSIMD_INSTRUCTION_TESTS defined),
// the executable that also holds the registry's users (tests/CMakeLists.txt:
// GPSIMD_REGISTRY_USERS).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "gpsimd/isa.h"
#include "gpsimd/machine.h"
#include "instructions/asm_words.h"
#include "instructions/expected_row.h"
#include "random_words.h"
#include "reference_model.h"
#include "test_words.h"

namespace gpsimd::kernels_equiv {
class Rng;
struct Machines;
}  // namespace gpsimd::kernels_equiv

namespace gpsimd::test_registry {

// The random words that kernels_equiv_test runs fast and by the reference (tests/kernels_equiv.h:
// run_random), from the same seed and case counts every run.
struct KernelWords {
  Word (*make)(kernels_equiv::Rng&, kernels_equiv::Machines&, bool large);
  uint64_t seed;
  int all_cases;    // on the best SIMD target; a third on the others
  int large_cases;  // whole-machine comparisons
  kernels_equiv::Machines& (*machines)() = nullptr;  // null: kernels_equiv::machines()
};

struct InstructionTests {
  std::string_view mnemonic;  // as in the table: "RangeSelect"
  Opcode opcode;
  std::string_view opcode_clause;  // SPEC §4's (and §6's) name of its opcode clause
  expected_rows::ExpectedInstr (*expected_row)();  // SPEC §1 and §4
  Word (*valid_word)();                            // a word that validates clean (test_words.h)
  refmodel::internal::Effect reference;            // the independent effect (reference_model.h)
  Word (*generate)(random_words::Builder&);        // random valid words placed on machines
  std::vector<Generation> random_generations;      // where the random comparison runs it
  Word (*roundtrip_word)(asm_words::Gen&);         // random valid words for the round trip
  // The random words comparing its fast path with the scalar path (kernels_equiv_test's
  // KernelsEquivRandom.Words/<Mnemonic>), or
  std::optional<KernelWords> kernel_words = std::nullopt;
  // why there are none; empty when there are.
  std::string_view no_fast_path_comparison = {};
};

// Every registered instruction, in mnemonic order.
const std::vector<const InstructionTests*>& all();
// The entry of an instruction, or null.
const InstructionTests* find(std::string_view mnemonic);
const InstructionTests* find(Opcode op);

// Registers an instruction's tests: one static Registration per instruction file.
struct Registration {
  explicit Registration(const InstructionTests& t);
};

}  // namespace gpsimd::test_registry
