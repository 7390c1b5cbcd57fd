// The random cases of tests/execute_random_test.cc, shared with the tests that need random
// valid words of every instruction placed on a machine (tests/footprint_test.cc): the
// value and shape generators, the Builder that writes a case's initial state into some
// machines, and what several instructions' generators share. Each instruction's
// generator (faults injected now and then) is in its file in tests/instructions/.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/machine.h"
#include "reference_model.h"

namespace gpsimd::random_words {

namespace rm = refmodel;
using gpsimd::Generation;
using gpsimd::Machine;
using gpsimd::Space;
using gpsimd::Word;

inline uint64_t base_seed() {
  if (const char* s = std::getenv("GPSIMD_RANDOM_SEED")) return std::strtoull(s, nullptr, 0);
  return 0x5eed'2024'0bc9'8beeull;
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : e_(seed) {}
  uint32_t u32() { return static_cast<uint32_t>(e_()); }
  // Returns a uniform integer in [lo, hi].
  int64_t in(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(e_() % static_cast<uint64_t>(hi - lo + 1));
  }
  unsigned uin(unsigned lo, unsigned hi) { return static_cast<unsigned>(in(lo, hi)); }
  bool chance(unsigned percent) { return e_() % 100 < percent; }
  template <class T>
  T pick(std::initializer_list<T> xs) {
    return *(xs.begin() + in(0, static_cast<int64_t>(xs.size()) - 1));
  }

 private:
  std::mt19937_64 e_;
};

inline bool is_float(uint8_t code) {
  return rm::format_of(code).has_value() || code == rm::dt::FP32 || code == rm::dt::FP32R;
}

// Returns a random pattern of a dtype, biased towards the special values of SPEC §5:
// zeros, infinities, quiet and signalling NaNs, subnormals, extremes, one.
inline uint32_t random_value(Rng& r, uint8_t code) {
  const unsigned size = rm::size_of(code);
  const uint32_t mask = size == 4 ? ~0u : (1u << (8 * size)) - 1;
  if (!is_float(code)) {
    switch (r.in(0, 6)) {
      case 0:
        return 0;
      case 1:
        return 1;
      case 2:
        return mask;
      case 3:
        return (mask >> 1) + 1;
      case 4:
        return mask >> 1;
      default:
        return r.u32() & mask;
    }
  }
  const auto f = rm::format_of(code);
  const int e_bits = f ? f->exp_bits : 8, m_bits = f ? f->man_bits : 23;
  const uint32_t bias = f ? static_cast<uint32_t>(f->bias) : 127u;
  const uint32_t sign = 1u << (e_bits + m_bits);
  const uint32_t exp_ones = ((1u << e_bits) - 1u) << m_bits, man = (1u << m_bits) - 1u;
  uint32_t v = 0;
  switch (r.in(0, 12)) {
    case 0:
      v = 0;
      break;
    case 1:
      v = exp_ones;
      break;
    case 2:
      v = exp_ones | (1u << (m_bits - 1)) | (r.u32() & man);
      break;
    case 3:
      v = exp_ones | (r.u32() & (man >> 1)) | 1u;
      break;  // signalling NaN
    case 4:
      v = r.u32() & man;
      break;  // subnormal
    case 5:
      v = exp_ones - 1u;
      break;  // largest finite
    case 6:
      v = 1u << m_bits;
      break;  // smallest normal
    case 7:
      v = bias << m_bits;
      break;  // 1.0
    default:
      v = r.u32() & (exp_ones | man);
      break;
  }
  if (r.chance(50)) v |= sign;
  return v & mask;
}

// Returns FP32 bits on, or one ulp beside, a rounding tie of the narrow format `out`,
// with an exponent around that format's range (so subnormal and overflowing results too).
inline uint32_t near_tie(Rng& r, uint8_t out) {
  const auto f = rm::format_of(out);
  if (!f) return random_value(r, rm::dt::FP32);
  const int drop = 23 - f->man_bits;
  const int lo = std::max(1, 127 + (1 - f->bias) - f->man_bits - 2);
  const int hi = std::min(254, 127 + ((1 << f->exp_bits) - 2 - f->bias) + 1);
  const auto e = static_cast<uint32_t>(r.in(lo, hi));
  uint32_t m = (r.u32() & 0x7fffffu & ~((1u << drop) - 1u)) | (1u << (drop - 1));
  m = (m + static_cast<uint32_t>(r.in(-1, 1))) & 0x7fffffu;
  return (r.chance(50) ? 0x80000000u : 0u) | (e << 23) | m;
}

// Bytes of one partition that a case may read or write; compared after every word.
struct Footprint {
  Space space;
  unsigned p0, n;
  int64_t lo, hi;
};

// A register that holds an address, and what a bad value for it looks like.
struct RegUse {
  unsigned reg;
  uint32_t good;
  unsigned width;  // element or immediate width
  unsigned n;      // channels: partitions good .. good + n - 1 must exist
};

// Builds one random case, writing its initial state into every machine identically.
class Builder {
 public:
  Builder(Rng& r, Generation g, std::array<Machine*, 3> ms)
      : r_(r), g_(g), ms_(ms), large_(r.chance(3)) {
    for (Space s : {Space::SBUF, Space::PSUM}) {
      const uint32_t size = rm::space_bytes(s, g);
      arena_[static_cast<int>(s)] = static_cast<uint32_t>(r.in(0, (size - 4096) / 64)) * 64;
    }
  }

