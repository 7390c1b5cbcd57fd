// Round-trip properties of the assembly language (docs/assembly.md):
//   - every word of a known opcode, valid or not, survives disassemble -> assemble
//     byte for byte;
//   - random valid instructions (built here from SPEC §4's rules and checked with
//     validate()) do too;
//   - random programs survive parse -> print -> parse, and asm -> dis -> asm.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "gpsimd/asm.h"
#include "gpsimd/format.h"
#include "gpsimd/validate.h"
#include "table_coverage.h"

namespace gpsimd {
namespace {

// The opcodes of every row of the instruction table.
const std::vector<uint8_t> kOpcodes = [] {
  std::vector<uint8_t> out;
  for (const InstrDef& d : instructions()) out.push_back(static_cast<uint8_t>(d.opcode));
  return out;
}();

// Bytes that hit the interesting cases more often than uniform noise does: zero (the
// defaults), small codes (enumerations), and edges.
uint8_t interesting_byte(std::mt19937& rng) {
  static constexpr uint8_t kEdges[] = {1,    2,    3,    4,    8,    0x0a, 0x10,
                                       0x12, 0x13, 0x16, 0x66, 0x7f, 0x80, 0xff};
  switch (rng() % 4) {
    case 0:
    case 1:
      return 0;
    case 2:
      return kEdges[rng() % std::size(kEdges)];
    default:
      return static_cast<uint8_t>(rng());
  }
}

Word random_word(std::mt19937& rng, bool uniform) {
  Word w;
  for (auto& b : w) b = uniform ? static_cast<uint8_t>(rng()) : interesting_byte(rng);
  w[0] = kOpcodes[rng() % std::size(kOpcodes)];
  if (rng() % 2) {  // a valid header half of the time
    w[1] = 0x10;
    w[2] = w[3] = 0;
  }
  return w;
}

void expect_roundtrip(const Word& w, bool also_wrapped = true) {
  auto text = disassemble(w);
  ASSERT_TRUE(text) << word_to_hex(w);
  EXPECT_EQ(text->find('\n'), std::string::npos) << *text;  // one line
  AsmError e;
  auto back = assemble(*text, "dis", &e);
  ASSERT_TRUE(back) << e.to_string() << "\n" << *text << "\n" << word_to_hex(w);
  ASSERT_EQ(back->size(), 1u) << *text;
  EXPECT_EQ(word_to_hex(back->front()), word_to_hex(w)) << *text;
  if (!also_wrapped) return;
  // Wrapped over several lines, it is still the same word.
  auto wrapped = assemble(wrap_statement(*text, 40), "dis", &e);
  ASSERT_TRUE(wrapped) << e.to_string();
  EXPECT_EQ(wrapped->front(), w);
}

TEST(AsmRoundTrip, RandomWordsOfKnownOpcodes) {
  std::mt19937 rng(20240611);
  for (int i = 0; i < 10000; ++i) {
    SCOPED_TRACE(i);
    expect_roundtrip(random_word(rng, i % 2 == 0), i % 4 == 0);
    if (HasFatalFailure()) return;
  }
}

TEST(AsmRoundTrip, EveryValueOfEveryByteOfEveryOpcode) {
  // Each byte position takes all 256 values, the other bytes zero (header valid).
  for (uint8_t op : kOpcodes) {
    for (unsigned pos = 1; pos < kWordBytes; ++pos) {
      for (unsigned v = 0; v < 256; ++v) {
        Word w{};
        w[0] = op;
        w[1] = 0x10;
        w[pos] = static_cast<uint8_t>(v);
        expect_roundtrip(w, false);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// ---- random valid instructions, from SPEC §4's rules -------------------------------------

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

Word valid_range_select(Gen& g) {
  static constexpr uint8_t kIn[] = {0xd, 0xe, 0xf, 0x7, 0x6, 0xa};
  static constexpr uint8_t kOut[] = {0xd, 0xe, 0xf, 0x7, 0x6, 0xa, 0xb};
  static constexpr uint8_t kCmp[] = {0x12, 0x13, 0x14, 0x15, 0x16};
  static constexpr uint8_t kCmd[] = {0, 2, 3};
  Word w{};
  w[0] = 0xbc;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t din = g.pick(kIn), dout = g.pick(kOut);
  w[12] = static_cast<uint8_t>(n);
  w[13] = static_cast<uint8_t>(din | dout << 4);
  w[14] = g.pick(kCmd);
  w[15] = 0x08;
  store_u32(w, 16, bits_from_fp32(static_cast<float>(g.below(1000))));
  store_u32(w, 20, 0xff7fffffu);
  const auto num = g.nums(2);
  const unsigned in_size = *dtype_size(din), out_size = *dtype_size(dout);
  store_tensor(w, 24, g.tensor(2, num, n, in_size, g.below(2)));
  // The destination visits as many elements, in another shape.
  std::array<uint16_t, kMaxDims> dnum{static_cast<uint16_t>(num[0] * num[1]), 1, 0};
  if (g.below(2)) dnum = {num[1], num[0], 0};
  store_tensor(w, 48, g.tensor(2, dnum, n, out_size, out_size == 4 && g.below(2)));
  w[36] = g.pick(kCmp);
  w[37] = g.pick(kCmp);
  g.immediate(w, 38, 40, 4, n, true);
  g.immediate(w, 39, 44, 4, n, true);
  return w;
}

Word valid_tensor_scalar_select(Gen& g) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  Word w{};
  w[0] = 0x98;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t dt = g.pick(kData);
  const unsigned size = *dtype_size(dt);
  // pred_imm_dtype: a signed or unsigned integer of the same width.
  const uint8_t pdt = size == 1   ? (g.below(2) ? 0x2 : 0x3)
                      : size == 2 ? (g.below(2) ? 0x4 : 0x5)
                                  : (g.below(2) ? 0x8 : 0x9);
  const auto num = g.nums(3);
  store_tensor(w, 16, g.tensor(3, num, n, size, g.below(2)));
  const std::array<uint16_t, kMaxDims> dnum{num[2], num[1], num[0]};
  store_tensor(w, 48, g.tensor(3, dnum, n, size, size == 4 && g.below(2)));
  w[32] = static_cast<uint8_t>(g.below(2));
  w[33] = static_cast<uint8_t>(n);
  w[34] = dt;
  w[35] = pdt;
  g.immediate(w, 38, 40, size, n, true);
  g.immediate(w, 39, 44, size, n, true, g.below(2));  // an instruction predicate is 0 or 1
  return w;
}

Word valid_get_sequence_bounds(Gen& g) {
  Word w{};
  w[0] = 0xbe;
  w[1] = 0x10;
  g.events(w);
  w[12] = 1;
  w[14] = g.below(2) ? 0x8 : 0xa;
  w[15] = g.below(2) ? 0x8 : 0xa;
  const auto num = g.nums(3);
  store_tensor(w, 16, g.tensor(3, num, 1, 4, false));
  const std::array<uint16_t, kMaxDims> dnum{num[0], static_cast<uint16_t>(num[1] * num[2]), 2};
  store_tensor(w, 32, g.tensor(3, dnum, 1, 4, false));
  return w;
}

Word valid_sort(Gen& g) {
  static constexpr uint8_t kSort[] = {0x7, 0x6, 0x5, 0x4, 0xa, 0x9, 0x8};
  Word w{};
  w[0] = 0x96;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t dt = g.pick(kSort);
  const unsigned size = *dtype_size(dt);
  const uint16_t N = static_cast<uint16_t>(1 + g.below(16));
  const uint16_t K = static_cast<uint16_t>(1 + g.below(N));
  w[12] = static_cast<uint8_t>(n);
  w[14] = static_cast<uint8_t>(dt | dt << 4);
  w[15] = g.below(2) ? 0x16 : 0x13;
  store_tensor(w, 16, g.tensor(1, {N, 0, 0}, n, size, false));
  store_tensor(w, 24, g.tensor(2, {2, K, 0}, n, size, false));
  g.immediate(w, 13, 36, 4, n, false);
  w[40] = static_cast<uint8_t>(g.below(2));
  return w;
}

// A random DATA4D of `count` elements spread over four dimensions, any base and steps.
TensorDesc data4d(Gen& g, const std::array<uint16_t, kMaxDims>& num) {
  TensorDesc t;
  t.dims = 4;
  t.addr = static_cast<uint32_t>(g.rng());
  t.num = num;
  for (unsigned d = 0; d < 4; ++d) t.step[d] = static_cast<int16_t>(g.rng());
  return t;
}

Word valid_affine_select(Gen& g) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  Word w{};
  w[0] = 0x92;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t lo = g.pick(kData), hi = g.below(8) ? g.pick(kData) : 0xb;
  w[12] = static_cast<uint8_t>(n);
  w[13] = static_cast<uint8_t>(lo | hi << 4);
  w[14] = static_cast<uint8_t>(g.below(4));
  w[15] = static_cast<uint8_t>(g.below(kRegisters));
  const auto num = g.nums(2);
  store_tensor(w, 16, data4d(g, {num[1], 1, num[0], 1}));
  store_tensor(w, 36, g.tensor(2, num, n, *dtype_size(lo), false));
  store_tensor(w, 48, g.tensor(2, {num[1], num[0], 1, 1}, n, *dtype_size(hi), false));
  store_u32(w, 60, static_cast<uint32_t>(g.rng()));
  return w;
}

Word valid_iota(Gen& g) {
  static constexpr uint8_t kOut[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8,
                                     0x9, 0xa, 0xb, 0xd, 0xe, 0xf};
  Word w{};
  w[0] = 0x7e;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t dt = g.pick(kOut);
  const auto num = g.nums(4);
  store_tensor(w, 12, data4d(g, {num[3], num[2], num[1], num[0]}));
  w[33] = dt;
  w[34] = static_cast<uint8_t>(n);
  store_u32(w, 36, static_cast<uint32_t>(g.rng()));
  store_tensor(w, 44, g.tensor(4, num, n, *dtype_size(dt), false));
  return w;
}

// SPEC §4.11: one byte each for in_dtype and out_dtype; count(dst) = count(src) + 1.
Word valid_nonzero_with_count(Gen& g) {
  Word w{};
  w[0] = 0xf2;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(40);
  w[12] = static_cast<uint8_t>(n);
  w[13] = g.below(2) ? 0x8 : 0xa;
  w[14] = 0x8;
  const auto num = g.nums(3);
  store_tensor(w, 16, g.tensor(3, num, n, 4, false));
  const uint16_t t = static_cast<uint16_t>(num[0] * num[1] * num[2]);
  const std::array<uint16_t, kMaxDims> dnum =
      g.below(2) ? std::array<uint16_t, kMaxDims>{static_cast<uint16_t>(t + 1), 1, 1, 1}
                 : std::array<uint16_t, kMaxDims>{1, static_cast<uint16_t>(t + 1), 1, 1};
  store_tensor(w, 44, g.tensor(3, dnum, n, 4, false));
  g.immediate(w, 15, 32, 4, n, false);
  g.immediate(w, 36, 40, 4, n, false);
  return w;
}

// SPEC §4.12: any integer predicate width with any data dtype (in == out).
Word valid_copy_predicated_scalar(Gen& g) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  static constexpr uint8_t kPred[] = {0x2, 0x3, 0x4, 0x5, 0x8, 0x9};
  Word w{};
  w[0] = 0xe8;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t dt = g.pick(kData), pdt = g.pick(kPred);
  const unsigned size = *dtype_size(dt), psize = *dtype_size(pdt);
  const auto num = g.nums(3);
  store_tensor(w, 16, g.tensor(3, num, n, psize, g.below(2)));
  const std::array<uint16_t, kMaxDims> dnum{num[1], num[2], num[0], 1};
  store_tensor(w, 48, g.tensor(3, dnum, n, size, size == 4 && g.below(2)));
  w[32] = pdt;
  w[33] = static_cast<uint8_t>(g.below(2));
  w[34] = static_cast<uint8_t>(n);
  w[41] = w[42] = dt;
  g.immediate(w, 43, 44, size, n, true);
  return w;
}

// SPEC §4.13: one element per channel.
Word valid_dve_read_accumulator(Gen& g) {
  static constexpr uint8_t kFloat[] = {0xd, 0xe, 0xf, 0x7, 0x6, 0xa, 0xb};
  Word w{};
  w[0] = 0x9b;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t dt = g.pick(kFloat);
  const unsigned size = *dtype_size(dt);
  store_u32(w, 28, 1);
  w[32] = dt;
  w[33] = static_cast<uint8_t>(g.below(2));
  w[34] = static_cast<uint8_t>(n);
  store_tensor(w, 44, g.tensor(1, {1, 0, 0}, n, size, size == 4 && g.below(2)));
  return w;
}

// SPEC §4.7: eight values per lane, any data dtype.
Word valid_match_value_load(Gen& g) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  static constexpr std::array<uint16_t, kMaxDims> kShapes[] = {
      {1, 8, 0, 0}, {2, 4, 0, 0}, {4, 2, 0, 0}, {8, 1, 0, 0}};
  Word w{};
  w[0] = 0x6d;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t dt = g.pick(kData);
  store_tensor(w, 16, g.tensor(2, g.pick(kShapes), n, *dtype_size(dt), g.below(2)));
  w[32] = dt;
  w[34] = static_cast<uint8_t>(n);
  return w;
}

// SPEC §4.8, §4.9: S4D2_BN, at least 8 source elements, 8 destination elements.
Word valid_s4d2_bn(Gen& g, uint8_t opcode) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  static constexpr uint8_t kIndex[] = {0x5, 0x9};  // FindIndex8: UINT16, UINT32
  static constexpr std::array<uint16_t, kMaxDims> kDst[] = {{8, 1, 0, 0}, {2, 4, 0, 0}};
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t in = g.pick(kData);
  const uint8_t out = opcode == 0x6e ? g.pick(kIndex) : g.pick(kData);
  const std::array<uint16_t, kMaxDims> src{static_cast<uint16_t>(8 + g.below(9)),
                                           static_cast<uint16_t>(1 + g.below(2)), 1, 1};
  store_tensor(w, 12, g.tensor(4, src, n, *dtype_size(in), g.below(2)));
  w[32] = in;
  w[33] = out;
  w[34] = static_cast<uint8_t>(n);
  const unsigned osize = *dtype_size(out);
  store_tensor(w, 48, g.tensor(2, g.pick(kDst), n, osize, osize == 4 && g.below(2)));
  return w;
}
Word valid_max8(Gen& g) {
  return valid_s4d2_bn(g, 0x6c);
}
Word valid_find_index8(Gen& g) {
  return valid_s4d2_bn(g, 0x6e);
}

// SPEC §4.10: the match-replace dtypes, equal source and destination counts.
Word valid_match_replace8(Gen& g) {
  static constexpr uint8_t kData[] = {0x7, 0x6, 0x3, 0x5, 0x9, 0xa, 0x8};
  Word w{};
  w[0] = 0x6f;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t in = g.pick(kData), out = g.pick(kData);
  const auto num = g.nums(4);
  store_tensor(w, 12, g.tensor(4, num, n, *dtype_size(in), g.below(2)));
  w[32] = in;
  w[33] = out;
  w[34] = static_cast<uint8_t>(n);
  store_u32(w, 40, static_cast<uint32_t>(g.rng()));
  const unsigned osize = *dtype_size(out);
  const std::array<uint16_t, kMaxDims> dnum{num[3], num[2], num[1], num[0]};
  store_tensor(w, 44, g.tensor(4, dnum, n, osize, osize == 4 && g.below(2)));
  return w;
}

// SPEC §4.14: S3S3D3_TT. 0x41: any op of the table (valid on V3: the words are checked
// there) with data dtypes an integer op accepts; 0x51: a general bitvec op, one integer
// dtype. The three walks visit as many elements in other shapes.
Word valid_tensor_tensor(Gen& g, uint8_t opcode) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  static constexpr uint8_t kGeneral[] = {0x00, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0d, 0x0e, 0x0f,
                                         0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a};
  static constexpr uint8_t kSignedInt[] = {0xc4, 0xc5, 0xc6, 0xc7, 0xcf, 0xd0, 0xd1, 0xcb};
  static constexpr uint8_t kSigned[] = {0x2, 0x4, 0x8, 0xc};  // INT8, INT16, INT32, INT64
  static constexpr uint8_t kBitvec[] = {0x00, 0x01, 0x02, 0x03, 0x10, 0x11, 0x0a, 0x0b, 0x0c};
  static constexpr uint8_t kInt[] = {0x2, 0x3, 0x4, 0x5, 0x8, 0x9};
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  uint8_t lo, hi, out, op;
  if (opcode == 0x51) {
    op = g.pick(kBitvec);
    lo = hi = out = g.pick(kInt);
  } else if (g.below(3) == 0) {
    op = g.pick(kSignedInt);
    lo = g.pick(kSigned);
    hi = g.pick(kSigned);
    out = g.pick(kSigned);
  } else {
    op = g.pick(kGeneral);
    lo = g.pick(kData);
    hi = g.pick(kData);
    out = g.below(8) == 0 ? 0xb : g.pick(kData);  // FP32R only as the output
  }
  w[12] = static_cast<uint8_t>(lo | hi << 4);
  w[13] = out;
  w[14] = op;
  w[15] = static_cast<uint8_t>(n);
  const auto num = g.nums(3);
  const unsigned s0 = *dtype_size(lo), s1 = *dtype_size(hi), sd = *dtype_size(out);
  // At most one source in PSUM; a PSUM destination has 4-byte elements.
  const unsigned psum = g.below(3);
  store_tensor(w, 16, g.tensor(3, num, n, s0, psum == 1));
  store_tensor(w, 32, g.tensor(3, {num[2], num[0], num[1], 1}, n, s1, psum == 2));
  store_tensor(w, 48, g.tensor(3, {num[1], num[2], num[0], 1}, n, sd, sd == 4 && g.below(2)));
  return w;
}
Word valid_tensor_tensor_arith(Gen& g) {
  return valid_tensor_tensor(g, 0x41);
}
Word valid_tensor_tensor_bitvec(Gen& g) {
  return valid_tensor_tensor(g, 0x51);
}

