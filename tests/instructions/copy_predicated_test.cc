// CopyPredicated (SPEC §4.22): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace gpsimd::expected_rows {

// SPEC §1, §4.14 and §4.22: S3S3D3_TT, src0 the predicate, src1 the data.
inline ExpectedInstr copy_predicated_row() {
  return ExpectedInstr{"CopyPredicated",
                       0x72,
                       "S3S3D3_TT",
                       Engine::DVE,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"in0_in1_dtype", 12, 1, K::DtypePair},
                           {"out_dtype", 13, 1, K::Dtype},
                           {"op", 14, 1, K::AluOp},
                           {"num_active_channels", 15, 1, K::U8},
                           {"src0_mem_pattern", 16, 16, K::Tensor, 3},
                           {"src1_mem_pattern", 32, 16, K::Tensor, 3},
                           {"dst_mem_pattern", 48, 16, K::Tensor, 3},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_copy_predicated(): 2 channels from partition 1. src0 (the predicate): UINT8,
// TENSOR3D steps {1, 4, 16} counts {4, 4, 1} (16 elements) at SBUF offset 0x100; src1 (the
// data): FP32, the same shape at offset 0x200; dst: FP32, steps {1, 2, 16} counts {2, 8, 1}
// (16 elements, another shape) at offset 0x400. op BYPASS.
namespace cp_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kPartition = 1;
inline constexpr uint32_t kPredAddr = sbuf_addr(kPartition, 0x100),
                          kDataAddr = sbuf_addr(kPartition, 0x200),
                          kDstAddr = sbuf_addr(kPartition, 0x400);
}  // namespace cp_word

