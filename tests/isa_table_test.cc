// Tests of the instruction table (include/gpsimd/isa.h) against SPEC §1 and §4.
//
// The expected layouts below are written out by hand from SPEC §4's tables (a field's
// size is the next field's offset minus its own), not copied from isa.h.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/explain.h"
#include "gpsimd/isa.h"
#include "gpsimd/validate.h"
#include "instructions/registry.h"
#include "ops/op.h"
#include "ops/operands.h"

namespace gpsimd {
namespace {

using K = FieldKind;
using expected_rows::ExpectedField;
using expected_rows::ExpectedInstr;

// SPEC §1 and §4: the expected row of every instruction, each written out by hand in the
// instruction's file (tests/instructions/).
const std::vector<ExpectedInstr>& expected_table() {
  static const std::vector<ExpectedInstr> t = [] {
    std::vector<ExpectedInstr> v;
    for (const test_registry::InstructionTests* e : test_registry::all())
      v.push_back(e->expected_row());
    return v;
  }();
  return t;
}

const ExpectedInstr& expected_for(std::string_view mnemonic) {
  for (const ExpectedInstr& e : expected_table())
    if (e.mnemonic == mnemonic) return e;
  ADD_FAILURE() << "no expected row for " << mnemonic << " (tests/instructions/)";
  return expected_table().front();
}

// Compile-time field lookups resolve to SPEC's offsets (a misspelt field name would not
// compile at all).
static_assert(field_of(table::kRangeSelect, "fill_val").offset == 20);
static_assert(field_of(table::kTensorScalarSelect, "pred_imm").offset == 44);
static_assert(field_of(table::kGetSequenceBounds, "dst_mem_pattern").offset == 32);
static_assert(field_of(table::kSort, "stable").offset == 40);
static_assert(field_of(table::kNonzeroWithCount, "padding_val").offset == 40);
static_assert(field_of(table::kCopyPredicatedScalar, "src0_imm").offset == 44);
static_assert(field_of(table::kDveReadAccumulator, "dst_element_count").offset == 28);
static_assert(field_of(table::kAffineSelect, "channel_multiplier").offset == 60);
static_assert(field_of(table::kIota, "dst_mem_pattern").offset == 44);
static_assert(field_of(table::kTensorTensorArith, "src1_mem_pattern").offset == 32);
static_assert(field_of(table::kTensorTensorBitvec, "op").offset == 14);
static_assert(field_of(table::kTensorScalarArith, "reverse_operands").offset == 38);
static_assert(field_of(table::kTensorScalarBitvec, "imm1").offset == 44);
static_assert(field_of(table::kTensorScalarPtrArith, "imm0").offset == 40);
static_assert(field_of(table::kTensorScalarPtrBitvec, "imm1_src").offset == 39);

TEST(IsaTable, HasExactlyTheInstructionsOfSpec) {
  std::set<std::string_view> got, want;
  for (const InstrDef& d : instructions()) got.insert(d.mnemonic);
  for (const ExpectedInstr& e : expected_table()) want.insert(e.mnemonic);
  EXPECT_EQ(got, want);
  EXPECT_EQ(instructions().size(), expected_table().size());
}

class IsaRow : public ::testing::TestWithParam<std::string_view> {
 protected:
  const InstrDef& def() const {
    const InstrDef* d = find_instruction(GetParam());
    if (d == nullptr) {
      ADD_FAILURE() << "no row for " << GetParam();
      return instructions().front();
    }
    return *d;
  }
  const ExpectedInstr& want() const { return expected_for(GetParam()); }
};

TEST_P(IsaRow, RowMatchesSpecSection1) {
  const InstrDef& d = def();
  const ExpectedInstr& e = want();
  EXPECT_EQ(d.mnemonic, e.mnemonic);
  EXPECT_EQ(static_cast<unsigned>(d.opcode), e.opcode);
  EXPECT_EQ(d.struct_name, e.struct_name);
  EXPECT_EQ(d.engine, e.engine);
  for (Generation g : kAllGenerations) {
    const bool want_exists =
        std::find(e.generations.begin(), e.generations.end(), g) != e.generations.end();
    EXPECT_EQ(d.exists_on(g), want_exists) << generation_name(g);
  }
}

TEST_P(IsaRow, FieldsMatchSpecSection4) {
  const InstrDef& d = def();
  const ExpectedInstr& e = want();
  ASSERT_EQ(d.fields.size(), e.fields.size());
  for (std::size_t i = 0; i < e.fields.size(); ++i) {
    const FieldDef& f = d.fields[i];
    const ExpectedField& x = e.fields[i];
    SCOPED_TRACE(std::string(x.name));
    EXPECT_EQ(f.name, x.name);
    EXPECT_EQ(unsigned{f.offset}, x.offset);
    EXPECT_EQ(unsigned{f.size}, x.size);
    EXPECT_EQ(f.kind, x.kind) << field_kind_name(f.kind) << " vs " << field_kind_name(x.kind);
    EXPECT_EQ(unsigned{f.dims}, x.dims);
    EXPECT_EQ(f.src_field, x.src_field);
  }
}

TEST_P(IsaRow, EveryByteIsCoveredExactlyOnce) {
  std::array<int, kWordBytes> cover{};
  for (const FieldDef& f : def().fields) {
    ASSERT_LE(std::size_t{f.offset} + f.size, kWordBytes) << f.name;
    for (unsigned b = f.offset; b < f.offset + f.size; ++b) ++cover[b];
  }
  for (unsigned b = 0; b < kWordBytes; ++b) EXPECT_EQ(cover[b], 1) << "byte " << b;
}

TEST_P(IsaRow, FieldRowsAreConsistent) {
  const InstrDef& d = def();
  std::set<std::string_view> names;
  for (const FieldDef& f : d.fields) {
    SCOPED_TRACE(std::string(f.name));
    EXPECT_TRUE(names.insert(f.name).second) << "duplicate field name";
    // SPEC §3.5: TENSOR{N}D is 4 + 4N bytes, N in 1..4; §3.7: DATA4D is 20 bytes.
    if (f.kind == K::Tensor) {
      EXPECT_GE(unsigned{f.dims}, 1u);
      EXPECT_LE(unsigned{f.dims}, 4u);
      EXPECT_EQ(unsigned{f.size}, 4u + 4u * f.dims);
    } else if (f.kind == K::Data4D) {
      EXPECT_EQ(unsigned{f.dims}, 4u);
      EXPECT_EQ(unsigned{f.size}, 20u);
    } else {
      EXPECT_EQ(unsigned{f.dims}, 0u);
    }
    // An IMM_VAL names the IMM_SRC field of the same instruction that says how to read it.
    if (f.kind == K::ImmVal) {
      const FieldDef* src = find_field(d.fields, f.src_field);
      ASSERT_NE(src, nullptr);
      EXPECT_EQ(src->kind, K::ImmSrc);
      EXPECT_EQ(unsigned{f.size}, 4u);
    } else {
      EXPECT_TRUE(f.src_field.empty());
    }
    EXPECT_EQ(find_field(d.fields, f.name), &f);
  }
  EXPECT_EQ(find_field(d.fields, "no_such_field"), nullptr);
}

TEST_P(IsaRow, LookupsFindTheRow) {
  const InstrDef& d = def();
  EXPECT_EQ(find_instruction(static_cast<uint8_t>(d.opcode)), &d);
  EXPECT_EQ(&instruction(d.opcode), &d);
  std::string lower(d.mnemonic), upper(d.mnemonic);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(find_instruction(std::string_view(lower)), &d);
  EXPECT_EQ(find_instruction(std::string_view(upper)), &d);
  EXPECT_EQ(find_instruction(std::string_view(lower).substr(1)), nullptr);
}

TEST_P(IsaRow, DefaultFieldsAreHeaderOnly) {
  const InstrDef& d = def();
  EXPECT_EQ(default_header(d.opcode), static_cast<uint32_t>(want().opcode) | 0x1000u);
  EncodeResult r = encode(default_fields(d));
  ASSERT_FALSE(r.error) << *r.error;
  Word expect{};
  expect[0] = want().opcode;
  expect[1] = 0x10;  // SPEC §3.1: the length in 32-bit words
  EXPECT_EQ(r.word, expect);
}

// SPEC §4's (and §6's) names of the opcode clauses, written out by hand in each
// instruction's file.
std::string_view expected_opcode_clause(std::string_view mnemonic) {
  const test_registry::InstructionTests* t = test_registry::find(mnemonic);
  return t == nullptr ? std::string_view("(none written)") : t->opcode_clause;
}

// Every row points to its semantics, defined in its own file under src/ops/ (named as the
// mnemonic in snake case), so adding a row without them fails here.
TEST_P(IsaRow, HasSemanticsInItsOpFile) {
  const InstrDef& d = def();
  ASSERT_NE(d.semantics, nullptr);
  const detail::OpSemantics& ops = detail::semantics(d);
  EXPECT_NE(ops.validate, nullptr);
  EXPECT_NE(ops.execute, nullptr);
  EXPECT_NE(ops.explain, nullptr);
  EXPECT_NE(ops.sample, nullptr);
  EXPECT_NE(ops.operands, nullptr)
      << d.mnemonic << " (opcode 0x" << std::hex << static_cast<int>(d.opcode) << std::dec
      << ") has no operand declaration: SPEC §8.5 says what every instruction may read and "
         "write, and resolution, the Writer's sources and the footprint the race detector of "
         "programs (run_queues) needs all derive from the family's declaration "
         "(src/ops/operands.h). Declare its operands in its op file (tensor_operand, "
         "immediate_operand, accumulators_of, ...) and point its OpSemantics' `operands` at "
         "them; footprint_test then checks the footprint against the trace for random words.";
  EXPECT_EQ(ops.sample_label.substr(0, d.mnemonic.size()), d.mnemonic) << ops.sample_label;
  EXPECT_EQ(d.opcode_clause, expected_opcode_clause(d.mnemonic));
  // SPEC §4.4: strict mode adds Sort's top-K rule and changes no other instruction.
  EXPECT_EQ(d.strict_adds_clauses, d.mnemonic == "Sort");
  std::string snake;
  for (char c : d.mnemonic) {
    if (std::isupper(static_cast<unsigned char>(c)) && !snake.empty()) snake += '_';
    snake += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  // Its OpSemantics is defined in exactly one op file: its own (<snake_case>.cc) or its
  // family's (tensor_scalar.cc holds the four TensorScalar opcodes), whose opening
  // comment names it.
  const std::string definition = "table::k" + std::string(d.mnemonic) + "Ops =";
  std::vector<std::filesystem::path> defined_in;
  for (const auto& e : std::filesystem::directory_iterator(
           std::filesystem::path(GPSIMD_SOURCE_DIR) / "src" / "ops")) {
    if (e.path().extension() != ".cc") continue;
    std::ifstream in(e.path());
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find(definition) == std::string::npos) continue;
    defined_in.push_back(e.path());
    if (e.path().stem() != snake) {
      EXPECT_NE(text.substr(0, text.find("\n#include")).find(std::string(d.mnemonic) + " ("),
                std::string::npos)
          << e.path() << " holds " << d.mnemonic << "'s semantics: its opening comment must say "
          << "what " << d.mnemonic << " does";
    }
  }
  EXPECT_EQ(defined_in.size(), 1u)
      << d.mnemonic << ": define " << definition << " in one file under src/ops/";
}

// The sample word (the one tools, fuzzers and the bench start from) validates clean on
// every generation where the instruction exists, in default and strict mode, and in
// every partition; it retires on a fresh machine, and explain() describes it.
TEST_P(IsaRow, SampleWordIsValidAndRuns) {
  const InstrDef& d = def();
  const detail::OpSemantics& ops = detail::semantics(d);
  for (unsigned p : {0u, 3u, 127u}) {
    const Word w = ops.sample(p);
    EXPECT_EQ(w[0], static_cast<uint8_t>(d.opcode));
    for (Generation g : kAllGenerations) {
      if (!d.exists_on(g)) continue;
      SCOPED_TRACE(std::string(generation_name(g)) + " partition " + std::to_string(p));
      for (bool strict : {false, true}) {
        const Diagnostics diags = validate(w, g, ValidateOptions{strict});
        EXPECT_TRUE(diags.empty()) << (diags.empty() ? "" : diags[0].message());
      }
      Machine m(g);
      const ExecResult r = execute(m, w);
      // SPEC §4.21, §4.25: ScalarTensorTensorBitvec never runs, SelectReduce not on V2;
      // their valid words fault unsupported-op.
      if (d.opcode == Opcode::ScalarTensorTensorBitvec ||
          (d.opcode == Opcode::SelectReduce && g == Generation::V2)) {
        ASSERT_TRUE(r.fault) << r.message();
        EXPECT_EQ(r.fault->kind, FaultKind::UnsupportedOp) << r.message();
      } else {
        EXPECT_TRUE(r.ok()) << r.message();
      }
      std::set<std::string> labels;
      for (const ExplainLine& line : explain(w, m)) {
        labels.insert(line.label);
        EXPECT_FALSE(line.text.empty()) << line.label;
      }
      EXPECT_TRUE(labels.count("channels") && labels.count("effect")) << d.mnemonic;
    }
  }
}

// The rows the suite runs: SPEC's, from the expected table (a row missing from either
// side fails HasExactlyTheInstructionsOfSpec).
std::vector<std::string_view> expected_mnemonics() {
  std::vector<std::string_view> out;
  for (const ExpectedInstr& e : expected_table()) out.push_back(e.mnemonic);
  return out;
}

INSTANTIATE_TEST_SUITE_P(All, IsaRow, ::testing::ValuesIn(expected_mnemonics()),
                         [](const auto& p) { return std::string(p.param); });

// The bytes of two field lists mean the same: names, offsets, sizes, kinds, dimensions and
// *_src fields agree row by row (how an immediate is written may differ).
bool same_layout(std::span<const FieldDef> a, std::span<const FieldDef> b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const FieldDef& x, const FieldDef& y) {
                      return x.name == y.name && x.offset == y.offset && x.size == y.size &&
                             x.kind == y.kind && x.dims == y.dims && x.src_field == y.src_field;
                    });
}