// SPEC §4.15: S3D3_TS, the four opcodes; ops valid for the opcode on V3 (the generation
// RandomValidInstructions validates on), every reverse flag, every kind of immediate.
Word valid_s3d3_ts(Gen& g, uint8_t opcode) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  static constexpr uint8_t kOut[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8,
                                     0x9, 0xa, 0xb, 0xd, 0xe, 0xf};
  static constexpr uint8_t kInt[] = {0x2, 0x3, 0x4, 0x5, 0x8, 0x9};
  // is_general_arith_op on V3, and is_bitvec_op without ARITH_SHIFT_RIGHT (any width).
  static constexpr uint8_t kArith[] = {0x00, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0d, 0x0e, 0x0f,
                                       0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19};
  static constexpr uint8_t kBitvec[] = {0x00, 0x01, 0x02, 0x10, 0x0a, 0x0b, 0x0c, 0x1c};
  const bool bitvec = opcode == 0x53 || opcode == 0x54, pointer = opcode == 0x44 || opcode == 0x54;
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t in = bitvec ? g.pick(kInt) : g.pick(kData);
  const uint8_t out = bitvec ? in : g.pick(kOut);
  const unsigned isz = *dtype_size(in), osz = *dtype_size(out);
  const auto num = g.nums(3);
  store_tensor(w, 16, g.tensor(3, num, n, isz, g.below(2)));
  const std::array<uint16_t, kMaxDims> dnum{num[1], num[0], num[2], 1};
  store_tensor(w, 48, g.tensor(3, dnum, n, osz, osz == 4 && g.below(2)));
  w[32] = in;
  w[33] = out;
  w[34] = static_cast<uint8_t>(n);
  uint8_t op0 = bitvec ? g.pick(kBitvec) : g.pick(kArith);
  uint8_t op1 = bitvec ? g.pick(kBitvec) : g.pick(kArith);
  if (op0 == 0) op1 = 0;
  if (bitvec && isz <= 2 && (op0 == 0x02 || op0 == 0x10) && op1 == 0x11)
    op1 = 0x10;  // no left, right
  w[36] = op0;
  w[37] = op1;
  w[38] = static_cast<uint8_t>(g.below(4));
  const unsigned width = bitvec ? isz : 4;
  if (pointer) {
    store_u32(w, 40, g.static_addr(n, width, g.below(2)));
    store_u32(w, 44, g.static_addr(n, width, g.below(2)));
  } else {
    g.immediate(w, 35, 40, width, n, true);
    g.immediate(w, 39, 44, width, n, true);
  }
  return w;
}
Word valid_tensor_scalar_arith(Gen& g) {
  return valid_s3d3_ts(g, 0x43);
}
Word valid_tensor_scalar_bitvec(Gen& g) {
  return valid_s3d3_ts(g, 0x53);
}
Word valid_tensor_scalar_ptr_arith(Gen& g) {
  return valid_s3d3_ts(g, 0x44);
}
Word valid_tensor_scalar_ptr_bitvec(Gen& g) {
  return valid_s3d3_ts(g, 0x54);
}