inline Word valid_copy_predicated() {
  using namespace cp_word;
  return build(Opcode::CopyPredicated,
               {{"in0_in1_dtype", uint64_t{dtype_pair(Dtype::UINT8, Dtype::FP32)}},
                {"out_dtype", uint64_t{static_cast<uint8_t>(Dtype::FP32)}},
                {"num_active_channels", uint64_t{kChannels}},
                {"src0_mem_pattern", tensor(kPredAddr, {1, 4, 16}, {4, 4, 1})},
                {"src1_mem_pattern", tensor(kDataAddr, {1, 4, 16}, {4, 4, 1})},
                {"dst_mem_pattern", tensor(kDstAddr, {1, 2, 16}, {2, 8, 1})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.22. Offsets: 12 in0_in1_dtype (lo the predicate, hi the data), 13 out_dtype,
// 15 channels, 16 src0 (the predicate), 32 src1 (the data), 48 dst (TENSOR3D each). The
// engine is not an input (SPEC §3.9): PSUM is always allowed.
inline std::optional<FaultKind> copy_predicated(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[15];
  const unsigned psize = size_of(w[12] & 0xf), size = size_of(w[12] >> 4), osize = size_of(w[13]);
  const Tensor pt = get_tensor(w, 16, 3), st = get_tensor(w, 32, 3), dtn = get_tensor(w, 48, 3);
  const auto pred = resolve(m, pt, psize, true, false, n);
  const auto data = resolve(m, st, size, true, false, n);
  const auto dst = resolve(m, dtn, osize, true, true, n);
  if (!pred || !data || !dst) return FaultKind::BadAddress;
  // A register-mode source may bring both sources into PSUM: bad-address.
  if (pred->space == Space::PSUM && data->space == Space::PSUM) return FaultKind::BadAddress;
  if ((pt.register_mode() || st.register_mode() || dtn.register_mode()) &&
      (pt.count() != st.count() || pt.count() != dtn.count()))
    return FaultKind::ShapeMismatch;
  if (pt.count() > kWalkLimit || st.count() > kWalkLimit || dtn.count() > kWalkLimit)
    return FaultKind::TooLarge;
  const auto poffs = walk(pt, pred->offset, psize), soffs = walk(st, data->offset, size),
             doffs = walk(dtn, dst->offset, osize);
  for (unsigned c = 0; c < n; ++c)
    for (std::size_t j = 0; j < doffs.size(); ++j) {
      // Any bit set is true; the stores are applied after every load (Effects).
      if (load(m, pred->space, pred->partition + c, poffs[j], psize) == 0) continue;
      const uint32_t v = load(m, data->space, data->partition + c, soffs[j], size);
      fx.stores.push_back({dst->space, dst->partition + c, doffs[j], osize, v});
    }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_copy_predicated(Builder& b) {
  using namespace rm::dt;
  Rng& r = b.rng();
  rm::TensorTensorWord x;
  x.opcode = 0x72;
  x.op = 0;  // BYPASS, the only value
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.lo = r.pick<uint8_t>({INT8, UINT8, INT16, UINT16, INT32, UINT32});
  x.hi = x.out = r.pick<uint8_t>(
      {INT8, UINT8, INT16, UINT16, BF16, FP16, INT32, UINT32, FP32, FP8_E3, FP8_E4, FP8_E5});
  const unsigned ps = rm::size_of(x.lo), sd = rm::size_of(x.hi);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 8192 / n));
  x.channels = static_cast<uint8_t>(n);
  // At most one source in PSUM; a PSUM destination has 4-byte elements.
  const unsigned psum_source = r.uin(0, 2);  // 1: the predicate, 2: the data
  const Space sp0 = psum_source == 1 ? b.space(60) : Space::SBUF;
  const Space sp1 = psum_source == 2 ? b.space(60) : Space::SBUF;
  const Space spd = sd == 4 ? b.space(30) : Space::SBUF;
  x.src0 = b.shape(3, count, ps, sp0);
  x.src1 = b.shape(3, count, sd, sp1);
  x.dst = b.shape(3, count, sd, spd);
  const unsigned p0 = b.start_partition(n);
  const rm::Loc ld = b.place(x.dst, spd, b.near_partition(p0, n), n, sd, true);
  const rm::Loc l0 = b.place(x.src0, sp0, p0, n, ps, true);
  const rm::Loc l1 = b.place(x.src1, sp1, b.near_partition(p0, n), n, sd, true);
  // The old destination first (it shows what is not written), then the data, then the
  // predicate, which wins where they overlap.
  b.fill(x.dst, ld, n, sd, [&] { return random_value(r, x.out); });
  b.fill(x.src1, l1, n, sd, [&] { return random_value(r, x.hi); });
  const unsigned density = r.pick<unsigned>({0u, 1u, 50u, 99u, 100u, r.uin(0, 100)});
  b.fill(x.src0, l0, n, ps, [&] { return zero_or_value(r, density, x.lo, false); });
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

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.22: an integer predicate of any width, any data dtype (out == hi), op BYPASS;
// the three walks visit as many elements in other shapes, at most one source in PSUM.
inline Word valid_copy_predicated(Gen& g) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  static constexpr uint8_t kPred[] = {0x2, 0x3, 0x4, 0x5, 0x8, 0x9};
  Word w{};
  w[0] = 0x72;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t lo = g.pick(kPred), hi = g.pick(kData);
  w[12] = static_cast<uint8_t>(lo | hi << 4);
  w[13] = hi;
  w[14] = 0;
  w[15] = static_cast<uint8_t>(n);
  const auto num = g.nums(3);
  const unsigned ps = *dtype_size(lo), sd = *dtype_size(hi);
  const unsigned psum = g.below(3);
  store_tensor(w, 16, g.tensor(3, num, n, ps, psum == 1));
  store_tensor(w, 32, g.tensor(3, {num[2], num[0], num[1], 1}, n, sd, psum == 2));
  store_tensor(w, 48, g.tensor(3, {num[1], num[2], num[0], 1}, n, sd, sd == 4 && g.below(2)));
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {
namespace {

const Dtype kCpPredDtypes[] = {Dtype::INT8,   Dtype::UINT8, Dtype::INT16,
                               Dtype::UINT16, Dtype::INT32, Dtype::UINT32};

// The masked-copy path wants the three walks dense: about half the words have them.
Word copy_predicated_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0x72;
  w[1] = 0x10;
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype pdt = rng.pick(kCpPredDtypes);
  const Dtype dt = rng.pick(kTssDtypes);
  const unsigned psize = *dtype_size(pdt), size = *dtype_size(dt);
  Window win;
  win.bytes = large ? 49152 : 4096;
  if (!large && size == 4 && rng.chance(0.15)) win.space = Space::PSUM;
  const unsigned p = rng.below(kPartitions - n + 1);
  const unsigned ps = rng.chance(0.5) ? p : rng.below(kPartitions - n + 1);
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  const uint64_t t = random_count(rng, large ? 10000 : 900);
  const double dense = rng.chance(0.5) ? 1.0 : 0.3;
  // The predicate in SBUF (at most one source in PSUM), the data and the destination in
  // the window.
  Window pwin = win;
  pwin.space = Space::SBUF;
  const TensorDesc pred = dense_or_random(rng, t, psize, pwin, p, dense);
  const TensorDesc data = dense_or_random(rng, pred.count(), size, win, ps, dense);
  TensorDesc dst = dense_or_random(rng, pred.count(), size, win, pd, dense);
  if (rng.chance(0.15)) {  // exactly on the data
    dst = data;
    dst.addr = encode_static_addr(
        {win.space, pd, check_static_addr(data.addr, Generation::V3).loc.offset});
  }
  fill(rng, m, win, pd, n, dt);
  fill(rng, m, win, ps, n, dt);
  fill_density(rng, m, pwin, p, n, pdt, rng.pick(kDensities), false);
  w[12] = static_cast<uint8_t>(static_cast<uint8_t>(pdt) | static_cast<uint8_t>(dt) << 4);
  w[13] = static_cast<uint8_t>(dt);
  w[15] = static_cast<uint8_t>(n);
  store_tensor(w, 16, pred);
  store_tensor(w, 32, data);
  store_tensor(w, 48, dst);
  return w;
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "CopyPredicated",
    .opcode = Opcode::CopyPredicated,
    .opcode_clause = "has_copy_cast_predicated_opcode",
    .expected_row = expected_rows::copy_predicated_row,
    .valid_word = test_words::valid_copy_predicated,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::copy_predicated(m, w, fx);
        },
    .generate = random_words::gen_copy_predicated,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_copy_predicated,
    .kernel_words = {{kernels_equiv::copy_predicated_word, 72, 400, 4}},
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd {
namespace {

constexpr auto CPR = Opcode::CopyPredicated;

// ---- clause cases (SPEC §4.22, §6): each mutation of the valid word fails one clause alone ----

std::vector<ClauseCase> clause_cases() {
  std::vector<ClauseCase> c;
  auto dtypes = [](Dtype pred, Dtype data, Dtype out) {
    return [=](Word& w) {
      set(w, "in0_in1_dtype", dtype_pair(pred, data));
      set(w, "out_dtype", code(out));
    };
  };
  // s3s3d3_copy_pred_src0_dtype: the predicate is an integer of 1, 2 or 4 bytes.
  c.push_back({"cp_pred_fp32", CPR, dtypes(Dtype::FP32, Dtype::FP32, Dtype::FP32),
               "s3s3d3_copy_pred_src0_dtype", "in0_in1_dtype", "0xa", "INT8"});
  c.push_back({"cp_pred_bf16", CPR, dtypes(Dtype::BF16, Dtype::FP32, Dtype::FP32),
               "s3s3d3_copy_pred_src0_dtype", "in0_in1_dtype", "0x6"});
  c.push_back({"cp_pred_fp8_e4", CPR, dtypes(Dtype::FP8_E4, Dtype::FP32, Dtype::FP32),
               "s3s3d3_copy_pred_src0_dtype", "in0_in1_dtype", "0xe"});
  // is_valid_dtype: FP32R is neither a data nor an output dtype here (the pair stays equal).
  c.push_back({"cp_data_and_out_fp32r", CPR, dtypes(Dtype::UINT8, Dtype::FP32R, Dtype::FP32R),
               "is_valid_dtype", "", "0xb", "", 2});
  // s3s3d3_copy_cast_pred_src1_dst_dtype: out == the data's dtype, raw codes.
  c.push_back({"cp_cast_fp32_to_int32", CPR, dtypes(Dtype::UINT8, Dtype::FP32, Dtype::INT32),
               "s3s3d3_copy_cast_pred_src1_dst_dtype", "out_dtype", "0x8", "data"});
  // s3s3d3_tt_is_zero_op: op is BYPASS, any other byte fails this clause alone.
  c.push_back({"cp_op_add", CPR, [](Word& w) { set(w, "op", code(AluOp::ADD)); },
               "s3s3d3_tt_is_zero_op", "op", "0x04", "BYPASS"});
  c.push_back({"cp_op_gap_0x1e", CPR, [](Word& w) { set(w, "op", 0x1e); }, "s3s3d3_tt_is_zero_op",
               "op", "0x1e", "BYPASS"});
  c.push_back({"cp_op_0xff", CPR, [](Word& w) { set(w, "op", 0xff); }, "s3s3d3_tt_is_zero_op", "op",
               "0xff"});
  // check_active_channels: 1..128.
  c.push_back({"cp_channels_0", CPR, [](Word& w) { set(w, "num_active_channels", 0); },
               "check_active_channels", "num_active_channels", "0", "1..128"});
  // start_addr_active_channels: start + n <= 128.
  c.push_back({"cp_dst_start_127", CPR,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x400)); },
               "start_addr_active_channels", "dst_mem_pattern", ""});
  // tensor3d_valid: a PSUM write needs a 4-byte dtype; element alignment.
  c.push_back({"cp_psum_narrow_write", CPR,
               [](Word& w) {
                 set(w, "in0_in1_dtype", dtype_pair(Dtype::UINT8, Dtype::UINT16));
                 set(w, "out_dtype", code(Dtype::UINT16));
                 set_addr(w, "dst_mem_pattern", psum_addr(1, 0x400));
               },
               "tensor3d_valid", "dst_mem_pattern", ""});
  c.push_back({"cp_data_misaligned", CPR,
               [](Word& w) { set_addr(w, "src1_mem_pattern", sbuf_addr(1, 0x202)); },
               "tensor3d_valid", "src1_mem_pattern", ""});
  // tt_valid_partitions: the predicate and the data not both in PSUM (one may be).
  c.push_back({"cp_both_sources_psum", CPR,
               [](Word& w) {
                 set_addr(w, "src0_mem_pattern", psum_addr(1, 0x100));
                 set_addr(w, "src1_mem_pattern", psum_addr(1, 0x200));
               },
               "tt_valid_partitions", "src1_mem_pattern", "", "PSUM"});
  // The count clauses.
  c.push_back({"cp_src_count", CPR, [](Word& w) { set_num(w, "src1_mem_pattern", 1, 3); },
               "s3s3d3_tt_src_element_cnt_check", "src1_mem_pattern", "count(src1) = 12"});
  c.push_back({"cp_dst_count", CPR, [](Word& w) { set_num(w, "dst_mem_pattern", 1, 9); },
               "s3s3d3_tt_dst_element_cnt_check", "dst_mem_pattern", "count(dst) = 18"});
  return c;
}
GPSIMD_CLAUSE_CASES(CopyPredicated, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4.22) ----

// n elements per operand, one channel, dense: the predicate at SBUF partition 0 offset
// 0x100, the data at 0x200, the destination at 0x300.
rm::TensorTensorWord cp_word(uint8_t pred, uint8_t data, unsigned n) {
  rm::TensorTensorWord x;
  x.opcode = 0x72;
  x.op = 0;
  x.lo = pred;
  x.hi = x.out = data;
  const int s = static_cast<int>(n);
  x.src0 = tensor3(rm::sbuf_addr(0, 0x100), 1, n, s, 1, s, 1);
  x.src1 = tensor3(rm::sbuf_addr(0, 0x200), 1, n, s, 1, s, 1);
  x.dst = tensor3(rm::sbuf_addr(0, 0x300), 1, n, s, 1, s, 1);
  return x;
}

// NKI's test_nki_isa_copypredicated, in small: FP32 a, b, the predicate a <= 0.8 as UINT8,
// dst = b's tile: the result is np.where(a <= 0.8, a, b).
TEST(CopyPredicated, NkiExampleIsWhereOfThePredicate) {
  Machine& m = fresh(Generation::V3);
  const V a = {f32(0.5f), f32(0.9f), f32(0.8f), f32(-1.0f), f32(2.0f)};
  const V b = {f32(10.0f), f32(11.0f), f32(12.0f), f32(13.0f), f32(14.0f)};
  poke(m, SBUF, 0, 0x100, 1, {1, 0, 1, 1, 0});  // a <= 0.8
  poke(m, SBUF, 0, 0x200, 4, a);
  poke(m, SBUF, 0, 0x300, 4, b);
  expect_ok(m, cp_word(dt::UINT8, dt::FP32, 5).encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x300, 4, 5),
            (V{f32(0.5f), f32(11.0f), f32(0.8f), f32(-1.0f), f32(14.0f)}));
}

// SPEC §4.12's truth rule: any bit of the element set, signed and unsigned alike.
TEST(CopyPredicated, AnyBitOfThePredicateIsTrue) {
  struct Case {
    uint8_t pred;
    V p;
    V want;  // of data 1, 2, 3, 4 over an old destination of 9s
  };
  const Case cases[] = {
      {dt::INT16, {0x8000, 0x0100, 0, 0x0001}, {1, 2, 9, 4}},
      {dt::UINT16, {0, 0xFFFF, 0x8000, 0}, {9, 2, 3, 9}},
      {dt::INT32, {0x80000000u, 0, 0x00010000u, 0}, {1, 9, 3, 9}},
      {dt::UINT32, {0, 0, 0, 0x00000100u}, {9, 9, 9, 4}},
      {dt::INT8, {0x80, 0, 0xFF, 1}, {1, 9, 3, 4}},
      {dt::UINT8, {0, 0x10, 0, 0}, {9, 2, 9, 9}},
  };
  for (const Case& c : cases) {
    Machine& m = fresh(Generation::V4);
    poke(m, SBUF, 0, 0x100, rm::size_of(c.pred), c.p);
    poke(m, SBUF, 0, 0x200, 4, {1, 2, 3, 4});
    poke(m, SBUF, 0, 0x300, 4, {9, 9, 9, 9});
    expect_ok(m, cp_word(c.pred, dt::INT32, 4).encode());
    EXPECT_EQ(peek(m, SBUF, 0, 0x300, 4, 4), c.want) << int{c.pred};
  }
}

// The data's bits are copied unchanged: NaN payloads, -0.0, INT32 beyond 2^24, BF16 NaNs.
TEST(CopyPredicated, DataBitsAreCopiedUnchanged) {
  const V fp32 = {0x7F800001u, 0xFFC12345u, 0x80000000u, 0x00000001u, 0x7F800000u};
  const V int32 = {0x01000001u, 0x7FFFFFFFu, 0x80000001u, 0xFFFFFFFFu, 0x00FFFFFFu};
  const V bf16 = {0x7F81u, 0xFFC1u, 0x8000u, 0x0001u, 0xFF80u};
  for (const auto& [dtype, data] :
       {std::pair{dt::FP32, fp32}, std::pair{dt::INT32, int32}, std::pair{dt::BF16, bf16}}) {
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 0, 0x100, 1, {1, 1, 1, 1, 1});
    poke(m, SBUF, 0, 0x200, rm::size_of(dtype), data);
    expect_ok(m, cp_word(dt::UINT8, dtype, 5).encode());
    EXPECT_EQ(peek(m, SBUF, 0, 0x300, rm::size_of(dtype), 5), data);
  }
}

// Every source element is read before any write: a destination on the predicate itself,
// and one a step ahead of the data, see the sources as they were.
TEST(CopyPredicated, SourcesAreReadBeforeAnyWrite) {
  {  // dst == the predicate (UINT8 data): decisions from the old predicate.
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 0, 0x100, 1, {0, 5, 0, 7});
    poke(m, SBUF, 0, 0x200, 1, {0, 0, 3, 0});
    rm::TensorTensorWord x = cp_word(dt::UINT8, dt::UINT8, 4);
    x.dst.addr = rm::sbuf_addr(0, 0x100);
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 0, 0x100, 1, 4), (V{0, 0, 0, 0}));  // 5 and 7 take the data's 0s
  }
  {  // dst one element ahead of the data: each copy is of the old data.
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 0, 0x100, 1, {1, 1, 1, 1});
    poke(m, SBUF, 0, 0x200, 4, {10, 20, 30, 40, 50});
    rm::TensorTensorWord x = cp_word(dt::UINT8, dt::INT32, 4);
    x.dst.addr = rm::sbuf_addr(0, 0x204);
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 0, 0x200, 4, 5), (V{10, 10, 20, 30, 40}));
  }
}

