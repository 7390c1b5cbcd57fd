// The fast kernels against the scalar reference, bit for bit.
//
// Random instructions of every kind with a fast path run twice from the same machine state: once
// with ExecOptions::fast (kernels, threads) and once without (src/ops/ reference
// loops); the results and the complete machines must be equal. Inputs mix random bits
// with each dtype's edge values (NaN with payloads, ±0, ±inf, subnormals, rounding
// ties), and walks use every shape the encoding allows: strides, negative and zero
// steps, several dimensions, overlapping operands, 1 to 128 channels. Every SIMD target
// compiled into the binary that this CPU supports is tested, not just the best one.
// The vector conversions are also compared with format.h directly: exhaustively for
// widening, and for narrowing over every exponent with ties and their neighbours.
#include "kernels_equiv.h"

#include <gtest/gtest.h>
#include <hwy/targets.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpsimd/alu.h"
#include "gpsimd/execute.h"
#include "gpsimd/format.h"
#include "gpsimd/machine.h"
#include "instructions/copy.h"
#include "instructions/registry.h"
#include "kernels/convert.h"
#include "kernels/sort_network.h"
#include "kernels/stream.h"
#include "table_coverage.h"
#include "test_effort.h"

namespace gpsimd {
namespace {

using namespace kernels_equiv;

// ---- the vector conversions against format.h -------------------------------------------

const Dtype kNarrowFloats[] = {Dtype::BF16, Dtype::FP16, Dtype::FP8_E5, Dtype::FP8_E4,
                               Dtype::FP8_E3};

// ---- the conversion of SPEC §5.1: every vector path against format.h -------------------

// The thirteen dtypes of SPEC §5.1's table, restated.
const Dtype kTableDtypes[] = {Dtype::INT8,   Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16,
                              Dtype::INT32,  Dtype::UINT32, Dtype::BF16,   Dtype::FP16,
                              Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5, Dtype::FP32,
                              Dtype::FP32R};

std::string dname(Dtype dt) {
  return std::string(*dtype_name(static_cast<uint8_t>(dt)));
}

// Element k of a packed array of `size`-byte elements.
uint32_t elem_at(const std::vector<uint8_t>& v, std::size_t k, unsigned size) {
  uint32_t x = 0;
  std::memcpy(&x, v.data() + k * size, size);
  return x;
}
std::vector<uint8_t> pack(const std::vector<uint32_t>& xs, unsigned size) {
  std::vector<uint8_t> out(xs.size() * size);
  for (std::size_t k = 0; k < xs.size(); ++k) std::memcpy(out.data() + k * size, &xs[k], size);
  return out;
}

// The lengths of calls that send every element through each loop of a pair's vector
// code (convert.cc's PairLoop): the loops take four vectors packed into one store (1-byte
// results), two (2-byte results, and the generic pair of stores), one, and a zero-padded
// tail, so a call of 4N, 2N, N or N - 1 elements runs only that loop, for N = 16 (AVX3),
// 8 (AVX2) and 1 (the one-lane baseline: 2N and N) lanes of 32 bits.
constexpr std::size_t kLoopLengths[] = {1, 2, 7, 8, 15, 16, 32, 64};

// The source patterns `from` runs through every vector path against the scalar piece,
// each path on every target, whole and from element 3 on (misaligned, with a tail):
// simd::cast against convert(), simd::through_fp32 against convert_through_fp32(), and,
// for the FP32 source and destination, simd::from_fp32 / simd::to_fp32 against
// from_fp32() / to_fp32(). The first `every_loop` patterns also go in calls of each of
// kLoopLengths, so that each of them passes through every loop of every path.
void check_every_path(Dtype from, const std::vector<uint32_t>& patterns,
                      std::size_t every_loop = 0) {
  const unsigned isz = *dtype_size(from);
  const std::vector<uint8_t> in = pack(patterns, isz);
  const std::size_t n = patterns.size();
  for (Dtype to : kTableDtypes) {
    const unsigned osz = *dtype_size(to);
    std::vector<uint32_t> want_cast(n), want_through(n);
    for (std::size_t k = 0; k < n; ++k) {
      want_cast[k] = convert(patterns[k], from, to);
      want_through[k] = convert_through_fp32(patterns[k], from, to);
    }
    for_each_target([&](bool) {
      for (std::size_t first : {std::size_t{0}, std::size_t{3}}) {
        if (first >= n) continue;
        const std::size_t m = n - first;
        std::vector<uint8_t> out(m * osz + 1, 0xa5);
        auto check = [&](const char* path, const std::vector<uint32_t>& want) {
          for (std::size_t k = 0; k < m; ++k)
            ASSERT_EQ(elem_at(out, k, osz), want[first + k])
                << path << " " << dname(from) << " -> " << dname(to) << " of " << std::hex
                << patterns[first + k] << " (first " << first << ")";
          ASSERT_EQ(out[m * osz], 0xa5) << path << ": wrote past the end";
        };
        kernels::simd::cast(from, to, in.data() + first * isz, m, out.data());
        check("simd::cast", want_cast);
        kernels::simd::through_fp32(from, to, in.data() + first * isz, m, out.data());
        check("simd::through_fp32", want_through);
        if (from == Dtype::FP32) {
          std::vector<uint32_t> src(patterns.begin() + static_cast<std::ptrdiff_t>(first),
                                    patterns.end());
          kernels::simd::from_fp32(to, src.data(), m, out.data());
          check("simd::from_fp32", want_through);
        }
        if (to == Dtype::FP32) {
          kernels::simd::to_fp32(from, in.data() + first * isz, m,
                                 reinterpret_cast<uint32_t*>(out.data()));
          std::vector<uint32_t> want(n);
          for (std::size_t k = 0; k < n; ++k) want[k] = to_fp32(from, patterns[k]);
          check("simd::to_fp32", want);
        }
      }
      const std::size_t m = std::min(every_loop, n);
      if (m == 0) return;
      std::vector<uint8_t> out(m * osz + 1, 0xa5);
      std::vector<uint32_t> want_to(m);
      for (std::size_t k = 0; k < m; ++k) want_to[k] = to_fp32(from, patterns[k]);
      for (std::size_t len : kLoopLengths) {
        // Each path over the first m patterns, in calls of len elements (the last shorter).
        auto run = [&](const char* path, const std::vector<uint32_t>& want, auto call) {
          std::fill(out.begin(), out.end(), 0xa5);
          for (std::size_t k0 = 0; k0 < m; k0 += len) call(k0, std::min(len, m - k0));
          for (std::size_t k = 0; k < m; ++k)
            ASSERT_EQ(elem_at(out, k, osz), want[k])
                << path << " in calls of " << len << ": " << dname(from) << " -> " << dname(to)
                << " of " << std::hex << patterns[k];
          ASSERT_EQ(out[m * osz], 0xa5) << path << " in calls of " << len << ": wrote past the end";
        };
        run("simd::cast", want_cast, [&](std::size_t k0, std::size_t c) {
          kernels::simd::cast(from, to, in.data() + k0 * isz, c, out.data() + k0 * osz);
        });
        run("simd::through_fp32", want_through, [&](std::size_t k0, std::size_t c) {
          kernels::simd::through_fp32(from, to, in.data() + k0 * isz, c, out.data() + k0 * osz);
        });
        if (from == Dtype::FP32)
          run("simd::from_fp32", want_through, [&](std::size_t k0, std::size_t c) {
            kernels::simd::from_fp32(to, patterns.data() + k0, c, out.data() + k0 * osz);
          });
        if (to == Dtype::FP32)
          run("simd::to_fp32", want_to, [&](std::size_t k0, std::size_t c) {
            kernels::simd::to_fp32(from, in.data() + k0 * isz, c,
                                   reinterpret_cast<uint32_t*>(out.data() + k0 * osz));
          });
      }
    });
  }
}

// Every 8- and 16-bit source pattern of every pair of the table, through every path and
// every loop of each path (kLoopLengths), on every target.
TEST(KernelsEquivTest, ConversionEvery8And16BitPatternEveryPair) {
  for (Dtype from : kTableDtypes) {
    const unsigned size = *dtype_size(from);
    if (size == 4) continue;
    std::vector<uint32_t> all(std::size_t{1} << (8 * size));
    for (uint32_t b = 0; b < all.size(); ++b) all[b] = b;
    SCOPED_TRACE(dname(from));
    check_every_path(from, all, all.size());
  }
}

// 32-bit sources where conversions change: NaN payloads (quiet and signalling), ±0, ±inf,
// subnormals, 2^24 ± 1 and the other rounding steps of INT32 -> FP32, the integer limits
// and the FP32 values beside them, halves (ties) at every integer width, and each narrow
// format's rounding ties.
std::vector<uint32_t> edges32(Dtype from) {
  std::vector<uint32_t> v;
  if (from == Dtype::INT32 || from == Dtype::UINT32) {
    for (int k = 0; k < 32; ++k)
      for (int64_t d = -3; d <= 3; ++d) {
        const int64_t p = (int64_t{1} << k) + d;
        v.push_back(static_cast<uint32_t>(p));
        v.push_back(static_cast<uint32_t>(-p));
      }
    for (uint32_t x :
         {0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu, 0x7fffff80u, 0x7fffffc0u, 0x7fffff7fu,
          0x7fffffc1u, 0xffffff80u, 0xffffff7fu, 0x01010001u, 0x01000001u, 0x00ffffffu, 0x01000003u,
          0xfeffffffu, 0x00008000u, 0x0000ffffu, 0x00010000u, 0xffff8000u, 0xffff7fffu, 0x0000007fu,
          0x00000080u, 0xffffff80u, 0x000000ffu, 0x00000100u})
      v.push_back(x);
    return v;
  }
  v = edge_values(Dtype::FP32);
  // Halves at every integer width's edges, and the FP32 values beside the limits.
  for (double x : {0.5,          1.5,          2.5,          3.5,          126.5,        127.5,
                   128.5,        254.5,        255.5,        256.5,        32766.5,      32767.5,
                   32768.5,      65534.5,      65535.5,      65536.5,      8388607.5,    4194303.5,
                   2147483520.0, 2147483648.0, 2147483904.0, 4294967040.0, 4294967296.0, 16777216.0,
                   16777218.0,   1e10,         0.49999997,   0.50000006,   1.4999999}) {
    v.push_back(bits_from_fp32(static_cast<float>(x)));
    v.push_back(bits_from_fp32(static_cast<float>(-x)));
  }
  return v;
}

// A large sample of 32-bit sources, biased to the edges: the edges, each one's
// neighbours, and random bits.
TEST(KernelsEquivTest, ConversionSampled32BitPatternsEveryPair) {
  Rng rng(0x5e1);
  for (Dtype from : {Dtype::INT32, Dtype::UINT32, Dtype::FP32, Dtype::FP32R}) {
    std::vector<uint32_t> v = edges32(from);
    const std::size_t edges = v.size();
    for (std::size_t k = 0; k < edges; ++k)
      for (int d = -2; d <= 2; ++d) v.push_back(v[k] + static_cast<uint32_t>(d));
    const auto samples = static_cast<int>(test_effort::random_cases(300000));
    for (int i = 0; i < samples; ++i) {
      const uint32_t r = static_cast<uint32_t>(rng.bits());
      // Half uniform bits, half near the edges or in the exponent range that rounds.
      if (rng.chance(0.5)) {
        v.push_back(r);
      } else if (from == Dtype::FP32 || from == Dtype::FP32R) {
        const uint32_t e = 100 + rng.below(60);  // 2^-27 .. 2^33: every rounding width
        v.push_back((r & 0x807fffffu) | e << 23);
      } else {
        v.push_back(rng.pick_from(v) ^ (r >> rng.below(32)));
      }
    }
    SCOPED_TRACE(dname(from));
    // Every loop of every path for the edges, their neighbours and the first random ones.
    check_every_path(from, v, 6 * edges + 20000);
  }
}

// ---- strided reads -----------------------------------------------------------------------

// Pages with an inaccessible page on each side: a read past either end of what a test
// hands out faults instead of passing unnoticed.
class GuardedPages {
 public:
  explicit GuardedPages(std::size_t bytes) {
    page_ = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
    size_ = (bytes + page_ - 1) / page_ * page_;
    void* m = mmap(nullptr, size_ + 2 * page_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) throw std::runtime_error("mmap failed");
    base_ = static_cast<uint8_t*>(m);
    if (mprotect(base_ + page_, size_, PROT_READ | PROT_WRITE) != 0)
      throw std::runtime_error("mprotect failed");
  }
  ~GuardedPages() { munmap(base_, size_ + 2 * page_); }
  GuardedPages(const GuardedPages&) = delete;
  GuardedPages& operator=(const GuardedPages&) = delete;
  uint8_t* begin() { return base_ + page_; }
  uint8_t* end() { return base_ + page_ + size_; }

