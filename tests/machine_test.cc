// Tests of the machine model (SPEC §2), ADDR4 decoding (SPEC §3.4) and the tensor walk's
// extents (SPEC §3.5). Expected addresses come from SPEC's formulas written out here;
// walks are checked against a plain nested loop.
#include "gpsimd/machine.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "test_words.h"

namespace gpsimd {
namespace {

using test_words::psum_addr;
using test_words::sbuf_addr;

// SPEC §2: SBUF bytes per partition.
uint32_t sbuf_bytes(Generation g) {
  switch (g) {
    case Generation::V2:
      return 192 * 1024;
    case Generation::V3:
      return 224 * 1024;
    case Generation::V4:
    case Generation::V5:
      return 256 * 1024;
  }
  return 0;
}
constexpr uint32_t kPsumBytes = 16 * 1024;

class PerGeneration : public ::testing::TestWithParam<Generation> {};

// ---- static addresses ----------------------------------------------------------------

TEST_P(PerGeneration, SbufAddressesDecodeToPartitionAndOffset) {
  const Generation g = GetParam();
  const uint32_t P = sbuf_bytes(g);
  struct Case {
    uint32_t partition, offset;
  };
  for (Case c : {Case{0, 0}, Case{0, 1}, Case{1, 0}, Case{127, 0}, Case{5, 0x1234},
                 Case{127, P - 1}, Case{0, P - 1}, Case{64, P / 2}}) {
    const uint32_t addr = c.partition << 18 | c.offset;
    std::string why;
    const std::optional<Location> loc = decode_static_addr(addr, g, &why);
    ASSERT_TRUE(loc.has_value()) << std::hex << addr << ": " << why;
    EXPECT_EQ(*loc, (Location{Space::SBUF, c.partition, c.offset})) << std::hex << addr;
    EXPECT_EQ(encode_static_addr(*loc), addr);
  }
}

TEST_P(PerGeneration, SbufOffsetAtOrPastThePartitionSizeIsInvalid) {
  const Generation g = GetParam();
  const uint32_t P = sbuf_bytes(g);
  if (P >= (1u << 18)) {
    // V4/V5: the 18 offset bits cannot name an offset >= 256 KiB; the largest is valid.
    EXPECT_TRUE(decode_static_addr(sbuf_addr(127, 0x3ffff), g).has_value());
    return;
  }
  for (uint32_t off : {P, P + 1, 0x3ffffu}) {
    std::string why;
    EXPECT_FALSE(decode_static_addr(sbuf_addr(3, off), g, &why).has_value()) << off;
    EXPECT_FALSE(why.empty());
  }
}

TEST_P(PerGeneration, PsumAddressesDecodeOnEveryGeneration) {
  const Generation g = GetParam();
  struct Case {
    uint32_t partition, offset;
  };
  for (Case c : {Case{0, 0}, Case{0, kPsumBytes - 1}, Case{1, 0}, Case{127, 0},
                 Case{127, kPsumBytes - 4}, Case{127, kPsumBytes - 1}, Case{33, 0x1000}}) {
    const uint32_t addr = 0x2000000u + (c.partition << 15) + c.offset;
    std::string why;
    const std::optional<Location> loc = decode_static_addr(addr, g, &why);
    ASSERT_TRUE(loc.has_value()) << std::hex << addr << ": " << why;
    EXPECT_EQ(*loc, (Location{Space::PSUM, c.partition, c.offset})) << std::hex << addr;
    EXPECT_EQ(encode_static_addr(*loc), addr);
  }
}

TEST_P(PerGeneration, MalformedStaticAddressesAreInvalid) {
  const Generation g = GetParam();
  const uint32_t bad[] = {
      psum_addr(0, kPsumBytes),       // PSUM offset 16 KiB
      psum_addr(0, 0x7fff),           // PSUM offset in the gap of the 32 KiB stride
      psum_addr(127, kPsumBytes),     // last partition, offset 16 KiB
      0x2400000u,                     // one past the PSUM window: bit 25 outside it
      0x04000000u,                    // bit 26
      0x08000100u,                    // bit 27
      0x10000000u,                    // bit 28
      0x1e000000u,                    // bits 25-28
      0x20000000u,                    // mode bit 29
      0x40000000u,                    // mode bit 30
      0x60000100u,                    // both mode bits
      psum_addr(0, 0) | 0x20000000u,  // PSUM with a mode bit
      0x80000000u,                    // register mode is not a static address
      0x80000005u,
  };
  for (uint32_t a : bad) {
    std::string why;
    EXPECT_FALSE(decode_static_addr(a, g, &why).has_value()) << std::hex << a;
    EXPECT_FALSE(why.empty()) << std::hex << a;
    EXPECT_FALSE(decode_static_addr(a, g).has_value()) << std::hex << a;  // no `why`
  }
}

TEST_P(PerGeneration, EncodeThenDecodeIsIdentityForRandomLocations) {
  const Generation g = GetParam();
  std::mt19937 rng(11);
  for (int i = 0; i < 5000; ++i) {
    const bool psum = rng() & 1;
    const uint32_t p = rng() % 128;
    const auto off = static_cast<uint32_t>(rng() % (psum ? kPsumBytes : sbuf_bytes(g)));
    const Location loc{psum ? Space::PSUM : Space::SBUF, p, off};
    const uint32_t want = psum ? psum_addr(p, off) : sbuf_addr(p, off);
    ASSERT_EQ(encode_static_addr(loc), want);
    const auto back = decode_static_addr(want, g);
    ASSERT_TRUE(back.has_value());
    ASSERT_EQ(*back, loc);
  }
}

INSTANTIATE_TEST_SUITE_P(All, PerGeneration, ::testing::ValuesIn(kAllGenerations),
                         [](const auto& p) { return std::string(generation_name(p.param)); });

// ---- register addresses ----------------------------------------------------------------

TEST(RegisterAddr, ByteZeroNamesARegisterBelow64) {
  for (uint32_t r = 0; r < 64; ++r) {
    const auto id = decode_register_addr(0x80000000u | r);
    ASSERT_TRUE(id.has_value()) << r;
    EXPECT_EQ(*id, r);
  }
  for (uint32_t r : {64u, 65u, 128u, 255u}) {
    std::string why;
    EXPECT_FALSE(decode_register_addr(0x80000000u | r, &why).has_value()) << r;
    EXPECT_NE(why.find(std::to_string(r)), std::string::npos) << why;
  }
}

TEST(RegisterAddr, Bits8To30MustBeZero) {
  for (unsigned bit = 8; bit <= 30; ++bit) {
    std::string why;
    EXPECT_FALSE(decode_register_addr(0x80000005u | (1u << bit), &why).has_value()) << bit;
    EXPECT_FALSE(why.empty());
  }
}

TEST(RegisterAddr, AStaticAddressIsNotARegisterAddress) {
  std::string why;
  EXPECT_FALSE(decode_register_addr(0x00000005u, &why).has_value());
  EXPECT_FALSE(why.empty());
  EXPECT_FALSE(decode_register_addr(0x7fffffffu).has_value());
}

// ---- the walk ---------------------------------------------------------------------------

// The offsets of SPEC §3.5's loop, written as the plain nested loop.
std::vector<int64_t> nested_loop(const TensorDesc& t, int64_t start, unsigned elem) {
  std::vector<int64_t> out;
  const uint32_t n0 = t.num[0];
  const uint32_t n1 = t.dims > 1 ? t.num[1] : 1;
  const uint32_t n2 = t.dims > 2 ? t.num[2] : 1;
  const int64_t s0 = t.step[0];
  const int64_t s1 = t.dims > 1 ? t.step[1] : 0;
  const int64_t s2 = t.dims > 2 ? t.step[2] : 0;
  for (uint32_t i2 = 0; i2 < n2; ++i2)
    for (uint32_t i1 = 0; i1 < n1; ++i1)
      for (uint32_t i0 = 0; i0 < n0; ++i0)
        out.push_back(start + (i0 * s0 + i1 * s1 + i2 * s2) * elem);
  return out;
}

std::vector<int64_t> walk_offsets(const Walk& w) {
  std::vector<int64_t> out;
  uint64_t expect_j = 0;
  w.for_each([&](uint64_t j, uint32_t off) {
    EXPECT_EQ(j, expect_j++);
    out.push_back(off);
  });
  return out;
}

TEST(Walk, HandCheckedExample) {
  // start 100, 4-byte elements, steps {-2, 10}, counts {3, 2}:
  // i1 = 0: 100, 92, 84; i1 = 1: 140, 132, 124.
  const Walk w = Walk::of(test_words::tensor(0, {-2, 10}, {3, 2}), 100, 4);
  EXPECT_EQ(w.count(), 6u);
  EXPECT_EQ(walk_offsets(w), (std::vector<int64_t>{100, 92, 84, 140, 132, 124}));
  EXPECT_EQ(w.lo(), 84);
  EXPECT_EQ(w.hi(), 144);
  EXPECT_FALSE(w.contiguous());
}

TEST(Walk, DenseWalksAreContiguous) {
  // Steps {1, n0, n0*n1}: element after element.
  const Walk a = Walk::of(test_words::tensor(0, {1, 4, 16}, {4, 4, 2}), 64, 2);
  EXPECT_TRUE(a.contiguous());
  EXPECT_EQ(a.lo(), 64);
  EXPECT_EQ(a.hi(), 64 + 32 * 2);
  // A dimension of extent 1 may have any step.
  EXPECT_TRUE(Walk::of(test_words::tensor(0, {1, -300, 8}, {8, 1, 3}), 0, 4).contiguous());
  EXPECT_TRUE(Walk::of(test_words::tensor(0, {-5}, {1}), 0, 4).contiguous());
  // Gaps, overlaps, reversal and repeats are not.
  EXPECT_FALSE(Walk::of(test_words::tensor(0, {1, 5}, {4, 2}), 0, 4).contiguous());
  EXPECT_FALSE(Walk::of(test_words::tensor(0, {1, 3}, {4, 2}), 0, 4).contiguous());
  EXPECT_FALSE(Walk::of(test_words::tensor(0, {-1}, {4}), 64, 4).contiguous());
  EXPECT_FALSE(Walk::of(test_words::tensor(0, {0}, {2}), 0, 4).contiguous());
  EXPECT_FALSE(Walk::of(test_words::tensor(0, {2}, {2}), 0, 4).contiguous());
}

TEST(Walk, ZeroStepsRevisitTheSameBytes) {
  const Walk w = Walk::of(test_words::tensor(0, {0, 0, 1}, {3, 2, 2}), 40, 8);
  EXPECT_EQ(w.count(), 12u);
  EXPECT_EQ(walk_offsets(w),
            (std::vector<int64_t>{40, 40, 40, 40, 40, 40, 48, 48, 48, 48, 48, 48}));
  EXPECT_EQ(w.lo(), 40);
  EXPECT_EQ(w.hi(), 56);
  EXPECT_FALSE(w.contiguous());
}

TEST(Walk, NegativeStepsExtendBelowTheStart) {
  const Walk w = Walk::of(test_words::tensor(0, {-1, -8, 100}, {8, 4, 2}), 1000, 2);
  // Lowest: 1000 + (-7 - 24) * 2 = 938; highest element: 1000 + 100 * 2 = 1200.
  EXPECT_EQ(w.lo(), 938);
  EXPECT_EQ(w.hi(), 1202);
}

TEST(Walk, EmptyWalkVisitsNothing) {
  const Walk w = Walk::of(test_words::tensor(0, {1, 1}, {4, 0}), 0, 4);
  EXPECT_EQ(w.count(), 0u);
  EXPECT_TRUE(walk_offsets(w).empty());
}

TEST(Walk, OfCopiesOnlyTheUsedDimensions) {
  TensorDesc t = test_words::tensor(0x80000000, {-3}, {5});
  t.step[1] = 77;  // not dimensions of a 1-D tensor
  t.num[1] = 9;
  const Walk w = Walk::of(t, 300, 4);
  EXPECT_EQ(w.start, 300);
  EXPECT_EQ(w.elem, 4u);
  EXPECT_EQ(w.count(), 5u);
  EXPECT_EQ(walk_offsets(w), (std::vector<int64_t>{300, 288, 276, 264, 252}));
}

// Random walks of every shape against the nested loop: order, extents, count, density.
TEST(Walk, RandomWalksMatchTheNestedLoop) {
  std::mt19937 rng(2024);
  int contiguous_seen = 0;
  for (int i = 0; i < 20000; ++i) {
    const auto dims = static_cast<unsigned>(1 + rng() % 3);
    TensorDesc t;
    t.dims = static_cast<uint8_t>(dims);
    for (unsigned d = 0; d < dims; ++d) {
      // Small steps make dense, overlapping and reversed walks all common.
      t.step[d] = static_cast<int16_t>(static_cast<int>(rng() % 21) - 10);
      if (rng() % 4 == 0) t.step[d] = static_cast<int16_t>(d == 0 ? 1 : t.num[d - 1]);
      t.num[d] = static_cast<uint16_t>(1 + rng() % 6);
    }
    const unsigned elem = 1u << static_cast<unsigned>(rng() % 4);
    const int64_t start = 4096 + static_cast<int64_t>(rng() % 64) * elem;
    SCOPED_TRACE(testing::Message() << "dims " << dims << " steps " << t.step[0] << "," << t.step[1]
                                    << "," << t.step[2] << " nums " << t.num[0] << "," << t.num[1]
                                    << "," << t.num[2] << " elem " << elem);
    const Walk w = Walk::of(t, static_cast<uint32_t>(start), elem);
    const std::vector<int64_t> want = nested_loop(t, start, elem);
    ASSERT_EQ(w.count(), want.size());
    ASSERT_EQ(walk_offsets(w), want);
    const int64_t lo = *std::min_element(want.begin(), want.end());
    const int64_t hi = *std::max_element(want.begin(), want.end()) + elem;
    ASSERT_EQ(w.lo(), lo);
    ASSERT_EQ(w.hi(), hi);
    bool dense = true;
    for (std::size_t j = 0; j < want.size(); ++j)
      dense = dense && want[j] == lo + static_cast<int64_t>(j * elem);
    ASSERT_EQ(w.contiguous(), dense);
    contiguous_seen += dense;
  }
  EXPECT_GT(contiguous_seen, 100);  // the generator does make dense walks
}

// ---- the machine ------------------------------------------------------------------------

bool all_zero(std::span<const uint8_t> s) {
  return std::all_of(s.begin(), s.end(), [](uint8_t b) { return b == 0; });
}

TEST_P(PerGeneration, FreshMachineIsZeroWithAccumulatorsAtMinusInf) {
  const Generation g = GetParam();
  const Machine m(g);
  EXPECT_EQ(m.generation(), g);
  EXPECT_EQ(m.partition_bytes(Space::SBUF), sbuf_bytes(g));
  EXPECT_EQ(m.partition_bytes(Space::PSUM), kPsumBytes);
  EXPECT_EQ(m.space(Space::SBUF).size(), 128u * sbuf_bytes(g));
  EXPECT_EQ(m.space(Space::PSUM).size(), 128u * kPsumBytes);
  EXPECT_TRUE(all_zero(m.space(Space::SBUF)));
  EXPECT_TRUE(all_zero(m.space(Space::PSUM)));
  EXPECT_EQ(m.registers.size(), 64u);
  EXPECT_EQ(m.semaphores.size(), 256u);
  EXPECT_EQ(m.accumulators.size(), 128u);
  for (uint32_t r : m.registers) EXPECT_EQ(r, 0u);
  for (uint32_t s : m.semaphores) EXPECT_EQ(s, 0u);
  for (uint32_t a : m.accumulators) EXPECT_EQ(a, 0xff800000u);  // -inf
}

TEST_P(PerGeneration, PartitionsAreConsecutiveSlicesOfTheSpace) {
  Machine m(GetParam());
  for (Space s : {Space::SBUF, Space::PSUM}) {
    const std::size_t n = m.partition_bytes(s);
    for (unsigned p : {0u, 1u, 77u, 127u}) {
      std::span<uint8_t> part = m.partition(s, p);
      EXPECT_EQ(part.size(), n);
      EXPECT_EQ(part.data(), m.space(s).data() + p * n);
    }
  }
  m.partition(Space::SBUF, 3)[5] = 0xab;
  EXPECT_EQ(m.space(Space::SBUF)[3 * m.partition_bytes(Space::SBUF) + 5], 0xab);
  EXPECT_EQ(std::as_const(m).partition(Space::SBUF, 3)[5], 0xab);
}

// Each kind of state change makes the machine differ from a copy taken before it, in ==
// and in the hash; copies and assignments are deep.
TEST(Machine, CopyEqualityAndHashSeeEveryPartOfTheState) {
  Machine base(Generation::V3);
  base.partition(Space::SBUF, 9)[100] = 7;
  base.registers[3] = 0x1234;
  base.accumulators[5] = 0;
  const Machine copy = base;
  EXPECT_TRUE(copy == base);
  EXPECT_EQ(copy.hash(), base.hash());
  EXPECT_NE(copy.space(Space::SBUF).data(), base.space(Space::SBUF).data());

  const std::vector<void (*)(Machine&)> changes = {
      [](Machine& m) { m.partition(Space::SBUF, 0)[0] ^= 1; },
      [](Machine& m) { m.partition(Space::SBUF, 127)[224 * 1024 - 1] ^= 0x80; },
      [](Machine& m) { m.partition(Space::SBUF, 9)[100] = 8; },
      [](Machine& m) { m.partition(Space::PSUM, 0)[0] ^= 1; },
      [](Machine& m) { m.partition(Space::PSUM, 127)[16 * 1024 - 1] ^= 1; },
      [](Machine& m) { m.registers[63] = 1; },
      [](Machine& m) { m.registers[3] = 0; },
      [](Machine& m) { m.semaphores[0] = 1; },
      [](Machine& m) { m.semaphores[255] = 0xffffffffu; },
      [](Machine& m) { m.accumulators[0] = 0x7f800000u; },
      [](Machine& m) { m.accumulators[127] = 0x80000000u; },  // -0.0 vs -inf
  };
  for (std::size_t i = 0; i < changes.size(); ++i) {
    SCOPED_TRACE(i);
    Machine m = base;
    ASSERT_TRUE(m == base);
    changes[i](m);
    EXPECT_FALSE(m == base);
    EXPECT_NE(m.hash(), base.hash());
    EXPECT_TRUE(copy == base);  // the copy kept its own state
  }
}

TEST(Machine, CopyAssignmentAndMoveKeepTheState) {
  Machine a(Generation::V2);
  a.partition(Space::PSUM, 4)[8] = 0x42;
  a.semaphores[7] = 9;
  Machine b(Generation::V5);
  EXPECT_FALSE(a == b);
  b = a;
  EXPECT_EQ(b.generation(), Generation::V2);
  EXPECT_EQ(b.partition_bytes(Space::SBUF), 192u * 1024);
  EXPECT_TRUE(a == b);
  EXPECT_EQ(a.hash(), b.hash());
  b.semaphores[7] = 10;
  EXPECT_EQ(a.semaphores[7], 9u);
  b = b;  // self-assignment keeps the state
  EXPECT_EQ(b.semaphores[7], 10u);
  const uint64_t h = a.hash();
  Machine c(std::move(a));
  EXPECT_EQ(c.hash(), h);
  EXPECT_EQ(c.partition(Space::PSUM, 4)[8], 0x42);
}

TEST(Machine, FreshMachinesOfDifferentGenerationsDiffer) {
  EXPECT_TRUE(Machine(Generation::V4) == Machine(Generation::V4));
  EXPECT_EQ(Machine(Generation::V4).hash(), Machine(Generation::V4).hash());
  // Same sizes, different generation.
  EXPECT_FALSE(Machine(Generation::V4) == Machine(Generation::V5));
  EXPECT_FALSE(Machine(Generation::V2) == Machine(Generation::V3));
}

TEST(Machine, ResetRestoresAFreshMachine) {
  Machine m(Generation::V3);
  const Machine fresh(Generation::V3);
  m.partition(Space::SBUF, 127)[5] = 1;
  m.partition(Space::PSUM, 0)[0] = 2;
  m.registers[1] = 3;
  m.semaphores[2] = 4;
  m.accumulators[3] = 5;
  ASSERT_FALSE(m == fresh);
  m.reset();
  EXPECT_TRUE(m == fresh);
  EXPECT_EQ(m.hash(), fresh.hash());
  EXPECT_EQ(m.generation(), Generation::V3);
  EXPECT_TRUE(all_zero(m.space(Space::SBUF)));
  for (uint32_t a : m.accumulators) EXPECT_EQ(a, 0xff800000u);
}

// Memory comes fresh from the system for every machine: one made after a machine whose
// every byte was written has been destroyed (its memory returned, and likely handed out
// again) is still all zero, and so is a copy's memory beyond what it copies.
TEST(Machine, AMachineMadeAfterAUsedOneIsFresh) {
  for (Generation g : {Generation::V2, Generation::V3, Generation::V5}) {
    SCOPED_TRACE(generation_name(g));
    for (int round = 0; round < 3; ++round) {
      {
        Machine used(g);
        for (Space s : {Space::SBUF, Space::PSUM}) {
          auto all = used.space(s);
          std::fill(all.begin(), all.end(), uint8_t{0xa5});
        }
      }
      const Machine m(g);
      EXPECT_TRUE(all_zero(m.space(Space::SBUF)));
      EXPECT_TRUE(all_zero(m.space(Space::PSUM)));
      EXPECT_TRUE(m == Machine(g));
      // Partitions start on 64-byte lines (the kernels' aligned vector accesses).
      EXPECT_EQ(reinterpret_cast<uintptr_t>(m.space(Space::SBUF).data()) % 64, 0u);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(m.space(Space::PSUM).data()) % 64, 0u);
    }
  }
}

TEST(Machine, SpaceNames) {
  EXPECT_EQ(space_name(Space::SBUF), "sbuf");
  EXPECT_EQ(space_name(Space::PSUM), "psum");
}

}  // namespace
}  // namespace gpsimd

