// Helpers shared by the fuzz targets: a check that reports the failing property and the
// input word, and whole-machine baseline checks.
#pragma once

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gpsimd/isa.h"
#include "gpsimd/machine.h"

namespace gpsimd::fuzz {

// Prints what broke and aborts, which libFuzzer reports as a crash and saves the input.
[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "gpsimd fuzz: property violated: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}

#define GPSIMD_FUZZ_CHECK(cond, ...)                                                           \
  do {                                                                                         \
    if (!(cond))                                                                               \
      ::gpsimd::fuzz::fail(                                                                    \
          fmt::format("{} ({}:{}): {}", #cond, __FILE__, __LINE__, fmt::format(__VA_ARGS__))); \
  } while (0)

// Returns true when every byte of [p, p + n) is zero.
inline bool all_zero(const uint8_t* p, std::size_t n) {
  static const uint8_t kZero[4096] = {};
  for (std::size_t i = 0; i < n; i += sizeof kZero) {
    const std::size_t k = n - i < sizeof kZero ? n - i : sizeof kZero;
    if (std::memcmp(p + i, kZero, k) != 0) return false;
  }
  return true;
}

// Returns an empty string when registers and semaphores are zero, accumulators -inf and
// search lanes fresh, as on a fresh machine, else what differs first.
inline std::string fresh_state_problem_small(const Machine& m) {
  for (unsigned i = 0; i < kRegisters; ++i)
    if (m.registers[i] != 0) return fmt::format("register {} is {:#010x}", i, m.registers[i]);
  for (unsigned i = 0; i < kSemaphores; ++i)
    if (m.semaphores[i] != 0) return fmt::format("semaphore {} is {:#010x}", i, m.semaphores[i]);
  for (unsigned i = 0; i < kPartitions; ++i)
    if (m.accumulators[i] != kNegInfBits)
      return fmt::format("accumulator {} is {:#010x}", i, m.accumulators[i]);
  for (unsigned i = 0; i < kPartitions; ++i)
    if (!m.match[i].fresh()) return fmt::format("search lane {} is not fresh", i);
  return {};
}

// Returns an empty string when the machine is in the state of a fresh one (memory,
// registers, semaphores zero, accumulators -inf, search lanes fresh), else what differs
// first.
inline std::string fresh_state_problem(const Machine& m) {
  for (Space s : kAllSpaces) {
    for (unsigned p = 0; p < kPartitions; ++p) {
      auto part = m.partition(s, p);
      if (all_zero(part.data(), part.size())) continue;
      std::size_t i = 0;
      while (part[i] == 0) ++i;
      return fmt::format("{} partition {} byte {:#x} is {:#04x}", space_name(s), p, i, part[i]);
    }
  }
  return fresh_state_problem_small(m);
}

}  // namespace gpsimd::fuzz
