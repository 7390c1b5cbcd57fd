// The gpsimd tool end to end: every program in examples/ runs with `gpsimd run` and
// writes its .npy dumps, whose contents are checked against values derived by hand
// from SPEC §4 (see each example's comments); plus the behaviour docs/cli.md promises:
// binary and hex words, JSON output, stdin, --help with an example, exit statuses.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "gpsimd/isa.h"
#include "gpsimd/npy.h"
#include "tool_runner.h"

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const std::string kBinary = GPSIMD_BINARY_DIR "/tools/gpsimd";
const std::string kSource = GPSIMD_SOURCE_DIR;

using Result = gpsimd::testing::ToolResult;
using gpsimd::testing::read_file;

// Runs the tool with `args` from `cwd` (default: the source directory), feeding `input`
// on stdin.
Result run(const std::vector<std::string>& args, const std::string& cwd = kSource,
           const std::string& input = "") {
  return gpsimd::testing::run_tool(args, cwd, input);
}

// A fresh scratch directory for one test.
std::string scratch(const std::string& name) {
  const fs::path d = fs::path(GPSIMD_BINARY_DIR) / "cli_examples_test" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

template <class T>
std::vector<T> npy_values(const std::string& path, std::vector<uint64_t>* shape = nullptr) {
  std::string err;
  auto a = gpsimd::read_npy(path, &err);
  EXPECT_TRUE(a) << err;
  if (!a) return {};
  EXPECT_EQ(a->itemsize, sizeof(T)) << path;
  if (shape) *shape = a->shape;
  std::vector<T> v(a->data.size() / sizeof(T));
  std::memcpy(v.data(), a->data.data(), a->data.size());
  return v;
}

constexpr float kMinusMax = -3.4028234663852886e38f;  // -FLT_MAX, RangeSelect's fill

// The exit status of `gpsimd run` on an example: 0, but for the programs of queues that
// show a race (4: ok with a race) and a deadlock (3), docs/cli.md.
int expected_status(const fs::path& example) {
  const std::string stem = example.stem().string();
  if (stem == "race") return 4;
  if (stem == "deadlock") return 3;
  return 0;
}

TEST(CliExamples, EveryExampleRuns) {
  std::size_t count = 0;
  for (const auto& e : fs::directory_iterator(kSource + "/examples")) {
    if (e.path().extension() != ".gpsimd") continue;
    ++count;
    const std::string out = scratch("every_" + e.path().stem().string());
    const Result r = run({"run", e.path().string(), "--out-dir", out});
    EXPECT_EQ(r.status, expected_status(e.path())) << e.path() << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("retired"), std::string::npos);
    // Also with the scalar reference path, and from another working directory.
    const Result ref = run({"run", e.path().string(), "--reference", "--no-write"}, out);
    EXPECT_EQ(ref.status, expected_status(e.path())) << e.path() << "\n" << ref.err;
    EXPECT_EQ(ref.out, run({"run", e.path().string(), "--no-write"}, out).out) << e.path();
  }
  EXPECT_GE(count, 10u);  // one per instruction plus the demo
}

TEST(CliExamples, RangeSelectDumps) {
  const std::string out = scratch("range_select");
  ASSERT_EQ(run({"run", "examples/range_select.gpsimd", "--out-dir", out}).status, 0);
  // Windows [lo, hi) = [0,3), [1,4), [2,6), [4,8) over the PSUM scores.
  const float M = kMinusMax;
  std::vector<uint64_t> shape;
  EXPECT_EQ(npy_values<float>(out + "/range_select_masked.npy", &shape),
            (std::vector<float>{0.5f, -1.0f,  2.0f,  M,      M,      M,    M,     M,  //
                                M,    0.125f, -2.0f, 4.0f,   M,      M,    M,     M,  //
                                M,    M,      0.5f,  -0.25f, 2.25f,  1.0f, M,     M,  //
                                M,    M,      M,     M,      -1.25f, 3.5f, 0.25f, 1.0f}));
  EXPECT_EQ(shape, (std::vector<uint64_t>{4, 8}));
  EXPECT_EQ(npy_values<float>(out + "/range_select_rowmax.npy"),
            (std::vector<float>{2.0f, 4.0f, 2.25f, 3.5f}));
}

TEST(CliExamples, TensorScalarSelectDumps) {
  const std::string out = scratch("tss");
  ASSERT_EQ(run({"run", "examples/tensor_scalar_select.gpsimd", "--out-dir", out}).status, 0);
  // reversed_pred = 1: flag 0 keeps the row, flag 1 writes -1.
  EXPECT_EQ(npy_values<int32_t>(out + "/tensor_scalar_select_out.npy"),
            (std::vector<int32_t>{101, 102, 103, 104, 105, 106, -1, -1, -1, -1, -1, -1,
                                  301, 302, 303, 304, 305, 306, -1, -1, -1, -1, -1, -1}));
}

