// The Sort rows of `gpsimd bench` (suite/bench.h): Sort instruction words through
// execute() against the ways a C++ programmer sorts the same values and gets the same
// (value, index) pairs, each done the best way a user of that library would:
//  - std::stable_sort and std::sort on (key, index) pairs;
//  - packed keys (key << 32 | position, or key << 16 | position for 16-bit dtypes; the
//    words are unique, so any sort of them is stable) sorted by Highway's vqsort through
//    a persistent hwy::Sorter, by Boost.Sort's pdqsort_branchless and by its spreadsort
//    integer_sort.
// Every baseline reads the values from the same SBUF bytes as the instruction, builds its
// keys with vector code compiled for the kernels' SIMD target (baseline_keys.cc, no calls
// into the model or the kernels), and writes (value, index) pairs in the instruction's
// destination layout; the pairs are compared with the scalar reference's after every
// sample.
#include <fmt/format.h>
#include <hwy/contrib/sort/vqsort.h>

#include <algorithm>
#include <boost/sort/pdqsort/pdqsort.hpp>
#include <boost/sort/spreadsort/integer_sort.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gpsimd/format.h"
#include "gpsimd/isa.h"
#include "suite/harness.h"

namespace gpsimd::bench {
namespace {

// ---- the values -----------------------------------------------------------------------

// The value distributions of every Sort row (the last word of the row's name).
enum class Dist { Random, Normal, Narrow, Dups16, Sorted, Reverse };
constexpr Dist kDists[] = {Dist::Random, Dist::Normal, Dist::Narrow,
                           Dist::Dups16, Dist::Sorted, Dist::Reverse};

const char* dist_name(Dist d) {
  switch (d) {
    case Dist::Random:
      return "random";
    case Dist::Normal:
      return "normal";
    case Dist::Narrow:
      return "narrow";
    case Dist::Dups16:
      return "dups16";
    case Dist::Sorted:
      return "sorted";
    case Dist::Reverse:
      return "reverse";
  }
  return "?";
}

double uniform(uint64_t& s) {
  return static_cast<double>(splitmix(s) >> 11) * 0x1p-53;
}

double normal(uint64_t& s) {  // Box-Muller
  const double u = 1.0 - uniform(s), v = uniform(s);
  return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
}

// A number of the row's dtype as its bit pattern (low bits): floats round to nearest,
// integers round and saturate. Both are monotone, so sorted numbers stay sorted.
uint32_t to_bits(Dtype dt, double x) {
  auto clamp_int = [&](double lo, double hi) {
    return static_cast<int64_t>(std::llround(std::clamp(x, lo, hi)));
  };
  switch (dt) {
    case Dtype::FP32:
      return bits_from_fp32(static_cast<float>(x));
    case Dtype::FP16:
    case Dtype::BF16:
      return narrow_from_fp32(dt, bits_from_fp32(static_cast<float>(x)));
    case Dtype::INT32:
      return static_cast<uint32_t>(clamp_int(-2147483648.0, 2147483647.0));
    case Dtype::UINT32:
      return static_cast<uint32_t>(clamp_int(0, 4294967295.0));
    case Dtype::INT16:
      return static_cast<uint32_t>(clamp_int(-32768, 32767)) & 0xffffu;
    default:
      return static_cast<uint32_t>(clamp_int(0, 65535));
  }
}

// Scores and logits: floats N(0, 4²); integers around the middle of their range
// (signed: 0; unsigned: 2^31 or 2^15) with a spread of 10^6 (32-bit) or 1000 (16-bit).
double normal_number(Dtype dt, uint64_t& s) {
  const double z = normal(s);
  const bool wide = *dtype_size(dt) == 4;
  switch (dt) {
    case Dtype::FP32:
    case Dtype::FP16:
    case Dtype::BF16:
      return 4.0 * z;
    case Dtype::INT32:
    case Dtype::INT16:
      return (wide ? 1e6 : 1e3) * z;
    default:
      return (wide ? 2147483648.0 : 32768.0) + (wide ? 1e6 : 1e3) * z;
  }
}

// Numbers with nearly equal exponents: floats uniform in [1, 2) (one binade); integers
// uniform in [base, base + 1024) with base 10^6 (32-bit) or 1000 (16-bit).
double narrow_number(Dtype dt, uint64_t& s) {
  const double u = uniform(s);
  if (dt == Dtype::FP32 || dt == Dtype::FP16 || dt == Dtype::BF16) return 1.0 + u;
  return (*dtype_size(dt) == 4 ? 1e6 : 1e3) + std::floor(u * 1024);
}

// One partition's n values (bit patterns) of distribution `d`. `descending`: the order
// the row sorts in ("sorted" input is already in it, "reverse" is in the other).
std::vector<uint32_t> row_values(Dtype dt, Dist d, bool descending, unsigned n, uint64_t& s) {
  const uint32_t mask = *dtype_size(dt) == 2 ? 0xffffu : 0xffffffffu;
  std::vector<uint32_t> v(n);
  switch (d) {
    case Dist::Random:  // any bit pattern: NaNs, infinities, subnormals, all exponents
      for (auto& x : v) x = static_cast<uint32_t>(splitmix(s)) & mask;
      break;
    case Dist::Normal:
      for (auto& x : v) x = to_bits(dt, normal_number(dt, s));
      break;
    case Dist::Narrow:
      for (auto& x : v) x = to_bits(dt, narrow_number(dt, s));
      break;
    case Dist::Dups16: {
      uint32_t pool[16];
      for (auto& x : pool) x = to_bits(dt, normal_number(dt, s));
      for (auto& x : v) x = pool[splitmix(s) % 16];
      break;
    }
    case Dist::Sorted:
    case Dist::Reverse: {
      std::vector<double> num(n);
      for (auto& x : num) x = normal_number(dt, s);
      const bool down = descending == (d == Dist::Sorted);
      if (down)
        std::sort(num.begin(), num.end(), std::greater<double>());
      else
        std::sort(num.begin(), num.end());
      for (unsigned i = 0; i < n; ++i) v[i] = to_bits(dt, num[i]);
      break;
    }
  }
  return v;
}

// ---- the baselines --------------------------------------------------------------------

struct SortCase {
  Dtype dt;
  bool descending;
  unsigned n;  // elements per partition
  Dist dist;
};

// The baselines' shared state. They read the same input bytes as the instructions (in
// the machine's SBUF, one partition apart) and write (value, index) pairs laid out like
// the instruction's destination, into a buffer with the same partition stride, so that
// every contender touches memory the same way.
struct SortHost {
  SortCase sc;
  const uint8_t* sbuf = nullptr;
  std::size_t stride = 0;  // bytes per partition
  uint32_t dst_off = 0;
  std::vector<uint8_t> out;
  std::vector<std::vector<uint8_t>> expected;  // per partition, the reference's pairs
  std::vector<uint32_t> keys;                  // pairs baselines: the keys
  std::vector<std::pair<uint32_t, uint32_t>> pairs;
  std::vector<uint64_t> keys64;  // packed keys, 32-bit dtypes
  std::vector<uint32_t> keys32;  // packed keys, 16-bit dtypes
  hwy::Sorter sorter;
  bool valid = true;  // the reference ran; otherwise nothing matches

