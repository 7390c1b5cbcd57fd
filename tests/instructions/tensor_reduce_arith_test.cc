// TensorReduceArith (SPEC §4.19): its expected table row, its valid word, the independent
// reference of its effect and its random generators, registered for the generic drivers
// (tests/instructions/registry.h); in instruction_test, also its own tests and those of the
// whole family (TensorReduceValidate).

#include "instructions/tensor_reduce.h"

namespace gpsimd::expected_rows {

// SPEC §1, §4.16 and §4.19 (S4D4_TR, Copy's layout).
inline ExpectedInstr tensor_reduce_row(std::string_view mnemonic, uint8_t opcode) {
  return ExpectedInstr{mnemonic,
                       opcode,
                       "S4D4_TR",
                       Engine::DVE,
                       {G::V2, G::V3, G::V4, G::V5},
                       {
                           {"header", 0, 4, K::Header},
                           {"events", 4, 8, K::Events},
                           {"src_mem_pattern", 12, 20, K::Tensor, 4},
                           {"in_dtype", 32, 1, K::Dtype},
                           {"out_dtype", 33, 1, K::Dtype},
                           {"num_active_channels", 34, 1, K::U8},
                           {"negated", 35, 1, K::U8},
                           {"op", 36, 1, K::AluOp},
                           {"op_dim", 37, 1, K::U8},
                           {"mask_enable", 38, 1, K::U8},
                           {"reserved1", 39, 5, K::Reserved},
                           {"dst_mem_pattern", 44, 20, K::Tensor, 4},
                       }};
}
inline ExpectedInstr tensor_reduce_arith_row() {
  return tensor_reduce_row("TensorReduceArith", 0x42);
}

}  // namespace gpsimd::expected_rows

namespace {

using namespace gpsimd;

const test_registry::InstructionTests kTests{
    .mnemonic = "TensorReduceArith",
    .opcode = Opcode::TensorReduceArith,
    .opcode_clause = "has_tensor_reduce_opcode",
    .expected_row = expected_rows::tensor_reduce_arith_row,
    .valid_word = test_words::valid_tensor_reduce_arith,
    .reference = refmodel::internal::tensor_reduce,
    .generate =
        [](random_words::Builder& b) {
          return random_words::gen_tensor_reduce(b, refmodel::kTensorReduceArith);
        },
    .random_generations = {Generation::V2, Generation::V3, Generation::V4, Generation::V5},
    .roundtrip_word = [](asm_words::Gen& g) { return asm_words::valid_tensor_reduce(g, 0x42); },
    .kernel_words = {{kernels_equiv::tensor_reduce_arith_word, 42, 400, 6}},
};
const test_registry::Registration kRegistration(kTests);

}  // namespace

#ifdef GPSIMD_INSTRUCTION_TESTS
#include <gtest/gtest.h>

#include <random>

