// The SIMD targets that gpsimd's per-target files (src/alu/simd.cc, src/kernels/*.cc) are
// compiled for, and Highway's pass over such a file. A per-target file names itself, then
// includes this header before any of its per-target code:
//
//   #undef HWY_TARGET_INCLUDE
//   #define HWY_TARGET_INCLUDE "kernels/stream.cc"
//   #include "common/simd_targets.h"  // IWYU pragma: keep
//
// Highway's foreach_target.h then includes that file again once per target, and
// highway.h must be read again on each of those passes: that is why this header has no
// include guard. Written once here so that every per-target file has the same targets.
//
// The targets: AVX-512, AVX2 and the portable baseline. SSSE3 and SSE4 would only add
// build time, and the baseline still runs on those machines. A build may choose others by
// defining HWY_DISABLED_TARGETS itself (the fuzz preset does).
//
// cmake/SimdSources.cmake finds the per-target files by their include of this header.

#ifndef HWY_DISABLED_TARGETS
#define HWY_DISABLED_TARGETS (HWY_SSSE3 | HWY_SSE4)
#endif

// foreach_target.h must come before highway.h.
// clang-format off
#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>
// clang-format on