TEST(IsaTable, SameLayoutComparesFields) {
  EXPECT_TRUE(same_layout(table::kTensorScalarArith, table::kTensorScalarPtrBitvec));
  EXPECT_TRUE(same_layout(table::kMax8, table::kFindIndex8));
  EXPECT_FALSE(same_layout(table::kMax8, table::kMatchReplace8));
  EXPECT_FALSE(same_layout(table::kTensorScalarArith, table::kTensorScalarSelect));
}

// SPEC §3.9: the instructions of §4.14-§4.17 take the engine as an input; the others run
// on the engine of their row (TensorScalarCacheCumulative, §4.24, on DVE whatever is given).
TEST(IsaTable, TensorScalarTakesTheEngineAsInput) {
  for (const InstrDef& d : instructions()) {
    const bool input = d.mnemonic.starts_with("TensorScalar") &&
                       d.mnemonic != "TensorScalarSelect" &&
                       d.mnemonic != "TensorScalarCacheCumulative";
    if (!input) continue;
    EXPECT_TRUE(d.engine_input) << d.mnemonic;
    EXPECT_EQ(d.engine_for(std::nullopt), Engine::DVE) << d.mnemonic;
    EXPECT_EQ(d.engine_for(Engine::POOL), Engine::POOL) << d.mnemonic;
  }
  EXPECT_FALSE(instruction(Opcode::TensorScalarSelect).engine_input);
  EXPECT_FALSE(instruction(Opcode::TensorScalarCacheCumulative).engine_input);
  EXPECT_EQ(instruction(Opcode::TensorScalarCacheCumulative).engine_for(Engine::POOL), Engine::DVE);
}

