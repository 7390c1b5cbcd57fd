// Random valid words for the assembly round trip (tests/asm_roundtrip_test.cc), built from
// SPEC §4's rules: the generator state and the pieces every instruction's generator
// (tests/instructions/) uses.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <random>

#include "gpsimd/format.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"

namespace gpsimd::asm_words {

struct Gen {
  std::mt19937 rng;
  unsigned below(unsigned n) { return static_cast<unsigned>(rng() % n); }
  template <class T, std::size_t N>
  T pick(const T (&a)[N]) {
    return a[below(N)];
  }

  // SPEC §3.2: a valid events band.
  void events(Word& w) {
    const uint8_t wait = static_cast<uint8_t>(below(3)), update = static_cast<uint8_t>(below(4));
    w[4] = wait;
    w[5] = wait ? static_cast<uint8_t>(below(256)) : 0;
    w[6] = update;
    w[7] = update ? static_cast<uint8_t>(below(256)) : 0;
    store_u32(w, 8, (wait || update == 1) ? static_cast<uint32_t>(rng()) : 0);
  }
  // A static address whose partitions start..start+n-1 exist, aligned to `align`.
  uint32_t static_addr(unsigned n, unsigned align, bool psum) {
    const unsigned p = below(kPartitions - n + 1);
    const uint32_t off = 0x1000 + align * below(256);
    return psum ? kPsumBase + (p << 15) + off : (p << 18) | off;
  }
  // A tensor whose walk stays well inside a partition from offset 0x1000: |step| <= 3,
  // num <= 6, so the walk spans at most 3 * 5 * 3 = 45 elements either way.
  TensorDesc tensor(unsigned dims, const std::array<uint16_t, kMaxDims>& num, unsigned n,
                    unsigned elem, bool psum) {
    TensorDesc t;
    t.dims = static_cast<uint8_t>(dims);
    t.num = num;
    for (unsigned d = 0; d < dims; ++d)
      t.step[d] = static_cast<int16_t>(static_cast<int>(below(7)) - 3);
    t.addr = below(8) == 0 ? (0x80000000u | below(kRegisters)) : static_addr(n, elem, psum);
    return t;
  }
  std::array<uint16_t, kMaxDims> nums(unsigned dims) {
    std::array<uint16_t, kMaxDims> a{};
    for (unsigned d = 0; d < dims; ++d) a[d] = static_cast<uint16_t>(1 + below(6));
    return a;
  }
  // A valid IMM_VAL: an instruction immediate (any value of `width` bytes), a pointer,
  // or a register pointer.
  void immediate(Word& w, unsigned src_off, unsigned val_off, unsigned width, unsigned n,
                 bool allow_psum, std::optional<uint32_t> inst_value = std::nullopt) {
    const unsigned src = below(3);
    w[src_off] = static_cast<uint8_t>(src);
    uint32_t v = 0;
    if (src == 0) {
      v = inst_value ? *inst_value
                     : (width == 4 ? static_cast<uint32_t>(rng())
                                   : static_cast<uint32_t>(rng()) & ((1u << (8 * width)) - 1));
    } else if (src == 1) {
      v = static_addr(n, width, allow_psum && below(2));
    } else {
      v = below(kRegisters);
    }
    store_u32(w, val_off, v);
  }
};

// A random DATA4D of `count` elements spread over four dimensions, any base and steps.
inline TensorDesc data4d(Gen& g, const std::array<uint16_t, kMaxDims>& num) {
  TensorDesc t;
  t.dims = 4;
  t.addr = static_cast<uint32_t>(g.rng());
  t.num = num;
  for (unsigned d = 0; d < 4; ++d) t.step[d] = static_cast<int16_t>(g.rng());
  return t;
}

}  // namespace gpsimd::asm_words
