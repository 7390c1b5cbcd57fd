// Decodes, validates and disassembles arbitrary 64-byte words (the input's first 64 bytes,
// zero-padded), and checks:
//  - decode succeeds exactly for the table's opcodes, and encode(decode(w)) == w;
//  - an unknown opcode fails validation with the single clause has_known_opcode;
//  - every diagnostic names its instruction, clause, field, value and what is allowed;
//  - the generations nest as SPEC §2 and §3.3 say: a word valid on V2 is valid on V3
//    (larger SBUF, every V2 instruction and ALU_OP exists on V3), one valid on V3 is valid
//    on V4, and V4 and V5 (same geometry, same instructions) report the same diagnostics
//    but where V5's one more ALU_OP enumerator (SYMMETRIC_CLAMP, 0x24) or the text of the
//    enumerator set (is_valid_enum's `allowed`) makes them differ;
//  - the engine input (SPEC §3.9): the instructions that take one validate the same on
//    DVE and ACT (the same memory rules), on their default engine as without one, and a
//    word valid on POOL is valid on DVE; every other instruction ignores it;
//  - strict validation only adds clauses where the table row says so (SPEC §4.4: Sort's
//    top-K): such a word valid in strict mode is valid by default, and other words get
//    the same diagnostics (on one generation per input, picked by byte 63);
//  - validate_as(def, w) of an instruction whose opcode w does not carry reports the
//    instruction's opcode clause (one such instruction per input, picked by byte 62);
//  - disassemble(w) exists exactly for the table's opcodes and assembles back to w.
#include <array>
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_util.h"
#include "gpsimd/alu.h"
#include "gpsimd/asm.h"
#include "gpsimd/isa.h"
#include "gpsimd/validate.h"

