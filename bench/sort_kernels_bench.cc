// Sort's per-channel kernels (kernels/sort32.h) against the strongest libraries that
// produce the same stable order, on the same packed keys (docs/performance.md "Packed
// keys"): Highway's vqsort through a persistent hwy::Sorter, Boost.Sort's
// pdqsort_branchless and spreadsort::integer_sort. Each contender does the whole job of
// one channel: builds its keys from the values in an inlined loop, sorts them, writes
// the (value, index) pairs. 128 channels of N values, on six value distributions.
//
//   build/release/bench/sort_kernels_bench --benchmark_filter='/2048/'
//
// range(0): 0/1 FP32 ascending/descending, 2/3 BF16, 4/5 INT32 (the values times 10^6),
// 6/7 FP16;
// range(1): N; range(2): the distribution (see kDistributions); range(3): the contender
// (0 gpsimd, 1 vqsort, 2 pdqsort_branchless, 3 spreadsort). Every contender's output is
// checked against gpsimd's before it reports a time.
#include <benchmark/benchmark.h>
#include <hwy/contrib/sort/vqsort.h>

#include <algorithm>
#include <bit>
#include <boost/sort/pdqsort/pdqsort.hpp>
#include <boost/sort/spreadsort/integer_sort.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "gpsimd/format.h"
#include "gpsimd/model.h"
#include "kernels/sort16.h"
#include "kernels/sort32.h"