TEST(IsaTable, OpcodesAndMnemonicsAreUnique) {
  std::set<uint8_t> opcodes;
  std::set<std::string_view> names;
  std::map<std::string_view, std::span<const FieldDef>> structs;
  for (const InstrDef& d : instructions()) {
    EXPECT_TRUE(opcodes.insert(static_cast<uint8_t>(d.opcode)).second) << d.mnemonic;
    EXPECT_TRUE(names.insert(d.mnemonic).second) << d.mnemonic;
    // A struct name appears twice only for one layout (S4D2_BN: Max8 and FindIndex8;
    // S3D3_TS: the four TensorScalar opcodes, whose rows differ only in how an immediate
    // is written): the same fields at the same offsets, sizes and kinds.
    auto [it, fresh] = structs.emplace(d.struct_name, d.fields);
    EXPECT_TRUE(fresh || same_layout(it->second, d.fields)) << d.mnemonic;
  }
}

// SPEC §1 and §6: every opcode other than the modelled ones (SortMerge 0x97 included) is
// unknown:
// it does not decode and validates with the single clause has_known_opcode.
TEST(IsaTable, UnknownOpcodesDecodeAsNulloptAndFailHasKnownOpcode) {
  const std::set<unsigned> known = {0x96, 0x98, 0xbc, 0xbe, 0x92, 0x7e, 0x9b, 0xe8, 0xf2, 0x6c,
                                    0x6d, 0x6e, 0x6f, 0x41, 0x51, 0x43, 0x53, 0x44, 0x54, 0x46,
                                    0x47, 0x49, 0x42, 0x52, 0x72, 0xe6, 0xe5, 0x9d, 0x9e, 0xea};

  unsigned unknown = 0;
  for (unsigned op = 0; op < 256; ++op) {
    Word w{};
    w[0] = static_cast<uint8_t>(op);
    w[1] = 0x10;
    if (known.count(op)) {
      EXPECT_NE(find_instruction(static_cast<uint8_t>(op)), nullptr) << op;
      EXPECT_TRUE(decode(w).has_value()) << op;
      continue;
    }
    ++unknown;
    SCOPED_TRACE(op);
    EXPECT_EQ(find_instruction(static_cast<uint8_t>(op)), nullptr);
    EXPECT_FALSE(decode(w).has_value());
    for (Generation g : kAllGenerations) {
      const Diagnostics diags = validate(w, g);
      ASSERT_EQ(diags.size(), 1u);
      EXPECT_EQ(diags[0].clause, "has_known_opcode");
      EXPECT_EQ(diags[0].instruction, "unknown");
      EXPECT_EQ(diags[0].field, "header");
      EXPECT_FALSE(diags[0].allowed.empty());
    }
  }
  EXPECT_EQ(unknown, 256u - known.size());
}

