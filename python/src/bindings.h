// Pieces the extension's source files share.
#pragma once

#include <pybind11/pybind11.h>

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"

namespace gpsimd::python {

// Registers the NumPy dtypes bfloat16, float8_e4m3 and float8_e5m2 (numpy_dtypes.cc) and
// puts their scalar types into the module.
void register_numpy_dtypes(pybind11::module_& m);

// Returns the word held by a 64-byte bytes object; raises ValueError for another length.
Word word_from_bytes(const pybind11::bytes& b);
// Returns the 64 bytes of a word.
pybind11::bytes bytes_from_word(const Word& w);

// The bytes of a machine's memory that may differ from a fresh machine's, kept as one
// byte range per partition and space: what a scratch machine needs to forget between
// uses without clearing 28 MiB. Writes by instructions are marked through the trace
// sink of run_words; writes made from Python are marked with mark().
class DirtyRanges {
 public:
  // Marks bytes [lo, hi) of partitions [first, first + count) of a space.
  void mark(Space s, unsigned first, unsigned count, uint32_t lo, uint32_t hi);
  // Puts the machine back to a fresh machine's state, provided every byte that differs
  // from zero is marked: zeroes the marked ranges, then the registers and semaphores,
  // the accumulators to -inf and the search lanes fresh; forgets the marks.
  void reset(Machine& m);
  // The marked ranges as (space, partition, lo, hi), in space and partition order.
  std::vector<std::tuple<Space, unsigned, uint32_t, uint32_t>> ranges() const;

 private:
  struct Range {
    uint32_t lo = 0, hi = 0;  // empty when hi == 0
  };
  std::array<std::array<Range, kPartitions>, kSpaceCount> ranges_{};
};

// Work done on the machine before a program's words run (with the GIL released); returns
// an error message when it cannot be done, and then the machine must be unchanged. With a
// journal, what it overwrites is saved there first.
using Prepare = std::function<std::optional<std::string>(Machine&, Journal*)>;

// Runs words on a machine with the GIL released, after `prepare` when given, as a stream
// on the one runner (run_program). With `atomic`, a failure (of `prepare` or of a word)
// leaves the machine as it was: the run keeps an undo journal (Journal, machine.h) of what
// it overwrites and undoes it. Returns
// (retired, failed index or None, status, diagnostics, fault kind or None, fault detail or
// None, prepare error or None).
//
// When `trace` is a callable, the run records every trace event (execute.h's TraceSink)
// and, once the words have run and the GIL is held again, calls trace(event) for each in
// order, with a dict: "kind" ("retire", "memory", "accumulator", "semaphore",
// "match_lane"), "index" (the word's position in the program) and the event's details.
// An exception from the callable stops the delivery and propagates; with `atomic` the
// machine is first put back as it was before the run.
//
// With `dirty`, every memory write of the words is also marked there.
// With `engines`, word i runs with engine input engines[i] where it is set (a text's
// `.engine` directives), opts.engine otherwise.
pybind11::tuple run_words(Machine& m, const std::vector<Word>& words, const ExecOptions& opts,
                          bool atomic, const Prepare& prepare,
                          const pybind11::object& trace = pybind11::none(),
                          DirtyRanges* dirty = nullptr,
                          const std::vector<std::optional<Engine>>& engines = {});

// The engine argument of the calls that take one (SPEC §3.9): None for the opcode's
// default, or a name parse_engine accepts ("dve", "pool", "act" in any case, or NKI's
// "vector", "gpsimd", "scalar"). Raises TypeError or ValueError naming `where`.
std::optional<Engine> to_engine(const pybind11::handle& h, std::string_view where);

// Adds assemble(), disassemble() and _run_text() (asm_bindings.cc).
void bind_asm(pybind11::module_& m);

}  // namespace gpsimd::python
