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
#include "instructions/registry.h"
#include "kernels/affine.h"
#include "kernels/convert.h"
#include "kernels/sort_network.h"
#include "kernels/stream.h"
#include "table_coverage.h"
#include "test_effort.h"

namespace gpsimd {
namespace {

// splitmix64: fast enough that generating inputs costs less than checking them.
class Rng {
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t bits() {
    uint64_t z = (s_ += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }
  uint32_t below(uint64_t n) { return static_cast<uint32_t>(bits() % n); }
  int64_t in(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(bits() % (hi - lo + 1)); }
  bool chance(double p) { return static_cast<double>(bits() >> 11) < p * 0x1p53; }
  template <class T, std::size_t N>
  T pick(const T (&a)[N]) {
    return a[below(N)];
  }
  template <class T>
  T pick_from(const std::vector<T>& v) {
    return v[below(v.size())];
  }

 private:
  uint64_t s_;
};

// ---- edge values ------------------------------------------------------------------------

// Bit patterns worth hitting for a dtype: zeros, infinities, NaNs with payloads,
// subnormals, extremes; for FP32 also the rounding boundaries of every narrow format.
std::vector<uint32_t> edge_values(Dtype dt) {
  switch (dt) {
    case Dtype::FP32:
    case Dtype::FP32R: {
      std::vector<uint32_t> v = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000,
                                 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0x00000001,
                                 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000,
                                 0xbf800000, 0x4b800000, 0x4b7fffff, 0x477fe000, 0x477ff000,
                                 0x477fefff, 0x33800000, 0x33000000, 0x33000001, 0x337fffff};
      // Ties and neighbours at each narrow format's quantum, in a spread of binades.
      for (uint32_t e = 0; e < 256; e += 3) {
        for (uint32_t man : {0x000000u, 0x008000u, 0x008001u, 0x007fffu, 0x018000u, 0x001000u,
                             0x003000u, 0x080000u, 0x0c0000u, 0x040000u, 0x100000u, 0x7fffffu,
                             0x020000u, 0x060000u, 0x010000u, 0x030000u}) {
          v.push_back(e << 23 | man);
          v.push_back(0x80000000u | e << 23 | man);
        }
      }
      return v;
    }
    case Dtype::BF16:
      return {0x0000, 0x8000, 0x7f80, 0xff80, 0x7fc0, 0xffc0, 0x7f81, 0xff81,
              0x0001, 0x807f, 0x0080, 0x7f7f, 0xff7f, 0x3f80, 0x7fff};
    case Dtype::FP16:
      return {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0xfc01,
              0x0001, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x3c00, 0x7fff};
    case Dtype::FP8_E5:
      return {0x00, 0x80, 0x7c, 0xfc, 0x7e, 0xfe, 0x7d, 0xfd, 0x01, 0x83, 0x04, 0x7b, 0xfb, 0x3c};
    case Dtype::FP8_E4:
      return {0x00, 0x80, 0x78, 0xf8, 0x7c, 0xfc, 0x79, 0xf9, 0x01, 0x87, 0x08, 0x77, 0xf7, 0x38};
    case Dtype::FP8_E3:
      return {0x00, 0x80, 0x70, 0xf0, 0x78, 0xf8, 0x71, 0xf1, 0x01, 0x8f, 0x10, 0x6f, 0xef, 0x30};
    case Dtype::INT16:
    case Dtype::UINT16:
      return {0x0000, 0x8000, 0x7fff, 0xffff, 0x0001, 0x8001};
    case Dtype::INT32:
    case Dtype::UINT32:
      return {0x00000000, 0x80000000, 0x7fffffff, 0xffffffff, 0x00000001, 0x80000001};
    default:
      return {0x00, 0x80, 0x7f, 0xff, 0x01};
  }
}

// ---- the vector conversions against format.h -------------------------------------------

const Dtype kNarrowFloats[] = {Dtype::BF16, Dtype::FP16, Dtype::FP8_E5, Dtype::FP8_E4,
                               Dtype::FP8_E3};

// Runs f once for every SIMD target compiled in and supported here (and restores the
// default choice afterwards).
template <class F>
void for_each_target(F f) {
  bool first = true;
  hwy::SetSupportedTargetsForTest(0);
  const int64_t supported = hwy::SupportedTargets() | HWY_SCALAR;
  for (int64_t t : {int64_t{HWY_AVX3}, int64_t{HWY_AVX2}, int64_t{HWY_SCALAR}}) {
    if ((supported & t) == 0) continue;
    hwy::SetSupportedTargetsForTest(t);
    SCOPED_TRACE(kernels::simd::target_name());
    f(first);
    first = false;
  }
  hwy::SetSupportedTargetsForTest(0);
}

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

// ---- random instructions ----------------------------------------------------------------

// Where the random operands live: a window at the start of every partition, small so
// that operands overlap often.
struct Window {
  Space space = Space::SBUF;
  uint32_t bytes = 4096;
};

// Gives t a static address in partition p at a random offset where its whole walk lies
// inside the window; a walk too wide for the window becomes dense first.
void place(Rng& rng, TensorDesc& t, unsigned elem, const Window& win, unsigned p) {
  auto extent = [&](int64_t& lo, int64_t& hi) {
    lo = hi = 0;
    for (unsigned d = 0; d < t.dims; ++d) {
      const int64_t span = int64_t{t.step[d]} * (t.num[d] - 1);
      (span < 0 ? lo : hi) += span;
    }
  };
  int64_t lo, hi;
  extent(lo, hi);
  const int64_t slots = win.bytes / elem;
  if (hi - lo + 1 > slots) {
    int64_t inner = 1;
    for (unsigned d = 0; d < t.dims; ++d) {
      t.step[d] = static_cast<int16_t>(inner);
      inner *= t.num[d];
    }
    extent(lo, hi);
  }
  const int64_t first = rng.in(-lo, slots - 1 - hi);
  t.addr = encode_static_addr({win.space, p, static_cast<uint32_t>(first * elem)});
}

// A random walk of `dims` dimensions over `count` elements (when count != 0) or of a
// random count up to max_count, placed inside the window. Returns the descriptor with
// a static address in partition p.
TensorDesc random_walk(Rng& rng, unsigned dims, uint64_t count, uint64_t max_count, unsigned elem,
                       const Window& win, unsigned p) {
  for (int attempt = 0;; ++attempt) {
    TensorDesc t;
    t.dims = static_cast<uint8_t>(dims);
    // Extents: a factorisation of count, or random ones.
    uint64_t left = count ? count : 1 + rng.below(max_count);
    for (unsigned d = 0; d < dims; ++d) {
      uint64_t n = left;
      if (d + 1 < dims) {
        // A divisor of what is left, so the product is exact.
        std::vector<uint64_t> divs;
        for (uint64_t k = 1; k <= left && k <= 65535; ++k)
          if (left % k == 0) divs.push_back(k);
        n = rng.chance(0.3) ? 1 : divs[rng.below(divs.size())];
        if (!count && rng.chance(0.3)) n = 1 + rng.below(std::min<uint64_t>(left, 64));
      }
      if (n > 65535) n = 65535;  // only for random counts
      t.num[d] = static_cast<uint16_t>(n);
      left = std::max<uint64_t>(1, left / n);
    }
    // Steps: dense, reversed, zero, strided, or continuing the inner dimensions.
    int64_t inner = 1;
    for (unsigned d = 0; d < dims; ++d) {
      const int64_t choices[] = {1, 1, -1, 0, 2, -2, 3, -3, 7};
      int64_t s = rng.pick(choices);
      if (d > 0 && rng.chance(0.5)) s = inner * (rng.chance(0.8) ? 1 : -1);
      t.step[d] = static_cast<int16_t>(s);
      inner *= t.num[d];
    }
    int64_t lo = 0, hi = 0;
    for (unsigned d = 0; d < dims; ++d) {
      const int64_t span = int64_t{t.step[d]} * (t.num[d] - 1);
      (span < 0 ? lo : hi) += span;
    }
    const int64_t slots = win.bytes / elem;
    if (hi - lo + 1 > slots) {
      if (attempt < 50) continue;
      // Fall back to a dense walk of the same count, which fits when the count does.
      for (unsigned d = 0; d < dims; ++d) t.step[d] = 1;
      t.num = {1, 1, 1, 1};
      t.num[0] = static_cast<uint16_t>(std::min<uint64_t>(count ? count : 1, 65535));
      lo = 0;
      hi = t.num[0] - 1;
    }
    const int64_t first = rng.in(-lo, slots - 1 - hi);
    t.addr = encode_static_addr({win.space, p, static_cast<uint32_t>(first * elem)});
    return t;
  }
}

// The machines are shared by all cases (a fresh SBUF is 28 MiB); each case refills the
// windows it uses and records which partitions those are, for the comparison.
struct Machines {
  explicit Machines(Generation g = Generation::V3) : a(g), b(g) {}
  Machine a, b;
  std::vector<std::pair<Space, unsigned>> touched;
  std::optional<Engine> engine;  // the engine input of the next word (nullopt: default)
};

Machines& machines() {
  static Machines m;
  return m;
}

// Fills the window of partitions [p, p + n) of both machines with the same mix of random
// bits and edge values of `dt`, laid out as elements of its size.
void fill(Rng& rng, Machines& m, const Window& win, unsigned p, unsigned n, Dtype dt,
          bool runs = false) {
  const unsigned size = dtype_size(dt).value_or(4);
  const std::vector<uint32_t> edges = edge_values(dt);
  uint32_t prev = 0;
  for (unsigned q = p; q < p + n && q < kPartitions; ++q) {
    m.touched.emplace_back(win.space, q);
    uint8_t* pa = m.a.partition(win.space, q).data();
    uint8_t* pb = m.b.partition(win.space, q).data();
    for (uint32_t off = 0; off + size <= win.bytes; off += size) {
      const uint64_t r = rng.bits();
      uint32_t v = static_cast<uint32_t>(r);
      const uint32_t roll = static_cast<uint32_t>(r >> 32) & 127;  // percent-ish, no division
      if (roll < 38) v = edges[((r >> 40) * edges.size()) >> 24];
      if (runs && roll >= 38 && roll < 102) v = prev;  // segment ids and sort ties
      if (runs && roll >= 121) v = 0;
      prev = v;
      std::memcpy(pa + off, &v, size);
      std::memcpy(pb + off, &v, size);
    }
  }
}

// Both partition ranges of a source and a destination.
void fill2(Rng& rng, Machines& m, const Window& win, unsigned p, unsigned pd, unsigned n, Dtype dt,
           bool runs = false) {
  fill(rng, m, win, p, n, dt, runs);
  if (pd != p) fill(rng, m, win, pd, n, dt, runs);
}

struct Counts {
  int retired = 0, invalid = 0, faulted = 0;
};

// Runs w fast on `a` and by the reference on `b`, and checks both end the same way.
void run_both(Machines& m, const Word& w, Counts& counts, bool whole_machine) {
  Machine& a = m.a;
  Machine& b = m.b;
  ExecOptions fast, ref;
  ref.fast = false;
  fast.engine = ref.engine = m.engine;
  m.engine.reset();  // each maker sets it for its own word
  const ExecResult ra = execute(a, w, fast);
  const ExecResult rb = execute(b, w, ref);
  ASSERT_EQ(ra.status, rb.status) << ra.message() << " / " << rb.message() << "\n"
                                  << word_to_hex(w);
  if (ra.status == Status::Retired) ++counts.retired;
  if (ra.status == Status::Invalid) ++counts.invalid;
  if (ra.status == Status::Faulted) ++counts.faulted;
  ASSERT_EQ(ra.message(), rb.message());
  ASSERT_EQ(a.accumulators, b.accumulators) << word_to_hex(w);
  ASSERT_TRUE(a.match == b.match) << "search lanes differ\n" << word_to_hex(w);
  // The windows of this word are compared after it; the whole machine (stray writes) often.
  for (auto [s, q] : m.touched)
    ASSERT_EQ(0, std::memcmp(m.a.partition(s, q).data(), m.b.partition(s, q).data(),
                             std::min<uint32_t>(m.a.partition_bytes(s), 1 << 14)))
        << space_name(s) << " partition " << q << "\n"
        << word_to_hex(w);
  if (whole_machine) {
    ASSERT_TRUE(a == b) << word_to_hex(w);
  }
}

unsigned random_channels(Rng& rng) {
  if (rng.chance(0.1)) return 128;
  if (rng.chance(0.3)) return 1 + rng.below(128);
  return 1 + rng.below(6);
}

// When set (by the strided-source tests), the random instruction makers below read their
// source as one row of `count` elements `step` apart, and RangeSelect reads FP32: the
// shape the strided reads of walk_cursor.h turn into contiguous loads and permutes.
struct ForcedSource {
  bool on = false;
  int16_t step = 1;
  uint16_t count = 1;
};
ForcedSource g_forced;

// Replaces src by the forced row, placed in the window, when one is forced.
void force_source(Rng& rng, TensorDesc& src, unsigned elem, const Window& win, unsigned p) {
  if (!g_forced.on) return;
  const uint8_t dims = src.dims;  // the instruction's tensor kind
  src = TensorDesc{};
  src.dims = dims;
  src.num.fill(1);
  src.step.fill(0);
  src.num[0] = g_forced.count;
  src.step[0] = g_forced.step;
  place(rng, src, elem, win, p);
}

const Dtype kRsIn[] = {Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5,
                       Dtype::FP16,   Dtype::BF16,   Dtype::FP32};
const Dtype kRsOut[] = {Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5, Dtype::FP16,
                        Dtype::BF16,   Dtype::FP32,   Dtype::FP32R};

Word range_select_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0xbc;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype din = large || g_forced.on ? Dtype::FP32 : rng.pick(kRsIn);
  const Dtype dout = large ? rng.pick(kRsOut) : rng.pick(kRsOut);
  Window win;
  win.bytes = large ? 32768 : 4096;
  const bool psum = !large && rng.chance(0.15) && *dtype_size(dout) == 4;
  if (psum) win.space = Space::PSUM;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned isz = *dtype_size(din), osz = *dtype_size(dout);
  const uint64_t max_count = large ? 8000 : 600;
  TensorDesc src = random_walk(rng, 2, 0, max_count, isz, win, p);
  force_source(rng, src, isz, win, p);
  // The destination: its own shape over the same count, sometimes in another partition
  // range, so that it may or may not overlap the sources.
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  TensorDesc dst = random_walk(rng, 2, src.count(), 0, osz, win, pd);
  fill2(rng, m, win, p, pd, n, din);
  w[12] = static_cast<uint8_t>(n);
  w[13] = static_cast<uint8_t>(static_cast<uint8_t>(din) | static_cast<uint8_t>(dout) << 4);
  const uint8_t cmds[] = {0, 2, 3};
  w[14] = rng.pick(cmds);
  w[15] = 0x08;
  // base: integers, halves, a subnormal, or close to the 2^24 limit.
  float base = static_cast<float>(rng.below(1000));
  if (rng.chance(0.2)) base += 0.5f;
  if (rng.chance(0.1)) base = std::bit_cast<float>(0x00000001u);
  if (rng.chance(0.1)) base = static_cast<float>((1u << 24) - src.count() - rng.below(3));
  if (rng.chance(0.05))
    base = static_cast<float>((1u << 23) + 1) - static_cast<float>(rng.below(4));
  store_u32(w, 16, std::bit_cast<uint32_t>(base));
  store_u32(w, 20, 0xff7fffffu);
  store_tensor(w, 24, src);
  const uint8_t ops[] = {0x12, 0x13, 0x14, 0x15, 0x16};
  w[36] = rng.pick(ops);
  w[37] = rng.pick(ops);
  // Bounds near the index range, or special values; sometimes through pointers.
  for (unsigned k = 0; k < 2; ++k) {
    auto bound = [&] {
      float f = base + static_cast<float>(rng.below(static_cast<uint32_t>(src.count()) + 2)) - 1.0f;
      if (rng.chance(0.3)) f += 0.5f;
      const uint32_t specials[] = {0x7fc00000, 0xff800000, 0x7f800000,
                                   0x80000000, 0x00000000, 0x7f800001};
      return rng.chance(0.15) ? rng.pick(specials) : std::bit_cast<uint32_t>(f);
    };
    if (rng.chance(0.2)) {
      w[38 + k] = 1;  // POINTER_IMMEDIATE into the window
      const uint32_t off = rng.below(win.bytes / 4) * 4;
      const unsigned pp = rng.below(kPartitions - n + 1);
      store_u32(w, 40 + 4 * k, encode_static_addr({win.space, pp, off}));
      for (unsigned c = 0; c < n; ++c) {
        const uint32_t v = bound();
        std::memcpy(m.a.partition(win.space, pp + c).data() + off, &v, 4);
        std::memcpy(m.b.partition(win.space, pp + c).data() + off, &v, 4);
        m.touched.emplace_back(win.space, pp + c);
      }
    } else {
      store_u32(w, 40 + 4 * k, bound());
    }
  }
  store_tensor(w, 48, dst);
  for (unsigned c = 0; c < kPartitions; ++c) {
    const uint32_t accs[] = {0xff800000u, 0x7fc00000u, 0x3f800000u, 0x80000000u,
                             0x00000000u, 0xff7fffffu, 0xffc00001u};
    m.a.accumulators[c] = m.b.accumulators[c] = rng.pick(accs);
  }
  return w;
}

const Dtype kTssDtypes[] = {Dtype::INT8, Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16,
                            Dtype::BF16, Dtype::FP16,   Dtype::INT32,  Dtype::UINT32,
                            Dtype::FP32, Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};

Word tensor_scalar_select_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0x98;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype dt = large ? Dtype::FP32 : rng.pick(kTssDtypes);
  const unsigned size = *dtype_size(dt);
  Window win;
  win.bytes = large ? 49152 : 4096;
  if (!large && size == 4 && rng.chance(0.15)) win.space = Space::PSUM;
  const unsigned p = rng.below(kPartitions - n + 1);
  TensorDesc src = random_walk(rng, 3, 0, large ? 10000 : 900, size, win, p);
  force_source(rng, src, size, win, p);
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  TensorDesc dst = random_walk(rng, 3, src.count(), 0, size, win, pd);
  fill2(rng, m, win, p, pd, n, dt);
  store_tensor(w, 16, src);
  w[32] = static_cast<uint8_t>(rng.below(2));
  w[33] = static_cast<uint8_t>(n);
  w[34] = static_cast<uint8_t>(dt);
  const uint8_t preds[] = {size == 1   ? uint8_t{0x2}
                           : size == 2 ? uint8_t{0x4}
                                       : uint8_t{0x8},
                           size == 1   ? uint8_t{0x3}
                           : size == 2 ? uint8_t{0x5}
                                       : uint8_t{0x9}};
  w[35] = rng.pick(preds);
  const uint32_t mask = size == 4 ? ~0u : (1u << (8 * size)) - 1;
  for (unsigned k = 0; k < 2; ++k) {  // src1_imm, then pred_imm
    if (rng.chance(0.3)) {
      w[38 + k] = 1;
      const uint32_t off = rng.below(win.bytes / size) * size;
      const unsigned pp = rng.below(kPartitions - n + 1);
      store_u32(w, 40 + 4 * k, encode_static_addr({win.space, pp, off}));
      for (unsigned c = 0; c < n; ++c) {
        const uint32_t v = k == 1 && rng.chance(0.5) ? 0 : static_cast<uint32_t>(rng.bits());
        std::memcpy(m.a.partition(win.space, pp + c).data() + off, &v, size);
        std::memcpy(m.b.partition(win.space, pp + c).data() + off, &v, size);
        m.touched.emplace_back(win.space, pp + c);
      }
    } else {
      store_u32(w, 40 + 4 * k, k == 1 ? rng.below(2) : static_cast<uint32_t>(rng.bits()) & mask);
    }
  }
  store_tensor(w, 48, dst);
  return w;
}

