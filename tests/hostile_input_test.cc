// Resource limits on hostile input (docs/robustness.md): words whose walks touch millions
// of elements, a program of a million words, huge and truncated .npy files, deeply nested
// and enormous JSON. Each either completes with the right result or fails with a clear
// error, and nothing allocates beyond what its real work needs.
//
// Allocation is measured by replacing the global operator new: the tests assert the peak
// number of live bytes allocated while the model works (machine memory itself is one
// calloc per space and does not count). Expected results are derived from SPEC.md by
// hand in each test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>
#include <vector>

#include "gpsimd/asm.h"
#include "gpsimd/execute.h"
#include "gpsimd/machine.h"
#include "gpsimd/npy.h"
#include "gpsimd/program.h"
#include "gpsimd/vectors.h"
#include "test_words.h"

// ---- allocation accounting ---------------------------------------------------------------

namespace {
std::atomic<int64_t> g_live{0};
std::atomic<int64_t> g_peak{0};
constexpr std::size_t kHeader = 16;  // keeps the returned pointer 16-byte aligned

void* counted_alloc(std::size_t n) {
  void* p = std::malloc(n + kHeader);
  if (p == nullptr) throw std::bad_alloc();
  std::memcpy(p, &n, sizeof n);
  const int64_t live = g_live.fetch_add(static_cast<int64_t>(n)) + static_cast<int64_t>(n);
  int64_t peak = g_peak.load();
  while (live > peak && !g_peak.compare_exchange_weak(peak, live)) {
  }
  return static_cast<char*>(p) + kHeader;
}
void counted_free(void* q) {
  if (q == nullptr) return;
  void* p = static_cast<char*>(q) - kHeader;
  std::size_t n;
  std::memcpy(&n, p, sizeof n);
  g_live.fetch_sub(static_cast<int64_t>(n));
  std::free(p);
}
}  // namespace

void* operator new(std::size_t n) {
  return counted_alloc(n);
}
void* operator new[](std::size_t n) {
  return counted_alloc(n);
}
void operator delete(void* p) noexcept {
  counted_free(p);
}
void operator delete[](void* p) noexcept {
  counted_free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  counted_free(p);
}
void operator delete[](void* p, std::size_t) noexcept {
  counted_free(p);
}
// The nothrow forms too (std::stable_sort's buffer): a sanitizer's runtime defines them
// itself, and their memory comes back through the plain operator delete above.
void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept {
  try {
    return counted_alloc(n);
  } catch (...) {
    return nullptr;
  }
}
void operator delete(void* p, const std::nothrow_t&) noexcept {
  counted_free(p);
}
void operator delete[](void* p, const std::nothrow_t&) noexcept {
  counted_free(p);
}

