// The harness of `gpsimd bench` (suite/bench.h), shared by its files: suite.cc
// (the table, the streaming, search and overhead rows), sort_rows.cc (the Sort rows)
// and baseline_keys.cc (the Sort baselines' vector loops).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <ranges>
#include <string>
#include <utility>
#include <vector>

#include "gpsimd/execute.h"
#include "gpsimd/isa.h"
#include "gpsimd/machine.h"
#include "gpsimd/types.h"
#include "ops/op.h"

namespace gpsimd::bench {

inline constexpr Generation kGen = Generation::V3;

// ---- the data -------------------------------------------------------------------------

inline uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

// Random finite FP32 numbers in [-1000, 1000), a few NaNs and infinities among them.
inline uint32_t random_fp32(uint64_t& s) {
  const uint64_t r = splitmix(s);
  if ((r & 1023) == 0) return 0x7fc00000u;
  if ((r & 1023) == 1) return 0xff800000u;
  const double v = (static_cast<double>(r >> 11) * 0x1p-53 - 0.5) * 2000.0;
  return std::bit_cast<uint32_t>(static_cast<float>(v));
}

// ---- instruction words ----------------------------------------------------------------

// Every word of the bench starts from its instruction's sample word (its op file's, see
// src/ops/op.h: a valid word of one channel in partition 0) and sets its fields by name,
// field_of(table::kX, "name") with put_u8, put_u32 and put_tensor: a misspelt field does
// not compile, and no row holds a byte offset.
Word sample_word(Opcode op);
using detail::put_tensor;
using detail::put_u32;
using detail::put_u8;

// The byte of an enumerator (an ALU op, a dtype, an accumulator command).
template <class E>
constexpr uint8_t code(E e) {
  return static_cast<uint8_t>(e);
}
// A DtypePair byte (SPEC §3.3): `lo` in the low nibble, `hi` in the high one.
constexpr uint8_t dtype_pair(Dtype lo, Dtype hi) {
  return static_cast<uint8_t>(code(lo) | code(hi) << 4);
}

inline TensorDesc tensor(uint8_t dims, unsigned partition, uint32_t offset,
                         std::array<int16_t, kMaxDims> step, std::array<uint16_t, kMaxDims> num) {
  TensorDesc t;
  t.addr = encode_static_addr({Space::SBUF, partition, offset});
  t.dims = dims;
  t.step = step;
  t.num = num;
  return t;
}

// "fp32", "bf16", ...
std::string dtype_label(Dtype dt);

// ---- contenders and rows --------------------------------------------------------------

struct Contender {
  std::string name;
  std::function<void()> run;     // one pass over the workload
  std::function<bool()> verify;  // the pass's output equals the scalar reference's
};

enum class Goal { None, SpeedupAtLeast, TimeRatioAtMost, AbsoluteAtMost };

// One comparison line of the table: ours against peer `peer`, which is contender `peer`
// or, from row.contenders.size() on, the Best of that number minus the contenders.
struct Target {
  std::size_t peer;
  Goal goal;
  double value;
};

// A line that shows the fastest of some contenders ("best other library").
struct Best {
  std::string name;
  std::vector<std::size_t> of;  // contender numbers
};

struct Row {
  std::string name;
  std::string unit;                   // "ns/elem", "GB/s in", "ns/instr", "ns/word"
  double per_run = 1;                 // elements (or bytes, instructions, words) per pass
  bool throughput = false;            // show per_run / time (GB/s) instead of time / per_run
  std::vector<Contender> contenders;  // [0] is the model's fast path
  std::vector<Best> bests;            // shown after the contenders
  std::vector<Target> targets;
};

// A row's program before it has a machine: its words and its layout in each partition.
struct Plan {
  std::vector<Word> words;
  uint32_t count = 0;     // elements per partition
  uint32_t src_span = 0;  // the source's bytes, from offset 0
  uint32_t dst_off = 0;   // the destination's offset
  uint32_t aux_off = 0;   // a second input's offset (search keys, src1, scalars)
};

// A workload of the table: its name (what FILTER matches) and how to build its row.
// Building a row allocates and fills a machine (28 MiB), so it happens just before the
// row is measured. `words`, for a row of instruction words, builds them as the row does
// but without a machine, for the bench's test; `engine` is the engine they run on
// (nullopt: each opcode's default).
struct Workload {
  std::string name;
  std::function<Row()> row;
  std::function<std::vector<Word>()> words;  // empty: the row's words are assembled text
  std::optional<Engine> engine;
};

// Every workload of the table, in its order (see add_sort_workloads for
// `all_distributions`).
std::vector<Workload> workloads(bool all_distributions);

// ---- executing programs ---------------------------------------------------------------

// A machine with its input, the program, and the scalar reference's results.
struct Program {
  Machine machine{kGen};
  std::vector<Word> words;
  std::vector<std::pair<unsigned, std::pair<uint32_t, uint32_t>>> outputs;  // partition, [lo, hi)
  std::vector<std::vector<uint8_t>> expected;  // the reference's bytes of each output range
  std::array<uint32_t, kPartitions> expected_acc{};
  bool prepared = false;         // the reference ran and every word retired
  std::optional<Engine> engine;  // the engine input of every word (nullopt: the default)