  Rng& rng() { return r_; }
  Generation generation() const { return g_; }
  // The engine input the case runs with (SPEC §3.9; nullopt: the opcode's default). Only
  // the instructions that take one set it.
  std::optional<gpsimd::Engine> engine;
  // A large case crosses the fast kernels' chunks (4096 elements) or is big enough for
  // them to split channels across threads; it stays in SBUF.
  Space space(unsigned percent_psum) {
    return !large_ && r_.chance(percent_psum) ? Space::PSUM : Space::SBUF;
  }
  const std::vector<Footprint>& footprint() const { return fp_; }

  void poke(Space s, unsigned p, int64_t off, unsigned size, uint32_t v) {
    for (Machine* m : ms_) {
      auto part = m->partition(s, p);
      for (unsigned i = 0; i < size; ++i)
        part[static_cast<std::size_t>(off) + i] = static_cast<uint8_t>(v >> (8 * i));
    }
  }
  void set_reg(unsigned i, uint32_t v) {
    for (Machine* m : ms_) m->registers[i] = v;
  }
  void set_sem(unsigned i, uint32_t v) {
    for (Machine* m : ms_) m->semaphores[i] = v;
  }
  void set_acc(unsigned i, uint32_t v) {
    for (Machine* m : ms_) m->accumulators[i] = v;
  }
  void set_lane(unsigned i, const gpsimd::MatchLane& l) {
    for (Machine* m : ms_) m->match[i] = l;
  }
  unsigned fresh_reg() {
    for (;;) {
      const unsigned reg = r_.uin(0, 63);
      if (std::none_of(regs_.begin(), regs_.end(), [&](const RegUse& u) { return u.reg == reg; }))
        return reg;
    }
  }

  // Returns a channel count; `max_elems` bounds channels x elements.
  unsigned channels(unsigned max = 128) {
    if (large_) return std::min(wide_ ? r_.uin(16, 64) : r_.uin(1, 4), max);
    unsigned n = r_.chance(60) ? r_.uin(1, 4) : (r_.chance(75) ? r_.uin(5, 32) : r_.uin(33, 128));
    return std::min(n, max);
  }
  // Returns an element count; `max` bounds it for ordinary cases.
  uint64_t count(uint64_t max) {
    if (large_) return wide_ ? r_.uin(1024, 5000) : r_.uin(4097, 12000);
    uint64_t c =
        r_.chance(60) ? r_.uin(1, 16) : (r_.chance(75) ? r_.uin(17, 128) : r_.uin(129, 1024));
    return std::min(c, max);
  }
  unsigned start_partition(unsigned n) { return r_.uin(0, 128 - n); }
  // A start partition near `other` (overlapping channels are interesting), or anywhere.
  unsigned near_partition(unsigned other, unsigned n) {
    if (r_.chance(40)) return std::min(other, 128 - n);
    if (r_.chance(50)) {
      const int64_t p = static_cast<int64_t>(other) + r_.in(-3, 3);
      return static_cast<unsigned>(std::clamp<int64_t>(p, 0, 128 - n));
    }
    return start_partition(n);
  }

