// Memset (SPEC §4.18): its expected table row, its valid word, the independent reference of
// its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"
#include "kernels_equiv.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.18 (D4_MR).
inline ExpectedInstr memset_row() {
  return ExpectedInstr{"Memset",
                       0x49,
                       "D4_MR",
                       Engine::DVE,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"reserved0", 12, 16, K::Reserved},
                           {"dst_element_count", 28, 4, K::U32},
                           {"dtype", 32, 1, K::Dtype},
                           {"reserved1", 33, 1, K::Reserved},
                           {"num_active_channels", 34, 1, K::U8},
                           {"reserved2", 35, 1, K::Reserved},
                           {"serialization_mode", 36, 1, K::U8},
                           {"reserved3", 37, 3, K::Reserved},
                           {"set_value", 40, 4, K::U32},
                           {"dst_mem_pattern", 44, 20, K::Tensor, 4},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_memset(): 3 channels from partition 5, dtype BF16, set_value 0xBF80 (-1.0).
// dst: TENSOR4D steps {2, 8, 0, 24} counts {4, 3, 1, 2} (24 elements, every other BF16 of
// rows of 8) at SBUF partition 5 offset 0x200; dst_element_count 24.
namespace memset_word {
inline constexpr unsigned kChannels = 3;
inline constexpr unsigned kPartition = 5;
inline constexpr unsigned kCount = 24;
inline constexpr Dtype kDtype = Dtype::BF16;
inline constexpr uint32_t kSetValue = 0xBF80;
inline constexpr uint32_t kDstAddr = sbuf_addr(kPartition, 0x200);
}  // namespace memset_word

inline Word valid_memset() {
  using namespace memset_word;
  return build(Opcode::Memset,
               {{"dst_element_count", uint64_t{kCount}},
                {"dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                {"num_active_channels", uint64_t{kChannels}},
                {"set_value", uint64_t{kSetValue}},
                {"dst_mem_pattern", tensor(kDstAddr, {2, 8, 0, 24}, {4, 3, 1, 2})}});
}

}  // namespace gpsimd::test_words

namespace refmodel {

// Memset (0x49): the D4_MR layout.
struct MemsetWord {
  Events ev;
  uint32_t count = 1;  // dst_element_count
  uint8_t dtype = dt::FP32, channels = 1, serialization = 0;
  uint32_t set_value = 0;
  Tensor dst{.dims = 4};
  gpsimd::Word encode() const {
    gpsimd::Word w;
    put_header(w, 0x49);
    put_events(w, ev);
    put(w, 28, 4, count);
    w[32] = dtype;
    w[34] = channels;
    w[36] = serialization;
    put(w, 40, 4, set_value);
    put_tensor(w, 44, dst);
    return w;
  }
};

namespace internal {

// SPEC §4.18, from its table: 28 dst_element_count, 32 dtype, 34 num_active_channels,
// 40 set_value, 44 dst (TENSOR4D). The engine is an input (DVE by default): ACT faults
// unsupported-op before anything is resolved, POOL may not touch PSUM.
inline std::optional<FaultKind> memset_effect(const Machine& m, const gpsimd::Word& w, Effects& fx,
                                              std::optional<gpsimd::Engine> e) {
  const gpsimd::Engine engine = e.value_or(gpsimd::Engine::DVE);
  if (engine == gpsimd::Engine::ACT) return FaultKind::UnsupportedOp;
  const unsigned n = w[34];
  const unsigned size = size_of(w[32]);
  // The low size bytes of set_value, as they are: the dtype's own bit pattern.
  const uint32_t bits = size == 4 ? get(w, 40, 4) : get(w, 40, size);
  const Tensor dtn = get_tensor(w, 44, 4);
  const auto dst = resolve(m, dtn, size, engine != gpsimd::Engine::POOL, true, n);
  if (!dst) return FaultKind::BadAddress;
  if (dtn.count() > kWalkLimit) return FaultKind::TooLarge;
  const auto offs = walk(dtn, dst->offset, size);
  for (unsigned c = 0; c < n; ++c)
    for (int64_t off : offs) fx.stores.push_back({dst->space, dst->partition + c, off, size, bits});
  return std::nullopt;
}

}  // namespace internal
}  // namespace refmodel

namespace gpsimd::random_words {

// Memset on any engine (ACT faults), every fillable dtype, any set_value of its width,
// 4-D walks of every shape the builder makes, in PSUM with a 4-byte dtype off POOL.
inline Word gen_memset(Builder& b) {
  static constexpr uint8_t kData[] = {
      rm::dt::INT8, rm::dt::UINT8, rm::dt::INT16, rm::dt::UINT16, rm::dt::INT32,  rm::dt::UINT32,
      rm::dt::BF16, rm::dt::FP16,  rm::dt::FP32,  rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5};
  Rng& r = b.rng();
  rm::MemsetWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  b.engine = r.pick<std::optional<gpsimd::Engine>>(
      {std::nullopt, gpsimd::Engine::DVE, gpsimd::Engine::POOL, gpsimd::Engine::DVE,
       r.chance(20) ? gpsimd::Engine::ACT : gpsimd::Engine::POOL});
  x.dtype = kData[r.uin(0, 11)];
  const unsigned size = rm::size_of(x.dtype);
  x.set_value = size == 4 ? r.u32() : r.u32() & ((1u << (8 * size)) - 1);
  const unsigned n = b.channels();
  const uint64_t count = b.count(std::max(1u, 16384 / n));
  x.channels = static_cast<uint8_t>(n);
  x.count = static_cast<uint32_t>(count);
  const bool psum = b.engine != gpsimd::Engine::POOL && size == 4;
  const Space s = psum ? b.space(30) : Space::SBUF;
  x.dst = b.shape(r.uin(1, 4), count, size, s);
  b.place(x.dst, s, b.start_partition(n), n, size, true);
  x.dst.dims = 4;
  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.18: any fillable dtype and set_value of its width, a 4-D walk whose count is
// dst_element_count. The default engine, DVE.
inline Word valid_memset(Gen& g) {
  static constexpr uint8_t kData[] = {0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xd, 0xe, 0xf};
  Word w{};
  w[0] = 0x49;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t dt = g.pick(kData);
  const unsigned size = *dtype_size(dt);
  const auto num = g.nums(4);
  store_u32(w, 28, uint32_t{num[0]} * num[1] * num[2] * num[3]);
  w[32] = dt;
  w[34] = static_cast<uint8_t>(n);
  const auto v = static_cast<uint32_t>(g.rng());
  store_u32(w, 40, size == 4 ? v : v & ((1u << (8 * size)) - 1));
  store_tensor(w, 44, g.tensor(4, num, n, size, false));
  return w;
}

}  // namespace gpsimd::asm_words

namespace gpsimd::kernels_equiv {
namespace {

const Dtype kMemsetData[] = {Dtype::INT8, Dtype::UINT8,  Dtype::INT16,  Dtype::UINT16,
                             Dtype::BF16, Dtype::FP16,   Dtype::INT32,  Dtype::UINT32,
                             Dtype::FP32, Dtype::FP8_E3, Dtype::FP8_E4, Dtype::FP8_E5};

// A Memset on DVE or POOL over a random 4-D walk; `large`: 128 channels of thousands of
// elements (the channels then run in parallel).
Word memset_word(Rng& rng, Machines& m, bool large) {
  Word w{};
  w[0] = 0x49;
  w[1] = 0x10;
  const Engine engines[] = {Engine::DVE, Engine::POOL};
  m.engine = rng.chance(0.3) ? std::nullopt : std::optional<Engine>(rng.pick(engines));
  const unsigned n = large ? 128 : random_channels(rng);
  const Dtype dt = rng.pick(kMemsetData);
  const unsigned size = *dtype_size(dt);
  Window win;
  win.bytes = large ? 49152 : 4096;
  const unsigned p = rng.below(kPartitions - n + 1);
  TensorDesc dst = random_walk(rng, 4, 0, large ? 12000 : 900, size, win, p);
  if (large || rng.chance(0.5)) {  // dense: the kernel's case
    int64_t inner = 1;
    for (unsigned d = 0; d < 4; ++d) {
      dst.step[d] = static_cast<int16_t>(inner);
      inner *= dst.num[d];
    }
    place(rng, dst, size, win, p);
  }
  fill(rng, m, win, p, n, dt);  // old contents, to be overwritten
  store_u32(w, 28, static_cast<uint32_t>(dst.count()));
  w[32] = static_cast<uint8_t>(dt);
  w[34] = static_cast<uint8_t>(n);
  const auto v = static_cast<uint32_t>(rng.bits());
  store_u32(w, 40, size == 4 ? v : v & ((1u << (8 * size)) - 1));
  store_tensor(w, 44, dst);
  return w;
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "Memset",
    .opcode = Opcode::Memset,
    .opcode_clause = "has_memset_opcode",
    .expected_row = expected_rows::memset_row,
    .valid_word = test_words::valid_memset,
    .reference = refmodel::internal::memset_effect,
    .generate = random_words::gen_memset,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_memset,
    .kernel_words = {{kernels_equiv::memset_word, 49, 600, 8}},
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/effects.h"
#include "instructions/validate_cases.h"

namespace gpsimd {
namespace {

constexpr auto MS = Opcode::Memset;

// ---- clause cases (SPEC §4, §6): each mutation of the valid word fails one clause alone ----

std::vector<ClauseCase> clause_cases() {
  std::vector<ClauseCase> c;
  // ---- Memset (SPEC §4.18): 3 channels from partition 5, BF16, 24 elements ----
  for (unsigned b : {12u, 19u, 27u, 33u, 35u, 37u, 39u})
    c.push_back({"ms_reserved_byte" + std::to_string(b), MS, [b](Word& w) { w[b] = 0x10; },
                 "d4_mr_reserved_zero", "reserved", "0x10", "zero"});
  for (uint64_t v : {1u, 2u, 0xffu})
    c.push_back({"ms_serialization_" + std::to_string(v), MS,
                 [v](Word& w) { set(w, "serialization_mode", v); }, "d4_mr_zero_serialization",
                 "serialization_mode", hex8_of(static_cast<unsigned>(v)), "Serial"});
  // memset_set_value_type: the bytes above the dtype's width must be zero.
  c.push_back({"ms_set_value_bf16_high", MS, [](Word& w) { set(w, "set_value", 0x1BF80); },
               "memset_set_value_type", "set_value", "0x0001bf80", "0xffff0000"});
  c.push_back({"ms_set_value_int8_high", MS,
               [](Word& w) {
                 set(w, "dtype", code(Dtype::INT8));
                 set(w, "set_value", 0x1FF);
               },
               "memset_set_value_type", "set_value", "0x000001ff", "0xffffff00"});
  c.push_back({"ms_set_value_fp8_e5_top", MS,
               [](Word& w) {
                 set(w, "dtype", code(Dtype::FP8_E5));
                 set(w, "set_value", 0x80000000u);
               },
               "memset_set_value_type", "set_value", "0x80000000", "0xffffff00"});
  // FP32R passes is_valid_dtype but is in no arm of memset_set_value_type.
  c.push_back({"ms_dtype_fp32r", MS, [](Word& w) { set(w, "dtype", code(Dtype::FP32R)); },
               "memset_set_value_type", "dtype", "FP32R", "FP32, INT32, UINT32"});
  c.push_back({"ms_channels_0", MS, [](Word& w) { set(w, "num_active_channels", 0); },
               "has_valid_active_channel_range", "num_active_channels", "0", "1..128"});
  c.push_back({"ms_dst_start_partition", MS,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(126, 0x200)); },
               "start_addr_active_channels", "dst_mem_pattern", "126"});
  c.push_back({"ms_dst_misaligned", MS,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(5, 0x201)); },
               "tensor4d_valid", "dst_mem_pattern", hex32(sbuf_addr(5, 0x201)), "aligned"});
  // A PSUM write needs a 4-byte dtype (DVE, the default, may touch PSUM).
  c.push_back({"ms_dst_psum_narrow", MS,
               [](Word& w) { set_addr(w, "dst_mem_pattern", psum_addr(5, 0x40)); },
               "tensor4d_valid", "dst_mem_pattern", hex32(psum_addr(5, 0x40))});
  c.push_back({"ms_dst_psum_pool",
               MS,
               [](Word& w) {
                 set(w, "dtype", code(Dtype::FP32));
                 set_addr(w, "dst_mem_pattern", psum_addr(5, 0x40));
               },
               "tensor4d_valid",
               "dst_mem_pattern",
               hex32(psum_addr(5, 0x40)),
               "SBUF",
               1,
               {},
               false,
               Engine::POOL});
  c.push_back({"ms_count_minus_one", MS, [](Word& w) { set(w, "dst_element_count", 23); },
               "d4_mr_dst_element_count", "dst_element_count", "23, count(dst) = 24",
               "dst_element_count must equal count(dst_mem_pattern)"});
  c.push_back({"ms_count_dst_num", MS, [](Word& w) { set_num(w, "dst_mem_pattern", 2, 2); },
               "d4_mr_dst_element_count", "dst_element_count", "24, count(dst) = 48"});
  // Static for a register-mode dst too: both numbers are in the word.
  c.push_back({"ms_count_register_mode", MS,
               [](Word& w) {
                 set_addr(w, "dst_mem_pattern", reg_addr(7));
                 set(w, "dst_element_count", 25);
               },
               "d4_mr_dst_element_count", "dst_element_count", "25, count(dst) = 24"});
  // Exact 64-bit counts: (2^16 - 1)^4 is no u32.
  c.push_back({"ms_count_huge", MS,
               [](Word& w) {
                 set_tensor(w, "dst_mem_pattern",
                            tensor(sbuf_addr(5, 0), {0, 0, 0, 0}, {65535, 65535, 65535, 65535}));
               },
               "d4_mr_dst_element_count", "dst_element_count",
               "count(dst) = 18445618199572250625"});
  return c;
}
GPSIMD_CLAUSE_CASES(Memset, clause_cases);

// SPEC §4.18: a dtype outside is_valid_dtype fails it and memset_set_value_type (in no
// arm); a num_elem of 0 fails tensor4d_valid and the count clause (literal formula).
TEST(MemsetValidate, ClausesSpecTiesTogether) {
  for (uint8_t dt : {uint8_t{0x00}, uint8_t{0x01}, uint8_t{0x0c}, uint8_t{0x10}, uint8_t{0x11},
                     uint8_t{0x19}, uint8_t{0xff}}) {
    const Word w = with(valid_word(MS), [dt](Word& x) { set(x, "dtype", dt); });
    EXPECT_EQ(clauses_of(validate(w, G::V3)),
              (std::vector<std::string>{"is_valid_dtype", "memset_set_value_type"}))
        << hex8_of(dt) << describe(validate(w, G::V3));
  }
  const Word zero = with(valid_word(MS), [](Word& x) { set_num(x, "dst_mem_pattern", 1, 0); });
  EXPECT_EQ(clauses_of(validate(zero, G::V3)),
            (std::vector<std::string>{"d4_mr_dst_element_count", "tensor4d_valid"}))
      << describe(validate(zero, G::V3));
  // dst_element_count 0 with num_elem 0 satisfies the count clause's literal formula.
  const Word both = with(zero, [](Word& x) { set(x, "dst_element_count", 0); });
  EXPECT_EQ(clauses_of(validate(both, G::V3)), (std::vector<std::string>{"tensor4d_valid"}));
}

// SPEC §4.18: every arm of memset_set_value_type accepts its widths' patterns, on every
// engine (the engine changes validation only through PSUM, SPEC §3.9), in strict mode too.
TEST(MemsetValidate, EveryArmAcceptsItsWidth) {
  struct Arm {
    Dtype dt;
    uint32_t widest;
  };
  const Arm arms[] = {
      {Dtype::FP32, 0xffffffffu}, {Dtype::INT32, 0x80000000u}, {Dtype::UINT32, 0xffffffffu},
      {Dtype::UINT16, 0xffff},    {Dtype::INT16, 0x8000},      {Dtype::BF16, 0xffff},
      {Dtype::FP16, 0xfc00},      {Dtype::UINT8, 0xff},        {Dtype::INT8, 0x80},
      {Dtype::FP8_E3, 0xff},      {Dtype::FP8_E4, 0x38},       {Dtype::FP8_E5, 0x7c}};
  for (const Arm& a : arms)
    for (Engine e : kAllEngines)
      for (bool strict : {false, true}) {
        const Word w = with(valid_word(MS), [&](Word& x) {
          set(x, "dtype", code(a.dt));
          set(x, "set_value", a.widest);
        });
        EXPECT_TRUE(validate(w, G::V4, ValidateOptions{strict, e}).empty())
            << name_of(a.dt) << " " << engine_id(e)
            << describe(validate(w, G::V4, ValidateOptions{strict, e}));
      }
}

}  // namespace
}  // namespace gpsimd

namespace {

// ---- hand-checked effects (SPEC §4.18) ----

rm::MemsetWord ms_word(uint8_t dtype, uint32_t value, unsigned channels, unsigned p, uint32_t off,
                       unsigned count) {
  rm::MemsetWord x;
  x.dtype = dtype;
  x.set_value = value;
  x.channels = static_cast<uint8_t>(channels);
  x.count = count;
  x.dst = rm::tensor4(rm::sbuf_addr(p, off), 1, count, 0, 1, 0, 1, 0, 1);
  return x;
}

// SPEC §4.18's NKI example: test_nki_isa_memset fills 128x128 FP32 with 0.2: Memset FP32,
// 128 channels from partition 0, 128 contiguous elements, set_value 0x3E4CCCCD.
TEST(Memset, NkiMemsetExample) {
  Machine& m = fresh(Generation::V3);
  expect_ok(m, ms_word(dt::FP32, 0x3E4CCCCDu, 128, 0, 0x800, 128).encode());
  const V want(128, 0x3E4CCCCDu);
  for (unsigned p = 0; p < 128; ++p) ASSERT_EQ(peek(m, SBUF, p, 0x800, 4, 128), want) << p;
  EXPECT_EQ(peek(m, SBUF, 0, 0x7FC, 4, 1), V{0});  // nothing before
  EXPECT_EQ(peek(m, SBUF, 0, 0xA00, 4, 1), V{0});  // nothing after
}

// SPEC §4.18: set_value is the dtype's own bit pattern, written as is: FP32 0x7F800001 (a
// signalling NaN), BF16 -0.0 0x8000, FP8_E4 1.0 0x38, and the SPEC's NKI conversions 0.2
// into BF16 0x3E4D, -inf into FP16 0xFC00, -1 into INT8 0xFF.
TEST(Memset, TheBitsAreWrittenAsTheyAre) {
  struct Case {
    uint8_t dtype;
    uint32_t value;
  };
  const Case cases[] = {{dt::FP32, 0x7F800001u}, {dt::BF16, 0x8000},   {dt::FP8_E4, 0x38},
                        {dt::BF16, 0x3E4D},      {dt::FP16, 0xFC00},   {dt::INT8, 0xFF},
                        {dt::INT32, 0x00000001}, {dt::UINT16, 0xFFFF}, {dt::FP8_E5, 0x7F}};
  for (const Case& k : cases)
    for (Engine e : {Engine::DVE, Engine::POOL}) {
      Machine& m = fresh(Generation::V2);
      poke(m, SBUF, 9, 0x100, 1, V(64, 0xAB));
      const unsigned size = rm::size_of(k.dtype);
      expect_ok(m, ms_word(k.dtype, k.value, 1, 9, 0x100, 5).encode(), ExecOptions{.engine = e});
      EXPECT_EQ(peek(m, SBUF, 9, 0x100, size, 5), V(5, k.value)) << int{k.dtype};
      EXPECT_EQ(peek(m, SBUF, 9, 0x100 + 5 * size, 1, 1), V{0xAB});  // the next byte kept
    }
}

// The walk decides which elements are written: steps, zero steps, 4 dimensions, negative
// steps; the bytes in between keep their contents.
TEST(Memset, FourDimensionalWalks) {
  Machine& m = fresh(Generation::V4);
  poke(m, SBUF, 2, 0x300, 2, V(32, 0x1111));
  rm::MemsetWord x = ms_word(dt::UINT16, 0xBEEF, 1, 2, 0x300, 0);
  // i0 over 2 (step 3), i1 over 2 (step 0: written twice), i3 over 2 (step 16).
  x.dst = rm::tensor4(rm::sbuf_addr(2, 0x300), 3, 2, 0, 2, 5, 1, 16, 2);
  x.count = 8;
  expect_ok(m, x.encode());
  V want(32, 0x1111);
  for (unsigned j : {0u, 3u, 16u, 19u}) want[j] = 0xBEEF;
  EXPECT_EQ(peek(m, SBUF, 2, 0x300, 2, 32), want);
  // A negative step walks down from the start offset.
  x.dst = rm::tensor4(rm::sbuf_addr(2, 0x33E), -2, 3, 0, 1, 0, 1, 0, 1);
  x.count = 3;
  x.set_value = 0x2222;
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 2, 0x336, 2, 5), (V{0x2222, 0x1111, 0x2222, 0x1111, 0x2222}));
}

