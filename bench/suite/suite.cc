// The comparison benchmark (suite/bench.h): the table, its header and method, and the
// streaming, search and overhead rows; the Sort rows are in sort_rows.cc, the harness
// types in harness.h. Each workload is a program of real instruction words
// executed through the public API, next to the baselines that do the same work in the
// most direct way a C++ programmer would (memcpy of the same input bytes for the
// streaming rows, see sort_rows.cc for the sorts) and the model's own scalar
// reference. Contenders run interleaved, sample after sample, and each run's output is
// compared with the scalar reference's before its time counts.
#include <fmt/format.h>
#include <sched.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <ranges>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "gpsimd/alu.h"
#include "gpsimd/execute.h"
#include "gpsimd/format.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"
#include "gpsimd/model.h"
#include "gpsimd/validate.h"
#include "kernels/kernels.h"
#include "kernels/thread_pool.h"
#include "ops/op.h"
#include "suite/bench.h"
#include "suite/harness.h"

namespace gpsimd {
namespace bench {

std::string dtype_label(Dtype dt) {
  std::string s(*dtype_name(static_cast<uint8_t>(dt)));
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool Program::execute_all(bool fast) {
  ExecOptions o;
  o.fast = fast;
  o.engine = engine;
  for (const Word& w : words)
    if (!execute(machine, w, o).ok()) return false;
  return true;
}

bool Program::prepare() {
  Machine saved = machine;
  if (!execute_all(false)) return false;
  prepared = true;
  for (auto& [p, r] : outputs) {
    auto part = machine.partition(Space::SBUF, p);
    expected.emplace_back(part.begin() + r.first, part.begin() + r.second);
  }
  expected_acc = machine.accumulators;
  machine = std::move(saved);
  return true;
}

bool Program::matches() const {
  if (!prepared) return false;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    auto part = machine.partition(Space::SBUF, outputs[i].first);
    if (std::memcmp(part.data() + outputs[i].second.first, expected[i].data(),
                    expected[i].size()) != 0)
      return false;
  }
  return machine.accumulators == expected_acc;
}

void add_program_contenders(Row& row, std::shared_ptr<Program> prog, bool with_reference) {
  // A word that does not retire fails the check (execute_all stops at it).
  auto ok = std::make_shared<bool>(true);
  row.contenders.push_back({"gpsimd", [prog, ok] { *ok = prog->execute_all(true) && *ok; },
                            [prog, ok] { return *ok && prog->matches(); }});
  if (!with_reference) return;
  row.contenders.push_back({"scalar reference",
                            [prog, ok] { *ok = prog->execute_all(false) && *ok; },
                            [prog, ok] { return *ok && prog->matches(); }});
}

std::string cpu_list(const std::vector<unsigned>& cpus) {
  std::string s;
  for (std::size_t i = 0; i < cpus.size();) {
    std::size_t j = i;
    while (j + 1 < cpus.size() && cpus[j + 1] == cpus[j] + 1) ++j;
    if (!s.empty()) s += ',';
    s += j == i ? fmt::format("{}", cpus[i]) : fmt::format("{}-{}", cpus[i], cpus[j]);
    i = j + 1;
  }
  return s;
}

}  // namespace bench

namespace {

using namespace bench;

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The calling thread's CPU time (user + system): what it ran, without the time it waited
// for the CPU while other processes had it.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// Thread CPU time when everything runs on the calling thread (--no-threads), unless
// wall-clock time is asked for; with the worker pool, wall-clock time (the pool's work
// is on other threads).
bool uses_cpu_time(const BenchOptions& opts) {
  return !opts.threads && !opts.wall_clock;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// ---- streaming instructions ---------------------------------------------------------

// ---- the rows of one instruction word over the SBUF ------------------------------------
//
// Each family of rows is a table of data, a line per row: its name, its parameters and
// its target. The family's plan lays a row out in each partition (from the partition's
// size) and builds its words from the instruction's sample word by field name, without a
// machine; its row function fills a machine for the plan and measures it. workloads()
// turns every line into a workload.

// The bytes of an SBUF partition on the bench's generation.
constexpr uint32_t kSbufPartition = sbuf_partition_bytes(kGen);

// RangeSelect over every partition: count elements from offset 0 with source step `step`
// (negative: walking down from the top of the range) into a dense destination.
struct RangeSelectRow {
  std::string_view name;
  Dtype in, out;
  int16_t step;
  double goal;
};
constexpr RangeSelectRow kRangeSelectRows[] = {
    {"RangeSelect fp32->fp32 dense", Dtype::FP32, Dtype::FP32, 1, 0.5},
    {"RangeSelect fp32->bf16 dense", Dtype::FP32, Dtype::BF16, 1, 0.3},
    {"RangeSelect fp32->fp8_e4 dense", Dtype::FP32, Dtype::FP8_E4, 1, 0.3},
    {"RangeSelect fp16->fp32 dense", Dtype::FP16, Dtype::FP32, 1, 0.3},
    {"RangeSelect fp32->fp32 step 2", Dtype::FP32, Dtype::FP32, 2, 0.25},
    {"RangeSelect fp32->fp32 step -1", Dtype::FP32, Dtype::FP32, -1, 0.25},
};

Plan range_select_plan(const RangeSelectRow& r) {
  constexpr auto& F = table::kRangeSelect;
  const unsigned isz = *dtype_size(r.in), osz = *dtype_size(r.out);
  const unsigned stride = static_cast<unsigned>(std::abs(r.step));
  Plan pl;
  // Source span (count x stride x isz) and destination (count x osz) fill the partition.
  pl.count = std::min<uint32_t>(round_down(kSbufPartition / (stride * isz + osz), 64), 65535);
  pl.src_span = pl.count * stride * isz;
  pl.dst_off = round_down(pl.src_span + 63, 64);
  const auto n = static_cast<uint16_t>(pl.count);
  const uint32_t start = r.step < 0 ? (pl.count - 1) * stride * isz : 0;
  Word w = sample_word(Opcode::RangeSelect);
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_u8(w, field_of(F, "in_out_dtype"), dtype_pair(r.in, r.out));
  // ZERO_ACCUMULATE: the max-reduce is part of the work.
  put_u8(w, field_of(F, "reduce_cmd"), code(AccumCmd::ZERO_ACCUMULATE));
  put_u8(w, field_of(F, "reduce_op"), code(AluOp::MAX));
  put_u32(w, field_of(F, "base"), std::bit_cast<uint32_t>(0.0f));
  put_u32(w, field_of(F, "fill_val"), 0xff7fffffu);
  put_tensor(w, field_of(F, "src_mem_pattern"), tensor(2, 0, start, {r.step, 0, 0}, {n, 1, 1}));
  // Keeps the indices in [count/8, 7count/8).
  put_u8(w, field_of(F, "comp_op0"), code(AluOp::IS_GE));
  put_u8(w, field_of(F, "comp_op1"), code(AluOp::IS_LT));
  put_u32(w, field_of(F, "bound0"), std::bit_cast<uint32_t>(static_cast<float>(pl.count / 8)));
  put_u32(w, field_of(F, "bound1"), std::bit_cast<uint32_t>(static_cast<float>(pl.count / 8 * 7)));
  put_tensor(w, field_of(F, "dst_mem_pattern"), tensor(2, 0, pl.dst_off, {1, 0, 0}, {n, 1, 1}));
  pl.words.push_back(w);
  return pl;
}

Row range_select_row(const RangeSelectRow& r) {
  auto prog = std::make_shared<Program>();
  const Plan pl = range_select_plan(r);
  const unsigned isz = *dtype_size(r.in), osz = *dtype_size(r.out);
  uint64_t seed = 42;
  for (unsigned p = 0; p < kPartitions; ++p) {
    uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
    for (uint32_t i = 0; i < pl.src_span / isz; ++i) {
      const uint32_t v = random_fp32(seed);
      // Narrow inputs: the top bits of an FP32 number are a plausible narrow value.
      const uint32_t e = isz == 4 ? v : isz == 2 ? v >> 16 : v >> 24;
      std::memcpy(part + i * isz, &e, isz);
    }
  }
  prog->words = pl.words;
  for (unsigned p = 0; p < kPartitions; ++p)
    prog->outputs.push_back({p, {pl.dst_off, pl.dst_off + pl.count * osz}});
  return input_row(std::string(r.name), prog, pl.count * isz, r.goal);
}

// TensorScalarSelect over every partition, taking the tensor (pred_imm 1): `count`
// elements with source step `step` into a dense destination.
struct TensorScalarSelectRow {
  std::string_view name;
  Dtype dt;
  int16_t step;
  double goal;
};
constexpr TensorScalarSelectRow kTensorScalarSelectRows[] = {
    {"TensorScalarSelect fp32 dense", Dtype::FP32, 1, 0.5},
    {"TensorScalarSelect bf16 dense", Dtype::BF16, 1, 0.5},
    {"TensorScalarSelect fp8_e4 dense", Dtype::FP8_E4, 1, 0.5},
    {"TensorScalarSelect fp32 step 3", Dtype::FP32, 3, 0.25},
    {"TensorScalarSelect fp32 step -1", Dtype::FP32, -1, 0.25},
};

Plan tensor_scalar_select_plan(const TensorScalarSelectRow& r) {
  constexpr auto& F = table::kTensorScalarSelect;
  const unsigned size = *dtype_size(r.dt);
  const unsigned stride = static_cast<unsigned>(std::abs(r.step));
  Plan pl;
  pl.count = std::min<uint32_t>(round_down(kSbufPartition / ((stride + 1) * size), 64), 65535);
  pl.src_span = pl.count * stride * size;
  pl.dst_off = round_down(pl.src_span + 63, 64);
  const auto n = static_cast<uint16_t>(pl.count);
  const uint32_t start = r.step < 0 ? (pl.count - 1) * stride * size : 0;
  // The predicate: an unsigned integer of the dtype's width.
  const Dtype pred = size == 1 ? Dtype::UINT8 : size == 2 ? Dtype::UINT16 : Dtype::UINT32;
  Word w = sample_word(Opcode::TensorScalarSelect);
  put_tensor(w, field_of(F, "src0_mem_pattern"), tensor(3, 0, start, {r.step, 0, 0}, {n, 1, 1}));
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_u8(w, field_of(F, "dtype"), code(r.dt));
  put_u8(w, field_of(F, "pred_imm_dtype"), code(pred));
  put_u32(w, field_of(F, "pred_imm"), 1);  // take the tensor
  put_tensor(w, field_of(F, "dst_mem_pattern"), tensor(3, 0, pl.dst_off, {1, 0, 0}, {n, 1, 1}));
  pl.words.push_back(w);
  return pl;
}

Row tensor_scalar_select_row(const TensorScalarSelectRow& r) {
  auto prog = std::make_shared<Program>();
  const Plan pl = tensor_scalar_select_plan(r);
  const unsigned size = *dtype_size(r.dt);
  uint64_t seed = 43;
  for (unsigned p = 0; p < kPartitions; ++p) {
    uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
    for (uint32_t i = 0; i + 8 <= pl.src_span; i += 8) {
      const uint64_t v = splitmix(seed);
      std::memcpy(part + i, &v, 8);
    }
  }
  prog->words = pl.words;
  for (unsigned p = 0; p < kPartitions; ++p)
    prog->outputs.push_back({p, {pl.dst_off, pl.dst_off + pl.count * size}});
  return input_row(std::string(r.name), prog, pl.count * size, r.goal);
}

// AffineSelect over every partition, FP32 in, dense rows of `count` elements: the ramp
// count/2 - j + c keeps the first half of each row (plus c) and fills the rest (register
// 1), so the row is one copy (or conversion) and one fill.
struct AffineSelectRow {
  std::string_view name;
  Dtype out;
  double goal;
};
constexpr AffineSelectRow kAffineSelectRows[] = {
    {"AffineSelect fp32->fp32 dense", Dtype::FP32, 0.5},
    {"AffineSelect fp32->bf16 dense", Dtype::BF16, 0.3},
};

Plan affine_select_plan(const AffineSelectRow& r) {
  constexpr auto& F = table::kAffineSelect;
  const unsigned osz = *dtype_size(r.out);
  Plan pl;
  pl.count = std::min<uint32_t>(round_down(kSbufPartition / (4 + osz), 64), 65535);
  pl.src_span = pl.count * 4;
  pl.dst_off = pl.count * 4;
  const auto n = static_cast<uint16_t>(pl.count);
  TensorDesc mask = tensor(4, 0, 0, {-1, 0, 0, 0}, {n, 1, 1, 1});
  mask.addr = pl.count / 2;  // the base
  Word w = sample_word(Opcode::AffineSelect);
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_u8(w, field_of(F, "in_out_dtype"), dtype_pair(Dtype::FP32, r.out));
  put_u8(w, field_of(F, "fill_mode"), code(AffineSelectCmp::GT));
  put_u8(w, field_of(F, "fill_reg"), 1);
  put_tensor(w, field_of(F, "mask_pattern"), mask);
  put_tensor(w, field_of(F, "src_mem_pattern"), tensor(2, 0, 0, {1, 0}, {n, 1}));
  put_tensor(w, field_of(F, "dst_mem_pattern"), tensor(2, 0, pl.dst_off, {1, 0}, {n, 1}));
  put_u32(w, field_of(F, "channel_multiplier"), 1);
  pl.words.push_back(w);
  return pl;
}

Row affine_select_row(const AffineSelectRow& r) {
  auto prog = std::make_shared<Program>();
  const Plan pl = affine_select_plan(r);
  const unsigned osz = *dtype_size(r.out);
  uint64_t seed = 46;
  for (unsigned p = 0; p < kPartitions; ++p) {
    uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
    for (uint32_t i = 0; i < pl.count; ++i) {
      const uint32_t v = random_fp32(seed);
      std::memcpy(part + i * 4, &v, 4);
    }
  }
  prog->machine.registers[1] = std::bit_cast<uint32_t>(-9984.0f);
  prog->words = pl.words;
  for (unsigned p = 0; p < kPartitions; ++p)
    prog->outputs.push_back({p, {pl.dst_off, pl.dst_off + pl.count * osz}});
  return input_row(std::string(r.name), prog, pl.count * 4, r.goal);
}

// Iota over every partition: the ramp 7 + j + 3c into a dense destination filling the
// partition, against memset of the same bytes.
struct IotaRow {
  std::string_view name;
  Dtype out;
  double goal;
};
constexpr IotaRow kIotaRows[] = {
    {"Iota int32 dense", Dtype::INT32, 0.5},
    {"Iota fp32 dense", Dtype::FP32, 0.5},
};

Plan iota_plan(const IotaRow& r) {
  constexpr auto& F = table::kIota;
  Plan pl;
  pl.count = std::min<uint32_t>(round_down(kSbufPartition / *dtype_size(r.out), 64), 65535);
  const auto n = static_cast<uint16_t>(pl.count);
  TensorDesc ramp = tensor(4, 0, 0, {1, 0, 0, 0}, {n, 1, 1, 1});
  ramp.addr = 7;  // the base
  Word w = sample_word(Opcode::Iota);
  put_tensor(w, field_of(F, "src_data_pattern"), ramp);
  put_u8(w, field_of(F, "out_dtype"), code(r.out));
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_u32(w, field_of(F, "channel_multiplier"), 3);
  put_tensor(w, field_of(F, "dst_mem_pattern"), tensor(4, 0, 0, {1, 0, 0, 0}, {n, 1, 1, 1}));
  pl.words.push_back(w);
  return pl;
}

Row iota_row(const IotaRow& r) {
  auto prog = std::make_shared<Program>();
  const Plan pl = iota_plan(r);
  const unsigned osz = *dtype_size(r.out);
  const uint32_t count = pl.count;
  prog->words = pl.words;
  for (unsigned p = 0; p < kPartitions; ++p) prog->outputs.push_back({p, {0, count * osz}});
  prog->prepare();
  Row row;
  row.name = r.name;
  row.unit = "GB/s out";
  row.throughput = true;
  row.per_run = double{kPartitions} * count * osz;
  add_program_contenders(row, prog);
  const std::size_t bytes = std::size_t{count} * osz;
  auto to = std::make_shared<std::vector<uint8_t>>(kPartitions * bytes);
  row.contenders.push_back(
      {"memset same bytes",
       [to, bytes] {
         for (unsigned p = 0; p < kPartitions; ++p)
           std::memset(to->data() + p * bytes, 0x5a, bytes);
       },
       [to] { return std::all_of(to->begin(), to->end(), [](uint8_t b) { return b == 0x5a; }); }});
  row.targets.push_back({2, Goal::SpeedupAtLeast, r.goal});
  return row;
}

// GetSequenceBounds has one channel: one instruction per partition, INT32 or FP32 ids
// with source step `step`, the bounds dense after them.
struct SequenceBoundsRow {
  std::string_view name;
  bool fp;
  int16_t step;
  double goal;
};
constexpr SequenceBoundsRow kSequenceBoundsRows[] = {
    {"GetSequenceBounds int32 dense", false, 1, 0.5},
    {"GetSequenceBounds fp32 dense", true, 1, 0.5},
    {"GetSequenceBounds int32 step -2", false, -2, 0.25},
};

Plan sequence_bounds_plan(const SequenceBoundsRow& r) {
  constexpr auto& F = table::kGetSequenceBounds;
  const unsigned stride = static_cast<unsigned>(std::abs(r.step));
  Plan pl;
  pl.count = round_down(kSbufPartition / (4 * (stride + 2)), 64);
  pl.src_span = pl.count * stride * 4;
  pl.dst_off = round_down(pl.src_span + 63, 64);
  const auto n = static_cast<uint16_t>(pl.count);
  const uint32_t start = r.step < 0 ? (pl.count - 1) * stride * 4 : 0;
  // The dst walk: 2 x count as num = {count/64, 64, 2}, dense.
  const uint16_t a = static_cast<uint16_t>(pl.count / 64);
  const Dtype ids = r.fp ? Dtype::FP32 : Dtype::INT32;
  for (unsigned p = 0; p < kPartitions; ++p) {
    Word w = sample_word(Opcode::GetSequenceBounds);
    put_u8(w, field_of(F, "num_active_channels"), 1);
    put_u8(w, field_of(F, "in_dtype"), code(ids));
    put_u8(w, field_of(F, "out_dtype"), code(ids));
    put_tensor(w, field_of(F, "src_mem_pattern"), tensor(3, p, start, {r.step, 0, 0}, {n, 1, 1}));
    put_tensor(w, field_of(F, "dst_mem_pattern"),
               tensor(3, p, pl.dst_off,
                      {1, static_cast<int16_t>(a), static_cast<int16_t>(pl.count)}, {a, 64, 2}));
    pl.words.push_back(w);
  }
  return pl;
}

Row sequence_bounds_row(const SequenceBoundsRow& spec) {
  auto prog = std::make_shared<Program>();
  const Plan pl = sequence_bounds_plan(spec);
  const bool fp = spec.fp;
  const uint32_t count = pl.count, src_span = pl.src_span, dst_off = pl.dst_off;
  uint64_t seed = 44;
  for (unsigned p = 0; p < kPartitions; ++p) {
    uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
    // Segments of 1..64 equal ids, now and then a run of padding.
    uint32_t id = 1, left = 0;
    for (uint32_t i = 0; i < src_span / 4; ++i) {
      if (left == 0) {
        const uint64_t r = splitmix(seed);
        left = 1 + static_cast<uint32_t>(r % 64);
        id = (r >> 32) % 16 == 0 ? 0 : id + 1;
      }
      --left;
      const uint32_t v = fp ? std::bit_cast<uint32_t>(static_cast<float>(id)) : id;
      std::memcpy(part + i * 4, &v, 4);
    }
  }
  prog->words = pl.words;
  for (unsigned p = 0; p < kPartitions; ++p)
    prog->outputs.push_back({p, {dst_off, dst_off + 8 * count}});
  return input_row(std::string(spec.name), prog, count * 4, spec.goal);
}

// NonzeroWithCount over 128 channels, of which 8 run (one per GpSimd core): each of the
// 8 processed partitions compacts a full partition's worth of ids (src, then its T + 1
// results). `density`: the share of nonzero ids, spread at random.
struct NonzeroRow {
  std::string name;
  bool fp;
  double density;
  double goal;
};
std::vector<NonzeroRow> nonzero_rows() {
  std::vector<NonzeroRow> rows;
  for (bool fp : {false, true})
    for (double density : {0.01, 0.5, 0.99})
      rows.push_back({fmt::format("NonzeroWithCount {} {}% nonzero", fp ? "fp32" : "int32",
                                  std::lround(density * 100)),
                      fp, density, 0.3});
  return rows;
}

Plan nonzero_with_count_plan(const NonzeroRow& r) {
  constexpr auto& F = table::kNonzeroWithCount;
  Plan pl;
  pl.count = std::min<uint32_t>(round_down((kSbufPartition - 64) / 8, 64), 65534);
  pl.src_span = pl.count * 4;
  pl.dst_off = round_down(pl.count * 4 + 63, 64);
  const auto n = static_cast<uint16_t>(pl.count);
  Word w = sample_word(Opcode::NonzeroWithCount);
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_u8(w, field_of(F, "in_dtype"), code(r.fp ? Dtype::FP32 : Dtype::INT32));
  put_u8(w, field_of(F, "out_dtype"), code(Dtype::INT32));
  put_tensor(w, field_of(F, "src_mem_pattern"), tensor(3, 0, 0, {1, 0, 0}, {n, 1, 1}));
  put_u32(w, field_of(F, "padding_val"), 0xffffffffu);  // -1
  put_tensor(w, field_of(F, "dst_mem_pattern"),
             tensor(3, 0, pl.dst_off, {1, 0, 0}, {static_cast<uint16_t>(pl.count + 1), 1, 1}));
  pl.words.push_back(w);
  return pl;
}

Row nonzero_with_count_row(const NonzeroRow& spec) {
  auto prog = std::make_shared<Program>();
  const Plan pl = nonzero_with_count_plan(spec);
  const bool fp = spec.fp;
  const uint32_t count = pl.count, dst_off = pl.dst_off;
  uint64_t seed = 46;
  const auto threshold = static_cast<uint64_t>(spec.density * 0x1p32);
  for (unsigned p = 0; p < kPartitions; p += model::kNonzeroChannelStride) {
    uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
    for (uint32_t i = 0; i < count; ++i) {
      const uint64_t r = splitmix(seed);
      const bool nonzero = (r & 0xffffffffu) < threshold;
      // FP32 zeros are +0.0 and -0.0; INT32 ids 1..65536.
      const uint32_t v =
          fp ? (nonzero ? random_fp32(seed) | 1u : static_cast<uint32_t>(r >> 63) << 31)
             : (nonzero ? 1 + static_cast<uint32_t>(r >> 48) : 0u);
      std::memcpy(part + i * 4, &v, 4);
    }
  }
  prog->words = pl.words;
  for (unsigned p = 0; p < kPartitions; p += model::kNonzeroChannelStride)
    prog->outputs.push_back({p, {dst_off, dst_off + (count + 1) * 4}});
  // memcpy of the processed partitions' bytes: the first 8 partitions hold as many.
  return input_row(spec.name, prog, count * 4, spec.goal,
                   kPartitions / model::kNonzeroChannelStride);
}

// CopyPredicatedScalar over every partition: a predicate of `pred` (half of it true, at
// random) and an FP32 destination, dense, filling the partition.
struct CopyPredicatedRow {
  std::string_view name;
  Dtype pred;
  double goal;
};
constexpr CopyPredicatedRow kCopyPredicatedRows[] = {
    {"CopyPredicatedScalar fp32 dense, uint32 pred", Dtype::UINT32, 0.5},
    {"CopyPredicatedScalar fp32 dense, uint8 pred", Dtype::UINT8, 0.5},
};

Plan copy_predicated_plan(const CopyPredicatedRow& r) {
  constexpr auto& F = table::kCopyPredicatedScalar;
  const unsigned psize = *dtype_size(r.pred);
  Plan pl;
  pl.count = std::min<uint32_t>(round_down((kSbufPartition - 64) / (psize + 4), 64), 65535);
  pl.src_span = pl.count * psize;
  pl.dst_off = round_down(pl.count * psize + 63, 64);
  const auto n = static_cast<uint16_t>(pl.count);
  Word w = sample_word(Opcode::CopyPredicatedScalar);
  put_tensor(w, field_of(F, "pred_mem_pattern"), tensor(3, 0, 0, {1, 0, 0}, {n, 1, 1}));
  put_u8(w, field_of(F, "pred_dtype"), code(r.pred));
  put_u8(w, field_of(F, "reversed_pred"), 1);  // write where the predicate is true
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_u8(w, field_of(F, "in_dtype"), code(Dtype::FP32));
  put_u8(w, field_of(F, "out_dtype"), code(Dtype::FP32));
  put_u32(w, field_of(F, "src0_imm"), std::bit_cast<uint32_t>(-9984.0f));
  put_tensor(w, field_of(F, "dst_mem_pattern"), tensor(3, 0, pl.dst_off, {1, 0, 0}, {n, 1, 1}));
  pl.words.push_back(w);
  return pl;
}

Row copy_predicated_row(const CopyPredicatedRow& r) {
  auto prog = std::make_shared<Program>();
  const Plan pl = copy_predicated_plan(r);
  const unsigned psize = *dtype_size(r.pred);
  const uint32_t count = pl.count, dst_off = pl.dst_off;
  uint64_t seed = 47;
  for (unsigned p = 0; p < kPartitions; ++p) {
    uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
    for (uint32_t i = 0; i < count; ++i) {
      const uint32_t flag = static_cast<uint32_t>(splitmix(seed) & 1);
      std::memcpy(part + i * psize, &flag, psize);
      const uint32_t v = random_fp32(seed);
      std::memcpy(part + dst_off + i * 4, &v, 4);
    }
  }
  prog->words = pl.words;
  for (unsigned p = 0; p < kPartitions; ++p)
    prog->outputs.push_back({p, {dst_off, dst_off + count * 4}});
  return input_row(std::string(r.name), prog, count * 4, r.goal, kPartitions, dst_off, "GB/s dst");
}

// ---- Copy and Cast ----------------------------------------------------------------------

// Random source data of a dtype: finite FP32 numbers in [-1000, 1000) (a few NaNs and
// infinities) and their high halves or bytes for the narrow floats, random bits for the
// integers.
uint32_t random_element(uint64_t& seed, Dtype dt) {
  const unsigned size = *dtype_size(dt);
  if (!is_float_dtype(dt)) {
    const auto r = static_cast<uint32_t>(splitmix(seed));
    return size == 4 ? r : r & ((1u << (8 * size)) - 1);
  }
  const uint32_t v = random_fp32(seed);
  return size == 4 ? v : size == 2 ? v >> 16 : v >> 24;
}

// The source walk of a Copy/Cast row: `count` elements in partition order, read with a
// step of `step` elements (negative: from the top of the span down), or, `transposed`, a
// rows x cols block read column by column (step cols, then 1: the transposed inner pair).
TensorDesc copy_source(uint32_t count, int16_t step, bool transposed, unsigned isz) {
  if (transposed) {
    const uint16_t rows = 64, cols = static_cast<uint16_t>(count / 64);
    return tensor(4, 0, 0, {static_cast<int16_t>(cols), 1, 0, 0}, {rows, cols, 1, 1});
  }
  const unsigned stride = static_cast<unsigned>(std::abs(step));
  const uint32_t start = step < 0 ? (count - 1) * stride * isz : 0;
  // count = 64 x (count / 64): two dimensions, so that it fits num_elem's 16 bits.
  return tensor(4, 0, start, {step, static_cast<int16_t>(64 * step), 0, 0},
                {64, static_cast<uint16_t>(count / 64), 1, 1});
}

// Copy or Cast over every partition: the source walk and a dense destination filling the
// partition, against memcpy of the source bytes and, for a converting pair, the plain
// Highway loop of the same conversion (`plain`, with a target unless `plain_target` is
// false).
struct CopyCastRow {
  std::string_view name;
  Dtype in, out;
  int16_t step;
  bool transposed;
  double goal;
  std::optional<PlainOp> plain = std::nullopt;
  bool plain_target = true;
};
constexpr CopyCastRow kCopyCastRows[] = {
    {"copy fp32 dense", Dtype::FP32, Dtype::FP32, 1, false, 0.8},
    {"copy bf16 dense", Dtype::BF16, Dtype::BF16, 1, false, 0.8},
    {"copy int8 dense", Dtype::INT8, Dtype::INT8, 1, false, 0.8},
    {"cast fp32->bf16 dense", Dtype::FP32, Dtype::BF16, 1, false, 0.5, PlainOp::Fp32ToBf16},
    {"cast bf16->fp32 dense", Dtype::BF16, Dtype::FP32, 1, false, 0.5, PlainOp::Bf16ToFp32},
    {"cast fp32->fp8_e4 dense", Dtype::FP32, Dtype::FP8_E4, 1, false, 0.5, PlainOp::Fp32ToFp16,
     false},
    {"cast int32->fp32 dense", Dtype::INT32, Dtype::FP32, 1, false, 0.5, PlainOp::Int32ToFp32},
    {"cast fp32->int32 dense", Dtype::FP32, Dtype::INT32, 1, false, 0.5, PlainOp::Fp32ToInt32},
    {"copy fp32 step 2", Dtype::FP32, Dtype::FP32, 2, false, 0.25},
    {"copy fp32 step -1", Dtype::FP32, Dtype::FP32, -1, false, 0.25},
    {"copy fp32 step 3", Dtype::FP32, Dtype::FP32, 3, false, 0.25},
    {"copy fp32 step -4", Dtype::FP32, Dtype::FP32, -4, false, 0.25},
    {"cast fp32->bf16 step 2", Dtype::FP32, Dtype::BF16, 2, false, 0.25},
    {"cast fp32->bf16 step -3", Dtype::FP32, Dtype::BF16, -3, false, 0.25},
    {"cast bf16->fp32 step 2", Dtype::BF16, Dtype::FP32, 2, false, 0.25},
    {"copy fp32 4-D transposed", Dtype::FP32, Dtype::FP32, 1, true, 0.25},
    {"cast fp32->bf16 4-D transposed", Dtype::FP32, Dtype::BF16, 1, true, 0.25},
};

Plan copy_cast_plan(const CopyCastRow& r) {
  constexpr auto& F = table::kCopy;  // Cast's layout too
  const unsigned isz = *dtype_size(r.in), osz = *dtype_size(r.out);
  const unsigned stride = r.transposed ? 1 : static_cast<unsigned>(std::abs(r.step));
  Plan pl;
  pl.count = round_down((kSbufPartition - 128) / (stride * isz + osz), 64);
  pl.src_span = pl.count * stride * isz;
  pl.dst_off = round_down(pl.src_span + 63, 64);
  Word w = sample_word(r.in == r.out ? Opcode::Copy : Opcode::Cast);
  put_tensor(w, field_of(F, "src_mem_pattern"), copy_source(pl.count, r.step, r.transposed, isz));
  put_u8(w, field_of(F, "in_dtype"), code(r.in));
  put_u8(w, field_of(F, "out_dtype"), code(r.out));
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_tensor(
      w, field_of(F, "dst_mem_pattern"),
      tensor(4, 0, pl.dst_off, {1, 64, 0, 0}, {64, static_cast<uint16_t>(pl.count / 64), 1, 1}));
  pl.words.push_back(w);
  return pl;
}

Row copy_cast_row(const CopyCastRow& r) {
  auto prog = std::make_shared<Program>();
  const Plan pl = copy_cast_plan(r);
  const Dtype in = r.in, out = r.out;
  const unsigned isz = *dtype_size(in), osz = *dtype_size(out);
  const uint32_t count = pl.count, src_span = pl.src_span, dst_off = pl.dst_off;
  uint64_t seed = 48 + static_cast<uint64_t>(in) * 16 + static_cast<uint64_t>(out);
  for (unsigned p = 0; p < kPartitions; ++p) {
    uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
    for (uint32_t i = 0; i < src_span / isz; ++i) {
      const uint32_t v = random_element(seed, in);
      std::memcpy(part + i * isz, &v, isz);
    }
  }
  prog->words = pl.words;
  for (unsigned p = 0; p < kPartitions; ++p)
    prog->outputs.push_back({p, {dst_off, dst_off + count * osz}});
  Row row = input_row(std::string(r.name), prog, count * isz, r.goal);
  if (r.plain) {
    const PlainOp op = *r.plain;
    const unsigned psize = op == PlainOp::Fp32ToBf16 || op == PlainOp::Fp32ToFp16 ? 2u : 4u;
    auto to = std::make_shared<std::vector<uint8_t>>(std::size_t{kPartitions} * count * psize);
    const char* label = op == PlainOp::Fp32ToBf16    ? "Highway DemoteTo loop"
                        : op == PlainOp::Bf16ToFp32  ? "Highway PromoteTo loop"
                        : op == PlainOp::Fp32ToFp16  ? "Highway DemoteTo fp16 loop"
                        : op == PlainOp::Int32ToFp32 ? "Highway ConvertTo loop"
                                                     : "Highway NearestInt loop";
    row.contenders.push_back(
        {label,
         [prog, to, count, psize, op] {
           for (unsigned p = 0; p < kPartitions; ++p)
             plain_convert(op, prog->machine.partition(Space::SBUF, p).data(), count,
                           to->data() + std::size_t{p} * count * psize);
         },
         [prog, to, count, psize, op] {
           // The loop's output is the op's own rule, element by element.
           std::vector<uint8_t> want(std::size_t{count} * psize);
           for (unsigned p = 0; p < kPartitions; ++p) {
             const uint8_t* src = prog->machine.partition(Space::SBUF, p).data();
             for (uint32_t i = 0; i < count; ++i) plain_convert_expected(op, src, i, want.data());
             if (std::memcmp(want.data(), to->data() + std::size_t{p} * count * psize,
                             want.size()) != 0)
               return false;
           }
           return true;
         }});
    if (r.plain_target) row.targets.push_back({3, Goal::SpeedupAtLeast, 1.0});
  }
  return row;
}

// ---- the DVE search instructions ------------------------------------------------------

// The values of a search row: uniform, normal, sorted either way, or few distinct.
enum class Order { Random, Normal, Ascending, Descending, Dups16 };

const char* order_suffix(Order o) {
  switch (o) {
    case Order::Random:
      return "";
    case Order::Normal:
      return " normal";
    case Order::Ascending:
      return " ascending";
    case Order::Descending:
      return " descending";
    case Order::Dups16:
      return " dups16";
  }
  return "";
}

// Max8, FindIndex8 or MatchReplace8 over 128 partitions x n elements of `dt` (FP32 or
// BF16, finite) at offset 0: `Random`, uniform in [-1000, 1000) (distinct enough);
// `Normal`, N(0, 4^2) (scores or logits); `Ascending` and `Descending`, uniform values
// sorted (ascending is the worst case of a gate: every vector raises it, and the keys all
// lie at the row's end); `Dups16`, 16 distinct uniform values, each element one of them.
// BF16 elements are the FP32 value's high half, so rows have ties. FindIndex8 and
// MatchReplace8 run after a MatchValueLoad of each row's 8 largest values (as a top-k
// round does), so every key is found once somewhere in the row.
struct SearchRow {
  std::string name;
  Opcode op;
  Dtype dt;
  uint32_t n;
  double goal;
  Order order;
};
// Max8 on every order of values; FindIndex8 and MatchReplace8 on random and ascending
// rows.
std::vector<SearchRow> search_rows() {
  std::vector<SearchRow> rows;
  for (Opcode op : {Opcode::Max8, Opcode::FindIndex8, Opcode::MatchReplace8})
    for (Dtype dt : {Dtype::FP32, Dtype::BF16})
      for (uint32_t n : {512u, 16384u})
        for (Order order :
             {Order::Random, Order::Ascending, Order::Normal, Order::Descending, Order::Dups16}) {
          if (op != Opcode::Max8 && order != Order::Random && order != Order::Ascending) continue;
          rows.push_back({fmt::format("{} {} 128x{}{}", instruction(op).mnemonic, dtype_label(dt),
                                      n, order_suffix(order)),
                          op, dt, n, op == Opcode::Max8 ? 0.5 : 0.3, order});
        }
  return rows;
}

// The words: for FindIndex8 and MatchReplace8 a MatchValueLoad of the keys at aux_off,
// then the instruction, its source the row at offset 0, its destination at dst_off.
Plan search_plan(const SearchRow& r) {
  const unsigned size = *dtype_size(r.dt);
  Plan pl;
  pl.count = r.n;
  pl.src_span = r.n * size;
  pl.dst_off = round_down(pl.src_span + 63, 64);
  pl.aux_off = pl.dst_off + round_down(pl.src_span + 63, 64);
  const auto n = static_cast<uint16_t>(r.n);
  if (r.op != Opcode::Max8) {
    constexpr auto& F = table::kMatchValueLoad;
    Word l = sample_word(Opcode::MatchValueLoad);
    put_tensor(l, field_of(F, "src_mem_pattern"), tensor(2, 0, pl.aux_off, {1, 0}, {8, 1}));
    put_u8(l, field_of(F, "dtype"), code(r.dt));
    put_u8(l, field_of(F, "num_active_channels"), kPartitions);
    pl.words.push_back(l);
  }
  const TensorDesc src = tensor(4, 0, 0, {1, 0, 0, 0}, {n, 1, 1, 1});
  Word w = sample_word(r.op);
  if (r.op == Opcode::MatchReplace8) {
    constexpr auto& F = table::kMatchReplace8;
    put_tensor(w, field_of(F, "src_mem_pattern"), src);
    put_u8(w, field_of(F, "in_dtype"), code(r.dt));
    put_u8(w, field_of(F, "out_dtype"), code(r.dt));
    put_u8(w, field_of(F, "num_active_channels"), kPartitions);
    put_u32(w, field_of(F, "immediate"), 0xff800000u);  // -inf, as a top-k round replaces
    put_tensor(w, field_of(F, "dst_mem_pattern"),
               tensor(4, 0, pl.dst_off, {1, 0, 0, 0}, {n, 1, 1, 1}));
  } else {
    constexpr auto& F = table::kMax8;  // FindIndex8's layout too
    put_tensor(w, field_of(F, "src_mem_pattern"), src);
    put_u8(w, field_of(F, "in_dtype"), code(r.dt));
    put_u8(w, field_of(F, "out_dtype"), code(r.op == Opcode::FindIndex8 ? Dtype::UINT32 : r.dt));
    put_u8(w, field_of(F, "num_active_channels"), kPartitions);
    put_tensor(w, field_of(F, "dst_mem_pattern"), tensor(2, 0, pl.dst_off, {1, 0}, {8, 1}));
  }
  pl.words.push_back(w);
  return pl;
}

Row search_row(const SearchRow& spec) {
  auto prog = std::make_shared<Program>();
  const Plan pl = search_plan(spec);
  const Opcode op = spec.op;
  const Order order = spec.order;
  const uint32_t n = spec.n;
  const unsigned size = *dtype_size(spec.dt);
  const uint32_t bytes = pl.src_span, dst_off = pl.dst_off, key_off = pl.aux_off;
  uint64_t seed = 0x5ea4c400u + n + size + static_cast<uint64_t>(order) * 0x1000000u;
  auto uniform = [&] { return static_cast<double>(splitmix(seed) >> 11) * 0x1p-53; };
  auto pattern = [&](double v) {
    const uint32_t f = std::bit_cast<uint32_t>(static_cast<float>(v));
    return size == 4 ? f : f >> 16;
  };
  auto value = [&] {  // finite, in [-1000, 1000)
    return pattern((uniform() - 0.5) * 2000.0);
  };
  std::vector<std::vector<float>> rows(kPartitions);
  for (unsigned p = 0; p < kPartitions; ++p) {
    uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
    std::vector<uint32_t> patterns(n);
    if (order == Order::Normal) {
      for (uint32_t& v : patterns) {  // Box-Muller
        const double u = 1.0 - uniform(), w = uniform();
        v = pattern(4.0 * std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * w));
      }
    } else if (order == Order::Dups16) {
      uint32_t pool[16];
      for (uint32_t& v : pool) v = value();
      for (uint32_t& v : patterns) v = pool[splitmix(seed) % 16];
    } else {
      for (uint32_t& v : patterns) v = value();
    }
    auto as_float = [size](uint32_t v) { return fp32_from_bits(size == 4 ? v : v << 16); };
    if (order == Order::Ascending)
      std::stable_sort(patterns.begin(), patterns.end(),
                       [&](uint32_t a, uint32_t b) { return as_float(a) < as_float(b); });
    if (order == Order::Descending)
      std::stable_sort(patterns.begin(), patterns.end(),
                       [&](uint32_t a, uint32_t b) { return as_float(a) > as_float(b); });
    for (uint32_t i = 0; i < n; ++i) {
      std::memcpy(part + i * size, &patterns[i], size);
      rows[p].push_back(as_float(patterns[i]));
    }
    std::vector<float> top = rows[p];
    std::partial_sort(top.begin(), top.begin() + 8, top.end(), std::greater<float>());
    for (unsigned k = 0; k < 8; ++k) {
      const uint32_t b = bits_from_fp32(top[k]);
      const uint32_t v = size == 4 ? b : b >> 16;
      std::memcpy(part + key_off + k * size, &v, size);
    }
  }
  prog->words = pl.words;
  const uint32_t out_bytes = op == Opcode::MatchReplace8 ? bytes
                             : op == Opcode::FindIndex8  ? 8 * 4
                                                         : 8 * size;
  for (unsigned p = 0; p < kPartitions; ++p)
    prog->outputs.push_back({p, {dst_off, dst_off + out_bytes}});
  Row row = input_row(spec.name, prog, bytes, spec.goal);
  if (op == Opcode::Max8) {
    // std::partial_sort of the same rows for their 8 largest, checked against Max8's. A
    // user widens the row first with a typed loop (the compiler vectorises it; here a
    // Highway loop, as the Sort baselines build their keys): FP32 rows are copied whole,
    // BF16 ones widened by a 16-bit shift (baseline_keys.cc).
    auto host = std::make_shared<std::vector<float>>(n);
    auto result = std::make_shared<std::vector<float>>(std::size_t{kPartitions} * 8);
    row.contenders.push_back(
        {"std::partial_sort top 8",
         [prog, host, result, n, size] {
           std::vector<float>& r = *host;
           for (unsigned p = 0; p < kPartitions; ++p) {
             const uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
             if (size == 4)
               std::memcpy(r.data(), part, std::size_t{n} * 4);
             else
               widen_bf16(reinterpret_cast<const uint16_t*>(part), n, r.data());
             std::partial_sort(r.begin(), r.begin() + 8, r.end(), std::greater<float>());
             std::copy(r.begin(), r.begin() + 8, result->begin() + std::size_t{p} * 8);
           }
         },
         [prog, result, size] {
           for (unsigned p = 0; p < kPartitions; ++p)
             for (unsigned k = 0; k < 8; ++k) {
               // Max8 writes ascending: slot k holds the (8 - k)-th largest.
               uint32_t v = 0;
               std::memcpy(&v, prog->expected[p].data() + k * size, size);
               const uint32_t want = size == 4 ? v : v << 16;
               if (bits_from_fp32((*result)[std::size_t{p} * 8 + 7 - k]) != want) return false;
             }
           return true;
         }});
    row.targets.push_back({row.contenders.size() - 1, Goal::SpeedupAtLeast, 4.0});
  }
  return row;
}

// ---- the ALU instructions: TensorTensor, TensorScalar ---------------------------------

// Fills `count` elements of dt from byte `off` of every partition: random FP32 numbers
// (random_fp32; BF16 their high half) for the float dtypes, and for the integers random
// bits or, with `below`, numbers in [0, below) (shift counts, some >= 32).
void fill_alu_operand(Program& prog, uint32_t off, uint32_t count, Dtype dt, uint64_t seed,
                      uint32_t below = 0) {
  const unsigned size = *dtype_size(dt);
  for (unsigned p = 0; p < kPartitions; ++p) {
    uint8_t* part = prog.machine.partition(Space::SBUF, p).data() + off;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t v = is_int_dtype(dt) ? static_cast<uint32_t>(splitmix(seed)) : random_fp32(seed);
      if (below) v %= below;
      if (dt == Dtype::BF16) v >>= 16;
      std::memcpy(part + std::size_t{i} * size, &v, size);
    }
  }
}

// The plain loop of the same op over the same sources into the instruction's destination
// bytes (the same memory traffic, the same addresses), checked against its own scalar
// expression (NaN payloads aside: it does not canonicalise). The instruction's own check
// runs right after its own passes, so the two never see each other's output.
void add_plain_loop(Row& row, std::shared_ptr<Program> prog, PlainAluOp op, uint32_t src0,
                    uint32_t src1, uint32_t dst, uint32_t count) {
  auto at = [prog](unsigned p, uint32_t off) {
    return reinterpret_cast<float*>(prog->machine.partition(Space::SBUF, p).data() + off);
  };
  row.contenders.push_back(
      {"plain C++ loop, -O3",
       [at, op, src0, src1, dst, count] {
         for (unsigned p = 0; p < kPartitions; ++p)
           plain_fp32(op, at(p, src0), at(p, src1), count, at(p, dst));
       },
       [at, op, src0, src1, dst, count] {
         for (unsigned p = 0; p < kPartitions; ++p)
           for (uint32_t i = 0; i < count; ++i) {
             const float a = at(p, src0)[i], b = at(p, src1)[i], got = at(p, dst)[i];
             const float want = op == PlainAluOp::Add    ? a + b
                                : op == PlainAluOp::Mult ? a * b
                                                         : std::max(a, b);
             if (std::bit_cast<uint32_t>(got) != std::bit_cast<uint32_t>(want) &&
                 !(std::isnan(got) && std::isnan(want)))
               return false;
           }
         return true;
       }});
  row.targets.push_back({row.contenders.size() - 1, Goal::SpeedupAtLeast, 1.0});
}

// One TensorTensor word over all 128 partitions: src0, src1 (at aux_off) and the
// destination, dense runs of `count` elements one after the other, filling the partition.
// GB/s of both sources, against memcpy of those bytes (and the plain loop, when given).
struct TensorTensorRow {
  std::string_view name;
  Opcode opcode;
  AluOp op;
  Dtype dt;
  std::optional<Engine> engine;
  double goal;
  std::optional<PlainAluOp> plain;
};
constexpr Opcode kTta = Opcode::TensorTensorArith, kTtb = Opcode::TensorTensorBitvec;
constexpr TensorTensorRow kTensorTensorRows[] = {
    {"TensorTensor fp32 add full SBUF", kTta, AluOp::ADD, Dtype::FP32, Engine::DVE, 0.5,
     PlainAluOp::Add},
    {"TensorTensor fp32 mult full SBUF", kTta, AluOp::MULT, Dtype::FP32, Engine::DVE, 0.5,
     PlainAluOp::Mult},
    {"TensorTensor fp32 max full SBUF", kTta, AluOp::MAX, Dtype::FP32, Engine::DVE, 0.5,
     PlainAluOp::Max},
    {"TensorTensorBitvec int32 and full SBUF", kTtb, AluOp::BITWISE_AND, Dtype::INT32, Engine::DVE,
     0.5, std::nullopt},
    {"TensorTensorBitvec int32 xor full SBUF", kTtb, AluOp::BITWISE_XOR, Dtype::INT32, Engine::DVE,
     0.5, std::nullopt},
    {"TensorTensorBitvec int32 shl full SBUF", kTtb, AluOp::LOGICAL_SHIFT_LEFT, Dtype::INT32,
     Engine::DVE, 0.5, std::nullopt},
    {"TensorTensorBitvec int32 ashr full SBUF", kTtb, AluOp::ARITH_SHIFT_RIGHT, Dtype::INT32,
     Engine::DVE, 0.5, std::nullopt},
    {"TensorTensor pool int32 add full SBUF", kTta, AluOp::ADD, Dtype::INT32, Engine::POOL, 0.5,
     std::nullopt},
    {"TensorTensor pool int32 mult full SBUF", kTta, AluOp::MULT, Dtype::INT32, Engine::POOL, 0.5,
     std::nullopt},
};

Plan tensor_tensor_plan(const TensorTensorRow& r) {
  constexpr auto& F = table::kTensorTensorArith;  // TensorTensorBitvec's layout too
  const unsigned size = *dtype_size(r.dt);
  Plan pl;
  pl.count = std::min<uint32_t>(round_down(kSbufPartition / (3 * size), 64), 65535);
  pl.src_span = pl.count * size;
  pl.aux_off = pl.count * size;
  pl.dst_off = 2 * pl.count * size;
  const auto n = static_cast<uint16_t>(pl.count);
  Word w = sample_word(r.opcode);
  put_u8(w, field_of(F, "in0_in1_dtype"), dtype_pair(r.dt, r.dt));
  put_u8(w, field_of(F, "out_dtype"), code(r.dt));
  put_u8(w, field_of(F, "op"), code(r.op));
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_tensor(w, field_of(F, "src0_mem_pattern"), tensor(3, 0, 0, {1, 0, 0}, {n, 1, 1}));
  put_tensor(w, field_of(F, "src1_mem_pattern"), tensor(3, 0, pl.aux_off, {1, 0, 0}, {n, 1, 1}));
  put_tensor(w, field_of(F, "dst_mem_pattern"), tensor(3, 0, pl.dst_off, {1, 0, 0}, {n, 1, 1}));
  pl.words.push_back(w);
  return pl;
}

Row tensor_tensor_row(const TensorTensorRow& r) {
  auto prog = std::make_shared<Program>();
  prog->engine = r.engine;
  const Plan pl = tensor_tensor_plan(r);
  const Dtype dt = r.dt;
  const unsigned size = *dtype_size(dt);
  const uint32_t count = pl.count, b0 = 0, b1 = pl.aux_off, bd = pl.dst_off;
  const bool shift = alu::is_shift_op(static_cast<uint8_t>(r.op));
  fill_alu_operand(*prog, b0, count, dt, 51);
  fill_alu_operand(*prog, b1, count, dt, 52, shift ? 40 : 0);
  prog->words = pl.words;
  for (unsigned p = 0; p < kPartitions; ++p) prog->outputs.push_back({p, {bd, bd + count * size}});
  Row row = input_row(std::string(r.name), prog, 2 * count * size, r.goal);
  if (r.plain) add_plain_loop(row, prog, *r.plain, b0, b1, bd, count);
  return row;
}

// One TensorScalarPtrArith word over all 128 partitions, (x MULT s0) ADD s1 with both
// scalars per partition by pointer (SPEC §4.15's e·f + c; they sit at aux_off), dt in and
// out: source and destination dense, filling the partition. GB/s of the source, against
// memcpy of it.
struct TensorScalarRow {
  std::string_view name;
  Dtype dt;
  double goal;
};
constexpr TensorScalarRow kTensorScalarRows[] = {
    {"TensorScalar fp32 mult,add ptr full SBUF", Dtype::FP32, 0.5},
    {"TensorScalar bf16 mult,add ptr full SBUF", Dtype::BF16, 0.3},
};

Plan tensor_scalar_plan(const TensorScalarRow& r) {
  constexpr auto& F = table::kTensorScalarPtrArith;
  const unsigned size = *dtype_size(r.dt);
  Plan pl;
  pl.count = std::min<uint32_t>(round_down((kSbufPartition - 128) / (2 * size), 64), 65535);
  pl.src_span = pl.count * size;
  pl.dst_off = round_down(pl.count * size + 63, 64);
  pl.aux_off = round_down(pl.dst_off + pl.count * size + 63, 64);
  const auto n = static_cast<uint16_t>(pl.count);
  Word w = sample_word(Opcode::TensorScalarPtrArith);
  put_tensor(w, field_of(F, "src_mem_pattern"), tensor(3, 0, 0, {1, 0, 0}, {n, 1, 1}));
  put_u8(w, field_of(F, "in_dtype"), code(r.dt));
  put_u8(w, field_of(F, "out_dtype"), code(r.dt));
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_u8(w, field_of(F, "op0"), code(AluOp::MULT));
  put_u8(w, field_of(F, "op1"), code(AluOp::ADD));
  put_u32(w, field_of(F, "imm0"), encode_static_addr({Space::SBUF, 0, pl.aux_off}));
  put_u32(w, field_of(F, "imm1"), encode_static_addr({Space::SBUF, 0, pl.aux_off + 4}));
  put_tensor(w, field_of(F, "dst_mem_pattern"), tensor(3, 0, pl.dst_off, {1, 0, 0}, {n, 1, 1}));
  pl.words.push_back(w);
  return pl;
}

Row tensor_scalar_row(const TensorScalarRow& r) {
  auto prog = std::make_shared<Program>();
  const Plan pl = tensor_scalar_plan(r);
  const Dtype dt = r.dt;
  const unsigned size = *dtype_size(dt);
  const uint32_t count = pl.count, bd = pl.dst_off, bs = pl.aux_off;
  fill_alu_operand(*prog, 0, count, dt, 53);
  for (unsigned p = 0; p < kPartitions; ++p) {
    uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
    const uint32_t s0 = std::bit_cast<uint32_t>(0.125f * static_cast<float>(p + 1));
    const uint32_t s1 = std::bit_cast<uint32_t>(static_cast<float>(p) - 63.5f);
    std::memcpy(part + bs, &s0, 4);
    std::memcpy(part + bs + 4, &s1, 4);
  }
  prog->words = pl.words;
  for (unsigned p = 0; p < kPartitions; ++p) prog->outputs.push_back({p, {bd, bd + count * size}});
  return input_row(std::string(r.name), prog, count * size, r.goal);
}

// ---- per-instruction overhead and decode + validate ---------------------------------

// One channel, 16 elements, through execute(): each instruction's sample word (its op
// file's, one channel in partition 3), the same word many times.
Row overhead_row(const InstrDef& def) {
  auto prog = std::make_shared<Program>();
  uint64_t seed = 45;
  uint8_t* part = prog->machine.partition(Space::SBUF, 3).data();
  for (uint32_t i = 0; i < 64; ++i) {
    const uint32_t v = random_fp32(seed);
    std::memcpy(part + i * 4, &v, 4);
  }
  const detail::OpSemantics& ops = detail::semantics(def);
  const Word w = ops.sample(3);
  constexpr unsigned kRepeat = 1000;  // a pass: the same word many times
  for (unsigned i = 0; i < kRepeat; ++i) prog->words.push_back(w);
  prog->outputs.push_back({3, {256, 256 + 128}});
  prog->prepare();
  Row row;
  row.name = fmt::format("execute() {} 1ch x 16", ops.sample_label);
  row.unit = "ns/instr";
  row.per_run = kRepeat;
  add_program_contenders(row, prog);
  row.targets.push_back({0, Goal::AbsoluteAtMost, 1000.0});
  return row;
}

// 512 valid words, the instructions' sample words in turn, over all partitions.
std::vector<Word> bench_words() {
  std::vector<Word> words;
  const auto rows = instructions();
  for (unsigned i = 0; i < 512; ++i)
    words.push_back(detail::semantics(rows[i % rows.size()]).sample((i / 4) % 128));
  return words;
}

Row decode_validate_row(std::vector<Word> words, bool with_decode) {
  auto sink = std::make_shared<std::size_t>(0);
  auto ok = std::make_shared<bool>(true);
  auto pool = std::make_shared<std::vector<Word>>(std::move(words));
  Row row;
  row.name = with_decode ? "decode() + validate(), one thread" : "validate(), one thread";
  row.unit = "ns/word";
  row.per_run = static_cast<double>(pool->size());
  row.contenders.push_back({"gpsimd",
                            [pool, sink, ok, with_decode] {
                              for (const Word& w : *pool) {
                                if (with_decode) {
                                  auto d = decode(w);
                                  *sink += d ? d->values.size() : 0;
                                }
                                const Diagnostics diags = validate(w, kGen);
                                if (!diags.empty()) *ok = false;
                                *sink += diags.size();
                              }
                            },
                            [ok] { return *ok; }});
  row.targets.push_back({0, Goal::AbsoluteAtMost, 100.0});  // 10 M words/s
  return row;
}

// ---- measuring and printing ---------------------------------------------------------

struct Result {
  std::vector<double> medians;  // seconds per pass, per contender
  bool verified = true;
  std::string failed;
};

Result measure(Row& row, const BenchOptions& opts) {
  const std::size_t nc = row.contenders.size();
  Result res;
  const auto clock = uses_cpu_time(opts) ? thread_cpu_seconds : now_seconds;
  std::vector<unsigned> reps(nc, 1);
  // Calibrate: one warm pass, then enough passes per sample to last min_sample_ms.
  for (std::size_t c = 0; c < nc; ++c) {
    row.contenders[c].run();
    const double t0 = clock();
    row.contenders[c].run();
    const double t = std::max(clock() - t0, 1e-7);
    reps[c] = std::max(1u, static_cast<unsigned>(std::ceil(opts.min_sample_ms * 1e-3 / t)));
  }
  std::vector<std::vector<double>> times(nc);
  for (unsigned s = 0; s < opts.samples; ++s) {
    for (std::size_t k = 0; k < nc; ++k) {
      const std::size_t c = (k + s) % nc;  // rotate who goes first
      const double t0 = clock();
      for (unsigned r = 0; r < reps[c]; ++r) row.contenders[c].run();
      times[c].push_back((clock() - t0) / reps[c]);
      if (!row.contenders[c].verify()) {
        res.verified = false;
        res.failed = row.contenders[c].name;
      }
    }
  }
  for (auto& t : times) res.medians.push_back(median(t));
  return res;
}

std::string show(const Row& row, double seconds) {
  if (row.throughput) return fmt::format("{:.2f}", row.per_run / seconds * 1e-9);
  return fmt::format("{:.2f}", seconds / row.per_run * 1e9);
}

}  // namespace