// SPEC §1, §3.9: Copy and Cast take the engine as an input (any of the three, POOL when
// none is given); the instructions of §4.1-§4.13 run on the engine of their row.
TEST(IsaTable, CopyAndCastTakeTheEngineAsAnInput) {
  for (const InstrDef& d : instructions()) {
    if (d.mnemonic != "Copy" && d.mnemonic != "Cast") continue;
    EXPECT_TRUE(d.engine_input) << d.mnemonic;
    EXPECT_EQ(d.engine_for(std::nullopt), Engine::POOL);
    for (Engine e : kAllEngines) EXPECT_EQ(d.engine_for(e), e);
  }
  // The same layout: one field array.
  EXPECT_EQ(instruction(Opcode::Copy).fields.data(), instruction(Opcode::Cast).fields.data());
}

TEST(IsaTable, SortMergeIsUnknownWhateverTheOtherBytes) {
  for (uint8_t op : {uint8_t{0x97}, uint8_t{0x00}, uint8_t{0xff}, uint8_t{0xbd}}) {
    Word w;
    w.fill(0xa5);
    w[0] = op;
    EXPECT_FALSE(decode(w).has_value());
    const Diagnostics diags = validate(w, Generation::V3, ValidateOptions{true});
    ASSERT_EQ(diags.size(), 1u);
    EXPECT_EQ(diags[0].clause, "has_known_opcode");
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02x", op);
    EXPECT_NE(diags[0].message().find(hex), std::string::npos) << diags[0].message();
  }
}

