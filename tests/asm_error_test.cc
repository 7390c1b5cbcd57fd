// Malformed assembly: every error names the file, line and column, the offending token
// and what was expected (docs/assembly.md, "Errors"). The messages are checked exactly.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "gpsimd/asm.h"

namespace gpsimd {
namespace {

std::string error_of(const std::string& text) {
  AsmError e;
  auto p = parse_program(text, "e.gpsimd", &e);
  EXPECT_FALSE(p) << text;
  return e.to_string();
}

// A valid Sort, to be broken one piece at a time.
const std::string kSort =
    "Sort num_active_channels=1, in_out_dtype=(FP32, FP32), comparison=IS_LT, "
    "src_mem_pattern=sbuf[p=0, off=0x0] num=[8], dst_mem_pattern=sbuf[p=0, off=0x100] num=[2,8]";

TEST(AsmErrors, TheValidBaseAssembles) {
  AsmError e;
  EXPECT_TRUE(parse_program(kSort, "e.gpsimd", &e)) << e.to_string();
}

TEST(AsmErrors, Instructions) {
  EXPECT_EQ(error_of("Sortt num_active_channels=1"),
            "e.gpsimd:1:1: error: unknown instruction: did you mean Sort? (expected RangeSelect, "
            "TensorScalarSelect, GetSequenceBounds, Sort, AffineSelect, Iota, MatchValueLoad, "
            "Max8, FindIndex8, MatchReplace8, NonzeroWithCount, CopyPredicatedScalar, "
            "DveReadAccumulator, TensorTensorArith, TensorTensorBitvec, TensorScalarArith, "
            "TensorScalarBitvec, TensorScalarPtrArith, TensorScalarPtrBitvec, Copy, Cast, Memset, "
            "TensorReduceArith, TensorReduceBitvec, TensorTensorScan, ScalarTensorTensorArith, "
            "ScalarTensorTensorBitvec, CopyPredicated, TensorScalarCacheCumulative, SelectReduce "
            "or a directive (.data, .dump, ...)) (at 'Sortt')");
  EXPECT_EQ(error_of("Sort num_active_channels=1, in_out_dtype=(FP33, FP32)"),
            "e.gpsimd:1:43: error: unknown dtype for in_out_dtype: did you mean FP32? (expected "
            "one of INVALID, UINT64, INT8, UINT8, INT16, UINT16, BF16, FP16, INT32, UINT32, FP32, "
            "FP32R, INT64, FP8_E3, FP8_E4, FP8_E5, or a code 0..15) (at 'FP33')");
  EXPECT_EQ(error_of("Sort num_active_channels=1, in_out_dtype=(FP4_E2, FP32)"),
            "e.gpsimd:1:43: error: FP4_E2 (0x10) does not fit in 4 bits: a DTYPE_PAIR holds "
            "dtypes 0x0..0xf (at 'FP4_E2')");
  EXPECT_EQ(error_of("Sort num_active_channels=300"),
            "e.gpsimd:1:26: error: num_active_channels: 300 is out of range: expected 0..255 "
            "(at '300')");
  EXPECT_EQ(error_of("Sort num_active_channels=1 in_out_dtype=(FP32, FP32)"),
            "e.gpsimd:1:28: error: expected ',' between fields (after the value of "
            "'num_active_channels') (at 'in_out_dtype')");
  EXPECT_EQ(error_of("Sort num_active_channels=1, stabel=1"),
            "e.gpsimd:1:29: error: Sort has no field 'stabel': did you mean stable? (fields: "
            "header, wait_mode, "
            "wait_idx, update_mode, update_idx, value, num_active_channels, index_offset_src, "
            "in_out_dtype, comparison, src_mem_pattern, dst_mem_pattern, index_offset, stable, "
            "reserved1) (at 'stabel')");
  EXPECT_EQ(error_of("Sort num_active_channels=1, num_active_channels=2"),
            "e.gpsimd:1:29: error: field 'num_active_channels' is given twice (first at column 6) "
            "(at 'num_active_channels')");
  EXPECT_EQ(error_of("Sort num_active_channels=1, comparison=IS_LT"),
            "e.gpsimd:1:1: error: Sort is missing required fields: in_out_dtype, "
            "src_mem_pattern, dst_mem_pattern (at 'Sort')");
  EXPECT_EQ(error_of("Sort comparison=IS_NOPE"),
            "e.gpsimd:1:17: error: unknown ALU op for comparison: did you mean IS_NE? (expected "
            "an ALU_OP name of SPEC §3.8 (docs/assembly.md lists them: IS_LT, ADD, BITWISE_AND, "
            "...) or a code 0..255) (at 'IS_NOPE')");
  EXPECT_EQ(error_of("Sort num_active_channels="),
            "e.gpsimd:1:26: error: expected a value for 'num_active_channels' (at end of line)");
}

TEST(AsmErrors, Tensors) {
  EXPECT_EQ(error_of("Sort src_mem_pattern=sbuf[p=0, off=0x0] num=[8,1]"),
            "e.gpsimd:1:45: error: src_mem_pattern is a TENSOR1D: num needs 1 entry, got 2 "
            "(at '[')");
  EXPECT_EQ(error_of("Sort src_mem_pattern=sbuf[p=200, off=0x0] num=[8]"),
            "e.gpsimd:1:29: error: partition p: 200 is out of range: expected 0..127 (at '200')");
  EXPECT_EQ(error_of("Sort src_mem_pattern=psum[p=0, off=0x4000] num=[8]"),
            "e.gpsimd:1:36: error: psum offset: 0x4000 is out of range: expected 0..16383 "
            "(at '0x4000')");
  EXPECT_EQ(error_of("Sort src_mem_pattern=sbuf[p=0] num=[8]"),
            "e.gpsimd:1:22: error: sbuf[...] needs the byte offset: off=N (at 'sbuf')");
  EXPECT_EQ(error_of("Sort src_mem_pattern=sbuf[p=0, off=0] step=[1]"),
            "e.gpsimd:1:47: error: expected num=[...] for src_mem_pattern (the element counts, "
            "innermost first) (at end of line)");
  EXPECT_EQ(error_of("Sort src_mem_pattern=sbuf[p=0, off=0] num=[70000]"),
            "e.gpsimd:1:44: error: num_elem: 70000 is out of range: expected 0..65535 "
            "(at '70000')");
  EXPECT_EQ(error_of("Sort src_mem_pattern=8 num=[8]"),
            "e.gpsimd:1:22: error: expected the address of src_mem_pattern: sbuf[p=N, off=N], "
            "psum[p=N, off=N], reg(N) or addr(0x...) (at '8')");
}

TEST(AsmErrors, Immediates) {
  EXPECT_EQ(error_of("RangeSelect num_active_channels=1, base=1e50"),
            "e.gpsimd:1:41: error: base: 1e50 is outside the FP32 range (write inf, 0.0 or the "
            "bits in hex) (at '1e50')");
  EXPECT_EQ(error_of("RangeSelect bound0=reg(3), bound0_src=POINTER_IMMEDIATE"),
            "e.gpsimd:1:20: error: bound0 is written as a register pointer, which means "
            "bound0_src=REG_PTR_IMMEDIATE, but bound0_src is POINTER_IMMEDIATE (at 'reg')");
  EXPECT_EQ(error_of("TensorScalarSelect src1_imm=1.5, dtype=INT32"),
            "e.gpsimd:1:29: error: src1_imm: expected an integer for INT32 (decimal or 0x bits), "
            "got '1.5' (at '1.5')");
  EXPECT_EQ(error_of("TensorScalarSelect src1_imm=1.5, dtype=0x11"),
            "e.gpsimd:1:29: error: src1_imm: a decimal value needs dtype to be a dtype of at "
            "most 4 bytes, it is 0x11: write the bits in hex (at '1.5')");
  EXPECT_EQ(error_of(kSort + ", header=0x00001097"),
            "e.gpsimd:1:173: error: Sort: header byte 0 is 0x97, must be the opcode 0x96 "
            "(at '0x00001097')");
}

TEST(AsmErrors, Directives) {
  EXPECT_EQ(error_of(".data sbuf[p=0..1, off=0] FP32 = [1.0, 2.0, 3.0]"),
            "e.gpsimd:1:34: error: 3 values do not split evenly over 2 partitions (at '[')");
  EXPECT_EQ(error_of(".data sbuf[p=0, off=0] INT8 = [1, 200]"),
            "e.gpsimd:1:35: error: 200 is out of range for INT8: expected -128..127 (at '200')");
  EXPECT_EQ(error_of(".data sbuf[p=0..1, off=0] BF16 = [[1.0], [2.0, 3.0]]"),
            "e.gpsimd:1:34: error: the rows have different lengths (1 and 2) (at '[')");
  EXPECT_EQ(error_of(".data sbuf[p=0, off=0] INT64 = [1]"),
            "e.gpsimd:1:24: error: dtype INT64 cannot hold data values here: expected FP32, "
            "FP32R, BF16, FP16, FP8_E3, FP8_E4, FP8_E5, INT8, UINT8, INT16, UINT16, INT32 or "
            "UINT32 (at 'INT64')");
  EXPECT_EQ(error_of(".data acc[p=0] FP32 = [1.0]"),
            "e.gpsimd:1:7: error: expected a region: sbuf[...] or psum[...] (at 'acc')");
  EXPECT_EQ(error_of(".dump sbuf[p=0, off=0] FP32 16 -> x.npy"),
            "e.gpsimd:1:29: error: expected '[' before the element count per partition, as in "
            "[16] (at '16')");
  EXPECT_EQ(error_of(".reg 70 = 0"),
            "e.gpsimd:1:6: error: register id: 70 is out of range: expected 0..63 (at '70')");
  EXPECT_EQ(error_of(".reg 5 = reg(3)"),
            "e.gpsimd:1:10: error: a register holds a static address: reg(N) is not allowed here "
            "(at 'reg')");
  EXPECT_EQ(error_of(".acc 5..2 = 0.0"),
            "e.gpsimd:1:7: error: accumulator range 5..2 is empty (at '..')");
  EXPECT_EQ(
      error_of(".frob 1"),
      "e.gpsimd:1:1: error: unknown directive: expected .nc, .queue, .engine, .reg, .sem, .acc, "
      ".data, .load, "
      ".dump or .word (at '.frob')");
  EXPECT_EQ(error_of(".nc v3\n.nc v4"),
            "e.gpsimd:2:1: error: the generation is already set by an earlier .nc (at '.nc')");
  EXPECT_EQ(error_of(".nc v6"),
            "e.gpsimd:1:5: error: expected a generation: v2, v3, v4 or v5, or a name of one: trn1, "
            "inf2, sunda (v2); trn2, cayman (v3); mariana (v4); maverick (v5) (at 'v6')");
  EXPECT_EQ(error_of(".word 0x1234"),
            "e.gpsimd:1:7: error: .word: 4 hex digits, a word needs exactly 128 (64 bytes in "
            "address order) (at '0x1234')");
  EXPECT_EQ(error_of(".load sbuf[p=0, off=0] <- "),
            "e.gpsimd:1:26: error: expected a file name (at end of line)");
  EXPECT_EQ(error_of(".load sbuf[p=0, off=0] x.npy"),
            "e.gpsimd:1:24: error: expected '<-' before the input file (at 'x')");
  EXPECT_EQ(error_of(".dump sbuf[p=0, off=0] FP32 [4] out.npy"),
            "e.gpsimd:1:33: error: expected '->' before the output file (at 'out')");
  // Found by fuzz_assemble: a quote inside an unquoted name was accepted, and the program
  // printed back (the name quoted) did not parse.
  EXPECT_EQ(
      error_of("# RangeSere read \x13per par tt_asked.npy\n"
               ".dump acc[p=3..3] -> r\"ange_select_rowmax.npy\n"),
      "e.gpsimd:2:22: error: a file name cannot contain '\"' (at 'r\"ange_select_rowmax.npy')");
  EXPECT_EQ(error_of(".load sbuf[p=0, off=0] <- a\"b.npy"),
            "e.gpsimd:1:27: error: a file name cannot contain '\"' (at 'a\"b.npy')");
  // Found by fuzz_assemble: a carriage return inside a quoted name was accepted, and the
  // program printed back read it as a space.
  EXPECT_EQ(error_of(".dump sbuf[p=0, off=0x400] FP8_E4 [31] -> \"\r\r\r`\r\"\n"),
            "e.gpsimd:1:43: error: a file name cannot contain control characters (byte 0x0d) "
            "(at '\\x0d\\x0d\\x0d`\\x0d')");
  EXPECT_EQ(error_of(".load sbuf[p=0, off=0] <- \"a\tb.npy\""),
            "e.gpsimd:1:27: error: a file name cannot contain control characters (byte 0x09) "
            "(at 'a\tb.npy')");
}

TEST(AsmErrors, Lexical) {
  EXPECT_EQ(error_of("Sort num_active_channels=1x"),
            "e.gpsimd:1:26: error: malformed number (at '1x')");
  // What the lexer accepts, said after every unexpected character.
  const std::string allowed =
      ": expected a name, a .directive, a number, a quoted file name or one of = , ( ) [ ] .. "
      "-> <- (# and ; start a comment)";
  EXPECT_EQ(error_of("Sort num_active_channels=@"),
            "e.gpsimd:1:26: error: unexpected character '@'" + allowed + " (at '@')");
  // Control characters and bytes that are not UTF-8 are named by code and shown escaped,
  // so that an error message cannot drive the terminal; a UTF-8 character is shown whole.
  EXPECT_EQ(error_of("Sort \x01"),
            "e.gpsimd:1:6: error: unexpected byte 0x01" + allowed + " (at '\\x01')");
  EXPECT_EQ(error_of("Sort \x1b[2J"),
            "e.gpsimd:1:6: error: unexpected byte 0x1b" + allowed + " (at '\\x1b')");
  EXPECT_EQ(error_of("Sort \x7f"),
            "e.gpsimd:1:6: error: unexpected byte 0x7f" + allowed + " (at '\\x7f')");
  EXPECT_EQ(error_of("Sort \xff"),
            "e.gpsimd:1:6: error: unexpected byte 0xff" + allowed + " (at '\\xff')");
  EXPECT_EQ(error_of("Sort \xc3("),
            "e.gpsimd:1:6: error: unexpected byte 0xc3" + allowed + " (at '\\xc3')");
  EXPECT_EQ(error_of("Sort caf\xc3\xa9"),
            "e.gpsimd:1:9: error: unexpected character '\xc3\xa9'" + allowed + " (at '\xc3\xa9')");
  EXPECT_EQ(error_of(".load sbuf[p=0, off=0] <- \"x.npy"),
            "e.gpsimd:1:27: error: unterminated string: expected a closing '\"' on the same line "
            "(at '\"x.npy')");
  EXPECT_EQ(error_of("Sort num_active_channels=1]"),
            "e.gpsimd:1:27: error: unbalanced ']' (at ']')");
  // A bracket left open runs to the end of the file; the error points at it.
  EXPECT_EQ(error_of("# comment\n.data sbuf[p=0, off=0] FP32 = [1.0, 2.0\n\n# more\n"),
            "e.gpsimd:2:31: error: unclosed '[': the statement reaches the end of the file "
            "(at '[')");
  EXPECT_EQ(error_of(kSort + ",\n"),
            "e.gpsimd:1:165: error: the statement ends with ',' at the end of the file: expected "
            "another field (at end of line)");
  // Errors on continuation lines carry their own line and column.
  EXPECT_EQ(error_of("\nSort num_active_channels=1,\n    in_out_dtype=(FP32, FP32),\n"
                     "    comparison=IS_SORTED\n"),
            "e.gpsimd:4:16: error: unknown ALU op for comparison: expected an ALU_OP name of SPEC "
            "§3.8 (docs/assembly.md lists "
            "them: IS_LT, ADD, BITWISE_AND, ...) or a code 0..255 (at 'IS_SORTED')");
}

TEST(AsmErrors, AssembleReportsTheSameError) {
  AsmError e;
  EXPECT_FALSE(assemble("Sort x=1", "a.s", &e));
  EXPECT_EQ(e.file, "a.s");
  EXPECT_EQ(e.line, 1);
  EXPECT_EQ(e.column, 6);
  EXPECT_EQ(e.token, "x");
  EXPECT_FALSE(assemble("Sort x=1"));  // no error out-parameter: just nullopt
}

}  // namespace
}  // namespace gpsimd

