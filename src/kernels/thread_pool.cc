// The worker pool behind for_channels: workers sleep on a condition variable between
// jobs; a job hands out items through an atomic counter, so uneven channels balance.
#include "kernels/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace gpsimd::kernels {
namespace {

// One parallel job. It lives on the caller's stack; workers join it under the pool's
// mutex and the caller waits until every joined worker has left before returning.
struct Job {
  void (*fn)(void*, unsigned);
  void* ctx;
  unsigned n;
  std::atomic<unsigned> next{0};
  unsigned done = 0;    // items completed (under the pool's mutex)
  unsigned active = 0;  // workers inside the job (under the pool's mutex)
};

class Pool {
 public:
  Pool() {
    const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
    const unsigned workers = std::min(hw, 64u) - 1;
    threads_.reserve(workers);
    for (unsigned t = 0; t < workers; ++t) threads_.emplace_back([this] { work(); });
  }
  ~Pool() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }

  unsigned threads() const { return static_cast<unsigned>(threads_.size()) + 1; }

  void run(unsigned n, void (*fn)(void*, unsigned), void* ctx) {
    // One job at a time; a second caller (or a nested call) does its own work serially.
    std::unique_lock serial(job_mu_, std::try_to_lock);
    if (!serial.owns_lock()) {
      for (unsigned i = 0; i < n; ++i) fn(ctx, i);
      return;
    }
    Job job{fn, ctx, n};
    {
      std::lock_guard lock(mu_);
      job_ = &job;
      ++generation_;
    }
    wake_.notify_all();
    const unsigned mine = drain(job);
    std::unique_lock lock(mu_);
    job.done += mine;
    finished_.wait(lock, [&] { return job.done == job.n && job.active == 0; });
    job_ = nullptr;
  }

 private:
  // Runs items of the job until none is left; returns how many this thread ran.
  static unsigned drain(Job& job) {
    unsigned completed = 0;
    for (unsigned i; (i = job.next.fetch_add(1, std::memory_order_relaxed)) < job.n;) {
      job.fn(job.ctx, i);
      ++completed;
    }
    return completed;
  }

  void work() {
    uint64_t seen = 0;
    std::unique_lock lock(mu_);
    for (;;) {
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      Job* job = job_;
      if (job == nullptr) continue;  // that job already finished
      ++job->active;
      lock.unlock();
      const unsigned completed = drain(*job);
      lock.lock();
      job->done += completed;
      --job->active;
      finished_.notify_all();
    }
  }

  std::vector<std::thread> threads_;
  std::mutex job_mu_;  // held by the caller running the current job
  std::mutex mu_;      // guards everything below and the Job counters
  std::condition_variable wake_, finished_;
  bool stop_ = false;
  uint64_t generation_ = 0;
  Job* job_ = nullptr;
};

Pool& pool() {
  static Pool p;
  return p;
}

std::atomic<bool> g_parallel{true};

}  // namespace

void set_parallel(bool on) {
  g_parallel.store(on, std::memory_order_relaxed);
}
bool parallel_enabled() {
  return g_parallel.load(std::memory_order_relaxed);
}

unsigned pool_threads() {
  return pool().threads();
}

void pool_run(unsigned n, void (*fn)(void*, unsigned), void* ctx) {
  pool().run(n, fn, ctx);
}

}  // namespace gpsimd::kernels
