// Sort (SPEC §4.4): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.4.
inline ExpectedInstr sort_row() {
  return ExpectedInstr{"Sort",
                       0x96,
                       "S1D2_SORT",
                       Engine::POOL,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"num_active_channels", 12, 1, K::U8},
                           {"index_offset_src", 13, 1, K::ImmSrc},
                           {"in_out_dtype", 14, 1, K::DtypePair},
                           {"comparison", 15, 1, K::AluOp},
                           {"src_mem_pattern", 16, 8, K::Tensor, 1},
                           {"dst_mem_pattern", 24, 12, K::Tensor, 2},
                           {"index_offset", 36, 4, K::ImmVal, 0, "index_offset_src"},
                           {"stable", 40, 1, K::U8},
                           {"reserved1", 41, 23, K::Reserved},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_sort(): 2 channels, FP32 in and out, IS_LT (ascending), stable 1, index_offset
// 100 (instruction immediate). src: TENSOR1D step {1} count {16} (64 bytes) at SBUF
// partition 4 offset 0x100; dst: TENSOR2D steps {1, 2} counts {2, 16} (value, index
// pairs, 128 dense bytes) at partition 4 offset 0x400.
namespace sort_word {
inline constexpr unsigned kChannels = 2;
inline constexpr unsigned kN = 16;
inline constexpr Dtype kDtype = Dtype::FP32;
inline constexpr uint32_t kSrcAddr = sbuf_addr(4, 0x100), kDstAddr = sbuf_addr(4, 0x400);
inline constexpr uint32_t kIndexOffset = 100;
}  // namespace sort_word

inline Word valid_sort() {
  using namespace sort_word;
  return build(Opcode::Sort, {{"num_active_channels", uint64_t{kChannels}},
                              {"in_out_dtype", uint64_t{dtype_pair(kDtype, kDtype)}},
                              {"comparison", uint64_t{static_cast<uint8_t>(AluOp::IS_LT)}},
                              {"src_mem_pattern", tensor(kSrcAddr, {1}, {kN})},
                              {"dst_mem_pattern", tensor(kDstAddr, {1, 2}, {2, kN})},
                              {"index_offset", uint64_t{kIndexOffset}},
                              {"stable", uint64_t{1}}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

inline std::optional<FaultKind> sort(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[12];
  const uint8_t code = w[14] & 0xf;
  const unsigned size = size_of(code);
  const bool descending = w[15] == op::IS_GT;
  const Tensor st = get_tensor(w, 16, 1), dtn = get_tensor(w, 24, 2);
  const auto src = resolve(m, st, size, false, false, n);
  const auto dst = resolve(m, dtn, size, false, true, n);
  const auto off = resolve_imm(m, w[13], get(w, 36, 4), 4, false, n);
  if (!src || !dst || !off) return FaultKind::BadAddress;
  if (st.count() > kWalkLimit || dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto soffs = walk(st, src->offset, size), doffs = walk(dtn, dst->offset, size);
  const unsigned k = dtn.num[1];
  for (unsigned c = 0; c < n; ++c) {
    std::vector<uint32_t> v(soffs.size());
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = load(m, Space::SBUF, src->partition + c, soffs[i], size);
    std::vector<uint32_t> pos(v.size());
    std::iota(pos.begin(), pos.end(), 0u);
    std::sort(pos.begin(), pos.end(), [&](uint32_t a, uint32_t b) {
      int r = sort_compare(code, v[a], v[b]);
      if (descending) r = -r;
      return r != 0 ? r < 0 : a < b;  // ties: increasing original position
    });
    const uint64_t modulus = uint64_t{1} << (8 * size);
    const uint64_t base = off->at(m, c);
    std::vector<uint32_t> out;
    for (unsigned i = 0; i < k; ++i) {
      out.push_back(v[pos[i]]);
      out.push_back(static_cast<uint32_t>((pos[i] + base) % modulus));
    }
    for (std::size_t j = 0; j < doffs.size(); ++j)
      fx.stores.push_back({Space::SBUF, dst->partition + c, doffs[j], size, out[j]});
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

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

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

inline Word valid_sort(Gen& g) {
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

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "Sort",
    .opcode = Opcode::Sort,
    .opcode_clause = "has_sort_opcode",
    .expected_row = expected_rows::sort_row,
    .valid_word = test_words::valid_sort,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) { return refmodel::internal::sort(m, w, fx); },
    .generate = random_words::gen_sort,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_sort,
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
  // ---- Sort (SPEC §4.4) ----
  c.push_back({"sort_dtypes_differ", SORT,
               [](Word& w) { set(w, "in_out_dtype", dtype_pair(Dtype::FP32, Dtype::UINT32)); },
               "sort_dtypes_ok", "in_out_dtype", "0x9"});
  for (Dtype d : {Dtype::INT8, Dtype::UINT8, Dtype::FP32R, Dtype::UINT64, Dtype::FP8_E4,
                  Dtype::FP8_E3, Dtype::INT64}) {
    char value[8];
    std::snprintf(value, sizeof value, "0x%x", static_cast<unsigned>(d));
    c.push_back({"sort_dtype_" + name_of(d), SORT,
                 [d](Word& w) { set(w, "in_out_dtype", dtype_pair(d, d)); }, "sort_dtypes_ok",
                 "in_out_dtype", value});
  }
  // The size limit uses the input dtype: BF16 allows 2048 x 2 although FP32 would not.
  c.push_back({"sort_dtypes_limit_uses_input", SORT,
               [](Word& w) {
                 set(w, "in_out_dtype", dtype_pair(Dtype::BF16, Dtype::FP32));
                 set_num(w, "src_mem_pattern", 0, 2048);
                 set_num(w, "dst_mem_pattern", 1, 2048);
                 set_addr(w, "dst_mem_pattern", sbuf_addr(4, 0x2000));
               },
               "sort_dtypes_ok", "in_out_dtype", "0x6"});
  c.push_back({"sort_index_offset_src_3", SORT, [](Word& w) { set(w, "index_offset_src", 3); },
               "is_valid_enum", "index_offset_src", "0x03"});
  c.push_back({"sort_index_offset_src_ff", SORT, [](Word& w) { set(w, "index_offset_src", 0xff); },
               "is_valid_enum", "index_offset_src", "0xff"});
  c.push_back({"sort_aluop_is_ge", SORT, [](Word& w) { set(w, "comparison", code(AluOp::IS_GE)); },
               "sort_valid_aluop", "comparison", "0x14"});
  c.push_back({"sort_aluop_is_lt_int", SORT,
               [](Word& w) { set(w, "comparison", code(AluOp::IS_LT_INT)); }, "sort_valid_aluop",
               "comparison", "0xd4"});
  c.push_back({"sort_aluop_zero", SORT, [](Word& w) { set(w, "comparison", 0); },
               "sort_valid_aluop", "comparison", "0x00"});
  c.push_back({"sort_stable_2", SORT, [](Word& w) { set(w, "stable", 2); }, "sort_valid_stable",
               "stable", "0x02"});
  c.push_back({"sort_dst_num0_3", SORT, [](Word& w) { set_num(w, "dst_mem_pattern", 0, 3); },
               "sort_tensor_shapes_ok", "dst_mem_pattern", "3"});
  c.push_back({"sort_dst_num0_1", SORT, [](Word& w) { set_num(w, "dst_mem_pattern", 0, 1); },
               "sort_tensor_shapes_ok", "dst_mem_pattern", "1"});
  c.push_back({"sort_k_above_n", SORT, [](Word& w) { set_num(w, "dst_mem_pattern", 1, 17); },
               "sort_tensor_shapes_ok", "dst_mem_pattern", "17"});
  c.push_back({"sort_top_k_strict",
               SORT,
               [](Word& w) { set_num(w, "dst_mem_pattern", 1, 15); },
               "sort_tensor_shapes_ok",
               "dst_mem_pattern",
               "15",
               "",
               1,
               {},
               true});
  c.push_back({"sort_top_1_strict",
               SORT,
               [](Word& w) { set_num(w, "dst_mem_pattern", 1, 1); },
               "sort_tensor_shapes_ok",
               "dst_mem_pattern",
               "1",
               "",
               1,
               {},
               true});
  c.push_back({"sort_limit_fp32", SORT,
               [](Word& w) {
                 set(w, "num_active_channels", 3);
                 set_num(w, "src_mem_pattern", 0, 1024);
                 set_num(w, "dst_mem_pattern", 1, 1024);
                 set_addr(w, "dst_mem_pattern", sbuf_addr(4, 0x2000));
               },
               "sort_tensor_shapes_ok", "src_mem_pattern", "3072", "2048"});
  c.push_back({"sort_limit_fp32_one_over", SORT,
               [](Word& w) {
                 set_num(w, "src_mem_pattern", 0, 1025);
                 set_num(w, "dst_mem_pattern", 1, 1025);
                 set_addr(w, "dst_mem_pattern", sbuf_addr(4, 0x2000));
               },
               "sort_tensor_shapes_ok", "src_mem_pattern", "2050", "2048"});
  c.push_back({"sort_limit_bf16", SORT,
               [](Word& w) {
                 set(w, "in_out_dtype", dtype_pair(Dtype::BF16, Dtype::BF16));
                 set(w, "num_active_channels", 3);
                 set_num(w, "src_mem_pattern", 0, 2048);
                 set_num(w, "dst_mem_pattern", 1, 2048);
                 set_addr(w, "dst_mem_pattern", sbuf_addr(4, 0x2000));
               },
               "sort_tensor_shapes_ok", "src_mem_pattern", "6144", "4096"});
  c.push_back({"sort_src_num0", SORT, [](Word& w) { set_num(w, "src_mem_pattern", 0, 0); },
               "sort_tensor_shapes_ok", "src_mem_pattern", "num=[0]", "num_elem", 2});
  c.push_back({"sort_dst_k0", SORT, [](Word& w) { set_num(w, "dst_mem_pattern", 1, 0); },
               "sort_tensor_shapes_ok", "dst_mem_pattern", "num=[2,0]", "num_elem", 2});
  c.push_back({"sort_index_offset_pointer_psum", SORT,
               [](Word& w) {
                 set(w, "index_offset_src", 1);
                 set(w, "index_offset", psum_addr(0, 0x100));
               },
               "has_valid_immediates", "index_offset", "0x02000100", "SBUF"});
  c.push_back({"sort_index_offset_pointer_partitions", SORT,
               [](Word& w) {
                 set(w, "index_offset_src", 1);
                 set(w, "index_offset", sbuf_addr(127, 0x800));
               },
               "has_valid_immediates", "index_offset", "0x01fc0800"});
  c.push_back({"sort_index_offset_pointer_misaligned", SORT,
               [](Word& w) {
                 set(w, "index_offset_src", 1);
                 set(w, "index_offset", sbuf_addr(4, 0x802));
               },
               "has_valid_immediates", "index_offset", "0x00100802"});
  c.push_back({"sort_index_offset_pointer_mode_bits", SORT,
               [](Word& w) {
                 set(w, "index_offset_src", 1);
                 set(w, "index_offset", 0x60000800);
               },
               "has_valid_immediates", "index_offset", "0x60000800"});
  c.push_back({"sort_index_offset_register_id_64", SORT,
               [](Word& w) {
                 set(w, "index_offset_src", 2);
                 set(w, "index_offset", 64);
               },
               "has_valid_immediates", "index_offset", "0x00000040"});
  c.push_back({"sort_index_offset_register_upper_bytes", SORT,
               [](Word& w) {
                 set(w, "index_offset_src", 2);
                 set(w, "index_offset", 0x0000ff3f);
               },
               "has_valid_immediates", "index_offset", "0x0000ff3f"});
  c.push_back({"sort_channels_0", SORT, [](Word& w) { set(w, "num_active_channels", 0); },
               "check_active_channels", "num_active_channels", "0", "1..128"});
  c.push_back({"sort_src_start_partition", SORT,
               [](Word& w) { set_addr(w, "src_mem_pattern", sbuf_addr(127, 0x100)); },
               "start_addr_active_channels", "src_mem_pattern", "127"});
  c.push_back({"sort_dst_start_partition", SORT,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(127, 0x400)); },
               "start_addr_active_channels", "dst_mem_pattern", "127"});
  for (unsigned b : {41u, 50u, 63u})
    c.push_back({"sort_reserved_byte" + std::to_string(b), SORT, [b](Word& w) { w[b] = 4; },
                 "reserved_zero", "reserved1", "0x04"});
  return c;
}
GPSIMD_CLAUSE_CASES(Sort, clause_cases);

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4) ----

// ---- Sort (SPEC §4.4) -------------------------------------------------------------------

TEST(Sort, SpecHeaderExampleEveryDtypeBothDirections) {
  struct Enc9 {
    uint8_t code;
    uint32_t v9, v3, v5, v1;
  };
  const Enc9 encs[] = {
      {dt::INT16, 9, 3, 5, 1},
      {dt::UINT16, 9, 3, 5, 1},
      {dt::INT32, 9, 3, 5, 1},
      {dt::UINT32, 9, 3, 5, 1},
      {dt::FP16, 0x4880, 0x4200, 0x4500, 0x3C00},
      {dt::BF16, 0x4110, 0x4040, 0x40A0, 0x3F80},
      {dt::FP32, 0x41100000, 0x40400000, 0x40A00000, 0x3F800000},
  };
  for (const Enc9& e : encs) {
    for (uint8_t stable : {uint8_t{0}, uint8_t{1}}) {
      SCOPED_TRACE(testing::Message() << int{e.code} << " stable " << int{stable});
      const unsigned size = rm::size_of(e.code);
      for (uint8_t cmp : {op::IS_LT, op::IS_GT}) {
        Machine& m = fresh(Generation::V2);
        poke(m, SBUF, 10, 0x100, size, {e.v9, e.v3, e.v5, e.v1, 0, 0});
        rm::SortWord x = sort_word(e.code, cmp, 6, 6, 100);
        x.stable = stable;
        expect_ok(m, x.encode());
        const V want = cmp == op::IS_LT
                           ? pairs({0, 0, e.v1, e.v3, e.v5, e.v9}, {104, 105, 103, 101, 102, 100})
                           : pairs({e.v9, e.v5, e.v3, e.v1, 0, 0}, {100, 102, 101, 103, 104, 105});
        EXPECT_EQ(peek(m, SBUF, 10, 0x800, size, 12), want);
      }
    }
  }
}

TEST(Sort, TiesComeOutInIncreasingPosition) {
  for (uint8_t stable : {uint8_t{0}, uint8_t{1}}) {
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 10, 0x100, 4, {5, 1, 5, 1, 5});
    rm::SortWord x = sort_word(dt::INT32, op::IS_LT, 5, 5, 0);
    x.stable = stable;
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, 4, 10), pairs({1, 1, 5, 5, 5}, {1, 3, 0, 2, 4}));
    x.comparison = op::IS_GT;
    poke(m, SBUF, 10, 0x100, 4, {5, 1, 5, 1, 5});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, 4, 10), pairs({5, 5, 5, 1, 1}, {0, 2, 4, 1, 3}));
  }
}

