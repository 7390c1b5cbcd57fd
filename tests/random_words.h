// The random cases of tests/execute_random_test.cc, shared with the tests that need random
// valid words of every instruction placed on a machine (tests/footprint_test.cc): the
// value and shape generators, the Builder that writes a case's initial state into some
// machines, and one generator per instruction (faults injected now and then).
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

inline Word gen_range_select(Builder& b) {
  Rng& r = b.rng();
  rm::RangeSelectWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.in = r.pick<uint8_t>(
      {rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5, rm::dt::FP16, rm::dt::BF16, rm::dt::FP32});
  x.out = r.pick<uint8_t>({rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5, rm::dt::FP16,
                           rm::dt::BF16, rm::dt::FP32, rm::dt::FP32R});
  const unsigned isz = rm::size_of(x.in), osz = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  const Space ss = b.space(30);
  const Space ds = b.space(osz == 4 ? 30 : 0);
  const rm::Loc sl =
      b.place_pair(n, {.t = x.src, .space = ss, .elem = isz, .dims = 2, .count = count},
                   {.t = x.dst, .space = ds, .elem = osz, .dims = 2, .count = count})
          .src;
  const unsigned ps = sl.partition;

  // base: 0, integers, fractions, subnormals, -0, and values where base + j rounds.
  const double room = 16777216.0 - static_cast<double>(count);
  float base = 0;
  switch (r.in(0, 9)) {
    case 0:
    case 1:
    case 2:
      base = 0;
      break;
    case 3:
    case 4:
      base = static_cast<float>(r.in(1, 1000));
      break;
    case 5:
      base = static_cast<float>(r.in(0, 100)) + r.pick({0.5f, 0.25f, 0.75f, 0.125f});
      break;
    case 6:
      base = rm::as_float(r.u32() & 0x7fffffu);
      break;  // subnormal
    case 7:
      base = -0.0f;
      break;
    default:
      base = static_cast<float>(std::min(room, 8388608.0 - static_cast<double>(r.in(0, 40)) * 0.5));
      break;
  }
  if (static_cast<double>(base) > room) base = static_cast<float>(room);
  x.base = rm::as_bits(base);
  x.reduce_cmd = r.pick<uint8_t>({0, 2, 3});
  const std::initializer_list<uint8_t> ops = {rm::op::IS_EQ, rm::op::IS_GT, rm::op::IS_GE,
                                              rm::op::IS_LE, rm::op::IS_LT};
  x.comp_op0 = r.pick(ops);
  x.comp_op1 = r.pick(ops);
  auto bound = [&](unsigned) -> uint32_t {
    switch (r.in(0, 9)) {
      case 0:
        return r.pick<uint32_t>({0x7fc00000u, 0x7f800000u, 0xff800000u, 0x80000000u, 0u});
      case 1:
        return random_value(r, rm::dt::FP32);
      case 2:
        return rm::as_bits(
            static_cast<float>(static_cast<double>(base) +
                               static_cast<double>(r.in(-2, static_cast<int64_t>(count) + 2))) +
            0.5f);
      default:
        return rm::as_bits(
            static_cast<float>(static_cast<double>(base) +
                               static_cast<double>(r.in(-2, static_cast<int64_t>(count) + 2))));
    }
  };
  std::tie(x.bound0_src, x.bound0) = b.immediate(4, ps, n, true, bound(0), bound);
  std::tie(x.bound1_src, x.bound1) = b.immediate(4, ps, n, true, bound(0), bound);

  for (unsigned c = 0; c < n; ++c) b.set_acc(sl.partition + c, random_value(r, rm::dt::FP32));
  const bool ties = x.in == rm::dt::FP32 && rm::format_of(x.out) && r.chance(50);
  b.fill(x.src, sl, n, isz, [&] { return ties ? near_tie(r, x.out) : random_value(r, x.in); });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  if (inj == Inject::Shape) {
    if (x.src.register_mode() && r.chance(50)) {
      x.src.num[0] += 1;
    } else if (x.src.register_mode()) {  // base + count(src) > 2^24
      x.base = rm::as_bits(static_cast<float>(
          16777216.0 - static_cast<double>(count) +
          static_cast<double>(r.in(1, std::min<int64_t>(3, static_cast<int64_t>(count))))));
    } else if (x.dst.register_mode()) {
      x.dst.num[1] += 1;
    }
  }
  return x.encode();
}

inline Word gen_tensor_scalar_select(Builder& b) {
  Rng& r = b.rng();
  rm::TensorScalarSelectWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.dtype = r.pick<uint8_t>({rm::dt::INT8, rm::dt::UINT8, rm::dt::INT16, rm::dt::UINT16,
                             rm::dt::BF16, rm::dt::FP16, rm::dt::INT32, rm::dt::UINT32,
                             rm::dt::FP32, rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5});
  const unsigned size = rm::size_of(x.dtype);
  x.pred_imm_dtype = size == 1   ? r.pick<uint8_t>({rm::dt::INT8, rm::dt::UINT8})
                     : size == 2 ? r.pick<uint8_t>({rm::dt::INT16, rm::dt::UINT16})
                                 : r.pick<uint8_t>({rm::dt::INT32, rm::dt::UINT32});
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  const Space ss = b.space(30);
  const Space ds = b.space(size == 4 ? 30 : 0);
  const rm::Loc sl =
      b.place_pair(n, {.t = x.src0, .space = ss, .elem = size, .dims = 3, .count = count},
                   {.t = x.dst, .space = ds, .elem = size, .dims = 3, .count = count})
          .src;
  const unsigned ps = sl.partition;
  x.reversed_pred = static_cast<uint8_t>(r.in(0, 1));
  auto scalar = [&](unsigned) { return random_value(r, x.dtype); };
  std::tie(x.src1_imm_src, x.src1_imm) = b.immediate(size, ps, n, true, scalar(0), scalar);
  auto pred = [&](unsigned) { return r.chance(50) ? 0u : random_value(r, x.pred_imm_dtype); };
  std::tie(x.pred_imm_src, x.pred_imm) =
      b.immediate(size, ps, n, true, static_cast<uint32_t>(r.in(0, 1)), pred);
  b.fill(x.src0, sl, n, size, [&] { return random_value(r, x.dtype); });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  if (inj == Inject::Shape) {
    if (x.src0.register_mode())
      x.src0.num[2] += 1;
    else if (x.dst.register_mode())
      x.dst.num[0] += 1;
  }
  return x.encode();
}

