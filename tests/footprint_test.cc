// Footprints (SPEC §8.5): every instruction of the table has one, in its op file; for
// random valid words of every instruction (random shapes, steps, partitions, register-mode
// addresses and pointers, injected faults), on the reference path:
//   - every byte, accumulator and search lane the word changes is in its write set, and the
//     trace reports exactly the write set's partitions, each as the range from its lowest
//     to its highest written byte;
//   - everything the word computes comes from its read set: with every byte, accumulator
//     and lane outside the read set re-randomised (the footprint never looks at memory),
//     the word writes the same values;
//   - a word that faults has no footprint, and one that does not fault has one.
// A single-word check of each SPEC §8.5 row's particulars (NonzeroWithCount's processed
// channels, RangeSelect's accumulators, the search lanes, DveReadAccumulator's element)
// and of the range arithmetic (zero, negative and overlapping steps) follows.
#include "program/footprint.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include "gpsimd/program.h"
#include "ops/op.h"
#include "random_words.h"
#include "table_coverage.h"
#include "test_effort.h"
#include "test_words.h"

namespace {

namespace rw = gpsimd::random_words;
using gpsimd::AccessKind;
using gpsimd::Engine;
using gpsimd::ExecOptions;
using gpsimd::Generation;
using gpsimd::LocationSpace;
using gpsimd::Machine;
using gpsimd::MatchLane;
using gpsimd::Space;
using gpsimd::Word;

TEST(FootprintTable, EveryRowHasAFootprint) {
  for (const gpsimd::InstrDef& d : gpsimd::instructions())
    EXPECT_NE(gpsimd::detail::semantics(d).operands, nullptr)
        << d.mnemonic << ": its op file declares no operands, so it has no footprint (SPEC §8.5)";
}

// The trace's writes, as reported.
class WriteLog : public gpsimd::TraceSink {
 public:
  struct Mem {
    Space space;
    unsigned partition;
    uint32_t lo, hi;
  };
  std::vector<Mem> memory_writes;
  std::vector<unsigned> accs, lanes;
  void retire(const Word&, const gpsimd::InstrDef&) override {}
  void memory(Space s, unsigned p, uint32_t off, std::span<const uint8_t> b) override {
    memory_writes.push_back(Mem{s, p, off, off + static_cast<uint32_t>(b.size())});
  }
  void accumulator(unsigned i, uint32_t, uint32_t) override { accs.push_back(i); }
  void semaphore(unsigned, uint32_t, uint32_t) override {}
  void match_lane(unsigned i, const MatchLane&, const MatchLane&) override { lanes.push_back(i); }
};

// A box of bytes around everything a case placed or its footprint names: the partitions
// and offsets that are snapshotted, compared and re-randomised.
struct Window {
  std::array<unsigned, 2> p0{128, 128}, p1{0, 0};
  std::array<uint32_t, 2> lo{~0u, ~0u}, hi{0, 0};
  void add(Space s, unsigned pa, unsigned pb, int64_t a, int64_t b) {
    const int k = s == Space::PSUM;
    p0[k] = std::min(p0[k], pa);
    p1[k] = std::max(p1[k], pb);
    lo[k] = std::min<uint32_t>(lo[k], static_cast<uint32_t>(std::max<int64_t>(0, a)));
    hi[k] = std::max<uint32_t>(hi[k], static_cast<uint32_t>(b));
  }
  void widen(const Machine& m) {
    for (int k = 0; k < 2; ++k) {
      if (p0[k] >= p1[k]) continue;
      const uint32_t size = m.partition_bytes(k ? Space::PSUM : Space::SBUF);
      p0[k] = p0[k] >= 2 ? p0[k] - 2 : 0;
      p1[k] = std::min(128u, p1[k] + 2);
      lo[k] = lo[k] >= 64 ? lo[k] - 64 : 0;
      hi[k] = std::min(size, hi[k] + 64);
    }
  }
};

// The window's bytes, the accumulators and the search lanes.
struct State {
  std::array<std::vector<uint8_t>, 2> bytes;
  std::array<uint32_t, 128> accs{};
  std::array<MatchLane, 128> lanes{};
};
// Rows of the window in one space (0 when it has none).
std::size_t window_rows(const Window& w, int k) {
  return w.p1[k] > w.p0[k] ? w.p1[k] - w.p0[k] : 0;
}
// `s` is reused from case to case, so that its buffers are not allocated each time.
void snapshot(const Machine& m, const Window& w, State& s) {
  for (int k = 0; k < 2; ++k) {
    const Space sp = k ? Space::PSUM : Space::SBUF;
    const uint32_t wdt = w.hi[k] - w.lo[k];
    s.bytes[k].resize(window_rows(w, k) * wdt);
    for (unsigned p = w.p0[k]; p < w.p1[k]; ++p)
      std::memcpy(s.bytes[k].data() + std::size_t{p - w.p0[k]} * wdt,
                  m.partition(sp, p).data() + w.lo[k], wdt);
  }
  s.accs = m.accumulators;
  s.lanes = m.match;
}
void restore(Machine& m, const Window& w, const State& s) {
  for (int k = 0; k < 2; ++k) {
    const Space sp = k ? Space::PSUM : Space::SBUF;
    const uint32_t wdt = w.hi[k] - w.lo[k];
    for (unsigned p = w.p0[k]; p < w.p1[k]; ++p)
      std::memcpy(m.partition(sp, p).data() + w.lo[k],
                  s.bytes[k].data() + std::size_t{p - w.p0[k]} * wdt, wdt);
  }
  m.accumulators = s.accs;
  m.match = s.lanes;
}

// The footprint's access flags over the window: `write` per byte (1 when in the write
// set), per accumulator and lane bit 0 read and bit 1 write; and the SBUF/PSUM ranges read.
struct Flags {
  std::array<std::vector<uint8_t>, 2> write;
  std::array<uint8_t, 128> accs{}, lanes{};
  std::vector<gpsimd::FootprintRange> memory_reads;
};
void flags_of(const gpsimd::Footprint& fp, const Window& w, Flags& f, std::string& error) {
  for (int k = 0; k < 2; ++k) f.write[k].assign(window_rows(w, k) * (w.hi[k] - w.lo[k]), 0);
  f.accs = {};
  f.lanes = {};
  f.memory_reads.clear();
  for (const gpsimd::FootprintRange& r : fp.ranges) {
    const auto a = static_cast<uint8_t>(r.access);
    if (r.space == LocationSpace::ACC) {
      f.accs[r.partition] |= a;
      continue;
    }
    if (r.space == LocationSpace::MATCH) {
      f.lanes[r.partition] |= a;
      continue;
    }
    const int k = r.space == LocationSpace::PSUM;
    if (r.partition < w.p0[k] || r.partition >= w.p1[k] || r.lo < w.lo[k] || r.hi > w.hi[k]) {
      error = fmt::format("range {} p={} [{:#x}, {:#x}) outside the window",
                          gpsimd::location_space_name(r.space), r.partition, r.lo, r.hi);
      return;
    }
    if (a & 1) f.memory_reads.push_back(r);
    if (a & 2) {
      const std::size_t row = std::size_t{r.partition - w.p0[k]} * (w.hi[k] - w.lo[k]);
      std::fill_n(f.write[k].begin() + static_cast<std::ptrdiff_t>(row + r.lo - w.lo[k]),
                  r.hi - r.lo, uint8_t{1});
    }
  }
}

// Calls `f(i)` for each i < n where a[i] != b[i], in order, until it returns a problem;
// blocks that are equal are skipped with memcmp (the windows are up to megabytes).
template <class F>
std::string each_difference(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, F f) {
  constexpr std::size_t kBlock = 256;
  for (std::size_t at = 0; at < a.size(); at += kBlock) {
    const std::size_t n = std::min(kBlock, a.size() - at);
    if (std::memcmp(a.data() + at, b.data() + at, n) == 0) continue;
    for (std::size_t i = at; i < at + n; ++i)
      if (a[i] != b[i])
        if (std::string problem = f(i); !problem.empty()) return problem;
  }
  return {};
}

// The buffers one case uses, kept from case to case.
struct Scratch {
  Flags flags;
  State before, after1, before2, after2;
};

struct Tally {
  unsigned cases = 0, rejected = 0, faults = 0;
};

// The problems of one case (empty when it conforms).
std::string check_case(Machine& m, const Word& w, const rw::Builder& b, rw::Rng& r, Tally& t,
                       Scratch& sc) {
  const gpsimd::InstrDef& def = *gpsimd::find_instruction(w[0]);
  const Engine e = def.engine_for(b.engine);  // the case's engine input, or the default
  const gpsimd::Footprint fp = gpsimd::footprint(w, m, e);
  if (!fp.invalid.empty()) return "the word is invalid: " + fp.invalid.front().message();
  Window win;
  for (const rw::Footprint& f : b.footprint()) win.add(f.space, f.p0, f.p0 + f.n, f.lo, f.hi);
  for (const gpsimd::FootprintRange& x : fp.ranges)
    if (x.space == LocationSpace::SBUF || x.space == LocationSpace::PSUM)
      win.add(x.space == LocationSpace::PSUM ? Space::PSUM : Space::SBUF, x.partition,
              x.partition + 1, x.lo, x.hi);
  win.widen(m);
  std::string error;
  Flags& fl = sc.flags;
  flags_of(fp, win, fl, error);
  if (!error.empty()) return error;
  const auto where = [&](int k, std::size_t i) {
    const uint32_t wdt = win.hi[k] - win.lo[k];
    return fmt::format("{} p={} +{:#x}", k ? "psum" : "sbuf", win.p0[k] + i / wdt,
                       win.lo[k] + i % wdt);
  };

  State& before = sc.before;
  snapshot(m, win, before);
  WriteLog log;
  const gpsimd::ExecResult r1 =
      gpsimd::execute(m, w, ExecOptions{.trace = &log, .fast = false, .engine = e});
  if (r1.status == gpsimd::Status::Invalid) return "invalid: " + r1.message();
  if (fp.fault || !r1.ok()) {
    ++t.faults;
    if (!fp.fault) return "executing faults (" + r1.message() + ") but the footprint has none";
    if (r1.ok()) return "the footprint faults (" + fp.fault->detail + ") but the word retires";
    if (fp.fault->kind != r1.fault->kind)
      return fmt::format("the footprint faults {}, execution {}",
                         gpsimd::fault_name(fp.fault->kind), gpsimd::fault_name(r1.fault->kind));
    if (!fp.ranges.empty()) return "a faulting word has footprint ranges";
    return {};
  }
  if (fp.ranges.empty()) return "a word that retires has an empty footprint";
  State& after1 = sc.after1;
  snapshot(m, win, after1);

  // Writes: whatever changed is in the write set.
  for (int k = 0; k < 2; ++k)
    if (std::string problem = each_difference(before.bytes[k], after1.bytes[k],
                                              [&](std::size_t i) -> std::string {
                                                if (fl.write[k][i]) return {};
                                                return where(k, i) +
                                                       " changed but is not in the write set";
                                              });
        !problem.empty())
      return problem;
  for (unsigned i = 0; i < 128; ++i) {
    if (before.accs[i] != after1.accs[i] && !(fl.accs[i] & 2))
      return fmt::format("acc[{}] changed but is not in the write set", i);
    if (before.lanes[i] != after1.lanes[i] && !(fl.lanes[i] & 2))
      return fmt::format("lane[{}] changed but is not in the write set", i);
  }
  // The trace: one region per written partition, from its lowest written byte to its
  // highest; accumulators and lanes it reports are written ones.
  std::map<std::pair<int, unsigned>, std::pair<uint32_t, uint32_t>> want;
  for (const gpsimd::FootprintRange& x : fp.ranges) {
    if (!(static_cast<unsigned>(x.access) & 2u)) continue;
    if (x.space == LocationSpace::ACC || x.space == LocationSpace::MATCH) continue;
    auto [it, fresh] = want.try_emplace({static_cast<int>(x.space), x.partition}, x.lo, x.hi);
    if (!fresh) {
      it->second.first = std::min(it->second.first, x.lo);
      it->second.second = std::max(it->second.second, x.hi);
    }
  }
  std::map<std::pair<int, unsigned>, std::pair<uint32_t, uint32_t>> got;
  for (const WriteLog::Mem& x : log.memory_writes) {
    const int s = x.space == Space::PSUM ? 1 : 0;
    auto [it, fresh] = got.try_emplace({s, x.partition}, x.lo, x.hi);
    if (!fresh) {
      it->second.first = std::min(it->second.first, x.lo);
      it->second.second = std::max(it->second.second, x.hi);
    }
  }
  if (want != got) {
    std::string text;
    for (const auto& [k, v] : got)
      if (!want.count(k) || want.at(k) != v)
        text += fmt::format(" trace p={} [{:#x}, {:#x});", k.second, v.first, v.second);
    for (const auto& [k, v] : want)
      if (!got.count(k) || got.at(k) != v)
        text += fmt::format(" write set p={} [{:#x}, {:#x});", k.second, v.first, v.second);
    return "the trace's written ranges are not the write set's:" + text;
  }
  for (unsigned i : log.accs)
    if (!(fl.accs[i] & 2)) return fmt::format("the trace writes acc[{}], not in the write set", i);
  for (unsigned i : log.lanes)
    if (!(fl.lanes[i] & 2))
      return fmt::format("the trace writes lane[{}], not in the write set", i);

  // Reads: re-randomise everything outside the read set and run again. The window is
  // filled with random bytes, the read set's bytes put back, and the window written.
  State& before2 = sc.before2;
  uint64_t x = r.u32() | 1u;  // xorshift: cheap random bytes for the whole window
  for (int k = 0; k < 2; ++k) {
    std::vector<uint8_t>& bytes = before2.bytes[k];
    bytes.resize(before.bytes[k].size());
    for (std::size_t at = 0; at < bytes.size(); at += 8) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      std::memcpy(bytes.data() + at, &x, std::min<std::size_t>(8, bytes.size() - at));
    }
  }
  for (const gpsimd::FootprintRange& rd : fl.memory_reads) {
    const int k = rd.space == LocationSpace::PSUM;
    const std::size_t at =
        std::size_t{rd.partition - win.p0[k]} * (win.hi[k] - win.lo[k]) + rd.lo - win.lo[k];
    std::memcpy(before2.bytes[k].data() + at, before.bytes[k].data() + at, rd.hi - rd.lo);
  }
  before2.accs = before.accs;
  before2.lanes = before.lanes;
  restore(m, win, before2);
  for (unsigned i = 0; i < 128; ++i) {
    if (!(fl.accs[i] & 1)) m.accumulators[i] = r.u32();
    if (!(fl.lanes[i] & 1)) {
      MatchLane l;
      for (uint32_t& v : l.mv) v = r.u32();
      for (uint32_t& v : l.idx) v = r.u32();
      l.matched = static_cast<uint8_t>(r.u32());
      m.match[i] = l;
    }
  }
  before2.accs = m.accumulators;
  before2.lanes = m.match;
  const gpsimd::ExecResult r2 = gpsimd::execute(m, w, ExecOptions{.fast = false, .engine = e});
  if (!r2.ok()) return "with the bytes outside the read set changed: " + r2.message();
  State& after2 = sc.after2;
  snapshot(m, win, after2);
  for (int k = 0; k < 2; ++k) {
    // Outside the write set nothing changes.
    if (std::string problem = each_difference(before2.bytes[k], after2.bytes[k],
                                              [&](std::size_t i) -> std::string {
                                                if (fl.write[k][i]) return {};
                                                return where(k, i) +
                                                       " changed in the second run but is not "
                                                       "in the write set";
                                              });
        !problem.empty())
      return problem;
    // A byte the first run wrote (changed) is written the same in the second.
    if (std::string problem = each_difference(
            after1.bytes[k], after2.bytes[k],
            [&](std::size_t i) -> std::string {
              if (!fl.write[k][i] || after1.bytes[k][i] == before.bytes[k][i]) return {};
              return fmt::format(
                  "{} is written {:#04x}, or {:#04x} once the bytes outside the read set "
                  "change: the word reads outside its read set",
                  where(k, i), after1.bytes[k][i], after2.bytes[k][i]);
            });
        !problem.empty())
      return problem;
  }
  for (unsigned i = 0; i < 128; ++i) {
    if ((fl.accs[i] & 2) && after1.accs[i] != before.accs[i] && after2.accs[i] != after1.accs[i])
      return fmt::format("acc[{}] depends on something outside the read set", i);
    if ((fl.lanes[i] & 2) && after1.lanes[i] != before.lanes[i] &&
        after2.lanes[i] != after1.lanes[i])
      return fmt::format("lane[{}] depends on something outside the read set", i);
  }
  return {};
}

