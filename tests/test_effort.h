// How many random cases the randomised tests run (tests/kernels_equiv_test.cc,
// tests/execute_random_test.cc, tests/footprint_test.cc): GPSIMD_RANDOM_CASES, a
// percentage of each test's full count, 30 to 100 (default 100; below 30 a test's own
// checks on its tallies, such as "some case faulted", can fail: at 10, some do). The sanitizer
// preset runs them at a lower percentage (CMakePresets.json, docs/robustness.md): the cases are the
// same generators and the same seeds, only fewer of them, while the release suite runs
// them all. A value that is not a whole number in range stops the test with a message
// rather than running some other count.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace gpsimd::test_effort {

inline unsigned random_cases_percent() {
  static const unsigned percent = [] {
    const char* s = std::getenv("GPSIMD_RANDOM_CASES");
    if (s == nullptr || *s == '\0') return 100u;
    char* end = nullptr;
    const long v = std::strtol(s, &end, 10);
    if (*end != '\0' || v < 30 || v > 100) {
      std::fprintf(stderr,
                   "GPSIMD_RANDOM_CASES is '%s': it must be a whole percentage from 30 to 100 "
                   "(the share of each randomised test's cases to run; unset: 100)\n",
                   s);
      std::exit(2);
    }
    return static_cast<unsigned>(v);
  }();
  return percent;
}

// `full` cases scaled by GPSIMD_RANDOM_CASES, never below `at_least` (or `full`, when it
// is smaller): the minimum keeps a test's own checks on its tallies meaningful.
inline unsigned random_cases(unsigned full, unsigned at_least = 1) {
  const unsigned scaled = (full * random_cases_percent() + 99) / 100;
  const unsigned floor = at_least < full ? at_least : full;
  return scaled > floor ? scaled : floor;
}

}  // namespace gpsimd::test_effort