TEST(CliExamples, GetSequenceBoundsDumps) {
  const std::string out = scratch("gsb");
  ASSERT_EQ(run({"run", "examples/get_sequence_bounds.gpsimd", "--out-dir", out}).status, 0);
  // SPEC §4.3's example: starts [9,1,1,3,3,3,9,7,7], ends [-1,3,3,6,6,6,-1,9,9]. The
  // output directory is created when it does not exist.
  ASSERT_EQ(
      run({"run", "examples/get_sequence_bounds.gpsimd", "--out-dir", out + "/new/dir"}).status, 0);
  EXPECT_EQ(npy_values<float>(out + "/new/dir/get_sequence_bounds.npy"),
            (std::vector<float>{9, 1, 1, 3, 3, 3, 9, 7, 7, -1, 3, 3, 6, 6, 6, -1, 9, 9}));
  EXPECT_EQ(npy_values<float>(out + "/get_sequence_bounds.npy"),
            (std::vector<float>{9, 1, 1, 3, 3, 3, 9, 7, 7, -1, 3, 3, 6, 6, 6, -1, 9, 9}));
}

TEST(CliExamples, NonzeroWithCountDumps) {
  const std::string out = scratch("nwc");
  ASSERT_EQ(run({"run", "examples/nonzero_with_count.gpsimd", "--out-dir", out}).status, 0);
  // SPEC §4.11's example with index_offset 32: ones at 1, 2 and 5.
  EXPECT_EQ(npy_values<int32_t>(out + "/nonzero_with_count_out.npy"),
            (std::vector<int32_t>{33, 34, 37, -1, -1, -1, -1, -1, 3}));
}

TEST(CliExamples, CopyPredicatedScalarDumps) {
  const std::string out = scratch("cps");
  ASSERT_EQ(run({"run", "examples/copy_predicated_scalar.gpsimd", "--out-dir", out}).status, 0);
  // reversed_pred = 1: -9984.0 where the mask is 1, the score elsewhere.
  const float F = -9984.0f;
  EXPECT_EQ(npy_values<float>(out + "/copy_predicated_scalar_out.npy"),
            (std::vector<float>{0.5f, 1.25f, -0.75f, 2.0f, 0.125f, -1.5f, F, F,  //
                                -0.25f, 0.5f, 1.0f, -1.0f, F, F, F, F}));
}

TEST(CliExamples, TensorTensorDumps) {
  const std::string out = scratch("tt");
  ASSERT_EQ(run({"run", "examples/tensor_tensor.gpsimd", "--out-dir", out}).status, 0);
  // scores + bias, exact in BF16: 1.5 = 0x3fc0, 2.25 = 0x4010, 0.25 = 0x3e80, 3.0 = 0x4040,
  // -0.875 = 0xbf60, -2.5 = 0xc020, 2.0 = 0x4000, -0.75 = 0xbf40; row 1 adds 0.5.
  EXPECT_EQ(
      npy_values<uint16_t>(out + "/tensor_tensor_biased.npy"),
      (std::vector<uint16_t>{0x3fc0, 0x4010, 0x3e80, 0x4040, 0xbf60, 0xc020, 0x4000, 0xbf40, 0x3e80,
                             0x3f80, 0x3fc0, 0xbf00, 0x3fa0, 0x4090, 0x4020, 0x3f80}));
  // max(score, 0.0) on partition 0, max(score, 1.0) on partition 1.
  EXPECT_EQ(npy_values<float>(out + "/tensor_tensor_floored.npy"),
            (std::vector<float>{0.5f, 1.25f, 0.0f, 2.0f, 0.125f, 0.0f, 3.0f, 0.25f,  //
                                1.0f, 1.0f, 1.0f, 1.0f, 1.0f, 4.0f, 2.0f, 1.0f}));
  // DVE: UINT32 through FP32 (2^24 + 1 -> 2^24; 2^24 + 3 -> 2^24 + 4, ties to even).
  EXPECT_EQ(npy_values<uint32_t>(out + "/tensor_tensor_uint32.npy"),
            (std::vector<uint32_t>{16777216u, 16777220u}));
  // 0x12345678 >> 24, 0x80000000 >> 31, 0xffffffff >> 32 (every bit out), 0x00ff0000 >> 8.
  EXPECT_EQ(npy_values<int32_t>(out + "/tensor_tensor_shifted.npy"),
            (std::vector<int32_t>{0x12, 1, 0, 0xff00}));
}

// SPEC §4.15 on two partitions (see the example's comments): 1.0 - x, x * f + 2.5 with f
// per partition, (x & 0xff) << 4 on INT32 bits, and the pointer form x * f + bias as BF16.
TEST(CliExamples, TensorScalarDumps) {
  const std::string out = scratch("ts");
  ASSERT_EQ(run({"run", "examples/tensor_scalar.gpsimd", "--out-dir", out}).status, 0);
  EXPECT_EQ(npy_values<float>(out + "/one_minus_x.npy"),
            (std::vector<float>{-2.0f, 0.5f, 3.0f, 0.0f, 0.75f, 2.0f, -3.0f, -0.5f}));
  EXPECT_EQ(npy_values<float>(out + "/x_times_f_plus.npy"),
            (std::vector<float>{8.5f, 3.5f, -1.5f, 4.5f, 2.375f, 3.0f, 0.5f, 1.75f}));
  EXPECT_EQ(npy_values<int32_t>(out + "/masked_shifted.npy"),
            (std::vector<int32_t>{0x340, 0xff0, 0xff0, 0, 0x70, 0xff0, 0, 0x100}));
  // 6.5, 1.5, -3.5, 2.5 and -3.125, -2.5, -5.0, -3.75 as BF16 bits (all exact).
  EXPECT_EQ(
      npy_values<uint16_t>(out + "/x_times_f_plus_bias.npy"),
      (std::vector<uint16_t>{0x40d0, 0x3fc0, 0xc060, 0x4020, 0xc048, 0xc020, 0xc0a0, 0xc070}));
}

