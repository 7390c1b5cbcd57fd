// Malformed assembly: every error names the file, line and column, the offending token
// and what was expected (docs/assembly.md, "Errors"). The messages are checked exactly.
#include <gtest/gtest.h>

#include <string>

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
            "e.gpsimd:1:1: error: unknown instruction: expected RangeSelect, TensorScalarSelect, "
            "GetSequenceBounds, Sort, AffineSelect, Iota, MatchValueLoad, Max8, FindIndex8, "
            "MatchReplace8, NonzeroWithCount, CopyPredicatedScalar, "
            "DveReadAccumulator, Copy, Cast or a directive (.data, .dump, ...) (at 'Sortt')");
  EXPECT_EQ(error_of("Sort num_active_channels=1, in_out_dtype=(FP33, FP32)"),
            "e.gpsimd:1:43: error: unknown dtype for in_out_dtype: expected one of INVALID, "
            "UINT64, INT8, UINT8, INT16, UINT16, BF16, FP16, INT32, UINT32, FP32, FP32R, INT64, "
            "FP8_E3, FP8_E4, FP8_E5, or a code 0..15 (at 'FP33')");
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
            "e.gpsimd:1:29: error: Sort has no field 'stabel' (fields: header, wait_mode, "
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
            "e.gpsimd:1:17: error: unknown ALU op for comparison: expected an ALU_OP name of SPEC "
            "§3.8 (docs/assembly.md lists "
            "them: IS_LT, ADD, BITWISE_AND, ...) or a code 0..255 (at 'IS_NOPE')");
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
  EXPECT_EQ(error_of(".frob 1"),
            "e.gpsimd:1:1: error: unknown directive: expected .nc, .reg, .sem, .acc, .data, .load, "
            ".dump or .word (at '.frob')");
  EXPECT_EQ(error_of(".nc v3\n.nc v4"),
            "e.gpsimd:2:1: error: the generation is already set by an earlier .nc (at '.nc')");
  EXPECT_EQ(error_of(".nc v6"),
            "e.gpsimd:1:5: error: expected a generation: v2, v3, v4 or v5 (at 'v6')");
  EXPECT_EQ(error_of(".word 0x1234"),
            "e.gpsimd:1:7: error: .word: 4 hex digits, a word needs exactly 128 (at '0x1234')");
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