namespace bench {

// A memcpy of the same input bytes: each partition's source range to a buffer of its
// own (the instruction's destination may be narrower than its source).
void add_memcpy(Row& row, std::shared_ptr<Program> prog, uint32_t src_off, uint32_t bytes,
                unsigned partitions) {
  auto to = std::make_shared<std::vector<uint8_t>>(std::size_t{partitions} * bytes);
  row.contenders.push_back(
      {"memcpy same bytes",
       [prog, to, src_off, bytes, partitions] {
         for (unsigned p = 0; p < partitions; ++p)
           std::memcpy(to->data() + std::size_t{p} * bytes,
                       prog->machine.partition(Space::SBUF, p).data() + src_off, bytes);
       },
       [prog, to, src_off, bytes, partitions] {
         // memcpy does other work than the instruction: check the copy itself.
         for (unsigned p = 0; p < partitions; ++p)
           if (std::memcmp(to->data() + std::size_t{p} * bytes,
                           prog->machine.partition(Space::SBUF, p).data() + src_off, bytes))
             return false;
         return true;
       }});
}

// A row of a program whose work is `bytes` per partition at `offset` of the first
// `partitions`: GB/s of those bytes, against memcpy of them (target: speedup >= goal).
Row input_row(const std::string& name, std::shared_ptr<Program> prog, uint32_t bytes, double goal,
              unsigned partitions, uint32_t offset, const char* unit) {
  prog->prepare();
  Row row;
  row.name = name;
  row.unit = unit;
  row.throughput = true;
  row.per_run = static_cast<double>(partitions) * bytes;
  add_program_contenders(row, prog);
  add_memcpy(row, prog, offset, bytes, partitions);
  row.targets.push_back({2, Goal::SpeedupAtLeast, goal});
  return row;
}

uint32_t round_down(uint32_t v, uint32_t to) {
  return v / to * to;
}

}  // namespace bench

