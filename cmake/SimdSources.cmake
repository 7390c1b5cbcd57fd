# gpsimd_simd_sources(<out> <file>...): the files among <file>... that include Highway's
# foreach_target.h, directly or through src/common/simd_targets.h, i.e. that compile once
# per SIMD target. Found by reading the files rather than listed, so that a new SIMD file
# needs no entry. Build presets that are slow on such files (fuzz, asan) give them options
# of their own.
function(gpsimd_simd_sources out)
  set(found "")
  foreach(src ${ARGN})
    file(STRINGS ${src} uses_foreach_target
         REGEX "#include (<hwy/foreach_target.h>|\"common/simd_targets.h\")")
    if(uses_foreach_target)
      list(APPEND found ${src})
    endif()
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()

# gpsimd_gcc_asan(<out>): whether this build is GCC with AddressSanitizer (the asan
# preset), where the options below apply.
function(gpsimd_gcc_asan out)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_FLAGS MATCHES "-fsanitize=[^ ]*address")
    set(${out} TRUE PARENT_SCOPE)
  else()
    set(${out} FALSE PARENT_SCOPE)
  endif()
endfunction()

# gpsimd_sanitizer_simd_options(<file>...): under GCC's AddressSanitizer (the asan preset),
# the SIMD files among <file>... (sources of the calling directory's targets) are
# compiled without its use-after-scope checks. Those poison and unpoison every vector
# temporary of every inlined Highway op as it goes out of scope, and GCC then spends
# minutes on one such file (src/kernels/convert.cc: 330 s with them, 46 s without, on
# one core). Every other ASan check (heap, stack and global buffer overflows, use after
# free, leaks) and UBSan stay on for them, and the rest of the code keeps use-after-scope.
function(gpsimd_sanitizer_simd_options)
  gpsimd_gcc_asan(asan)
  if(NOT asan)
    return()
  endif()
  gpsimd_simd_sources(simd ${ARGN})
  set_property(SOURCE ${simd} DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} APPEND
               PROPERTY COMPILE_OPTIONS -fno-sanitize-address-use-after-scope)
endfunction()

# gpsimd_sanitizer_driver_options(<target>): under GCC's AddressSanitizer, <target>'s own
# sources (the test drivers: thousands of EXPECT temporaries and case tables) compile
# without use-after-scope checks too (tests/validate_test.cc: 102 s with them, 71 s
# without), and without UBSan's vptr check: every GoogleTest TEST is a class with virtual
# members and every assertion goes through them, and the check on each of those calls
# costs a third of a driver's build (tests/validate_test.cc: 95 s with it, 65 s without,
# two compiles at a time). The check sits at the call: the library's calls into the
# drivers' TraceSink recorders are still checked, in the library's code. The library
# keeps both checks; every other check stays on for both.
function(gpsimd_sanitizer_driver_options target)
  gpsimd_gcc_asan(asan)
  if(NOT asan)
    return()
  endif()
  target_compile_options(${target} PRIVATE -fno-sanitize-address-use-after-scope
                                           -fno-sanitize=vptr)
endfunction()
