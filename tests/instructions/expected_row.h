// The expected table row of an instruction (tests/isa_table_test.cc compares it with the
// instruction table), written out by hand from SPEC §1 and §4 in each instruction's file:
// a field's size is the next field's offset minus its own, not copied from isa.h.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "gpsimd/isa.h"

namespace gpsimd::expected_rows {

using K = FieldKind;
using G = Generation;

struct ExpectedField {
  std::string_view name;
  unsigned offset;
  unsigned size;
  FieldKind kind;
  unsigned dims = 0;                // TENSOR{dims}D
  std::string_view src_field = {};  // IMM_VAL: its *_src field
};

struct ExpectedInstr {
  std::string_view mnemonic;
  uint8_t opcode;
  std::string_view struct_name;
  Engine engine;
  std::vector<Generation> generations;
  std::vector<ExpectedField> fields;
};

}  // namespace gpsimd::expected_rows
