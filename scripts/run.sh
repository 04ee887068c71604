#!/usr/bin/env bash
# Builds Layerforge and opens the studio on the built-in example: the tutorial's CNN with
# Fashion-MNIST bound as an image folder (imported from Debian's dataset-fashion-mnist on first
# use, behind a progress bar), ready to press Train. Extra arguments go to the studio.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/build.sh
exec "${LF_BUILD_DIR:-build}/app/layerforge" --example "$@"