using GenFn = Word (*)(rw::Builder&);
constexpr unsigned kCases = 200;

// `cases`: more for the instructions whose only faults are a broken register (Copy, Cast),
// so that some case faults.
void run_footprints(const char* name, GenFn gen, std::initializer_list<Generation> gens,
                    uint64_t salt, unsigned cases = kCases) {
  const uint64_t seed = rw::base_seed() ^ salt ^ 0xf007;
  Tally t;
  Scratch scratch;
  rw::Rng pick(seed);
  // GPSIMD_RANDOM_CASES scales the count (tests/test_effort.h), in whole batches of 50.
  cases = (gpsimd::test_effort::random_cases(cases, 50) + 49) / 50 * 50;
  for (unsigned start = 0; start < cases; start += 50) {
    const Generation g = pick.pick(gens);
    Machine m(g);
    for (unsigned i = start; i < start + 50; ++i) {
      rw::Rng r(seed * 0x9e3779b97f4a7c15ull + i);
      rw::Builder b(r, g, {&m, &m, &m});
      Word w = gen(b);
      // The events play no part in a footprint: no wait to block, no update.
      std::fill(w.begin() + 4, w.begin() + 12, uint8_t{0});
      if (!gpsimd::validate(w, g, {.engine = b.engine}).empty()) {
        ++t.rejected;
        continue;
      }
      ++t.cases;
      const std::string problem = check_case(m, w, b, r, t, scratch);
      ASSERT_TRUE(problem.empty()) << name << " case " << i << " (" << gpsimd::generation_name(g)
                                   << "), word " << gpsimd::word_to_hex(w) << ": " << problem;
    }
  }
  EXPECT_GT(t.cases, cases * 9 / 10) << name;
  EXPECT_GT(t.faults, 0u) << name << ": no case faulted";
  std::printf("%s: %u cases, %u faults, %u rejected\n", name, t.cases, t.faults, t.rejected);
}

