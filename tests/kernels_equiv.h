// The harness of the fast kernels' comparison with the scalar reference (kernels_equiv_test.cc
// and the kernel words of tests/instructions/): a random source, the random operand windows and
// walks, the shared machines, the fills with each dtype's edge values, and run_random, which runs
// random words of a maker fast and by the reference and compares the results and machines.
// Each instruction's word maker sits in its file and is registered as its `kernel_words`
// (tests/instructions/registry.h); the makers a family shares sit in its header.
#pragma once

#include <gtest/gtest.h>
#include <hwy/targets.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gpsimd/alu.h"
#include "gpsimd/execute.h"
#include "gpsimd/format.h"
#include "gpsimd/machine.h"
#include "kernels/convert.h"
#include "test_effort.h"

namespace gpsimd::kernels_equiv {

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
inline std::vector<uint32_t> edge_values(Dtype dt) {
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

// Runs f once for every SIMD target compiled in and supported here (and restores the
// default choice afterwards).
template <class F>
inline void for_each_target(F f) {
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

// ---- random instructions ----------------------------------------------------------------

// Where the random operands live: a window at the start of every partition, small so
// that operands overlap often.
struct Window {
  Space space = Space::SBUF;
  uint32_t bytes = 4096;
};

// Gives t a static address in partition p at a random offset where its whole walk lies
// inside the window; a walk too wide for the window becomes dense first.
inline void place(Rng& rng, TensorDesc& t, unsigned elem, const Window& win, unsigned p) {
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
inline TensorDesc random_walk(Rng& rng, unsigned dims, uint64_t count, uint64_t max_count,
                              unsigned elem, const Window& win, unsigned p) {
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

inline Machines& machines() {
  static Machines m;
  return m;
}

// Fills the window of partitions [p, p + n) of both machines with the same mix of random
// bits and edge values of `dt`, laid out as elements of its size.
inline void fill(Rng& rng, Machines& m, const Window& win, unsigned p, unsigned n, Dtype dt,
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
inline void fill2(Rng& rng, Machines& m, const Window& win, unsigned p, unsigned pd, unsigned n,
                  Dtype dt, bool runs = false) {
  fill(rng, m, win, p, n, dt, runs);
  if (pd != p) fill(rng, m, win, pd, n, dt, runs);
}

struct Counts {
  int retired = 0, invalid = 0, faulted = 0;
};

// Runs w fast on `a` and by the reference on `b`, and checks both end the same way.
inline void run_both(Machines& m, const Word& w, Counts& counts, bool whole_machine) {
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

inline unsigned random_channels(Rng& rng) {
  if (rng.chance(0.1)) return 128;
  if (rng.chance(0.3)) return 1 + rng.below(128);
  return 1 + rng.below(6);
}

// When set (by the strided-source tests), the word makers of the kernel words read their
// source as one row of `count` elements `step` apart, and RangeSelect reads FP32: the
// shape the strided reads of walk_cursor.h turn into contiguous loads and permutes.
struct ForcedSource {
  bool on = false;
  int16_t step = 1;
  uint16_t count = 1;
};
inline ForcedSource g_forced;

// Replaces src by the forced row, placed in the window, when one is forced.
inline void force_source(Rng& rng, TensorDesc& src, unsigned elem, const Window& win, unsigned p) {
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

const Dtype kTssDtypes[] = {Dtype::INT8, Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16,
                            Dtype::BF16, Dtype::FP16,   Dtype::INT32,  Dtype::UINT32,
                            Dtype::FP32, Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};

// A DATA4D of `count` values: a random split over four dimensions; steps small, zero,
// negative or large (large steps make runs wrap around 2^32, the in-register path); a
// base near 0 (runs cross it), near the int32 ends, or anywhere.
inline TensorDesc random_ramp(Rng& rng, uint64_t count) {
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
inline int32_t random_multiplier(Rng& rng) {
  const int32_t ms[] = {0, 1, -1, 2, -5, 1 << 30, INT32_MIN, static_cast<int32_t>(rng.bits())};
  return rng.pick(ms);
}

const Dtype kIotaOut[] = {Dtype::INT8,   Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16, Dtype::BF16,
                          Dtype::FP16,   Dtype::INT32,  Dtype::UINT32, Dtype::FP32,   Dtype::FP32R,
                          Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};

// Fills the window of partitions [p, p + n) of both machines with elements of `size`
// bytes that are nonzero with probability `density`: nonzero ones are edge values of
// `dt` or random bits, zero ones 0 (or -0.0 for an FP32 source, zero to NonzeroWithCount).
inline void fill_density(Rng& rng, Machines& m, const Window& win, unsigned p, unsigned n, Dtype dt,
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
inline TensorDesc dense_or_random(Rng& rng, uint64_t count, unsigned elem, const Window& win,
                                  unsigned p, double dense) {
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
inline uint64_t random_count(Rng& rng, uint64_t max) {
  if (rng.chance(0.3)) return 1 + rng.below(20);
  if (rng.chance(0.4)) {
    const uint64_t c = 16 * (1 + rng.below(std::max<uint64_t>(1, max / 16 - 1))) + rng.in(-1, 1);
    return std::clamp<uint64_t>(c, 1, max);
  }
  return 1 + rng.below(max);
}

const double kDensities[] = {0.0, 0.01, 0.5, 0.99, 1.0};

using WordMaker = Word (*)(Rng&, Machines&, bool);

inline void run_random(const char* name, WordMaker make, uint64_t seed, int all_cases,
                       int large_cases, Machines& m = machines()) {
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

// ---- the ALU instructions: TensorTensor, TensorScalar -------------------------------------

// V5 machines: every ALU op exists there (ABS_MAX, ABS_MIN, RE_LU and SQUARE from V4 on).
inline Machines& alu_machines() {
  static Machines m{Generation::V5};
  return m;
}

// A random op of the ALU_OP table for which pred holds.
template <class Pred>
inline uint8_t pick_op(Rng& rng, Pred pred) {
  std::vector<uint8_t> ops;
  for (const alu::OpRow& r : alu::kOps)
    if (pred(r.code)) ops.push_back(r.code);
  return rng.pick_from(ops);
}

// Fills an ALU operand's window: each dtype's edge values (NaN payloads, ±0, ±inf,
// subnormals, extremes), integers around 2^24 and 2^31 where FP32 rounds, shift counts
// below, at and above the width (and "negative" ones), random bits.
inline void alu_fill(Rng& rng, Machines& m, const Window& win, unsigned p, unsigned n, Dtype dt) {
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
inline TensorDesc alu_walk(Rng& rng, uint64_t count, uint64_t max_count, unsigned elem,
                           const Window& win, unsigned p) {
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
inline std::optional<Engine> alu_engine(Rng& rng, double pool) {
  const double r = static_cast<double>(rng.below(1000)) / 1000;
  if (r < pool) return Engine::POOL;
  if (r < pool + 0.04) return Engine::ACT;
  if (r < pool + 0.14) return std::nullopt;
  return Engine::DVE;
}

// The window of one operand: SBUF, or PSUM when allowed (4096 bytes, so that operands
// overlap often); large cases fill 32 KiB of SBUF.
inline Window alu_window(Rng& rng, bool large, bool psum_ok) {
  Window win;
  win.bytes = large ? 32768 : 4096;
  if (!large && psum_ok && rng.chance(0.2)) win.space = Space::PSUM;
  return win;
}

}  // namespace gpsimd::kernels_equiv
