#!/usr/bin/env bash
# Builds Layerforge and runs every test (installs the Debian packages it needs first, as root).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
# oneDNN's OpenMP threads must not spin against each other: tests run one at a time, and
# CTest gives each OMP_NUM_THREADS=1 and OMP_WAIT_POLICY=passive.
ctest --test-dir "${LF_BUILD_DIR:-build}" --output-on-failure
