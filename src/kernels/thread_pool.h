// A small persistent pool of worker threads for running the channels (partitions) of
// one instruction in parallel. Channels are independent, so an instruction whose work
// is large enough splits them across the caller and the workers; small instructions
// never touch the pool, so they pay nothing for it.
#pragma once

#include <cstdint>
#include <type_traits>

namespace gpsimd::kernels {

// Work below this many bytes of element traffic per instruction runs on the caller:
// waking a worker costs a few microseconds, which such work does not repay.
inline constexpr uint64_t kParallelMinBytes = 256 * 1024;

// Returns the number of threads that run a parallel job (the caller plus the workers).
unsigned pool_threads();

// Whether for_channels may use the pool (default true); false runs everything on the
// caller, for measuring one thread.
void set_parallel(bool on);
bool parallel_enabled();

// Runs fn(ctx, i) for every i in [0, n), spread over the caller and the pool's workers,
// and returns when all have run. Runs everything on the caller when the pool is busy
// (another thread's job, or a call from inside a job), so it never deadlocks.
void pool_run(unsigned n, void (*fn)(void* ctx, unsigned i), void* ctx);

// Runs f(i) for i in [0, n): in parallel when there are at least two items and
// `work_bytes` reaches kParallelMinBytes, otherwise in order on the caller.
template <class F>
void for_channels(unsigned n, uint64_t work_bytes, F&& f) {
  if (n < 2 || work_bytes < kParallelMinBytes || !parallel_enabled() || pool_threads() < 2) {
    for (unsigned i = 0; i < n; ++i) f(i);
    return;
  }
  using Fn = std::remove_reference_t<F>;
  pool_run(
      n, [](void* ctx, unsigned i) { (*static_cast<Fn*>(ctx))(i); },
      const_cast<void*>(static_cast<const void*>(&f)));
}

}  // namespace gpsimd::kernels
