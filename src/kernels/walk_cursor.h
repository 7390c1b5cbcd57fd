// Moving through a tensor walk (SPEC §3.5) a run at a time instead of an element at a
// time, so that kernels can copy whole contiguous runs and loop over strided ones.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "gpsimd/machine.h"
#include "kernels/stream.h"

namespace gpsimd::kernels {

// A walk as rows: rows of `len` elements `step` elements apart, the rows themselves
// laid out by an outer 3-D loop. Dimensions that continue each other (the next
// dimension's step is the inner row's extent) are merged, so a dense 3-D walk is one row.
struct Rows {
  int64_t start = 0;  // bytes
  unsigned elem = 1;
  int64_t step = 1;                         // elements between neighbours in a row
  uint64_t len = 1;                         // elements per row
  int64_t step1 = 0, step2 = 0, step3 = 0;  // elements between rows, row groups, ...
  uint64_t n1 = 1, n2 = 1, n3 = 1;

  static Rows of(const Walk& w) {
    // Drop dimensions of extent 1, then merge each dimension into the previous one
    // when it continues it.
    int64_t st[kMaxDims];
    uint64_t nm[kMaxDims];
    unsigned k = 0;
    for (unsigned d = 0; d < kMaxDims; ++d) {
      if (w.num[d] == 1) continue;
      if (k > 0 && w.step[d] == st[k - 1] * static_cast<int64_t>(nm[k - 1])) {
        nm[k - 1] *= w.num[d];
        continue;
      }
      st[k] = w.step[d];
      nm[k] = w.num[d];
      ++k;
    }
    Rows r;
    r.start = w.start;
    r.elem = w.elem;
    if (k > 0) r.step = st[0], r.len = nm[0];
    if (k > 1) r.step1 = st[1], r.n1 = nm[1];
    if (k > 2) r.step2 = st[2], r.n2 = nm[2];
    if (k > 3) r.step3 = st[3], r.n3 = nm[3];
    return r;
  }
  uint64_t count() const { return len * n1 * n2 * n3; }
  // True when the whole walk is one dense increasing row.
  bool dense() const { return n1 == 1 && n2 == 1 && n3 == 1 && (step == 1 || len == 1); }
};

// Walks ordinals in order, handing out runs: pieces of one row.
class Cursor {
 public:
  explicit Cursor(const Rows& r) : r_(r), row_(r.start) {}

  struct Run {
    int64_t offset;  // bytes of the first element
    uint64_t count;  // elements
    int64_t step;    // bytes between elements
  };

  // The next run of at most `max` elements (max >= 1; the walk must not be exhausted).
  Run next(uint64_t max) {
    const int64_t esz = r_.elem;
    const uint64_t cnt = std::min(max, r_.len - i0_);
    Run run{row_ + static_cast<int64_t>(i0_) * r_.step * esz, cnt, r_.step * esz};
    i0_ += cnt;
    if (i0_ == r_.len) {
      i0_ = 0;
      if (++i1_ < r_.n1) {
        row_ += r_.step1 * esz;
      } else {
        i1_ = 0;
        if (++i2_ == r_.n2 && r_.n3 > 1) i2_ = 0, ++i3_;
        row_ = r_.start +
               (static_cast<int64_t>(i2_) * r_.step2 + static_cast<int64_t>(i3_) * r_.step3) * esz;
      }
    }
    return run;
  }

  // Copies the next m elements, in ordinal order, from `base` + offsets to `out`.
  // Returns a pointer to them: into `base` itself when they are one dense run (no copy),
  // else `out`.
  template <unsigned kSize>
  const uint8_t* read(const uint8_t* base, uint64_t m, uint8_t* out) {
    Run run = next(m);
    if (run.count == m && (run.step == kSize || m == 1)) return base + run.offset;
    uint8_t* o = out;
    for (;;) {
      copy_in<kSize>(base, run, o);
      o += run.count * kSize;
      m -= run.count;
      if (m == 0) return out;
      run = next(m);
    }
  }

  // Stores the next m elements, in ordinal order, from `in` to `base` + offsets. Where
  // two ordinals hit the same bytes the later one wins, as SPEC §4 requires.
  template <unsigned kSize>
  void write(uint8_t* base, uint64_t m, const uint8_t* in) {
    while (m > 0) {
      const Run run = next(m);
      copy_out<kSize>(base, run, in);
      in += run.count * kSize;
      m -= run.count;
    }
  }