namespace gpsimd {
namespace {

// ---- clause cases (SPEC §4, §6): its share of the family's (tensor_reduce.h) ----

std::vector<ClauseCase> clause_cases() {
  return cases_of(Opcode::TensorReduceArith, tensor_reduce_clause_cases());
}
GPSIMD_CLAUSE_CASES(TensorReduceArith, clause_cases);

// ---- the family's validation (SPEC §4.19, §3.6, §3.9) ----

// The engine clause: DVE takes every op outside the integer band, POOL only the band with a
// 32- or 64-bit integer input (INT64/UINT64 then fail is_valid_dtype alone), ACT nothing.
TEST(TensorReduceValidate, TheEngineClause) {
  for (unsigned o = 0; o < 256; ++o) {
    if (!alu::is_enumerator(static_cast<uint8_t>(o), G::V5)) continue;
    const Word w = with(valid_word(TRA), [o](Word& x) { set(x, "op", o); });
    const bool band = o >= 0xC4 && o <= 0xE1;
    const bool op_ok = alu::is_general_arith_op(static_cast<uint8_t>(o)) || band;
    for (Engine e : kAllEngines) {
      std::vector<std::string> want;
      if (!op_ok) want.push_back("tensor_reduce_valid_alu_op");
      if (e == Engine::ACT || (e == Engine::DVE && band) || e == Engine::POOL)
        want.push_back("is_valid_tensor_reduce_arith_engine");  // FP32 input: POOL fails all
      std::sort(want.begin(), want.end());
      EXPECT_EQ(clauses_of(validate(w, G::V5, ValidateOptions{false, e})), want)
          << hex8_of(o) << " " << engine_id(e);
    }
  }
  for (Dtype in : {Dtype::INT32, Dtype::UINT32}) {
    const Word w = with(valid_word(TRA), [in](Word& x) {
      set(x, "op", code(AluOp::ADD_INT));
      set(x, "in_dtype", code(in));
    });
    EXPECT_TRUE(validate(w, G::V2, ValidateOptions{false, Engine::POOL}).empty())
        << describe(validate(w, G::V2, ValidateOptions{false, Engine::POOL}));
  }
  for (Dtype in : {Dtype::INT64, Dtype::UINT64}) {
    const Word w = with(valid_word(TRA), [in](Word& x) {
      set(x, "op", code(AluOp::MULT_INT));
      set(x, "in_dtype", code(in));
      set_num(x, "src_mem_pattern", 3, 1);
    });
    EXPECT_EQ(clauses_of(validate(w, G::V3, ValidateOptions{false, Engine::POOL})),
              std::vector<std::string>{"is_valid_dtype"});
  }
}

// A bad op_dim leaves the group size undefined: the count clause is not evaluated; a
// num_elem of 0 fails tensor4d_valid and the count clause (its literal formula).
TEST(TensorReduceValidate, SubdimAndZeroCounts) {
  for (Opcode o : {TRA, TRB}) {
    const Word bad = with(valid_word(o), [](Word& x) {
      set(x, "op_dim", 0x7);
      set_num(x, "dst_mem_pattern", 1, 9);
    });
    EXPECT_EQ(clauses_of(validate(bad, G::V3)), std::vector<std::string>{"is_valid_subdim"});
    const Word zero = with(valid_word(o), [](Word& x) { set_num(x, "src_mem_pattern", 2, 0); });
    EXPECT_EQ(clauses_of(validate(zero, G::V3)),
              (std::vector<std::string>{"tensor4d_valid", "tensor_reduce_dst_element_count"}))
        << describe(validate(zero, G::V3));
    // Every reducing op_dim with its own K validates.
    for (uint8_t d : {uint8_t{2}, uint8_t{3}, uint8_t{4}, uint8_t{5}}) {
      const TensorDesc src = get_tensor(valid_word(o), "src_mem_pattern");
      uint16_t k = 1;
      for (unsigned i = d - 1u; i < 4; ++i) k = static_cast<uint16_t>(k * src.num[i]);
      const Word w = with(valid_word(o), [&](Word& x) {
        set(x, "op_dim", d);
        set_tensor(x, "dst_mem_pattern",
                   tensor(get_tensor(x, "dst_mem_pattern").addr, {1, 1, 1, 1}, {k, 1, 1, 1}));
      });
      EXPECT_TRUE(validate(w, G::V4).empty()) << int{d} << describe(validate(w, G::V4));
    }
  }
}

}  // namespace
}  // namespace gpsimd

