#include "instructions/registry.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace gpsimd::test_registry {
namespace {

std::vector<const InstructionTests*>& entries() {
  static std::vector<const InstructionTests*> v;
  return v;
}

}  // namespace

Registration::Registration(const InstructionTests& t) {
  auto& v = entries();
  v.insert(std::upper_bound(v.begin(), v.end(), &t,
                            [](const InstructionTests* a, const InstructionTests* b) {
                              return a->mnemonic < b->mnemonic;
                            }),
           &t);
}

const std::vector<const InstructionTests*>& all() {
  return entries();
}

const InstructionTests* find(std::string_view mnemonic) {
  for (const InstructionTests* t : entries())
    if (t->mnemonic == mnemonic) return t;
  return nullptr;
}

const InstructionTests* find(Opcode op) {
  for (const InstructionTests* t : entries())
    if (t->opcode == op) return t;
  return nullptr;
}

}  // namespace gpsimd::test_registry

namespace gpsimd::test_words {

Word valid_word(Opcode op) {
  const test_registry::InstructionTests* t = test_registry::find(op);
  if (t == nullptr)
    fail("no valid word for opcode " + std::to_string(static_cast<int>(op)) +
         ": add the instruction's file to tests/instructions/");
  return t->valid_word();
}

}  // namespace gpsimd::test_words

namespace gpsimd::random_words {

GenFn generator(Opcode op) {
  const test_registry::InstructionTests* t = test_registry::find(op);
  if (t == nullptr) {
    std::fprintf(stderr, "random_words: no generator for opcode %d\n", static_cast<int>(op));
    std::abort();
  }
  return t->generate;
}

}  // namespace gpsimd::random_words

namespace refmodel::internal {

Effect effect_of(uint8_t opcode) {
  const gpsimd::test_registry::InstructionTests* t =
      gpsimd::test_registry::find(static_cast<gpsimd::Opcode>(opcode));
  return t == nullptr ? nullptr : t->reference;
}

}  // namespace refmodel::internal

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "table_coverage.h"

namespace gpsimd {
namespace {

// Every table row has a file in tests/instructions/ that registers its tests, and every
// registered instruction is a row: a new row fails here until its file exists.
TEST(InstructionRegistry, HasAnEntryPerTableRow) {
  std::vector<std::string_view> names;
  for (const test_registry::InstructionTests* t : test_registry::all()) {
    names.push_back(t->mnemonic);
    const InstrDef* d = find_instruction(t->mnemonic);
    if (d == nullptr) continue;
    EXPECT_EQ(d->opcode, t->opcode) << t->mnemonic;
    EXPECT_NE(t->expected_row, nullptr) << t->mnemonic;
    EXPECT_NE(t->valid_word, nullptr) << t->mnemonic;
    EXPECT_NE(t->reference, nullptr) << t->mnemonic;
    EXPECT_NE(t->generate, nullptr) << t->mnemonic;
    EXPECT_NE(t->roundtrip_word, nullptr) << t->mnemonic;
  }
  test_coverage::expect_table(
      "tests/instructions/ (add <snake_case mnemonic>_test.cc registering the instruction's "
      "expected row, valid word, reference and generators: docs/adding-an-instruction.md)",
      names);
}

// Every table row has hand-checked effects: a test suite of its name in instruction_test.
TEST(ExecuteCoverage, EveryInstructionHasHandCheckedEffects) {
  gpsimd::test_coverage::expect_suite_per_row();
}

}  // namespace
}  // namespace gpsimd
#endif