// SPEC §1, §3.9: the engine is an input of TensorTensorArith and TensorTensorBitvec (DVE
// when none is given); every instruction of §4.1-§4.13 runs on its own row's engine.
TEST(IsaTable, TheEngineIsAnInputOfTheRowsOf414To417) {
  // SPEC §3.9: the instructions of §4.14-§4.19 take the engine as an input.
  const std::set<std::string_view> with_input = {"TensorTensorArith",
                                                 "TensorTensorBitvec",
                                                 "TensorScalarArith",
                                                 "TensorScalarBitvec",
                                                 "TensorScalarPtrArith",
                                                 "TensorScalarPtrBitvec",
                                                 "Copy",
                                                 "Cast",
                                                 "Memset",
                                                 "TensorReduceArith",
                                                 "TensorReduceBitvec"};
  for (const InstrDef& d : instructions()) {
    SCOPED_TRACE(std::string(d.mnemonic));
    const bool input = with_input.count(d.mnemonic) != 0;
    EXPECT_EQ(d.engine_input, input);
    EXPECT_EQ(d.engine_for(std::nullopt), d.engine);
    for (Engine e : kAllEngines) EXPECT_EQ(d.engine_for(e), input ? e : d.engine);
  }
  EXPECT_EQ(instruction(Opcode::TensorTensorArith).engine, Engine::DVE);
  EXPECT_EQ(instruction(Opcode::TensorTensorBitvec).engine, Engine::DVE);
  // The two rows share one layout (S3S3D3_TT).
  EXPECT_EQ(instruction(Opcode::TensorTensorArith).fields.data(),
            instruction(Opcode::TensorTensorBitvec).fields.data());
}

