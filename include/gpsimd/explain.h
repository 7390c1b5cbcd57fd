// What a word will do, in words (`gpsimd explain`): the partitions, byte ranges,
// element counts and dtypes it reads and writes and what it computes, on a given
// machine state. Each instruction says it in its own file (src/ops/); the caller
// formats the lines.
#pragma once

#include <string>
#include <vector>

#include "gpsimd/isa.h"
#include "gpsimd/machine.h"

namespace gpsimd {

struct ExplainLine {
  std::string label;  // "channels", "reads", "immediate", "writes", "effect", "events", ...
  std::string text;   // one paragraph, unwrapped
};

// For a word that validates: what it reads, writes and computes on the state of `m`
// (register-mode addresses and pointers resolved through m's registers), then what its
// events do. Empty for an unknown opcode. The lines say nothing about validity or faults:
// validate() and execute() tell those.
std::vector<ExplainLine> explain(const Word& w, const Machine& m);

}  // namespace gpsimd