namespace {

using gpsimd::Dtype;
namespace sort16 = gpsimd::kernels::sort16;
namespace sort32 = gpsimd::kernels::sort32;

constexpr size_t kChannels = 128;
constexpr const char* kDistributions[] = {"uniform_pm1000", "normal",  "narrow",     "16_distinct",
                                          "sorted",         "reverse", "random_bits"};

uint32_t fp32_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// 128 x n values of the distribution, as FP32 bit patterns.
std::vector<uint32_t> make_values(int dist, size_t n) {
  std::mt19937 rng(1234u + static_cast<unsigned>(dist));
  std::vector<uint32_t> v(kChannels * n);
  std::uniform_real_distribution<float> u(-1000.f, 1000.f);
  std::normal_distribution<float> nd(0.f, 1.f);
  std::uniform_real_distribution<float> narrow(100.f, 100.5f);
  for (size_t c = 0; c < kChannels; ++c) {
    uint32_t* row = v.data() + c * n;
    for (size_t i = 0; i < n; ++i) {
      switch (dist) {
        case 0:
          row[i] = fp32_bits(u(rng));
          break;
        case 1:
          row[i] = fp32_bits(nd(rng));
          break;
        case 2:
          row[i] = fp32_bits(narrow(rng));
          break;
        case 3:
          row[i] = fp32_bits(static_cast<float>(rng() % 16) * 0.25f - 2.f);
          break;
        case 4:
        case 5:
          row[i] = fp32_bits(nd(rng));
          break;
        default:
          row[i] = static_cast<uint32_t>(rng());
          break;
      }
    }
    if (dist == 4 || dist == 5) {
      std::vector<float> f(n);
      std::memcpy(f.data(), row, 4 * n);
      std::sort(f.begin(), f.end());
      if (dist == 5) std::reverse(f.begin(), f.end());
      std::memcpy(row, f.data(), 4 * n);
    }
  }
  return v;
}

// The dtype's sort_key (model.h), inlined: FP32/INT32 on 32 bits, BF16/FP16 on 16.
inline uint32_t key32(Dtype dt, uint32_t b) {
  if (dt == Dtype::INT32) return b ^ 0x80000000u;
  const uint32_t mag = b & 0x7fffffffu;
  const uint32_t k = (b & 0x80000000u) ? 0x80000000u - mag : 0x80000000u + mag;
  return mag > 0x7f800000u ? ~0u : k;
}
inline uint32_t key16(Dtype dt, uint32_t b) {
  const uint32_t inf = dt == Dtype::FP16 ? 0x7c00u : 0x7f80u;
  const uint32_t mag = b & 0x7fffu;
  const uint32_t k = (b & 0x8000u) ? 0x8000u - mag : 0x8000u + mag;
  return mag > inf ? 0xffffu : k;
}

template <class Sort>
void channel32(Dtype dt, const uint32_t* v, size_t n, bool desc, uint64_t* keys, uint32_t* out,
               Sort sort) {
  const uint32_t flip = desc ? ~0u : 0u;
  if (dt == Dtype::INT32)
    for (size_t i = 0; i < n; ++i) keys[i] = uint64_t{key32(Dtype::INT32, v[i]) ^ flip} << 32 | i;
  else
    for (size_t i = 0; i < n; ++i) keys[i] = uint64_t{key32(Dtype::FP32, v[i]) ^ flip} << 32 | i;
  sort(keys, n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t p = static_cast<uint32_t>(keys[i]);
    out[2 * i] = v[p];
    out[2 * i + 1] = p;
  }
}
template <class Sort>
void channel16(Dtype dt, const uint16_t* v, size_t n, bool desc, uint32_t* keys, uint16_t* out,
               Sort sort) {
  const uint32_t flip = desc ? 0xffffu : 0u;
  auto pack = [&](Dtype t) {
    for (size_t i = 0; i < n; ++i)
      keys[i] = (key16(t, v[i]) ^ flip) << 16 | static_cast<uint32_t>(i);
  };
  dt == Dtype::FP16 ? pack(Dtype::FP16) : pack(Dtype::BF16);
  sort(keys, n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t p = keys[i] & 0xffffu;
    out[2 * i] = v[p];
    out[2 * i + 1] = static_cast<uint16_t>(p);
  }
}

void BM_SortChannels(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  const size_t n = static_cast<size_t>(state.range(1));
  const int dist = static_cast<int>(state.range(2));
  const int who = static_cast<int>(state.range(3));
  static constexpr Dtype kDtypes[] = {Dtype::FP32, Dtype::BF16, Dtype::INT32, Dtype::FP16};
  const Dtype dt = kDtypes[mode / 2];
  const bool desc = mode & 1, half = dt == Dtype::BF16 || dt == Dtype::FP16;
  std::vector<uint32_t> v32 = make_values(dist, n);
  std::vector<uint16_t> v16(v32.size());
  for (size_t i = 0; i < v32.size(); ++i) {
    if (dt == Dtype::BF16) v16[i] = static_cast<uint16_t>(v32[i] >> 16);
    if (dt == Dtype::FP16) v16[i] = static_cast<uint16_t>(gpsimd::narrow_from_fp32(dt, v32[i]));
  }
  // INT32: the values times 10^6, rounded (random bits stay bits).
  if (dt == Dtype::INT32 && dist != 6)
    for (uint32_t& x : v32)
      x = static_cast<uint32_t>(static_cast<int32_t>(std::lrint(std::bit_cast<float>(x) * 1e6f)));
  std::vector<uint32_t> out(kChannels * 2 * n), want(kChannels * 2 * n);
  std::vector<uint64_t> k64(n + 16);
  std::vector<uint32_t> k32(n + 16);
  thread_local hwy::Sorter sorter;
  auto run = [&](int contender, uint32_t* o) {
    for (size_t c = 0; c < kChannels; ++c) {
      if (!half) {
        const uint32_t* v = v32.data() + c * n;
        uint32_t* oc = o + c * 2 * n;
        switch (contender) {
          case 0:
            sort32::sort_pairs(dt, desc, v, n, n, 0, oc);
            break;
          case 1:
            channel32(dt, v, n, desc, k64.data(), oc,
                      [&](uint64_t* k, size_t m) { sorter(k, m, hwy::SortAscending()); });
            break;
          case 2:
            channel32(dt, v, n, desc, k64.data(), oc,
                      [](uint64_t* k, size_t m) { boost::sort::pdqsort_branchless(k, k + m); });
            break;
          default:
            channel32(dt, v, n, desc, k64.data(), oc, [](uint64_t* k, size_t m) {
              boost::sort::spreadsort::integer_sort(k, k + m);
            });
        }
      } else {
        const uint16_t* v = v16.data() + c * n;
        uint16_t* oc = reinterpret_cast<uint16_t*>(o) + c * 2 * n;
        switch (contender) {
          case 0:
            sort16::sort_pairs(dt, desc, v, n, n, 0, oc);
            break;
          case 1:
            channel16(dt, v, n, desc, k32.data(), oc,
                      [&](uint32_t* k, size_t m) { sorter(k, m, hwy::SortAscending()); });
            break;
          case 2:
            channel16(dt, v, n, desc, k32.data(), oc,
                      [](uint32_t* k, size_t m) { boost::sort::pdqsort_branchless(k, k + m); });
            break;
          default:
            channel16(dt, v, n, desc, k32.data(), oc, [](uint32_t* k, size_t m) {
              boost::sort::spreadsort::integer_sort(k, k + m);
            });
        }
      }
    }
  };
  run(2, want.data());
  run(who, out.data());
  if (out != want) {
    state.SkipWithError("output differs from pdqsort_branchless's");
    return;
  }
  for (auto _ : state) {
    run(who, out.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kChannels * n));
  static const char* kWho[] = {"gpsimd", "vqsort", "pdqsort_branchless", "spreadsort"};
  static const char* kMode[] = {"fp32_asc",  "fp32_desc",  "bf16_asc", "bf16_desc",
                                "int32_asc", "int32_desc", "fp16_asc", "fp16_desc"};
  state.SetLabel(std::string(kMode[mode]) + " " + kDistributions[dist] + " " + kWho[who]);
}

void Args(benchmark::internal::Benchmark* b) {
  for (int mode = 0; mode < 8; ++mode)
    for (int64_t n : {128, 256, 512, 1024, 2048, 4096}) {
      if ((mode < 2 || mode == 4 || mode == 5) && n == 4096) continue;
      for (int dist = 0; dist < 7; ++dist)
        for (int who = 0; who < 4; ++who) b->Args({mode, n, dist, who});
    }
}
BENCHMARK(BM_SortChannels)->Apply(Args)->Unit(benchmark::kMicrosecond)->MinTime(0.05);

}  // namespace

BENCHMARK_MAIN();