// SPEC §4.16, §4.17: S4D4_TR, equal counts in two shapes; Copy keeps the dtype, Cast
// takes any pair (FP32R as output only); op_dim UNUSED or X. The default engine, POOL:
// SBUF only.
Word valid_copy_cast(Gen& g, uint8_t opcode) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t in = g.pick(kData);
  const uint8_t out = opcode == 0x46 ? in : (g.below(10) == 0 ? uint8_t{0xb} : g.pick(kData));
  const auto num = g.nums(4);
  store_tensor(w, 12, g.tensor(4, num, n, *dtype_size(in), false));
  w[32] = in;
  w[33] = out;
  w[34] = static_cast<uint8_t>(n);
  w[37] = g.below(2) ? 0x2 : 0x0;
  const std::array<uint16_t, kMaxDims> dnum{num[2], num[0], num[3], num[1]};
  store_tensor(w, 44, g.tensor(4, dnum, n, *dtype_size(out), false));
  return w;
}
Word valid_copy(Gen& g) {
  return valid_copy_cast(g, 0x46);
}
Word valid_cast(Gen& g) {
  return valid_copy_cast(g, 0x47);
}

// A generator of valid words for every table row.
const std::map<std::string_view, Word (*)(Gen&)>& makers() {
  static const std::map<std::string_view, Word (*)(Gen&)> m = {
      {"RangeSelect", valid_range_select},
      {"TensorScalarSelect", valid_tensor_scalar_select},
      {"GetSequenceBounds", valid_get_sequence_bounds},
      {"Sort", valid_sort},
      {"AffineSelect", valid_affine_select},
      {"Iota", valid_iota},
      {"NonzeroWithCount", valid_nonzero_with_count},
      {"CopyPredicatedScalar", valid_copy_predicated_scalar},
      {"DveReadAccumulator", valid_dve_read_accumulator},
      {"MatchValueLoad", valid_match_value_load},
      {"Max8", valid_max8},
      {"FindIndex8", valid_find_index8},
      {"MatchReplace8", valid_match_replace8},
      {"TensorTensorArith", valid_tensor_tensor_arith},
      {"TensorTensorBitvec", valid_tensor_tensor_bitvec},
      {"TensorScalarArith", valid_tensor_scalar_arith},
      {"TensorScalarBitvec", valid_tensor_scalar_bitvec},
      {"TensorScalarPtrArith", valid_tensor_scalar_ptr_arith},
      {"TensorScalarPtrBitvec", valid_tensor_scalar_ptr_bitvec},
      {"Copy", valid_copy},
      {"Cast", valid_cast},
  };
  return m;
}

