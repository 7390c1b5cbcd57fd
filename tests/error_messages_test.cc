// The error-quality table (docs/robustness.md): bad inputs to the command-line tool, the
// assembler and the vector loader, each with the exact message it must produce. Every
// message names the place (file, line, column, key or option), the offending value and
// what is allowed. The Python API's table is python/tests/test_error_messages.py.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "gpsimd/asm.h"
#include "gpsimd/vectors.h"

namespace gpsimd {
namespace {

namespace fs = std::filesystem;

// ---- the command-line tool -------------------------------------------------------------

constexpr const char* kSortHead =
    "Sort num_active_channels=1, in_out_dtype=(FP32, FP32), comparison=IS_LT";
constexpr const char* kSortOperands =
    "    src_mem_pattern=sbuf[p=0, off=0x0] num=[8],\n"
    "    dst_mem_pattern=sbuf[p=0, off=0x100] num=[2,8]\n";

// A .npy file (version 1.0) with the given header dict and data bytes.
std::string npy(const std::string& dict, std::size_t data_bytes) {
  std::string f = "\x93NUMPY";
  f += '\x01';
  f += '\x00';
  f += static_cast<char>(dict.size());
  f += static_cast<char>(dict.size() >> 8);
  return f + dict + std::string(data_bytes, '\x01');
}

struct CliCase {
  const char* name;
  std::vector<std::pair<std::string, std::string>> files;  // written to the work directory
  std::string args;
  int exit_status;
  std::vector<std::string> lines;  // each must be a whole line of the output
};

std::vector<CliCase> cli_cases() {
  const std::string head = kSortHead;
  return {
      {"check names the clause, field, value and rule",
       {{"stable.gpsimd", ".nc v3\n" + head + ", stable=2,\n" + kSortOperands}},
       "check stable.gpsimd",
       1,
       {"stable.gpsimd:2: Sort: invalid", "    sort_valid_stable: stable = 0x02, must be 0 or 1"}},
      {"run names a register address fault",
       {{"fault.gpsimd", ".reg 5 = 0x7fffffff\n" + head +
                             ",\n    src_mem_pattern=reg(5) num=[8],\n"
                             "    dst_mem_pattern=sbuf[p=0, off=0x100] num=[2,8]\n"}},
       "run fault.gpsimd",
       1,
       {"fault.gpsimd:2: Sort did not retire: fault",
        "    bad-address: src_mem_pattern: address 0x7fffffff (from register 5): ADDR4 mode bits "
        "29-30 are 3, must be 0"}},
      {"run names a wait that can never be satisfied",
       {{"wait.gpsimd", head + ", wait_mode=GE, wait_idx=3, value=2,\n" + kSortOperands}},
       "run wait.gpsimd",
       1,
       {"wait.gpsimd:1: Sort did not retire: fault",
        "    sync-would-block: waits for semaphore 3 >= 0x00000002, it holds 0x00000000 and "
        "nothing else runs"}},
      {"binary input that is not whole words",
       {{"short.bin", std::string(100, '\0')}},
       "dis short.bin",
       2,
       {"gpsimd dis: short.bin: 100 bytes is not a whole number of 64-byte words"}},
      {"hex input with a short word",
       {{"bad.hex", "9610000000000000\n"}},
       "dis bad.hex",
       2,
       {"gpsimd dis: bad.hex:1:1: error: the input ends 16 hex digits into this word: a word "
        "needs 128 (64 bytes) (at '9610000000000000')",
        "  1 | 9610000000000000", "    | ^~~~~~~~~~~~~~~~"}},
      {"assembly error with the source line and a caret",
       {{"typo.gpsimd", "Sortt x=1\n"}},
       "asm typo.gpsimd",
       2,
       {"gpsimd asm: typo.gpsimd:1:1: error: unknown instruction: did you mean Sort? (expected "
        "RangeSelect, TensorScalarSelect, GetSequenceBounds, Sort, AffineSelect, Iota, "
        "MatchValueLoad, Max8, FindIndex8, MatchReplace8, NonzeroWithCount, "
        "CopyPredicatedScalar, DveReadAccumulator, TensorTensorArith, TensorTensorBitvec, "
        "TensorScalarArith, TensorScalarBitvec, TensorScalarPtrArith, TensorScalarPtrBitvec, "
        "Copy, Cast, Memset, TensorReduceArith, TensorReduceBitvec, TensorTensorScan, "
        "ScalarTensorTensorArith, ScalarTensorTensorBitvec, CopyPredicated, "
        "TensorScalarCacheCumulative, SelectReduce or a directive (.data, .dump, ...)) (at "
        "'Sortt')",
        "  1 | Sortt x=1", "    | ^~~~~"}},
      {"assembly error on a control character: escaped on the line and under the caret",
       {{"ctl.gpsimd", "Sort\t\x1b[2J x\n"}},
       "asm ctl.gpsimd",
       2,
       {"gpsimd asm: ctl.gpsimd:1:6: error: unexpected byte 0x1b: expected a name, a .directive, "
        "a number, a quoted file name or one of = , ( ) [ ] .. -> <- (# and ; start a comment) "
        "(at '\\x1b')",
        "  1 | Sort\t\\x1b[2J x", "    |     \t^~~~"}},
      {"a missing input file",
       {},
       "check absent.gpsimd",
       2,
       {"gpsimd check: absent.gpsimd: cannot read the file: No such file or directory"}},
      {".load of a missing file",
       {{"load.gpsimd", ".load sbuf[p=0, off=0x0] <- missing.npy\n"}},
       "run load.gpsimd",
       2,
       {"gpsimd run: load.gpsimd:1: .load: missing.npy: cannot open the file: No such file or "
        "directory"}},
      {".load of an array whose rows do not match the partitions",
       {{"rows.gpsimd", ".load sbuf[p=0..1, off=0x0] <- rows.npy\n"},
        {"rows.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }\n", 48)}},
       "run rows.gpsimd",
       2,
       {"gpsimd run: rows.gpsimd:1: .load: rows.npy has shape (3, 4) but sbuf[p=0..1, off=0x0] "
        "has 2 partitions: expected (2, M)"}},
      {".load of a truncated array",
       {{"trunc.gpsimd", ".load sbuf[p=0, off=0x0] <- trunc.npy\n"},
        {"trunc.npy", npy("{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }\n", 8)}},
       "run trunc.gpsimd",
       2,
       {"gpsimd run: trunc.gpsimd:1: .load: trunc.npy: truncated: the shape needs 16 data "
        "bytes, the file has 8"}},
      {".dump past the end of a partition",
       {{"dump.gpsimd", ".dump sbuf[p=0, off=0x37ff0] FP32 [8]\n"}},
       "run dump.gpsimd",
       2,
       {"gpsimd run: dump.gpsimd:1: .dump sbuf[p=0, off=0x37ff0]: 32 bytes at offset 0x37ff0 "
        "run past the end of the v3 SBUF partition (0x38000 bytes)"}},
      {"explain --index beyond the program",
       {{"one.gpsimd", head + ",\n" + kSortOperands}},
       "explain one.gpsimd --index 5",
       2,
       {"gpsimd explain: --index 5 is out of range: one.gpsimd has 1 word"}},
      {"an unknown generation",
       {{"one.gpsimd", head + ",\n" + kSortOperands}},
       "check one.gpsimd --nc v9",
       2,
       {"--nc: 'v9' is not a generation: expected v2, v3, v4 or v5, or a name of one: trn1, "
        "inf2, sunda (v2); trn2, cayman (v3); mariana (v4); maverick (v5)"}},
      {"an unknown input format",
       {{"one.gpsimd", head + ",\n" + kSortOperands}},
       "check one.gpsimd --format xyz",
       2,
       {"--format: 'xyz' is not a format: expected auto, asm, bin or hex"}},
      {"a vector file of another format",
       {{"v.json", R"({"format": "gpsimd-vectors/2", "vectors": []})"}},
       "vectors v.json",
       2,
       {"gpsimd vectors: v.json.format: 'gpsimd-vectors/2' is not gpsimd-vectors/1"}},
      {"a missing vector file",
       {},
       "vectors absent.json",
       2,
       {"gpsimd vectors: absent.json: cannot read the file: No such file or directory"}},
  };
}

// Runs the tool in `dir` with `args`; returns the exit status and stdout + stderr.
std::pair<int, std::string> run_tool(const fs::path& dir, const std::string& args) {
  const std::string cmd =
      "cd '" + dir.string() + "' && '" GPSIMD_BINARY_DIR "/tools/gpsimd' " + args + " 2>&1";
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return {-1, "popen failed"};
  std::string out;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  const int st = ::pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

bool has_line(const std::string& out, const std::string& line) {
  std::size_t start = 0;
  while (start <= out.size()) {
    std::size_t end = out.find('\n', start);
    if (end == std::string::npos) end = out.size();
    if (out.compare(start, end - start, line) == 0) return true;
    start = end + 1;
  }
  return false;
}

TEST(ErrorMessages, CommandLineTool) {
  const fs::path dir =
      fs::path(testing::TempDir()) / ("gpsimd_errors_" + std::to_string(::getpid()));
  for (const CliCase& c : cli_cases()) {
    SCOPED_TRACE(c.name);
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const auto& [name, content] : c.files)
      std::ofstream(dir / name, std::ios::binary) << content;
    const auto [status, out] = run_tool(dir, c.args);
    EXPECT_EQ(status, c.exit_status) << "gpsimd " << c.args << "\n" << out;
    for (const std::string& line : c.lines)
      EXPECT_TRUE(has_line(out, line)) << "gpsimd " << c.args << "\nexpected the line\n"
                                       << line << "\nin\n"
                                       << out;
  }
  fs::remove_all(dir);
}

// ---- the assembler -----------------------------------------------------------------------

struct AsmCase {
  const char* text;
  const char* message;  // AsmError::to_string() for the file "t.gpsimd"
};

TEST(ErrorMessages, Assembler) {
  const AsmCase cases[] = {
      {"Sort num_active_channels=300",
       "t.gpsimd:1:26: error: num_active_channels: 300 is out of range: expected 0..255 (at "
       "'300')"},
      {"Sort num_active_channels=1, comparison=IS_FOO",
       "t.gpsimd:1:40: error: unknown ALU op for comparison: expected an ALU_OP name of SPEC §3.8 "
       "(docs/assembly.md lists "
       "them: IS_LT, ADD, BITWISE_AND, ...) or a code 0..255 (at "
       "'IS_FOO')"},
      {"Sort num_active_channels=1, in_out_dtype=(FP33, FP32)",
       "t.gpsimd:1:43: error: unknown dtype for in_out_dtype: did you mean FP32? (expected one "
       "of INVALID, UINT64, INT8, UINT8, INT16, UINT16, BF16, FP16, INT32, UINT32, FP32, FP32R, "
       "INT64, FP8_E3, FP8_E4, FP8_E5, or a code 0..15) (at 'FP33')"},
      {"Sort num_active_channels=1, colour=3",
       "t.gpsimd:1:29: error: Sort has no field 'colour' (fields: header, wait_mode, wait_idx, "
       "update_mode, update_idx, value, num_active_channels, index_offset_src, in_out_dtype, "
       "comparison, src_mem_pattern, dst_mem_pattern, index_offset, stable, reserved1) (at "
       "'colour')"},
      {"Sort num_active_channels=1, num_active_channels=2",
       "t.gpsimd:1:29: error: field 'num_active_channels' is given twice (first at column 6) "
       "(at 'num_active_channels')"},
      {"Sort src_mem_pattern=sbuf[p=128, off=0x0] num=[8]",
       "t.gpsimd:1:29: error: partition p: 128 is out of range: expected 0..127 (at '128')"},
      {"Sort src_mem_pattern=sbuf[p=1, off=0x40000] num=[8]",
       "t.gpsimd:1:36: error: sbuf offset: 0x40000 is out of range: expected 0..0x3ffff (at "
       "'0x40000')"},
      {"Sort src_mem_pattern=sbuf[p=1, off=0x0] num=[8,2]",
       "t.gpsimd:1:45: error: src_mem_pattern is a TENSOR1D: num needs 1 entry, got 2 (at '[')"},
      {"Sort src_mem_pattern=sbuf[p=1, off=0x0] num=[70000]",
       "t.gpsimd:1:46: error: num_elem: 70000 is out of range: expected 0..65535 (at '70000')"},
      {"TensorScalarSelect src1_imm=0x100000000",
       "t.gpsimd:1:29: error: src1_imm: 0x100000000 is out of range: expected 0..0xffffffff (at "
       "'0x100000000')"},
      {"Sort num_active_channels=1",
       "t.gpsimd:1:1: error: Sort is missing required fields: in_out_dtype, comparison, "
       "src_mem_pattern, dst_mem_pattern (at 'Sort')"},
      {".reg 64 = 1",
       "t.gpsimd:1:6: error: register id: 64 is out of range: expected 0..63 (at '64')"},
      {".acc 5..3 = 1.0", "t.gpsimd:1:7: error: accumulator range 5..3 is empty (at '..')"},
      {".nc v9",
       "t.gpsimd:1:5: error: expected a generation: v2, v3, v4 or v5, or a name of one: trn1, "
       "inf2, sunda (v2); trn2, cayman (v3); mariana (v4); maverick (v5) (at 'v9')"},
      {".data sbuf[p=0..1, off=0x0] FP32 = [1.0, 2.0, 3.0]",
       "t.gpsimd:1:36: error: 3 values do not split evenly over 2 partitions (at '[')"},
      {".data sbuf[p=0, off=0x0] INT8 = [300]",
       "t.gpsimd:1:34: error: 300 is out of range for INT8: expected -128..127 (at '300')"},
      {".frob 3",
       "t.gpsimd:1:1: error: unknown directive: expected .nc, .queue, .engine, .reg, .sem, .acc, "
       ".data, "
       ".load, "
       ".dump or .word (at '.frob')"},
      {".dump sbuf[p=0, off=0x0] FP32 [0]",
       "t.gpsimd:1:32: error: element count: 0 is out of range: expected 1..262144 (at '0')"},
      {".word 0x12",
       "t.gpsimd:1:7: error: .word: 2 hex digits, a word needs exactly 128 (64 bytes in address "
       "order) (at '0x12')"},
  };
  for (const AsmCase& c : cases) {
    SCOPED_TRACE(c.text);
    AsmError e;
    EXPECT_FALSE(parse_program(c.text, "t.gpsimd", &e).has_value());
    EXPECT_EQ(e.to_string(), c.message);
  }
}

// ---- the vector loader --------------------------------------------------------------------

struct VectorCase {
  std::string json;
  const char* message;  // for the file "v.json"
};

// A vector file with one vector named "a" whose keys are `extra` plus `expect`.
std::string one_vector(const std::string& extra,
                       const std::string& expect = R"({"status": "ok"})") {
  return R"({"format": "gpsimd-vectors/1", "vectors": [{"name": "a", )" + extra +
         R"(, "expect": )" + expect + "}]}";
}

TEST(ErrorMessages, VectorLoader) {
  const std::string word = R"("instruction": ")" + std::string(128, '0') + R"(")";
  const std::string head = R"("nc": "v3", )" + word;
  const VectorCase cases[] = {
      {R"({"vectors": []})", "v.json: missing key 'format'"},
      {R"({"format": "gpsimd-vectors/1", "vectors": {}})", "v.json.vectors: expected an array"},
      {one_vector(R"("nc": "v9", )" + word),
       "v.json: vector 0 ('a').nc: 'v9' must be v2, v3, v4 or v5"},
      {one_vector(R"("nc": "v3", "instruction": "00")"),
       "v.json: vector 0 ('a').instruction: 2 hex digits, a word needs exactly 128"},
      {one_vector(head + R"(, "registers": {"64": "0x1"})"),
       "v.json: vector 0 ('a').registers['64']: index must be a decimal number 0..63"},
      {one_vector(head + R"(, "registers": {"5": "0x100000000"})"),
       "v.json: vector 0 ('a').registers['5']: '0x100000000' is not a 32-bit value (write it as "
       "\"0x...\")"},
      {one_vector(head + R"(, "semaphores": {"5": -1})"),
       "v.json: vector 0 ('a').semaphores['5']: -1 is not a 32-bit value (write it as "
       "\"0x...\")"},
      {one_vector(head + R"(, "strict": 1)"),
       "v.json: vector 0 ('a').strict: 1 must be true or false"},
      {one_vector(head +
                  R"(, "memory": [{"space": "sbuf", "partition": 128, "offset": 0, "hex": "00"}])"),
       "v.json: vector 0 ('a').memory[0].partition: 128 must be 0..127"},
      {one_vector(head +
                  R"(, "memory": [{"space": "dram", "partition": 1, "offset": 0, "hex": "00"}])"),
       "v.json: vector 0 ('a').memory[0].space: 'dram' must be \"sbuf\" or \"psum\""},
      {one_vector(
           head +
           R"(, "memory": [{"space": "psum", "partition": 1, "offset": 16383, "hex": "0000"}])"),
       "v.json: vector 0 ('a').memory[0]: bytes [0x3fff, 0x4001) must lie inside the psum "
       "partition of v3 [0x0, 0x4000)"},
      {one_vector(head +
                  R"(, "memory": [{"space": "sbuf", "partition": 1, "offset": 0, "hex": "0g"}])"),
       "v.json: vector 0 ('a').memory[0].hex: 'g' at position 1 is not a hex digit"},
      {one_vector(head, R"({"status": "maybe"})"),
       "v.json: vector 0 ('a').expect.status: 'maybe' must be ok, invalid or fault"},
      {one_vector(head, R"({"status": "fault", "fault": "oops"})"),
       "v.json: vector 0 ('a').expect.fault: 'oops' must be bad-address, shape-mismatch, "
       "sync-would-block or too-large"},
      {R"({"format": "gpsimd-vectors/1", "vectors": [1, 2]})",
       "v.json: vector 0: expected an object"},
  };
  for (const VectorCase& c : cases) {
    SCOPED_TRACE(c.json);
    std::string error;
    EXPECT_FALSE(parse_vectors(c.json, "v.json", &error).has_value());
    EXPECT_EQ(error, c.message);
  }
}

}  // namespace
}  // namespace gpsimd