 private:
  uint8_t* base_;
  std::size_t page_, size_;
};

// Every small step up and down (and steps that gather), every length to 80 and some
// longer: the elements of the walk, in walk order, with the walk's span placed against
// the guard page above and then against the one below, so that a load past the first
// or the last element faults.
TEST(KernelsEquivTest, StridedReadsEveryStep) {
  GuardedPages pages(1 << 16);
  Rng rng(23);
  for (std::size_t i = 0; i + 4 <= std::size_t{1} << 16; i += 4) {
    const uint32_t v = static_cast<uint32_t>(rng.bits());
    std::memcpy(pages.begin() + i, &v, 4);
  }
  for_each_target([&](bool) {
    for (int64_t elems : {1, -1, 2, -2, 3, -3, 4, -4, 5, -7, 16}) {
      const int64_t step = elems * 4;
      const bool permutes = std::abs(elems) <= 4;
      EXPECT_STREQ(kernels::stream::strided_read_kind(step), permutes ? "permute" : "gather")
          << "step " << elems;
      std::vector<std::size_t> lengths;
      for (std::size_t n = 1; n <= 80; ++n) lengths.push_back(n);
      for (std::size_t n : {127, 128, 129, 255, 1000, 1001}) lengths.push_back(n);
      for (std::size_t n : lengths) {
        const std::size_t span = ((n - 1) * std::abs(elems) + 1) * 4;
        if (span > std::size_t{1} << 16) continue;
        // Against the top guard page, against the bottom one, and one element above the
        // bottom one (a start that is not vector-aligned).
        for (int place : {0, 1, 2}) {
          if (place == 2 && span + 4 > std::size_t{1} << 16) continue;
          // The lowest address of the walk's span, then ordinal 0's address.
          const uint8_t* lo =
              place == 0 ? pages.end() - span : pages.begin() + (place == 2 ? 4 : 0);
          const uint8_t* p = elems > 0 ? lo : lo + span - 4;
          std::vector<uint32_t> got(n + 1, 0xdeadbeef), want(n + 1, 0xdeadbeef);
          for (std::size_t k = 0; k < n; ++k)
            std::memcpy(&want[k], p + static_cast<int64_t>(k) * step, 4);
          kernels::stream::read_strided32(p, step, n, reinterpret_cast<uint8_t*>(got.data()));
          ASSERT_EQ(got, want) << "step " << elems << " n " << n << " placement " << place;
        }
      }
    }
  });
}

// The 2-byte strided reads (read_strided16): every small step and some that gather, every
// length to 80 and longer, against both guard pages (a 4-byte read of the element at the
// highest address would fault past the top one).
TEST(KernelsEquivTest, StridedReads16EveryStep) {
  GuardedPages pages(1 << 16);
  Rng rng(25);
  for (std::size_t i = 0; i + 4 <= std::size_t{1} << 16; i += 4) {
    const uint32_t v = static_cast<uint32_t>(rng.bits());
    std::memcpy(pages.begin() + i, &v, 4);
  }
  for_each_target([&](bool) {
    // ±2 and ±4 compact 16-bit lanes; ±6 and ±8 are 4-byte permuted reads; -1 reverses.
    for (int64_t elems : {1, -1, 2, -2, 3, -3, 4, -4, 5, 6, -6, -7, 8, -8, 16}) {
      const int64_t step = elems * 2;
      std::vector<std::size_t> lengths;
      for (std::size_t n = 1; n <= 80; ++n) lengths.push_back(n);
      for (std::size_t n : {127, 128, 129, 511, 512, 513, 1025, 3000}) lengths.push_back(n);
      for (std::size_t n : lengths) {
        const std::size_t span = ((n - 1) * std::abs(elems) + 1) * 2;
        if (span > std::size_t{1} << 16) continue;
        // Against the top guard page, against the bottom one, and one element above the
        // bottom one (a start 2 bytes past a 4-byte boundary).
        for (int place : {0, 1, 2}) {
          if (place == 2 && span + 2 > std::size_t{1} << 16) continue;
          const uint8_t* lo =
              place == 0 ? pages.end() - span : pages.begin() + (place == 2 ? 2 : 0);
          const uint8_t* p = elems > 0 ? lo : lo + span - 2;
          std::vector<uint16_t> got(n + 1, 0xbeef), want(n + 1, 0xbeef);
          for (std::size_t k = 0; k < n; ++k)
            std::memcpy(&want[k], p + static_cast<int64_t>(k) * step, 2);
          kernels::stream::read_strided16(p, step, n, reinterpret_cast<uint8_t*>(got.data()));
          ASSERT_EQ(got, want) << "step " << elems << " n " << n << " placement " << place;
        }
      }
    }
  });
}

// read_rows32: runs of n elements `step` apart, `rows` runs `row_step` apart, one run after
// the other: the adjacent runs of a transposed pair (row_step 4: the transpose in
// registers), other row steps, every small step, run counts around the vector widths,
// placed against both guard pages.
TEST(KernelsEquivTest, StridedRowsEveryShape) {
  GuardedPages pages(1 << 16);
  Rng rng(24);
  for (std::size_t i = 0; i + 4 <= std::size_t{1} << 16; i += 4) {
    const uint32_t v = static_cast<uint32_t>(rng.bits());
    std::memcpy(pages.begin() + i, &v, 4);
  }
  for_each_target([&](bool) {
    for (int64_t elems : {64, -64, 7, -13, 1, 2, -3, 4, 17})
      for (int64_t row_elems : {1, 1, -1, 3, 1000})
        for (std::size_t n : {1, 3, 4, 5, 8, 16, 17, 64, 70})
          for (std::size_t rows : {1, 2, 3, 4, 8, 15, 16, 17, 31, 32, 33, 65}) {
            // The span of the whole walk, and the address of run 0's element 0.
            auto extent = [](int64_t st, std::size_t k) {
              return st * static_cast<int64_t>(k - 1);
            };
            const int64_t e0 = extent(elems, n), e1 = extent(row_elems, rows);
            const int64_t lo = std::min<int64_t>(0, e0) + std::min<int64_t>(0, e1);
            const int64_t hi = std::max<int64_t>(0, e0) + std::max<int64_t>(0, e1);
            const auto span = static_cast<std::size_t>((hi - lo + 1) * 4);
            if (span > std::size_t{1} << 16) continue;
            for (bool at_top : {true, false}) {
              const uint8_t* low = at_top ? pages.end() - span : pages.begin();
              const uint8_t* p = low - lo * 4;
              std::vector<uint32_t> got(n * rows + 1, 0xdeadbeef), want(n * rows + 1, 0xdeadbeef);
              for (std::size_t r = 0; r < rows; ++r)
                for (std::size_t k = 0; k < n; ++k)
                  std::memcpy(
                      &want[r * n + k],
                      p + (static_cast<int64_t>(r) * row_elems + static_cast<int64_t>(k) * elems) *
                              4,
                      4);
              kernels::stream::read_rows32(p, elems * 4, n, row_elems * 4, rows,
                                           reinterpret_cast<uint8_t*>(got.data()));
              ASSERT_EQ(got, want) << "step " << elems << " row step " << row_elems << " n " << n
                                   << " rows " << rows << (at_top ? " top" : " bottom");
            }
          }
  });
}

// Sources read as one row with each small step, +-1 to +-4 elements, of lengths around
// the vector widths (odd tails, partial vectors), holding random bits and the dtype's
// edge values (NaN, +-inf, +-0, subnormals): RangeSelect from FP32 into every output
// dtype, TensorScalarSelect of every dtype, GetSequenceBounds.
TEST(KernelsEquivTest, StridedSourcesEveryStep) {
  Machines& m = machines();
  for_each_target([&](bool best) {
    Rng rng(29);
    Counts counts;
    int cases = 0;
    // The makers of the three instructions' kernel words (their files in tests/instructions/).
    std::vector<WordMaker> makers;
    for (std::string_view mnemonic : {"RangeSelect", "TensorScalarSelect", "GetSequenceBounds"})
      makers.push_back(test_registry::find(mnemonic)->kernel_words->make);
    for (int16_t step : std::initializer_list<int16_t>{1, -1, 2, -2, 3, -3, 4, -4})
      for (uint16_t count : std::initializer_list<uint16_t>{16, 17, 23, 31, 32, 33, 47, 48, 63, 64,
                                                            65, 100, 129, 255}) {
        if (!best && count % 2 == 0) continue;
        for (WordMaker make : makers) {
          m.touched.clear();
          g_forced = {true, step, count};
          const Word w = make(rng, m, false);
          g_forced.on = false;
          SCOPED_TRACE(testing::Message() << "step " << step << " count " << count << "\n"
                                          << word_to_hex(w));
          run_both(m, w, counts, cases % 16 == 0);
          ++cases;
          if (testing::Test::HasFatalFailure()) return;
        }
      }
    EXPECT_GT(counts.retired, cases * 3 / 4) << "retired " << counts.retired << ", invalid "
                                             << counts.invalid << ", faulted " << counts.faulted;
  });
}

// Copy and Cast read strided sources of steps ±1..±4 (walk_cursor.h's permuting reads for
// 4-byte elements), at lengths around the vector widths, for the pairs the bench times.
TEST(KernelsEquivTest, CopyCastStridedSourcesEveryStep) {
  Machines& m = machines();
  const std::pair<Dtype, Dtype> pairs[] = {
      {Dtype::FP32, Dtype::FP32},   {Dtype::FP32, Dtype::BF16},    {Dtype::BF16, Dtype::FP32},
      {Dtype::FP32, Dtype::FP8_E4}, {Dtype::INT32, Dtype::FP32},   {Dtype::FP32, Dtype::INT32},
      {Dtype::INT8, Dtype::INT32},  {Dtype::UINT16, Dtype::UINT16}};
  for_each_target([&](bool best) {
    Rng rng(33);
    Counts counts;
    int cases = 0;
    for (int16_t step : std::initializer_list<int16_t>{1, -1, 2, -2, 3, -3, 4, -4})
      for (uint16_t count :
           std::initializer_list<uint16_t>{16, 17, 31, 33, 47, 48, 63, 64, 65, 129, 255}) {
        if (!best && count % 2 == 0) continue;
        for (const auto& [in, out] : pairs) {
          m.touched.clear();
          g_forced = {true, step, count};
          const Word w = copy_cast_word_of(rng, m, false, in == out ? 0x46 : 0x47, in, out);
          g_forced.on = false;
          SCOPED_TRACE(testing::Message() << "step " << step << " count " << count << "\n"
                                          << word_to_hex(w));
          run_both(m, w, counts, cases % 16 == 0);
          ++cases;
          if (testing::Test::HasFatalFailure()) return;
        }
      }
    EXPECT_GT(counts.retired, cases * 3 / 4) << "retired " << counts.retired << ", invalid "
                                             << counts.invalid << ", faulted " << counts.faulted;
  });
}

// ---- search rows shaped for the fast paths' gates and filters ----

// One of a few shapes of a row of t FP32 values: distinct random (a top-k round's data),
// ascending (every vector raises Max8's gate), descending, one value (with ±0), only ±0,
// mostly NaN (signalling, quiet, either sign), mostly -inf with fewer than 8 numbers,
// three values (ties; +inf or ±0 among them), ascending with NaNs, ±0, -inf and repeats
// mixed in (Max8 leaves its gate for a top 8 per vector lane on such rows), random with
// the largest at the end.
std::vector<uint32_t> search_row_values(Rng& rng, uint64_t t) {
  const unsigned shape = rng.below(10);
  auto number = [&] {
    return bits_from_fp32(
        static_cast<float>((static_cast<double>(rng.bits() >> 11) * 0x1p-53 - 0.5) * 2000.0));
  };
  const uint32_t nans[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u,
                           0x7fffffffu, 0xffffffffu, 0x7f810000u, 0xff810000u};
  const uint32_t one = rng.chance(0.3) ? (rng.chance(0.5) ? 0u : 0x80000000u) : number();
  const uint32_t three[] = {number(), rng.chance(0.5) ? 0x7f800000u : number(),
                            rng.chance(0.5) ? 0u : 0x80000000u};
  std::vector<uint32_t> v(t);
  for (uint64_t i = 0; i < t; ++i) {
    const float x = static_cast<float>(i) - static_cast<float>(t) / 2;
    switch (shape) {
      case 0:
        v[i] = number();
        break;
      case 1:
        v[i] = bits_from_fp32(x);
        break;
      case 2:
        v[i] = bits_from_fp32(-x);
        break;
      case 3:
        v[i] = one;
        break;
      case 4:
        v[i] = rng.chance(0.5) ? 0u : 0x80000000u;
        break;
      case 5:
        v[i] = rng.chance(0.8) ? rng.pick(nans) : number();
        break;
      case 6:
        v[i] = rng.below(static_cast<uint32_t>(t)) < 6 ? number() : 0xff800000u;
        break;
      case 7:
        v[i] = rng.pick(three);
        break;
      case 8: {
        const uint32_t odd[] = {rng.pick(nans), 0u, 0x80000000u, 0xff800000u,
                                i > 0 ? v[i - 1] : 0u};
        v[i] = rng.chance(0.1) ? rng.pick(odd) : bits_from_fp32(x);
        break;
      }
      default:
        v[i] = i + 8 >= t ? bits_from_fp32(2000.0f + x) : number();
        break;
    }
  }
  return v;
}

// Max8, FindIndex8, MatchReplace8 or MatchValueLoad over dense rows of every length
// around the vector widths and the chunk size, FP32, BF16 or FP16, shaped as above; the
// lanes hold the row's largest values (as in a top-k round) or edge keys (±0, ±inf, NaN,
// duplicates, values not in the row, BF16 keys with a nonzero low half), sometimes with
// flags set; MatchReplace8 sometimes in place.
Word search_rows_word(Rng& rng, Machines& m, bool large) {
  const uint8_t ops[] = {0x6c, 0x6e, 0x6f, 0x6d};
  const uint8_t op = rng.pick(ops);
  const Dtype dts[] = {Dtype::FP32, Dtype::BF16, Dtype::FP16};
  const Dtype dt = rng.chance(0.45) ? Dtype::FP32 : rng.chance(0.8) ? Dtype::BF16 : rng.pick(dts);
  const unsigned size = *dtype_size(dt);
  const uint64_t lengths[] = {8,  9,  15, 16,  17,  31,  33,  48,   63,
                              64, 65, 96, 100, 511, 512, 513, 1024, 1100};
  uint64_t t = large ? 4096 + rng.below(16384 - 4096 + 1) : rng.pick(lengths);
  if (op == 0x6d) t = 8;
  // Large Max8 rows sometimes in two halves kGap elements apart: not one dense run, so
  // the row is read in chunks (Max8's state carried from one to the next).
  constexpr uint64_t kGap = 16;
  const bool gapped = large && op == 0x6c && rng.chance(0.5);
  if (gapped) t &= ~uint64_t{1};
  auto slot = [&](uint64_t i) { return gapped && i >= t / 2 ? i + kGap : i; };
  const unsigned n = large ? 128 : random_channels(rng);
  const unsigned p = rng.below(kPartitions - n + 1);
  const uint32_t off = rng.below(4) * size;  // odd starts too
  const uint64_t span = slot(t - 1) + 1;
  // The destination right after the source when both fit the compared first 16 KiB.
  uint32_t dst_off = static_cast<uint32_t>((off + span * size + 127) / 64 * 64);
  if (dst_off + t * 4 > 16384) dst_off = std::max<uint32_t>(65536 + 64, dst_off);
  for (unsigned c = 0; c < n; ++c) {
    const std::vector<uint32_t> v = search_row_values(rng, t);
    std::vector<uint32_t> row(t);
    for (uint64_t i = 0; i < t; ++i)
      row[i] = size == 4 ? v[i] : dt == Dtype::BF16 ? v[i] >> 16 : from_fp32(dt, v[i]);
    for (Machine* mm : {&m.a, &m.b}) {
      uint8_t* part = mm->partition(Space::SBUF, p + c).data();
      for (uint64_t i = 0; i < t; ++i) std::memcpy(part + off + slot(i) * size, &row[i], size);
      std::memset(part + dst_off, 0x5a, t * 4);
    }
    m.touched.emplace_back(Space::SBUF, p + c);
    // Lanes: the row's 8 largest values, or edge keys.
    std::vector<uint32_t> widened(t);
    for (uint64_t i = 0; i < t; ++i) widened[i] = to_fp32(dt, row[i]);
    std::vector<uint32_t> top = widened;
    std::erase_if(top, model::max8_is_nan);
    std::sort(top.begin(), top.end(), [](uint32_t a, uint32_t b) {
      return model::max8_order_key(a) > model::max8_order_key(b);
    });
    MatchLane l;
    for (unsigned s = 0; s < 8; ++s) {
      l.mv[s] =
          s < top.size() && rng.chance(0.8) ? top[s] : widened[rng.below(static_cast<uint32_t>(t))];
      if (rng.chance(0.1)) {
        const uint32_t edge[] = {0u,          0x80000000u, 0x7fc00000u,
                                 0x3f800001u, 0x12345678u, bits_from_fp32(5000.0f),
                                 0x7f800000u, 0xff800000u, l.mv[0]};
        l.mv[s] = rng.pick(edge);
      }
    }
    if (rng.chance(0.2)) {
      l.matched = static_cast<uint8_t>(rng.bits());
      for (unsigned s = 0; s < 8; ++s)
        if ((l.matched >> s) & 1u) l.idx[s] = rng.below(20000);
    }
    m.a.match[p + c] = m.b.match[p + c] = l;
  }
  auto dense = [&](uint8_t dims, uint32_t at, uint64_t count) {
    TensorDesc d;
    d.addr = encode_static_addr({Space::SBUF, p, at});
    d.dims = dims;
    d.step = {1, 0, 0, 0};
    d.num = {static_cast<uint16_t>(count), 1, 1, 1};
    return d;
  };
  Word w{};
  w[0] = op;
  w[1] = 0x10;
  if (op == 0x6d) {
    store_tensor(w, 16, dense(2, off, 8));
    w[32] = static_cast<uint8_t>(dt);
    w[34] = static_cast<uint8_t>(n);
    return w;
  }
  TensorDesc src = dense(4, off, t);
  if (gapped) {
    src.step = {1, static_cast<int16_t>(t / 2 + kGap), 0, 0};
    src.num = {static_cast<uint16_t>(t / 2), 2, 1, 1};
  }
  store_tensor(w, 12, src);
  w[32] = static_cast<uint8_t>(dt);
  w[34] = static_cast<uint8_t>(n);
  if (op == 0x6f) {
    const Dtype out = rng.chance(0.7) ? dt : rng.pick(dts);
    w[33] = static_cast<uint8_t>(out);
    const uint32_t imms[] = {0xff800000u, 0x7fc00000u, 0u, bits_from_fp32(-1.5f), 0x7f800001u};
    store_u32(w, 40, rng.pick(imms));
    store_tensor(w, 44, dense(4, out == dt && rng.chance(0.3) ? off : dst_off, t));
  } else {
    w[33] = static_cast<uint8_t>(op == 0x6e ? (rng.chance(0.5) ? Dtype::UINT16 : Dtype::UINT32)
                                            : rng.pick(dts));
    store_tensor(w, 48, dense(2, dst_off, 8));
  }
  return w;
}

TEST(KernelsEquivTest, SearchRows) {
  run_random("SearchRows", search_rows_word, 24, 900, 24);
}

// Each instruction's random words (its registry entry's kernel_words), fast and by the
// reference; the rows whose file says why there is no comparison are skipped.
class KernelsEquivRandom : public ::testing::TestWithParam<const test_registry::InstructionTests*> {
};

TEST_P(KernelsEquivRandom, Words) {
  const test_registry::InstructionTests& t = *GetParam();
  if (!t.kernel_words) GTEST_SKIP() << t.no_fast_path_comparison;
  const test_registry::KernelWords& k = *t.kernel_words;
  const std::string name(t.mnemonic);
  run_random(name.c_str(), k.make, k.seed, k.all_cases, k.large_cases,
             k.machines ? k.machines() : machines());
}

INSTANTIATE_TEST_SUITE_P(
    Registry, KernelsEquivRandom, ::testing::ValuesIn(test_registry::all()),
    [](const ::testing::TestParamInfo<const test_registry::InstructionTests*>& i) {
      return std::string(i.param->mnemonic);
    });

// Every table row has kernel words in its file in tests/instructions/, or says there why it
// has none (registry.h: no_fast_path_comparison).
TEST(KernelsEquivCoverage, EveryFastPathIsCompared) {
  std::vector<std::string_view> named;
  std::map<std::string_view, std::string_view> exempt;
  for (const test_registry::InstructionTests* t : test_registry::all()) {
    if (t->kernel_words) named.push_back(t->mnemonic);
    if (!t->no_fast_path_comparison.empty()) exempt[t->mnemonic] = t->no_fast_path_comparison;
  }
  test_coverage::expect_table("KernelsEquivRandom", named, exempt);
}

}  // namespace
}  // namespace gpsimd
