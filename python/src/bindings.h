// Pieces the extension's source files share.
#pragma once

#include <pybind11/pybind11.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"

namespace gpsimd::python {

// Returns the word held by a 64-byte bytes object; raises ValueError for another length.
Word word_from_bytes(const pybind11::bytes& b);
// Returns the 64 bytes of a word.
pybind11::bytes bytes_from_word(const Word& w);

// Work done on the machine before a program's words run (with the GIL released); returns
// an error message when it cannot be done, and then the machine must be unchanged.
using Prepare = std::function<std::optional<std::string>(Machine&)>;

// Runs words on a machine with the GIL released, after `prepare` when given. With
// `atomic`, a failure (of `prepare` or of a word) leaves the machine as it was. Returns
// (retired, failed index or None, status, diagnostics, fault kind or None, fault detail or
// None, prepare error or None).
//
// When `trace` is a callable, the run records every trace event (execute.h's TraceSink)
// and, once the words have run and the GIL is held again, calls trace(event) for each in
// order, with a dict: "kind" ("retire", "memory", "accumulator", "semaphore",
// "match_lane"), "index" (the word's position in the program) and the event's details.
// An exception from the callable stops the delivery and propagates; with `atomic` the
// machine is first put back as it was before the run.
pybind11::tuple run_words(Machine& m, const std::vector<Word>& words, const ExecOptions& opts,
                          bool atomic, const Prepare& prepare,
                          const pybind11::object& trace = pybind11::none());

// Adds assemble(), disassemble() and _run_text() (asm_bindings.cc).
void bind_asm(pybind11::module_& m);

}  // namespace gpsimd::python
