// CopyPredicatedScalar (SPEC §4.12): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.12.
inline ExpectedInstr copy_predicated_scalar_row() {
  return ExpectedInstr{"CopyPredicatedScalar",
                       0xe8,
                       "S3D3_CP_PRED_SCALAR",
                       Engine::DVE,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"reserved0", 12, 4, K::Reserved},
                           {"pred_mem_pattern", 16, 16, K::Tensor, 3},
                           {"pred_dtype", 32, 1, K::Dtype},
                           {"reversed_pred", 33, 1, K::U8},
                           {"num_active_channels", 34, 1, K::U8},
                           {"reserved1", 35, 6, K::Reserved},
                           {"in_dtype", 41, 1, K::Dtype},
                           {"out_dtype", 42, 1, K::Dtype},
                           {"src0_imm_src", 43, 1, K::ImmSrc},
                           {"src0_imm", 44, 4, K::ImmVal, 0, "src0_imm_src"},
                           {"dst_mem_pattern", 48, 16, K::Tensor, 3},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_copy_predicated_scalar(): 2 channels. pred: UINT8, TENSOR3D steps {1, 4, 16}
// counts {4, 4, 1} (16 elements, 16 dense bytes) at SBUF partition 0 offset 0x100; dst:
// FP32, same shape (64 dense bytes) at partition 0 offset 0x200. in and out FP32;
// src0_imm -9984.0 (instruction immediate); reversed_pred 1 (writes where pred != 0).
namespace cps_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kN = 16;
inline constexpr Dtype kPredDtype = Dtype::UINT8, kDtype = Dtype::FP32;
inline constexpr uint32_t kPredAddr = sbuf_addr(0, 0x100), kDstAddr = sbuf_addr(0, 0x200);
inline constexpr float kScalar = -9984.0f;
}  // namespace cps_word

