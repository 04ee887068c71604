#!/usr/bin/env bash
# Builds Layerforge and opens the studio on the built-in example (Fashion-MNIST MLP).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
exec "${LF_BUILD_DIR:-build}/app/layerforge" resources/templates/fashion_mlp.lfproj "$@"
