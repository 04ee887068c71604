#!/usr/bin/env bash
# Builds Layerforge and runs every test. Installs the Debian packages it needs first (as root).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
build=${LF_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${LF_CMAKE_ARGS:-}
cmake --build "$build" -j "$(nproc)"
# oneDNN's OpenMP threads must not spin against each other: tests run one at a time, one thread each
# (CTest sets OMP_NUM_THREADS=1 and OMP_WAIT_POLICY=passive per test).
ctest --test-dir "$build" --output-on-failure