TEST(Sort, SignedZerosAreEqual) {
  struct Case {
    uint8_t code;
    uint32_t pz, nz, minus_one;
  };
  for (const Case& c : {Case{dt::FP32, 0, 0x80000000, 0xBF800000},
                        Case{dt::FP16, 0, 0x8000, 0xBC00}, Case{dt::BF16, 0, 0x8000, 0xBF80}}) {
    const unsigned size = rm::size_of(c.code);
    for (uint8_t cmp : {op::IS_LT, op::IS_GT}) {
      SCOPED_TRACE(testing::Message() << int{c.code} << " " << int{cmp});
      Machine& m = fresh(Generation::V3);
      poke(m, SBUF, 10, 0x100, size, {c.pz, c.nz, c.minus_one, c.nz, c.pz});
      expect_ok(m, sort_word(c.code, cmp, 5, 5, 0).encode());
      const V want = cmp == op::IS_LT
                         ? pairs({c.minus_one, c.pz, c.nz, c.nz, c.pz}, {2, 0, 1, 3, 4})
                         : pairs({c.pz, c.nz, c.nz, c.pz, c.minus_one}, {0, 1, 3, 4, 2});
      EXPECT_EQ(peek(m, SBUF, 10, 0x800, size, 10), want);
    }
  }
}