// A GetSequenceBounds word without its tensors: one channel, INT32 or FP32 ids and bounds.
Word sequence_bounds_head(bool fp_in, bool fp_out) {
  Word w{};
  w[0] = 0xbe;
  w[1] = 0x10;
  w[12] = 1;
  w[14] = fp_in ? 0x0a : 0x08;
  w[15] = fp_out ? 0x0a : 0x08;
  return w;
}

Word sequence_bounds_word(Rng& rng, Machines& m, bool large) {
  const bool fp_in = rng.chance(0.5), fp_out = rng.chance(0.5);
  Word w = sequence_bounds_head(fp_in, fp_out);
  Window win;
  win.bytes = large ? 196608 : 4096;
  const unsigned p = rng.below(kPartitions);
  TensorDesc src = random_walk(rng, 3, 0, large ? 16000 : 300, 4, win, p);
  force_source(rng, src, 4, win, p);
  // dst: 2 x count(src) with num_elem[2] == 2; the halves dense after each other, or
  // apart, reversed, or on top of each other.
  TensorDesc dst = random_walk(rng, 2, src.count(), 0, 4, win, p);
  dst.dims = 3;
  dst.num[2] = 2;
  const int64_t half = int64_t{dst.num[0]} * dst.num[1];
  const int64_t steps2[] = {half, half, -half, 0, half + 5, 3};
  dst.step[2] = static_cast<int16_t>(std::clamp<int64_t>(rng.pick(steps2), -32768, 32767));
  if (rng.chance(0.5))
    dst.step = {1, static_cast<int16_t>(dst.num[0]),
                static_cast<int16_t>(std::min<int64_t>(half, 32767))};
  place(rng, dst, 4, win, p);
  fill(rng, m, win, p, 1, fp_in ? Dtype::FP32 : Dtype::INT32, true);
  store_tensor(w, 16, src);
  store_tensor(w, 32, dst);
  return w;
}

const Dtype kSortDtypes[] = {Dtype::FP16, Dtype::BF16,   Dtype::UINT16, Dtype::INT16,
                             Dtype::FP32, Dtype::UINT32, Dtype::INT32};

// A Sort destination of K (value, index) pairs: usually dense, sometimes strided or
// backwards, placed in partition pd of the window.
TensorDesc sort_dst(Rng& rng, unsigned K, unsigned size, Window& win, unsigned pd) {
  TensorDesc dst;
  dst.dims = 2;
  dst.num = {2, static_cast<uint16_t>(K), 1};
  dst.step = {1, 2, 0};
  if (rng.chance(0.3))
    dst.step = {static_cast<int16_t>(rng.in(-3, 3)), static_cast<int16_t>(rng.in(-9, 9)), 0};
  place(rng, dst, size, win, pd);
  return dst;
}

// A Sort word's opcode, channels, dtypes, direction and tensors.
Word sort_fields(Rng& rng, unsigned n, Dtype dt, const TensorDesc& src, const TensorDesc& dst) {
  Word w{};
  w[0] = 0x96;
  w[1] = 0x10;
  w[12] = static_cast<uint8_t>(n);
  w[14] = static_cast<uint8_t>(static_cast<uint8_t>(dt) | static_cast<uint8_t>(dt) << 4);
  w[15] = rng.chance(0.5) ? 0x16 : 0x13;
  store_tensor(w, 16, src);
  store_tensor(w, 24, dst);
  return w;
}

unsigned sort_limit(Dtype dt) {
  return *dtype_size(dt) == 2 ? 4096 : 2048;  // N x channels
}