namespace gpsimd::kernels_equiv {
namespace {

// The kernel folds an FP32 source in place and converts other dtypes in runs of 4096
// elements, carrying each group's accumulator across runs: groups of 10000 elements (three
// runs) of every dtype kind, every NKI op, negated or not, fast against the reference.
TEST(KernelsEquivTest, TensorReduceLongGroups) {
  Rng rng(42);
  const Dtype ins[] = {Dtype::FP32, Dtype::BF16, Dtype::INT16, Dtype::FP8_E5, Dtype::UINT32};
  const uint8_t ops[] = {0x04, 0x05, 0x06, 0x08, 0x09, 0x0d, 0x0e, 0x0f};
  constexpr uint16_t kGroup = 10000;
  Machine a(Generation::V3), b(Generation::V3);
  for (Dtype in : ins) {
    const unsigned size = *dtype_size(in);
    const std::vector<uint32_t> edges = edge_values(in);
    for (uint32_t j = 0; j < 2u * kGroup; ++j) {
      // Mostly -1, 0 and 1 (products stay finite, logical groups stay mixed), some edges.
      uint32_t v = edges[rng.below(edges.size())];
      if (!rng.chance(0.02)) {
        const uint32_t k = rng.below(3);  // 0, 1, -1
        v = is_int_dtype(in) ? (k == 2 ? 0xffffffffu : k)
                             : from_fp32(in, k == 0   ? 0u
                                             : k == 1 ? 0x3f800000u
                                                      : 0xbf800000u);
      }
      std::memcpy(a.partition(Space::SBUF, 0).data() + size * j, &v, size);
      std::memcpy(b.partition(Space::SBUF, 0).data() + size * j, &v, size);
    }
    for (uint8_t o : ops)
      for (uint8_t negated : {uint8_t{0}, uint8_t{1}}) {
        Word w{};
        w[0] = 0x42;
        w[1] = 0x10;
        TensorDesc src, dst;
        src.addr = encode_static_addr({Space::SBUF, 0, 0});
        src.dims = 4;
        src.step = {1, kGroup, 0, 0};
        src.num = {kGroup, 2, 1, 1};
        dst.addr = encode_static_addr({Space::SBUF, 0, 0x20000});
        dst.dims = 4;
        dst.step = {1, 0, 0, 0};
        dst.num = {2, 1, 1, 1};
        store_tensor(w, 12, src);
        w[32] = static_cast<uint8_t>(in);
        w[33] = static_cast<uint8_t>(Dtype::FP32);
        w[34] = 1;
        w[35] = negated;
        w[36] = o;
        w[37] = 0x2;
        store_tensor(w, 44, dst);
        ExecOptions ref;
        ref.fast = false;
        const ExecResult ra = execute(a, w);
        const ExecResult rb = execute(b, w, ref);
        ASSERT_EQ(ra.status, Status::Retired) << ra.message();
        ASSERT_EQ(rb.status, Status::Retired) << rb.message();
        EXPECT_TRUE(a == b) << dtype_name(static_cast<uint8_t>(in)).value_or("?") << " op "
                            << int{o} << " negated " << int{negated};
      }
  }
}

}  // namespace
}  // namespace gpsimd::kernels_equiv

namespace {

using tensor_reduce::reduce;
using tensor_reduce::tr_word;
constexpr uint8_t kArith = rm::kTensorReduceArith;
constexpr uint32_t kNaN = 0x7FC00000u;

V fp32s(std::initializer_list<float> xs) {
  V v;
  for (float x : xs) v.push_back(f32(x));
  return v;
}

// ---- hand-checked effects (SPEC §4.19) ----

// SPEC §4.19's examples of negated, init and maxNum/minNum.
TEST(TensorReduceArith, SpecExamples) {
  // ADD of [1.0, -1.0] negated -> -0.0; MAX of [1, 5, -3] negated -> -5.0.
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::ADD, fp32s({1, -1}), 2, true), V{0x80000000u});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, rm::op::MAX, fp32s({1, 5, -3}), 3, true),
            V{f32(-5.0f)});
  // LOGICAL_AND of [3.0, -1.0] negated into INT32 -> -1.
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::INT32, op::LOGICAL_AND, fp32s({3, -1}), 2, true),
            V{0xFFFFFFFFu});
  // One element: LOGICAL_AND of 5.0 is 1.0; ADD of -0.0 stays -0.0; ADD or MULT of a
  // signalling NaN gives the default NaN.
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::LOGICAL_AND, fp32s({5}), 1), V{f32(1.0f)});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::ADD, {0x80000000u}, 1), V{0x80000000u});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::ADD, {0x7F800001u}, 1), V{kNaN});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::MULT, {0x7F800001u}, 1), V{kNaN});
  // MAX of [NaN, 1.0, -3.0]: the NaN does not stick. -0.0 < +0.0.
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, rm::op::MAX, {0xFFC00001u, f32(1), f32(-3)}, 3),
            V{f32(1.0f)});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, rm::op::MAX, {0x80000000u, 0u}, 2), V{0u});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::MIN, {0u, 0x80000000u}, 2), V{0x80000000u});
  // negated is an FP32 MULT by -1.0: a NaN stays 0x7FC00000, +0.0 becomes -0.0, and
  // MIN's result is negated too.
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::ADD, {0x7F800001u}, 1, true), V{kNaN});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::ADD, {0u}, 1, true), V{0x80000000u});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::MIN, fp32s({2, -7, 4}), 3, true), V{f32(7)});
  // A false logical result negated is -0.0 (into FP32) and 0 (into INT32).
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::LOGICAL_OR, {0u, 0x80000000u}, 2, true),
            V{0x80000000u});
}

