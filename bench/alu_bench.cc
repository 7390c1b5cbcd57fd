// The ALU evaluator's vector loops (src/alu/simd.h) over a full SBUF's worth of rows
// (128 partitions x 16384 elements), against what a user would otherwise write: memcpy of
// the same source bytes, and a plain C++ loop of the same op compiled at -O3 for the
// same SIMD target (this file is compiled once per target, like the kernels, and the
// loop dispatched with them). Each ALU contender's output over the whole set is checked
// against the scalar reference (src/alu/eval.h, format.h) before it is timed; a mismatch
// turns it into an error. After the runs a table gives each ratio and the target of
// issue 23 (>= 0.5x memcpy, >= 0.3x for BF16 in and out, not slower than the plain loop).
//
//   taskset -c 1 build/release/bench/alu_bench                  # the best target
//   taskset -c 1 build/release/bench/alu_bench --target=avx2    # force AVX2
//   ... --benchmark_repetitions=5                               # the table uses medians
//
// Figures are CPU time of the thread, per pass over the 128 rows; "GB/s" counts source
// bytes (both sources for the two-operand rows), the same for every contender of a row.
#include <benchmark/benchmark.h>
#include <hwy/targets.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "alu/eval.h"
#include "alu/simd.h"
#include "gpsimd/format.h"
#include "kernels/convert.h"
#include "suite/harness.h"

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "alu_bench.cc"
#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_SSE4)
#endif
// clang-format off
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on

// ---- the plain loops, compiled for each target ----------------------------------------

