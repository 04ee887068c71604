#!/usr/bin/env bash
# Builds Layerforge and opens the studio on the built-in example (Fashion-MNIST MLP).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
build=${LF_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${LF_CMAKE_ARGS:-}
cmake --build "$build" -j "$(nproc)"
exec "$build/app/layerforge" resources/templates/fashion_mlp.lfproj "$@"
