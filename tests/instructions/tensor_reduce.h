// TensorReduceArith and TensorReduceBitvec (SPEC §4.19, S4D4_TR): what the tests of the two
// opcodes (tests/instructions/) share: the valid words' layout, the independent reference,
// the random generators and the family's clause cases.
#pragma once

#include "instructions/registry.h"
#include "instructions/tensor_tensor.h"
#include "kernels_equiv.h"

namespace gpsimd::test_words {

// valid_tensor_reduce_arith(): 3 channels from partition 2, FP32 in, BF16 out, ADD over XY
// (op_dim 0x3). src: TENSOR4D steps {1, 4, 8, 24} counts {4, 2, 3, 1} (24 dense elements,
// groups of G = 8, K = 3 of them) at SBUF partition 2 offset 0x100; dst: steps {1, 1, 1, 1}
// counts {3, 1, 1, 1} at offset 0x400. negated 0.
// valid_tensor_reduce_bitvec(): 2 channels from partition 1, UINT16 in and out,
// BITWISE_OR over X (0x2). src: steps {1, 4, 12, 12} counts {4, 3, 1, 1} (12 elements,
// G = 4, K = 3) at SBUF partition 1 offset 0x100; dst: steps {2, 1, 1, 1} counts {1, 3, 1, 1}
// at offset 0x400.
namespace tensor_reduce_word {
inline constexpr unsigned kArithChannels = 3, kArithPartition = 2;
inline constexpr unsigned kBitvecChannels = 2, kBitvecPartition = 1;
inline constexpr uint32_t kArithSrc = sbuf_addr(kArithPartition, 0x100),
                          kArithDst = sbuf_addr(kArithPartition, 0x400),
                          kBitvecSrc = sbuf_addr(kBitvecPartition, 0x100),
                          kBitvecDst = sbuf_addr(kBitvecPartition, 0x400);
}  // namespace tensor_reduce_word

inline Word valid_tensor_reduce_arith() {
  using namespace tensor_reduce_word;
  return build(Opcode::TensorReduceArith,
               {{"src_mem_pattern", tensor(kArithSrc, {1, 4, 8, 24}, {4, 2, 3, 1})},
                {"in_dtype", uint64_t{static_cast<uint8_t>(Dtype::FP32)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(Dtype::BF16)}},
                {"num_active_channels", uint64_t{kArithChannels}},
                {"op", uint64_t{static_cast<uint8_t>(AluOp::ADD)}},
                {"op_dim", uint64_t{0x3}},
                {"dst_mem_pattern", tensor(kArithDst, {1, 1, 1, 1}, {3, 1, 1, 1})}});
}

inline Word valid_tensor_reduce_bitvec() {
  using namespace tensor_reduce_word;
  return build(Opcode::TensorReduceBitvec,
               {{"src_mem_pattern", tensor(kBitvecSrc, {1, 4, 12, 12}, {4, 3, 1, 1})},
                {"in_dtype", uint64_t{static_cast<uint8_t>(Dtype::UINT16)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(Dtype::UINT16)}},
                {"num_active_channels", uint64_t{kBitvecChannels}},
                {"op", uint64_t{static_cast<uint8_t>(AluOp::BITWISE_OR)}},
                {"op_dim", uint64_t{0x2}},
                {"dst_mem_pattern", tensor(kBitvecDst, {2, 1, 1, 1}, {1, 3, 1, 1})}});
}

}  // namespace gpsimd::test_words

