// Round-trip properties of the assembly language (docs/assembly.md):
//   - every word of a known opcode, valid or not, survives disassemble -> assemble
//     byte for byte;
//   - random valid instructions (built here from SPEC §4's rules and checked with
//     validate()) do too;
//   - random programs survive parse -> print -> parse, and asm -> dis -> asm.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "gpsimd/asm.h"
#include "gpsimd/format.h"
#include "gpsimd/validate.h"
#include "instructions/registry.h"
#include "table_coverage.h"

namespace gpsimd {
namespace {

// The opcodes of every row of the instruction table.
const std::vector<uint8_t> kOpcodes = [] {
  std::vector<uint8_t> out;
  for (const InstrDef& d : instructions()) out.push_back(static_cast<uint8_t>(d.opcode));
  return out;
}();

// Bytes that hit the interesting cases more often than uniform noise does: zero (the
// defaults), small codes (enumerations), and edges.
uint8_t interesting_byte(std::mt19937& rng) {
  static constexpr uint8_t kEdges[] = {1,    2,    3,    4,    8,    0x0a, 0x10,
                                       0x12, 0x13, 0x16, 0x66, 0x7f, 0x80, 0xff};
  switch (rng() % 4) {
    case 0:
    case 1:
      return 0;
    case 2:
      return kEdges[rng() % std::size(kEdges)];
    default:
      return static_cast<uint8_t>(rng());
  }
}

Word random_word(std::mt19937& rng, bool uniform) {
  Word w;
  for (auto& b : w) b = uniform ? static_cast<uint8_t>(rng()) : interesting_byte(rng);
  w[0] = kOpcodes[rng() % std::size(kOpcodes)];
  if (rng() % 2) {  // a valid header half of the time
    w[1] = 0x10;
    w[2] = w[3] = 0;
  }
  return w;
}

void expect_roundtrip(const Word& w, bool also_wrapped = true) {
  auto text = disassemble(w);
  ASSERT_TRUE(text) << word_to_hex(w);
  EXPECT_EQ(text->find('\n'), std::string::npos) << *text;  // one line
  AsmError e;
  auto back = assemble(*text, "dis", &e);
  ASSERT_TRUE(back) << e.to_string() << "\n" << *text << "\n" << word_to_hex(w);
  ASSERT_EQ(back->size(), 1u) << *text;
  EXPECT_EQ(word_to_hex(back->front()), word_to_hex(w)) << *text;
  if (!also_wrapped) return;
  // Wrapped over several lines, it is still the same word.
  auto wrapped = assemble(wrap_statement(*text, 40), "dis", &e);
  ASSERT_TRUE(wrapped) << e.to_string();
  EXPECT_EQ(wrapped->front(), w);
}

TEST(AsmRoundTrip, RandomWordsOfKnownOpcodes) {
  std::mt19937 rng(20240611);
  for (int i = 0; i < 10000; ++i) {
    SCOPED_TRACE(i);
    expect_roundtrip(random_word(rng, i % 2 == 0), i % 4 == 0);
    if (HasFatalFailure()) return;
  }
}

TEST(AsmRoundTrip, EveryValueOfEveryByteOfEveryOpcode) {
  // Each byte position takes all 256 values, the other bytes zero (header valid).
  for (uint8_t op : kOpcodes) {
    for (unsigned pos = 1; pos < kWordBytes; ++pos) {
      for (unsigned v = 0; v < 256; ++v) {
        Word w{};
        w[0] = op;
        w[1] = 0x10;
        w[pos] = static_cast<uint8_t>(v);
        expect_roundtrip(w, false);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// ---- random valid instructions, from SPEC §4's rules (tests/instructions/) -----------------

// Every table row has a generator (tests/instructions/): a row without one fails the
// registry's coverage test (instruction_test).
TEST(AsmRoundTrip, EveryInstructionHasAGenerator) {
  std::vector<std::string_view> names;
  for (const test_registry::InstructionTests* t : test_registry::all())
    if (t->roundtrip_word != nullptr) names.push_back(t->mnemonic);
  test_coverage::expect_table("RandomValidInstructions' generators (tests/instructions/)", names);
}

TEST(AsmRoundTrip, RandomValidInstructions) {
  asm_words::Gen g{std::mt19937(77)};
  std::vector<Word (*)(asm_words::Gen&)> fns;  // in mnemonic order
  for (const test_registry::InstructionTests* t : test_registry::all())
    fns.push_back(t->roundtrip_word);
  for (int i = 0; i < 13000; ++i) {
    const Word w = fns[static_cast<std::size_t>(i) % fns.size()](g);
    const Diagnostics d = validate(w, Generation::V3);
    ASSERT_TRUE(d.empty()) << "the generator built an invalid word: " << d.front().message() << "\n"
                           << word_to_hex(w);
    SCOPED_TRACE(i);
    expect_roundtrip(w);
    if (HasFatalFailure()) return;
  }
}

// ---- random programs ---------------------------------------------------------------------

std::string random_region(std::mt19937& rng, bool acc_ok) {
  const unsigned first = static_cast<unsigned>(rng() % 120),
                 count = 1 + static_cast<unsigned>(rng() % 4);
  const std::string p =
      count == 1 ? std::to_string(first) : fmt::format("{}..{}", first, first + count - 1);
  switch (rng() % (acc_ok ? 3 : 2)) {
    case 0:
      return fmt::format("sbuf[p={}, off={}]", p, 4 * (rng() % 1000));
    case 1:
      return fmt::format("PSUM[off={:#x}, p={}]", 8 * (rng() % 100), p);
    default:
      return fmt::format("acc[p={}]", p);
  }
}

unsigned region_partitions(const std::string& region) {
  const auto dots = region.find("..");
  if (dots == std::string::npos) return 1;
  const auto eq = region.rfind('=', dots);
  const unsigned a = static_cast<unsigned>(std::stoul(region.substr(eq + 1)));
  const unsigned b = static_cast<unsigned>(std::stoul(region.substr(dots + 2)));
  return b - a + 1;
}

std::string random_value(std::mt19937& rng, Dtype dt) {
  static const char* kFloats[] = {"1.5",   "-0.0",  "inf", "-inf",  "nan", "-nan",
                                  "1e-40", "65504", "0.1", "-2.75", "3",   "0x0"};
  const unsigned size = *dtype_size(dt);
  const bool is_float = minifloat_format(dt) != nullptr || dt == Dtype::FP32;
  if (rng() % 3 == 0) {
    const uint64_t mask = (uint64_t{1} << (8 * size)) - 1;
    return fmt::format("{:#x}", rng() & mask);
  }
  if (is_float) return kFloats[rng() % std::size(kFloats)];
  const bool sgn = dt == Dtype::INT8 || dt == Dtype::INT16 || dt == Dtype::INT32;
  const int64_t lo = sgn ? -(int64_t{1} << (8 * size - 1)) : 0;
  const int64_t span = int64_t{1} << (8 * size);
  return std::to_string(lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(span)));
}

std::string random_statement(std::mt19937& rng) {
  static constexpr Dtype kData[] = {Dtype::FP32,   Dtype::FP32R,  Dtype::BF16,   Dtype::FP16,
                                    Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5, Dtype::INT8,
                                    Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16, Dtype::INT32,
                                    Dtype::UINT32};
  const Dtype dt = kData[rng() % std::size(kData)];
  const std::string dtname(*dtype_name(static_cast<uint8_t>(dt)));
  switch (rng() % 9) {
    case 0:
      return fmt::format(".reg {} = {:#x}", rng() % 64, rng());
    case 1:
      return fmt::format(".reg {} = sbuf[p={}, off={}]", rng() % 64, rng() % 128, rng() % 4096);
    case 2:
      return fmt::format(".sem {} = {}", rng() % 256, rng());
    case 3: {
      static const char* kAcc[] = {"-inf", "1.5", "0x7fc00001", "-0.0", "3e38", "0xff7fffff"};
      const unsigned a = static_cast<unsigned>(rng() % 128);
      return rng() % 2 ? fmt::format(".acc {} = {}", a, kAcc[rng() % 6])
                       : fmt::format(".acc {}..{} = {}", a, a + rng() % (128 - a), kAcc[rng() % 6]);
    }
    case 4: {
      const std::string region = random_region(rng, false);
      const unsigned parts = region_partitions(region), per = 1 + static_cast<unsigned>(rng() % 20);
      std::string s = ".data " + region + " " + dtname + " = [";
      const bool nested = parts > 1 && rng() % 2;
      for (unsigned r = 0; r < parts; ++r) {
        if (nested) s += r ? ",\n  [" : "[";
        for (unsigned k = 0; k < per; ++k)
          s += ((k || (r && !nested)) ? ", " : "") + random_value(rng, dt);
        if (nested) s += "]";
      }
      return s + "]";
    }
    case 5: {
      static const char* kPaths[] = {"x.npy", "data/y.npy", "\"with space.npy\"", "/abs/z.npy"};
      return ".load " + random_region(rng, false) + " <- " + kPaths[rng() % 4];
    }
    case 6: {
      const std::string region = random_region(rng, true);
      std::string s = ".dump " + region;
      if (region.rfind("acc", 0) != 0) {
        s += fmt::format(" {} [{}]", dtname, 1 + rng() % 40);
        if (rng() % 2) s += fmt::format(" step={}", 1 + rng() % 4);
      }
      if (rng() % 2) s += " -> out" + std::to_string(rng() % 10) + ".npy";
      return s;
    }
    case 7: {
      Word w;
      for (auto& b : w) b = static_cast<uint8_t>(rng());
      if (find_instruction(w[0])) w[0] = 0x97;
      return ".word 0x" + word_to_hex(w);
    }
    default: {
      const Word w = random_word(rng, rng() % 2);
      return wrap_statement(*disassemble(w), 30 + rng() % 100);
    }
  }
}

TEST(AsmRoundTrip, RandomPrograms) {
  std::mt19937 rng(4242);
  for (int i = 0; i < 600; ++i) {
    SCOPED_TRACE(i);
    std::string text;
    if (rng() % 2) text += fmt::format(".nc v{}\n", 2 + rng() % 4);
    const unsigned n = static_cast<unsigned>(rng() % 12);
    for (unsigned k = 0; k < n; ++k) {
      text += random_statement(rng);
      if (rng() % 4 == 0) text += "   # a comment; with ; and # inside";
      text += rng() % 5 == 0 ? "\n\n" : "\n";
    }
    AsmError e;
    auto p1 = parse_program(text, "r.gpsimd", &e);
    ASSERT_TRUE(p1) << e.to_string() << "\n" << text;
    const std::string t1 = print_program(*p1);
    auto p2 = parse_program(t1, "canonical", &e);
    ASSERT_TRUE(p2) << e.to_string() << "\n" << t1;
    EXPECT_TRUE(same_program(*p1, *p2)) << text << "\n----\n" << t1;
    EXPECT_EQ(print_program(*p2), t1);
    // asm -> dis -> asm, word by word.
    for (const Word& w : p1->words) {
      auto t = disassemble(w);
      const std::string line = t ? *t : ".word 0x" + word_to_hex(w);
      auto back = assemble(line, "line", &e);
      ASSERT_TRUE(back) << e.to_string();
      EXPECT_EQ(back->front(), w);
    }
  }
}

}  // namespace
}  // namespace gpsimd