TEST(Sort, NaNsAreAboveInfinityAndEqual) {
  struct Case {
    uint8_t code;
    uint32_t nan, one, ninf, nnan, pinf;
  };
  for (const Case& c : {Case{dt::FP32, 0x7FC00000, 0x3F800000, kNegInf, 0xFFC00001, 0x7F800000},
                        Case{dt::FP16, 0x7E00, 0x3C00, 0xFC00, 0xFE01, 0x7C00},
                        Case{dt::BF16, 0x7FC0, 0x3F80, 0xFF80, 0xFF81, 0x7F80}}) {
    SCOPED_TRACE(int{c.code});
    const unsigned size = rm::size_of(c.code);
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 10, 0x100, size, {c.nan, c.one, c.ninf, c.nnan, c.pinf});
    expect_ok(m, sort_word(c.code, op::IS_LT, 5, 5, 0).encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, size, 10),
              pairs({c.ninf, c.one, c.pinf, c.nan, c.nnan}, {2, 1, 4, 0, 3}));
    expect_ok(m, sort_word(c.code, op::IS_GT, 5, 5, 0).encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, size, 10),
              pairs({c.nan, c.nnan, c.pinf, c.one, c.ninf}, {0, 3, 4, 1, 2}));
  }
}

TEST(Sort, IntegersCompareSignedOrUnsigned) {
  struct Case {
    uint8_t code;
    V in, values, idx;
  };
  const Case cases[] = {
      {dt::INT16, {0xFFFF, 1, 0x8000, 0x7FFF}, {0x8000, 0xFFFF, 1, 0x7FFF}, {2, 0, 1, 3}},
      {dt::UINT16, {0xFFFF, 1, 0x8000, 0x7FFF}, {1, 0x7FFF, 0x8000, 0xFFFF}, {1, 3, 2, 0}},
      {dt::INT32,
       {0xFFFFFFFF, 1, 0x80000000, 0x7FFFFFFF},
       {0x80000000, 0xFFFFFFFF, 1, 0x7FFFFFFF},
       {2, 0, 1, 3}},
      {dt::UINT32,
       {0xFFFFFFFF, 1, 0x80000000, 0x7FFFFFFF},
       {1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF},
       {1, 3, 2, 0}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int{c.code});
    const unsigned size = rm::size_of(c.code);
    Machine& m = fresh(Generation::V3);
    poke(m, SBUF, 10, 0x100, size, c.in);
    expect_ok(m, sort_word(c.code, op::IS_LT, 4, 4, 0).encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, size, 8), pairs(c.values, c.idx));
  }
}

