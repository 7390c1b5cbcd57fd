// Sort's per-channel dispatch (SPEC §4.4): a channel goes to the 32-bit or 16-bit sort
// (sort32.cc, sort16.cc), and many small channels of one shape are sorted together, one
// channel per vector lane, through the networks of sort_network.cc.
#include "kernels/kernels.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <vector>

#include "gpsimd/model.h"
#include "kernels/sort16.h"
#include "kernels/sort32.h"
#include "kernels/sort_network.h"
#include "kernels/walk_cursor.h"

namespace gpsimd::kernels {
namespace {

thread_local std::vector<uint32_t> t_values, t_result;

}  // namespace

bool sort_channel(Dtype dt, bool descending, const uint8_t* partition, const Walk& src, unsigned k,
                  uint32_t offset, uint8_t* dst, const Walk& dst_walk) {
  const uint64_t n = src.count();
  const unsigned size = src.elem;
  Cursor sc(Rows::of(src)), dc(Rows::of(dst_walk));
  uint8_t* vbuf = reinterpret_cast<uint8_t*>(scratch(t_values, n));
  const uint8_t* values = read_run(sc, size, partition, n, vbuf);
  uint8_t* o = dc.direct(dst, 2 * uint64_t{k});
  uint8_t* res = o ? o : reinterpret_cast<uint8_t*>(scratch(t_result, 2 * uint64_t{k}));
  if (size == 4) {
    sort32::sort_pairs(dt, descending, reinterpret_cast<const uint32_t*>(values), n, k, offset,
                       reinterpret_cast<uint32_t*>(res));
  } else {
    sort16::sort_pairs(dt, descending, reinterpret_cast<const uint16_t*>(values), n, k,
                       static_cast<uint16_t>(offset), reinterpret_cast<uint16_t*>(res));
  }
  if (!o) write_run(dc, size, dst, 2 * uint64_t{k}, res);
  return true;
}

namespace {

// Batcher's odd-even merge sort network for n = 2^p keys, as compare-exchange pairs.
std::vector<uint16_t> batcher_network(unsigned n) {
  std::vector<uint16_t> ce;
  for (unsigned p = 1; p < n; p <<= 1)
    for (unsigned k = p; k >= 1; k >>= 1)
      for (unsigned j = k % p; j + k < n; j += 2 * k)
        for (unsigned i = 0; i < std::min(k, n - j - k); ++i)
          if ((i + j) / (2 * p) == (i + j + k) / (2 * p)) {
            ce.push_back(static_cast<uint16_t>(i + j));
            ce.push_back(static_cast<uint16_t>(i + j + k));
          }
  return ce;
}

constexpr unsigned kColumnSortMax = 32;

// The networks for 2, 4, ..., 32 keys, built once.
const std::vector<uint16_t>& network(unsigned rows) {
  static const auto all = [] {
    std::array<std::vector<uint16_t>, 6> a;
    for (unsigned b = 1; b < 6; ++b) a[b] = batcher_network(1u << b);
    return a;
  }();
  return all[static_cast<unsigned>(std::countr_zero(rows))];
}

}  // namespace

namespace {

template <class T>
T load_as(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}
template <class T>
void store_as(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

// T: the element type (uint16_t or uint32_t); W: the packed key (uint32_t or uint64_t);
// KeyFn: the dtype's sort_key (atoms/sort_key.h), inlined.
template <class T, class W, class KeyFn>
void sort_columns(KeyFn sort_key, bool descending, unsigned N, const uint32_t* soff,
                  const uint32_t* doff, unsigned k, const SortChannel* channels, unsigned n, W* m,
                  unsigned L) {
  constexpr unsigned kShift = 8 * sizeof(T);
  const unsigned rows = std::max(2u, std::bit_ceil(N));
  const std::vector<uint16_t>& ce = network(rows);
  const uint32_t flip = descending ? static_cast<T>(~T{0}) : 0;
  // Each channel lives in its own partition, so its bytes miss the caches; ask for the
  // next group's sources and this group's destinations early.
  auto prefetch = [&](unsigned from, unsigned to, bool dst) {
    for (unsigned c = from; c < std::min(to, n); ++c)
      if (dst)
        __builtin_prefetch(channels[c].dst + doff[0], 1);
      else
        __builtin_prefetch(channels[c].partition + soff[0]);
  };
  prefetch(0, L, false);
  for (unsigned g0 = 0; g0 < n; g0 += L) {
    const unsigned gc = std::min(L, n - g0);
    prefetch(g0 + L, g0 + 2 * L, false);
    prefetch(g0, g0 + L, true);
    std::fill_n(m, std::size_t{rows} * L, ~W{0});  // padding: above every packed key
    for (unsigned c = 0; c < gc; ++c) {
      const uint8_t* part = channels[g0 + c].partition;
      for (unsigned i = 0; i < N; ++i) {
        const uint32_t key = sort_key(load_as<T>(part + soff[i])) ^ flip;
        m[i * L + c] = static_cast<W>(W{key} << kShift | i);
      }
    }
    if constexpr (sizeof(W) == 8)
      simd::sort_columns64(m, ce.data(), ce.size() / 2);
    else
      simd::sort_columns32(m, ce.data(), ce.size() / 2);
    for (unsigned c = 0; c < gc; ++c) {
      const SortChannel& ch = channels[g0 + c];
      for (unsigned r = 0; r < k; ++r) {
        const unsigned p = static_cast<unsigned>(m[r * L + c] & ((W{1} << kShift) - 1));
        store_as<T>(ch.dst + doff[2 * r], load_as<T>(ch.partition + soff[p]));
        store_as<T>(ch.dst + doff[2 * r + 1], static_cast<T>(p + ch.offset));
      }
    }
  }
}

}  // namespace

bool sort_channels(Dtype dt, bool descending, const Walk& src, unsigned k, const Walk& dst_walk,
                   const SortChannel* channels, unsigned n, std::size_t partition_bytes) {
  const uint64_t count = src.count();
  if (count == 0 || count > kColumnSortMax || k == 0) return false;
  const Rows rs = Rows::of(src), rd = Rows::of(dst_walk);
  if (rs.dense() && rd.dense()) {
    const auto src_off = static_cast<uint32_t>(rs.start), dst_off = static_cast<uint32_t>(rd.start);
    if (simd::sort_runs(dt, descending, count, k, channels, n, src_off, dst_off,
                        partition_bytes - src_off))
      return true;
  }
  if (n < 2) return false;
  std::array<uint32_t, kColumnSortMax> soff;
  std::array<uint32_t, 2 * kColumnSortMax> doff;
  src.for_each([&](uint64_t j, uint32_t off) { soff[j] = off; });
  dst_walk.for_each([&](uint64_t j, uint32_t off) { doff[j] = off; });
  // Rows of one vector each, 64-byte aligned for the vector loads.
  alignas(64) thread_local uint64_t m64[kColumnSortMax * 16];
  alignas(64) thread_local uint32_t m32[kColumnSortMax * 32];
  const unsigned N = static_cast<unsigned>(count);
  const unsigned L64 = static_cast<unsigned>(simd::lanes64());
  const unsigned L32 = static_cast<unsigned>(simd::lanes32());
  auto run32 = [&](auto key) {
    sort_columns<uint32_t>(key, descending, N, soff.data(), doff.data(), k, channels, n, m64, L64);
  };
  auto run16 = [&](auto key) {
    sort_columns<uint16_t>(key, descending, N, soff.data(), doff.data(), k, channels, n, m32, L32);
  };
  switch (dt) {
    case Dtype::FP32:
      run32([](uint32_t b) { return model::sort_key_float(b, 8, 32); });
      break;
    case Dtype::INT32:
      run32([](uint32_t b) { return model::sort_key_int(b, 32, true); });
      break;
    case Dtype::UINT32:
      run32([](uint32_t b) { return b; });
      break;
    case Dtype::FP16:
      run16([](uint32_t b) { return model::sort_key_float(b, 5, 16); });
      break;
    case Dtype::BF16:
      run16([](uint32_t b) { return model::sort_key_float(b, 8, 16); });
      break;
    case Dtype::INT16:
      run16([](uint32_t b) { return model::sort_key_int(b, 16, true); });
      break;
    case Dtype::UINT16:
      run16([](uint32_t b) { return b; });
      break;
    default:
      return false;
  }
  return true;
}

}  // namespace gpsimd::kernels