HWY_BEFORE_NAMESPACE();
namespace gpsimd::alu_bench::HWY_NAMESPACE {

// What a user writes: one expression per element, the compiler vectorises it.
void PlainAdd(const float* a, const float* b, size_t n, float* out) {
  for (size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
void PlainMul(const float* a, const float* b, size_t n, float* out) {
  for (size_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
}
void PlainMax(const float* a, const float* b, size_t n, float* out) {
  for (size_t i = 0; i < n; ++i) out[i] = std::max(a[i], b[i]);
}
void PlainMulAdd(const float* x, float s0, float s1, size_t n, float* out) {
  for (size_t i = 0; i < n; ++i) out[i] = x[i] * s0 + s1;
}
void PlainAnd(const uint32_t* a, const uint32_t* b, size_t n, uint32_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = a[i] & b[i];
}
void PlainXor(const uint32_t* a, const uint32_t* b, size_t n, uint32_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = a[i] ^ b[i];
}
// Shifts with the same rule for large counts (a bare << would be undefined there).
void PlainShl(const uint32_t* a, const uint32_t* b, size_t n, uint32_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = b[i] < 32 ? a[i] << b[i] : 0;
}
void PlainSar(const uint32_t* a, const uint32_t* b, size_t n, uint32_t* out) {
  for (size_t i = 0; i < n; ++i)
    out[i] = static_cast<uint32_t>(static_cast<int32_t>(a[i]) >> std::min(b[i], 31u));
}
void PlainShlScalar(const uint32_t* a, uint32_t k, size_t n, uint32_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = k < 32 ? a[i] << k : 0;
}
void PlainIntAdd(const uint32_t* a, const uint32_t* b, size_t n, uint32_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
void PlainIntMul(const uint32_t* a, const uint32_t* b, size_t n, uint32_t* out) {
  for (size_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
}
const char* PlainTarget() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace gpsimd::alu_bench::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace gpsimd::alu_bench {

HWY_EXPORT(PlainAdd);
HWY_EXPORT(PlainMul);
HWY_EXPORT(PlainMax);
HWY_EXPORT(PlainMulAdd);
HWY_EXPORT(PlainAnd);
HWY_EXPORT(PlainXor);
HWY_EXPORT(PlainShl);
HWY_EXPORT(PlainSar);
HWY_EXPORT(PlainShlScalar);
HWY_EXPORT(PlainIntAdd);
HWY_EXPORT(PlainIntMul);
HWY_EXPORT(PlainTarget);

namespace {

namespace simd = alu::simd;
using alu::simd::ScalarOp;

constexpr size_t kRows = 128, kCols = 16384, kAll = kRows * kCols;
constexpr uint8_t op(AluOp o) {
  return static_cast<uint8_t>(o);
}

// The data: a full SBUF's worth of each operand (8 MiB of 4-byte elements).
struct Data {
  std::vector<float> fa, fb, fout;
  std::vector<uint32_t> ia, ib, counts, iout;
  std::vector<uint16_t> bf_in, bf_out;
  std::vector<uint8_t> copy_dst;
  std::vector<uint32_t> s0, s1;  // one scalar per partition (TensorScalar by pointer)

  Data() {
    uint64_t s = 2024;
    fa.resize(kAll), fb.resize(kAll), fout.resize(kAll);
    ia.resize(kAll), ib.resize(kAll), counts.resize(kAll), iout.resize(kAll);
    bf_in.resize(kAll), bf_out.resize(kAll);
    for (size_t i = 0; i < kAll; ++i) {
      fa[i] = std::bit_cast<float>(bench::random_fp32(s));
      fb[i] = std::bit_cast<float>(bench::random_fp32(s));
      ia[i] = static_cast<uint32_t>(bench::splitmix(s));
      ib[i] = static_cast<uint32_t>(bench::splitmix(s));
      counts[i] = static_cast<uint32_t>(bench::splitmix(s) % 40);  // some >= 32
      bf_in[i] = static_cast<uint16_t>(bench::random_fp32(s) >> 16);
    }
    copy_dst.resize(2 * kAll * 4);
    for (size_t r = 0; r < kRows; ++r) {
      s0.push_back(bench::random_fp32(s));
      s1.push_back(bench::random_fp32(s));
    }
  }
};
Data& data() {
  static Data d;
  return d;
}

uint32_t bits(float f) {
  return std::bit_cast<uint32_t>(f);
}
float* row(std::vector<float>& v, size_t r) {
  return v.data() + r * kCols;
}
const uint32_t* row(const std::vector<uint32_t>& v, size_t r) {
  return v.data() + r * kCols;
}
uint32_t* row(std::vector<uint32_t>& v, size_t r) {
  return v.data() + r * kCols;
}

// ---- the workloads ----------------------------------------------------------------------

struct Contender {
  std::string name;
  double source_bytes;
  std::function<void()> run;     // one pass over the 128 rows
  std::function<bool()> verify;  // after one pass: the reference's bits
};

// memcpy of `bytes` source bytes, a row at a time (from the FP32 operands, then the
// second operand's rows when the row has two sources).
Contender memcpy_of(const std::string& name, size_t bytes_per_row) {
  return {name, static_cast<double>(kRows * bytes_per_row),
          [bytes_per_row] {
            Data& d = data();
            const uint8_t* a = reinterpret_cast<const uint8_t*>(d.fa.data());
            const uint8_t* b = reinterpret_cast<const uint8_t*>(d.fb.data());
            const size_t half = std::min<size_t>(bytes_per_row, kCols * 4);
            for (size_t r = 0; r < kRows; ++r) {
              uint8_t* dst = d.copy_dst.data() + r * bytes_per_row;
              std::memcpy(dst, a + r * kCols * 4, half);
              if (bytes_per_row > half)
                std::memcpy(dst + half, b + r * kCols * 4, bytes_per_row - half);
            }
          },
          [] { return true; }};
}

// An FP32 two-operand op: the ALU loop and the plain loop.
using PlainF = void (*)(const float*, const float*, size_t, float*);
std::vector<Contender> fp32_binary(const std::string& label, AluOp o, PlainF plain) {
  const double bytes = 2.0 * kAll * 4;
  return {
      {"fp32 " + label + "/alu", bytes,
       [o] {
         Data& d = data();
         for (size_t r = 0; r < kRows; ++r)
           simd::fp32_binary(op(o), row(d.fa, r), row(d.fb, r), kCols, row(d.fout, r));
       },
       [o] {
         Data& d = data();
         for (size_t i = 0; i < kAll; ++i)
           if (bits(d.fout[i]) != alu::eval_fp32(op(o), bits(d.fa[i]), bits(d.fb[i]))) return false;
         return true;
       }},
      {"fp32 " + label + "/plain loop", bytes,
       [plain] {
         Data& d = data();
         for (size_t r = 0; r < kRows; ++r)
           plain(row(d.fa, r), row(d.fb, r), kCols, row(d.fout, r));
       },
       nullptr},
  };
}

uint32_t two_ops_ref(ScalarOp o0, ScalarOp o1, uint32_t x) {
  return alu::eval_fp32(o1.op, alu::eval_fp32(o0.op, x, o0.s), o1.s);
}
ScalarOp mult_of(size_t r) {
  return {op(AluOp::MULT), data().s0[r], false};
}
ScalarOp add_of(size_t r) {
  return {op(AluOp::ADD), data().s1[r], false};
}

std::vector<Contender> tensor_scalar_rows() {
  const double bytes = 1.0 * kAll * 4;
  std::vector<Contender> v = {
      {"fp32 ts mult,add/alu", bytes,
       [] {
         Data& d = data();
         for (size_t r = 0; r < kRows; ++r)
           simd::fp32_scalar2(mult_of(r), add_of(r), row(d.fa, r), kCols, row(d.fout, r));
       },
       [] {
         Data& d = data();
         for (size_t i = 0; i < kAll; ++i)
           if (bits(d.fout[i]) != two_ops_ref(mult_of(i / kCols), add_of(i / kCols), bits(d.fa[i])))
             return false;
         return true;
       }},
      {"fp32 ts mult,add/plain loop", bytes,
       [] {
         Data& d = data();
         for (size_t r = 0; r < kRows; ++r) HWY_DYNAMIC_DISPATCH(PlainMulAdd)
         (row(d.fa, r), std::bit_cast<float>(d.s0[r]), std::bit_cast<float>(d.s1[r]), kCols,
          row(d.fout, r));
       },
       nullptr},
      // BF16 in, BF16 out: widen a piece to FP32 (convert.h), the two ops, narrow it.
      {"bf16 ts mult,add/alu", 1.0 * kAll * 2,
       [] {
         Data& d = data();
         constexpr size_t kPiece = 1024;
         alignas(64) uint32_t buf[kPiece];
         for (size_t r = 0; r < kRows; ++r) {
           for (size_t c = 0; c < kCols; c += kPiece) {
             const size_t i = r * kCols + c;
             kernels::simd::widen_to_fp32(
                 Dtype::BF16, reinterpret_cast<const uint8_t*>(d.bf_in.data() + i), kPiece, buf);
             simd::fp32_scalar2(mult_of(r), add_of(r), buf, kPiece, buf);
             kernels::simd::narrow_from_fp32(Dtype::BF16, buf, kPiece,
                                             reinterpret_cast<uint8_t*>(d.bf_out.data() + i));
           }
         }
       },
       [] {
         Data& d = data();
         for (size_t i = 0; i < kAll; ++i) {
           const uint32_t x = to_fp32(Dtype::BF16, d.bf_in[i]);
           const uint32_t want =
               from_fp32(Dtype::BF16, two_ops_ref(mult_of(i / kCols), add_of(i / kCols), x));
           if (d.bf_out[i] != want) return false;
         }
         return true;
       }},
      // Where the BF16 row's time goes: the two conversions alone, over the same bytes.
      {"bf16 widen only/convert.h", 1.0 * kAll * 2,
       [] {
         Data& d = data();
         for (size_t r = 0; r < kRows; ++r)
           kernels::simd::widen_to_fp32(
               Dtype::BF16, reinterpret_cast<const uint8_t*>(d.bf_in.data() + r * kCols), kCols,
               reinterpret_cast<uint32_t*>(row(d.fout, r)));
       },
       nullptr},
      {"bf16 narrow only/convert.h", 1.0 * kAll * 2,
       [] {
         Data& d = data();
         for (size_t r = 0; r < kRows; ++r)
           kernels::simd::narrow_from_fp32(Dtype::BF16,
                                           reinterpret_cast<const uint32_t*>(row(d.fa, r)), kCols,
                                           reinterpret_cast<uint8_t*>(d.bf_out.data() + r * kCols));
       },
       nullptr},
  };
  return v;
}

using PlainU = void (*)(const uint32_t*, const uint32_t*, size_t, uint32_t*);
// A two-operand op on INT32 rows, by the bits path (0x51) or the native path (0x41 on
// POOL): `second` is the right operand (random bits, or shift counts 0..39).
std::vector<Contender> int_binary(const std::string& label, bool native, AluOp o, PlainU plain,
                                  bool counts) {
  const double bytes = 2.0 * kAll * 4;
  const auto rhs = [counts]() -> std::vector<uint32_t>& {
    return counts ? data().counts : data().ib;
  };
  return {
      {label + "/alu", bytes,
       [native, o, rhs] {
         Data& d = data();
         const std::vector<uint32_t>& b = rhs();
         for (size_t r = 0; r < kRows; ++r) {
           if (native)
             simd::native_binary(op(o), Dtype::INT32, row(d.ia, r), Dtype::INT32, row(b, r), kCols,
                                 Dtype::INT32, row(d.iout, r));
           else
             simd::bits_binary(op(o), 32, row(d.ia, r), row(b, r), kCols, row(d.iout, r));
         }
       },
       [native, o, rhs] {
         Data& d = data();
         const std::vector<uint32_t>& b = rhs();
         for (size_t i = 0; i < kAll; ++i) {
           const uint32_t want =
               native ? static_cast<uint32_t>(alu::eval_native(op(o), static_cast<int32_t>(d.ia[i]),
                                                               static_cast<int32_t>(b[i])))
                      : alu::eval_bits(op(o), d.ia[i], b[i], 32);
           if (d.iout[i] != want) return false;
         }
         return true;
       }},
      {label + "/plain loop", bytes,
       [plain, rhs] {
         Data& d = data();
         const std::vector<uint32_t>& b = rhs();
         for (size_t r = 0; r < kRows; ++r) plain(row(d.ia, r), row(b, r), kCols, row(d.iout, r));
       },
       nullptr},
  };
}

std::vector<Contender> shift_scalar_rows() {
  const double bytes = 1.0 * kAll * 4;
  constexpr uint32_t kCount = 5;
  return {
      {"int32 bits shl by scalar/alu", bytes,
       [] {
         Data& d = data();
         for (size_t r = 0; r < kRows; ++r)
           simd::bits_scalar(op(AluOp::LOGICAL_SHIFT_LEFT), 32, row(d.ia, r), kCount, false, kCols,
                             row(d.iout, r));
       },
       [] {
         Data& d = data();
         for (size_t i = 0; i < kAll; ++i)
           if (d.iout[i] != alu::eval_bits(op(AluOp::LOGICAL_SHIFT_LEFT), d.ia[i], kCount, 32))
             return false;
         return true;
       }},
      {"int32 bits shl by scalar/plain loop", bytes,
       [] {
         Data& d = data();
         for (size_t r = 0; r < kRows; ++r)
           HWY_DYNAMIC_DISPATCH(PlainShlScalar)(row(d.ia, r), kCount, kCols, row(d.iout, r));
       },
       nullptr},
  };
}

// Each row of the summary: the ALU contender, its plain loop, its memcpy and the
// memcpy target.
struct Row {
  std::string workload, memcpy_name;
  double memcpy_target;
};

std::vector<Contender> all_contenders(std::vector<Row>& rows) {
  std::vector<Contender> v;
  const auto add = [&v](std::vector<Contender> c) {
    for (Contender& x : c) v.push_back(std::move(x));
  };
  add({memcpy_of("memcpy 16 MiB (two sources)", 2 * kCols * 4)});
  add({memcpy_of("memcpy 8 MiB (one source)", kCols * 4)});
  add({memcpy_of("memcpy 4 MiB (one BF16 source)", kCols * 2)});
  add(fp32_binary("add", AluOp::ADD, [](const float* a, const float* b, size_t n, float* o) {
    HWY_DYNAMIC_DISPATCH(PlainAdd)(a, b, n, o);
  }));
  add(fp32_binary("mult", AluOp::MULT, [](const float* a, const float* b, size_t n, float* o) {
    HWY_DYNAMIC_DISPATCH(PlainMul)(a, b, n, o);
  }));
  add(fp32_binary("max", AluOp::MAX, [](const float* a, const float* b, size_t n, float* o) {
    HWY_DYNAMIC_DISPATCH(PlainMax)(a, b, n, o);
  }));
  add(tensor_scalar_rows());
  add(int_binary(
      "int32 bits and", false, AluOp::BITWISE_AND,
      [](const uint32_t* a, const uint32_t* b, size_t n, uint32_t* o) {
        HWY_DYNAMIC_DISPATCH(PlainAnd)(a, b, n, o);
      },
      false));
  add(int_binary(
      "int32 bits xor", false, AluOp::BITWISE_XOR,
      [](const uint32_t* a, const uint32_t* b, size_t n, uint32_t* o) {
        HWY_DYNAMIC_DISPATCH(PlainXor)(a, b, n, o);
      },
      false));
  add(int_binary(
      "int32 bits shl", false, AluOp::LOGICAL_SHIFT_LEFT,
      [](const uint32_t* a, const uint32_t* b, size_t n, uint32_t* o) {
        HWY_DYNAMIC_DISPATCH(PlainShl)(a, b, n, o);
      },
      true));
  add(int_binary(
      "int32 bits ashr", false, AluOp::ARITH_SHIFT_RIGHT,
      [](const uint32_t* a, const uint32_t* b, size_t n, uint32_t* o) {
        HWY_DYNAMIC_DISPATCH(PlainSar)(a, b, n, o);
      },
      true));
  add(shift_scalar_rows());
  add(int_binary(
      "int32 native add", true, AluOp::ADD,
      [](const uint32_t* a, const uint32_t* b, size_t n, uint32_t* o) {
        HWY_DYNAMIC_DISPATCH(PlainIntAdd)(a, b, n, o);
      },
      false));
  add(int_binary(
      "int32 native mult", true, AluOp::MULT,
      [](const uint32_t* a, const uint32_t* b, size_t n, uint32_t* o) {
        HWY_DYNAMIC_DISPATCH(PlainIntMul)(a, b, n, o);
      },
      false));
  const std::string two = "memcpy 16 MiB (two sources)", one = "memcpy 8 MiB (one source)";
  rows = {{"fp32 add", two, 0.5},
          {"fp32 mult", two, 0.5},
          {"fp32 max", two, 0.5},
          {"fp32 ts mult,add", one, 0.5},
          {"bf16 ts mult,add", "memcpy 4 MiB (one BF16 source)", 0.3},
          {"int32 bits and", two, 0.5},
          {"int32 bits xor", two, 0.5},
          {"int32 bits shl", two, 0.5},
          {"int32 bits ashr", two, 0.5},
          {"int32 bits shl by scalar", one, 0.5},
          {"int32 native add", two, 0.5},
          {"int32 native mult", two, 0.5}};
  return v;
}

// Collects each benchmark's CPU time per pass (every repetition) for the summary.
class Collector : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, std::vector<double>> seconds;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs)
      if (r.run_type == Run::RT_Iteration && !r.error_occurred && r.iterations > 0)
        seconds[r.run_name.function_name].push_back(r.cpu_accumulated_time /
                                                    static_cast<double>(r.iterations));
    ConsoleReporter::ReportRuns(runs);
  }
  // The median time of a benchmark, or 0 when it did not run.
  double median(const std::string& name) const {
    auto it = seconds.find(name);
    if (it == seconds.end() || it->second.empty()) return 0;
    std::vector<double> v = it->second;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  }
};

void print_summary(const Collector& c, const std::vector<Row>& rows,
                   const std::map<std::string, double>& bytes) {
  std::printf("\nALU vector loops, 128 x 16384 elements per pass, target %s (plain loops: %s)\n",
              simd::target_name(), HWY_DYNAMIC_DISPATCH(PlainTarget)());
  std::printf("%-26s %9s %9s %9s | %-22s %-7s | %-22s %-7s\n", "workload", "alu GB/s", "plain",
              "memcpy", "alu / memcpy (target)", "result", "alu / plain (>= 1)", "result");
  int met = 0, missed = 0;
  for (const Row& r : rows) {
    const double t = c.median(r.workload + "/alu"), tp = c.median(r.workload + "/plain loop"),
                 tm = c.median(r.memcpy_name);
    if (t == 0 || tm == 0) continue;  // filtered out, or an error
    const double b = bytes.at(r.workload + "/alu");
    const double vs_memcpy = tm / t * (b / bytes.at(r.memcpy_name));
    const bool ok_m = vs_memcpy >= r.memcpy_target;
    (ok_m ? met : missed)++;
    char memcpy_txt[32], plain_txt[32] = "-", plain_res[16] = "";
    std::snprintf(memcpy_txt, sizeof memcpy_txt, "%.2fx (>= %.1fx)", vs_memcpy, r.memcpy_target);
    if (tp > 0) {
      const double vs_plain = tp / t;
      std::snprintf(plain_txt, sizeof plain_txt, "%.2fx", vs_plain);
      std::snprintf(plain_res, sizeof plain_res, "%s", vs_plain >= 1.0 ? "met" : "MISSED");
      (vs_plain >= 1.0 ? met : missed)++;
    }
    std::printf("%-26s %9.1f %9.1f %9.1f | %-22s %-7s | %-22s %-7s\n", r.workload.c_str(),
                b / t * 1e-9, tp > 0 ? b / tp * 1e-9 : 0.0, bytes.at(r.memcpy_name) / tm * 1e-9,
                memcpy_txt, ok_m ? "met" : "MISSED", plain_txt, plain_res);
  }
  const double tw = c.median("bf16 widen only/convert.h"),
               tn = c.median("bf16 narrow only/convert.h");
  if (tw > 0 && tn > 0) {
    const double b = bytes.at("bf16 widen only/convert.h");
    std::printf(
        "bf16 conversions alone (convert.h, BF16 bytes): widen %.1f GB/s, narrow %.1f GB/s\n",
        b / tw * 1e-9, b / tn * 1e-9);
  }
  std::printf("targets: %d met, %d missed\n", met, missed);
}

int64_t parse_target(const std::string& s) {
  if (s == "avx3" || s == "AVX3") return HWY_AVX3;
  if (s == "avx2" || s == "AVX2") return HWY_AVX2;
  if (s == "scalar" || s == "SCALAR") return HWY_SCALAR;
  return 0;
}

}  // namespace
}  // namespace gpsimd::alu_bench

int main(int argc, char** argv) {
  using namespace gpsimd::alu_bench;
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--target=", 0) == 0) {
      const int64_t t = parse_target(a.substr(9));
      if (t == 0 || (hwy::SupportedTargets() & t) == 0) {
        std::fprintf(stderr,
                     "alu_bench: --target=%s: not a target this CPU runs (avx3, avx2, scalar)\n",
                     a.substr(9).c_str());
        return 2;
      }
      hwy::SetSupportedTargetsForTest(t);
    } else {
      args.push_back(argv[i]);
    }
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 2;

  std::vector<Row> rows;
  std::map<std::string, double> bytes;
  for (Contender& c : all_contenders(rows)) {
    bytes[c.name] = c.source_bytes;
    benchmark::RegisterBenchmark(c.name.c_str(), [c](benchmark::State& state) {
      static std::map<std::string, bool> verified;  // once per contender and process
      if (c.verify && !verified.count(c.name)) {
        c.run();
        verified[c.name] = c.verify();
      }
      if (c.verify && !verified[c.name]) {
        state.SkipWithError("output differs from the scalar reference");
        return;
      }
      for (auto _ : state) {
        c.run();
        benchmark::ClobberMemory();
      }
      state.SetBytesProcessed(
          static_cast<int64_t>(static_cast<double>(state.iterations()) * c.source_bytes));
    })->Unit(benchmark::kMillisecond);
  }
  std::printf("ALU target %s, plain loops %s\n", gpsimd::alu::simd::target_name(),
              HWY_DYNAMIC_DISPATCH(PlainTarget)());
  Collector collector;
  benchmark::RunSpecifiedBenchmarks(&collector);
  print_summary(collector, rows, bytes);
  benchmark::Shutdown();
  hwy::SetSupportedTargetsForTest(0);
  return 0;
}
#endif  // HWY_ONCE