namespace refmodel {

inline constexpr uint8_t kTensorReduceArith = 0x42, kTensorReduceBitvec = 0x52;

// TensorReduceArith (0x42) or TensorReduceBitvec (0x52): Copy's S4D4_TR layout.
struct TensorReduceWord {
  uint8_t opcode = kTensorReduceArith;
  Events ev;
  Tensor src{.dims = 4}, dst{.dims = 4};
  uint8_t in = dt::FP32, out = dt::FP32, channels = 1;
  uint8_t negated = 0, op = op::ADD, op_dim = 0x2;
  gpsimd::Word encode() const {
    gpsimd::Word w;
    put_header(w, opcode);
    put_events(w, ev);
    put_tensor(w, 12, src);
    w[32] = in;
    w[33] = out;
    w[34] = channels;
    w[35] = negated;
    w[36] = op;
    w[37] = op_dim;
    put_tensor(w, 44, dst);
    return w;
  }
};

namespace tr {

// SPEC §4.19: the ops a valid word runs with on DVE (NKI's reductions).
inline bool runs(uint8_t opcode, uint8_t o) {
  if (opcode == kTensorReduceBitvec)
    return tt::one_of(o, {op::BITWISE_AND, op::BITWISE_OR, op::BITWISE_XOR});
  return tt::one_of(o, {op::ADD, op::SUBTRACT, op::MULT, op::MAX, op::MIN, op::LOGICAL_AND,
                        op::LOGICAL_OR, op::LOGICAL_XOR});
}

// One group of 0x42: init(op, v[0]) (a logical op's truth value; otherwise the element, a
// NaN as the default NaN), then acc = op(acc, v[i]) left to right, then the MULT by -1.0
// of negated, then the conversion to out.
inline uint32_t fold_arith(uint8_t o, uint8_t in, uint8_t out, bool negated,
                           const std::vector<uint32_t>& v, std::size_t first, std::size_t g) {
  const uint32_t x0 = to_fp32(in, v[first]);
  uint32_t acc;
  if (tt::one_of(o, {op::LOGICAL_AND, op::LOGICAL_OR, op::LOGICAL_XOR}))
    acc = tt::truth(!(as_float(x0) == 0.0f));
  else
    acc = is_nan_fp32(x0) ? tt::kDefaultNaN : x0;
  for (std::size_t i = 1; i < g; ++i) acc = tt::fp32(o, acc, to_fp32(in, v[first + i]));
  if (negated) acc = tt::fp32(op::MULT, acc, 0xBF800000u);
  return from_fp32(out, acc);
}

// One group of 0x52: the raw patterns folded left to right.
inline uint32_t fold_bits(uint8_t o, unsigned width, const std::vector<uint32_t>& v,
                          std::size_t first, std::size_t g) {
  uint32_t acc = v[first];
  for (std::size_t i = 1; i < g; ++i) acc = tt::bits(o, acc, v[first + i], width);
  return acc;
}

}  // namespace tr

namespace internal {

// SPEC §4.19 from its tables: 12 src (TENSOR4D), 32 in_dtype, 33 out_dtype, 34 channels,
// 35 negated, 36 op, 37 op_dim, 44 dst (TENSOR4D). The engine is an input (DVE by
// default); a valid word on POOL, or with an op NKI does not reduce with, faults
// unsupported-op before anything is resolved.
inline std::optional<FaultKind> tensor_reduce(const Machine& m, const gpsimd::Word& w, Effects& fx,
                                              std::optional<gpsimd::Engine> e) {
  const gpsimd::Engine engine = e.value_or(gpsimd::Engine::DVE);
  const uint8_t opcode = w[0], in = w[32], out = w[33], o = w[36];
  if (engine != gpsimd::Engine::DVE || !tr::runs(opcode, o)) return FaultKind::UnsupportedOp;
  const unsigned n = w[34];
  const Tensor st = get_tensor(w, 12, 4), dtn = get_tensor(w, 44, 4);
  const unsigned isz = size_of(in), osz = size_of(out);
  const auto src = resolve(m, st, isz, true, false, n);
  if (!src) return FaultKind::BadAddress;
  const auto dst = resolve(m, dtn, osz, true, true, n);
  if (!dst) return FaultKind::BadAddress;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const unsigned k = w[37] - 1u;  // X 0x2 reduces 1 dim ... XYZW 0x5 reduces 4
  std::size_t g = 1;
  for (unsigned d = 0; d < k; ++d) g *= st.num[d];
  const auto soffs = walk(st, src->offset, isz), doffs = walk(dtn, dst->offset, osz);
  for (unsigned c = 0; c < n; ++c) {
    std::vector<uint32_t> v(soffs.size());  // every source element before any write
    for (std::size_t j = 0; j < soffs.size(); ++j)
      v[j] = load(m, src->space, src->partition + c, soffs[j], isz);
    for (std::size_t q = 0; q < doffs.size(); ++q) {
      const uint32_t r = opcode == kTensorReduceBitvec
                             ? tr::fold_bits(o, 8 * isz, v, q * g, g)
                             : tr::fold_arith(o, in, out, w[35] != 0, v, q * g, g);
      fx.stores.push_back({dst->space, dst->partition + c, doffs[q], osz, r});
    }
  }
  return std::nullopt;
}

}  // namespace internal
}  // namespace refmodel

