// Golden tests of the gpsimd command-line tool: `dis`, `check`, `run --trace` and
// `explain` on every shipped example, `demo`, and malformed inputs (docs/cli.md).
//
// The tool runs from the source directory, so file names in its output are relative.
// Each golden file under tests/golden/ was reviewed line by line against SPEC.md when
// it was written. GPSIMD_UPDATE_GOLDEN=1 rewrites them from the tool's output, to be
// reviewed again before they are committed.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tool_runner.h"

namespace {

namespace fs = std::filesystem;

const std::string kBinary = GPSIMD_BINARY_DIR "/tools/gpsimd";
const std::string kSource = GPSIMD_SOURCE_DIR;
const std::string kGolden = GPSIMD_SOURCE_DIR "/tests/golden";

using Result = gpsimd::testing::ToolResult;
using gpsimd::testing::read_file;

// Runs the tool with `args` from the source directory.
Result run(const std::vector<std::string>& args) {
  return gpsimd::testing::run_tool(args);
}

bool updating() {
  return std::getenv("GPSIMD_UPDATE_GOLDEN") != nullptr;
}

void expect_golden(const std::string& actual, const std::string& golden) {
  const std::string path = kGolden + "/" + golden;
  if (updating()) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << path << " is missing";
  EXPECT_EQ(actual, read_file(path)) << "golden: tests/golden/" << golden;
}

const char* const kExamples[] = {"range_select",
                                 "tensor_scalar_select",
                                 "get_sequence_bounds",
                                 "sort",
                                 "demo",
                                 "affine_select",
                                 "iota",
                                 "match_value_load",
                                 "max8",
                                 "find_index8",
                                 "match_replace8",
                                 "tensor_tensor",
                                 "tensor_scalar",
                                 "cast",
                                 "memset",
                                 "tensor_reduce",
                                 "cumsum",
                                 "scalar_tensor_tensor",
                                 "copy_predicated",
                                 "select_reduce"};

TEST(CliGolden, DisOfEveryExample) {
  for (const char* ex : kExamples) {
    const Result r = run({"dis", std::string("examples/") + ex + ".gpsimd"});
    EXPECT_EQ(r.status, 0) << ex << ": " << r.err;
    EXPECT_EQ(r.err, "");
    expect_golden(r.out, std::string("dis/") + ex + ".txt");
  }
}

TEST(CliGolden, CheckOfEveryExample) {
  for (const char* ex : kExamples) {
    const Result r = run({"check", std::string("examples/") + ex + ".gpsimd"});
    EXPECT_EQ(r.status, 0) << ex << ": " << r.out << r.err;
    expect_golden(r.out, std::string("check/") + ex + ".txt");
  }
  // The demo's RangeSelect and GetSequenceBounds do not exist on v2.
  Result r = run({"check", "examples/demo.gpsimd", "--nc", "v2"});
  EXPECT_EQ(r.status, 1);
  expect_golden(r.out, "check/demo_v2.txt");
  // Strict (vendor) validation rejects Sort's top-K.
  r = run({"check", "examples/sort.gpsimd", "--strict"});
  EXPECT_EQ(r.status, 1);
  expect_golden(r.out, "check/sort_strict.txt");
}

TEST(CliGolden, RunTraceOfEveryExample) {
  for (const char* ex : kExamples) {
    const Result r =
        run({"run", std::string("examples/") + ex + ".gpsimd", "--trace", "--no-write"});
    EXPECT_EQ(r.status, 0) << ex << ": " << r.err;
    EXPECT_EQ(r.err, "");
    expect_golden(r.out, std::string("run/") + ex + ".txt");
  }
}

TEST(CliGolden, ExplainOfEveryExample) {
  for (const char* ex : kExamples) {
    const Result r = run({"explain", std::string("examples/") + ex + ".gpsimd"});
    EXPECT_EQ(r.status, 0) << ex << ": " << r.err;
    expect_golden(r.out, std::string("explain/") + ex + ".txt");
  }
}

TEST(CliGolden, Demo) {
  const Result r = run({"demo"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
  expect_golden(r.out, "demo.txt");
}

// Programs that stop: an invalid word, a fault, and what explain says about them.
TEST(CliGolden, ProgramsThatStop) {
  Result r = run({"run", "tests/golden/cases/invalid.gpsimd", "--trace"});
  EXPECT_EQ(r.status, 1);
  expect_golden(r.out, "run/invalid.txt");
  r = run({"run", "tests/golden/cases/fault.gpsimd", "--trace"});
  EXPECT_EQ(r.status, 1);
  expect_golden(r.out, "run/fault.txt");
  r = run({"explain", "tests/golden/cases/fault.gpsimd"});
  EXPECT_EQ(r.status, 0);
  expect_golden(r.out, "explain/fault.txt");
  r = run({"explain", "tests/golden/cases/invalid.gpsimd"});
  EXPECT_EQ(r.status, 0);
  expect_golden(r.out, "explain/invalid.txt");
  r = run({"dis", "tests/golden/cases/words.hex"});
  EXPECT_EQ(r.status, 0);
  expect_golden(r.out, "dis/words_hex.txt");
  r = run({"check", "tests/golden/cases/words.hex"});
  EXPECT_EQ(r.status, 1);
  expect_golden(r.out, "check/words_hex.txt");
}

// Programs of queues (SPEC §8): the examples' end states (SPEC §8.10's first three
// examples: ok, the race of the missing wait, the cycle's deadlock), a fault and an
// invalid program, what check says of them, their JSON, and dis printing the queues back.
TEST(CliGolden, ProgramsOfQueues) {
  struct Case {
    std::vector<std::string> args;
    int status;
    std::string golden;
  };
  const std::vector<Case> cases = {
      {{"run", "examples/producer_consumer.gpsimd", "--schedule"}, 0, "run/producer_consumer.txt"},
      {{"run", "examples/race.gpsimd", "--no-write"}, 4, "run/race.txt"},
      {{"run", "examples/race.gpsimd", "--trace", "--schedule"}, 4, "run/race_trace.txt"},
      {{"run", "examples/deadlock.gpsimd"}, 3, "run/deadlock.txt"},
      {{"run", "tests/golden/cases/queue_fault.gpsimd", "--schedule"}, 1, "run/queue_fault.txt"},
      {{"run", "tests/golden/cases/queue_invalid.gpsimd"}, 1, "run/queue_invalid.txt"},
      {{"run", "examples/race.gpsimd", "--json", "--no-write"}, 4, "run/race_json.txt"},
      {{"run", "examples/deadlock.gpsimd", "--json"}, 3, "run/deadlock_json.txt"},
      {{"run", "tests/golden/cases/queue_invalid.gpsimd", "--json"},
       1,
       "run/queue_invalid_json.txt"},
      {{"check", "examples/producer_consumer.gpsimd", "tests/golden/cases/queue_invalid.gpsimd"},
       1,
       "check/queues.txt"},
      {{"check", "--json", "tests/golden/cases/queue_fault.gpsimd"},
       0,
       "check/queue_fault_json.txt"},
      {{"dis", "examples/race.gpsimd"}, 0, "dis/race.txt"},
  };
  for (const Case& c : cases) {
    const Result r = run(c.args);
    EXPECT_EQ(r.status, c.status) << c.golden << ": " << r.err;
    EXPECT_EQ(r.err, "") << c.golden;
    expect_golden(r.out, c.golden);
  }
  // The text dis prints is the same program.
  const Result dis = run({"dis", "examples/deadlock.gpsimd"});
  const Result back = gpsimd::testing::run_tool({"run", "-"}, kSource, dis.out);
  EXPECT_EQ(back.status, 3) << back.err;
  EXPECT_NE(back.out.find("dve:0 <stdin>:"), std::string::npos) << back.out;
  // asm writes the words in file order and says that their queues stay in the text.
  Result r = run({"asm", "examples/race.gpsimd"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 2);
  EXPECT_EQ(r.out.substr(0, 2), "7e");  // pool:0 (the Iota) comes first in the file
  EXPECT_NE(r.err.find("is a program of queues (.queue): the words are written in file order"),
            std::string::npos)
      << r.err;
  // --engine is for streams, --schedule and --timeline for programs.
  r = run({"run", "examples/race.gpsimd", "--engine", "pool"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--engine is for streams"), std::string::npos) << r.err;
  r = run({"run", "examples/max8.gpsimd", "--schedule"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--schedule is for programs of queues"), std::string::npos) << r.err;
}

// Output at real tile sizes: a 128 x 512 BF16 dump elided like NumPy (and with chosen rows
// and columns, and other edge items), the trace's values by dtype with a cut-off and its
// bytes on request, the one-line accumulator summary, and the annotated words.
TEST(CliGolden, OutputAtRealTileSizes) {
  Result r = run({"run", "examples/causal_tile.gpsimd", "--no-write"});
  EXPECT_EQ(r.status, 0) << r.err;
  expect_golden(r.out, "run/causal_tile.txt");
  r = run({"run", "examples/causal_tile.gpsimd", "--no-write", "--edgeitems", "2"});
  EXPECT_EQ(r.status, 0) << r.err;
  expect_golden(r.out, "run/causal_tile_edgeitems2.txt");
  r = run({"run", "examples/range_select.gpsimd", "--no-write", "--threshold", "8", "--edgeitems",
           "1"});
  EXPECT_EQ(r.status, 0) << r.err;
  expect_golden(r.out, "run/range_select_threshold8.txt");
  r = run({"run", "examples/sort.gpsimd", "--no-write", "--trace-bytes"});
  EXPECT_EQ(r.status, 0) << r.err;
  expect_golden(r.out, "run/sort_trace_bytes.txt");
  r = run({"run", "tests/golden/cases/acc128.gpsimd", "--no-write"});
  EXPECT_EQ(r.status, 0) << r.err;
  expect_golden(r.out, "run/acc128.txt");
  r = run({"dis", "--annotate", "examples/sort.gpsimd"});
  EXPECT_EQ(r.status, 0) << r.err;
  expect_golden(r.out, "dis/sort_annotate.txt");
  r = run({"check", "tests/golden/cases/rules.gpsimd"});
  EXPECT_EQ(r.status, 1);
  expect_golden(r.out, "check/rules.txt");
  r = run({"dis", "--annotate", "tests/golden/cases/words.hex"});
  EXPECT_EQ(r.status, 0) << r.err;
  expect_golden(r.out, "dis/words_hex_annotate.txt");
}

// The JSON reports, by the one rule of docs/cli.md: integers (counts, indices, offsets,
// lines, codes, the opcode, semaphore values, search-lane indices) are numbers; bit
// patterns (FP32 values, the header, immediates, addresses, the matched flags) are "0x..."
// strings; byte runs are hex digits.
TEST(CliGolden, JsonReports) {
  Result r = run({"run", "--json", "--trace", "--no-write", "examples/sort.gpsimd"});
  EXPECT_EQ(r.status, 0) << r.err;
  expect_golden(r.out, "run/sort_json.txt");
  r = run({"run", "--json", "--trace", "--no-write", "examples/find_index8.gpsimd"});
  EXPECT_EQ(r.status, 0) << r.err;
  expect_golden(r.out, "run/find_index8_json.txt");
  r = run({"dis", "--json", "examples/sort.gpsimd"});
  EXPECT_EQ(r.status, 0) << r.err;
  expect_golden(r.out, "dis/sort_json.txt");
  r = run({"check", "--json", "tests/golden/cases/rules.gpsimd"});
  EXPECT_EQ(r.status, 1);
  expect_golden(r.out, "check/rules_json.txt");
}

// Malformed inputs: each tests/golden/errors/NAME.* has NAME.err, the exact stderr; the
// tool exits 2 and prints nothing on stdout.
TEST(CliGolden, MalformedInputs) {
  std::vector<fs::path> inputs;
  for (const auto& e : fs::directory_iterator(kGolden + "/errors"))
    if (e.path().extension() != ".err" && e.path().extension() != ".cmd")
      inputs.push_back(e.path());
  std::sort(inputs.begin(), inputs.end());
  EXPECT_GE(inputs.size(), 12u);
  for (const fs::path& in : inputs) {
    const std::string rel = "tests/golden/errors/" + in.filename().string();
    // NAME.cmd, when present, names the subcommand (default: check).
    fs::path cmd_file = in;
    cmd_file.replace_extension(".cmd");
    std::string cmd = "check";
    if (fs::exists(cmd_file)) {
      cmd = read_file(cmd_file.string());
      while (!cmd.empty() && (cmd.back() == '\n' || cmd.back() == ' ')) cmd.pop_back();
    }
    const Result r = run({cmd, rel});
    EXPECT_EQ(r.status, 2) << rel;
    EXPECT_EQ(r.out, "") << rel;
    fs::path golden = in;
    golden.replace_extension(".err");
    expect_golden(r.err, "errors/" + golden.filename().string());
  }
}

}  // namespace