// SPEC §3.9: PSUM on DVE with a 4-byte dtype; ACT faults unsupported-op (PSUM allowed in
// validation there); POOL may not touch PSUM; every fault changes nothing. Register-mode
// destinations resolve at execution (bad-address), big walks fault too-large.
TEST(Memset, EnginesFaultsAndRegisters) {
  Machine& m = busy_machine(Generation::V3);
  rm::MemsetWord x = ms_word(dt::FP32, 0x40490FDBu, 2, 0, 0x100, 4);
  x.dst.addr = rm::psum_addr(0, 0x100);
  x.ev = kSet9;
  expect_ok(m, x.encode(), ExecOptions{.engine = Engine::DVE});
  EXPECT_EQ(peek(m, PSUM, 1, 0x100, 4, 4), V(4, 0x40490FDBu));
  EXPECT_EQ(m.semaphores[9], 0x77u);
  expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::UnsupportedOp,
                   ExecOptions{.engine = Engine::ACT});
  expect_unchanged(m, x.encode(), Status::Invalid, std::nullopt,
                   ExecOptions{.engine = Engine::POOL});
  // Through a register: PSUM on POOL, misaligned, partitions beyond 127 fault bad-address.
  x.dst.addr = rm::reg_addr(3);
  for (uint32_t a : {rm::psum_addr(0, 0x100), rm::sbuf_addr(0, 0x102), rm::sbuf_addr(127, 0x100)}) {
    m.registers[3] = a;
    expect_unchanged(m, x.encode(), Status::Faulted, FaultKind::BadAddress,
                     ExecOptions{.engine = Engine::POOL});
  }
  m.registers[3] = rm::sbuf_addr(40, 0x100);
  expect_ok(m, x.encode(), ExecOptions{.engine = Engine::POOL});
  EXPECT_EQ(peek(m, SBUF, 41, 0x100, 4, 5),
            (V{0x40490FDBu, 0x40490FDBu, 0x40490FDBu, 0x40490FDBu, 0}));
  // A walk of 2^24 + 1 elements (zero steps) faults too-large; its count clause holds.
  rm::MemsetWord big = ms_word(dt::INT8, 7, 1, 0, 0, 0);
  big.dst = rm::tensor4(rm::sbuf_addr(0, 0), 0, 4097, 0, 4097, 0, 1, 0, 1);
  big.count = 4097u * 4097u;
  expect_unchanged(m, big.encode(), Status::Faulted, FaultKind::TooLarge);
  // The wait comes first.
  rm::MemsetWord wait = ms_word(dt::FP32, 1, 1, 0, 0, 1);
  wait.ev = rm::Events{1, 9, 0, 0, 0x100};
  expect_unchanged(m, wait.encode(), Status::Faulted, FaultKind::SyncWouldBlock,
                   ExecOptions{.engine = Engine::ACT});
}

}  // namespace
#endif