  // Returns `dims` numbers whose product is `count`, in random order.
  std::array<unsigned, 4> factor(uint64_t count, unsigned dims) {
    std::array<unsigned, 4> nums{1, 1, 1, 1};
    const unsigned last = r_.uin(0, dims - 1);
    uint64_t rem = count;
    for (unsigned d = 0; d < dims; ++d) {
      if (d == last) continue;
      std::vector<unsigned> divs;
      for (unsigned k = 1; k <= rem && k <= 64; ++k)
        if (rem % k == 0) divs.push_back(k);
      const unsigned k = divs[r_.uin(0, static_cast<unsigned>(divs.size()) - 1)];
      nums[d] = k;
      rem /= k;
    }
    nums[last] = static_cast<unsigned>(rem);
    return nums;
  }

  // A walk of `count` elements over `dims` dimensions with random steps.
  rm::Tensor shape(unsigned dims, uint64_t count, unsigned elem, Space s) {
    return shape_nums(dims, factor(count, dims), elem, s);
  }

  // A walk with the given numbers and random steps (dense, reversed, zero, small, larger)
  // whose span fits comfortably in the space.
  rm::Tensor shape_nums(unsigned dims, std::array<unsigned, 4> nums, unsigned elem, Space s) {
    rm::Tensor t;
    t.dims = dims;
    const int64_t size = rm::space_bytes(s, g_);
    const int64_t limit = large_ ? size / 2 : std::min<int64_t>(size / 4, 16384);
    for (int attempt = 0;; ++attempt) {
      int64_t dense = 1;
      for (unsigned d = 0; d < dims; ++d) {
        t.num[d] = nums[d];
        int step;
        if (attempt > 20) {
          step = static_cast<int>(dense);
        } else {
          switch (r_.in(0, 9)) {
            case 0:
            case 1:
            case 2:
              step = static_cast<int>(dense);
              break;
            case 3:
              step = -static_cast<int>(dense);
              break;
            case 4:
            case 5:
              step = 0;
              break;
            case 6:
            case 7:
            case 8:
              step = static_cast<int>(r_.in(-4, 4));
              break;
            default:
              step = static_cast<int>(r_.in(-64, 64));
              break;
          }
        }
        t.step[d] = step;
        dense *= nums[d];
      }
      const auto [lo, hi] = rm::extent(t, 0, elem);
      if (hi - lo <= limit || attempt > 20) return t;  // dense: count * elem <= size / 2
    }
  }

  // Places a walk on partitions [p0, p0+n) of a space: picks a start offset so that every
  // touched byte is inside the partition (often near a shared arena so that operands
  // overlap, sometimes at the very start or end of the partition). The address is static,
  // or with `allow_reg` sometimes held by a register. Returns the static location.
  rm::Loc place(rm::Tensor& t, Space s, unsigned p0, unsigned n, unsigned elem, bool allow_reg) {
    const auto [lo, hi] = rm::extent(t, 0, elem);
    const int64_t span = hi - lo, size = rm::space_bytes(s, g_);
    int64_t first;  // lowest touched byte
    const unsigned how = r_.uin(0, 99);
    if (how < 70) {
      first = arena_[static_cast<int>(s)] + r_.in(0, 255 / elem) * elem;
      first = std::min(first, size - span);
    } else if (how < 85) {
      first = 0;
    } else {
      first = size - span;
    }
    const rm::Loc loc{s, p0, static_cast<uint32_t>(first - lo)};
    fp_.push_back(Footprint{s, p0, n, first, first + span});
    t.addr = rm::addr_of(loc);
    if (allow_reg && r_.chance(20)) {
      const unsigned reg = fresh_reg();
      set_reg(reg, t.addr);
      regs_.push_back(RegUse{reg, t.addr, elem, n});
      t.addr = rm::reg_addr(reg);
    }
    return loc;
  }

  // One operand of place_pair: its walk, space and element size, and how the walk is
  // made: `dims` dimensions over `count` elements with random steps (shape()), or `make`
  // when it is set.
  struct Operand {
    rm::Tensor& t;
    Space space;
    unsigned elem;
    unsigned dims = 1;
    uint64_t count = 1;
    std::function<rm::Tensor()> make = {};
  };
  struct PlacedPair {
    rm::Loc src, dst;
  };
  // The source and destination of an instruction on n channels, in nearby partitions: the
  // source's first channel anywhere, the destination's on it, a few partitions away or
  // anywhere (overlapping channels are interesting). Both walks are made, then both placed
  // (each sometimes held by a register). Returns their static locations.
  PlacedPair place_pair(unsigned n, const Operand& src, const Operand& dst) {
    const unsigned ps = start_partition(n), pd = near_partition(ps, n);
    for (const Operand* o : {&src, &dst})
      o->t = o->make ? o->make() : shape(o->dims, o->count, o->elem, o->space);
    const rm::Loc sl = place(src.t, src.space, ps, n, src.elem, true);
    const rm::Loc dl = place(dst.t, dst.space, pd, n, dst.elem, true);
    return {sl, dl};
  }