  template <class T>
  const T* in(unsigned p) const {
    return reinterpret_cast<const T*>(sbuf + p * stride);
  }
  template <class T>
  T* pairs_out(unsigned p) {
    return reinterpret_cast<T*>(out.data() + p * stride + dst_off);
  }
  bool matches() const {
    if (!valid) return false;
    for (unsigned p = 0; p < kPartitions; ++p)
      if (std::memcmp(out.data() + p * stride + dst_off, expected[p].data(), expected[p].size()))
        return false;
    return true;
  }
};

// The (key, index) pairs of partition p, keys by the vector loop.
template <class T>
void make_pairs(SortHost& h, const T* v) {
  const unsigned n = h.sc.n;
  h.keys.resize(n);
  h.pairs.resize(n);
  sort_keys(h.sc.dt, v, n, h.keys.data());
  for (unsigned i = 0; i < n; ++i) h.pairs[i] = {h.keys[i], i};
}

template <class T>
void write_pairs(SortHost& h, const T* v, unsigned p) {
  T* o = h.pairs_out<T>(p);
  for (unsigned k = 0; k < h.sc.n; ++k) {
    o[2 * k] = v[h.pairs[k].second];
    o[2 * k + 1] = static_cast<T>(h.pairs[k].second);
  }
}

template <class T>
void stable_sort_pairs(SortHost& h) {
  for (unsigned p = 0; p < kPartitions; ++p) {
    const T* v = h.in<T>(p);
    make_pairs(h, v);
    if (h.sc.descending)
      std::stable_sort(h.pairs.begin(), h.pairs.end(),
                       [](auto& a, auto& b) { return a.first > b.first; });
    else
      std::stable_sort(h.pairs.begin(), h.pairs.end(),
                       [](auto& a, auto& b) { return a.first < b.first; });
    write_pairs(h, v, p);
  }
}

template <class T>
void sort_pairs(SortHost& h) {
  for (unsigned p = 0; p < kPartitions; ++p) {
    const T* v = h.in<T>(p);
    make_pairs(h, v);
    // Ties by position: std::sort is not stable.
    if (h.sc.descending)
      std::sort(h.pairs.begin(), h.pairs.end(), [](auto& a, auto& b) {
        return a.first != b.first ? a.first > b.first : a.second < b.second;
      });
    else
      std::sort(h.pairs.begin(), h.pairs.end());
    write_pairs(h, v, p);
  }
}

enum class Library { Vqsort, Pdqsort, Spreadsort };

// Sorts packed keys (unique, so any sort gives the stable order) ascending with `lib`.
template <class K>
void sort_packed(SortHost& h, Library lib, std::vector<K>& k) {
  switch (lib) {
    case Library::Vqsort:
      h.sorter(k.data(), k.size(), hwy::SortAscending());
      break;
    case Library::Pdqsort:
      boost::sort::pdqsort_branchless(k.begin(), k.end());
      break;
    case Library::Spreadsort:
      boost::sort::spreadsort::integer_sort(k.begin(), k.end());
      break;
  }
}

// Packed keys sorted ascending by `lib`, then the pairs: 32-bit dtypes by a vector
// gather (baseline_keys.cc), 16-bit ones by a scalar loop of 32-bit stores.
template <class T>
void packed_sort(SortHost& h, Library lib) {
  const unsigned n = h.sc.n;
  for (unsigned p = 0; p < kPartitions; ++p) {
    const T* v = h.in<T>(p);
    T* o = h.pairs_out<T>(p);
    if constexpr (sizeof(T) == 4) {
      auto& k = h.keys64;
      k.resize(n);
      pack_keys64(h.sc.dt, h.sc.descending, v, n, k.data());
      sort_packed(h, lib, k);
      pairs_from_keys(k.data(), v, n, o);
    } else {
      auto& k = h.keys32;
      k.resize(n);
      pack_keys32(h.sc.dt, h.sc.descending, v, n, k.data());
      sort_packed(h, lib, k);
      for (unsigned i = 0; i < n; ++i) {
        const uint32_t pos = k[i] & 0xffffu;
        const uint32_t pair = uint32_t{v[pos]} | pos << 16;
        std::memcpy(o + 2 * i, &pair, 4);
      }
    }
  }
}

// ---- the rows -------------------------------------------------------------------------

// The Sort words: source at offset 0, destination right after it; one instruction per
// group of partitions, as many channels as N x channels allows.
Plan sort_plan(const SortCase& sc) {
  constexpr auto& F = table::kSort;
  const unsigned size = *dtype_size(sc.dt);
  const unsigned limit = size == 2 ? 4096 : 2048;
  const unsigned per_instr = std::max(1u, std::min(kPartitions, limit / sc.n));
  const auto n = static_cast<uint16_t>(sc.n);
  Plan pl;
  pl.count = sc.n;
  pl.dst_off = sc.n * size;
  for (unsigned p0 = 0; p0 < kPartitions; p0 += per_instr) {
    Word w = sample_word(Opcode::Sort);
    put_u8(w, field_of(F, "num_active_channels"),
           static_cast<uint8_t>(std::min(per_instr, kPartitions - p0)));
    put_u8(w, field_of(F, "in_out_dtype"), dtype_pair(sc.dt, sc.dt));
    put_u8(w, field_of(F, "comparison"), code(sc.descending ? AluOp::IS_GT : AluOp::IS_LT));
    put_tensor(w, field_of(F, "src_mem_pattern"), tensor(1, p0, 0, {1, 0, 0}, {n, 1, 1}));
    put_tensor(w, field_of(F, "dst_mem_pattern"), tensor(2, p0, pl.dst_off, {1, 2, 0}, {2, n, 1}));
    pl.words.push_back(w);
  }
  return pl;
}

// The row's targets (issue 18), on every distribution:
//  - the largest legal N (2048 for 32-bit dtypes, 4096 for 16-bit): <= 0.7x the time of
//    vqsort, and on random bit patterns (the data it was set on) >= 12x std::stable_sort:
//    on the other distributions std::stable_sort's comparisons are predictable, and its
//    figure is shown without a target;
//  - N = 2048 (32-bit) and N = 128: <= 0.5x the time of the faster Boost.Sort;
//  - N = 16 and N = 128: >= 4x std::sort.
// "best other library" (the fastest of vqsort and Boost's two) is shown for context.
Row sort_row(const SortCase& sc) {
  const unsigned size = *dtype_size(sc.dt);
  const unsigned limit = size == 2 ? 4096 : 2048;
  const bool largest_n = sc.n == limit;
  auto prog = std::make_shared<Program>();
  auto host = std::make_shared<SortHost>();
  host->sc = sc;
  uint64_t seed = 0x5eed0000u + static_cast<uint64_t>(sc.dt) * 7 + sc.n +
                  static_cast<uint64_t>(sc.dist) * 0x10000;
  for (unsigned p = 0; p < kPartitions; ++p) {
    uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
    const std::vector<uint32_t> v = row_values(sc.dt, sc.dist, sc.descending, sc.n, seed);
    for (unsigned i = 0; i < sc.n; ++i) std::memcpy(part + i * size, &v[i], size);
  }
  const Plan pl = sort_plan(sc);
  const uint32_t dst_off = pl.dst_off;
  prog->words = pl.words;
  for (unsigned p = 0; p < kPartitions; ++p)
    prog->outputs.push_back({p, {dst_off, dst_off + 2 * sc.n * size}});
  prog->prepare();
  host->sbuf = prog->machine.space(Space::SBUF).data();
  host->stride = prog->machine.partition_bytes(Space::SBUF);
  host->dst_off = dst_off;
  host->out.resize(kPartitions * host->stride);
  host->expected = prog->expected;
  host->valid = prog->prepared;

  Row row;
  row.name = fmt::format("sort {} {} N={} {}", dtype_label(sc.dt), sc.descending ? "desc" : "asc",
                         sc.n, dist_name(sc.dist));
  row.unit = "ns/elem";
  row.per_run = double{kPartitions} * sc.n;
  // The scalar reference (context, no target) takes longer than all the others
  // together: only the random rows show it.
  add_program_contenders(row, prog, sc.dist == Dist::Random);
  auto verify = [host] { return host->matches(); };
  const bool wide = size == 4;
  auto add = [&](std::string name, std::function<void()> run) {
    row.contenders.push_back({std::move(name), std::move(run), verify});
    return row.contenders.size() - 1;
  };
  const std::size_t stable = add("std::stable_sort pairs", [host, wide] {
    wide ? stable_sort_pairs<uint32_t>(*host) : stable_sort_pairs<uint16_t>(*host);
  });
  if (largest_n && sc.dist == Dist::Random)
    row.targets.push_back({stable, Goal::SpeedupAtLeast, 12.0});
  if (!largest_n) {
    const std::size_t ss = add("std::sort pairs", [host, wide] {
      wide ? sort_pairs<uint32_t>(*host) : sort_pairs<uint16_t>(*host);
    });
    row.targets.push_back({ss, Goal::SpeedupAtLeast, 4.0});
  }
  auto packed = [host, wide](Library lib) -> std::function<void()> {
    return [host, wide, lib] {
      wide ? packed_sort<uint32_t>(*host, lib) : packed_sort<uint16_t>(*host, lib);
    };
  };
  const std::size_t vq = add("vqsort packed keys", packed(Library::Vqsort));
  const std::size_t pdq = add("boost pdqsort_branchless", packed(Library::Pdqsort));
  const std::size_t spread = add("boost integer_sort", packed(Library::Spreadsort));
  if (largest_n) row.targets.push_back({vq, Goal::TimeRatioAtMost, 0.7});
  row.bests.push_back({"best Boost.Sort", {pdq, spread}});
  row.bests.push_back({"best other library", {vq, pdq, spread}});
  if ((wide && sc.n == 2048) || sc.n == 128)
    row.targets.push_back({row.contenders.size(), Goal::TimeRatioAtMost, 0.5});
  return row;
}

}  // namespace

// The rows: every dtype in both directions at its largest legal N, and FP32, BF16 and
// FP16 in both directions at N = 16 and 128, each on every value distribution. Without
// `all_distributions` the small-N rows run on two distributions (random and normal);
// the largest-N rows always run on all six.
void add_sort_workloads(std::vector<Workload>& all, bool all_distributions) {
  const Dtype kDtypes[] = {Dtype::FP32, Dtype::INT32, Dtype::UINT32, Dtype::FP16,
                           Dtype::BF16, Dtype::INT16, Dtype::UINT16};
  auto add = [&](const SortCase& sc) {
    all.push_back({fmt::format("sort {} {} N={} {}", dtype_label(sc.dt),
                               sc.descending ? "desc" : "asc", sc.n, dist_name(sc.dist)),
                   [sc] { return sort_row(sc); }, [sc] { return sort_plan(sc).words; },
                   std::nullopt});
  };
  for (Dtype dt : kDtypes)
    for (bool desc : {false, true})
      for (Dist d : kDists) add({dt, desc, *dtype_size(dt) == 2 ? 4096u : 2048u, d});
  for (Dtype dt : {Dtype::FP32, Dtype::BF16, Dtype::FP16})
    for (unsigned n : {16u, 128u})
      for (bool desc : {false, true})
        for (Dist d : kDists)
          if (all_distributions || d == Dist::Random || d == Dist::Normal) add({dt, desc, n, d});
}

}  // namespace gpsimd::bench