// SPEC §4.19: logical reductions yield 1.0 / 0.0: AND all true, OR any, XOR an odd count;
// +-0.0 is false, a NaN is true.
TEST(TensorReduceArith, LogicalReductions) {
  const V v = {f32(2), 0x80000000u, kNaN, f32(-1)};  // true, false, true, true
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::LOGICAL_AND, v, 4), V{0u});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::LOGICAL_OR, v, 4), V{f32(1)});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::LOGICAL_XOR, v, 4), V{f32(1)});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::LOGICAL_XOR, {f32(3), f32(4)}, 2), V{0u});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::LOGICAL_AND, {kNaN, f32(5)}, 2), V{f32(1)});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::LOGICAL_OR, {0u, 0x80000000u}, 2), V{0u});
  // Into BF16 and UINT8.
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::BF16, op::LOGICAL_OR, v, 4), V{0x3F80});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::UINT8, op::LOGICAL_XOR, v, 4), V{1});
}

// The rule reduce-order: a left fold in walk order, one FP32 rounding per step; SUBTRACT
// is v[0] - v[1] - ... .
TEST(TensorReduceArith, ReduceOrder) {
  // (1e8 + 1) rounds back to 1e8; minus 1e8 is +0.0 (another order would give 1.0).
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::ADD, fp32s({1e8f, 1, -1e8f}), 3), V{0u});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::ADD, fp32s({1e8f, -1e8f, 1}), 3), V{f32(1)});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::SUBTRACT, fp32s({10, 1, 2}), 3), V{f32(7)});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::SUBTRACT, fp32s({1, 10, 2, 100, 4, 1}), 2),
            (V{f32(-9), f32(-98), f32(3)}));
  // MULT: 3 * (1/3 rounded) * 3 in order.
  const float third = 1.0f / 3.0f;
  const float want = (3.0f * third) * 3.0f;
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::MULT, fp32s({3, third, 3}), 3), V{f32(want)});
  // Overflow to inf, then inf - inf is the default NaN.
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::FP32, op::ADD, {0x7F7FFFFFu, 0x7F7FFFFFu, 0xFF800000u}, 3),
            V{kNaN});
}

// SPEC §4.19's NKI example: test_nki_isa_reduce sums each row of a 128 x 512 FP32 tile:
// 0x42 ADD over X, src num_elem [512, 1, 1, 1], dst [1, 1, 1, 1]: each row's sequential FP32
// sum.
TEST(TensorReduceArith, NkiReduceExample) {
  Machine& m = fresh(Generation::V3);
  std::mt19937 gen(0);
  std::uniform_real_distribution<float> u(0.0f, 100.0f);
  std::vector<float> sums(128);
  for (unsigned p = 0; p < 128; ++p) {
    V row(512);
    float acc = 0.0f;
    for (unsigned j = 0; j < 512; ++j) {
      const float x = u(gen);
      row[j] = f32(x);
      acc = j == 0 ? x : acc + x;  // one float rounding per step, in order
    }
    sums[p] = acc;
    poke(m, SBUF, p, 0x100, 4, row);
  }
  rm::TensorReduceWord x = tr_word(kArith, dt::FP32, dt::FP32, op::ADD, 0x2, {512, 1, 1, 1});
  x.channels = 128;
  expect_ok(m, x.encode(), ExecOptions{.engine = Engine::DVE});
  for (unsigned p = 0; p < 128; ++p) ASSERT_EQ(peek(m, SBUF, p, 0x800, 4, 1), V{f32(sums[p])}) << p;
}

