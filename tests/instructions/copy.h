// Copy and Cast (SPEC §4.16, §4.17, S4D4_TR): what the tests of Copy and Cast
// (tests/instructions/) share: the valid words' layout, the independent reference and the
// random generators of the family.
#pragma once

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace gpsimd::test_words {

// valid_copy() / valid_cast(): 3 channels from partition 2 (engine: the default, POOL).
// src: TENSOR4D steps {1, 4, 8, 8} counts {4, 2, 1, 1} (8 dense elements) at SBUF
// partition 2 offset 0x100; dst: steps {1, 2, 8, 8} counts {2, 4, 1, 1} (8 dense
// elements, another shape of the same count) at offset 0x400. Copy: FP32 in and out;
// Cast: FP32 in, BF16 out. op BYPASS, op_dim UNUSED, mask_enable and negated 0.
namespace s4d4_tr_word {
inline constexpr unsigned kChannels = 3;
inline constexpr unsigned kN = 8;
inline constexpr unsigned kPartition = 2;
inline constexpr Dtype kIn = Dtype::FP32, kCopyOut = Dtype::FP32, kCastOut = Dtype::BF16;
inline constexpr uint32_t kSrcAddr = sbuf_addr(kPartition, 0x100),
                          kDstAddr = sbuf_addr(kPartition, 0x400);
}  // namespace s4d4_tr_word

inline Word valid_s4d4_tr(Opcode op, Dtype out) {
  using namespace s4d4_tr_word;
  return build(op, {{"src_mem_pattern", tensor(kSrcAddr, {1, 4, 8, 8}, {4, 2, 1, 1})},
                    {"in_dtype", uint64_t{static_cast<uint8_t>(kIn)}},
                    {"out_dtype", uint64_t{static_cast<uint8_t>(out)}},
                    {"num_active_channels", uint64_t{kChannels}},
                    {"dst_mem_pattern", tensor(kDstAddr, {1, 2, 8, 8}, {2, 4, 1, 1})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.16 (Copy) and §4.17 (Cast), from the SPEC tables: 12 src (TENSOR4D), 32
// in_dtype, 33 out_dtype, 34 num_active_channels, 44 dst (TENSOR4D). The engine is an
// input (§3.9): POOL (the default) may not touch PSUM; ACT on V2 takes every element
// through FP32; otherwise equal dtypes keep the bits and other pairs go through FP32.
inline std::optional<FaultKind> copy_cast(const Machine& m, const Word& w, gpsimd::Engine engine,
                                          Effects& fx) {
  const unsigned n = w[34];
  const uint8_t in = w[32], out = w[33];
  const Tensor st = get_tensor(w, 12, 4), dtn = get_tensor(w, 44, 4);
  const unsigned isz = size_of(in), osz = size_of(out);
  const bool psum = engine != gpsimd::Engine::POOL;
  const auto src = resolve(m, st, isz, psum, false, n);
  if (!src) return FaultKind::BadAddress;
  const auto dst = resolve(m, dtn, osz, psum, true, n);
  if (!dst) return FaultKind::BadAddress;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const bool through = engine == gpsimd::Engine::ACT && m.generation() == Generation::V2;
  const auto soffs = walk(st, src->offset, isz), doffs = walk(dtn, dst->offset, osz);
  for (unsigned c = 0; c < n; ++c) {
    std::vector<uint32_t> y(soffs.size());  // every source element before any write
    for (std::size_t j = 0; j < soffs.size(); ++j) {
      const uint32_t x = load(m, src->space, src->partition + c, soffs[j], isz);
      y[j] = in == out && !through ? x : from_fp32(out, to_fp32(in, x));
    }
    for (std::size_t j = 0; j < doffs.size(); ++j)
      fx.stores.push_back({dst->space, dst->partition + c, doffs[j], osz, y[j]});
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

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

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.16, §4.17: S4D4_TR, equal counts in two shapes; Copy keeps the dtype, Cast
// takes any pair (FP32R as output only); op_dim UNUSED or X. The default engine, POOL:
// SBUF only.
inline Word valid_copy_cast(Gen& g, uint8_t opcode) {
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

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {

const Dtype kCopyData[] = {Dtype::INT8, Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16,
                           Dtype::BF16, Dtype::FP16,   Dtype::INT32,  Dtype::UINT32,
                           Dtype::FP32, Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};

// A Copy (0x46) or Cast (0x47) word of dtypes in -> out on any engine (PSUM when it is
// not POOL), 4-D walks of every shape random_walk makes; `large`: 128 channels of
// thousands of elements, dense or with a transposed inner pair.
inline Word copy_cast_word_of(Rng& rng, Machines& m, bool large, uint8_t opcode, Dtype din,
                              Dtype dout) {
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  const Engine engines[] = {Engine::POOL, Engine::DVE, Engine::ACT};
  m.engine = rng.chance(0.2) ? std::nullopt : std::optional<Engine>(rng.pick(engines));
  const unsigned n = large ? 128 : random_channels(rng);
  Window win;
  win.bytes = large ? 40960 : 4096;
  const unsigned isz = *dtype_size(din), osz = *dtype_size(dout);
  if (!large && m.engine && *m.engine != Engine::POOL && osz == 4 && rng.chance(0.3))
    win.space = Space::PSUM;
  const unsigned p = rng.below(kPartitions - n + 1);
  TensorDesc src = random_walk(rng, 4, 0, large ? 9000 : 900, isz, win, p);
  force_source(rng, src, isz, win, p);
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  TensorDesc dst = random_walk(rng, 4, src.count(), 0, osz, win, pd);
  if (large) {
    // rows x cols, read row by row (dense) or column by column (the transposed pair).
    const uint16_t cols = static_cast<uint16_t>(64 + rng.below(64)), rows = 70;
    const bool transposed = rng.chance(0.5);
    src = TensorDesc{};
    src.dims = 4;
    src.num = {transposed ? rows : cols, transposed ? cols : rows, 1, 1};
    src.step = {transposed ? static_cast<int16_t>(cols) : int16_t{1},
                transposed ? int16_t{1} : static_cast<int16_t>(cols), 0, 0};
    place(rng, src, isz, win, p);
    dst = TensorDesc{};
    dst.dims = 4;
    dst.num = {static_cast<uint16_t>(rows * cols), 1, 1, 1};
    dst.step = {1, 0, 0, 0};
    place(rng, dst, osz, win, pd);
  }
  fill2(rng, m, win, p, pd, n, din);
  store_tensor(w, 12, src);
  w[32] = static_cast<uint8_t>(din);
  w[33] = static_cast<uint8_t>(dout);
  w[34] = static_cast<uint8_t>(n);
  w[37] = rng.chance(0.2) ? 2 : 0;
  store_tensor(w, 44, dst);
  return w;
}

inline Word copy_word(Rng& rng, Machines& m, bool large) {
  const Dtype dt = rng.pick(kCopyData);
  return copy_cast_word_of(rng, m, large, 0x46, dt, dt);
}

inline Word cast_word(Rng& rng, Machines& m, bool large) {
  const Dtype in = rng.pick(kCopyData);
  Dtype out = rng.chance(0.3) ? in : rng.pick(kCopyData);
  if (rng.chance(0.05)) out = Dtype::FP32R;
  return copy_cast_word_of(rng, m, large, 0x47, in, out);
}

}  // namespace gpsimd::kernels_equiv

#ifdef GPSIMD_INSTRUCTION_TESTS
#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd::validate_cases {

// ---- the family's clause cases (each instruction's file instantiates its share) ----

inline std::vector<ClauseCase> copy_cast_clause_cases() {
  std::vector<ClauseCase> c;
  // ---- Copy and Cast (SPEC §4.16, §4.17): 3 channels from partition 2, counts 8/8 ----
  for (Opcode op : {CP, CA}) {
    const std::string p = op == CP ? "cp_" : "ca_";
    for (unsigned b = 39; b <= 43; ++b)
      c.push_back({p + "reserved1_byte" + std::to_string(b), op, [b](Word& w) { w[b] = 2; },
                   "s4d4_tr_reserved_zero", "reserved1", "0x02", "zero"});
    for (uint64_t v : {1u, 0xffu})
      c.push_back({p + "mask_enable_" + std::to_string(v), op,
                   [v](Word& w) { set(w, "mask_enable", v); }, "mask_enable_zero", "mask_enable",
                   hex8_of(static_cast<unsigned>(v)), "must be 0"});
    for (uint64_t v : {1u, 0x80u})
      c.push_back({p + "negated_" + std::to_string(v), op, [v](Word& w) { set(w, "negated", v); },
                   "has_zero_negated_field", "negated", hex8_of(static_cast<unsigned>(v)),
                   "must be 0"});
    for (uint64_t v : {0x1u, 0x3u, 0x4u, 0xffu})
      c.push_back({p + "op_dim_" + std::to_string(v), op, [v](Word& w) { set(w, "op_dim", v); },
                   "is_zero_subdim", "op_dim", hex8_of(static_cast<unsigned>(v)),
                   "UNUSED (0x0) or X (0x2)"});
    // An enumerator other than BYPASS fails s4d4_tr_op_bypass alone.
    for (AluOp a : {AluOp::MAX, AluOp::ADD, AluOp::IS_EQ})
      c.push_back({p + "op_" + name_of(a), op, [a](Word& w) { set(w, "op", code(a)); },
                   "s4d4_tr_op_bypass", "op", hex8_of(static_cast<unsigned>(code(a))), "BYPASS"});
    c.push_back({p + "op_0xc4", op, [](Word& w) { set(w, "op", 0xc4); }, "s4d4_tr_op_bypass", "op",
                 "0xc4", "BYPASS"});
    c.push_back({p + "op_0x20_v4",
                 op,
                 [](Word& w) { set(w, "op", 0x20); },
                 "s4d4_tr_op_bypass",
                 "op",
                 "0x20",
                 "BYPASS",
                 1,
                 {G::V4, G::V5}});
    c.push_back({p + "op_0x24_v5",
                 op,
                 [](Word& w) { set(w, "op", 0x24); },
                 "s4d4_tr_op_bypass",
                 "op",
                 "0x24",
                 "BYPASS",
                 1,
                 {G::V5}});
    c.push_back({p + "channels_0", op, [](Word& w) { set(w, "num_active_channels", 0); },
                 "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
    c.push_back({p + "src_start_partition", op,
                 [](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(126, 0x100)); },
                 "start_addr_active_channels", "src_mem_pattern", "126"});
    c.push_back({p + "dst_start_partition", op,
                 [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x400)); },
                 "start_addr_active_channels", "dst_mem_pattern", "127"});
    c.push_back({p + "src_misaligned", op,
                 [](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(2, 0x102)); },
                 "tensor4d_valid", "src_mem_pattern", "0x00080102", "aligned"});
    // The default engine, POOL, may not touch PSUM.
    c.push_back({p + "src_psum_default_engine", op,
                 [](Word& w) { set_addr(w, "src_mem_pattern", psum_addr(2, 0)); }, "tensor4d_valid",
                 "src_mem_pattern", hex32(psum_addr(2, 0)), "SBUF"});
    c.push_back({p + "dst_psum_pool",
                 op,
                 [](Word& w) { set_addr(w, "dst_mem_pattern", psum_addr(2, 0)); },
                 "tensor4d_valid",
                 "dst_mem_pattern",
                 hex32(psum_addr(2, 0)),
                 "SBUF",
                 1,
                 {},
                 false,
                 Engine::POOL});
    c.push_back({p + "count_dst", op, [](Word& w) { set_num(w, "dst_mem_pattern", 2, 2); },
                 "s4d4_tr_same_src_dst_count", "dst_mem_pattern", "count(dst) = 16, count(src) = 8",
                 "count(dst) must equal count(src)"});
    c.push_back({p + "count_src", op, [](Word& w) { set_num(w, "src_mem_pattern", 0, 3); },
                 "s4d4_tr_same_src_dst_count", "dst_mem_pattern",
                 "count(dst) = 8, count(src) = 6"});
    // Static for register-mode operands too: the counts are in the word (no escape).
    c.push_back({p + "count_register_mode", op,
                 [](Word& w) {
                   set_addr(w, "src_mem_pattern", reg_addr(3));
                   set_addr(w, "dst_mem_pattern", reg_addr(4));
                   set_num(w, "dst_mem_pattern", 3, 5);
                 },
                 "s4d4_tr_same_src_dst_count", "dst_mem_pattern",
                 "count(dst) = 40, count(src) = 8"});
    // Exact 64-bit counts: (2^16 - 1)^4 on one side.
    c.push_back({p + "count_huge", op,
                 [](Word& w) {
                   set_tensor(
                       w, "dst_mem_pattern",
                       tensor(sbuf_addr(2, 0x400), {0, 0, 0, 0}, {65535, 65535, 65535, 65535}));
                 },
                 "s4d4_tr_same_src_dst_count", "dst_mem_pattern",
                 "count(dst) = 18445618199572250625, count(src) = 8"});
  }
  // Copy's dtypes: each must be a data dtype and out must equal in.
  c.push_back({"cp_out_fp32r", CP, [](Word& w) { set(w, "out_dtype", code(Dtype::FP32R)); },
               "s4d4_tr_same_src_dst_type", "out_dtype", "FP32R", "in_dtype"});
  c.push_back({"cp_out_int32", CP, [](Word& w) { set(w, "out_dtype", code(Dtype::INT32)); },
               "s4d4_tr_same_src_dst_type", "out_dtype", "INT32", "in_dtype"});
  c.push_back({"cp_in_uint32", CP, [](Word& w) { set(w, "in_dtype", code(Dtype::UINT32)); },
               "s4d4_tr_same_src_dst_type", "out_dtype", "FP32", "in_dtype"});
  for (uint64_t d : {code(Dtype::INT64), code(Dtype::UINT64), uint64_t{0x0}, uint64_t{0x10},
                     uint64_t{0x11}, uint64_t{0x19}, uint64_t{0x20}, uint64_t{0xff}})
    c.push_back({"cp_both_dtypes_" + hex8_of(static_cast<unsigned>(d)), CP,
                 [d](Word& w) {
                   set(w, "in_dtype", d);
                   set(w, "out_dtype", d);
                 },
                 "is_valid_dtype", "_dtype", hex8_of(static_cast<unsigned>(d)).substr(0, 2), "",
                 2});
  c.push_back({"cp_both_fp32r", CP,
               [](Word& w) {
                 set(w, "in_dtype", code(Dtype::FP32R));
                 set(w, "out_dtype", code(Dtype::FP32R));
               },
               "is_valid_dtype", "in_dtype", "FP32R", "FP32R"});
  // Cast's dtypes: in without FP32R, out with; every other code fails.
  for (uint64_t d : {code(Dtype::FP32R), code(Dtype::INT64), code(Dtype::UINT64), uint64_t{0x0},
                     uint64_t{0x10}, uint64_t{0x11}, uint64_t{0x1f}, uint64_t{0x40}})
    c.push_back({"ca_in_" + hex8_of(static_cast<unsigned>(d)), CA,
                 [d](Word& w) { set(w, "in_dtype", d); }, "is_valid_dtype", "in_dtype", "0x",
                 "must not be"});
  for (uint64_t d : {code(Dtype::INT64), code(Dtype::UINT64), uint64_t{0x0}, uint64_t{0x10},
                     uint64_t{0x11}, uint64_t{0x19}, uint64_t{0x20}, uint64_t{0xff}})
    c.push_back({"ca_out_" + hex8_of(static_cast<unsigned>(d)), CA,
                 [d](Word& w) { set(w, "out_dtype", d); }, "is_valid_dtype", "out_dtype", "0x",
                 "must not be"});
  c.push_back({"ca_dst_misaligned_bf16", CA,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(2, 0x401)); },
               "tensor4d_valid", "dst_mem_pattern", "0x00080401", "aligned"});
  // A PSUM write needs a 4-byte dtype, on every engine that may touch PSUM.
  for (Engine e : {Engine::DVE, Engine::ACT})
    c.push_back({std::string("ca_dst_psum_bf16_") + std::string(engine_id(e)),
                 CA,
                 [](Word& w) { set_addr(w, "dst_mem_pattern", psum_addr(2, 0)); },
                 "tensor4d_valid",
                 "dst_mem_pattern",
                 hex32(psum_addr(2, 0)),
                 "4-byte",
                 1,
                 {},
                 false,
                 e});
  return c;
}

}  // namespace gpsimd::validate_cases

// ---- what the family's hand-checked effects share ----

namespace {

// ---- Copy and Cast (SPEC §4.16, §4.17, §5.1) ----------------------------------------------

using gpsimd::Engine;

using rm::tensor4;

// One channel from SBUF partition 3: src `n` dense elements at 0x100, dst `n` dense at
// 0x800 (engine input: `e`).
inline rm::CopyCastWord cc_word(uint8_t opcode, uint8_t in, uint8_t out, unsigned n) {
  rm::CopyCastWord x;
  x.opcode = opcode;
  x.in = in;
  x.out = out;
  x.src = tensor4(rm::sbuf_addr(3, 0x100), 1, n, 0, 1, 0, 1, 0, 1);
  x.dst = tensor4(rm::sbuf_addr(3, 0x800), 1, n, 0, 1, 0, 1, 0, 1);
  return x;
}

inline ExecOptions on(Engine e) {
  ExecOptions o;
  o.engine = e;
  return o;
}

// Runs one conversion `in` -> `out` of `src` elements on a fresh machine of `g` and
// engine `e`, and returns the destination elements.
inline V cast_once(uint8_t opcode, uint8_t in, uint8_t out, const V& src, std::optional<Engine> e,
                   Generation g = Generation::V3) {
  Machine& m = fresh(g);
  const auto n = static_cast<unsigned>(src.size());
  poke(m, SBUF, 3, 0x100, rm::size_of(in), src);
  ExecOptions o;
  o.engine = e;
  const ExecResult r = run(m, cc_word(opcode, in, out, n).encode(), o);
  EXPECT_TRUE(r.ok()) << r.message();
  return peek(m, SBUF, 3, 0x800, rm::size_of(out), n);
}

}  // namespace
#endif
