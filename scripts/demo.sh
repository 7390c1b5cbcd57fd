#!/usr/bin/env bash
# Sets up the machine, builds gpsimd (release preset: the command-line tool and the Python
# module, so the README's Python example works after it too) and runs the demo on
# built-in data.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target gpsimd gpsimd_python
exec ./build/release/tools/gpsimd demo "$@"
