#!/usr/bin/env bash
# Sets up the machine, builds gpsimd (release preset) and runs the demo on built-in data.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
cmake --preset release >/dev/null
cmake --build --preset release --target gpsimd
exec ./build/release/tools/gpsimd demo "$@"
