// Validation (SPEC §3.6, §4, §6): every failing clause of a word, by the vendor's
// clause name, with the field, its value and what is allowed.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpsimd/isa.h"
#include "gpsimd/types.h"

namespace gpsimd {

struct Diagnostic {
  std::string instruction;  // "RangeSelect", or "unknown" for an unknown opcode
  std::string clause;       // the vendor's clause name: "is_valid_fill_val"
  std::string field;        // the field: "fill_val"
  std::string value;        // its value as read: "0x00000000"
  std::string allowed;      // what is allowed: "must be 0xff7fffff (-FLT_MAX)"

  // "RangeSelect: is_valid_fill_val: fill_val = 0x00000000, must be 0xff7fffff (-FLT_MAX)"
  std::string message() const;
  bool operator==(const Diagnostic&) const = default;
};
using Diagnostics = std::vector<Diagnostic>;

struct ValidateOptions {
  // Vendor-strict mode: adds the host validator's rejection of Sort top-K (SPEC §4.4).
  bool strict = false;
  // The engine input (SPEC §3.9): the engine an instruction of §4.14-§4.17 is validated
  // for (its PSUM rule); nullopt: the opcode's default. The other instructions ignore it.
  std::optional<Engine> engine = std::nullopt;
};

// Returns every failing clause of the word for the generation (empty when valid).
Diagnostics validate(const Word& w, Generation g, const ValidateOptions& opts = {});

// Validates a word as the given instruction whatever its opcode byte says (then the
// instruction's opcode clause, e.g. has_sort_opcode, reports the mismatch).
Diagnostics validate_as(const InstrDef& def, const Word& w, Generation g,
                        const ValidateOptions& opts = {});

// True when some diagnostic names `clause`.
bool has_clause(const Diagnostics& d, std::string_view clause);

}  // namespace gpsimd