// The index offsets of a Sort word of n channels: an instruction immediate (0 or one that
// wraps), or now and then one per channel read from SBUF (within the first `bytes` of
// the partitions).
void sort_offsets(Rng& rng, Machines& m, Word& w, unsigned n, uint32_t bytes = 4096) {
  if (rng.chance(0.2)) {
    w[13] = 1;
    const uint32_t off = rng.below(bytes / 4) * 4;
    const unsigned pp = rng.below(kPartitions - n + 1);
    store_u32(w, 36, encode_static_addr({Space::SBUF, pp, off}));
    for (unsigned c = 0; c < n; ++c) {
      const uint32_t v = static_cast<uint32_t>(rng.bits());
      std::memcpy(m.a.partition(Space::SBUF, pp + c).data() + off, &v, 4);
      std::memcpy(m.b.partition(Space::SBUF, pp + c).data() + off, &v, 4);
      m.touched.emplace_back(Space::SBUF, pp + c);
    }
  } else {
    store_u32(w, 36, rng.chance(0.5) ? 0 : static_cast<uint32_t>(rng.bits()));
  }
}

// Sort of contiguous runs of up to 32 elements, the shape kernels/sort_network.cc sorts in
// registers channel after channel (one-vector runs two channels at a time): every N from
// 1 to 32, K <= N, destinations mostly dense, offsets sometimes one per channel. "At end" cases put
// the sources at the very end of the last partitions, where the kernel must not read past the run
// (it copies it first); they compare whole machines.
Word sort_word(Rng& rng, Machines& m, bool large) {
  const Dtype dt = rng.pick(kSortDtypes);
  const unsigned size = *dtype_size(dt);
  const unsigned limit = sort_limit(dt);
  unsigned n = large ? 1 : random_channels(rng);
  unsigned N;
  if (large) {
    N = limit;
  } else {
    const unsigned sizes[] = {1,  2,  3,   7,   8,   15,  16,  17,  31,  32,
                              33, 64, 100, 128, 129, 255, 256, 257, 1000};
    N = rng.pick(sizes);
  }
  if (N * n > limit) n = limit / N;
  const unsigned K = rng.chance(0.6) ? N : 1 + rng.below(N);
  Window win;
  win.bytes = large ? 65536 : 8192;
  const unsigned p = rng.below(kPartitions - n + 1);
  TensorDesc src = random_walk(rng, 1, N, 0, size, win, p);
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  const TensorDesc dst = sort_dst(rng, K, size, win, pd);
  fill2(rng, m, win, p, pd, n, dt, rng.chance(0.5));
  Word w = sort_fields(rng, n, dt, src, dst);
  sort_offsets(rng, m, w, n, win.bytes);
  w[40] = static_cast<uint8_t>(rng.below(2));
  return w;
}

Word sort_run_word(Rng& rng, Machines& m, bool at_end) {
  const Dtype dt = rng.pick(kSortDtypes);
  const unsigned size = *dtype_size(dt);
  const unsigned limit = sort_limit(dt);
  const unsigned N = 1 + rng.below(32);
  unsigned n = random_channels(rng);
  if (N * n > limit) n = limit / N;
  const unsigned K = rng.chance(0.6) ? N : 1 + rng.below(N);
  Window win;
  const unsigned p = at_end ? kPartitions - n : rng.below(kPartitions - n + 1);
  fill2(rng, m, win, p, p, n, dt, rng.chance(0.5));
  TensorDesc src;
  src.dims = 1;
  src.num = {static_cast<uint16_t>(N), 1, 1};
  src.step = {1, 0, 0};
  if (at_end) {
    const uint32_t off = m.a.partition_bytes(Space::SBUF) - N * size;
    for (unsigned c = p; c < p + n; ++c)
      for (Machine* x : {&m.a, &m.b}) {
        uint8_t* part = x->partition(Space::SBUF, c).data();
        std::memcpy(part + off, part, N * size);
      }
    src.addr = encode_static_addr({Space::SBUF, p, off});
  } else {
    place(rng, src, size, win, p);
  }
  const TensorDesc dst = sort_dst(rng, K, size, win, p);
  Word w = sort_fields(rng, n, dt, src, dst);
  sort_offsets(rng, m, w, n);
  w[40] = static_cast<uint8_t>(rng.below(2));
  return w;
}

// Sort of 32-bit dtypes beyond the in-register runs (kernels/sort32.cc: presorted and
// reversed checks, a bitonic network up to 64 keys, vqsort up to 128, else a radix
// pass, then sorting networks, vqsort for the crowded buckets): N from 33 to the limit, several
// channels, top-K, strided and reversed source walks, and the key distributions that change its
// path: spread out, all equal, two or a few distinct values, sorted, reversed (also in runs of
// equal values), a narrow range (crowded buckets), a tight cluster with outliers, magnitudes over
// many octaves (skewed), uniform and about normal values (FP32's value-linear buckets),
// and FP32's NaNs, ±0 and ±inf.
const Dtype kSort32Dtypes[] = {Dtype::FP32, Dtype::UINT32, Dtype::INT32};

// The value of slot j of a partition under distribution `mode`.
uint32_t sort32_value(Rng& rng, Dtype dt, unsigned mode, uint32_t j, const uint32_t* pool,
                      const std::vector<uint32_t>& edges) {
  const bool fp = dt == Dtype::FP32;
  auto number = [&](int64_t x) {  // the dtype's pattern of a small integer
    return fp ? std::bit_cast<uint32_t>(static_cast<float>(x)) : static_cast<uint32_t>(x);
  };
  switch (mode) {
    case 0:  // spread out: random bits, some edge values
      return rng.chance(0.1) ? edges[rng.below(edges.size())] : static_cast<uint32_t>(rng.bits());
    case 1:  // all equal
      return pool[0];
    case 2:  // two distinct values (or equal ones)
      return pool[rng.below(2)];
    case 3:  // a few distinct values
      return pool[rng.below(7)];
    case 4:  // ascending in address order
      return number(int64_t{j} * 3 - 5000);
    case 5:  // descending in address order
      return number(5000 - int64_t{j} * 3);
    case 6:  // a narrow range: many ties in every bucket
      return number(static_cast<int64_t>(rng.below(40)) - (dt == Dtype::UINT32 ? 0 : 20));
    case 7:  // a tight cluster and a few far outliers: one crowded bucket
      return rng.chance(0.02) ? static_cast<uint32_t>(rng.bits())
                              : number(1000 + static_cast<int64_t>(rng.below(300)));
    case 8: {  // magnitudes spread over many octaves: skewed in key order
      const unsigned octave = rng.below(30);
      if (fp) {
        const float f = std::ldexp(1.0f + static_cast<float>(rng.below(1u << 20)) * 0x1p-20f,
                                   -static_cast<int>(octave));
        return std::bit_cast<uint32_t>(rng.chance(0.5) ? -f : f);
      }
      const uint32_t x = static_cast<uint32_t>(rng.bits()) >> (octave + 1);
      return dt == Dtype::INT32 && rng.chance(0.5) ? 0u - x : x;
    }
    case 9:  // a range a few times n wide: two or more key values per bucket
      return number(static_cast<int64_t>(rng.below(5000)));
    case 11:  // descending with runs of equal values, long and short
      return number(3000 - static_cast<int64_t>(j / (j % 64 < 40 ? 1 : 5)));
    case 12:  // ascending with runs of equal values
      return number(static_cast<int64_t>(j / 3) - 1000);
    case 15:  // descending, an equal pair now and then
      return number(5000 - int64_t{j} * 3 + (j % 97 == 0 ? 3 : 0));
    case 13:  // FP32: uniform in [-1000, 1000) (value-linear buckets), some ±0; others: bits
      if (!fp) return static_cast<uint32_t>(rng.bits());
      if (rng.chance(0.01)) return rng.chance(0.5) ? 0x80000000u : 0u;
      return std::bit_cast<uint32_t>(static_cast<float>(rng.below(1u << 24)) * 0x1p-23f * 1000.f -
                                     1000.f);
    case 14: {  // about normal: the sum of four uniforms, duplicates from coarse steps
      int64_t sum = 0;
      for (int t = 0; t < 4; ++t) sum += static_cast<int64_t>(rng.below(1u << 12));
      return fp ? std::bit_cast<uint32_t>(static_cast<float>(sum - 8192) * 0x1p-10f)
                : number(sum - 8192);
    }
    default:  // edge values only (for FP32: NaNs with payloads, ±0, ±inf, subnormals)
      return edges[rng.below(edges.size())];
  }
}

// The shape of a Sort word beyond the in-register runs (sort32_word, sort16_word): N above
// 32 (one of `sizes`, or any up to `limit`), one channel or several (N x channels within
// `limit`), top-K, a strided or reversed source walk in a 64 KiB window, the destination
// mostly on the source's partitions.
struct LargeSortShape {
  unsigned N, n, K;
  Window win;
  unsigned p, pd;  // the source's and the destination's first partitions
  TensorDesc src, dst;
};
LargeSortShape large_sort_shape(Rng& rng, unsigned limit, std::span<const unsigned> sizes,
                                unsigned elem) {
  LargeSortShape s;
  s.N = rng.chance(0.3) ? 33 + rng.below(limit - 32) : sizes[rng.below(sizes.size())];
  s.n = rng.chance(0.5) ? 1 : 1 + rng.below(limit / s.N);
  s.K = rng.chance(0.6) ? s.N : 1 + rng.below(s.N);
  s.win.bytes = 65536;
  s.p = rng.below(kPartitions - s.n + 1);
  s.src = random_walk(rng, 1, s.N, 0, elem, s.win, s.p);
  s.pd = rng.chance(0.7) ? s.p : rng.below(kPartitions - s.n + 1);
  s.dst = sort_dst(rng, s.K, elem, s.win, s.pd);
  return s;
}

Word sort32_word(Rng& rng, Machines& m, bool) {
  const Dtype dt = rng.pick(kSort32Dtypes);
  static constexpr unsigned kSizes[] = {33,   34,   63,   64,   65,   100,  127,  128, 129, 130,
                                        200,  255,  256,  257,  300,  511,  512,  513, 777, 1000,
                                        1023, 1024, 1025, 1500, 2000, 2046, 2047, 2048};
  const auto [N, n, K, win, p, pd, src, dst] = large_sort_shape(rng, 2048, kSizes, 4);
  // The destination's partitions get random bits; the sources one distribution each.
  fill(rng, m, win, pd, n, dt);
  const std::vector<uint32_t> edges = edge_values(dt);
  // Mode 16: a crowded low byte of key' over one high byte, now and then another high
  // byte (BF16's [1, 2] with 2.0 rounded up): both scatters, the second after a recount
  // of the quarters, with long runs of one bucket in each; edge values mixed in.
  const unsigned mode = rng.below(17);
  for (unsigned q = p; q < p + n; ++q) {
    m.touched.emplace_back(win.space, q);
    uint32_t pool[7];
    for (uint32_t& v : pool)
      v = rng.chance(0.5) ? edges[rng.below(edges.size())] : static_cast<uint32_t>(rng.bits());
    if (rng.chance(0.3)) pool[1] = pool[0] + 1;  // neighbours: often adjacent keys
    uint8_t* pa = m.a.partition(win.space, q).data();
    uint8_t* pb = m.b.partition(win.space, q).data();
    for (uint32_t j = 0; j < win.bytes / 4; ++j) {
      const uint32_t v = sort32_value(rng, dt, mode, j, pool, edges);
      std::memcpy(pa + 4 * j, &v, 4);
      std::memcpy(pb + 4 * j, &v, 4);
    }
  }
  Word w = sort_fields(rng, n, dt, src, dst);
  // Offsets that wrap around 2^32.
  store_u32(w, 36, rng.chance(0.5) ? 0 : static_cast<uint32_t>(rng.bits()));
  w[40] = static_cast<uint8_t>(rng.below(2));
  return w;
}