// The groups are the innermost op_dim dims in walk order; group k goes to destination
// ordinal k, whatever the destination's shape; a zero destination step lets the later group
// win.
TEST(TensorReduceArith, GroupsAndDestinationWalks) {
  Machine& m = fresh(Generation::V4);
  V v(24);
  for (unsigned j = 0; j < 24; ++j) v[j] = j;  // INT32 0..23
  poke(m, SBUF, 0, 0x100, 4, v);
  // nums {2, 3, 2, 2}: X groups of 2, XY of 6, XYZ of 12, XYZW of 24.
  const std::array<unsigned, 4> nums{2, 3, 2, 2};
  const std::pair<uint8_t, V> cases[] = {
      {0x2, {1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45}},
      {0x3, {15, 51, 87, 123}},
      {0x4, {66, 210}},
      {0x5, {276}},
  };
  for (const auto& [d, want] : cases) {
    const rm::TensorReduceWord x = tr_word(kArith, dt::INT32, dt::INT32, op::ADD, d, nums);
    expect_ok(m, x.encode());
    EXPECT_EQ(peek(m, SBUF, 0, 0x800, 4, static_cast<unsigned>(want.size())), want) << int{d};
  }
  // The source walked column by column: 3 x 2 read with steps {3, 1}; groups of X are the
  // columns (0, 3) ... (2, 5) of the first 6 values (max per group).
  rm::TensorReduceWord x = tr_word(kArith, dt::INT32, dt::INT32, rm::op::MAX, 0x2, {2, 3, 1, 1});
  x.src = rm::tensor4(rm::sbuf_addr(0, 0x100), 3, 2, 1, 3, 0, 1, 0, 1);
  x.dst = rm::tensor4(rm::sbuf_addr(0, 0x90C), -1, 3, 0, 1, 0, 1, 0, 1);  // reversed
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x904, 4, 3), (V{5, 4, 3}));
  // A zero destination step: every group on one element, the last group wins.
  x.dst = rm::tensor4(rm::sbuf_addr(0, 0xA00), 0, 3, 0, 1, 0, 1, 0, 1);
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0xA00, 4, 2), (V{5, 0}));
}

// Elements go through FP32 (integers rounded to nearest even) and the result is converted
// to out_dtype (RNE, saturating integers, NaN to 0).
TEST(TensorReduceArith, ConversionsInAndOut) {
  // INT32 2^24 + 1 becomes 2^24 in FP32; 2^24 + 1 + 1 in FP32 is 2^24 again (ties to even).
  EXPECT_EQ(reduce(kArith, dt::INT32, dt::INT32, op::ADD, {0x01000001u, 1}, 2), V{0x01000000u});
  // 100 + 100 saturates into INT8; a NaN result is 0 in an integer dtype.
  EXPECT_EQ(reduce(kArith, dt::INT8, dt::INT8, op::ADD, {100, 100}, 2), V{0x7F});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::INT16, op::ADD, {kNaN, f32(3)}, 2), V{0});
  // BF16 in, FP32 out: exact; FP32 in, BF16 out: rounded once at the end.
  EXPECT_EQ(reduce(kArith, dt::BF16, dt::FP32, op::ADD, {0x3F80, 0x3F81}, 2), V{0x40008000u});
  EXPECT_EQ(reduce(kArith, dt::FP32, dt::BF16, op::ADD, {0x3F800000u, 0x00000001u}, 2), V{0x3F80});
  // Into FP32R: stored as FP32.
  EXPECT_EQ(reduce(kArith, dt::FP16, dt::FP32R, rm::op::MAX, {0x3C00, 0xFC00, 0x4000}, 3),
            V{f32(2.0f)});
}

