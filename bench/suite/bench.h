// The comparison benchmark behind `gpsimd bench`: the model's fast kernels against the
// best CPU baselines for the same work (std::stable_sort, std::sort, Highway's vqsort
// and Boost.Sort's pdqsort_branchless and integer_sort on packed keys, memcpy) and
// against the model's own scalar reference, measured in one process with the
// contenders interleaved, every run's output verified against the scalar reference.
// docs/performance.md says how each baseline is built.
#pragma once

#include <cstdio>
#include <string>

namespace gpsimd {

struct BenchOptions {
  // Runs only the workloads whose name contains this text ("sort", "fp16", ...);
  // empty runs all of them.
  std::string filter;
  // Timed samples per contender; the table reports their medians.
  unsigned samples = 11;
  // Each sample repeats the workload until it lasts at least this long.
  double min_sample_ms = 5.0;
  // Lets instructions use the worker pool (threads over partitions); the baselines
  // always run on one thread. Without it every contender runs on the calling thread,
  // and samples are timed by that thread's CPU time (CLOCK_THREAD_CPUTIME_ID), which
  // does not count the time other processes had the CPU; with it, by wall-clock time.
  bool threads = true;
  // Times samples by wall-clock time even without threads.
  bool wall_clock = false;
  // Prints the workload names and returns without measuring.
  bool list = false;
  // Sort rows at N = 16 and 128 on all six value distributions; by default they run
  // on random bit patterns and normally distributed numbers only (the rows at the
  // largest N always run on all six).
  bool all_distributions = false;
  // The SIMD target to run ("avx3", "avx2" or "scalar"; empty: the CPU's best): the
  // kernels, the baselines' key loops and vqsort all run its code (kernels.h's
  // force_simd_target), so an AVX-512 machine measures the AVX2 paths too.
  std::string target;
};

// The machine a table is measured on, as the header prints it.
struct BenchMachine {
  std::string cpu_model;    // /proc/cpuinfo's first "model name"
  std::string simd_target;  // the Highway target the kernels run ("AVX3", "AVX2", ...)
  std::string best_target;  // the best one this CPU supports (differs when one is forced)
  unsigned hardware_threads = 0;
  std::string pinned_cpus;   // the calling thread's CPU affinity, as "0-3,6"
  std::string load_average;  // /proc/loadavg's 1, 5 and 15 minute averages
};
BenchMachine bench_machine();

// The table's header: the machine (bench_machine), the threads and the method.
std::string bench_header(const BenchOptions& opts);

// Runs the benchmark and prints its table (after bench_header, with every target's
// verdict) to `out`. Returns 0 when every run's output matched the
// scalar reference, 1 when some did not (the table says which), and 2 when the filter
// matches no workload or opts.target is not a target this CPU supports (nothing is
// measured then). A missed performance target is reported, not an error.
int run_bench_suite(const BenchOptions& opts, std::FILE* out);

}  // namespace gpsimd