TEST(CliExamples, CastDumps) {
  const std::string out = scratch("cast");
  ASSERT_EQ(run({"run", "examples/cast.gpsimd", "--out-dir", out}).status, 0);
  // Copy: the 2 x 3 block column by column, bits unchanged (2^24 + 1 too).
  EXPECT_EQ(npy_values<int32_t>(out + "/cast_transposed.npy"),
            (std::vector<int32_t>{16777217, 4, 2, 5, 3, 6, -1, 300, -2, -300, -3, 7}));
  // FP32 -> BF16: 1 + 2^-8 ties to 1.0 (0x3f80), 1 + 3 * 2^-8 to 1 + 2^-6 (0x3f82),
  // -FLT_MAX to -inf, NaN to the canonical 0x7fc0, 1e10 (0x501502f9) to 0x5015; 0.1
  // (0x3dcccccd) to 0x3dcd, 65504 (0x477fe000) to 65536 (0x4780), 255.5 to 256, -1e-40
  // (0x80011704) to the subnormal 0x8001.
  EXPECT_EQ(
      npy_values<uint16_t>(out + "/cast_bf16.npy"),
      (std::vector<uint16_t>{0x3f80, 0x3f82, 0xff80, 0x4020, 0x4060, 0xbf00, 0x7fc0, 0x5015, 0x3dcd,
                             0xbe4d, 0x4780, 0xc020, 0x4380, 0x8001, 0xff80, 0x40e0}));
  // INT32 -> INT8: saturated.
  EXPECT_EQ(npy_values<int8_t>(out + "/cast_int8.npy"),
            (std::vector<int8_t>{127, 2, 3, 4, 5, 6, -1, -2, -3, 127, -128, 7}));
  // FP32 -> INT32: round to nearest even (2.5 -> 2, 3.5 -> 4, -0.5 -> 0, -2.5 -> -2,
  // 255.5 -> 256), NaN -> 0, 1e10 and -inf saturate, -FLT_MAX to INT32_MIN.
  EXPECT_EQ(npy_values<int32_t>(out + "/cast_int32.npy"),
            (std::vector<int32_t>{1, 1, INT32_MIN, 2, 4, 0, 0, INT32_MAX, 0, 0, 65504, -2, 256, 0,
                                  INT32_MIN, 7}));
}

// SPEC §4.18 (see the example's comments): the bit patterns NKI's value conversion gives,
// written as they are; a step of 2 leaves the elements between untouched.
TEST(CliExamples, MemsetDumps) {
  const std::string out = scratch("memset");
  ASSERT_EQ(run({"run", "examples/memset.gpsimd", "--out-dir", out}).status, 0);
  EXPECT_EQ(npy_values<float>(out + "/memset_fp32.npy"), std::vector<float>(8, 0.2f));
  EXPECT_EQ(
      npy_values<uint16_t>(out + "/memset_bf16_step2.npy"),
      (std::vector<uint16_t>{0x3e4d, 0, 0x3e4d, 0, 0x3e4d, 0, 0x3e4d, 0, 0x3e4d, 0, 0x3e4d, 0}));
  EXPECT_EQ(npy_values<uint16_t>(out + "/memset_fp16.npy"), std::vector<uint16_t>(8, 0xfc00));
  EXPECT_EQ(npy_values<int8_t>(out + "/memset_int8.npy"), std::vector<int8_t>(12, -1));
}

// SPEC §4.19 on 2 x 3 blocks (see the example): row sums (exact in any order), the block's
// max, the row maxima times -1.0, and the OR of INT32 flags.
TEST(CliExamples, TensorReduceDumps) {
  const std::string out = scratch("reduce");
  ASSERT_EQ(run({"run", "examples/tensor_reduce.gpsimd", "--out-dir", out}).status, 0);
  EXPECT_EQ(npy_values<float>(out + "/row_sum.npy"), (std::vector<float>{3.0f, 2.25f, 5.5f, 2.0f}));
  EXPECT_EQ(npy_values<float>(out + "/block_max.npy"), (std::vector<float>{5.0f, 8.0f}));
  EXPECT_EQ(npy_values<float>(out + "/row_max_negated.npy"),
            (std::vector<float>{-5.0f, -2.0f, -4.0f, -8.0f}));
  EXPECT_EQ(npy_values<int32_t>(out + "/flags_or.npy"), (std::vector<int32_t>{0x111, 0x3ff}));
}

