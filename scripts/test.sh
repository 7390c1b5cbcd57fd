#!/usr/bin/env bash
# Sets up the machine and runs every test: the release build's suite (C++ and Python),
# then the whole C++ suite again under AddressSanitizer + UndefinedBehaviorSanitizer.
#   scripts/test.sh            everything
#   scripts/test.sh release    only the release suite
#   scripts/test.sh asan       only the sanitizer suite
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh

what="${1:-all}"
jobs="$(nproc)"

run_preset() {
  local preset="$1"
  echo "=== ${preset}: configure and build"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  echo "=== ${preset}: test"
  ctest --preset "$preset"
}

case "$what" in
  all) run_preset release; run_preset asan ;;
  release|asan|debug) run_preset "$what" ;;
  *) echo "usage: scripts/test.sh [all|release|asan|debug]" >&2; exit 2 ;;
esac