// The engine table (isa.h's kEngines) against SPEC §3.9 and §7, written out by hand: a
// row per Engine value, in the enum's order, and the names, the parsing, the texts and the
// PSUM rule all from it.
TEST(EngineTable, HasARowPerEngineOfSpec) {
  struct Expected {
    Engine engine;
    std::string_view id, name, nki, alias;
    bool psum;
  };
  const std::vector<Expected> expected = {
      {Engine::DVE, "dve", "DVE", "vector", "", true},
      {Engine::POOL, "pool", "POOL", "gpsimd", "", false},
      {Engine::ACT, "act", "ACT", "scalar", "activation", true},
  };
  ASSERT_EQ(kEngineCount, expected.size());
  ASSERT_EQ(kEngines.size(), kEngineCount);
  ASSERT_EQ(kAllEngines.size(), kEngineCount);
  for (std::size_t i = 0; i < kEngineCount; ++i) {
    const Expected& x = expected[i];
    SCOPED_TRACE(std::string(x.id));
    // Row i is Engine(i), and kAllEngines lists the rows in order.
    EXPECT_EQ(static_cast<std::size_t>(x.engine), i);
    EXPECT_EQ(kEngines[i].engine, x.engine);
    EXPECT_EQ(kAllEngines[i], x.engine);
    EXPECT_EQ(&engine_def(x.engine), &kEngines[i]);
    EXPECT_EQ(kEngines[i].id, x.id);
    EXPECT_EQ(kEngines[i].name, x.name);
    EXPECT_EQ(kEngines[i].nki_name, x.nki);
    EXPECT_EQ(kEngines[i].nki_alias, x.alias);
    EXPECT_EQ(engine_id(x.engine), x.id);
    EXPECT_EQ(engine_name(x.engine), x.name);
    // SPEC §3.9 item 1: every engine but POOL may touch PSUM; a PSUM write needs 4 bytes.
    EXPECT_EQ(kEngines[i].touches_psum, x.psum);
    for (AccessKind a : {AccessKind::Read, AccessKind::Write, AccessKind::ReadWrite}) {
      EXPECT_EQ(detail::operand_rule(x.engine, a).allow_psum, x.psum);
      EXPECT_EQ(detail::operand_rule(x.engine, a).write, a != AccessKind::Read);
    }
  }
  EXPECT_EQ(engine_id(static_cast<Engine>(kEngineCount)), "?");
  EXPECT_EQ(engine_name(static_cast<Engine>(kEngineCount)), "?");
}

TEST(EngineTable, NamesAreDistinctAndRoundTrip) {
  std::set<std::string> seen;  // every name the lenient parser accepts, lower case
  const auto upper = [](std::string_view s) {
    std::string u(s);
    for (char& c : u) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return u;
  };
  for (const EngineDef& d : kEngines) {
    SCOPED_TRACE(std::string(d.id));
    for (std::string_view n : {d.id, d.nki_name, d.nki_alias}) {
      if (n.empty()) continue;
      EXPECT_TRUE(seen.insert(std::string(n)).second) << n << " names two engines";
      EXPECT_EQ(parse_engine(n), d.engine) << n;
      EXPECT_EQ(parse_engine(upper(n)), d.engine) << n;
    }
    EXPECT_FALSE(d.nki_name.empty());
    EXPECT_EQ(parse_engine_id(d.id), d.engine);
    EXPECT_EQ(parse_engine_id(engine_id(d.engine)), d.engine);
    // The exact parser takes the ids alone: not another case, not NKI's names.
    EXPECT_EQ(parse_engine_id(upper(d.id)), std::nullopt);
    EXPECT_EQ(parse_engine_id(d.nki_name), std::nullopt);
    EXPECT_EQ(parse_engine_id(std::string(d.id) + " "), std::nullopt);
  }
  std::set<std::string_view> names;
  for (const EngineDef& d : kEngines) EXPECT_TRUE(names.insert(d.name).second) << d.name;
  for (std::string_view s : {"", "tensor", "dma", "sync", "DVE ", "vec", "pool:0"}) {
    EXPECT_EQ(parse_engine(s), std::nullopt) << s;
    EXPECT_EQ(parse_engine_id(s), std::nullopt) << s;
  }
}

TEST(EngineTable, TextsListTheRows) {
  EXPECT_EQ(kEngineIdsText, "dve, pool or act");
  EXPECT_EQ(kEngineIdsAndText, "dve, pool and act");
  EXPECT_EQ(kEngineIdsQuotedText, "\"dve\", \"pool\" or \"act\"");
  EXPECT_EQ(kEngineIdsQuotedAndText, "\"dve\", \"pool\" and \"act\"");
  EXPECT_EQ(kEngineNamesText, "dve, pool or act (NKI's vector, gpsimd, scalar)");
}

}  // namespace
}  // namespace gpsimd
