// Internal invariant checks: a broken invariant is a bug in gpsimd, never the
// user's input, so it aborts with file:line instead of returning an error.
#pragma once

#include <cstdio>
#include <cstdlib>

#define GPSIMD_CHECK(cond)                                                                      \
  do {                                                                                          \
    if (!(cond)) {                                                                              \
      std::fprintf(stderr, "gpsimd: internal error at %s:%d: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                             \
    }                                                                                           \
  } while (0)
