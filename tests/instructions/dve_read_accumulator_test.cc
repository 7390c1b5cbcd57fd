// DveReadAccumulator (SPEC §4.13): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests.

#include "instructions/registry.h"

namespace gpsimd::expected_rows {

// SPEC §1 and §4.13.
inline ExpectedInstr dve_read_accumulator_row() {
  return ExpectedInstr{"DveReadAccumulator",
                       0x9b,
                       "D1_RD",
                       Engine::DVE,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"reserved0", 12, 16, K::Reserved},
                           {"dst_element_count", 28, 4, K::U32},
                           {"dtype", 32, 1, K::Dtype},
                           {"negated", 33, 1, K::U8},
                           {"num_active_channels", 34, 1, K::U8},
                           {"reserved1", 35, 9, K::Reserved},
                           {"dst_mem_pattern", 44, 8, K::Tensor, 1},
                           {"reserved2", 52, 12, K::Reserved},
                       }};
}

}  // namespace gpsimd::expected_rows

namespace gpsimd::test_words {

// valid_dve_read_accumulator(): 4 channels, BF16, negated 0. dst: TENSOR1D step {1}
// count {1} at SBUF partition 2 offset 0x300 (channel c writes one BF16 at offset 0x300
// of partition 2 + c, from accumulator 2 + c); dst_element_count 1.
namespace dra_word {
inline constexpr unsigned kChannels = 4;
inline constexpr Dtype kDtype = Dtype::BF16;
inline constexpr unsigned kPartition = 2, kOffset = 0x300;
inline constexpr uint32_t kDstAddr = sbuf_addr(kPartition, kOffset);
}  // namespace dra_word

inline Word valid_dve_read_accumulator() {
  using namespace dra_word;
  return build(Opcode::DveReadAccumulator, {{"dst_element_count", uint64_t{1}},
                                            {"dtype", uint64_t{static_cast<uint8_t>(kDtype)}},
                                            {"num_active_channels", uint64_t{kChannels}},
                                            {"dst_mem_pattern", tensor(kDstAddr, {1}, {1})}});
}

}  // namespace gpsimd::test_words

namespace refmodel::internal {

// SPEC §4.13. Offsets: 32 dtype, 33 negated, 34 channels, 44 dst (TENSOR1D).
inline std::optional<FaultKind> dve_read_accumulator(const Machine& m, const Word& w, Effects& fx) {
  const unsigned n = w[34];
  const uint8_t code = w[32];
  const unsigned size = size_of(code);
  const Tensor dtn = get_tensor(w, 44, 1);
  const auto dst = resolve(m, dtn, size, true, true, n);
  if (!dst) return FaultKind::BadAddress;
  for (unsigned c = 0; c < n; ++c) {
    uint32_t a = m.accumulators[dst->partition + c];
    if (w[33] == 1) a ^= 0x80000000u;
    fx.stores.push_back({dst->space, dst->partition + c, dst->offset, size, narrow(code, a)});
  }
  return std::nullopt;
}

}  // namespace refmodel::internal

namespace gpsimd::random_words {

inline Word gen_dve_read_accumulator(Builder& b) {
  Rng& r = b.rng();
  rm::DveReadAccumulatorWord x;
  const Inject inj = pick_injection(r);
  x.ev = b.events();
  x.dtype = r.pick<uint8_t>({rm::dt::FP8_E3, rm::dt::FP8_E4, rm::dt::FP8_E5, rm::dt::FP16,
                             rm::dt::BF16, rm::dt::FP32, rm::dt::FP32R});
  const unsigned size = rm::size_of(x.dtype);
  const unsigned n = b.channels();
  x.channels = static_cast<uint8_t>(n);
  x.negated = static_cast<uint8_t>(r.in(0, 1));
  const Space ds = b.space(size == 4 ? 40 : 0);
  const unsigned pd = b.start_partition(n);
  x.dst = b.shape(1, 1, size, ds);  // one element, any step
  b.place(x.dst, ds, pd, n, size, true);
  for (unsigned c = 0; c < n; ++c)
    b.set_acc(pd + c, r.chance(40) ? near_tie(r, x.dtype) : random_value(r, rm::dt::FP32));

  if (inj == Inject::Block) b.block(x.ev);
  if (inj == Inject::BadRegister) b.break_register();
  return x.encode();
}

}  // namespace gpsimd::random_words