const auto kAll = {Generation::V2, Generation::V3, Generation::V4, Generation::V5};
const auto kV3Up = {Generation::V3, Generation::V4, Generation::V5};

TEST(FootprintRandom, RangeSelect) {
  run_footprints("RangeSelect", rw::generator(gpsimd::Opcode::RangeSelect), kV3Up, 0xbc);
}
TEST(FootprintRandom, TensorScalarSelect) {
  run_footprints("TensorScalarSelect", rw::generator(gpsimd::Opcode::TensorScalarSelect), kAll,
                 0x98);
}
TEST(FootprintRandom, GetSequenceBounds) {
  run_footprints("GetSequenceBounds", rw::generator(gpsimd::Opcode::GetSequenceBounds), kV3Up,
                 0xbe);
}
TEST(FootprintRandom, Sort) {
  run_footprints("Sort", rw::generator(gpsimd::Opcode::Sort), kAll, 0x96);
}
TEST(FootprintRandom, AffineSelect) {
  run_footprints("AffineSelect", rw::generator(gpsimd::Opcode::AffineSelect), kAll, 0x92);
}
TEST(FootprintRandom, Iota) {
  run_footprints("Iota", rw::generator(gpsimd::Opcode::Iota), kAll, 0x7e);
}
TEST(FootprintRandom, MatchValueLoad) {
  run_footprints("MatchValueLoad", rw::generator(gpsimd::Opcode::MatchValueLoad), kAll, 0x6d);
}
TEST(FootprintRandom, Max8) {
  run_footprints("Max8", rw::generator(gpsimd::Opcode::Max8), kAll, 0x6c);
}
TEST(FootprintRandom, FindIndex8) {
  run_footprints("FindIndex8", rw::generator(gpsimd::Opcode::FindIndex8), kAll, 0x6e);
}
TEST(FootprintRandom, MatchReplace8) {
  run_footprints("MatchReplace8", rw::generator(gpsimd::Opcode::MatchReplace8), kAll, 0x6f);
}
TEST(FootprintRandom, NonzeroWithCount) {
  run_footprints("NonzeroWithCount", rw::generator(gpsimd::Opcode::NonzeroWithCount), kV3Up, 0xf2);
}
TEST(FootprintRandom, CopyPredicatedScalar) {
  run_footprints("CopyPredicatedScalar", rw::generator(gpsimd::Opcode::CopyPredicatedScalar), kAll,
                 0xe8);
}
TEST(FootprintRandom, DveReadAccumulator) {
  run_footprints("DveReadAccumulator", rw::generator(gpsimd::Opcode::DveReadAccumulator), kAll,
                 0x9b);
}

