// The tool's inputs and outputs, as docs/cli.md ("Inputs and outputs") promises them:
// `-o -` and `-` for every input, several files for check/dis/explain, unknown
// subcommands and `help`, I/O errors with the system's reason, option values refused as
// typed, hex words as people paste them, and the input size limits.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "gpsimd/asm.h"
#include "gpsimd/isa.h"
#include "tool_runner.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Result = gpsimd::testing::ToolResult;
using gpsimd::testing::read_file;

const std::string kSource = GPSIMD_SOURCE_DIR;

Result run(const std::vector<std::string>& args, const std::string& cwd = kSource,
           const std::string& input = "") {
  return gpsimd::testing::run_tool(args, cwd, input);
}

// A fresh scratch directory for one test.
std::string scratch(const std::string& name) {
  const fs::path d = fs::path(GPSIMD_BINARY_DIR) / "cli_io_test" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

void write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// The two words of examples/sort.gpsimd as raw bytes, and their disassembly.
struct SortWords {
  std::string bin, text;
};
SortWords sort_words(const std::string& dir) {
  const std::string bin = dir + "/sort.bin";
  EXPECT_EQ(run({"asm", "examples/sort.gpsimd", "-o", bin}).status, 0);
  SortWords w{read_file(bin), ""};
  EXPECT_EQ(w.bin.size(), 128u);
  w.text = run({"dis", bin}).out;
  EXPECT_NE(w.text.find("Sort "), std::string::npos);
  return w;
}

// The first line explain prints for a word given with -e, up to the mnemonic.
std::string fmt_line(std::string_view mnemonic) {
  return "<command line>:1: " + std::string(mnemonic) + " (";
}

std::string hex_byte(unsigned char b) {
  const char* d = "0123456789abcdef";
  return {d[b >> 4], d[b & 15]};
}

// ---- 3. -o -, - for every input, several files --------------------------------------------

TEST(CliIo, DashOutputIsStandardOutput) {
  const std::string dir = scratch("dash_out");
  const SortWords w = sort_words(dir);
  Result r = run({"asm", kSource + "/examples/sort.gpsimd", "-o", "-"}, dir);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, w.bin);  // raw words on stdout
  EXPECT_FALSE(fs::exists(dir + "/-")) << "-o - must not create a file named -";
  EXPECT_NE(r.err.find("<stdout> holds only the 2 instruction words"), std::string::npos) << r.err;
  r = run({"asm", kSource + "/examples/sort.gpsimd", "--hex", "-o", "-"}, dir);
  EXPECT_EQ(r.status, 0);
  std::string hex;
  for (std::size_t i = 0; i < w.bin.size(); ++i)
    hex += hex_byte(static_cast<unsigned char>(w.bin[i])) + (i % 64 == 63 ? "\n" : "");
  EXPECT_EQ(r.out, hex);
  EXPECT_FALSE(fs::exists(dir + "/-"));
}

TEST(CliIo, DashReadsStandardInputForEveryInput) {
  const std::string dir = scratch("dash_in");
  const SortWords w = sort_words(dir);
  const std::string src = read_file(kSource + "/examples/iota.gpsimd");
  EXPECT_EQ(run({"asm", "-", "-o", "-"}, dir, w.bin).out, w.bin);
  EXPECT_EQ(run({"dis", "-"}, dir, w.bin).out, w.text);
  Result r = run({"check", "-"}, dir, src);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("<stdin>:10: Iota: ok"), std::string::npos) << r.out;
  r = run({"explain", "-"}, dir, src);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("<stdin>:10: Iota"), std::string::npos) << r.out;
  r = run({"run", "-", "--no-write"}, dir, src);
  EXPECT_EQ(r.status, 0) << r.err;
  r = run({"vectors", "-"}, dir, read_file(GPSIMD_CONFORMANCE_DIR "/get_sequence_bounds.json"));
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(" passed, 0 failed"), std::string::npos) << r.out;
  // Standard input is read once.
  r = run({"check", "-", "-"}, dir, src);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpsimd: - (standard input) is given more than once; it can be read once\n");
}

