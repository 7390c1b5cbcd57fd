// The parameterised test of every instruction's clause cases (GPSIMD_CLAUSE_CASES), and
// the check that every table row has some.
#include "instructions/validate_cases.h"

#include <map>
#include <set>

namespace gpsimd::validate_cases {

ClauseCaseSet::ClauseCaseSet(std::vector<ClauseCase> (*cases)()) {
  const_cast<std::vector<std::vector<ClauseCase> (*)()>&>(clause_case_sets()).push_back(cases);
}

const std::vector<std::vector<ClauseCase> (*)()>& clause_case_sets() {
  static std::vector<std::vector<ClauseCase> (*)()> v;
  return v;
}

namespace {

TEST_P(ClauseFailsAlone, OnEveryGeneration) {
  const ClauseCase& c = GetParam();
  const Word w = with(valid_word(c.op), c.mutate);
  const std::vector<Generation> gens = c.gens.empty() ? generations_of(c.op) : c.gens;
  for (Generation g : gens) {
    EXPECT_TRUE(fails_alone(validate(w, g, ValidateOptions{c.strict, c.engine}), c.op, c.clause,
                            c.field, c.value, c.allowed, c.count))
        << gen_text(g);
    const ValidateOptions plain{false, c.engine};
    if (c.strict) {
      EXPECT_TRUE(validate(w, g, plain).empty())
          << "valid when not strict" << describe(validate(w, g, plain));
    } else {
      // Strict mode only adds the top-K rejection.
      EXPECT_EQ(clauses_of(validate(w, g, ValidateOptions{true, c.engine})),
                clauses_of(validate(w, g, ValidateOptions{false, c.engine})))
          << gen_text(g);
    }
  }
}

// Every table row has clauses failing alone, in its file in tests/instructions/ (its opcode
// clause is tested by PerInstruction.OpcodeClauseFailsAloneUnderValidateAs, over every
// row, in tests/validate_test.cc).
TEST(ClauseCoverage, EveryInstructionHasClausesFailingAlone) {
  std::map<Opcode, std::set<std::string>> clauses;
  for (auto cases : clause_case_sets())
    for (const ClauseCase& c : cases()) clauses[c.op].insert(c.clause);
  for (const InstrDef& d : instructions())
    EXPECT_GE(clauses[d.opcode].size(), 3u) << d.mnemonic << " has too few clause cases";
}

}  // namespace
}  // namespace gpsimd::validate_cases