TEST(AsmRoundTrip, EveryInstructionHasAGenerator) {
  std::vector<std::string_view> names;
  for (const auto& [name, fn] : makers()) names.push_back(name);
  test_coverage::expect_table("RandomValidInstructions' generators", names);
}

TEST(AsmRoundTrip, RandomValidInstructions) {
  Gen g{std::mt19937(77)};
  std::vector<Word (*)(Gen&)> fns;
  for (const auto& [name, fn] : makers()) fns.push_back(fn);
  for (int i = 0; i < 13000; ++i) {
    const Word w = fns[static_cast<std::size_t>(i) % fns.size()](g);
    const Diagnostics d = validate(w, Generation::V3);
    ASSERT_TRUE(d.empty()) << "the generator built an invalid word: " << d.front().message() << "\n"
                           << word_to_hex(w);
    SCOPED_TRACE(i);
    expect_roundtrip(w);
    if (HasFatalFailure()) return;
  }
}

// ---- random programs ---------------------------------------------------------------------

std::string random_region(std::mt19937& rng, bool acc_ok) {
  const unsigned first = static_cast<unsigned>(rng() % 120),
                 count = 1 + static_cast<unsigned>(rng() % 4);
  const std::string p =
      count == 1 ? std::to_string(first) : fmt::format("{}..{}", first, first + count - 1);
  switch (rng() % (acc_ok ? 3 : 2)) {
    case 0:
      return fmt::format("sbuf[p={}, off={}]", p, 4 * (rng() % 1000));
    case 1:
      return fmt::format("PSUM[off={:#x}, p={}]", 8 * (rng() % 100), p);
    default:
      return fmt::format("acc[p={}]", p);
  }
}

