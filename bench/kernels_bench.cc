// Google Benchmark suites for the instructions' fast paths (and their scalar
// reference, for scale). Every benchmark checks, after its timed loop, that the machine
// holds exactly what the scalar reference produces for the same program; a mismatch
// turns the benchmark into an error instead of a time.
//
// For the side-by-side comparison with std::sort, vqsort, Boost.Sort and memcpy, see
// `gpsimd bench` (suite/bench.h); these suites are for tracking one path at a time.
#include <benchmark/benchmark.h>

#include <bit>
#include <cstring>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"
#include "gpsimd/validate.h"
#include "suite/harness.h"

namespace gpsimd {
namespace {

using bench::code;
using bench::dtype_pair;
using bench::put_tensor;
using bench::put_u32;
using bench::put_u8;
using bench::sample_word;
using bench::tensor;

// A machine with random SBUF bytes where the program reads, the program, and the
// reference's final machine to compare with.
struct Setup {
  Machine machine{Generation::V3};
  std::vector<Word> words;
  Machine expected{Generation::V3};

  void fill(uint32_t bytes, uint64_t seed, bool finite_fp32 = false) {
    for (unsigned p = 0; p < kPartitions; ++p) {
      uint8_t* part = machine.partition(Space::SBUF, p).data();
      for (uint32_t i = 0; i + 4 <= bytes; i += 4) {
        uint32_t v = static_cast<uint32_t>(bench::splitmix(seed));
        if (finite_fp32) v = std::bit_cast<uint32_t>(static_cast<float>(v % 2000) - 1000.0f);
        std::memcpy(part + i, &v, 4);
      }
    }
  }
  bool run(Machine& m, bool fast) const {
    ExecOptions o;
    o.fast = fast;
    for (const Word& w : words)
      if (!execute(m, w, o).ok()) return false;
    return true;
  }
  bool prepare() {
    expected = machine;
    return run(expected, false);
  }
};

void run_setup(benchmark::State& state, Setup& s, bool fast, double elements, double bytes) {
  if (!s.prepare()) {
    state.SkipWithError("the program does not retire");
    return;
  }
  for (auto _ : state) {
    if (!s.run(s.machine, fast)) {
      state.SkipWithError("the program does not retire");
      return;
    }
  }
  if (!(s.machine == s.expected)) state.SkipWithError("output differs from the scalar reference");
  const auto iterations = static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<int64_t>(iterations * elements));
  if (bytes > 0) state.SetBytesProcessed(static_cast<int64_t>(iterations * bytes));
}

// Sort over 128 partitions x N elements: range(0) = dtype code, range(1) = N,
// range(2) = fast (1) or reference (0).
void BM_Sort(benchmark::State& state) {
  const auto dt = static_cast<Dtype>(state.range(0));
  const unsigned n = static_cast<unsigned>(state.range(1));
  const unsigned size = *dtype_size(dt);
  const unsigned per_instr = std::max(1u, std::min(128u, (size == 2 ? 4096u : 2048u) / n));
  Setup s;
  s.fill(n * size, 1);
  constexpr auto& F = table::kSort;
  for (unsigned p0 = 0; p0 < kPartitions; p0 += per_instr) {
    Word w = sample_word(Opcode::Sort);
    put_u8(w, field_of(F, "num_active_channels"),
           static_cast<uint8_t>(std::min(per_instr, kPartitions - p0)));
    put_u8(w, field_of(F, "in_out_dtype"), dtype_pair(dt, dt));
    put_u8(w, field_of(F, "comparison"), code(AluOp::IS_LT));
    put_tensor(w, field_of(F, "src_mem_pattern"),
               tensor(1, p0, 0, {1, 0, 0}, {static_cast<uint16_t>(n), 1, 1}));
    put_tensor(w, field_of(F, "dst_mem_pattern"),
               tensor(2, p0, n * size, {1, 2, 0}, {2, static_cast<uint16_t>(n), 1}));
    s.words.push_back(w);
  }
  run_setup(state, s, state.range(2) != 0, 128.0 * n, 0);
}
BENCHMARK(BM_Sort)
    ->ArgsProduct({{0xa, 0x7}, {16, 128, 2048}, {1}})
    ->Args({0x7, 4096, 1})
    ->Args({0xa, 2048, 0})
    ->Unit(benchmark::kMicrosecond);

// RangeSelect over the whole SBUF, dense walks: range(0) = input dtype, range(1) =
// output dtype, range(2) = fast (1) or reference (0).
void BM_RangeSelect(benchmark::State& state) {
  const auto in = static_cast<Dtype>(state.range(0));
  const auto out = static_cast<Dtype>(state.range(1));
  const unsigned isz = *dtype_size(in), osz = *dtype_size(out);
  Setup s;
  const uint32_t P = s.machine.partition_bytes(Space::SBUF);
  const uint32_t count = std::min<uint32_t>(P / (isz + osz) / 64 * 64, 65535);
  s.fill(count * isz, 2, in == Dtype::FP32);
  constexpr auto& F = table::kRangeSelect;
  const auto n = static_cast<uint16_t>(count);
  Word w = sample_word(Opcode::RangeSelect);
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_u8(w, field_of(F, "in_out_dtype"), dtype_pair(in, out));
  put_u8(w, field_of(F, "reduce_cmd"), code(AccumCmd::ZERO_ACCUMULATE));
  put_u8(w, field_of(F, "reduce_op"), code(AluOp::MAX));
  put_u32(w, field_of(F, "fill_val"), 0xff7fffffu);
  put_tensor(w, field_of(F, "src_mem_pattern"), tensor(2, 0, 0, {1, 0, 0}, {n, 1, 1}));
  put_u8(w, field_of(F, "comp_op0"), code(AluOp::IS_GE));
  put_u8(w, field_of(F, "comp_op1"), code(AluOp::IS_LT));
  put_u32(w, field_of(F, "bound0"), std::bit_cast<uint32_t>(static_cast<float>(count / 8)));
  put_u32(w, field_of(F, "bound1"), std::bit_cast<uint32_t>(static_cast<float>(count / 8 * 7)));
  put_tensor(w, field_of(F, "dst_mem_pattern"), tensor(2, 0, count * isz, {1, 0, 0}, {n, 1, 1}));
  s.words.push_back(w);
  run_setup(state, s, state.range(2) != 0, 128.0 * count, 128.0 * count * isz);
}
BENCHMARK(BM_RangeSelect)
    ->Args({0xa, 0xa, 1})
    ->Args({0xa, 0x6, 1})
    ->Args({0xa, 0xe, 1})
    ->Args({0x7, 0xa, 1})
    ->Args({0xa, 0xa, 0})
    ->Unit(benchmark::kMillisecond);

// TensorScalarSelect copying the tensor over the whole SBUF: range(0) = dtype,
// range(1) = source step, range(2) = fast (1) or reference (0).
void BM_TensorScalarSelect(benchmark::State& state) {
  const auto dt = static_cast<Dtype>(state.range(0));
  const auto step = static_cast<int16_t>(state.range(1));
  const unsigned size = *dtype_size(dt);
  const unsigned stride = static_cast<unsigned>(std::abs(step));
  Setup s;
  const uint32_t P = s.machine.partition_bytes(Space::SBUF);
  const uint32_t count = std::min<uint32_t>(P / ((stride + 1) * size) / 64 * 64, 65535);
  s.fill(count * stride * size, 3);
  constexpr auto& F = table::kTensorScalarSelect;
  const auto n = static_cast<uint16_t>(count);
  const uint32_t start = step < 0 ? (count - 1) * stride * size : 0;
  const Dtype pred = size == 1 ? Dtype::UINT8 : size == 2 ? Dtype::UINT16 : Dtype::UINT32;
  Word w = sample_word(Opcode::TensorScalarSelect);
  put_tensor(w, field_of(F, "src0_mem_pattern"), tensor(3, 0, start, {step, 0, 0}, {n, 1, 1}));
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_u8(w, field_of(F, "dtype"), code(dt));
  put_u8(w, field_of(F, "pred_imm_dtype"), code(pred));
  put_u32(w, field_of(F, "pred_imm"), 1);  // take the tensor
  put_tensor(w, field_of(F, "dst_mem_pattern"),
             tensor(3, 0, count * stride * size, {1, 0, 0}, {n, 1, 1}));
  s.words.push_back(w);
  run_setup(state, s, state.range(2) != 0, 128.0 * count, 128.0 * count * size);
}
BENCHMARK(BM_TensorScalarSelect)
    ->Args({0xa, 1, 1})
    ->Args({0x6, 1, 1})
    ->Args({0xa, 3, 1})
    ->Args({0xa, -1, 1})
    ->Args({0xa, 1, 0})
    ->Unit(benchmark::kMillisecond);

// GetSequenceBounds, one instruction per partition: range(0) = fp32 ids (1) or int32
// (0), range(1) = fast (1) or reference (0).
void BM_GetSequenceBounds(benchmark::State& state) {
  const bool fp = state.range(0) != 0;
  Setup s;
  const uint32_t P = s.machine.partition_bytes(Space::SBUF);
  const uint32_t count = P / 12 / 64 * 64;
  uint64_t seed = 4;
  for (unsigned p = 0; p < kPartitions; ++p) {
    uint8_t* part = s.machine.partition(Space::SBUF, p).data();
    uint32_t id = 0;
    for (uint32_t i = 0; i < count; ++i) {
      if (bench::splitmix(seed) % 16 == 0)
        id = id + 1 + static_cast<uint32_t>(bench::splitmix(seed) % 2);
      const uint32_t v = fp ? std::bit_cast<uint32_t>(static_cast<float>(id)) : id;
      std::memcpy(part + 4 * i, &v, 4);
    }
    constexpr auto& F = table::kGetSequenceBounds;
    const Dtype ids = fp ? Dtype::FP32 : Dtype::INT32;
    Word w = sample_word(Opcode::GetSequenceBounds);
    put_u8(w, field_of(F, "num_active_channels"), 1);
    put_u8(w, field_of(F, "in_dtype"), code(ids));
    put_u8(w, field_of(F, "out_dtype"), code(ids));
    put_tensor(w, field_of(F, "src_mem_pattern"),
               tensor(3, p, 0, {1, 0, 0}, {static_cast<uint16_t>(count), 1, 1}));
    const uint16_t a = static_cast<uint16_t>(count / 64);
    put_tensor(w, field_of(F, "dst_mem_pattern"),
               tensor(3, p, 4 * count, {1, static_cast<int16_t>(a), static_cast<int16_t>(count)},
                      {a, 64, 2}));
    s.words.push_back(w);
  }
  run_setup(state, s, state.range(1) != 0, 128.0 * count, 128.0 * count * 4);
}
BENCHMARK(BM_GetSequenceBounds)->ArgsProduct({{0, 1}, {1, 0}})->Unit(benchmark::kMillisecond);

// validate() on valid words of Sort and RangeSelect, one thread.
void BM_Validate(benchmark::State& state) {
  std::vector<Word> words;
  Setup s;
  for (unsigned p = 0; p < kPartitions; ++p) {
    constexpr auto& S = table::kSort;
    Word w = sample_word(Opcode::Sort);
    put_u8(w, field_of(S, "num_active_channels"), 1);
    put_u8(w, field_of(S, "in_out_dtype"), dtype_pair(Dtype::FP32, Dtype::FP32));
    put_u8(w, field_of(S, "comparison"), code(AluOp::IS_LT));
    put_tensor(w, field_of(S, "src_mem_pattern"), tensor(1, p, 0, {1, 0, 0}, {16, 1, 1}));
    put_tensor(w, field_of(S, "dst_mem_pattern"), tensor(2, p, 64, {1, 2, 0}, {2, 16, 1}));
    words.push_back(w);
    constexpr auto& R = table::kRangeSelect;
    Word r = sample_word(Opcode::RangeSelect);
    put_u8(r, field_of(R, "num_active_channels"), 1);
    put_u8(r, field_of(R, "in_out_dtype"), dtype_pair(Dtype::FP32, Dtype::FP32));
    put_u8(r, field_of(R, "reduce_op"), code(AluOp::MAX));
    put_u32(r, field_of(R, "fill_val"), 0xff7fffffu);
    put_tensor(r, field_of(R, "src_mem_pattern"), tensor(2, p, 0, {1, 0, 0}, {16, 1, 1}));
    put_u8(r, field_of(R, "comp_op0"), code(AluOp::IS_GE));
    put_u8(r, field_of(R, "comp_op1"), code(AluOp::IS_LT));
    put_u32(r, field_of(R, "bound1"), 0);  // 0.0, not the sample's 12.0: only validated
    put_tensor(r, field_of(R, "dst_mem_pattern"), tensor(2, p, 256, {1, 0, 0}, {16, 1, 1}));
    words.push_back(r);
  }
  std::size_t failures = 0;
  for (auto _ : state)
    for (const Word& w : words) failures += validate(w, Generation::V3).size();
  if (failures) state.SkipWithError("a valid word failed validation");
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * words.size()));
}
BENCHMARK(BM_Validate);

}  // namespace
}  // namespace gpsimd

BENCHMARK_MAIN();