namespace gpsimd {
namespace {

// ---- every error of a text, like a compiler ----------------------------------------------

AsmErrors errors_of(const std::string& text) {
  AsmErrors e;
  EXPECT_FALSE(parse_program(text, "e.gpsimd", &e)) << text;
  return e;
}

TEST(AsmErrorList, EveryStatementWithAnErrorIsReportedInOrder) {
  const std::string text =
      "Maxx8 num_active_channels=1\n"                      // 1: unknown mnemonic
      + kSort + "\n" +                                     // 2: fine
      "Sort num_active_chanels=1\n"                        // 3: unknown field
      ".data sbuf[p=0, off=0x0] fp322 = [1.0]\n"           // 4: unknown dtype
      "Sort num_active_channels=1 @ 2\n"                   // 5: lexical
      "AffineSelect channel_multiplier=3000000000\n"       // 6: out of range
      "Sort src_mem_pattern=sbuf[p=0, off=0x0] num=[8,\n"  // 7: unclosed, ends at line 8
      + kSort + "\n" +                                     // 8: fine
      "Sort num_active_channels=1,\n"                      // 9: trailing comma before 10
      ".nc v3\n";                                          // 10: fine
  const AsmErrors e = errors_of(text);
  ASSERT_EQ(e.errors.size(), 7u) << e.to_string(text);
  EXPECT_FALSE(e.truncated);
  const std::vector<std::tuple<int, int, std::string>> where = {
      {1, 1, "Maxx8"}, {3, 6, "num_active_chanels"}, {4, 26, "fp322"},
      {5, 28, "@"},    {6, 33, "3000000000"},        {7, 45, "["},
      {9, 28, ""}};
  for (std::size_t i = 0; i < where.size(); ++i) {
    EXPECT_EQ(e.errors[i].file, "e.gpsimd");
    EXPECT_EQ(e.errors[i].line, std::get<0>(where[i])) << i;
    EXPECT_EQ(e.errors[i].column, std::get<1>(where[i])) << i;
    EXPECT_EQ(e.errors[i].token, std::get<2>(where[i])) << i;
  }
  EXPECT_EQ(e.errors[5].message,
            "unclosed '[': expected its closing bracket before line 8, which starts the next "
            "statement");
  EXPECT_EQ(e.errors[6].message,
            "the statement ends with ',' but line 10 starts the next statement: expected "
            "another field");
  // The one-error API gives the first of them; assemble() the same list.
  AsmError first;
  EXPECT_FALSE(parse_program(text, "e.gpsimd", &first));
  EXPECT_EQ(first.to_string(), e.errors[0].to_string());
  AsmErrors again;
  EXPECT_FALSE(assemble(text, "e.gpsimd", &again));
  ASSERT_EQ(again.errors.size(), e.errors.size());
  for (std::size_t i = 0; i < e.errors.size(); ++i)
    EXPECT_EQ(again.errors[i].to_string(), e.errors[i].to_string());
}

// A statement with a lexical error: a mistake before it comes first; otherwise (a name
// cut short by the bad character, a check of the whole statement) the lexical error.
TEST(AsmErrorList, AStatementReportsItsFirstError) {
  AsmErrors e = errors_of("Sort stabel=1, src_mem_pattern=sbuf[p=0, off=0x0] num=[8\nSort x=1\n");
  ASSERT_EQ(e.errors.size(), 2u);
  EXPECT_EQ(e.errors[0].token, "stabel");
  EXPECT_EQ(e.errors[1].token, "x");
  e = errors_of("Sort caf\xc3\xa9=1\n");
  ASSERT_EQ(e.errors.size(), 1u);
  EXPECT_EQ(e.errors[0].column, 9);
  e = errors_of("Sort num_active_channels=1x\n");
  EXPECT_EQ(e.errors.at(0).message, "malformed number");
  e = errors_of("96 10 00 0g\n");  // not "6 hex digits": the bad token comes first
  EXPECT_EQ(e.errors.at(0).message, "malformed number");
}

TEST(AsmErrorList, EachErrorShowsItsLineAndACaretThenTheCount) {
  const std::string text = "Sort stabel=1\n\nSort stable=1, comparison=IS_LTT\n";
  const AsmErrors e = errors_of(text);
  EXPECT_EQ(e.to_string(text, "gpsimd check: "),
            "gpsimd check: e.gpsimd:1:6: error: Sort has no field 'stabel': did you mean stable? "
            "(fields: header, wait_mode, wait_idx, update_mode, update_idx, value, "
            "num_active_channels, index_offset_src, in_out_dtype, comparison, src_mem_pattern, "
            "dst_mem_pattern, index_offset, stable, reserved1) (at 'stabel')\n"
            "  1 | Sort stabel=1\n"
            "    |      ^~~~~~\n"
            "gpsimd check: e.gpsimd:3:27: error: unknown ALU op for comparison: did you mean "
            "IS_LT? (expected an ALU_OP name of SPEC §3.8 (docs/assembly.md lists them: IS_LT, "
            "ADD, BITWISE_AND, ...) or a code 0..255) (at 'IS_LTT')\n"
            "  3 | Sort stable=1, comparison=IS_LTT\n"
            "    |                           ^~~~~~\n"
            "gpsimd check: e.gpsimd: 2 errors\n");
  // One error: no count line.
  const std::string one = "Sort stabel=1\n";
  EXPECT_EQ(errors_of(one).to_string(one).find("errors"), std::string::npos);
}

TEST(AsmErrorList, StopsAfterTwentyErrors) {
  std::string text;
  for (int i = 0; i < 30; ++i) text += "Sort stable=" + std::to_string(300 + i) + "\n";
  const AsmErrors e = errors_of(text);
  EXPECT_EQ(kMaxAsmErrors, 20u);
  ASSERT_EQ(e.errors.size(), kMaxAsmErrors);
  EXPECT_TRUE(e.truncated);
  EXPECT_EQ(e.errors.back().line, 20);
  const std::string shown = e.to_string(text);
  EXPECT_EQ(shown.substr(shown.rfind("e.gpsimd: ")),
            "e.gpsimd: too many errors: stopped after 20 (line 20)\n");
  // Exactly twenty is not too many.
  std::string twenty;
  for (int i = 0; i < 20; ++i) twenty += "Sort stable=300\n";
  const AsmErrors t = errors_of(twenty);
  EXPECT_EQ(t.errors.size(), 20u);
  EXPECT_FALSE(t.truncated);
}

// ---- did you mean ------------------------------------------------------------------------

TEST(AsmSuggestions, EditDistance) {
  EXPECT_EQ(name_distance("Max8", "Max8"), 0u);
  EXPECT_EQ(name_distance("max8", "MAX8"), 0u);  // letters without case
  EXPECT_EQ(name_distance("Maxx8", "Max8"), 1u);
  EXPECT_EQ(name_distance("Mxa8", "Max8"), 1u);  // a swap of neighbours is one edit
  EXPECT_EQ(name_distance("", "Sort"), 4u);
  EXPECT_EQ(name_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(name_distance("num_active_chanels", "num_active_channels"), 1u);
  EXPECT_EQ(nearest_names("Maxx8", {"Max8", "Sort", "Iota"}), std::vector<std::string>{"Max8"});
  EXPECT_EQ(nearest_names("IS_LR", {"IS_LT", "IS_LE", "IS_GT"}),
            (std::vector<std::string>{"IS_LT", "IS_LE"}));
  EXPECT_EQ(did_you_mean("IS_LR", {"IS_LT", "IS_LE"}), "did you mean IS_LT or IS_LE?");
  EXPECT_EQ(did_you_mean("frobnicate", {"Sort", "Max8"}), "");
  EXPECT_EQ(did_you_mean("v6", {"v2", "v3"}), "");  // two letters: one edit is too many
}

TEST(AsmSuggestions, MnemonicsFieldsEnumsDtypesAndDirectives) {
  const auto hint = [](const std::string& text) {
    const std::string m = errors_of(text).errors.at(0).message;
    const std::size_t at = m.find("did you mean ");
    return at == std::string::npos ? std::string() : m.substr(at, m.find('?', at) + 1 - at);
  };
  EXPECT_EQ(hint("Maxx8 num_active_channels=1"), "did you mean Max8?");
  EXPECT_EQ(hint("itoa num_active_channels=1"), "did you mean Iota?");
  EXPECT_EQ(hint("Sort num_active_chanels=1"), "did you mean num_active_channels?");
  EXPECT_EQ(hint("Sort Stable=1"), "did you mean stable?");  // field names keep their case
  EXPECT_EQ(hint("Sort wait_mod=GE"), "did you mean wait_mode?");
  EXPECT_EQ(hint("Sort wait_mode=GEE"), "did you mean GE?");
  EXPECT_EQ(hint("Sort in_out_dtype=(BF61, FP32)"), "did you mean BF16?");
  EXPECT_EQ(hint(".data sbuf[p=0, off=0x0] fp322 = [1.0]"), "did you mean FP32 or FP32R?");
  EXPECT_EQ(hint("Sort comparison=IS_GTE"), "did you mean IS_GT or IS_GE?");
  EXPECT_EQ(hint("RangeSelect reduce_cmd=ACUMULATE"), "did you mean ACCUMULATE?");
  EXPECT_EQ(hint("AffineSelect fill_mode=GTT"), "did you mean GT?");
  EXPECT_EQ(hint(".dmp acc[p=0]"), "did you mean .dump?");
  EXPECT_EQ(hint("Frobnicate x=1"), "");  // nothing near: no guess
}

// ---- generations by name ---------------------------------------------------------------------

TEST(AsmGenerations, TheNamesSpecGivesAreAccepted) {
  // SPEC §1: V2 = SUNDA (Trn1/Inf2), V3 = CAYMAN (Trn2), V4 = MARIANA, V5 = MAVERICK.
  const std::vector<std::pair<std::string, Generation>> names = {
      {"v2", Generation::V2},      {"V3", Generation::V3},     {"4", Generation::V4},
      {"trn1", Generation::V2},    {"Inf2", Generation::V2},   {"SUNDA", Generation::V2},
      {"trn2", Generation::V3},    {"Cayman", Generation::V3}, {"mariana", Generation::V4},
      {"MAVERICK", Generation::V5}};
  for (const auto& [name, g] : names) {
    EXPECT_EQ(parse_nc(name), g) << name;
    AsmErrors e;
    auto p = parse_program(".nc " + name + "\n", "g.gpsimd", &e);
    ASSERT_TRUE(p) << name << ": " << e.to_string("");
    EXPECT_EQ(p->nc, g) << name;
  }
  for (const char* bad : {"trn3", "inf1", "v6", "trainium", "", "v"}) EXPECT_FALSE(parse_nc(bad));
  // The vector format keeps SPEC §7's v2..v5.
  EXPECT_FALSE(parse_generation("trn2"));
}

// ---- numbers beyond their field ------------------------------------------------------------

TEST(AsmRanges, NoNumberWrapsIntoItsField) {
  const std::string affine =
      "AffineSelect num_active_channels=1, in_out_dtype=(FP32, FP32), fill_mode=GE, fill_reg=0, "
      "mask_pattern=0 num=[4,1,1,1], src_mem_pattern=sbuf[p=0, off=0x0] num=[4,1], "
      "dst_mem_pattern=sbuf[p=0, off=0x40] num=[4,1], channel_multiplier=";
  const auto cm_bits = [&](const std::string& v) -> std::optional<uint32_t> {
    AsmError e;
    auto p = parse_program(affine + v, "e.gpsimd", &e);
    if (!p) return std::nullopt;
    return static_cast<uint32_t>(decode(p->words[0])->integer("channel_multiplier"));
  };
  EXPECT_EQ(cm_bits("2147483647"), 0x7fffffffu);
  EXPECT_EQ(cm_bits("-2147483648"), 0x80000000u);
  EXPECT_EQ(cm_bits("-1"), 0xffffffffu);
  EXPECT_EQ(cm_bits("0xffffffff"), 0xffffffffu);  // hex: the 32 bits as they are
  EXPECT_EQ(cm_bits("0x80000000"), 0x80000000u);
  const std::string range =
      " is out of range: expected -2147483648..2147483647 in decimal, or the 32 bits in hex "
      "(0x0..0xffffffff)";
  for (const char* v :
       {"3000000000", "2147483648", "-2147483649", "0x100000000", "99999999999999999999"}) {
    EXPECT_FALSE(cm_bits(v)) << v;
    EXPECT_EQ(error_of(affine + v).substr(error_of(affine + v).find("error: ") + 7),
              std::string("channel_multiplier (an int32): ") + v + range + " (at '" + v + "')");
  }
  // A DATA4D base is an int32 too.
  EXPECT_EQ(error_of("Iota src_data_pattern=3000000000 num=[1,1,1,1]"),
            "e.gpsimd:1:23: error: the base of src_data_pattern (an int32): 3000000000" + range +
                " (at '3000000000')");
  // Every other integer field is checked against its own width, a sign too.
  EXPECT_EQ(error_of("Sort num_active_channels=-1"),
            "e.gpsimd:1:26: error: num_active_channels: -1 is out of range: expected 0..255 (at "
            "'-1')");
  EXPECT_EQ(error_of("Sort value=4294967296"),
            "e.gpsimd:1:12: error: the event value: 4294967296 is out of range: expected "
            "0..0xffffffff (at '4294967296')");
  EXPECT_EQ(error_of("Sort src_mem_pattern=sbuf[p=0, off=0x0] num=[65536]"),
            "e.gpsimd:1:46: error: num_elem: 65536 is out of range: expected 0..65535 (at "
            "'65536')");
  EXPECT_EQ(error_of("Sort src_mem_pattern=sbuf[p=0, off=0x0] step=[40000] num=[1]"),
            "e.gpsimd:1:47: error: step_elem: 40000 is out of range: expected -32768..32767 (at "
            "'40000')");
  EXPECT_EQ(error_of("NonzeroWithCount padding_val=3000000000"),
            "e.gpsimd:1:30: error: padding_val: 3000000000 is out of range: expected "
            "-2147483648..2147483647 (at '3000000000')");
}

}  // namespace
}  // namespace gpsimd