unsigned region_partitions(const std::string& region) {
  const auto dots = region.find("..");
  if (dots == std::string::npos) return 1;
  const auto eq = region.rfind('=', dots);
  const unsigned a = static_cast<unsigned>(std::stoul(region.substr(eq + 1)));
  const unsigned b = static_cast<unsigned>(std::stoul(region.substr(dots + 2)));
  return b - a + 1;
}

std::string random_value(std::mt19937& rng, Dtype dt) {
  static const char* kFloats[] = {"1.5",   "-0.0",  "inf", "-inf",  "nan", "-nan",
                                  "1e-40", "65504", "0.1", "-2.75", "3",   "0x0"};
  const unsigned size = *dtype_size(dt);
  const bool is_float = minifloat_format(dt) != nullptr || dt == Dtype::FP32;
  if (rng() % 3 == 0) {
    const uint64_t mask = (uint64_t{1} << (8 * size)) - 1;
    return fmt::format("{:#x}", rng() & mask);
  }
  if (is_float) return kFloats[rng() % std::size(kFloats)];
  const bool sgn = dt == Dtype::INT8 || dt == Dtype::INT16 || dt == Dtype::INT32;
  const int64_t lo = sgn ? -(int64_t{1} << (8 * size - 1)) : 0;
  const int64_t span = int64_t{1} << (8 * size);
  return std::to_string(lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(span)));
}