// A zero-step destination: the later written ordinal wins; an ordinal whose predicate is
// zero writes nothing, so it cannot undo an earlier one.
TEST(CopyPredicated, ZeroStepDestinationKeepsTheLastWrittenOrdinal) {
  Machine& m = fresh(Generation::V4);
  poke(m, SBUF, 0, 0x100, 1, {1, 0, 1, 0});
  poke(m, SBUF, 0, 0x200, 4, {1, 2, 3, 4});
  poke(m, SBUF, 0, 0x300, 4, {99});
  rm::TensorTensorWord x = cp_word(dt::UINT8, dt::INT32, 4);
  x.dst = tensor3(rm::sbuf_addr(0, 0x300), 0, 4, 0, 1, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x300, 4, 1), (V{3}));
}

// Several channels read and write their own partitions; a PSUM data operand (nki-library's
// attention_tkg copies a PSUM qk under an SBUF mask) is allowed on whatever engine is given.
TEST(CopyPredicated, ChannelsAndPsumDataOnAnyEngine) {
  for (auto engine : {std::optional<gpsimd::Engine>{}, std::optional{gpsimd::Engine::POOL},
                      std::optional{gpsimd::Engine::ACT}}) {
    Machine& m = fresh(Generation::V3);
    rm::TensorTensorWord x = cp_word(dt::UINT8, dt::FP32, 3);
    x.channels = 2;
    x.src1.addr = rm::psum_addr(0, 0x40);
    for (unsigned c = 0; c < 2; ++c) {
      poke(m, SBUF, c, 0x100, 1, {c == 0 ? 1u : 0u, 1, c == 0 ? 0u : 1u});
      poke(m, PSUM, c, 0x40, 4,
           {f32(1.0f + static_cast<float>(c)), f32(2.0f + static_cast<float>(c)),
            f32(3.0f + static_cast<float>(c))});
    }
    expect_ok(m, x.encode(), ExecOptions{.engine = engine});
    EXPECT_EQ(peek(m, SBUF, 0, 0x300, 4, 3), (V{f32(1.0f), f32(2.0f), 0}));
    EXPECT_EQ(peek(m, SBUF, 1, 0x300, 4, 3), (V{0, f32(3.0f), f32(4.0f)}));
  }
}