Word bench::sample_word(Opcode op) {
  return detail::semantics(instruction(op)).sample(0);
}

std::vector<Workload> bench::workloads(bool all_distributions) {
  std::vector<Workload> all;
  add_sort_workloads(all, all_distributions);
  add_rows(all, kRangeSelectRows, range_select_row, range_select_plan);
  add_rows(all, kTensorScalarSelectRows, tensor_scalar_select_row, tensor_scalar_select_plan);
  add_rows(all, kSequenceBoundsRows, sequence_bounds_row, sequence_bounds_plan);
  add_rows(all, kAffineSelectRows, affine_select_row, affine_select_plan);
  add_rows(all, kIotaRows, iota_row, iota_plan);
  add_rows(all, nonzero_rows(), nonzero_with_count_row, nonzero_with_count_plan);
  add_rows(all, kCopyPredicatedRows, copy_predicated_row, copy_predicated_plan);
  add_rows(all, kCopyCastRows, copy_cast_row, copy_cast_plan);
  add_rows(all, kTensorTensorRows, tensor_tensor_row, tensor_tensor_plan);
  add_rows(all, kTensorScalarRows, tensor_scalar_row, tensor_scalar_plan);
  add_rows(all, search_rows(), search_row, search_plan);
  add_kernel_ops_workloads(all);
  for (const InstrDef& def : instructions()) {
    // SPEC §4.21: every ScalarTensorTensorBitvec word faults unsupported-op; nothing to time.
    if (def.opcode == Opcode::ScalarTensorTensorBitvec) continue;
    all.push_back({fmt::format("execute() {} 1ch x 16", detail::semantics(def).sample_label),
                   [&def] { return overhead_row(def); },
                   [&def] { return std::vector<Word>(1, detail::semantics(def).sample(3)); },
                   std::nullopt});
  }
  all.push_back({"program 10000 words, three queues", [] { return program_row(); }, {}, {}});
  all.push_back({"validate(), one thread", [] { return decode_validate_row(bench_words(), false); },
                 bench_words, std::nullopt});
  all.push_back({"decode() + validate(), one thread",
                 [] { return decode_validate_row(bench_words(), true); }, bench_words,
                 std::nullopt});
  return all;
}