std::string random_statement(std::mt19937& rng) {
  static constexpr Dtype kData[] = {Dtype::FP32,   Dtype::FP32R,  Dtype::BF16,   Dtype::FP16,
                                    Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5, Dtype::INT8,
                                    Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16, Dtype::INT32,
                                    Dtype::UINT32};
  const Dtype dt = kData[rng() % std::size(kData)];
  const std::string dtname(*dtype_name(static_cast<uint8_t>(dt)));
  switch (rng() % 9) {
    case 0:
      return fmt::format(".reg {} = {:#x}", rng() % 64, rng());
    case 1:
      return fmt::format(".reg {} = sbuf[p={}, off={}]", rng() % 64, rng() % 128, rng() % 4096);
    case 2:
      return fmt::format(".sem {} = {}", rng() % 256, rng());
    case 3: {
      static const char* kAcc[] = {"-inf", "1.5", "0x7fc00001", "-0.0", "3e38", "0xff7fffff"};
      const unsigned a = static_cast<unsigned>(rng() % 128);
      return rng() % 2 ? fmt::format(".acc {} = {}", a, kAcc[rng() % 6])
                       : fmt::format(".acc {}..{} = {}", a, a + rng() % (128 - a), kAcc[rng() % 6]);
    }
    case 4: {
      const std::string region = random_region(rng, false);
      const unsigned parts = region_partitions(region), per = 1 + static_cast<unsigned>(rng() % 20);
      std::string s = ".data " + region + " " + dtname + " = [";
      const bool nested = parts > 1 && rng() % 2;
      for (unsigned r = 0; r < parts; ++r) {
        if (nested) s += r ? ",\n  [" : "[";
        for (unsigned k = 0; k < per; ++k)
          s += ((k || (r && !nested)) ? ", " : "") + random_value(rng, dt);
        if (nested) s += "]";
      }
      return s + "]";
    }
    case 5: {
      static const char* kPaths[] = {"x.npy", "data/y.npy", "\"with space.npy\"", "/abs/z.npy"};
      return ".load " + random_region(rng, false) + " <- " + kPaths[rng() % 4];
    }
    case 6: {
      const std::string region = random_region(rng, true);
      std::string s = ".dump " + region;
      if (region.rfind("acc", 0) != 0) {
        s += fmt::format(" {} [{}]", dtname, 1 + rng() % 40);
        if (rng() % 2) s += fmt::format(" step={}", 1 + rng() % 4);
      }
      if (rng() % 2) s += " -> out" + std::to_string(rng() % 10) + ".npy";
      return s;
    }
    case 7: {
      Word w;
      for (auto& b : w) b = static_cast<uint8_t>(rng());
      if (find_instruction(w[0])) w[0] = 0x97;
      return ".word 0x" + word_to_hex(w);
    }
    default: {
      const Word w = random_word(rng, rng() % 2);
      return wrap_statement(*disassemble(w), 30 + rng() % 100);
    }
  }
}