inline Word valid_copy_predicated_scalar() {
  using namespace cps_word;
  return build(Opcode::CopyPredicatedScalar,
               {{"pred_mem_pattern", tensor(kPredAddr, {1, 4, 16}, {4, 4, 1})},
                {"pred_dtype", uint64_t{static_cast<uint8_t>(kPredDtype)}},
                {"reversed_pred", uint64_t{1}},
                {"num_active_channels", uint64_t{kChannels}},
                {"in_dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                {"src0_imm", uint64_t{f32_bits(kScalar)}},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 4, 16}, {4, 4, 1})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.12. Offsets: 16 pred (TENSOR3D), 32 pred_dtype, 33 reversed_pred, 34 channels,
// 41 in_dtype, 42 out_dtype, 43 src0_imm_src, 44 src0_imm, 48 dst (TENSOR3D).
inline std::optional<FaultKind> copy_predicated_scalar(const Machine& m, const Word& w,
                                                       Effects& fx) {
  const unsigned n = w[34];
  const unsigned psize = size_of(w[32]), size = size_of(w[42]);
  const bool reversed = w[33] == 1;
  const Tensor pt = get_tensor(w, 16, 3), dtn = get_tensor(w, 48, 3);
  const auto pred = resolve(m, pt, psize, true, false, n);
  const auto dst = resolve(m, dtn, size, true, true, n);
  const auto sc = resolve_imm(m, w[43], get(w, 44, 4), size_of(w[41]), true, n);
  if (!pred || !dst || !sc) return FaultKind::BadAddress;
  if ((pt.register_mode() || dtn.register_mode()) && pt.count() != dtn.count())
    return FaultKind::ShapeMismatch;
  if (pt.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto poffs = walk(pt, pred->offset, psize), doffs = walk(dtn, dst->offset, size);
  for (unsigned c = 0; c < n; ++c) {
    const uint32_t scalar = sc->at(m, c);
    // Every decision from the machine before any store (stores are applied afterwards).
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      const uint32_t p = load(m, pred->space, pred->partition + c, poffs[j], psize);
      if ((p != 0) == reversed)
        fx.stores.push_back({dst->space, dst->partition + c, doffs[j], size, scalar});
    }
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

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

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.12: any integer predicate width with any data dtype (in == out).
inline Word valid_copy_predicated_scalar(Gen& g) {
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

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {
namespace {

const Dtype kPredDtypes[] = {Dtype::INT8,   Dtype::UINT8, Dtype::INT16,
                             Dtype::UINT16, Dtype::INT32, Dtype::UINT32};

Word copy_predicated_scalar_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0xe8;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype pdt = rng.pick(kPredDtypes);
  // Same widths half the time: the masked-store path needs them.
  Dtype dt = rng.pick(kTssDtypes);
  if (rng.chance(0.5)) {
    const unsigned ps = *dtype_size(pdt);
    dt = ps == 1 ? Dtype::FP8_E4 : ps == 2 ? Dtype::BF16 : Dtype::FP32;
    if (rng.chance(0.5)) dt = pdt;
  }
  const unsigned psize = *dtype_size(pdt), size = *dtype_size(dt);
  Window win;
  win.bytes = large ? 49152 : 4096;
  if (!large && size == 4 && rng.chance(0.15)) win.space = Space::PSUM;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  const uint64_t t = random_count(rng, large ? 10000 : 900);
  // Both dense (the masked-store path) about half the time.
  const double dense = rng.chance(0.5) ? 1.0 : 0.3;
  TensorDesc pred = dense_or_random(rng, t, psize, win, p, dense);
  TensorDesc dst = dense_or_random(rng, pred.count(), size, win, pd, dense);
  if (psize == size && rng.chance(0.15)) {  // exactly on the predicate
    dst = pred;
    dst.addr = encode_static_addr(
        {win.space, pd, check_static_addr(pred.addr, Generation::V3).loc.offset});
  }
  fill(rng, m, win, pd, n, dt);
  fill_density(rng, m, win, p, n, pdt, rng.pick(kDensities), false);
  store_tensor(w, 16, pred);
  w[32] = static_cast<uint8_t>(pdt);
  w[33] = static_cast<uint8_t>(rng.below(2));
  w[34] = static_cast<uint8_t>(n);
  w[41] = w[42] = static_cast<uint8_t>(dt);
  const uint32_t mask = size == 4 ? ~0u : (1u << (8 * size)) - 1;
  const std::vector<uint32_t> edges = edge_values(dt);
  auto scalar = [&] {
    return rng.chance(0.5) ? rng.pick_from(edges) : static_cast<uint32_t>(rng.bits()) & mask;
  };
  if (rng.chance(0.3)) {
    w[43] = 1;
    const uint32_t off = rng.below(win.bytes / size) * size;
    const unsigned pp = rng.below(kPartitions - n + 1);
    store_u32(w, 44, encode_static_addr({win.space, pp, off}));
    for (unsigned c = 0; c < n; ++c) {
      const uint32_t v = scalar();
      std::memcpy(m.a.partition(win.space, pp + c).data() + off, &v, size);
      std::memcpy(m.b.partition(win.space, pp + c).data() + off, &v, size);
      m.touched.emplace_back(win.space, pp + c);
    }
  } else {
    store_u32(w, 44, scalar());
  }
  store_tensor(w, 48, dst);
  return w;
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "CopyPredicatedScalar",
    .opcode = Opcode::CopyPredicatedScalar,
    .opcode_clause = "has_copy_predicated_scalar_opcode",
    .expected_row = expected_rows::copy_predicated_scalar_row,
    .valid_word = test_words::valid_copy_predicated_scalar,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::copy_predicated_scalar(m, w, fx);
        },
    .generate = random_words::gen_copy_predicated_scalar,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_copy_predicated_scalar,
    .kernel_words = {{kernels_equiv::copy_predicated_scalar_word, 18, 900, 8}},
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
  // ---- CopyPredicatedScalar (SPEC §4.12) ----
  for (unsigned b : {12u, 15u})
    c.push_back({"cps_reserved0_byte" + std::to_string(b), CPS, [b](Word& w) { w[b] = 0x10; },
                 "s3d3_cp_pred_scalar_reserved_zero", "reserved0", "0x10", "zero"});
  for (unsigned b : {35u, 38u, 40u})
    c.push_back({"cps_reserved1_byte" + std::to_string(b), CPS, [b](Word& w) { w[b] = 0x80; },
                 "s3d3_cp_pred_scalar_reserved_zero", "reserved1", "0x80", "zero"});
  c.push_back({"cps_channels_0", CPS, [](Word& w) { set(w, "num_active_channels", 0); },
               "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
  c.push_back({"cps_src0_imm_src_3", CPS, [](Word& w) { set(w, "src0_imm_src", 3); },
               "has_valid_immediates", "src0_imm_src", "0x03"});
  c.push_back({"cps_src0_pointer_misaligned", CPS,
               [](Word& w) {
                 set(w, "src0_imm_src", 1);
                 set(w, "src0_imm", sbuf_addr(0, 0x802));
               },
               "has_valid_immediates", "src0_imm", "0x00000802"});
  c.push_back({"cps_src0_pointer_psum_misaligned", CPS,
               [](Word& w) {
                 set(w, "src0_imm_src", 1);
                 set(w, "src0_imm", psum_addr(0, 0x101));
               },
               "has_valid_immediates", "src0_imm", "0x02000101"});
  c.push_back({"cps_src0_pointer_partitions", CPS,
               [](Word& w) {
                 set(w, "src0_imm_src", 1);
                 set(w, "src0_imm", sbuf_addr(127, 0x800));
               },
               "has_valid_immediates", "src0_imm", "0x01fc0800"});
  c.push_back({"cps_src0_pointer_psum_offset_16k", CPS,
               [](Word& w) {
                 set(w, "src0_imm_src", 1);
                 set(w, "src0_imm", psum_addr(0, 0x4000));
               },
               "has_valid_immediates", "src0_imm", "0x02004000"});
  c.push_back({"cps_src0_register_id_64", CPS,
               [](Word& w) {
                 set(w, "src0_imm_src", 2);
                 set(w, "src0_imm", 64);
               },
               "has_valid_immediates", "src0_imm", "0x00000040"});
  c.push_back({"cps_src0_register_byte3", CPS,
               [](Word& w) {
                 set(w, "src0_imm_src", 2);
                 set(w, "src0_imm", 0x01000005);
               },
               "has_valid_immediates", "src0_imm", "0x01000005"});
  c.push_back({"cps_src0_imm_upper_bytes_int16", CPS,
               [](Word& w) {
                 set(w, "in_dtype", code(Dtype::INT16));
                 set(w, "out_dtype", code(Dtype::INT16));
                 set(w, "src0_imm", 0x00011234);
               },
               "has_valid_immediates", "src0_imm", "0x00011234"});
  c.push_back({"cps_src0_imm_upper_bytes_uint8", CPS,
               [](Word& w) {
                 set(w, "in_dtype", code(Dtype::UINT8));
                 set(w, "out_dtype", code(Dtype::UINT8));
                 set(w, "src0_imm", 0x100);
               },
               "has_valid_immediates", "src0_imm", "0x00000100"});
  c.push_back({"cps_src0_imm_bf16_keeps_fp32_bits", CPS,
               [](Word& w) {
                 set(w, "in_dtype", code(Dtype::BF16));
                 set(w, "out_dtype", code(Dtype::BF16));  // -9984.0 as FP32 has 4 bytes
               },
               "has_valid_immediates", "src0_imm", "0xc61c0000"});
  c.push_back({"cps_pred_start_partition", CPS,
               [](Word& w) { set_addr(w, "pred_mem_pattern", sbuf_addr(127, 0x100)); },
               "start_addr_active_channels", "pred_mem_pattern", "127"});
  c.push_back({"cps_dst_start_partition", CPS,
               [](Word& w) { set_addr(w, "dst_mem_pattern", psum_addr(127, 0x200)); },
               "start_addr_active_channels", "dst_mem_pattern", "127"});
  c.push_back({"cps_dst_psum_bf16", CPS,
               [](Word& w) {
                 set(w, "in_dtype", code(Dtype::BF16));
                 set(w, "out_dtype", code(Dtype::BF16));
                 set(w, "src0_imm", 0xc61c);
                 set_addr(w, "dst_mem_pattern", psum_addr(0, 0x200));
               },
               "tensor3d_valid", "dst_mem_pattern", "0x02000200", "4-byte"});
  c.push_back({"cps_dst_psum_uint8", CPS,
               [](Word& w) {
                 set(w, "in_dtype", code(Dtype::UINT8));
                 set(w, "out_dtype", code(Dtype::UINT8));
                 set(w, "src0_imm", 0x7f);
                 set_addr(w, "dst_mem_pattern", psum_addr(1, 0x200));
               },
               "tensor3d_valid", "dst_mem_pattern", "0x02008200", "4-byte"});
  c.push_back({"cps_dst_misaligned", CPS,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(0, 0x202)); },
               "tensor3d_valid", "dst_mem_pattern", "0x00000202", "aligned"});
  c.push_back({"cps_pred_misaligned_int16", CPS,
               [](Word& w) {
                 set(w, "pred_dtype", code(Dtype::INT16));
                 set_addr(w, "pred_mem_pattern", sbuf_addr(0, 0x101));
               },
               "tensor3d_valid", "pred_mem_pattern", "0x00000101", "aligned"});
  c.push_back({"cps_pred_outside_partition", CPS,
               [](Word& w) { set_step(w, "pred_mem_pattern", 0, -0x200); }, "tensor3d_valid",
               "pred_mem_pattern", "0x00000100"});
  c.push_back({"cps_count", CPS, [](Word& w) { set_num(w, "dst_mem_pattern", 1, 3); },
               "same_element_count_t3d", "dst_mem_pattern", "12"});
  c.push_back({"cps_count_pred", CPS, [](Word& w) { set_num(w, "pred_mem_pattern", 2, 2); },
               "same_element_count_t3d", "dst_mem_pattern", "32"});
  c.push_back({"cps_pred_num0_register_mode", CPS,
               [](Word& w) {
                 set_addr(w, "pred_mem_pattern", reg_addr(3));
                 set_num(w, "pred_mem_pattern", 1, 0);
               },
               "tensor3d_valid", "pred_mem_pattern", "0x80000003", "num_elem"});
  for (Dtype d : {Dtype::FP32, Dtype::BF16, Dtype::FP16, Dtype::FP8_E4, Dtype::INVALID,
                  Dtype::UINT64, Dtype::FP32R})
    c.push_back({"cps_pred_dtype_" + name_of(d), CPS,
                 [d](Word& w) { set(w, "pred_dtype", code(d)); }, "is_valid_int_dtype_datapath",
                 "pred_dtype", name_of(d)});
  c.push_back({"cps_pred_dtype_unknown", CPS, [](Word& w) { set(w, "pred_dtype", 0x11); },
               "is_valid_int_dtype_datapath", "pred_dtype", "0x11"});
  c.push_back({"cps_inout_int64", CPS,
               [](Word& w) {
                 set(w, "in_dtype", code(Dtype::INT64));
                 set(w, "out_dtype", code(Dtype::INT64));
                 set_num(w, "dst_mem_pattern", 0, 4);
               },
               "is_valid_dtype", "_dtype", "0xc", "", 2});
  c.push_back({"cps_inout_fp32r", CPS,
               [](Word& w) {
                 set(w, "in_dtype", code(Dtype::FP32R));
                 set(w, "out_dtype", code(Dtype::FP32R));
               },
               "is_valid_dtype", "_dtype", "0xb", "", 2});
  c.push_back({"cps_out_int32", CPS, [](Word& w) { set(w, "out_dtype", code(Dtype::INT32)); },
               "has_same_inout_dtype", "out_dtype", "INT32", "in_dtype"});
  c.push_back({"cps_in_uint32", CPS, [](Word& w) { set(w, "in_dtype", code(Dtype::UINT32)); },
               "has_same_inout_dtype", "out_dtype", "FP32", "in_dtype"});
  c.push_back({"cps_reversed_pred_2", CPS, [](Word& w) { set(w, "reversed_pred", 2); },
               "has_valid_reversed_pred", "reversed_pred", "0x02", "0 or 1"});
  c.push_back({"cps_reversed_pred_ff", CPS, [](Word& w) { set(w, "reversed_pred", 0xff); },
               "has_valid_reversed_pred", "reversed_pred", "0xff"});
  return c;
}
GPSIMD_CLAUSE_CASES(CopyPredicatedScalar, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// ---- CopyPredicatedScalar (SPEC §4.12) --------------------------------------------------

TEST(CopyPredicatedScalar, PolarityAndUntouchedElements) {
  const V pred = {0, 1, 0, 0xFF, 0x80, 0, 2, 0};
  const V old = {f32(1.0f), f32(2.0f), f32(3.0f), f32(4.0f),
                 f32(5.0f), f32(6.0f), f32(7.0f), f32(8.0f)};
  const uint32_t s = f32(-9984.0f);
  for (uint8_t rev : {uint8_t{0}, uint8_t{1}}) {
    SCOPED_TRACE(int{rev});
    Machine& m = fresh(Generation::V2);
    poke(m, SBUF, 0, 0x100, 1, pred);
    poke(m, SBUF, 1, 0x200, 4, old);
    expect_ok(m, cps_word(dt::UINT8, dt::FP32, 8, s, rev).encode());
    // reversed_pred = 1 writes where pred != 0; 0 where pred == 0.
    const V want = rev == 1 ? V{old[0], s, old[2], s, s, old[5], s, old[7]}
                            : V{s, old[1], s, old[3], old[4], s, old[6], s};
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 8), want);
    EXPECT_EQ(peek(m, SBUF, 0, 0x100, 1, 8), pred);  // the predicate is unchanged
  }
}

TEST(CopyPredicatedScalar, AnyBitOfThePredicateWidthIsTrue) {
  struct Case {
    uint8_t pdtype;
    V pred;
    V selected;  // 1 where the element is true
  };
  const Case cases[] = {
      {dt::INT8, {0x80, 0, 0x01, 0xFF}, {1, 0, 1, 1}},
      {dt::UINT16, {0x8000, 0, 0x0100, 0x0001}, {1, 0, 1, 1}},
      {dt::INT16, {0, 0xFFFF, 0x8000, 0}, {0, 1, 1, 0}},
      {dt::INT32, {0x80000000, 0, 0x00010000, 0x01000000}, {1, 0, 1, 1}},
      {dt::UINT32, {0, 0x00000100, 0, 0x80000000}, {0, 1, 0, 1}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int{c.pdtype});
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 0, 0x100, rm::size_of(c.pdtype), c.pred);
    poke(m, SBUF, 1, 0x200, 2, {0x1111, 0x2222, 0x3333, 0x4444});
    expect_ok(m, cps_word(c.pdtype, dt::INT16, 4, 0xBEEF, 1).encode());
    V want = {0x1111, 0x2222, 0x3333, 0x4444};
    for (unsigned j = 0; j < 4; ++j)
      if (c.selected[j]) want[j] = 0xBEEF;
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, 2, 4), want);
    // The 2-byte elements past the walk keep their zeros.
    EXPECT_EQ(peek(m, SBUF, 1, 0x208, 2, 2), (V{0, 0}));
  }
}

TEST(CopyPredicatedScalar, ScalarBitsAreCopiedNeverConverted) {
  struct Case {
    uint8_t dtype;
    uint32_t scalar;
  };
  const Case cases[] = {
      {dt::FP32, 0x7F800001},  // signalling NaN with payload 1
      {dt::FP32, 0xFFC12345},  // negative quiet NaN with a payload
      {dt::FP32, 0x80000000},  // -0.0
      {dt::FP32, 0x00000001},  // the smallest subnormal
      {dt::BF16, 0xFF81},     {dt::FP16, 0x7C01},   {dt::FP16, 0x8000},
      {dt::FP8_E4, 0x79},     {dt::FP8_E5, 0xFF},   {dt::FP8_E3, 0x80},
      {dt::INT8, 0x80},       {dt::UINT16, 0xFFFF}, {dt::INT32, 0x80000000},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << int{c.dtype} << " " << std::hex << c.scalar);
    const unsigned size = rm::size_of(c.dtype);
    Machine& m = fresh(Generation::V4);
    poke(m, SBUF, 0, 0x100, 1, {1, 0, 1});
    expect_ok(m, cps_word(dt::UINT8, c.dtype, 3, c.scalar, 1).encode());
    EXPECT_EQ(peek(m, SBUF, 1, 0x200, size, 3), (V{c.scalar, 0, c.scalar}));
  }
}

TEST(CopyPredicatedScalar, PointerScalarsArePerChannel) {
  Machine& m = fresh(Generation::V3);
  rm::CopyPredicatedScalarWord x = cps_word(dt::UINT8, dt::INT16, 2, 0, 0);
  x.channels = 3;
  x.pred.addr = rm::sbuf_addr(10, 0x21);  // 1-byte predicates at an odd offset
  x.dst.addr = rm::sbuf_addr(20, 0x10);
  x.src0_imm_src = 1;  // pointer into PSUM: allowed for DVE
  x.src0_imm = rm::psum_addr(30, 0x40);
  for (unsigned c = 0; c < 3; ++c) {
    poke(m, SBUF, 10 + c, 0x21, 1, {c == 1 ? 1u : 0u, 0});
    poke(m, PSUM, 30 + c, 0x40, 2, {0xA000 + c});
  }
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 20, 0x10, 2, 2), (V{0xA000, 0xA000}));
  EXPECT_EQ(peek(m, SBUF, 21, 0x10, 2, 2), (V{0, 0xA001}));
  EXPECT_EQ(peek(m, SBUF, 22, 0x10, 2, 2), (V{0xA002, 0xA002}));
  // A register pointer, and an FP32 PSUM destination.
  rm::CopyPredicatedScalarWord y = cps_word(dt::INT32, dt::FP32, 2, 0, 1);
  y.channels = 2;
  y.pred.addr = rm::psum_addr(40, 0x80);
  y.dst.addr = rm::psum_addr(50, 0x3FF8);  // ends exactly at 16 KiB
  y.src0_imm_src = 2;
  y.src0_imm = 63;
  m.registers[63] = rm::sbuf_addr(60, 0x1000);
  poke(m, PSUM, 40, 0x80, 4, {0, 0x80000000});
  poke(m, PSUM, 41, 0x80, 4, {5, 0});
  poke(m, SBUF, 60, 0x1000, 4, {f32(-0.0f)});
  poke(m, SBUF, 61, 0x1000, 4, {0x7FC00001});
  expect_ok(m, y.encode());
  EXPECT_EQ(peek(m, PSUM, 50, 0x3FF8, 4, 2), (V{0, 0x80000000}));
  EXPECT_EQ(peek(m, PSUM, 51, 0x3FF8, 4, 2), (V{0x7FC00001, 0}));
}