// Sort of 32-bit dtypes in runs of up to 16 elements, dense: kernels/sort_network.cc packs them
// into 32 bits (dropping low key bits when the keys differ in too many), sorts two
// channels at a time and falls back to 64-bit keys for a channel whose order the
// dropped bits would break. Each channel draws its own distribution (sort32_word's, or
// a cluster of keys that differ only in their lowest bits with a far outlier, which
// forces the fallback), so a pair mixes both outcomes; any number of channels (odd
// counts leave one alone), top-K, offsets that wrap or differ by channel, NaN, ±0 and
// ±inf among the edges.
Word sort_narrow_word(Rng& rng, Machines& m, bool) {
  const Dtype dt = rng.pick(kSort32Dtypes);
  const unsigned N = 1 + rng.below(16);
  const unsigned n = rng.chance(0.3)   ? 128
                     : rng.chance(0.5) ? 1 + rng.below(5)
                                       : 1 + rng.below(128);
  const unsigned K = rng.chance(0.6) ? N : 1 + rng.below(N);
  Window win;
  const unsigned p = rng.below(kPartitions - n + 1);
  TensorDesc src;
  src.dims = 1;
  src.num = {static_cast<uint16_t>(N), 1, 1};
  src.step = {1, 0, 0};
  place(rng, src, 4, win, p);
  const TensorDesc dst = sort_dst(rng, K, 4, win, p);
  const std::vector<uint32_t> edges = edge_values(dt);
  for (unsigned q = p; q < p + n; ++q) {
    m.touched.emplace_back(win.space, q);
    const unsigned mode = rng.below(20);
    uint32_t pool[7];
    for (uint32_t& v : pool)
      v = rng.chance(0.5) ? edges[rng.below(edges.size())] : static_cast<uint32_t>(rng.bits());
    if (rng.chance(0.3)) pool[1] = pool[0] + 1;
    const uint32_t base = static_cast<uint32_t>(rng.bits());
    uint8_t* pa = m.a.partition(win.space, q).data();
    uint8_t* pb = m.b.partition(win.space, q).data();
    for (uint32_t j = 0; j < win.bytes / 4; ++j) {
      uint32_t v;
      if (mode < 16)
        v = sort32_value(rng, dt, mode, j, pool, edges);
      else if (rng.chance(0.15))  // the outlier: the keys then differ in all 32 bits
        v = rng.chance(0.5) ? base ^ 0x80000000u : edges[rng.below(edges.size())];
      else  // the cluster: only the lowest 1 to 4 bits differ
        v = base ^ static_cast<uint32_t>(rng.below(2u << (mode - 16)));
      std::memcpy(pa + 4 * j, &v, 4);
      std::memcpy(pb + 4 * j, &v, 4);
    }
  }
  Word w = sort_fields(rng, n, dt, src, dst);
  sort_offsets(rng, m, w, n);
  w[40] = static_cast<uint8_t>(rng.below(2));
  return w;
}

// Sort of 16-bit dtypes beyond the in-register runs (kernels/sort16.cc: packed words,
// a presorted or reversed check, then up to two stable byte passes, each skipped when
// all keys share the byte): N from 33 to 4096, several channels, top-K, strided and
// reversed source walks, index offsets that wrap around 2^16, and the distributions of
// sort32_word narrowed to 16 bits (FP16/BF16 by format.h's rounding, integers by their
// low bits), with the 16-bit edge values (NaNs with payloads, ±0, ±inf) mixed in.
const Dtype kSort16Dtypes[] = {Dtype::FP16, Dtype::BF16, Dtype::UINT16, Dtype::INT16};

Word sort16_word(Rng& rng, Machines& m, bool) {
  const Dtype dt = rng.pick(kSort16Dtypes);
  const bool fp = dt == Dtype::FP16 || dt == Dtype::BF16;
  const Dtype wide = fp ? Dtype::FP32 : dt == Dtype::INT16 ? Dtype::INT32 : Dtype::UINT32;
  static constexpr unsigned kSizes[] = {33,   34,   63,   64,   65,   100,  127,
                                        128,  129,  255,  256,  257,  511,  1000,
                                        1024, 2047, 2048, 3000, 4095, 4096, 4096};
  const auto [N, n, K, win, p, pd, src, dst] = large_sort_shape(rng, 4096, kSizes, 2);
  fill(rng, m, win, pd, n, dt);
  const std::vector<uint32_t> edges = edge_values(wide), edges16 = edge_values(dt);
  // Mode 16: a crowded low byte of key' over one high byte, now and then another high
  // byte (BF16's [1, 2] with 2.0 rounded up): both scatters, the second after a recount
  // of the quarters, with long runs of one bucket in each; edge values mixed in.
  // Mode 17: every value's low byte 0 (key' shares its low byte unless a NaN is drawn):
  // the low byte's pass skipped, the high byte's alone on the words in position order.
  const unsigned mode = rng.below(18);
  for (unsigned q = p; q < p + n; ++q) {
    m.touched.emplace_back(win.space, q);
    uint32_t pool[7];
    for (uint32_t& v : pool)
      v = rng.chance(0.5) ? edges[rng.below(edges.size())] : static_cast<uint32_t>(rng.bits());
    if (rng.chance(0.3)) pool[1] = pool[0] + (fp ? 0x10000u : 1u);  // often adjacent keys
    uint8_t* pa = m.a.partition(win.space, q).data();
    uint8_t* pb = m.b.partition(win.space, q).data();
    for (uint32_t j = 0; j < win.bytes / 2; ++j) {
      uint32_t v;
      if (mode == 17) {
        v = rng.chance(0.3) ? (0x40u + rng.below(4)) << 8 : rng.below(256) << 8;
      } else if (mode == 16) {
        v = rng.chance(0.01)   ? 0x4000u + rng.below(3)
            : rng.chance(0.02) ? edges16[rng.below(edges16.size())]
                               : 0x3f80u + rng.below(rng.chance(0.5) ? 4 : 128);
      } else {
        const uint32_t w = sort32_value(rng, wide, mode, j, pool, edges);
        v = fp ? narrow_from_fp32(dt, w) : w & 0xffffu;
      }
      if (mode == 0 && rng.chance(0.05)) v = edges16[rng.below(edges16.size())];
      const auto h = static_cast<uint16_t>(v);
      std::memcpy(pa + 2 * j, &h, 2);
      std::memcpy(pb + 2 * j, &h, 2);
    }
  }
  Word w = sort_fields(rng, n, dt, src, dst);
  store_u32(w, 36, rng.chance(0.5) ? 0 : static_cast<uint32_t>(rng.bits()));
  w[40] = static_cast<uint8_t>(rng.below(2));
  return w;
}

// Sort of 16-bit dtypes in runs of up to 32 elements, dense, many channels (the two-vector
// runs are sorted two channels at a time and look their values up by lane permutation):
// every value drawn from a few of the dtype's edge values (NaNs with payloads, ±0, ±inf,
// the extremes), so that most keys tie, and ties of NaNs and of ±0 must keep their own
// bits in position order; sources sometimes at the very end of the partitions.
Word sort_run16_edges_word(Rng& rng, Machines& m, bool at_end) {
  const Dtype dt = rng.pick(kSort16Dtypes);
  const unsigned N = 1 + rng.below(32);
  unsigned n = random_channels(rng);
  if (N * n > 4096) n = 4096 / N;
  const unsigned K = rng.chance(0.6) ? N : 1 + rng.below(N);
  Window win;
  const unsigned p = at_end ? kPartitions - n : rng.below(kPartitions - n + 1);
  fill(rng, m, win, p, n, dt);
  const std::vector<uint32_t> edges = edge_values(dt);
  uint16_t pool[4];
  for (uint16_t& v : pool) v = static_cast<uint16_t>(edges[rng.below(edges.size())]);
  const uint32_t off = at_end ? m.a.partition_bytes(Space::SBUF) - N * 2 : 0;
  for (unsigned c = p; c < p + n; ++c)
    for (uint32_t j = 0; j < (at_end ? N : win.bytes / 2); ++j) {
      const uint16_t v = pool[rng.below(rng.chance(0.3) ? 2 : 4)];
      std::memcpy(m.a.partition(Space::SBUF, c).data() + off + 2 * j, &v, 2);
      std::memcpy(m.b.partition(Space::SBUF, c).data() + off + 2 * j, &v, 2);
    }
  TensorDesc src;
  src.dims = 1;
  src.num = {static_cast<uint16_t>(N), 1, 1};
  src.step = {1, 0, 0};
  if (at_end)
    src.addr = encode_static_addr({Space::SBUF, p, off});
  else
    place(rng, src, 2, win, p);
  const TensorDesc dst = sort_dst(rng, K, 2, win, p);
  Word w = sort_fields(rng, n, dt, src, dst);
  sort_offsets(rng, m, w, n);
  w[40] = static_cast<uint8_t>(rng.below(2));
  return w;
}

// ---- AffineSelect and Iota (kernels/affine.cc) -------------------------------------------

const Dtype kAffineData[] = {Dtype::INT8, Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16,
                             Dtype::BF16, Dtype::FP16,   Dtype::INT32,  Dtype::UINT32,
                             Dtype::FP32, Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};

// A DATA4D of `count` values: a random split over four dimensions; steps small, zero,
// negative or large (large steps make runs wrap around 2^32, the in-register path); a
// base near 0 (runs cross it), near the int32 ends, or anywhere.
TensorDesc random_ramp(Rng& rng, uint64_t count) {
  TensorDesc t;
  t.dims = 4;
  uint64_t left = count;
  for (unsigned d = 0; d < 4; ++d) {
    uint64_t n = left;
    if (d < 3) {
      std::vector<uint64_t> divs;
      for (uint64_t k = 1; k <= left && k <= 65535; ++k)
        if (left % k == 0) divs.push_back(k);
      n = rng.chance(0.4) ? (d == 0 ? left : 1) : divs[rng.below(divs.size())];
    }
    t.num[d] = static_cast<uint16_t>(n);
    left /= n;
    const int16_t steps[] = {1, -1, 0, 2, -3, 32767, -32768, 1000, -7};
    t.step[d] = rng.pick(steps);
  }
  const int64_t bases[] = {0,
                           -1,
                           1,
                           -static_cast<int64_t>(count) / 2,
                           5,
                           INT32_MAX - 3,
                           INT32_MIN + 2,
                           static_cast<int32_t>(rng.bits())};
  t.addr = static_cast<uint32_t>(rng.pick(bases) + (rng.chance(0.5) ? rng.in(-20, 20) : 0));
  return t;
}
int32_t random_multiplier(Rng& rng) {
  const int32_t ms[] = {0, 1, -1, 2, -5, 1 << 30, INT32_MIN, static_cast<int32_t>(rng.bits())};
  return rng.pick(ms);
}

Word affine_select_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0x92;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype din = large ? Dtype::FP32 : rng.pick(kAffineData);
  Dtype dout = rng.chance(0.4) ? din : rng.pick(kAffineData);
  if (large) dout = rng.chance(0.5) ? Dtype::FP32 : Dtype::BF16;
  if (!large && rng.chance(0.05)) dout = Dtype::FP32R;
  Window win;
  win.bytes = large ? 49152 : 4096;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned isz = *dtype_size(din), osz = *dtype_size(dout);
  TensorDesc src = random_walk(rng, 2, 0, large ? 10000 : 900, isz, win, p);
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  TensorDesc dst = random_walk(rng, 2, src.count(), 0, osz, win, pd);
  if (large) {  // dense rows, the fast path's best case
    src.step = {1, static_cast<int16_t>(src.num[0]), 0, 0};
    place(rng, src, isz, win, p);
    dst.num = src.num;
    dst.step = src.step;
    place(rng, dst, osz, win, pd);
  }
  fill2(rng, m, win, p, pd, n, din);
  TensorDesc mask = random_ramp(rng, src.count());
  if (large && rng.chance(0.5)) {  // the causal mask: m = c - j
    mask = TensorDesc{};
    mask.dims = 4;
    mask.step = {-1, static_cast<int16_t>(-static_cast<int>(src.num[0])), 0, 0};
    mask.num = {src.num[0], src.num[1], 1, 1};
  }
  w[12] = static_cast<uint8_t>(n);
  w[13] = static_cast<uint8_t>(static_cast<uint8_t>(din) | static_cast<uint8_t>(dout) << 4);
  w[14] = static_cast<uint8_t>(rng.below(4));
  w[15] = static_cast<uint8_t>(rng.below(64));
  const std::vector<uint32_t> edges = edge_values(Dtype::FP32);
  const uint32_t fill =
      rng.chance(0.5) ? edges[rng.below(edges.size())] : static_cast<uint32_t>(rng.bits());
  m.a.registers[w[15]] = m.b.registers[w[15]] = fill;
  store_tensor(w, 16, mask);
  store_tensor(w, 36, src);
  store_tensor(w, 48, dst);
  store_u32(w, 60, static_cast<uint32_t>(large ? 1 : random_multiplier(rng)));
  return w;
}