// Every table row has a random footprint test above.
TEST(FootprintRandom, TensorTensorArith) {
  run_footprints("TensorTensorArith", rw::generator(gpsimd::Opcode::TensorTensorArith), kAll, 0x41);
}

TEST(FootprintRandom, TensorTensorBitvec) {
  run_footprints("TensorTensorBitvec", rw::generator(gpsimd::Opcode::TensorTensorBitvec), kAll,
                 0x51);
}

TEST(FootprintRandom, TensorScalarArith) {
  run_footprints("TensorScalarArith", rw::generator(gpsimd::Opcode::TensorScalarArith), kAll, 0x43);
}

TEST(FootprintRandom, TensorScalarBitvec) {
  run_footprints("TensorScalarBitvec", rw::generator(gpsimd::Opcode::TensorScalarBitvec), kAll,
                 0x53);
}

TEST(FootprintRandom, TensorScalarPtrArith) {
  run_footprints("TensorScalarPtrArith", rw::generator(gpsimd::Opcode::TensorScalarPtrArith), kAll,
                 0x44);
}

TEST(FootprintRandom, TensorScalarPtrBitvec) {
  run_footprints("TensorScalarPtrBitvec", rw::generator(gpsimd::Opcode::TensorScalarPtrBitvec),
                 kAll, 0x54);
}