namespace gpsimd::random_words {

// TensorReduce: mostly NKI's reductions on DVE (some other valid ops, and POOL's integer
// band, fault unsupported-op), every op_dim, 4-D source walks whose inner dims make the
// groups, a destination of K elements in any shape; PSUM off POOL.
inline Word gen_tensor_reduce(Builder& b, uint8_t opcode) {
  static constexpr uint8_t kData[] = {
      rm::dt::INT8, rm::dt::UINT8, rm::dt::INT16, rm::dt::UINT16, rm::dt::INT32,  rm::dt::UINT32,
      rm::dt::BF16, rm::dt::FP16,  rm::dt::FP32,  rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5};
  static constexpr uint8_t kInts[] = {rm::dt::INT8,   rm::dt::UINT8, rm::dt::INT16,
                                      rm::dt::UINT16, rm::dt::INT32, rm::dt::UINT32};
  static constexpr uint8_t kArithOps[] = {
      rm::op::ADD, rm::op::SUBTRACT,    rm::op::MULT,       rm::op::MAX,
      rm::op::MIN, rm::op::LOGICAL_AND, rm::op::LOGICAL_OR, rm::op::LOGICAL_XOR};
  static constexpr uint8_t kBitvecOps[] = {rm::op::BITWISE_AND, rm::op::BITWISE_OR,
                                           rm::op::BITWISE_XOR};
  Rng& r = b.rng();
  const bool bitvec = opcode == rm::kTensorReduceBitvec;
  rm::TensorReduceWord x;
  x.opcode = opcode;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  b.engine = r.pick<std::optional<gpsimd::Engine>>({std::nullopt, gpsimd::Engine::DVE});
  if (bitvec) {
    x.in = x.out = kInts[r.uin(0, 5)];
    x.op = r.chance(10) ? rm::op::BITWISE_NOT : kBitvecOps[r.uin(0, 2)];
  } else {
    x.in = kData[r.uin(0, 11)];
    x.out = r.chance(10) ? rm::dt::FP32R : kData[r.uin(0, 11)];
    x.op = r.chance(8) ? r.pick<uint8_t>({rm::op::BYPASS, rm::op::IS_GT, rm::op::ABSOLUTE_DIFF})
                       : kArithOps[r.uin(0, 7)];
    if (r.chance(5)) {  // the POOL arm: an integer-band op on a 32-bit integer
      b.engine = gpsimd::Engine::POOL;
      x.in = r.chance(50) ? rm::dt::INT32 : rm::dt::UINT32;
      x.op = r.pick<uint8_t>({rm::op::ADD_INT, rm::op::MULT_INT, rm::op::SUBTRACT_INT});
    }
  }
  x.negated = static_cast<uint8_t>(r.uin(0, 1));
  x.op_dim = static_cast<uint8_t>(r.uin(2, 5));
  const unsigned k = x.op_dim - 1u;
  const unsigned isz = rm::size_of(x.in), osz = rm::size_of(x.out);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 16384 / n));
  const std::array<unsigned, 4> nums = b.factor(count, 4);
  uint64_t groups = 1;
  for (unsigned d = k; d < 4; ++d) groups *= nums[d];
  x.channels = static_cast<uint8_t>(n);
  const bool psum = b.engine != gpsimd::Engine::POOL;
  const Space ss = psum ? b.space(30) : Space::SBUF;
  const Space ds = psum ? b.space(osz == 4 ? 30 : 0) : Space::SBUF;
  const auto [sl, dl] =
      b.place_pair(n,
                   {.t = x.src,
                    .space = ss,
                    .elem = isz,
                    .make = [&] { return b.shape_nums(4, nums, isz, ss); }},
                   {.t = x.dst, .space = ds, .elem = osz, .dims = r.uin(1, 4), .count = groups});
  x.src.dims = x.dst.dims = 4;
  b.fill(x.dst, dl, n, osz, [&] { return random_value(r, x.out); });
  const bool small = r.chance(30);  // small integers: sums and products stay exact
  b.fill(x.src, sl, n, isz, [&] {
    if (small && !bitvec) {
      const uint32_t v = r.uin(0, 6);
      return rm::is_int(x.in) ? v : rm::narrow(x.in, rm::as_bits(static_cast<float>(v) - 3.0f));
    }
    return random_value(r, x.in);
  });
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.19 on the default engine, DVE: an op tensor_reduce_valid_alu_op takes outside the
// integer band, every op_dim, a destination of K elements.
inline Word valid_tensor_reduce(Gen& g, uint8_t opcode) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  static constexpr uint8_t kInts[] = {0x2, 0x3, 0x4, 0x5, 0x8, 0x9};
  static constexpr uint8_t kArithOps[] = {0x00, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0d,
                                          0x0e, 0x0f, 0x12, 0x13, 0x17, 0x18, 0x19};
  static constexpr uint8_t kBitvecOps[] = {0x00, 0x01, 0x02, 0x03, 0x0a, 0x0b, 0x0c, 0x10, 0x11};
  const bool bitvec = opcode == 0x52;
  Word w{};
  w[0] = opcode;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t in = bitvec ? g.pick(kInts) : g.pick(kData);
  const uint8_t out = bitvec ? in : (g.below(10) == 0 ? uint8_t{0xb} : g.pick(kData));
  const uint8_t op_dim = static_cast<uint8_t>(2 + g.below(4));
  const auto num = g.nums(4);
  uint16_t groups = 1;
  for (unsigned d = op_dim - 1u; d < 4; ++d) groups = static_cast<uint16_t>(groups * num[d]);
  store_tensor(w, 12, g.tensor(4, num, n, *dtype_size(in), false));
  w[32] = in;
  w[33] = out;
  w[34] = static_cast<uint8_t>(n);
  w[35] = static_cast<uint8_t>(g.below(2));
  w[36] = bitvec ? g.pick(kBitvecOps) : g.pick(kArithOps);
  w[37] = op_dim;
  store_tensor(w, 44, g.tensor(4, {1, groups, 1, 1}, n, *dtype_size(out), false));
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {

// A TensorReduce word of NKI's ops on DVE, random 4-D source walks, every op_dim;
// `large`: 128 channels of thousands of elements.
inline Word tensor_reduce_word(Rng& rng, Machines& m, bool large, bool bitvec) {
  const Dtype data[] = {Dtype::INT8, Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16,
                        Dtype::BF16, Dtype::FP16,   Dtype::INT32,  Dtype::UINT32,
                        Dtype::FP32, Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};
  const Dtype ints[] = {Dtype::INT8,   Dtype::UINT8, Dtype::INT16,
                        Dtype::UINT16, Dtype::INT32, Dtype::UINT32};
  const uint8_t arith_ops[] = {0x04, 0x05, 0x06, 0x08, 0x09, 0x0d, 0x0e, 0x0f};
  const uint8_t bitvec_ops[] = {0x0a, 0x0b, 0x0c};
  Word w{};
  w[0] = bitvec ? 0x52 : 0x42;
  w[1] = 0x10;
  m.engine = rng.chance(0.5) ? std::nullopt : std::optional<Engine>(Engine::DVE);
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype din = bitvec ? rng.pick(ints) : rng.pick(data);
  const Dtype dout = bitvec ? din : rng.pick(data);
  const unsigned isz = *dtype_size(din), osz = *dtype_size(dout);
  Window win;
  win.bytes = large ? 40960 : 4096;
  const unsigned p = rng.below(kPartitions - n + 1);
  TensorDesc src = random_walk(rng, 4, 0, large ? 9000 : 900, isz, win, p);
  if (large || rng.chance(0.5)) {  // dense: the kernel's case
    int64_t inner = 1;
    for (unsigned d = 0; d < 4; ++d) {
      src.step[d] = static_cast<int16_t>(inner);
      inner *= src.num[d];
    }
    place(rng, src, isz, win, p);
  }
  const uint8_t op_dim = static_cast<uint8_t>(2 + rng.below(4));
  uint64_t groups = 1;
  for (unsigned d = op_dim - 1u; d < 4; ++d) groups *= src.num[d];
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  const TensorDesc dst = random_walk(rng, 4, groups, 0, osz, win, pd);
  fill2(rng, m, win, p, pd, n, din);
  store_tensor(w, 12, src);
  w[32] = static_cast<uint8_t>(din);
  w[33] = static_cast<uint8_t>(dout);
  w[34] = static_cast<uint8_t>(n);
  w[35] = static_cast<uint8_t>(rng.below(2));
  w[36] = bitvec ? rng.pick(bitvec_ops) : rng.pick(arith_ops);
  w[37] = op_dim;
  store_tensor(w, 44, dst);
  return w;
}

inline Word tensor_reduce_arith_word(Rng& rng, Machines& m, bool large) {
  return tensor_reduce_word(rng, m, large, false);
}
inline Word tensor_reduce_bitvec_word(Rng& rng, Machines& m, bool large) {
  return tensor_reduce_word(rng, m, large, true);
}

}  // namespace gpsimd::kernels_equiv