namespace gpsimd::asm_words {

// SPEC §4.13: one element per channel.
inline Word valid_dve_read_accumulator(Gen& g) {
  static constexpr uint8_t kFloat[] = {0xd, 0xe, 0xf, 0x7, 0x6, 0xa, 0xb};
  Word w{};
  w[0] = 0x9b;
  w[1] = 0x10;
  g.events(w);
  const unsigned n = 1 + g.below(8);
  const uint8_t dt = g.pick(kFloat);
  const unsigned size = *dtype_size(dt);
  store_u32(w, 28, 1);
  w[32] = dt;
  w[33] = static_cast<uint8_t>(g.below(2));
  w[34] = static_cast<uint8_t>(n);
  store_tensor(w, 44, g.tensor(1, {1, 0, 0}, n, size, size == 4 && g.below(2)));
  return w;
}

}  // namespace gpsimd::asm_words

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "DveReadAccumulator",
    .opcode = Opcode::DveReadAccumulator,
    .opcode_clause = "has_dve_read_accumulator_opcode",
    .expected_row = expected_rows::dve_read_accumulator_row,
    .valid_word = test_words::valid_dve_read_accumulator,
    .reference =
        [](const Machine& m, const Word& w, refmodel::internal::Effects& fx,
           [[maybe_unused]] std::optional<Engine> e) {
          return refmodel::internal::dve_read_accumulator(m, w, fx);
        },
    .generate = random_words::gen_dve_read_accumulator,
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = asm_words::valid_dve_read_accumulator,
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include "instructions/validate_cases.h"

namespace gpsimd {
namespace {

// ---- clause cases (SPEC §4, §6): each mutation of the valid word fails one clause alone ----

std::vector<ClauseCase> clause_cases() {
  std::vector<ClauseCase> c;
  // ---- DveReadAccumulator (SPEC §4.13) ----
  for (unsigned b : {12u, 20u, 27u})
    c.push_back({"dra_reserved0_byte" + std::to_string(b), DRA, [b](Word& w) { w[b] = 2; },
                 "d1_rd_reserved_zero", "reserved0", "0x02", "zero"});
  for (unsigned b : {35u, 43u})
    c.push_back({"dra_reserved1_byte" + std::to_string(b), DRA, [b](Word& w) { w[b] = 2; },
                 "d1_rd_reserved_zero", "reserved1", "0x02", "zero"});
  for (unsigned b : {52u, 63u})
    c.push_back({"dra_reserved2_byte" + std::to_string(b), DRA, [b](Word& w) { w[b] = 0xff; },
                 "d1_rd_reserved_zero", "reserved2", "0xff", "zero"});
  c.push_back({"dra_channels_0", DRA, [](Word& w) { set(w, "num_active_channels", 0); },
               "check_active_channels", "num_active_channels", "0", "1..128"});
  for (Dtype d : {Dtype::INT32, Dtype::UINT8, Dtype::INT16, Dtype::UINT32, Dtype::INVALID,
                  Dtype::INT64, Dtype::FP4_E2})
    c.push_back({"dra_dtype_" + name_of(d), DRA, [d](Word& w) { set(w, "dtype", code(d)); },
                 "dve_read_accumulator_type_check", "dtype", name_of(d), "FP32R"});
  c.push_back({"dra_dtype_unknown", DRA, [](Word& w) { set(w, "dtype", 0x20); },
               "dve_read_accumulator_type_check", "dtype", "0x20"});
  c.push_back({"dra_dst_start_partition", DRA,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(125, 0x300)); },
               "start_addr_active_channels", "dst_mem_pattern", "125"});
  c.push_back({"dra_dst_psum_bf16", DRA,
               [](Word& w) { set_addr(w, "dst_mem_pattern", psum_addr(2, 0x300)); },
               "tensor1d_valid", "dst_mem_pattern", "0x02010300", "4-byte"});
  c.push_back({"dra_dst_misaligned", DRA,
               [](Word& w) { set_addr(w, "dst_mem_pattern", sbuf_addr(2, 0x301)); },
               "tensor1d_valid", "dst_mem_pattern", "0x00080301", "aligned"});
  for (uint32_t n : {0u, 2u, 0xffffffffu, 0x100u})
    c.push_back({"dra_dst_element_count_" + std::to_string(n), DRA,
                 [n](Word& w) { set(w, "dst_element_count", n); }, "read_accumulator_dst_size",
                 "dst_element_count", std::to_string(n), "1"});
  c.push_back({"dra_dst_num_2", DRA, [](Word& w) { set_num(w, "dst_mem_pattern", 0, 2); },
               "read_accumulator_dst_size", "dst_mem_pattern", "num=[2]", "num_elem[0]"});
  c.push_back({"dra_dst_num_65535", DRA,
               [](Word& w) {
                 set_step(w, "dst_mem_pattern", 0, 0);
                 set_num(w, "dst_mem_pattern", 0, 65535);
               },
               "read_accumulator_dst_size", "dst_mem_pattern", "num=[65535]"});
  c.push_back({"dra_negated_2", DRA, [](Word& w) { set(w, "negated", 2); },
               "d1_rd_has_valid_negated_field", "negated", "0x02", "0 or 1"});
  c.push_back({"dra_negated_80", DRA, [](Word& w) { set(w, "negated", 0x80); },
               "d1_rd_has_valid_negated_field", "negated", "0x80"});
  return c;
}
GPSIMD_CLAUSE_CASES(DveReadAccumulator, clause_cases);

}  // namespace
}  // namespace gpsimd
#endif