// Index = (position + index_offset) mod 2^16 or 2^32, unsigned, for float dtypes too.
TEST(Sort, IndexOffsetWrapsAround) {
  struct Case {
    uint8_t code;
    uint32_t offset;
    V idx;  // of sorted positions 3, 2, 1, 0
  };
  const Case cases[] = {
      {dt::UINT16, 0xFFFE, {1, 0, 0xFFFF, 0xFFFE}},
      {dt::BF16, 0x12345678, {0x567B, 0x567A, 0x5679, 0x5678}},
      {dt::UINT32, 0xFFFFFFFF, {2, 1, 0, 0xFFFFFFFF}},
      {dt::FP32, 0xFFFFFFFD, {0, 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int{c.code});
    const unsigned size = rm::size_of(c.code);
    // Values decreasing by position, so the ascending order is positions 3, 2, 1, 0.
    const V in = c.code == dt::BF16   ? V{0x4040, 0x4000, 0x3F80, 0}
                 : c.code == dt::FP32 ? V{0x40400000, 0x40000000, 0x3F800000, 0}
                                      : V{3, 2, 1, 0};
    Machine& m = fresh(Generation::V4);
    poke(m, SBUF, 10, 0x100, size, in);
    expect_ok(m, sort_word(c.code, op::IS_LT, 4, 4, c.offset).encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, size, 8), pairs({in[3], in[2], in[1], in[0]}, c.idx));
  }
}

