// The gpsimd command-line tool: assemble, disassemble, check, run and explain programs
// of the modelled instructions, run conformance vectors, and show a demo (docs/cli.md).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cli.h"
#include "suite/bench.h"

namespace {

using namespace gpsimd;
using namespace gpsimd::cli;

// CLI11 prints "--option: " before these; they name the value and what is allowed.
std::string check_generation(const std::string& s) {
  return parse_nc(s) ? std::string()
                     : fmt::format("'{}' is not a generation: expected {}", s, kNcNames);
}
std::string check_engine(const std::string& s) {
  return parse_engine(s) ? std::string()
                         : fmt::format("'{}' is not an engine: expected {}", s, kEngineNamesText);
}
std::string check_format(const std::string& s) {
  return parse_format(s) ? std::string()
                         : "'" + s + "' is not a format: expected auto, asm, bin or hex";
}

// Whole numbers as typed: digits only, within [lo, hi]; "-1" and "99999999999999999999"
// are refused as written, never wrapped.
std::optional<uint64_t> parse_whole(std::string_view s, uint64_t lo, uint64_t hi) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || s[0] == '-' || s[0] == '+' || ec != std::errc() || end != s.data() + s.size() ||
      v < lo || v > hi)
    return std::nullopt;
  return v;
}
CLI::Validator whole_number(uint64_t lo, uint64_t hi, std::string what) {
  return CLI::Validator(
      [=](std::string& s) {
        return parse_whole(s, lo, hi)
                   ? std::string()
                   : fmt::format("'{}' is not {}: expected a whole number from {} to {}", s, what,
                                 lo, hi);
      },
      fmt::format("{}..{}", lo, hi));
}
CLI::Validator number_between(double lo, double hi, std::string what) {
  return CLI::Validator(
      [=](std::string& s) {
        double v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        const bool ok = !s.empty() && ec == std::errc() && end == s.data() + s.size() &&
                        std::isfinite(v) && v >= lo && v <= hi;
        return ok ? std::string()
                  : fmt::format("'{}' is not {}: expected a number from {} to {}", s, what, lo, hi);
      },
      fmt::format("{}..{}", lo, hi));
}

constexpr const char* kInputHelp =
    "the program: assembly (.gpsimd), binary words (.bin) or hex words (.hex); - reads stdin";

CLI::Option* add_input(CLI::App* c, std::string* input) {
  return c->add_option("FILE", *input, kInputHelp);
}
CLI::Option* add_inputs(CLI::App* c, std::vector<std::string>* inputs) {
  return c->add_option("FILE", *inputs,
                       std::string(kInputHelp) +
                           ". Several files are reported one after another, each under its name");
}
void add_format(CLI::App* c, std::string* format) {
  c->add_option("--format", *format, "the input's format: auto (default), asm, bin or hex")
      ->check(check_format);
}
void add_nc(CLI::App* c, std::string* nc) {
  c->add_option("--nc", *nc,
                "NeuronCore generation v2..v5, or trn1/inf2/sunda (v2), trn2/cayman (v3), "
                "mariana (v4), maverick (v5) (default: the program's .nc, else v3)")
      ->check(check_generation);
}

void add_engine(CLI::App* c, std::string* engine) {
  c->add_option("--engine", *engine,
                fmt::format("the engine input of TensorTensor, TensorScalar, Copy and Cast words "
                            "(SPEC §3.9): {}; it overrides the program's .engine directives "
                            "(default: those, else each opcode's default engine); the other "
                            "instructions run on their own engine",
                            kEngineNamesText))
      ->check(check_engine);
}

std::optional<Engine> engine_of(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return parse_engine(s);
}

