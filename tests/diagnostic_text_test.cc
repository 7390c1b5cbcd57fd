// The rule for every clause diagnostic (docs/cli.md, "Diagnostics"): `allowed` states what
// is allowed, never the problem, and each kind of number is written in one base (hex for
// addresses and offsets). Checked over every diagnostic that single-byte and single-field
// changes of each instruction's valid word, and the conformance vectors' words, trigger.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
// GCC 12 reports a false -Wmaybe-uninitialized inside <regex> at -O1 (the sanitizer
// preset's level); the warning is about the library's code, not this file's.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop
#include <set>
#include <string>

#include "gpsimd/validate.h"
#include "gpsimd/vectors.h"
#include "test_words.h"

namespace {

using namespace gpsimd;
using namespace gpsimd::test_words;

// Every diagnostic the mutated words trigger, keyed by its text (one example word each).
std::map<std::string, Diagnostic> collect() {
  std::map<std::string, Diagnostic> out;
  auto add = [&](const Word& w) {
    for (Generation g : {Generation::V2, Generation::V3, Generation::V4, Generation::V5})
      for (bool strict : {false, true})
        for (const Diagnostic& d : validate(w, g, ValidateOptions{strict}))
          out.emplace(d.message(), d);
  };
  const uint8_t kBytes[] = {0x00, 0x01, 0x02, 0x03, 0x07, 0x0f, 0x10, 0x11,
                            0x40, 0x7f, 0x80, 0x81, 0xc0, 0xfe, 0xff};
  for (const InstrDef& def : instructions()) {
    const Word valid = valid_word(def.opcode);
    for (unsigned i = 0; i < kWordBytes; ++i)
      for (uint8_t b : kBytes) {
        Word w = valid;
        w[i] = b;
        add(w);
      }
    // Pairs of bytes inside each multi-byte field (addresses, steps, counts).
    for (const FieldDef& f : def.fields)
      for (unsigned i = 0; i + 1 < f.size; ++i)
        for (uint8_t b : kBytes) {
          Word w = valid;
          w[f.offset + i] = b;
          w[f.offset + i + 1] = static_cast<uint8_t>(~b);
          add(w);
        }
  }
  for (const auto* dir : {GPSIMD_CONFORMANCE_DIR, GPSIMD_CONFORMANCE_DIR "/next"})
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().extension() != ".json") continue;
      std::string err;
      auto vf = load_vectors(e.path().string(), &err);
      if (!vf) continue;
      for (const TestVector& v : vf->vectors) add(v.instruction);
    }
  return out;
}

// Where a number is an address or a byte offset, it is written in hex ("off=0x40",
// "bytes [0x100, 0x140)"), whatever the diagnostic.
std::vector<std::string> decimal_offsets(const std::string& text) {
  static const std::regex kAfterWord(R"((off=|offset |offset=|addr=|bytes \[|window \[)-?(\d+))");
  static const std::regex kRange(R"(\[(-?\w+), (-?\w+)\))");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kAfterWord);
       it != std::sregex_iterator(); ++it)
    if (text.compare(static_cast<std::size_t>(it->position(2)), 2, "0x") != 0)
      out.push_back(it->str());
  for (auto it = std::sregex_iterator(text.begin(), text.end(), kRange);
       it != std::sregex_iterator(); ++it)
    for (int k = 1; k <= 2; ++k) {
      std::string v = (*it)[k].str();
      if (v.starts_with("-")) v.erase(0, 1);
      if (!v.starts_with("0x")) out.push_back(it->str());
    }
  return out;
}

// Phrases that describe what is wrong rather than what is allowed.
constexpr const char* kProblemPhrases[] = {" is not ",  " are ",     "touches bytes", " needs ",
                                           "exists on", ", not ",    "disagree",      " is set",
                                           " is clear", " outside ", "satisfy",       "=="};

TEST(DiagnosticText, AllowedStatesTheRuleAndOffsetsAreHex) {
  const auto all = collect();
  ASSERT_GT(all.size(), 1000u);  // the mutations reach every kind of clause
  std::set<std::string> clauses;
  for (const auto& [message, d] : all) {
    clauses.insert(d.clause);
    SCOPED_TRACE(message);
    EXPECT_NE(d.allowed.find("must"), std::string::npos) << "allowed does not state a rule";
    for (const char* p : kProblemPhrases)
      EXPECT_EQ(d.allowed.find(p), std::string::npos) << "allowed describes the problem: " << p;
    if (d.value.size() >= 6) {
      EXPECT_EQ(d.allowed.find(d.value), std::string::npos) << "allowed repeats the value";
    }
    EXPECT_EQ(decimal_offsets(d.value), std::vector<std::string>{}) << "value";
    EXPECT_EQ(decimal_offsets(d.allowed), std::vector<std::string>{}) << "allowed";
  }
  EXPECT_GE(clauses.size(), 60u);
}

// The checker itself: it flags what it is meant to flag.
TEST(DiagnosticText, CheckerFlagsDecimalOffsets) {
  EXPECT_EQ(decimal_offsets("touches bytes [256, 320)").size(), 3u);
  EXPECT_EQ(decimal_offsets("sbuf[p=0, off=64]").size(), 1u);
  EXPECT_TRUE(decimal_offsets("touches bytes [0x100, -0x40) off=0x40 offset 0x0").empty());
}

}  // namespace