const Dtype kIotaOut[] = {Dtype::INT8,   Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16, Dtype::BF16,
                          Dtype::FP16,   Dtype::INT32,  Dtype::UINT32, Dtype::FP32,   Dtype::FP32R,
                          Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};

Word iota_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0x7e;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype dt = large ? (rng.chance(0.5) ? Dtype::INT32 : Dtype::FP32) : rng.pick(kIotaOut);
  const unsigned size = *dtype_size(dt);
  Window win;
  win.bytes = large ? 49152 : 4096;
  const unsigned p = rng.below(kPartitions - n + 1);
  TensorDesc dst = random_walk(rng, 4, 0, large ? 12000 : 900, size, win, p);
  fill(rng, m, win, p, n, dt);  // old contents, to be overwritten
  store_tensor(w, 12, random_ramp(rng, dst.count()));
  w[33] = static_cast<uint8_t>(dt);
  w[34] = static_cast<uint8_t>(n);
  store_u32(w, 36, static_cast<uint32_t>(random_multiplier(rng)));
  store_tensor(w, 44, dst);
  return w;
}

// Fills the window of partitions [p, p + n) of both machines with elements of `size`
// bytes that are nonzero with probability `density`: nonzero ones are edge values of
// `dt` or random bits, zero ones 0 (or -0.0 for an FP32 source, zero to NonzeroWithCount).
void fill_density(Rng& rng, Machines& m, const Window& win, unsigned p, unsigned n, Dtype dt,
                  double density, bool fp_zeros) {
  const unsigned size = *dtype_size(dt);
  const uint32_t mask = size == 4 ? ~0u : (1u << (8 * size)) - 1;
  std::vector<uint32_t> nonzero;
  for (uint32_t v : edge_values(dt))
    if ((fp_zeros ? v & 0x7fffffffu : v) != 0) nonzero.push_back(v);
  for (unsigned q = p; q < p + n && q < kPartitions; ++q) {
    m.touched.emplace_back(win.space, q);
    uint8_t* pa = m.a.partition(win.space, q).data();
    uint8_t* pb = m.b.partition(win.space, q).data();
    for (uint32_t off = 0; off + size <= win.bytes; off += size) {
      uint32_t v = 0;
      if (rng.chance(density)) {
        v = rng.chance(0.5) ? rng.pick_from(nonzero) : static_cast<uint32_t>(rng.bits()) & mask;
        if ((fp_zeros ? v & 0x7fffffffu : v) == 0) v = 1;
      } else if (fp_zeros && rng.chance(0.5)) {
        v = 0x80000000u;
      }
      std::memcpy(pa + off, &v, size);
      std::memcpy(pb + off, &v, size);
    }
  }
}

// A walk of `count` elements: dense (one row, step 1) or a random shape.
TensorDesc dense_or_random(Rng& rng, uint64_t count, unsigned elem, const Window& win, unsigned p,
                           double dense) {
  if (rng.chance(dense) && count <= 65535 && count * elem <= win.bytes) {
    TensorDesc t;
    t.dims = 3;
    t.step = {1, 0, 0};
    t.num = {static_cast<uint16_t>(count), 1, 1};
    place(rng, t, elem, win, p);
    return t;
  }
  return random_walk(rng, 3, count, 0, elem, win, p);
}

// A count: small, around a multiple of the vector widths, or up to `max`.
uint64_t random_count(Rng& rng, uint64_t max) {
  if (rng.chance(0.3)) return 1 + rng.below(20);
  if (rng.chance(0.4)) {
    const uint64_t c = 16 * (1 + rng.below(std::max<uint64_t>(1, max / 16 - 1))) + rng.in(-1, 1);
    return std::clamp<uint64_t>(c, 1, max);
  }
  return 1 + rng.below(max);
}

const double kDensities[] = {0.0, 0.01, 0.5, 0.99, 1.0};

Word nonzero_with_count_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0xf2;
  w[1] = 0x10;
  const unsigned n = large ? 1 + 16 * rng.below(8) : random_channels(rng);
  const bool fp = rng.chance(0.5);
  Window win;
  win.bytes = large ? 65536 : 4096;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.5) ? p : rng.below(kPartitions - n + 1);
  const uint64_t t = random_count(rng, large ? 12000 : 500);
  const double dense = rng.chance(0.4) ? 1.0 : 0.3;
  TensorDesc src = dense_or_random(rng, t, 4, win, p, dense);
  TensorDesc dst = dense_or_random(rng, src.count() + 1, 4, win, pd, dense);
  const double density = rng.pick(kDensities);
  // The destination first, so that the source's values win where the two overlap.
  fill(rng, m, win, pd, n, Dtype::INT32);
  fill_density(rng, m, win, p, n, fp ? Dtype::FP32 : Dtype::INT32, density, fp);
  w[12] = static_cast<uint8_t>(n);
  w[13] = fp ? 0x0a : 0x08;
  w[14] = 0x08;
  store_tensor(w, 16, src);
  for (unsigned k = 0; k < 2; ++k) {  // index_offset (byte 15, 32), padding_val (36, 40)
    const unsigned src_at = k == 0 ? 15 : 36, val_at = k == 0 ? 32 : 40;
    auto value = [&] {
      const uint32_t vs[] = {0u, 16u, 0xffffffffu, 0xfffffff0u, 0x80000000u};
      return rng.chance(0.5) ? rng.pick(vs) : static_cast<uint32_t>(rng.bits());
    };
    if (rng.chance(0.25)) {
      w[src_at] = 1;
      const uint32_t off = rng.below(win.bytes / 4) * 4;
      const unsigned pp = rng.below(kPartitions - n + 1);
      store_u32(w, val_at, encode_static_addr({win.space, pp, off}));
      for (unsigned c = 0; c < n; ++c) {
        const uint32_t v = value();
        std::memcpy(m.a.partition(win.space, pp + c).data() + off, &v, 4);
        std::memcpy(m.b.partition(win.space, pp + c).data() + off, &v, 4);
        m.touched.emplace_back(win.space, pp + c);
      }
    } else {
      store_u32(w, val_at, value());
    }
  }
  store_tensor(w, 44, dst);
  return w;
}

const Dtype kPredDtypes[] = {Dtype::INT8,   Dtype::UINT8, Dtype::INT16,
                             Dtype::UINT16, Dtype::INT32, Dtype::UINT32};

Word copy_predicated_scalar_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0xe8;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype pdt = rng.pick(kPredDtypes);
  // Same widths half the time: the masked-store path needs them.
  Dtype dt = rng.pick(kTssDtypes);
  if (rng.chance(0.5)) {
    const unsigned ps = *dtype_size(pdt);
    dt = ps == 1 ? Dtype::FP8_E4 : ps == 2 ? Dtype::BF16 : Dtype::FP32;
    if (rng.chance(0.5)) dt = pdt;
  }
  const unsigned psize = *dtype_size(pdt), size = *dtype_size(dt);
  Window win;
  win.bytes = large ? 49152 : 4096;
  if (!large && size == 4 && rng.chance(0.15)) win.space = Space::PSUM;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  const uint64_t t = random_count(rng, large ? 10000 : 900);
  // Both dense (the masked-store path) about half the time.
  const double dense = rng.chance(0.5) ? 1.0 : 0.3;
  TensorDesc pred = dense_or_random(rng, t, psize, win, p, dense);
  TensorDesc dst = dense_or_random(rng, pred.count(), size, win, pd, dense);
  if (psize == size && rng.chance(0.15)) {  // exactly on the predicate
    dst = pred;
    dst.addr = encode_static_addr(
        {win.space, pd, check_static_addr(pred.addr, Generation::V3).loc.offset});
  }
  fill(rng, m, win, pd, n, dt);
  fill_density(rng, m, win, p, n, pdt, rng.pick(kDensities), false);
  store_tensor(w, 16, pred);
  w[32] = static_cast<uint8_t>(pdt);
  w[33] = static_cast<uint8_t>(rng.below(2));
  w[34] = static_cast<uint8_t>(n);
  w[41] = w[42] = static_cast<uint8_t>(dt);
  const uint32_t mask = size == 4 ? ~0u : (1u << (8 * size)) - 1;
  const std::vector<uint32_t> edges = edge_values(dt);
  auto scalar = [&] {
    return rng.chance(0.5) ? rng.pick_from(edges) : static_cast<uint32_t>(rng.bits()) & mask;
  };
  if (rng.chance(0.3)) {
    w[43] = 1;
    const uint32_t off = rng.below(win.bytes / size) * size;
    const unsigned pp = rng.below(kPartitions - n + 1);
    store_u32(w, 44, encode_static_addr({win.space, pp, off}));
    for (unsigned c = 0; c < n; ++c) {
      const uint32_t v = scalar();
      std::memcpy(m.a.partition(win.space, pp + c).data() + off, &v, size);
      std::memcpy(m.b.partition(win.space, pp + c).data() + off, &v, size);
      m.touched.emplace_back(win.space, pp + c);
    }
  } else {
    store_u32(w, 44, scalar());
  }
  store_tensor(w, 48, dst);
  return w;
}

// ---- the DVE search instructions (SPEC §4.7-§4.10) ----

const Dtype kSearchIn[] = {Dtype::FP32,   Dtype::BF16,  Dtype::FP16,  Dtype::FP8_E3, Dtype::FP8_E4,
                           Dtype::FP8_E5, Dtype::INT32, Dtype::UINT8, Dtype::INT16,  Dtype::UINT32};
const Dtype kMrDtypes[] = {Dtype::FP16,   Dtype::BF16, Dtype::UINT8, Dtype::UINT16,
                           Dtype::UINT32, Dtype::FP32, Dtype::INT32};

// A source of 8..max elements (4-D), filled with runs (ties) and edge values.
TensorDesc search_source(Rng& rng, Machines& m, const Window& win, unsigned p, unsigned n, Dtype dt,
                         uint64_t min, uint64_t max) {
  const unsigned size = *dtype_size(dt);
  fill(rng, m, win, p, n, dt, true);
  const uint64_t t = std::max<uint64_t>(min, random_count(rng, max));
  if (rng.chance(0.5) && t * size <= win.bytes) {
    TensorDesc s;
    s.dims = 4;
    s.step = {1, 0, 0, 0};
    s.num = {static_cast<uint16_t>(t), 1, 1, 1};
    place(rng, s, size, win, p);
    return s;
  }
  return random_walk(rng, 4, t, 0, size, win, p);
}