  // An immediate operand: src code and field value. A pointer gets `values(c)` stored
  // for each channel c, in SBUF (or PSUM when `psum_ok`).
  std::pair<uint8_t, uint32_t> immediate(unsigned width, unsigned p_hint, unsigned n, bool psum_ok,
                                         uint32_t inst_value,
                                         const std::function<uint32_t(unsigned)>& values) {
    const uint8_t src = static_cast<uint8_t>(r_.in(0, 2));
    if (src == 0) return {0, inst_value};
    return place_pointer(src, width, p_hint, n, psum_ok, values);
  }
  // A static pointer (the pointer-only TensorScalar forms): its ADDR4.
  uint32_t pointer(unsigned width, unsigned p_hint, unsigned n, bool psum_ok,
                   const std::function<uint32_t(unsigned)>& values) {
    return place_pointer(1, width, p_hint, n, psum_ok, values).second;
  }

 private:
  // Stores `values(c)` for each channel and returns {1, ADDR4} or, for src 2, {2, the
  // register holding it}.
  std::pair<uint8_t, uint32_t> place_pointer(uint8_t src, unsigned width, unsigned p_hint,
                                             unsigned n, bool psum_ok,
                                             const std::function<uint32_t(unsigned)>& values) {
    const Space s = psum_ok && r_.chance(30) ? Space::PSUM : Space::SBUF;
    const unsigned p = near_partition(p_hint, n);
    const int64_t size = rm::space_bytes(s, g_);
    int64_t off;
    if (r_.chance(60))
      off = std::min<int64_t>(arena_[static_cast<int>(s)] + r_.in(0, 255 / width) * width,
                              size - width);
    else
      off = r_.chance(50) ? 0 : size - width;
    for (unsigned c = 0; c < n; ++c) poke(s, p + c, off, width, values(c));
    fp_.push_back(Footprint{s, p, n, off, off + width});
    const uint32_t addr = rm::addr_of(rm::Loc{s, p, static_cast<uint32_t>(off)});
    if (src == 1) return {1, addr};
    const unsigned reg = fresh_reg();
    set_reg(reg, addr);
    regs_.push_back(RegUse{reg, addr, width, n});
    return {2, reg};
  }

 public:
  // Stores random values of a dtype at every element the walk touches, on each channel.
  void fill(const rm::Tensor& t, const rm::Loc& loc, unsigned n, unsigned elem,
            const std::function<uint32_t()>& value) {
    const auto offs = rm::walk(t, loc.offset, elem);
    for (unsigned c = 0; c < n; ++c)
      for (int64_t off : offs) poke(loc.space, loc.partition + c, off, elem, value());
  }

  // Random events whose wait is satisfied (SPEC §3.2), with the semaphores they need.
  rm::Events events() {
    rm::Events e;
    e.wait_mode = static_cast<uint8_t>(r_.chance(60) ? 0 : r_.in(1, 2));
    e.update_mode = static_cast<uint8_t>(r_.chance(40) ? 0 : r_.in(1, 3));
    if (e.wait_mode != 0 || e.update_mode == 1)
      e.value = r_.pick<uint32_t>({0u, 1u, 0xffffffffu, 0x80000000u, r_.u32(), r_.u32() & 0xff});
    if (e.update_mode != 0) {
      e.update_idx = static_cast<uint8_t>(r_.in(0, 255));
      set_sem(e.update_idx, r_.pick<uint32_t>({0u, 0xffffffffu, 1u, r_.u32()}));
    }
    if (e.wait_mode != 0) {
      e.wait_idx =
          static_cast<uint8_t>(r_.chance(30) && e.update_mode ? e.update_idx : r_.in(0, 255));
      uint32_t sem = e.value;
      if (e.wait_mode == 1 && e.value != 0xffffffffu)
        sem = e.value + static_cast<uint32_t>(r_.in(0, 0xffffffffu - e.value));
      set_sem(e.wait_idx, sem);
    }
    return e;
  }

  // Makes the wait unsatisfiable (fault sync-would-block).
  void block(rm::Events& e) {
    if (e.wait_mode == 0) {
      e.wait_mode = 2;
      e.wait_idx = static_cast<uint8_t>(r_.in(0, 255));
      if (e.update_mode != 1) e.value = r_.u32();
    }
    if (e.wait_mode == 1 && e.value == 0) e.wait_mode = 2;
    set_sem(e.wait_idx, e.wait_mode == 2 ? e.value ^ 1u : e.value - 1u);
  }