namespace gpsimd::fuzz {
namespace {

void check_diagnostics(const Diagnostics& ds, const InstrDef* def, const Word& w) {
  for (const Diagnostic& d : ds) {
    GPSIMD_FUZZ_CHECK(d.instruction == (def ? std::string(def->mnemonic) : "unknown"),
                      "word {}: diagnostic names instruction '{}'", word_to_hex(w), d.instruction);
    GPSIMD_FUZZ_CHECK(
        !d.clause.empty() && !d.field.empty() && !d.value.empty() && !d.allowed.empty(),
        "word {}: incomplete diagnostic '{}'", word_to_hex(w), d.message());
    GPSIMD_FUZZ_CHECK(d.message().find(d.clause) != std::string::npos,
                      "word {}: message '{}' lacks its clause", word_to_hex(w), d.message());
  }
}

std::string text(const Diagnostics& ds) {
  std::string s;
  for (const Diagnostic& d : ds) s += "\n  " + d.message();
  return s;
}

// The diagnostics with the `allowed` text of every clause on an ALU_OP field left out: it
// names the generation's op sets (is_valid_enum's enumerators, TensorScalar's
// tensor_scalar_valid_ops with V5's integer set), which grow from V4 to V5.
Diagnostics without_enumerator_sets(const InstrDef* def, Diagnostics ds) {
  if (def == nullptr) return ds;
  for (Diagnostic& d : ds) {
    const FieldDef* f = find_field(def->fields, d.field);
    if (f != nullptr && f->kind == FieldKind::AluOp) d.allowed.clear();
  }
  return ds;
}

}  // namespace

void run_one(const uint8_t* data, std::size_t size) {
  Word w{};
  std::memcpy(w.data(), data, std::min(size, w.size()));
  const std::string hex = word_to_hex(w);
  const InstrDef* def = find_instruction(w[0]);

  const auto d = decode(w);
  GPSIMD_FUZZ_CHECK(d.has_value() == (def != nullptr), "word {}: decode", hex);
  if (d) {
    GPSIMD_FUZZ_CHECK(d->def == def && d->values.size() == def->fields.size(),
                      "word {}: decoded row", hex);
    const EncodeResult e = encode(*d);
    GPSIMD_FUZZ_CHECK(!e.error, "word {}: encode(decode(w)) failed: {}", hex, *e.error);
    GPSIMD_FUZZ_CHECK(e.word == w, "word {}: encode(decode(w)) = {}", hex, word_to_hex(e.word));
  }

  Diagnostics by_gen[4];
  for (Generation g : kAllGenerations) {
    Diagnostics ds = validate(w, g);
    check_diagnostics(ds, def, w);
    if (def == nullptr)
      GPSIMD_FUZZ_CHECK(ds.size() == 1 && ds[0].clause == "has_known_opcode",
                        "word {}: unknown opcode gave{}", hex, text(ds));
    by_gen[static_cast<unsigned>(g) - 2] = std::move(ds);
  }
  GPSIMD_FUZZ_CHECK(!by_gen[0].empty() || by_gen[1].empty(), "word {}: valid on v2, not on v3:{}",
                    hex, text(by_gen[1]));
  GPSIMD_FUZZ_CHECK(!by_gen[1].empty() || by_gen[2].empty(), "word {}: valid on v3, not on v4:{}",
                    hex, text(by_gen[2]));
  GPSIMD_FUZZ_CHECK(!by_gen[2].empty() || by_gen[3].empty(), "word {}: valid on v4, not on v5:{}",
                    hex, text(by_gen[3]));
  // V4 and V5 differ only in the ALU_OP enumerators (SPEC §3.3: V5 adds SYMMETRIC_CLAMP)
  // and in what V5 lets through for them: TensorScalar's integer arm (§4.15, the ops of
  // is_valid_int_aluop_dve). A word holding neither validates alike on both.
  bool v5_differs = false;
  if (def != nullptr)
    for (const FieldDef& f : def->fields)
      if (f.kind == FieldKind::AluOp &&
          (w[f.offset] == static_cast<uint8_t>(AluOp::SYMMETRIC_CLAMP) ||
           (def->engine_input && alu::is_valid_int_aluop_dve(w[f.offset]))))
        v5_differs = true;
  if (!v5_differs)
    GPSIMD_FUZZ_CHECK(
        without_enumerator_sets(def, by_gen[2]) == without_enumerator_sets(def, by_gen[3]),
        "word {}: v4 and v5 differ:{}\nvs{}", hex, text(by_gen[2]), text(by_gen[3]));

  // The engine input (SPEC §3.9), on every generation for the rows that take it and on
  // one (picked by byte 61) for the others.
  for (Generation g : kAllGenerations) {
    const Diagnostics& plain = by_gen[static_cast<unsigned>(g) - 2];
    if (def == nullptr || !def->engine_input) {
      if (static_cast<unsigned>(g) - 2 != w[61] % 4u) continue;
      for (Engine e : kAllEngines)
        GPSIMD_FUZZ_CHECK(validate(w, g, ValidateOptions{false, e}) == plain,
                          "word {}: the engine input {} changes the diagnostics of a {} word on {}",
                          hex, engine_id(e), def ? def->mnemonic : std::string_view("unknown"),
                          generation_name(g));
      continue;
    }
    std::array<Diagnostics, kEngineCount> on;
    for (Engine e : kAllEngines) {
      on[static_cast<unsigned>(e)] = validate(w, g, ValidateOptions{false, e});
      check_diagnostics(on[static_cast<unsigned>(e)], def, w);
    }
    const Diagnostics& dve = on[static_cast<unsigned>(Engine::DVE)];
    const Diagnostics& pool = on[static_cast<unsigned>(Engine::POOL)];
    const Diagnostics& act = on[static_cast<unsigned>(Engine::ACT)];
    GPSIMD_FUZZ_CHECK(on[static_cast<unsigned>(def->engine)] == plain,
                      "word {}: {} on its default engine differs from no engine on {}", hex,
                      def->mnemonic, generation_name(g));
    // SPEC §4.19: TensorReduce's vendor validator takes the engine (its engine clause: act
    // invalid, pool only for the integer band), so its engines differ beyond the PSUM rule
    // of §3.9 item 1, the only difference of the other rows.
    const bool engine_clause =
        def->opcode == Opcode::TensorReduceArith || def->opcode == Opcode::TensorReduceBitvec;
    if (engine_clause) continue;
    GPSIMD_FUZZ_CHECK(dve == act, "word {}: dve and act differ on {}:{}\nvs{}", hex,
                      generation_name(g), text(dve), text(act));
    GPSIMD_FUZZ_CHECK(!pool.empty() || dve.empty(), "word {}: valid on pool, not on dve ({}):{}",
                      hex, generation_name(g), text(dve));
  }

  // Strict mode adds clauses only to the instructions whose row says so (SPEC §4.4: Sort's
  // top-K) and nothing else: checked on every generation for such a word, on one (picked
  // by the last byte) for the others. The picks keep an input cheap; over millions of
  // inputs every combination is covered.
  const bool strict_differs = def != nullptr && def->strict_adds_clauses;
  for (Generation g : kAllGenerations) {
    if (!strict_differs && static_cast<unsigned>(g) - 2 != w[63] % 4u) continue;
    const Diagnostics& relaxed = by_gen[static_cast<unsigned>(g) - 2];
    const Diagnostics strict = validate(w, g, ValidateOptions{true});
    if (strict_differs) {
      check_diagnostics(strict, def, w);
      GPSIMD_FUZZ_CHECK(!strict.empty() || relaxed.empty(),
                        "word {}: valid in strict mode on {}, not by default:{}", hex,
                        generation_name(g), text(relaxed));
    } else {
      GPSIMD_FUZZ_CHECK(strict == relaxed,
                        "word {}: strict mode changes the diagnostics of a {} word on {}", hex,
                        def ? def->mnemonic : std::string_view("unknown"), generation_name(g));
    }
  }

  // validate_as of one other instruction (picked by byte 62).
  const auto rows = static_cast<unsigned>(instructions().size());
  unsigned pick = w[62] % (def == nullptr ? rows : rows - 1);
  for (const InstrDef& other : instructions()) {
    if (&other == def || pick-- != 0) continue;
    const Diagnostics ds = validate_as(other, w, Generation::V3);
    check_diagnostics(ds, &other, w);
    GPSIMD_FUZZ_CHECK(has_clause(ds, other.opcode_clause), "word {}: validate_as({}) misses {}",
                      hex, other.mnemonic, other.opcode_clause);
  }

  const auto text_form = disassemble(w);
  GPSIMD_FUZZ_CHECK(text_form.has_value() == (def != nullptr), "word {}: disassemble", hex);
  if (text_form) {
    AsmError err;
    const auto words = assemble(*text_form, "<disassembly>", &err);
    GPSIMD_FUZZ_CHECK(words.has_value(), "word {}: the disassembly\n{}\ndoes not assemble: {}", hex,
                      *text_form, err.to_string());
    GPSIMD_FUZZ_CHECK(words->size() == 1 && words->front() == w,
                      "word {}: assemble(disassemble(w)) gives {} word(s), first {}", hex,
                      words->size(), words->empty() ? "-" : word_to_hex(words->front()));
  }
}

}  // namespace gpsimd::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  gpsimd::fuzz::run_one(data, size);
  return 0;
}
