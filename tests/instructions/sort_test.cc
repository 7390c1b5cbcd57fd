// Sort (SPEC §4.4): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "kernels_equiv.h"

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

namespace gpsimd::kernels_equiv {
namespace {

const Dtype kSortDtypes[] = {Dtype::FP16, Dtype::BF16,   Dtype::UINT16, Dtype::INT16,
                             Dtype::FP32, Dtype::UINT32, Dtype::INT32};

// A Sort destination of K (value, index) pairs: usually dense, sometimes strided or
// backwards, placed in partition pd of the window.
TensorDesc sort_dst(Rng& rng, unsigned K, unsigned size, Window& win, unsigned pd) {
  TensorDesc dst;
  dst.dims = 2;
  dst.num = {2, static_cast<uint16_t>(K), 1};
  dst.step = {1, 2, 0};
  if (rng.chance(0.3))
    dst.step = {static_cast<int16_t>(rng.in(-3, 3)), static_cast<int16_t>(rng.in(-9, 9)), 0};
  place(rng, dst, size, win, pd);
  return dst;
}

// A Sort word's opcode, channels, dtypes, direction and tensors.
Word sort_fields(Rng& rng, unsigned n, Dtype dt, const TensorDesc& src, const TensorDesc& dst) {
  Word w{};
  w[0] = 0x96;
  w[1] = 0x10;
  w[12] = static_cast<uint8_t>(n);
  w[14] = static_cast<uint8_t>(static_cast<uint8_t>(dt) | static_cast<uint8_t>(dt) << 4);
  w[15] = rng.chance(0.5) ? 0x16 : 0x13;
  store_tensor(w, 16, src);
  store_tensor(w, 24, dst);
  return w;
}

unsigned sort_limit(Dtype dt) {
  return *dtype_size(dt) == 2 ? 4096 : 2048;  // N x channels
}

// The index offsets of a Sort word of n channels: an instruction immediate (0 or one that
// wraps), or now and then one per channel read from SBUF (within the first `bytes` of
// the partitions).
void sort_offsets(Rng& rng, Machines& m, Word& w, unsigned n, uint32_t bytes = 4096) {
  if (rng.chance(0.2)) {
    w[13] = 1;
    const uint32_t off = rng.below(bytes / 4) * 4;
    const unsigned pp = rng.below(kPartitions - n + 1);
    store_u32(w, 36, encode_static_addr({Space::SBUF, pp, off}));
    for (unsigned c = 0; c < n; ++c) {
      const uint32_t v = static_cast<uint32_t>(rng.bits());
      std::memcpy(m.a.partition(Space::SBUF, pp + c).data() + off, &v, 4);
      std::memcpy(m.b.partition(Space::SBUF, pp + c).data() + off, &v, 4);
      m.touched.emplace_back(Space::SBUF, pp + c);
    }
  } else {
    store_u32(w, 36, rng.chance(0.5) ? 0 : static_cast<uint32_t>(rng.bits()));
  }
}

// Sort of contiguous runs of up to 32 elements, the shape kernels/sort_network.cc sorts in
// registers channel after channel (one-vector runs two channels at a time): every N from
// 1 to 32, K <= N, destinations mostly dense, offsets sometimes one per channel. "At end" cases put
// the sources at the very end of the last partitions, where the kernel must not read past the run
// (it copies it first); they compare whole machines.
Word sort_word(Rng& rng, Machines& m, bool large) {
  const Dtype dt = rng.pick(kSortDtypes);
  const unsigned size = *dtype_size(dt);
  const unsigned limit = sort_limit(dt);
  unsigned n = large ? 1 : random_channels(rng);
  unsigned N;
  if (large) {
    N = limit;
  } else {
    const unsigned sizes[] = {1,  2,  3,   7,   8,   15,  16,  17,  31,  32,
                              33, 64, 100, 128, 129, 255, 256, 257, 1000};
    N = rng.pick(sizes);
  }
  if (N * n > limit) n = limit / N;
  const unsigned K = rng.chance(0.6) ? N : 1 + rng.below(N);
  Window win;
  win.bytes = large ? 65536 : 8192;
  const unsigned p = rng.below(kPartitions - n + 1);
  TensorDesc src = random_walk(rng, 1, N, 0, size, win, p);
  const unsigned pd = rng.chance(0.7) ? p : rng.below(kPartitions - n + 1);
  const TensorDesc dst = sort_dst(rng, K, size, win, pd);
  fill2(rng, m, win, p, pd, n, dt, rng.chance(0.5));
  Word w = sort_fields(rng, n, dt, src, dst);
  sort_offsets(rng, m, w, n, win.bytes);
  w[40] = static_cast<uint8_t>(rng.below(2));
  return w;
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

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
    .kernel_words = {{kernels_equiv::sort_word, 14, 400, 14}},
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

namespace gpsimd::kernels_equiv {
namespace {

Word sort_run_word(Rng& rng, Machines& m, bool at_end) {
  const Dtype dt = rng.pick(kSortDtypes);
  const unsigned size = *dtype_size(dt);
  const unsigned limit = sort_limit(dt);
  const unsigned N = 1 + rng.below(32);
  unsigned n = random_channels(rng);
  if (N * n > limit) n = limit / N;
  const unsigned K = rng.chance(0.6) ? N : 1 + rng.below(N);
  Window win;
  const unsigned p = at_end ? kPartitions - n : rng.below(kPartitions - n + 1);
  fill2(rng, m, win, p, p, n, dt, rng.chance(0.5));
  TensorDesc src;
  src.dims = 1;
  src.num = {static_cast<uint16_t>(N), 1, 1};
  src.step = {1, 0, 0};
  if (at_end) {
    const uint32_t off = m.a.partition_bytes(Space::SBUF) - N * size;
    for (unsigned c = p; c < p + n; ++c)
      for (Machine* x : {&m.a, &m.b}) {
        uint8_t* part = x->partition(Space::SBUF, c).data();
        std::memcpy(part + off, part, N * size);
      }
    src.addr = encode_static_addr({Space::SBUF, p, off});
  } else {
    place(rng, src, size, win, p);
  }
  const TensorDesc dst = sort_dst(rng, K, size, win, p);
  Word w = sort_fields(rng, n, dt, src, dst);
  sort_offsets(rng, m, w, n);
  w[40] = static_cast<uint8_t>(rng.below(2));
  return w;
}

// Sort of 32-bit dtypes beyond the in-register runs (kernels/sort32.cc: presorted and
// reversed checks, a bitonic network up to 64 keys, vqsort up to 128, else a radix
// pass, then sorting networks, vqsort for the crowded buckets): N from 33 to the limit, several
// channels, top-K, strided and reversed source walks, and the key distributions that change its
// path: spread out, all equal, two or a few distinct values, sorted, reversed (also in runs of
// equal values), a narrow range (crowded buckets), a tight cluster with outliers, magnitudes over
// many octaves (skewed), uniform and about normal values (FP32's value-linear buckets),
// and FP32's NaNs, ±0 and ±inf.
const Dtype kSort32Dtypes[] = {Dtype::FP32, Dtype::UINT32, Dtype::INT32};

// The value of slot j of a partition under distribution `mode`.
uint32_t sort32_value(Rng& rng, Dtype dt, unsigned mode, uint32_t j, const uint32_t* pool,
                      const std::vector<uint32_t>& edges) {
  const bool fp = dt == Dtype::FP32;
  auto number = [&](int64_t x) {  // the dtype's pattern of a small integer
    return fp ? std::bit_cast<uint32_t>(static_cast<float>(x)) : static_cast<uint32_t>(x);
  };
  switch (mode) {
    case 0:  // spread out: random bits, some edge values
      return rng.chance(0.1) ? edges[rng.below(edges.size())] : static_cast<uint32_t>(rng.bits());
    case 1:  // all equal
      return pool[0];
    case 2:  // two distinct values (or equal ones)
      return pool[rng.below(2)];
    case 3:  // a few distinct values
      return pool[rng.below(7)];
    case 4:  // ascending in address order
      return number(int64_t{j} * 3 - 5000);
    case 5:  // descending in address order
      return number(5000 - int64_t{j} * 3);
    case 6:  // a narrow range: many ties in every bucket
      return number(static_cast<int64_t>(rng.below(40)) - (dt == Dtype::UINT32 ? 0 : 20));
    case 7:  // a tight cluster and a few far outliers: one crowded bucket
      return rng.chance(0.02) ? static_cast<uint32_t>(rng.bits())
                              : number(1000 + static_cast<int64_t>(rng.below(300)));
    case 8: {  // magnitudes spread over many octaves: skewed in key order
      const unsigned octave = rng.below(30);
      if (fp) {
        const float f = std::ldexp(1.0f + static_cast<float>(rng.below(1u << 20)) * 0x1p-20f,
                                   -static_cast<int>(octave));
        return std::bit_cast<uint32_t>(rng.chance(0.5) ? -f : f);
      }
      const uint32_t x = static_cast<uint32_t>(rng.bits()) >> (octave + 1);
      return dt == Dtype::INT32 && rng.chance(0.5) ? 0u - x : x;
    }
    case 9:  // a range a few times n wide: two or more key values per bucket
      return number(static_cast<int64_t>(rng.below(5000)));
    case 11:  // descending with runs of equal values, long and short
      return number(3000 - static_cast<int64_t>(j / (j % 64 < 40 ? 1 : 5)));
    case 12:  // ascending with runs of equal values
      return number(static_cast<int64_t>(j / 3) - 1000);
    case 15:  // descending, an equal pair now and then
      return number(5000 - int64_t{j} * 3 + (j % 97 == 0 ? 3 : 0));
    case 13:  // FP32: uniform in [-1000, 1000) (value-linear buckets), some ±0; others: bits
      if (!fp) return static_cast<uint32_t>(rng.bits());
      if (rng.chance(0.01)) return rng.chance(0.5) ? 0x80000000u : 0u;
      return std::bit_cast<uint32_t>(static_cast<float>(rng.below(1u << 24)) * 0x1p-23f * 1000.f -
                                     1000.f);
    case 14: {  // about normal: the sum of four uniforms, duplicates from coarse steps
      int64_t sum = 0;
      for (int t = 0; t < 4; ++t) sum += static_cast<int64_t>(rng.below(1u << 12));
      return fp ? std::bit_cast<uint32_t>(static_cast<float>(sum - 8192) * 0x1p-10f)
                : number(sum - 8192);
    }
    default:  // edge values only (for FP32: NaNs with payloads, ±0, ±inf, subnormals)
      return edges[rng.below(edges.size())];
  }
}

// The shape of a Sort word beyond the in-register runs (sort32_word, sort16_word): N above
// 32 (one of `sizes`, or any up to `limit`), one channel or several (N x channels within
// `limit`), top-K, a strided or reversed source walk in a 64 KiB window, the destination
// mostly on the source's partitions.
struct LargeSortShape {
  unsigned N, n, K;
  Window win;
  unsigned p, pd;  // the source's and the destination's first partitions
  TensorDesc src, dst;
};
LargeSortShape large_sort_shape(Rng& rng, unsigned limit, std::span<const unsigned> sizes,
                                unsigned elem) {
  LargeSortShape s;
  s.N = rng.chance(0.3) ? 33 + rng.below(limit - 32) : sizes[rng.below(sizes.size())];
  s.n = rng.chance(0.5) ? 1 : 1 + rng.below(limit / s.N);
  s.K = rng.chance(0.6) ? s.N : 1 + rng.below(s.N);
  s.win.bytes = 65536;
  s.p = rng.below(kPartitions - s.n + 1);
  s.src = random_walk(rng, 1, s.N, 0, elem, s.win, s.p);
  s.pd = rng.chance(0.7) ? s.p : rng.below(kPartitions - s.n + 1);
  s.dst = sort_dst(rng, s.K, elem, s.win, s.pd);
  return s;
}

Word sort32_word(Rng& rng, Machines& m, bool) {
  const Dtype dt = rng.pick(kSort32Dtypes);
  static constexpr unsigned kSizes[] = {33,   34,   63,   64,   65,   100,  127,  128, 129, 130,
                                        200,  255,  256,  257,  300,  511,  512,  513, 777, 1000,
                                        1023, 1024, 1025, 1500, 2000, 2046, 2047, 2048};
  const auto [N, n, K, win, p, pd, src, dst] = large_sort_shape(rng, 2048, kSizes, 4);
  // The destination's partitions get random bits; the sources one distribution each.
  fill(rng, m, win, pd, n, dt);
  const std::vector<uint32_t> edges = edge_values(dt);
  // Mode 16: a crowded low byte of key' over one high byte, now and then another high
  // byte (BF16's [1, 2] with 2.0 rounded up): both scatters, the second after a recount
  // of the quarters, with long runs of one bucket in each; edge values mixed in.
  const unsigned mode = rng.below(17);
  for (unsigned q = p; q < p + n; ++q) {
    m.touched.emplace_back(win.space, q);
    uint32_t pool[7];
    for (uint32_t& v : pool)
      v = rng.chance(0.5) ? edges[rng.below(edges.size())] : static_cast<uint32_t>(rng.bits());
    if (rng.chance(0.3)) pool[1] = pool[0] + 1;  // neighbours: often adjacent keys
    uint8_t* pa = m.a.partition(win.space, q).data();
    uint8_t* pb = m.b.partition(win.space, q).data();
    for (uint32_t j = 0; j < win.bytes / 4; ++j) {
      const uint32_t v = sort32_value(rng, dt, mode, j, pool, edges);
      std::memcpy(pa + 4 * j, &v, 4);
      std::memcpy(pb + 4 * j, &v, 4);
    }
  }
  Word w = sort_fields(rng, n, dt, src, dst);
  // Offsets that wrap around 2^32.
  store_u32(w, 36, rng.chance(0.5) ? 0 : static_cast<uint32_t>(rng.bits()));
  w[40] = static_cast<uint8_t>(rng.below(2));
  return w;
}

// Sort of 32-bit dtypes in runs of up to 16 elements, dense: kernels/sort_network.cc packs them
// into 32 bits (dropping low key bits when the keys differ in too many), sorts two
// channels at a time and falls back to 64-bit keys for a channel whose order the
// dropped bits would break. Each channel draws its own distribution (sort32_word's, or
// a cluster of keys that differ only in their lowest bits with a far outlier, which
// forces the fallback), so a pair mixes both outcomes; any number of channels (odd
// counts leave one alone), top-K, offsets that wrap or differ by channel, NaN, ±0 and
// ±inf among the edges.
Word sort_narrow_word(Rng& rng, Machines& m, bool) {
  const Dtype dt = rng.pick(kSort32Dtypes);
  const unsigned N = 1 + rng.below(16);
  const unsigned n = rng.chance(0.3)   ? 128
                     : rng.chance(0.5) ? 1 + rng.below(5)
                                       : 1 + rng.below(128);
  const unsigned K = rng.chance(0.6) ? N : 1 + rng.below(N);
  Window win;
  const unsigned p = rng.below(kPartitions - n + 1);
  TensorDesc src;
  src.dims = 1;
  src.num = {static_cast<uint16_t>(N), 1, 1};
  src.step = {1, 0, 0};
  place(rng, src, 4, win, p);
  const TensorDesc dst = sort_dst(rng, K, 4, win, p);
  const std::vector<uint32_t> edges = edge_values(dt);
  for (unsigned q = p; q < p + n; ++q) {
    m.touched.emplace_back(win.space, q);
    const unsigned mode = rng.below(20);
    uint32_t pool[7];
    for (uint32_t& v : pool)
      v = rng.chance(0.5) ? edges[rng.below(edges.size())] : static_cast<uint32_t>(rng.bits());
    if (rng.chance(0.3)) pool[1] = pool[0] + 1;
    const uint32_t base = static_cast<uint32_t>(rng.bits());
    uint8_t* pa = m.a.partition(win.space, q).data();
    uint8_t* pb = m.b.partition(win.space, q).data();
    for (uint32_t j = 0; j < win.bytes / 4; ++j) {
      uint32_t v;
      if (mode < 16)
        v = sort32_value(rng, dt, mode, j, pool, edges);
      else if (rng.chance(0.15))  // the outlier: the keys then differ in all 32 bits
        v = rng.chance(0.5) ? base ^ 0x80000000u : edges[rng.below(edges.size())];
      else  // the cluster: only the lowest 1 to 4 bits differ
        v = base ^ static_cast<uint32_t>(rng.below(2u << (mode - 16)));
      std::memcpy(pa + 4 * j, &v, 4);
      std::memcpy(pb + 4 * j, &v, 4);
    }
  }
  Word w = sort_fields(rng, n, dt, src, dst);
  sort_offsets(rng, m, w, n);
  w[40] = static_cast<uint8_t>(rng.below(2));
  return w;
}

// Sort of 16-bit dtypes beyond the in-register runs (kernels/sort16.cc: packed words,
// a presorted or reversed check, then up to two stable byte passes, each skipped when
// all keys share the byte): N from 33 to 4096, several channels, top-K, strided and
// reversed source walks, index offsets that wrap around 2^16, and the distributions of
// sort32_word narrowed to 16 bits (FP16/BF16 by format.h's rounding, integers by their
// low bits), with the 16-bit edge values (NaNs with payloads, ±0, ±inf) mixed in.
const Dtype kSort16Dtypes[] = {Dtype::FP16, Dtype::BF16, Dtype::UINT16, Dtype::INT16};

Word sort16_word(Rng& rng, Machines& m, bool) {
  const Dtype dt = rng.pick(kSort16Dtypes);
  const bool fp = dt == Dtype::FP16 || dt == Dtype::BF16;
  const Dtype wide = fp ? Dtype::FP32 : dt == Dtype::INT16 ? Dtype::INT32 : Dtype::UINT32;
  static constexpr unsigned kSizes[] = {33,   34,   63,   64,   65,   100,  127,
                                        128,  129,  255,  256,  257,  511,  1000,
                                        1024, 2047, 2048, 3000, 4095, 4096, 4096};
  const auto [N, n, K, win, p, pd, src, dst] = large_sort_shape(rng, 4096, kSizes, 2);
  fill(rng, m, win, pd, n, dt);
  const std::vector<uint32_t> edges = edge_values(wide), edges16 = edge_values(dt);
  // Mode 16: a crowded low byte of key' over one high byte, now and then another high
  // byte (BF16's [1, 2] with 2.0 rounded up): both scatters, the second after a recount
  // of the quarters, with long runs of one bucket in each; edge values mixed in.
  // Mode 17: every value's low byte 0 (key' shares its low byte unless a NaN is drawn):
  // the low byte's pass skipped, the high byte's alone on the words in position order.
  const unsigned mode = rng.below(18);
  for (unsigned q = p; q < p + n; ++q) {
    m.touched.emplace_back(win.space, q);
    uint32_t pool[7];
    for (uint32_t& v : pool)
      v = rng.chance(0.5) ? edges[rng.below(edges.size())] : static_cast<uint32_t>(rng.bits());
    if (rng.chance(0.3)) pool[1] = pool[0] + (fp ? 0x10000u : 1u);  // often adjacent keys
    uint8_t* pa = m.a.partition(win.space, q).data();
    uint8_t* pb = m.b.partition(win.space, q).data();
    for (uint32_t j = 0; j < win.bytes / 2; ++j) {
      uint32_t v;
      if (mode == 17) {
        v = rng.chance(0.3) ? (0x40u + rng.below(4)) << 8 : rng.below(256) << 8;
      } else if (mode == 16) {
        v = rng.chance(0.01)   ? 0x4000u + rng.below(3)
            : rng.chance(0.02) ? edges16[rng.below(edges16.size())]
                               : 0x3f80u + rng.below(rng.chance(0.5) ? 4 : 128);
      } else {
        const uint32_t w = sort32_value(rng, wide, mode, j, pool, edges);
        v = fp ? narrow_from_fp32(dt, w) : w & 0xffffu;
      }
      if (mode == 0 && rng.chance(0.05)) v = edges16[rng.below(edges16.size())];
      const auto h = static_cast<uint16_t>(v);
      std::memcpy(pa + 2 * j, &h, 2);
      std::memcpy(pb + 2 * j, &h, 2);
    }
  }
  Word w = sort_fields(rng, n, dt, src, dst);
  store_u32(w, 36, rng.chance(0.5) ? 0 : static_cast<uint32_t>(rng.bits()));
  w[40] = static_cast<uint8_t>(rng.below(2));
  return w;
}

// Sort of 16-bit dtypes in runs of up to 32 elements, dense, many channels (the two-vector
// runs are sorted two channels at a time and look their values up by lane permutation):
// every value drawn from a few of the dtype's edge values (NaNs with payloads, ±0, ±inf,
// the extremes), so that most keys tie, and ties of NaNs and of ±0 must keep their own
// bits in position order; sources sometimes at the very end of the partitions.
Word sort_run16_edges_word(Rng& rng, Machines& m, bool at_end) {
  const Dtype dt = rng.pick(kSort16Dtypes);
  const unsigned N = 1 + rng.below(32);
  unsigned n = random_channels(rng);
  if (N * n > 4096) n = 4096 / N;
  const unsigned K = rng.chance(0.6) ? N : 1 + rng.below(N);
  Window win;
  const unsigned p = at_end ? kPartitions - n : rng.below(kPartitions - n + 1);
  fill(rng, m, win, p, n, dt);
  const std::vector<uint32_t> edges = edge_values(dt);
  uint16_t pool[4];
  for (uint16_t& v : pool) v = static_cast<uint16_t>(edges[rng.below(edges.size())]);
  const uint32_t off = at_end ? m.a.partition_bytes(Space::SBUF) - N * 2 : 0;
  for (unsigned c = p; c < p + n; ++c)
    for (uint32_t j = 0; j < (at_end ? N : win.bytes / 2); ++j) {
      const uint16_t v = pool[rng.below(rng.chance(0.3) ? 2 : 4)];
      std::memcpy(m.a.partition(Space::SBUF, c).data() + off + 2 * j, &v, 2);
      std::memcpy(m.b.partition(Space::SBUF, c).data() + off + 2 * j, &v, 2);
    }
  TensorDesc src;
  src.dims = 1;
  src.num = {static_cast<uint16_t>(N), 1, 1};
  src.step = {1, 0, 0};
  if (at_end)
    src.addr = encode_static_addr({Space::SBUF, p, off});
  else
    place(rng, src, 2, win, p);
  const TensorDesc dst = sort_dst(rng, K, 2, win, p);
  Word w = sort_fields(rng, n, dt, src, dst);
  sort_offsets(rng, m, w, n);
  w[40] = static_cast<uint8_t>(rng.below(2));
  return w;
}

TEST(KernelsEquivTest, SortSmallRuns) {
  run_random("SortSmallRuns", sort_run_word, 16, 600, 40);
}
TEST(KernelsEquivTest, SortSmallRuns16Edges) {
  run_random("SortSmallRuns16Edges", sort_run16_edges_word, 41, 600, 40);
}
TEST(KernelsEquivTest, SortNarrowRuns) {
  run_random("SortNarrowRuns", sort_narrow_word, 29, 600, 40);
}

// Found by fuzz_program: FP32 values that are all subnormal span a wide range of keys
// but so narrow a range of values that the value-linear buckets' scale (buckets / range)
// overflowed to inf, and (y - ymin) * scale, inf or 0 * inf = NaN, was converted to an
// integer (undefined behaviour, which the asan preset's UBSan reports). Such a row must
// sort as the reference does, both ways, with or without zeros and negative subnormals.
TEST(KernelsEquivTest, SortOfSubnormals) {
  Rng rng(25);
  for (unsigned variant = 0; variant < 3; ++variant)
    for (uint8_t cmp : {uint8_t{0x13}, uint8_t{0x16}})
      for (unsigned n : {200u, 1024u, 2048u}) {
        Machine a(Generation::V3), b(Generation::V3);
        for (uint32_t j = 0; j < n; ++j) {
          uint32_t v = 1 + rng.below(0x7fffff);  // a positive subnormal
          if (variant >= 1 && rng.chance(0.3)) v |= 0x80000000u;
          if (variant == 2 && rng.chance(0.05)) v = 0;
          std::memcpy(a.partition(Space::SBUF, 0).data() + 4 * j, &v, 4);
          std::memcpy(b.partition(Space::SBUF, 0).data() + 4 * j, &v, 4);
        }
        Word w{};
        w[0] = 0x96;
        w[1] = 0x10;
        w[12] = 1;
        w[14] = static_cast<uint8_t>(static_cast<uint8_t>(Dtype::FP32) * 0x11);
        w[15] = cmp;
        TensorDesc src, dst;
        src.addr = encode_static_addr({Space::SBUF, 0, 0});
        src.dims = 1;
        src.step = {1, 0, 0, 0};
        src.num = {static_cast<uint16_t>(n), 0, 0, 0};
        dst.addr = encode_static_addr({Space::SBUF, 0, 0x4000});
        dst.dims = 2;
        dst.step = {1, 2, 0, 0};
        dst.num = {2, static_cast<uint16_t>(n), 0, 0};
        store_tensor(w, 16, src);
        store_tensor(w, 24, dst);
        ExecOptions ref;
        ref.fast = false;
        const ExecResult ra = execute(a, w);
        const ExecResult rb = execute(b, w, ref);
        ASSERT_EQ(ra.status, Status::Retired)
            << (ra.diagnostics.empty() ? "" : ra.diagnostics[0].message());
        ASSERT_EQ(rb.status, Status::Retired);
        EXPECT_TRUE(a == b) << "variant " << variant << " cmp " << int{cmp} << " N " << n;
      }
}

// Every case compares whole machines ("large" cases), on every target.
TEST(KernelsEquivTest, Sort32LargeN) {
  run_random("Sort32LargeN", sort32_word, 15, 0, 200);
}
TEST(KernelsEquivTest, Sort16LargeN) {
  run_random("Sort16LargeN", sort16_word, 24, 0, 200);
}

}  // namespace
}  // namespace gpsimd::kernels_equiv
#endif
