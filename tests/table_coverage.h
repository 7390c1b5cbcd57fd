// Checks that a test file's lists of instructions are the instruction table's, so that a
// new table row fails the tests until every list names it (docs/adding-an-instruction.md).
// The lists themselves stay hand-written where the tests must be independent of the code
// (generators, reference implementations, hand-checked effects); only their coverage is
// compared with the table.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gpsimd/isa.h"

namespace gpsimd::test_coverage {

// Every row of the table is in `names` exactly once and `names` holds nothing else, but
// for the rows `exempt` names, each with the reason it needs no entry.
inline void expect_table(std::string_view list, const std::vector<std::string_view>& names,
                         const std::map<std::string_view, std::string_view>& exempt = {}) {
  std::multiset<std::string_view> have(names.begin(), names.end());
  for (const InstrDef& d : instructions()) {
    const bool exempted = exempt.count(d.mnemonic) != 0;
    EXPECT_EQ(have.count(d.mnemonic), exempted ? 0u : 1u)
        << list << ": " << d.mnemonic
        << (exempted ? " is exempt but listed" : " must be listed exactly once");
  }
  for (std::string_view n : have)
    EXPECT_NE(find_instruction(n), nullptr) << list << ": " << n << " is no instruction";
  for (const auto& [n, why] : exempt) {
    EXPECT_NE(find_instruction(n), nullptr) << list << ": exempt " << n << " is no instruction";
    EXPECT_FALSE(why.empty()) << list << ": say why " << n << " is exempt";
  }
}

// The mnemonics of the table's rows.
inline std::vector<std::string_view> table_mnemonics() {
  std::vector<std::string_view> out;
  for (const InstrDef& d : instructions()) out.push_back(d.mnemonic);
  return out;
}

// The names of this test binary's test suites, or of the tests of suite `suite`.
inline std::vector<std::string_view> suites() {
  std::vector<std::string_view> out;
  const auto& u = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < u.total_test_suite_count(); ++i) out.push_back(u.GetTestSuite(i)->name());
  return out;
}
inline std::vector<std::string_view> tests_of(std::string_view suite) {
  std::vector<std::string_view> out;
  const auto& u = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < u.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& s = *u.GetTestSuite(i);
    if (s.name() != suite) continue;
    for (int j = 0; j < s.total_test_count(); ++j) out.push_back(s.GetTestInfo(j)->name());
  }
  return out;
}

// Every row of the table has a test suite of its own name in this binary (suites named
// otherwise may exist too), but for the rows `exempt` names.
inline void expect_suite_per_row(const std::map<std::string_view, std::string_view>& exempt = {}) {
  const std::vector<std::string_view> have = suites();
  for (const InstrDef& d : instructions()) {
    if (exempt.count(d.mnemonic)) continue;
    EXPECT_NE(std::find(have.begin(), have.end(), d.mnemonic), have.end())
        << "no test suite named " << d.mnemonic;
  }
}

}  // namespace gpsimd::test_coverage