#ifdef GPSIMD_INSTRUCTION_TESTS
#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd::validate_cases {

inline constexpr auto TRA = Opcode::TensorReduceArith;
inline constexpr auto TRB = Opcode::TensorReduceBitvec;

// ---- the family's clause cases (each opcode's file instantiates its share) ----
// valid_word(TRA): 3 channels from partition 2, FP32 -> BF16 ADD over XY, 24 elements in
// groups of 8 (K = 3); valid_word(TRB): 2 channels from partition 1, UINT16 BITWISE_OR
// over X, 12 elements in groups of 4 (K = 3). The default engine, DVE.
inline std::vector<ClauseCase> tensor_reduce_clause_cases() {
  std::vector<ClauseCase> c;
  for (Opcode o : {TRA, TRB}) {
    const bool bitvec = o == TRB;
    const std::string p = bitvec ? "trb_" : "tra_";
    const unsigned part = bitvec ? 1 : 2;
    for (unsigned b = 39; b <= 43; ++b)
      c.push_back({p + "reserved1_byte" + std::to_string(b), o, [b](Word& w) { w[b] = 4; },
                   "s4d4_tr_reserved_zero", "reserved1", "0x04", "zero"});
    c.push_back({p + "mask_enable", o, [](Word& w) { set(w, "mask_enable", 1); },
                 "mask_enable_zero", "mask_enable", "0x01", "must be 0"});
    for (uint64_t v : {2u, 0xffu})
      c.push_back({p + "negated_" + std::to_string(v), o, [v](Word& w) { set(w, "negated", v); },
                   "has_valid_reduce_negated", "negated", hex8_of(static_cast<unsigned>(v)),
                   "0 or 1"});
    // UNUSED is not a reduction; neither is anything past XYZW. The count clause is not
    // evaluated then.
    for (uint64_t v : {0x0u, 0x1u, 0x6u, 0xffu})
      c.push_back({p + "op_dim_" + std::to_string(v), o, [v](Word& w) { set(w, "op_dim", v); },
                   "is_valid_subdim", "op_dim", hex8_of(static_cast<unsigned>(v)), "XYZW"});
    // A byte that is no ALU_OP of the generation: is_valid_enum alone (the op-class clauses
    // are not evaluated), on ACT too.
    c.push_back(
        {p + "op_not_enum", o, [](Word& w) { set(w, "op", 0x30); }, "is_valid_enum", "op", "0x30"});
    c.push_back({p + "op_not_enum_act",
                 o,
                 [](Word& w) { set(w, "op", 0xe2); },
                 "is_valid_enum",
                 "op",
                 "0xe2",
                 "",
                 1,
                 {},
                 false,
                 Engine::ACT});
    c.push_back({p + "channels_0", o, [](Word& w) { set(w, "num_active_channels", 0); },
                 "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
    c.push_back({p + "src_start_partition", o,
                 [](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(127, 0x100)); },
                 "start_addr_active_channels", "src_mem_pattern", "127"});
    c.push_back({p + "dst_start_partition", o,
                 [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x400)); },
                 "start_addr_active_channels", "dst_mem_pattern", "127"});
    c.push_back({p + "src_misaligned", o,
                 [part](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(part, 0x101)); },
                 "tensor4d_valid", "src_mem_pattern", hex32(sbuf_addr(part, 0x101)), "aligned"});
    // A PSUM write needs a 4-byte out_dtype (BF16 and UINT16 are not).
    c.push_back({p + "dst_psum_narrow", o,
                 [part](Word& w) { set_addr(w, "dst_mem_pattern", psum_addr(part, 0x40)); },
                 "tensor4d_valid", "dst_mem_pattern", hex32(psum_addr(part, 0x40))});
    // tensor_reduce_dst_element_count: count(dst) == K, static for register mode too.
    c.push_back({p + "count_dst", o, [](Word& w) { set_num(w, "dst_mem_pattern", 2, 2); },
                 "tensor_reduce_dst_element_count", "dst_mem_pattern",
                 "count(dst) = 6, groups of src = 3", "K = num_elem"});
    c.push_back({p + "count_register_mode", o,
                 [](Word& w) {
                   set_addr(w, "src_mem_pattern", reg_addr(3));
                   set_addr(w, "dst_mem_pattern", reg_addr(4));
                   set_num(w, "dst_mem_pattern", 3, 5);
                 },
                 "tensor_reduce_dst_element_count", "dst_mem_pattern",
                 "count(dst) = 15, groups of src = 3"});
    // Reducing one dimension more leaves one group.
    c.push_back({p + "count_op_dim", o, [bitvec](Word& w) { set(w, "op_dim", bitvec ? 0x3 : 0x4); },
                 "tensor_reduce_dst_element_count", "dst_mem_pattern",
                 "count(dst) = 3, groups of src = 1"});
  }
  // ---- 0x42 ----
  c.push_back({"tra_in_fp32r", TRA, [](Word& w) { set(w, "in_dtype", code(Dtype::FP32R)); },
               "is_valid_dtype", "in_dtype", "FP32R"});
  c.push_back({"tra_out_int64", TRA, [](Word& w) { set(w, "out_dtype", code(Dtype::INT64)); },
               "is_valid_dtype", "out_dtype", "INT64"});
  for (AluOp a : {AluOp::DIVIDE, AluOp::POW, AluOp::BITWISE_AND, AluOp::CRC32, AluOp::MOD})
    c.push_back({"tra_op_" + name_of(a), TRA, [a](Word& w) { set(w, "op", code(a)); },
                 "tensor_reduce_valid_alu_op", "op", name_of(a), "is_general_arith_op"});
  // The integer band passes tensor_reduce_valid_alu_op but not the DVE arm.
  for (AluOp a : {AluOp::ADD_INT, AluOp::MULT_INT, AluOp::SUBTRACT_INT})
    c.push_back({"tra_dve_" + name_of(a), TRA, [a](Word& w) { set(w, "op", code(a)); },
                 "is_valid_tensor_reduce_arith_engine", "op", name_of(a), "integer band"});
  c.push_back({"tra_dve_amax_int",
               TRA,
               [](Word& w) { set(w, "op", code(AluOp::AMAX_INT)); },
               "is_valid_tensor_reduce_arith_engine",
               "op",
               "AMAX_INT",
               "integer band",
               1,
               {G::V3, G::V4, G::V5}});
  // On POOL: an ordinary op, or the band with a narrow or float input.
  c.push_back({"tra_pool_add",
               TRA,
               [](Word&) {},
               "is_valid_tensor_reduce_arith_engine",
               "op",
               "ADD",
               "on pool",
               1,
               {},
               false,
               Engine::POOL});
  c.push_back({"tra_pool_int_op_int16",
               TRA,
               [](Word& w) {
                 set(w, "op", code(AluOp::ADD_INT));
                 set(w, "in_dtype", code(Dtype::INT16));
               },
               "is_valid_tensor_reduce_arith_engine",
               "op",
               "INT16",
               "INT32, UINT32",
               1,
               {},
               false,
               Engine::POOL});
  c.push_back({"tra_act",
               TRA,
               [](Word&) {},
               "is_valid_tensor_reduce_arith_engine",
               "op",
               "act",
               "no ACT arm",
               1,
               {},
               false,
               Engine::ACT});
  // ---- 0x52 ----
  for (AluOp a : {AluOp::ADD, AluOp::MAX, AluOp::LOGICAL_AND, AluOp::CRC32})
    c.push_back({"trb_op_" + name_of(a), TRB, [a](Word& w) { set(w, "op", code(a)); },
                 "tensor_reduce_valid_alu_op", "op", name_of(a), "is_general_bitvec_op"});
  c.push_back({"trb_pool",
               TRB,
               [](Word&) {},
               "is_valid_tensor_reduce_bitvec_engine",
               "op",
               "pool",
               "integer band",
               1,
               {},
               false,
               Engine::POOL});
  c.push_back({"trb_act",
               TRB,
               [](Word&) {},
               "is_valid_tensor_reduce_bitvec_engine",
               "op",
               "act",
               "no ACT arm",
               1,
               {},
               false,
               Engine::ACT});
  c.push_back({"trb_out_ne_in", TRB, [](Word& w) { set(w, "out_dtype", code(Dtype::INT16)); },
               "tensor_reduce_bitvec_dtype", "out_dtype", "INT16", "equal"});
  c.push_back({"trb_float", TRB,
               [](Word& w) {
                 set(w, "in_dtype", code(Dtype::FP32));
                 set(w, "out_dtype", code(Dtype::FP32));
               },
               "tensor_reduce_bitvec_dtype", "out_dtype", "FP32", "INT8"});
  c.push_back({"trb_fp32r_out", TRB, [](Word& w) { set(w, "out_dtype", code(Dtype::FP32R)); },
               "tensor_reduce_bitvec_dtype", "out_dtype", "FP32R"});
  return c;
}

}  // namespace gpsimd::validate_cases

