// TensorScalarCacheCumulative (SPEC §4.24): its expected table row, its valid word, the
// independent reference of its effect and its random generators, registered for the generic
// drivers (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "instructions/tensor_scalar.h"

namespace gpsimd::expected_rows {

// SPEC §1, §4.15 and §4.24: S3D3_TS, the bytes of the TensorScalar family.
inline ExpectedInstr tensor_scalar_cache_cumulative_row() {
  return {"TensorScalarCacheCumulative",
          0xe6,
          "S3D3_TS",
          Engine::DVE,
          {G::V2, G::V3, G::V4, G::V5},
          s3d3_ts_fields()};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_tensor_scalar_cache_cumulative(): 2 channels from partition 3. src: FP16, TENSOR3D
// steps {1, 4, 8} counts {4, 2, 1} (8 elements) at SBUF offset 0x100; dst: FP32, steps
// {1, 2, 8} counts {2, 4, 1} (8 elements) at offset 0x400. op0 MULT imm0 2.0 (instruction
// immediate), op1 ADD, accumulator_cmd ZERO_ACCUMULATE, imm1 and imm1_src 0: dst = the
// running sum of 2x from +0.0.
namespace tsc_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kPartition = 3;
inline constexpr uint32_t kSrcAddr = sbuf_addr(kPartition, 0x100),
                          kDstAddr = sbuf_addr(kPartition, 0x400);
inline constexpr float kImm0 = 2.0f;
}  // namespace tsc_word

inline Word valid_tensor_scalar_cache_cumulative() {
  using namespace tsc_word;
  return build(Opcode::TensorScalarCacheCumulative,
               {{"accumulator_cmd", uint64_t{3}},
                {"src_mem_pattern", tensor(kSrcAddr, {1, 4, 8}, {4, 2, 1})},
                {"in_dtype", uint64_t{static_cast<uint8_t>(Dtype::FP16)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(Dtype::FP32)}},
                {"num_active_channels", uint64_t{kChannels}},
                {"op0", uint64_t{static_cast<uint8_t>(AluOp::MULT)}},
                {"op1", uint64_t{static_cast<uint8_t>(AluOp::ADD)}},
                {"imm0", uint64_t{f32_bits(kImm0)}},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 2, 8}, {2, 4, 1})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.24. Offsets as §4.15: 12 accumulator_cmd, 16 src, 32 in_dtype, 33 out_dtype,
// 34 channels, 35 imm0_src, 36 op0, 37 op1, 39 imm1_src, 40 imm0, 44 imm1, 48 dst. The
// engine is not an input (SPEC §3.9): PSUM is always allowed.
inline std::optional<FaultKind> tensor_scalar_cache_cumulative(const Machine& m, const Word& w,
                                                               Effects& fx) {
  const uint8_t cmd = w[12], din = w[32], dout = w[33], op0 = w[36], op1 = w[37];
  if (dout == dt::INT32 || dout == dt::UINT32) return FaultKind::UnsupportedOp;
  const unsigned n = w[34];
  const unsigned isz = size_of(din), osz = size_of(dout);
  const Tensor st = get_tensor(w, 16, 3), dtn = get_tensor(w, 48, 3);
  const auto src = resolve(m, st, isz, true, false, n);
  const auto dst = resolve(m, dtn, osz, true, true, n);
  const auto s0 = resolve_imm(m, w[35], get(w, 40, 4), 4, true, n);
  const auto s1 = resolve_imm(m, w[39], get(w, 44, 4), 4, true, n);
  if (!src || !dst || !s0 || !s1) return FaultKind::BadAddress;
  if ((st.register_mode() || dtn.register_mode()) && st.count() != dtn.count())
    return FaultKind::ShapeMismatch;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto soffs = walk(st, src->offset, isz), doffs = walk(dtn, dst->offset, osz);
  for (unsigned c = 0; c < n; ++c) {
    const unsigned acc = src->partition + c;
    // The seed: ACCUMULATE the accumulator, LOAD_ACCUMULATE imm1, ZERO_ACCUMULATE the
    // identity of op1.
    uint32_t reg = cmd == 2               ? m.accumulators[acc]
                   : cmd == 4             ? s1->at(m, c)
                   : op1 == ts::aop::MULT ? 0x3F800000u
                   : op1 == ts::aop::MAX  ? 0xFF800000u
                   : op1 == ts::aop::MIN  ? 0x7F800000u
                                          : 0u;
    const uint32_t a = s0->at(m, c);
    std::vector<uint32_t> y(soffs.size());
    for (std::size_t j = 0; j < soffs.size(); ++j) {
      const uint32_t x = to_fp32(din, load(m, src->space, src->partition + c, soffs[j], isz));
      const uint32_t t = op0 == ts::aop::BYPASS ? x : ts::fp32(op0, x, a);
      reg = ts::fp32(op1, t, reg);
      y[j] = reg;
    }
    for (std::size_t j = 0; j < doffs.size(); ++j)
      fx.stores.push_back({dst->space, dst->partition + c, doffs[j], osz, from_fp32(dout, y[j])});
    fx.accumulators.emplace_back(acc, reg);
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_tensor_scalar_cache_cumulative(Builder& b) {
  using namespace rm::dt;
  Rng& r = b.rng();
  const Generation g = b.generation();
  rm::ts::TensorScalarWord x;
  x.opcode = 0xe6;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.in =
      r.pick<uint8_t>({FP8_E3, FP8_E4, FP8_E5, FP16, BF16, FP32, FP32, INT8, INT16, UINT8, UINT16});
  x.out = r.chance(3)    ? r.pick<uint8_t>({INT32, UINT32})  // unsupported-op
          : r.chance(40) ? FP32
                         : r.pick<uint8_t>({INT8, UINT8, INT16, UINT16, BF16, FP16, FP32, FP32R,
                                            FP8_E3, FP8_E4, FP8_E5});
  const unsigned isz = rm::size_of(x.in), osz = rm::size_of(x.out);
  const unsigned ngeneral = g >= Generation::V4 ? 21 : 17;
  x.op0 = r.chance(10) ? 0 : kGeneralArith[r.uin(0, ngeneral - 1)];
  x.op1 = r.pick<uint8_t>({rm::ts::aop::ADD, rm::ts::aop::SUBTRACT, rm::ts::aop::MULT,
                           rm::ts::aop::MAX, rm::ts::aop::MIN});
  x.accumulator_cmd = r.pick<uint8_t>({2, 3, 4});
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  const Space ss = b.space(30);
  const Space ds = b.space(osz == 4 ? 30 : 0);
  const auto [sl, dl] =
      b.place_pair(n, {.t = x.src, .space = ss, .elem = isz, .dims = 3, .count = count},
                   {.t = x.dst, .space = ds, .elem = osz, .dims = 3, .count = count});
  auto scalar = [&](unsigned) { return ts_scalar(r); };
  std::tie(x.imm0_src, x.imm0) = b.immediate(4, sl.partition, n, true, scalar(0), scalar);
  if (x.accumulator_cmd == 4)
    std::tie(x.imm1_src, x.imm1) = b.immediate(4, sl.partition, n, true, scalar(0), scalar);
  // The accumulators the word reads (ACCUMULATE) or overwrites: special values too.
  for (unsigned c = 0; c < n && sl.partition + c < 128; ++c)
    b.set_acc(sl.partition + c,
              r.chance(30) ? r.pick<uint32_t>({0xFF800000u, 0x7FC00000u, 0x80000000u, 0x7F800000u})
                           : ts_scalar(r));
  // The old destination first, then the source (it wins where they overlap).
  b.fill(x.dst, dl, n, osz, [&] { return random_value(r, x.out); });
  b.fill(x.src, sl, n, isz, [&] { return random_value(r, x.in); });
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

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.24: op0 a general arithmetic op (V3), op1 a running operator, reverse NONE, every
// valid command, imm0 of every kind and imm1 only under LOAD_ACCUMULATE.
inline Word valid_tensor_scalar_cache_cumulative(Gen& g) {
  static constexpr uint8_t kIn[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0xa, 0xd, 0xe, 0xf};
  static constexpr uint8_t kOut[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8,
                                     0x9, 0xa, 0xb, 0xd, 0xe, 0xf};
  static constexpr uint8_t kArith[] = {0x00, 0x04, 0x05, 0x06, 0x08, 0x09, 0x0d, 0x0e, 0x0f,
                                       0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19};
  static constexpr uint8_t kRunning[] = {0x04, 0x05, 0x06, 0x08, 0x09};
  static constexpr uint8_t kCmd[] = {2, 3, 4};
  Word w{};
  w[0] = 0xe6;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t in = g.pick(kIn), out = g.pick(kOut);
  const unsigned isz = *dtype_size(in), osz = *dtype_size(out);
  const auto num = g.nums(3);
  store_tensor(w, 16, g.tensor(3, num, n, isz, g.below(2)));
  const std::array<uint16_t, kMaxDims> dnum{num[1], num[0], num[2], 1};
  store_tensor(w, 48, g.tensor(3, dnum, n, osz, osz == 4 && g.below(2)));
  w[12] = g.pick(kCmd);
  w[32] = in;
  w[33] = out;
  w[34] = static_cast<uint8_t>(n);
  w[36] = g.pick(kArith);
  w[37] = g.pick(kRunning);
  g.immediate(w, 35, 40, 4, n, true);
  if (w[12] == 4) g.immediate(w, 39, 44, 4, n, true);
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {
namespace {

// The fast loop wants dense walks: about half the words have them; FP32 data most often.
Word tensor_scalar_cache_cumulative_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0xe6;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype ins[] = {Dtype::FP32, Dtype::FP32, Dtype::BF16,
                       Dtype::FP16, Dtype::INT8, Dtype::UINT16};
  const Dtype outs[] = {Dtype::FP32, Dtype::FP32,   Dtype::FP32R,
                        Dtype::BF16, Dtype::FP8_E4, Dtype::INT16};
  const Dtype in = large ? Dtype::FP32 : rng.pick(ins);
  const Dtype out = large ? Dtype::FP32 : rng.pick(outs);
  const unsigned isz = *dtype_size(in), osz = *dtype_size(out);
  const uint8_t op1s[] = {0x04, 0x05, 0x06, 0x08, 0x09};
  const uint8_t op1 = rng.pick(op1s);
  const uint8_t op0 = rng.chance(0.5) ? rng.pick(op1s) : pick_op(rng, [](uint8_t o) {
    return alu::is_general_arith_op(o) && !alu::is_unmodelled(o);
  });
  const uint8_t cmds[] = {2, 3, 4};
  const uint8_t cmd = rng.pick(cmds);
  const Window ws = alu_window(rng, large, true);
  const Window wd = alu_window(rng, large, osz == 4);
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.6) ? p : rng.below(kPartitions - n + 1);
  const uint64_t t = random_count(rng, large ? 8000 : 900);
  const double dense = rng.chance(0.6) ? 1.0 : 0.3;
  const TensorDesc src = dense_or_random(rng, t, isz, ws, p, dense);
  const TensorDesc dst = dense_or_random(rng, src.count(), osz, wd, pd, dense);
  alu_fill(rng, m, wd, pd, n, out);
  alu_fill(rng, m, ws, p, n, in);
  const std::vector<uint32_t> edges = edge_values(Dtype::FP32);
  auto scalar = [&] {
    return rng.chance(0.5) ? rng.pick_from(edges)
                           : std::bit_cast<uint32_t>(static_cast<float>(rng.below(9)) - 4.0f);
  };
  for (unsigned c = 0; c < kPartitions; ++c) m.a.accumulators[c] = m.b.accumulators[c] = scalar();
  w[12] = cmd;
  w[32] = static_cast<uint8_t>(in);
  w[33] = static_cast<uint8_t>(out);
  w[34] = static_cast<uint8_t>(n);
  w[36] = op0;
  w[37] = op1;
  store_u32(w, 40, scalar());
  if (cmd == 4) store_u32(w, 44, scalar());
  store_tensor(w, 16, src);
  store_tensor(w, 48, dst);
  return w;
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "TensorScalarCacheCumulative",
    .opcode = Opcode::TensorScalarCacheCumulative,
    .opcode_clause = "has_tensor_cache_cumulative_opcode",
    .expected_row = expected_rows::tensor_scalar_cache_cumulative_row,
    .valid_word = test_words::valid_tensor_scalar_cache_cumulative,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::tensor_scalar_cache_cumulative(m, w, fx);
        },
    .generate = random_words::gen_tensor_scalar_cache_cumulative,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_tensor_scalar_cache_cumulative,
    .kernel_words = {{kernels_equiv::tensor_scalar_cache_cumulative_word, 0xe6, 400, 4,
                      kernels_equiv::alu_machines}},
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd {
namespace {

constexpr auto TSC = Opcode::TensorScalarCacheCumulative;

// ---- clause cases (SPEC §4.24, §6): each mutation of the valid word fails one clause alone ----

std::vector<ClauseCase> clause_cases() {
  std::vector<ClauseCase> c;
  // tensor_scalar_cache_reduce_valid_ops: op0 is_general_arith_op, op1 a running operator.
  c.push_back({"tsc_op0_divide", TSC, [](Word& w) { set(w, "op0", code(AluOp::DIVIDE)); },
               "tensor_scalar_cache_reduce_valid_ops", "op0", "DIVIDE"});
  c.push_back({"tsc_op0_rsqrt", TSC, [](Word& w) { set(w, "op0", code(AluOp::RSQRT)); },
               "tensor_scalar_cache_reduce_valid_ops", "op0", "RSQRT"});
  c.push_back({"tsc_op0_shift", TSC,
               [](Word& w) { set(w, "op0", code(AluOp::LOGICAL_SHIFT_LEFT)); },
               "tensor_scalar_cache_reduce_valid_ops", "op0", "0x10"});
  c.push_back({"tsc_op1_bypass", TSC, [](Word& w) { set(w, "op1", 0); },
               "tensor_scalar_cache_reduce_valid_ops", "op1", "BYPASS", "ADD, SUBTRACT, MULT"});
  c.push_back({"tsc_op1_is_eq", TSC, [](Word& w) { set(w, "op1", code(AluOp::IS_EQ)); },
               "tensor_scalar_cache_reduce_valid_ops", "op1", "IS_EQ"});
  c.push_back({"tsc_op1_absolute_diff", TSC,
               [](Word& w) { set(w, "op1", code(AluOp::ABSOLUTE_DIFF)); },
               "tensor_scalar_cache_reduce_valid_ops", "op1", "0x17"});
  c.push_back({"tsc_op1_abs_max_v4",
               TSC,
               [](Word& w) { set(w, "op1", 0x20); },
               "tensor_scalar_cache_reduce_valid_ops",
               "op1",
               "0x20",
               "",
               1,
               {G::V4, G::V5}});
  // is_valid_aluop: not an enumerator; the class clause is then not evaluated.
  c.push_back({"tsc_op0_gap_0x1e", TSC, [](Word& w) { set(w, "op0", 0x1e); }, "is_valid_aluop",
               "op0", "0x1e"});
  c.push_back({"tsc_op1_square_before_v4",
               TSC,
               [](Word& w) { set(w, "op1", 0x23); },
               "is_valid_aluop",
               "op1",
               "0x23",
               "",
               1,
               {G::V2, G::V3}});
  // tensor_scalar_cache_reduce_valid_types: no 32-bit integer input.
  c.push_back({"tsc_in_int32", TSC, [](Word& w) { set(w, "in_dtype", code(Dtype::INT32)); },
               "tensor_scalar_cache_reduce_valid_types", "in_dtype", "0x8"});
  c.push_back({"tsc_in_uint32", TSC, [](Word& w) { set(w, "in_dtype", code(Dtype::UINT32)); },
               "tensor_scalar_cache_reduce_valid_types", "in_dtype", "0x9"});
  // is_valid_dtype: the output, FP32R allowed there only.
  c.push_back({"tsc_out_invalid", TSC, [](Word& w) { set(w, "out_dtype", 0); }, "is_valid_dtype",
               "out_dtype", "0x0"});
  c.push_back({"tsc_out_uint64", TSC, [](Word& w) { set(w, "out_dtype", 0x1); }, "is_valid_dtype",
               "out_dtype", "0x1"});
  // tensor_scalar_cache_reduce_immediates_check.
  c.push_back({"tsc_imm0_src_3", TSC, [](Word& w) { set(w, "imm0_src", 3); },
               "tensor_scalar_cache_reduce_immediates_check", "imm0", ""});
  c.push_back({"tsc_imm0_pointer_misaligned", TSC,
               [](Word& w) {
                 set(w, "imm0_src", 1);
                 set(w, "imm0", sbuf_addr(3, 0x602));
               },
               "tensor_scalar_cache_reduce_immediates_check", "imm0", ""});
  c.push_back({"tsc_imm0_regptr_64", TSC,
               [](Word& w) {
                 set(w, "imm0_src", 2);
                 set(w, "imm0", 64);
               },
               "tensor_scalar_cache_reduce_immediates_check", "imm0", ""});
  c.push_back({"tsc_imm1_value_without_load", TSC, [](Word& w) { set(w, "imm1", 0x3f800000); },
               "tensor_scalar_cache_reduce_immediates_check", "imm1", "0x3f800000",
               "LOAD_ACCUMULATE"});
  c.push_back({"tsc_imm1_src_without_load", TSC,
               [](Word& w) {
                 set(w, "accumulator_cmd", 2);
                 set(w, "imm1_src", 1);
               },
               "tensor_scalar_cache_reduce_immediates_check", "imm1_src", "0x01",
               "LOAD_ACCUMULATE"});
  c.push_back({"tsc_imm1_src_3_load", TSC,
               [](Word& w) {
                 set(w, "accumulator_cmd", 4);
                 set(w, "imm1_src", 3);
               },
               "tensor_scalar_cache_reduce_immediates_check", "imm1", ""});
  c.push_back({"tsc_imm1_pointer_partitions_load", TSC,
               [](Word& w) {
                 set(w, "accumulator_cmd", 4);
                 set(w, "imm1_src", 1);
                 set(w, "imm1", sbuf_addr(127, 0x600));
               },
               "tensor_scalar_cache_reduce_immediates_check", "imm1", ""});
  // tensor_scalar_tensor_chk.
  c.push_back({"tsc_counts", TSC, [](Word& w) { set_num(w, "dst_mem_pattern", 1, 5); },
               "tensor_scalar_tensor_chk", "dst_mem_pattern", "10 elements"});
  // tensor_scalar_cache_reduce_reverse_chk: NONE only.
  c.push_back({"tsc_reverse_first", TSC, [](Word& w) { set(w, "reverse_operands", 1); },
               "tensor_scalar_cache_reduce_reverse_chk", "reverse_operands", "0x01", "NONE"});
  c.push_back({"tsc_reverse_4", TSC, [](Word& w) { set(w, "reverse_operands", 4); },
               "tensor_scalar_cache_reduce_reverse_chk", "reverse_operands", "0x04"});
  // s3d3_ts_reserved_zero.
  c.push_back(
      {"tsc_reserved", TSC, [](Word& w) { w[14] = 1; }, "s3d3_ts_reserved_zero", "reserved0", ""});
  // has_valid_tensor_scalar_cache_reduce_accum_cmd: ACCUMULATE, ZERO_ACCUMULATE, LOAD_ACCUMULATE.
  for (unsigned cmd : {0u, 1u, 5u, 255u})
    c.push_back({"tsc_accum_cmd_" + std::to_string(cmd), TSC,
                 [cmd](Word& w) { set(w, "accumulator_cmd", cmd); },
                 "has_valid_tensor_scalar_cache_reduce_accum_cmd", "accumulator_cmd", hex8_of(cmd),
                 "ZERO_ACCUMULATE"});
  // has_valid_active_channel_range, check_m3d_active_channels, mem3d_valid.
  c.push_back({"tsc_channels_0", TSC, [](Word& w) { set(w, "num_active_channels", 0); },
               "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
  c.push_back({"tsc_dst_start_127", TSC,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x400)); },
               "check_m3d_active_channels", "dst_mem_pattern", ""});
  c.push_back({"tsc_psum_narrow_write", TSC,
               [](Word& w) {
                 set(w, "out_dtype", code(Dtype::BF16));
                 set_addr(w, "dst_mem_pattern", psum_addr(3, 0x400));
               },
               "mem3d_valid", "dst_mem_pattern", ""});
  return c;
}
GPSIMD_CLAUSE_CASES(TensorScalarCacheCumulative, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4.24's examples) ----

constexpr uint8_t kAccumulate = 2, kZeroAccumulate = 3, kLoadAccumulate = 4;

// n FP32 elements, one channel, dense: src at SBUF partition p offset 0x100, dst at 0x400.
rm::ts::TensorScalarWord tsc_word(uint8_t op0, uint32_t imm0, uint8_t op1, uint8_t cmd, unsigned n,
                                  unsigned p = 0) {
  rm::ts::TensorScalarWord x;
  x.opcode = 0xe6;
  x.accumulator_cmd = cmd;
  x.op0 = op0;
  x.imm0 = imm0;
  x.op1 = op1;
  const int s = static_cast<int>(n);
  x.src = tensor3(rm::sbuf_addr(p, 0x100), 1, n, s, 1, s, 1);
  x.dst = tensor3(rm::sbuf_addr(p, 0x400), 1, n, s, 1, s, 1);
  return x;
}

V ones(unsigned n) {
  return V(n, f32(1.0f));
}
V fp32s(std::initializer_list<float> v) {
  V out;
  for (float f : v) out.push_back(f32(f));
  return out;
}
// The FP32 values from, from + step, ... (n of them).
V ramp(float from, float step, unsigned n) {
  V out;
  for (unsigned k = 0; k < n; ++k) out.push_back(f32(from + step * static_cast<float>(k)));
  return out;
}

// Runs x over `src` in partition 0 and returns the destination.
V run_on(Machine& m, const rm::ts::TensorScalarWord& x, const V& src) {
  poke(m, SBUF, 0, 0x100, 4, src);
  expect_ok(m, x.encode());
  return peek(m, SBUF, 0, 0x400, 4, static_cast<unsigned>(src.size()));
}

// NKI's tests on tiles of ones: ADD is np.add.accumulate, MULT stays one; the accumulator
// holds the last column.
TEST(TensorScalarCacheCumulative, NkiOnesAddAndMult) {
  Machine& m = fresh(Generation::V3);
  EXPECT_EQ(run_on(m, tsc_word(aop::ADD, 0, aop::ADD, kZeroAccumulate, 64), ones(64)),
            ramp(1.0f, 1.0f, 64));
  EXPECT_EQ(m.accumulators[0], f32(64.0f));
  EXPECT_EQ(run_on(m, tsc_word(aop::ADD, 0, aop::MULT, kZeroAccumulate, 64), ones(64)), ones(64));
  EXPECT_EQ(m.accumulators[0], f32(1.0f));
}

// imm0 a (P, 1) tile of ones through a pointer: x + 1 = 2 each step, under ADD, MULT, MAX.
TEST(TensorScalarCacheCumulative, NkiPointerScalar) {
  struct Case {
    uint8_t op1;
    V want;
  };
  V powers;
  for (int k = 1; k <= 8; ++k) powers.push_back(f32(std::ldexp(1.0f, k)));
  const Case cases[] = {
      {aop::ADD, ramp(2.0f, 2.0f, 8)}, {aop::MULT, powers}, {aop::MAX, V(8, f32(2.0f))}};
  for (const Case& c : cases) {
    Machine& m = fresh(Generation::V4);
    poke(m, SBUF, 0, 0x80, 4, {f32(1.0f)});
    rm::ts::TensorScalarWord x =
        tsc_word(aop::ADD, rm::sbuf_addr(0, 0x80), c.op1, kZeroAccumulate, 8);
    x.imm0_src = 1;
    EXPECT_EQ(run_on(m, x, ones(8)), c.want) << int{c.op1};
    EXPECT_EQ(m.accumulators[0], c.want.back());
  }
}

// load_reduce: the seed is imm1 (a pointer to ones: 3, 5, ...; zeros under MULT and MIN
// stay zero; an instruction immediate 2.0: 3 ... ).
TEST(TensorScalarCacheCumulative, NkiLoadReduce) {
  {
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 0, 0x80, 4, {f32(1.0f), f32(0.0f)});
    rm::ts::TensorScalarWord x =
        tsc_word(aop::ADD, rm::sbuf_addr(0, 0x80), aop::ADD, kLoadAccumulate, 8);
    x.imm0_src = 1;
    x.imm1_src = 1;
    x.imm1 = rm::sbuf_addr(0, 0x80);
    EXPECT_EQ(run_on(m, x, ones(8)), ramp(3.0f, 2.0f, 8));
    EXPECT_EQ(m.accumulators[0], f32(17.0f));
    for (uint8_t op1 : {aop::MULT, aop::MIN}) {
      x.op1 = op1;
      x.imm1 = rm::sbuf_addr(0, 0x84);  // zeros
      EXPECT_EQ(run_on(m, x, ones(8)), V(8, 0u)) << int{op1};
      EXPECT_EQ(m.accumulators[0], 0u);
    }
  }
  {  // tensor_scan: imm1 2.0, x + 0.0 accumulated: 3 ... 66 over 64 ones.
    Machine& m = fresh(Generation::V3);
    rm::ts::TensorScalarWord x = tsc_word(aop::ADD, 0, aop::ADD, kLoadAccumulate, 64);
    x.imm1 = f32(2.0f);
    EXPECT_EQ(run_on(m, x, ones(64)), ramp(3.0f, 1.0f, 64));
    EXPECT_EQ(m.accumulators[0], f32(66.0f));
  }
}

// The chained tests: reset_reduce then reduce continues from the accumulator (65 ... 128);
// load_reduce (1.0) then reduce: 66 ... 129.
TEST(TensorScalarCacheCumulative, NkiChainedWordsShareTheAccumulator) {
  Machine& m = fresh(Generation::V3);
  run_on(m, tsc_word(aop::ADD, 0, aop::ADD, kZeroAccumulate, 64), ones(64));
  EXPECT_EQ(run_on(m, tsc_word(aop::ADD, 0, aop::ADD, kAccumulate, 64), ones(64)),
            ramp(65.0f, 1.0f, 64));
  rm::ts::TensorScalarWord load = tsc_word(aop::ADD, 0, aop::ADD, kLoadAccumulate, 64);
  load.imm1 = f32(1.0f);
  run_on(m, load, ones(64));
  EXPECT_EQ(run_on(m, tsc_word(aop::ADD, 0, aop::ADD, kAccumulate, 64), ones(64)),
            ramp(66.0f, 1.0f, 64));
  EXPECT_EQ(m.accumulators[0], f32(129.0f));
}

// reg = op1(t, reg): SUBTRACT alternates 1, 0, 1, 0 (AWS's order, not acc - t).
TEST(TensorScalarCacheCumulative, SubtractTakesTheElementOnTheLeft) {
  Machine& m = fresh(Generation::V3);
  EXPECT_EQ(run_on(m, tsc_word(aop::ADD, 0, aop::SUBTRACT, kZeroAccumulate, 4), ones(4)),
            fp32s({1.0f, 0.0f, 1.0f, 0.0f}));
  EXPECT_EQ(m.accumulators[0], 0u);
}

// The carried value stays FP32: BF16 output of 256, 1, 1, 1, 1 under ADD writes 256, 256,
// 258, 260, 260 while the accumulator holds FP32 260.
TEST(TensorScalarCacheCumulative, CarryIsFp32NotTheRoundedOutput) {
  Machine& m = fresh(Generation::V3);
  rm::ts::TensorScalarWord x = tsc_word(aop::ADD, 0, aop::ADD, kZeroAccumulate, 5);
  x.out = rm::dt::BF16;
  x.dst = tensor3(rm::sbuf_addr(0, 0x400), 1, 5, 5, 1, 5, 1);
  poke(m, SBUF, 0, 0x100, 4, fp32s({256.0f, 1.0f, 1.0f, 1.0f, 1.0f}));
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x400, 2, 5), (V{0x4380, 0x4380, 0x4381, 0x4382, 0x4382}));
  EXPECT_EQ(m.accumulators[0], f32(260.0f));
}

// A fresh accumulator is -inf: a sum from it stays -inf; under MAX a NaN never sticks.
TEST(TensorScalarCacheCumulative, FreshAccumulatorAndNaNs) {
  Machine& m = fresh(Generation::V3);
  EXPECT_EQ(run_on(m, tsc_word(aop::ADD, 0, aop::ADD, kAccumulate, 3), ones(3)), V(3, kNegInf));
  Machine& m2 = fresh(Generation::V3);
  EXPECT_EQ(run_on(m2, tsc_word(aop::BYPASS, 0, aop::MAX, kAccumulate, 3),
                   {0x7FC00000u, f32(-5.0f), 0x7FC00001u}),
            (V{kNegInf, f32(-5.0f), f32(-5.0f)}));
  // ADD: a NaN stays, as 0x7FC00000.
  EXPECT_EQ(run_on(m2, tsc_word(aop::BYPASS, 0, aop::ADD, kZeroAccumulate, 3),
                   {f32(1.0f), 0x7F800001u, f32(2.0f)}),
            (V{f32(1.0f), 0x7FC00000u, 0x7FC00000u}));
}

// RangeSelect (ZERO_ACCUMULATE, max 7.0 over [1, 7, 3]) then 0xe6 ACCUMULATE ADD over the
// same [1, 7, 3]: 8, 15, 18, and the accumulator holds 18.0.
TEST(TensorScalarCacheCumulative, ContinuesFromRangeSelectsAccumulator) {
  Machine& m = fresh(Generation::V3);
  const rm::RangeSelectWord rs = rs_word(rm::dt::FP32, rm::dt::FP32, 3, 0.0f, aop::IS_GE, 0.0f,
                                         aop::IS_LT, 100.0f, kZeroAccumulate);
  poke(m, SBUF, 0, 0x100, 4, fp32s({1.0f, 7.0f, 3.0f}));
  expect_ok(m, rs.encode());
  ASSERT_EQ(m.accumulators[0], f32(7.0f));
  EXPECT_EQ(
      run_on(m, tsc_word(aop::BYPASS, 0, aop::ADD, kAccumulate, 3), fp32s({1.0f, 7.0f, 3.0f})),
      fp32s({8.0f, 15.0f, 18.0f}));
  EXPECT_EQ(m.accumulators[0], f32(18.0f));
}

// Channel c uses the accumulator of the source's partition + c, not the destination's.
TEST(TensorScalarCacheCumulative, AccumulatorOfTheSourcePartition) {
  Machine& m = fresh(Generation::V3);
  rm::ts::TensorScalarWord x = tsc_word(aop::ADD, 0, aop::ADD, kZeroAccumulate, 2, 20);
  x.channels = 2;
  x.dst.addr = rm::sbuf_addr(60, 0x400);
  for (unsigned c = 0; c < 2; ++c)
    poke(m, SBUF, 20 + c, 0x100, 4, fp32s({1.0f + static_cast<float>(c), 2.0f}));
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 60, 0x400, 4, 2), fp32s({1.0f, 3.0f}));
  EXPECT_EQ(peek(m, SBUF, 61, 0x400, 4, 2), fp32s({2.0f, 4.0f}));
  EXPECT_EQ(m.accumulators[20], f32(3.0f));
  EXPECT_EQ(m.accumulators[21], f32(4.0f));
  EXPECT_EQ(m.accumulators[60], kNegInf);
}

// An INT32 or UINT32 output validates and faults unsupported-op; faulting words change no
// memory and no accumulator, ZERO_ACCUMULATE included.
TEST(TensorScalarCacheCumulative, FaultsChangeNothing) {
  for (uint8_t out : {rm::dt::INT32, rm::dt::UINT32}) {
    Machine& m = busy_machine();
    rm::ts::TensorScalarWord x = tsc_word(aop::ADD, 0, aop::ADD, kZeroAccumulate, 4);
    x.out = out;
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::UnsupportedOp);
  }
  {
    Machine& m = busy_machine();
    rm::ts::TensorScalarWord x = tsc_word(aop::ADD, 0, aop::ADD, kZeroAccumulate, 4);
    x.imm0_src = 2;
    x.imm0 = 7;
    m.registers[7] = rm::sbuf_addr(0, 0x102);  // misaligned
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress);
  }
  {
    Machine& m = busy_machine();
    rm::ts::TensorScalarWord x = tsc_word(aop::ADD, 0, aop::ADD, kZeroAccumulate, 4);
    m.registers[7] = rm::sbuf_addr(0, 0x100);
    x.src.addr = rm::reg_addr(7);
    x.src.num[0] = 3;
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::ShapeMismatch);
  }
  {
    Machine& m = busy_machine();
    rm::ts::TensorScalarWord x = tsc_word(aop::ADD, 0, aop::ADD, kZeroAccumulate, 4);
    x.ev = rm::Events{2, 9, 0, 0, 4};  // semaphore 9 == 4 never holds (it is 3)
    x.out = rm::dt::INT32;             // the wait is checked first
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  }
}

}  // namespace
#endif
