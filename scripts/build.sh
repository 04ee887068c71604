#!/usr/bin/env bash
# Installs what the build needs, then configures and builds Layerforge into ${LF_BUILD_DIR:-build}.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
build=${LF_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${LF_CMAKE_ARGS:-}
cmake --build "$build" -j "$(nproc)"