// SPEC §4.20 and §4.24 (see the example): the cumsum both ways, SPEC's reversed example,
// the last running value read back, and SUBTRACT's alternation (reg = x - reg).
TEST(CliExamples, CumsumDumps) {
  const std::string out = scratch("cumsum");
  ASSERT_EQ(run({"run", "examples/cumsum.gpsimd", "--out-dir", out}).status, 0);
  const std::vector<float> cumsum{1.0f, 3.0f, 6.0f, 10.0f, 0.5f, -0.5f, 1.5f, 11.5f};
  EXPECT_EQ(npy_values<float>(out + "/scan_cumsum.npy"), cumsum);
  EXPECT_EQ(npy_values<float>(out + "/scan_reversed.npy"),
            (std::vector<float>{-89.0f, 111.0f, -78.0f}));
  EXPECT_EQ(npy_values<float>(out + "/cumulative_cumsum.npy"), cumsum);
  EXPECT_EQ(npy_values<float>(out + "/cumulative_last.npy"), (std::vector<float>{10.0f, 11.5f}));
  EXPECT_EQ(npy_values<float>(out + "/cumulative_subtract.npy"),
            (std::vector<float>{1.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f, 1.0f, 0.0f}));
}

// SPEC §4.21 (see the example): (x * s[p]) * gamma, its sum in the accumulator, and
// reverse FIRST.
TEST(CliExamples, ScalarTensorTensorDumps) {
  const std::string out = scratch("stt");
  ASSERT_EQ(run({"run", "examples/scalar_tensor_tensor.gpsimd", "--out-dir", out}).status, 0);
  EXPECT_EQ(npy_values<float>(out + "/x_s_gamma.npy"),
            (std::vector<float>{2.0f, 2.0f, 12.0f, -8.0f, -2.0f, 0.5f, 1.0f, -0.5f}));
  EXPECT_EQ(npy_values<float>(out + "/x_s_gamma_sum.npy"), (std::vector<float>{8.0f, -1.0f}));
  EXPECT_EQ(npy_values<float>(out + "/reversed.npy"), (std::vector<float>{-7.0f, -12.0f}));
}

// SPEC §4.22: np.where(a <= 0.8, a, b) with b the destination.
TEST(CliExamples, CopyPredicatedDumps) {
  const std::string out = scratch("cp");
  ASSERT_EQ(run({"run", "examples/copy_predicated.gpsimd", "--out-dir", out}).status, 0);
  EXPECT_EQ(npy_values<float>(out + "/where_a_b.npy"),
            (std::vector<float>{0.5f, 20.0f, 0.1f, 40.0f, 50.0f, 0.75f, -1.0f, 80.0f}));
}

// SPEC §4.25: the masked scores and each row's max, read back; a fully masked row reads
// on_false.
TEST(CliExamples, SelectReduceDumps) {
  const std::string out = scratch("sr");
  ASSERT_EQ(run({"run", "examples/select_reduce.gpsimd", "--out-dir", out}).status, 0);
  EXPECT_EQ(
      npy_values<float>(out + "/masked_scores.npy"),
      (std::vector<float>{1.5f, -2.0f, -9984.0f, 0.5f, -9984.0f, -9984.0f, -9984.0f, -9984.0f}));
  EXPECT_EQ(npy_values<float>(out + "/row_max.npy"), (std::vector<float>{1.5f, -9984.0f}));
}

TEST(CliExamples, DveReadAccumulatorDumps) {
  const std::string out = scratch("dra");
  ASSERT_EQ(run({"run", "examples/dve_read_accumulator.gpsimd", "--out-dir", out}).status, 0);
  // Row maxima 7.25, -1.5, 4.0 (all four columns pass 0 <= j <= 3), negated, as BF16 bits.
  EXPECT_EQ(npy_values<uint16_t>(out + "/dve_read_accumulator_out.npy"),
            (std::vector<uint16_t>{0xc0e8, 0x3fc0, 0xc080}));
}

// SPEC §4.7: ordinal k loads slot 7 - k. Lane 0 walks down (mv[n] = vals[n]), lane 1 up.
// A lane dumps as 17 u32: mv[0..7] (FP32 bits), matched, idx[0..7].
TEST(CliExamples, MatchValueLoadDumpsTheLanes) {
  const std::string out = scratch("mvl");
  ASSERT_EQ(run({"run", "examples/match_value_load.gpsimd", "--out-dir", out}).status, 0);
  std::vector<uint64_t> shape;
  const uint32_t T = 0x40400000u, E = 0x41000000u, N = 0xffffffffu;  // 3.0, 8.0, none
  EXPECT_EQ(npy_values<uint32_t>(out + "/match_value_load_lanes.npy", &shape),
            (std::vector<uint32_t>{T, E, E, E, E, E, E, E, 0, N, N, N, N, N, N, N, N,  //
                                   E, E, E, E, E, E, E, T, 0, N, N, N, N, N, N, N, N}));
  EXPECT_EQ(shape, (std::vector<uint64_t>{2, 17}));
}

// SPEC §4.8: the 8 largest, largest first through the negated destination step; row 1
// has five numbers and three -inf.
TEST(CliExamples, Max8Dumps) {
  const std::string out = scratch("max8");
  ASSERT_EQ(run({"run", "examples/max8.gpsimd", "--out-dir", out}).status, 0);
  const float I = -std::numeric_limits<float>::infinity();
  EXPECT_EQ(npy_values<float>(out + "/max8_out.npy"),
            (std::vector<float>{100, 9, 9, 8, 5, 3, 2, 0.5f,  //
                                4, 1, 0.25f, 0, -2, I, I, I}));
}