BenchMachine bench_machine() {
  BenchMachine m;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);)
    if (line.rfind("model name", 0) == 0 && line.find(':') != std::string::npos) {
      const std::size_t v = line.find_first_not_of(" \t", line.find(':') + 1);
      m.cpu_model = v == std::string::npos ? "" : line.substr(v);
      break;
    }
  if (m.cpu_model.empty()) m.cpu_model = "unknown (no \"model name\" in /proc/cpuinfo)";
  m.simd_target = kernels::simd_target();
  const std::vector<std::string> supported = kernels::simd_targets_supported();
  m.best_target = supported.empty() ? m.simd_target : supported.front();
  m.hardware_threads = std::thread::hardware_concurrency();
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    std::vector<unsigned> cpus;
    for (unsigned c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
    m.pinned_cpus = cpu_list(cpus);
  } else {
    m.pinned_cpus = "unknown (sched_getaffinity failed)";
  }
  std::ifstream loadavg("/proc/loadavg");
  std::string a, b, c;
  if (loadavg >> a >> b >> c)
    m.load_average = a + " " + b + " " + c;
  else
    m.load_average = "unknown (no /proc/loadavg)";
  return m;
}

std::string bench_header(const BenchOptions& opts) {
  const BenchMachine m = bench_machine();
  return fmt::format(
      "gpsimd bench\n"
      "CPU:          {} ({} hardware threads)\n"
      "SIMD target:  {} ({}the kernels, the baselines' key loops and vqsort)\n"
      "pinned CPUs:  {}\n"
      "load average: {} (1, 5, 15 min, at the start)\n"
      "threads:      instructions may use {}; baselines use 1\n"
      "clock:        {}\n"
      "Medians of {} samples per contender, contenders interleaved, each sample >= {} ms; "
      "every run's output checked against the scalar reference.\n"
      "speedup = baseline time / gpsimd time; time ratio = gpsimd time / baseline time.\n",
      m.cpu_model, m.hardware_threads, m.simd_target,
      m.simd_target == m.best_target
          ? std::string()
          : fmt::format("forced by --target; this CPU's best is {}; ", m.best_target),
      m.pinned_cpus, m.load_average, opts.threads ? kernels::pool_threads() : 1,
      uses_cpu_time(opts)
          ? "the thread's CPU time (user + system; waiting for the CPU is not counted)"
          : "wall-clock time",
      opts.samples, opts.min_sample_ms);
}