TEST(AsmRoundTrip, RandomPrograms) {
  std::mt19937 rng(4242);
  for (int i = 0; i < 600; ++i) {
    SCOPED_TRACE(i);
    std::string text;
    if (rng() % 2) text += fmt::format(".nc v{}\n", 2 + rng() % 4);
    const unsigned n = static_cast<unsigned>(rng() % 12);
    for (unsigned k = 0; k < n; ++k) {
      text += random_statement(rng);
      if (rng() % 4 == 0) text += "   # a comment; with ; and # inside";
      text += rng() % 5 == 0 ? "\n\n" : "\n";
    }
    AsmError e;
    auto p1 = parse_program(text, "r.gpsimd", &e);
    ASSERT_TRUE(p1) << e.to_string() << "\n" << text;
    const std::string t1 = print_program(*p1);
    auto p2 = parse_program(t1, "canonical", &e);
    ASSERT_TRUE(p2) << e.to_string() << "\n" << t1;
    EXPECT_TRUE(same_program(*p1, *p2)) << text << "\n----\n" << t1;
    EXPECT_EQ(print_program(*p2), t1);
    // asm -> dis -> asm, word by word.
    for (const Word& w : p1->words) {
      auto t = disassemble(w);
      const std::string line = t ? *t : ".word 0x" + word_to_hex(w);
      auto back = assemble(line, "line", &e);
      ASSERT_TRUE(back) << e.to_string();
      EXPECT_EQ(back->front(), w);
    }
  }
}

}  // namespace
}  // namespace gpsimd