TEST(CliIo, CheckDisAndExplainTakeSeveralFiles) {
  const std::string dir = scratch("several");
  write(dir + "/bad.gpsimd",
        "Sort num_active_channels=1, in_out_dtype=(FP32, FP32), comparison=IS_LT, stable=2,\n"
        "    src_mem_pattern=sbuf[p=0, off=0x0] num=[8],\n"
        "    dst_mem_pattern=sbuf[p=0, off=0x100] num=[2,8]\n");
  const std::string sort = kSource + "/examples/sort.gpsimd";
  const std::string iota = kSource + "/examples/iota.gpsimd";
  // Every file is reported under its name; the status is the worst (invalid: 1).
  Result r = run({"check", sort, "bad.gpsimd", iota}, dir);
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "");
  for (const std::string& line : std::vector<std::string>{
           sort + ":14: Sort: ok", sort + ": 2 words, 0 invalid (v3)",
           "bad.gpsimd:1: Sort: invalid", "    sort_valid_stable: stable = 0x02, must be 0 or 1",
           "bad.gpsimd: 1 word, 1 invalid (v3)", iota + ": 2 words, 0 invalid (v3)"})
    EXPECT_NE(r.out.find(line + "\n"), std::string::npos) << line << "\nin\n" << r.out;
  // An unreadable file is reported and the others still run; the status is 2.
  r = run({"check", sort, "absent.gpsimd"}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "gpsimd check: absent.gpsimd: cannot read the file: No such file or directory\n");
  EXPECT_NE(r.out.find(sort + ": 2 words, 0 invalid (v3)"), std::string::npos) << r.out;
  // JSON: one object per file, in an array.
  r = run({"check", "--json", sort, "bad.gpsimd"}, dir);
  json j = json::parse(r.out);
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["file"], sort);
  EXPECT_EQ(j[1]["file"], "bad.gpsimd");
  EXPECT_EQ(j[1]["invalid"], 1);

  // dis: a comment line names each file, so the output still assembles.
  const SortWords w = sort_words(dir);
  r = run({"dis", "sort.bin", "sort.bin"}, dir);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.out, "# sort.bin\n" + w.text + "\n# sort.bin\n" + w.text);
  write(dir + "/twice.gpsimd", r.out);
  EXPECT_EQ(run({"asm", "twice.gpsimd", "-o", "-"}, dir).out, w.bin + w.bin);
  r = run({"dis", "--json", "sort.bin", "bad.gpsimd"}, dir);
  j = json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["file"], "sort.bin");
  EXPECT_EQ(j[0]["words"].size(), 2u);
  EXPECT_EQ(j[1]["words"][0]["mnemonic"], "Sort");

  // explain: one file after the other.
  r = run({"explain", sort, iota, "--index", "1"}, dir);
  EXPECT_EQ(r.status, 0) << r.err;
  const std::size_t a = r.out.find(sort + ":18: Sort"), b = r.out.find(iota + ":14: Iota");
  EXPECT_NE(a, std::string::npos) << r.out;
  EXPECT_NE(b, std::string::npos) << r.out;
  EXPECT_LT(a, b);
}

// ---- 4. subcommands, I/O errors, option values -----------------------------------------------