// Search lanes p..p+n-1 of both machines: match values taken from the source (so that
// they match), NaNs and -0.0 among them, and sometimes flags and indices left set.
void random_lanes(Rng& rng, Machines& m, const TensorDesc& src, Dtype dt, unsigned p, unsigned n) {
  const unsigned size = *dtype_size(dt);
  const Location loc = check_static_addr(src.addr, Generation::V3).loc;
  const Walk walk = Walk::of(src, loc.offset, size);
  std::vector<uint32_t> offs;
  walk.for_each([&](uint64_t, uint32_t off) { offs.push_back(off); });
  for (unsigned c = 0; c < n; ++c) {
    MatchLane l;
    const uint8_t* part = m.a.partition(loc.space, p + c).data();
    for (unsigned s = 0; s < 8; ++s) {
      uint32_t bits = 0;
      std::memcpy(&bits, part + offs[rng.below(offs.size())], size);
      l.mv[s] = to_fp32(dt, bits);
      if (rng.chance(0.05)) l.mv[s] = rng.chance(0.5) ? 0x7fc00000u : 0x80000000u;
      if (rng.chance(0.1)) l.mv[s] = static_cast<uint32_t>(rng.bits());
    }
    if (rng.chance(0.3)) {
      l.matched = static_cast<uint8_t>(rng.bits());
      for (unsigned s = 0; s < 8; ++s)
        if ((l.matched >> s) & 1u) l.idx[s] = static_cast<uint32_t>(rng.below(20000));
    }
    m.a.match[p + c] = m.b.match[p + c] = l;
  }
}

Word s4d2_word(Rng& rng, Machines& m, bool large, uint8_t opcode) {
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype din = large ? (rng.chance(0.5) ? Dtype::FP32 : Dtype::BF16) : rng.pick(kSearchIn);
  const Dtype dout =
      opcode == 0x6e ? (rng.chance(0.5) ? Dtype::UINT16 : Dtype::UINT32) : rng.pick(kIotaOut);
  Window win;
  win.bytes = large ? 65536 : 4096;
  if (!large && rng.chance(0.15)) win.space = Space::PSUM;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned pd = rng.below(kPartitions - n + 1);
  const TensorDesc src = search_source(rng, m, win, p, n, din, 8, large ? 16384 : 900);
  const Dtype dst_dt = win.space == Space::PSUM ? Dtype::UINT32 : dout;
  Window dwin = win;
  if (win.space == Space::PSUM && *dtype_size(dout) != 4) dwin.space = Space::SBUF;
  fill(rng, m, dwin, pd, n, dst_dt);
  const TensorDesc dst = random_walk(rng, 2, 8, 0, *dtype_size(dout), dwin, pd);
  if (opcode == 0x6e) random_lanes(rng, m, src, din, p, n);
  store_tensor(w, 12, src);
  w[32] = static_cast<uint8_t>(din);
  w[33] = static_cast<uint8_t>(dout);
  w[34] = static_cast<uint8_t>(n);
  store_tensor(w, 48, dst);
  return w;
}
Word max8_word(Rng& rng, Machines& m, bool large) {
  return s4d2_word(rng, m, large, 0x6c);
}
Word find_index8_word(Rng& rng, Machines& m, bool large) {
  return s4d2_word(rng, m, large, 0x6e);
}

Word match_replace8_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0x6f;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype din = large ? (rng.chance(0.5) ? Dtype::FP32 : Dtype::BF16) : rng.pick(kMrDtypes);
  const Dtype dout = large ? din : rng.pick(kMrDtypes);
  Window win;
  win.bytes = large ? 65536 : 4096;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.5) ? p : rng.below(kPartitions - n + 1);
  const TensorDesc src = search_source(rng, m, win, p, n, din, 1, large ? 16384 : 900);
  if (pd != p) fill(rng, m, win, pd, n, dout);
  const TensorDesc dst = random_walk(rng, 4, src.count(), 0, *dtype_size(dout), win, pd);
  random_lanes(rng, m, src, din, p, n);
  store_tensor(w, 12, src);
  w[32] = static_cast<uint8_t>(din);
  w[33] = static_cast<uint8_t>(dout);
  w[34] = static_cast<uint8_t>(n);
  const std::vector<uint32_t> edges = edge_values(Dtype::FP32);
  store_u32(w, 40, rng.chance(0.5) ? rng.pick_from(edges) : static_cast<uint32_t>(rng.bits()));
  store_tensor(w, 44, dst);
  return w;
}

using WordMaker = Word (*)(Rng&, Machines&, bool);

void run_random(const char* name, WordMaker make, uint64_t seed, int all_cases, int large_cases,
                Machines& m = machines()) {
  for_each_target([&](bool best) {
    // The best target gets every case; the others, which share the code but not the
    // vector widths, a third (each scaled by GPSIMD_RANDOM_CASES, tests/test_effort.h).
    const int cases = static_cast<int>(
        test_effort::random_cases(static_cast<unsigned>(best ? all_cases : all_cases / 3)));
    const int large =
        static_cast<int>(test_effort::random_cases(static_cast<unsigned>(large_cases)));
    Rng rng(seed);
    Counts counts;
    for (int i = 0; i < cases + large; ++i) {
      m.touched.clear();
      const Word w = make(rng, m, i >= cases);
      SCOPED_TRACE(testing::Message() << name << " case " << i);
      run_both(m, w, counts, i % 64 == 0 || i >= cases);
      if (testing::Test::HasFatalFailure()) return;
    }
    // The generator must mostly make words that run, or the comparison proves little.
    EXPECT_GT(counts.retired, (cases + large) * 3 / 4)
        << name << ": retired " << counts.retired << ", invalid " << counts.invalid << ", faulted "
        << counts.faulted;
    std::printf("[ %-18s ] %-6s %d words retired, %d invalid, %d faulted\n", name,
                kernels::simd::target_name(), counts.retired, counts.invalid, counts.faulted);
  });
}

