#!/usr/bin/env bash
# Sets up the machine, builds gpsimd (release preset: the command-line tool and the Python
# module, so the README's Python example works after it too) and runs the demo on
# built-in data.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
# ccache's objects inside the build tree (always writable there; rm -rf build clears them).
export CCACHE_DIR="${CCACHE_DIR:-$PWD/build/ccache}"
cmake --preset release >/dev/null
cmake --build --preset release --target gpsimd gpsimd_python
exec ./build/release/tools/gpsimd demo "$@"