// ---- what the family's hand-checked effects share ----

namespace {
namespace tensor_reduce {

// One channel at SBUF partition 0: the source (dense, `nums` innermost first) at 0x100,
// the destination (dense, K elements) at 0x800.
inline rm::TensorReduceWord tr_word(uint8_t opcode, uint8_t in, uint8_t out, uint8_t o,
                                    uint8_t op_dim, std::array<unsigned, 4> nums) {
  rm::TensorReduceWord x;
  x.opcode = opcode;
  x.in = in;
  x.out = out;
  x.op = o;
  x.op_dim = op_dim;
  x.src = rm::tensor4(rm::sbuf_addr(0, 0x100), 1, nums[0], static_cast<int>(nums[0]), nums[1],
                      static_cast<int>(nums[0] * nums[1]), nums[2],
                      static_cast<int>(nums[0] * nums[1] * nums[2]), nums[3]);
  unsigned groups = 1;
  for (unsigned d = op_dim - 1u; d < 4; ++d) groups *= nums[d];
  x.dst = rm::tensor4(rm::sbuf_addr(0, 0x800), 1, groups, 0, 1, 0, 1, 0, 1);
  return x;
}

// Reduces `v` (one group per `g` consecutive elements, op_dim X) on DVE and returns the
// destination elements.
inline V reduce(uint8_t opcode, uint8_t in, uint8_t out, uint8_t o, const V& v, unsigned g,
                bool negated = false) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, rm::size_of(in), v);
  const auto k = static_cast<unsigned>(v.size()) / g;
  rm::TensorReduceWord x = tr_word(opcode, in, out, o, 0x2, {g, k, 1, 1});
  x.negated = negated ? 1 : 0;
  const ExecResult r = run(m, x.encode());
  EXPECT_TRUE(r.ok()) << r.message();
  return peek(m, SBUF, 0, 0x800, rm::size_of(out), k);
}

}  // namespace tensor_reduce
}  // namespace
#endif
