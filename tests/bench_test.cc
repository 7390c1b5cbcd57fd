// `gpsimd bench`'s header (the machine a table was measured on) and its workload list.
#include "suite/bench.h"

#include <gtest/gtest.h>
#include <hwy/targets.h>
#include <sched.h>

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
// GCC 12 reports a false -Wmaybe-uninitialized inside <regex> at -O1 (the sanitizer
// preset's level); the warning is about the library's code, not this file's.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "gpsimd/format.h"
#include "gpsimd/isa.h"
#include "gpsimd/validate.h"
#include "kernels/kernels.h"
#include "suite/harness.h"

namespace gpsimd {
namespace {

// The lines of `text` that start with `label`, without it.
std::vector<std::string> field(const std::string& text, const std::string& label) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(at, end - at);
    if (line.rfind(label, 0) == 0) out.push_back(line.substr(label.size()));
    at = end + 1;
  }
  return out;
}

std::string captured(const BenchOptions& opts, int* status) {
  std::FILE* f = std::tmpfile();
  *status = run_bench_suite(opts, f);
  std::rewind(f);
  std::string s;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) s.append(buf, n);
  std::fclose(f);
  return s;
}

TEST(BenchHeader, CpuListWritesRuns) {
  EXPECT_EQ(bench::cpu_list({}), "");
  EXPECT_EQ(bench::cpu_list({0}), "0");
  EXPECT_EQ(bench::cpu_list({0, 1}), "0-1");
  EXPECT_EQ(bench::cpu_list({0, 1, 2, 3, 6}), "0-3,6");
  EXPECT_EQ(bench::cpu_list({1, 3, 5, 6}), "1,3,5-6");
}

TEST(BenchHeader, NamesTheCpuModelFromProcCpuinfo) {
  std::ifstream in("/proc/cpuinfo");
  std::string line, model;
  const std::regex re(R"(^model name\s*:\s*(.*)$)");
  std::smatch m;
  while (model.empty() && std::getline(in, line))
    if (std::regex_match(line, m, re)) model = m[1];
  if (model.empty()) GTEST_FAIL() << "this machine's /proc/cpuinfo has no model name";
  const std::string h = bench_header({});
  EXPECT_EQ(bench_machine().cpu_model, model);
  ASSERT_EQ(field(h, "CPU:").size(), 1u) << h;
  EXPECT_NE(field(h, "CPU:")[0].find(model), std::string::npos) << h;
}

TEST(BenchHeader, NamesTheSimdTargetAndTheMethod) {
  BenchOptions o;
  o.samples = 7;
  o.min_sample_ms = 2.5;
  o.threads = false;
  const std::string h = bench_header(o);
  ASSERT_EQ(field(h, "SIMD target:").size(), 1u) << h;
  EXPECT_NE(field(h, "SIMD target:")[0].find(std::string(" ") + kernels::simd_target() + " "),
            std::string::npos)
      << h;
  EXPECT_NE(h.find("instructions may use 1; baselines use 1"), std::string::npos) << h;
  EXPECT_NE(h.find("Medians of 7 samples per contender"), std::string::npos) << h;
  EXPECT_NE(h.find("each sample >= 2.5 ms"), std::string::npos) << h;
  // One thread: timed by its CPU time, unless wall-clock time is asked for; with the
  // worker pool always by wall-clock time.
  EXPECT_EQ(field(h, "clock:").size(), 1u) << h;
  EXPECT_NE(field(h, "clock:")[0].find("the thread's CPU time"), std::string::npos) << h;
  o.wall_clock = true;
  EXPECT_EQ(field(bench_header(o), "clock:"), std::vector<std::string>{"        wall-clock time"});
  o.wall_clock = false;
  o.threads = true;
  EXPECT_EQ(field(bench_header(o), "clock:"), std::vector<std::string>{"        wall-clock time"});
}

