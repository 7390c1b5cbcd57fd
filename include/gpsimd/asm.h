// The gpsimd assembly language: text <-> instruction words (docs/assembly.md).
//
// disassemble(w) prints every field of a known opcode, so assemble(disassemble(w)) == w
// for every word of a known opcode, invalid ones included.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gpsimd/isa.h"

namespace gpsimd {

// Where and why assembly failed.
struct AsmError {
  std::string file;     // the name given to assemble()
  int line = 0;         // 1-based
  int column = 0;       // 1-based
  std::string token;    // the offending token
  std::string message;  // what was expected
  // "file:line:column: error: message (at 'token')"
  std::string to_string() const;
};

// Assembles the instructions of a text (data directives are handled by Program, see
// below); nullopt with `error` set on the first error.
std::optional<std::vector<Word>> assemble(std::string_view text, std::string_view file = "<input>",
                                          AsmError* error = nullptr);

// The canonical text of one word of a known opcode (nullopt for an unknown opcode).
std::optional<std::string> disassemble(const Word& w);

}  // namespace gpsimd