// SPEC §4.9's NKI example.
TEST(CliExamples, FindIndex8Dumps) {
  const std::string out = scratch("fi8");
  ASSERT_EQ(run({"run", "examples/find_index8.gpsimd", "--out-dir", out}).status, 0);
  EXPECT_EQ(npy_values<uint32_t>(out + "/find_index8_out.npy"),
            (std::vector<uint32_t>{2, 4, 5, 6, 7, 8, 9, 10}));
}

// SPEC §4.10's docstring example: positions 2 and 4..10 replaced by -1.0.
TEST(CliExamples, MatchReplace8Dumps) {
  const std::string out = scratch("mr8");
  ASSERT_EQ(run({"run", "examples/match_replace8.gpsimd", "--out-dir", out}).status, 0);
  EXPECT_EQ(npy_values<float>(out + "/match_replace8_out.npy"),
            (std::vector<float>{1, 2, -1, 4, -1, -1, -1, -1, -1, -1, -1}));
}

// The JSON report names the lanes that are not fresh in SPEC §7's form, and the trace
// reports each lane an instruction changes, before and after.
TEST(CliExamples, RunJsonReportsSearchLanes) {
  const std::string out = scratch("fi8json");
  const Result r =
      run({"run", "examples/find_index8.gpsimd", "--json", "--trace", "--out-dir", out});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["match_state"].size(), 1u);
  const json& l = j["match_state"]["0"];
  EXPECT_EQ(l["matched"], "0xff");
  EXPECT_EQ(l["mv"][0], "0x40400000");                            // 3.0 in slot 0 (negated step)
  EXPECT_EQ(l["idx"], json::parse("[2, 4, 5, 6, 7, 8, 9, 10]"));  // indices: numbers
  unsigned lane_events = 0;
  for (const json& e : j["trace"])
    if (e.contains("match_lane")) ++lane_events;
  EXPECT_EQ(lane_events, 2u);  // MatchValueLoad, then FindIndex8
}

TEST(CliExamples, SortDumps) {
  const std::string out = scratch("sort");
  ASSERT_EQ(run({"run", "examples/sort.gpsimd", "--out-dir", out}).status, 0);
  // SPEC §4.4's example.
  EXPECT_EQ(npy_values<int32_t>(out + "/sort_values.npy"),
            (std::vector<int32_t>{0, 0, 1, 3, 5, 9}));
  EXPECT_EQ(npy_values<uint32_t>(out + "/sort_indices.npy"),
            (std::vector<uint32_t>{104, 105, 103, 101, 102, 100}));
  // Top 3 of data/sort_keys.npy's rows, descending, ties by position.
  EXPECT_EQ(npy_values<float>(out + "/sort_top3_values.npy"),
            (std::vector<float>{3.25f, 3.25f, 2.5f, 6.0f, 4.5f, 4.5f}));
  EXPECT_EQ(npy_values<uint32_t>(out + "/sort_top3_indices.npy"),
            (std::vector<uint32_t>{2, 6, 4, 7, 1, 3}));
}

TEST(CliExamples, DemoChecksItself) {
  const std::string out = scratch("demo");
  const Result r = run({"demo"}, out);  // any working directory
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("12 of 12 checks passed."), std::string::npos);
  EXPECT_TRUE(fs::is_empty(out));  // the demo writes no file
}

