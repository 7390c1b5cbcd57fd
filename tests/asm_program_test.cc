// Programs on a machine (docs/assembly.md, "Directives"): setup directives write what
// they say (checked byte by byte here), bad setups change nothing, and dumps read the
// regions they name.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "gpsimd/asm.h"
#include "gpsimd/execute.h"
#include "gpsimd/program.h"

namespace gpsimd {
namespace {

Program parse(const std::string& text) {
  AsmError e;
  auto p = parse_program(text, "p.gpsimd", &e);
  EXPECT_TRUE(p) << e.to_string();
  return p ? *p : Program{};
}

std::vector<uint8_t> bytes_at(const Machine& m, Space s, unsigned p, uint32_t off, std::size_t n) {
  auto part = m.partition(s, p);
  return std::vector<uint8_t>(part.begin() + off,
                              part.begin() + off + static_cast<std::ptrdiff_t>(n));
}

TEST(AsmProgram, SetupWritesWhatTheDirectivesSay) {
  const Program p = parse(
      ".reg 5 = psum[p=1, off=0x40]\n"
      ".sem 3 = 7\n"
      ".acc 1..2 = 2.5\n"
      ".data sbuf[p=4..5, off=0x10] BF16 = [[1.0, -2.0], [0.5, -inf]]\n"
      ".data psum[p=9, off=0x100] INT32 = [-2, 0x12345678]\n"
      ".data sbuf[p=4, off=0x12] UINT8 = [0xaa]   # overwrites a byte of the first .data\n");
  Machine m(Generation::V3);
  ASSERT_FALSE(apply_setup(p, m, ""));
  EXPECT_EQ(m.registers[5], 0x2000000u + (1u << 15) + 0x40u);
  EXPECT_EQ(m.semaphores[3], 7u);
  EXPECT_EQ(m.accumulators[0], 0xff800000u);
  EXPECT_EQ(m.accumulators[1], 0x40200000u);
  EXPECT_EQ(m.accumulators[2], 0x40200000u);
  EXPECT_EQ(m.accumulators[3], 0xff800000u);
  // BF16 1.0 = 0x3f80, -2.0 = 0xc000, little-endian; then 0xaa over byte 2.
  EXPECT_EQ(bytes_at(m, Space::SBUF, 4, 0x10, 4), (std::vector<uint8_t>{0x80, 0x3f, 0xaa, 0xc0}));
  // 0.5 = 0x3f00, -inf = 0xff80.
  EXPECT_EQ(bytes_at(m, Space::SBUF, 5, 0x10, 4), (std::vector<uint8_t>{0x00, 0x3f, 0x80, 0xff}));
  EXPECT_EQ(bytes_at(m, Space::PSUM, 9, 0x100, 8),
            (std::vector<uint8_t>{0xfe, 0xff, 0xff, 0xff, 0x78, 0x56, 0x34, 0x12}));
  // Nothing else was written: 4 + 3 nonzero SBUF bytes above (0.5's low byte is 0x00).
  std::size_t nonzero = 0;
  for (uint8_t b : m.space(Space::SBUF)) nonzero += b != 0;
  EXPECT_EQ(nonzero, 7u);
}

TEST(AsmProgram, BadSetupChangesNothing) {
  Machine m(Generation::V2);
  const Machine before(m);
  // 192 KiB per SBUF partition on v2: the last directive runs past it.
  const Program p = parse(
      ".reg 1 = 5\n"
      ".data sbuf[p=0, off=0] FP32 = [1.0]\n"
      ".data sbuf[p=0..1, off=0x2fffc] FP32 = [[1.0, 2.0], [3.0, 4.0]]\n");
  auto err = apply_setup(p, m, "");
  ASSERT_TRUE(err);
  EXPECT_EQ(*err,
            "p.gpsimd:3: .data sbuf[p=0..1, off=0x2fffc]: 8 bytes at offset 0x2fffc run past the "
            "end of the v2 SBUF partition (0x30000 bytes)");
  EXPECT_TRUE(m == before);

  const Program q = parse(".load sbuf[p=0, off=0] <- missing.npy\n");
  err = apply_setup(q, m, "some/dir");
  ASSERT_TRUE(err);
  EXPECT_EQ(
      *err,
      "p.gpsimd:1: .load: some/dir/missing.npy: cannot open the file: No such file or directory");
  EXPECT_TRUE(m == before);
}

TEST(AsmProgram, LoadReadsNpyRowsIntoPartitions) {
  // examples/data/sort_keys.npy is a 2 x 8 <f4 array (written by a separate script).
  const Program p = parse(".load sbuf[p=6..7, off=0x20] <- data/sort_keys.npy\n");
  Machine m(Generation::V3);
  ASSERT_FALSE(apply_setup(p, m, GPSIMD_SOURCE_DIR "/examples"));
  float f;
  std::memcpy(&f, m.partition(Space::SBUF, 6).data() + 0x20 + 4 * 2, 4);
  EXPECT_EQ(f, 3.25f);  // row 0, element 2
  std::memcpy(&f, m.partition(Space::SBUF, 7).data() + 0x20 + 4 * 7, 4);
  EXPECT_EQ(f, 6.0f);  // row 1, element 7

  // The shape must match the region's partitions.
  const Program q = parse(".load sbuf[p=0..2, off=0] <- data/sort_keys.npy\n");
  auto err = apply_setup(q, m, GPSIMD_SOURCE_DIR "/examples");
  ASSERT_TRUE(err);
  EXPECT_NE(err->find("has shape (2, 8) but sbuf[p=0..2, off=0x0] has 3 partitions: expected "
                      "(3, M)"),
            std::string::npos)
      << *err;
}

TEST(AsmProgram, DumpsReadRegionsWithSteps) {
  const Program p = parse(
      ".data sbuf[p=0..1, off=0x0] INT16 = [[1, -1, 2, -2, 3, -3], [10, 20, 30, 40, 50, 60]]\n"
      ".acc 1 = 1.5\n"
      ".dump sbuf[p=0..1, off=0x2] INT16 [3] step=2 -> odd.npy\n"
      ".dump acc[p=0..1]\n"
      ".dump sbuf[p=1, off=0x0] BF16 [1]\n");
  Machine m(Generation::V3);
  ASSERT_FALSE(apply_setup(p, m, ""));
  std::string err;
  auto d = read_dumps(p, m, &err);
  ASSERT_TRUE(d) << err;
  ASSERT_EQ(d->size(), 3u);
  EXPECT_EQ((*d)[0].values,
            (std::vector<std::vector<uint32_t>>{{0xffff, 0xfffe, 0xfffd}, {20, 40, 60}}));
  EXPECT_EQ((*d)[0].array.descr, "<i2");
  EXPECT_EQ((*d)[0].array.shape, (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ((*d)[0].array.data,
            (std::vector<uint8_t>{0xff, 0xff, 0xfe, 0xff, 0xfd, 0xff, 20, 0, 40, 0, 60, 0}));
  EXPECT_EQ((*d)[0].line, 3);
  EXPECT_EQ((*d)[1].values, (std::vector<std::vector<uint32_t>>{{0xff800000u}, {0x3fc00000u}}));
  EXPECT_EQ((*d)[1].array.shape, (std::vector<uint64_t>{2}));
  EXPECT_EQ((*d)[2].array.descr, "<u2");  // BF16 travels as bits
  EXPECT_EQ((*d)[2].values, (std::vector<std::vector<uint32_t>>{{10}}));

  const Program q = parse(".dump psum[p=0, off=0x3ffc] FP32 [2]\n");
  EXPECT_FALSE(read_dumps(q, m, &err));
  EXPECT_EQ(err,
            "p.gpsimd:1: .dump psum[p=0, off=0x3ffc]: 8 bytes at offset 0x3ffc run past the end "
            "of the v3 PSUM partition (0x4000 bytes)");
}

// rows=[...] and cols=[...] choose what the table shows: partitions as labelled, element
// indices, inclusive ranges; they print back canonically and never change the data read.
TEST(AsmProgram, DumpRowsAndColsParseAndPrintBack) {
  const Program p = parse(
      ".dump sbuf[p=8..15, off=0x0] BF16 [512] rows=[8..9, 15] cols=[380..389, 0] -> t.npy\n"
      ".dump acc[p=0..127] rows=[120..127]\n");
  ASSERT_EQ(p.dumps.size(), 2u);
  EXPECT_EQ(p.dumps[0].rows, (std::vector<IndexRange>{{8, 9}, {15, 15}}));
  EXPECT_EQ(p.dumps[0].cols, (std::vector<IndexRange>{{380, 389}, {0, 0}}));
  EXPECT_EQ(p.dumps[0].path, "t.npy");
  EXPECT_EQ(p.dumps[1].rows, (std::vector<IndexRange>{{120, 127}}));
  EXPECT_EQ(print_directive(p.dumps[0]),
            ".dump sbuf[p=8..15, off=0x0] BF16 [512] rows=[8..9, 15] cols=[380..389, 0] -> t.npy");
  EXPECT_EQ(print_directive(p.dumps[1]), ".dump acc[p=0..127] rows=[120..127]");
  EXPECT_TRUE(same_program(p, parse(print_program(p))));
}

TEST(AsmProgram, DumpRowsAndColsOutsideTheDumpAreErrors) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {".dump sbuf[p=8..15, off=0x0] FP32 [4] rows=[7]",
       "row (a partition of the dump, 8..15): 7 is out of range"},
      {".dump sbuf[p=0, off=0x0] FP32 [4] cols=[2..4]",
       "column (an element index of the dump, 0..3): 4 is out of range: expected 2..3"},
      {".dump sbuf[p=0, off=0x0] FP32 [4] cols=[]", "cols=[] selects nothing"},
      {".dump sbuf[p=0, off=0x0] FP32 [4] rows=[0] rows=[0]", "rows is given twice"},
  };
  for (const Case& c : cases) {
    AsmError e;
    EXPECT_FALSE(parse_program(c.text, "p.gpsimd", &e)) << c.text;
    EXPECT_NE(e.to_string().find(c.message), std::string::npos) << e.to_string();
  }
}

// `.dump match[p=A..B]`: 17 UINT32 per search lane, mv[0..7], matched, idx[0..7] (SPEC §2
// fresh values: mv 0, matched 0, idx 0xFFFFFFFF); the printed form round-trips.
TEST(AsmProgram, DumpsReadSearchLanes) {
  const Program p = parse(".dump match[p=3..4] -> lanes.npy\n");
  ASSERT_EQ(p.dumps.size(), 1u);
  EXPECT_EQ(p.dumps[0].region.kind, RegionKind::MATCH);
  EXPECT_EQ(p.dumps[0].count, 17u);
  EXPECT_EQ(print_directive(p.dumps[0]), ".dump match[p=3..4] -> lanes.npy");
  Machine m(Generation::V2);
  m.match[4].mv[0] = 0x40400000u;  // 3.0
  m.match[4].matched = 0x81;
  m.match[4].idx[7] = 12;
  std::string err;
  auto d = read_dumps(p, m, &err);
  ASSERT_TRUE(d) << err;
  const uint32_t N = 0xffffffffu;
  EXPECT_EQ((*d)[0].values,
            (std::vector<std::vector<uint32_t>>{
                {0, 0, 0, 0, 0, 0, 0, 0, 0, N, N, N, N, N, N, N, N},
                {0x40400000u, 0, 0, 0, 0, 0, 0, 0, 0x81, N, N, N, N, N, N, N, 12}}));
  EXPECT_EQ((*d)[0].array.descr, "<u4");
  EXPECT_EQ((*d)[0].array.shape, (std::vector<uint64_t>{2, 17}));
  EXPECT_EQ((*d)[0].array.data.size(), 2u * 17 * 4);
}

TEST(AsmProgram, ProgramsRunEndToEnd) {
  // SPEC §4.4's example through text: [9,3,5,1,0,0], IS_LT, index_offset 100.
  const Program p = parse(
      ".data sbuf[p=0, off=0] UINT16 = [9, 3, 5, 1, 0, 0]\n"
      "Sort num_active_channels=1, in_out_dtype=(UINT16, UINT16), comparison=IS_LT,\n"
      "     index_offset=100, src_mem_pattern=sbuf[p=0, off=0x0] num=[6],\n"
      "     dst_mem_pattern=sbuf[p=0, off=0x20] num=[2,6]\n"
      ".dump sbuf[p=0, off=0x20] UINT16 [12]\n");
  Machine m(Generation::V3);
  ASSERT_FALSE(apply_setup(p, m, ""));
  ASSERT_TRUE(run_program(m, p.words).ok());
  std::string err;
  auto d = read_dumps(p, m, &err);
  ASSERT_TRUE(d) << err;
  EXPECT_EQ((*d)[0].values,
            (std::vector<std::vector<uint32_t>>{{0, 104, 0, 105, 1, 103, 3, 101, 5, 102, 9, 100}}));
}

// SPEC §8.9: `.engine E` sets the engine input of the words after it, in a stream; the
// words before the first have none (the opcode's default). Only dve, pool and act.
namespace engine_directive {

TEST(AsmEngine, SetsTheEngineInputOfTheWordsAfterIt) {
  const std::string max8 =
      "Max8 src_mem_pattern=sbuf[p=0, off=0] step=[1,0,0,0] num=[16,1,1,1], in_dtype=FP32, "
      "out_dtype=FP32, num_active_channels=1, dst_mem_pattern=sbuf[p=0, off=0x100] step=[1,0] "
      "num=[8,1]\n";
  const Program p =
      parse(max8 + ".engine pool\n" + max8 + max8 + ".engine act\n.engine dve\n" + max8);
  ASSERT_EQ(p.words.size(), 4u);
  ASSERT_EQ(p.word_engines.size(), 4u);
  EXPECT_EQ(p.word_engines[0], std::nullopt);
  EXPECT_EQ(p.word_engines[1], Engine::POOL);
  EXPECT_EQ(p.word_engines[2], Engine::POOL);
  EXPECT_EQ(p.word_engines[3], Engine::DVE);  // the latest directive wins
  EXPECT_EQ(word_engine(p, 3), Engine::DVE);
  EXPECT_EQ(word_engine(p, 9), std::nullopt);
  // Printed back where the engine changes; the text parses to the same program.
  const std::string text = print_program(p);
  EXPECT_NE(text.find(".engine pool\nMax8"), std::string::npos) << text;
  EXPECT_NE(text.find(".engine dve\nMax8"), std::string::npos) << text;
  EXPECT_EQ(text.find(".engine act"), std::string::npos) << text;  // no word followed it
  const Program back = parse(text);
  EXPECT_TRUE(same_program(p, back)) << text;
  // A stream word of §4.1-§4.13 ignores it: Max8 runs on DVE whatever .engine says.
  Machine m(Generation::V3);
  const ProgramResult r = run_program(m, p.words, p.word_engines, {});
  EXPECT_TRUE(r.ok()) << r.failure.message();
  EXPECT_EQ(r.retired, 4u);
}

TEST(AsmEngine, OnlyTheThreeNames) {
  for (const char* bad : {".engine gpsimd", ".engine DVE", ".engine 1", ".engine"}) {
    AsmError e;
    EXPECT_FALSE(parse_program(bad, "e.gpsimd", &e)) << bad;
    EXPECT_NE(e.message.find("dve, pool or act"), std::string::npos)
        << bad << ": " << e.to_string();
  }
  AsmError extra;
  EXPECT_FALSE(parse_program(".engine dve x", "e.gpsimd", &extra));
  EXPECT_NE(extra.message.find("after the engine"), std::string::npos) << extra.to_string();
  // A near miss gets a suggestion.
  AsmError e;
  EXPECT_FALSE(parse_program(".engine pol", "e.gpsimd", &e));
  EXPECT_NE(e.message.find("did you mean pool?"), std::string::npos) << e.to_string();
}

}  // namespace engine_directive

}  // namespace
}  // namespace gpsimd