TEST(CopyPredicatedScalar, DecisionsComeFromThePredicateAsItWas) {
  // dst is pred shifted by one element: dst[j] is pred[j + 1]. Decisions from the
  // predicate as it was: j = 0, 1, 2 write 0; j = 3 (pred 0) does not.
  // Read live, j = 0 would clear pred[1] and j = 1 would not write.
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 0, 0x100, 4, {1, 1, 1, 0, 0x55});
  rm::CopyPredicatedScalarWord x = cps_word(dt::UINT32, dt::UINT32, 4, 0, 1);
  x.dst.addr = rm::sbuf_addr(0, 0x104);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 5), (V{1, 0, 0, 0, 0x55}));
  // Exactly on the predicate, reversed_pred 0: the zeros become 7, the rest stays.
  poke(m, SBUF, 0, 0x100, 4, {0, 3, 0, 4});
  x.reversed_pred = 0;
  x.src0_imm = 7;
  x.dst.addr = rm::sbuf_addr(0, 0x100);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 4), (V{7, 3, 7, 4}));
}

TEST(CopyPredicatedScalar, ZeroStepDestinationIsWrittenWhenAnyOrdinalSelects) {
  Machine& m = fresh(Generation::V3);
  rm::CopyPredicatedScalarWord x = cps_word(dt::UINT8, dt::INT32, 4, 0xCAFE, 1);
  x.dst = tensor3(rm::sbuf_addr(1, 0x200), 0, 4, 0, 1, 0, 1);
  poke(m, SBUF, 1, 0x200, 4, {0x1234});
  poke(m, SBUF, 0, 0x100, 1, {0, 0, 0, 0});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 2), (V{0x1234, 0}));
  poke(m, SBUF, 0, 0x100, 1, {0, 0, 9, 0});
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 1, 0x200, 4, 2), (V{0xCAFE, 0}));
  // Strided and reversed: pred steps {2}, dst steps {-3}.
  Machine& n = fresh(Generation::V3);
  rm::CopyPredicatedScalarWord y = cps_word(dt::INT8, dt::UINT8, 3, 0xEE, 1);
  y.pred = tensor3(rm::sbuf_addr(0, 0x100), 2, 3, 0, 1, 0, 1);  // bytes 0x100, 0x102, 0x104
  y.dst = tensor3(rm::sbuf_addr(1, 0x206), -3, 3, 0, 1, 0, 1);  // bytes 0x206, 0x203, 0x200
  poke(n, SBUF, 0, 0x100, 1, {1, 1, 0, 1, 1});
  poke(n, SBUF, 1, 0x200, 1, {0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16});
  expect_ok(n, y.encode());
  EXPECT_EQ(peek(n, SBUF, 1, 0x200, 1, 7), (V{0xEE, 0x11, 0x12, 0x13, 0x14, 0x15, 0xEE}));
}