namespace gpsimd {
namespace {

using namespace test_words;

// Returns the most bytes that were live at once during f(), beyond those live before.
template <class F>
int64_t peak_extra_bytes(F&& f) {
  const int64_t before = g_live.load();
  g_peak.store(before);
  f();
  return g_peak.load() - before;
}

constexpr int64_t kMiB = 1 << 20;

uint32_t load32(const Machine& m, unsigned partition, uint32_t offset) {
  uint32_t v;
  std::memcpy(&v, m.partition(Space::SBUF, partition).data() + offset, 4);
  return v;
}
void store32(Machine& m, unsigned partition, uint32_t offset, uint32_t v) {
  std::memcpy(m.partition(Space::SBUF, partition).data() + offset, &v, 4);
}

// A TensorScalarSelect of INT32 over one channel whose predicate is true (dst = src0).
Word select_word(const TensorDesc& src0, const TensorDesc& dst) {
  return build(Opcode::TensorScalarSelect,
               {{"src0_mem_pattern", src0},
                {"num_active_channels", uint64_t{1}},
                {"dtype", uint64_t{static_cast<uint8_t>(Dtype::INT32)}},
                {"pred_imm_dtype", uint64_t{static_cast<uint8_t>(Dtype::UINT32)}},
                {"pred_imm", uint64_t{1}},
                {"dst_mem_pattern", dst}});
}

// ---- walks of millions of elements -------------------------------------------------------

TEST(HostileWalk, SelectOfExactlyTheWalkLimitCompletesWithTheRightResult) {
  // src0 visits 4096 distinct INT32 elements 4096 times (2^24 ordinals, the limit); the
  // destination repeats the same offsets, so each dst element ends up equal to its src.
  Machine m(Generation::V3);
  for (uint32_t i = 0; i < 4096; ++i) store32(m, 0, 4 * i, 0x9e3779b9u * (i + 1));
  const Word w = select_word(tensor(sbuf_addr(0, 0), {1, 0, 0}, {4096, 4096, 1}),
                             tensor(sbuf_addr(0, 0x8000), {1, 0, 0}, {4096, 4096, 1}));
  ExecResult r;
  const int64_t extra = peak_extra_bytes([&] { r = execute(m, w); });
  ASSERT_TRUE(r.ok()) << r.message();
  for (uint32_t i = 0; i < 4096; ++i)
    ASSERT_EQ(load32(m, 0, 0x8000 + 4 * i), 0x9e3779b9u * (i + 1)) << "element " << i;
  EXPECT_LT(extra, 4 * kMiB) << "a copy must not buffer the 2^24-element walk";
}

// AffineSelect and Iota over exactly 2^24 ordinals: the fast paths stream the walk in
// chunks, so memory stays small, and the results are the ones SPEC §4.5/§4.6 give.
TEST(HostileWalk, AffineSelectAndIotaOfExactlyTheWalkLimitStream) {
  Machine m(Generation::V3);
  for (uint32_t i = 0; i < 4096; ++i) store32(m, 0, 4 * i, 0x9e3779b9u * (i + 1));
  // m = i1 - 4095 over i1 < 4096 (outer), each row of 4096 zero-step elements: only the
  // last row (i1 = 4095) has m = 0 and keeps the source; GE.
  const Word as = build(Opcode::AffineSelect,
                        {{"num_active_channels", uint64_t{1}},
                         {"in_out_dtype", uint64_t{dtype_pair(Dtype::INT32, Dtype::INT32)}},
                         {"fill_mode", uint64_t{1}},
                         {"fill_reg", uint64_t{2}},
                         {"mask_pattern", data4d(-4095, {0, 1, 0, 0}, {4096, 4096, 1, 1})},
                         {"src_mem_pattern", tensor(sbuf_addr(0, 0), {1, 0}, {4096, 4096})},
                         {"dst_mem_pattern", tensor(sbuf_addr(0, 0x8000), {1, 0}, {4096, 4096})}});
  m.registers[2] = 0xc0400000u;  // -3.0
  ExecResult r;
  int64_t extra = peak_extra_bytes([&] { r = execute(m, as); });
  ASSERT_TRUE(r.ok()) << r.message();
  for (uint32_t i = 0; i < 4096; ++i)
    ASSERT_EQ(load32(m, 0, 0x8000 + 4 * i), 0x9e3779b9u * (i + 1)) << "element " << i;
  EXPECT_LT(extra, 4 * kMiB) << "AffineSelect must not buffer the 2^24-element walk";
  // Iota: 2^24 values onto 4096 elements; the last visit of element i is i + 4095 * 4096.
  const Word io =
      build(Opcode::Iota,
            {{"src_data_pattern", data4d(0, {1, 4096, 0, 0}, {4096, 4096, 1, 1})},
             {"out_dtype", uint64_t{static_cast<uint8_t>(Dtype::INT32)}},
             {"num_active_channels", uint64_t{1}},
             {"dst_mem_pattern", tensor(sbuf_addr(0, 0x10000), {1, 0, 0, 0}, {4096, 4096, 1, 1})}});
  extra = peak_extra_bytes([&] { r = execute(m, io); });
  ASSERT_TRUE(r.ok()) << r.message();
  for (uint32_t i = 0; i < 4096; ++i)
    ASSERT_EQ(load32(m, 0, 0x10000 + 4 * i), i + 4095u * 4096u) << "element " << i;
  EXPECT_LT(extra, 4 * kMiB) << "Iota must not buffer the 2^24-element walk";
}

TEST(HostileWalk, OneElementBeyondTheWalkLimitFaultsTooLargeAndChangesNothing) {
  Machine m(Generation::V3);
  store32(m, 0, 0, 7);
  const Machine before = m;
  // 673 x 257 x 97 = 16777217 = 2^24 + 1.
  const Word w = select_word(tensor(sbuf_addr(0, 0), {1, 0, 0}, {673, 257, 97}),
                             tensor(sbuf_addr(0, 0x8000), {1, 0, 0}, {673, 257, 97}));
  const ExecResult r = execute(m, w);
  ASSERT_EQ(r.status, Status::Faulted) << r.message();
  EXPECT_EQ(r.fault->kind, FaultKind::TooLarge);
  EXPECT_NE(r.fault->detail.find("16777217"), std::string::npos) << r.fault->detail;
  EXPECT_TRUE(m == before);
}

// Walks of 65535^3 (2.8e14) elements would take days: each must be refused at once,
// before anything is allocated for it. The test finishing at all shows nothing walked.
TEST(HostileWalk, AstronomicalWalksAreRefusedBeforeAnyWork) {
  Machine m(Generation::V4);
  struct Case {
    const char* name;
    Word word;
    FaultKind kind;
  };
  Word rs = valid_word(Opcode::RangeSelect);
  // A register-mode source waives the static count checks; the register holds a valid
  // address. base + count(src) then exceeds 2^24 at execution: shape-mismatch.
  set_tensor(rs, "src_mem_pattern", tensor(reg_addr(9), {0, 0}, {65535, 65535}));
  set_tensor(rs, "dst_mem_pattern", tensor(sbuf_addr(0, 0x1000), {0, 0}, {65535, 65535}));
  m.registers[9] = sbuf_addr(0, 0x100);
  const Case cases[] = {
      {"TensorScalarSelect 65535^3",
       select_word(tensor(sbuf_addr(0, 0), {0, 0, 0}, {65535, 65535, 65535}),
                   tensor(sbuf_addr(0, 0x100), {0, 0, 0}, {65535, 65535, 65535})),
       FaultKind::TooLarge},
      {"GetSequenceBounds 65535^2 ids",
       build(Opcode::GetSequenceBounds,
             {{"num_active_channels", uint64_t{1}},
              {"in_dtype", uint64_t{static_cast<uint8_t>(Dtype::INT32)}},
              {"out_dtype", uint64_t{static_cast<uint8_t>(Dtype::INT32)}},
              {"src_mem_pattern", tensor(sbuf_addr(0, 0), {0, 0, 0}, {65535, 65535, 1})},
              {"dst_mem_pattern", tensor(sbuf_addr(0, 0x100), {0, 0, 1}, {65535, 65535, 2})}}),
       FaultKind::TooLarge},
      {"RangeSelect 65535^2 from a register", rs, FaultKind::ShapeMismatch},
      // 65527 x 65533 x 4096 ids, and the count(src) + 1 = 58651 x 36541 x 8207 results.
      {"NonzeroWithCount 1.8e13 ids",
       build(Opcode::NonzeroWithCount,
             {{"num_active_channels", uint64_t{17}},
              {"in_dtype", uint64_t{static_cast<uint8_t>(Dtype::FP32)}},
              {"out_dtype", uint64_t{static_cast<uint8_t>(Dtype::INT32)}},
              {"src_mem_pattern", tensor(sbuf_addr(0, 0), {0, 0, 0}, {65527, 65533, 4096})},
              {"dst_mem_pattern", tensor(sbuf_addr(0, 0x100), {0, 0, 0}, {58651, 36541, 8207})}}),
       FaultKind::TooLarge},
      {"CopyPredicatedScalar 65535^3",
       build(Opcode::CopyPredicatedScalar,
             {{"pred_mem_pattern", tensor(sbuf_addr(0, 0), {0, 0, 0}, {65535, 65535, 65535})},
              {"pred_dtype", uint64_t{static_cast<uint8_t>(Dtype::UINT8)}},
              {"reversed_pred", uint64_t{1}},
              {"num_active_channels", uint64_t{1}},
              {"in_dtype", uint64_t{static_cast<uint8_t>(Dtype::UINT8)}},
              {"out_dtype", uint64_t{static_cast<uint8_t>(Dtype::UINT8)}},
              {"dst_mem_pattern", tensor(sbuf_addr(0, 0x100), {0, 0, 0}, {65535, 65535, 65535})}}),
       FaultKind::TooLarge},
      {"AffineSelect 65535^2",
       build(Opcode::AffineSelect,
             {{"num_active_channels", uint64_t{128}},
              {"in_out_dtype", uint64_t{dtype_pair(Dtype::FP32, Dtype::FP32)}},
              {"mask_pattern", data4d(0, {1, 1, 0, 0}, {65535, 65535, 1, 1})},
              {"src_mem_pattern", tensor(sbuf_addr(0, 0), {0, 0}, {65535, 65535})},
              {"dst_mem_pattern", tensor(sbuf_addr(0, 0x100), {0, 0}, {65535, 65535})}}),
       FaultKind::TooLarge},
      // 65535^4 (1.8e19) still fits the exact unsigned 64-bit count (SPEC §3.5).
      {"Iota 65535^4",
       build(Opcode::Iota,
             {{"src_data_pattern", data4d(0, {1, 0, 0, 0}, {65535, 65535, 65535, 65535})},
              {"out_dtype", uint64_t{static_cast<uint8_t>(Dtype::INT32)}},
              {"num_active_channels", uint64_t{128}},
              {"dst_mem_pattern",
               tensor(sbuf_addr(0, 0), {0, 0, 0, 0}, {65535, 65535, 65535, 65535})}}),
       FaultKind::TooLarge},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Machine run = m;
    ExecResult r;
    const int64_t extra = peak_extra_bytes([&] { r = execute(run, c.word); });
    ASSERT_EQ(r.status, Status::Faulted) << r.message();
    EXPECT_EQ(r.fault->kind, c.kind) << r.message();
    EXPECT_TRUE(run == m);
    EXPECT_LT(extra, 64 * 1024) << "bytes allocated before the fault";
  }
}

TEST(HostileWalk, SequenceBoundsOverEightMillionIds) {
  // n = 2^23 ids read from one element (zero steps); the destination's 2n ordinals go to
  // two elements: ordinals 0..n-1 (the starts) to element 0, n..2n-1 (the ends) to
  // element 1, so each holds the last value written (SPEC §4.3 and §4 "later ordinal wins").
  constexpr int32_t n = 1 << 23;
  const Word w =
      build(Opcode::GetSequenceBounds,
            {{"num_active_channels", uint64_t{1}},
             {"in_dtype", uint64_t{static_cast<uint8_t>(Dtype::INT32)}},
             {"out_dtype", uint64_t{static_cast<uint8_t>(Dtype::INT32)}},
             {"src_mem_pattern", tensor(sbuf_addr(3, 0x40), {0, 0, 0}, {4096, 2048, 1})},
             {"dst_mem_pattern", tensor(sbuf_addr(3, 0x100), {0, 0, 1}, {4096, 2048, 2})}});
  {
    // Every id equal and nonzero: one segment [0, n): start 0, end n everywhere.
    Machine m(Generation::V3);
    store32(m, 3, 0x40, 5);
    const ExecResult r = execute(m, w);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(static_cast<int32_t>(load32(m, 3, 0x100)), 0);
    EXPECT_EQ(static_cast<int32_t>(load32(m, 3, 0x104)), n);
  }
  {
    // Every id 0: padding everywhere, start n and end -1.
    Machine m(Generation::V3);
    const ExecResult r = execute(m, w);
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(static_cast<int32_t>(load32(m, 3, 0x100)), n);
    EXPECT_EQ(static_cast<int32_t>(load32(m, 3, 0x104)), -1);
  }
}

TEST(HostileWalk, RangeSelectOverTheWholeIndexRange) {
  // base 0 and 2^24 source ordinals (base + count = 2^24, the most allowed), all reading
  // one FP32 element 2.5. Keep indices in [0, 16777215): every ordinal passes except the
  // last, j = 2^24 - 1, whose index 16777215.0 (exact in FP32) fails IS_LT. The zero-step
  // destination keeps the last ordinal's -FLT_MAX; the accumulator the maximum, 2.5.
  Machine m(Generation::V3);
  store32(m, 6, 0x10, f32_bits(2.5f));
  Word w = valid_word(Opcode::RangeSelect);
  set(w, "num_active_channels", 1);
  set(w, "in_out_dtype", dtype_pair(Dtype::FP32, Dtype::FP32));
  set(w, "base", f32_bits(0.0f));
  set_tensor(w, "src_mem_pattern", tensor(sbuf_addr(6, 0x10), {0, 0}, {4096, 4096}));
  set_tensor(w, "dst_mem_pattern", tensor(sbuf_addr(6, 0x20), {0, 0}, {4096, 4096}));
  set(w, "comp_op0", static_cast<uint8_t>(AluOp::IS_GE));
  set(w, "bound0", f32_bits(0.0f));
  set(w, "comp_op1", static_cast<uint8_t>(AluOp::IS_LT));
  set(w, "bound1", f32_bits(16777215.0f));
  const ExecResult r = execute(m, w);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(load32(m, 6, 0x20), kNegFltMaxBits);
  EXPECT_EQ(m.accumulators[6], f32_bits(2.5f));
}

// ---- a program of a million words --------------------------------------------------------

TEST(HostileProgram, AMillionWordsRunInBoundedMemory) {
  // Each word copies one INT32 element and increments semaphore 0.
  Word w = select_word(tensor(sbuf_addr(1, 0x40), {1, 1, 1}, {1, 1, 1}),
                       tensor(sbuf_addr(1, 0x80), {1, 1, 1}, {1, 1, 1}));
  Events e;
  e.update_mode = static_cast<uint8_t>(UpdateMode::INC);
  set_events(w, e);
  const std::vector<Word> words(1'000'000, w);
  Machine m(Generation::V2);
  store32(m, 1, 0x40, 0xabcdef01u);
  ProgramResult r;
  const int64_t extra = peak_extra_bytes([&] { r = run_program(m, words); });
  ASSERT_TRUE(r.ok()) << r.failure.message();
  EXPECT_EQ(r.retired, 1'000'000u);
  EXPECT_EQ(m.semaphores[0], 1'000'000u);
  EXPECT_EQ(load32(m, 1, 0x80), 0xabcdef01u);
  EXPECT_LT(extra, kMiB) << "memory must not grow with the number of words";
}

// ---- .npy files ----------------------------------------------------------------------------

// Returns a version 1.0 .npy file: magic, version, header length, header, then `data`.
std::vector<uint8_t> npy_file(const std::string& header, const std::vector<uint8_t>& data) {
  std::vector<uint8_t> f = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  f.push_back(static_cast<uint8_t>(header.size()));
  f.push_back(static_cast<uint8_t>(header.size() >> 8));
  f.insert(f.end(), header.begin(), header.end());
  f.insert(f.end(), data.begin(), data.end());
  return f;
}

TEST(HostileNpy, ShapesFarBeyondTheDataAreRefusedWithoutAllocating) {
  const std::vector<uint8_t> data(16, 0);
  struct Case {
    const char* shape;
    const char* message;
  };
  const Case cases[] = {
      // 2^40 elements of 4 bytes: beyond the 1 GiB limit.
      {"(1099511627776,)", "big.npy: the array is too large (more than 1073741824 bytes)"},
      // 2^28 elements of 4 bytes: exactly 1 GiB + 0, then one more element.
      {"(268435457,)",
       "big.npy: the array is too large (1073741828 bytes, the limit is "
       "1073741824)"},
      // The product overflows 64 bits if multiplied naively.
      {"(4294967296, 4294967296, 4294967296)",
       "big.npy: the array is too large (more than 1073741824 bytes)"},
      // Plausible size, but the file holds 16 bytes.
      {"(1000000,)", "big.npy: truncated: the shape needs 4000000 data bytes, the file has 16"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.shape);
    const auto file = npy_file(
        std::string("{'descr': '<f4', 'fortran_order': False, 'shape': ") + c.shape + ", }\n",
        data);
    std::string error;
    std::optional<NpyArray> a;
    const int64_t extra = peak_extra_bytes([&] { a = parse_npy(file, "big.npy", &error); });
    EXPECT_FALSE(a.has_value());
    EXPECT_EQ(error, c.message);
    EXPECT_LT(extra, 64 * 1024);
  }
}

TEST(HostileNpy, TruncatedFilesAreRefused) {
  const auto whole = npy_file("{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }\n",
                              std::vector<uint8_t>(16, 1));
  ASSERT_TRUE(parse_npy(whole, "t.npy", nullptr).has_value());
  // Every proper prefix of a valid file is refused, with an error naming the file.
  for (std::size_t n = 0; n < whole.size(); ++n) {
    std::string error;
    const std::span<const uint8_t> prefix(whole.data(), n);
    EXPECT_FALSE(parse_npy(prefix, "t.npy", &error).has_value()) << n << " bytes";
    EXPECT_EQ(error.rfind("t.npy: ", 0), 0u) << error;
  }
  // A version 2.0 header length of 4 GiB in a 12-byte file.
  const std::vector<uint8_t> v2 = {0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 0xff, 0xff, 0xff, 0xff};
  std::string error;
  EXPECT_FALSE(parse_npy(v2, "v2.npy", &error).has_value());
  EXPECT_EQ(error, "v2.npy: truncated: the header needs 4294967307 bytes, the file has 12");
}

TEST(HostileNpy, AHugeFileIsRefusedWithoutBeingRead) {
  // A sparse 2 GiB file: read_npy must look at its size, not read it.
  const std::filesystem::path dir =
      std::filesystem::path(testing::TempDir()) / ("gpsimd_hostile_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "huge.npy").string();
  {
    std::ofstream f(path, std::ios::binary);
    const auto head =
        npy_file("{'descr': '|u1', 'fortran_order': False, 'shape': (2147483648,), }\n", {});
    f.write(reinterpret_cast<const char*>(head.data()), static_cast<std::streamsize>(head.size()));
  }
  std::filesystem::resize_file(path, (uint64_t{2} << 30) + 128);
  std::string error;
  std::optional<NpyArray> a;
  const int64_t extra = peak_extra_bytes([&] { a = read_npy(path, &error); });
  std::filesystem::remove_all(dir);
  EXPECT_FALSE(a.has_value());
  EXPECT_EQ(error, path + ": the file is too large (the limit is 1073741824 bytes of data)");
  EXPECT_LT(extra, kMiB);
}

// ---- JSON ------------------------------------------------------------------------------------

TEST(HostileJson, HundredThousandNestedArraysAreRefusedWithoutDeepRecursion) {
  // Balanced: the nesting rule refuses it. Under ASan a recursive parser or destructor
  // would overflow the stack long before 100000 levels.
  const std::string balanced = std::string(100000, '[') + std::string(100000, ']');
  std::string error;
  EXPECT_FALSE(parse_vectors(balanced, "deep.json", &error).has_value());
  EXPECT_EQ(error, "deep.json: nesting deeper than 64 levels");
  // Inside a vector, as objects.
  std::string objects = R"({"format": "gpsimd-vectors/1", "vectors": [{"name": )";
  for (int i = 0; i < 100000; ++i) objects += R"({"a": )";
  objects += "1";
  for (int i = 0; i < 100000; ++i) objects += "}";
  objects += "}]}";
  EXPECT_FALSE(parse_vectors(objects, "deep.json", &error).has_value());
  EXPECT_EQ(error, "deep.json: nesting deeper than 64 levels");
  // Unbalanced: a syntax error at the end of the input.
  const std::string open = std::string(1000000, '[');
  EXPECT_FALSE(parse_vectors(open, "open.json", &error).has_value());
  EXPECT_EQ(error.rfind("open.json: not valid JSON: ", 0), 0u) << error;
  EXPECT_NE(error.find("column 1000001"), std::string::npos) << error;
}

TEST(HostileJson, EnormousMemoryRangeIsRefusedWithItsExtent) {
  // 8 MiB of hex (4 MiB of bytes) for one partition of 224 KiB.
  std::string text = R"({"format": "gpsimd-vectors/1", "vectors": [{"name": "big", "nc": "v3",
      "instruction": ")" +
                     std::string(128, '0') + R"(",
      "memory": [{"space": "sbuf", "partition": 5, "offset": 16, "hex": ")";
  text += std::string(8 << 20, 'a');
  text += R"("}], "expect": {"status": "ok"}}]})";
  std::string error;
  EXPECT_FALSE(parse_vectors(text, "big.json", &error).has_value());
  EXPECT_EQ(error,
            "big.json: vector 0 ('big').memory[0]: bytes [0x10, 0x400010) must lie inside the "
            "sbuf partition of v3 [0x0, 0x38000)");
}

TEST(HostileJson, ManyVectorsLoadInMemoryProportionalToTheFile) {
  // 5000 small vectors (about 1.5 MB of JSON) load; memory stays within a small multiple
  // of the text.
  const std::string one = R"({"name": "v", "nc": "v2", "instruction": ")" + std::string(128, '0') +
                          R"(", "registers": {"5": "0x00400000"}, "memory": [{"space": "sbuf",
      "partition": 1, "offset": 0, "hex": "00112233"}], "expect": {"status": "invalid"}})";
  std::string text = R"({"format": "gpsimd-vectors/1", "vectors": [)";
  for (int i = 0; i < 5000; ++i) text += (i ? "," : "") + one;
  text += "]}";
  std::string error;
  std::optional<VectorFile> f;
  const int64_t extra = peak_extra_bytes([&] { f = parse_vectors(text, "many.json", &error); });
  ASSERT_TRUE(f.has_value()) << error;
  EXPECT_EQ(f->vectors.size(), 5000u);
  EXPECT_LT(extra, 40 * static_cast<int64_t>(text.size()));
}

}  // namespace
}  // namespace gpsimd