int run_bench_suite(const BenchOptions& opts, std::FILE* out) {
  // Workloads are built lazily: building one allocates and fills a machine (28 MiB).
  const std::vector<Workload> all = workloads(opts.all_distributions);

  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].name.find(opts.filter) != std::string::npos) chosen.push_back(i);
  if (chosen.empty()) {
    fmt::print(out, "gpsimd bench: no workload matches \"{}\"\n", opts.filter);
    return 2;
  }
  if (opts.list) {
    for (std::size_t i : chosen) fmt::print(out, "{}\n", all[i].name);
    return 0;
  }

  if (!opts.target.empty()) {
    const std::string error = kernels::force_simd_target(opts.target);
    if (!error.empty()) {
      fmt::print(out, "gpsimd bench: --target {}: {}\n", opts.target, error);
      return 2;
    }
  }
  const bool was_parallel = kernels::parallel_enabled();
  kernels::set_parallel(opts.threads);
  fmt::print(out, "{}\n", bench_header(opts));
  fmt::print(out, "{:<40} {:>9} {:<9} {:<24} {:>9} {:>8} {:>7}  {:<10} {}\n", "workload", "gpsimd",
             "unit", "baseline", "baseline", "speedup", "time", "target", "result");
  fmt::print(out, "{:<40} {:>9} {:<9} {:<24} {:>9} {:>8} {:>7}  {:<10}\n", "", "", "", "", "", "",
             "ratio", "");
  int status = 0;
  unsigned met = 0, missed = 0;
  for (std::size_t i : chosen) {
    Row row = all[i].row();
    const Result r = measure(row, opts);
    const double ours = r.medians[0];
    if (!r.verified) status = 1;
    auto verdict = [&](const Target* t, double speedup) -> std::string {
      if (!r.verified) return "OUTPUT MISMATCH (" + r.failed + ")";
      if (!t) return "";
      bool ok = false;
      switch (t->goal) {
        case Goal::SpeedupAtLeast:
          ok = speedup >= t->value;
          break;
        case Goal::TimeRatioAtMost:
          ok = 1.0 / speedup <= t->value;
          break;
        case Goal::AbsoluteAtMost:
          ok = ours / row.per_run * 1e9 <= t->value;
          break;
        case Goal::None:
          return "";
      }
      ++(ok ? met : missed);
      return ok ? "met" : "MISSED";
    };
    auto target_text = [&](const Target* t) -> std::string {
      if (!t) return "";
      switch (t->goal) {
        case Goal::SpeedupAtLeast:
          return fmt::format(">= {}x", t->value);
        case Goal::TimeRatioAtMost:
          return fmt::format("<= {} time", t->value);
        case Goal::AbsoluteAtMost:
          return fmt::format("<= {} {}", t->value, row.unit.substr(0, 2));
        case Goal::None:
          return "";
      }
      return "";
    };
    bool first = true;
    auto line = [&](const std::string& peer, double peer_time, const Target* t,
                    const std::string& note = "") {
      const double speedup = peer_time > 0 ? peer_time / ours : 0;
      std::string result = verdict(t, speedup);
      if (!note.empty()) result += (result.empty() ? "" : " ") + note;
      fmt::print(out, "{:<40} {:>9} {:<9} {:<24} {:>9} {:>8} {:>7}  {:<10} {}\n",
                 first ? row.name : "", first ? show(row, ours) : "", first ? row.unit : "", peer,
                 peer_time > 0 ? show(row, peer_time) : "",
                 peer_time > 0 ? fmt::format("{:.2f}x", speedup) : "",
                 peer_time > 0 ? fmt::format("{:.2f}", 1 / speedup) : "", target_text(t), result);
      first = false;
    };
    auto target_of = [&](std::size_t peer) -> const Target* {
      const Target* t = nullptr;
      for (const Target& x : row.targets)
        if (x.peer == peer && x.goal != Goal::AbsoluteAtMost) t = &x;
      return t;
    };
    for (const Target& t : row.targets)
      if (t.goal == Goal::AbsoluteAtMost) line("", 0, &t);
    const std::size_t nc = row.contenders.size();
    for (std::size_t c = 1; c < nc; ++c) line(row.contenders[c].name, r.medians[c], target_of(c));
    // A best line: the fastest of its contenders, named after the time ratio.
    for (std::size_t b = 0; b < row.bests.size(); ++b) {
      const auto& of = row.bests[b].of;
      const std::size_t win = *std::min_element(
          of.begin(), of.end(), [&](auto x, auto y) { return r.medians[x] < r.medians[y]; });
      line(row.bests[b].name, r.medians[win], target_of(nc + b), "= " + row.contenders[win].name);
    }
    std::fflush(out);
  }
  kernels::set_parallel(was_parallel);
  if (!opts.target.empty()) kernels::force_simd_target("");
  fmt::print(out, "\n{} targets met, {} missed; outputs {}.\n", met, missed,
             status == 0 ? "all verified" : "NOT all verified");
  return status;
}

}  // namespace gpsimd
