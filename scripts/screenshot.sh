#!/usr/bin/env bash
# Regenerates docs/screenshots/canvas.png, canvas-dark.png and zh_CN.png (the studio in Simplified
# Chinese): the screenshot test rendered under Xvfb (xcb).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${LF_BUILD_DIR:-build}"
ninja -C "$build" test_screenshot
LF_SOURCE_DIR="$PWD" LF_SCREENSHOT_DIR="$PWD/docs/screenshots" QT_QPA_PLATFORM=xcb \
  xvfb-run -a -s "-screen 0 1366x768x24" "$build/tests/test_screenshot"