  // Returns where the next m elements go when they are one dense run, and moves past
  // them; nullptr (and no move) otherwise.
  uint8_t* direct(uint8_t* base, uint64_t m) {
    if (r_.len - i0_ < m || (r_.step != 1 && m > 1)) return nullptr;
    return base + next(m).offset;
  }
  const uint8_t* direct(const uint8_t* base, uint64_t m) {
    return direct(const_cast<uint8_t*>(base), m);
  }

 private:
  template <unsigned kSize>
  static void copy_in(const uint8_t* base, const Run& run, uint8_t* out) {
    const uint8_t* p = base + run.offset;
    if (run.step == kSize) {
      std::memcpy(out, p, run.count * kSize);
      return;
    }
    if constexpr (kSize == 4) {
      if (run.count >= 16) return stream::read_strided32(p, run.step, run.count, out);
    }
    if constexpr (kSize == 2) {
      if (run.count >= 16 && run.step != 0)
        return stream::read_strided16(p, run.step, run.count, out);
    }
    for (uint64_t i = 0; i < run.count; ++i, p += run.step) std::memcpy(out + i * kSize, p, kSize);
  }
  template <unsigned kSize>
  static void copy_out(uint8_t* base, const Run& run, const uint8_t* in) {
    uint8_t* p = base + run.offset;
    if (run.step == kSize) {
      std::memmove(p, in, run.count * kSize);
      return;
    }
    for (uint64_t i = 0; i < run.count; ++i, p += run.step) std::memcpy(p, in + i * kSize, kSize);
  }

  Rows r_;
  int64_t row_;
  uint64_t i0_ = 0, i1_ = 0, i2_ = 0, i3_ = 0;
};

// ---- helpers every kernel family uses ----------------------------------------------------

// Elements per step of a chunked loop: a few KiB, stays in L1.
inline constexpr uint64_t kChunk = 4096;

// Per-thread scratch that only grows, so warm calls allocate nothing.
template <class T>
T* scratch(std::vector<T>& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

// Calls f with the element size (1, 2 or 4 bytes) as a compile-time constant.
template <class F>
decltype(auto) with_size(unsigned size, F&& f) {
  switch (size) {
    case 1:
      return f(std::integral_constant<unsigned, 1>{});
    case 2:
      return f(std::integral_constant<unsigned, 2>{});
    default:
      return f(std::integral_constant<unsigned, 4>{});
  }
}

// Cursor::read and Cursor::write for an element size known at run time.
inline const uint8_t* read_run(Cursor& c, unsigned size, const uint8_t* base, uint64_t m,
                               uint8_t* buf) {
  return with_size(size, [&](auto s) { return c.read<decltype(s)::value>(base, m, buf); });
}
inline void write_run(Cursor& c, unsigned size, uint8_t* base, uint64_t m, const uint8_t* in) {
  with_size(size, [&](auto s) { c.write<decltype(s)::value>(base, m, in); });
}

// A plain copy's chunk is larger than a converting loop's (a memcpy per run costs little,
// and a chunk of 4-byte elements still fits L1 twice).
inline constexpr uint64_t kCopyChunk = 4 * kChunk;

// Copies `count` elements of `size` bytes, the bits unchanged, from the walk of `sc` in
// `src` to the walk of `dc` in `dst`, a chunk at a time through `buf` (room for kCopyChunk
// elements): a dense destination run takes the source's elements straight away. The
// destination is never the source (the Writer gives one that overlaps a source a copy).
inline void copy_runs(Cursor& sc, const uint8_t* src, Cursor& dc, uint8_t* dst, unsigned size,
                      uint64_t count, uint8_t* buf) {
  for (uint64_t j0 = 0; j0 < count;) {
    const uint64_t m = std::min(kCopyChunk, count - j0);
    uint8_t* o = dc.direct(dst, m);
    const uint8_t* x = read_run(sc, size, src, m, o ? o : buf);
    if (o && x != o)
      std::memcpy(o, x, m * size);
    else if (!o)
      write_run(dc, size, dst, m, x);
    j0 += m;
  }
}

}  // namespace gpsimd::kernels