TEST(BenchHeader, NamesThePinnedCpus) {
  cpu_set_t saved;
  ASSERT_EQ(sched_getaffinity(0, sizeof saved, &saved), 0);
  auto pin = [](std::vector<unsigned> cpus) {
    cpu_set_t s;
    CPU_ZERO(&s);
    for (unsigned c : cpus) CPU_SET(c, &s);
    return sched_setaffinity(0, sizeof s, &s) == 0;
  };
  std::vector<unsigned> allowed;
  for (unsigned c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &saved)) allowed.push_back(c);
  ASSERT_FALSE(allowed.empty());
  // One CPU, then the first two (if there are two).
  ASSERT_TRUE(pin({allowed[0]}));
  EXPECT_EQ(field(bench_header({}), "pinned CPUs:"),
            std::vector<std::string>{"  " + std::to_string(allowed[0])});
  if (allowed.size() >= 2) {
    ASSERT_TRUE(pin({allowed[0], allowed[1]}));
    const std::string want = allowed[1] == allowed[0] + 1
                                 ? std::to_string(allowed[0]) + "-" + std::to_string(allowed[1])
                                 : std::to_string(allowed[0]) + "," + std::to_string(allowed[1]);
    EXPECT_EQ(field(bench_header({}), "pinned CPUs:"), std::vector<std::string>{"  " + want});
  }
  ASSERT_EQ(sched_setaffinity(0, sizeof saved, &saved), 0);
}

TEST(BenchHeader, GivesTheLoadAverage) {
  const std::vector<std::string> v = field(bench_header({}), "load average:");
  ASSERT_EQ(v.size(), 1u);
  EXPECT_TRUE(std::regex_match(v[0], std::regex(R"( +\d+\.\d\d \d+\.\d\d \d+\.\d\d .*)"))) << v[0];
}

TEST(BenchHeader, OpensTheTable) {
  BenchOptions o;
  o.filter = "execute() Sort fp32 1ch x 16";
  o.samples = 1;
  o.min_sample_ms = 0.1;
  int status = -1;
  const std::string s = captured(o, &status);
  EXPECT_EQ(status, 0) << s;
  EXPECT_EQ(s.rfind(bench_header(o).substr(0, 13), 0), 0u) << s;  // "gpsimd bench\n"
  EXPECT_EQ(field(s, "CPU:").size(), 1u) << s;
  EXPECT_EQ(field(s, "pinned CPUs:").size(), 1u) << s;
  EXPECT_EQ(field(s, "load average:").size(), 1u) << s;
  EXPECT_NE(s.find("outputs all verified"), std::string::npos) << s;
}

// --target: every supported target can be forced, the header and the kernels then name
// it (and the CPU's best), a row runs and verifies on it, and the CPU's best comes back
// after the run; a target the CPU lacks or an unknown name measures nothing.
TEST(BenchTarget, RunsEverySupportedTargetAndNamesIt) {
  const std::vector<std::string> supported = kernels::simd_targets_supported();
  ASSERT_FALSE(supported.empty());
  const std::string best = supported.front();
  EXPECT_EQ(best, kernels::simd_target());
  for (const std::string& t : supported) {
    SCOPED_TRACE(t);
    BenchOptions o;
    o.filter = "GetSequenceBounds int32 step -2";
    o.samples = 1;
    o.min_sample_ms = 0.1;
    o.threads = false;
    std::string lower = t;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    o.target = lower;
    int status = -1;
    const std::string s = captured(o, &status);
    EXPECT_EQ(status, 0) << s;
    ASSERT_EQ(field(s, "SIMD target:").size(), 1u) << s;
    const std::string line = field(s, "SIMD target:")[0];
    EXPECT_EQ(line.find("  " + t + " ("), 0u) << line;
    EXPECT_EQ(line.find("forced by --target; this CPU's best is " + best) != std::string::npos,
              t != best)
        << line;
    EXPECT_NE(s.find("outputs all verified"), std::string::npos) << s;
    EXPECT_EQ(kernels::simd_target(), best);  // restored
    // Forced by hand, the kernels' dispatch follows.
    EXPECT_EQ(kernels::force_simd_target(t), "");
    EXPECT_EQ(kernels::simd_target(), t);
    EXPECT_EQ(kernels::simd_targets_supported(), supported);
    EXPECT_EQ(kernels::force_simd_target(""), "");
    EXPECT_EQ(kernels::simd_target(), best);
  }
  EXPECT_NE(kernels::force_simd_target("sse9").find("unknown SIMD target \"sse9\""),
            std::string::npos);
  EXPECT_EQ(kernels::simd_target(), best);
  // A CPU without AVX-512 (Highway's mock of the CPU's targets): --target avx3 is
  // refused and nothing is measured.
  hwy::SetSupportedTargetsForTest(HWY_SCALAR);
  BenchOptions o;
  o.filter = "GetSequenceBounds";
  o.target = "avx3";
  int status = -1;
  const std::string s = captured(o, &status);
  hwy::SetSupportedTargetsForTest(0);
  EXPECT_EQ(status, 2) << s;
  EXPECT_NE(s.find("--target avx3: this CPU does not support the SIMD target AVX3 (it supports "
                   "SCALAR)"),
            std::string::npos)
      << s;
  EXPECT_EQ(s.find("GetSequenceBounds int32"), std::string::npos) << s;
  EXPECT_EQ(kernels::simd_target(), best);
}