TEST(CliIo, UnknownSubcommandsAreNamedAndHelpIsASubcommand) {
  const std::string list = "asm, dis, check, run, vectors, explain, demo or bench";
  Result r = run({"frob"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpsimd: 'frob' is not a subcommand: expected " + list +
                       "\nRun with --help for more information.\n");
  r = run({});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpsimd: a subcommand is required: " + list +
                       "\nRun with --help for more information.\n");
  r = run({"help"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, run({"--help"}).out);
  EXPECT_NE(r.out.find("Usage: gpsimd"), std::string::npos) << r.out;
  r = run({"help", "check"});
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out, run({"check", "--help"}).out);
  r = run({"help", "frob"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpsimd help: 'frob' is not a subcommand: expected " + list + "\n");
}

TEST(CliIo, InputOutputErrorsGiveTheSystemsReason) {
  const std::string dir = scratch("io_errors");
  Result r = run({"dis", "no/such/file.gpsimd"}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "gpsimd dis: no/such/file.gpsimd: cannot read the file: No such file or directory\n");
  r = run({"check", "."}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "gpsimd check: .: cannot read the file: Is a directory\n");
  r = run({"asm", kSource + "/examples/sort.gpsimd", "-o", "no/such/dir/out.bin"}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "gpsimd asm: no/such/dir/out.bin: cannot write the file: No such file or directory\n");
  // A .dump that cannot be written (its directory is a file).
  write(dir + "/afile", "");
  write(dir + "/d.gpsimd", ".dump sbuf[p=0, off=0x0] FP32 [2] -> sub/x.npy\n");
  r = run({"run", "d.gpsimd", "--out-dir", "afile"}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(
      r.err,
      "gpsimd run: d.gpsimd:1: .dump: afile/sub/x.npy: cannot write the file: Not a directory\n");
  r = run({"vectors", "absent.json"}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "gpsimd vectors: absent.json: cannot read the file: No such file or directory\n");
}

TEST(CliIo, OptionValuesAreRefusedAsTyped) {
  struct Case {
    std::vector<std::string> args;
    std::string err;
  };
  const std::string help = "\nRun with --help for more information.\n";
  const Case cases[] = {
      {{"bench", "--samples", "-1"},
       "--samples: '-1' is not a sample count: expected a whole number from 1 to 1000"},
      {{"bench", "--samples", "99999999999999999999"},
       "--samples: '99999999999999999999' is not a sample count: expected a whole number from "
       "1 to 1000"},
      {{"bench", "--samples", "3x"},
       "--samples: '3x' is not a sample count: expected a whole number from 1 to 1000"},
      {{"bench", "--min-ms", "nan"},
       "--min-ms: 'nan' is not a time in ms: expected a number from 0.1 to 10000"},
      {{"bench", "--min-ms", "-5"},
       "--min-ms: '-5' is not a time in ms: expected a number from 0.1 to 10000"},
      {{"explain", "examples/sort.gpsimd", "--index", "-1"},
       "--index: '-1' is not a word number: expected a whole number from 0 to 1048575"},
      {{"explain", "examples/sort.gpsimd", "--index", "18446744073709551616"},
       "--index: '18446744073709551616' is not a word number: expected a whole number from 0 "
       "to 1048575"},
  };
  for (const Case& c : cases) {
    const Result r = run(c.args);
    EXPECT_EQ(r.status, 2) << c.err;
    EXPECT_EQ(r.err, c.err + help);
  }
}

// ---- 5. pasted words -----------------------------------------------------------------------

TEST(CliIo, HexWordsAreReadAsPeoplePasteThem) {
  const std::string dir = scratch("paste");
  const SortWords w = sort_words(dir);
  std::string plain, prefixed, bytes, c_array, split;
  for (std::size_t i = 0; i < w.bin.size(); ++i) {
    const std::string h = hex_byte(static_cast<unsigned char>(w.bin[i]));
    const bool last = i % 64 == 63;
    plain += h + (last ? "\n" : "");
    prefixed += (i % 64 == 0 ? "0x" : "") + h + (last ? "\n" : "");
    bytes += h + (last ? "\n" : " ");
    c_array += "0x" + h + (last ? ",\r\n" : ", ");
    split += h + (i % 16 == 15 ? "  # 16 bytes a line\n" : "");
  }
  for (const std::string& text : {plain, prefixed, bytes, c_array, split}) {
    write(dir + "/words.txt", text);
    Result r = run({"dis", "words.txt"}, dir);  // detected as hex from the content
    EXPECT_EQ(r.status, 0) << text << r.err;
    EXPECT_EQ(r.out, w.text) << text;
    r = run({"dis", "--format", "hex", "-"}, dir, text);
    EXPECT_EQ(r.out, w.text) << text;
  }
  // A word split across lines is numbered by the line where it starts.
  const Result r = run({"check", "words.txt"}, dir);
  EXPECT_NE(r.out.find("words.txt:5: Sort: ok"), std::string::npos) << r.out;
}

TEST(CliIo, HexErrorsGiveAColumnAndEscapeBytes) {
  struct Case {
    std::string text, err;
  };
  const Case cases[] = {
      {"96 10 zz\n",
       "gpsimd dis: <stdin>:1:7: error: expected hex digits (0-9, a-f), two per byte, with or "
       "without 0x (at 'zz')\n"
       "  1 | 96 10 zz\n"
       "    |       ^~\n"},
      {"0x9610 0x\x1b[2J\n",
       "gpsimd dis: <stdin>:1:10: error: expected hex digits (0-9, a-f), two per byte, with or "
       "without 0x (at '\\x1b[2J')\n"
       "  1 | 0x9610 0x\\x1b[2J\n"
       "    |          ^~~~~~~\n"},
      {"96 10 \xff\xfe\n",
       "gpsimd dis: <stdin>:1:7: error: expected hex digits (0-9, a-f), two per byte, with or "
       "without 0x (at '\\xff\\xfe')\n"
       "  1 | 96 10 \\xff\\xfe\n"
       "    |       ^~~~~~~~\n"},
      {"0x961\n",
       "gpsimd dis: <stdin>:1:1: error: 3 hex digits: an odd number, each byte needs two (at "
       "'0x961')\n"
       "  1 | 0x961\n"
       "    | ^~~~~\n"},
      {"# one word and a bit\n" + std::string(128, '0') + "\n  0x96 10 00\n",
       "gpsimd dis: <stdin>:3:5: error: the input ends 6 hex digits into this word: a word "
       "needs 128 (64 bytes) (at '96')\n"
       "  3 |   0x96 10 00\n"
       "    |     ^~\n"},
  };
  for (const Case& c : cases) {
    const Result r = run({"dis", "--format", "hex", "-"}, kSource, c.text);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, c.err);
  }
}

// A word pasted where an instruction may stand is that word, as `.word 0x...` is: for
// every opcode of the table (most start with a digit, 0x6c..0x9b, some with a letter,
// 0xbc..0xf2), written as 128 digits, with 0x, as bytes with spaces or as a C array;
// in a program, in `explain -e`, and in a .gpsimd file given to `run`.
std::vector<std::string> pasted_forms(const std::string& hex) {
  std::string spaced, c_array, split;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    spaced.append(i ? " " : "").append(hex, i, 2);
    c_array.append(i ? ", 0x" : "0x").append(hex, i, 2);
  }
  // The C array over two lines: a line ending in a comma continues.
  split = c_array;
  split.insert(split.find(", ", split.size() / 2) + 1, "\n   ");
  return {hex, "0x" + hex, "0X" + hex, spaced, c_array, split};
}

TEST(CliIo, APastedWordIsTheWordWhereverAnInstructionMayStand) {
  for (const gpsimd::InstrDef& d : gpsimd::instructions()) {
    gpsimd::Word w{};
    w[0] = static_cast<uint8_t>(d.opcode);
    w[1] = 0x10;
    w[12] = 0xe5;  // a byte with a letter and one with an exponent-like 'e' digit pair
    w[13] = 0x1e;
    w[63] = 0xab;
    const std::string hex = gpsimd::word_to_hex(w);
    for (const std::string& form : pasted_forms(hex)) {
      gpsimd::AsmErrors e;
      auto p = gpsimd::parse_program("# pasted\n" + form + "  # a comment\n", "t.gpsimd", &e);
      ASSERT_TRUE(p) << form << "\n" << e.to_string(form);
      EXPECT_EQ(p->words, std::vector<gpsimd::Word>{w}) << form;
      EXPECT_EQ(p->word_lines, std::vector<int>{2}) << form;
      // The same as .word, which takes the same forms.
      auto dot = gpsimd::parse_program(".word " + form + "\n", "t.gpsimd", &e);
      ASSERT_TRUE(dot) << form << "\n" << e.to_string(form);
      EXPECT_EQ(dot->words, p->words);
    }
    const Result r = run({"explain", "-e", hex});
    EXPECT_EQ(r.status, 0) << d.mnemonic << "\n" << r.err;
    EXPECT_EQ(r.out.rfind(fmt_line(d.mnemonic), 0), 0u) << r.out;
  }
  // In a file: `run` executes the pasted Sort words of examples/sort.gpsimd like the source.
  const std::string dir = scratch("pasted");
  const SortWords w = sort_words(dir);
  std::string program;
  for (std::size_t k = 0; k < 2; ++k) {
    std::string hex;
    for (char b : w.bin.substr(64 * k, 64)) hex += hex_byte(static_cast<unsigned char>(b));
    program += pasted_forms(hex)[3 * k] + "\n";
  }
  write(dir + "/pasted.gpsimd", program);
  EXPECT_EQ(run({"dis", dir + "/pasted.gpsimd"}).out, w.text);
  EXPECT_EQ(run({"check", dir + "/pasted.gpsimd"}).status, 0);
}

// Hex that is not one whole word says what is wrong and how to write it; a short name of
// hex letters is taken for a mistyped mnemonic.
TEST(CliIo, HexThatIsNotAWordSaysHowToWriteIt) {
  const std::string count =
      " hex digits where an instruction is expected: a pasted word reads as .word 0x... does, "
      "and needs exactly 128 digits (64 bytes in address order), one word per statement; "
      "several words read as a hex file (--format hex)";
  struct Case {
    std::string text, error;
  };
  std::string word(128, '0');
  word[1] = '6';
  word[0] = '9';
  // The unknown-instruction message names every row of the table, in table order.
  std::string every_mnemonic;
  for (const gpsimd::InstrDef& d : gpsimd::instructions())
    every_mnemonic += (every_mnemonic.empty() ? "" : ", ") + std::string(d.mnemonic);
  const std::vector<Case> cases = {
      {"96", "t.gpsimd:1:1: error: 2" + count + " (at '96')"},
      {"0x9610 0000", "t.gpsimd:1:1: error: 8" + count + " (at '0x9610')"},
      {word + word, "t.gpsimd:1:1: error: 256" + count + " (at '" + word + word + "')"},
      {"96 1 00",
       "t.gpsimd:1:4: error: hex digits where an instruction is expected: 1 hex digit: "
       "an odd number, each byte needs two (at '1')"},
      {"96 10 0g", "t.gpsimd:1:7: error: malformed number (at '0g')"},
      {"add", "t.gpsimd:1:1: error: unknown instruction: expected " + every_mnemonic +
                  " or a directive (.data, .dump, ...) (at 'add')"},
  };
  for (const Case& c : cases) {
    gpsimd::AsmError e;
    EXPECT_FALSE(gpsimd::parse_program(c.text + "\n", "t.gpsimd", &e).has_value()) << c.text;
    EXPECT_EQ(e.to_string(), c.error);
  }
  // The digit check of a .word or a vector's "instruction" escapes what it quotes.
  std::string why;
  EXPECT_FALSE(gpsimd::word_from_hex("96\x1b", &why).has_value());
  EXPECT_EQ(why, "'\\x1b' is not a hex digit");
  EXPECT_FALSE(gpsimd::word_from_hex("96\xc3", &why).has_value());
  EXPECT_EQ(why, "'\\xc3' is not a hex digit");
  EXPECT_FALSE(gpsimd::word_from_hex("96g", &why).has_value());
  EXPECT_EQ(why, "'g' is not a hex digit");
  const Result r = run({"explain", "-e", "0x9610"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
            "gpsimd explain: <command line>:1:1: error: 4" + count + " (at '0x9610')");
}

// ---- 6. size limits ------------------------------------------------------------------------

TEST(CliIo, EndlessInputsEndPromptlyAtTheLimit) {
  for (const auto& [cmd, path] :
       {std::pair<std::string, std::string>{"check", "/dev/zero"}, {"dis", "/dev/urandom"}}) {
    const auto t0 = std::chrono::steady_clock::now();
    const Result r = run({cmd, path});
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "gpsimd " + cmd + ": " + path +
                         ": the input is too large: more than 67108864 bytes (the limit is 64 "
                         "MiB)\n");
    EXPECT_LT(s, 30.0) << cmd << " " << path;
  }
  // Exactly at the limit is fine: a million words, one byte more is not.
  const std::string dir = scratch("limit");
  fs::resize_file((std::ofstream(dir + "/max.bin"), dir + "/max.bin"), 64 << 20);
  Result r = run({"asm", "max.bin", "-o", "copy.bin"}, dir);
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fs::file_size(dir + "/copy.bin"), 64u << 20);
  fs::resize_file(dir + "/max.bin", (64 << 20) + 1);
  r = run({"asm", "max.bin", "-o", "copy.bin"}, dir);
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err,
            "gpsimd asm: max.bin: the input is too large: more than 67108864 bytes (the limit "
            "is 64 MiB)\n");
  fs::remove_all(dir);
}

// The documentation's ```console examples (of every page) are run and compared by
// python/tests/test_docs.py.

}  // namespace
