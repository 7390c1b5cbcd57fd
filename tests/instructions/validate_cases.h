// What the clause cases of every instruction (tests/instructions/<snake_case>_test.cc) and
// the validation tests of tests/validate_test.cc share: the checks of a diagnostic, the
// clause case (one mutation of the instruction's valid word that makes one clause fail
// alone) and the parameterised test every instruction instantiates with its cases
// (GPSIMD_CLAUSE_CASES).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpsimd/validate.h"
#include "test_words.h"

namespace gpsimd::validate_cases {

using namespace test_words;
using G = Generation;

// SPEC §1: the generations where each opcode exists.
inline std::vector<Generation> generations_of(Opcode op) {
  if (op == Opcode::RangeSelect || op == Opcode::GetSequenceBounds ||
      op == Opcode::NonzeroWithCount)
    return {G::V3, G::V4, G::V5};
  return {G::V2, G::V3, G::V4, G::V5};
}

// SPEC §2: SBUF bytes per partition.
inline uint32_t sbuf_bytes(Generation g) {
  switch (g) {
    case G::V2:
      return 192 * 1024;
    case G::V3:
      return 224 * 1024;
    case G::V4:
    case G::V5:
      return 256 * 1024;
  }
  return 0;
}
inline constexpr uint32_t kPsumBytes = 16 * 1024;

inline std::string mnemonic(Opcode op) {
  return std::string(instruction(op).mnemonic);
}

inline std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

inline std::string describe(const Diagnostics& d) {
  std::string s;
  for (const Diagnostic& x : d) s += "\n  " + x.message();
  return d.empty() ? "(no diagnostics)" : s;
}

inline std::string gen_text(Generation g) {
  return std::string(generation_name(g));
}

// Checks that the diagnostics are exactly `count` failures, all of `clause`, and that one
// of them names `field` and shows `value` (substrings), says what is allowed, and reads
// "<Mnemonic>: <clause>: <field> = <value>, <allowed>".
inline ::testing::AssertionResult fails_alone(const Diagnostics& d, Opcode op,
                                              std::string_view clause, std::string_view field,
                                              std::string_view value, std::string_view allowed = {},
                                              std::size_t count = 1) {
  if (d.size() != count)
    return ::testing::AssertionFailure()
           << "expected " << count << " x " << clause << ", got" << describe(d);
  for (const Diagnostic& x : d)
    if (x.clause != clause || x.instruction != mnemonic(op))
      return ::testing::AssertionFailure() << "expected only " << clause << ", got" << describe(d);
  for (const Diagnostic& x : d) {
    if (x.field.find(field) == std::string::npos || x.value.find(value) == std::string::npos ||
        x.allowed.empty() || x.allowed.find(allowed) == std::string::npos)
      continue;
    const std::string head = mnemonic(op) + ": " + std::string(clause) + ": " + x.field + " = ";
    if (x.message().rfind(head, 0) != 0 || x.message().find(x.value) == std::string::npos ||
        x.message().find(x.allowed) == std::string::npos)
      return ::testing::AssertionFailure() << "badly formed message: " << x.message();
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "no diagnostic names field '" << field << "' with value '" << value << "' (allowed '"
         << allowed << "'):" << describe(d);
}

// Returns the clause names of the diagnostics, sorted (a multiset).
inline std::vector<std::string> clauses_of(const Diagnostics& d) {
  std::vector<std::string> c;
  for (const Diagnostic& x : d) c.push_back(x.clause);
  std::sort(c.begin(), c.end());
  return c;
}

// ---- clause cases: one mutation per case, failing one clause alone -----------------------

struct ClauseCase {
  std::string name;  // test name
  Opcode op;
  std::function<void(Word&)> mutate;
  std::string clause;
  std::string field;                  // the diagnostic's field contains this
  std::string value;                  // its value contains this
  std::string allowed = {};           // its allowed text contains this
  std::size_t count = 1;              // how many diagnostics (all of `clause`)
  std::vector<Generation> gens = {};  // empty: every generation where the opcode exists
  bool strict = false;
  std::optional<Engine> engine = {};  // the engine input (SPEC §3.9); empty: the default
};

inline void PrintTo(const ClauseCase& c, std::ostream* os) {
  *os << c.name;
}

inline constexpr auto RS = Opcode::RangeSelect;
inline constexpr auto TSS = Opcode::TensorScalarSelect;
inline constexpr auto GSB = Opcode::GetSequenceBounds;
inline constexpr auto SORT = Opcode::Sort;
inline constexpr auto NWC = Opcode::NonzeroWithCount;
inline constexpr auto CPS = Opcode::CopyPredicatedScalar;
inline constexpr auto DRA = Opcode::DveReadAccumulator;
inline constexpr auto AS = Opcode::AffineSelect;
inline constexpr auto IOTA = Opcode::Iota;
inline constexpr auto MVL = Opcode::MatchValueLoad;
inline constexpr auto MAX8 = Opcode::Max8;
inline constexpr auto FI8 = Opcode::FindIndex8;
inline constexpr auto MR8 = Opcode::MatchReplace8;
inline constexpr auto CP = Opcode::Copy;
inline constexpr auto CA = Opcode::Cast;

inline uint64_t code(Dtype d) {
  return static_cast<uint8_t>(d);
}
inline uint64_t code(AluOp a) {
  return static_cast<uint8_t>(a);
}
inline std::string hex8_of(unsigned v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02x", v);
  return buf;
}
inline std::string name_of(Dtype d) {
  return std::string(*dtype_name(static_cast<uint8_t>(d)));
}
inline std::string name_of(AluOp a) {
  return std::string(*alu_op_name(static_cast<uint8_t>(a)));
}
inline std::string fmt_hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%#llx", static_cast<unsigned long long>(v));
  return v == 0 ? std::string("0x0") : std::string(buf);
}

// ---- TensorScalar (SPEC §4.15) and TensorTensor (SPEC §4.14): what their cases share -------

// ---- TensorScalar (SPEC §4.15): 3 channels from partition 4, 8 elements ---------------------
// The arith words read FP16 and write FP32, dst = (x - 1.0) * 0.5; the bitvec words are
// INT16, dst = (x & 0xff) << 4; the pointer forms read imm0/imm1 at partition 4 offsets
// 0x600 and 0x604 (test_words.h).

inline constexpr auto TSA = Opcode::TensorScalarArith;
inline constexpr auto TSB = Opcode::TensorScalarBitvec;
inline constexpr auto TSPA = Opcode::TensorScalarPtrArith;
inline constexpr auto TSPB = Opcode::TensorScalarPtrBitvec;
inline constexpr Opcode kTensorScalarOps[] = {TSA, TSB, TSPA, TSPB};

inline std::string ts_prefix(Opcode op) {
  switch (op) {
    case TSA:
      return "tsa_";
    case TSB:
      return "tsb_";
    case TSPA:
      return "tspa_";
    default:
      return "tspb_";
  }
}
inline bool ts_bitvec(Opcode op) {
  return op == TSB || op == TSPB;
}

// ---- TensorTensorArith / TensorTensorBitvec (SPEC §4.14), on the default engine (DVE) ----
//
// valid_word(Opcode::TensorTensorArith): 3 channels from partition 2, BF16 + FP32 -> FP32, ADD;
// valid_word(Opcode::TensorTensorBitvec): 2 channels from partition 1, UINT16 BITWISE_AND.
inline constexpr auto TTA = Opcode::TensorTensorArith;
inline constexpr auto TTB = Opcode::TensorTensorBitvec;

inline void set_tt(Word& w, Dtype lo, Dtype hi, Dtype out) {
  set(w, "in0_in1_dtype", dtype_pair(lo, hi));
  set(w, "out_dtype", code(out));
}

// A mutation SPEC ties to more than one clause: the exact multiset of clauses reported.
struct ForcedCase {
  std::string name;
  Opcode op;
  std::function<void(Word&)> mutate;
  std::vector<std::string> clauses;  // the exact multiset reported
};

inline void PrintTo(const ForcedCase& c, std::ostream* os) {
  *os << c.name;
}

// A mutation that stays valid: what a clause accepts.
struct ValidCase {
  std::string name;
  Opcode op;
  std::function<void(Word&)> mutate;
  std::vector<Generation> gens = {};  // empty: every generation where the opcode exists
};

inline void PrintTo(const ValidCase& c, std::ostream* os) {
  *os << c.name;
}

// Each clause case runs on every generation where its opcode exists (or its own ones).
class ClauseFailsAlone : public ::testing::TestWithParam<ClauseCase> {};

// The cases of `all` that are of opcode `op` (an instruction's share of its family's).
inline std::vector<ClauseCase> cases_of(Opcode op, std::vector<ClauseCase> all) {
  std::vector<ClauseCase> out;
  for (ClauseCase& c : all)
    if (c.op == op) out.push_back(std::move(c));
  return out;
}

// Registers an instruction's clause cases for the coverage test (ClauseCoverage).
struct ClauseCaseSet {
  explicit ClauseCaseSet(std::vector<ClauseCase> (*cases)());
};
const std::vector<std::vector<ClauseCase> (*)()>& clause_case_sets();

}  // namespace gpsimd::validate_cases

namespace gpsimd {
using namespace validate_cases;
}  // namespace gpsimd

// Instantiates ClauseFailsAlone with an instruction's clause cases (a function returning
// them), as the test suite <Mnemonic>/ClauseFailsAlone, and registers them for coverage.
#define GPSIMD_CLAUSE_CASES(Mnemonic, cases)                                         \
  INSTANTIATE_TEST_SUITE_P(Mnemonic, ClauseFailsAlone, ::testing::ValuesIn(cases()), \
                           [](const auto& p) { return p.param.name; });              \
  const ::gpsimd::validate_cases::ClauseCaseSet Mnemonic##ClauseCases(cases)