TEST(CliExamples, BinaryAndHexWordsDisassembleLikeTheSource) {
  const std::string out = scratch("bin");
  const std::string bin = out + "/sort.bin", hex = out + "/sort.hex";
  Result r = run({"asm", "examples/sort.gpsimd", "-o", bin});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(fs::file_size(bin), 2u * 64u);
  EXPECT_NE(r.err.find("holds only the 2 instruction words"), std::string::npos) << r.err;
  ASSERT_EQ(run({"asm", "examples/sort.gpsimd", "-o", hex, "--hex"}).status, 0);
  const Result stdout_hex = run({"asm", "examples/sort.gpsimd"});
  EXPECT_EQ(stdout_hex.out, read_file(hex));
  EXPECT_EQ(stdout_hex.out.size(), 2u * 129u);  // two lines of 128 hex digits

  // The instruction lines of the canonical source.
  const Result src = run({"dis", "examples/sort.gpsimd"});
  std::string instructions;
  std::istringstream lines(src.out);
  for (std::string l; std::getline(lines, l);)
    if (l.rfind("Sort ", 0) == 0) instructions += l + "\n";
  EXPECT_EQ(run({"dis", bin}).out, instructions);
  EXPECT_EQ(run({"dis", hex}).out, instructions);
  EXPECT_EQ(run({"dis", "--format", "bin", bin}).out, instructions);
  // Stdin, with the format detected from the content.
  EXPECT_EQ(run({"dis", "-"}, kSource, read_file(bin)).out, instructions);
  EXPECT_EQ(run({"dis", "-"}, kSource, read_file(hex)).out, instructions);
  // Binary words run on a fresh machine (no data directives): the Sort of zeros retires.
  r = run({"run", bin, "--no-write"});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(CliExamples, JsonOutputs) {
  Result r = run({"dis", "--json", "examples/sort.gpsimd"});
  ASSERT_EQ(r.status, 0);
  json j = json::parse(r.out);
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["mnemonic"], "Sort");
  EXPECT_EQ(j[0]["opcode"], 0x96);
  EXPECT_EQ(j[0]["line"], 14);
  EXPECT_EQ(j[0]["fields"]["in_out_dtype"]["in"]["name"], "INT32");
  EXPECT_EQ(j[0]["fields"]["index_offset"]["bits"], "0x00000064");
  EXPECT_EQ(j[0]["fields"]["events"]["update_mode"]["name"], "SET");
  EXPECT_EQ(j[0]["fields"]["dst_mem_pattern"]["num"], json::parse("[2, 6]"));
  EXPECT_EQ(j[1]["fields"]["events"]["wait_mode"]["name"], "GE");

  r = run({"check", "--json", "--strict", "examples/sort.gpsimd"});
  EXPECT_EQ(r.status, 1);
  j = json::parse(r.out);
  EXPECT_EQ(j["invalid"], 1);
  EXPECT_EQ(j["words"][0]["valid"], true);
  EXPECT_EQ(j["words"][1]["diagnostics"][0]["clause"], "sort_tensor_shapes_ok");

  r = run({"run", "--json", "--no-write", "examples/sort.gpsimd"});
  ASSERT_EQ(r.status, 0) << r.err;
  j = json::parse(r.out);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["retired"], 2);
  EXPECT_EQ(j["semaphores"]["1"], 1);
  EXPECT_EQ(j["dumps"][0]["values"], json::parse("[[0, 0, 1, 3, 5, 9]]"));
  EXPECT_EQ(j["dumps"][1]["values"], json::parse("[[104, 105, 103, 101, 102, 100]]"));
  EXPECT_EQ(j["dumps"][1]["file"], nullptr);

  r = run({"run", "--json", "--trace", "tests/golden/cases/fault.gpsimd"});
  EXPECT_EQ(r.status, 1);
  j = json::parse(r.out);
  EXPECT_EQ(j["status"], "fault");
  EXPECT_EQ(j["failure"]["index"], 1);
  EXPECT_EQ(j["failure"]["fault"]["kind"], "bad-address");
  EXPECT_EQ(j["trace"][0]["retire"], 0);
  EXPECT_EQ(j["trace"].back()["semaphore"]["after"], 5);
}

// Every array in a JSON report holds values of one JSON type (numbers, strings, objects,
// arrays...), so that a consumer can read it without testing each element.
void expect_uniform_arrays(const json& j, const std::string& where) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      expect_uniform_arrays(*it, where + "." + it.key());
    return;
  }
  if (!j.is_array()) return;
  for (std::size_t i = 0; i < j.size(); ++i) {
    // Integers and floats are both JSON numbers.
    auto kind = [](const json& x) {
      return x.is_number() ? json::value_t::number_float : x.type();
    };
    EXPECT_EQ(kind(j[i]), kind(j[0]))
        << where << "[" << i << "] = " << j[i].dump() << " but [0] = " << j[0].dump();
    expect_uniform_arrays(j[i], where + "[" + std::to_string(i) + "]");
  }
}

TEST(CliExamples, RunJsonArraysHoldOneType) {
  std::size_t count = 0;
  for (const auto& e : fs::directory_iterator(kSource + "/examples")) {
    if (e.path().extension() != ".gpsimd") continue;
    ++count;
    const Result r = run({"run", "--json", "--trace", "--no-write", e.path().string()});
    ASSERT_EQ(r.status, expected_status(e.path())) << e.path() << r.err;
    expect_uniform_arrays(json::parse(r.out), e.path().filename().string());
  }
  EXPECT_GE(count, 10u);
  for (const char* f :
       {"tests/golden/cases/invalid.gpsimd", "tests/golden/cases/fault.gpsimd",
        "tests/golden/cases/queue_invalid.gpsimd", "tests/golden/cases/queue_fault.gpsimd"}) {
    const Result r = run({"run", "--json", "--trace", f});
    EXPECT_EQ(r.status, 1);
    expect_uniform_arrays(json::parse(r.out), f);
  }
}

// The JSON rule of docs/cli.md: every integer is a JSON number; a "0x..." string is a bit
// pattern, and stands only under the keys that hold bit patterns (FP32 values, the
// header, immediates and addresses, the matched flags, a float dump's bits). Diagnostics
// keep their text (the value as the message shows it).
void expect_json_rule(const json& j, const std::string& where, bool bits_here = false) {
  static const std::vector<std::string> kBitKeys = {"bits",    "addr",         "header",     "mv",
                                                    "matched", "accumulators", "accumulator"};
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) {
      if (it.key() == "diagnostics") continue;
      const bool bits =
          bits_here || std::find(kBitKeys.begin(), kBitKeys.end(), it.key()) != kBitKeys.end();
      // An accumulator event's index is an index, its before/after FP32 bits.
      const bool index = it.key() == "index" || it.key() == "line";
      expect_json_rule(*it, where + "." + it.key(), bits && !index);
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      expect_json_rule(j[i], where + "[" + std::to_string(i) + "]", bits_here);
  } else if (j.is_string()) {
    const std::string s = j.get<std::string>();
    const bool hex = s.size() > 2 && s.rfind("0x", 0) == 0;
    EXPECT_TRUE(!hex || bits_here) << where << " = " << s << ": an integer as a hex string";
  } else if (j.is_number_integer() || j.is_number_unsigned()) {
    EXPECT_FALSE(bits_here) << where << " = " << j.dump() << ": a bit pattern as a number";
  }
}

