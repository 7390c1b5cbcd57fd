// The pieces the gpsimd subcommands share: reading inputs (assembly, binary or hex
// words), printing errors with the source line, and formatting tables.
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpsimd/asm.h"
#include "gpsimd/program.h"
#include "gpsimd/types.h"

namespace gpsimd::cli {

// Exit statuses (docs/cli.md).
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailed = 1;  // a word is invalid / did not retire / a check failed
inline constexpr int kExitUsage = 2;   // bad command line or unreadable / malformed input

// The most bytes the tool reads from one program or word file (a million 64-byte words
// in binary), and from one vector file; beyond them it stops reading and says so.
inline constexpr std::size_t kMaxInputBytes = std::size_t{64} << 20;
inline constexpr std::size_t kMaxVectorFileBytes = std::size_t{256} << 20;

// Reads a whole file ("-": standard input) of at most `limit` bytes. On failure returns
// false with `error` = "NAME: cannot read the file: <the system's reason>" or
// "NAME: the input is too large: ...".
bool read_input(const std::string& path, std::size_t limit, std::string* out, std::string* error);

// The name of an output path in messages ("-" is standard output).
inline std::string output_name(const std::string& path) {
  return path == "-" ? "<stdout>" : path;
}

// Writes bytes to a file, or to standard output for "-"; on failure prints
// "gpsimd CMD: PATH: cannot write the file: <reason>" and returns false.
bool write_output(const std::string& path, std::string_view bytes, std::string_view cmd);

enum class Format { Auto, Asm, Bin, Hex };
// Parses "auto", "asm", "bin", "hex".
std::optional<Format> parse_format(std::string_view s);

// A program read from a file: assembly text, raw 64-byte words, or hex text.
struct Input {
  std::string name;      // as given ("-" reads stdin and is called "<stdin>")
  std::string base_dir;  // where relative .load paths start: the file's directory
  Format format = Format::Asm;
  std::string text;  // the file's text (assembly and hex)
  Program program;   // words; directives too for assembly
  // Returns "file:line" for a word of an assembly or hex file, "file: word N" otherwise.
  std::string where(std::size_t word) const;
};

// Reads an input. On error prints "gpsimd CMD: ..." (with the source line for an
// assembly error) to stderr and returns nullopt.
std::optional<Input> load_input(const std::string& path, Format format, std::string_view cmd);

// Prints assembly errors, each with the offending line and a caret under the token
// (AsmErrors::to_string), every line after "gpsimd CMD: ".
void print_asm_errors(std::FILE* out, std::string_view cmd, const AsmErrors& e,
                      std::string_view text);

// The generation to use: --nc if given, else the program's .nc, else v3.
Generation pick_generation(const std::optional<Generation>& flag, const Program& p);

// A table with right-aligned columns: a header row, then labelled rows.
std::string render_table(const std::vector<std::string>& headers,
                         const std::vector<std::string>& row_labels,
                         const std::vector<std::vector<std::string>>& cells,
                         std::string_view indent = "  ");

// How tables print, after NumPy's printoptions: a dump of more than `threshold` values
// shows the first and last `edgeitems` rows and columns with "..." between.
// The engine input of word i of a program: --engine when given, else the word's
// `.engine` (SPEC §8.9), else nullopt (the opcode's default).
inline std::optional<Engine> engine_input(const Program& p, std::size_t i,
                                          std::optional<Engine> option) {
  return option ? option : word_engine(p, i);
}
// " on pool" for a word whose instruction takes the engine as an input (SPEC §3.9): the
// engine it runs on; "" for the others, which run on their own engine.
std::string engine_note(const Word& w, std::optional<Engine> input);
// "dve 2, pool 1, act 0": the words of each queue of a program.
std::string queue_sizes(const QueueProgram& p);

struct PrintOptions {
  std::size_t threshold = 1000;
  std::size_t edgeitems = 3;
};

// The values of a dump as a table in its dtype: the rows and columns its directive
// chooses, else elided as PrintOptions say, with a note of what is left out.
std::string render_dump(const DumpResult& d, const PrintOptions& po = {},
                        std::string_view indent = "  ");

// Subcommands; each returns the exit status. dis, check and explain take several files:
// each is reported under its name and the status is the worst of them.
struct AsmOptions {
  std::string input, output;
  Format format = Format::Auto;
  bool hex = false;
};
int cmd_asm(const AsmOptions& o);

struct DisOptions {
  std::vector<std::string> inputs;
  Format format = Format::Auto;
  bool json = false;
  bool annotate = false;  // the 64 bytes of each word grouped by field
};
int cmd_dis(const DisOptions& o);

struct CheckOptions {
  std::vector<std::string> inputs;
  Format format = Format::Auto;
  std::optional<Generation> nc;
  std::optional<Engine> engine;  // --engine: overrides every word's engine input
  bool strict = false;
  bool json = false;
};
int cmd_check(const CheckOptions& o);

struct RunOptions {
  std::string input;
  Format format = Format::Auto;
  std::optional<Generation> nc;
  std::optional<Engine> engine;  // --engine: overrides every word's engine input
  bool strict = false;
  bool trace = false;
  bool trace_bytes = false;  // --trace-bytes: every written byte, not the first values only
  bool json = false;
  PrintOptions print;
  bool reference = false;
  bool no_write = false;
  std::string out_dir = ".";
  // Programs of queues (SPEC §8): print every step of the schedule; draw a timeline
  // (.svg or .html) to this path.
  bool schedule = false;
  std::string timeline;
};
int cmd_run(const RunOptions& o);

// Exit statuses of `run` on a program of queues beyond kExitOk / kExitFailed (invalid or
// fault) / kExitUsage (docs/cli.md).
inline constexpr int kExitDeadlock = 3;  // no queue is ready and some is not drained
inline constexpr int kExitRace = 4;      // every queue drained, and a data race was found

// The timeline of a run of queues (tools/timeline.cc): one lane per engine, each issued
// word a box in schedule order, the acquires as arrows, a race or a deadlock in red.
struct TimelineWord {
  QueueWord word;
  std::string label;  // "pool:0 Iota"
  std::string title;  // the hover text: file:line and the word's assembly
};
std::string timeline_svg(const QueueRun& run, const std::vector<TimelineWord>& issued,
                         const std::vector<TimelineWord>& blocked, std::string_view heading);
std::string timeline_html(const std::string& svg, std::string_view heading);

struct ExplainOptions {
  std::vector<std::string> inputs;
  std::string text;  // -e: one instruction given on the command line
  Format format = Format::Auto;
  std::optional<std::size_t> index;
  std::optional<Generation> nc;
  std::optional<Engine> engine;  // --engine: overrides every word's engine input
  bool strict = false;
};
int cmd_explain(const ExplainOptions& o);

struct VectorsOptions {
  std::vector<std::string> files;
  bool reference = false;
  std::optional<Engine> engine;  // --engine: the engine input of vectors that name none
};
int cmd_vectors(const VectorsOptions& o);

int cmd_demo();
// The demo's one-line summary for --help, with the number of instructions its program
// (examples/demo.gpsimd, built in) really uses.
std::string demo_summary();

}  // namespace gpsimd::cli