// SPEC §3.9, §4.19: what runs where. On DVE the non-NKI valid ops fault unsupported-op; on
// POOL every valid word faults it; on ACT every enumerator op is invalid. Faults change
// nothing; PSUM is allowed on DVE.
TEST(TensorReduceArith, EnginesAndFaults) {
  Machine& m = busy_machine(Generation::V3);
  rm::TensorReduceWord x = tr_word(kArith, dt::FP32, dt::FP32, op::ADD, 0x2, {4, 1, 1, 1});
  x.src.addr = rm::sbuf_addr(0, 0x100);
  x.dst.addr = rm::psum_addr(1, 0x200);
  x.channels = 2;
  x.ev = kSet9;
  expect_ok(m, x.encode(), ExecOptions{.engine = Engine::DVE});
  EXPECT_EQ(peek(m, PSUM, 2, 0x200, 4, 1), V{f32(10.0f)});
  EXPECT_EQ(m.semaphores[9], 0x77u);
  for (uint8_t o : {op::BYPASS, rm::op::IS_GT, op::ABSOLUTE_DIFF, op::ABSOLUTE_VALUE, op::IS_NE}) {
    rm::TensorReduceWord y = x;
    y.op = o;
    expect_unchanged(m, y.encode(), Status::Faulted, FaultKind::UnsupportedOp,
                     ExecOptions{.engine = Engine::DVE});
  }
  rm::TensorReduceWord pool = x;
  pool.dst.addr = rm::sbuf_addr(1, 0x200);
  pool.in = dt::INT32;
  pool.op = op::ADD_INT;
  expect_unchanged(m, pool.encode(), Status::Faulted, FaultKind::UnsupportedOp,
                   ExecOptions{.engine = Engine::POOL});
  expect_unchanged(m, x.encode(), Status::Invalid, std::nullopt,
                   ExecOptions{.engine = Engine::ACT});
  // Register-mode operands resolve at execution.
  rm::TensorReduceWord reg = x;
  reg.src.addr = rm::reg_addr(5);
  m.registers[5] = rm::sbuf_addr(127, 0x100);  // partitions 127..128
  expect_unchanged(m, reg.encode(), Status::Faulted, FaultKind::BadAddress,
                   ExecOptions{.engine = Engine::DVE});
  m.registers[5] = rm::psum_addr(0, 0x100);
  reg.src.num[0] = 2;
  expect_ok(m, reg.encode(), ExecOptions{.engine = Engine::DVE});
  EXPECT_EQ(peek(m, PSUM, 1, 0x200, 4, 1), V{f32(11.0f)});  // 5 + 6
  // A source walk of 2^24 + 1 elements faults too-large.
  rm::TensorReduceWord big = x;
  big.src = rm::tensor4(rm::sbuf_addr(0, 0x100), 0, 4097, 0, 4097, 0, 1, 0, 1);
  big.op_dim = 0x3;
  expect_unchanged(m, big.encode(), Status::Faulted, FaultKind::TooLarge);
}

// Sources are read before any write: a destination on its own source.
TEST(TensorReduceArith, OverlapReadsFirst) {
  Machine& m = fresh(Generation::V2);
  poke(m, SBUF, 0, 0x100, 4, fp32s({1, 2, 3, 4, 5, 6}));
  rm::TensorReduceWord x = tr_word(kArith, dt::FP32, dt::FP32, op::ADD, 0x2, {2, 3, 1, 1});
  x.dst.addr = rm::sbuf_addr(0, 0x104);  // onto elements 1, 2, 3
  expect_ok(m, x.encode());
  EXPECT_EQ(peek(m, SBUF, 0, 0x100, 4, 6), fp32s({1, 3, 7, 11, 5, 6}));
}

}  // namespace
#endif