TEST(CliExamples, JsonNumbersFollowOneRule) {
  std::size_t count = 0;
  for (const auto& e : fs::directory_iterator(kSource + "/examples")) {
    if (e.path().extension() != ".gpsimd") continue;
    ++count;
    const std::string f = e.path().string(), name = e.path().filename().string();
    Result r = run({"run", "--json", "--trace", "--no-write", f});
    ASSERT_EQ(r.status, expected_status(e.path())) << f << r.err;
    expect_json_rule(json::parse(r.out), "run " + name);
    r = run({"dis", "--json", f});
    ASSERT_EQ(r.status, 0) << f << r.err;
    expect_json_rule(json::parse(r.out), "dis " + name);
    r = run({"check", "--json", f});
    expect_json_rule(json::parse(r.out), "check " + name);
  }
  EXPECT_GE(count, 10u);
  // The search lanes' indices (4294967295: no match) and the semaphores are numbers.
  Result r = run({"run", "--json", "--no-write", "examples/match_value_load.gpsimd"});
  const json lane = json::parse(r.out)["match_state"].begin().value();
  EXPECT_EQ(lane["idx"][0], 4294967295u);
  EXPECT_TRUE(lane["mv"][0].is_string());
  r = run({"run", "--json", "--no-write", "examples/sort.gpsimd"});
  EXPECT_EQ(json::parse(r.out)["semaphores"]["1"], 1);
  // A word of an unknown opcode: the opcode a number, its text what dis prints.
  const std::string dir = scratch("json_rule");
  std::ofstream(dir + "/ff.bin", std::ios::binary) << std::string(64, '\xff');
  r = run({"dis", "--json", dir + "/ff.bin"});
  const json w = json::parse(r.out)[0];
  EXPECT_EQ(w["opcode"], 255);
  EXPECT_EQ(w["mnemonic"], nullptr);
  EXPECT_EQ(w["text"], ".word 0x" + std::string(128, 'f') + "  # unknown opcode 0xff");
}

// Float dumps: values as decimal strings that float() reads ("-inf" included), with their
// exact bits beside them; integer dumps stay numbers.
TEST(CliExamples, RunJsonFloatDumpsAreStringsWithBits) {
  const Result r = run({"run", "--json", "--no-write", "examples/causal_tile.gpsimd"});
  ASSERT_EQ(r.status, 0) << r.err;
  const json j = json::parse(r.out);
  const json& d = j["dumps"][0];
  EXPECT_EQ(d["dtype"], "BF16");
  EXPECT_EQ(d["shape"], json::parse("[128, 512]"));
  // Partition 1 keeps keys 0..385 (s = j + 1 as BF16) and fills -inf after.
  EXPECT_EQ(d["values"][1][0], "1.0");
  EXPECT_EQ(d["values"][1][384], "384.0");  // 385 rounds to 8 significant bits
  EXPECT_EQ(d["values"][1][385], "386.0");
  EXPECT_EQ(d["values"][1][386], "-inf");
  EXPECT_EQ(d["bits"][1][386], "0xff80");  // BF16 -inf
  EXPECT_EQ(d["bits"][1][0], "0x3f80");    // BF16 1.0
  const Result s = run({"run", "--json", "--no-write", "examples/sort.gpsimd"});
  const json k = json::parse(s.out);
  EXPECT_FALSE(k["dumps"][0].contains("bits"));  // INT32 values are numbers
}

// dis --json: each field's byte offset and size, as SPEC §4.4's table gives them for Sort,
// and the field's bytes.
TEST(CliExamples, DisJsonGivesFieldOffsetsAndSizes) {
  const Result r = run({"dis", "--json", "examples/sort.gpsimd"});
  ASSERT_EQ(r.status, 0);
  const json j = json::parse(r.out);
  const json& layout = j[0]["layout"];
  const std::vector<std::tuple<std::string, int, int>> spec = {{"header", 0, 4},
                                                               {"events", 4, 8},
                                                               {"num_active_channels", 12, 1},
                                                               {"index_offset_src", 13, 1},
                                                               {"in_out_dtype", 14, 1},
                                                               {"comparison", 15, 1},
                                                               {"src_mem_pattern", 16, 8},
                                                               {"dst_mem_pattern", 24, 12},
                                                               {"index_offset", 36, 4},
                                                               {"stable", 40, 1},
                                                               {"reserved1", 41, 23}};
  ASSERT_EQ(layout.size(), spec.size());
  for (std::size_t i = 0; i < spec.size(); ++i) {
    EXPECT_EQ(layout[i]["field"], std::get<0>(spec[i]));
    EXPECT_EQ(layout[i]["offset"], std::get<1>(spec[i]));
    EXPECT_EQ(layout[i]["size"], std::get<2>(spec[i]));
  }
  EXPECT_EQ(layout[0]["hex"], "96100000");  // opcode 0x96, then 0x10, then zero
  EXPECT_EQ(layout[10]["hex"], std::string(46, '0'));
}

