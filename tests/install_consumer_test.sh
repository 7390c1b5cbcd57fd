#!/usr/bin/env bash
# Installs the built tree into a temporary prefix, then builds examples/cpp against the
# installed package, with CMake (find_package(gpsimd)) and with pkg-config (gpsimd.pc),
# runs both and checks what they print (docs/cpp.md).
#   install_consumer_test.sh BUILD_DIR SOURCE_DIR CXX CXX_FLAGS LINKER_FLAGS LIBDIR
set -euo pipefail
build="$1" source="$2" cxx="$3" cxx_flags="${4:-}" link_flags="${5:-}" lib="${6:-lib}"
work="$(mktemp -d "${TMPDIR:-/tmp}/gpsimd_install.XXXXXX")"
trap 'rm -rf "$work"' EXIT
prefix="$work/prefix"

cmake --install "$build" --prefix "$prefix" >/dev/null
for f in include/gpsimd/machine.h include/gpsimd/execute.h "$lib/libgpsimd.a" \
         "$lib/cmake/gpsimd/gpsimdConfig.cmake" "$lib/cmake/gpsimd/gpsimdConfigVersion.cmake" \
         "$lib/pkgconfig/gpsimd.pc" bin/gpsimd; do
  [ -f "$prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done

# The installed library carries no benchmark and no baseline: `gpsimd bench` and its peers
# (std::stable_sort pairs, vqsort and Boost.Sort on packed keys) are bench/suite's own
# library, linked only by the tool. No symbol of gpsimd::bench, of its entry points or of
# Boost may be in libgpsimd.a.
bench_symbols="$(nm -C "$prefix/$lib/libgpsimd.a" 2>/dev/null |
  grep -E 'gpsimd::bench|run_bench_suite|bench_header|BenchOptions|boost::' || true)"
if [ -n "$bench_symbols" ]; then
  echo "libgpsimd.a holds benchmark code:"
  echo "$bench_symbols" | head -20
  exit 1
fi

# The expected output: SPEC §4.4's example ([9,3,5,1,0,0] ascending, index_offset 100)
# and the rules a word with stable=2 and comparison=0 breaks.
expect() {
  local out="$1"
  for line in \
    "text and fields give the same word: yes" \
    "execute: ok" \
    "values: 0 0 1 3 5 9" \
    "indices: 104 105 103 101 102 100" \
    "invalid: Sort: sort_valid_aluop: comparison = 0x00, must be IS_LT (0x16, ascending) or IS_GT (0x13, descending)" \
    "invalid: Sort: sort_valid_stable: stable = 0x02, must be 0 or 1" \
    "execute: invalid; machine unchanged: yes"; do
    grep -Fxq -- "$line" "$out" || { echo "missing line: $line"; cat "$out"; exit 1; }
  done
}

# CMake: a consumer project that knows nothing of the source tree.
cmake -S "$source/examples/cpp" -B "$work/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_CXX_FLAGS="$cxx_flags" \
  -DCMAKE_EXE_LINKER_FLAGS="$link_flags" >/dev/null
cmake --build "$work/cmake" >/dev/null
"$work/cmake/sort_example" >"$work/cmake.out"
expect "$work/cmake.out"
# docs/cpp.md shows the whole output after "The example prints:".
awk '/^The example prints:/ {on = 1; next} on && /^```$/ {if (open) exit; open = 1; next}
     open {print}' "$source/docs/cpp.md" >"$work/doc.out"
diff -u "$work/doc.out" "$work/cmake.out" || { echo "docs/cpp.md shows another output"; exit 1; }
echo "find_package(gpsimd): ok"

# pkg-config: the same source, one compiler command.
if command -v pkg-config >/dev/null; then
  # shellcheck disable=SC2046,SC2086
  "$cxx" $cxx_flags -o "$work/pc_example" "$source/examples/cpp/sort_example.cc" $link_flags \
    $(PKG_CONFIG_PATH="$prefix/$lib/pkgconfig" pkg-config --cflags --libs gpsimd)
  "$work/pc_example" >"$work/pc.out"
  expect "$work/pc.out"
  echo "pkg-config gpsimd: ok"
fi