TEST(CopyPredicatedScalar, FaultsChangeNothing) {
  Machine& m = busy_machine();
  rm::CopyPredicatedScalarWord x = cps_word(dt::UINT8, dt::FP32, 4, f32(-5.0f), 1);
  x.ev = kSet9;
  x.channels = 2;
  x.pred.addr = rm::sbuf_addr(0, 0x100);  // busy bytes of 1.0f: 00 00 80 3F
  x.dst.addr = rm::sbuf_addr(2, 0x100);
  rm::CopyPredicatedScalarWord wait = x;
  wait.ev = rm::Events{2, 9, 0, 0, 4};  // semaphore 9 == 4 never holds (it is 3)
  expect_unchanged(m, wait.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  // bad-address: register-mode dst in PSUM with a 2-byte dtype, misaligned, too high.
  rm::CopyPredicatedScalarWord r = cps_word(dt::UINT8, dt::BF16, 4, 0x3F80, 1);
  r.ev = kSet9;
  r.channels = 2;
  r.dst.addr = rm::reg_addr(6);
  for (uint32_t a : {rm::psum_addr(3, 0x100), rm::sbuf_addr(3, 0x101), rm::sbuf_addr(127, 0x100)}) {
    SCOPED_TRACE(testing::Message() << std::hex << a);
    m.registers[6] = a;
    expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  }
  // ... register-mode pred past the partitions; a misaligned register pointer scalar.
  r = x;
  r.pred.addr = rm::reg_addr(7);
  m.registers[7] = rm::sbuf_addr(127, 0x100);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  r = x;
  r.src0_imm_src = 2;
  r.src0_imm = 8;
  m.registers[8] = rm::psum_addr(0, 0x102);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  // shape-mismatch: register mode waived the count clause; the counts differ.
  r = x;
  r.dst = tensor3(rm::reg_addr(6), 1, 3, 0, 1, 0, 1);
  m.registers[6] = rm::sbuf_addr(2, 0x100);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::ShapeMismatch);
  // The address comes before the shape.
  m.registers[6] = rm::sbuf_addr(2, 0x102);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::BadAddress);
  // too-large: 4096 x 4097 ordinals on one element.
  r = x;
  r.pred = tensor3(rm::sbuf_addr(0, 0x100), 0, 4096, 0, 4097, 0, 1);
  r.dst = tensor3(rm::sbuf_addr(2, 0x100), 0, 4096, 0, 4097, 0, 1);
  expect_unchanged(m, r.encode(), Status::Faulted, FaultKind::TooLarge);
  // Equal register-mode counts retire.
  r = x;
  r.dst = tensor3(rm::reg_addr(6), 1, 2, 2, 2, 0, 1);
  m.registers[6] = rm::sbuf_addr(2, 0x100);
  expect_ok(m, r.encode());
  for (unsigned p : {2u, 3u})
    EXPECT_EQ(peek(m, SBUF, p, 0x100, 4, 4), (V{f32(1.0f), f32(2.0f), f32(-5.0f), f32(-5.0f)}));
  EXPECT_EQ(m.semaphores[9], 0x77u);
  // Invalid words change nothing either: a reserved byte, a float predicate.
  Word bad = x.encode();
  bad[36] = 1;
  expect_unchanged(m, bad, Status::Invalid, std::nullopt);
  r = x;
  r.pred_dtype = dt::FP16;
  expect_unchanged(m, r.encode(), Status::Invalid, std::nullopt);
}

}  // namespace
#endif