TEST(FootprintRandom, Copy) {
  run_footprints("Copy", rw::generator(gpsimd::Opcode::Copy), kAll, 0x46, 1000);
}

TEST(FootprintRandom, Cast) {
  run_footprints("Cast", rw::generator(gpsimd::Opcode::Cast), kAll, 0x47, 1000);
}

TEST(FootprintRandom, Memset) {
  run_footprints("Memset", rw::generator(gpsimd::Opcode::Memset), kAll, 0x49);
}

TEST(FootprintRandom, TensorReduceArith) {
  run_footprints("TensorReduceArith", rw::generator(gpsimd::Opcode::TensorReduceArith), kAll, 0x42);
}

TEST(FootprintRandom, TensorReduceBitvec) {
  run_footprints("TensorReduceBitvec", rw::generator(gpsimd::Opcode::TensorReduceBitvec), kAll,
                 0x52);
}

TEST(FootprintRandom, CopyPredicated) {
  run_footprints("CopyPredicated", rw::generator(gpsimd::Opcode::CopyPredicated), kAll, 0x72);
}

TEST(FootprintRandom, TensorScalarCacheCumulative) {
  run_footprints("TensorScalarCacheCumulative",
                 rw::generator(gpsimd::Opcode::TensorScalarCacheCumulative), kAll, 0xe6);
}