inline Word gen_get_sequence_bounds(Builder& b) {
  Rng& r = b.rng();
  rm::GetSequenceBoundsWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.in = r.pick<uint8_t>({rm::dt::INT32, rm::dt::FP32});
  x.out = r.pick<uint8_t>({rm::dt::INT32, rm::dt::FP32});
  const uint64_t count = b.count(1024);
  // The destination holds 2 x count elements: a walk of count, twice along a third dimension.
  auto bounds = [&] {
    const rm::Tensor half = b.shape(2, count, 4, Space::SBUF);
    return rm::tensor3(0, half.step[0], half.num[0], half.step[1], half.num[1],
                       r.chance(50) ? static_cast<int>(count) : static_cast<int>(r.in(-64, 64)), 2);
  };
  const rm::Loc sl =
      b.place_pair(1, {.t = x.src, .space = Space::SBUF, .elem = 4, .dims = 3, .count = count},
                   {.t = x.dst, .space = Space::SBUF, .elem = 4, .make = bounds})
          .src;

  // Ids in runs, from a small pool: padding (0, and -0.0 for FP32), NaNs, repeats.
  const bool fp = x.in == rm::dt::FP32;
  const std::vector<uint32_t> pool =
      fp ? std::vector<uint32_t>{0u,          0x80000000u, 0x3f800000u,
                                 0x40000000u, 0x7fc00000u, 0xffc00001u,
                                 0xbf800000u, 0x7f800000u, random_value(r, rm::dt::FP32)}
         : std::vector<uint32_t>{0u, 1u, 2u, 3u, 0xffffffffu, 0x80000000u, r.u32()};
  uint32_t cur = pool[0];
  unsigned left = 0;
  b.fill(x.src, sl, 1, 4, [&] {
    if (left == 0) {
      cur = pool[r.uin(0, static_cast<unsigned>(pool.size()) - 1)];
      left = r.uin(1, 4);
    }
    --left;
    return cur;
  });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

inline Word gen_sort(Builder& b) {
  Rng& r = b.rng();
  rm::SortWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.dtype = r.pick<uint8_t>({rm::dt::FP16, rm::dt::BF16, rm::dt::UINT16, rm::dt::INT16,
                             rm::dt::FP32, rm::dt::UINT32, rm::dt::INT32});
  const unsigned size = rm::size_of(x.dtype), limit = size == 2 ? 4096 : 2048;
  const unsigned big = r.uin(0, 99);
  const unsigned nn = big < 60 ? r.uin(1, 16) : (big < 90 ? r.uin(17, 256) : r.uin(257, limit));
  const unsigned n = b.channels(limit / nn);
  const unsigned k = r.chance(60) ? nn : r.uin(1, nn);
  x.channels = static_cast<uint8_t>(n);
  x.comparison = r.pick<uint8_t>({rm::op::IS_LT, rm::op::IS_GT});
  x.stable = static_cast<uint8_t>(r.in(0, 1));
  auto pairs = [&] {  // K (value, index) pairs, usually dense
    return r.chance(60) ? rm::tensor2(0, 1, 2, 2, k)
                        : b.shape_nums(2, {2, k, 1}, size, Space::SBUF);
  };
  const rm::Loc sl =
      b.place_pair(n, {.t = x.src, .space = Space::SBUF, .elem = size, .dims = 1, .count = nn},
                   {.t = x.dst, .space = Space::SBUF, .elem = size, .make = pairs})
          .src;
  const unsigned ps = sl.partition;
  auto offset = [&](unsigned) {
    return r.pick<uint32_t>(
        {0u, r.u32(), 0xffffu - r.uin(0, 8), 0xffffffffu - r.uin(0, 8), r.u32() & 0xffff, 100u});
  };
  std::tie(x.index_offset_src, x.index_offset) = b.immediate(4, ps, n, false, offset(0), offset);
  const bool pooled = r.chance(40);
  std::vector<uint32_t> pool;
  for (int i = 0; i < 4; ++i) pool.push_back(random_value(r, x.dtype));
  b.fill(x.src, sl, n, size, [&] { return pooled ? pool[r.uin(0, 3)] : random_value(r, x.dtype); });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

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

inline Word gen_affine_select(Builder& b) {
  static constexpr uint8_t kData[] = {
      rm::dt::INT8, rm::dt::UINT8, rm::dt::INT16, rm::dt::UINT16, rm::dt::INT32,  rm::dt::UINT32,
      rm::dt::BF16, rm::dt::FP16,  rm::dt::FP32,  rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5};
  Rng& r = b.rng();
  rm::AffineSelectWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.in = kData[r.uin(0, 11)];
  x.out = r.chance(40) ? x.in : (r.chance(10) ? rm::dt::FP32R : kData[r.uin(0, 11)]);
  const unsigned isz = rm::size_of(x.in), osz = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  const rm::Loc sl =
      b.place_pair(n, {.t = x.src, .space = Space::SBUF, .elem = isz, .dims = 2, .count = count},
                   {.t = x.dst, .space = Space::SBUF, .elem = osz, .dims = 2, .count = count})
          .src;
  x.mask = random_pattern(b, count);
  x.channel_multiplier = random_multiplier(r);
  x.fill_mode = static_cast<uint8_t>(r.in(0, 3));
  x.fill_reg = static_cast<uint8_t>(b.fresh_reg());
  b.set_reg(x.fill_reg, r.chance(30) ? near_tie(r, x.out) : random_value(r, rm::dt::FP32));
  b.fill(x.src, sl, n, isz, [&] {
    return r.chance(20) && is_float(x.in) ? near_tie(r, x.out) & (isz == 4 ? ~0u : 0u)
                                          : random_value(r, x.in);
  });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  if (inj == Inject::Shape) {
    if (x.src.register_mode())
      x.src.num[1] += 1;
    else if (x.dst.register_mode())
      x.dst.num[0] += 1;
  }
  return x.encode();
}

inline Word gen_iota(Builder& b) {
  static constexpr uint8_t kOut[] = {rm::dt::INT8,  rm::dt::UINT8,  rm::dt::INT16,  rm::dt::UINT16,
                                     rm::dt::INT32, rm::dt::UINT32, rm::dt::BF16,   rm::dt::FP16,
                                     rm::dt::FP32,  rm::dt::FP32R,  rm::dt::FP8_E3, rm::dt::FP8_E4,
                                     rm::dt::FP8_E5};
  Rng& r = b.rng();
  rm::IotaWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.out = kOut[r.uin(0, 12)];
  const unsigned osz = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  x.dst = b.shape(4, count, osz, Space::SBUF);
  b.place(x.dst, Space::SBUF, b.start_partition(n), n, osz, true);
  x.pattern = random_pattern(b, count);
  x.channel_multiplier = random_multiplier(r);
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
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

inline Word gen_nonzero_with_count(Builder& b) {
  Rng& r = b.rng();
  rm::NonzeroWithCountWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.in = r.pick<uint8_t>({rm::dt::INT32, rm::dt::FP32});
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 16384 / n));
  x.channels = static_cast<uint8_t>(n);
  const rm::Loc sl =
      b.place_pair(n, {.t = x.src, .space = Space::SBUF, .elem = 4, .dims = 3, .count = count},
                   {.t = x.dst, .space = Space::SBUF, .elem = 4, .dims = 3, .count = count + 1})
          .src;
  const unsigned ps = sl.partition;
  auto offset = [&](unsigned) {
    return r.pick<uint32_t>({0u, 16u, r.u32(), 0xffffffffu - r.uin(0, 8), r.u32() & 0xffff});
  };
  auto padding = [&](unsigned) { return r.pick<uint32_t>({0u, 0xffffffffu, r.u32()}); };
  std::tie(x.index_offset_src, x.index_offset) = b.immediate(4, ps, n, false, offset(0), offset);
  std::tie(x.padding_val_src, x.padding_val) = b.immediate(4, ps, n, false, padding(0), padding);
  const unsigned density = r.pick<unsigned>({0u, 1u, 50u, 99u, 100u, r.uin(0, 100)});
  const bool fp = x.in == rm::dt::FP32;
  b.fill(x.src, sl, n, 4, [&] { return zero_or_value(r, density, x.in, fp); });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

inline Word gen_copy_predicated_scalar(Builder& b) {
  Rng& r = b.rng();
  rm::CopyPredicatedScalarWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.dtype = r.pick<uint8_t>({rm::dt::INT8, rm::dt::UINT8, rm::dt::INT16, rm::dt::UINT16,
                             rm::dt::BF16, rm::dt::FP16, rm::dt::INT32, rm::dt::UINT32,
                             rm::dt::FP32, rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5});
  x.pred_dtype = r.pick<uint8_t>(
      {rm::dt::INT8, rm::dt::UINT8, rm::dt::INT16, rm::dt::UINT16, rm::dt::INT32, rm::dt::UINT32});
  const unsigned size = rm::size_of(x.dtype), psize = rm::size_of(x.pred_dtype);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  const Space ps_space = b.space(30);
  const Space ds = b.space(size == 4 ? 30 : 0);
  const auto [pl, dl] =
      b.place_pair(n, {.t = x.pred, .space = ps_space, .elem = psize, .dims = 3, .count = count},
                   {.t = x.dst, .space = ds, .elem = size, .dims = 3, .count = count});
  x.reversed_pred = static_cast<uint8_t>(r.in(0, 1));
  auto scalar = [&](unsigned) { return random_value(r, x.dtype); };
  std::tie(x.src0_imm_src, x.src0_imm) =
      b.immediate(size, dl.partition, n, true, scalar(0), scalar);
  // The old destination first (it shows what is not written), then the predicate, which
  // wins where the two overlap.
  b.fill(x.dst, dl, n, size, [&] { return random_value(r, x.dtype); });
  const unsigned density = r.pick<unsigned>({0u, 1u, 50u, 99u, 100u, r.uin(0, 100)});
  b.fill(x.pred, pl, n, psize, [&] { return zero_or_value(r, density, x.pred_dtype, false); });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  if (inj == Inject::Shape) {
    if (x.pred.register_mode())
      x.pred.num[2] += 1;
    else if (x.dst.register_mode())
      x.dst.num[0] += 1;
  }
  return x.encode();
}

inline Word gen_dve_read_accumulator(Builder& b) {
  Rng& r = b.rng();
  rm::DveReadAccumulatorWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.dtype = r.pick<uint8_t>({rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5, rm::dt::FP16,
                             rm::dt::BF16, rm::dt::FP32, rm::dt::FP32R});
  const unsigned size = rm::size_of(x.dtype);
  const unsigned n = b.channels();
  x.channels = static_cast<uint8_t>(n);
  x.negated = static_cast<uint8_t>(r.in(0, 1));
  const Space ds = b.space(size == 4 ? 40 : 0);
  const unsigned pd = b.start_partition(n);
  x.dst = b.shape(1, 1, size, ds);  // one element, any step
  b.place(x.dst, ds, pd, n, size, true);
  for (unsigned c = 0; c < n; ++c)
    b.set_acc(pd + c, r.chance(40) ? near_tie(r, x.dtype) : random_value(r, rm::dt::FP32));

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

// ---- The search instructions (SPEC §4.7-§4.10) ----

const std::initializer_list<uint8_t> kSearchIn = {
    rm::dt::INT8,  rm::dt::UINT8,  rm::dt::INT16, rm::dt::UINT16, rm::dt::BF16,   rm::dt::FP16,
    rm::dt::INT32, rm::dt::UINT32, rm::dt::FP32,  rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5};
const std::initializer_list<uint8_t> kMatchReplaceDtypes = {
    rm::dt::FP16,   rm::dt::BF16, rm::dt::UINT8, rm::dt::UINT16,
    rm::dt::UINT32, rm::dt::FP32, rm::dt::INT32};

// Lanes [p, p + n): match values from `pool` (as FP32), NaN, -0.0 or random, and
// sometimes flags and indices left set by an earlier search.
inline void random_lanes(Builder& b, unsigned p, unsigned n, uint8_t code,
                         const std::vector<uint32_t>& pool) {
  Rng& r = b.rng();
  for (unsigned c = 0; c < n; ++c) {
    gpsimd::MatchLane l;
    for (unsigned s = 0; s < 8; ++s) {
      l.mv[s] = rm::to_fp32(code, pool[r.uin(0, 7)]);
      if (r.chance(5)) l.mv[s] = r.pick<uint32_t>({0x7fc00000u, 0x80000000u, 0u});
      if (r.chance(5)) l.mv[s] = r.u32();
    }
    if (r.chance(30)) {
      l.matched = static_cast<uint8_t>(r.u32());
      for (unsigned s = 0; s < 8; ++s)
        if ((l.matched >> s) & 1u) l.idx[s] = r.uin(0, 20000);
    }
    b.set_lane(p + c, l);
  }
}

// A pool of 8 values of `code`: the source draws from it most of the time, so that
// matches and ties are common.
inline std::vector<uint32_t> value_pool(Rng& r, uint8_t code) {
  std::vector<uint32_t> pool;
  for (int i = 0; i < 8; ++i) pool.push_back(random_value(r, code));
  return pool;
}

inline Word gen_match_value_load(Builder& b) {
  Rng& r = b.rng();
  rm::MatchValueLoadWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.dtype = r.pick(kSearchIn);
  const unsigned size = rm::size_of(x.dtype);
  const unsigned n = b.channels();
  x.channels = static_cast<uint8_t>(n);
  const Space ss = b.space(30);
  const unsigned ps = b.start_partition(n);
  x.src = b.shape(2, 8, size, ss);
  const rm::Loc sl = b.place(x.src, ss, ps, n, size, true);
  const std::vector<uint32_t> pool = value_pool(r, x.dtype);
  random_lanes(b, sl.partition, n, x.dtype, pool);  // re-armed by the load
  b.fill(x.src, sl, n, size, [&] { return random_value(r, x.dtype); });
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

inline Word gen_s4d2(Builder& b, uint8_t opcode) {
  Rng& r = b.rng();
  rm::S4D2BnWord x;
  x.opcode = opcode;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.in = r.pick(kSearchIn);
  x.out = opcode == rm::kFindIndex8
              ? r.pick<uint8_t>({rm::dt::UINT16, rm::dt::UINT32})
              : r.pick<uint8_t>({rm::dt::INT8, rm::dt::UINT8, rm::dt::INT16, rm::dt::UINT16,
                                 rm::dt::BF16, rm::dt::FP16, rm::dt::INT32, rm::dt::UINT32,
                                 rm::dt::FP32, rm::dt::FP32R, rm::dt::FP8_E3, rm::dt::FP8_E4,
                                 rm::dt::FP8_E5});
  const unsigned isz = rm::size_of(x.in), osz = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = std::max<uint64_t>(8, b.count(std::max(8u, 16384 / n)));
  x.channels = static_cast<uint8_t>(n);
  const Space ss = b.space(30);
  const Space ds = b.space(osz == 4 ? 30 : 0);
  const auto [sl, dl] =
      b.place_pair(n, {.t = x.src, .space = ss, .elem = isz, .dims = 4, .count = count},
                   {.t = x.dst, .space = ds, .elem = osz, .dims = 2, .count = 8});
  const std::vector<uint32_t> pool = value_pool(r, x.in);
  if (opcode == rm::kFindIndex8) random_lanes(b, sl.partition, n, x.in, pool);
  b.fill(x.dst, dl, n, osz, [&] { return random_value(r, x.out); });
  b.fill(x.src, sl, n, isz,
         [&] { return r.chance(70) ? pool[r.uin(0, 7)] : random_value(r, x.in); });
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}
inline Word gen_max8(Builder& b) {
  return gen_s4d2(b, rm::kMax8);
}
inline Word gen_find_index8(Builder& b) {
  return gen_s4d2(b, rm::kFindIndex8);
}

inline Word gen_match_replace8(Builder& b) {
  Rng& r = b.rng();
  rm::MatchReplace8Word x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.in = r.pick(kMatchReplaceDtypes);
  x.out = r.pick(kMatchReplaceDtypes);
  const unsigned isz = rm::size_of(x.in), osz = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 16384 / n));
  x.channels = static_cast<uint8_t>(n);
  const Space ss = b.space(30);
  const Space ds = b.space(osz == 4 ? 30 : 0);
  const auto [sl, dl] =
      b.place_pair(n, {.t = x.src, .space = ss, .elem = isz, .dims = 4, .count = count},
                   {.t = x.dst, .space = ds, .elem = osz, .dims = 4, .count = count});
  x.immediate = r.chance(50) ? random_value(r, rm::dt::FP32) : r.u32();
  const std::vector<uint32_t> pool = value_pool(r, x.in);
  random_lanes(b, sl.partition, n, x.in, pool);
  b.fill(x.dst, dl, n, osz, [&] { return random_value(r, x.out); });
  b.fill(x.src, sl, n, isz,
         [&] { return r.chance(70) ? pool[r.uin(0, 7)] : random_value(r, x.in); });
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

// ---- TensorTensorArith / TensorTensorBitvec (SPEC §4.14) -------------------------------

// The ops of SPEC §3.8 as the generator needs them, written out from its table.
namespace ttops {
using namespace rm::op;
// is_general_arith_op on V2/V3; V4 adds ABS_MAX, ABS_MIN, RE_LU, SQUARE.
const std::vector<uint8_t> kGeneral = {
    BYPASS, ADD,   SUBTRACT, MULT,  MAX,   MIN,   LOGICAL_AND,   LOGICAL_OR,    LOGICAL_XOR,
    IS_EQ,  IS_GT, IS_GE,    IS_LE, IS_LT, IS_NE, ABSOLUTE_DIFF, ABSOLUTE_VALUE};
const std::vector<uint8_t> kGeneralV4 = {ABS_MAX, ABS_MIN, RE_LU, SQUARE};
// The modelled is_valid_int_aluop ops: V2 has the first three; both signed and unsigned
// (is_signed_alu_op and is_unsigned_alu_op), signed only, unsigned only.
const std::vector<uint8_t> kIntV2 = {ADD_INT, MULT_INT, SUBTRACT_INT};
const std::vector<uint8_t> kIntBoth = {ADD_INT, MULT_INT, SUBTRACT_INT, IS_EQUAL_INT, IS_NE_INT};
const std::vector<uint8_t> kIntSigned = {ABS_MAX_INT, ABS_MIN_INT, ABS_DIFF_INT, MAX_INT,  MIN_INT,
                                         IS_GT_INT,   IS_GE_INT,   IS_LE_INT,    IS_LT_INT};
const std::vector<uint8_t> kIntUnsigned = {MAX_UINT,   MIN_UINT,   IS_GT_UINT, IS_GE_UINT,
                                           IS_LE_UINT, IS_LT_UINT, MULT_UINT};
// Valid on 0x41 but unmodelled (SPEC §3.8.3): POW, and MOD on V2 too.
const std::vector<uint8_t> kBitvec = {BYPASS,
                                      BITWISE_NOT,
                                      ARITH_SHIFT_LEFT,
                                      ARITH_SHIFT_RIGHT,
                                      LOGICAL_SHIFT_LEFT,
                                      LOGICAL_SHIFT_RIGHT,
                                      BITWISE_AND,
                                      BITWISE_OR,
                                      BITWISE_XOR};
inline bool is_shift(uint8_t o) {
  return o == ARITH_SHIFT_LEFT || o == ARITH_SHIFT_RIGHT || o == LOGICAL_SHIFT_LEFT ||
         o == LOGICAL_SHIFT_RIGHT;
}
}  // namespace ttops

inline uint8_t pick_of(Rng& r, const std::vector<uint8_t>& v) {
  return v[r.uin(0, static_cast<unsigned>(v.size()) - 1)];
}

constexpr uint8_t kDataDtypes[] = {rm::dt::INT8,  rm::dt::UINT8,  rm::dt::INT16,  rm::dt::UINT16,
                                   rm::dt::INT32, rm::dt::UINT32, rm::dt::BF16,   rm::dt::FP16,
                                   rm::dt::FP32,  rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5};
inline uint8_t data_dtype(Rng& r) {
  return kDataDtypes[r.uin(0, 11)];
}

inline Word gen_tensor_tensor(Builder& b, uint8_t opcode) {
  using namespace rm::dt;
  Rng& r = b.rng();
  const Generation g = b.generation();
  const bool v3 = g != Generation::V2, v4 = g == Generation::V4 || g == Generation::V5;
  rm::TensorTensorWord x;
  x.opcode = opcode;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  // The engine: mostly given, sometimes the default (dve), rarely act (unsupported-op).
  const unsigned pe = r.uin(0, 99);
  b.engine = pe < 3    ? std::optional{gpsimd::Engine::ACT}
             : pe < 25 ? std::nullopt
             : pe < 50 ? std::optional{gpsimd::Engine::DVE}
                       : std::optional{gpsimd::Engine::POOL};
  const bool pool = b.engine == gpsimd::Engine::POOL;
  bool supported = b.engine != gpsimd::Engine::ACT;
  if (opcode == rm::kTensorTensorBitvec) {
    x.op = pick_of(r, ttops::kBitvec);
    x.lo = x.hi = x.out = r.pick<uint8_t>({INT8, UINT8, INT16, UINT16, INT32, UINT32});
    if (r.chance(1)) {  // 64-bit lanes: unsupported-op
      x.lo = r.pick<uint8_t>({INT64, UINT64});
      x.op = rm::op::LOGICAL_SHIFT_RIGHT;
      x.hi = UINT32;
      supported = false;
    }
  } else {
    const unsigned kind = r.uin(0, 99);
    if (kind < 35 || (!pool && kind < 97)) {  // a general op, any dtypes
      std::vector<uint8_t> ops = ttops::kGeneral;
      if (v4) ops.insert(ops.end(), ttops::kGeneralV4.begin(), ttops::kGeneralV4.end());
      x.op = pick_of(r, ops);
      if (r.chance(40)) {  // 32-bit integers: POOL's native path
        x.lo = r.pick<uint8_t>({INT32, UINT32});
        x.hi = r.pick<uint8_t>({INT32, UINT32});
        x.out = r.pick<uint8_t>({INT32, UINT32});
      } else {
        x.lo = data_dtype(r);
        x.hi = data_dtype(r);
        x.out = r.chance(8) ? FP32R : data_dtype(r);
      }
    } else if (kind < 98) {  // an integer op, three dtypes of its signedness
      std::vector<uint8_t> ops = v3 ? ttops::kIntBoth : ttops::kIntV2;
      if (v3) {
        ops.insert(ops.end(), ttops::kIntSigned.begin(), ttops::kIntSigned.end());
        ops.insert(ops.end(), ttops::kIntUnsigned.begin(), ttops::kIntUnsigned.end());
      }
      x.op = pick_of(r, ops);
      const bool both =
          std::find(ttops::kIntBoth.begin(), ttops::kIntBoth.end(), x.op) != ttops::kIntBoth.end();
      const bool is_signed = both ? r.chance(50)
                                  : std::find(ttops::kIntSigned.begin(), ttops::kIntSigned.end(),
                                              x.op) != ttops::kIntSigned.end();
      auto d = [&] {
        return is_signed ? r.pick<uint8_t>({INT8, INT16, INT32})
                         : r.pick<uint8_t>({UINT8, UINT16, UINT32});
      };
      x.lo = d();
      x.hi = d();
      x.out = d();
      supported = supported && pool;
    } else {  // valid but unmodelled, or 64-bit: unsupported-op
      x.op = rm::op::POW;
      x.lo = data_dtype(r);
      x.hi = data_dtype(r);
      x.out = r.chance(50) ? data_dtype(r) : INT64;
      supported = false;
    }
  }
  const unsigned s0 = rm::size_of(x.lo), s1 = rm::size_of(x.hi), sd = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  // PSUM: never on pool; at most one source; a destination of 4-byte elements.
  const unsigned psum_source = pool ? 0 : r.uin(0, 2);  // 1: src0, 2: src1
  const Space sp0 = psum_source == 1 ? b.space(60) : Space::SBUF;
  const Space sp1 = psum_source == 2 ? b.space(60) : Space::SBUF;
  const Space spd = !pool && sd == 4 ? b.space(30) : Space::SBUF;
  x.src0 = b.shape(3, count, s0, sp0);
  x.src1 = b.shape(3, count, s1, sp1);
  x.dst = b.shape(3, count, sd, spd);
  const unsigned p0 = b.start_partition(n);
  const rm::Loc ld = b.place(x.dst, spd, b.near_partition(p0, n), n, sd, true);
  const rm::Loc l0 = b.place(x.src0, sp0, p0, n, s0, true);
  const rm::Loc l1 = b.place(x.src1, sp1, b.near_partition(p0, n), n, s1, true);
  if (supported) {
    // The old destination first, then the sources (which win where they overlap it).
    b.fill(x.dst, ld, n, sd, [&] { return random_value(r, x.out); });
    b.fill(x.src0, l0, n, s0, [&] { return random_value(r, x.lo); });
    const bool shift = opcode == rm::kTensorTensorBitvec && ttops::is_shift(x.op);
    b.fill(x.src1, l1, n, s1,
           [&] { return shift && r.chance(60) ? r.uin(0, 8 * s1 + 2) : random_value(r, x.hi); });
  }
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  if (inj == Inject::Shape) {
    if (x.src0.register_mode())
      x.src0.num[1] += 1;
    else if (x.src1.register_mode())
      x.src1.num[2] += 1;
    else if (x.dst.register_mode())
      x.dst.num[0] += 1;
  }
  return x.encode();
}
inline Word gen_tensor_tensor_arith(Builder& b) {
  return gen_tensor_tensor(b, rm::kTensorTensorArith);
}
inline Word gen_tensor_tensor_bitvec(Builder& b) {
  return gen_tensor_tensor(b, rm::kTensorTensorBitvec);
}

// ---- TensorScalar (SPEC §4.15) ----

// SPEC §3.8's is_general_arith_op, from the table of §3.8 (V4 adds the last four).
constexpr uint8_t kGeneralArith[] = {0x00, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0D,
                                     0x0E, 0x0F, 0x12, 0x13, 0x14, 0x15, 0x16,
                                     0x17, 0x18, 0x19, 0x20, 0x21, 0x22, 0x23};
// is_valid_int_aluop_dve (V5) without BYPASS: they validate on V5 and fault on dve.
constexpr uint8_t kIntDve[] = {0xC4, 0xC5, 0xC6, 0xCF, 0xD0, 0xCB, 0xCC,
                               0xCD, 0xC9, 0xD1, 0xD2, 0xD3, 0xD4, 0xCA};
// is_general_bitvec_op.
constexpr uint8_t kBitvecOps[] = {0x00, 0x01, 0x02, 0x03, 0x10, 0x11, 0x0A, 0x0B, 0x0C};

// A random FP32 scalar: special values, values near the data, small integers.
inline uint32_t ts_scalar(Rng& r) {
  switch (r.in(0, 5)) {
    case 0:
      return random_value(r, rm::dt::FP32);
    case 1:
      return rm::as_bits(static_cast<float>(r.in(-8, 8)));
    case 2:
      return rm::as_bits(static_cast<float>(r.in(-1000, 1000)) / 8.0f);
    default:
      return r.pick<uint32_t>({0x3F800000u, 0xBF800000u, 0u, 0x80000000u, 0x7F800000u, 0xFF800000u,
                               0x7FC00001u, 0x7F800001u, 0x00000001u, 0x4B800000u, 0x3F000000u});
  }
}
// A random w-bit scalar for the raw-bits path: shift counts (around and beyond w), masks.
inline uint32_t ts_bits_scalar(Rng& r, uint8_t code) {
  const unsigned w = 8 * rm::size_of(code);
  const uint32_t mask = w == 32 ? ~0u : (1u << w) - 1;
  switch (r.in(0, 3)) {
    case 0:
      return static_cast<uint32_t>(r.in(0, w + 2)) & mask;
    case 1:
      return r.pick<uint32_t>({0u, 1u, w - 1, w, mask, mask >> 1, (mask >> 1) + 1}) & mask;
    default:
      return random_value(r, code);
  }
}

inline Word gen_tensor_scalar(Builder& b, uint8_t opcode) {
  Rng& r = b.rng();
  const Generation g = b.generation();
  const bool bitvec = opcode == rm::kTensorScalarBitvec || opcode == rm::kTensorScalarPtrBitvec;
  const bool pointer = opcode == rm::kTensorScalarPtrArith || opcode == rm::kTensorScalarPtrBitvec;
  rm::ts::TensorScalarWord x;
  x.opcode = opcode;
  const Inject inj = pick_injection(r);
  // The engine: mostly the default or dve; pool and act fault unsupported-op (and, on pool,
  // every operand stays out of PSUM).
  const unsigned e = r.uin(0, 99);
  b.engine = e < 70   ? std::optional<gpsimd::Engine>{}
             : e < 97 ? std::optional{gpsimd::Engine::DVE}
             : e < 98 ? std::optional{gpsimd::Engine::POOL}
                      : std::optional{gpsimd::Engine::ACT};
  const bool psum_ok = b.engine != gpsimd::Engine::POOL;
  x.ev = b.events();
  if (bitvec) {
    x.in = x.out = r.pick<uint8_t>({rm::dt::INT8, rm::dt::UINT8, rm::dt::INT16, rm::dt::UINT16,
                                    rm::dt::INT32, rm::dt::UINT32});
  } else {
    const std::initializer_list<uint8_t> data = {rm::dt::INT8,   rm::dt::UINT8,  rm::dt::INT16,
                                                 rm::dt::UINT16, rm::dt::BF16,   rm::dt::FP16,
                                                 rm::dt::INT32,  rm::dt::UINT32, rm::dt::FP32,
                                                 rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5};
    x.in = r.chance(40) ? rm::dt::FP32 : r.pick(data);
    x.out = r.chance(40) ? rm::dt::FP32 : r.chance(10) ? rm::dt::FP32R : r.pick(data);
  }
  const unsigned isz = rm::size_of(x.in), osz = rm::size_of(x.out);
  // The ops: valid for the opcode and generation; now and then one that faults
  // unsupported-op (RSQRT's arm, CRC32, the V5 integer arm).
  const unsigned ngeneral = g >= Generation::V4 ? 21 : 17;
  auto general = [&] { return kGeneralArith[r.uin(0, ngeneral - 1)]; };
  bool rsqrt = false;
  for (;;) {
    if (bitvec) {
      x.op0 = r.chance(2) ? rm::ts::aop::CRC32 : kBitvecOps[r.uin(0, 8)];
      x.op1 = r.chance(2) ? rm::ts::aop::CRC32 : kBitvecOps[r.uin(0, 8)];
    } else if (r.chance(2)) {
      rsqrt = true;
      x.op0 = rm::ts::aop::RSQRT;
      x.op1 = 0;
    } else if (g == Generation::V5 && r.chance(2)) {
      x.op0 = kIntDve[r.uin(0, 13)];
      x.op1 = r.chance(50) ? 0 : kIntDve[r.uin(0, 13)];
    } else {
      x.op0 = r.chance(5) ? 0 : general();
      x.op1 = r.chance(15) ? 0 : general();
    }
    if (x.op0 == 0 && x.op1 != 0) continue;  // tensor_scalar_valid_ops (3)
    if (bitvec && isz <= 2) {                // tensor_scalar_shift_chk
      const auto left = [](uint8_t o) { return o == 0x02 || o == 0x10; };
      const auto right = [](uint8_t o) { return o == 0x03 || o == 0x11; };
      if ((left(x.op0) && right(x.op1)) || x.op0 == 0x03 || x.op1 == 0x03) continue;
    }
    break;
  }
  x.reverse = static_cast<uint8_t>(r.in(0, 3));
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  const Space ss = psum_ok ? b.space(30) : Space::SBUF;
  const Space ds = psum_ok ? b.space(osz == 4 ? 30 : 0) : Space::SBUF;
  const auto [sl, dl] =
      b.place_pair(n, {.t = x.src, .space = ss, .elem = isz, .dims = 3, .count = count},
                   {.t = x.dst, .space = ds, .elem = osz, .dims = 3, .count = count});
  const unsigned width = bitvec ? isz : 4;
  auto scalar = [&](unsigned) { return bitvec ? ts_bits_scalar(r, x.in) : ts_scalar(r); };
  if (rsqrt) {
    x.imm0 = x.imm1 = 0;  // the RSQRT arm: every immediate byte and source 0
  } else if (pointer) {
    x.imm0 = b.pointer(width, sl.partition, n, psum_ok, scalar);
    x.imm1 = b.pointer(width, sl.partition, n, psum_ok, scalar);
  } else {
    std::tie(x.imm0_src, x.imm0) = b.immediate(width, sl.partition, n, psum_ok, scalar(0), scalar);
    std::tie(x.imm1_src, x.imm1) = b.immediate(width, sl.partition, n, psum_ok, scalar(0), scalar);
  }
  // The old destination first, then the source (it wins where they overlap).
  b.fill(x.dst, dl, n, osz, [&] { return random_value(r, x.out); });
  const bool ties = !bitvec && x.in == rm::dt::FP32 && rm::format_of(x.out) && r.chance(30);
  b.fill(x.src, sl, n, isz, [&] { return ties ? near_tie(r, x.out) : random_value(r, x.in); });

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  if (inj == Inject::Shape) {
    if (x.src.register_mode())
      x.src.num[1] += 1;
    else if (x.dst.register_mode())
      x.dst.num[2] += 1;
  }
  return x.encode();
}
inline Word gen_tensor_scalar_arith(Builder& b) {
  return gen_tensor_scalar(b, rm::kTensorScalarArith);
}
inline Word gen_tensor_scalar_bitvec(Builder& b) {
  return gen_tensor_scalar(b, rm::kTensorScalarBitvec);
}
inline Word gen_tensor_scalar_ptr_arith(Builder& b) {
  return gen_tensor_scalar(b, rm::kTensorScalarPtrArith);
}
inline Word gen_tensor_scalar_ptr_bitvec(Builder& b) {
  return gen_tensor_scalar(b, rm::kTensorScalarPtrBitvec);
}

// Copy (0x46) and Cast (0x47): any engine (PSUM off POOL), every dtype pair, 4-D walks of
// every shape the builder makes, values at the conversions' edges.
inline Word gen_copy_cast(Builder& b, uint8_t opcode) {
  static constexpr uint8_t kData[] = {
      rm::dt::INT8, rm::dt::UINT8, rm::dt::INT16, rm::dt::UINT16, rm::dt::INT32,  rm::dt::UINT32,
      rm::dt::BF16, rm::dt::FP16,  rm::dt::FP32,  rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5};
  Rng& r = b.rng();
  rm::CopyCastWord x;
  x.opcode = opcode;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  b.engine = r.pick<std::optional<gpsimd::Engine>>(
      {std::nullopt, gpsimd::Engine::POOL, gpsimd::Engine::DVE, gpsimd::Engine::ACT});
  x.in = kData[r.uin(0, 11)];
  x.out = opcode == rm::kCopy || r.chance(30)
              ? x.in
              : (r.chance(10) ? rm::dt::FP32R : kData[r.uin(0, 11)]);
  x.op_dim = r.chance(20) ? 2 : 0;
  const unsigned isz = rm::size_of(x.in), osz = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 16384 / n));
  x.channels = static_cast<uint8_t>(n);
  const bool psum = b.engine && *b.engine != gpsimd::Engine::POOL;
  const Space ss = psum ? b.space(30) : Space::SBUF;
  const Space ds = psum ? b.space(osz == 4 ? 30 : 0) : Space::SBUF;
  const unsigned sdims = r.uin(1, 4), ddims = r.uin(1, 4);
  const auto [sl, dl] =
      b.place_pair(n, {.t = x.src, .space = ss, .elem = isz, .dims = sdims, .count = count},
                   {.t = x.dst, .space = ds, .elem = osz, .dims = ddims, .count = count});
  x.src.dims = x.dst.dims = 4;  // TENSOR4D: the unused dimensions have num 1
  b.fill(x.dst, dl, n, osz, [&] { return random_value(r, x.out); });
  b.fill(x.src, sl, n, isz, [&] {
    if (r.chance(20) && is_float(x.in)) return near_tie(r, x.out) & (isz == 4 ? ~0u : 0u);
    if (r.chance(20) && isz == 4 && !is_float(x.in))  // 2^24 +- 1, the limits, S24 ties
      return r.pick<uint32_t>({0x01000001u, 0x00ffffffu, 0x01010001u, 0x7fffffc0u, 0x7fffff80u,
                               0x80000000u, 0xffffffffu, 0xfeffffffu, r.u32() | 0x01000001u});
    return random_value(r, x.in);
  });
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}
inline Word gen_copy(Builder& b) {
  return gen_copy_cast(b, rm::kCopy);
}
inline Word gen_cast(Builder& b) {
  return gen_copy_cast(b, rm::kCast);
}

// ---- The comparison ---------------------------------------------------------------------

// Returns the first difference between two machines over a case's footprint and the small
// state (registers, semaphores, accumulators), or an empty string.

}  // namespace gpsimd::random_words