// Faults change nothing: both sources resolving into PSUM through a register, a
// register-mode shape mismatch, a walk beyond 2^24, a blocked wait.
TEST(CopyPredicated, FaultsChangeNothing) {
  {
    Machine& m = busy_machine();
    m.registers[5] = rm::psum_addr(0, 0x100);
    rm::TensorTensorWord x = cp_word(dt::INT32, dt::FP32, 4);
    x.src1.addr = rm::psum_addr(0, 0x200);
    x.src0.addr = rm::reg_addr(5);
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress);
  }
  {
    Machine& m = busy_machine();
    m.registers[5] = rm::sbuf_addr(0, 0x200);
    rm::TensorTensorWord x = cp_word(dt::UINT8, dt::FP32, 4);
    x.src1.addr = rm::reg_addr(5);
    x.src1.num[0] = 5;
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::ShapeMismatch);
  }
  {
    Machine& m = busy_machine();
    rm::TensorTensorWord x = cp_word(dt::UINT8, dt::UINT8, 1);
    for (rm::Tensor* t : {&x.src0, &x.src1, &x.dst}) *t = tensor3(t->addr, 0, 4097, 0, 4097, 0, 2);
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::TooLarge);
  }
  {
    Machine& m = busy_machine();
    rm::TensorTensorWord x = cp_word(dt::UINT8, dt::FP32, 4);
    x.ev = rm::Events{2, 9, 0, 0, 4};  // semaphore 9 == 4 never holds (it is 3)
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::SyncWouldBlock);
  }
}

}  // namespace
#endif
