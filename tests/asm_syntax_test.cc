// Tests of the assembly language (docs/assembly.md): words assembled from text are
// compared with bytes laid out here by hand from the SPEC §4 tables, and the canonical
// text of those words with strings written by hand from the documented rules.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "gpsimd/asm.h"

namespace gpsimd {
namespace {

// A word from (offset, bytes...) runs; every other byte is zero.
Word bytes_at(std::initializer_list<std::pair<unsigned, std::vector<uint8_t>>> runs) {
  Word w{};
  for (const auto& [off, b] : runs)
    for (std::size_t i = 0; i < b.size(); ++i) w[off + i] = b[i];
  return w;
}

Word assemble_one(const std::string& text) {
  AsmError e;
  auto words = assemble(text, "t.gpsimd", &e);
  EXPECT_TRUE(words) << e.to_string();
  if (!words || words->size() != 1) {
    ADD_FAILURE() << "expected one word";
    return Word{};
  }
  return words->front();
}

TEST(AsmSyntax, SortSpecExample) {
  const Word w = assemble_one(
      "Sort num_active_channels=1, in_out_dtype=(INT32, INT32), comparison=IS_LT,\n"
      "    index_offset=100,\n"
      "    src_mem_pattern=sbuf[p=0, off=0x0] num=[6],\n"
      "    dst_mem_pattern=sbuf[p=0, off=0x40] num=[2,6]\n");
  const Word want = bytes_at({
      {0, {0x96, 0x10}},
      {12, {1, 0, 0x88, 0x16}},                       // channels, offset src, (INT32, INT32), IS_LT
      {16, {0, 0, 0, 0, 1, 0, 6, 0}},                 // src: addr 0, step [1], num [6]
      {24, {0x40, 0, 0, 0, 1, 0, 2, 0, 2, 0, 6, 0}},  // dst: addr 0x40, step [1,2], num [2,6]
      {36, {100, 0, 0, 0}},                           // index_offset
  });
  EXPECT_EQ(w, want);
  EXPECT_EQ(*disassemble(w),
            "Sort num_active_channels=1, in_out_dtype=(INT32, INT32), comparison=IS_LT, "
            "src_mem_pattern=sbuf[p=0, off=0x0] step=[1] num=[6], "
            "dst_mem_pattern=sbuf[p=0, off=0x40] step=[1,2] num=[2,6], index_offset=100");
}

TEST(AsmSyntax, RangeSelectWithPsumPointerRegisterAndEvents) {
  const Word w = assemble_one(
      "RangeSelect num_active_channels=4, in_out_dtype=(FP32, BF16), reduce_cmd=ACCUMULATE,\n"
      "  base=8.0, src_mem_pattern=psum[p=1, off=0x40] step=[1,8] num=[8,2],\n"
      "  comp_op0=IS_GE, bound0=0.0, comp_op1=IS_LE, bound1=sbuf[p=2, off=0x300],\n"
      "  dst_mem_pattern=reg(5) step=[2,16] num=[8,2], wait_mode=GE, wait_idx=3, value=7\n");
  const Word want = bytes_at({
      {0, {0xbc, 0x10}},
      {4, {1, 3, 0, 0, 7, 0, 0, 0}},   // wait GE sem 3, value 7
      {12, {4, 0x6a, 2, 0x08}},        // channels, (FP32=0xa | BF16=0x6 << 4), ACC, MAX
      {16, {0x00, 0x00, 0x00, 0x41}},  // base 8.0
      {20, {0xff, 0xff, 0x7f, 0xff}},  // fill_val -FLT_MAX (the default)
      {24, {0x40, 0x80, 0x00, 0x02, 1, 0, 8, 0, 8, 0, 2, 0}},  // psum p1 +0x40 = 0x02008040
      {36, {0x14, 0x15, 0, 1}},        // IS_GE, IS_LE, bound0 imm, bound1 pointer
      {44, {0x00, 0x03, 0x08, 0x00}},  // sbuf p2 off 0x300 = 2 << 18 | 0x300
      {48, {0x05, 0, 0, 0x80, 2, 0, 16, 0, 8, 0, 2, 0}},  // reg(5) = 0x80000005
  });
  EXPECT_EQ(w, want);
  EXPECT_EQ(*disassemble(w),
            "RangeSelect wait_mode=GE, wait_idx=3, value=7, num_active_channels=4, "
            "in_out_dtype=(FP32, BF16), reduce_cmd=ACCUMULATE, base=8.0, "
            "src_mem_pattern=psum[p=1, off=0x40] step=[1,8] num=[8,2], comp_op0=IS_GE, "
            "comp_op1=IS_LE, bound0=0.0, bound1=sbuf[p=2, off=0x300], "
            "dst_mem_pattern=reg(5) step=[2,16] num=[8,2]");
}

TEST(AsmSyntax, TensorScalarSelectTypedImmediateAndRegisterPointer) {
  const Word w = assemble_one(
      "TensorScalarSelect num_active_channels=2, dtype=INT8, pred_imm_dtype=UINT8,\n"
      "  reversed_pred=1, src1_imm=-3, pred_imm=reg(9),\n"
      "  src0_mem_pattern=sbuf[p=0, off=0x10] num=[4,2,1],\n"
      "  dst_mem_pattern=sbuf[p=0, off=0x20] step=[1,4,8] num=[4,2,1],\n"
      "  update_mode=INC, update_idx=2\n");
  const Word want = bytes_at({
      {0, {0x98, 0x10}},
      {4, {0, 0, 2, 2}},                                          // update INC sem 2
      {16, {0x10, 0, 0, 0, 1, 0, 4, 0, 8, 0, 4, 0, 2, 0, 1, 0}},  // dense steps [1,4,8]
      {32, {1, 2, 0x02, 0x03}},                                   // reversed, channels, INT8, UINT8
      {38, {0, 2}},                                               // src1 imm, pred register pointer
      {40, {0xfd, 0, 0, 0}},                                      // -3 as INT8
      {44, {9, 0, 0, 0}},                                         // register 9
      {48, {0x20, 0, 0, 0, 1, 0, 4, 0, 8, 0, 4, 0, 2, 0, 1, 0}},
  });
  EXPECT_EQ(w, want);
  EXPECT_EQ(*disassemble(w),
            "TensorScalarSelect update_mode=INC, update_idx=2, "
            "src0_mem_pattern=sbuf[p=0, off=0x10] step=[1,4,8] num=[4,2,1], reversed_pred=1, "
            "num_active_channels=2, dtype=INT8, pred_imm_dtype=UINT8, src1_imm=-3, "
            "pred_imm=reg(9), dst_mem_pattern=sbuf[p=0, off=0x20] step=[1,4,8] num=[4,2,1]");
}

TEST(AsmSyntax, GetSequenceBoundsRawFormsForAnInvalidWord) {
  const Word w = assemble_one(
      "GetSequenceBounds num_active_channels=1, in_dtype=FP32, out_dtype=0x11,\n"
      "  src_mem_pattern=addr(0x12345678) step=[-1,0,3] num=[9,1,1],\n"
      "  dst_mem_pattern=sbuf[p=127, off=0x3ffff] step=[1,9,9] num=[9,1,2],\n"
      "  reserved1=[0,0,0,0, 0,0,0,0, 0,0,0,0, 0,0,0,0xab]\n");
  const Word want = bytes_at({
      {0, {0xbe, 0x10}},
      {12, {1, 0, 0x0a, 0x11}},
      {16, {0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0, 0, 3, 0, 9, 0, 1, 0, 1, 0}},
      {32, {0xff, 0xff, 0xff, 0x01, 1, 0, 9, 0, 9, 0, 9, 0, 1, 0, 2, 0}},  // 127 << 18 | 0x3ffff
      {63, {0xab}},
  });
  EXPECT_EQ(w, want);
  EXPECT_EQ(*disassemble(w),
            "GetSequenceBounds num_active_channels=1, in_dtype=FP32, out_dtype=0x11, "
            "src_mem_pattern=addr(0x12345678) step=[-1,0,3] num=[9,1,1], "
            "dst_mem_pattern=sbuf[p=127, off=0x3ffff] step=[1,9,9] num=[9,1,2], "
            "reserved1=[0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, "
            "0x00, 0x00, 0x00, 0x00, 0xab]");
}

TEST(AsmSyntax, ImmediateSourcesAreImpliedOrExplicit) {
  const std::string base =
      "RangeSelect num_active_channels=1, in_out_dtype=(FP32, FP32), comp_op0=IS_GE, "
      "comp_op1=IS_LT, src_mem_pattern=sbuf[p=0, off=0x0] num=[4,1], "
      "dst_mem_pattern=sbuf[p=0, off=0x40] num=[4,1], bound1=2.5, ";
  // A register pointer whose bytes 1-3 are not zero can only be written raw.
  Word w = assemble_one(base + "bound0_src=REG_PTR_IMMEDIATE, bound0=0x105");
  EXPECT_EQ(w[38], 2);
  EXPECT_EQ(load_u32(w, 40), 0x105u);
  EXPECT_NE(disassemble(w)->find("bound0_src=REG_PTR_IMMEDIATE, bound0=0x00000105"),
            std::string::npos)
      << *disassemble(w);
  // A pointer whose value has bit 31 set prints as addr(), never as reg().
  w = assemble_one(base + "bound0=addr(0x80000005)");
  EXPECT_EQ(w[38], 1);
  EXPECT_EQ(load_u32(w, 40), 0x80000005u);
  EXPECT_NE(disassemble(w)->find("bound0=addr(0x80000005)"), std::string::npos);
  // An IMM_SRC outside the enumeration.
  w = assemble_one(base + "bound0_src=7, bound0=0x3f800000");
  EXPECT_EQ(w[38], 7);
  EXPECT_NE(disassemble(w)->find("bound0_src=0x7"), std::string::npos);
  EXPECT_NE(disassemble(w)->find("bound0=0x3f800000"), std::string::npos);
  // bound1=2.5 is FP32 0x40200000.
  EXPECT_EQ(load_u32(w, 44), 0x40200000u);
  // A written src that agrees with the form is accepted.
  w = assemble_one(base + "bound0_src=POINTER_IMMEDIATE, bound0=sbuf[p=3, off=0x8]");
  EXPECT_EQ(w[38], 1);
  EXPECT_EQ(load_u32(w, 40), (3u << 18) | 8u);
}

TEST(AsmSyntax, Fp32Forms) {
  const std::string base =
      "RangeSelect num_active_channels=1, in_out_dtype=(FP32, FP32), comp_op0=IS_GE, "
      "comp_op1=IS_LT, bound0=0.0, bound1=1.0, src_mem_pattern=sbuf[p=0, off=0x0] num=[4,1], "
      "dst_mem_pattern=sbuf[p=0, off=0x40] num=[4,1], ";
  const std::pair<const char*, uint32_t> cases[] = {
      {"base=-0.0", 0x80000000u},          {"base=1e-45", 0x00000001u},
      {"base=inf", 0x7f800000u},           {"base=-inf", 0xff800000u},
      {"base=nan", 0x7fc00000u},           {"base=0x7fc00001", 0x7fc00001u},
      {"base=16777216", 0x4b800000u},      {"base=0.1", 0x3dcccccdu},
      {"base=-3.4028235e38", 0xff7fffffu},
  };
  for (auto [field, bits] : cases) {
    const Word w = assemble_one(base + field);
    EXPECT_EQ(load_u32(w, 16), bits) << field;
  }
  // Printed: the shortest decimal that reads back exactly, hex for NaNs.
  const std::pair<uint32_t, const char*> printed[] = {
      {0x80000000u, "base=-0.0"},       {0x00000001u, "base=1e-45"},      {0x7f800000u, "base=inf"},
      {0x7fc00001u, "base=0x7fc00001"}, {0x4b800000u, "base=16777216.0"}, {0x3dcccccdu, "base=0.1"},
  };
  for (auto [bits, text] : printed) {
    Word w = assemble_one(base + "base=0.0");
    store_u32(w, 16, bits);
    EXPECT_NE(disassemble(w)->find(text), std::string::npos) << *disassemble(w);
  }
}

TEST(AsmSyntax, CaseCommentsContinuationAndDefaults) {
  const Word a = assemble_one(
      "sort num_active_channels=1, ; comment after a comma\n"
      "   in_out_dtype=(fp16, Fp16),   # another comment\n"
      "   comparison=is_gt, src_mem_pattern=SBUF[off=0x100, p=3] num=[4],\n"
      "   dst_mem_pattern=sbuf[p=3, off=512] num=[2,4]\n");
  const Word b = assemble_one(
      "Sort header=0x00001096, num_active_channels=1, index_offset_src=INSTRUCTION_IMMEDIATE, "
      "index_offset=0, stable=0, in_out_dtype=(0x7, 7), comparison=0x13, "
      "wait_mode=NONE, wait_idx=0, update_mode=NONE, update_idx=0, value=0, "
      "src_mem_pattern=sbuf[p=3, off=0x100] step=[1] num=[4], "
      "dst_mem_pattern=sbuf[p=3, off=0x200] step=[1,2] num=[2,4], "
      "reserved1=[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]");
  EXPECT_EQ(a, b);
  EXPECT_EQ(a[14], 0x77);
  EXPECT_EQ(load_u32(a, 16), (3u << 18) | 0x100u);
}

TEST(AsmSyntax, TypedInstructionImmediates) {
  auto src1 = [](const std::string& dtype, const std::string& value) {
    const Word w = assemble_one("TensorScalarSelect num_active_channels=1, dtype=" + dtype +
                                ", pred_imm_dtype=UINT32, " + "pred_imm=1, src1_imm=" + value +
                                ", src0_mem_pattern=sbuf[p=0, off=0x0] num=[4,1,1], "
                                "dst_mem_pattern=sbuf[p=0, off=0x40] num=[4,1,1]");
    return load_u32(w, 40);
  };
  EXPECT_EQ(src1("BF16", "1.5"), 0x3fc0u);
  EXPECT_EQ(src1("BF16", "-inf"), 0xff80u);
  EXPECT_EQ(src1("FP16", "65504"), 0x7bffu);
  EXPECT_EQ(src1("FP8_E4", "nan"), 0x7cu);   // SPEC §5: E4's canonical NaN
  EXPECT_EQ(src1("FP8_E3", "15.5"), 0x6fu);  // E3's largest finite: 0.110.1111
  EXPECT_EQ(src1("INT16", "-1"), 0xffffu);
  EXPECT_EQ(src1("UINT8", "255"), 0xffu);
  EXPECT_EQ(src1("INT32", "-2147483648"), 0x80000000u);
  EXPECT_EQ(src1("FP32", "0x12345678"), 0x12345678u);  // hex is the field's bits
  EXPECT_EQ(src1("INT8", "0x1ff"), 0x1ffu);            // even bits an INT8 cannot hold
}

TEST(AsmSyntax, ValueTextIsShortAndExact) {
  EXPECT_EQ(format_value(Dtype::BF16, 0x3dcd), "0.1");
  EXPECT_EQ(format_value(Dtype::BF16, 0x3f80), "1.0");
  EXPECT_EQ(format_value(Dtype::BF16, 0xff80), "-inf");
  EXPECT_EQ(format_value(Dtype::BF16, 0x7fc1), "0x7fc1");
  EXPECT_EQ(format_value(Dtype::FP16, 0x3c00), "1.0");
  EXPECT_EQ(format_value(Dtype::FP16, 0x0001), "6e-08");  // 2^-24 = 5.96e-08
  EXPECT_EQ(format_value(Dtype::FP8_E5, 0x7c), "inf");
  EXPECT_EQ(format_value(Dtype::FP8_E4, 0x77), "240.0");  // E4's largest finite, 0.1110.111
  EXPECT_EQ(format_value(Dtype::INT8, 0x80), "-128");
  EXPECT_EQ(format_value(Dtype::UINT16, 0xffff), "65535");
  EXPECT_EQ(format_value(Dtype::INT32, 0xffffffff), "-1");
  EXPECT_EQ(format_value(Dtype::FP32, 0x00000001), "1e-45");
  EXPECT_EQ(format_value(Dtype::FP32, 0x80000000), "-0.0");
  EXPECT_EQ(format_value(Dtype::FP32, 0x4b800000), "16777216.0");
  EXPECT_EQ(format_value(Dtype::FP32, 0xff7fffff), "-3.4028235e+38");
  EXPECT_EQ(parse_value(Dtype::BF16, "0.1"), 0x3dcdu);
  EXPECT_EQ(parse_value(Dtype::FP16, "6e-08"), 0x0001u);
  EXPECT_EQ(parse_value(Dtype::UINT8, "0xff"), 0xffu);
  std::string why;
  EXPECT_FALSE(parse_value(Dtype::UINT8, "0x100", &why));
  EXPECT_EQ(why, "0x100 does not fit in 8 bits (UINT8)");
  EXPECT_FALSE(parse_value(Dtype::INT16, "40000", &why));
  EXPECT_EQ(why, "40000 is out of range for INT16: expected -32768..32767");
  EXPECT_FALSE(parse_value(Dtype::INT64, "1", &why));
  EXPECT_EQ(why, "dtype INT64 has no value format here");
}

TEST(AsmSyntax, AddressText) {
  EXPECT_EQ(format_addr4(0x00000000u), "sbuf[p=0, off=0x0]");
  EXPECT_EQ(format_addr4((5u << 18) | 0x1234u), "sbuf[p=5, off=0x1234]");
  EXPECT_EQ(format_addr4(0x02000000u + (127u << 15) + 0x3ffcu), "psum[p=127, off=0x3ffc]");
  EXPECT_EQ(format_addr4(0x02000000u + 0x4000u), "addr(0x02004000)");  // PSUM offset >= 16 KiB
  EXPECT_EQ(format_addr4(0x02400000u), "addr(0x02400000)");            // past the PSUM window
  EXPECT_EQ(format_addr4(0x20000000u), "addr(0x20000000)");            // mode bits
  EXPECT_EQ(format_addr4(0x8000003fu), "reg(63)");
  EXPECT_EQ(format_addr4(0x800000ffu), "reg(255)");
  EXPECT_EQ(format_addr4(0x80000100u), "addr(0x80000100)");
}

TEST(AsmSyntax, WrappedStatementsAssembleToTheSameWord) {
  const std::string line =
      *disassemble(assemble_one("RangeSelect num_active_channels=4, in_out_dtype=(FP32, BF16), "
                                "comp_op0=IS_GE, comp_op1=IS_LT, bound0=0.0, "
                                "bound1=sbuf[p=0, off=0x40], "
                                "src_mem_pattern=sbuf[p=0, off=0x0] num=[8,1], "
                                "dst_mem_pattern=sbuf[p=0, off=0x80] num=[8,1]"));
  const std::string wrapped = wrap_statement(line, 60);
  EXPECT_NE(wrapped.find('\n'), std::string::npos);
  std::size_t pos = 0;
  while (pos < wrapped.size()) {
    const std::size_t nl = std::min(wrapped.find('\n', pos), wrapped.size());
    // Lines exceed the width only where one field is longer than it.
    if (nl - pos > 60) {
      EXPECT_EQ(wrapped.substr(pos, nl - pos).find(", "), std::string::npos);
    }
    pos = nl + 1;
  }
  EXPECT_EQ(assemble_one(wrapped), assemble_one(line));
}

TEST(AsmSyntax, Directives) {
  AsmError e;
  auto p = parse_program(
      ".nc v2\n"
      ".reg 5 = sbuf[p=1, off=0x10]\n"
      ".reg 6 = 0xdeadbeef\n"
      ".sem 255 = 4294967295\n"
      ".acc 0..3 = -inf\n"
      ".acc 127 = 0x3f800000\n"
      ".data psum[p=2..3, off=0x8] BF16 = [[1.0, -2.0], [0.1, inf]]\n"
      ".data sbuf[p=0..1, off=0] INT8 = [1, -1, 2, -2]\n"
      ".load sbuf[p=0..3, off=0x100] <- \"my data/x.npy\"\n"
      ".load sbuf[p=0, off=0x100] <- rel/y.npy   # comment\n"
      ".word 0x" +
          std::string(128, '0') +
          "\n"
          ".dump sbuf[p=0..3, off=0x80] BF16 [16] -> out.npy\n"
          ".dump psum[p=0, off=0] FP32 [3] step=4\n"
          ".dump acc[p=0..127] -> acc.npy\n",
      "d.gpsimd", &e);
  ASSERT_TRUE(p) << e.to_string();
  EXPECT_EQ(p->nc, Generation::V2);
  ASSERT_EQ(p->setup.size(), 9u);
  EXPECT_EQ(std::get<RegDirective>(p->setup[0]), (RegDirective{5, (1u << 18) | 0x10u}));
  EXPECT_EQ(std::get<RegDirective>(p->setup[1]), (RegDirective{6, 0xdeadbeefu}));
  EXPECT_EQ(std::get<SemDirective>(p->setup[2]), (SemDirective{255, 0xffffffffu}));
  EXPECT_EQ(std::get<AccDirective>(p->setup[3]), (AccDirective{0, 4, 0xff800000u}));
  EXPECT_EQ(std::get<AccDirective>(p->setup[4]), (AccDirective{127, 1, 0x3f800000u}));
  const auto& d = std::get<DataDirective>(p->setup[5]);
  EXPECT_EQ(d.region, (Region{RegionKind::PSUM, 2, 2, 8}));
  EXPECT_EQ(d.dtype, Dtype::BF16);
  EXPECT_EQ(d.values, (std::vector<uint32_t>{0x3f80, 0xc000, 0x3dcd, 0x7f80}));
  const auto& d8 = std::get<DataDirective>(p->setup[6]);
  EXPECT_EQ(d8.values, (std::vector<uint32_t>{1, 0xff, 2, 0xfe}));
  EXPECT_EQ(std::get<LoadDirective>(p->setup[7]).path, "my data/x.npy");
  EXPECT_EQ(std::get<LoadDirective>(p->setup[8]).path, "rel/y.npy");
  EXPECT_EQ(p->words.size(), 1u);
  EXPECT_EQ(p->word_lines, std::vector<int>{11});
  ASSERT_EQ(p->dumps.size(), 3u);
  EXPECT_EQ(p->dumps[0].region, (Region{RegionKind::SBUF, 0, 4, 0x80}));
  EXPECT_EQ(p->dumps[0].count, 16u);
  EXPECT_EQ(p->dumps[0].path, "out.npy");
  EXPECT_EQ(p->dumps[1].step, 4u);
  EXPECT_EQ(p->dumps[1].path, "");
  EXPECT_EQ(p->dumps[2].region, (Region{RegionKind::ACC, 0, 128, 0}));
  EXPECT_EQ(p->dump_lines, (std::vector<int>{12, 13, 14}));

  EXPECT_EQ(print_program(*p),
            ".nc v2\n"
            "\n"
            ".reg 5 = 0x00040010\n"
            ".reg 6 = 0xdeadbeef\n"
            ".sem 255 = 4294967295\n"
            ".acc 0..3 = -inf\n"
            ".acc 127 = 1.0\n"
            ".data psum[p=2..3, off=0x8] BF16 = [\n"
            "    [1.0, -2.0],\n"
            "    [0.1, inf]\n"
            "]\n"
            ".data sbuf[p=0..1, off=0x0] INT8 = [\n"
            "    [1, -1],\n"
            "    [2, -2]\n"
            "]\n"
            ".load sbuf[p=0..3, off=0x100] <- \"my data/x.npy\"\n"
            ".load sbuf[p=0, off=0x100] <- rel/y.npy\n"
            "\n"
            ".word 0x" +
                std::string(128, '0') +
                "  # unknown opcode 0x00\n"
                "\n"
                ".dump sbuf[p=0..3, off=0x80] BF16 [16] -> out.npy\n"
                ".dump psum[p=0, off=0x0] FP32 [3] step=4\n"
                ".dump acc[p=0..127] -> acc.npy\n");
}

TEST(AsmSyntax, UnknownOpcodesPrintAsWordDirectives) {
  Word w{};
  w[0] = 0x97;  // SortMerge does not exist (SPEC §1)
  EXPECT_FALSE(disassemble(w));
  Program p;
  p.words.push_back(w);
  // As `gpsimd dis` prints a word of a binary file, and as Python's disassemble does.
  const std::string text = ".word 0x97" + std::string(126, '0') + "  # unknown opcode 0x97";
  EXPECT_EQ(print_program(p), text + "\n");
  EXPECT_EQ(disassemble_any(w), text);
  auto back = assemble(print_program(p));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->front(), w);
  // A known opcode: the canonical text.
  Word sort{};
  sort[0] = 0x96;
  EXPECT_EQ(disassemble_any(sort), *disassemble(sort));
}

}  // namespace
}  // namespace gpsimd
