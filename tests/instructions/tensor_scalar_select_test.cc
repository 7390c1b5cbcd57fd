// TensorScalarSelect (SPEC §4.2): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.2.
inline ExpectedInstr tensor_scalar_select_row() {
  return ExpectedInstr{"TensorScalarSelect",
                       0x98,
                       "S3D3_TS_SELECT",
                       Engine::DVE,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"reserved0", 12, 4, K::Reserved},
                           {"src0_mem_pattern", 16, 16, K::Tensor, 3},
                           {"reversed_pred", 32, 1, K::U8},
                           {"num_active_channels", 33, 1, K::U8},
                           {"dtype", 34, 1, K::Dtype},
                           {"pred_imm_dtype", 35, 1, K::Dtype},
                           {"reserved1", 36, 2, K::Reserved},
                           {"src1_imm_src", 38, 1, K::ImmSrc},
                           {"pred_imm_src", 39, 1, K::ImmSrc},
                           {"src1_imm", 40, 4, K::ImmVal, 0, "src1_imm_src"},
                           {"pred_imm", 44, 4, K::ImmVal, 0, "pred_imm_src"},
                           {"dst_mem_pattern", 48, 16, K::Tensor, 3},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_tensor_scalar_select(): 4 channels, dtype INT16, pred_imm_dtype UINT16. src0:
// TENSOR3D steps {1, 4, 16} counts {4, 4, 2} (32 elements, 64 dense bytes) at SBUF
// partition 2 offset 0x200; dst: same shape at partition 2 offset 0x800. src1_imm
// 0x1234 and pred_imm 1, both instruction immediates; reversed_pred 0 (dst = src0).
namespace tss_word {
inline constexpr unsigned kChannels = 4;
inline constexpr Dtype kDtype = Dtype::INT16, kPredDtype = Dtype::UINT16;
inline constexpr uint32_t kSrc0Addr = sbuf_addr(2, 0x200), kDstAddr = sbuf_addr(2, 0x800);
inline constexpr uint32_t kSrc1Imm = 0x1234, kPredImm = 1;
}  // namespace tss_word

inline Word valid_tensor_scalar_select() {
  using namespace tss_word;
  return build(Opcode::TensorScalarSelect,
               {{"src0_mem_pattern", tensor(kSrc0Addr, {1, 4, 16}, {4, 4, 2})},
                {"num_active_channels", uint64_t{kChannels}},
                {"dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                {"pred_imm_dtype", uint64_t{static_cast<uint8_t>(kPredDtype)}},
                {"src1_imm", uint64_t{kSrc1Imm}},
                {"pred_imm", uint64_t{kPredImm}},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 4, 16}, {4, 4, 2})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

inline std::optional<FaultKind> tensor_scalar_select(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[33];
  const unsigned size = size_of(w[34]), psize = size_of(w[35]);
  const bool reversed = w[32] != 0;
  const Tensor st = get_tensor(w, 16, 3), dtn = get_tensor(w, 48, 3);
  const auto src = resolve(m, st, size, true, false, n);
  const auto dst = resolve(m, dtn, size, true, true, n);
  const auto s1 = resolve_imm(m, w[38], get(w, 40, 4), size, true, n);
  const auto pr = resolve_imm(m, w[39], get(w, 44, 4), psize, true, n);
  if (!src || !dst || !s1 || !pr) return FaultKind::BadAddress;
  if ((st.register_mode() || dtn.register_mode()) && st.count() != dtn.count())
    return FaultKind::ShapeMismatch;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto soffs = walk(st, src->offset, size), doffs = walk(dtn, dst->offset, size);
  for (unsigned c = 0; c < n; ++c) {
    // An instruction-immediate predicate is the whole field (validated 0 or 1).
    const uint32_t pred = w[39] == 0 ? get(w, 44, 4) : pr->at(m, c);
    const bool take = (pred != 0) != reversed;
    const uint32_t scalar = s1->at(m, c);
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      const uint32_t v = take ? load(m, src->space, src->partition + c, soffs[j], size) : scalar;
      fx.stores.push_back({dst->space, dst->partition + c, doffs[j], size, v});
    }
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

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

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_tensor_scalar_select(Gen& g) {
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

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {
namespace {

Word tensor_scalar_select_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0x98;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype dt = large ? Dtype::FP32 : rng.pick(kTssDtypes);
  const unsigned size = *dtype_size(dt);
  Window win;
  win.bytes = large ? 49152 : 4096;
  if (!large && size == 4 && rng.chance(0.15)) win.space = Space::PSUM;
  const unsigned p = rng.below(kPartitions - n + 1);
  TensorDesc src = random_walk(rng, 3, 0, large ? 10000 : 900, size, win, p);
  force_source(rng, src, size, win, p);
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  TensorDesc dst = random_walk(rng, 3, src.count(), 0, size, win, pd);
  fill2(rng, m, win, p, pd, n, dt);
  store_tensor(w, 16, src);
  w[32] = static_cast<uint8_t>(rng.below(2));
  w[33] = static_cast<uint8_t>(n);
  w[34] = static_cast<uint8_t>(dt);
  const uint8_t preds[] = {size == 1   ? uint8_t{0x2}
                           : size == 2 ? uint8_t{0x4}
                                       : uint8_t{0x8},
                           size == 1   ? uint8_t{0x3}
                           : size == 2 ? uint8_t{0x5}
                                       : uint8_t{0x9}};
  w[35] = rng.pick(preds);
  const uint32_t mask = size == 4 ? ~0u : (1u << (8 * size)) - 1;
  for (unsigned k = 0; k < 2; ++k) {  // src1_imm, then pred_imm
    if (rng.chance(0.3)) {
      w[38 + k] = 1;
      const uint32_t off = rng.below(win.bytes / size) * size;
      const unsigned pp = rng.below(kPartitions - n + 1);
      store_u32(w, 40 + 4 * k, encode_static_addr({win.space, pp, off}));
      for (unsigned c = 0; c < n; ++c) {
        const uint32_t v = k == 1 && rng.chance(0.5) ? 0 : static_cast<uint32_t>(rng.bits());
        std::memcpy(m.a.partition(win.space, pp + c).data() + off, &v, size);
        std::memcpy(m.b.partition(win.space, pp + c).data() + off, &v, size);
        m.touched.emplace_back(win.space, pp + c);
      }
    } else {
      store_u32(w, 40 + 4 * k, k == 1 ? rng.below(2) : static_cast<uint32_t>(rng.bits()) & mask);
    }
  }
  store_tensor(w, 48, dst);
  return w;
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "TensorScalarSelect",
    .opcode = Opcode::TensorScalarSelect,
    .opcode_clause = "has_tensor_scalar_select_opcode",
    .expected_row = expected_rows::tensor_scalar_select_row,
    .valid_word = test_words::valid_tensor_scalar_select,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::tensor_scalar_select(m, w, fx);
        },
    .generate = random_words::gen_tensor_scalar_select,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_tensor_scalar_select,
    .kernel_words = {{kernels_equiv::tensor_scalar_select_word, 12, 400, 4}},
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd {
namespace {

// ---- clause cases (SPEC §4, §6): each mutation of the valid word fails one clause alone ----

std::vector<ClauseCase> clause_cases() {
  std::vector<ClauseCase> c;
  // ---- TensorScalarSelect (SPEC §4.2) ----
  for (unsigned b : {12u, 15u})
    c.push_back({"tss_reserved0_byte" + std::to_string(b), TSS, [b](Word& w) { w[b] = 0x40; },
                 "s3d3_ts_select_reserved_zero", "reserved0", "0x40"});
  for (unsigned b : {36u, 37u})
    c.push_back({"tss_reserved1_byte" + std::to_string(b), TSS, [b](Word& w) { w[b] = 1; },
                 "s3d3_ts_select_reserved_zero", "reserved1", "0x01"});
  c.push_back({"tss_channels_0", TSS, [](Word& w) { set(w, "num_active_channels", 0); },
               "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
  for (uint8_t d : {uint8_t{0x00}, uint8_t{0x10}, uint8_t{0x1b}, uint8_t{0x11}, uint8_t{0xff}}) {
    char value[8];
    std::snprintf(value, sizeof value, "0x%x", d);
    c.push_back({"tss_dtype_sizeless_" + std::string(value), TSS,
                 [d](Word& w) { set(w, "dtype", d); }, "is_valid_dtype", "dtype", value});
  }
  c.push_back({"tss_dtype_fp32r", TSS,
               [](Word& w) {
                 set(w, "dtype", code(Dtype::FP32R));
                 set(w, "pred_imm_dtype", code(Dtype::UINT32));
               },
               "is_valid_dtype", "dtype", "0xb"});
  c.push_back({"tss_pred_dtype_fp16", TSS,
               [](Word& w) { set(w, "pred_imm_dtype", code(Dtype::FP16)); },
               "is_valid_int_dtype_datapath", "pred_imm_dtype", "0x7"});
  c.push_back({"tss_pred_dtype_bf16", TSS,
               [](Word& w) { set(w, "pred_imm_dtype", code(Dtype::BF16)); },
               "is_valid_int_dtype_datapath", "pred_imm_dtype", "0x6"});
  c.push_back({"tss_pred_dtype_invalid", TSS, [](Word& w) { set(w, "pred_imm_dtype", 0); },
               "is_valid_int_dtype_datapath", "pred_imm_dtype", "0x0"});
  c.push_back({"tss_pred_dtype_unknown", TSS, [](Word& w) { set(w, "pred_imm_dtype", 0x11); },
               "is_valid_int_dtype_datapath", "pred_imm_dtype", "0x11"});
  c.push_back({"tss_width_pred_int8", TSS,
               [](Word& w) { set(w, "pred_imm_dtype", code(Dtype::INT8)); },
               "has_same_imm_dtype_width", "pred_imm_dtype", "0x2"});
  c.push_back({"tss_width_pred_int32", TSS,
               [](Word& w) { set(w, "pred_imm_dtype", code(Dtype::INT32)); },
               "has_same_imm_dtype_width", "pred_imm_dtype", "0x8"});
  c.push_back({"tss_reversed_pred_2", TSS, [](Word& w) { set(w, "reversed_pred", 2); },
               "has_valid_reversed_pred", "reversed_pred", "0x02"});
  c.push_back({"tss_reversed_pred_ff", TSS, [](Word& w) { set(w, "reversed_pred", 0xff); },
               "has_valid_reversed_pred", "reversed_pred", "0xff"});
  c.push_back({"tss_pred_imm_2", TSS, [](Word& w) { set(w, "pred_imm", 2); },
               "has_valid_pred_inst_imm_value", "pred_imm", "0x00000002"});
  c.push_back({"tss_pred_imm_0x100", TSS, [](Word& w) { set(w, "pred_imm", 0x100); },
               "has_valid_pred_inst_imm_value", "pred_imm", "0x00000100"});
  c.push_back({"tss_pred_imm_0xffff", TSS, [](Word& w) { set(w, "pred_imm", 0xffff); },
               "has_valid_pred_inst_imm_value", "pred_imm", "0x0000ffff"});
  c.push_back({"tss_src1_imm_upper_bytes", TSS, [](Word& w) { set(w, "src1_imm", 0x00011234); },
               "has_valid_immediates", "src1_imm", "0x00011234"});
  c.push_back({"tss_src1_imm_upper_bytes_int8", TSS,
               [](Word& w) {
                 set(w, "dtype", code(Dtype::INT8));
                 set(w, "pred_imm_dtype", code(Dtype::UINT8));
                 set(w, "src1_imm", 0x100);
               },
               "has_valid_immediates", "src1_imm", "0x00000100"});
  c.push_back({"tss_src1_imm_src_3", TSS, [](Word& w) { set(w, "src1_imm_src", 3); },
               "has_valid_immediates", "src1_imm_src", "0x03"});
  c.push_back({"tss_pred_imm_src_3", TSS, [](Word& w) { set(w, "pred_imm_src", 3); },
               "has_valid_immediates", "pred_imm_src", "0x03"});
  c.push_back({"tss_src1_pointer_misaligned", TSS,
               [](Word& w) {
                 set(w, "src1_imm_src", 1);
                 set(w, "src1_imm", sbuf_addr(2, 0x301));
               },
               "has_valid_immediates", "src1_imm", "0x00080301"});
  c.push_back({"tss_src1_pointer_mode_bits", TSS,
               [](Word& w) {
                 set(w, "src1_imm_src", 1);
                 set(w, "src1_imm", 0x40000300);
               },
               "has_valid_immediates", "src1_imm", "0x40000300"});
  c.push_back({"tss_src1_pointer_partitions", TSS,
               [](Word& w) {
                 set(w, "src1_imm_src", 1);
                 set(w, "src1_imm", sbuf_addr(125, 0x300));
               },
               "has_valid_immediates", "src1_imm", "0x01f40300"});
  c.push_back({"tss_pred_pointer_misaligned", TSS,
               [](Word& w) {
                 set(w, "pred_imm_src", 1);
                 set(w, "pred_imm", sbuf_addr(2, 0x301));
               },
               "has_valid_immediates", "pred_imm", "0x00080301"});
  c.push_back({"tss_pred_pointer_psum_offset_16k", TSS,
               [](Word& w) {
                 set(w, "pred_imm_src", 1);
                 set(w, "pred_imm", psum_addr(3, 0x4000));
               },
               "has_valid_immediates", "pred_imm", "0x0201c000"});
  c.push_back({"tss_src1_register_id_64", TSS,
               [](Word& w) {
                 set(w, "src1_imm_src", 2);
                 set(w, "src1_imm", 64);
               },
               "has_valid_immediates", "src1_imm", "0x00000040"});
  c.push_back({"tss_pred_register_upper_bytes", TSS,
               [](Word& w) {
                 set(w, "pred_imm_src", 2);
                 set(w, "pred_imm", 0x00010003);
               },
               "has_valid_immediates", "pred_imm", "0x00010003"});
  c.push_back({"tss_elem_count", TSS, [](Word& w) { set_num(w, "dst_mem_pattern", 2, 1); },
               "same_element_count_t3d", "dst_mem_pattern", "16"});
  c.push_back({"tss_src0_start_partition", TSS,
               [](Word& w) { set_addr(w, "src0_mem_pattern", sbuf_addr(125, 0x200)); },
               "start_addr_active_channels", "src0_mem_pattern", "125"});
  c.push_back({"tss_dst_start_partition", TSS,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(125, 0x800)); },
               "start_addr_active_channels", "dst_mem_pattern", "125"});
  c.push_back({"tss_src0_num0_register_mode", TSS,
               [](Word& w) {
                 set_addr(w, "src0_mem_pattern", reg_addr(0));
                 set_num(w, "src0_mem_pattern", 2, 0);
               },
               "tensor3d_valid", "src0_mem_pattern", "0x80000000", "num_elem"});
  c.push_back({"tss_dst_num0_register_mode", TSS,
               [](Word& w) {
                 set_addr(w, "dst_mem_pattern", reg_addr(1));
                 set_num(w, "dst_mem_pattern", 0, 0);
               },
               "tensor3d_valid", "dst_mem_pattern", "0x80000001", "num_elem"});
  return c;
}
GPSIMD_CLAUSE_CASES(TensorScalarSelect, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// ---- TensorScalarSelect (SPEC §4.2) -----------------------------------------------------

TEST(TensorScalarSelect, CopiesBitsForEveryDtype) {
  struct Case {
    uint8_t dtype, pdtype;
  };
  const Case cases[] = {
      {dt::INT8, dt::INT8},     {dt::UINT8, dt::UINT8},   {dt::FP8_E3, dt::INT8},
      {dt::FP8_E4, dt::UINT8},  {dt::FP8_E5, dt::INT8},   {dt::INT16, dt::INT16},
      {dt::UINT16, dt::UINT16}, {dt::BF16, dt::INT16},    {dt::FP16, dt::UINT16},
      {dt::INT32, dt::INT32},   {dt::UINT32, dt::UINT32}, {dt::FP32, dt::INT32},
  };
  for (const Case& c : cases) {
    const unsigned size = rm::size_of(c.dtype);
    // Signalling NaNs, -0, all ones: bits are copied, never converted.
    const V src = size == 1   ? V{0x7F, 0x80, 0xFF, 0x79}
                  : size == 2 ? V{0x7C01, 0x8000, 0xFFFF, 0x7F81}
                              : V{0x7F800001, 0x80000000, 0xFFFFFFFF, 0x00000001};
    const uint32_t scalar = size == 1 ? 0xA5 : (size == 2 ? 0xBEEF : 0xDEADBEEF);
    for (uint32_t pred : {0u, 1u}) {
      for (uint8_t rev : {uint8_t{0}, uint8_t{1}}) {
        SCOPED_TRACE(testing::Message()
                     << "dtype " << int{c.dtype} << " pred " << pred << " rev " << int{rev});
        Machine& m = fresh(Generation::V2);
        poke(m, SBUF, 2, 0x40, size, src);
        rm::TensorScalarSelectWord x = tss_word(c.dtype, c.pdtype, 4);
        x.pred_imm = pred;
        x.reversed_pred = rev;
        x.src1_imm = scalar;
        expect_ok(m, x.encode());
        const bool tensor = (pred != 0) != (rev != 0);
        EXPECT_EQ(peek(m, SBUF, 3, 0x80, size, 4), tensor ? src : V(4, scalar));
      }
    }
  }
}

// Per-channel predicates and scalars through pointers and register pointers; any nonzero
// predicate of the full pred_imm_dtype width is true.
TEST(TensorScalarSelect, PointerPredicatesAndScalars) {
  for (uint8_t rev : {uint8_t{0}, uint8_t{1}}) {
    SCOPED_TRACE(int{rev});
    Machine& m = fresh(Generation::V3);
    rm::TensorScalarSelectWord x = tss_word(dt::INT8, dt::UINT8, 2);
    x.channels = 3;
    x.reversed_pred = rev;
    x.pred_imm_src = 1;
    x.pred_imm = rm::sbuf_addr(7, 0x21);  // 1-byte predicates may sit at odd offsets
    x.src1_imm_src = 2;
    x.src1_imm = 12;
    m.registers[12] = rm::psum_addr(30, 0x10);  // DVE: a PSUM pointer is allowed
    poke(m, SBUF, 7, 0x21, 1, {0x00});
    poke(m, SBUF, 8, 0x21, 1, {0x01});
    poke(m, SBUF, 9, 0x21, 1, {0x80});
    for (unsigned c = 0; c < 3; ++c) {
      poke(m, PSUM, 30 + c, 0x10, 1, {0xC0 + c});
      poke(m, SBUF, 2 + c, 0x40, 1, {0x10 + c, 0x20 + c});
    }
    expect_ok(m, x.encode());
    const bool t[3] = {rev != 0, rev == 0, rev == 0};
    for (unsigned c = 0; c < 3; ++c) {
      const V want = t[c] ? V{0x10 + c, 0x20 + c} : V{0xC0 + c, 0xC0 + c};
      EXPECT_EQ(peek(m, SBUF, 3 + c, 0x80, 1, 2), want) << "channel " << c;
    }
  }
  // A 4-byte predicate whose only nonzero byte is the top one is true.
  Machine& m = fresh(Generation::V3);
  rm::TensorScalarSelectWord x = tss_word(dt::FP32, dt::INT32, 1);
  x.pred_imm_src = 2;
  x.pred_imm = 63;
  m.registers[63] = rm::sbuf_addr(100, 0x1000);
  poke(m, SBUF, 100, 0x1000, 4, {0x01000000});
  poke(m, SBUF, 2, 0x40, 4, {0x11223344});
  x.src1_imm = 0x55667788;
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 3, 0x80, 4, 1), V{0x11223344});
}

}  // namespace
#endif
