#!/usr/bin/env bash
# Sets up the machine and runs every test: the release build's suite (C++ and Python),
# the whole C++ suite again under AddressSanitizer + UndefinedBehaviorSanitizer, and a
# short run of every libFuzzer target.
#   scripts/test.sh            everything
#   scripts/test.sh release    only the release suite
#   scripts/test.sh asan       only the sanitizer suite
#   scripts/test.sh fuzz       only the fuzz smoke runs (FUZZ_SECONDS per target, default 20)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# ccache's objects inside the build tree (always writable there; rm -rf build clears them).
export CCACHE_DIR="${CCACHE_DIR:-$PWD/build/ccache}"

what="${1:-all}"
jobs="$(nproc)"

# Each phase says how long it took (CI's time budget is spent here).
phase() {
  echo "=== $1 (${SECONDS} s so far)"
}

run_preset() {
  local preset="$1"
  phase "${preset}: configure and build"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  phase "${preset}: test"
  ctest --preset "$preset"
}

run_fuzz() {
  phase "fuzz: smoke run of every target"
  ./scripts/fuzz.sh smoke --seconds "${FUZZ_SECONDS:-20}" --jobs "$jobs"
}

case "$what" in
  all) run_preset release; run_preset asan; run_fuzz; phase "done" ;;
  release|asan|debug) run_preset "$what" ;;
  fuzz) run_fuzz ;;
  *) echo "usage: scripts/test.sh [all|release|asan|debug|fuzz]" >&2; exit 2 ;;
esac