namespace gpsimd {
namespace {

// SPEC §2: a fresh search lane is mv 0, matched 0, idx 0xFFFFFFFF; the lanes are part of
// equality, the hash, copies and reset.
TEST(MachineSearchState, FreshLanesEqualityHashCopyAndReset) {
  Machine m(Generation::V2);
  for (const MatchLane& l : m.match) {
    for (uint32_t v : l.mv) EXPECT_EQ(v, 0u);
    EXPECT_EQ(l.matched, 0);
    for (uint32_t i : l.idx) EXPECT_EQ(i, 0xFFFFFFFFu);
  }
  Machine other(Generation::V2);
  EXPECT_TRUE(m == other);
  EXPECT_EQ(m.hash(), other.hash());
  for (int field = 0; field < 3; ++field) {
    Machine c(m);
    if (field == 0) c.match[77].mv[3] = 0x80000000u;  // -0.0 differs from +0.0 as state
    if (field == 1) c.match[0].matched = 0x40;
    if (field == 2) c.match[127].idx[7] = 0;
    EXPECT_FALSE(c == m) << field;
    EXPECT_NE(c.hash(), m.hash()) << field;
    Machine copy(c);
    EXPECT_TRUE(copy == c) << field;
    Machine assigned(Generation::V2);
    assigned = c;
    EXPECT_TRUE(assigned == c) << field;
    c.reset();
    EXPECT_TRUE(c == m) << field;
  }
}

// The tables of memory spaces and location spaces (machine.h) against SPEC §2 and §8.8,
// written out by hand: a row per enum value, in order; names that round-trip; the
// partition sizes the machine uses.
TEST(SpaceTable, HasARowPerSpaceOfSpec) {
  struct Expected {
    Space space;
    std::string_view name, upper;
    LocationSpace location;
  };
  const std::vector<Expected> expected = {
      {Space::SBUF, "sbuf", "SBUF", LocationSpace::SBUF},
      {Space::PSUM, "psum", "PSUM", LocationSpace::PSUM},
  };
  ASSERT_EQ(kSpaceCount, expected.size());
  ASSERT_EQ(kAllSpaces.size(), kSpaceCount);
  for (std::size_t i = 0; i < kSpaceCount; ++i) {
    const Expected& x = expected[i];
    SCOPED_TRACE(std::string(x.name));
    EXPECT_EQ(static_cast<std::size_t>(x.space), i);
    EXPECT_EQ(kSpaces[i].space, x.space);
    EXPECT_EQ(kAllSpaces[i], x.space);
    EXPECT_EQ(&space_def(x.space), &kSpaces[i]);
    EXPECT_EQ(kSpaces[i].name, x.name);
    EXPECT_EQ(kSpaces[i].upper, x.upper);
    EXPECT_EQ(kSpaces[i].location, x.location);
    EXPECT_EQ(space_name(x.space), x.name);
    EXPECT_EQ(parse_space(x.name), x.space);
    EXPECT_EQ(parse_space(x.upper), std::nullopt);
    EXPECT_EQ(location_space_def(x.location).memory, x.space);
    EXPECT_EQ(location_space_name(x.location), x.name);
  }
  for (std::string_view s : {"", "acc", "match", "hbm", "sbuf "})
    EXPECT_EQ(parse_space(s), std::nullopt) << s;
  EXPECT_EQ(space_name(static_cast<Space>(kSpaceCount)), "?");
  EXPECT_EQ(space_names_text("'"), "'sbuf' or 'psum'");
  EXPECT_EQ(space_names_text(""), "sbuf or psum");
}

TEST(SpaceTable, PartitionSizesAreSpecs) {
  for (Generation g : kAllGenerations) {
    SCOPED_TRACE(std::string(generation_name(g)));
    EXPECT_EQ(space_partition_bytes(Space::SBUF, g), sbuf_bytes(g));
    EXPECT_EQ(space_partition_bytes(Space::PSUM, g), 16u * 1024);
    const Machine m(g);
    for (Space s : kAllSpaces) {
      EXPECT_EQ(m.partition_bytes(s), space_partition_bytes(s, g));
      EXPECT_EQ(m.space(s).size(), std::size_t{kPartitions} * space_partition_bytes(s, g));
      EXPECT_EQ(m.partition(s, 1).data(), m.space(s).data() + m.partition_bytes(s));
    }
    // The spaces are distinct buffers.
    EXPECT_NE(m.space(Space::SBUF).data(), m.space(Space::PSUM).data());
  }
}

TEST(SpaceTable, HasARowPerLocationSpaceOfSpec) {
  struct Expected {
    LocationSpace space;
    std::string_view name;
    std::optional<Space> memory;
  };
  const std::vector<Expected> expected = {
      {LocationSpace::SBUF, "sbuf", Space::SBUF},
      {LocationSpace::PSUM, "psum", Space::PSUM},
      {LocationSpace::ACC, "acc", std::nullopt},
      {LocationSpace::MATCH, "match", std::nullopt},
  };
  ASSERT_EQ(kLocationSpaceCount, expected.size());
  for (std::size_t i = 0; i < kLocationSpaceCount; ++i) {
    const Expected& x = expected[i];
    SCOPED_TRACE(std::string(x.name));
    EXPECT_EQ(static_cast<std::size_t>(x.space), i);
    EXPECT_EQ(kLocationSpaceDefs[i].space, x.space);
    EXPECT_EQ(&location_space_def(x.space), &kLocationSpaceDefs[i]);
    EXPECT_EQ(kLocationSpaceDefs[i].name, x.name);
    EXPECT_EQ(kLocationSpaceDefs[i].memory, x.memory);
    EXPECT_EQ(location_space_name(x.space), x.name);
    EXPECT_EQ(parse_location_space(x.name), x.space);
  }
  for (std::string_view s : {"", "SBUF", "lane", "reg"})
    EXPECT_EQ(parse_location_space(s), std::nullopt) << s;
  EXPECT_EQ(location_space_name(static_cast<LocationSpace>(kLocationSpaceCount)), "?");
}

}  // namespace
}  // namespace gpsimd