  // Gives one register that holds an address a value that breaks a rule (bad-address).
  bool break_register() {
    if (regs_.empty()) return false;
    const RegUse& u = regs_[r_.uin(0, static_cast<unsigned>(regs_.size()) - 1)];
    uint32_t bad = u.good;
    const rm::Loc loc = *rm::decode_static(u.good, g_);
    switch (r_.in(u.n > 1 ? 0 : 1, 5)) {
      case 0:  // start partition + n > 128
        bad = rm::addr_of(rm::Loc{loc.space, 129 - u.n, loc.offset});
        break;
      case 1:  // mode bits
        bad = u.good | 0x20000000u;
        break;
      case 2:  // misaligned (or, for 1-byte elements, itself register mode)
        bad = u.width > 1 ? u.good + 1 : (u.good | 0x80000000u);
        break;
      case 3:  // bits 25-28 set outside the PSUM window
        bad = 0x1e000000u | (u.good & 0x1ffffffu);
        break;
      case 4:  // PSUM offset >= 16 KiB
        bad = rm::psum_addr(0, 0x8000 - u.width);
        break;
      default:  // itself register mode
        bad = u.good | 0x80000000u;
        break;
    }
    set_reg(u.reg, bad);
    return true;
  }

 private:
  Rng& r_;
  Generation g_;
  std::array<Machine*, 3> ms_;
  bool large_, wide_ = r_.chance(50);
  std::array<uint32_t, 2> arena_{};
  std::vector<Footprint> fp_;
  std::vector<RegUse> regs_;
};

enum class Inject { None, Block, BadRegister, Shape };

inline Inject pick_injection(Rng& r) {
  const unsigned x = r.uin(0, 99);
  if (x < 2) return Inject::Block;
  if (x < 6) return Inject::BadRegister;
  if (x < 8) return Inject::Shape;
  return Inject::None;
}

// ---- Per-instruction generators ---------------------------------------------------------
//
// Each instruction's file in tests/instructions/ defines its generator (gen_sort(), ...);
// below, the pieces several of them share.

using GenFn = Word (*)(Builder&);
// Returns the generator of an instruction (from its registered file); aborts when none.
GenFn generator(gpsimd::Opcode op);

// A random DATA4D of `count` values: any split over the four dimensions, steps small,
// zero, negative or large, and bases that often make the ramp cross 0 or wrap.
inline rm::Data4D random_pattern(Builder& b, uint64_t count) {
  Rng& r = b.rng();
  rm::Data4D p;
  const auto nums = b.factor(count, 4);
  for (unsigned d = 0; d < 4; ++d) {
    p.num[d] = nums[d];
    p.step[d] = r.pick<int>({1, -1, 0, static_cast<int>(r.in(-4, 4)),
                             static_cast<int>(r.in(-32768, 32767)), 32767, -32768});
  }
  p.base = static_cast<int32_t>(r.pick<uint32_t>(
      {0u, static_cast<uint32_t>(r.in(-40, 40)), r.u32(), 0x7fffffffu - r.uin(0, 64),
       0x80000000u + r.uin(0, 64), static_cast<uint32_t>(-static_cast<int32_t>(count / 2))}));
  return p;
}
inline int32_t random_multiplier(Rng& r) {
  return static_cast<int32_t>(r.pick<uint32_t>(
      {0u, 1u, 0xffffffffu, static_cast<uint32_t>(r.in(-64, 64)), r.u32(), 0x40000000u}));
}

// Returns a value of a density: zero (both FP32 zeros for a float source) with the
// probability 100 - percent, otherwise a random nonzero pattern.
inline uint32_t zero_or_value(Rng& r, unsigned percent_nonzero, uint8_t code, bool float_zeros) {
  if (!r.chance(percent_nonzero)) return float_zeros && r.chance(50) ? 0x80000000u : 0u;
  for (;;) {
    const uint32_t v = random_value(r, code);
    if (float_zeros ? (v & 0x7fffffffu) != 0 : v != 0) return v;
  }
}

// ---- The comparison ---------------------------------------------------------------------

// Returns the first difference between two machines over a case's footprint and the small
// state (registers, semaphores, accumulators), or an empty string.

}  // namespace gpsimd::random_words