std::optional<Generation> nc_of(const std::string& s) {
  if (s.empty()) return std::nullopt;
  return parse_nc(s);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "gpsimd: a bit-exact reference model of NeuronCore GPSIMD/Vector-engine instructions",
      "gpsimd"};
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", "gpsimd " GPSIMD_VERSION);
  app.footer(
      "Start with `gpsimd demo`. Each subcommand has --help with an example; "
      "docs/cli.md and docs/assembly.md describe them all.");

  std::string input, format = "auto", nc, engine;
  std::vector<std::string> inputs;

  AsmOptions ao;
  auto* c_asm = app.add_subcommand("asm", "Assemble a program into 64-byte instruction words");
  add_input(c_asm, &input)->required();
  add_format(c_asm, &format);
  c_asm->add_option("-o,--output", ao.output,
                    "write the words here (raw binary unless --hex; - is stdout); "
                    "without -o, hex words go to stdout");
  c_asm->add_flag("--hex", ao.hex, "write hex text, one word of 128 hex digits per line");
  c_asm->footer(
      "Example:\n  gpsimd asm examples/sort.gpsimd -o sort.bin\n"
      "  gpsimd asm examples/sort.gpsimd            # hex words on stdout\n"
      "  gpsimd asm examples/sort.gpsimd -o - | gpsimd dis --format bin -   # a pipe");

  DisOptions dio;
  auto* c_dis = app.add_subcommand("dis",
                                   "Disassemble words (or canonicalise a program) into "
                                   "assembly text");
  add_inputs(c_dis, &inputs)->required();
  add_format(c_dis, &format);
  auto* dis_json = c_dis->add_flag(
      "--json", dio.json,
      "print every word's decoded fields (with their byte offset and size) as JSON");
  c_dis
      ->add_flag("--annotate", dio.annotate,
                 "print each word's 64 bytes grouped by field, with names and decoded values")
      ->excludes(dis_json);
  c_dis->footer(
      "Example:\n  gpsimd asm examples/sort.gpsimd -o sort.bin && gpsimd dis sort.bin\n"
      "  gpsimd dis --json sort.bin\n"
      "  gpsimd dis --annotate sort.bin        # which bytes hold which field\n"
      "  echo '0x96 0x10 ...' | gpsimd dis -       # pasted hex: 0x optional, spaces, "
      "several lines");

  CheckOptions co;
  auto* c_check = app.add_subcommand("check",
                                     "Validate every word for a generation; exit 1 if "
                                     "any is invalid");
  add_inputs(c_check, &inputs)->required();
  add_format(c_check, &format);
  add_nc(c_check, &nc);
  add_engine(c_check, &engine);
  c_check->add_flag("--strict", co.strict, "vendor-strict validation (rejects Sort top-K)");
  c_check->add_flag("--json", co.json, "print the result as JSON");
  c_check->footer(
      "Exit status 1 when a word is invalid, 2 when an input cannot be read (the worst of "
      "all files).\nExample:\n  gpsimd check examples/sort.gpsimd --nc v2 --strict\n"
      "  gpsimd check examples/*.gpsimd");

  RunOptions ro;
  auto* c_run = app.add_subcommand("run",
                                   "Set up a machine, execute the words, report and write "
                                   "the .dump files");
  add_input(c_run, &input)->required();
  add_format(c_run, &format);
  add_nc(c_run, &nc);
  add_engine(c_run, &engine);
  c_run->add_flag("--strict", ro.strict, "vendor-strict validation (rejects Sort top-K)");
  c_run->add_flag("--trace", ro.trace,
                  "print one line per retired word and one per write (its first 8 values, "
                  "in the destination's dtype)");
  c_run->add_flag("--trace-bytes", ro.trace_bytes,
                  "with the trace, print every byte each write leaves (implies --trace)");
  c_run
      ->add_option("--threshold", ro.print.threshold,
                   "tables of more values than this are elided, as NumPy's printoptions "
                   "(default 1000)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 24));
  c_run
      ->add_option("--edgeitems", ro.print.edgeitems,
                   "an elided table shows this many first and last rows and columns "
                   "(default 3)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 16));
  c_run->add_flag("--json", ro.json, "print the result (and the trace) as JSON");
  c_run->add_flag("--reference", ro.reference,
                  "use the scalar reference path, not the fast "
                  "kernels (the results are identical)");
  c_run->add_option("--out-dir", ro.out_dir,
                    "where relative .dump paths are written "
                    "(default: the current directory)");
  c_run->add_flag("--no-write", ro.no_write, "print the dumps but write no .npy file");
  c_run->add_flag("--schedule", ro.schedule,
                  "a program of queues (.queue): print every issued word of the reference "
                  "schedule, with the wait it acquired");
  c_run->add_option("--timeline", ro.timeline,
                    "a program of queues: draw the run to this .svg (or .html) file, one lane "
                    "per engine, the race or deadlock in red");
  c_run->footer(
      "A text with .queue directives is a program of queues (SPEC §8): every word is "
      "validated first, waits block, and the run reports the end state, the schedule, the "
      "first race and the sync hazards. Exit status: 0 ok, 1 invalid or fault, 2 bad input, "
      "3 deadlock, 4 ok but a race.\n"
      "Example:\n  gpsimd run examples/range_select.gpsimd --trace\n"
      "  gpsimd run examples/race.gpsimd --schedule --timeline race.svg\n"
      "  gpsimd run examples/sort.gpsimd --out-dir out --json\n"
      "  gpsimd run examples/causal_tile.gpsimd --no-write --edgeitems 4\n"
      "Choose what a table shows in the program: .dump ... rows=[0..7, 120..127] "
      "cols=[380..389]");

  VectorsOptions vo;
  auto* c_vec = app.add_subcommand("vectors",
                                   "Run conformance vector files (SPEC §7) and program vector "
                                   "files (SPEC §8.8); exit 1 if any vector fails. A file of "
                                   "an instruction not modelled yet is reported as pending "
                                   "and not run");
  c_vec->add_option("FILE", vo.files, "vector files; - reads stdin")->required();
  c_vec->add_flag("--reference", vo.reference, "use the scalar reference path");
  c_vec
      ->add_option("--engine", engine,
                   fmt::format("the engine input of the vectors that name none (SPEC §7 "
                               "\"engine\"; default: each opcode's default engine): {}",
                               kEngineIdsText))
      ->check(check_engine);
  c_vec->footer(
      fmt::format("A file's \"format\" says what it holds: gpsimd-vectors/1 (one word each, "
                  "SPEC §7) or gpsimd-programs/1 (programs on the {} queues, SPEC §8.8; "
                  "--engine does not apply to them: each queue is its engine).\n",
                  kEngineIdsAndText) +
      "Example:\n  gpsimd vectors ../shared/conformance/*.json ../shared/conformance/next/*.json "
      "../shared/conformance/engines/*.json\n"
      "  gpsimd vectors ../shared/conformance/programs/*.json");

  ExplainOptions eo;
  std::string index;
  auto* c_explain = app.add_subcommand(
      "explain", "Say in plain words what an instruction reads, writes and computes");
  add_inputs(c_explain, &inputs);
  add_format(c_explain, &format);
  add_nc(c_explain, &nc);
  add_engine(c_explain, &engine);
  c_explain->add_option("-e,--text", eo.text, "explain this instruction text instead of a file");
  c_explain->add_option("-i,--index", index, "explain only word N (0-based) of each file")
      ->check(whole_number(0, kMaxInputBytes / kWordBytes - 1, "a word number"));
  c_explain->add_flag("--strict", eo.strict, "vendor-strict validation (rejects Sort top-K)");
  c_explain->footer(
      "Example:\n  gpsimd explain examples/range_select.gpsimd --index 0\n"
      "  gpsimd explain examples/sort.gpsimd examples/iota.gpsimd\n"
      "  gpsimd explain -e 'Sort num_active_channels=1, in_out_dtype=(FP32, FP32), "
      "comparison=IS_LT, src_mem_pattern=sbuf[p=0, off=0x0] num=[8], "
      "dst_mem_pattern=sbuf[p=0, off=0x100] num=[2,8]'");

  auto* c_demo = app.add_subcommand("demo", demo_summary());
  c_demo->footer("Example:\n  gpsimd demo");

  BenchOptions bo;
  auto* c_bench = app.add_subcommand(
      "bench",
      "Time the fast kernels against std::stable_sort, std::sort, Highway vqsort, "
      "Boost.Sort, memcpy and the scalar reference, verifying every output");
  c_bench->add_option("FILTER", bo.filter,
                      "run only workloads whose name contains this text (e.g. sort, fp16)");
  c_bench->add_option("--samples", bo.samples, "timed samples per contender (median reported)")
      ->check(whole_number(1, 1000, "a sample count"));
  c_bench
      ->add_option("--min-ms", bo.min_sample_ms,
                   "each sample repeats its workload for at least this many ms")
      ->check(number_between(0.1, 10000.0, "a time in ms"));
  bool no_threads = false;
  c_bench->add_flag("--no-threads", no_threads, "keep instructions on one thread");
  c_bench->add_flag("--wall-clock", bo.wall_clock,
                    "time samples by wall-clock time also with --no-threads (default there: "
                    "the thread's CPU time, which ignores time other processes had the CPU)");
  c_bench->add_flag("--list", bo.list, "list the workloads and exit");
  c_bench->add_flag("--all-distributions", bo.all_distributions,
                    "also run the N=16 and N=128 Sort rows on every value distribution "
                    "(narrow, dups16, sorted, reverse; by default only random and normal)");
  c_bench
      ->add_option("--target", bo.target,
                   "run this SIMD target's code (avx3, avx2 or scalar; default: the CPU's "
                   "best): the kernels, the baselines' key loops and vqsort alike")
      ->check(CLI::IsMember({"avx3", "avx2", "scalar"}, CLI::ignore_case));
  c_bench->footer(
      "Sort rows are named 'sort <dtype> <asc|desc> N=<n> <distribution>', the distribution\n"
      "one of random, normal, narrow, dups16, sorted, reverse.\n"
      "Pin to one CPU for steady figures: taskset -c 1 gpsimd bench --no-threads.\n"
      "Exit status 1 when some output differs from the scalar reference.\n"
      "Example:\n  gpsimd bench\n  gpsimd bench 'sort fp32 asc N=2048' --samples 21\n"
      "  taskset -c 1 gpsimd bench --no-threads --target avx2   # the AVX2 paths on AVX-512\n"
      "  gpsimd bench sort --all-distributions\n  gpsimd bench --list");

  // The subcommand is the first argument that is not an option (the tool's own options
  // take no value). `gpsimd help [SUBCOMMAND]` is --help; a name that is no subcommand
  // is named, with the list.
  std::vector<std::string> names;
  for (const CLI::App* c : app.get_subcommands({})) names.push_back(c->get_name());
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i)
    list += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  std::vector<std::string> help_args;
  std::vector<char*> help_ptrs;
  int first = 1;
  while (first < argc && argv[first][0] == '-' && argv[first][1] != '\0') ++first;
  if (first < argc) {
    const std::string name = argv[first];
    if (name == "help") {
      // `gpsimd help` is `gpsimd --help`, `gpsimd help SUB` is `gpsimd SUB --help`.
      if (first + 1 < argc &&
          std::find(names.begin(), names.end(), argv[first + 1]) == names.end()) {
        fmt::print(stderr, "gpsimd help: '{}' is not a subcommand: expected {}\n", argv[first + 1],
                   list);
        return kExitUsage;
      }
      help_args = {argv[0]};
      if (first + 1 < argc) help_args.push_back(argv[first + 1]);
      help_args.push_back("--help");
      for (std::string& a : help_args) help_ptrs.push_back(a.data());
      argc = static_cast<int>(help_ptrs.size());
      argv = help_ptrs.data();
    } else if (std::find(names.begin(), names.end(), name) == names.end()) {
      fmt::print(stderr,
                 "gpsimd: '{}' is not a subcommand: expected {}\n"
                 "Run with --help for more information.\n",
                 name, list);
      return kExitUsage;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kExitOk : kExitUsage;
  }

  if (app.get_subcommands().empty()) {
    fmt::print(stderr,
               "gpsimd: a subcommand is required: {}\n"
               "Run with --help for more information.\n",
               list);
    return kExitUsage;
  }
  // "-" is standard input, which can be read once.
  std::vector<std::string> all = inputs;
  all.push_back(input);
  all.insert(all.end(), vo.files.begin(), vo.files.end());
  if (std::count(all.begin(), all.end(), "-") > 1) {
    fmt::print(stderr, "gpsimd: - (standard input) is given more than once; it can be read once\n");
    return kExitUsage;
  }

  const Format fmt_in = *parse_format(format);
  if (c_asm->parsed()) {
    ao.input = input;
    ao.format = fmt_in;
    return cmd_asm(ao);
  }
  if (c_dis->parsed()) {
    dio.inputs = inputs;
    dio.format = fmt_in;
    return cmd_dis(dio);
  }
  if (c_check->parsed()) {
    co.inputs = inputs;
    co.format = fmt_in;
    co.nc = nc_of(nc);
    co.engine = engine_of(engine);
    return cmd_check(co);
  }
  if (c_run->parsed()) {
    ro.input = input;
    ro.format = fmt_in;
    ro.nc = nc_of(nc);
    ro.engine = engine_of(engine);
    ro.trace = ro.trace || ro.trace_bytes;
    return cmd_run(ro);
  }
  if (c_vec->parsed()) {
    vo.engine = engine_of(engine);
    return cmd_vectors(vo);
  }
  if (c_explain->parsed()) {
    if (inputs.empty() == eo.text.empty()) {
      fmt::print(stderr,
                 "gpsimd explain: give either FILE or -e TEXT\n"
                 "Run with --help for more information.\n");
      return kExitUsage;
    }
    if (!index.empty()) eo.index = *parse_whole(index, 0, UINT64_MAX);  // checked above
    eo.inputs = inputs;
    eo.format = fmt_in;
    eo.nc = nc_of(nc);
    eo.engine = engine_of(engine);
    return cmd_explain(eo);
  }
  if (c_demo->parsed()) return cmd_demo();
  if (c_bench->parsed()) {
    bo.threads = !no_threads;
    return run_bench_suite(bo, stdout);
  }
  return kExitUsage;
}