// Every Sort row is named after its value distribution; the small-N rows run on two of
// them unless all_distributions.
TEST(BenchWorkloads, SortRowsNameTheirDistribution) {
  BenchOptions o;
  o.list = true;
  o.filter = "sort bf16 desc N=4096 ";
  int status = -1;
  EXPECT_EQ(captured(o, &status),
            "sort bf16 desc N=4096 random\nsort bf16 desc N=4096 normal\n"
            "sort bf16 desc N=4096 narrow\nsort bf16 desc N=4096 dups16\n"
            "sort bf16 desc N=4096 sorted\nsort bf16 desc N=4096 reverse\n");
  EXPECT_EQ(status, 0);
  o.filter = "sort fp32 asc N=16 ";
  EXPECT_EQ(captured(o, &status), "sort fp32 asc N=16 random\nsort fp32 asc N=16 normal\n");
  o.all_distributions = true;
  EXPECT_EQ(captured(o, &status),
            "sort fp32 asc N=16 random\nsort fp32 asc N=16 normal\nsort fp32 asc N=16 narrow\n"
            "sort fp32 asc N=16 dups16\nsort fp32 asc N=16 sorted\nsort fp32 asc N=16 reverse\n");
  o.filter = "dups16";
  const std::string rows = captured(o, &status);
  // 7 dtypes x 2 directions at the largest N, fp32/bf16/fp16 x 2 directions x N = 16, 128;
  // and Max8's rows of few distinct values (fp32/bf16 x 128x512, 128x16384).
  EXPECT_EQ(std::count(rows.begin(), rows.end(), '\n'), 14 + 12 + 4) << rows;
}

// Every row's words (built from the instructions' sample words by field name, harness.h)
// validate clean, in default and strict mode, on the engine the row runs them on: every
// row of words has them, and none is empty.
TEST(BenchWorkloads, EveryRowsWordsValidateClean) {
  const std::vector<bench::Workload> all = bench::workloads(true);
  std::size_t rows = 0, words = 0;
  for (const bench::Workload& w : all) {
    if (!w.words) {
      EXPECT_EQ(w.name, "program 10000 words, three queues");  // its words are assembled text
      continue;
    }
    ++rows;
    const std::vector<Word> ws = w.words();
    EXPECT_FALSE(ws.empty()) << w.name;
    for (const Word& word : ws) {
      ++words;
      for (bool strict : {false, true}) {
        const Diagnostics d = validate(word, bench::kGen, ValidateOptions{strict, w.engine});
        ASSERT_TRUE(d.empty()) << w.name << (strict ? " (strict): " : ": ") << d[0].message()
                               << "\n"
                               << word_to_hex(word);
      }
    }
  }
  EXPECT_EQ(rows, all.size() - 1);
  EXPECT_GT(words, rows);
}

// ---- the Sort baselines' vector loops (baseline_keys.cc), on every SIMD target -----------

template <class F>
void for_each_target(F f) {
  hwy::SetSupportedTargetsForTest(0);
  const int64_t supported = hwy::SupportedTargets();
  for (int64_t t :
       {int64_t{HWY_AVX3}, int64_t{HWY_AVX2}, int64_t{HWY_EMU128}, int64_t{HWY_SCALAR}}) {
    if ((supported & t) == 0) continue;
    hwy::SetSupportedTargetsForTest(t);
    SCOPED_TRACE(hwy::TargetName(t));
    f();
  }
  hwy::SetSupportedTargetsForTest(0);
}