  bool execute_all(bool fast);
  // Runs the reference once on a copy and keeps what it wrote.
  bool prepare();
  bool matches() const;
};

// The program's contenders: "gpsimd" (the fast path) and, with `with_reference`,
// "scalar reference" (shown for context; it has no target).
void add_program_contenders(Row& row, std::shared_ptr<Program> prog, bool with_reference = true);

// ---- streaming instructions (suite.cc) --------------------------------------------------

// A memcpy of the same input bytes: each partition's source range to a buffer of its
// own (the instruction's destination may be narrower than its source).
void add_memcpy(Row& row, std::shared_ptr<Program> prog, uint32_t src_off, uint32_t bytes,
                unsigned partitions = kPartitions);
// A row of a program whose work is `bytes` per partition at `offset` of the first
// `partitions`: GB/s of those bytes, against memcpy of them (target: speedup >= goal).
Row input_row(const std::string& name, std::shared_ptr<Program> prog, uint32_t bytes, double goal,
              unsigned partitions = kPartitions, uint32_t offset = 0, const char* unit = "GB/s in");
uint32_t round_down(uint32_t v, uint32_t to);

// Adds a family's rows: a workload per line of `rows`, its row build(line), its words
// plan(line).words.
template <class Rows, class Line = std::ranges::range_value_t<Rows>>
void add_rows(std::vector<Workload>& all, const Rows& rows, Row (*build)(const Line&),
              Plan (*plan)(const Line&)) {
  for (const Line& r : rows) {
    Workload w{std::string(r.name), [r, build] { return build(r); },
               [r, plan] { return plan(r).words; }, std::nullopt};
    if constexpr (requires { r.engine; }) w.engine = r.engine;
    all.push_back(std::move(w));
  }
}

// The rows of SPEC §4.18-§4.25's instructions (kernel_ops_rows.cc).
void add_kernel_ops_workloads(std::vector<Workload>& all);

// ---- Sort (sort_rows.cc) -------------------------------------------------------------

// Appends the Sort workloads. Without `all_distributions`, a documented subset of the
// value distributions runs (see sort_rows.cc and docs/performance.md).
void add_sort_workloads(std::vector<Workload>& all, bool all_distributions);

// The Sort baselines' vector loops (baseline_keys.cc), compiled for the kernels' SIMD
// target. Keys are SPEC §4.4's order as unsigned numbers; packed keys put the key,
// inverted for descending order, above the position:
// keys[i] = key(values[i]) << 32 | i (32-bit dtypes) or key << 16 | i (16-bit ones).
void pack_keys64(Dtype dt, bool descending, const uint32_t* values, size_t n, uint64_t* keys);
void pack_keys32(Dtype dt, bool descending, const uint16_t* values, size_t n, uint32_t* keys);
// keys[i] = key(values[i]), not inverted, no position.
void sort_keys(Dtype dt, const uint32_t* values, size_t n, uint32_t* keys);
void sort_keys(Dtype dt, const uint16_t* values, size_t n, uint32_t* keys);
// The (value, index) pairs of sorted 64-bit packed keys: out[2i] = values[pos],
// out[2i + 1] = pos, pos = the low 32 bits of keys[i].
void pairs_from_keys(const uint64_t* keys, const uint32_t* values, size_t n, uint32_t* out);
// out[i] = the FP32 value of BF16 pattern in[i] (its bits << 16), a vector loop: how the
// std::partial_sort baseline of Max8 widens a BF16 row.
void widen_bf16(const uint16_t* in, size_t n, float* out);

// ---- Copy and Cast's plain Highway baselines (plain_convert.cc) ------------------------

// A conversion written as the loop of Highway's own op, which does not round as SPEC §5.1
// does for every input: FP32 -> BF16 DemoteTo (truncates in Highway 1.0.3), BF16 -> FP32
// PromoteTo (NaNs not quieted), FP32 -> FP16 DemoteTo (F16C; NaN payloads kept; Highway
// 1.0.3 has no FP8 type, so this is the nearest narrowing it has), INT32 -> FP32
// ConvertTo (the same rounding as §5.1), FP32 -> INT32 NearestInt (NaN saturates by its
// sign instead of becoming 0).
enum class PlainOp { Fp32ToBf16, Bf16ToFp32, Fp32ToFp16, Int32ToFp32, Fp32ToInt32 };
// out = op(in) for n elements (in and out packed; sizes by the op).
void plain_convert(PlainOp op, const uint8_t* in, size_t n, uint8_t* out);
// Element i of out as the op's rule says (the check of plain_convert's output).
void plain_convert_expected(PlainOp op, const uint8_t* in, size_t i, uint8_t* out);

// ---- programs on engine queues (program_rows.cc) ---------------------------------------

// 10,000 words on the DVE and POOL queues, synchronised by semaphores: run_queues with
// race detection against the same run without it (target: at most 2x).
Row program_row();

// ---- the ALU rows' plain loops (baseline_alu.cc) ---------------------------------------

// out[i] = a[i] + b[i], a[i] * b[i] or std::max(a[i], b[i]): the loop a user writes,
// compiled at -O3 for the kernels' SIMD target.
enum class PlainAluOp { Add, Mult, Max };
void plain_fp32(PlainAluOp op, const float* a, const float* b, size_t n, float* out);

// ---- the header -----------------------------------------------------------------------

// "0-3,6": a sorted set of CPU numbers as ranges.
std::string cpu_list(const std::vector<unsigned>& cpus);

}  // namespace gpsimd::bench
