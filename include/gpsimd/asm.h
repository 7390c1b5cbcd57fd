// The gpsimd assembly language: text <-> instruction words, plus the directives that
// set up a program's data and dump results (docs/assembly.md).
//
// disassemble(w) prints every field of a known opcode that differs from its default,
// so assemble(disassemble(w)) == w for every word of a known opcode, invalid ones
// included. The assembler and the disassembler walk the instruction table's field rows
// (isa.h); nothing here knows an instruction's byte layout.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gpsimd/format.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"
#include "gpsimd/npy.h"
#include "gpsimd/program.h"
#include "gpsimd/types.h"

namespace gpsimd {

// Where and why assembly failed.
struct AsmError {
  std::string file;     // the name given to assemble()
  int line = 0;         // 1-based
  int column = 0;       // 1-based
  std::string token;    // the offending token ("" at the end of a statement)
  std::string message;  // what was expected
  // "file:line:column: error: message (at 'token')", or "... (at end of line)"; control
  // characters and bytes that are not UTF-8 in the token come out as \xNN.
  std::string to_string() const;
};

// The most errors the assembler reports for one text; after them it stops, like a
// compiler's -fmax-errors.
inline constexpr std::size_t kMaxAsmErrors = 20;

// Every error of one text, in source order. The assembler reports each statement's
// first error and goes on with the next statement (a statement that fails to lex or
// parse is skipped whole), up to kMaxAsmErrors.
struct AsmErrors {
  std::vector<AsmError> errors;
  bool truncated = false;  // there were more: the assembler stopped after the last one
  bool empty() const { return errors.empty(); }
  // Every error as a compiler prints it: its to_string(), then its line of `text` and a
  // caret under the token (format_asm_error), one after the other; then, with more than
  // one, "FILE: N errors", or when the assembler stopped early "FILE: too many errors:
  // stopped after 20 (line L)". Each line starts with `prefix` ("gpsimd check: " in
  // the tool).
  std::string to_string(std::string_view text, std::string_view prefix = "") const;
};

// An error as a compiler prints it: the message, then its line of `text` ("  2 | ...")
// and a caret under the offending token ("    |     ^~~~"). Control characters and bytes
// that are not UTF-8 are shown as \xNN, with the caret still under the token. Without
// the line (a text that has none), the message alone. Ends with a newline.
std::string format_asm_error(const AsmError& e, std::string_view text,
                             std::string_view prefix = "");

// Text safe to print on a terminal: control characters (but tab) and bytes that are not
// part of a valid UTF-8 sequence become \xNN; everything else is kept.
std::string printable(std::string_view text);

// Assembles the instructions of a text (directives are parsed and checked, and their
// effect is left to Program, see below); nullopt with `error` set on the first error.
std::optional<std::vector<Word>> assemble(std::string_view text, std::string_view file = "<input>",
                                          AsmError* error = nullptr);
// The same, with every error of the text (up to kMaxAsmErrors) in `errors`.
std::optional<std::vector<Word>> assemble(std::string_view text, std::string_view file,
                                          AsmErrors* errors);

// The canonical text of one word of a known opcode, on one line (nullopt for an
// unknown opcode).
std::optional<std::string> disassemble(const Word& w);
// The text of any word, on one line, as `gpsimd dis` prints it: the canonical text of
// a known opcode, else `.word 0x<128 hex digits>  # unknown opcode 0xNN` (which
// assembles back to the same word).
std::string disassemble_any(const Word& w);

// ---- Suggestions ----------------------------------------------------------------------

// The edit distance between two names (Damerau-Levenshtein, optimal string alignment:
// insertions, deletions, substitutions and swaps of neighbours cost 1), with letters
// compared without case.
std::size_t name_distance(std::string_view a, std::string_view b);
// The candidates nearest to a mistyped name, for "did you mean ...?": those at the
// smallest distance, if it is at most a third of the longer name's length (so a name of
// two letters gets none); at most three, in candidate order. Empty when none is near.
std::vector<std::string> nearest_names(std::string_view typed,
                                       const std::vector<std::string>& candidates);
// "did you mean Max8?", "did you mean IS_LT or IS_LE?", or "" when none is near.
std::string did_you_mean(std::string_view typed, const std::vector<std::string>& candidates);

// ---- Text forms shared by the assembler, the disassembler and the tools --------------

// An ADDR4 as the assembler reads it: "sbuf[p=1, off=0x100]", "psum[p=0, off=0x40]",
// "reg(5)", or "addr(0x...)" for a pattern that is none of those.
std::string format_addr4(uint32_t addr);
// Parses one value of a dtype as .data reads it: a decimal number (converted to the
// dtype, floats round-to-nearest-even via FP32), inf/nan, or 0x bits. Returns the bit
// pattern, or nullopt with `why`.
std::optional<uint32_t> parse_value(Dtype dt, std::string_view text, std::string* why = nullptr);
// Breaks a canonical one-line statement after top-level commas so that no line is
// longer than `width` where possible; continuation lines are indented by four spaces.
// The result assembles to the same words (a line ending in a comma continues).
std::string wrap_statement(std::string_view line, std::size_t width = 100);

// ---- Programs: instructions plus data directives -------------------------------------

// A memory region of a directive: `sbuf[p=0..3, off=0x100]`, `psum[...]`, or the
// accumulators `acc[p=0..3]` or the search lanes `match[p=0..3]` (offset unused).
enum class RegionKind : uint8_t { SBUF, PSUM, ACC, MATCH };
struct Region {
  RegionKind kind = RegionKind::SBUF;
  unsigned partition = 0;   // first partition
  unsigned partitions = 1;  // how many, consecutive
  uint32_t offset = 0;      // byte offset within each partition
  std::string to_string() const;
  bool operator==(const Region&) const = default;
};

// `.reg 5 = 0x00400000`
struct RegDirective {
  unsigned index = 0;
  uint32_t value = 0;
  bool operator==(const RegDirective&) const = default;
};
// `.sem 3 = 1`
struct SemDirective {
  unsigned index = 0;
  uint32_t value = 0;
  bool operator==(const SemDirective&) const = default;
};
// `.acc 0..3 = -inf`: FP32 bits for accumulators first .. first + count - 1.
struct AccDirective {
  unsigned first = 0;
  unsigned count = 1;
  uint32_t bits = 0;
  bool operator==(const AccDirective&) const = default;
};
// `.data sbuf[p=0..1, off=0x100] fp32 = [[1.0, 2.5], [3.0, 4.0]]`: the same number of
// elements for every partition, stored contiguously from the offset.
struct DataDirective {
  Region region;
  Dtype dtype = Dtype::FP32;
  std::vector<uint32_t> values;  // bit patterns, partition after partition
  bool operator==(const DataDirective&) const = default;
};
// `.load sbuf[p=0..3, off=0x100] <- file.npy`: the file's bytes, one row per partition.
struct LoadDirective {
  Region region;
  std::string path;  // as written; relative paths are resolved by the caller
  bool operator==(const LoadDirective&) const = default;
};
using SetupDirective =
    std::variant<RegDirective, SemDirective, AccDirective, DataDirective, LoadDirective>;

// `.dump sbuf[p=0..3, off=0x100] bf16 [16] -> out.npy`: after the run, `count` elements
// of `dtype` from each partition of the region, `step` elements apart (`[16] step=2`),
// as a partitions x count array; the path is optional (without it the tools only print
// the values). `.dump acc[p=0..3]` dumps accumulators as FP32 (dtype FP32, count 1).
// `.dump match[p=0..3]` dumps search lanes (SPEC §2), 17 UINT32 per lane: mv[0..7] (FP32
// bits), matched (bit n = slot n), idx[0..7].
// `rows=[0..7, 120..127] cols=[380..389]` choose what the printed table shows (rows are
// partition numbers as the table labels them, cols element indices; ranges inclusive);
// without them a large table is elided like NumPy's (head ... tail on both axes). They
// never change the file.
inline constexpr uint32_t kMatchDumpColumns = 17;  // mv[8], matched, idx[8]
struct IndexRange {
  uint32_t first = 0, last = 0;  // inclusive
  bool operator==(const IndexRange&) const = default;
};
struct DumpDirective {
  Region region;
  Dtype dtype = Dtype::FP32;
  uint32_t count = 1;
  uint32_t step = 1;
  std::string path;
  std::vector<IndexRange> rows, cols;  // empty: elide like NumPy
  bool operator==(const DumpDirective&) const = default;
};

struct Program {
  std::string file;              // the name given to parse_program
  std::optional<Generation> nc;  // `.nc v3`
  std::vector<Word> words;       // instructions and `.word` words, in order
  std::vector<int> word_lines;   // the source line of each word
  // The engine input of each word (SPEC §3.9, §8.9): the engine of the latest `.engine`
  // directive before it; nullopt before the first (the opcode's default). The
  // instructions of §4.1-§4.13 ignore it.
  std::vector<std::optional<Engine>> word_engines;
  // SPEC §8.9: a text with at least one `.queue` directive is a program of queues (§8.1):
  // then `queued` is set, word_queues holds each word's queue (the latest `.queue` before
  // it) and word_engines is all nullopt (`.engine` is not allowed). A text without `.queue`
  // is a stream: word_queues is empty.
  bool queued = false;
  std::vector<Engine> word_queues;
  std::vector<SetupDirective> setup;  // applied in order before the run
  std::vector<int> setup_lines;
  std::vector<DumpDirective> dumps;  // read in order after the run
  std::vector<int> dump_lines;
};

// The engine input of word i: in a program of queues its queue's engine (SPEC §8.1); in a
// stream its `.engine` (nullopt for a program built without word_engines).
inline std::optional<Engine> word_engine(const Program& p, std::size_t i) {
  if (p.queued) return i < p.word_queues.size() ? p.word_queues[i] : Engine::DVE;
  return i < p.word_engines.size() ? p.word_engines[i] : std::nullopt;
}

// Parses a program; nullopt with `error` set on the first error. No file is read.
std::optional<Program> parse_program(std::string_view text, std::string_view file = "<input>",
                                     AsmError* error = nullptr);
// The same, with every error of the text (up to kMaxAsmErrors) in `errors`.
std::optional<Program> parse_program(std::string_view text, std::string_view file,
                                     AsmErrors* errors);
// The canonical text of a program: `.nc`, the setup directives in order, the words
// (unknown opcodes as `.word`; in a stream an `.engine` line before each word whose engine
// input differs from the word before it; in a program of queues a `.queue` line before
// each word whose queue differs from the word before it, and `.queue dve` alone for a
// program without words), then the dumps. parse_program(print_program(p)) gives back p
// (source lines aside).
std::string print_program(const Program& p);
// The canonical text of one directive.
std::string print_directive(const SetupDirective& d);
std::string print_directive(const DumpDirective& d);
// True when two programs have the same content (source lines and file names aside).
bool same_program(const Program& a, const Program& b);

// The queues of a program of queues (SPEC §8.1): word i goes to the end of the queue of
// word_queues[i]. `index[i]`, when given, receives word i's place in its queue.
QueueProgram queue_program(const Program& p, bool strict, std::vector<QueueWord>* index = nullptr);

// Puts a program's setup on a machine (in order; later directives overwrite earlier
// ones). Relative `.load` paths are resolved against `base_dir` (the tools pass the
// program file's directory). Everything is checked and every file read before anything
// is written: on error the machine is untouched and the message names the file, line,
// directive and problem. With a journal, the memory it overwrites is saved in it first.
std::optional<std::string> apply_setup(const Program& p, Machine& m, const std::string& base_dir,
                                       Journal* journal = nullptr);

// One `.dump` read from a machine.
struct DumpResult {
  DumpDirective directive;
  int line = 0;
  NpyArray array;                             // partitions x count, in the dtype's .npy type
  std::vector<std::vector<uint32_t>> values;  // [partition][element] bit patterns
};
// Reads every dump of a program from a machine. On error (a region outside a partition)
// returns nullopt with `error` naming the file, line and problem.
std::optional<std::vector<DumpResult>> read_dumps(const Program& p, const Machine& m,
                                                  std::string* error);

}  // namespace gpsimd