// SPEC §4.4's order, from the numbers: (0, value) for numbers, (1, 0) for every NaN, so
// -0.0 == +0.0 and NaNs are above +inf and equal to each other.
std::pair<int, double> spec_rank(Dtype dt, uint32_t bits) {
  switch (dt) {
    case Dtype::INT32:
      return {0, static_cast<int32_t>(bits)};
    case Dtype::INT16:
      return {0, static_cast<int16_t>(bits)};
    case Dtype::UINT32:
    case Dtype::UINT16:
      return {0, bits};
    default: {
      const float f = fp32_from_bits(dt == Dtype::FP32 ? bits : widen_to_fp32(dt, bits));
      return std::isnan(f) ? std::pair<int, double>{1, 0.0} : std::pair<int, double>{0, f};
    }
  }
}

// Special patterns (zeros, infinities, NaNs, extremes, subnormals) and random ones; 203
// of them, so that every target also runs its scalar tail.
std::vector<uint32_t> key_test_values(Dtype dt, uint64_t seed) {
  const bool wide = *dtype_size(dt) == 4;
  std::vector<uint32_t> v =
      wide ? std::vector<uint32_t>{0,           0x80000000u, 0x7f800000u, 0xff800000u,
                                   0x7fc00000u, 0xffc00001u, 1,           0x80000001u,
                                   0x7fffffffu, 0xffffffffu, 0x3f800000u}
           : std::vector<uint32_t>{0,       0x8000u, 0x7c00u, 0xfc00u, 0x7f80u, 0xff80u, 0x7e00u,
                                   0xffc1u, 1,       0x8001u, 0x7fffu, 0xffffu, 0x3c00u};
  while (v.size() < 203) {
    const uint32_t r = static_cast<uint32_t>(bench::splitmix(seed));
    v.push_back(wide ? r : r & 0xffffu);
    if (v.size() % 7 == 0) v.push_back(v[v.size() / 2]);  // duplicates
  }
  v.resize(203);
  return v;
}

TEST(BenchKeys, PackedKeysFollowSpecOrderOnEveryTarget) {
  const Dtype kDtypes[] = {Dtype::FP32, Dtype::INT32, Dtype::UINT32, Dtype::FP16,
                           Dtype::BF16, Dtype::INT16, Dtype::UINT16};
  for_each_target([&] {
    for (Dtype dt : kDtypes) {
      SCOPED_TRACE(bench::dtype_label(dt));
      const std::vector<uint32_t> v = key_test_values(dt, 7 + static_cast<uint64_t>(dt));
      const std::size_t n = v.size();
      const bool wide = *dtype_size(dt) == 4;
      for (bool desc : {false, true}) {
        SCOPED_TRACE(desc ? "descending" : "ascending");
        // key[i]: the packed key's key part; pos[i]: its position part.
        std::vector<uint64_t> key(n), pos(n);
        std::vector<uint32_t> plain(n);
        if (wide) {
          std::vector<uint64_t> k(n);
          bench::pack_keys64(dt, desc, v.data(), n, k.data());
          bench::sort_keys(dt, v.data(), n, plain.data());
          for (std::size_t i = 0; i < n; ++i) key[i] = k[i] >> 32, pos[i] = k[i] & 0xffffffffu;
        } else {
          std::vector<uint16_t> v16(v.begin(), v.end());
          std::vector<uint32_t> k(n);
          bench::pack_keys32(dt, desc, v16.data(), n, k.data());
          bench::sort_keys(dt, v16.data(), n, plain.data());
          for (std::size_t i = 0; i < n; ++i) key[i] = k[i] >> 16, pos[i] = k[i] & 0xffffu;
        }
        const uint64_t flip = desc ? (wide ? 0xffffffffu : 0xffffu) : 0;
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_EQ(pos[i], i);
          ASSERT_EQ(key[i], plain[i] ^ flip) << "value " << std::hex << v[i];
          for (std::size_t j = 0; j < n; ++j) {
            const auto a = spec_rank(dt, v[i]), b = spec_rank(dt, v[j]);
            // The key follows SPEC's order: inverted for descending.
            ASSERT_EQ(plain[i] < plain[j], a < b) << std::hex << v[i] << " vs " << v[j];
            ASSERT_EQ(plain[i] == plain[j], a == b) << std::hex << v[i] << " vs " << v[j];
          }
        }
      }
    }
  });
}

