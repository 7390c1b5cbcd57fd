// Randomized check of execute() against the independent reference (reference_model.h):
// thousands of random valid words per instruction on random memory states, executed with
// the fast kernels and with the scalar reference path. After each word the touched
// ranges, the accumulators, the semaphores and the registers must equal the
// reference's; after each batch the whole machines must be equal (operator==), which
// catches a write anywhere else.
//
// The seed is fixed (reproducible runs) and can be changed with GPSIMD_RANDOM_SEED; a
// mismatch prints the seed, the case number, the generation and the word in hex.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/machine.h"
#include "gpsimd/validate.h"
#include "instructions/registry.h"
#include "random_words.h"
#include "reference_model.h"
#include "table_coverage.h"
#include "test_effort.h"

namespace {

namespace rm = refmodel;
using gpsimd::ExecOptions;
using gpsimd::ExecResult;
using gpsimd::Generation;
using gpsimd::Machine;
using gpsimd::Space;
using gpsimd::Status;
using gpsimd::Word;

constexpr unsigned kCasesPerInstruction = 3000;
constexpr unsigned kBatch = 250;  // cases per set of machines, whole-state compared at the end

using namespace gpsimd::random_words;

std::string first_difference(const Machine& want, const Machine& got,
                             const std::vector<Footprint>& fp) {
  for (unsigned i = 0; i < gpsimd::kSemaphores; ++i)
    if (want.semaphores[i] != got.semaphores[i])
      return fmt::format("semaphore {}: want {:#010x}, got {:#010x}", i, want.semaphores[i],
                         got.semaphores[i]);
  for (unsigned i = 0; i < gpsimd::kPartitions; ++i)
    if (want.accumulators[i] != got.accumulators[i])
      return fmt::format("accumulator {}: want {:#010x}, got {:#010x}", i, want.accumulators[i],
                         got.accumulators[i]);
  if (want.registers != got.registers) return "registers differ";
  for (unsigned i = 0; i < gpsimd::kPartitions; ++i)
    if (want.match[i] != got.match[i])
      return fmt::format("search lane {}: matched want {:#04x}, got {:#04x}", i,
                         want.match[i].matched, got.match[i].matched);
  for (const Footprint& f : fp) {
    for (unsigned p = f.p0; p < f.p0 + f.n; ++p) {
      const auto a = want.partition(f.space, p), b = got.partition(f.space, p);
      const auto lo = static_cast<std::size_t>(f.lo), len = static_cast<std::size_t>(f.hi - f.lo);
      if (std::memcmp(a.data() + lo, b.data() + lo, len) == 0) continue;
      for (int64_t o = f.lo; o < f.hi; ++o) {
        const auto i = static_cast<std::size_t>(o);
        if (a[i] != b[i])
          return fmt::format("{} partition {} byte {:#x}: want {:#04x}, got {:#04x}",
                             gpsimd::space_name(f.space), p, o, a[i], b[i]);
      }
    }
  }
  return {};
}

// Records where the library says it wrote, to check each write lies in the footprint.
class WriteLog : public gpsimd::TraceSink {
 public:
  struct Range {
    Space space;
    unsigned partition;
    uint32_t offset;
    std::size_t size;
  };
  std::vector<Range> ranges;
  void retire(const Word&, const gpsimd::InstrDef&) override {}
  void memory(Space s, unsigned p, uint32_t off, std::span<const uint8_t> bytes) override {
    ranges.push_back(Range{s, p, off, bytes.size()});
  }
  void accumulator(unsigned, uint32_t, uint32_t) override {}
  void semaphore(unsigned, uint32_t, uint32_t) override {}
};

bool inside(const WriteLog::Range& w, const std::vector<Footprint>& fp) {
  return std::any_of(fp.begin(), fp.end(), [&](const Footprint& f) {
    return f.space == w.space && w.partition >= f.p0 && w.partition < f.p0 + f.n &&
           int64_t{w.offset} >= f.lo && int64_t{w.offset} + static_cast<int64_t>(w.size) <= f.hi;
  });
}

struct Tally {
  unsigned cases = 0, rejects = 0, faults = 0;
};

// Runs the cases of one instruction; stops at the first mismatch.
void run_random(const char* name, GenFn gen, const std::vector<Generation>& gens, uint64_t salt) {
  const uint64_t seed = base_seed() ^ salt;
  Tally tally;
  Rng batch_rng(seed);
  const unsigned total = gpsimd::test_effort::random_cases(kCasesPerInstruction, kBatch);
  for (unsigned start = 0; start < total; start += kBatch) {
    const Generation g =
        gens[static_cast<std::size_t>(batch_rng.in(0, static_cast<int64_t>(gens.size()) - 1))];
    Machine fast(g), scalar(g), ref(g);
    for (unsigned i = start; i < std::min(start + kBatch, total); ++i) {
      Rng r(seed * 0x9e3779b97f4a7c15ull + i);
      Builder b(r, g, {&fast, &scalar, &ref});
      const Word w = gen(b);
      const std::optional<gpsimd::Engine> engine = b.engine;
      const std::string where =
          fmt::format("{} case {} (GPSIMD_RANDOM_SEED={:#x}, {}, engine {}), word {}", name, i,
                      base_seed(), gpsimd::generation_name(g),
                      engine ? gpsimd::engine_id(*engine) : "default", gpsimd::word_to_hex(w));
      ++tally.cases;
      const gpsimd::Diagnostics diags = gpsimd::validate(w, g, {.engine = engine});
      if (!diags.empty()) {
        if (++tally.rejects <= 5)
          ADD_FAILURE() << where << ": generated word rejected: " << diags.front().message();
        continue;
      }
      WriteLog log;
      const ExecResult rf =
          gpsimd::execute(fast, w, ExecOptions{.trace = &log, .fast = true, .engine = engine});
      const ExecResult rs =
          gpsimd::execute(scalar, w, ExecOptions{.fast = false, .engine = engine});
      const rm::Outcome ro = rm::execute(ref, w, engine);
      const Status want = ro.fault ? Status::Faulted : Status::Retired;
      if (ro.fault) ++tally.faults;
      for (const ExecResult* res : {&rf, &rs}) {
        ASSERT_EQ(res->status, want) << where << ": " << res->message();
        if (ro.fault) {
          ASSERT_EQ(res->fault->kind, *ro.fault) << where << ": " << res->message();
        }
      }
      for (const auto& wr : log.ranges) {
        ASSERT_TRUE(inside(wr, b.footprint()))
            << where << ": write outside the operands: " << gpsimd::space_name(wr.space)
            << " partition " << wr.partition << " [" << wr.offset << ", +" << wr.size << ")";
      }
      const std::string df = first_difference(ref, fast, b.footprint());
      ASSERT_TRUE(df.empty()) << where << " (fast=true): " << df;
      const std::string ds = first_difference(ref, scalar, b.footprint());
      ASSERT_TRUE(ds.empty()) << where << " (fast=false): " << ds;
    }
    ASSERT_TRUE(fast == ref) << name << ": whole machine differs after cases " << start << ".."
                             << start + kBatch - 1 << " (seed " << base_seed() << ")";
    ASSERT_TRUE(scalar == ref) << name << ": whole machine (fast=false) differs after cases "
                               << start << ".." << start + kBatch - 1;
  }
  EXPECT_EQ(tally.rejects, 0u) << name;
  // Injected faults are a few percent: enough to exercise them, rare enough not to dominate
  // (SPEC §4.21: every valid ScalarTensorTensorBitvec word faults unsupported-op).
  EXPECT_GT(tally.faults, 0u) << name;
  if (std::string_view(name) != "ScalarTensorTensorBitvec") {
    EXPECT_LT(tally.faults, tally.cases / 5) << name;
  }
  std::printf("%s: %u cases, %u faults, %u rejected (GPSIMD_RANDOM_SEED=%#llx)\n", name,
              tally.cases, tally.faults, tally.rejects,
              static_cast<unsigned long long>(base_seed()));
}

// One random comparison per instruction of the registry (tests/instructions/): its
// generator, the generations it runs on, and its opcode as the seed's salt.
class ExecuteRandom
    : public ::testing::TestWithParam<const gpsimd::test_registry::InstructionTests*> {};

TEST_P(ExecuteRandom, MatchesTheReference) {
  const gpsimd::test_registry::InstructionTests& t = *GetParam();
  const std::string name(t.mnemonic);
  run_random(name.c_str(), t.generate, t.random_generations, static_cast<uint8_t>(t.opcode));
}

INSTANTIATE_TEST_SUITE_P(Registry, ExecuteRandom, ::testing::ValuesIn(gpsimd::test_registry::all()),
                         [](const auto& p) { return std::string(p.param->mnemonic); });

// Every table row has a random comparison and an independent reference (a file in
// tests/instructions/ that registers both).
TEST(ExecuteRandomCoverage, EveryInstructionIsCompared) {
  std::vector<std::string_view> compared, modelled;
  for (const gpsimd::test_registry::InstructionTests* t : gpsimd::test_registry::all()) {
    if (t->generate != nullptr && !t->random_generations.empty()) compared.push_back(t->mnemonic);
    if (t->reference != nullptr) modelled.push_back(t->mnemonic);
  }
  gpsimd::test_coverage::expect_table("ExecuteRandom generators (tests/instructions/)", compared);
  gpsimd::test_coverage::expect_table("references (tests/instructions/)", modelled);
}

// The reference's own conversions against values worked out by hand from SPEC §5, so that
// the random comparison rests on a checked oracle.
TEST(ReferenceModel, ConversionsMatchHandWorkedValues) {
  using namespace rm::dt;
  EXPECT_EQ(rm::narrow(BF16, 0x3F808000u), 0x3F80u);  // tie -> even
  EXPECT_EQ(rm::narrow(BF16, 0x3F818000u), 0x3F82u);
  EXPECT_EQ(rm::narrow(BF16, 0xFF7FFFFFu), 0xFF80u);  // -FLT_MAX -> -inf
  EXPECT_EQ(rm::narrow(FP16, 0x477FF000u), 0x7C00u);  // 65520 -> inf
  EXPECT_EQ(rm::narrow(FP16, 0x477FEF00u), 0x7BFFu);  // 65519 -> 65504
  EXPECT_EQ(rm::narrow(FP16, 0x33C00000u), 0x0002u);  // 1.5 * 2^-24 -> 2^-23
  EXPECT_EQ(rm::narrow(FP16, 0xB3000000u), 0x8000u);  // -2^-25 -> -0
  EXPECT_EQ(rm::narrow(FP8_E4, 0x43780000u), 0x78u);  // 248 -> inf
  EXPECT_EQ(rm::narrow(FP8_E4, 0x3B000000u), 0x01u);  // 2^-9
  EXPECT_EQ(rm::narrow(FP8_E5, 0x476FFF00u), 0x7Bu);  // 61439 -> 57344
  EXPECT_EQ(rm::narrow(FP8_E3, 0x417B3333u), 0x6Fu);  // 15.7 -> 15.5
  EXPECT_EQ(rm::narrow(FP8_E3, 0xFFC00000u), 0xF8u);  // -NaN
  EXPECT_EQ(rm::widen(BF16, 0x7F81u), 0x7FC10000u);
  EXPECT_EQ(rm::widen(FP16, 0xFD01u), 0xFFE02000u);
  EXPECT_EQ(rm::widen(FP8_E4, 0x79u), 0x7FD00000u);
  EXPECT_EQ(rm::widen(FP8_E3, 0x01u), 0x3C800000u);
  EXPECT_EQ(rm::range_index(8388607.5f, 1), 8388608.0f);  // tie -> even
  EXPECT_EQ(rm::range_index(8388607.5f, 2), 8388610.0f);
  EXPECT_EQ(rm::range_index(rm::as_float(1u), 1), 1.0f);  // the subnormal is below half an ulp
  EXPECT_EQ(rm::max_of({0x80000000u, 0u}), 0u);
  EXPECT_EQ(rm::max_of({0x7fc00001u}), 0x7FC00000u);
  // Every narrow pattern survives widen then narrow (NaNs become canonical).
  for (uint8_t code : {BF16, FP16, FP8_E3, FP8_E4, FP8_E5}) {
    const auto f = *rm::format_of(code);
    const unsigned total = 1 + static_cast<unsigned>(f.exp_bits + f.man_bits);
    for (uint32_t b = 0; b < (1u << total); ++b) {
      const uint32_t wide = rm::widen(code, b);
      const uint32_t back = rm::narrow(code, wide);
      const uint32_t want = rm::is_nan_fp32(wide) ? f.nan | (b & (1u << (total - 1))) : b;
      ASSERT_EQ(back, want) << int{code} << " " << b;
    }
  }
}

}  // namespace