TEST(Sort, TopK) {
  Machine& m = fresh(Generation::V3);
  poke(m, SBUF, 10, 0x100, 4, {9, 3, 5, 1, 0, 0});
  poke(m, SBUF, 10, 0x800 + 24, 4, {0xAAAAAAAA, 0xBBBBBBBB});  // just past the 3 pairs
  const Word w = sort_word(dt::INT32, op::IS_LT, 6, 3, 0).encode();
  expect_ok(m, w);
  EXPECT_EQ(peek(m, SBUF, 10, 0x800, 4, 8), (V{0, 4, 0, 5, 1, 3, 0xAAAAAAAA, 0xBBBBBBBB}));
  // Vendor-strict validation rejects top-K and changes nothing.
  const Machine& before = copy_of(m, 2);
  const ExecResult r = gpsimd::execute(m, w, ExecOptions{.strict = true});
  EXPECT_EQ(r.status, Status::Invalid);
  EXPECT_TRUE(gpsimd::has_clause(r.diagnostics, "sort_tensor_shapes_ok")) << r.message();
  EXPECT_TRUE(m == before);
}

TEST(Sort, IndexOffsetFromPointerAndRegister) {
  for (uint8_t src : {uint8_t{1}, uint8_t{2}}) {
    SCOPED_TRACE(int{src});
    Machine& m = fresh(Generation::V3);
    rm::SortWord x = sort_word(dt::UINT16, op::IS_GT, 3, 3, 0);
    x.channels = 2;
    x.index_offset_src = src;
    x.index_offset = src == 1 ? rm::sbuf_addr(50, 0x20) : 33;
    m.registers[33] = rm::sbuf_addr(50, 0x20);
    poke(m, SBUF, 50, 0x20, 4, {1000});
    poke(m, SBUF, 51, 0x20, 4, {0x0001FFFF});  // u32 offset; indices wrap mod 2^16
    poke(m, SBUF, 10, 0x100, 2, {7, 9, 8});
    poke(m, SBUF, 11, 0x100, 2, {1, 2, 3});
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 10, 0x800, 2, 6), pairs({9, 8, 7}, {1001, 1002, 1000}));
    EXPECT_EQ(peek(m, SBUF, 11, 0x800, 2, 6), pairs({3, 2, 1}, {1, 0, 0xFFFF}));
  }
}

}  // namespace
#endif