TEST(BenchKeys, PairsGatherTheValuesOnEveryTarget) {
  for_each_target([] {
    std::vector<uint32_t> v = key_test_values(Dtype::FP32, 99);
    const std::size_t n = v.size();
    std::vector<uint64_t> keys(n);
    uint64_t seed = 5;
    // Positions in a shuffled order, key bits above them.
    std::vector<uint32_t> order(n);
    for (uint32_t i = 0; i < n; ++i) order[i] = i;
    for (std::size_t i = n - 1; i > 0; --i)
      std::swap(order[i], order[bench::splitmix(seed) % (i + 1)]);
    for (std::size_t i = 0; i < n; ++i)
      keys[i] = uint64_t{0xabcd0000u + static_cast<uint32_t>(i)} << 32 | order[i];
    std::vector<uint32_t> out(2 * n, 0xdeadbeefu);
    bench::pairs_from_keys(keys.data(), v.data(), n, out.data());
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[2 * i], v[order[i]]) << i;
      ASSERT_EQ(out[2 * i + 1], order[i]) << i;
    }
  });
}

// Max8's std::partial_sort baseline widens BF16 rows with a vector loop: every pattern
// (NaNs with their payloads too) becomes its bits << 16, on every target; 65536 + 5
// elements, so that the scalar tail runs as well.
TEST(BenchKeys, WidenBf16GivesEveryPatternsFp32OnEveryTarget) {
  std::vector<uint16_t> in(65536 + 5);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint16_t>(i * 40503u);
  for_each_target([&] {
    std::vector<float> out(in.size());
    bench::widen_bf16(in.data(), in.size(), out.data());
    for (std::size_t i = 0; i < in.size(); ++i) {
      uint32_t b;
      std::memcpy(&b, &out[i], 4);
      ASSERT_EQ(b, uint32_t{in[i]} << 16) << i;
    }
  });
}

// The ALU rows of issue 23's targets, by name.
TEST(BenchWorkloads, AluRowsFillTheSbuf) {
  BenchOptions o;
  o.list = true;
  o.filter = " full SBUF";
  int status = -1;
  EXPECT_EQ(captured(o, &status),
            "TensorTensor fp32 add full SBUF\nTensorTensor fp32 mult full SBUF\n"
            "TensorTensor fp32 max full SBUF\nTensorTensorBitvec int32 and full SBUF\n"
            "TensorTensorBitvec int32 xor full SBUF\nTensorTensorBitvec int32 shl full SBUF\n"
            "TensorTensorBitvec int32 ashr full SBUF\nTensorTensor pool int32 add full SBUF\n"
            "TensorTensor pool int32 mult full SBUF\nTensorScalar fp32 mult,add ptr full SBUF\n"
            "TensorScalar bf16 mult,add ptr full SBUF\n");
  EXPECT_EQ(status, 0);
}

// The ALU rows' plain loops (baseline_alu.cc) compute their expression on every target.
TEST(BenchPlainLoops, ComputeTheirExpressionOnEveryTarget) {
  for_each_target([] {
    uint64_t seed = 9;
    const std::size_t n = 1000 + 7;  // a tail after the vectors
    std::vector<float> a(n), b(n), out(n);
    for (std::size_t i = 0; i < n; ++i) {
      a[i] = std::bit_cast<float>(bench::random_fp32(seed));
      b[i] = std::bit_cast<float>(bench::random_fp32(seed));
    }
    for (bench::PlainAluOp op :
         {bench::PlainAluOp::Add, bench::PlainAluOp::Mult, bench::PlainAluOp::Max}) {
      bench::plain_fp32(op, a.data(), b.data(), n, out.data());
      for (std::size_t i = 0; i < n; ++i) {
        const float want = op == bench::PlainAluOp::Add    ? a[i] + b[i]
                           : op == bench::PlainAluOp::Mult ? a[i] * b[i]
                                                           : std::max(a[i], b[i]);
        if (std::isnan(want)) {
          ASSERT_TRUE(std::isnan(out[i])) << i;
        } else {
          ASSERT_EQ(std::bit_cast<uint32_t>(out[i]), std::bit_cast<uint32_t>(want)) << i;
        }
      }
    }
  });
}

}  // namespace
}  // namespace gpsimd
