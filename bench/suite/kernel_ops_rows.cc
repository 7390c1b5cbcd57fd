// The rows of the instructions kernels call most (SPEC §4.18-§4.22, §4.24; suite/bench.h):
// each on 128 partitions over the whole partition, every output (and the accumulators)
// checked against the scalar reference. The targets are the ones the issue that brought
// them set: Memset >= 0.5x memset of the same bytes; CopyPredicated and
// ScalarTensorTensor >= 0.5x memcpy of their source bytes; TensorReduce max, min and
// bitwise >= 0.5x memcpy, add (in the [model] order) >= 0.25x; TensorTensorScan and
// TensorScalarCacheCumulative >= 0.25x memcpy (a recurrence along the partition).
#include <fmt/format.h>

#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "suite/harness.h"

namespace gpsimd::bench {
namespace {

constexpr uint32_t kSbufPartition = sbuf_partition_bytes(kGen);

// A dense 2-D walk of `count` elements (64 x count / 64, so that it fits num_elem's 16 bits)
// at `offset` of partition 0, as a TENSOR of `dims` dimensions.
TensorDesc dense(uint8_t dims, uint32_t offset, uint32_t count) {
  return tensor(dims, 0, offset, {1, 64, 0, 0}, {64, static_cast<uint16_t>(count / 64), 1, 1});
}

// Random elements of `dt` filling [offset, offset + count * size) of every partition.
void fill(Program& prog, uint32_t offset, uint32_t count, Dtype dt, uint64_t seed) {
  const unsigned size = *dtype_size(dt);
  for (unsigned p = 0; p < kPartitions; ++p) {
    uint8_t* part = prog.machine.partition(Space::SBUF, p).data() + offset;
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t v = random_fp32(seed);
      if (!is_float_dtype(dt)) v = static_cast<uint32_t>(splitmix(seed));
      if (size == 2) v = is_float_dtype(dt) ? v >> 16 : v & 0xffffu;
      if (size == 1) v = is_float_dtype(dt) ? v >> 24 : v & 0xffu;
      std::memcpy(part + std::size_t{i} * size, &v, size);
    }
  }
}

void outputs(Program& prog, uint32_t lo, uint32_t hi) {
  for (unsigned p = 0; p < kPartitions; ++p) prog.outputs.push_back({p, {lo, hi}});
}

// ---- Memset ---------------------------------------------------------------------------

struct MemsetRow {
  std::string_view name;
  Dtype dtype;
  uint32_t value;
  double goal;
};
constexpr MemsetRow kMemsetRows[] = {
    {"Memset fp32 whole partition", Dtype::FP32, 0x3e4ccccdu, 0.5},
    {"Memset bf16 whole partition", Dtype::BF16, 0xff80u, 0.5},
};

Plan memset_plan(const MemsetRow& r) {
  constexpr auto& F = table::kMemset;
  const unsigned size = *dtype_size(r.dtype);
  Plan pl;
  pl.count = round_down(kSbufPartition / size, 64);
  pl.dst_off = 0;
  Word w = sample_word(Opcode::Memset);
  put_u32(w, field_of(F, "dst_element_count"), pl.count);
  put_u8(w, field_of(F, "dtype"), code(r.dtype));
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_u32(w, field_of(F, "set_value"), r.value);
  put_tensor(w, field_of(F, "dst_mem_pattern"), dense(4, 0, pl.count));
  pl.words.push_back(w);
  return pl;
}

Row memset_row(const MemsetRow& r) {
  auto prog = std::make_shared<Program>();
  const Plan pl = memset_plan(r);
  const unsigned size = *dtype_size(r.dtype);
  const uint32_t bytes = pl.count * size;
  fill(*prog, 0, pl.count, r.dtype, 49);
  prog->words = pl.words;
  outputs(*prog, 0, bytes);
  prog->prepare();
  Row row;
  row.name = std::string(r.name);
  row.unit = "GB/s dst";
  row.throughput = true;
  row.per_run = static_cast<double>(kPartitions) * bytes;
  add_program_contenders(row, prog);
  // memset of the same bytes: each partition's destination to a buffer of its own (a
  // 2-byte pattern is memset's one byte only when both bytes are equal, so the buffer is
  // filled with the pattern's low byte: the same bytes written, not the same values).
  auto to = std::make_shared<std::vector<uint8_t>>(std::size_t{kPartitions} * bytes);
  const auto byte = static_cast<uint8_t>(r.value);
  row.contenders.push_back({"memset same bytes",
                            [to, bytes, byte] {
                              for (unsigned p = 0; p < kPartitions; ++p)
                                std::memset(to->data() + std::size_t{p} * bytes, byte, bytes);
                            },
                            [to, byte] {
                              for (uint8_t b : *to)
                                if (b != byte) return false;
                              return true;
                            }});
  row.targets.push_back({2, Goal::SpeedupAtLeast, r.goal});
  return row;
}

// ---- TensorReduce ---------------------------------------------------------------------

struct ReduceRow {
  std::string_view name;
  Opcode opcode;
  AluOp op;
  Dtype in, out;
  uint16_t group;  // elements per group (op_dim X)
  double goal;
};
constexpr ReduceRow kReduceRows[] = {
    {"TensorReduce fp32 max X 512", Opcode::TensorReduceArith, AluOp::MAX, Dtype::FP32, Dtype::FP32,
     512, 0.5},
    {"TensorReduce fp32 min X 512", Opcode::TensorReduceArith, AluOp::MIN, Dtype::FP32, Dtype::FP32,
     512, 0.5},
    {"TensorReduce bf16 max X 512", Opcode::TensorReduceArith, AluOp::MAX, Dtype::BF16, Dtype::BF16,
     512, 0.5},
    {"TensorReduce int32 bitwise_or X 512", Opcode::TensorReduceBitvec, AluOp::BITWISE_OR,
     Dtype::INT32, Dtype::INT32, 512, 0.5},
    {"TensorReduce fp32 add X 512 (model order)", Opcode::TensorReduceArith, AluOp::ADD,
     Dtype::FP32, Dtype::FP32, 512, 0.25},
    {"TensorReduce fp32 add X 16 (model order)", Opcode::TensorReduceArith, AluOp::ADD, Dtype::FP32,
     Dtype::FP32, 16, 0.25},
};

Plan reduce_plan(const ReduceRow& r) {
  constexpr auto& F = table::kTensorReduceArith;  // TensorReduceBitvec's layout too
  const unsigned isz = *dtype_size(r.in), osz = *dtype_size(r.out);
  Plan pl;
  // The source and one destination element per group fill the partition.
  pl.count = round_down((kSbufPartition - 128) / (isz * r.group + osz) * r.group, r.group);
  pl.src_span = pl.count * isz;
  pl.dst_off = round_down(pl.src_span + 63, 64);
  const uint32_t groups = pl.count / r.group;
  Word w = sample_word(r.opcode);
  put_tensor(w, field_of(F, "src_mem_pattern"),
             tensor(4, 0, 0, {1, static_cast<int16_t>(r.group), 0, 0},
                    {r.group, static_cast<uint16_t>(groups), 1, 1}));
  put_u8(w, field_of(F, "in_dtype"), code(r.in));
  put_u8(w, field_of(F, "out_dtype"), code(r.out));
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_u8(w, field_of(F, "negated"), 0);
  put_u8(w, field_of(F, "op"), code(r.op));
  put_u8(w, field_of(F, "op_dim"), 0x2);  // X
  put_tensor(w, field_of(F, "dst_mem_pattern"),
             tensor(4, 0, pl.dst_off, {1, 0, 0, 0}, {static_cast<uint16_t>(groups), 1, 1, 1}));
  pl.words.push_back(w);
  return pl;
}

Row reduce_row(const ReduceRow& r) {
  auto prog = std::make_shared<Program>();
  const Plan pl = reduce_plan(r);
  fill(*prog, 0, pl.count, r.in, 50 + static_cast<uint64_t>(r.op));
  prog->words = pl.words;
  outputs(*prog, pl.dst_off, pl.dst_off + pl.count / r.group * *dtype_size(r.out));
  return input_row(std::string(r.name), prog, pl.src_span, r.goal);
}

// ---- the two-source rows: CopyPredicated, ScalarTensorTensor, TensorTensorScan -------------

enum class TwoSource { CopyPredicated, ScalarTensorTensor, TensorTensorScan };
struct TwoSourceRow {
  std::string_view name;
  TwoSource kind;
  Dtype src0, src1, out;
  AluOp op0, op1;
  double goal;
};
constexpr TwoSourceRow kTwoSourceRows[] = {
    {"CopyPredicated fp32, uint8 pred", TwoSource::CopyPredicated, Dtype::UINT8, Dtype::FP32,
     Dtype::FP32, AluOp::BYPASS, AluOp::BYPASS, 0.5},
    {"CopyPredicated fp32, uint32 pred", TwoSource::CopyPredicated, Dtype::UINT32, Dtype::FP32,
     Dtype::FP32, AluOp::BYPASS, AluOp::BYPASS, 0.5},
    {"ScalarTensorTensor fp32 (x mult s) add y", TwoSource::ScalarTensorTensor, Dtype::FP32,
     Dtype::FP32, Dtype::FP32, AluOp::MULT, AluOp::ADD, 0.5},
    {"ScalarTensorTensor bf16 (x mult s) mult y", TwoSource::ScalarTensorTensor, Dtype::BF16,
     Dtype::BF16, Dtype::BF16, AluOp::MULT, AluOp::MULT, 0.5},
    {"TensorTensorScan fp32 mult add (cumsum)", TwoSource::TensorTensorScan, Dtype::FP32,
     Dtype::FP32, Dtype::FP32, AluOp::MULT, AluOp::ADD, 0.25},
    {"TensorTensorScan fp32 max max", TwoSource::TensorTensorScan, Dtype::FP32, Dtype::FP32,
     Dtype::FP32, AluOp::MAX, AluOp::MAX, 0.25},
};

Plan two_source_plan(const TwoSourceRow& r) {
  const unsigned s0 = *dtype_size(r.src0), s1 = *dtype_size(r.src1), so = *dtype_size(r.out);
  Plan pl;
  pl.count = std::min<uint32_t>(round_down((kSbufPartition - 256) / (s0 + s1 + so), 64), 64 * 1023);
  pl.aux_off = round_down(pl.count * s0 + 63, 64);
  pl.src_span = pl.aux_off + pl.count * s1;
  pl.dst_off = round_down(pl.src_span + 63, 64);
  Word w;
  if (r.kind == TwoSource::CopyPredicated) {
    constexpr auto& F = table::kCopyPredicated;
    w = sample_word(Opcode::CopyPredicated);
    put_u8(w, field_of(F, "in0_in1_dtype"), dtype_pair(r.src0, r.src1));
    put_u8(w, field_of(F, "out_dtype"), code(r.out));
    put_u8(w, field_of(F, "op"), 0);
    put_u8(w, field_of(F, "num_active_channels"), kPartitions);
    put_tensor(w, field_of(F, "src0_mem_pattern"), dense(3, 0, pl.count));
    put_tensor(w, field_of(F, "src1_mem_pattern"), dense(3, pl.aux_off, pl.count));
    put_tensor(w, field_of(F, "dst_mem_pattern"), dense(3, pl.dst_off, pl.count));
  } else {
    constexpr auto& F = table::kTensorTensorScan;  // ScalarTensorTensor's layout too
    w = sample_word(r.kind == TwoSource::TensorTensorScan ? Opcode::TensorTensorScan
                                                          : Opcode::ScalarTensorTensorArith);
    put_tensor(w, field_of(F, "src0_mem_pattern"), dense(2, 0, pl.count));
    put_tensor(w, field_of(F, "src1_mem_pattern"), dense(2, pl.aux_off, pl.count));
    put_u8(w, field_of(F, "op0"), code(r.op0));
    put_u8(w, field_of(F, "op1"), code(r.op1));
    put_u8(w, field_of(F, "reverse_operands"), 0);
    put_u8(w, field_of(F, "imm0_src"), code(ImmSrc::INSTRUCTION_IMMEDIATE));
    put_u8(w, field_of(F, "in0_in1_dtype"), dtype_pair(r.src0, r.src1));
    put_u8(w, field_of(F, "out_dtype"), code(r.out));
    put_u8(w, field_of(F, "num_active_channels"), kPartitions);
    put_u8(w, field_of(F, "imm0_dtype"), code(Dtype::FP32));
    put_u8(w, field_of(F, "accumulator_cmd"), code(AccumCmd::IDLE));
    put_tensor(w, field_of(F, "dst_mem_pattern"), dense(2, pl.dst_off, pl.count));
    put_u32(w, field_of(F, "imm0"),
            std::bit_cast<uint32_t>(r.kind == TwoSource::TensorTensorScan ? 1.0f : 0.125f));
  }
  pl.words.push_back(w);
  return pl;
}

Row two_source_row(const TwoSourceRow& r) {
  auto prog = std::make_shared<Program>();
  const Plan pl = two_source_plan(r);
  if (r.kind == TwoSource::CopyPredicated) {
    // A predicate true at half of the elements, at random; the destination's old values.
    uint64_t seed = 51;
    const unsigned ps = *dtype_size(r.src0);
    for (unsigned p = 0; p < kPartitions; ++p) {
      uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
      for (uint32_t i = 0; i < pl.count; ++i) {
        const uint32_t flag = static_cast<uint32_t>(splitmix(seed) & 1);
        std::memcpy(part + std::size_t{i} * ps, &flag, ps);
      }
    }
    fill(*prog, pl.dst_off, pl.count, r.out, 52);
  } else if (r.kind == TwoSource::TensorTensorScan && r.op0 == AluOp::MULT) {
    // A cumsum as AWS's kernel writes it: data0 = ones, data1 = the data.
    for (unsigned p = 0; p < kPartitions; ++p) {
      uint8_t* part = prog->machine.partition(Space::SBUF, p).data();
      const uint32_t one = 0x3f800000u;
      for (uint32_t i = 0; i < pl.count; ++i) std::memcpy(part + std::size_t{i} * 4, &one, 4);
    }
  } else {
    fill(*prog, 0, pl.count, r.src0, 53);
  }
  fill(*prog, pl.aux_off, pl.count, r.src1, 54);
  prog->words = pl.words;
  outputs(*prog, pl.dst_off, pl.dst_off + pl.count * *dtype_size(r.out));
  return input_row(std::string(r.name), prog, pl.src_span, r.goal);
}

// ---- TensorScalarCacheCumulative ----------------------------------------------------------

struct CumulativeRow {
  std::string_view name;
  AluOp op0, op1;
  Dtype in, out;
  double goal;
};
constexpr CumulativeRow kCumulativeRows[] = {
    {"TensorScalarCacheCumulative fp32 bypass, add (cumsum)", AluOp::BYPASS, AluOp::ADD,
     Dtype::FP32, Dtype::FP32, 0.25},
    {"TensorScalarCacheCumulative fp32 mult, max", AluOp::MULT, AluOp::MAX, Dtype::FP32,
     Dtype::FP32, 0.25},
    {"TensorScalarCacheCumulative bf16 add, add", AluOp::ADD, AluOp::ADD, Dtype::BF16, Dtype::BF16,
     0.25},
};

Plan cumulative_plan(const CumulativeRow& r) {
  constexpr auto& F = table::kTensorScalarCacheCumulative;
  const unsigned isz = *dtype_size(r.in), osz = *dtype_size(r.out);
  Plan pl;
  pl.count = std::min<uint32_t>(round_down((kSbufPartition - 128) / (isz + osz), 64), 64 * 1023);
  pl.src_span = pl.count * isz;
  pl.dst_off = round_down(pl.src_span + 63, 64);
  Word w = sample_word(Opcode::TensorScalarCacheCumulative);
  put_u8(w, field_of(F, "accumulator_cmd"), code(AccumCmd::ZERO_ACCUMULATE));
  put_tensor(w, field_of(F, "src_mem_pattern"), dense(3, 0, pl.count));
  put_u8(w, field_of(F, "in_dtype"), code(r.in));
  put_u8(w, field_of(F, "out_dtype"), code(r.out));
  put_u8(w, field_of(F, "num_active_channels"), kPartitions);
  put_u8(w, field_of(F, "imm0_src"), code(ImmSrc::INSTRUCTION_IMMEDIATE));
  put_u8(w, field_of(F, "op0"), code(r.op0));
  put_u8(w, field_of(F, "op1"), code(r.op1));
  put_u8(w, field_of(F, "reverse_operands"), 0);
  put_u8(w, field_of(F, "imm1_src"), code(ImmSrc::INSTRUCTION_IMMEDIATE));
  put_u32(w, field_of(F, "imm0"), std::bit_cast<uint32_t>(0.5f));
  put_u32(w, field_of(F, "imm1"), 0);
  put_tensor(w, field_of(F, "dst_mem_pattern"), dense(3, pl.dst_off, pl.count));
  pl.words.push_back(w);
  return pl;
}

Row cumulative_row(const CumulativeRow& r) {
  auto prog = std::make_shared<Program>();
  const Plan pl = cumulative_plan(r);
  fill(*prog, 0, pl.count, r.in, 56);
  prog->words = pl.words;
  outputs(*prog, pl.dst_off, pl.dst_off + pl.count * *dtype_size(r.out));
  return input_row(std::string(r.name), prog, pl.src_span, r.goal);
}

}  // namespace

void add_kernel_ops_workloads(std::vector<Workload>& all) {
  add_rows(all, kMemsetRows, memset_row, memset_plan);
  add_rows(all, kReduceRows, reduce_row, reduce_plan);
  add_rows(all, kTwoSourceRows, two_source_row, two_source_plan);
  add_rows(all, kCumulativeRows, cumulative_row, cumulative_plan);
}

}  // namespace gpsimd::bench
