// The DVE search instructions (SPEC §4.7-§4.10): what the tests of MatchValueLoad, Max8, FindIndex8
// and MatchReplace8 (tests/instructions/) share: the valid words' layout, the independent reference
// and the random generators of the family.
#pragma once

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace gpsimd::test_words {

// valid_max8() / valid_find_index8(): 2 channels from partition 5. src: FP32, TENSOR4D
// steps {1, 8, 16, 16} counts {8, 2, 1, 1} (16 dense FP32, 64 bytes) at SBUF partition 5
// offset 0x100. dst: TENSOR2D steps {1, 8} counts {8, 1} at offset 0x200, FP32 (Max8)
// or UINT32 (FindIndex8). even_count and odd_count 0.0.
namespace s4d2_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kN = 16;
inline constexpr unsigned kPartition = 5;
inline constexpr Dtype kIn = Dtype::FP32, kMax8Out = Dtype::FP32, kIndexOut = Dtype::UINT32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(kPartition, 0x100),
                          kDstAddr = sbuf_addr(kPartition, 0x200);
}  // namespace s4d2_word

inline Word valid_s4d2_bn(Opcode op, Dtype out) {
  using namespace s4d2_word;
  return build(op, {{"src_mem_pattern", tensor(kSrcAddr, {1, 8, 16, 16}, {8, 2, 1, 1})},
                    {"in_dtype", uint64_t{static_cast<uint8_t>(kIn)}},
                    {"out_dtype", uint64_t{static_cast<uint8_t>(out)}},
                    {"num_active_channels", uint64_t{kChannels}},
                    {"dst_mem_pattern", tensor(kDstAddr, {1, 8}, {8, 1})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.9 / §4.10: one lane's match over the source elements (FP32 bits, walk order);
// returns which ordinals were consumed.
inline std::vector<bool> match_lane(gpsimd::MatchLane& lane, const std::vector<uint32_t>& e) {
  std::vector<bool> consumed(e.size(), false);
  for (std::size_t i = 0; i < e.size(); ++i) {
    for (unsigned s = 0; s < 8; ++s) {
      if ((lane.matched >> s) & 1u) continue;
      if (as_float(e[i]) == as_float(lane.mv[s])) {  // IEEE: NaN never, -0 == +0
        lane.matched = static_cast<uint8_t>(lane.matched | (1u << s));
        lane.idx[s] = static_cast<uint32_t>(i);
        consumed[i] = true;
        break;
      }
    }
  }
  return consumed;
}

// SPEC §4.9. The layout of Max8; out_dtype UINT16 or UINT32.
// The match of FindIndex8 and MatchReplace8 on every channel: src at 12 (TENSOR4D), dst
// at `dst_at` with `dst_dims`; `store(c, lane, consumed, e, dst, doffs, out_size)` adds the
// channel's stores.
template <class Store>
inline std::optional<FaultKind> match_channels(const Machine& m, const Word& w, Effects& fx,
                                               unsigned dst_at, unsigned dst_dims, Store store) {
  const unsigned n = w[34];
  const unsigned in_size = size_of(w[32]), out_size = size_of(w[33]);
  const Tensor st = get_tensor(w, 12, 4), dtn = get_tensor(w, dst_at, dst_dims);
  const auto src = resolve(m, st, in_size, true, false, n);
  const auto dst = resolve(m, dtn, out_size, true, true, n);
  if (!src || !dst) return FaultKind::BadAddress;
  const auto soffs = walk(st, src->offset, in_size), doffs = walk(dtn, dst->offset, out_size);
  for (unsigned c = 0; c < n; ++c) {
    std::vector<uint32_t> e;
    for (int64_t off : soffs)
      e.push_back(to_fp32(w[32], load(m, src->space, src->partition + c, off, in_size)));
    gpsimd::MatchLane lane = m.match[src->partition + c];
    const std::vector<bool> consumed = match_lane(lane, e);
    store(c, lane, consumed, e, *dst, doffs, out_size);
    fx.lanes.emplace_back(src->partition + c, lane);
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

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

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.8, §4.9: S4D2_BN, at least 8 source elements, 8 destination elements.
inline Word valid_s4d2_bn(Gen& g, uint8_t opcode) {
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

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {

// Every source dtype (floats through the kernels, integers through the reference), ties
// and NaNs, walks of 8 to 16384 elements in SBUF and PSUM, lanes with match values from
// the source, NaN and -0.0 keys, and flags left set by an earlier search.

const Dtype kSearchIn[] = {Dtype::FP32,   Dtype::BF16,  Dtype::FP16,  Dtype::FP8_E3, Dtype::FP8_E4,
                           Dtype::FP8_E5, Dtype::INT32, Dtype::UINT8, Dtype::INT16,  Dtype::UINT32};

// A source of 8..max elements (4-D), filled with runs (ties) and edge values.
inline TensorDesc search_source(Rng& rng, Machines& m, const Window& win, unsigned p, unsigned n,
                                Dtype dt, uint64_t min, uint64_t max) {
  const unsigned size = *dtype_size(dt);
  fill(rng, m, win, p, n, dt, true);
  const uint64_t t = std::max<uint64_t>(min, random_count(rng, max));
  if (rng.chance(0.5) && t * size <= win.bytes) {
    TensorDesc s;
    s.dims = 4;
    s.step = {1, 0, 0, 0};
    s.num = {static_cast<uint16_t>(t), 1, 1, 1};
    place(rng, s, size, win, p);
    return s;
  }
  return random_walk(rng, 4, t, 0, size, win, p);
}

// Search lanes p..p+n-1 of both machines: match values taken from the source (so that
// they match), NaNs and -0.0 among them, and sometimes flags and indices left set.
inline void random_lanes(Rng& rng, Machines& m, const TensorDesc& src, Dtype dt, unsigned p,
                         unsigned n) {
  const unsigned size = *dtype_size(dt);
  const Location loc = check_static_addr(src.addr, Generation::V3).loc;
  const Walk walk = Walk::of(src, loc.offset, size);
  std::vector<uint32_t> offs;
  walk.for_each([&](uint64_t, uint32_t off) { offs.push_back(off); });
  for (unsigned c = 0; c < n; ++c) {
    MatchLane l;
    const uint8_t* part = m.a.partition(loc.space, p + c).data();
    for (unsigned s = 0; s < 8; ++s) {
      uint32_t bits = 0;
      std::memcpy(&bits, part + offs[rng.below(offs.size())], size);
      l.mv[s] = to_fp32(dt, bits);
      if (rng.chance(0.05)) l.mv[s] = rng.chance(0.5) ? 0x7fc00000u : 0x80000000u;
      if (rng.chance(0.1)) l.mv[s] = static_cast<uint32_t>(rng.bits());
    }
    if (rng.chance(0.3)) {
      l.matched = static_cast<uint8_t>(rng.bits());
      for (unsigned s = 0; s < 8; ++s)
        if ((l.matched >> s) & 1u) l.idx[s] = static_cast<uint32_t>(rng.below(20000));
    }
    m.a.match[p + c] = m.b.match[p + c] = l;
  }
}

inline Word s4d2_word(Rng& rng, Machines& m, bool large, uint8_t opcode) {
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype din = large ? (rng.chance(0.5) ? Dtype::FP32 : Dtype::BF16) : rng.pick(kSearchIn);
  const Dtype dout =
      opcode == 0x6e ? (rng.chance(0.5) ? Dtype::UINT16 : Dtype::UINT32) : rng.pick(kIotaOut);
  Window win;
  win.bytes = large ? 65536 : 4096;
  if (!large && rng.chance(0.15)) win.space = Space::PSUM;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned pd = rng.below(kPartitions - n + 1);
  const TensorDesc src = search_source(rng, m, win, p, n, din, 8, large ? 16384 : 900);
  const Dtype dst_dt = win.space == Space::PSUM ? Dtype::UINT32 : dout;
  Window dwin = win;
  if (win.space == Space::PSUM && *dtype_size(dout) != 4) dwin.space = Space::SBUF;
  fill(rng, m, dwin, pd, n, dst_dt);
  const TensorDesc dst = random_walk(rng, 2, 8, 0, *dtype_size(dout), dwin, pd);
  if (opcode == 0x6e) random_lanes(rng, m, src, din, p, n);
  store_tensor(w, 12, src);
  w[32] = static_cast<uint8_t>(din);
  w[33] = static_cast<uint8_t>(dout);
  w[34] = static_cast<uint8_t>(n);
  store_tensor(w, 48, dst);
  return w;
}

inline Word max8_word(Rng& rng, Machines& m, bool large) {
  return s4d2_word(rng, m, large, 0x6c);
}

inline Word find_index8_word(Rng& rng, Machines& m, bool large) {
  return s4d2_word(rng, m, large, 0x6e);
}

}  // namespace gpsimd::kernels_equiv

#ifdef GPSIMD_INSTRUCTION_TESTS
#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd::validate_cases {

// ---- the family's clause cases (each instruction's file instantiates its share) ----

inline std::vector<ClauseCase> search_clause_cases() {
  std::vector<ClauseCase> c;
  // ---- Max8 / FindIndex8 (SPEC §4.8, §4.9): 2 channels from partition 5, 16 FP32 ----
  for (Opcode op : {MAX8, FI8}) {
    const std::string pre = op == MAX8 ? "max8_" : "fi8_";
    for (unsigned b : {35u, 39u, 60u, 63u})
      c.push_back({pre + "reserved_byte" + std::to_string(b), op, [b](Word& w) { w[b] = 0x20; },
                   "s4d2_bn_reserved_zero", "reserved", "0x20", "zero"});
    c.push_back({pre + "channels_0", op, [](Word& w) { set(w, "num_active_channels", 0); },
                 "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
    c.push_back({pre + "in_dtype_fp32r", op,
                 [](Word& w) { set(w, "in_dtype", code(Dtype::FP32R)); }, "is_valid_dtype",
                 "in_dtype", "FP32R (0xb)"});
    c.push_back({pre + "in_dtype_uint64", op,
                 [](Word& w) { set(w, "in_dtype", code(Dtype::UINT64)); }, "is_valid_dtype",
                 "in_dtype", "UINT64 (0x1)"});
    c.push_back({pre + "src_start_partition", op,
                 [](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(127, 0x100)); },
                 "start_addr_active_channels", "src_mem_pattern", "127"});
    c.push_back({pre + "dst_start_partition", op,
                 [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x200)); },
                 "start_addr_active_channels", "dst_mem_pattern", "127"});
    c.push_back({pre + "src_count_7", op,
                 [](Word& w) {
                   set_num(w, "src_mem_pattern", 0, 7);
                   set_num(w, "src_mem_pattern", 1, 1);
                 },
                 "s4d2_bn_src_element_cnt", "src_mem_pattern", "count = 7",
                 "count(src) must be 8..16384"});
    // 16385 elements in a zero-step walk: one over the bound.
    c.push_back({pre + "src_count_16385", op,
                 [](Word& w) {
                   set_tensor(w, "src_mem_pattern",
                              tensor(sbuf_addr(5, 0x100), {0, 0, 0, 0}, {5, 29, 113, 1}));
                 },
                 "s4d2_bn_src_element_cnt", "src_mem_pattern", "count = 16385", "16384"});
    c.push_back({pre + "dst_count_9", op, [](Word& w) { set_num(w, "dst_mem_pattern", 0, 9); },
                 "s4d2_bn_dst_element_cnt", "dst_mem_pattern", "count = 9",
                 "count(dst) must be 8"});
    c.push_back({pre + "dst_count_16", op, [](Word& w) { set_num(w, "dst_mem_pattern", 1, 2); },
                 "s4d2_bn_dst_element_cnt", "dst_mem_pattern", "count = 16"});
    c.push_back({pre + "even_count_one", op, [](Word& w) { set_f32(w, "even_count", 1.0f); },
                 "s4d2_bn_zero_counts", "even_count", "0x3f800000", "0.0"});
    c.push_back({pre + "odd_count_nan", op, [](Word& w) { set(w, "odd_count", 0x7fc00000); },
                 "s4d2_bn_zero_counts", "odd_count", "0x7fc00000"});
    c.push_back({pre + "odd_count_denormal", op, [](Word& w) { set(w, "odd_count", 1); },
                 "s4d2_bn_zero_counts", "odd_count", "0x00000001"});
  }
  c.push_back({"max8_out_dtype_int64", MAX8,
               [](Word& w) { set(w, "out_dtype", code(Dtype::INT64)); }, "is_valid_dtype",
               "out_dtype", "INT64 (0xc)"});
  for (Dtype d : {Dtype::FP32, Dtype::INT32, Dtype::UINT8, Dtype::FP32R})
    c.push_back({"fi8_out_dtype_" + name_of(d), FI8, [d](Word& w) { set(w, "out_dtype", code(d)); },
                 "has_find_index8_dst_type", "out_dtype", name_of(d), "UINT16 or UINT32"});
  return c;
}

}  // namespace gpsimd::validate_cases

// ---- what the family's hand-checked effects share ----

namespace {

// ---- The DVE search instructions (SPEC §4.7-§4.10) --------------------------------------

namespace search {
constexpr uint32_t kFF = 0xFFFFFFFFu;
}  // namespace search

namespace search {
const uint32_t kQNaN = 0x7FC00000u;
}  // namespace search

namespace search {
inline rm::MatchValueLoadWord mvl(uint32_t addr, int step, uint8_t dtype = dt::FP32,
                                  unsigned channels = 1) {
  rm::MatchValueLoadWord x;
  x.dtype = dtype;
  x.channels = static_cast<uint8_t>(channels);
  x.src = tensor2(addr, step, 8, 0, 1);
  return x;
}
}  // namespace search

namespace search {
inline rm::S4D2BnWord fi8(uint32_t src, unsigned n, uint32_t dst, uint8_t out = dt::UINT32) {
  rm::S4D2BnWord x;
  x.opcode = rm::kFindIndex8;
  x.out = out;
  x.src = rm::tensor4(src, 1, n, 0, 1, 0, 1, 0, 1);
  x.dst = tensor2(dst, 1, 8, 0, 1);
  return x;
}
}  // namespace search

namespace search {
inline rm::MatchReplace8Word mr8(uint32_t src, unsigned n, uint32_t dst, float imm) {
  rm::MatchReplace8Word x;
  x.src = rm::tensor4(src, 1, n, 0, 1, 0, 1, 0, 1);
  x.dst = rm::tensor4(dst, 1, n, 0, 1, 0, 1, 0, 1);
  x.immediate = f32(imm);
  return x;
}
}  // namespace search

namespace search {
inline std::array<uint32_t, 8> fp32s(std::initializer_list<float> v) {
  std::array<uint32_t, 8> a{};
  std::size_t i = 0;
  for (float f : v) a[i++] = f32(f);
  return a;
}
}  // namespace search

namespace search {
inline V fp32v(std::initializer_list<float> v) {
  V out;
  for (float f : v) out.push_back(f32(f));
  return out;
}
}  // namespace search

}  // namespace
#endif