TEST(FootprintRandom, TensorTensorScan) {
  run_footprints("TensorTensorScan", rw::generator(gpsimd::Opcode::TensorTensorScan), kAll, 0xe5);
}

TEST(FootprintRandom, ScalarTensorTensorArith) {
  run_footprints("ScalarTensorTensorArith", rw::generator(gpsimd::Opcode::ScalarTensorTensorArith),
                 kAll, 0x9d);
}

// Every valid word faults unsupported-op (SPEC §4.21): it has no footprint.
TEST(FootprintRandom, ScalarTensorTensorBitvec) {
  run_footprints("ScalarTensorTensorBitvec",
                 rw::generator(gpsimd::Opcode::ScalarTensorTensorBitvec), kAll, 0x9e);
}

TEST(FootprintRandom, SelectReduce) {
  run_footprints("SelectReduce", rw::generator(gpsimd::Opcode::SelectReduce), kAll, 0xea);
}

TEST(FootprintRandomCoverage, EveryInstructionIsChecked) {
  gpsimd::test_coverage::expect_table("FootprintRandom tests",
                                      gpsimd::test_coverage::tests_of("FootprintRandom"));
}

// ---- the range arithmetic ------------------------------------------------------------------

std::vector<std::pair<uint32_t, uint32_t>> intervals(const gpsimd::Walk& w) {
  std::vector<gpsimd::program::Interval> iv;
  gpsimd::program::walk_intervals(w, iv, AccessKind::Read);
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (const auto& x : iv) out.emplace_back(x.lo, x.hi);
  return out;
}
// The same by brute force: every byte of every element, then the runs.
std::vector<std::pair<uint32_t, uint32_t>> brute(const gpsimd::Walk& w) {
  std::vector<bool> hit(static_cast<std::size_t>(w.hi()));
  w.for_each([&](uint64_t, uint32_t off) {
    for (unsigned b = 0; b < w.elem; ++b) hit[off + b] = true;
  });
  std::vector<std::pair<uint32_t, uint32_t>> out;
  for (uint32_t i = 0; i < hit.size(); ++i) {
    if (!hit[i]) continue;
    if (!out.empty() && out.back().second == i)
      ++out.back().second;
    else
      out.emplace_back(i, i + 1);
  }
  return out;
}

TEST(FootprintRanges, WalksOfEveryShape) {
  rw::Rng r(0xabcdef);
  for (int k = 0; k < 3000; ++k) {
    gpsimd::Walk w;
    w.elem = r.pick({1u, 2u, 4u});
    w.dims = r.uin(1, 4);
    uint64_t count = 1;
    for (unsigned d = 0; d < w.dims; ++d) {
      w.num[d] = r.chance(20) ? 1 : r.uin(1, k % 10 == 0 && count < 1000 ? 200 : 12);
      w.step[d] = r.chance(20) ? 0 : r.in(-70, 70);
      count *= w.num[d];
    }
    w.start = 0;
    w.start = -w.lo() + r.in(0, 100) * w.elem;
    ASSERT_EQ(intervals(w), brute(w)) << "case " << k;
  }
  // Many runs: the bitmap path (steps 3 and 64 with 40 x 40 runs).
  gpsimd::Walk w;
  w.elem = 2;
  w.dims = 2;
  w.step = {3, 64, 0, 0};
  w.num = {40, 40, 1, 1};
  EXPECT_EQ(intervals(w), brute(w));
}

}  // namespace