TEST(CliExamples, ExplainText) {
  const Result r = run({"explain", "-e",
                        "Sort num_active_channels=2, in_out_dtype=(UINT16, UINT16), "
                        "comparison=IS_LT, src_mem_pattern=sbuf[p=4, off=0x10] num=[8], "
                        "dst_mem_pattern=sbuf[p=4, off=0x100] num=[2,8]",
                        "--nc", "v2"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("<command line>:1: Sort (opcode 0x96, S1D2_SORT, POOL engine) on v2"),
            std::string::npos)
      << r.out;
  // 8 UINT16 from offset 0x10: bytes [0x10, 0x20); 16 to 0x100: [0x100, 0x120).
  EXPECT_NE(r.out.find("8 UINT16 elements per partition from SBUF partitions 4..5"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("bytes [0x10, 0x20)"), std::string::npos);
  EXPECT_NE(r.out.find("bytes [0x100, 0x120)"), std::string::npos);
  EXPECT_NE(r.out.find("as a 16-bit unsigned integer"), std::string::npos);
  EXPECT_EQ(run({"explain", "--index", "5", "examples/sort.gpsimd"}).status, 2);
  EXPECT_EQ(run({"explain"}).status, 2);
}

TEST(CliExamples, HelpAndExitStatuses) {
  for (const char* sub : {"asm", "dis", "check", "run", "vectors", "explain", "demo"}) {
    const Result r = run({sub, "--help"});
    EXPECT_EQ(r.status, 0) << sub;
    EXPECT_NE(r.out.find("Example:"), std::string::npos) << sub << "\n" << r.out;
  }
  EXPECT_EQ(run({"--help"}).status, 0);
  EXPECT_EQ(run({}).status, 2);
  EXPECT_EQ(run({"frobnicate"}).status, 2);
  EXPECT_EQ(run({"run", "--nc", "v9", "examples/sort.gpsimd"}).status, 2);
  EXPECT_EQ(run({"dis", "--format", "elf", "examples/sort.gpsimd"}).status, 2);
  const Result missing = run({"dis", "no/such/file.gpsimd"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_EQ(missing.err,
            "gpsimd dis: no/such/file.gpsimd: cannot read the file: No such file or directory\n");
}

TEST(CliExamples, Vectors) {
  Result r = run({"vectors", GPSIMD_CONFORMANCE_DIR "/sort.json"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find(" passed, 0 failed\n"), std::string::npos) << r.out;

  const std::string dir = scratch("vectors");
  // A vector whose expectation is wrong on purpose: Sort of zeros writes zeros.
  const std::string word =
      "961000000000000000000000010088160000000001000200400000000100020002"
      "00020000000000000000000000000000000000000000000000000000000000";
  std::ofstream(dir + "/bad.json")
      << R"({"format": "gpsimd-vectors/1", "vectors": [{"name": "wrong-on-purpose", "nc": "v3",
             "instruction": ")"
      << word << R"(",
             "expect": {"status": "ok", "memory": [{"space": "sbuf", "partition": 0,
                         "offset": 64, "hex": "01"}]}}]})";
  r = run({"vectors", dir + "/bad.json"});
  EXPECT_EQ(r.status, 1) << r.out << r.err;
  EXPECT_EQ(r.out.rfind("FAIL wrong-on-purpose: ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("0 passed, 1 failed\n"), std::string::npos);

  std::ofstream(dir + "/malformed.json") << "{\"format\": ";
  EXPECT_EQ(run({"vectors", dir + "/malformed.json"}).status, 2);
  EXPECT_EQ(run({"vectors", dir + "/absent.json"}).status, 2);
}

// Program vector files (SPEC §8.8) run beside §7's: programs.json counts in full; a file of
// programs using an opcode gpsimd does not model is PENDING (vectors_loader_test); a
// malformed one is a runner error naming the file and the vector.
TEST(CliExamples, ProgramVectors) {
  Result r = run({"vectors", GPSIMD_CONFORMANCE_DIR "/programs/programs.json"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "237 passed, 0 failed\n");
  r = run(
      {"vectors", GPSIMD_CONFORMANCE_DIR "/programs/programs_three_queues.json", "--reference"});
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(r.out, "16 passed, 0 failed\n");  // Copy on ACT: modelled
  const std::string dir = scratch("program_vectors");
  std::ofstream(dir + "/dup.json")
      << R"({"format": "gpsimd-programs/1", "vectors": [{"name": "twice", "nc": "v3",
             "queues": {"dve": [], "dve": []}, "expect": {"status": "ok", "schedule": [],
             "race": null, "sync_hazards": []}}]})";
  r = run({"vectors", dir + "/dup.json"});
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "gpsimd vectors: " + dir +
                       "/dup.json: vector 0 ('twice'): the key 'dve' is named twice in "
                       ".vectors[0].queues\n");
}

}  // namespace