TEST(KernelsEquivTest, RangeSelect) {
  run_random("RangeSelect", range_select_word, 11, 400, 4);
}
TEST(KernelsEquivTest, TensorScalarSelect) {
  run_random("TensorScalarSelect", tensor_scalar_select_word, 12, 400, 4);
}
TEST(KernelsEquivTest, GetSequenceBounds) {
  run_random("GetSequenceBounds", sequence_bounds_word, 13, 400, 6);
}
// Segments of every length (one id to thousands, so that runs span many vector blocks),
// padding runs and, as FP32, -0.0 (padding too), NaN (never equal) and infinities; over
// whole partitions, where the fast path streams its output when it is aligned.
TEST(KernelsEquivTest, GetSequenceBoundsLongRuns) {
  Machines& m = machines();
  for_each_target([&](bool best) {
    Rng rng(17);
    Counts counts;
    const auto cases = static_cast<int>(test_effort::random_cases(best ? 48 : 16));
    for (int i = 0; i < cases; ++i) {
      m.touched.clear();
      const bool fp_in = rng.chance(0.5), fp_out = rng.chance(0.5);
      // Dense sources, and sources every other, third or fourth id, up or down (read by
      // contiguous loads and permutes); around the vector widths, the 64-id words of
      // the marks, and the 4096-id chunks of the first pass.
      const int16_t steps[] = {1, 1, 1, -1, 2, -2, 3, -3, 4, -4};
      const int16_t step = rng.pick(steps);
      const uint32_t sizes[] = {16000, 8192, 8208, 8195, 12345, 4095, 4096, 4097,
                                16,    100,  1000, 63,   64,    65,   97,   129};
      const auto stride = static_cast<uint32_t>(std::abs(step));
      uint32_t n = rng.pick(sizes);
      if (stride > 1) n = std::min<uint32_t>(n, 8191 * 4 / (stride + 2));
      const uint32_t span = n * stride * 4;
      const unsigned p = rng.below(kPartitions);
      uint8_t* pa = m.a.partition(Space::SBUF, p).data();
      uint8_t* pb = m.b.partition(Space::SBUF, p).data();
      m.touched.emplace_back(Space::SBUF, p);
      const uint32_t fp_ids[] = {0x80000000u, 0x7fc00000u, 0xffc00001u, 0x7f800000u, 0xff800000u};
      const uint32_t first = step < 0 ? span - stride * 4 : 0;  // ordinal 0's offset
      uint32_t next_id = 1;
      for (uint32_t k = 0; k < n;) {
        const uint32_t lengths[] = {1, 2, 7, 15, 16, 17, 31, 33, 64, 100, 1000, 5000};
        const uint32_t len =
            std::min<uint32_t>(n - k, rng.chance(0.3) ? 1 + rng.below(20) : rng.pick(lengths));
        uint32_t id = next_id++;
        if (fp_in) id = std::bit_cast<uint32_t>(static_cast<float>(id));
        if (rng.chance(0.15)) id = 0;
        if (fp_in && rng.chance(0.15)) id = rng.pick(fp_ids);
        for (uint32_t e = 0; e < len; ++e, ++k) {
          const uint32_t off = first + static_cast<uint32_t>(int64_t{k} * step * 4);
          std::memcpy(pa + off, &id, 4);
          std::memcpy(pb + off, &id, 4);
        }
      }
      Word w = sequence_bounds_head(fp_in, fp_out);
      TensorDesc src, dst;
      src.dims = 3;
      src.step = {step, 0, 0};
      src.num = {static_cast<uint16_t>(n), 1, 1};
      src.addr = encode_static_addr({Space::SBUF, p, first});
      // Halves dense one after the other at a 64-byte boundary, or 4 bytes past one.
      const uint32_t dst_off = std::max<uint32_t>(65536, (span + 63) / 64 * 64);
      dst.dims = 3;
      dst.step = {1, 0, static_cast<int16_t>(n)};
      dst.num = {static_cast<uint16_t>(n), 1, 2};
      dst.addr = encode_static_addr({Space::SBUF, p, dst_off + (rng.chance(0.7) ? 0u : 4u)});
      store_tensor(w, 16, src);
      store_tensor(w, 32, dst);
      SCOPED_TRACE(testing::Message() << "case " << i << " n " << n << " step " << step);
      run_both(m, w, counts, true);
      if (testing::Test::HasFatalFailure()) return;
    }
    EXPECT_EQ(counts.retired, cases);
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
    const WordMaker makers[] = {range_select_word, tensor_scalar_select_word, sequence_bounds_word};
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

TEST(KernelsEquivTest, Sort) {
  run_random("Sort", sort_word, 14, 400, 14);
}
// Densities 0, 1, 50, 99 and 100 %, INT32 and FP32 (-0.0, NaN, subnormals), dense and
// strided walks, lengths around the vector widths, 1 to 128 channels from any partition.
// Every source dtype (floats through the kernels, integers through the reference), ties
// and NaNs, walks of 8 to 16384 elements in SBUF and PSUM, lanes with match values from
// the source, NaN and -0.0 keys, and flags left set by an earlier search.
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
TEST(KernelsEquivTest, Max8) {
  run_random("Max8", max8_word, 21, 600, 8);
}
TEST(KernelsEquivTest, FindIndex8) {
  run_random("FindIndex8", find_index8_word, 22, 600, 8);
}
TEST(KernelsEquivTest, MatchReplace8) {
  run_random("MatchReplace8", match_replace8_word, 23, 600, 8);
}
TEST(KernelsEquivTest, NonzeroWithCount) {
  run_random("NonzeroWithCount", nonzero_with_count_word, 17, 600, 12);
}
// Every predicate width with every data width, dense and strided, both polarities, in
// SBUF and PSUM, and destinations on or beside the predicate.
TEST(KernelsEquivTest, CopyPredicatedScalar) {
  run_random("CopyPredicatedScalar", copy_predicated_scalar_word, 18, 900, 8);
}
TEST(KernelsEquivTest, SortSmallRuns) {
  run_random("SortSmallRuns", sort_run_word, 16, 600, 40);
}
TEST(KernelsEquivTest, SortSmallRuns16Edges) {
  run_random("SortSmallRuns16Edges", sort_run16_edges_word, 41, 600, 40);
}
TEST(KernelsEquivTest, SortNarrowRuns) {
  run_random("SortNarrowRuns", sort_narrow_word, 29, 600, 40);
}
// ---- Copy and Cast (SPEC §4.16, §4.17) ---------------------------------------------------

const Dtype kCopyData[] = {Dtype::INT8, Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16,
                           Dtype::BF16, Dtype::FP16,   Dtype::INT32,  Dtype::UINT32,
                           Dtype::FP32, Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};

// A Copy (0x46) or Cast (0x47) word of dtypes in -> out on any engine (PSUM when it is
// not POOL), 4-D walks of every shape random_walk makes; `large`: 128 channels of
// thousands of elements, dense or with a transposed inner pair.
Word copy_cast_word_of(Rng& rng, Machines& m, bool large, uint8_t opcode, Dtype din, Dtype dout) {
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  const Engine engines[] = {Engine::POOL, Engine::DVE, Engine::ACT};
  m.engine = rng.chance(0.2) ? std::nullopt : std::optional<Engine>(rng.pick(engines));
  const unsigned n = large ? 128 : random_channels(rng);
  Window win;
  win.bytes = large ? 40960 : 4096;
  const unsigned isz = *dtype_size(din), osz = *dtype_size(dout);
  if (!large && m.engine && *m.engine != Engine::POOL && osz == 4 && rng.chance(0.3))
    win.space = Space::PSUM;
  const unsigned p = rng.below(kPartitions - n + 1);
  TensorDesc src = random_walk(rng, 4, 0, large ? 9000 : 900, isz, win, p);
  force_source(rng, src, isz, win, p);
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  TensorDesc dst = random_walk(rng, 4, src.count(), 0, osz, win, pd);
  if (large) {
    // rows x cols, read row by row (dense) or column by column (the transposed pair).
    const uint16_t cols = static_cast<uint16_t>(64 + rng.below(64)), rows = 70;
    const bool transposed = rng.chance(0.5);
    src = TensorDesc{};
    src.dims = 4;
    src.num = {transposed ? rows : cols, transposed ? cols : rows, 1, 1};
    src.step = {transposed ? static_cast<int16_t>(cols) : int16_t{1},
                transposed ? int16_t{1} : static_cast<int16_t>(cols), 0, 0};
    place(rng, src, isz, win, p);
    dst = TensorDesc{};
    dst.dims = 4;
    dst.num = {static_cast<uint16_t>(rows * cols), 1, 1, 1};
    dst.step = {1, 0, 0, 0};
    place(rng, dst, osz, win, pd);
  }
  fill2(rng, m, win, p, pd, n, din);
  store_tensor(w, 12, src);
  w[32] = static_cast<uint8_t>(din);
  w[33] = static_cast<uint8_t>(dout);
  w[34] = static_cast<uint8_t>(n);
  w[37] = rng.chance(0.2) ? 2 : 0;
  store_tensor(w, 44, dst);
  return w;
}
Word copy_word(Rng& rng, Machines& m, bool large) {
  const Dtype dt = rng.pick(kCopyData);
  return copy_cast_word_of(rng, m, large, 0x46, dt, dt);
}
Word cast_word(Rng& rng, Machines& m, bool large) {
  const Dtype in = rng.pick(kCopyData);
  Dtype out = rng.chance(0.3) ? in : rng.pick(kCopyData);
  if (rng.chance(0.05)) out = Dtype::FP32R;
  return copy_cast_word_of(rng, m, large, 0x47, in, out);
}
TEST(KernelsEquivTest, Copy) {
  run_random("Copy", copy_word, 31, 600, 6);
}
TEST(KernelsEquivTest, Cast) {
  run_random("Cast", cast_word, 32, 900, 8);
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

TEST(KernelsEquivTest, AffineSelect) {
  run_random("AffineSelect", affine_select_word, 18, 600, 8);
}
TEST(KernelsEquivTest, Iota) {
  run_random("Iota", iota_word, 19, 600, 8);
}
// The in-register comparison of a wrapping run, directly against the rule, on every
// target: every fill mode, run lengths around the vector widths, steps that wrap.
TEST(KernelsEquivTest, AffineSelectRunInRegisters) {
  Rng rng(20);
  for_each_target([&](bool) {
    for (int i = 0; i < 2000; ++i) {
      const size_t len = 1 + rng.below(70);
      std::vector<uint32_t> in(len), out(len);
      for (uint32_t& v : in) v = static_cast<uint32_t>(rng.bits());
      const uint32_t v0 = static_cast<uint32_t>(rng.bits());
      const uint32_t steps[] = {1u,          0xffffffffu, 0x7fffu,
                                0xffff8000u, 0u,          static_cast<uint32_t>(rng.bits())};
      const uint32_t step = rng.pick(steps);
      const uint8_t mode = static_cast<uint8_t>(rng.below(4));
      const uint32_t fill = static_cast<uint32_t>(rng.bits());
      kernels::affine_simd::select_run32(reinterpret_cast<const uint8_t*>(in.data()), len, v0, step,
                                         mode, fill, reinterpret_cast<uint8_t*>(out.data()));
      for (size_t k = 0; k < len; ++k) {
        const auto v = static_cast<int32_t>(v0 + static_cast<uint32_t>(k) * step);
        const bool keep = mode == 0 ? v > 0 : mode == 1 ? v >= 0 : mode == 2 ? v == 0 : v != 0;
        ASSERT_EQ(out[k], keep ? in[k] : fill) << "mode " << int{mode} << " k " << k;
      }
    }
  });
}
// ---- the ALU instructions: TensorTensor, TensorScalar -------------------------------------

// V5 machines: every ALU op exists there (ABS_MAX, ABS_MIN, RE_LU and SQUARE from V4 on).
Machines& alu_machines() {
  static Machines m{Generation::V5};
  return m;
}

// A random op of the ALU_OP table for which pred holds.
template <class Pred>
uint8_t pick_op(Rng& rng, Pred pred) {
  std::vector<uint8_t> ops;
  for (const alu::OpRow& r : alu::kOps)
    if (pred(r.code)) ops.push_back(r.code);
  return rng.pick_from(ops);
}

// Fills an ALU operand's window: each dtype's edge values (NaN payloads, ±0, ±inf,
// subnormals, extremes), integers around 2^24 and 2^31 where FP32 rounds, shift counts
// below, at and above the width (and "negative" ones), random bits.
void alu_fill(Rng& rng, Machines& m, const Window& win, unsigned p, unsigned n, Dtype dt) {
  const unsigned size = dtype_size(dt).value_or(4), width = 8 * size;
  const uint32_t mask = size == 4 ? ~0u : (1u << width) - 1;
  const std::vector<uint32_t> edges = edge_values(dt);
  const uint32_t ints[] = {0x01000001u, 0x01000000u, 0x00ffffffu, 0xfeffffffu, 0x01000003u,
                           0x7fffff80u, 0x80000080u, 0x4b000001u, 0xffffff81u, 0x0000d251u};
  for (unsigned q = p; q < p + n; ++q) {
    m.touched.emplace_back(win.space, q);
    uint8_t* pa = m.a.partition(win.space, q).data();
    uint8_t* pb = m.b.partition(win.space, q).data();
    for (uint32_t off = 0; off + size <= win.bytes; off += size) {
      const uint64_t r = rng.bits();
      const uint32_t roll = static_cast<uint32_t>(r >> 32) % 100;
      uint32_t v = static_cast<uint32_t>(r);
      if (roll < 35)
        v = edges[(r >> 40) % edges.size()];
      else if (roll < 50)
        v = ints[(r >> 40) % std::size(ints)];
      else if (roll < 68)
        v = static_cast<uint32_t>((r >> 40) % (2 * width + 2));
      else if (roll < 71)
        v = mask - static_cast<uint32_t>((r >> 40) % 3);
      v &= mask;
      std::memcpy(pa + off, &v, size);
      std::memcpy(pb + off, &v, size);
    }
  }
}

// A walk for an ALU operand: random_walk's shapes, or (often) a dense one, which the
// kernels read in place.
TensorDesc alu_walk(Rng& rng, uint64_t count, uint64_t max_count, unsigned elem, const Window& win,
                    unsigned p) {
  TensorDesc t = random_walk(rng, 3, count, max_count, elem, win, p);
  if (rng.chance(0.4)) {
    int64_t inner = 1;
    for (unsigned d = 0; d < t.dims; ++d) {
      t.step[d] = static_cast<int16_t>(inner);
      inner *= t.num[d];
    }
    place(rng, t, elem, win, p);
  }
  return t;
}

const Dtype kAluDtypes[] = {Dtype::INT8,  Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16,
                            Dtype::INT32, Dtype::UINT32, Dtype::BF16,   Dtype::FP16,
                            Dtype::FP32,  Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};
const Dtype kAluIntDtypes[] = {Dtype::INT8,   Dtype::UINT8, Dtype::INT16,
                               Dtype::UINT16, Dtype::INT32, Dtype::UINT32};

// The engine input: mostly the ones that run the word, sometimes the default or ACT.
std::optional<Engine> alu_engine(Rng& rng, double pool) {
  const double r = static_cast<double>(rng.below(1000)) / 1000;
  if (r < pool) return Engine::POOL;
  if (r < pool + 0.04) return Engine::ACT;
  if (r < pool + 0.14) return std::nullopt;
  return Engine::DVE;
}

// The window of one operand: SBUF, or PSUM when allowed (4096 bytes, so that operands
// overlap often); large cases fill 32 KiB of SBUF.
Window alu_window(Rng& rng, bool large, bool psum_ok) {
  Window win;
  win.bytes = large ? 32768 : 4096;
  if (!large && psum_ok && rng.chance(0.2)) win.space = Space::PSUM;
  return win;
}

Word tensor_tensor_word(Rng& rng, Machines& m, bool large, bool bitvec) {
  Word w{};
  w[0] = bitvec ? 0x51 : 0x41;
  w[1] = 0x10;
  m.engine = alu_engine(rng, 0.3);
  const bool pool = m.engine == Engine::POOL;
  const unsigned n = large ? 128 : random_channels(rng);
  uint8_t op;
  Dtype lo, hi, out;
  if (bitvec) {
    op = pick_op(rng, alu::is_general_bitvec_op);
    lo = hi = out = rng.pick(kAluIntDtypes);
  } else if (!large && rng.chance(pool ? 0.5 : 0.04)) {
    // The integer band: three signed or three unsigned dtypes, as the op allows.
    op = pick_op(rng, [](uint8_t o) { return alu::is_valid_int_aluop(o); });
    const bool sgn = alu::is_signed_alu_op(op) && (!alu::is_unsigned_alu_op(op) || rng.chance(0.5));
    const Dtype s[] = {Dtype::INT8, Dtype::INT16, Dtype::INT32, Dtype::INT32};
    const Dtype u[] = {Dtype::UINT8, Dtype::UINT16, Dtype::UINT32, Dtype::UINT32};
    lo = sgn ? rng.pick(s) : rng.pick(u);
    hi = sgn ? rng.pick(s) : rng.pick(u);
    out = sgn ? rng.pick(s) : rng.pick(u);
  } else {
    op = pick_op(rng, [](uint8_t o) { return alu::is_general_arith_op(o); });
    if (!large && rng.chance(0.02)) op = static_cast<uint8_t>(AluOp::POW);  // unsupported-op
    const Dtype i32[] = {Dtype::INT32, Dtype::UINT32};
    const bool native = rng.chance(pool ? 0.5 : 0.2);  // 32-bit integers: native on POOL
    lo = large ? Dtype::FP32 : native ? rng.pick(i32) : rng.pick(kAluDtypes);
    hi = large ? Dtype::FP32 : native ? rng.pick(i32) : rng.pick(kAluDtypes);
    out = large    ? (rng.chance(0.5) ? Dtype::FP32 : Dtype::BF16)
          : native ? rng.pick(i32)
                   : rng.pick(kAluDtypes);
  }
  const unsigned s0 = *dtype_size(lo), s1 = *dtype_size(hi), sd = *dtype_size(out);
  const Window w0 = alu_window(rng, large, !pool);
  const Window w1 = alu_window(rng, large, !pool && w0.space != Space::PSUM);
  const Window wd = alu_window(rng, large, !pool && sd == 4);
  const unsigned p0 = rng.below(kPartitions - n + 1);
  const unsigned p1 = rng.chance(0.5) ? p0 : rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.6) ? p0 : rng.below(kPartitions - n + 1);
  const TensorDesc src0 = alu_walk(rng, 0, large ? 8000 : 600, s0, w0, p0);
  const TensorDesc src1 = alu_walk(rng, src0.count(), 0, s1, w1, p1);
  const TensorDesc dst = alu_walk(rng, src0.count(), 0, sd, wd, pd);
  alu_fill(rng, m, wd, pd, n, out);
  alu_fill(rng, m, w0, p0, n, lo);
  alu_fill(rng, m, w1, p1, n, hi);
  w[12] = static_cast<uint8_t>(static_cast<uint8_t>(lo) | static_cast<uint8_t>(hi) << 4);
  w[13] = static_cast<uint8_t>(out);
  w[14] = op;
  w[15] = static_cast<uint8_t>(n);
  store_tensor(w, 16, src0);
  store_tensor(w, 32, src1);
  store_tensor(w, 48, dst);
  return w;
}
Word tensor_tensor_arith_word(Rng& rng, Machines& m, bool large) {
  return tensor_tensor_word(rng, m, large, false);
}
Word tensor_tensor_bitvec_word(Rng& rng, Machines& m, bool large) {
  return tensor_tensor_word(rng, m, large, true);
}

Word tensor_scalar_word(Rng& rng, Machines& m, bool large, uint8_t opcode) {
  const bool bitvec = opcode == 0x53 || opcode == 0x54;
  const bool pointer = opcode == 0x44 || opcode == 0x54;
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  m.engine = alu_engine(rng, 0.04);
  const bool pool = m.engine == Engine::POOL;
  const unsigned n = large ? 128 : random_channels(rng);
  Dtype din, dout;
  uint8_t op0, op1;
  if (bitvec) {
    din = dout = rng.pick(kAluIntDtypes);
    op0 = pick_op(rng, alu::is_general_bitvec_op);
    op1 = pick_op(rng, alu::is_general_bitvec_op);
    if (!large && rng.chance(0.02)) op1 = static_cast<uint8_t>(AluOp::CRC32);  // unsupported-op
    if (*dtype_size(din) <= 2) {  // tensor_scalar_shift_chk
      const auto asr = static_cast<uint8_t>(AluOp::ARITH_SHIFT_RIGHT);
      const auto lsr = static_cast<uint8_t>(AluOp::LOGICAL_SHIFT_RIGHT);
      const auto lsl = static_cast<uint8_t>(AluOp::LOGICAL_SHIFT_LEFT);
      if (op0 == asr) op0 = lsr;
      if (op1 == asr) op1 = lsr;
      if ((op0 == lsl || op0 == static_cast<uint8_t>(AluOp::ARITH_SHIFT_LEFT)) && op1 == lsr)
        op1 = lsl;
    }
  } else {
    din = large ? (rng.chance(0.5) ? Dtype::FP32 : Dtype::BF16) : rng.pick(kAluDtypes);
    dout = large ? din : rng.pick(kAluDtypes);
    op0 = pick_op(rng, [](uint8_t o) { return alu::is_general_arith_op(o); });
    op1 = pick_op(rng, [](uint8_t o) { return alu::is_general_arith_op(o); });
    if (!large && rng.chance(0.02)) {  // the V5 integer arm: valid, unsupported-op on dve
      op0 = pick_op(rng, [](uint8_t o) { return alu::is_valid_int_aluop_dve(o) && o != 0; });
      op1 = static_cast<uint8_t>(AluOp::ADD_INT);
    }
  }
  if (op0 == 0 && op1 != 0 && rng.chance(0.9)) std::swap(op0, op1);
  const unsigned si = *dtype_size(din), so = *dtype_size(dout);
  const Window ws = alu_window(rng, large, !pool);
  const Window wd = alu_window(rng, large, !pool && so == 4);
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.6) ? p : rng.below(kPartitions - n + 1);
  const TensorDesc src = alu_walk(rng, 0, large ? 8000 : 900, si, ws, p);
  const TensorDesc dst = alu_walk(rng, src.count(), 0, so, wd, pd);
  alu_fill(rng, m, wd, pd, n, dout);
  alu_fill(rng, m, ws, p, n, din);
  w[32] = static_cast<uint8_t>(din);
  w[33] = static_cast<uint8_t>(dout);
  w[34] = static_cast<uint8_t>(n);
  w[36] = op0;
  w[37] = op1;
  w[38] = static_cast<uint8_t>(rng.below(4));
  // The scalars: FP32 patterns (arithmetic) or in_dtype-wide bits (bitvec), as immediates
  // or per-channel pointers into the source's window (overlapping it and, often, the
  // destination).
  const std::vector<uint32_t> fp_edges = edge_values(Dtype::FP32);
  const unsigned width = bitvec ? si : 4, bits = 8 * width;
  const uint32_t mask = width == 4 ? ~0u : (1u << bits) - 1;
  auto scalar = [&] {
    if (!bitvec)
      return rng.chance(0.6) ? rng.pick_from(fp_edges) : static_cast<uint32_t>(rng.bits());
    const uint32_t counts[] = {0u, 1u, bits - 1, bits, bits + 1, 2 * bits, mask};
    return (rng.chance(0.5) ? rng.pick(counts) : static_cast<uint32_t>(rng.bits())) & mask;
  };
  for (unsigned k = 0; k < 2; ++k) {
    const unsigned at = 40 + 4 * k;
    if (pointer || rng.chance(0.35)) {
      w[k == 0 ? 35 : 39] = pointer ? 0 : 1;
      const unsigned pp = rng.chance(0.5) ? pd : rng.below(kPartitions - n + 1);
      const uint32_t off = rng.below(ws.bytes / width) * width;
      store_u32(w, at, encode_static_addr({ws.space, pp, off}));
      for (unsigned c = 0; c < n; ++c) {
        const uint32_t v = scalar();
        std::memcpy(m.a.partition(ws.space, pp + c).data() + off, &v, width);
        std::memcpy(m.b.partition(ws.space, pp + c).data() + off, &v, width);
        m.touched.emplace_back(ws.space, pp + c);
      }
    } else {
      store_u32(w, at, scalar());
    }
  }
  store_tensor(w, 16, src);
  store_tensor(w, 48, dst);
  return w;
}
Word tensor_scalar_arith_word(Rng& rng, Machines& m, bool large) {
  return tensor_scalar_word(rng, m, large, 0x43);
}
Word tensor_scalar_bitvec_word(Rng& rng, Machines& m, bool large) {
  return tensor_scalar_word(rng, m, large, 0x53);
}
Word tensor_scalar_ptr_arith_word(Rng& rng, Machines& m, bool large) {
  return tensor_scalar_word(rng, m, large, 0x44);
}
Word tensor_scalar_ptr_bitvec_word(Rng& rng, Machines& m, bool large) {
  return tensor_scalar_word(rng, m, large, 0x54);
}

TEST(KernelsEquivTest, TensorTensorArith) {
  run_random("TensorTensorArith", tensor_tensor_arith_word, 31, 600, 8, alu_machines());
}
TEST(KernelsEquivTest, TensorTensorBitvec) {
  run_random("TensorTensorBitvec", tensor_tensor_bitvec_word, 32, 400, 6, alu_machines());
}
TEST(KernelsEquivTest, TensorScalarArith) {
  run_random("TensorScalarArith", tensor_scalar_arith_word, 33, 600, 8, alu_machines());
}
TEST(KernelsEquivTest, TensorScalarBitvec) {
  run_random("TensorScalarBitvec", tensor_scalar_bitvec_word, 34, 400, 6, alu_machines());
}
TEST(KernelsEquivTest, TensorScalarPtrArith) {
  run_random("TensorScalarPtrArith", tensor_scalar_ptr_arith_word, 35, 400, 6, alu_machines());
}
TEST(KernelsEquivTest, TensorScalarPtrBitvec) {
  run_random("TensorScalarPtrBitvec", tensor_scalar_ptr_bitvec_word, 36, 400, 6, alu_machines());
}

// Every table row has an equivalence test of its name here, but for the rows whose file in
// tests/instructions/ says why it has none (registry.h: no_fast_path_comparison).
TEST(KernelsEquivCoverage, EveryFastPathIsCompared) {
  std::vector<std::string_view> named;
  for (std::string_view t : test_coverage::tests_of("KernelsEquivTest"))
    if (find_instruction(t)) named.push_back(t);
  std::map<std::string_view, std::string_view> exempt;
  for (const test_registry::InstructionTests* t : test_registry::all())
    if (!t->no_fast_path_comparison.empty()) exempt[t->mnemonic] = t->no_fast_path_comparison;
  test_coverage::expect_table("KernelsEquivTest", named, exempt);
}

// Found by fuzz_program: FP32 values that are all subnormal span a wide range of keys
// but so narrow a range of values that the value-linear buckets' scale (buckets / range)
// overflowed to inf, and (y - ymin) * scale, inf or 0 * inf = NaN, was converted to an
// integer (undefined behaviour, which the asan preset's UBSan reports). Such a row must
// sort as the reference does, both ways, with or without zeros and negative subnormals.
TEST(KernelsEquivTest, SortOfSubnormals) {
  Rng rng(25);
  for (unsigned variant = 0; variant < 3; ++variant)
    for (uint8_t cmp : {uint8_t{0x13}, uint8_t{0x16}})
      for (unsigned n : {200u, 1024u, 2048u}) {
        Machine a(Generation::V3), b(Generation::V3);
        for (uint32_t j = 0; j < n; ++j) {
          uint32_t v = 1 + rng.below(0x7fffff);  // a positive subnormal
          if (variant >= 1 && rng.chance(0.3)) v |= 0x80000000u;
          if (variant == 2 && rng.chance(0.05)) v = 0;
          std::memcpy(a.partition(Space::SBUF, 0).data() + 4 * j, &v, 4);
          std::memcpy(b.partition(Space::SBUF, 0).data() + 4 * j, &v, 4);
        }
        Word w{};
        w[0] = 0x96;
        w[1] = 0x10;
        w[12] = 1;
        w[14] = static_cast<uint8_t>(static_cast<uint8_t>(Dtype::FP32) * 0x11);
        w[15] = cmp;
        TensorDesc src, dst;
        src.addr = encode_static_addr({Space::SBUF, 0, 0});
        src.dims = 1;
        src.step = {1, 0, 0, 0};
        src.num = {static_cast<uint16_t>(n), 0, 0, 0};
        dst.addr = encode_static_addr({Space::SBUF, 0, 0x4000});
        dst.dims = 2;
        dst.step = {1, 2, 0, 0};
        dst.num = {2, static_cast<uint16_t>(n), 0, 0};
        store_tensor(w, 16, src);
        store_tensor(w, 24, dst);
        ExecOptions ref;
        ref.fast = false;
        const ExecResult ra = execute(a, w);
        const ExecResult rb = execute(b, w, ref);
        ASSERT_EQ(ra.status, Status::Retired)
            << (ra.diagnostics.empty() ? "" : ra.diagnostics[0].message());
        ASSERT_EQ(rb.status, Status::Retired);
        EXPECT_TRUE(a == b) << "variant " << variant << " cmp " << int{cmp} << " N " << n;
      }
}

// Every case compares whole machines ("large" cases), on every target.
TEST(KernelsEquivTest, Sort32LargeN) {
  run_random("Sort32LargeN", sort32_word, 15, 0, 200);
}
TEST(KernelsEquivTest, Sort16LargeN) {
  run_random("Sort16LargeN", sort16_word, 24, 0, 200);
}

}  // namespace
}  // namespace gpsimd
